/*
 * vtab_describe_rules.c - the eponymous virtual table `describe_rules`: one
 * row per loaded description rule, with what `termtrace describe --lint`
 * needs to judge it against this trace:
 *
 *   rule         "path:line" of the rule
 *   target       'slice' or 'track'
 *   kind         name, glob, regex, context or fallback
 *   matcher      its first name, its glob or regex ('' for none)
 *   doc_link     the link template (NULL when none)
 *   desc_len     bytes of the description template
 *   shadowed_by  a rule ranking above it that matches all it matches
 *   matched      slices/tracks of this trace its matcher and conditions fit
 *   won          slices/tracks it describes (it was the best match)
 *   tied         matches lost only to a later rule of the same rank
 *
 * matched and won need every rule tried on every slice: the scan runs
 * once per query of this table (seconds on a large trace), only when one
 * of those columns is read. With the hidden input `slice_id = N` (or
 * `track_id = N`) the counts are those of that one slice (track): which
 * rules match it and which one wins, as `describe --explain` shows.
 *
 * idxNum: 0 whole trace, 1 slice_id = argv[0], 2 track_id = argv[0].
 */
#include "describe_int.h"

#include <stdlib.h>
#include <string.h>

static const char schema[] =
	"CREATE TABLE x(rule TEXT, target TEXT, kind TEXT, matcher TEXT, doc_link TEXT, "
	"desc_len INTEGER, shadowed_by TEXT, matched INTEGER, won INTEGER, tied INTEGER, "
	"slice_id INTEGER HIDDEN, track_id INTEGER HIDDEN)";
enum { COL_RULE, COL_TARGET, COL_KIND, COL_MATCHER, COL_LINK, COL_LEN, COL_SHADOW,
       COL_MATCHED, COL_WON, COL_TIED, COL_SLICE_ID, COL_TRACK_ID };

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
	size_t i, n;
	uint64_t *matched, *won, *tied; /* NULL until a count is read */
	int target;     /* -1 whole trace, else TT_DESCRIBE_SLICE/TRACK */
	int64_t id;     /* the one slice or track */
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
	*out = &c->base;
	return SQLITE_OK;
}

static void clear_counts(struct cursor *c)
{
	free(c->matched);
	free(c->won);
	free(c->tied);
	c->matched = c->won = c->tied = NULL;
}

static int x_close(sqlite3_vtab_cursor *cur)
{
	clear_counts((struct cursor *)cur);
	sqlite3_free(cur);
	return SQLITE_OK;
}

static int x_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxstr, int argc,
		    sqlite3_value **argv)
{
	struct cursor *c = (struct cursor *)cur;
	struct table *t = (struct table *)cur->pVtab;

	(void)idxstr;
	clear_counts(c);
	c->i = 0;
	if (tt_describe_rules_ready(t->aux->rules) != 0)
		return SQLITE_NOMEM;
	c->n = tt_describe_rules_count(t->aux->rules);
	c->target = -1;
	c->id = 0;
	if (idx && argc >= 1) {
		c->target = idx == 1 ? TT_DESCRIBE_SLICE : TT_DESCRIBE_TRACK;
		if (sqlite3_value_numeric_type(argv[0]) != SQLITE_INTEGER)
			c->n = 0; /* names no slice: no rows */
		else
			c->id = sqlite3_value_int64(argv[0]);
	}
	return SQLITE_OK;
}

static int x_next(sqlite3_vtab_cursor *cur)
{
	((struct cursor *)cur)->i++;
	return SQLITE_OK;
}

static int x_eof(sqlite3_vtab_cursor *cur)
{
	struct cursor *c = (struct cursor *)cur;

	return c->i >= c->n;
}

