/*
 * test_tui_search.c - smartcase matching (tui/search.c) and the flow
 * index walks (tui/flows.c) on hand-made data.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "flows.h"
#include "search.h"
#include "testutil.h"

static void test_smartcase(void **state)
{
	(void)state;
	assert_true(tt_search_icase("runmicro"));
	assert_false(tt_search_icase("RunMicro"));
	assert_true(tt_search_icase("v8.42 _-"));
	/* the needle of an icase search is lower case (search.c folds it) */
	assert_true(tt_search_has("RunMicrotasks", "runmicro", 1));
	assert_true(tt_search_has("RUNMICROTASKS", "tasks", 1));
	assert_false(tt_search_has("RunMicrotasks", "RunMacro", 0));
	assert_true(tt_search_has("RunMicrotasks", "Micro", 0));
	assert_false(tt_search_has("RunMicrotasks", "micro", 0)); /* a capital elsewhere: case matters */
	assert_true(tt_search_has("abc", "", 1));
	assert_false(tt_search_has("", "a", 1));
	assert_true(tt_search_has("xxaab", "aab", 1)); /* a restart inside a partial match */
	assert_false(tt_search_has("ab", "abc", 1));   /* the needle runs past the end */
}

/* 0 -> 1 -> 2, 3 -> 1, 4 alone, 5 -> 6 */
static void test_flows_index(void **state)
{
	uint32_t out_off[] = {0, 1, 2, 2, 3, 3, 4, 4};
	int64_t out_to[] = {1, 2, 1, 6};
	uint32_t in_off[] = {0, 0, 2, 3, 3, 3, 3, 4};
	int64_t in_from[] = {0, 3, 1, 5};
	tt_flows f = {.nslices = 7, .n = 4, .out_off = out_off, .in_off = in_off, .out_to = out_to,
		      .in_from = in_from, .psel = -1};
	tt_flow_ref refs[8];
	int64_t *ids;
	int *dist;

	(void)state;
	assert_int_equal(tt_flows_has(&f, 1), 3);
	assert_int_equal(tt_flows_has(&f, 0), 1);
	assert_int_equal(tt_flows_has(&f, 2), 2);
	assert_int_equal(tt_flows_has(&f, 4), 0);
	assert_int_equal(tt_flows_has(&f, 99), 0);
	/* incoming first, then outgoing */
	assert_int_equal(tt_flows_of(&f, 1, refs, 8), 3);
	assert_int_equal(refs[0].partner, 0);
	assert_int_equal(refs[0].out, 0);
	assert_int_equal(refs[1].partner, 3);
	assert_int_equal(refs[2].partner, 2);
	assert_int_equal(refs[2].out, 1);
	assert_int_equal(tt_flows_of(&f, 1, refs, 1), 3); /* the count, whatever max */
	/* one by one, in the same order, without a copy */
	for (size_t i = 0; i < 3; i++) {
		tt_flow_ref r = tt_flows_at(&f, 1, i);
		assert_int_equal(r.partner, refs[i].partner);
	}
	assert_int_equal(tt_flows_at(&f, 1, 2).out, 1);
	assert_int_equal(tt_flows_at(&f, 1, 0).out, 0);
	/* the chain of 2: every slice connected, hop counts breadth first */
	long n = tt_flows_chain(&f, 2, &ids, &dist, NULL, NULL);
	assert_int_equal(n, 4);
	assert_int_equal(ids[0], 2);
	assert_int_equal(dist[0], 0);
	assert_int_equal(ids[1], 1);
	assert_int_equal(dist[1], 1);
	assert_true((ids[2] == 0 && ids[3] == 3) || (ids[2] == 3 && ids[3] == 0));
	assert_int_equal(dist[2], 2);
	assert_int_equal(dist[3], 2);
	free(ids);
	free(dist);
	assert_int_equal(tt_flows_chain(&f, 4, &ids, &dist, NULL, NULL), 1);
	free(ids);
	free(dist);
	assert_int_equal(tt_flows_chain(&f, 5, &ids, &dist, NULL, NULL), 2);
	free(ids);
	free(dist);
}

/* The details panel's flow keys (UTF-8 and ASCII) name their flow; the
 * mouse maps a row back to it. */
static void test_flows_line_index(void **state)
{
	(void)state;
	assert_int_equal(tt_flows_line_index("\xe2\x96\xb6\xe2\x86\x92 1"), 0);
	assert_int_equal(tt_flows_line_index(" \xe2\x86\x90 12"), 11);
	assert_int_equal(tt_flows_line_index(">-> 150000"), 149999);
	assert_int_equal(tt_flows_line_index(" <- 3"), 2);
	assert_int_equal(tt_flows_line_index("flows"), -1);
	assert_int_equal(tt_flows_line_index("   task_delay_us"), -1);
	assert_int_equal(tt_flows_line_index(" a 3"), -1);   /* no arrow */
	assert_int_equal(tt_flows_line_index(" -> 0"), -1);  /* flows count from 1 */
	assert_int_equal(tt_flows_line_index(" -> 3x"), -1);
}

static int cancel_at(void *ctx, size_t done, size_t total)
{
	int *calls = ctx;

	(void)total;
	assert_true(done > 0);
	return ++*calls == 2;
}

/* A chain of 200,000 slices (i -> i + 1): walked whole, and a progress
 * callback that cancels stops the walk. */
static void test_flows_long_chain(void **state)
{
	size_t n = 200000;
	uint32_t *out_off = malloc((n + 1) * sizeof *out_off), *in_off = malloc((n + 1) * sizeof *in_off);
	int64_t *out_to = malloc(n * sizeof *out_to), *in_from = malloc(n * sizeof *in_from);
	int64_t *ids;
	int *dist, calls = 0;

	(void)state;
	out_off[0] = in_off[0] = 0;
	for (size_t i = 0; i < n; i++) {
		out_off[i + 1] = out_off[i] + (i + 1 < n);
		in_off[i + 1] = in_off[i] + (i > 0);
		if (i + 1 < n)
			out_to[out_off[i]] = (int64_t)i + 1;
		if (i > 0)
			in_from[in_off[i]] = (int64_t)i - 1;
	}
	tt_flows f = {.nslices = n, .n = n - 1, .out_off = out_off, .in_off = in_off, .out_to = out_to,
		      .in_from = in_from, .psel = -1};
	assert_int_equal(tt_flows_chain(&f, 1000, &ids, &dist, NULL, NULL), (long)n);
	assert_int_equal(ids[0], 1000);
	/* both ends: 1000 hops back to 0, n - 1001 forward */
	int maxd = 0;
	for (size_t i = 0; i < n; i++)
		if (dist[i] > maxd)
			maxd = dist[i];
	assert_int_equal(maxd, (int)(n - 1001));
	free(ids);
	free(dist);
	assert_int_equal(tt_flows_chain(&f, 0, &ids, &dist, cancel_at, &calls), -2);
	assert_int_equal(calls, 2);
	assert_null(ids);
	free(out_off);
	free(in_off);
	free(out_to);
	free(in_from);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_smartcase),
		cmocka_unit_test(test_flows_index),
		cmocka_unit_test(test_flows_line_index),
		cmocka_unit_test(test_flows_long_chain),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
