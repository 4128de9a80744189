/*
 * describe_match.c - the compiled lookup and the matcher: which rule
 * describes a slice or a track, and of what kind that rule is. Also the
 * per-rule statistics behind `termtrace describe --lint`.
 *
 * Priority (first difference decides): name kind (exact > glob = regex >
 * none), then the number of conditions (category, parent, ancestor,
 * thread, process, track, track_type, args.KEY, min_dur, max_dur), then
 * the layer (user > shipped), then the later rule. Exact rules sit in a
 * hash keyed on the name (one per target), so a slice costs one lookup
 * plus the pattern rules, never a scan of every rule.
 */
#include "describe_int.h"
#include "err.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[TT_KIND_COUNT] = {
	"name", "glob", "regex", "context", "fallback",
};

const char *tt_describe_kind_name(int kind)
{
	return kind >= 0 && kind < TT_KIND_COUNT ? kind_names[kind] : "?";
}

int tt_describe_rule_kind(const struct rule *u)
{
	int ctx = u->nargs > 0 || u->min_dur >= 0 || u->max_dur >= 0;

	for (int c = 0; c < C_COUNT; c++)
		ctx |= c != C_CATEGORY && u->cond[c] != NULL;
	if (u->tier == TIER_NONE)
		return TT_KIND_FALLBACK;
	/* a category narrows a name without being context about the slice */
	if (ctx)
		return TT_KIND_CONTEXT;
	return u->nnames ? TT_KIND_NAME : u->glob ? TT_KIND_GLOB : TT_KIND_REGEX;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static void nc_drop(tt_describe_rules *r)
{
	free(r->nc_ids);
	free(r->nc_bits);
	r->nc_ids = NULL;
	r->nc_bits = NULL;
	r->nc_st = NULL;
	r->nc_cap = r->nc_n = r->nc_row = 0;
}

void tt_describe_uncompile(tt_describe_rules *r)
{
	nc_drop(r);
	free(r->order);
	r->order = NULL;
	for (int t = 0; t < 2; t++) {
		struct lookup *l = &r->lk[t];

		free(l->buckets);
		free(l->ents);
		free(l->patterns);
		memset(l, 0, sizeof(*l));
	}
	r->compiled = 0;
}

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

/* Merge sort of indices (qsort has no context argument). */
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

static int compile_target(tt_describe_rules *r, int target)
{
	struct lookup *l = &r->lk[target];
	size_t nexact = 0;

	for (size_t i = 0; i < r->n; i++)
		if (r->rules[i].target == target)
			nexact += r->rules[i].nnames;
	l->nbuckets = 16;
	while (l->nbuckets < nexact * 2)
		l->nbuckets *= 2;
	l->buckets = malloc(l->nbuckets * sizeof(*l->buckets));
	l->ents = malloc((nexact + 1) * sizeof(*l->ents));
	l->patterns = malloc((r->n + 1) * sizeof(*l->patterns));
	if (!l->buckets || !l->ents || !l->patterns)
		return TT_ENOMEM;
	for (size_t b = 0; b < l->nbuckets; b++)
		l->buckets[b] = SIZE_MAX;
	/* Walk worst first and push at the bucket head: chains end up best
	 * first, so the first matching entry of a name is the winner. */
	for (size_t k = r->n; k-- > 0;) {
		const struct rule *u = &r->rules[r->order[k]];

		if (u->target != target)
			continue;
		for (size_t i = 0; i < u->nnames; i++) {
			struct hent *h = &l->ents[l->nents];

			h->hash = hash_str(u->names[i]);
			h->name = u->names[i];
			h->rule = r->order[k];
			h->next = l->buckets[h->hash & (l->nbuckets - 1)];
			l->buckets[h->hash & (l->nbuckets - 1)] = l->nents++;
		}
	}
	for (size_t k = 0; k < r->n; k++) {
		const struct rule *u = &r->rules[r->order[k]];

		if (u->target == target && !u->nnames)
			l->patterns[l->npatterns++] = r->order[k];
	}
	return TT_OK;
}

int tt_describe_compile(tt_describe_rules *r)
{
	size_t *tmp;

	tt_describe_uncompile(r);
	r->order = malloc((r->n + 1) * sizeof(*r->order));
	tmp = malloc((r->n + 1) * sizeof(*tmp));
	if (!r->order || !tmp)
		goto oom;
	for (size_t i = 0; i < r->n; i++)
		r->order[i] = i;
	sort_order(r->rules, r->order, tmp, r->n);
	if (compile_target(r, TT_DESCRIBE_SLICE) != TT_OK ||
	    compile_target(r, TT_DESCRIBE_TRACK) != TT_OK)
		goto oom;
	free(tmp);
	r->compiled = 1;
	return TT_OK;
oom:
	free(tmp);
	tt_describe_uncompile(r);
	return TT_ENOMEM;
}

/* ---- what a rule sees ---------------------------------------------------- */

static void fill_track(struct sctx *x, const tt_storage *st, uint32_t t)
{
	x->track_id = t;
	if (t < st->track.n) {
		x->utid = st->track.utid[t];
		x->upid = st->track.upid[t];
		x->track = tt_describe_str(st, st->track.name[t]);
		x->track_type = tt_describe_str(st, st->track.type[t]);
	}
	if (x->utid < st->thread.n) {
		x->thread = tt_describe_str(st, st->thread.name[x->utid]);
		if (x->upid == TT_NONE)
			x->upid = st->thread.upid[x->utid];
	}
	if (x->upid < st->process.n)
		x->process = tt_describe_str(st, st->process.name[x->upid]);
}

static int sctx_fill(struct sctx *x, const tt_storage *st, int target, int64_t id)
{
	memset(x, 0, sizeof(*x));
	x->st = st;
	x->target = target;
	x->id = id;
	x->utid = x->upid = x->track_id = TT_NONE;
	x->name = x->cat = x->thread = x->process = x->track = x->track_type = "";
	if (target == TT_DESCRIBE_SLICE) {
		if (id < 0 || (size_t)id >= st->slice.n)
			return 0;
		x->name_id = st->slice.name[id];
		x->name = tt_describe_str(st, x->name_id);
		x->cat = tt_describe_str(st, st->slice.cat[id]);
		fill_track(x, st, st->slice.track[id]);
		return 1;
	}
	if (id < 0 || (size_t)id >= st->track.n)
		return 0;
	fill_track(x, st, (uint32_t)id);
	/* a track is known by its name; a thread or process track often has
	 * none and goes by its thread's or process's name, as in the viewer */
	x->name = *x->track ? x->track : st->track.utid[id] != TT_NONE ? x->thread : x->process;
	return 1;
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
	if (x->target != TT_DESCRIBE_SLICE)
		return 1; /* the slice conditions are refused on [track] rules */
	if (u->min_dur >= 0 && !(st->slice.dur[x->id] >= u->min_dur))
		return 0;
	if (u->max_dur >= 0 && !(st->slice.dur[x->id] >= 0 && st->slice.dur[x->id] <= u->max_dur))
		return 0;
	if (c[C_PARENT]) {
		int64_t p = st->slice.parent_id[x->id];

		if (p < 0 || (size_t)p >= st->slice.n ||
		    !glob_ok(c[C_PARENT], tt_describe_str(st, st->slice.name[p])))
			return 0;
	}
	if (c[C_ANCESTOR]) {
		int64_t p = st->slice.parent_id[x->id];
		size_t hops = 0;

		/* hops bound: a corrupt parent chain must not loop */
		while (p >= 0 && (size_t)p < st->slice.n && hops++ < st->slice.n) {
			if (glob_ok(c[C_ANCESTOR], tt_describe_str(st, st->slice.name[p])))
				break;
			p = st->slice.parent_id[p];
		}
		if (p < 0 || (size_t)p >= st->slice.n || hops > st->slice.n)
			return 0;
	}
	for (size_t i = 0; i < u->nargs; i++) {
		char buf[512];

		if (!tt_describe_arg_text(x, u->arg_key[i], strlen(u->arg_key[i]), buf, sizeof(buf)) ||
		    !glob_ok(u->arg_pat[i], buf))
			return 0;
	}
	return 1;
}

static int name_ok(const struct rule *u, const char *name)
{
	if (u->nnames) {
		for (size_t i = 0; i < u->nnames; i++)
			if (strcmp(u->names[i], name) == 0)
				return 1;
		return 0;
	}
	if (u->glob && !glob_ok(u->glob, name))
		return 0;
	if (u->has_re && regexec(&u->re, name, 0, NULL, 0) != 0)
		return 0;
	return 1;
}

enum { NC_MAX = 1 << 20 }; /* names cached at most; later ones are matched directly */

static uint64_t nc_slot(uint32_t id, size_t cap)
{
	return (id * 0x9E3779B97F4A7C15ull >> 17) & (cap - 1);
}

static int nc_grow(tt_describe_rules *r)
{
	size_t ncap = r->nc_cap ? r->nc_cap * 2 : 1024;
	uint32_t *ids = calloc(ncap, sizeof(*ids));
	uint8_t *bits = malloc(ncap * r->nc_row);

	if (!ids || !bits) {
		free(ids);
		free(bits);
		return -1;
	}
	for (size_t i = 0; i < r->nc_cap; i++) {
		size_t j;

		if (!r->nc_ids[i])
			continue;
		for (j = nc_slot(r->nc_ids[i], ncap); ids[j]; j = (j + 1) & (ncap - 1))
			;
		ids[j] = r->nc_ids[i];
		memcpy(bits + j * r->nc_row, r->nc_bits + i * r->nc_row, r->nc_row);
	}
	free(r->nc_ids);
	free(r->nc_bits);
	r->nc_ids = ids;
	r->nc_bits = bits;
	r->nc_cap = ncap;
	return 0;
}

/* The pattern bits of x's name, computed on first sight; NULL when there
 * is no cache for it (a track, out of memory, too many names): the caller
 * then tries the patterns itself. */
static const uint8_t *nc_bits(tt_describe_rules *r, const struct sctx *x)
{
	const struct lookup *l = &r->lk[TT_DESCRIBE_SLICE];
	uint8_t *row;
	size_t j;

	if (x->target != TT_DESCRIBE_SLICE || !x->name_id || !l->npatterns)
		return NULL;
	if (r->nc_st != x->st) {
		nc_drop(r);
		r->nc_st = x->st;
		r->nc_row = (l->npatterns + 7) / 8;
	}
	if (r->nc_cap) {
		for (j = nc_slot(x->name_id, r->nc_cap); r->nc_ids[j]; j = (j + 1) & (r->nc_cap - 1))
			if (r->nc_ids[j] == x->name_id)
				return r->nc_bits + j * r->nc_row;
	}
	if (r->nc_n >= NC_MAX)
		return NULL;
	if ((r->nc_n + 1) * 2 > r->nc_cap && nc_grow(r) < 0)
		return NULL;
	for (j = nc_slot(x->name_id, r->nc_cap); r->nc_ids[j]; j = (j + 1) & (r->nc_cap - 1))
		;
	r->nc_ids[j] = x->name_id;
	r->nc_n++;
	row = r->nc_bits + j * r->nc_row;
	memset(row, 0, r->nc_row);
	for (size_t k = 0; k < l->npatterns; k++)
		if (name_ok(&r->rules[l->patterns[k]], x->name))
			row[k / 8] |= (uint8_t)(1u << (k % 8));
	return row;
}

/* Calls fn on every rule that matches x, best first, until fn returns
 * nonzero; returns that rule or NULL. */
static const struct rule *each_match(tt_describe_rules *r, const struct sctx *x,
				     int (*fn)(const struct rule *, void *), void *arg)
{
	const struct lookup *l = &r->lk[x->target];
	uint64_t h = hash_str(x->name);
	const uint8_t *bits;

	for (size_t e = l->buckets[h & (l->nbuckets - 1)]; e != SIZE_MAX; e = l->ents[e].next) {
		const struct hent *he = &l->ents[e];
		const struct rule *u = &r->rules[he->rule];

		if (he->hash == h && strcmp(he->name, x->name) == 0 && conds_ok(u, x) && fn(u, arg))
			return u;
	}
	bits = nc_bits(r, x);
	for (size_t k = 0; k < l->npatterns; k++) {
		const struct rule *u = &r->rules[l->patterns[k]];

		if (bits ? !(bits[k / 8] & (1u << (k % 8))) : !name_ok(u, x->name))
			continue;
		if (conds_ok(u, x) && fn(u, arg))
			return u;
	}
	return NULL;
}

static int take_first(const struct rule *u, void *arg)
{
	(void)u;
	(void)arg;
	return 1;
}

int tt_describe_match(tt_describe_rules *r, const tt_storage *st, int target, int64_t id,
		      struct tt_describe_hit *hit)
{
	const struct rule *u;
	struct sctx x;

	memset(hit, 0, sizeof(*hit));
	if (r->n == 0 || (target != TT_DESCRIBE_SLICE && target != TT_DESCRIBE_TRACK))
		return 0;
	if (!r->compiled && tt_describe_compile(r) != TT_OK)
		return -1;
	if (!sctx_fill(&x, st, target, id))
		return 0;
	u = each_match(r, &x, take_first, NULL);
	if (!u)
		return 0;
	hit->desc = tt_describe_expand(u->desc, &x);
	if (u->link && *u->link)
		hit->link = tt_describe_expand(u->link, &x);
	if (!hit->desc || (u->link && *u->link && !hit->link)) {
		free(hit->desc);
		free(hit->link);
		memset(hit, 0, sizeof(*hit));
		return -1;
	}
	hit->where = u->where;
	hit->kind = u->kind;
	return 1;
}

/* ---- lint support ---------------------------------------------------------- */

struct tally {
	const struct rule *base, *winner;
	uint64_t *matched, *tied;
};

static int count_one(const struct rule *u, void *arg)
{
	struct tally *t = arg;
	const struct rule *w = t->winner;

	t->matched[u - t->base]++;
	/* lost only to the order of rules: same name kind, conditions and
	 * layer, so the later rule hides this one for this slice */
	if (u != w && u->tier == w->tier && u->ncond == w->ncond && u->layer == w->layer)
		t->tied[u - t->base]++;
	return 0; /* go on: every matching rule is counted */
}

/* Adds the counts of one slice or track to the arrays. */
static void tally_one(tt_describe_rules *r, const tt_storage *st, int target, int64_t id,
		      struct tally *t, uint64_t *won)
{
	struct sctx x;
	const struct rule *w;

	if (!sctx_fill(&x, st, target, id))
		return;
	w = each_match(r, &x, take_first, NULL);
	if (!w)
		return;
	won[w - r->rules]++;
	t->winner = w;
	each_match(r, &x, count_one, t);
}

int tt_describe_rules_tally(tt_describe_rules *r, const tt_storage *st, int target, int64_t id,
			    uint64_t *matched, uint64_t *won, uint64_t *tied)
{
	struct tally t = { r->rules, NULL, matched, tied };

	if (r->n == 0)
		return TT_OK;
	if (!r->compiled && tt_describe_compile(r) != TT_OK)
		return TT_ENOMEM;
	if (target >= 0) {
		tally_one(r, st, target, id, &t, won);
		return TT_OK;
	}
	for (target = 0; target < 2; target++) {
		size_t n = target == TT_DESCRIBE_SLICE ? st->slice.n : st->track.n;

		for (size_t i = 0; i < n; i++)
			tally_one(r, st, target, (int64_t)i, &t, won);
	}
	return TT_OK;
}

static int same_conds(const struct rule *a, const struct rule *b)
{
	if (a->target != b->target || a->nargs != b->nargs || a->min_dur != b->min_dur ||
	    a->max_dur != b->max_dur)
		return 0;
	for (int c = 0; c < C_COUNT; c++) {
		if (!a->cond[c] != !b->cond[c])
			return 0;
		if (a->cond[c] && strcmp(a->cond[c], b->cond[c]) != 0)
			return 0;
	}
	for (size_t i = 0; i < a->nargs; i++)
		if (strcmp(a->arg_key[i], b->arg_key[i]) != 0 ||
		    strcmp(a->arg_pat[i], b->arg_pat[i]) != 0)
			return 0;
	return 1;
}

/* Does b match every slice a matches, with the same conditions? Names: all
 * of a's names are b's; a glob or regex: the same text, or b a glob that
 * matches a's glob text (b `V8.*` covers a `V8.GC_*`). */
static int covers(const struct rule *b, const struct rule *a)
{
	if (!same_conds(a, b))
		return 0;
	if (a->nnames) {
		for (size_t i = 0; i < a->nnames; i++)
			if (!name_ok(b, a->names[i]))
				return 0;
		return b->nnames > 0 || b->glob; /* a regex is not tried on names */
	}
	if (a->glob)
		return b->glob && (strcmp(a->glob, b->glob) == 0 || glob_ok(b->glob, a->glob));
	if (a->regex_src)
		return b->regex_src && strcmp(a->regex_src, b->regex_src) == 0;
	return !b->nnames && !b->glob && !b->regex_src;
}

int tt_describe_rule_info_get(tt_describe_rules *r, size_t i, struct tt_describe_rule_info *out)
{
	const struct rule *u;

	memset(out, 0, sizeof(*out));
	if (i >= r->n)
		return 0;
	u = &r->rules[i];
	out->where = u->where;
	out->target = u->target;
	out->kind = u->kind;
	out->matcher = u->nnames ? u->names[0] : u->glob ? u->glob : u->regex_src ? u->regex_src : "";
	out->link = u->link;
	out->desc_len = strlen(u->desc);
	/* a rule that ranks above u and matches all u matches hides it */
	for (size_t j = 0; j < r->n; j++) {
		const struct rule *b = &r->rules[j];

		if (j != i && rule_better(b, u) && covers(b, u)) {
			out->shadowed_by = b->where;
			break;
		}
	}
	return 1;
}
