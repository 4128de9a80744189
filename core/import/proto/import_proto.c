/*
 * import_proto.c - the Perfetto protobuf importer (issue 3).
 *
 * Pipeline (design.md, formats.md section 1):
 *   framing   the file is `0x0A <varint len> <TracePacket>` repeated; we
 *   unpack    frame it ourselves and protobuf-c unpacks each TracePacket on
 *             its own, in batches of up to 256, on a worker thread with
 *             the importing thread helping (proto_read.c), with run-time
 *             schemas that leave debug annotations packed and list only
 *             an ordinary event's fields first (proto_read.h); an event's
 *             annotations are unpacked only when their arg set is not
 *             known from the same bytes before (proto_args.c). Memory follows
 *             the batches in flight, never the file size. compressed_packets
 *             (zlib/gzip auto-detect) and zstd_compressed_packets (one zstd
 *             frame) are inflated (proto_inflate.c) and framed the same way
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
 * (opts.proto_one_thread runs without them; tests compare both). Storage,
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
 *     JSON traces use: tt_track_tracker_thread); with `process` a process
 *     track; with `counter` a counter track; others are async tracks
 *     scoped by their parent (thread / process / global). uuid 0 is the
 *     global "Default Track".
 *   - Legacy events (Chrome's proto still writes some): X (duration),
 *     B/E, I/i with scope, R (mark) as a 0-length instant on the thread
 *     with arg legacy_event.phase = "R" (as trace_processor's
 *     ParseThreadInstantEvent does), async b/e/n and S/T/p/F on tracks
 *     keyed by (process, id, category or name, id_scope), M (metadata:
 *     thread_name and process_name name the event's thread / process in
 *     trace order; other names are counted in proto_legacy_unsupported,
 *     where trace processor keeps them for its JSON export). An event with
 *     track uuid 0 and no type falls back to its sequence's thread track.
 *   - Thread time: values of a THREAD_TIME_NS counter track (Chrome's
 *     extra counter) go to the counter table and to slice thread_ts /
 *     thread_dur.
 *   - A truncated file keeps every complete packet; the bytes left are
 *     counted in proto_truncated and the offset of the cut is stored as
 *     metadata `proto_truncated_offset`. A first packet that cannot be
 *     framed or unpacked means "not a trace": TT_EINVAL.
 *
 * Cost (tests/bench/bench_proto.c; callgrind of the one-thread import of
 * one copy of the Chromium class, TT_PROTO_THREADS=1): about 430M
 * instructions for 3.7 MB, of which protobuf-c's unpack is about 45 %
 * (a TracePacket costs ~1,600 instructions whatever its size, a new
 * TrackEvent ~2,500, the annotations not seen before the rest) and the
 * importing thread's share (arg sets, interning, records, the merge and
 * the feed) the rest. On two threads the work splits about evenly (the
 * worker unpacks, the importing thread helps when it would wait), so the
 * import runs at about half the one-thread time; the decode alone is
 * bench_proto's `decode` line. Records are 48 bytes per event, freed as
 * the merge passes them; a Chrome event's thread-time counter rides on
 * its event's record (proto_int.h, REC_FOLDED), which halves them on a
 * Chromium trace. What protobuf-c is given to unpack (proto_read.h): run-
 * time descriptors over the generated structs (annotations left packed, a
 * "hot" schema first, TrackEvents decoded once per distinct bytes by the
 * worker's cache, proto_tecache.c).
 *
 * Files: import_proto.c (framing, packets, entry point), proto_int.h
 * (records, context), proto_read.c (batched unpack, the schemas) and
 * proto_tecache.c (decoded TrackEvents), proto_args.c, proto_typed_args.c
 * (typed TrackEvent args by reflection), proto_ext.c (extensions and
 * their descriptors), proto_desc.c, proto_track_event.c, proto_state.c
 * (state tracks), proto_callstack.c (callstacks, sampling profiler),
 * proto_ftrace.c, proto_kernel.c (interrupts, workqueues, kernel counters,
 * memory, signals, suspend), proto_sched.c (sched slices, thread states),
 * proto_systrace.c and atrace.c (atrace markers), proto_feed.c
 * (merge and trackers), proto_clock.c, proto_meta.c (TraceStats, Chrome's
 * metadata, Android logs), proto_sysstats.c (SysStats counters).
 *
 * Known limits: the packets inside compressed_packets (and zstd's) are
 * unpacked on the importing thread
 * (one at a time, not by the worker); machine_id is kept only for a trace
 * from one machine; a TrackEvent given twice in one small packet is the
 * last one (as trace processor's decoder reads it) where protobuf-c's
 * real schema, used for packets of 64 KiB and more, merges the two; an
 * end's debug annotation arrays replace the begin's entries where trace
 * processor appends them.
 */
