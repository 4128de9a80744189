/*
 * proto_int.h - what the files of this importer share: its records, its
 * context and the functions one section calls in another. Internal to
 * this folder.
 */
#ifndef PROTO_INT_H
#define PROTO_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "perfetto_trace.pb-c.h"

#include "async_tracker.h"
#include "import_int.h"
#include "keymap.h"
#include "atrace.h"
#include "binder_tracker.h"
#include "memory_tracker.h"
#include "atrace_tracker.h"
#include "sched_tracker.h"
#include "proto_clock.h"
#include "proto_read.h"
#include "proto_map.h"
#include "sorter.h"
#include "vec.h"

typedef Perfetto__Protos__TracePacket Pkt;
typedef Perfetto__Protos__TrackEvent TEv;
typedef Perfetto__Protos__TrackEvent__LegacyEvent LEv;
typedef Perfetto__Protos__DebugAnnotation DAnn;
typedef Perfetto__Protos__DebugAnnotation__NestedValue DNest;
typedef Perfetto__Protos__TrackDescriptor TDesc;
typedef Perfetto__Protos__FtraceEventBundle FBundle;

#define MAX_INFLATED (64u << 20)    /* one compressed_packets blob */
#define TRACK_UUID 0x80000000u      /* record track: uuid table index */
#define TRACK_ASYNC 0x40000000u     /* record track: legacy async key index */
#define FTRACE_SEQ (1ULL << 32)     /* pseudo sequences: one per cpu */

enum { R_BEGIN = 1, R_END, R_COMPLETE, R_COUNTER, R_FLOW_V1, R_STATE, R_FTRACE, R_META };
/* R_META records (a legacy 'M' event): u.i 't': track is a utid to name,
 * 'p': a upid; name the name */
/* R_FTRACE records (proto_ftrace.c), by scope: FT_SWITCH(_NOPREV): u.i the
 * c->sched row, id the prev pid, cat its comm; FT_NEWTASK: id the forking
 * tid << 32 | the new pid, u.i clone flags, name comm; FT_FREE, FT_RENAME:
 * id the writing tid << 32 | the pid (name the new comm); FT_RAW: an event's
 * ftrace_event row (made first: it makes the writing thread), id the cpu <<
 * 32 | the writing tid, name the event's name, args its fields; FT_PRINT: id tgid (0: none) << 32 | tid,
 * args the atrace phase, u.i its value, name, cat its track name */
/* FT_PTREE: u.i the c->ptrees blob; FT_WAKING: id the waking tid << 32 | the
 * wakee, name its comm; FT_WAKING_COMPACT: id the cpu << 32 | the wakee;
 * FT_BLOCKED: id the pid, u.i io_wait */
enum { FT_SWITCH = 1, FT_SWITCH_NOPREV, FT_NEWTASK, FT_FREE, FT_RENAME, FT_PRINT, FT_PTREE, FT_WAKING,
       FT_WAKING_COMPACT, FT_RAW, FT_BLOCKED, FT_WQ_START, FT_WQ_END, FT_LOG, FT_RSS, FT_OOM_SCORE,
       FT_MARK, FT_SIG_MARK, FT_SUSPEND, FT_BINDER_TXN, FT_BINDER_REPLY, FT_BINDER_RCV, FT_BINDER_CMD,
       FT_BINDER_RET, FT_BINDER_LOCK, FT_BINDER_ALLOC, FT_HEAP_CHANGE, FT_HEAP_BUF,
       FT_WAKELOCK, FT_LOG_UTID, FT_FUNCGRAPH, FT_NET_RX, FT_NET_TX, FT_NET_KFREE, FT_TCP_STATE,
       FT_TRIGGER, FT_SESSION, FT_CMA, FT_FS_READ, FT_FS_READ_END, FT_GK_STATE, FT_GK_RENAME, FT_GK_TREE,
       FT_GPU_COUNTER, FT_GPU_STAGE, FT_DRM, FT_V4L2, FT_VIRTIO };
/* FT_GK_STATE: a generic kernel task state (proto_generic_kernel.c): id
 * the tid, u.i cpu << 32 | prio, args the state, name the comm (0: none);
 * FT_GK_RENAME: id the tid, name the comm; FT_GK_TREE: a
 * GenericKernelProcessTree kept packed (tt_proto_defer) */
/* FT_GPU_STAGE: a GPU render stage's slice (proto_gpu.c): id its index in
 * the stages read << 32 | its queue's set of lanes (async tracker), u.i its
 * duration, name and args its own. */
/* FT_VIRTIO: a virtio-gpu or virtio-video event (proto_virtio.c): cat its
 * kind (0: virtio-gpu, its kind in u.i), id, u.i, name, args as there. */
/* FT_V4L2: a V4L2 buffer event (proto_v4l2.c): id its kind << 32 | the
 * writing pid, u.i the buffer's key, name and args its instant's. */
/* FT_DRM: a DRM or dma-fence event (proto_drm.c): cat its kind, name its
 * ring or timeline, id and u.i its ids, args the writing pid. */
/* FT_GPU_COUNTER: a GPU counter's value (proto_gpu.c): id its descriptor's
 * owner << 32 | counter_id, u.i the double's bits. */
/* FT_SESSION: a ConcurrentSessionEvent (proto_service.c): id the session
 * id, u.i its state, name its track's name, args its args */
/* FT_TRIGGER: a trigger's slice (proto_service.c): u.i's low 2 bits the
 * kind (trace, clone snapshot, Chrome), a Chrome trigger's bit 2 whether
 * id is its flow id and bits 8.. its name hash; name, args the slice's */
/* FT_FS_READ / _END: an android_fs data read's start / end (proto_fs.c):
 * id the inode, u.i the offset; a start's cat the writing tid and args
 * its slice's, an end's args the bytes read. */
/* FT_CMA: a CMA allocation's event (proto_cma.c): id its kind << 32 | the
 * writing tid, u.i its values' index in c->cma, name the CMA area. */
/* FT_WAKELOCK: a wakeup source's activation (u.i 1) or deactivation (0),
 * name its name. */
/* FT_HEAP_CHANGE: an ion / DMA-BUF heap change (proto_heaps.c): id the
 * writing tid, u.i the bytes, name the ion heap (0: none), cat 1 ion / 2
 * DMA-BUF, args its counter's (the inode). FT_HEAP_BUF: a buffer's
 * slice: id the buffer, u.i 1 begin / 0 end, name the begin's "N kB",
 * cat as above. */
