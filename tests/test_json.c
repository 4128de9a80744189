/*
 * test_json.c - the Chrome JSON importer: real traces (counts checked with
 * tests/tools/json_facts.py, python's json module) and synthetic edge cases
 * written by the tests.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "testutil.h"




/* ---- real traces ------------------------------------------------------------ */


static void real_chromium_tiny(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("chromium-tiny.json"));
	char *tsv;

	(void)state;
	assert_string_equal(tt_trace_format(tr), "chrome-json");
	/* X 388 + I 37 + R 74 + 15 async b/e pairs */
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 514);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice where dur = 0"), 111);
	/* upid 0 / utid 0 are trace processor's reserved idle rows; the
	 * trace's own pid 0 (named swapper by its metadata) is upid 1 */
	assert_int_equal(tt_test_int(tr, "select count(*) from process"), 5);
	tt_test_assert_tsv(tr, "select upid, pid, name is null from process where pid = 0", "0\t0\t1\n1\t0\t1\n");
	tt_test_assert_tsv(tr, "select utid, upid, name from thread where tid = 0", "0\t0\tNULL\n1\t1\tswapper\n");
	/* 5 threads seen, plus the main thread (tid = pid) trace processor
	 * gives every process: 9202 has none of its own */
	assert_int_equal(tt_test_int(tr, "select count(*) from thread where utid > 0"), 6);
	assert_int_equal(tt_test_int(tr, "select count(*) from thread t join process p using(upid)"
				     " where t.tid = p.pid and t.utid > 0"), 4);
	assert_int_equal(tt_test_int(tr, "select count(*) from counter"), 0);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice where name = 'V8.BytecodeBudgetInterrupt'"), 268);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice where name = 'RunMicrotasks'"), 59);
	assert_int_equal(tt_test_int(tr, "select start_ts from trace_bounds"), 958160867000LL);
	assert_int_equal(tt_test_int(tr, "select end_ts from trace_bounds"), 960387079000LL);
	/* the longest X: 5278 µs, at 960086749 µs */
	tsv = tt_test_tsv(tr, "select s.ts, s.dur, s.name from slice s join thread_track tt"
			      " on s.track_id = tt.id order by s.dur desc limit 1");
	assert_string_equal(tsv, "960086749000\t5278000\tV8.BytecodeBudgetInterruptWithStackCheck\n");
	free(tsv);
	tsv = tt_test_tsv(tr, "select name from thread where name is not null order by name");
	assert_string_equal(tsv, "CrRendererMain\nCrRendererMain\nDedicatedWorker thread\nPerfettoTrace\nswapper\n");
	free(tsv);
	assert_int_equal(tt_test_int(tr, "select count(*) from process where name = 'Renderer'"), 1);
	/* async b/e became 15 slices on process-scoped tracks */
	assert_int_equal(tt_test_int(tr, "select count(*) from slice s join process_track pt on s.track_id = pt.id where s.dur > 0"), 15);
	/* 59 X events carry args */
	assert_int_equal(tt_test_int(tr, "select count(*) from slice s join thread_track tt on s.track_id = tt.id"
				       " where s.arg_set_id is not null and s.dur > 0"), 59);
	assert_int_equal(tt_test_int(tr, "select count(*) from stats where value > 0"), 0);
	tt_trace_close(tr);
}

static void real_uftrace(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("uftrace-work.json"));
	char *tsv;

	(void)state;
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 2755);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice where dur = -1"), 0);
	assert_int_equal(tt_test_int(tr, "select count(*) from process where upid > 0"), 3);
	assert_int_equal(tt_test_int(tr, "select count(*) from thread where utid > 0"), 5);
	/* uftrace writes one E ("linux:schedule") whose name matches no open
	 * B: as in trace processor it closes nothing, the next E closes
	 * pthread_create, "main" lasts to its own E at the end and
	 * pthread_join nests under it */
	assert_int_equal(tt_test_stat(tr, "slice_end_unmatched"), 1);
	assert_int_equal(tt_test_stat(tr, "slice_end_name_mismatch"), 0);
	assert_int_equal(tt_test_int(tr, "select dur from slice where name = 'main'"), 14998033);
	assert_int_equal(tt_test_int(tr, "select depth from slice where name = 'pthread_join' order by ts limit 1"), 1);
	/* fractional µs: 990953178.33 µs -> ...330 ns, 990953179.913 -> ...913 */
	tsv = tt_test_tsv(tr, "select ts, name, depth from slice order by ts limit 2");
	assert_string_equal(tsv, "990953178330\t__monstartup\t0\n990953179913\t__cxa_atexit\t0\n");
	free(tsv);
	assert_string_equal(tt_test_str(tr, "select str_value from metadata where name = 'display_time_unit'"), "ns");
	assert_int_equal(tt_test_stat(tr, "json_display_time_unit"), 1);
	tt_trace_close(tr);
}

/* ---- synthetic traces ---------------------------------------------------------- */

static void nested_be_two_threads(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"{\"traceEvents\":["
		"{\"ph\":\"B\",\"name\":\"outer\",\"pid\":1,\"tid\":1,\"ts\":10},"
		"{\"ph\":\"B\",\"name\":\"other\",\"pid\":1,\"tid\":2,\"ts\":11},"
		"{\"ph\":\"B\",\"name\":\"inner\",\"pid\":1,\"tid\":1,\"ts\":12,\"args\":{\"a\":1}},"
		"{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":15,\"args\":{\"b\":\"x\",\"a\":2}},"
		"{\"ph\":\"E\",\"pid\":1,\"tid\":2,\"ts\":16},"
		"{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":20}]}", &p);
	char *tsv;

	(void)state;
	tsv = tt_test_tsv(tr, "select s.name, s.ts, s.dur, s.depth, coalesce(p.name, '-'), t.tid"
			      " from slice s left join slice p on s.parent_id = p.id"
			      " join thread_track tt on s.track_id = tt.id join thread t using (utid) order by s.id");
	assert_string_equal(tsv,
		"outer\t10000\t10000\t0\t-\t1\n"
		"other\t11000\t5000\t0\t-\t2\n"
		"inner\t12000\t3000\t1\touter\t1\n");
	free(tsv);
	/* E's args merge into B's, E winning on clashes */
	tsv = tt_test_tsv(tr, "select key, display_value from args where arg_set_id ="
			      " (select arg_set_id from slice where name = 'inner') order by key");
	assert_string_equal(tsv, "args.a\t2\nargs.b\tx\n");
	free(tsv);
	/* in trace processor's order: the B's keys first, updated in place */
	tsv = tt_test_tsv(tr, "select key, display_value from args where arg_set_id ="
			      " (select arg_set_id from slice where name = 'inner') order by id");
	assert_string_equal(tsv, "args.a\t2\nargs.b\tx\n");
	free(tsv);
	tt_test_close_text(tr, p);
}

static void complete_unsorted_children(void **state)
{
	char *p;
	/* children before parents in the file, equal start times */
	tt_trace *tr = tt_test_open_json(
		"[{\"ph\":\"X\",\"name\":\"leaf\",\"pid\":5,\"tid\":6,\"ts\":100,\"dur\":10},"
		"{\"ph\":\"X\",\"name\":\"mid\",\"pid\":5,\"tid\":6,\"ts\":100,\"dur\":50},"
		"{\"ph\":\"X\",\"name\":\"root\",\"pid\":5,\"tid\":6,\"ts\":90,\"dur\":100},"
		"{\"ph\":\"X\",\"name\":\"late\",\"pid\":5,\"tid\":6,\"ts\":150,\"dur\":5},"
		"{\"ph\":\"X\",\"name\":\"nodur\",\"pid\":5,\"tid\":6,\"ts\":150},"
		"{\"ph\":\"X\",\"name\":\"negdur\",\"pid\":5,\"tid\":6,\"ts\":150,\"dur\":-3}]", &p);
	char *tsv;

	(void)state;
	tsv = tt_test_tsv(tr, "select s.name, s.depth, coalesce(p.name, '-') from slice s"
			      " left join slice p on s.parent_id = p.id order by s.ts, s.depth");
	assert_string_equal(tsv, "root\t0\t-\nmid\t1\troot\nleaf\t2\tmid\nlate\t1\troot\n");
	free(tsv);
	/* trace processor: an X without dur is a parser failure, one with a
	 * negative dur a slice_negative_duration; each logged with its ts */
	assert_int_equal(tt_test_stat(tr, "json_parser_failure"), 1);
	assert_int_equal(tt_test_stat(tr, "slice_negative_duration"), 1);
	tt_test_assert_tsv(tr, "select l.name, l.ts, coalesce(group_concat(a.key || '=' || a.display_value, ' '), '-')"
			   " from _trace_import_logs l left join args a using(arg_set_id) group by l.id order by l.id",
			   "json_parser_failure\t150000\tevent_name=nodur event_phase=X\n"
			   "slice_negative_duration\t150000\t-\n");
	tt_test_close_text(tr, p);
}

