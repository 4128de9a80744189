/*
 * proto_sched.c - sched_switch (full and compact) into sched_slice and
 * thread_state, in trace order, as trace processor's sched event and
 * thread state trackers build them: a cpu's slice is closed by the next
 * switch on that cpu whose prev pid is the thread it ran (else counted as
 * mismatched_sched_switch_tids and left open); slices and states still
 * open at the end keep dur -1; a compact bundle's first switch on a cpu
 * only says who runs (compact_sched_switch_skipped). A new task is
 * runnable from its creation, woken by the thread that made it (not from
 * an interrupt); a waking makes a blocked thread runnable, woken by the
 * thread that wrote it (a compact one: by whoever runs on its cpu,
 * skipped before the cpu's first switch; its common_flags say whether it
 * came from an interrupt), and the waker's state row is kept when the
 * waker was running; a waking of a thread running or runnable goes to
 * spurious_sched_wakeup instead. sched_blocked_reason names the thread's
 * last blocked state's io_wait and function (the caller, an interned
 * kernel symbol). Rows are kept here
 * with the raw prev_state and written at the end, when the kernel version
 * that decodes it is known (SystemInfo; 4.4 without one, as trace
 * processor assumes).
 */
#include "proto_int.h"

#define NO_ROW UINT32_MAX
#define ST_RUNNING INT64_MIN      /* thread_state: on a cpu */
#define ST_NONE (INT64_MIN + 1)   /* sched_slice: still open, no end state */
#define ST_WOKEN (INT64_MIN + 2)  /* thread_state: runnable after a waking or a new task ("R") */

typedef struct srow {              /* a sched_slice row */
	int64_t ts, dur, state;       /* state: raw prev_state or ST_NONE */
	uint32_t utid;
	int32_t cpu;
	int32_t prio;
} srow;

typedef struct strow {             /* a thread_state row */
	int64_t ts, dur, state;       /* state: raw prev_state, ST_RUNNING or ST_WOKEN */
	uint32_t utid;
	int32_t cpu;                  /* -1: none */
	uint32_t waker_utid;          /* TT_NONE: none */
	uint32_t waker_id;            /* the waker's running row here, NO_ROW: none */
	tt_str blocked;               /* blocked_function, 0: none */
	int8_t io_wait;               /* -1: unknown */
	int8_t irq;                   /* irq_context, -1: unknown */
} strow;

typedef struct spurious {          /* a spurious_sched_wakeup row */
	int64_t ts;
	uint32_t state;               /* the wakee's thread_state row here */
	uint32_t utid, waker_utid;
	int8_t irq;
} spurious;

typedef struct scpu {
	uint32_t slice;               /* its open sched row, NO_ROW */
	uint32_t last_utid;           /* the thread switched to last, TT_NONE */
	int64_t last_pid;
	int32_t last_prio;
} scpu;

struct tt_proto_sched {
	TT_VEC(srow) slices;
	TT_VEC(strow) states;
	TT_VEC(spurious) spurious;
	TT_VEC(scpu) cpus;
	TT_VEC(uint32_t) last_state;  /* utid -> its newest thread_state row + 1 (0: none) */
	TT_VEC(uint32_t) last_blocked; /* utid -> its blocked state row + 1 while it has not run since */
	int kv_major, kv_minor;       /* kernel version, 0.0: unknown (read as 4.4) */
};

static struct tt_proto_sched *sched_of(pctx *c)
{
	if (!c->sst && !(c->sst = calloc(1, sizeof(*c->sst))))
		c->oom = 1;
	return c->sst;
}

/* SystemInfo (read as the packet comes, before any switch is fed): the
 * kernel version of a Linux uname release "major.minor[.rest]" decodes
 * prev_state; uname goes to metadata as trace processor keeps it. */