/* FT_BINDER_TXN / _REPLY: a binder_transaction (reply == 1: _REPLY): id
 * the writing tid << 32 | debug_id, u.i to_proc << 32 | to_thread, name
 * the code, cat the flags, args the target node (not strings: read by
 * feed_binder only). FT_BINDER_RCV: id tid << 32 | debug_id. _CMD, _RET:
 * id the tid, u.i the command. _LOCK: id the tid, u.i 0 lock, 1 locked,
 * 2 unlock. _ALLOC: id the tid, u.i the data size, name and cat the
 * offsets size's low and high halves. */
/* FT_SUSPEND: a suspend_resume: id the cpu << 32 | the writing tid, u.i 1
 * a start (0 an end), name "action(val)", cat the action */
/* FT_OOM_SCORE: id the tid, u.i the oom_score_adj. FT_MARK: a zero-length
 * slice named name on the thread of tid id; FT_SIG_MARK: the same with
 * arg signal.sig = u.i */
/* FT_RSS: an rss_stat: id mm_id << 32 | the writing tid, u.i the size,
 * name the member, args RSS_* flags */
#define RSS_CURR 1
#define RSS_HAS_CURR 2
#define RSS_HAS_MM 4
/* FT_LOG: an Android log line (proto_meta.c): id pid << 32 | tid, u.i the
 * priority, name the message, cat the tag (0: none); FT_LOG_UTID: the
 * same with id the thread's utid (a Chrome log message, proto_typed_args.c) */
/* FT_NET_RX / FT_NET_TX: a packet of u.i bytes received / sent on
 * device name by cpu id; FT_NET_KFREE: an IP packet freed (u.i the
 * protocol); FT_TCP_STATE: socket id's new state, name the slice's
 * (proto_net.c) */
/* FT_FUNCGRAPH: a function graph entry (u.i 1) or exit (0) of the
 * thread of pid id, name the function (proto_kernel.c) */
/* FT_WQ_START / FT_WQ_END: a workqueue slice on the thread of pid id (name
 * the function, args its cpu) */
/* R_STATE records: name is the value (0 ends the state) */
/* R_FLOW_V1 records: flags say which step, u.i the legacy unscoped_id
 * (the flow is (it, cat, name)) */
enum { V1_START = 1, V1_STEP, V1_END, V1_END_ENCLOSING };
/* F_TE: from a TrackEvent (any kind); F_FPOS: its sequence began with a
 * first_packet_on_sequence packet */
enum { F_FLOWS = 1, F_TTS = 2, F_CS = 0x20, F_FPOS = 0x40, F_TE = 0x80, F_EXT = 0x100, F_FOLD = 0x200, F_QUIET = 0x400 }; /* F_CS: a callstack in cstacks; F_EXT: extension fields kept (proto_ext.c); F_FOLD: a counter folded on the record (REC_FOLDED); F_QUIET: an R_END of the kernel's that counts nothing when it ends nothing (trace processor's SliceTracker::End) */
enum { UT_NONE, UT_THREAD, UT_PROCESS, UT_COUNTER };
/* flow entry kinds: flow_ids, terminating_flow_ids, a legacy bind_id by
 * its flow_direction (FL_NODIR: none) */
enum { FL_STEP, FL_TERM, FL_OUT, FL_INOUT, FL_IN, FL_NODIR };

/* One event, after tokenizing: the importers' record (sorter.h), read
 * here as: u.i R_COMPLETE's dur, or R_BEGIN/R_END/instants' thread ts with
 * F_TTS; u.d R_COUNTER's value; track the storage track, or TRACK_UUID |
 * uuid index, or TRACK_ASYNC | akey index; id the file order (c->ord,
 * shared with flows and sched records) in its low 32 bits, and in its high
 * 32 bits a folded counter (REC_FOLDED); kind R_*, flags F_*. */
typedef tt_event prec;

/* A Chrome track event carries its thread time twice: as the value of
 * its sequence's extra counter (a counter record, pushed first) and as
 * the slice's thread ts. A BEGIN / END whose single extra counter value
 * is its thread ts takes that counter along instead of a record of its
 * own (half the records of a Chromium trace): flag F_FOLD, id's high 32
 * bits the counter's utrack + 1, its value u.i (other records, such as
 * ftrace's, use id's high bits for their own fields). The merge emits the two adjacent
 * anyway (same ts, consecutive file order), so feed() replays the
 * counter just before the event and the result is the same. */
#define REC_FOLDED(r) (((r)->flags & F_FOLD) ? (uint32_t)((r)->id >> 32) : 0u)
#define REC_ORD(r) ((uint32_t)(r)->id)

typedef struct pflow {
	uint32_t ord;
	uint32_t kind;
	uint64_t id;
} pflow;

/* A track event's callstack, by the file order of its record. */
typedef struct pcs {
	uint32_t ord, callsite;
	int is_end, has_weight;
	double weight;
} pcs;

typedef struct sched_rec {
	int64_t ts;
	int64_t prev_state;
	uint32_t cpu;
	int32_t next_pid, next_prio;
	uint32_t next_utid;          /* resolved when read: tids are reused */
	int32_t prev_prio;
	tt_str next_comm;
} sched_rec;

/* A sub-message kept packed until the sorted records reach it. */
typedef struct pblob {
	uint8_t *p;
	size_t n;
	uint32_t seq;                /* its trusted_packet_sequence_id (clock conversions) */
} pblob;

