/*
 * import_ctf.c - the CTF 1.8 / LTTng importer: finds the traces below a
 * folder, opens every stream of each, merges all streams of all traces by
 * time with a heap, and turns each event into storage rows.
 *
 * Pipeline: discovery (folders with a `metadata` file) -> ctf_metadata
 * (TSDL -> resolved types) -> ctf_stream (one cursor per stream file,
 * bit-exact decoding and clock rebuild) -> heap merge (ns since the epoch,
 * ties by trace, stream class, stream instance, file) -> trackers/storage.
 *
 * What an event becomes:
 *   - a `raw` row (ts, name, cpu, utid) whose arg set holds its payload
 *     fields (keys `a`, `a.b`, `a[2]`) and non-identity context fields
 *     (`context.NAME`); enums store their label (the number when no label
 *     matches), 8-bit encoded arrays store text. The set is lazy (see
 *     storage.h): the raw row keeps where the event lives (stream, bit
 *     offset) and the fields are decoded again when something reads them;
 *     the keys of an event class are interned once (a shape). Sets are
 *     written at import only for events whose keys vary (variants, non-text
 *     sequences) and that open or close a slice, since a merge needs keys;
 *   - a thread from vpid/vtid (UST) or pid/tid (kernel context), named by
 *     procname; kernel events without them use the thread that
 *     sched_switch put on their CPU;
 *   - a slice: `X_entry`/`X_exit`, `X_begin`/`X_end`, kernel
 *     `syscall_entry_X`/`syscall_exit_X` and lttng_ust_cyg_profile
 *     func_entry/func_exit open/close slices on the thread track; every
 *     other event is an instant (dur 0) on the thread track, else on its
 *     CPU's track, else on its stream's track;
 *   - kernel sched_switch closes/opens `sched_slice` rows per CPU;
 *   - an events_discarded increase becomes the ctf_events_discarded stat
 *     and a slice "lost events (N discarded)" over [previous packet end,
 *     this packet end] on the stream's "lost events" track.
 *
 * Problems in one stream (truncated packet, bad uuid, decode error) keep
 * every event before them, are counted in stats and described in the
 * metadata table (`ctf.problem.N`); the import still succeeds. The import
 * fails only when no trace could be opened at all.
 *
 * Lazy sets keep every stream file mapped (and the metadata loaded) until
 * the trace is closed or a full read of `args` stored every set.
 *
 * Known limits: lost packets (packet_seq_num gaps) are only counted; a
 * stream file cut shorter while the trace is open is not supported.
 */
#include "import_int.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ctf_metadata.h"
#include "ctf_stream.h"

#define MAX_DIR_DEPTH 10
#define MAX_TRACES 4096
#define MAX_STREAMS 65536
#define MAX_CPUS 4096
/* lazy set locator: stream index << LOC_BITS | bit offset in the file */
#define LOC_BITS 48
#define LOC_MASK ((UINT64_C(1) << LOC_BITS) - 1)
#define SHAPE_UNSET (TT_NONE - 1) /* class not seen yet */

enum ev_kind { K_INSTANT, K_BEGIN, K_END, K_FUNC_ENTRY, K_FUNC_EXIT, K_SCHED_SWITCH };

