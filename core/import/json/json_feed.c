/* json_feed.c - see import_json.c for the importer as a whole. */
#include "json_int.h"

/* ---- feeding the trackers ------------------------------------------------------------ */

/* Flow keys (flow_tracker.h): v1 (1, category << 32 | name, id), v2 (2, id, 0). */
struct feed {
	struct json *j;
	size_t tt_next;    /* cursor into j->ttimes (sorted by seq) */
	/* names compared or given per event, interned once */
	tt_str s_running, s_global_instants;
};

/* Perfetto: an id2.local id is scoped to the event's process, a plain id or
 * an id2.global one to the trace; the cookie is (category, id). */
static uint32_t async_track(struct feed *f, const tt_event *r, enum tt_async_kind kind)
{
	tt_storage *st = f->j->st;
	uint32_t upid = (r->flags & EV_ID_LOCAL) ? tt_storage_thread_upid(st, r->track) : TT_NONE;
	uint64_t cookie = r->id * 0x9e3779b97f4a7c15ULL ^ r->cat;
	uint32_t track = tt_async_track(f->j->im->async, upid, 0, cookie, r->name, kind);

	if (track == TT_NONE)
		f->j->oom = 1;
	return track;
}

/* trace processor's tracks carry the args of their blueprint: the
 * dimensions (when the track is made) and, for Chrome's legacy instant
 * tracks, the source. */
static void track_dims(struct json *j, uint32_t track, uint32_t upid, uint32_t utid, tt_str name)
{
	if (track == TT_NONE || (upid == TT_NONE && utid == TT_NONE && !name))
		return;
	tt_storage_args_begin(j->st);
	if (upid != TT_NONE)
		tt_storage_args_uint(j->st, "upid", upid);
	if (utid != TT_NONE)
		tt_storage_args_uint(j->st, "utid", utid);
	if (name) {
		const char *n = tt_storage_str(j->st, name);

		tt_storage_args_str(j->st, "name", n, n ? strlen(n) : 0);
	}
	tt_storage_track_set_dimension_args(j->st, track, tt_args_tracker_end(j->im->args));
}

static void chrome_source(struct json *j, uint32_t track)
{
	if (track == TT_NONE)
		return;
	tt_storage_args_begin(j->st);
	tt_storage_args_str(j->st, "source", "chrome", 6);
	tt_storage_track_set_source_args(j->st, track, tt_args_tracker_end(j->im->args));
}

/* Instants by scope, on trace processor's blueprints: 'g' one global
 * track (legacy_chrome_global_instants), 'p' one per process
 * (chrome_process_instant, no name of its own), else the thread's. */
static uint32_t instant_track(struct feed *f, const tt_event *r)
{
	tt_storage *st = f->j->st;
	tt_track_desc d = { .type = "legacy_chrome_global_instants", .utid = TT_NONE, .upid = TT_NONE,
			    .parent_id = TT_NONE, .cpu = -1 };
	/* tracks from here on are new: their args are written once */
	uint32_t t, made = tt_storage_track_count(st);

	if (r->scope == 'g') {
		d.name = f->s_global_instants;
		t = tt_track_tracker_keyed(f->j->im->tracks, "json-instant", TT_NONE, 0, 0, &d);
		if (t >= made)
			chrome_source(f->j, t);
		return t;
	}
	if (r->scope == 'p') {
		d.type = "chrome_process_instant";
		d.upid = tt_storage_thread_upid(st, r->track);
		d.name = 0;
		t = tt_track_tracker_keyed(f->j->im->tracks, "json-instant", d.upid, 1, 0, &d);
		if (t >= made) {
			track_dims(f->j, t, d.upid, TT_NONE, 0);
			chrome_source(f->j, t);
		}
		return t;
	}
	return tt_track_tracker_thread(f->j->im->tracks, r->track);
}

/* A C event's series: json_counter (process, name), or where the thread
 * has no process, json_counter_thread_fallback (thread, name). */
