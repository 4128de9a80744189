/*
 * intervals.c - the interval helpers the interval and counter modules are
 * built on (the role of Perfetto's __intrinsic_interval_intersect and
 * __intrinsic_counter_intervals), as table-valued functions whose inputs
 * are SQL: a table or view name, or a parenthesised subquery.
 *
 *   -- pairs of overlapping intervals of two tables (id, ts, dur columns),
 *   -- optionally within one partition column; ts/dur is the overlap
 *   select ts, dur, id_0, id_1 from __intrinsic_interval_intersect('a', 'b');
 *   select * from __intrinsic_interval_intersect(
 *       '(select id, ts, dur, utid from thread_state)', 'slices_of_interest', 'utid');
 *
 *   -- counter values as intervals: each kept value lasts until the next
 *   -- one on its track (the last until trace_end); runs of one value keep
 *   -- the first two rows and the last ("leading" edges, as Perfetto)
 *   select * from __intrinsic_counter_intervals('leading', trace_end(), 'counter');
 *
 * Inputs are the hidden columns (t0, t1, partition) and (kind, trace_end,
 * source). Plan, in idxNum: bit k set = hidden input k given by "= ?";
 * the required ones missing give SQLITE_CONSTRAINT.
 *
 * interval_intersect sweeps both inputs in (partition, ts) order with a
 * list of open intervals per side: O((n + m) log(n + m) + output) for
 * inputs whose intervals overlap little within one side. Intervals with
 * dur <= 0 meet nothing; overlaps of length 0 are not rows.
 */
#include "builtins.h"

#include <stdlib.h>
#include <string.h>

enum { FN_INTERSECT, FN_COUNTER };

/* One output row: integers and reals, NULL flags by column. */
struct orow {
	int64_t i[5];
	double d[3];
	unsigned nulls;
};

struct table {
	sqlite3_vtab base;
	sqlite3 *db;
	int fn;
};

struct cursor {
	sqlite3_vtab_cursor base;
	struct orow *rows;
	size_t n, cap, at;
	sqlite3_value *in[3];
};

#define II_COLS 5 /* ts, dur, id_0, id_1, part; then t0, t1, partition_col */
#define CI_COLS 7 /* id, ts, dur, track_id, value, next_value, delta_value; kind, trace_end, source */

static const char *const schemas[] = {
	"CREATE TABLE x(ts INTEGER, dur INTEGER, id_0 INTEGER, id_1 INTEGER, part INTEGER,"
	" t0 HIDDEN, t1 HIDDEN, partition_col HIDDEN)",
	"CREATE TABLE x(id INTEGER, ts INTEGER, dur INTEGER, track_id INTEGER, value REAL,"
	" next_value REAL, delta_value REAL, kind HIDDEN, trace_end HIDDEN, source HIDDEN)",
};
static const int ncols[] = { II_COLS, CI_COLS };
static const int required[] = { 3, 7 }; /* bitmask of required inputs */

static int push(struct cursor *c, struct orow r)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64;
		struct orow *v = sqlite3_realloc64(c->rows, cap * sizeof(*v));

		if (!v)
			return SQLITE_NOMEM;
		c->rows = v;
		c->cap = cap;
	}
	c->rows[c->n++] = r;
	return SQLITE_OK;
}

static int set_error(struct table *t, const char *fmt, const char *a, const char *b)
{
	sqlite3_free(t->base.zErrMsg);
	t->base.zErrMsg = sqlite3_mprintf(fmt, a, b);
	return SQLITE_ERROR;
}

/* ---- interval intersect ---------------------------------------------------------- */

struct ival {
	int64_t id, ts, end, part;
};

