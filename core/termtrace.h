/*
 * termtrace.h - the public C API of the termtrace core. The viewer (tui/),
 * the metrics runner (metrics/) and the command line use only this header.
 *
 * A tt_trace is one opened trace: its storage and a SQLite connection whose
 * virtual tables read that storage. Several can be open at once. All
 * timestamps are int64 nanoseconds (absolute, as in the trace: use
 * tt_trace_bounds for the range).
 *
 * Threads: tt_trace_open may run on a worker thread while another thread
 * polls the tt_progress it was given. After it returns, a tt_trace is used
 * from one thread at a time.
 */
#ifndef TERMTRACE_H
#define TERMTRACE_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "err.h"

#define TT_VERSION "0.1.0"

typedef struct tt_trace tt_trace;
typedef struct sqlite3 sqlite3;

/* Import progress, written by the importer, read by anyone. */
typedef struct tt_progress {
	_Atomic uint64_t bytes_done;
	_Atomic uint64_t bytes_total;
	_Atomic uint64_t events;
	_Atomic int cancel; /* set non-zero to make the import stop */
	_Atomic int done;
} tt_progress;

/* Opens and imports path (file or CTF directory). progress may be NULL.
 * Returns NULL and fills err (one line naming the file) on failure. */
tt_trace *tt_trace_open(const char *path, tt_progress *progress, tt_err *err);
void tt_trace_close(tt_trace *tr);

/* The SQLite connection over this trace (owned by the trace). */
sqlite3 *tt_trace_db(tt_trace *tr);
/* "chrome-json", "perfetto-proto", "ctf". */
const char *tt_trace_format(const tt_trace *tr);
const char *tt_trace_path(const tt_trace *tr);
uint64_t tt_trace_file_size(const tt_trace *tr);
double tt_trace_import_seconds(const tt_trace *tr);
void tt_trace_bounds(const tt_trace *tr, int64_t *start_ts, int64_t *end_ts);
/* Writes the `termtrace info` report. */
void tt_trace_print_info(tt_trace *tr, FILE *out);

/* ---- read access for the viewer (no SQL on the per-frame path) --------
 * Pointers returned stay valid until the next append to the trace (a
 * metric adding annotation tracks): fetch them again after that. */
typedef struct tt_slice_cols {
	size_t n;
	const int64_t *ts, *dur;
	const uint32_t *track_id; /* track of each slice */
	const uint32_t *name, *cat; /* string ids: tt_trace_str */
	const uint32_t *depth;
	const int32_t *parent_id;   /* -1 = none */
	const uint32_t *arg_set_id; /* TT_NONE (UINT32_MAX) = none; NULL when no
				       slice has args: read it with tt_slice_cols_args */
} tt_slice_cols;
void tt_trace_slices(const tt_trace *tr, tt_slice_cols *out);
/* Slice i's arg_set_id, TT_NONE (UINT32_MAX) when it has none. */
static inline uint32_t tt_slice_cols_args(const tt_slice_cols *c, size_t i)
{
	return c->arg_set_id ? c->arg_set_id[i] : UINT32_MAX;
}

typedef struct tt_track_info {
	uint32_t id;
	const char *name;   /* never NULL ("" when unnamed) */
	const char *type;   /* see storage.h */
	uint32_t utid, upid, parent_id; /* UINT32_MAX when none */
	int is_counter;
	const char *unit;   /* "" when none */
	uint32_t max_depth; /* slices: deepest depth + 1 (0 = no slices) */
	int64_t cpu;        /* type "cpu" tracks: the CPU number; else -1 */
	/* slice ids on this track sorted by ts (slices) or counter row ids
	 * sorted by ts (counters) */
	const uint32_t *rows;
	size_t nrows;
} tt_track_info;
uint32_t tt_trace_track_count(const tt_trace *tr);
int tt_trace_track(const tt_trace *tr, uint32_t id, tt_track_info *out);

typedef struct tt_counter_cols {
	size_t n;
	const int64_t *ts;
	const double *value;
	const uint32_t *track_id;
} tt_counter_cols;
void tt_trace_counters(const tt_trace *tr, tt_counter_cols *out);

/* Flows (the SQL table `flow`): row i links slice_out[i] to slice_in[i]. */
typedef struct tt_flow_cols {
	size_t n;
	const int64_t *slice_out, *slice_in;
} tt_flow_cols;
void tt_trace_flows(const tt_trace *tr, tt_flow_cols *out);

typedef struct tt_thread_info {
	uint32_t utid, upid; /* upid UINT32_MAX when unknown */
	int64_t tid;
	const char *name;    /* "" when unnamed */
	int64_t sort_index;
} tt_thread_info;
uint32_t tt_trace_thread_count(const tt_trace *tr);
int tt_trace_thread(const tt_trace *tr, uint32_t utid, tt_thread_info *out);

typedef struct tt_process_info {
	uint32_t upid;
	int64_t pid;
	const char *name;    /* "" when unnamed */
	int64_t sort_index;
} tt_process_info;
uint32_t tt_trace_process_count(const tt_trace *tr);
int tt_trace_process(const tt_trace *tr, uint32_t upid, tt_process_info *out);

