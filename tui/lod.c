/*
 * lod.c - per-row level-of-detail summaries (see lod.h for the contract).
 */
#include <stdlib.h>
#include <string.h>

#include "lod.h"
#include "timemath.h"

int64_t tt_lod_end(const tt_lod_src *src, uint32_t id)
{
	int64_t ts = src->ts[id];

	/* saturated: an item at INT64_MAX ends there too */
	if (!src->dur)
		return tt_tm_add(ts, 1);
	if (src->dur[id] < 0)
		return src->open_end > ts ? src->open_end : tt_tm_add(ts, 1);
	return tt_tm_add(ts, src->dur[id] > 0 ? src->dur[id] : 1);
}

static double key(const tt_lod_src *src, uint32_t id)
{
	if (src->value)
		return src->value[id];
	return (double)tt_lod_end(src, id) - (double)src->ts[id];
}

/* Larger key wins; ties go to the earlier item, so the pick is stable. */
static uint32_t better(const tt_lod_src *src, uint32_t a, uint32_t b)
{
	return key(src, b) > key(src, a) ? b : a;
}

static const tt_lod_src *sort_src;

static int cmp_ts(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	int64_t ta = sort_src->ts[a], tb = sort_src->ts[b];

	if (ta != tb)
		return ta < tb ? -1 : 1;
	return a < b ? -1 : a > b;
}

int tt_lod_build(tt_lod_row *row, const tt_lod_src *src, const uint32_t *ids, size_t n)
{
	int sorted = 1;

	memset(row, 0, sizeof *row);
	row->src = *src;
	row->n = n;
	if (n == 0)
		return 0;
	row->ids = malloc(n * sizeof *row->ids);
	row->ts = malloc(n * sizeof *row->ts);
	row->maxend = malloc(n * sizeof *row->maxend);
	if (src->tag)
		row->tag = malloc(n * sizeof *row->tag);
	if (!row->ids || !row->ts || !row->maxend || (src->tag && !row->tag))
		goto fail;
	memcpy(row->ids, ids, n * sizeof *ids);
	for (size_t i = 1; i < n && sorted; i++)
		if (src->ts[ids[i]] < src->ts[ids[i - 1]])
			sorted = 0;
	if (!sorted) {
		/* qsort has no context argument in C11; rows are built on one
		 * thread, so a file-scope pointer is enough. */
		sort_src = src;
		qsort(row->ids, n, sizeof *row->ids, cmp_ts);
	}
	row->exact_end = 1;
	for (size_t i = 0; i < n; i++) {
		int64_t e = tt_lod_end(src, row->ids[i]);
		row->ts[i] = src->ts[row->ids[i]];
		row->maxend[i] = (i > 0 && row->maxend[i - 1] > e) ? row->maxend[i - 1] : e;
		if (row->maxend[i] != e)
			row->exact_end = 0;
		if (row->tag)
			row->tag[i] = src->tag[row->ids[i]];
	}
	while (((size_t)2 << row->nlev) <= n)
		row->nlev++;
	row->blk = calloc((size_t)row->nlev + 1, sizeof *row->blk);
	row->bkey = calloc((size_t)row->nlev + 1, sizeof *row->bkey);
	if (!row->blk || !row->bkey)
		goto fail;
	row->blk[0] = row->ids;
	row->bkey[0] = malloc(n * sizeof **row->bkey);
	if (!row->bkey[0])
		goto fail;
	for (size_t i = 0; i < n; i++)
		row->bkey[0][i] = (float)key(src, row->ids[i]);
	row->ncoarse = (n + TT_LOD_BLOCK - 1) / TT_LOD_BLOCK;
	row->coarse_ts = malloc(row->ncoarse * sizeof *row->coarse_ts);
	row->coarse_end = malloc(row->ncoarse * sizeof *row->coarse_end);
	row->coarse_len = malloc(row->ncoarse * sizeof *row->coarse_len);
	if (!row->coarse_ts || !row->coarse_end || !row->coarse_len)
		goto fail;
	for (size_t k = 0; k < row->ncoarse; k++) {
		size_t lo = k * TT_LOD_BLOCK, hi = lo + TT_LOD_BLOCK < n ? lo + TT_LOD_BLOCK : n;
		int64_t len = 0;
		for (size_t i = lo; i < hi; i++) {
			int64_t d = tt_tm_sub(tt_lod_end(src, row->ids[i]), row->ts[i]);
			len = d > len ? d : len;
		}
		row->coarse_ts[k] = row->ts[lo];
		row->coarse_end[k] = row->maxend[hi - 1];
		row->coarse_len[k] = len;
	}
	for (int k = 1; k <= row->nlev; k++) {
		size_t m = n >> k;
		const uint32_t *prev = row->blk[k - 1];
		const float *pk = row->bkey[k - 1];
		row->blk[k] = malloc(m * sizeof **row->blk);
		row->bkey[k] = malloc(m * sizeof **row->bkey);
		if (!row->blk[k] || !row->bkey[k])
			goto fail;
		for (size_t j = 0; j < m; j++) {
			/* ties go to the earlier item, so the pick is stable */
			int right = pk[2 * j + 1] > pk[2 * j];
			row->blk[k][j] = prev[2 * j + right];
			row->bkey[k][j] = pk[2 * j + right];
		}
	}
	return 0;
fail:
	tt_lod_free(row);
	return -1;
}

