/*
 * report_int.h - what the report files share (tui/report.c: tables and
 * call trees; tui/flame.c: the flame graph; tui/rangepanel.c: the range's
 * aggregation and its panel). Not for other modules: use report.h.
 */
#ifndef TT_REPORT_INT_H
#define TT_REPORT_INT_H

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
};

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
