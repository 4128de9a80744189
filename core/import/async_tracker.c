/*
 * async_tracker.c - see async_tracker.h. A set is a short list of lanes
 * (cookie, open count, track); lookups scan it as trace processor does:
 * sets are small because idle lanes are reused.
 */
#include "async_tracker.h"

#include <stdlib.h>
#include <string.h>

#include "keymap.h"
#include "vec.h"

struct lane {
	uint64_t cookie; /* scoped lanes: the end of their last slice */
	uint32_t open;  /* slices open on it (begin - end, never below 0) */
	uint32_t track;
	int scoped;     /* a lane of TT_ASYNC_SCOPED slices only */
};

struct aset {
	tt_track_desc d;   /* of the set's tracks */
	tt_async_args a;   /* their args (ndim = nsrc = 0: none) */
	int has_args;
	TT_VEC(struct lane) lanes;
	size_t free_from; /* no lane below is free (not scoped, none open) */
};

/* A lane of a thread's overflow tracks: the ends of its open slices,
 * innermost last. */
struct olane {
	uint32_t utid, track;
	TT_VEC(int64_t) ends;
};

struct tt_async_tracker {
	tt_storage *st;
	tt_args_tracker *args; /* keeps the tracks' identical arg sets once; NULL: store each */
	TT_VEC(struct olane) olanes; /* all threads' lanes, in creation order */
	tt_keymap root;  /* (upid, scope, cookie) -> root name */
	tt_keymap sets;  /* (upid, scope, root name) -> set index */
	tt_keymap lanes; /* (set, cookie) -> the lane it had: checked, since lanes change hands */
	TT_VEC(struct aset) v;
};

#define SCAN_LANES 8     /* sets up to this many lanes are scanned, not looked up */

