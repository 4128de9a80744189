/*
 * test_storage_index.c - the per-track index tt_storage_finalize builds
 * (track.row_off / track.rows: a track's slice or counter rows by ts),
 * on tables small enough for one thread and big enough for the counter
 * half to run on a thread of its own (storage.c, HALF_MIN_ROWS): both
 * must give every track its own kind of rows, all of them, by ts (ties
 * by id), with max_depth and the trace bounds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "storage_int.h" /* track.row_off, track.rows */

#define NTRACKS 12 /* even: slice tracks, odd: counter tracks */

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* n slices and n counters spread over interleaved tracks, in ts order
 * except on tracks 4 (slices) and 5 (counters), whose ts go back now and
 * then; a few slices sit on a counter track and counters on a slice
 * track (kept out of the index). Checks the index against the rows. */
static void check_index(size_t n)
{
	tt_storage *st = tt_storage_new();
	uint32_t tr[NTRACKS];
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	int64_t ts = 1000, lo = INT64_MAX, hi = INT64_MIN;
	size_t want[NTRACKS] = { 0 };
	uint32_t want_depth[NTRACKS] = { 0 };

	assert_non_null(st);
	for (int t = 0; t < NTRACKS; t++) {
		tt_track_desc d = { .type = t % 2 ? "counter" : "thread", .utid = TT_NONE, .upid = TT_NONE,
				    .parent_id = TT_NONE, .is_counter = t % 2, .cpu = -1 };

		tr[t] = tt_storage_track_new(st, &d);
	}
	for (size_t i = 0; i < n; i++) {
		int t = (int)(rnd(&seed) % (NTRACKS / 2)) * 2;
		int64_t s_ts = t == 4 && i % 7 == 3 ? ts - 500 : ts;
		int64_t dur = (int64_t)(rnd(&seed) % 50);
		uint32_t depth = (uint32_t)(rnd(&seed) % 4);
		int c = (int)(rnd(&seed) % (NTRACKS / 2)) * 2 + 1;
		int64_t c_ts = c == 5 && i % 5 == 2 ? ts - 300 : ts + 1;

		if (i % 1000 == 999) /* a slice on a counter track, a counter on a slice track */
			t = 1, c = 0;
		assert_true(tt_storage_slice_append(st, tr[t], s_ts, dur, 0, 0, depth, -1, TT_NONE) >= 0);
		assert_true(tt_storage_counter(st, tr[c], c_ts, (double)i) >= 0);
		if (t % 2 == 0) {
			want[t]++;
			if (depth + 1 > want_depth[t])
				want_depth[t] = depth + 1;
		}
		if (c % 2 == 1)
			want[c]++;
		if (s_ts < lo)
			lo = s_ts;
		if (c_ts < lo)
			lo = c_ts;
		if (s_ts + dur > hi)
			hi = s_ts + dur;
		if (c_ts > hi)
			hi = c_ts;
		ts += 10;
	}
	tt_storage_finalize(st);
	assert_false(tt_storage_oom(st));
	assert_non_null(st->track.row_off);
	for (int t = 0; t < NTRACKS; t++) {
		size_t b = st->track.row_off[tr[t]], e = st->track.row_off[tr[t] + 1];
		const int64_t *col = t % 2 ? st->counter.ts : st->slice.ts;
		const uint32_t *owner = t % 2 ? st->counter.track : st->slice.track;
		size_t nrows = t % 2 ? st->counter.n : st->slice.n;
		char *seen = calloc(nrows, 1);

		assert_non_null(seen);
		assert_int_equal(e - b, want[t]);
		for (size_t k = b; k < e; k++) {
			uint32_t row = st->track.rows[k];

			assert_true(row < nrows);
			assert_int_equal(owner[row], tr[t]);
			assert_false(seen[row]);
			seen[row] = 1;
			if (k > b) {
				uint32_t prev = st->track.rows[k - 1];

				assert_true(col[prev] < col[row] || (col[prev] == col[row] && prev < row));
			}
		}
		free(seen);
		if (t % 2 == 0)
			assert_int_equal(st->track.max_depth[tr[t]], want_depth[t]);
	}
	assert_int_equal(st->start_ts, lo);
	assert_int_equal(st->end_ts, hi);
	tt_storage_free(st);
}

/* Below the threshold: one thread. */
static void index_small(void **state)
{
	(void)state;
	check_index(5000);
}

/* Above it (65,536 slices and counters): the counter half on its own
 * thread. */
static void index_two_threads(void **state)
{
	(void)state;
	check_index(70000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(index_small),
		cmocka_unit_test(index_two_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
