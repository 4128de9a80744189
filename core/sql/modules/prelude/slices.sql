-- prelude.slices: included before every script, as Perfetto's prelude is.

-- 1 when ancestor_id is a strict ancestor of descendant_id, else 0.
CREATE OR REPLACE PERFETTO FUNCTION slice_is_ancestor(ancestor_id LONG, descendant_id LONG)
RETURNS BOOL AS
WITH RECURSIVE up(sid) AS (
  SELECT parent_id FROM slice WHERE id = $descendant_id
  UNION ALL
  SELECT s.parent_id FROM up JOIN slice s ON s.id = up.sid WHERE s.parent_id IS NOT NULL
)
SELECT EXISTS (SELECT 1 FROM up WHERE sid = $ancestor_id);
