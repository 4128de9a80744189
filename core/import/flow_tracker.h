/*
 * flow_tracker.h - the open flows of an import: per flow, the last slice
 * of the flow; per track, flows waiting for the next slice that begins
 * there. Links are `flow` rows (tt_storage_flow). One per import
 * (tt_import.flows).
 *
 * Two interfaces over one tracker:
 * - trace processor's (tt_flow_tracker_begin/step/end/end_next, used by
 *   JSON): flows keyed by one 64-bit id (v2 bind_ids as they are, v1
 *   (id, cat, name) numbered from 0 by tt_flow_tracker_v1, one namespace
 *   as there); the tracker counts trace processor's stats:
 *   flow_no_enclosing_slice (no slice to bind to), flow_duplicate_id (a
 *   begin of a flow that is open: ignored), flow_step_without_start,
 *   flow_end_without_start. A flow that starts never ends (an end links
 *   without closing it), a step moves it on, and a link runs from the
 *   earlier of its two slices to the later.
 * - keyed by three words the format chooses (Perfetto: (flow id, 0, 0)),
 *   the rules of when a step is unmatched staying with the format: the
 *   calls say whether a link was made.
 */
#ifndef TT_FLOW_TRACKER_H
#define TT_FLOW_TRACKER_H

#include <stdint.h>
#include "args_tracker.h"
#include "storage.h"

typedef struct tt_flow_tracker tt_flow_tracker;

/* ---- trace processor's flows (JSON) ---- */

/* The flow id of a v1 flow (s / t / f): its (id, cat, name) numbered from
 * 0 in the order first seen. Its links carry args name and cat. args:
 * the import's args tracker. */
uint64_t tt_flow_tracker_v1(tt_flow_tracker *f, tt_args_tracker *args, uint64_t id, tt_str cat,
			    tt_str name);
/* The flow starts at slice (-1: none to bind to, counted). */
void tt_flow_tracker_begin(tt_flow_tracker *f, int64_t slice, uint64_t flow);
/* The flow goes on through slice: a link from its last slice; slice is
 * its last slice now. */
void tt_flow_tracker_step(tt_flow_tracker *f, int64_t slice, uint64_t flow);
/* The flow comes into slice: a link from its last slice (the flow stays
 * open, its last slice as it was). */
void tt_flow_tracker_end(tt_flow_tracker *f, int64_t slice, uint64_t flow);
/* The flow comes into the next slice that begins on track (v1 'f'
 * without "bp":"e"); a flow not open now is counted
 * (flow_end_without_start) and waits for nothing. */
void tt_flow_tracker_end_next(tt_flow_tracker *f, uint64_t flow, uint32_t track);

/* ---- both ---- */

/* NULL when out of memory. */
tt_flow_tracker *tt_flow_tracker_new(tt_storage *st);
void tt_flow_tracker_free(tt_flow_tracker *f);

/* ---- flows by three-word keys (Perfetto) ---- */

/* The flow's last slice, or -1 when the flow is not open. */
int64_t tt_flow_tracker_last(const tt_flow_tracker *f, uint64_t a, uint64_t b, uint64_t c);
/* slice is now the flow's last slice (the flow starts or goes on). */
void tt_flow_tracker_set(tt_flow_tracker *f, uint64_t a, uint64_t b, uint64_t c, int64_t slice);
/* The flow ended (its key may start another). */
void tt_flow_tracker_close(tt_flow_tracker *f, uint64_t a, uint64_t b, uint64_t c);
/* When the flow is open, a flow row from its last slice to slice;
 * returns 1 then, else 0. The flow's last slice does not change. */
int tt_flow_tracker_link(tt_flow_tracker *f, uint64_t a, uint64_t b, uint64_t c, int64_t slice);
/* The flow (open) ends at the next slice that begins on track: it is
 * closed, and tt_flow_tracker_slice_begun on track links to it. */
void tt_flow_tracker_to_next(tt_flow_tracker *f, uint64_t a, uint64_t b, uint64_t c, uint32_t track);
/* A slice began on track: the flows waiting there (both interfaces) link
 * to it. */
void tt_flow_tracker_slice_begun(tt_flow_tracker *f, uint32_t track, int64_t slice);

#endif
