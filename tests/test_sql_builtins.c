/*
 * test_sql_builtins.c - Perfetto's core functions and tables
 * (core/sql/builtins.h) on a small JSON trace this test writes, against
 * results worked out by hand:
 *
 *   tid 1: A [0,100) > B [10,60) > C [20,30); A > D [70,90); E [200,210);
 *          G, an instant at 210 (E's end: not E's child)
 *   tid 2: F [40,90)
 *   flows: C -> F, F -> D        A's args: args.{k, n, r, nested.{x,y}, arr[0..1]}
 *
 * (times in us in the JSON, ns in SQL). Span joins run on tables the
 * tests create in SQL. Plans are checked with EXPLAIN QUERY PLAN.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "testutil.h"

static const char trace_json[] =
	"{\"traceEvents\":[\n"
	"{\"ph\":\"X\",\"name\":\"A\",\"cat\":\"c1\",\"ts\":0,\"dur\":100,\"pid\":1,\"tid\":1,"
	"\"args\":{\"k\":\"v\",\"n\":42,\"r\":1.5,\"nested\":{\"x\":1,\"y\":\"z\"},\"arr\":[1,2]}},\n"
	"{\"ph\":\"X\",\"name\":\"B\",\"ts\":10,\"dur\":50,\"pid\":1,\"tid\":1},\n"
	"{\"ph\":\"X\",\"name\":\"C\",\"ts\":20,\"dur\":10,\"pid\":1,\"tid\":1},\n"
	"{\"ph\":\"s\",\"name\":\"fl\",\"cat\":\"c\",\"id\":7,\"ts\":25,\"pid\":1,\"tid\":1},\n"
	"{\"ph\":\"X\",\"name\":\"F\",\"cat\":\"c2\",\"ts\":40,\"dur\":50,\"pid\":1,\"tid\":2},\n"
	"{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"fl\",\"cat\":\"c\",\"id\":7,\"ts\":45,\"pid\":1,\"tid\":2},\n"
	"{\"ph\":\"s\",\"name\":\"fl\",\"cat\":\"c\",\"id\":8,\"ts\":46,\"pid\":1,\"tid\":2},\n"
	"{\"ph\":\"X\",\"name\":\"D\",\"ts\":70,\"dur\":20,\"pid\":1,\"tid\":1},\n"
	"{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"fl\",\"cat\":\"c\",\"id\":8,\"ts\":75,\"pid\":1,\"tid\":1},\n"
	"{\"ph\":\"X\",\"name\":\"E\",\"ts\":200,\"dur\":10,\"pid\":1,\"tid\":1},\n"
	"{\"ph\":\"X\",\"name\":\"G\",\"ts\":210,\"dur\":0,\"pid\":1,\"tid\":1}\n"
	"]}\n";

static char *trace_path;

static int setup(void **state)
{
	trace_path = tt_test_write_tmp(trace_json, sizeof(trace_json) - 1, ".json");
	*state = tt_test_open(trace_path);
	return 0;
}

static int teardown(void **state)
{
	tt_trace_close(*state);
	tt_test_rm(trace_path);
	return 0;
}

static void expect(tt_trace *tr, const char *sql, const char *want)
{
	char *got = tt_test_tsv(tr, sql);

	if (strcmp(got, want) != 0)
		fail_msg("[%s]\n got: [%s]\nwant: [%s]", sql, got, want);
	free(got);
}

static void expect_error(tt_trace *tr, const char *sql, const char *want)
{
	tt_result r;
	tt_err err = { 0 };

	if (tt_query_collect(tr, sql, 0, &r, &err) == TT_OK) {
		tt_result_free(&r);
		fail_msg("[%s] did not fail", sql);
	}
	if (!strstr(err.msg, want))
		fail_msg("[%s]: error [%s] lacks [%s]", sql, err.msg, want);
	tt_err_clear(&err);
}

/* The plan line for `alias` contains "INDEX <idx>:". */
static void assert_plan(tt_trace *tr, const char *sql, const char *alias, int idx)
{
	char q[1024], want[64];
	char *tsv;

	snprintf(q, sizeof(q), "explain query plan %s", sql);
	tsv = tt_test_tsv(tr, q);
	snprintf(want, sizeof(want), "SCAN %s VIRTUAL TABLE INDEX %d:", alias, idx);
	if (!strstr(tsv, want))
		fail_msg("plan of [%s] lacks [%s]:\n%s", sql, want, tsv);
	free(tsv);
}

#define ID(n) "(select id from slice where name = '" n "')"

