/*
 * test_sorter.c - the importers' sorter (core/import/sorter.h): stable by
 * (ts, arrival), streams merged, a windowed sorter emitting what is old
 * enough and never a record out of order, late records dropped and
 * counted, and on random input the same order as a stable sort.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sorter.h"

/* What came out, in order: ts and the tag each record carried in u.i. */
typedef struct out {
	int64_t ts[200000];
	int64_t tag[200000];
	uint32_t ord[200000];
	size_t n;
	size_t stop_at; /* emit returns 1 at this many (0: never) */
} out;

static int collect(void *ctx, const tt_event *e)
{
	out *o = ctx;

	if (o->stop_at && o->n == o->stop_at)
		return 1;
	o->ts[o->n] = e->ts;
	o->tag[o->n] = e->u.i;
	o->ord[o->n] = e->ord;
	o->n++;
	return 0;
}

static out *new_out(void)
{
	out *o = calloc(1, sizeof(*o));

	assert_non_null(o);
	return o;
}

static void push(tt_sorter *s, uint32_t stream, int64_t ts, int64_t tag)
{
	tt_event e = { .ts = ts, .u.i = tag };

	assert_true(tt_sorter_push(s, stream, &e) >= 0);
}

/* Equal timestamps keep their arrival order, over streams too. */
static void test_stable(void **state)
{
	tt_sorter *s = tt_sorter_new(TT_SORT_FULL);
	uint32_t a = tt_sorter_stream(s), b = tt_sorter_stream(s);
	out *o = new_out();
	static const int64_t want_tag[] = { 5, 1, 2, 6, 3, 4, 7 };

	(void)state;
	push(s, a, 10, 1);
	push(s, b, 10, 2);
	push(s, a, 20, 3);
	push(s, b, 20, 4);
	push(s, b, 5, 5);   /* b goes back in time: sorted before the merge */
	push(s, a, 10, 6);  /* a too, tied with 1 and 2: after them (arrival) */
	push(s, a, 30, 7);
	assert_int_equal(tt_sorter_held(s), 7);
	assert_int_equal(tt_sorter_flush(s, collect, o), 0); /* full: holds all */
	assert_int_equal(o->n, 0);
	assert_int_equal(tt_sorter_finish(s, collect, o), 0);
	assert_int_equal(o->n, 7);
	for (size_t i = 0; i < 7; i++)
		assert_int_equal(o->tag[i], want_tag[i]);
	assert_int_equal(o->ts[0], 5);
	assert_int_equal(o->ts[6], 30);
	/* ords are arrival numbers */
	assert_int_equal(o->ord[0], 4);
	assert_int_equal(o->ord[1], 0);
	assert_int_equal(tt_sorter_held(s), 0);
	assert_int_equal(tt_sorter_max_held(s), 7);
	free(o);
	tt_sorter_free(s);
}

/* A window: a sorted stream is emitted as it comes, never held whole;
 * what is inside the window waits. */
static void test_window_flush(void **state)
{
	tt_sorter *s = tt_sorter_new(100);
	uint32_t a = tt_sorter_stream(s);
	out *o = new_out();

	(void)state;
	for (int64_t i = 0; i < 100000; i++) {
		push(s, a, i * 10, i);
		if (i % 1000 == 999)
			assert_int_equal(tt_sorter_flush(s, collect, o), 0);
	}
	/* newest 999990: everything below 999890 left, the rest held */
	assert_int_equal(o->n, 99989);
	assert_int_equal(o->ts[o->n - 1], 999880);
	assert_true(tt_sorter_max_held(s) <= 1011);
	assert_int_equal(tt_sorter_held(s), 11);
	assert_int_equal(tt_sorter_finish(s, collect, o), 0);
	assert_int_equal(o->n, 100000);
	for (size_t i = 0; i < o->n; i++)
		assert_int_equal(o->tag[i], (int64_t)i);
	free(o);
	tt_sorter_free(s);
}

/* Open streams hold the flush back at their newest record; a closed one
 * does not. */
