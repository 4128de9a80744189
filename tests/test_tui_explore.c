/*
 * test_tui_explore.c - the logic under the call tree beside the timeline
 * and the mouse of issue 14: the slices of a call tree node (what the
 * timeline highlights as the panel's cursor moves), top-down and
 * bottom-up, on a hand-made slice set; double-click counting and the
 * SGR 1006 reports.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "calltree.h"
#include "mouse.h"
#include "testutil.h"

enum { A = 1, B, C, D, E };

/* Track 0: A[0,100) > B[10,40) > C[15,25); A > B[50,90) > D@60 (instant);
 *          A[120, unfinished) > E[130,150).  Track 1: A[0,50) > C[5,10). */
static const int64_t ts[] = {0, 10, 15, 50, 60, 120, 130, 0, 5};
static const int64_t dur[] = {100, 30, 10, 40, 0, -1, 20, 50, 5};
static const uint32_t track[] = {0, 0, 0, 0, 0, 0, 0, 1, 1};
static const uint32_t name[] = {A, B, C, B, D, A, E, A, C};
static const uint32_t depth[] = {0, 1, 2, 1, 2, 0, 1, 0, 1};
static const int32_t parent[] = {-1, 0, 1, 0, 3, -1, 5, -1, 7};
static const uint32_t zero[9];

static tt_slice_cols cols(void)
{
	tt_slice_cols sc = {9, ts, dur, track, name, zero, depth, parent, zero};
	return sc;
}

static uint32_t child(const tt_calltree *ct, uint32_t node, uint32_t nm)
{
	for (uint32_t c = ct->nodes[node].child; c != TT_CT_NONE; c = ct->nodes[c].next)
		if (ct->nodes[c].name == nm)
			return c;
	fail_msg("no child %u under node %u", nm, node);
	return TT_CT_NONE;
}

/* ids of node k, as a comparable list */
static void expect_slices(tt_calltree *ct, const tt_slice_cols *sc, uint32_t k, const int64_t *want, long n)
{
	int64_t *ids;
	long got = tt_calltree_node_slices(ct, sc, k, &ids);

	assert_int_equal(got, n);
	for (long i = 0; i < n; i++)
		assert_int_equal(ids[i], want[i]);
	free(ids);
}

static void test_node_slices_topdown(void **state)
{
	tt_slice_cols sc = cols();
	tt_calltree ct;

	(void)state;
	assert_int_equal(tt_calltree_build(&ct, &sc, NULL, 2, 0, 200, 200, 0, 0, NULL, NULL), 0);
	uint32_t a = child(&ct, 0, A), b = child(&ct, a, B), c = child(&ct, b, C), ac = child(&ct, a, C);
	/* A on both tracks merges into one node: its three slices */
	expect_slices(&ct, &sc, a, (const int64_t[]){0, 5, 7}, 3);
	expect_slices(&ct, &sc, b, (const int64_t[]){1, 3}, 2);
	/* C under B under A is not C right under A */
	expect_slices(&ct, &sc, c, (const int64_t[]){2}, 1);
	expect_slices(&ct, &sc, ac, (const int64_t[]){8}, 1);
	expect_slices(&ct, &sc, child(&ct, b, D), (const int64_t[]){4}, 1);
	/* the root stands for everything: no highlight */
	int64_t *ids;
	assert_int_equal(tt_calltree_node_slices(&ct, &sc, 0, &ids), 0);
	assert_int_equal(tt_calltree_node_slices(&ct, &sc, (uint32_t)ct.n, &ids), 0);
	tt_calltree_free(&ct);

	/* a range [20, 55): only what intersects it */
	assert_int_equal(tt_calltree_build(&ct, &sc, NULL, 2, 20, 55, 200, 0, 0, NULL, NULL), 0);
	a = child(&ct, 0, A);
	expect_slices(&ct, &sc, a, (const int64_t[]){0, 7}, 2);
	expect_slices(&ct, &sc, child(&ct, a, B), (const int64_t[]){1, 3}, 2);
	tt_calltree_free(&ct);
}

