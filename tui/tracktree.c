/*
 * tracktree.c - merged async tracks and process summaries (see
 * tracktree.h).
 */
#include <stdlib.h>
#include <string.h>

#include "timemath.h"
#include "tracktree.h"

/* ---- merging ------------------------------------------------------------- */

static const tt_layout *sort_lay;

static int cmp_merge_key(const void *pa, const void *pb)
{
	const tt_ltrack *a = &sort_lay->tracks[*(const int *)pa], *b = &sort_lay->tracks[*(const int *)pb];
	int c;

	if (a->utid != b->utid)
		return a->utid < b->utid ? -1 : 1;
	if ((c = strcmp(a->name, b->name)) != 0)
		return c;
	return *(const int *)pa - *(const int *)pb;
}

typedef struct pair {
	uint32_t id, row;
} pair;

static int cmp_pair(const void *pa, const void *pb)
{
	const pair *a = pa, *b = pb;

	return a->id < b->id ? -1 : a->id > b->id;
}

static int64_t first_ts(const tt_ltrack *t)
{
	return t->ndepth > 0 && t->rows[0].n ? t->rows[0].ts[0] : INT64_MAX;
}

static int64_t last_end(const tt_ltrack *t)
{
	int64_t e = INT64_MIN;

	for (int d = 0; d < t->ndepth; d++)
		if (t->rows[d].n && t->rows[d].maxend[t->rows[d].n - 1] > e)
			e = t->rows[d].maxend[t->rows[d].n - 1];
	return e;
}

static const tt_layout *order_lay;

static int cmp_first_ts(const void *pa, const void *pb)
{
	int64_t a = first_ts(&order_lay->tracks[*(const int *)pa]);
	int64_t b = first_ts(&order_lay->tracks[*(const int *)pb]);

	return a < b ? -1 : a > b;
}

/* Builds merged track m over members mem[0..n): each member takes a band
 * of rows as deep as it is, the first band free at its start (greedy
 * interval packing, members by start time); when none is free, the band
 * that frees first (slices then share cells, drawn as busy). */
static int build_merged(tt_layout *lay, tt_ltrack *m, int *mem, int n)
{
	int64_t row_end[TT_TRACKTREE_MAX_ROWS];
	int *band = malloc((size_t)n * sizeof *band);
	size_t total = 0, *count = NULL, *fill = NULL;
	uint32_t *ids = NULL;
	pair *pairs = NULL;
	int nrows = 0, rc = -1;

	if (!band)
		return -1;
	for (int r = 0; r < TT_TRACKTREE_MAX_ROWS; r++)
		row_end[r] = INT64_MIN;
	order_lay = lay;
	qsort(mem, (size_t)n, sizeof *mem, cmp_first_ts);
	for (int i = 0; i < n; i++) {
		const tt_ltrack *t = &lay->tracks[mem[i]];
		int md = t->ndepth < TT_TRACKTREE_MAX_ROWS ? t->ndepth : TT_TRACKTREE_MAX_ROWS;
		int64_t s = first_ts(t), best_free = INT64_MAX;
		int b = -1, best = 0;
		for (int r = 0; r + md <= TT_TRACKTREE_MAX_ROWS && b < 0; r++) {
			int64_t busy = INT64_MIN;
			for (int k = r; k < r + md; k++)
				busy = row_end[k] > busy ? row_end[k] : busy;
			if (busy <= s)
				b = r;
			else if (busy < best_free) {
				best_free = busy;
				best = r;
			}
		}
		if (b < 0)
			b = best;
		band[i] = b;
		int64_t e = last_end(t);
		for (int k = b; k < b + md; k++)
			row_end[k] = e > row_end[k] ? e : row_end[k];
		if (b + md > nrows)
			nrows = b + md;
		for (int d = 0; d < md; d++)
			total += t->rows[d].n;
	}
	if (nrows < 1)
		nrows = 1;
	count = calloc((size_t)nrows + 1, sizeof *count);
	fill = calloc((size_t)nrows + 1, sizeof *fill);
	ids = malloc((total ? total : 1) * sizeof *ids);
	pairs = malloc((total ? total : 1) * sizeof *pairs);
	m->rows = calloc((size_t)nrows, sizeof *m->rows);
	if (!count || !fill || !ids || !pairs || !m->rows)
		goto out;
	for (int i = 0; i < n; i++) {
		const tt_ltrack *t = &lay->tracks[mem[i]];
		for (int d = 0; d < t->ndepth && band[i] + d < nrows; d++)
			count[band[i] + d + 1] += t->rows[d].n;
	}
	for (int r = 1; r <= nrows; r++)
		count[r] += count[r - 1];
	size_t np = 0;
	for (int i = 0; i < n; i++) {
		const tt_ltrack *t = &lay->tracks[mem[i]];
		for (int d = 0; d < t->ndepth && band[i] + d < nrows; d++) {
			int r = band[i] + d;
			for (size_t j = 0; j < t->rows[d].n; j++) {
				ids[count[r] + fill[r]++] = t->rows[d].ids[j];
				pairs[np++] = (pair){t->rows[d].ids[j], (uint32_t)r};
			}
		}
	}
	m->ndepth = nrows;
	for (int r = 0; r < nrows; r++)
		if (tt_lod_build(&m->rows[r], &lay->tracks[mem[0]].rows[0].src, ids + count[r], fill[r]) < 0)
			goto out;
	qsort(pairs, np, sizeof *pairs, cmp_pair);
	m->mids = malloc((np ? np : 1) * sizeof *m->mids);
	m->mrows = malloc((np ? np : 1) * sizeof *m->mrows);
	if (!m->mids || !m->mrows)
		goto out;
	for (size_t i = 0; i < np; i++) {
		m->mids[i] = pairs[i].id;
		m->mrows[i] = pairs[i].row;
	}
	m->mn = np;
	rc = 0;
out:
	free(band);
	free(count);
	free(fill);
	free(ids);
	free(pairs);
	return rc;
}

