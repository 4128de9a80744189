/*
 * vtab_tables.c - the core tables as virtual tables, with Perfetto's names
 * and columns so that a Perfetto user's SQL runs unchanged:
 *
 *   select name, count(*) c from slice group by name order by c desc;
 *   select * from slice where id = 123;                      -- one row
 *   select * from slice where track_id = 4 and ts > 1e9;     -- CSR index
 *   select s.name from slice s join thread_track tt on s.track_id = tt.id
 *     join thread using (utid) where thread.name = 'CrBrowserMain';
 *
 * Each table is a tt_vtab_def (vtab.h): its schema next to its column
 * reader. Views (thread_track, process_track, counter_track, ...) are SQL
 * over `track`, created in tt_vtab_register_core.
 */
#include "vtab.h"
#include "builtins.h"

#include <stdio.h>
#include <string.h>

/* ---- value helpers -------------------------------------------------------- */

static void r_int(sqlite3_context *ctx, int64_t v)
{
	sqlite3_result_int64(ctx, v);
}

static void r_ts(sqlite3_context *ctx, int64_t v) /* TT_TS_NONE -> NULL */
{
	if (v == TT_TS_NONE)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_int64(ctx, v);
}

static void r_id64(sqlite3_context *ctx, int64_t v) /* -1 -> NULL */
{
	if (v < 0)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_int64(ctx, v);
}

static void r_text(sqlite3_context *ctx, const char *t)
{
	sqlite3_result_text(ctx, t, -1, SQLITE_STATIC);
}

/* ---- slice ------------------------------------------------------------------ */

/* trace processor's slice view, in its order (thread_instruction_count
 * and _delta: NULL, no trace we read has them; cat and slice_id: its
 * aliases). Its old `type` column is gone there, and here: a query's
 * unqualified `type` means its track's. */
enum { SL_ID, SL_TS, SL_DUR, SL_TRACK, SL_CAT, SL_NAME, SL_DEPTH, SL_PARENT, SL_ARGS,
       SL_TTS, SL_TDUR, SL_TICOUNT, SL_TIDELTA, SL_CAT_ALIAS, SL_SLICE_ID };
static size_t slice_n(const tt_storage *st) { return st->slice.n; }
static const int64_t *slice_ts(const tt_storage *st) { return st->slice.ts; }
static int slice_sorted(const tt_storage *st) { return st->slice.sorted; }
static const tt_str *slice_names(const tt_storage *st) { return st->slice.name; }
static const uint32_t *slice_tracks(const tt_storage *st) { return st->slice.track; }
static void slice_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	switch (c) {
	case SL_ID: case SL_SLICE_ID: r_int(ctx, (int64_t)r); break;
	case SL_TS: r_int(ctx, st->slice.ts[r]); break;
	case SL_DUR: r_int(ctx, st->slice.dur[r]); break;
	case SL_TRACK: tt_vtab_result_id(ctx, st->slice.track[r]); break;
	case SL_CAT: case SL_CAT_ALIAS: tt_vtab_result_str(ctx, st, st->slice.cat[r]); break;
	case SL_NAME: tt_vtab_result_str(ctx, st, st->slice.name[r]); break;
	case SL_DEPTH: r_int(ctx, st->slice.depth[r]); break;
	case SL_PARENT: r_id64(ctx, st->slice.parent_id[r]); break;
	case SL_ARGS: tt_vtab_result_id(ctx, tt_storage_slice_args(st, (int64_t)r)); break;
	case SL_TTS: r_ts(ctx, st->slice.thread_ts ? st->slice.thread_ts[r] : TT_TS_NONE); break;
	case SL_TDUR: r_ts(ctx, st->slice.thread_dur ? st->slice.thread_dur[r] : TT_TS_NONE); break;
	default: sqlite3_result_null(ctx); break; /* thread_instruction_count / _delta */
	}
}
void tt_vtab_slice_column(const tt_storage *st, size_t row, int col, sqlite3_context *ctx)
{
	slice_col(st, row, col, ctx);
}
static const tt_vtab_def slice_def = {
	.name = "slice",
	.schema = "CREATE TABLE x(id INTEGER, ts INTEGER, dur INTEGER, track_id INTEGER,"
		  " category TEXT, name TEXT, depth INTEGER, parent_id INTEGER,"
		  " arg_set_id INTEGER, thread_ts INTEGER, thread_dur INTEGER, thread_instruction_count INTEGER,"
		  " thread_instruction_delta INTEGER, cat TEXT, slice_id INTEGER)",
	.nrows = slice_n, .column = slice_col,
	.id_col = SL_ID, .track_col = SL_TRACK, .ts_col = SL_TS, .name_col = SL_NAME,
	.argset_col = -1, .id_alias_col = SL_SLICE_ID, .ts = slice_ts, .ts_sorted = slice_sorted, .names = slice_names,
	.tracks = slice_tracks, .track_is_counter = 0,
};

/* ---- counter ---------------------------------------------------------------- */

/* (no `type` column: trace processor dropped it; see slice) */
enum { CT_ID, CT_TS, CT_TRACK, CT_VALUE, CT_ARGS };
static size_t counter_n(const tt_storage *st) { return st->counter.n; }
static const int64_t *counter_ts(const tt_storage *st) { return st->counter.ts; }
static int counter_sorted(const tt_storage *st) { return st->counter.sorted; }
static const uint32_t *counter_tracks(const tt_storage *st) { return st->counter.track; }
static void counter_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	switch (c) {
	case CT_ID: r_int(ctx, (int64_t)r); break;
	case CT_TS: r_int(ctx, st->counter.ts[r]); break;
	case CT_TRACK: tt_vtab_result_id(ctx, st->counter.track[r]); break;
	case CT_VALUE: sqlite3_result_double(ctx, st->counter.value[r]); break;
	case CT_ARGS: tt_vtab_result_id(ctx, tt_storage_counter_args(st, r)); break;
	}
}
static const tt_vtab_def counter_def = {
	.name = "counter",
	.schema = "CREATE TABLE x(id INTEGER, ts INTEGER, track_id INTEGER, value REAL,"
		  " arg_set_id INTEGER)",
	.nrows = counter_n, .column = counter_col,
	.id_col = CT_ID, .track_col = CT_TRACK, .ts_col = CT_TS, .name_col = -1,
	.argset_col = -1, .id_alias_col = -1, .ts = counter_ts, .ts_sorted = counter_sorted,
	.tracks = counter_tracks, .track_is_counter = 1,
};

