/*
 * process_tracker.h - processes and threads of an import: which upid a pid
 * names and which utid a (pid, tid) or a tid names, as trace processor's
 * process tracker decides it (main threads, reused ids, the idle rows).
 * The rows themselves are storage's (tt_storage_process_append,
 * tt_storage_thread_append and the column setters); this module keeps the
 * lookup maps and the rules. One per import (tt_import.procs).
 */
#ifndef TT_PROCESS_TRACKER_H
#define TT_PROCESS_TRACKER_H

#include <stdint.h>
#include "storage.h"

typedef struct tt_process_tracker tt_process_tracker;

/* NULL when out of memory. */
tt_process_tracker *tt_process_tracker_new(tt_storage *st);
void tt_process_tracker_free(tt_process_tracker *p);

/* Get-or-create the process with this pid; returns its upid. */
uint32_t tt_process_tracker_process(tt_process_tracker *p, int64_t pid);
/* Get-or-create the thread (pid, tid); creates the process too. pid may be
 * -1 when unknown (the thread then has upid TT_NONE until
 * tt_process_tracker_thread_set_pid). Returns its utid. */
uint32_t tt_process_tracker_thread(tt_process_tracker *p, int64_t pid, int64_t tid);
/* From now on a new process gets its main thread (tid = pid) at once, as
 * trace processor's process tracker makes it (JSON and Perfetto imports;
 * CTF follows babeltrace2 and has only the threads it saw). */
void tt_process_tracker_main_threads(tt_process_tracker *p, int on);
/* Reserves upid 0 / utid 0 (pid 0, tid 0) as trace processor does, before
 * any other row; with pid_zero_is_idle (Perfetto system traces) pid 0 and
 * tid 0 are these rows and the thread is named "swapper", otherwise a
 * pid 0 gets rows of its own. -1 when out of memory. */
int tt_process_tracker_idle_rows(tt_process_tracker *p, int pid_zero_is_idle);
/* A new process (thread) even when one with this pid ((pid, tid)) exists:
 * the id was reused; later lookups find the new one. */
uint32_t tt_process_tracker_process_new(tt_process_tracker *p, int64_t pid);
/* Get-or-create the process with this pid (reused: a new one even when
 * one exists) without its main thread, whatever tt_process_tracker_
 * main_threads says: trace processor's GetOrCreateProcessWithoutMainThread,
 * for a generic kernel's process tree, which lists the threads itself. */
uint32_t tt_process_tracker_process_bare(tt_process_tracker *p, int64_t pid, int reused);
uint32_t tt_process_tracker_thread_new(tt_process_tracker *p, int64_t pid, int64_t tid);
/* Finds a thread by tid alone (the last one created); TT_NONE if none. */
uint32_t tt_process_tracker_thread_by_tid(const tt_process_tracker *p, int64_t tid);
/* Moves the thread to the process of pid (made when new); later lookups
 * of (pid, tid) find it. */
void tt_process_tracker_thread_set_pid(tt_process_tracker *p, uint32_t utid, int64_t pid);

/* Where a thread's name comes from, as trace processor ranks the sources
 * (its ThreadNamePriority): a name replaces one of lower or equal rank,
 * never a higher one. A JSON thread_name (OTHER) does not rename a
 * thread ftrace named; ftrace's 15-byte comm does not shorten a track
 * descriptor's name. */
enum tt_thread_name_prio {
	TT_TN_OTHER = 0,        /* JSON metadata, a string tid */
	TT_TN_FTRACE,           /* ftrace comms, systrace task names */
	TT_TN_PROCESS_TREE,     /* the process tree's threads */
	TT_TN_THREAD_TYPE,      /* a track event's thread_name metadata */
	TT_TN_DESCRIPTOR,       /* a thread descriptor */
	TT_TN_CONSTANT          /* the importer's own ("swapper") */
};
/* Names the thread unless its name came from a higher rank; name 0 or
 * utid TT_NONE: nothing. A thread made anew (a reused tid) starts at
 * OTHER. */
void tt_process_tracker_thread_name(tt_process_tracker *p, uint32_t utid, tt_str name, enum tt_thread_name_prio prio);

#endif