static uint32_t counter_track(struct json *j, const tt_event *r)
{
	tt_storage *st = j->st;
	uint32_t upid = tt_storage_thread_upid(st, r->track);
	uint32_t utid = upid == TT_NONE ? r->track : TT_NONE;
	tt_track_desc d = { .type = upid != TT_NONE ? "json_counter" : "json_counter_thread_fallback",
			    .name = r->name, .utid = utid, .upid = upid,
			    .parent_id = TT_NONE, .is_counter = 1, .cpu = -1 };
	uint32_t made = tt_storage_track_count(st);
	uint32_t t = tt_track_tracker_keyed(j->im->tracks, "json-counter", upid != TT_NONE ? upid : (uint64_t)utid << 32,
					    r->name, 0, &d);

	if (t >= made) /* a new series: its dimensions, once */
		track_dims(j, t, upid, utid, r->name);
	return t;
}

/* trace processor's v2 flow of an event that may start a slice (B, X, b,
 * n): bind_id with flow_out starts the flow, with flow_in ends it there,
 * with both steps it on; on the topmost slice of track (the event's own
 * when it made one). */
static void flow_v2(struct feed *f, const tt_event *r, uint32_t track, int64_t slice, uint64_t flow_id)
{
	tt_flow_tracker *fl = f->j->im->flows;
	int in = r->flags & EV_FLOW_IN, out = r->flags & EV_FLOW_OUT;

	if (!in && !out)
		return;
	if (slice < 0)
		slice = tt_slice_tracker_top(f->j->im->slices, track);
	if (in && out)
		tt_flow_tracker_step(fl, slice, flow_id);
	else if (out)
		tt_flow_tracker_begin(fl, slice, flow_id);
	else
		tt_flow_tracker_end(fl, slice, flow_id);
}

/* A slice began on track (id, or -1 when none was made): the flows
 * waiting there come into it, then the event's own v2 flow. */
static void slice_started(struct feed *f, const tt_event *r, uint32_t track, int64_t id,
			  uint64_t flow_id)
{
	if (id >= 0)
		tt_flow_tracker_slice_begun(f->j->im->flows, track, id);
	flow_v2(f, r, track, id, flow_id);
}

/* A v1 flow event (s, t, f) on its thread's topmost slice. */
static void flow_v1(struct feed *f, const tt_event *r, uint32_t track)
{
	struct json *j = f->j;
	tt_flow_tracker *fl = j->im->flows;
	uint64_t flow = tt_flow_tracker_v1(fl, j->im->args, r->id, r->cat, r->name);

	if (r->kind == 'f' && !(r->flags & EV_BP_E)) {
		tt_flow_tracker_end_next(fl, flow, track);
		return;
	}
	if (r->kind == 's')
		tt_flow_tracker_begin(fl, tt_slice_tracker_top(j->im->slices, track), flow);
	else if (r->kind == 't')
		tt_flow_tracker_step(fl, tt_slice_tracker_top(j->im->slices, track), flow);
	else
		tt_flow_tracker_end(fl, tt_slice_tracker_top(j->im->slices, track), flow);
}

/* The thread of a record's key (struct tkey), made now: trace processor
 * makes an event's thread when its parser sees the event. A pid or tid
 * given as a name names its process or thread at every event, as
 * there. */
static uint32_t thread_of(struct feed *f, uint32_t key)
{
	struct json *j = f->j;
	tt_storage *st = j->st;
	struct tkey *k = &j->tkeys.v[key];
	uint32_t utid = k->utid;

	if (utid == TT_NONE) {
		/* (a key's thread stays its thread: JSON never moves one) */
		if (k->pidname && tt_process_tracker_process(j->im->procs, k->pid) == TT_NONE)
			return TT_NONE;
		utid = tt_process_tracker_thread(j->im->procs, k->pid, k->tid);
		k->utid = utid;
		if (utid == TT_NONE)
			return TT_NONE;
	}
	if (k->pidname | k->tidname) {
		uint32_t upid = tt_storage_thread_upid(st, utid);

		if (k->pidname && upid != TT_NONE && tt_storage_process_name(st, upid) != k->pidname)
			tt_storage_process_set_name(st, upid, k->pidname);
		if (k->tidname && tt_storage_thread_name(st, utid) != k->tidname)
			tt_process_tracker_thread_name(j->im->procs, utid, k->tidname, TT_TN_OTHER);
	}
	return utid;
}

