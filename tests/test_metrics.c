/*
 * test_metrics.c - the metric runner (metrics/metrics.c) and annotations
 * (core/annotate.c): filling nested and repeated proto fields from SQL,
 * the three output formats, includes, running a metric once per trace,
 * annotation tracks with every optional column, a malformed view, alerts.
 *
 * Ad-hoc metrics are written to a temporary folder put on TT_METRICS_PATH;
 * the messages they fill are termtrace.test.* (protos/metrics_test.proto).
 * XDG_CONFIG_HOME points to an empty folder so a user's metrics cannot
 * change the results.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "metrics_test.pb-c.h"
#include "testutil.h"

static char *mdir; /* TT_METRICS_PATH for this suite */

static void put_file(const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", mdir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	mdir = tt_test_mkdtemp();
	setenv("TT_METRICS_PATH", mdir, 1);
	setenv("XDG_CONFIG_HOME", mdir, 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tt_test_rm(mdir);
	return 0;
}

static void exec_ok(tt_trace *tr, const char *sql)
{
	tt_result r;
	tt_err err = { 0 };

	if (tt_query_collect(tr, sql, 0, &r, &err) != TT_OK)
		fail_msg("%s: %s", sql, err.msg);
	tt_result_free(&r);
}

/* The message written in fmt, as a string (malloc'ed). */
static char *render(const ProtobufCMessage *m, tt_metrics_format fmt, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	tt_err err = { 0 };

	assert_non_null(f);
	assert_int_equal(tt_metrics_write(m, fmt, f, &err), TT_OK);
	fclose(f);
	if (len)
		*len = n;
	return buf;
}

static const char kitchen_sql[] =
	"create view k_output as select"
	" -5 as i32, 9000000000 as i64, 7 as u32, 18 as u64, -3 as s64, 0.25 as d, 1.5 as f,"
	" 1 as flag, 'a \"q\"\n' as text, x'00ff41' as blob, 'BLUE' as color,"
	" json_object('label', 'in', 'n', 4, 'values', json_array(1, 2, 3),"
	"             'child', json_object('label', 'deep')) as inner,"
	" (select json_group_array(json_object('label', name, 'n', n))"
	"    from (select 'x' as name, 1 as n union all select 'y', 2)) as items,"
	" json_array('t1', 't2') as tags,"
	" null as rows;"
	/* repeated message field from the rows of a sub-view */
	"create view k_output_rows as"
	" select 'r' || value as label, value as n from json_each('[10, 20, 30]');"
	/* repeated scalar field from the single column of a sub-view */
	"create view k_output_nums as select value from json_each('[5, 6]');";

static void test_fill_every_field_kind(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("chromium-tiny.json"));
	ProtobufCMessage *m = NULL;
	Termtrace__Test__Kitchen *k;
	tt_err err = { 0 };

	(void)state;
	exec_ok(tr, kitchen_sql);
	if (tt_metrics_fill(tr, "k_output", &termtrace__test__kitchen__descriptor, &m, &err))
		fail_msg("%s", err.msg);
	k = (Termtrace__Test__Kitchen *)m;
	assert_true(k->has_i32 && k->i32 == -5);
	assert_true(k->has_i64 && k->i64 == 9000000000LL);
	assert_true(k->has_u32 && k->u32 == 7);
	assert_true(k->has_u64 && k->u64 == 18);
	assert_true(k->has_s64 && k->s64 == -3);
	assert_true(k->has_d && k->d == 0.25);
	assert_true(k->has_f && k->f == 1.5f);
	assert_true(k->has_flag && k->flag);
	assert_string_equal(k->text, "a \"q\"\n");
	assert_true(k->has_blob && k->blob.len == 3 && k->blob.data[1] == 0xff);
	assert_true(k->has_color && k->color == TERMTRACE__TEST__KITCHEN__COLOR__BLUE);
	/* nested message from a JSON object, two levels deep */
	assert_non_null(k->inner);
	assert_string_equal(k->inner->label, "in");
	assert_true(k->inner->has_n && k->inner->n == 4);
	assert_int_equal(k->inner->n_values, 3);
	assert_int_equal(k->inner->values[2], 3);
	assert_non_null(k->inner->child);
	assert_string_equal(k->inner->child->label, "deep");
	assert_false(k->inner->child->has_n);
	/* repeated messages from a JSON array */
	assert_int_equal(k->n_items, 2);
	assert_string_equal(k->items[1]->label, "y");
	assert_int_equal(k->items[1]->n, 2);
	assert_int_equal(k->n_tags, 2);
	assert_string_equal(k->tags[0], "t1");
	/* repeated fields from sub-views (the column was NULL) */
	assert_int_equal(k->n_rows, 3);
	assert_string_equal(k->rows[2]->label, "r30");
	assert_int_equal(k->rows[0]->n, 10);
	assert_int_equal(k->n_nums, 2);
	assert_int_equal(k->nums[1], 6);
	protobuf_c_message_free_unpacked(m, NULL);
	tt_trace_close(tr);
}

