/*
 * test_ctf_writer.c - CTF traces written on purpose by tests/ctf_writer.c to
 * hit the timestamp edge cases: gaps of 2^27 - 1, 2^27, 2^27 + 1, 2^28
 * cycles and seconds, a wrap without a full timestamp, values near 2^64,
 * both byte orders, compact and large headers, a non-1 GHz clock with an
 * offset, odd bit fields. Two oracles:
 *   - the values the writer was given (ts = offset + cycles at 1 GHz);
 *   - babeltrace2 (installed by `make deps`), run on the same folder: every
 *     event's timestamp and name must be the same as termtrace's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "ctf_writer.c"

#define P27 (UINT64_C(1) << 27)

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "ts name" lines, sorted; returns the count. */
static size_t bt2_lines(const char *dir, char ***out, char **full_text)
{
	char cmd[2048], buf[8192];
	FILE *p;
	char **v = NULL;
	size_t n = 0, cap = 0, tl = 0;
	char *text = NULL;

	snprintf(cmd, sizeof(cmd), "babeltrace2 --clock-seconds --clock-gmt '%s' 2>&1", dir);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(buf, sizeof(buf), p)) {
		unsigned long long s, ns;
		char host[64], name[256];
		size_t bl = strlen(buf);

		text = realloc(text, tl + bl + 1);
		assert_non_null(text);
		memcpy(text + tl, buf, bl + 1);
		tl += bl;
		if (sscanf(buf, "[%llu.%9llu] %*s %63s %255s", &s, &ns, host, name) != 4)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			v = realloc(v, cap * sizeof(*v));
			assert_non_null(v);
		}
		name[strlen(name) - 1] = '\0'; /* trailing ':' */
		snprintf(buf, sizeof(buf), "%llu %s", s * 1000000000ull + ns, name);
		v[n++] = strdup(buf);
	}
	pclose(p);
	qsort(v, n, sizeof(*v), cmp_str);
	*out = v;
	if (full_text)
		*full_text = text;
	else
		free(text);
	return n;
}

/* Asserts that termtrace and babeltrace2 see the same (ts, name) events. */
static void same_as_babeltrace(const char *dir, tt_trace *tr, size_t expect_n, char **bt2_text)
{
	char **bt = NULL;
	size_t nb = bt2_lines(dir, &bt, bt2_text), i;
	tt_result r;
	tt_err err = { 0 };
	char **mine;

	assert_int_equal(tt_query_collect(tr, "select ts || ' ' || name from raw", 0, &r, &err), 0);
	assert_int_equal(r.nrows, expect_n);
	assert_int_equal(nb, expect_n);
	mine = calloc(r.nrows + 1, sizeof(*mine));
	for (i = 0; i < r.nrows; i++)
		mine[i] = r.cells[i];
	qsort(mine, r.nrows, sizeof(*mine), cmp_str);
	for (i = 0; i < nb; i++) {
		if (strcmp(mine[i], bt[i]))
			print_error("event %zu: termtrace '%s' babeltrace2 '%s'\n", i, mine[i], bt[i]);
		assert_string_equal(mine[i], bt[i]);
	}
	for (i = 0; i < nb; i++)
		free(bt[i]);
	free(bt);
	free(mine);
	tt_result_free(&r);
}

/* The gaps on one stream; returns the cycle values written. */
static size_t write_gaps(ctfw *w, uint64_t start, uint64_t *ts, unsigned bits)
{
	uint64_t period = UINT64_C(1) << bits;

	size_t n = 0;
	uint64_t t = start;

	ts[n++] = t;                               /* packet start */
	assert_int_equal(ctfw_tick(w, 0, t, 0, -1, "start"), 0);
	t += P27 - 1;                              /* compact: one wrap at most */
	ts[n++] = t;
	assert_int_equal(ctfw_tick(w, 0, t, 1, 1, "2^27-1"), 0);
	t += P27;                                  /* full */
	ts[n++] = t;
	assert_int_equal(ctfw_tick(w, 0, t, 2, 2, "2^27"), 0);
	t += P27 + 1;                              /* full */
	ts[n++] = t;
	assert_int_equal(ctfw_tick(w, 0, t, 3, 3, "2^27+1"), 0);
	t += 2 * P27;                              /* 2^28: full */
	ts[n++] = t;
	assert_int_equal(ctfw_tick(w, 0, t, 4, 4, "2^28"), 0);
	t += UINT64_C(5000000007);                 /* seconds (> 2^32): full */
	ts[n++] = t;
	assert_int_equal(ctfw_tick(w, 0, t, 5, 5, "5s"), 0);
	/* a single wrap without a full timestamp: cross the next 2^bits
	 * boundary (27 compact, 32 large) with a gap shorter than 2^bits */
	t += period - (t % period) + 5;
	ts[n++] = t;
	assert_int_equal(ctfw_tick(w, 0, t, 6, 6, "wrap"), 0);
	t += 1000;
	ts[n++] = t;
	assert_int_equal(ctfw_tick(w, 0, t, 7, 7, ""), 0);
	return n;
}

