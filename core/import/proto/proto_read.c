/*
 * proto_read.c - framing and protobuf-c unpacking of Perfetto packets, in
 * batches, on a worker thread and the importing thread (proto_read.h).
 *
 * Why two threads: protobuf-c's unpack is half of an import's time and
 * depends on nothing but the packet's bytes, while everything after it
 * depends on the packets before. So unpacking moves off the importing
 * thread, and the importing thread only helps with it when it would
 * otherwise wait.
 *
 * A batch goes FREE -> FRAMED (its packets' bytes copied out of the read
 * window, so the window can move on) -> UNPACKING (by either thread) ->
 * READY -> handed out -> FREE. The ring is consumed strictly in order;
 * only the worker frames when there is one (the bytesrc stays on one
 * thread), and either thread unpacks the oldest FRAMED batch. All state
 * changes happen under one mutex; the work itself runs outside it.
 */
#include "proto_read.h"
#include "workq.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PACKET (64u << 20)   /* larger length prefixes are corrupt */
#define MAX_NESTING 64           /* message nesting accepted in a packet */
#define HOT_MAX (64u << 10)      /* bigger packets go to the full schema at once: hot would copy their TrackEvent's bytes once more */
#define CACHE_MAX 2048           /* bigger messages are not cached: they rarely repeat, and would push out many */
#define READ_CHUNK (256u << 10) /* the read window grows by this: it is all touched, so it is resident */
#define READ_REQ (256u << 10)  /* bytesrc's buffer: a request this big is read into the window, not copied there */
#define BATCH_PACKETS 64         /* small enough to stay in cache between the threads; the unpacked messages of the batches in flight stay about a MB (protobuf-c makes ~1.5 KB of a Chrome packet). 256 took the same time on the Chromium class (medians of 12 runs, 0.54 s each) for 2.2 MB more peak (1.47x the file against 1.41x) */
#define BATCH_BYTES (1u << 20)
#define AHEAD_BYTES (32u << 20)  /* packet bytes framed ahead, unless none is */
#define KEEP_BYTES (8u << 20)    /* a batch's buffers above this are freed once used */

/* ---- arena ---------------------------------------------------------------- */

/* The next block (kept from before a reset, or a new one twice the last)
 * with room for n; NULL when out of memory. */
static void *arena_more(tt_proto_arena *a, size_t n)
{
	for (;;) {
		if (a->cur + 1 < a->nb) {
			a->cur++;
		} else {
			size_t sz = a->nb ? a->b[a->nb - 1].size * 2 : 64 * 1024;
			struct tt_proto_ablock *nb;
			char *p;

			while (sz < n)
				sz *= 2;
			nb = realloc(a->b, (a->nb + 1) * sizeof(*nb));
			if (!nb)
				return NULL;
			a->b = nb;
			p = malloc(sz);
			if (!p)
				return NULL;
			a->b[a->nb].p = p;
			a->b[a->nb].size = sz;
			a->cur = a->nb++;
		}
		a->ptr = a->b[a->cur].p;
		a->end = a->ptr + a->b[a->cur].size;
		if ((size_t)(a->end - a->ptr) >= n) {
			void *r = a->ptr;

			a->ptr += n;
			return r;
		}
	}
}

/* protobuf-c allocates through this for every message, string and array
 * (about ten a Chrome packet): the bump is the whole of the common case. */
static void *arena_alloc(void *data, size_t n)
{
	tt_proto_arena *a = data;

	n = (n + 15) & ~(size_t)15;
	if ((size_t)(a->end - a->ptr) >= n) {
		void *p = a->ptr;

		a->ptr += n;
		return p;
	}
	return arena_more(a, n);
}

static void arena_nofree(void *data, void *p)
{
	(void)data;
	(void)p;
}

void tt_proto_arena_init(tt_proto_arena *a)
{
	memset(a, 0, sizeof(*a));
	a->alloc.alloc = arena_alloc;
	a->alloc.free = arena_nofree;
	a->alloc.allocator_data = a;
}

void tt_proto_arena_reset(tt_proto_arena *a)
{
	a->cur = 0;
	a->ptr = a->nb ? a->b[0].p : NULL;
	a->end = a->nb ? a->b[0].p + a->b[0].size : NULL;
}

void tt_proto_arena_destroy(tt_proto_arena *a)
{
	size_t i;

	for (i = 0; i < a->nb; i++)
		free(a->b[i].p);
	free(a->b);
	tt_proto_arena_init(a);
}

/* ---- one packet ------------------------------------------------------------- */

int tt_proto_varint(const unsigned char *p, const unsigned char *e, uint64_t *out)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 10; i++) {
		if (p + i >= e)
			return 0;
		v |= (uint64_t)(p[i] & 0x7f) << (7 * i);
		if (!(p[i] & 0x80)) {
			*out = v;
			return i + 1;
		}
	}
	return -1;
}

/* protobuf-c unpacks nested messages recursively without a depth limit: a
 * hostile packet nesting DebugAnnotations thousands deep overflows the
 * stack. This walk follows the descriptors (it enters message fields
 * only) and says no past MAX_NESTING; malformed bytes are left for
 * protobuf-c to reject. Its own recursion is bounded by MAX_NESTING. */