typedef struct trace_ctx {
	char *dir;
	ctf_meta *m;
	int index;
	tt_str *name;     /* per event class (index in m->events) */
	tt_str *base;     /* slice name for begin/end kinds */
	tt_str *cat;
	uint8_t *kind;
	uint32_t *shape;  /* storage shape of the class's keys, TT_NONE when
			   * they vary, SHAPE_UNSET before its first event */
	uint32_t *nkeys;
	uint8_t *skip;    /* classes whose values the import does not need:
			   * their cursors only count them (lazy streams) */
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

typedef struct lazy_ctx {
	ctf_meta **metas;
	size_t nmetas;
	lazy_src *srcs;
	size_t nsrcs;
} lazy_ctx;

typedef struct src {
	ctf_stream *s;
	trace_ctx *tr;
	int idx;
	const char *file; /* base name, for track names */
	const ctf_event *ev;
	int64_t ts;       /* ev->ts, next to the heap's other reads */
	/* thread cache */
	int has_last;
	int64_t last_pid, last_tid;
	uint32_t last_utid;
	char last_name[64];
	size_t last_name_len;
	int last_name_set;
	uint32_t stream_track, lost_track;
	uint32_t cpu_track;  /* track of cpu_track_cpu (the last one used) */
	int64_t cpu_track_cpu;
	int lazy;            /* its events may have lazy arg sets */
} src;

typedef struct cpu_state {
	uint32_t utid;      /* running thread, TT_NONE if unknown */
	int64_t since;
	int64_t prio;
	int running;
} cpu_state;

typedef struct ctx {
	tt_import *im;
	tt_storage *st;
	trace_ctx *traces;
	size_t ntraces;
	src *srcs;
	size_t nsrcs;
	src **heap;
	size_t nheap;
	cpu_state *cpus;    /* per trace? kernel traces: one per cpu, shared */
	size_t ncpus;
	int nproblems;
	uint64_t total_bytes;
	char **dirs;
	size_t ndirs, cdirs;
	tt_str s_lost_track, s_sched_state[16];
	lazy_ctx *lz;       /* owned by the storage; NULL: eager args */
} ctx;

/* ---- discovery -------------------------------------------------------- */
static int is_file(const char *dir, const char *name)
{
	char path[4096];
	struct stat sb;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return 0;
	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of the entries of dir (without . and ..). */
static char **list_dir(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;
	size_t cnt = 0, cap = 0;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (cnt == cap) {
			size_t nc = cap ? cap * 2 : 16;
			char **nv;

			if (nc > 1000000)
				break;
			nv = realloc(v, nc * sizeof(*nv));
			if (!nv)
				break;
			v = nv;
			cap = nc;
		}
		v[cnt] = strdup(e->d_name);
		if (!v[cnt])
			break;
		cnt++;
	}
	closedir(d);
	if (cnt)
		qsort(v, cnt, sizeof(*v), cmp_str);
	*n = cnt;
	return v;
}

static void free_list(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Calls found(dir) for every trace folder at or below dir. Returns the
 * count; stops early when stop_at is reached (0 = no limit). */
static size_t find_traces(const char *dir, int depth, size_t stop_at,
			  void (*found)(void *, const char *), void *arg)
{
	char **names;
	size_t n, i, count = 0;
	struct stat sb;

	if (depth > MAX_DIR_DEPTH)
		return 0;
	if (is_file(dir, "metadata")) {
		if (found)
			found(arg, dir);
		return 1;
	}
	names = list_dir(dir, &n);
	for (i = 0; i < n && (!stop_at || count < stop_at); i++) {
		char path[4096];

		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, names[i]) >= sizeof(path))
			continue;
		if (lstat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
			count += find_traces(path, depth + 1, stop_at ? stop_at - count : 0, found, arg);
	}
	free_list(names, n);
	return count;
}

int tt_ctf_dir_has_trace(const char *dir)
{
	return find_traces(dir, 0, 1, NULL, NULL) > 0;
}

static void add_dir(void *arg, const char *dir)
{
	ctx *c = arg;

	if (c->ndirs == c->cdirs) {
		size_t nc = c->cdirs ? c->cdirs * 2 : 8;
		char **nd;

		if (nc > MAX_TRACES)
			return;
		nd = realloc(c->dirs, nc * sizeof(*nd));
		if (!nd)
			return;
		c->dirs = nd;
		c->cdirs = nc;
	}
	c->dirs[c->ndirs] = strdup(dir);
	if (c->dirs[c->ndirs])
		c->ndirs++;
}

/* ---- problems ---------------------------------------------------------- */
static void note_problem(ctx *c, const char *msg)
{
	char key[48];

	if (!msg || !msg[0] || c->nproblems >= 100)
		return;
	snprintf(key, sizeof(key), "ctf.problem.%d", c->nproblems++);
	tt_storage_meta_str(c->st, key, msg);
}

/* ---- event classes --------------------------------------------------------- */
static int ends_with(const char *s, size_t n, const char *suf)
{
	size_t l = strlen(suf);

	return n > l && !memcmp(s + n - l, suf, l);
}

static int classify(ctx *c, trace_ctx *t)
{
	ctf_meta *m = t->m;
	size_t i, n = m->nevents ? m->nevents : 1;

	t->name = calloc(n, sizeof(*t->name));
	t->base = calloc(n, sizeof(*t->base));
	t->cat = calloc(n, sizeof(*t->cat));
	t->kind = calloc(n, sizeof(*t->kind));
	t->shape = malloc(n * sizeof(*t->shape));
	t->nkeys = calloc(n, sizeof(*t->nkeys));
	t->skip = calloc(n, sizeof(*t->skip));
	if (!t->name || !t->base || !t->cat || !t->kind || !t->shape || !t->nkeys || !t->skip)
		return TT_ENOMEM;
	for (i = 0; i < n; i++)
		t->shape[i] = SHAPE_UNSET;
	for (i = 0; i < m->nevents; i++) {
		const char *nm = m->events[i].name;
		size_t len = strlen(nm);
		const char *colon = strchr(nm, ':');
		const char *se;

		t->name[i] = tt_storage_intern(c->st, nm, len);
		t->cat[i] = colon ? tt_storage_intern(c->st, nm, (size_t)(colon - nm)) : 0;
		t->kind[i] = K_INSTANT;
		if (!strcmp(nm, "sched_switch")) {
			t->kind[i] = K_SCHED_SWITCH;
		} else if (colon && (!strcmp(colon, ":func_entry") || !strcmp(colon, ":func_exit")) &&
			   !strncmp(nm, "lttng_ust_cyg_profile", 21)) {
			t->kind[i] = !strcmp(colon, ":func_entry") ? K_FUNC_ENTRY : K_FUNC_EXIT;
		} else if ((se = strstr(nm, "syscall_entry_")) != NULL) {
			t->kind[i] = K_BEGIN;
			t->base[i] = tt_storage_intern_cstr(c->st, se + 14);
		} else if ((se = strstr(nm, "syscall_exit_")) != NULL) {
			t->kind[i] = K_END;
			t->base[i] = tt_storage_intern_cstr(c->st, se + 13);
		} else if (ends_with(nm, len, "_entry")) {
			t->kind[i] = K_BEGIN;
			t->base[i] = tt_storage_intern(c->st, nm, len - 6);
		} else if (ends_with(nm, len, "_exit")) {
			t->kind[i] = K_END;
			t->base[i] = tt_storage_intern(c->st, nm, len - 5);
		} else if (ends_with(nm, len, "_begin")) {
			t->kind[i] = K_BEGIN;
			t->base[i] = tt_storage_intern(c->st, nm, len - 6);
		} else if (ends_with(nm, len, "_end")) {
			t->kind[i] = K_END;
			t->base[i] = tt_storage_intern(c->st, nm, len - 4);
		}
	}
	return tt_storage_oom(c->st) ? TT_ENOMEM : TT_OK;
}

/* ---- heap ------------------------------------------------------------------ */
static int src_less(const src *a, const src *b)
{
	if (a->ts != b->ts)
		return a->ts < b->ts;
	if (a->tr->index != b->tr->index)
		return a->tr->index < b->tr->index;
	if (tt_ctf_stream_class_id(a->s) != tt_ctf_stream_class_id(b->s))
		return tt_ctf_stream_class_id(a->s) < tt_ctf_stream_class_id(b->s);
	if (tt_ctf_stream_instance(a->s) != tt_ctf_stream_instance(b->s))
		return tt_ctf_stream_instance(a->s) < tt_ctf_stream_instance(b->s);
	return a->idx < b->idx;
}

static void heap_down(ctx *c, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		src *t;

		if (l < c->nheap && src_less(c->heap[l], c->heap[m]))
			m = l;
		if (r < c->nheap && src_less(c->heap[r], c->heap[m]))
			m = r;
		if (m == i)
			return;
		t = c->heap[i];
		c->heap[i] = c->heap[m];
		c->heap[m] = t;
		i = m;
	}
}

