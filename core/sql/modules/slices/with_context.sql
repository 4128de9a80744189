-- slices.with_context: slices with the thread and process they belong to.
--
-- thread_slice             slices on thread tracks, with thread and process
-- process_slice            slices on process tracks (async), with process
-- thread_or_process_slice  both, thread columns NULL for process slices

-- Slices of thread tracks. A thread whose process is unknown has NULL
-- process columns (the slice is still listed).
CREATE OR REPLACE PERFETTO VIEW thread_slice(
  id ID(slice.id),
  ts TIMESTAMP,
  dur DURATION,
  category STRING,
  name STRING,
  track_id JOINID(track.id),
  track_name STRING,
  thread_name STRING,
  utid JOINID(thread.id),
  tid LONG,
  is_main_thread BOOL,
  process_name STRING,
  upid JOINID(process.id),
  pid LONG,
  depth LONG,
  parent_id JOINID(slice.id),
  arg_set_id ARGSETID,
  thread_ts TIMESTAMP,
  thread_dur LONG
) AS
SELECT s.id, s.ts, s.dur, s.category, s.name, s.track_id,
       tt.name AS track_name,
       t.name AS thread_name, t.utid, t.tid, t.is_main_thread,
       p.name AS process_name, t.upid, p.pid,
       s.depth, s.parent_id, s.arg_set_id, s.thread_ts, s.thread_dur
FROM thread_track tt
JOIN thread t ON t.utid = tt.utid
LEFT JOIN process p ON p.upid = t.upid
-- the slices innermost: read per track from the track index, with the
-- track's thread and process looked up once per track, not once per slice
CROSS JOIN slice s ON s.track_id = tt.id;

-- Slices of process-scoped tracks (async slices).
CREATE OR REPLACE PERFETTO VIEW process_slice(
  id ID(slice.id),
  ts TIMESTAMP,
  dur DURATION,
  category STRING,
  name STRING,
  track_id JOINID(track.id),
  track_name STRING,
  process_name STRING,
  upid JOINID(process.id),
  pid LONG,
  depth LONG,
  parent_id JOINID(slice.id),
  arg_set_id ARGSETID,
  thread_ts TIMESTAMP,
  thread_dur LONG
) AS
SELECT s.id, s.ts, s.dur, s.category, s.name, s.track_id,
       pt.name AS track_name,
       p.name AS process_name, p.upid, p.pid,
       s.depth, s.parent_id, s.arg_set_id, s.thread_ts, s.thread_dur
FROM process_track pt
JOIN process p ON p.upid = pt.upid
CROSS JOIN slice s ON s.track_id = pt.id;

-- Thread slices then process slices.
CREATE OR REPLACE PERFETTO VIEW thread_or_process_slice(
  id JOINID(slice.id),
  ts TIMESTAMP,
  dur DURATION,
  category STRING,
  name STRING,
  track_id JOINID(track.id),
  track_name STRING,
  thread_name STRING,
  utid JOINID(thread.id),
  tid LONG,
  process_name STRING,
  upid JOINID(process.id),
  pid LONG,
  depth LONG,
  parent_id JOINID(slice.id),
  arg_set_id ARGSETID
) AS
SELECT id, ts, dur, category, name, track_id, track_name, thread_name, utid, tid,
       process_name, upid, pid, depth, parent_id, arg_set_id
FROM thread_slice
UNION ALL
SELECT id, ts, dur, category, name, track_id, track_name, NULL, NULL, NULL,
       process_name, upid, pid, depth, parent_id, arg_set_id
FROM process_slice;