static void test_output_formats(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("chromium-tiny.json"));
	ProtobufCMessage *m = NULL, *back;
	Termtrace__Test__Kitchen *k;
	tt_err err = { 0 };
	char *text, *json, *bin;
	size_t len;

	(void)state;
	exec_ok(tr, kitchen_sql);
	assert_int_equal(tt_metrics_fill(tr, "k_output", &termtrace__test__kitchen__descriptor, &m, &err),
			 TT_OK);
	text = render(m, TT_METRICS_TEXT, NULL);
	assert_string_equal(text,
			    "i32: -5\n"
			    "i64: 9000000000\n"
			    "u32: 7\n"
			    "u64: 18\n"
			    "s64: -3\n"
			    "d: 0.25\n"
			    "f: 1.5\n"
			    "flag: true\n"
			    "text: \"a \\\"q\\\"\\n\"\n"
			    "blob: \"\\000\\377A\"\n"
			    "color: BLUE\n"
			    "inner {\n"
			    "  label: \"in\"\n"
			    "  n: 4\n"
			    "  values: 1\n"
			    "  values: 2\n"
			    "  values: 3\n"
			    "  child {\n"
			    "    label: \"deep\"\n"
			    "  }\n"
			    "}\n"
			    "items {\n"
			    "  label: \"x\"\n"
			    "  n: 1\n"
			    "}\n"
			    "items {\n"
			    "  label: \"y\"\n"
			    "  n: 2\n"
			    "}\n"
			    "tags: \"t1\"\n"
			    "tags: \"t2\"\n"
			    "rows {\n"
			    "  label: \"r10\"\n"
			    "  n: 10\n"
			    "}\n"
			    "rows {\n"
			    "  label: \"r20\"\n"
			    "  n: 20\n"
			    "}\n"
			    "rows {\n"
			    "  label: \"r30\"\n"
			    "  n: 30\n"
			    "}\n"
			    "nums: 5\n"
			    "nums: 6\n");
	json = render(m, TT_METRICS_JSON, NULL);
	assert_string_equal(json,
			    "{\n"
			    "  \"i32\": -5,\n"
			    "  \"i64\": 9000000000,\n"
			    "  \"u32\": 7,\n"
			    "  \"u64\": 18,\n"
			    "  \"s64\": -3,\n"
			    "  \"d\": 0.25,\n"
			    "  \"f\": 1.5,\n"
			    "  \"flag\": true,\n"
			    "  \"text\": \"a \\\"q\\\"\\n\",\n"
			    "  \"blob\": \"AP9B\",\n"
			    "  \"color\": \"BLUE\",\n"
			    "  \"inner\": {\n"
			    "    \"label\": \"in\",\n"
			    "    \"n\": 4,\n"
			    "    \"values\": [\n"
			    "      1,\n"
			    "      2,\n"
			    "      3\n"
			    "    ],\n"
			    "    \"child\": {\n"
			    "      \"label\": \"deep\"\n"
			    "    }\n"
			    "  },\n"
			    "  \"items\": [\n"
			    "    {\n"
			    "      \"label\": \"x\",\n"
			    "      \"n\": 1\n"
			    "    },\n"
			    "    {\n"
			    "      \"label\": \"y\",\n"
			    "      \"n\": 2\n"
			    "    }\n"
			    "  ],\n"
			    "  \"tags\": [\n"
			    "    \"t1\",\n"
			    "    \"t2\"\n"
			    "  ],\n"
			    "  \"rows\": [\n"
			    "    {\n"
			    "      \"label\": \"r10\",\n"
			    "      \"n\": 10\n"
			    "    },\n"
			    "    {\n"
			    "      \"label\": \"r20\",\n"
			    "      \"n\": 20\n"
			    "    },\n"
			    "    {\n"
			    "      \"label\": \"r30\",\n"
			    "      \"n\": 30\n"
			    "    }\n"
			    "  ],\n"
			    "  \"nums\": [\n"
			    "    5,\n"
			    "    6\n"
			    "  ]\n"
			    "}\n");
	/* binary: what protobuf-c unpacks is what was filled */
	bin = render(m, TT_METRICS_BINARY, &len);
	assert_int_equal(len, protobuf_c_message_get_packed_size(m));
	back = protobuf_c_message_unpack(&termtrace__test__kitchen__descriptor, NULL, len,
					 (const uint8_t *)bin);
	assert_non_null(back);
	k = (Termtrace__Test__Kitchen *)back;
	assert_int_equal(k->i64, 9000000000LL);
	assert_string_equal(k->inner->child->label, "deep");
	assert_int_equal(k->n_rows, 3);
	assert_int_equal(k->rows[1]->n, 20);
	protobuf_c_message_free_unpacked(back, NULL);
	free(text);
	free(json);
	free(bin);
	protobuf_c_message_free_unpacked(m, NULL);
	tt_trace_close(tr);
}