static void test_stream_heads(void **state)
{
	tt_sorter *s = tt_sorter_new(1000000);
	uint32_t a = tt_sorter_stream(s), b = tt_sorter_stream(s);
	out *o = new_out();

	(void)state;
	push(s, a, 100, 1);
	push(s, b, 50, 2);
	push(s, a, 200, 3);
	push(s, a, 5000000, 4); /* beyond the window: the window no longer binds */
	assert_int_equal(tt_sorter_flush(s, collect, o), 0);
	assert_int_equal(o->n, 0); /* b's newest is 50: nothing below it */
	push(s, b, 150, 5);
	assert_int_equal(tt_sorter_flush(s, collect, o), 0);
	assert_int_equal(o->n, 2); /* below 150: 50, 100 */
	assert_int_equal(o->tag[0], 2);
	assert_int_equal(o->tag[1], 1);
	tt_sorter_close(s, b);
	assert_int_equal(tt_sorter_flush(s, collect, o), 0);
	/* b closed; a's newest 5000000, window 1000000: below 4000000 */
	assert_int_equal(o->n, 4);
	assert_int_equal(o->tag[2], 5);
	assert_int_equal(o->tag[3], 3);
	assert_int_equal(tt_sorter_finish(s, collect, o), 0);
	assert_int_equal(o->n, 5);
	assert_int_equal(o->tag[4], 4);
	free(o);
	tt_sorter_free(s);
}

/* Out of order within the window: exact. Older than what was emitted:
 * dropped and counted, never emitted out of order. */
static void test_out_of_order(void **state)
{
	tt_sorter *s = tt_sorter_new(50);
	uint32_t a = tt_sorter_stream(s);
	tt_event late = { .ts = 10, .u.i = 99 };
	out *o = new_out();

	(void)state;
	push(s, a, 100, 1);
	push(s, a, 60, 2);   /* back 40: inside the window */
	push(s, a, 200, 3);
	push(s, a, 160, 4);
	push(s, a, 160, 5);
	assert_int_equal(tt_sorter_flush(s, collect, o), 0);
	/* newest pushed (the stream's) 160, window bound 150: 60, 100 */
	assert_int_equal(o->n, 2);
	assert_int_equal(o->tag[0], 2);
	assert_int_equal(o->tag[1], 1);
	assert_int_equal(tt_sorter_push(s, a, &late), -2);
	assert_int_equal(tt_sorter_late(s), 1);
	push(s, a, 150, 6);  /* at the bound: not late, and before 160 */
	assert_int_equal(tt_sorter_finish(s, collect, o), 0);
	assert_int_equal(o->n, 6);
	assert_int_equal(o->tag[2], 6);
	assert_int_equal(o->tag[3], 4);
	assert_int_equal(o->tag[4], 5);
	assert_int_equal(o->tag[5], 3);
	for (size_t i = 1; i < o->n; i++)
		assert_true(o->ts[i - 1] <= o->ts[i]);
	free(o);
	tt_sorter_free(s);
}

/* The emit function can stop the emission; the rest stays held. */
static void test_stop(void **state)
{
	tt_sorter *s = tt_sorter_new(TT_SORT_FULL);
	uint32_t a = tt_sorter_stream(s);
	out *o = new_out();

	(void)state;
	for (int i = 0; i < 3000; i++)
		push(s, a, 3000 - i, i);
	o->stop_at = 1500;
	assert_int_equal(tt_sorter_finish(s, collect, o), 1);
	assert_int_equal(o->n, 1500);
	assert_int_equal(tt_sorter_held(s), 1500);
	o->stop_at = 0;
	assert_int_equal(tt_sorter_finish(s, collect, o), 0);
	assert_int_equal(o->n, 3000);
	for (size_t i = 0; i < o->n; i++)
		assert_int_equal(o->ts[i], (int64_t)i + 1);
	free(o);
	tt_sorter_free(s);
}

typedef struct ref {
	int64_t ts;
	int64_t tag;
} ref;