#include "proto_int.h"
#include <math.h>
#include <stddef.h>
#include "proto_inflate.h"

/* ---- small helpers -------------------------------------------------------- */




pseq *tt_proto_get_seq(pctx *c, uint64_t key)
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
	s->stream = tt_sorter_stream(c->sorter);
	if (s->stream == UINT32_MAX)
		c->oom = 1;
	return s;
}

/* Returns 0, or -1 out of memory. */
int tt_proto_itab_put(itab *t, uint64_t iid, tt_str v)
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
int tt_proto_itab_find(const itab *t, uint64_t iid, tt_str *v)
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
	s->agen++;
	itab_clear(&s->names);
	itab_clear(&s->cats);
	itab_clear(&s->dnames);
	itab_clear(&s->dstrs);
	itab_clear(&s->fnames);
	itab_clear(&s->hnames);
	itab_clear(&s->lbodies);
	itab_clear(&s->ksyms);
	tt_pmap_clear(&s->srclocs);
	s->srcloc.n = 0;
	itab_clear(&s->build_ids);
	itab_clear(&s->mapping_paths);
	tt_pmap_clear(&s->mappings);
	tt_pmap_clear(&s->frames);
	tt_pmap_clear(&s->callstacks);
	tt_pmap_clear(&s->counters);
	s->cnt_val = NULL;
	s->has_def_clock = s->has_def_track = 0;
	s->def_extra.n = s->def_extra_dbl.n = 0;
}

static void seq_free(pseq *s)
{
	itab_free(&s->names);
	itab_free(&s->cats);
	itab_free(&s->dnames);
	itab_free(&s->dstrs);
	itab_free(&s->fnames);
	itab_free(&s->hnames);
	itab_free(&s->lbodies);
	itab_free(&s->ksyms);
	tt_pmap_free(&s->srclocs);
	TT_VEC_FREE(s->srcloc);
	itab_free(&s->build_ids);
	itab_free(&s->mapping_paths);
	tt_pmap_free(&s->mappings);
	tt_pmap_free(&s->frames);
	tt_pmap_free(&s->callstacks);
	tt_pmap_free(&s->counters);
	TT_VEC_FREE(s->def_extra);
	TT_VEC_FREE(s->def_extra_dbl);
	free(s);
}

static uint32_t new_utrack(pctx *c, uint64_t uuid);

uint32_t tt_proto_get_utrack(pctx *c, uint64_t uuid)
{
	/* events name a few tracks each (their own, their counters'): a
	 * small direct-mapped cache before the map (whose keys and values
	 * live apart: two cache misses a lookup) */
	struct utrack_hit *h = &c->utrack_hits[tt_pmap_hash(uuid) % PCTX_UTRACK_HITS];
	uint64_t *idx;

	if (h->ui && h->uuid == uuid)
		return h->ui - 1;
	idx = tt_pmap_find(&c->uuid_index, uuid);
	if (idx) {
		h->uuid = uuid;
		h->ui = (uint32_t)*idx + 1;
		return (uint32_t)*idx;
	}
	return new_utrack(c, uuid);
}