static void ancestor_and_descendant(void **state)
{
	tt_trace *tr = *state;

	expect(tr, "select name, depth from ancestor_slice(" ID("C") ")", "A\t0\nB\t1\n");
	expect(tr, "select count(*) from ancestor_slice(" ID("A") ")", "0\n");
	expect(tr, "select name from descendant_slice(" ID("A") ")", "B\nC\nD\n");
	expect(tr, "select name from descendant_slice(" ID("B") ")", "C\n");
	/* G starts at E's end: a neighbour, not a child */
	expect(tr, "select count(*) from descendant_slice(" ID("E") ")", "0\n");
	expect(tr, "select count(*) from descendant_slice(NULL)", "0\n");
	/* as a join, the way Perfetto's docs use them */
	expect(tr, "select s.name, group_concat(a.name, '>') from slice s join ancestor_slice(s.id) a"
		   " group by s.id order by s.id", "B\tA\nC\tA>B\nD\tA\n");
	expect(tr, "select s.name, count(d.id) from slice s left join descendant_slice(s.id) d"
		   " group by s.id order by s.id", "A\t3\nB\t1\nC\t0\nF\t0\nD\t0\nE\t0\nG\t0\n");
	/* the hidden input column reads back */
	expect(tr, "select distinct start_id = " ID("C") " from ancestor_slice(" ID("C") ")", "1\n");
	expect_error(tr, "select * from ancestor_slice(99)", "no row with id 99");
	expect_error(tr, "select * from descendant_slice('x')", "start id should be an integer");
	assert_plan(tr, "select * from ancestor_slice(2)", "ancestor_slice", 1);
	assert_plan(tr, "select * from slice s join descendant_slice(s.id) d", "d", 1);
}

static void by_stack(void **state)
{
	tt_trace *tr = *state;
	/* the stack id of C: hash of the '|'-joined hashes of "cat|name" of C
	 * itself, then of its ancestors A, B from the root */
	const char *stack_c = "(select hash(hash('|C') || '|' || hash('c1|A') || '|' || hash('|B')))";
	char q[512];

	/* the slices of the stack with their ancestors, each once, by ts */
	snprintf(q, sizeof(q), "select group_concat(name, ' ') from ancestor_slice_by_stack(%s)", stack_c);
	expect(tr, q, "A B C\n");
	snprintf(q, sizeof(q), "select group_concat(name, ' ') from descendant_slice_by_stack(%s)",
		 "hash(hash('c1|A') || '')");
	expect(tr, q, "A B C D\n");
	/* E and G are both roots named by their own "|name" */
	expect(tr, "select group_concat(name, ' ') from descendant_slice_by_stack(hash(hash('|E') || ''))", "E\n");
	expect(tr, "select count(*) from ancestor_slice_by_stack(12345)", "0\n");
}

static void flow_case(tt_trace *tr, const char *fn, const char *slice, const char *want)
{
	char q[512];

	snprintf(q, sizeof(q), "select group_concat(o.name || '>' || i.name, ' ') from %s(" ID("%s") ") f"
		 " join slice o on o.id = f.slice_out join slice i on i.id = f.slice_in", fn, slice);
	expect(tr, q, want);
}

static void connected_flows(void **state)
{
	tt_trace *tr = *state;

	/* F: in from C, out to D; C and D are not followed further */
	flow_case(tr, "directly_connected_flow", "F", "C>F F>D\n");
	flow_case(tr, "directly_connected_flow", "B", "NULL\n");
	/* following: C's out-flow to F, then F's to D */
	flow_case(tr, "following_flow", "C", "C>F F>D\n");
	/* ... and from A through its descendant C */
	flow_case(tr, "following_flow", "A", "C>F F>D\n");
	flow_case(tr, "following_flow", "D", "NULL\n");
	/* preceding: D's in-flow from F, then F's from C */
	flow_case(tr, "preceding_flow", "D", "F>D C>F\n");
	flow_case(tr, "preceding_flow", "C", "NULL\n");
	/* for every slice in one query (the walk's marks are reset per call):
	 * following A 2, B 2, C 2, F 1; preceding F 1, D 2 */
	expect(tr, "select (select count(*) from slice s join following_flow(s.id)),"
		   " (select count(*) from slice s join preceding_flow(s.id)),"
		   " (select count(*) from slice s join directly_connected_flow(s.id))", "7\t3\t6\n");
	expect_error(tr, "select * from following_flow(1000)", "invalid slice id 1000");
	assert_plan(tr, "select * from preceding_flow(1)", "preceding_flow", 1);
}

