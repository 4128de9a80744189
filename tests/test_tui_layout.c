/*
 * test_tui_layout.c - what the viewer shows of a real trace: the details
 * panel's lines (tui/details.c), pinned query tracks with their nesting
 * depths (tui/layout.c) and selection on them (tui/view.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "details.h"
#include "layout.h"
#include "testutil.h"
#include "view.h"

typedef struct lines {
	int n;
	char text[40][400];
} lines;

static void collect(void *ctx, const char *key, const char *value)
{
	lines *l = ctx;

	if (l->n < 40)
		snprintf(l->text[l->n], sizeof l->text[0], "%s\t%s", key, value);
	l->n++;
}

static void test_details_lines(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("uftrace-work.json"));
	tt_view v;
	lines l = {0};

	(void)state;
	assert_int_equal(tt_view_init(&v, tr), 0);
	tt_view_geometry(&v, 40, 120);
	/* slice 3: srand, depth 1 under main (2), on the main thread */
	assert_true(tt_view_select_slice(&v, 3) & TT_SEL_CHANGED);
	tt_details_lines(&v, collect, &l);
	assert_true(l.n >= 10);
	assert_string_equal(l.text[0], "name\tsrand");
	assert_string_equal(l.text[1], "category\t");
	assert_string_equal(l.text[2], "ts\t4.106us  (990953182436 ns)");
	assert_string_equal(l.text[3], "dur\t1.432us");
	assert_string_equal(l.text[4], "track\t[9898] work 9898");
	assert_string_equal(l.text[5], "thread\t[9898] work 9898");
	assert_string_equal(l.text[6], "process\t[9898] work 9898");
	assert_string_equal(l.text[7], "depth\t1");
	assert_string_equal(l.text[8], "parent\tmain (id 2)");
	assert_string_equal(l.text[9], "id\t3");
	tt_view_free(&v);
	tt_trace_close(tr);
}

static void test_pinned_track(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("chromium-tiny.json"));
	tt_view v;
	tt_result r = {0};
	tt_err err = {0};
	lines l = {0};

	(void)state;
	assert_int_equal(tt_view_init(&v, tr), 0);
	tt_view_geometry(&v, 40, 120);
	int ntracks = v.lay.ntracks, ngroups = v.lay.ngroups;
	/* a query without the needed columns is refused */
	assert_int_equal(tt_query_collect(tr, "select 1 as ts, 2 as dur", 0, &r, &err), TT_OK);
	assert_int_equal(tt_layout_pin(&v.lay, &r, "bad", &err), -1);
	assert_string_equal(err.msg, "pin: the query needs columns ts, dur and name");
	tt_result_free(&r);
	/* nested rows get depths: [0,100) holds [10,20) holds [12,15); [50,60) */
	assert_int_equal(tt_query_collect(tr,
		"select 50 as ts, 10 as dur, 'c' as name, 'My pins' as track_name "
		"union all select 0, 100, 'a', 'My pins' "
		"union all select 10, 10, 'b', 'My pins' "
		"union all select 12, 3, 'd', 'My pins'", 0, &r, &err), TT_OK);
	int t = tt_layout_pin(&v.lay, &r, "pin", &err);
	tt_result_free(&r);
	assert_int_equal(t, ntracks);
	assert_int_equal(v.lay.ntracks, ntracks + 1);
	assert_int_equal(v.lay.ngroups, ngroups + 1);
	tt_ltrack *pt = &v.lay.tracks[t];
	assert_string_equal(pt->name, "My pins");
	assert_int_equal(pt->ndepth, 3);
	assert_int_equal(pt->pdepth[0], 1); /* c inside a */
	assert_int_equal(pt->pdepth[1], 0); /* a */
	assert_int_equal(pt->pdepth[2], 1); /* b */
	assert_int_equal(pt->pdepth[3], 2); /* d */
	/* the pinned group sits first (no annotations here) */
	assert_string_equal(v.lay.groups[0].name, "Pinned");
	assert_int_equal(v.lay.lines[0].track, -1);
	assert_int_equal(v.lay.lines[1].track, t);
	/* select d, then its parent b, then a; details of a pinned slice */
	tt_view_select(&v, t, 3);
	tt_view_action(&v, TT_ACT_PARENT);
	assert_int_equal(v.sel_id, 2);
	tt_view_action(&v, TT_ACT_PARENT);
	assert_int_equal(v.sel_id, 1);
	tt_view_action(&v, TT_ACT_CHILD);
	assert_int_equal(v.sel_id, 2);
	tt_view_action(&v, TT_ACT_NEXT_SLICE); /* b -> c on depth 1 */
	assert_int_equal(v.sel_id, 0);
	tt_details_lines(&v, collect, &l);
	assert_int_equal(l.n, 4);
	assert_string_equal(l.text[0], "name\tc");
	assert_string_equal(l.text[3], "track\tMy pins");
	tt_view_free(&v);
	tt_trace_close(tr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_details_lines),
		cmocka_unit_test(test_pinned_track),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
