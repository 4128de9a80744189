/*
 * proto_feed.c - the merge of the sequences' records in (ts, file order)
 * and the feeding of the trackers: track resolution through descriptor
 * parent chains, slices, flows. See import_proto.c.
 */
#include "proto_int.h"
#include "workq.h"

/* ---- parse: merge sequences and feed the trackers ------------------------------- */

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
static uint32_t merged_track(pctx *c, utrack *u, enum tt_async_kind kind)
{
	uint32_t t;

	/* (the set is the same for every event of u: found once) */
	if (!u->mset) {
		tt_async_args a = { .ndim = 0 };
		uint32_t si;

		/* trace processor's merged blueprints' dimensions: the scope,
		 * the parent, how siblings merge (0 by name, 2 by key) and on
		 * what */
		if (u->mdesc.utid != TT_NONE)
			a.dim[a.ndim++] = (tt_async_arg){ "utid", 'u', u->mdesc.utid, NULL };
		else if (u->mdesc.upid != TT_NONE)
			a.dim[a.ndim++] = (tt_async_arg){ "upid", 'u', u->mdesc.upid, NULL };
		a.dim[a.ndim++] = (tt_async_arg){ "parent_track_uuid", 'i', u->mk2, NULL };
		a.dim[a.ndim++] = (tt_async_arg){ "merge_key_type", 'u', u->merge == 3 ? 2 : 0, NULL };
		a.dim[a.ndim++] = (tt_async_arg){ "merge_key_value", 's',
						  u->merge == 3 ? u->merge_key : u->mdesc.name, NULL };
		si = tt_async_set(c->im->async, u->mk1, u->mk2, u->mk3, &u->mdesc, &a);
		if (si == TT_NONE) {
			c->oom = 1;
			return TT_NONE;
		}
		u->mset = si + 1;
	}
	t = tt_async_track_in_set(c->im->async, u->mset - 1, u->uuid, kind);
	if (t == TT_NONE)
		c->oom = 1;
	return t;
}

static uint32_t resolve_track(pctx *c, uint32_t i, int depth, tt_str event_name, enum tt_async_kind kind);

/* The track of descriptor i, with the source args trace processor gives
 * a descriptor's track when it makes it (proto_desc.c: tt_proto_track_source_args). */
static uint32_t resolve(pctx *c, uint32_t i, int depth, tt_str event_name, enum tt_async_kind kind)
{
	uint32_t t = resolve_track(c, i, depth, event_name, kind);
	utrack *u = &c->utracks.v[i];

	if (t != TT_NONE && u->desc_track != t + 1) {
		u->desc_track = t + 1;
		if (tt_storage_track_source_args(c->st, t) == TT_NONE)
			tt_proto_track_source_args(c, u, t, c->feed_first_packet);
	}
	return t;
}

