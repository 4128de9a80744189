/*
 * test_describe_cli.c - `termtrace describe TRACE SLICE_ID`
 * (tui/cmd_describe.c), called directly with stdout and stderr captured,
 * so it is tested before and independently of the dispatch in main.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_describe.h"
#include "termtrace.h"
#include "testutil.h"

static const char trace_json[] =
	"{\"traceEvents\":[\n"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":1500,\"name\":\"measure\"},\n"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":2000,\"dur\":1,\"name\":\"other\"}\n"
	"]}\n";

static const char rules_text[] =
	"[rule]\nname = measure\n"
	"description = The measure pass: each view is asked how big it wants to be given its\n"
	"  parent's constraints. This pass took {dur}, which is a long time for a pass.\n"
	"link = https://example.org/measure\n"
	"[rule]\nname = nolink\ndescription = x\n"
	"[rule]\nbad line here\nname = y\ndescription = y\n";

struct out {
	int rc;
	char *out, *err;
};

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 8192);

	assert_non_null(f);
	assert_true(fread(buf, 1, 8191, f) < 8191);
	fclose(f);
	return buf;
}

/* Runs tt_cmd_describe(args...) with stdout/stderr sent to temp files. */
static struct out run(int argc, char **argv)
{
	char *o = tt_test_write_tmp("", 0, ".out"), *e = tt_test_write_tmp("", 0, ".err");
	int so = dup(1), se = dup(2), fo = open(o, O_WRONLY | O_TRUNC), fe = open(e, O_WRONLY | O_TRUNC);
	struct out r;

	fflush(stdout);
	fflush(stderr);
	dup2(fo, 1);
	dup2(fe, 2);
	r.rc = tt_cmd_describe(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	close(fo);
	close(fe);
	r.out = slurp(o);
	r.err = slurp(e);
	tt_test_rm(o);
	tt_test_rm(e);
	return r;
}

static void free_out(struct out *r)
{
	free(r->out);
	free(r->err);
}

static void describe_cli(void **state)
{
	char *trace = tt_test_write_tmp(trace_json, strlen(trace_json), ".json");
	char *rules = tt_test_write_tmp(rules_text, strlen(rules_text), ".rules");
	char want_err[600];
	struct out r;

	(void)state;
	setenv("TT_DESCRIPTIONS_PATH", rules, 1);
	snprintf(want_err, sizeof(want_err), "termtrace: warning: %s:10: expected 'key = value' or [rule]\n",
		 rules);
	{
		char *argv[] = { "describe", trace, "0", NULL };

		r = run(3, argv);
		assert_int_equal(r.rc, 0);
		assert_string_equal(r.out,
			"measure  (slice 0, 1.5ms)\n"
			"The measure pass: each view is asked how big it wants to be given its parent's\n"
			"constraints. This pass took 1.5ms, which is a long time for a pass.\n"
			"link: https://example.org/measure\n");
		assert_string_equal(r.err, want_err);
		free_out(&r);
	}
	{
		char *argv[] = { "describe", "--wrap", "0", trace, "0", NULL };

		r = run(5, argv);
		assert_int_equal(r.rc, 0);
		assert_string_equal(r.out,
			"measure  (slice 0, 1.5ms)\n"
			"The measure pass: each view is asked how big it wants to be given its parent's "
			"constraints. This pass took 1.5ms, which is a long time for a pass.\n"
			"link: https://example.org/measure\n");
		free_out(&r);
	}
	{
		char *argv[] = { "describe", "--wrap", "30", trace, "0", NULL };

		r = run(5, argv);
		assert_int_equal(r.rc, 0);
		assert_string_equal(r.out,
			"measure  (slice 0, 1.5ms)\n"
			"The measure pass: each view is\n"
			"asked how big it wants to be\n"
			"given its parent's\n"
			"constraints. This pass took\n"
			"1.5ms, which is a long time\n"
			"for a pass.\n"
			"link: https://example.org/measure\n");
		free_out(&r);
	}
	{
		char *argv[] = { "describe", trace, "1", NULL };
		char want[1400];

		r = run(3, argv);
		assert_int_equal(r.rc, 1);
		assert_string_equal(r.out, "");
		snprintf(want, sizeof(want), "%stermtrace: %s: slice 1 (other) has no description\n",
			 want_err, trace);
		assert_string_equal(r.err, want);
		free_out(&r);
	}
	{
		char *argv[] = { "describe", trace, "7", NULL };
		char want[1400];

		r = run(3, argv);
		assert_int_equal(r.rc, 1);
		snprintf(want, sizeof(want), "%stermtrace: %s: no slice with id 7\n", want_err, trace);
		assert_string_equal(r.err, want);
		free_out(&r);
	}
	{
		char *argv1[] = { "describe", trace, NULL };
		char *argv2[] = { "describe", trace, "x1", NULL };
		char *argv3[] = { "describe", trace, "-1", NULL };
		char *argv4[] = { "describe", "--wrap", "q", trace, "0", NULL };

		r = run(2, argv1);
		assert_int_equal(r.rc, 2);
		free_out(&r);
		r = run(3, argv2);
		assert_int_equal(r.rc, 2);
		free_out(&r);
		r = run(3, argv3);
		assert_int_equal(r.rc, 2);
		free_out(&r);
		r = run(5, argv4);
		assert_int_equal(r.rc, 2);
		free_out(&r);
	}
	{
		char *argv[] = { "describe", "/nonexistent/trace.json", "0", NULL };

		r = run(3, argv);
		assert_int_equal(r.rc, 1);
		assert_non_null(strstr(r.err, "/nonexistent/trace.json"));
		free_out(&r);
	}
	unsetenv("TT_DESCRIPTIONS_PATH");
	tt_test_rm(trace);
	tt_test_rm(rules);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(describe_cli),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
