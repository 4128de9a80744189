/*
 * vtab.c - the columnar virtual-table engine (see vtab.h for the plans).
 * Shaped like SQLite's ext/misc/series.c: base structs first, a cursor that
 * walks candidate rows, xBestIndex encoding its plan in idxNum.
 */
#include "vtab.h"

#include <stdlib.h>
#include <string.h>

struct aux {
	const tt_vtab_def *def;
	tt_storage *st;
};

struct table {
	sqlite3_vtab base;
	const tt_vtab_def *def;
	tt_storage *st;
};

struct cursor {
	sqlite3_vtab_cursor base;
	const struct table *tab;
	/* candidates: rows[k] for k in [i, end) when rows != NULL, else
	 * the row ids [i, end) themselves */
	const uint32_t *rows;
	size_t i, end;
	size_t row;     /* current row id */
	int eof;
	tt_str name;    /* 0 = no name filter */
	int has_lo, has_hi;
	int64_t lo, hi; /* inclusive ts bounds, checked in track mode */
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
	sqlite3_free(vt);
	return SQLITE_OK;
}

static int x_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	struct cursor *c = sqlite3_malloc(sizeof(*c));

	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof(*c));
	c->tab = (struct table *)vt;
	*out = &c->base;
	return SQLITE_OK;
}

static int x_close(sqlite3_vtab_cursor *cur)
{
	sqlite3_free(cur);
	return SQLITE_OK;
}

static int row_ok(const struct cursor *c, size_t row)
{
	const tt_vtab_def *d = c->tab->def;
	const tt_storage *st = c->tab->st;

	if (c->name && d->names(st)[row] != c->name)
		return 0;
	if (d->hidden && d->hidden(st, row))
		return 0;
	if (c->rows && (c->has_lo || c->has_hi)) {
		int64_t ts = d->ts(st)[row];

		if ((c->has_lo && ts < c->lo) || (c->has_hi && ts > c->hi))
			return 0;
	}
	return 1;
}

static void advance(struct cursor *c)
{
	while (c->i < c->end) {
		size_t row = c->rows ? (size_t)c->rows[c->i] : c->i;

		c->i++;
		if (row_ok(c, row)) {
			c->row = row;
			return;
		}
	}
	c->eof = 1;
}

static int x_next(sqlite3_vtab_cursor *cur)
{
	advance((struct cursor *)cur);
	return SQLITE_OK;
}

/* First index in [0, n) whose ts >= v (ts sorted). */
static size_t lower_bound(const int64_t *ts, size_t n, int64_t v)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ts[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int x_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxstr, int argc,
		    sqlite3_value **argv)
{
	struct cursor *c = (struct cursor *)cur;
	const tt_vtab_def *d = c->tab->def;
	const tt_storage *st = c->tab->st;
	size_t n = d->nrows(st);
	int a = 0;

	(void)idxstr;
	(void)argc;
	c->rows = NULL;
	c->i = 0;
	c->end = n;
	c->eof = 0;
	c->name = 0;
	c->has_lo = c->has_hi = 0;

	if (idx & TT_PLAN_ID) {
		sqlite3_int64 id = sqlite3_value_int64(argv[a++]);

		if (sqlite3_value_type(argv[a - 1]) == SQLITE_NULL || id < 0 || (size_t)id >= n) {
			c->end = 0;
		} else {
			c->i = (size_t)id;
			c->end = (size_t)id + 1;
		}
	}
	if (idx & TT_PLAN_TRACK) {
		sqlite3_int64 t = sqlite3_value_int64(argv[a++]);

		if (sqlite3_value_type(argv[a - 1]) == SQLITE_NULL || t < 0 ||
		    (size_t)t >= st->track.n || !st->track.row_off ||
		    st->track.is_counter[t] != d->track_is_counter) {
			c->end = 0;
		} else if (!(idx & TT_PLAN_ID)) {
			c->rows = st->track.rows;
			c->i = st->track.row_off[t];
			c->end = st->track.row_off[t + 1];
			/* Rows appended after finalize are not indexed:
			 * fall back to a scan then. */
			if (c->end - c->i > n) {
				c->rows = NULL;
				c->i = 0;
				c->end = n;
			}
		}
	}
	if (idx & (TT_PLAN_TS_LO | TT_PLAN_TS_HI | TT_PLAN_TS_EQ)) {
		if (idx & TT_PLAN_TS_EQ) {
			c->has_lo = c->has_hi = 1;
			c->lo = c->hi = sqlite3_value_int64(argv[a++]);
		}
		if (idx & TT_PLAN_TS_LO) {
			c->has_lo = 1;
			c->lo = sqlite3_value_int64(argv[a]);
			if (sqlite3_value_numeric_type(argv[a]) == SQLITE_FLOAT) {
				double v = sqlite3_value_double(argv[a]);

				c->lo = v > (double)c->lo ? c->lo + 1 : c->lo;
			}
			a++;
		}
		if (idx & TT_PLAN_TS_HI)
			c->has_hi = 1, c->hi = sqlite3_value_int64(argv[a++]);
		if (!c->rows && !(idx & TT_PLAN_ID) && d->ts_sorted(st)) {
			const int64_t *ts = d->ts(st);

			if (c->has_lo)
				c->i = lower_bound(ts, n, c->lo);
			if (c->has_hi)
				c->end = c->hi == INT64_MAX ? n : lower_bound(ts, n, c->hi + 1);
			if (c->end < c->i)
				c->end = c->i;
			c->has_lo = c->has_hi = 0;
		}
	}
	if (idx & TT_PLAN_NAME) {
		sqlite3_value *v = argv[a++];
		const unsigned char *s = sqlite3_value_text(v);

		c->name = s ? tt_strpool_find(st->strs, (const char *)s, (size_t)sqlite3_value_bytes(v)) : 0;
		if (!c->name)
			c->end = 0; /* no slice can have a name never interned */
	}
	if (idx & TT_PLAN_ARGSET) {
		sqlite3_int64 set = sqlite3_value_int64(argv[a++]);
		size_t first, end;

		if (set < 0 || set > UINT32_MAX ||
		    !tt_storage_argset_rows(st, (uint32_t)set, &first, &end)) {
			c->end = 0;
		} else {
			c->i = first;
			c->end = end;
		}
	} else if (d->load && !c->rows && c->i < c->end && d->load(st, c->i, c->end)) {
		return SQLITE_NOMEM;
	}
	advance(c);
	return SQLITE_OK;
}