/* ---- process / thread ---------------------------------------------------------- */

/* Columns in trace processor's order (its process and thread views);
 * sort_index is ours (the viewer's track order): HIDDEN, so `SELECT *`
 * gives what trace processor gives. */
enum { PR_ID, PR_UPID, PR_PID, PR_NAME, PR_START, PR_END, PR_PARENT, PR_UID, PR_APPID, PR_USERID,
       PR_CMDLINE, PR_ARGS, PR_MACHINE, PR_SORT };
static size_t process_n(const tt_storage *st) { return st->process.n; }
static void process_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	int64_t uid = st->process.uid[r];

	switch (c) {
	case PR_ID: case PR_UPID: r_int(ctx, (int64_t)r); break;
	case PR_PID: r_int(ctx, st->process.pid[r]); break;
	case PR_NAME: tt_vtab_result_str(ctx, st, st->process.name[r]); break;
	case PR_START: r_ts(ctx, st->process.start_ts[r]); break;
	case PR_END: r_ts(ctx, st->process.end_ts[r]); break;
	case PR_PARENT: tt_vtab_result_id(ctx, st->process.parent_upid[r]); break;
	case PR_SORT: r_ts(ctx, st->process.sort_index[r]); break;
	case PR_UID: r_ts(ctx, uid); break;
	/* Android's UserHandle: uid = user * 100000 + app id (trace
	 * processor's SetProcessUid) */
	case PR_APPID: r_ts(ctx, uid == TT_TS_NONE ? uid : uid % 100000); break;
	case PR_USERID: r_ts(ctx, uid == TT_TS_NONE ? uid : uid / 100000); break;
	case PR_CMDLINE: tt_vtab_result_str(ctx, st, st->process.cmdline[r]); break;
	case PR_ARGS: tt_vtab_result_id(ctx, st->process.arg_set_id[r]); break;
	default: tt_vtab_result_id(ctx, tt_storage_machine_of(st, 'p', r)); break; /* machine_id */
	}
}
static const tt_vtab_def process_def = {
	.name = "process",
	.schema = "CREATE TABLE x(id INTEGER, upid INTEGER, pid INTEGER, name TEXT,"
		  " start_ts INTEGER, end_ts INTEGER, parent_upid INTEGER, uid INTEGER,"
		  " android_appid INTEGER, android_user_id INTEGER,"
		  " cmdline TEXT, arg_set_id INTEGER, machine_id INTEGER, sort_index INTEGER HIDDEN)",
	.nrows = process_n, .column = process_col,
	.id_col = PR_ID, .track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = -1, .id_alias_col = PR_UPID,
};

enum { TH_ID, TH_UTID, TH_TID, TH_NAME, TH_START, TH_END, TH_UPID, TH_MAIN, TH_IDLE, TH_MACHINE, TH_ARGS,
       TH_SORT };
static size_t thread_n(const tt_storage *st) { return st->thread.n; }
static void thread_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	uint32_t upid = st->thread.upid[r];

	switch (c) {
	case TH_ID: case TH_UTID: r_int(ctx, (int64_t)r); break;
	case TH_TID: r_int(ctx, st->thread.tid[r]); break;
	case TH_NAME: tt_vtab_result_str(ctx, st, st->thread.name[r]); break;
	case TH_START: r_ts(ctx, st->thread.start_ts[r]); break;
	case TH_END: r_ts(ctx, st->thread.end_ts[r]); break;
	case TH_UPID: tt_vtab_result_id(ctx, upid); break;
	case TH_MAIN:
		if (st->thread.flags[r] & TH_F_MAIN_SET)
			r_int(ctx, (st->thread.flags[r] & TH_F_MAIN) != 0);
		else if (upid == TT_NONE)
			sqlite3_result_null(ctx);
		else
			r_int(ctx, st->process.pid[upid] == st->thread.tid[r]);
		break;
	/* trace processor's reserved utid 0 is the idle thread, whatever the
	 * format (a JSON trace's tid 0 gets a row of its own) */
	case TH_IDLE:
		r_int(ctx, st->thread.flags[r] & TH_F_IDLE_SET ? (st->thread.flags[r] & TH_F_IDLE) != 0 :
								   r == 0 && st->idle_rows);
		break;
	case TH_SORT: r_ts(ctx, st->thread.sort_index[r]); break;
	case TH_ARGS: tt_vtab_result_id(ctx, st->thread.arg_set_id[r]); break;
	case TH_MACHINE: tt_vtab_result_id(ctx, tt_storage_machine_of(st, 't', r)); break;
	}
}
static const tt_vtab_def thread_def = {
	.name = "thread",
	.schema = "CREATE TABLE x(id INTEGER, utid INTEGER, tid INTEGER, name TEXT,"
		  " start_ts INTEGER, end_ts INTEGER, upid INTEGER, is_main_thread INTEGER,"
		  " is_idle INTEGER, machine_id INTEGER, arg_set_id INTEGER, sort_index INTEGER HIDDEN)",
	.nrows = thread_n, .column = thread_col,
	.id_col = TH_ID, .track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = -1, .id_alias_col = TH_UTID,
};

/* ---- track ---------------------------------------------------------------------- */

/* trace processor's track view, in its order (track_group_id: NULL, no
 * track groups); what the viewer and the track views read besides is
 * HIDDEN. */