static void test_fill_errors(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("chromium-tiny.json"));
	ProtobufCMessage *m = NULL;
	tt_err err = { 0 };

	(void)state;
	exec_ok(tr, "create view e1 as select 1 as nope;"
		    "create view e2 as select 'x' as i32;"
		    "create view e3 as select 1 as i32 union all select 2;"
		    "create view e4 as select 1.5 as i64;"
		    "create view e5 as select '{\"label\": 1, \"bogus\": 2}' as inner;");
	assert_int_equal(tt_metrics_fill(tr, "e1", &termtrace__test__kitchen__descriptor, &m, &err),
			 TT_EINVAL);
	assert_non_null(strstr(err.msg, "column nope is not a field of termtrace.test.Kitchen"));
	assert_null(m);
	assert_int_equal(tt_metrics_fill(tr, "e2", &termtrace__test__kitchen__descriptor, &m, &err),
			 TT_EINVAL);
	if (!strstr(err.msg, "field i32 is numeric but got text"))
		fail_msg("%s", err.msg);
	assert_int_equal(tt_metrics_fill(tr, "e3", &termtrace__test__kitchen__descriptor, &m, &err),
			 TT_EINVAL);
	assert_non_null(strstr(err.msg, "e3 returned more than one row"));
	assert_int_equal(tt_metrics_fill(tr, "e4", &termtrace__test__kitchen__descriptor, &m, &err),
			 TT_EINVAL);
	assert_non_null(strstr(err.msg, "got a fraction"));
	assert_int_equal(tt_metrics_fill(tr, "e5", &termtrace__test__kitchen__descriptor, &m, &err),
			 TT_EINVAL);
	assert_non_null(strstr(err.msg, "inner.bogus is not a field of termtrace.test.Inner"));
	assert_int_equal(tt_metrics_fill(tr, "nothere", &termtrace__test__kitchen__descriptor, &m, &err),
			 TT_EINVAL);
	assert_null(m);
	tt_trace_close(tr);
}

/* include: a helper runs once per trace even when two metrics include it;
 * a metric runs once per trace. */