static void check_ts(tt_trace *tr, const int64_t *want, size_t n)
{
	tt_result r;
	tt_err err = { 0 };
	size_t i;

	assert_int_equal(tt_query_collect(tr, "select ts from raw order by id", 0, &r, &err), 0);
	assert_int_equal(r.nrows, n);
	for (i = 0; i < n; i++) {
		long long got = strtoll(r.cells[i], NULL, 10);

		if (got != (long long)want[i])
			print_error("event %zu: ts %lld, want %lld (off by %lld)\n", i, got, (long long)want[i],
				    got - (long long)want[i]);
		assert_int_equal(got, want[i]);
	}
	tt_result_free(&r);
}

static void gaps_case(const ctfw_opts *o, uint64_t full_expected)
{
	char *dir = tt_test_mkdtemp();
	ctfw *w = ctfw_open(dir, o);
	uint64_t ts[16];
	int64_t want[16];
	size_t n, i;
	tt_trace *tr;

	assert_non_null(w);
	n = write_gaps(w, UINT64_C(5000000000), ts, o->large_header ? 32 : 27);
	assert_int_equal(ctfw_full_stamps(w), full_expected);
	assert_int_equal(ctfw_close(w), 0);
	for (i = 0; i < n; i++)
		want[i] = o->offset_s * 1000000000 + o->offset + (int64_t)ts[i];
	tr = tt_test_open(dir);
	check_ts(tr, want, n);
	same_as_babeltrace(dir, tr, n, NULL);
	tt_trace_close(tr);
	tt_test_rm(dir);
}

static void test_gaps_compact_le(void **state)
{
	ctfw_opts o = { .offset_s = 1700000000, .offset = 123456789 };

	(void)state;
	/* 2^27, 2^27+1, 2^28, 5 s need the full stamp; 2^27-1 and the wrap
	 * do not */
	gaps_case(&o, 4);
}

static void test_gaps_compact_be_packetized(void **state)
{
	ctfw_opts o = { .big_endian = 1, .packetized_metadata = 1, .offset_s = 1700000000 };

	(void)state;
	gaps_case(&o, 4);
}

static void test_gaps_large_natural(void **state)
{
	ctfw_opts o = { .large_header = 1, .natural_align = 1, .offset = 1700000000123456789 };

	(void)state;
	/* 32-bit stamps: only the 5 s gap needs the full stamp */
	gaps_case(&o, 1);
}

static void test_gaps_large_be(void **state)
{
	ctfw_opts o = { .large_header = 1, .big_endian = 1, .natural_align = 1 };

	(void)state;
	gaps_case(&o, 1);
}

/* The worked example of formats.md 3.6: prev = 5,000,000,000; compact
 * values 40,000,000 (no wrap) and then 1,000,000 (one wrap). */
static void test_formats_example(void **state)
{
	char *dir = tt_test_mkdtemp();
	ctfw_opts o = { 0 };
	ctfw *w = ctfw_open(dir, &o);
	tt_trace *tr;
	static const int64_t want[] = { 5000000000, 5006055936, 5101273664 };

	(void)state;
	assert_int_equal(ctfw_tick(w, 0, 5000000000, 0, 0, "a"), 0);
	assert_int_equal(ctfw_tick(w, 0, 5006055936, 1, 0, "b"), 0);
	assert_int_equal(ctfw_tick(w, 0, 5101273664, 2, 0, "c"), 0);
	assert_int_equal(ctfw_full_stamps(w), 0);
	assert_int_equal(ctfw_close(w), 0);
	tr = tt_test_open(dir);
	check_ts(tr, want, 3);
	same_as_babeltrace(dir, tr, 3, NULL);
	tt_trace_close(tr);
	tt_test_rm(dir);
}

/* A 2.5 MHz clock with offset_s and an offset of more than one second of
 * cycles: babeltrace2's conversion (whole seconds moved out of the offset,
 * then ns = 1e9 * cycles / freq in double) must be matched exactly. */
