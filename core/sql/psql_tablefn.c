/*
 * psql_tablefn.c - table functions written in PerfettoSQL (RETURNS
 * TABLE(...)): an eponymous virtual table per function. The arguments are
 * hidden columns that must all be given (f(1, 2) in FROM, or f(s.id) in a
 * join); each scan runs its own statement of the body with them bound, so
 * the same function may be scanned twice at once or call itself. Columns
 * are matched to the body's by name and their declared types checked.
 */
#include "psql_func.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tvtab {
	sqlite3_vtab base;
	tt_psql_fn *f;
};

struct tcur {
	sqlite3_vtab_cursor base;
	sqlite3_stmt *st;
	int eof;
	sqlite3_int64 row;
	int map[FN_COLS_MAX]; /* declared column -> body column, -1 none */
	sqlite3_value *args[FN_ARGS_MAX];
};

static int t_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
		     sqlite3_vtab **out, char **err)
{
	tt_psql_fn *f = aux;
	struct tvtab *v;
	sqlite3_str *s = sqlite3_str_new(db);
	char *schema;
	int rc;

	(void)argc;
	(void)argv;
	sqlite3_str_appendall(s, "CREATE TABLE x(");
	for (int i = 0; i < f->ncols; i++)
		sqlite3_str_appendf(s, "%s\"%w\"", i ? ", " : "", f->cols[i]);
	for (int i = 0; i < f->nargs; i++)
		sqlite3_str_appendf(s, "%s\"__arg_%w\" HIDDEN", f->ncols || i ? ", " : "",
				    f->args[i] + 1);
	sqlite3_str_appendall(s, ")");
	schema = sqlite3_str_finish(s);
	if (!schema)
		return SQLITE_NOMEM;
	rc = sqlite3_declare_vtab(db, schema);
	sqlite3_free(schema);
	if (rc != SQLITE_OK) {
		*err = sqlite3_mprintf("%s: %s", f->name, sqlite3_errmsg(db));
		return rc;
	}
	v = sqlite3_malloc(sizeof(*v));
	if (!v)
		return SQLITE_NOMEM;
	memset(v, 0, sizeof(*v));
	v->f = f;
	*out = &v->base;
	return SQLITE_OK;
}

static int t_disconnect(sqlite3_vtab *v)
{
	sqlite3_free(v);
	return SQLITE_OK;
}

static int t_best_index(sqlite3_vtab *vt, sqlite3_index_info *ii)
{
	tt_psql_fn *f = ((struct tvtab *)vt)->f;
	unsigned long long have = 0, all = f->nargs >= 64 ? ~0ull : (1ull << f->nargs) - 1;

	for (int i = 0; i < ii->nConstraint; i++) {
		const struct sqlite3_index_constraint *c = &ii->aConstraint[i];
		int a = c->iColumn - f->ncols;

		if (a < 0 || !c->usable || c->op != SQLITE_INDEX_CONSTRAINT_EQ || (have >> a & 1))
			continue;
		have |= 1ull << a;
		ii->aConstraintUsage[i].argvIndex = a + 1;
		ii->aConstraintUsage[i].omit = 1;
	}
	if (have != all)
		return SQLITE_CONSTRAINT; /* SQLite tries another order or says so */
	ii->estimatedCost = 1000;
	ii->estimatedRows = 1000;
	return SQLITE_OK;
}

static int t_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	struct tcur *c = sqlite3_malloc(sizeof(*c));

	(void)vt;
	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof(*c));
	c->eof = 1;
	*out = &c->base;
	return SQLITE_OK;
}

static void t_reset(struct tcur *c)
{
	sqlite3_finalize(c->st);
	c->st = NULL;
	for (int i = 0; i < FN_ARGS_MAX; i++) {
		sqlite3_value_free(c->args[i]);
		c->args[i] = NULL;
	}
}

static int t_close(sqlite3_vtab_cursor *cur)
{
	t_reset((struct tcur *)cur);
	sqlite3_free(cur);
	return SQLITE_OK;
}

/* The error of a table function: "f: msg", once (nested calls of f
 * already said it). */
static void vt_error(struct tvtab *v, const char *msg)
{
	size_t n = strlen(v->f->name);
	char *m = strncmp(msg, v->f->name, n) == 0 && msg[n] == ':'
			  ? sqlite3_mprintf("%s", msg)
			  : sqlite3_mprintf("%s: %s", v->f->name, msg);

	sqlite3_free(v->base.zErrMsg);
	v->base.zErrMsg = m;
}

