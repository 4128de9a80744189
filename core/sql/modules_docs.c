/*
 * modules_docs.c - __intrinsic_stdlib_objects: every module of the module
 * folders (modules.c) and every table, view, function, table function and
 * macro they define, with the documentation written in their comments,
 * so that a user can ask SQL what the library has:
 *
 *   select qualified_name, short_description from __intrinsic_stdlib_objects
 *   where summary like '%interval%';
 *
 * Documentation is the block of `--` comment lines right before a CREATE
 * PERFETTO statement (a module's: the first block of its file, when a blank
 * line follows it); a column's or argument's: the comment right before it
 * in the list; a function's return value: the comment before RETURNS.
 * The files are read on each scan of the table (a few kB; no cache to go
 * stale when a user edits a module).
 *
 * Columns: module, package, object_type (MODULE, TABLE, VIEW, FUNCTION,
 * TABLE_FUNCTION, MACRO), name, qualified_name (module.name), exposed (0
 * for names starting with '_'), short_description (the first sentence),
 * description, cols and args (JSON arrays of {name, type, description}),
 * return_type, return_description, summary (all of it as text, for
 * searching).
 */
#include "psql_tok.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DIRS_MAX 16

enum { C_MODULE, C_PACKAGE, C_TYPE, C_NAME, C_QNAME, C_EXPOSED, C_SHORT, C_DESC, C_COLS, C_ARGS,
       C_RET, C_RET_DESC, C_SUMMARY, C_NCOLS };

struct obj {
	char *f[C_NCOLS]; /* text of each column (exposed: "0"/"1") */
};

struct objs {
	struct obj *v;
	size_t n, cap;
};

/* ---- text helpers ------------------------------------------------------------ */

static void put_str(struct buf *b, const char *s)
{
	put(b, s, strlen(s));
}

static char *buf_take(struct buf *b)
{
	char *p = b->p ? b->p : strdup("");

	memset(b, 0, sizeof(*b));
	return p;
}

static void json_str(struct buf *b, const char *s)
{
	put(b, "\"", 1);
	for (; *s; s++) {
		char esc[8];

		if (*s == '"' || *s == '\\') {
			esc[0] = '\\';
			esc[1] = *s;
			put(b, esc, 2);
		} else if ((unsigned char)*s < 0x20) {
			snprintf(esc, sizeof(esc), "\\u%04x", (unsigned char)*s);
			put_str(b, esc);
		} else {
			put(b, s, 1);
		}
	}
	put(b, "\"", 1);
}

/* The last block of `--` lines in s[a, b) (a blank line ends a block), as
 * one line of text. */
static char *comment_block(const char *s, size_t a, size_t b)
{
	struct buf out = { 0 };
	size_t i = a;

	while (i < b) {
		size_t e = i;

		while (e < b && s[e] != '\n')
			e++;
		{
			size_t x = i;

			while (x < e && isspace((unsigned char)s[x]))
				x++;
			if (x + 1 < e + 1 && s[x] == '-' && x + 1 < e && s[x + 1] == '-') {
				x += 2;
				while (x < e && s[x] == ' ')
					x++;
				if (out.n && x < e)
					put(&out, " ", 1);
				put(&out, s + x, e - x);
			} else if (x == e && e < b) {
				/* a blank line: what came before is another block */
				out.n = 0;
				if (out.p)
					out.p[0] = '\0';
			}
		}
		i = e + 1;
	}
	return buf_take(&out);
}

/* The first sentence of text. */
static char *first_sentence(const char *t)
{
	const char *e = t;

	while (*e && !(*e == '.' && (e[1] == ' ' || e[1] == '\0')))
		e++;
	if (*e == '.')
		e++;
	return strndup(t, (size_t)(e - t));
}

/* "a.b_c" -> "a b c" */
static void spaced(struct buf *b, const char *s)
{
	for (; *s; s++)
		put(b, *s == '.' || *s == '_' ? " " : s, 1);
}

/* ---- lists ------------------------------------------------------------------- */

/* Parses "(name TYPE, ...)" from just after its '(' to the matching ')':
 * a JSON array into json, "name (TYPE), ..." into plain. */
