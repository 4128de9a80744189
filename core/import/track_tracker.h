/*
 * track_tracker.h - which track an event goes on: a thread's slice track,
 * and tracks named by a key (an importer's own key space: JSON instant
 * and counter tracks, Perfetto uuids and atrace cookies, CTF streams and
 * CPUs), made on first use and found again after. The rows are storage's
 * (tt_storage_track_new); this module keeps the lookups. One per import
 * (tt_import.tracks). Code outside an import (annotations, tests) makes
 * tracks with tt_storage_track_new.
 */
#ifndef TT_TRACK_TRACKER_H
#define TT_TRACK_TRACKER_H

#include <stdint.h>
#include "storage.h"

typedef struct tt_track_tracker tt_track_tracker;

/* NULL when out of memory. */
tt_track_tracker *tt_track_tracker_new(tt_storage *st);
void tt_track_tracker_free(tt_track_tracker *t);

/* The thread's slice track (type "thread", in the thread's process),
 * made on first use; TT_NONE for a utid that is not a thread. */
uint32_t tt_track_tracker_thread(tt_track_tracker *t, uint32_t utid);
/* Get-or-create by a key: identical (kind, a, b, c) give the same track.
 * kind is a short literal naming the key space ("json-counter", "uuid",
 * ...); d is used only when the track is made. */
uint32_t tt_track_tracker_keyed(tt_track_tracker *t, const char *kind, uint64_t a,
				uint64_t b, uint64_t c, const tt_track_desc *d);

#endif
