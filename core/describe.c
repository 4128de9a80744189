/*
 * describe.c - the description rules: the rule set, its file parser and
 * loading, and registration on a connection. Matching is in
 * describe_match.c, templates in describe_expand.c, the SQL tables in
 * vtab_describe_*.c. File format and matching order: docs/descriptions.md;
 * in short:
 *
 *   # comment
 *   [rule]                         ([track] for a track's description)
 *   name = measure                 (exact; may repeat: any of them)
 *   ancestor = Choreographer#doFrame
 *   description = Measures the {name} pass, {dur} here.
 *     A line starting with blanks continues the previous value.
 *   link = https://developer.android.com/...
 *
 * Known limits: comments are whole lines only (`#` inside a value is
 * text); a value is one paragraph (continuations are joined by one
 * space); conditions other than regex are fnmatch(3) globs on the whole
 * string; templates see the slice's own args only, not its ancestors'.
 */
#include "describe_int.h"
#include "err.h"
#include "regex_guard.h"

#include <ctype.h>
#include <dirent.h>
#include <fnmatch.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers --------------------------------------------------------- */

int tt_describe_grow(void **p, size_t *cap, size_t need, size_t esz)
{
	size_t ncap = *cap ? *cap : 8;
	void *np;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	np = realloc(*p, ncap * esz);
	if (!np)
		return -1;
	*p = np;
	*cap = ncap;
	return 0;
}