enum { TR_ID, TR_NAME, TR_TYPE, TR_DIM_ARGS, TR_PARENT, TR_SOURCE_ARGS, TR_MACHINE, TR_GROUP,
       TR_UTID, TR_UPID, TR_IS_COUNTER, TR_UNIT, TR_DESC, TR_CPU };
static size_t track_n(const tt_storage *st) { return st->track.n; }
static void track_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	switch (c) {
	case TR_ID: r_int(ctx, (int64_t)r); break;
	case TR_NAME: tt_vtab_result_str(ctx, st, st->track.name[r]); break;
	case TR_TYPE: tt_vtab_result_str(ctx, st, st->track.type[r]); break;
	case TR_PARENT: tt_vtab_result_id(ctx, st->track.parent_id[r]); break;
	case TR_UTID: tt_vtab_result_id(ctx, st->track.utid[r]); break;
	case TR_UPID: tt_vtab_result_id(ctx, st->track.upid[r]); break;
	case TR_IS_COUNTER: r_int(ctx, st->track.is_counter[r]); break;
	case TR_UNIT: tt_vtab_result_str(ctx, st, st->track.unit[r]); break;
	case TR_DESC: tt_vtab_result_str(ctx, st, st->track.description[r]); break;
	case TR_CPU: r_id64(ctx, st->track.cpu[r]); break;
	case TR_SOURCE_ARGS: tt_vtab_result_id(ctx, st->track.source_arg_set_id[r]); break;
	case TR_MACHINE: tt_vtab_result_id(ctx, tt_storage_machine_of(st, 'k', r)); break;
	case TR_DIM_ARGS: tt_vtab_result_id(ctx, st->track.dimension_arg_set_id[r]); break;
	case TR_GROUP: sqlite3_result_null(ctx); break;
	}
}
static const tt_vtab_def track_def = {
	.name = "track",
	.schema = "CREATE TABLE x(id INTEGER, name TEXT, type TEXT, dimension_arg_set_id INTEGER,"
		  " parent_id INTEGER, source_arg_set_id INTEGER, machine_id INTEGER, track_group_id INTEGER,"
		  " utid INTEGER HIDDEN, upid INTEGER HIDDEN, is_counter INTEGER HIDDEN, unit TEXT HIDDEN,"
		  " description TEXT HIDDEN, cpu INTEGER HIDDEN)",
	.nrows = track_n, .column = track_col,
	.id_col = TR_ID, .track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = -1, .id_alias_col = -1,
};

/* ---- args ------------------------------------------------------------------------ *
 * Rows of lazy arg sets (CTF events, storage.h) are decoded by .load before
 * a scan reads them, and by tt_storage_argset_rows for arg_set_id = ?. */

enum { AR_ID, AR_SET, AR_FLAT, AR_KEY, AR_INT, AR_STR, AR_REAL, AR_TYPE, AR_DISPLAY };
static size_t args_n(const tt_storage *st) { return st->args.n; }
static void args_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	int type = TT_ARG_TYPE(st->args.type[r]);
	char buf[512];

	switch (c) {
	case AR_ID: r_int(ctx, (int64_t)r); break;
	case AR_SET: tt_vtab_result_id(ctx, tt_storage_arg_set_of(st, r)); break;
	case AR_FLAT:
		sqlite3_result_text(ctx, tt_storage_arg_flat_key(st, r, buf, sizeof(buf)), -1,
				    SQLITE_TRANSIENT);
		break;
	case AR_KEY: tt_vtab_result_str(ctx, st, st->args.key[r]); break;
	case AR_INT:
		if (type == TT_ARG_INT || type == TT_ARG_UINT || type == TT_ARG_BOOL ||
		    type == TT_ARG_POINTER)
			r_int(ctx, st->args.val[r].i);
		else
			sqlite3_result_null(ctx);
		break;
	case AR_STR:
		if (type == TT_ARG_STRING || type == TT_ARG_JSON)
			tt_vtab_result_str(ctx, st, st->args.val[r].s);
		else
			sqlite3_result_null(ctx);
		break;
	case AR_REAL:
		if (type == TT_ARG_REAL)
			sqlite3_result_double(ctx, st->args.val[r].d);
		else
			sqlite3_result_null(ctx);
		break;
	case AR_TYPE: r_text(ctx, tt_storage_arg_type_name(type)); break;
	case AR_DISPLAY:
		/* (a null string too: trace processor's string arg of no string) */
		if (type == TT_ARG_NULL || ((type == TT_ARG_STRING || type == TT_ARG_JSON) && !st->args.val[r].s))
			sqlite3_result_null(ctx);
		else
			sqlite3_result_text(ctx, tt_storage_arg_text(st, r, buf, sizeof(buf)), -1,
					    SQLITE_TRANSIENT);
		break;
	}
}
static const tt_vtab_def args_def = {
	.name = "args",
	.schema = "CREATE TABLE x(id INTEGER, arg_set_id INTEGER, flat_key TEXT, key TEXT,"
		  " int_value INTEGER, string_value TEXT, real_value REAL, value_type TEXT,"
		  " display_value TEXT)",
	.nrows = args_n, .column = args_col,
	.id_col = AR_ID, .track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = AR_SET, .id_alias_col = -1,
	.load = tt_storage_args_load,
	.hidden = tt_storage_arg_row_dead,
};

/* ---- flow, raw, sched, thread_state ------------------------------------------------ */

static size_t flow_n(const tt_storage *st) { return st->flow.n; }
static void flow_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	switch (c) {
	case 0: r_int(ctx, (int64_t)r); break;
	case 1: r_int(ctx, st->flow.slice_out[r]); break;
	case 2: r_int(ctx, st->flow.slice_in[r]); break;
	case 3: /* a flow linked directly (binder) has no id */
		if (!tt_storage_flow_has_id(st, r))
			sqlite3_result_null(ctx);
		else
			r_int(ctx, (int64_t)st->flow.trace_id[r]);
		break;
	case 4: tt_vtab_result_id(ctx, st->flow.arg_set_id[r]); break;
	}
}
static const tt_vtab_def flow_def = {
	.name = "flow",
	.schema = "CREATE TABLE x(id INTEGER, slice_out INTEGER, slice_in INTEGER, trace_id INTEGER,"
		  " arg_set_id INTEGER)",
	.nrows = flow_n, .column = flow_col,
	.id_col = 0, .track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = -1, .id_alias_col = -1,
};

