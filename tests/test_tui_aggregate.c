/*
 * test_tui_aggregate.c - range aggregation and call trees (tui/aggregate.c,
 * tui/calltree.c) on hand-made slice sets: nesting, clipping at the range
 * edges, zero-duration slices, unfinished slices (dur = -1).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "calltree.h"
#include "testutil.h"

enum { A = 1, B, C, D, E };

/* Track 0: A[0,100) > B[10,40) > C[15,25); A > B[50,90) > D@60 (instant);
 *          A[120, unfinished) > E[130,150).  Track 1: A[0,50). */
static const int64_t ts[] = {0, 10, 15, 50, 60, 120, 130, 0};
static const int64_t dur[] = {100, 30, 10, 40, 0, -1, 20, 50};
static const uint32_t track[] = {0, 0, 0, 0, 0, 0, 0, 1};
static const uint32_t name[] = {A, B, C, B, D, A, E, A};
static const uint32_t depth[] = {0, 1, 2, 1, 2, 0, 1, 0};
static const int32_t parent[] = {-1, 0, 1, 0, 3, -1, 5, -1};
static const uint32_t cat[8], args[8];

static tt_slice_cols cols(void)
{
	tt_slice_cols sc = {8, ts, dur, track, name, cat, depth, parent, args};
	return sc;
}

static const tt_agg_row *row_named(const tt_agg *g, uint32_t n)
{
	for (size_t i = 0; i < g->nrows; i++)
		if (g->rows[i].name == n)
			return &g->rows[i];
	return NULL;
}

static void expect_row(const tt_agg *g, uint32_t n, int64_t count, int64_t wall, int64_t self, int64_t max)
{
	const tt_agg_row *r = row_named(g, n);
	assert_non_null(r);
	assert_int_equal(r->count, count);
	assert_int_equal(r->wall, wall);
	assert_int_equal(r->self, self);
	assert_int_equal(r->max, max);
}

static void test_whole(void **state)
{
	tt_slice_cols sc = cols();
	tt_agg g = {0};

	(void)state;
	assert_int_equal(tt_agg_slices(&g, &sc, NULL, 2, 0, 200, 200), 0);
	assert_int_equal(g.nslices, 8);
	assert_int_equal(g.nrows, 5);
	/* the unfinished A ends at the trace end (200): 100 + 80 + 50 */
	expect_row(&g, A, 3, 230, 230 - 30 - 40 - 20, 100);
	expect_row(&g, B, 2, 70, 60, 40);
	expect_row(&g, C, 1, 10, 10, 10);
	expect_row(&g, D, 1, 0, 0, 0); /* an instant counts, takes no time */
	expect_row(&g, E, 1, 20, 20, 20);
	/* sorted by wall, largest first */
	assert_int_equal(g.rows[0].name, A);
	assert_int_equal(g.rows[1].name, B);
	assert_int_equal(g.rows[2].name, E);
	assert_int_equal(g.rows[3].name, C);
	assert_int_equal(g.rows[4].name, D);
	assert_int_equal(g.busy[0], 180);
	assert_int_equal(g.busy[1], 50);
	/* any column: count, ascending */
	tt_agg_sort(&g, TT_AGG_COUNT, 0, NULL, NULL);
	assert_int_equal(g.rows[g.nrows - 1].name, A);
	tt_agg_sort(&g, TT_AGG_SELF, 1, NULL, NULL);
	assert_int_equal(g.rows[0].name, A);
	assert_int_equal(g.rows[1].name, B);
	tt_agg_free(&g);
}

