/*
 * proto_state.c - state tracks (a TrackDescriptor with `state`) and their
 * TYPE_STATE events, as trace processor's state tracker imports them: an
 * event's name is the value its track holds from then on; the next
 * different value (or an event without a name) ends it. A repeated value
 * continues the state, its args added to the state's row (the same rules
 * serve the concurrent sessions' tracks: proto_service.c). See
 * import_proto.c for the pipeline.
 */
#include "proto_int.h"

/* The storage track of state descriptor u, whose parent (if any) resolved
 * to parent_track and scope (sutid, supid). Trace processor's rules: the
 * track is scoped by its own thread / process descriptor or its parent's;
 * under a thread or process descriptor it hangs from no parent (that one
 * is the scope), under anything else from its parent track. A track
 * without a name is named by its first value. */
uint32_t tt_proto_state_track(pctx *c, utrack *u, uint32_t parent_track, uint32_t sutid,
			      uint32_t supid, tt_str event_name)
{
	tt_track_desc d = { .type = "global_state_track_event", .name = u->name ? u->name : event_name,
			    .utid = TT_NONE, .upid = TT_NONE, .parent_id = parent_track,
			    .description = u->desc, .cpu = -1 };
	const utrack *p = NULL;
	uint32_t t;

	if (u->has_parent) {
		uint64_t *pi = tt_pmap_find(&c->uuid_index, u->parent);

		if (pi)
			p = &c->utracks.v[*pi];
	}
	if (u->kind == UT_THREAD) {
		sutid = u->utid;
		supid = u->upid;
	} else if (u->kind == UT_PROCESS) {
		sutid = TT_NONE;
		supid = u->upid;
	}
	if (sutid != TT_NONE) {
		d.type = "thread_state_track_event";
		d.utid = sutid;
		d.upid = supid;
	} else if (supid != TT_NONE) {
		d.type = "process_state_track_event";
		d.upid = supid;
	}
	if (u->kind == UT_THREAD || u->kind == UT_PROCESS ||
	    (p && (sutid != TT_NONE || supid != TT_NONE) && (p->kind == UT_THREAD || p->kind == UT_PROCESS)))
		d.parent_id = TT_NONE;
	t = tt_storage_track_new(c->st, &d);
	/* trace processor's state blueprints: the scope, then the uuid */
	if (tt_proto_dims_begin(c, t)) {
		if (d.utid != TT_NONE)
			tt_storage_args_uint(c->st, "utid", d.utid);
		else if (d.upid != TT_NONE)
			tt_storage_args_uint(c->st, "upid", d.upid);
		tt_storage_args_int(c->st, "track_uuid", (int64_t)u->uuid);
		tt_proto_dims_end(c, t);
	}
	return t;
}

static uint64_t open_key(uint32_t track)
{
	return track;
}

void tt_proto_state_update(pctx *c, uint32_t track, int64_t ts, tt_str cat, tt_str value, uint32_t args)
{
	uint64_t *open = tt_pmap_find(&c->state_open, open_key(track));

	if (open && *open) {
		int64_t row = (int64_t)(uint32_t)(*open - 1);
		tt_str held = (tt_str)((*open - 1) >> 32);

		if (held == value && value) {
			tt_args_tracker_add_to_state(c->im->args, row, args);
			return;
		}
		tt_storage_state_end(c->st, row, ts);
		*open = 0;
	}
	if (value) {
		int64_t row = tt_storage_state(c->st, ts, track, cat, value, args);

		if (row >= 0 && tt_pmap_put(&c->state_open, open_key(track),
					    ((uint64_t)value << 32 | (uint64_t)row) + 1))
			c->oom = 1;
	}
}

/* Feeds one sorted TYPE_STATE record onto its (resolved) track. */
void tt_proto_feed_state(pctx *c, const prec *r, uint32_t track)
{
	const utrack *u = (r->track & TRACK_UUID) ? &c->utracks.v[r->track & ~TRACK_UUID] : NULL;

	/* trace processor: a state event on a track that is not a state
	 * track is a parser error */
	if (!u || !u->is_state) {
		stat(c, TT_STAT_track_event_parser_errors);
		return;
	}
	tt_proto_state_update(c, track, r->ts, r->cat, r->name, r->args);
}
