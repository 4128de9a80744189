/*
 * slice_tracker.h - turns begin/end/complete events into nested slices.
 * Owns depth and parent_id: per track it keeps the stack of open slices.
 *
 * Contract: on one track, events arrive in non-decreasing ts order
 * (importers sort or merge first). A begin or complete that starts before
 * the innermost open slice is counted (slice_backwards) and dropped.
 */
#ifndef TT_SLICE_TRACKER_H
#define TT_SLICE_TRACKER_H

#include <stdint.h>
#include "args_tracker.h"
#include "storage.h"

typedef struct tt_slice_tracker tt_slice_tracker;

/* args: the import's args tracker, which keeps the merged args of an end
 * once; NULL (annotations) stores each merged set anew. */
tt_slice_tracker *tt_slice_tracker_new(tt_storage *st, tt_args_tracker *args);
void tt_slice_tracker_free(tt_slice_tracker *t);

/* From now on a slice opened or completed as raw is named name (trace
 * processor's slice translation table: Perfetto's TranslationTable
 * slice_name rules); ends still match the name they give. 0, or -1 when
 * out of memory. */
int tt_slice_tracker_rename(tt_slice_tracker *t, tt_str raw, tt_str name);

/* Opens a slice (dur -1 until ended). Returns its id or -1 (dropped). */
int64_t tt_slice_tracker_begin(tt_slice_tracker *t, uint32_t track, int64_t ts,
			       tt_str cat, tt_str name, uint32_t arg_set_id);
/* Closes the innermost open slice of track. When name is non-zero and does
 * not match, the innermost open slice with that name is closed (with the
 * ones inside it) if there is one, else the innermost, counted as
 * slice_end_name_mismatch. CTF's entry/exit pairs end this way; JSON and
 * Perfetto ends follow trace processor through tt_slice_tracker_end_match
 * (an end that matches nothing closes nothing). arg_set_id (or TT_NONE)
 * merges into the slice's args, the end's values winning.
 * Returns the closed slice id or -1 (unmatched, counted). */
int64_t tt_slice_tracker_end(tt_slice_tracker *t, uint32_t track, int64_t ts,
			     tt_str name, uint32_t arg_set_id);
/* trace processor's end for track events: closes the innermost open slice
 * whose category is cat (when cat is non-zero; slices with no category
 * never match then) and whose name is name (when both are non-zero),
 * with the slices opened inside it. Returns its id, or -1 when none
 * matches (counted as slice_end_unmatched). */
int64_t tt_slice_tracker_end_match(tt_slice_tracker *t, uint32_t track, int64_t ts, tt_str cat,
				   tt_str name, uint32_t arg_set_id);
/* The same without counting an end that matches nothing: trace
 * processor's SliceTracker::End as its kernel trackers (binder) call it,
 * for ends whose begin came before the trace did. */
int64_t tt_slice_tracker_end_quiet(tt_slice_tracker *t, uint32_t track, int64_t ts, tt_str cat, tt_str name,
				   uint32_t arg_set_id);
/* Merges arg_set_id into the args of the innermost open slice of track
 * matching cat and name as the ends above match (trace processor's
 * SliceTracker::AddArgs). Returns the slice's id, or -1 when none
 * matches (the args are dropped). */
int64_t tt_slice_tracker_add_args(tt_slice_tracker *t, uint32_t track, tt_str cat, tt_str name,
				  uint32_t arg_set_id);
/* A slice whose duration is known (JSON X, legacy proto X, instants with
 * dur 0). Slices of the stack that end at or before ts are popped first. */
int64_t tt_slice_tracker_complete(tt_slice_tracker *t, uint32_t track, int64_t ts,
				  int64_t dur, tt_str cat, tt_str name, uint32_t arg_set_id);
/* Non-zero when a complete slice [ts, ts + dur) would start inside a
 * complete slice of track and end after it (trace processor's overlap: it
 * cannot nest there). */
int tt_slice_tracker_overlaps(tt_slice_tracker *t, uint32_t track, int64_t ts, int64_t dur);
/* The same test, giving the slice overlapped (the innermost one), or -1. */
int64_t tt_slice_tracker_overlapping(tt_slice_tracker *t, uint32_t track, int64_t ts, int64_t dur);
/* The innermost open (or still enclosing) slice of track at ts, or -1.
 * Used to bind flows to the enclosing slice. */
int64_t tt_slice_tracker_enclosing(tt_slice_tracker *t, uint32_t track, int64_t ts);
/* From now on an instant (a complete slice of dur 0) is stacked as trace
 * processor's slice tracker stacks it: an instant of the same ts that
 * follows nests in it (depth + 1), any other slice event on the track
 * pops it, and it is the track's topmost slice until then. Off by
 * default (JSON turns it on; Perfetto's importer has not yet). */
void tt_slice_tracker_stack_instants(tt_slice_tracker *t, int on);
/* The innermost slice on track's stack as it stands (slices that ended
 * stay until an event on the track pops them: trace processor's topmost
 * slice, which flows bind to), or -1. */
int64_t tt_slice_tracker_top(tt_slice_tracker *t, uint32_t track);
/* Marks slices still open as unfinished (dur -1, stat slice_unfinished). */
void tt_slice_tracker_flush(tt_slice_tracker *t);

#endif
