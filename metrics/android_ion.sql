-- ION heap usage from counters named like mem.ion* / ion_heap* (atrace, ftrace).
-- Each ION counter becomes an "ION: <name>" counter track in the
-- Annotations group; the output summarises each one.

-- android_ion_track: the ION counter tracks of the trace.
--   id, name: the counter track
create view android_ion_track as
select id, name from track
where is_counter = 1 and type != 'annotation'
  and (name glob 'mem.ion*' or name glob 'ion_heap*' or name glob '*.ion_heap*'
       or name glob 'ion.*' or name = 'ion');

-- android_ion_sample: samples with the time to the next one (NULL last).
--   name: the track; ts, value: the sample; span: ns to the next sample
create view android_ion_sample as
select t.name, c.ts, c.value,
       lead(c.ts) over (partition by c.track_id order by c.ts) - c.ts as span
from counter c join android_ion_track t on c.track_id = t.id;

-- android_ion_output_buffer: one row per ION counter (fills `buffer`).
--   name: the counter; sample_count, min_value, max_value: of its samples
--   avg_value: time-weighted over [first sample, last sample); the plain
--   value when there is one sample
--   last_value: the value of the last sample
create view android_ion_output_buffer as
select name, count(*) as sample_count, min(value) as min_value, max(value) as max_value,
       coalesce(sum(value * span) * 1.0 / nullif(sum(span), 0), avg(value)) as avg_value,
       (select s2.value from android_ion_sample s2 where s2.name = s.name
        order by s2.ts desc limit 1) as last_value
from android_ion_sample s
group by name
order by name;

-- android_ion_output: no scalar fields; `buffer` is NULL here so it comes
-- from the view android_ion_output_buffer.
create view android_ion_output as
select null as buffer;

-- android_ion_annotations: a counter track "ION: <name>" per ION counter.
--   counter rows: ts and value of each sample
create view android_ion_annotations as
select 'counter' as track_type, 'ION: ' || name as track_name,
       ts, 0 as dur, null as slice_name, value
from android_ion_sample;