static int nesting_ok(const ProtobufCMessageDescriptor *d, const unsigned char *p, size_t len, int depth)
{
	const unsigned char *e = p + len;

	if (depth > MAX_NESTING)
		return 0;
	while (p < e) {
		uint64_t tag, n;
		int k = tt_proto_varint(p, e, &tag);

		if (k <= 0)
			return 1;
		p += k;
		switch (tag & 7) {
		case 0:
			k = tt_proto_varint(p, e, &n);
			if (k <= 0)
				return 1;
			p += k;
			break;
		case 1:
		case 5:
			if (e - p < ((tag & 7) == 1 ? 8 : 4))
				return 1;
			p += (tag & 7) == 1 ? 8 : 4;
			break;
		case 2: {
			const ProtobufCFieldDescriptor *f;
			k = tt_proto_varint(p, e, &n);
			if (k <= 0 || n > (uint64_t)(e - p - k))
				return 1;
			p += k;
			/* each level inside costs >= 2 bytes: bytes too few to
			 * go past the limit from here are not walked (the
			 * verdict is the same; most of a Chrome packet is so) */
			if (n / 2 + (uint64_t)depth + 1 <= MAX_NESTING) {
				p += n;
				break;
			}
			f = protobuf_c_message_descriptor_get_field(d, (unsigned)(tag >> 3));
			if (f && f->type == PROTOBUF_C_TYPE_MESSAGE &&
			    !nesting_ok(f->descriptor, p, (size_t)n, depth + 1))
				return 0;
			p += n;
			break;
		}
		default:
			return 1;
		}
	}
	return 1;
}

static void *schema_alloc(tt_proto_schema *sc, size_t n)
{
	void *p = sc->nmem < sizeof(sc->mem) / sizeof(sc->mem[0]) ? malloc(n ? n : 1) : NULL;

	if (p)
		sc->mem[sc->nmem++] = p;
	return p;
}

/* out: d with the fields keep() says yes to (their ranges and name order
 * made again), initialised by protobuf-c (its init names out in the
 * message). -1 out of memory. */
static int schema_subset(tt_proto_schema *sc, ProtobufCMessageDescriptor *out, const ProtobufCMessageDescriptor *d,
			 int (*keep)(const ProtobufCFieldDescriptor *))
{
	ProtobufCFieldDescriptor *f = schema_alloc(sc, d->n_fields * sizeof(*f));
	ProtobufCIntRange *r = schema_alloc(sc, (d->n_fields + 1) * sizeof(*r));
	unsigned *names = schema_alloc(sc, d->n_fields * sizeof(*names));
	unsigned *map = malloc((d->n_fields ? d->n_fields : 1) * sizeof(*map));
	unsigned i, n = 0, nr = 0, nn = 0;

	if (!f || !r || !names || !map) {
		free(map);
		return -1;
	}
	for (i = 0; i < d->n_fields; i++) {
		map[i] = UINT32_MAX;
		if (!keep(&d->fields[i]))
			continue;
		/* ranges: runs of consecutive numbers, as protoc-c makes them */
		if (!n || f[n - 1].id + 1 != d->fields[i].id) {
			r[nr].start_value = (int)d->fields[i].id;
			r[nr].orig_index = n;
			nr++;
		}
		map[i] = n;
		f[n++] = d->fields[i];
	}
	r[nr].start_value = 0;
	r[nr].orig_index = (int)n;
	for (i = 0; i < d->n_fields; i++)
		if (map[d->fields_sorted_by_name[i]] != UINT32_MAX)
			names[nn++] = map[d->fields_sorted_by_name[i]];
	free(map);
	*out = *d;
	out->fields = f;
	out->n_fields = n;
	out->fields_sorted_by_name = names;
	out->field_ranges = r;
	out->n_field_ranges = nr;
	out->message_init = NULL;
	return 0;
}

static int keep_all(const ProtobufCFieldDescriptor *f)
{
	(void)f;
	return 1;
}

/* The fields of a TrackEvent packet, and of the two other packets a
 * TrackEvent trace repeats: its tracks' descriptors (one packet in 24 of
 * a Chromium trace) and clock snapshots. Unpacked hot they need not be
 * unpacked twice (hot, then full for the field hot left unknown); neither
 * nests (no message in them holds itself), as nothing in hot may. */
static int keep_hot_packet(const ProtobufCFieldDescriptor *f)
{
	return !(f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) || f->descriptor == &perfetto__protos__track_event__descriptor ||
	       f->descriptor == &perfetto__protos__track_descriptor__descriptor ||
	       f->descriptor == &perfetto__protos__clock_snapshot__descriptor;
}

/* The TrackEvent fields producers write on ordinary events: protobuf-c's
 * unpack walks every field a descriptor declares (twice), so each one
 * declared costs every event; an event with any other field the full
 * schema knows is decoded again with it (event_decode). */
static int keep_hot_event(const ProtobufCFieldDescriptor *f)
{
	switch (f->id) {
	case 1: case 2: case 16: case 17:   /* timestamp_delta_us, thread_time_*: older Chrome */
	case 3: case 22:                    /* category_iids, categories */
	case 4:                             /* debug_annotations (bytes by then) */
	case 6:                             /* legacy_event */
	case 9: case 11:                    /* type, track_uuid */
	case 10: case 23:                   /* name_iid, name */
	case 12: case 31: case 45: case 46: /* extra_counter_values, _track_uuids (and double) */
	case 30: case 44:                   /* counter_value, double_counter_value */
	case 47: case 48: case 36: case 42: /* flow_ids, terminating_flow_ids (and _old) */
	case 34:                            /* source_location_iid */
		return 1;
	default:
		return 0;
	}
}

static void schema_free(tt_proto_schema *sc)
{
	for (size_t i = 0; i < sc->nmem; i++)
		free(sc->mem[i]);
	sc->nmem = 0;
}

/* The schema, made once per process and only read after (the descriptors
 * are as constant as protoc-c's own, so several imports share them). */
static tt_proto_schema the_schema;
static int the_schema_ok;
static pthread_once_t the_schema_once = PTHREAD_ONCE_INIT;

