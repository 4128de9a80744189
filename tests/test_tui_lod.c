/*
 * test_tui_lod.c - level-of-detail rows (tui/lod.c): what a cell shows,
 * checked against a brute-force scan, and the rule that a summary never
 * hides a slice that owns a whole cell.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "lod.h"
#include "testutil.h"

static void test_small_row(void **state)
{
	int64_t ts[] = {0, 10, 20, 30};
	int64_t dur[] = {10, 5, 1, 0};
	uint32_t ids[] = {3, 1, 0, 2}; /* any order in, sorted by ts inside */
	tt_lod_src src = {ts, dur, NULL, 100, NULL};
	tt_lod_row row;

	(void)state;
	assert_int_equal(tt_lod_build(&row, &src, ids, 4), 0);
	assert_int_equal(row.ids[0], 0);
	assert_int_equal(row.ids[3], 3);
	assert_int_equal(tt_lod_pick(&row, 0, 10, NULL), 0);
	assert_int_equal(tt_lod_pick(&row, 10, 20, NULL), 1);
	assert_int_equal(tt_lod_pick(&row, 12, 22, NULL), 1); /* 5 ns beats 1 ns */
	assert_int_equal(tt_lod_pick(&row, 16, 19, NULL), -1);
	assert_int_equal(tt_lod_pick(&row, 30, 31, NULL), 3); /* an instant has a cell */
	assert_int_equal(tt_lod_pick(&row, 29, 30, NULL), -1);
	assert_int_equal(tt_lod_pick(&row, 31, 50, NULL), -1);
	assert_int_equal(tt_lod_at(&row, 14), 1);
	assert_int_equal(tt_lod_at(&row, 15), -1);
	assert_int_equal(tt_lod_lower(&row, 11), 2);
	assert_int_equal(tt_lod_end(&src, 3), 31);
	tt_lod_free(&row);
}

static void test_unfinished_slice(void **state)
{
	int64_t ts[] = {5};
	int64_t dur[] = {-1};
	uint32_t ids[] = {0};
	tt_lod_src src = {ts, dur, NULL, 1000, NULL};
	tt_lod_row row;

	(void)state;
	assert_int_equal(tt_lod_build(&row, &src, ids, 1), 0);
	assert_int_equal(tt_lod_end(&src, 0), 1000);
	assert_int_equal(tt_lod_pick(&row, 900, 910, NULL), 0);
	tt_lod_free(&row);
}

/* Brute force: the longest slice intersecting [a, b) (earliest on ties). */
static int64_t brute(const int64_t *ts, const int64_t *dur, size_t n, int64_t a, int64_t b)
{
	int64_t best = -1, bestd = -1;

	for (size_t i = 0; i < n; i++) {
		int64_t e = ts[i] + (dur[i] > 0 ? dur[i] : 1);
		int64_t d = e - ts[i];
		if (ts[i] < b && e > a && d > bestd) {
			best = (int64_t)i;
			bestd = d;
		}
	}
	return best;
}

