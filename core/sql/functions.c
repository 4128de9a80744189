/*
 * functions.c - Perfetto's built-in scalar and window functions:
 *
 *   select extract_arg(arg_set_id, 'debug.key') from slice;
 *   select __intrinsic_arg_set_to_json(arg_set_id) from slice;  -- {"debug":{...}}
 *   select hash('a', 1);                 -- FNV-1a 64 of the bytes, like Perfetto
 *   select str_split('a,b,c', ',', 1);   -- 'b'
 *   select unhex('0x1F');                -- 31
 *   select regexp('^a', 'abc'), 'abc' regexp 'b', regexp('A', 'a', 'i');
 *   select regexp_extract('id=42', 'id=([0-9]+)');          -- '42'
 *   select regexp_replace_simple('a1b2', '[0-9]', '#');    -- 'a#b#'
 *   select slice_is_ancestor(1, 5);      -- is slice 1 an ancestor of slice 5
 *   select to_timecode(3600123456789);   -- '01:00:00 123 456 789'
 *   select __intrinsic_zstd_compress('text');  -- a zstd frame (blob)
 *
 * time_from_* / time_to_* are not here: in Perfetto they come with the
 * time.conversion module (INCLUDE PERFETTO MODULE time.conversion).
 *
 * The window functions (functions_window.c) and the clock conversions
 * (abs_time_str, to_realtime, to_monotonic: functions_clock.c) are
 * registered from here too.
 */
#include "builtins.h"
#include "hash.h"
#include "regex_guard.h"

#include <ctype.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_gen.h>
#include <zstd.h>

/* ---- args ------------------------------------------------------------------ */

/* Finds the row of key in arg set `set`; -1 when absent. */
static long arg_row(const tt_storage *st, uint32_t set, const char *key, size_t klen)
{
	size_t first, end;

	if (!tt_storage_argset_rows(st, set, &first, &end))
		return -1;
	for (size_t r = first; r < end; r++) {
		const char *k = tt_storage_str(st, st->args.key[r]);

		if (k && strlen(k) == klen && memcmp(k, key, klen) == 0)
			return (long)r;
	}
	return -1;
}

static void result_arg(sqlite3_context *ctx, const tt_storage *st, size_t r)
{
	switch (TT_ARG_TYPE(st->args.type[r])) {
	case TT_ARG_INT: case TT_ARG_UINT: case TT_ARG_BOOL: case TT_ARG_POINTER:
		sqlite3_result_int64(ctx, st->args.val[r].i);
		break;
	case TT_ARG_REAL:
		sqlite3_result_double(ctx, st->args.val[r].d);
		break;
	case TT_ARG_STRING: case TT_ARG_JSON: {
		const char *s = tt_storage_str(st, st->args.val[r].s);

		if (s)
			sqlite3_result_text(ctx, s, -1, SQLITE_STATIC);
		else
			sqlite3_result_null(ctx);
		break;
	}
	default:
		sqlite3_result_null(ctx);
	}
}

static void fn_extract_arg(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const tt_storage *st = sqlite3_user_data(ctx);
	long r;

	(void)argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL)
		return;
	if (sqlite3_value_type(argv[0]) != SQLITE_INTEGER) {
		sqlite3_result_error(ctx, "EXTRACT_ARG: 1st argument should be arg set id", -1);
		return;
	}
	if (sqlite3_value_type(argv[1]) != SQLITE_TEXT) {
		sqlite3_result_error(ctx, "EXTRACT_ARG: 2nd argument should be key", -1);
		return;
	}
	r = arg_row(st, (uint32_t)sqlite3_value_int64(argv[0]),
		    (const char *)sqlite3_value_text(argv[1]), (size_t)sqlite3_value_bytes(argv[1]));
	if (r >= 0)
		result_arg(ctx, st, (size_t)r);
}

