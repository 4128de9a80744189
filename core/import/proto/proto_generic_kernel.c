/*
 * proto_generic_kernel.c - Perfetto's generic kernel data source, for
 * kernels without ftrace (TracePacket fields 117, 118, 120, 122 and 129),
 * as trace processor's GenericKernelParser reads it:
 *   - a task state event says one thread's new state. RUNNING on a cpu
 *     opens a sched_slice there (closing the cpu's open one with no end
 *     state); another state of the thread the cpu runs closes its slice
 *     with that state. A cpu may start its next thread before the last
 *     one says it stopped ("start task2, then close task1"): task1's
 *     slice is closed at task2's start and task1 gets a NULL
 *     thread_state there; when task1's state comes at that same time it
 *     becomes the slice's end state and the NULL state's value, later it
 *     is a state of its own (the slice keeps no end state).
 *   - thread_state rows: Created, R, Running (with its cpu), S, D, T, Z,
 *     X, one per event; CREATED starts a new thread (start_ts), DESTROYED
 *     ends it (end_ts). Out of order (counted as
 *     generic_task_state_invalid_order, the event dropped): CREATED of a
 *     live tid, anything but DESTROYED after DEAD, RUNNING after
 *     Running; two states of a thread at one time are counted but kept.
 *     An UNKNOWN or unknown state: task_state_invalid.
 *   - thread names: the event's comm at ftrace's rank (trace processor's
 *     kGenericKernelTask); a rename also names the process of a main
 *     thread.
 *   - a process tree: processes with a cmdline (name: the cmdline up to
 *     its first space; parent: ppid's process, the first one kept) and
 *     threads (their process, is_main_thread, is_idle, comm at the process
 *     tree's rank); processes get no main thread of their own.
 *   - cpu frequencies: freq_hz / 1000 on the cpu's `cpufreq` track; gpu
 *     frequencies in kHz on the gpu's `gpufreq` track.
 * Everything acts in trace order: task states, renames and trees are
 * R_FTRACE records (FT_GK_*; a rename is ftrace's, tt_proto_rename),
 * frequencies counter records.
 * Known limits: a cpu below 0 or from 1024 on is not taken (RUNNING
 * there is counted as generic_task_state_cpu_bad and dropped; other
 * states then close no slice); a process that names itself its parent
 * gets none; a changed parent is kept silently (trace processor logs
 * process_tracker_parent_pid_changed); packets of several machines are
 * not kept apart (the importer's limit: machine_id stays NULL).
 */
#include "proto_int.h"

#define GK_MAX_CPU 1024

enum {
	GK_UNKNOWN, GK_CREATED, GK_RUNNABLE, GK_RUNNING, GK_SLEEP, GK_UNINTERRUPTIBLE, GK_STOPPED, GK_DEAD,
	GK_DESTROYED, GK_NSTATES
};

/* What a cpu runs: its open slice (TT_NONE: none) and the thread in it. */
typedef struct gkcpu {
	uint32_t slice, utid;
	int64_t tid;
} gkcpu;

struct pgk {
	tt_str names[GK_NSTATES];    /* the states' thread_state texts */
	TT_VEC(gkcpu) cpus;
	TT_VEC(uint32_t) hanging;    /* utid -> its slice closed by another thread's start, TT_NONE */
};

/* How a state event met its cpu's slices (trace processor's
 * SchedSwitchType). */
enum { SW_NONE, SW_START, SW_START_WITH_PENDING, SW_CLOSE, SW_UPDATE_END_STATE };

static struct pgk *gk_of(pctx *c)
{
	static const char *const text[GK_NSTATES] = { "Unknown", "Created", "R", "Running", "S", "D", "T", "Z", "X" };

	if (c->gk)
		return c->gk;
	if (!(c->gk = calloc(1, sizeof(*c->gk)))) {
		c->oom = 1;
		return NULL;
	}
	for (int i = 0; i < GK_NSTATES; i++)
		c->gk->names[i] = intern_c(c, text[i]);
	return c->gk;
}

