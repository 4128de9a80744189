/*
 * flow_tracker.h - the open flows of an import: per flow key, the last
 * slice of the flow; per track, a flow waiting for the next slice that
 * begins there. Links are `flow` rows (tt_storage_flow). A key is three
 * words the format chooses (JSON: v1 (1, category << 32 | name, id) and
 * v2 (2, id, 0); Perfetto: (flow id, 0, 0)). The rules of when a step is
 * unmatched stay with each format; the tracker says whether a link was
 * made. One per import (tt_import.flows).
 */
#ifndef TT_FLOW_TRACKER_H
#define TT_FLOW_TRACKER_H

#include <stdint.h>
#include "storage.h"

typedef struct tt_flow_tracker tt_flow_tracker;

/* NULL when out of memory. */
tt_flow_tracker *tt_flow_tracker_new(tt_storage *st);
void tt_flow_tracker_free(tt_flow_tracker *f);

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
/* A slice began on track: a flow waiting there links to it. */
void tt_flow_tracker_slice_begun(tt_flow_tracker *f, uint32_t track, int64_t slice);

#endif
