/*
 * vtab_describe_slice.c - the eponymous virtual tables `describe_slice` and
 * `describe_track`: the description, documentation link, answering rule
 * (file:line) and its kind for one slice or track, from the rules of
 * describe.c. One module serves both; the table's target is its aux data.
 * Shaped like SQLite's ext/misc/series.c.
 *
 *   select description, doc_link from describe_slice where slice_id = 5;
 *   select description from describe_slice(5);             -- same thing
 *   select s.ts, s.dur, d.description
 *     from slice s join describe_slice d on d.slice_id = s.id
 *    where s.name = 'measure';
 *
 *   select description, kind from describe_track where track_id = 3;
 *
 * A slice with no matching rule (or an unknown id) gives no row. The
 * hidden column slice_id (track_id) is a required input: a query without
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

static const char *const schema[2] = {
	"CREATE TABLE x(description TEXT, doc_link TEXT, rule TEXT, kind TEXT, "
	"slice_id INTEGER HIDDEN)",
	"CREATE TABLE x(description TEXT, doc_link TEXT, rule TEXT, kind TEXT, "
	"track_id INTEGER HIDDEN)",
};
enum { COL_DESCRIPTION, COL_DOC_LINK, COL_RULE, COL_KIND, COL_SLICE_ID };

enum { PLAN_SLICE_ID = 1 };

struct aux {
	tt_storage *st;
	tt_describe_rules *rules;
	int target; /* TT_DESCRIBE_SLICE or TT_DESCRIBE_TRACK */
};

struct table {
	sqlite3_vtab base;
	struct aux *aux;
};

struct cursor {
	sqlite3_vtab_cursor base;
	int64_t slice_id; /* or track id */
	struct tt_describe_hit hit; /* the one row, when eof is 0 */
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
	rc = sqlite3_declare_vtab(db, schema[((struct aux *)paux)->target]);
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
	free(c->hit.desc);
	free(c->hit.link);
	memset(&c->hit, 0, sizeof(c->hit));
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
	if (!(idx & PLAN_SLICE_ID)) {
		sqlite3_vtab *vt = cur->pVtab;

		sqlite3_free(vt->zErrMsg);
		if (t->aux->target == TT_DESCRIBE_SLICE)
			vt->zErrMsg = sqlite3_mprintf("describe_slice: needs slice_id = ... "
						      "(e.g. where slice_id = 5, or a join on slice.id)");
		else
			vt->zErrMsg = sqlite3_mprintf("describe_track: needs track_id = ... "
						      "(e.g. where track_id = 3, or a join on track.id)");
		return SQLITE_ERROR;
	}
	if (argc < 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL)
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
	if (tt_describe_rules_ready(t->aux->rules) != 0)
		return SQLITE_NOMEM;
	rc = tt_describe_match(t->aux->rules, t->aux->st, t->aux->target, c->slice_id, &c->hit);
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
		sqlite3_result_text(ctx, c->hit.desc, -1, SQLITE_TRANSIENT);
		break;
	case COL_DOC_LINK:
		if (c->hit.link)
			sqlite3_result_text(ctx, c->hit.link, -1, SQLITE_TRANSIENT);
		else
			sqlite3_result_null(ctx);
		break;
	case COL_RULE:
		sqlite3_result_text(ctx, c->hit.where, -1, SQLITE_TRANSIENT);
		break;
	case COL_KIND:
		sqlite3_result_text(ctx, tt_describe_kind_name(c->hit.kind), -1, SQLITE_STATIC);
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

	(void)vt;
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
	/* No slice_id at all: a plan SQLite only takes when there is no other
	 * (a scan would describe nothing); x_filter then reports the error.
	 * Failing here instead would also fail queries where SQLite merely
	 * tries this plan among others (an OR on a left join's columns). */
	info->idxNum = 0;
	info->estimatedCost = 1e18;
	info->estimatedRows = 1;
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

static void aux_free(void *p)
{
	struct aux *aux = p;

	tt_describe_rules_unref(aux->rules);
	sqlite3_free(aux);
}

static int reg(sqlite3 *db, tt_storage *st, tt_describe_rules *rules, int target)
{
	struct aux *aux = sqlite3_malloc(sizeof(*aux));

	if (!aux)
		return SQLITE_NOMEM;
	aux->st = st;
	aux->rules = rules;
	aux->target = target;
	tt_describe_rules_ref(rules);
	/* On failure SQLite calls aux_free itself. */
	return sqlite3_create_module_v2(db, target == TT_DESCRIBE_SLICE ? "describe_slice"
							       : "describe_track",
					&module, aux, aux_free);
}

int tt_vtab_describe_slice_register(sqlite3 *db, tt_storage *st, tt_describe_rules *rules)
{
	return reg(db, st, rules, TT_DESCRIBE_SLICE);
}

int tt_vtab_describe_track_register(sqlite3 *db, tt_storage *st, tt_describe_rules *rules)
{
	return reg(db, st, rules, TT_DESCRIBE_TRACK);
}
