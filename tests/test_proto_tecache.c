/*
 * test_proto_tecache.c - the cache of decoded TrackEvents (proto_tecache.c):
 * what it finds, and that a generation's memory is used again only after
 * every batch that could point into it was released; and the decode in
 * front of it (tt_proto_unpack), where protobuf-c frees what it rejects,
 * and which packets the hot schema takes whole.
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
	uint64_t h = tt_hash_bytes(0, p, n);

	if (!al)
		return NULL;
	te = perfetto__protos__track_event__unpack(al, n, p);
	if (te)
		tt_proto_tecache_put(c, h, p, n, te);
	return te;
}

static const Perfetto__Protos__TrackEvent *find(tt_proto_tecache *c, const unsigned char *p, size_t n)
{
	return tt_proto_tecache_find(c, tt_hash_bytes(0, p, n), p, n);
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
	tt_proto_tecache *c = tt_proto_tecache_new(TT_PROTO_TECACHE_GEN, 0);
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
	assert_null(tt_proto_tecache_find(c, tt_hash_bytes(0, a, na), b, nb));
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
	tt_proto_tecache *c = tt_proto_tecache_new(TT_PROTO_TECACHE_GEN, 0);
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

/* The decode in front of the cache: a schema, an arena and a cache for
 * one test. */
typedef struct dec {
	const tt_proto_schema *sc;
	tt_proto_arena ar;
	tt_proto_tecache *c;
} dec;

static dec *dec_new(void)
{
	static dec d;

	d.sc = tt_proto_schema_get();
	assert_non_null(d.sc);
	tt_proto_arena_init(&d.ar);
	/* as the reader's: with the door */
	d.c = tt_proto_tecache_new(TT_PROTO_TECACHE_GEN, TT_PROTO_TECACHE_DOOR);
	assert_non_null(d.c);
	tt_proto_tecache_batch(d.c, 0, 0);
	return &d;
}

static void dec_free(dec *d)
{
	tt_proto_arena_destroy(&d->ar);
	tt_proto_tecache_free(d->c);
}

/* Unpacks packet p[0..n) twice through the cache: both must decode. */
static void twice(dec *d, const unsigned char *p, size_t n, const Perfetto__Protos__TracePacket **a,
		  const Perfetto__Protos__TracePacket **b)
{
	*a = tt_proto_unpack(d->sc, &d->ar, d->c, p, n);
	*b = tt_proto_unpack(d->sc, &d->ar, d->c, p, n);
	assert_non_null(*a);
	assert_non_null(*b);
	assert_int_equal((*a)->data_case, PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT);
}

/* A packet with two TrackEvents (kept as bytes by the hot schema; the
 * second holds a field hot does not list): protobuf-c frees the first
 * when the second comes, by the descriptor the packet names, which must
 * be the hot one (the real one read the bytes as a message pointer:
 * found by fuzz_proto_packet). The event is the last one, alone, as
 * trace processor's decoder reads a field given twice (protobuf-c's real
 * schema would merge the two messages), with the cache or without. */
static void test_event_twice_in_packet(void **state)
{
	static const unsigned char pkt[] = { 0x68, 0x02, 0x5a, 0x04, 0x2a, 0x02, 0x60, 0x02,
					     0x5a, 0x04, 0x2a, 0x00, 0x50, 0x04 };
	dec *d = dec_new();
	const Perfetto__Protos__TracePacket *hot, *again, *nc;

	(void)state;
	twice(d, pkt, sizeof(pkt), &hot, &again);
	nc = tt_proto_unpack(d->sc, &d->ar, NULL, pkt, sizeof(pkt));
	assert_non_null(nc);
	assert_int_equal(hot->sequence_flags, 2);
	assert_int_equal(hot->track_event->name_iid, 4);
	assert_non_null(hot->track_event->task_execution);
	assert_int_equal(hot->track_event->task_execution->base.n_unknown_fields, 0);
	assert_int_equal(nc->track_event->name_iid, 4);
	dec_free(d);
}

