-- Main-thread tasks (CrBrowserMain, CrRendererMain) of 50 ms or more (warning), 250 ms or more (error).
-- A long task blocks input and rendering only on
-- a main thread - the browser's UI thread (CrBrowserMain) and each
-- renderer's main thread (CrRendererMain) - as Perfetto's Chrome long
-- task metrics count them; thread-pool workers, dedicated workers and IO
-- threads run long work by design and are not flagged. A task is a
-- top-level slice (depth 0) on the thread's own track, as Chrome's
-- run-loop tasks (RunTask) are; run-loop lifetime slices ("ThreadController
-- active", "WorkerThread active") are not tasks, the RunTask slices right
-- under them are. The thresholds are RAIL's long-task limit and a "frozen
-- UI" limit.
include 'lib_slices.sql';

-- chrome_long_tasks_task: every task of a main thread (long or not).
create view chrome_long_tasks_task as
select s.* from lib_thread_slice s
where s.dur > 0 and s.is_main_track
  and s.thread_name in ('CrBrowserMain', 'CrRendererMain')
  and ((s.depth = 0 and s.name not like '% active')
       or (s.depth = 1 and s.name in ('RunTask', 'ThreadControllerImpl::RunTask', 'ThreadPool_RunTask')
           and (select p.name from slice p where p.id = s.parent_id) like '% active'));

-- chrome_long_tasks_output_task: one row per long task, by ts (fills the
-- repeated field `task`).
--   slice_id, ts, dur, name: the task's slice
--   utid, tid, thread_name, pid, process_name: where it ran
--   severity: 'warning' (>= 50 ms) or 'error' (>= 250 ms)
create view chrome_long_tasks_output_task as
select slice_id, ts, dur, name, utid, tid, thread_name, pid, process_name,
       case when dur >= 250000000 then 'error' else 'warning' end as severity
from chrome_long_tasks_task
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
from chrome_long_tasks_task t
group by t.utid
having sum(t.dur >= 50000000) > 0
order by t.utid;

-- chrome_long_tasks_output: the summary (one row).
--   warning_threshold_ns, error_threshold_ns: the limits used above
--   task_count: tasks on the main threads
--   long_task_count, warning_count, error_count, long_task_dur_ns: totals
--   of chrome_long_tasks_output_task
create view chrome_long_tasks_output as
select 50000000 as warning_threshold_ns,
       250000000 as error_threshold_ns,
       (select count(*) from chrome_long_tasks_task) as task_count,
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
