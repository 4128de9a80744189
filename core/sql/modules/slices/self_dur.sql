-- slices.self_dur: the time a slice spends in itself, not in its children.

-- Per slice: dur minus the summed dur of its direct children.
CREATE PERFETTO TABLE slice_self_dur(
  id ID(slice.id),
  self_dur DURATION
) AS
WITH children AS (
  SELECT parent_id AS id, sum(dur) AS total FROM slice
  WHERE parent_id IS NOT NULL GROUP BY parent_id
)
SELECT s.id, s.dur - ifnull(c.total, 0) AS self_dur
FROM slice s LEFT JOIN children c USING (id)
ORDER BY s.id;