void tt_lod_free(tt_lod_row *row)
{
	if (row->blk) {
		for (int k = 1; k <= row->nlev; k++)
			free(row->blk[k]);
		free(row->blk);
	}
	if (row->bkey) {
		for (int k = 0; k <= row->nlev; k++)
			free(row->bkey[k]);
		free(row->bkey);
	}
	free(row->ids);
	free(row->ts);
	free(row->maxend);
	free(row->tag);
	free(row->marks);
	free(row->coarse_ts);
	free(row->coarse_end);
	free(row->coarse_len);
	memset(row, 0, sizeof *row);
}

int tt_lod_mark(tt_lod_row *row, const uint8_t *bits)
{
	size_t n = 0;

	free(row->marks);
	row->marks = NULL;
	row->nmarks = 0;
	if (!bits)
		return 0;
	for (size_t i = 0; i < row->n; i++)
		n += (bits[row->ids[i] / 8] >> (row->ids[i] % 8)) & 1;
	if (n == 0)
		return 0;
	row->marks = malloc(n * sizeof *row->marks);
	if (!row->marks)
		return -1;
	for (size_t i = 0; i < row->n; i++)
		if ((bits[row->ids[i] / 8] >> (row->ids[i] % 8)) & 1)
			row->marks[row->nmarks++] = (uint32_t)i;
	return 0;
}

