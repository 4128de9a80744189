/*
 * test_tui_timefmt.c - time <-> column mapping, ruler steps and labels,
 * time text and the :goto parser (tui/timefmt.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "testutil.h"
#include "timefmt.h"

static void test_col_mapping(void **state)
{
	(void)state;
	assert_int_equal(tt_timefmt_col(50, 0, 100, 10), 5);
	assert_int_equal(tt_timefmt_col(59, 0, 100, 10), 5);
	assert_int_equal(tt_timefmt_col(60, 0, 100, 10), 6);
	assert_int_equal(tt_timefmt_col(99, 0, 100, 10), 9);
	assert_int_equal(tt_timefmt_col(100, 0, 100, 10), 10);
	/* floor, not truncation, left of the view */
	assert_int_equal(tt_timefmt_col(-1, 0, 100, 10), -1);
	assert_int_equal(tt_timefmt_col(-10, 0, 100, 10), -1);
	assert_int_equal(tt_timefmt_col(-11, 0, 100, 10), -2);
	/* absolute timestamps near 1e18 and spans that do not divide */
	int64_t t0 = INT64_C(1000000000000000000);
	assert_int_equal(tt_timefmt_col(t0 + 3, t0, 7, 3), 1);
	assert_int_equal(tt_timefmt_col(t0 + 2, t0, 7, 3), 0);
	/* 1 ns per cell: the deepest zoom */
	assert_int_equal(tt_timefmt_col(t0 + 79, t0, 80, 80), 79);
}

static void test_ts_mapping(void **state)
{
	(void)state;
	assert_int_equal(tt_timefmt_ts(5, 0, 100, 10), 50);
	assert_int_equal(tt_timefmt_ts(1, 0, 10, 3), 4); /* 3.33 -> 4 */
	assert_int_equal(tt_timefmt_ts(2, 0, 10, 3), 7);
	assert_int_equal(tt_timefmt_ts(3, 0, 10, 3), 10);
	/* every ns of a column maps back to that column */
	for (int c = 0; c < 97; c++) {
		int64_t a = tt_timefmt_ts(c, 1000, 12345, 97), b = tt_timefmt_ts(c + 1, 1000, 12345, 97);
		assert_int_equal(tt_timefmt_col(a, 1000, 12345, 97), c);
		assert_int_equal(tt_timefmt_col(b - 1, 1000, 12345, 97), c);
	}
}

static void test_tick_step(void **state)
{
	(void)state;
	/* the sample trace over 96 columns: labels >= 12 apart */
	assert_int_equal(tt_timefmt_tick_step(2226212000, 96, 12), 500000000);
	assert_int_equal(tt_timefmt_tick_step(1000, 100, 10), 100);
	assert_int_equal(tt_timefmt_tick_step(1000, 100, 11), 200);
	assert_int_equal(tt_timefmt_tick_step(1000, 100, 21), 500);
	assert_int_equal(tt_timefmt_tick_step(10, 100, 10), 1);
}

static void test_labels(void **state)
{
	char b[64];

	(void)state;
	tt_timefmt_label(0, 500000, 0, b, sizeof b);
	assert_string_equal(b, "0");
	tt_timefmt_label(1500000, 500000, 0, b, sizeof b);
	assert_string_equal(b, "1.5ms");
	tt_timefmt_label(2000000, 500000, 0, b, sizeof b);
	assert_string_equal(b, "2ms");
	tt_timefmt_label(500000, 500000, 1, b, sizeof b);
	assert_string_equal(b, "500\xc2\xb5s");
	tt_timefmt_label(500000, 500000, 0, b, sizeof b);
	assert_string_equal(b, "500us");
	tt_timefmt_label(1000000000, 500000000, 0, b, sizeof b);
	assert_string_equal(b, "1s");
	tt_timefmt_label(1231440000, 20000, 0, b, sizeof b);
	assert_string_equal(b, "1.23144s");
	tt_timefmt_label(40, 20, 0, b, sizeof b);
	assert_string_equal(b, "40ns");
	tt_timefmt_label(-2000, 1000, 0, b, sizeof b);
	assert_string_equal(b, "-2us");
}

static void test_exact_and_short(void **state)
{
	char b[64];

	(void)state;
	tt_timefmt_exact(1234567, 0, b, sizeof b);
	assert_string_equal(b, "1.234567ms");
	tt_timefmt_exact(0, 0, b, sizeof b);
	assert_string_equal(b, "0ns");
	tt_timefmt_exact(17000, 1, b, sizeof b);
	assert_string_equal(b, "17\xc2\xb5s");
	tt_timefmt_exact(-1500, 0, b, sizeof b);
	assert_string_equal(b, "-1.5us");
	tt_timefmt_exact(2226212000, 0, b, sizeof b);
	assert_string_equal(b, "2.226212s");
	tt_timefmt_exact(999, 0, b, sizeof b);
	assert_string_equal(b, "999ns");
	tt_timefmt_short(1234567, 0, b, sizeof b);
	assert_string_equal(b, "1.23ms");
	tt_timefmt_short(17000, 0, b, sizeof b);
	assert_string_equal(b, "17us");
	tt_timefmt_short(2226212000, 0, b, sizeof b);
	assert_string_equal(b, "2.22s");
	tt_timefmt_short(123456789, 0, b, sizeof b);
	assert_string_equal(b, "123ms");
}

static void test_parse(void **state)
{
	int64_t t = -5;

	(void)state;
	assert_int_equal(tt_timefmt_parse("1.5ms", &t), 0);
	assert_int_equal(t, 1500000);
	assert_int_equal(tt_timefmt_parse("200us", &t), 0);
	assert_int_equal(t, 200000);
	assert_int_equal(tt_timefmt_parse("200\xc2\xb5s", &t), 0);
	assert_int_equal(t, 200000);
	assert_int_equal(tt_timefmt_parse("3s", &t), 0);
	assert_int_equal(t, 3000000000);
	assert_int_equal(tt_timefmt_parse("7", &t), 0);
	assert_int_equal(t, 7);
	assert_int_equal(tt_timefmt_parse("+2 ns", &t), 0);
	assert_int_equal(t, 2);
	t = 99;
	assert_int_equal(tt_timefmt_parse("abc", &t), -1);
	assert_int_equal(tt_timefmt_parse("5 parsecs", &t), -1);
	assert_int_equal(tt_timefmt_parse("", &t), -1);
	assert_int_equal(tt_timefmt_parse("1e30s", &t), -1);
	assert_int_equal(t, 99);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_col_mapping),
		cmocka_unit_test(test_ts_mapping),
		cmocka_unit_test(test_tick_step),
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_exact_and_short),
		cmocka_unit_test(test_parse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