static void parse_list(struct cur *c, struct buf *json, struct buf *plain)
{
	int first = 1;

	put_str(json, "[");
	next(c);
	while (c->kind != TT_TOK_END && !is_punct(c, ')')) {
		char *doc = comment_block(c->s, c->gap, c->ts);
		size_t ns = c->ts, ne = c->te;
		struct buf type = { 0 };
		int depth = 0;

		if (c->kind == TT_TOK_VAR)
			ns++; /* $x */
		for (next(c); c->kind != TT_TOK_END; next(c)) {
			if (depth == 0 && (is_punct(c, ',') || is_punct(c, ')')))
				break;
			depth += is_punct(c, '(') - is_punct(c, ')');
			put(&type, c->s + c->ts, c->te - c->ts);
		}
		put_str(json, first ? "{\"name\":" : ",{\"name\":");
		{
			char *nm = strndup(c->s + ns, ne - ns);

			json_str(json, nm ? nm : "");
			put_str(plain, first ? "" : ", ");
			put_str(plain, nm ? nm : "");
			free(nm);
		}
		put_str(json, ",\"type\":");
		json_str(json, type.p ? type.p : "");
		put_str(json, ",\"description\":");
		json_str(json, doc ? doc : "");
		put_str(json, "}");
		put_str(plain, " (");
		put_str(plain, type.p ? type.p : "");
		put_str(plain, ")");
		free(type.p);
		free(doc);
		first = 0;
		if (is_punct(c, ','))
			next(c);
	}
	put_str(json, "]");
}

/* ---- one module file ------------------------------------------------------------- */

static struct obj *add(struct objs *o)
{
	if (o->n == o->cap) {
		size_t nc = o->cap ? o->cap * 2 : 64;
		struct obj *nv = realloc(o->v, nc * sizeof(*nv));

		if (!nv)
			return NULL;
		o->v = nv;
		o->cap = nc;
	}
	memset(&o->v[o->n], 0, sizeof(o->v[0]));
	return &o->v[o->n++];
}

static char *package_of(const char *module)
{
	const char *d = strchr(module, '.');

	return d ? strndup(module, (size_t)(d - module)) : strdup(module);
}

static void fill_summary(struct obj *ob, const char *plain_args, const char *plain_cols)
{
	struct buf s = { 0 };

	put_str(&s, "Kind: ");
	put_str(&s, ob->f[C_EXPOSED][0] == '1' ? "public " : "internal ");
	put_str(&s, ob->f[C_TYPE]);
	put_str(&s, "\nModule: ");
	put_str(&s, ob->f[C_MODULE]);
	put_str(&s, "\nName: ");
	put_str(&s, ob->f[C_QNAME]);
	if (plain_args && *plain_args) {
		put_str(&s, "\nArguments: ");
		put_str(&s, plain_args);
	}
	if (ob->f[C_RET]) {
		put_str(&s, "\nReturns: ");
		put_str(&s, ob->f[C_RET]);
		if (ob->f[C_RET_DESC] && *ob->f[C_RET_DESC]) {
			put_str(&s, " - ");
			put_str(&s, ob->f[C_RET_DESC]);
		}
	}
	if (plain_cols && *plain_cols) {
		put_str(&s, "\nColumns: ");
		put_str(&s, plain_cols);
	}
	put_str(&s, "\nSearch aliases: ");
	spaced(&s, ob->f[C_PACKAGE]);
	put_str(&s, " ");
	spaced(&s, ob->f[C_MODULE]);
	if (ob->f[C_TYPE][0] != 'M' || strcmp(ob->f[C_TYPE], "MODULE") != 0) {
		put_str(&s, " ");
		spaced(&s, ob->f[C_NAME]);
	}
	if (ob->f[C_DESC] && *ob->f[C_DESC]) {
		put_str(&s, "\n");
		put_str(&s, ob->f[C_DESC]);
	}
	ob->f[C_SUMMARY] = buf_take(&s);
}