static int read_intervals(struct table *t, const char *src, const char *part, struct ival **out,
			  size_t *n)
{
	char *sql = part ? sqlite3_mprintf("SELECT id, ts, dur, \"%w\" FROM %s ORDER BY 4, 2", part, src)
			 : sqlite3_mprintf("SELECT id, ts, dur FROM %s ORDER BY 2", src);
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (!sql)
		return SQLITE_NOMEM;
	rc = sqlite3_prepare_v2(t->db, sql, -1, &st, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return set_error(t, "interval_intersect: %s: %s", src, sqlite3_errmsg(t->db));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t dur = sqlite3_column_int64(st, 2);

		if (dur <= 0 || (part && sqlite3_column_type(st, 3) == SQLITE_NULL))
			continue;
		if (*n == cap) {
			struct ival *v;

			cap = cap ? cap * 2 : 256;
			v = sqlite3_realloc64(*out, cap * sizeof(*v));
			if (!v) {
				sqlite3_finalize(st);
				return SQLITE_NOMEM;
			}
			*out = v;
		}
		(*out)[*n].id = sqlite3_column_int64(st, 0);
		(*out)[*n].ts = sqlite3_column_int64(st, 1);
		(*out)[*n].end = (*out)[*n].ts + dur;
		(*out)[*n].part = part ? sqlite3_column_int64(st, 3) : 0;
		(*n)++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return set_error(t, "interval_intersect: %s: %s", src, sqlite3_errmsg(t->db));
	return SQLITE_OK;
}

/* Open intervals of one side (indexes into its array). */
struct open {
	size_t *v, n, cap;
};

static int open_add(struct open *o, size_t k)
{
	if (o->n == o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 16;
		size_t *v = sqlite3_realloc64(o->v, cap * sizeof(*v));

		if (!v)
			return SQLITE_NOMEM;
		o->v = v;
		o->cap = cap;
	}
	o->v[o->n++] = k;
	return SQLITE_OK;
}

static void open_prune(struct open *o, const struct ival *iv, int64_t ts)
{
	size_t w = 0;

	for (size_t r = 0; r < o->n; r++)
		if (iv[o->v[r]].end > ts)
			o->v[w++] = o->v[r];
	o->n = w;
}

static int intersect(struct table *t, struct cursor *c)
{
	const char *src[2], *part = NULL;
	struct ival *iv[2] = { NULL, NULL };
	size_t n[2] = { 0, 0 }, k[2] = { 0, 0 };
	struct open op[2] = { { 0 }, { 0 } };
	int rc = SQLITE_OK;

	for (int s = 0; s < 2; s++) {
		src[s] = (const char *)sqlite3_value_text(c->in[s]);
		if (!src[s])
			return set_error(t, "interval_intersect: table %s%s is NULL", s ? "1" : "0", "");
	}
	if (c->in[2] && sqlite3_value_type(c->in[2]) != SQLITE_NULL) {
		part = (const char *)sqlite3_value_text(c->in[2]);
		if (part && !*part)
			part = NULL;
	}
	for (int s = 0; s < 2 && rc == SQLITE_OK; s++)
		rc = read_intervals(t, src[s], part, &iv[s], &n[s]);
	while (rc == SQLITE_OK && (k[0] < n[0] || k[1] < n[1])) {
		int s, o;
		const struct ival *x;

		/* the next interval by (partition, ts) */
		if (k[0] >= n[0])
			s = 1;
		else if (k[1] >= n[1])
			s = 0;
		else if (iv[0][k[0]].part != iv[1][k[1]].part)
			s = iv[0][k[0]].part < iv[1][k[1]].part ? 0 : 1;
		else
			s = iv[0][k[0]].ts <= iv[1][k[1]].ts ? 0 : 1;
		o = 1 - s;
		x = &iv[s][k[s]];
		/* open intervals of another partition are over */
		if (op[o].n && iv[o][op[o].v[0]].part != x->part)
			op[o].n = 0;
		if (op[s].n && iv[s][op[s].v[0]].part != x->part)
			op[s].n = 0;
		open_prune(&op[o], iv[o], x->ts);
		for (size_t j = 0; j < op[o].n && rc == SQLITE_OK; j++) {
			const struct ival *y = &iv[o][op[o].v[j]];
			int64_t end = x->end < y->end ? x->end : y->end;
			struct orow r = { { x->ts, end - x->ts, s ? y->id : x->id, s ? x->id : y->id, x->part },
					  { 0, 0, 0 }, part ? 0u : 1u << 4 };

			rc = push(c, r);
		}
		if (rc == SQLITE_OK)
			rc = open_add(&op[s], k[s]);
		k[s]++;
	}
	sqlite3_free(iv[0]);
	sqlite3_free(iv[1]);
	sqlite3_free(op[0].v);
	sqlite3_free(op[1].v);
	return rc;
}

/* ---- counter intervals ----------------------------------------------------------- */

static int flush_track(struct cursor *c, size_t first, int64_t trace_end)
{
	for (size_t i = first; i < c->n; i++) {
		struct orow *r = &c->rows[i];

		r->i[2] = (i + 1 < c->n ? c->rows[i + 1].i[1] : trace_end) - r->i[1];
		if (i + 1 < c->n)
			r->d[1] = c->rows[i + 1].d[0];
		else
			r->nulls |= 1u << 5;
		if (i > first)
			r->d[2] = r->d[0] - c->rows[i - 1].d[0];
		else
			r->nulls |= 1u << 6;
	}
	return SQLITE_OK;
}

static int counter_intervals(struct table *t, struct cursor *c)
{
	const char *kind = (const char *)sqlite3_value_text(c->in[0]);
	const char *src = (const char *)sqlite3_value_text(c->in[2]);
	int64_t trace_end = sqlite3_value_int64(c->in[1]);
	sqlite3_stmt *st = NULL;
	char *sql;
	size_t first = 0;
	int have_track = 0, pending = 0, rc;
	int64_t track = 0;
	struct orow last_equal = { { 0 }, { 0 }, 0 };

	if (!kind || sqlite3_stricmp(kind, "leading") != 0)
		return set_error(t, "counter_intervals: kind must be 'leading' (got '%s')%s",
				 kind ? kind : "NULL", "");
	if (!src)
		return set_error(t, "counter_intervals: source is NULL%s%s", "", "");
	sql = sqlite3_mprintf("SELECT id, ts, track_id, value FROM %s ORDER BY track_id, ts", src);
	if (!sql)
		return SQLITE_NOMEM;
	rc = sqlite3_prepare_v2(t->db, sql, -1, &st, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return set_error(t, "counter_intervals: %s: %s", src, sqlite3_errmsg(t->db));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct orow r = { { sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1), 0,
				    sqlite3_column_int64(st, 2), 0 },
				  { sqlite3_column_double(st, 3), 0, 0 }, 0 };

		if (!have_track || r.i[3] != track) {
			if (have_track)
				flush_track(c, first, trace_end);
			have_track = 1;
			track = r.i[3];
			first = c->n;
			pending = 0;
		} else if (c->n - first >= 2 && c->rows[c->n - 1].d[0] == r.d[0] &&
			   c->rows[c->n - 2].d[0] == r.d[0]) {
			/* a run of one value: remember its last row */
			last_equal = r;
			pending = 1;
			continue;
		} else if (pending) {
			if ((rc = push(c, last_equal)) != SQLITE_OK)
				break;
			pending = 0;
		}
		if ((rc = push(c, r)) != SQLITE_OK)
			break;
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_NOMEM)
		return rc;
	if (rc != SQLITE_DONE)
		return set_error(t, "counter_intervals: %s: %s", src, sqlite3_errmsg(t->db));
	if (have_track)
		flush_track(c, first, trace_end);
	return SQLITE_OK;
}

