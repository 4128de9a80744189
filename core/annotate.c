/*
 * annotate.c - turns a metric's <metric>_annotations relation into
 * annotation tracks in storage and rows of the `alert` table (issue 7; see
 * the contract in termtrace.h and docs/metrics.md).
 *
 * How it fits: metrics/metrics.c runs the metric SQL through the public API
 * and calls tt_annotate_sql(); this file is the only one that appends to a
 * finished trace, so it goes through storage.h and the slice tracker like an
 * importer (the tracker computes depth and parent_id of nested annotation
 * slices) and calls tt_storage_finalize() again at the end so the per-track
 * indexes and the SQL push-downs see the new rows.
 *
 * Two passes: every row is read and checked first (mandatory columns,
 * track_type, NULL ts, ...); only a fully valid relation is appended, so a
 * malformed view never leaves a partial track.
 *
 * Tracks: one per (track_type, track_name, utid, upid), in the order of
 * first appearance; type "annotation", description "metric <name>".
 * Slices of a track are fed to the tracker sorted by (ts, dur desc) so that
 * parents come before their children. Slice args: metric, source_slice_id,
 * alert_type and one per arg_<key> column. Slice category = metric name.
 *
 * Limits: counter samples have no args in storage, so a counter row's
 * alert has slice_id NULL. Partially overlapping annotation slices nest as
 * the tracker does for any track (counted in stats as slice_overlap).
 */
#include "trace_int.h"
#include "slice_tracker.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { COL_TRACK_TYPE, COL_TRACK_NAME, COL_TS, COL_DUR, COL_SLICE_NAME, COL_VALUE,
       COL_UTID, COL_UPID, COL_SOURCE, COL_ALERT, NCOLS };

static const char *const col_names[NCOLS] = {
	"track_type", "track_name", "ts", "dur", "slice_name", "value",
	"utid", "upid", "source_slice_id", "alert_type",
};
#define NMANDATORY 6

struct arow {
	size_t idx;       /* row number in the relation (0-based) */
	size_t key;       /* index into the track keys */
	int64_t ts, dur;
	char *slice_name; /* NULL = "" */
	double value;
	int64_t source;   /* -1 = none */
	int alert;        /* 0 none, 1 warning, 2 error */
	int64_t slice_id; /* set when appended; -1 for counters */
	sqlite3_value **args; /* one per arg_ column (may hold SQL NULL) */
};

struct tkey {
	int is_counter;
	char *name;
	uint32_t utid, upid;
};

struct ctx {
	tt_trace *tr;
	const char *metric, *relation;
	int col[NCOLS];     /* result column of each known column, -1 if absent */
	int nargs;
	int *arg_col;       /* result column of each arg_ column */
	char **arg_key;     /* key without the arg_ prefix */
	struct arow *rows;
	size_t nrows, caprows;
	struct tkey *keys;
	size_t nkeys, capkeys;
};

static const char *const severity_name[] = { NULL, "warning", "error" };

static void ctx_free(struct ctx *c)
{
	for (size_t i = 0; i < c->nrows; i++) {
		free(c->rows[i].slice_name);
		for (int a = 0; a < c->nargs && c->rows[i].args; a++)
			sqlite3_value_free(c->rows[i].args[a]);
		free(c->rows[i].args);
	}
	free(c->rows);
	for (size_t i = 0; i < c->nkeys; i++)
		free(c->keys[i].name);
	free(c->keys);
	for (int a = 0; a < c->nargs; a++)
		free(c->arg_key[a]);
	free(c->arg_key);
	free(c->arg_col);
}

static int bad(struct ctx *c, tt_err *err, size_t row, const char *col, const char *what)
{
	return tt_err_set(err, TT_EINVAL, "metric %s: %s row %zu: column %s %s", c->metric,
			  c->relation, row + 1, col, what);
}

/* Maps result columns to known columns; unknown names are an error unless
 * they start with arg_. */