/* (apart: its zeroed struct is not built for every lookup) */
static uint32_t new_utrack(pctx *c, uint64_t uuid)
{
	utrack z = {0};

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

static int push_one(pctx *c, pseq *s, int64_t ts, int kind, int flags, uint32_t track,
		    tt_str name, tt_str cat, uint32_t args, int64_t i, double d, uint32_t folded)
{
	prec r;

	if (track == TT_NONE || s->stream == UINT32_MAX)
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
	r.id = (uint64_t)folded << 32 | c->ord++;
	r.kind = (uint8_t)kind;
	r.flags = (uint16_t)(flags | (c->in_track_event ? F_TE : 0) | (s->first_packet ? F_FPOS : 0) |
			     (folded ? F_FOLD : 0));
	r.scope = 0;
	switch (tt_sorter_push(c->sorter, s->stream, &r)) {
	case -1:
		c->oom = 1;
		return -1;
	case -2: /* older than what a flush point gave out: dropped, counted */
		return 0;
	}
	if (ts > c->max_ts)
		c->max_ts = ts;
	c->events++;
	return 0;
}

void tt_proto_fold_flush(pctx *c, pseq *s)
{
	uint32_t ui = c->fold_ui;

	if (!ui)
		return;
	c->fold_ui = 0;
	push_one(c, s, c->fold_ts, R_COUNTER, 0, TRACK_UUID | (ui - 1), 0, 0, TT_NONE, 0, c->fold_v, 0);
}

void tt_proto_push_counter_folding(pctx *c, pseq *s, int64_t ts, uint32_t ui, double v)
{
	tt_proto_fold_flush(c, s);
	c->fold_ui = ui + 1;
	c->fold_ts = ts;
	c->fold_v = v;
}

int tt_proto_push_rec(pctx *c, pseq *s, int64_t ts, int kind, int flags, uint32_t track,
		      tt_str name, tt_str cat, uint32_t args, int64_t i, double d)
{
	if (c->fold_ui) {
		if (track != TT_NONE && tt_proto_fold_takes(c, ts, kind, flags, i)) {
			uint32_t ui = c->fold_ui;

			c->fold_ui = 0;
			return push_one(c, s, ts, kind, flags, track, name, cat, args, i, d, ui);
		}
		tt_proto_fold_flush(c, s);
	}
	return push_one(c, s, ts, kind, flags, track, name, cat, args, i, d, 0);
}




/* ---- packets ----------------------------------------------------------------- */

static int frame_mem(pctx *c, const unsigned char *p, size_t len, int depth);

/* compressed_packets (zstd: zstd_compressed_packets): the packets in it,
 * framed and handled as the file's own; not inside another one. */
static void on_compressed(pctx *c, const ProtobufCBinaryData *d, int zstd, int depth)
{
	long n;

	if (depth > 0) {
		stat(c, TT_STAT_proto_compressed_bad);
		return;
	}
	n = tt_proto_inflate(zstd, d->data, d->len, &c->zbuf, &c->zcap, MAX_INFLATED);
	if (n < 0 || frame_mem(c, c->zbuf, (size_t)n, depth + 1))
		stat(c, TT_STAT_proto_compressed_bad);
}

/* Android's SDK level of a release ("12", "8.1", "S..."), as trace
 * processor maps it; -1 when unknown. */
static int64_t sdk_of_release(const char *v, size_t n)
{
	static const struct { const char *rel; int sdk; } map[] = {
		{ "12", 31 }, { "11", 30 }, { "10", 29 }, { "9", 28 }, { "8.1", 27 }, { "8.0", 26 },
		{ "7.1", 25 }, { "7.0", 24 }, { "6.0", 23 }, { "5.1", 22 }, { "5.1.1", 22 },
		{ "5.0", 21 }, { "5.0.1", 21 }, { "5.0.2", 21 },
	};

	if (n && (v[0] == 'T' || v[0] == 'S'))
		return 31;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strlen(map[i].rel) == n && memcmp(map[i].rel, v, n) == 0)
			return map[i].sdk;
	return -1;
}

/* A SystemInfo string field and its metadata key. */
struct si_key {
	const char *key;
	size_t off;
};

#define SI_KEY(f) { #f, offsetof(Perfetto__Protos__SystemInfo, f) }

static void si_strs(pctx *c, const Perfetto__Protos__SystemInfo *si, const struct si_key *k, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *v = *(char *const *)(const void *)((const char *)si + k[i].off);

		if (v)
			tt_storage_meta_str(c->st, k[i].key, v);
	}
}

/* SystemInfo's metadata rows, in the order trace processor's
 * SystemProbesParser writes them (the utsname's: tt_proto_on_system_info).
 * A build fingerprint BRAND/PRODUCT/DEVICE:RELEASE/ID/INCREMENTAL:TYPE/TAGS
 * gives the incremental build and, without android_sdk_version, the SDK
 * level. */
