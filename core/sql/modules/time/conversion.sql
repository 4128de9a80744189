-- time.conversion: trace timestamps and durations are nanoseconds; these
-- convert from and to other units (to_* truncate toward zero).

-- A count of nanoseconds as a timestamp or duration (the same number).
CREATE PERFETTO FUNCTION time_from_ns(nanos LONG) RETURNS TIMESTAMP AS SELECT $nanos;
-- Microseconds to nanoseconds.
CREATE PERFETTO FUNCTION time_from_us(micros LONG) RETURNS TIMESTAMP AS SELECT $micros * 1000;
-- Milliseconds to nanoseconds.
CREATE PERFETTO FUNCTION time_from_ms(millis LONG) RETURNS TIMESTAMP AS SELECT $millis * 1000000;
-- Seconds to nanoseconds.
CREATE PERFETTO FUNCTION time_from_s(seconds LONG) RETURNS TIMESTAMP AS SELECT $seconds * 1000000000;
-- Minutes to nanoseconds.
CREATE PERFETTO FUNCTION time_from_min(minutes LONG) RETURNS TIMESTAMP AS SELECT $minutes * 60000000000;
-- Hours to nanoseconds.
CREATE PERFETTO FUNCTION time_from_hours(hours LONG) RETURNS TIMESTAMP AS SELECT $hours * 3600000000000;
-- Days to nanoseconds.
CREATE PERFETTO FUNCTION time_from_days(days LONG) RETURNS TIMESTAMP AS SELECT $days * 86400000000000;

-- A timestamp or duration as a count of nanoseconds (the same number).
CREATE PERFETTO FUNCTION time_to_ns(nanos TIMESTAMP) RETURNS LONG AS SELECT $nanos;
-- Nanoseconds to whole microseconds.
CREATE PERFETTO FUNCTION time_to_us(nanos TIMESTAMP) RETURNS LONG AS SELECT $nanos / 1000;
-- Nanoseconds to whole milliseconds.
CREATE PERFETTO FUNCTION time_to_ms(nanos TIMESTAMP) RETURNS LONG AS SELECT $nanos / 1000000;
-- Nanoseconds to whole seconds.
CREATE PERFETTO FUNCTION time_to_s(nanos TIMESTAMP) RETURNS LONG AS SELECT $nanos / 1000000000;
-- Nanoseconds to whole minutes.
CREATE PERFETTO FUNCTION time_to_min(nanos TIMESTAMP) RETURNS LONG AS SELECT $nanos / 60000000000;
-- Nanoseconds to whole hours.
CREATE PERFETTO FUNCTION time_to_hours(nanos TIMESTAMP) RETURNS LONG AS SELECT $nanos / 3600000000000;
-- Nanoseconds to whole days.
CREATE PERFETTO FUNCTION time_to_days(nanos TIMESTAMP) RETURNS LONG AS SELECT $nanos / 86400000000000;
