-- android.power_rails: the energy Android's on-device power monitor
-- measured per rail (the power_rails counter tracks of PowerRails
-- packets), as intervals and per rail.

INCLUDE PERFETTO MODULE counters.intervals;

-- Each energy sample of a rail, up to the rail's next kept sample.
CREATE PERFETTO TABLE android_power_rails_counters(
  -- The sample's `counter.id`.
  id ID(counter.id),
  -- When it was measured.
  ts TIMESTAMP,
  -- Up to the next kept sample of the rail.
  dur DURATION,
  -- The rail's track name (power.rails.<name> or power.<raw>_uws).
  power_rail_name STRING,
  -- The rail's name as the hardware gives it.
  raw_power_rail_name STRING,
  -- Energy since boot (uWs).
  energy_since_boot DOUBLE,
  -- Energy since boot at the next kept sample (uWs).
  energy_since_boot_at_end DOUBLE,
  -- Mean power up to the next kept sample (mW).
  average_power DOUBLE,
  -- Energy since the previous kept sample (uWs).
  energy_delta DOUBLE,
  -- The rail's track.
  track_id JOINID(track.id),
  -- The same as energy_since_boot (kept for old queries).
  value DOUBLE
) AS
SELECT i.id, i.ts, i.dur, t.name AS power_rail_name,
  extract_arg(t.source_arg_set_id, 'raw_name') AS raw_power_rail_name,
  i.value AS energy_since_boot, i.next_value AS energy_since_boot_at_end,
  1e6 * ((i.next_value - i.value) / i.dur) AS average_power, i.delta_value AS energy_delta,
  i.track_id, i.value
FROM counter_leading_intervals!((
  SELECT c.id, c.ts, c.track_id, c.value
  FROM counter c JOIN counter_track t ON t.id = c.track_id
  WHERE t.type = 'power_rails'
)) i
JOIN counter_track t ON t.id = i.track_id;

-- One row per rail.
CREATE PERFETTO TABLE android_power_rails_metadata(
  -- The rail's track name.
  power_rail_name STRING,
  -- The rail's name as the hardware gives it.
  raw_power_rail_name STRING,
  -- The name trace processor knows the rail by (power.rails.<name>), else NULL.
  friendly_name STRING,
  -- The rail's track.
  track_id JOINID(track.id),
  -- The subsystem the rail powers.
  subsystem_name STRING,
  -- The machine of the rail.
  machine_id JOINID(machine.id)
) AS
SELECT name AS power_rail_name, extract_arg(source_arg_set_id, 'raw_name') AS raw_power_rail_name,
  iif(name GLOB 'power.rails.*', substr(name, length('power.rails.') + 1), NULL) AS friendly_name,
  id AS track_id, extract_arg(source_arg_set_id, 'subsystem_name') AS subsystem_name, machine_id
FROM counter_track
WHERE type = 'power_rails';
