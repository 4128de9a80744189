/*
 * flow_tracker.h - the open flows of an import: per flow, the last slice
 * of the flow; per track, flows waiting for the next slice that begins
 * there. Links are `flow` rows (tt_storage_flow). One per import
 * (tt_import.flows).
 *
 * trace processor's FlowTracker (importers/common/flow_tracker.cc), for
 * every format: flows keyed by one 64-bit id (v2 bind_ids and Perfetto
 * flow_ids as they are, v1 (id, cat, name) numbered from 0 by
 * tt_flow_tracker_v1, one namespace as there); the tracker counts trace
 * processor's stats: flow_no_enclosing_slice (no slice to bind to),
 * flow_duplicate_id (a begin of a flow that is active: ignored),
 * flow_step_without_start, flow_end_without_start. A step moves the flow
 * on; an end links without moving it, and closes it only when asked
 * (Perfetto's terminating_flow_ids; its id may then begin again); a link
 * runs from the earlier of its two slices to the later.
 */
#ifndef TT_FLOW_TRACKER_H
#define TT_FLOW_TRACKER_H

#include <stdint.h>
#include "args_tracker.h"
#include "storage.h"

typedef struct tt_flow_tracker tt_flow_tracker;

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
/* As tt_flow_tracker_end, and the flow is closed (no longer active). */
void tt_flow_tracker_end_close(tt_flow_tracker *f, int64_t slice, uint64_t flow);
/* Whether the flow has begun and not been closed. */
int tt_flow_tracker_active(const tt_flow_tracker *f, uint64_t flow);
/* The flow comes into the next slice that begins on track (v1 'f'
 * without "bp":"e"); a flow not open now is counted
 * (flow_end_without_start) and waits for nothing. */
void tt_flow_tracker_end_next(tt_flow_tracker *f, uint64_t flow, uint32_t track);

/* NULL when out of memory. */
tt_flow_tracker *tt_flow_tracker_new(tt_storage *st);
void tt_flow_tracker_free(tt_flow_tracker *f);
/* A slice began on track: the flows waiting there (end_next) link to it. */
void tt_flow_tracker_slice_begun(tt_flow_tracker *f, uint32_t track, int64_t slice);

#endif
