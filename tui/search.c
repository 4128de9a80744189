/*
 * search.c - smartcase search with prefixes (see search.h).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "timemath.h"

#include "range.h"
#include "search.h"
#include "view.h"

int tt_search_icase(const char *needle)
{
	for (const unsigned char *p = (const unsigned char *)needle; *p; p++)
		if (isupper(*p))
			return 0;
	return 1;
}

int tt_search_has(const char *hay, const char *needle, int icase)
{
	if (!icase)
		return strstr(hay, needle) != NULL;
	size_t n = strlen(needle);
	if (n == 0)
		return 1;
	for (const char *h = hay; *h; h++) {
		size_t i = 0;
		while (i < n && h[i] && tolower((unsigned char)h[i]) == (unsigned char)needle[i])
			i++;
		if (i == n)
			return 1;
	}
	return 0;
}

/* A byte cache per id: 0 unknown, 1 no, 2 yes. */
typedef struct cache {
	uint8_t *v;
	size_t n;
} cache;

static int cache_get(cache *c, size_t id)
{
	return id < c->n ? c->v[id] : 0;
}

static void cache_put(cache *c, size_t id, int val)
{
	if (id >= c->n) {
		size_t nn = c->n ? c->n : 1024;
		while (nn <= id)
			nn *= 2;
		uint8_t *p = realloc(c->v, nn);
		if (!p)
			return; /* no cache: asked again */
		memset(p + c->n, 0, nn - c->n);
		c->v = p;
		c->n = nn;
	}
	c->v[id] = (uint8_t)val;
}

struct tt_search {
	int kind, icase;
	char text[128], key[128]; /* key: /@key=value */
	cache names, sets, tracks;
	uint8_t *scope;           /* range tracks (core ids) or NULL */
	uint32_t nscope;
	int64_t a, b, open_end;
	int ranged;
};

tt_search *tt_search_new(const tt_view *v, const char *text, int *kind, int64_t *id)
{
	tt_search *q = calloc(1, sizeof *q);
	const char *t = text;

	if (!q)
		return NULL;
	q->kind = TT_SEARCH_NAME;
	if (*t == '@') {
		q->kind = TT_SEARCH_ARGS;
		t++;
		const char *eq = strchr(t, '=');
		if (eq && eq > t) {
			snprintf(q->key, sizeof q->key, "%.*s", (int)(eq - t), t);
			t = eq + 1;
		}
	} else if (*t == '%') {
		q->kind = TT_SEARCH_THREAD;
		t++;
	} else {
		const char *d = *t == '#' ? t + 1 : t;
		size_t nd = strspn(d, "0123456789");
		if (nd > 0 && nd < 19 && !d[nd]) {
			q->kind = TT_SEARCH_ID;
			*id = strtoll(d, NULL, 10);
		}
	}
	snprintf(q->text, sizeof q->text, "%s", t);
	q->icase = tt_search_icase(q->text);
	if (q->icase)
		for (char *p = q->text; *p; p++)
			*p = (char)tolower((unsigned char)*p);
	*kind = q->kind;
	if (tt_range_get(v, &q->a, &q->b)) {
		q->ranged = 1;
		q->open_end = v->lay.end;
		q->scope = tt_range_core_tracks(v);
		q->nscope = tt_trace_track_count(v->tr);
	}
	return q;
}

struct arg_find {
	const tt_search *q;
	int found;
};

static void on_arg(void *ctx, const char *key, const char *value)
{
	struct arg_find *f = ctx;

	if (f->found || (f->q->key[0] && strcmp(key, f->q->key) != 0))
		return;
	f->found = tt_search_has(value, f->q->text, f->q->icase);
}

static int track_matches(const tt_search *q, const tt_view *v, uint32_t track)
{
	tt_track_info ti;
	tt_thread_info th;
	tt_process_info pi;
	uint32_t upid;

	if (tt_trace_track(v->tr, track, &ti) != 0)
		return 0;
	if (tt_search_has(ti.name, q->text, q->icase))
		return 1;
	upid = ti.upid;
	if (ti.utid != UINT32_MAX && tt_trace_thread(v->tr, ti.utid, &th) == 0) {
		if (tt_search_has(th.name, q->text, q->icase))
			return 1;
		if (upid == UINT32_MAX)
			upid = th.upid;
	}
	if (upid != UINT32_MAX && tt_trace_process(v->tr, upid, &pi) == 0 &&
	    tt_search_has(pi.name, q->text, q->icase))
		return 1;
	return 0;
}

int tt_search_test(tt_search *q, const tt_view *v, size_t id)
{
	int r;

	if (q->ranged) {
		uint32_t t = v->sc.track_id[id];
		if (q->scope && (t >= q->nscope || !q->scope[t]))
			return 0;
		int64_t ts = v->sc.ts[id], dur = v->sc.dur[id];
		int64_t end = dur < 0 ? q->open_end : tt_tm_end(ts, dur);
		if (dur == 0 ? !(ts >= q->a && ts < q->b) : !(ts < q->b && end > q->a))
			return 0;
	}
	switch (q->kind) {
	case TT_SEARCH_ARGS: {
		uint32_t set = v->sc.arg_set_id[id];
		if (set == UINT32_MAX)
			return 0;
		if ((r = cache_get(&q->sets, set)))
			return r == 2;
		struct arg_find f = {q, 0};
		tt_trace_args(v->tr, set, on_arg, &f);
		cache_put(&q->sets, set, f.found ? 2 : 1);
		return f.found;
	}
	case TT_SEARCH_THREAD: {
		uint32_t t = v->sc.track_id[id];
		if ((r = cache_get(&q->tracks, t)))
			return r == 2;
		int m = track_matches(q, v, t);
		cache_put(&q->tracks, t, m ? 2 : 1);
		return m;
	}
	case TT_SEARCH_ID:
		return 0;
	default: {
		uint32_t s = v->sc.name[id];
		if ((r = cache_get(&q->names, s)))
			return r == 2;
		int m = tt_search_has(tt_trace_str(v->tr, s), q->text, q->icase);
		cache_put(&q->names, s, m ? 2 : 1);
		return m;
	}
	}
}

void tt_search_free(tt_search *q)
{
	if (!q)
		return;
	free(q->names.v);
	free(q->sets.v);
	free(q->tracks.v);
	free(q->scope);
	free(q);
}
