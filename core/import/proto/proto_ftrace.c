/*
 * proto_ftrace.c - ftrace bundles (print/atrace, sched_switch and what
 * else is imported) and, after the merge, sched_switch rows turned into
 * sched_slice and thread_state. See import_proto.c.
 */
#include "proto_int.h"

/* ---- ftrace ------------------------------------------------------------------ */

/* ---- the process tracker ------------------------------------------------- */

#define TID_ENDED UINT64_MAX
/* Associations waiting for a process are resolved by a scan of the
 * waiting list: bounded so that hostile input cannot make it quadratic
 * in the trace (real traces wait for the process tree, a few hundred). */
#define PENDING_MAX 4096
#define CLONE_THREAD 0x00010000u /* (the kernel's sched.h) */

static void live_put(pctx *c, int64_t tid, uint64_t v)
{
	if (tt_pmap_put(&c->ftrace_threads, (uint64_t)tid, v))
		c->oom = 1;
}

/* trace processor's GetOrCreateThread: the tid's live thread (the last
 * one made for it, by any source), or a new thread of no known process
 * when there is none or it ended. */
uint32_t tt_proto_thread(pctx *c, int64_t tid)
{
	uint64_t *v = tt_pmap_find(&c->ftrace_threads, (uint64_t)tid);
	uint32_t utid;

	if (v && *v != TID_ENDED)
		return (uint32_t)(*v - 1);
	utid = v ? TT_NONE : tt_process_tracker_thread_by_tid(c->im->procs, tid);
	if (utid == TT_NONE)
		utid = tt_process_tracker_thread_new(c->im->procs, -1, tid);
	live_put(c, tid, (uint64_t)utid + 1);
	return utid;
}

/* Thread utid now has a process: the threads and forked processes that
 * waited on it get theirs (and so on, for the threads bound to those). */
static void resolve_pending(pctx *c, uint32_t utid)
{
	TT_VEC(uint32_t) todo = {0};

	if (TT_VEC_PUSH(todo, utid)) {
		c->oom = 1;
		return;
	}
	while (todo.n) {
		uint32_t u = todo.v[--todo.n], upid = tt_storage_thread_upid(c->st, u);

		for (size_t i = 0; i < c->pend_parent.n;) {
			uint64_t e = c->pend_parent.v[i];

			if ((uint32_t)(e >> 32) != u) {
				i++;
				continue;
			}
			tt_storage_process_set_parent(c->st, (uint32_t)e, upid);
			c->pend_parent.v[i] = c->pend_parent.v[--c->pend_parent.n];
		}
		for (size_t i = 0; i < c->pend_assoc.n;) {
			uint64_t e = c->pend_assoc.v[i];
			uint32_t a = (uint32_t)(e >> 32), b = (uint32_t)e, other;

			if (a != u && b != u) {
				i++;
				continue;
			}
			other = a == u ? b : a;
			c->pend_assoc.v[i] = c->pend_assoc.v[--c->pend_assoc.n];
			if (tt_storage_thread_upid(c->st, other) == TT_NONE) {
				tt_process_tracker_thread_set_pid(c->im->procs, other, tt_storage_process_pid(c->st, upid));
				if (TT_VEC_PUSH(todo, other))
					c->oom = 1;
			}
		}
	}
	TT_VEC_FREE(todo);
}

/* trace processor's GetOrCreateProcess: a pid whose process ended gets a
 * new one (with a new main thread). */
uint32_t tt_proto_process(pctx *c, int64_t pid)
{
	uint64_t *ended = tt_pmap_find(&c->ended_pids, (uint64_t)pid);
	uint32_t upid, main;

	if (ended && *ended) {
		*ended = 0;
		upid = tt_process_tracker_process_new(c->im->procs, pid);
		main = tt_process_tracker_thread_by_tid(c->im->procs, pid);
		if (main != TT_NONE)
			live_put(c, pid, (uint64_t)main + 1);
		return upid;
	}
	upid = tt_process_tracker_process(c->im->procs, pid);
	/* (a thread seen before may have just become its main thread) */
	main = tt_process_tracker_thread_by_tid(c->im->procs, pid);
	if (main != TT_NONE && tt_storage_thread_upid(c->st, main) == upid && (c->pend_assoc.n || c->pend_parent.n))
		resolve_pending(c, main);
	return upid;
}