/* Inits of our descriptors: the generated one (a copy of the default
 * message), then the descriptor named is ours. protobuf-c frees a
 * message it rejects half way by the descriptor the message names: the
 * real TracePacket's would read the hot packet's TrackEvent bytes as a
 * message pointer (found by fuzz_proto_packet), the real TrackEvent's
 * its packed annotations, the real DebugAnnotation's the hot one's dict
 * entries. (protobuf-c's own init for a descriptor without one zeroes
 * the message and walks every field for its default: 50M instructions
 * on the Chromium class for the events.) */
#define NAMED_INIT(fn, type, gen_init, desc) \
	static void fn(ProtobufCMessage *m) \
	{ \
		gen_init((type *)(void *)m); \
		m->descriptor = &the_schema.desc; \
	}
NAMED_INIT(hot_packet_init, Perfetto__Protos__TracePacket, perfetto__protos__trace_packet__init, hot_pkt)
NAMED_INIT(te_init, Perfetto__Protos__TrackEvent, perfetto__protos__track_event__init, te)
NAMED_INIT(hot_te_init, Perfetto__Protos__TrackEvent, perfetto__protos__track_event__init, hot_te)
NAMED_INIT(hot_da_init, Perfetto__Protos__DebugAnnotation, perfetto__protos__debug_annotation__init, hot_da)

static int schema_make(tt_proto_schema *sc)
{
	const ProtobufCMessageDescriptor *te = &perfetto__protos__track_event__descriptor;
	const ProtobufCMessageDescriptor *pk = &perfetto__protos__trace_packet__descriptor;
	ProtobufCFieldDescriptor *f;
	unsigned i;

	memset(sc, 0, sizeof(*sc));
	if (schema_subset(sc, &sc->te, te, keep_all))
		goto oom;
	f = (ProtobufCFieldDescriptor *)sc->te.fields;
	for (i = 0; i < sc->te.n_fields; i++)
		if (f[i].id == 4) { /* debug_annotations */
			f[i].type = PROTOBUF_C_TYPE_BYTES;
			f[i].descriptor = NULL;
		}
	if (schema_subset(sc, &sc->hot_te, &sc->te, keep_hot_event) ||
	    schema_subset(sc, &sc->pkt, pk, keep_all) ||
	    schema_subset(sc, &sc->hot_pkt, pk, keep_hot_packet) ||
	    schema_subset(sc, &sc->hot_da, &perfetto__protos__debug_annotation__descriptor, keep_all))
		goto oom;
	/* a hot annotation keeps its dict entries as bytes: each is decoded
	 * on its own, or found decoded (da_unpack); the repeated field's
	 * array of bytes has the place of the array of pointers */
	f = (ProtobufCFieldDescriptor *)sc->hot_da.fields;
	for (i = 0; i < sc->hot_da.n_fields; i++)
		if (f[i].id == 11) { /* dict_entries */
			f[i].type = PROTOBUF_C_TYPE_BYTES;
			f[i].descriptor = NULL;
		}
	sc->hot_da.message_init = hot_da_init;
	sc->te.message_init = te_init;
	sc->hot_te.message_init = hot_te_init;
	/* full packets get the generated init: it names the real descriptor,
	 * whose fields are theirs (their events name ours, te_init, since the
	 * real TrackEvent descriptor would read packed annotations as
	 * messages were protobuf-c to free them); hot packets get
	 * hot_packet_init */
	sc->pkt.message_init = pk->message_init;
	sc->hot_pkt.message_init = hot_packet_init;
	f = (ProtobufCFieldDescriptor *)sc->pkt.fields;
	for (i = 0; i < sc->pkt.n_fields; i++)
		if (f[i].descriptor == te)
			f[i].descriptor = &sc->te;
	/* the hot packet keeps its TrackEvent as bytes: tt_proto_unpack
	 * decodes them on their own, or finds them decoded (proto_tecache.h);
	 * the oneof's union has bytes members, so the bytes fit where the
	 * message pointer goes */
	f = (ProtobufCFieldDescriptor *)sc->hot_pkt.fields;
	for (i = 0; i < sc->hot_pkt.n_fields; i++)
		if (f[i].descriptor == te) {
			f[i].type = PROTOBUF_C_TYPE_BYTES;
			f[i].descriptor = NULL;
		}
	return 0;
oom:
	schema_free(sc);
	return -1;
}

static void schema_once(void)
{
	the_schema_ok = schema_make(&the_schema) == 0;
}

const tt_proto_schema *tt_proto_schema_get(void)
{
	pthread_once(&the_schema_once, schema_once);
	return the_schema_ok ? &the_schema : NULL;
}

int tt_proto_annots_deep(const ProtobufCBinaryData *d, size_t n)
{
	/* each level costs >= 2 bytes: a short one cannot reach the limit
	 * from its depth (2: under the packet and its TrackEvent) */
	for (size_t i = 0; i < n; i++)
		if (d[i].len >= 2 * (MAX_NESTING - 2) &&
		    !nesting_ok(&perfetto__protos__debug_annotation__descriptor, d[i].data, d[i].len, 2))
			return 1;
	return 0;
}

/* Whether a TrackEvent that hot decoded with unknown fields needs the
 * full schema: only if one of them is a field the full one declares (an
 * extension or a field our .proto lacks stays unknown either way). */
static int full_knows(const tt_proto_schema *sc, const Perfetto__Protos__TrackEvent *te)
{
	for (size_t i = 0; i < te->base.n_unknown_fields; i++)
		if (protobuf_c_message_descriptor_get_field(&sc->te, te->base.unknown_fields[i].tag))
			return 1;
	return 0;
}

/* How a message is decoded from its bytes p[0..n), into al: NULL when
 * rejected (or out of memory). */
