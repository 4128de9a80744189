/*
 * vtab_table_info.c - perfetto_table_info('name'): the columns of a
 * PERFETTO TABLE as trace processor's dataframe builder types them:
 *
 *   select name, col_type, nullable, sorted from perfetto_table_info('foo');
 *
 * A column's type comes from its values in row order: integers are "id"
 * when they are 0, 1, 2, ... with no NULL, else "uint32" or "int32" when
 * they all fit, else "int64"; "double"; "string"; a column without a
 * value is "uint32". nullable is the null storage's place in trace
 * processor's list (0 none, 1 sparse: a column with a NULL); sorted the
 * sort state's (0 id, 1 set id, 2 sorted, 3 unsorted; a column with a
 * NULL is unsorted). Every table also has the hidden key column _auto_id.
 * Only PERFETTO tables (tables of the main schema) are described; trace
 * processor also describes its built-in tables.
 */
#include "builtins.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { COL_ID, COL_NAME, COL_TYPE, COL_NULLABLE, COL_SORTED, COL_TABLE };
enum { S_ID, S_SETID, S_SORTED, S_UNSORTED };

struct colinfo {
	char *name;
	const char *type;
	int nullable, sorted;
};

typedef struct {
	sqlite3_vtab base;
	sqlite3 *db;
} ti_vtab;

typedef struct {
	sqlite3_vtab_cursor base;
	struct colinfo *cols;
	int n, at;
} ti_cursor;

/* What one column's values say, in row order. */
struct summary {
	int64_t rows, values, ints, reals, texts;
	int64_t min, max, prev_i;
	double prev_d;
	int id_sorted, setid_sorted, sorted;
};

static void see(struct summary *s, sqlite3_value *v, char **last_text)
{
	int t = sqlite3_value_type(v);

	s->rows++;
	if (t == SQLITE_NULL)
		return;
	if (t == SQLITE_INTEGER) {
		int64_t x = sqlite3_value_int64(v);

		if (!s->values) {
			s->min = s->max = x;
			s->id_sorted = s->setid_sorted = x == 0;
		} else {
			s->id_sorted = s->id_sorted && x == s->values;
			s->setid_sorted = s->setid_sorted && (x == s->prev_i || x == s->values);
			s->sorted = s->sorted && s->prev_i <= x;
			s->min = x < s->min ? x : s->min;
			s->max = x > s->max ? x : s->max;
		}
		s->prev_i = x;
		s->ints++;
	} else if (t == SQLITE_FLOAT) {
		double x = sqlite3_value_double(v);

		if (s->values && s->reals)
			s->sorted = s->sorted && s->prev_d <= x;
		s->prev_d = x;
		s->reals++;
	} else {
		const char *x = (const char *)sqlite3_value_text(v);

		if (s->values && s->texts && *last_text && x)
			s->sorted = s->sorted && strcmp(*last_text, x) <= 0;
		free(*last_text);
		*last_text = x ? strdup(x) : NULL;
		s->texts++;
	}
	s->values++;
}

static void classify(const struct summary *s, struct colinfo *c)
{
	int nullable = s->values < s->rows;

	c->nullable = nullable ? 1 : 0;
	if (!s->values) {
		c->type = "uint32";
		c->sorted = S_UNSORTED;
		return;
	}
	if (s->texts || s->reals) {
		c->type = s->texts ? "string" : "double";
		c->sorted = s->sorted && !nullable ? S_SORTED : S_UNSORTED;
		return;
	}
	if (s->id_sorted && !nullable)
		c->type = "id";
	else if (s->min >= 0 && s->max <= (int64_t)UINT32_MAX)
		c->type = "uint32";
	else if (s->min >= INT32_MIN && s->max <= INT32_MAX)
		c->type = "int32";
	else
		c->type = "int64";
	c->sorted = nullable ? S_UNSORTED : s->id_sorted ? S_ID : s->setid_sorted ? S_SETID :
		    s->sorted ? S_SORTED : S_UNSORTED;
}

