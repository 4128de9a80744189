/*
 * test_sql.c - SQL over the storage: push-down plans (the idxNum that
 * EXPLAIN QUERY PLAN shows, see core/sql/vtab.h), results with and without
 * push-down agree, joins, user views, errors and output formats.
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

static int setup(void **state)
{
	*state = tt_test_open(tt_test_data("chromium-tiny.json"));
	return 0;
}

static int teardown(void **state)
{
	tt_trace_close(*state);
	return 0;
}

/* The plan line for table `alias` contains "INDEX <idx>:". */
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

static void pushdown_plans(void **state)
{
	tt_trace *tr = *state;

	assert_plan(tr, "select * from slice where id = 123", "slice", 1);
	assert_plan(tr, "select * from slice where track_id = 2", "slice", 2);
	assert_plan(tr, "select * from slice where ts >= 959000000000", "slice", 4);
	assert_plan(tr, "select * from slice where ts < 959000000000", "slice", 8);
	assert_plan(tr, "select * from slice where ts between 1 and 2", "slice", 12);
	assert_plan(tr, "select * from slice where ts = 958181757000", "slice", 64);
	assert_plan(tr, "select * from slice where name = 'RunMicrotasks'", "slice", 16);
	assert_plan(tr, "select * from args where arg_set_id = 3", "args", 32);
	assert_plan(tr, "select * from thread where utid = 2", "thread", 1);
	assert_plan(tr, "select * from counter where track_id = 1", "counter", 2);
	/* a join drives the inner slice scan through the track index */
	assert_plan(tr, "select s.name from thread_track tt join slice s on s.track_id = tt.id", "s", 2);
	assert_plan(tr, "select * from slice", "slice", 0);
}

static void pushdown_results_match_scan(void **state)
{
	tt_trace *tr = *state;
	static const char *const pairs[][2] = {
		{ "select count(*), sum(dur) from slice where track_id = 1",
		  "select count(*), sum(dur) from slice where track_id + 0 = 1" },
		{ "select count(*) from slice where ts >= 959000000000 and ts < 959500000000",
		  "select count(*) from slice where ts + 0 >= 959000000000 and ts + 0 < 959500000000" },
		{ "select count(*) from slice where ts > 958181757000", "select count(*) from slice where ts + 0 > 958181757000" },
		{ "select count(*) from slice where ts <= 958181757000", "select count(*) from slice where ts + 0 <= 958181757000" },
		{ "select count(*) from slice where ts = 958181757000", "select count(*) from slice where ts + 0 = 958181757000" },
		{ "select group_concat(id) from slice where name = 'RunMicrotasks'",
		  "select group_concat(id) from slice where name || '' = 'RunMicrotasks'" },
		{ "select count(*) from slice where name = 'never seen'", "select 0" },
		{ "select count(*) from slice where id = 99999", "select 0" },
		{ "select count(*) from slice where id = -1", "select 0" },
		{ "select group_concat(key) from args where arg_set_id = 3",
		  "select group_concat(key) from args where arg_set_id + 0 = 3" },
	};

	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		char *a = tt_test_tsv(tr, pairs[i][0]);
		char *b = tt_test_tsv(tr, pairs[i][1]);

		if (strcmp(a, b) != 0)
			fail_msg("%s -> %s but %s -> %s", pairs[i][0], a, pairs[i][1], b);
		free(a);
		free(b);
	}
	/* and the counts are what they should be, not just equal */
	assert_int_equal(tt_test_int(tr, "select count(*) from slice where name = 'RunMicrotasks'"), 59);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice where ts = 958181757000"), 1);
	assert_string_equal(tt_test_str(tr, "select name from slice where id = 3"), "fetchStart");
}

static void joins_and_views(void **state)
{
	tt_trace *tr = *state;
	char *tsv;

	tsv = tt_test_tsv(tr, "select t.name, count(*) from slice s join thread_track tt on s.track_id = tt.id"
			      " join thread t using (utid) group by t.utid order by 2 desc limit 2");
	assert_string_equal(tsv, "CrRendererMain\t309\nCrRendererMain\t177\n");
	free(tsv);
	/* users create their own views and tables in the same connection */
	assert_int_equal(tt_test_int(tr, "create view long_ones as select * from slice where dur > 1000000;"
				       " create table marks(ts int); insert into marks values (1), (2);"
				       " select (select count(*) from long_ones) * 10 + (select count(*) from marks)"), 222);
	/* 7 X events and 15 async slices last over 1 ms (json_facts.py) */
	assert_int_equal(tt_test_int(tr, "select count(*) from long_ones"), 22);
	assert_int_equal(tt_test_int(tr, "select trace_end() - trace_start() = trace_dur()"), 1);
	assert_int_equal(tt_test_int(tr, "select count(*) from instant"), 111);
}

static void errors(void **state)
{
	tt_trace *tr = *state;
	tt_result r;
	tt_err err = { 0 };

	assert_int_equal(tt_query_collect(tr, "select * from no_such_table", 0, &r, &err), TT_EINVAL);
	assert_string_equal(err.msg, "no such table: no_such_table");
	tt_err_clear(&err);
	assert_int_equal(tt_query_collect(tr, "select 1; selec 2", 0, &r, &err), TT_EINVAL);
	/* in a script of several statements the error says which (issue 17) */
	assert_string_equal(err.msg, "line 1 col 11: near \"selec\": syntax error");
	tt_err_clear(&err);
	assert_int_equal(tt_query_collect(tr, "   ", 0, &r, &err), TT_EINVAL);
	/* the trace still answers after errors */
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 514);
}

