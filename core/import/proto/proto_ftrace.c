/*
 * proto_ftrace.c - ftrace bundles: the process tracker's part of the
 * events (in trace order), the ftrace_event rows, and the hand-over of
 * atrace markers (proto_systrace.c) and switches (proto_sched.c). See
 * import_proto.c.
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

/* task_newtask: a fork starts a process (its parent: the forking thread's
 * process, once known); a clone(CLONE_THREAD) a thread of the cloner's
 * process, bound to it now or when the cloner's process is known. */
static void on_newtask(pctx *c, int64_t ts, int64_t src_tid, int64_t pid, uint64_t clone_flags, tt_str comm)
{
	uint32_t src, nu, src_upid;

	if (pid == 0) /* boot-time tracing: init making the idle tasks */
		return;
	/* (the writing thread first: trace processor's raw table row for
	 * the event makes it before the event is parsed) */
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
		tt_process_tracker_thread_name(c->im->procs, nu, comm, TT_TN_FTRACE);
		tt_proto_set_process_name(c, upid, comm, PN_SYSTEM);
		if (src_upid != TT_NONE)
			tt_storage_process_set_parent(c->st, upid, src_upid);
		else if (c->pend_parent.n < PENDING_MAX && TT_VEC_PUSH(c->pend_parent, (uint64_t)src << 32 | upid))
			c->oom = 1;
		tt_proto_sched_new_task(c, ts, nu, src);
		return;
	}
	nu = tt_process_tracker_thread_new(c->im->procs, src_upid != TT_NONE ? tt_storage_process_pid(c->st, src_upid) : -1, pid);
	if (nu == TT_NONE) {
		c->oom = 1;
		return;
	}
	live_put(c, pid, (uint64_t)nu + 1);
	tt_process_tracker_thread_name(c->im->procs, nu, comm, TT_TN_FTRACE);
	if (src_upid == TT_NONE && c->pend_assoc.n < PENDING_MAX &&
	    TT_VEC_PUSH(c->pend_assoc, (uint64_t)src << 32 | nu))
		c->oom = 1;
	tt_proto_sched_new_task(c, ts, nu, src);
}

/* trace processor's EndThread (sched_process_free, a generic kernel's
 * DESTROYED) at ts: the tid's thread ends (end_ts; a later event of the
 * tid is a new thread); a main thread ends its process too (end_ts), so
 * the pid is free. Returns the thread ended, TT_NONE when the tid had no
 * live thread. */
uint32_t tt_proto_thread_end(pctx *c, int64_t tid, int64_t ts)
{
	uint64_t *v = tt_pmap_find(&c->ftrace_threads, (uint64_t)tid);
	uint32_t utid, upid;

	if (v && *v == TID_ENDED)
		return TT_NONE;
	utid = v ? (uint32_t)(*v - 1) : tt_process_tracker_thread_by_tid(c->im->procs, tid);
	if (utid == TT_NONE)
		return TT_NONE;
	live_put(c, tid, TID_ENDED);
	tt_storage_thread_set_life(c->st, utid, 1, ts);
	upid = tt_storage_thread_upid(c->st, utid);
	if (upid != TT_NONE && tt_storage_process_pid(c->st, upid) == tid) {
		tt_storage_process_set_end(c->st, upid, ts);
		if (tt_pmap_put(&c->ended_pids, (uint64_t)tid, 1))
			c->oom = 1;
	}
	return utid;
}

/* task_rename (ftrace's or a generic kernel's): the tid's thread named
 * (made when new), and a main thread's process too. */
void tt_proto_rename(pctx *c, int64_t tid, tt_str name)
{
	uint32_t u = tt_proto_thread(c, tid), up = tt_storage_thread_upid(c->st, u);

	if (!name)
		return;
	tt_process_tracker_thread_name(c->im->procs, u, name, TT_TN_FTRACE);
	if (up != TT_NONE && tt_storage_process_pid(c->st, up) == tid)
		tt_proto_set_process_name(c, up, name, PN_SYSTEM);
}

/* trace processor's StartNewThread: a new thread of tid, of no process
 * yet, the tid's live thread from now on. */
uint32_t tt_proto_thread_start(pctx *c, int64_t tid)
{
	uint32_t utid = tt_process_tracker_thread_new(c->im->procs, -1, tid);

	if (utid == TT_NONE)
		c->oom = 1;
	else
		live_put(c, tid, (uint64_t)utid + 1);
	return utid;
}

