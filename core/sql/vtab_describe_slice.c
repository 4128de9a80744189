/*
 * vtab_describe_slice.c - the eponymous virtual table `describe_slice`: the
 * description and documentation link of one slice, from the rules of
 * describe.c. Shaped like SQLite's ext/misc/series.c.
 *
 *   select description, doc_link from describe_slice where slice_id = 5;
 *   select description from describe_slice(5);             -- same thing
 *   select s.ts, s.dur, d.description
 *     from slice s join describe_slice d on d.slice_id = s.id
 *    where s.name = 'measure';
 *
 * A slice with no matching rule (or an unknown id) gives no row. The
 * hidden column slice_id is a required input: a query without
 * `slice_id = ...` fails with "describe_slice: needs slice_id = ..." rather
 * than silently returning nothing.
 *
 * idxNum plan:
 *   PLAN_SLICE_ID (1)  slice_id = ? is argv[0]; one lookup, at most one row
 * A plan where the slice_id constraint exists but is not usable (the other
 * side of a join not yet known) is refused with SQLITE_CONSTRAINT, so
 * SQLite puts describe_slice inside the loop and never scans per row.
 */
#include "describe.h"
#include "storage_int.h"

#include <stdlib.h>
#include <string.h>

static const char schema[] =
	"CREATE TABLE x(description TEXT, doc_link TEXT, slice_id INTEGER HIDDEN)";
enum { COL_DESCRIPTION, COL_DOC_LINK, COL_SLICE_ID };

enum { PLAN_SLICE_ID = 1 };

struct aux {
	tt_storage *st;
	tt_describe_rules *rules;
};

struct table {
	sqlite3_vtab base;
	struct aux *aux;
};

struct cursor {
	sqlite3_vtab_cursor base;
	int64_t slice_id;
	char *desc, *link; /* the one row, when eof is 0 */
	int eof;
};

static int x_connect(sqlite3 *db, void *paux, int argc, const char *const *argv,
		     sqlite3_vtab **out, char **errp)
{
	struct table *t;
	int rc;

	(void)argc;
	(void)argv;
	(void)errp;
	rc = sqlite3_declare_vtab(db, schema);
	if (rc != SQLITE_OK)
		return rc;
	t = sqlite3_malloc(sizeof(*t));
	if (!t)
		return SQLITE_NOMEM;
	memset(t, 0, sizeof(*t));
	t->aux = paux;
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

	(void)vt;
	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof(*c));
	c->eof = 1;
	*out = &c->base;
	return SQLITE_OK;
}

static void clear_row(struct cursor *c)
{
	free(c->desc);
	free(c->link);
	c->desc = c->link = NULL;
}

static int x_close(sqlite3_vtab_cursor *cur)
{
	clear_row((struct cursor *)cur);
	sqlite3_free(cur);
	return SQLITE_OK;
}

static int x_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxstr, int argc,
		    sqlite3_value **argv)
{
	struct cursor *c = (struct cursor *)cur;
	struct table *t = (struct table *)cur->pVtab;
	int rc;

	(void)idxstr;
	clear_row(c);
	c->eof = 1;
	if (!(idx & PLAN_SLICE_ID) || argc < 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL)
		return SQLITE_OK;
	/* '5' and 5.0 name slice 5, as they would for slice.id; 5.5 and
	 * 'abc' name no slice */
	switch (sqlite3_value_numeric_type(argv[0])) {
	case SQLITE_INTEGER:
		c->slice_id = sqlite3_value_int64(argv[0]);
		break;
	case SQLITE_FLOAT: {
		double d = sqlite3_value_double(argv[0]);

		if (!(d >= 0 && d < 9e18) || d != (double)(int64_t)d)
			return SQLITE_OK;
		c->slice_id = (int64_t)d;
		break;
	}
	default:
		return SQLITE_OK;
	}
	rc = tt_describe_match(t->aux->rules, t->aux->st, c->slice_id, &c->desc, &c->link, NULL);
	if (rc < 0)
		return SQLITE_NOMEM;
	c->eof = rc == 0;
	return SQLITE_OK;
}

static int x_next(sqlite3_vtab_cursor *cur)
{
	((struct cursor *)cur)->eof = 1;
	return SQLITE_OK;
}

static int x_eof(sqlite3_vtab_cursor *cur)
{
	return ((struct cursor *)cur)->eof;
}

static int x_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	struct cursor *c = (struct cursor *)cur;

	switch (col) {
	case COL_DESCRIPTION:
		sqlite3_result_text(ctx, c->desc, -1, SQLITE_TRANSIENT);
		break;
	case COL_DOC_LINK:
		if (c->link)
			sqlite3_result_text(ctx, c->link, -1, SQLITE_TRANSIENT);
		else
			sqlite3_result_null(ctx);
		break;
	case COL_SLICE_ID:
		sqlite3_result_int64(ctx, c->slice_id);
		break;
	}
	return SQLITE_OK;
}

static int x_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
	*rowid = ((struct cursor *)cur)->slice_id;
	return SQLITE_OK;
}

static int x_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	int usable = -1, seen = 0;

	for (int i = 0; i < info->nConstraint; i++) {
		const struct sqlite3_index_constraint *k = &info->aConstraint[i];

		if (k->iColumn != COL_SLICE_ID || k->op != SQLITE_INDEX_CONSTRAINT_EQ)
			continue;
		seen = 1;
		if (k->usable) {
			usable = i;
			break;
		}
	}
	if (usable >= 0) {
		info->aConstraintUsage[usable].argvIndex = 1;
		info->aConstraintUsage[usable].omit = 1;
		info->idxNum = PLAN_SLICE_ID;
		info->estimatedCost = 1;
		info->estimatedRows = 1;
		info->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;
		return SQLITE_OK;
	}
	if (seen)
		return SQLITE_CONSTRAINT; /* ask SQLite for a plan where it is usable */
	sqlite3_free(vt->zErrMsg);
	vt->zErrMsg = sqlite3_mprintf("describe_slice: needs slice_id = ... "
				      "(e.g. where slice_id = 5, or a join on slice.id)");
	return SQLITE_ERROR;
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

static void aux_free(void *p)
{
	struct aux *aux = p;

	tt_describe_rules_unref(aux->rules);
	sqlite3_free(aux);
}

int tt_vtab_describe_slice_register(sqlite3 *db, tt_storage *st, tt_describe_rules *rules)
{
	struct aux *aux = sqlite3_malloc(sizeof(*aux));

	if (!aux)
		return SQLITE_NOMEM;
	aux->st = st;
	aux->rules = rules;
	tt_describe_rules_ref(rules);
	/* On failure SQLite calls aux_free itself. */
	return sqlite3_create_module_v2(db, "describe_slice", &module, aux, aux_free);
}
