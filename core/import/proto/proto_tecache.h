/*
 * proto_tecache.h - a cache of decoded messages by their bytes, kept by
 * the thread that unpacks packets (proto_read.c): TrackEvents, and the
 * entries of debug annotation dicts.
 *
 * Why: in a Chrome trace about three TrackEvents in four are byte for byte
 * one seen before (slice ends, events without args; the timestamp is in the
 * packet, not the event), and protobuf-c's unpack costs about 2,000
 * instructions an event whatever its size. Decoding is a pure function of
 * the bytes, so an event seen before is the message decoded then, shared,
 * read-only (nothing after the unpack writes a TrackEvent).
 *
 * Lifetime: the decoded messages live in generations (fixed arenas,
 * GEN_BYTES in proto_tecache.c). A full generation is retired and a new one started;
 * entries of the last two generations are found. A retired arena is reused
 * only once every batch unpacked while it was found has been given back
 * by the importer (its items may point into it): the caller says which
 * batch it unpacks (tt_proto_tecache_batch) and how many batches the
 * importer has released. If no arena can be reused yet, events are decoded
 * into the batch's own arena and not kept: the cache never waits and
 * never grows past GENS arenas.
 *
 * Admission: a message is kept the second time its bytes miss, not the
 * first (when the cache has a door: a table of the last hash seen in
 * each of `door` slots). In the Chromium sample, 13,047 of its 14,876
 * distinct TrackEvents come only once; kept, each pushed out one that
 * would have been found. On the Chromium class the door raised the events
 * found from 61.1 % to 65.2 % of those looked up, in the same memory
 * (4,096 slots; 1,024 found 64.8 %, 65,536 63.9 %: a short memory keeps
 * what comes back soon). For dict entries it did not pay: 69.5 % found
 * without, 70.2 % with 16,384 slots.
 *
 * One cache per thread: it has no lock.
 */
#ifndef TT_PROTO_TECACHE_H
#define TT_PROTO_TECACHE_H

#include <stddef.h>
#include <stdint.h>

#include "perfetto_trace.pb-c.h"

typedef struct tt_proto_tecache tt_proto_tecache;

/* gen_bytes: each generation's arena (TT_PROTO_TECACHE_GEN for events);
 * door: slots of the admission door (a power of two), 0 for none. */
#define TT_PROTO_TECACHE_GEN (128u << 10)
#define TT_PROTO_TECACHE_DOOR 4096
#define TT_PROTO_DA_GEN (32u << 10) /* for dict entries: small (a name and a value) */
tt_proto_tecache *tt_proto_tecache_new(size_t gen_bytes, size_t door);
void tt_proto_tecache_free(tt_proto_tecache *c);

/* Starts the unpacking of batch seq; released: batches 0..released-1
 * have been given back by the importer (their items are gone). */
void tt_proto_tecache_batch(tt_proto_tecache *c, uint64_t seq, uint64_t released);

/* The message decoded from the same bytes before, or NULL. h: a hash
 * of the bytes (tt_hash_bytes, hash.h). */
const void *tt_proto_tecache_find(tt_proto_tecache *c, uint64_t h, const unsigned char *p, size_t n);

/* Asks for the slot of hash h ahead of its find (a cache miss the find
 * would wait on). */
void tt_proto_tecache_prefetch(const tt_proto_tecache *c, uint64_t h);

/* Whether a miss of the bytes of hash h is to be kept: not the first time
 * the door sees them (it notes them then). Always, without a door. */
int tt_proto_tecache_admit(tt_proto_tecache *c, uint64_t h);

/* The allocator a miss is decoded with, to be kept by tt_proto_tecache_put;
 * NULL when nothing can be kept now (decode elsewhere, do not put). */
ProtobufCAllocator *tt_proto_tecache_alloc(tt_proto_tecache *c);

/* Keeps m (decoded with tt_proto_tecache_alloc's allocator, nothing
 * allocated since) as the message of bytes p[0..n). */
void tt_proto_tecache_put(tt_proto_tecache *c, uint64_t h, const unsigned char *p, size_t n, const void *m);

/* Lookups and hits so far (bench and tests). */
void tt_proto_tecache_counts(const tt_proto_tecache *c, uint64_t *lookups, uint64_t *hits);

#endif
