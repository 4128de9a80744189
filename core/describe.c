/*
 * describe.c - the description rules: parser, compiled lookup, matcher and
 * template expansion (the SQL glue is in vtab_describe_slice.c). File format
 * and matching order are documented in docs/descriptions.md; in short:
 *
 *   # comment
 *   [rule]
 *   name = measure                 (exact; may repeat: any of them)
 *   ancestor = Choreographer#doFrame
 *   description = Measures the {name} pass, {dur} here.
 *     A line starting with blanks continues the previous value.
 *   link = https://developer.android.com/...
 *
 * Priority (first difference decides): name kind (exact > glob = regex >
 * none), then the number of context conditions (category, parent,
 * ancestor, thread, process, track, track_type, args.KEY), then the layer (user >
 * shipped), then the later rule. Exact rules sit in a hash keyed on the
 * name, so a slice costs one lookup plus the pattern rules, never a scan of
 * every rule.
 *
 * Known limits: comments are whole lines only (`#` inside a value is
 * text); a value is one paragraph (continuations are joined by one
 * space); conditions other than regex are fnmatch(3) globs on the whole
 * string; templates see the slice's own args only, not its ancestors'.
 */
#include "describe.h"
#include "err.h"
#include "storage_int.h"
#include "termtrace.h"

#include <ctype.h>
#include <dirent.h>
#include <fnmatch.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TIER_NONE = 0, TIER_PATTERN = 2, TIER_EXACT = 3 };

/* Context conditions: each is a glob on one text of the slice. */
enum cond {
	C_CATEGORY, C_PARENT, C_ANCESTOR, C_THREAD, C_PROCESS, C_TRACK, C_TRACK_TYPE,
	C_COUNT
};
static const char *const cond_key[C_COUNT] = {
	"category", "parent", "ancestor", "thread", "process", "track", "track_type",
};

struct rule {
	char **names;   /* exact names (any of them) */
	size_t nnames;
	char *glob;
	char *regex_src;
	regex_t re;
	int has_re;
	char *cond[C_COUNT]; /* NULL = no condition */
	char **arg_key, **arg_pat; /* args.KEY = glob conditions */
	size_t nargs;
	char *desc, *link;
	int tier, ncond, layer;
	size_t seq;     /* load order, later = higher */
	char *where;    /* "path:line" of the [rule] header */
};

struct hent {
	uint64_t hash;
	const char *name;
	size_t rule;    /* index into rules */
	size_t next;    /* next entry of the bucket, SIZE_MAX = end */
};

struct tt_describe_rules {
	int refs;
	struct rule *rules;
	size_t n, cap;
	char **warn;
	size_t nwarn, capwarn;
	/* compiled lookup (rebuilt after a load) */
	int compiled;
	size_t *order;      /* rule indices, best first */
	size_t *buckets;    /* head entry per bucket, SIZE_MAX = empty */
	size_t nbuckets;
	struct hent *ents;
	size_t nents;
	size_t *patterns;   /* non-exact rule indices, best first */
	size_t npatterns;
};