/* An event seen before is the message decoded then, from its third
 * time: the first time its bytes miss, the door only notes them; the
 * second, it is decoded into the cache. So is an empty event, whose
 * bytes protobuf-c gives as NULL, 0 (found by fuzz_proto_packet: memcpy
 * and memcmp of NULL). */
static void test_found_third_time(void **state)
{
	static const unsigned char end[] = { 0x40, 0x05, 0x5a, 0x02, 0x48, 0x02 }; /* ts 5, TE type END */
	static const unsigned char empty[] = { 0x40, 0x07, 0x5a, 0x00 };
	dec *d = dec_new();
	const Perfetto__Protos__TracePacket *a, *b, *c;
	uint64_t lookups, hits;

	(void)state;
	twice(d, end, sizeof(end), &a, &b);
	assert_int_equal(a->timestamp, 5);
	assert_int_equal(a->track_event->type, 2);
	assert_int_equal(b->track_event->type, 2);
	assert_ptr_not_equal(a->track_event, b->track_event);
	c = tt_proto_unpack(d->sc, &d->ar, d->c, end, sizeof(end));
	assert_non_null(c);
	assert_ptr_equal(c->track_event, b->track_event);
	twice(d, empty, sizeof(empty), &a, &b);
	c = tt_proto_unpack(d->sc, &d->ar, d->c, empty, sizeof(empty));
	assert_non_null(c);
	assert_int_equal(c->track_event->type, 0);
	assert_ptr_not_equal(a->track_event, b->track_event);
	assert_ptr_equal(c->track_event, b->track_event);
	tt_proto_tecache_counts(d->c, &lookups, &hits);
	assert_int_equal(lookups, 6);
	assert_int_equal(hits, 2);
	dec_free(d);
}

/* The door itself: a hash is let in the second time it comes, and stays
 * let in; another hash in its slot pushes it out (it is new again). A
 * cache without a door keeps every miss. */
static void test_door(void **state)
{
	tt_proto_tecache *c = tt_proto_tecache_new(TT_PROTO_TECACHE_GEN, 16), *open = tt_proto_tecache_new(64, 0);
	uint64_t h = 0x1234567800050000ULL, same_slot = 0x9abcdef000150000ULL, other = 0x1234567800060000ULL;

	(void)state;
	assert_non_null(c);
	assert_non_null(open);
	assert_false(tt_proto_tecache_admit(c, h));
	assert_true(tt_proto_tecache_admit(c, h));
	assert_true(tt_proto_tecache_admit(c, h));
	/* slot 6: h's slot (5) is left as it is */
	assert_false(tt_proto_tecache_admit(c, other));
	assert_true(tt_proto_tecache_admit(c, h));
	/* slot 5 (bits 16 and up, modulo 16), another tag */
	assert_false(tt_proto_tecache_admit(c, same_slot));
	assert_false(tt_proto_tecache_admit(c, h));
	assert_true(tt_proto_tecache_admit(c, h));
	assert_true(tt_proto_tecache_admit(open, h));
	assert_true(tt_proto_tecache_admit(open, other));
	tt_proto_tecache_free(c);
	tt_proto_tecache_free(open);
}

/* A TrackEvent of 3 KB is decoded each time, not kept (it would push out
 * many); a packet of 100 KB goes to the full schema at once (hot would
 * copy its event's bytes once more). */
static void test_big_not_kept(void **state)
{
	static unsigned char big[100 << 10];
	size_t names[2] = { 3000, sizeof(big) - 32 }, k;
	dec *d = dec_new();

	(void)state;
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
		twice(d, big + 16 - h, n + h, &a, &b);
		assert_int_equal(strlen(a->track_event->name), names[k]);
		assert_ptr_not_equal(a->track_event, b->track_event);
	}
	dec_free(d);
}

