/*
 * perfetto_sql.c - the PerfettoSQL preprocessor (see perfetto_sql.h): the
 * statement splitter, the PERFETTO statements (TABLE, VIEW, INDEX, MACRO;
 * FUNCTION is parsed here and built in psql_func.c) and the types. Macro
 * expansion is psql_macro.c, the tokenizer psql_tok.h.
 *
 * Only PerfettoSQL's own statements are parsed; everything else reaches
 * SQLite as written, so SQLite's errors and semantics stay SQLite's.
 */
#include "psql_tok.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Modules including modules. */
#define RUN_DEPTH_MAX 64

/* ---- types ----------------------------------------------------------------- */

static const struct {
	const char *name;
	int type;
} type_names[] = {
	{ "INT", TT_PT_INT }, { "LONG", TT_PT_INT }, { "UINT", TT_PT_INT },
	{ "BOOL", TT_PT_BOOL }, { "DOUBLE", TT_PT_DOUBLE }, { "FLOAT", TT_PT_DOUBLE },
	{ "STRING", TT_PT_STRING }, { "BYTES", TT_PT_BYTES }, { "PROTO", TT_PT_BYTES },
	{ "TIMESTAMP", TT_PT_INT }, { "DURATION", TT_PT_INT }, { "ARGSETID", TT_PT_INT },
	{ "ID", TT_PT_INT }, { "JOINID", TT_PT_INT }, { "ANY", TT_PT_ANY },
};

int tt_psql_type(const char *name, size_t len)
{
	size_t n = 0;

	while (n < len && (isalnum((unsigned char)name[n]) || name[n] == '_'))
		n++;
	/* ID(table.col) and JOINID(table.col) name what they refer to */
	if (n < len) {
		size_t i = n;

		while (i < len && isspace((unsigned char)name[i]))
			i++;
		if (name[i] != '(' || name[len - 1] != ')')
			return -1;
		if (!((n == 2 && strncasecmp(name, "ID", 2) == 0) ||
		      (n == 6 && strncasecmp(name, "JOINID", 6) == 0)))
			return -1;
	}
	for (size_t i = 0; i < sizeof(type_names) / sizeof(type_names[0]); i++)
		if (strlen(type_names[i].name) == n && strncasecmp(type_names[i].name, name, n) == 0)
			return type_names[i].type;
	return -1;
}

int tt_psql_type_ok(int pt, int t)
{
	switch (pt) {
	case TT_PT_INT:
	case TT_PT_BOOL:
		return t == SQLITE_INTEGER || t == SQLITE_NULL;
	case TT_PT_DOUBLE:
		return t == SQLITE_FLOAT || t == SQLITE_INTEGER || t == SQLITE_NULL;
	case TT_PT_STRING:
		return t == SQLITE_TEXT || t == SQLITE_NULL;
	case TT_PT_BYTES:
		return t == SQLITE_BLOB || t == SQLITE_NULL;
	default:
		return 1;
	}
}

const char *tt_psql_type_name(int pt)
{
	static const char *names[] = { "ANY", "INT", "BOOL", "DOUBLE", "STRING", "BYTES" };

	return pt >= 0 && pt <= TT_PT_BYTES ? names[pt] : "?";
}

static const char *sqlite_type_name(int t)
{
	switch (t) {
	case SQLITE_INTEGER: return "INT";
	case SQLITE_FLOAT: return "DOUBLE";
	case SQLITE_TEXT: return "STRING";
	case SQLITE_BLOB: return "BYTES";
	default: return "NULL";
	}
}

/* ---- statements ------------------------------------------------------------ */

/* One script being run. */
struct run {
	tt_psql *ps;
	const char *s;
	const char *module, *path;
	tt_psql_exec_fn fn;
	void *ctx;
	tt_err *err;
	int multi; /* more than one statement: errors say where */
};