/* ---- the module --------------------------------------------------------------------- */

static int x_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
		     sqlite3_vtab **out, char **errp)
{
	struct table *t;
	int rc;

	(void)argc;
	(void)argv;
	(void)errp;
	rc = sqlite3_declare_vtab(db, schemas[(int)(intptr_t)aux]);
	if (rc != SQLITE_OK)
		return rc;
	t = sqlite3_malloc(sizeof(*t));
	if (!t)
		return SQLITE_NOMEM;
	memset(t, 0, sizeof(*t));
	t->db = db;
	t->fn = (int)(intptr_t)aux;
	*out = &t->base;
	return SQLITE_OK;
}

static int x_disconnect(sqlite3_vtab *vt)
{
	sqlite3_free(vt);
	return SQLITE_OK;
}

static int x_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	const struct table *t = (const struct table *)vt;
	int base = ncols[t->fn], plan = 0, seen = 0, slot[3] = { -1, -1, -1 };

	for (int i = 0; i < info->nConstraint; i++) {
		const struct sqlite3_index_constraint *k = &info->aConstraint[i];
		int in = k->iColumn - base;

		if (in < 0 || in > 2)
			continue;
		seen |= 1 << in;
		if (k->usable && k->op == SQLITE_INDEX_CONSTRAINT_EQ)
			slot[in] = i;
	}
	for (int in = 0, argv = 0; in < 3; in++) {
		if (slot[in] < 0)
			continue;
		plan |= 1 << in;
		info->aConstraintUsage[slot[in]].argvIndex = ++argv;
		info->aConstraintUsage[slot[in]].omit = 1;
	}
	if ((plan & required[t->fn]) != required[t->fn])
		return seen ? SQLITE_CONSTRAINT : SQLITE_OK; /* no inputs: empty */
	info->idxNum = plan;
	info->estimatedCost = 1000;
	return SQLITE_OK;
}

