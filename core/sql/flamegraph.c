/*
 * flamegraph.c - Perfetto's __intrinsic_flamegraph: a tree of weighted
 * frames (id, parent_id, name, value, then any property columns) merged
 * into a flamegraph, with its layout:
 *
 *   create virtual table fg using __intrinsic_flamegraph((
 *     select id, parent_id, name, self_size as value, mapping from my_callsites));
 *   select name, depth, self_value, cumulative_value, x_start, x_end
 *   from fg(__intrinsic_flamegraph_config('value', 'value', 'view', 'TOP_DOWN',
 *                                         'grouping', 'mapping',
 *                                         'filter', 'SHOW_STACK', 'alloc', 'i'));
 *   select cumulative_value from fg(__intrinsic_flamegraph_config('value', 'value'))
 *   where __intrinsic_flamegraph_find(_tree_id, 'SUPER_ROOT');
 *
 * The config (a pointer value made by __intrinsic_flamegraph_config) is
 * the hidden column in_config; tags:
 *   'value', col                    a numeric column to sum (self_/cumulative_;
 *                                   the first is self_value/cumulative_value)
 *   'view', TOP_DOWN | BOTTOM_UP | PIVOT | FROM_FRAME
 *   'view_pattern', regex, flags    frames PIVOT / FROM_FRAME start at
 *   'filter', SHOW_STACK | HIDE_STACK | HIDE_FRAME, regex, flags ('' or 'i')
 *   'grouping', col                 frames merge only when col is equal too
 *   'aggregate', SUM | ONE_OR_SUMMARY | CONCAT_WITH_COMMA, col, col
 *
 * Semantics (as Perfetto's): a HIDE_FRAME frame folds into its parent (its
 * values count for the parent); a row counts only if every SHOW_STACK
 * pattern matches a kept frame on its path and no HIDE_STACK one does.
 * TOP_DOWN merges equal frames under one merged parent from the roots
 * (depth 1, 2, ...); FROM_FRAME starts at frames matching the view pattern;
 * BOTTOM_UP builds, for every frame with a value, the path up to its root
 * (depth -1, -2, ...: the frame itself, its caller, ...); PIVOT does both
 * around the matching frames. Nodes whose cumulative values are all 0 are
 * dropped. Rows come out breadth first, siblings widest first, with x_start
 * and x_end packing children left to right inside their parent. Patterns
 * are POSIX extended regexes matched anywhere in the name or a grouping
 * value.
 *
 * Plan, in idxNum: 1 = the super-root selector (__intrinsic_flamegraph_find
 * overloaded through xFindFunction): one row, the sum of all values.
 */
#include "builtins.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX
#define MAX_SHOW 61
#define HIDE_BIT (1ull << 63)
#define FIND_OP (SQLITE_INDEX_CONSTRAINT_FUNCTION + 1)
#define CONFIG_PTR "tt_flamegraph_config"

enum { V_TOP_DOWN, V_BOTTOM_UP, V_PIVOT, V_FROM_FRAME };
enum { AG_SUM, AG_ONE, AG_CONCAT };
enum { C_CONFIG, C_TREE_ID, C_TREE_PARENT, C_DEPTH, C_NAME, C_SELF, C_CUM, C_PARENT_CUM,
       C_X_START, C_X_END, C_PROPS };

/* ---- config --------------------------------------------------------------------- */

struct pat {
	regex_t re;
	int ok;
};

struct config {
	int view;
	struct pat view_pat;
	struct pat show[MAX_SHOW], hide_stack[16], hide_frame[16];
	int nshow, nhide_stack, nhide_frame;
	char *grouping[8];
	int ngrouping;
	char *values[8];
	int nvalues;
	struct { int kind; char *col; } agg[16];
	int nagg;
};

static void config_free(void *p)
{
	struct config *c = p;

	if (!c)
		return;
	if (c->view_pat.ok)
		regfree(&c->view_pat.re);
	for (int i = 0; i < c->nshow; i++)
		regfree(&c->show[i].re);
	for (int i = 0; i < c->nhide_stack; i++)
		regfree(&c->hide_stack[i].re);
	for (int i = 0; i < c->nhide_frame; i++)
		regfree(&c->hide_frame[i].re);
	for (int i = 0; i < c->ngrouping; i++)
		sqlite3_free(c->grouping[i]);
	for (int i = 0; i < c->nvalues; i++)
		sqlite3_free(c->values[i]);
	for (int i = 0; i < c->nagg; i++)
		sqlite3_free(c->agg[i].col);
	sqlite3_free(c);
}

static int compile(struct pat *p, sqlite3_value *pattern, sqlite3_value *flags, char **err)
{
	const char *pt = (const char *)sqlite3_value_text(pattern);
	const char *fl = (const char *)sqlite3_value_text(flags);

	if (!pt || !fl) {
		*err = sqlite3_mprintf("flamegraph_config: pattern and flags must be text");
		return -1;
	}
	if (*fl && strcmp(fl, "i") != 0) {
		*err = sqlite3_mprintf("flamegraph_config: unknown regex flags '%s'", fl);
		return -1;
	}
	if (regcomp(&p->re, pt, REG_EXTENDED | REG_NOSUB | (*fl ? REG_ICASE : 0)) != 0) {
		*err = sqlite3_mprintf("flamegraph_config: bad pattern '%s'", pt);
		return -1;
	}
	p->ok = 1;
	return 0;
}

static char *text_arg(sqlite3_value *v, const char *what, char **err)
{
	const char *t = (const char *)sqlite3_value_text(v);

	if (!t) {
		*err = sqlite3_mprintf("flamegraph_config: %s must be text", what);
		return NULL;
	}
	return sqlite3_mprintf("%s", t);
}

static int token(sqlite3_value *v, const char *const *names, int n, const char *what, char **err)
{
	const char *t = (const char *)sqlite3_value_text(v);

	for (int i = 0; t && i < n; i++)
		if (strcmp(t, names[i]) == 0)
			return i;
	*err = sqlite3_mprintf("flamegraph_config: %s: unknown value '%s'", what, t ? t : "NULL");
	return -1;
}