/* The "already in time order" shortcut must still reorder X events of one
 * thread that share a ts, shorter first, with other threads in between. */
static void complete_same_ts_shorter_first(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"[{\"ph\":\"X\",\"name\":\"child\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":1},"
		"{\"ph\":\"X\",\"name\":\"other\",\"pid\":1,\"tid\":2,\"ts\":5,\"dur\":9},"
		"{\"ph\":\"X\",\"name\":\"parent\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":4}]", &p);
	char *tsv;

	(void)state;
	tsv = tt_test_tsv(tr, "select s.name, s.depth, coalesce(p.name, '-') from slice s"
			      " left join slice p on s.parent_id = p.id order by s.id");
	assert_string_equal(tsv, "other\t0\t-\nparent\t0\t-\nchild\t1\tparent\n");
	free(tsv);
	tt_test_close_text(tr, p);
}

static void counters_several_series(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"{\"traceEvents\":["
		"{\"ph\":\"C\",\"name\":\"mem\",\"pid\":3,\"ts\":1,\"args\":{\"heap\":10,\"stack\":2.5}},"
		"{\"ph\":\"C\",\"name\":\"mem\",\"pid\":3,\"ts\":2,\"args\":{\"heap\":\"12\",\"stack\":\"oops\"}},"
		"{\"ph\":\"C\",\"name\":\"mem\",\"pid\":3,\"ts\":3,\"id\":7,\"args\":{\"heap\":1}}"
		"]}", &p);
	char *tsv;

	(void)state;
	tsv = tt_test_tsv(tr, "select t.name, c.ts, c.value from counter c join counter_track t"
			      " on c.track_id = t.id order by t.name, c.ts");
	/* (a numeric id is not in the track's name: trace processor's; a
	 * string id is, test_json_phases.c) */
	assert_string_equal(tsv,
		"mem heap\t1000\t10.0\n"
		"mem heap\t2000\t12.0\n"
		"mem heap\t3000\t1.0\n"
		"mem stack\t1000\t2.5\n");
	free(tsv);
	assert_int_equal(tt_test_stat(tr, "json_parser_failure"), 1); /* "oops" */
	assert_int_equal(tt_test_int(tr, "select count(*) from process_counter_track where upid is not null"), 2);
	/* trace processor's json_counter blueprint: type, dimensions (upid, name) */
	tt_test_assert_tsv(tr, "select t.name, t.type, a.key, a.display_value from counter_track t join track k using (id)"
		       " join args a on a.arg_set_id = k.dimension_arg_set_id order by t.name, a.id",
		   "mem heap\tjson_counter\tupid\t1\n"
		   "mem heap\tjson_counter\tname\tmem heap\n"
		   "mem stack\tjson_counter\tupid\t1\n"
		   "mem stack\tjson_counter\tname\tmem stack\n");
	tt_test_close_text(tr, p);
}

static void async_and_instants(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"{\"traceEvents\":["
		"{\"ph\":\"b\",\"name\":\"load\",\"cat\":\"net\",\"id\":\"0x10\",\"pid\":1,\"tid\":1,\"ts\":1},"
		"{\"ph\":\"b\",\"name\":\"parse\",\"cat\":\"net\",\"id\":\"0x10\",\"pid\":1,\"tid\":2,\"ts\":2},"
		"{\"ph\":\"n\",\"name\":\"step\",\"cat\":\"net\",\"id\":\"0x10\",\"pid\":1,\"tid\":2,\"ts\":3},"
		"{\"ph\":\"e\",\"name\":\"parse\",\"cat\":\"net\",\"id\":\"0x10\",\"pid\":1,\"tid\":2,\"ts\":4},"
		"{\"ph\":\"e\",\"name\":\"load\",\"cat\":\"net\",\"id\":\"0x10\",\"pid\":1,\"tid\":1,\"ts\":9},"
		"{\"ph\":\"e\",\"name\":\"nobegin\",\"cat\":\"net\",\"id\":\"0x99\",\"pid\":1,\"tid\":1,\"ts\":9},"
		"{\"ph\":\"i\",\"name\":\"g\",\"s\":\"g\",\"pid\":1,\"tid\":1,\"ts\":5},"
		"{\"ph\":\"I\",\"name\":\"p\",\"s\":\"p\",\"pid\":1,\"tid\":1,\"ts\":6},"
		"{\"ph\":\"i\",\"name\":\"t\",\"pid\":1,\"tid\":1,\"ts\":7},"
		"{}]}", &p);
	char *tsv;

	(void)state;
	tsv = tt_test_tsv(tr, "select s.name, s.ts, s.dur, s.depth, t.type, t.name from slice s"
			      " join track t on s.track_id = t.id order by s.ts");
	assert_string_equal(tsv,
		"load\t1000\t8000\t0\tlegacy_async_global_slice\tload\n"
		"parse\t2000\t2000\t1\tlegacy_async_global_slice\tload\n"
		"step\t3000\t0\t2\tlegacy_async_global_slice\tload\n"
		"g\t5000\t0\t0\tlegacy_chrome_global_instants\tLegacy Global Instants\n"
		"p\t6000\t0\t0\tchrome_process_instant\tNULL\n"
		"t\t7000\t0\t0\tthread\tNULL\n");
	free(tsv);
	assert_int_equal(tt_test_stat(tr, "async_unmatched"), 1);
	/* Chrome's legacy instant tracks: source chrome; a process's keeps
	 * its process as dimension */
	tt_test_assert_tsv(tr, "select t.type, a.key, a.display_value from track t join args a"
		       " on a.arg_set_id in (t.source_arg_set_id, t.dimension_arg_set_id)"
		       " where t.type in ('legacy_chrome_global_instants', 'chrome_process_instant')"
		       " order by t.type, a.key",
		   "chrome_process_instant\tsource\tchrome\n"
		   "chrome_process_instant\tupid\t1\n"
		   "legacy_chrome_global_instants\tsource\tchrome\n");
	tt_test_close_text(tr, p);
}

/* Async tracks as trace processor groups them: ids whose slices do not
 * overlap share one track per (name, scope); an overlapping id gets a
 * second track; an id keeps the name of its first event; id2.local is
 * scoped to the process, plain ids and id2.global to the trace. */
static void async_track_grouping(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"["
		"{\"ph\":\"b\",\"name\":\"anim\",\"cat\":\"c\",\"id\":1,\"pid\":1,\"tid\":1,\"ts\":1},"
		"{\"ph\":\"e\",\"name\":\"anim\",\"cat\":\"c\",\"id\":1,\"pid\":1,\"tid\":1,\"ts\":2},"
		"{\"ph\":\"b\",\"name\":\"anim\",\"cat\":\"c\",\"id\":2,\"pid\":1,\"tid\":1,\"ts\":3},"
		"{\"ph\":\"b\",\"name\":\"anim\",\"cat\":\"c\",\"id\":3,\"pid\":2,\"tid\":2,\"ts\":4},"
		"{\"ph\":\"e\",\"name\":\"other\",\"cat\":\"c\",\"id\":2,\"pid\":1,\"tid\":1,\"ts\":5},"
		"{\"ph\":\"e\",\"name\":\"anim\",\"cat\":\"c\",\"id\":3,\"pid\":2,\"tid\":2,\"ts\":6},"
		"{\"ph\":\"b\",\"name\":\"w\",\"cat\":\"c\",\"id2\":{\"local\":7},\"pid\":1,\"tid\":1,\"ts\":7},"
		"{\"ph\":\"e\",\"name\":\"w\",\"cat\":\"c\",\"id2\":{\"local\":7},\"pid\":1,\"tid\":1,\"ts\":8},"
		"{\"ph\":\"b\",\"name\":\"w\",\"cat\":\"c\",\"id2\":{\"local\":7},\"pid\":2,\"tid\":2,\"ts\":9},"
		"{\"ph\":\"e\",\"name\":\"w\",\"cat\":\"c\",\"id2\":{\"local\":7},\"pid\":2,\"tid\":2,\"ts\":10},"
		"{\"ph\":\"n\",\"name\":\"g\",\"cat\":\"c\",\"id2\":{\"global\":\"x\"},\"pid\":2,\"tid\":2,\"ts\":11}"
		"]", &p);
	char *tsv;

	(void)state;
	tsv = tt_test_tsv(tr, "select s.ts, s.dur, s.track_id, t.name, t.type, p.pid from slice s"
			      " join track t on s.track_id = t.id left join process p on t.upid = p.id"
			      " order by s.ts");
	assert_string_equal(tsv,
		"1000\t1000\t0\tanim\tlegacy_async_global_slice\tNULL\n"
		"3000\t-1\t0\tanim\tlegacy_async_global_slice\tNULL\n"
		"4000\t2000\t1\tanim\tlegacy_async_global_slice\tNULL\n"
		"7000\t1000\t2\tw\tlegacy_async_process_slice\t1\n"
		"9000\t1000\t3\tw\tlegacy_async_process_slice\t2\n"
		"11000\t0\t4\tg\tlegacy_async_global_slice\tNULL\n");
	free(tsv);
	/* an e ends the open slice of its category and name, as trace
	 * processor's: "other" ends nothing, id 2's slice stays open */
	assert_int_equal(tt_test_stat(tr, "slice_end_name_mismatch"), 0);
	assert_int_equal(tt_test_stat(tr, "slice_end_unmatched"), 1);
	tt_test_close_text(tr, p);
}

