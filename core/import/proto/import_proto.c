/*
 * import_proto.c - the Perfetto protobuf importer (issue 3).
 *
 * Pipeline (design.md, formats.md section 1):
 *   framing   the file is `0x0A <varint len> <TracePacket>` repeated; we
 *   unpack    frame it ourselves and protobuf-c unpacks each TracePacket on
 *             its own, in batches of up to 1024, on a worker thread with
 *             the importing thread helping (proto_read.c). Memory follows
 *             the batches in flight, never the file size. compressed_packets
 *             are inflated (zlib/gzip auto-detect) and framed the same way
 *             here, one inner packet at a time in a bump arena.
 *   tokenize  in file order, per trusted_packet_sequence_id: incremental
 *             state (interning, defaults, clears, skipped packets), clocks
 *             (proto_clock.c), descriptors, arg sets. Every event becomes a
 *             compact record (trace-clock ns, track, kind, string ids,
 *             arg_set_id, value) appended to its sequence's list.
 *   sort      each sequence's list is usually already in time order (it is
 *             sorted stably when not); the lists are merged with a loser
 *             tree by (ts, file order), so ties keep file order, on a
 *             thread of its own while the importing thread feeds:
 *   parse     records go to slice_tracker (nesting), counters, flows.
 *             ftrace sched_switch rows are sorted per cpu and become
 *             sched_slice and thread_state rows.
 * Threads only move work: the result is the one-thread import's
 * (tt_import_proto_opts runs without them; tests compare both). Storage,
 * trackers, progress and cancellation stay on the importing thread.
 *
 * Choices:
 *   - Clock: every timestamp is converted to the trace clock, i.e. the
 *     primary_trace_clock of the first ClockSnapshot, else BOOTTIME, as
 *     trace_processor does (Chrome: MONOTONIC). Packets without a clock id
 *     are on the trace clock. Unconvertible ones are kept as they are and
 *     counted (proto_clock_unknown). See proto_clock.h. Every packet's
 *     timestamp is converted (not only events'), so a delta on a descriptor
 *     packet moves an incremental clock, as in Perfetto (Chrome writes such
 *     deltas).
 *   - TrackDescriptor with `thread` is that thread's track (the same track
 *     JSON traces use: tt_storage_thread_track); with `process` a process
 *     track; with `counter` a counter track; others are async tracks
 *     scoped by their parent (thread / process / global). uuid 0 is the
 *     global "Default Track".
 *   - Legacy events (Chrome's proto still writes some): X (duration),
 *     B/E, I/i with scope, R (mark) as a 0-length instant on the thread
 *     with arg legacy_event.phase = "R" (as trace_processor's
 *     ParseThreadInstantEvent does), async b/e/n and S/T/p/F on tracks
 *     keyed by (process, id, category or name, id_scope). An event with
 *     track uuid 0 and no type falls back to its sequence's thread track.
 *   - Thread time: values of a THREAD_TIME_NS counter track (Chrome's
 *     extra counter) go to the counter table and to slice thread_ts /
 *     thread_dur.
 *   - A truncated file keeps every complete packet; the bytes left are
 *     counted in proto_truncated and the offset of the cut is stored as
 *     metadata `proto_truncated_offset`. A first packet that cannot be
 *     framed or unpacked means "not a trace": TT_EINVAL.
 *
 * Cost (tests/bench/bench_proto.c, 1M Chrome-like events, 64 sequences,
 * 2 cores): protobuf-c's unpack is ~155 ns a packet (6.4M events/s on one
 * core, 11M/s on two); tokenizing ~75 ns an event, the merge ~25 and the
 * trackers and storage ~20. With the work shared the import runs at ~6M
 * events/s where one thread gives ~3.5M/s. Records are 40 bytes per event,
 * freed after the merge. Tried and dropped: a slim "hot" schema (packet and
 * TrackEvent with only the fields imported, the full ones as fallback)
 * unpacks ~15 % faster, but building these structs from it costs as much.
 *
 * Known limits: zstd_compressed_packets are counted, not inflated; the
 * packets inside compressed_packets are unpacked on the importing thread
 * (one at a time, not by the worker); legacy v1 flow events (s/t/f) and
 * pid/tid overrides are not imported; sched_waking / compact waking events
 * are skipped; open sched slices end at the last timestamp of the trace;
 * async S/F atrace slices get one track per (process, name, cookie).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "perfetto_trace.pb-c.h"

#include "async_tracker.h"
#include "import_int.h"
#include "keymap.h"
#include "proto_atrace.h"
#include "proto_clock.h"
#include "proto_read.h"
#include "proto_map.h"
#include "vec.h"

typedef Perfetto__Protos__TracePacket Pkt;
typedef Perfetto__Protos__TrackEvent TEv;
typedef Perfetto__Protos__TrackEvent__LegacyEvent LEv;
typedef Perfetto__Protos__DebugAnnotation DAnn;
typedef Perfetto__Protos__DebugAnnotation__NestedValue DNest;
typedef Perfetto__Protos__TrackDescriptor TDesc;
typedef Perfetto__Protos__FtraceEventBundle FBundle;

#define MAX_INFLATED (64u << 20)    /* one compressed_packets blob */
#define TRACK_UUID 0x80000000u      /* record track: uuid table index */
#define TRACK_ASYNC 0x40000000u     /* record track: legacy async key index */
#define FTRACE_SEQ (1ULL << 32)     /* pseudo sequences: one per cpu */

enum { R_BEGIN = 1, R_END, R_COMPLETE, R_COUNTER, R_FLOW_V1 };
/* R_FLOW_V1 records: flags say which step, u.i the flow's key */
enum { V1_START = 1, V1_STEP, V1_END, V1_END_ENCLOSING };
enum { F_FLOWS = 1, F_TTS = 2 };
enum { UT_NONE, UT_THREAD, UT_PROCESS, UT_COUNTER };
/* flow entry kinds */
enum { FL_STEP, FL_TERM, FL_OUT, FL_INOUT, FL_IN };

/* One event, after tokenizing (40 bytes). */
typedef struct prec {
	int64_t ts;
	union {
		int64_t i;  /* R_COMPLETE: dur; R_BEGIN/R_END/instants with F_TTS: thread ts */
		double d;   /* R_COUNTER: value */
	} u;
	uint32_t track;     /* storage track, or TRACK_UUID | uuid index */
	tt_str name, cat;
	uint32_t args;
	uint32_t ord;       /* file order */
	uint8_t kind, flags;
} prec;

typedef struct pflow {
	uint32_t ord;
	uint32_t kind;
	uint64_t id;
} pflow;

typedef struct sched_rec {
	int64_t ts;
	int64_t prev_state;
	uint32_t cpu;
	int32_t next_pid, next_prio;
	uint32_t ord;
	tt_str next_comm;
} sched_rec;

typedef struct utrack {
	uint64_t uuid, parent;
	int has_parent, described, kind, resolving;
	int merge;                   /* sibling_merge_behavior: 0/1 by name, 2 none, 3 by key */
	tt_str merge_key;
	int merged;                  /* resolved to a set of merged sibling tracks */
	uint64_t mk1, mk2, mk3;      /* the set */
	tt_track_desc mdesc;         /* its tracks */
	tt_str name, desc;
	uint32_t utid, upid;         /* thread / process descriptors */
	int counter_type, incremental;
	int64_t mult;
	tt_str unit;
	uint32_t track;              /* storage track once resolved */
	uint32_t scope_utid, scope_upid;
} utrack;

/* iid -> tt_str, one interning table of a sequence. Producers number
 * iids from 1 up, so small ones live in an array: one load, where a hash
 * probe missed the cache as 64 sequences' tables took turns. The array
 * only grows to twice the entries put, so sparse or hostile iids go to
 * the hash map and memory follows the entries. */
typedef struct itab {
	uint32_t *dense;             /* tt_str + 1; 0 = absent */
	size_t n;
	uint64_t puts;               /* since the last clear */
	tt_pmap sparse;
} itab;

typedef struct pseq {
	uint64_t key;
	uint32_t id;                 /* trusted_packet_sequence_id (0 for ftrace) */
	int valid;
	int has_def_clock, has_def_track;
	uint32_t def_clock;
	uint64_t def_track;
	TT_VEC(uint64_t) def_extra;      /* extra_counter_track_uuids */
	TT_VEC(uint64_t) def_extra_dbl;  /* extra_double_counter_track_uuids */
	itab names, cats, dnames, dstrs;
	uint64_t last_uuid;          /* get_utrack cache: last track_uuid of an event */
	uint32_t last_utrack;        /* its uuid table index, TT_NONE before any */
	tt_pmap counters;            /* incremental counter uuid -> double bits */
	uint32_t fallback_track;     /* record track of the sequence's thread, or TT_NONE */
	int64_t legacy_tic;          /* thread instruction count (delta-encoded) */
	int64_t thr_pid, thr_tid;    /* the sequence's thread (valid with fallback_track) */
	int64_t legacy_ts, legacy_tts; /* old Chrome reference times (ns) */
	TT_VEC(prec) recs;
	int sorted;
} pseq;

/* A process's args from its latest descriptor (Chrome labels, type). */
#define PARGS_LABELS 8
typedef struct pargs {
	uint32_t upid;
	tt_str type, pkg;
	tt_str labels[PARGS_LABELS];
	size_t nlabels;
	int has_crash;
	uint64_t crash;
} pargs;

/* A legacy async event's track key; its track is chosen when the sorted
 * events are fed (async_tracker.h: which track depends on what is open). */
typedef struct akey {
	uint32_t upid;               /* TT_NONE: a global id */
	tt_str scope, name;
	uint64_t id;
} akey;

typedef struct pctx {
	tt_import *im;
	tt_storage *st;
	tt_proto_clock *clock;
	tt_proto_arena ar;           /* packets inside compressed_packets, one at a time */
	tt_pmap seq_index;
	TT_VEC(pseq *) seqs;
	pseq *last_seq;              /* get_seq cache */
	tt_pmap uuid_index;
	TT_VEC(utrack) utracks;
	TT_VEC(pflow) flows;
	TT_VEC(sched_rec) sched;
	tt_pmap ftrace_threads;      /* tid -> utid + 1 */
	tt_pmap named_procs;         /* upid -> priority of its name (PN_*) */
	tt_pmap proc_args;           /* upid -> index in pargs */
	tt_pmap desc_by_upid, desc_by_utid; /* process/thread -> uuid of its descriptor */
	TT_VEC(pargs) pargs;
	tt_keymap akey_index;        /* (upid, scope, id, name) -> akeys index */
	tt_pmap v1_pending;          /* track -> slice + 1 whose v1 flow ends at the next slice there */
	TT_VEC(akey) akeys;
	tt_async_tracker *async;
	int threaded;                /* may start threads (tt_import_proto_opts) */
	uint32_t ord;
	int64_t last_ts, max_ts;
	int have_ts;
	uint64_t packets_ok, events;
	unsigned char *zbuf;
	size_t zcap;
	int oom;
	char key[512];
	char catbuf[1024];
	tt_str s_phase_key;
} pctx;

/* ---- small helpers -------------------------------------------------------- */

static void stat(pctx *c, tt_stat s)
{
	tt_storage_stat_add(c->st, s, 1);
}

static tt_str intern(pctx *c, const char *s, size_t len)
{
	return s ? tt_storage_intern(c->st, s, len) : 0;
}

static tt_str intern_c(pctx *c, const char *s)
{
	return s ? tt_storage_intern_cstr(c->st, s) : 0;
}

static pseq *get_seq(pctx *c, uint64_t key)
{
	uint64_t *idx;
	pseq *s;

	/* packets of one sequence come in runs (shared-memory chunks) */
	if (c->last_seq && c->last_seq->key == key)
		return c->last_seq;
	idx = tt_pmap_find(&c->seq_index, key);
	if (idx)
		return c->last_seq = c->seqs.v[*idx];
	s = calloc(1, sizeof(*s));
	if (!s || TT_VEC_PUSH(c->seqs, s)) {
		free(s);
		c->oom = 1;
		return NULL;
	}
	if (tt_pmap_put(&c->seq_index, key, c->seqs.n - 1)) {
		c->seqs.n--;
		free(s);
		c->oom = 1;
		return NULL;
	}
	s->key = key;
	s->id = key < FTRACE_SEQ ? (uint32_t)key : 0;
	s->fallback_track = TT_NONE;
	s->last_utrack = TT_NONE;
	s->sorted = 1;
	return s;
}

/* Returns 0, or -1 out of memory. */
static int itab_put(itab *t, uint64_t iid, tt_str v)
{
	if (iid < 2 * ++t->puts + 64) {
		if (iid >= t->n) {
			size_t nn = t->n ? t->n : 64;
			uint32_t *nd;

			while (nn <= iid)
				nn *= 2;
			nd = realloc(t->dense, nn * sizeof(*nd));
			if (!nd)
				return -1;
			memset(nd + t->n, 0, (nn - t->n) * sizeof(*nd));
			t->dense = nd;
			t->n = nn;
		}
		/* a stale value of iid in sparse is shadowed from now on */
		t->dense[iid] = v + 1;
		return 0;
	}
	return tt_pmap_put(&t->sparse, iid, v);
}

