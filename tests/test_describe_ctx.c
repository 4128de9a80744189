/*
 * test_describe_ctx.c - the context machinery of descriptions on a small
 * trace this test writes: the rule and kind columns, duration conditions,
 * the context fields ({longest_child}, {self}, {parent_share},
 * {children:NAME}, {same_children}, {arg:KEY}), [track] rules and
 * describe_track, and the per-rule statistics of describe_rules (matched,
 * won, tied, shadowed_by) behind `describe --lint`.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "describe.h"
#include "termtrace.h"
#include "testutil.h"

/* A renderer main thread with a long task (80 ms: children A 10 ms, B
 * 30 ms, B 5 ms) and a short one (10 ms: child A), and a worker thread. */
static const char trace_json[] =
	"{\"traceEvents\":[\n"
	"{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"thread_name\",\"args\":{\"name\":\"CrRendererMain\"}},\n"
	"{\"ph\":\"M\",\"pid\":1,\"tid\":2,\"name\":\"thread_name\",\"args\":{\"name\":\"Worker\"}},\n"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":80000,\"name\":\"RunTask\",\"cat\":\"toplevel\"},\n"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":1000,\"dur\":10000,\"name\":\"A\",\"cat\":\"x\"},\n"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":20000,\"dur\":30000,\"name\":\"B\",\"cat\":\"x\","
	"\"args\":{\"data\":{\"url\":\"https://a.test/\"}}},\n"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":60000,\"dur\":5000,\"name\":\"B\",\"cat\":\"x\"},\n"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":100000,\"dur\":10000,\"name\":\"RunTask\",\"cat\":\"toplevel\"},\n"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":101000,\"dur\":2000,\"name\":\"A\",\"cat\":\"x\"},\n"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":0,\"dur\":70000,\"name\":\"RunTask\",\"cat\":\"toplevel\"},\n"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":0,\"dur\":1000,\"name\":\"Zed\",\"cat\":\"y\"}\n"
	"]}\n";

/* Line numbers matter: the rule column is "t.rules:LINE". */
static const char rules_text[] =
	"[rule]\n"                                             /* 1 */
	"name = RunTask\n"
	"description = a task of {dur}\n"
	"[rule]\n"                                             /* 4 */
	"name = RunTask\n"
	"thread = CrRendererMain\n"
	"min_dur = 50ms\n"
	"description = long task {dur}: longest {longest_child} {longest_child_dur} "
	"{longest_child_share}, self {self}, {children} children, {children:B} B\n"
	"[rule]\n"                                             /* 9 */
	"name = B\n"
	"description = B is {parent_share} of {parent} ({parent_dur}), url {arg:data.url}, "
	"{same_children} same\n"
	"[rule]\n"                                             /* 12 */
	"glob = A*\n"
	"max_dur = 5ms\n"
	"description = short A {dur}\n"
	"[rule]\n"                                             /* 16 */
	"regex = ^A$\n"
	"description = any A\n"
	"[rule]\n"                                             /* 19 */
	"thread = Worker\n"
	"description = worker fallback for {name}\n"
	"[rule]\n"                                             /* 22 */
	"thread = Worker\n"
	"description = worker fallback again\n"
	"[track]\n"                                            /* 25 */
	"name = CrRendererMain\n"
	"description = main thread of pid {pid}, {slices} slices\n"
	"link = https://example.org/main\n"
	"[track]\n"                                            /* 29 */
	"track_type = thread\n"
	"description = some thread {thread}\n"
	"[rule]\n"                                             /* 32 */
	"name = Nowhere\n"
	"description = never matches\n"
	"link = http://example.org/plain\n";

struct fx {
	char *trace, *dir;
	tt_trace *tr;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char path[600];
	FILE *fp;