/* Trailing commas, as trace processor's reader takes them: before '}'
 * and ']', across white space, never inside a string. */
static void trailing_commas(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"{\"traceEvents\": ["
		"{\"ph\":\"X\",\"name\":\"a,}\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1,"
		"\"args\":{\"k\":[1,2,],\"s\":\", ]\",\n},\t},"
		"{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":3,\"dur\":1,},\n"
		"],}", &p);

	(void)state;
	tt_test_assert_tsv(tr, "select name, ts from slice order by ts", "a,}\t1000\nb\t3000\n");
	tt_test_assert_tsv(tr, "select key, display_value from args where arg_set_id = (select arg_set_id from slice"
		       " where name = 'a,}') order by id",
		   "args.k[0]\t1\nargs.k[1]\t2\nargs.s\t, ]\n");
	tt_test_close_text(tr, p);
}

/* Raw control characters inside strings (trace processor keeps them):
 * names and values hold them as they were. */
static void raw_control_characters(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"[{\"ph\":\"X\",\"name\":\"a\nb\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1,"
		"\"args\":{\"t\\u00e9\tx\":\"1\r\n\\n2\x1b\"}}]", &p);

	(void)state;
	assert_int_equal(tt_test_int(tr, "select count(*) from slice where name = 'a' || char(10) || 'b'"), 1);
	assert_int_equal(tt_test_int(tr, "select count(*) from args where key = 'args.t' || char(233) || char(9) || 'x'"
				     " and string_value = '1' || char(13, 10, 10) || '2' || char(27)"), 1);
	tt_test_close_text(tr, p);
	/* a control character it cannot rewrite: refused as before */
	{
		const char *bad = "[{\"ph\":\"X\",\"name\":\"a\x05\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}]";
		char *path = tt_test_write_tmp(bad, strlen(bad), ".json");
		tt_err err = {0};

		assert_null(tt_trace_open(path, NULL, &err));
		assert_non_null(strstr(err.msg, "invalid character inside string"));
		unlink(path);
		free(path);
	}
	/* a raw control character in one string, a byte of the rewriting
	 * (invalid UTF-8, kept) in another: both as they were */
	tr = tt_test_open_json("[{\"ph\":\"X\",\"name\":\"a\n\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},"
		       "{\"ph\":\"X\",\"name\":\"\xff\",\"pid\":1,\"tid\":1,\"ts\":3,\"dur\":1}]", &p);
	tt_test_assert_tsv(tr, "select hex(name) from slice order by ts", "610A\nFF\n");
	tt_test_close_text(tr, p);
	/* both in one string: cannot be read exactly, refused */
	{
		const char *bad = "[{\"ph\":\"X\",\"name\":\"a\n\xff\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}]";
		char *path = tt_test_write_tmp(bad, strlen(bad), ".json");
		tt_err err = {0};

		assert_null(tt_trace_open(path, NULL, &err));
		assert_non_null(strstr(err.msg, "raw control characters"));
		unlink(path);
		free(path);
	}
}

/* A trailing comma whose closing bracket is in the next read (the parser
 * reads 256 KiB at a time): the comma waits for it. */
static void trailing_comma_across_reads(void **state)
{
	size_t read_size = 256 * 1024, n;
	char *t = malloc(read_size + 64), *path;
	const char *head = "[{\"ph\":\"X\",\"name\":\"long\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1,\"args\":{\"pad\":\"";
	tt_trace *tr;

	(void)state;
	assert_non_null(t);
	n = (size_t)sprintf(t, "%s", head);
	while (n < read_size - 2)
		t[n++] = 'x';
	t[n++] = '"';
	t[n++] = ','; /* the last byte of the first read */
	n += (size_t)sprintf(t + n, "  }}]");
	path = tt_test_write_tmp(t, n, ".json");
	tr = tt_test_open(path);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 1);
	assert_int_equal(tt_test_int(tr, "select length(string_value) from args where key = 'args.pad'"),
			 (int64_t)(read_size - 2 - strlen(head)));
	tt_trace_close(tr);
	unlink(path);
	free(path);
	free(t);
}

/* Where the first read (256 KiB) ends is swept over every byte of an
 * event's keys and string values, escapes included: a string cut by a
 * read is held back with the token before it and given to yajl whole
 * (import_json.c); the event reads the same wherever the cut falls. Then
 * a string of three reads with escapes. */
static void strings_across_reads(void **state)
{
	const size_t read_size = 256 * 1024, big = 600 * 1024;
	const char *ev = ",{\"ph\":\"X\",\"name\":\"A\\tB\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":1,"
			 "\"args\":{\"key\":\"v\\u00e9\\n\",\"k2\":\"w\"}}]";
	const char *head = "[{\"ph\":\"X\",\"name\":\"pad\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1,\"args\":{\"pad\":\"";
	char *t = malloc(read_size + big + 256), *path;
	tt_trace *tr;
	size_t n;

	(void)state;
	assert_non_null(t);
	for (size_t cut = 1; cut < strlen(ev); cut++) {
		/* the pad string ends so that the read ends after ev's first cut bytes */
		n = (size_t)sprintf(t, "%s", head);
		while (n < read_size - cut - 3)
			t[n++] = 'x';
		n += (size_t)sprintf(t + n, "\"}}%s", ev);
		assert_int_equal(strlen(head) + (read_size - cut - 3 - strlen(head)) + 3 + cut, read_size);
		path = tt_test_write_tmp(t, n, ".json");
		tr = tt_test_open(path);
		tt_test_assert_tsv(tr, "select ts, hex(name) from slice order by ts", "1000\t706164\n5000\t410942\n");
		tt_test_assert_tsv(tr, "select key, hex(string_value) from args where key in ('args.key', 'args.k2')"
				   " order by key", "args.k2\t77\nargs.key\t76C3A90A\n");
		tt_trace_close(tr);
		unlink(path);
		free(path);
	}
	/* one string over three reads, with escapes all along */
	n = (size_t)sprintf(t, "%s\"}},{\"ph\":\"X\",\"name\":\"long\",\"pid\":1,\"tid\":1,\"ts\":7,\"dur\":1,"
				"\"args\":{\"s\":\"", head);
	for (size_t i = 0; i < big / 4; i++) {
		memcpy(t + n, "ab\\n", 4);
		n += 4;
	}
	n += (size_t)sprintf(t + n, "\"}}]");
	path = tt_test_write_tmp(t, n, ".json");
	tr = tt_test_open(path);
	tt_test_assert_tsv(tr, "select ts, name from slice order by ts", "1000\tpad\n7000\tlong\n");
	assert_int_equal(tt_test_int(tr, "select length(string_value) from args where key = 'args.s'"),
			 (int64_t)(big / 4 * 3));
	assert_int_equal(tt_test_int(tr, "select instr(string_value, 'ab' || char(10) || 'ab') from args"
				     " where key = 'args.s'"), 1);
	tt_trace_close(tr);
	unlink(path);
	free(path);
	free(t);
}

/* Thread state events (ph T, as trace processor reads them): the name is
 * the state, cpu / io_wait / blocked_function are columns; Running with a
 * cpu is also a sched slice; one without dur is a parser failure, a
 * negative dur is kept; integer cpu and io_wait are uint32 (-1 is
 * 4294967295). */
