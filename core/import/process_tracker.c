/*
 * process_tracker.c - pid -> upid, (pid, tid) -> utid and tid -> utid, and
 * the rules that make rows: a process's main thread, reused ids, the idle
 * rows (see process_tracker.h). Rows are appended through storage.h.
 */
#include "process_tracker.h"
#include "keymap.h"

#include <stdlib.h>
#include <string.h>

struct tt_process_tracker {
	tt_storage *st;
	int main_threads;   /* tt_process_tracker_main_threads */
	tt_keymap by_pid;   /* pid -> upid (the newest) */
	tt_keymap by_key;   /* (pid, tid) -> utid (the newest) */
	tt_keymap by_tid;   /* tid -> utid (the newest) */
	uint8_t *name_prio; /* per utid: the rank of its name (tt_thread_name_prio) */
	size_t name_prio_cap;
};

tt_process_tracker *tt_process_tracker_new(tt_storage *st)
{
	tt_process_tracker *p = calloc(1, sizeof(*p));

	if (p)
		p->st = st;
	return p;
}

void tt_process_tracker_free(tt_process_tracker *p)
{
	if (!p)
		return;
	tt_keymap_free(&p->by_pid);
	tt_keymap_free(&p->by_key);
	tt_keymap_free(&p->by_tid);
	free(p->name_prio);
	free(p);
}

static int put(tt_process_tracker *p, tt_keymap *m, int64_t a, int64_t b, uint32_t v)
{
	if (tt_keymap_put(m, (uint64_t)a, (uint64_t)b, 0, 0, v) == 0)
		return 0;
	tt_storage_set_oom(p->st);
	return -1;
}

/* A new process row for pid; later lookups of pid find it. */
static uint32_t process_append(tt_process_tracker *p, int64_t pid)
{
	uint32_t upid = tt_storage_process_append(p->st, pid);

	if (upid == TT_NONE || put(p, &p->by_pid, pid, 0, upid))
		return TT_NONE;
	return upid;
}

static uint32_t thread_append(tt_process_tracker *p, int64_t pid, int64_t tid);

/* A new process (reused: its pid's previous process exists); with
 * main_threads, its main thread (tid = pid) too: an existing thread of that
 * tid with no process becomes it. */
static uint32_t process_append_main(tt_process_tracker *p, int64_t pid, int reused)
{
	uint32_t upid = process_append(p, pid), utid;

	if (upid == TT_NONE || !p->main_threads)
		return upid;
	utid = tt_keymap_get(&p->by_tid, (uint64_t)pid, 0, 0, 0);
	if (!reused && utid != TT_NONE && tt_storage_thread_upid(p->st, utid) == TT_NONE)
		tt_process_tracker_thread_set_pid(p, utid, pid);
	else if (reused || tt_keymap_get(&p->by_key, (uint64_t)pid, (uint64_t)pid, 0, 0) == TT_NONE)
		thread_append(p, pid, pid);
	return upid;
}

uint32_t tt_process_tracker_process(tt_process_tracker *p, int64_t pid)
{
	uint32_t upid = tt_keymap_get(&p->by_pid, (uint64_t)pid, 0, 0, 0);

	return upid != TT_NONE ? upid : process_append_main(p, pid, 0);
}

uint32_t tt_process_tracker_process_new(tt_process_tracker *p, int64_t pid)
{
	return process_append_main(p, pid, 1);
}

uint32_t tt_process_tracker_process_bare(tt_process_tracker *p, int64_t pid, int reused)
{
	uint32_t upid = reused ? TT_NONE : tt_keymap_get(&p->by_pid, (uint64_t)pid, 0, 0, 0);

	return upid != TT_NONE ? upid : process_append(p, pid);
}

void tt_process_tracker_main_threads(tt_process_tracker *p, int on)
{
	p->main_threads = on;
}

