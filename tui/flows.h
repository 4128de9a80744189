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
/* 1 when id has an outgoing flow, 2 incoming, 3 both, 0 none. */
int tt_flows_has(const tt_flows *f, int64_t id);
/* Every slice connected to id through flows (id included), breadth first;
 * *dist gets the hop count of each. Returns the count (-1 on OOM); the
 * arrays are malloc'ed. */
long tt_flows_chain(const tt_flows *f, int64_t id, int64_t **ids, int **dist);

/* Viewer side (tui/flows.c). */
struct tt_view;
/* Details panel section: one line per flow of the selection. */
typedef void (*tt_flows_line_fn)(void *ctx, const char *key, const char *value);
void tt_flows_details(const struct tt_view *v, tt_flows_line_fn fn, void *ctx);
/* Whether slice id is a flow partner of the selection. */
int tt_flows_is_partner(const struct tt_view *v, int64_t id);
/* Connectors between the selection and its partners when both ends are
 * on screen (drawn on empty cells only, so slice names stay). */
void tt_flows_draw(const struct tt_view *v);
/* Actions: flow-next/-prev/-follow, flows; returns TT_* flags. */
int tt_flows_action(struct tt_view *v, int action);
/* The `:flows` table of the selection's chain (NULL result = no flows). */
int tt_flows_table(struct tt_view *v, tt_result *res);

#endif