/* 1 and *v set when iid is in the table, else 0. */
static int itab_find(const itab *t, uint64_t iid, tt_str *v)
{
	const uint64_t *p;

	if (iid < t->n && t->dense[iid]) {
		*v = t->dense[iid] - 1;
		return 1;
	}
	p = t->sparse.n || t->sparse.has_max ? tt_pmap_find(&t->sparse, iid) : NULL;
	if (p)
		*v = (tt_str)*p;
	return p != NULL;
}

static void itab_clear(itab *t)
{
	/* (puts counts sparse ones too: dense may not exist) */
	if (t->puts && t->n)
		memset(t->dense, 0, t->n * sizeof(*t->dense));
	t->puts = 0;
	tt_pmap_clear(&t->sparse);
}

static void itab_free(itab *t)
{
	free(t->dense);
	tt_pmap_free(&t->sparse);
}

static void seq_clear(pseq *s)
{
	itab_clear(&s->names);
	itab_clear(&s->cats);
	itab_clear(&s->dnames);
	itab_clear(&s->dstrs);
	tt_pmap_clear(&s->counters);
	s->has_def_clock = s->has_def_track = 0;
	s->def_extra.n = s->def_extra_dbl.n = 0;
}

static void seq_free(pseq *s)
{
	itab_free(&s->names);
	itab_free(&s->cats);
	itab_free(&s->dnames);
	itab_free(&s->dstrs);
	tt_pmap_free(&s->counters);
	TT_VEC_FREE(s->def_extra);
	TT_VEC_FREE(s->def_extra_dbl);
	TT_VEC_FREE(s->recs);
	free(s);
}

static uint32_t get_utrack(pctx *c, uint64_t uuid)
{
	uint64_t *idx = tt_pmap_find(&c->uuid_index, uuid);
	utrack z = {0};

	if (idx)
		return (uint32_t)*idx;
	z.uuid = uuid;
	z.track = TT_NONE;
	z.utid = z.upid = z.scope_utid = z.scope_upid = TT_NONE;
	z.mult = 1;
	if (c->utracks.n >= TRACK_UUID - 1 || TT_VEC_PUSH(c->utracks, z) ||
	    tt_pmap_put(&c->uuid_index, uuid, c->utracks.n - 1)) {
		c->oom = 1;
		return TT_NONE;
	}
	return (uint32_t)(c->utracks.n - 1);
}

static int push_rec(pctx *c, pseq *s, int64_t ts, int kind, int flags, uint32_t track,
		    tt_str name, tt_str cat, uint32_t args, int64_t i, double d)
{
	prec r;

	if (track == TT_NONE)
		return -1;
	r.ts = ts;
	if (kind == R_COUNTER)
		r.u.d = d;
	else
		r.u.i = i;
	r.track = track;
	r.name = name;
	r.cat = cat;
	r.args = args;
	r.ord = c->ord++;
	r.kind = (uint8_t)kind;
	r.flags = (uint8_t)flags;
	if (s->recs.n && (s->recs.v[s->recs.n - 1].ts > ts))
		s->sorted = 0;
	if (TT_VEC_PUSH(s->recs, r)) {
		c->oom = 1;
		return -1;
	}
	if (ts > c->max_ts)
		c->max_ts = ts;
	c->events++;
	return 0;
}

/* Converts a timestamp; counts failures. */
/* Saturating int64 arithmetic (trace processor's base::Saturating*). */
static int64_t sat_add(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

static int64_t sat_mul(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_mul_overflow(a, b, &r))
		return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
	return r;
}

static int64_t to_trace(pctx *c, uint32_t seq, uint32_t clock_id, uint64_t raw)
{
	int64_t out;

	if (tt_proto_clock_to_trace(c->clock, seq, clock_id, raw, &out))
		stat(c, TT_STAT_proto_clock_unknown);
	return out;
}

/* ---- args ------------------------------------------------------------------ */

static size_t key_append(pctx *c, size_t klen, const char *sep, const char *s, size_t slen)
{
	size_t cap = sizeof(c->key) - 1, n = strlen(sep);

	if (klen + n > cap)
		n = cap - klen;
	memcpy(c->key + klen, sep, n);
	klen += n;
	if (klen + slen > cap)
		slen = cap - klen;
	memcpy(c->key + klen, s, slen);
	klen += slen;
	c->key[klen] = 0;
	return klen;
}

static size_t key_index(pctx *c, size_t klen, size_t i)
{
	char b[32];
	int n = snprintf(b, sizeof(b), "[%zu]", i);

	return key_append(c, klen, "", b, (size_t)n);
}

static void add_nested(pctx *c, size_t klen, const DNest *v, int depth)
{
	size_t i;

	if (!v || depth > 32)
		return;
	if (v->nested_type == 1) { /* DICT */
		for (i = 0; i < v->n_dict_keys && i < v->n_dict_values; i++) {
			const char *k = v->dict_keys[i] ? v->dict_keys[i] : "";
			size_t nl = key_append(c, klen, klen ? "." : "", k, strlen(k));
			add_nested(c, nl, v->dict_values[i], depth + 1);
			c->key[klen] = 0;
		}
		return;
	}
	if (v->nested_type == 2) { /* ARRAY */
		for (i = 0; i < v->n_array_values; i++) {
			size_t nl = key_index(c, klen, i);
			add_nested(c, nl, v->array_values[i], depth + 1);
			c->key[klen] = 0;
		}
		return;
	}
	if (v->has_int_value)
		tt_storage_args_int(c->st, c->key, v->int_value);
	else if (v->has_double_value)
		tt_storage_args_real(c->st, c->key, v->double_value);
	else if (v->has_bool_value)
		tt_storage_args_bool(c->st, c->key, v->bool_value);
	else if (v->string_value)
		tt_storage_args_str(c->st, c->key, v->string_value, strlen(v->string_value));
}

static const char *annot_name(pctx *c, pseq *s, const DAnn *a, size_t *len)
{
	if (a->name_field_case == PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME && a->name) {
		*len = strlen(a->name);
		return a->name;
	}
	if (a->name_field_case == PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME_IID) {
		tt_str v;
		if (itab_find(&s->dnames, a->name_iid, &v)) {
			const char *n = tt_storage_str(c->st, v);
			*len = n ? strlen(n) : 0;
			return n ? n : "";
		}
		stat(c, TT_STAT_proto_interned_missing);
	}
	*len = 0;
	return "";
}

static void add_annot(pctx *c, pseq *s, size_t klen, const DAnn *a, int depth)
{
	tt_storage *st = c->st;
	size_t i;

	if (depth > 32)
		return;
	switch (a->value_case) {
	case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_BOOL_VALUE:
		tt_storage_args_bool(st, c->key, a->bool_value);
		break;
	case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_UINT_VALUE:
		tt_storage_args_uint(st, c->key, a->uint_value);
		break;
	case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE:
		tt_storage_args_int(st, c->key, a->int_value);
		break;
	case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_DOUBLE_VALUE:
		tt_storage_args_real(st, c->key, a->double_value);
		break;
	case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE:
		tt_storage_args_str(st, c->key, a->string_value, strlen(a->string_value));
		break;
	case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_POINTER_VALUE:
		tt_storage_args_pointer(st, c->key, a->pointer_value);
		break;
	case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_NESTED_VALUE:
		add_nested(c, klen, a->nested_value, depth + 1);
		break;
	case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_LEGACY_JSON_VALUE:
		tt_storage_args_json(st, c->key, a->legacy_json_value, strlen(a->legacy_json_value));
		break;
	case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE_IID: {
		tt_str v;
		int found = itab_find(&s->dstrs, a->string_value_iid, &v);
		const char *str = found ? tt_storage_str(st, v) : NULL;
		if (!found)
			stat(c, TT_STAT_proto_interned_missing);
		tt_storage_args_str(st, c->key, str ? str : "", str ? strlen(str) : 0);
		break;
	}
	default:
		break;
	}
	for (i = 0; i < a->n_dict_entries; i++) {
		size_t nlen, nl;
		const char *n = annot_name(c, s, a->dict_entries[i], &nlen);
		nl = key_append(c, klen, ".", n, nlen);
		add_annot(c, s, nl, a->dict_entries[i], depth + 1);
		c->key[klen] = 0;
	}
	for (i = 0; i < a->n_array_values; i++) {
		size_t nl = key_index(c, klen, i);
		add_annot(c, s, nl, a->array_values[i], depth + 1);
		c->key[klen] = 0;
	}
}

/* Builds the arg set of a TrackEvent (debug annotations under "debug.",
 * plus legacy_event.phase for R / S / T / p as trace_processor does). */
static uint32_t event_args(pctx *c, pseq *s, const TEv *te, int phase)
{
	size_t i;

	if (!te->n_debug_annotations && phase != 'R' && phase != 'S' && phase != 'T' && phase != 'p')
		return TT_NONE;
	tt_storage_args_begin(c->st);
	for (i = 0; i < te->n_debug_annotations; i++) {
		size_t nlen, kl;
		const char *n = annot_name(c, s, te->debug_annotations[i], &nlen);
		kl = key_append(c, 0, "debug.", n, nlen);
		add_annot(c, s, kl, te->debug_annotations[i], 0);
	}
	if (phase == 'R' || phase == 'S' || phase == 'T' || phase == 'p') {
		char ph = (char)phase;
		tt_storage_args_str(c->st, "legacy_event.phase", &ph, 1);
	}
	return tt_storage_args_end(c->st);
}

/* ---- descriptors ----------------------------------------------------------- */

static void on_process_descriptor(pctx *c, uint32_t upid, const Perfetto__Protos__ProcessDescriptor *p,
				  const Perfetto__Protos__ChromeProcessDescriptor *cp);
static void set_process_name(pctx *c, uint32_t upid, tt_str name, int prio);
static void process_args_flush(pctx *c);
enum { PN_OTHER = 1, PN_CHROME_LABEL, PN_TRACK_DESCRIPTOR, PN_CHROME_RENDERER, PN_SYSTEM };

static void on_track_descriptor(pctx *c, pseq *s, const TDesc *td)
{
	uint32_t i;
	utrack *u;
	const char *nm = td->name ? td->name : td->static_name ? td->static_name : td->atrace_name;

	if (!td->has_uuid)
		return;
	i = get_utrack(c, td->uuid);
	if (i == TT_NONE)
		return;
	u = &c->utracks.v[i];
	u->described = 1;
	if (td->has_parent_uuid && td->parent_uuid != td->uuid) {
		u->has_parent = 1;
		u->parent = td->parent_uuid;
	}
	/* trace processor: a track that may merge with its siblings keeps its
	 * first name, one that may not (SIBLING_MERGE_BEHAVIOR_NONE) the
	 * latest; descriptors are all read before any event is fed */
	if (nm && nm[0] && (!u->name || (td->has_sibling_merge_behavior && td->sibling_merge_behavior == 2)))
		u->name = intern_c(c, nm);
	if (td->has_sibling_merge_behavior) {
		u->merge = td->sibling_merge_behavior;
		if (u->merge == 3 && td->sibling_merge_key)
			u->merge_key = intern_c(c, td->sibling_merge_key);
	}
	if (td->description)
		u->desc = intern_c(c, td->description);
	if (td->thread) {
		const Perfetto__Protos__ThreadDescriptor *t = td->thread;
		int64_t pid = t->has_pid ? t->pid : -1;
		/* trace processor: one descriptor track per thread, so another
		 * uuid for a (pid, tid) already described means the tid was
		 * reused: a new thread (likewise for processes below) */
		if (u->kind != UT_THREAD || u->utid == TT_NONE) {
			uint32_t utid = tt_storage_thread(c->st, pid, t->tid);
			uint64_t *owner = tt_pmap_find(&c->desc_by_utid, utid);

			if (owner && *owner != td->uuid)
				utid = tt_storage_thread_new(c->st, pid, t->tid);
			if (tt_pmap_put(&c->desc_by_utid, utid, td->uuid))
				c->oom = 1;
			u->utid = utid;
		}
		u->kind = UT_THREAD;
		if (t->thread_name)
			tt_storage_thread_set_name(c->st, u->utid, intern_c(c, t->thread_name));
		u->upid = tt_storage_thread_upid(c->st, u->utid);
		if (s && s->fallback_track == TT_NONE) {
			s->fallback_track = TRACK_UUID | i;
			s->thr_pid = pid;
			s->thr_tid = t->tid;
		}
	} else if (td->process) {
		const Perfetto__Protos__ProcessDescriptor *p = td->process;
		if (u->kind != UT_PROCESS || u->upid == TT_NONE) {
			uint32_t upid = tt_storage_process(c->st, p->pid);
			uint64_t *owner = tt_pmap_find(&c->desc_by_upid, upid);

			if (owner && *owner != td->uuid)
				upid = tt_storage_process_new(c->st, p->pid);
			if (tt_pmap_put(&c->desc_by_upid, upid, td->uuid))
				c->oom = 1;
			u->upid = upid;
		}
		u->kind = UT_PROCESS;
		on_process_descriptor(c, u->upid, p, td->chrome_process);
	} else if (td->counter) {
		const Perfetto__Protos__CounterDescriptor *cd = td->counter;
		u->kind = UT_COUNTER;
		u->counter_type = cd->type;
		u->incremental = cd->is_incremental;
		u->mult = cd->has_unit_multiplier && cd->unit_multiplier ? cd->unit_multiplier : 1;
		/* trace processor: the built-in types' units first, then the
		 * unit enum, then unit_name */
		if (cd->type == 1 || (cd->type != 2 && cd->unit == 1))
			u->unit = intern_c(c, "ns");
		else if (cd->type == 2 || cd->unit == 2)
			u->unit = intern_c(c, "count");
		else if (cd->unit == 3)
			u->unit = intern_c(c, "bytes");
		else if (cd->unit_name && cd->unit_name[0])
			u->unit = intern_c(c, cd->unit_name);
		if (!u->name && cd->type == 1)
			u->name = intern_c(c, "thread_time");
		else if (!u->name && cd->type == 2)
			u->name = intern_c(c, "thread_instruction_count");
	}
}

