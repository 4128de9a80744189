/*
 * storage.h - the columnar, append-only trace storage: row appends, column
 * setters and getters, interning. Which row an event means (processes,
 * threads, tracks, arg sets kept once, open slices) is decided by the
 * trackers of core/import/ (*_tracker.h), which call these functions.
 * Importers and trackers never touch a column directly (storage_int.h is
 * for storage and the SQL virtual tables).
 *
 * Units: every timestamp and duration is int64 nanoseconds. Ids are the row
 * index in their table (slice id 7 is the 8th slice ever appended).
 *
 * Ownership: the storage owns every string it interns and every row. Ids
 * returned here stay valid until tt_storage_free().
 *
 * Errors: functions returning a row id return -1 (int64) or UINT32_MAX
 * (uint32) only when memory ran out; tt_storage_oom() then says so and the
 * importer should stop with TT_ENOMEM.
 */
#ifndef TT_STORAGE_H
#define TT_STORAGE_H

#include <stdint.h>
#include <stddef.h>

#include "stats.h"
#include "strpool.h"

typedef struct tt_storage tt_storage;

#define TT_NONE UINT32_MAX /* "no utid / upid / track / arg set" */

tt_storage *tt_storage_new(void);
void tt_storage_free(tt_storage *st);
int tt_storage_oom(const tt_storage *st);
/* A tracker's own allocation failed: the import stops with TT_ENOMEM. */
void tt_storage_set_oom(tt_storage *st);

/* ---- strings ---------------------------------------------------------- */
tt_str tt_storage_intern(tt_storage *st, const char *s, size_t len);
tt_str tt_storage_intern_cstr(tt_storage *st, const char *s);
const char *tt_storage_str(const tt_storage *st, tt_str id);

/* ---- stats ------------------------------------------------------------ */
void tt_storage_stat_add(tt_storage *st, tt_stat s, int64_t n);
int64_t tt_storage_stat_get(const tt_storage *st, tt_stat s);
/* A stat set to a value the trace gives (trace processor's SetStats);
 * an indexed one (tt_stat_indexed) per index, a row each. */
void tt_storage_stat_set(tt_storage *st, tt_stat s, int64_t v);
void tt_storage_stat_set_indexed(tt_storage *st, tt_stat s, int32_t idx, int64_t v);
/* The indexed rows set, in (stat, idx) order: row r's stat, index and
 * value. */
size_t tt_storage_stat_indexed_count(const tt_storage *st);
tt_stat tt_storage_stat_indexed_row(const tt_storage *st, size_t r, int32_t *idx, int64_t *value);
/* Adds n to s and to the count of what was skipped by name ("phase 'Z'",
 * "TracePacket field 99", "TSDL attribute foo"), so that `stats_detail`
 * and `termtrace info` say what was not imported, not only how often. */
void tt_storage_stat_named(tt_storage *st, tt_stat s, const char *name, int64_t n);

/* ---- processes and threads -------------------------------------------
 * Rows only: which pid / tid a row stands for (get-or-create, main
 * threads, reused ids) is core/import/process_tracker.h's. */
/* A process row for pid (other columns unset); returns its upid. */
uint32_t tt_storage_process_append(tt_storage *st, int64_t pid);
/* A thread row for tid in process upid (TT_NONE: not known yet). */
uint32_t tt_storage_thread_append(tt_storage *st, int64_t tid, uint32_t upid);
uint32_t tt_storage_process_count(const tt_storage *st);
uint32_t tt_storage_thread_count(const tt_storage *st);
/* Reserves upid 0 / utid 0 (pid 0, tid 0), trace processor's idle rows,
 * when no process or thread exists yet. -1 when out of memory. */