static int merge_group(tt_layout *lay, int g, int *set_of, int *buf)
{
	tt_lgroup *gr = &lay->groups[g];
	int nm = 0, nsets = 0, *first = NULL, *newlist = NULL, *emitted = NULL;
	int base = lay->ntracks, rc = -1;

	for (int i = 0; i < gr->ntracks; i++)
		if (lay->tracks[gr->tracks[i]].mergeable)
			buf[nm++] = gr->tracks[i];
	if (nm < 2)
		return 0;
	sort_lay = lay;
	qsort(buf, (size_t)nm, sizeof *buf, cmp_merge_key);
	/* runs of one (utid, name) with two or more tracks become sets */
	for (int i = 0; i < nm;) {
		int j = i + 1;
		const tt_ltrack *a = &lay->tracks[buf[i]];
		while (j < nm && lay->tracks[buf[j]].utid == a->utid && !strcmp(lay->tracks[buf[j]].name, a->name))
			j++;
		if (j - i >= 2) {
			tt_ltrack *nt = realloc(lay->tracks, (size_t)(lay->ntracks + 1) * sizeof *nt);
			if (!nt)
				return -1;
			lay->tracks = nt;
			a = &lay->tracks[buf[i]];
			tt_ltrack *m = &lay->tracks[lay->ntracks];
			memset(m, 0, sizeof *m);
			m->track_id = UINT32_MAX - 1; /* merged: no core track of its own */
			memcpy(m->name, a->name, sizeof m->name);
			m->kind = TT_LT_SLICE;
			m->group = g;
			m->utid = a->utid;
			m->upid = a->upid;
			m->own = a->own;
			m->parent = -1;
			m->home_uid = -1;
			m->nchildren = j - i;
			for (int k = i; k < j; k++) {
				lay->tracks[buf[k]].parent = lay->ntracks;
				set_of[buf[k]] = nsets;
				m->nitems += lay->tracks[buf[k]].nitems;
			}
			lay->ntracks++;
			if (build_merged(lay, &lay->tracks[lay->ntracks - 1], buf + i, j - i) < 0)
				return -1;
			nsets++;
		}
		i = j;
	}
	if (!nsets)
		return 0;
	newlist = malloc((size_t)(gr->ntracks + nsets) * sizeof *newlist);
	emitted = calloc((size_t)nsets, sizeof *emitted);
	first = malloc((size_t)nsets * sizeof *first);
	if (!newlist || !emitted || !first)
		goto out;
	/* the merged track takes the place of its first member, the members
	 * follow it */
	int n = 0;
	for (int i = 0; i < gr->ntracks; i++) {
		int t = gr->tracks[i];
		if (lay->tracks[t].parent < 0) {
			newlist[n++] = t;
			continue;
		}
		int s = set_of[t];
		if (emitted[s])
			continue;
		emitted[s] = 1;
		newlist[n++] = base + s;
		for (int k = i; k < gr->ntracks; k++)
			if (lay->tracks[gr->tracks[k]].parent == base + s)
				newlist[n++] = gr->tracks[k];
	}
	free(gr->tracks);
	gr->tracks = newlist;
	gr->ntracks = n;
	newlist = NULL;
	rc = 0;
out:
	free(newlist);
	free(emitted);
	free(first);
	return rc;
}

/* ---- process summaries -------------------------------------------------- */

typedef struct edge {
	int64_t t;
	int d;
} edge;

static int cmp_edge(const void *pa, const void *pb)
{
	const edge *a = pa, *b = pb;

	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	return a->d - b->d; /* ends before starts at one time */
}

/* A thread's own slice track, alone or a member of its thread's merged
 * row: what the process summary counts as the thread being busy. */
static int summary_member(const tt_ltrack *t)
{
	return t->utid != UINT32_MAX && t->kind == TT_LT_SLICE && (t->own || !t->mergeable) &&
	       !t->is_annotation && (t->parent < 0 || t->own) && !t->nchildren && t->ndepth > 0;
}

