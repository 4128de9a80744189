-- Every place the trace says data was lost: an error alert at each one.
-- Sources: the import stats of severity data_loss (CTF events_discarded and
-- packets lost, Perfetto dropped packets, truncated JSON/proto/CTF) and the
-- "lost events (N discarded)" slices the CTF importer puts where a stream
-- discarded events.

-- lost_events_output_stat: stats that report lost data (fills `stat`).
--   name, idx, source, value, description: the stats row
create view lost_events_output_stat as
select name, idx, source, value, description
from stats
where severity = 'data_loss' and value > 0
order by name, idx;

-- lost_events_output_gap: the importers' "lost events" slices (fills `gap`).
--   slice_id, ts, dur: the importer's slice; track_name: its track
--   count: the N of "(N discarded)" in the slice name, 0 when absent
create view lost_events_output_gap as
select s.id as slice_id, s.ts, s.dur, t.name as track_name,
       case when instr(s.name, '(') > 0 and instr(s.name, ' discarded)') > instr(s.name, '(')
            then cast(substr(s.name, instr(s.name, '(') + 1,
                             instr(s.name, ' discarded)') - instr(s.name, '(') - 1) as integer)
            else 0 end as count
from slice s join track t on s.track_id = t.id
where s.name glob 'lost events*' and t.type != 'annotation'
order by s.ts, s.id;

-- lost_events_output: the summary (one row).
--   total_lost: sum of the data_loss stats (events, packets or bytes,
--   depending on the stat)
create view lost_events_output as
select (select coalesce(sum(value), 0) from lost_events_output_stat) as total_lost;

-- lost_events_annotations: one error on a global "Lost data" track per
-- gap (where it happened) and per stat that has no gap slices (at the end
-- of the trace for truncations, at its start otherwise).
--   slice_name: the gap slice's name, or "<stat>: <value> (<description>)"
--   source_slice_id: the gap slice; alert_type: always 'error'
create view lost_events_annotations as
select 'slice' as track_type, 'Lost data' as track_name,
       g.ts, g.dur,
       (select name from slice where id = g.slice_id) as slice_name,
       null as value,
       g.slice_id as source_slice_id,
       'error' as alert_type
from lost_events_output_gap g
union all
select 'slice', 'Lost data',
       case when st.name glob '*truncated*' then b.end_ts else b.start_ts end,
       0,
       st.name || ': ' || st.value || ' (' || st.description || ')',
       null, null, 'error'
from lost_events_output_stat st, trace_bounds b
where not (st.name = 'ctf_events_discarded'
           and exists (select 1 from lost_events_output_gap where count > 0));