static void test_slow_clock_with_offset(void **state)
{
	char *dir = tt_test_mkdtemp();
	ctfw_opts o = { .freq = 2500000, .offset_s = 1600000000, .offset = 7654321 };
	ctfw *w = ctfw_open(dir, &o);
	tt_trace *tr;
	uint64_t t = 1000;
	int i;

	(void)state;
	for (i = 0; i < 200; i++) {
		assert_int_equal(ctfw_tick(w, 0, t, (uint64_t)i, i, "slow"), 0);
		t += (uint64_t)(i * 7919 % 100003) + (i % 17 == 0 ? P27 + 3 : 1);
	}
	assert_int_equal(ctfw_close(w), 0);
	tr = tt_test_open(dir);
	same_as_babeltrace(dir, tr, 200, NULL);
	/* first event: 1600000000 s + 7654321 cycles (3 s + 154321 cycles =
	 * 61728400 ns) + 1000 cycles (400000 ns) */
	assert_int_equal(tt_test_int(tr, "select min(ts) from raw"), INT64_C(1600000003062128400));
	tt_trace_close(tr);
	tt_test_rm(dir);
}

/* Cycle values near 2^64 (a 4 GHz clock keeps them inside int64 ns). */
static void test_near_2_64(void **state)
{
	char *dir = tt_test_mkdtemp();
	ctfw_opts o = { .freq = 4000000000u };
	ctfw *w = ctfw_open(dir, &o);
	tt_trace *tr;
	uint64_t t = UINT64_MAX - (UINT64_C(1) << 34);
	int i;

	(void)state;
	for (i = 0; i < 100; i++) {
		assert_int_equal(ctfw_tick(w, 0, t, (uint64_t)i, i, "high"), 0);
		t += (i % 10 == 9) ? (UINT64_C(1) << 28) : (P27 - 1);
	}
	assert_int_equal(ctfw_close(w), 0);
	tr = tt_test_open(dir);
	same_as_babeltrace(dir, tr, 100, NULL);
	assert_int_equal(tt_test_int(tr, "select count(*) from (select ts, lag(ts) over (order by id) as p from raw) where ts <= p"), 0);
	tt_trace_close(tr);
	tt_test_rm(dir);
}

/* Odd bit fields at odd offsets, both byte orders. */
static void bits_case(int big_endian, int natural)
{
	char *dir = tt_test_mkdtemp();
	ctfw_opts o = { .big_endian = big_endian, .natural_align = natural };
	ctfw *w = ctfw_open(dir, &o);
	tt_trace *tr;
	char *text = NULL;

	assert_int_equal(ctfw_bits(w, 0, 100, 5, -1234, 1, -(1 << 26) + 3, UINT64_C(0xDEADBEEFCAFEF00D), -7, -3), 0);
	assert_int_equal(ctfw_bits(w, 0, 200, 2, 4095, 0, (1 << 26) - 1, 1, 127, 0), 0);
	assert_int_equal(ctfw_bits(w, 0, 300, 7, -4096, 1, 0, UINT64_MAX, -128, 500), 0);
	assert_int_equal(ctfw_close(w), 0);
	tr = tt_test_open(dir);
	same_as_babeltrace(dir, tr, 3, &text);
	/* babeltrace2 decodes the fields as the writer meant them ... */
	assert_non_null(strstr(text, "{ a = 5, b = -1234, c = 1, d = -67108861, e = 0xDEADBEEFCAFEF00D, f = -7, g = ( \"NEG\" : container = -3 ) }"));
	assert_non_null(strstr(text, "{ a = 2, b = 4095, c = 0, d = 67108863, e = 0x1, f = 127, g = ( \"ZERO\" : container = 0 ) }"));
	/* ... and so does termtrace */
	assert_string_equal(tt_test_str(tr,
		"select group_concat(key || '=' || ifnull(string_value, int_value), ',') from args "
		"where arg_set_id = (select arg_set_id from raw order by id limit 1) and key not like 'context.%'"),
		"a=5,b=-1234,c=1,d=-67108861,e=-2401053089206439923,f=-7,g=NEG");
	assert_string_equal(tt_test_str(tr,
		"select group_concat(key || '=' || ifnull(string_value, int_value), ',') from args "
		"where arg_set_id = (select arg_set_id from raw order by id limit 1 offset 2) and key not like 'context.%'"),
		"a=7,b=-4096,c=1,d=0,e=-1,f=-128,g=MANY");
	free(text);
	tt_trace_close(tr);
	tt_test_rm(dir);
}