static void thread_state_events(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"["
		"{\"ph\":\"T\",\"name\":\"Running\",\"pid\":5,\"tid\":6,\"ts\":1,\"dur\":2,\"args\":{\"cpu\":3}},"
		"{\"ph\":\"T\",\"name\":\"D\",\"pid\":5,\"tid\":6,\"ts\":3,\"dur\":4,"
		"\"args\":{\"io_wait\":1,\"blocked_function\":\"wait_on_page\"}},"
		"{\"ph\":\"T\",\"name\":\"R\",\"pid\":5,\"tid\":6,\"ts\":7,\"dur\":1},"
		"{\"ph\":\"T\",\"name\":\"S\",\"pid\":5,\"tid\":6,\"ts\":9},"
		"{\"ph\":\"T\",\"name\":\"S\",\"pid\":5,\"tid\":6,\"ts\":10,\"dur\":-3,\"args\":{\"io_wait\":-1}},"
		"{\"ph\":\"T\",\"name\":\"Running\",\"pid\":5,\"tid\":6,\"ts\":20,\"dur\":1,"
		"\"args\":{\"cpu\":-1,\"io_wait\":0}}"
		"]", &p);

	(void)state;
	tt_test_assert_tsv(tr, "select ts, dur, state, coalesce(io_wait, -1), coalesce(blocked_function, '-'),"
		       " coalesce(cpu, -1), t.tid from thread_state join thread t using(utid) order by ts",
		   "1000\t2000\tRunning\t-1\t-\t-1\t6\n"
		   "3000\t4000\tD\t1\twait_on_page\t-1\t6\n"
		   "7000\t1000\tR\t-1\t-\t-1\t6\n"
		   "10000\t-3000\tS\t4294967295\t-\t-1\t6\n"
		   "20000\t1000\tRunning\t0\t-\t-1\t6\n");
	tt_test_assert_tsv(tr, "select s.ts, s.dur, c.cpu, t.tid from sched s join cpu c using(ucpu) join thread t using(utid)"
		       " order by s.ts",
		   "1000\t2000\t3\t6\n20000\t1000\t4294967295\t6\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 0);
	assert_int_equal(tt_test_stat(tr, "json_parser_failure"), 1);
	tt_test_close_text(tr, p);
}

/* A complete event that starts inside another one of its thread and ends
 * after it goes to an overflow track of the thread, as trace processor
 * spills it; a second one overlapping both goes to a second lane. */
static void overlapping_complete_spilled(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"["
		"{\"ph\":\"X\",\"name\":\"outer\",\"pid\":1,\"tid\":1,\"ts\":100,\"dur\":100},"
		"{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":150,\"dur\":100},"
		"{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":160,\"dur\":10},"
		"{\"ph\":\"X\",\"name\":\"c\",\"pid\":1,\"tid\":1,\"ts\":165,\"dur\":200},"
		"{},"
		"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"dur\":5}"
		"]", &p);
	char *tsv;

	(void)state;
	tsv = tt_test_tsv(tr, "select s.name, s.depth, t.type, t.utid, t.id from slice s"
			      " join track t on s.track_id = t.id order by s.ts");
	assert_string_equal(tsv,
		"outer\t0\tthread\t1\t0\n"
		"a\t0\tthread_overlapping_slice\t1\t1\n"
		"b\t1\tthread\t1\t0\n"
		"c\t0\tthread_overlapping_slice\t1\t2\n");
	free(tsv);
	assert_int_equal(tt_test_stat(tr, "slice_spill_overlapping_complete_event"), 2);
	assert_int_equal(tt_test_stat(tr, "slice_drop_overlapping_complete_event"), 0);
	/* each spill is logged with the slice it overlaps on the thread's
	 * track (the innermost: c overlaps b) and the shared range, as trace
	 * processor's _trace_import_logs */
	tt_test_assert_tsv(tr, "select l.ts, l.severity, a.key, a.display_value from _trace_import_logs l"
		       " join args a using(arg_set_id) where l.name = 'slice_spill_overlapping_complete_event'"
		       " order by l.ts, a.key",
		   "150000\terror\tconflicting_slice_dur\t100000\n"
		   "150000\terror\tconflicting_slice_name\touter\n"
		   "150000\terror\tconflicting_slice_ts\t100000\n"
		   "150000\terror\tevent_name\ta\n"
		   "150000\terror\tevent_phase\tX\n"
		   "150000\terror\toverlap_end\t200000\n"
		   "150000\terror\toverlap_start\t150000\n"
		   "165000\terror\tconflicting_slice_dur\t10000\n"
		   "165000\terror\tconflicting_slice_name\tb\n"
		   "165000\terror\tconflicting_slice_ts\t160000\n"
		   "165000\terror\tevent_name\tc\n"
		   "165000\terror\tevent_phase\tX\n"
		   "165000\terror\toverlap_end\t170000\n"
		   "165000\terror\toverlap_start\t165000\n");
	/* {} is tolerated; an event without ts is not */
	assert_int_equal(tt_test_stat(tr, "json_tokenizer_failure"), 1);
	tt_test_close_text(tr, p);
}

/* Sort indexes are also process/thread args, as trace processor gives
 * them (process_sort_index_hint, thread_sort_index_hint), 32-bit ints
 * there (2^32 + 7 is 7). */
static void sort_index_hints(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"["
		"{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":4,\"args\":{\"sort_index\":-5}},"
		"{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":4,\"tid\":6,\"args\":{\"sort_index\":4294967303}},"
		"{\"ph\":\"X\",\"name\":\"x\",\"pid\":4,\"tid\":6,\"ts\":1,\"dur\":1}"
		"]", &p);
	char *tsv;

	(void)state;
	tsv = tt_test_tsv(tr, "select 'p', p.pid, a.key, a.int_value from process p join args a using(arg_set_id)"
			      " union all select 't', t.tid, a.key, a.int_value from thread t"
			      " join args a using(arg_set_id)");
	assert_string_equal(tsv, "p\t4\tprocess_sort_index_hint\t-5\nt\t6\tthread_sort_index_hint\t7\n");
	free(tsv);
	tt_test_close_text(tr, p);
}

static void flows_v1_and_v2(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"{\"traceEvents\":["
		"{\"ph\":\"X\",\"name\":\"send\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":10},"
		"{\"ph\":\"s\",\"name\":\"msg\",\"cat\":\"ipc\",\"id\":1,\"pid\":1,\"tid\":1,\"ts\":12},"
		"{\"ph\":\"X\",\"name\":\"relay\",\"pid\":1,\"tid\":2,\"ts\":30,\"dur\":10},"
		"{\"ph\":\"t\",\"name\":\"msg\",\"cat\":\"ipc\",\"id\":1,\"pid\":1,\"tid\":2,\"ts\":31},"
		"{\"ph\":\"f\",\"name\":\"msg\",\"cat\":\"ipc\",\"id\":1,\"pid\":1,\"tid\":3,\"ts\":45},"
		"{\"ph\":\"X\",\"name\":\"recv\",\"pid\":1,\"tid\":3,\"ts\":50,\"dur\":10},"
		"{\"ph\":\"X\",\"name\":\"out2\",\"pid\":2,\"tid\":1,\"ts\":60,\"dur\":5,\"bind_id\":\"0xab\",\"flow_out\":true},"
		"{\"ph\":\"X\",\"name\":\"in2\",\"pid\":2,\"tid\":2,\"ts\":70,\"dur\":5,\"bind_id\":\"0xab\",\"flow_in\":true},"
		"{\"ph\":\"f\",\"name\":\"lost\",\"cat\":\"ipc\",\"id\":9,\"pid\":1,\"tid\":3,\"ts\":45}"
		"]}", &p);
	char *tsv;

	(void)state;
	tsv = tt_test_tsv(tr, "select o.name, i.name from flow f join slice o on f.slice_out = o.id"
			      " join slice i on f.slice_in = i.id order by f.id");
	assert_string_equal(tsv, "send\trelay\nrelay\trecv\nout2\tin2\n");
	free(tsv);
	/* (trace processor would wait for "lost" too and link the next
	 * slice from slice 0; termtrace counts it instead) */
	assert_int_equal(tt_test_stat(tr, "flow_end_without_start"), 1);
	/* a v1 flow's links carry its name and category, as trace
	 * processor's do; a v2 flow's carry none */
	tt_test_assert_tsv(tr, "select f.id, coalesce(group_concat(a.key || '=' || a.display_value, ' '), '-')"
			   " from flow f left join args a using(arg_set_id) group by f.id order by f.id",
			   "0\tname=msg cat=ipc\n1\tname=msg cat=ipc\n2\t-\n");
	/* trace_id: a v1 flow's number (its (id, cat, name) in the order first
	 * seen, from 0: "lost" is 1), a v2 flow's bind_id (0xab), as trace
	 * processor's FlowTracker gives them */
	tt_test_assert_tsv(tr, "select id, trace_id from flow order by id", "0\t0\n1\t0\n2\t171\n");
	tt_test_close_text(tr, p);
}