static size_t ppath_n(const tt_storage *st) { return st->proto_path.n; }
static void ppath_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	switch (c) {
	case 0: r_int(ctx, (int64_t)r); break;
	case 1: tt_vtab_result_id(ctx, st->proto_path.parent_id[r]); break;
	case 2: tt_vtab_result_str(ctx, st, st->proto_path.field_type[r]); break;
	case 3: tt_vtab_result_str(ctx, st, st->proto_path.field_name[r]); break;
	case 4: tt_vtab_result_id(ctx, st->proto_path.arg_set_id[r]); break;
	}
}
static const tt_vtab_def ppath_def = {
	.name = "experimental_proto_path",
	.schema = "CREATE TABLE x(id INTEGER, parent_id INTEGER, field_type TEXT, field_name TEXT,"
		  " arg_set_id INTEGER)",
	.nrows = ppath_n, .column = ppath_col,
	.id_col = 0, .track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = -1, .id_alias_col = -1,
};

/* clock_snapshot (trace processor's __intrinsic_clock_snapshot): what
 * to_realtime, to_monotonic and abs_time_str convert with (functions.c) */
static size_t csnap_n(const tt_storage *st) { return st->clock_snap.n; }
static void csnap_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	switch (c) {
	case 0: r_int(ctx, (int64_t)r); break;
	case 1: r_int(ctx, st->clock_snap.ts[r]); break;
	case 2: r_int(ctx, st->clock_snap.clock_id[r]); break;
	case 3: tt_vtab_result_str(ctx, st, st->clock_snap.clock_name[r]); break;
	case 4: r_int(ctx, st->clock_snap.clock_value[r]); break;
	case 5: r_int(ctx, st->clock_snap.snapshot_id[r]); break;
	case 6: tt_vtab_result_id(ctx, st->machine.set ? 0 : TT_NONE); break;
	}
}
static const tt_vtab_def csnap_def = {
	.name = "__intrinsic_clock_snapshot",
	.schema = "CREATE TABLE x(id INTEGER, ts INTEGER, clock_id INTEGER, clock_name TEXT, clock_value INTEGER,"
		  " snapshot_id INTEGER, machine_id INTEGER)",
	.nrows = csnap_n, .column = csnap_col,
	.id_col = 0, .track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = -1, .id_alias_col = -1,
};

static size_t raw_n(const tt_storage *st) { return st->raw.n; }
static const int64_t *raw_ts(const tt_storage *st) { return st->raw.ts; }
static int raw_sorted(const tt_storage *st) { return st->raw.sorted; }
static const tt_str *raw_names(const tt_storage *st) { return st->raw.name; }
static void raw_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	switch (c) {
	case 0: r_int(ctx, (int64_t)r); break;
	case 1: r_int(ctx, st->raw.ts[r]); break;
	case 2: tt_vtab_result_str(ctx, st, st->raw.name[r]); break;
	case 3:
		if (tt_storage_raw_id(&st->raw.ucpu, r) < st->cpus.n)
			r_int(ctx, st->cpus.cpu[tt_storage_raw_id(&st->raw.ucpu, r)]);
		else
			sqlite3_result_null(ctx);
		break;
	case 4: tt_vtab_result_id(ctx, tt_storage_raw_id(&st->raw.utid, r)); break;
	case 5: tt_vtab_result_id(ctx, tt_storage_raw_id(&st->raw.arg_set_id, r)); break;
	case 6: tt_vtab_result_id(ctx, tt_storage_raw_common_flags(st, r)); break;
	case 7: tt_vtab_result_id(ctx, tt_storage_raw_id(&st->raw.ucpu, r)); break;
	}
}
static const tt_vtab_def raw_def = {
	.name = "raw",
	.schema = "CREATE TABLE x(id INTEGER, ts INTEGER, name TEXT, cpu INTEGER, utid INTEGER,"
		  " arg_set_id INTEGER, common_flags INTEGER, ucpu INTEGER)",
	.nrows = raw_n, .column = raw_col,
	.id_col = 0, .track_col = -1, .ts_col = 1, .name_col = 2, .argset_col = -1, .id_alias_col = -1,
	.ts = raw_ts, .ts_sorted = raw_sorted, .names = raw_names,
};

/* The cpu table's ucpu of a CPU number: its row in the CPUs an importer
 * recorded, else (none recorded) the number itself, as the cpu view. */
static void r_ucpu(sqlite3_context *ctx, const tt_storage *st, int64_t cpu)
{
	if (cpu < 0) {
		sqlite3_result_null(ctx);
		return;
	}
	for (size_t i = 0; i < st->cpus.n; i++)
		if (st->cpus.cpu[i] == cpu) {
			sqlite3_result_int64(ctx, (int64_t)i);
			return;
		}
	if (st->cpus.n)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_int64(ctx, cpu);
}

static size_t sched_n(const tt_storage *st) { return st->sched.n; }
static void sched_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	switch (c) {
	case 0: r_int(ctx, (int64_t)r); break;
	case 1: r_int(ctx, st->sched.ts[r]); break;
	case 2: r_int(ctx, st->sched.dur[r]); break;
	case 3: r_int(ctx, st->sched.cpu[r]); break;
	case 4: tt_vtab_result_id(ctx, st->sched.utid[r]); break;
	case 5: tt_vtab_result_str(ctx, st, st->sched.end_state[r]); break;
	case 6: r_int(ctx, st->sched.priority[r]); break;
	case 7: r_ucpu(ctx, st, st->sched.cpu[r]); break;
	}
}
static const tt_vtab_def sched_def = {
	.name = "sched_slice",
	.schema = "CREATE TABLE x(id INTEGER, ts INTEGER, dur INTEGER, cpu INTEGER, utid INTEGER,"
		  " end_state TEXT, priority INTEGER, ucpu INTEGER)",
	.nrows = sched_n, .column = sched_col,
	.id_col = 0, .track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = -1, .id_alias_col = -1,
};