static uint32_t resolve_track(pctx *c, uint32_t i, int depth, tt_str event_name, enum tt_async_kind kind)
{
	utrack *u = &c->utracks.v[i];
	uint32_t parent_track = TT_NONE, sutid = TT_NONE, supid = TT_NONE, t;
	int parent_root = 0;
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
			parent_root = p->kind == UT_THREAD || p->kind == UT_PROCESS;
			sutid = p->kind == UT_THREAD ? p->utid : p->scope_utid;
			supid = p->kind == UT_PROCESS ? p->upid : p->kind == UT_THREAD ? p->upid : p->scope_upid;
		}
	}
	u->resolving = 0;
	u->scope_utid = sutid;
	u->scope_upid = supid;
	d.name = u->name;
	d.description = u->desc;
	/* trace processor: a track scoped by a thread or process descriptor
	 * above it has that descriptor as its scope, not as its parent (the
	 * thread's track is where its own slices are; lib_slices.sql's
	 * is_main_track reads the type) */
	d.parent_id = parent_root && (sutid != TT_NONE || supid != TT_NONE) ? TT_NONE : parent_track;
	if (u->legacy_counter) {
		d.type = u->legacy_counter == 1 ? "thread_time" : "thread_instructions";
		d.name = intern_c(c, u->legacy_counter == 1 ? "thread_time" : "thread_instruction_count");
		d.utid = u->utid;
		d.upid = u->upid;
		d.is_counter = 1;
		u->track = tt_storage_track_new(c->st, &d);
		/* trace processor's thread_time / thread_instructions
		 * blueprints: the thread */
		if (d.utid != TT_NONE && tt_proto_dims_begin(c, u->track)) {
			tt_storage_args_uint(c->st, "utid", d.utid);
			tt_proto_dims_end(c, u->track);
		}
		return u->track;
	}
	if (u->is_state && u->kind != UT_COUNTER) {
		u->track = tt_proto_state_track(c, u, parent_track, sutid, supid, event_name);
		return u->track;
	}
	switch (u->kind) {
	case UT_THREAD:
		if (u->separate) {
			/* disallow_merging_with_system_tracks: the thread's
			 * events on a track of their own, beside the thread's
			 * track (legacy events, ftrace's atrace) */
			d.type = "thread_track_event";
			d.utid = u->utid;
			d.upid = u->upid;
			d.parent_id = TT_NONE;
			break;
		}
		t = tt_track_tracker_thread(c->im->tracks, u->utid);
		if (u->name)
			tt_storage_track_set_name(c->st, t, u->name);
		u->track = t;
		return t;
	case UT_PROCESS:
		d.type = "process_track_event";
		d.upid = u->upid;
		d.parent_id = TT_NONE;
		d.name = tt_proto_translate_track_name(c, d.name);
		break;
	case UT_COUNTER:
		d.type = sutid != TT_NONE ? "thread_counter_track_event" :
			 supid != TT_NONE ? "process_counter_track_event" : "global_counter_track_event";
		d.is_counter = 1;
		d.unit = u->unit;
		d.utid = sutid;
		d.upid = supid;
		/* trace processor renames process-scoped tracks only */
		if (sutid == TT_NONE && supid != TT_NONE)
			d.name = tt_proto_translate_track_name(c, d.name);
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
		d.type = "global_track_event";
		if (sutid != TT_NONE) {
			d.type = "thread_track_event";
			d.utid = sutid;
			d.upid = supid;
		} else if (supid != TT_NONE) {
			d.type = "process_track_event";
			d.upid = supid;
			d.name = tt_proto_translate_track_name(c, d.name);
		}
		/* trace processor: sibling slice tracks of one parent that may
		 * merge (by name, the default, or by key) share tracks while
		 * their slices do not overlap, as async ids do: a thousand
		 * tracks of one name are not a thousand rows in the viewer */
		if (u->merge != 2) {
			u->merged = 1;
			u->mdesc = d;
			u->mdesc.type = sutid != TT_NONE ? "thread_merged_track_event" :
					supid != TT_NONE ? "process_merged_track_event" : "global_merged_track_event";
			u->mk1 = sutid != TT_NONE ? (1ULL << 32) | sutid : supid != TT_NONE ? (2ULL << 32) | supid : 0;
			u->mk2 = u->has_parent ? u->parent : 0;
			u->mk3 = u->merge == 3 ? (1ULL << 32) | u->merge_key : d.name;
			return merged_track(c, u, kind);
		}
		break;
	}
	u->track = tt_storage_track_new(c->st, &d);
	/* trace processor's descriptor track blueprints: the scope, then the
	 * uuid */
	if (u->track != TT_NONE) {
		tt_storage_args_begin(c->st);
		if (d.utid != TT_NONE)
			tt_storage_args_uint(c->st, "utid", d.utid);
		else if (d.upid != TT_NONE)
			tt_storage_args_uint(c->st, "upid", d.upid);
		tt_storage_args_int(c->st, "track_uuid", (int64_t)u->uuid);
		tt_storage_track_set_dimension_args(c->st, u->track, tt_args_tracker_end(c->im->args));
	}
	return u->track;
}

static uint32_t rec_track(pctx *c, const prec *r)
{
	if ((r->track & (TRACK_UUID | TRACK_ASYNC)) == TRACK_ASYNC) {
		const akey *k = &c->akeys.v[r->track & ~TRACK_ASYNC];
		uint32_t t = tt_async_track_chrome(c->im->async, k->upid, k->scope, k->id, k->name,
						   r->kind == R_BEGIN ? TT_ASYNC_BEGIN :
						   r->kind == R_END ? TT_ASYNC_END : TT_ASYNC_INSTANT, k->src_upid);
		if (t == TT_NONE)
			c->oom = 1;
		return t;
	}
	if (r->track & TRACK_UUID) {
		/* most records go to a descriptor's track made before, with
		 * its source args: resolve would give it at once */
		const utrack *u = &c->utracks.v[r->track & ~TRACK_UUID];

		if (u->track != TT_NONE && u->desc_track == u->track + 1)
			return u->track;
	}
	return (r->track & TRACK_UUID) ? resolve(c, r->track & ~TRACK_UUID, 0,
						  r->kind == R_COUNTER ? 0 : r->name,
						  r->kind == R_BEGIN ? TT_ASYNC_BEGIN :
						  r->kind == R_END ? TT_ASYNC_END :
						  r->kind == R_COMPLETE ? TT_ASYNC_INSTANT : TT_ASYNC_PEEK) : r->track;
}