void tt_proto_generic_kernel_free(pctx *c)
{
	if (!c->gk)
		return;
	TT_VEC_FREE(c->gk->cpus);
	TT_VEC_FREE(c->gk->hanging);
	free(c->gk);
	c->gk = NULL;
}

/* ---- packets ------------------------------------------------------------- */

void tt_proto_on_generic_kernel(pctx *c, pseq *s, const Pkt *p, int64_t ts)
{
	switch (p->data_case) {
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_GENERIC_KERNEL_TASK_STATE_EVENT: {
		const Perfetto__Protos__GenericKernelTaskStateEvent *e = p->generic_kernel_task_state_event;

		tt_proto_push_ft(c, s, ts, FT_GK_STATE, (uint64_t)e->tid,
				 (int64_t)((uint64_t)(uint32_t)e->cpu << 32 | (uint32_t)e->prio), intern_c(c, e->comm), 0,
				 (uint32_t)e->state);
		return;
	}
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_GENERIC_KERNEL_TASK_RENAME_EVENT: {
		const Perfetto__Protos__GenericKernelTaskRenameEvent *e = p->generic_kernel_task_rename_event;

		tt_proto_push_ft(c, s, ts, FT_GK_RENAME, (uint64_t)e->tid, 0, intern_c(c, e->comm), 0, 0);
		return;
	}
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_GENERIC_KERNEL_PROCESS_TREE:
		tt_proto_defer(c, s, ts, FT_GK_TREE, &p->generic_kernel_process_tree->base);
		return;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_GENERIC_KERNEL_CPU_FREQ_EVENT: {
		const Perfetto__Protos__GenericKernelCpuFrequencyEvent *e = p->generic_kernel_cpu_freq_event;

		tt_proto_push_value(c, s, ts,
				    tt_import_cpu_counter_track(c->im, "cpu_frequency", 0, "cpufreq", (uint32_t)e->cpu),
				    (double)e->freq_hz / 1000.0);
		return;
	}
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_GENERIC_GPU_FREQUENCY_EVENT: {
		const Perfetto__Protos__GenericGpuFrequencyEvent *e = p->generic_gpu_frequency_event;

		tt_proto_push_value(c, s, ts, tt_import_gpu_freq_track(c->im, e->gpu_id), (double)e->frequency_khz);
		return;
	}
	default:
		return;
	}
}

/* ---- task states ----------------------------------------------------------- */

static void invalid_order(pctx *c)
{
	stat(c, TT_STAT_generic_task_state_invalid_order);
}

/* The thread a state event is about, found or made as its state says
 * (TT_NONE: the event is dropped, counted). */
static uint32_t utid_for_state(pctx *c, tt_sched_tracker *s, int64_t ts, int64_t tid, tt_str comm, uint32_t state)
{
	const struct pgk *g = c->gk;
	uint32_t utid;
	tt_str prev;

	switch (state) {
	case GK_CREATED:
		if (tt_proto_thread_or_none(c, tid) != TT_NONE) {
			invalid_order(c);
			return TT_NONE;
		}
		if ((utid = tt_proto_thread_start(c, tid)) != TT_NONE)
			tt_storage_thread_set_life(c->st, utid, 0, ts);
		break;
	case GK_DESTROYED:
		/* (named only when the event made it) */
		if ((utid = tt_proto_thread_or_none(c, tid)) == TT_NONE)
			tt_process_tracker_thread_name(c->im->procs, utid = tt_proto_thread(c, tid), comm, TT_TN_FTRACE);
		tt_proto_thread_end(c, tid, ts);
		return utid;
	case GK_RUNNABLE:
	case GK_RUNNING:
	case GK_SLEEP:
	case GK_UNINTERRUPTIBLE:
	case GK_STOPPED:
	case GK_DEAD:
		if ((utid = tt_proto_thread_or_none(c, tid)) != TT_NONE) {
			/* only DESTROYED follows DEAD; Running never follows
			 * Running */
			prev = tt_sched_tracker_last_state(s, utid);
			if (prev && (prev == g->names[GK_DEAD] ||
				     (state == GK_RUNNING && prev == g->names[GK_RUNNING]))) {
				invalid_order(c);
				return TT_NONE;
			}
		} else {
			utid = tt_proto_thread(c, tid);
		}
		break;
	default:
		stat(c, TT_STAT_task_state_invalid);
		return TT_NONE;
	}
	tt_process_tracker_thread_name(c->im->procs, utid, comm, TT_TN_FTRACE);
	return utid;
}

