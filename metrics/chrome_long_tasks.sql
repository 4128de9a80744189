-- Top-level tasks of 50 ms or more per thread (warning), 250 ms or more (error).
-- A "task" is a top-level slice (depth 0) on a thread track, as Chrome's
-- run-loop tasks are; the thresholds are RAIL's long-task limit and a
-- "frozen UI" limit.
include 'lib_slices.sql';

-- chrome_long_tasks_output_task: one row per long task, by ts (fills the
-- repeated field `task`).
--   slice_id, ts, dur, name: the task's slice
--   utid, tid, thread_name, pid, process_name: where it ran
--   severity: 'warning' (>= 50 ms) or 'error' (>= 250 ms)
create view chrome_long_tasks_output_task as
select slice_id, ts, dur, name, utid, tid, thread_name, pid, process_name,
       case when dur >= 250000000 then 'error' else 'warning' end as severity
from lib_thread_task
where dur >= 50000000
order by ts, slice_id;

-- chrome_long_tasks_output_thread: threads with at least one long task
-- (fills the repeated field `thread`).
--   utid, tid, thread_name, pid, process_name: the thread
--   task_count: all top-level tasks of the thread, long or not
--   long_task_count, long_task_dur_ns: its long tasks and their total
--   max_task_dur_ns: its longest task
create view chrome_long_tasks_output_thread as
select t.utid, t.tid, t.thread_name, t.pid, t.process_name,
       count(*) as task_count,
       sum(t.dur >= 50000000) as long_task_count,
       sum(case when t.dur >= 50000000 then t.dur else 0 end) as long_task_dur_ns,
       max(t.dur) as max_task_dur_ns
from lib_thread_task t
group by t.utid
having sum(t.dur >= 50000000) > 0
order by t.utid;

-- chrome_long_tasks_output: the summary (one row).
--   warning_threshold_ns, error_threshold_ns: the limits used above
--   task_count: top-level tasks on every thread
--   long_task_count, warning_count, error_count, long_task_dur_ns: totals
--   of chrome_long_tasks_output_task
create view chrome_long_tasks_output as
select 50000000 as warning_threshold_ns,
       250000000 as error_threshold_ns,
       (select count(*) from lib_thread_task) as task_count,
       count(*) as long_task_count,
       coalesce(sum(severity = 'warning'), 0) as warning_count,
       coalesce(sum(severity = 'error'), 0) as error_count,
       coalesce(sum(dur), 0) as long_task_dur_ns
from chrome_long_tasks_output_task;

-- chrome_long_tasks_annotations: a "Long tasks" track in each thread that
-- has long tasks; every long task is an alert pointing at its slice.
--   columns as docs/metrics.md: slice rows named like the task, scoped to
--   its thread (utid), source_slice_id = the task, alert_type = severity
create view chrome_long_tasks_annotations as
select 'slice' as track_type,
       'Long tasks' as track_name,
       ts, dur,
       name as slice_name,
       null as value,
       utid,
       slice_id as source_slice_id,
       severity as alert_type
from chrome_long_tasks_output_task;
