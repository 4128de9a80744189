/*
 * test_tui_theme.c - the theme file parser (warnings with path:line, the
 * other lines still apply), the shipped themes, the compiled-in copies and
 * the palette hash (tui/theme.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "theme.h"

static void test_parse_good(void **state)
{
	tt_theme th;
	tt_test_warns w = {0};

	(void)state;
	memset(&th, 0, sizeof th);
	assert_int_equal(tt_theme_parse(&th,
		"# a comment\n"
		"\n"
		"color ruler 250 236 bold\n"
		"color slice.3   red  bright-blue  reverse underline  # trailing comment\n"
		"color cursor default color42\n", "t.theme", tt_test_collect_warning, &w), 0);
	assert_int_equal(w.n, 0);
	tt_theme_entry *r = &th.e[TT_AREA_RULER];
	assert_int_equal(r->fg, 250);
	assert_int_equal(r->bg, 236);
	assert_int_equal(r->attrs, TT_ATTR_BOLD);
	assert_int_equal(r->set, 1);
	tt_theme_entry *s = &th.e[TT_AREA_SLICE3];
	assert_int_equal(s->fg, 1);
	assert_int_equal(s->bg, 12);
	assert_int_equal(s->attrs, TT_ATTR_REVERSE | TT_ATTR_UNDERLINE);
	assert_int_equal(th.e[TT_AREA_CURSOR].fg, -1);
	assert_int_equal(th.e[TT_AREA_CURSOR].bg, 42);
	assert_int_equal(th.e[TT_AREA_STATUS].set, 0);
}

static void test_parse_bad_lines(void **state)
{
	tt_theme th;
	tt_test_warns w = {0};

	(void)state;
	memset(&th, 0, sizeof th);
	assert_int_equal(tt_theme_parse(&th,
		"color ruler red blue\n"
		"color nosuch red blue\n"
		"colour ruler red blue\n"
		"color ruler red\n"
		"color ruler red 300\n"
		"color ruler mauve blue\n"
		"color ruler red blue sparkly\n"
		"color status green black bold\n", "my.theme", tt_test_collect_warning, &w), 6);
	assert_int_equal(w.n, 6);
	assert_string_equal(w.msg[0], "my.theme:2: unknown area 'nosuch'");
	assert_string_equal(w.msg[1], "my.theme:3: unknown command 'colour' (expected 'color')");
	assert_string_equal(w.msg[2], "my.theme:4: expected 'color AREA FG BG [ATTR...]'");
	assert_string_equal(w.msg[3], "my.theme:5: bad colour '300'");
	assert_string_equal(w.msg[4], "my.theme:6: bad colour 'mauve'");
	assert_string_equal(w.msg[5], "my.theme:7: unknown attribute 'sparkly'");
	/* the good lines around the bad ones still apply; bad ones change nothing */
	assert_int_equal(th.e[TT_AREA_RULER].fg, 1);
	assert_int_equal(th.e[TT_AREA_RULER].bg, 4);
	assert_int_equal(th.e[TT_AREA_RULER].attrs, 0);
	assert_int_equal(th.e[TT_AREA_STATUS].fg, 2);
	assert_int_equal(th.e[TT_AREA_STATUS].attrs, TT_ATTR_BOLD);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 16);
	size_t n;

	assert_non_null(f);
	assert_non_null(buf);
	n = fread(buf, 1, (1 << 16) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static void test_builtin_copies_match_files(void **state)
{
	char path[4096];
	char *text;

	(void)state;
	snprintf(path, sizeof path, "%s/themes/dark.theme", tt_test_srcdir());
	text = slurp(path);
	assert_string_equal(text, tt_theme_dark_text);
	free(text);
	snprintf(path, sizeof path, "%s/themes/monochrome.theme", tt_test_srcdir());
	text = slurp(path);
	assert_string_equal(text, tt_theme_mono_text);
	free(text);
}

static void test_shipped_themes_are_complete(void **state)
{
	static const char *const names[] = {"dark", "light", "high-contrast", "monochrome"};
	char path[4096];

	(void)state;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		tt_theme th;
		tt_test_warns w = {0};
		char *text;
		memset(&th, 0, sizeof th);
		snprintf(path, sizeof path, "%s/themes/%s.theme", tt_test_srcdir(), names[i]);
		text = slurp(path);
		assert_int_equal(tt_theme_parse(&th, text, path, tt_test_collect_warning, &w), 0);
		for (int a = 0; a < TT_AREA_COUNT; a++) {
			if (!th.e[a].set)
				fail_msg("%s does not set %s", names[i], tt_theme_area_name(a));
		}
		free(text);
	}
}

static void test_monochrome_uses_no_colour(void **state)
{
	tt_theme th;

	(void)state;
	memset(&th, 0, sizeof th);
	tt_theme_parse(&th, tt_theme_mono_text, "mono", NULL, NULL);
	for (int a = 0; a < TT_AREA_COUNT; a++) {
		assert_int_equal(th.e[a].fg, -1);
		assert_int_equal(th.e[a].bg, -1);
	}
	/* slices stay visible without colour */
	for (int a = TT_AREA_SLICE0; a <= TT_AREA_SLICE11; a++)
		assert_true(th.e[a].attrs & TT_ATTR_REVERSE);
}

static void test_load_by_name(void **state)
{
	tt_theme th;
	tt_test_warns w = {0};

	(void)state;
	assert_int_equal(tt_theme_load(&th, "light", tt_test_collect_warning, &w), 0);
	assert_int_equal(w.n, 0);
	assert_int_equal(th.e[TT_AREA_SLICE0].bg, 153);
	assert_int_equal(tt_theme_load(&th, "mono", tt_test_collect_warning, &w), 0);
	assert_int_equal(th.e[TT_AREA_SLICE0].attrs, TT_ATTR_REVERSE);
	assert_int_equal(tt_theme_load(&th, "no-such-theme", tt_test_collect_warning, &w), -1);
	assert_int_equal(w.n, 1);
	assert_string_equal(w.msg[0], "no theme 'no-such-theme'");
}

static void test_area_names_and_palette(void **state)
{
	(void)state;
	assert_int_equal(tt_theme_area("alert.error"), TT_AREA_ALERT_ERROR);
	assert_int_equal(tt_theme_area("cmdbar.error"), TT_AREA_CMDBAR_ERROR);
	assert_int_equal(tt_theme_area("slice.11"), TT_AREA_SLICE11);
	assert_int_equal(tt_theme_area("nope"), -1);
	assert_string_equal(tt_theme_area_name(TT_AREA_SLICE_SEL), "slice.selected");
	/* a name keeps its colour across runs: FNV-1a mod 12 */
	assert_int_equal(tt_theme_palette(""), (int)(2166136261u % 12));
	assert_int_equal(tt_theme_palette("RunMicrotasks"), tt_theme_palette("RunMicrotasks"));
	for (int i = 0; i < 100; i++) {
		char name[16];
		snprintf(name, sizeof name, "s%d", i);
		assert_in_range(tt_theme_palette(name), 0, TT_PALETTE - 1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_bad_lines),
		cmocka_unit_test(test_builtin_copies_match_files),
		cmocka_unit_test(test_shipped_themes_are_complete),
		cmocka_unit_test(test_monochrome_uses_no_colour),
		cmocka_unit_test(test_load_by_name),
		cmocka_unit_test(test_area_names_and_palette),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