static char *print(tt_trace *tr, const char *sql, tt_query_format fmt, int header)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	tt_err err = { 0 };

	if (tt_query_print(tr, sql, fmt, header, f, &err) != TT_OK)
		fail_msg("%s: %s", sql, err.msg);
	fclose(f);
	return buf;
}

static void output_formats(void **state)
{
	tt_trace *tr = *state;
	const char *sql = "select 1 as a, 'x,\"y' as b, null as c, 2.5 as d union all select 22, 'tab\there', 'z', 0";
	char *out;

	out = print(tr, sql, TT_FMT_TABLE, 1);
	assert_string_equal(out, "a   b         c     d\n"
				 "--  --------  ----  ---\n"
				 "1   x,\"y      NULL  2.5\n"
				 "22  tab\there  z     0\n");
	free(out);
	out = print(tr, sql, TT_FMT_TSV, 1);
	assert_string_equal(out, "a\tb\tc\td\n1\tx,\"y\tNULL\t2.5\n22\ttab here\tz\t0\n");
	free(out);
	out = print(tr, sql, TT_FMT_CSV, 0);
	assert_string_equal(out, "1,\"x,\"\"y\",,2.5\n22,tab\there,z,0\n");
	free(out);
	out = print(tr, sql, TT_FMT_JSON, 1);
	assert_string_equal(out, "[\n{\"a\":1,\"b\":\"x,\\\"y\",\"c\":null,\"d\":2.5},\n"
				 "{\"a\":22,\"b\":\"tab\\there\",\"c\":\"z\",\"d\":0}\n]\n");
	free(out);
	/* several statements: the last one's rows */
	out = print(tr, "create temp table q(x); insert into q values (7); select x * 6 from q", TT_FMT_TSV, 0);
	assert_string_equal(out, "42\n");
	free(out);
}

/* The columns SELECT * gives of each of trace processor's tables and
 * views, in its order (its prelude's declared columns). */
static void perfetto_columns(void **state)
{
	static const struct { const char *table, *cols; } want[] = {
		{ "slice", "id,ts,dur,track_id,category,name,depth,parent_id,arg_set_id,thread_ts,thread_dur,"
			   "thread_instruction_count,thread_instruction_delta,cat,slice_id" },
		{ "thread", "id,utid,tid,name,start_ts,end_ts,upid,is_main_thread,is_idle,machine_id,arg_set_id" },
		{ "process", "id,upid,pid,name,start_ts,end_ts,parent_upid,uid,android_appid,android_user_id,cmdline,"
			     "arg_set_id,machine_id" },
		{ "track", "id,name,type,dimension_arg_set_id,parent_id,source_arg_set_id,machine_id,track_group_id" },
		{ "thread_track", "id,name,type,parent_id,source_arg_set_id,machine_id,utid" },
		{ "process_track", "id,name,type,parent_id,source_arg_set_id,machine_id,upid" },
		{ "counter_track", "id,name,parent_id,type,dimension_arg_set_id,source_arg_set_id,machine_id,unit,"
				   "description" },
		{ "thread_counter_track", "id,name,type,parent_id,source_arg_set_id,machine_id,unit,description,utid" },
		{ "process_counter_track", "id,name,type,parent_id,source_arg_set_id,machine_id,unit,description,upid" },
		{ "cpu_counter_track", "id,name,type,parent_id,source_arg_set_id,machine_id,unit,description,cpu" },
		{ "gpu_counter_track", "id,name,type,parent_id,source_arg_set_id,machine_id,unit,description,ugpu,gpu_id" },
		{ "cpu_track", "id,name,type,parent_id,source_arg_set_id,machine_id,cpu" },
		{ "sched", "id,ts,dur,cpu,utid,end_state,priority,ucpu,ts_end" },
		{ "instant", "ts,track_id,name,arg_set_id" },
		{ "counters", "id,ts,track_id,value,arg_set_id,name,unit" },
		{ "counter", "id,ts,track_id,value,arg_set_id" },
		{ "cpu", "id,ucpu,cpu,cluster_id,processor,machine_id,capacity,arg_set_id" },
		{ "stats", "id,name,key,idx,severity,source,value,description,machine_id,trace_id" },
	};
	tt_trace *tr = *state;
	char q[200];

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		snprintf(q, sizeof(q), "select group_concat(name, ',') from pragma_table_info('%s')", want[i].table);
		if (strcmp(tt_test_str(tr, q), want[i].cols))
			fail_msg("%s: [%s], not [%s]", want[i].table, tt_test_str(tr, q), want[i].cols);
	}
	/* hidden, still there by name */
	assert_int_equal(tt_test_int(tr, "select count(*) from track where is_counter = 1 and utid is null"),
			 tt_test_int(tr, "select count(*) from counter_track where id not in "
					 "(select id from thread_counter_track)"));
	/* an unqualified type is the track's (slice and counter have none) */
	assert_int_equal(tt_test_int(tr, "select count(*) from slice s join track t on s.track_id = t.id "
					 "where type = 'thread'"),
			 tt_test_int(tr, "select count(*) from slice s join thread_track t on s.track_id = t.id "
					 "where t.type = 'thread'"));
	/* values: a single stat has no index; ts_end; cat and slice_id */
	assert_string_equal(tt_test_str(tr, "select idx from stats where name = 'json_parse_error'"), "NULL");
	assert_int_equal(tt_test_int(tr, "select count(*) from slice where cat is not category or slice_id != id"), 0);
	assert_int_equal(tt_test_int(tr, "select count(*) from stats where key != id and idx is null"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pushdown_plans),
		cmocka_unit_test(pushdown_results_match_scan),
		cmocka_unit_test(joins_and_views),
		cmocka_unit_test(errors),
		cmocka_unit_test(output_formats),
		cmocka_unit_test(perfetto_columns),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
