-- slices.hierarchy: walking the slice tree.

-- The slice, then its ancestors from the root down.
CREATE PERFETTO FUNCTION _slice_ancestor_and_self(slice_id JOINID(slice.id))
RETURNS TABLE(
  id JOINID(slice.id), ts TIMESTAMP, dur DURATION, track_id JOINID(track.id),
  category STRING, name STRING, depth LONG, parent_id JOINID(slice.id),
  arg_set_id ARGSETID, thread_ts TIMESTAMP, thread_dur LONG
) AS
WITH RECURSIVE up(sid) AS (
  SELECT $slice_id
  UNION ALL
  SELECT s.parent_id FROM up JOIN slice s ON s.id = up.sid WHERE s.parent_id IS NOT NULL
)
SELECT s.id, s.ts, s.dur, s.track_id, s.category, s.name, s.depth, s.parent_id,
       s.arg_set_id, s.thread_ts, s.thread_dur
FROM up JOIN slice s ON s.id = up.sid
ORDER BY s.id != $slice_id, s.depth;

-- The slice, then its descendants in ts order.
CREATE PERFETTO FUNCTION _slice_descendant_and_self(slice_id JOINID(slice.id))
RETURNS TABLE(
  id JOINID(slice.id), ts TIMESTAMP, dur DURATION, track_id JOINID(track.id),
  category STRING, name STRING, depth LONG, parent_id JOINID(slice.id),
  arg_set_id ARGSETID, thread_ts TIMESTAMP, thread_dur LONG
) AS
WITH RECURSIVE down(sid) AS (
  SELECT id FROM slice WHERE id = $slice_id
  UNION ALL
  SELECT s.id FROM down JOIN slice s ON s.parent_id = down.sid
)
SELECT s.id, s.ts, s.dur, s.track_id, s.category, s.name, s.depth, s.parent_id,
       s.arg_set_id, s.thread_ts, s.thread_dur
FROM down JOIN slice s ON s.id = down.sid
ORDER BY s.id != $slice_id, s.ts, s.depth;

-- Drops the rows of slice_table whose column_name is NULL. A kept row's
-- parent_id becomes its nearest kept ancestor (NULL when none is kept) and
-- depth that ancestor's depth in slice_table (0 when none), as Perfetto's
-- stdlib computes it. slice_table needs id, parent_id, depth and
-- column_name. Result: (id, parent_id, depth, column_name).
CREATE PERFETTO MACRO _slice_remove_nulls_and_reparent(
  slice_table TableOrSubquery,
  column_name ColumnName
)
RETURNS TableOrSubquery AS
(
  WITH RECURSIVE
    _src AS (SELECT * FROM $slice_table),
    _up(id, anc) AS (
      SELECT s.id, s.parent_id FROM _src s WHERE s.$column_name IS NOT NULL
      UNION ALL
      SELECT u.id, p.parent_id
      FROM _up u JOIN _src p ON p.id = u.anc
      WHERE p.$column_name IS NULL
    )
  SELECT s.id, u.anc AS parent_id, ifnull(a.depth, 0) AS depth, s.$column_name
  FROM _up u
  JOIN _src s ON s.id = u.id
  LEFT JOIN _src a ON a.id = u.anc
  WHERE u.anc IS NULL OR a.$column_name IS NOT NULL
  ORDER BY s.id
);