/* Interned string text ("" for id 0). */
const char *tt_trace_str(const tt_trace *tr, uint32_t id);

/* A duration as every part of termtrace shows it (the viewer's panel,
 * status line and tables, the descriptions): exact to the nanosecond in
 * the largest unit <= |ns|, trailing zeros dropped, no space:
 * 21195000 -> "21.195ms", 17000 -> "17µs" ("17us" when !utf8), 0 -> "0ns". */
void tt_dur_text(int64_t ns, int utf8, char *buf, size_t n);

/* Calls fn for each arg of the set, in order; value as display text. */
typedef void (*tt_arg_fn)(void *ctx, const char *key, const char *value_text);
void tt_trace_args(const tt_trace *tr, uint32_t arg_set_id, tt_arg_fn fn, void *ctx);

/* ---- SQL ------------------------------------------------------------- */
typedef enum tt_query_format {
	TT_FMT_TABLE, TT_FMT_TSV, TT_FMT_CSV, TT_FMT_JSON
} tt_query_format;

/* Runs every statement of sql and prints the last one's rows to out.
 * Returns TT_OK or TT_EINVAL with err holding SQLite's message. */
int tt_query_print(tt_trace *tr, const char *sql, tt_query_format fmt,
		   int header, FILE *out, tt_err *err);

/* Rows of a result as strings, for the viewer and tests. */
typedef struct tt_result {
	int ncols;
	size_t nrows;
	char **cols;  /* ncols names */
	char **cells; /* nrows * ncols; NULL for SQL NULL */
	size_t total_rows; /* rows the statement returned, kept or not */
} tt_result;
/* Runs every statement of sql; keeps the last one's rows (at most
 * max_rows, 0 = all). */
int tt_query_collect(tt_trace *tr, const char *sql, size_t max_rows,
		     tt_result *out, tt_err *err);
/* The next pages of a result: runs only the last statement of sql again
 * (the earlier ones ran with the first page) and keeps its rows
 * [offset, offset + max_rows); total_rows counts them all. */
int tt_query_collect_page(tt_trace *tr, const char *sql, size_t offset, size_t max_rows,
			  tt_result *out, tt_err *err);
void tt_result_free(tt_result *r);
/* Adds a folder of PerfettoSQL modules (a/b.sql is module a.b), searched
 * before $XDG_DATA_HOME/termtrace/modules and the shipped library. */
int tt_sql_add_module_dir(tt_trace *tr, const char *dir, tt_err *err);
/* Makes a running query (on another thread) stop with an error. */
void tt_query_interrupt(tt_trace *tr);

/* A time limit on SQL run over a trace (a runaway query such as a cross
 * join of slice with itself must not hang `termtrace query`), on SQLite's
 * progress handler. From now on, statements run on tr stop with an error
 * once `seconds` (wall clock, counted from this call) have passed; 0 or
 * less removes the limit; calling it again re-arms it. TT_OK or TT_ENOMEM. */
int tt_query_set_timeout(tt_trace *tr, double seconds);

/* Non-zero when a statement was stopped by the limit since it was armed
 * (so that callers can say "timed out" instead of SQLite's "interrupted"). */
int tt_query_timed_out(tt_trace *tr);

/* ---- small text files (SQL, metrics, themes, config) -----------------
 * The rest of f / the file at path as one NUL-terminated malloc'ed buffer,
 * at most max bytes (0 = all; the rest is ignored). NULL when the file
 * cannot be opened or memory ran out. *len (may be NULL) gets the length. */
char *tt_text_read(FILE *f, size_t max, size_t *len);
char *tt_text_load(const char *path, size_t max, size_t *len);

/* ---- annotations (metrics) ----------------------------------------------
 * Owned by core/annotate.c (issue 7). A metric's <metric>_annotations
 * relation becomes annotation tracks (track.type = 'annotation') appended
 * to storage, and its rows with a non-NULL alert_type become rows of the
 * SQL table `alert` (id, ts, dur, track_id, slice_id, severity, metric,
 * source_slice_id, name). Columns of the relation (docs/metrics.md):
 *   mandatory track_type ('slice' | 'counter'), track_name, ts, dur,
 *             slice_name, value
 *   optional  utid, upid, source_slice_id, alert_type ('warning' | 'error'
 *             | NULL), and arg_<key> columns that become slice args.
 * The whole result is validated first: on error (message names the metric,
 * the column and the row) nothing is appended. Appending invalidates the
 * column pointers of tt_trace_slices / tt_trace_track / tt_trace_counters.
 * Returns TT_OK, TT_EINVAL or TT_ENOMEM. */
int tt_annotate_sql(tt_trace *tr, const char *metric, const char *relation, tt_err *err);
/* Creates the (empty) `alert` table if it does not exist yet. */
int tt_annotate_alert_table(tt_trace *tr, tt_err *err);
/* ---- end of annotations (metrics) ---- */

#endif
