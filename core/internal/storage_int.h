/*
 * storage_int.h - the column layout of tt_storage, shared by storage.c,
 * trace.c, descriptions and the SQL virtual tables. Importers and the
 * trackers of core/import/ go through storage.h so that invariants hold;
 * the Makefile gives this folder (core/internal/) to core/ and core/sql/
 * only, so an include of it from core/import/ does not build.
 *
 * Every table is a set of parallel arrays indexed by row id. Optional
 * columns are NULL until first written (thread_ts of slices, say, and the
 * slices' arg_set_id until a slice has args). The
 * arrays are storage_mem.c's (tt_colmem_resize): only the storage files
 * allocate, grow or free them.
 */
#ifndef TT_STORAGE_INT_H
#define TT_STORAGE_INT_H

#include "storage.h"
#include "keymap.h"
#include "packcol.h"
#include "vec.h"

/* Slices and counters stop here (an out-of-memory status): row ids then
 * fit the 32-bit parent_id and per-track index columns. */
#define TT_MAX_ROWS ((size_t)INT32_MAX - 1)

/* thread.flags: is_main_thread and is_idle when the trace said them (a
 * generic kernel's process tree); else is_main_thread is tid == its
 * process's pid and is_idle the reserved idle thread alone. */
enum { TH_F_MAIN_SET = 1, TH_F_MAIN = 2, TH_F_IDLE_SET = 4, TH_F_IDLE = 8 };


/* A value for a few rows of a table, by row ascending (the others have
 * none): a column most rows leave empty, at no cost to them. */
struct tt_rowvals {
	size_t n, cap;
	uint32_t *row, *val;
};

/* A GPU (tt_storage_gpu, tt_storage_gpu_info; strings 0: NULL, arg_set_id
 * TT_NONE: none). */
struct tt_gpu_row {
	uint32_t gpu, arg_set_id;
	tt_str name, vendor, model, arch, uuid, pci_bdf;
};
/* A graphics context (tt_storage_gpu_context). */
struct tt_gpu_context_row {
	uint64_t context_id;
	int64_t pid;  /* INT64_MIN: NULL */
	tt_str api;   /* 0: NULL */
};
/* A GPU counter track's group (tt_storage_gpu_group; name, desc 0: NULL). */
struct tt_gpu_group_row {
	int64_t group_id;
	uint32_t track;
	tt_str name, desc;
};

struct tt_storage {
	tt_strpool *strs;
	int oom;
	int idle_rows;   /* utid 0 is the reserved idle thread (tt_storage_idle_rows) */

	struct {
		size_t n, cap;
		int64_t *pid, *start_ts, *end_ts, *sort_index, *uid; /* uid: TT_TS_NONE = unknown */
		tt_str *name, *cmdline;
		uint32_t *parent_upid, *arg_set_id;
	} process;

	struct {
		size_t n, cap;
		int64_t *tid, *start_ts, *end_ts, *sort_index;
		tt_str *name;
		uint32_t *upid, *arg_set_id;
		uint8_t *flags; /* TH_F_*: is_main_thread / is_idle as the trace said them */
	} thread;

	struct {
		size_t n, cap;
		tt_str *name, *type, *unit, *description;
		uint32_t *parent_id, *utid, *upid, *max_depth, *source_arg_set_id, *dimension_arg_set_id;
		int64_t *cpu;
		uint8_t *is_counter;
		/* finalize: rows of each track sorted by ts, as CSR (row ids
		 * fit 32 bits: tables stop at TT_MAX_ROWS) */
		size_t *row_off; /* n + 1 offsets into rows */
		uint32_t *rows;
	} track;

	struct {
		size_t n, cap;
		int64_t *ts, *dur;
		int32_t *parent_id; /* -1 = none */
		int64_t *thread_ts, *thread_dur; /* NULL until first set */
		uint32_t *track, *depth;
		uint32_t *arg_set_id; /* NULL until a slice has args: all TT_NONE */
		tt_str *cat, *name;
		int sorted; /* finalize: ts non-decreasing by id */
	} slice;

	struct {
		size_t n, cap;
		int64_t *ts;
		double *value;
		uint32_t *track;
		int sorted;
	} counter;
	/* The counter rows that have args (few: atrace counters' writing
	 * thread); the others have none. */
	struct tt_rowvals counter_args;