/* trace processor's UpdateThread(tid, pid): the live thread of tid when it
 * has no process yet or this one, else the thread (pid, tid). */
uint32_t tt_proto_thread_in(pctx *c, int64_t pid, int64_t tid)
{
	uint64_t *v = tt_pmap_find(&c->ftrace_threads, (uint64_t)tid);
	uint32_t upid = tt_proto_process(c, pid), utid;

	if (v && *v != TID_ENDED) {
		uint32_t cur = tt_storage_thread_upid(c->st, (uint32_t)(*v - 1));

		utid = (uint32_t)(*v - 1);
		if (cur == upid)
			return utid;
		if (cur == TT_NONE) {
			tt_process_tracker_thread_set_pid(c->im->procs, utid, pid);
			resolve_pending(c, utid);
			return utid;
		}
	}
	utid = tt_process_tracker_thread(c->im->procs, pid, tid);
	live_put(c, tid, (uint64_t)utid + 1);
	return utid;
}

/* A name replaces one of lower or equal priority (ThreadNamePriority). */
void tt_proto_thread_name(pctx *c, uint32_t utid, tt_str name, int prio)
{
	uint64_t *cur = tt_pmap_find(&c->thread_name_prio, utid);

	if (!name || utid == TT_NONE || (cur && (int)*cur > prio))
		return;
	tt_storage_thread_set_name(c->st, utid, name);
	if (tt_pmap_put(&c->thread_name_prio, utid, (uint64_t)prio))
		c->oom = 1;
}

/* task_newtask: a fork starts a process (its parent: the forking thread's
 * process, once known); a clone(CLONE_THREAD) a thread of the cloner's
 * process, bound to it now or when the cloner's process is known. */
static void on_newtask(pctx *c, int64_t src_tid, int64_t pid, uint64_t clone_flags, tt_str comm)
{
	uint32_t src, nu, src_upid;

	if (pid == 0) /* boot-time tracing: init making the idle tasks */
		return;
	src = tt_proto_thread(c, src_tid);
	src_upid = tt_storage_thread_upid(c->st, src);
	if (!(clone_flags & CLONE_THREAD)) {
		uint32_t upid;
		uint64_t *ended = tt_pmap_find(&c->ended_pids, (uint64_t)pid);

		if (ended)
			*ended = 0;
		upid = tt_process_tracker_process_new(c->im->procs, pid);
		nu = tt_process_tracker_thread_by_tid(c->im->procs, pid);
		if (upid == TT_NONE || nu == TT_NONE) {
			c->oom = 1;
			return;
		}
		live_put(c, pid, (uint64_t)nu + 1);
		tt_proto_thread_name(c, nu, comm, TN_FTRACE);
		tt_proto_set_process_name(c, upid, comm, PN_SYSTEM);
		if (src_upid != TT_NONE)
			tt_storage_process_set_parent(c->st, upid, src_upid);
		else if (c->pend_parent.n < PENDING_MAX && TT_VEC_PUSH(c->pend_parent, (uint64_t)src << 32 | upid))
			c->oom = 1;
		return;
	}
	nu = tt_process_tracker_thread_new(c->im->procs, src_upid != TT_NONE ? tt_storage_process_pid(c->st, src_upid) : -1, pid);
	if (nu == TT_NONE) {
		c->oom = 1;
		return;
	}
	live_put(c, pid, (uint64_t)nu + 1);
	tt_proto_thread_name(c, nu, comm, TN_FTRACE);
	if (src_upid == TT_NONE && c->pend_assoc.n < PENDING_MAX &&
	    TT_VEC_PUSH(c->pend_assoc, (uint64_t)src << 32 | nu))
		c->oom = 1;
}

/* sched_process_free: the tid's thread ended (a later event of the tid is
 * a new thread); a main thread ends its process, so the pid is free. */
static void on_process_free(pctx *c, int64_t tid)
{
	uint64_t *v = tt_pmap_find(&c->ftrace_threads, (uint64_t)tid);
	uint32_t utid, upid;

	if (v && *v == TID_ENDED)
		return;
	utid = v ? (uint32_t)(*v - 1) : tt_process_tracker_thread_by_tid(c->im->procs, tid);
	if (utid == TT_NONE)
		return;
	live_put(c, tid, TID_ENDED);
	upid = tt_storage_thread_upid(c->st, utid);
	if (upid != TT_NONE && tt_storage_process_pid(c->st, upid) == tid &&
	    tt_pmap_put(&c->ended_pids, (uint64_t)tid, 1))
		c->oom = 1;
}