static void system_info_meta(pctx *c, const Perfetto__Protos__SystemInfo *si)
{
	static const struct si_key first[] = { SI_KEY(android_device_manufacturer) };
	static const struct si_key then[] = {
		SI_KEY(tracing_service_version), SI_KEY(android_soc_model), SI_KEY(android_guest_soc_model),
		SI_KEY(android_hardware_revision), SI_KEY(android_storage_model), SI_KEY(android_ram_model),
		SI_KEY(android_serial_console),
	};
	int64_t sdk = si->has_android_sdk_version ? (int64_t)si->android_sdk_version : -1;
	const char *fp = si->android_build_fingerprint;

	if (si->has_timezone_off_mins)
		tt_storage_meta_int(c->st, "timezone_off_mins", si->timezone_off_mins);
	if (fp) {
		const char *colon = strchr(fp, ':'), *rel_slash, *id_slash, *inc_colon;

		tt_storage_meta_str(c->st, "android_build_fingerprint", fp);
		if (colon && (rel_slash = strchr(colon, '/')) && (id_slash = strchr(rel_slash + 1, '/')) &&
		    (inc_colon = strchr(id_slash, ':'))) {
			char inc[256];

			snprintf(inc, sizeof(inc), "%.*s", (int)(inc_colon - id_slash - 1), id_slash + 1);
			tt_storage_meta_str(c->st, "android_incremental_build", inc);
			if (sdk < 0)
				sdk = sdk_of_release(colon + 1, (size_t)(rel_slash - colon - 1));
		}
	}
	si_strs(c, si, first, sizeof(first) / sizeof(first[0]));
	if (sdk >= 0)
		tt_storage_meta_int(c->st, "android_sdk_version", sdk);
	si_strs(c, si, then, sizeof(then) / sizeof(then[0]));
	if (si->has_system_ram_bytes) {
		tt_storage_meta_int(c->st, "system_ram_bytes", (int64_t)si->system_ram_bytes);
		/* in GB, rounded (trace processor's MachineTracker::BytesToGB) */
		tt_storage_meta_int(c->st, "system_ram_gb", (int64_t)llround((double)si->system_ram_bytes / 1e9));
	}
}

/* The clock_snapshot rows of a snapshot that links to the trace clock:
 * each clock at the snapshot's instant, its value in ns (trace
 * processor's ClockTracker::AddSnapshotToTable; an incremental clock's
 * value is the snapshot's, its base). */
static void store_snapshot(pctx *c, const tt_proto_clock_value *v, size_t n, uint32_t snap, int64_t at)
{
	static const char *const builtin[] = { NULL, "REALTIME", "REALTIME_COARSE", "MONOTONIC",
					       "MONOTONIC_COARSE", "MONOTONIC_RAW", "BOOTTIME" };

	for (size_t i = 0; i < n; i++) {
		const char *name = v[i].id < sizeof(builtin) / sizeof(builtin[0]) ? builtin[v[i].id] : NULL;
		uint64_t mult = v[i].mult ? v[i].mult : 1;

		if (tt_storage_clock_snapshot(c->st, at, v[i].id, (int64_t)(v[i].ts * mult),
					      name ? intern(c, name, strlen(name)) : 0, snap) < 0)
			c->oom = 1;
	}
}

/* Handles one unpacked packet (NULL: protobuf-c rejected it). depth is 1
 * inside compressed_packets. Returns 0, or -1 for a rejected packet. */
