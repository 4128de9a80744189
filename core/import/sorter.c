/*
 * sorter.c - see sorter.h. Streams of blocks, a stable per-stream sort
 * where a stream went back in time, and a tournament-tree merge of the
 * streams up to a bound.
 */
#include "sorter.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Blocks are mapped, not malloc'ed: freed as the final merge passes them,
 * they leave the resident set at once instead of staying in malloc's heap
 * under the trackers' allocations. A merge that more pushes follow (a
 * window's flush, a flush up to an ord) keeps its emptied blocks in a
 * pool for them instead: mapping, faulting in and unmapping 64 KiB again
 * for every 1,365 records was a third of a Perfetto import's page faults,
 * and each unmap a TLB shootdown across the import's threads. The pool
 * is small (POOL_MAX blocks, 2 MiB): a pooled block stays resident while
 * the trackers grow during the merge, where an unmapped one would have
 * left, so a pool of all a flush empties (5 MiB a read-buffer point on
 * a Chromium trace) raised the most resident by that much (measured:
 * 52 -> 59 MiB for a 36 MiB file; 32 blocks: 53.6). 64 KiB a block.
 * That is the default; an importer that knows the most resident comes
 * later (tt_sorter_pool) lets the pool keep all until then. */
#define BLOCK_BYTES 65536
#define BLOCK ((BLOCK_BYTES - sizeof(sblock)) / sizeof(tt_event))
#define NO_STREAM UINT32_MAX
#define POOL_MAX 32
#define CARVE_BLOCKS 16

typedef struct sblock {
	struct sblock *next;
	uint32_t n, cap, head; /* records [head, n) not emitted yet */
	tt_event r[];
} sblock;

typedef struct sstream {
	sblock *first, *last;
	int64_t last_ts;  /* the latest pushed: the stream's promise */
	int64_t tail_ts;  /* ts of the last record in block order */
	uint64_t held;
	int sorted;       /* the held records are in (ts, ord) order */
	int open, pushed;
	uint32_t late;    /* the stream's side stream (see side_of), or NO_STREAM */
	int filled;       /* it has filled a block (see append) */
} sstream;

struct tt_sorter {
	int64_t window;
	sstream *st;
	size_t nst, cap;
	uint32_t ord;
	int64_t max_ts;
	int have_max;
	int64_t bound;    /* every record with ts < bound was emitted */
	uint64_t late, held, max_held;
	int64_t emitted_ts; /* the ts of the last record emitted, when emitted */
	int emitted;
	sblock *pool;     /* emptied blocks kept for the next pushes */
	size_t npool;
	size_t pool_max;  /* at most this many (tt_sorter_pool) */
	char *carve;      /* the next block to cut (block_new) */
	size_t ncarve;    /* blocks left to cut there */
	int keep;         /* the merge running pools its emptied blocks */
};

tt_sorter *tt_sorter_new(int64_t window)
{
	tt_sorter *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->window = window;
	s->bound = INT64_MIN;
	s->pool_max = POOL_MAX;
	return s;
}

/* A new block, cut from a mapping of CARVE_BLOCKS: one mmap for 16
 * blocks (an mmap of its own for each was 1.7 % of the importing
 * thread's time on the Chromium class: 540 of them). The rest of the
 * mapping is address space only until a block is cut and written; each
 * block is unmapped on its own. */
static sblock *block_new(tt_sorter *s)
{
	sblock *b;

	if (!s->ncarve) {
		void *m = mmap(NULL, (size_t)CARVE_BLOCKS * BLOCK_BYTES, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED)
			return NULL;
		s->carve = m;
		s->ncarve = CARVE_BLOCKS;
	}
	b = (sblock *)(void *)s->carve;
	s->carve += BLOCK_BYTES;
	s->ncarve--;
	b->next = NULL;
	b->n = b->head = 0;
	b->cap = (uint32_t)BLOCK;
	return b;
}

static void block_free(sblock *b)
{
	munmap(b, BLOCK_BYTES);
}

/* An emptied block: pooled while a merge that more pushes follow runs,
 * else unmapped. Only a full one is pooled: it goes to a stream that
 * fills blocks (append), and a stream's last block, mostly a few records
 * of a quiet stream, is resident in those pages only. */
