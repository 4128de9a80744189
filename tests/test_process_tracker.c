/*
 * test_process_tracker.c - core/import/process_tracker.c on a bare
 * storage: the exact upid / utid each lookup gives, main threads, reused
 * pids and tids, threads whose process is learnt later or changes, the
 * reserved idle rows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "process_tracker.h"
#include "storage.h"

struct fx {
	tt_storage *st;
	tt_process_tracker *p;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (!f || !(f->st = tt_storage_new()) || !(f->p = tt_process_tracker_new(f->st)))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	tt_process_tracker_free(f->p);
	tt_storage_free(f->st);
	free(f);
	return 0;
}

/* Without main threads a thread makes its process and nothing else. */
static void plain_thread(void **state)
{
	struct fx *f = *state;

	assert_int_equal(tt_process_tracker_thread(f->p, 5, 1), 0);
	assert_int_equal(tt_storage_process_count(f->st), 1);
	assert_int_equal(tt_storage_thread_count(f->st), 1);
	assert_int_equal(tt_storage_process_pid(f->st, 0), 5);
	assert_int_equal(tt_storage_thread_tid(f->st, 0), 1);
	assert_int_equal(tt_storage_thread_upid(f->st, 0), 0);
	assert_int_equal(tt_process_tracker_thread(f->p, 5, 1), 0);
	assert_int_equal(tt_process_tracker_process(f->p, 5), 0);
	assert_int_equal(tt_process_tracker_thread_by_tid(f->p, 1), 0);
	assert_int_equal(tt_process_tracker_thread_by_tid(f->p, 5), TT_NONE);
	/* same tid in another process: another thread */
	assert_int_equal(tt_process_tracker_thread(f->p, 6, 1), 1);
	assert_int_equal(tt_storage_thread_upid(f->st, 1), 1);
	assert_int_equal(tt_process_tracker_thread_by_tid(f->p, 1), 1);
}

/* Thread names by rank: equal or higher replaces, lower does not, no
 * name changes nothing; a thread made anew for a reused tid starts at
 * the lowest rank; the idle thread's "swapper" outranks every source. */
static void thread_name_ranks(void **state)
{
	struct fx *f = *state;
	tt_str a = tt_storage_intern_cstr(f->st, "a"), b = tt_storage_intern_cstr(f->st, "b"),
	       c = tt_storage_intern_cstr(f->st, "c");
	uint32_t t = tt_process_tracker_thread(f->p, 5, 6), t2;

	tt_process_tracker_thread_name(f->p, t, a, TT_TN_OTHER);
	assert_int_equal(tt_storage_thread_name(f->st, t), a);
	tt_process_tracker_thread_name(f->p, t, b, TT_TN_OTHER);
	assert_int_equal(tt_storage_thread_name(f->st, t), b);
	tt_process_tracker_thread_name(f->p, t, c, TT_TN_DESCRIPTOR);
	tt_process_tracker_thread_name(f->p, t, a, TT_TN_FTRACE);
	tt_process_tracker_thread_name(f->p, t, a, TT_TN_THREAD_TYPE);
	tt_process_tracker_thread_name(f->p, t, 0, TT_TN_CONSTANT);
	assert_int_equal(tt_storage_thread_name(f->st, t), c);
	tt_process_tracker_thread_name(f->p, TT_NONE, a, TT_TN_CONSTANT); /* (nothing to name) */
	t2 = tt_process_tracker_thread_new(f->p, 5, 6);
	assert_int_not_equal(t2, t);
	tt_process_tracker_thread_name(f->p, t2, a, TT_TN_OTHER);
	assert_int_equal(tt_storage_thread_name(f->st, t2), a);
	assert_int_equal(tt_storage_thread_name(f->st, t), c);
	/* a utid far past the ones named so far */
	for (int i = 0; i < 600; i++)
		t2 = tt_process_tracker_thread(f->p, 5, 100 + i);
	tt_process_tracker_thread_name(f->p, t2, b, TT_TN_FTRACE);
	tt_process_tracker_thread_name(f->p, t2, a, TT_TN_OTHER);
	assert_int_equal(tt_storage_thread_name(f->st, t2), b);
}

