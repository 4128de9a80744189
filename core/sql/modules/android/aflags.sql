-- android.aflags: Android's aconfig flags, as the android.aflags data
-- source's snapshots saw them.

-- A row per flag per snapshot.
CREATE PERFETTO VIEW android_aflags(
  -- When the snapshot was taken.
  ts TIMESTAMP,
  -- The flag's package.
  package STRING,
  -- The flag's name in its package.
  name STRING,
  -- Its namespace.
  flag_namespace STRING,
  -- Its container ("system", "product", ...).
  container STRING,
  -- Its value then.
  value STRING,
  -- The value it takes after a reboot, when one is staged.
  staged_value STRING,
  -- read-only or read-write.
  permission STRING,
  -- Where the value came from: default, server or local.
  value_picked_from STRING,
  -- Where the flag is stored: aconfigd, device_config or none.
  storage_backend STRING,
  -- boolean or integer.
  type STRING
) AS
SELECT ts, package, name, flag_namespace, container, value, staged_value, permission, value_picked_from,
  storage_backend, type
FROM __intrinsic_android_aflags;