/* trace processor's flow rules and stats: a flow binds to the thread's
 * topmost slice (one that ended stays topmost until the thread's next
 * slice event), a flow never closes (a second start is
 * flow_duplicate_id and ignored; every end links from its last slice),
 * and each unmatched event has its own stat. */
static void flow_stats_as_trace_processor(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"[{\"ph\":\"s\",\"name\":\"a\",\"id\":1,\"pid\":1,\"tid\":1,\"ts\":1},"
		"{\"ph\":\"X\",\"name\":\"A\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":5},"
		"{\"ph\":\"s\",\"name\":\"a\",\"id\":1,\"pid\":1,\"tid\":1,\"ts\":20},"
		"{\"ph\":\"X\",\"name\":\"B\",\"pid\":1,\"tid\":2,\"ts\":30,\"dur\":5},"
		"{\"ph\":\"s\",\"name\":\"a\",\"id\":1,\"pid\":1,\"tid\":2,\"ts\":31},"
		"{\"ph\":\"f\",\"name\":\"a\",\"id\":1,\"bp\":\"e\",\"pid\":1,\"tid\":2,\"ts\":32},"
		"{\"ph\":\"X\",\"name\":\"C\",\"pid\":1,\"tid\":3,\"ts\":40,\"dur\":5},"
		"{\"ph\":\"f\",\"name\":\"a\",\"id\":1,\"bp\":\"e\",\"pid\":1,\"tid\":3,\"ts\":41},"
		"{\"ph\":\"t\",\"name\":\"a\",\"id\":2,\"pid\":1,\"tid\":3,\"ts\":42},"
		"{\"ph\":\"f\",\"name\":\"a\",\"id\":3,\"bp\":\"e\",\"pid\":1,\"tid\":3,\"ts\":43},"
		"{\"ph\":\"X\",\"name\":\"D\",\"pid\":1,\"tid\":4,\"ts\":50,\"dur\":5,\"bind_id\":7},"
		"{\"ph\":\"X\",\"name\":\"E\",\"pid\":1,\"tid\":4,\"ts\":60,\"dur\":5,\"bind_id\":8,\"flow_in\":true},"
		"{\"ph\":\"X\",\"name\":\"F\",\"pid\":1,\"tid\":4,\"ts\":70,\"dur\":5,\"bind_id\":8,"
		"\"flow_in\":true,\"flow_out\":true}]", &p);

	(void)state;
	/* s at 1: no slice yet; s at 20: A ended but is still topmost */
	tt_test_assert_tsv(tr, "select o.name, i.name from flow f join slice o on f.slice_out = o.id"
			   " join slice i on f.slice_in = i.id order by f.id",
			   "A\tB\nA\tC\n");
	assert_int_equal(tt_test_stat(tr, "flow_no_enclosing_slice"), 1);
	assert_int_equal(tt_test_stat(tr, "flow_duplicate_id"), 1);
	assert_int_equal(tt_test_stat(tr, "flow_step_without_start"), 2); /* t id 2, F */
	assert_int_equal(tt_test_stat(tr, "flow_end_without_start"), 2);  /* f id 3, E */
	assert_int_equal(tt_test_stat(tr, "flow_without_direction"), 1);
	tt_test_assert_tsv(tr, "select l.name, l.ts, group_concat(a.key || '=' || a.display_value, ' ')"
			   " from _trace_import_logs l join args a using(arg_set_id) group by l.id order by l.id",
			   "flow_without_direction\t50000\tevent_name=D event_phase=X\n");
	tt_test_close_text(tr, p);
}

/* trace processor makes an event's process and thread when its parser
 * sees the event: in timestamp order, metadata included (at its ts, or 0
 * without one), and a process_name event makes its thread too. A tid of
 * 0 is the pid's; a pid or tid given as a string (even a number's) is a
 * name; a number with a fraction is cut to an integer. */
static void threads_in_parser_order(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"[{\"ph\":\"X\",\"name\":\"late\",\"pid\":2,\"tid\":20,\"ts\":50,\"dur\":1},"
		"{\"ph\":\"X\",\"name\":\"early\",\"pid\":1,\"tid\":10,\"ts\":10,\"dur\":1},"
		"{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":3,\"tid\":30,\"args\":{\"name\":\"three\"}},"
		"{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":10,\"ts\":20,\"args\":{\"name\":\"first\"}},"
		"{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":10,\"ts\":5,\"args\":{\"name\":\"zeroth\"}},"
		"{\"ph\":\"i\",\"name\":\"mark\",\"pid\":4,\"tid\":0,\"ts\":30,\"s\":\"t\"},"
		"{\"ph\":\"X\",\"name\":\"str\",\"pid\":\"7\",\"tid\":1.9,\"ts\":40,\"dur\":1},"
		"{\"ph\":\"Q\",\"name\":\"odd\",\"pid\":8,\"tid\":80,\"ts\":42},"
		"{\"ph\":\"X\",\"name\":\"nodur\",\"pid\":9,\"tid\":90,\"ts\":44}]", &p);

	(void)state;
	tt_test_assert_tsv(tr, "select iif(t.tid = p.pid and p.name = '7', 'main', t.tid), coalesce(t.name, '-'),"
			   " coalesce(p.name, '-') from thread t join process p using(upid) where t.utid > 0 order by t.utid",
			   "3\t-\tthree\n"      /* the main thread, then the event's */
			   "30\t-\tthree\n"
			   "1\t-\t-\n"
			   "10\tfirst\t-\n"     /* (named at ts 5, then 20) */
			   "4\t-\t-\n"          /* tid 0: the pid's */
			   "main\t-\t7\n"       /* pid "7": a name, tid 1.9: 1 */
			   "1\t-\t7\n"
			   "8\t-\t-\n"          /* a phase not imported */
			   "80\t-\t-\n"
			   "9\t-\t-\n"          /* a parser failure */
			   "90\t-\t-\n"
			   "2\t-\t-\n"
			   "20\t-\t-\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from process where pid = 7"), 0);
	tt_test_close_text(tr, p);
}

/* A thread's instant keeps its tts (a process or global one has no
 * thread time), as trace processor; without displayTimeUnit nothing is
 * counted. */
static void instant_thread_time(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"[{\"ph\":\"i\",\"name\":\"t\",\"pid\":1,\"tid\":2,\"ts\":10,\"tts\":4},"
		"{\"ph\":\"i\",\"name\":\"p\",\"s\":\"p\",\"pid\":1,\"tid\":2,\"ts\":11,\"tts\":5},"
		"{\"ph\":\"I\",\"name\":\"g\",\"s\":\"g\",\"pid\":1,\"tid\":2,\"ts\":12,\"tts\":6}]", &p);

	(void)state;
	tt_test_assert_tsv(tr, "select name, coalesce(thread_ts, '-'), coalesce(thread_dur, '-') from slice order by ts",
			   "t\t4000\t-\np\t-\t-\ng\t-\t-\n");
	assert_int_equal(tt_test_stat(tr, "json_display_time_unit"), 0);
	tt_test_close_text(tr, p);
}

/* A dur, tts or tdur that is not a number (a string that is not one, an
 * array, ...) drops the event before it has a thread (trace processor's tokenizer: json_tokenizer_failure); an X
 * with no dur at all is the parser's failure and has its thread. */
static void bad_time_fields(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":2,\"ts\":1,\"dur\":\"bad\"},"
		"{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":3,\"ts\":1,\"dur\":1,\"tts\":\"x\"},"
		"{\"ph\":\"B\",\"name\":\"c\",\"pid\":1,\"tid\":4,\"ts\":1,\"tdur\":[]},"
		"{\"ph\":\"X\",\"name\":\"d\",\"pid\":1,\"tid\":5,\"ts\":2},"
		"{\"ph\":\"X\",\"name\":\"e\",\"pid\":1,\"tid\":6,\"ts\":2,\"dur\":\"3\"}]", &p);

	(void)state;
	tt_test_assert_tsv(tr, "select name, dur from slice", "e\t3000\n");
	tt_test_assert_tsv(tr, "select tid from thread where utid > 0 order by utid", "1\n5\n6\n");
	assert_int_equal(tt_test_stat(tr, "json_tokenizer_failure"), 3);
	assert_int_equal(tt_test_stat(tr, "json_parser_failure"), 1);
	tt_test_close_text(tr, p);
}

