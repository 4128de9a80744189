/*
 * psql_macro.c - PerfettoSQL macros: name!(args) is replaced by the macro's
 * body with each $param replaced by the argument's text, then expanded
 * again (nested calls, in bodies and in arguments), to a depth and a size
 * limit. Built in: __intrinsic_stringify!(text), __intrinsic_sql_string!(sql)
 * and __intrinsic_interval_intersect_sql!((t0, t1, ...), (cols)).
 * Strings and comments are never expanded.
 */
#include "psql_tok.h"

#include <stdarg.h>
#include <stdio.h>

/* Macro invocations inside macro bodies, nested: a recursive macro stops
 * here with an error instead of exhausting the stack. */
#define MACRO_DEPTH_MAX 64
/* Text one statement's macros may expand to: a macro that calls another
 * several times, nested, would otherwise fill the memory. */
#define EXPANSION_MAX (8u << 20)
/* Work one statement's expansion may do: macros that call each other
 * several times over but expand to little (an empty body) would otherwise
 * loop for hours under the size limit, where no query time limit reaches.
 * Perfetto's stdlib makes a few hundred calls a statement at most. Calls,
 * and the text read (bodies and arguments counted each time scanned). */
#define CALLS_MAX 100000
#define SCAN_MAX (64u << 20)

/* ---- macros ---------------------------------------------------------------- */

struct psql_macro *tt_psql_find_macro(tt_psql *ps, const char *name, size_t len)
{
	for (size_t i = 0; i < ps->nmacros; i++)
		if (strlen(ps->macros[i].name) == len && strncasecmp(ps->macros[i].name, name, len) == 0)
			return &ps->macros[i];
	return NULL;
}

void tt_psql_macro_clear(struct psql_macro *m)
{
	for (int i = 0; i < m->nparams; i++)
		free(m->params[i]);
	free(m->params);
	free(m->name);
	free(m->body);
	memset(m, 0, sizeof(*m));
}

struct expand {
	tt_psql *ps;
	tt_err *err;
	size_t err_off; /* where in the top text an error points */
	size_t scanned; /* bytes read so far, against SCAN_MAX */
	unsigned calls; /* invocations so far, against CALLS_MAX */
	const char *top; /* the outermost invocation's name, top_len long */
	int top_len;
};

static int expand_text(struct expand *x, const char *s, size_t a, size_t b, int depth,
		       struct buf *out);

/* Splits the arguments of an invocation: s[open] is '('. Returns the
 * offset after the matching ')', or 0 when there is none. */
static size_t split_args(const char *s, size_t open, size_t end, size_t *starts, size_t *ends,
			 int max, int *nargs)
{
	struct cur c = { .s = s, .i = open + 1, .end = end };
	int depth = 0, n = 0;
	size_t arg_start = open + 1;

	*nargs = 0;
	while (next(&c) != T_END) {
		if (is_punct(&c, '(')) {
			depth++;
		} else if (is_punct(&c, ')') && depth) {
			depth--;
		} else if ((is_punct(&c, ',') || is_punct(&c, ')')) && depth == 0) {
			size_t as = arg_start, ae = c.ts;

			trim(s, &as, &ae);
			if (n < max) {
				starts[n] = as;
				ends[n] = ae;
			}
			/* "m!()" has no argument, not one empty one */
			if (!(n == 0 && as == ae && is_punct(&c, ')')))
				n++;
			arg_start = c.te;
			if (is_punct(&c, ')')) {
				*nargs = n;
				return c.te;
			}
		}
	}
	return 0;
}