typedef struct utrack {
	uint64_t uuid, parent;
	int has_parent, described, kind, resolving;
	int merge;                   /* sibling_merge_behavior: 0/1 by name, 2 none, 3 by key */
	tt_str merge_key;
	int merged;                  /* resolved to a set of merged sibling tracks */
	uint64_t mk1, mk2, mk3;      /* the set */
	uint32_t mset;               /* its id in the async tracker + 1, 0 before its first event */
	tt_track_desc mdesc;         /* its tracks */
	tt_str name, desc;
	uint32_t utid, upid;         /* thread / process descriptors */
	int64_t dpid, dtid;          /* the thread descriptor's pid, tid (a conflicting one is ignored) */
	int counter_type, incremental;
	int64_t mult;
	tt_str unit;
	uint32_t track;              /* storage track once resolved */
	uint32_t desc_track;         /* the track its description went to */
	int has_rank;                /* sibling_order_rank */
	int32_t rank;
	int child_ordering;          /* 1 lexicographic, 2 chronological, 3 explicit */
	uint32_t scope_utid, scope_upid;
	int is_state;                /* a StateDescriptor: TYPE_STATE events only */
	int separate;                /* disallow_merging_with_system_tracks */
	int legacy_counter;          /* no descriptor: a thread's legacy time (1) / instruction (2) counter */
	tt_str counter_cats;         /* CounterDescriptor.categories, joined by "," */
	tt_str y_axis_key;
} utrack;

/* iid -> tt_str, one interning table of a sequence. Producers number
 * iids from 1 up, so small ones live in an array: one load, where a hash
 * probe missed the cache as 64 sequences' tables took turns. The array
 * only grows to twice the entries put, so sparse or hostile iids go to
 * the hash map and memory follows the entries. */
typedef struct itab {
	uint32_t *dense;             /* tt_str + 1; 0 = absent */
	size_t n;
	uint64_t puts;               /* since the last clear */
	tt_pmap sparse;
} itab;

/* An interned SourceLocation (proto_typed_args.c). */
typedef struct psrcloc {
	tt_str file, func;
	uint32_t line;
} psrcloc;

#define TT_PROTO_LOSS_CAUSES 8       /* previous_packet_dropped's cause bits 1..8 */
typedef struct pseq {
	uint64_t key;
	uint32_t id;                 /* trusted_packet_sequence_id (0 for ftrace) */
	int valid;
	int has_def_clock, has_def_track;
	uint32_t def_clock;
	uint64_t def_track;
	TT_VEC(uint64_t) def_extra;      /* extra_counter_track_uuids */
	TT_VEC(uint64_t) def_extra_dbl;  /* extra_double_counter_track_uuids */
	itab names, cats, dnames, dstrs;
	itab fnames, build_ids, mapping_paths; /* callstacks (proto_callstack.c) */
	itab hnames;                 /* Chrome histogram names (proto_typed_args.c) */
	itab lbodies;                /* Chrome log message bodies (proto_typed_args.c) */
	itab ksyms;                  /* kernel symbols (sched_blocked_reason, proto_ftrace.c) */
	tt_pmap srclocs;             /* SourceLocation iid -> index in srcloc + 1 */
	TT_VEC(psrcloc) srcloc;
	tt_pmap mappings, frames, callstacks;  /* iid -> row + 1 */
	uint64_t last_uuid;          /* tt_proto_get_utrack cache: last track_uuid of an event */
	uint32_t last_utrack;        /* its uuid table index, TT_NONE before any */
	tt_pmap counters;            /* incremental counter uuid -> double bits */
	uint64_t cnt_uuid;           /* the last one's uuid and its value in counters (NULL: none): */
	uint64_t *cnt_val;           /* a sequence's counter values mostly go to one track */
	uint32_t fallback_track;     /* record track of the sequence's thread, or TT_NONE */
	int64_t legacy_tic;          /* thread instruction count (delta-encoded) */
	int64_t thr_pid, thr_tid;    /* the sequence's thread (valid with fallback_track) */
	int64_t legacy_ts, legacy_tts; /* old Chrome reference times (ns) */
	int first_packet;            /* a first_packet_on_sequence packet was seen */
	uint32_t agen;               /* bumped when an interned debug annotation name or string may change meaning (proto_args.c's cache) */
	uint32_t stream;             /* its stream in c->sorter */
	/* its losses, for TraceStats' per-buffer sums (proto_meta.c) */
	int seen;                    /* a packet came on it before */
	uint32_t dropped;            /* packets saying previous_packet_dropped, but a first one */
	uint32_t loss_cause[TT_PROTO_LOSS_CAUSES]; /* ... by the causes they give */
	uint32_t incr_total, incr_skipped; /* packets needing incremental state; skipped for lack of it */
} pseq;

/* A process's args from its latest descriptor (Chrome labels, type). */
#define PARGS_LABELS 8
typedef struct pargs {
	uint32_t upid;
	tt_str type, pkg;
	tt_str labels[PARGS_LABELS];
	size_t nlabels;
	int has_crash;
	uint64_t crash;
} pargs;

/* A legacy async event's track key; its track is chosen when the sorted
 * events are fed (async_tracker.h: which track depends on what is open). */
typedef struct akey {
	uint32_t upid;               /* TT_NONE: a global id */
	tt_str scope, name;
	uint64_t id;
	uint32_t src_upid;           /* the process of the event that made it (the track's source args) */
} akey;

typedef TT_VEC(uint64_t) tt_proto_bits;

/* A disk's last SysStats values (its counters are deltas). */
struct pdisk {
	tt_str device;
	int64_t v[8]; /* read, write, discard sectors, flush count; read, write, discard, flush ms */
};

/* Android's power descriptors (proto_power.c): an energy consumer, a
 * power entity's state (overall: "Entity residency: <entity> is <state>"). */
struct penergy {
	int32_t id, ordinal;
	tt_str name, type;
};
struct pentity {
	int32_t entity, state;
	tt_str entity_name, state_name, overall;
};

/* A CMA event's numbers (proto_cma.c): an info's or a finish's pfn,
 * count, then (info) migrated, reclaimed, mapped pages and the isolate,
 * migrate and test failures; a migration's migrated, reclaimed, mapped. */
struct pcma {
	uint64_t v[8];
};