#define ftrace_thread tt_proto_thread

/* The track of an atrace async slice (S / F: named by the slice; G / H /
 * N: by the track name the marker gives) as trace processor's track
 * compressor makes them: one set per (process, name), a lane per cookie
 * while its slice is open, dimensions upid, name (and the lane). space
 * keeps the two kinds' sets apart (and from the merged descriptor tracks'). */
static uint32_t atrace_async(pctx *c, uint64_t space, const char *type, uint32_t upid, tt_str name,
			     uint64_t cookie, enum tt_async_kind kind)
{
	tt_track_desc d = { .type = type, .name = name, .utid = TT_NONE, .upid = upid,
			    .parent_id = TT_NONE, .cpu = -1 };
	tt_async_args a = { .ndim = 0 };

	if (upid != TT_NONE)
		a.dim[a.ndim++] = (tt_async_arg){ "upid", 'u', upid, NULL };
	a.dim[a.ndim++] = (tt_async_arg){ "name", 's', name, NULL };
	return tt_async_track_set(c->im->async, space << 32 | upid, 0, name, cookie, &d, &a, kind);
}

/* An atrace marker, fed in trace order (tt_proto_feed_ftrace): the
 * thread is looked up then, as tasks come and go. Returns the slice or
 * counter record it makes in *out, 0 when none. */
static int feed_atrace(pctx *c, const prec *r, prec *out)
{
	int64_t tid = (int32_t)(uint32_t)r->id, tgid = (int32_t)(uint32_t)(r->id >> 32);
	int phase = (int)r->args;
	uint32_t utid, upid;
	tt_str name = r->name;

	utid = r->scope == FT_PRINT_TGID ? tt_proto_thread_in(c, tgid, tid) : ftrace_thread(c, tid);
	upid = tt_storage_thread_upid(c->st, utid);
	*out = *r;
	out->flags = 0;
	out->args = TT_NONE;
	out->cat = 0;
	out->name = 0;
	switch (phase) {
	case 'B':
		out->kind = R_BEGIN;
		out->track = tt_track_tracker_thread(c->im->tracks, utid);
		out->name = name;
		break;
	case 'E':
		out->kind = R_END;
		out->track = tt_track_tracker_thread(c->im->tracks, utid);
		break;
	case 'I':
		out->kind = R_COMPLETE;
		out->track = tt_track_tracker_thread(c->im->tracks, utid);
		out->name = name;
		out->u.i = 0;
		break;
	case 'C':
		out->kind = R_COUNTER;
		out->track = tt_proto_keyed_counter(c, "proto-atrace-counter", upid, 0, name, "atrace_counter", upid, -1,
						    "name", tt_storage_str(c->st, name));
		out->u.d = (double)r->u.i;
		break;
	case 'S':
	case 'F':
		out->kind = phase == 'S' ? R_BEGIN : R_END;
		out->track = atrace_async(c, 3, "atrace_async_slice", upid, name, (uint64_t)r->u.i,
					  phase == 'S' ? TT_ASYNC_BEGIN : TT_ASYNC_END);
		out->name = phase == 'S' ? name : 0;
		break;
	case 'N':
	case 'G':
	case 'H':
		/* an instant ('N') takes the first idle lane (trace
		 * processor's scoped interning), under a cookie of its own
		 * (from its time: G / H cookies are small) so that no lane
		 * keeps it */
		out->kind = phase == 'N' ? R_COMPLETE : phase == 'G' ? R_BEGIN : R_END;
		out->track = atrace_async(c, 4, "atrace_async_slice_for_track", upid, r->cat,
					  phase == 'N' ? UINT64_MAX - (uint64_t)r->ts : (uint64_t)r->u.i,
					  phase == 'N' ? TT_ASYNC_INSTANT : phase == 'G' ? TT_ASYNC_BEGIN : TT_ASYNC_END);
		out->name = phase == 'H' ? 0 : name;
		out->u.i = 0;
		break;
	default:
		return 0;
	}
	return out->track != TT_NONE;
}