void tt_proto_on_system_info(pctx *c, const Perfetto__Protos__SystemInfo *si)
{
	struct tt_proto_sched *s = sched_of(c);
	const Perfetto__Protos__Utsname *u = si->utsname;
	const char *rel, *d1, *d2;
	int64_t major, minor;

	if (!s || !u)
		return;
	if (u->sysname)
		tt_storage_meta_str(c->st, "system_name", u->sysname);
	if (u->version)
		tt_storage_meta_str(c->st, "system_version", u->version);
	if (u->release)
		tt_storage_meta_str(c->st, "system_release", u->release);
	if (u->machine)
		tt_storage_meta_str(c->st, "system_machine", u->machine);
	s->kv_major = s->kv_minor = 0;
	rel = u->release;
	if (!u->sysname || strcmp(u->sysname, "Linux") != 0 || !rel || !*rel)
		return;
	d1 = strchr(rel, '.');
	if (!d1)
		return;
	d2 = strchr(d1 + 1, '.');
	if (tt_atrace_num(rel, (size_t)(d1 - rel), 1, &major) ||
	    tt_atrace_num(d1 + 1, d2 ? (size_t)(d2 - d1 - 1) : strlen(d1 + 1), 1, &minor))
		return;
	s->kv_major = (int)major;
	s->kv_minor = (int)minor;
}

static scpu *cpu_of(pctx *c, struct tt_proto_sched *s, uint32_t cpu)
{
	scpu none = { NO_ROW, TT_NONE, 0, 0 };

	while (s->cpus.n <= cpu)
		if (TT_VEC_PUSH(s->cpus, none)) {
			c->oom = 1;
			return NULL;
		}
	return &s->cpus.v[cpu];
}

static strow *last_state(struct tt_proto_sched *s, uint32_t utid)
{
	if (utid >= s->last_state.n || !s->last_state.v[utid])
		return NULL;
	return &s->states.v[s->last_state.v[utid] - 1];
}

static int is_blocked(const struct tt_proto_sched *s, int64_t state);
static int64_t task_flags(const struct tt_proto_sched *s, int64_t raw);

/* A thread's state from ts on, open (the swapper has none); a blocked
 * one is the thread's last blocked state until it runs again. A woken
 * one names its waker (TT_NONE: none), and the waker's state when it is
 * running (at a trace's start or after lost data it may not be). */
static void open_state(pctx *c, struct tt_proto_sched *s, int64_t ts, uint32_t utid, int64_t state, int32_t cpu,
		       uint32_t waker, int irq)
{
	strow r = { ts, -1, state, utid, cpu, waker, NO_ROW, 0, -1, (int8_t)irq };
	const strow *w;

	if (utid == 0 || utid == TT_NONE)
		return;
	if (waker != TT_NONE && (w = last_state(s, waker)) && w->state == ST_RUNNING)
		r.waker_id = s->last_state.v[waker] - 1;
	if (TT_VEC_PUSH(s->states, r)) {
		c->oom = 1;
		return;
	}
	while (s->last_state.n <= utid)
		if (TT_VEC_PUSH(s->last_state, 0) || TT_VEC_PUSH(s->last_blocked, 0)) {
			c->oom = 1;
			return;
		}
	s->last_state.v[utid] = (uint32_t)s->states.n;
	if (state == ST_RUNNING)
		s->last_blocked.v[utid] = 0;
	else if (is_blocked(s, state))
		s->last_blocked.v[utid] = (uint32_t)s->states.n;
}

void tt_proto_sched_blocked(pctx *c, int64_t pid, int64_t io_wait, tt_str function)
{
	struct tt_proto_sched *s = sched_of(c);
	uint32_t utid = tt_proto_thread(c, pid);
	strow *r;

	if (!s || utid >= s->last_blocked.n || !s->last_blocked.v[utid])
		return;
	r = &s->states.v[s->last_blocked.v[utid] - 1];
	r->io_wait = (int8_t)(io_wait != 0);
	if (function)
		r->blocked = function;
}

/* Ends the thread's newest state at ts, unless data was lost (its end is
 * not known then: it stays open). */
static void close_state(struct tt_proto_sched *s, int64_t ts, uint32_t utid, int lost)
{
	strow *r = last_state(s, utid);

	if (r && !lost)
		r->dur = ts - r->ts;
}

