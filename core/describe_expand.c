/*
 * describe_expand.c - description templates: the {fields} a rule may use
 * and their expansion for one slice or track, including the numbers that
 * put a slice in its context (share of the parent, children, the longest
 * child). Field list and meaning: docs/descriptions.md.
 *
 * Children are found through the track's rows sorted by ts (storage's CSR
 * index): a slice's children start inside it on the same track, so the
 * walk covers the slice's own subtree only, and only when a template asks.
 */
#include "describe_int.h"
#include "termtrace.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tt_describe_out_add(struct out *o, const char *s, size_t len)
{
	if (o->oom)
		return;
	if (tt_describe_grow((void **)&o->s, &o->cap, o->n + len + 1, 1) < 0) {
		o->oom = 1;
		return;
	}
	memcpy(o->s + o->n, s, len);
	o->n += len;
	o->s[o->n] = '\0';
}

void tt_describe_out_str(struct out *o, const char *s)
{
	tt_describe_out_add(o, s, strlen(s));
}

/* Fields a template may use besides args.KEY / arg:KEY / children:NAME. */
static const char *const tmpl_fields[] = {
	"name", "dur", "ts", "category", "thread", "process", "parent", "track",
	"tid", "pid", "id", "depth", "self", "parent_share", "parent_dur", "children",
	"longest_child", "longest_child_dur", "longest_child_share", "same_children",
	"slices", NULL,
};

static int has_prefix(const char *f, size_t len, const char *pre)
{
	size_t n = strlen(pre);

	return len > n && strncmp(f, pre, n) == 0;
}

const char *tt_describe_tmpl_check(const char *t, char *bad, size_t badlen)
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
		if (has_prefix(p + 1, len, "args.") || has_prefix(p + 1, len, "arg:") ||
		    has_prefix(p + 1, len, "children:"))
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

void tt_describe_human_dur(int64_t ns, char *buf, size_t len)
{
	/* as everywhere else (tt_dur_text): "21.195ms" */
	if (ns < 0)
		snprintf(buf, len, "unfinished");
	else
		tt_dur_text(ns, 1, buf, len);
}

int64_t tt_describe_parse_dur(const char *s)
{
	static const struct { const char *u; double mul; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "", 1 },
	};
	char *end;
	double v = strtod(s, &end);

	if (end == s || !(v >= 0) || v > 9e18)
		return -1;
	while (*end == ' ')
		end++;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(end, units[i].u) == 0 && v * units[i].mul <= 9e18)
			return (int64_t)(v * units[i].mul + 0.5);
	return -1;
}

int tt_describe_arg_text(const struct sctx *x, const char *key, size_t klen, char *buf, size_t len)
{
	const tt_storage *st = x->st;
	uint32_t set;
	size_t first, end;

	if (x->target != TT_DESCRIBE_SLICE)
		return 0;
	set = tt_storage_slice_args(st, x->id);
	if (set == TT_NONE || !tt_storage_argset_rows(st, set, &first, &end))
		return 0;
	/* "data.url" finds the key "data.url", else "args.data.url" (the
	 * Chrome JSON importer keeps the args. prefix) */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t row = first; row < end; row++) {
			const char *k = tt_describe_str(st, st->args.key[row]);

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

/* The direct children of slice id: count, count named like pat (a glob,
 * or NULL), sum of their durations, and the longest one. */
struct kids {
	size_t n, nnamed;
	int64_t sum, longest; /* longest: slice id or -1 */
};

static void children_of(const tt_storage *st, int64_t id, const char *pat, size_t patlen,
			struct kids *k)
{
	uint32_t t = st->slice.track[id], depth = st->slice.depth[id];
	size_t lo, hi, end;
	int64_t ts = st->slice.ts[id], dur = st->slice.dur[id];
	char p[256];

	memset(k, 0, sizeof(*k));
	k->longest = -1;
	if (!st->track.row_off || t >= st->track.n)
		return;
	if (pat)
		snprintf(p, sizeof(p), "%.*s", (int)(patlen < 255 ? patlen : 255), pat);
	lo = st->track.row_off[t];
	end = hi = st->track.row_off[t + 1];
	/* first row with ts >= this slice's ts */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->slice.ts[st->track.rows[mid]] < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < end; i++) {
		uint32_t c = st->track.rows[i];

		if (dur >= 0 && st->slice.ts[c] > ts + dur)
			break;
		/* past the subtree: a slice no deeper than this one starting
		 * later (bounds the walk for slices that never ended) */
		if (st->slice.ts[c] > ts && st->slice.depth[c] <= depth)
			break;
		if (st->slice.parent_id[c] != id)
			continue;
		k->n++;
		if (st->slice.dur[c] > 0)
			k->sum += st->slice.dur[c];
		if (k->longest < 0 || st->slice.dur[c] > st->slice.dur[k->longest])
			k->longest = c;
		if (pat && strcmp(p, tt_describe_str(st, st->slice.name[c])) == 0)
			k->nnamed++;
	}
}