static int on_packet(pctx *c, const Pkt *p, const tt_proto_item *it, int depth)
{
	pseq *s;
	int64_t ts;
	uint32_t clock_id;
	int cleared;

	/* debug annotations protobuf-c rejects reject their packet, as
	 * they would unpacked with it (proto_read.h: they come packed) */
	if (!p || tt_proto_annots_check(c, p, it)) {
		stat(c, TT_STAT_proto_packet_bad);
		return -1;
	}
	c->packets_ok++;
	if (p->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_COMPRESSED_PACKETS ||
	    p->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_ZSTD_COMPRESSED_PACKETS) {
		/* zbuf is reused by the inner packets: inflate from where the
		 * outer packet was unpacked */
		on_compressed(c, p->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_ZSTD_COMPRESSED_PACKETS ?
				 &p->zstd_compressed_packets : &p->compressed_packets,
			      p->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_ZSTD_COMPRESSED_PACKETS, depth);
		return 0;
	}
	if (p->has_machine_id && p->machine_id) {
		if (c->remote_packets++ && p->machine_id != c->machine_raw)
			c->machines_mixed = 1;
		c->machine_raw = p->machine_id;
	} else {
		c->host_packets++;
	}
	s = tt_proto_get_seq(c, p->trusted_packet_sequence_id);
	if (!s)
		return 0;
	/* (trace processor counts a sequence's losses from its second packet) */
	if (s->seen && p->has_trusted_packet_sequence_id && p->previous_packet_dropped)
		tt_proto_seq_losses(s, p->previous_packet_dropped);
	s->seen = 1;
	if (p->has_first_packet_on_sequence && p->first_packet_on_sequence)
		s->first_packet = 1;
	cleared = (p->has_sequence_flags && (p->sequence_flags & 1)) ||
		  (p->has_incremental_state_cleared && p->incremental_state_cleared);
	if (cleared) {
		seq_clear(s);
		tt_proto_cpu_uid_cleared(c, s->id);
		s->valid = 1;
	} else if (p->has_previous_packet_dropped && p->previous_packet_dropped &&
		   !(p->has_first_packet_on_sequence && p->first_packet_on_sequence)) {
		s->valid = 0;
		stat(c, TT_STAT_proto_packet_dropped);
	}
	if (p->has_sequence_flags && (p->sequence_flags & 2)) {
		s->incr_total++;
		if (!s->valid) {
			s->incr_skipped++;
			stat(c, TT_STAT_proto_skipped_incremental);
			return 0;
		}
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
			if (tt_proto_itab_put(&s->names, in->event_names[i]->iid, intern_c(c, in->event_names[i]->name)))
				c->oom = 1;
		for (i = 0; i < in->n_event_categories; i++)
			if (tt_proto_itab_put(&s->cats, in->event_categories[i]->iid,
				     intern_c(c, in->event_categories[i]->name)))
				c->oom = 1;
		for (i = 0; i < in->n_debug_annotation_names; i++) {
			tt_str old;
			/* a name given again may differ: annotations seen
			 * before may mean other args now (proto_args.c) */
			if (tt_proto_itab_find(&s->dnames, in->debug_annotation_names[i]->iid, &old))
				s->agen++;
			if (tt_proto_itab_put(&s->dnames, in->debug_annotation_names[i]->iid,
				     intern_c(c, in->debug_annotation_names[i]->name)))
				c->oom = 1;
		}
		for (i = 0; i < in->n_debug_annotation_string_values; i++) {
			const Perfetto__Protos__InternedString *is = in->debug_annotation_string_values[i];
			tt_str v = is->has_str ? intern(c, (const char *)is->str.data, is->str.len) : 0, old;
			if (tt_proto_itab_find(&s->dstrs, is->iid, &old))
				s->agen++;
			if (is->has_str && !v)
				v = intern(c, "", 0);
			if (v && is->has_str && memchr(is->str.data, 0, is->str.len) &&
			    tt_pmap_put(&c->nul_strs, v, 1))
				c->oom = 1;
			if (tt_proto_itab_put(&s->dstrs, is->iid, v))
				c->oom = 1;
		}
		for (i = 0; i < in->n_histogram_names; i++)
			if (tt_proto_itab_put(&s->hnames, in->histogram_names[i]->iid,
					      intern_c(c, in->histogram_names[i]->name ? in->histogram_names[i]->name : "")))
				c->oom = 1;
		for (i = 0; i < in->n_log_message_body; i++)
			if (tt_proto_itab_put(&s->lbodies, in->log_message_body[i]->iid,
					      intern_c(c, in->log_message_body[i]->body ? in->log_message_body[i]->body : "")))
				c->oom = 1;
		tt_proto_on_interned_callstacks(c, s, in);
		tt_proto_on_interned_srclocs(c, s, in);
		tt_proto_on_interned_ksyms(c, s, in);
	}

	/* Every packet but clock snapshots converts its timestamp, so that
	 * deltas on an incremental clock advance its base as in Perfetto. */
	if (p->data_case != PERFETTO__PROTOS__TRACE_PACKET__DATA_CLOCK_SNAPSHOT) {
		clock_id = p->has_timestamp_clock_id ? p->timestamp_clock_id :
			   s->has_def_clock ? s->def_clock : tt_proto_clock_primary(c->clock);
		if (p->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_SERVICE_EVENT) {
			/* trace processor: the service stamps its events with
			 * BOOTTIME whatever the trace clock; converted with
			 * errors suppressed, else the raw value kept (and not
			 * the time of the packets without one after it) */
			clock_id = p->has_timestamp_clock_id ? p->timestamp_clock_id : 6;
			if (tt_proto_clock_to_trace(c->clock, s->id, clock_id, p->timestamp, &ts))
				ts = (int64_t)p->timestamp;
		} else if (p->has_timestamp) {
			ts = to_trace(c, s->id, clock_id, p->timestamp);
			c->last_ts = ts;
			c->have_ts = 1;
		} else {
			ts = c->have_ts ? c->last_ts : 0;
		}
	} else {
		ts = 0;
	}

	if (p->data_case != PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT)
		c->content_other = 1;
	switch (p->data_case) {
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_CLOCK_SNAPSHOT: {
		const Perfetto__Protos__ClockSnapshot *cs = p->clock_snapshot;
		tt_proto_clock_value v[32];
		size_t i, n = cs->n_clocks < 32 ? cs->n_clocks : 32;
		uint32_t snap;
		int64_t at;
		for (i = 0; i < n; i++) {
			v[i].id = cs->clocks[i]->clock_id;
			v[i].ts = cs->clocks[i]->timestamp;
			v[i].is_incremental = cs->clocks[i]->is_incremental;
			v[i].mult = cs->clocks[i]->unit_multiplier_ns;
		}
		switch (tt_proto_clock_snapshot(c->clock, s->id, v, n, cs->has_primary_trace_clock,
						(uint32_t)cs->primary_trace_clock, &snap, &at)) {
		case 1:
			store_snapshot(c, v, n, snap, at);
			break;
		case -1:
			c->oom = 1;
			break;
		}
		return 0;
	}
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR:
		tt_proto_on_track_descriptor(c, s, p->track_descriptor);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_THREAD_DESCRIPTOR:
		tt_proto_on_thread_descriptor(c, s, p->thread_descriptor);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_PROCESS_DESCRIPTOR: {
		const Perfetto__Protos__ProcessDescriptor *pd = p->process_descriptor;
		tt_proto_on_process_descriptor(c, tt_process_tracker_process(c->im->procs, pd->pid), pd, NULL);
		return 0;
	}
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_PROCESS_TREE:
		tt_proto_defer_process_tree(c, s, p->process_tree, ts);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS:
		tt_proto_on_ftrace(c, s, p->ftrace_events);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_EXTENSION_DESCRIPTOR:
		tt_proto_on_extension_descriptor(c, p->extension_descriptor);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_SYSTEM_INFO:
		tt_proto_on_system_info(c, p->system_info);
		system_info_meta(c, p->system_info);
		tt_proto_on_system_version(c, p->system_info->tracing_service_version);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACE_UUID:
		tt_proto_set_uuid(c, p->trace_uuid->msb, p->trace_uuid->lsb, 1);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACE_CONFIG:
		tt_proto_on_trace_config(c, &p->trace_config);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACE_ATTRIBUTES:
		tt_proto_on_trace_attributes(c, p->trace_attributes);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRIGGER:
		tt_proto_on_trigger(c, s, ts, p->trigger, 0);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_CLONE_SNAPSHOT_TRIGGER:
		tt_proto_on_trigger(c, s, ts, p->clone_snapshot_trigger, 1);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_CHROME_TRIGGER:
		tt_proto_on_chrome_trigger(c, s, ts, p->chrome_trigger);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_CONCURRENT_SESSION_EVENT:
		tt_proto_on_session_event(c, s, ts, p->concurrent_session_event);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_STATS:
		tt_proto_on_ftrace_stats(c, p->ftrace_stats);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACE_STATS:
		tt_proto_on_trace_stats(c, p->trace_stats);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_ANDROID_LOG:
		tt_proto_on_android_log(c, s, p->android_log);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_CHROME_EVENTS:
		tt_proto_on_chrome_events(c, p->chrome_events);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_CHROME_METADATA:
		tt_proto_on_chrome_metadata(c, p->chrome_metadata);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_CHROME_BENCHMARK_METADATA:
		tt_proto_on_benchmark_metadata(c, p->chrome_benchmark_metadata);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_SYNCHRONIZATION_MARKER:
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACE_PROVENANCE:
		return 0; /* (read, not kept: trace processor keeps neither) */
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_STREAMING_PROFILE_PACKET:
		tt_proto_on_streaming_profile(c, s, p->streaming_profile_packet);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT_RANGE_OF_INTEREST:
		/* Chrome: track events before start_us are incomplete (a ring
		 * buffer's oldest part); trace processor drops them when told
		 * to, as Perfetto's UI does: so do we (feed drops them) */
		if (p->track_event_range_of_interest->has_start_us) {
			c->has_roi = 1;
			c->roi_ns = sat_mul(p->track_event_range_of_interest->start_us, 1000);
			tt_storage_meta_int(c->st, "range_of_interest_start_us",
					    p->track_event_range_of_interest->start_us);
		}
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_SERVICE_EVENT:
		tt_proto_on_service_event(c, p->service_event, ts);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_SYS_STATS:
		tt_proto_on_sys_stats(c, s, p->sys_stats, ts);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_PACKAGES_LIST:
		tt_proto_on_packages(c, p->packages_list);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_BATTERY:
		tt_proto_on_battery(c, s, p->battery, ts);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_POWER_RAILS:
		tt_proto_on_power_rails(c, s, p->power_rails, ts);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRANSLATION_TABLE:
		tt_proto_on_translation_table(c, p->translation_table);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_CPU_INFO:
		tt_proto_on_cpu_info(c, p->cpu_info);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_ANDROID_SYSTEM_PROPERTY:
		tt_proto_on_system_property(c, s, p->android_system_property, ts);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_INITIAL_DISPLAY_STATE:
		tt_proto_on_initial_display_state(c, s, p->initial_display_state, ts);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_ANDROID_ENERGY_ESTIMATION_BREAKDOWN:
		tt_proto_on_energy_breakdown(c, s, p->android_energy_estimation_breakdown, ts);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_ENTITY_STATE_RESIDENCY:
		tt_proto_on_entity_state(c, s, p->entity_state_residency, ts);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_CPU_PER_UID_DATA:
		tt_proto_on_cpu_per_uid(c, s, p->cpu_per_uid_data, ts);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_ANDROID_AFLAGS:
		tt_proto_on_aflags(c, p->android_aflags, ts);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_ANDROID_GAME_INTERVENTION_LIST:
		tt_proto_on_game_list(c, p->android_game_intervention_list);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_USER_LIST:
		tt_proto_on_user_list(c, p->user_list);
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
	if (p->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT) {
		c->in_track_event = 1;
		tt_proto_on_track_event(c, s, p, p->track_event, ts);
		tt_proto_fold_flush(c, s); /* its event was dropped or took none */
		c->in_track_event = 0;
	} else
		tt_proto_on_process_stats(c, s, p->process_stats, ts);
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
			tt_proto_item it = { .len = (size_t)n };

			tt_proto_arena_reset(&c->ar);
			it.pkt = tt_proto_unpack(c->schema, &c->ar, NULL, p + k + k2, (size_t)n);
			on_packet(c, it.pkt, &it, depth);
		}
		p += k + k2 + n;
	}
	return 0;
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
	tt_pmap_free(&c->mm_threads);
	TT_VEC_FREE(c->disks);
	TT_VEC_FREE(c->energy);
	TT_VEC_FREE(c->entities);
	TT_VEC_FREE(c->cma);
	tt_keymap_free(&c->cma_migrated);
	tt_proto_cpu_uid_free(c);
	tt_keymap_free(&c->fs_reads);
	tt_pmap_free(&c->packages);
	tt_memory_tracker_free(c->memory);
	tt_binder_tracker_free(c->binder);
	tt_keymap_free(&c->rails);
	tt_pmap_free(&c->wakelocks);
	tt_pmap_free(&c->ended_pids);
	tt_proto_translate_free(c);
	tt_pmap_free(&c->net_bytes);
	tt_pmap_free(&c->tcp_streams);
	TT_VEC_FREE(c->pend_assoc);
	TT_VEC_FREE(c->pend_parent);
	tt_pmap_free(&c->named_procs);
	tt_pmap_free(&c->proc_args);
	tt_pmap_free(&c->desc_by_upid);
	tt_pmap_free(&c->desc_by_utid);
	TT_VEC_FREE(c->pargs);
	TT_VEC_FREE(c->utracks);
	tt_keymap_free(&c->akey_index);
	tt_pmap_free(&c->arg_keys);
	tt_pmap_free(&c->nul_strs);
	tt_pmap_free(&c->state_open);
	tt_pmap_free(&c->legacy_counters);
	TT_VEC_FREE(c->cstacks);
	tt_keymap_free(&c->inline_frames);
	TT_VEC_FREE(c->akeys);
	TT_VEC_FREE(c->content);
	tt_proto_ext_free(c);
	tt_keymap_free(&c->content_index);
	tt_sorter_free(c->sorter);
	TT_VEC_FREE(c->open_tts);
	TT_VEC_FREE(c->flows);
	TT_VEC_FREE(c->sched);
	tt_proto_free_ptrees(c);
	tt_proto_arena_destroy(&c->ar);
	tt_proto_annots_free(c);
	tt_proto_clock_free(c->clock);
	free(c->zbuf);
	free(c);
}