static void slice_layout(void **state)
{
	tt_trace *tr = *state;

	/* boxes: A's stack [0,100) 3 rows high goes first (tallest) on rows
	 * 0-2; F [40,90) overlaps it: row 3; E and the instant G after: row 0 */
	expect(tr, "select group_concat(name || layout_depth, ' ') from experimental_slice_layout("
		   "(select group_concat(id) from thread_track))", "A0 B1 C2 F3 D1 E0 G0\n");
	/* one track: its own depths; unknown ids are ignored */
	expect(tr, "select group_concat(name || layout_depth, ' ') from experimental_slice_layout("
		   "(select track_id || ',99,x' from slice where name = 'F'))", "F0\n");
	expect(tr, "select count(*) from experimental_slice_layout('')", "0\n");
	expect(tr, "select distinct filter_track_ids from experimental_slice_layout('0')", "0\n");
	expect_error(tr, "select * from experimental_slice_layout(3)", "invalid input track id list");
	assert_plan(tr, "select * from experimental_slice_layout('1,2')", "experimental_slice_layout", 1);
}

static void args_functions(void **state)
{
	tt_trace *tr = *state;

	/* JSON args are keyed args.<path>, as trace processor has them */

	expect(tr, "select extract_arg(arg_set_id, 'args.k'), extract_arg(arg_set_id, 'args.n'),"
		   " extract_arg(arg_set_id, 'args.r'), extract_arg(arg_set_id, 'args.nested.y'),"
		   " extract_arg(arg_set_id, 'args.arr[1]'), extract_arg(arg_set_id, 'args.nope') is null"
		   " from slice where name = 'A'", "v\t42\t1.5\tz\t2\t1\n");
	expect(tr, "select extract_arg(arg_set_id, 'args.k') is null from slice where name = 'B'", "1\n");
	expect(tr, "select typeof(extract_arg(arg_set_id, 'args.n')), typeof(extract_arg(arg_set_id, 'args.r'))"
		   " from slice where name = 'A'", "integer\treal\n");
	expect(tr, "select __intrinsic_arg_set_to_json(arg_set_id) from slice where name = 'A'",
	       "{\"args\":{\"k\":\"v\",\"n\":42,\"r\":1.5,\"nested\":{\"x\":1,\"y\":\"z\"},\"arr\":[1,2]}}\n");
	expect(tr, "select __intrinsic_arg_set_to_json(NULL) is null", "1\n");
	expect_error(tr, "select extract_arg('x', 'k')", "1st argument should be arg set id");
}

static void string_functions(void **state)
{
	tt_trace *tr = *state;

	/* FNV-1a 64 of "a"; of the 8 little-endian bytes of 1 then "x" */
	expect(tr, "select hash('a'), hash(1, 'x')", "-5808556873153909620\t5952180755994350292\n");
	expect_error(tr, "select hash(1.5)", "HASH: arg 0 has unknown type");
	expect(tr, "select str_split('a,b,c', ',', 0), str_split('a,b,c', ',', 2),"
		   " str_split('a,b,c', ',', 3) is null, str_split('a::b', '::', 1)", "a\tc\t1\tb\n");
	expect(tr, "select unhex('0x1F'), unhex(' ff '), unhex('0'), unhex(null) is null", "31\t255\t0\t1\n");
	expect_error(tr, "select unhex('xyz')", "UNHEX");
	expect(tr, "select regexp('^a.c$', 'abc'), 'ABC' regexp 'b', regexp('b', 'ABC', 'i'),"
		   " regexp('b', 'ABC', 'ic'), regexp('b', 'ABC', 'ci')", "1\t0\t1\t0\t1\n");
	expect_error(tr, "select regexp('a', 'a', 'x')", "unknown flag 'x'");
	/* a pattern whose repeats regcomp would copy past memory is an
	 * error (regex_guard.c); back-references stay, as in trace
	 * processor */
	expect_error(tr, "select regexp('ba++++++++++++++++++++++++++++++++++++++++', 'b')",
		     "++': too big (its repeats would copy its parts past 20,000)");
	expect(tr, "select regexp('^(ab)\\1$', 'abab'), regexp('^(ab)\\1$', 'abba')", "1\t0\n");
	expect(tr, "select regexp_extract('id=42;', 'id=([0-9]+)'), regexp_extract('xyz', '[y]+'),"
		   " regexp_extract('abc', 'q') is null", "42\ty\t1\n");
	expect_error(tr, "select regexp_extract('ab', '(a)(b)')", "more than one group");
	expect(tr, "select regexp_replace_simple('a1b22c', '[0-9]+', '#'),"
		   " regexp_replace_simple('ab', 'x*', '-')", "a#b#c\t-a-b-\n");
	{
		/* __intrinsic_zstd_compress: the frame libzstd makes at level 9,
		 * byte for byte, for text and blobs alike */
		static const char text[] = "termtrace termtrace termtrace trace";
		unsigned char z[128];
		char want[2 * sizeof(z) + 2], *w = want;
		size_t zn = ZSTD_compress(z, sizeof(z), text, sizeof(text) - 1, 9);

		assert_false(ZSTD_isError(zn));
		for (size_t i = 0; i < zn; i++)
			w += sprintf(w, "%02X", z[i]);
		strcpy(w, "\n");
		expect(tr, "select hex(__intrinsic_zstd_compress('termtrace termtrace termtrace trace'))", want);
		expect(tr, "select hex(__intrinsic_zstd_compress(cast('termtrace termtrace termtrace trace' as blob)))",
		       want);
		expect(tr, "select __intrinsic_zstd_compress(null) is null, hex(substr(__intrinsic_zstd_compress(''), 1, 4))",
		       "1\t28B52FFD\n");
		expect_error(tr, "select __intrinsic_zstd_compress(7)", "ZSTD: argument must be a string or blob");
	}
}