static int counts(struct cursor *c, struct aux *aux)
{
	if (c->matched)
		return SQLITE_OK;
	c->matched = calloc(c->n + 1, sizeof(*c->matched));
	c->won = calloc(c->n + 1, sizeof(*c->won));
	c->tied = calloc(c->n + 1, sizeof(*c->tied));
	if (!c->matched || !c->won || !c->tied ||
	    tt_describe_rules_tally(aux->rules, aux->st, c->target, c->id, c->matched, c->won,
				    c->tied) != 0) {
		clear_counts(c);
		return SQLITE_NOMEM;
	}
	return SQLITE_OK;
}

static int x_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	struct cursor *c = (struct cursor *)cur;
	struct aux *aux = ((struct table *)cur->pVtab)->aux;
	struct tt_describe_rule_info in;

	if (col == COL_MATCHED || col == COL_WON || col == COL_TIED) {
		if (counts(c, aux) != SQLITE_OK)
			return SQLITE_NOMEM;
		sqlite3_result_int64(ctx, (sqlite3_int64)(col == COL_MATCHED ? c->matched
							  : col == COL_WON   ? c->won
									     : c->tied)[c->i]);
		return SQLITE_OK;
	}
	if (!tt_describe_rule_info_get(aux->rules, c->i, &in))
		return SQLITE_OK;
	switch (col) {
	case COL_RULE:
		sqlite3_result_text(ctx, in.where, -1, SQLITE_TRANSIENT);
		break;
	case COL_TARGET:
		sqlite3_result_text(ctx, in.target == TT_DESCRIBE_TRACK ? "track" : "slice", -1,
				    SQLITE_STATIC);
		break;
	case COL_KIND:
		sqlite3_result_text(ctx, tt_describe_kind_name(in.kind), -1, SQLITE_STATIC);
		break;
	case COL_MATCHER:
		sqlite3_result_text(ctx, in.matcher, -1, SQLITE_TRANSIENT);
		break;
	case COL_LINK:
		if (in.link)
			sqlite3_result_text(ctx, in.link, -1, SQLITE_TRANSIENT);
		else
			sqlite3_result_null(ctx);
		break;
	case COL_LEN:
		sqlite3_result_int64(ctx, (sqlite3_int64)in.desc_len);
		break;
	case COL_SLICE_ID:
	case COL_TRACK_ID:
		if (c->target == (col == COL_SLICE_ID ? TT_DESCRIBE_SLICE : TT_DESCRIBE_TRACK))
			sqlite3_result_int64(ctx, c->id);
		else
			sqlite3_result_null(ctx);
		break;
	case COL_SHADOW:
		if (in.shadowed_by)
			sqlite3_result_text(ctx, in.shadowed_by, -1, SQLITE_TRANSIENT);
		else
			sqlite3_result_null(ctx);
		break;
	}
	return SQLITE_OK;
}

static int x_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
	*rowid = (sqlite3_int64)((struct cursor *)cur)->i;
	return SQLITE_OK;
}

static int x_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	(void)vt;
	info->idxNum = 0;
	info->estimatedCost = 1e9; /* the whole-trace counts are expensive */
	info->estimatedRows = 1000;
	for (int i = 0; i < info->nConstraint; i++) {
		const struct sqlite3_index_constraint *k = &info->aConstraint[i];

		if (!k->usable || k->op != SQLITE_INDEX_CONSTRAINT_EQ ||
		    (k->iColumn != COL_SLICE_ID && k->iColumn != COL_TRACK_ID))
			continue;
		info->idxNum = k->iColumn == COL_SLICE_ID ? 1 : 2;
		info->aConstraintUsage[i].argvIndex = 1;
		info->aConstraintUsage[i].omit = 1;
		info->estimatedCost = 1000;
		break;
	}
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

int tt_vtab_describe_rules_register(sqlite3 *db, tt_storage *st, tt_describe_rules *rules)
{
	struct aux *aux = sqlite3_malloc(sizeof(*aux));

	if (!aux)
		return SQLITE_NOMEM;
	aux->st = st;
	aux->rules = rules;
	tt_describe_rules_ref(rules);
	return sqlite3_create_module_v2(db, "describe_rules", &module, aux, aux_free);
}