static void fn_config(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	static const char *const views[] = { "TOP_DOWN", "BOTTOM_UP", "PIVOT", "FROM_FRAME" };
	static const char *const filters[] = { "SHOW_STACK", "HIDE_STACK", "HIDE_FRAME" };
	static const char *const aggs[] = { "SUM", "ONE_OR_SUMMARY", "CONCAT_WITH_COMMA" };
	struct config *c = sqlite3_malloc(sizeof(*c));
	char *err = NULL;
	int i = 0;

	if (!c) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	memset(c, 0, sizeof(*c));
	while (i < argc && !err) {
		const char *tag = (const char *)sqlite3_value_text(argv[i]);
		int need = !tag ? 0 : !strcmp(tag, "view") || !strcmp(tag, "grouping") || !strcmp(tag, "value") ? 1
			 : !strcmp(tag, "view_pattern") ? 2 : !strcmp(tag, "filter") || !strcmp(tag, "aggregate") ? 3 : 0;
		sqlite3_value **a = argv + i + 1;

		if (!need) {
			err = sqlite3_mprintf("flamegraph_config: unknown tag '%s'", tag ? tag : "NULL");
			break;
		}
		if (i + need >= argc) {
			err = sqlite3_mprintf("flamegraph_config: '%s' needs %d arguments", tag, need);
			break;
		}
		if (!strcmp(tag, "view")) {
			c->view = token(a[0], views, 4, "view", &err);
		} else if (!strcmp(tag, "view_pattern")) {
			if (c->view_pat.ok)
				regfree(&c->view_pat.re), c->view_pat.ok = 0;
			compile(&c->view_pat, a[0], a[1], &err);
		} else if (!strcmp(tag, "filter")) {
			int k = token(a[0], filters, 3, "filter", &err);
			struct pat *p = k == 0 ? (c->nshow < MAX_SHOW ? &c->show[c->nshow++] : NULL)
				      : k == 1 ? (c->nhide_stack < 16 ? &c->hide_stack[c->nhide_stack++] : NULL)
				      : k == 2 ? (c->nhide_frame < 16 ? &c->hide_frame[c->nhide_frame++] : NULL) : NULL;

			if (!err && !p)
				err = sqlite3_mprintf("flamegraph: too many filters");
			else if (!err && compile(p, a[1], a[2], &err))
				k == 0 ? c->nshow-- : k == 1 ? c->nhide_stack-- : c->nhide_frame--;
		} else if (!strcmp(tag, "grouping")) {
			if (c->ngrouping == 8)
				err = sqlite3_mprintf("flamegraph: too many grouping columns");
			else if ((c->grouping[c->ngrouping] = text_arg(a[0], "grouping", &err)))
				c->ngrouping++;
		} else if (!strcmp(tag, "value")) {
			if (c->nvalues == 8)
				err = sqlite3_mprintf("flamegraph: too many value columns");
			else if ((c->values[c->nvalues] = text_arg(a[0], "value", &err)))
				c->nvalues++;
		} else {
			int k = token(a[0], aggs, 3, "aggregate", &err);
			const char *in = (const char *)sqlite3_value_text(a[1]);
			const char *out = (const char *)sqlite3_value_text(a[2]);

			if (!err && (!in || !out || strcmp(in, out) != 0))
				err = sqlite3_mprintf("flamegraph: aggregate output must match its source column");
			else if (!err && c->nagg == 16)
				err = sqlite3_mprintf("flamegraph: too many aggregate columns");
			else if (!err && (c->agg[c->nagg].col = text_arg(a[1], "aggregate", &err)))
				c->agg[c->nagg++].kind = k;
		}
		i += need + 1;
	}
	if (!err && (c->view == V_PIVOT || c->view == V_FROM_FRAME) != c->view_pat.ok)
		err = sqlite3_mprintf("flamegraph_config: PIVOT and FROM_FRAME require a view pattern");
	if (err) {
		sqlite3_result_error(ctx, err, -1);
		sqlite3_free(err);
		config_free(c);
		return;
	}
	sqlite3_result_pointer(ctx, c, CONFIG_PTR, config_free);
}

static void fn_find(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	(void)argv;
	sqlite3_result_error(ctx, "__intrinsic_flamegraph_find must constrain a flamegraph", -1);
}

/* ---- the source tree --------------------------------------------------------------- */

struct table {
	sqlite3_vtab base;
	sqlite3 *db;
	int nrows, ncols;         /* source columns: id, parent_id, name, value, props... */
	char **cols;
	sqlite3_value **cells;    /* nrows * ncols, in parent-before-child order */
	uint32_t *parent;         /* row -> parent row or NONE */
	int *numeric;             /* column -> all non-NULL values are numbers (and some are) */
	int *is_int;              /* column -> numeric and all integers */
	double value_sum;
	int ncand;                /* property columns that are numeric */
};

static sqlite3_value *cell(const struct table *t, uint32_t row, int col)
{
	return t->cells[(size_t)row * (size_t)t->ncols + (size_t)col];
}

static int col_index(const struct table *t, const char *name)
{
	for (int i = 0; i < t->ncols; i++)
		if (strcmp(t->cols[i], name) == 0)
			return i;
	return -1;
}

static void table_free(struct table *t)
{
	if (!t)
		return;
	if (t->cells)
		for (size_t i = 0; i < (size_t)t->nrows * (size_t)t->ncols; i++)
			sqlite3_value_free(t->cells[i]);
	for (int i = 0; i < t->ncols; i++)
		sqlite3_free(t->cols[i]);
	sqlite3_free(t->cols);
	sqlite3_free(t->cells);
	sqlite3_free(t->parent);
	sqlite3_free(t->numeric);
	sqlite3_free(t->is_int);
	sqlite3_free(t);
}

static int is_reserved(const char *n)
{
	static const char *const r[] = { "in_config", "_tree_id", "_tree_parent_id", "depth", "name",
					 "self_value", "cumulative_value", "parent_cumulative_value",
					 "x_start", "x_end" };

	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++)
		if (strcmp(n, r[i]) == 0)
			return 1;
	return 0;
}

struct idrow { int64_t id; uint32_t row; };

static int by_id(const void *a, const void *b)
{
	const struct idrow *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id ? 1 : (x->row > y->row) - (x->row < y->row);
}

/* Reads the source; rows are reordered so that parents come first
 * (breadth first from the roots, input order within a level). */
