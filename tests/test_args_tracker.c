/*
 * test_args_tracker.c - core/import/args_tracker.c: arg sets kept once
 * (tt_args_tracker_dedupe): a set with the rows of an earlier one is that
 * set; any difference (a value, a type, a key, the order, one row more)
 * makes a new one; string values compare by text whatever the row held
 * before; off by default; the table turns itself off when sets do not
 * repeat; merged sets and args added to processes, threads and state
 * rows are kept once too.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "args_tracker.h"
#include "storage_int.h" /* argset_rows, arg_text */

static uint32_t set_is(tt_args_tracker *t, tt_storage *st, int64_t a, const char *s, int order)
{
	tt_storage_args_begin(st);
	if (order) {
		tt_storage_args_int(st, "a", a);
		tt_storage_args_str(st, "s", s, strlen(s));
	} else {
		tt_storage_args_str(st, "s", s, strlen(s));
		tt_storage_args_int(st, "a", a);
	}
	return tt_args_tracker_end(t);
}

static void test_same_rows_same_set(void **state)
{
	tt_storage *st = tt_storage_new();
	tt_args_tracker *t = tt_args_tracker_new(st);
	uint32_t s0, s1, s2, s3, s4, s5, s6;
	size_t first, end;

	(void)state;
	tt_args_tracker_dedupe(t, 1);
	s0 = set_is(t, st, 1, "x", 1);
	s1 = set_is(t, st, 2, "x", 1);      /* another value */
	s2 = set_is(t, st, 1, "x", 1);      /* the same as s0 */
	s3 = set_is(t, st, 1, "y", 1);      /* another string */
	s4 = set_is(t, st, 1, "x", 0);      /* the same rows in another order */
	tt_storage_args_begin(st);
	tt_storage_args_uint(st, "a", 1);  /* another type, same bits */
	tt_storage_args_str(st, "s", "x", 1);
	s5 = tt_args_tracker_end(t);
	tt_storage_args_begin(st);
	tt_storage_args_int(st, "a", 1);
	tt_storage_args_str(st, "s", "x", 1);
	tt_storage_args_bool(st, "b", 0);  /* one row more */
	s6 = tt_args_tracker_end(t);
	assert_int_equal(s0, 0);
	assert_int_equal(s1, 1);
	assert_int_equal(s2, s0);
	assert_int_equal(s3, 2);
	assert_int_equal(s4, 3);
	assert_int_equal(s5, 4);
	assert_int_equal(s6, 5);
	assert_int_equal(set_is(t, st, 1, "y", 1), s3);
	/* the repeated sets added no rows */
	assert_true(tt_storage_argset_rows(st, s6, &first, &end));
	assert_int_equal(first, 10);
	assert_int_equal(end, 13);
	tt_args_tracker_free(t);
	tt_storage_free(st);
}

/* A string row written over an int row of a set that was dropped as a
 * repeat: the union's other bytes must not matter. */
static void test_strings_by_text(void **state)
{
	tt_storage *st = tt_storage_new();
	tt_args_tracker *t = tt_args_tracker_new(st);
	uint32_t a, b, c;

	(void)state;
	tt_args_tracker_dedupe(t, 1);
	tt_storage_args_begin(st);
	tt_storage_args_str(st, "k", "v", 1);
	a = tt_args_tracker_end(t);
	tt_storage_args_begin(st);
	tt_storage_args_int(st, "k", -1); /* all ones in the row's value */
	b = tt_args_tracker_end(t);
	tt_storage_args_begin(st);
	tt_storage_args_int(st, "k", -1); /* a repeat: dropped, its row reused */
	assert_int_equal(tt_args_tracker_end(t), b);
	tt_storage_args_begin(st);
	tt_storage_args_str(st, "k", "v", 1); /* written where -1 was */
	c = tt_args_tracker_end(t);
	assert_int_equal(c, a);
	tt_args_tracker_free(t);
	tt_storage_free(st);
}