/* One CREATE PERFETTO statement at the cursor (just after PERFETTO). */
static void parse_object(struct objs *o, const char *module, struct cur *c, const char *doc)
{
	struct buf cols = { 0 }, args = { 0 }, pc = { 0 }, pa = { 0 }, ret = { 0 };
	const char *type;
	struct obj *ob;
	char *ret_desc = NULL;
	int is_fn = 0, is_macro = 0;

	if (is_kw(c, "TABLE"))
		type = "TABLE";
	else if (is_kw(c, "VIEW"))
		type = "VIEW";
	else if (is_kw(c, "FUNCTION"))
		type = "FUNCTION", is_fn = 1;
	else if (is_kw(c, "MACRO"))
		type = "MACRO", is_macro = 1;
	else
		return;
	if (next(c) != TT_TOK_ID)
		return;
	ob = add(o);
	if (!ob)
		return;
	ob->f[C_NAME] = strndup(c->s + c->ts, c->te - c->ts);
	next(c);
	if (is_punct(c, '(')) {
		parse_list(c, is_fn || is_macro ? &args : &cols, is_fn || is_macro ? &pa : &pc);
		next(c);
	}
	if (is_kw(c, "RETURNS")) {
		ret_desc = comment_block(c->s, c->gap, c->ts);
		next(c);
		if (is_fn && is_kw(c, "TABLE")) {
			type = "TABLE_FUNCTION";
			put_str(&ret, "TABLE");
			if (next(c) == TT_TOK_PUNCT && is_punct(c, '('))
				parse_list(c, &cols, &pc);
		} else {
			int depth = 0;

			/* the type, up to AS or DELEGATES */
			for (; c->kind != TT_TOK_END; next(c)) {
				if (depth == 0 && (is_kw(c, "AS") || is_kw(c, "DELEGATES")))
					break;
				depth += is_punct(c, '(') - is_punct(c, ')');
				put(&ret, c->s + c->ts, c->te - c->ts);
			}
		}
	}
	ob->f[C_MODULE] = strdup(module);
	ob->f[C_PACKAGE] = package_of(module);
	ob->f[C_TYPE] = strdup(type);
	{
		struct buf q = { 0 };

		put_str(&q, module);
		put_str(&q, ".");
		put_str(&q, ob->f[C_NAME] ? ob->f[C_NAME] : "");
		ob->f[C_QNAME] = buf_take(&q);
	}
	ob->f[C_EXPOSED] = strdup(ob->f[C_NAME] && ob->f[C_NAME][0] == '_' ? "0" : "1");
	ob->f[C_DESC] = strdup(doc);
	ob->f[C_SHORT] = first_sentence(doc);
	ob->f[C_COLS] = cols.p ? buf_take(&cols) : NULL;
	ob->f[C_ARGS] = args.p ? buf_take(&args) : (is_fn || is_macro ? strdup("[]") : NULL);
	ob->f[C_RET] = ret.p ? buf_take(&ret) : NULL;
	ob->f[C_RET_DESC] = ret_desc && *ret_desc ? ret_desc : NULL;
	if (ob->f[C_RET_DESC] != ret_desc)
		free(ret_desc);
	fill_summary(ob, pa.p, pc.p);
	free(pa.p);
	free(pc.p);
}

static void parse_module(struct objs *o, const char *module, const char *text)
{
	struct cur c = { .s = text, .end = strlen(text) };
	struct obj *mod = add(o);
	int at_start = 1;

	if (mod) {
		/* the module's doc: the file's first comment block, when a blank
		 * line parts it from the first statement */
		size_t k = 0, blank = 0;
		int kind;
		size_t e = tt_psql_lex(text, 0, &kind);
		char *doc;

		if (kind == TT_TOK_SPACE) {
			for (k = 0; k + 1 < e; k++)
				if (text[k] == '\n' && text[k + 1] == '\n')
					blank = k;
		}
		doc = blank ? comment_block(text, 0, blank) : strdup("");
		/* "a.b: what it is" -> "what it is" */
		if (doc && strncmp(doc, module, strlen(module)) == 0 && doc[strlen(module)] == ':') {
			size_t k2 = strlen(module) + 1;

			while (doc[k2] == ' ')
				k2++;
			memmove(doc, doc + k2, strlen(doc + k2) + 1);
		}
		mod->f[C_MODULE] = strdup(module);
		mod->f[C_PACKAGE] = package_of(module);
		mod->f[C_TYPE] = strdup("MODULE");
		mod->f[C_NAME] = strdup(module);
		mod->f[C_QNAME] = strdup(module);
		mod->f[C_EXPOSED] = strdup("1");
		mod->f[C_DESC] = doc;
		mod->f[C_SHORT] = first_sentence(doc ? doc : "");
		fill_summary(mod, NULL, NULL);
	}
	while (next(&c) != TT_TOK_END) {
		if (is_punct(&c, ';')) {
			at_start = 1;
			continue;
		}
		if (!at_start)
			continue;
		at_start = 0;
		if (is_kw(&c, "CREATE")) {
			char *doc = comment_block(text, c.gap, c.ts);

			next(&c);
			if (is_kw(&c, "OR")) {
				next(&c);
				next(&c);
			}
			if (is_kw(&c, "PERFETTO")) {
				next(&c);
				parse_object(o, module, &c, doc ? doc : "");
			}
			free(doc);
		}
	}
}

/* ---- every module ------------------------------------------------------------------ */

static int seen(const struct objs *o, const char *module)
{
	for (size_t i = 0; i < o->n; i++)
		if (strcmp(o->v[i].f[C_TYPE], "MODULE") == 0 && strcmp(o->v[i].f[C_MODULE], module) == 0)
			return 1;
	return 0;
}