/* Old Chrome: a ThreadDescriptor packet names the sequence's thread and
 * carries the reference times of the delta-encoded legacy timestamps. */
static void on_thread_descriptor(pctx *c, pseq *s, const Perfetto__Protos__ThreadDescriptor *t)
{
	uint32_t utid = tt_storage_thread(c->st, t->has_pid ? t->pid : -1, t->tid);

	if (t->thread_name)
		tt_storage_thread_set_name(c->st, utid, intern_c(c, t->thread_name));
	s->fallback_track = tt_storage_thread_track(c->st, utid);
	s->thr_pid = t->has_pid ? t->pid : -1;
	s->thr_tid = t->tid;
	s->legacy_ts = sat_mul(t->reference_timestamp_us, 1000);
	s->legacy_tts = sat_mul(t->reference_thread_time_us, 1000);
}

/* "kworker/45:2-mm_percpu_wq" names the last workqueue the worker ran:
 * trace processor keeps "kworker/45:2" (the worker), and so do we. */
static size_t kworker_len(const char *s, size_t n)
{
	if (n > 8 && strncmp(s, "kworker/", 8) == 0)
		for (size_t i = 8; i < n; i++)
			if (s[i] == '-' || s[i] == '+')
				return i;
	return n;
}

/* ProcessTree as trace processor reads it: only processes with a cmdline;
 * the name is argv0 (up to a space when the cmdline is one element), the
 * cmdline the elements joined by spaces; kernel threads (parent kthreadd,
 * pid 2) lose their kworker suffix. */
static void on_process_tree(pctx *c, pseq *s, const Perfetto__Protos__ProcessTree *pt)
{
	size_t i;
	TT_VEC(int32_t) kthreads = {0};

	for (i = 0; i < pt->n_processes; i++) {
		const Perfetto__Protos__ProcessTree__Process *p = pt->processes[i];
		const char *argv0;
		size_t n0, n = 0;
		uint32_t upid;
		tt_str cmdline;

		if (!p->n_cmdline)
			continue;
		argv0 = p->cmdline[0];
		n0 = strlen(argv0);
		upid = tt_storage_process(c->st, p->pid);
		if (upid == TT_NONE)
			continue;
		if (p->ppid != p->pid)
			tt_storage_process_set_parent(c->st, upid, tt_storage_process(c->st, p->ppid));
		if (p->ppid == 2 && TT_VEC_PUSH(kthreads, p->pid))
			c->oom = 1;
		if (p->ppid == 2 && kworker_len(argv0, n0) != n0) {
			n0 = kworker_len(argv0, n0);
			cmdline = intern(c, argv0, n0);
		} else {
			if (p->n_cmdline == 1 && memchr(argv0, ' ', n0))
				n0 = (size_t)((const char *)memchr(argv0, ' ', n0) - argv0);
			for (size_t k = 0; k < p->n_cmdline && n < sizeof(c->key) - 1; k++)
				n += (size_t)snprintf(c->key + n, sizeof(c->key) - n, "%s%s", k ? " " : "",
						      p->cmdline[k]);
			cmdline = intern(c, c->key, n < sizeof(c->key) ? n : sizeof(c->key) - 1);
		}
		set_process_name(c, upid, intern(c, argv0, n0), PN_SYSTEM);
		tt_storage_process_set_cmdline(c->st, upid, cmdline);
		if (p->cmdline_is_comm)
			tt_storage_thread_set_name(c->st, tt_storage_thread(c->st, p->pid, p->pid), cmdline);
		if (p->has_uid)
			tt_storage_process_set_uid(c->st, upid, p->uid);
		if (p->has_process_start_from_boot && !tt_storage_process_start(c->st, upid)) {
			int64_t t;

			if (tt_proto_clock_to_trace(c->clock, s ? s->id : 0, TT_CLOCK_BOOTTIME,
						    p->process_start_from_boot, &t) == 0)
				tt_storage_process_set_start(c->st, upid, t);
		}
		if (p->has_is_kthread) {
			tt_storage_args_begin(c->st);
			tt_storage_args_bool(c->st, "is_kthread", p->is_kthread);
			tt_storage_process_set_args(c->st, upid, tt_storage_args_end(c->st));
		}
	}
	for (i = 0; i < pt->n_threads; i++) {
		const Perfetto__Protos__ProcessTree__Thread *t = pt->threads[i];
		uint32_t utid = tt_storage_thread(c->st, t->has_tgid ? t->tgid : -1, t->tid);
		size_t n;
		int kthread = 0;

		if (!t->name || !t->name[0])
			continue;
		n = strlen(t->name);
		for (size_t k = 0; k < kthreads.n && t->tid == t->tgid; k++)
			kthread |= kthreads.v[k] == t->tid;
		if (kthread)
			n = kworker_len(t->name, n);
		tt_storage_thread_set_name(c->st, utid, intern(c, t->name, n));
	}
	TT_VEC_FREE(kthreads);
}

/* Process names by trace processor's priorities: a higher one replaces a
 * lower or equal one, whatever order the packets come in. */

static void set_process_name(pctx *c, uint32_t upid, tt_str name, int prio)
{
	uint64_t *cur = tt_pmap_find(&c->named_procs, upid);

	if (!name || upid == TT_NONE || (cur && (int)*cur > prio))
		return;
	tt_storage_process_set_name(c->st, upid, name);
	if (tt_pmap_put(&c->named_procs, upid, (uint64_t)prio))
		c->oom = 1;
}

/* Chrome's process types (chrome_enums.ProcessType) as trace processor
 * names them; types without a name here are named by their enum name. */
static const char *const chrome_process_names[] = {
	[1] = "Browser", [2] = "Renderer", [3] = "Utility", [4] = "SandboxHelper",
	[5] = "PROCESS_SANDBOX_HELPER", [6] = "Gpu", [7] = "PpapiPlugin", [8] = "PpapiBroker",
	[9] = "Service: network.mojom.NetworkService",
	[10] = "Service: tracing.mojom.TracingService",
	[11] = "Service: storage.mojom.StorageService",
	[12] = "Service: audio.mojom.AudioService",
	[13] = "Service: data_decoder.mojom.DataDecoderService",
	[14] = "Service: chrome.mojom.UtilWin",
	[15] = "Service: proxy_resolver.mojom.ProxyResolverFactory",
	[16] = "Service: media.mojom.CdmServiceBroker",
	[17] = "Service: video_capture.mojom.VideoCaptureService",
	[18] = "Service: unzip.mojom.Unzipper",
	[19] = "Service: mirroring.mojom.MirroringService",
	[20] = "Service: patch.mojom.FilePatcher",
	[21] = "Service: chromeos.tts.mojom.TtsService",
	[22] = "Service: printing.mojom.PrintingService",
	[23] = "Service: quarantine.mojom.Quarantine",
	[24] = "Service: chromeos.local_search_service.mojom.LocalSearchService",
	[25] = "Service: chromeos.assistant.mojom.AssistantAudioDecoderFactory",
	[26] = "Service: chrome.mojom.FileUtilService",
	[27] = "Service: printing.mojom.PrintCompositor",
	[28] = "Service: paint_preview.mojom.PaintPreviewCompositorCollection",
	[29] = "Service: media.mojom.SpeechRecognitionService",
	[30] = "Service: device.mojom.XRDeviceService",
	[31] = "Service: chrome.mojom.UtilReadIcon",
	[32] = "Service: language_detection.mojom.LanguageDetectionService",
	[33] = "Service: sharing.mojom.Sharing",
	[34] = "Service: chrome.mojom.MediaParserFactory",
	[35] = "Service: qrcode_generator.mojom.QRCodeService",
	[36] = "Service: chrome.mojom.ProfileImport",
	[37] = "Service: chromeos.ime.mojom.ImeService",
	[38] = "Service: recording.mojom.RecordingService",
	[39] = "Service: shape_detection.mojom.ShapeDetectionService",
	[40] = "Extension Renderer",
	[41] = "Service: media.mojom.MediaFoundationServiceBroker",
	[42] = "PROCESS_RENDERER_TOP_WEBUI",
};

static tt_str chrome_process_name(pctx *c, int32_t type)
{
	if (type <= 0 || (size_t)type >= sizeof(chrome_process_names) / sizeof(chrome_process_names[0]))
		return 0;
	return intern_c(c, chrome_process_names[type]);
}

/* A ProcessDescriptor (and the TrackDescriptor's ChromeProcessDescriptor):
 * names, Chrome labels and type as process args, the command line. */
static void on_process_descriptor(pctx *c, uint32_t upid, const Perfetto__Protos__ProcessDescriptor *p,
				  const Perfetto__Protos__ChromeProcessDescriptor *cp)
{
	tt_str type_name = 0;

	if (upid == TT_NONE)
		return;
	if (p->process_name && p->process_name[0])
		set_process_name(c, upid, intern_c(c, p->process_name), PN_TRACK_DESCRIPTOR);
	if (p->has_chrome_process_type)
		set_process_name(c, upid, chrome_process_name(c, p->chrome_process_type),
				 p->chrome_process_type == 2 ? PN_CHROME_RENDERER : PN_CHROME_LABEL);
	if (cp) {
		type_name = chrome_process_name(c, cp->process_type);
		set_process_name(c, upid, type_name,
				 cp->process_type == 2 || cp->process_type == 40 ? PN_CHROME_RENDERER
										 : PN_CHROME_LABEL);
	}
	if (p->n_cmdline && !tt_storage_process_cmdline(c->st, upid)) {
		size_t n = 0;

		for (size_t i = 0; i < p->n_cmdline && n < sizeof(c->key) - 1; i++)
			n += (size_t)snprintf(c->key + n, sizeof(c->key) - n, "%s%s", i ? " " : "",
					      p->cmdline[i]);
		tt_storage_process_set_cmdline(c->st, upid, intern(c, c->key, n < sizeof(c->key) ? n : sizeof(c->key) - 1));
	}
	if (p->n_process_labels || type_name || (cp && (cp->host_app_package_name || cp->has_crash_trace_id))) {
		/* stored at the end of the import (process_args_flush), as trace
		 * processor does: descriptors repeat on every sequence, and the
		 * latest one's args are the process's */
		uint64_t *at = tt_pmap_find(&c->proc_args, upid);
		pargs a = { .upid = upid, .type = type_name };

		if (cp && cp->host_app_package_name)
			a.pkg = intern_c(c, cp->host_app_package_name);
		if (cp && cp->has_crash_trace_id) {
			a.has_crash = 1;
			a.crash = cp->crash_trace_id;
		}
		for (size_t i = 0; i < p->n_process_labels && a.nlabels < PARGS_LABELS; i++)
			a.labels[a.nlabels++] = intern_c(c, p->process_labels[i]);
		if (at) {
			/* keys add up over descriptors, the latest value winning */
			pargs *o = &c->pargs.v[*at];

			if (a.type)
				o->type = a.type;
			if (a.pkg)
				o->pkg = a.pkg;
			if (a.has_crash) {
				o->has_crash = 1;
				o->crash = a.crash;
			}
			for (size_t i = 0; i < a.nlabels; i++)
				o->labels[i] = a.labels[i];
			if (a.nlabels > o->nlabels)
				o->nlabels = a.nlabels;
		} else if (tt_pmap_put(&c->proc_args, upid, c->pargs.n) || TT_VEC_PUSH(c->pargs, a)) {
			c->oom = 1;
		}
	}
}

static void process_args_flush(pctx *c)
{
	char key[48];

	for (size_t k = 0; k < c->pargs.n; k++) {
		const pargs *a = &c->pargs.v[k];

		tt_storage_args_begin(c->st);
		for (size_t i = 0; i < a->nlabels; i++) {
			const char *t = tt_storage_str(c->st, a->labels[i]);

			snprintf(key, sizeof(key), "chrome.process_label[%zu]", i);
			tt_storage_args_str(c->st, key, t, strlen(t));
		}
		if (a->type) {
			const char *t = tt_storage_str(c->st, a->type);
			tt_storage_args_str(c->st, "chrome.process_type", t, strlen(t));
		}
		if (a->pkg) {
			const char *t = tt_storage_str(c->st, a->pkg);
			tt_storage_args_str(c->st, "chrome.host_app_package_name", t, strlen(t));
		}
		if (a->has_crash)
			tt_storage_args_uint(c->st, "chrome.crash_trace_id", a->crash);
		tt_storage_process_set_args(c->st, a->upid, tt_storage_args_end(c->st));
	}
}