/* Every event trace processor's tokenizer refuses (json_tokenizer_failure)
 * is a _trace_import_logs row: no ts, the byte offset just past its '}',
 * arg raw_event its text and, when a time field did not convert, arg
 * error with CoerceToTs's message (a non-number type by its variant
 * index; a string read as a JSON value up to its closing quote). An
 * event without ph has no error; {} is no failure; a bad dur is the
 * error even when a later tts is bad too. */
static void tokenizer_failure_logs(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"[{\"ph\":\"X\",\"name\":\"ok\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},{\"name\":\"noph\",\"ts\":2},{},"
		"{\"cat\":\"c\"},{\"ph\":\"B\",\"name\":\"nots\"},{\"ph\":\"B\",\"ts\":\"1.\",\"name\":\"t1\"},"
		"{\"ph\":\"B\",\"ts\":true},{\"ph\":\"B\",\"ts\":\"nul\"},{\"ph\":\"X\",\"ts\":1,\"dur\":{\"a\":1}},"
		"{\"ph\":\"X\",\"ts\":1,\"dur\":\"abc\",\"tts\":null}]", &p);

	(void)state;
	tt_test_assert_tsv(tr, "select l.id, coalesce(l.ts, '-'), l.byte_offset, l.severity, l.name, a.key, "
		       "a.display_value from _trace_import_logs l join args a using(arg_set_id) order by l.id, a.id",
		   "0\t-\t77\terror\tjson_tokenizer_failure\traw_event\t{\"name\":\"noph\",\"ts\":2}\n"
		   "1\t-\t92\terror\tjson_tokenizer_failure\traw_event\t{\"cat\":\"c\"}\n"
		   "2\t-\t117\terror\tjson_tokenizer_failure\traw_event\t{\"ph\":\"B\",\"name\":\"nots\"}\n"
		   "3\t-\t150\terror\tjson_tokenizer_failure\traw_event\t{\"ph\":\"B\",\"ts\":\"1.\",\"name\":\"t1\"}\n"
		   "3\t-\t150\terror\tjson_tokenizer_failure\terror\t"
		   "Invalid number: expected digit after '.' in '1.\"'\n"
		   "4\t-\t171\terror\tjson_tokenizer_failure\traw_event\t{\"ph\":\"B\",\"ts\":true}\n"
		   "4\t-\t171\terror\tjson_tokenizer_failure\terror\tExpected a number in timestamp, got 1\n"
		   "5\t-\t193\terror\tjson_tokenizer_failure\traw_event\t{\"ph\":\"B\",\"ts\":\"nul\"}\n"
		   "5\t-\t193\terror\tjson_tokenizer_failure\terror\tInvalid token: expected 'null' but got 'nul\"'\n"
		   "6\t-\t225\terror\tjson_tokenizer_failure\traw_event\t{\"ph\":\"X\",\"ts\":1,\"dur\":{\"a\":1}}\n"
		   "6\t-\t225\terror\tjson_tokenizer_failure\terror\tExpected a number in timestamp, got 5\n"
		   "7\t-\t266\terror\tjson_tokenizer_failure\traw_event\t"
		   "{\"ph\":\"X\",\"ts\":1,\"dur\":\"abc\",\"tts\":null}\n"
		   "7\t-\t266\terror\tjson_tokenizer_failure\terror\tInvalid number: expected digit in 'abc\"'\n");
	assert_int_equal(tt_test_stat(tr, "json_tokenizer_failure"), 8);
	tt_test_assert_tsv(tr, "select name from slice", "ok\n");
	tt_test_close_text(tr, p);
}

/* Ids as trace processor keys them: a string by its text ("1" is not 1:
 * two async slices on two tracks), a plain id before id2 wherever it
 * stands, a number that is not an integer no id at all (a v1 flow with
 * one: flow_invalid_id, its thread's track made all the same). */
static void ids_as_trace_processor(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"[{\"ph\":\"b\",\"name\":\"A\",\"cat\":\"c\",\"id\":\"1\",\"pid\":1,\"tid\":1,\"ts\":1},"
		"{\"ph\":\"b\",\"name\":\"A\",\"cat\":\"c\",\"id\":1,\"pid\":1,\"tid\":1,\"ts\":2},"
		"{\"ph\":\"e\",\"name\":\"A\",\"cat\":\"c\",\"id\":1,\"pid\":1,\"tid\":1,\"ts\":5},"
		"{\"ph\":\"e\",\"name\":\"A\",\"cat\":\"c\",\"id\":\"1\",\"pid\":1,\"tid\":1,\"ts\":6},"
		"{\"ph\":\"b\",\"name\":\"B\",\"cat\":\"c\",\"id\":7,\"id2\":{\"global\":\"0x9\"},\"pid\":2,\"tid\":2,\"ts\":1},"
		"{\"ph\":\"e\",\"name\":\"B\",\"cat\":\"c\",\"id\":7,\"pid\":2,\"tid\":2,\"ts\":3},"
		"{\"ph\":\"s\",\"name\":\"f\",\"id\":1.5,\"pid\":1,\"tid\":1,\"ts\":3}]", &p);

	(void)state;
	tt_test_assert_tsv(tr, "select name, ts, dur, depth from slice order by name, ts",
			   "A\t1000\t5000\t0\nA\t2000\t3000\t0\nB\t1000\t2000\t0\n");
	assert_int_equal(tt_test_int(tr, "select count(distinct track_id) from slice where name = 'A'"), 2);
	assert_int_equal(tt_test_stat(tr, "flow_invalid_id"), 1);
	assert_int_equal(tt_test_stat(tr, "async_unmatched"), 0);
	/* (the flow event still made its thread's track, as there) */
	tt_test_assert_tsv(tr, "select t.tid from thread_track k join thread t using(utid)", "1\n");
	tt_test_close_text(tr, p);
}

/* Instants stack as in trace processor's slice tracker: a second
 * instant of the same ts nests in the first, an instant and a slice of
 * one ts do not, and a flow binds to an instant until the thread's next
 * slice event. */
static void instants_stack(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"[{\"ph\":\"i\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":10},"
		"{\"ph\":\"i\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":10},"
		"{\"ph\":\"s\",\"name\":\"f\",\"id\":1,\"pid\":1,\"tid\":1,\"ts\":11},"
		"{\"ph\":\"X\",\"name\":\"c\",\"pid\":1,\"tid\":1,\"ts\":20,\"dur\":5},"
		"{\"ph\":\"i\",\"name\":\"d\",\"pid\":1,\"tid\":1,\"ts\":20},"
		"{\"ph\":\"X\",\"name\":\"e\",\"pid\":1,\"tid\":2,\"ts\":30,\"dur\":5},"
		"{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"f\",\"id\":1,\"pid\":1,\"tid\":2,\"ts\":31},"
		"{\"ph\":\"i\",\"name\":\"g\",\"s\":\"g\",\"pid\":1,\"ts\":40},"
		"{\"ph\":\"i\",\"name\":\"h\",\"s\":\"g\",\"pid\":1,\"ts\":40}]", &p);

	(void)state;
	tt_test_assert_tsv(tr, "select s.name, s.depth, coalesce(q.name, '-') from slice s"
			   " left join slice q on s.parent_id = q.id order by s.id",
			   "a\t0\t-\nb\t1\ta\nc\t0\t-\nd\t1\tc\ne\t0\t-\ng\t0\t-\nh\t1\tg\n");
	tt_test_assert_tsv(tr, "select o.name, i.name from flow f join slice o on f.slice_out = o.id"
			   " join slice i on f.slice_in = i.id", "b\te\n");
	tt_test_close_text(tr, p);
}