static void test_clipped(void **state)
{
	tt_slice_cols sc = cols();
	tt_agg g = {0};
	uint8_t only1[2] = {0, 1};

	(void)state;
	/* [20, 55): A 35 + 30, B 20 + 5, C 5; D, the second A and E are out */
	assert_int_equal(tt_agg_slices(&g, &sc, NULL, 2, 20, 55, 200), 0);
	assert_int_equal(g.nslices, 5);
	expect_row(&g, A, 2, 65, 65 - 20 - 5, 35);
	expect_row(&g, B, 2, 25, 20, 20);
	expect_row(&g, C, 1, 5, 5, 5);
	assert_null(row_named(&g, D));
	assert_null(row_named(&g, E));
	/* the same from candidate ids (a superset: the out ones are left out) */
	uint32_t cand[] = {7, 0, 1, 2, 3, 4, 5};
	assert_int_equal(tt_agg_slices_ids(&g, &sc, cand, 7, 2, 20, 55, 200), 0);
	assert_int_equal(g.nslices, 5);
	expect_row(&g, A, 2, 65, 65 - 20 - 5, 35);
	expect_row(&g, B, 2, 25, 20, 20);
	assert_int_equal(g.busy[0], 35);
	assert_int_equal(g.busy[1], 30);
	/* one track */
	assert_int_equal(tt_agg_slices(&g, &sc, only1, 2, 20, 55, 200), 0);
	assert_int_equal(g.nrows, 1);
	expect_row(&g, A, 1, 30, 30, 30);
	/* an instant at the range start is in; one at its end is not */
	assert_int_equal(tt_agg_slices(&g, &sc, NULL, 2, 60, 61, 200), 0);
	expect_row(&g, D, 1, 0, 0, 0);
	expect_row(&g, B, 1, 1, 1, 1);
	expect_row(&g, A, 1, 1, 0, 1);
	assert_int_equal(tt_agg_slices(&g, &sc, NULL, 2, 55, 60, 200), 0);
	assert_null(row_named(&g, D));
	/* a slice ending at the range start is out */
	assert_int_equal(tt_agg_slices(&g, &sc, NULL, 2, 100, 110, 200), 0);
	assert_int_equal(g.nrows, 0);
	/* the unfinished slice, clipped */
	assert_int_equal(tt_agg_slices(&g, &sc, NULL, 2, 140, 1000, 200), 0);
	expect_row(&g, A, 1, 60, 50, 60);
	expect_row(&g, E, 1, 10, 10, 10);
	tt_agg_free(&g);
}

static void test_counter(void **state)
{
	int64_t cts[] = {0, 10, 20};
	double val[] = {1, 5, 3};
	uint32_t rows[] = {0, 1, 2};
	tt_agg_counter s;

	(void)state;
	tt_agg_counter_range(cts, val, rows, 3, 5, 25, &s);
	assert_int_equal(s.known, 1);
	assert_int_equal(s.n, 2);
	assert_true(s.min == 1 && s.max == 5);
	assert_true(s.mean == 3.5); /* (1*5 + 5*10 + 3*5) / 20 */
	assert_true(s.delta == 2);
	tt_agg_counter_range(cts, val, rows, 3, -10, -5, &s);
	assert_int_equal(s.known, 0);
	/* known from the first sample on */
	tt_agg_counter_range(cts, val, rows, 3, -10, 5, &s);
	assert_int_equal(s.n, 1);
	assert_true(s.mean == 1 && s.delta == 0);
	/* after the last sample: its value holds */
	tt_agg_counter_range(cts, val, rows, 3, 30, 40, &s);
	assert_int_equal(s.n, 0);
	assert_true(s.known && s.min == 3 && s.max == 3 && s.mean == 3);
}

static uint32_t child(const tt_calltree *ct, uint32_t node, uint32_t nm)
{
	for (uint32_t c = ct->nodes[node].child; c != TT_CT_NONE; c = ct->nodes[c].next)
		if (ct->nodes[c].name == nm)
			return c;
	fail_msg("no child %u under node %u", nm, node);
	return TT_CT_NONE;
}

static void expect_node(const tt_calltree *ct, uint32_t k, int64_t total, int64_t self, int64_t calls)
{
	assert_int_equal(ct->nodes[k].total, total);
	assert_int_equal(ct->nodes[k].self, self);
	assert_int_equal(ct->nodes[k].calls, calls);
}

