/*
 * test_tui_keys.c - the key handling state machine: the action table and
 * config parser (tui/keys.c), the command-bar editor and its history
 * (tui/cmdbar.c), and the actions on a view of a real trace (tui/view.c):
 * zoom, pan, track moves, selection, parent/child/next/prev, search.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curses.h>

#include "cmdbar.h"
#include "keys.h"
#include "testutil.h"
#include "view.h"

static void test_default_bindings(void **state)
{
	tt_config cfg;

	(void)state;
	tt_config_init(&cfg);
	assert_int_equal(tt_config_action(&cfg, 'q'), TT_ACT_QUIT);
	assert_int_equal(tt_config_action(&cfg, 'w'), TT_ACT_ZOOM_IN);
	assert_int_equal(tt_config_action(&cfg, 'W'), TT_ACT_ZOOM_IN);
	assert_int_equal(tt_config_action(&cfg, '+'), TT_ACT_ZOOM_IN);
	assert_int_equal(tt_config_action(&cfg, '-'), TT_ACT_ZOOM_OUT);
	assert_int_equal(tt_config_action(&cfg, KEY_LEFT), TT_ACT_PAN_LEFT);
	assert_int_equal(tt_config_action(&cfg, 'D'), TT_ACT_PAN_RIGHT);
	assert_int_equal(tt_config_action(&cfg, 'j'), TT_ACT_TRACK_DOWN);
	assert_int_equal(tt_config_action(&cfg, '\r'), TT_ACT_SELECT);
	assert_int_equal(tt_config_action(&cfg, KEY_ENTER), TT_ACT_SELECT);
	assert_int_equal(tt_config_action(&cfg, ']'), TT_ACT_NEXT);
	assert_int_equal(tt_config_action(&cfg, 'u'), TT_ACT_PARENT);
	assert_int_equal(tt_config_action(&cfg, 'p'), TT_ACT_PARENT);
	assert_int_equal(tt_config_action(&cfg, 'c'), TT_ACT_CHILD);
	assert_int_equal(tt_config_action(&cfg, 'Z'), TT_ACT_PANEL);
	assert_int_equal(tt_config_action(&cfg, 'Q'), TT_ACT_NONE);
	/* every action is reachable from a key, so help lists no dead entry */
	for (int a = 1; a < TT_ACT_COUNT; a++) {
		char keys[128];
		tt_config_keys_of(&cfg, a, keys, sizeof keys);
		if (!keys[0])
			fail_msg("action %s has no default key", tt_action_name(a));
		assert_true(tt_action_help(a)[0] != 0);
	}
	char keys[128];
	tt_config_keys_of(&cfg, TT_ACT_ZOOM_IN, keys, sizeof keys);
	assert_string_equal(keys, "w W + =");
}

static void test_user_config(void **state)
{
	tt_config cfg;
	tt_test_warns w = {0};

	(void)state;
	tt_config_init(&cfg);
	assert_int_equal(tt_config_parse(&cfg,
		"# my bindings\n"
		"bind x quit\n"
		"bind C-x help   # ctrl-x\n"
		"unbind q\n"
		"set theme light\n"
		"set details right\n"
		"bind nokey quit\n"
		"bind z nosuchaction\n"
		"frobnicate\n"
		"bind # search\n"
		"set details sideways\n"
		"bind F5 zoom-all\n", "cfg", tt_test_collect_warning, &w), 4);
	assert_int_equal(w.n, 4);
	assert_string_equal(w.msg[0], "cfg:7: unknown key 'nokey'");
	assert_string_equal(w.msg[1], "cfg:8: unknown action 'nosuchaction'");
	assert_string_equal(w.msg[2], "cfg:9: unknown command 'frobnicate'");
	assert_string_equal(w.msg[3], "cfg:11: bad details position 'sideways'");
	assert_int_equal(tt_config_action(&cfg, 'x'), TT_ACT_QUIT);
	assert_int_equal(tt_config_action(&cfg, 24), TT_ACT_HELP);
	assert_int_equal(tt_config_action(&cfg, 'q'), TT_ACT_NONE);
	assert_int_equal(tt_config_action(&cfg, '#'), TT_ACT_SEARCH);
	assert_int_equal(tt_config_action(&cfg, KEY_F(5)), TT_ACT_ZOOM_ALL);
	assert_string_equal(cfg.theme, "light");
	assert_int_equal(cfg.details, TT_DETAILS_RIGHT);
}