/* __intrinsic_arg_set_to_json: the flat keys of a set ("a.b[1].c") become
 * nested objects and arrays, in the order the keys were first seen. The
 * tree is a pool of nodes linked first-child / next-sibling. */
struct jnode {
	const char *name; /* NULL for an array element */
	size_t nlen;
	long idx;         /* array index, or -1 */
	int kind;         /* 0 leaf, 1 object, 2 array */
	long row;         /* leaf: args row */
	int first, last, next;
};

struct jtree {
	struct jnode *n;
	int len, cap;
};

static int jchild(struct jtree *t, int parent, const char *name, size_t nlen, long idx)
{
	struct jnode *p;

	for (int c = t->n[parent].first; c >= 0; c = t->n[c].next) {
		const struct jnode *k = &t->n[c];

		if (idx >= 0 ? k->idx == idx : (k->name && k->nlen == nlen && !memcmp(k->name, name, nlen)))
			return c;
	}
	if (t->len == t->cap) {
		int cap = t->cap ? t->cap * 2 : 16;
		struct jnode *n = sqlite3_realloc64(t->n, (sqlite3_uint64)cap * sizeof(*n));

		if (!n)
			return -1;
		t->n = n;
		t->cap = cap;
	}
	p = &t->n[t->len];
	memset(p, 0, sizeof(*p));
	p->name = idx >= 0 ? NULL : name;
	p->nlen = nlen;
	p->idx = idx;
	p->row = -1;
	p->first = p->last = p->next = -1;
	if (t->n[parent].last >= 0)
		t->n[t->n[parent].last].next = t->len;
	else
		t->n[parent].first = t->len;
	t->n[parent].last = t->len;
	return t->len++;
}

static void jvalue(yajl_gen g, const tt_storage *st, long row)
{
	char buf[32];

	if (row < 0) {
		yajl_gen_null(g);
		return;
	}
	switch (TT_ARG_TYPE(st->args.type[row])) {
	case TT_ARG_INT: case TT_ARG_UINT:
		yajl_gen_integer(g, st->args.val[row].i);
		break;
	case TT_ARG_BOOL:
		yajl_gen_bool(g, st->args.val[row].i != 0);
		break;
	case TT_ARG_REAL:
		yajl_gen_double(g, st->args.val[row].d);
		break;
	case TT_ARG_POINTER:
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)st->args.val[row].i);
		yajl_gen_string(g, (const unsigned char *)buf, strlen(buf));
		break;
	case TT_ARG_STRING: case TT_ARG_JSON: {
		const char *s = tt_storage_str(st, st->args.val[row].s);

		if (s)
			yajl_gen_string(g, (const unsigned char *)s, strlen(s));
		else
			yajl_gen_null(g);
		break;
	}
	default:
		yajl_gen_null(g);
	}
}

static void jemit(yajl_gen g, const struct jtree *t, const tt_storage *st, int i)
{
	const struct jnode *n = &t->n[i];

	if (n->kind == 0) {
		jvalue(g, st, n->row);
		return;
	}
	if (n->kind == 2)
		yajl_gen_array_open(g);
	else
		yajl_gen_map_open(g);
	for (int c = n->first; c >= 0; c = t->n[c].next) {
		if (n->kind == 1) {
			const struct jnode *k = &t->n[c];

			yajl_gen_string(g, (const unsigned char *)(k->name ? k->name : ""),
					k->name ? k->nlen : 0);
		}
		jemit(g, t, st, c);
	}
	if (n->kind == 2)
		yajl_gen_array_close(g);
	else
		yajl_gen_map_close(g);
}