static int ref_cmp(const void *a, const void *b)
{
	const ref *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->tag < y->tag ? -1 : x->tag > y->tag; /* tag = arrival: stable */
}

static unsigned rnd(unsigned *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return *seed >> 8;
}

/* What came out is want[0..n) in the order of a stable sort by ts. */
static void assert_stable_order(const out *o, ref *want, size_t n)
{
	qsort(want, n, sizeof(want[0]), ref_cmp);
	assert_int_equal(o->n, n);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(o->ts[i], want[i].ts);
		assert_int_equal(o->tag[i], want[i].tag);
	}
}

/* Random input on many streams (sorted runs, disorder, ties, negative
 * and extreme timestamps): the order of a stable sort, through finish
 * alone and through flushes with a window wider than the disorder. */
static void test_random_vs_qsort(void **state)
{
	static ref want[100000];
	unsigned seed = 12345;

	(void)state;
	for (int round = 0; round < 6; round++) {
		int windowed = round >= 3;
		tt_sorter *s = tt_sorter_new(windowed ? 1000 : TT_SORT_FULL);
		uint32_t st[70];
		int nst = 1 + (int)(rnd(&seed) % 70);
		size_t n = 1000 + rnd(&seed) % 99000;
		int64_t base = round == 2 ? INT64_MIN / 2 : 0, clock = 0;
		out *o = new_out();

		for (int i = 0; i < nst; i++)
			st[i] = tt_sorter_stream(s);
		for (size_t i = 0; i < n; i++) {
			int64_t ts;
			uint32_t k = st[rnd(&seed) % (unsigned)nst];

			clock += rnd(&seed) % 4; /* many ties */
			/* disorder up to 999 back: inside the window */
			ts = base + clock - (int64_t)(rnd(&seed) % (windowed ? 1000 : 1000000));
			if (round == 1 && i % 97 == 0)
				ts = INT64_MAX - (int64_t)(rnd(&seed) % 3);
			want[i] = (ref){ ts, (int64_t)i };
			push(s, k, ts, (int64_t)i);
			if (windowed && i % 777 == 0)
				assert_int_equal(tt_sorter_flush(s, collect, o), 0);
		}
		assert_int_equal(tt_sorter_late(s), 0);
		assert_int_equal(tt_sorter_finish(s, collect, o), 0);
		assert_stable_order(o, want, n);
		if (windowed)
			assert_true(tt_sorter_max_held(s) < n);
		free(o);
		tt_sorter_free(s);
	}
}

/* Streams written in bursts (a thread's events: the merge's next record
 * mostly comes from the stream it just took one from), with ties across
 * streams, bursts that overlap in time and streams that go back: the
 * order of a stable sort. */
static void test_bursts_vs_qsort(void **state)
{
	static ref want[60000];
	unsigned seed = 777;

	(void)state;
	for (int round = 0; round < 4; round++) {
		tt_sorter *s = tt_sorter_new(TT_SORT_FULL);
		uint32_t st[40];
		int64_t last[40] = { 0 };
		int nst = round == 0 ? 2 : 3 + (int)(rnd(&seed) % 38);
		size_t n = 0, cap = sizeof(want) / sizeof(want[0]) - 64;
		out *o = new_out();

		for (int i = 0; i < nst; i++)
			st[i] = tt_sorter_stream(s);
		while (n < cap) {
			int k = (int)(rnd(&seed) % (unsigned)nst);
			size_t burst = 1 + rnd(&seed) % (round == 3 ? 3 : 60);
			/* a burst starts at or a little after where the stream was */
			int64_t ts = last[k] + (int64_t)(rnd(&seed) % 40);

			for (size_t b = 0; b < burst && n < cap; b++) {
				ts += (int64_t)(rnd(&seed) % 3); /* ties inside and across */
				want[n] = (ref){ ts, (int64_t)n };
				push(s, st[k], ts, (int64_t)n);
				n++;
			}
			last[k] = ts;
			/* a stream that went back in time is sorted first */
			if (round == 2 && rnd(&seed) % 200 == 0)
				last[k] -= 100;
		}
		assert_int_equal(tt_sorter_finish(s, collect, o), 0);
		assert_stable_order(o, want, n);
		free(o);
		tt_sorter_free(s);
	}
}