/* A track's descriptor and a clock snapshot (the packets besides
 * TrackEvents that a Chrome trace repeats) are unpacked by the hot schema
 * once, as full would unpack them; another packet (a process tree) or a
 * field hot does not list inside the packet goes to full. */
static void test_descriptors_hot(void **state)
{
	/* track_descriptor (60) { uuid (1): 7, name (2): "ab" } */
	static const unsigned char desc[] = { 0xe2, 0x03, 0x06, 0x08, 0x07, 0x12, 0x02, 'a', 'b' };
	/* clock_snapshot (6) { clocks (1) { clock_id (1): 6, timestamp (2): 9 } } */
	static const unsigned char snap[] = { 0x32, 0x06, 0x0a, 0x04, 0x08, 0x06, 0x10, 0x09 };
	/* process_tree (2) { processes (1) { pid (1): 3 } } */
	static const unsigned char tree[] = { 0x12, 0x04, 0x0a, 0x02, 0x08, 0x03 };
	dec *d = dec_new();
	const Perfetto__Protos__TracePacket *p;

	(void)state;
	p = tt_proto_unpack(d->sc, &d->ar, d->c, desc, sizeof(desc));
	assert_non_null(p);
	assert_ptr_equal(p->base.descriptor, &d->sc->hot_pkt);
	assert_int_equal(p->data_case, PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR);
	assert_int_equal(p->track_descriptor->uuid, 7);
	assert_string_equal(p->track_descriptor->name, "ab");
	p = tt_proto_unpack(d->sc, &d->ar, d->c, snap, sizeof(snap));
	assert_non_null(p);
	assert_ptr_equal(p->base.descriptor, &d->sc->hot_pkt);
	assert_int_equal(p->data_case, PERFETTO__PROTOS__TRACE_PACKET__DATA_CLOCK_SNAPSHOT);
	assert_int_equal(p->clock_snapshot->n_clocks, 1);
	assert_int_equal(p->clock_snapshot->clocks[0]->timestamp, 9);
	p = tt_proto_unpack(d->sc, &d->ar, d->c, tree, sizeof(tree));
	assert_non_null(p);
	assert_ptr_not_equal(p->base.descriptor, &d->sc->hot_pkt);
	assert_int_equal(p->data_case, PERFETTO__PROTOS__TRACE_PACKET__DATA_PROCESS_TREE);
	assert_int_equal(p->process_tree->processes[0]->pid, 3);
	dec_free(d);
}

/* A debug annotation's dict entries decoded on their own
 * (tt_proto_da_unpack): the same fields as a whole unpack, the entries of
 * bytes seen before found (the same messages), and an entry protobuf-c
 * rejects rejecting the annotation as a whole unpack does. */
