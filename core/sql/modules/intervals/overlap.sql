-- intervals.overlap: how many intervals are open at each moment, and
-- merging overlapping intervals.

-- The number of intervals of `segments` open from each ts on: one row per
-- distinct start or end, (ts TIMESTAMP, value LONG). An interval with
-- dur -1 (never ended) stays open.
CREATE PERFETTO MACRO intervals_overlap_count(
  segments TableOrSubquery,
  ts_column ColumnName,
  dur_column ColumnName
)
RETURNS TableOrSubquery AS
(
  WITH _edges(ts, delta) AS (
    SELECT $ts_column, 1 FROM $segments
    UNION ALL
    SELECT $ts_column + $dur_column, -1 FROM $segments WHERE $dur_column != -1
  ),
  _steps AS (SELECT ts, sum(delta) AS delta FROM _edges GROUP BY ts)
  SELECT ts, sum(delta) OVER (ORDER BY ts ROWS UNBOUNDED PRECEDING) AS value
  FROM _steps
  ORDER BY ts
);

-- The same, counted separately for each value of group_column:
-- (ts TIMESTAMP, value LONG, group_name).
CREATE PERFETTO MACRO intervals_overlap_count_by_group(
  segments TableOrSubquery,
  ts_column ColumnName,
  dur_column ColumnName,
  group_column ColumnName
)
RETURNS TableOrSubquery AS
(
  WITH _edges(ts, delta, grp) AS (
    SELECT $ts_column, 1, $group_column FROM $segments
    UNION ALL
    SELECT $ts_column + $dur_column, -1, $group_column FROM $segments WHERE $dur_column != -1
  ),
  _steps AS (SELECT ts, grp, sum(delta) AS delta FROM _edges GROUP BY grp, ts)
  SELECT ts,
         sum(delta) OVER (PARTITION BY grp ORDER BY ts ROWS UNBOUNDED PRECEDING) AS value,
         grp AS group_name
  FROM _steps
  ORDER BY grp, ts
);

-- Merges the intervals (ts, dur) of `intervals` that overlap, or lie less
-- than epsilon apart, into (ts, dur) rows in ts order.
CREATE PERFETTO MACRO interval_merge_overlapping(
  intervals TableOrSubquery,
  epsilon Expr
)
RETURNS TableOrSubquery AS
(
  WITH _count AS (
    SELECT ts, value, lag(value, 1, 0) OVER (ORDER BY ts) AS before
    FROM intervals_overlap_count!($intervals, ts, (dur + $epsilon))
  ),
  _bounds AS (
    -- where the count leaves 0 (a start) and comes back to 0 (an end)
    SELECT ts - iif(value = 0, $epsilon, 0) AS ts, value
    FROM _count WHERE before = 0 OR value = 0
  ),
  _pairs AS (SELECT ts, value, lag(ts) OVER (ORDER BY ts) AS start FROM _bounds)
  SELECT start AS ts, ts - start AS dur FROM _pairs WHERE value = 0 AND start IS NOT NULL
);