/* A record's descriptor track, which rec_track reads, is a cache miss
 * (the records of many tracks interleave): asked for a few records
 * ahead. (The index is checked: a record of another kind may use the
 * field for something else.) */
static inline void prefetch_utrack(const pctx *c, const prec *r)
{
	if ((r->track & TRACK_UUID) && (r->track & ~TRACK_UUID) < c->utracks.n)
		__builtin_prefetch(&c->utracks.v[r->track & ~TRACK_UUID]);
}

/* The flows of the event that made slice, as trace processor's
 * TrackEvent parser reads them (MaybeParseFlowEvents): the legacy bind_id
 * by its flow_direction (out begins, inout steps, in ends and leaves the
 * flow active), then flow_ids (an active flow steps, another begins), then
 * terminating_flow_ids (an active flow ends and closes; another is no
 * flow). The stats are the flow tracker's. */
static void feed_flows(pctx *c, const prec *r, int64_t slice)
{
	tt_flow_tracker *fl = c->im->flows;
	size_t lo = 0, hi = c->flows.n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (c->flows.v[mid].ord < REC_ORD(r))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < c->flows.n && c->flows.v[lo].ord == REC_ORD(r); lo++) {
		const pflow *f = &c->flows.v[lo];

		switch (f->kind) {
		case FL_OUT:
			tt_flow_tracker_begin(fl, slice, f->id);
			break;
		case FL_INOUT:
			tt_flow_tracker_step(fl, slice, f->id);
			break;
		case FL_IN:
			tt_flow_tracker_end(fl, slice, f->id);
			break;
		case FL_NODIR:
			stat(c, TT_STAT_flow_without_direction);
			break;
		case FL_STEP:
			if (tt_flow_tracker_active(fl, f->id))
				tt_flow_tracker_step(fl, slice, f->id);
			else
				tt_flow_tracker_begin(fl, slice, f->id);
			break;
		case FL_TERM:
			if (tt_flow_tracker_active(fl, f->id))
				tt_flow_tracker_end_close(fl, slice, f->id);
			break;
		}
	}
}

/* A v1 flow event (legacy 's' / 't' / 'f', trace processor's
 * ParseFlowEventV1): the flow of (unscoped id, cat, name) on the topmost
 * slice of its track; an 'f' without bind_to_enclosing comes into the
 * next slice that begins there. */
static void feed_flow_v1(pctx *c, const prec *r, uint32_t track)
{
	tt_flow_tracker *fl = c->im->flows;
	uint64_t flow = tt_flow_tracker_v1(fl, c->im->args, (uint64_t)r->u.i, r->cat, r->name);
	int64_t top = tt_slice_tracker_top(c->im->slices, track);

	switch (r->flags & ~(F_TE | F_FPOS | F_CS)) {
	case V1_START:
		tt_flow_tracker_begin(fl, top, flow);
		return;
	case V1_STEP:
		tt_flow_tracker_step(fl, top, flow);
		return;
	case V1_END_ENCLOSING:
		tt_flow_tracker_end(fl, top, flow);
		return;
	case V1_END:
		tt_flow_tracker_end_next(fl, flow, track);
		return;
	}
}

/* Slices begun with a thread timestamp and not ended with one yet, one bit
 * per slice id: the begin's thread ts waits in the slice's own thread_ts
 * (a map of them grew to 12 MB on a Chromium trace); what never gets its
 * end is cleared after the feed. */
typedef tt_proto_bits ttsbits;

static int tts_set(ttsbits *b, int64_t id, int on)
{
	size_t w = (size_t)id / 64;

	if (w >= b->n) {
		size_t old = b->n;

		if (!on)
			return 0;
		if (tt_vec_reserve((void **)&b->v, &b->cap, w + 1, sizeof(*b->v)))
			return -1;
		memset(b->v + old, 0, (w + 1 - old) * sizeof(*b->v));
		b->n = w + 1;
	}
	if (on)
		b->v[w] |= 1ULL << (id % 64);
	else
		b->v[w] &= ~(1ULL << (id % 64));
	return 0;
}