int tt_import_proto(tt_import *im, tt_bytesrc *src)
{
	int threaded = !im->opts.proto_one_thread;
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
	tt_process_tracker_main_threads(c->im->procs, 1);
	tt_args_tracker_dedupe(c->im->args, 1);
	/* trace processor's slice tracker: instants of one ts stack */
	tt_slice_tracker_stack_instants(c->im->slices, 1);
	/* trace processor: the thread a legacy event came from is its
	 * beginning's; an end from another thread adds none */
	tt_storage_args_keep_first(c->st, "legacy_event.passthrough_utid");
	/* a Perfetto trace is a Linux system trace: pid 0 is the idle task */
	if (tt_process_tracker_idle_rows(c->im->procs, 1))
		c->oom = 1;
	c->clock = tt_proto_clock_new();
	c->sorter = tt_sorter_new(TT_SORT_FULL);
	c->memory = tt_memory_tracker_new(im);
	tt_proto_arena_init(&c->ar);
	if (!c->clock || !c->sorter || !c->memory || !(c->schema = tt_proto_schema_get()) ||
	    !(rdr = tt_proto_reader_new(src, im->path, c->schema, threaded, im->opts.proto_batch))) {
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path);
		goto out;
	}

	while (tt_proto_reader_next(rdr, &b)) {
		for (i = 0; i < b.n; i++) {
			if (on_packet(c, b.items[i].pkt, &b.items[i], 0) && c->packets_ok == 0) {
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
	/* its batches (packet bytes, unpacked messages: several MB) are not
	 * needed by the merge and the feed, which grow storage meanwhile */
	tt_proto_reader_free(rdr);
	rdr = NULL;
	tt_proto_arena_destroy(&c->ar);
	free(c->zbuf);
	c->zbuf = NULL;
	c->zcap = 0;
	/* nor are the sequences' interning tables and the kept arg keys */
	for (i = 0; i < c->seqs.n; i++)
		seq_free(c->seqs.v[i]);
	c->seqs.n = 0;
	c->last_seq = NULL;
	tt_pmap_free(&c->seq_index);
	tt_pmap_free(&c->arg_keys);
	tt_pmap_free(&c->nul_strs);
	tt_proto_annots_free(c);
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
	if (tt_proto_merge_and_feed(c)) {
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path);
		goto out;
	}
	if (tt_import_cancelled(im)) {
		rc = tt_err_set(im->err, TT_ECANCEL, "%s: import cancelled", im->path);
		goto out;
	}
	tt_proto_build_sched(c);
	/* trace processor: with explicit process / thread ordering on the
	 * root descriptor, a process or thread descriptor's
	 * sibling_order_rank is its sort index (process_sort_index_hint) */
	for (size_t k = 0; k < c->utracks.n; k++) {
		const utrack *u = &c->utracks.v[k];

		if (!u->has_rank)
			continue;
		if (u->kind == UT_THREAD && c->thread_order_explicit && u->utid != TT_NONE)
			tt_storage_thread_set_sort_index(c->st, u->utid, u->rank);
		else if (u->kind == UT_PROCESS && c->process_order_explicit && u->upid != TT_NONE)
			tt_storage_process_set_sort_index(c->st, u->upid, u->rank);
	}
	tt_proto_process_args_flush(c);
	tt_proto_content_flush(c);
	tt_proto_service_end(c);
	/* a trace from one other machine: what it made is that machine's
	 * (traces mixing machines keep machine_id NULL: not supported) */
	if (c->remote_packets && !c->host_packets && !c->machines_mixed)
		tt_storage_machine(c->st, c->machine_raw);
	/* the clock every ts is on (trace processor's trace_time_clock_id) */
	tt_storage_meta_int(c->st, "trace_time_clock_id", tt_proto_clock_primary(c->clock));
	/* import.c flushes the slice tracker after we return */
	tt_import_progress(im, end.file_off, c->events);
	if (c->oom || tt_storage_oom(c->st))
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path);
out:
	tt_proto_reader_free(rdr);
	ctx_free(c);
	return rc;
}
