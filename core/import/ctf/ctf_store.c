/*
 * ctf_store.c - one merged CTF event into storage (see import_ctf.c for
 * what an event becomes): its raw row and lazy or eager arg set, its
 * thread, its slice or instant, the CPU tracks (event runs or
 * sched_switch slices), function names from the statedump, lost events;
 * and the lazy-args decoder that reads an event's fields again.
 */
#include "import_ctf_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"

/* ---- problems ---------------------------------------------------------- */
void tt_ctf_note_problem(ctx *c, const char *msg)
{
	char key[48];

	if (!msg || !msg[0] || c->nproblems >= 100)
		return;
	/* the first one is the import's warning: every command prints it */
	if (!c->nproblems) {
		tt_storage_meta_str(c->st, "import_warning", msg);
		snprintf(c->first_problem, sizeof(c->first_problem), "%s", msg);
	}
	snprintf(key, sizeof(key), "ctf.problem.%d", c->nproblems++);
	tt_storage_meta_str(c->st, key, msg);
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

void tt_ctf_emit_discard(ctx *c, src *s, const ctf_discard *d)
{
	char buf[96];
	uint32_t set;
	int64_t dur = d->end_ts - d->begin_ts;

	if (s->lost_track == TT_NONE) {
		tt_track_desc td;

		snprintf(buf, sizeof(buf), "lost events (%s)", s->file);
		td = desc("global", tt_storage_intern_cstr(c->st, buf), -1);
		s->lost_track = tt_track_tracker_keyed(c->im->tracks, "ctf-lost", (uint64_t)s->tr->index,
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
	set = tt_args_tracker_end(c->im->args);
	tt_slice_tracker_complete(c->im->slices, s->lost_track, d->begin_ts, dur < 0 ? 0 : dur, 0,
				  tt_storage_intern_cstr(c->st, buf), set);
}

static const ctf_val *find_val(const evals *x, const char *key)
{
	for (size_t i = x->ncontext; i < x->n; i++)
		if (!strcmp(x->v[i].key, key))
			return &x->v[i];
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
			nc[i].tid = 0;
			nc[i].comm = 0;
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

/* ---- CPU tracks ---------------------------------------------------------------- */
static cpu_run *run_get(ctx *c, int64_t cpu)
{
	if (cpu < 0 || cpu >= MAX_CPUS)
		return NULL;
	if ((size_t)cpu >= c->nruns) {
		size_t n = (size_t)cpu + 1;
		cpu_run *nr = realloc(c->runs, n * sizeof(*nr));

		if (!nr)
			return NULL;
		memset(nr + c->nruns, 0, (n - c->nruns) * sizeof(*nr));
		for (size_t i = c->nruns; i < n; i++)
			nr[i].track = TT_NONE;
		c->runs = nr;
		c->nruns = n;
	}
	if (c->runs[cpu].track == TT_NONE) {
		char buf[32];
		tt_track_desc d;

		snprintf(buf, sizeof(buf), "CPU %lld", (long long)cpu);
		d = desc("cpu", tt_storage_intern_cstr(c->st, buf), cpu);
		c->runs[cpu].track = tt_track_tracker_keyed(c->im->tracks, "ctf-cpu-run", 0, (uint64_t)cpu, 0, &d);
	}
	return &c->runs[cpu];
}

/* One slice of the CPU track: who ran there over [ts, ts + dur). */
static void cpu_slice(ctx *c, uint32_t track, int64_t ts, int64_t dur, tt_str name, int64_t tid,
		      int64_t pid, uint64_t events)
{
	uint32_t set;

	if (track == TT_NONE)
		return;
	tt_storage_args_begin(c->st);
	tt_storage_args_int(c->st, "tid", tid);
	if (pid >= 0)
		tt_storage_args_int(c->st, "pid", pid);
	if (events)
		tt_storage_args_uint(c->st, "events", events);
	set = tt_args_tracker_end(c->im->args);
	tt_slice_tracker_complete(c->im->slices, track, ts, dur < 0 ? 0 : dur, 0, name, set);
}

static void run_close(ctx *c, cpu_run *r)
{
	if (!r->open)
		return;
	cpu_slice(c, r->track, r->start, r->last - r->start, r->name, r->tid, r->pid, r->events);
	r->open = 0;
}

/* An event of utid on cpu at ts (no scheduler events in the traces). */
static void run_note(ctx *c, const rec *ev, uint32_t utid)
{
	cpu_run *r = run_get(c, ev->cpu);

	if (!r || r->sched)
		return;
	if (r->open && r->utid == utid) {
		r->last = ev->ts;
		r->events++;
		return;
	}
	run_close(c, r);
	r->open = 1;
	r->utid = utid;
	r->start = r->last = ev->ts;
	r->events = 1;
	r->tid = ev->tid;
	r->pid = ev->pid;
	if (ev->procname && ev->procname_len) {
		r->name = tt_storage_intern(c->st, ev->procname, ev->procname_len);
	} else {
		char buf[40];

		snprintf(buf, sizeof(buf), "tid %lld", (long long)ev->tid);
		r->name = tt_storage_intern_cstr(c->st, buf);
	}
}

/* Returns the thread switched out (TT_NONE when the event names none). */
static uint32_t sched_switch(ctx *c, const rec *ev, const evals *x, int64_t cpu)
{
	cpu_state *cs = cpu_get(c, cpu);
	const ctf_val *prev_tid = find_val(x, "prev_tid"), *next_tid = find_val(x, "next_tid");
	const ctf_val *next_comm = find_val(x, "next_comm"), *prev_comm = find_val(x, "prev_comm");
	uint32_t prev_utid, next_utid;

	if (!cs || !next_tid)
		return TT_NONE;
	prev_utid = prev_tid ? tt_process_tracker_thread(c->im->procs, -1, val_int(prev_tid, 0)) : TT_NONE;
	if (prev_comm && prev_comm->kind == CTF_V_STR && prev_utid != TT_NONE && val_int(prev_tid, 0) != 0)
		tt_storage_thread_set_name(c->st, prev_utid, tt_storage_intern(c->st, prev_comm->s, prev_comm->len));
	cpu_run *r = run_get(c, cpu);

	if (r && !r->sched) {
		run_close(c, r); /* events before the CPU's first switch */
		r->sched = 1;
	}
	if (cs->running && cs->utid != TT_NONE && ev->ts >= cs->since) {
		tt_storage_sched(c->st, cs->since, ev->ts - cs->since, cpu, cs->utid,
				 state_str(c, val_int(find_val(x, "prev_state"), 0)), cs->prio);
		/* the idle task (tid 0) leaves the CPU track empty, as in
		 * Perfetto */
		if (r && cs->tid != 0)
			cpu_slice(c, r->track, cs->since, ev->ts - cs->since, cs->comm, cs->tid, -1, 0);
	}
	next_utid = tt_process_tracker_thread(c->im->procs, -1, val_int(next_tid, 0));
	if (next_comm && next_comm->kind == CTF_V_STR && val_int(next_tid, 0) != 0)
		tt_storage_thread_set_name(c->st, next_utid, tt_storage_intern(c->st, next_comm->s, next_comm->len));
	cs->utid = next_utid;
	cs->tid = val_int(next_tid, 0);
	cs->comm = next_comm && next_comm->kind == CTF_V_STR
		 ? tt_storage_intern(c->st, next_comm->s, next_comm->len) : tt_storage_intern_cstr(c->st, "?");
	cs->since = ev->ts;
	cs->prio = val_int(find_val(x, "next_prio"), 0);
	cs->running = 1;
	return prev_utid;
}

static uint32_t thread_of(ctx *c, src *s, const rec *ev)
{
	int64_t pid = ev->pid, tid = ev->tid, cpu = ev->cpu;
	uint32_t utid;

	if (!(ev->flags & R_THREAD)) {
		cpu_state *cs = cpu < (int64_t)c->ncpus && cpu >= 0 ? &c->cpus[cpu] : NULL;

		return cs && cs->running ? cs->utid : TT_NONE;
	}
	/* the stream's record before this one had the same thread and name */
	if ((ev->flags & R_SAME) && s->has_last)
		return s->last_utid;
	if (s->has_last && s->last_pid == pid && s->last_tid == tid) {
		utid = s->last_utid;
	} else {
		utid = tt_process_tracker_thread(c->im->procs, pid, tid);
		s->has_last = 1;
		s->last_pid = pid;
		s->last_tid = tid;
		s->last_utid = utid;
		s->last_name_set = 0;
	}
	if (ev->procname && utid != TT_NONE &&
	    (!s->last_name_set || s->last_name_len != ev->procname_len ||
	     !tt_ctf_same_bytes(s->last_name, ev->procname, ev->procname_len))) {
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
static void put_vals(tt_storage *st, const ctf_val *vals, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const ctf_val *v = &vals[i];
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
/* ---- the locator map ------------------------------------------------------- */
loc_map *tt_ctf_loc_map_new(size_t nstreams)
{
	loc_map *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->nstreams = nstreams;
	m->off = calloc(nstreams, sizeof(*m->off));
	m->count = calloc(nstreams, sizeof(*m->count));
	if (!m->off || !m->count) {
		free(m->off);
		free(m->count);
		free(m);
		return NULL;
	}
	return m;
}

static void loc_map_free(loc_map *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nstreams; i++)
		tt_packcol_free(&m->off[i]);
	free(m->off);
	free(m->count);
	free(m->at);
	free(m->sid);
	free(m->ck);
	free(m);
}

/* The locator of the next lazy set, the event at offset of stream idx;
 * UINT64_MAX when memory ran out. */
static uint64_t loc_map_add(loc_map *m, size_t idx, uint64_t offset)
{
	uint64_t g = m->n;

	if (g % LOC_CK == 0) {
		if (tt_vec_reserve((void **)&m->ck, &m->cck, m->nck + m->nstreams, sizeof(*m->ck)))
			return UINT64_MAX;
		memcpy(m->ck + m->nck, m->count, m->nstreams * sizeof(*m->ck));
		m->nck += m->nstreams;
	}
	if ((m->n == m->cap && tt_vec_reserve((void **)&m->sid, &m->cap, m->n + 1, 1)) ||
	    tt_packcol_push(&m->off[idx], offset))
		return UINT64_MAX;
	m->sid[m->n++] = (uint8_t)idx;
	m->count[idx]++;
	return g;
}

/* The import is over: the columns give back their growth slack. */
void tt_ctf_loc_map_done(loc_map *m)
{
	uint8_t *p;

	if (!m)
		return;
	for (size_t i = 0; i < m->nstreams; i++)
		tt_packcol_shrink(&m->off[i]);
	if (m->n && m->n < m->cap && (p = realloc(m->sid, m->n))) {
		m->sid = p;
		m->cap = m->n;
	}
}

/* Stream and offset of locator g; 0 when it is none. The streams' counts
 * at the last locator read are kept: a scan in order counts each locator
 * once, a lookup elsewhere from its checkpoint. */
static int loc_map_get(loc_map *m, uint64_t g, size_t *idx, uint64_t *offset)
{
	size_t s, r;

	if (!m || g >= m->n)
		return 0;
	if (!m->at || g < m->at_g || g - m->at_g >= LOC_CK) {
		if (!m->at && !(m->at = malloc(m->nstreams * sizeof(*m->at))))
			return 0;
		m->at_g = g - g % LOC_CK;
		memcpy(m->at, m->ck + (g / LOC_CK) * m->nstreams, m->nstreams * sizeof(*m->at));
	}
	for (; m->at_g < g; m->at_g++)
		m->at[m->sid[m->at_g]]++;
	s = m->sid[g];
	r = m->at[s];
	if (r >= m->off[s].n)
		return 0;
	*idx = s;
	*offset = tt_packcol_get(&m->off[s], r);
	return 1;
}

void tt_ctf_lazy_free(void *p)
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
	loc_map_free(z->map);
	free(z->srcs);
	free(z->metas);
	free(z);
}

/* The event at offset of stream i decoded again, on a cursor of its own
 * (the import's cursor is mid-packet until the import ends); NULL when it
 * cannot be. Valid until the next call. */
static const ctf_event *lazy_event(lazy_ctx *z, size_t i, uint64_t offset)
{
	const ctf_event *ev;
	lazy_src *ls;

	if (!z || i >= z->nsrcs || z->srcs[i].failed || !z->srcs[i].path)
		return NULL;
	ls = &z->srcs[i];
	if (!ls->s) {
		tt_err e;

		tt_err_clear(&e);
		if (tt_ctf_stream_open(ls->m, ls->path, &ls->s, &e) != TT_OK) {
			ls->failed = 1;
			return NULL;
		}
	}
	return tt_ctf_stream_event_at(ls->s, offset, &ev) == 1 ? ev : NULL;
}

static int lazy_decode(void *p, tt_storage *st, uint64_t loc)
{
	lazy_ctx *z = p;
	const ctf_event *ev = NULL;
	size_t idx;
	uint64_t off;

	if (!z->map)
		ev = lazy_event(p, (size_t)(loc >> LOC_BITS), loc & LOC_MASK);
	else if (loc_map_get(z->map, loc, &idx, &off))
		ev = lazy_event(p, idx, off);

	if (!ev)
		return -1;
	put_vals(st, ev->vals, ev->nvals);
	return 0;
}

const tt_args_decoder tt_ctf_lazy_ops = { .decode = lazy_decode, .free_ctx = tt_ctf_lazy_free };

static uint32_t event_args(ctx *c, src *s, const rec *ev, const evals *x, int kind)
{
	tt_storage *st = c->st;

	if (s->lazy) {
		uint32_t shape = s->tr->shape[ev->ci];
		size_t nrows = 0;

		if (ev->flags & R_SKIPPED)
			nrows = s->tr->nkeys[ev->ci];
		else if (!x->n)
			return TT_NONE;
		else if (shape != TT_NONE && x->n == s->tr->nkeys[ev->ci])
			nrows = x->n;
		/* keys known only by decoding: fine unless a slice merges it */
		else if (shape == TT_NONE && kind != K_BEGIN && kind != K_END && kind != K_FUNC_ENTRY &&
			 kind != K_FUNC_EXIT)
			nrows = x->n;
		if (nrows || (ev->flags & R_SKIPPED)) {
			uint64_t loc = c->lz->map ? loc_map_add(c->lz->map, (size_t)s->idx, ev->offset)
						  : (uint64_t)s->idx << LOC_BITS | ev->offset;

			if (loc == UINT64_MAX) {
				c->oom = 1; /* ends the import */
				return TT_NONE;
			}
			return tt_storage_args_lazy(st, loc, shape, nrows);
		}
	}
	if (!x->n)
		return TT_NONE;
	tt_storage_args_begin(st);
	put_vals(st, x->v, x->n);
	return tt_args_tracker_end(c->im->args);
}

/* ---- symbols ------------------------------------------------------------------- */
static const ctf_val *find_any(const evals *x, const char *key)
{
	for (size_t i = 0; i < x->n; i++)
		if (!strcmp(x->v[i].key, key))
			return &x->v[i];
	return NULL;
}

/* lttng_ust_statedump:bin_info / build_id (and lttng_ust_dl's): which
 * binary the process has mapped where. */
static void statedump(ctx *c, const rec *ev, const evals *x, int kind)
{
	const ctf_val *baddr = find_val(x, "baddr");

	if (!baddr)
		return;
	if (!c->di && !(c->di = tt_ctf_di_new()))
		return;
	if (kind == K_BIN_INFO) {
		const ctf_val *path = find_val(x, "path"), *pic = find_val(x, "is_pic");

		if (path && path->kind == CTF_V_STR)
			tt_ctf_di_bin(c->di, ev->pid, (uint64_t)val_int(baddr, 0),
				      (uint64_t)val_int(find_val(x, "memsz"), 0), path->s, path->len,
				      pic ? val_int(pic, 1) != 0 : 1);
	} else {
		uint8_t id[64];
		size_t n = 0;
		char key[32];
		const ctf_val *b;

		/* the sequence's elements, build_id[0], build_id[1], ... */
		while (n < sizeof(id)) {
			snprintf(key, sizeof(key), "build_id[%zu]", n);
			if (!(b = find_any(x, key)))
				break;
			id[n++] = (uint8_t)val_int(b, 0);
		}
		if (n)
			tt_ctf_di_build_id(c->di, ev->pid, (uint64_t)val_int(baddr, 0), id, n);
	}
}

/* An instruction pointer (func_entry's addr, the `ip` context) from the
 * statedump's binaries: its function (*name, the slice's for func_entry)
 * and an arg set of the event's fields plus debug_info.bin, .func and .src
 * (babeltrace2's debug-info fields). 0: not resolved (the reason counted
 * once per binary in stats). */
static int sym_args(ctx *c, const rec *ev, const evals *x, const ctf_val *addr, tt_str *name,
		    uint32_t *set)
{
	const char *why = NULL;
	ctf_sym sym;
	char buf[4200];

	if (!addr)
		return 0;
	if (!tt_ctf_di_lookup(c->di, ev->pid, (uint64_t)val_int(addr, 0), &sym, &why)) {
		if (why)
			tt_storage_stat_named(c->st, TT_STAT_ctf_debug_info_missing, why, 1);
		return 0;
	}
	*name = tt_storage_intern_cstr(c->st, sym.func);
	tt_storage_args_begin(c->st);
	put_vals(c->st, x->v, x->n);
	snprintf(buf, sizeof(buf), "%s+0x%llx", sym.bin, (unsigned long long)sym.bin_off);
	tt_storage_args_str(c->st, "debug_info.bin", buf, strlen(buf));
	snprintf(buf, sizeof(buf), "%s+0x%llx", sym.func, (unsigned long long)sym.func_off);
	tt_storage_args_str(c->st, "debug_info.func", buf, strlen(buf));
	if (sym.file) {
		const char *base = strrchr(sym.file, '/');

		snprintf(buf, sizeof(buf), "%s:%d", base ? base + 1 : sym.file, sym.line);
		tt_storage_args_str(c->st, "debug_info.src", buf, strlen(buf));
	}
	*set = tt_args_tracker_end(c->im->args);
	return 1;
}

static const ctf_val *context_ip(const evals *x)
{
	for (size_t i = 0; i < x->ncontext; i++)
		if (!strcmp(x->v[i].key, "context.ip") || !strcmp(x->v[i].key, "ip"))
			return &x->v[i];
	return NULL;
}

/* ---- threads of tracepoints only ------------------------------------------------ */
/* Trace Compass and Perfetto users expect every thread of the trace on the
 * timeline; a thread whose events are all tracepoints (raw rows only)
 * would have none. Its tracepoints are noted as bursts until the thread
 * gets a track for something else (then they stay raw rows, as for every
 * thread) or the import ends (then the bursts make its track): a lone
 * tracepoint is an instant with its fields, a burst a slice named by its
 * event (or "tracepoints" when they differ) with their count. An instant
 * per tracepoint would cost a slice row each, more than the event itself. */
static tp_thread *tp_get(ctx *c, uint32_t utid)
{
	if (utid >= c->ntp) {
		size_t n = (size_t)utid + 1 < 2 * c->ntp ? 2 * c->ntp : (size_t)utid + 1;
		tp_thread *nt = realloc(c->tp, n * sizeof(*nt));

		if (!nt) {
			c->oom = 1;
			return NULL;
		}
		memset(nt + c->ntp, 0, (n - c->ntp) * sizeof(*nt));
		c->tp = nt;
		c->ntp = n;
	}
	return &c->tp[utid];
}

static void tp_note(ctx *c, uint32_t utid, int64_t ts, tt_str cat, tt_str name, uint32_t set)
{
	tp_thread *t = tp_get(c, utid);
	tp_burst *b;

	if (!t || t->has_track)
		return;
	b = t->n ? &t->b[t->n - 1] : NULL;
	if (b && ts >= b->last && ts - b->last <= TP_GAP) {
		b->last = ts;
		b->n++;
		if (b->name != name)
			b->name = 0;
		return;
	}
	if (tt_vec_reserve((void **)&t->b, &t->cap, t->n + 1, sizeof(*t->b))) {
		c->oom = 1;
		return;
	}
	t->b[t->n++] = (tp_burst){ ts, ts, 1, cat, name, set };
}

static uint32_t thread_track(ctx *c, uint32_t utid)
{
	tp_thread *t = utid < c->ntp ? &c->tp[utid] : tp_get(c, utid);

	if (t && !t->has_track) {
		t->has_track = 1;
		free(t->b);
		t->b = NULL;
		t->n = t->cap = 0;
	}
	return tt_track_tracker_thread(c->im->tracks, utid);
}

void tt_ctf_thread_instants_end(ctx *c)
{
	tt_str several = 0;

	for (size_t u = 0; u < c->ntp; u++) {
		tp_thread *t = &c->tp[u];
		uint32_t track = t->n && !t->has_track ? tt_track_tracker_thread(c->im->tracks, (uint32_t)u) : TT_NONE;

		for (size_t i = 0; track != TT_NONE && i < t->n; i++) {
			const tp_burst *b = &t->b[i];
			uint32_t set = b->set;

			if (b->n > 1) {
				tt_storage_args_begin(c->st);
				tt_storage_args_uint(c->st, "events", b->n);
				set = tt_args_tracker_end(c->im->args);
			}
			if (!b->name && !several)
				several = tt_storage_intern_cstr(c->st, "tracepoints");
			tt_slice_tracker_complete(c->im->slices, track, b->ts, b->last - b->ts, b->name ? b->cat : 0,
						  b->name ? b->name : several, set);
		}
		free(t->b);
	}
	free(c->tp);
	c->tp = NULL;
	c->ntp = 0;
}

void tt_ctf_seen_flush(ctx *c, src *s)
{
	if (s->seen_utid == TT_NONE)
		return;
	tt_storage_thread_seen(c->st, s->seen_utid, s->seen_min);
	tt_storage_thread_seen(c->st, s->seen_utid, s->seen_max);
	s->seen_utid = TT_NONE;
}

void tt_ctf_store_event(ctx *c, src *s, const rec *ev, const evals *x)
{
	trace_ctx *t = s->tr;
	size_t ci = ev->ci;
	int64_t cpu = ev->cpu;
	uint32_t utid, set, track;
	int kind = t->kind[ci];
	tt_str fname = 0, ipname = 0;

	/* the thread that wrote the event: for a switch, the one switched
	 * out (ftrace's common_pid; trace processor's raw row), so it is
	 * found before the switch changes who runs, and a CPU's first
	 * switch names it */
	utid = thread_of(c, s, ev);
	if (kind == K_SCHED_SWITCH) {
		uint32_t prev = sched_switch(c, ev, x, cpu);

		if (!(ev->flags & R_THREAD) && prev != TT_NONE)
			utid = prev;
	} else if (kind == K_BIN_INFO || kind == K_BUILD_ID)
		statedump(c, ev, x, kind);
	if (kind == K_FUNC_ENTRY && c->di && sym_args(c, ev, x, find_val(x, "addr"), &fname, &set))
		;
	else if (t->has_ip && c->di && sym_args(c, ev, x, context_ip(x), &ipname, &set))
		;
	else
		set = event_args(c, s, ev, x, kind);
	tt_storage_raw(c->st, ev->ts, t->name[ci], cpu, utid, set);
	if (cpu >= 0 && cpu != s->reg_cpu) {
		tt_storage_cpu(c->st, cpu);
		s->reg_cpu = cpu;
	}
	if (cpu >= 0 && utid != TT_NONE) {
		cpu_run *r = (uint64_t)cpu < c->nruns ? &c->runs[cpu] : NULL;

		/* the common case, the CPU's run of this thread goes on */
		if (r && r->open && !r->sched && r->utid == utid) {
			r->last = ev->ts;
			r->events++;
		} else {
			run_note(c, ev, utid);
		}
	}
	if (utid != TT_NONE) {
		/* a thread's time span, noted when the stream's thread changes */
		if (utid != s->seen_utid) {
			tt_ctf_seen_flush(c, s);
			s->seen_utid = utid;
			s->seen_min = s->seen_max = ev->ts;
		} else if (ev->ts < s->seen_min) {
			s->seen_min = ev->ts;
		} else if (ev->ts > s->seen_max) {
			s->seen_max = ev->ts;
		}
	}
	if (kind == K_RAW && utid != TT_NONE && (ev->flags & R_THREAD) &&
	    (utid >= c->ntp || !c->tp[utid].has_track))
		tp_note(c, utid, ev->ts, t->cat[ci], t->name[ci], set);
	if (kind == K_SCHED_SWITCH || kind == K_RAW)
		return;
	if (utid != TT_NONE) {
		if (utid != s->trk_utid) {
			s->trk_track = thread_track(c, utid);
			s->trk_utid = utid;
		}
		track = s->trk_track;
	} else if (cpu >= 0) {
		if (s->cpu_track == TT_NONE || s->cpu_track_cpu != cpu) {
			char buf[32];
			tt_track_desc d;

			snprintf(buf, sizeof(buf), "CPU %lld events", (long long)cpu);
			d = desc("cpu", tt_storage_intern_cstr(c->st, buf), cpu);
			s->cpu_track = tt_track_tracker_keyed(c->im->tracks, "ctf-cpu", (uint64_t)t->index,
							      (uint64_t)cpu, 0, &d);
			s->cpu_track_cpu = cpu;
		}
		track = s->cpu_track;
	} else {
		if (s->stream_track == TT_NONE) {
			tt_track_desc d = desc("global", tt_storage_intern_cstr(c->st, s->file), -1);

			s->stream_track = tt_track_tracker_keyed(c->im->tracks, "ctf-stream", (uint64_t)t->index,
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
		const ctf_val *addr = find_val(x, "addr");
		char buf[32];

		if (!fname) {
			snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)val_int(addr, 0));
			fname = tt_storage_intern_cstr(c->st, buf);
		}
		tt_slice_tracker_begin(c->im->slices, track, ev->ts, t->cat[ci], fname, set);
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

void tt_ctf_cpu_runs_end(ctx *c)
{
	for (size_t i = 0; i < c->nruns; i++)
		run_close(c, &c->runs[i]);
}