static int load(struct table *t, const char *src, char **err)
{
	char *sql = sqlite3_mprintf("SELECT * FROM %s", src);
	sqlite3_stmt *st = NULL;
	sqlite3_value **raw = NULL;
	size_t n = 0, cap = 0;
	struct idrow *ids = NULL;
	uint32_t *rp = NULL, *order = NULL, *first_child = NULL, *next_sib = NULL, *newpos = NULL;
	int rc;

	if (!sql)
		return SQLITE_NOMEM;
	rc = sqlite3_prepare_v2(t->db, sql, -1, &st, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK) {
		*err = sqlite3_mprintf("flamegraph: %s", sqlite3_errmsg(t->db));
		return SQLITE_ERROR;
	}
	t->ncols = sqlite3_column_count(st);
	if (t->ncols < 4) {
		*err = sqlite3_mprintf("flamegraph: source must contain id, parent_id, name and value");
		sqlite3_finalize(st);
		return SQLITE_ERROR;
	}
	t->cols = sqlite3_malloc64((size_t)t->ncols * sizeof(char *));
	t->numeric = sqlite3_malloc64((size_t)t->ncols * sizeof(int));
	t->is_int = sqlite3_malloc64((size_t)t->ncols * sizeof(int));
	if (!t->cols || !t->numeric || !t->is_int) {
		sqlite3_finalize(st);
		return SQLITE_NOMEM;
	}
	for (int i = 0; i < t->ncols; i++) {
		t->cols[i] = sqlite3_mprintf("%s", sqlite3_column_name(st, i));
		t->numeric[i] = 0;
		t->is_int[i] = 1;
	}
	if (strcmp(t->cols[0], "id") || strcmp(t->cols[1], "parent_id") || strcmp(t->cols[2], "name") ||
	    strcmp(t->cols[3], "value")) {
		*err = sqlite3_mprintf("flamegraph: first source columns must be id, parent_id, name, value");
		sqlite3_finalize(st);
		return SQLITE_ERROR;
	}
	for (int i = 4; i < t->ncols; i++)
		if (is_reserved(t->cols[i])) {
			*err = sqlite3_mprintf("flamegraph: reserved property column '%s'", t->cols[i]);
			sqlite3_finalize(st);
			return SQLITE_ERROR;
		}
	{
		int *bad = sqlite3_malloc64((size_t)t->ncols * sizeof(int));

		if (!bad) {
			sqlite3_finalize(st);
			return SQLITE_NOMEM;
		}
		memset(bad, 0, (size_t)t->ncols * sizeof(int));
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			if (n == cap) {
				sqlite3_value **v;

				cap = cap ? cap * 2 : 64;
				v = sqlite3_realloc64(raw, cap * (size_t)t->ncols * sizeof(*v));
				if (!v) {
					rc = SQLITE_NOMEM;
					break;
				}
				raw = v;
			}
			for (int i = 0; i < t->ncols; i++) {
				sqlite3_value *v = sqlite3_value_dup(sqlite3_column_value(st, i));
				int ty = sqlite3_column_type(st, i);

				raw[n * (size_t)t->ncols + (size_t)i] = v;
				if (ty == SQLITE_INTEGER || ty == SQLITE_FLOAT)
					t->numeric[i] = 1;
				if (ty == SQLITE_FLOAT)
					t->is_int[i] = 0;
				if (ty == SQLITE_TEXT || ty == SQLITE_BLOB)
					bad[i] = 1;
			}
			n++;
		}
		for (int i = 0; i < t->ncols; i++) {
			if (bad[i])
				t->numeric[i] = 0;
			if (!t->numeric[i])
				t->is_int[i] = 0;
		}
		sqlite3_free(bad);
	}
	sqlite3_finalize(st);
	t->nrows = (int)n;
	if (rc != SQLITE_DONE) {
		if (raw)
			for (size_t i = 0; i < n * (size_t)t->ncols; i++)
				sqlite3_value_free(raw[i]);
		sqlite3_free(raw);
		t->nrows = 0;
		if (rc == SQLITE_NOMEM)
			return rc;
		*err = sqlite3_mprintf("flamegraph: %s", sqlite3_errmsg(t->db));
		return SQLITE_ERROR;
	}
	if (n > 0 && !t->numeric[3] && sqlite3_value_type(raw[3]) != SQLITE_NULL) {
		*err = sqlite3_mprintf("flamegraph: value column must be numeric");
		t->cells = raw;
		return SQLITE_ERROR;
	}
	/* parent rows by id */
	ids = sqlite3_malloc64((n ? n : 1) * sizeof(*ids));
	rp = sqlite3_malloc64((n ? n : 1) * sizeof(*rp));
	order = sqlite3_malloc64((n ? n : 1) * sizeof(*order));
	first_child = sqlite3_malloc64((n ? n : 1) * sizeof(*first_child));
	next_sib = sqlite3_malloc64((n ? n : 1) * sizeof(*next_sib));
	newpos = sqlite3_malloc64((n ? n : 1) * sizeof(*newpos));
	t->cells = sqlite3_malloc64((n ? n : 1) * (size_t)t->ncols * sizeof(*t->cells));
	t->parent = sqlite3_malloc64((n ? n : 1) * sizeof(*t->parent));
	if (!ids || !rp || !order || !first_child || !next_sib || !newpos || !t->cells || !t->parent) {
		rc = SQLITE_NOMEM;
		goto done;
	}
	for (size_t r = 0; r < n; r++)
		ids[r] = (struct idrow){ sqlite3_value_int64(raw[r * (size_t)t->ncols]), (uint32_t)r };
	qsort(ids, n, sizeof(*ids), by_id);
	for (size_t r = 0; r < n; r++) {
		sqlite3_value *pv = raw[r * (size_t)t->ncols + 1];
		size_t lo = 0, hi = n;
		int64_t want = sqlite3_value_int64(pv);

		rp[r] = NONE;
		first_child[r] = next_sib[r] = NONE;
		if (sqlite3_value_type(pv) == SQLITE_NULL)
			continue;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (ids[mid].id < want)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < n && ids[lo].id == want && ids[lo].row != r)
			rp[r] = ids[lo].row;
	}
	/* children lists in input order (built backwards), then BFS */
	for (size_t r = n; r-- > 0;)
		if (rp[r] != NONE) {
			next_sib[r] = first_child[rp[r]];
			first_child[rp[r]] = (uint32_t)r;
		}
	{
		size_t len = 0;

		for (size_t r = 0; r < n; r++)
			if (rp[r] == NONE)
				order[len++] = (uint32_t)r;
		for (size_t k = 0; k < len; k++)
			for (uint32_t ch = first_child[order[k]]; ch != NONE; ch = next_sib[ch])
				order[len++] = ch;
		/* rows on a cycle are never reached: dropped */
		for (size_t r = 0; r < n; r++)
			newpos[r] = NONE;
		for (size_t k = 0; k < len; k++)
			newpos[order[k]] = (uint32_t)k;
		for (size_t k = 0; k < len; k++) {
			uint32_t r = order[k];

			memcpy(&t->cells[k * (size_t)t->ncols], &raw[(size_t)r * (size_t)t->ncols],
			       (size_t)t->ncols * sizeof(*raw));
			t->parent[k] = rp[r] == NONE ? NONE : newpos[rp[r]];
		}
		for (size_t r = 0; r < n; r++)
			if (newpos[r] == NONE)
				for (int i = 0; i < t->ncols; i++)
					sqlite3_value_free(raw[r * (size_t)t->ncols + (size_t)i]);
		t->nrows = (int)len;
	}
	for (int r = 0; r < t->nrows; r++)
		if (sqlite3_value_type(cell(t, (uint32_t)r, 3)) != SQLITE_NULL)
			t->value_sum += sqlite3_value_double(cell(t, (uint32_t)r, 3));
	for (int i = 4; i < t->ncols; i++)
		t->ncand += t->numeric[i];
	rc = SQLITE_OK;
done:
	if (rc != SQLITE_OK && raw) {
		for (size_t i = 0; i < n * (size_t)t->ncols; i++)
			sqlite3_value_free(raw[i]);
		t->nrows = 0;
	}
	sqlite3_free(raw);
	sqlite3_free(ids);
	sqlite3_free(rp);
	sqlite3_free(order);
	sqlite3_free(first_child);
	sqlite3_free(next_sib);
	sqlite3_free(newpos);
	return rc;
}

/* ---- building ------------------------------------------------------------------------ */

/* Merged nodes: (parent, frame hash) -> node, first row = representative. */
struct interner {
	uint32_t *parent, *rep;
	uint64_t *hash;
	uint32_t n, cap;
	uint32_t *slots; /* open addressing: node + 1, 0 = empty */
	uint32_t nslots;
};

static uint64_t mix(uint64_t h, uint32_t parent)
{
	h ^= (uint64_t)parent * 0x9e3779b97f4a7c15ull;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	return h ^ (h >> 32);
}

static int intern_grow(struct interner *in)
{
	uint32_t ns = in->nslots ? in->nslots * 2 : 64;
	uint32_t *s = calloc(ns, sizeof(*s));

	if (!s)
		return -1;
	for (uint32_t i = 0; i < in->n; i++) {
		uint32_t k = (uint32_t)mix(in->hash[i], in->parent[i]) & (ns - 1);

		while (s[k])
			k = (k + 1) & (ns - 1);
		s[k] = i + 1;
	}
	free(in->slots);
	in->slots = s;
	in->nslots = ns;
	return 0;
}

/* The node for (parent, hash), made with representative row `row` if new;
 * NONE when memory ran out. */
static uint32_t intern(struct interner *in, uint32_t parent, uint64_t hash, uint32_t row)
{
	uint32_t k;

	if ((in->n + 1) * 2 > in->nslots && intern_grow(in))
		return NONE;
	k = (uint32_t)mix(hash, parent) & (in->nslots - 1);
	while (in->slots[k]) {
		uint32_t node = in->slots[k] - 1;

		if (in->hash[node] == hash && in->parent[node] == parent)
			return node;
		k = (k + 1) & (in->nslots - 1);
	}
	if (in->n == in->cap) {
		uint32_t cap = in->cap ? in->cap * 2 : 64;
		uint32_t *p = realloc(in->parent, cap * sizeof(*p));
		uint32_t *r = p ? realloc(in->rep, cap * sizeof(*r)) : NULL;
		uint64_t *h;

		if (p)
			in->parent = p;
		if (r)
			in->rep = r;
		h = r ? realloc(in->hash, cap * sizeof(*h)) : NULL;
		if (!h)
			return NONE;
		in->hash = h;
		in->cap = cap;
	}
	in->parent[in->n] = parent;
	in->rep[in->n] = row;
	in->hash[in->n] = hash;
	in->slots[k] = in->n + 1;
	return in->n++;
}

static void interner_free(struct interner *in)
{
	free(in->parent);
	free(in->rep);
	free(in->hash);
	free(in->slots);
}

struct aggval {
	int type; /* SQLITE_NULL, SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT */
	int64_t i;
	double d;
	char *s;
};

/* The built flamegraph, in layout order. */
struct result {
	uint32_t n;             /* output rows */
	uint32_t *node;         /* row -> packed node */
	uint32_t *parent_row;   /* row -> parent row or NONE */
	double *x;              /* row -> x_start */
	/* packed nodes */
	uint32_t np;
	int64_t *depth;
	uint32_t *rep;          /* representative source row */
	uint32_t *pparent;      /* packed parent */
	int nv;                 /* value columns */
	int *vcol;              /* value column -> source column */
	double **self_d, **cum_d;
	int64_t **self_i, **cum_i;
	int nag;
	uint32_t nag_nodes;     /* entries of each ag[] array */
	int *agcol;
	int ng;
	int *gcol;              /* grouping columns' source indexes */
	struct aggval **ag;     /* [aggregate][packed node] */
};

