-- android.entity_state_residency: how long Android's power entities spent
-- in each of their states (the entity_state counter tracks of
-- EntityStateResidency packets).

-- Each residency sample, up to the next sample of its entity and state.
CREATE PERFETTO TABLE android_entity_state_residency(
  -- The sample's `counter.id`.
  id ID(counter.id),
  -- When it was sampled.
  ts TIMESTAMP,
  -- Up to the next sample of the same entity and state (NULL for the last).
  dur DURATION,
  -- The entity ("Bluetooth", ...).
  entity_name STRING,
  -- The state ("Idle", ...).
  state_name STRING,
  -- The track's name ("Entity residency: <entity> is <state>").
  raw_name STRING,
  -- Time in the state since boot (ns).
  state_time_since_boot DURATION,
  -- The same at the next sample (ns).
  state_time_since_boot_at_end DURATION,
  -- The share of the time up to the next sample spent in the state (0 to 1).
  state_time_ratio DOUBLE,
  -- The entity and state's track.
  track_id JOINID(track.id)
) AS
WITH tracks AS (
  SELECT id, name,
    iif(name GLOB 'Entity residency: * is *',
        substr(name, length('Entity residency: ') + 1, instr(name, ' is ') - length('Entity residency: ') - 1),
        NULL) AS entity_name,
    iif(name GLOB 'Entity residency: * is *', substr(name, instr(name, ' is ') + length(' is ')), NULL)
      AS state_name
  FROM counter_track
  WHERE type = 'entity_state'
),
samples AS (
  SELECT c.id, c.ts, lead(c.ts) OVER w - c.ts AS dur, t.entity_name, t.state_name, t.name AS raw_name,
    CAST(c.value * 1e6 AS INTEGER) AS state_time_since_boot,
    CAST(lead(c.value) OVER w * 1e6 AS INTEGER) AS state_time_since_boot_at_end, c.track_id
  FROM counter c JOIN tracks t ON c.track_id = t.id
  WINDOW w AS (PARTITION BY c.track_id ORDER BY c.ts)
)
SELECT id, ts, dur, entity_name, state_name, raw_name, state_time_since_boot, state_time_since_boot_at_end,
  (state_time_since_boot_at_end - state_time_since_boot) * 1.0 / dur AS state_time_ratio, track_id
FROM samples;