/* Adds the path of key to the tree; returns the leaf node or -1. */
static int jpath(struct jtree *t, const char *key)
{
	int cur = 0;
	const char *p = key;

	while (*p) {
		int next;

		if (*p == '[') {
			long idx = strtol(p + 1, NULL, 10);
			const char *e = strchr(p, ']');

			if (t->n[cur].kind == 0)
				t->n[cur].kind = 2;
			next = jchild(t, cur, NULL, 0, idx < 0 ? 0 : idx);
			p = e ? e + 1 : p + strlen(p);
		} else {
			size_t len;

			if (*p == '.')
				p++;
			len = strcspn(p, ".[");
			if (t->n[cur].kind == 0)
				t->n[cur].kind = 1;
			next = jchild(t, cur, p, len, -1);
			p += len;
		}
		if (next < 0)
			return -1;
		cur = next;
	}
	return cur;
}

static void fn_arg_set_to_json(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const tt_storage *st = sqlite3_user_data(ctx);
	struct jtree t = { 0 };
	size_t first = 0, end = 0;
	yajl_gen g = NULL;
	const unsigned char *out;
	size_t outlen;

	(void)argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL)
		return;
	if (sqlite3_value_type(argv[0]) != SQLITE_INTEGER) {
		sqlite3_result_error(ctx, "ARG_SET_TO_JSON: 1st argument should be arg set id", -1);
		return;
	}
	t.n = sqlite3_malloc64(16 * sizeof(*t.n));
	if (!t.n)
		goto oom;
	t.cap = 16;
	t.len = 1;
	memset(t.n, 0, sizeof(*t.n));
	t.n[0].kind = 1;
	t.n[0].idx = -1;
	t.n[0].first = t.n[0].last = t.n[0].next = -1;
	if (!tt_storage_argset_rows(st, (uint32_t)sqlite3_value_int64(argv[0]), &first, &end))
		first = end = 0;
	for (size_t r = first; r < end; r++) {
		const char *k = tt_storage_str(st, st->args.key[r]);
		int leaf = k ? jpath(&t, k) : 0;

		if (leaf < 0)
			goto oom;
		if (leaf > 0 && t.n[leaf].kind == 0)
			t.n[leaf].row = (long)r;
	}
	g = yajl_gen_alloc(NULL);
	if (!g)
		goto oom;
	jemit(g, &t, st, 0);
	yajl_gen_get_buf(g, &out, &outlen);
	sqlite3_result_text(ctx, (const char *)out, (int)outlen, SQLITE_TRANSIENT);
	yajl_gen_free(g);
	sqlite3_free(t.n);
	return;
oom:
	sqlite3_free(t.n);
	sqlite3_result_error_nomem(ctx);
}

/* ---- strings ---------------------------------------------------------------- */

static void fn_hash(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	uint64_t h = TT_FNV1A64_SEED;

	for (int i = 0; i < argc; i++) {
		const unsigned char *p;
		size_t n;
		int64_t v;

		switch (sqlite3_value_type(argv[i])) {
		case SQLITE_INTEGER:
			v = sqlite3_value_int64(argv[i]);
			p = (const unsigned char *)&v; /* little-endian bytes, as Perfetto */
			n = sizeof(v);
			break;
		case SQLITE_TEXT:
			p = sqlite3_value_text(argv[i]);
			n = strlen((const char *)p);
			break;
		default: {
			char msg[64];

			snprintf(msg, sizeof(msg), "HASH: arg %d has unknown type", i);
			sqlite3_result_error(ctx, msg, -1);
			return;
		}
		}
		h = tt_fnv1a64(h, p, n);
	}
	sqlite3_result_int64(ctx, (sqlite3_int64)h);
}

static void fn_str_split(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *s = (const char *)sqlite3_value_text(argv[0]);
	const char *d = (const char *)sqlite3_value_text(argv[1]);
	sqlite3_int64 idx = sqlite3_value_int64(argv[2]);
	size_t dl;

	(void)argc;
	if (!s)
		return;
	if (!d || !*d) {
		sqlite3_result_error(ctx, "STR_SPLIT: delimiter must be a non-empty string", -1);
		return;
	}
	if (sqlite3_value_type(argv[2]) != SQLITE_INTEGER || idx < 0) {
		sqlite3_result_error(ctx, "STR_SPLIT: field number must be a non-negative integer", -1);
		return;
	}
	dl = strlen(d);
	for (; idx > 0; idx--) {
		const char *e = strstr(s, d);

		if (!e)
			return; /* fewer fields: NULL */
		s = e + dl;
	}
	{
		const char *e = strstr(s, d);

		sqlite3_result_text(ctx, s, e ? (int)(e - s) : -1, SQLITE_TRANSIENT);
	}
}