/* One switch on cpu at ts from prev (prev_state) to next. A thread
 * switched out that was not running lost data: its state before stays
 * open. */
static void switch_states(pctx *c, struct tt_proto_sched *s, const sched_rec *r, uint32_t prev, uint32_t next)
{
	strow *p = last_state(s, prev);

	close_state(s, r->ts, prev, p && p->state != ST_RUNNING);
	open_state(c, s, r->ts, prev, r->prev_state, -1, TT_NONE, -1);
	/* (a forced migration can run a thread on two cpus at once: its
	 * state before is cut here, whatever it was) */
	close_state(s, r->ts, next, 0);
	open_state(c, s, r->ts, next, ST_RUNNING, (int32_t)r->cpu, TT_NONE, -1);
}

void tt_proto_sched_switch(pctx *c, sched_rec *r, int full, int64_t prev_pid, tt_str prev_comm)
{
	struct tt_proto_sched *s = sched_of(c);
	scpu *cpu = s ? cpu_of(c, s, r->cpu) : NULL;
	uint32_t prev, next;
	srow slice = { r->ts, -1, ST_NONE, TT_NONE, (int32_t)r->cpu, r->next_prio };

	if (!cpu)
		return;
	next = tt_proto_thread(c, r->next_pid);
	r->next_utid = next;
	tt_proto_thread_name(c, next, r->next_comm, TN_FTRACE);
	/* (a prev_state the kernel cannot have written is counted where
	 * trace processor decodes it: not for a cpu's first compact switch) */
	if ((full || cpu->last_utid != TT_NONE) && task_flags(s, r->prev_state) < 0)
		stat(c, TT_STAT_task_state_invalid);
	if (full) {
		if (cpu->slice != NO_ROW) {
			if (prev_pid == cpu->last_pid) {
				s->slices.v[cpu->slice].dur = r->ts - s->slices.v[cpu->slice].ts;
				s->slices.v[cpu->slice].state = r->prev_state;
			} else {
				stat(c, TT_STAT_mismatched_sched_switch_tids);
			}
		}
		/* (named again: a thread may rename itself while it runs) */
		prev = tt_proto_thread(c, prev_pid);
		tt_proto_thread_name(c, prev, prev_comm, TN_FTRACE);
		tt_proto_raw_switch(c, r, prev, prev_pid, r->prev_prio, prev_comm);
	} else {
		if (cpu->last_utid == TT_NONE) {
			/* the cpu's first compact switch: no prev fields */
			stat(c, TT_STAT_compact_sched_switch_skipped);
			cpu->last_utid = next;
			cpu->last_pid = r->next_pid;
			cpu->last_prio = r->next_prio;
			return;
		}
		if (cpu->slice != NO_ROW) {
			s->slices.v[cpu->slice].dur = r->ts - s->slices.v[cpu->slice].ts;
			s->slices.v[cpu->slice].state = r->prev_state;
		}
		prev = cpu->last_utid;
		/* (prev's comm: its name now, a rename while it ran included) */
		tt_proto_raw_switch(c, r, prev, cpu->last_pid, cpu->last_prio, tt_storage_thread_name(c->st, prev));
	}
	cpu->last_utid = next;
	cpu->last_pid = r->next_pid;
	cpu->last_prio = r->next_prio;
	slice.utid = next;
	if (TT_VEC_PUSH(s->slices, slice)) {
		c->oom = 1;
		return;
	}
	cpu->slice = (uint32_t)(s->slices.n - 1);
	switch_states(c, s, r, prev, next);
}

/* A raw prev_state as trace processor's TaskState flags for the kernel:
 * the low six bits S D T t X Z alike in every kernel; above them 4.14+
 * reports P, I (TASK_IDLE) and 0x100 as preempted (anything higher:
 * invalid, -1); older kernels x K W P N with preemption at 0x1000 (4.8+)
 * or 0x800, D|N read as I. */
