/*
 * psql_func.c - functions written in PerfettoSQL.
 *
 * A scalar function is an SQLite function that runs its prepared body with
 * the arguments bound to $name and returns the first column of the first
 * row (NULL when there is none). A table function (RETURNS TABLE(...)) is
 * an eponymous virtual table per function (psql_tablefn.c).
 * A function may call itself: each nested call takes its own statement.
 * Declared types are checked on the arguments and on what is returned.
 *
 * Also Perfetto's older spellings: create_function(), create_view_function()
 * and experimental_memoize().
 */
#include "psql_func.h"
#include "query_limit.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void memo_free(struct memo *m)
{
	for (size_t i = 0; i < m->cap; i++)
		if (m->vals[i])
			sqlite3_value_free(m->vals[i]);
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

static size_t memo_slot(const struct memo *m, int64_t k)
{
	uint64_t h = (uint64_t)k * 0x9E3779B97F4A7C15ull;
	size_t i = (size_t)(h >> 17) & (m->cap - 1);

	while (m->vals[i] && m->keys[i] != k)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static sqlite3_value *memo_get(const struct memo *m, int64_t k)
{
	return m->cap ? m->vals[memo_slot(m, k)] : NULL;
}

static void memo_put(struct memo *m, int64_t k, sqlite3_value *v)
{
	if ((m->n + 1) * 2 > m->cap) {
		struct memo g = { .cap = m->cap ? m->cap * 2 : 64 };

		g.keys = calloc(g.cap, sizeof(*g.keys));
		g.vals = calloc(g.cap, sizeof(*g.vals));
		if (!g.keys || !g.vals) {
			free(g.keys);
			free(g.vals);
			return; /* no memo: slower, still right */
		}
		for (size_t i = 0; i < m->cap; i++) {
			if (m->vals[i]) {
				size_t s = memo_slot(&g, m->keys[i]);

				g.keys[s] = m->keys[i];
				g.vals[s] = m->vals[i];
				g.n++;
			}
		}
		free(m->keys);
		free(m->vals);
		*m = g;
	}
	{
		sqlite3_value *d = sqlite3_value_dup(v);
		size_t s = memo_slot(m, k);

		if (!d || m->vals[s]) {
			sqlite3_value_free(d);
			return;
		}
		m->keys[s] = k;
		m->vals[s] = d;
		m->n++;
	}
}

static void fn_free(tt_psql_fn *f)
{
	if (!f)
		return;
	sqlite3_finalize(f->idle);
	for (int i = 0; i < f->nargs; i++)
		free(f->args[i]);
	for (int i = 0; i < f->ncols; i++)
		free(f->cols[i]);
	memo_free(&f->memo);
	free(f->name);
	free(f->body);
	free(f);
}

void tt_psql_fns_free(tt_psql *ps)
{
	for (size_t i = 0; i < ps->nfns; i++)
		fn_free(ps->fns[i]);
	free(ps->fns);
	ps->fns = NULL;
	ps->nfns = ps->cap_fns = 0;
}

/* Parses "x INT, y STRING" into names (prefixed with dollar when
 * dollar) and types. Returns the count, or -1 with err set. */
static int parse_list(const char *what, const char *fname, const char *s, int dollar,
		      char **names, int *types, int max, int *variadic, tt_err *err)
{
	int n = 0;

	while (s && *s) {
		const char *e = s, *ns, *ne, *ts, *te;
		int depth = 0;

		while (*e && !(depth == 0 && *e == ',')) {
			depth += *e == '(' ? 1 : *e == ')' ? -1 : 0;
			e++;
		}
		ns = s;
		while (ns < e && isspace((unsigned char)*ns))
			ns++;
		if (ns == e && !*e && n == 0)
			break; /* "()" */
		if (*ns == '$')
			ns++;
		ne = ns;
		while (ne < e && (isalnum((unsigned char)*ne) || *ne == '_'))
			ne++;
		ts = ne;
		while (ts < e && isspace((unsigned char)*ts))
			ts++;
		te = e;
		while (te > ts && isspace((unsigned char)te[-1]))
			te--;
		if (ne == ns) {
			tt_err_set(err, TT_EINVAL, "function '%s': %s: expected a name at '%.*s'", fname,
				   what, (int)(e - s), s);
			goto bad;
		}
		if (ts == te) {
			tt_err_set(err, TT_EINVAL, "function '%s': %s '%.*s' has no type", fname, what,
				   (int)(ne - ns), ns);
			goto bad;
		}
		if (n == max) {
			tt_err_set(err, TT_EINVAL, "function '%s': more than %d %ss", fname, max, what);
			goto bad;
		}
		if (variadic && te - ts > 3 && strncmp(te - 3, "...", 3) == 0) {
			*variadic = 1; /* "args ANY...": any number of arguments */
			te -= 3;
		}
		types[n] = tt_psql_type(ts, (size_t)(te - ts));
		if (types[n] < 0) {
			tt_err_set(err, TT_EINVAL, "function '%s': unknown type '%.*s' for %s '%.*s'", fname,
				   (int)(te - ts), ts, what, (int)(ne - ns), ns);
			goto bad;
		}
		names[n] = malloc((size_t)(ne - ns) + 2);
		if (!names[n]) {
			tt_err_set(err, TT_ENOMEM, "out of memory");
			goto bad;
		}
		snprintf(names[n], (size_t)(ne - ns) + 2, "%s%.*s", dollar ? "$" : "", (int)(ne - ns), ns);
		n++;
		s = *e ? e + 1 : e;
	}
	return n;
bad:
	for (int i = 0; i < n; i++)
		free(names[i]);
	return -1;
}

/* A statement running f's body with argv bound. */
static sqlite3_stmt *take_stmt(tt_psql_fn *f, sqlite3_value **argv, const char **errmsg)
{
	sqlite3_stmt *st = f->idle;

	f->idle = NULL;
	if (!st && sqlite3_prepare_v2(f->ps->db, f->body, -1, &st, NULL) != SQLITE_OK) {
		*errmsg = sqlite3_errmsg(f->ps->db);
		return NULL;
	}
	for (int i = 0; i < f->nargs; i++) {
		int idx = sqlite3_bind_parameter_index(st, f->args[i]);

		if (idx > 0)
			sqlite3_bind_value(st, idx, argv[i]);
	}
	return st;
}

static void give_stmt(tt_psql_fn *f, sqlite3_stmt *st)
{
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (!f->idle)
		f->idle = st;
	else
		sqlite3_finalize(st);
}

int tt_psql_fn_check_args(tt_psql_fn *f, sqlite3_value **argv, char *msg, size_t len)
{
	for (int i = 0; i < f->nargs; i++) {
		int t = sqlite3_value_type(argv[i]);

		if (!tt_psql_type_ok(f->arg_types[i], t)) {
			snprintf(msg, len, "%s: argument %s is declared %s but given a %s value", f->name,
				 f->args[i] + 1, tt_psql_type_name(f->arg_types[i]),
				 tt_psql_value_type_name(t));
			return -1;
		}
	}
	return 0;
}

/* Calls between two looks at the time limit: a look is a statement of its
 * own, a call is at least one. */
#define LIMIT_CHECK_EVERY 32

int tt_psql_call_stopped(tt_psql *ps)
{
	return ++ps->calls % LIMIT_CHECK_EVERY == 0 && tt_query_limit_hit(ps->db);
}

static void call_scalar(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	tt_psql_fn *f = sqlite3_user_data(ctx);
	const char *em = NULL;
	sqlite3_stmt *st;
	char msg[256];
	int rc;

	(void)argc;
	if (tt_psql_fn_check_args(f, argv, msg, sizeof(msg))) {
		sqlite3_result_error(ctx, msg, -1);
		return;
	}
	if (f->memoize && sqlite3_value_type(argv[0]) == SQLITE_INTEGER) {
		sqlite3_value *v = memo_get(&f->memo, sqlite3_value_int64(argv[0]));

		if (v) {
			sqlite3_result_value(ctx, v);
			return;
		}
	}
	if (f->ps->call_depth >= CALL_DEPTH_MAX) {
		snprintf(msg, sizeof(msg), "%s: calls nested deeper than %d (endless recursion?)", f->name,
			 CALL_DEPTH_MAX);
		sqlite3_result_error(ctx, msg, -1);
		return;
	}
	if (tt_psql_call_stopped(f->ps)) {
		sqlite3_result_error_code(ctx, SQLITE_INTERRUPT);
		return;
	}
	st = take_stmt(f, argv, &em);
	if (!st) {
		snprintf(msg, sizeof(msg), "%s: %s", f->name, em);
		sqlite3_result_error(ctx, msg, -1);
		return;
	}
	f->ps->call_depth++;
	rc = sqlite3_step(st);
	f->ps->call_depth--;
	if (rc == SQLITE_ROW) {
		sqlite3_value *v = sqlite3_column_value(st, 0);
		int t = sqlite3_value_type(v);

		if (!tt_psql_type_ok(f->ret, t)) {
			snprintf(msg, sizeof(msg), "%s: declared to return %s but returned a %s value",
				 f->name, tt_psql_type_name(f->ret), tt_psql_value_type_name(t));
			sqlite3_result_error(ctx, msg, -1);
		} else {
			sqlite3_result_value(ctx, v);
			if (f->memoize && sqlite3_value_type(argv[0]) == SQLITE_INTEGER)
				memo_put(&f->memo, sqlite3_value_int64(argv[0]), v);
		}
	} else if (rc == SQLITE_DONE) {
		sqlite3_result_null(ctx);
	} else {
		/* nested calls already say which function failed */
		const char *e = sqlite3_errmsg(f->ps->db);

		if (rc == SQLITE_INTERRUPT)
			sqlite3_result_error_code(ctx, SQLITE_INTERRUPT);
		else if (strncmp(e, f->name, strlen(f->name)) == 0)
			sqlite3_result_error(ctx, e, -1);
		else {
			snprintf(msg, sizeof(msg), "%s: %s", f->name, e);
			sqlite3_result_error(ctx, msg, -1);
		}
	}
	give_stmt(f, st);
}

/* ---- defining ------------------------------------------------------------------ */

static tt_psql_fn *find_fn(tt_psql *ps, const char *name, int is_table)
{
	for (size_t i = ps->nfns; i-- > 0;)
		if (ps->fns[i]->is_table == is_table && strcasecmp(ps->fns[i]->name, name) == 0)
			return ps->fns[i];
	return NULL;
}

/* Checks the body: it must prepare, and a table function's columns must
 * be the declared ones. */
static int check_body(tt_psql_fn *f, tt_err *err)
{
	sqlite3_stmt *st;
	int n, rc = TT_OK;

	if (sqlite3_prepare_v2(f->ps->db, f->body, -1, &st, NULL) != SQLITE_OK)
		return tt_err_set(err, TT_EINVAL, "function '%s': %s", f->name,
				  sqlite3_errmsg(f->ps->db));
	if (!st)
		return tt_err_set(err, TT_EINVAL, "function '%s': empty body", f->name);
	n = sqlite3_column_count(st);
	if (!f->is_table && n < 1)
		rc = tt_err_set(err, TT_EINVAL, "function '%s': the body returns no column", f->name);
	for (int i = 0; f->is_table && i < f->ncols && rc == TT_OK; i++) {
		int found = 0;

		for (int k = 0; k < n; k++)
			found |= strcasecmp(sqlite3_column_name(st, k), f->cols[i]) == 0;
		if (!found)
			rc = tt_err_set(err, TT_EINVAL,
					"function '%s': declared column '%s' is not in the body's result",
					f->name, f->cols[i]);
	}
	for (int k = 0; f->is_table && k < n && rc == TT_OK; k++) {
		int found = 0;

		for (int i = 0; i < f->ncols; i++)
			found |= strcasecmp(sqlite3_column_name(st, k), f->cols[i]) == 0;
		if (!found)
			rc = tt_err_set(err, TT_EINVAL,
					"function '%s': column '%s' of the body is not declared in RETURNS TABLE",
					f->name, sqlite3_column_name(st, k));
	}
	sqlite3_finalize(st);
	return rc;
}

int tt_psql_define_fn(tt_psql *ps, const char *name, const char *args, const char *ret,
		      const char *cols, const char *body, int replace, tt_err *err)
{
	tt_psql_fn *f = calloc(1, sizeof(*f)), *old;
	int rc;

	if (!f || !(f->name = strdup(name)) || !(f->body = strdup(body))) {
		fn_free(f);
		return tt_err_set(err, TT_ENOMEM, "out of memory");
	}
	f->ps = ps;
	f->is_table = cols != NULL;
	f->nargs = parse_list("argument", name, args, 1, f->args, f->arg_types, FN_ARGS_MAX, NULL, err);
	if (f->nargs < 0) {
		f->nargs = 0;
		fn_free(f);
		return err->code;
	}
	if (cols) {
		f->ncols = parse_list("column", name, cols, 0, f->cols, f->col_types, FN_COLS_MAX, NULL, err);
		if (f->ncols <= 0) {
			if (f->ncols == 0)
				tt_err_set(err, TT_EINVAL, "function '%s': RETURNS TABLE() has no column", name);
			f->ncols = 0;
			fn_free(f);
			return err->code;
		}
	} else {
		f->ret = tt_psql_type(ret ? ret : "", ret ? strlen(ret) : 0);
		if (f->ret < 0) {
			tt_err_set(err, TT_EINVAL, "function '%s': unknown return type '%s'", name,
				   ret ? ret : "");
			fn_free(f);
			return TT_EINVAL;
		}
	}
	old = find_fn(ps, name, f->is_table);
	if (old && !replace) {
		fn_free(f);
		return tt_err_set(err, TT_EINVAL,
				  "function '%s' already exists (CREATE OR REPLACE PERFETTO FUNCTION replaces it)",
				  name);
	}
	if (ps->nfns == ps->cap_fns) {
		size_t nc = ps->cap_fns ? ps->cap_fns * 2 : 16;
		tt_psql_fn **nf = realloc(ps->fns, nc * sizeof(*nf));

		if (!nf) {
			fn_free(f);
			return tt_err_set(err, TT_ENOMEM, "out of memory");
		}
		ps->fns = nf;
		ps->cap_fns = nc;
	}
	/* Registered before the body is checked: it may call itself. */
	if (f->is_table)
		rc = sqlite3_create_module_v2(ps->db, name, &tt_psql_table_fn_module, f, NULL);
	else
		rc = sqlite3_create_function_v2(ps->db, name, f->nargs, SQLITE_UTF8, f, call_scalar,
						NULL, NULL, NULL);
	if (rc != SQLITE_OK) {
		tt_err_set(err, TT_EINVAL, "function '%s': %s", name, sqlite3_errmsg(ps->db));
		fn_free(f);
		return TT_EINVAL;
	}
	ps->fns[ps->nfns++] = f; /* kept until the connection closes */
	return check_body(f, err);
}

/* ---- delegates ---------------------------------------------------------------- */

static void call_delegate(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	tt_psql_fn *f = sqlite3_user_data(ctx);
	sqlite3_str *q = sqlite3_str_new(f->ps->db);
	sqlite3_stmt *st = NULL;
	char *sql, msg[256];

	if (!f->memoize && tt_psql_fn_check_args(f, argv, msg, sizeof(msg))) {
		sqlite3_free(sqlite3_str_finish(q));
		sqlite3_result_error(ctx, msg, -1);
		return;
	}
	sqlite3_str_appendf(q, "SELECT \"%w\"(", f->body);
	for (int i = 0; i < argc; i++)
		sqlite3_str_appendf(q, "%s?%d", i ? ", " : "", i + 1);
	sqlite3_str_appendall(q, ")");
	sql = sqlite3_str_finish(q);
	if (!sql || sqlite3_prepare_v2(f->ps->db, sql, -1, &st, NULL) != SQLITE_OK) {
		snprintf(msg, sizeof(msg), "%s: %s", f->name, sqlite3_errmsg(f->ps->db));
		sqlite3_result_error(ctx, msg, -1);
		sqlite3_free(sql);
		return;
	}
	sqlite3_free(sql);
	for (int i = 0; i < argc; i++)
		sqlite3_bind_value(st, i + 1, argv[i]);
	if (sqlite3_step(st) == SQLITE_ROW) {
		sqlite3_result_value(ctx, sqlite3_column_value(st, 0));
	} else {
		snprintf(msg, sizeof(msg), "%s: %s", f->name, sqlite3_errmsg(f->ps->db));
		sqlite3_result_error(ctx, msg, -1);
	}
	sqlite3_finalize(st);
}

int tt_psql_define_delegate(tt_psql *ps, const char *name, const char *args, const char *ret,
			    const char *target, int replace, tt_err *err)
{
	tt_psql_fn *f = calloc(1, sizeof(*f));
	int variadic = 0;

	if (!f || !(f->name = strdup(name)) || !(f->body = strdup(target))) {
		fn_free(f);
		return tt_err_set(err, TT_ENOMEM, "out of memory");
	}
	f->ps = ps;
	f->nargs = parse_list("argument", name, args, 1, f->args, f->arg_types, FN_ARGS_MAX,
			      &variadic, err);
	f->ret = tt_psql_type(ret ? ret : "", ret ? strlen(ret) : 0);
	if (f->nargs < 0 || f->ret < 0) {
		if (f->nargs >= 0)
			tt_err_set(err, TT_EINVAL, "function '%s': unknown return type '%s'", name,
				   ret ? ret : "");
		f->nargs = f->nargs < 0 ? 0 : f->nargs;
		fn_free(f);
		return TT_EINVAL;
	}
	if (find_fn(ps, name, 0) && !replace) {
		fn_free(f);
		return tt_err_set(err, TT_EINVAL,
				  "function '%s' already exists (CREATE OR REPLACE PERFETTO FUNCTION replaces it)",
				  name);
	}
	/* variadic: the argument checks do not apply (memoize flags it) */
	f->memoize = variadic;
	if (ps->nfns == ps->cap_fns) {
		size_t nc = ps->cap_fns ? ps->cap_fns * 2 : 16;
		tt_psql_fn **nf = realloc(ps->fns, nc * sizeof(*nf));

		if (!nf) {
			fn_free(f);
			return tt_err_set(err, TT_ENOMEM, "out of memory");
		}
		ps->fns = nf;
		ps->cap_fns = nc;
	}
	if (sqlite3_create_function_v2(ps->db, name, variadic ? -1 : f->nargs, SQLITE_UTF8, f,
				       call_delegate, NULL, NULL, NULL) != SQLITE_OK) {
		tt_err_set(err, TT_EINVAL, "function '%s': %s", name, sqlite3_errmsg(ps->db));
		fn_free(f);
		return TT_EINVAL;
	}
	ps->fns[ps->nfns++] = f;
	return TT_OK;
}

/* ---- the older spellings ---------------------------------------------------------- */

/* "f(x INT, y STRING)" -> name and the text between the parentheses. */
static int split_prototype(const char *proto, char *name, size_t nlen, char *args, size_t alen)
{
	const char *open = strchr(proto, '('), *close = strrchr(proto, ')');
	const char *a = proto, *b = open;

	if (!open || !close || close < open)
		return -1;
	while (a < b && isspace((unsigned char)*a))
		a++;
	while (b > a && isspace((unsigned char)b[-1]))
		b--;
	if (b == a || (size_t)(b - a) >= nlen || (size_t)(close - open) > alen)
		return -1;
	snprintf(name, nlen, "%.*s", (int)(b - a), a);
	snprintf(args, alen, "%.*s", (int)(close - open - 1), open + 1);
	return 0;
}

static void legacy_define(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	tt_psql *ps = sqlite3_user_data(ctx);
	const char *proto = (const char *)sqlite3_value_text(argv[0]);
	const char *ret = (const char *)sqlite3_value_text(argv[1]);
	const char *body = (const char *)sqlite3_value_text(argv[2]);
	char name[128], args[1024];
	tt_psql_fn *old;
	tt_err err = { 0 };
	char *expanded = NULL;

	(void)argc;
	if (!proto || !ret || !body || split_prototype(proto, name, sizeof(name), args, sizeof(args))) {
		sqlite3_result_error(ctx, "create_function: expects ('name(arg TYPE, ...)', 'TYPE', 'body')",
				     -1);
		return;
	}
	old = find_fn(ps, name, 0);
	/* the same definition again is not an error (scripts re-run) */
	if (old && strcmp(old->body, body) == 0) {
		sqlite3_result_null(ctx);
		return;
	}
	if (tt_psql_expand(ps, body, &expanded, &err) != TT_OK ||
	    tt_psql_define_fn(ps, name, args, ret, NULL, expanded, 1, &err) != TT_OK)
		sqlite3_result_error(ctx, err.msg, -1);
	else
		sqlite3_result_null(ctx);
	free(expanded);
}

static void legacy_define_table(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	tt_psql *ps = sqlite3_user_data(ctx);
	const char *proto = (const char *)sqlite3_value_text(argv[0]);
	const char *cols = (const char *)sqlite3_value_text(argv[1]);
	const char *body = (const char *)sqlite3_value_text(argv[2]);
	char name[128], args[1024];
	tt_psql_fn *old;
	tt_err err = { 0 };
	char *expanded = NULL;

	(void)argc;
	if (!proto || !cols || !body || split_prototype(proto, name, sizeof(name), args, sizeof(args))) {
		sqlite3_result_error(ctx,
				     "create_view_function: expects ('name(arg TYPE, ...)', 'col TYPE, ...', 'body')",
				     -1);
		return;
	}
	old = find_fn(ps, name, 1);
	if (old && strcmp(old->body, body) == 0) {
		sqlite3_result_null(ctx);
		return;
	}
	if (tt_psql_expand(ps, body, &expanded, &err) != TT_OK ||
	    tt_psql_define_fn(ps, name, args, NULL, cols, expanded, 1, &err) != TT_OK)
		sqlite3_result_error(ctx, err.msg, -1);
	else
		sqlite3_result_null(ctx);
	free(expanded);
}

static void memoize(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	tt_psql *ps = sqlite3_user_data(ctx);
	const char *name = (const char *)sqlite3_value_text(argv[0]);
	tt_psql_fn *f = name ? find_fn(ps, name, 0) : NULL;
	char msg[256];

	(void)argc;
	if (!f) {
		snprintf(msg, sizeof(msg), "experimental_memoize: no function '%s'", name ? name : "");
		sqlite3_result_error(ctx, msg, -1);
		return;
	}
	if (f->nargs != 1 || f->arg_types[0] != TT_PT_INT) {
		snprintf(msg, sizeof(msg), "experimental_memoize: '%s' must take one INT argument", name);
		sqlite3_result_error(ctx, msg, -1);
		return;
	}
	f->memoize = 1;
	sqlite3_result_null(ctx);
}

/* import('a.b'): INCLUDE PERFETTO MODULE a.b in Perfetto's older spelling */
static void import_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	tt_psql *ps = sqlite3_user_data(ctx);
	const char *name = (const char *)sqlite3_value_text(argv[0]);
	tt_err err = { 0 };

	(void)argc;
	if (tt_psql_include(ps, name ? name : "", &err) != TT_OK)
		sqlite3_result_error(ctx, err.msg, -1);
	else
		sqlite3_result_null(ctx);
}

int tt_psql_register_legacy(tt_psql *ps)
{
	if (sqlite3_create_function_v2(ps->db, "import", 1, SQLITE_UTF8, ps, import_fn, NULL, NULL,
				       NULL) != SQLITE_OK)
		return TT_ENOMEM;
	if (sqlite3_create_function_v2(ps->db, "create_function", 3, SQLITE_UTF8, ps, legacy_define,
				       NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_create_function_v2(ps->db, "create_view_function", 3, SQLITE_UTF8, ps,
				       legacy_define_table, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_create_function_v2(ps->db, "experimental_memoize", 1, SQLITE_UTF8, ps, memoize,
				       NULL, NULL, NULL) != SQLITE_OK)
		return TT_ENOMEM;
	return TT_OK;
}
