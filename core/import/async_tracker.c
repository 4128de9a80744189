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

struct tt_async_tracker {
	tt_storage *st;
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