/* The ftrace events that change which thread a tid is, and those that
 * need to know it, go through the sorter and act in trace order (as
 * trace processor parses them), not in the order of the file, where one
 * cpu's bundle may come before another's earlier events. What a record
 * holds (kind R_FTRACE, scope FT_*): */
static void push_ft(pctx *c, pseq *ps, int64_t ts, int what, uint64_t id, int64_t i, tt_str name, tt_str cat,
		    uint32_t x)
{
	prec r = { .ts = ts, .u.i = i, .id = id, .track = 0, .name = name, .cat = cat, .args = x,
		   .kind = R_FTRACE, .scope = (uint8_t)what };

	if (ps->stream == UINT32_MAX)
		return;
	switch (tt_sorter_push(c->sorter, ps->stream, &r)) {
	case -1:
		c->oom = 1;
		return;
	case -2: /* late: dropped, counted (sorter.h) */
		return;
	}
	if (ts > c->max_ts)
		c->max_ts = ts;
	c->events++;
}

static void on_atrace(pctx *c, pseq *ps, int64_t ts, int64_t tid, tt_atrace m)
{
	uint64_t id = (uint32_t)(int32_t)tid | (m.has_tgid && m.tgid > 0 ? (uint64_t)(uint32_t)(int32_t)m.tgid << 32 : 0);

	push_ft(c, ps, ts, m.has_tgid && m.tgid > 0 ? FT_PRINT_TGID : FT_PRINT, id, m.value,
		m.name ? intern(c, m.name, m.name_len) : 0, m.track ? intern(c, m.track, m.track_len) : 0,
		(uint32_t)m.phase);
}

static void on_print(pctx *c, pseq *ps, int64_t ts, int64_t tid, const char *buf)
{
	tt_atrace m;

	if (!buf || tt_proto_atrace_parse(buf, strlen(buf), &m)) {
		stat(c, TT_STAT_proto_atrace_bad);
		return;
	}
	on_atrace(c, ps, ts, tid, m);
}

/* sde_tracing_mark_write (display driver): an atrace marker in fields, the
 * phase in trace_type (B E C I) or, in older kernels, trace_begin (B / E);
 * tgid is the event's pid field, the writer the ftrace event's pid. */
static void on_sde_mark(pctx *c, pseq *ps, int64_t ts, int64_t tid,
			const Perfetto__Protos__SdeTracingMarkWriteFtraceEvent *e)
{
	tt_atrace m = { .has_tgid = 1, .tgid = e->pid, .value = e->value };

	if (!e->has_trace_type && !e->has_trace_begin) {
		stat(c, TT_STAT_proto_atrace_bad);
		return;
	}
	if (e->trace_type == 0)
		m.phase = e->trace_begin ? 'B' : 'E';
	else if (e->trace_type == 'B' || e->trace_type == 'E' || e->trace_type == 'C' || e->trace_type == 'I')
		m.phase = (char)e->trace_type;
	else {
		stat(c, TT_STAT_proto_atrace_bad);
		return;
	}
	m.name = e->trace_name ? e->trace_name : "";
	m.name_len = strlen(m.name);
	on_atrace(c, ps, ts, tid, m);
}

/* A switch: its row now, the thread switched to (and the name of the
 * one switched from, has_prev) when it is fed in trace order: a tid's
 * thread changes as tasks are made and freed. */
static void push_sched(pctx *c, pseq *ps, int64_t ts, uint32_t cpu, int64_t prev_state, int32_t next_pid,
		       int32_t next_prio, tt_str comm, int has_prev, int32_t prev_pid, tt_str prev_comm)
{
	sched_rec r = { ts, prev_state, cpu, next_pid, next_prio, TT_NONE, c->ord++, comm };

	if (TT_VEC_PUSH(c->sched, r)) {
		c->oom = 1;
		return;
	}
	push_ft(c, ps, ts, has_prev ? FT_SWITCH : FT_SWITCH_NOPREV, (uint32_t)prev_pid, (int64_t)(c->sched.n - 1), 0,
		prev_comm, 0);
}