/* A metadata record (json_event.c): names and sort indexes. */
static void metadata(struct feed *f, const tt_event *r, uint32_t utid)
{
	tt_storage *st = f->j->st;
	uint32_t upid;

	if (!r->id)
		return;
	switch (r->scope) {
	case 'p': case 'P':
		upid = tt_process_tracker_process(f->j->im->procs, f->j->tkeys.v[r->track].pid);
		if (upid == TT_NONE)
			break;
		if (r->scope == 'p')
			tt_storage_process_set_name(st, upid, r->name);
		else
			tt_storage_process_set_sort_index(st, upid, r->u.i);
		break;
	case 't': /* (a thread ftrace named keeps that name: systemTraceEvents) */
		tt_process_tracker_thread_name(f->j->im->procs, utid, r->name, TT_TN_OTHER);
		break;
	case 'T':
		tt_storage_thread_set_sort_index(st, utid, r->u.i);
		break;
	}
}

static const struct thread_time *thread_time_of(struct feed *f, uint32_t seq)
{
	const struct json *j = f->j;
	size_t lo = 0, hi = j->ttimes.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (j->ttimes.v[mid].seq < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < j->ttimes.n && j->ttimes.v[lo].seq == seq ? &j->ttimes.v[lo] : NULL;
}

/* The import log trace processor writes for a spilled X event: the event,
 * the slice it overlaps and the shared range [ts, that slice's end). */
static void log_overlap(tt_args_tracker *args, tt_storage *st, const tt_event *r, int64_t other)
{
	int64_t ots = tt_storage_slice_ts(st, other), odur = tt_storage_slice_dur(st, other);
	const char *on = tt_storage_str(st, tt_storage_slice_name(st, other));
	const char *n = tt_storage_str(st, r->name);

	tt_storage_args_begin(st);
	tt_storage_args_str(st, "event_name", n ? n : "", n ? strlen(n) : 0);
	tt_storage_args_str(st, "event_phase", "X", 1);
	tt_storage_args_int(st, "overlap_start", r->ts);
	tt_storage_args_int(st, "overlap_end", ots + odur);
	if (on)
		tt_storage_args_str(st, "conflicting_slice_name", on, strlen(on));
	tt_storage_args_int(st, "conflicting_slice_ts", ots);
	tt_storage_args_int(st, "conflicting_slice_dur", odur);
	tt_storage_import_log(st, TT_STAT_slice_spill_overlapping_complete_event, r->ts, tt_args_tracker_end(args));
}

static void feed_one(struct feed *f, const tt_event *rec)
{
	struct json *j = f->j;
	tt_storage *st = j->st;
	tt_slice_tracker *sl = j->im->slices;
	const struct thread_time *tt = j->ttimes.n ? thread_time_of(f, rec->ord) : NULL;
	tt_event ev = *rec; /* track: the thread's utid from here on */
	const tt_event *r = &ev;
	uint32_t track;
	int64_t id;

	if (rec->kind == REC_SYSTRACE) {
		if (tt_json_systrace_feed(j, rec))
			j->oom = 1;
		return;
	}
	ev.track = thread_of(f, rec->track);
	if (ev.track == TT_NONE) {
		j->oom = 1;
		return;
	}
	switch (r->kind) {
	case 'M':
		metadata(f, rec, ev.track);
		break;
	case 'B':
		track = tt_track_tracker_thread(j->im->tracks, r->track);
		id = tt_slice_tracker_begin(sl, track, r->ts, r->cat, r->name, r->args);
		if (id >= 0 && tt && tt->tts != TT_TS_NONE)
			tt_storage_slice_set_thread_time(st, id, tt->tts, TT_TS_NONE);
		slice_started(f, r, track, id, r->id);
		break;
	case 'E':
		track = tt_track_tracker_thread(j->im->tracks, r->track);
		/* trace processor closes the innermost open slice whose
		 * category (when E has one) and name (when both have one)
		 * match; an E matching none leaves the stack as it is. */
		id = tt_slice_tracker_end_match(sl, track, r->ts, r->cat, r->name, r->args);
		if (id >= 0 && tt && tt->tts != TT_TS_NONE) {
			int64_t tts = tt_storage_slice_thread_ts(st, id);

			if (tts != TT_TS_NONE)
				tt_storage_slice_set_thread_time(st, id, tts, tt->tts - tts);
		}
		break;
	case 'X':
		track = tt_track_tracker_thread(j->im->tracks, r->track);
		if (r->u.i < 0) {
			/* trace processor: no slice, logged; its flows bind to
			 * the thread's topmost slice all the same */
			tt_storage_stat_add(st, TT_STAT_slice_negative_duration, 1);
			tt_storage_import_log(st, TT_STAT_slice_negative_duration, r->ts, TT_NONE);
			flow_v2(f, r, track, -1, r->id);
			break;
		}
		if ((id = tt_slice_tracker_overlapping(sl, track, r->ts, r->u.i)) >= 0) {
			/* trace processor spills it onto an overflow track */
			tt_storage_stat_add(st, TT_STAT_slice_spill_overlapping_complete_event, 1);
			log_overlap(j->im->args, st, r, id);
			track = tt_async_overlap_track(j->im->async, r->track, r->ts, r->u.i);
			if (track == TT_NONE) {
				j->oom = 1;
				break;
			}
		}
		id = tt_slice_tracker_complete(sl, track, r->ts, r->u.i, r->cat, r->name, r->args);
		if (id >= 0 && tt)
			tt_storage_slice_set_thread_time(st, id, tt->tts, tt->tdur);
		slice_started(f, r, track, id, r->id);
		break;
	case 'i': case 'I': case 'R':
		track = instant_track(f, r);
		id = tt_slice_tracker_complete(sl, track, r->ts, 0, r->cat, r->name, r->args);
		/* (a thread's instant keeps its thread time, as there) */
		if (id >= 0 && tt && tt->tts != TT_TS_NONE && r->scope != 'g' && r->scope != 'p')
			tt_storage_slice_set_thread_time(st, id, tt->tts, TT_TS_NONE);
		if (id >= 0)
			tt_flow_tracker_slice_begun(j->im->flows, track, id);
		break;
	case 'C':
		track = counter_track(j, r);
		tt_storage_counter(st, track, r->ts, r->u.d);
		break;
	case 'b':
		track = async_track(f, r, TT_ASYNC_BEGIN);
		if (track == TT_NONE)
			break;
		id = tt_slice_tracker_begin(sl, track, r->ts, r->cat, r->name, r->args);
		slice_started(f, r, track, id, (uint64_t)r->u.i); /* (u.i: its bind_id) */
		break;
	case 'e':
		track = async_track(f, r, TT_ASYNC_END);
		if (track == TT_NONE)
			break;
		if (tt_slice_tracker_enclosing(sl, track, r->ts) < 0)
			tt_storage_stat_add(st, TT_STAT_async_unmatched, 1);
		else /* trace processor: by category and name; none matching, nothing */
			tt_slice_tracker_end_match(sl, track, r->ts, r->cat, r->name, r->args);
		break;
	case 'T': { /* thread state; Running on a cpu is a sched slice too */
		int64_t row = tt_storage_thread_state(st, r->ts, r->u.i, -1, r->track, r->name);

		tt_storage_thread_state_blocked(st, row, r->scope == 'w' ? (int64_t)r->args : TT_TS_NONE, r->cat);
		if (r->id != UINT64_MAX && r->name == f->s_running) {
			tt_storage_cpu(st, (int64_t)r->id);
			tt_storage_sched(st, r->ts, r->u.i, (int64_t)r->id, r->track, 0, 0);
		}
		break;
	}
	case 'n':
		track = async_track(f, r, TT_ASYNC_INSTANT);
		if (track == TT_NONE)
			break;
		id = tt_slice_tracker_complete(sl, track, r->ts, 0, r->cat, r->name, r->args);
		slice_started(f, r, track, id, (uint64_t)r->u.i);
		break;
	case 's': case 't': case 'f':
		flow_v1(f, r, tt_track_tracker_thread(j->im->tracks, r->track));
		break;
	case REC_THREAD_TRACK:
		tt_track_tracker_thread(j->im->tracks, r->track);
		break;
	default: /* REC_THREAD_ONLY: the thread alone */
		break;
	}
}

/* Longer first; in file order when equally long. */
static int cmp_x_dur(const void *a, const void *b)
{
	const tt_event *x = a, *y = b;

	if (x->u.i != y->u.i)
		return x->u.i > y->u.i ? -1 : 1;
	return x->ord < y->ord ? -1 : x->ord > y->ord;
}

/* Records of one timestamp, as the sorter emits them: among their X
 * events the longer goes first, in the places the X events hold (a total
 * order, so parents precede their children without disturbing B/E
 * pairs). A file in order whose X events of one thread and ts come
 * longest first is fed as it is. */
struct group {
	struct feed *f;
	TT_VEC(tt_event) v;
	TT_VEC(tt_event) x;
	uint64_t fed;
	int oom;
};

static int group_flush(struct group *g)
{
	size_t nx = 0, k = 0;
	int64_t prev = INT64_MAX;
	int ordered = 1;

	for (size_t i = 0; i < g->v.n; i++)
		if (g->v.v[i].kind == 'X') {
			nx++;
			ordered &= g->v.v[i].u.i <= prev;
			prev = g->v.v[i].u.i;
		}
	if (nx > 1 && !ordered && g->f->j->recs_unsorted) {
		g->x.n = 0;
		for (size_t i = 0; i < g->v.n; i++)
			if (g->v.v[i].kind == 'X' && TT_VEC_PUSH(g->x, g->v.v[i])) {
				g->oom = 1;
				return -1;
			}
		qsort(g->x.v, g->x.n, sizeof(*g->x.v), cmp_x_dur);
		for (size_t i = 0; i < g->v.n; i++)
			if (g->v.v[i].kind == 'X')
				g->v.v[i] = g->x.v[k++];
	}
	for (size_t i = 0; i < g->v.n; i++)
		feed_one(g->f, &g->v.v[i]);
	g->fed += g->v.n;
	g->v.n = 0;
	return 0;
}

static int group_put(void *ctx, const tt_event *r)
{
	struct group *g = ctx;

	if (g->v.n && g->v.v[0].ts != r->ts) {
		uint64_t before = g->fed;

		if (group_flush(g))
			return -1;
		if ((before >> 16) != (g->fed >> 16) && tt_import_cancelled(g->f->j->im))
			return 1;
	}
	if (TT_VEC_PUSH(g->v, *r)) {
		g->oom = 1;
		return -1;
	}
	return 0;
}

int tt_json_feed_all(struct json *j)
{
	struct feed f = { .j = j };
	struct group g = { .f = &f };
	int rc;

	f.s_running = tt_storage_intern_cstr(j->st, "Running");
	f.s_global_instants = tt_storage_intern_cstr(j->st, "Legacy Global Instants");
	/* (merging on a thread of its own, the records handed over in
	 * chunks, was tried: the feed took longer, the merge thread being
	 * the slower side, its block unmaps costing more with two threads) */
	rc = tt_sorter_finish(j->sorter, group_put, &g);
	if (rc == 0)
		rc = group_flush(&g);
	TT_VEC_FREE(g.v);
	TT_VEC_FREE(g.x);
	return rc < 0 || g.oom || j->oom || tt_storage_oom(j->st) ? -1 : 0;
}