int tt_storage_idle_rows(tt_storage *st);
void tt_storage_process_set_name(tt_storage *st, uint32_t upid, tt_str name);
void tt_storage_process_set_parent(tt_storage *st, uint32_t upid, uint32_t parent_upid);
void tt_storage_process_set_sort_index(tt_storage *st, uint32_t upid, int64_t idx);
void tt_storage_process_set_cmdline(tt_storage *st, uint32_t upid, tt_str cmdline);
void tt_storage_process_set_uid(tt_storage *st, uint32_t upid, int64_t uid);
uint32_t tt_storage_process_parent(const tt_storage *st, uint32_t upid);
int64_t tt_storage_process_pid(const tt_storage *st, uint32_t upid);
tt_str tt_storage_process_cmdline(const tt_storage *st, uint32_t upid);
/* Non-zero when the process has a start_ts. */
int tt_storage_process_start(const tt_storage *st, uint32_t upid);
void tt_storage_process_set_start(tt_storage *st, uint32_t upid, int64_t ts);
tt_str tt_storage_process_name(const tt_storage *st, uint32_t upid);
tt_str tt_storage_thread_name(const tt_storage *st, uint32_t utid);
/* process.arg_set_id / thread.arg_set_id (TT_NONE: none); adding args
 * to them (merged, the new keys winning) is
 * tt_args_tracker_add_to_process / _thread (core/import/args_tracker.h). */
void tt_storage_process_set_arg_set(tt_storage *st, uint32_t upid, uint32_t arg_set_id);
uint32_t tt_storage_process_arg_set(const tt_storage *st, uint32_t upid);
void tt_storage_thread_set_arg_set(tt_storage *st, uint32_t utid, uint32_t arg_set_id);
uint32_t tt_storage_thread_arg_set(const tt_storage *st, uint32_t utid);
/* The sort index hints (TT_TS_NONE: none). */
int64_t tt_storage_process_sort_index(const tt_storage *st, uint32_t upid);
int64_t tt_storage_thread_sort_index(const tt_storage *st, uint32_t utid);
/* Widens [start_ts, end_ts] of the process to include ts. */
void tt_storage_process_seen(tt_storage *st, uint32_t upid, int64_t ts);

int64_t tt_storage_thread_tid(const tt_storage *st, uint32_t utid);
void tt_storage_thread_set_upid(tt_storage *st, uint32_t utid, uint32_t upid);
void tt_storage_thread_set_name(tt_storage *st, uint32_t utid, tt_str name);
void tt_storage_thread_set_sort_index(tt_storage *st, uint32_t utid, int64_t idx);
void tt_storage_thread_seen(tt_storage *st, uint32_t utid, int64_t ts);
uint32_t tt_storage_thread_upid(const tt_storage *st, uint32_t utid);
/* thread.start_ts (end 0) or end_ts (end 1) as the trace says it (trace
 * processor's StartNewThread / EndThread), in ns. */
void tt_storage_thread_set_life(tt_storage *st, uint32_t utid, int end, int64_t ts);
/* A process's end_ts (its main thread ended). */
void tt_storage_process_set_end(tt_storage *st, uint32_t upid, int64_t ts);
/* thread.is_main_thread and is_idle as the trace says them (a generic
 * kernel's process tree); unset, is_main_thread is tid == its process's
 * pid and is_idle only the reserved idle thread. */
void tt_storage_thread_set_kind(tt_storage *st, uint32_t utid, int is_main, int is_idle);

/* ---- tracks ------------------------------------------------------------
 * type strings follow Perfetto's track classification loosely:
 *   "thread"     slices of one thread (utid set)
 *   "process"    async slices scoped to a process (upid set)
 *   "global"     async/custom slices with no owner
 *   "counter"    counter samples; utid/upid may scope it
 *   "cpu"        per-CPU data (sched, raw)
 *   "annotation" tracks built by metrics
 */
typedef struct tt_track_desc {
	const char *type;     /* required, see above */
	tt_str name;          /* 0 = unnamed */
	uint32_t utid;        /* TT_NONE when not thread-scoped */
	uint32_t upid;        /* TT_NONE when not process-scoped */
	uint32_t parent_id;   /* TT_NONE when top-level */
	int is_counter;
	tt_str unit;          /* counters: "ns", "count", "bytes", ... or 0 */
	tt_str description;   /* 0 = none */
	int64_t cpu;          /* -1 unless a cpu track */
} tt_track_desc;

/* Appends a new track; returns its id. Which track an importer's event
 * goes on (a thread's track, keyed tracks) is core/import/track_tracker.h's;
 * annotations and tests append their own. */