static void test_random_rows(void **state)
{
	enum { N = 3000 };
	int64_t *ts = malloc(N * sizeof *ts), *dur = malloc(N * sizeof *dur);
	uint32_t *ids = malloc(N * sizeof *ids);
	tt_lod_src src = {ts, dur, NULL, 0, NULL};
	tt_lod_row row;
	int64_t t = 0;

	(void)state;
	srand(7);
	/* non-overlapping slices (one depth) of very mixed widths */
	for (size_t i = 0; i < N; i++) {
		t += rand() % 50;
		ts[i] = t;
		dur[i] = (rand() % 4 == 0) ? rand() % 5000 : rand() % 20;
		t += dur[i] > 0 ? dur[i] : 1;
		ids[i] = (uint32_t)i;
	}
	assert_int_equal(tt_lod_build(&row, &src, ids, N), 0);
	assert_true(row.nlev >= 10);
	for (int q = 0; q < 20000; q++) {
		int64_t a = rand() % (t + 100) - 50;
		int64_t w = 1 + rand() % (q % 3 == 0 ? 20000 : 100);
		int64_t got = tt_lod_pick(&row, a, a + w, NULL);
		int64_t want = brute(ts, dur, N, a, a + w);
		if (want < 0) {
			assert_int_equal(got, -1);
			continue;
		}
		/* same length as the brute-force pick (ties may differ) */
		assert_true(got >= 0);
		assert_int_equal(tt_lod_end(&src, (uint32_t)got) - ts[got],
				 tt_lod_end(&src, (uint32_t)want) - ts[want]);
		assert_true(ts[got] < a + w && tt_lod_end(&src, (uint32_t)got) > a);
	}
	/* whole rows of cells with the hint give the same answers */
	for (int width = 7; width < 400; width *= 3) {
		size_t hint = 0;
		for (int c = 0; c < width; c++) {
			int64_t a = t * c / width, b = t * (c + 1) / width;
			assert_int_equal(tt_lod_pick(&row, a, b, &hint), tt_lod_pick(&row, a, b, NULL));
		}
	}
	tt_lod_free(&row);
	free(ts);
	free(dur);
	free(ids);
}

/* The LOD contract: whatever the zoom, a slice that covers a whole cell is
 * what that cell shows. */
static void test_whole_cell_never_hidden(void **state)
{
	enum { N = 5000 };
	int64_t *ts = malloc(N * sizeof *ts), *dur = malloc(N * sizeof *dur);
	uint32_t *ids = malloc(N * sizeof *ids);
	tt_lod_src src = {ts, dur, NULL, 0, NULL};
	tt_lod_row row;
	int64_t t = 0;
	int checked = 0;

	(void)state;
	srand(11);
	for (size_t i = 0; i < N; i++) {
		t += rand() % 3;
		ts[i] = t;
		dur[i] = rand() % 10 == 0 ? 200 + rand() % 2000 : 1 + rand() % 3;
		t += dur[i];
		ids[i] = (uint32_t)i;
	}
	assert_int_equal(tt_lod_build(&row, &src, ids, N), 0);
	for (int width = 10; width <= 10000; width *= 10) {
		size_t hint = 0;
		for (int c = 0; c < width; c++) {
			int64_t a = t * c / width, b = t * (c + 1) / width;
			size_t hint2 = hint, count;
			int64_t got = tt_lod_pick(&row, a, b, &hint);
			int64_t cell = tt_lod_cell(&row, a, b, &hint2, &count);
			for (size_t i = 0; i < N; i++)
				if (ts[i] <= a && ts[i] + dur[i] >= b && b > a) {
					assert_int_equal(got, (int64_t)i);
					assert_int_equal(cell, (int64_t)i);
					assert_int_equal(count, 1);
					checked++;
				}
			/* the renderer's cell query marks every non-empty cell */
			assert_int_equal(cell < 0, got < 0);
		}
	}
	assert_true(checked > 1000);
	tt_lod_free(&row);
	free(ts);
	free(dur);
	free(ids);
}

static void test_counter_values(void **state)
{
	int64_t ts[] = {0, 10, 20};
	double val[] = {1, 5, 3};
	uint32_t ids[] = {0, 1, 2};
	tt_lod_src src = {ts, NULL, val, 0, NULL};
	tt_lod_row row;
	double v = -1;

	(void)state;
	assert_int_equal(tt_lod_build(&row, &src, ids, 3), 0);
	assert_int_equal(tt_lod_value(&row, 0, 15, &v), 1);
	assert_true(v == 5);
	assert_int_equal(tt_lod_value(&row, 11, 19, &v), 1); /* held since 10 */
	assert_true(v == 5);
	assert_int_equal(tt_lod_value(&row, 20, 21, &v), 1);
	assert_true(v == 3);
	assert_int_equal(tt_lod_value(&row, 0, 30, &v), 1);
	assert_true(v == 5);
	assert_int_equal(tt_lod_value(&row, -5, -1, &v), 0);
	tt_lod_free(&row);
}

