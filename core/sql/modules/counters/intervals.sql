-- counters.intervals: counter samples as intervals.

-- Each sample of counter_table (id, ts, track_id, value) becomes the
-- interval up to the next kept sample of its track (the last one up to
-- the end of the trace). Within a run of equal values the first two
-- samples are kept, the ones after merge into the second, and the run's
-- last sample is kept when another value follows it (as Perfetto does).
-- Result: (id, ts, dur, track_id, value, next_value, delta_value), where
-- next_value is the next kept row's value and delta_value the change
-- from the previous kept row (NULL for a track's first row).
-- (Computed by __intrinsic_counter_intervals, core/sql/intervals.c.)
CREATE PERFETTO MACRO counter_leading_intervals(
  counter_table TableOrSubquery
)
RETURNS TableOrSubquery AS
(
  SELECT id, ts, dur, track_id, value, next_value, delta_value
  FROM __intrinsic_counter_intervals('leading', trace_end(),
    __intrinsic_sql_string!((SELECT id, ts, track_id, value FROM $counter_table)))
);
