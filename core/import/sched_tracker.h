/*
 * sched_tracker.h - sched_slice and thread_state rows, in trace order,
 * as trace processor's sched event and thread state trackers build them,
 * for every importer of scheduler events (Perfetto ftrace, full and
 * compact; systrace text; Perfetto's generic kernel task states, whose
 * parser decides its slices itself and gives states as text, below).
 * The importer finds the threads (its own process tracking) and names
 * them; this module decides the rows:
 *   - a cpu's slice is closed by the next switch on that cpu whose prev
 *     pid is the thread it ran (else counted as
 *     mismatched_sched_switch_tids and left open); slices and states
 *     still open at the end keep dur -1; a compact bundle's first switch
 *     on a cpu only says who runs (compact_sched_switch_skipped);
 *   - a new task is runnable from its creation, woken by the thread that
 *     made it (not from an interrupt); a waking makes a blocked thread
 *     runnable, woken by its waker, whose state row is kept when the
 *     waker was running; a waking of a thread running or runnable goes
 *     to spurious_sched_wakeup instead;
 *   - sched_blocked_reason names the thread's last blocked state's
 *     io_wait and function.
 * Rows are kept here with the raw prev_state and written by
 * tt_sched_tracker_build, when the kernel version that decodes it is
 * known (4.4 without one, as trace processor assumes).
 */
#ifndef TT_SCHED_TRACKER_H
#define TT_SCHED_TRACKER_H

#include <stddef.h>
#include <stdint.h>

#include "import_int.h"

typedef struct tt_sched_tracker tt_sched_tracker;

/* NULL when out of memory. */
tt_sched_tracker *tt_sched_tracker_new(tt_import *im);
void tt_sched_tracker_free(tt_sched_tracker *t);
/* The kernel's major.minor version (0.0: unknown, read as 4.4). */
void tt_sched_tracker_kernel(tt_sched_tracker *t, int major, int minor);

/* A switch on cpu at ts to next (next_pid, next_prio) from prev, which
 * left in prev_state (raw, as the kernel writes it). full: prev_pid and
 * prev_utid are the event's; else (a compact switch) prev is whoever
 * the cpu ran. Returns 1 for a compact switch on a cpu whose running
 * thread is unknown (counted, nothing made), 0, or -1 when out of
 * memory. */
int tt_sched_tracker_switch(tt_sched_tracker *t, int64_t ts, uint32_t cpu, int full, int64_t prev_pid,
			    uint32_t prev_utid, int64_t prev_state, int64_t next_pid, uint32_t next_utid,
			    int32_t next_prio);
/* The thread the cpu runs (its pid and prio): 0, or -1 before the cpu's
 * first switch. */
int tt_sched_tracker_running(tt_sched_tracker *t, uint32_t cpu, uint32_t *utid, int64_t *pid, int32_t *prio);
/* A switch's ftrace_event (raw) row, written by prev, with trace
 * processor's args. */
void tt_sched_tracker_raw_switch(tt_sched_tracker *t, int64_t ts, uint32_t cpu, uint32_t prev_utid,
				 tt_str prev_comm, int64_t prev_pid, int32_t prev_prio, int64_t prev_state,
				 tt_str next_comm, int64_t next_pid, int32_t next_prio);
/* A new task (utid) made by parent at ts: runnable. */
void tt_sched_tracker_new_task(tt_sched_tracker *t, int64_t ts, uint32_t utid, uint32_t parent);
/* A waking of utid by waker_utid at ts; irq: from an interrupt (1), not
 * (0), unknown (-1). */
void tt_sched_tracker_waking(tt_sched_tracker *t, int64_t ts, uint32_t utid, uint32_t waker_utid, int irq);
/* sched_blocked_reason: utid's last blocked state, if it has not run
 * since, waited on io (io_wait) in function (0: not known). */
void tt_sched_tracker_blocked(tt_sched_tracker *t, uint32_t utid, int64_t io_wait, tt_str function);
/* States given as text, as trace processor's generic kernel parser asks
 * its sched event and thread state trackers (proto_generic_kernel.c
 * decides which): "Running" and "R" are the states switches and wakings
 * make, any other text is written as it is (0: NULL).
 * A sched_slice of utid on cpu from ts, open: its index, or TT_NONE when
 * out of memory. */
uint32_t tt_sched_tracker_slice_open(tt_sched_tracker *t, int64_t ts, uint32_t cpu, uint32_t utid, int32_t prio);
/* Ends slice at ts with end_state; _slice_end: its end (ns), -1 while
 * open; _set_end_state: the end state only. */
void tt_sched_tracker_slice_close(tt_sched_tracker *t, uint32_t slice, int64_t ts, tt_str end_state);
int64_t tt_sched_tracker_slice_end(const tt_sched_tracker *t, uint32_t slice);
void tt_sched_tracker_slice_set_end_state(tt_sched_tracker *t, uint32_t slice, tt_str end_state);
/* utid's newest thread_state ends at ts and state begins (cpu -1: none;
 * the swapper has none). Returns 1 when the one it ended began at ts
 * too (trace processor counts generic_task_state_invalid_order), else 0. */
int tt_sched_tracker_push_state(tt_sched_tracker *t, int64_t ts, uint32_t utid, tt_str state, int32_t cpu);
/* utid's newest thread_state becomes state (none: nothing). */
void tt_sched_tracker_set_state(tt_sched_tracker *t, uint32_t utid, tt_str state);
/* utid's newest thread_state as text (0: none, or NULL). */
tt_str tt_sched_tracker_last_state(tt_sched_tracker *t, uint32_t utid);
/* Writes the rows (sched_slice, thread_state, spurious_sched_wakeup). */
void tt_sched_tracker_build(tt_sched_tracker *t);
/* Non-zero once out of memory. */
int tt_sched_tracker_oom(const tt_sched_tracker *t);

/* A prev_state as ftrace text writes it ("S", "D|K", "R+", ...) as the
 * raw state of a 4.4 kernel, as trace processor converts it (invalid
 * text: 0xffff). */
int64_t tt_sched_state_from_text(const char *s, size_t n);

#endif
