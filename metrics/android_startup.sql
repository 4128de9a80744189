-- App startups from atrace slices: one annotation slice per launch with its phases nested.
-- A startup is a "launching: <package>" slice (async, on any track); its
-- phases are the first bindApplication, activityStart and activityResume
-- slices inside it, and the first Choreographer#doFrame after
-- activityResume, taken from the app's threads (the process named like
-- the package, or any thread when no process has that name).
include 'lib_slices.sql';

-- android_startup_launch: one row per launch.
--   startup_id: 0, 1, ... by ts; launch_slice_id, ts, dur: the launch slice
--   package_name: the name after "launching: "
create view android_startup_launch as
select row_number() over (order by s.ts, s.id) - 1 as startup_id,
       s.id as launch_slice_id, s.ts, s.dur,
       substr(s.name, 12) as package_name
from slice s
where s.name glob 'launching: *' and s.dur > 0
  and s.track_id not in (select id from track where type = 'annotation');

-- android_startup_candidate: phase slices inside a launch window, on the
-- app's threads.
--   startup_id; slice_id, name, ts, dur: the phase slice
create view android_startup_candidate as
select l.startup_id, s.slice_id, s.name, s.ts, s.dur
from android_startup_launch l
join lib_thread_slice s
  on s.ts >= l.ts and s.ts < l.ts + l.dur and s.dur >= 0
 and s.name in ('bindApplication', 'activityStart', 'activityResume', 'Choreographer#doFrame')
 and (s.process_name = l.package_name
      or not exists (select 1 from process where name = l.package_name));

-- android_startup_phase: the first of each phase per launch (SQLite gives
-- the other columns of the row holding min(ts)).
--   phase: bindApplication | activityStart | activityResume | first frame
--   startup_id; slice_id, ts, dur: the slice chosen for the phase
create view android_startup_phase as
select startup_id, name as phase, slice_id, min(ts) as ts, dur
from android_startup_candidate
where name != 'Choreographer#doFrame'
group by startup_id, name
union all
select c.startup_id, 'first frame', c.slice_id, min(c.ts), c.dur
from android_startup_candidate c
join android_startup_launch l using (startup_id)
where c.name = 'Choreographer#doFrame'
  and c.ts >= coalesce((select min(ts) from android_startup_candidate r
                        where r.startup_id = c.startup_id and r.name = 'activityResume'), l.ts)
group by c.startup_id;

-- android_startup_output: one row; `startup` is a JSON array of Startup.
--   startup: [{startup_id, package_name, ts, dur, launch_slice_id,
--   <phase>_dur..., time_to_first_frame_ns}], absent phases as null
create view android_startup_output as
select (
  select json_group_array(json_object(
           'startup_id', l.startup_id,
           'package_name', l.package_name,
           'ts', l.ts,
           'dur', l.dur,
           'launch_slice_id', l.launch_slice_id,
           'bind_application_dur', (select dur from android_startup_phase p
                                    where p.startup_id = l.startup_id and p.phase = 'bindApplication'),
           'activity_start_dur', (select dur from android_startup_phase p
                                  where p.startup_id = l.startup_id and p.phase = 'activityStart'),
           'activity_resume_dur', (select dur from android_startup_phase p
                                   where p.startup_id = l.startup_id and p.phase = 'activityResume'),
           'first_frame_dur', (select dur from android_startup_phase p
                               where p.startup_id = l.startup_id and p.phase = 'first frame'),
           'time_to_first_frame_ns', (select p.ts + p.dur - l.ts from android_startup_phase p
                                      where p.startup_id = l.startup_id and p.phase = 'first frame')))
  from (select * from android_startup_launch order by startup_id) l
) as startup;

-- android_startup_annotations: an "Android startups" track: the launch
-- as "startup: <package>" (a warning at >= 2 s, an error at >= 5 s, the
-- Android vitals limits for a cold start) with its phases nested under it,
-- clipped to the launch.
create view android_startup_annotations as
select 'slice' as track_type, 'Android startups' as track_name,
       l.ts, l.dur,
       'startup: ' || l.package_name as slice_name,
       null as value,
       l.launch_slice_id as source_slice_id,
       case when l.dur >= 5000000000 then 'error'
            when l.dur >= 2000000000 then 'warning' end as alert_type
from android_startup_launch l
union all
select 'slice', 'Android startups',
       p.ts, min(p.dur, l.ts + l.dur - p.ts),
       p.phase, null, p.slice_id, null
from android_startup_phase p join android_startup_launch l using (startup_id);