/* trace processor reserves upid 0 and utid 0 (pid 0, tid 0) before any
 * event, for the idle process; only where pid 0 is the idle task (Linux
 * system traces) do lookups of pid / tid 0 find them, elsewhere a pid 0
 * gets its own rows. */
int tt_process_tracker_idle_rows(tt_process_tracker *p, int pid_zero_is_idle)
{
	tt_storage *st = p->st;

	if (tt_storage_process_count(st) || tt_storage_thread_count(st))
		return 0; /* (only before anything else) */
	if (tt_storage_idle_rows(st))
		return -1;
	if (!pid_zero_is_idle)
		return 0;
	tt_process_tracker_thread_name(p, 0, tt_storage_intern_cstr(st, "swapper"), TT_TN_CONSTANT);
	if (put(p, &p->by_pid, 0, 0, 0) || put(p, &p->by_key, 0, 0, 0) || put(p, &p->by_tid, 0, 0, 0))
		return -1;
	return 0;
}

/* A new thread row for (pid, tid); later lookups of (pid, tid) and of tid
 * find it. */
static uint32_t thread_append(tt_process_tracker *p, int64_t pid, int64_t tid)
{
	tt_storage *st = p->st;
	uint32_t upid = TT_NONE, utid;

	if (pid != -1) {
		uint32_t before = tt_storage_thread_count(st), after;

		upid = tt_process_tracker_process(p, pid);
		if (upid == TT_NONE)
			return TT_NONE;
		/* a new process made its main thread: that is this one */
		after = tt_storage_thread_count(st);
		if (tid == pid && after > before && tt_storage_thread_tid(st, after - 1) == tid)
			return after - 1;
	}
	utid = tt_storage_thread_append(st, tid, upid);
	if (utid == TT_NONE || put(p, &p->by_key, pid, tid, utid) || put(p, &p->by_tid, tid, 0, utid))
		return TT_NONE;
	return utid;
}

uint32_t tt_process_tracker_thread(tt_process_tracker *p, int64_t pid, int64_t tid)
{
	uint32_t utid = tt_keymap_get(&p->by_key, (uint64_t)pid, (uint64_t)tid, 0, 0);

	return utid != TT_NONE ? utid : thread_append(p, pid, tid);
}

uint32_t tt_process_tracker_thread_new(tt_process_tracker *p, int64_t pid, int64_t tid)
{
	return thread_append(p, pid, tid);
}

uint32_t tt_process_tracker_thread_by_tid(const tt_process_tracker *p, int64_t tid)
{
	return tt_keymap_get(&p->by_tid, (uint64_t)tid, 0, 0, 0);
}

void tt_process_tracker_thread_set_pid(tt_process_tracker *p, uint32_t utid, int64_t pid)
{
	if (utid >= tt_storage_thread_count(p->st))
		return;
	tt_storage_thread_set_upid(p->st, utid, tt_process_tracker_process(p, pid));
	/* Later lookups by (pid, tid) must find this thread. */
	put(p, &p->by_key, pid, tt_storage_thread_tid(p->st, utid), utid);
}

void tt_process_tracker_thread_name(tt_process_tracker *p, uint32_t utid, tt_str name, enum tt_thread_name_prio prio)
{
	if (!name || utid == TT_NONE)
		return;
	if (utid >= p->name_prio_cap) {
		size_t ncap = p->name_prio_cap ? p->name_prio_cap : 256;
		uint8_t *n;

		while (ncap <= utid)
			ncap *= 2;
		n = realloc(p->name_prio, ncap);
		if (!n) {
			tt_storage_set_oom(p->st);
			return;
		}
		memset(n + p->name_prio_cap, 0, ncap - p->name_prio_cap);
		p->name_prio = n;
		p->name_prio_cap = ncap;
	}
	if (p->name_prio[utid] > prio)
		return;
	tt_storage_thread_set_name(p->st, utid, name);
	p->name_prio[utid] = (uint8_t)prio;
}