static void test_include_and_run_once(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("chromium-tiny.json"));
	ProtobufCMessage *m = NULL;
	Termtrace__Test__TestMetrics *tm;
	tt_err err = { 0 };
	char *text;

	(void)state;
	put_file("lib_count.sql", "-- helper\ncreate view lib_count as select count(*) as n from slice;\n"
				  "create table include_runs as select 1 as x;\n");
	put_file("simple.sql", "-- a test metric\n"
			       "  INCLUDE 'lib_count.sql';  \n"
			       "create view simple_output as\n"
			       "select 'slices' as label, (select n from lib_count) as n;\n");
	put_file("other.sql", "include 'lib_count.sql';\ninclude 'lib_count';\n"
			      "create view other_output as select n from lib_count;\n");
	assert_int_equal(tt_metrics_compute(tr, "simple", &termtrace__test__test_metrics__descriptor,
					    &m, &err), TT_OK);
	tm = (Termtrace__Test__TestMetrics *)m;
	assert_non_null(tm->simple);
	assert_string_equal(tm->simple->label, "slices");
	assert_int_equal(tm->simple->n, 514);
	text = render(m, TT_METRICS_TEXT, NULL);
	assert_string_equal(text, "simple {\n  label: \"slices\"\n  n: 514\n}\n");
	free(text);
	protobuf_c_message_free_unpacked(m, NULL);
	/* again, plus a second metric including the same helper */
	if (tt_metrics_run_names(tr, " simple , other,", &err) != TT_OK)
		fail_msg("%s", err.msg);
	assert_int_equal(tt_test_int(tr, "select count(*) from include_runs"), 1);
	/* metrics without annotations: the alert table exists, empty */
	assert_int_equal(tt_test_int(tr, "select count(*) from alert"), 0);
	assert_int_equal(tt_test_int(tr, "select count(*) from _tt_metric_done"), 3);
	/* a name without a field of the root message */
	assert_int_equal(tt_metrics_compute(tr, "other", &termtrace__test__test_metrics__descriptor,
					    &m, &err), TT_EINVAL);
	assert_non_null(strstr(err.msg, "metric other has no message field in termtrace.test.TestMetrics"));
	/* unknown metric, bad name, missing include */
	assert_int_equal(tt_metrics_run_names(tr, "nosuch", &err), TT_EINVAL);
	assert_non_null(strstr(err.msg, "unknown metric 'nosuch'"));
	assert_int_equal(tt_metrics_run_names(tr, "../x", &err), TT_EINVAL);
	assert_non_null(strstr(err.msg, "bad metric name '../x'"));
	put_file("broken_inc.sql", "create view broken_inc_a as select 1;\ninclude 'lib_nope.sql';\n");
	assert_int_equal(tt_metrics_run_names(tr, "broken_inc", &err), TT_EINVAL);
	assert_non_null(strstr(err.msg, "broken_inc.sql:2: include 'lib_nope.sql' not found"));
	/* an SQL error names the file and the line where the statement starts */
	put_file("bad_sql.sql", "-- x\ncreate view bad_sql_a as select 1;\n\n-- y\n"
				"create table bad_sql_b as\n  select nope from no_table;\n");
	assert_int_equal(tt_metrics_run_names(tr, "bad_sql", &err), TT_EINVAL);
	if (!strstr(err.msg, "metric bad_sql: ") || !strstr(err.msg, "bad_sql.sql:5: no such table: no_table"))
		fail_msg("%s", err.msg);
	assert_int_equal(tt_test_int(tr, "select count(*) from sqlite_master where name = 'bad_sql_a'"), 0);
	/* the failed metric's views were rolled back */
	assert_int_equal(tt_test_int(tr, "select count(*) from sqlite_master where name = 'broken_inc_a'"), 0);
	tt_trace_close(tr);
}

static void test_list(void **state)
{
	tt_metric_info *v;
	size_t n, i;
	tt_err err = { 0 };
	const char *shipped[] = { "android_ion", "android_startup", "chrome_long_tasks", "long_gc",
				  "lost_events", "thread_utilization" };

	(void)state;
	put_file("zz_user.sql", "-- a user metric\ncreate view zz_user_output as select 1 as x;\n");
	assert_int_equal(tt_metrics_list(&v, &n, &err), TT_OK);
	for (size_t s = 0; s < sizeof(shipped) / sizeof(*shipped); s++) {
		for (i = 0; i < n && strcmp(v[i].name, shipped[s]); i++)
			;
		assert_true(i < n);
		assert_true(v[i].has_field);
		assert_true(strlen(v[i].summary) > 10);
	}
	for (i = 0; i < n; i++)
		assert_true(strncmp(v[i].name, "lib_", 4) != 0);
	assert_string_equal(v[n - 1].name, "zz_user");
	assert_false(v[n - 1].has_field);
	assert_string_equal(v[n - 1].summary, "a user metric");
	tt_metrics_list_free(v, n);
}