static void result_free(struct result *r)
{
	if (!r)
		return;
	/* a result that failed half-way has some arrays still NULL */
	for (int v = 0; v < r->nv; v++) {
		if (r->self_d)
			free(r->self_d[v]);
		if (r->cum_d)
			free(r->cum_d[v]);
		if (r->self_i)
			free(r->self_i[v]);
		if (r->cum_i)
			free(r->cum_i[v]);
	}
	for (int a = 0; r->ag && a < r->nag; a++) {
		for (uint32_t k = 0; r->ag[a] && k < r->nag_nodes; k++)
			sqlite3_free(r->ag[a][k].s);
		free(r->ag[a]);
	}
	free(r->self_d);
	free(r->cum_d);
	free(r->self_i);
	free(r->cum_i);
	free(r->ag);
	free(r->agcol);
	free(r->gcol);
	free(r->vcol);
	free(r->node);
	free(r->parent_row);
	free(r->x);
	free(r->depth);
	free(r->rep);
	free(r->pparent);
	free(r);
}

/* Text of a cell for matching and for aggregates: SQLite's rendering. */
static void cell_text(sqlite3_value *v, char *buf, size_t len)
{
	switch (sqlite3_value_type(v)) {
	case SQLITE_INTEGER:
		sqlite3_snprintf((int)len, buf, "%lld", (long long)sqlite3_value_int64(v));
		break;
	case SQLITE_FLOAT:
		sqlite3_snprintf((int)len, buf, "%!.15g", sqlite3_value_double(v));
		break;
	case SQLITE_NULL:
		buf[0] = 0;
		break;
	default:
		sqlite3_snprintf((int)len, buf, "%s", (const char *)sqlite3_value_text(v));
	}
}

struct upath { uint32_t root, leaf; };

struct builder {
	const struct table *t;
	const struct config *c;
	uint32_t n;
	int *gcol;              /* grouping columns' source indexes */
	uint64_t *hash;         /* row -> frame identity */
	uint32_t *retained;     /* row -> nearest kept frame or NONE */
	uint64_t *bits;         /* row -> SHOW_STACK bits | HIDE_BIT */
	unsigned char *vmatch;  /* row -> matches the view pattern */
	uint64_t required;
	struct interner down, up;
	uint32_t *dnode;        /* row -> downward node or NONE */
	struct upath *bu;       /* frame -> bottom-up path */
	struct { uint32_t frame; struct upath path; } *anchors;
	uint32_t nanchors;
	struct { uint32_t frame, node; } *cons; /* upward aggregate constituents */
	size_t ncons, capcons;
	int want_cons;
};

static int contributes(const struct builder *b, uint32_t r)
{
	return b->retained[r] != NONE && b->bits[r] == b->required;
}

static int match(const regex_t *re, const char *s)
{
	return regexec(re, s, 0, NULL, 0) == 0;
}

static void analyze(struct builder *b)
{
	const struct table *t = b->t;
	const struct config *c = b->c;
	char buf[512];

	for (uint32_t r = 0; r < b->n; r++) {
		uint32_t p = t->parent[r];
		uint64_t h = 0xcbf29ce484222325ull, show = 0;
		int hide_stack = 0, hide_frame = 0, vm = 0;

		for (int k = -1; k < b->c->ngrouping; k++) {
			sqlite3_value *v = cell(t, r, k < 0 ? 2 : b->gcol[k]);
			int ty = sqlite3_value_type(v);

			cell_text(v, buf, sizeof(buf));
			h ^= (uint64_t)ty;
			h *= 0x100000001b3ull;
			for (const char *s = buf; *s; s++) {
				h ^= (unsigned char)*s;
				h *= 0x100000001b3ull;
			}
			h ^= 0xff;
			h *= 0x100000001b3ull;
			if (ty == SQLITE_NULL)
				continue; /* NULL matches nothing, not even ^$ */
			for (int i = 0; i < c->nshow; i++)
				if (match(&c->show[i].re, buf))
					show |= 1ull << i;
			for (int i = 0; i < c->nhide_stack; i++)
				hide_stack |= match(&c->hide_stack[i].re, buf);
			for (int i = 0; i < c->nhide_frame; i++)
				hide_frame |= match(&c->hide_frame[i].re, buf);
			if (c->view_pat.ok)
				vm |= match(&c->view_pat.re, buf);
		}
		b->hash[r] = h;
		if (hide_frame) {
			b->retained[r] = p == NONE ? NONE : b->retained[p];
			b->bits[r] = p == NONE ? 0 : b->bits[p];
			b->vmatch[r] = 0;
			continue;
		}
		b->retained[r] = r;
		b->vmatch[r] = (unsigned char)vm;
		b->bits[r] = hide_stack ? HIDE_BIT : show | (p == NONE ? 0 : b->bits[p]);
	}
}

static int build_down(struct builder *b)
{
	const struct table *t = b->t;
	int view = b->c->view;

	for (uint32_t r = 0; r < b->n; r++) {
		uint32_t p = t->parent[r];
		uint32_t pn = p == NONE ? NONE : b->dnode[p];
		int has_kept_parent, starts;

		b->dnode[r] = NONE;
		if (view == V_BOTTOM_UP)
			continue;
		if (b->retained[r] != r) {
			b->dnode[r] = pn;
			continue;
		}
		has_kept_parent = p != NONE && b->retained[p] != NONE;
		starts = (b->c->view_pat.ok && b->vmatch[r]) || (view == V_TOP_DOWN && !has_kept_parent);
		if (!starts && pn == NONE)
			continue;
		b->dnode[r] = intern(&b->down, starts ? NONE : pn, b->hash[r], r);
		if (b->dnode[r] == NONE)
			return SQLITE_NOMEM;
	}
	return SQLITE_OK;
}

static int up_path(struct builder *b, uint32_t frame, int with_cons, struct upath *out)
{
	uint32_t upp = NONE;

	out->root = NONE;
	while (frame != NONE) {
		uint32_t p = b->t->parent[frame];

		upp = intern(&b->up, upp, b->hash[frame], frame);
		if (upp == NONE)
			return SQLITE_NOMEM;
		if (out->root == NONE)
			out->root = upp;
		if (with_cons && b->want_cons) {
			if (b->ncons == b->capcons) {
				size_t cap = b->capcons ? b->capcons * 2 : 64;
				void *v = realloc(b->cons, cap * sizeof(*b->cons));

				if (!v)
					return SQLITE_NOMEM;
				b->cons = v;
				b->capcons = cap;
			}
			b->cons[b->ncons].frame = frame;
			b->cons[b->ncons++].node = upp;
		}
		frame = p == NONE ? NONE : b->retained[p];
	}
	out->leaf = upp;
	return SQLITE_OK;
}

static double num(sqlite3_value *v)
{
	return sqlite3_value_double(v);
}

