-- counters.intervals: counter samples as intervals.

-- Each sample of counter_table (id, ts, track_id, value) becomes the
-- interval up to the next kept sample of its track (the last one up to
-- the end of the trace). Within a run of equal values the first and the
-- last sample are kept and the ones between merge into one row.
-- Result: (id, ts, dur, track_id, value, next_value, delta_value), where
-- next_value is the next kept row's value and delta_value the change
-- from the previous kept row (NULL for a track's first row).
CREATE PERFETTO MACRO counter_leading_intervals(
  counter_table TableOrSubquery
)
RETURNS TableOrSubquery AS
(
  WITH _c AS (
    SELECT id, ts, track_id, value,
           lag(value) OVER _w AS prev, lag(value, 2) OVER _w AS prev2,
           lead(value) OVER _w AS next
    FROM $counter_table
    WINDOW _w AS (PARTITION BY track_id ORDER BY ts)
  ),
  _kept AS (
    SELECT id, ts, track_id, value FROM _c
    WHERE prev IS NULL OR prev != value          -- first of a run
       OR next IS NULL OR next != value          -- last of a run
       OR prev2 IS NULL OR prev2 != value        -- first of the merged middle
  )
  SELECT id, ts,
         ifnull(lead(ts) OVER _k, trace_end()) - ts AS dur,
         track_id, value,
         lead(value) OVER _k AS next_value,
         value - lag(value) OVER _k AS delta_value
  FROM _kept
  WINDOW _k AS (PARTITION BY track_id ORDER BY ts)
  ORDER BY track_id, ts
);