/* Every optional column: nested slices (3 levels), an instant, thread and
 * process scope, source_slice_id, alert_type, arg_ columns, a counter. */
static void test_annotations_all_columns(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("chromium-tiny.json"));
	tt_err err = { 0 };
	uint32_t ntracks = tt_trace_track_count(tr);
	int64_t nslices = tt_test_int(tr, "select count(*) from slice");
	tt_track_info ti;
	char *tsv;

	(void)state;
	put_file("annot.sql",
		 "create view annot_annotations as\n"
		 "select 'slice' as track_type, 'Phases' as track_name, 1000 as ts, 100 as dur,\n"
		 "  'outer' as slice_name, null as value, null as utid, null as upid,\n"
		 "  0 as source_slice_id, 'error' as alert_type, 'why' as arg_reason\n"
		 "union all select 'slice', 'Phases', 1010, 50, 'middle', null, null, null, null, null, 7\n"
		 "union all select 'slice', 'Phases', 1020, 10, 'inner', null, null, null, 5, 'warning', null\n"
		 "union all select 'slice', 'Phases', 1090, 0, 'mark', null, null, null, null, null, null\n"
		 "union all select 'slice', 'Phases', 1200, null, 'after', null, null, null, null, null, null\n"
		 "union all select 'slice', 'Per thread', 1500, 20, 't', null, 2, null, null, 'warning', null\n"
		 "union all select 'slice', 'Per process', 1600, 20, 'p', null, null, 1, null, null, null\n"
		 "union all select 'counter', 'Level', 1000, 0, null, 1.5, null, null, null, null, null\n"
		 "union all select 'counter', 'Level', 900, 0, null, 3, null, null, null, 'error', null;\n");
	if (tt_metrics_run_names(tr, "annot", &err) != TT_OK)
		fail_msg("%s", err.msg);
	assert_int_equal(tt_trace_track_count(tr), ntracks + 4);
	tsv = tt_test_tsv(tr, "select name, type, utid, upid, is_counter, description from track"
			      " where type = 'annotation' order by id");
	assert_string_equal(tsv, "Phases\tannotation\tNULL\tNULL\t0\tmetric annot\n"
				 "Per thread\tannotation\t2\t2\t0\tmetric annot\n"
				 "Per process\tannotation\tNULL\t1\t0\tmetric annot\n"
				 "Level\tannotation\tNULL\tNULL\t1\tmetric annot\n");
	free(tsv);
	/* nesting computed by the slice tracker; category = metric name */
	tsv = tt_test_tsv(tr, "select s.ts, s.dur, s.name, s.depth, p.name, s.category from slice s"
			      " join track t on s.track_id = t.id left join slice p on p.id = s.parent_id"
			      " where t.name = 'Phases' order by s.ts");
	assert_string_equal(tsv, "1000\t100\touter\t0\tNULL\tannot\n"
				 "1010\t50\tmiddle\t1\touter\tannot\n"
				 "1020\t10\tinner\t2\tmiddle\tannot\n"
				 "1090\t0\tmark\t1\touter\tannot\n"
				 "1200\t0\tafter\t0\tNULL\tannot\n");
	free(tsv);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), nslices + 7);
	/* args: metric, source_slice_id, alert_type, arg_ columns */
	tsv = tt_test_tsv(tr, "select a.key, a.display_value from slice s join args a using (arg_set_id)"
			      " where s.name = 'outer' and s.category = 'annot' order by a.key");
	assert_string_equal(tsv, "alert_type\terror\nmetric\tannot\nreason\twhy\nsource_slice_id\t0\n");
	free(tsv);
	/* counters, sorted by ts on their track */
	tsv = tt_test_tsv(tr, "select c.ts, c.value from counter c join track t on c.track_id = t.id"
			      " where t.name = 'Level' order by c.ts");
	assert_string_equal(tsv, "900\t3.0\n1000\t1.5\n");
	free(tsv);
	/* the viewer's accessor sees the new track and its depth */
	assert_int_equal(tt_trace_track(tr, ntracks, &ti), 0);
	assert_string_equal(ti.type, "annotation");
	assert_string_equal(ti.name, "Phases");
	assert_int_equal(ti.max_depth, 3);
	assert_int_equal(ti.nrows, 5);
	/* alerts: ids in ts order across tracks; slice ids point at the new slices */
	tsv = tt_test_tsv(tr, "select a.id, a.ts, a.dur, a.severity, a.metric, a.source_slice_id, a.name,"
			      " t.name, s.name from alert a join track t on t.id = a.track_id"
			      " left join slice s on s.id = a.slice_id order by a.id");
	assert_string_equal(tsv, "0\t900\t0\terror\tannot\tNULL\tNULL\tLevel\tNULL\n"
				 "1\t1000\t100\terror\tannot\t0\touter\tPhases\touter\n"
				 "2\t1020\t10\twarning\tannot\t5\tinner\tPhases\tinner\n"
				 "3\t1500\t20\twarning\tannot\tNULL\tt\tPer thread\tt\n");
	free(tsv);
	tsv = tt_test_tsv(tr, "select severity, count(*) from alert group by 1 order by 1");
	assert_string_equal(tsv, "error\t2\nwarning\t2\n");
	free(tsv);
	/* the slice push-down by track_id sees the appended rows */
	assert_int_equal(tt_test_int(tr, "select count(*) from slice where track_id = (select id from track"
					 " where name = 'Per thread' and type = 'annotation')"), 1);
	tt_trace_close(tr);
}

