/*
 * builtins.c - registers Perfetto's core functions and tables (builtins.h)
 * on a trace's connection, and the table names the stdlib and Perfetto's
 * queries read that are views here:
 *
 *   select * from counters;   -- counter with its track's name and unit
 *   select * from slices;     -- trace processor's old name of `slice`
 *   select cpu from cpu;      -- one row per CPU seen in the trace
 */
#include "builtins.h"

/* Views are resolved when used: they may be created before the tables
 * they read are registered. */
static const char builtin_views[] =
	"CREATE TEMP VIEW IF NOT EXISTS slices AS SELECT * FROM slice;"
	"CREATE TEMP VIEW IF NOT EXISTS counters AS SELECT c.id, c.ts, c.track_id, c.value, c.arg_set_id,"
	"  t.name, t.unit FROM counter c JOIN track t ON c.track_id = t.id WHERE t.is_counter = 1 ORDER BY c.ts;"
	/* cpu: the CPUs the importer recorded (__intrinsic_cpu, vtab_tables.c);
	 * for a trace that records none, every CPU a track, a sched slice or
	 * a thread state names */
	"CREATE TEMP VIEW IF NOT EXISTS cpu AS"
	"  SELECT id, ucpu, cpu, cluster_id, processor, machine_id, capacity,"
	"    arg_set_id FROM __intrinsic_cpu"
	"  UNION ALL"
	"  SELECT cpu AS id, cpu AS ucpu, cpu, NULL AS cluster_id,"
	"    NULL AS processor, NULL AS machine_id, NULL AS capacity, NULL AS arg_set_id"
	"  FROM (SELECT cpu FROM track WHERE cpu IS NOT NULL"
	"        UNION SELECT DISTINCT cpu FROM sched_slice"
	"        UNION SELECT DISTINCT cpu FROM thread_state WHERE cpu IS NOT NULL)"
	"  WHERE NOT EXISTS (SELECT 1 FROM __intrinsic_cpu)"
	"  ORDER BY cpu;";

int tt_sql_register_builtins(sqlite3 *db, tt_storage *st)
{
	int rc = tt_sql_register_functions(db, st);

	if (rc == SQLITE_OK)
		rc = tt_sql_register_ancestor(db, st);
	if (rc == SQLITE_OK)
		rc = tt_sql_register_flow(db, st);
	if (rc == SQLITE_OK)
		rc = tt_sql_register_slice_layout(db, st);
	if (rc == SQLITE_OK)
		rc = tt_sql_register_span_join(db);
	if (rc == SQLITE_OK)
		rc = tt_sql_register_intervals(db);
	if (rc == SQLITE_OK)
		rc = tt_sql_register_flamegraph(db);
	if (rc == SQLITE_OK)
		rc = tt_sql_register_table_info(db);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, builtin_views, NULL, NULL, NULL);
	return rc;
}
