/*
 * systrace.h - ftrace text lines (systrace / atrace output, the
 * systemTraceEvents string of a Chrome JSON trace) into the import's
 * trackers, as trace processor's SystraceLineParser reads them.
 *
 * Two steps, as there: a line is read when the importer meets it (its
 * columns cut, systrace_line.h; kept here with its text), and parsed
 * when the importer's sorter gives it back in trace order among the
 * format's other events:
 *   - every line: its thread (the pid column, a tid's live thread) named
 *     by the task column (ftrace's priority; "<...>" names nothing),
 *     bound to the tgid column's process when there is one;
 *   - tracing_mark_write, print, 0: atrace markers (atrace_tracker.h);
 *   - cpu_frequency, cpu_idle, cpu_frequency_limits: cpu counters
 *     (cpufreq, cpuidle, "Cpu N Max/Min Freq Limit");
 *     clock_set_rate, clock_enable / clock_disable: "<clock> Frequency" /
 *     "<clock> State"; thermal_temperature: "<zone> Temperature";
 *     cdev_update: "<device> Cooling Device";
 *   - workqueue_execute_start / _end: "workqueue" slices on the thread;
 *   - rss_stat: mem.rss.file / .rss.anon / .swap / .rss.shmem ... of the
 *     thread's process (known at the end), the thread as the value's arg;
 *   - sched_switch: sched_slice and thread_state rows (sched_tracker.h)
 *     and the switch's ftrace_event row; prev_state given as letters;
 *     sched_waking: the wakee (named by its comm) runnable, woken by the
 *     line's thread; sched_blocked_reason: io_wait and the caller on the
 *     thread's last blocked state.
 * A line whose event's fields do not convert does nothing (trace
 * processor's parser returns an error nobody reads), except a marker
 * that is not one: systrace_parse_failure.
 */
#ifndef TT_SYSTRACE_H
#define TT_SYSTRACE_H

#include <stddef.h>
#include <stdint.h>

#include "import_int.h"

typedef struct tt_systrace tt_systrace;

/* Threads are found through im's process tracker. NULL when out of
 * memory. */
tt_systrace *tt_systrace_new(tt_import *im);
void tt_systrace_free(tt_systrace *s);

enum { TT_SYSTRACE_KEPT = 0, TT_SYSTRACE_SKIPPED = 1, TT_SYSTRACE_BAD = -1, TT_SYSTRACE_OOM = -2 };

/* Takes text (malloc'ed, len bytes) over: the lines then read from it
 * (tt_systrace_add) are kept where they are, not copied. 0, or -1 when
 * out of memory (text is still the caller's then). */
int tt_systrace_own(tt_systrace *s, char *text, size_t len);
/* One line (without its '\n'): TT_SYSTRACE_KEPT with its ts and the
 * number to parse it by, TT_SYSTRACE_SKIPPED for an empty or '#' line,
 * TT_SYSTRACE_BAD when it is not an ftrace line, TT_SYSTRACE_OOM. */
int tt_systrace_add(tt_systrace *s, const char *line, size_t len, int64_t *ts, uint32_t *idx);
/* Line idx (from tt_systrace_add) into the trackers, in trace order;
 * -1 when out of memory. */
int tt_systrace_parse(tt_systrace *s, uint32_t idx);
/* After the last line: writes the scheduling rows; -1 when out of
 * memory. */
int tt_systrace_finish(tt_systrace *s);
/* Lines kept so far. */
size_t tt_systrace_lines(const tt_systrace *s);

/* A systrace page's process dump (import_systrace.c), as trace
 * processor applies it when read, before any line is parsed: a process
 * (pid) named name, child of ppid's, cmdline empty; or a thread (tgid,
 * tid) of tgid's process, named as the dump says (lowest priority).
 * 0, or -1 when out of memory. */
int tt_systrace_dump_process(tt_systrace *s, int64_t pid, int64_t ppid, const char *name, size_t len);
int tt_systrace_dump_thread(tt_systrace *s, int64_t tgid, int64_t tid, const char *name, size_t len);

#endif