static void expect_bad(tt_trace *tr, const char *name, const char *body, const char *msg)
{
	char file[64];
	tt_err err = { 0 };
	uint32_t ntracks = tt_trace_track_count(tr);
	int64_t nslices = tt_test_int(tr, "select count(*) from slice");

	snprintf(file, sizeof(file), "%s.sql", name);
	put_file(file, body);
	assert_int_equal(tt_metrics_run_names(tr, name, &err), TT_EINVAL);
	if (!strstr(err.msg, msg))
		fail_msg("expected '%s' in '%s'", msg, err.msg);
	/* nothing was added, and the view is gone */
	assert_int_equal(tt_trace_track_count(tr), ntracks);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), nslices);
}

static void test_malformed_annotations(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("chromium-tiny.json"));

	(void)state;
	expect_bad(tr, "bad_missing",
		   "create view bad_missing_annotations as select 'slice' as track_type, 'T' as track_name,"
		   " 1 as ts, 1 as dur, 'x' as slice_name;",
		   "metric bad_missing: bad_missing_annotations: missing mandatory column value");
	/* the first rows are fine: still no partial track */
	expect_bad(tr, "bad_type",
		   "create view bad_type_annotations as select 'slice' as track_type, 'T' as track_name,"
		   " 1 as ts, 1 as dur, 'x' as slice_name, null as value"
		   " union all select 'span', 'T', 2, 1, 'y', null;",
		   "metric bad_type: bad_type_annotations row 2: column track_type is 'span'"
		   " (must be 'slice' or 'counter')");
	expect_bad(tr, "bad_ts",
		   "create view bad_ts_annotations as select 'slice' as track_type, 'T' as track_name,"
		   " 1 as ts, 1 as dur, 'x' as slice_name, null as value"
		   " union all select 'slice', 'T', null, 1, 'y', null;",
		   "metric bad_ts: bad_ts_annotations row 2: column ts is NULL");
	expect_bad(tr, "bad_alert",
		   "create view bad_alert_annotations as select 'slice' as track_type, 'T' as track_name,"
		   " 1 as ts, 1 as dur, 'x' as slice_name, null as value, 'fatal' as alert_type;",
		   "row 1: column alert_type must be 'warning', 'error' or NULL");
	expect_bad(tr, "bad_extra",
		   "create view bad_extra_annotations as select 'slice' as track_type, 'T' as track_name,"
		   " 1 as ts, 1 as dur, 'x' as slice_name, null as value, 1 as alert;",
		   "unknown column alert (extra columns must be named arg_<key>)");
	expect_bad(tr, "bad_counter",
		   "create view bad_counter_annotations as select 'counter' as track_type, 'T' as track_name,"
		   " 1 as ts, 0 as dur, null as slice_name, null as value;",
		   "row 1: column value is NULL on a counter row");
	expect_bad(tr, "bad_utid",
		   "create view bad_utid_annotations as select 'slice' as track_type, 'T' as track_name,"
		   " 1 as ts, 1 as dur, 'x' as slice_name, null as value, 99 as utid;",
		   "row 1: column utid is not a thread of the trace");
	expect_bad(tr, "bad_mixed",
		   "create view bad_mixed_annotations as select 'slice' as track_type, 'T' as track_name,"
		   " 1 as ts, 1 as dur, 'x' as slice_name, null as value"
		   " union all select 'counter', 'T', 2, 0, null, 1;",
		   "row 2: track_name 'T' has both slice and counter rows");
	expect_bad(tr, "bad_dur",
		   "create view bad_dur_annotations as select 'slice' as track_type, 'T' as track_name,"
		   " 1 as ts, -1 as dur, 'x' as slice_name, null as value;",
		   "row 1: column dur is negative");
	/* no alert rows, and the failed metrics can be fixed and run again */
	assert_int_equal(tt_test_int(tr, "select count(*) from sqlite_master where name = 'bad_ts_annotations'"), 0);
	tt_trace_close(tr);
}