typedef const void *(*decode_fn)(const tt_proto_schema *sc, ProtobufCAllocator *al, const unsigned char *p,
				 size_t n);

/* Whether the cache is used for bytes of n (and their hash needed). */
static inline int cacheable(const tt_proto_tecache *tc, size_t n)
{
	return tc && n <= CACHE_MAX;
}

/* The message of bytes p[0..n): found in tc when decoded before, else
 * decoded, into tc when it can keep it (and then kept there), else into
 * a. tc NULL: decoded into a. hp: the bytes' tt_hash_bytes(0, p, n)
 * when the caller has it, else NULL. (Inline: each caller's decode is
 * then a direct call; through the pointer it cost 30M instructions more
 * on the Chromium class.) */
static inline const void *cached_decode(const tt_proto_schema *sc, tt_proto_arena *a, tt_proto_tecache *tc,
				 decode_fn decode, const unsigned char *p, size_t n, const uint64_t *hp)
{
	ProtobufCAllocator *al = NULL;
	const void *m;
	uint64_t h = 0;

	if (cacheable(tc, n)) {
		h = hp ? *hp : tt_hash_bytes(0, p, n);
		if ((m = tt_proto_tecache_find(tc, h, p, n)))
			return m;
		if (tt_proto_tecache_admit(tc, h))
			al = tt_proto_tecache_alloc(tc);
	}
	m = decode(sc, al ? al : &a->alloc, p, n);
	if (m && al)
		tt_proto_tecache_put(tc, h, p, n, m);
	return m;
}

/* A packet's TrackEvent: decoded with the hot schema, and again with the
 * full one when hot left a field unknown that the full one knows. */
static const void *event_decode(const tt_proto_schema *sc, ProtobufCAllocator *al, const unsigned char *p, size_t n)
{
	const Perfetto__Protos__TrackEvent *te =
		(const Perfetto__Protos__TrackEvent *)protobuf_c_message_unpack(&sc->hot_te, al, n, p);

	if (te && te->base.n_unknown_fields && full_knows(sc, te)) {
		/* depth 1: under the packet */
		if (n >= 1024 && !nesting_ok(&perfetto__protos__track_event__descriptor, p, n, 1))
			return NULL;
		te = (const Perfetto__Protos__TrackEvent *)protobuf_c_message_unpack(&sc->te, al, n, p);
	}
	return te;
}

/* A dict entry of a debug annotation (tt_proto_da_unpack). */
static const void *entry_decode(const tt_proto_schema *sc, ProtobufCAllocator *al, const unsigned char *p, size_t n)
{
	(void)sc;
	return perfetto__protos__debug_annotation__unpack(al, n, p);
}

/* A packet tt_proto_unpack could not take hot: the full schema. */
static Perfetto__Protos__TracePacket *unpack_full(const tt_proto_schema *sc, tt_proto_arena *a,
						  const unsigned char *p, size_t len)
{
	/* each nesting level costs >= 2 bytes: small packets cannot go deep
	 * enough to hurt, and skip the walk */
	if (len >= 1024 && !nesting_ok(&perfetto__protos__trace_packet__descriptor, p, len, 0))
		return NULL;
	/* (a packet hot rejects is tried again too: the message would be
	 * that of full's rejection) */
	return (Perfetto__Protos__TracePacket *)protobuf_c_message_unpack(&sc->pkt, &a->alloc, len, p);
}

/* tt_proto_unpack in two steps, so that a batch's loop asks for the
 * TrackEvent's cache slot a packet before it looks there (the slot, out
 * of 80 KB of them, was half of the unpacking's own time outside
 * protobuf-c). The first: the packet hot; when its TrackEvent is still
 * bytes (*pending set), their hash *h when the cache takes them, and
 * their slot asked for. Else the packet (or NULL) for good. */
static Perfetto__Protos__TracePacket *unpack_begin(const tt_proto_schema *sc, tt_proto_arena *a,
						   const tt_proto_tecache *tc, const unsigned char *p, size_t len,
						   int *pending, uint64_t *h)
{
	/* Hot first (packets under HOT_MAX), without the nesting walk: the types it unpacks do not
	 * nest (no recursive message is in it; annotations stay bytes), so
	 * protobuf-c's recursion is bounded, and when it takes the packet
	 * whole, the walk could only have said no inside the annotations,
	 * which are checked as they are unpacked. */
	Perfetto__Protos__TracePacket *pk =
		len < HOT_MAX ? (Perfetto__Protos__TracePacket *)protobuf_c_message_unpack(&sc->hot_pkt, &a->alloc, len, p)
			      : NULL;

	*pending = 0;
	if (pk && !pk->base.n_unknown_fields) {
		const ProtobufCBinaryData *raw = (const ProtobufCBinaryData *)(const void *)&pk->track_event;

		if (pk->data_case != PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT)
			return pk;
		*pending = 1;
		if (cacheable(tc, raw->len)) {
			*h = tt_hash_bytes(0, raw->data, raw->len);
			tt_proto_tecache_prefetch(tc, *h);
		}
		return pk;
	}
	return unpack_full(sc, a, p, len);
}

/* The second step, for a packet unpack_begin left pending (h: the hash
 * it gave, when the cache takes the event): its TrackEvent decoded (or
 * found), else the packet again with the full schema. */
static Perfetto__Protos__TracePacket *unpack_end(const tt_proto_schema *sc, tt_proto_arena *a, tt_proto_tecache *tc,
						 Perfetto__Protos__TracePacket *pk, uint64_t h, const unsigned char *p,
						 size_t len)
{
	const ProtobufCBinaryData *raw = (const ProtobufCBinaryData *)(const void *)&pk->track_event;
	const Perfetto__Protos__TrackEvent *te = cached_decode(sc, a, tc, event_decode, raw->data, raw->len, &h);

	if (te) {
		pk->track_event = (Perfetto__Protos__TrackEvent *)te;
		return pk;
	}
	/* rejected: the full schema says why */
	return unpack_full(sc, a, p, len);
}

