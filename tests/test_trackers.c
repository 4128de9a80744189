/*
 * test_trackers.c - the trackers of core/import/ on a bare storage: the
 * slice tracker's end matching, the async tracker's track grouping and
 * overflow lanes, the track tracker's keyed and thread tracks, the flow
 * tracker's open and waiting flows (the process tracker:
 * test_process_tracker.c; the args tracker: test_args_tracker.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "async_tracker.h"
#include "flow_tracker.h"
#include "process_tracker.h"
#include "slice_tracker.h"
#include "track_tracker.h"
#include "storage_int.h" /* the flow columns */

/* A track event's end matches the innermost open slice of its category
 * (slices with none, e.g. atrace, are skipped) and closes the slices
 * opened inside it; an end matching nothing is counted. */
static void end_match_by_category(void **state)
{
	tt_storage *st = tt_storage_new();
	tt_process_tracker *p = tt_process_tracker_new(st);
	tt_track_tracker *tt = tt_track_tracker_new(st);
	tt_slice_tracker *t = tt_slice_tracker_new(st, NULL);
	tt_str cat = tt_storage_intern_cstr(st, "cat");
	uint32_t track = tt_track_tracker_thread(tt, tt_process_tracker_thread(p, 5, 1));
	int64_t outer, inner;

	(void)state;
	outer = tt_slice_tracker_begin(t, track, 20000, cat, tt_storage_intern_cstr(st, "event2"), TT_NONE);
	inner = tt_slice_tracker_begin(t, track, 21000, 0, tt_storage_intern_cstr(st, "atrace"), TT_NONE);
	assert_int_equal(tt_slice_tracker_end_match(t, track, 28000, cat, 0, TT_NONE), outer);
	assert_int_equal(tt_storage_slice_dur(st, outer), 8000);
	assert_int_equal(tt_storage_slice_dur(st, inner), 7000);
	assert_int_equal(tt_slice_tracker_end_match(t, track, 29000, 0, 0, TT_NONE), -1);
	assert_int_equal(tt_storage_stat_get(st, TT_STAT_slice_end_unmatched), 1);
	tt_slice_tracker_free(t);
	tt_track_tracker_free(tt);
	tt_process_tracker_free(p);
	tt_storage_free(st);
}

/* Ids of one name share a track while they do not overlap; the name of a
 * cookie is that of its first event; process and global scopes differ. */
static void async_lanes(void **state)
{
	tt_storage *st = tt_storage_new();
	tt_process_tracker *p = tt_process_tracker_new(st);
	tt_async_tracker *a = tt_async_tracker_new(st, NULL);
	tt_str n = tt_storage_intern_cstr(st, "anim"), other = tt_storage_intern_cstr(st, "other");
	uint32_t upid = tt_process_tracker_process(p, 7);
	uint32_t t1, t2, t3;

	(void)state;
	t1 = tt_async_track(a, TT_NONE, 0, 1, n, TT_ASYNC_BEGIN);
	t2 = tt_async_track(a, TT_NONE, 0, 2, n, TT_ASYNC_BEGIN);  /* 1 still open */
	assert_int_not_equal(t1, t2);
	assert_int_equal(tt_async_track(a, TT_NONE, 0, 1, other, TT_ASYNC_END), t1);
	t3 = tt_async_track(a, TT_NONE, 0, 3, n, TT_ASYNC_INSTANT); /* takes idle lane of 1 */
	assert_int_equal(t3, t1);
	assert_int_not_equal(tt_async_track(a, upid, 0, 1, n, TT_ASYNC_BEGIN), t1);
	assert_int_equal(tt_storage_track_count(st), 3);
	/* overflow lanes of a thread: nest in a lane or go to the next one */
	{
		uint32_t utid = tt_process_tracker_thread(p, 7, 8);
		uint32_t l1 = tt_async_overlap_track(a, utid, 100, 100);
		assert_int_equal(tt_async_overlap_track(a, utid, 120, 10), l1);  /* nests */
		assert_int_not_equal(tt_async_overlap_track(a, utid, 150, 100), l1);
		assert_int_equal(tt_async_overlap_track(a, utid, 300, 10), l1);  /* all ended */
	}
	tt_async_tracker_free(a);
	tt_process_tracker_free(p);
	tt_storage_free(st);
}