static int build_up(struct builder *b, char **err)
{
	const struct table *t = b->t;

	if (b->c->view == V_PIVOT) {
		b->anchors = malloc((b->n ? b->n : 1) * sizeof(*b->anchors));
		if (!b->anchors)
			return SQLITE_NOMEM;
		for (uint32_t r = 0; r < b->n; r++) {
			if (!b->vmatch[r])
				continue;
			b->anchors[b->nanchors].frame = r;
			if (up_path(b, r, contributes(b, r), &b->anchors[b->nanchors].path))
				return SQLITE_NOMEM;
			b->nanchors++;
		}
	} else if (b->c->view == V_BOTTOM_UP) {
		unsigned char *active = calloc(b->n ? b->n : 1, 1);

		b->bu = malloc((b->n ? b->n : 1) * sizeof(*b->bu));
		if (!active || !b->bu) {
			free(active);
			return SQLITE_NOMEM;
		}
		for (uint32_t r = 0; r < b->n; r++) {
			b->bu[r].root = b->bu[r].leaf = NONE;
			for (int v = 0; v < b->c->nvalues; v++) {
				sqlite3_value *x = cell(t, r, col_index(t, b->c->values[v]));

				if (sqlite3_value_type(x) == SQLITE_NULL)
					continue;
				if (num(x) < 0) {
					free(active);
					*err = sqlite3_mprintf("flamegraph: value columns must be non-negative");
					return SQLITE_ERROR;
				}
				if (num(x) != 0 && contributes(b, r))
					active[b->retained[r]] = 1;
			}
		}
		for (uint32_t r = 0; r < b->n; r++)
			if (active[r] && up_path(b, r, 1, &b->bu[r])) {
				free(active);
				return SQLITE_NOMEM;
			}
		free(active);
	}
	return SQLITE_OK;
}

/* Self and cumulative sums of value column `col` over the combined node
 * space (downward nodes, then upward ones). */
static int metric(struct builder *b, int col, double *self_d, double *cum_d, int64_t *self_i,
		  int64_t *cum_i, char **err)
{
	const struct table *t = b->t;
	uint32_t nd = b->down.n, nu = b->up.n;
	int view = b->c->view;

#define ADD(arr_d, arr_i, k, v, vi) ((arr_d)[k] += (v), (arr_i)[k] += (vi))
	if (view != V_BOTTOM_UP) {
		for (uint32_t r = 0; r < b->n; r++) {
			sqlite3_value *x = cell(t, r, col);

			if (sqlite3_value_type(x) == SQLITE_NULL)
				continue;
			if (num(x) < 0) {
				*err = sqlite3_mprintf("flamegraph: value columns must be non-negative");
				return SQLITE_ERROR;
			}
			if (b->dnode[r] != NONE && contributes(b, r)) {
				ADD(self_d, self_i, b->dnode[r], num(x), sqlite3_value_int64(x));
				ADD(cum_d, cum_i, b->dnode[r], num(x), sqlite3_value_int64(x));
			}
		}
		for (uint32_t k = nd; k-- > 0;)
			if (b->down.parent[k] != NONE)
				ADD(cum_d, cum_i, b->down.parent[k], cum_d[k], cum_i[k]);
	}
	if (view == V_BOTTOM_UP) {
		for (uint32_t r = 0; r < b->n; r++) {
			sqlite3_value *x = cell(t, r, col);
			struct upath p;

			if (sqlite3_value_type(x) == SQLITE_NULL || num(x) == 0 || !contributes(b, r))
				continue;
			p = b->bu[b->retained[r]];
			ADD(self_d, self_i, nd + p.root, num(x), sqlite3_value_int64(x));
			ADD(cum_d, cum_i, nd + p.leaf, num(x), sqlite3_value_int64(x));
		}
	} else if (view == V_PIVOT) {
		double *wd = calloc(b->n ? b->n : 1, sizeof(*wd));
		int64_t *wi = calloc(b->n ? b->n : 1, sizeof(*wi));

		if (!wd || !wi) {
			free(wd);
			free(wi);
			return SQLITE_NOMEM;
		}
		for (uint32_t r = 0; r < b->n; r++) {
			sqlite3_value *x = cell(t, r, col);

			if (sqlite3_value_type(x) != SQLITE_NULL && b->dnode[r] != NONE && contributes(b, r))
				ADD(wd, wi, b->retained[r], num(x), sqlite3_value_int64(x));
		}
		for (uint32_t r = b->n; r-- > 0;) {
			uint32_t p = t->parent[r];

			if (b->retained[r] != r || b->dnode[r] == NONE || b->down.parent[b->dnode[r]] == NONE ||
			    p == NONE || b->retained[p] == NONE)
				continue;
			ADD(wd, wi, b->retained[p], wd[r], wi[r]);
		}
		for (uint32_t a = 0; a < b->nanchors; a++) {
			uint32_t f = b->anchors[a].frame;

			ADD(self_d, self_i, nd + b->anchors[a].path.root, wd[f], wi[f]);
			ADD(cum_d, cum_i, nd + b->anchors[a].path.leaf, wd[f], wi[f]);
		}
		free(wd);
		free(wi);
	}
	for (uint32_t k = nu; k-- > 0;)
		if (b->up.parent[k] != NONE)
			ADD(cum_d, cum_i, nd + b->up.parent[k], cum_d[nd + k], cum_i[nd + k]);
#undef ADD
	return SQLITE_OK;
}

/* Aggregate state of one node. */
struct agg {
	int kind, is_int, has;
	int64_t si;
	double sd;
	sqlite3_str *text;
	char *first;
	char **seen;
	size_t nseen, capseen;
};

static void agg_add(struct agg *a, sqlite3_value *v)
{
	char buf[512];

	if (sqlite3_value_type(v) == SQLITE_NULL)
		return;
	if (a->kind == AG_SUM) {
		a->si += sqlite3_value_int64(v);
		a->sd += sqlite3_value_double(v);
		a->has = 1;
		return;
	}
	cell_text(v, buf, sizeof(buf));
	if (a->kind == AG_CONCAT) {
		if (a->has)
			sqlite3_str_appendchar(a->text, 1, ',');
		sqlite3_str_appendall(a->text, buf);
		a->has = 1;
		return;
	}
	if (!a->has) {
		a->first = sqlite3_mprintf("%s", buf);
		a->has = 1;
	}
	for (size_t i = 0; i < a->nseen; i++)
		if (strcmp(a->seen[i], buf) == 0)
			return;
	if (a->nseen == a->capseen) {
		size_t cap = a->capseen ? a->capseen * 2 : 8;
		char **s = sqlite3_realloc64(a->seen, cap * sizeof(*s));

		if (!s)
			return;
		a->seen = s;
		a->capseen = cap;
	}
	a->seen[a->nseen++] = sqlite3_mprintf("%s", buf);
}

static struct aggval agg_end(struct agg *a)
{
	struct aggval out = { SQLITE_NULL, 0, 0, NULL };
	char *txt = a->text ? sqlite3_str_finish(a->text) : NULL;

	a->text = NULL;
	if (a->has) {
		if (a->kind == AG_SUM) {
			out.type = a->is_int ? SQLITE_INTEGER : SQLITE_FLOAT;
			out.i = a->si;
			out.d = a->sd;
		} else if (a->kind == AG_CONCAT) {
			out.type = SQLITE_TEXT;
			out.s = txt;
			txt = NULL;
		} else {
			out.type = SQLITE_TEXT;
			out.s = a->nseen > 1 ? sqlite3_mprintf("%s and %d others", a->first, (int)a->nseen)
					     : sqlite3_mprintf("%s", a->first);
		}
	}
	sqlite3_free(txt);
	sqlite3_free(a->first);
	for (size_t i = 0; i < a->nseen; i++)
		sqlite3_free(a->seen[i]);
	sqlite3_free(a->seen);
	return out;
}

/* Aggregates over the combined node space: a node's frames (downward:
 * kept frames that count; upward: the path constituents), each frame's
 * rows (itself and the hidden frames folded into it, stacks not hidden). */
