/*
 * flow_tracker.c - flows by id and flows waiting for a track's next
 * slice (see flow_tracker.h). Slice ids fit 32 bits (TT_MAX_ROWS).
 */
#include "flow_tracker.h"
#include "keymap.h"
#include "vec.h"

#include <stdlib.h>
#include <string.h>

/* A flow that ended (End with close): not active; its id may begin
 * again (the keymap has no erase). */
#define CLOSED (TT_KEYMAP_NONE - 1)

/* A v1 flow: what its links carry as args (built at its first link). */
struct v1flow {
	tt_str cat, name;
	uint32_t args;     /* TT_NONE until built */
	int built;
};

/* A flow waiting for the next slice of its track (end_next). */
struct pending {
	uint64_t flow;
	uint32_t track;
	int live;
};

struct tt_flow_tracker {
	tt_storage *st;
	tt_keymap open;    /* flow -> its last slice, or CLOSED */
	tt_keymap v1ids;   /* (id, cat, name) -> v1 flow number */
	TT_VEC(struct v1flow) v1;
	tt_args_tracker *args;
	TT_VEC(struct pending) pend;
	tt_keymap npend;   /* track -> flows waiting there */
	size_t pend_live;
};

tt_flow_tracker *tt_flow_tracker_new(tt_storage *st)
{
	tt_flow_tracker *f = calloc(1, sizeof(*f));

	if (f)
		f->st = st;
	return f;
}

void tt_flow_tracker_free(tt_flow_tracker *f)
{
	if (!f)
		return;
	tt_keymap_free(&f->open);
	tt_keymap_free(&f->v1ids);
	tt_keymap_free(&f->npend);
	TT_VEC_FREE(f->v1);
	TT_VEC_FREE(f->pend);
	free(f);
}

static void put(tt_flow_tracker *f, tt_keymap *m, uint64_t a, uint64_t b, uint64_t c, uint32_t v)
{
	if (tt_keymap_put(m, a, b, c, 0, v))
		tt_storage_set_oom(f->st);
}

/* The flow's last slice, or TT_KEYMAP_NONE when it is not active. */
static uint32_t last_of(const tt_flow_tracker *f, uint64_t flow)
{
	uint32_t v = tt_keymap_get(&f->open, flow, 0, 0, 0);

	return v == CLOSED ? TT_KEYMAP_NONE : v;
}

int tt_flow_tracker_active(const tt_flow_tracker *f, uint64_t flow)
{
	return last_of(f, flow) != TT_KEYMAP_NONE;
}

uint64_t tt_flow_tracker_v1(tt_flow_tracker *f, tt_args_tracker *args, uint64_t id, tt_str cat,
			    tt_str name)
{
	uint32_t n = tt_keymap_get(&f->v1ids, id, cat, name, 0);
	struct v1flow v = { cat, name, TT_NONE, 0 };

	if (n != TT_KEYMAP_NONE)
		return n;
	f->args = args;
	n = (uint32_t)f->v1.n;
	if (TT_VEC_PUSH(f->v1, v) || tt_keymap_put(&f->v1ids, id, cat, name, 0, n))
		tt_storage_set_oom(f->st);
	return n;
}

/* A link of flow, from the earlier of the two slices to the later; a v1
 * flow's (and, as in trace processor, a v2 flow whose id a v1 flow has)
 * carries its name and cat. */
static void link_flow(tt_flow_tracker *f, uint64_t flow, int64_t a, int64_t b)
{
	uint32_t args = TT_NONE;

	if (tt_storage_slice_ts(f->st, a) > tt_storage_slice_ts(f->st, b)) {
		int64_t t = a;

		a = b;
		b = t;
	}
	if (flow < f->v1.n) {
		struct v1flow *v = &f->v1.v[flow];

		if (!v->built) {
			const char *n = tt_storage_str(f->st, v->name), *c = tt_storage_str(f->st, v->cat);

			/* (none: a NULL string, as trace processor has it) */
			tt_storage_args_begin(f->st);
			tt_storage_args_str(f->st, "name", n, n ? strlen(n) : 0);
			tt_storage_args_str(f->st, "cat", c, c ? strlen(c) : 0);
			v->args = tt_args_tracker_end(f->args);
			v->built = 1;
		}
		args = v->args;
	}
	tt_storage_flow(f->st, a, b, flow, args);
}