int tt_lod_marked(const tt_lod_row *row, size_t i, size_t j)
{
	size_t lo = 0, hi = row->nmarks;

	while (lo < hi) { /* first mark >= i */
		size_t mid = lo + (hi - lo) / 2;
		if (row->marks[mid] < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < row->nmarks && row->marks[lo] < j;
}

/* First index in [lo, hi) with arr[i] > t, hi when none (arr
 * non-decreasing). */
static size_t bsearch_gt(const int64_t *arr, size_t lo, size_t hi, int64_t t)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (arr[mid] > t)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* First index >= from with arr[i] > t (arr non-decreasing), by galloping
 * from `from` so that nearby answers cost O(log distance). */
static size_t gallop_gt(const int64_t *arr, size_t n, size_t from, int64_t t)
{
	size_t lo = from, step = 1, hi;

	if (lo >= n || arr[lo] > t)
		return lo;
	/* invariant: arr[lo] <= t */
	for (;;) {
		hi = lo + step;
		if (hi >= n) {
			hi = n;
			break;
		}
		if (arr[hi] > t)
			break;
		lo = hi;
		step *= 2;
	}
	return bsearch_gt(arr, lo + 1, hi, t);
}

size_t tt_lod_lower(const tt_lod_row *row, int64_t t)
{
	if (t == INT64_MIN)
		return 0;
	return gallop_gt(row->ts, row->n, 0, t - 1);
}

/* Best id in ids[i, j) (i < j), walking power-of-two aligned blocks; the
 * best key is kept so each candidate's key is computed once. */
static uint32_t range_best(const tt_lod_row *row, size_t i, size_t j)
{
	uint32_t best = row->ids[i];
	float bk = row->bkey[0][i];

	while (i < j) {
		int k = 0;
		while (k < row->nlev && (i & (((size_t)2 << k) - 1)) == 0 &&
		       i + ((size_t)2 << k) <= j)
			k++;
		float ck = row->bkey[k][i >> k];
		if (ck > bk) {
			best = row->blk[k][i >> k];
			bk = ck;
		}
		i += (size_t)1 << k;
	}
	return best;
}

int64_t tt_lod_pick(const tt_lod_row *row, int64_t a, int64_t b, size_t *hint)
{
	return tt_lod_pick_n(row, a, b, hint, NULL);
}

int64_t tt_lod_pick_n(const tt_lod_row *row, int64_t a, int64_t b, size_t *hint, size_t *count)
{
	size_t h = hint ? *hint : 0, i, j;

	if (count)
		*count = 0;
	if (row->n == 0 || b <= a)
		return -1;
	if (h > row->n || (h > 0 && row->maxend[h - 1] > a))
		h = 0; /* the hint is past the answer: start over */
	i = gallop_gt(row->maxend, row->n, h, a);
	if (hint)
		*hint = i;
	if (i >= row->n || row->ts[i] >= b)
		return -1;
	j = gallop_gt(row->ts, row->n, i, b - 1);
	if (count)
		*count = j - i;
	/* items in [i, j) start before b; some may end before a when items
	 * overlap (maxend is a running max): keep only real intersections. */
	uint32_t best = range_best(row, i, j);
	if (tt_lod_end(&row->src, best) > a)
		return best;
	/* bounded: overlapping rows are rare (async tracks) and a cell only
	 * needs some intersecting item, the first one is one. */
	int64_t found = row->ids[i];
	for (size_t x = i; x < j && x < i + 64; x++) {
		uint32_t id = row->ids[x];
		if (tt_lod_end(&row->src, id) > a && better(&row->src, (uint32_t)found, id) == id)
			found = id;
	}
	return found;
}

int64_t tt_lod_cell(const tt_lod_row *row, int64_t a, int64_t b, size_t *hint, size_t *count)
{
	size_t h = *hint, i, j;

	*count = 0;
	if (row->n == 0 || b <= a)
		return -1;
	if (h > row->n || (h > 0 && row->maxend[h - 1] > a))
		h = 0;
	i = gallop_gt(row->maxend, row->n, h, a);
	*hint = i;
	if (i >= row->n || row->ts[i] >= b)
		return -1;
	j = gallop_gt(row->ts, row->n, i, b - 1);
	*count = j - i;
	return row->ids[i];
}

/* Smallest x in [lo, hi] with arr[x] > t, given arr[hi] > t (or hi = n,
 * past the end): galloping back from hi, where the answer usually is. */
static size_t gallop_back_gt(const int64_t *arr, size_t lo, size_t hi, int64_t t)
{
	size_t step = 1;

	while (hi > lo) {
		size_t probe = hi - lo > step ? hi - step : lo;
		if (arr[probe] <= t) {
			lo = probe + 1;
			break;
		}
		hi = probe;
		step *= 2;
	}
	return bsearch_gt(arr, lo, hi, t);
}

int tt_lod_cell_walk(const tt_lod_row *row, int64_t a, int64_t b, tt_lod_walk *w, size_t *count)
{
	size_t i, j;

	*count = 0;
	if (row->n == 0 || b <= a) {
		w->valid = 0;
		return 0;
	}
	if (w->valid && a == w->b && w->i <= w->j && w->j <= row->n) {
		/* the first item ending after a ends after the last cell's
		 * start (so it is at or after w->i) and is at or before the
		 * first item starting at or after a (w->j) */
		i = gallop_back_gt(row->maxend, w->i, w->j, a);
	} else {
		size_t h = w->i;
		if (h > row->n || (h > 0 && row->maxend[h - 1] > a))
			h = 0;
		i = gallop_gt(row->maxend, row->n, h, a);
	}
	if (i >= row->n || row->ts[i] >= b) {
		w->i = w->j = i;
		w->b = b;
		w->valid = i < row->n; /* j = i is this cell's end position */
		return 0;
	}
	/* where the last cell's count puts the end; then out from there */
	size_t g = w->valid && w->j >= w->i ? i + (w->j - w->i) : i + 1;
	if (g > row->n)
		g = row->n;
	if (g <= i)
		g = i + 1;
	if (row->ts[g - 1] > b - 1)
		j = gallop_back_gt(row->ts, i, g - 1, b - 1);
	else
		j = gallop_gt(row->ts, row->n, g, b - 1);
	w->i = i;
	w->j = j;
	w->b = b;
	w->valid = 1;
	*count = j - i;
#ifdef __GNUC__
	/* a dense row at whole zoom: each cell's first probes miss the
	 * cache (the rows are far larger than it); ask now for the lines a
	 * cell a few to the right will read, where the density puts it */
	size_t d = j - i, ahead = j + 4 * d;
	if (d > 8 && ahead + 8 < row->n) {
		/* the guess is good to a few items: the line before too */
		__builtin_prefetch(&row->ts[ahead - 8]);
		__builtin_prefetch(&row->ts[ahead]);
		__builtin_prefetch(&row->maxend[ahead - 8]);
		__builtin_prefetch(&row->maxend[ahead]);
	}
#endif
	return 1;
}

/* Of the `count` items of a row from position i on, sharing the cell
 * [a, b): the one covering at least half of the cell, or -1. Checks the
 * first few (an item inside the cell can only cover half of it when the
 * cell holds few). */
static inline int64_t dominant(const tt_lod_row *row, size_t i, size_t count, int64_t a, int64_t b,
			size_t *pos)
{
	int64_t half = (b - a + 1) / 2;
	size_t last = i + (count < 4 ? count : 4);

	if (last > row->n)
		last = row->n;
	/* the blocks of those items hold none as long as half the cell
	 * (rows of short slices at whole zoom: most busy cells) */
	if (last > i && row->coarse_len && row->coarse_len[i / TT_LOD_BLOCK] < half &&
	    row->coarse_len[(last - 1) / TT_LOD_BLOCK] < half)
		return -1;
	for (size_t k = i; k < last; k++) {
		int64_t s = row->ts[k] > a ? row->ts[k] : a;
		/* the row's own running maximum of ends first (read in
		 * order, in cache; >= the item's end, and the end itself in a
		 * row without overlaps): most cells are settled without
		 * reading the slice columns at random */
		int64_t e = row->maxend[k];
		if ((e < b ? e : b) - s < half)
			continue;
		if (!row->exact_end)
			e = tt_lod_end(&row->src, row->ids[k]);
		if ((e < b ? e : b) - s >= half) {
			*pos = k;
			return row->ids[k];
		}
	}
	return -1;
}

/* The block index's answer for a dense cell: 2 (busy, *dom, *marked set)
 * or -1 when the exact positions are needed. */
static int cell_dense(const tt_lod_row *row, int64_t a, int64_t b, tt_lod_walk *w, int64_t *dom,
		      int *marked)
{
	size_t nb = row->ncoarse, k = w->k, k2;

	if (nb < 3)
		return -1;
	if (k >= nb || (k > 0 && row->coarse_end[k - 1] > a))
		k = 0; /* past the answer: start over */
	/* the block of the cell's first item: the first whose maxend passes
	 * a (galloping on from the last dense cell's block) */
	k = gallop_gt(row->coarse_end, nb, k, a);
	w->k = k;
	if (k + 3 > nb || row->coarse_ts[k + 2] >= b)
		return -1;
	/* k2 = the first block starting at or after b, at least k + 3: the
	 * cell's end is at least two whole blocks after its first item */
	k2 = gallop_gt(row->coarse_ts, nb, k + 3, b - 1);
	/* the first item i is in block k, the end j in ((k2 - 1) B, k2 B]:
	 * [i, j) holds [(k + 1) B - 1, (k2 - 1) B + 1) and lies within
	 * [k B, k2 B) */
	size_t in_lo = (k + 1) * TT_LOD_BLOCK - 1, in_hi = (k2 - 1) * TT_LOD_BLOCK + 1;
	size_t out_lo = k * TT_LOD_BLOCK, out_hi = k2 * TT_LOD_BLOCK < row->n ? k2 * TT_LOD_BLOCK : row->n;
	int m = 0;
	if (row->nmarks) {
		if (tt_lod_marked(row, in_lo, in_hi))
			m = 1;
		else if (tt_lod_marked(row, out_lo, out_hi))
			return -1;
	}
	if (!m) {
		/* the dominant item is one of the first four from i: in block
		 * k or k + 1; none there is long enough to cover half */
		int64_t half = (b - a + 1) / 2;
		if (row->coarse_len[k] >= half || row->coarse_len[k + 1] >= half)
			return -1;
	}
	*marked = m;
	*dom = -1;
	w->valid = 0;
	w->i = out_lo; /* a hint at or before the next cell's first item */
	return 2;
}

/* tt_lod_cell_kind for any cell: the block index, else the walk. */
static int cell_any(const tt_lod_row *row, int64_t a, int64_t b, tt_lod_walk *w, int64_t *dom, int *marked)
{
	size_t count;

	if (row->coarse_ts && cell_dense(row, a, b, w, dom, marked) == 2)
		return 2;
	if (!tt_lod_cell_walk(row, a, b, w, &count))
		return 0;
	if (count < 2)
		return 1;
	*marked = row->nmarks && tt_lod_marked(row, w->i, w->i + count);
	if (!*marked)
		*dom = dominant(row, w->i, count, a, b, &w->dpos);
	return 2;
}

int tt_lod_cell_kind(const tt_lod_row *row, int64_t a, int64_t b, tt_lod_walk *w, int64_t *dom,
		     int *marked)
{
	int64_t edge[2] = {a, b};
	tt_lod_cellans o;

	*dom = -1;
	*marked = 0;
	if (row->n == 0 || b <= a)
		return 0;
	tt_lod_cells(row, edge, 1, w, &o);
	*marked = o.marked;
	*dom = o.dpos != SIZE_MAX ? (int64_t)row->ids[o.dpos] : -1;
	return o.kind;
}

/* Items of the last cell at most after which the next cell is walked to
 * step by step; beyond, by galloping and the block index. */
enum { SPARSE = 8 };

int tt_lod_cells(const tt_lod_row *row, const int64_t *edge, int n, tt_lod_walk *w, tt_lod_cellans *out)
{
	const int64_t *ts = row->ts, *me = row->maxend;
	const size_t nit = row->n;
	tt_lod_walk lw = *w; /* a local, each answer stored at once: stores
			      * to out[] could alias *w and *row */
	int c;

	for (c = 0; c < n; c++) {
		int64_t a = edge[c], b = edge[c + 1], dom = -1;
		int kind, marked = 0;
		if (b <= a) {
			b = tt_tm_add(a, 1);
			if (b <= a) {
				out[c].kind = TT_LOD_STOP;
				break;
			}
		}
		if (nit == 0) {
			kind = 0;
		} else if (!(lw.valid && a == lw.b && lw.i <= lw.j && lw.j - lw.i <= SPARSE && lw.j <= nit)) {
			kind = cell_any(row, a, b, &lw, &dom, &marked);
		} else {
			/* the cell after a sparse one (most cells at whole
			 * zoom), as tt_lod_cell_walk walks it: lw.j is the
			 * first item starting at or after a, so the first item
			 * ending after a is a step or two back from it, and the
			 * first starting at or after b a step or two on; the
			 * block index would not settle such a cell */
			size_t i = lw.j, j;
			while (i > lw.i && me[i - 1] > a)
				i--;
			if (i >= nit || ts[i] >= b) {
				lw.i = lw.j = i;
				lw.valid = i < nit;
				kind = 0;
			} else {
				/* the items of [i, lw.j) start before a < b */
				j = lw.j > i ? lw.j : i;
				for (int steps = 0; j < nit && ts[j] < b; j++)
					if (++steps > SPARSE) {
						j = gallop_gt(ts, nit, j, b - 1);
						break;
					}
				lw.i = i;
				lw.j = j;
				kind = j - i < 2 ? 1 : 2;
				if (kind == 2) {
					marked = row->nmarks && tt_lod_marked(row, i, j);
					if (!marked)
						dom = dominant(row, i, j - i, a, b, &lw.dpos);
				}
			}
			lw.b = b;
		}
		out[c] = (tt_lod_cellans){kind, marked, lw.i, dom >= 0 ? lw.dpos : SIZE_MAX};
		if (kind != 2)
			break;
	}
	*w = lw;
	return c < n ? c + 1 : n;
}

int tt_lod_value(const tt_lod_row *row, int64_t a, int64_t b, double *out)
{
	size_t i, j;

	if (row->n == 0)
		return 0;
	i = tt_lod_lower(row, a);
	j = gallop_gt(row->ts, row->n, i, tt_tm_sub(b, 1));
	if (i < j) {
		*out = row->src.value[range_best(row, i, j)];
		return 1;
	}
	if (i == 0)
		return 0;
	*out = row->src.value[row->ids[i - 1]];
	return 1;
}

int tt_lod_value_from(const tt_lod_row *row, int64_t a, int64_t b, size_t *hint, double *out)
{
	size_t i, j;

	if (row->n == 0)
		return 0;
	/* cells left to right: gallop on from the previous cell's start */
	i = gallop_gt(row->ts, row->n, *hint <= row->n ? *hint : 0, tt_tm_sub(a, 1));
	if (i > 0 && row->ts[i - 1] >= a)
		i = tt_lod_lower(row, a); /* the hint was past a: start over */
	*hint = i;
	j = gallop_gt(row->ts, row->n, i, tt_tm_sub(b, 1));
	if (i < j) {
		*out = row->src.value[range_best(row, i, j)];
		return 1;
	}
	if (i == 0)
		return 0;
	*out = row->src.value[row->ids[i - 1]];
	return 1;
}

int64_t tt_lod_at(const tt_lod_row *row, int64_t t)
{
	if (t == INT64_MAX)
		t--; /* the last nanosecond there is */
	return tt_lod_pick(row, t, t + 1, NULL);
}