/* A scoped slice whose end is past the last ts (a hostile duration, found
 * by fuzz_proto: ts + dur overflowed): its lane is busy to the end of
 * time, and a slice after it takes another lane. */
static void async_scoped_end_overflow(void **state)
{
	tt_storage *st = tt_storage_new();
	tt_async_tracker *a = tt_async_tracker_new(st, NULL);
	tt_track_desc d = { .type = "global", .utid = TT_NONE, .upid = TT_NONE, .parent_id = TT_NONE, .cpu = -1 };
	uint32_t set, t1, t2;

	(void)state;
	set = tt_async_set(a, 1, 2, 3, &d, NULL);
	t1 = tt_async_track_in_set_scoped(a, set, 20, INT64_MAX);
	assert_int_not_equal(t1, TT_NONE);
	t2 = tt_async_track_in_set_scoped(a, set, INT64_MAX - 5, 10);
	assert_int_not_equal(t2, TT_NONE);
	assert_int_not_equal(t2, t1);
	/* t2's lane is busy to the end too: a third slice gets a third lane */
	assert_int_not_equal(tt_async_track_in_set_scoped(a, set, INT64_MAX - 1, 1), t1);
	tt_async_tracker_free(a);
	tt_storage_free(st);
}

/* A set that grows past the lanes it scans (a merged sibling set of
 * hundreds of tracks), cookies coming back after their lane was taken
 * over, instants and scoped slices mixed in: the tracks of the rule
 * (a cookie's own lane, else the first idle one, else a new one), as a
 * plain scan over a model of the lanes gives them. */
static void async_big_sets(void **state)
{
	enum { NL = 200 };
	tt_storage *st = tt_storage_new();
	tt_async_tracker *a = tt_async_tracker_new(st, NULL);
	tt_track_desc d = { .type = "global", .utid = TT_NONE, .upid = TT_NONE, .parent_id = TT_NONE, .cpu = -1 };
	struct { uint64_t cookie; uint32_t open, track; int scoped; } lane[NL];
	size_t nl = 0;
	unsigned seed = 99;
	uint32_t set;

	(void)state;
	set = tt_async_set(a, 1, 2, 3, &d, NULL);
	assert_int_not_equal(set, TT_NONE);
	for (int n = 0; n < 20000; n++) {
		uint64_t cookie;
		int k, scoped;
		enum tt_async_kind kind;
		size_t i;
		uint32_t got;

		seed = seed * 1103515245u + 12345u;
		cookie = (seed >> 8) % (n < 2000 ? 12 : 150);
		k = (int)((seed >> 20) % 8);
		scoped = k == 7;
		kind = scoped ? TT_ASYNC_SCOPED : k < 3 ? TT_ASYNC_BEGIN : k < 6 ? TT_ASYNC_END : TT_ASYNC_INSTANT;
		if (scoped)
			cookie = (uint64_t)n; /* a scoped lane's cookie: the time its slice ended */
		/* the model: its own lane, else the first idle, else a new one */
		for (i = 0; i < nl && !scoped; i++)
			if (!lane[i].scoped && lane[i].cookie == cookie)
				break;
		if (scoped || i == nl) {
			for (i = 0; i < nl; i++)
				if (lane[i].scoped == scoped &&
				    (scoped ? (int64_t)lane[i].cookie <= (int64_t)cookie : lane[i].open == 0))
					break;
			if (i < nl) {
				lane[i].cookie = cookie;
			} else {
				assert_true(nl < NL);
				lane[nl].cookie = cookie;
				lane[nl].open = 0;
				lane[nl].track = TT_NONE;
				lane[nl].scoped = scoped;
				nl++;
			}
		}
		got = tt_async_track_in_set(a, set, cookie, kind);
		if (lane[i].track == TT_NONE)
			lane[i].track = got;
		assert_int_equal(got, lane[i].track);
		if (kind == TT_ASYNC_BEGIN)
			lane[i].open++;
		else if (kind == TT_ASYNC_END && lane[i].open > 0)
			lane[i].open--;
	}
	assert_true(nl > 8); /* the set grew past its scanned lanes */
	assert_int_equal(tt_storage_track_count(st), nl);
	tt_async_tracker_free(a);
	tt_storage_free(st);
}

