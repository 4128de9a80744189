-- intervals.intersect: where intervals of several tables overlap.

-- The intersections of the intervals of every table of `tabs`, written
-- (t0, t1, ...): each table has id, ts and dur. Only rows with equal
-- values of the partition columns `cols`, written (c, ...) or (), meet.
-- Result: (ts, dur, id_0, id_1, ..., c, ...) with dur > 0, one row per
-- combination of overlapping intervals.
CREATE PERFETTO MACRO _interval_intersect(
  tabs TableOrSubqueryList,
  cols ColumnNameList
)
RETURNS TableOrSubquery AS
__intrinsic_interval_intersect_sql!($tabs, $cols);

-- The intervals (id, ts, dur) of `t` cut to [ts, ts + dur); those outside
-- are dropped. Result: (id, ts, dur).
CREATE PERFETTO MACRO _interval_intersect_single(
  ts Expr,
  dur Expr,
  t TableOrSubquery
)
RETURNS TableOrSubquery AS
(
  SELECT id,
         max(ts, ($ts)) AS ts,
         min(ts + dur, ($ts) + ($dur)) - max(ts, ($ts)) AS dur
  FROM (SELECT id, ts, dur FROM $t)
  WHERE max(ts, ($ts)) < min(ts + dur, ($ts) + ($dur))
);
