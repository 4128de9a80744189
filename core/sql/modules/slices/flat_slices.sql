-- slices.flat_slices: the slice stacks of each thread flattened to one
-- level: at any moment, the deepest running slice.

INCLUDE PERFETTO MODULE slices.with_context;

-- The thread slices cut where their children run: each row is a stretch
-- of time in which slice_id was the deepest running slice of its stack
-- (for A [0, 10) with child C [2, 5): A [0, 2), C [2, 5), A [5, 10)).
-- Stretches of no time and slices that never ended (dur -1) are left out;
-- so are times when no slice runs. Rows in track, then ts order.
CREATE PERFETTO TABLE _slice_flattened(
  -- The deepest running slice.
  slice_id JOINID(slice.id),
  -- When it became the deepest running slice.
  ts TIMESTAMP,
  -- For how long it stayed so.
  dur DURATION,
  -- Its depth in its stack.
  depth LONG,
  -- Its name.
  name STRING,
  -- The root slice of its stack.
  root_id JOINID(slice.id),
  -- Its track.
  track_id JOINID(track.id),
  -- Its thread.
  utid JOINID(thread.id),
  -- The thread's tid.
  tid LONG,
  -- The thread's name.
  thread_name STRING,
  -- Its process.
  upid JOINID(process.id),
  -- The process's pid.
  pid LONG,
  -- The process's name.
  process_name STRING
) AS
WITH RECURSIVE
  _ts AS (SELECT * FROM thread_slice WHERE dur >= 0),
  _root(id, root_id) AS (
    SELECT id, id FROM _ts WHERE parent_id IS NULL
    UNION ALL
    SELECT c.id, r.root_id FROM _root r JOIN slice c ON c.parent_id = r.id
  ),
  _kids AS (
    SELECT parent_id AS pid, ts, ts + dur AS e,
           lag(ts + dur) OVER (PARTITION BY parent_id ORDER BY ts) AS prev_e
    FROM _ts WHERE parent_id IS NOT NULL
  ),
  _pieces(id, ts, dur) AS (
    -- before each child: from the parent's start or the previous child's end
    SELECT k.pid, ifnull(k.prev_e, p.ts), k.ts - ifnull(k.prev_e, p.ts)
    FROM _kids k JOIN _ts p ON p.id = k.pid
    UNION ALL
    -- after the last child, or the whole slice when it has none
    SELECT p.id, ifnull(m.last_e, p.ts), p.ts + p.dur - ifnull(m.last_e, p.ts)
    FROM _ts p LEFT JOIN (SELECT pid, max(e) AS last_e FROM _kids GROUP BY pid) m ON m.pid = p.id
  )
SELECT s.id AS slice_id, x.ts, x.dur, s.depth, s.name, r.root_id, s.track_id,
       s.utid, s.tid, s.thread_name, s.upid, s.pid, s.process_name
FROM _pieces x
JOIN _ts s ON s.id = x.id
LEFT JOIN _root r ON r.id = x.id
WHERE x.dur > 0
ORDER BY s.track_id, x.ts;