/* A stream that went back only here and there (as a Chrome sequence
 * does: a few records in a hundred behind the newest): what is behind is
 * sorted on its own and merged into the rest (sort_stream's near path,
 * up to an eighth of the records behind; more goes to the full sort).
 * Records behind tie with records in order and with each other, and sit
 * at the extremes of int64; the order is a stable sort's either way. */
static void test_nearly_sorted_vs_qsort(void **state)
{
	static ref want[100000];
	unsigned seed = 4242;

	(void)state;
	for (int round = 0; round < 8; round++) {
		tt_sorter *s = tt_sorter_new(TT_SORT_FULL);
		uint32_t st[3];
		size_t n = round == 0 ? 80 : 2000 + rnd(&seed) % 97000;
		/* behind: 1 in `every` (round 7: about an eighth, either side
		 * of the line between the two sorts) */
		unsigned every = round == 7 ? 7 + rnd(&seed) % 3 : 10 + rnd(&seed) % 200;
		int64_t clock = round == 6 ? INT64_MIN + 100 : 0;
		out *o = new_out();

		for (int i = 0; i < 3; i++)
			st[i] = tt_sorter_stream(s);
		for (size_t i = 0; i < n; i++) {
			uint32_t k = st[round < 4 ? 0 : rnd(&seed) % 3];
			int64_t ts;

			clock += rnd(&seed) % 3; /* ties in order */
			ts = clock;
			if (i && rnd(&seed) % every == 0) {
				/* behind: often onto a timestamp already pushed */
				ts = clock - (int64_t)(rnd(&seed) % 50);
				if (round == 5 && i % 2)
					ts = INT64_MIN + (int64_t)(rnd(&seed) % 4);
			}
			if (round == 6 && i == n / 2)
				clock = INT64_MAX - 4 * (int64_t)n;
			want[i] = (ref){ ts, (int64_t)i };
			push(s, k, ts, (int64_t)i);
		}
		assert_int_equal(tt_sorter_finish(s, collect, o), 0);
		assert_stable_order(o, want, n);
		free(o);
		tt_sorter_free(s);
	}
}

/* Perfetto's read-buffer points: flush_until emits, in order, what comes
 * before the first record (in that order) pushed at or after the mark;
 * later records older than the last emitted are late, equal ones are
 * not. */
static void test_flush_until(void **state)
{
	tt_sorter *s = tt_sorter_new(TT_SORT_FULL);
	uint32_t a = tt_sorter_stream(s), b = tt_sorter_stream(s);
	tt_event e = { .ts = 5 };
	out *o = new_out();
	uint32_t mark;

	(void)state;
	push(s, a, 10, 0);
	push(s, b, 30, 1);
	push(s, a, 20, 2);
	push(s, b, 25, 3); /* b goes back in time */
	mark = tt_sorter_next_ord(s);
	assert_int_equal(mark, 4);
	push(s, a, 22, 4); /* after the mark, before 25 and 30 in ts */
	push(s, b, 15, 5); /* after the mark, older than 20: stops at 15 */
	assert_int_equal(tt_sorter_flush_until(s, mark, collect, o), 0);
	assert_int_equal(o->n, 1);
	assert_int_equal(o->tag[0], 0);
	assert_int_equal(tt_sorter_held(s), 5);
	/* 10 was emitted: 5 is late, 10 is not */
	assert_int_equal(tt_sorter_push(s, a, &e), -2);
	assert_int_equal(tt_sorter_late(s), 1);
	push(s, b, 10, 6);
	mark = tt_sorter_next_ord(s);
	push(s, a, 21, 7);
	assert_int_equal(tt_sorter_flush_until(s, mark, collect, o), 0);
	/* 10(6) 15(5) 20(2) then 21(7) is past the mark */
	assert_int_equal(o->n, 4);
	assert_int_equal(o->tag[1], 6);
	assert_int_equal(o->tag[2], 5);
	assert_int_equal(o->tag[3], 2);
	assert_int_equal(tt_sorter_finish(s, collect, o), 0);
	assert_int_equal(o->n, 8);
	assert_int_equal(o->tag[4], 7);
	assert_int_equal(o->tag[5], 4);
	assert_int_equal(o->tag[6], 3);
	assert_int_equal(o->tag[7], 1);
	free(o);
	tt_sorter_free(s);
}