Perfetto__Protos__TracePacket *tt_proto_unpack(const tt_proto_schema *sc, tt_proto_arena *a, tt_proto_tecache *tc,
					       const unsigned char *p, size_t len)
{
	uint64_t h = 0;
	int pending;
	Perfetto__Protos__TracePacket *pk = unpack_begin(sc, a, tc, p, len, &pending, &h);

	return pending ? unpack_end(sc, a, tc, pk, h, p, len) : pk;
}

/* ---- the reader ------------------------------------------------------------------ */

typedef struct rawpk {
	size_t pos, len;
	uint64_t off;
} rawpk;

typedef struct pbatch {
	unsigned char *raw;      /* the packets' bytes, back to back */
	size_t raw_n, raw_cap;
	rawpk *pk;
	tt_proto_item *items;    /* as many as pk, filled by unpacking */
	size_t npk, pk_cap;
	uint64_t file_off;
	tt_proto_arena ar;
} pbatch;

struct tt_proto_reader {
	tt_bytesrc *src;
	const char *path;
	const tt_proto_schema *sc;
	uint64_t *seen;          /* SEEN_SLOTS annotation hashes (unpack_annots) */
	tt_proto_tecache *tc;    /* decoded TrackEvents: the worker's (or, without one, the caller's) */
	tt_proto_tecache *tc_main; /* the caller's, for the batches it unpacks when it would wait (worker only) */
	tt_proto_tecache *tc_da; /* decoded dict entries of annotations, with seen and tc */
	_Atomic uint64_t released; /* batches given back by the caller (release) */
	int threaded;
	uint64_t size;
	int plain;
	size_t batch_packets;
	/* the read window: framing only */
	unsigned char *buf;
	size_t cap, beg, end;
	uint64_t off;            /* data offset of buf[beg] */
	int eof;
	uint64_t framed;         /* Trace.packet fields framed */
	tt_proto_end fin;        /* written by the framer, read once done is seen */
	tt_err err;
	/* the ring: a tt_workq of TT_PROTO_BATCHES slots in two stages
	 * (framed, unpacked), weighed by their packet bytes so that big
	 * packets do not multiply memory by the number of slots */
	pbatch b[TT_PROTO_BATCHES];
	tt_workq *q;
	uint64_t cur;            /* the batch the caller holds */
	int held;
};

static pbatch *slot(tt_proto_reader *r, uint64_t i)
{
	return &r->b[i % TT_PROTO_BATCHES];
}

/* Makes at least need bytes available at buf[beg]. Returns 0, 1 at end of
 * data, -1 on a read error or out of memory (err filled). */
static int rd_fill(tt_proto_reader *r, size_t need)
{
	while (r->end - r->beg < need && !r->eof) {
		long n;
		if (r->beg && r->cap - r->end < READ_CHUNK) {
			memmove(r->buf, r->buf + r->beg, r->end - r->beg);
			r->end -= r->beg;
			r->beg = 0;
		}
		if (r->cap - r->end < READ_CHUNK || r->cap < need) {
			size_t ncap = r->cap ? r->cap : 2 * READ_CHUNK;
			unsigned char *nb;
			while (ncap - r->end < READ_CHUNK || ncap < need)
				ncap *= 2;
			nb = realloc(r->buf, ncap);
			if (!nb)
				return tt_err_set(&r->err, TT_ENOMEM, "%s: out of memory at byte %llu", r->path,
						  (unsigned long long)r->off), -1;
			r->buf = nb;
			r->cap = ncap;
		}
		/* requests of bytesrc's buffer size (256 KiB) or more bypass
		 * its buffer: a plain file is read into the window, not read
		 * into that buffer and copied (37 MB the Chromium class: a
		 * copy on the worker) */
		n = tt_bytesrc_read(r->src, r->buf + r->end, READ_REQ < r->cap - r->end ? READ_REQ : r->cap - r->end,
				    &r->err);
		if (n < 0)
			return -1;
		if (n == 0)
			r->eof = 1;
		r->end += (size_t)n;
	}
	return r->end - r->beg >= need ? 0 : 1;
}

/* rd_fill when the window is short: framing asks twice a packet, and the
 * window mostly holds what it asks (20M instructions of calls on the
 * Chromium class). */
static inline int rd_need(tt_proto_reader *r, size_t need)
{
	return r->end - r->beg >= need ? 0 : rd_fill(r, need);
}

static void rd_consume(tt_proto_reader *r, size_t n)
{
	r->beg += n;
	r->off += n;
}

/* Counts the bytes left from the window position to the end of data. */
static uint64_t rd_drain(tt_proto_reader *r)
{
	uint64_t n = r->end - r->beg;

	r->beg = r->end = 0;
	while (!r->eof && !tt_workq_cancelled(r->q)) {
		long k = tt_bytesrc_read(r->src, r->buf, READ_REQ < r->cap ? READ_REQ : r->cap, &r->err);
		if (k <= 0)
			break;
		n += (uint64_t)k;
	}
	return n;
}