static void metadata_and_ids(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"{\"displayTimeUnit\":\"ms\",\"traceEvents\":["
		"{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":7,\"args\":{\"name\":\"browser\"}},"
		"{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":7,\"tid\":8,\"args\":{\"name\":\"main\"}},"
		"{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":7,\"args\":{\"sort_index\":-2}},"
		"{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":7,\"tid\":8,\"args\":{\"sort_index\":4}},"
		"{\"ph\":\"X\",\"name\":\"work\",\"pid\":\"7\",\"tid\":\"8\",\"ts\":\"1234.567\",\"dur\":1.0005},"
		"{\"ph\":\"X\",\"name\":\"gpu\",\"pid\":\"GPU Process\",\"tid\":1,\"ts\":1e3,\"dur\":2},"
		"{\"ph\":\"X\",\"name\":\"nopid\",\"ts\":5,\"dur\":1,"
		"\"args\":{\"o\":{\"l\":[1,{\"k\":true}],\"n\":null},\"s\":\"__x\",\"r\":0.25}}"
		"],\"metadata\":{\"a\":[1,2,{\"b\":3}]}}", &p);
	char *tsv;

	(void)state;
	tsv = tt_test_tsv(tr, "select p.name, p.sort_index, t.name, t.sort_index, t.tid, t.is_main_thread"
			      " from thread t join process p using (upid) where p.pid = 7 order by t.tid");
	assert_string_equal(tsv, "browser\t-2\tNULL\tNULL\t7\t1\nbrowser\t-2\tmain\t4\t8\t0\n");
	free(tsv);
	/* "1234.567" µs as a string -> exact ns; 1.0005 µs rounds half away */
	tsv = tt_test_tsv(tr, "select ts, dur from slice where name = 'work'");
	assert_string_equal(tsv, "1234567\t1001\n");
	free(tsv);
	assert_string_equal(tt_test_str(tr, "select p.name from slice s join thread_track tt on s.track_id = tt.id"
					    " join thread using (utid) join process p using (upid) where s.name = 'gpu'"),
			    "GPU Process");
	assert_int_equal(tt_test_int(tr, "select ts from slice where name = 'gpu'"), 1000000);
	/* keyed "args.<path>" as trace processor has them; the null left out */
	tsv = tt_test_tsv(tr, "select key, flat_key, value_type, display_value from args where arg_set_id ="
			      " (select arg_set_id from slice where name = 'nopid') order by id");
	assert_string_equal(tsv,
		"args.o.l[0]\targs.o.l\tint\t1\n"
		"args.o.l[1].k\targs.o.l.k\tbool\ttrue\n"
		"args.s\targs.s\tstring\t__x\n"
		"args.r\targs.r\treal\t0.25\n");
	free(tsv);
	tt_test_close_text(tr, p);
}

static void unfinished_and_unmatched(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"[{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":1},"
		"{\"ph\":\"B\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":2},"
		"{\"ph\":\"B\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":3},"
		"{\"ph\":\"E\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":4},"
		"{\"ph\":\"B\",\"name\":\"open\",\"pid\":1,\"tid\":1,\"ts\":5},"
		"{\"ph\":\"Z\",\"name\":\"weird\",\"pid\":1,\"tid\":1,\"ts\":5}]", &p);
	char *tsv;

	(void)state;
	/* E named "a" closes "a" and the "b" inside it */
	tsv = tt_test_tsv(tr, "select name, ts, dur, depth from slice order by id");
	assert_string_equal(tsv, "a\t2000\t2000\t0\nb\t3000\t1000\t1\nopen\t5000\t-1\t0\n");
	free(tsv);
	assert_int_equal(tt_test_stat(tr, "slice_end_unmatched"), 1);
	assert_int_equal(tt_test_stat(tr, "slice_unfinished"), 1);
	assert_int_equal(tt_test_stat(tr, "json_phase_unknown"), 1);
	/* and by name: what was not imported */
	assert_string_equal(tt_test_str(tr, "select key || '=' || value from stats_detail"
					    " where name = 'json_phase_unknown'"), "phase 'Z'=1");
	tt_test_close_text(tr, p);
}

/* An E closes the innermost open B whose category (when the E has one)
 * and name (when both have one) are its own; an E matching none closes
 * nothing, so its B stays unfinished (dur -1) and keeps only its own args. */
static void end_matches_name_and_category(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"[{\"ph\":\"B\",\"name\":\"outer\",\"cat\":\"c1\",\"pid\":1,\"tid\":1,\"ts\":1,\"args\":{\"k\":1}},"
		"{\"ph\":\"B\",\"name\":\"inner\",\"cat\":\"c2\",\"pid\":1,\"tid\":1,\"ts\":2},"
		"{\"ph\":\"E\",\"cat\":\"c2\",\"pid\":1,\"tid\":1,\"ts\":3},"
		"{\"ph\":\"E\",\"name\":\"other\",\"pid\":1,\"tid\":1,\"ts\":4,\"args\":{\"e\":2}},"
		"{\"ph\":\"E\",\"cat\":\"c9\",\"pid\":1,\"tid\":1,\"ts\":5},"
		"{\"ph\":\"B\",\"name\":\"x\",\"pid\":1,\"tid\":2,\"ts\":6},"
		"{\"ph\":\"E\",\"pid\":1,\"tid\":2,\"ts\":8}]", &p);
	char *tsv;

	(void)state;
	tsv = tt_test_tsv(tr, "select name, ts, dur, depth from slice order by id");
	assert_string_equal(tsv, "outer\t1000\t-1\t0\ninner\t2000\t1000\t1\nx\t6000\t2000\t0\n");
	free(tsv);
	assert_int_equal(tt_test_stat(tr, "slice_end_unmatched"), 2);
	assert_int_equal(tt_test_stat(tr, "slice_unfinished"), 1);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice join args using (arg_set_id)"
				     " where slice.name = 'outer'"), 1);
	tt_test_close_text(tr, p);
}

/* The top-level "metadata" object: each scalar field as metadata
 * json_metadata.<key> (bools as 0/1, integral numbers as ints, others as
 * text); nulls left out; "metadata" inside an event is an arg, not this. */
static void top_level_metadata(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"{\"metadata\":{\"source\":\"DevTools\",\"cpus\":12,\"on\":true,\"f\":3.0,"
		"\"g\":0.25,\"z\":null},\"traceEvents\":[{\"ph\":\"X\",\"name\":\"s\",\"pid\":1,"
		"\"tid\":1,\"ts\":0,\"dur\":1,\"args\":{\"metadata\":{\"q\":1}}}]}", &p);
	char *tsv;

	(void)state;
	tsv = tt_test_tsv(tr, "select name, int_value, str_value from metadata"
			      " where name glob 'json_metadata.*' order by name");
	assert_string_equal(tsv, "json_metadata.cpus\t12\tNULL\njson_metadata.f\t3\tNULL\n"
				 "json_metadata.g\tNULL\t0.25\njson_metadata.on\t1\tNULL\n"
				 "json_metadata.source\tNULL\tDevTools\n");
	free(tsv);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 1);
	tt_test_close_text(tr, p);
}

/* Async b/e/n need a pid and an id: "id", or id2's "global" (before its
 * "local"); an id2 with neither key (or no id at all) gives no slice and
 * counts json_parser_failure, as in trace processor. */
static void async_id2_keys(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"[{\"ph\":\"b\",\"name\":\"g\",\"cat\":\"c\",\"pid\":4,\"tid\":5,\"ts\":1,\"id2\":{\"local\":\"0x1\",\"global\":\"0x2\"}},"
		"{\"ph\":\"e\",\"name\":\"g\",\"cat\":\"c\",\"pid\":4,\"tid\":5,\"ts\":2,\"id2\":{\"global\":\"0x2\"}},"
		"{\"ph\":\"b\",\"name\":\"x\",\"cat\":\"c\",\"pid\":4,\"tid\":5,\"ts\":3,\"id2\":{\"\":\"k\"}},"
		"{\"ph\":\"e\",\"name\":\"x\",\"cat\":\"c\",\"pid\":4,\"tid\":5,\"ts\":4,\"id2\":{\"\":\"k\"}},"
		"{\"ph\":\"n\",\"name\":\"y\",\"cat\":\"c\",\"pid\":4,\"tid\":5,\"ts\":5}]", &p);
	char *tsv;

	(void)state;
	tsv = tt_test_tsv(tr, "select s.name, s.ts, s.dur, t.type from slice s join track t on s.track_id = t.id");
	assert_string_equal(tsv, "g\t1000\t1000\tlegacy_async_global_slice\n");
	free(tsv);
	assert_int_equal(tt_test_stat(tr, "json_parser_failure"), 3);
	tt_test_close_text(tr, p);
}

