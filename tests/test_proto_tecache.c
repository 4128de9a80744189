/*
 * test_proto_tecache.c - the cache of decoded TrackEvents (proto_tecache.c):
 * what it finds, and that a generation's memory is used again only after
 * every batch that could point into it was released; and the decode in
 * front of it (tt_proto_unpack), where protobuf-c frees what it rejects.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "proto_read.h"
#include "proto_tecache.h"

/* Decodes bytes as the reader does on a miss, and keeps them. */
static const Perfetto__Protos__TrackEvent *decode_put(tt_proto_tecache *c, const unsigned char *p, size_t n)
{
	ProtobufCAllocator *al = tt_proto_tecache_alloc(c);
	const Perfetto__Protos__TrackEvent *te;
	uint64_t h = tt_proto_bytes_hash(0, p, n);

	if (!al)
		return NULL;
	te = perfetto__protos__track_event__unpack(al, n, p);
	if (te)
		tt_proto_tecache_put(c, h, p, n, te);
	return te;
}

static const Perfetto__Protos__TrackEvent *find(tt_proto_tecache *c, const unsigned char *p, size_t n)
{
	return tt_proto_tecache_find(c, tt_proto_bytes_hash(0, p, n), p, n);
}

/* type = SLICE_END (9: 2), name_iid = k (10: k) */
static size_t event_bytes(unsigned char *b, unsigned k)
{
	b[0] = 9 << 3;
	b[1] = 2;
	b[2] = 10 << 3;
	b[3] = (unsigned char)(k & 0x7f);
	return 4;
}

static void test_finds_what_it_kept(void **state)
{
	tt_proto_tecache *c = tt_proto_tecache_new();
	unsigned char a[8], b[8];
	size_t na = event_bytes(a, 5), nb = event_bytes(b, 6);
	const Perfetto__Protos__TrackEvent *te;
	uint64_t lookups, hits;

	(void)state;
	assert_non_null(c);
	tt_proto_tecache_batch(c, 0, 0);
	assert_null(find(c, a, na));
	te = decode_put(c, a, na);
	assert_non_null(te);
	assert_int_equal(te->name_iid, 5);
	assert_ptr_equal(find(c, a, na), te);
	assert_null(find(c, b, nb));
	/* the same hash with other bytes is not a hit */
	assert_null(tt_proto_tecache_find(c, tt_proto_bytes_hash(0, a, na), b, nb));
	tt_proto_tecache_counts(c, &lookups, &hits);
	assert_int_equal(lookups, 4);
	assert_int_equal(hits, 1);
	tt_proto_tecache_free(c);
}