/* Copies one packet's bytes into the batch. */
static int add_packet(tt_proto_reader *r, pbatch *b, const unsigned char *p, size_t len)
{
	if (b->npk == b->pk_cap) {
		size_t ncap = b->pk_cap ? b->pk_cap * 2 : 64;
		rawpk *np = realloc(b->pk, ncap * sizeof(*np));
		tt_proto_item *ni;

		if (np)
			b->pk = np;
		ni = np ? realloc(b->items, ncap * sizeof(*ni)) : NULL;
		if (!ni)
			return -1;
		b->items = ni;
		b->pk_cap = ncap;
	}
	/* never NULL, even for empty packets: unpack gets raw + pos */
	if (!b->raw || b->raw_cap - b->raw_n < len) {
		size_t ncap = b->raw_cap ? b->raw_cap : 64 * 1024;
		unsigned char *nr;

		while (ncap - b->raw_n < len)
			ncap *= 2;
		nr = realloc(b->raw, ncap);
		if (!nr)
			return -1;
		b->raw = nr;
		b->raw_cap = ncap;
	}
	memcpy(b->raw + b->raw_n, p, len);
	b->pk[b->npk].pos = b->raw_n;
	b->pk[b->npk].len = len;
	b->pk[b->npk].off = r->off;
	b->npk++;
	b->raw_n += len;
	r->framed++;
	return 0;
}

/* Frames the next packets into b. Returns 1 when framing has ended (r->fin
 * says how), else 0. */
static int frame_batch(tt_proto_reader *r, pbatch *b)
{
	const char *bad = NULL;

	b->raw_n = b->npk = 0;
	while (b->npk < r->batch_packets && b->raw_n < BATCH_BYTES) {
		uint64_t tag, len;
		int k, k2, f;

		f = rd_need(r, 20);
		if (f < 0)
			goto failed;
		if (r->end == r->beg)
			goto ended; /* clean end */
		k = tt_proto_varint(r->buf + r->beg, r->buf + r->end, &tag);
		if (k <= 0) {
			bad = "bad tag";
			goto ended;
		}
		switch (tag & 7) {
		case 0:
			k2 = tt_proto_varint(r->buf + r->beg + k, r->buf + r->end, &len);
			if (k2 <= 0 || tag >> 3 == 0) {
				bad = "bad field";
				goto ended;
			}
			rd_consume(r, (size_t)(k + k2));
			continue;
		case 1:
		case 5: {
			size_t n = (tag & 7) == 1 ? 8 : 4;
			if (tag >> 3 == 0 || rd_need(r, (size_t)k + n)) {
				bad = "bad field";
				goto ended;
			}
			rd_consume(r, (size_t)k + n);
			continue;
		}
		case 2:
			break;
		default:
			bad = "bad wire type";
			goto ended;
		}
		k2 = tt_proto_varint(r->buf + r->beg + k, r->buf + r->end, &len);
		if (k2 <= 0 || tag >> 3 == 0) {
			bad = "bad length";
			goto ended;
		}
		if (len > MAX_PACKET || (r->plain && r->size && len > r->size - r->off - (uint64_t)(k + k2))) {
			bad = "packet length beyond the end of the file";
			goto ended;
		}
		f = rd_need(r, (size_t)(k + k2) + (size_t)len);
		if (f < 0)
			goto failed;
		if (f > 0) {
			bad = "packet cut short";
			goto ended;
		}
		if (tag >> 3 == 1 && add_packet(r, b, r->buf + r->beg + k + k2, (size_t)len)) {
			tt_err_set(&r->err, TT_ENOMEM, "%s: out of memory at byte %llu", r->path,
				   (unsigned long long)r->off);
			goto failed;
		}
		rd_consume(r, (size_t)(k + k2) + (size_t)len);
	}
	b->file_off = tt_bytesrc_file_offset(r->src);
	return 0;
failed:
	r->fin.code = r->err.code ? r->err.code : TT_EIO;
	r->fin.off = r->off;
	b->file_off = r->fin.file_off = tt_bytesrc_file_offset(r->src);
	return 1;
ended:
	r->fin.bad = bad;
	r->fin.off = r->off;
	/* Without any packet before it, the caller says "not a trace" and
	 * does not need the count: do not read a big non-trace to the end. */
	if (bad && r->framed)
		r->fin.left = rd_drain(r);
	b->file_off = r->fin.file_off = tt_bytesrc_file_offset(r->src);
	return 1;
}

uint64_t tt_proto_annots_hash(uint32_t seq, const ProtobufCBinaryData *d, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ seq;

	for (size_t i = 0; i < n; i++)
		h = tt_hash_bytes(h, d[i].data, d[i].len);
	return h;
}

/* A debug annotation, as protobuf-c unpacks it with the real descriptor
 * (it unpacks each element of a repeated message field from its own
 * bytes, as here): the top level with the hot descriptor, then each dict
 * entry from its bytes, found in tc when decoded before (proto_read.h). A
 * Chrome trace's annotations are dicts ("data": {frame, nodeId, url, ...}) whose entries
 * repeat four times in five on a sequence where whole annotations rarely
 * do (3 %). The entries found are shared read-only, as cached TrackEvents
 * are. tc NULL: unpacked whole. NULL: rejected (or out of memory). */
Perfetto__Protos__DebugAnnotation *tt_proto_da_unpack(const tt_proto_schema *sc, tt_proto_arena *ar,
						      tt_proto_tecache *tc, const unsigned char *p, size_t n)
{
	Perfetto__Protos__DebugAnnotation *a, **v;
	const ProtobufCBinaryData *e;

	if (!tc)
		return perfetto__protos__debug_annotation__unpack(&ar->alloc, n, p);
	a = (Perfetto__Protos__DebugAnnotation *)protobuf_c_message_unpack(&sc->hot_da, &ar->alloc, n, p);
	if (!a)
		return NULL;
	if (a->n_dict_entries) {
		e = (const ProtobufCBinaryData *)(const void *)a->dict_entries;
		v = ar->alloc.alloc(ar, a->n_dict_entries * sizeof(*v));
		if (!v)
			return NULL;
		for (size_t i = 0; i < a->n_dict_entries; i++) {
			const void *m = cached_decode(sc, ar, tc, entry_decode, e[i].data, e[i].len, NULL);

			if (!m)
				return NULL;
			v[i] = (Perfetto__Protos__DebugAnnotation *)(uintptr_t)m;
		}
		a->dict_entries = v;
	}
	a->base.descriptor = &perfetto__protos__debug_annotation__descriptor;
	return a;
}