/* The columns of main table `name`, or an error in *msg. */
static int describe(sqlite3 *db, const char *name, ti_cursor *c, char **msg)
{
	sqlite3_stmt *q = NULL;
	char *sql = NULL, **last = NULL;
	struct summary *s = NULL;
	int n = 0, rc = SQLITE_NOMEM, step;

	sql = sqlite3_mprintf("SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = %Q", name);
	if (!sql || sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
		goto out;
	step = sqlite3_step(q);
	sqlite3_finalize(q);
	q = NULL;
	sqlite3_free(sql);
	sql = NULL;
	if (step != SQLITE_ROW) {
		*msg = sqlite3_mprintf("Perfetto table '%s' not found.", name);
		return SQLITE_ERROR;
	}
	/* rowid order is the order the table's SELECT gave its rows */
	sql = sqlite3_mprintf("SELECT * FROM main.\"%w\" ORDER BY rowid", name);
	if (!sql || sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK) {
		*msg = sqlite3_mprintf("%s", sqlite3_errmsg(db));
		rc = SQLITE_ERROR;
		goto out;
	}
	n = sqlite3_column_count(q);
	s = calloc((size_t)n + 1, sizeof(*s));
	last = calloc((size_t)n + 1, sizeof(*last));
	c->cols = calloc((size_t)n + 1, sizeof(*c->cols));
	if (!s || !last || !c->cols)
		goto out;
	for (int i = 0; i < n; i++)
		s[i].sorted = 1;
	while ((step = sqlite3_step(q)) == SQLITE_ROW)
		for (int i = 0; i < n; i++)
			see(&s[i], sqlite3_column_value(q, i), &last[i]);
	if (step != SQLITE_DONE) {
		*msg = sqlite3_mprintf("%s", sqlite3_errmsg(db));
		rc = SQLITE_ERROR;
		goto out;
	}
	for (int i = 0; i < n; i++) {
		if (!(c->cols[i].name = strdup(sqlite3_column_name(q, i) ? sqlite3_column_name(q, i) : "")))
			goto out;
		classify(&s[i], &c->cols[i]);
	}
	/* the key every PERFETTO TABLE gets */
	if (!(c->cols[n].name = strdup("_auto_id")))
		goto out;
	c->cols[n].type = "id";
	c->cols[n].nullable = 0;
	c->cols[n].sorted = S_ID;
	c->n = n + 1;
	rc = SQLITE_OK;
out:
	for (int i = 0; last && i < n; i++)
		free(last[i]);
	free(last);
	free(s);
	sqlite3_finalize(q);
	sqlite3_free(sql);
	return rc;
}

static void cols_free(ti_cursor *c)
{
	for (int i = 0; c->cols && i < c->n; i++)
		free(c->cols[i].name);
	free(c->cols);
	c->cols = NULL;
	c->n = c->at = 0;
}

static int ti_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out, char **err)
{
	ti_vtab *v;
	int rc;

	(void)aux;
	(void)argc;
	(void)argv;
	(void)err;
	rc = sqlite3_declare_vtab(db, "CREATE TABLE x(id INTEGER, name TEXT, col_type TEXT, nullable INTEGER,"
				      " sorted INTEGER, table_name HIDDEN)");
	if (rc != SQLITE_OK)
		return rc;
	if (!(v = sqlite3_malloc(sizeof(*v))))
		return SQLITE_NOMEM;
	memset(v, 0, sizeof(*v));
	v->db = db;
	*out = &v->base;
	return SQLITE_OK;
}

static int ti_disconnect(sqlite3_vtab *v)
{
	sqlite3_free(v);
	return SQLITE_OK;
}

static int ti_best_index(sqlite3_vtab *v, sqlite3_index_info *info)
{
	(void)v;
	for (int i = 0; i < info->nConstraint; i++)
		if (info->aConstraint[i].iColumn == COL_TABLE && info->aConstraint[i].op == SQLITE_INDEX_CONSTRAINT_EQ) {
			if (!info->aConstraint[i].usable)
				return SQLITE_CONSTRAINT;
			info->aConstraintUsage[i].argvIndex = 1;
			info->aConstraintUsage[i].omit = 1;
			info->idxNum = 1;
			info->estimatedCost = 10;
			return SQLITE_OK;
		}
	return SQLITE_CONSTRAINT; /* a table name is required */
}

static int ti_open(sqlite3_vtab *v, sqlite3_vtab_cursor **out)
{
	ti_cursor *c = sqlite3_malloc(sizeof(*c));

	(void)v;
	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof(*c));
	*out = &c->base;
	return SQLITE_OK;
}

static int ti_close(sqlite3_vtab_cursor *cur)
{
	cols_free((ti_cursor *)cur);
	sqlite3_free(cur);
	return SQLITE_OK;
}

static int ti_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxstr, int argc, sqlite3_value **argv)
{
	ti_cursor *c = (ti_cursor *)cur;
	ti_vtab *v = (ti_vtab *)cur->pVtab;
	char *msg = NULL;
	int rc;

	(void)idxstr;
	cols_free(c);
	if (idx != 1 || argc < 1)
		return SQLITE_OK;
	if (sqlite3_value_type(argv[0]) != SQLITE_TEXT) {
		sqlite3_free(v->base.zErrMsg);
		v->base.zErrMsg = sqlite3_mprintf("perfetto_table_info takes table name as a string.");
		return SQLITE_ERROR;
	}
	rc = describe(v->db, (const char *)sqlite3_value_text(argv[0]), c, &msg);
	if (rc != SQLITE_OK) {
		cols_free(c);
		sqlite3_free(v->base.zErrMsg);
		v->base.zErrMsg = msg;
	}
	return rc;
}

static int ti_next(sqlite3_vtab_cursor *cur)
{
	((ti_cursor *)cur)->at++;
	return SQLITE_OK;
}

static int ti_eof(sqlite3_vtab_cursor *cur)
{
	ti_cursor *c = (ti_cursor *)cur;

	return c->at >= c->n;
}

static int ti_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	ti_cursor *c = (ti_cursor *)cur;
	const struct colinfo *ci = &c->cols[c->at];

	switch (col) {
	case COL_ID: sqlite3_result_int(ctx, c->at); break;
	case COL_NAME: sqlite3_result_text(ctx, ci->name, -1, SQLITE_TRANSIENT); break;
	case COL_TYPE: sqlite3_result_text(ctx, ci->type, -1, SQLITE_STATIC); break;
	case COL_NULLABLE: sqlite3_result_int(ctx, ci->nullable); break;
	case COL_SORTED: sqlite3_result_int(ctx, ci->sorted); break;
	default: sqlite3_result_null(ctx); break;
	}
	return SQLITE_OK;
}

static int ti_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
	*rowid = ((ti_cursor *)cur)->at;
	return SQLITE_OK;
}

static const sqlite3_module ti_module = {
	.iVersion = 0,
	.xConnect = ti_connect,
	.xBestIndex = ti_best_index,
	.xDisconnect = ti_disconnect,
	.xOpen = ti_open,
	.xClose = ti_close,
	.xFilter = ti_filter,
	.xNext = ti_next,
	.xEof = ti_eof,
	.xColumn = ti_column,
	.xRowid = ti_rowid,
};

int tt_sql_register_table_info(sqlite3 *db)
{
	return sqlite3_create_module(db, "perfetto_table_info", &ti_module, NULL);
}