static int aggregates(struct builder *b, int col, int kind, struct aggval *out)
{
	const struct table *t = b->t;
	uint32_t nd = b->down.n, nodes = nd + b->up.n;
	uint32_t *foff = calloc((size_t)b->n + 1, sizeof(*foff));
	uint32_t *frows = malloc((b->n ? b->n : 1) * sizeof(*frows));
	uint32_t *ffill = malloc(((size_t)b->n + 1) * sizeof(*ffill));
	uint32_t *noff = calloc((size_t)nodes + 1, sizeof(*noff));
	uint32_t *nfr = malloc(((size_t)b->n + b->ncons + 1) * sizeof(*nfr));
	uint32_t *nfill = malloc(((size_t)nodes + 1) * sizeof(*nfill));
	int rc = SQLITE_NOMEM;

	if (!foff || !frows || !ffill || !noff || !nfr || !nfill)
		goto done;
	for (uint32_t r = 0; r < b->n; r++)
		if (b->retained[r] != NONE && !(b->bits[r] & HIDE_BIT))
			foff[b->retained[r] + 1]++;
	for (uint32_t f = 0; f < b->n; f++)
		foff[f + 1] += foff[f];
	memcpy(ffill, foff, ((size_t)b->n + 1) * sizeof(*ffill));
	for (uint32_t r = 0; r < b->n; r++)
		if (b->retained[r] != NONE && !(b->bits[r] & HIDE_BIT))
			frows[ffill[b->retained[r]]++] = r;
	for (uint32_t f = 0; f < b->n; f++)
		if (b->retained[f] == f && b->dnode[f] != NONE && contributes(b, f))
			noff[b->dnode[f] + 1]++;
	for (size_t k = 0; k < b->ncons; k++)
		noff[nd + b->cons[k].node + 1]++;
	for (uint32_t k = 0; k < nodes; k++)
		noff[k + 1] += noff[k];
	memcpy(nfill, noff, ((size_t)nodes + 1) * sizeof(*nfill));
	for (uint32_t f = 0; f < b->n; f++)
		if (b->retained[f] == f && b->dnode[f] != NONE && contributes(b, f))
			nfr[nfill[b->dnode[f]]++] = f;
	for (size_t k = 0; k < b->ncons; k++)
		nfr[nfill[nd + b->cons[k].node]++] = b->cons[k].frame;
	for (uint32_t k = 0; k < nodes; k++) {
		struct agg a = { kind, t->is_int[col], 0, 0, 0, NULL, NULL, NULL, 0, 0 };

		if (kind == AG_CONCAT)
			a.text = sqlite3_str_new(NULL);
		for (uint32_t i = noff[k]; i < noff[k + 1]; i++) {
			uint32_t f = nfr[i];

			for (uint32_t j = foff[f]; j < foff[f + 1]; j++)
				agg_add(&a, cell(t, frows[j], col));
		}
		out[k] = agg_end(&a);
	}
	rc = SQLITE_OK;
done:
	free(foff);
	free(frows);
	free(ffill);
	free(noff);
	free(nfr);
	free(nfill);
	return rc;
}

struct wnode { double w; uint32_t k; };

