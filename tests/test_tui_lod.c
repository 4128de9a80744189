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
	tt_lod_src src = {ts, dur, NULL, 100};
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
	tt_lod_src src = {ts, dur, NULL, 1000};
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
	tt_lod_src src = {ts, dur, NULL, 0};
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
	tt_lod_src src = {ts, dur, NULL, 0};
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
	tt_lod_src src = {ts, NULL, val, 0};
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
	tt_lod_src src = {ts, dur, NULL, 0};
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

static void test_empty_row(void **state)
{
	tt_lod_src src = {NULL, NULL, NULL, 0};
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
		cmocka_unit_test(test_empty_row),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