static int build_summary(tt_layout *lay, tt_lgroup *gr)
{
	size_t n = 0, k = 0;
	edge *e;

	for (int i = 0; i < gr->ntracks; i++) {
		const tt_ltrack *t = &lay->tracks[gr->tracks[i]];
		if (summary_member(t)) {
			n += t->rows[0].n;
			if (t->parent < 0)
				gr->nthreads++;
		} else if (t->own && t->nchildren) {
			gr->nthreads++; /* a thread whose own tracks were merged */
		}
	}
	if (n == 0)
		return 0;
	e = malloc(2 * n * sizeof *e);
	if (!e)
		return -1;
	for (int i = 0; i < gr->ntracks; i++) {
		const tt_ltrack *t = &lay->tracks[gr->tracks[i]];
		if (!summary_member(t))
			continue;
		const tt_lod_row *r = &t->rows[0];
		for (size_t j = 0; j < r->n; j++) {
			e[k++] = (edge){r->ts[j], 1};
			e[k++] = (edge){tt_lod_end(&r->src, r->ids[j]), -1};
		}
	}
	qsort(e, k, sizeof *e, cmp_edge);
	gr->sum_ts = malloc(k * sizeof *gr->sum_ts);
	gr->sum_val = malloc(k * sizeof *gr->sum_val);
	uint32_t *ids = malloc(k * sizeof *ids);
	if (!gr->sum_ts || !gr->sum_val || !ids) {
		free(e);
		free(ids);
		return -1;
	}
	size_t m = 0;
	int level = 0;
	for (size_t i = 0; i < k; i++) {
		level += e[i].d;
		if (i + 1 < k && e[i + 1].t == e[i].t)
			continue; /* one step per time */
		gr->sum_ts[m] = e[i].t;
		gr->sum_val[m] = level;
		ids[m] = (uint32_t)m;
		m++;
	}
	free(e);
	/* the coarse copy: a bucket holds the most threads busy in its span
	 * (the level in effect at its start, and every step inside it) */
	int64_t len = tt_tm_sub(lay->end, lay->start);
	gr->coarse_w = len / TT_SUMMARY_BUCKETS + 1;
	gr->coarse = calloc(TT_SUMMARY_BUCKETS, sizeof *gr->coarse);
	if (!gr->coarse) {
		free(ids);
		return -1;
	}
	double in_effect = 0;
	size_t s = 0;
	for (int bk = 0; bk < TT_SUMMARY_BUCKETS; bk++) {
		/* bk * coarse_w < len: no overflow; the sums saturate */
		int64_t b0 = tt_tm_add(lay->start, (int64_t)bk * gr->coarse_w), b1 = tt_tm_add(b0, gr->coarse_w);
		double mx = in_effect;
		while (s < m && gr->sum_ts[s] < b1) {
			if (gr->sum_ts[s] >= b0 && gr->sum_val[s] > mx)
				mx = gr->sum_val[s];
			in_effect = gr->sum_val[s++];
		}
		if (in_effect > mx)
			mx = in_effect;
		gr->coarse[bk] = (uint16_t)(mx > 65535 ? 65535 : mx);
	}
	tt_lod_src src = {gr->sum_ts, NULL, gr->sum_val, 0, NULL};
	int rc = tt_lod_build(&gr->summary, &src, ids, m);
	free(ids);
	return rc;
}

int tt_tracktree_build(tt_layout *lay)
{
	int n0 = lay->ntracks;
	int *set_of = malloc((size_t)(n0 ? n0 : 1) * sizeof *set_of);
	int *buf = malloc((size_t)(n0 ? n0 : 1) * sizeof *buf);
	int rc = 0;

	if (!set_of || !buf) {
		free(set_of);
		free(buf);
		return -1;
	}
	for (int g = 0; g < lay->ngroups && rc == 0; g++) {
		if (lay->groups[g].kind != TT_LG_PROCESS && lay->groups[g].kind != TT_LG_OTHER)
			continue;
		rc = merge_group(lay, g, set_of, buf);
		if (rc == 0 && lay->groups[g].kind == TT_LG_PROCESS)
			rc = build_summary(lay, &lay->groups[g]);
	}
	free(set_of);
	free(buf);
	return rc;
}

void tt_tracktree_free_track(tt_ltrack *t)
{
	free(t->mids);
	free(t->mrows);
}

void tt_tracktree_free_group(tt_lgroup *g)
{
	tt_lod_free(&g->summary);
	free(g->sum_ts);
	free(g->sum_val);
	free(g->coarse);
}

int tt_tracktree_top_count(const tt_layout *lay, const tt_lgroup *g)
{
	int n = 0;

	for (int i = 0; i < g->ntracks; i++)
		n += lay->tracks[g->tracks[i]].parent < 0;
	return n;
}