uint32_t tt_storage_track_new(tt_storage *st, const tt_track_desc *d);
void tt_storage_track_set_name(tt_storage *st, uint32_t track, tt_str name);
uint32_t tt_storage_track_upid(const tt_storage *st, uint32_t track);
uint32_t tt_storage_track_utid(const tt_storage *st, uint32_t track);
/* track.source_arg_set_id: what the trace said about the track (TT_NONE
 * until set). */
void tt_storage_track_set_source_args(tt_storage *st, uint32_t track, uint32_t arg_set_id);
uint32_t tt_storage_track_source_args(const tt_storage *st, uint32_t track);
/* track.dimension_arg_set_id: what tells the track apart from its
 * siblings, as trace processor's track blueprints name it (utid, upid,
 * track_uuid, merge keys, track_compressor_idx, ...). A "thread" track
 * given none gets {utid} at finalize. */
void tt_storage_track_set_dimension_args(tt_storage *st, uint32_t track, uint32_t arg_set_id);
uint32_t tt_storage_track_dimension_args(const tt_storage *st, uint32_t track);
uint32_t tt_storage_track_count(const tt_storage *st);

/* ---- args ---------------------------------------------------------------
 * An arg set's rows are appended between tt_storage_args_begin() and
 * the end of the set; rows of one set are contiguous. Only one set can
 * be under construction at a time. key is the full key (`a.b[0].c`);
 * flat_key is derived by dropping the `[n]` indices. During an import the
 * set is ended by tt_args_tracker_end (core/import/args_tracker.h), which
 * keeps identical sets once; tt_storage_args_store stores it as a new set
 * (annotations, tests, the args tracker itself; named apart so that an
 * importer cannot end a set by the old name and silently skip that). */
void tt_storage_args_begin(tt_storage *st);
void tt_storage_args_int(tt_storage *st, const char *key, int64_t v);
void tt_storage_args_uint(tt_storage *st, const char *key, uint64_t v);
void tt_storage_args_bool(tt_storage *st, const char *key, int v);
void tt_storage_args_real(tt_storage *st, const char *key, double v);
void tt_storage_args_str(tt_storage *st, const char *key, const char *s, size_t len);
void tt_storage_args_pointer(tt_storage *st, const char *key, uint64_t v);
void tt_storage_args_json(tt_storage *st, const char *key, const char *s, size_t len);
void tt_storage_args_null(tt_storage *st, const char *key);
/* The same with the key interned already (an importer that keeps its
 * keys): type is TT_ARG_* | TT_ARG_INDEXED when the key holds [n]; the
 * value is i (ints, bools as 0/1, pointers), d (reals) or s (strings). */
void tt_storage_args_keyed(tt_storage *st, tt_str key, int type, int64_t i, double d, tt_str s);
/* set was replaced by another (a copy with more args): if no row holds it
 * at the end, its rows are not in the args table, as a merged set's. */
void tt_storage_args_replaced(tt_storage *st, uint32_t set);
/* The value of set's uint arg key (1), or 0 when it has none. */
int tt_storage_args_uint_of(const tt_storage *st, uint32_t set, tt_str key, uint64_t *v);
/* Copies every row of an existing set into the set under construction. */
void tt_storage_args_copy(tt_storage *st, uint32_t arg_set_id);
/* Stores the rows under construction as a new set and returns its id;
 * TT_NONE (SQL NULL) for an empty set or when none is under construction. */
uint32_t tt_storage_args_store(tt_storage *st);
/* The rows under construction: their count (0 when none), and with hash
 * a hash of their keys, types and values; tt_storage_args_set_hash gives
 * the same hash for a stored set with the same rows. */
size_t tt_storage_args_building(const tt_storage *st, uint64_t *hash);
uint64_t tt_storage_args_set_hash(const tt_storage *st, uint32_t arg_set_id);
/* Non-zero when the rows under construction are those of the stored set
 * arg_set_id (same keys, types and values, in order). */
int tt_storage_args_building_is(const tt_storage *st, uint32_t arg_set_id);
/* Ends the set under construction without storing it (its rows go). */
void tt_storage_args_discard(tt_storage *st);
/* begin's rows, each with end's value where end has its key (updated in
 * place, as trace processor's args tracker), then end's rows with new keys
 * (the end of a slice wins over its beginning). Returns a new set, or the
 * other set when one is TT_NONE. Lazy sets stay lazy: the new set is
 * decoded when read. */