static int x_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	struct cursor *c = sqlite3_malloc(sizeof(*c));

	(void)vt;
	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof(*c));
	*out = &c->base;
	return SQLITE_OK;
}

static void free_inputs(struct cursor *c)
{
	for (int i = 0; i < 3; i++) {
		sqlite3_value_free(c->in[i]);
		c->in[i] = NULL;
	}
}

static int x_close(sqlite3_vtab_cursor *cur)
{
	struct cursor *c = (struct cursor *)cur;

	free_inputs(c);
	sqlite3_free(c->rows);
	sqlite3_free(c);
	return SQLITE_OK;
}

static int x_filter(sqlite3_vtab_cursor *cur, int plan, const char *idxstr, int argc,
		    sqlite3_value **argv)
{
	struct cursor *c = (struct cursor *)cur;
	struct table *t = (struct table *)cur->pVtab;
	int a = 0;

	(void)idxstr;
	(void)argc;
	c->n = c->at = 0;
	free_inputs(c);
	if ((plan & required[t->fn]) != required[t->fn])
		return SQLITE_OK;
	for (int in = 0; in < 3; in++)
		if ((plan & (1 << in)) && !(c->in[in] = sqlite3_value_dup(argv[a++])))
			return SQLITE_NOMEM;
	return t->fn == FN_INTERSECT ? intersect(t, c) : counter_intervals(t, c);
}

static int x_next(sqlite3_vtab_cursor *cur)
{
	((struct cursor *)cur)->at++;
	return SQLITE_OK;
}

static int x_eof(sqlite3_vtab_cursor *cur)
{
	const struct cursor *c = (const struct cursor *)cur;

	return c->at >= c->n;
}

static int x_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	const struct cursor *c = (const struct cursor *)cur;
	const struct table *t = (const struct table *)cur->pVtab;
	const struct orow *r = &c->rows[c->at];

	if (col >= ncols[t->fn]) {
		if (c->in[col - ncols[t->fn]])
			sqlite3_result_value(ctx, c->in[col - ncols[t->fn]]);
		return SQLITE_OK;
	}
	if (r->nulls & (1u << col))
		return SQLITE_OK;
	if (t->fn == FN_COUNTER && col >= 4)
		sqlite3_result_double(ctx, r->d[col - 4]);
	else if (t->fn == FN_COUNTER)
		sqlite3_result_int64(ctx, r->i[col]);
	else
		sqlite3_result_int64(ctx, r->i[col]);
	return SQLITE_OK;
}

static int x_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
	*rowid = (sqlite3_int64)((const struct cursor *)cur)->at;
	return SQLITE_OK;
}

static const sqlite3_module module = {
	.iVersion = 0,
	.xCreate = NULL, /* eponymous-only */
	.xConnect = x_connect,
	.xBestIndex = x_best_index,
	.xDisconnect = x_disconnect,
	.xDestroy = x_disconnect,
	.xOpen = x_open,
	.xClose = x_close,
	.xFilter = x_filter,
	.xNext = x_next,
	.xEof = x_eof,
	.xColumn = x_column,
	.xRowid = x_rowid,
};

int tt_sql_register_intervals(sqlite3 *db)
{
	int rc = sqlite3_create_module(db, "__intrinsic_interval_intersect", &module,
				       (void *)(intptr_t)FN_INTERSECT);

	if (rc == SQLITE_OK)
		rc = sqlite3_create_module(db, "__intrinsic_counter_intervals", &module,
					   (void *)(intptr_t)FN_COUNTER);
	return rc;
}
