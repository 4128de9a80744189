/*
 * async_tracker.c - see async_tracker.h. A set is a short list of lanes
 * (cookie, open count, track); lookups scan it as trace processor does:
 * sets are small because idle lanes are reused.
 */
#include "async_tracker.h"

#include <stdlib.h>

#include "keymap.h"
#include "vec.h"

struct lane {
	uint64_t cookie;
	uint32_t open;  /* slices open on it (begin - end, never below 0) */
	uint32_t track;
};

struct aset {
	uint32_t upid;
	tt_str name;
	TT_VEC(struct lane) lanes;
};

/* A lane of a thread's overflow tracks: the ends of its open slices,
 * innermost last. */
struct olane {
	uint32_t utid, track;
	TT_VEC(int64_t) ends;
};

struct tt_async_tracker {
	tt_storage *st;
	TT_VEC(struct olane) olanes; /* all threads' lanes, in creation order */
	tt_keymap root;  /* (upid, scope, cookie) -> root name */
	tt_keymap sets;  /* (upid, scope, root name) -> set index */
	TT_VEC(struct aset) v;
};

tt_async_tracker *tt_async_tracker_new(tt_storage *st)
{
	tt_async_tracker *t = calloc(1, sizeof(*t));

	if (t)
		t->st = st;
	return t;
}

void tt_async_tracker_free(tt_async_tracker *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->v.n; i++)
		TT_VEC_FREE(t->v.v[i].lanes);
	TT_VEC_FREE(t->v);
	for (size_t i = 0; i < t->olanes.n; i++)
		TT_VEC_FREE(t->olanes.v[i].ends);
	TT_VEC_FREE(t->olanes);
	tt_keymap_free(&t->root);
	tt_keymap_free(&t->sets);
	free(t);
}

/* The lane of cookie: its own, else the first idle one (which takes the
 * cookie over), else a new one (its track made later). */
static struct lane *lane_for(struct aset *s, uint64_t cookie)
{
	struct lane l = { cookie, 0, TT_NONE };

	for (size_t i = 0; i < s->lanes.n; i++)
		if (s->lanes.v[i].cookie == cookie)
			return &s->lanes.v[i];
	for (size_t i = 0; i < s->lanes.n; i++)
		if (s->lanes.v[i].open == 0) {
			s->lanes.v[i].cookie = cookie;
			return &s->lanes.v[i];
		}
	if (TT_VEC_PUSH(s->lanes, l))
		return NULL;
	return &s->lanes.v[s->lanes.n - 1];
}

uint32_t tt_async_track(tt_async_tracker *t, uint32_t upid, tt_str scope, uint64_t cookie,
			tt_str name, enum tt_async_kind kind)
{
	uint32_t root = tt_keymap_get(&t->root, upid, scope, cookie, 0);
	uint32_t si;
	struct aset *s;
	struct lane *l;

	if (root == TT_KEYMAP_NONE) {
		root = name;
		if (tt_keymap_put(&t->root, upid, scope, cookie, 0, root))
			return TT_NONE;
	}
	si = tt_keymap_get(&t->sets, upid, scope, root, 0);
	if (si == TT_KEYMAP_NONE) {
		struct aset ns = { .upid = upid, .name = root };

		si = (uint32_t)t->v.n;
		if (TT_VEC_PUSH(t->v, ns) || tt_keymap_put(&t->sets, upid, scope, root, 0, si))
			return TT_NONE;
	}
	s = &t->v.v[si];
	l = lane_for(s, cookie);
	if (!l)
		return TT_NONE;
	if (l->track == TT_NONE) {
		tt_track_desc d = {
			.type = upid == TT_NONE ? "legacy_async_global_slice" : "legacy_async_process_slice",
			.name = s->name, .utid = TT_NONE, .upid = upid, .parent_id = TT_NONE, .cpu = -1,
		};
		l->track = tt_storage_track_new(t->st, &d);
	}
	if (kind == TT_ASYNC_BEGIN)
		l->open++;
	else if (kind == TT_ASYNC_END && l->open > 0)
		l->open--;
	return l->track;
}

uint32_t tt_async_overlap_track(tt_async_tracker *t, uint32_t utid, int64_t ts, int64_t dur)
{
	int64_t end = dur > 0 && ts > INT64_MAX - dur ? INT64_MAX : ts + (dur > 0 ? dur : 0);
	struct olane nl = { .utid = utid, .track = TT_NONE };
	tt_track_desc d = { .type = "thread_overlapping_slice", .utid = utid,
			    .upid = tt_storage_thread_upid(t->st, utid), .parent_id = TT_NONE, .cpu = -1 };
	struct olane *l;

	/* spills are rare: a scan over every thread's lanes is cheap */
	for (size_t i = 0; i < t->olanes.n; i++) {
		l = &t->olanes.v[i];
		if (l->utid != utid)
			continue;
		while (l->ends.n && l->ends.v[l->ends.n - 1] <= ts)
			l->ends.n--;
		if (!l->ends.n || end <= l->ends.v[l->ends.n - 1])
			return TT_VEC_PUSH(l->ends, end) ? TT_NONE : l->track;
	}
	nl.track = tt_storage_track_new(t->st, &d);
	if (nl.track == TT_NONE || TT_VEC_PUSH(t->olanes, nl))
		return TT_NONE;
	l = &t->olanes.v[t->olanes.n - 1];
	return TT_VEC_PUSH(l->ends, end) ? TT_NONE : l->track;
}