static void block_drop(tt_sorter *s, sblock *b)
{
	if (s->keep && s->npool < s->pool_max && b->n == b->cap) {
		b->next = s->pool;
		s->pool = b;
		s->npool++;
	} else {
		block_free(b);
	}
}

static void free_blocks(sblock *b)
{
	while (b) {
		sblock *n = b->next;
		block_free(b);
		b = n;
	}
}

void tt_sorter_pool(tt_sorter *s, size_t max)
{
	s->pool_max = max;
	while (s->npool > s->pool_max) {
		sblock *b = s->pool;

		s->pool = b->next;
		s->npool--;
		block_free(b);
	}
}

size_t tt_sorter_pooled(const tt_sorter *s)
{
	return s->npool;
}

void tt_sorter_free(tt_sorter *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nst; i++)
		free_blocks(s->st[i].first);
	free_blocks(s->pool);
	if (s->ncarve)
		munmap(s->carve, s->ncarve * BLOCK_BYTES);
	free(s->st);
	free(s);
}

uint32_t tt_sorter_stream(tt_sorter *s)
{
	if (s->nst == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 16;
		sstream *n = realloc(s->st, ncap * sizeof(*n));

		if (!n || s->nst >= NO_STREAM - 1)
			return NO_STREAM;
		s->st = n;
		s->cap = ncap;
	}
	s->st[s->nst] = (sstream){ .sorted = 1, .open = 1, .late = NO_STREAM };
	return (uint32_t)s->nst++;
}

void tt_sorter_close(tt_sorter *s, uint32_t stream)
{
	if (stream < s->nst)
		s->st[stream].open = 0;
}

/* Appends *e to stream t, numbered s->ord (tt_sorter_push counts it). */
static int append(tt_sorter *s, sstream *t, const tt_event *e)
{
	sblock *b = t->last;

	if (!b || b->n == b->cap) {
		/* A pooled block was filled before: all of its 64 KiB are
		 * resident, where a new block's pages come as they are
		 * written. So only a stream that has filled a block, and most
		 * likely fills this one, takes from the pool; one that writes
		 * a few records a flush (most of a Chrome trace's threads)
		 * would hold a pooled block's 64 KiB for them. */
		sblock *nb = (b || t->filled) ? s->pool : NULL;

		if (b)
			t->filled = 1;
		if (nb) {
			s->pool = nb->next;
			s->npool--;
			nb->next = NULL;
			nb->n = nb->head = 0;
		} else if (!(nb = block_new(s))) {
			return -1;
		}
		if (b)
			b->next = nb;
		else
			t->first = nb;
		t->last = b = nb;
	}
	b->r[b->n] = *e;
	b->r[b->n].ord = s->ord;
	b->n++;
	if (t->held && e->ts < t->tail_ts)
		t->sorted = 0;
	t->tail_ts = e->ts;
	t->held++;
	return 0;
}

/* A record behind its stream's newest held one goes to the stream's side
 * stream (closed: it holds back no flush), not among the others: the
 * merge takes the two as two leaves, each in (ts, ord) order, so the
 * stream itself stays sorted and only its few records behind are sorted
 * before a merge. A Chrome sequence puts about 3 % of its records behind
 * (an X event is written when it ends); sorting the whole stream in place
 * before each read-buffer flush (gathering 25k records, a permutation,
 * moving them) was 0.4 ms the importing thread waited for, 4 ms on the
 * Perfetto Chromium class. */
static sstream *side_of(tt_sorter *s, uint32_t stream)
{
	uint32_t k = s->st[stream].late;

	if (k == NO_STREAM) {
		k = tt_sorter_stream(s);
		if (k == NO_STREAM)
			return NULL;
		s->st[k].open = 0;
		s->st[stream].late = k; /* (s->st may have moved) */
	}
	return &s->st[k];
}