static size_t tstate_n(const tt_storage *st) { return st->tstate.n; }
static void tstate_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	switch (c) {
	case 0: r_int(ctx, (int64_t)r); break;
	case 1: r_int(ctx, st->tstate.ts[r]); break;
	case 2: r_int(ctx, st->tstate.dur[r]); break;
	case 3: r_id64(ctx, st->tstate.cpu[r]); break;
	case 4: tt_vtab_result_id(ctx, st->tstate.utid[r]); break;
	case 5: tt_vtab_result_str(ctx, st, st->tstate.state[r]); break;
	case 6: r_ts(ctx, st->tstate.io_wait[r]); break;
	case 7: tt_vtab_result_str(ctx, st, st->tstate.blocked[r]); break;
	case 8: tt_vtab_result_id(ctx, st->tstate.waker_utid[r]); break;
	case 9: tt_vtab_result_id(ctx, st->tstate.waker_id[r]); break;
	case 10: r_id64(ctx, st->tstate.irq_context[r]); break;
	case 11: r_ucpu(ctx, st, st->tstate.cpu[r]); break;
	}
}
static const tt_vtab_def tstate_def = {
	.name = "thread_state",
	.schema = "CREATE TABLE x(id INTEGER, ts INTEGER, dur INTEGER, cpu INTEGER, utid INTEGER,"
		  " state TEXT, io_wait INTEGER, blocked_function TEXT, waker_utid INTEGER, waker_id INTEGER,"
		  " irq_context INTEGER, ucpu INTEGER)",
	.nrows = tstate_n, .column = tstate_col,
	.id_col = 0, .track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = -1, .id_alias_col = -1,
};

static size_t spurious_n(const tt_storage *st) { return st->spurious.n; }
static void spurious_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	switch (c) {
	case 0: r_int(ctx, (int64_t)r); break;
	case 1: r_int(ctx, st->spurious.ts[r]); break;
	case 2: r_int(ctx, st->spurious.tstate_id[r]); break;
	case 3: r_id64(ctx, st->spurious.irq_context[r]); break;
	case 4: r_int(ctx, st->spurious.utid[r]); break;
	case 5: r_int(ctx, st->spurious.waker_utid[r]); break;
	}
}
static const tt_vtab_def spurious_def = {
	.name = "spurious_sched_wakeup",
	.schema = "CREATE TABLE x(id INTEGER, ts INTEGER, thread_state_id INTEGER, irq_context INTEGER,"
		  " utid INTEGER, waker_utid INTEGER)",
	.nrows = spurious_n, .column = spurious_col,
	.id_col = 0, .track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = -1, .id_alias_col = -1,
};

/* Android logcat lines (trace processor's __intrinsic_logs; views logs and
 * android_logs below). */
static size_t logs_n(const tt_storage *st) { return st->logs.n; }
static void logs_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	switch (c) {
	case 0: r_int(ctx, (int64_t)r); break;
	case 1: r_ts(ctx, st->logs.ts[r]); break;
	case 2: tt_vtab_result_id(ctx, st->logs.utid[r]); break;
	case 3: r_int(ctx, st->logs.prio[r]); break;
	case 4: r_text(ctx, "android_logcat"); break;
	case 5: tt_vtab_result_str(ctx, st, st->logs.tag[r]); break;
	case 6: tt_vtab_result_str(ctx, st, st->logs.msg[r]); break;
	default: sqlite3_result_null(ctx); break;
	}
}
static const tt_vtab_def logs_def = {
	.name = "__intrinsic_logs",
	.schema = "CREATE TABLE x(id INTEGER, ts INTEGER, utid INTEGER, prio INTEGER, log_source TEXT, tag TEXT,"
		  " msg TEXT, arg_set_id INTEGER)",
	.nrows = logs_n, .column = logs_col,
	.id_col = 0, .track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = -1, .id_alias_col = -1,
};

/* Android's packages (trace processor's __intrinsic_package_list; view
 * package_list below). */
static size_t pkg_n(const tt_storage *st) { return st->packages.n; }
static void pkg_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	switch (c) {
	case 0: r_int(ctx, (int64_t)r); break;
	case 1: tt_vtab_result_str(ctx, st, st->packages.name[r]); break;
	case 2: r_int(ctx, st->packages.uid[r]); break;
	case 3: r_int(ctx, st->packages.debuggable[r]); break;
	case 4: r_int(ctx, st->packages.profileable[r]); break;
	case 5: r_int(ctx, st->packages.version_code[r]); break;
	}
}
static const tt_vtab_def pkg_def = {
	.name = "__intrinsic_package_list",
	.schema = "CREATE TABLE x(id INTEGER, package_name TEXT, uid INTEGER, debuggable INTEGER,"
		  " profileable_from_shell INTEGER, version_code INTEGER)",
	.nrows = pkg_n, .column = pkg_col,
	.id_col = 0, .track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = -1, .id_alias_col = -1,
};

/* GPUs (trace processor's __intrinsic_gpu, view gpu): their index on
 * the device and what GpuInfo says of them. */
