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
	tt_track_desc d;   /* of the set's tracks */
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
	tt_keymap lanes; /* (set, cookie) -> the lane it had: checked, since lanes change hands */
	TT_VEC(struct aset) v;
};

#define SCAN_LANES 8     /* sets up to this many lanes are scanned, not looked up */

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
	tt_keymap_free(&t->lanes);
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

/* The track of cookie in set si. A cookie is in at most one lane (it
 * takes a lane only when none has it), so a remembered lane that still
 * holds the cookie is the one the scan would find: big sets (a merged
 * sibling set of hundreds of descriptor tracks) skip the scan. */
static uint32_t set_track(tt_async_tracker *t, uint32_t si, uint64_t cookie, enum tt_async_kind kind)
{
	struct aset *s = &t->v.v[si];
	struct lane *l = NULL;

	if (s->lanes.n > SCAN_LANES) {
		uint32_t i = tt_keymap_get(&t->lanes, si, cookie, 0, 0);

		if (i < s->lanes.n && s->lanes.v[i].cookie == cookie)
			l = &s->lanes.v[i];
	}
	if (!l) {
		l = lane_for(s, cookie);
		if (!l)
			return TT_NONE;
		if (s->lanes.n > SCAN_LANES && tt_keymap_put(&t->lanes, si, cookie, 0, 0, (uint32_t)(l - s->lanes.v)))
			return TT_NONE;
	}
	if (l->track == TT_NONE)
		l->track = tt_storage_track_new(t->st, &s->d);
	if (kind == TT_ASYNC_BEGIN)
		l->open++;
	else if (kind == TT_ASYNC_END && l->open > 0)
		l->open--;
	return l->track;
}

/* Set (k1, k2, k3) of key space tag, made with d on first use. */
static uint32_t set_of(tt_async_tracker *t, uint64_t tag, uint64_t k1, uint64_t k2, uint64_t k3,
		       const tt_track_desc *d)
{
	uint32_t si = tt_keymap_get(&t->sets, k1, k2, k3, tag);

	if (si == TT_KEYMAP_NONE) {
		struct aset ns = { .d = *d };

		si = (uint32_t)t->v.n;
		if (TT_VEC_PUSH(t->v, ns) || tt_keymap_put(&t->sets, k1, k2, k3, tag, si))
			return TT_NONE;
	}
	return si;
}

uint32_t tt_async_track(tt_async_tracker *t, uint32_t upid, tt_str scope, uint64_t cookie,
			tt_str name, enum tt_async_kind kind)
{
	uint32_t root = tt_keymap_get(&t->root, upid, scope, cookie, 0), si;
	tt_track_desc d = { .utid = TT_NONE, .upid = upid, .parent_id = TT_NONE, .cpu = -1 };

	if (root == TT_KEYMAP_NONE) {
		root = name;
		if (tt_keymap_put(&t->root, upid, scope, cookie, 0, root))
			return TT_NONE;
	}
	d.type = upid == TT_NONE ? "legacy_async_global_slice" : "legacy_async_process_slice";
	d.name = root;
	si = set_of(t, 0, upid, scope, root, &d);
	return si == TT_NONE ? TT_NONE : set_track(t, si, cookie, kind);
}

uint32_t tt_async_track_set(tt_async_tracker *t, uint64_t k1, uint64_t k2, uint64_t k3,
			    uint64_t cookie, const tt_track_desc *d, enum tt_async_kind kind)
{
	uint32_t si = set_of(t, 1, k1, k2, k3, d);

	return si == TT_NONE ? TT_NONE : set_track(t, si, cookie, kind);
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
