/*
 * import_ctf_int.h - what the CTF importer's files share: the state of an
 * import (traces, stream sources, CPUs, problems), the merged event records
 * the reader hands to the storing side, and the storing side's entry
 * points (ctf_store.c). Internal to core/import/ctf/.
 */
#ifndef TT_IMPORT_CTF_INT_H
#define TT_IMPORT_CTF_INT_H

#include "import_int.h"
#include "packcol.h"

#include <string.h>

#include "ctf_debuginfo.h"
#include "ctf_metadata.h"
#include "ctf_stream.h"

#define MAX_DIR_DEPTH 10
#define MAX_TRACES 4096
#define MAX_STREAMS 65536
#define MAX_CPUS 4096
/* lazy set locator with one stream: stream index << LOC_BITS | bit
 * offset in the file. With 2 to 256 streams (lazy_ctx.map) the locator is
 * the set's number among the import's lazy sets, and the map says where it
 * lives: the storage packs locators by their differences, and the bit
 * offsets of streams merged by time are far apart. */
#define LOC_BITS 48
#define LOC_MASK ((UINT64_C(1) << LOC_BITS) - 1)
#define LOC_MAP_STREAMS 256
#define LOC_CK 1024 /* locators between two rank checkpoints */

/* K_RAW: a `raw` row only (most events: ftrace-like, as trace processor
 * keeps them); K_INSTANT: also an instant slice (printf-like messages). */
enum ev_kind { K_RAW, K_INSTANT, K_BEGIN, K_END, K_FUNC_ENTRY, K_FUNC_EXIT, K_SCHED_SWITCH,
	       K_BIN_INFO, K_BUILD_ID };

typedef struct trace_ctx {
	char *dir;
	ctf_meta *m;
	int index;
	tt_str *name;     /* per event class (index in m->events) */
	tt_str *base;     /* slice name for begin/end kinds */
	tt_str *cat;
	uint8_t *kind;
	uint32_t *shape;  /* storage shape of the class's keys, TT_NONE when
			   * they vary */
	uint32_t *nkeys;
	int has_ip;       /* an `ip` event context and a statedump: every
			   * event's ip is looked up (no class skipped) */
	uint8_t *skip;    /* classes whose values the import does not read:
			   * lazy streams' cursors skip them */
} trace_ctx;

/* What the lazy-args decoder keeps after the import: the metadata and, per
 * stream (by src index), its cursor (the import's, handed over at the end,
 * so the file stays mapped; one opened from path if a set is read while
 * the import still walks the stream). */
typedef struct lazy_src {
	const ctf_meta *m;
	char *path;
	ctf_stream *s;
	int failed; /* cannot be opened any more: its sets read as nulls */
} lazy_src;

/* Where the lazy sets of a many-stream import live, by locator g: its
 * stream sid[g] and, as the r-th lazy event of that stream (r: the
 * stream's count at the checkpoint before g plus its locators since),
 * the bit offset off[stream][r]. Offsets of one stream are close, so each
 * stream's column packs to about 2 bytes a set; with the stream byte and
 * the storage's own column (consecutive numbers) about 5 bytes a set. */
typedef struct loc_map {
	size_t n, cap;
	uint8_t *sid;
	uint32_t *ck;        /* per LOC_CK locators: every stream's count */
	size_t nck, cck;
	tt_packcol *off;     /* per stream */
	uint32_t *count;     /* per stream: its locators so far */
	size_t nstreams;
	uint32_t *at;        /* per stream: its locators before at_g */
	uint64_t at_g;
} loc_map;

typedef struct lazy_ctx {
	ctf_meta **metas;
	size_t nmetas;
	lazy_src *srcs;
	size_t nsrcs;
	loc_map *map;    /* NULL: locators are stream << LOC_BITS | offset */
} lazy_ctx;

typedef struct src {
	ctf_stream *s;
	trace_ctx *tr;
	int idx;
	const char *file; /* base name, for track names */
	/* thread cache */
	int has_last;
	int64_t last_pid, last_tid;
	uint32_t last_utid;
	char last_name[64];
	size_t last_name_len;
	int last_name_set;
	uint32_t stream_track, lost_track;
	uint32_t trk_utid, trk_track; /* the last thread's track (TT_NONE: none) */
	uint32_t cpu_track;  /* track of cpu_track_cpu (the last one used) */
	int64_t cpu_track_cpu;
	int64_t reg_cpu;     /* last CPU put in the cpu table */
	int lazy;            /* its events may have lazy arg sets */
	/* the span of its events' thread since it changed (tt_ctf_seen_flush) */
	uint32_t seen_utid;  /* TT_NONE: none */
	int64_t seen_min, seen_max;
	/* what its cursor counted and the first problem it met (ctf_read.c) */
	ctf_stream_stats st;
	char problem[256];
} src;

typedef struct cpu_state {
	uint32_t utid;      /* running thread, TT_NONE if unknown */
	int64_t since;
	int64_t prio;
	int running;
	int64_t tid;        /* of utid, and its comm when switched in */
	tt_str comm;
} cpu_state;