typedef struct pctx {
	tt_import *im;
	tt_storage *st;
	tt_proto_clock *clock;
	const tt_proto_schema *schema; /* what packets are unpacked with (proto_read.h) */
	tt_proto_arena ar;           /* packets inside compressed_packets, one at a time */
	struct tt_proto_annots *annots; /* the current event's debug annotations, and those seen (proto_args.c) */
	tt_sorter *sorter;           /* every sequence's records, merged in (ts, file order) */
	/* trace processor's flush points (proto_feed.c, tt_proto_read_buffers) */
	uint32_t flushes;            /* all_data_sources_flushed since the last extraction */
	uint32_t extract_ord;        /* the next extraction gives out records pushed before it */
	uint64_t file_off, file_size; /* read so far, of (tt_bytesrc_file_offset; size 0: not known) */
	size_t ahead_rows[3];        /* slices, counters the last read-buffer flush appended, args rows since the one before (proto_feed.c) */
	size_t args_at_flush;        /* args rows when the last flush began */
	uint64_t ahead_recs;         /* the records it fed */
	uint64_t fed;                /* records given out to the trackers */
	int full_sort;               /* a timestamp failed to convert before any extraction */
	tt_proto_bits open_tts;      /* slices whose thread time is open (proto_feed.c) */
	tt_pmap seq_index;
	TT_VEC(pseq *) seqs;
	pseq *last_seq;              /* tt_proto_get_seq cache */
	tt_pmap uuid_index;
#define PCTX_UTRACK_HITS 256
	struct utrack_hit { uint64_t uuid; uint32_t ui; } utrack_hits[PCTX_UTRACK_HITS]; /* uuid -> index + 1 */
	TT_VEC(utrack) utracks;
	TT_VEC(pflow) flows;
	TT_VEC(sched_rec) sched;
	TT_VEC(pblob) ptrees;         /* ProcessTree packets, packed again: parsed in trace order */
	tt_pmap ftrace_threads;      /* tid -> utid + 1 of its live thread; TID_ENDED once it ended */
	tt_pmap mm_threads;          /* rss_stat mm_id -> utid + 1 of the thread last seen with it */
	int suspend_state;           /* suspend_resume: 0, in suspend_enter (1), then in freeze_processes (2) */
	uint32_t page_size;          /* SystemInfo's (0: 4096), for SysStats' pages */
	tt_pmap packages;            /* package names stored (interned id -> 1) */
	TT_VEC(struct pdisk) disks;  /* SysStats disk_stat: each device's last values (proto_sysstats.c) */
	tt_str suspend_enter;        /* the open suspend_enter slice's name (its cookie) */
	tt_memory_tracker *memory;   /* rss_stat values (memory_tracker.h) */
	tt_binder_tracker *binder;   /* binder transactions, made at the first (binder_tracker.h) */
	tt_keymap rails;             /* (power rails session, rail index) -> counter track */
	TT_VEC(struct penergy) energy;     /* energy consumers described, the first of an id (proto_power.c) */
	TT_VEC(struct pentity) entities;   /* power entity states described, the first of an index pair */
	int32_t kernel_version;      /* SystemInfo's Linux major << 16 | minor, 0: none (proto_sched.c) */
	TT_VEC(struct pcma) cma;     /* CMA events' values, by their records (proto_cma.c) */
	tt_keymap cma_migrated;      /* utid -> its allocation's migration values in cma (proto_cma.c) */
	struct pcpuuid *cpu_uid;     /* CpuPerUidData's values, made at the first (proto_cpu_uid.c) */
	struct tt_proto_gpu *gpu;    /* GPU counters' descriptors, interned GPU data (proto_gpu.c) */
	struct tt_proto_drm *drm;    /* GPU scheduler rings, dma-fence timelines (proto_drm.c) */
	tt_pmap v4l2_queued;         /* V4L2 buffers queued: key -> their instant + 1 (proto_v4l2.c) */
	tt_pmap virtgpu_starts;      /* virtio-gpu commands queued: queue << 32 | seqno -> ts + 1 (proto_virtio.c) */
	tt_keymap fs_reads;          /* android_fs reads open: (inode, offset) -> the reading tid (proto_fs.c) */
	tt_pmap wakelocks;           /* wakeup source name -> activations outstanding (proto_kernel.c) */
	tt_pmap ended_pids;          /* pid -> 1 once its process ended (a new one comes next) */
	tt_atrace_tracker *atrace;   /* the markers' store, made at the first (proto_systrace.c) */
	tt_sched_tracker *sst;       /* sched_slice / thread_state rows being built (proto_sched.c) */
	struct pgk *gk;              /* generic kernel task states' open slices, made at the first (proto_generic_kernel.c) */
	TT_VEC(uint64_t) pend_assoc;  /* (utid << 32 | utid): threads of one process, none known yet */
	TT_VEC(uint64_t) pend_parent; /* (parent utid << 32 | child upid): forked before its parent's process was known */
	tt_pmap named_procs;         /* upid -> priority of its name (PN_*) */
	tt_pmap proc_args;           /* upid -> index in pargs */
	tt_pmap desc_by_upid, desc_by_utid; /* process/thread -> uuid of its descriptor */
	TT_VEC(pargs) pargs;
	tt_keymap akey_index;        /* (upid, scope, id, name) -> akeys index */
	TT_VEC(pcs) cstacks;         /* in file order */
	uint32_t inline_mapping;     /* row + 1 of the inline callstacks' dummy mapping */
	tt_keymap inline_frames;     /* (name, file, line) -> frame row */
	tt_pmap legacy_counters;     /* utid << 2 | kind -> utrack (proto_track_event.c) */
	tt_pmap state_open;          /* state track -> value << 32 | state row (proto_state.c) */
	TT_VEC(akey) akeys;
	struct tt_proto_ext *ext;     /* TrackEvent extensions described in the trace (proto_ext.c) */
	tt_keymap content_index;      /* (category, name) -> index in content (proto_track_event.c) */
	TT_VEC(uint64_t) content;     /* category << 32 | name, first seen first */
	uint32_t content_last;
#define PCTX_CAT_HITS 64
#define PCTX_CAT_PARTS 4
	struct cat_hit { size_t n; tt_str part[PCTX_CAT_PARTS], v; } cat_hits[PCTX_CAT_HITS]; /* joined categories (proto_track_event.c) */
#define PCTX_CONTENT_HITS 256
	struct content_hit { uint64_t k; uint32_t i1; } content_hits[PCTX_CONTENT_HITS]; /* (cat, name) -> index + 1 */
	int content_other;            /* a packet that is not a TrackEvent */
	int threaded;                /* may start threads (not opts.proto_one_thread) */
	int in_track_event;          /* records pushed now come from a TrackEvent */
	uint64_t host_packets, remote_packets; /* without / with a machine_id */
	uint32_t machine_raw;        /* the first machine_id seen */
	int machines_mixed;          /* two different machine_ids */
	int feed_first_packet;       /* the record being fed has F_FPOS */
	int has_roi;                 /* TrackEventRangeOfInterest: events before roi_ns are dropped */
	int64_t roi_ns;
	int process_order_explicit, thread_order_explicit; /* root descriptor's */
	tt_pmap arg_keys;            /* (parent key, part) -> interned debug annotation key (proto_args.c) */
	tt_pmap nul_strs;            /* interned debug strings whose text holds a NUL */
	uint32_t ord;
	uint32_t fold_ui;            /* utrack + 1 of a counter value waiting for its event (tt_proto_push_rec) */
	double fold_v;
	int64_t fold_ts;
	int64_t last_ts, max_ts;
	int have_ts;
	uint64_t packets_ok, events;
	unsigned char *zbuf;
	size_t zcap;
	int uuid_found;              /* trace_uuid came from the trace (metadata) */
	uint32_t chrome_bundles;     /* ChromeEventBundles with metadata so far (proto_meta.c) */
	uint32_t chrome_metadata_packets; /* ChromeMetadataPackets so far */
	/* the last TraceConfig, the service's version, the trigger naming the
	 * trace (proto_service.c) */
	int cfg_seen, cfg_write_into_file;
	uint32_t cfg_file_write_period_ms, cfg_flush_period_ms;
	size_t cfg_buffers;
	uint32_t service_major;      /* SystemInfo's "Perfetto vNN...", 0: unknown */
	int trigger_kind;
	int oom;
	char key[512];
	char catbuf[1024];
	tt_str k_passthrough;        /* "legacy_event.passthrough_utid", interned at its first use */
	struct tt_proto_xlate *xlate; /* TranslationTable rules, made at the first (proto_translate.c) */
	tt_keymap kernel_tracks;     /* (type, fmt or name literal, cpu) -> track (proto_kernel.c) */
	tt_pmap net_bytes;           /* (device << 1 | received) -> bytes so far (proto_net.c) */
	tt_pmap tcp_streams;         /* socket -> its TCP stream number */
	uint64_t ntcp_streams, kfree_skbs;
} pctx;


