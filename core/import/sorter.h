/*
 * sorter.h - the one event record of the importers and the sorter that
 * puts records in trace order before they reach the trackers (the
 * "sorter" stage of tokenizer -> sorter -> parser -> trackers -> storage,
 * docs/architecture.md).
 *
 * Order: by ts, then by arrival (the order of tt_sorter_push calls, over
 * all streams): a stable sort by ts. The sorter numbers records as they
 * arrive (tt_event.ord), so a format can key side tables (flows, thread
 * times) by it.
 *
 * Streams: records arrive on streams (a Perfetto sequence, a CTF stream,
 * the one stream of a JSON file). A stream whose records come in ts order
 * costs no sorting; a record older than its stream's newest held one goes
 * to that stream's side stream, which is sorted (stable) before it is
 * merged. The streams are merged with a tournament tree.
 *
 * Two ways to run, chosen at creation:
 * - TT_SORT_FULL: everything is held until tt_sorter_finish, or until the
 *   file itself says what may go (tt_sorter_flush_until: Perfetto's
 *   read-buffer service events, as trace processor does). Exact for any
 *   input. Perfetto files need it: chunks of a sequence written long after
 *   their events (measured on the recorded Chromium trace: a record older
 *   than every sequence's newest one came 1,609 times in 104,444).
 * - a window >= 0: tt_sorter_flush emits every record older than both the
 *   newest ts pushed minus the window and the newest ts of every open
 *   stream (a stream promises its own order: a record of an open stream
 *   cannot come before its newest). A sorted file (or streams each in
 *   order, as CTF's) is then never held whole. A record that arrives
 *   older than what was already emitted cannot be put in its place: it
 *   is dropped and counted (tt_sorter_late; trace processor's
 *   sorter_push_event_out_of_order), never emitted out of order. Within
 *   the window, out-of-order records are sorted exactly.
 * Memory: records live in blocks; a block is freed as soon as the merge
 * has emitted it, so what is held shrinks while the trackers grow.
 */
#ifndef TT_SORTER_H
#define TT_SORTER_H

#include <stddef.h>
#include <stdint.h>

#include "strpool.h"

/* One event between a format's tokenizer and the trackers (48 bytes).
 * The meaning of kind, flags, track and u is the format's own; ts and
 * ord are the sorter's. */
typedef struct tt_event {
	int64_t ts;
	union {
		int64_t i;      /* a duration, a thread timestamp, a key */
		double d;       /* a counter value */
	} u;
	uint64_t id;            /* async or flow id */
	uint32_t track;         /* a track, a thread, or a key of the format */
	tt_str name, cat;
	uint32_t args;          /* arg set, TT_NONE = none */
	uint32_t ord;           /* arrival order, set by tt_sorter_push */
	uint16_t flags;
	uint8_t kind;
	uint8_t scope;
} tt_event;

typedef struct tt_sorter tt_sorter;

#define TT_SORT_FULL (-1)

/* Called with each record in order; a non-zero return stops the emission
 * (tt_sorter_flush / tt_sorter_finish then return it). */
typedef int (*tt_sorter_emit)(void *ctx, const tt_event *e);

/* window: TT_SORT_FULL, or how far back in ts (from the newest pushed)
 * records may still arrive. NULL when out of memory. */
tt_sorter *tt_sorter_new(int64_t window);
void tt_sorter_free(tt_sorter *s);

/* How many emptied blocks (64 KiB each) a flush that more pushes follow
 * keeps for them; 32 unless told. A pooled block stays resident while
 * the flush's consumer grows, so a big pool suits the part of an import
 * that is far from its most resident. Pooled blocks past max are
 * unmapped now. */
void tt_sorter_pool(tt_sorter *s, size_t max);
/* How many it keeps now. */
size_t tt_sorter_pooled(const tt_sorter *s);

/* A new stream (open); its id. TT_NONE-like (UINT32_MAX) when out of memory. */
uint32_t tt_sorter_stream(tt_sorter *s);
/* No more records on this stream: it no longer holds back the flush. */
void tt_sorter_close(tt_sorter *s, uint32_t stream);

/* Copies *e in (setting its ord); returns the ord, or -1 when out of
 * memory. A late record (see above) is dropped: returns -2. */
int64_t tt_sorter_push(tt_sorter *s, uint32_t stream, const tt_event *e);

/* Windowed sorters: emits what can no longer be preceded by a record to
 * come. A no-op for TT_SORT_FULL. Returns 0, -1 when out of memory, or
 * the emit function's non-zero return. */
int tt_sorter_flush(tt_sorter *s, tt_sorter_emit fn, void *ctx);
/* Emits every record left, in order, freeing blocks as it goes; the
 * sorter may take more records afterwards (a later finish emits them). */
int tt_sorter_finish(tt_sorter *s, tt_sorter_emit fn, void *ctx);

/* Perfetto's read-buffer flush points (trace processor's
 * SortAndExtractEventsUntilAllocId): emits held records in order up to,
 * not including, the first one (in that order) that arrived with an ord
 * >= ord; what was emitted then bounds the sorter as a window flush
 * does: a record pushed later with a ts older than the last one emitted
 * is late (dropped, counted). Works in both modes. Returns as
 * tt_sorter_flush. */
int tt_sorter_flush_until(tt_sorter *s, uint32_t ord, tt_sorter_emit fn, void *ctx);
/* The ord the next pushed record gets (trace processor's
 * PastTheEndAllocId): every record pushed so far has a smaller one. */
uint32_t tt_sorter_next_ord(const tt_sorter *s);

uint64_t tt_sorter_late(const tt_sorter *s);   /* records dropped as late */
uint64_t tt_sorter_held(const tt_sorter *s);   /* records pushed, not emitted yet */
uint64_t tt_sorter_max_held(const tt_sorter *s); /* the most held at once */

#endif