uint32_t tt_storage_args_merge(tt_storage *st, uint32_t begin, uint32_t end);
/* The same in two steps: returns 1 when it began a set holding the merged
 * rows (both sets are stored), which the caller ends; else 0 with *set the
 * result (a lazy merged set, one of the two, or TT_NONE). */
int tt_storage_args_merge_begin(tt_storage *st, uint32_t begin, uint32_t end, uint32_t *set);
/* In a merge, rows with this key keep begin's value (trace processor's
 * kSkipIfExists args). At most 4 keys. */
void tt_storage_args_keep_first(tt_storage *st, const char *key);
/* Whether args row `row` belongs to a set a merge replaced and no row
 * owns (hidden from the args table; known after tt_storage_finalize). */
int tt_storage_arg_row_dead(const tt_storage *st, size_t row);

/* ---- lazy args ----------------------------------------------------------
 * An importer that can decode an event again registers its arg set by where
 * the event lives (loc, a 64-bit locator only the importer understands)
 * instead of writing its rows. Readers cannot tell: the rows are decoded
 * the first time anything reads the set (argset rows, the args table, a
 * merge), and arg_set_id and args row ids are those an eager import gives,
 * because the row count is fixed when the set is registered.
 *
 * decode(ctx, st, loc) writes the set's rows with the tt_storage_args_*()
 * value calls above, in order, without begin/end; for a set registered
 * with a shape the key argument is ignored (the shape's keys are used). It
 * returns 0, or -1 when the event cannot be decoded any more: missing rows
 * then read as nulls. The storage owns ctx: free_ctx(ctx) runs in
 * tt_storage_free(), or once a full read left no lazy set. */
typedef struct tt_args_decoder {
	int (*decode)(void *ctx, tt_storage *st, uint64_t loc);
	void (*free_ctx)(void *ctx);
} tt_args_decoder;
/* Installs the decoder (once, before the first lazy set). Returns 0, or -1
 * when memory ran out (ctx is then freed with free_ctx). */
int tt_storage_args_decoder(tt_storage *st, const tt_args_decoder *dec, void *ctx);
/* The key list of many sets, interned once (an event class's fields).
 * Returns a shape id, TT_NONE when memory ran out. */
uint32_t tt_storage_args_shape(tt_storage *st, const tt_str *keys, size_t n);
/* Registers a lazy set of nrows rows. shape: its keys (nrows must be the
 * shape's count), or TT_NONE when only decoding tells them. Returns the
 * arg_set_id; TT_NONE for an empty set, without a decoder, while a set is
 * under construction, or when memory ran out. */
uint32_t tt_storage_args_lazy(tt_storage *st, uint64_t loc, uint32_t shape, size_t nrows);

/* ---- counters, flows, raw events, scheduling -------------------------- */
int64_t tt_storage_counter(tt_storage *st, uint32_t track, int64_t ts, double value);
/* A counter row's track, when it is known only later (a thread's process
 * counter: trace processor's pending upid resolution); before finalize. */
void tt_storage_counter_set_track(tt_storage *st, int64_t row, uint32_t track);
/* A counter row's value set again (a GPU counter's backwards-looking
 * sample: its value is the interval's that ends at the next row). */
void tt_storage_counter_set_value(tt_storage *st, int64_t row, double value);
/* A counter row's arg set (most have none: TT_NONE), set once the row
 * exists; kept apart from the row, since few counters have args. */
void tt_storage_counter_set_args(tt_storage *st, int64_t row, uint32_t arg_set_id);
uint32_t tt_storage_counter_args(const tt_storage *st, size_t row);
/* A flow link; trace_id: the flow's id in the flow tracker (a trace's
 * raw id, or a v1 flow's number), shown as int64 (trace processor's). */
int64_t tt_storage_flow(tt_storage *st, int64_t slice_out, int64_t slice_in, uint64_t trace_id,
			uint32_t arg_set_id);
/* A flow linked directly (binder's transaction to its receipt: trace
 * processor's FlowTracker::InsertFlow without an id): trace_id NULL. */
int64_t tt_storage_flow_link(tt_storage *st, int64_t slice_out, int64_t slice_in);
/* Zero when the flow row was linked directly. */
int tt_storage_flow_has_id(const tt_storage *st, size_t row);
/* A row of experimental_proto_path (trace processor's proto content
 * analyzer): a field path step, its parent step (TT_NONE: a root), the
 * field's type and name (0: none), and args (the root's annotations). */