static void hang(pctx *c, struct pgk *g, uint32_t utid, uint32_t slice)
{
	while (g->hanging.n <= utid)
		if (TT_VEC_PUSH(g->hanging, TT_NONE)) {
			c->oom = 1;
			return;
		}
	g->hanging.v[utid] = slice;
}

/* The cpu's slices as the state event of tid (utid) moves them; cpu is
 * NULL where the event names no cpu we keep (not RUNNING then). */
static int sched_switch(pctx *c, tt_sched_tracker *s, gkcpu *cpu, uint32_t cpu_id, int64_t ts, int64_t tid,
			uint32_t utid, uint32_t state, int32_t prio)
{
	struct pgk *g = c->gk;
	uint32_t h;

	if (state == GK_RUNNING) {
		int rc = SW_START;

		if (cpu->slice != TT_NONE) {
			tt_sched_tracker_slice_close(s, cpu->slice, ts, 0);
			hang(c, g, cpu->utid, cpu->slice);
			rc = SW_START_WITH_PENDING;
		}
		cpu->slice = tt_sched_tracker_slice_open(s, ts, cpu_id, utid, prio);
		cpu->tid = tid;
		cpu->utid = utid;
		return rc;
	}
	if (cpu && cpu->slice != TT_NONE && tid == cpu->tid) {
		tt_sched_tracker_slice_close(s, cpu->slice, ts, g->names[state]);
		cpu->slice = cpu->utid = TT_NONE;
		return SW_CLOSE;
	}
	/* the end state of a slice another thread's start closed, when it
	 * comes at that same time */
	h = utid < g->hanging.n ? g->hanging.v[utid] : TT_NONE;
	if (h != TT_NONE && tt_sched_tracker_slice_end(s, h) == ts) {
		tt_sched_tracker_slice_set_end_state(s, h, g->names[state]);
		g->hanging.v[utid] = TT_NONE;
		return SW_UPDATE_END_STATE;
	}
	return SW_NONE;
}

static gkcpu *cpu_of(pctx *c, struct pgk *g, uint32_t cpu)
{
	gkcpu none = { TT_NONE, TT_NONE, 0 };

	if (cpu >= GK_MAX_CPU)
		return NULL;
	while (g->cpus.n <= cpu)
		if (TT_VEC_PUSH(g->cpus, none)) {
			c->oom = 1;
			return NULL;
		}
	return &g->cpus.v[cpu];
}

static void push_state(pctx *c, tt_sched_tracker *s, int64_t ts, uint32_t utid, tt_str state, int32_t cpu)
{
	if (tt_sched_tracker_push_state(s, ts, utid, state, cpu))
		invalid_order(c);
}