static void heap_up(ctx *c, size_t i)
{
	while (i > 0) {
		size_t p = (i - 1) / 2;
		src *t;

		if (!src_less(c->heap[i], c->heap[p]))
			return;
		t = c->heap[i];
		c->heap[i] = c->heap[p];
		c->heap[p] = t;
		i = p;
	}
}

/* ---- storage of one event ----------------------------------------------------- */
static tt_track_desc desc(const char *type, tt_str name, int64_t cpu)
{
	tt_track_desc d;

	memset(&d, 0, sizeof(d));
	d.type = type;
	d.name = name;
	d.utid = TT_NONE;
	d.upid = TT_NONE;
	d.parent_id = TT_NONE;
	d.cpu = cpu;
	return d;
}

static void emit_discard(ctx *c, src *s, const ctf_discard *d)
{
	char buf[96];
	uint32_t set;
	int64_t dur = d->end_ts - d->begin_ts;

	if (s->lost_track == TT_NONE) {
		tt_track_desc td;

		snprintf(buf, sizeof(buf), "lost events (%s)", s->file);
		td = desc("global", tt_storage_intern_cstr(c->st, buf), -1);
		s->lost_track = tt_storage_track_keyed(c->st, "ctf-lost", (uint64_t)s->tr->index,
						      (uint64_t)s->idx, 0, &td);
	}
	tt_storage_stat_add(c->st, TT_STAT_ctf_events_discarded, (int64_t)d->count);
	if (d->count && d->packets)
		snprintf(buf, sizeof(buf), "lost events (%llu discarded, %llu packets lost)",
			 (unsigned long long)d->count, (unsigned long long)d->packets);
	else if (d->count)
		snprintf(buf, sizeof(buf), "lost events (%llu discarded)", (unsigned long long)d->count);
	else
		snprintf(buf, sizeof(buf), "lost events (%llu packets lost)", (unsigned long long)d->packets);
	tt_storage_args_begin(c->st);
	if (d->count)
		tt_storage_args_uint(c->st, "events_discarded", d->count);
	if (d->packets)
		tt_storage_args_uint(c->st, "packets_lost", d->packets);
	tt_storage_args_str(c->st, "stream", s->file, strlen(s->file));
	set = tt_storage_args_end(c->st);
	tt_slice_tracker_complete(c->im->slices, s->lost_track, d->begin_ts, dur < 0 ? 0 : dur, 0,
				  tt_storage_intern_cstr(c->st, buf), set);
}