int64_t tt_storage_proto_path(tt_storage *st, uint32_t parent_id, tt_str field_type, tt_str field_name,
			      uint32_t arg_set_id);
/* A row of clock_snapshot: clock clock_id read clock_value (ns) at trace
 * time ts, in the snapshot_id-th ClockSnapshot; name: the builtin clock's
 * name, 0 for others. */
int64_t tt_storage_clock_snapshot(tt_storage *st, int64_t ts, int64_t clock_id, int64_t clock_value, tt_str name,
				  uint32_t snapshot_id);
/* A raw event (CTF/ftrace): cpu -1 when unknown, utid TT_NONE when unknown. */
int64_t tt_storage_raw(tt_storage *st, int64_t ts, tt_str name, int64_t cpu,
		       uint32_t utid, uint32_t arg_set_id);
/* A raw row's ftrace common_flags (only compact wakings have them in
 * trace processor; the others: TT_NONE, NULL). */
void tt_storage_raw_set_common_flags(tt_storage *st, int64_t row, uint16_t flags);
uint32_t tt_storage_raw_common_flags(const tt_storage *st, size_t row);
/* sched_slice: a thread ran on cpu for [ts, ts+dur); end_state is the
 * kernel's state letter(s) when it was switched out ("R", "S", "D", ...). */
int64_t tt_storage_sched(tt_storage *st, int64_t ts, int64_t dur, int64_t cpu,
			 uint32_t utid, tt_str end_state, int64_t priority);
/* The `cpu` table's row (ucpu) of a CPU number, added when new. */
uint32_t tt_storage_cpu(tt_storage *st, int64_t cpu);
/* What a CpuInfo packet says of the cpu row ucpu: its cluster, processor
 * (0: leave as is), capacity (-1: leave as is) and arg set (TT_NONE:
 * none). A ucpu not in the table is ignored. */
void tt_storage_cpu_info(tt_storage *st, uint32_t ucpu, uint32_t cluster_id, tt_str processor, int64_t capacity,
			 uint32_t arg_set_id);
/* One of the frequencies (kHz) cpu row ucpu can run at
 * (cpu_available_frequencies). Returns 0, -1 out of memory. */
int tt_storage_cpu_freq(tt_storage *st, uint32_t ucpu, uint32_t khz);
/* An installed game's modes (__intrinsic_android_game_intervention_list):
 * per mode (standard, performance, battery) whether the game has it and
 * then its resolution downscale, use of ANGLE and fps. */
typedef struct tt_game_mode {
	int supported;
	double downscale, fps;
	int use_angle;
} tt_game_mode;
typedef struct tt_game_row {
	tt_str package;
	int64_t uid;
	int32_t current_mode;
	tt_game_mode mode[3];
} tt_game_row;
/* Appends a game's row (copied). 0, -1 out of memory. */
int tt_storage_game(tt_storage *st, const tt_game_row *row);
/* An Android user (__intrinsic_android_user_list): a new row, or the
 * type of the row of that user id replaced. 0, -1 out of memory. */
int tt_storage_android_user(tt_storage *st, int64_t user_id, tt_str type);
/* An Android aconfig flag as a snapshot at ts saw it: its package, name,
 * namespace, container, value, staged value (0: none), permission, where
 * the value came from, storage backend and type, in that order (the
 * columns of __intrinsic_android_aflags). 0, -1 out of memory. */
#define TT_AFLAG_COLS 10
int tt_storage_aflag(tt_storage *st, int64_t ts, const tt_str col[TT_AFLAG_COLS]);
/* Android's cpu time of a uid on a cluster over the trace (ms), its
 * counter track (__intrinsic_android_cpu_per_uid_track). 0, -1 out of
 * memory. */
int tt_storage_cpu_per_uid(tt_storage *st, uint32_t track, int64_t uid, int64_t cluster, int64_t total_ms);
/* thread_state: utid was in state from ts for dur; cpu -1 when not running. */
int64_t tt_storage_thread_state(tt_storage *st, int64_t ts, int64_t dur, int64_t cpu,
				uint32_t utid, tt_str state);
