/*
 * memory_tracker.h - a process's memory counters from the kernel's
 * rss_stat events (ftrace in a Perfetto trace, systrace text) and its
 * oom_score_adj updates, as trace processor's RssStatTracker and
 * PushProcessCounterForThread make them:
 * the value is a counter row at once (its thread as the utid arg), on the
 * process_memory track "mem.<key>" of the thread's process, decided at
 * the end of the import (trace processor's pending upid resolution: the
 * process may be learnt later), else on the thread's own
 * process_memory_thread_fallback track. The process_memory tracks are
 * those the Perfetto importer's ProcessStats values use. One per
 * importer; format-neutral.
 */
#ifndef TT_MEMORY_TRACKER_H
#define TT_MEMORY_TRACKER_H

#include <stdint.h>

#include "import_int.h"

typedef struct tt_memory_tracker tt_memory_tracker;

tt_memory_tracker *tt_memory_tracker_new(tt_import *im);
void tt_memory_tracker_free(tt_memory_tracker *m);

/* rss_stat: member (0 rss.file, 1 rss.anon, 2 swap, 3 rss.shmem, 4
 * unreclaimable, other: unknown) of utid's process is size bytes at ts;
 * a negative size is counted (rss_stat_negative_size) and dropped.
 * -1 when out of memory. */
int tt_memory_tracker_rss(tt_memory_tracker *m, int64_t ts, uint32_t utid, int64_t member, int64_t size);

/* oom_score_adj_update: utid's process's oom_score_adj at ts (the
 * oom_score_adj track, else the thread's oom_score_adj_thread_fallback).
 * -1 when out of memory. */
int tt_memory_tracker_oom_score(tt_memory_tracker *m, int64_t ts, uint32_t utid, int64_t value);

/* Puts every value on its track (the end of the import). */
void tt_memory_tracker_finish(tt_memory_tracker *m);

#endif