static int slice_ok(tt_flow_tracker *f, int64_t slice)
{
	if (slice >= 0 && slice < (int64_t)CLOSED)
		return 1;
	tt_storage_stat_add(f->st, TT_STAT_flow_no_enclosing_slice, 1);
	return 0;
}

void tt_flow_tracker_begin(tt_flow_tracker *f, int64_t slice, uint64_t flow)
{
	if (!slice_ok(f, slice))
		return;
	if (tt_flow_tracker_active(f, flow))
		tt_storage_stat_add(f->st, TT_STAT_flow_duplicate_id, 1);
	else
		put(f, &f->open, flow, 0, 0, (uint32_t)slice);
}

/* How follow leaves the flow: its last slice as it was, slice, or closed. */
enum { KEEP, MOVE, CLOSE };

/* A link into slice from the flow's last slice (none: stat). */
static void follow(tt_flow_tracker *f, int64_t slice, uint64_t flow, tt_stat unstarted, int then)
{
	uint32_t from;

	if (!slice_ok(f, slice))
		return;
	from = last_of(f, flow);
	if (from == TT_KEYMAP_NONE) {
		tt_storage_stat_add(f->st, unstarted, 1);
		return;
	}
	if (then != KEEP)
		put(f, &f->open, flow, 0, 0, then == MOVE ? (uint32_t)slice : CLOSED);
	link_flow(f, flow, from, slice);
}

void tt_flow_tracker_step(tt_flow_tracker *f, int64_t slice, uint64_t flow)
{
	follow(f, slice, flow, TT_STAT_flow_step_without_start, MOVE);
}

void tt_flow_tracker_end(tt_flow_tracker *f, int64_t slice, uint64_t flow)
{
	follow(f, slice, flow, TT_STAT_flow_end_without_start, KEEP);
}

void tt_flow_tracker_end_close(tt_flow_tracker *f, int64_t slice, uint64_t flow)
{
	follow(f, slice, flow, TT_STAT_flow_end_without_start, CLOSE);
}

void tt_flow_tracker_end_next(tt_flow_tracker *f, uint64_t flow, uint32_t track)
{
	struct pending p = { flow, track, 1 };
	uint32_t n;

	/* (trace processor waits even for a flow that never started, and
	 * then links the next slice from slice 0: counted here instead) */
	if (!tt_flow_tracker_active(f, flow)) {
		tt_storage_stat_add(f->st, TT_STAT_flow_end_without_start, 1);
		return;
	}
	n = tt_keymap_get(&f->npend, track, 0, 0, 0);
	if (TT_VEC_PUSH(f->pend, p)) {
		tt_storage_set_oom(f->st);
		return;
	}
	put(f, &f->npend, track, 0, 0, n == TT_KEYMAP_NONE ? 1 : n + 1);
	f->pend_live++;
}

/* The flows waiting on track come into slice, in the order they came. */
static void pending_begun(tt_flow_tracker *f, uint32_t track, int64_t slice)
{
	uint32_t n = tt_keymap_get(&f->npend, track, 0, 0, 0);

	if (n == TT_KEYMAP_NONE || n == 0)
		return;
	for (size_t i = 0; i < f->pend.n && n; i++) {
		struct pending *p = &f->pend.v[i];
		uint32_t from;

		if (!p->live || p->track != track)
			continue;
		p->live = 0;
		n--;
		f->pend_live--;
		from = last_of(f, p->flow);
		if (from != TT_KEYMAP_NONE)
			link_flow(f, p->flow, from, slice);
	}
	put(f, &f->npend, track, 0, 0, 0);
	if (!f->pend_live)
		f->pend.n = 0;
}

void tt_flow_tracker_slice_begun(tt_flow_tracker *f, uint32_t track, int64_t slice)
{
	if (slice >= 0 && f->pend_live)
		pending_begun(f, track, slice);
}