static size_t gpu_n(const tt_storage *st) { return st->gpus.n; }
static void gpu_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	const struct tt_gpu_row *g = &st->gpus.v[r];

	switch (c) {
	case 0: r_int(ctx, (int64_t)r); break;
	case 1: r_int(ctx, g->gpu); break;
	case 2: r_int(ctx, 0); break;
	case 3: tt_vtab_result_str(ctx, st, g->name); break;
	case 4: tt_vtab_result_str(ctx, st, g->vendor); break;
	case 5: tt_vtab_result_str(ctx, st, g->model); break;
	case 6: tt_vtab_result_str(ctx, st, g->arch); break;
	case 7: tt_vtab_result_str(ctx, st, g->uuid); break;
	case 8: tt_vtab_result_str(ctx, st, g->pci_bdf); break;
	case 9: tt_vtab_result_id(ctx, g->arg_set_id); break;
	default: sqlite3_result_null(ctx); break;
	}
}
static const tt_vtab_def gpu_def = {
	.name = "__intrinsic_gpu",
	.schema = "CREATE TABLE x(id INTEGER, gpu INTEGER, machine_id INTEGER, name TEXT, vendor TEXT, model TEXT,"
		  " architecture TEXT, uuid TEXT, pci_bdf TEXT, arg_set_id INTEGER)",
	.nrows = gpu_n, .column = gpu_col,
	.id_col = 0, .track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = -1, .id_alias_col = -1,
};

/* The groups of the GPU counter tracks (trace processor's
 * gpu_counter_group): a track is in each group its spec names, or in
 * group 0 (UNCLASSIFIED), and in the descriptor's custom groups. */
static size_t gpu_group_n(const tt_storage *st) { return st->gpu_groups.n; }
static void gpu_group_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	const struct tt_gpu_group_row *g = &st->gpu_groups.v[r];

	switch (c) {
	case 0: r_int(ctx, (int64_t)r); break;
	case 1: r_int(ctx, g->group_id); break;
	case 2: r_int(ctx, g->track); break;
	case 3: tt_vtab_result_str(ctx, st, g->name); break;
	case 4: tt_vtab_result_str(ctx, st, g->desc); break;
	}
}
static const tt_vtab_def gpu_group_def = {
	.name = "gpu_counter_group",
	.schema = "CREATE TABLE x(id INTEGER, group_id INTEGER, track_id INTEGER, name TEXT, description TEXT)",
	.nrows = gpu_group_n, .column = gpu_group_col,
	.id_col = 0, .track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = -1, .id_alias_col = -1,
};

/* Graphics contexts (trace processor's __intrinsic_gpu_context; view
 * gpu_context in module std.gpu.context). */
static size_t gpu_ctx_n(const tt_storage *st) { return st->gpu_contexts.n; }
static void gpu_ctx_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	const struct tt_gpu_context_row *g = &st->gpu_contexts.v[r];

	switch (c) {
	case 0: r_int(ctx, (int64_t)r); break;
	case 1: r_int(ctx, (int64_t)g->context_id); break;
	case 2:
		if (g->pid == INT64_MIN)
			sqlite3_result_null(ctx);
		else
			r_int(ctx, g->pid);
		break;
	case 3: tt_vtab_result_str(ctx, st, g->api); break;
	}
}
static const tt_vtab_def gpu_ctx_def = {
	.name = "__intrinsic_gpu_context",
	.schema = "CREATE TABLE x(id INTEGER, context_id INTEGER, pid INTEGER, api TEXT)",
	.nrows = gpu_ctx_n, .column = gpu_ctx_col,
	.id_col = 0, .track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = -1, .id_alias_col = -1,
};

/* ---- stats, metadata, trace_bounds --------------------------------------------------- */

static const struct { const char *name, *severity, *source, *description; } stat_info[] = {
#define TT_STAT_ROW(id, name, sev, src, desc) { name, sev, src, desc },
	TT_STATS(TT_STAT_ROW)
#undef TT_STAT_ROW
};

/* The single stats (every one, in stats.h's order), then the rows of the
 * indexed ones that were set, by (stat, idx), as trace processor lists
 * them. */
#define N_INDEXED (TT_STATS_INDEXED_LAST - TT_STATS_INDEXED_FIRST + 1)
#define N_SINGLE (TT_STAT_COUNT - N_INDEXED)
static size_t stats_n(const tt_storage *st) { return N_SINGLE + tt_storage_stat_indexed_count(st); }
static void stats_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	int32_t idx = 0;
	int64_t v;
	size_t k;

	if (r < N_SINGLE) {
		k = r < TT_STATS_INDEXED_FIRST ? r : r + N_INDEXED;
		v = st->stats[k];
	} else {
		k = tt_storage_stat_indexed_row(st, r - N_SINGLE, &idx, &v);
	}
	switch (c) {
	case 0: r_int(ctx, (int64_t)r); break;
	case 1: r_text(ctx, stat_info[k].name); break;
	case 2: r_int(ctx, (int64_t)k); break; /* (our stats' numbers, not trace processor's) */
	case 3: /* as trace processor: an index only for the indexed stats */
		if (r < N_SINGLE)
			sqlite3_result_null(ctx);
		else
			r_int(ctx, idx);
		break;
	case 4: r_text(ctx, stat_info[k].severity); break;
	case 5: r_text(ctx, stat_info[k].source); break;
	case 6: r_int(ctx, v); break;
	case 7: r_text(ctx, stat_info[k].description); break;
	case 8: tt_vtab_result_id(ctx, st->machine.set ? 0 : TT_NONE); break;
	case 9: r_int(ctx, 0); break; /* trace_id: the one trace file */
	}
}
static const tt_vtab_def stats_def = {
	.name = "stats",
	.schema = "CREATE TABLE x(id INTEGER, name TEXT, key INTEGER, idx INTEGER, severity TEXT, source TEXT,"
		  " value INTEGER, description TEXT, machine_id INTEGER, trace_id INTEGER)",
	.nrows = stats_n, .column = stats_col,
	.id_col = -1, .track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = -1, .id_alias_col = -1,
};

/* trace processor's _trace_import_logs: one row per logged occurrence of
 * a stat, with its details as an arg set (one trace: trace_id 0; byte
 * offsets are not kept) */