static uint32_t keyed_counter(pctx *c, const char *kind, uint64_t a, uint64_t b, tt_str name,
			      uint32_t upid, int64_t cpu, const char *unit)
{
	tt_track_desc d = { .type = cpu >= 0 ? "cpu" : "counter", .name = name, .utid = TT_NONE,
			    .upid = upid, .parent_id = TT_NONE, .is_counter = 1,
			    .unit = unit ? intern_c(c, unit) : 0, .cpu = cpu };

	return tt_storage_track_keyed(c->st, kind, a, b, name, &d);
}

static void on_process_stats(pctx *c, pseq *s, const Perfetto__Protos__ProcessStats *ps, int64_t ts)
{
	static const char *names[] = { "mem.virt", "mem.rss", "mem.rss.anon", "mem.rss.file",
				       "mem.rss.shmem", "mem.swap", "mem.locked", "mem.rss.watermark" };
	size_t i, k;

	for (i = 0; i < ps->n_processes; i++) {
		const Perfetto__Protos__ProcessStats__Process *p = ps->processes[i];
		uint32_t upid = tt_storage_process(c->st, p->pid);
		const protobuf_c_boolean has[] = { p->has_vm_size_kb, p->has_vm_rss_kb, p->has_rss_anon_kb,
						   p->has_rss_file_kb, p->has_rss_shmem_kb, p->has_vm_swap_kb,
						   p->has_vm_locked_kb, p->has_vm_hwm_kb };
		const uint64_t val[] = { p->vm_size_kb, p->vm_rss_kb, p->rss_anon_kb, p->rss_file_kb,
					 p->rss_shmem_kb, p->vm_swap_kb, p->vm_locked_kb, p->vm_hwm_kb };

		for (k = 0; k < 8; k++) {
			tt_str n;
			if (!has[k])
				continue;
			n = intern_c(c, names[k]);
			push_rec(c, s, ts, R_COUNTER, 0, keyed_counter(c, "proto-proc-stat", upid, k, n, upid, -1, "bytes"),
				 0, 0, TT_NONE, 0, (double)val[k] * 1024.0);
		}
		if (p->has_oom_score_adj) {
			tt_str n = intern_c(c, "oom_score_adj");
			push_rec(c, s, ts, R_COUNTER, 0, keyed_counter(c, "proto-proc-stat", upid, 8, n, upid, -1, NULL),
				 0, 0, TT_NONE, 0, (double)p->oom_score_adj);
		}
	}
}

/* ---- track events ------------------------------------------------------------ */

static tt_str lookup(pctx *c, const itab *t, uint64_t iid)
{
	tt_str v;

	if (!itab_find(t, iid, &v)) {
		stat(c, TT_STAT_proto_interned_missing);
		return 0;
	}
	return v;
}

static tt_str event_category(pctx *c, pseq *s, const TEv *te)
{
	size_t i, len = 0, n = te->n_category_iids + te->n_categories;

	if (n == 0)
		return 0;
	if (n == 1 && te->n_category_iids == 1)
		return lookup(c, &s->cats, te->category_iids[0]);
	if (n == 1)
		return intern_c(c, te->categories[0]);
	for (i = 0; i < n; i++) {
		const char *p;
		size_t pl;
		if (i < te->n_category_iids)
			p = tt_storage_str(c->st, lookup(c, &s->cats, te->category_iids[i]));
		else
			p = te->categories[i - te->n_category_iids];
		if (!p)
			continue;
		pl = strlen(p);
		if (len && len < sizeof(c->catbuf))
			c->catbuf[len++] = ',';
		if (pl > sizeof(c->catbuf) - len)
			pl = sizeof(c->catbuf) - len;
		memcpy(c->catbuf + len, p, pl);
		len += pl;
	}
	return intern(c, c->catbuf, len);
}

/* Applies unit multiplier and incremental state of a counter track. */
static double counter_value(pctx *c, pseq *s, uint32_t ui, double v)
{
	utrack *u = &c->utracks.v[ui];

	v *= (double)u->mult;
	if (u->incremental) {
		uint64_t *p = tt_pmap_find(&s->counters, u->uuid);
		double last = 0;
		if (p)
			memcpy(&last, p, sizeof(last));
		v += last;
		{
			uint64_t bits;
			memcpy(&bits, &v, sizeof(bits));
			if (tt_pmap_put(&s->counters, u->uuid, bits))
				c->oom = 1;
		}
	}
	return v;
}

/* Extra counter values: pushed as counter records; returns thread time
 * when one of them is a THREAD_TIME_NS track (*has_tts set). */
static int64_t extra_counters(pctx *c, pseq *s, const TEv *te, int64_t ts, int *has_tts)
{
	const uint64_t *uu;
	size_t nu, i;
	int64_t tts = 0;

	uu = te->n_extra_counter_track_uuids ? te->extra_counter_track_uuids : s->def_extra.v;
	nu = te->n_extra_counter_track_uuids ? te->n_extra_counter_track_uuids : s->def_extra.n;
	for (i = 0; i < te->n_extra_counter_values && i < nu; i++) {
		uint32_t ui = get_utrack(c, uu[i]);
		double v;
		if (ui == TT_NONE)
			return 0;
		v = counter_value(c, s, ui, (double)te->extra_counter_values[i]);
		if (c->utracks.v[ui].counter_type == 1) {
			*has_tts = 1;
			tts = (int64_t)v;
		}
		push_rec(c, s, ts, R_COUNTER, 0, TRACK_UUID | ui, 0, 0, TT_NONE, 0, v);
	}
	uu = te->n_extra_double_counter_track_uuids ? te->extra_double_counter_track_uuids : s->def_extra_dbl.v;
	nu = te->n_extra_double_counter_track_uuids ? te->n_extra_double_counter_track_uuids : s->def_extra_dbl.n;
	for (i = 0; i < te->n_extra_double_counter_values && i < nu; i++) {
		uint32_t ui = get_utrack(c, uu[i]);
		if (ui == TT_NONE)
			return 0;
		push_rec(c, s, ts, R_COUNTER, 0, TRACK_UUID | ui, 0, 0, TT_NONE, 0,
			 counter_value(c, s, ui, te->extra_double_counter_values[i]));
	}
	return tts;
}

static void push_flow(pctx *c, uint32_t ord, int kind, uint64_t id)
{
	pflow f = { ord, (uint32_t)kind, id };

	if (TT_VEC_PUSH(c->flows, f))
		c->oom = 1;
}

/* Records the flows of the event about to get file order c->ord. */
static int event_flows(pctx *c, const TEv *te)
{
	const LEv *le = te->legacy_event;
	size_t n0 = c->flows.n, i;
	uint32_t ord = c->ord;

	if (le && le->has_bind_id) {
		int k = le->flow_direction == 1 ? FL_IN : le->flow_direction == 2 ? FL_OUT :
			le->flow_direction == 3 ? FL_INOUT : -1;
		if (k >= 0)
			push_flow(c, ord, k, le->bind_id);
	}
	for (i = 0; i < te->n_flow_ids; i++)
		push_flow(c, ord, FL_STEP, te->flow_ids[i]);
	for (i = 0; i < te->n_flow_ids_old; i++)
		push_flow(c, ord, FL_STEP, te->flow_ids_old[i]);
	for (i = 0; i < te->n_terminating_flow_ids; i++)
		push_flow(c, ord, FL_TERM, te->terminating_flow_ids[i]);
	for (i = 0; i < te->n_terminating_flow_ids_old; i++)
		push_flow(c, ord, FL_TERM, te->terminating_flow_ids_old[i]);
	return c->flows.n > n0 ? F_FLOWS : 0;
}

/* upid of the thread behind a record track (TT_NONE when unknown). */
static uint32_t track_upid(pctx *c, uint32_t track)
{
	if (track != TT_NONE && (track & TRACK_UUID)) {
		const utrack *u = &c->utracks.v[track & ~TRACK_UUID];
		return u->upid;
	}
	return track == TT_NONE || (track & TRACK_ASYNC) ? TT_NONE : tt_storage_track_upid(c->st, track);
}

static uint32_t legacy_async_track(pctx *c, uint32_t track, const LEv *le, int phase,
				   tt_str name, tt_str cat)
{
	uint32_t upid = track_upid(c, track), ai;
	uint64_t id;
	int local = 0;
	tt_str scope = (phase == 'S' || phase == 'T' || phase == 'p' || phase == 'F') ? name : cat;

	switch (le->id_case) {
	case PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__ID_UNSCOPED_ID:
		id = le->unscoped_id;
		break;
	case PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__ID_GLOBAL_ID:
		id = le->global_id;
		break;
	case PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__ID_LOCAL_ID:
		id = le->local_id;
		local = 1;
		if (upid == TT_NONE) { /* trace processor: a parser error */
			stat(c, TT_STAT_proto_legacy_unsupported);
			stat(c, TT_STAT_track_event_parser_errors);
			return TT_NONE;
		}
		break;
	default: /* an async legacy event without an id */
		stat(c, TT_STAT_proto_legacy_unsupported);
		stat(c, TT_STAT_track_event_parser_errors);
		return TT_NONE;
	}
	if (le->id_scope) {
		const char *cs = tt_storage_str(c->st, cat);
		size_t n = (size_t)snprintf(c->catbuf, sizeof(c->catbuf), "%s:%s", cs ? cs : "", le->id_scope);
		scope = intern(c, c->catbuf, n < sizeof(c->catbuf) ? n : sizeof(c->catbuf) - 1);
	}
	if (!local)
		upid = TT_NONE;
	ai = tt_keymap_get(&c->akey_index, upid, scope, id, name);
	if (ai == TT_KEYMAP_NONE) {
		akey k = { upid, scope, name, id };

		ai = (uint32_t)c->akeys.n;
		if (ai >= TRACK_ASYNC || TT_VEC_PUSH(c->akeys, k) ||
		    tt_keymap_put(&c->akey_index, upid, scope, id, name, ai)) {
			c->oom = 1;
			return TT_NONE;
		}
	}
	return TRACK_ASYNC | ai;
}