/* A record behind its stream's newest goes to the stream's side stream
 * (sorter.c: side_of): the merge takes both, each in order, so the
 * output is still the stable sort; the side stream holds back no window
 * flush (it is closed), while the stream's own promise (its latest
 * record) still does; and what it holds leaves with the window. */
static void test_behind_aside(void **state)
{
	tt_sorter *s = tt_sorter_new(100);
	uint32_t a = tt_sorter_stream(s), b = tt_sorter_stream(s);
	out *o = new_out();
	int64_t prev_ts = INT64_MIN;
	uint32_t prev_ord = 0;

	(void)state;
	for (int64_t i = 0; i < 20000; i++) {
		int64_t ts = i * 10;

		/* one in ten of a's records is 60 behind, one in 50 of b's
		 * 95 behind (within the window: none is late) */
		push(s, a, i % 10 == 5 ? ts - 60 : ts, i);
		push(s, b, i % 50 == 7 ? ts - 95 : ts + 3, 100000 + i);
		if (i % 100 == 99)
			assert_int_equal(tt_sorter_flush(s, collect, o), 0);
	}
	/* everything older than the window left with the flushes: the side
	 * streams kept nothing back */
	assert_true(tt_sorter_held(s) < 100);
	assert_true(tt_sorter_max_held(s) < 300);
	assert_int_equal(tt_sorter_finish(s, collect, o), 0);
	assert_int_equal(tt_sorter_late(s), 0);
	assert_int_equal(o->n, 40000);
	for (size_t i = 0; i < o->n; i++) {
		assert_true(o->ts[i] > prev_ts || (o->ts[i] == prev_ts && o->ord[i] > prev_ord));
		prev_ts = o->ts[i];
		prev_ord = o->ord[i];
	}
	free(o);
	tt_sorter_free(s);
}

/* Emptied blocks are kept for the pushes after a flush (sorter.c's
 * pool): cycles of pushes of several blocks a stream (more blocks a cycle
 * than the default pool keeps), each flushed up to the cycle's start, so
 * that the blocks a flush empties are filled again by the next cycle
 * while older records of the same streams are still held. Every record
 * comes out once, in order, with its own ts and tag (a reused block that
 * kept a count or a link of its last use would repeat, lose or reorder
 * some). pool: tt_sorter_pool's max, or NO_POOL_CALL for the default. The
 * last QUIET streams push a few records a cycle (they never fill a
 * block, so they never take a pooled one). */
#define NO_POOL_CALL ((size_t)-2)
enum { STREAMS = 24, QUIET = 4, CYCLES = 9, PER = 800 };