static size_t ilog_n(const tt_storage *st) { return st->import_logs.n; }
static void ilog_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	unsigned k = st->import_logs.stat[r];

	switch (c) {
	case 0: r_int(ctx, (int64_t)r); break;
	case 1: r_int(ctx, 0); break;
	case 2: r_ts(ctx, st->import_logs.ts[r]); break;
	case 3: r_ts(ctx, st->import_logs.byte_offset[r]); break;
	case 4: r_text(ctx, stat_info[k].severity); break;
	case 5: r_text(ctx, stat_info[k].name); break;
	case 6: tt_vtab_result_id(ctx, st->import_logs.arg_set_id[r]); break;
	}
}
static const tt_vtab_def ilog_def = {
	.name = "_trace_import_logs",
	.schema = "CREATE TABLE x(id INTEGER, trace_id INTEGER, ts INTEGER, byte_offset INTEGER,"
		  " severity TEXT, name TEXT, arg_set_id INTEGER)",
	.nrows = ilog_n, .column = ilog_col,
	.id_col = 0, .track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = -1, .id_alias_col = -1,
};

/* stats_detail: what the counted-by-name stats skipped, by name:
 *   select * from stats_detail;  -- json_phase_unknown | phase 'Z' | 2 */
static size_t detail_n(const tt_storage *st) { return st->named.n; }
static void detail_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	switch (c) {
	case 0: r_text(ctx, stat_info[st->named.stat[r]].name); break;
	case 1: tt_vtab_result_str(ctx, st, st->named.name[r]); break;
	case 2: r_int(ctx, st->named.count[r]); break;
	}
}
static const tt_vtab_def detail_def = {
	.name = "stats_detail",
	.schema = "CREATE TABLE x(name TEXT, key TEXT, value INTEGER)",
	.nrows = detail_n, .column = detail_col,
	.id_col = -1, .track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = -1, .id_alias_col = -1,
};

static size_t meta_n(const tt_storage *st) { return st->meta.n; }
static void meta_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	int is_str = st->meta.sval[r] != 0;

	switch (c) {
	case 0: r_int(ctx, (int64_t)r); break;
	case 1: tt_vtab_result_str(ctx, st, st->meta.name[r]); break;
	case 2: r_text(ctx, st->meta.multi[r] ? "multi" : "single"); break;
	case 3: if (is_str) sqlite3_result_null(ctx); else r_int(ctx, st->meta.ival[r]); break;
	case 4: if (is_str) tt_vtab_result_str(ctx, st, st->meta.sval[r]); else sqlite3_result_null(ctx); break;
	case 5: tt_vtab_result_id(ctx, st->machine.set ? 0 : TT_NONE); break;
	case 6: r_int(ctx, 0); break; /* trace_id: the one trace file */
	case 7: r_text(ctx, is_str ? "string" : "int"); break;
	}
}
/* Perfetto's metadata (__intrinsic_metadata and its view); value_type,
 * hidden, is what the table had before key_type */
static const tt_vtab_def meta_def = {
	.name = "metadata",
	.schema = "CREATE TABLE x(id INTEGER, name TEXT, key_type TEXT, int_value INTEGER, str_value TEXT,"
		  " machine_id INTEGER, trace_id INTEGER, value_type TEXT HIDDEN)",
	.nrows = meta_n, .column = meta_col,
	.id_col = -1, .track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = -1, .id_alias_col = -1,
};

static size_t bounds_n(const tt_storage *st) { (void)st; return 1; }
static void bounds_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	(void)r;
	r_int(ctx, c == 0 ? st->start_ts : st->end_ts);
}
static const tt_vtab_def bounds_def = {
	.name = "trace_bounds",
	.schema = "CREATE TABLE x(start_ts INTEGER, end_ts INTEGER)",
	.nrows = bounds_n, .column = bounds_col,
	.id_col = -1, .track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = -1, .id_alias_col = -1,
};

static const tt_vtab_def *const core_defs[] = {
	&slice_def, &counter_def, &process_def, &thread_def, &track_def, &args_def,
	&flow_def, &raw_def, &sched_def, &tstate_def, &spurious_def, &stats_def, &ilog_def, &detail_def,
	&meta_def, &bounds_def, &ppath_def, &csnap_def, &logs_def, &pkg_def, &gpu_def,
	&gpu_group_def, &gpu_ctx_def,
};