static inline void stat(pctx *c, tt_stat s)
{
	tt_storage_stat_add(c->st, s, 1);
}

static inline tt_str intern(pctx *c, const char *s, size_t len)
{
	return s ? tt_storage_intern(c->st, s, len) : 0;
}

static inline tt_str intern_c(pctx *c, const char *s)
{
	return s ? tt_storage_intern_cstr(c->st, s) : 0;
}

static inline int64_t sat_add(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

static inline int64_t sat_mul(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_mul_overflow(a, b, &r))
		return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
	return r;
}

static inline int64_t to_trace(pctx *c, uint32_t seq, uint32_t clock_id, uint64_t raw)
{
	int64_t out;

	if (tt_proto_clock_to_trace(c->clock, seq, clock_id, raw, &out)) {
		stat(c, TT_STAT_proto_clock_unknown);
		/* trace processor defers the packet to the end of the file,
		 * which takes its sorter to full sort while nothing was given
		 * out yet */
		if (!c->fed)
			c->full_sort = 1;
	}
	return out;
}

pseq *tt_proto_get_seq(pctx *c, uint64_t key);
int tt_proto_itab_find(const itab *t, uint64_t iid, tt_str *v);
int tt_proto_itab_put(itab *t, uint64_t iid, tt_str v);
void tt_proto_on_interned_callstacks(pctx *c, pseq *s, const Perfetto__Protos__InternedData *in);
int tt_proto_event_callstack(pctx *c, pseq *s, const TEv *te, int is_end);
void tt_proto_feed_callstack(pctx *c, const prec *r, int64_t slice, uint32_t track);
void tt_proto_on_interned_srclocs(pctx *c, pseq *s, const Perfetto__Protos__InternedData *in);
void tt_proto_typed_args_first(pctx *c, pseq *s, const TEv *te);
void tt_proto_typed_args(pctx *c, pseq *s, const TEv *te);
void tt_proto_on_streaming_profile(pctx *c, pseq *s, const Perfetto__Protos__StreamingProfilePacket *sp);
uint32_t tt_proto_get_utrack(pctx *c, uint64_t uuid);
int tt_proto_push_rec(pctx *c, pseq *s, int64_t ts, int kind, int flags, uint32_t track,
		    tt_str name, tt_str cat, uint32_t args, int64_t i, double d);
/* A counter value at ts on a storage track (TT_NONE: none), in trace
 * order (the packets whose values are counters: system properties,
 * power). */
static inline void tt_proto_push_value(pctx *c, pseq *s, int64_t ts, uint32_t track, double v)
{
	if (track != TT_NONE)
		tt_proto_push_rec(c, s, ts, R_COUNTER, 0, track, 0, 0, TT_NONE, 0, v);
}
/* A counter value that the next record of the event may take along
 * (REC_FOLDED); pushed on its own by the next push that cannot, or by
 * tt_proto_fold_flush. */
void tt_proto_push_counter_folding(pctx *c, pseq *s, int64_t ts, uint32_t ui, double v);
void tt_proto_fold_flush(pctx *c, pseq *s);
/* Whether the record (ts, kind, flags, i) would take the waiting counter
 * along: when not, the caller flushes it before numbering the record's
 * flows and callstack by c->ord. (Inline: asked twice an event.) */
static inline int tt_proto_fold_takes(const pctx *c, int64_t ts, int kind, int flags, int64_t i)
{
	double tv = (double)i;

	/* exactly the counter's value, bit for bit, read back from u.i */
	return c->fold_ui && (kind == R_BEGIN || kind == R_END) && (flags & F_TTS) && ts == c->fold_ts &&
	       memcmp(&tv, &c->fold_v, sizeof(tv)) == 0 && (int64_t)tv == i;
}
/* Before anything of packet p is read: its TrackEvent's packed debug
 * annotations are unpacked unless the same bytes were seen on its
 * sequence; it: the reader's item of p (for a packet inside
 * compressed_packets, one made for it). -1 when protobuf-c rejects them,
 * or they nest too deep (tt_proto_unpack) (the packet is rejected, as
 * when they were unpacked with it), else 0. */