static void test_node_slices_bottomup(void **state)
{
	tt_slice_cols sc = cols();
	tt_calltree ct;

	(void)state;
	assert_int_equal(tt_calltree_build(&ct, &sc, NULL, 2, 0, 200, 200, 0, 1, NULL, NULL), 0);
	uint32_t c = child(&ct, 0, C), b = child(&ct, 0, B);
	/* a root: the slices of its name */
	expect_slices(&ct, &sc, c, (const int64_t[]){2, 8}, 2);
	/* C's callers: B (slice 1, C's parent on track 0), A (slice 7, on
	 * track 1) */
	uint32_t cb = child(&ct, c, B);
	expect_slices(&ct, &sc, cb, (const int64_t[]){1}, 1);
	expect_slices(&ct, &sc, child(&ct, c, A), (const int64_t[]){7}, 1);
	/* C <- B <- A: the A that calls a B that calls C */
	expect_slices(&ct, &sc, child(&ct, cb, A), (const int64_t[]){0}, 1);
	/* B's caller A: slice 0 once, though both B's are its children */
	expect_slices(&ct, &sc, child(&ct, b, A), (const int64_t[]){0}, 1);
	tt_calltree_free(&ct);

	/* of one slice (min depth 1, B[10, 40) on track 0): B is a root and
	 * has no callers */
	uint8_t only0[2] = {1, 0};
	assert_int_equal(tt_calltree_build(&ct, &sc, only0, 2, 10, 40, 200, 1, 1, NULL, NULL), 0);
	b = child(&ct, 0, B);
	assert_int_equal(ct.nodes[b].child, TT_CT_NONE);
	c = child(&ct, 0, C);
	expect_slices(&ct, &sc, child(&ct, c, B), (const int64_t[]){1}, 1);
	tt_calltree_free(&ct);
}

static void test_double_click(void **state)
{
	tt_clicks c = {0};

	(void)state;
	assert_int_equal(tt_mouse_clicks(&c, 10, 5, 100.0), 1);
	assert_int_equal(tt_mouse_clicks(&c, 10, 5, 100.2), 2);   /* same cell, soon */
	assert_int_equal(tt_mouse_clicks(&c, 10, 5, 100.3), 1);   /* a third: a new click */
	assert_int_equal(tt_mouse_clicks(&c, 10, 5, 101.0), 1);   /* too late */
	assert_int_equal(tt_mouse_clicks(&c, 11, 5, 101.1), 1);   /* another cell */
	assert_int_equal(tt_mouse_clicks(&c, 11, 5, 101.1 + TT_DOUBLE_CLICK_S - 0.01), 2);
	assert_int_equal(tt_mouse_clicks(&c, 11, 6, 101.6), 1);

	/* ncurses merges reports that arrive together */
	MEVENT ev = {.x = 3, .y = 4, .bstate = BUTTON1_CLICKED};
	c = (tt_clicks){0};
	assert_int_equal(tt_mouse_press(&c, &ev, 5.0), 1);
	ev.bstate = BUTTON1_DOUBLE_CLICKED;
	assert_int_equal(tt_mouse_press(&c, &ev, 9.0), 2);
	ev.bstate = BUTTON1_RELEASED;
	assert_int_equal(tt_mouse_press(&c, &ev, 9.1), 0);
	ev.bstate = BUTTON4_PRESSED;
	assert_int_equal(tt_mouse_press(&c, &ev, 9.1), 0);
	ev.bstate = BUTTON1_PRESSED;
	assert_int_equal(tt_mouse_press(&c, &ev, 9.2), 1); /* after a double: a new click */
}

static void test_sgr(void **state)
{
	MEVENT ev;

	(void)state;
	assert_int_equal(tt_mouse_parse_sgr("0;240;7M", &ev), 0);
	assert_int_equal(ev.x, 239);
	assert_int_equal(ev.y, 6);
	assert_true(ev.bstate & BUTTON1_PRESSED);
	assert_int_equal(tt_mouse_parse_sgr("0;1;1m", &ev), 0);
	assert_true(ev.bstate & BUTTON1_RELEASED);
	assert_int_equal(tt_mouse_parse_sgr("65;10;10M", &ev), 0);
	assert_true(ev.bstate & BUTTON5_PRESSED);
	assert_int_equal(tt_mouse_parse_sgr("80;60;10M", &ev), 0); /* Ctrl-wheel */
	assert_true(ev.bstate & BUTTON4_PRESSED);
	assert_true(ev.bstate & BUTTON_CTRL);
	assert_int_equal(tt_mouse_parse_sgr("32;5;5M", &ev), -1);  /* motion */
	assert_int_equal(tt_mouse_parse_sgr("0;0;5M", &ev), -1);
	assert_int_equal(tt_mouse_parse_sgr("0;5", &ev), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_node_slices_topdown),
		cmocka_unit_test(test_node_slices_bottomup),
		cmocka_unit_test(test_double_click),
		cmocka_unit_test(test_sgr),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