tt_async_tracker *tt_async_tracker_new(tt_storage *st, tt_args_tracker *args)
{
	tt_async_tracker *t = calloc(1, sizeof(*t));

	if (t) {
		t->st = st;
		t->args = args;
	}
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

/* The lane of cookie: its own (only the first may_hold lanes can be),
 * else the first idle one (which takes the cookie over), else a new one
 * (its track made later). */
static struct lane *lane_for(struct aset *s, uint64_t cookie, int scoped, size_t may_hold)
{
	struct lane l = { cookie, 0, TT_NONE, scoped };

	if (scoped) {
		/* cookie: the slice's time; its lane the first whose last
		 * slice ended by then */
		for (size_t i = 0; i < s->lanes.n; i++)
			if (s->lanes.v[i].scoped && (int64_t)s->lanes.v[i].cookie <= (int64_t)cookie) {
				s->lanes.v[i].cookie = cookie;
				return &s->lanes.v[i];
			}
		if (TT_VEC_PUSH(s->lanes, l))
			return NULL;
		return &s->lanes.v[s->lanes.n - 1];
	}
	for (size_t i = 0; i < s->lanes.n && i < may_hold; i++)
		if (!s->lanes.v[i].scoped && s->lanes.v[i].cookie == cookie)
			return &s->lanes.v[i];
	/* the first free lane, as a scan from 0 finds it: a set of hundreds
	 * of lanes, mostly open, scanned them all for each new id */
	for (size_t i = s->free_from; i < s->lanes.n; i++)
		if (!s->lanes.v[i].scoped && s->lanes.v[i].open == 0) {
			s->free_from = i;
			s->lanes.v[i].cookie = cookie;
			return &s->lanes.v[i];
		}
	if (TT_VEC_PUSH(s->lanes, l))
		return NULL;
	s->free_from = s->lanes.n - 1;
	return &s->lanes.v[s->lanes.n - 1];
}

static void put_args(tt_storage *st, const tt_async_arg *a, int n)
{
	for (int i = 0; i < n; i++) {
		const char *v;

		switch (a[i].type) {
		case 'u':
			tt_storage_args_uint(st, a[i].key, a[i].v);
			break;
		case 'i':
			tt_storage_args_int(st, a[i].key, (int64_t)a[i].v);
			break;
		case 'b':
			tt_storage_args_bool(st, a[i].key, a[i].v != 0);
			break;
		case 's':
		case 'c':
			/* (a null string is a row too, as trace processor's
			 * dimensions write it) */
			v = a[i].type == 'c' ? a[i].cv : tt_storage_str(st, (tt_str)a[i].v);
			tt_storage_args_str(st, a[i].key, v, v ? strlen(v) : 0);
			break;
		}
	}
}

static uint32_t end_set(const tt_async_tracker *t)
{
	return t->args ? tt_args_tracker_end(t->args) : tt_storage_args_store(t->st);
}

/* A new lane's track: the set's dimensions with its lane, its source. */
static void track_args(const tt_async_tracker *t, uint32_t track, const tt_async_args *a, uint64_t lane)
{
	tt_storage *st = t->st;

	tt_storage_args_begin(st);
	put_args(st, a->dim, a->ndim);
	tt_storage_args_uint(st, "track_compressor_idx", lane);
	tt_storage_track_set_dimension_args(st, track, end_set(t));
	if (a->nsrc) {
		tt_storage_args_begin(st);
		put_args(st, a->src, a->nsrc);
		tt_storage_track_set_source_args(st, track, end_set(t));
	}
}

/* The track of cookie in set si. A cookie is in at most one lane (it
 * takes a lane only when none has it), so a remembered lane that still
 * holds the cookie is the one the scan would find: big sets (a merged
 * sibling set of hundreds of descriptor tracks) skip the scan. Once a
 * set is big every lane a cookie takes is remembered (sets never shrink):
 * a remembered lane that another cookie took over means the cookie holds
 * none, and a cookie not remembered can only hold one of the lanes taken
 * while the set was small (the first SCAN_LANES). */
static struct lane *set_lane(tt_async_tracker *t, uint32_t si, uint64_t cookie, enum tt_async_kind kind)
{
	struct aset *s = &t->v.v[si];
	struct lane *l = NULL;
	int scoped = kind == TT_ASYNC_SCOPED;
	size_t may_hold = s->lanes.n;

	if (s->lanes.n > SCAN_LANES && !scoped) {
		uint32_t i = tt_keymap_get(&t->lanes, si, cookie, 0, 0);

		if (i < s->lanes.n && !s->lanes.v[i].scoped && s->lanes.v[i].cookie == cookie)
			l = &s->lanes.v[i];
		else
			may_hold = i != TT_KEYMAP_NONE ? 0 : SCAN_LANES;
	}
	if (!l) {
		l = lane_for(s, cookie, scoped, may_hold);
		if (!l)
			return NULL;
		if (s->lanes.n > SCAN_LANES && !scoped &&
		    tt_keymap_put(&t->lanes, si, cookie, 0, 0, (uint32_t)(l - s->lanes.v)))
			return NULL;
	}
	if (l->track == TT_NONE) {
		l->track = tt_storage_track_new(t->st, &s->d);
		if (l->track != TT_NONE && s->has_args)
			track_args(t, l->track, &s->a, (uint64_t)(l - s->lanes.v));
	}
	if (kind == TT_ASYNC_BEGIN)
		l->open++;
	else if (kind == TT_ASYNC_BEGIN_SAT)
		l->open = 1;
	else if (kind == TT_ASYNC_END && l->open > 0)
		l->open--;
	if (!l->scoped && l->open == 0 && (size_t)(l - s->lanes.v) < s->free_from)
		s->free_from = (size_t)(l - s->lanes.v);
	return l;
}

/* The lane's track (TT_NONE when memory ran out). */
static uint32_t set_track(tt_async_tracker *t, uint32_t si, uint64_t cookie, enum tt_async_kind kind)
{
	struct lane *l = set_lane(t, si, cookie, kind);

	return l ? l->track : TT_NONE;
}

/* Set (k1, k2, k3) of key space tag, made with d (and a) on first use. */
static uint32_t set_of(tt_async_tracker *t, uint64_t tag, uint64_t k1, uint64_t k2, uint64_t k3,
		       const tt_track_desc *d, const tt_async_args *a)
{
	uint32_t si = tt_keymap_get(&t->sets, k1, k2, k3, tag);

	if (si == TT_KEYMAP_NONE) {
		struct aset ns = { .d = *d, .has_args = a != NULL };

		if (a)
			ns.a = *a;

		si = (uint32_t)t->v.n;
		if (TT_VEC_PUSH(t->v, ns) || tt_keymap_put(&t->sets, k1, k2, k3, tag, si))
			return TT_NONE;
	}
	return si;
}

static uint32_t async_track(tt_async_tracker *t, uint32_t upid, tt_str scope, uint64_t cookie,
			    tt_str name, enum tt_async_kind kind, int chrome, uint32_t src_upid)
{
	uint32_t root = tt_keymap_get(&t->root, upid, scope, cookie, 0), si;
	tt_track_desc d = { .utid = TT_NONE, .upid = upid, .parent_id = TT_NONE, .cpu = -1 };
	tt_async_args a;

	if (root == TT_KEYMAP_NONE) {
		root = name;
		if (tt_keymap_put(&t->root, upid, scope, cookie, 0, root))
			return TT_NONE;
	}
	d.type = upid == TT_NONE ? "legacy_async_global_slice" : "legacy_async_process_slice";
	d.name = root;
	if (chrome) {
		memset(&a, 0, sizeof(a));
		if (upid != TT_NONE)
			a.dim[a.ndim++] = (tt_async_arg){ "upid", 'u', upid, NULL };
		a.dim[a.ndim++] = (tt_async_arg){ "scope", 's', scope, NULL };
		a.dim[a.ndim++] = (tt_async_arg){ "name", 's', root, NULL };
		a.src[a.nsrc++] = (tt_async_arg){ "source", 'c', 0, "chrome" };
		a.src[a.nsrc++] = (tt_async_arg){ "trace_id_is_process_scoped", 'b', upid != TT_NONE, NULL };
		if (src_upid != TT_NONE)
			a.src[a.nsrc++] = (tt_async_arg){ "upid", 'u', src_upid, NULL };
		a.src[a.nsrc++] = (tt_async_arg){ "source_scope", 's', scope, NULL };
	}
	si = set_of(t, 0, upid, scope, root, &d, chrome ? &a : NULL);
	return si == TT_NONE ? TT_NONE : set_track(t, si, cookie, kind);
}

uint32_t tt_async_track(tt_async_tracker *t, uint32_t upid, tt_str scope, uint64_t cookie,
			tt_str name, enum tt_async_kind kind)
{
	return async_track(t, upid, scope, cookie, name, kind, 0, TT_NONE);
}

uint32_t tt_async_track_chrome(tt_async_tracker *t, uint32_t upid, tt_str scope, uint64_t cookie,
			       tt_str name, enum tt_async_kind kind, uint32_t src_upid)
{
	return async_track(t, upid, scope, cookie, name, kind, 1, src_upid);
}

uint32_t tt_async_track_set(tt_async_tracker *t, uint64_t k1, uint64_t k2, uint64_t k3,
			    uint64_t cookie, const tt_track_desc *d, const tt_async_args *a,
			    enum tt_async_kind kind)
{
	uint32_t si = set_of(t, 1, k1, k2, k3, d, a);

	return si == TT_NONE ? TT_NONE : set_track(t, si, cookie, kind);
}

uint32_t tt_async_track_scoped(tt_async_tracker *t, uint64_t k1, uint64_t k2, uint64_t k3, int64_t ts, int64_t dur,
			       const tt_track_desc *d, const tt_async_args *a)
{
	return tt_async_track_in_set_scoped(t, set_of(t, 1, k1, k2, k3, d, a), ts, dur);
}

uint32_t tt_async_track_in_set_scoped(tt_async_tracker *t, uint32_t si, int64_t ts, int64_t dur)
{
	struct lane *l;

	if (si >= t->v.n || !(l = set_lane(t, si, (uint64_t)ts, TT_ASYNC_SCOPED)) || l->track == TT_NONE)
		return TT_NONE;
	/* the lane is busy until the slice ends (set_lane made it busy until
	 * its start, as for an instant) */
	if (dur > 0)
		l->cookie = (uint64_t)(ts > INT64_MAX - dur ? INT64_MAX : ts + dur);
	return l->track;
}

uint32_t tt_async_set(tt_async_tracker *t, uint64_t k1, uint64_t k2, uint64_t k3, const tt_track_desc *d,
		      const tt_async_args *a)
{
	return set_of(t, 1, k1, k2, k3, d, a);
}

uint32_t tt_async_track_in_set(tt_async_tracker *t, uint32_t set, uint64_t cookie, enum tt_async_kind kind)
{
	return set < t->v.n ? set_track(t, set, cookie, kind) : TT_NONE;
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