static void on_track_event(pctx *c, pseq *s, const Pkt *p, const TEv *te, int64_t ts)
{
	const LEv *le = te->legacy_event;
	int phase = le && le->has_phase ? le->phase : 0;
	int type = te->has_type ? te->type : 0;
	uint64_t uuid = te->has_track_uuid ? te->track_uuid : s->has_def_track ? s->def_track : 0;
	uint32_t track, args;
	tt_str name = 0, cat;
	int flags = 0, has_tts = 0;
	int64_t tts = 0;

	(void)p;
	/* legacy delta-encoded timestamps (old Chrome, MONOTONIC us), with
	 * trace processor's saturating arithmetic: a time out of range
	 * (negative, or wrapped by the clock conversion) drops the event */
	if (te->timestamp_case == PERFETTO__PROTOS__TRACK_EVENT__TIMESTAMP_TIMESTAMP_DELTA_US ||
	    te->timestamp_case == PERFETTO__PROTOS__TRACK_EVENT__TIMESTAMP_TIMESTAMP_ABSOLUTE_US) {
		int64_t raw;

		if (te->timestamp_case == PERFETTO__PROTOS__TRACK_EVENT__TIMESTAMP_TIMESTAMP_DELTA_US) {
			s->legacy_ts = sat_add(s->legacy_ts, sat_mul(te->timestamp_delta_us, 1000));
			raw = s->legacy_ts;
		} else {
			raw = sat_mul(te->timestamp_absolute_us, 1000);
		}
		if (raw < 0) {
			stat(c, TT_STAT_track_event_invalid_timestamp);
			return;
		}
		ts = to_trace(c, s->id, TT_CLOCK_MONOTONIC, (uint64_t)raw);
		if (ts < 0) {
			stat(c, TT_STAT_track_event_invalid_timestamp);
			return;
		}
	}
	if (te->thread_time_case == PERFETTO__PROTOS__TRACK_EVENT__THREAD_TIME_THREAD_TIME_DELTA_US) {
		s->legacy_tts = (int64_t)((uint64_t)s->legacy_tts + (uint64_t)te->thread_time_delta_us * 1000);
		tts = s->legacy_tts;
		has_tts = 1;
	} else if (te->thread_time_case == PERFETTO__PROTOS__TRACK_EVENT__THREAD_TIME_THREAD_TIME_ABSOLUTE_US) {
		tts = (int64_t)((uint64_t)te->thread_time_absolute_us * 1000);
		has_tts = 1;
	}

	/* track: explicit uuid, sequence default, or the sequence's thread
	 * for legacy/typeless events on uuid 0 (trace_processor's fallback) */
	if (uuid == 0 && le && (le->has_pid_override || (le->has_tid_override && s->fallback_track != TT_NONE))) {
		/* trace processor: a pid override puts the event on a synthetic
		 * thread of that process ((pid << 32) | -1, i.e. -1), a tid
		 * override on that thread of the sequence's process */
		int64_t pid = le->has_pid_override ? le->pid_override : s->thr_pid;
		int64_t tid = le->has_tid_override ? le->tid_override : le->has_pid_override ? -1 : s->thr_tid;

		track = tt_storage_thread_track(c->st, tt_storage_thread(c->st, pid, tid));
		if (track == TT_NONE)
			return;
	} else if (uuid == 0 && s->fallback_track != TT_NONE && (!te->has_track_uuid || !te->has_type)) {
		track = s->fallback_track;
	} else {
		/* a sequence's events mostly stay on one track */
		if (s->last_utrack == TT_NONE || s->last_uuid != uuid) {
			s->last_utrack = get_utrack(c, uuid);
			s->last_uuid = uuid;
		}
		track = s->last_utrack;
		if (track == TT_NONE)
			return;
		track |= TRACK_UUID;
	}

	/* legacy thread time and instruction count fields: also counters of
	 * the event's thread, as trace processor imports them */
	if (type != 4 && (te->thread_time_case != PERFETTO__PROTOS__TRACK_EVENT__THREAD_TIME__NOT_SET ||
			  te->thread_instruction_count_case !=
				  PERFETTO__PROTOS__TRACK_EVENT__THREAD_INSTRUCTION_COUNT__NOT_SET)) {
		uint32_t utid = TT_NONE;

		if (track & TRACK_UUID) {
			const utrack *u = &c->utracks.v[track & ~TRACK_UUID];
			if (u->kind == UT_THREAD)
				utid = u->utid;
		} else {
			utid = tt_storage_track_utid(c->st, track);
		}
		if (utid != TT_NONE && has_tts) {
			tt_track_desc d = { .type = "thread_time", .name = intern_c(c, "thread_time"), .utid = utid,
					    .upid = tt_storage_thread_upid(c->st, utid), .parent_id = TT_NONE,
					    .is_counter = 1, .cpu = -1 };
			push_rec(c, s, ts, R_COUNTER, 0, tt_storage_track_keyed(c->st, "proto-thread-time", utid, 0, 0, &d),
				 0, 0, TT_NONE, 0, (double)tts);
		}
		if (utid != TT_NONE && te->thread_instruction_count_case !=
					       PERFETTO__PROTOS__TRACK_EVENT__THREAD_INSTRUCTION_COUNT__NOT_SET) {
			tt_track_desc d = { .type = "thread_instructions", .name = intern_c(c, "thread_instruction_count"),
					    .utid = utid, .upid = tt_storage_thread_upid(c->st, utid),
					    .parent_id = TT_NONE, .is_counter = 1, .cpu = -1 };
			int64_t v;

			if (te->thread_instruction_count_case ==
			    PERFETTO__PROTOS__TRACK_EVENT__THREAD_INSTRUCTION_COUNT_THREAD_INSTRUCTION_COUNT_DELTA)
				v = s->legacy_tic = sat_add(s->legacy_tic, te->thread_instruction_count_delta);
			else
				v = te->thread_instruction_count_absolute;
			push_rec(c, s, ts, R_COUNTER, 0, tt_storage_track_keyed(c->st, "proto-thread-tic", utid, 0, 0, &d),
				 0, 0, TT_NONE, 0, (double)v);
		}
	}

	if (type == 4) { /* COUNTER */
		uint32_t ui = track & ~TRACK_UUID;
		double v;
		if (!(track & TRACK_UUID))
			return;
		if (te->counter_value_field_case == PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_DOUBLE_COUNTER_VALUE)
			v = te->double_counter_value;
		else
			v = (double)te->counter_value;
		push_rec(c, s, ts, R_COUNTER, 0, track, 0, 0, TT_NONE, 0, counter_value(c, s, ui, v));
		return;
	}

	if (te->name_field_case == PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME)
		name = intern_c(c, te->name);
	else if (te->name_field_case == PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME_IID)
		name = lookup(c, &s->names, te->name_iid);
	else if (le && le->has_name_iid)
		name = lookup(c, &s->names, le->name_iid);
	cat = event_category(c, s, te);

	{
		int64_t t2 = extra_counters(c, s, te, ts, &has_tts);
		if (has_tts && (te->n_extra_counter_values))
			tts = t2;
	}

	if (phase == 's' || phase == 't' || phase == 'f') {
		/* v1 flow ids are scoped by (id, category, name), as trace
		 * processor keys them */
		uint64_t id = le->id_case == PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__ID_UNSCOPED_ID ? le->unscoped_id :
			      le->id_case == PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__ID_GLOBAL_ID ? le->global_id :
			      le->local_id;
		uint64_t key = ((id * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)cat << 32 | name)) | (1ULL << 63);
		int step = phase == 's' ? V1_START : phase == 't' ? V1_STEP :
			   le->bind_to_enclosing ? V1_END_ENCLOSING : V1_END;

		if (track & TRACK_ASYNC)
			return;
		push_rec(c, s, ts, R_FLOW_V1, step, track, name, cat, TT_NONE, (int64_t)key, 0);
		return;
	}
	if (phase) {
		switch (phase) {
		case 'B': type = 1; break;
		case 'E': type = 2; break;
		case 'X': type = 'X'; break;
		case 'I': case 'i': case 'R': type = 3; break;
		case 'b': case 'S': type = 1; break;
		case 'e': case 'F': type = 2; break;
		case 'n': case 'T': case 'p': type = 3; break;
		default:
			stat(c, TT_STAT_proto_legacy_unsupported);
			return;
		}
		if (strchr("beSFnTp", phase)) {
			track = legacy_async_track(c, track, le, phase, name, cat);
			if (track == TT_NONE)
				return;
		} else if ((phase == 'I' || phase == 'i') && le->instant_event_scope == 1) {
			tt_track_desc d = { .type = "global", .name = intern_c(c, "Legacy Global Instants"),
					    .utid = TT_NONE, .upid = TT_NONE, .parent_id = TT_NONE, .cpu = -1 };
			track = tt_storage_track_keyed(c->st, "proto-legacy-instant", 0, 0, 0, &d);
		} else if ((phase == 'I' || phase == 'i') && le->instant_event_scope == 2) {
			/* the process its pid names now (a reused pid: the new one) */
			uint32_t upid = track_upid(c, track);

			if (upid != TT_NONE)
				upid = tt_storage_process(c->st, tt_storage_process_pid(c->st, upid));
			tt_track_desc d = { .type = "process", .name = 0, .utid = TT_NONE, .upid = upid,
					    .parent_id = TT_NONE, .cpu = -1 };
			track = tt_storage_track_keyed(c->st, "proto-legacy-instant", 1, upid, 0, &d);
		}
	}
	/* 'X' comes only from a legacy_event phase: a TrackEvent.type of 88
	 * without one is just an unknown type (found by fuzz_proto). */
	if (type < 1 || (type > 3 && !(type == 'X' && le))) {
		char what[48];

		if (le)
			snprintf(what, sizeof(what), "legacy phase %d", (int)type);
		else
			snprintf(what, sizeof(what), "TrackEvent type %d", (int)type);
		tt_storage_stat_named(c->st, TT_STAT_proto_legacy_unsupported, what, 1);
		return;
	}
	if (type == 'X' && le->duration_us < 0) {
		stat(c, TT_STAT_proto_legacy_unsupported);
		return;
	}
	args = event_args(c, s, te, phase);
	flags = event_flows(c, te);
	if (has_tts)
		flags |= F_TTS;
	switch (type) {
	case 1:
		push_rec(c, s, ts, R_BEGIN, flags, track, name, cat, args, tts, 0);
		break;
	case 2:
		push_rec(c, s, ts, R_END, flags, track, name, cat, args, tts, 0);
		break;
	case 3:
		push_rec(c, s, ts, R_COMPLETE, flags & ~F_TTS, track, name, cat, args, 0, 0);
		break;
	default:
		push_rec(c, s, ts, R_COMPLETE, flags & ~F_TTS, track, name, cat, args,
			 (int64_t)((uint64_t)le->duration_us * 1000), 0);
		break;
	}
}

/* ---- ftrace ------------------------------------------------------------------ */

static uint32_t ftrace_thread(pctx *c, int64_t tid)
{
	uint64_t *v = tt_pmap_find(&c->ftrace_threads, (uint64_t)tid);
	uint32_t utid;

	if (v)
		return (uint32_t)(*v - 1);
	utid = tt_storage_thread_by_tid(c->st, tid);
	if (utid == TT_NONE)
		utid = tt_storage_thread(c->st, tid == 0 ? 0 : -1, tid);
	if (tt_pmap_put(&c->ftrace_threads, (uint64_t)tid, (uint64_t)utid + 1))
		c->oom = 1;
	return utid;
}

static void on_print(pctx *c, pseq *ps, int64_t ts, int64_t tid, const char *buf)
{
	tt_atrace m;
	uint32_t utid, upid, track;
	tt_str name;

	if (!buf || tt_proto_atrace_parse(buf, strlen(buf), &m)) {
		stat(c, TT_STAT_proto_atrace_bad);
		return;
	}
	if (m.has_tgid && m.tgid > 0) {
		utid = tt_storage_thread(c->st, m.tgid, tid);
		upid = tt_storage_process(c->st, m.tgid);
	} else {
		utid = ftrace_thread(c, tid);
		upid = tt_storage_thread_upid(c->st, utid);
	}
	name = m.name ? intern(c, m.name, m.name_len) : 0;
	switch (m.phase) {
	case 'B':
		push_rec(c, ps, ts, R_BEGIN, 0, tt_storage_thread_track(c->st, utid), name, 0, TT_NONE, 0, 0);
		break;
	case 'E':
		push_rec(c, ps, ts, R_END, 0, tt_storage_thread_track(c->st, utid), 0, 0, TT_NONE, 0, 0);
		break;
	case 'I':
		push_rec(c, ps, ts, R_COMPLETE, 0, tt_storage_thread_track(c->st, utid), name, 0, TT_NONE, 0, 0);
		break;
	case 'C':
		track = keyed_counter(c, "proto-atrace-counter", upid, 0, name, upid, -1, NULL);
		push_rec(c, ps, ts, R_COUNTER, 0, track, 0, 0, TT_NONE, 0, (double)m.value);
		break;
	case 'S':
	case 'F': {
		tt_track_desc d = { .type = "process", .name = name, .utid = TT_NONE, .upid = upid,
				    .parent_id = TT_NONE, .cpu = -1 };
		track = tt_storage_track_keyed(c->st, "proto-atrace-async", upid, (uint64_t)m.value, name, &d);
		push_rec(c, ps, ts, m.phase == 'S' ? R_BEGIN : R_END, 0, track, m.phase == 'S' ? name : 0, 0,
			 TT_NONE, 0, 0);
		break;
	}
	case 'N':
	case 'G':
	case 'H': {
		tt_str tn = intern(c, m.track, m.track_len);
		tt_track_desc d = { .type = "process", .name = tn, .utid = TT_NONE, .upid = upid,
				    .parent_id = TT_NONE, .cpu = -1 };
		uint64_t cookie = m.phase == 'N' ? 0 : (uint64_t)m.value;
		track = tt_storage_track_keyed(c->st, "proto-atrace-track", upid, cookie, tn, &d);
		if (m.phase == 'N')
			push_rec(c, ps, ts, R_COMPLETE, 0, track, name, 0, TT_NONE, 0, 0);
		else
			push_rec(c, ps, ts, m.phase == 'G' ? R_BEGIN : R_END, 0, track, m.phase == 'G' ? name : 0,
				 0, TT_NONE, 0, 0);
		break;
	}
	}
}

static void push_sched(pctx *c, int64_t ts, uint32_t cpu, int64_t prev_state, int32_t next_pid,
		       int32_t next_prio, tt_str comm)
{
	sched_rec r = { ts, prev_state, cpu, next_pid, next_prio, c->ord++, comm };

	if (TT_VEC_PUSH(c->sched, r))
		c->oom = 1;
	if (ts > c->max_ts)
		c->max_ts = ts;
	c->events++;
}

