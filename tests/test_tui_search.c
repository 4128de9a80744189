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
	tt_flows f = {7, 4, out_off, in_off, out_to, in_from};
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
	/* the chain of 2: every slice connected, hop counts breadth first */
	long n = tt_flows_chain(&f, 2, &ids, &dist);
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
	assert_int_equal(tt_flows_chain(&f, 4, &ids, &dist), 1);
	free(ids);
	free(dist);
	assert_int_equal(tt_flows_chain(&f, 5, &ids, &dist), 2);
	free(ids);
	free(dist);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_smartcase),
		cmocka_unit_test(test_flows_index),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