static void walk(struct objs *o, const char *dir, const char *prefix, int depth)
{
	DIR *d = depth < 8 ? opendir(dir) : NULL;
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char p[4200], name[512];
		size_t len = strlen(e->d_name);
		struct stat sb;

		if (e->d_name[0] == '.' ||
		    snprintf(p, sizeof(p), "%s/%s", dir, e->d_name) >= (int)sizeof(p) || stat(p, &sb) != 0)
			continue;
		if (S_ISDIR(sb.st_mode)) {
			snprintf(name, sizeof(name), "%s%s.", prefix, e->d_name);
			walk(o, p, name, depth + 1);
		} else if (len > 4 && strcmp(e->d_name + len - 4, ".sql") == 0) {
			FILE *f;
			char *text;

			snprintf(name, sizeof(name), "%s%.*s", prefix, (int)(len - 4), e->d_name);
			if (seen(o, name) || !(f = fopen(p, "r")))
				continue; /* an earlier folder's module of that name wins */
			text = tt_text_read(f, 1 << 20, NULL);
			fclose(f);
			if (text)
				parse_module(o, name, text);
			free(text);
		}
	}
	closedir(d);
}

static void objs_free(struct objs *o)
{
	for (size_t i = 0; i < o->n; i++)
		for (int k = 0; k < C_NCOLS; k++)
			free(o->v[i].f[k]);
	free(o->v);
	memset(o, 0, sizeof(*o));
}

/* ---- the virtual table --------------------------------------------------------------- */

struct dvtab {
	sqlite3_vtab base;
	tt_psql *ps;
};

struct dcur {
	sqlite3_vtab_cursor base;
	struct objs o;
	size_t row;
};

static int d_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
		     char **err)
{
	struct dvtab *v;
	int rc;

	(void)argc;
	(void)argv;
	(void)err;
	rc = sqlite3_declare_vtab(db, "CREATE TABLE x(module, package, object_type, name, qualified_name, "
				      "exposed, short_description, description, cols, args, return_type, "
				      "return_description, summary)");
	if (rc != SQLITE_OK)
		return rc;
	v = sqlite3_malloc(sizeof(*v));
	if (!v)
		return SQLITE_NOMEM;
	memset(v, 0, sizeof(*v));
	v->ps = aux;
	*out = &v->base;
	return SQLITE_OK;
}

static int d_disconnect(sqlite3_vtab *v)
{
	sqlite3_free(v);
	return SQLITE_OK;
}

static int d_best_index(sqlite3_vtab *v, sqlite3_index_info *ii)
{
	(void)v;
	ii->estimatedCost = 1000;
	return SQLITE_OK;
}

static int d_open(sqlite3_vtab *v, sqlite3_vtab_cursor **out)
{
	struct dcur *c = sqlite3_malloc(sizeof(*c));

	(void)v;
	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof(*c));
	*out = &c->base;
	return SQLITE_OK;
}

static int d_close(sqlite3_vtab_cursor *cur)
{
	struct dcur *c = (struct dcur *)cur;

	objs_free(&c->o);
	sqlite3_free(c);
	return SQLITE_OK;
}

static int d_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxs, int argc, sqlite3_value **argv)
{
	struct dcur *c = (struct dcur *)cur;
	tt_psql *ps = ((struct dvtab *)cur->pVtab)->ps;
	char dirs[DIRS_MAX][4096];
	int nd = tt_psql_search_dirs(ps, dirs, DIRS_MAX);

	(void)idx;
	(void)idxs;
	(void)argc;
	(void)argv;
	objs_free(&c->o);
	for (int i = 0; i < nd; i++)
		walk(&c->o, dirs[i], "", 0);
	c->row = 0;
	return SQLITE_OK;
}

static int d_next(sqlite3_vtab_cursor *cur)
{
	((struct dcur *)cur)->row++;
	return SQLITE_OK;
}

static int d_eof(sqlite3_vtab_cursor *cur)
{
	struct dcur *c = (struct dcur *)cur;

	return c->row >= c->o.n;
}

static int d_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i)
{
	struct dcur *c = (struct dcur *)cur;
	const char *t = i >= 0 && i < C_NCOLS ? c->o.v[c->row].f[i] : NULL;

	if (!t)
		sqlite3_result_null(ctx);
	else if (i == C_EXPOSED)
		sqlite3_result_int(ctx, t[0] == '1');
	else
		sqlite3_result_text(ctx, t, -1, SQLITE_TRANSIENT);
	return SQLITE_OK;
}

static int d_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
	*rowid = (sqlite3_int64)((struct dcur *)cur)->row;
	return SQLITE_OK;
}

static const sqlite3_module docs_module = {
	.xConnect = d_connect,
	.xBestIndex = d_best_index,
	.xDisconnect = d_disconnect,
	.xDestroy = d_disconnect,
	.xOpen = d_open,
	.xClose = d_close,
	.xFilter = d_filter,
	.xNext = d_next,
	.xEof = d_eof,
	.xColumn = d_column,
	.xRowid = d_rowid,
};

int tt_psql_register_docs(tt_psql *ps)
{
	return sqlite3_create_module_v2(ps->db, "__intrinsic_stdlib_objects", &docs_module, ps, NULL) ==
			       SQLITE_OK
		       ? TT_OK
		       : TT_ENOMEM;
}