static void time_and_slice_functions(void **state)
{
	tt_trace *tr = *state;

	expect(tr, "select to_timecode(0), to_timecode(3723004005006)",
	       "00:00:00 000 000 000\t01:02:03 004 005 006\n");
	/* time_from_* come with the time.conversion module, as in Perfetto */
	expect_error(tr, "select time_from_s(2)", "no such function: time_from_s");
	/* no clock snapshots in a JSON trace: NULL, as Perfetto */
	expect(tr, "select abs_time_str(10) is null, to_realtime(10) is null, to_monotonic(10) is null",
	       "1\t1\t1\n");
	expect(tr, "select slice_is_ancestor(" ID("A") ", " ID("C") "), slice_is_ancestor(" ID("C") ", " ID("A")
		   "), slice_is_ancestor(" ID("F") ", " ID("C") ")", "1\t0\t0\n");
}

static void window_functions(void **state)
{
	tt_trace *tr = *state;

	expect(tr, "create table lnn(id int, p text, v int);"
		   " insert into lnn values (1,'x',10),(2,'x',null),(3,'x',null),(4,'y',null),(5,'y',7),(6,'y',null);"
		   " select group_concat(ifnull(w, '-'), ',') from (select last_non_null(v) over"
		   " (partition by p order by id) w from lnn order by id)", "10,10,10,-,7,7\n");
	/* a frame of 2 rows: the value leaves the window with its row */
	expect(tr, "select group_concat(ifnull(w, '-'), ',') from (select last_non_null(v) over"
		   " (order by id rows between 1 preceding and current row) w from lnn order by id)",
	       "10,10,-,-,7,7\n");
	/* depths by hand: [0,10) 0; [2,5) 1; [5,15) 1; [11,12) 0; instant 12 0; 12.. (-1) 0 */
	expect(tr, "create table lay(ts int, dur int);"
		   " insert into lay values (0,10),(2,3),(5,10),(11,1),(12,0),(12,-1);"
		   " select group_concat(d, ',') from (select internal_layout(ts, dur) over (order by ts"
		   " rows between unbounded preceding and current row) d from lay order by ts)",
	       "0,1,1,0,0,0\n");
	expect_error(tr, "select internal_layout(ts, dur) over (order by ts rows between 1 preceding"
			 " and current row) from lay", "INTERNAL_LAYOUT");
}

static void views(void **state)
{
	tt_trace *tr = *state;

	expect(tr, "select count(*) = (select count(*) from counter) from counters", "1\n");
	expect(tr, "select count(*) from cpu", "0\n");
}

/* ---- span joins ---------------------------------------------------------------- */

static void span_tables(tt_trace *tr)
{
	expect(tr, "drop table if exists t1; drop table if exists t2; drop table if exists t3;"
		   " drop table if exists empty;"
		   " create table t1(ts int, dur int, part int, a text);"
		   " insert into t1 values (0,10,1,'a1'),(20,10,1,'a2'),(0,5,2,'a3');"
		   " create table t2(ts int, dur int, part int, b text);"
		   " insert into t2 values (5,20,1,'b1'),(0,5,3,'b2');"
		   " create table t3(ts int, dur int, c text);"
		   " insert into t3 values (0,100,'c1');"
		   " create table empty(ts int, dur int, part int, e text);"
		   " select 1", "1\n");
}