static void fn_unhex(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *s = (const char *)sqlite3_value_text(argv[0]);
	uint64_t v = 0;
	int digits = 0;

	(void)argc;
	if (!s)
		return;
	while (isspace((unsigned char)*s))
		s++;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; isxdigit((unsigned char)*s); s++, digits++) {
		int c = tolower((unsigned char)*s);

		v = v * 16 + (uint64_t)(c <= '9' ? c - '0' : c - 'a' + 10);
	}
	while (isspace((unsigned char)*s))
		s++;
	if (*s || !digits) {
		sqlite3_result_error(ctx, "UNHEX: argument is not a hex number", -1);
		return;
	}
	sqlite3_result_int64(ctx, (sqlite3_int64)v);
}

/* ---- regular expressions (POSIX extended, like Perfetto's base::Regex) ---- */

struct re_aux {
	regex_t re;
	int icase;
};

static void re_free(void *p)
{
	struct re_aux *a = p;

	regfree(&a->re);
	sqlite3_free(a);
}

/* The compiled pattern of argument `arg`, cached as SQLite aux data. */
static regex_t *re_get(sqlite3_context *ctx, sqlite3_value **argv, int arg, int icase)
{
	struct re_aux *a = sqlite3_get_auxdata(ctx, arg);
	const char *pat = (const char *)sqlite3_value_text(argv[arg]);
	char err[128];
	int rc;

	if (a && a->icase == icase)
		return &a->re;
	if (!pat)
		return NULL;
	a = sqlite3_malloc(sizeof(*a));
	if (!a) {
		sqlite3_result_error_nomem(ctx);
		return NULL;
	}
	a->icase = icase;
	/* back-references kept: trace processor's regcomp takes them */
	rc = tt_regex_compile(&a->re, pat, REG_EXTENDED | (icase ? REG_ICASE : 0), 1, err, sizeof(err));
	if (rc) {
		char msg[320];

		snprintf(msg, sizeof(msg), "regexp: bad pattern '%.60s': %s", pat, err);
		sqlite3_free(a);
		sqlite3_result_error(ctx, msg, -1);
		return NULL;
	}
	sqlite3_set_auxdata(ctx, arg, a, re_free); /* frees a at once if it cannot keep it */
	a = sqlite3_get_auxdata(ctx, arg);
	if (!a)
		sqlite3_result_error_nomem(ctx);
	return a ? &a->re : NULL;
}

/* regexp(pattern, text [, flags]): 'i' case-insensitive, 'c' sensitive,
 * the last flag wins. */
static void fn_regexp(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *text = (const char *)sqlite3_value_text(argv[1]);
	int icase = 0;
	regex_t *re;

	if (argc == 3) {
		const char *f = (const char *)sqlite3_value_text(argv[2]);

		if (!f)
			return;
		for (; *f; f++) {
			if (*f == 'i' || *f == 'c') {
				icase = *f == 'i';
			} else {
				char msg[64];

				snprintf(msg, sizeof(msg), "regexp: unknown flag '%c'", *f);
				sqlite3_result_error(ctx, msg, -1);
				return;
			}
		}
	}
	if (!text || sqlite3_value_type(argv[0]) == SQLITE_NULL)
		return;
	re = re_get(ctx, argv, 0, icase);
	if (re)
		sqlite3_result_int(ctx, regexec(re, text, 0, NULL, 0) == 0);
}