static void test_marks(void **state)
{
	int64_t ts[] = {0, 10, 20, 30, 40};
	int64_t dur[] = {5, 5, 5, 5, 5};
	uint32_t ids[] = {4, 3, 2, 1, 0};
	uint8_t bits[1] = {(1u << 1) | (1u << 3)}; /* ids 1 and 3 */
	tt_lod_src src = {ts, dur, NULL, 0, NULL};
	tt_lod_row row;

	(void)state;
	assert_int_equal(tt_lod_build(&row, &src, ids, 5), 0);
	assert_int_equal(tt_lod_mark(&row, bits), 0);
	assert_int_equal(row.nmarks, 2);
	assert_int_equal(row.marks[0], 1); /* positions in ts order */
	assert_int_equal(row.marks[1], 3);
	assert_int_equal(tt_lod_marked(&row, 0, 1), 0);
	assert_int_equal(tt_lod_marked(&row, 0, 2), 1);
	assert_int_equal(tt_lod_marked(&row, 2, 3), 0);
	assert_int_equal(tt_lod_marked(&row, 2, 5), 1);
	assert_int_equal(tt_lod_marked(&row, 4, 5), 0);
	/* the cell query hands the renderer the positions to ask about */
	size_t hint = 0, count;
	assert_int_equal(tt_lod_cell(&row, 0, 25, &hint, &count), 0);
	assert_int_equal(hint, 0);
	assert_int_equal(count, 3);
	assert_int_equal(tt_lod_marked(&row, hint, hint + count), 1);
	assert_int_equal(tt_lod_mark(&row, NULL), 0);
	assert_int_equal(row.nmarks, 0);
	assert_int_equal(tt_lod_marked(&row, 0, 5), 0);
	tt_lod_free(&row);
}

/* A row keeps the items' tags (slice names) in its own order, knows
 * whether its running maximum of ends is each item's own end (no
 * overlaps: the renderer then reads ends from the row), and the cell
 * query says where its dominant item is. */
static void test_tags_and_exact_ends(void **state)
{
	int64_t ts[] = {0, 10, 20, 30, 40, 12};
	int64_t dur[] = {5, 5, 8, 5, 5, 30};
	uint32_t tag[] = {100, 101, 102, 103, 104, 105};
	uint32_t ids[] = {4, 3, 2, 1, 0};
	tt_lod_src src = {ts, dur, NULL, 0, tag};
	tt_lod_row row;

	(void)state;
	assert_int_equal(tt_lod_build(&row, &src, ids, 5), 0);
	assert_int_equal(row.exact_end, 1);
	for (size_t i = 0; i < 5; i++) {
		assert_int_equal(row.tag[i], 100 + row.ids[i]); /* ts order */
		assert_int_equal(row.maxend[i], tt_lod_end(&src, row.ids[i]));
	}
	/* [18, 31) holds slice 2 (20..28: 8 of 13 ns) and slice 3's start
	 * (30..31): 2 covers most of it, at position 2 */
	tt_lod_walk w = {0};
	int64_t dom;
	int marked;
	assert_int_equal(tt_lod_cell_kind(&row, 18, 31, &w, &dom, &marked), 2);
	assert_int_equal(dom, 2);
	assert_int_equal(w.dpos, 2);
	assert_int_equal(row.tag[w.dpos], 102);
	tt_lod_free(&row);
	/* slice 5 (12..42) overlaps those after it: ends are not exact */
	uint32_t ids2[] = {0, 1, 5, 2, 3};
	assert_int_equal(tt_lod_build(&row, &src, ids2, 5), 0);
	assert_int_equal(row.exact_end, 0);
	tt_lod_free(&row);
	/* no tags asked for, none kept */
	src.tag = NULL;
	assert_int_equal(tt_lod_build(&row, &src, ids, 5), 0);
	assert_null(row.tag);
	tt_lod_free(&row);
}

/* The walk answers as tt_lod_cell does, cell by cell, on rows with and
 * without overlaps, dense and sparse, with cells skipped (the renderer
 * jumps over empty stretches) and cells of varying width. */