static void test_key_names(void **state)
{
	static const char *const names[] = {"q", "C-c", "Enter", "Tab", "Esc", "Space", "Up",
					    "PgDn", "Home", "F1", "F12", "?", "[", "Left"};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		int k = tt_key_parse(names[i]);
		assert_true(k >= 0);
		tt_key_name(k, buf, sizeof buf);
		assert_string_equal(buf, names[i]);
	}
	assert_int_equal(tt_key_parse("C-c"), 3);
	assert_int_equal(tt_key_parse("Nope"), -1);
	assert_int_equal(tt_key_parse("C-1"), -1);
	assert_int_equal(tt_action_lookup("zoom-in"), TT_ACT_ZOOM_IN);
	assert_int_equal(tt_action_lookup("zoom"), TT_ACT_NONE);
	assert_string_equal(tt_action_name(TT_ACT_NEXT_ALERT), "next-alert");
}

static void type(tt_cmdbar *cb, const char *s)
{
	for (; *s; s++)
		assert_int_equal(tt_cmdbar_key(cb, (unsigned char)*s), TT_CB_EDIT);
}

static void test_cmdbar_editing(void **state)
{
	tt_cmdbar cb = {0};

	(void)state;
	tt_cmdbar_open(&cb, ':');
	type(&cb, "select 1");
	assert_string_equal(cb.buf, "select 1");
	tt_cmdbar_key(&cb, KEY_BACKSPACE);
	type(&cb, "2");
	assert_string_equal(cb.buf, "select 2");
	tt_cmdbar_key(&cb, KEY_HOME);
	type(&cb, "x");
	assert_string_equal(cb.buf, "xselect 2");
	tt_cmdbar_key(&cb, KEY_DC);
	assert_string_equal(cb.buf, "xelect 2");
	tt_cmdbar_key(&cb, KEY_END);
	tt_cmdbar_key(&cb, 23); /* C-w */
	assert_string_equal(cb.buf, "xelect ");
	tt_cmdbar_key(&cb, 21); /* C-u */
	assert_string_equal(cb.buf, "");
	type(&cb, "\xc3\xa9t\xc3\xa9"); /* été: backspace removes whole characters */
	tt_cmdbar_key(&cb, KEY_BACKSPACE);
	assert_string_equal(cb.buf, "\xc3\xa9t");
	tt_cmdbar_key(&cb, KEY_LEFT);
	tt_cmdbar_key(&cb, KEY_LEFT);
	assert_int_equal(cb.pos, 0);
	assert_int_equal(tt_cmdbar_key(&cb, '\n'), TT_CB_SUBMIT);
	assert_int_equal(tt_cmdbar_key(&cb, 27), TT_CB_CANCEL);
	assert_int_equal(tt_cmdbar_key(&cb, 3), TT_CB_CANCEL);
	tt_cmdbar_open(&cb, ':');
	assert_int_equal(tt_cmdbar_key(&cb, KEY_BACKSPACE), TT_CB_CANCEL);
	tt_cmdbar_free(&cb);
}

static void test_cmdbar_history(void **state)
{
	tt_cmdbar cb = {0}, cb2 = {0};
	char *dir = tt_test_mkdtemp();
	char path[512];

	(void)state;
	snprintf(path, sizeof path, "%s/sub/history", dir);
	tt_cmdbar_remember(&cb, "one");
	tt_cmdbar_remember(&cb, "two");
	tt_cmdbar_remember(&cb, "two"); /* no repeats */
	tt_cmdbar_remember(&cb, "");
	assert_int_equal(cb.nhist, 2);
	tt_cmdbar_open(&cb, ':');
	type(&cb, "thr");
	tt_cmdbar_key(&cb, KEY_UP);
	assert_string_equal(cb.buf, "two");
	tt_cmdbar_key(&cb, KEY_UP);
	assert_string_equal(cb.buf, "one");
	tt_cmdbar_key(&cb, KEY_UP); /* stays at the oldest */
	assert_string_equal(cb.buf, "one");
	tt_cmdbar_key(&cb, KEY_DOWN);
	tt_cmdbar_key(&cb, KEY_DOWN);
	assert_string_equal(cb.buf, "thr"); /* the typed line comes back */
	/* the file: parent folders made, lines appended, read back in order */
	tt_cmdbar_save_line(path, "select 1");
	tt_cmdbar_save_line(path, "select 2");
	tt_cmdbar_load(&cb2, path);
	assert_int_equal(cb2.nhist, 2);
	assert_string_equal(cb2.hist[0], "select 1");
	assert_string_equal(cb2.hist[1], "select 2");
	tt_cmdbar_free(&cb);
	tt_cmdbar_free(&cb2);
	tt_test_rm(dir);
}

