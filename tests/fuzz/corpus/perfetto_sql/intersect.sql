INCLUDE PERFETTO MODULE intervals.*;
SELECT * FROM _interval_intersect!(((SELECT id, ts, dur FROM slice), (SELECT id, ts, dur FROM slice)), ());