	f->trace = tt_test_write_tmp(trace_json, strlen(trace_json), ".json");
	f->dir = tt_test_mkdtemp();
	snprintf(path, sizeof(path), "%s/t.rules", f->dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(rules_text, fp);
	fclose(fp);
	setenv("TT_DESCRIPTIONS_PATH", path, 1);
	f->tr = tt_test_open(f->trace);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	tt_trace_close(f->tr);
	unsetenv("TT_DESCRIPTIONS_PATH");
	tt_test_rm(f->trace);
	tt_test_rm(f->dir);
	free(f);
	return 0;
}

/* The rule column holds the path as loaded: keep only "t.rules:N". */
static void expect_rows(tt_trace *tr, const char *sql, const char *want)
{
	char *got = tt_test_tsv(tr, sql), *p;

	while ((p = strstr(got, "/t.rules:")) != NULL) {
		char *start = p;

		while (start > got && start[-1] != '\t' && start[-1] != '\n')
			start--;
		memmove(start, p + 1, strlen(p + 1) + 1);
	}
	assert_string_equal(got, want);
	free(got);
}

/* Each slice gets its rule: text, file:line and kind. */
static void slices_by_kind(void **state)
{
	struct fx *f = *state;

	expect_rows(f->tr,
		    "select s.name, d.kind, d.rule, d.description from slice s "
		    "left join describe_slice d on d.slice_id = s.id order by s.ts, s.track_id, s.depth",
		    "RunTask\tcontext\tt.rules:4\tlong task 80 ms: longest B 30 ms 38 %, self 35 ms, "
		    "3 children, 2 B\n"
		    "RunTask\tname\tt.rules:1\ta task of 70 ms\n"
		    "Zed\tfallback\tt.rules:22\tworker fallback again\n"
		    "A\tregex\tt.rules:16\tany A\n"
		    "B\tname\tt.rules:9\tB is 38 % of RunTask (80 ms), url https://a.test/, 0 same\n"
		    "B\tname\tt.rules:9\tB is 6 % of RunTask (80 ms), url , 0 same\n"
		    "RunTask\tname\tt.rules:1\ta task of 10 ms\n"
		    "A\tcontext\tt.rules:12\tshort A 2 ms\n");
}

/* The long main-thread RunTask takes the context rule, the short one and
 * the worker's long one the plain name rule (an exact name beats the
 * worker's thread fallback). */
static void context_variants(void **state)
{
	struct fx *f = *state;

	expect_rows(f->tr,
		    "select t.name, s.dur, d.kind, d.description from slice s join thread_track tt "
		    "on tt.id = s.track_id join thread t using(utid) join describe_slice d "
		    "on d.slice_id = s.id where s.name = 'RunTask' order by t.name, s.ts",
		    "CrRendererMain\t80000000\tcontext\tlong task 80 ms: longest B 30 ms 38 %, "
		    "self 35 ms, 3 children, 2 B\n"
		    "CrRendererMain\t10000000\tname\ta task of 10 ms\n"
		    "Worker\t70000000\tname\ta task of 70 ms\n");
	/* glob and regex rank alike; the glob has a condition (max_dur), so it
	 * wins where the condition holds: the 2 ms A, not the 10 ms one */
	expect_rows(f->tr,
		    "select s.dur, d.kind, d.rule from slice s join describe_slice d on d.slice_id = s.id "
		    "where s.name = 'A' order by s.ts",
		    "10000000\tregex\tt.rules:16\n2000000\tcontext\tt.rules:12\n");
}

static void tracks(void **state)
{
	struct fx *f = *state;

	expect_rows(f->tr,
		    "select t.name, d.kind, d.rule, d.description, d.doc_link from thread_track tt "
		    "join thread t using(utid) join describe_track d on d.track_id = tt.id order by t.name",
		    "CrRendererMain\tname\tt.rules:25\tmain thread of pid 1, 6 slices\t"
		    "https://example.org/main\n"
		    "Worker\tfallback\tt.rules:29\tsome thread Worker\tNULL\n");
	assert_int_equal(tt_test_int(f->tr, "select count(*) from describe_track where track_id = 999"),
			 0);
}

/* describe_rules: what --lint reads. */
static void rule_stats(void **state)
{
	struct fx *f = *state;

	expect_rows(f->tr,
		    "select rule, target, kind, matcher, coalesce(doc_link, '-'), "
		    "coalesce(shadowed_by, '-'), matched, won, tied from describe_rules",
		    "t.rules:1\tslice\tname\tRunTask\t-\t-\t3\t2\t0\n"
		    "t.rules:4\tslice\tcontext\tRunTask\t-\t-\t1\t1\t0\n"
		    "t.rules:9\tslice\tname\tB\t-\t-\t2\t2\t0\n"
		    "t.rules:12\tslice\tcontext\tA*\t-\t-\t1\t1\t0\n"
		    "t.rules:16\tslice\tregex\t^A$\t-\t-\t2\t1\t0\n"
		    /* 19 is hidden by 22 (same rank, later): the worker's
		     * RunTask goes to the name rule, Zed is a tie lost */
		    "t.rules:19\tslice\tfallback\t\t-\tt.rules:22\t2\t0\t1\n"
		    "t.rules:22\tslice\tfallback\t\t-\t-\t2\t1\t0\n"
		    "t.rules:25\ttrack\tname\tCrRendererMain\thttps://example.org/main\t-\t1\t1\t0\n"
		    "t.rules:29\ttrack\tfallback\t\t-\t-\t2\t1\t0\n"
		    "t.rules:32\tslice\tname\tNowhere\thttp://example.org/plain\t-\t0\t0\t0\n");
}

/* describe_rules for one slice: the rules it matches, and the winner. */
static void rule_stats_one(void **state)
{
	struct fx *f = *state;

	expect_rows(f->tr,
		    "select rule, matched, won, tied from describe_rules where slice_id = "
		    "(select id from slice where name = 'RunTask' and dur = 80000000) and matched > 0",
		    "t.rules:1\t1\t0\t0\nt.rules:4\t1\t1\t0\n");
	expect_rows(f->tr,
		    "select rule, won, slice_id is null, track_id from describe_rules where track_id = "
		    "(select tt.id from thread_track tt join thread t using(utid) "
		    "where t.name = 'Worker') and matched > 0",
		    "t.rules:29\t1\t1\t1\n");
	assert_int_equal(tt_test_int(f->tr, "select count(*) from describe_rules where slice_id = 'x'"),
			 0);
}

/* Bad durations and slice-only conditions on tracks are reported. */
static void parse_errors(void **state)
{
	tt_describe_rules *r = tt_describe_rules_new();

	(void)state;
	assert_int_equal(tt_describe_rules_load_text(r, "e.rules",
						     "[rule]\nname = x\nmin_dur = fast\ndescription = d\n"
						     "[track]\nname = y\nancestor = z\ndescription = d\n"
						     "[rule]\nname = z\nmax_dur = 1.5 ms\ndescription = {self}\n"
						     "[rule]\nname = w\ndescription = {longest_kid}\n",
						     0),
			 TT_OK);
	assert_int_equal(tt_describe_rules_warning_count(r), 3);
	assert_string_equal(tt_describe_rules_warning(r, 0),
			    "e.rules:3: bad duration 'fast' (e.g. 50ms, 1.5 s, 200us)");
	assert_string_equal(tt_describe_rules_warning(r, 1),
			    "e.rules:5: a [track] rule may only use thread, process, track and track_type");
	assert_string_equal(tt_describe_rules_warning(r, 2),
			    "e.rules:13: unknown template field {longest_kid}");
	assert_int_equal(tt_describe_rules_count(r), 2); /* x (bad line dropped) and z */
	tt_describe_rules_unref(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(slices_by_kind, setup, teardown),
		cmocka_unit_test_setup_teardown(context_variants, setup, teardown),
		cmocka_unit_test_setup_teardown(tracks, setup, teardown),
		cmocka_unit_test_setup_teardown(rule_stats, setup, teardown),
		cmocka_unit_test_setup_teardown(rule_stats_one, setup, teardown),
		cmocka_unit_test(parse_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