/* trace processor's GetThreadOrNull: the tid's live thread, or TT_NONE. */
uint32_t tt_proto_thread_or_none(pctx *c, int64_t tid)
{
	uint64_t *v = tt_pmap_find(&c->ftrace_threads, (uint64_t)tid);

	if (v)
		return *v == TID_ENDED ? TT_NONE : (uint32_t)(*v - 1);
	return tt_process_tracker_thread_by_tid(c->im->procs, tid);
}

/* The ftrace events that change which thread a tid is, and those that
 * need to know it, go through the sorter and act in trace order (as
 * trace processor parses them), not in the order of the file, where one
 * cpu's bundle may come before another's earlier events. What a record
 * holds (kind R_FTRACE, scope FT_*): */
void tt_proto_push_ft(pctx *c, pseq *ps, int64_t ts, int what, uint64_t id, int64_t i, tt_str name, tt_str cat,
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

/* A switch: its row now, the thread switched to (and the name of the
 * one switched from, has_prev) when it is fed in trace order: a tid's
 * thread changes as tasks are made and freed. */
static void push_sched(pctx *c, pseq *ps, int64_t ts, uint32_t cpu, int64_t prev_state, int32_t next_pid,
		       int32_t next_prio, tt_str comm, int has_prev, int32_t prev_pid, int32_t prev_prio, tt_str prev_comm)
{
	sched_rec r = { ts, prev_state, cpu, next_pid, next_prio, TT_NONE, prev_prio, comm };

	if (TT_VEC_PUSH(c->sched, r)) {
		c->oom = 1;
		return;
	}
	tt_proto_push_ft(c, ps, ts, has_prev ? FT_SWITCH : FT_SWITCH_NOPREV, (uint32_t)prev_pid, (int64_t)(c->sched.n - 1), 0,
		prev_comm, 0);
}

/* One R_FTRACE record, in trace order: the process tracker's part, and
 * atrace markers (stored by the atrace tracker). */
void tt_proto_feed_ftrace(pctx *c, const prec *r)
{
	int32_t pid = (int32_t)(uint32_t)r->id;

	switch (r->scope) {
	case FT_SWITCH:
	case FT_SWITCH_NOPREV:
		if (r->u.i >= 0 && (size_t)r->u.i < c->sched.n)
			tt_proto_sched_switch(c, &c->sched.v[r->u.i], r->scope == FT_SWITCH, pid, r->cat);
		return;
	case FT_NEWTASK:
		on_newtask(c, r->ts, (int32_t)(uint32_t)(r->id >> 32), pid, (uint64_t)r->u.i, r->name);
		return;
	case FT_FREE:
		tt_proto_thread(c, (int32_t)(uint32_t)(r->id >> 32)); /* the writer */
		tt_proto_thread_end(c, pid, r->ts);
		return;
	case FT_BLOCKED:
		tt_proto_sched_blocked(c, pid, r->u.i, r->name);
		return;
	case FT_LOG:
		tt_proto_feed_log(c, r);
		return;
	case FT_LOG_UTID:
		tt_storage_log(c->st, r->ts, (uint32_t)r->id, (uint32_t)r->u.i, r->cat, r->name);
		return;
	case FT_RAW:
		tt_storage_raw(c->st, r->ts, r->name, (int64_t)(r->id >> 32), tt_proto_thread(c, pid), r->args);
		return;
	case FT_WAKING:
	case FT_WAKING_COMPACT:
		tt_proto_sched_waking(c, r, r->scope == FT_WAKING_COMPACT, (int32_t)(uint32_t)(r->id >> 32), pid);
		return;
	case FT_RENAME:
		tt_proto_thread(c, (int32_t)(uint32_t)(r->id >> 32)); /* the writer */
		tt_proto_rename(c, pid, r->name);
		return;
	case FT_GK_RENAME:
		tt_proto_rename(c, (int64_t)r->id, r->name);
		return;
	case FT_PRINT:
		tt_proto_feed_atrace(c, r);
		return;
	case FT_TRIGGER:
		tt_proto_feed_trigger(c, r);
		return;
	case FT_SESSION:
		tt_proto_feed_session(c, r);
		return;
	case FT_GPU_COUNTER:
		tt_proto_feed_gpu_counter(c, r);
		return;
	case FT_GPU_STAGE:
		tt_proto_feed_gpu_stage(c, r);
		return;
	case FT_DRM:
		tt_proto_feed_drm(c, r);
		return;
	case FT_V4L2:
		tt_proto_feed_v4l2(c, r);
		return;
	case FT_VIRTIO:
		tt_proto_feed_virtio(c, r);
		return;
	case FT_PTREE: {
		uint32_t seq;
		ProtobufCMessage *m = tt_proto_deferred(c, r, &perfetto__protos__process_tree__descriptor, &seq);

		if (m) {
			tt_proto_on_process_tree(c, seq, (const Perfetto__Protos__ProcessTree *)m);
			protobuf_c_message_free_unpacked(m, NULL);
		}
		return;
	}
	case FT_GK_STATE:
	case FT_GK_TREE:
		tt_proto_feed_generic_kernel(c, r);
		return;
	default:
		tt_proto_feed_kernel(c, r);
		return;
	}
}

/* A process tree is parsed in trace order too (its packet's timestamp),
 * among the ftrace events whose threads it names: packed again until
 * then (a few per trace), an R_FTRACE record of scope what. */
void tt_proto_defer(pctx *c, pseq *s, int64_t ts, int what, const ProtobufCMessage *m)
{
	pblob b = { NULL, protobuf_c_message_get_packed_size(m), s->id };

	if (!(b.p = malloc(b.n ? b.n : 1)) || TT_VEC_PUSH(c->ptrees, b)) {
		free(b.p);
		c->oom = 1;
		return;
	}
	protobuf_c_message_pack(m, b.p);
	tt_proto_push_ft(c, s, ts, what, 0, (int64_t)(c->ptrees.n - 1), 0, 0, 0);
}

ProtobufCMessage *tt_proto_deferred(pctx *c, const prec *r, const ProtobufCMessageDescriptor *d, uint32_t *seq)
{
	pblob *b = r->u.i >= 0 && (size_t)r->u.i < c->ptrees.n ? &c->ptrees.v[r->u.i] : NULL;
	ProtobufCMessage *m;

	if (!b || !b->p)
		return NULL;
	m = protobuf_c_message_unpack(d, NULL, b->n, b->p);
	if (!m)
		c->oom = 1; /* it unpacked once: only memory can fail */
	*seq = b->seq;
	free(b->p);
	b->p = NULL;
	return m;
}

void tt_proto_free_ptrees(pctx *c)
{
	tt_atrace_tracker_free(c->atrace);
	c->atrace = NULL;
	tt_proto_sched_free(c);
	tt_proto_generic_kernel_free(c);
	for (size_t i = 0; i < c->ptrees.n; i++)
		free(c->ptrees.v[i].p);
	TT_VEC_FREE(c->ptrees);
}

/* ---- the ftrace_event (raw) table ----------------------------------------- */

/* One field's value as trace processor stores an ftrace field: signed
 * kinds, bools and enums as int, unsigned as uint, strings and bytes as
 * strings, reals as reals. */
static void raw_value(pctx *c, const char *key, ProtobufCType t, const void *v)
{
	tt_storage *st = c->st;

	switch (t) {
	case PROTOBUF_C_TYPE_INT32: case PROTOBUF_C_TYPE_SINT32: case PROTOBUF_C_TYPE_SFIXED32:
	case PROTOBUF_C_TYPE_ENUM:
		tt_storage_args_int(st, key, *(const int32_t *)v);
		break;
	case PROTOBUF_C_TYPE_INT64: case PROTOBUF_C_TYPE_SINT64: case PROTOBUF_C_TYPE_SFIXED64:
		tt_storage_args_int(st, key, *(const int64_t *)v);
		break;
	case PROTOBUF_C_TYPE_BOOL:
		tt_storage_args_int(st, key, *(const protobuf_c_boolean *)v != 0);
		break;
	case PROTOBUF_C_TYPE_UINT32: case PROTOBUF_C_TYPE_FIXED32:
		tt_storage_args_uint(st, key, *(const uint32_t *)v);
		break;
	case PROTOBUF_C_TYPE_UINT64: case PROTOBUF_C_TYPE_FIXED64:
		tt_storage_args_uint(st, key, *(const uint64_t *)v);
		break;
	case PROTOBUF_C_TYPE_FLOAT:
		tt_storage_args_real(st, key, *(const float *)v);
		break;
	case PROTOBUF_C_TYPE_DOUBLE:
		tt_storage_args_real(st, key, *(const double *)v);
		break;
	case PROTOBUF_C_TYPE_STRING: {
		const char *str = *(char *const *)v;

		tt_storage_args_str(st, key, str ? str : "", str ? strlen(str) : 0);
		break;
	}
	case PROTOBUF_C_TYPE_BYTES: {
		const ProtobufCBinaryData *d = v;

		tt_storage_args_str(st, key, (const char *)d->data, d->len);
		break;
	}
	default: /* messages: not an arg in trace processor either */
		break;
	}
}

/* The fields that hold a kernel function's address, by event (its field
 * number in FtraceEvent) and field number: with the sequence's interned
 * kernel symbols, such a field's arg is the symbol's name, as trace
 * processor's kKernelFunctionFields give it. */
static const struct { uint32_t event, field; } kernel_fn_fields[] = {
	{ 18, 2 },  /* sched_blocked_reason.caller */
	{ 56, 2 },  /* workqueue_activate_work.function */
	{ 57, 2 },  /* workqueue_execute_end.function */
	{ 58, 2 },  /* workqueue_execute_start.function */
	{ 59, 2 },  /* workqueue_queue_work.function */
	{ 437, 2 }, /* funcgraph_entry.func */
	{ 438, 3 }, /* funcgraph_exit.func */
	{ 443, 8 }, /* mm_shrink_slab_start.shrink */
	{ 553, 3 }, /* hrtimer_expire_entry.function */
};

static int kernel_fn_symbol(pseq *ps, uint32_t event, const ProtobufCFieldDescriptor *f, const void *v, tt_str *name)
{
	if (f->type != PROTOBUF_C_TYPE_UINT64 || f->label == PROTOBUF_C_LABEL_REPEATED)
		return 0;
	for (size_t i = 0; i < sizeof(kernel_fn_fields) / sizeof(kernel_fn_fields[0]); i++)
		if (kernel_fn_fields[i].event == event && kernel_fn_fields[i].field == f->id)
			return tt_proto_itab_find(&ps->ksyms, *(const uint64_t *)v, name) && *name;
	return 0;
}

/* The arg set of an ftrace event's message (FtraceEvent field event):
 * its fields present, in field number order (the wire's), keyed by their
 * names. seq: the packet's sequence (its interned kernel symbols). */
static uint32_t raw_args(pctx *c, pseq *seq, uint32_t event, const ProtobufCMessage *m)
{
	const ProtobufCMessageDescriptor *d = m->descriptor;
	const char *base = (const char *)m;
	tt_str sym;

	tt_storage_args_begin(c->st);
	for (unsigned i = 0; i < d->n_fields; i++) {
		const ProtobufCFieldDescriptor *f = &d->fields[i];
		const void *v = base + f->offset;

		if (f->label == PROTOBUF_C_LABEL_REPEATED) {
			size_t n = *(const size_t *)(base + f->quantifier_offset);
			const char *vals = *(char *const *)v;
			size_t sz = f->type == PROTOBUF_C_TYPE_STRING ? sizeof(char *) :
				    f->type == PROTOBUF_C_TYPE_BYTES ? sizeof(ProtobufCBinaryData) :
				    f->type == PROTOBUF_C_TYPE_BOOL ? sizeof(protobuf_c_boolean) :
				    (f->type == PROTOBUF_C_TYPE_INT64 || f->type == PROTOBUF_C_TYPE_SINT64 ||
				     f->type == PROTOBUF_C_TYPE_SFIXED64 || f->type == PROTOBUF_C_TYPE_UINT64 ||
				     f->type == PROTOBUF_C_TYPE_FIXED64 || f->type == PROTOBUF_C_TYPE_DOUBLE) ? 8 : 4;

			for (size_t k = 0; k < n && vals; k++)
				raw_value(c, f->name, f->type, vals + k * sz);
			continue;
		}
		if (f->type == PROTOBUF_C_TYPE_STRING || f->type == PROTOBUF_C_TYPE_MESSAGE) {
			if (!*(void *const *)v)
				continue;
		} else if (f->quantifier_offset && !*(const protobuf_c_boolean *)(base + f->quantifier_offset)) {
			continue;
		}
		if (kernel_fn_symbol(seq, event, f, v, &sym)) {
			const char *text = tt_storage_str(c->st, sym);

			tt_storage_args_str(c->st, f->name, text, strlen(text));
			continue;
		}
		raw_value(c, f->name, f->type, v);
	}
	return tt_args_tracker_end(c->im->args);
}

/* Every event trace processor knows goes to the ftrace_event table but
 * sched_switch (its row is made with the switch, proto_sched.c): here
 * the events this importer declares. The row is fed first, before the
 * event acts, so it makes the writing thread as trace processor's does. */
static void push_raw(pctx *c, pseq *ps, pseq *seq, int64_t ts, uint32_t cpu, const Perfetto__Protos__FtraceEvent *e)
{
	const ProtobufCFieldDescriptor *f;
	const ProtobufCMessage *m;

	if (e->event_case == PERFETTO__PROTOS__FTRACE_EVENT__EVENT__NOT_SET ||
	    e->event_case == PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_SWITCH)
		return;
	f = protobuf_c_message_descriptor_get_field(&perfetto__protos__ftrace_event__descriptor, (unsigned)e->event_case);
	m = f ? *(ProtobufCMessage *const *)((const char *)e + f->offset) : NULL;
	if (!m)
		return;
	tt_proto_push_ft(c, ps, ts, FT_RAW, (uint64_t)cpu << 32 | (uint32_t)e->pid, 0, intern_c(c, f->name), 0,
		raw_args(c, seq, (uint32_t)e->event_case, m));
}

/* A switch's ftrace_event row: its fields as trace processor writes them
 * (a compact switch's prev fields inferred from the cpu's last switch). */
void tt_proto_raw_switch(pctx *c, const sched_rec *r, uint32_t prev_utid, int64_t prev_pid, int32_t prev_prio,
			 tt_str prev_comm)
{
	tt_sched_tracker_raw_switch(c->sst, r->ts, r->cpu, prev_utid, prev_comm, prev_pid, prev_prio, r->prev_state,
				    r->next_comm, r->next_pid, r->next_prio);
}

/* A bundle's compact_sched, as trace processor's tokenizer walks it: the
 * switches, then the wakings, each kind's arrays in lockstep up to the
 * shortest (a waking's common_flags while there are some, else 0); a comm
 * index out of the intern table stops the kind there. Either, or arrays
 * of unequal length, counts compact_sched_has_parse_errors (once per
 * kind); the events before are kept. */
/* The shortest of the five lengths n; *uneven when they differ. */
static size_t lockstep(const size_t n[5], int *uneven)
{
	size_t m = n[0];

	for (int k = 1; k < 5; k++)
		m = n[k] < m ? n[k] : m;
	*uneven = 0;
	for (int k = 0; k < 5; k++)
		*uneven |= n[k] != m;
	return m;
}

static void compact_sched(pctx *c, pseq *ps, uint32_t cpu, const Perfetto__Protos__FtraceEventBundle__CompactSched *cs,
			  uint32_t clock, int64_t offset)
{
	const size_t sw[5] = { cs->n_switch_timestamp, cs->n_switch_prev_state, cs->n_switch_next_pid,
			       cs->n_switch_next_prio, cs->n_switch_next_comm_index };
	const size_t wk[5] = { cs->n_waking_timestamp, cs->n_waking_pid, cs->n_waking_target_cpu, cs->n_waking_prio,
			       cs->n_waking_comm_index };
	size_t n, i;
	uint64_t t = 0;
	int bad;

	n = lockstep(sw, &bad);
	for (i = 0; i < n; i++) {
		uint32_t ci = cs->switch_next_comm_index[i];

		if (ci >= cs->n_intern_table) {
			bad = 1;
			break;
		}
		t += cs->switch_timestamp[i];
		push_sched(c, ps, to_trace(c, 0, clock, t + (uint64_t)offset), cpu, cs->switch_prev_state[i],
			   cs->switch_next_pid[i], cs->switch_next_prio[i], intern_c(c, cs->intern_table[ci]), 0, 0, 0, 0);
	}
	if (bad)
		stat(c, TT_STAT_compact_sched_has_parse_errors);
	/* wakings: the waker is who the cpu runs then (its switches are
	 * fed first at equal times: pushed first) */
	n = lockstep(wk, &bad);
	t = 0;
	for (i = 0; i < n; i++) {
		uint32_t ci = cs->waking_comm_index[i];

		if (ci >= cs->n_intern_table) {
			bad = 1;
			break;
		}
		t += cs->waking_timestamp[i];
		/* u.i: the prio << 32 | the target cpu, read as uint16 (its
		 * raw row's); x: its common_flags */
		tt_proto_push_ft(c, ps, to_trace(c, 0, clock, t + (uint64_t)offset), FT_WAKING_COMPACT,
				 (uint64_t)cpu << 32 | (uint32_t)cs->waking_pid[i],
				 (int64_t)((uint64_t)(uint16_t)cs->waking_prio[i] << 32 | (uint16_t)cs->waking_target_cpu[i]),
				 intern_c(c, cs->intern_table[ci]), 0,
				 i < cs->n_waking_common_flags ? cs->waking_common_flags[i] & 0xffff : 0);
	}
	if (bad)
		stat(c, TT_STAT_compact_sched_has_parse_errors);
}

/* Kernel symbols interned on a sequence (InternedData.kernel_symbols):
 * the callers sched_blocked_reason names by iid. */
void tt_proto_on_interned_ksyms(pctx *c, pseq *s, const Perfetto__Protos__InternedData *in)
{
	for (size_t i = 0; i < in->n_kernel_symbols; i++) {
		const Perfetto__Protos__InternedString *is = in->kernel_symbols[i];

		if (tt_proto_itab_put(&s->ksyms, is->iid,
				      is->has_str ? intern(c, (const char *)is->str.data, is->str.len) : 0))
			c->oom = 1;
	}
}

void tt_proto_on_ftrace(pctx *c, pseq *seq, const FBundle *b)
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
			c->max_ts = ts;
		push_raw(c, ps, seq, ts, b->cpu, e);
		switch (e->event_case) {
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_PRINT:
			tt_proto_on_print(c, ps, ts, e->pid, e->print->buf);
			break;
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_SWITCH: {
			const Perfetto__Protos__SchedSwitchFtraceEvent *sw = e->sched_switch;

			push_sched(c, ps, ts, b->cpu, sw->prev_state, sw->next_pid, sw->next_prio,
				   intern_c(c, sw->next_comm && sw->next_comm[0] ? sw->next_comm : NULL), 1,
				   sw->prev_pid, sw->prev_prio,
				   intern_c(c, sw->prev_comm && sw->prev_comm[0] ? sw->prev_comm : NULL));
			break;
		}
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_TASK_NEWTASK: {
			const Perfetto__Protos__TaskNewtaskFtraceEvent *nt = e->task_newtask;

			tt_proto_push_ft(c, ps, ts, FT_NEWTASK, (uint64_t)(uint32_t)e->pid << 32 | (uint32_t)nt->pid,
				(int64_t)nt->clone_flags, intern_c(c, nt->comm && nt->comm[0] ? nt->comm : NULL), 0, 0);
			break;
		}
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_TASK_RENAME:
			tt_proto_push_ft(c, ps, ts, FT_RENAME, (uint64_t)e->pid << 32 | (uint32_t)e->task_rename->pid, 0,
				e->task_rename->newcomm && e->task_rename->newcomm[0] ? intern_c(c, e->task_rename->newcomm)
										      : 0,
				0, 0);
			break;
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SDE_TRACING_MARK_WRITE:
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_TRACING_MARK_WRITE:
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_ZERO:
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DPU_TRACING_MARK_WRITE:
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_G2D_TRACING_MARK_WRITE:
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_MALI_TRACING_MARK_WRITE:
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_LWIS_TRACING_MARK_WRITE:
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SAMSUNG_TRACING_MARK_WRITE:
			tt_proto_on_kernel_marks(c, ps, ts, e);
			break;
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_WAKING:
			/* (id: the waking tid, the wakee) */
			tt_proto_push_ft(c, ps, ts, FT_WAKING, (uint64_t)e->pid << 32 | (uint32_t)e->sched_waking->pid, 0,
				intern_c(c, e->sched_waking->comm), 0, 0);
			break;
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_BLOCKED_REASON: {
			/* the caller: a kernel symbol interned on the packet's
			 * sequence (none found: no function) */
			tt_str fn = 0;

			tt_proto_itab_find(&seq->ksyms, e->sched_blocked_reason->caller, &fn);
			tt_proto_push_ft(c, ps, ts, FT_BLOCKED, (uint32_t)e->sched_blocked_reason->pid,
					 e->sched_blocked_reason->io_wait != 0, fn, 0, 0);
			break;
		}
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_PROCESS_FREE:
			tt_proto_push_ft(c, ps, ts, FT_FREE, (uint64_t)e->pid << 32 | (uint32_t)e->sched_process_free->pid, 0, 0, 0,
				0);
			break;
		default:
			tt_proto_on_kernel_event(c, seq, ps, ts, b->cpu, e);
			break;
		}
	}
	if (b->compact_sched)
		compact_sched(c, ps, b->cpu, b->compact_sched, clock, offset);
}

