/*
 * memory_tracker.c - see memory_tracker.h.
 */
#include "memory_tracker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atrace_tracker.h"
#include "vec.h"

/* rss_stat's members as trace processor names them (mem.<key>), and the
 * second key of the process_memory tracks the Perfetto importer shares
 * (its ProcessStats: 2 rss.anon, 3 rss.file, 4 rss.shmem, 5 swap). */
static const struct { const char *key; uint32_t k; } mem_keys[] = {
	{ "rss.file", 3 }, { "rss.anon", 2 }, { "swap", 5 }, { "rss.shmem", 4 }, { "unreclaimable", 11 },
	{ "unknown", 12 },
};

#define KEY_OOM_SCORE 100  /* pend_counter.key of an oom_score_adj value */

struct pend_counter {
	int64_t row;
	uint32_t utid;
	uint32_t key;   /* index in mem_keys, or KEY_OOM_SCORE */
};

struct tt_memory_tracker {
	tt_import *im;
	TT_VEC(struct pend_counter) pend;
};

tt_memory_tracker *tt_memory_tracker_new(tt_import *im)
{
	tt_memory_tracker *m = calloc(1, sizeof(*m));

	if (m)
		m->im = im;
	return m;
}

void tt_memory_tracker_free(tt_memory_tracker *m)
{
	if (!m)
		return;
	TT_VEC_FREE(m->pend);
	free(m);
}

int tt_memory_tracker_rss(tt_memory_tracker *m, int64_t ts, uint32_t utid, int64_t member, int64_t size)
{
	tt_storage *st = m->im->st;
	struct pend_counter p;
	int64_t row;

	if (size < 0) {
		tt_storage_stat_add(st, TT_STAT_rss_stat_negative_size, 1);
		return 0;
	}
	row = tt_storage_counter(st, TT_NONE, ts, (double)size);
	if (row < 0 || utid == TT_NONE)
		return row < 0 ? -1 : 0;
	tt_storage_args_begin(st);
	tt_storage_args_uint(st, "utid", utid);
	tt_storage_counter_set_args(st, row, tt_args_tracker_end(m->im->args));
	p = (struct pend_counter){ row, utid, member >= 0 && member < 5 ? (uint32_t)member : 5 };
	return TT_VEC_PUSH(m->pend, p) ? -1 : 0;
}

int tt_memory_tracker_oom_score(tt_memory_tracker *m, int64_t ts, uint32_t utid, int64_t value)
{
	int64_t row = tt_storage_counter(m->im->st, TT_NONE, ts, (double)value);
	struct pend_counter p = { row, utid, KEY_OOM_SCORE };

	if (row < 0)
		return -1;
	return TT_VEC_PUSH(m->pend, p) ? -1 : 0;
}

/* An oom_score_adj value's track: its process's, else its thread's. */
static uint32_t oom_track(tt_memory_tracker *m, const struct pend_counter *p, uint32_t upid)
{
	tt_str n = tt_storage_intern_cstr(m->im->st, "oom_score_adj");
	tt_track_desc d = { .type = "oom_score_adj_thread_fallback", .name = n, .utid = p->utid,
			    .upid = TT_NONE, .parent_id = TT_NONE, .is_counter = 1, .cpu = -1 };
	uint32_t t;

	if (upid != TT_NONE)
		return tt_import_oom_score_track(m->im, upid);
	t = tt_track_tracker_keyed(m->im->tracks, "oom_score_adj_thread_fallback", p->utid, 0, n, &d);
	if (tt_import_dims_begin(m->im, t)) {
		tt_storage_args_uint(m->im->st, "utid", p->utid);
		tt_import_dims_end(m->im, t);
	}
	return t;
}

/* The process_memory track of a pending value: its thread's process's,
 * or the thread's own (process_memory_thread_fallback) when the thread
 * never got one. */
static uint32_t pend_track(tt_memory_tracker *m, const struct pend_counter *p)
{
	tt_storage *st = m->im->st;
	uint32_t upid = tt_storage_thread_upid(st, p->utid), t;
	const char *key;
	char name[32];
	tt_str n;

	if (p->key == KEY_OOM_SCORE)
		return oom_track(m, p, upid);
	key = mem_keys[p->key].key;

	snprintf(name, sizeof(name), "mem.%s", key);
	n = tt_storage_intern_cstr(st, name);
	if (upid != TT_NONE)
		return tt_import_keyed_counter(m->im, "proto-proc-stat", upid, mem_keys[p->key].k, n, "process_memory",
					       upid, -1, "process_memory_key", key);
	{
		tt_track_desc d = { .type = "process_memory_thread_fallback", .name = n, .utid = p->utid,
				    .upid = TT_NONE, .parent_id = TT_NONE, .is_counter = 1, .cpu = -1 };

		t = tt_track_tracker_keyed(m->im->tracks, "process_memory_thread_fallback", p->utid, p->key, n, &d);
		if (tt_import_dims_begin(m->im, t)) {
			tt_storage_args_uint(st, "utid", p->utid);
			tt_storage_args_str(st, "process_memory_key", key, strlen(key));
			tt_import_dims_end(m->im, t);
		}
	}
	return t;
}

void tt_memory_tracker_finish(tt_memory_tracker *m)
{
	for (size_t i = 0; i < m->pend.n; i++)
		tt_storage_counter_set_track(m->im->st, m->pend.v[i].row, pend_track(m, &m->pend.v[i]));
	m->pend.n = 0;
}
