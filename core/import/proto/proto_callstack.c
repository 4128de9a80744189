/*
 * proto_callstack.c - a TrackEvent's callstack (inline frames, or an
 * interned Callstack of interned frames and mappings) into the stack
 * profile tables (core/profile.h) and __intrinsic_track_event_callstacks,
 * as trace processor imports them: frames of one callstack become a chain
 * of callsites (root first, depth from 0), interned so that the same
 * stack is one callsite; inline frames hang from one dummy mapping and
 * carry their source file and line as a symbol. See import_proto.c.
 */
#include "proto_int.h"
#include "profile.h"

static tt_str istr(pctx *c, const Perfetto__Protos__InternedString *is)
{
	return is->has_str ? intern(c, (const char *)is->str.data, is->str.len) : 0;
}

static void put_row(pctx *c, tt_pmap *m, uint64_t iid, uint32_t row)
{
	if (row != TT_NONE && tt_pmap_put(m, iid, (uint64_t)row + 1))
		c->oom = 1;
}

static uint32_t get_row(const tt_pmap *m, uint64_t iid)
{
	const uint64_t *v = tt_pmap_find(m, iid);

	return v ? (uint32_t)(*v - 1) : TT_NONE;
}

/* Interned strings first (a packet's mappings and frames use them), then
 * mappings, frames and callstacks, each made into rows as it comes. */
void tt_proto_on_interned_callstacks(pctx *c, pseq *s, const Perfetto__Protos__InternedData *in)
{
	tt_profile *p;
	size_t i, k;

	for (i = 0; i < in->n_function_names; i++)
		if (tt_proto_itab_put(&s->fnames, in->function_names[i]->iid, istr(c, in->function_names[i])))
			c->oom = 1;
	for (i = 0; i < in->n_build_ids; i++)
		if (tt_proto_itab_put(&s->build_ids, in->build_ids[i]->iid, istr(c, in->build_ids[i])))
			c->oom = 1;
	for (i = 0; i < in->n_mapping_paths; i++)
		if (tt_proto_itab_put(&s->mapping_paths, in->mapping_paths[i]->iid, istr(c, in->mapping_paths[i])))
			c->oom = 1;
	if (!in->n_mappings && !in->n_frames && !in->n_callstacks)
		return;
	if (!(p = tt_storage_profile(c->st))) {
		c->oom = 1;
		return;
	}
	for (i = 0; i < in->n_mappings; i++) {
		const Perfetto__Protos__Mapping *m = in->mappings[i];
		tt_str build = 0, path;
		size_t n = 0;

		if (m->has_build_id)
			tt_proto_itab_find(&s->build_ids, m->build_id, &build);
		/* the path is its components, each after a '/' */
		for (k = 0; k < m->n_path_string_ids && n < sizeof(c->key) - 1; k++) {
			tt_str part = 0;
			const char *t;

			tt_proto_itab_find(&s->mapping_paths, m->path_string_ids[k], &part);
			t = tt_storage_str(c->st, part);
			n += (size_t)snprintf(c->key + n, sizeof(c->key) - n, "%s%s",
					      t && t[0] == '/' ? "" : "/", t ? t : "");
		}
		path = intern(c, c->key, n < sizeof(c->key) ? n : sizeof(c->key) - 1);
		put_row(c, &s->mappings, m->iid,
			tt_profile_mapping(p, build, path, (int64_t)m->start, (int64_t)m->end,
					   (int64_t)m->start_offset, (int64_t)m->exact_offset, (int64_t)m->load_bias));
	}
	for (i = 0; i < in->n_frames; i++) {
		const Perfetto__Protos__Frame *f = in->frames[i];
		tt_str name = 0;

		if (f->has_function_name_id)
			tt_proto_itab_find(&s->fnames, f->function_name_id, &name);
		put_row(c, &s->frames, f->iid,
			tt_profile_frame(p, name, f->has_mapping_id ? get_row(&s->mappings, f->mapping_id) : TT_NONE,
					 (int64_t)f->rel_pc, TT_NONE));
	}
	for (i = 0; i < in->n_callstacks; i++) {
		const Perfetto__Protos__Callstack *cs = in->callstacks[i];
		uint32_t site = TT_NONE;

		for (k = 0; k < cs->n_frame_ids; k++) {
			uint32_t frame = get_row(&s->frames, cs->frame_ids[k]);

			if (frame == TT_NONE) { /* a frame never interned */
				stat(c, TT_STAT_proto_interned_missing);
				site = TT_NONE;
				break;
			}
			site = tt_profile_callsite(p, site, frame, (uint32_t)k);
		}
		put_row(c, &s->callstacks, cs->iid, site);
	}
}

/* The callsite of an inline callstack: its frames under one dummy mapping,
 * the same (function, file, line) one frame with one symbol. */