/* One occurrence of a stat with its details (an arg set), trace
 * processor's _trace_import_logs; the stat itself is counted apart. */
int64_t tt_storage_import_log(tt_storage *st, tt_stat stat, int64_t ts, uint32_t arg_set_id);
/* One found while tokenizing: no ts, the byte offset in the file where
 * it was (TT_TS_NONE: unknown), as trace processor's tokenization logs. */
int64_t tt_storage_import_log_at(tt_storage *st, tt_stat stat, int64_t byte_offset, uint32_t arg_set_id);
/* A thread_state row's io_wait (TT_TS_NONE: unknown) and blocked_function. */
void tt_storage_thread_state_blocked(tt_storage *st, int64_t row, int64_t io_wait, tt_str function);
/* A thread_state row's waker: the thread that woke it (TT_NONE: none),
 * that thread's running thread_state row (TT_NONE: none) and whether the
 * waking came from an interrupt (1), not (0) or unknown (-1). */
void tt_storage_thread_state_waker(tt_storage *st, int64_t row, uint32_t waker_utid, uint32_t waker_id,
				   int irq_context);
/* spurious_sched_wakeup: at ts, waker_utid woke utid, which was already
 * running or runnable in thread_state row tstate_id (irq_context as
 * above). Returns the row, -1 out of memory. */
int64_t tt_storage_spurious_wakeup(tt_storage *st, int64_t ts, uint32_t tstate_id, int irq_context, uint32_t utid,
				   uint32_t waker_utid);
/* state (Perfetto's state table): track holds value from ts until the next
 * value (tt_storage_state_end sets dur; -1 while it lasts). Returns the row. */
int64_t tt_storage_state(tt_storage *st, int64_t ts, uint32_t track, tt_str cat, tt_str value,
			 uint32_t arg_set_id);
void tt_storage_state_end(tt_storage *st, int64_t id, int64_t ts);
/* A state row's arg_set_id (adding args to it: tt_args_tracker_add_to_state). */
void tt_storage_state_set_arg_set(tt_storage *st, int64_t id, uint32_t arg_set_id);
uint32_t tt_storage_state_arg_set(const tt_storage *st, int64_t id);

/* ---- slices: see slice_tracker.h for begin/end nesting ----------------- */
/* Low-level append used by the tracker; importers use slice_tracker.h. */
int64_t tt_storage_slice_append(tt_storage *st, uint32_t track, int64_t ts, int64_t dur,
				tt_str cat, tt_str name, uint32_t depth, int64_t parent_id,
				uint32_t arg_set_id);
void tt_storage_slice_set_dur(tt_storage *st, int64_t id, int64_t dur);
void tt_storage_slice_set_args(tt_storage *st, int64_t id, uint32_t arg_set_id);
void tt_storage_slice_set_thread_time(tt_storage *st, int64_t id, int64_t thread_ts, int64_t thread_dur);
/* The slice's thread_ts, TT_TS_NONE when it has none. */
int64_t tt_storage_slice_thread_ts(const tt_storage *st, int64_t id);
int64_t tt_storage_slice_ts(const tt_storage *st, int64_t id);
int64_t tt_storage_slice_dur(const tt_storage *st, int64_t id);
uint32_t tt_storage_slice_track(const tt_storage *st, int64_t id);
tt_str tt_storage_slice_name(const tt_storage *st, int64_t id);
uint32_t tt_storage_slice_args(const tt_storage *st, int64_t id);
int64_t tt_storage_slice_count(const tt_storage *st);

/* ---- rows ahead --------------------------------------------------------
 * A feed that knows about how many slices or counters it will append
 * (a Perfetto read-buffer flush) makes room for them first, so that their
 * columns do not move while it appends, and has another thread make
 * those rows' pages resident meanwhile (the first write of each page is
 * a page fault, about 2 us here: 5.7k of them in the feeds of the
 * Chromium class). The populate is of the pages only, never the bytes,
 * so the appends may go on at the same time. */
#define TT_STORAGE_AHEAD_COLS 12
typedef struct tt_storage_ahead {
	struct {
		void *base;
		size_t esz;
	} col[TT_STORAGE_AHEAD_COLS];
	size_t ncol;
	size_t from, to; /* the rows: [from, to) */
} tt_storage_ahead;
/* Room for `more` rows past the last, and their place into a (more 0:
 * nothing to populate). 0, -1 when memory ran out. */
