/*
 * ctf_stream_int.h - what the two files of a CTF data stream share
 * (internal to core/import/ctf/; include only from them):
 *   ctf_stream.c  the stream's life, packets, event records, the packet
 *                 index and packets for parallel decoding (ctf_stream.h)
 *   ctf_decode.c  the bit reader, the walking decoder and the compiled
 *                 struct programs
 * The stream's state (struct ctf_stream), the decoders' return codes and
 * the functions one file calls in the other.
 */
#ifndef TT_CTF_STREAM_INT_H
#define TT_CTF_STREAM_INT_H

#include "ctf_stream.h"

#include <stddef.h>
#include <stdint.h>

#define MAX_KEY 1024

enum { DEC_OK = 0, DEC_SHORT = 1, DEC_BAD = 2, DEC_NOMEM = 3, DEC_UNKNOWN = 4, DEC_TS = 5 };

struct ctf_stream {
	const ctf_meta *m;
	char *path;
	const uint8_t *map;
	uint64_t size;
	const ctf_stream_class *sc;
	const ctf_clock *clock;
	uint64_t clock_val;

	/* current packet */
	const uint8_t *pkt;       /* packet start */
	uint64_t pkt_off;         /* its byte offset in the file */
	uint64_t pos, limit;      /* bits from the packet start */
	uint64_t content_end;     /* bits */
	uint64_t next_pkt_off;
	int in_packet, ended, pkt_truncated;
	uint64_t uuid_pos;        /* bit offset of the uuid array */

	uint64_t role_val[CTF_R_COUNT];
	uint32_t role_seen;
	uint64_t *slots;

	int have_prev_disc;
	uint64_t prev_disc;
	unsigned disc_size;
	int have_prev_end;
	int64_t prev_end_ns;
	int have_seq;
	uint64_t prev_seq;
	ctf_discard pending;
	int has_pending;

	uint64_t class_id;
	int64_t instance, cpu;
	int has_last_ts;
	int64_t last_ts;

	/* current event */
	ctf_event ev;
	ctf_val *vals;
	size_t nvals, cvals;
	char *keys;
	size_t nkeys, ckeys;
	int emit;
	char kp[MAX_KEY + 32];    /* key being built */
	int depth;

	ctf_stream_stats st;
	char problem[256];

	/* tt_ctf_stream_event_at: byte offsets of the packets, in file order */
	uint64_t *pkts;
	size_t npkts;
	int indexed, idx_file; /* idx_file: from LTTng's index/NAME.idx */
	const uint8_t *skip; /* tt_ctf_stream_skip_values */

	uint64_t end_off;    /* no packet is opened at or after this byte */
	int part;            /* tt_ctf_stream_part: the map is the parent's */
	int full_clock;      /* a 64-bit clock value was read (open_packet) */
	ctf_packet *pk;      /* tt_ctf_stream_packets */
	size_t npk;
};

/* ctf_stream.c: notes the stream's first problem ("path: ..."). */
void tt_ctf_problem(ctf_stream *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ctf_decode.c: the walking decoder of type t (tt_ctf_dec; a struct:
 * tt_ctf_dec_struct), kp[0..klen) being its key inside arrays, dyn set
 * inside arrays and variants. Return DEC_*. */
int tt_ctf_dec(ctf_stream *s, const ctf_type *t, size_t klen, int dyn);
int tt_ctf_dec_struct(ctf_stream *s, const ctf_type *t, size_t klen, int dyn);
/* Runs struct t's program (ctf_metadata.h: ctf_op) with t at depth base + 1:
 * what tt_ctf_dec_struct(s, t, 0, 0) does, field by field, without the walk. Keys
 * are the nodes' paths (root scopes and what they hold outside arrays). */
int tt_ctf_run_ops(ctf_stream *s, const ctf_type *t, int base);
/* Runs the ops [op, end) of a compiled program (ctf_metadata.h: ctf_op). */
int tt_ctf_run_prog(ctf_stream *s, const ctf_op *op, const ctf_op *end, int base);

/* Decodes a root scope (keys come from the nodes' paths). */
static inline int tt_ctf_dec_root(ctf_stream *s, const ctf_type *t)
{
	s->depth = 0;
	if (t->ops)
		return tt_ctf_run_ops(s, t, 0);
	return t->kind == CTF_K_STRUCT ? tt_ctf_dec_struct(s, t, 0, 0) : tt_ctf_dec(s, t, 0, 0);
}

#endif
