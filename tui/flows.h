/*
 * flows.h - the flows of the trace (SQL table `flow`) as seen from the
 * viewer: a per-slice index built once (both directions, CSR), the list of
 * a slice's flows for the details panel, the whole chain of a slice
 * (direct and transitive partners) for `:flows`, and the drawing of flow
 * partners, connectors and markers on the timeline.
 */
#ifndef TT_FLOWS_H
#define TT_FLOWS_H

#include <stddef.h>
#include <stdint.h>

#include "termtrace.h"

typedef struct tt_flows {
	size_t nslices, n;
	uint32_t *out_off, *in_off; /* nslices + 1 offsets */
	int64_t *out_to, *in_from;  /* partner slice ids */
	/* the partners of one slice with many flows, sorted (a binary search
	 * per slice drawn instead of a walk of its whole list) */
	int64_t psel, *pids;
	size_t npids;
} tt_flows;

/* One flow of a slice: the partner and the direction. */
typedef struct tt_flow_ref {
	int64_t partner;
	int out; /* 1: the slice -> partner, 0: partner -> the slice */
} tt_flow_ref;

/* Builds the index (NULL in *out when the trace has no flows). Returns
 * 0, -1 on OOM. */
int tt_flows_build(tt_flows **out, const tt_trace *tr, size_t nslices);
void tt_flows_free(tt_flows *f);
/* Number of flows of slice id; fills at most max refs (incoming first,
 * then outgoing, each in table order). */
size_t tt_flows_of(const tt_flows *f, int64_t id, tt_flow_ref *refs, size_t max);
/* Flow i of slice id in that order (i < its count). */
tt_flow_ref tt_flows_at(const tt_flows *f, int64_t id, size_t i);
/* 1 when id has an outgoing flow, 2 incoming, 3 both, 0 none. */
int tt_flows_has(const tt_flows *f, int64_t id);
/* Called every 64K slices of a long walk (total 0: not known yet, the
 * chain's walk) or of its table; non-zero cancels it. */
typedef int (*tt_flows_progress_fn)(void *ctx, size_t done, size_t total);
/* Every slice connected to id through flows (id included), breadth first;
 * *dist gets the hop count of each. Returns the count, -1 on OOM, -2
 * when progress cancelled; the arrays are malloc'ed. */
long tt_flows_chain(const tt_flows *f, int64_t id, int64_t **ids, int **dist, tt_flows_progress_fn progress,
		    void *ctx);

/* Viewer side (tui/flows.c). */
struct tt_view;
/* Details panel section: a header line ("N flows"), then one line per
 * flow of the selection, a window of TT_FLOWS_LISTED of them around the
 * highlighted one when there are more (the window scrolls with { }). */
#define TT_FLOWS_LISTED 100
typedef void (*tt_flows_line_fn)(void *ctx, const char *key, const char *value);
void tt_flows_details(const struct tt_view *v, tt_flows_line_fn fn, void *ctx);
/* The flow index of a line's key from tt_flows_details, -1 for others. */
int tt_flows_line_index(const char *key);
/* Highlights flow i of the selection (clamped), moving the list's window
 * and the details' scroll to it. */
void tt_flows_pick(struct tt_view *v, long i);
/* A button-1 press on the details panel's row y (clicks 2: a double-
 * click): on a flow's line it highlights it, twice follows it. Returns
 * TT_* flags, -1 when the row holds no flow. */
int tt_flows_click(struct tt_view *v, int y, int clicks);
/* Whether slice id is a flow partner of the selection. */
int tt_flows_is_partner(const struct tt_view *v, int64_t id);
/* Connectors between the selection and its partners when both ends are
 * on screen (drawn on empty cells only, so slice names stay). */
void tt_flows_draw(const struct tt_view *v);
/* Actions: flow-next/-prev/-follow, flows; returns TT_* flags. */
int tt_flows_action(struct tt_view *v, int action);
/* The `:flows` table of the selection's chain: 0, -1 when there is none
 * (or OOM), -2 when progress cancelled. */
int tt_flows_table(struct tt_view *v, tt_result *res, tt_flows_progress_fn progress, void *ctx);

#endif