int tt_proto_annots_check(pctx *c, const Pkt *p, const tt_proto_item *it);
void tt_proto_annots_prefetch(pctx *c, const tt_proto_item *it);
void tt_proto_annots_prefetch2(pctx *c, const tt_proto_item *it);
void tt_proto_annots_free(pctx *c);
uint32_t tt_proto_event_args(pctx *c, pseq *s, const TEv *te, int phase, uint32_t passthrough_utid);
void tt_proto_on_track_descriptor(pctx *c, pseq *s, const TDesc *td);
void tt_proto_on_thread_descriptor(pctx *c, pseq *s, const Perfetto__Protos__ThreadDescriptor *t);
void tt_proto_on_process_tree(pctx *c, uint32_t seq, const Perfetto__Protos__ProcessTree *pt);
/* A message (a process tree) kept packed as an R_FTRACE record of scope
 * what, parsed when the sorted records reach ts; _deferred: the record's
 * message unpacked (the caller frees it) and its packet's sequence, or
 * NULL (given once, or out of memory). */
void tt_proto_defer(pctx *c, pseq *s, int64_t ts, int what, const ProtobufCMessage *m);
ProtobufCMessage *tt_proto_deferred(pctx *c, const prec *r, const ProtobufCMessageDescriptor *d, uint32_t *seq);
void tt_proto_free_ptrees(pctx *c);
void tt_proto_on_process_descriptor(pctx *c, uint32_t upid, const Perfetto__Protos__ProcessDescriptor *p,
				  const Perfetto__Protos__ChromeProcessDescriptor *cp);
void tt_proto_process_args_flush(pctx *c);
uint32_t tt_proto_keyed_counter(pctx *c, const char *kind, uint64_t a, uint64_t b, tt_str name,
			      const char *type, uint32_t upid, int64_t cpu, const char *key, const char *val);
int tt_proto_dims_begin(pctx *c, uint32_t track);
void tt_proto_dims_end(pctx *c, uint32_t track);
void tt_proto_on_process_stats(pctx *c, pseq *s, const Perfetto__Protos__ProcessStats *ps, int64_t ts);
uint32_t tt_proto_oom_score_track(pctx *c, uint32_t upid);
void tt_proto_on_track_event(pctx *c, pseq *s, const Pkt *p, const TEv *te, int64_t ts);
void tt_proto_content_flush(pctx *c);
void tt_proto_on_extension_descriptor(pctx *c, const Perfetto__Protos__ExtensionDescriptor *d);
int tt_proto_ext_keep(pctx *c, pseq *s, const TEv *te);
uint32_t tt_proto_ext_args(pctx *c, const prec *r);
void tt_proto_ext_free(pctx *c);
void tt_proto_reflect_args(pctx *c, pseq *s, const ProtobufCMessage *m);
void tt_proto_annot_arg(pctx *c, pseq *s, size_t klen, const DAnn *a);
/* An ftrace bundle of the packet sequence seq (its interned kernel
 * symbols); tt_proto_on_interned_ksyms keeps them. */
void tt_proto_on_ftrace(pctx *c, pseq *seq, const FBundle *b);
void tt_proto_on_interned_ksyms(pctx *c, pseq *s, const Perfetto__Protos__InternedData *in);
void tt_proto_feed_ftrace(pctx *c, const prec *r);
/* proto_kernel.c: an ftrace event of interrupts, workqueues, counters,
 * memory, signals or suspend (1: it was one), and its record when fed
 * (1: it was one of its kinds). */
int tt_proto_on_kernel_event(pctx *c, pseq *seq, pseq *ps, int64_t ts, uint32_t cpu,
			     const Perfetto__Protos__FtraceEvent *e);
int tt_proto_feed_kernel(pctx *c, const prec *r);
/* A cpu's slice track of trace processor's cpu blueprint type, named
 * fmt % cpu, dimension cpu (proto_kernel.c). */
uint32_t tt_proto_cpu_slice_track(pctx *c, const char *type, const char *fmt, uint32_t cpu);
/* A global track of blueprint type named name (a counter track when
 * counter). Both: type, fmt and name are the call site's string literals,
 * which key a cache of the tracks made (c->kernel_tracks). */
uint32_t tt_proto_global_track(pctx *c, const char *type, const char *name, int counter);
/* proto_net.c: a network ftrace event (1: it was one), its record when
 * fed (1: one of its kinds). */
int tt_proto_on_net_event(pctx *c, pseq *ps, int64_t ts, uint32_t cpu, const Perfetto__Protos__FtraceEvent *e);
int tt_proto_feed_net(pctx *c, const prec *r);
/* proto_io.c: a storage or sensor ftrace event (UFS, f2fs, cros_ec); 1 when
 * it was one. */
int tt_proto_on_io_event(pctx *c, pseq *ps, int64_t ts, const Perfetto__Protos__FtraceEvent *e);
/* The process tracker of ftrace and the process tree, as trace
 * processor's: a tid's live thread (tt_proto_thread), process names by priority,
 * threads and forked processes bound to a process once one of them is. */
enum { PN_OTHER = 1, PN_CHROME_LABEL, PN_TRACK_DESCRIPTOR, PN_CHROME_RENDERER, PN_SYSTEM };
uint32_t tt_proto_thread(pctx *c, int64_t tid);
uint32_t tt_proto_thread_in(pctx *c, int64_t pid, int64_t tid);
uint32_t tt_proto_process(pctx *c, int64_t pid);
void tt_proto_set_process_name(pctx *c, uint32_t upid, tt_str name, int prio);
int tt_proto_merge_and_feed(pctx *c);
int tt_proto_read_buffers(pctx *c);
void tt_proto_feed_state(pctx *c, const prec *r, uint32_t track);
/* State track track holds value (0: nothing) from ts: a new value ends the
 * one held, the same one adds args to its row (proto_state.c). */
void tt_proto_state_update(pctx *c, uint32_t track, int64_t ts, tt_str cat, tt_str value, uint32_t args);
void tt_proto_track_source_args(pctx *c, const utrack *u, uint32_t track, int first_packet);
uint32_t tt_proto_state_track(pctx *c, utrack *u, uint32_t parent_track, uint32_t sutid,
			      uint32_t supid, tt_str event_name);
void tt_proto_build_sched(pctx *c);
/* The import's sched tracker, made at the first call (NULL: out of
 * memory, counted). */
tt_sched_tracker *tt_proto_sched(pctx *c);
/* proto_sched.c: one switch in trace order (full: with prev fields),
 * SystemInfo (its kernel version decodes prev_state), freeing. */