static void test_bits_le(void **state)
{
	(void)state;
	bits_case(0, 0);
}

static void test_bits_be_natural(void **state)
{
	(void)state;
	bits_case(1, 1);
}

/* Several streams merged by time; threads from vpid/vtid/procname;
 * entry/exit slices nest; a discard becomes a stat and a lost-events
 * slice; ids above 30 use the extended compact header. */
static void test_streams_threads_slices(void **state)
{
	char *dir = tt_test_mkdtemp();
	ctfw_opts o = { .nstreams = 3, .packet_bytes = 512, .offset_s = 1000 };
	ctfw *w = ctfw_open(dir, &o);
	tt_trace *tr;
	int i;

	(void)state;
	ctfw_thread(w, 0, 500, 500, "main");
	ctfw_thread(w, 1, 500, 501, "worker-1");
	ctfw_thread(w, 2, 600, 600, "other");
	for (i = 0; i < 300; i++) {
		int s = i % 3;
		uint64_t t = (uint64_t)i * 1000 + (uint64_t)s;

		if (i == 150)
			ctfw_discard(w, 1, 42);
		if (i % 30 == 0) {
			assert_int_equal(ctfw_work(w, s, t, 1, i), 0);
			assert_int_equal(ctfw_work(w, s, t + 1, 1, i + 1), 0);
			assert_int_equal(ctfw_work(w, s, t + 2, 0, i + 1), 0);
			assert_int_equal(ctfw_work(w, s, t + 3, 0, i), 0);
		} else if (i % 7 == 0) {
			assert_int_equal(ctfw_far(w, s, t, (uint32_t)i), 0);
		} else {
			assert_int_equal(ctfw_tick(w, s, t, (uint64_t)i, -i, "x"), 0);
		}
	}
	assert_int_equal(ctfw_close(w), 0);
	tr = tt_test_open(dir);
	/* 300 + 3 extra work events per i % 30 == 0 (10 of them) */
	same_as_babeltrace(dir, tr, 330, NULL);
	assert_int_equal(tt_test_int(tr, "select count(*) from (select ts, lag(ts) over (order by id) as p from raw) where ts < p"), 0);
	assert_string_equal(tt_test_str(tr, "select group_concat(tid || '/' || ifnull(upid, '-') || '/' || name, ',') from (select * from thread order by tid)"),
			    "500/0/main,501/0/worker-1,600/1/other");
	assert_string_equal(tt_test_str(tr, "select group_concat(name, ',') from (select name from process order by pid)"),
			    "main,other");
	/* 10 outer + 10 inner slices, inner at depth 1 under its outer */
	assert_int_equal(tt_test_int(tr, "select count(*) from slice where name = 'tt:work' and depth = 0 and dur = 3"), 10);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice c join slice p on c.parent_id = p.id where c.name = 'tt:work' and c.depth = 1 and c.dur = 1"), 10);
	assert_int_equal(tt_test_int(tr, "select value from stats where name = 'ctf_events_discarded'"), 42);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice where name = 'lost events (42 discarded)'"), 1);
	assert_int_equal(tt_test_int(tr, "select count(*) from raw where name = 'tt:far_id'"), 300 / 7 - 300 / 210 - 0 + 1 - 1);
	assert_int_equal(tt_test_int(tr, "select count(distinct cpu) from raw"), 3);
	tt_trace_close(tr);
	tt_test_rm(dir);
}

/* A gap in packet_seq_num: babeltrace2 reports one discarded packet,
 * termtrace counts it and marks where it was lost. */
static void test_lost_packet(void **state)
{
	char *dir = tt_test_mkdtemp();
	ctfw_opts o = { .packet_bytes = 512 };
	ctfw *w = ctfw_open(dir, &o);
	tt_trace *tr;
	char cmd[1200], buf[256];
	FILE *p;
	int i, found = 0;

	(void)state;
	for (i = 0; i < 60; i++) {
		if (i == 30)
			ctfw_lose_packet(w, 0);
		assert_int_equal(ctfw_tick(w, 0, 1000 + (uint64_t)i * 100, (uint64_t)i, i, "p"), 0);
	}
	assert_int_equal(ctfw_close(w), 0);
	snprintf(cmd, sizeof(cmd), "babeltrace2 '%s' -c sink.utils.counter 2>&1", dir);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(buf, sizeof(buf), p))
		if (strstr(buf, " 1 Discarded packet message"))
			found = 1;
	pclose(p);
	assert_true(found);
	tr = tt_test_open(dir);
	same_as_babeltrace(dir, tr, 60, NULL);
	assert_int_equal(tt_test_int(tr, "select value from stats where name = 'ctf_packets_lost'"), 1);
	/* between the end of the packet before (event 29 at 3900) and the
	 * beginning of the packet after (event 30 at 4000) */
	assert_string_equal(tt_test_str(tr, "select name || ' ' || ts || ' ' || dur from slice where name like 'lost%'"),
			    "lost events (1 packets lost) 3900 100");
	tt_trace_close(tr);
	tt_test_rm(dir);
}

