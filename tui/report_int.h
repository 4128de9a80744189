/*
 * report_int.h - what the report files share (tui/report.c: tables and
 * call trees; tui/flame.c: the flame graph; tui/rangepanel.c: the range's
 * aggregation and its panel). Not for other modules: use report.h.
 */
#ifndef TT_REPORT_INT_H
#define TT_REPORT_INT_H

#include <curses.h>

#include "aggregate.h"
#include "calltree.h"
#include "report.h"

struct tt_report {
	int kind;                /* TT_ACT_* that made it */
	tt_calltree ct;
	uint8_t *open;           /* call tree: expanded nodes */
	uint32_t *rowmap;        /* call tree table row -> node */
	size_t nrows;
	int64_t a, b;
	char what[240];          /* "range 1.2ms on all tracks" */
	uint32_t focus, cur;     /* flame graph: zoomed frame, selected frame */
	int fscroll, freveal;    /* flame graph: first row shown; bring the
				  * selected frame into view at the next draw */
	struct tt_flame_hit { int y, x, w; uint32_t node; } *hits; /* frames
				  * drawn at the last frame (mouse) */
	size_t nhits, caphits;
	int prow, ptop;          /* the tree in the panel: cursor row, first row */
	uint32_t lit;            /* node whose slices the timeline highlights */
};

/* The call tree's rows as the table shows them (open nodes' children
 * under them, heaviest first): rep->rowmap, rep->nrows. */
void tt_report_tree_walk(tt_report *rep);
/* The call tree's table (the rows of tt_report_tree_walk) and its title. */
void tt_report_tree_table(tt_report *rep, tt_view *v, tt_result *res, char *title, size_t ntitle);
/* Highlights the slices of node on the timeline as search matches; with
 * step, also selects the first at or after the cursor. Node 0 (the
 * root) clears the highlight. Returns TT_* flags. */
int tt_report_highlight(tt_report *rep, tt_view *v, uint32_t node, int step);
/* Draws the flame graph of rep into [x, x + w) x [y, y + h). */
void tt_report_flame_region(tt_report *rep, tt_view *v, int x, int y, int w, int h);
/* The frame drawn at (x, y) at the last frame: TT_CT_NONE when none. */
uint32_t tt_report_flame_at(const tt_report *rep, int x, int y);
/* Flame graph keys shared by the screen and the panel; -1 when not one. */
int tt_report_flame_nav(tt_report *rep, tt_view *v, int key);
/* The flame graph in the details panel (title line, then the graph). */
void tt_report_flame_panel(tt_report *rep, tt_view *v);

/* Highlights the slices of call tree node on the timeline (as search
 * matches) and goes back to it; returns TT_* flags. */
int tt_report_show_node(tt_report *rep, tt_view *v, uint32_t node);
/* The aggregation of the current range, computed when the range or its
 * scope changed (cached in v->agg); NULL without a range or on OOM. */
tt_agg *tt_report_range_agg(tt_view *v);
/* String text by id, for sorting by name (ctx: the trace). */
const char *tt_report_name_of(void *ctx, uint32_t id);
/* "12.34%" of part in whole. */
void tt_report_share_text(int64_t part, int64_t whole, char *buf, size_t n);

#endif