/* ---- actions on a view of the real sample --------------------------------- */
static void test_view_zoom_pan(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("chromium-tiny.json"));
	tt_view v;

	(void)state;
	assert_int_equal(tt_view_init(&v, tr), 0);
	tt_view_geometry(&v, 40, 120);
	assert_int_equal(v.tl_w, 95); /* 120 - 24 names - 1 separator */
	assert_int_equal(v.span, 2226212000);
	assert_int_equal(v.t0, 958160867000);
	assert_int_equal(v.cursor, 958160867000 + 1113106000);
	int col = (int)((v.cursor - v.t0) * 95 / v.span);
	assert_int_equal(tt_view_key(&v, 'w') & TT_REDRAW, TT_REDRAW);
	assert_int_equal(v.span, 2226212000 * 2 / 3);
	/* the cursor keeps its column */
	assert_int_equal((int)((v.cursor - v.t0) * 95 / v.span), col);
	tt_view_key(&v, 's');
	assert_true(v.span >= 2226212000 && v.span <= 2226212000 + 2);
	tt_view_key(&v, '0');
	assert_int_equal(v.span, 2226212000);
	int64_t t0 = v.t0, c = v.cursor;
	tt_view_key(&v, 'd');
	/* at the right edge the window may stop; the cursor moves by 1/8 */
	assert_int_equal(v.cursor - c, 2226212000 / 8);
	assert_true(v.t0 >= t0);
	tt_view_key(&v, KEY_HOME);
	assert_int_equal(v.cursor, 958160867000);
	/* deepest zoom: one ns per cell */
	for (int i = 0; i < 80; i++)
		tt_view_key(&v, '+');
	assert_int_equal(v.span, 95);
	assert_int_equal(tt_view_key(&v, 'q'), TT_QUIT);
	tt_view_free(&v);
	tt_trace_close(tr);
}

static void test_view_tracks_and_groups(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("chromium-tiny.json"));
	tt_view v;

	(void)state;
	assert_int_equal(tt_view_init(&v, tr), 0);
	tt_view_geometry(&v, 40, 120);
	/* biggest process first: 9174 has 309 slices, 9186 201 */
	assert_int_equal(v.lay.ngroups, 3);
	assert_true(strstr(v.lay.groups[0].name, " 9174") != NULL);
	assert_string_equal(v.lay.groups[1].name, "Renderer 9186");
	assert_string_equal(v.lay.groups[2].name, "Global");
	assert_int_equal(v.lay.groups[1].ntracks, 3);
	int lines = v.lay.nlines;
	assert_int_equal(v.line, 0);
	assert_int_equal(v.lay.lines[0].track, -1);
	/* Enter on a group header closes it */
	assert_int_equal(tt_view_key(&v, '\n') & TT_RELAYOUT, TT_RELAYOUT);
	assert_int_equal(v.lay.nlines, lines - 2);
	tt_view_key(&v, '\n');
	assert_int_equal(v.lay.nlines, lines);
	tt_view_key(&v, 'j');
	assert_int_equal(v.line, 1);
	tt_view_key(&v, 'G');
	assert_int_equal(v.line, lines - 1);
	tt_view_key(&v, 'k');
	assert_int_equal(v.line, lines - 2);
	tt_view_filter(&v, "Dedicated");
	assert_int_equal(v.lay.nlines, 1 + 2); /* the group header, two depth rows */
	tt_view_filter(&v, "");
	assert_int_equal(v.lay.nlines, lines);
	tt_view_free(&v);
	tt_trace_close(tr);
}