static int map_columns(struct ctx *c, sqlite3_stmt *q, tt_err *err)
{
	int n = sqlite3_column_count(q);

	for (int k = 0; k < NCOLS; k++)
		c->col[k] = -1;
	c->arg_col = calloc((size_t)n + 1, sizeof(*c->arg_col));
	c->arg_key = calloc((size_t)n + 1, sizeof(*c->arg_key));
	if (!c->arg_col || !c->arg_key)
		return tt_err_set(err, TT_ENOMEM, "metric %s: out of memory", c->metric);
	for (int i = 0; i < n; i++) {
		const char *name = sqlite3_column_name(q, i);
		int k;

		for (k = 0; k < NCOLS; k++)
			if (strcmp(name, col_names[k]) == 0)
				break;
		if (k < NCOLS) {
			if (c->col[k] >= 0)
				return tt_err_set(err, TT_EINVAL, "metric %s: %s: column %s appears twice",
						  c->metric, c->relation, name);
			c->col[k] = i;
		} else if (strncmp(name, "arg_", 4) == 0 && name[4]) {
			if (!(c->arg_key[c->nargs] = strdup(name + 4)))
				return tt_err_set(err, TT_ENOMEM, "metric %s: out of memory", c->metric);
			c->arg_col[c->nargs++] = i;
		} else {
			return tt_err_set(err, TT_EINVAL,
					  "metric %s: %s: unknown column %s (extra columns must be named arg_<key>)",
					  c->metric, c->relation, name);
		}
	}
	for (int k = 0; k < NMANDATORY; k++)
		if (c->col[k] < 0)
			return tt_err_set(err, TT_EINVAL, "metric %s: %s: missing mandatory column %s",
					  c->metric, c->relation, col_names[k]);
	return TT_OK;
}

static int is_null(sqlite3_stmt *q, int col)
{
	return col < 0 || sqlite3_column_type(q, col) == SQLITE_NULL;
}

/* An integer column: NULL -> *present = 0; reals must be whole numbers. */
static int get_int(struct ctx *c, sqlite3_stmt *q, int k, size_t row, int64_t *v, int *present,
		   tt_err *err)
{
	int col = c->col[k], t;

	*present = 0;
	if (is_null(q, col))
		return TT_OK;
	t = sqlite3_column_type(q, col);
	if (t == SQLITE_INTEGER) {
		*v = sqlite3_column_int64(q, col);
	} else if (t == SQLITE_FLOAT) {
		double d = sqlite3_column_double(q, col);

		if (d != d || d < -9.2e18 || d > 9.2e18)
			return bad(c, err, row, col_names[k], "is not an integer");
		*v = (int64_t)d;
	} else {
		return bad(c, err, row, col_names[k], "is not an integer");
	}
	*present = 1;
	return TT_OK;
}

static size_t find_key(struct ctx *c, const struct tkey *k)
{
	for (size_t i = 0; i < c->nkeys; i++)
		if (c->keys[i].is_counter == k->is_counter && c->keys[i].utid == k->utid &&
		    c->keys[i].upid == k->upid && strcmp(c->keys[i].name, k->name) == 0)
			return i;
	return (size_t)-1;
}