static int tts_get(const ttsbits *b, int64_t id)
{
	size_t w = (size_t)id / 64;

	return w < b->n && (b->v[w] >> (id % 64) & 1);
}

static void tts_clear_unended(pctx *c, ttsbits *b)
{
	for (size_t w = 0; w < b->n; w++)
		for (uint64_t m = b->v[w]; m; m &= m - 1)
			tt_storage_slice_set_thread_time(c->st, (int64_t)(w * 64 + (size_t)__builtin_ctzll(m)),
							 TT_TS_NONE, TT_TS_NONE);
	TT_VEC_FREE(*b);
}

/* The counter record a BEGIN / END took along (REC_FOLDED: utrack ui,
 * its value the record's thread ts), fed as feed() feeds the record it
 * was pushed as (R_COUNTER on TRACK_UUID | ui, the event's F_TE and
 * F_FPOS), without making that record: half the records of a Chromium
 * trace. */
static void feed_folded(pctx *c, const prec *r, uint32_t ui)
{
	const utrack *u = &c->utracks.v[ui];
	uint32_t track;

	if ((r->flags & F_TE) && c->has_roi && r->ts < c->roi_ns) {
		stat(c, TT_STAT_track_event_dropped_packets_outside_of_range_of_interest);
		return;
	}
	c->feed_first_packet = (r->flags & F_FPOS) != 0;
	if (u->track != TT_NONE && u->desc_track == u->track + 1)
		track = u->track;
	else
		track = resolve(c, ui, 0, 0, TT_ASYNC_PEEK);
	if (track == TT_NONE)
		return;
	u = &c->utracks.v[ui]; /* (resolving may add utracks) */
	if (u->kind != UT_COUNTER && u->described) {
		stat(c, TT_STAT_proto_counter_bad_track);
		return;
	}
	tt_storage_counter(c->st, track, r->ts, (double)r->u.i);
}