static void span_join_inner(void **state)
{
	tt_trace *tr = *state;

	span_tables(tr);
	expect(tr, "create virtual table sj using span_join(t1 partitioned part, t2 partitioned part);"
		   " select * from sj", "5\t5\t1\ta1\tb1\n20\t5\t1\ta2\tb1\n");
	/* the declared columns: ts, dur, partition, then each side's others */
	expect(tr, "select group_concat(name, ',') from pragma_table_info('sj')", "ts,dur,part,a,b\n");
	/* unpartitioned side against every partition of the other */
	expect(tr, "create virtual table sjm using span_join(t1 partitioned part, t3);"
		   " select ts, dur, part, a, c from sjm", "0\t10\t1\ta1\tc1\n20\t10\t1\ta2\tc1\n0\t5\t2\ta3\tc1\n");
	/* no partitions at all: intervals meet across parts */
	expect(tr, "create virtual table sjn using span_join(t1, t3); select count(*), sum(dur) from sjn",
	       "3\t25\n");
	/* an empty side: nothing */
	expect(tr, "create virtual table sje using span_join(t1 partitioned part, empty partitioned part);"
		   " select count(*) from sje", "0\n");
}

static void span_join_left_outer(void **state)
{
	tt_trace *tr = *state;

	span_tables(tr);
	expect(tr, "create virtual table sl using span_left_join(t1 partitioned part, t2 partitioned part);"
		   " select ts, dur, part, a, ifnull(b, '-') from sl",
	       "0\t5\t1\ta1\t-\n5\t5\t1\ta1\tb1\n20\t5\t1\ta2\tb1\n25\t5\t1\ta2\t-\n0\t5\t2\ta3\t-\n");
	expect(tr, "create virtual table so using span_outer_join(t1 partitioned part, t2 partitioned part);"
		   " select ts, dur, part, ifnull(a, '-'), ifnull(b, '-') from so",
	       "0\t5\t1\ta1\t-\n5\t5\t1\ta1\tb1\n10\t10\t1\t-\tb1\n20\t5\t1\ta2\tb1\n25\t5\t1\ta2\t-\n"
	       "0\t5\t2\ta3\t-\n0\t5\t3\t-\tb2\n");
	/* left join with an empty right side keeps the left side whole */
	expect(tr, "create virtual table sle using span_left_join(t1 partitioned part, empty partitioned part);"
		   " select ts, dur, part, a, e is null from sle",
	       "0\t10\t1\ta1\t1\n20\t10\t1\ta2\t1\n0\t5\t2\ta3\t1\n");
	/* outer join with an empty side is the other side */
	expect(tr, "create virtual table soe using span_outer_join(empty partitioned part, t2 partitioned part);"
		   " select ts, dur, part, b from soe", "5\t20\t1\tb1\n0\t5\t3\tb2\n");
}

static void span_join_edges(void **state)
{
	tt_trace *tr = *state;

	/* touching intervals split at the boundary; dur -1 counts as an instant */
	expect(tr, "create table x1(ts int, dur int); insert into x1 values (0,10),(10,10),(50,-1);"
		   " create table x2(ts int, dur int, v int); insert into x2 values (0,100,7);"
		   " create virtual table sx using span_join(x1, x2); select ts, dur, v from sx",
	       "0\t10\t7\n10\t10\t7\n50\t-1\t7\n");
	/* rows with a NULL partition are skipped */
	expect(tr, "create table n1(ts int, dur int, p int); insert into n1 values (0,10,null),(0,10,4);"
		   " create table n2(ts int, dur int, p int); insert into n2 values (0,10,4),(0,10,null);"
		   " create virtual table sn using span_join(n1 partitioned p, n2 partitioned p);"
		   " select * from sn", "0\t10\t4\n");
	/* a side that is a view, unsorted input */
	expect(tr, "create table u(ts int, dur int, cpu int, w int);"
		   " insert into u values (30,10,0,3),(0,10,0,1),(10,10,1,2);"
		   " create view uv as select ts, dur, cpu, w * 10 as w10 from u;"
		   " create virtual table su using span_join(u partitioned cpu, uv partitioned cpu);"
		   " select ts, cpu, w, w10 from su", "0\t0\t1\t10\n30\t0\t3\t30\n10\t1\t2\t20\n");
	span_tables(tr);
	expect_error(tr, "create virtual table bad1 using span_join(t1 partitioned part, t1 partitioned part)",
		     "SPAN_JOIN: column a present in both tables t1 and t1");
	expect_error(tr, "create virtual table bad2 using span_join(t1 partitioned part, t2 partitioned b)",
		     "mismatching partitions");
	expect_error(tr, "create table nots(x int, dur int);"
			 " create virtual table bad3 using span_join(t1, nots)", "Missing ts column in table nots");
	expect_error(tr, "create virtual table bad4 using span_join(t1 partitioned nope, t2 partitioned nope)",
		     "Missing partition column 'nope'");
	expect_error(tr, "create virtual table bad5 using span_join(t1 partitioned ts, t2 partitioned ts)",
		     "partition column cannot be any of {ts, dur}");
	expect_error(tr, "create virtual table bad6 using span_join(t1)", "expected exactly two arguments");
	expect_error(tr, "create virtual table bad7 using span_join(t1 by part, t2)", "Invalid token");
}

