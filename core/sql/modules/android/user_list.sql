-- android.user_list: Android's users (not Linux uids), as the
-- android.user_list data source lists them.

-- A row per Android user.
CREATE PERFETTO VIEW android_user_list(
  -- The Android user id.
  android_user_id LONG,
  -- The user's type ("android.os.usertype.full.SECONDARY", ...).
  type STRING
) AS
SELECT android_user_id, type FROM __intrinsic_android_user_list;
