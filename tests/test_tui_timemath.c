/*
 * test_tui_timemath.c - the viewer's saturating time arithmetic
 * (tui/timemath.c) at the int64 edges, and the ns <-> column mapping of
 * tui/timefmt.c with windows that touch those edges.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "testutil.h"
#include "timefmt.h"
#include "timemath.h"

#define MAX INT64_MAX
#define MIN INT64_MIN

static void test_add_sub(void **state)
{
	(void)state;
	assert_true(tt_tm_add(1, 2) == 3);
	assert_true(tt_tm_add(MAX, 1) == MAX);
	assert_true(tt_tm_add(MAX - 1, 1) == MAX);
	assert_true(tt_tm_add(MAX, MAX) == MAX);
	assert_true(tt_tm_add(MIN, -1) == MIN);
	assert_true(tt_tm_add(MIN, MIN) == MIN);
	assert_true(tt_tm_add(MIN, MAX) == -1);
	assert_true(tt_tm_add(MAX, MIN) == -1);
	assert_true(tt_tm_sub(5, 7) == -2);
	assert_true(tt_tm_sub(MAX, MIN) == MAX);
	assert_true(tt_tm_sub(MIN, MAX) == MIN);
	assert_true(tt_tm_sub(MIN, 1) == MIN);
	assert_true(tt_tm_sub(0, MIN) == MAX);
	assert_true(tt_tm_sub(-1, MIN) == MAX);
	assert_true(tt_tm_sub(MIN, MIN) == 0);
	assert_true(tt_tm_sub(MAX, -1) == MAX);
}

static void test_mul_scale(void **state)
{
	(void)state;
	assert_true(tt_tm_mul(3, 7) == 21);
	assert_true(tt_tm_mul(-3, 7) == -21);
	assert_true(tt_tm_mul(MAX, 2) == MAX);
	assert_true(tt_tm_mul(MAX, -2) == MIN);
	assert_true(tt_tm_mul(MIN, -1) == MAX);
	assert_true(tt_tm_mul(MIN, 1) == MIN);
	assert_true(tt_tm_mul(INT64_C(1) << 62, 2) == MAX);
	assert_true(tt_tm_mul(-(INT64_C(1) << 62), 2) == MIN);
	/* k * step for a ruler tick far out */
	assert_true(tt_tm_mul(INT64_C(5000000000000000000), 5) == MAX);
	assert_true(tt_tm_scale(MAX, 3, 2) == MAX);
	assert_true(tt_tm_scale(MAX, 2, 3) == (int64_t)((__int128)MAX * 2 / 3));
	assert_true(tt_tm_scale(MIN, 2, 3) == (int64_t)((__int128)MIN * 2 / 3));
	assert_true(tt_tm_scale(MIN, -1, 1) == MAX);
	assert_true(tt_tm_scale(MIN, 1, -1) == MAX);
	assert_true(tt_tm_scale(10, 1, 0) == 10);
	assert_true(tt_tm_scale(-7, 1, 2) == -3); /* toward zero */
}

static void test_mid_len_end(void **state)
{
	(void)state;
	assert_true(tt_tm_mid(MIN, MAX) == -1);
	assert_true(tt_tm_mid(MAX, MAX) == MAX);
	assert_true(tt_tm_mid(MIN, MIN) == MIN);
	assert_true(tt_tm_mid(MAX - 1, MAX) == MAX - 1);
	assert_true(tt_tm_mid(-3, 0) == -2); /* floor */
	assert_true(tt_tm_mid(2, 5) == 3);
	assert_true(tt_tm_len(MIN, MAX) == MAX);
	assert_true(tt_tm_len(0, MAX) == MAX);
	assert_true(tt_tm_len(-1, MAX) == MAX);
	assert_true(tt_tm_len(MAX, MIN) == 0);
	assert_true(tt_tm_len(5, 5) == 0);
	assert_true(tt_tm_len(5, 9) == 4);
	assert_true(tt_tm_end(MAX - 10, INT64_C(1) << 62) == MAX);
	assert_true(tt_tm_end(MAX, 0) == MAX);
	assert_true(tt_tm_end(100, -1) == 100);
	assert_true(tt_tm_end(100, 5) == 105);
	assert_true(tt_tm_clamp(MIN, 0, 10) == 0);
	assert_true(tt_tm_clamp(MAX, 0, 10) == 10);
	assert_true(tt_tm_clamp(5, 10, 0) == 10);
	assert_true(tt_tm_floordiv(-1, 10) == -1);
	assert_true(tt_tm_floordiv(-10, 10) == -1);
	assert_true(tt_tm_floordiv(-11, 10) == -2);
	assert_true(tt_tm_floordiv(MIN, 1) == MIN);
	assert_true(tt_tm_floordiv(MAX, 3) == MAX / 3);
}

/* The column mapping with windows at the edges: no wrap, and every ns of
 * a column still maps back to it. */
static void test_mapping_edges(void **state)
{
	(void)state;
	int64_t span = INT64_C(1) << 62, t0 = MAX - span;
	for (int c = 0; c <= 300; c += 7) {
		int64_t a = tt_timefmt_ts(c, t0, span, 300);
		assert_true(a >= t0);
		assert_int_equal(tt_timefmt_col(a, t0, span, 300), c);
	}
	assert_true(tt_timefmt_ts(300, t0, span, 300) == MAX);
	assert_int_equal(tt_timefmt_col(MAX, t0, span, 300), 300);
	assert_int_equal(tt_timefmt_col(MIN, t0, span, 300), -900);
	/* a window starting at INT64_MIN */
	assert_true(tt_timefmt_ts(0, MIN, span, 80) == MIN);
	assert_int_equal(tt_timefmt_col(MIN, MIN, span, 80), 0);
	assert_int_equal(tt_timefmt_col(MAX, MIN, span, 80), 319);
	assert_int_equal(tt_timefmt_col(MAX, MIN, 1, 80), 1000000);
	/* a window past the end saturates instead of wrapping */
	assert_true(tt_timefmt_ts(80, MAX - 10, span, 80) == MAX);
	assert_true(tt_timefmt_ts(1, MAX, MAX, 2) == MAX);
	assert_true(tt_timefmt_ts(-5, MIN, MAX, 2) == MIN);
	/* tick steps of the widest spans stay positive */
	assert_true(tt_timefmt_tick_step(MAX, 1, 12) > 0);
	assert_true(tt_timefmt_tick_step(MAX, 300, 12) > 0);
	assert_true(tt_timefmt_tick_step(1, 300, 12) == 1);
	/* labels of the extremes */
	char buf[64];
	tt_timefmt_label(MIN, 1, 1, buf, sizeof buf);
	assert_string_equal(buf, "-9223372036.854775808s");
	tt_timefmt_exact(MIN, 0, buf, sizeof buf);
	assert_string_equal(buf, "-9223372036.854775808s");
	tt_timefmt_short(MIN, 0, buf, sizeof buf);
	assert_string_equal(buf, "-9223372036s");
	tt_timefmt_exact(MAX, 0, buf, sizeof buf);
	assert_string_equal(buf, "9223372036.854775807s");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_sub),
		cmocka_unit_test(test_mul_scale),
		cmocka_unit_test(test_mid_len_end),
		cmocka_unit_test(test_mapping_edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
