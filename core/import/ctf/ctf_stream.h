/*
 * ctf_stream.h - decoding one CTF data stream file: packets (header and
 * context), event records (header, contexts, payload), bit-exact integers
 * of any size and alignment in both byte orders, and the clock value rebuilt
 * from N-bit timestamps with the CTF rule (a value smaller than the low N
 * bits of the previous clock value means exactly one wrap).
 *
 * A cursor yields one event at a time in file order (which is time order
 * within a stream); ctf_merge (import_ctf.c) merges cursors with a heap.
 * The file is mmapped read-only; nothing is copied.
 *
 * Decoded values of the current event (stream event context, event context
 * and payload) are valid until the next tt_ctf_stream_next(): keys are
 * NUL-terminated strings (`a.b`, `a[2]`, `context.x`) owned by the
 * metadata or the cursor, strings point into the mapped file.
 *
 * Bad input never stops the other streams: a packet that cannot be decoded
 * is counted and skipped, a packet that runs past the end of the file ends
 * the stream after its last complete event; msg then holds one line naming
 * the file and the byte offset.
 */
#ifndef TT_CTF_STREAM_H
#define TT_CTF_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "ctf_metadata.h"
#include "err.h"

enum ctf_val_kind { CTF_V_INT, CTF_V_UINT, CTF_V_REAL, CTF_V_STR, CTF_V_ENUM };

typedef struct ctf_val {
	enum ctf_val_kind kind;
	const char *key;         /* `a`, `a.b`, `a[2]`, `context.x` */
	uint32_t keyoff;         /* internal: built keys before fix-up */
	union {
		int64_t i;
		uint64_t u;
		double d;
	} v;
	const char *s;           /* CTF_V_STR text, CTF_V_ENUM label (NULL if none) */
	size_t len;
	const ctf_type *type;
} ctf_val;

typedef struct ctf_event {
	const ctf_event_class *cls;
	uint64_t offset;         /* bit offset of the record in the file */
	uint64_t cycles;         /* rebuilt clock value */
	int64_t ts;              /* ns since the epoch */
	ctf_val *vals;           /* stream event context, event context, payload */
	size_t nvals;
	size_t ncontext;         /* the first ncontext vals are contexts */
	/* roles seen in the stream event context (valid if has_*) */
	int has_vpid, has_vtid, has_pid, has_tid;
	int64_t vpid, vtid, pid, tid;
	const char *procname;
	size_t procname_len;
	int skipped;             /* values not produced (tt_ctf_stream_skip_values):
				  * nvals is 0, the thread roles are set */
	int discard;             /* tt_ctf_stream_take_discard has a note */
	/* the packet's (tt_ctf_stream_class_id, _instance, _cpu) */
	uint64_t class_id;
	int64_t instance, cpu;
} ctf_event;

/* Counters a cursor accumulates (the importer moves them to stats). */
typedef struct ctf_stream_stats {
	uint64_t packets;
	uint64_t events;
	uint64_t discarded;      /* sum of events_discarded deltas */
	uint64_t packets_lost;   /* gaps in packet_seq_num */
	uint64_t truncated;      /* packets cut by the end of the file */
	uint64_t decode_errors;  /* packets abandoned on a decode error */
	uint64_t unknown_events; /* event ids not in the metadata */
	uint64_t ts_backwards;   /* events whose ts went backwards */
	uint64_t ts_overflow;    /* events dropped: clock value past int64 ns */
	uint64_t uuid_mismatch;  /* packets whose uuid differs from the metadata's (read) */
} ctf_stream_stats;

typedef struct ctf_stream ctf_stream;

/* Opens path (mmapped) as a stream of the trace described by m. Reads the
 * first packet header to learn its stream class.
 * Errors: TT_EIO (cannot open/map), TT_EINVAL (not a CTF stream of this
 * trace: bad magic, uuid mismatch, unknown stream id), TT_ENOMEM. */
int tt_ctf_stream_open(const ctf_meta *m, const char *path, ctf_stream **out, tt_err *err);
void tt_ctf_stream_close(ctf_stream *s);

/* Advances to the next event. Returns 1 (event in *ev, valid until the
 * next call), 0 (end of the stream). Problems are counted in stats and the
 * first one is described in tt_ctf_stream_problem(). */
int tt_ctf_stream_next(ctf_stream *s, const ctf_event **ev);

/* Set by tt_ctf_stream_next when a packet begins whose events_discarded
 * grew (count: the delta; time range [prev packet end, this packet end]
 * in ns) or whose packet_seq_num skipped (packets: how many are missing;
 * range [prev packet end, this packet begin]). Cleared when taken. */
typedef struct ctf_discard {
	uint64_t count;
	uint64_t packets;
	int64_t begin_ts, end_ts;
} ctf_discard;
/* Non-zero when discards are pending (reported even if a packet has no
 * events: then with the next event, or at the end with *ev NULL). */