/* Reads and checks one row into c->rows. */
static int read_row(struct ctx *c, sqlite3_stmt *q, size_t idx, tt_err *err)
{
	const tt_storage *st = c->tr->st;
	struct arow r = { .idx = idx, .source = -1 };
	struct tkey key = { 0 };
	const char *tt, *tn;
	int64_t v;
	int present, rc;
	size_t ki;

	tt = (const char *)sqlite3_column_text(q, c->col[COL_TRACK_TYPE]);
	if (!tt)
		return bad(c, err, idx, "track_type", "is NULL (must be 'slice' or 'counter')");
	if (strcmp(tt, "slice") == 0)
		key.is_counter = 0;
	else if (strcmp(tt, "counter") == 0)
		key.is_counter = 1;
	else
		return tt_err_set(err, TT_EINVAL,
				  "metric %s: %s row %zu: column track_type is '%.40s' (must be 'slice' or 'counter')",
				  c->metric, c->relation, idx + 1, tt);
	tn = (const char *)sqlite3_column_text(q, c->col[COL_TRACK_NAME]);
	if (!tn)
		return bad(c, err, idx, "track_name", "is NULL");

	if ((rc = get_int(c, q, COL_TS, idx, &r.ts, &present, err)))
		return rc;
	if (!present)
		return bad(c, err, idx, "ts", "is NULL");
	if ((rc = get_int(c, q, COL_DUR, idx, &r.dur, &present, err)))
		return rc;
	if (!present)
		r.dur = 0;
	if (r.dur < 0)
		return bad(c, err, idx, "dur", "is negative");
	if (!key.is_counter && r.ts > INT64_MAX - r.dur)
		return bad(c, err, idx, "dur", "makes ts + dur overflow");

	if (!is_null(q, c->col[COL_VALUE])) {
		int t = sqlite3_column_type(q, c->col[COL_VALUE]);

		if (t != SQLITE_INTEGER && t != SQLITE_FLOAT)
			return bad(c, err, idx, "value", "is not a number");
		r.value = sqlite3_column_double(q, c->col[COL_VALUE]);
	} else if (key.is_counter) {
		return bad(c, err, idx, "value", "is NULL on a counter row");
	}

	key.utid = key.upid = TT_NONE;
	if ((rc = get_int(c, q, COL_UTID, idx, &v, &present, err)))
		return rc;
	if (present) {
		if (v < 0 || (uint64_t)v >= st->thread.n)
			return bad(c, err, idx, "utid", "is not a thread of the trace");
		key.utid = (uint32_t)v;
	}
	if ((rc = get_int(c, q, COL_UPID, idx, &v, &present, err)))
		return rc;
	if (present) {
		if (v < 0 || (uint64_t)v >= st->process.n)
			return bad(c, err, idx, "upid", "is not a process of the trace");
		key.upid = (uint32_t)v;
	}
	if ((rc = get_int(c, q, COL_SOURCE, idx, &v, &present, err)))
		return rc;
	if (present) {
		if (v < 0 || (uint64_t)v >= st->slice.n)
			return bad(c, err, idx, "source_slice_id", "is not a slice of the trace");
		r.source = v;
	}
	if (!is_null(q, c->col[COL_ALERT])) {
		const char *a = (const char *)sqlite3_column_text(q, c->col[COL_ALERT]);

		if (a && strcmp(a, "warning") == 0)
			r.alert = 1;
		else if (a && strcmp(a, "error") == 0)
			r.alert = 2;
		else
			return bad(c, err, idx, "alert_type", "must be 'warning', 'error' or NULL");
	}

	key.name = (char *)tn;
	ki = find_key(c, &key);
	if (ki == (size_t)-1) {
		struct tkey other = key;

		/* The same name as a slice and a counter track is a mistake. */
		other.is_counter = !key.is_counter;
		if (find_key(c, &other) != (size_t)-1)
			return tt_err_set(err, TT_EINVAL,
					  "metric %s: %s row %zu: track_name '%.60s' has both slice and counter rows",
					  c->metric, c->relation, idx + 1, tn);
		if (c->nkeys == c->capkeys) {
			size_t ncap = c->capkeys ? c->capkeys * 2 : 8;
			struct tkey *nk = realloc(c->keys, ncap * sizeof(*nk));

			if (!nk)
				goto oom;
			c->keys = nk;
			c->capkeys = ncap;
		}
		if (!(key.name = strdup(tn)))
			goto oom;
		ki = c->nkeys;
		c->keys[c->nkeys++] = key;
	}
	r.key = ki;

	if (!is_null(q, c->col[COL_SLICE_NAME])) {
		const char *sn = (const char *)sqlite3_column_text(q, c->col[COL_SLICE_NAME]);

		if (sn && !(r.slice_name = strdup(sn)))
			goto oom;
	}
	if (c->nargs) {
		r.args = calloc((size_t)c->nargs, sizeof(*r.args));
		if (!r.args)
			goto oom_row;
		for (int a = 0; a < c->nargs; a++)
			if (!(r.args[a] = sqlite3_value_dup(sqlite3_column_value(q, c->arg_col[a]))))
				goto oom_row;
	}
	if (c->nrows == c->caprows) {
		size_t ncap = c->caprows ? c->caprows * 2 : 64;
		struct arow *nr = realloc(c->rows, ncap * sizeof(*nr));

		if (!nr)
			goto oom_row;
		c->rows = nr;
		c->caprows = ncap;
	}
	c->rows[c->nrows++] = r;
	return TT_OK;
oom_row:
	free(r.slice_name);
	for (int a = 0; a < c->nargs && r.args; a++)
		sqlite3_value_free(r.args[a]);
	free(r.args);
oom:
	return tt_err_set(err, TT_ENOMEM, "metric %s: out of memory", c->metric);
}

