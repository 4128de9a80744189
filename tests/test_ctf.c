/*
 * test_ctf.c - the CTF importer on real traces (tests/data/ctf/, copied from
 * ../shared/samples/ctf): every event's timestamp, name, cpu, thread and
 * fields must equal babeltrace2's.
 *
 * The expectations tests/data/ctf/NAME.expect.gz were made from babeltrace2
 * 2.0.5's text output (../shared/samples/ref/NAME.bt2-seconds.txt) by
 * tests/ctf_ref.py, which parses babeltrace2's rendering and knows nothing
 * of termtrace:
 *   python3 tests/ctf_ref.py --host vm < NAME.bt2-seconds.txt | gzip -9 > NAME.expect.gz
 * Lines are compared as sorted sets (babeltrace2 breaks timestamp ties by
 * its own rules).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "testutil.h"

/* ref/barectf-27bit-wrap.bt2-seconds.txt.gz, last line */
#define LAST_BARECTF_TS INT64_C(1609459985475068149)

#include "ctf_compare.c"

static void read_expect(const char *name, lines *out)
{
	char path[512], buf[65536];
	gzFile f;

	snprintf(path, sizeof(path), "ctf/%s.expect.gz", name);
	f = gzopen(tt_test_data(path), "rb");
	assert_non_null(f);
	while (gzgets(f, buf, sizeof(buf))) {
		size_t n = strlen(buf);

		if (n && buf[n - 1] == '\n')
			buf[n - 1] = '\0';
		lines_add(out, buf);
	}
	gzclose(f);
}

static void compare_with_babeltrace(const char *dir, const char *name, size_t nevents)
{
	char rel[256];
	tt_trace *tr;
	lines want = { 0 };

	snprintf(rel, sizeof(rel), "ctf/%s", dir);
	tr = tt_test_open(tt_test_data(rel));
	read_expect(name, &want);
	assert_int_equal(want.n, nevents);
	same_events(name, tr, &want);
	lines_free(&want);
	tt_trace_close(tr);
}

static void test_tiny_equals_babeltrace(void **state)
{
	(void)state;
	compare_with_babeltrace("lttng-ust-tiny", "lttng-ust-tiny", 2072);
}

static void test_discarded_equals_babeltrace(void **state)
{
	(void)state;
	compare_with_babeltrace("lttng-ust-discarded", "lttng-ust-discarded", 1104);
}

static void test_dmesg_equals_babeltrace(void **state)
{
	(void)state;
	compare_with_babeltrace("dmesg-ctf", "dmesg-ctf", 5000);
}

static void test_barectf_equals_babeltrace(void **state)
{
	(void)state;
	compare_with_babeltrace("barectf-27bit-wrap", "barectf-27bit-wrap", 60000);
}

/* The barectf trace checks itself: each event's payload delta_ns is the
 * true gap to the previous event, and its 27-bit timestamps wrap 5,852
 * times (README of the samples). */
static void test_barectf_27bit_wraps(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("ctf/barectf-27bit-wrap"));
	tt_result r;
	tt_err err = { 0 };
	size_t i, bad = 0, wraps = 0;
	int64_t prev = 0;

	(void)state;
	assert_int_equal(tt_query_collect(tr,
		"select r.ts, a.int_value from raw r join args a on a.arg_set_id = r.arg_set_id "
		"where a.key = 'delta_ns' order by r.id", 0, &r, &err), 0);
	assert_int_equal(r.nrows, 60000);
	for (i = 0; i < r.nrows; i++) {
		int64_t ts = strtoll(r.cells[2 * i], NULL, 10);
		int64_t delta = strtoll(r.cells[2 * i + 1], NULL, 10);

		if (i > 0) {
			if (ts - prev != delta && bad++ < 3)
				print_error("event %zu: gap %lld, payload delta_ns %lld\n", i,
					    (long long)(ts - prev), (long long)delta);
			if ((ts & ((1 << 27) - 1)) < (prev & ((1 << 27) - 1)))
				wraps++;
		}
		prev = ts;
	}
	assert_int_equal(bad, 0);
	assert_int_equal(wraps, 5852);
	tt_result_free(&r);
	/* the last event, from babeltrace2's output: 5,852 wraps later */
	assert_int_equal(tt_test_int(tr, "select max(ts) from raw"), LAST_BARECTF_TS);
	tt_trace_close(tr);
}