/* ---- small helpers --------------------------------------------------------- */

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static int grow(void **p, size_t *cap, size_t need, size_t esz)
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
	if (grow((void **)&r->warn, &r->capwarn, r->nwarn + 1, sizeof(*r->warn)) < 0 ||
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

static void uncompile(tt_describe_rules *r)
{
	free(r->order);
	free(r->buckets);
	free(r->ents);
	free(r->patterns);
	r->order = r->buckets = r->patterns = NULL;
	r->ents = NULL;
	r->nbuckets = r->nents = r->npatterns = 0;
	r->compiled = 0;
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
	uncompile(r);
	free(r);
}

size_t tt_describe_rules_count(const tt_describe_rules *r) { return r->n; }
size_t tt_describe_rules_warning_count(const tt_describe_rules *r) { return r->nwarn; }

const char *tt_describe_rules_warning(const tt_describe_rules *r, size_t i)
{
	return i < r->nwarn ? r->warn[i] : NULL;
}

/* ---- templates --------------------------------------------------------------- */

/* Fields a template may use besides args.KEY. */
static const char *const tmpl_fields[] = {
	"name", "dur", "ts", "category", "thread", "process", "parent", "track",
	"tid", "pid", "id", "depth", NULL,
};

/* Checks the {fields} of a template; returns NULL or a message. */
static const char *tmpl_check(const char *t, char *bad, size_t badlen)
{
	for (const char *p = t; *p; p++) {
		const char *end;
		size_t len;
		int ok = 0;

		if (*p == '{' && p[1] == '{') {
			p++;
			continue;
		}
		if (*p != '{')
			continue;
		end = strchr(p, '}');
		if (!end)
			return "unclosed '{' in template";
		len = (size_t)(end - p - 1);
		if (len > 5 && strncmp(p + 1, "args.", 5) == 0)
			ok = 1;
		for (int i = 0; !ok && tmpl_fields[i]; i++)
			ok = strlen(tmpl_fields[i]) == len && strncmp(tmpl_fields[i], p + 1, len) == 0;
		if (!ok) {
			snprintf(bad, badlen, "unknown template field {%.*s}", (int)(len > 64 ? 64 : len),
				 p + 1);
			return bad;
		}
		p = end;
	}
	return NULL;
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
		msg = tmpl_check(u->desc, bad, sizeof(bad));
	if (!msg && u->link)
		msg = tmpl_check(u->link, bad, sizeof(bad));
	if (!msg) {
		u->ncond = 0;
		for (int c = 0; c < C_COUNT; c++)
			u->ncond += u->cond[c] != NULL;
		u->ncond += (int)u->nargs;
		u->tier = u->nnames ? TIER_EXACT : (u->glob || u->regex_src) ? TIER_PATTERN : TIER_NONE;
		if (u->tier == TIER_NONE && u->ncond == 0)
			msg = "rule matches nothing (no name, glob, regex or condition)";
	}
	if (!msg && u->regex_src) {
		int e = regcomp(&u->re, u->regex_src, REG_EXTENDED | REG_NOSUB);

		if (e != 0) {
			char eb[128];

			regerror(e, &u->re, eb, sizeof(eb));
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
	snprintf(where, sizeof(where), "%s:%d", p->path, p->line0);
	if (set_str(&u->where, where) != TT_OK ||
	    grow((void **)&r->rules, &r->cap, r->n + 1, sizeof(*r->rules)) < 0) {
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
		p->skip = strcmp(s, "[rule]") != 0;
		if (p->skip)
			return warnf(p->r, p->path, lineno, "unknown section '%s' (expected [rule])", s);
		p->in_rule = 1;
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
	if (strcmp(key, "name") == 0) {
		char *nm = strdup(val);
		size_t cap = u->nnames; /* exact size: names grow by one */

		if (!nm || grow((void **)&u->names, &cap, u->nnames + 1, sizeof(*u->names)) < 0) {
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
		if (strcmp(key, cond_key[c]) == 0) {
			if (u->cond[c] &&
			    warnf(p->r, p->path, lineno, "duplicate '%s' (the later one is used)",
				  key) != TT_OK)
				return TT_ENOMEM;
			return set_str(&u->cond[c], val);
		}
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
			if (grow((void **)&line, &cap, len + 1, 1) < 0) {
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
		if (!full || grow((void **)&names, &cap, n + 1, sizeof(*names)) < 0) {
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

/* ---- compiled lookup --------------------------------------------------------- */

/* Best first: tier, conditions, layer, later rule. */
static int rule_better(const struct rule *a, const struct rule *b)
{
	if (a->tier != b->tier)
		return a->tier > b->tier;
	if (a->ncond != b->ncond)
		return a->ncond > b->ncond;
	if (a->layer != b->layer)
		return a->layer > b->layer;
	return a->seq > b->seq;
}

/* Insertion-free merge sort of indices (qsort has no context argument). */
static void sort_order(const struct rule *rules, size_t *v, size_t *tmp, size_t n)
{
	size_t i, j, k, mid;

	if (n < 2)
		return;
	mid = n / 2;
	sort_order(rules, v, tmp, mid);
	sort_order(rules, v + mid, tmp, n - mid);
	for (i = 0, j = mid, k = 0; i < mid || j < n;) {
		if (j >= n || (i < mid && !rule_better(&rules[v[j]], &rules[v[i]])))
			tmp[k++] = v[i++];
		else
			tmp[k++] = v[j++];
	}
	memcpy(v, tmp, n * sizeof(*v));
}

static int compile(tt_describe_rules *r)
{
	size_t *tmp, nexact = 0;

	uncompile(r);
	r->order = malloc((r->n + 1) * sizeof(*r->order));
	tmp = malloc((r->n + 1) * sizeof(*tmp));
	r->patterns = malloc((r->n + 1) * sizeof(*r->patterns));
	if (!r->order || !tmp || !r->patterns)
		goto oom;
	for (size_t i = 0; i < r->n; i++) {
		r->order[i] = i;
		nexact += r->rules[i].nnames;
	}
	sort_order(r->rules, r->order, tmp, r->n);
	r->nbuckets = 16;
	while (r->nbuckets < nexact * 2)
		r->nbuckets *= 2;
	r->buckets = malloc(r->nbuckets * sizeof(*r->buckets));
	r->ents = malloc((nexact + 1) * sizeof(*r->ents));
	if (!r->buckets || !r->ents)
		goto oom;
	for (size_t b = 0; b < r->nbuckets; b++)
		r->buckets[b] = SIZE_MAX;
	/* Walk worst first and push at the bucket head: chains end up best
	 * first, so the first matching entry of a name is the winner. */
	for (size_t k = r->n; k-- > 0;) {
		const struct rule *u = &r->rules[r->order[k]];

		for (size_t i = 0; i < u->nnames; i++) {
			struct hent *h = &r->ents[r->nents];

			h->hash = hash_str(u->names[i]);
			h->name = u->names[i];
			h->rule = r->order[k];
			h->next = r->buckets[h->hash & (r->nbuckets - 1)];
			r->buckets[h->hash & (r->nbuckets - 1)] = r->nents++;
		}
	}
	for (size_t k = 0; k < r->n; k++)
		if (!r->rules[r->order[k]].nnames)
			r->patterns[r->npatterns++] = r->order[k];
	free(tmp);
	r->compiled = 1;
	return TT_OK;
oom:
	free(tmp);
	uncompile(r);
	return TT_ENOMEM;
}

/* ---- matching ---------------------------------------------------------------- */

/* What a rule may look at; filled once per match. */
struct sctx {
	const tt_storage *st;
	int64_t id;
	const char *name, *cat, *thread, *process, *track, *track_type;
	uint32_t utid, upid;
};

static const char *str_or_empty(const tt_storage *st, tt_str s)
{
	const char *t = s ? tt_storage_str(st, s) : NULL;

	return t ? t : "";
}

static void sctx_fill(struct sctx *x, const tt_storage *st, int64_t id)
{
	uint32_t t = st->slice.track[id];

	memset(x, 0, sizeof(*x));
	x->st = st;
	x->id = id;
	x->name = str_or_empty(st, st->slice.name[id]);
	x->cat = str_or_empty(st, st->slice.cat[id]);
	x->utid = x->upid = TT_NONE;
	x->thread = x->process = x->track = x->track_type = "";
	if (t < st->track.n) {
		x->utid = st->track.utid[t];
		x->upid = st->track.upid[t];
		x->track = str_or_empty(st, st->track.name[t]);
		x->track_type = str_or_empty(st, st->track.type[t]);
	}
	if (x->utid < st->thread.n) {
		x->thread = str_or_empty(st, st->thread.name[x->utid]);
		if (x->upid == TT_NONE)
			x->upid = st->thread.upid[x->utid];
	}
	if (x->upid < st->process.n)
		x->process = str_or_empty(st, st->process.name[x->upid]);
}

static int glob_ok(const char *pat, const char *s)
{
	return fnmatch(pat, s, 0) == 0;
}

/* A category matches as a whole or by one of its comma-separated parts
 * (Chrome writes "v8,devtools.timeline"). */
static int category_ok(const char *pat, const char *cat)
{
	char part[256];

	if (glob_ok(pat, cat))
		return 1;
	while (*cat) {
		const char *c = strchr(cat, ',');
		size_t len = c ? (size_t)(c - cat) : strlen(cat);

		if (len < sizeof(part)) {
			memcpy(part, cat, len);
			part[len] = '\0';
			if (glob_ok(pat, part))
				return 1;
		}
		if (!c)
			break;
		cat = c + 1;
	}
	return 0;
}

static int arg_text(const struct sctx *x, const char *key, size_t klen, char *buf, size_t len);

static int conds_ok(const struct rule *u, const struct sctx *x)
{
	const tt_storage *st = x->st;
	const char *const *c = (const char *const *)u->cond;

	if (c[C_CATEGORY] && !category_ok(c[C_CATEGORY], x->cat))
		return 0;
	if (c[C_THREAD] && !glob_ok(c[C_THREAD], x->thread))
		return 0;
	if (c[C_PROCESS] && !glob_ok(c[C_PROCESS], x->process))
		return 0;
	if (c[C_TRACK] && !glob_ok(c[C_TRACK], x->track))
		return 0;
	if (c[C_TRACK_TYPE] && !glob_ok(c[C_TRACK_TYPE], x->track_type))
		return 0;
	if (c[C_PARENT]) {
		int64_t p = st->slice.parent_id[x->id];

		if (p < 0 || (size_t)p >= st->slice.n ||
		    !glob_ok(c[C_PARENT], str_or_empty(st, st->slice.name[p])))
			return 0;
	}
	if (c[C_ANCESTOR]) {
		int64_t p = st->slice.parent_id[x->id];
		size_t hops = 0;

		/* hops bound: a corrupt parent chain must not loop */
		while (p >= 0 && (size_t)p < st->slice.n && hops++ < st->slice.n) {
			if (glob_ok(c[C_ANCESTOR], str_or_empty(st, st->slice.name[p])))
				break;
			p = st->slice.parent_id[p];
		}
		if (p < 0 || (size_t)p >= st->slice.n || hops > st->slice.n)
			return 0;
	}
	for (size_t i = 0; i < u->nargs; i++) {
		char buf[512];

		if (!arg_text(x, u->arg_key[i], strlen(u->arg_key[i]), buf, sizeof(buf)) ||
		    !glob_ok(u->arg_pat[i], buf))
			return 0;
	}
	return 1;
}

static const struct rule *find_rule(const tt_describe_rules *r, const struct sctx *x)
{
	uint64_t h = hash_str(x->name);

	for (size_t e = r->buckets[h & (r->nbuckets - 1)]; e != SIZE_MAX; e = r->ents[e].next) {
		const struct hent *he = &r->ents[e];

		if (he->hash == h && strcmp(he->name, x->name) == 0 && conds_ok(&r->rules[he->rule], x))
			return &r->rules[he->rule];
	}
	for (size_t k = 0; k < r->npatterns; k++) {
		const struct rule *u = &r->rules[r->patterns[k]];

		if (u->glob && !glob_ok(u->glob, x->name))
			continue;
		if (u->has_re && regexec(&u->re, x->name, 0, NULL, 0) != 0)
			continue;
		if (conds_ok(u, x))
			return u;
	}
	return NULL;
}

/* A growing output string; oom sticks. */
struct out {
	char *s;
	size_t n, cap;
	int oom;
};

static void out_add(struct out *o, const char *s, size_t len)
{
	if (o->oom)
		return;
	if (grow((void **)&o->s, &o->cap, o->n + len + 1, 1) < 0) {
		o->oom = 1;
		return;
	}
	memcpy(o->s + o->n, s, len);
	o->n += len;
	o->s[o->n] = '\0';
}

static void out_str(struct out *o, const char *s)
{
	out_add(o, s, strlen(s));
}

/* Durations as everywhere else (tt_dur_text): "21.195ms". */
static void human_dur(int64_t ns, char *buf, size_t len)
{
	if (ns < 0)
		snprintf(buf, len, "unfinished");
	else
		tt_dur_text(ns, 1, buf, len);
}

/* The value of args.KEY: the arg whose key is KEY (else "args.KEY"). */
static int arg_text(const struct sctx *x, const char *key, size_t klen, char *buf, size_t len)
{
	const tt_storage *st = x->st;
	uint32_t set = st->slice.arg_set_id[x->id];
	size_t first, end;

	if (set == TT_NONE || !tt_storage_argset_rows(st, set, &first, &end))
		return 0;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t row = first; row < end; row++) {
			const char *k = str_or_empty(st, st->args.key[row]);

			if (pass == 1) {
				if (strncmp(k, "args.", 5) != 0)
					continue;
				k += 5;
			}
			if (strlen(k) == klen && strncmp(k, key, klen) == 0) {
				const char *t = tt_storage_arg_text(st, row, buf, len);

				if (t != buf)
					snprintf(buf, len, "%s", t ? t : "");
				return 1;
			}
		}
	}
	return 0;
}

static void expand_field(struct out *o, const struct sctx *x, const char *f, size_t len)
{
	const tt_storage *st = x->st;
	char buf[512];

#define IS(lit) (len == sizeof(lit) - 1 && strncmp(f, lit, len) == 0)
	buf[0] = '\0';
	if (len > 5 && strncmp(f, "args.", 5) == 0)
		arg_text(x, f + 5, len - 5, buf, sizeof(buf));
	else if (IS("name"))
		snprintf(buf, sizeof(buf), "%s", x->name);
	else if (IS("dur"))
		human_dur(st->slice.dur[x->id], buf, sizeof(buf));
	else if (IS("ts"))
		snprintf(buf, sizeof(buf), "%lld", (long long)st->slice.ts[x->id]);
	else if (IS("category"))
		snprintf(buf, sizeof(buf), "%s", x->cat);
	else if (IS("thread"))
		snprintf(buf, sizeof(buf), "%s", x->thread);
	else if (IS("process"))
		snprintf(buf, sizeof(buf), "%s", x->process);
	else if (IS("track"))
		snprintf(buf, sizeof(buf), "%s", x->track);
	else if (IS("id"))
		snprintf(buf, sizeof(buf), "%lld", (long long)x->id);
	else if (IS("depth"))
		snprintf(buf, sizeof(buf), "%u", (unsigned)st->slice.depth[x->id]);
	else if (IS("tid") && x->utid < st->thread.n)
		snprintf(buf, sizeof(buf), "%lld", (long long)st->thread.tid[x->utid]);
	else if (IS("pid") && x->upid < st->process.n)
		snprintf(buf, sizeof(buf), "%lld", (long long)st->process.pid[x->upid]);
	else if (IS("parent")) {
		int64_t p = st->slice.parent_id[x->id];

		if (p >= 0 && (size_t)p < st->slice.n)
			snprintf(buf, sizeof(buf), "%s", str_or_empty(st, st->slice.name[p]));
	}
#undef IS
	out_str(o, buf);
}

/* Expands {field}s; "{{" is a literal '{'. Fields were checked at load. */
static char *expand(const char *t, const struct sctx *x)
{
	struct out o = { 0 };

	out_add(&o, "", 0);
	while (*t) {
		const char *b = strchr(t, '{'), *e;

		if (!b) {
			out_str(&o, t);
			break;
		}
		out_add(&o, t, (size_t)(b - t));
		if (b[1] == '{') {
			out_add(&o, "{", 1);
			t = b + 2;
			continue;
		}
		e = strchr(b, '}');
		if (!e) {
			out_str(&o, b);
			break;
		}
		expand_field(&o, x, b + 1, (size_t)(e - b - 1));
		t = e + 1;
	}
	if (o.oom) {
		free(o.s);
		return NULL;
	}
	return o.s;
}

int tt_describe_match(tt_describe_rules *r, const tt_storage *st, int64_t slice_id,
		      char **desc, char **link, const char **where)
{
	const struct rule *u;
	struct sctx x;

	*desc = *link = NULL;
	if (slice_id < 0 || (size_t)slice_id >= st->slice.n || r->n == 0)
		return 0;
	if (!r->compiled && compile(r) != TT_OK)
		return -1;
	sctx_fill(&x, st, slice_id);
	u = find_rule(r, &x);
	if (!u)
		return 0;
	*desc = expand(u->desc, &x);
	if (u->link && *u->link)
		*link = expand(u->link, &x);
	if (!*desc || (u->link && *u->link && !*link)) {
		free(*desc);
		free(*link);
		*desc = *link = NULL;
		return -1;
	}
	if (where)
		*where = u->where;
	return 1;
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

/* Loads the search path (see describe.h). */
static int load_default(tt_describe_rules *r)
{
	const char *env = getenv("TT_DESCRIPTIONS_PATH");
	char path[4096];
	const char *cfg, *home;
	int rc, layer = 0;

	if (env) {
		char *copy = strdup(env), *save = NULL;

		if (!copy)
			return TT_ENOMEM;
		rc = TT_OK;
		for (char *tok = strtok_r(copy, ":", &save); tok && rc == TT_OK;
		     tok = strtok_r(NULL, ":", &save))
			rc = tt_describe_rules_load(r, tok, layer++);
		free(copy);
		return rc;
	}
	snprintf(path, sizeof(path), "%s/descriptions", TT_SRCDIR);
	if (!is_dir(path))
		snprintf(path, sizeof(path), "%s/descriptions", TT_DATADIR);
	rc = tt_describe_rules_load(r, path, 0);
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
	return tt_describe_rules_load(r, path, 1);
}

static void warnings_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const tt_describe_rules *r = sqlite3_user_data(ctx);
	struct out o = { 0 };

	(void)argc;
	(void)argv;
	if (r->nwarn == 0) {
		sqlite3_result_null(ctx);
		return;
	}
	for (size_t i = 0; i < r->nwarn; i++) {
		out_str(&o, r->warn[i]);
		if (i + 1 < r->nwarn)
			out_str(&o, "\n");
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
	if (load_default(r) != TT_OK || (r->n && compile(r) != TT_OK)) {
		tt_describe_rules_unref(r);
		return SQLITE_NOMEM;
	}
	rc = tt_vtab_describe_slice_register(db, st, r);
	if (rc == SQLITE_OK) {
		tt_describe_rules_ref(r);
		rc = sqlite3_create_function_v2(db, "describe_warnings", 0, SQLITE_UTF8, r,
						warnings_fn, NULL, NULL, unref_void);
	}
	tt_describe_rules_unref(r);
	return rc;
}
