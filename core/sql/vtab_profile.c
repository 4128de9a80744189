/*
 * vtab_profile.c - the stack profile tables (core/profile.h) as virtual
 * tables with trace processor's names and columns: stack_profile_mapping,
 * stack_profile_frame, stack_profile_symbol, stack_profile_callsite and
 * __intrinsic_track_event_callstacks.
 */
#include "vtab.h"
#include "profile_int.h"

#define r_id tt_vtab_result_id
#define r_str tt_vtab_result_str

#define PROF(st) tt_storage_profile_get(st)
#define ROWS(st, v) (PROF(st) ? PROF(st)->v.n : 0)

static size_t mapping_n(const tt_storage *st) { return ROWS(st, mappings); }
static void mapping_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	const tt_prof_mapping *m = &PROF(st)->mappings.v[r];

	switch (c) {
	case 0: sqlite3_result_int64(ctx, (int64_t)r); break;
	case 1: r_str(ctx, st, m->build_id); break;
	case 2: sqlite3_result_int64(ctx, m->exact_offset); break;
	case 3: sqlite3_result_int64(ctx, m->start_offset); break;
	case 4: sqlite3_result_int64(ctx, m->start); break;
	case 5: sqlite3_result_int64(ctx, m->end); break;
	case 6: sqlite3_result_int64(ctx, m->load_bias); break;
	case 7: r_str(ctx, st, m->name); break;
	}
}

static size_t frame_n(const tt_storage *st) { return ROWS(st, frames); }
static void frame_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	const tt_prof_frame *f = &PROF(st)->frames.v[r];

	switch (c) {
	case 0: sqlite3_result_int64(ctx, (int64_t)r); break;
	case 1: r_str(ctx, st, f->name); break;
	case 2: r_id(ctx, f->mapping); break;
	case 3: sqlite3_result_int64(ctx, f->rel_pc); break;
	case 4: r_id(ctx, f->symbol_set_id); break;
	case 5: sqlite3_result_null(ctx); break; /* deobfuscated_name */
	}
}

static size_t symbol_n(const tt_storage *st) { return ROWS(st, symbols); }
static void symbol_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	const tt_prof_symbol *s = &PROF(st)->symbols.v[r];

	switch (c) {
	case 0: sqlite3_result_int64(ctx, (int64_t)r); break;
	case 1: sqlite3_result_int64(ctx, s->symbol_set_id); break;
	case 2: r_str(ctx, st, s->name); break;
	case 3: r_str(ctx, st, s->source_file); break;
	case 4: r_id(ctx, s->line_number); break;
	case 5: sqlite3_result_int64(ctx, 0); break; /* inlined */
	}
}

static size_t callsite_n(const tt_storage *st) { return ROWS(st, callsites); }
static void callsite_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	const tt_prof_callsite *cs = &PROF(st)->callsites.v[r];

	switch (c) {
	case 0: sqlite3_result_int64(ctx, (int64_t)r); break;
	case 1: sqlite3_result_int64(ctx, cs->depth); break;
	case 2: r_id(ctx, cs->parent_id); break;
	case 3: sqlite3_result_int64(ctx, cs->frame_id); break;
	}
}

static size_t tecs_n(const tt_storage *st) { return ROWS(st, te_callstacks); }
static void tecs_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	const tt_prof_te_callstack *t = &PROF(st)->te_callstacks.v[r];

	switch (c) {
	case 0: sqlite3_result_int64(ctx, (int64_t)r); break;
	case 1: sqlite3_result_int64(ctx, t->slice_id); break;
	case 2: r_id(ctx, t->track_id); break;
	case 3: r_id(ctx, t->callsite_id); break;
	case 4: r_id(ctx, t->end_callsite_id); break;
	case 5:
		if (t->has_weight)
			sqlite3_result_double(ctx, t->weight);
		else
			sqlite3_result_null(ctx);
		break;
	}
}

static size_t sample_n(const tt_storage *st) { return ROWS(st, samples); }
static void sample_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	const tt_prof_sample *t = &PROF(st)->samples.v[r];

	switch (c) {
	case 0: sqlite3_result_int64(ctx, (int64_t)r); break;
	case 1: sqlite3_result_int64(ctx, t->ts); break;
	case 2: r_id(ctx, t->callsite_id); break;
	case 3: r_id(ctx, t->utid); break;
	case 4: sqlite3_result_int64(ctx, t->process_priority); break;
	}
}

#define PLAIN(nm, sch, n, col) { .name = nm, .schema = sch, .nrows = n, .column = col, .id_col = 0, \
	.track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = -1, .id_alias_col = -1 }

static const tt_vtab_def profile_defs[] = {
	PLAIN("stack_profile_mapping",
	      "CREATE TABLE x(id INTEGER, build_id TEXT, exact_offset INTEGER, start_offset INTEGER,"
	      " start INTEGER, end INTEGER, load_bias INTEGER, name TEXT)", mapping_n, mapping_col),
	PLAIN("stack_profile_frame",
	      "CREATE TABLE x(id INTEGER, name TEXT, mapping INTEGER, rel_pc INTEGER,"
	      " symbol_set_id INTEGER, deobfuscated_name TEXT)", frame_n, frame_col),
	PLAIN("stack_profile_symbol",
	      "CREATE TABLE x(id INTEGER, symbol_set_id INTEGER, name TEXT, source_file TEXT,"
	      " line_number INTEGER, inlined INTEGER)", symbol_n, symbol_col),
	PLAIN("stack_profile_callsite",
	      "CREATE TABLE x(id INTEGER, depth INTEGER, parent_id INTEGER, frame_id INTEGER)",
	      callsite_n, callsite_col),
	PLAIN("__intrinsic_track_event_callstacks",
	      "CREATE TABLE x(id INTEGER, slice_id INTEGER, track_id INTEGER, callsite_id INTEGER,"
	      " end_callsite_id INTEGER, weight REAL)", tecs_n, tecs_col),
	PLAIN("cpu_profile_stack_sample",
	      "CREATE TABLE x(id INTEGER, ts INTEGER, callsite_id INTEGER, utid INTEGER,"
	      " process_priority INTEGER)", sample_n, sample_col),
};

int tt_vtab_register_profile(sqlite3 *db, tt_storage *st)
{
	int rc = SQLITE_OK;

	for (size_t i = 0; i < sizeof(profile_defs) / sizeof(profile_defs[0]) && rc == SQLITE_OK; i++)
		rc = tt_vtab_register(db, st, &profile_defs[i]);
	return rc;
}