static void span_join_plans(void **state)
{
	tt_trace *tr = *state;

	span_tables(tr);
	expect(tr, "create virtual table pj using span_join(t1 partitioned part, t2 partitioned part);"
		   " create virtual table po using span_outer_join(t1 partitioned part, t2 partitioned part);"
		   " select 1", "1\n");
	assert_plan(tr, "select * from pj", "pj", 0);
	assert_plan(tr, "select * from pj where part = 1", "pj", 1);
	assert_plan(tr, "select * from pj where ts <= 10", "pj", 2);
	assert_plan(tr, "select * from pj where part = 1 and ts < 10", "pj", 3);
	/* both sides keep shadows in an outer join: ts is not pushed */
	assert_plan(tr, "select * from po where ts <= 10", "po", 0);
	/* the pushed-down plans give the rows a full scan gives */
	expect(tr, "select * from pj where part = 1 and ts <= 5", "5\t5\t1\ta1\tb1\n");
	expect(tr, "select count(*) from po where part = 3", "1\n");
	expect(tr, "select ts, dur from po where part = 1 and ts < 10", "0\t5\n5\t5\n");
	/* ORDER BY partition, ts is consumed: no sorter in the plan */
	{
		char *p = tt_test_tsv(tr, "explain query plan select * from pj order by part, ts");

		assert_null(strstr(p, "ORDER BY"));
		free(p);
	}
}

static void interval_helpers(void **state)
{
	tt_trace *tr = *state;

	/* by hand: u=1: a1 [0,10) meets b10 [5,25) on [5,10) and b11 [8,9);
	 * a2 [20,30) meets b10 on [20,25); u=2: a3 [0,100) meets b12 [50,60);
	 * b13 is alone in u=3; the instant b14 meets nothing */
	expect(tr, "create table ia(id int, ts int, dur int, u int);"
		   " insert into ia values (1,0,10,1),(2,20,10,1),(3,0,100,2);"
		   " create table ib(id int, ts int, dur int, u int);"
		   " insert into ib values (10,5,20,1),(11,8,1,1),(12,50,10,2),(13,0,5,3),(14,3,0,1);"
		   " select ts, dur, id_0, id_1, part from __intrinsic_interval_intersect('ia', 'ib', 'u')",
	       "5\t5\t1\t10\t1\n8\t1\t1\t11\t1\n20\t5\t2\t10\t1\n50\t10\t3\t12\t2\n");
	/* without a partition, and with a subquery as input: b13 [0,5) now meets a1 and a3 */
	expect(tr, "select group_concat(id_0 || '-' || id_1 || ':' || ts || '+' || dur, ' ') from"
		   " (select * from __intrinsic_interval_intersect('ia', '(select id, ts, dur from ib where id = 13)')"
		   " order by id_0)", "1-13:0+5 3-13:0+5\n");
	expect_error(tr, "select * from __intrinsic_interval_intersect('nope', 'ib')", "no such table: nope");
	assert_plan(tr, "select * from __intrinsic_interval_intersect('ia', 'ib', 'u')",
		    "__intrinsic_interval_intersect", 7);
	/* counter intervals: a run of 5s keeps its first two rows and its last */
	expect(tr, "create table ic(id int, ts int, track_id int, value real);"
		   " insert into ic values (1,0,1,5),(2,10,1,5),(3,20,1,5),(4,30,1,5),(5,40,1,7),(7,0,2,1),(8,5,2,3);"
		   " select group_concat(id || '@' || ts || '+' || dur || '=' || value || '>' || ifnull(next_value, '-')"
		   " || 'd' || ifnull(delta_value, '-'), ' ')"
		   " from __intrinsic_counter_intervals('leading', 100, 'ic')",
	       "1@0+10=5.0>5.0d- 2@10+20=5.0>5.0d0.0 4@30+10=5.0>7.0d0.0 5@40+60=7.0>-d2.0"
	       " 7@0+5=1.0>3.0d- 8@5+95=3.0>-d2.0\n");
	expect_error(tr, "select * from __intrinsic_counter_intervals('lagging', 100, 'ic')", "must be 'leading'");
}