	/* Row id = index in the columns. Rows of lazy sets (storage.h) hold
	 * nothing until their set is read: cap may be below n, and only the
	 * rows of stored sets may be touched (tt_storage_argset_rows and
	 * tt_storage_args_load store them first). */
	struct {
		size_t n, cap;  /* n: rows of the args table, lazy ones included */
		tt_str *key;    /* the flat key (no [n]) is derived when asked */
		uint8_t *type;  /* enum tt_arg_type | TT_ARG_INDEXED */
		union tt_arg_val { int64_t i; double d; tt_str s; } *val;
		tt_packcol set_first; /* arg_set_id -> first row (tt_storage_set_first) */
		int building;
		size_t build_start;
		struct tt_args_lazy *lazy; /* NULL when every set is stored */
		tt_str keep[4];   /* tt_storage_args_keep_first */
		size_t nkeep;
		struct {
			uint32_t *v;
			size_t n, cap;
		} merged_in;      /* sets a merge read (tt_storage_args_merge_begin) */
		uint64_t *dead;   /* finalize: rows of sets no row owns, one bit each */
		size_t dead_n;    /* rows it covers */
	} args;

	struct {
		size_t n, cap;
		int64_t *slice_out, *slice_in;
		uint64_t *trace_id;    /* the flow's id (flow_tracker.h) */
		uint32_t *arg_set_id;
		TT_VEC(int64_t) no_id; /* rows linked directly (binder): trace_id NULL; ascending */
	} flow;

	struct {
		size_t n, cap;
		int64_t *ts;
		tt_str *name;
		/* millions of rows whose neighbours are alike: packed, each as
		 * value + 1 (TT_NONE is 0); read with tt_storage_raw_id */
		tt_packcol ucpu; /* row of cpus (TT_NONE: unknown) */
		tt_packcol utid, arg_set_id;
		int sorted;
		uint32_t ucpu_of[64]; /* tt_storage_raw's cache: ucpu + 1 of
				       * cpus 0..63, 0 until seen */
		struct tt_rowvals common_flags; /* the rows that have them (compact wakings) */
	} raw;

	struct {
		size_t n, cap;
		int64_t *ts, *dur, *cpu, *priority;
		uint32_t *utid;
		tt_str *end_state;
	} sched;

	struct {
		size_t n, cap;
		int64_t *ts, *dur, *cpu;
		uint32_t *utid;
		tt_str *state;
		int64_t *io_wait;      /* TT_TS_NONE: unknown */
		tt_str *blocked;       /* blocked_function */
		uint32_t *waker_utid;  /* TT_NONE: none */
		uint32_t *waker_id;    /* the waker's thread_state row, TT_NONE: none */
		int8_t *irq_context;   /* 1: woken from an interrupt, 0: not, -1: unknown */
	} tstate;

	/* spurious_sched_wakeup: wakings of a thread already running or runnable */
	struct {
		size_t n, cap;
		int64_t *ts;
		uint32_t *tstate_id, *utid, *waker_utid;
		int8_t *irq_context;   /* -1: unknown */
	} spurious;

	/* Perfetto's state table: values of state tracks (TrackEvent TYPE_STATE) */
	struct {
		size_t n, cap;
		int64_t *ts, *dur; /* dur -1 while the state lasts */
		uint32_t *track, *arg_set_id;
		tt_str *cat, *value;
	} state;

	struct {
		size_t n, cap;
		int64_t *cpu; /* row = ucpu */
		/* what a CpuInfo packet says (else 0, none, -1, TT_NONE) */
		uint32_t *cluster_id, *arg_set_id;
		tt_str *processor;
		int64_t *capacity;
	} cpus;

	/* Android's cpu time per uid and cluster, a row per track
	 * (trace processor's __intrinsic_android_cpu_per_uid_track) */
	struct {
		size_t n, cap;
		uint32_t *track;
		int64_t *uid, *cluster, *total_ms;
	} cpu_uid;

	TT_VEC(tt_game_row) games; /* Android's games (__intrinsic_android_game_intervention_list) */
	struct {
		size_t n, cap;
		int64_t *id;
		tt_str *type;
	} users; /* Android's users (__intrinsic_android_user_list) */

	/* Android's aconfig flags, a row per flag per snapshot (trace
	 * processor's __intrinsic_android_aflags); staged 0: none */
	struct {
		size_t n, cap;
		int64_t *ts;
		tt_str *col[TT_AFLAG_COLS];
	} aflags;

	/* cpu_available_frequencies (trace processor's __intrinsic_cpu_freq) */
	struct {
		size_t n, cap;
		uint32_t *ucpu, *freq; /* freq: kHz */
	} cpu_freq;