static int warnf(tt_describe_rules *r, const char *path, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int warnf(tt_describe_rules *r, const char *path, int line, const char *fmt, ...)
{
	char msg[512], *s;
	int n;
	va_list ap;

	n = snprintf(msg, sizeof(msg), "%s:%d: ", path, line);
	if (n < 0 || (size_t)n >= sizeof(msg))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	va_end(ap);
	if (tt_describe_grow((void **)&r->warn, &r->capwarn, r->nwarn + 1, sizeof(*r->warn)) < 0 ||
	    !(s = strdup(msg)))
		return TT_ENOMEM;
	r->warn[r->nwarn++] = s;
	return TT_OK;
}

static void rule_free(struct rule *u)
{
	for (size_t i = 0; i < u->nnames; i++)
		free(u->names[i]);
	free(u->names);
	free(u->glob);
	free(u->regex_src);
	if (u->has_re)
		regfree(&u->re);
	for (int c = 0; c < C_COUNT; c++)
		free(u->cond[c]);
	for (size_t i = 0; i < u->nargs; i++) {
		free(u->arg_key[i]);
		free(u->arg_pat[i]);
	}
	free(u->arg_key);
	free(u->arg_pat);
	free(u->desc);
	free(u->link);
	free(u->where);
	memset(u, 0, sizeof(*u));
}

const char *const tt_describe_cond_key[C_COUNT] = {
	"category", "parent", "ancestor", "thread", "process", "track", "track_type",
};

const char *tt_describe_str(const tt_storage *st, tt_str s)
{
	const char *t = s ? tt_storage_str(st, s) : NULL;

	return t ? t : "";
}

/* ---- rule set lifetime ----------------------------------------------------- */

tt_describe_rules *tt_describe_rules_new(void)
{
	tt_describe_rules *r = calloc(1, sizeof(*r));

	if (r)
		r->refs = 1;
	return r;
}

void tt_describe_rules_ref(tt_describe_rules *r)
{
	r->refs++;
}

void tt_describe_rules_unref(tt_describe_rules *r)
{
	if (!r || --r->refs > 0)
		return;
	for (size_t i = 0; i < r->n; i++)
		rule_free(&r->rules[i]);
	free(r->rules);
	for (size_t i = 0; i < r->nwarn; i++)
		free(r->warn[i]);
	free(r->warn);
	tt_describe_uncompile(r);
	for (size_t i = 0; i < r->ndefer; i++)
		free(r->defer[i].path);
	free(r->defer);
	free(r);
}

size_t tt_describe_rules_count(const tt_describe_rules *r) { return r->n; }
size_t tt_describe_rules_warning_count(const tt_describe_rules *r) { return r->nwarn; }

const char *tt_describe_rules_warning(const tt_describe_rules *r, size_t i)
{
	return i < r->nwarn ? r->warn[i] : NULL;
}

/* ---- parser ------------------------------------------------------------------ */

struct parse {
	tt_describe_rules *r;
	const char *path;
	int layer;
	int in_rule;        /* inside a [rule] block */
	int skip;           /* inside an unknown [section]: lines ignored */
	int line0;          /* line of its header */
	struct rule cur;
	char **cont;        /* value a continuation line extends, or NULL */
};

static int set_str(char **dst, const char *v)
{
	char *s = strdup(v);

	if (!s)
		return TT_ENOMEM;
	free(*dst);
	*dst = s;
	return TT_OK;
}

/* Ends the current rule: validates it and keeps or drops it. */
static int finish_rule(struct parse *p)
{
	struct rule *u = &p->cur;
	tt_describe_rules *r = p->r;
	char where[512], bad[256];
	const char *msg = NULL;
	int rc = TT_OK;

	if (!p->in_rule)
		return TT_OK;
	p->in_rule = 0;
	p->cont = NULL;
	if (!u->desc || !*u->desc)
		msg = "rule has no description";
	else if ((u->nnames > 0) + !!u->glob + !!u->regex_src > 1)
		msg = "rule has more than one of name, glob and regex";
	else
		msg = tt_describe_tmpl_check(u->desc, bad, sizeof(bad));
	if (!msg && u->link)
		msg = tt_describe_tmpl_check(u->link, bad, sizeof(bad));
	/* `glob = *` names nothing: the rule is as broad as its conditions
	 * (a fallback), so it ranks and reports as one */
	if (!msg && u->glob && strspn(u->glob, "*") == strlen(u->glob)) {
		free(u->glob);
		u->glob = NULL;
	}
	if (!msg) {
		u->ncond = 0;
		for (int c = 0; c < C_COUNT; c++)
			u->ncond += u->cond[c] != NULL;
		u->ncond += (int)u->nargs + (u->min_dur >= 0) + (u->max_dur >= 0);
		u->tier = u->nnames ? TIER_EXACT : (u->glob || u->regex_src) ? TIER_PATTERN : TIER_NONE;
		if (u->tier == TIER_NONE && u->ncond == 0)
			msg = "rule matches nothing (no name, glob, regex or condition)";
		else if (u->target == TT_DESCRIBE_TRACK &&
			 (u->cond[C_CATEGORY] || u->cond[C_PARENT] || u->cond[C_ANCESTOR] ||
			  u->nargs || u->min_dur >= 0 || u->max_dur >= 0))
			msg = "a [track] rule may only use thread, process, track and track_type";
		u->kind = tt_describe_rule_kind(u);
	}
	if (!msg && u->regex_src) {
		char eb[128];

		/* no back-references: matching one against a long name can
		 * take minutes (tt_regex_compile) */
		if (tt_regex_compile(&u->re, u->regex_src, REG_EXTENDED | REG_NOSUB, 0, eb, sizeof(eb)) != 0) {
			snprintf(bad, sizeof(bad), "bad regex: %s", eb);
			msg = bad;
		} else {
			u->has_re = 1;
		}
	}
	if (msg) {
		rc = warnf(r, p->path, p->line0, "%s", msg);
		goto drop;
	}
	/* shipped rules of a checkout read "descriptions/x.rules:12" */
	snprintf(where, sizeof(where), "%s:%d",
		 strncmp(p->path, TT_SRCDIR "/", sizeof(TT_SRCDIR)) == 0 ? p->path + sizeof(TT_SRCDIR)
									 : p->path,
		 p->line0);
	if (set_str(&u->where, where) != TT_OK ||
	    tt_describe_grow((void **)&r->rules, &r->cap, r->n + 1, sizeof(*r->rules)) < 0) {
		rc = TT_ENOMEM;
		goto drop;
	}
	u->layer = p->layer;
	u->seq = r->n;
	r->rules[r->n++] = *u;
	memset(u, 0, sizeof(*u));
	return TT_OK;
drop:
	rule_free(u);
	return rc;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
		*--e = '\0';
	return s;
}

static int parse_line(struct parse *p, char *line, int lineno)
{
	struct rule *u = &p->cur;
	char *s, *eq, *key, *val;
	size_t len = strlen(line);

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = '\0';
	if (p->skip && trim(line)[0] != '[')
		return TT_OK; /* the section was reported once */
	/* continuation: leading blank, non-blank rest, after a value */
	if ((line[0] == ' ' || line[0] == '\t') && *(s = trim(line)) && *s != '#') {
		char *nv;

		if (!p->cont)
			return warnf(p->r, p->path, lineno, "continuation line without a value before it");
		nv = malloc(strlen(*p->cont) + strlen(s) + 2);
		if (!nv)
			return TT_ENOMEM;
		sprintf(nv, "%s%s%s", *p->cont, **p->cont ? " " : "", s);
		free(*p->cont);
		*p->cont = nv;
		return TT_OK;
	}
	s = trim(line);
	if (*s == '\0' || *s == '#') {
		p->cont = NULL;
		return TT_OK;
	}
	p->cont = NULL;
	if (*s == '[') {
		int rc = finish_rule(p);

		if (rc != TT_OK)
			return rc;
		p->skip = strcmp(s, "[rule]") != 0 && strcmp(s, "[track]") != 0;
		if (p->skip)
			return warnf(p->r, p->path, lineno,
				     "unknown section '%s' (expected [rule] or [track])", s);
		p->in_rule = 1;
		u->target = s[1] == 't' ? TT_DESCRIBE_TRACK : TT_DESCRIBE_SLICE;
		u->min_dur = u->max_dur = -1;
		p->line0 = lineno;
		return TT_OK;
	}
	eq = strchr(s, '=');
	if (!eq)
		return warnf(p->r, p->path, lineno, "expected 'key = value' or [rule]");
	*eq = '\0';
	key = trim(s);
	val = trim(eq + 1);
	if (!p->in_rule)
		return warnf(p->r, p->path, lineno, "'%s' outside a [rule] block", key);
	if (strcmp(key, "description") == 0 || strcmp(key, "link") == 0) {
		char **dst = key[0] == 'd' ? &u->desc : &u->link;

		if (*dst && warnf(p->r, p->path, lineno, "duplicate '%s' (the later one is used)",
				  key) != TT_OK)
			return TT_ENOMEM;
		if (set_str(dst, val) != TT_OK)
			return TT_ENOMEM;
		p->cont = dst;
		return TT_OK;
	}
	if (*val == '\0')
		return warnf(p->r, p->path, lineno, "empty value for '%s'", key);
	/* "..." keeps blanks a bare value would lose: Chrome pads some names
	 * with trailing spaces ("Frame   ") to keep parallel slices apart */
	if (val[0] == '"' && strlen(val) >= 2 && val[strlen(val) - 1] == '"') {
		val[strlen(val) - 1] = '\0';
		val++;
		if (*val == '\0')
			return warnf(p->r, p->path, lineno, "empty value for '%s'", key);
	}
	if (strcmp(key, "name") == 0) {
		char *nm = strdup(val);
		size_t cap = u->nnames; /* exact size: names grow by one */

		if (!nm || tt_describe_grow((void **)&u->names, &cap, u->nnames + 1, sizeof(*u->names)) < 0) {
			free(nm);
			return TT_ENOMEM;
		}
		u->names[u->nnames++] = nm;
		return TT_OK;
	}
	if (strcmp(key, "glob") == 0 || strcmp(key, "regex") == 0) {
		char **dst = key[0] == 'g' ? &u->glob : &u->regex_src;

		if (*dst && warnf(p->r, p->path, lineno, "duplicate '%s' (the later one is used)",
				  key) != TT_OK)
			return TT_ENOMEM;
		return set_str(dst, val);
	}
	for (int c = 0; c < C_COUNT; c++) {
		if (strcmp(key, tt_describe_cond_key[c]) == 0) {
			if (u->cond[c] &&
			    warnf(p->r, p->path, lineno, "duplicate '%s' (the later one is used)",
				  key) != TT_OK)
				return TT_ENOMEM;
			return set_str(&u->cond[c], val);
		}
	}
	if (strcmp(key, "min_dur") == 0 || strcmp(key, "max_dur") == 0) {
		int64_t *dst = key[1] == 'i' ? &u->min_dur : &u->max_dur;

		*dst = tt_describe_parse_dur(val);
		if (*dst < 0)
			return warnf(p->r, p->path, lineno,
				     "bad duration '%s' (e.g. 50ms, 1.5 s, 200us)", val);
		return TT_OK;
	}
	if (strncmp(key, "args.", 5) == 0 && key[5]) {
		char *k = strdup(key + 5), *v = strdup(val), **nk, **nv;

		nk = k && v ? realloc(u->arg_key, (u->nargs + 1) * sizeof(*nk)) : NULL;
		if (nk)
			u->arg_key = nk;
		nv = nk ? realloc(u->arg_pat, (u->nargs + 1) * sizeof(*nv)) : NULL;
		if (!nv) {
			free(k);
			free(v);
			return TT_ENOMEM;
		}
		u->arg_pat = nv;
		u->arg_key[u->nargs] = k;
		u->arg_pat[u->nargs++] = v;
		return TT_OK;
	}
	return warnf(p->r, p->path, lineno, "unknown key '%s'", key);
}

/* Parses one file's lines from f (or text when f is NULL). */
static int parse_stream(tt_describe_rules *r, const char *path, FILE *f, const char *text, int layer)
{
	struct parse p = { .r = r, .path = path, .layer = layer };
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0, rc = TT_OK;

	r->compiled = 0;
	for (;;) {
		if (f) {
			if (getline(&line, &cap, f) < 0)
				break;
		} else {
			const char *nl;
			size_t len;

			if (!*text)
				break;
			nl = strchr(text, '\n');
			len = nl ? (size_t)(nl - text) : strlen(text);
			if (tt_describe_grow((void **)&line, &cap, len + 1, 1) < 0) {
				rc = TT_ENOMEM;
				break;
			}
			memcpy(line, text, len);
			line[len] = '\0';
			text += len + (nl != NULL);
		}
		lineno++;
		rc = parse_line(&p, line, lineno);
		if (rc != TT_OK)
			break;
	}
	if (rc == TT_OK)
		rc = finish_rule(&p);
	rule_free(&p.cur);
	free(line);
	return rc;
}

int tt_describe_rules_load_text(tt_describe_rules *r, const char *name, const char *text, int layer)
{
	return parse_stream(r, name, NULL, text, layer);
}

static int ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && strcmp(s + a - b, suf) == 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int load_file(tt_describe_rules *r, const char *path, int layer)
{
	FILE *f = fopen(path, "r");
	int rc;

	if (!f)
		return warnf(r, path, 0, "cannot open rule file");
	rc = parse_stream(r, path, f, NULL, layer);
	fclose(f);
	return rc;
}

int tt_describe_rules_load(tt_describe_rules *r, const char *path, int layer)
{
	DIR *d = opendir(path);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = TT_OK;

	if (!d) {
		FILE *f = fopen(path, "r");

		if (!f)
			return TT_OK; /* a missing folder is normal */
		fclose(f);
		return load_file(r, path, layer);
	}
	while ((e = readdir(d)) != NULL) {
		char *full;

		if (e->d_name[0] == '.' || !ends_with(e->d_name, ".rules"))
			continue;
		full = malloc(strlen(path) + strlen(e->d_name) + 2);
		if (!full || tt_describe_grow((void **)&names, &cap, n + 1, sizeof(*names)) < 0) {
			free(full);
			rc = TT_ENOMEM;
			break;
		}
		sprintf(full, "%s/%s", path, e->d_name);
		names[n++] = full;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++) {
		if (rc == TT_OK)
			rc = load_file(r, names[i], layer);
		free(names[i]);
	}
	free(names);
	return rc;
}

/* ---- registration ------------------------------------------------------------ */

static int is_dir(const char *path)
{
	DIR *d = opendir(path);

	if (!d)
		return 0;
	closedir(d);
	return 1;
}

/* Notes path as layer `layer`, to be read by tt_describe_rules_ready. */
static int defer_load(tt_describe_rules *r, const char *path, int layer)
{
	char *copy;

	if (tt_describe_grow((void **)&r->defer, &r->ndefer_cap, r->ndefer + 1, sizeof(*r->defer)) < 0 ||
	    !(copy = strdup(path)))
		return TT_ENOMEM;
	r->defer[r->ndefer].path = copy;
	r->defer[r->ndefer++].layer = layer;
	return TT_OK;
}

/* Chooses the search path (see describe.h) from the environment now. */
static int plan_default(tt_describe_rules *r)
{
	const char *env = getenv("TT_DESCRIPTIONS_PATH");
	char path[4096];
	const char *cfg, *home;
	int rc, layer = 0;

	r->deferred = 1;
	if (env) {
		char *copy = strdup(env), *save = NULL;

		if (!copy)
			return TT_ENOMEM;
		rc = TT_OK;
		for (char *tok = strtok_r(copy, ":", &save); tok && rc == TT_OK;
		     tok = strtok_r(NULL, ":", &save))
			rc = defer_load(r, tok, layer++);
		free(copy);
		return rc;
	}
	snprintf(path, sizeof(path), "%s/descriptions", TT_SRCDIR);
	if (!is_dir(path))
		snprintf(path, sizeof(path), "%s/descriptions", TT_DATADIR);
	rc = defer_load(r, path, 0);
	if (rc != TT_OK)
		return rc;
	cfg = getenv("XDG_CONFIG_HOME");
	home = getenv("HOME");
	if (cfg && *cfg)
		snprintf(path, sizeof(path), "%s/termtrace/descriptions", cfg);
	else if (home && *home)
		snprintf(path, sizeof(path), "%s/.config/termtrace/descriptions", home);
	else
		return TT_OK;
	return defer_load(r, path, 1);
}

int tt_describe_rules_ready(tt_describe_rules *r)
{
	int rc = TT_OK;

	if (!r->deferred)
		return r->ready_rc;
	r->deferred = 0;
	for (size_t i = 0; i < r->ndefer && rc == TT_OK; i++)
		rc = tt_describe_rules_load(r, r->defer[i].path, r->defer[i].layer);
	if (rc == TT_OK && r->n)
		rc = tt_describe_compile(r);
	r->ready_rc = rc;
	return rc;
}

static void warnings_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	tt_describe_rules *r = sqlite3_user_data(ctx);
	struct out o = { 0 };

	(void)argc;
	(void)argv;
	if (tt_describe_rules_ready(r) != TT_OK) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	if (r->nwarn == 0) {
		sqlite3_result_null(ctx);
		return;
	}
	for (size_t i = 0; i < r->nwarn; i++) {
		tt_describe_out_str(&o, r->warn[i]);
		if (i + 1 < r->nwarn)
			tt_describe_out_str(&o, "\n");
	}
	if (o.oom)
		sqlite3_result_error_nomem(ctx);
	else
		sqlite3_result_text(ctx, o.s, (int)o.n, free);
	if (o.oom)
		free(o.s);
}

static void unref_void(void *p)
{
	tt_describe_rules_unref(p);
}

int tt_describe_register(sqlite3 *db, tt_storage *st)
{
	tt_describe_rules *r = tt_describe_rules_new();
	int rc;

	if (!r)
		return SQLITE_NOMEM;
	if (plan_default(r) != TT_OK) {
		tt_describe_rules_unref(r);
		return SQLITE_NOMEM;
	}
	rc = tt_vtab_describe_slice_register(db, st, r);
	if (rc == SQLITE_OK)
		rc = tt_vtab_describe_track_register(db, st, r);
	if (rc == SQLITE_OK)
		rc = tt_vtab_describe_rules_register(db, st, r);
	if (rc == SQLITE_OK) {
		tt_describe_rules_ref(r);
		rc = sqlite3_create_function_v2(db, "describe_warnings", 0, SQLITE_UTF8, r,
						warnings_fn, NULL, NULL, unref_void);
	}
	tt_describe_rules_unref(r);
	return rc;
}