/* Threads, slices, tracks and lost events of the LTTng-UST traces. */
static void test_tiny_model(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("ctf/lttng-ust-tiny"));

	(void)state;
	assert_string_equal(tt_test_str(tr, "select group_concat(tid || ':' || name, ',') from (select * from thread order by tid)"),
			    "12788:lttng-app,12789:lttng-app-ust");
	assert_int_equal(tt_test_int(tr, "select pid from process"), 12788);
	assert_string_equal(tt_test_str(tr, "select name from process"), "lttng-app");
	/* 20 work_begin/work_end pairs -> 20 slices named corpus:work */
	assert_int_equal(tt_test_int(tr, "select count(*) from slice where name = 'corpus:work' and dur > 0"), 20);
	/* work_end's fields (result) merged into the slice's args */
	assert_int_equal(tt_test_int(tr, "select count(*) from slice s join args a using(arg_set_id) "
				     "where s.name = 'corpus:work' and a.key = 'result'"), 20);
	/* every event is a `raw` row; only the 24 state dump events are
	 * instant slices too (the tracepoints are raw rows alone, as trace
	 * processor keeps ftrace events) */
	assert_int_equal(tt_test_int(tr, "select count(*) from raw"), 2072);
	assert_int_equal(tt_test_int(tr, "select count(*) from ftrace_event where cpu is not null"), 2072);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice where dur = 0"), 24);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice where dur = 0 and name like 'lttng_ust_statedump:%'"), 24);
	assert_string_equal(tt_test_str(tr, "select str_value from metadata where name = 'ctf.env.hostname'"), "vm");
	assert_int_equal(tt_test_int(tr, "select count(*) from stats where name like 'ctf%' and value > 0"), 0);
	/* the 300 ms pause: an extended header in mid-packet */
	assert_int_equal(tt_test_int(tr, "select ts from raw where name = 'corpus:pause_mark' order by ts limit 1 offset 1"),
			 1795237042371248991);
	tt_trace_close(tr);
}

static void test_discarded_events(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("ctf/lttng-ust-discarded"));

	(void)state;
	/* babeltrace2 reports 15 discarded-event messages totalling
	 * 50,397 + 50,823 events (ref/lttng-ust-discarded.bt2.stderr.txt) */
	assert_int_equal(tt_test_int(tr, "select value from stats where name = 'ctf_events_discarded'"), 101220);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice where name like 'lost events (%'"), 15);
	/* first report: 685 events between 04:57:34.210573977 and .210707075 */
	assert_string_equal(tt_test_str(tr, "select name || ' ' || ts || ' ' || dur from slice where name like 'lost events (%' order by ts limit 1"),
			    "lost events (685 discarded) 1795237054210573977 133098");
	assert_int_equal(tt_test_int(tr, "select count(*) from track where name like 'lost events%'"), 2);
	tt_trace_close(tr);
}

/* A folder above the trace (LTTng session layout) opens the same trace. */
static void test_session_folder(void **state)
{
	tt_trace *a = tt_test_open(tt_test_data("ctf/lttng-ust-tiny"));
	tt_trace *b = tt_test_open(tt_test_data("ctf/lttng-ust-tiny/ust/uid/0/64-bit"));
	tt_trace *c = tt_test_open(tt_test_data("ctf"));

	(void)state;
	assert_int_equal(tt_test_int(a, "select count(*) from raw"), 2072);
	assert_int_equal(tt_test_int(b, "select count(*) from raw"), 2072);
	/* all four traces below tests/data/ctf, merged by time */
	assert_int_equal(tt_test_int(c, "select count(*) from raw"), 2072 + 1104 + 5000 + 60000);
	assert_int_equal(tt_test_int(c, "select count(*) from (select ts, lag(ts) over (order by id) as p from raw) where ts < p"), 0);
	assert_string_equal(tt_trace_format(c), "ctf");
	tt_trace_close(a);
	tt_trace_close(b);
	tt_trace_close(c);
}

/* Progress counts stream bytes (chan0_0 4,096 + chan0_1 131,072) and
 * events. */
static void test_progress(void **state)
{
	tt_progress pr;
	tt_err err = { 0 };
	tt_trace *tr;

	(void)state;
	memset(&pr, 0, sizeof(pr));
	tr = tt_trace_open(tt_test_data("ctf/lttng-ust-tiny"), &pr, &err);
	assert_non_null(tr);
	assert_int_equal(atomic_load(&pr.bytes_total), 4096 + 131072);
	assert_int_equal(atomic_load(&pr.bytes_done), 4096 + 131072);
	assert_int_equal(atomic_load(&pr.events), 2072);
	assert_int_equal(atomic_load(&pr.done), 1);
	tt_trace_close(tr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tiny_equals_babeltrace),
		cmocka_unit_test(test_discarded_equals_babeltrace),
		cmocka_unit_test(test_dmesg_equals_babeltrace),
		cmocka_unit_test(test_barectf_equals_babeltrace),
		cmocka_unit_test(test_barectf_27bit_wraps),
		cmocka_unit_test(test_tiny_model),
		cmocka_unit_test(test_discarded_events),
		cmocka_unit_test(test_session_folder),
		cmocka_unit_test(test_progress),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