void tt_proto_sched_switch(pctx *c, sched_rec *r, int full, int64_t prev_pid, tt_str prev_comm);
/* proto_ftrace.c: an R_FTRACE record of scope what; the live thread of
 * a tid or TT_NONE. proto_systrace.c: markers at tokenizing (a print's
 * text, a kernel driver's mark event) and fed (to the atrace tracker). */
void tt_proto_push_ft(pctx *c, pseq *ps, int64_t ts, int what, uint64_t id, int64_t i, tt_str name, tt_str cat,
		      uint32_t x);
uint32_t tt_proto_thread_or_none(pctx *c, int64_t tid);
/* trace processor's StartNewThread (a new live thread of tid, no process
 * yet; TT_NONE when out of memory) and EndThread (the tid's live thread
 * ended; its utid, TT_NONE when it had none). */
uint32_t tt_proto_thread_start(pctx *c, int64_t tid);
uint32_t tt_proto_thread_end(pctx *c, int64_t tid, int64_t ts);
/* A task_rename: tid's thread (made when new) named name (0: none), a
 * main thread's process too. */
void tt_proto_rename(pctx *c, int64_t tid, tt_str name);
/* proto_generic_kernel.c: Perfetto's generic kernel packets (task states,
 * renames, process trees, cpu and gpu frequencies) at ts; their records
 * when fed; freeing its state. */
void tt_proto_on_generic_kernel(pctx *c, pseq *s, const Pkt *p, int64_t ts);
void tt_proto_feed_generic_kernel(pctx *c, const prec *r);
void tt_proto_generic_kernel_free(pctx *c);
void tt_proto_on_print(pctx *c, pseq *ps, int64_t ts, int64_t tid, const char *buf);
void tt_proto_on_kernel_marks(pctx *c, pseq *ps, int64_t ts, const Perfetto__Protos__FtraceEvent *e);
void tt_proto_feed_atrace(pctx *c, const prec *r);
/* An ftrace_event (raw) row's arg set from the fields of an event's
 * message as trace processor stores them (proto_ftrace.c). */
void tt_proto_raw_switch(pctx *c, const sched_rec *r, uint32_t prev_utid, int64_t prev_pid, int32_t prev_prio,
			 tt_str prev_comm);
void tt_proto_on_system_info(pctx *c, const Perfetto__Protos__SystemInfo *si);
/* proto_meta.c: TraceStats, Chrome's metadata, benchmark metadata; a
 * sequence's packet losses (previous_packet_dropped's reasons). */
void tt_proto_on_trace_stats(pctx *c, const Perfetto__Protos__TraceStats *t);
void tt_proto_on_chrome_events(pctx *c, const Perfetto__Protos__ChromeEventBundle *b);
void tt_proto_on_chrome_metadata(pctx *c, const Perfetto__Protos__ChromeMetadataPacket *m);
void tt_proto_on_benchmark_metadata(pctx *c, const Perfetto__Protos__ChromeBenchmarkMetadata *b);
void tt_proto_seq_losses(pseq *s, uint32_t reasons);
/* proto_sysstats.c: a SysStats packet's counters at ts. */
void tt_proto_on_sys_stats(pctx *c, pseq *s, const Perfetto__Protos__SysStats *ss, int64_t ts);
void tt_proto_on_battery(pctx *c, pseq *s, const Perfetto__Protos__BatteryCounters *b, int64_t ts);
void tt_proto_on_power_rails(pctx *c, pseq *s, const Perfetto__Protos__PowerRails *pr, int64_t ts);
/* proto_system.c: a CpuInfo packet's CPUs into the cpu table. */
void tt_proto_on_cpu_info(pctx *c, const Perfetto__Protos__CpuInfo *ci);
/* proto_system.c: Android's system properties (ScreenState, battery_stats,
 * DeviceStateChanged, ... at ts, in trace order; some metadata) and the
 * display's initial state. */
void tt_proto_on_system_property(pctx *c, pseq *s, const Perfetto__Protos__AndroidSystemProperty *sp, int64_t ts);
void tt_proto_on_initial_display_state(pctx *c, pseq *s, const Perfetto__Protos__InitialDisplayState *ds,
				       int64_t ts);
/* proto_system.c: an aconfig flags snapshot at ts. */
void tt_proto_on_aflags(pctx *c, const Perfetto__Protos__AndroidAflags *af, int64_t ts);
/* proto_system.c: the installed games' modes. */
void tt_proto_on_game_list(pctx *c, const Perfetto__Protos__AndroidGameInterventionList *gl);
/* proto_system.c: Android's users. */
void tt_proto_on_user_list(pctx *c, const Perfetto__Protos__AndroidUserList *ul);
/* proto_power.c: energy consumers' estimates and power entities' state
 * residency (their descriptors when met in the file, values at ts). */
void tt_proto_on_energy_breakdown(pctx *c, pseq *s, const Perfetto__Protos__AndroidEnergyEstimationBreakdown *eb,
				  int64_t ts);
void tt_proto_on_entity_state(pctx *c, pseq *s, const Perfetto__Protos__EntityStateResidency *er, int64_t ts);
/* proto_cma.c: CMA allocations' events; their records when fed. */
void tt_proto_on_cma_event(pctx *c, pseq *ps, int64_t ts, const Perfetto__Protos__FtraceEvent *e);
void tt_proto_feed_cma(pctx *c, const prec *r);
/* proto_cpu_uid.c: a CpuPerUidData packet's counters at ts; at the end
 * of the import, the per-uid rows; a sequence's state cleared; freeing. */
void tt_proto_on_cpu_per_uid(pctx *c, pseq *s, const Perfetto__Protos__CpuPerUidData *d, int64_t ts);
void tt_proto_cpu_uid_finish(pctx *c);
void tt_proto_cpu_uid_cleared(pctx *c, uint32_t seq);
void tt_proto_cpu_uid_free(pctx *c);
/* proto_gpu.c: GpuCounterEvent (its descriptor read now, its values
 * fed as FT_GPU_COUNTER records), GpuRenderStageEvent, GpuInfo, the
 * interned GPU data of a packet, a sequence's state cleared; freeing. */