/* One source for the flamegraph tests; worked by hand:
 *   root(2) > f(3) > h(5);  root > g(1) > f(4);  root > f(1)  (merges with f(3)) */
static void fg_source(tt_trace *tr)
{
	expect(tr, "drop table if exists fgsrc; drop table if exists fg;"
		   " create table fgsrc(id int, parent_id int, name text, value int, lib text, w int);"
		   " insert into fgsrc values (1,null,'root',2,'a',10),(2,1,'f',3,'x',20),(3,1,'g',1,'a',30),"
		   " (4,2,'h',5,'a',40),(5,3,'f',4,'x',50),(6,1,'f',1,'y',60);"
		   " create virtual table fg using __intrinsic_flamegraph((select * from fgsrc));"
		   " select 1", "1\n");
}

#define FG_ROWS "select group_concat(name || depth || ':' || self_value || '/' || cumulative_value" \
		" || '@' || x_start, ' ') from fg(__intrinsic_flamegraph_config('value', 'value', "

static void flamegraph_views(void **state)
{
	tt_trace *tr = *state;

	fg_source(tr);
	/* breadth first, siblings widest first, children packed in the parent */
	expect(tr, "select group_concat(name || depth || ':' || self_value || '/' || cumulative_value || '/'"
		   " || ifnull(parent_cumulative_value, '-') || '@' || x_start || '-' || x_end, ' ')"
		   " from fg(__intrinsic_flamegraph_config('value', 'value', 'view', 'TOP_DOWN'))",
	       "root1:2/16/-@0-16 f2:4/9/16@0-9 g2:1/5/16@9-14 h3:5/5/9@0-5 f3:4/4/5@9-13\n");
	/* each frame with a value up to its root: f's three rows share f@-1 */
	expect(tr, FG_ROWS "'view', 'BOTTOM_UP'))",
	       "f-1:8/8@0 h-1:5/5@8 root-1:2/2@13 g-1:1/1@15 root-2:0/4@0 g-2:0/4@4 f-2:0/5@8"
	       " root-2:0/1@15 root-3:0/4@4 root-3:0/5@8\n");
	/* pivot on f: its merged subtree below, its callers above */
	expect(tr, FG_ROWS "'view', 'PIVOT', 'view_pattern', '^f$', ''))",
	       "f1:8/13@0 f-1:13/13@0 h2:5/5@0 root-2:0/9@0 g-2:0/4@9 root-3:0/4@9\n");
	expect(tr, FG_ROWS "'view', 'FROM_FRAME', 'view_pattern', 'G', 'i'))", "g1:1/5@0 f2:4/4@0\n");
	/* the ids of the layout */
	expect(tr, "select group_concat(_tree_id || '<' || ifnull(_tree_parent_id, '-'), ' ')"
		   " from fg(__intrinsic_flamegraph_config('value', 'value'))", "0<- 1<0 2<0 3<1 4<2\n");
	/* the super root: the sum of all values */
	expect(tr, "select depth, cumulative_value, name is null from fg(__intrinsic_flamegraph_config('value',"
		   " 'value')) where __intrinsic_flamegraph_find(_tree_id, 'SUPER_ROOT')", "0\t16.0\t1\n");
	assert_plan(tr, "select * from fg(__intrinsic_flamegraph_config('value', 'value'))", "fg", 0);
	assert_plan(tr, "select * from fg(__intrinsic_flamegraph_config('value', 'value'))"
		    " where __intrinsic_flamegraph_find(_tree_id, 'SUPER_ROOT')", "fg", 1);
}