/* The complete example of docs/metrics.md, verbatim. */
static void test_docs_example(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("chromium-tiny.json"));
	tt_err err = { 0 };
	char *tsv;

	(void)state;
	put_file("slow_microtasks.sql",
		 "-- RunMicrotasks slices of 1 ms or more, with a warning on each.\n"
		 "include 'lib_slices.sql';\n"
		 "\n"
		 "-- slow_microtasks_output_slow: one row per slow slice (fills `slow`).\n"
		 "create view slow_microtasks_output_slow as\n"
		 "select slice_id, ts, dur, thread_name\n"
		 "from lib_thread_slice\n"
		 "where name = 'RunMicrotasks' and dur >= 1000000\n"
		 "order by ts;\n"
		 "\n"
		 "-- slow_microtasks_output: the totals (one row).\n"
		 "--   count: slow slices; total_dur_ns: their summed duration\n"
		 "create view slow_microtasks_output as\n"
		 "select count(*) as count, coalesce(sum(dur), 0) as total_dur_ns\n"
		 "from slow_microtasks_output_slow;\n"
		 "\n"
		 "-- slow_microtasks_annotations: a \"Slow microtasks\" track per thread.\n"
		 "create view slow_microtasks_annotations as\n"
		 "select 'slice' as track_type, 'Slow microtasks' as track_name,\n"
		 "       s.ts, s.dur, 'slow microtasks' as slice_name, null as value,\n"
		 "       t.utid, s.slice_id as source_slice_id, 'warning' as alert_type\n"
		 "from slow_microtasks_output_slow s\n"
		 "join lib_thread_slice t using (slice_id);\n");
	if (tt_metrics_run_names(tr, "slow_microtasks", &err) != TT_OK)
		fail_msg("%s", err.msg);
	tsv = tt_test_tsv(tr, "select * from slow_microtasks_output");
	assert_string_equal(tsv, "2\t3267000\n");
	free(tsv);
	tsv = tt_test_tsv(tr, "select * from slow_microtasks_output_slow");
	assert_string_equal(tsv, "183\t958764186000\t1930000\tCrRendererMain\n"
				 "292\t958826342000\t1337000\tCrRendererMain\n");
	free(tsv);
	tsv = tt_test_tsv(tr, "select a.severity, s.name, t.name from alert a join slice s on s.id = a.source_slice_id"
			      " join track t on t.id = a.track_id order by a.id");
	assert_string_equal(tsv, "warning\tRunMicrotasks\tSlow microtasks\n"
				 "warning\tRunMicrotasks\tSlow microtasks\n");
	free(tsv);
	tt_trace_close(tr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fill_every_field_kind),
		cmocka_unit_test(test_output_formats),
		cmocka_unit_test(test_fill_errors),
		cmocka_unit_test(test_include_and_run_once),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_annotations_all_columns),
		cmocka_unit_test(test_malformed_annotations),
		cmocka_unit_test(test_docs_example),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
