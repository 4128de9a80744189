/*
 * test_ctf_cpu.c - CPU views of CTF traces written by tests/ctf_writer.c
 * (each stream's packets say cpu_id = the stream's index): the `cpu`
 * table (Perfetto's columns), one track per CPU of type `cpu` named
 * "CPU N" holding what ran there: runs of one thread's events for UST
 * traces, sched_switch slices (the same as sched_slice, idle left out)
 * for kernel traces. Threads with tracepoints only: their own tracks of
 * instants.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "testutil.h"
#include "ctf_writer.c"

#define CPU_SLICES(cpu) \
	"select group_concat(s.ts || '+' || s.dur || ' ' || s.name, ', ') from slice s join track t " \
	"on s.track_id = t.id where t.type = 'cpu' and t.name = 'CPU " #cpu "' order by s.ts"

/* A writer of two streams (CPUs 0 and 1) in a new folder *dir. */
static ctfw *two_cpus(char **dir, int kernel)
{
	ctfw_opts o = { .nstreams = 2, .kernel = kernel };
	ctfw *w;

	*dir = tt_test_mkdtemp();
	w = ctfw_open(*dir, &o);
	assert_non_null(w);
	return w;
}

static void test_ust_runs(void **state)
{
	char *dir;
	ctfw *w = two_cpus(&dir, 0);
	tt_trace *tr;

	(void)state;
	/* cpu 0: tt-main 100..300, then tid 1005 "other" 400..500 */
	assert_int_equal(ctfw_tick(w, 0, 100, 0, 0, "a"), 0);
	assert_int_equal(ctfw_tick(w, 0, 200, 1, 0, "b"), 0);
	assert_int_equal(ctfw_tick(w, 0, 300, 2, 0, "c"), 0);
	ctfw_thread(w, 0, 1000, 1005, "other");
	assert_int_equal(ctfw_tick(w, 0, 400, 3, 0, "d"), 0);
	assert_int_equal(ctfw_tick(w, 0, 500, 4, 0, "e"), 0);
	/* cpu 1: tt-worker alone */
	assert_int_equal(ctfw_tick(w, 1, 150, 5, 0, "f"), 0);
	assert_int_equal(ctfw_tick(w, 1, 450, 6, 0, "g"), 0);
	assert_int_equal(ctfw_close(w), 0);
	tr = tt_test_open(dir);
	assert_string_equal(tt_test_str(tr, "select group_concat(id || ':' || ucpu || ':' || cpu || ':' || cluster_id, ',') "
					    "from cpu order by cpu"), "0:0:0:0,1:1:1:0");
	assert_string_equal(tt_test_str(tr, CPU_SLICES(0)), "100+200 tt-main, 400+100 other");
	assert_string_equal(tt_test_str(tr, CPU_SLICES(1)), "150+300 tt-worker");
	/* who and how many events, in args */
	assert_string_equal(tt_test_str(tr,
		"select group_concat(key || '=' || int_value, ',') from args where arg_set_id = "
		"(select arg_set_id from slice where name = 'other')"), "tid=1005,pid=1000,events=2");
	/* the threads are there; their events are raw rows (ftrace_event)
	 * and, as they have nothing else, instants on their own tracks */
	assert_int_equal(tt_test_int(tr, "select count(*) from thread"), 3);
	assert_int_equal(tt_test_int(tr, "select count(distinct utid) from raw"), 3);
	assert_int_equal(tt_test_int(tr, "select count(*) from thread_track"), 3);
	tt_trace_close(tr);
	tt_test_rm(dir);
}

/* A thread whose events are all tracepoints gets a thread track: a lone
 * tracepoint is an instant with its fields, tracepoints at most 100 us
 * apart one slice with their count (named by their event, or
 * "tracepoints"). A thread with slices keeps its tracepoints as raw rows
 * only, as before. */