int tt_ctf_stream_take_discard(ctf_stream *s, ctf_discard *out);

/* Calls fn with each key an event of class cls (of stream class sc)
 * produces, in order: the same keys as every event of the class when its
 * types are fixed (tt_ctf_type_fixed), found by decoding zeros. Returns 0,
 * or -1 (out of memory, a variant, or more than 64 MiB of fields). */
int tt_ctf_class_keys(const ctf_meta *m, const ctf_stream_class *sc, const ctf_event_class *cls,
		      void (*fn)(void *ctx, const char *key), void *ctx);

/* skip[i] non-zero: events of class m->events[i] are decoded (to find the
 * next one, the clock, the thread) without producing their values. skip
 * (m->nevents bytes, owned by the caller) may change between events;
 * NULL produces every value. */
void tt_ctf_stream_skip_values(ctf_stream *s, const uint8_t *skip);

/* The mapped file's pages leave this process's resident set (they are
 * read again when needed): the import keeps streams mapped for lazy arg
 * sets, without holding the whole trace in memory. */
void tt_ctf_stream_drop_pages(ctf_stream *s);

/* Bytes [from, to) of the mapped file (rounded out to pages) leave the
 * resident set: a part decoded on a worker drops its packets, so the
 * import's peak is its storage, not the trace too. Harmless for any
 * cursor still reading there (the pages come back on access). */
void tt_ctf_stream_drop_range(const ctf_stream *s, uint64_t from, uint64_t to);

/* Decodes the event record at bit offset `offset` of the file again (an
 * offset tt_ctf_stream_next gave in ev->offset, on a cursor of the same
 * file and metadata). Returns 1 with *ev (valid until the next call), 0
 * when no event can be decoded there. Fields, keys and context values are
 * the ones tt_ctf_stream_next gave; ts and cycles are not (the clock needs
 * the packet's earlier events). The first call indexes the packets of the
 * file; a cursor used this way must not be used with tt_ctf_stream_next. */
int tt_ctf_stream_event_at(ctf_stream *s, uint64_t offset, const ctf_event **ev);

/* ---- decoding one stream on several threads ----
 * What a cursor carries from one packet to the next, as it was before a
 * packet opened (tt_ctf_stream_part starts there). */
typedef struct ctf_seed {
	uint64_t clock_val;
	int64_t cpu, instance;
	int have_prev_disc, have_prev_end, have_seq;
	uint64_t prev_disc, prev_seq;
	int64_t prev_end_ns;
} ctf_seed;

typedef struct ctf_packet {
	uint64_t off;           /* byte offset in the file */
	uint64_t content_bytes;
	int64_t ts;             /* ns at its start: for ordering work only */
	int cut;                /* a part cursor from here decodes exactly as
				 * the whole stream's cursor does */
	ctf_seed seed;
} ctf_packet;

/* The packets tt_ctf_stream_next would open, in order (from LTTng's
 * index/NAME.idx when its offsets are those packets, else by walking the
 * packet headers; the stream is not decoded). Owned by s, valid until it
 * is closed; also tt_ctf_stream_event_at's index. The cursor must not have
 * been used with tt_ctf_stream_next. 0, or -1 when out of memory. */
int tt_ctf_stream_packets(ctf_stream *s, const ctf_packet **pk, size_t *n);

/* A cursor of its own over s's mapped file (s must outlive it): from
 * packet pk (one of s's, with pk->cut set) up to byte end_off (no packet
 * opened at or after it; the file's size: to the end), decoding,
 * counting and describing problems as s's cursor would on those packets.
 * Its first event is not compared with the event before it (ts_backwards:
 * the caller compares across parts). It takes s's skip list. */
int tt_ctf_stream_part(const ctf_stream *s, const ctf_packet *pk, uint64_t end_off, ctf_stream **out);

/* Non-zero when tt_ctf_stream_event_at found the packets in LTTng's
 * index/NAME.idx next to the stream (else it scanned the headers). */
int tt_ctf_stream_indexed_by_file(const ctf_stream *s);

const ctf_stream_stats *tt_ctf_stream_stats(const ctf_stream *s);
/* First problem met ("" when none): one line naming the file and offset. */
const char *tt_ctf_stream_problem(const ctf_stream *s);
/* Bytes of the file consumed so far, and its size. */
uint64_t tt_ctf_stream_offset(const ctf_stream *s);
uint64_t tt_ctf_stream_size(const ctf_stream *s);
/* From the first packet: stream class id, stream_instance_id (-1 when
 * absent) and cpu_id (-1 when absent; updated per packet). */
uint64_t tt_ctf_stream_class_id(const ctf_stream *s);
/* The stream class of the current packet (NULL before the first). */
const ctf_stream_class *tt_ctf_stream_class(const ctf_stream *s);
int64_t tt_ctf_stream_instance(const ctf_stream *s);
int64_t tt_ctf_stream_cpu(const ctf_stream *s);

#endif