/* A kernel-style trace (no thread context): sched_switch gives the
 * running thread per CPU (sched_slice rows, thread names from comm) and
 * the thread of the other events; syscall_entry_X/exit_X become slices. */
static void test_kernel_sched(void **state)
{
	char *dir = tt_test_mkdtemp();
	ctfw_opts o = { .kernel = 1, .nstreams = 2 };
	ctfw *w = ctfw_open(dir, &o);
	tt_trace *tr;

	(void)state;
	/* cpu 0 */
	assert_int_equal(ctfw_sched_switch(w, 0, 1000, "swapper/0", 0, 0, "alpha", 100), 0);
	assert_int_equal(ctfw_openat(w, 0, 2000, 1, "/etc/hosts", 0), 0);
	assert_int_equal(ctfw_openat(w, 0, 2500, 0, "", 3), 0);
	assert_int_equal(ctfw_sched_switch(w, 0, 3000, "alpha", 100, 1, "beta", 200), 0);
	assert_int_equal(ctfw_sched_switch(w, 0, 5000, "beta", 200, 0, "alpha", 100), 0);
	/* cpu 1: an event before any sched_switch has no thread */
	assert_int_equal(ctfw_tick(w, 1, 1200, 0, 1, "before"), 0);
	assert_int_equal(ctfw_sched_switch(w, 1, 1500, "swapper/1", 0, 0, "gamma", 300), 0);
	assert_int_equal(ctfw_tick(w, 1, 4000, 1, 2, "on gamma"), 0);
	assert_int_equal(ctfw_sched_switch(w, 1, 6000, "gamma", 300, 2, "swapper/1", 0), 0);
	assert_int_equal(ctfw_close(w), 0);
	tr = tt_test_open(dir);
	same_as_babeltrace(dir, tr, 9, NULL);
	/* a raw row on its CPU, no thread yet (no instant slice) */
	assert_string_equal(tt_test_str(tr, "select cpu || ':' || ifnull(utid, 'null') from raw where ts % 1000000 = 1200"),
			    "1:null");
	assert_string_equal(tt_test_str(tr,
		"select group_concat(s.cpu || ':' || (s.ts % 1000000) || '+' || s.dur || ':' || t.name || ':' || s.end_state, ',') "
		"from (select * from sched_slice order by cpu, ts) s join thread t using(utid)"),
		"0:1000+2000:alpha:S,0:3000+2000:beta:R,1:1500+4500:gamma:D");
	assert_string_equal(tt_test_str(tr,
		"select s.name || ' ' || s.dur || ' ' || t.name from slice s join thread_track tt on s.track_id = tt.id "
		"join thread t using(utid) where s.name = 'openat'"), "openat 500 alpha");
	assert_string_equal(tt_test_str(tr, "select t.name from raw r join thread t using(utid) where r.name = 'tt:tick' and r.ts = 4000"),
			    "gamma");
	assert_int_equal(tt_test_int(tr, "select count(*) from raw where name = 'tt:tick' and cpu = 1"), 2);
	tt_trace_close(tr);
	tt_test_rm(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gaps_compact_le),
		cmocka_unit_test(test_gaps_compact_be_packetized),
		cmocka_unit_test(test_gaps_large_natural),
		cmocka_unit_test(test_gaps_large_be),
		cmocka_unit_test(test_formats_example),
		cmocka_unit_test(test_slow_clock_with_offset),
		cmocka_unit_test(test_near_2_64),
		cmocka_unit_test(test_bits_le),
		cmocka_unit_test(test_bits_be_natural),
		cmocka_unit_test(test_streams_threads_slices),
		cmocka_unit_test(test_kernel_sched),
		cmocka_unit_test(test_lost_packet),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
