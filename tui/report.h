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
/* Range panel in the details area; 0 when there is no range. */
int tt_report_range_panel(tt_view *v);
/* Drops the cached aggregation (the trace grew). */
void tt_report_view_free(tt_view *v);

#endif