static int expand_err(struct expand *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int expand_err(struct expand *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	x->err->code = TT_EINVAL;
	vsnprintf(x->err->msg, sizeof(x->err->msg), fmt, ap);
	va_end(ap);
	return TT_EINVAL;
}


/* Splits "(a, b, c)" (or "a") at its top-level commas. */
static int split_list(const char *s, size_t a, size_t b, size_t *st, size_t *en, int max)
{
	int n = 0;

	trim(s, &a, &b);
	if (b > a + 1 && s[a] == '(' && s[b - 1] == ')') {
		int nargs;
		size_t end = split_args(s, a, b, st, en, max, &nargs);

		if (end == b)
			return nargs;
	}
	if (a < b && max > 0) {
		st[0] = a;
		en[0] = b;
		n = 1;
	}
	return n;
}

/* Expands s[a, b) into out as an SQL string literal ('' for '). */
static int put_quoted(struct expand *x, const char *s, size_t a, size_t b, int depth, struct buf *out)
{
	struct buf t = { 0 };
	int rc = expand_text(x, s, a, b, depth + 1, &t);

	if (rc == TT_OK) {
		put(out, "'", 1);
		for (size_t i = 0; i < t.n; i++)
			put(out, t.p[i] == '\'' ? "''" : t.p + i, t.p[i] == '\'' ? 2 : 1);
		put(out, "'", 1);
	}
	free(t.p);
	return rc;
}

/* __intrinsic_interval_intersect_sql!((t0, t1, ...), (p, ...)): the SQL of
 * the intersection of the (id, ts, dur) intervals of every table, rows of
 * equal partition columns only: (ts, dur, id_0, id_1, ..., p, ...), where
 * dur > 0. (intervals.intersect builds _interval_intersect on it.) Two
 * tables without partition go to __intrinsic_interval_intersect (a sweep,
 * intervals.c); otherwise it is a join on overlap and equal partitions. */
static int interval_intersect_sql(struct expand *x, const char *s, int nargs, const size_t *as,
				  const size_t *ae, struct buf *out, size_t ns, size_t ne, int depth)
{
	size_t ts[MAX_ARGS], te[MAX_ARGS], ps_[MAX_ARGS], pe[MAX_ARGS];
	int nt, np;
	char tmp[64];
	struct buf lo = { 0 }, hi = { 0 };

	if (nargs != 2)
		return expand_err(x, "macro '%.*s' takes 2 arguments, given %d", (int)(ne - ns), s + ns, nargs);
	nt = split_list(s, as[0], ae[0], ts, te, MAX_ARGS);
	np = split_list(s, as[1], ae[1], ps_, pe, MAX_ARGS);
	if (nt < 2 || nt > MAX_ARGS)
		return expand_err(x, "interval intersect needs 2 to %d tables, given %d", MAX_ARGS, nt);
	if (nt == 2 && np == 0) {
		int rc;

		put(out, "(SELECT ts, dur, id_0, id_1 FROM __intrinsic_interval_intersect(", strlen("(SELECT ts, dur, id_0, id_1 FROM __intrinsic_interval_intersect("));
		rc = put_quoted(x, s, ts[0], te[0], depth, out);
		put(out, ", ", 2);
		if (rc == TT_OK)
			rc = put_quoted(x, s, ts[1], te[1], depth, out);
		put(out, "))", 2);
		return rc != TT_OK ? rc : out->oom ? expand_err(x, "out of memory expanding macros") : TT_OK;
	}
	for (int i = 0; i < nt; i++) {
		snprintf(tmp, sizeof(tmp), "%s_ii%d.ts", i ? ", " : "", i);
		put(&lo, tmp, strlen(tmp));
		snprintf(tmp, sizeof(tmp), "%s_ii%d.ts + _ii%d.dur", i ? ", " : "", i, i);
		put(&hi, tmp, strlen(tmp));
	}
	if (lo.oom || hi.oom) {
		free(lo.p);
		free(hi.p);
		return expand_err(x, "out of memory expanding macros");
	}
#define PUTS(str) put(out, (str), strlen(str))
	PUTS("(SELECT max(");
	PUTS(lo.p);
	PUTS(") AS ts, min(");
	PUTS(hi.p);
	PUTS(") - max(");
	PUTS(lo.p);
	PUTS(") AS dur");
	for (int i = 0; i < nt; i++) {
		snprintf(tmp, sizeof(tmp), ", _ii%d.id AS id_%d", i, i);
		PUTS(tmp);
	}
	for (int k = 0; k < np; k++) {
		PUTS(", _ii0.");
		put(out, s + ps_[k], pe[k] - ps_[k]);
	}
	PUTS(" FROM ");
	for (int i = 0; i < nt; i++) {
		PUTS(i ? " JOIN (SELECT * FROM " : "(SELECT * FROM ");
		if (expand_text(x, s, ts[i], te[i], depth + 1, out) != TT_OK) {
			free(lo.p);
			free(hi.p);
			return TT_EINVAL;
		}
		snprintf(tmp, sizeof(tmp), ") _ii%d", i);
		PUTS(tmp);
		for (int k = 0; i && k < np; k++) {
			PUTS(k ? " AND " : " ON ");
			snprintf(tmp, sizeof(tmp), "_ii%d.", i);
			PUTS(tmp);
			put(out, s + ps_[k], pe[k] - ps_[k]);
			PUTS(" = _ii0.");
			put(out, s + ps_[k], pe[k] - ps_[k]);
		}
		if (i && !np)
			PUTS(" ON 1");
	}
	PUTS(" WHERE max(");
	PUTS(lo.p);
	PUTS(") < min(");
	PUTS(hi.p);
	PUTS("))");
#undef PUTS
	free(lo.p);
	free(hi.p);
	return out->oom ? expand_err(x, "out of memory expanding macros") : TT_OK;
}

/* One invocation name!(args) at s[ns, ne) with '(' at s[open]; *after is
 * set past the ')'. */
static int expand_call(struct expand *x, const char *s, size_t ns, size_t ne, size_t open,
		       size_t end, int depth, struct buf *out, size_t *after)
{
	size_t as[MAX_ARGS], ae[MAX_ARGS];
	int nargs, rc;
	struct psql_macro *m;
	struct buf body = { 0 };

	if (depth == 0) {
		x->err_off = ns;
		x->top = s + ns;
		x->top_len = (int)(ne - ns);
	}
	*after = split_args(s, open, end, as, ae, MAX_ARGS, &nargs);
	if (!*after)
		return expand_err(x, "unterminated macro invocation '%.*s!(': no closing ')'",
				  (int)(ne - ns), s + ns);
	if (nargs > MAX_ARGS)
		return expand_err(x, "macro '%.*s': more than %d arguments", (int)(ne - ns), s + ns,
				  MAX_ARGS);
	if (++x->calls > CALLS_MAX)
		return expand_err(x, "macro '%.*s': its expansion makes more than %d macro calls "
				  "(macros calling each other many times over?)",
				  x->top_len, x->top, CALLS_MAX);
	if (depth >= MACRO_DEPTH_MAX)
		return expand_err(x, "macro '%.*s': expansion nested deeper than %d (recursive macro?)",
				  (int)(ne - ns), s + ns, MACRO_DEPTH_MAX);
	if (ne - ns == 21 && strncasecmp(s + ns, "__intrinsic_stringify", 21) == 0) {
		/* the arguments' text as a string literal, as Perfetto writes it */
		put(out, "'", 1);
		if (nargs)
			put(out, s + as[0], ae[nargs - 1] - as[0]);
		put(out, "'", 1);
		return TT_OK;
	}
	if (ne - ns == 34 && strncasecmp(s + ns, "__intrinsic_interval_intersect_sql", 34) == 0)
		return interval_intersect_sql(x, s, nargs, as, ae, out, ns, ne, depth);
	if (ne - ns == 22 && strncasecmp(s + ns, "__intrinsic_sql_string", 22) == 0) {
		/* the arguments, expanded, as a string literal (quotes doubled):
		 * SQL text for the intrinsics that take it (intervals.c) */
		if (!nargs)
			return expand_err(x, "__intrinsic_sql_string!() needs some SQL");
		return put_quoted(x, s, as[0], ae[nargs - 1], depth, out);
	}
	m = tt_psql_find_macro(x->ps, s + ns, ne - ns);
	if (!m)
		return expand_err(x, "no macro '%.*s'", (int)(ne - ns), s + ns);
	if (nargs != m->nparams)
		return expand_err(x, "macro '%s' takes %d argument%s, given %d", m->name, m->nparams,
				  m->nparams == 1 ? "" : "s", nargs);
	/* Substitute $param by the argument's text, then expand the result:
	 * macro calls in the arguments and in the body alike. */
	{
		struct cur c = { .s = m->body, .i = 0, .end = strlen(m->body) };
		size_t last = 0;

		while (next(&c) != T_END) {
			if (c.kind != T_VAR || m->body[c.ts] != '$')
				continue;
			for (int i = 0; i < m->nparams; i++) {
				if (strlen(m->params[i]) == c.te - c.ts &&
				    strncasecmp(m->params[i], m->body + c.ts, c.te - c.ts) == 0) {
					put(&body, m->body + last, c.ts - last);
					put(&body, s + as[i], ae[i] - as[i]);
					last = c.te;
					break;
				}
			}
		}
		put(&body, m->body + last, strlen(m->body) - last);
	}
	if (body.oom) {
		free(body.p);
		return expand_err(x, "out of memory expanding macro '%s'", m->name);
	}
	rc = expand_text(x, body.p ? body.p : "", 0, body.n, depth + 1, out);
	free(body.p);
	if (rc == TT_OK && out->n > EXPANSION_MAX)
		return expand_err(x, "macro '%s': expands to more than %u MiB of SQL", m->name,
				  EXPANSION_MAX >> 20);
	return rc;
}

static int expand_text(struct expand *x, const char *s, size_t a, size_t b, int depth,
		       struct buf *out)
{
	struct cur c = { .s = s, .i = a, .end = b };
	size_t last = a;

	/* the statement's own text is the user's: only what macros make counts */
	if (depth > 0 && (x->scanned += b - a) > SCAN_MAX)
		return expand_err(x, "macro '%.*s': its expansion reads more than %u MiB of SQL "
				  "(macros calling each other many times over?)",
				  x->top_len, x->top, SCAN_MAX >> 20);
	while (next(&c) != T_END) {
		size_t ns = c.ts, ne = c.te, after;
		struct cur p;
		int rc;

		if (c.kind != T_ID)
			continue;
		/* name!( with blanks allowed around the '!' (not "a != b") */
		p = c;
		if (next(&p) == T_END || !is_punct(&p, '!') || s[p.te] == '=')
			continue;
		if (next(&p) == T_END || !is_punct(&p, '('))
			continue;
		put(out, s + last, ns - last);
		rc = expand_call(x, s, ns, ne, p.ts, b, depth, out, &after);
		if (rc != TT_OK)
			return rc;
		c.i = last = after;
	}
	put(out, s + last, b - last);
	return out->oom ? expand_err(x, "out of memory expanding macros") : TT_OK;
}

/* Expands s[a, b): *out malloc'd. On error err_off is the invocation. */
int tt_psql_expand_range(tt_psql *ps, const char *s, size_t a, size_t b, char **out,
			size_t *err_off, tt_err *err)
{
	struct expand x = { .ps = ps, .err = err, .err_off = a };
	struct buf o = { 0 };
	int rc = expand_text(&x, s, a, b, 0, &o);

	*err_off = x.err_off;
	if (rc != TT_OK) {
		free(o.p);
		return rc;
	}
	*out = o.p ? o.p : strdup("");
	return *out ? TT_OK : tt_err_set(err, TT_ENOMEM, "out of memory");
}

int tt_psql_expand(tt_psql *ps, const char *text, char **out, tt_err *err)
{
	size_t off;

	return tt_psql_expand_range(ps, text, 0, strlen(text), out, &off, err);
}

