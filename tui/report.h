/*
 * report.h - the viewer's reports on the range or the selection, shown
 * in the result table (tui/table.c) or, for the flame graph, a screen of
 * their own: the flow chain (`:flows`), the aggregations (`:aggregate`,
 * `:aggregate-threads`, `:aggregate-counters`), the call trees
 * (`:calltree`, `:bottomup`), the marks (`:marks`), and the flame graph
 * (`:flame`). Also the range panel: while a range is set the details
 * panel shows its aggregation.
 */
#ifndef TT_REPORT_H
#define TT_REPORT_H

#include <curses.h>

#include "table.h"
#include "view.h"

typedef struct tt_report tt_report;

/* Builds report v->report. On success *rep holds the report and *res the
 * table to open (title in title), returns 0; mode TT_MODE_FLAME reports
 * leave *res empty. -1: nothing to show (message set). */
int tt_report_open(tt_report **rep, tt_view *v, tt_result *res, char *title, size_t ntitle);
void tt_report_free(tt_report *rep);
/* Keys on the report's table: returns TT_* flags, or -1 when the table's
 * own keys apply. May rebuild the table (call tree expand/collapse). */
int tt_report_table_key(tt_report *rep, tt_view *v, tt_table *t, int key);
/* The flame graph screen. */
void tt_report_flame_draw(tt_report *rep, tt_view *v);
int tt_report_flame_key(tt_report *rep, tt_view *v, int key);
/* Mouse on the flame graph (screen or panel): a click selects a frame,
 * a click on the selected one or a double-click (clicks 2) zooms into
 * it, a click on an ancestor line zooms out to it, the wheel scrolls.
 * Returns TT_* flags, -1 when the event is not on the graph. */
int tt_report_flame_mouse(tt_report *rep, tt_view *v, const MEVENT *ev, int clicks);
/* Mouse on a report's full-screen table (the table drawn from row 0): a
 * call tree's fold marker opens/closes its node. -1 when it is not one. */
int tt_report_table_mouse(tt_report *rep, tt_view *v, tt_table *t, const MEVENT *ev, int clicks);

/* ---- the call tree / flame graph beside the timeline (treepanel.c) ----
 * Docked, the report is drawn in the details panel, v->dock points to
 * it (the viewer owns it), and while v->dock_focus the panel takes its
 * keys first; moving in it highlights the node's slices on the timeline
 * at once. */
/* Whether rep is a call tree, bottom-up tree or flame graph. */
int tt_report_is_tree(const tt_report *rep);
/* Docks rep (from its full-screen table t, or NULL) with the keys. */
int tt_report_dock(tt_report *rep, tt_view *v, const tt_table *t);
/* Back to full screen: a tree's table in *res (title in title, *row
 * its cursor row; returns 1), or the flame graph screen (returns 0). */
int tt_report_undock(tt_report *rep, tt_view *v, tt_result *res, char *title, size_t ntitle, int *row);
void tt_report_panel_draw(tt_view *v);
/* A key for the docked panel: TT_* flags, -1 when it is the timeline's. */
int tt_report_panel_key(tt_view *v, int key);
/* Mouse in the details panel while docked (clicks: 1 or 2 for a
 * double-click press): TT_* flags, -1 when not the panel's. */
int tt_report_panel_mouse(tt_view *v, const MEVENT *ev, int clicks);
/* Range panel in the details area; 0 when there is no range. */
int tt_report_range_panel(tt_view *v);
/* Drops the cached aggregation (the trace grew). */
void tt_report_view_free(tt_view *v);

#endif