int tt_storage_slices_ahead(tt_storage *st, size_t more, tt_storage_ahead *a);
int tt_storage_counters_ahead(tt_storage *st, size_t more, tt_storage_ahead *a);
/* (args: the rows of the sets kept) */
int tt_storage_args_ahead(tt_storage *st, size_t more, tt_storage_ahead *a);
size_t tt_storage_args_rows(const tt_storage *st);
/* Rows [from, to) of a (clipped to a's) made resident; any thread, while
 * the table grows no more than a said. */
void tt_storage_ahead_populate(const tt_storage_ahead *a, size_t from, size_t to);
int64_t tt_storage_counter_count(const tt_storage *st);

/* ---- machines ----------------------------------------------------------
 * A trace recorded on another machine (Perfetto's machine_id on every
 * packet): the processes, threads and tracks made so far get machine_id 0,
 * the row of raw_id in the `machine` table. One machine per trace. */
void tt_storage_machine(tt_storage *st, int64_t raw_id);
/* machine_id of a row of process ('p'), thread ('t') or track ('k'), TT_NONE for the host. */
uint32_t tt_storage_machine_of(const tt_storage *st, int table, size_t row);

/* ---- metadata (the `metadata` table: trace-wide key/values) ----------- */
void tt_storage_meta_str(tt_storage *st, const char *key, const char *value);
void tt_storage_meta_int(tt_storage *st, const char *key, int64_t value);
/* An Android log line (logcat): its thread (TT_NONE: none), priority
 * (3 debug .. 6 error), tag and message (0: NULL). */
void tt_storage_log(tt_storage *st, int64_t ts, uint32_t utid, uint32_t prio, tt_str tag, tt_str msg);
/* An Android package (its name, uid, debuggable, profileable from the
 * shell, version code). */
/* The ugpu (row of trace processor's gpu table) of the device's GPU
 * index gpu, made at its first mention; TT_NONE out of memory. */
uint32_t tt_storage_gpu(tt_storage *st, uint32_t gpu);
/* What GpuInfo says of ugpu (each 0: kept as it was). */
typedef struct tt_gpu_info {
	tt_str name, vendor, model, arch, uuid, pci_bdf;
	uint32_t arg_set_id; /* TT_NONE: kept */
} tt_gpu_info;
void tt_storage_gpu_info(tt_storage *st, uint32_t ugpu, const tt_gpu_info *info);
/* A graphics context's row (pid INT64_MIN, api 0: NULL). */
void tt_storage_gpu_context(tt_storage *st, uint64_t context_id, int64_t pid, tt_str api);
/* A GPU counter track's group (a gpu_counter_group row; name, desc 0: NULL). */
void tt_storage_gpu_group(tt_storage *st, int64_t group_id, uint32_t track, tt_str name, tt_str desc);
void tt_storage_package(tt_storage *st, tt_str name, int64_t uid, int debuggable, int profileable, int64_t version_code);
/* One more value of a key that holds several (key_type 'multi'). */
void tt_storage_meta_append_str(tt_storage *st, const char *key, const char *value);
void tt_storage_meta_append_int(tt_storage *st, const char *key, int64_t value);

/* ---- end of import ------------------------------------------------------
 * Builds the indexes (per-track slice lists, sort flags, trace bounds).
 * Must be called once after an importer finished and before SQL; appends
 * after it (annotations) are allowed and call it again. */
void tt_storage_finalize(tt_storage *st);

#define TT_TS_NONE INT64_MIN /* an absent timestamp column value (SQL NULL) */

/* The type of an arg value (args.value_type). Importers that keep args
 * before storing them (JSON batches) tag them with it. */
enum tt_arg_type {
	TT_ARG_INT, TT_ARG_UINT, TT_ARG_STRING, TT_ARG_REAL, TT_ARG_BOOL,
	TT_ARG_POINTER, TT_ARG_JSON, TT_ARG_NULL
};
#define TT_ARG_INDEXED 0x80 /* flag in args.type: the key holds [n] indices */
#define TT_ARG_TYPE(t) ((t) & 0x7f)

#endif