/* An event whose name (field 23) is len bytes of fill; returns its size. */
static size_t big_event(unsigned char *b, size_t len, unsigned char fill)
{
	size_t n = 0, v = len;

	b[n++] = (23 << 3 | 2) | 0x80; /* the tag, a varint of two bytes */
	b[n++] = (23 << 3 | 2) >> 7;
	do {
		b[n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	memset(b + n, fill, len);
	return n + len;
}

static void test_generations_wait_for_release(void **state)
{
	static unsigned char ev[10000];
	tt_proto_tecache *c = tt_proto_tecache_new();
	const Perfetto__Protos__TrackEvent *first;
	int kept = 0, i;

	(void)state;
	/* batch 0 keeps events until no generation can start: the three
	 * arenas of 128 KiB hold about six events each (10 KB of bytes and
	 * the 10 KB name protobuf-c copies) */
	tt_proto_tecache_batch(c, 0, 0);
	first = decode_put(c, ev, big_event(ev, sizeof(ev) - 8, 0));
	assert_non_null(first);
	for (i = 1; i < 200; i++) {
		if (!decode_put(c, ev, big_event(ev, sizeof(ev) - 8, (unsigned char)i)))
			break;
		kept++;
	}
	/* stopped: batch 0 is not released, so no arena it found is reused */
	assert_true(i < 200);
	assert_true(kept >= 12);
	assert_null(tt_proto_tecache_alloc(c));
	/* the first generation is no longer found */
	assert_null(find(c, ev, big_event(ev, sizeof(ev) - 8, 0)));
	/* still not while batch 0 is held */
	tt_proto_tecache_batch(c, 1, 0);
	assert_null(tt_proto_tecache_alloc(c));
	/* once batch 0 (and only it) is back, batch 1 found only the last
	 * two generations: the others are used again */
	tt_proto_tecache_batch(c, 2, 1);
	assert_non_null(tt_proto_tecache_alloc(c));
	assert_non_null(decode_put(c, ev, big_event(ev, sizeof(ev) - 8, 255)));
	assert_non_null(find(c, ev, big_event(ev, sizeof(ev) - 8, 255)));
	tt_proto_tecache_free(c);
}

/* A packet with two TrackEvents (kept as bytes by the hot schema; the
 * second holds a field hot does not list): protobuf-c frees the first
 * when the second comes, by the descriptor the packet names, which must
 * be the hot one (the real one read the bytes as a message pointer:
 * found by fuzz_proto_packet). */
static void test_hot_packet_event_twice(void **state)
{
	static const unsigned char pkt[] = { 0x68, 0x02, 0x5a, 0x04, 0x2a, 0x02, 0x60, 0x02,
					     0x5a, 0x04, 0x2a, 0x00, 0x50, 0x04 };
	const tt_proto_schema *sc = tt_proto_schema_get();
	tt_proto_arena ar;
	tt_proto_tecache *c = tt_proto_tecache_new();

	(void)state;
	assert_non_null(sc);
	tt_proto_arena_init(&ar);
	tt_proto_tecache_batch(c, 0, 0);
	{
		/* the last TrackEvent, alone, as trace processor's decoder
		 * reads a field given twice (protobuf-c's real schema would
		 * merge the two messages) */
		const Perfetto__Protos__TracePacket *hot = tt_proto_unpack(sc, &ar, c, pkt, sizeof(pkt));
		const Perfetto__Protos__TracePacket *nc = tt_proto_unpack(sc, &ar, NULL, pkt, sizeof(pkt));

		assert_non_null(hot);
		assert_non_null(nc);
		assert_int_equal(hot->sequence_flags, 2);
		assert_int_equal(hot->data_case, PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT);
		assert_int_equal(hot->track_event->name_iid, 4);
		assert_non_null(hot->track_event->task_execution);
		assert_int_equal(hot->track_event->task_execution->base.n_unknown_fields, 0);
		assert_int_equal(nc->track_event->name_iid, 4);
	}
	/* and a good one after it still decodes, found the second time */
	{
		static const unsigned char ok[] = { 0x40, 0x05, 0x5a, 0x02, 0x48, 0x02 }; /* ts 5, TE type END */
		const Perfetto__Protos__TracePacket *a = tt_proto_unpack(sc, &ar, c, ok, sizeof(ok));
		const Perfetto__Protos__TracePacket *b = tt_proto_unpack(sc, &ar, c, ok, sizeof(ok));

		assert_non_null(a);
		assert_non_null(b);
		assert_int_equal(a->timestamp, 5);
		assert_int_equal(a->data_case, PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT);
		assert_int_equal(a->track_event->type, 2);
		assert_ptr_equal(a->track_event, b->track_event);
	}
	{
		/* an empty TrackEvent: protobuf-c gives its bytes as NULL, 0
		 * (found by fuzz_proto_packet: memcpy and memcmp of NULL) */
		static const unsigned char empty[] = { 0x40, 0x07, 0x5a, 0x00 };
		const Perfetto__Protos__TracePacket *a = tt_proto_unpack(sc, &ar, c, empty, sizeof(empty));
		const Perfetto__Protos__TracePacket *b = tt_proto_unpack(sc, &ar, c, empty, sizeof(empty));

		assert_non_null(a);
		assert_non_null(b);
		assert_int_equal(a->data_case, PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT);
		assert_int_equal(a->track_event->type, 0);
		assert_ptr_equal(a->track_event, b->track_event);
	}
	{
		/* a TrackEvent of 3 KB is decoded each time, not kept (it
		 * would push out many); a packet of 100 KB goes to the full
		 * schema at once (hot would copy its event's bytes once more) */
		static unsigned char big[100 << 10];
		size_t names[2] = { 3000, sizeof(big) - 32 }, k;

		for (k = 0; k < 2; k++) {
			size_t n = big_event(big + 16, names[k], 'z'), h = 0, v = n;
			unsigned char hdr[16];
			const Perfetto__Protos__TracePacket *a, *b;

			hdr[h++] = 0x5a; /* track_event, then its length */
			do {
				hdr[h++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
				v >>= 7;
			} while (v);
			memcpy(big + 16 - h, hdr, h);
			a = tt_proto_unpack(sc, &ar, c, big + 16 - h, n + h);
			b = tt_proto_unpack(sc, &ar, c, big + 16 - h, n + h);
			assert_non_null(a);
			assert_non_null(b);
			assert_int_equal(strlen(a->track_event->name), names[k]);
			assert_ptr_not_equal(a->track_event, b->track_event);
		}
	}
	tt_proto_arena_destroy(&ar);
	tt_proto_tecache_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_finds_what_it_kept),
		cmocka_unit_test(test_generations_wait_for_release),
		cmocka_unit_test(test_hot_packet_event_twice),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