static void test_dict_entries_cached(void **state)
{
	Perfetto__Protos__DebugAnnotation top, e[2], *ep[2];
	static const unsigned char bad[] = { 0x5a, 0x01, 0x08 }; /* dict_entries: a tag without its value */
	unsigned char buf[256];
	size_t n;
	dec *d = dec_new();
	tt_proto_tecache *tc = tt_proto_tecache_new(TT_PROTO_DA_GEN, 0);
	const Perfetto__Protos__DebugAnnotation *a, *b, *w;

	(void)state;
	assert_non_null(tc);
	perfetto__protos__debug_annotation__init(&top);
	for (int i = 0; i < 2; i++) {
		perfetto__protos__debug_annotation__init(&e[i]);
		e[i].name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME;
		ep[i] = &e[i];
	}
	top.name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME;
	top.name = "data";
	top.n_dict_entries = 2;
	top.dict_entries = ep;
	e[0].name = "frame";
	e[0].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE;
	e[0].string_value = "F1";
	e[1].name = "n";
	e[1].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE;
	e[1].int_value = -7;
	n = perfetto__protos__debug_annotation__pack(&top, buf);
	tt_proto_tecache_batch(tc, 0, 0);
	a = tt_proto_da_unpack(d->sc, &d->ar, tc, buf, n);
	b = tt_proto_da_unpack(d->sc, &d->ar, tc, buf, n);
	w = tt_proto_da_unpack(d->sc, &d->ar, NULL, buf, n);
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(w);
	assert_ptr_equal(a->base.descriptor, &perfetto__protos__debug_annotation__descriptor);
	assert_string_equal(a->name, "data");
	assert_int_equal(a->n_dict_entries, 2);
	assert_string_equal(a->dict_entries[0]->name, "frame");
	assert_string_equal(a->dict_entries[0]->string_value, "F1");
	assert_string_equal(a->dict_entries[1]->name, "n");
	assert_int_equal(a->dict_entries[1]->int_value, -7);
	assert_ptr_not_equal(a, b);
	assert_ptr_equal(a->dict_entries[0], b->dict_entries[0]); /* found, not decoded again */
	assert_ptr_equal(a->dict_entries[1], b->dict_entries[1]);
	assert_int_equal(w->n_dict_entries, 2);
	assert_string_equal(w->dict_entries[0]->string_value, "F1");
	assert_int_equal(w->dict_entries[1]->int_value, -7);
	assert_null(tt_proto_da_unpack(d->sc, &d->ar, tc, bad, sizeof(bad)));
	assert_null(tt_proto_da_unpack(d->sc, &d->ar, NULL, bad, sizeof(bad)));
	tt_proto_tecache_free(tc);
	dec_free(d);
}

/* The bump arena protobuf-c allocates from: pieces 16-byte aligned and
 * apart, a piece bigger than a block in a block of its own, the rest of
 * a block skipped for one that does not fit, and after a reset the same
 * memory again in the same order, with no new block. */
static void test_arena(void **state)
{
	tt_proto_arena ar;
	ProtobufCAllocator *al = &ar.alloc;
	char *first, *p[40], *big, *again;
	size_t nb;

	(void)state;
	tt_proto_arena_init(&ar);
	first = al->alloc(al->allocator_data, 1);
	assert_non_null(first);
	assert_int_equal((uintptr_t)first % 16, 0);
	for (int i = 0; i < 40; i++) {
		p[i] = al->alloc(al->allocator_data, 1000 + (size_t)i);
		assert_non_null(p[i]);
		assert_int_equal((uintptr_t)p[i] % 16, 0);
		memset(p[i], i, 1000 + (size_t)i);
	}
	/* 40 KB in the first block of 64 KiB: in order, apart */
	assert_ptr_equal(p[0], first + 16);
	for (int i = 1; i < 40; i++)
		assert_true(p[i] >= p[i - 1] + 1000 + (i - 1));
	for (int i = 0; i < 40; i++)
		assert_int_equal((unsigned char)p[i][999], i);
	big = al->alloc(al->allocator_data, 200000);
	assert_non_null(big);
	assert_true(big + 200000 <= first || big >= p[39] + 1039);
	memset(big, 0xee, 200000);
	assert_int_equal((unsigned char)p[39][0], 39);
	nb = ar.nb;
	assert_int_equal(nb, 2);
	tt_proto_arena_reset(&ar);
	again = al->alloc(al->allocator_data, 1);
	assert_ptr_equal(again, first);
	assert_ptr_equal(al->alloc(al->allocator_data, 1000), p[0]);
	assert_int_equal(ar.nb, nb);
	tt_proto_arena_destroy(&ar);
	assert_int_equal(ar.nb, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arena),
		cmocka_unit_test(test_finds_what_it_kept),
		cmocka_unit_test(test_generations_wait_for_release),
		cmocka_unit_test(test_event_twice_in_packet),
		cmocka_unit_test(test_found_third_time),
		cmocka_unit_test(test_door),
		cmocka_unit_test(test_big_not_kept),
		cmocka_unit_test(test_descriptors_hot),
		cmocka_unit_test(test_dict_entries_cached),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