static const ctf_val *find_val(const ctf_event *ev, const char *key)
{
	size_t i;

	for (i = ev->ncontext; i < ev->nvals; i++)
		if (!strcmp(ev->vals[i].key, key))
			return &ev->vals[i];
	return NULL;
}

static int64_t val_int(const ctf_val *v, int64_t dflt)
{
	if (!v)
		return dflt;
	switch (v->kind) {
	case CTF_V_INT:
		return v->v.i;
	case CTF_V_UINT:
	case CTF_V_ENUM:
		return (int64_t)v->v.u;
	default:
		return dflt;
	}
}

static cpu_state *cpu_get(ctx *c, int64_t cpu)
{
	if (cpu < 0 || cpu >= MAX_CPUS)
		return NULL;
	if ((size_t)cpu >= c->ncpus) {
		size_t n = (size_t)cpu + 1, i;
		cpu_state *nc = realloc(c->cpus, n * sizeof(*nc));

		if (!nc)
			return NULL;
		for (i = c->ncpus; i < n; i++) {
			nc[i].utid = TT_NONE;
			nc[i].running = 0;
			nc[i].since = 0;
			nc[i].prio = 0;
		}
		c->cpus = nc;
		c->ncpus = n;
	}
	return &c->cpus[cpu];
}

static tt_str state_str(ctx *c, int64_t state)
{
	/* Linux task state bits as lttng-modules writes prev_state */
	static const char letters[] = "SDTtXZPIKWPN";
	char buf[16];
	size_t n = 0;
	int b;

	if (state == 0)
		return tt_storage_intern_cstr(c->st, "R");
	for (b = 0; b < 12 && n + 1 < sizeof(buf); b++)
		if (state & ((int64_t)1 << b))
			buf[n++] = letters[b];
	if (!n)
		buf[n++] = '?';
	return tt_storage_intern(c->st, buf, n);
}

static void sched_switch(ctx *c, const ctf_event *ev, int64_t cpu)
{
	cpu_state *cs = cpu_get(c, cpu);
	const ctf_val *prev_tid = find_val(ev, "prev_tid"), *next_tid = find_val(ev, "next_tid");
	const ctf_val *next_comm = find_val(ev, "next_comm"), *prev_comm = find_val(ev, "prev_comm");
	uint32_t prev_utid, next_utid;

	if (!cs || !next_tid)
		return;
	prev_utid = prev_tid ? tt_storage_thread(c->st, -1, val_int(prev_tid, 0)) : TT_NONE;
	if (prev_comm && prev_comm->kind == CTF_V_STR && prev_utid != TT_NONE && val_int(prev_tid, 0) != 0)
		tt_storage_thread_set_name(c->st, prev_utid, tt_storage_intern(c->st, prev_comm->s, prev_comm->len));
	if (cs->running && cs->utid != TT_NONE && ev->ts >= cs->since)
		tt_storage_sched(c->st, cs->since, ev->ts - cs->since, cpu, cs->utid,
				 state_str(c, val_int(find_val(ev, "prev_state"), 0)), cs->prio);
	next_utid = tt_storage_thread(c->st, -1, val_int(next_tid, 0));
	if (next_comm && next_comm->kind == CTF_V_STR && val_int(next_tid, 0) != 0)
		tt_storage_thread_set_name(c->st, next_utid, tt_storage_intern(c->st, next_comm->s, next_comm->len));
	cs->utid = next_utid;
	cs->since = ev->ts;
	cs->prio = val_int(find_val(ev, "next_prio"), 0);
	cs->running = 1;
}

/* a[0..n) == b[0..n): names are compared for every event, so short ones
 * (<= 16 bytes, the usual procname) take two 8-byte loads per side */
static int same_bytes(const char *a, const char *b, size_t n)
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

static uint32_t thread_of(ctx *c, src *s, const ctf_event *ev, int64_t cpu)
{
	int64_t pid, tid;
	uint32_t utid;

	if (ev->has_vtid) {
		tid = ev->vtid;
		pid = ev->has_vpid ? ev->vpid : -1;
	} else if (ev->has_tid) {
		tid = ev->tid;
		pid = ev->has_pid ? ev->pid : -1;
	} else {
		cpu_state *cs = cpu < (int64_t)c->ncpus && cpu >= 0 ? &c->cpus[cpu] : NULL;

		return cs && cs->running ? cs->utid : TT_NONE;
	}
	if (s->has_last && s->last_pid == pid && s->last_tid == tid) {
		utid = s->last_utid;
	} else {
		utid = tt_storage_thread(c->st, pid, tid);
		s->has_last = 1;
		s->last_pid = pid;
		s->last_tid = tid;
		s->last_utid = utid;
		s->last_name_set = 0;
	}
	if (ev->procname && utid != TT_NONE &&
	    (!s->last_name_set || s->last_name_len != ev->procname_len ||
	     !same_bytes(s->last_name, ev->procname, ev->procname_len))) {
		tt_str name = tt_storage_intern(c->st, ev->procname, ev->procname_len);

		tt_storage_thread_set_name(c->st, utid, name);
		if (pid == tid && pid >= 0)
			tt_storage_process_set_name(c->st, tt_storage_thread_upid(c->st, utid), name);
		s->last_name_set = ev->procname_len <= sizeof(s->last_name);
		s->last_name_len = ev->procname_len;
		if (s->last_name_set)
			memcpy(s->last_name, ev->procname, ev->procname_len);
	}
	return utid;
}