static void gzip_same_as_plain(void **state)
{
	const char *text = "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"z\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2}]}";
	char *path = tt_test_write_tmp("", 0, ".json.gz");
	gzFile gz = gzopen(path, "wb");
	tt_trace *tr;

	(void)state;
	assert_non_null(gz);
	assert_int_equal(gzwrite(gz, text, (unsigned)strlen(text)), (int)strlen(text));
	gzclose(gz);
	tr = tt_test_open(path);
	assert_string_equal(tt_test_str(tr, "select name || ':' || ts || ':' || dur from slice"), "z:1000:2000");
	tt_test_close_text(tr, path);
}

/* A zstd file is read as its text; corrupt or cut zstd data is an error
 * that says so. */
static void zstd_same_as_plain(void **state)
{
	const char *text = "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"z\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2}]}";
	unsigned char z[256];
	size_t zn = ZSTD_compress(z, sizeof(z), text, strlen(text), 19);
	char *path;
	tt_trace *tr;
	tt_err err = { 0 };

	(void)state;
	assert_false(ZSTD_isError(zn));
	path = tt_test_write_tmp(z, zn, ".json.zst");
	tr = tt_test_open(path);
	assert_string_equal(tt_test_str(tr, "select name || ':' || ts || ':' || dur from slice"), "z:1000:2000");
	/* trace processor's trace_type and trace_size_bytes: the text's */
	assert_string_equal(tt_test_str(tr, "select str_value from metadata where name = 'trace_type'"), "json");
	assert_int_equal(tt_test_int(tr, "select int_value from metadata where name = 'trace_size_bytes'"),
			 (int64_t)strlen(text));
	{
		/* no uuid in a JSON trace: trace processor's, FNV-1a 64 of the
		 * file's first 4 KiB as read (here the zstd bytes) */
		uint64_t h = 0xcbf29ce484222325ull;
		char want[40];

		for (size_t i = 0; i < zn; i++)
			h = (h ^ z[i]) * 0x100000001b3ull;
		snprintf(want, sizeof(want), "00000000-0000-0000-%04llx-%012llx", (unsigned long long)(h >> 48),
			 (unsigned long long)(h & 0xffffffffffffull));
		assert_string_equal(tt_test_str(tr, "select str_value from metadata where name = 'trace_uuid'"), want);
	}
	tt_test_close_text(tr, path);

	path = tt_test_write_tmp(z, zn - 4, ".json.zst"); /* the frame cut short */
	assert_null(tt_trace_open(path, NULL, &err));
	assert_non_null(strstr(err.msg, "zstd data is truncated"));
	unlink(path);
	free(path);

	memset(z + 8, 0xa5, zn - 12); /* the blocks garbled, the header kept */
	path = tt_test_write_tmp(z, zn, ".json.zst");
	memset(&err, 0, sizeof(err));
	assert_null(tt_trace_open(path, NULL, &err));
	assert_non_null(strstr(err.msg, "corrupt zstd data"));
	unlink(path);
	free(path);
}

static void truncated_keeps_prefix(void **state)
{
	/* cut inside the 3rd event: the first two are kept */
	const char *text = "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"one\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},"
			   "{\"ph\":\"X\",\"name\":\"two\",\"pid\":1,\"tid\":1,\"ts\":3,\"dur\":1},"
			   "{\"ph\":\"X\",\"name\":\"thr";
	char *p;
	tt_trace *tr = tt_test_open_json(text, &p);

	(void)state;
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 2);
	assert_int_equal(tt_test_stat(tr, "json_truncated"), 1);
	{
		char want[128];

		snprintf(want, sizeof(want), "json text ends inside the event array at byte %zu", strlen(text));
		assert_string_equal(tt_test_str(tr, "select str_value from metadata where name = 'import_warning'"), want);
	}
	tt_test_close_text(tr, p);
}

/* trace processor reserves utid 0 for the idle thread in every trace: it
 * is the one is_idle row, and a JSON trace's own tid 0 is another row */
static void idle_row_reserved(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json("[{\"ph\":\"X\",\"name\":\"a\",\"pid\":0,\"tid\":0,\"ts\":1,\"dur\":2}]", &p);

	(void)state;
	tt_test_assert_tsv(tr, "select utid, tid, is_idle, is_main_thread from thread order by utid",
			   "0\t0\t1\t1\n1\t0\t0\t1\n");
	tt_test_close_text(tr, p);
}

static void bad_inputs(void **state)
{
	static const struct { const char *text, *expect; } cases[] = {
		{ "{\"traceEvents\": [ nonsense ]}", "not valid JSON at byte" },
		{ "{\"foo\": 1}", "JSON but not a trace" },
		{ "{\"traceEvents\"", "JSON text ends early" },
		{ "{\"traceEvents\": 5}", "JSON but not a trace" },
		{ "hello", "unknown format" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *p = tt_test_write_tmp(cases[i].text, strlen(cases[i].text), ".json");
		tt_err err = { 0 };
		tt_trace *tr = tt_trace_open(p, NULL, &err);

		assert_null(tr);
		assert_int_not_equal(err.code, TT_OK);
		if (!strstr(err.msg, cases[i].expect))
			fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, cases[i].expect);
		assert_non_null(strstr(err.msg, p)); /* names the file */
		unlink(p);
		free(p);
	}
}

static void empty_trace_events(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json("{\"traceEvents\": []}", &p);

	(void)state;
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 0);
	/* only the reserved idle thread */
	assert_int_equal(tt_test_int(tr, "select count(*) from thread"), 1);
	tt_test_close_text(tr, p);
}

/* Regression (found by the metrics work): 0x0A is a newline and
 * Trace.packet's tag; a packet whose length byte is '[' (91) or '{' (123)
 * was read as JSON. */
static void sniff_newline_json_vs_proto(void **state)
{
	unsigned char pkt[93];
	char *p;
	tt_trace *tr;
	tt_err err = { 0 };

	(void)state;
	tr = tt_test_open_json("\n\n[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}]", &p);
	assert_string_equal(tt_trace_format(tr), "chrome-json");
	tt_test_close_text(tr, p);

	/* 0x0A, length 91 ('['), then timestamp = 1 and an ignored field 33 */
	memset(pkt, 'x', sizeof(pkt));
	pkt[0] = 0x0a;
	pkt[1] = 91;
	pkt[2] = 0x40; /* field 8, varint */
	pkt[3] = 0x01;
	pkt[4] = 0x8a; /* field 33, length-delimited */
	pkt[5] = 0x02;
	pkt[6] = 86;
	p = tt_test_write_tmp(pkt, sizeof(pkt), ".pftrace");
	tr = tt_trace_open(p, NULL, &err);
	if (tr) {
		assert_string_equal(tt_trace_format(tr), "perfetto-proto");
		tt_trace_close(tr);
	} else {
		assert_null(strstr(err.msg, "JSON"));
	}
	unlink(p);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(real_chromium_tiny),
		cmocka_unit_test(real_uftrace),
		cmocka_unit_test(nested_be_two_threads),
		cmocka_unit_test(complete_unsorted_children),
		cmocka_unit_test(complete_same_ts_shorter_first),
		cmocka_unit_test(counters_several_series),
		cmocka_unit_test(async_and_instants),
		cmocka_unit_test(async_track_grouping),
		cmocka_unit_test(thread_state_events),
		cmocka_unit_test(trailing_commas),
		cmocka_unit_test(raw_control_characters),
		cmocka_unit_test(trailing_comma_across_reads),
		cmocka_unit_test(strings_across_reads),
		cmocka_unit_test(overlapping_complete_spilled),
		cmocka_unit_test(sort_index_hints),
		cmocka_unit_test(flows_v1_and_v2),
		cmocka_unit_test(flow_stats_as_trace_processor),
		cmocka_unit_test(threads_in_parser_order),
		cmocka_unit_test(instant_thread_time),
		cmocka_unit_test(bad_time_fields),
		cmocka_unit_test(tokenizer_failure_logs),
		cmocka_unit_test(ids_as_trace_processor),
		cmocka_unit_test(instants_stack),
		cmocka_unit_test(metadata_and_ids),
		cmocka_unit_test(unfinished_and_unmatched),
		cmocka_unit_test(end_matches_name_and_category),
		cmocka_unit_test(top_level_metadata),
		cmocka_unit_test(async_id2_keys),
		cmocka_unit_test(gzip_same_as_plain),
		cmocka_unit_test(zstd_same_as_plain),
		cmocka_unit_test(truncated_keeps_prefix),
		cmocka_unit_test(idle_row_reserved),
		cmocka_unit_test(bad_inputs),
		cmocka_unit_test(empty_trace_events),
		cmocka_unit_test(sniff_newline_json_vs_proto),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
