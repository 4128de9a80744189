/*
 * vtab_func.c - the engine of the one-argument table functions (see
 * vtab_func.h). Shaped like SQLite's ext/misc/series.c: the argument is a
 * hidden column, xBestIndex requires an equality on it (idxNum
 * TT_FUNC_PLAN_ARG), xFilter computes the whole row list, xNext walks it.
 */
#include "vtab_func.h"

#include <stdlib.h>
#include <string.h>

static int grow(tt_rowlist *l, int with_aux)
{
	size_t cap = l->cap ? l->cap * 2 : 16;
	uint32_t *v;

	if (l->n < l->cap && (!with_aux || l->aux))
		return 0;
	if (l->n == l->cap) {
		v = sqlite3_realloc64(l->v, cap * sizeof(*v));
		if (!v)
			return -1;
		l->v = v;
	} else {
		cap = l->cap;
	}
	if (with_aux || l->aux) {
		int64_t *a = sqlite3_realloc64(l->aux, cap * sizeof(*a));

		if (!a)
			return -1;
		if (!l->aux)
			memset(a, 0, l->n * sizeof(*a));
		l->aux = a;
	}
	l->cap = cap;
	return 0;
}

int tt_rowlist_push(tt_rowlist *l, uint32_t row)
{
	if (grow(l, 0))
		return -1;
	if (l->aux)
		l->aux[l->n] = 0;
	l->v[l->n++] = row;
	return 0;
}

int tt_rowlist_push_aux(tt_rowlist *l, uint32_t row, int64_t aux)
{
	if (grow(l, 1))
		return -1;
	l->aux[l->n] = aux;
	l->v[l->n++] = row;
	return 0;
}

struct aux {
	const tt_func_def *def;
	tt_storage *st;
};

struct table {
	sqlite3_vtab base;
	const tt_func_def *def;
	tt_storage *st;
	void *cache; /* the function's state between calls */
};

struct cursor {
	sqlite3_vtab_cursor base;
	tt_rowlist rows;
	size_t i;
	sqlite3_value *arg; /* the input, reported by the hidden column */
};

static int x_connect(sqlite3 *db, void *paux, int argc, const char *const *argv,
		     sqlite3_vtab **out, char **errp)
{
	struct aux *aux = paux;
	struct table *t;
	int rc;

	(void)argc;
	(void)argv;
	(void)errp;
	rc = sqlite3_declare_vtab(db, aux->def->schema);
	if (rc != SQLITE_OK)
		return rc;
	t = sqlite3_malloc(sizeof(*t));
	if (!t)
		return SQLITE_NOMEM;
	memset(t, 0, sizeof(*t));
	t->def = aux->def;
	t->st = aux->st;
	*out = &t->base;
	return SQLITE_OK;
}

static int x_disconnect(sqlite3_vtab *vt)
{
	struct table *t = (struct table *)vt;

	if (t->cache && t->def->free_cache)
		t->def->free_cache(t->cache);
	sqlite3_free(vt);
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

	sqlite3_free(c->rows.v);
	sqlite3_free(c->rows.aux);
	sqlite3_value_free(c->arg);
	sqlite3_free(c);
	return SQLITE_OK;
}

static int x_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxstr, int argc,
		    sqlite3_value **argv)
{
	struct cursor *c = (struct cursor *)cur;
	struct table *t = (struct table *)cur->pVtab;
	char *msg = NULL;
	int rc;

	(void)idxstr;
	c->rows.n = 0;
	c->i = 0;
	sqlite3_value_free(c->arg);
	c->arg = NULL;
	if (!(idx & TT_FUNC_PLAN_ARG) || argc < 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL)
		return SQLITE_OK;
	if (!(c->arg = sqlite3_value_dup(argv[0])))
		return SQLITE_NOMEM;
	rc = t->def->fill(t->st, &t->cache, argv[0], &c->rows, &msg);
	if (rc != SQLITE_OK) {
		sqlite3_free(t->base.zErrMsg);
		t->base.zErrMsg = msg ? msg : sqlite3_mprintf("%s: out of memory", t->def->name);
		c->rows.n = 0;
	}
	return rc;
}

static int x_next(sqlite3_vtab_cursor *cur)
{
	((struct cursor *)cur)->i++;
	return SQLITE_OK;
}

static int x_eof(sqlite3_vtab_cursor *cur)
{
	const struct cursor *c = (const struct cursor *)cur;

	return c->i >= c->rows.n;
}

static int x_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	struct cursor *c = (struct cursor *)cur;
	struct table *t = (struct table *)cur->pVtab;

	if (col >= t->def->ncols) {
		if (c->arg)
			sqlite3_result_value(ctx, c->arg);
		return SQLITE_OK;
	}
	t->def->column(t->st, c->rows.v[c->i], c->rows.aux ? c->rows.aux[c->i] : 0, col, ctx);
	return SQLITE_OK;
}

static int x_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
	*rowid = (sqlite3_int64)((struct cursor *)cur)->i;
	return SQLITE_OK;
}

static int x_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	const struct table *t = (const struct table *)vt;
	int seen = 0;

	for (int i = 0; i < info->nConstraint; i++) {
		const struct sqlite3_index_constraint *k = &info->aConstraint[i];

		if (k->iColumn != t->def->ncols)
			continue;
		seen = 1;
		if (k->usable && k->op == SQLITE_INDEX_CONSTRAINT_EQ) {
			info->aConstraintUsage[i].argvIndex = 1;
			info->aConstraintUsage[i].omit = 1;
			info->idxNum = TT_FUNC_PLAN_ARG;
			info->estimatedCost = 10;
			info->estimatedRows = 10;
			return SQLITE_OK;
		}
	}
	/* The input exists but is not usable yet (a join still to bind it):
	 * tell SQLite this plan is impossible so that it picks an order that
	 * binds it first. With no input at all, the function is empty. */
	if (seen)
		return SQLITE_CONSTRAINT;
	info->idxNum = 0;
	info->estimatedCost = 1e12;
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

int tt_func_register(sqlite3 *db, tt_storage *st, const tt_func_def *def)
{
	struct aux *aux = sqlite3_malloc(sizeof(*aux));

	if (!aux)
		return SQLITE_NOMEM;
	aux->def = def;
	aux->st = st;
	return sqlite3_create_module_v2(db, def->name, &module, aux, sqlite3_free);
}