/* The rows of an event's arg set, eager or lazy alike. */
static void put_vals(tt_storage *st, const ctf_event *ev)
{
	size_t i;

	for (i = 0; i < ev->nvals; i++) {
		const ctf_val *v = &ev->vals[i];
		const char *key = v->key;

		switch (v->kind) {
		case CTF_V_INT:
			tt_storage_args_int(st, key, v->v.i);
			break;
		case CTF_V_UINT:
			tt_storage_args_uint(st, key, v->v.u);
			break;
		case CTF_V_REAL:
			tt_storage_args_real(st, key, v->v.d);
			break;
		case CTF_V_STR:
			tt_storage_args_str(st, key, v->s, v->len);
			break;
		case CTF_V_ENUM:
			if (v->s)
				tt_storage_args_str(st, key, v->s, v->len);
			else if (v->type->is_signed)
				tt_storage_args_int(st, key, (int64_t)v->v.u);
			else
				tt_storage_args_uint(st, key, v->v.u);
			break;
		}
	}
}

/* ---- lazy args --------------------------------------------------------------- */
static void lazy_free(void *p)
{
	lazy_ctx *z = p;

	if (!z)
		return;
	for (size_t i = 0; i < z->nsrcs; i++) {
		tt_ctf_stream_close(z->srcs[i].s);
		free(z->srcs[i].path);
	}
	for (size_t i = 0; i < z->nmetas; i++)
		tt_ctf_meta_free(z->metas[i]);
	free(z->srcs);
	free(z->metas);
	free(z);
}

/* Decodes the event at loc again, on a cursor of its own (the import's
 * cursor is mid-packet until the import ends). */
static int lazy_decode(void *p, tt_storage *st, uint64_t loc)
{
	lazy_ctx *z = p;
	size_t i = (size_t)(loc >> LOC_BITS);
	const ctf_event *ev;
	lazy_src *ls;

	if (i >= z->nsrcs || z->srcs[i].failed || !z->srcs[i].path)
		return -1;
	ls = &z->srcs[i];
	if (!ls->s) {
		tt_err e;

		tt_err_clear(&e);
		if (tt_ctf_stream_open(ls->m, ls->path, &ls->s, &e) != TT_OK) {
			ls->failed = 1;
			return -1;
		}
	}
	if (tt_ctf_stream_event_at(ls->s, loc & LOC_MASK, &ev) != 1)
		return -1;
	put_vals(st, ev);
	return 0;
}

static const tt_args_decoder lazy_ops = { .decode = lazy_decode, .free_ctx = lazy_free };

/* The shape of class ci's keys, registered at its first event; TT_NONE
 * when its keys vary from event to event. */
static uint32_t class_shape(ctx *c, src *s, size_t ci, const ctf_event *ev)
{
	trace_ctx *t = s->tr;
	const ctf_stream_class *sc = tt_ctf_stream_class(s->s);
	tt_str *keys;

	if (t->shape[ci] != SHAPE_UNSET)
		return t->shape[ci];
	t->shape[ci] = TT_NONE;
	if (!sc || !tt_ctf_type_fixed(sc->event_context) || !tt_ctf_type_fixed(ev->cls->context) ||
	    !tt_ctf_type_fixed(ev->cls->fields))
		return TT_NONE;
	keys = malloc(ev->nvals * sizeof(*keys));
	if (!keys)
		return TT_NONE;
	for (size_t i = 0; i < ev->nvals; i++)
		keys[i] = tt_storage_intern_cstr(c->st, ev->vals[i].key);
	if (!tt_storage_oom(c->st)) {
		t->shape[ci] = tt_storage_args_shape(c->st, keys, ev->nvals);
		t->nkeys[ci] = (uint32_t)ev->nvals;
		/* from now on the keys are known: only func_entry (addr) and
		 * sched_switch read values at import */
		t->skip[ci] = t->shape[ci] != TT_NONE && t->kind[ci] != K_FUNC_ENTRY &&
			      t->kind[ci] != K_SCHED_SWITCH;
	}
	free(keys);
	return t->shape[ci];
}