static void test_view_search_and_select(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("chromium-tiny.json"));
	tt_view v;

	(void)state;
	assert_int_equal(tt_view_init(&v, tr), 0);
	tt_view_geometry(&v, 40, 120);
	assert_int_equal(tt_view_search(&v, "RunMicro"), 59);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice where name like '%RunMicro%'"), 59);
	/* the first match at or after the cursor (mid-trace) */
	assert_int_equal(v.match_pos, 33);
	assert_string_equal(v.msg, "match 33/59 for 'RunMicro'");
	int64_t first = v.sel_id;
	assert_string_equal(tt_view_item_name(&v, v.sel_track, v.sel_id), "RunMicrotasks");
	tt_view_key(&v, 'n');
	assert_int_equal(v.match_pos, 34);
	assert_true(v.sc.ts[v.sel_id] >= v.sc.ts[first]);
	tt_view_key(&v, 'N');
	assert_int_equal(v.sel_id, first);
	assert_int_equal(v.cursor, v.sc.ts[first]);
	/* the cursor line is on the selection's track */
	assert_int_equal(v.lay.lines[v.line].track, v.sel_track);
	tt_view_key(&v, 'f');
	assert_int_equal(v.t0, v.sc.ts[first] - v.sc.dur[first] / 10);
	assert_int_equal(tt_view_search(&v, "no such name"), 0);
	assert_string_equal(v.msg, "no match for 'no such name'");
	tt_view_key(&v, 27); /* Esc clears */
	assert_int_equal(v.sel_id, -1);
	tt_view_free(&v);
	tt_trace_close(tr);
}

static void test_view_parent_child_siblings(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("uftrace-work.json"));
	tt_view v;

	(void)state;
	assert_int_equal(tt_view_init(&v, tr), 0);
	tt_view_geometry(&v, 40, 120);
	/* slice 2 is main (depth 0), 3 its first child srand, 4 rand */
	assert_int_equal(tt_test_int(tr, "select id from slice where name = 'main'"), 2);
	assert_true(tt_view_select_slice(&v, 2) & TT_SEL_CHANGED);
	tt_view_key(&v, 'c');
	assert_int_equal(v.sel_id, 3);
	tt_view_key(&v, 'l');
	assert_int_equal(v.sel_id, 4);
	tt_view_key(&v, 'l');
	assert_int_equal(v.sel_id, 5);
	tt_view_key(&v, 'h');
	assert_int_equal(v.sel_id, 4);
	tt_view_key(&v, 'u');
	assert_int_equal(v.sel_id, 2);
	tt_view_key(&v, 'h');
	assert_int_equal(v.sel_id, 1); /* __cxa_atexit, before main on depth 0 */
	tt_view_key(&v, 'u'); /* no parent: stays */
	assert_int_equal(v.sel_id, 1);
	/* no alerts table yet: ] moves by slice like l */
	assert_int_equal(v.nalerts, 0);
	tt_view_key(&v, ']');
	assert_int_equal(v.sel_id, 2);
	tt_view_key(&v, '[');
	assert_int_equal(v.sel_id, 1);
	/* Enter selects what is under the cursor on the cursor line */
	v.cursor = v.sc.ts[3] + 1;
	v.line = tt_layout_line_of(&v.lay, v.sel_track) + 1; /* depth 1 */
	tt_view_key(&v, '\n');
	assert_int_equal(v.sel_id, 3);
	assert_int_equal(v.cursor, v.sc.ts[3] + 1); /* selecting does not move it */
	tt_view_free(&v);
	tt_trace_close(tr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_bindings),
		cmocka_unit_test(test_user_config),
		cmocka_unit_test(test_key_names),
		cmocka_unit_test(test_cmdbar_editing),
		cmocka_unit_test(test_cmdbar_history),
		cmocka_unit_test(test_view_zoom_pan),
		cmocka_unit_test(test_view_tracks_and_groups),
		cmocka_unit_test(test_view_search_and_select),
		cmocka_unit_test(test_view_parent_child_siblings),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