static void block_reuse(size_t pool, size_t *most_pooled)
{
	tt_sorter *s = tt_sorter_new(TT_SORT_FULL);
	uint32_t st[STREAMS], mark = 0;
	out *o = new_out();
	int64_t tag = 0;
	size_t k, emitted = 0;

	*most_pooled = 0;
	if (pool != NO_POOL_CALL)
		tt_sorter_pool(s, pool);
	for (int i = 0; i < STREAMS; i++)
		st[i] = tt_sorter_stream(s);
	for (int c = 0; c < CYCLES; c++) {
		/* cycle c's records: ts c * PER * 100 + 100 * j + stream, tag in
		 * push order; stream 0 pushes only in even cycles, so it is
		 * drained whole and starts again from a pooled block */
		for (int j = 0; j < PER; j++)
			for (int i = 0; i < STREAMS; i++)
				if ((i || c % 2 == 0) && (i < STREAMS - QUIET || j % 300 == 0))
					push(s, st[i], (int64_t)c * PER * 100 + 100 * j + i, tag++);
		assert_int_equal(tt_sorter_flush_until(s, mark, collect, o), 0);
		if (tt_sorter_pooled(s) > *most_pooled)
			*most_pooled = tt_sorter_pooled(s);
		assert_true(tt_sorter_pooled(s) <= pool);
		/* everything before this cycle's first push came out */
		for (k = emitted; k < o->n; k++)
			assert_true(o->tag[k] < (int64_t)mark);
		assert_int_equal(o->n, mark);
		emitted = o->n;
		assert_int_equal(tt_sorter_held(s), (uint64_t)(tag - mark));
		mark = tt_sorter_next_ord(s);
	}
	assert_int_equal(tt_sorter_finish(s, collect, o), 0);
	/* the last merge keeps nothing: no pushes follow */
	assert_int_equal(tt_sorter_pooled(s), 0);
	assert_int_equal(o->n, (size_t)tag);
	/* ts rise with the tags here (each cycle after the last, streams in
	 * push order within a step): the output is the tags in order */
	for (k = 0; k < o->n; k++) {
		assert_int_equal(o->tag[k], (int64_t)k);
		assert_int_equal(o->ord[k], (uint32_t)k);
		if (k)
			assert_true(o->ts[k] > o->ts[k - 1]);
	}
	assert_int_equal(tt_sorter_held(s), 0);
	free(o);
	tt_sorter_free(s);
}

static void test_flush_until_block_reuse(void **state)
{
	size_t most;

	(void)state;
	/* the default: 32 blocks at most, and the flushes fill it */
	block_reuse(NO_POOL_CALL, &most);
	assert_int_equal(most, 32);
	/* all the full blocks the flushes empty (38 here: the busy streams
	 * fill a block about every other cycle) */
	block_reuse((size_t)-1, &most);
	assert_true(most > 32);
	block_reuse(3, &most);
	assert_int_equal(most, 3);
	block_reuse(0, &most);
	assert_int_equal(most, 0);
}

/* Only full blocks are pooled, and only a stream that has filled a block
 * takes one: a pooled block is resident whole, and a quiet stream's few
 * records would hold it. PER_BLOCK: sorter.c's BLOCK (64 KiB less its
 * 24-byte header). */
#define PER_BLOCK ((65536 - 24) / sizeof(tt_event))

static void test_pool_full_blocks(void **state)
{
	tt_sorter *s = tt_sorter_new(TT_SORT_FULL);
	uint32_t busy = tt_sorter_stream(s), quiet = tt_sorter_stream(s);
	out *o = new_out();
	int64_t ts = 0, tag = 0;

	(void)state;
	tt_sorter_pool(s, 100);
	/* a partial block, emptied: unmapped */
	for (int i = 0; i < 10; i++)
		push(s, busy, ts++, tag++);
	push(s, quiet, ts++, tag++);
	assert_int_equal(tt_sorter_flush_until(s, tt_sorter_next_ord(s), collect, o), 0);
	assert_int_equal(o->n, 11);
	assert_int_equal(tt_sorter_pooled(s), 0);
	/* three full blocks and a partial one: the full ones are pooled */
	for (size_t i = 0; i < 3 * PER_BLOCK + 5; i++)
		push(s, busy, ts++, tag++);
	assert_int_equal(tt_sorter_flush_until(s, tt_sorter_next_ord(s), collect, o), 0);
	assert_int_equal(tt_sorter_pooled(s), 3);
	/* the quiet stream never filled one: a new block of its own */
	push(s, quiet, ts++, tag++);
	assert_int_equal(tt_sorter_pooled(s), 3);
	/* the busy stream did: its next blocks come from the pool */
	for (size_t i = 0; i < PER_BLOCK + 1; i++)
		push(s, busy, ts++, tag++);
	assert_int_equal(tt_sorter_pooled(s), 1);
	/* a smaller limit unmaps the rest now */
	tt_sorter_pool(s, 0);
	assert_int_equal(tt_sorter_pooled(s), 0);
	assert_int_equal(tt_sorter_finish(s, collect, o), 0);
	assert_int_equal(o->n, (size_t)tag);
	for (size_t k = 0; k < o->n; k++)
		assert_int_equal(o->tag[k], (int64_t)k);
	free(o);
	tt_sorter_free(s);
}