/* With main threads, a new process comes with its thread tid = pid (made
 * first), and asking for that thread gives it, not a second one. */
static void main_thread_rule(void **state)
{
	struct fx *f = *state;

	tt_process_tracker_main_threads(f->p, 1);
	assert_int_equal(tt_process_tracker_thread(f->p, 5, 1), 1);
	assert_int_equal(tt_storage_thread_tid(f->st, 0), 5);
	assert_int_equal(tt_storage_thread_upid(f->st, 0), 0);
	assert_int_equal(tt_storage_thread_upid(f->st, 1), 0);
	assert_int_equal(tt_process_tracker_thread(f->p, 5, 5), 0);
	assert_int_equal(tt_process_tracker_thread_by_tid(f->p, 5), 0);
	/* a process alone */
	assert_int_equal(tt_process_tracker_process(f->p, 6), 1);
	assert_int_equal(tt_storage_thread_count(f->st), 3);
	assert_int_equal(tt_storage_thread_tid(f->st, 2), 6);
	assert_int_equal(tt_storage_thread_upid(f->st, 2), 1);
	/* the main thread asked first: one row, the process's own */
	assert_int_equal(tt_process_tracker_thread(f->p, 7, 7), 3);
	assert_int_equal(tt_storage_thread_count(f->st), 4);
	assert_int_equal(tt_storage_process_count(f->st), 3);
	/* a thread seen before its process (pid unknown) becomes the main
	 * thread when the process is made */
	assert_int_equal(tt_process_tracker_thread(f->p, -1, 9), 4);
	assert_int_equal(tt_storage_thread_upid(f->st, 4), TT_NONE);
	assert_int_equal(tt_process_tracker_process(f->p, 9), 3);
	assert_int_equal(tt_storage_thread_count(f->st), 5);
	assert_int_equal(tt_storage_thread_upid(f->st, 4), 3);
	assert_int_equal(tt_process_tracker_thread(f->p, 9, 9), 4);
}

/* A reused pid is a new process whose main thread is new too; a reused
 * (pid, tid) a new thread; later lookups find the new rows, the old rows
 * keep their process. */
static void pid_reuse(void **state)
{
	struct fx *f = *state;
	uint32_t old;

	tt_process_tracker_main_threads(f->p, 1);
	old = tt_process_tracker_thread(f->p, 5, 1);
	assert_int_equal(old, 1);
	assert_int_equal(tt_process_tracker_process_new(f->p, 5), 1);
	assert_int_equal(tt_process_tracker_process(f->p, 5), 1);
	assert_int_equal(tt_storage_thread_count(f->st), 3);
	assert_int_equal(tt_storage_thread_tid(f->st, 2), 5);
	assert_int_equal(tt_storage_thread_upid(f->st, 2), 1);
	assert_int_equal(tt_process_tracker_thread(f->p, 5, 5), 2);
	assert_int_equal(tt_process_tracker_thread_by_tid(f->p, 5), 2);
	/* (5, 1) still names the old thread until it is reused */
	assert_int_equal(tt_process_tracker_thread(f->p, 5, 1), old);
	assert_int_equal(tt_storage_thread_upid(f->st, old), 0);
	assert_int_equal(tt_process_tracker_thread_new(f->p, 5, 1), 3);
	assert_int_equal(tt_storage_thread_upid(f->st, 3), 1);
	assert_int_equal(tt_process_tracker_thread(f->p, 5, 1), 3);
	assert_int_equal(tt_process_tracker_thread_by_tid(f->p, 1), 3);
	assert_int_equal(tt_storage_thread_upid(f->st, old), 0);
	assert_int_equal(tt_storage_process_count(f->st), 2);
	assert_int_equal(tt_storage_process_pid(f->st, 0), 5);
	assert_int_equal(tt_storage_process_pid(f->st, 1), 5);
}

/* A thread of unknown process, then given one, then moved to another:
 * each (pid, tid) it was given finds it; its row says the last. */