	struct {
		size_t n, cap;
		tt_str *name;
		int64_t *ival;
		tt_str *sval; /* 0 when the value is an integer */
		uint8_t *multi; /* key_type 'multi': one of a key's several values */
	} meta;

	struct {
		size_t n, cap;
		int64_t *ts;
		uint32_t *utid;
		uint32_t *prio;
		tt_str *tag, *msg; /* 0: NULL */
	} logs; /* Android logcat (trace processor's __intrinsic_logs) */

	struct {
		size_t n, cap;
		tt_str *name;
		int64_t *uid, *version_code;
		uint8_t *debuggable, *profileable;
	} packages; /* Android's packages (trace processor's __intrinsic_package_list) */

	/* GPUs by ugpu (trace processor's __intrinsic_gpu): their index on
	 * the device, what GpuInfo says of them and its extra_info */
	TT_VEC(struct tt_gpu_row) gpus;
	/* the groups of the GPU counter tracks (trace processor's
	 * gpu_counter_group) */
	TT_VEC(struct tt_gpu_group_row) gpu_groups;
	/* graphics contexts of render stages (trace processor's
	 * __intrinsic_gpu_context) */
	TT_VEC(struct tt_gpu_context_row) gpu_contexts;

	struct {
		size_t n, cap;
		int64_t *ts;           /* TT_TS_NONE: none (a tokenizer's log) */
		int64_t *byte_offset;  /* TT_TS_NONE: none (a parser's log) */
		uint16_t *stat;        /* tt_stat: the stats row it details */
		uint32_t *arg_set_id;
	} import_logs; /* tt_storage_import_log */

	/* experimental_proto_path: the proto content analyzer's field paths
	 * (tt_storage_proto_path) */
	struct {
		size_t n, cap;
		uint32_t *parent_id, *arg_set_id;
		tt_str *field_type, *field_name;
	} proto_path;

	/* clock_snapshot: each clock of each ClockSnapshot the trace
	 * converts, at the snapshot's instant on the trace clock
	 * (tt_storage_clock_snapshot) */
	struct {
		size_t n, cap;
		int64_t *ts, *clock_id, *clock_value;
		tt_str *clock_name;   /* 0: not a builtin clock */
		uint32_t *snapshot_id;
	} clock_snap;

	int64_t stats[TT_STAT_COUNT];
	struct {
		size_t n, cap;
		uint16_t *stat;
		tt_str *name;
		int64_t *count;
	} named; /* tt_storage_stat_named */
	struct {
		size_t n, cap;
		uint16_t *stat;
		int32_t *idx;
		int64_t *value;
	} istats; /* tt_storage_stat_set_indexed: in (stat, idx) order */
	int64_t start_ts, end_ts; /* finalize: trace bounds */

	tt_keymap named_by_key;
	struct tt_profile *profile; /* stack profile tables (profile.h), NULL until used */
	/* tt_storage_machine: rows below these counts came from machine 0 */
	struct {
		int set;
		int64_t raw_id;
		size_t processes, threads, tracks;
	} machine;
};

/* A packed id column of raw: ucpu, utid or arg_set_id of row r. */
static inline uint32_t tt_storage_raw_id(const tt_packcol *col, size_t r)
{
	return (uint32_t)tt_packcol_get(col, r) - 1;
}

/* The first row of arg set `set` (< args.set_first.n). */
static inline size_t tt_storage_set_first(const tt_storage *st, uint32_t set)
{
	return (size_t)tt_packcol_get(&st->args.set_first, set);
}

/* Text of an arg value for display ("" for null). Writes into buf. */
const char *tt_storage_arg_text(const tt_storage *st, size_t row, char *buf, size_t len);
/* Rows [first, end) of an arg set; returns 0 when the set does not exist
 * (or memory ran out storing a lazy one). A lazy set is decoded and stored
 * here: the storage is logically const (rows read as registered), but
 * callers must not read it from two threads at once. */
int tt_storage_argset_rows(const tt_storage *st, uint32_t set, size_t *first, size_t *end);
/* Stores the lazy sets holding rows [first, end) before a scan reads the
 * columns directly. Returns 0, or -1 when memory ran out. */
int tt_storage_args_load(const tt_storage *st, size_t first, size_t end);
/* The arg set a row belongs to (binary search), TT_NONE for a row of the
 * set under construction. */
uint32_t tt_storage_arg_set_of(const tt_storage *st, size_t row);
/* The key of row without array indices ("a[0].b" -> "a.b"), in buf. */
const char *tt_storage_arg_flat_key(const tt_storage *st, size_t row, char *buf, size_t len);
const char *tt_storage_arg_type_name(int type);

#endif