static void on_ftrace(pctx *c, const FBundle *b)
{
	pseq *ps;
	int64_t offset = 0;
	uint32_t clock = TT_CLOCK_BOOTTIME;
	size_t i;

	if (b->cpu >= 1024) {
		stat(c, TT_STAT_proto_ftrace_cpu_bad);
		return;
	}
	ps = get_seq(c, FTRACE_SEQ | b->cpu);
	if (!ps)
		return;
	if (b->has_ftrace_clock && b->ftrace_clock == 4)
		clock = TT_CLOCK_MONOTONIC_RAW;
	else if (b->has_ftrace_clock && b->ftrace_clock && b->has_ftrace_timestamp && b->has_boot_timestamp)
		offset = (int64_t)((uint64_t)b->boot_timestamp - (uint64_t)b->ftrace_timestamp);
	for (i = 0; i < b->n_event; i++) {
		const Perfetto__Protos__FtraceEvent *e = b->event[i];
		int64_t ts = to_trace(c, 0, clock, e->timestamp + (uint64_t)offset);

		if (ts > c->max_ts)
			c->max_ts = ts; /* open sched slices end at the last event */

		switch (e->event_case) {
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_PRINT:
			on_print(c, ps, ts, e->pid, e->print->buf);
			break;
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_SWITCH: {
			const Perfetto__Protos__SchedSwitchFtraceEvent *sw = e->sched_switch;
			push_sched(c, ts, b->cpu, sw->prev_state, sw->next_pid, sw->next_prio,
				   intern_c(c, sw->next_comm));
			break;
		}
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPU_FREQUENCY: {
			tt_str n = intern_c(c, "cpufreq");
			uint32_t t = keyed_counter(c, "proto-cpu-counter", e->cpu_frequency->cpu_id, 0, n,
						   TT_NONE, e->cpu_frequency->cpu_id, NULL);
			push_rec(c, ps, ts, R_COUNTER, 0, t, 0, 0, TT_NONE, 0, (double)e->cpu_frequency->state);
			break;
		}
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPU_IDLE: {
			tt_str n = intern_c(c, "cpuidle");
			uint32_t t = keyed_counter(c, "proto-cpu-counter", e->cpu_idle->cpu_id, 1, n,
						   TT_NONE, e->cpu_idle->cpu_id, NULL);
			push_rec(c, ps, ts, R_COUNTER, 0, t, 0, 0, TT_NONE, 0, (double)e->cpu_idle->state);
			break;
		}
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_TASK_NEWTASK:
			if (e->task_newtask->comm)
				tt_storage_thread_set_name(c->st, ftrace_thread(c, e->task_newtask->pid),
							   intern_c(c, e->task_newtask->comm));
			break;
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_TASK_RENAME:
			if (e->task_rename->newcomm)
				tt_storage_thread_set_name(c->st, ftrace_thread(c, e->task_rename->pid),
							   intern_c(c, e->task_rename->newcomm));
			break;
		default:
			break;
		}
	}
	if (b->compact_sched) {
		const Perfetto__Protos__FtraceEventBundle__CompactSched *cs = b->compact_sched;
		size_t n = cs->n_switch_timestamp;
		uint64_t t = 0;

		if (cs->n_switch_prev_state < n || cs->n_switch_next_pid < n || cs->n_switch_next_prio < n ||
		    cs->n_switch_next_comm_index < n) {
			stat(c, TT_STAT_proto_packet_bad);
			return;
		}
		for (i = 0; i < n; i++) {
			uint32_t ci = cs->switch_next_comm_index[i];
			t += cs->switch_timestamp[i];
			push_sched(c, to_trace(c, 0, clock, t + (uint64_t)offset), b->cpu, cs->switch_prev_state[i],
				   cs->switch_next_pid[i], cs->switch_next_prio[i],
				   ci < cs->n_intern_table ? intern_c(c, cs->intern_table[ci]) : 0);
		}
	}
}

/* ---- packets ----------------------------------------------------------------- */

static int frame_mem(pctx *c, const unsigned char *p, size_t len, int depth);

static void on_compressed(pctx *c, const ProtobufCBinaryData *d, int depth)
{
	z_stream z;
	int rc;

	if (depth > 0) {
		stat(c, TT_STAT_proto_compressed_bad);
		return;
	}
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 15 + 32) != Z_OK) {
		stat(c, TT_STAT_proto_compressed_bad);
		return;
	}
	z.next_in = d->data;
	z.avail_in = (uInt)d->len;
	z.total_out = 0;
	for (;;) {
		if (c->zcap - z.total_out < 64 * 1024) {
			size_t ncap = c->zcap ? c->zcap * 2 : 1u << 20;
			unsigned char *nb;
			if (ncap > MAX_INFLATED) {
				rc = Z_MEM_ERROR;
				break;
			}
			nb = realloc(c->zbuf, ncap);
			if (!nb) {
				rc = Z_MEM_ERROR;
				break;
			}
			c->zbuf = nb;
			c->zcap = ncap;
		}
		z.next_out = c->zbuf + z.total_out;
		z.avail_out = (uInt)(c->zcap - z.total_out);
		rc = inflate(&z, Z_NO_FLUSH);
		if (rc == Z_STREAM_END || (rc != Z_OK && rc != Z_BUF_ERROR))
			break;
		if (rc == Z_BUF_ERROR && z.avail_in == 0)
			break;
	}
	inflateEnd(&z);
	if (rc != Z_STREAM_END) {
		stat(c, TT_STAT_proto_compressed_bad);
		return;
	}
	if (frame_mem(c, c->zbuf, z.total_out, depth + 1))
		stat(c, TT_STAT_proto_compressed_bad);
}

/* Handles one unpacked packet (NULL: protobuf-c rejected it). depth is 1
 * inside compressed_packets. Returns 0, or -1 for a rejected packet. */
static int on_packet(pctx *c, const Pkt *p, int depth)
{
	pseq *s;
	int64_t ts;
	uint32_t clock_id;
	int cleared;

	if (!p) {
		stat(c, TT_STAT_proto_packet_bad);
		return -1;
	}
	c->packets_ok++;
	if (p->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_COMPRESSED_PACKETS) {
		/* zbuf is reused by the inner packets: inflate from where the
		 * outer packet was unpacked */
		on_compressed(c, &p->compressed_packets, depth);
		return 0;
	}
	s = get_seq(c, p->trusted_packet_sequence_id);
	if (!s)
		return 0;
	cleared = (p->has_sequence_flags && (p->sequence_flags & 1)) ||
		  (p->has_incremental_state_cleared && p->incremental_state_cleared);
	if (cleared) {
		seq_clear(s);
		s->valid = 1;
	} else if (p->has_previous_packet_dropped && p->previous_packet_dropped &&
		   !(p->has_first_packet_on_sequence && p->first_packet_on_sequence)) {
		s->valid = 0;
		stat(c, TT_STAT_proto_packet_dropped);
	}
	if (p->has_sequence_flags && (p->sequence_flags & 2) && !s->valid) {
		stat(c, TT_STAT_proto_skipped_incremental);
		return 0;
	}
	if (p->trace_packet_defaults) {
		const Perfetto__Protos__TracePacketDefaults *d = p->trace_packet_defaults;
		s->has_def_clock = d->has_timestamp_clock_id;
		s->def_clock = d->timestamp_clock_id;
		s->has_def_track = 0;
		s->def_extra.n = s->def_extra_dbl.n = 0;
		if (d->track_event_defaults) {
			const Perfetto__Protos__TrackEventDefaults *td = d->track_event_defaults;
			size_t i;
			s->has_def_track = td->has_track_uuid;
			s->def_track = td->track_uuid;
			for (i = 0; i < td->n_extra_counter_track_uuids; i++)
				if (TT_VEC_PUSH(s->def_extra, td->extra_counter_track_uuids[i]))
					c->oom = 1;
			for (i = 0; i < td->n_extra_double_counter_track_uuids; i++)
				if (TT_VEC_PUSH(s->def_extra_dbl, td->extra_double_counter_track_uuids[i]))
					c->oom = 1;
		}
	}
	if (p->interned_data) {
		const Perfetto__Protos__InternedData *in = p->interned_data;
		size_t i;
		for (i = 0; i < in->n_event_names; i++)
			if (itab_put(&s->names, in->event_names[i]->iid, intern_c(c, in->event_names[i]->name)))
				c->oom = 1;
		for (i = 0; i < in->n_event_categories; i++)
			if (itab_put(&s->cats, in->event_categories[i]->iid,
				     intern_c(c, in->event_categories[i]->name)))
				c->oom = 1;
		for (i = 0; i < in->n_debug_annotation_names; i++)
			if (itab_put(&s->dnames, in->debug_annotation_names[i]->iid,
				     intern_c(c, in->debug_annotation_names[i]->name)))
				c->oom = 1;
		for (i = 0; i < in->n_debug_annotation_string_values; i++) {
			const Perfetto__Protos__InternedString *is = in->debug_annotation_string_values[i];
			tt_str v = is->has_str ? intern(c, (const char *)is->str.data, is->str.len) : 0;
			if (is->has_str && !v)
				v = intern(c, "", 0);
			if (itab_put(&s->dstrs, is->iid, v))
				c->oom = 1;
		}
	}

	/* Every packet but clock snapshots converts its timestamp, so that
	 * deltas on an incremental clock advance its base as in Perfetto. */
	if (p->data_case != PERFETTO__PROTOS__TRACE_PACKET__DATA_CLOCK_SNAPSHOT) {
		clock_id = p->has_timestamp_clock_id ? p->timestamp_clock_id :
			   s->has_def_clock ? s->def_clock : tt_proto_clock_primary(c->clock);
		if (p->has_timestamp) {
			ts = to_trace(c, s->id, clock_id, p->timestamp);
			c->last_ts = ts;
			c->have_ts = 1;
		} else {
			ts = c->have_ts ? c->last_ts : 0;
		}
	} else {
		ts = 0;
	}

	switch (p->data_case) {
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_CLOCK_SNAPSHOT: {
		const Perfetto__Protos__ClockSnapshot *cs = p->clock_snapshot;
		tt_proto_clock_value v[32];
		size_t i, n = cs->n_clocks < 32 ? cs->n_clocks : 32;
		for (i = 0; i < n; i++) {
			v[i].id = cs->clocks[i]->clock_id;
			v[i].ts = cs->clocks[i]->timestamp;
			v[i].is_incremental = cs->clocks[i]->is_incremental;
			v[i].mult = cs->clocks[i]->unit_multiplier_ns;
		}
		if (tt_proto_clock_snapshot(c->clock, s->id, v, n, cs->has_primary_trace_clock,
					    (uint32_t)cs->primary_trace_clock))
			c->oom = 1;
		return 0;
	}
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR:
		on_track_descriptor(c, s, p->track_descriptor);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_THREAD_DESCRIPTOR:
		on_thread_descriptor(c, s, p->thread_descriptor);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_PROCESS_DESCRIPTOR: {
		const Perfetto__Protos__ProcessDescriptor *pd = p->process_descriptor;
		on_process_descriptor(c, tt_storage_process(c->st, pd->pid), pd, NULL);
		return 0;
	}
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_PROCESS_TREE:
		on_process_tree(c, s, p->process_tree);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS:
		on_ftrace(c, p->ftrace_events);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_ZSTD_COMPRESSED_PACKETS:
		stat(c, TT_STAT_proto_zstd_unsupported);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT:
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_PROCESS_STATS:
		break;
	default:
		if (p->base.n_unknown_fields) {
			char what[48];

			snprintf(what, sizeof(what), "TracePacket field %u", p->base.unknown_fields[0].tag);
			tt_storage_stat_named(c->st, TT_STAT_proto_unknown_field, what, 1);
		}
		return 0;
	}

	/* payloads that need the packet's timestamp (converted above) */
	if (p->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT)
		on_track_event(c, s, p, p->track_event, ts);
	else
		on_process_stats(c, s, p->process_stats, ts);
	return 0;
}

/* Frames packets inside an inflated compressed_packets blob. */
static int frame_mem(pctx *c, const unsigned char *p, size_t len, int depth)
{
	const unsigned char *e = p + len;

	while (p < e) {
		uint64_t tag, n;
		int k = tt_proto_varint(p, e, &tag), k2;

		if (k <= 0 || (tag & 7) != 2)
			return -1;
		k2 = tt_proto_varint(p + k, e, &n);
		if (k2 <= 0 || n > (uint64_t)(e - p - k - k2))
			return -1;
		if (tag >> 3 == 1) {
			/* one at a time: the arena holds a single packet */
			tt_proto_arena_reset(&c->ar);
			on_packet(c, tt_proto_unpack(&c->ar, p + k + k2, (size_t)n), depth);
		}
		p += k + k2 + n;
	}
	return 0;
}

/* ---- parse: merge sequences and feed the trackers ------------------------------- */

static int rec_cmp(const void *a, const void *b)
{
	const prec *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->ord < y->ord ? -1 : x->ord > y->ord;
}

static uint32_t resolve(pctx *c, uint32_t i, int depth, tt_str event_name, enum tt_async_kind kind);

/* Resolves the parent track first (its scope is inherited). */
static uint32_t parent_track_of(pctx *c, const utrack *u, int depth)
{
	uint64_t *pi;

	if (!u->has_parent)
		return TT_NONE;
	pi = tt_pmap_find(&c->uuid_index, u->parent);
	return pi ? resolve(c, (uint32_t)*pi, depth + 1, 0, TT_ASYNC_PEEK) : TT_NONE;
}

/* Storage track of uuid entry i (created on first use). A slice track
 * with no name of its own is named by the first event fed onto it, as
 * trace processor names it. */
/* The track of a merged sibling set for one event (or a parent: PEEK). */
static uint32_t merged_track(pctx *c, const utrack *u, enum tt_async_kind kind)
{
	uint32_t t = tt_async_track_set(c->async, u->mk1, u->mk2, u->mk3, u->uuid, &u->mdesc, kind);

	if (t == TT_NONE)
		c->oom = 1;
	return t;
}