static void test_cell_walk(void **state)
{
	enum { N = 20000 };
	int64_t *ts = malloc(N * sizeof *ts), *dur = malloc(N * sizeof *dur);
	uint32_t *ids = malloc(N * sizeof *ids);
	tt_lod_src src = {ts, dur, NULL, 0, NULL};
	long compared = 0, busy = 0;

	(void)state;
	srand(7);
	for (int overlap = 0; overlap < 2; overlap++) {
		tt_lod_row row;
		int64_t t = 0;
		for (size_t i = 0; i < N; i++) {
			t += rand() % 5 == 0 ? rand() % 500 : rand() % 3;
			ts[i] = t;
			dur[i] = rand() % 50 == 0 ? 300 + rand() % 3000 : rand() % 4;
			if (overlap && rand() % 20 == 0)
				dur[i] = 5000 + rand() % 50000; /* async-like */
			if (!overlap)
				t += dur[i];
			ids[i] = (uint32_t)(N - 1 - i); /* built from any order */
		}
		/* ids name positions reversed: the source is by id */
		for (size_t i = 0; i < N / 2; i++) {
			int64_t x = ts[i];
			ts[i] = ts[N - 1 - i];
			ts[N - 1 - i] = x;
			x = dur[i];
			dur[i] = dur[N - 1 - i];
			dur[N - 1 - i] = x;
		}
		assert_int_equal(tt_lod_build(&row, &src, ids, N), 0);
		int64_t end = row.maxend[N - 1] + 100;
		for (int width = 7; width <= 70000; width *= 10) {
			size_t hint = 0;
			tt_lod_walk w = {0};
			int64_t a = -50;
			while (a < end) {
				int64_t cw = (end + 50) / width + rand() % 3;
				int64_t b = a + (cw > 0 ? cw : 1);
				size_t c1, c2;
				int64_t x = tt_lod_cell(&row, a, b, &hint, &c1);
				int64_t y = tt_lod_cell_walk(&row, a, b, &w, &c2) ? (int64_t)row.ids[w.i] : -1;
				assert_int_equal(x, y);
				assert_int_equal(c1, c2);
				assert_int_equal(hint, w.i);
				compared++;
				busy += c1 >= 2;
				/* now and then skip a few cells, as the renderer
				 * does past an empty stretch or a long slice */
				a = rand() % 10 == 0 ? b + rand() % (4 * cw + 1) : b;
			}
		}
		tt_lod_free(&row);
	}
	assert_true(compared > 100000);
	assert_true(busy > 1000);
	free(ts);
	free(dur);
	free(ids);
}

/* What a cell shows, the slow way: tt_lod_cell's positions, then the
 * first of the first four items covering half of the cell, the marks. */
static int ref_kind(const tt_lod_row *row, int64_t a, int64_t b, size_t *hint, int64_t *dom, int *marked,
		    int64_t *first)
{
	size_t count;
	int64_t id = tt_lod_cell(row, a, b, hint, &count);

	*dom = -1;
	*marked = 0;
	*first = id;
	if (id < 0)
		return 0;
	if (count == 1)
		return 1;
	*marked = tt_lod_marked(row, *hint, *hint + count);
	for (size_t k = *hint; !*marked && k < *hint + count && k < *hint + 4; k++) {
		int64_t s = row->ts[k] > a ? row->ts[k] : a, e = tt_lod_end(&row->src, row->ids[k]);
		if ((e < b ? e : b) - s >= (b - a + 1) / 2) {
			*dom = row->ids[k];
			break;
		}
	}
	return 2;
}

/* The cell verdict is the slow way's, dense cells settled from the block
 * index included: rows with dense stretches, long items inside them
 * (a dominant one), marks in and near the cells, skipped cells. */