int64_t tt_sorter_push(tt_sorter *s, uint32_t stream, const tt_event *e)
{
	sstream *t;

	if (stream >= s->nst)
		return -1;
	if (e->ts < s->bound) {
		s->late++;
		return -2;
	}
	t = &s->st[stream];
	if (t->held && e->ts < t->tail_ts) {
		sstream *side = side_of(s, stream);

		if (!side || append(s, side, e))
			return -1;
		t = &s->st[stream];
	} else if (append(s, t, e)) {
		return -1;
	}
	t->last_ts = e->ts;
	t->pushed = 1;
	if (!s->have_max || e->ts > s->max_ts) {
		s->max_ts = e->ts;
		s->have_max = 1;
	}
	if (++s->held > s->max_held)
		s->max_held = s->held;
	return (int64_t)s->ord++;
}

/* ---- a stream's stable sort ----------------------------------------------------------- */

typedef struct skey {
	uint64_t key;
	uint32_t idx;
} skey;

#define RADIX_BITS 11
#define RADIX (1u << RADIX_BITS)

/* LSD radix sort of o[0..n) by key, stable; returns o or tmp. */
static skey *radix_sort(skey *o, skey *tmp, size_t n)
{
	uint64_t max = 0;

	for (size_t i = 0; i < n; i++)
		max |= o[i].key;
	for (int shift = 0; shift < 64 && (max >> shift); shift += RADIX_BITS) {
		size_t count[RADIX] = { 0 }, sum = 0;
		skey *t;

		for (size_t i = 0; i < n; i++)
			count[(o[i].key >> shift) & (RADIX - 1)]++;
		if (count[(o[0].key >> shift) & (RADIX - 1)] == n)
			continue;
		for (unsigned k = 0; k < RADIX; k++) {
			size_t c = count[k];
			count[k] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[count[(o[i].key >> shift) & (RADIX - 1)]++] = o[i];
		t = o;
		o = tmp;
		tmp = t;
	}
	return o;
}

/* Only side streams (side_of) go back in time, and one is often nearly
 * sorted itself (records behind by various amounts). Then only its
 * records behind its own running max are radix sorted, and merged into
 * the others, which are in order already. When more than 1/NEAR_DIV of
 * the records are behind, all of them are radix sorted. (Before side
 * streams, whole Chrome sequences were sorted so: 717 of 25,143 records
 * behind in one, 10 of 11,410 in the other; 24M instructions with a
 * radix sort of all, 2.2M so.) */
#define NEAR_DIV 8

/* perm[0..n) of the records at[] in (ts, index) order. nb == n: by a
 * radix sort of every record; else only the nb records behind the
 * running max (never all of them: the first is not) are radix sorted,
 * and merged into the others, in order already. 0, or -1 when out of
 * memory. */
static int sort_perm(tt_event *const *at, size_t n, size_t nb, int64_t min, uint32_t *perm)
{
	int all = nb == n;
	skey *o = malloc((nb ? nb : 1) * sizeof(*o)), *tmp = malloc((nb ? nb : 1) * sizeof(*tmp)), *srt;
	int64_t mx = INT64_MIN;
	size_t k = 0, j = 0, p = 0;

	if (!o || !tmp) {
		free(o);
		free(tmp);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (all || at[i]->ts < mx)
			o[k++] = (skey){ (uint64_t)at[i]->ts - (uint64_t)min, (uint32_t)i };
		else
			mx = at[i]->ts;
	}
	srt = radix_sort(o, tmp, nb);
	/* the same walk again: the records in order, and before each the
	 * ones sorted that come first by (ts, index) */
	mx = INT64_MIN;
	for (size_t i = 0; i < n && !all; i++) {
		uint64_t key;

		if (at[i]->ts < mx)
			continue;
		mx = at[i]->ts;
		key = (uint64_t)mx - (uint64_t)min;
		while (j < nb && (srt[j].key < key || (srt[j].key == key && srt[j].idx < i)))
			perm[p++] = srt[j++].idx;
		perm[p++] = (uint32_t)i;
	}
	while (j < nb)
		perm[p++] = srt[j++].idx;
	free(o);
	free(tmp);
	return 0;
}

/* Puts the held records of t in (ts, ord) order where they are (no copy of
 * the records: a big unsorted stream would need twice its memory).
 * Records of one stream arrive with rising ords, so a stable sort by ts
 * is enough; the permutation is then applied by following its cycles. */
static int sort_stream(sstream *t)
{
	size_t n = t->held, k = 0, m = n ? n : 1, nb = 0;
	tt_event **at = malloc(m * sizeof(*at));
	uint32_t *perm = malloc(m * sizeof(*perm));
	int64_t min = INT64_MAX, mx = INT64_MIN;
	int rc = -1;

	if (!at || !perm)
		goto out;
	for (sblock *b = t->first; b; b = b->next)
		for (uint32_t i = b->head; i < b->n; i++) {
			int64_t ts = b->r[i].ts;

			at[k++] = &b->r[i];
			if (ts < min)
				min = ts;
			if (ts < mx)
				nb++;
			else
				mx = ts;
		}
	if (sort_perm(at, n, nb > n / NEAR_DIV ? n : nb, min, perm))
		goto out;
	/* place i receives the record at perm[i]; a done place points at
	 * itself */
	for (size_t i = 0; i < n; i++) {
		tt_event hold;
		size_t j = i;

		if (perm[i] == i)
			continue;
		hold = *at[i];
		for (;;) {
			size_t from = perm[j];

			perm[j] = (uint32_t)j;
			if (from == i) {
				*at[j] = hold;
				break;
			}
			*at[j] = *at[from];
			j = from;
		}
	}
	t->tail_ts = n ? at[n - 1]->ts : t->tail_ts;
	t->sorted = 1;
	rc = 0;
out:
	free(at);
	free(perm);
	return rc;
}

/* ---- the merge -------------------------------------------------------------------------- */

/* Tournament ("loser") tree over the streams: t[0] holds the smallest
 * next record by (ts, ord), each inner node the loser of the match played
 * there. Taking the winner replays one leaf-to-root path without branches
 * (who wins is a coin toss when many streams interleave). An entry keeps
 * its record's key, so matches touch no record memory: key = ord << 32 |
 * leaf; a leaf past the bound holds the largest key. */
typedef struct lent {
	int64_t ts;
	uint64_t key;
} lent;

typedef struct mleaf {
	tt_sorter *s;
	sstream *st;
	sblock *b;
} mleaf;

#define DONE_KEY UINT64_MAX

static int lent_less(const lent *a, const lent *b)
{
	return (a->ts < b->ts) | ((a->ts == b->ts) & (a->key < b->key));
}

/* The leaf's next record below the bound (full: no bound). */
static lent leaf_head(mleaf *l, size_t j, int64_t bound, int full)
{
	lent e = { INT64_MAX, DONE_KEY };
	sblock *b = l->b;

	while (b && b->head == b->n) {
		/* an emptied block: freed at once (what is held shrinks while
		 * the trackers grow) */
		sblock *next = b->next;

		l->st->first = next;
		if (!next)
			l->st->last = NULL;
		block_drop(l->s, b);
		b = next;
	}
	l->b = b;
	if (b && b->head < b->n && (full || b->r[b->head].ts < bound)) {
		e.ts = b->r[b->head].ts;
		e.key = (uint64_t)b->r[b->head].ord << 32 | j;
	}
	return e;
}

/* Emits every held record with ts < bound (all of them when full), in
 * order, stopping before the first one whose ord is >= limit. */
static int merge(tt_sorter *s, int64_t bound, int full, uint64_t limit, tt_sorter_emit fn, void *ctx)
{
	size_t k = 1, n = 0, i;
	lent *t, *w, bar = { INT64_MAX, DONE_KEY };
	int have_bar = 0;
	mleaf *leaf;
	int rc = 0;

	for (i = 0; i < s->nst; i++)
		if (s->st[i].held) {
			if (!s->st[i].sorted && sort_stream(&s->st[i]))
				return -1;
			n++;
		}
	if (!n)
		return 0;
	while (k < n)
		k *= 2;
	t = malloc(k * sizeof(*t));
	w = malloc(2 * k * sizeof(*w));
	leaf = calloc(k, sizeof(*leaf));
	if (!t || !w || !leaf) {
		free(t);
		free(w);
		free(leaf);
		return -1;
	}
	n = 0;
	for (i = 0; i < s->nst; i++)
		if (s->st[i].held) {
			leaf[n].s = s;
			leaf[n].st = &s->st[i];
			leaf[n].b = s->st[i].first;
			n++;
		}
	for (i = 0; i < k; i++)
		w[k + i] = leaf[i].st ? leaf_head(&leaf[i], i, bound, full) : (lent){ INT64_MAX, DONE_KEY };
	for (i = k; i-- > 1;) {
		int a_wins = lent_less(&w[2 * i], &w[2 * i + 1]);
		w[i] = w[2 * i + !a_wins];
		t[i] = w[2 * i + a_wins];
	}
	t[0] = w[1];
	free(w);
	while (t[0].key != DONE_KEY && (t[0].key >> 32) < limit) {
		size_t j = (size_t)(t[0].key & 0xffffffffu);
		mleaf *l = &leaf[j];
		const tt_event *r = &l->b->r[l->b->head];
		lent e;

		if ((rc = fn(ctx, r)) != 0)
			break;
		s->emitted_ts = r->ts;
		s->emitted = 1;
		l->b->head++;
		l->st->held--;
		s->held--;
		e = leaf_head(l, j, bound, full);
		/* Runs: a stream's next record mostly wins again (4 in 5 on
		 * a Chromium trace: a thread writes bursts). The best loser
		 * on the winner's path is the runner-up; a head below it wins
		 * every match of the path, which a replay would leave as it
		 * is, so it takes the root at once. */
		if (!have_bar) {
			bar = (lent){ INT64_MAX, DONE_KEY };
			for (i = (k + j) >> 1; i; i >>= 1)
				if (lent_less(&t[i], &bar))
					bar = t[i];
			have_bar = 1;
		}
		if (lent_less(&e, &bar)) {
			t[0] = e;
			continue;
		}
		have_bar = 0;
		for (i = (k + j) >> 1; i; i >>= 1) {
			lent x = t[i];
			uint64_t up = -(uint64_t)lent_less(&x, &e); /* all ones: x wins and goes on up */

			t[i].ts = (int64_t)(((uint64_t)e.ts & up) | ((uint64_t)x.ts & ~up));
			t[i].key = (e.key & up) | (x.key & ~up);
			e.ts = (int64_t)(((uint64_t)x.ts & up) | ((uint64_t)e.ts & ~up));
			e.key = (x.key & up) | (e.key & ~up);
		}
		t[0] = e;
	}
	free(t);
	free(leaf);
	return rc;
}

int tt_sorter_flush(tt_sorter *s, tt_sorter_emit fn, void *ctx)
{
	int64_t bound;
	int rc;

	if (s->window < 0 || !s->have_max || !s->held)
		return 0;
	bound = s->max_ts - s->window;
	if (s->window > 0 && bound > s->max_ts)
		bound = INT64_MIN; /* overflow: nothing is old enough */
	for (size_t i = 0; i < s->nst; i++)
		if (s->st[i].open && s->st[i].pushed && s->st[i].last_ts < bound)
			bound = s->st[i].last_ts;
	if (bound <= s->bound)
		return 0;
	s->keep = 1;
	rc = merge(s, bound, 0, UINT64_MAX, fn, ctx);
	s->keep = 0;
	if (rc == 0)
		s->bound = bound;
	return rc;
}

int tt_sorter_finish(tt_sorter *s, tt_sorter_emit fn, void *ctx)
{
	/* no pushes follow: the pool goes, and so does each emptied block */
	free_blocks(s->pool);
	s->pool = NULL;
	s->npool = 0;
	return merge(s, 0, 1, UINT64_MAX, fn, ctx);
}

uint32_t tt_sorter_next_ord(const tt_sorter *s)
{
	return s->ord;
}

int tt_sorter_flush_until(tt_sorter *s, uint32_t ord, tt_sorter_emit fn, void *ctx)
{
	int rc;

	s->keep = 1;
	rc = merge(s, 0, 1, ord, fn, ctx);
	s->keep = 0;

	/* what was emitted cannot be preceded any more: a record older than
	 * the last one emitted is late (equal is not, as in trace processor) */
	if (s->emitted && s->emitted_ts > s->bound)
		s->bound = s->emitted_ts;
	return rc;
}

uint64_t tt_sorter_late(const tt_sorter *s)
{
	return s->late;
}

uint64_t tt_sorter_held(const tt_sorter *s)
{
	return s->held;
}

uint64_t tt_sorter_max_held(const tt_sorter *s)
{
	return s->max_held;
}
