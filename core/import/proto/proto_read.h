/*
 * proto_read.h - the first stage of the Perfetto importer: reads the
 * trace through a tt_bytesrc, frames its packets (`0x0A <varint len>
 * <TracePacket>`, formats.md 1.1) and has protobuf-c unpack them, in
 * batches, so that import_proto.c only runs the stateful part
 * (sequences, interning, clocks, tracks, storage).
 *
 * Threads: when it can start one, the reader runs a worker thread that
 * frames batches ahead and unpacks them; the importing thread, when the
 * batch it needs next is not ready, unpacks a framed one itself instead
 * of waiting. Batches come out in file order whoever unpacked them, so
 * the import is the same as with one thread. At most TT_PROTO_BATCHES
 * batches are in flight. Without a worker (thread creation failed, or
 * asked for) the importing thread frames and unpacks each batch when it
 * asks for it. The bytesrc belongs to the reader until
 * tt_proto_reader_free(): the caller must not read it meanwhile.
 *
 * Nothing here touches storage: a packet protobuf-c rejects is handed on
 * as an item without a packet, for the caller to count.
 */
#ifndef TT_PROTO_READ_H
#define TT_PROTO_READ_H

#include <stddef.h>
#include <stdint.h>

#include "perfetto_trace.pb-c.h"

#include "bytesrc.h"
#include "hash.h"
#include "proto_tecache.h"
#include "err.h"

#define TT_PROTO_BATCHES 8

/* A bump allocator for protobuf-c: nothing is freed one by one, the whole
 * arena is reset when its messages are no longer used (no malloc per
 * packet once its blocks have grown). */
typedef struct tt_proto_arena {
	struct tt_proto_ablock { char *p; size_t size; } *b;
	size_t nb, cur;
	char *ptr, *end;             /* what is free in block cur */
	ProtobufCAllocator alloc;
} tt_proto_arena;

void tt_proto_arena_init(tt_proto_arena *a);
void tt_proto_arena_reset(tt_proto_arena *a);
void tt_proto_arena_destroy(tt_proto_arena *a);

/* Reads a varint from [p, e); returns the bytes used, 0 when incomplete,
 * -1 when longer than 10 bytes. */
int tt_proto_varint(const unsigned char *p, const unsigned char *e, uint64_t *out);

/* The schemas packets are unpacked with, built at run time from the
 * generated descriptors: the struct layouts stay the generated ones.
 *   full  Perfetto's, except that a TrackEvent's debug_annotations (field
 *         4) are declared bytes, so that protobuf-c copies each
 *         annotation's bytes instead of unpacking it (they are three
 *         quarters of a Chrome event's bytes, and most events repeat an
 *         earlier event's: proto_args.c unpacks them with the real
 *         descriptor only when their arg set is not known). The
 *         debug_annotations member then points at ProtobufCBinaryData
 *         (tt_proto_packed_annots).
 *   hot   the same, less the fields an ordinary TrackEvent packet does not
 *         have: TracePacket's oneof members but track_event, which hot
 *         keeps as bytes (decoded on their own: tt_proto_unpack), and
 *         TrackEvent's fields but the ~20 producers write on ordinary
 *         events. protobuf-c's cost per message grows with the fields its
 *         descriptor lists (it walks them all). Tried first: a packet
 *         that unpacks into unknown fields with it is unpacked again with
 *         full, and an event left with an unknown field full knows is
 *         decoded again with full's TrackEvent, so the result is always
 *         full's (but for a TrackEvent given twice in one packet: hot
 *         keeps the last, as trace processor's decoder does, where full
 *         merges them).
 * Made once per process (tt_proto_schema_get) and only read after. */
typedef struct tt_proto_schema {
	ProtobufCMessageDescriptor te, pkt, hot_te, hot_pkt;
	ProtobufCMessageDescriptor hot_da; /* a debug annotation with its dict entries as bytes */
	void *mem[15];               /* the copied fields, ranges and name orders */
	size_t nmem;
} tt_proto_schema;

/* The schema, made on the first call; NULL when it could not be made (out
 * of memory, then for the rest of the process). */
const tt_proto_schema *tt_proto_schema_get(void);

/* A TrackEvent unpacked with the schema: its n_debug_annotations packed
 * DebugAnnotations. */
static inline const ProtobufCBinaryData *tt_proto_packed_annots(const Perfetto__Protos__TrackEvent *te)
{
	return (const ProtobufCBinaryData *)(const void *)te->debug_annotations;
}