static void test_off_by_default(void **state)
{
	tt_storage *st = tt_storage_new();
	tt_args_tracker *t = tt_args_tracker_new(st);

	(void)state;
	assert_int_equal(set_is(t, st, 1, "x", 1), 0);
	assert_int_equal(set_is(t, st, 1, "x", 1), 1);
	tt_args_tracker_free(t);
	tt_storage_free(st);
}

/* 64k sets that never repeat: the table goes, sets stay distinct and
 * right. */
static void test_turns_off(void **state)
{
	tt_storage *st = tt_storage_new();
	tt_args_tracker *t = tt_args_tracker_new(st);
	uint32_t last = 0;

	(void)state;
	tt_args_tracker_dedupe(t, 1);
	for (int64_t i = 0; i < 70000; i++)
		last = set_is(t, st, i, "x", 1);
	assert_int_equal(last, 69999);
	assert_int_equal(set_is(t, st, 5, "x", 1), 70000); /* no longer looked up */
	tt_args_tracker_free(t);
	tt_storage_free(st);
}

/* A merge (a slice's end args, args added to a process, a thread, a
 * state row) keeps the merged set once as well; the new keys win. */
static void test_merges_kept_once(void **state)
{
	tt_storage *st = tt_storage_new();
	tt_args_tracker *t = tt_args_tracker_new(st);
	uint32_t a, b, m1, m2, upid, utid;
	char buf[32];
	size_t first, end;

	(void)state;
	tt_args_tracker_dedupe(t, 1);
	a = set_is(t, st, 1, "x", 1);
	tt_storage_args_begin(st);
	tt_storage_args_int(st, "a", 2);
	tt_storage_args_int(st, "c", 3);
	b = tt_args_tracker_end(t);
	m1 = tt_args_tracker_merge(t, a, b);
	m2 = tt_args_tracker_merge(t, a, b);
	assert_int_equal(m1, 2);
	assert_int_equal(m2, m1);
	assert_true(tt_storage_argset_rows(st, m1, &first, &end));
	assert_int_equal(end - first, 3);
	assert_string_equal(tt_storage_arg_text(st, first, buf, sizeof(buf)), "2"); /* a: end's value */
	assert_string_equal(tt_storage_arg_text(st, first + 1, buf, sizeof(buf)), "x");
	assert_string_equal(tt_storage_arg_text(st, first + 2, buf, sizeof(buf)), "3");
	assert_int_equal(tt_args_tracker_merge(t, a, TT_NONE), a);
	assert_int_equal(tt_args_tracker_merge(t, TT_NONE, b), b);
	/* rows: added args merge into the row's set, kept once */
	upid = tt_storage_process_append(st, 10);
	utid = tt_storage_thread_append(st, 11, upid);
	tt_args_tracker_add_to_process(t, upid, a);
	assert_int_equal(tt_storage_process_arg_set(st, upid), a);
	tt_args_tracker_add_to_process(t, upid, b);
	assert_int_equal(tt_storage_process_arg_set(st, upid), m1);
	tt_args_tracker_add_to_thread(t, utid, a);
	tt_args_tracker_add_to_thread(t, utid, b);
	assert_int_equal(tt_storage_thread_arg_set(st, utid), m1);
	tt_args_tracker_add_to_thread(t, utid + 1, b); /* no such thread */
	assert_int_equal(tt_storage_thread_arg_set(st, utid + 1), TT_NONE);
	assert_true(tt_storage_argset_rows(st, m1, &first, &end));
	assert_int_equal(tt_storage_arg_set_of(st, end - 1), m1);
	/* storage's own merge stores a new set each time */
	assert_int_equal(tt_storage_args_merge(st, a, b), m1 + 1);
	tt_args_tracker_free(t);
	tt_storage_free(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_rows_same_set),
		cmocka_unit_test(test_strings_by_text),
		cmocka_unit_test(test_off_by_default),
		cmocka_unit_test(test_turns_off),
		cmocka_unit_test(test_merges_kept_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