/* One R_FTRACE record, in trace order: the process tracker's part; an
 * atrace marker also makes the slice or counter record in *out (fed as
 * any). Returns 1 when *out is to be fed. */
int tt_proto_feed_ftrace(pctx *c, const prec *r, prec *out)
{
	int32_t pid = (int32_t)(uint32_t)r->id;

	switch (r->scope) {
	case FT_SWITCH:
	case FT_SWITCH_NOPREV: {
		sched_rec *s;

		if (r->scope == FT_SWITCH)
			tt_proto_thread_name(c, tt_proto_thread(c, pid), r->cat, TN_FTRACE);
		if (r->u.i < 0 || (size_t)r->u.i >= c->sched.n)
			return 0;
		s = &c->sched.v[r->u.i];
		s->next_utid = tt_proto_thread(c, s->next_pid);
		tt_proto_thread_name(c, s->next_utid, s->next_comm, TN_FTRACE);
		return 0;
	}
	case FT_NEWTASK:
		on_newtask(c, (int32_t)(uint32_t)(r->id >> 32), pid, (uint64_t)r->u.i, r->name);
		return 0;
	case FT_FREE:
		on_process_free(c, pid);
		return 0;
	case FT_RENAME: {
		/* a main thread's new name is its process's too */
		uint32_t u = tt_proto_thread(c, pid);
		uint32_t up = tt_storage_thread_upid(c->st, u);

		tt_proto_thread_name(c, u, r->name, TN_FTRACE);
		if (up != TT_NONE && tt_storage_process_pid(c->st, up) == pid)
			tt_proto_set_process_name(c, up, r->name, PN_SYSTEM);
		return 0;
	}
	case FT_PRINT:
	case FT_PRINT_TGID:
		return feed_atrace(c, r, out);
	case FT_PTREE: {
		pblob *b = r->u.i >= 0 && (size_t)r->u.i < c->ptrees.n ? &c->ptrees.v[r->u.i] : NULL;
		Perfetto__Protos__ProcessTree *pt;

		if (!b || !b->p)
			return 0;
		pt = perfetto__protos__process_tree__unpack(NULL, b->n, b->p);
		if (pt) {
			tt_proto_on_process_tree(c, b->seq, pt);
			perfetto__protos__process_tree__free_unpacked(pt, NULL);
		} else {
			c->oom = 1; /* it unpacked once: only memory can fail */
		}
		free(b->p);
		b->p = NULL;
		return 0;
	}
	}
	return 0;
}

/* A ProcessTree is parsed in trace order too (its packet's timestamp),
 * among the ftrace events whose threads it names: packed again until
 * then (a few per trace). */
void tt_proto_defer_process_tree(pctx *c, pseq *s, const Perfetto__Protos__ProcessTree *pt, int64_t ts)
{
	pblob b = { NULL, perfetto__protos__process_tree__get_packed_size(pt), s->id };

	if (!(b.p = malloc(b.n ? b.n : 1)) || TT_VEC_PUSH(c->ptrees, b)) {
		free(b.p);
		c->oom = 1;
		return;
	}
	perfetto__protos__process_tree__pack(pt, b.p);
	push_ft(c, s, ts, FT_PTREE, 0, (int64_t)(c->ptrees.n - 1), 0, 0, 0);
}

void tt_proto_free_ptrees(pctx *c)
{
	for (size_t i = 0; i < c->ptrees.n; i++)
		free(c->ptrees.v[i].p);
	TT_VEC_FREE(c->ptrees);
}