static uint32_t event_args(ctx *c, src *s, const ctf_event *ev, size_t ci, int kind)
{
	tt_storage *st = c->st;

	if (s->lazy) {
		uint64_t loc = (uint64_t)s->idx << LOC_BITS | ev->offset;
		uint32_t shape;

		if (ev->skipped)
			return tt_storage_args_lazy(st, loc, s->tr->shape[ci], s->tr->nkeys[ci]);
		if (!ev->nvals)
			return TT_NONE;
		shape = class_shape(c, s, ci, ev);

		if (shape != TT_NONE && ev->nvals == s->tr->nkeys[ci])
			return tt_storage_args_lazy(st, loc, shape, ev->nvals);
		/* keys known only by decoding: fine unless a slice merges it */
		if (shape == TT_NONE && (kind == K_INSTANT || kind == K_SCHED_SWITCH))
			return tt_storage_args_lazy(st, loc, TT_NONE, ev->nvals);
	}
	if (!ev->nvals)
		return TT_NONE;
	tt_storage_args_begin(st);
	put_vals(st, ev);
	return tt_storage_args_end(st);
}

static void store_event(ctx *c, src *s, const ctf_event *ev)
{
	trace_ctx *t = s->tr;
	size_t ci = (size_t)(ev->cls - t->m->events);
	int64_t cpu = tt_ctf_stream_cpu(s->s);
	uint32_t utid, set, track;
	int kind = t->kind[ci];

	if (kind == K_SCHED_SWITCH)
		sched_switch(c, ev, cpu);
	utid = thread_of(c, s, ev, cpu);
	set = event_args(c, s, ev, ci, kind);
	tt_storage_raw(c->st, ev->ts, t->name[ci], cpu, utid, set);
	if (kind == K_SCHED_SWITCH)
		return;
	if (utid != TT_NONE) {
		tt_storage_thread_seen(c->st, utid, ev->ts);
		track = tt_storage_thread_track(c->st, utid);
	} else if (cpu >= 0) {
		if (s->cpu_track == TT_NONE || s->cpu_track_cpu != cpu) {
			char buf[32];
			tt_track_desc d;

			snprintf(buf, sizeof(buf), "cpu %lld", (long long)cpu);
			d = desc("cpu", tt_storage_intern_cstr(c->st, buf), cpu);
			s->cpu_track = tt_storage_track_keyed(c->st, "ctf-cpu", (uint64_t)t->index,
							      (uint64_t)cpu, 0, &d);
			s->cpu_track_cpu = cpu;
		}
		track = s->cpu_track;
	} else {
		if (s->stream_track == TT_NONE) {
			tt_track_desc d = desc("global", tt_storage_intern_cstr(c->st, s->file), -1);

			s->stream_track = tt_storage_track_keyed(c->st, "ctf-stream", (uint64_t)t->index,
								 (uint64_t)s->idx, 0, &d);
		}
		track = s->stream_track;
	}
	if (track == TT_NONE)
		return;
	switch (kind) {
	case K_BEGIN:
		tt_slice_tracker_begin(c->im->slices, track, ev->ts, t->cat[ci], t->base[ci], set);
		break;
	case K_END:
		tt_slice_tracker_end(c->im->slices, track, ev->ts, t->base[ci], set);
		break;
	case K_FUNC_ENTRY: {
		const ctf_val *addr = find_val(ev, "addr");
		char buf[32];

		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)val_int(addr, 0));
		tt_slice_tracker_begin(c->im->slices, track, ev->ts, t->cat[ci],
				       tt_storage_intern_cstr(c->st, buf), set);
		break;
	}
	case K_FUNC_EXIT:
		tt_slice_tracker_end(c->im->slices, track, ev->ts, 0, set);
		break;
	default:
		tt_slice_tracker_complete(c->im->slices, track, ev->ts, 0, t->cat[ci], t->name[ci], set);
		break;
	}
}

/* ---- opening ---------------------------------------------------------------- */
static void env_meta(ctx *c, trace_ctx *t)
{
	char key[160];
	size_t i;

	if (t->index == 0)
		tt_storage_meta_str(c->st, "ctf.trace_dir", t->dir);
	for (i = 0; i < t->m->nenv; i++) {
		const ctf_env_entry *e = &t->m->env[i];

		if (t->index == 0)
			snprintf(key, sizeof(key), "ctf.env.%s", e->key);
		else
			snprintf(key, sizeof(key), "ctf.%d.env.%s", t->index, e->key);
		if (e->str)
			tt_storage_meta_str(c->st, key, e->str);
		else
			tt_storage_meta_int(c->st, key, e->num);
	}
	if (t->m->skipped) {
		int named = 0;

		for (int k = 0; k < t->m->nskipped_names; k++) {
			tt_storage_stat_named(c->st, TT_STAT_ctf_metadata_unsupported,
					      t->m->skipped_name[k], t->m->skipped_count[k]);
			named += t->m->skipped_count[k];
		}
		/* past the first 16 names: still counted */
		if (t->m->skipped > named)
			tt_storage_stat_add(c->st, TT_STAT_ctf_metadata_unsupported, t->m->skipped - named);
	}
}