static void test_calltree(void **state)
{
	tt_slice_cols sc = cols();
	tt_calltree ct;
	uint8_t only0[2] = {1, 0};

	(void)state;
	assert_int_equal(tt_calltree_build(&ct, &sc, NULL, 2, 0, 200, 200, 0, 0, NULL, NULL), 0);
	assert_int_equal(ct.nslices, 8);
	assert_int_equal(ct.nodes[0].total, 230); /* the roots' walls */
	uint32_t a = child(&ct, 0, A);
	expect_node(&ct, a, 230, 140, 3);
	uint32_t b = child(&ct, a, B), e = child(&ct, a, E);
	expect_node(&ct, b, 70, 60, 2);
	expect_node(&ct, e, 20, 20, 1);
	assert_int_equal(ct.nodes[a].child, b); /* largest first */
	expect_node(&ct, child(&ct, b, C), 10, 10, 1);
	expect_node(&ct, child(&ct, b, D), 0, 0, 1);
	assert_int_equal(ct.node_of[2], child(&ct, b, C));
	assert_int_equal(ct.node_of[7], a); /* both tracks merge by name */
	tt_calltree_free(&ct);

	/* clipped */
	assert_int_equal(tt_calltree_build(&ct, &sc, NULL, 2, 20, 55, 200, 0, 0, NULL, NULL), 0);
	a = child(&ct, 0, A);
	expect_node(&ct, a, 65, 40, 2);
	expect_node(&ct, child(&ct, a, B), 25, 20, 2);
	expect_node(&ct, child(&ct, child(&ct, a, B), C), 5, 5, 1);
	tt_calltree_free(&ct);

	/* of one slice: B[10, 40) at depth 1 on track 0 */
	assert_int_equal(tt_calltree_build(&ct, &sc, only0, 2, 10, 40, 200, 1, 0, NULL, NULL), 0);
	assert_int_equal(ct.nodes[0].total, 30);
	b = child(&ct, 0, B);
	expect_node(&ct, b, 30, 20, 1);
	expect_node(&ct, child(&ct, b, C), 10, 10, 1);
	assert_int_equal(ct.nodes[b].next, TT_CT_NONE);
	tt_calltree_free(&ct);
}

static void test_bottomup(void **state)
{
	tt_slice_cols sc = cols();
	tt_calltree ct;

	(void)state;
	assert_int_equal(tt_calltree_build(&ct, &sc, NULL, 2, 0, 200, 200, 0, 1, NULL, NULL), 0);
	assert_int_equal(ct.nodes[0].total, 230); /* self times add up to the roots' walls */
	uint32_t a = child(&ct, 0, A), b = child(&ct, 0, B), c = child(&ct, 0, C), d = child(&ct, 0, D);
	expect_node(&ct, a, 140, 140, 3);
	expect_node(&ct, b, 60, 60, 2);
	/* callers under each: B is called by A; C by B by A */
	assert_int_equal(ct.nodes[child(&ct, b, A)].total, 60);
	assert_int_equal(ct.nodes[child(&ct, child(&ct, c, B), A)].total, 10);
	assert_int_equal(ct.nodes[d].total, 0);
	assert_int_equal(ct.nodes[d].calls, 1);
	assert_int_equal(ct.nodes[child(&ct, 0, E)].total, 20);
	tt_calltree_free(&ct);
}

static int cancel_now(void *ctx, size_t done, size_t total)
{
	(void)ctx;
	(void)done;
	(void)total;
	return 1;
}

static void test_cancel(void **state)
{
	/* 70,000 slices: the progress callback runs and cancels */
	size_t n = 70000;
	int64_t *t = calloc(n, 8), *du = calloc(n, 8);
	uint32_t *z = calloc(n, 4);
	int32_t *p = malloc(n * 4);
	tt_calltree ct;

	(void)state;
	for (size_t i = 0; i < n; i++) {
		t[i] = (int64_t)i * 10;
		du[i] = 5;
		p[i] = -1;
	}
	tt_slice_cols sc = {n, t, du, z, z, z, z, p, z};
	assert_int_equal(tt_calltree_build(&ct, &sc, NULL, 1, 0, (int64_t)n * 10, 0, 0, 0, cancel_now, NULL), 1);
	assert_int_equal(tt_calltree_build(&ct, &sc, NULL, 1, 0, (int64_t)n * 10, 0, 0, 0, NULL, NULL), 0);
	assert_int_equal(ct.nodes[0].total, (int64_t)n * 5);
	assert_int_equal(ct.nodes[child(&ct, 0, 0)].calls, (int64_t)n);
	tt_calltree_free(&ct);
	free(t);
	free(du);
	free(z);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole),
		cmocka_unit_test(test_clipped),
		cmocka_unit_test(test_counter),
		cmocka_unit_test(test_calltree),
		cmocka_unit_test(test_bottomup),
		cmocka_unit_test(test_cancel),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