/* Perfetto's track views, over `track`. */
static const char core_views[] =
	/* trace processor's track views, their columns in its order */
	"CREATE TEMP VIEW thread_track AS SELECT id, name, type, parent_id, source_arg_set_id, machine_id, utid"
	"  FROM track"
	"  WHERE utid IS NOT NULL AND is_counter = 0 AND type GLOB 'thread*'"
	"  AND type NOT GLOB '*_state_track_event';"
	"CREATE TEMP VIEW process_track AS SELECT id, name, type, parent_id, source_arg_set_id, machine_id, upid"
	"  FROM track"
	"  WHERE upid IS NOT NULL AND utid IS NULL AND is_counter = 0"
	"  AND type NOT GLOB '*_state_track_event';"
	"CREATE TEMP VIEW counter_track AS SELECT id, name, parent_id, type, dimension_arg_set_id,"
	"  source_arg_set_id, machine_id, unit, description FROM track WHERE is_counter = 1;"
	"CREATE TEMP VIEW thread_counter_track AS SELECT id, name, type, parent_id, source_arg_set_id, machine_id,"
	"  unit, description, utid FROM track WHERE is_counter = 1 AND utid IS NOT NULL;"
	"CREATE TEMP VIEW process_counter_track AS SELECT id, name, type, parent_id, source_arg_set_id, machine_id,"
	"  unit, description, upid FROM track WHERE is_counter = 1 AND upid IS NOT NULL AND utid IS NULL;"
	"CREATE TEMP VIEW cpu_counter_track AS SELECT t.id, t.name, t.type, t.parent_id, t.source_arg_set_id,"
	"  t.machine_id, t.unit, t.description, a.int_value AS cpu FROM track t"
	"  JOIN args a ON a.arg_set_id = t.dimension_arg_set_id WHERE t.is_counter = 1 AND a.key = 'cpu';"
	"CREATE TEMP VIEW gpu_counter_track AS SELECT t.id, t.name, t.type, t.parent_id, t.source_arg_set_id,"
	"  t.machine_id, t.unit, t.description, a.int_value AS ugpu,"
	"  (SELECT g.int_value FROM args g WHERE g.arg_set_id = t.dimension_arg_set_id AND g.key = 'gpu') AS gpu_id"
	"  FROM track t JOIN args a ON a.arg_set_id = t.dimension_arg_set_id WHERE t.is_counter = 1 AND a.key = 'ugpu';"
	/* the GPU's slice tracks, by trace processor's track types */
	"CREATE TEMP VIEW gpu_track AS SELECT t.id, t.name, t.type, t.parent_id, t.source_arg_set_id,"
	"  t.dimension_arg_set_id, t.machine_id, t.type AS scope,"
	"  (SELECT a.string_value FROM args a WHERE a.arg_set_id = t.source_arg_set_id AND a.key = 'description')"
	"  AS description,"
	"  (SELECT a.int_value FROM args a WHERE a.arg_set_id = t.dimension_arg_set_id AND a.key = 'context_id')"
	"  AS context_id"
	"  FROM track t WHERE t.type IN ('drm_vblank', 'drm_sched_ring', 'drm_fence', 'mali_mcu_state',"
	"  'gpu_render_stage', 'vulkan_events', 'gpu_log', 'graphics_frame_event');"
	"CREATE TEMP VIEW cpu_track AS SELECT t.id, t.name, t.type, t.parent_id, t.source_arg_set_id, t.machine_id,"
	"  t.cpu FROM track t WHERE t.cpu IS NOT NULL AND t.is_counter = 0;"
	"CREATE TEMP VIEW sched AS SELECT id, ts, dur, cpu, utid, end_state, priority, ucpu, ts + dur AS ts_end"
	"  FROM sched_slice;"
	"CREATE TEMP VIEW clock_snapshot AS SELECT * FROM __intrinsic_clock_snapshot;"
	"CREATE TEMP VIEW ftrace_event AS SELECT id, ts, name, cpu, utid, arg_set_id, common_flags, ucpu FROM raw;"
	"CREATE TEMP VIEW instant AS SELECT ts, track_id, name, arg_set_id FROM slice WHERE dur = 0;"
	"CREATE TEMP VIEW thread_slice AS SELECT s.*, tt.utid FROM slice s"
	"  JOIN thread_track tt ON s.track_id = tt.id;"
	"CREATE TEMP VIEW gpu_slice AS SELECT s.id, s.ts, s.dur, s.track_id, s.category, s.name, s.depth,"
	"  s.parent_id, s.arg_set_id,"
	"  extract_arg(s.arg_set_id, 'context_id') AS context_id,"
	"  extract_arg(s.arg_set_id, 'render_target') AS render_target,"
	"  extract_arg(s.arg_set_id, 'render_target_name') AS render_target_name,"
	"  extract_arg(s.arg_set_id, 'render_pass') AS render_pass,"
	"  extract_arg(s.arg_set_id, 'render_pass_name') AS render_pass_name,"
	"  extract_arg(s.arg_set_id, 'command_buffer') AS command_buffer,"
	"  extract_arg(s.arg_set_id, 'command_buffer_name') AS command_buffer_name,"
	"  extract_arg(s.arg_set_id, 'frame_id') AS frame_id,"
	"  extract_arg(s.arg_set_id, 'submission_id') AS submission_id,"
	"  extract_arg(s.arg_set_id, 'hw_queue_id') AS hw_queue_id,"
	"  extract_arg(s.arg_set_id, 'upid') AS upid,"
	"  extract_arg(s.arg_set_id, 'render_subpasses') AS render_subpasses,"
	"  extract_arg(s.arg_set_id, 'render_stage_category') AS render_stage_category"
	"  FROM slice s JOIN track t ON s.track_id = t.id"
	"  WHERE t.type IN ('gpu_render_stage', 'vulkan_events', 'gpu_log');"
	"CREATE TEMP VIEW package_list AS SELECT * FROM __intrinsic_package_list;"
	"CREATE TEMP VIEW gpu AS SELECT * FROM __intrinsic_gpu;"
	"CREATE TEMP VIEW logs AS SELECT id, ts, utid, prio, log_source, tag, msg, arg_set_id FROM __intrinsic_logs;"
	"CREATE TEMP VIEW android_logs AS SELECT id, ts, utid, prio, tag, msg FROM __intrinsic_logs"
	"  WHERE log_source = 'android_logcat';";

static void fn_trace_start(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const tt_storage *st = sqlite3_user_data(ctx);

	(void)argc;
	(void)argv;
	sqlite3_result_int64(ctx, st->start_ts);
}

static void fn_trace_end(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const tt_storage *st = sqlite3_user_data(ctx);

	(void)argc;
	(void)argv;
	sqlite3_result_int64(ctx, st->end_ts);
}

static void fn_trace_dur(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const tt_storage *st = sqlite3_user_data(ctx);

	(void)argc;
	(void)argv;
	sqlite3_result_int64(ctx, st->end_ts - st->start_ts);
}

int tt_vtab_register_core(sqlite3 *db, tt_storage *st)
{
	int rc = SQLITE_OK;

	for (size_t i = 0; i < sizeof(core_defs) / sizeof(core_defs[0]) && rc == SQLITE_OK; i++)
		rc = tt_vtab_register(db, st, core_defs[i]);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "trace_start", 0, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
					     st, fn_trace_start, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "trace_end", 0, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
					     st, fn_trace_end, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "trace_dur", 0, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
					     st, fn_trace_dur, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, core_views, NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = tt_vtab_register_state(db, st);
	if (rc == SQLITE_OK)
		rc = tt_vtab_register_profile(db, st);
	if (rc == SQLITE_OK)
		rc = tt_vtab_register_system(db, st);
	return rc;
}