static int x_eof(sqlite3_vtab_cursor *cur)
{
	return ((struct cursor *)cur)->eof;
}

static int x_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	struct cursor *c = (struct cursor *)cur;

	c->tab->def->column(c->tab->st, c->row, col, ctx);
	return SQLITE_OK;
}

static int x_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
	*rowid = (sqlite3_int64)((struct cursor *)cur)->row;
	return SQLITE_OK;
}

static int x_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	const struct table *t = (const struct table *)vt;
	const tt_vtab_def *d = t->def;
	const tt_storage *st = t->st;
	double n = (double)d->nrows(st) + 1;
	int ci_id = -1, ci_track = -1, ci_lo = -1, ci_hi = -1, ci_name = -1, ci_set = -1;
	int plan = 0, argv = 0;
	double cost = n;

	for (int i = 0; i < info->nConstraint; i++) {
		const struct sqlite3_index_constraint *k = &info->aConstraint[i];

		if (!k->usable)
			continue;
		if (k->op == SQLITE_INDEX_CONSTRAINT_EQ) {
			if ((k->iColumn == d->id_col && d->id_col >= 0) ||
			    (k->iColumn == d->id_alias_col && d->id_alias_col >= 0))
				ci_id = i;
			else if (k->iColumn == d->track_col && d->track_col >= 0)
				ci_track = i;
			else if (k->iColumn == d->name_col && d->name_col >= 0)
				ci_name = i;
			else if (k->iColumn == d->argset_col && d->argset_col >= 0)
				ci_set = i;
			else if (k->iColumn == d->ts_col && d->ts_col >= 0)
				ci_lo = ci_hi = i;
		} else if (k->iColumn == d->ts_col && d->ts_col >= 0) {
			if (k->op == SQLITE_INDEX_CONSTRAINT_GT || k->op == SQLITE_INDEX_CONSTRAINT_GE)
				ci_lo = i;
			else if (k->op == SQLITE_INDEX_CONSTRAINT_LT || k->op == SQLITE_INDEX_CONSTRAINT_LE)
				ci_hi = i;
		}
	}
	/* Strict bounds are widened to inclusive ones; SQLite re-checks. */
	if (ci_id >= 0) {
		plan |= TT_PLAN_ID;
		info->aConstraintUsage[ci_id].argvIndex = ++argv;
		cost = 1;
	}
	if (ci_track >= 0) {
		plan |= TT_PLAN_TRACK;
		info->aConstraintUsage[ci_track].argvIndex = ++argv;
		if (cost > 1)
			cost = n / (st->track.n ? (double)st->track.n : 1) + 1;
	}
	if (ci_lo >= 0) {
		plan |= TT_PLAN_TS_LO;
		info->aConstraintUsage[ci_lo].argvIndex = ++argv;
	}
	if (ci_hi >= 0) {
		plan |= TT_PLAN_TS_HI;
		if (ci_hi != ci_lo)
			info->aConstraintUsage[ci_hi].argvIndex = ++argv;
	}
	if ((plan & (TT_PLAN_TS_LO | TT_PLAN_TS_HI)) && !(plan & (TT_PLAN_ID | TT_PLAN_TRACK))) {
		/* set below for ts = ? as well */
		if (d->ts_sorted(st))
			cost = (plan & TT_PLAN_TS_LO) && (plan & TT_PLAN_TS_HI) ? n / 16 + 10 : n / 3 + 10;
	}
	if (ci_name >= 0) {
		plan |= TT_PLAN_NAME;
		info->aConstraintUsage[ci_name].argvIndex = ++argv;
		cost = cost * 0.5 + 1;
	}
	if (ci_set >= 0) {
		plan |= TT_PLAN_ARGSET;
		info->aConstraintUsage[ci_set].argvIndex = ++argv;
		if (cost > 10)
			cost = 10;
	}
	/* ts = ?: one argument gives both bounds. */
	if (ci_lo >= 0 && ci_lo == ci_hi)
		plan = (plan & ~(TT_PLAN_TS_LO | TT_PLAN_TS_HI)) | TT_PLAN_TS_EQ;
	info->idxNum = plan;
	info->estimatedCost = cost;
	info->estimatedRows = (sqlite3_int64)(cost < 1 ? 1 : cost);
	if (plan & TT_PLAN_ID)
		info->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;
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

int tt_vtab_register(sqlite3 *db, tt_storage *st, const tt_vtab_def *def)
{
	struct aux *aux = sqlite3_malloc(sizeof(*aux));

	if (!aux)
		return SQLITE_NOMEM;
	aux->def = def;
	aux->st = st;
	return sqlite3_create_module_v2(db, def->name, &module, aux, sqlite3_free);
}
