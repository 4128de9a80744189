-- Shared views for metrics (include 'lib_slices.sql';): slices with the
-- thread and process they ran on. Include-only (lib_* files are not metrics).
-- Views over the core tables (slice, track, thread, process), not over the
-- core's TEMP views, so that metrics can build ordinary views on top.

-- lib_thread_slice: every slice on a thread track.
--   slice_id, ts, dur, name, category, depth, parent_id: from slice
--   track_id, is_main_track: the track; is_main_track = 1 for the
--   thread's own slice track (thread-scoped async tracks hang under it
--   through parent_id and get 0)
--   utid, tid, thread_name: the thread of the track
--   upid, pid, process_name: its process (NULL when unknown)
create view if not exists lib_thread_slice as
select s.id as slice_id, s.ts, s.dur, s.name, s.category, s.depth, s.parent_id,
       s.track_id, t.parent_id is null as is_main_track, t.utid, th.tid, th.name as thread_name, th.upid, p.pid, p.name as process_name
from slice s
join track t on s.track_id = t.id and t.type = 'thread'
join thread th on th.utid = t.utid
left join process p on p.upid = th.upid;

-- lib_thread_task: top-level slices (depth 0) on a thread's own track that
-- finished (dur > 0): the "tasks" of the thread's run loop. Async slices
-- on thread-scoped tracks (performance.measure, ...) are not tasks.
create view if not exists lib_thread_task as
select * from lib_thread_slice where depth = 0 and dur > 0 and is_main_track;