/* Keyed tracks: the same (kind, a, b, c) is the same track, made once
 * with the first descriptor; any other kind or key part is another one. */
static void keyed_tracks(void **state)
{
	tt_storage *st = tt_storage_new();
	tt_track_tracker *t = tt_track_tracker_new(st);
	tt_track_desc d = { .type = "process", .name = tt_storage_intern_cstr(st, "first"),
			    .utid = TT_NONE, .upid = 3, .parent_id = TT_NONE, .cpu = -1 };
	tt_track_desc d2 = d;
	uint32_t a;

	(void)state;
	d2.name = tt_storage_intern_cstr(st, "second");
	a = tt_track_tracker_keyed(t, "k1", 1, 2, 3, &d);
	assert_int_equal(a, 0);
	assert_int_equal(tt_track_tracker_keyed(t, "k1", 1, 2, 3, &d2), a);
	assert_int_equal(tt_storage_track_count(st), 1);
	assert_int_equal(tt_storage_track_upid(st, a), 3);
	assert_int_equal(tt_track_tracker_keyed(t, "k2", 1, 2, 3, &d2), 1);
	assert_int_equal(tt_track_tracker_keyed(t, "k1", 1, 2, 4, &d2), 2);
	assert_int_equal(tt_track_tracker_keyed(t, "k1", 0, 2, 3, &d2), 3);
	assert_int_equal(tt_track_tracker_keyed(t, "k1", 1, 0, 3, &d2), 4);
	assert_int_equal(tt_track_tracker_keyed(t, "k2", 1, 2, 3, &d), 1);
	assert_int_equal(tt_storage_track_count(st), 5);
	/* a track appended beside the tracker is no keyed track */
	assert_int_equal(tt_storage_track_new(st, &d), 5);
	assert_int_equal(tt_track_tracker_keyed(t, "k1", 1, 2, 3, &d2), a);
	tt_track_tracker_free(t);
	tt_storage_free(st);
}

/* A thread's slice track is made on first use, in the thread's process,
 * and found again; a utid that is no thread has none. */
static void thread_tracks(void **state)
{
	tt_storage *st = tt_storage_new();
	tt_process_tracker *p = tt_process_tracker_new(st);
	tt_track_tracker *t = tt_track_tracker_new(st);
	uint32_t th[100], tr;

	(void)state;
	assert_int_equal(tt_track_tracker_thread(t, 0), TT_NONE);
	for (int i = 0; i < 100; i++)
		th[i] = tt_process_tracker_thread(p, 10 + i % 3, 1000 + i);
	assert_int_equal(th[99], 99);
	tr = tt_track_tracker_thread(t, th[99]); /* past the first 64 first */
	assert_int_equal(tr, 0);
	assert_int_equal(tt_storage_track_utid(st, tr), 99);
	assert_int_equal(tt_storage_track_upid(st, tr), 0); /* pid 10: upid 0 */
	assert_int_equal(tt_track_tracker_thread(t, th[1]), 1);
	assert_int_equal(tt_storage_track_upid(st, 1), 1);
	assert_int_equal(tt_track_tracker_thread(t, th[99]), tr);
	assert_int_equal(tt_track_tracker_thread(t, th[1]), 1);
	assert_int_equal(tt_track_tracker_thread(t, 100), TT_NONE);
	assert_int_equal(tt_storage_track_count(st), 2);
	tt_track_tracker_free(t);
	tt_process_tracker_free(p);
	tt_storage_free(st);
}