/* Unpacks one TracePacket into the arena with the schema. NULL when
 * protobuf-c rejects it, or when its messages nest deeper than the
 * importer accepts (protobuf-c recurses without a limit). The nesting is
 * that of Perfetto's schema, checked in packets of 1 KiB and more; a
 * packet the hot schema takes nests no deeper than a few levels but in
 * its packed annotations, which the caller checks before unpacking them
 * (tt_proto_annots_deep): that is the whole check's answer for it.
 * tc: the calling thread's TrackEvent cache, or NULL; a TrackEvent found
 * there is shared with other packets and stays valid until the batches
 * unpacked with it are released (proto_tecache.h): read it, never write
 * it. */
Perfetto__Protos__TracePacket *tt_proto_unpack(const tt_proto_schema *sc, tt_proto_arena *a, tt_proto_tecache *tc,
					       const unsigned char *p, size_t len);

/* A debug annotation from its bytes, as protobuf-c unpacks it with the
 * real descriptor, but its dict entries found in tc (decoded entries by
 * their bytes) when seen before, and shared: read it, never write it. The
 * entries found stay until tc reuses their generation
 * (tt_proto_tecache_batch says when it may). tc NULL: unpacked whole.
 * NULL: rejected (or out of memory). */
Perfetto__Protos__DebugAnnotation *tt_proto_da_unpack(const tt_proto_schema *sc, tt_proto_arena *ar,
						      tt_proto_tecache *tc, const unsigned char *p, size_t n);

/* The hash of n packed annotations on sequence seq (the reader's and
 * proto_args.c's caches). */
uint64_t tt_proto_annots_hash(uint32_t seq, const ProtobufCBinaryData *d, size_t n);

/* Whether one of n packed annotations nests deeper than a packet may
 * (checked in packets of 1 KiB and more, as tt_proto_unpack does; the
 * packet and its TrackEvent count). */
int tt_proto_annots_deep(const ProtobufCBinaryData *d, size_t n);

/* Whether a TrackEvent carries typed arguments (task execution, source
 * location, log message, the Chrome fields of proto_typed_args.c): the
 * importer then builds its arg set every time, so it needs the event's
 * annotations unpacked even when the same bytes came before. */
int tt_proto_has_typed_args(const Perfetto__Protos__TrackEvent *te);

typedef struct tt_proto_item {
	const Perfetto__Protos__TracePacket *pkt; /* NULL: the packet did not unpack */
	uint64_t off;                             /* offset of its tag in the data */
	size_t len;                               /* its length */
	/* Its TrackEvent's debug annotations: the worker unpacks them unless
	 * it has seen the same bytes on the sequence before and the event
	 * has neither a legacy part nor typed args (then the importer most
	 * likely knows their arg set): 1 = unpacked in da, 2 =
	 * left packed (or not unpacked: rejected, or out of memory), 0 = not
	 * looked at (ahash not set either). ahash: tt_proto_annots_hash. */
	int da_state;
	uint64_t ahash;
	Perfetto__Protos__DebugAnnotation **da;
} tt_proto_item;

/* Valid until the next tt_proto_reader_next() or tt_proto_reader_free(). */
typedef struct tt_proto_batch {
	const tt_proto_item *items;
	size_t n;
	uint64_t file_off; /* position in the file once it was read (progress) */
} tt_proto_batch;

/* How reading ended. */
typedef struct tt_proto_end {
	int code;          /* TT_OK, or the read error (message in the err given) */
	const char *bad;   /* NULL at a clean end, else why framing stopped */
	uint64_t off;      /* data offset where it stopped */
	uint64_t left;     /* bytes from there to the end (only counted when at
			      least one packet came before: else 0) */
	uint64_t file_off; /* position in the file at the end */
} tt_proto_end;

typedef struct tt_proto_reader tt_proto_reader;

/* threaded: 0 = never start a worker. batch_packets: packets per batch
 * (0 = default). path is for messages; sc outlives the reader. NULL when
 * out of memory. */
tt_proto_reader *tt_proto_reader_new(tt_bytesrc *src, const char *path, const tt_proto_schema *sc, int threaded,
				     size_t batch_packets);
/* The next batch in file order: 1, or 0 when reading has ended (see
 * tt_proto_reader_end). */
int tt_proto_reader_next(tt_proto_reader *r, tt_proto_batch *b);
/* After next() returned 0: how it ended; err gets the read error, if any. */
void tt_proto_reader_end(const tt_proto_reader *r, tt_proto_end *end, tt_err *err);
/* Stops the worker (it may be ahead) and frees everything. */
void tt_proto_reader_free(tt_proto_reader *r);

#endif