enum { T_P = 0x40, T_DEAD = 0x80, T_WK = 0x100, T_WG = 0x200, T_NL = 0x400, T_IDLE = 0x4000, T_PRE = 0x8000 };

static int64_t task_flags(const struct tt_proto_sched *s, int64_t raw)
{
	uint32_t st = (uint16_t)raw, f = st & 0x3f;
	int modern = s->kv_major > 4 || (s->kv_major == 4 && s->kv_minor >= 14);

	if (modern) {
		if (st & 0xfe00)
			return -1;
		return f | (st & 0x40 ? T_P : 0) | (st & 0x80 ? T_IDLE : 0) | (st & 0x100 ? T_PRE : 0);
	}
	f |= (st & 0x40 ? T_DEAD : 0) | (st & 0x80 ? T_WK : 0) | (st & 0x100 ? T_WG : 0) | (st & 0x200 ? T_P : 0) |
	     (st & 0x400 ? T_NL : 0);
	if (f == (2 | T_NL))
		f = T_IDLE;
	if (st & (s->kv_major == 4 && s->kv_minor >= 8 ? 0x1000 : 0x800))
		f |= T_PRE;
	return f;
}

/* trace processor's IsBlocked: a state neither Running nor exactly "R"
 * (an invalid one, NULL, counts as blocked; "R+" too). */
static int is_blocked(const struct tt_proto_sched *s, int64_t state)
{
	if (state == ST_RUNNING || state == ST_WOKEN)
		return 0;
	return task_flags(s, state) != 0;
}

/* Its letters (runnable: R, R+ preempted), 0 for an invalid state. */
static tt_str state_str(pctx *c, const struct tt_proto_sched *s, int64_t raw)
{
	static const struct { uint32_t flag; char c; } letters[] = {
		{ 1, 'S' }, { 2, 'D' }, { 4, 'T' }, { 8, 't' }, { 0x10, 'X' }, { 0x20, 'Z' }, { T_P, 'P' },
		{ T_DEAD, 'x' }, { T_WK, 'K' }, { T_WG, 'W' }, { T_NL, 'N' }, { T_IDLE, 'I' },
	};
	int64_t f = task_flags(s, raw);
	char b[16];
	size_t n = 0;

	if (f < 0)
		return 0;
	if (!(f & ~(int64_t)T_PRE))
		return intern_c(c, f & T_PRE ? "R+" : "R");
	for (size_t i = 0; i < sizeof(letters) / sizeof(letters[0]); i++)
		if (f & letters[i].flag)
			b[n++] = letters[i].c;
	return intern(c, b, n);
}

void tt_proto_sched_new_task(pctx *c, int64_t ts, uint32_t utid, uint32_t parent)
{
	struct tt_proto_sched *s = sched_of(c);

	/* runnable from its creation (trace processor's PushNewTaskEvent:
	 * nothing closed), woken by its parent, not from an interrupt */
	if (s)
		open_state(c, s, ts, utid, ST_WOKEN, -1, parent, 0);
}

/* trace processor's CommonFlagsToIrqContext: TRACE_FLAG_HARDIRQ (0x08)
 * or TRACE_FLAG_SOFTIRQ (0x10) set. */
static int irq_context(uint32_t common_flags)
{
	return (common_flags & (0x08 | 0x10)) != 0;
}

