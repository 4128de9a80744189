/*
 * vtab.h - one sqlite3_module that serves every columnar table of the
 * storage. A table is described by a tt_vtab_def (its CREATE TABLE text,
 * row count and column reader, and which columns can be pushed down); the
 * engine does xBestIndex/xFilter/xNext once for all of them.
 *
 * Push-down, encoded in idxNum (bits may combine):
 *   TT_PLAN_ID       id = ?            one row (the id is the row index)
 *   TT_PLAN_TRACK    track_id = ?      the track's rows from the CSR index
 *   TT_PLAN_TS_LO    ts > / >= / = ?   binary search, when ts is sorted
 *   TT_PLAN_TS_HI    ts < / <= / = ?   binary search, when ts is sorted
 *   TT_PLAN_NAME     name = ?          interned-id compare while scanning
 *   TT_PLAN_ARGSET   arg_set_id = ?    the contiguous rows of one arg set
 *   TT_PLAN_TS_EQ    ts = ?            both bounds from one argument
 * Constraints are not marked omitted: SQLite re-checks them, so a plan can
 * only make a scan cheaper, never change a result.
 */
#ifndef TT_VTAB_H
#define TT_VTAB_H

#include <sqlite3.h>
#include "storage_int.h"

enum {
	TT_PLAN_ID = 1,
	TT_PLAN_TRACK = 2,
	TT_PLAN_TS_LO = 4,
	TT_PLAN_TS_HI = 8,
	TT_PLAN_NAME = 16,
	TT_PLAN_ARGSET = 32,
	TT_PLAN_TS_EQ = 64,
};

typedef struct tt_vtab_def {
	const char *name;
	const char *schema; /* "CREATE TABLE x(a, b, ...)" */
	size_t (*nrows)(const tt_storage *st);
	void (*column)(const tt_storage *st, size_t row, int col, sqlite3_context *ctx);
	/* push-down columns (-1 = none) */
	int id_col, track_col, ts_col, name_col, argset_col;
	int id_alias_col; /* a second column equal to the row id (utid, upid) */
	const int64_t *(*ts)(const tt_storage *st);     /* with ts_col */
	int (*ts_sorted)(const tt_storage *st);         /* with ts_col */
	const tt_str *(*names)(const tt_storage *st);   /* with name_col */
	const uint32_t *(*tracks)(const tt_storage *st);/* with track_col */
	int track_is_counter; /* which rows of the CSR index belong here */
	/* Optional: makes rows [first, end) readable before a scan or an id
	 * lookup walks them (args decodes its lazy sets). 0, or -1 when
	 * memory ran out. */
	int (*load)(const tt_storage *st, size_t first, size_t end);
	/* Optional: rows that exist in storage but not in the table (args of
	 * sets a merge replaced). */
	int (*hidden)(const tt_storage *st, size_t row);
} tt_vtab_def;

/* Column results: a row id (TT_NONE is NULL), an interned string (0 is NULL). */
static inline void tt_vtab_result_id(sqlite3_context *ctx, uint32_t v)
{
	if (v == TT_NONE)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_int64(ctx, v);
}

static inline void tt_vtab_result_str(sqlite3_context *ctx, const tt_storage *st, tt_str s)
{
	const char *t = tt_storage_str(st, s);

	if (t)
		sqlite3_result_text(ctx, t, -1, SQLITE_STATIC);
	else
		sqlite3_result_null(ctx);
}

/* Registers def as an eponymous virtual table over st. */
int tt_vtab_register(sqlite3 *db, tt_storage *st, const tt_vtab_def *def);

/* Every core table (vtab_tables.c). */
int tt_vtab_register_core(sqlite3 *db, tt_storage *st);
/* The state table and state track views (vtab_state.c). */
int tt_vtab_register_state(sqlite3 *db, tt_storage *st);
/* The stack profile tables (vtab_profile.c). */
int tt_vtab_register_profile(sqlite3 *db, tt_storage *st);
/* The device's tables: cpu, cpu_available_frequencies, Android's cpu time per uid (vtab_system.c). */
int tt_vtab_register_system(sqlite3 *db, tt_storage *st);

#endif