void tt_proto_on_ftrace(pctx *c, const FBundle *b)
{
	pseq *ps;
	int64_t offset = 0;
	uint32_t clock = TT_CLOCK_BOOTTIME;
	size_t i;

	if (b->cpu >= 1024) {
		stat(c, TT_STAT_proto_ftrace_cpu_bad);
		return;
	}
	ps = tt_proto_get_seq(c, FTRACE_SEQ | b->cpu);
	if (!ps)
		return;
	if (b->has_ftrace_clock && b->ftrace_clock == 4)
		clock = TT_CLOCK_MONOTONIC_RAW;
	else if (b->has_ftrace_clock && b->ftrace_clock && b->has_ftrace_timestamp && b->has_boot_timestamp)
		offset = (int64_t)((uint64_t)b->boot_timestamp - (uint64_t)b->ftrace_timestamp);
	for (i = 0; i < b->n_event; i++) {
		const Perfetto__Protos__FtraceEvent *e = b->event[i];
		int64_t ts = to_trace(c, 0, clock, e->timestamp + (uint64_t)offset);

		if (ts > c->max_ts)
			c->max_ts = ts; /* open sched slices end at the last event */

		switch (e->event_case) {
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_PRINT:
			on_print(c, ps, ts, e->pid, e->print->buf);
			break;
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_SWITCH: {
			const Perfetto__Protos__SchedSwitchFtraceEvent *sw = e->sched_switch;

			push_sched(c, ps, ts, b->cpu, sw->prev_state, sw->next_pid, sw->next_prio,
				   intern_c(c, sw->next_comm && sw->next_comm[0] ? sw->next_comm : NULL), 1,
				   sw->prev_pid, intern_c(c, sw->prev_comm && sw->prev_comm[0] ? sw->prev_comm : NULL));
			break;
		}
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPU_FREQUENCY: {
			tt_str n = intern_c(c, "cpufreq");
			uint32_t t = tt_proto_keyed_counter(c, "proto-cpu-counter", e->cpu_frequency->cpu_id, 0, n,
						   "cpu_frequency", TT_NONE, e->cpu_frequency->cpu_id, NULL, NULL);
			tt_proto_push_rec(c, ps, ts, R_COUNTER, 0, t, 0, 0, TT_NONE, 0, (double)e->cpu_frequency->state);
			break;
		}
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPU_IDLE: {
			tt_str n = intern_c(c, "cpuidle");
			uint32_t t = tt_proto_keyed_counter(c, "proto-cpu-counter", e->cpu_idle->cpu_id, 1, n,
						   "cpu_idle", TT_NONE, e->cpu_idle->cpu_id, NULL, NULL);
			tt_proto_push_rec(c, ps, ts, R_COUNTER, 0, t, 0, 0, TT_NONE, 0, (double)e->cpu_idle->state);
			break;
		}
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_TASK_NEWTASK: {
			const Perfetto__Protos__TaskNewtaskFtraceEvent *nt = e->task_newtask;

			push_ft(c, ps, ts, FT_NEWTASK, (uint64_t)(uint32_t)e->pid << 32 | (uint32_t)nt->pid,
				(int64_t)nt->clone_flags, intern_c(c, nt->comm && nt->comm[0] ? nt->comm : NULL), 0, 0);
			break;
		}
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_TASK_RENAME:
			if (e->task_rename->newcomm && e->task_rename->newcomm[0])
				push_ft(c, ps, ts, FT_RENAME, (uint32_t)e->task_rename->pid, 0,
					intern_c(c, e->task_rename->newcomm), 0, 0);
			break;
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SDE_TRACING_MARK_WRITE:
			on_sde_mark(c, ps, ts, e->pid, e->sde_tracing_mark_write);
			break;
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_PROCESS_FREE:
			push_ft(c, ps, ts, FT_FREE, (uint32_t)e->sched_process_free->pid, 0, 0, 0, 0);
			break;
		default:
			break;
		}
	}
	if (b->compact_sched) {
		const Perfetto__Protos__FtraceEventBundle__CompactSched *cs = b->compact_sched;
		size_t n = cs->n_switch_timestamp;
		uint64_t t = 0;

		if (cs->n_switch_prev_state < n || cs->n_switch_next_pid < n || cs->n_switch_next_prio < n ||
		    cs->n_switch_next_comm_index < n) {
			stat(c, TT_STAT_proto_packet_bad);
			return;
		}
		for (i = 0; i < n; i++) {
			uint32_t ci = cs->switch_next_comm_index[i];
			t += cs->switch_timestamp[i];
			push_sched(c, ps, to_trace(c, 0, clock, t + (uint64_t)offset), b->cpu, cs->switch_prev_state[i],
				   cs->switch_next_pid[i], cs->switch_next_prio[i],
				   ci < cs->n_intern_table ? intern_c(c, cs->intern_table[ci]) : 0, 0, 0, 0);
		}
	}
}

/* ---- sched_switch -> sched_slice, thread_state ------------------------------- */

static int sched_cmp(const void *a, const void *b)
{
	const sched_rec *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->ord < y->ord ? -1 : x->ord > y->ord;
}