/* Random pushes and flush points against a plain model: held records
 * sorted by (ts, ord), the prefix before the first ord >= mark emitted,
 * pushes older than the last emitted dropped. */
static int model_cmp(const void *x, const void *y)
{
	const ref *a = x, *b = y;

	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return (a->tag > b->tag) - (a->tag < b->tag);
}

static void test_flush_until_random(void **state)
{
	static ref held[60000];
	static int64_t want[60000];
	unsigned seed = 777;

	(void)state;
	for (int round = 0; round < 8; round++) {
		tt_sorter *s = tt_sorter_new(TT_SORT_FULL);
		uint32_t st[40];
		int nst = 1 + (int)(rnd(&seed) % 40);
		size_t n = 1000 + rnd(&seed) % 50000, nheld = 0, nwant = 0, late = 0;
		int64_t clock = 0, last = INT64_MIN, ord = 0;
		uint32_t mark = 0;
		out *o = new_out();

		for (int i = 0; i < nst; i++)
			st[i] = tt_sorter_stream(s);
		for (size_t i = 0; i < n; i++) {
			tt_event e;
			int64_t ts, r;

			clock += rnd(&seed) % 4;
			ts = clock - (int64_t)(rnd(&seed) % (round & 1 ? 50 : 5000));
			e = (tt_event){ .ts = ts, .u.i = ord };
			r = tt_sorter_push(s, st[rnd(&seed) % (unsigned)nst], &e);
			if (ts < last) {
				assert_int_equal(r, -2);
				late++;
			} else {
				assert_int_equal(r, ord);
				held[nheld++] = (ref){ ts, ord++ };
			}
			if (rnd(&seed) % 1000 == 0) {
				size_t k = 0;

				assert_int_equal(tt_sorter_flush_until(s, mark, collect, o), 0);
				qsort(held, nheld, sizeof(held[0]), model_cmp);
				while (k < nheld && held[k].tag < mark)
					want[nwant++] = held[k++].tag;
				if (k)
					last = held[k - 1].ts;
				memmove(held, held + k, (nheld - k) * sizeof(held[0]));
				nheld -= k;
				mark = tt_sorter_next_ord(s);
				assert_int_equal(mark, ord);
				assert_int_equal(tt_sorter_held(s), nheld);
			}
		}
		assert_int_equal(tt_sorter_finish(s, collect, o), 0);
		qsort(held, nheld, sizeof(held[0]), model_cmp);
		for (size_t k = 0; k < nheld; k++)
			want[nwant++] = held[k].tag;
		assert_int_equal(tt_sorter_late(s), late);
		assert_int_equal(o->n, nwant);
		for (size_t k = 0; k < nwant; k++)
			assert_int_equal(o->tag[k], want[k]);
		free(o);
		tt_sorter_free(s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stable),
		cmocka_unit_test(test_window_flush),
		cmocka_unit_test(test_stream_heads),
		cmocka_unit_test(test_out_of_order),
		cmocka_unit_test(test_stop),
		cmocka_unit_test(test_random_vs_qsort),
		cmocka_unit_test(test_bursts_vs_qsort),
		cmocka_unit_test(test_nearly_sorted_vs_qsort),
		cmocka_unit_test(test_flush_until),
		cmocka_unit_test(test_flush_until_random),
		cmocka_unit_test(test_flush_until_block_reuse),
		cmocka_unit_test(test_pool_full_blocks),
		cmocka_unit_test(test_behind_aside),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