static void share(int64_t part, int64_t whole, char *buf, size_t len)
{
	if (part < 0 || whole <= 0)
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%.0f %%", 100.0 * (double)part / (double)whole);
}

static void expand_field(struct out *o, const struct sctx *x, const char *f, size_t len)
{
	const tt_storage *st = x->st;
	int sl = x->target == TT_DESCRIBE_SLICE;
	char buf[512];
	struct kids k;

#define IS(lit) (len == sizeof(lit) - 1 && strncmp(f, lit, len) == 0)
	buf[0] = '\0';
	if (has_prefix(f, len, "args."))
		tt_describe_arg_text(x, f + 5, len - 5, buf, sizeof(buf));
	else if (has_prefix(f, len, "arg:"))
		tt_describe_arg_text(x, f + 4, len - 4, buf, sizeof(buf));
	else if (IS("name"))
		snprintf(buf, sizeof(buf), "%s", x->name);
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
	else if (IS("tid") && x->utid < st->thread.n)
		snprintf(buf, sizeof(buf), "%lld", (long long)st->thread.tid[x->utid]);
	else if (IS("pid") && x->upid < st->process.n)
		snprintf(buf, sizeof(buf), "%lld", (long long)st->process.pid[x->upid]);
	else if (IS("slices") && !sl && st->track.row_off)
		snprintf(buf, sizeof(buf), "%zu",
			 st->track.row_off[x->id + 1] - st->track.row_off[x->id]);
	else if (!sl)
		; /* the slice fields are empty for a track */
	else if (IS("dur"))
		tt_describe_human_dur(st->slice.dur[x->id], buf, sizeof(buf));
	else if (IS("ts"))
		snprintf(buf, sizeof(buf), "%lld", (long long)st->slice.ts[x->id]);
	else if (IS("depth"))
		snprintf(buf, sizeof(buf), "%u", (unsigned)st->slice.depth[x->id]);
	else if (IS("parent") || IS("parent_share") || IS("parent_dur")) {
		int64_t p = st->slice.parent_id[x->id];

		if (p >= 0 && (size_t)p < st->slice.n) {
			if (IS("parent"))
				snprintf(buf, sizeof(buf), "%s", tt_describe_str(st, st->slice.name[p]));
			else if (IS("parent_dur"))
				tt_describe_human_dur(st->slice.dur[p], buf, sizeof(buf));
			else
				share(st->slice.dur[x->id], st->slice.dur[p], buf, sizeof(buf));
		}
	} else if (has_prefix(f, len, "children:")) {
		children_of(st, x->id, f + 9, len - 9, &k);
		snprintf(buf, sizeof(buf), "%zu", k.nnamed);
	} else if (IS("same_children")) {
		children_of(st, x->id, x->name, strlen(x->name), &k);
		snprintf(buf, sizeof(buf), "%zu", k.nnamed);
	} else {
		children_of(st, x->id, NULL, 0, &k);
		if (IS("children"))
			snprintf(buf, sizeof(buf), "%zu", k.n);
		else if (IS("self"))
			tt_describe_human_dur(st->slice.dur[x->id] < 0 ? -1
					      : st->slice.dur[x->id] - k.sum > 0
						      ? st->slice.dur[x->id] - k.sum
						      : 0,
					      buf, sizeof(buf));
		else if (k.longest < 0)
			snprintf(buf, sizeof(buf), IS("longest_child") ? "(none)" : "?");
		else if (IS("longest_child"))
			snprintf(buf, sizeof(buf), "%s", tt_describe_str(st, st->slice.name[k.longest]));
		else if (IS("longest_child_dur"))
			tt_describe_human_dur(st->slice.dur[k.longest], buf, sizeof(buf));
		else if (IS("longest_child_share"))
			share(st->slice.dur[k.longest], st->slice.dur[x->id], buf, sizeof(buf));
	}
#undef IS
	tt_describe_out_str(o, buf);
}

char *tt_describe_expand(const char *t, const struct sctx *x)
{
	struct out o = { 0 };

	tt_describe_out_add(&o, "", 0);
	while (*t) {
		const char *b = strchr(t, '{'), *e;

		if (!b) {
			tt_describe_out_str(&o, t);
			break;
		}
		tt_describe_out_add(&o, t, (size_t)(b - t));
		if (b[1] == '{') {
			tt_describe_out_add(&o, "{", 1);
			t = b + 2;
			continue;
		}
		e = strchr(b, '}');
		if (!e) {
			tt_describe_out_str(&o, b);
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