/* Sets err to msg at offset off of the script, naming the module. */
static int fail_at(struct run *r, size_t off, const char *msg)
{
	int line, col;
	char tmp[sizeof(r->err->msg)];

	snprintf(tmp, sizeof(tmp), "%s", msg);
	tt_err_clear(r->err); /* this message replaces the inner one */
	line_col(r->s, off, &line, &col);
	if (r->module)
		return tt_err_set(r->err, TT_EINVAL, "module '%s' (%s) line %d col %d: %s", r->module,
				  r->path ? r->path : "?", line, col, tmp);
	if (r->multi)
		return tt_err_set(r->err, TT_EINVAL, "line %d col %d: %s", line, col, tmp);
	return tt_err_set(r->err, TT_EINVAL, "%s", tmp);
}

static int failf(struct run *r, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int failf(struct run *r, size_t off, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return fail_at(r, off, msg);
}

/* Runs sql on the connection, no rows wanted. */
static int exec_sql(struct run *r, size_t off, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(r->ps->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		int rc = failf(r, off, "%s", msg ? msg : sqlite3_errmsg(r->ps->db));

		sqlite3_free(msg);
		return rc;
	}
	return TT_OK;
}

/* What an object called name is now: "table", "view", "index" or NULL,
 * and its schema: temp first, as SQLite resolves names (the built-in
 * convenience views are temp views a module may replace). */
static const char *object_type(sqlite3 *db, const char *name, char *buf, size_t len,
			       const char **schema)
{
	sqlite3_stmt *st;
	const char *t = NULL;

	if (sqlite3_prepare_v2(db,
			       "select type, 'temp' from sqlite_temp_master where name = ?1 collate nocase "
			       "union all select type, 'main' from sqlite_master where name = ?1 collate nocase",
			       -1, &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		snprintf(buf, len, "%s", (const char *)sqlite3_column_text(st, 0));
		*schema = strcmp((const char *)sqlite3_column_text(st, 1), "temp") == 0 ? "temp" : "main";
		t = buf;
	}
	sqlite3_finalize(st);
	return t;
}

/* A parsed "(col TYPE, ...)" list. */
struct schema {
	int n;
	char *names[MAX_ARGS];
	int types[MAX_ARGS];
};

static void schema_free(struct schema *sc)
{
	for (int i = 0; i < sc->n; i++)
		free(sc->names[i]);
	sc->n = 0;
}

/* Parses "name TYPE, ..." from c (just after the '(') to the matching
 * ')'. types: check type names (macros take any identifier). */
static int parse_schema(struct run *r, struct cur *c, struct schema *sc, int types)
{
	sc->n = 0;
	if (next(c) == T_END)
		return failf(r, c->ts, "unterminated parameter list");
	if (is_punct(c, ')'))
		return TT_OK;
	for (;;) {
		size_t ts, te;
		int depth = 0;

		if (c->kind != T_ID && c->kind != T_VAR)
			return failf(r, c->ts, "expected a name, found '%.*s'", (int)(c->te - c->ts),
				     c->s + c->ts);
		if (sc->n == MAX_ARGS)
			return failf(r, c->ts, "more than %d names in a list", MAX_ARGS);
		/* $x in Perfetto's older spelling is the same x */
		sc->names[sc->n] = c->kind == T_VAR ? dup_range(c->s, c->ts + 1, c->te)
						    : dup_range(c->s, c->ts, c->te);
		sc->types[sc->n] = TT_PT_ANY;
		sc->n++;
		ts = c->te;
		for (;;) {
			if (next(c) == T_END)
				return failf(r, ts, "unterminated list: no closing ')'");
			if (is_punct(c, '('))
				depth++;
			else if (is_punct(c, ')') && depth)
				depth--;
			else if (depth == 0 && (is_punct(c, ',') || is_punct(c, ')')))
				break;
		}
		te = c->ts;
		trim(c->s, &ts, &te);
		if (ts == te)
			return failf(r, c->ts, "'%s' has no type", sc->names[sc->n - 1]);
		if (types) {
			int t = tt_psql_type(c->s + ts, te - ts);

			if (t < 0)
				return failf(r, ts, "unknown type '%.*s' for '%s'", (int)(te - ts),
					     c->s + ts, sc->names[sc->n - 1]);
			sc->types[sc->n - 1] = t;
		}
		if (is_punct(c, ')'))
			return TT_OK;
		next(c);
	}
}

/* Checks that the columns of `select * from name` are those of sc (when
 * given) and, for a table, that the values have the declared types. */
static int check_columns(struct run *r, size_t off, const char *name, const struct schema *sc,
			 int is_table)
{
	sqlite3_stmt *st;
	char sql[512];
	int n, rc = TT_OK;

	snprintf(sql, sizeof(sql), "select * from \"%s\" limit 0", name);
	if (sqlite3_prepare_v2(r->ps->db, sql, -1, &st, NULL) != SQLITE_OK)
		return failf(r, off, "%s", sqlite3_errmsg(r->ps->db));
	n = sqlite3_column_count(st);
	for (int i = 0; i < n && rc == TT_OK; i++) {
		const char *cn = sqlite3_column_name(st, i);
		int found = 0;

		for (int k = 0; k < sc->n; k++)
			found |= strcasecmp(sc->names[k], cn) == 0;
		if (!found)
			rc = failf(r, off, "'%s': column '%s' is not in the declared schema", name, cn);
	}
	for (int k = 0; k < sc->n && rc == TT_OK; k++) {
		int found = 0;

		for (int i = 0; i < n; i++)
			found |= strcasecmp(sc->names[k], sqlite3_column_name(st, i)) == 0;
		if (!found)
			rc = failf(r, off, "'%s': declared column '%s' is not in the result", name,
				   sc->names[k]);
	}
	sqlite3_finalize(st);
	if (rc != TT_OK || !is_table)
		return rc;
	/* One scan for every typed column: the first value of a wrong type. */
	for (int k = 0; k < sc->n && rc == TT_OK; k++) {
		const char *want = NULL;

		switch (sc->types[k]) {
		case TT_PT_INT:
		case TT_PT_BOOL: want = "'integer','null'"; break;
		case TT_PT_DOUBLE: want = "'integer','real','null'"; break;
		case TT_PT_STRING: want = "'text','null'"; break;
		case TT_PT_BYTES: want = "'blob','null'"; break;
		default: continue;
		}
		snprintf(sql, sizeof(sql),
			 "select typeof(\"%s\") from \"%s\" where typeof(\"%s\") not in (%s) limit 1",
			 sc->names[k], name, sc->names[k], want);
		if (sqlite3_prepare_v2(r->ps->db, sql, -1, &st, NULL) != SQLITE_OK)
			return failf(r, off, "%s", sqlite3_errmsg(r->ps->db));
		if (sqlite3_step(st) == SQLITE_ROW)
			rc = failf(r, off, "'%s': column '%s' is declared %s but holds a %s value", name,
				   sc->names[k], tt_psql_type_name(sc->types[k]),
				   (const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	return rc;
}

/* CREATE [OR REPLACE] PERFETTO TABLE|VIEW name [(schema)] AS body. A view
 * is a TEMP view: the built-in views it may read (thread_track, ...) are
 * temp ones, which a view in main cannot name. */
static int create_table_or_view(struct run *r, struct cur *c, size_t stmt_off, int replace,
				int is_table)
{
	struct schema sc = { 0 };
	char *name = NULL, *body = NULL, *sql = NULL, tbuf[16];
	const char *old, *schema = "main";
	size_t err_off;
	int rc;

	if (next(c) != T_ID)
		return failf(r, c->ts, "expected a %s name", is_table ? "table" : "view");
	name = dup_range(c->s, c->ts, c->te);
	if (!name)
		return tt_err_set(r->err, TT_ENOMEM, "out of memory");
	next(c);
	if (is_punct(c, '(')) {
		rc = parse_schema(r, c, &sc, 1);
		if (rc != TT_OK)
			goto out;
		next(c);
	}
	if (!is_kw(c, "AS")) {
		rc = failf(r, c->ts, "expected AS after the %s name", is_table ? "table" : "view");
		goto out;
	}
	rc = tt_psql_expand_range(r->ps, c->s, c->te, c->end, &body, &err_off, r->err);
	if (rc != TT_OK) {
		rc = fail_at(r, err_off, r->err->msg);
		goto out;
	}
	old = object_type(r->ps->db, name, tbuf, sizeof(tbuf), &schema);
	if (old && !replace) {
		rc = failf(r, stmt_off, "%s '%s' already exists (CREATE OR REPLACE PERFETTO %s replaces it)",
			   old, name, is_table ? "TABLE" : "VIEW");
		goto out;
	}
	if (old)
		sql = sqlite3_mprintf("DROP %s %s.\"%w\"; CREATE %s \"%w\" AS %s", old, schema, name,
				      is_table ? "TABLE" : "TEMP VIEW", name, body);
	else
		sql = sqlite3_mprintf("CREATE %s \"%w\" AS %s", is_table ? "TABLE" : "TEMP VIEW", name,
				      body);
	if (!sql) {
		rc = tt_err_set(r->err, TT_ENOMEM, "out of memory");
		goto out;
	}
	rc = exec_sql(r, stmt_off, sql);
	if (rc == TT_OK && sc.n) {
		rc = check_columns(r, stmt_off, name, &sc, is_table);
		if (rc != TT_OK) {
			char *drop = sqlite3_mprintf("DROP %s \"%w\"", is_table ? "TABLE" : "VIEW", name);

			if (drop)
				sqlite3_exec(r->ps->db, drop, NULL, NULL, NULL);
			sqlite3_free(drop);
		}
	}
out:
	sqlite3_free(sql);
	schema_free(&sc);
	free(name);
	free(body);
	return rc;
}

/* CREATE [OR REPLACE] PERFETTO INDEX name ON table(cols) */
static int create_index(struct run *r, struct cur *c, size_t stmt_off, int replace)
{
	char *rest, *sql;
	int rc;
	size_t a = c->i, b = c->end;

	trim(c->s, &a, &b);
	if (next(c) != T_ID)
		return failf(r, c->ts, "expected an index name");
	rest = dup_range(c->s, a, b);
	if (!rest)
		return tt_err_set(r->err, TT_ENOMEM, "out of memory");
	sql = replace ? sqlite3_mprintf("DROP INDEX IF EXISTS %.*s; CREATE INDEX %s",
					(int)(c->te - c->ts), c->s + c->ts, rest)
		      : sqlite3_mprintf("CREATE INDEX %s", rest);
	rc = sql ? exec_sql(r, stmt_off, sql) : tt_err_set(r->err, TT_ENOMEM, "out of memory");
	sqlite3_free(sql);
	free(rest);
	return rc;
}

/* CREATE [OR REPLACE] PERFETTO MACRO name(p Type, ...) RETURNS Type AS body */
static int create_macro(struct run *r, struct cur *c, size_t stmt_off, int replace)
{
	struct schema sc = { 0 };
	struct psql_macro m = { 0 }, *old;
	tt_psql *ps = r->ps;
	size_t a, b;
	int rc;

	if (next(c) != T_ID)
		return failf(r, c->ts, "expected a macro name");
	m.name = dup_range(c->s, c->ts, c->te);
	if (next(c) != T_PUNCT || !is_punct(c, '(')) {
		rc = failf(r, c->ts, "expected '(' after macro '%s'", m.name);
		goto bad;
	}
	rc = parse_schema(r, c, &sc, 0);
	if (rc != TT_OK)
		goto bad;
	next(c);
	if (!is_kw(c, "RETURNS")) {
		rc = failf(r, c->ts, "macro '%s': expected RETURNS", m.name);
		goto bad;
	}
	if (next(c) != T_ID) {
		rc = failf(r, c->ts, "macro '%s': expected a return type", m.name);
		goto bad;
	}
	next(c);
	if (!is_kw(c, "AS")) {
		rc = failf(r, c->ts, "macro '%s': expected AS", m.name);
		goto bad;
	}
	a = c->te;
	b = c->end;
	trim(c->s, &a, &b);
	m.body = dup_range(c->s, a, b);
	m.nparams = sc.n;
	m.params = calloc((size_t)(sc.n ? sc.n : 1), sizeof(char *));
	for (int i = 0; m.params && i < sc.n; i++) {
		m.params[i] = malloc(strlen(sc.names[i]) + 2);
		if (m.params[i])
			sprintf(m.params[i], "$%s", sc.names[i]);
	}
	schema_free(&sc);
	old = tt_psql_find_macro(ps, m.name, strlen(m.name));
	if (old && !replace) {
		rc = failf(r, stmt_off, "macro '%s' already exists (CREATE OR REPLACE PERFETTO MACRO replaces it)",
			   m.name);
		goto bad;
	}
	if (old) {
		tt_psql_macro_clear(old);
		*old = m;
		return TT_OK;
	}
	if (ps->nmacros == ps->cap_macros) {
		size_t nc = ps->cap_macros ? ps->cap_macros * 2 : 16;
		struct psql_macro *nm = realloc(ps->macros, nc * sizeof(*nm));

		if (!nm) {
			rc = tt_err_set(r->err, TT_ENOMEM, "out of memory");
			goto bad;
		}
		ps->macros = nm;
		ps->cap_macros = nc;
	}
	ps->macros[ps->nmacros++] = m;
	return TT_OK;
bad:
	schema_free(&sc);
	tt_psql_macro_clear(&m);
	return rc;
}

/* CREATE [OR REPLACE] PERFETTO FUNCTION name(args) RETURNS type|TABLE(cols) AS body */
static int create_function(struct run *r, struct cur *c, size_t stmt_off, int replace)
{
	char *name = NULL, *args = NULL, *ret = NULL, *cols = NULL, *body = NULL;
	size_t a, err_off;
	int rc, depth = 0;

	if (next(c) != T_ID)
		return failf(r, c->ts, "expected a function name");
	name = dup_range(c->s, c->ts, c->te);
	if (next(c) != T_PUNCT || !is_punct(c, '(')) {
		rc = failf(r, c->ts, "expected '(' after function '%s'", name);
		goto out;
	}
	a = c->te;
	for (;;) {
		if (next(c) == T_END) {
			rc = failf(r, a, "function '%s': unterminated argument list", name);
			goto out;
		}
		if (is_punct(c, '('))
			depth++;
		else if (is_punct(c, ')') && depth-- == 0)
			break;
	}
	args = dup_range(c->s, a, c->ts);
	next(c);
	if (!is_kw(c, "RETURNS")) {
		rc = failf(r, c->ts, "function '%s': expected RETURNS", name);
		goto out;
	}
	next(c);
	if (is_kw(c, "TABLE")) {
		if (next(c) != T_PUNCT || !is_punct(c, '(')) {
			rc = failf(r, c->ts, "function '%s': expected '(' after RETURNS TABLE", name);
			goto out;
		}
		a = c->te;
		depth = 0;
		for (;;) {
			if (next(c) == T_END) {
				rc = failf(r, a, "function '%s': unterminated column list", name);
				goto out;
			}
			if (is_punct(c, '('))
				depth++;
			else if (is_punct(c, ')') && depth-- == 0)
				break;
		}
		cols = dup_range(c->s, a, c->ts);
	} else {
		a = c->ts;
		depth = 0;
		while (c->kind != T_END && !(depth == 0 && (is_kw(c, "AS") || is_kw(c, "DELEGATES")))) {
			if (is_punct(c, '('))
				depth++;
			else if (is_punct(c, ')'))
				depth--;
			next(c);
		}
		ret = dup_range(c->s, a, c->ts);
		if (ret) {
			size_t x = 0, y = strlen(ret);

			trim(ret, &x, &y);
			ret[y] = '\0';
			memmove(ret, ret + x, y - x + 1);
		}
	}
	if (!is_kw(c, "AS") && !is_kw(c, "DELEGATES"))
		next(c);
	if (is_kw(c, "DELEGATES")) {
		/* f(args) RETURNS t DELEGATES TO g: f is g under another name */
		next(c);
		if (!is_kw(c, "TO") || next(c) != T_ID) {
			rc = failf(r, c->ts, "function '%s': expected DELEGATES TO name", name);
			goto out;
		}
		body = dup_range(c->s, c->ts, c->te);
		rc = tt_psql_define_delegate(r->ps, name, args, ret, body, replace, r->err);
		if (rc != TT_OK)
			rc = fail_at(r, stmt_off, r->err->msg);
		goto out;
	}
	if (!is_kw(c, "AS")) {
		rc = failf(r, c->ts, "function '%s': expected AS", name);
		goto out;
	}
	rc = tt_psql_expand_range(r->ps, c->s, c->te, c->end, &body, &err_off, r->err);
	if (rc != TT_OK) {
		rc = fail_at(r, err_off, r->err->msg);
		goto out;
	}
	rc = tt_psql_define_fn(r->ps, name, args, ret, cols, body, replace, r->err);
	if (rc != TT_OK)
		rc = fail_at(r, stmt_off, r->err->msg);
out:
	free(name);
	free(args);
	free(ret);
	free(cols);
	free(body);
	return rc;
}

/* INCLUDE PERFETTO MODULE a.b.c */
static int include(struct run *r, struct cur *c, size_t stmt_off)
{
	struct buf name = { 0 };
	int rc;

	while (next(c) != T_END)
		put(&name, c->s + c->ts, c->te - c->ts);
	if (!name.p)
		return failf(r, stmt_off, "INCLUDE PERFETTO MODULE needs a module name");
	rc = tt_psql_include(r->ps, name.p, r->err);
	free(name.p);
	/* the innermost INCLUDE says where: an error from a module's own
	 * statements already names that module, line and column */
	if (rc != TT_OK && rc != TT_ENOMEM && strncmp(r->err->msg, "module '", 8) != 0)
		return fail_at(r, stmt_off, r->err->msg);
	return rc;
}

static int run_stmt(struct run *r, size_t a, size_t b, int last)
{
	struct cur c = { .s = r->s, .i = a, .end = b };
	size_t off, err_off;
	char *sql;
	int rc;

	next(&c);
	off = c.ts;
	if (is_kw(&c, "INCLUDE")) {
		struct cur p = c;

		next(&p);
		if (is_kw(&p, "PERFETTO")) {
			next(&p);
			if (!is_kw(&p, "MODULE"))
				return failf(r, p.ts, "expected INCLUDE PERFETTO MODULE");
			return include(r, &p, off);
		}
	} else if (is_kw(&c, "CREATE")) {
		struct cur p = c;
		int replace = 0;

		next(&p);
		if (is_kw(&p, "OR")) {
			next(&p);
			if (is_kw(&p, "REPLACE")) {
				replace = 1;
				next(&p);
			}
		}
		if (is_kw(&p, "PERFETTO")) {
			next(&p);
			if (is_kw(&p, "TABLE"))
				return create_table_or_view(r, &p, off, replace, 1);
			if (is_kw(&p, "VIEW"))
				return create_table_or_view(r, &p, off, replace, 0);
			if (is_kw(&p, "FUNCTION"))
				return create_function(r, &p, off, replace);
			if (is_kw(&p, "MACRO"))
				return create_macro(r, &p, off, replace);
			if (is_kw(&p, "INDEX"))
				return create_index(r, &p, off, replace);
			return failf(r, p.ts, "unknown CREATE PERFETTO '%.*s' (TABLE, VIEW, FUNCTION, MACRO, INDEX)",
				     (int)(p.te - p.ts), p.s + p.ts);
		}
	}
	rc = tt_psql_expand_range(r->ps, r->s, a, b, &sql, &err_off, r->err);
	if (rc != TT_OK)
		return fail_at(r, err_off, r->err->msg);
	rc = r->fn(r->ctx, r->ps->db, sql, last, r->err);
	free(sql);
	if (rc != TT_OK && rc != TT_ENOMEM)
		return fail_at(r, off, r->err->msg);
	return rc;
}

/* Splits s into statements at top-level ';' (a trigger's body keeps its
 * own); calls run_stmt on each. */
/* The statements of script as pairs of offsets (start, end) into *out, *nout
 * numbers: a ';' ends a statement except inside a trigger body. TT_OK or
 * TT_ENOMEM. */
static int split(const char *script, size_t **out, size_t *nout, tt_err *err)
{
	size_t n = strlen(script), nst = 0, cap = 0, *st = NULL;
	struct cur c = { .s = script, .i = 0, .end = n };
	size_t start = 0;
	int has_trigger = 0, any = 0;

	for (;;) {
		int k = next(&c);

		if (k != T_END && !is_punct(&c, ';')) {
			if (is_kw(&c, "TRIGGER"))
				has_trigger = 1;
			any = 1;
			continue;
		}
		if (k != T_END && has_trigger) {
			char *part = dup_range(script, start, c.te);
			int complete = part && sqlite3_complete(part);

			free(part);
			if (!complete)
				continue;
		}
		if (any) {
			if (nst + 2 > cap) {
				size_t nc = cap ? cap * 2 : 32, *ns = realloc(st, nc * sizeof(*ns));

				if (!ns) {
					free(st);
					return tt_err_set(err, TT_ENOMEM, "out of memory");
				}
				st = ns;
				cap = nc;
			}
			st[nst++] = start;
			st[nst++] = c.ts;
		}
		if (k == T_END)
			break;
		start = c.te;
		has_trigger = any = 0;
	}
	*out = st;
	*nout = nst;
	return TT_OK;
}

char *tt_psql_last_statement(const char *script, tt_err *err)
{
	size_t *st = NULL, nst = 0;
	char *last;

	if (split(script, &st, &nst, err) != TT_OK)
		return NULL;
	if (!nst) {
		tt_err_set(err, TT_EINVAL, "no SQL statement given");
		free(st);
		return NULL;
	}
	last = dup_range(script, st[nst - 2], st[nst - 1]);
	free(st);
	if (!last)
		tt_err_set(err, TT_ENOMEM, "out of memory");
	return last;
}

int tt_psql_run(tt_psql *ps, const char *script, const char *module, const char *path,
		tt_psql_exec_fn fn, void *ctx, tt_err *err)
{
	struct run r = { .ps = ps, .s = script, .module = module, .path = path, .fn = fn, .ctx = ctx,
			 .err = err };
	size_t nst = 0, *st = NULL;
	int rc = TT_OK;

	if (ps->depth >= RUN_DEPTH_MAX)
		return tt_err_set(err, TT_EINVAL, "modules nested deeper than %d", RUN_DEPTH_MAX);
	/* statement bounds first: errors then say whether there were several */
	if (split(script, &st, &nst, err) != TT_OK)
		return err->code;
	if (!nst) {
		free(st);
		return module ? TT_OK : tt_err_set(err, TT_EINVAL, "no SQL statement given");
	}
	r.multi = nst > 2;
	ps->depth++;
	for (size_t i = 0; i < nst && rc == TT_OK; i += 2)
		rc = run_stmt(&r, st[i], st[i + 1], i + 2 == nst);
	ps->depth--;
	free(st);
	return rc;
}

size_t tt_psql_lex(const char *s, size_t i, int *kind)
{
	return lex(s, i, kind);
}

/* ---- state ----------------------------------------------------------------- */

tt_psql *tt_psql_new(sqlite3 *db)
{
	tt_psql *ps = calloc(1, sizeof(*ps));

	if (!ps)
		return NULL;
	ps->db = db;
	if (tt_psql_register_legacy(ps) != TT_OK || tt_psql_register_docs(ps) != TT_OK) {
		free(ps);
		return NULL;
	}
	return ps;
}

void tt_psql_free(tt_psql *ps)
{
	if (!ps)
		return;
	for (size_t i = 0; i < ps->nmacros; i++)
		tt_psql_macro_clear(&ps->macros[i]);
	free(ps->macros);
	tt_psql_fns_free(ps);
	tt_psql_modules_free(ps);
	free(ps);
}

/* The name of a value's type as Perfetto says it (for psql_func.c). */
const char *tt_psql_value_type_name(int sqlite_type);
const char *tt_psql_value_type_name(int sqlite_type)
{
	return sqlite_type_name(sqlite_type);
}