static void fn_regexp_extract(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *text = (const char *)sqlite3_value_text(argv[0]);
	regmatch_t m[3];
	regex_t *re;

	(void)argc;
	if (!text || sqlite3_value_type(argv[1]) == SQLITE_NULL)
		return;
	re = re_get(ctx, argv, 1, 0);
	if (!re)
		return;
	if (re->re_nsub > 1) {
		sqlite3_result_error(ctx, "REGEXP_EXTRACT: pattern has more than one group.", -1);
		return;
	}
	if (regexec(re, text, 3, m, 0) != 0)
		return;
	if (re->re_nsub == 1 && m[1].rm_so >= 0 && m[1].rm_eo > m[1].rm_so)
		sqlite3_result_text(ctx, text + m[1].rm_so, (int)(m[1].rm_eo - m[1].rm_so), SQLITE_TRANSIENT);
	else
		sqlite3_result_text(ctx, text + m[0].rm_so, (int)(m[0].rm_eo - m[0].rm_so), SQLITE_TRANSIENT);
}

/* regexp_replace_simple(text, pattern, replacement): every match replaced
 * by the literal replacement. */
static void fn_regexp_replace(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *text = (const char *)sqlite3_value_text(argv[0]);
	const char *rep = (const char *)sqlite3_value_text(argv[2]);
	sqlite3_str *out;
	regmatch_t m;
	regex_t *re;
	int flags = 0;

	(void)argc;
	if (!text || !rep || sqlite3_value_type(argv[1]) == SQLITE_NULL)
		return;
	re = re_get(ctx, argv, 1, 0);
	if (!re)
		return;
	out = sqlite3_str_new(NULL);
	while (regexec(re, text, 1, &m, flags) == 0) {
		sqlite3_str_append(out, text, (int)m.rm_so);
		sqlite3_str_appendall(out, rep);
		if (m.rm_eo == m.rm_so) { /* empty match: keep one char, go on */
			if (!text[m.rm_eo]) {
				text += m.rm_eo;
				break;
			}
			sqlite3_str_append(out, text + m.rm_eo, 1);
			text += m.rm_eo + 1;
		} else {
			text += m.rm_eo;
		}
		flags = REG_NOTBOL;
	}
	sqlite3_str_appendall(out, text);
	if (sqlite3_str_errcode(out)) {
		sqlite3_free(sqlite3_str_finish(out));
		sqlite3_result_error_nomem(ctx);
		return;
	}
	{
		int n = sqlite3_str_length(out);

		sqlite3_result_text(ctx, sqlite3_str_finish(out), n, sqlite3_free);
	}
}

/* ---- slices ----------------------------------------------------------------- */

static void fn_slice_is_ancestor(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const tt_storage *st = sqlite3_user_data(ctx);
	sqlite3_int64 a = sqlite3_value_int64(argv[0]);
	sqlite3_int64 d = sqlite3_value_int64(argv[1]);

	(void)argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL)
		return;
	if (a < 0 || d < 0 || (size_t)a >= st->slice.n || (size_t)d >= st->slice.n) {
		sqlite3_result_error(ctx, "SLICE_IS_ANCESTOR: slice id not found", -1);
		return;
	}
	for (int64_t p = st->slice.parent_id[d]; p >= 0; p = st->slice.parent_id[p])
		if (p == a) {
			sqlite3_result_int(ctx, 1);
			return;
		}
	sqlite3_result_int(ctx, 0);
}

/* ---- time ------------------------------------------------------------------- */

static void fn_to_timecode(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	sqlite3_int64 ns = sqlite3_value_int64(argv[0]);
	char buf[64];
	int neg = ns < 0;
	uint64_t v = neg ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;

	(void)argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL)
		return;
	snprintf(buf, sizeof(buf), "%s%02llu:%02llu:%02llu %03llu %03llu %03llu", neg ? "-" : "",
		 (unsigned long long)(v / 3600000000000ull),
		 (unsigned long long)(v / 60000000000ull % 60),
		 (unsigned long long)(v / 1000000000ull % 60),
		 (unsigned long long)(v / 1000000ull % 1000),
		 (unsigned long long)(v / 1000ull % 1000),
		 (unsigned long long)(v % 1000));
	sqlite3_result_text(ctx, buf, -1, SQLITE_TRANSIENT);
}

