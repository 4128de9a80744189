-- Per-thread busy time (top-level slices) and CPU time (sched data).
-- busy = sum of the durations of a thread's top-level slices, which never
-- overlap on one track; running = sum of its sched_slice durations.
include 'lib_slices.sql';

-- thread_utilization_dur: the trace's duration in ns (at least 1).
--   dur: end_ts - start_ts of trace_bounds
create view thread_utilization_dur as
select max(end_ts - start_ts, 1) as dur from trace_bounds;

-- thread_utilization_busy: per thread, top-level slice count and busy ns.
--   utid; slice_count: its tasks; busy_ns: their summed durations
create view thread_utilization_busy as
select utid, count(*) as slice_count, sum(dur) as busy_ns
from lib_thread_task group by utid;

-- thread_utilization_running: per thread, ns on a CPU.
--   utid; running_ns: summed sched_slice durations
create view thread_utilization_running as
select utid, sum(dur) as running_ns from sched_slice where dur > 0 group by utid;

-- thread_utilization_output_thread: one row per thread that was busy or
-- ran, busiest first (fills the repeated field `thread`).
--   utid, tid, thread_name, pid, process_name: the thread
--   slice_count, busy_ns: from thread_utilization_busy (0 when none)
--   running_ns: from sched data; NULL when the trace has none
--   busy_ratio, running_ratio: fractions of the trace's duration
create view thread_utilization_output_thread as
select th.utid, th.tid, th.name as thread_name, p.pid, p.name as process_name,
       coalesce(b.slice_count, 0) as slice_count,
       coalesce(b.busy_ns, 0) as busy_ns,
       coalesce(b.busy_ns, 0) * 1.0 / (select dur from thread_utilization_dur) as busy_ratio,
       case when (select count(*) from sched_slice) > 0
            then coalesce(r.running_ns, 0) end as running_ns,
       case when (select count(*) from sched_slice) > 0
            then coalesce(r.running_ns, 0) * 1.0 / (select dur from thread_utilization_dur)
       end as running_ratio
from thread th
left join process p on p.upid = th.upid
left join thread_utilization_busy b on b.utid = th.utid
left join thread_utilization_running r on r.utid = th.utid
where b.utid is not null or r.utid is not null
order by coalesce(b.busy_ns, 0) + coalesce(r.running_ns, 0) desc, th.utid;

-- thread_utilization_output: the summary (one row).
--   trace_dur_ns: duration of the trace
--   has_sched: 1 when running_ns comes from sched data
--   total_busy_ns: sum of busy_ns over all threads
create view thread_utilization_output as
select (select dur from thread_utilization_dur) as trace_dur_ns,
       (select count(*) from sched_slice) > 0 as has_sched,
       (select coalesce(sum(busy_ns), 0) from thread_utilization_busy) as total_busy_ns;

-- thread_utilization_annotations: a global counter track "Busy threads":
-- how many threads are inside a top-level slice, at each change.
--   counter rows: ts = a task start or end, value = running sum of +1
--   (start) / -1 (end) over all threads
create view thread_utilization_annotations as
with ev as (
	select ts, 1 as d from lib_thread_task
	union all
	select ts + dur as ts, -1 as d from lib_thread_task
), steps as (
	select ts, sum(d) as d from ev group by ts
)
select 'counter' as track_type,
       'Busy threads' as track_name,
       ts, 0 as dur,
       null as slice_name,
       sum(d) over (order by ts) as value
from steps;