static void flamegraph_filters(void **state)
{
	tt_trace *tr = *state;

	fg_source(tr);
	/* g folds into root: its value and its child f go to root */
	expect(tr, FG_ROWS "'filter', 'HIDE_FRAME', '^g$', ''))", "root1:3/16@0 f2:8/13@0 h3:5/5@0\n");
	/* only h's stack counts; nodes left at 0 are dropped */
	expect(tr, FG_ROWS "'filter', 'SHOW_STACK', 'h', ''))", "root1:0/5@0 f2:0/5@0 h3:5/5@0\n");
	expect(tr, FG_ROWS "'filter', 'HIDE_STACK', '^g$', ''))", "root1:2/11@0 f2:4/9@0 h3:5/5@0\n");
	/* two SHOW_STACK filters: both must match on the path */
	expect(tr, FG_ROWS "'filter', 'SHOW_STACK', 'g', '', 'filter', 'SHOW_STACK', 'f', ''))",
	       "root1:0/4@0 g2:0/4@0 f3:4/4@0\n");
	/* grouping: f of lib x and f of lib y stay apart */
	expect(tr, "select group_concat(name || '/' || lib || ':' || cumulative_value, ' ')"
		   " from fg(__intrinsic_flamegraph_config('value', 'value', 'grouping', 'lib'))",
	       "root/a:16 f/x:8 g/a:5 f/y:1 h/a:5 f/x:4\n");
	/* aggregates over the rows merged into a node */
	expect(tr, "select group_concat(name || '=' || lib, ' ') from fg(__intrinsic_flamegraph_config("
		   "'value', 'value', 'aggregate', 'CONCAT_WITH_COMMA', 'lib', 'lib'))",
	       "root=a f=x,y g=a h=a f=x\n");
	expect(tr, "select group_concat(name || '=' || lib, ' ') from fg(__intrinsic_flamegraph_config("
		   "'value', 'value', 'aggregate', 'ONE_OR_SUMMARY', 'lib', 'lib'))",
	       "root=a f=x and 2 others g=a h=a f=x\n");
	expect(tr, "select group_concat(name || '=' || w, ' ') from fg(__intrinsic_flamegraph_config("
		   "'value', 'value', 'aggregate', 'SUM', 'w', 'w'))", "root=10 f=80 g=30 h=40 f=50\n");
	/* a second value column: self_w / cumulative_w beside self_value */
	expect(tr, "select group_concat(name || ':' || self_value || ',' || self_w || '/' || cumulative_w, ' ')"
		   " from fg(__intrinsic_flamegraph_config('value', 'value', 'value', 'w'))",
	       "root:2,10/210 f:4,80/120 g:1,30/80 h:5,40/40 f:4,50/50\n");
}

static void flamegraph_errors(void **state)
{
	tt_trace *tr = *state;

	fg_source(tr);
	expect_error(tr, "select * from fg(__intrinsic_flamegraph_config('view', 'TOP_DOWN'))",
		     "at least one value column is required");
	expect_error(tr, "select * from fg(__intrinsic_flamegraph_config('value', 'value', 'view', 'PIVOT'))",
		     "PIVOT and FROM_FRAME require a view pattern");
	expect_error(tr, "select * from fg(__intrinsic_flamegraph_config('value', 'lib'))",
		     "value columns must be numeric");
	expect_error(tr, "select * from fg(__intrinsic_flamegraph_config('value', 'value', 'view', 'SIDEWAYS'))",
		     "unknown value 'SIDEWAYS'");
	expect_error(tr, "select * from fg(__intrinsic_flamegraph_config('value', 'value', 'grouping', 'nope'))",
		     "column 'nope' does not exist");
	expect_error(tr, "create virtual table fg2 using __intrinsic_flamegraph((select 1 as a, 2 as b, 3 as c, 4 as d))",
		     "first source columns must be id, parent_id, name, value");
	expect_error(tr, "create virtual table fg3 using __intrinsic_flamegraph((select 1 as id, null as parent_id,"
			 " 'x' as name, -1 as value)); select * from fg3(__intrinsic_flamegraph_config('value', 'value'))",
		     "value columns must be non-negative");
	expect_error(tr, "select * from fg(1)", "__intrinsic_flamegraph_config");
	/* an empty source: no rows */
	expect(tr, "create virtual table fge using __intrinsic_flamegraph((select * from fgsrc where 0));"
		   " select count(*) from fge(__intrinsic_flamegraph_config('value', 'value'))", "0\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ancestor_and_descendant),
		cmocka_unit_test(by_stack),
		cmocka_unit_test(connected_flows),
		cmocka_unit_test(slice_layout),
		cmocka_unit_test(args_functions),
		cmocka_unit_test(string_functions),
		cmocka_unit_test(time_and_slice_functions),
		cmocka_unit_test(window_functions),
		cmocka_unit_test(views),
		cmocka_unit_test(span_join_inner),
		cmocka_unit_test(span_join_left_outer),
		cmocka_unit_test(span_join_edges),
		cmocka_unit_test(span_join_plans),
		cmocka_unit_test(interval_helpers),
		cmocka_unit_test(flamegraph_views),
		cmocka_unit_test(flamegraph_filters),
		cmocka_unit_test(flamegraph_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
