/*
 * proto_tb.h - builds Perfetto traces in memory for the tests: packets
 * packed by protobuf-c behind the Trace field-1 framing (tbuf, tb_packet),
 * a packet on a sequence at a time (pkt), a payload set and packed in one
 * step (TB_PUT). Included by test_proto.c, test_sorter_proto.c and
 * test_metrics_atrace.c.
 */
#ifndef TT_TEST_PROTO_TB_H
#define TT_TEST_PROTO_TB_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "perfetto_trace.pb-c.h"

typedef Perfetto__Protos__TracePacket Pkt;

typedef struct tbuf {
	unsigned char *p;
	size_t n, cap;
} tbuf;

static inline void tb_raw(tbuf *b, const void *d, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
		assert_non_null(b->p);
	}
	memcpy(b->p + b->n, d, n);
	b->n += n;
}

static inline void tb_varint(tbuf *b, uint64_t v)
{
	unsigned char c;

	do {
		c = v & 0x7f;
		v >>= 7;
		if (v)
			c |= 0x80;
		tb_raw(b, &c, 1);
	} while (v);
}

static inline void tb_packet(tbuf *b, const Pkt *p)
{
	size_t n = perfetto__protos__trace_packet__get_packed_size(p);
	unsigned char *tmp = malloc(n + 1);

	assert_non_null(tmp);
	perfetto__protos__trace_packet__pack(p, tmp);
	tb_raw(b, "\x0a", 1);
	tb_varint(b, n);
	tb_raw(b, tmp, n);
	free(tmp);
}

static inline Pkt pkt(uint32_t seq, uint64_t ts)
{
	Pkt p = PERFETTO__PROTOS__TRACE_PACKET__INIT;

	p.has_trusted_packet_sequence_id = 1;
	p.trusted_packet_sequence_id = seq;
	if (ts) {
		p.has_timestamp = 1;
		p.timestamp = ts;
	}
	return p;
}

/* Packs packet p with its payload msg in oneof member `member` (data case
 * CASE): TB_PUT(&b, p, TRACK_EVENT, track_event, &te). */
#define TB_PUT(b, p, CASE, member, msg)                                                \
	((p).data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_##CASE, (p).member = (msg), \
	 tb_packet((b), &(p)))

#endif