static int open_trace_streams(ctx *c, trace_ctx *t)
{
	char **names;
	size_t n, i;
	int rc = TT_OK;

	names = list_dir(t->dir, &n);
	for (i = 0; i < n; i++) {
		char path[4096];
		tt_err e;
		ctf_stream *s;
		src *sp;

		if (!strcmp(names[i], "metadata") || !is_file(t->dir, names[i]))
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", t->dir, names[i]) >= sizeof(path))
			continue;
		tt_err_clear(&e);
		if (tt_ctf_stream_open(t->m, path, &s, &e) != TT_OK) {
			if (e.code == TT_ENOMEM) {
				rc = tt_err_set(c->im->err, TT_ENOMEM, "%s", e.msg);
				break;
			}
			tt_storage_stat_add(c->st, TT_STAT_ctf_decode_error, 1);
			note_problem(c, e.msg);
			continue;
		}
		if (c->nsrcs >= MAX_STREAMS) {
			tt_ctf_stream_close(s);
			note_problem(c, "too many stream files: the rest were skipped");
			break;
		}
		sp = &c->srcs[c->nsrcs];
		memset(sp, 0, sizeof(*sp));
		sp->s = s;
		sp->tr = t;
		sp->idx = (int)c->nsrcs;
		sp->file = strdup(names[i]);
		sp->stream_track = TT_NONE;
		sp->lost_track = TT_NONE;
		sp->cpu_track = TT_NONE;
		/* locators hold the stream index and a bit offset */
		if (c->lz && sp->idx <= (int)(UINT64_MAX >> LOC_BITS) &&
		    tt_ctf_stream_size(s) <= LOC_MASK / 8) {
			lazy_src *ls = &c->lz->srcs[sp->idx];

			ls->m = t->m;
			ls->path = strdup(path);
			sp->lazy = ls->path != NULL;
			if (sp->lazy) {
				c->lz->nsrcs = (size_t)sp->idx + 1;
				tt_ctf_stream_skip_values(s, t->skip);
			}
		}
		if (!sp->file) {
			tt_ctf_stream_close(s);
			rc = tt_err_set(c->im->err, TT_ENOMEM, "%s: out of memory", path);
			break;
		}
		c->total_bytes += tt_ctf_stream_size(s);
		c->nsrcs++;
	}
	free_list(names, n);
	return rc;
}

static int count_files(const char *dir)
{
	char **names;
	size_t n, i;
	int k = 0;

	names = list_dir(dir, &n);
	for (i = 0; i < n; i++)
		if (strcmp(names[i], "metadata") && is_file(dir, names[i]))
			k++;
	free_list(names, n);
	return k;
}

static void progress(ctx *c, uint64_t events)
{
	uint64_t done = 0;
	size_t i;

	for (i = 0; i < c->nsrcs; i++)
		done += tt_ctf_stream_offset(c->srcs[i].s);
	tt_import_progress(c->im, done, events);
}

/* Advances a source; emits pending discards. Returns 1 when it has an
 * event. */
static int advance(ctx *c, src *s)
{
	ctf_discard d;
	int r = tt_ctf_stream_next(s->s, &s->ev);

	if (r)
		s->ts = s->ev->ts;
	while (tt_ctf_stream_take_discard(s->s, &d))
		emit_discard(c, s, &d);
	return r;
}

