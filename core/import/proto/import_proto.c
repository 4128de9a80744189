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
 * metadata, Android logs), proto_sysstats.c (SysStats counters),
 * proto_packet.c (one packet: incremental state, its timestamp, the
 * payload's dispatch to the modules above and those of the tracing service,
 * system and Android data sources, network and storage events).
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

void tt_proto_seq_clear(pseq *s)
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
	tt_proto_gpu_free(c);
	tt_proto_drm_free(c);
	tt_pmap_free(&c->v4l2_queued);
	tt_pmap_free(&c->virtgpu_starts);
	tt_keymap_free(&c->fs_reads);
	tt_pmap_free(&c->packages);
	tt_memory_tracker_free(c->memory);
	tt_binder_tracker_free(c->binder);
	tt_keymap_free(&c->rails);
	tt_pmap_free(&c->wakelocks);
	tt_pmap_free(&c->ended_pids);
	tt_proto_translate_free(c);
	tt_pmap_free(&c->net_bytes);
	tt_keymap_free(&c->kernel_tracks);
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

/* What packet i + 4 and i + 2 of the batch will read first, asked for
 * now: the packet and its TrackEvent were written by the other thread,
 * and the annotations' cache slot and entry are cache misses the check
 * would wait on (proto_args.c). */
static void prefetch_ahead(pctx *c, const tt_proto_batch *b, size_t i)
{
	const Pkt *q;

	if (i + 4 < b->n) {
		tt_proto_annots_prefetch(c, &b->items[i + 4]);
		if (b->items[i + 4].pkt)
			__builtin_prefetch(&b->items[i + 4].pkt->track_event);
	}
	if (i + 2 >= b->n)
		return;
	tt_proto_annots_prefetch2(c, &b->items[i + 2]);
	q = b->items[i + 2].pkt;
	if (q && q->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT && q->track_event) {
		__builtin_prefetch(q->track_event);
		__builtin_prefetch((const char *)q->track_event + 64);
	}
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

	c->file_size = tt_bytesrc_size(src);
	while (tt_proto_reader_next(rdr, &b)) {
		c->file_off = b.file_off;
		for (i = 0; i < b.n; i++) {
			prefetch_ahead(c, &b, i);
			if (tt_proto_on_packet(c, b.items[i].pkt, &b.items[i], 0) && c->packets_ok == 0) {
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