static void thread_moved(void **state)
{
	struct fx *f = *state;
	uint32_t utid = tt_process_tracker_thread(f->p, -1, 9);

	assert_int_equal(utid, 0);
	assert_int_equal(tt_storage_process_count(f->st), 0);
	assert_int_equal(tt_process_tracker_thread(f->p, -1, 9), utid);
	tt_process_tracker_thread_set_pid(f->p, utid, 20);
	assert_int_equal(tt_storage_thread_upid(f->st, utid), 0);
	assert_int_equal(tt_storage_process_pid(f->st, 0), 20);
	assert_int_equal(tt_process_tracker_thread(f->p, 20, 9), utid);
	tt_process_tracker_thread_set_pid(f->p, utid, 21);
	assert_int_equal(tt_storage_thread_upid(f->st, utid), 1);
	assert_int_equal(tt_process_tracker_thread(f->p, 21, 9), utid);
	assert_int_equal(tt_process_tracker_thread(f->p, 20, 9), utid);
	assert_int_equal(tt_storage_thread_count(f->st), 1);
	/* out of range: nothing happens */
	tt_process_tracker_thread_set_pid(f->p, 7, 22);
	assert_int_equal(tt_storage_process_count(f->st), 2);
}

/* The idle rows: upid 0 / utid 0 before anything; pid 0 finds them only
 * where pid 0 is the idle task. */
static void idle_rows(void **state)
{
	struct fx *f = *state;
	tt_storage *st2 = tt_storage_new();
	tt_process_tracker *p2 = tt_process_tracker_new(st2);

	tt_process_tracker_main_threads(f->p, 1);
	assert_int_equal(tt_process_tracker_idle_rows(f->p, 1), 0);
	assert_int_equal(tt_storage_process_count(f->st), 1);
	assert_int_equal(tt_storage_thread_count(f->st), 1);
	assert_string_equal(tt_storage_str(f->st, tt_storage_thread_name(f->st, 0)), "swapper");
	/* (ftrace's "swapper/0" does not rename it) */
	tt_process_tracker_thread_name(f->p, 0, tt_storage_intern_cstr(f->st, "swapper/0"), TT_TN_FTRACE);
	assert_string_equal(tt_storage_str(f->st, tt_storage_thread_name(f->st, 0)), "swapper");
	assert_int_equal(tt_process_tracker_process(f->p, 0), 0);
	assert_int_equal(tt_process_tracker_thread(f->p, 0, 0), 0);
	assert_int_equal(tt_process_tracker_thread_by_tid(f->p, 0), 0);
	assert_int_equal(tt_storage_thread_count(f->st), 1);
	/* only before anything else */
	assert_int_equal(tt_process_tracker_idle_rows(f->p, 1), 0);
	assert_int_equal(tt_storage_process_count(f->st), 1);

	/* JSON: pid 0 is a process of its own */
	tt_process_tracker_main_threads(p2, 1);
	assert_int_equal(tt_process_tracker_idle_rows(p2, 0), 0);
	assert_int_equal(tt_storage_thread_name(st2, 0), 0);
	assert_int_equal(tt_process_tracker_thread_by_tid(p2, 0), TT_NONE);
	assert_int_equal(tt_process_tracker_thread(p2, 0, 0), 1);
	assert_int_equal(tt_storage_thread_upid(st2, 1), 1);
	assert_int_equal(tt_storage_process_count(st2), 2);
	assert_int_equal(tt_storage_thread_count(st2), 2);
	tt_process_tracker_free(p2);
	tt_storage_free(st2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(plain_thread, setup, teardown),
		cmocka_unit_test_setup_teardown(thread_name_ranks, setup, teardown),
		cmocka_unit_test_setup_teardown(main_thread_rule, setup, teardown),
		cmocka_unit_test_setup_teardown(pid_reuse, setup, teardown),
		cmocka_unit_test_setup_teardown(thread_moved, setup, teardown),
		cmocka_unit_test_setup_teardown(idle_rows, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