/* ---- zstd ------------------------------------------------------------------------ */

/* __intrinsic_zstd_compress(x): x (text or blob) as one zstd frame, a
 * blob, at Perfetto's level (9); NULL for NULL; numbers are an error. */
static void fn_zstd_compress(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const void *src;
	size_t n, bound, out_n;
	void *out;

	(void)argc;
	switch (sqlite3_value_type(argv[0])) {
	case SQLITE_NULL:
		return;
	case SQLITE_TEXT:
		src = sqlite3_value_text(argv[0]);
		break;
	case SQLITE_BLOB:
		src = sqlite3_value_blob(argv[0]);
		break;
	default:
		sqlite3_result_error(ctx, "ZSTD: argument must be a string or blob", -1);
		return;
	}
	n = (size_t)sqlite3_value_bytes(argv[0]);
	bound = ZSTD_compressBound(n);
	if (!(out = sqlite3_malloc64(bound))) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	out_n = ZSTD_compress(out, bound, src ? src : "", n, 9);
	if (ZSTD_isError(out_n)) {
		sqlite3_free(out);
		sqlite3_result_error(ctx, "ZSTD: compression failed", -1);
		return;
	}
	sqlite3_result_blob64(ctx, out, out_n, sqlite3_free);
}

/* ---- registration ------------------------------------------------------------------ */

#define DET (SQLITE_UTF8 | SQLITE_DETERMINISTIC)

int tt_sql_register_functions(sqlite3 *db, tt_storage *st)
{
	static const struct {
		const char *name;
		int nargs, flags, needs_st;
		void (*fn)(sqlite3_context *, int, sqlite3_value **);
	} fns[] = {
		{ "extract_arg", 2, SQLITE_UTF8, 1, fn_extract_arg },
		{ "__intrinsic_arg_set_to_json", 1, SQLITE_UTF8, 1, fn_arg_set_to_json },
		{ "arg_set_to_json", 1, SQLITE_UTF8, 1, fn_arg_set_to_json },
		{ "hash", -1, DET, 0, fn_hash },
		{ "str_split", 3, DET, 0, fn_str_split },
		{ "unhex", 1, DET, 0, fn_unhex },
		{ "regexp", 2, DET, 0, fn_regexp },
		{ "regexp", 3, DET, 0, fn_regexp },
		{ "__intrinsic_regexp", 2, DET, 0, fn_regexp },
		{ "__intrinsic_regexp_with_flags", 3, DET, 0, fn_regexp },
		{ "regexp_extract", 2, DET, 0, fn_regexp_extract },
		{ "__intrinsic_regexp_extract", 2, DET, 0, fn_regexp_extract },
		{ "regexp_replace_simple", 3, DET, 0, fn_regexp_replace },
		{ "__intrinsic_regexp_replace_simple", 3, DET, 0, fn_regexp_replace },
		{ "slice_is_ancestor", 2, SQLITE_UTF8, 1, fn_slice_is_ancestor },
		{ "to_timecode", 1, DET, 0, fn_to_timecode },
		{ "__intrinsic_zstd_compress", 1, DET, 0, fn_zstd_compress },
	};
	int rc = SQLITE_OK;

	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]) && rc == SQLITE_OK; i++)
		rc = sqlite3_create_function(db, fns[i].name, fns[i].nargs, fns[i].flags,
					     fns[i].needs_st ? st : NULL, fns[i].fn, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = tt_sql_register_clock_functions(db, st);
	if (rc == SQLITE_OK)
		rc = tt_sql_register_window_functions(db);
	if (rc == SQLITE_OK)
		rc = tt_sql_register_ftrace_functions(db, st);
	return rc;
}