/* Alerts get ids in (ts, row) order, whatever their track. */
static int cmp_alert(const void *a, const void *b)
{
	const struct arow *x = *(const struct arow *const *)a, *y = *(const struct arow *const *)b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int cmp_row(const void *a, const void *b)
{
	const struct arow *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->dur != y->dur) /* longer first: parents before children */
		return x->dur > y->dur ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

int tt_annotate_alert_table(tt_trace *tr, tt_err *err)
{
	/* A plain SQLite table: the viewer and users read it with SELECT. */
	static const char ddl[] =
		"create table if not exists alert("
		" id integer primary key, ts integer not null, dur integer not null,"
		" track_id integer not null, slice_id integer, severity text not null,"
		" metric text not null, source_slice_id integer, name text)";
	char *msg = NULL;

	if (sqlite3_exec(tr->db, ddl, NULL, NULL, &msg) != SQLITE_OK) {
		tt_err_set(err, TT_EINVAL, "cannot create the alert table: %s", msg ? msg : "?");
		sqlite3_free(msg);
		return TT_EINVAL;
	}
	return TT_OK;
}

static void arg_from_value(tt_storage *st, const char *key, sqlite3_value *v)
{
	switch (sqlite3_value_type(v)) {
	case SQLITE_INTEGER: tt_storage_args_int(st, key, sqlite3_value_int64(v)); break;
	case SQLITE_FLOAT: tt_storage_args_real(st, key, sqlite3_value_double(v)); break;
	case SQLITE_NULL: tt_storage_args_null(st, key); break;
	default: {
		const char *s = (const char *)sqlite3_value_text(v);

		tt_storage_args_str(st, key, s ? s : "", s ? (size_t)sqlite3_value_bytes(v) : 0);
	}
	}
}

/* Second pass: everything was checked, append. */
static int append(struct ctx *c, tt_err *err)
{
	tt_storage *st = c->tr->st;
	sqlite3 *db = c->tr->db;
	tt_slice_tracker *trk = tt_slice_tracker_new(st, NULL);
	uint32_t *track_of = calloc(c->nkeys + 1, sizeof(*track_of));
	sqlite3_stmt *ins = NULL;
	const struct arow **alerts = NULL;
	size_t nalerts = 0;
	int64_t next_alert = 0;
	tt_str cat = tt_storage_intern_cstr(st, c->metric);
	tt_str descr;
	char buf[256];
	int rc = TT_OK;

	snprintf(buf, sizeof(buf), "metric %s", c->metric);
	descr = tt_storage_intern_cstr(st, buf);
	if (!trk || !track_of)
		goto oom;
	if (sqlite3_prepare_v2(db, "select coalesce(max(id) + 1, 0) from alert", -1, &ins, NULL) !=
		    SQLITE_OK ||
	    sqlite3_step(ins) != SQLITE_ROW)
		goto sqlerr;
	next_alert = sqlite3_column_int64(ins, 0);
	sqlite3_finalize(ins);
	ins = NULL;
	if (sqlite3_prepare_v2(db,
			       "insert into alert(id, ts, dur, track_id, slice_id, severity, metric,"
			       " source_slice_id, name) values (?, ?, ?, ?, ?, ?, ?, ?, ?)",
			       -1, &ins, NULL) != SQLITE_OK)
		goto sqlerr;

	for (size_t k = 0; k < c->nkeys; k++) {
		const struct tkey *key = &c->keys[k];
		tt_track_desc d = {
			.type = "annotation",
			.name = tt_storage_intern_cstr(st, key->name),
			.utid = key->utid,
			.upid = key->upid,
			.parent_id = TT_NONE,
			.is_counter = key->is_counter,
			.description = descr,
			.cpu = -1,
		};

		/* A thread-scoped track belongs to the thread's process too. */
		if (d.utid != TT_NONE && d.upid == TT_NONE)
			d.upid = tt_storage_thread_upid(st, d.utid);
		track_of[k] = tt_storage_track_new(st, &d);
		if (track_of[k] == TT_NONE)
			goto oom;
	}

	if (c->nrows)
		qsort(c->rows, c->nrows, sizeof(*c->rows), cmp_row);
	for (size_t i = 0; i < c->nrows; i++) {
		struct arow *r = &c->rows[i];
		uint32_t track = track_of[r->key];
		int64_t slice_id = -1;

		if (c->keys[r->key].is_counter) {
			if (tt_storage_counter(st, track, r->ts, r->value) < 0)
				goto oom;
		} else {
			uint32_t set;
			const char *name = r->slice_name ? r->slice_name : "";

			tt_storage_args_begin(st);
			tt_storage_args_str(st, "metric", c->metric, strlen(c->metric));
			if (r->source >= 0)
				tt_storage_args_int(st, "source_slice_id", r->source);
			if (r->alert)
				tt_storage_args_str(st, "alert_type", severity_name[r->alert],
						    strlen(severity_name[r->alert]));
			for (int a = 0; a < c->nargs; a++)
				arg_from_value(st, c->arg_key[a], r->args[a]);
			set = tt_storage_args_store(st);
			slice_id = tt_slice_tracker_complete(trk, track, r->ts, r->dur, cat,
							     tt_storage_intern_cstr(st, name), set);
			if (slice_id < 0 && tt_storage_oom(st))
				goto oom;
		}
		r->slice_id = slice_id;
		if (r->alert)
			nalerts++;
	}
	tt_slice_tracker_flush(trk);
	tt_storage_finalize(st);
	if (tt_storage_oom(st))
		goto oom;

	alerts = malloc((nalerts ? nalerts : 1) * sizeof(*alerts));
	if (!alerts)
		goto oom;
	nalerts = 0;
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].alert)
			alerts[nalerts++] = &c->rows[i];
	qsort(alerts, nalerts, sizeof(*alerts), cmp_alert);
	sqlite3_exec(db, "savepoint tt_annotate", NULL, NULL, NULL);
	for (size_t i = 0; i < nalerts; i++) {
		const struct arow *r = alerts[i];
		uint32_t track = track_of[r->key];
		int64_t slice_id = r->slice_id;

		sqlite3_reset(ins);
		sqlite3_bind_int64(ins, 1, next_alert++);
		sqlite3_bind_int64(ins, 2, r->ts);
		sqlite3_bind_int64(ins, 3, c->keys[r->key].is_counter ? 0 : r->dur);
		sqlite3_bind_int64(ins, 4, track);
		if (slice_id >= 0)
			sqlite3_bind_int64(ins, 5, slice_id);
		else
			sqlite3_bind_null(ins, 5);
		sqlite3_bind_text(ins, 6, severity_name[r->alert], -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 7, c->metric, -1, SQLITE_STATIC);
		if (r->source >= 0)
			sqlite3_bind_int64(ins, 8, r->source);
		else
			sqlite3_bind_null(ins, 8);
		if (r->slice_name)
			sqlite3_bind_text(ins, 9, r->slice_name, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(ins, 9);
		if (sqlite3_step(ins) != SQLITE_DONE) {
			sqlite3_exec(db, "release tt_annotate", NULL, NULL, NULL);
			goto sqlerr;
		}
	}
	sqlite3_exec(db, "release tt_annotate", NULL, NULL, NULL);
done:
	sqlite3_finalize(ins);
	tt_slice_tracker_free(trk);
	free(track_of);
	free(alerts);
	return rc;
oom:
	tt_storage_finalize(st);
	rc = tt_err_set(err, TT_ENOMEM, "metric %s: out of memory adding annotations", c->metric);
	goto done;
sqlerr:
	rc = tt_err_set(err, TT_EINVAL, "metric %s: alert table: %s", c->metric, sqlite3_errmsg(db));
	tt_storage_finalize(st);
	goto done;
}

