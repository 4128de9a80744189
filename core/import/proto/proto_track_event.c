/*
 * proto_track_event.c - TrackEvent tokenizing: names and categories from
 * interning, counters, flows, legacy events and their async tracks, each
 * event a record on its sequence. See import_proto.c.
 */
#include "proto_int.h"

/* ---- track events ------------------------------------------------------------ */

static tt_str lookup(pctx *c, const itab *t, uint64_t iid)
{
	tt_str v;

	if (!tt_proto_itab_find(t, iid, &v)) {
		stat(c, TT_STAT_proto_interned_missing);
		return 0;
	}
	return v;
}

static tt_str event_category(pctx *c, pseq *s, const TEv *te)
{
	size_t i, len = 0, n = te->n_category_iids + te->n_categories;
	tt_str part[PCTX_CAT_PARTS], v;
	struct cat_hit *h = NULL;

	if (n == 0)
		return 0;
	if (n == 1 && te->n_category_iids == 1)
		return lookup(c, &s->cats, te->category_iids[0]);
	if (n == 1)
		return intern_c(c, te->categories[0]);
	/* several, joined by ",": events repeat their lists, so a list of
	 * interned parts keeps its joined text in a small cache (the parts
	 * are looked up each time: a missing one is counted each time) */
	if (n <= PCTX_CAT_PARTS && !te->n_categories) {
		uint64_t k = n;

		for (i = 0; i < n; i++) {
			part[i] = lookup(c, &s->cats, te->category_iids[i]);
			k = (k ^ part[i]) * 0x9e3779b97f4a7c15ULL;
		}
		h = &c->cat_hits[(k >> 40) % PCTX_CAT_HITS];
		if (h->v && h->n == n && !memcmp(h->part, part, n * sizeof(*part)))
			return h->v;
	}
	for (i = 0; i < n; i++) {
		const char *p;
		size_t pl;
		if (h)
			p = tt_storage_str(c->st, part[i]);
		else if (i < te->n_category_iids)
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
	v = intern(c, c->catbuf, len);
	if (h && v) {
		h->n = n;
		memcpy(h->part, part, n * sizeof(*part));
		h->v = v;
	}
	return v;
}

/* Applies unit multiplier and incremental state of a counter track. */
static double counter_value(pctx *c, pseq *s, uint32_t ui, double v)
{
	utrack *u = &c->utracks.v[ui];

	v *= (double)u->mult;
	if (u->incremental) {
		uint64_t *p = s->cnt_val && s->cnt_uuid == u->uuid ? s->cnt_val : tt_pmap_find(&s->counters, u->uuid);
		double last = 0;
		uint64_t bits;

		if (p)
			memcpy(&last, p, sizeof(last));
		v += last;
		memcpy(&bits, &v, sizeof(bits));
		if (p) {
			*p = bits;
		} else {
			/* (a put may move every value: the pointer is found again) */
			if (tt_pmap_put(&s->counters, u->uuid, bits))
				c->oom = 1;
			p = tt_pmap_find(&s->counters, u->uuid);
		}
		s->cnt_uuid = u->uuid;
		s->cnt_val = p;
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
		uint32_t ui = tt_proto_get_utrack(c, uu[i]);
		double v;
		if (ui == TT_NONE)
			return 0;
		v = counter_value(c, s, ui, (double)te->extra_counter_values[i]);
		if (c->utracks.v[ui].counter_type == 1) {
			*has_tts = 1;
			tts = (int64_t)v;
		}
		/* a lone thread time counter may ride on the event's record */
		if (nu == 1 && !te->n_extra_double_counter_values && c->utracks.v[ui].counter_type == 1)
			tt_proto_push_counter_folding(c, s, ts, ui, v);
		else
			tt_proto_push_rec(c, s, ts, R_COUNTER, 0, TRACK_UUID | ui, 0, 0, TT_NONE, 0, v);
	}
	uu = te->n_extra_double_counter_track_uuids ? te->extra_double_counter_track_uuids : s->def_extra_dbl.v;
	nu = te->n_extra_double_counter_track_uuids ? te->n_extra_double_counter_track_uuids : s->def_extra_dbl.n;
	for (i = 0; i < te->n_extra_double_counter_values && i < nu; i++) {
		uint32_t ui = tt_proto_get_utrack(c, uu[i]);
		if (ui == TT_NONE)
			return 0;
		tt_proto_push_rec(c, s, ts, R_COUNTER, 0, TRACK_UUID | ui, 0, 0, TT_NONE, 0,
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

/* Records the flows of the event about to get file order c->ord, as
 * trace processor reads them: the bind_id of a legacy event (a direction
 * not in, out or inout: FL_NODIR, counted), flow_ids (or, without them,
 * flow_ids_old), terminating_flow_ids (or the old ones). */
static int event_flows(pctx *c, const TEv *te)
{
	const LEv *le = te->legacy_event;
	size_t n0 = c->flows.n, i;
	uint32_t ord = c->ord;

	if (le && le->has_bind_id) {
		int k = !le->has_flow_direction ? FL_NODIR : le->flow_direction == 1 ? FL_IN :
			le->flow_direction == 2 ? FL_OUT : le->flow_direction == 3 ? FL_INOUT : FL_NODIR;
		push_flow(c, ord, k, le->bind_id);
	}
	if (te->n_flow_ids)
		for (i = 0; i < te->n_flow_ids; i++)
			push_flow(c, ord, FL_STEP, te->flow_ids[i]);
	else
		for (i = 0; i < te->n_flow_ids_old; i++)
			push_flow(c, ord, FL_STEP, te->flow_ids_old[i]);
	if (te->n_terminating_flow_ids)
		for (i = 0; i < te->n_terminating_flow_ids; i++)
			push_flow(c, ord, FL_TERM, te->terminating_flow_ids[i]);
	else
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
	uint32_t upid = track_upid(c, track), src_upid = upid, ai;
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
		akey k = { upid, scope, name, id, src_upid };

		ai = (uint32_t)c->akeys.n;
		if (ai >= TRACK_ASYNC || TT_VEC_PUSH(c->akeys, k) ||
		    tt_keymap_put(&c->akey_index, upid, scope, id, name, ai)) {
			c->oom = 1;
			return TT_NONE;
		}
	}
	return TRACK_ASYNC | ai;
}

/* The record track of utid's legacy thread time (kind 1) or instruction
 * count (2) counter: a utrack of no uuid, made into a track when the
 * sorted records are fed (proto_feed.c), in the order trace processor
 * makes them. */
static uint32_t legacy_counter_utrack(pctx *c, uint32_t utid, int kind)
{
	uint64_t key = (uint64_t)utid << 2 | (uint64_t)kind, *v = tt_pmap_find(&c->legacy_counters, key);
	utrack z = {0};

	if (v)
		return TRACK_UUID | (uint32_t)*v;
	z.track = TT_NONE;
	z.utid = utid;
	z.upid = tt_storage_thread_upid(c->st, utid);
	z.scope_utid = z.scope_upid = TT_NONE;
	z.kind = UT_COUNTER;
	z.described = 1;
	z.legacy_counter = kind;
	z.mult = 1;
	if (c->utracks.n >= TRACK_UUID - 1 || TT_VEC_PUSH(c->utracks, z) ||
	    tt_pmap_put(&c->legacy_counters, key, c->utracks.n - 1)) {
		c->oom = 1;
		return TT_NONE;
	}
	return TRACK_UUID | (uint32_t)(c->utracks.n - 1);
}

/* The scope of an event's track (0 thread, 1 process, 2 global): its own
 * kind, else its nearest descriptor ancestor's, with that thread or
 * process. */
static int track_scope(pctx *c, uint32_t track, int legacy_track, uint32_t *utid_out, uint32_t *upid_out)
{
	uint32_t utid = TT_NONE, upid = TT_NONE;
	int scope = 2;

	if (legacy_track && !(track & TRACK_UUID)) {
		utid = tt_storage_track_utid(c->st, track);
		scope = 0;
	} else if (track != TT_NONE && (track & TRACK_UUID)) {
		const utrack *u = &c->utracks.v[track & ~TRACK_UUID];

		for (int depth = 0; u && depth < 32; depth++) {
			const uint64_t *pi;

			if (u->kind == UT_THREAD) {
				utid = u->utid;
				scope = 0;
				break;
			}
			if (u->kind == UT_PROCESS) {
				upid = u->upid;
				scope = 1;
				break;
			}
			pi = u->has_parent ? tt_pmap_find(&c->uuid_index, u->parent) : NULL;
			u = pi ? &c->utracks.v[*pi] : NULL;
		}
	}
	*utid_out = utid;
	*upid_out = upid;
	return scope;
}

/* The thread of an event (a Chrome log message's): its track's, else
 * the sequence's for an event on the sequence's default track. */
static uint32_t event_thread(pctx *c, pseq *s, const TEv *te, uint32_t track, int legacy_track)
{
	uint32_t utid, upid;

	if (track_scope(c, track, legacy_track, &utid, &upid) == 0)
		return utid;
	if (!te->has_track_uuid && s->fallback_track != TT_NONE)
		return tt_process_tracker_thread(c->im->procs, s->thr_pid, s->thr_tid);
	return TT_NONE;
}

/* trace processor's legacy_event.passthrough_utid: the thread a legacy
 * async or scoped instant event came from (its thread track's), or for an
 * event on a process- or global-scoped descriptor track the sequence's
 * thread (of that process). TT_NONE when none. */
static uint32_t passthrough_utid(pctx *c, pseq *s, uint32_t track, int legacy_track, int phase,
				 const LEv *le)
{
	uint32_t utid, upid, thr;
	int scope = track_scope(c, track, legacy_track, &utid, &upid);

	if (phase && (strchr("beSFnTp", phase) ||
		      ((phase == 'I' || phase == 'i') && le && (le->instant_event_scope == 1 ||
								le->instant_event_scope == 2))))
		return scope == 0 ? utid : TT_NONE;
	if (scope == 0 || s->fallback_track == TT_NONE)
		return TT_NONE;
	thr = tt_process_tracker_thread(c->im->procs, s->thr_pid, s->thr_tid);
	if (scope == 1 && tt_storage_thread_upid(c->st, thr) != upid)
		return TT_NONE;
	return thr;
}

static tt_str event_name(pctx *c, pseq *s, const TEv *te, const LEv *le)
{
	if (te->name_field_case == PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME)
		return intern_c(c, te->name);
	if (te->name_field_case == PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME_IID)
		return lookup(c, &s->names, te->name_iid);
	if (le && le->has_name_iid)
		return lookup(c, &s->names, le->name_iid);
	return 0;
}

/* trace processor's proto content analyzer (on in its diff tests and
 * our default): a TrackEvent packet is sampled under the annotation
 * (event.category, event.name); each distinct one becomes a root row of
 * experimental_proto_path with those args (tt_proto_content_flush). */
static void content_note(pctx *c, tt_str cat, tt_str name)
{
	uint64_t k = (uint64_t)cat << 32 | name;
	struct content_hit *h;

	if (c->content.n && c->content.v[c->content_last] == k)
		return;
	/* events of many sequences interleave: a small direct-mapped cache
	 * of the pairs seen before the keymap's hashing */
	h = &c->content_hits[tt_pmap_hash(k) % PCTX_CONTENT_HITS];
	if (h->i1 && h->k == k) {
		c->content_last = h->i1 - 1;
		return;
	}
	c->content_last = tt_keymap_get(&c->content_index, cat, name, 0, 0);
	if (c->content_last == TT_KEYMAP_NONE) {
		c->content_last = (uint32_t)c->content.n;
		if (TT_VEC_PUSH(c->content, k) ||
		    tt_keymap_put(&c->content_index, cat, name, 0, 0, c->content_last)) {
			c->oom = 1;
			return;
		}
	}
	h->k = k;
	h->i1 = c->content_last + 1;
}

void tt_proto_content_flush(pctx *c)
{
	tt_str root = intern_c(c, "TracePacket");

	for (size_t i = 0; i < c->content.n; i++) {
		const char *cat = tt_storage_str(c->st, (tt_str)(c->content.v[i] >> 32));
		const char *name = tt_storage_str(c->st, (tt_str)c->content.v[i]);

		tt_storage_args_begin(c->st);
		tt_storage_args_str(c->st, "event.category", cat, cat ? strlen(cat) : 0);
		tt_storage_args_str(c->st, "event.name", name, name ? strlen(name) : 0);
		if (tt_storage_proto_path(c->st, TT_NONE, root, 0, tt_args_tracker_end(c->im->args)) < 0)
			c->oom = 1;
	}
	/* the other packets: one annotation, no args */
	if (c->content_other && tt_storage_proto_path(c->st, TT_NONE, root, 0, TT_NONE) < 0)
		c->oom = 1;
	TT_VEC_FREE(c->content);
	tt_keymap_free(&c->content_index);
}

/* A legacy instants track's source args, as trace processor gives them
 * when it makes one (source: chrome), set once. */
static void legacy_instant_source(pctx *c, uint32_t track)
{
	if (track == TT_NONE || tt_storage_track_source_args(c->st, track) != TT_NONE)
		return;
	tt_storage_args_begin(c->st);
	tt_storage_args_str(c->st, "source", "chrome", 6);
	tt_storage_track_set_source_args(c->st, track, tt_args_tracker_end(c->im->args));
}

/* A legacy metadata event ('M'), as trace processor's ParseMetadataEvent
 * reads it: "thread_name" names the event's thread (rank THREAD_TYPE),
 * "process_name" its process (as a track descriptor would), each by its
 * first debug annotation's string value; the naming waits for the event's
 * place in trace order (R_META). One without the thread or process, or
 * without annotations, is a parser error; other names are not kept
 * (trace processor keeps them for its JSON export only). */
static void legacy_metadata(pctx *c, pseq *s, const TEv *te, uint32_t track, tt_str name, int64_t ts)
{
	const char *what = name ? tt_storage_str(c->st, name) : "";
	int thread = strcmp(what, "thread_name") == 0, process = strcmp(what, "process_name") == 0;
	uint32_t utid = TT_NONE, upid = TT_NONE;
	tt_proto_arena ar;
	DAnn *a;

	if (!thread && !process) {
		tt_storage_stat_named(c->st, TT_STAT_proto_legacy_unsupported, "legacy metadata event", 1);
		return;
	}
	if (track != TT_NONE && (track & TRACK_UUID)) {
		utid = c->utracks.v[track & ~TRACK_UUID].utid;
		upid = c->utracks.v[track & ~TRACK_UUID].upid;
	} else if (track != TT_NONE && !(track & TRACK_ASYNC)) {
		utid = tt_storage_track_utid(c->st, track);
		upid = tt_storage_track_upid(c->st, track);
	}
	if (upid == TT_NONE && utid != TT_NONE)
		upid = tt_storage_thread_upid(c->st, utid);
	if ((thread ? utid : upid) == TT_NONE || !te->n_debug_annotations) {
		stat(c, TT_STAT_track_event_parser_errors);
		return;
	}
	/* (protobuf-c recurses without a limit: a hostile annotation nested
	 * too deep is an error, as for any event's annotations) */
	if (tt_proto_annots_deep(tt_proto_packed_annots(te), 1)) {
		stat(c, TT_STAT_track_event_parser_errors);
		return;
	}
	tt_proto_arena_init(&ar);
	a = perfetto__protos__debug_annotation__unpack(&ar.alloc, tt_proto_packed_annots(te)[0].len,
						       tt_proto_packed_annots(te)[0].data);
	if (!a)
		stat(c, TT_STAT_track_event_parser_errors);
	else if (a->value_case == PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE && a->string_value &&
		 a->string_value[0])
		tt_proto_push_rec(c, s, ts, R_META, 0, thread ? utid : upid, intern_c(c, a->string_value), 0, TT_NONE,
				  thread ? 't' : 'p', 0);
	tt_proto_arena_destroy(&ar);
}

void tt_proto_on_track_event(pctx *c, pseq *s, const Pkt *p, const TEv *te, int64_t ts)
{
	const LEv *le = te->legacy_event;
	int phase = le && le->has_phase ? le->phase : 0;
	int type = te->has_type ? te->type : 0;
	uint64_t uuid = te->has_track_uuid ? te->track_uuid : s->has_def_track ? s->def_track : 0;
	uint32_t track, args, ev_track;
	tt_str name = 0, cat;
	int flags = 0, has_tts = 0, legacy_track = 0, main_thread = 0;
	int64_t tts = 0;

	(void)p;
	if (type == 5 && !te->has_track_uuid && !s->has_def_track) { /* STATE */
		stat(c, TT_STAT_track_event_state_missing_track_uuid);
		return;
	}
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

		track = tt_track_tracker_thread(c->im->tracks, tt_process_tracker_thread(c->im->procs, pid, tid));
		if (track == TT_NONE)
			return;
		legacy_track = 1;
	} else if (uuid == 0 && s->fallback_track != TT_NONE && (!te->has_track_uuid || !te->has_type)) {
		track = s->fallback_track;
		/* legacy events go to the thread's own track, which a separate
		 * descriptor track (disallow_merging_with_system_tracks) is not:
		 * made below, once no legacy phase chose another track */
		main_thread = (track & TRACK_UUID) && c->utracks.v[track & ~TRACK_UUID].separate;
		legacy_track = 1;
	} else {
		/* a sequence's events mostly stay on one track */
		if (s->last_utrack == TT_NONE || s->last_uuid != uuid) {
			s->last_utrack = tt_proto_get_utrack(c, uuid);
			s->last_uuid = uuid;
		}
		track = s->last_utrack;
		if (track == TT_NONE)
			return;
		track |= TRACK_UUID;
	}

	ev_track = track;
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
			tt_proto_push_rec(c, s, ts, R_COUNTER, 0, legacy_counter_utrack(c, utid, 1),
				 0, 0, TT_NONE, 0, (double)tts);
		}
		if (utid != TT_NONE && te->thread_instruction_count_case !=
					       PERFETTO__PROTOS__TRACK_EVENT__THREAD_INSTRUCTION_COUNT__NOT_SET) {
			int64_t v;

			if (te->thread_instruction_count_case ==
			    PERFETTO__PROTOS__TRACK_EVENT__THREAD_INSTRUCTION_COUNT_THREAD_INSTRUCTION_COUNT_DELTA)
				v = s->legacy_tic = sat_add(s->legacy_tic, te->thread_instruction_count_delta);
			else
				v = te->thread_instruction_count_absolute;
			tt_proto_push_rec(c, s, ts, R_COUNTER, 0, legacy_counter_utrack(c, utid, 2),
				 0, 0, TT_NONE, 0, (double)v);
		}
	}

	/* (trace processor resolves both before it looks at the type) */
	name = event_name(c, s, te, le);
	cat = event_category(c, s, te);
	if (type || phase)
		content_note(c, cat, name);
	if (type == 4) { /* COUNTER */
		uint32_t ui = track & ~TRACK_UUID;
		double v;
		if (!(track & TRACK_UUID))
			return;
		if (te->counter_value_field_case == PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_DOUBLE_COUNTER_VALUE)
			v = te->double_counter_value;
		else
			v = (double)te->counter_value;
		tt_proto_push_rec(c, s, ts, R_COUNTER, 0, track, 0, 0, TT_NONE, 0, counter_value(c, s, ui, v));
		return;
	}

	{
		int64_t t2 = extra_counters(c, s, te, ts, &has_tts);
		if (has_tts && (te->n_extra_counter_values))
			tts = t2;
	}

	if (type == 5) { /* STATE: the name is the value, none ends the state */
		tt_str value = 0;

		/* trace processor: no state on a legacy pid/tid track */
		if (legacy_track) {
			stat(c, TT_STAT_track_event_parser_errors);
			return;
		}
		if (te->name_field_case == PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME)
			value = name;
		else if (te->name_field_case == PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME_IID)
			value = name;
		args = value ? tt_proto_event_args(c, s, te, 0, passthrough_utid(c, s, ev_track, 0, 0, le)) : TT_NONE;
		tt_proto_push_rec(c, s, ts, R_STATE, 0, track, value, value ? cat : 0, args, 0, 0);
		return;
	}
	if (phase == 's' || phase == 't' || phase == 'f') {
		/* v1 flows are (unscoped_id, category, name), as trace
		 * processor keys them; a global or local id is no flow there
		 * (GetLegacyEventId: flow_invalid_id) */
		int step = phase == 's' ? V1_START : phase == 't' ? V1_STEP :
			   le->bind_to_enclosing ? V1_END_ENCLOSING : V1_END;

		if (le->id_case != PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__ID_UNSCOPED_ID) {
			stat(c, TT_STAT_flow_invalid_id);
			return;
		}
		if (track & TRACK_ASYNC)
			return;
		if (main_thread)
			track = tt_track_tracker_thread(c->im->tracks, c->utracks.v[track & ~TRACK_UUID].utid);
		tt_proto_push_rec(c, s, ts, R_FLOW_V1, step, track, name, cat, TT_NONE, (int64_t)le->unscoped_id, 0);
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
		case 'M':
			legacy_metadata(c, s, te, track, name, ts);
			return;
		default:
			stat(c, TT_STAT_proto_legacy_unsupported);
			return;
		}
		if (strchr("beSFnTp", phase)) {
			track = legacy_async_track(c, track, le, phase, name, cat);
			if (track == TT_NONE)
				return;
		} else if ((phase == 'I' || phase == 'i') && le->instant_event_scope == 1) {
			tt_track_desc d = { .type = "legacy_chrome_global_instants",
					    .name = intern_c(c, "Legacy Global Instants"),
					    .utid = TT_NONE, .upid = TT_NONE, .parent_id = TT_NONE, .cpu = -1 };
			track = tt_track_tracker_keyed(c->im->tracks, "proto-legacy-instant", 0, 0, 0, &d);
			legacy_instant_source(c, track);
		} else if ((phase == 'I' || phase == 'i') && le->instant_event_scope == 2) {
			/* the process its pid names now (a reused pid: the new one) */
			uint32_t upid = track_upid(c, track);

			if (upid != TT_NONE)
				upid = tt_process_tracker_process(c->im->procs, tt_storage_process_pid(c->st, upid));
			tt_track_desc d = { .type = "chrome_process_instant", .name = 0, .utid = TT_NONE,
					    .upid = upid, .parent_id = TT_NONE, .cpu = -1 };
			track = tt_track_tracker_keyed(c->im->tracks, "proto-legacy-instant", 1, upid, 0, &d);
			/* trace processor's chrome_process_instant: the process */
			if (upid != TT_NONE && tt_proto_dims_begin(c, track)) {
				tt_storage_args_uint(c->st, "upid", upid);
				tt_proto_dims_end(c, track);
			}
			legacy_instant_source(c, track);
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
	args = tt_proto_event_args(c, s, te, phase, passthrough_utid(c, s, ev_track, legacy_track, phase, le));
	if (te->log_message)
		tt_proto_log_message(c, s, te, ts, event_thread(c, s, te, ev_track, legacy_track));
	if (main_thread && track == ev_track)
		track = tt_track_tracker_thread(c->im->tracks, c->utracks.v[track & ~TRACK_UUID].utid);
	/* the record's file order (c->ord) must be known before its flows */
	if (!tt_proto_fold_takes(c, ts, type == 1 ? R_BEGIN : type == 2 ? R_END : R_COMPLETE,
				 has_tts ? F_TTS : 0, tts))
		tt_proto_fold_flush(c, s);
	/* (trace processor reads no flows on an async step, T / p) */
	flags = (phase == 'T' || phase == 'p' ? 0 : event_flows(c, te)) |
		tt_proto_event_callstack(c, s, te, type == 2);
	if (has_tts)
		flags |= F_TTS;
	/* extension fields: read when fed, once every descriptor is known
	 * (kept under the file order of the record pushed next) */
	if (te->base.n_unknown_fields && tt_proto_ext_keep(c, s, te))
		flags |= F_EXT;
	switch (type) {
	case 1:
		tt_proto_push_rec(c, s, ts, R_BEGIN, flags, track, name, cat, args, tts, 0);
		break;
	case 2:
		tt_proto_push_rec(c, s, ts, R_END, flags, track, name, cat, args, tts, 0);
		break;
	case 3:
		tt_proto_push_rec(c, s, ts, R_COMPLETE, flags & ~F_TTS, track, name, cat, args, 0, 0);
		break;
	default:
		tt_proto_push_rec(c, s, ts, R_COMPLETE, flags & ~F_TTS, track, name, cat, args,
			 (int64_t)((uint64_t)le->duration_us * 1000), 0);
		break;
	}
}