typedef struct sslice {
	int64_t ts, dur;
	uint32_t cpu, utid;
	int64_t prio;
	tt_str end_state;
} sslice;

static int sslice_ts_cmp(const void *a, const void *b)
{
	const sslice *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

static int sslice_thread_cmp(const void *a, const void *b)
{
	const sslice *x = a, *y = b;

	if (x->utid != y->utid)
		return x->utid < y->utid ? -1 : 1;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* Linux task state bits as letters (TASK_REPORT order); 0 = runnable. */
static tt_str state_str(pctx *c, int64_t st)
{
	static const char letters[] = "SDTtXZPI";
	char b[16];
	size_t n = 0;
	int i;

	if (st == 0)
		return intern_c(c, "R");
	for (i = 0; i < 8; i++)
		if (st & (1 << i))
			b[n++] = letters[i];
	if (n == 0)
		return intern_c(c, "R+"); /* only the preempted bit above TASK_REPORT */
	return intern(c, b, n);
}

void tt_proto_build_sched(pctx *c)
{
	TT_VEC(sslice) out = {0};
	size_t i;
	sslice cur = {0};
	int open = 0;
	tt_str running = intern_c(c, "Running");

	if (!c->sched.n)
		return;
	qsort(c->sched.v, c->sched.n, sizeof(sched_rec), sched_cmp);
	for (i = 0; i < c->sched.n; i++) {
		const sched_rec *r = &c->sched.v[i];
		if (open && cur.cpu != r->cpu) {
			cur.dur = c->max_ts - cur.ts;
			cur.end_state = 0;
			if (TT_VEC_PUSH(out, cur))
				c->oom = 1;
			open = 0;
		}
		if (open) {
			cur.dur = r->ts - cur.ts;
			cur.end_state = state_str(c, r->prev_state);
			if (TT_VEC_PUSH(out, cur))
				c->oom = 1;
		}
		cur.ts = r->ts;
		cur.cpu = r->cpu;
		cur.utid = r->next_utid;
		cur.prio = r->next_prio;
		open = 1;
	}
	if (open) {
		cur.dur = c->max_ts - cur.ts;
		cur.end_state = 0;
		if (TT_VEC_PUSH(out, cur))
			c->oom = 1;
	}
	if (out.n > 1) /* out.v is NULL when nothing was pushed */
		qsort(out.v, out.n, sizeof(sslice), sslice_ts_cmp);
	for (i = 0; i < out.n; i++)
		tt_storage_sched(c->st, out.v[i].ts, out.v[i].dur, out.v[i].cpu, out.v[i].utid,
				 out.v[i].end_state, out.v[i].prio);
	/* thread_state: Running while on a cpu, then the end state until the
	 * thread runs again (swapper excluded). */
	if (out.n > 1)
		qsort(out.v, out.n, sizeof(sslice), sslice_thread_cmp);
	{
		uint32_t swapper = ftrace_thread(c, 0);
		TT_VEC(sslice) ts = {0};
		for (i = 0; i < out.n; i++) {
			const sslice *x = &out.v[i];
			sslice a = *x;
			if (x->utid == swapper)
				continue;
			a.end_state = running;
			if (TT_VEC_PUSH(ts, a))
				c->oom = 1;
			if (x->end_state) {
				sslice b = *x;
				int64_t end = x->ts + x->dur;
				b.ts = end;
				b.dur = (i + 1 < out.n && out.v[i + 1].utid == x->utid) ? out.v[i + 1].ts - end
											  : c->max_ts - end;
				b.cpu = UINT32_MAX;
				if (TT_VEC_PUSH(ts, b))
					c->oom = 1;
			}
		}
		if (ts.n > 1) /* every slice was the swapper's: ts.v is NULL */
			qsort(ts.v, ts.n, sizeof(sslice), sslice_ts_cmp);
		for (i = 0; i < ts.n; i++)
			tt_storage_thread_state(c->st, ts.v[i].ts, ts.v[i].dur,
						ts.v[i].cpu == UINT32_MAX ? -1 : (int64_t)ts.v[i].cpu,
						ts.v[i].utid, ts.v[i].end_state);
		TT_VEC_FREE(ts);
	}
	TT_VEC_FREE(out);
}