int tt_annotate_sql(tt_trace *tr, const char *metric, const char *relation, tt_err *err)
{
	struct ctx c = { .tr = tr, .metric = metric, .relation = relation };
	sqlite3_stmt *q = NULL;
	char *sql;
	size_t idx = 0;
	int rc, s;

	tt_err_clear(err);
	rc = tt_annotate_alert_table(tr, err);
	if (rc)
		return rc;
	sql = sqlite3_mprintf("select * from \"%w\"", relation);
	if (!sql)
		return tt_err_set(err, TT_ENOMEM, "metric %s: out of memory", metric);
	if (sqlite3_prepare_v2(tr->db, sql, -1, &q, NULL) != SQLITE_OK) {
		rc = tt_err_set(err, TT_EINVAL, "metric %s: %s: %s", metric, relation,
				sqlite3_errmsg(tr->db));
		goto done;
	}
	if ((rc = map_columns(&c, q, err)))
		goto done;
	while ((s = sqlite3_step(q)) == SQLITE_ROW) {
		if ((rc = read_row(&c, q, idx++, err)))
			goto done;
	}
	if (s != SQLITE_DONE) {
		rc = tt_err_set(err, TT_EINVAL, "metric %s: %s: %s", metric, relation,
				sqlite3_errmsg(tr->db));
		goto done;
	}
	sqlite3_finalize(q);
	q = NULL;
	rc = append(&c, err);
done:
	sqlite3_finalize(q);
	sqlite3_free(sql);
	ctx_free(&c);
	return rc;
}
