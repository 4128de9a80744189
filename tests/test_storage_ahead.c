/*
 * test_storage_ahead.c - rows ahead (storage.h): room made for the rows a
 * feed will append, so that their columns do not move while it appends,
 * and their pages populated by another thread meanwhile without touching
 * a byte. The appends must land where tt_storage_*_ahead said, and read
 * back exactly as without it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <pthread.h>
#include <cmocka.h>

#include "storage_int.h" /* the columns, to see that they stay put */

#define ROWS 200000 /* columns of MBs: mapped, grown by remapping */

static uint32_t a_track(tt_storage *st, int counter)
{
	tt_track_desc d = { .type = counter ? "counter" : "thread", .utid = TT_NONE, .upid = TT_NONE,
			    .parent_id = TT_NONE, .is_counter = counter, .cpu = -1 };

	return tt_storage_track_new(st, &d);
}

/* A new storage with one thread track, *t. */
static tt_storage *with_track(uint32_t *t)
{
	tt_storage *st = tt_storage_new();

	assert_non_null(st);
	*t = a_track(st, 0);
	return st;
}

struct populater {
	const tt_storage_ahead *a[2];
};

/* The merge thread's part, all at once, from the top down (so that it
 * meets the appends coming up). */
static void *populate(void *arg)
{
	struct populater *p = arg;

	for (int i = 0; i < 2; i++)
		for (size_t r = p->a[i]->to; r > p->a[i]->from; r -= r - p->a[i]->from < 1000 ? r - p->a[i]->from : 1000)
			tt_storage_ahead_populate(p->a[i], r - 1000 < p->a[i]->from ? p->a[i]->from : r - 1000, r);
	return NULL;
}

/* first rows appended plainly, then `more` each of slices and counters
 * after tt_storage_*_ahead, with a thread populating them (threaded) or
 * not; the columns must not move, and every row must read back. */
static void appends(size_t first, size_t more, int threaded)
{
	tt_storage *st = tt_storage_new();
	uint32_t ts_track, c_track;
	tt_storage_ahead a[2];
	struct populater p = { { &a[0], &a[1] } };
	pthread_t th;
	void *slice_ts, *counter_value;

	assert_non_null(st);
	ts_track = a_track(st, 0);
	c_track = a_track(st, 1);
	for (size_t i = 0; i < first; i++) {
		assert_int_equal(tt_storage_slice_append(st, ts_track, (int64_t)i * 10, 5, 0, 0, 0, -1, TT_NONE),
				 (int64_t)i);
		assert_int_equal(tt_storage_counter(st, c_track, (int64_t)i * 10, (double)i / 2), (int64_t)i);
	}
	assert_int_equal(tt_storage_slices_ahead(st, more, &a[0]), 0);
	assert_int_equal(tt_storage_counters_ahead(st, more, &a[1]), 0);
	if (!more) {
		assert_int_equal(a[0].from, a[0].to);
	} else {
		assert_int_equal(a[0].from, first);
		assert_int_equal(a[0].to, first + more);
		assert_int_equal(a[1].from, first);
		assert_int_equal(a[1].to, first + more);
		/* ts, dur, parent_id, track, depth, cat, name: no slice has
		 * args, so there is no arg_set_id column */
		assert_int_equal(a[0].ncol, 7);
		assert_null(st->slice.arg_set_id);
		/* ts, value, track */
		assert_int_equal(a[1].ncol, 3);
		assert_ptr_equal(a[0].col[0].base, st->slice.ts);
		assert_int_equal(a[0].col[0].esz, sizeof(int64_t));
	}
	slice_ts = st->slice.ts;
	counter_value = st->counter.value;
	if (threaded)
		assert_int_equal(pthread_create(&th, NULL, populate, &p), 0);
	for (size_t i = first; i < first + more; i++) {
		assert_int_equal(tt_storage_slice_append(st, ts_track, (int64_t)i * 10, 5, 0, 0, 0, -1, TT_NONE),
				 (int64_t)i);
		assert_int_equal(tt_storage_counter(st, c_track, (int64_t)i * 10, (double)i / 2), (int64_t)i);
	}
	if (threaded)
		assert_int_equal(pthread_join(th, NULL), 0);
	else
		populate(&p); /* over written rows: nothing changes */
	/* the room was made before: no append moved a column */
	assert_ptr_equal(st->slice.ts, slice_ts);
	assert_ptr_equal(st->counter.value, counter_value);
	assert_int_equal(tt_storage_slice_count(st), (int64_t)(first + more));
	assert_int_equal(tt_storage_counter_count(st), (int64_t)(first + more));
	for (size_t i = 0; i < first + more; i++) {
		assert_int_equal(tt_storage_slice_ts(st, (int64_t)i), (int64_t)i * 10);
		assert_int_equal(tt_storage_slice_dur(st, (int64_t)i), 5);
		assert_int_equal(st->counter.ts[i], (int64_t)i * 10);
		assert_true(st->counter.value[i] == (double)i / 2);
		assert_int_equal(st->counter.track[i], c_track);
	}
	tt_storage_free(st);
}

