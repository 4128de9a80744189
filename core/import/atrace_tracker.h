/*
 * atrace_tracker.h - atrace markers (atrace.h parses them) stored as
 * trace processor's systrace parser stores them, for every importer that
 * meets them: Perfetto ftrace print and the kernel drivers' marks,
 * systrace text in JSON traces. Markers come in trace order (after the
 * sorter): the threads and processes they name come and go.
 *
 * What goes where:
 *   B / E / I    slices on the writing thread (tgid 0: the tid's live
 *                thread, else the tid made a thread of process tgid);
 *                a "lmk,pid,reason,adj" begin also sets the killed
 *                process's oom_score_adj and makes an LMK instant
 *   C            a counter of process tgid (type atrace_counter, the
 *                writer a `utid` arg of the value); ScreenState,
 *                battery_stats.* and kill_one_process as trace processor
 *                keeps them (screen_state, battery_stats, android_lmk)
 *   S / F        async slices on atrace_async_slice lanes of (process,
 *                name), a begin while one is open only counted
 *                (legacy_unnestable_begin_count / _last_begin_ts)
 *   N / G / H    instants and async slices on named tracks of the process
 *                (atrace_async_slice_for_track; utid / end_utid args);
 *                N "DeviceStateChanged" on android_device_state
 *
 * An importer tells how it finds threads through tt_task_lookup (its
 * ftrace process tracking: a tid's live thread, a tid bound to a
 * process).
 */
#ifndef TT_ATRACE_TRACKER_H
#define TT_ATRACE_TRACKER_H

#include <stdint.h>

#include "import_int.h"

/* A format's view of tasks as ftrace names them. */
typedef struct tt_task_lookup {
	void *ctx;
	/* The tid's live thread, made (with no process) when none. */
	uint32_t (*thread)(void *ctx, int64_t tid);
	/* trace processor's UpdateThread(tid, pid): the tid's thread bound to
	 * process pid (made when new). */
	uint32_t (*thread_in)(void *ctx, int64_t pid, int64_t tid);
	/* The tid's live thread, TT_NONE when none. */
	uint32_t (*thread_or_none)(void *ctx, int64_t tid);
	/* The process of pid, made when new. */
	uint32_t (*process)(void *ctx, int64_t pid);
} tt_task_lookup;

/* One marker, its strings interned (0: none). value: C's value, the
 * cookie of S F G H. */
typedef struct tt_atrace_mark {
	int64_t ts, tid;
	uint32_t tgid;
	char phase;
	tt_str name, track;
	int64_t value;
} tt_atrace_mark;

typedef struct tt_atrace_tracker tt_atrace_tracker;

/* NULL when out of memory. tasks is copied. */
tt_atrace_tracker *tt_atrace_tracker_new(tt_import *im, const tt_task_lookup *tasks);
void tt_atrace_tracker_free(tt_atrace_tracker *t);
/* Stores one marker; -1 when out of memory. */
int tt_atrace_tracker_mark(tt_atrace_tracker *t, const tt_atrace_mark *m);

/* The text of an ftrace print (an atrace marker, its invalid UTF-8
 * dropped first) into *m (ts and tid left as given); its strings are
 * interned. Returns TT_ATRACE_OK, TT_ATRACE_UNSUPPORTED (nothing to
 * store), TT_ATRACE_BAD (counted as systrace_parse_failure here) or -2
 * when out of memory. */
int tt_atrace_tracker_read(tt_storage *st, const char *text, size_t len, tt_atrace_mark *m);

/* A track's dimension args (the keys of trace processor's blueprint for
 * it, in its order) go between these: begin returns 0 when track has its
 * set already (a keyed track met again) or is none; end keeps the set
 * through the import's args tracker, so identical sets are kept once. */
int tt_import_dims_begin(tt_import *im, uint32_t track);
void tt_import_dims_end(tt_import *im, uint32_t track);
/* A counter track of blueprint type keyed by (kind, a, b, name), with the
 * blueprint's dimensions: the cpu (cpu >= 0), the process (upid), then
 * the string dimension key = val (key not NULL). trace processor's
 * blueprints for these give no unit. */
uint32_t tt_import_keyed_counter(tt_import *im, const char *kind, uint64_t a, uint64_t b, tt_str name,
				 const char *type, uint32_t upid, int64_t cpu, const char *key, const char *val);
/* A slice or counter track of one of trace processor's Android
 * blueprints (type): no dimension, or the process (upid), or the string
 * one key = keyval. A counter with a keyval is named by it, other tracks
 * by name. Shared by atrace markers and Perfetto's system properties
 * (screen_state "ScreenState", battery_stats, android_device_state
 * "DeviceStateChanged", android_lmk "LMK"). */
uint32_t tt_import_android_track(tt_import *im, const char *type, const char *name, uint32_t upid, const char *key,
				 tt_str keyval, int counter);
/* A process's oom_score_adj counter (trace processor's one blueprint for
 * process stats and lmkd's kills alike). */
uint32_t tt_import_oom_score_track(tt_import *im, uint32_t upid);

/* The kernel's counters, as ftrace gives them in a Perfetto trace and in
 * systrace text alike (trace processor's blueprints):
 * a cpu's counter of blueprint type (cpu_frequency "cpufreq", cpu_idle
 * "cpuidle", cpu_max_frequency_limit "Cpu N Max Freq Limit", ...), key
 * telling the blueprints apart, dimension cpu; */
uint32_t tt_import_cpu_counter_track(tt_import *im, const char *type, uint64_t key, const char *name, uint32_t cpu);
/* a device's counter named "<value><suffix>" with the string dimension
 * dim = value (clock_frequency "<clk> Frequency", clock_state "<clk>
 * State", thermal_temperature "<zone> Temperature",
 * cooling_device_counter "<type> Cooling Device"). */
uint32_t tt_import_device_counter_track(tt_import *im, const char *type, const char *dim, const char *value,
					size_t n, const char *suffix);
/* GPU gpu's frequency: "gpufreq" (gpu_frequency, unit kHz), dimensions
 * ugpu (its gpu table row, made at its first mention) and gpu. */
uint32_t tt_import_gpu_freq_track(tt_import *im, uint32_t gpu);

#endif
