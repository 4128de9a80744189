/*
 * aggregate.c - range aggregation (see aggregate.h). One pass over the
 * slice columns: a slice's clipped wall goes to its name, and is taken off
 * its parent's name for self time (a child lies inside its parent, so the
 * child's clipped wall is inside the parent's clipped wall: summed per
 * name, wall minus children's walls is exactly the sum of self times).
 */
#include <stdlib.h>
#include <string.h>

#include "timemath.h"

#include "aggregate.h"

typedef struct namemap {
	uint32_t *keys; /* name + 1, 0 = empty */
	uint32_t *vals; /* row index */
	size_t cap;
} namemap;

int64_t tt_agg_clip(int64_t ts, int64_t dur, int64_t a, int64_t b, int64_t open_end, int *in)
{
	int64_t end = dur < 0 ? open_end : tt_tm_end(ts, dur);
	if (end < ts)
		end = ts;
	/* an instant at a is in [a, b); a slice is in when it intersects */
	*in = dur == 0 ? (ts >= a && ts < b) : (ts < b && end > a);
	if (!*in)
		return 0;
	int64_t s = ts > a ? ts : a, e = end < b ? end : b;
	return e > s ? tt_tm_len(s, e) : 0;
}

static int grow_rows(tt_agg *g, size_t *cap)
{
	size_t nc = *cap ? *cap * 2 : 256;
	tt_agg_row *r = realloc(g->rows, nc * sizeof *r);
	if (!r)
		return -1;
	g->rows = r;
	*cap = nc;
	return 0;
}

static int map_grow(namemap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 1024;
	uint32_t *k = calloc(cap, sizeof *k), *v = malloc(cap * sizeof *v);
	if (!k || !v) {
		free(k);
		free(v);
		return -1;
	}
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->keys[i])
			continue;
		size_t h = (m->keys[i] * 2654435761u) & (cap - 1);
		while (k[h])
			h = (h + 1) & (cap - 1);
		k[h] = m->keys[i];
		v[h] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = k;
	m->vals = v;
	m->cap = cap;
	return 0;
}

/* Row of name, created when new; -1 on OOM. */
static long row_of(tt_agg *g, namemap *m, size_t *cap, uint32_t name)
{
	uint32_t key = name + 1;
	size_t h = (key * 2654435761u) & (m->cap - 1);

	while (m->keys[h]) {
		if (m->keys[h] == key)
			return m->vals[h];
		h = (h + 1) & (m->cap - 1);
	}
	if ((g->nrows + 1) * 2 > m->cap) {
		if (map_grow(m) < 0)
			return -1;
		h = (key * 2654435761u) & (m->cap - 1);
		while (m->keys[h])
			h = (h + 1) & (m->cap - 1);
	}
	if (g->nrows == *cap && grow_rows(g, cap) < 0)
		return -1;
	m->keys[h] = key;
	m->vals[h] = (uint32_t)g->nrows;
	g->rows[g->nrows] = (tt_agg_row){.name = name};
	return (long)g->nrows++;
}

/* The pass over the slices: ids[0..nids) when ids, else every slice on
 * the tracks set in tracks (NULL: all). */
static int agg_pass(tt_agg *g, const tt_slice_cols *sc, const uint8_t *tracks, const uint32_t *ids, size_t nids,
		    size_t ntracks, int64_t a, int64_t b, int64_t open_end)
{
	namemap m = {0};
	size_t cap = 0, count = ids ? nids : sc->n;
	int in;

	tt_agg_free(g);
	g->a = a;
	g->b = b;
	g->open_end = open_end;
	g->ntracks = ntracks;
	g->busy = calloc(ntracks ? ntracks : 1, sizeof *g->busy);
	if (!g->busy || map_grow(&m) < 0)
		goto oom;
	for (size_t k = 0; k < count; k++) {
		size_t i = ids ? ids[k] : k;
		uint32_t t = sc->track_id[i];
		if (i >= sc->n || (tracks && (t >= ntracks || !tracks[t])))
			continue;
		int64_t w = tt_agg_clip(sc->ts[i], sc->dur[i], a, b, open_end, &in);
		if (!in)
			continue;
		long r = row_of(g, &m, &cap, sc->name[i]);
		if (r < 0)
			goto oom;
		tt_agg_row *row = &g->rows[r];
		row->count++;
		row->wall = tt_tm_add(row->wall, w);
		row->self = tt_tm_add(row->self, w);
		if (w > row->max)
			row->max = w;
		g->nslices++;
		if (sc->depth[i] == 0 && t < ntracks)
			g->busy[t] = tt_tm_add(g->busy[t], w);
		int32_t p = sc->parent_id[i];
		if (p >= 0 && (size_t)p < sc->n && w > 0) {
			/* the parent intersects the range too: it holds the child */
			long pr = row_of(g, &m, &cap, sc->name[p]);
			if (pr < 0)
				goto oom;
			g->rows[pr].self = tt_tm_sub(g->rows[pr].self, w);
		}
	}
	free(m.keys);
	free(m.vals);
	/* a parent's row may exist only for self: it has count 0 when the
	 * parent is outside the tracks (never on one track); drop those */
	size_t k = 0;
	for (size_t i = 0; i < g->nrows; i++)
		if (g->rows[i].count)
			g->rows[k++] = g->rows[i];
	g->nrows = k;
	tt_agg_sort(g, TT_AGG_WALL, 1, NULL, NULL);
	return 0;
oom:
	free(m.keys);
	free(m.vals);
	tt_agg_free(g);
	return -1;
}