static void test_ahead_of_empty(void **state)
{
	(void)state;
	appends(0, ROWS, 0);
}

static void test_ahead_threaded(void **state)
{
	(void)state;
	appends(1000, ROWS, 1);
	appends(ROWS, ROWS / 3, 1);
}

static void test_nothing_ahead(void **state)
{
	(void)state;
	appends(5000, 0, 0);
}

/* The optional thread-time columns, once they exist, are among them. */
static void test_thread_time_columns(void **state)
{
	tt_storage_ahead a;
	uint32_t t;
	tt_storage *st = with_track(&t);

	(void)state;
	assert_int_equal(tt_storage_slice_append(st, t, 1, 1, 0, 0, 0, -1, TT_NONE), 0);
	tt_storage_slice_set_thread_time(st, 0, 7, 3);
	assert_int_equal(tt_storage_slices_ahead(st, ROWS, &a), 0);
	/* the seven, thread_ts and thread_dur (no args: no arg_set_id) */
	assert_int_equal(a.ncol, 9);
	tt_storage_ahead_populate(&a, 0, ROWS + 1);
	assert_int_equal(tt_storage_slice_thread_ts(st, 0), 7);
	for (int64_t i = 1; i <= ROWS; i++) {
		assert_int_equal(tt_storage_slice_append(st, t, i, 1, 0, 0, 0, -1, TT_NONE), i);
		assert_int_equal(tt_storage_slice_thread_ts(st, i), TT_TS_NONE);
	}
	tt_storage_free(st);
}

/* The optional arg_set_id column: absent while no slice has args (reads
 * give TT_NONE), made by the first slice that has some (the rows before
 * read TT_NONE), then among the columns made room for ahead. */
static void test_args_column(void **state)
{
	tt_storage_ahead a;
	uint32_t t;
	tt_storage *st = with_track(&t);

	(void)state;
	for (int64_t i = 0; i < 3; i++)
		assert_int_equal(tt_storage_slice_append(st, t, i, 1, 0, 0, 0, -1, TT_NONE), i);
	tt_storage_slice_set_args(st, 1, TT_NONE); /* none stays none: no column */
	assert_null(st->slice.arg_set_id);
	assert_int_equal(tt_storage_slice_args(st, 2), TT_NONE);
	assert_int_equal(tt_storage_slices_ahead(st, ROWS, &a), 0);
	assert_int_equal(a.ncol, 7);
	/* the first args: on a row already there */
	tt_storage_slice_set_args(st, 1, 9);
	assert_non_null(st->slice.arg_set_id);
	assert_int_equal(tt_storage_slice_args(st, 0), TT_NONE);
	assert_int_equal(tt_storage_slice_args(st, 1), 9);
	assert_int_equal(tt_storage_slice_args(st, 2), TT_NONE);
	/* then rows appended with and without, past the room made ahead */
	for (int64_t i = 3; i < 3 + 2 * ROWS; i++)
		assert_int_equal(tt_storage_slice_append(st, t, i, 1, 0, 0, 0, -1, i % 2 ? 5 : TT_NONE), i);
	for (int64_t i = 3; i < 3 + 2 * ROWS; i++)
		assert_int_equal(tt_storage_slice_args(st, i), i % 2 ? 5u : TT_NONE);
	assert_int_equal(tt_storage_slices_ahead(st, ROWS, &a), 0);
	assert_int_equal(a.ncol, 8);
	tt_storage_free(st);
	/* made by an append */
	st = with_track(&t);
	assert_int_equal(tt_storage_slice_append(st, t, 0, 1, 0, 0, 0, -1, TT_NONE), 0);
	assert_int_equal(tt_storage_slice_append(st, t, 1, 1, 0, 0, 0, -1, 4), 1);
	assert_int_equal(tt_storage_slice_args(st, 0), TT_NONE);
	assert_int_equal(tt_storage_slice_args(st, 1), 4);
	tt_storage_free(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ahead_of_empty),
		cmocka_unit_test(test_ahead_threaded),
		cmocka_unit_test(test_nothing_ahead),
		cmocka_unit_test(test_thread_time_columns),
		cmocka_unit_test(test_args_column),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
