/*
 * test_tui_view_edges.c - the view (tui/view.c, layout.c) on traces whose
 * timestamps sit at the int64 edges: bounds wider than the view shows are
 * clamped with one message, every action keeps the window a real window
 * (span > 0, t0 + span representable), zoom and pan stop at their limits,
 * a resize keeps the window asked for. Traces are Chrome JSON written here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "keys.h"
#include "testutil.h"
#include "timemath.h"
#include "view.h"

/* Opens a JSON trace of the given events (the text between [ and ]). */
static tt_trace *open_json(const char *events, char **path)
{
	char text[4096];

	snprintf(text, sizeof text, "{\"traceEvents\":[%s]}", events);
	*path = tt_test_write_tmp(text, strlen(text), ".json");
	return tt_test_open(*path);
}

static void assert_window(const tt_view *v)
{
	assert_true(v->span > 0);
	assert_true(v->t0 <= INT64_MAX - v->span);
	assert_true(v->span <= TT_TM_MAX_SPAN + TT_TM_MAX_SPAN / 4 + v->tl_w);
}

/* Every action a few times, then zoom and pan to the limits: the window
 * stays a window, and the loops end (each action returns). */
static void sweep_actions(tt_view *v)
{
	for (int round = 0; round < 3; round++)
		for (int a = 1; a < TT_ACT_COUNT; a++) {
			tt_view_action(v, a);
			assert_window(v);
		}
	for (int i = 0; i < 200; i++) {
		tt_view_action(v, TT_ACT_ZOOM_OUT);
		assert_window(v);
	}
	for (int i = 0; i < 200; i++) {
		tt_view_action(v, TT_ACT_PAN_RIGHT);
		assert_window(v);
	}
	for (int i = 0; i < 200; i++) {
		tt_view_action(v, TT_ACT_PAN_LEFT);
		assert_window(v);
	}
	for (int i = 0; i < 200; i++) {
		tt_view_action(v, TT_ACT_ZOOM_IN);
		assert_window(v);
	}
	assert_int_equal(v->span, v->tl_w); /* the deepest zoom: 1 ns a cell */
	tt_view_set_window(v, INT64_MAX, INT64_MAX);
	assert_window(v);
	tt_view_set_window(v, INT64_MIN, INT64_MIN);
	assert_window(v);
	tt_view_goto(v, INT64_MAX);
	assert_window(v);
	tt_view_goto(v, INT64_MIN);
	assert_window(v);
}

static void test_bounds_from_min_to_max(void **state)
{
	char *path;
	tt_trace *tr = open_json(
		"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":-9223372036854000,\"dur\":1,\"name\":\"lo\"},"
		"{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":0,\"dur\":1,\"name\":\"mid\"},"
		"{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":5,\"dur\":1,\"name\":\"mid2\"},"
		"{\"ph\":\"X\",\"pid\":1,\"tid\":3,\"ts\":9223372036854000,\"dur\":1,\"name\":\"hi\"}",
		&path);
	tt_view v;

	(void)state;
	assert_int_equal(tt_view_init(&v, tr), 0);
	/* clamped to 2^61 ns around the median start (0) */
	assert_true(v.lay.clamped);
	assert_true(v.lay.trace_start == INT64_C(-9223372036854000000));
	assert_true(v.lay.trace_end == INT64_C(9223372036854001000));
	assert_true(v.lay.start == -TT_TM_MAX_SPAN / 2);
	assert_true(v.lay.end == TT_TM_MAX_SPAN / 2);
	assert_true(v.span == TT_TM_MAX_SPAN);
	assert_non_null(strstr(v.msg, "too wide: showing 73 years around the median slice"));
	assert_int_equal(v.msg_error, 1);
	tt_view_geometry(&v, 24, 80);
	assert_window(&v);
	sweep_actions(&v);
	tt_view_free(&v);
	tt_trace_close(tr);
	tt_test_rm(path);
}

static void test_near_max_and_long_durations(void **state)
{
	char *path;
	tt_trace *tr = open_json(
		"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":100,\"dur\":10,\"name\":\"a\"},"
		"{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":9223372036854000,\"dur\":775.807,\"name\":\"top\"},"
		"{\"ph\":\"X\",\"pid\":1,\"tid\":3,\"ts\":4611686018427387.904,\"dur\":4611686018427387.904,"
		"\"name\":\"past\"},"
		"{\"ph\":\"B\",\"pid\":1,\"tid\":4,\"ts\":9223372036854000,\"name\":\"open\"}",
		&path);
	tt_view v;

	(void)state;
	assert_int_equal(tt_view_init(&v, tr), 0);
	/* bounds 100 us .. INT64_MAX: wider than 2^61, clamped; the bulk
	 * (the median of 4 starts is 2^62) is what opens */
	assert_true(v.lay.clamped);
	assert_true(v.lay.trace_end == INT64_MAX);
	assert_true(v.lay.end - v.lay.start == TT_TM_MAX_SPAN);
	tt_view_geometry(&v, 24, 80);
	sweep_actions(&v);
	/* trace-end / trace-start go to the (clamped) bounds */
	tt_view_action(&v, TT_ACT_TRACE_END);
	assert_true(v.cursor == v.lay.end);
	tt_view_action(&v, TT_ACT_TRACE_START);
	assert_true(v.cursor == v.lay.start);
	tt_view_free(&v);
	tt_trace_close(tr);
	tt_test_rm(path);
}

static void test_one_instant_and_resize(void **state)
{
	char *path;
	tt_trace *tr = open_json("{\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":1,\"ts\":0,\"name\":\"only\"},"
				 "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":10,\"name\":\"x\"}",
				 &path);
	tt_view v;

	(void)state;
	assert_int_equal(tt_view_init(&v, tr), 0);
	assert_false(v.lay.clamped);
	tt_view_geometry(&v, 24, 80);
	sweep_actions(&v);
	/* a resize keeps the window asked for, even where a wider screen
	 * needs a wider minimum on the way */
	tt_view_set_window(&v, 2000, 100);
	int64_t t0 = v.t0, span = v.span;
	tt_view_geometry(&v, 100, 300);
	assert_true(v.span >= v.tl_w); /* 1 ns a cell at most */
	tt_view_geometry(&v, 5, 20);
	tt_view_geometry(&v, 24, 80);
	assert_true(v.t0 == t0);
	assert_true(v.span == span);
	tt_view_free(&v);
	tt_trace_close(tr);
	tt_test_rm(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bounds_from_min_to_max),
		cmocka_unit_test(test_near_max_and_long_durations),
		cmocka_unit_test(test_one_instant_and_resize),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