static uint32_t inline_callsite(pctx *c, tt_profile *p, const TEv *te)
{
	const Perfetto__Protos__TrackEvent__InlineCallstack *cs = te->callstack;
	uint32_t site = TT_NONE;

	if (c->inline_mapping == 0) {
		uint32_t m = tt_profile_mapping(p, 0, intern_c(c, "inline_callstack"), 0, 0, 0, 0, 0);

		if (m == TT_NONE)
			return TT_NONE;
		c->inline_mapping = m + 1;
	}
	for (size_t k = 0; k < cs->n_frames; k++) {
		const Perfetto__Protos__TrackEvent__InlineCallstack__Frame *f = cs->frames[k];
		tt_str name = intern_c(c, f->function_name ? f->function_name : "");
		tt_str file = f->source_file ? intern_c(c, f->source_file) : 0;
		uint32_t line = f->has_line_number ? f->line_number : TT_NONE;
		uint32_t frame = tt_keymap_get(&c->inline_frames, name, file, line, 0);

		if (frame == TT_KEYMAP_NONE) {
			uint32_t sym = tt_profile_symbol(p, name, file, line);

			/* dummy frames are told apart by their rel_pc */
			frame = tt_profile_frame(p, name, c->inline_mapping - 1, (int64_t)c->inline_frames.n, sym);
			if (sym == TT_NONE || frame == TT_NONE ||
			    tt_keymap_put(&c->inline_frames, name, file, line, 0, frame)) {
				c->oom = 1;
				return TT_NONE;
			}
		}
		site = tt_profile_callsite(p, site, frame, (uint32_t)k);
	}
	return site;
}

/* Notes the callstack of the event about to get file order c->ord;
 * returns F_CS when it has one. An unknown callstack_iid is a parser
 * error, as in trace processor. */
int tt_proto_event_callstack(pctx *c, pseq *s, const TEv *te, int is_end)
{
	uint32_t site = TT_NONE;
	tt_profile *p;
	pcs e;

	if (te->callstack_field_case == PERFETTO__PROTOS__TRACK_EVENT__CALLSTACK_FIELD__NOT_SET)
		return 0;
	if (!(p = tt_storage_profile(c->st))) {
		c->oom = 1;
		return 0;
	}
	if (te->callstack_field_case == PERFETTO__PROTOS__TRACK_EVENT__CALLSTACK_FIELD_CALLSTACK_IID) {
		site = get_row(&s->callstacks, te->callstack_iid);
		if (site == TT_NONE)
			stat(c, TT_STAT_track_event_parser_errors);
	} else if (te->callstack) {
		site = inline_callsite(c, p, te);
	}
	if (site == TT_NONE)
		return 0;
	e.ord = c->ord;
	e.callsite = site;
	e.is_end = is_end;
	e.has_weight = te->has_callstack_weight;
	e.weight = te->callstack_weight;
	if (TT_VEC_PUSH(c->cstacks, e)) {
		c->oom = 1;
		return 0;
	}
	return F_CS;
}

/* The callstack of record r (F_CS), now that its slice is known. */
void tt_proto_feed_callstack(pctx *c, const prec *r, int64_t slice, uint32_t track)
{
	size_t lo = 0, hi = c->cstacks.n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (c->cstacks.v[mid].ord < REC_ORD(r))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < c->cstacks.n && c->cstacks.v[lo].ord == REC_ORD(r)) {
		const pcs *e = &c->cstacks.v[lo];

		if (tt_profile_te_callstack(tt_storage_profile(c->st), slice, track, e->callsite, e->is_end,
					    e->has_weight, e->weight))
			c->oom = 1;
	}
}

/* Chrome's StreamingProfilePacket: its samples' delta timestamps advance
 * the sequence's legacy reference time, as track events' deltas do (and
 * trailing deltas without a callstack too); a time out of range drops the
 * rest of the packet (trace processor's streaming_profile_invalid_timestamp).
 * A sample is its callstack on the sequence's thread. */
void tt_proto_on_streaming_profile(pctx *c, pseq *s, const Perfetto__Protos__StreamingProfilePacket *sp)
{
	tt_profile *p = tt_storage_profile(c->st);
	uint32_t utid = TT_NONE;
	int64_t ts;
	size_t i;

	if (!p) {
		c->oom = 1;
		return;
	}
	if (s->legacy_ts < 0) {
		stat(c, TT_STAT_streaming_profile_invalid_timestamp);
		return;
	}
	ts = to_trace(c, s->id, TT_CLOCK_MONOTONIC, (uint64_t)s->legacy_ts);
	if (s->fallback_track != TT_NONE)
		utid = tt_process_tracker_thread(c->im->procs, s->thr_pid, s->thr_tid);
	for (i = 0; i < sp->n_timestamp_delta_us; i++) {
		int64_t delta = sat_mul(sp->timestamp_delta_us[i], 1000);

		s->legacy_ts = sat_add(s->legacy_ts, delta);
		if (s->legacy_ts < 0) {
			stat(c, TT_STAT_streaming_profile_invalid_timestamp);
			return;
		}
		ts = sat_add(ts, delta);
		if (i < sp->n_callstack_iid) {
			uint32_t site = get_row(&s->callstacks, sp->callstack_iid[i]);

			if (site == TT_NONE)
				stat(c, TT_STAT_stackprofile_parser_error);
			else if (tt_profile_sample(p, ts, site, utid, sp->process_priority))
				c->oom = 1;
		}
	}
	if (sp->n_callstack_iid > sp->n_timestamp_delta_us)
		stat(c, TT_STAT_stackprofile_parser_error);
}
