/*
 * help.c - the help screen (see help.h).
 */
#include <stdio.h>
#include <string.h>
#include <curses.h>

#include "help.h"
#include "theme.h"

static const char *const commands[][2] = {
	{":SQL", "run a SQL statement; the result opens in a table"},
	{":ACTION", "run any action of the table above by its name (e.g. :zoom-in, :pin-track)"},
	{":theme [NAME]", "switch theme (a name or a path); alone: list the themes"},
	{":goto TIME", "move the cursor to TIME after the trace start (e.g. 1.5ms, 200us, 3s)"},
	{":track TEXT", "show only the tracks whose name contains TEXT (:track alone: all)"},
	{":pin SQL", "pin a query with columns ts, dur, name [, track_name, slice_id, utid] as a slice track"},
	{":unpin NAME|all", "remove pinned query tracks"},
	{":tracks [TEXT]", "list the tracks (whose name contains TEXT) with their state"},
	{":show NAME|all", "show tracks hidden with x again"},
	{":metrics A,B", "run metrics: their annotation tracks and alerts appear"},
	{":alerts", "list the alerts (SQL table alert)"},
	{":range T1 T2", "select the time range [T1, T2) (times as :goto takes them)"},
	{":mark L", "mark the selection, range or cursor as L; :jump-mark L goes back"},
	{":flow N", "jump to the other end of the selection's flow N"},
	{":ACTION", "every action above by its name: :flows, :aggregate, :calltree, :flame, :marks, ..."},
	{"/text", "search slice names; smartcase (a capital makes it case-sensitive)"},
	{"/@text /%text", "search arg values (/@key=text) / thread, process and track names"},
	{"/#N, /N", "go to the slice with id N"},
	{":help", "this screen"},
	{":q", "quit"},
	{"Ctrl-C", "cancel a running query"},
	{"Up/Down", "in the command bar: walk the history"},
};

void tt_help_lines(const tt_config *cfg, tt_help_line_fn fn, void *ctx)
{
	char line[400], keys[128];

	fn(ctx, "termtrace keys (q or Esc closes this help); :ACTION runs an action by name");
	fn(ctx, "");
	for (int a = 1; a < TT_ACT_COUNT; a++) {
		tt_config_keys_of(cfg, a, keys, sizeof keys);
		snprintf(line, sizeof line, "  %-18s %-16s %s", keys[0] ? keys : "(unbound)",
			 tt_action_name(a), tt_action_help(a));
		fn(ctx, line);
	}
	fn(ctx, "");
	fn(ctx, "Mouse: click selects a slice (or opens a group), drag selects a time range,");
	fn(ctx, "       wheel scrolls the tracks, Ctrl/Shift-wheel zooms.");
	fn(ctx, "");
	fn(ctx, "Commands (:)");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		snprintf(line, sizeof line, "  %-18s %s", commands[i][0], commands[i][1]);
		fn(ctx, line);
	}
	fn(ctx, "");
	fn(ctx, "Config: $XDG_CONFIG_HOME/termtrace/config - bind KEY ACTION, unbind KEY,");
	fn(ctx, "        set theme NAME, set details bottom|right|hidden");
}

typedef struct draw_ctx {
	int n, scroll, h, cols;
} draw_ctx;

static void draw_line(void *ctx, const char *line)
{
	draw_ctx *d = ctx;
	int row = d->n++ - d->scroll;

	if (row < 0 || row >= d->h)
		return;
	attrset((attr_t)tt_theme_attr(line[0] == ' ' ? TT_AREA_DEFAULT : TT_AREA_HELP_KEY));
	mvaddnstr(row, 0, line, d->cols);
	if (line[0] == ' ' && line[2] != ' ') {
		/* the keys column stands out */
		size_t k = strcspn(line + 2, " ");
		attrset((attr_t)tt_theme_attr(TT_AREA_HELP_KEY));
		mvaddnstr(row, 2, line + 2, (int)k < d->cols - 2 ? (int)k : d->cols - 2);
	}
}

int tt_help_draw(const tt_config *cfg, int scroll, int h, int cols)
{
	draw_ctx d = {0, scroll, h, cols};

	tt_help_lines(cfg, draw_line, &d);
	return d.n;
}