static void test_tracepoint_threads(void **state)
{
	char *dir;
	ctfw *w = two_cpus(&dir, 0);
	tt_trace *tr;

	(void)state;
	ctfw_thread(w, 0, 1000, 1001, "sliced");
	ctfw_thread(w, 1, 2000, 2002, "tp-only");
	assert_int_equal(ctfw_tick(w, 0, 100, 0, 7, "a"), 0);
	assert_int_equal(ctfw_work(w, 0, 200, 1, 1), 0);
	assert_int_equal(ctfw_work(w, 0, 300, 0, 1), 0);
	assert_int_equal(ctfw_tick(w, 0, 400, 1, 8, "b"), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(ctfw_tick(w, 1, 150 + 100 * (uint64_t)i, (uint64_t)i, -i, "t"), 0);
	assert_int_equal(ctfw_tick(w, 1, 500000, 3, -3, "t"), 0);
	assert_int_equal(ctfw_tick(w, 1, 1000000, 4, -4, "t"), 0);
	assert_int_equal(ctfw_far(w, 1, 1000050, 5), 0);
	assert_int_equal(ctfw_close(w), 0);
	tr = tt_test_open(dir);
	assert_int_equal(tt_test_int(tr, "select count(*) from thread_track"), 2);
	assert_string_equal(tt_test_str(tr,
		"select group_concat(s.ts || '+' || s.dur || ' ' || s.name || ' ' || "
		"(select group_concat(a.key || '=' || a.int_value) from args a where a.arg_set_id = s.arg_set_id "
		"and a.key in ('events', 'val')), ', ') from slice s "
		"join thread_track tt on s.track_id = tt.id join thread t using (utid) "
		"where t.tid = 2002 order by s.ts"),
		"150+200 tt:tick events=3, 500000+0 tt:tick val=-3, 1000000+50 tracepoints events=2");
	/* the lone one is its tracepoint's raw row's set */
	assert_int_equal(tt_test_int(tr,
		"select count(*) from slice s join raw r on r.arg_set_id = s.arg_set_id and r.ts = s.ts "
		"where s.ts = 500000"), 1);
	/* the thread with slices: its slice only */
	assert_string_equal(tt_test_str(tr,
		"select group_concat(s.ts || '+' || s.dur || ' ' || s.name, ', ') from slice s "
		"join thread_track tt on s.track_id = tt.id join thread t using (utid) "
		"where t.tid = 1001 order by s.ts"), "200+100 tt:work");
	assert_int_equal(tt_test_int(tr, "select count(*) from raw"), 10);
	/* the viewer has a row for it, in its process's group */
	{
		tt_layout lay;
		int rows = 0;

		assert_int_equal(tt_layout_build(&lay, tr), 0);
		for (int i = 0; i < lay.ntracks; i++)
			if (strstr(lay.tracks[i].name, "tp-only") && lay.tracks[i].nitems == 3 &&
			    lay.tracks[i].group >= 0 && lay.groups[lay.tracks[i].group].kind == TT_LG_PROCESS)
				rows++;
		assert_int_equal(rows, 1);
		tt_layout_free(&lay);
	}
	tt_trace_close(tr);
	tt_test_rm(dir);
}

static void test_kernel_sched(void **state)
{
	char *dir;
	ctfw *w = two_cpus(&dir, 1);
	tt_trace *tr;

	(void)state;
	assert_int_equal(ctfw_sched_switch(w, 0, 1000, "swapper/0", 0, 0, "app", 42), 0);
	assert_int_equal(ctfw_openat(w, 0, 1500, 1, "/etc/x", 0), 0);
	assert_int_equal(ctfw_sched_switch(w, 0, 2000, "app", 42, 1, "kworker", 7), 0);
	assert_int_equal(ctfw_sched_switch(w, 0, 2500, "kworker", 7, 0, "swapper/0", 0), 0);
	assert_int_equal(ctfw_sched_switch(w, 0, 3000, "swapper/0", 0, 0, "app", 42), 0);
	assert_int_equal(ctfw_sched_switch(w, 1, 1200, "swapper/1", 0, 0, "db", 99), 0);
	assert_int_equal(ctfw_sched_switch(w, 1, 2200, "db", 99, 1, "swapper/1", 0), 0);
	assert_int_equal(ctfw_close(w), 0);
	tr = tt_test_open(dir);
	assert_int_equal(tt_test_int(tr, "select count(*) from cpu"), 2);
	assert_string_equal(tt_test_str(tr, CPU_SLICES(0)), "1000+1000 app, 2000+500 kworker");
	assert_string_equal(tt_test_str(tr, CPU_SLICES(1)), "1200+1000 db");
	/* the same spans as sched_slice, whose idle rows have no slice */
	assert_int_equal(tt_test_int(tr, "select count(*) from sched_slice"), 4);
	assert_int_equal(tt_test_int(tr,
		"select count(*) from sched_slice ss join thread t using (utid) where t.tid != 0 and not exists "
		"(select 1 from slice s join track k on s.track_id = k.id where k.type = 'cpu' and k.cpu = ss.cpu "
		"and s.ts = ss.ts and s.dur = ss.dur)"), 0);
	/* a switch is written by the thread switched out (ftrace's
	 * common_pid), a CPU's first switch too; the openat by the one
	 * running then */
	assert_string_equal(tt_test_str(tr,
		"select group_concat(r.ts || ':' || t.tid, ',') from (select * from raw order by ts) r "
		"join thread t using (utid)"),
		"1000:0,1200:0,1500:42,2000:42,2200:99,2500:7,3000:0");
	tt_trace_close(tr);
	tt_test_rm(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ust_runs),
		cmocka_unit_test(test_tracepoint_threads),
		cmocka_unit_test(test_kernel_sched),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