/* What ran on a CPU, for its track in the CPUs group: without scheduler
 * events, consecutive events of one thread on a CPU make one slice named
 * by the thread (a run); with them, sched_switch gives the exact slices. */
typedef struct cpu_run {
	uint32_t track;     /* TT_NONE until the CPU is seen */
	int open;
	uint32_t utid;
	int64_t start, last, tid, pid;
	uint64_t events;
	tt_str name;
	int sched;          /* sched_switch seen on this CPU: no more runs */
} cpu_run;

/* Tracepoints of a thread that has no track yet, as bursts: neighbours at
 * most TP_GAP ns apart make one. If the thread gets no track for
 * something else, the bursts become its track at the end of the import. */
#define TP_GAP 100000
typedef struct tp_burst {
	int64_t ts, last;
	uint64_t n;
	tt_str cat, name;   /* of its first event; name 0: several names */
	uint32_t set;       /* of its first event */
} tp_burst;

typedef struct tp_thread {
	int has_track;
	tp_burst *b;        /* the last one is open */
	size_t n, cap;
} tp_thread;

typedef struct ctx {
	tt_import *im;
	tt_storage *st;
	trace_ctx *traces;
	size_t ntraces;
	src *srcs;
	size_t nsrcs;
	cpu_state *cpus;    /* per trace? kernel traces: one per cpu, shared */
	size_t ncpus;
	cpu_run *runs;      /* by CPU number */
	size_t nruns;
	int nproblems;
	char first_problem[512];
	ctf_debuginfo *di;  /* statedump binary map, when a trace has one */
	uint64_t total_bytes;
	char **dirs;
	size_t ndirs, cdirs;
	tt_str s_lost_track, s_sched_state[16];
	lazy_ctx *lz;       /* owned by the storage; NULL: eager args */
	int oom;            /* memory ran out outside the storage */
	tp_thread *tp;      /* by utid */
	size_t ntp;
} ctx;

/* Merged events for the import thread, 64 bytes each: what storing
 * reads. Values are copied only for the events whose values the import
 * reads (sched_switch, func_entry, sets written at import), with their
 * keys (a key can live in the cursor's buffer). */
/* R_SAME: the thread (pid, tid, procname bytes) of the record before it
 * in the same job: storing need not compare them again. */
enum { R_SKIPPED = 1, R_THREAD = 2, R_VALS = 4, R_SAME = 8 };

typedef struct rec {
	int64_t ts;
	uint64_t offset;      /* bit offset of the record in its stream file */
	int64_t cpu;
	int64_t pid, tid;     /* R_THREAD: vpid and vtid (UST) or pid and tid
			       * (kernel context); without R_THREAD, pid is a
			       * lone vpid/pid (no thread) or -1 */
	const char *procname; /* in the mapped file, NULL when none */
	uint32_t procname_len;
	uint32_t ci;          /* event class: index in its trace's m->events */
	uint16_t src, flags;
	uint32_t vals;        /* R_VALS: index in the batch's value lists */
} rec;
_Static_assert(sizeof(rec) <= 64, "a record fits a cache line");

/* The values of one event: contexts, then payload from ncontext on. */
typedef struct evals {
	const ctf_val *v;
	size_t n, ncontext;
} evals;

/* a[0..n) == b[0..n): names are compared for every event, so short ones
 * (<= 16 bytes, the usual procname) take two 8-byte loads per side */
static inline int tt_ctf_same_bytes(const char *a, const char *b, size_t n)
{
	uint64_t x, y, z, w;

	if (n < 8 || n > 16)
		return !memcmp(a, b, n);
	memcpy(&x, a, 8);
	memcpy(&y, b, 8);
	memcpy(&z, a + n - 8, 8);
	memcpy(&w, b + n - 8, 8);
	return x == y && z == w;
}

/* ---- ctf_read.c: every stream decoded (on the workers) and stored in
 * time order; each src's st and problem filled. 0, or -1 when memory ran
 * out (*events: how many were stored). */
int tt_ctf_read_and_store(ctx *c, uint64_t *events);

/* ---- ctf_store.c: one event into storage ---- */
extern const tt_args_decoder tt_ctf_lazy_ops;
loc_map *tt_ctf_loc_map_new(size_t nstreams);
void tt_ctf_loc_map_done(loc_map *m);
void tt_ctf_lazy_free(void *p);
void tt_ctf_note_problem(ctx *c, const char *msg);
void tt_ctf_emit_discard(ctx *c, src *s, const ctf_discard *d);
void tt_ctf_store_event(ctx *c, src *s, const rec *ev, const evals *x);
/* Notes the thread span kept by s in the thread table (at the end). */
void tt_ctf_seen_flush(ctx *c, src *s);
/* Closes the open event runs of the CPU tracks (end of the import). */
void tt_ctf_cpu_runs_end(ctx *c);
/* Threads that had only tracepoints get their track of instants (end of
 * the import; frees what was kept for it). */
void tt_ctf_thread_instants_end(ctx *c);

#endif