static void on_task_state(pctx *c, const prec *r)
{
	tt_sched_tracker *s = tt_proto_sched(c);
	struct pgk *g = gk_of(c);
	int64_t tid = (int64_t)r->id;
	uint32_t cpu_id = (uint32_t)((uint64_t)r->u.i >> 32), state = r->args, utid, prev_utid;
	int32_t prio = (int32_t)(uint32_t)r->u.i;
	gkcpu *cpu;

	if (!s || !g)
		return;
	if (state == GK_RUNNING && cpu_id >= GK_MAX_CPU) {
		stat(c, TT_STAT_generic_task_state_cpu_bad);
		return;
	}
	if ((utid = utid_for_state(c, s, r->ts, tid, r->name, state)) == TT_NONE)
		return;
	cpu = cpu_of(c, g, cpu_id);
	if (!cpu && state == GK_RUNNING)
		return; /* (out of memory) */
	prev_utid = cpu ? cpu->utid : TT_NONE;
	switch (sched_switch(c, s, cpu, cpu_id, r->ts, tid, utid, state, prio)) {
	case SW_UPDATE_END_STATE:
		tt_sched_tracker_set_state(s, utid, g->names[state]);
		break;
	case SW_START_WITH_PENDING:
		/* the thread the cpu ran stopped, how is not known yet */
		push_state(c, s, r->ts, prev_utid, 0, -1);
		/* fall through */
	default:
		push_state(c, s, r->ts, utid, g->names[state], state == GK_RUNNING ? (int32_t)cpu_id : -1);
		break;
	}
	if (tt_sched_tracker_oom(s))
		c->oom = 1;
}

/* ---- names and the process tree -------------------------------------------- */

/* trace processor's GetOrCreateProcessWithoutMainThread: a pid whose
 * process ended gets a new one. */
static uint32_t process_bare(pctx *c, int64_t pid)
{
	uint64_t *ended = tt_pmap_find(&c->ended_pids, (uint64_t)pid);
	int reused = ended && *ended;

	if (reused)
		*ended = 0;
	return tt_process_tracker_process_bare(c->im->procs, pid, reused);
}

static void on_tree(pctx *c, const Perfetto__Protos__GenericKernelProcessTree *pt)
{
	for (size_t i = 0; i < pt->n_processes; i++) {
		const Perfetto__Protos__GenericKernelProcessTree__Process *p = pt->processes[i];
		const char *sp;
		uint32_t parent, upid;

		if (!p->cmdline)
			continue;
		sp = strchr(p->cmdline, ' ');
		parent = process_bare(c, p->ppid);
		upid = process_bare(c, p->pid);
		if (upid == TT_NONE || parent == TT_NONE) {
			c->oom = 1;
			return;
		}
		/* a changed parent is a reparenting: the first one stays */
		if (upid != parent && tt_storage_process_parent(c->st, upid) == TT_NONE)
			tt_storage_process_set_parent(c->st, upid, parent);
		tt_proto_set_process_name(c, upid,
					  sp ? intern(c, p->cmdline, (size_t)(sp - p->cmdline)) : intern_c(c, p->cmdline),
					  PN_SYSTEM);
		tt_storage_process_set_cmdline(c->st, upid, intern_c(c, p->cmdline));
	}
	for (size_t i = 0; i < pt->n_threads; i++) {
		const Perfetto__Protos__GenericKernelProcessTree__Thread *t = pt->threads[i];
		uint32_t utid;

		if (process_bare(c, t->pid) == TT_NONE || (utid = tt_proto_thread_in(c, t->pid, t->tid)) == TT_NONE) {
			c->oom = 1;
			return;
		}
		tt_storage_thread_set_kind(c->st, utid, t->is_main_thread, t->is_idle);
		tt_process_tracker_thread_name(c->im->procs, utid, intern_c(c, t->comm), TT_TN_PROCESS_TREE);
	}
}

void tt_proto_feed_generic_kernel(pctx *c, const prec *r)
{
	switch (r->scope) {
	case FT_GK_STATE:
		on_task_state(c, r);
		return;
	case FT_GK_TREE: {
		uint32_t seq;
		ProtobufCMessage *m =
			tt_proto_deferred(c, r, &perfetto__protos__generic_kernel_process_tree__descriptor, &seq);

		if (m) {
			on_tree(c, (const Perfetto__Protos__GenericKernelProcessTree *)m);
			protobuf_c_message_free_unpacked(m, NULL);
		}
		return;
	}
	}
}