static uint32_t resolve(pctx *c, uint32_t i, int depth, tt_str event_name, enum tt_async_kind kind)
{
	utrack *u = &c->utracks.v[i];
	uint32_t parent_track = TT_NONE, sutid = TT_NONE, supid = TT_NONE, t;
	tt_track_desc d = { .type = "global", .utid = TT_NONE, .upid = TT_NONE, .parent_id = TT_NONE,
			    .cpu = -1 };

	if (u->track != TT_NONE)
		return u->track;
	if (u->merged)
		return merged_track(c, u, kind);
	if (u->resolving || depth > 32)
		return TT_NONE;
	u->resolving = 1;
	parent_track = parent_track_of(c, u, depth);
	u = &c->utracks.v[i];
	if (u->has_parent) {
		uint64_t *pi = tt_pmap_find(&c->uuid_index, u->parent);
		if (pi) {
			const utrack *p = &c->utracks.v[*pi];
			sutid = p->kind == UT_THREAD ? p->utid : p->scope_utid;
			supid = p->kind == UT_PROCESS ? p->upid : p->kind == UT_THREAD ? p->upid : p->scope_upid;
		}
	}
	u->resolving = 0;
	u->scope_utid = sutid;
	u->scope_upid = supid;
	d.name = u->name;
	d.description = u->desc;
	d.parent_id = parent_track;
	switch (u->kind) {
	case UT_THREAD:
		t = tt_storage_thread_track(c->st, u->utid);
		if (u->name)
			tt_storage_track_set_name(c->st, t, u->name);
		u->track = t;
		return t;
	case UT_PROCESS:
		d.type = "process";
		d.upid = u->upid;
		d.parent_id = TT_NONE;
		break;
	case UT_COUNTER:
		d.type = "counter";
		d.is_counter = 1;
		d.unit = u->unit;
		d.utid = sutid;
		d.upid = supid;
		break;
	default:
		if (!u->described) {
			if (u->uuid == 0)
				d.name = intern_c(c, "Default Track");
			else
				stat(c, TT_STAT_proto_track_undescribed);
		}
		if (!d.name)
			d.name = event_name;
		if (sutid != TT_NONE) {
			d.type = "thread";
			d.utid = sutid;
			d.upid = supid;
		} else if (supid != TT_NONE) {
			d.type = "process";
			d.upid = supid;
		}
		/* trace processor: sibling slice tracks of one parent that may
		 * merge (by name, the default, or by key) share tracks while
		 * their slices do not overlap, as async ids do: a thousand
		 * tracks of one name are not a thousand rows in the viewer */
		if (u->merge != 2 && u->uuid != 0) {
			u->merged = 1;
			u->mdesc = d;
			u->mk1 = sutid != TT_NONE ? (1ULL << 32) | sutid : supid != TT_NONE ? (2ULL << 32) | supid : 0;
			u->mk2 = u->has_parent ? u->parent : 0;
			u->mk3 = u->merge == 3 ? (1ULL << 32) | u->merge_key : d.name;
			return merged_track(c, u, kind);
		}
		break;
	}
	u->track = tt_storage_track_new(c->st, &d);
	return u->track;
}

static uint32_t rec_track(pctx *c, const prec *r)
{
	if ((r->track & (TRACK_UUID | TRACK_ASYNC)) == TRACK_ASYNC) {
		const akey *k = &c->akeys.v[r->track & ~TRACK_ASYNC];
		uint32_t t = tt_async_track(c->async, k->upid, k->scope, k->id, k->name,
					    r->kind == R_BEGIN ? TT_ASYNC_BEGIN :
					    r->kind == R_END ? TT_ASYNC_END : TT_ASYNC_INSTANT);
		if (t == TT_NONE)
			c->oom = 1;
		return t;
	}
	return (r->track & TRACK_UUID) ? resolve(c, r->track & ~TRACK_UUID, 0,
						  r->kind == R_COUNTER ? 0 : r->name,
						  r->kind == R_BEGIN ? TT_ASYNC_BEGIN :
						  r->kind == R_END ? TT_ASYNC_END :
						  r->kind == R_COMPLETE ? TT_ASYNC_INSTANT : TT_ASYNC_PEEK) : r->track;
}

static void feed_flows(pctx *c, tt_pmap *active, const prec *r, int64_t slice)
{
	size_t lo = 0, hi = c->flows.n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (c->flows.v[mid].ord < r->ord)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < c->flows.n && c->flows.v[lo].ord == r->ord; lo++) {
		const pflow *f = &c->flows.v[lo];
		uint64_t *last = tt_pmap_find(active, f->id);
		int live = last && *last;

		switch (f->kind) {
		case FL_STEP:
		case FL_INOUT:
			if (live)
				tt_storage_flow(c->st, (int64_t)(*last - 1), slice, TT_NONE);
			else if (f->kind == FL_INOUT)
				stat(c, TT_STAT_flow_unmatched);
			if (tt_pmap_put(active, f->id, (uint64_t)slice + 1))
				c->oom = 1;
			break;
		case FL_OUT:
			if (tt_pmap_put(active, f->id, (uint64_t)slice + 1))
				c->oom = 1;
			break;
		case FL_TERM:
			if (live) {
				tt_storage_flow(c->st, (int64_t)(*last - 1), slice, TT_NONE);
				*last = 0;
			}
			break;
		case FL_IN:
			/* trace processor: a legacy FLOW_IN links from the flow's
			 * last slice and leaves the flow open (more may come in) */
			if (live)
				tt_storage_flow(c->st, (int64_t)(*last - 1), slice, TT_NONE);
			else
				stat(c, TT_STAT_flow_unmatched);
			break;
		}
	}
}

/* A v1 flow event (legacy 's' / 't' / 'f'): binds to the slice enclosing
 * it on its track; an 'f' without bind_to_enclosing binds to the next
 * slice that begins there. */
static void feed_flow_v1(pctx *c, const prec *r, uint32_t track, tt_pmap *active)
{
	int64_t slice = tt_slice_tracker_enclosing(c->im->slices, track, r->ts);
	uint64_t key = (uint64_t)r->u.i, *last = tt_pmap_find(active, key);
	int live = last && *last;

	switch (r->flags) {
	case V1_START:
		if (slice < 0) {
			stat(c, TT_STAT_flow_unmatched);
			return;
		}
		if (tt_pmap_put(active, key, (uint64_t)slice + 1))
			c->oom = 1;
		return;
	case V1_STEP:
		if (slice < 0 || !live) {
			stat(c, TT_STAT_flow_unmatched);
			return;
		}
		tt_storage_flow(c->st, (int64_t)(*last - 1), slice, TT_NONE);
		*last = (uint64_t)slice + 1;
		return;
	case V1_END_ENCLOSING:
		if (slice < 0 || !live) {
			stat(c, TT_STAT_flow_unmatched);
			return;
		}
		tt_storage_flow(c->st, (int64_t)(*last - 1), slice, TT_NONE);
		*last = 0;
		return;
	case V1_END:
		if (!live) {
			stat(c, TT_STAT_flow_unmatched);
			return;
		}
		if (tt_pmap_put(&c->v1_pending, track, *last))
			c->oom = 1;
		*last = 0;
		return;
	}
}

static void feed(pctx *c, const prec *r, tt_pmap *active, tt_pmap *open_tts)
{
	uint32_t track = rec_track(c, r);
	int64_t id = -1;

	if (track == TT_NONE)
		return;
	if (r->kind == R_FLOW_V1) {
		feed_flow_v1(c, r, track, active);
		return;
	}
	switch (r->kind) {
	case R_BEGIN:
		id = tt_slice_tracker_begin(c->im->slices, track, r->ts, r->cat, r->name, r->args);
		if (id >= 0 && (r->flags & F_TTS) && tt_pmap_put(open_tts, (uint64_t)id, (uint64_t)r->u.i))
			c->oom = 1;
		break;
	case R_END:
		id = tt_slice_tracker_end_match(c->im->slices, track, r->ts, r->cat, r->name, r->args);
		if (id >= 0 && (r->flags & F_TTS)) {
			uint64_t *b = tt_pmap_find(open_tts, (uint64_t)id);
			if (b)
				tt_storage_slice_set_thread_time(c->st, id, (int64_t)*b,
								 (int64_t)((uint64_t)r->u.i - *b));
		}
		break;
	case R_COMPLETE:
		id = tt_slice_tracker_complete(c->im->slices, track, r->ts, r->u.i, r->cat, r->name, r->args);
		break;
	case R_COUNTER:
		if (r->track & TRACK_UUID) {
			const utrack *u = &c->utracks.v[r->track & ~TRACK_UUID];
			if (u->kind != UT_COUNTER && u->described) {
				stat(c, TT_STAT_proto_counter_bad_track);
				return;
			}
		}
		tt_storage_counter(c->st, track, r->ts, r->u.d);
		return;
	}
	if (id >= 0 && (r->flags & F_FLOWS))
		feed_flows(c, active, r, id);
	if (id >= 0 && c->v1_pending.n && r->kind != R_END) {
		uint64_t *src = tt_pmap_find(&c->v1_pending, track);

		if (src && *src) {
			tt_storage_flow(c->st, (int64_t)(*src - 1), id, TT_NONE);
			*src = 0;
		}
	}
}

/* Tournament ("loser") tree over the sequences' record lists: t[0] holds
 * the smallest next record by (ts, ord), each inner node the loser of the
 * match played there, and the leaves are the lists. Taking the winner
 * replays one leaf-to-root path: log2(k) matches, played without branches
 * because who wins is a coin toss when many threads interleave (a binary
 * heap's sift mispredicted half of its branches and was a third of the
 * merge). An entry keeps its record's key, so matches touch no record
 * memory: key = ord << 32 | leaf (ords are unique, so the leaf never
 * decides); exhausted and padding leaves hold the largest key and are never
 * taken, since the merge stops after `left` records. */
typedef struct lent {
	int64_t ts;
	uint64_t key;
} lent;

typedef struct mleaf {
	const prec *cur, *end;
} mleaf;

typedef struct merger {
	lent *t;
	mleaf *leaf;
	size_t k;        /* leaves, a power of two */
	uint64_t left;   /* records not taken yet */
} merger;

static int lent_less(const lent *a, const lent *b)
{
	return (a->ts < b->ts) | ((a->ts == b->ts) & (a->key < b->key));
}

static lent leaf_head(const mleaf *l, size_t j)
{
	lent e = { INT64_MAX, UINT64_MAX };

	if (l->cur < l->end) {
		e.ts = l->cur->ts;
		e.key = (uint64_t)l->cur->ord << 32 | j;
	}
	return e;
}

/* Sorts each list that needs it and plays the first round. */
static int merger_init(pctx *c, merger *m)
{
	size_t i, n = 0;
	lent *w;

	memset(m, 0, sizeof(*m));
	for (m->k = 1; m->k < c->seqs.n; m->k *= 2)
		;
	m->t = malloc(m->k * sizeof(*m->t));
	m->leaf = calloc(m->k, sizeof(*m->leaf));
	w = malloc(2 * m->k * sizeof(*w));
	if (!m->t || !m->leaf || !w) {
		free(w);
		return -1;
	}
	for (i = 0; i < c->seqs.n; i++) {
		pseq *s = c->seqs.v[i];
		if (!s->recs.n)
			continue;
		if (!s->sorted)
			qsort(s->recs.v, s->recs.n, sizeof(prec), rec_cmp);
		m->leaf[n].cur = s->recs.v;
		m->leaf[n++].end = s->recs.v + s->recs.n;
		m->left += s->recs.n;
	}
	for (i = 0; i < m->k; i++)
		w[m->k + i] = leaf_head(&m->leaf[i], i);
	for (i = m->k; i-- > 1;) {
		int a_wins = lent_less(&w[2 * i], &w[2 * i + 1]);
		w[i] = w[2 * i + !a_wins];
		m->t[i] = w[2 * i + a_wins];
	}
	m->t[0] = w[1];
	free(w);
	return 0;
}

/* The next record in (ts, ord) order; m->left must be > 0. */
static const prec *merger_next(merger *m)
{
	size_t j = (size_t)(m->t[0].key & 0xffffffffu), i;
	mleaf *l = &m->leaf[j];
	const prec *r = l->cur++;
	lent e = leaf_head(l, j);

	/* the lists are read in turns, too many streams for the hardware
	 * prefetcher: this list comes up again after about k others */
	if (l->end - l->cur > 3)
		__builtin_prefetch(l->cur + 3);
	for (i = (m->k + j) >> 1; i; i >>= 1) {
		lent x = m->t[i];
		uint64_t up = -(uint64_t)lent_less(&x, &e); /* all ones: x wins and goes on up */

		m->t[i].ts = (int64_t)(((uint64_t)e.ts & up) | ((uint64_t)x.ts & ~up));
		m->t[i].key = (e.key & up) | (x.key & ~up);
		e.ts = (int64_t)(((uint64_t)x.ts & up) | ((uint64_t)e.ts & ~up));
		e.key = (x.key & up) | (e.key & ~up);
	}
	m->t[0] = e;
	m->left--;
	return r;
}

static void merger_free(merger *m)
{
	free(m->t);
	free(m->leaf);
}