#define SEEN_SLOTS (1u << 15) /* unpack_annots */

/* First step, as each packet is unpacked: the annotations' hash, and
 * their slot in seen asked for (a cache miss: 256 KB of slots), so that
 * it is there when the packet's annotations are read (unpack_annots,
 * after the next packet's unpack). */
static void hash_annots(uint64_t *seen, tt_proto_item *it)
{
	const Perfetto__Protos__TracePacket *p = it->pkt;
	const Perfetto__Protos__TrackEvent *te;

	it->da_state = 0;
	it->da = NULL;
	if (!seen || !p || p->data_case != PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT ||
	    !p->track_event->n_debug_annotations)
		return;
	te = p->track_event;
	it->ahash = tt_proto_annots_hash(p->trusted_packet_sequence_id, tt_proto_packed_annots(te),
					 te->n_debug_annotations);
	it->da_state = 2;
	__builtin_prefetch(&seen[it->ahash & (SEEN_SLOTS - 1)]);
}

/* An event's packed annotations (see tt_proto_item): unpacked here unless
 * seen (hashes of those seen, one slot per hash: a hash pushed out only
 * means an unpack the importer would have saved) says the bytes came
 * before on the sequence. The set of an event with a legacy part or
 * typed args is not cached by the importer (proto_args.c): always
 * unpacked (left to the importer, they were a fifth of its own unpacks
 * on a Chromium trace, on the thread the import waits for). seen NULL:
 * left packed. */
static void unpack_annots(const tt_proto_schema *sc, uint64_t *seen, tt_proto_tecache *tc_da, tt_proto_arena *ar,
			  tt_proto_item *it)
{
	const Perfetto__Protos__TrackEvent *te;
	const ProtobufCBinaryData *d;
	uint64_t *slot;
	size_t i;

	if (it->da_state != 2)
		return;
	te = it->pkt->track_event;
	d = tt_proto_packed_annots(te);
	slot = &seen[it->ahash & (SEEN_SLOTS - 1)];
	/* (annotations nesting too deep in a packet of 1 KiB or more are
	 * the importer's to judge; a shorter packet's cannot nest deep
	 * enough to hurt, as in tt_proto_unpack) */
	if ((*slot == it->ahash && !te->legacy_event && !tt_proto_has_typed_args(te)) ||
	    (it->len >= 1024 && tt_proto_annots_deep(d, te->n_debug_annotations)))
		return;
	it->da = ar->alloc.alloc(ar, te->n_debug_annotations * sizeof(*it->da));
	if (!it->da)
		return;
	for (i = 0; i < te->n_debug_annotations; i++)
		if (!(it->da[i] = tt_proto_da_unpack(sc, ar, tc_da, d[i].data, d[i].len))) {
			/* rejected, or out of memory: the importer tries again */
			it->da = NULL;
			return;
		}
	it->da_state = 1;
	*slot = it->ahash;
}

/* Each packet goes through three steps a packet apart, each asking for
 * what the next one reads: unpack_begin (the TrackEvent's cache slot),
 * unpack_end and hash_annots (the annotations' seen slot), then
 * unpack_annots. */
static void unpack_batch(const tt_proto_schema *sc, uint64_t *seen, tt_proto_tecache *tc, tt_proto_tecache *tc_da,
			 pbatch *b)
{
	/* the packet one step behind: its message, and unpack_begin's say */
	Perfetto__Protos__TracePacket *pk[2] = { NULL, NULL };
	int pending[2] = { 0, 0 };
	uint64_t h[2] = { 0, 0 };

	tt_proto_arena_reset(&b->ar);
	for (size_t i = 0; i < b->npk + 2; i++) {
		if (i < b->npk) {
			tt_proto_item *it = &b->items[i];

			it->off = b->pk[i].off;
			it->len = b->pk[i].len;
			it->pkt = pk[i & 1] = unpack_begin(sc, &b->ar, tc, b->raw + b->pk[i].pos, b->pk[i].len,
							   &pending[i & 1], &h[i & 1]);
		}
		if (i >= 1 && i - 1 < b->npk) {
			size_t k = i - 1;
			tt_proto_item *it = &b->items[k];

			if (pending[k & 1])
				it->pkt = unpack_end(sc, &b->ar, tc, pk[k & 1], h[k & 1], b->raw + b->pk[k].pos,
						     b->pk[k].len);
			hash_annots(seen, it);
		}
		if (i >= 2 && i - 2 < b->npk)
			unpack_annots(sc, seen, tc_da, &b->ar, &b->items[i - 2]);
	}
}

/* Frames batch seq (a claim: framing goes in file order, on one thread at
 * a time: the worker, or the caller when there is none). */
static void frame_slot(tt_proto_reader *r, uint64_t seq)
{
	pbatch *b = slot(r, seq);
	int fin = frame_batch(r, b);

	tt_workq_done(r->q, seq, b->raw_n);
	if (fin)
		tt_workq_close(r->q);
}

/* own: the worker's caches (seen, tc) are used (or, without a worker, the
 * importing thread's); else the importing thread's own TrackEvent cache
 * (without one it decoded every event of a batch it took, where the
 * worker finds three in four in its cache: its help cost it four times
 * the work). A cache is never shared between the two threads; the
 * annotations of a batch the importing thread unpacks stay packed (it
 * unpacks those it needs when it reads them). */