void tt_proto_sched_waking(pctx *c, const prec *r, int compact, int64_t waker, int64_t wakee)
{
	struct tt_proto_sched *s = sched_of(c);
	int64_t ts = r->ts;
	uint32_t utid, waker_utid;
	int irq = -1;
	strow *last;

	if (!s)
		return;
	if (compact) {
		/* the waker is whoever the cpu runs: unknown before its
		 * first switch */
		scpu *cpu = cpu_of(c, s, (uint32_t)waker);

		const char *comm = tt_storage_str(c->st, r->name);

		if (!cpu || cpu->last_utid == TT_NONE) {
			stat(c, TT_STAT_compact_sched_waking_skipped);
			return;
		}
		/* its ftrace_event row: written by the running thread */
		tt_storage_args_begin(c->st);
		tt_storage_args_str(c->st, "comm", comm ? comm : "", comm ? strlen(comm) : 0);
		tt_storage_args_int(c->st, "pid", wakee);
		tt_storage_args_int(c->st, "prio", (int32_t)(uint32_t)((uint64_t)r->u.i >> 32));
		tt_storage_args_int(c->st, "target_cpu", (int32_t)(uint32_t)r->u.i);
		/* (its common_flags too: trace processor keeps them on this
		 * row only) */
		tt_storage_raw_set_common_flags(c->st,
						tt_storage_raw(c->st, r->ts, intern_c(c, "sched_waking"), waker,
							       cpu->last_utid, tt_args_tracker_end(c->im->args)),
						(uint16_t)r->args);
		utid = tt_proto_thread(c, wakee);
		waker_utid = cpu->last_utid;
		irq = irq_context(r->args); /* (args: its common_flags) */
	} else {
		/* the waker first (the event's raw table row), then the wakee */
		waker_utid = tt_proto_thread(c, waker);
		utid = tt_proto_thread(c, wakee);
		tt_proto_thread_name(c, utid, r->name, TN_FTRACE);
	}
	last = last_state(s, utid);
	if (last && !is_blocked(s, last->state)) {
		/* already running or runnable: a spurious waking */
		spurious w = { ts, s->last_state.v[utid] - 1, utid, waker_utid, (int8_t)irq };

		if (TT_VEC_PUSH(s->spurious, w))
			c->oom = 1;
		return;
	}
	close_state(s, ts, utid, 0);
	open_state(c, s, ts, utid, ST_WOKEN, -1, waker_utid, irq);
}

void tt_proto_build_sched(pctx *c)
{
	struct tt_proto_sched *s = c->sst;
	tt_str running, runnable;
	int64_t base = 0;             /* the storage row of states.v[0] */

	if (!s)
		return;
	for (size_t i = 0; i < s->slices.n; i++) {
		const srow *r = &s->slices.v[i];

		tt_storage_sched(c->st, r->ts, r->dur, r->cpu, r->utid,
				 r->state == ST_NONE ? 0 : state_str(c, s, r->state), r->prio);
	}
	running = intern_c(c, "Running");
	runnable = intern_c(c, "R");
	for (size_t i = 0; i < s->states.n; i++) {
		const strow *r = &s->states.v[i];

		int64_t row = tt_storage_thread_state(c->st, r->ts, r->dur, r->cpu, r->utid,
						      r->state == ST_RUNNING ? running :
						      r->state == ST_WOKEN ? runnable : state_str(c, s, r->state));

		if (row < 0)
			continue;
		if (i == 0)
			base = row;
		if (r->io_wait >= 0 || r->blocked)
			tt_storage_thread_state_blocked(c->st, row, r->io_wait >= 0 ? r->io_wait : TT_TS_NONE,
							r->blocked);
		if (r->waker_utid != TT_NONE || r->irq >= 0)
			tt_storage_thread_state_waker(c->st, row, r->waker_utid,
						      r->waker_id == NO_ROW ? TT_NONE : (uint32_t)(base + r->waker_id),
						      r->irq);
	}
	for (size_t i = 0; i < s->spurious.n; i++) {
		const spurious *w = &s->spurious.v[i];

		tt_storage_spurious_wakeup(c->st, w->ts, (uint32_t)(base + w->state), w->irq, w->utid, w->waker_utid);
	}
}

void tt_proto_sched_free(pctx *c)
{
	if (!c->sst)
		return;
	TT_VEC_FREE(c->sst->slices);
	TT_VEC_FREE(c->sst->states);
	TT_VEC_FREE(c->sst->spurious);
	TT_VEC_FREE(c->sst->cpus);
	TT_VEC_FREE(c->sst->last_state);
	TT_VEC_FREE(c->sst->last_blocked);
	free(c->sst);
	c->sst = NULL;
}
