/*
 * track_tracker.c - thread tracks by utid and keyed tracks by (kind, a, b,
 * c); the rows are appended through storage.h (see track_tracker.h).
 */
#include "track_tracker.h"
#include "keymap.h"

#include <stdlib.h>

struct tt_track_tracker {
	tt_storage *st;
	tt_keymap by_key;     /* (interned kind, a, b, c) -> track */
	uint32_t *of_thread;  /* utid -> its slice track, TT_NONE before */
	size_t nthreads;      /* entries of of_thread */
};

tt_track_tracker *tt_track_tracker_new(tt_storage *st)
{
	tt_track_tracker *t = calloc(1, sizeof(*t));

	if (t)
		t->st = st;
	return t;
}

void tt_track_tracker_free(tt_track_tracker *t)
{
	if (!t)
		return;
	tt_keymap_free(&t->by_key);
	free(t->of_thread);
	free(t);
}

uint32_t tt_track_tracker_keyed(tt_track_tracker *t, const char *kind, uint64_t a, uint64_t b,
				uint64_t c, const tt_track_desc *d)
{
	uint64_t k = tt_storage_intern_cstr(t->st, kind);
	uint32_t id = tt_keymap_get(&t->by_key, k, a, b, c);

	if (id != TT_NONE)
		return id;
	id = tt_storage_track_new(t->st, d);
	if (id != TT_NONE && tt_keymap_put(&t->by_key, k, a, b, c, id)) {
		tt_storage_set_oom(t->st);
		return TT_NONE;
	}
	return id;
}

/* Room in of_thread for utid (new entries TT_NONE); -1 out of memory. */
static int grow_threads(tt_track_tracker *t, uint32_t utid)
{
	size_t n = t->nthreads ? t->nthreads : 64;
	uint32_t *v;

	while (n <= utid)
		n *= 2;
	v = realloc(t->of_thread, n * sizeof(*v));
	if (!v) {
		tt_storage_set_oom(t->st);
		return -1;
	}
	for (size_t i = t->nthreads; i < n; i++)
		v[i] = TT_NONE;
	t->of_thread = v;
	t->nthreads = n;
	return 0;
}

uint32_t tt_track_tracker_thread(tt_track_tracker *t, uint32_t utid)
{
	tt_track_desc d = { .type = "thread", .utid = utid, .upid = TT_NONE,
			    .parent_id = TT_NONE, .cpu = -1 };
	uint32_t id;

	if (utid >= tt_storage_thread_count(t->st))
		return TT_NONE;
	if (utid < t->nthreads && t->of_thread[utid] != TT_NONE)
		return t->of_thread[utid];
	if (utid >= t->nthreads && grow_threads(t, utid))
		return TT_NONE;
	d.upid = tt_storage_thread_upid(t->st, utid);
	id = tt_storage_track_new(t->st, &d);
	t->of_thread[utid] = id;
	return id;
}