/* The merge runs on a thread of its own while the importing thread feeds
 * the trackers (feed() is about as costly as the merge, and the trackers
 * and storage stay on one thread). The merge thread copies records in
 * order into a ring of chunks: the feeding thread then reads them in
 * sequence instead of chasing k lists. */
#define MCHUNK 2048
#define MCHUNKS 4

typedef struct mpipe {
	merger *m;
	prec *chunk[MCHUNKS];
	size_t fill[MCHUNKS];
	size_t head, tail;       /* chunks taken / filled */
	int done;
	atomic_int stop;
	pthread_mutex_t mu;
	pthread_cond_t cv;
} mpipe;

static void *merge_thread(void *arg)
{
	mpipe *p = arg;

	pthread_mutex_lock(&p->mu);
	while (!p->done && !atomic_load(&p->stop)) {
		size_t k = p->tail % MCHUNKS, n = 0;

		if (p->tail - p->head == MCHUNKS) {
			pthread_cond_wait(&p->cv, &p->mu);
			continue;
		}
		pthread_mutex_unlock(&p->mu);
		while (n < MCHUNK && p->m->left)
			p->chunk[k][n++] = *merger_next(p->m);
		pthread_mutex_lock(&p->mu);
		p->fill[k] = n;
		p->tail++;
		p->done = !p->m->left;
		pthread_cond_broadcast(&p->cv);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* Feeds the merged records from the merge thread. Returns 0, or -1 when
 * the thread could not be set up (nothing fed then). */
static int feed_piped(pctx *c, merger *m, tt_pmap *active, tt_pmap *open_tts)
{
	mpipe p;
	pthread_t th;
	uint64_t fed = 0;
	size_t i;
	int rc = -1;

	memset(&p, 0, sizeof(p));
	p.m = m;
	atomic_init(&p.stop, 0);
	for (i = 0; i < MCHUNKS; i++)
		if (!(p.chunk[i] = malloc(MCHUNK * sizeof(prec))))
			goto out;
	if (pthread_mutex_init(&p.mu, NULL))
		goto out;
	if (pthread_cond_init(&p.cv, NULL)) {
		pthread_mutex_destroy(&p.mu);
		goto out;
	}
	if (pthread_create(&th, NULL, merge_thread, &p)) {
		pthread_cond_destroy(&p.cv);
		pthread_mutex_destroy(&p.mu);
		goto out;
	}
	rc = 0;
	pthread_mutex_lock(&p.mu);
	for (;;) {
		size_t k = p.head % MCHUNKS, n;

		if (p.head == p.tail) {
			if (p.done)
				break;
			pthread_cond_wait(&p.cv, &p.mu);
			continue;
		}
		n = p.fill[k];
		pthread_mutex_unlock(&p.mu);
		for (i = 0; i < n; i++)
			feed(c, &p.chunk[k][i], active, open_tts);
		fed += n;
		pthread_mutex_lock(&p.mu);
		p.head++;
		pthread_cond_broadcast(&p.cv);
		if ((fed & ~(uint64_t)0xffff) != ((fed - n) & ~(uint64_t)0xffff) && tt_import_cancelled(c->im)) {
			atomic_store(&p.stop, 1);
			break;
		}
	}
	pthread_mutex_unlock(&p.mu);
	pthread_join(th, NULL);
	pthread_cond_destroy(&p.cv);
	pthread_mutex_destroy(&p.mu);
out:
	for (i = 0; i < MCHUNKS; i++)
		free(p.chunk[i]);
	return rc;
}

static int merge_and_feed(pctx *c)
{
	merger m;
	tt_pmap active = {0}, open_tts = {0};
	size_t i;

	if (merger_init(c, &m)) {
		merger_free(&m);
		return -1;
	}
	if (!c->threaded || feed_piped(c, &m, &active, &open_tts)) {
		while (m.left) {
			feed(c, merger_next(&m), &active, &open_tts);
			if ((m.left & 0xffff) == 0 && tt_import_cancelled(c->im))
				break;
		}
	}
	merger_free(&m);
	for (i = 0; i < c->seqs.n; i++)
		TT_VEC_FREE(c->seqs.v[i]->recs);
	tt_pmap_free(&active);
	tt_pmap_free(&open_tts);
	return 0;
}

/* ---- sched_switch -> sched_slice, thread_state ------------------------------- */

static int sched_cmp(const void *a, const void *b)
{
	const sched_rec *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->ord < y->ord ? -1 : x->ord > y->ord;
}

typedef struct sslice {
	int64_t ts, dur;
	uint32_t cpu, utid;
	int64_t prio;
	tt_str end_state;
} sslice;

static int sslice_ts_cmp(const void *a, const void *b)
{
	const sslice *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

static int sslice_thread_cmp(const void *a, const void *b)
{
	const sslice *x = a, *y = b;

	if (x->utid != y->utid)
		return x->utid < y->utid ? -1 : 1;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* Linux task state bits as letters (TASK_REPORT order); 0 = runnable. */
static tt_str state_str(pctx *c, int64_t st)
{
	static const char letters[] = "SDTtXZPI";
	char b[16];
	size_t n = 0;
	int i;

	if (st == 0)
		return intern_c(c, "R");
	for (i = 0; i < 8; i++)
		if (st & (1 << i))
			b[n++] = letters[i];
	if (n == 0)
		return intern_c(c, "R+"); /* only the preempted bit above TASK_REPORT */
	return intern(c, b, n);
}

static void build_sched(pctx *c)
{
	TT_VEC(sslice) out = {0};
	size_t i;
	sslice cur = {0};
	int open = 0;
	tt_str running = intern_c(c, "Running");

	if (!c->sched.n)
		return;
	qsort(c->sched.v, c->sched.n, sizeof(sched_rec), sched_cmp);
	for (i = 0; i < c->sched.n; i++) {
		const sched_rec *r = &c->sched.v[i];
		if (open && cur.cpu != r->cpu) {
			cur.dur = c->max_ts - cur.ts;
			cur.end_state = 0;
			if (TT_VEC_PUSH(out, cur))
				c->oom = 1;
			open = 0;
		}
		if (open) {
			cur.dur = r->ts - cur.ts;
			cur.end_state = state_str(c, r->prev_state);
			if (TT_VEC_PUSH(out, cur))
				c->oom = 1;
		}
		cur.ts = r->ts;
		cur.cpu = r->cpu;
		cur.utid = ftrace_thread(c, r->next_pid);
		cur.prio = r->next_prio;
		if (r->next_comm && r->next_pid != 0)
			tt_storage_thread_set_name(c->st, cur.utid, r->next_comm);
		open = 1;
	}
	if (open) {
		cur.dur = c->max_ts - cur.ts;
		cur.end_state = 0;
		if (TT_VEC_PUSH(out, cur))
			c->oom = 1;
	}
	if (out.n > 1) /* out.v is NULL when nothing was pushed */
		qsort(out.v, out.n, sizeof(sslice), sslice_ts_cmp);
	for (i = 0; i < out.n; i++)
		tt_storage_sched(c->st, out.v[i].ts, out.v[i].dur, out.v[i].cpu, out.v[i].utid,
				 out.v[i].end_state, out.v[i].prio);
	/* thread_state: Running while on a cpu, then the end state until the
	 * thread runs again (swapper excluded). */
	if (out.n > 1)
		qsort(out.v, out.n, sizeof(sslice), sslice_thread_cmp);
	{
		uint32_t swapper = ftrace_thread(c, 0);
		TT_VEC(sslice) ts = {0};
		for (i = 0; i < out.n; i++) {
			const sslice *x = &out.v[i];
			sslice a = *x;
			if (x->utid == swapper)
				continue;
			a.end_state = running;
			if (TT_VEC_PUSH(ts, a))
				c->oom = 1;
			if (x->end_state) {
				sslice b = *x;
				int64_t end = x->ts + x->dur;
				b.ts = end;
				b.dur = (i + 1 < out.n && out.v[i + 1].utid == x->utid) ? out.v[i + 1].ts - end
											  : c->max_ts - end;
				b.cpu = UINT32_MAX;
				if (TT_VEC_PUSH(ts, b))
					c->oom = 1;
			}
		}
		if (ts.n > 1) /* every slice was the swapper's: ts.v is NULL */
			qsort(ts.v, ts.n, sizeof(sslice), sslice_ts_cmp);
		for (i = 0; i < ts.n; i++)
			tt_storage_thread_state(c->st, ts.v[i].ts, ts.v[i].dur,
						ts.v[i].cpu == UINT32_MAX ? -1 : (int64_t)ts.v[i].cpu,
						ts.v[i].utid, ts.v[i].end_state);
		TT_VEC_FREE(ts);
	}
	TT_VEC_FREE(out);
}

/* ---- entry point ------------------------------------------------------------------ */

static void ctx_free(pctx *c)
{
	size_t i;

	for (i = 0; i < c->seqs.n; i++)
		seq_free(c->seqs.v[i]);
	TT_VEC_FREE(c->seqs);
	tt_pmap_free(&c->seq_index);
	tt_pmap_free(&c->uuid_index);
	tt_pmap_free(&c->ftrace_threads);
	tt_pmap_free(&c->named_procs);
	tt_pmap_free(&c->proc_args);
	tt_pmap_free(&c->desc_by_upid);
	tt_pmap_free(&c->desc_by_utid);
	TT_VEC_FREE(c->pargs);
	TT_VEC_FREE(c->utracks);
	tt_keymap_free(&c->akey_index);
	tt_pmap_free(&c->v1_pending);
	TT_VEC_FREE(c->akeys);
	tt_async_tracker_free(c->async);
	TT_VEC_FREE(c->flows);
	TT_VEC_FREE(c->sched);
	tt_proto_arena_destroy(&c->ar);
	tt_proto_clock_free(c->clock);
	free(c->zbuf);
	free(c);
}

int tt_import_proto(tt_import *im, tt_bytesrc *src)
{
	return tt_import_proto_opts(im, src, 1, 0);
}

int tt_import_proto_opts(tt_import *im, tt_bytesrc *src, int threaded, size_t batch_packets)
{
	pctx *c = calloc(1, sizeof(*c));
	tt_proto_reader *rdr = NULL;
	tt_proto_batch b;
	tt_proto_end end;
	int rc = TT_OK;
	size_t i;

	if (!c)
		return tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path);
	c->im = im;
	c->st = im->st;
	c->threaded = threaded;
	tt_storage_main_threads(c->st, 1);
	c->clock = tt_proto_clock_new();
	c->async = tt_async_tracker_new(c->st);
	tt_proto_arena_init(&c->ar);
	if (!c->clock || !c->async || !(rdr = tt_proto_reader_new(src, im->path, threaded, batch_packets))) {
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path);
		goto out;
	}

	while (tt_proto_reader_next(rdr, &b)) {
		for (i = 0; i < b.n; i++) {
			if (on_packet(c, b.items[i].pkt, 0) && c->packets_ok == 0) {
				rc = tt_err_set(im->err, TT_EINVAL,
						"%s: not a perfetto trace: first packet at byte %llu does not decode",
						im->path, (unsigned long long)b.items[i].off);
				goto out;
			}
			if (c->oom || tt_storage_oom(c->st)) {
				rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory at byte %llu", im->path,
						(unsigned long long)b.items[i].off);
				goto out;
			}
		}
		tt_import_progress(im, b.file_off, c->events);
		if (tt_import_cancelled(im)) {
			rc = tt_err_set(im->err, TT_ECANCEL, "%s: import cancelled", im->path);
			goto out;
		}
	}
	tt_proto_reader_end(rdr, &end, im->err);
	if (end.code) {
		rc = end.code;
		goto out;
	}
	if (end.bad) {
		if (c->packets_ok == 0) {
			rc = tt_err_set(im->err, TT_EINVAL, "%s: not a perfetto trace: %s at byte %llu",
					im->path, end.bad, (unsigned long long)end.off);
			goto out;
		}
		tt_storage_meta_int(c->st, "proto_truncated_offset", (int64_t)end.off);
		{
			/* the user hears of it: `info` and the CLI show import_warning */
			char msg[160];

			snprintf(msg, sizeof(msg), "%s at byte %llu: the last %lld bytes were not read",
				 end.bad, (unsigned long long)end.off, (long long)end.left);
			tt_storage_meta_str(c->st, "import_warning", msg);
			tt_storage_stat_add(c->st, TT_STAT_proto_truncated, (int64_t)end.left);
		}
	}
	if (c->packets_ok == 0) {
		rc = tt_err_set(im->err, TT_EINVAL, "%s: not a perfetto trace: no packet at byte 0", im->path);
		goto out;
	}
	if (merge_and_feed(c)) {
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path);
		goto out;
	}
	if (tt_import_cancelled(im)) {
		rc = tt_err_set(im->err, TT_ECANCEL, "%s: import cancelled", im->path);
		goto out;
	}
	build_sched(c);
	process_args_flush(c);
	/* import.c flushes the slice tracker after we return */
	tt_import_progress(im, end.file_off, c->events);
	if (c->oom || tt_storage_oom(c->st))
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path);
out:
	tt_proto_reader_free(rdr);
	ctx_free(c);
	return rc;
}