void tt_proto_on_gpu_counters(pctx *c, pseq *s, const Pkt *p, int64_t ts);
void tt_proto_feed_gpu_counter(pctx *c, const prec *r);
void tt_proto_feed_gpu_stage(pctx *c, const prec *r);
void tt_proto_on_gpu_render_stage(pctx *c, pseq *s, const Perfetto__Protos__GpuRenderStageEvent *ev, int64_t ts);
void tt_proto_on_gpu_info(pctx *c, const Perfetto__Protos__GpuInfo *gi);
void tt_proto_on_interned_gpu(pctx *c, pseq *s, const Perfetto__Protos__InternedData *in);
void tt_proto_gpu_cleared(pctx *c, uint32_t seq);
void tt_proto_gpu_free(pctx *c);
/* proto_drm.c: a DRM or dma-fence ftrace event (1: it was one), its
 * record when fed; freeing. */
int tt_proto_on_drm_event(pctx *c, pseq *ps, int64_t ts, const Perfetto__Protos__FtraceEvent *e);
void tt_proto_feed_drm(pctx *c, const prec *r);
void tt_proto_drm_free(pctx *c);
/* proto_v4l2.c: a V4L2 buffer ftrace event (1: it was one), its record
 * when fed. */
int tt_proto_on_v4l2_event(pctx *c, pseq *ps, int64_t ts, const Perfetto__Protos__FtraceEvent *e);
void tt_proto_feed_v4l2(pctx *c, const prec *r);
/* proto_virtio.c: a virtio-gpu or virtio-video ftrace event (1: it was
 * one), its record when fed. */
int tt_proto_on_virtio_event(pctx *c, pseq *ps, int64_t ts, const Perfetto__Protos__FtraceEvent *e);
void tt_proto_feed_virtio(pctx *c, const prec *r);
/* proto_kernel.c: the lane of cookie in the slice tracks of blueprint
 * type named name with no dimension, as trace processor's track
 * compressor gives it (suspend_resume, android_fs). */
uint32_t tt_proto_lane_track(pctx *c, const char *type, const char *name, uint64_t cookie, enum tt_async_kind kind);
/* proto_fs.c: android_fs data reads; their records when fed. */
void tt_proto_on_fs_event(pctx *c, pseq *ps, int64_t ts, const Perfetto__Protos__FtraceEvent *e);
void tt_proto_feed_fs(pctx *c, const prec *r);
/* proto_heaps.c: ion and DMA-BUF heap events; their records when fed. */
void tt_proto_on_heap_event(pctx *c, pseq *ps, int64_t ts, const Perfetto__Protos__FtraceEvent *e);
void tt_proto_feed_heap(pctx *c, const prec *r);
/* proto_typed_args.c: a TrackEvent's Chrome log message (te->log_message)
 * as a log row of the event's thread utid at ts (TT_NONE: none, an
 * error as in trace processor). */
void tt_proto_log_message(pctx *c, pseq *s, const TEv *te, int64_t ts, uint32_t utid);
/* proto_packet.c: one TracePacket (it: where the reader left it, NULL
 * for a packet inside compressed_packets); 0, or non-zero when it could
 * not be read. import_proto.c: a sequence's incremental state cleared. */
int tt_proto_on_packet(pctx *c, const Pkt *p, const tt_proto_item *it, int depth);
void tt_proto_seq_clear(pseq *s);
/* proto_translate.c: a TranslationTable packet's rules; a TrackEvent's
 * arg set with the names of the hashes it holds (when fed; set itself
 * when it holds none); a process track's name as the rules rename it. */
void tt_proto_on_translation_table(pctx *c, const Perfetto__Protos__TranslationTable *t);
uint32_t tt_proto_translate_set(pctx *c, uint32_t set);
tt_str tt_proto_translate_track_name(const pctx *c, tt_str raw);
void tt_proto_translate_free(pctx *c);
/* proto_service.c: the tracing service's packets and the trace config
 * (metadata, triggers, its stats); tt_proto_service_end once every record
 * was fed. */
void tt_proto_set_uuid(pctx *c, int64_t msb, int64_t lsb, int from_packet);
void tt_proto_on_trace_config(pctx *c, const ProtobufCBinaryData *raw);
void tt_proto_on_trace_attributes(pctx *c, const Perfetto__Protos__TraceAttributes *a);
void tt_proto_on_system_version(pctx *c, const char *v);
void tt_proto_on_service_event(pctx *c, const Perfetto__Protos__TracingServiceEvent *se, int64_t ts);
void tt_proto_on_trigger(pctx *c, pseq *s, int64_t ts, const Perfetto__Protos__Trigger *t, int clone);
void tt_proto_on_chrome_trigger(pctx *c, pseq *s, int64_t ts, const Perfetto__Protos__ChromeTrigger *t);
void tt_proto_feed_trigger(pctx *c, const prec *r);
void tt_proto_on_session_event(pctx *c, pseq *s, int64_t ts, const Perfetto__Protos__ConcurrentSessionEvent *e);
void tt_proto_feed_session(pctx *c, const prec *r);
void tt_proto_on_ftrace_stats(pctx *c, const Perfetto__Protos__FtraceStats *fs);
void tt_proto_stat_add_indexed(pctx *c, tt_stat s, int32_t idx, int64_t n);
void tt_proto_service_end(pctx *c);
/* proto_meta.c: Android's packages (each name once). */
void tt_proto_on_packages(pctx *c, const Perfetto__Protos__PackagesList *pl);
/* proto_meta.c: Android's logcat lines (R_LOG records) and their stats. */
void tt_proto_on_android_log(pctx *c, pseq *s, const Perfetto__Protos__AndroidLogPacket *p);
void tt_proto_feed_log(pctx *c, const prec *r);
/* A new task's runnable state; a waking (its record r, name the comm;
 * compact: by whoever runs on cpu `waker`, else the waking tid) of wakee. */
void tt_proto_sched_new_task(pctx *c, int64_t ts, uint32_t utid, uint32_t parent);
void tt_proto_sched_waking(pctx *c, const prec *r, int compact, int64_t waker, int64_t wakee);
/* sched_blocked_reason: io_wait and the kernel function (0: none) of the
 * thread's last blocked state. */
void tt_proto_sched_blocked(pctx *c, int64_t pid, int64_t io_wait, tt_str function);
void tt_proto_sched_free(pctx *c);

#endif
