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
#include "regex_guard.h"
#include "flamegraph_int.h"

#include <stdio.h>
#include <stdlib.h>

#define FIND_OP (SQLITE_INDEX_CONSTRAINT_FUNCTION + 1)
#define CONFIG_PTR "tt_flamegraph_config"

enum { C_CONFIG, C_TREE_ID, C_TREE_PARENT, C_DEPTH, C_NAME, C_SELF, C_CUM, C_PARENT_CUM,
       C_X_START, C_X_END, C_PROPS };

/* ---- config --------------------------------------------------------------------- */

static void config_free(void *p)
{
	struct fg_config *c = p;

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

static int compile(struct fg_pat *p, sqlite3_value *pattern, sqlite3_value *flags, char **err)
{
	const char *pt = (const char *)sqlite3_value_text(pattern);
	const char *fl = (const char *)sqlite3_value_text(flags);
	char why[128];

	if (!pt || !fl) {
		*err = sqlite3_mprintf("flamegraph_config: pattern and flags must be text");
		return -1;
	}
	if (*fl && strcmp(fl, "i") != 0) {
		*err = sqlite3_mprintf("flamegraph_config: unknown regex flags '%s'", fl);
		return -1;
	}
	if (tt_regex_compile(&p->re, pt, REG_EXTENDED | REG_NOSUB | (*fl ? REG_ICASE : 0), 1, why, sizeof(why)) != 0) {
		*err = sqlite3_mprintf("flamegraph_config: bad pattern '%s': %s", pt, why);
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
	struct fg_config *c = sqlite3_malloc(sizeof(*c));
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
			struct fg_pat *p = k == 0 ? (c->nshow < MAX_SHOW ? &c->show[c->nshow++] : NULL)
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

static void table_free(struct fg_table *t)
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
static int load(struct fg_table *t, const char *src, char **err)
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
/* ---- the module ----------------------------------------------------------------------- */

struct cursor {
	sqlite3_vtab_cursor base;
	struct fg_result *res;
	uint32_t row;
	int super_root, done;
};

static int declare(sqlite3 *db, const struct fg_table *t)
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
	struct fg_table *t;
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
	table_free((struct fg_table *)vt);
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

	tt_flamegraph_result_free(c->res);
	sqlite3_free(c);
	return SQLITE_OK;
}

static int set_error(struct fg_table *t, char *msg)
{
	sqlite3_free(t->base.zErrMsg);
	t->base.zErrMsg = msg;
	return SQLITE_ERROR;
}

static int x_filter(sqlite3_vtab_cursor *cur, int plan, const char *idxstr, int argc, sqlite3_value **argv)
{
	struct cursor *c = (struct cursor *)cur;
	struct fg_table *t = (struct fg_table *)cur->pVtab;
	const struct fg_config *cfg;
	char *err = NULL;

	(void)idxstr;
	tt_flamegraph_result_free(c->res);
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
	c->res = tt_flamegraph_build(t, cfg, &err);
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

static void result_value(sqlite3_context *ctx, const struct fg_result *r, const struct fg_table *t, int v,
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
	const struct fg_table *t = (const struct fg_table *)cur->pVtab;
	const struct fg_result *r = c->res;
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
				const struct fg_aggval *v = &r->ag[a][k];

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
