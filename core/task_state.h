/*
 * task_state.h - a kernel task's state as sched_switch's prev_state gives
 * it, read as trace processor's TaskState: the raw bits mean different
 * flags in different kernels, so the kernel version (major.minor; 0.0 when
 * unknown, read as 4.4 as trace processor does) decides. Shared by the
 * sched tracker (end_state, thread_state) and to_ftrace() (the text of a
 * sched_switch line).
 */
#ifndef TT_TASK_STATE_H
#define TT_TASK_STATE_H

#include <stddef.h>
#include <stdint.h>

/* Flags above the six bits every kernel shares (S D T t X Z = 1..0x20). */
enum {
	TT_TASK_PARKED = 0x40, TT_TASK_DEAD = 0x80, TT_TASK_WAKEKILL = 0x100, TT_TASK_WAKING = 0x200,
	TT_TASK_NOLOAD = 0x400, TT_TASK_IDLE = 0x4000, TT_TASK_PREEMPTED = 0x8000
};

/* The flags of raw for that kernel: 0 runnable, TT_TASK_PREEMPTED
 * runnable and preempted, -1 invalid. */
int64_t tt_task_state_flags(int64_t raw, int kv_major, int kv_minor);

/* Its letters, as the kernel's sched_switch format prints them: "R", "R+",
 * else one letter a flag (S D T t X Z P x K W N I), sep between them when
 * not 0. out holds TT_TASK_STATE_MAX bytes; returns the length (no NUL
 * written), or -1 for an invalid state. */
#define TT_TASK_STATE_MAX 32
int tt_task_state_text(int64_t raw, int kv_major, int kv_minor, char sep, char *out);

/* The kernel version of a uname release "major.minor[.anything]" on
 * Linux (major and minor whole numbers, as trace processor's
 * SystemInfoTracker reads them: "5.10-rc1" has none); -1 when sysname is
 * not Linux or the release is not so. */
int tt_task_state_kernel(const char *sysname, const char *release, int *major, int *minor);

#endif