static void feed(pctx *c, const prec *r, ttsbits *open_tts)
{
	uint32_t track;
	int64_t id = -1;
	prec ft;
	uint32_t folded = REC_FOLDED(r);

	if (r->kind == R_FTRACE) {
		tt_proto_feed_ftrace(c, r);
		return;
	}
	if (r->flags & F_EXT) {
		ft = *r;
		ft.args = tt_proto_ext_args(c, r);
		r = &ft;
	}
	if (c->xlate && (r->flags & F_TE) && r->args != TT_NONE) {
		/* hashes named by translation tables anywhere in the file (as
		 * trace processor names them when it parses, after reading
		 * every table before the sort gives the event out) */
		ft = *r;
		ft.args = tt_proto_translate_set(c, r->args);
		r = &ft;
	}

	if (folded)
		feed_folded(c, r, folded - 1);

	if ((r->flags & F_TE) && c->has_roi && r->ts < c->roi_ns) {
		stat(c, TT_STAT_track_event_dropped_packets_outside_of_range_of_interest);
		return;
	}
	c->feed_first_packet = (r->flags & F_FPOS) != 0;
	if (r->kind == R_META) {
		if (r->u.i == 't')
			tt_process_tracker_thread_name(c->im->procs, r->track, r->name, TT_TN_THREAD_TYPE);
		else
			tt_proto_set_process_name(c, r->track, r->name, PN_TRACK_DESCRIPTOR);
		return;
	}
	track = rec_track(c, r);

	if (track == TT_NONE)
		return;
	if (r->kind == R_FLOW_V1) {
		feed_flow_v1(c, r, track);
		return;
	}
	if (r->kind == R_STATE) {
		tt_proto_feed_state(c, r, track);
		return;
	}
	switch (r->kind) {
	case R_BEGIN:
		id = tt_slice_tracker_begin(c->im->slices, track, r->ts, r->cat, r->name, r->args);
		if (id >= 0 && (r->flags & F_TTS)) {
			if (tts_set(open_tts, id, 1))
				c->oom = 1;
			else
				tt_storage_slice_set_thread_time(c->st, id, r->u.i, TT_TS_NONE);
		}
		break;
	case R_END:
		id = (r->flags & F_QUIET) ? tt_slice_tracker_end_quiet(c->im->slices, track, r->ts, r->cat, r->name, r->args)
					  : tt_slice_tracker_end_match(c->im->slices, track, r->ts, r->cat, r->name, r->args);
		if (id >= 0 && (r->flags & F_TTS) && tts_get(open_tts, id)) {
			uint64_t b = (uint64_t)tt_storage_slice_thread_ts(c->st, id);

			tt_storage_slice_set_thread_time(c->st, id, (int64_t)b, (int64_t)((uint64_t)r->u.i - b));
			tts_set(open_tts, id, 0);
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
		id = tt_storage_counter(c->st, track, r->ts, r->u.d);
		if (r->args != TT_NONE) /* (atrace counters: the writing thread) */
			tt_storage_counter_set_args(c->st, id, r->args);
		return;
	}
	/* (trace processor: the flows waiting on the track come into a slice
	 * as it begins, before the event's own flows) */
	if (r->kind != R_END)
		tt_flow_tracker_slice_begun(c->im->flows, track, id);
	if (id >= 0 && (r->flags & F_FLOWS))
		feed_flows(c, r, id);
	if (id >= 0 && (r->flags & F_CS))
		tt_proto_feed_callstack(c, r, id, track);
}

/* ctx: the pctx (the thread times of open slices are its open_tts; open
 * flows are the import's flow tracker's). */
static int feed_one(void *ctx, const prec *r)
{
	pctx *c = ctx;

	c->fed++; /* (counted first: to_trace asks whether any was given out) */
	feed(c, r, &c->open_tts);
	if ((c->fed & 0xffff) == 0 && tt_import_cancelled(c->im))
		return 1;
	return 0;
}

/* The merge (sorter.h) runs on a thread of its own while the importing
 * thread feeds the trackers (feed() is about as costly as the merge, and
 * the trackers and storage stay on one thread). The merge thread copies
 * records in order into a ring of chunks handed over through a tt_workq
 * (the merge thread claims and fills a chunk, the importing thread takes
 * them in order): the feeding thread then reads them in sequence instead
 * of chasing the sequences' blocks. */
#define MCHUNK 2048
/* The importing thread waits for the first chunk of each flush: a short
 * one starts it sooner (on the Chromium class its waits at the 11 flushes
 * went from 4.1 to 2.5 ms in all with 256; 64 gave no more). */
#define MCHUNK_FIRST 256
#define MCHUNKS 4

/* Rows populated ahead a step (tt_storage_ahead_populate): some 14 pages of
 * slices, 5 of counters, a small part of a chunk's feed. */
#define AHEAD_STEP 1024

typedef struct mpipe {
	/* set before the merge thread starts */
	tt_sorter *sorter;
	tt_workq *q;
	prec *chunk[MCHUNKS];
	uint64_t limit;          /* tt_sorter_flush_until's ord, past 32 bits: finish */
	tt_storage_ahead ahead[3]; /* the slices, counters and args rows that will come */
	uint64_t expect;         /* records expected in all */
	_Atomic uint64_t taken;  /* chunks the feeding thread has taken */
	/* the merge thread's, most written for every record: on cache lines
	 * of their own, apart from what the feeding thread reads (sharing
	 * one made each of its reads of chunk[] wait for the line) */
	_Alignas(64) size_t fill[MCHUNKS];
	uint64_t seq;            /* the chunk being filled, when have */
	int have;
	uint64_t put;            /* records merged so far */
	size_t ahead_at[3];      /* populated up to */
	int merge_rc;            /* read after the join */
} mpipe;

/* One step of populating the rows ahead, of the first `tables` of the
 * slices, counters and args; 0 when none is left. It keeps
 * about the pipe's records ahead of the merge (the feed is behind it):
 * pages populated long before the feed writes them would only be
 * resident sooner. A step is some 14 pages of slices and 5 of counters
 * and 3 of args (25-45 us), against the feed's 170 us or so a chunk. */
static int populate_step(mpipe *p, int tables)
{
	uint64_t recs = p->put + (uint64_t)MCHUNKS * MCHUNK;
	int did = 0;

	for (int i = 0; i < tables; i++) {
		const tt_storage_ahead *a = &p->ahead[i];
		size_t upto = recs >= p->expect ? a->to : a->from + (size_t)((a->to - a->from) * recs / p->expect);

		if (p->ahead_at[i] < upto) {
			tt_storage_ahead_populate(a, p->ahead_at[i], p->ahead_at[i] + AHEAD_STEP);
			p->ahead_at[i] += AHEAD_STEP;
			did = 1;
		}
	}
	return did;
}

static int pipe_put(void *ctx, const prec *r)
{
	mpipe *p = ctx;
	size_t k;

	if (!p->have) {
		/* When the feeding side holds every chunk, this thread would
		 * wait: it populates the rows the feed will append instead,
		 * a step at a time. */
		int w;

		while ((w = tt_workq_work(p->q, 0, -1, &p->seq)) == TT_WQ_NONE && populate_step(p, 3))
			;
		if (w == TT_WQ_NONE)
			w = tt_workq_work(p->q, TT_WQ_WAIT, -1, &p->seq);
		/* END: the feeding side stopped (cancel) */
		if (w != TT_WQ_CLAIMED)
			return 1;
		p->have = 1;
		p->fill[p->seq % MCHUNKS] = 0;
	}
	k = p->seq % MCHUNKS;
	p->chunk[k][p->fill[k]++] = *r;
	p->put++;
	if (p->fill[k] == (p->seq ? MCHUNK : MCHUNK_FIRST)) {
		tt_workq_done(p->q, p->seq, 0);
		p->have = 0;
		/* and, while the feed has a chunk waiting besides the one it
		 * feeds (this thread is ahead), the slices and counters up to
		 * where this chunk's records take them, so that they stay
		 * ahead of the feed when the pipe never fills (about 20 pages
		 * a chunk on a Chromium trace; the args rows, mostly for the
		 * tokenizing after the flush, only when this thread would
		 * wait). When the feed waits for this thread (a trace of
		 * plain slices), it does not. */
		if (p->seq + 1 - atomic_load_explicit(&p->taken, memory_order_relaxed) >= 2)
			while (populate_step(p, 2))
				;
	}
	return 0;
}

static void *merge_thread(void *arg)
{
	mpipe *p = arg;
	int rc = p->limit > UINT32_MAX ? tt_sorter_finish(p->sorter, pipe_put, p) :
		 tt_sorter_flush_until(p->sorter, (uint32_t)p->limit, pipe_put, p);

	if (p->have) {
		tt_workq_done(p->q, p->seq, 0);
		p->have = 0;
	}
	p->merge_rc = rc;
	tt_workq_close(p->q);
	return NULL;
}

/* Feeds the merged records from the merge thread. Returns 0, 1 when the
 * thread could not be set up (nothing fed then), -1 when out of memory. */
static int feed_piped(pctx *c, uint64_t limit)
{
	mpipe p;
	size_t i;
	int rc = 1;

	memset(&p, 0, sizeof(p));
	p.sorter = c->sorter;
	p.limit = limit;
	/* room for twice the rows expected, populated up to them: the
	 * columns do not move under the merge thread's populate */
	if (tt_storage_slices_ahead(c->st, 2 * c->ahead_rows[0], &p.ahead[0]) ||
	    tt_storage_counters_ahead(c->st, 2 * c->ahead_rows[1], &p.ahead[1]) ||
	    tt_storage_args_ahead(c->st, 2 * c->ahead_rows[2], &p.ahead[2]))
		return -1;
	for (i = 0; i < 3; i++) {
		p.ahead[i].to -= c->ahead_rows[i];
		p.ahead_at[i] = p.ahead[i].from;
	}
	p.expect = c->ahead_recs ? c->ahead_recs : 1;
	for (i = 0; i < MCHUNKS; i++)
		if (!(p.chunk[i] = malloc(MCHUNK * sizeof(prec))))
			goto out;
	if (!(p.q = tt_workq_new(MCHUNKS, 1, 0)) || tt_workq_start(p.q, merge_thread, &p))
		goto out;
	rc = 0;
	for (;;) {
		uint64_t seq;
		size_t k, n;
		const prec *ch;
		int stop = 0;

		if (tt_workq_next(p.q, TT_WQ_WAIT, -1, &seq) != TT_WQ_TAKEN)
			break;
		atomic_store_explicit(&p.taken, seq + 1, memory_order_relaxed);
		k = seq % MCHUNKS;
		n = p.fill[k];
		ch = p.chunk[k];
		for (i = 0; i < n && !stop; i++) {
			if (i + 4 < n)
				prefetch_utrack(c, &ch[i + 4]);
			stop = feed_one(c, &ch[i]);
		}
		tt_workq_release(p.q, seq);
		if (stop) {
			tt_workq_cancel(p.q); /* the merge thread's claim ends */
			break;
		}
	}
	tt_workq_join(p.q);
	if (p.merge_rc < 0)
		rc = -1;
out:
	tt_workq_free(p.q);
	for (i = 0; i < MCHUNKS; i++)
		free(p.chunk[i]);
	return rc;
}

/* Gives out what the sorter holds in order, up to limit (an ord, see
 * tt_sorter_flush_until; past 32 bits: everything). */
static int feed_until(pctx *c, uint64_t limit)
{
	int rc = 1;

	if (c->threaded)
		rc = feed_piped(c, limit);
	if (rc > 0) {
		rc = limit > UINT32_MAX ? tt_sorter_finish(c->sorter, feed_one, c) :
		     tt_sorter_flush_until(c->sorter, (uint32_t)limit, feed_one, c);
		rc = rc < 0 ? -1 : 0;
	}
	return rc;
}

/* A read_tracing_buffers_completed service event: trace processor's
 * TraceSorter::NotifyReadBufferEvent. Unless the sorter is in full sort,
 * once all_data_sources_flushed came twice since the last extraction, the
 * records pushed before the previous extraction point are given out in
 * order (up to the first, in order, pushed after it), and this point is
 * the next one. Everything else is held to the end of the file. */
int tt_proto_read_buffers(pctx *c)
{
	int64_t s0, k0;
	uint64_t f0;
	size_t a0;
	int rc;

	if (c->full_sort || c->flushes < 2)
		return 0;
	/* The most resident is reached at the end (storage nearly whole, the
	 * last records still held). Up to 7/8 of the file, the sorter keeps
	 * all the full blocks this flush empties for the pushes after it,
	 * which would fault in as many again; past it, 8. On the Chromium
	 * class: 2.7k fewer page faults, and the most resident 0.8 MB
	 * lower than with 32 all along. (Not knowing the size: 8.) */
	tt_sorter_pool(c->sorter, c->file_size && c->file_off < c->file_size / 8 * 7 ? SIZE_MAX : 8);
	/* about as many rows as the last flush appended will come (the
	 * flushes of a trace written by the tracing service are periodic) */
	s0 = tt_storage_slice_count(c->st);
	k0 = tt_storage_counter_count(c->st);
	f0 = c->fed;
	/* args rows: those of the flush's merges and of the tokenizing up
	 * to the next flush, about those since the last flush began */
	a0 = tt_storage_args_rows(c->st);
	c->ahead_rows[2] = c->args_at_flush ? a0 - c->args_at_flush : 0;
	c->args_at_flush = a0;
	rc = feed_until(c, c->extract_ord);
	c->ahead_rows[0] = (size_t)(tt_storage_slice_count(c->st) - s0);
	c->ahead_rows[1] = (size_t)(tt_storage_counter_count(c->st) - k0);
	c->ahead_recs = c->fed - f0;
	c->extract_ord = tt_sorter_next_ord(c->sorter);
	c->flushes = 0;
	return rc;
}

int tt_proto_merge_and_feed(pctx *c)
{
	uint64_t held = tt_sorter_held(c->sorter);
	int rc;

	/* The last feed gives out every record held: its rows are
	 * estimated by the last flush's rows per record, nine tenths of
	 * that (pages populated for rows that do not come would stay
	 * resident). */
	for (int i = 0; i < 2; i++)
		c->ahead_rows[i] = c->ahead_recs ? (size_t)((double)c->ahead_rows[i] * 0.9 * (double)held /
							    (double)c->ahead_recs) : 0;
	c->ahead_rows[2] = 0; /* (no tokenizing follows) */
	c->ahead_recs = held;
	rc = feed_until(c, UINT64_MAX);

	if (tt_sorter_late(c->sorter))
		tt_storage_stat_add(c->st, TT_STAT_sorter_push_event_out_of_order,
				    (int64_t)tt_sorter_late(c->sorter));
	tt_sorter_free(c->sorter);
	c->sorter = NULL;
	tts_clear_unended(c, &c->open_tts);
	tt_memory_tracker_finish(c->memory);
	tt_proto_cpu_uid_finish(c);
	return rc < 0 ? -1 : 0;
}