int tt_agg_slices(tt_agg *g, const tt_slice_cols *sc, const uint8_t *tracks, size_t ntracks,
		  int64_t a, int64_t b, int64_t open_end)
{
	return agg_pass(g, sc, tracks, NULL, 0, ntracks, a, b, open_end);
}

int tt_agg_slices_ids(tt_agg *g, const tt_slice_cols *sc, const uint32_t *ids, size_t nids, size_t ntracks,
		      int64_t a, int64_t b, int64_t open_end)
{
	return agg_pass(g, sc, NULL, ids, nids, ntracks, a, b, open_end);
}

void tt_agg_free(tt_agg *g)
{
	free(g->rows);
	free(g->busy);
	g->rows = NULL;
	g->busy = NULL;
	g->nrows = g->nslices = g->ntracks = 0;
}

static int sort_col, sort_desc;
static const char *(*sort_names)(void *, uint32_t);
static void *sort_ctx;

static int64_t key_of(const tt_agg_row *r, int col)
{
	switch (col) {
	case TT_AGG_COUNT: return r->count;
	case TT_AGG_SELF: return r->self;
	case TT_AGG_AVG: return r->count ? r->wall / r->count : 0;
	case TT_AGG_MAX: return r->max;
	default: return r->wall; /* wall, share */
	}
}

static int cmp_row(const void *pa, const void *pb)
{
	const tt_agg_row *a = pa, *b = pb;
	int c = 0;

	if (sort_col == TT_AGG_NAME && sort_names) {
		c = strcmp(sort_names(sort_ctx, a->name), sort_names(sort_ctx, b->name));
	} else {
		int64_t ka = key_of(a, sort_col), kb = key_of(b, sort_col);
		c = ka < kb ? -1 : ka > kb;
	}
	if (sort_desc)
		c = -c;
	if (c == 0) /* ties: larger wall first, then name id: a stable order */
		c = a->wall != b->wall ? (a->wall > b->wall ? -1 : 1) : (a->name > b->name) - (a->name < b->name);
	return c;
}

void tt_agg_sort(tt_agg *g, int col, int desc, const char *(*names)(void *ctx, uint32_t id), void *ctx)
{
	/* qsort has no context argument in C11: one sort at a time (the
	 * viewer's thread) */
	sort_col = col;
	sort_desc = desc;
	sort_names = names;
	sort_ctx = ctx;
	g->sort_col = col;
	g->sort_desc = desc;
	if (g->nrows > 1)
		qsort(g->rows, g->nrows, sizeof *g->rows, cmp_row);
}

void tt_agg_counter_range(const int64_t *ts, const double *value, const uint32_t *rows, size_t nrows,
			  int64_t a, int64_t b, tt_agg_counter *out)
{
	size_t lo = 0, hi = nrows;
	double cur = 0, first = 0, last = 0, area = 0;
	int64_t t = a, known_from = a;

	memset(out, 0, sizeof *out);
	/* first sample at or after a */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ts[rows[mid]] < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0) { /* the value in effect at a */
		cur = value[rows[lo - 1]];
		out->known = 1;
		out->min = out->max = first = cur;
	}
	for (size_t i = lo; i < nrows && ts[rows[i]] < b; i++) {
		int64_t st = ts[rows[i]];
		double v = value[rows[i]];
		if (out->known)
			area += cur * (double)(st - t);
		else {
			out->known = 1;
			out->min = out->max = first = v;
			known_from = st;
		}
		if (v < out->min)
			out->min = v;
		if (v > out->max)
			out->max = v;
		cur = v;
		t = st;
		out->n++;
	}
	if (!out->known)
		return;
	area += cur * (double)(b - t);
	last = cur;
	out->mean = b > known_from ? area / (double)(b - known_from) : cur;
	out->delta = last - first;
}
