-- Shared views for metrics (include 'lib_slices.sql';): slices with the
-- thread and process they ran on. Include-only (lib_* files are not metrics).
-- Views over the core tables (slice, track, thread, process), not over the
-- core's TEMP views, so that metrics can build ordinary views on top.

-- lib_thread_slice: every slice on a thread track.
--   slice_id, ts, dur, name, category, depth, parent_id: from slice
--   track_id, is_main_track: the track; is_main_track = 1 for the
--   thread's own slice track: type 'thread', or a thread descriptor's
--   own track (Perfetto's thread_track_event with is_root_in_scope in its
--   source args); the thread's other slice tracks (descriptor tracks under
--   it, JSON's overlap lanes) get 0
--   utid, tid, thread_name: the thread of the track
--   upid, pid, process_name: its process (NULL when unknown)
create view if not exists lib_thread_slice as
select s.id as slice_id, s.ts, s.dur, s.name, s.category, s.depth, s.parent_id,
       s.track_id, t.type = 'thread' or ifnull(r.int_value, 0) as is_main_track, t.utid, th.tid, th.name as thread_name, th.upid, p.pid, p.name as process_name
from slice s
join track t on s.track_id = t.id and t.utid is not null and t.is_counter = 0
  and t.type glob 'thread*' and t.type not glob '*_state_track_event'
left join args r on r.arg_set_id = t.source_arg_set_id and r.key = 'is_root_in_scope'
join thread th on th.utid = t.utid
left join process p on p.upid = th.upid;

-- lib_thread_task: top-level slices (depth 0) on a thread's own track that
-- finished (dur > 0): the "tasks" of the thread's run loop. Async slices
-- on thread-scoped tracks (performance.measure, ...) are not tasks.
create view if not exists lib_thread_task as
select * from lib_thread_slice where depth = 0 and dur > 0 and is_main_track;