static int by_width(const void *a, const void *b)
{
	const struct wnode *x = a, *y = b;

	if (x->w != y->w)
		return x->w > y->w ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

/* Breadth-first order, siblings widest first, children packed inside
 * their parent from its x; the downward and upward roots are two strips
 * from x = 0, merged by x (downward first). */
static int layout(struct result *res)
{
	uint32_t np = res->np, nd_roots = 0, nu_roots = 0, tail = 0;
	struct wnode *order = malloc((np ? np : 1) * sizeof(*order));
	uint32_t *coff = calloc((size_t)np + 1, sizeof(*coff));
	uint32_t *cfill = malloc(((size_t)np + 1) * sizeof(*cfill));
	uint32_t *kids = malloc((np ? np : 1) * sizeof(*kids));
	uint32_t *droots = malloc((np ? np : 1) * sizeof(*droots));
	uint32_t *uroots = malloc((np ? np : 1) * sizeof(*uroots));
	double *w = malloc((np ? np : 1) * sizeof(*w));
	double *x = malloc((np ? np : 1) * sizeof(*x));
	int rc = SQLITE_NOMEM;

	res->node = malloc((np ? np : 1) * sizeof(*res->node));
	res->parent_row = malloc((np ? np : 1) * sizeof(*res->parent_row));
	res->x = malloc((np ? np : 1) * sizeof(*res->x));
	if (!order || !coff || !cfill || !kids || !droots || !uroots || !w || !x || !res->node ||
	    !res->parent_row || !res->x)
		goto done;
	for (uint32_t k = 0; k < np; k++) {
		double v = res->cum_d[0][k];

		w[k] = v > 0 ? v : 0;
		order[k] = (struct wnode){ w[k], k };
		if (res->pparent[k] != NONE)
			coff[res->pparent[k] + 1]++;
	}
	qsort(order, np, sizeof(*order), by_width);
	for (uint32_t k = 0; k < np; k++)
		coff[k + 1] += coff[k];
	memcpy(cfill, coff, ((size_t)np + 1) * sizeof(*cfill));
	for (uint32_t i = 0; i < np; i++) {
		uint32_t k = order[i].k, p = res->pparent[k];

		if (p != NONE)
			kids[cfill[p]++] = k;
		else if (res->depth[k] >= 0)
			droots[nd_roots++] = k;
		else
			uroots[nu_roots++] = k;
	}
	{
		double sx = 0;

		for (uint32_t i = 0; i < nd_roots; i++)
			x[droots[i]] = sx, sx += w[droots[i]];
		sx = 0;
		for (uint32_t i = 0; i < nu_roots; i++)
			x[uroots[i]] = sx, sx += w[uroots[i]];
	}
	for (uint32_t di = 0, ui = 0; di < nd_roots || ui < nu_roots;) {
		uint32_t k;

		if (ui >= nu_roots || (di < nd_roots && x[droots[di]] <= x[uroots[ui]]))
			k = droots[di++];
		else
			k = uroots[ui++];
		res->node[tail] = k;
		res->parent_row[tail] = NONE;
		res->x[tail++] = x[k];
	}
	for (uint32_t row = 0; row < tail; row++) {
		uint32_t k = res->node[row];
		double off = res->x[row];

		for (uint32_t i = coff[k]; i < coff[k + 1]; i++) {
			uint32_t ch = kids[i];

			x[ch] = off;
			off += w[ch];
			res->node[tail] = ch;
			res->parent_row[tail] = row;
			res->x[tail++] = x[ch];
		}
	}
	res->n = tail;
	rc = SQLITE_OK;
done:
	free(order);
	free(coff);
	free(cfill);
	free(kids);
	free(droots);
	free(uroots);
	free(w);
	free(x);
	return rc;
}

static void builder_free(struct builder *b)
{
	free(b->gcol);
	free(b->hash);
	free(b->retained);
	free(b->bits);
	free(b->vmatch);
	free(b->dnode);
	free(b->bu);
	free(b->anchors);
	free(b->cons);
	interner_free(&b->down);
	interner_free(&b->up);
}

/* Builds the flamegraph of t under config c; NULL with *err or on OOM. */
static struct result *build(const struct table *t, const struct config *c, char **err)
{
	struct builder b = { .t = t, .c = c, .n = (uint32_t)t->nrows };
	struct result *res = calloc(1, sizeof(*res));
	uint32_t nodes, *packed_of = NULL;
	int rc = SQLITE_NOMEM;

	if (!res)
		return NULL;
	res->nv = c->nvalues;
	res->nag = c->nagg;
	b.required = c->nshow ? (c->nshow == 64 ? ~0ull : (1ull << c->nshow) - 1) : 0;
	b.want_cons = c->nagg > 0;
	b.gcol = malloc(((size_t)c->ngrouping + 1) * sizeof(*b.gcol));
	res->vcol = malloc(((size_t)c->nvalues + 1) * sizeof(*res->vcol));
	res->agcol = malloc(((size_t)c->nagg + 1) * sizeof(*res->agcol));
	if (!b.gcol || !res->vcol || !res->agcol)
		goto fail;
	for (int i = 0; i < c->ngrouping; i++)
		if ((b.gcol[i] = col_index(t, c->grouping[i])) < 0) {
			*err = sqlite3_mprintf("flamegraph: grouping column: column '%s' does not exist", c->grouping[i]);
			goto fail;
		}
	for (int i = 0; i < c->nvalues; i++) {
		if ((res->vcol[i] = col_index(t, c->values[i])) < 0) {
			*err = sqlite3_mprintf("flamegraph: value column: column '%s' does not exist", c->values[i]);
			goto fail;
		}
		if (!t->numeric[res->vcol[i]]) {
			*err = sqlite3_mprintf("flamegraph: value columns must be numeric");
			goto fail;
		}
	}
	for (int i = 0; i < c->nagg; i++) {
		if ((res->agcol[i] = col_index(t, c->agg[i].col)) < 0) {
			*err = sqlite3_mprintf("flamegraph: aggregate column: column '%s' does not exist", c->agg[i].col);
			goto fail;
		}
		if (c->agg[i].kind == AG_SUM && !t->numeric[res->agcol[i]] &&
		    sqlite3_value_type(cell(t, 0, res->agcol[i])) != SQLITE_NULL) {
			*err = sqlite3_mprintf("flamegraph: SUM aggregate columns must be numeric");
			goto fail;
		}
	}
	b.hash = malloc((b.n ? b.n : 1) * sizeof(*b.hash));
	b.retained = malloc((b.n ? b.n : 1) * sizeof(*b.retained));
	b.bits = malloc((b.n ? b.n : 1) * sizeof(*b.bits));
	b.vmatch = malloc(b.n ? b.n : 1);
	b.dnode = malloc((b.n ? b.n : 1) * sizeof(*b.dnode));
	if (!b.hash || !b.retained || !b.bits || !b.vmatch || !b.dnode)
		goto fail;
	analyze(&b);
	if ((rc = build_down(&b)) != SQLITE_OK || (rc = build_up(&b, err)) != SQLITE_OK)
		goto fail;
	rc = SQLITE_NOMEM;
	nodes = b.down.n + b.up.n;
	res->self_d = calloc((size_t)c->nvalues + 1, sizeof(double *));
	res->cum_d = calloc((size_t)c->nvalues + 1, sizeof(double *));
	res->self_i = calloc((size_t)c->nvalues + 1, sizeof(int64_t *));
	res->cum_i = calloc((size_t)c->nvalues + 1, sizeof(int64_t *));
	res->ag = calloc((size_t)c->nagg + 1, sizeof(struct aggval *));
	if (!res->self_d || !res->cum_d || !res->self_i || !res->cum_i || !res->ag)
		goto fail;
	for (int v = 0; v < c->nvalues; v++) {
		res->self_d[v] = calloc(nodes ? nodes : 1, sizeof(double));
		res->cum_d[v] = calloc(nodes ? nodes : 1, sizeof(double));
		res->self_i[v] = calloc(nodes ? nodes : 1, sizeof(int64_t));
		res->cum_i[v] = calloc(nodes ? nodes : 1, sizeof(int64_t));
		if (!res->self_d[v] || !res->cum_d[v] || !res->self_i[v] || !res->cum_i[v])
			goto fail;
		if ((rc = metric(&b, res->vcol[v], res->self_d[v], res->cum_d[v], res->self_i[v],
				 res->cum_i[v], err)) != SQLITE_OK)
			goto fail;
		rc = SQLITE_NOMEM;
	}
	res->nag_nodes = nodes;
	for (int a = 0; a < c->nagg; a++) {
		res->ag[a] = calloc(nodes ? nodes : 1, sizeof(struct aggval));
		if (!res->ag[a] || aggregates(&b, res->agcol[a], c->agg[a].kind, res->ag[a]) != SQLITE_OK)
			goto fail;
	}
	/* pack: nodes with a nonzero cumulative value, downward then upward */
	packed_of = malloc((nodes ? nodes : 1) * sizeof(*packed_of));
	res->depth = malloc((nodes ? nodes : 1) * sizeof(*res->depth));
	res->rep = malloc((nodes ? nodes : 1) * sizeof(*res->rep));
	res->pparent = malloc((nodes ? nodes : 1) * sizeof(*res->pparent));
	if (!packed_of || !res->depth || !res->rep || !res->pparent)
		goto fail;
	for (uint32_t k = 0; k < nodes; k++) {
		int up = k >= b.down.n, keep = 0;
		uint32_t local = up ? k - b.down.n : k;
		uint32_t par = up ? b.up.parent[local] : b.down.parent[local];
		uint32_t pp;

		packed_of[k] = NONE;
		for (int v = 0; v < c->nvalues; v++)
			keep |= res->cum_d[v][k] != 0;
		if (!keep)
			continue;
		pp = par == NONE ? NONE : packed_of[up ? b.down.n + par : par];
		packed_of[k] = res->np;
		res->depth[res->np] = pp == NONE ? (up ? -1 : 1) : res->depth[pp] + (up ? -1 : 1);
		res->rep[res->np] = up ? b.up.rep[local] : b.down.rep[local];
		res->pparent[res->np] = pp;
		/* move the node's sums to its packed place (np <= k) */
		for (int v = 0; v < c->nvalues; v++) {
			res->self_d[v][res->np] = res->self_d[v][k];
			res->cum_d[v][res->np] = res->cum_d[v][k];
			res->self_i[v][res->np] = res->self_i[v][k];
			res->cum_i[v][res->np] = res->cum_i[v][k];
		}
		for (int a = 0; a < c->nagg; a++) {
			struct aggval tmp = res->ag[a][k];

			res->ag[a][k] = res->ag[a][res->np];
			res->ag[a][res->np] = tmp;
		}
		res->np++;
	}
	/* the aggregates left past np belong to dropped nodes */
	for (int a = 0; a < c->nagg; a++)
		for (uint32_t k = res->np; k < nodes; k++) {
			sqlite3_free(res->ag[a][k].s);
			res->ag[a][k].s = NULL;
		}
	if (layout(res) != SQLITE_OK)
		goto fail;
	res->gcol = b.gcol;
	res->ng = c->ngrouping;
	b.gcol = NULL;
	free(packed_of);
	builder_free(&b);
	return res;
fail:
	free(packed_of);
	builder_free(&b);
	result_free(res);
	if (!*err && rc == SQLITE_NOMEM)
		*err = sqlite3_mprintf("flamegraph: out of memory");
	return NULL;
}

/* ---- the module ----------------------------------------------------------------------- */

struct cursor {
	sqlite3_vtab_cursor base;
	struct result *res;
	uint32_t row;
	int super_root, done;
};

static int declare(sqlite3 *db, const struct table *t)
{
	sqlite3_str *s = sqlite3_str_new(db);
	char *sql;
	int rc;

	sqlite3_str_appendall(s, "CREATE TABLE x(in_config HIDDEN, _tree_id BIGINT, _tree_parent_id BIGINT,"
			      " depth BIGINT, name TEXT, self_value, cumulative_value, parent_cumulative_value,"
			      " x_start, x_end");
	for (int i = 4; i < t->ncols; i++)
		sqlite3_str_appendf(s, ", \"%w\"", t->cols[i]);
	for (int i = 4; i < t->ncols; i++)
		if (t->numeric[i])
			sqlite3_str_appendf(s, ", \"self_%w\", \"cumulative_%w\"", t->cols[i], t->cols[i]);
	sqlite3_str_appendall(s, ")");
	sql = sqlite3_str_finish(s);
	if (!sql)
		return SQLITE_NOMEM;
	rc = sqlite3_declare_vtab(db, sql);
	sqlite3_free(sql);
	return rc;
}

static int x_create(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
		    char **err)
{
	struct table *t;
	int rc;

	(void)aux;
	if (argc != 4) {
		*err = sqlite3_mprintf("flamegraph: wrong number of arguments");
		return SQLITE_ERROR;
	}
	t = sqlite3_malloc(sizeof(*t));
	if (!t)
		return SQLITE_NOMEM;
	memset(t, 0, sizeof(*t));
	t->db = db;
	if ((rc = load(t, argv[3], err)) != SQLITE_OK || (rc = declare(db, t)) != SQLITE_OK) {
		table_free(t);
		return rc;
	}
	*out = &t->base;
	return SQLITE_OK;
}

/* A separate xConnect keeps the module create-only (not eponymous). */
static int x_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
		     char **err)
{
	return x_create(db, aux, argc, argv, out, err);
}