static void test_cell_kind(void **state)
{
	enum { N = 30000 };
	int64_t *ts = malloc(N * sizeof *ts), *dur = malloc(N * sizeof *dur);
	uint32_t *ids = malloc(N * sizeof *ids);
	uint8_t *bits = calloc(N / 8 + 1, 1);
	tt_lod_src src = {ts, dur, NULL, 0, NULL};
	long kinds[3] = {0}, doms = 0, marks = 0, compared = 0, dense = 0;

	(void)state;
	srand(5);
	for (int pass = 0; pass < 3; pass++) {
		tt_lod_row row;
		int64_t t = 0;
		for (size_t i = 0; i < N; i++) {
			/* stretches of tiny items, now and then a long one or a gap */
			int r = rand() % 1000;
			t += r < 5 ? 20000 + rand() % 50000 : rand() % 3;
			ts[i] = t;
			dur[i] = r < 30 ? 500 + rand() % 20000 : 1 + rand() % 4;
			if (pass == 2 && r % 97 == 0)
				dur[i] = -1; /* unfinished: ends at open_end */
			t += dur[i] > 0 ? dur[i] : 1;
			ids[i] = (uint32_t)i;
		}
		src.open_end = t + 10;
		memset(bits, 0, N / 8 + 1);
		if (pass >= 1)
			for (int m = 0; m < (pass == 1 ? 40 : 400); m++) {
				int x = rand() % N;
				bits[x / 8] |= (uint8_t)(1u << (x % 8));
			}
		assert_int_equal(tt_lod_build(&row, &src, ids, N), 0);
		assert_int_equal(tt_lod_mark(&row, pass >= 1 ? bits : NULL), 0);
		int64_t end = row.maxend[N - 1] + 100;
		for (int width = 30; width <= 30000; width *= 10) {
			size_t hint = 0;
			tt_lod_walk w = {0};
			int64_t a = -20;
			while (a < end) {
				int64_t cw = (end + 20) / width + rand() % 5;
				int64_t b = a + (cw > 0 ? cw : 1);
				int64_t d1, d2, f1;
				int m1, m2;
				int k1 = ref_kind(&row, a, b, &hint, &d1, &m1, &f1);
				int k2 = tt_lod_cell_kind(&row, a, b, &w, &d2, &m2);
				assert_int_equal(k1, k2);
				assert_int_equal(d1, d2);
				assert_int_equal(m1, m2);
				if (k1 == 1)
					assert_int_equal(f1, row.ids[w.i]);
				if (k1 == 0)
					assert_int_equal(hint, w.i);
				kinds[k1]++;
				dense += k2 == 2 && !w.valid; /* the exact walk leaves it valid */
				doms += d1 >= 0;
				marks += m1;
				compared++;
				a = rand() % 10 == 0 ? b + rand() % (3 * cw + 1) : b;
			}
		}
		tt_lod_free(&row);
	}
	assert_true(compared > 50000);
	assert_true(dense > 1000); /* settled from the block index */
	assert_true(kinds[0] > 1000 && kinds[1] > 1000 && kinds[2] > 1000);
	assert_true(doms > 100);
	assert_true(marks > 100);
	free(ts);
	free(dur);
	free(ids);
	free(bits);
}

static void test_empty_row(void **state)
{
	tt_lod_src src = {NULL, NULL, NULL, 0, NULL};
	tt_lod_row row;
	double v;

	(void)state;
	assert_int_equal(tt_lod_build(&row, &src, NULL, 0), 0);
	assert_int_equal(tt_lod_pick(&row, 0, 10, NULL), -1);
	assert_int_equal(tt_lod_value(&row, 0, 10, &v), 0);
	tt_lod_free(&row);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_row),
		cmocka_unit_test(test_unfinished_slice),
		cmocka_unit_test(test_random_rows),
		cmocka_unit_test(test_whole_cell_never_hidden),
		cmocka_unit_test(test_counter_values),
		cmocka_unit_test(test_marks),
		cmocka_unit_test(test_tags_and_exact_ends),
		cmocka_unit_test(test_cell_walk),
		cmocka_unit_test(test_cell_kind),
		cmocka_unit_test(test_empty_row),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
