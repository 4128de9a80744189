-- Garbage-collection slices (V8, Blink, ART): totals, and alerts at >= 10 ms (warning) / >= 50 ms (error).
-- A GC slice is a thread slice whose name contains "GC" (V8.GC*,
-- MajorGC, MinorGC, BlinkGC.*, CppGC.*, ART's "... concurrent copying GC")
-- and whose parent is not one: nested GC phases are not counted twice.
include 'lib_slices.sql';

-- long_gc_slice: outermost GC slices that finished.
--   the columns of lib_thread_slice
create view long_gc_slice as
select s.* from lib_thread_slice s
where s.name glob '*GC*' and s.dur >= 0
  and not exists (select 1 from slice p where p.id = s.parent_id and p.name glob '*GC*');

-- long_gc_output_gc: GC slices of 10 ms or more, by ts (fills `gc`).
--   slice_id, ts, dur, name, utid, thread_name: the GC slice and its thread
--   severity: 'warning' (>= 10 ms) or 'error' (>= 50 ms)
create view long_gc_output_gc as
select slice_id, ts, dur, name, utid, thread_name,
       case when dur >= 50000000 then 'error' else 'warning' end as severity
from long_gc_slice where dur >= 10000000
order by ts, slice_id;

-- long_gc_output: totals over all GC slices (one row).
--   gc_count, gc_dur_ns, max_gc_dur_ns: over long_gc_slice
--   long_gc_count: rows of long_gc_output_gc
create view long_gc_output as
select count(*) as gc_count, coalesce(sum(dur), 0) as gc_dur_ns,
       coalesce(max(dur), 0) as max_gc_dur_ns,
       (select count(*) from long_gc_output_gc) as long_gc_count
from long_gc_slice;

-- long_gc_annotations: a "Long GC" track in each thread with long GCs.
--   slice rows scoped to the thread; source_slice_id = the GC slice;
--   alert_type = severity
create view long_gc_annotations as
select 'slice' as track_type, 'Long GC' as track_name, ts, dur,
       name as slice_name, null as value, utid,
       slice_id as source_slice_id, severity as alert_type
from long_gc_output_gc;
