/*
 * async_tracker.h - the tracks of legacy async slices (Chrome JSON b/e/n,
 * TrackEvent legacy_event async phases), grouped as Perfetto's trace
 * processor groups them:
 *
 *   - a cookie (category + id) is named once, by the first event that uses
 *     it (its "root name"); later events with that cookie land on the same
 *     set of tracks whatever their own name;
 *   - the tracks of one set share (scope, root name) and, for
 *     process-scoped ids, the process; one track per cookie is kept only
 *     while slices with that cookie are open: a cookie whose track has
 *     nothing open takes over the first idle track of its set, so a
 *     thousand sequential ids of one name are one track, not a thousand;
 *   - track types "legacy_async_process_slice" / "legacy_async_global_slice".
 *
 * Contract: events arrive in timestamp order (after the sorter), since the
 * open counts decide which track a cookie gets.
 */
#ifndef TT_ASYNC_TRACKER_H
#define TT_ASYNC_TRACKER_H

#include <stdint.h>
#include "args_tracker.h"
#include "storage.h"

typedef struct tt_async_tracker tt_async_tracker;

/* PEEK: the cookie's track without opening or closing anything (a parent
 * track, a flow binding). BEGIN_SAT: a begin that leaves one slice open
 * however many came before (trace processor's saturating unnestable
 * lanes: atrace S). SCOPED: a zero-length slice at time `cookie` on a lane
 * of its own kind, the first whose last such slice ended by then (trace
 * processor's scoped lanes: atrace N; cookie lanes are never taken). */
enum tt_async_kind { TT_ASYNC_BEGIN, TT_ASYNC_END, TT_ASYNC_INSTANT, TT_ASYNC_PEEK, TT_ASYNC_BEGIN_SAT,
		     TT_ASYNC_SCOPED };

tt_async_tracker *tt_async_tracker_new(tt_storage *st, tt_args_tracker *args);
void tt_async_tracker_free(tt_async_tracker *t);

/* The track for one async event. upid TT_NONE: the id is global (trace
 * scoped); otherwise it is scoped to that process. scope: an extra name
 * space for ids (0 = none), cookie: the id (already combined with the
 * category where the format says so), name: the event's name.
 * Returns TT_NONE when memory ran out. */
uint32_t tt_async_track(tt_async_tracker *t, uint32_t upid, tt_str scope, uint64_t cookie,
			tt_str name, enum tt_async_kind kind);

/* Args a set's tracks get when made, as trace processor's track
 * compressor writes them: the set's dimensions (plus track_compressor_idx,
 * the lane) and source args. key: a string literal; type 'u' uint, 'i'
 * int, 'b' bool, 's' an interned string (v), 'c' a string literal (cv). */
typedef struct tt_async_arg {
	const char *key;
	int type;
	uint64_t v;
	const char *cv;
} tt_async_arg;
#define TT_ASYNC_ARGS 6
typedef struct tt_async_args {
	tt_async_arg dim[TT_ASYNC_ARGS], src[TT_ASYNC_ARGS];
	int ndim, nsrc;
} tt_async_args;

/* tt_async_track with trace processor's legacy async track args: the
 * dimensions (upid of a process-scoped id, scope, name) and the source
 * (chrome, trace_id_is_process_scoped, src_upid: the process of the event
 * that made the track, source_scope: scope). */
uint32_t tt_async_track_chrome(tt_async_tracker *t, uint32_t upid, tt_str scope, uint64_t cookie,
			       tt_str name, enum tt_async_kind kind, uint32_t src_upid);

/* The same lanes for any set of sibling tracks that may merge (Perfetto's
 * descriptor tracks with SIBLING_MERGE_BEHAVIOR_BY_TRACK_NAME): the set is
 * (k1, k2, k3), the cookie the track's uuid, d describes the tracks made
 * for the set and a (or NULL) their args (both copied at the set's first
 * use). */
uint32_t tt_async_track_set(tt_async_tracker *t, uint64_t k1, uint64_t k2, uint64_t k3,
			    uint64_t cookie, const tt_track_desc *d, const tt_async_args *a,
			    enum tt_async_kind kind);
/* The lane of set (k1, k2, k3) for a slice [ts, ts + dur) that must not
 * overlap another of its lane's (trace processor's
 * TrackCompressor::InternScoped): the first lane whose last such slice
 * ended by ts. */
uint32_t tt_async_track_scoped(tt_async_tracker *t, uint64_t k1, uint64_t k2, uint64_t k3, int64_t ts, int64_t dur,
			       const tt_track_desc *d, const tt_async_args *a);
/* The same in a set made before (tt_async_set). */
uint32_t tt_async_track_in_set_scoped(tt_async_tracker *t, uint32_t set, int64_t ts, int64_t dur);
/* The same in two steps, for a caller that keeps the set's id: the set
 * (k1, k2, k3) (made with d and a at its first use; TT_NONE when out of
 * memory), then the track of cookie in it. */
uint32_t tt_async_set(tt_async_tracker *t, uint64_t k1, uint64_t k2, uint64_t k3, const tt_track_desc *d,
		      const tt_async_args *a);
uint32_t tt_async_track_in_set(tt_async_tracker *t, uint32_t set, uint64_t cookie, enum tt_async_kind kind);

/* The overflow track of a thread for a complete slice that partly overlaps
 * one on the thread's own track (trace processor spills a JSON X event so
 * rather than dropping it): the first of the thread's
 * "thread_overlapping_slice" tracks where [ts, ts + dur) nests inside the
 * innermost slice still open there or follows them all; a new one when
 * none fits. TT_NONE when memory ran out. */
uint32_t tt_async_overlap_track(tt_async_tracker *t, uint32_t utid, int64_t ts, int64_t dur);

#endif
