/*
 * test_storage_args.c - arg sets kept once (tt_storage_args_dedupe): a set
 * with the rows of an earlier one is that set; any difference (a value,
 * a type, a key, the order, one row more) makes a new one; string values
 * compare by text whatever the row held before; off by default; the
 * table turns itself off when sets do not repeat.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "storage_int.h"

static uint32_t set_is(tt_storage *st, int64_t a, const char *s, int order)
{
	tt_storage_args_begin(st);
	if (order) {
		tt_storage_args_int(st, "a", a);
		tt_storage_args_str(st, "s", s, strlen(s));
	} else {
		tt_storage_args_str(st, "s", s, strlen(s));
		tt_storage_args_int(st, "a", a);
	}
	return tt_storage_args_end(st);
}

static void test_same_rows_same_set(void **state)
{
	tt_storage *st = tt_storage_new();
	uint32_t s0, s1, s2, s3, s4, s5, s6;
	size_t first, end;

	(void)state;
	tt_storage_args_dedupe(st, 1);
	s0 = set_is(st, 1, "x", 1);
	s1 = set_is(st, 2, "x", 1);      /* another value */
	s2 = set_is(st, 1, "x", 1);      /* the same as s0 */
	s3 = set_is(st, 1, "y", 1);      /* another string */
	s4 = set_is(st, 1, "x", 0);      /* the same rows in another order */
	tt_storage_args_begin(st);
	tt_storage_args_uint(st, "a", 1);  /* another type, same bits */
	tt_storage_args_str(st, "s", "x", 1);
	s5 = tt_storage_args_end(st);
	tt_storage_args_begin(st);
	tt_storage_args_int(st, "a", 1);
	tt_storage_args_str(st, "s", "x", 1);
	tt_storage_args_bool(st, "b", 0);  /* one row more */
	s6 = tt_storage_args_end(st);
	assert_int_equal(s0, 0);
	assert_int_equal(s1, 1);
	assert_int_equal(s2, s0);
	assert_int_equal(s3, 2);
	assert_int_equal(s4, 3);
	assert_int_equal(s5, 4);
	assert_int_equal(s6, 5);
	assert_int_equal(set_is(st, 1, "y", 1), s3);
	/* the repeated sets added no rows */
	assert_true(tt_storage_argset_rows(st, s6, &first, &end));
	assert_int_equal(first, 10);
	assert_int_equal(end, 13);
	tt_storage_free(st);
}

/* A string row written over an int row of a set that was dropped as a
 * repeat: the union's other bytes must not matter. */
static void test_strings_by_text(void **state)
{
	tt_storage *st = tt_storage_new();
	uint32_t a, b, c;

	(void)state;
	tt_storage_args_dedupe(st, 1);
	tt_storage_args_begin(st);
	tt_storage_args_str(st, "k", "v", 1);
	a = tt_storage_args_end(st);
	tt_storage_args_begin(st);
	tt_storage_args_int(st, "k", -1); /* all ones in the row's value */
	b = tt_storage_args_end(st);
	tt_storage_args_begin(st);
	tt_storage_args_int(st, "k", -1); /* a repeat: dropped, its row reused */
	assert_int_equal(tt_storage_args_end(st), b);
	tt_storage_args_begin(st);
	tt_storage_args_str(st, "k", "v", 1); /* written where -1 was */
	c = tt_storage_args_end(st);
	assert_int_equal(c, a);
	tt_storage_free(st);
}

static void test_off_by_default(void **state)
{
	tt_storage *st = tt_storage_new();

	(void)state;
	assert_int_equal(set_is(st, 1, "x", 1), 0);
	assert_int_equal(set_is(st, 1, "x", 1), 1);
	tt_storage_free(st);
}

/* 64k sets that never repeat: the table goes, sets stay distinct and
 * right. */
static void test_turns_off(void **state)
{
	tt_storage *st = tt_storage_new();
	uint32_t last = 0;

	(void)state;
	tt_storage_args_dedupe(st, 1);
	for (int64_t i = 0; i < 70000; i++)
		last = set_is(st, i, "x", 1);
	assert_int_equal(last, 69999);
	assert_int_equal(set_is(st, 5, "x", 1), 70000); /* no longer looked up */
	tt_storage_free(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_rows_same_set),
		cmocka_unit_test(test_strings_by_text),
		cmocka_unit_test(test_off_by_default),
		cmocka_unit_test(test_turns_off),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