static void unpack_slot(tt_proto_reader *r, uint64_t seq, int own)
{
	tt_proto_tecache *tc = own ? r->tc : r->tc_main;
	uint64_t released = atomic_load_explicit(&r->released, memory_order_acquire);

	if (tc)
		tt_proto_tecache_batch(tc, seq, released);
	/* (the annotations of a batch the importing thread takes stay
	 * packed: the entries' cache is the worker's too) */
	if (own)
		tt_proto_tecache_batch(r->tc_da, seq, released);
	unpack_batch(r->sc, own ? r->seen : NULL, tc, own ? r->tc_da : NULL, slot(r, seq));
	tt_workq_done(r->q, seq, 0);
}

/* Gives back a used batch; a big packet's buffers go, not to stay for
 * the rest of the import. */
static void release(tt_proto_reader *r, uint64_t seq)
{
	pbatch *b = slot(r, seq);
	size_t i, arena = 0;

	if (b->raw_cap > KEEP_BYTES) {
		free(b->raw);
		b->raw = NULL;
		b->raw_cap = 0;
	}
	for (i = 0; i < b->ar.nb; i++)
		arena += b->ar.b[i].size;
	if (arena > KEEP_BYTES)
		tt_proto_arena_destroy(&b->ar);
	/* released in order: the items of batches up to seq are gone, and
	 * the TrackEvents they shared may be reused (proto_tecache.h) */
	atomic_store_explicit(&r->released, seq + 1, memory_order_release);
	tt_workq_release(r->q, seq);
}

/* The worker frames while it may (framing is cheap and keeps work in
 * sight for both threads), else unpacks the newest framed batch, so that
 * the importing thread does not wait for a batch the worker has just
 * started. */
static void *worker(void *arg)
{
	tt_proto_reader *r = arg;
	uint64_t seq;
	int k;

	while ((k = tt_workq_work(r->q, TT_WQ_WAIT | TT_WQ_NEWEST, 1, &seq)) > 0) {
		if (k == TT_WQ_CLAIMED)
			frame_slot(r, seq);
		else
			unpack_slot(r, seq, 1);
	}
	return NULL;
}

tt_proto_reader *tt_proto_reader_new(tt_bytesrc *src, const char *path, const tt_proto_schema *sc, int threaded,
				     size_t batch_packets)
{
	tt_proto_reader *r = calloc(1, sizeof(*r));
	size_t i;

	if (!r)
		return NULL;
	r->src = src;
	r->path = path;
	r->sc = sc;
	r->threaded = threaded;
	r->size = tt_bytesrc_size(src);
	r->plain = !tt_bytesrc_is_gzip(src);
	r->batch_packets = batch_packets ? batch_packets : BATCH_PACKETS;
	for (i = 0; i < TT_PROTO_BATCHES; i++)
		tt_proto_arena_init(&r->b[i].ar);
	if (!(r->seen = calloc(SEEN_SLOTS, sizeof(*r->seen))) || !(r->tc = tt_proto_tecache_new(TT_PROTO_TECACHE_GEN, TT_PROTO_TECACHE_DOOR)) ||
	    !(r->tc_da = tt_proto_tecache_new(TT_PROTO_DA_GEN, 0)) ||
	    (threaded && !(r->tc_main = tt_proto_tecache_new(TT_PROTO_TECACHE_GEN, TT_PROTO_TECACHE_DOOR))) ||
	    !(r->q = tt_workq_new(TT_PROTO_BATCHES, 2, AHEAD_BYTES))) {
		tt_proto_tecache_free(r->tc);
		tt_proto_tecache_free(r->tc_da);
		tt_proto_tecache_free(r->tc_main);
		free(r->seen);
		free(r);
		return NULL;
	}
	/* no worker: the caller frames and unpacks each batch itself */
	if (threaded)
		tt_workq_start(r->q, worker, r);
	return r;
}

int tt_proto_reader_next(tt_proto_reader *r, tt_proto_batch *out)
{
	uint64_t seq;

	if (r->held) {
		release(r, r->cur);
		r->held = 0;
	}
	for (;;) {
		/* rather than wait, unpack whatever is framed (maybe a later
		 * batch: it will be ready when its turn comes) */
		switch (tt_workq_next(r->q, TT_WQ_WAIT, 1, &seq)) {
		case TT_WQ_TAKEN: {
			pbatch *b = slot(r, seq);

			r->held = 1;
			r->cur = seq;
			out->items = b->items;
			out->n = b->npk;
			out->file_off = b->file_off;
			return 1;
		}
		case TT_WQ_GRABBED:
			/* without a worker the caller unpacks every batch */
			unpack_slot(r, seq, !r->threaded);
			break;
		case TT_WQ_NONE: /* no worker: frame here */
			if (tt_workq_work(r->q, 0, -1, &seq) == TT_WQ_CLAIMED)
				frame_slot(r, seq);
			break;
		default:
			return 0;
		}
	}
}

void tt_proto_reader_end(const tt_proto_reader *r, tt_proto_end *end, tt_err *err)
{
	*end = r->fin;
	if (r->fin.code && err)
		*err = r->err;
}

void tt_proto_reader_free(tt_proto_reader *r)
{
	size_t i;

	if (!r)
		return;
	tt_workq_free(r->q); /* stops and joins the worker */
	for (i = 0; i < TT_PROTO_BATCHES; i++) {
		free(r->b[i].raw);
		free(r->b[i].pk);
		free(r->b[i].items);
		tt_proto_arena_destroy(&r->b[i].ar);
	}
	free(r->buf);
	free(r->seen);
	tt_proto_tecache_free(r->tc);
	tt_proto_tecache_free(r->tc_da);
	tt_proto_tecache_free(r->tc_main);
	free(r);
}