int tt_import_ctf(tt_import *im, const char *dir)
{
	ctx c;
	size_t i, nfiles = 0;
	int rc = TT_OK;
	uint64_t events = 0;
	tt_err first;

	memset(&c, 0, sizeof(c));
	c.im = im;
	c.st = im->st;
	tt_err_clear(&first);
	find_traces(dir, 0, 0, add_dir, &c);
	if (!c.ndirs) {
		rc = tt_err_set(im->err, TT_EINVAL, "%s: no CTF trace (no metadata file) found", dir);
		goto out;
	}
	c.traces = calloc(c.ndirs, sizeof(*c.traces));
	if (!c.traces) {
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", dir);
		goto out;
	}
	for (i = 0; i < c.ndirs; i++)
		nfiles += (size_t)count_files(c.dirs[i]);
	if (nfiles > MAX_STREAMS)
		nfiles = MAX_STREAMS;
	c.srcs = calloc(nfiles ? nfiles : 1, sizeof(*c.srcs));
	c.heap = calloc(nfiles ? nfiles : 1, sizeof(*c.heap));
	if (!c.srcs || !c.heap) {
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", dir);
		goto out;
	}
	/* Lazy args: the storage owns the decoder (metadata, stream paths)
	 * from here on; without it every set is written now. */
	c.lz = calloc(1, sizeof(*c.lz));
	if (c.lz) {
		c.lz->srcs = calloc(nfiles ? nfiles : 1, sizeof(*c.lz->srcs));
		c.lz->metas = calloc(c.ndirs, sizeof(*c.lz->metas));
		if (!c.lz->srcs || !c.lz->metas) {
			lazy_free(c.lz);
			c.lz = NULL;
		} else if (tt_storage_args_decoder(c.st, &lazy_ops, c.lz)) {
			c.lz = NULL; /* freed by the storage */
		}
	}
	for (i = 0; i < c.ndirs; i++) {
		trace_ctx *t = &c.traces[c.ntraces];
		tt_err e;
		int r;

		tt_err_clear(&e);
		r = tt_ctf_meta_load(c.dirs[i], &t->m, &e);
		if (r != TT_OK) {
			if (r == TT_ENOMEM) {
				rc = tt_err_set(im->err, r, "%s", e.msg);
				goto out;
			}
			if (!first.code)
				first = e;
			note_problem(&c, e.msg);
			continue;
		}
		t->dir = c.dirs[i];
		t->index = (int)c.ntraces;
		c.ntraces++;
		if (c.lz)
			c.lz->metas[c.lz->nmetas++] = t->m;
		if ((rc = classify(&c, t)) != TT_OK) {
			tt_err_set(im->err, rc, "%s: out of memory", dir);
			goto out;
		}
		env_meta(&c, t);
		if ((rc = open_trace_streams(&c, t)) != TT_OK)
			goto out;
	}
	if (!c.ntraces) {
		rc = tt_err_set(im->err, first.code ? first.code : TT_EINVAL, "%s", first.msg);
		goto out;
	}
	if (im->progress)
		atomic_store(&im->progress->bytes_total, c.total_bytes);
	for (i = 0; i < c.nsrcs; i++) {
		if (advance(&c, &c.srcs[i])) {
			c.heap[c.nheap++] = &c.srcs[i];
			heap_up(&c, c.nheap - 1);
		}
	}
	while (c.nheap) {
		src *s = c.heap[0];

		store_event(&c, s, s->ev);
		if (advance(&c, s)) {
			heap_down(&c, 0);
		} else {
			c.heap[0] = c.heap[--c.nheap];
			heap_down(&c, 0);
		}
		if ((++events & 0xFFFF) == 0) {
			if (tt_storage_oom(c.st)) {
				rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory after %llu events", dir,
						(unsigned long long)events);
				goto out;
			}
			if (tt_import_cancelled(im)) {
				rc = tt_err_set(im->err, TT_ECANCEL, "%s: import cancelled", dir);
				goto out;
			}
			progress(&c, events);
		}
	}
	/* a thread still running on a CPU at the end has no known end: no
	 * sched_slice row for it (Perfetto does the same) */
	for (i = 0; i < c.nsrcs; i++) {
		const ctf_stream_stats *ss = tt_ctf_stream_stats(c.srcs[i].s);

		if (ss->packets_lost)
			tt_storage_stat_add(c.st, TT_STAT_ctf_packets_lost, (int64_t)ss->packets_lost);
		if (ss->truncated)
			tt_storage_stat_add(c.st, TT_STAT_ctf_truncated, (int64_t)ss->truncated);
		if (ss->decode_errors)
			tt_storage_stat_add(c.st, TT_STAT_ctf_decode_error, (int64_t)ss->decode_errors);
		if (ss->unknown_events)
			tt_storage_stat_add(c.st, TT_STAT_ctf_event_unknown, (int64_t)ss->unknown_events);
		if (ss->ts_backwards)
			tt_storage_stat_add(c.st, TT_STAT_ts_backwards, (int64_t)ss->ts_backwards);
		note_problem(&c, tt_ctf_stream_problem(c.srcs[i].s));
	}
	progress(&c, events);
	if (tt_storage_oom(c.st))
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", dir);
out:
	for (i = 0; i < c.nsrcs; i++) {
		/* the decoder keeps the mapped file: a stream deleted or
		 * moved after the import still decodes */
		if (c.lz && c.srcs[i].lazy && !c.lz->srcs[i].s) {
			tt_ctf_stream_skip_values(c.srcs[i].s, NULL);
			c.lz->srcs[i].s = c.srcs[i].s;
		} else {
			tt_ctf_stream_close(c.srcs[i].s);
		}
		free((char *)c.srcs[i].file);
	}
	for (i = 0; i < c.ntraces; i++) {
		if (!c.lz)
			tt_ctf_meta_free(c.traces[i].m);
		free(c.traces[i].name);
		free(c.traces[i].base);
		free(c.traces[i].cat);
		free(c.traces[i].kind);
		free(c.traces[i].shape);
		free(c.traces[i].nkeys);
		free(c.traces[i].skip);
	}
	free_list(c.dirs, c.ndirs);
	free(c.traces);
	free(c.srcs);
	free(c.heap);
	free(c.cpus);
	return rc;
}