static int t_step(struct tcur *c)
{
	struct tvtab *v = (struct tvtab *)c->base.pVtab;
	int rc;

	if (v->f->ps->call_depth >= CALL_DEPTH_MAX) {
		c->eof = 1;
		sqlite3_free(v->base.zErrMsg);
		v->base.zErrMsg = sqlite3_mprintf("%s: calls nested deeper than %d (endless recursion?)",
						  v->f->name, CALL_DEPTH_MAX);
		return SQLITE_ERROR;
	}
	if (tt_psql_call_stopped(v->f->ps)) {
		c->eof = 1;
		return SQLITE_INTERRUPT;
	}
	v->f->ps->call_depth++;
	rc = sqlite3_step(c->st);
	v->f->ps->call_depth--;

	if (rc == SQLITE_ROW) {
		c->row++;
		return SQLITE_OK;
	}
	c->eof = 1;
	if (rc == SQLITE_DONE)
		return SQLITE_OK;
	vt_error(v, sqlite3_errmsg(v->f->ps->db));
	return rc;
}

static int t_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxs, int argc,
		    sqlite3_value **argv)
{
	struct tcur *c = (struct tcur *)cur;
	struct tvtab *v = (struct tvtab *)cur->pVtab;
	tt_psql_fn *f = v->f;
	char msg[256];
	int n;

	(void)idx;
	(void)idxs;
	t_reset(c);
	c->eof = 1;
	c->row = 0;
	if (argc != f->nargs)
		return SQLITE_ERROR;
	if (tt_psql_fn_check_args(f, argv, msg, sizeof(msg))) {
		sqlite3_free(v->base.zErrMsg);
		v->base.zErrMsg = sqlite3_mprintf("%s", msg);
		return SQLITE_ERROR;
	}
	for (int i = 0; i < argc; i++)
		c->args[i] = sqlite3_value_dup(argv[i]);
	/* its own statement: the same function may be scanned twice at once */
	if (sqlite3_prepare_v2(f->ps->db, f->body, -1, &c->st, NULL) != SQLITE_OK) {
		vt_error(v, sqlite3_errmsg(f->ps->db));
		return SQLITE_ERROR;
	}
	for (int i = 0; i < f->nargs; i++) {
		int k = sqlite3_bind_parameter_index(c->st, f->args[i]);

		if (k > 0)
			sqlite3_bind_value(c->st, k, argv[i]);
	}
	n = sqlite3_column_count(c->st);
	for (int i = 0; i < f->ncols; i++) {
		c->map[i] = -1;
		for (int k = 0; k < n; k++)
			if (strcasecmp(sqlite3_column_name(c->st, k), f->cols[i]) == 0) {
				c->map[i] = k;
				break;
			}
	}
	c->eof = 0;
	return t_step(c);
}

static int t_next(sqlite3_vtab_cursor *cur)
{
	return t_step((struct tcur *)cur);
}

static int t_eof(sqlite3_vtab_cursor *cur)
{
	return ((struct tcur *)cur)->eof;
}

static int t_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i)
{
	struct tcur *c = (struct tcur *)cur;
	tt_psql_fn *f = ((struct tvtab *)cur->pVtab)->f;

	if (i < f->ncols) {
		if (c->map[i] >= 0) {
			sqlite3_value *v = sqlite3_column_value(c->st, c->map[i]);

			if (!tt_psql_type_ok(f->col_types[i], sqlite3_value_type(v))) {
				char msg[256];

				snprintf(msg, sizeof(msg), "%s: column %s is declared %s but holds a %s value",
					 f->name, f->cols[i], tt_psql_type_name(f->col_types[i]),
					 tt_psql_value_type_name(sqlite3_value_type(v)));
				sqlite3_result_error(ctx, msg, -1);
				return SQLITE_ERROR;
			}
			sqlite3_result_value(ctx, v);
		}
	} else if (i - f->ncols < f->nargs && c->args[i - f->ncols]) {
		sqlite3_result_value(ctx, c->args[i - f->ncols]);
	}
	return SQLITE_OK;
}

static int t_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
	*rowid = ((struct tcur *)cur)->row;
	return SQLITE_OK;
}

const sqlite3_module tt_psql_table_fn_module = {
	.iVersion = 0,
	.xCreate = NULL, /* eponymous only: f(args) in FROM */
	.xConnect = t_connect,
	.xBestIndex = t_best_index,
	.xDisconnect = t_disconnect,
	.xDestroy = t_disconnect,
	.xOpen = t_open,
	.xClose = t_close,
	.xFilter = t_filter,
	.xNext = t_next,
	.xEof = t_eof,
	.xColumn = t_column,
	.xRowid = t_rowid,
};

