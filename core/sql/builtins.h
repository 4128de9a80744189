/*
 * builtins.h - the functions and tables Perfetto's trace processor has in
 * its core (not its stdlib), registered on a trace's connection by one call:
 *
 *   functions.c        EXTRACT_ARG, HASH, STR_SPLIT, UNHEX, REGEXP*, time
 *                      helpers, ...
 *   functions_window.c LAST_NON_NULL, INTERNAL_LAYOUT
 *   vtab_ancestor.c    ancestor_slice, descendant_slice (+ _by_stack)
 *   vtab_flow.c        following_flow, preceding_flow, directly_connected_flow
 *   vtab_slice_layout.c experimental_slice_layout
 *   span_join.c        SPAN_JOIN / SPAN_LEFT_JOIN / SPAN_OUTER_JOIN
 *   intervals.c        __intrinsic_interval_intersect, __intrinsic_counter_intervals
 *   flamegraph.c       __intrinsic_flamegraph, __intrinsic_flamegraph_config
 *
 * See docs/sql_functions.md for each with an example.
 */
#ifndef TT_SQL_BUILTINS_H
#define TT_SQL_BUILTINS_H

#include <sqlite3.h>
#include "storage_int.h"

/* Everything below; SQLITE_OK or the first failing code. */
int tt_sql_register_builtins(sqlite3 *db, tt_storage *st);

int tt_sql_register_functions(sqlite3 *db, tt_storage *st);
int tt_sql_register_window_functions(sqlite3 *db);
/* abs_time_str, to_realtime, to_monotonic over st's clock snapshots
 * (functions_clock.c). */
int tt_sql_register_clock_functions(sqlite3 *db, tt_storage *st);
/* to_ftrace(id): an ftrace_event row as its line of systrace text
 * (functions_ftrace.c). */
int tt_sql_register_ftrace_functions(sqlite3 *db, const tt_storage *st);
int tt_sql_register_ancestor(sqlite3 *db, tt_storage *st);
int tt_sql_register_flow(sqlite3 *db, tt_storage *st);
int tt_sql_register_slice_layout(sqlite3 *db, tt_storage *st);
int tt_sql_register_intervals(sqlite3 *db);
int tt_sql_register_flamegraph(sqlite3 *db);
/* perfetto_table_info (vtab_table_info.c). */
int tt_sql_register_table_info(sqlite3 *db);
int tt_sql_register_span_join(sqlite3 *db);

/* Reads slice row `row` column `col` in the order of the slice table's
 * schema (vtab_tables.c), for table functions that return slices. */
void tt_vtab_slice_column(const tt_storage *st, size_t row, int col, sqlite3_context *ctx);
/* The slice table's columns, for table functions returning slice rows. */
#define TT_SLICE_COLUMNS \
	"id INTEGER, ts INTEGER, dur INTEGER, track_id INTEGER, category TEXT, name TEXT," \
	" depth INTEGER, parent_id INTEGER, arg_set_id INTEGER, thread_ts INTEGER," \
	" thread_dur INTEGER, thread_instruction_count INTEGER, thread_instruction_delta INTEGER," \
	" cat TEXT, slice_id INTEGER"
#define TT_SLICE_NCOLS 15

#endif