/* Flows (trace processor's FlowTracker): a begin makes the flow active, a
 * step links and moves it on, an end links and leaves it as it was, an end
 * with close ends it (its id may begin again); a flow put to wait on a
 * track links to the next slice that begins there, once; the stats. */
static void flows(void **state)
{
	tt_storage *st = tt_storage_new();
	tt_flow_tracker *f = tt_flow_tracker_new(st);
	uint32_t track = 0;
	int64_t s[8];

	(void)state;
	for (int i = 0; i < 8; i++)
		s[i] = tt_storage_slice_append(st, track, 10 * i, 5, 0, 0, 0, -1, TT_NONE);
	assert_false(tt_flow_tracker_active(f, 5));
	tt_flow_tracker_step(f, s[1], 5);            /* not active: counted */
	tt_flow_tracker_begin(f, s[0], 5);
	assert_true(tt_flow_tracker_active(f, 5));
	assert_false(tt_flow_tracker_active(f, 6)); /* another id */
	tt_flow_tracker_begin(f, s[1], 5);           /* duplicate: ignored */
	tt_flow_tracker_end(f, s[1], 5);             /* s0 -> s1, 5 stays at s0 */
	tt_flow_tracker_step(f, s[2], 5);            /* s0 -> s2, 5 at s2 */
	tt_flow_tracker_end_close(f, s[3], 5);       /* s2 -> s3, closed */
	assert_false(tt_flow_tracker_active(f, 5));
	tt_flow_tracker_end(f, s[4], 5);             /* not active: counted */
	tt_flow_tracker_begin(f, s[4], 5);           /* begins again */
	tt_flow_tracker_begin(f, -1, 6);             /* no slice: counted */
	/* waiting for the next slice of track 7 */
	tt_flow_tracker_end_next(f, 5, 7);
	tt_flow_tracker_end_next(f, 9, 7);           /* not active: counted */
	tt_flow_tracker_slice_begun(f, 8, s[5]);     /* another track */
	tt_flow_tracker_slice_begun(f, 7, s[6]);     /* s4 -> s6 */
	tt_flow_tracker_slice_begun(f, 7, s[7]);     /* once */
	assert_int_equal(st->flow.n, 4);
	assert_int_equal(st->flow.slice_out[0], s[0]);
	assert_int_equal(st->flow.slice_in[0], s[1]);
	assert_int_equal(st->flow.slice_out[1], s[0]);
	assert_int_equal(st->flow.slice_in[1], s[2]);
	assert_int_equal(st->flow.slice_out[2], s[2]);
	assert_int_equal(st->flow.slice_in[2], s[3]);
	assert_int_equal(st->flow.slice_out[3], s[4]);
	assert_int_equal(st->flow.slice_in[3], s[6]);
	assert_int_equal(tt_storage_stat_get(st, TT_STAT_flow_step_without_start), 1);
	assert_int_equal(tt_storage_stat_get(st, TT_STAT_flow_duplicate_id), 1);
	assert_int_equal(tt_storage_stat_get(st, TT_STAT_flow_end_without_start), 2);
	assert_int_equal(tt_storage_stat_get(st, TT_STAT_flow_no_enclosing_slice), 1);
	tt_flow_tracker_free(f);
	tt_storage_free(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(end_match_by_category),
		cmocka_unit_test(async_lanes),
		cmocka_unit_test(async_big_sets),
		cmocka_unit_test(async_scoped_end_overflow),
		cmocka_unit_test(keyed_tracks),
		cmocka_unit_test(thread_tracks),
		cmocka_unit_test(flows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