static int x_disconnect(sqlite3_vtab *vt)
{
	table_free((struct table *)vt);
	return SQLITE_OK;
}

static int x_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	int have_config = 0;

	(void)vt;
	info->idxNum = 0;
	for (int i = 0; i < info->nConstraint; i++) {
		const struct sqlite3_index_constraint *k = &info->aConstraint[i];

		if (k->iColumn == C_CONFIG) {
			if (!k->usable || k->op != SQLITE_INDEX_CONSTRAINT_EQ)
				return SQLITE_CONSTRAINT;
			info->aConstraintUsage[i].argvIndex = 1;
			info->aConstraintUsage[i].omit = 1;
			have_config = 1;
		}
	}
	if (!have_config)
		return SQLITE_CONSTRAINT;
	for (int i = 0; i < info->nConstraint; i++) {
		const struct sqlite3_index_constraint *k = &info->aConstraint[i];

		if (k->usable && k->iColumn == C_TREE_ID && k->op == FIND_OP) {
			info->aConstraintUsage[i].argvIndex = 2;
			info->aConstraintUsage[i].omit = 1;
			info->idxNum = 1;
			break;
		}
	}
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

static int x_close(sqlite3_vtab_cursor *cur)
{
	struct cursor *c = (struct cursor *)cur;

	result_free(c->res);
	sqlite3_free(c);
	return SQLITE_OK;
}

static int set_error(struct table *t, char *msg)
{
	sqlite3_free(t->base.zErrMsg);
	t->base.zErrMsg = msg;
	return SQLITE_ERROR;
}

static int x_filter(sqlite3_vtab_cursor *cur, int plan, const char *idxstr, int argc, sqlite3_value **argv)
{
	struct cursor *c = (struct cursor *)cur;
	struct table *t = (struct table *)cur->pVtab;
	const struct config *cfg;
	char *err = NULL;

	(void)idxstr;
	result_free(c->res);
	c->res = NULL;
	c->row = 0;
	c->done = 0;
	c->super_root = plan == 1;
	if (argc < 1 || !(cfg = sqlite3_value_pointer(argv[0], CONFIG_PTR)))
		return set_error(t, sqlite3_mprintf("flamegraph: the argument must be __intrinsic_flamegraph_config(...)"));
	if (c->super_root) {
		const char *sel = argc > 1 ? (const char *)sqlite3_value_text(argv[1]) : NULL;

		if (!sel || strcmp(sel, "SUPER_ROOT") != 0)
			return set_error(t, sqlite3_mprintf("flamegraph: unknown find selector"));
	}
	if (cfg->nvalues == 0)
		return set_error(t, sqlite3_mprintf("flamegraph: at least one value column is required"));
	if (c->super_root || t->nrows == 0)
		return SQLITE_OK;
	c->res = build(t, cfg, &err);
	if (!c->res)
		return set_error(t, err);
	return SQLITE_OK;
}

static int x_next(sqlite3_vtab_cursor *cur)
{
	struct cursor *c = (struct cursor *)cur;

	if (c->super_root)
		c->done = 1;
	else
		c->row++;
	return SQLITE_OK;
}

static int x_eof(sqlite3_vtab_cursor *cur)
{
	const struct cursor *c = (const struct cursor *)cur;

	if (c->super_root)
		return c->done;
	return !c->res || c->row >= c->res->n;
}

static void result_value(sqlite3_context *ctx, const struct result *r, const struct table *t, int v,
			 uint32_t k, int cumulative)
{
	if (t->is_int[r->vcol[v]])
		sqlite3_result_int64(ctx, cumulative ? r->cum_i[v][k] : r->self_i[v][k]);
	else
		sqlite3_result_double(ctx, cumulative ? r->cum_d[v][k] : r->self_d[v][k]);
}

static int x_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	const struct cursor *c = (const struct cursor *)cur;
	const struct table *t = (const struct table *)cur->pVtab;
	const struct result *r = c->res;
	uint32_t k, row = c->row;
	int prim_int;

	if (c->super_root) {
		if (col == C_TREE_ID || col == C_DEPTH)
			sqlite3_result_int64(ctx, 0);
		else if (col == C_CUM)
			sqlite3_result_double(ctx, t->value_sum);
		return SQLITE_OK;
	}
	k = r->node[row];
	prim_int = t->is_int[r->vcol[0]];
	switch (col) {
	case C_CONFIG:
		return SQLITE_OK;
	case C_TREE_ID:
		sqlite3_result_int64(ctx, row);
		return SQLITE_OK;
	case C_TREE_PARENT:
		if (r->parent_row[row] != NONE)
			sqlite3_result_int64(ctx, r->parent_row[row]);
		return SQLITE_OK;
	case C_DEPTH:
		sqlite3_result_int64(ctx, r->depth[k]);
		return SQLITE_OK;
	case C_NAME:
		sqlite3_result_value(ctx, cell(t, r->rep[k], 2));
		return SQLITE_OK;
	case C_SELF:
	case C_CUM:
		result_value(ctx, r, t, 0, k, col == C_CUM);
		return SQLITE_OK;
	case C_PARENT_CUM:
		if (r->parent_row[row] != NONE)
			result_value(ctx, r, t, 0, r->node[r->parent_row[row]], 1);
		return SQLITE_OK;
	case C_X_START:
	case C_X_END: {
		double x = r->x[row];

		if (col == C_X_END && r->cum_d[0][k] > 0)
			x += r->cum_d[0][k];
		if (prim_int)
			sqlite3_result_int64(ctx, (int64_t)x);
		else
			sqlite3_result_double(ctx, x);
		return SQLITE_OK;
	}
	default:
		break;
	}
	if (col < C_PROPS + t->ncols - 4) {
		int src = col - C_PROPS + 4;

		for (int a = 0; a < r->nag; a++)
			if (r->agcol[a] == src) {
				const struct aggval *v = &r->ag[a][k];

				if (v->type == SQLITE_INTEGER)
					sqlite3_result_int64(ctx, v->i);
				else if (v->type == SQLITE_FLOAT)
					sqlite3_result_double(ctx, v->d);
				else if (v->type == SQLITE_TEXT)
					sqlite3_result_text(ctx, v->s, -1, SQLITE_TRANSIENT);
				return SQLITE_OK;
			}
		for (int g = 0; g < r->ng; g++)
			if (r->gcol[g] == src) {
				sqlite3_result_value(ctx, cell(t, r->rep[k], src));
				break;
			}
		return SQLITE_OK;
	}
	{
		int idx = col - C_PROPS - (t->ncols - 4), seen = 0;

		for (int i = 4; i < t->ncols; i++) {
			if (!t->numeric[i])
				continue;
			if (seen == idx / 2) {
				for (int v = 0; v < r->nv; v++)
					if (r->vcol[v] == i)
						result_value(ctx, r, t, v, k, idx % 2);
				return SQLITE_OK;
			}
			seen++;
		}
	}
	return SQLITE_OK;
}

static int x_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
	*rowid = ((const struct cursor *)cur)->row;
	return SQLITE_OK;
}

static int x_find_function(sqlite3_vtab *vt, int nargs, const char *name,
			   void (**fn)(sqlite3_context *, int, sqlite3_value **), void **arg)
{
	(void)vt;
	(void)nargs;
	(void)arg;
	if (sqlite3_stricmp(name, "__intrinsic_flamegraph_find") == 0) {
		*fn = fn_find;
		return FIND_OP;
	}
	return 0;
}

static const sqlite3_module module = {
	.iVersion = 1,
	.xCreate = x_create,
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
	.xFindFunction = x_find_function,
};

int tt_sql_register_flamegraph(sqlite3 *db)
{
	int rc = sqlite3_create_module(db, "__intrinsic_flamegraph", &module, NULL);

	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "__intrinsic_flamegraph_config", -1, SQLITE_UTF8, NULL,
					     fn_config, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "__intrinsic_flamegraph_find", 2, SQLITE_UTF8, NULL,
					     fn_find, NULL, NULL);
	return rc;
}
