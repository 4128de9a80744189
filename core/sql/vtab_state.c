/*
 * vtab_state.c - Perfetto's state tracks: the `state` table (a value held
 * by a track from ts for dur, TrackEvent TYPE_STATE) and the views
 * state_track, process_state_track and thread_state_track over `track`,
 * with trace processor's names and columns; and the `machine` table.
 */
#include "vtab.h"

enum { ST_ID, ST_TS, ST_DUR, ST_TRACK, ST_CAT, ST_VALUE, ST_ARGS };

static size_t state_n(const tt_storage *st) { return st->state.n; }

static void state_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	switch (c) {
	case ST_ID: sqlite3_result_int64(ctx, (int64_t)r); break;
	case ST_TS: sqlite3_result_int64(ctx, st->state.ts[r]); break;
	case ST_DUR: sqlite3_result_int64(ctx, st->state.dur[r]); break;
	case ST_TRACK: tt_vtab_result_id(ctx, st->state.track[r]); break;
	case ST_ARGS: tt_vtab_result_id(ctx, st->state.arg_set_id[r]); break;
	case ST_CAT: tt_vtab_result_str(ctx, st, st->state.cat[r]); break;
	case ST_VALUE: tt_vtab_result_str(ctx, st, st->state.value[r]); break;
	}
}

static const int64_t *state_ts(const tt_storage *st) { return st->state.ts; }
/* rows are appended by the importer as the sorted events come */
static int state_sorted(const tt_storage *st) { (void)st; return 1; }

static const tt_vtab_def state_def = {
	.name = "__intrinsic_state",
	.schema = "CREATE TABLE x(id INTEGER, ts INTEGER, dur INTEGER, track_id INTEGER,"
		  " category TEXT, value TEXT, arg_set_id INTEGER)",
	.nrows = state_n, .column = state_col,
	.id_col = ST_ID, .track_col = -1, .ts_col = ST_TS, .name_col = -1, .argset_col = ST_ARGS,
	.id_alias_col = -1, .ts = state_ts, .ts_sorted = state_sorted,
};

/* machine: the machine a trace came from (storage.h: tt_storage_machine). */
static size_t machine_n(const tt_storage *st) { return st->machine.set ? 1 : 0; }
static void machine_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	(void)r;
	if (c == 0)
		sqlite3_result_int64(ctx, 0);
	else
		sqlite3_result_int64(ctx, st->machine.raw_id);
}

static const tt_vtab_def machine_def = {
	.name = "machine",
	.schema = "CREATE TABLE x(id INTEGER, raw_id INTEGER)",
	.nrows = machine_n, .column = machine_col,
	.id_col = 0, .track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = -1, .id_alias_col = -1,
};

/* A state track's type names its scope (trace processor's blueprints
 * thread_state_track_event, process_state_track_event, ...). */
static const char state_views[] =
	"CREATE TEMP VIEW state AS SELECT * FROM __intrinsic_state;"
	"CREATE TEMP VIEW state_track AS SELECT id, name, parent_id, type,"
	"  NULL AS dimension_arg_set_id, source_arg_set_id, machine_id FROM track"
	"  WHERE type GLOB '*_state_track_event';"
	"CREATE TEMP VIEW process_state_track AS SELECT id, name, type, parent_id,"
	"  source_arg_set_id, machine_id, upid FROM track"
	"  WHERE type GLOB '*_state_track_event' AND upid IS NOT NULL AND utid IS NULL;"
	"CREATE TEMP VIEW thread_state_track AS SELECT id, name, type, parent_id,"
	"  source_arg_set_id, machine_id, utid FROM track"
	"  WHERE type GLOB '*_state_track_event' AND utid IS NOT NULL;";

int tt_vtab_register_state(sqlite3 *db, tt_storage *st)
{
	int rc = tt_vtab_register(db, st, &state_def);

	if (rc == SQLITE_OK)
		rc = tt_vtab_register(db, st, &machine_def);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, state_views, NULL, NULL, NULL);
	return rc;
}
