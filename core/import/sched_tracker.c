/*
 * sched_tracker.c - sched_slice and thread_state rows (see
 * sched_tracker.h).
 */
#include "sched_tracker.h"
#include "task_state.h"

#include "vec.h"

#include <stdlib.h>
#include <string.h>

#define NO_ROW UINT32_MAX
#define ST_RUNNING INT64_MIN      /* thread_state: on a cpu */
#define ST_NONE (INT64_MIN + 1)   /* sched_slice: still open, no end state */
#define ST_WOKEN (INT64_MIN + 2)  /* thread_state: runnable after a waking or a new task ("R") */

typedef struct srow {              /* a sched_slice row */
	int64_t ts, dur, state;       /* state: raw prev_state or ST_NONE; with text a tt_str (0: NULL) */
	uint32_t utid;
	int32_t cpu;
	int32_t prio;
	int8_t text;                  /* state is text (generic kernel states) */
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
	int8_t text;                  /* state is a tt_str (0: NULL), not raw (generic kernel states) */
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

struct tt_sched_tracker {
	tt_import *im;
	tt_storage *st;
	TT_VEC(srow) slices;
	TT_VEC(strow) states;
	TT_VEC(spurious) spurious;
	TT_VEC(scpu) cpus;
	TT_VEC(uint32_t) last_state;  /* utid -> its newest thread_state row + 1 (0: none) */
	TT_VEC(uint32_t) last_blocked; /* utid -> its blocked state row + 1 while it has not run since */
	int kv_major, kv_minor;       /* kernel version, 0.0: unknown (read as 4.4) */
	tt_str running, runnable;     /* "Running", "R": text states that are ST_RUNNING, ST_WOKEN */
	int oom;
};

tt_sched_tracker *tt_sched_tracker_new(tt_import *im)
{
	tt_sched_tracker *s = calloc(1, sizeof(*s));

	if (s) {
		s->im = im;
		s->st = im->st;
	}
	return s;
}

void tt_sched_tracker_free(tt_sched_tracker *s)
{
	if (!s)
		return;
	TT_VEC_FREE(s->slices);
	TT_VEC_FREE(s->states);
	TT_VEC_FREE(s->spurious);
	TT_VEC_FREE(s->cpus);
	TT_VEC_FREE(s->last_state);
	TT_VEC_FREE(s->last_blocked);
	free(s);
}

void tt_sched_tracker_kernel(tt_sched_tracker *s, int major, int minor)
{
	s->kv_major = major;
	s->kv_minor = minor;
}

int tt_sched_tracker_oom(const tt_sched_tracker *s)
{
	return s->oom;
}

static scpu *cpu_of(tt_sched_tracker *s, uint32_t cpu)
{
	scpu none = { NO_ROW, TT_NONE, 0, 0 };

	while (s->cpus.n <= cpu)
		if (TT_VEC_PUSH(s->cpus, none)) {
			s->oom = 1;
			return NULL;
		}
	return &s->cpus.v[cpu];
}

static strow *last_state(tt_sched_tracker *s, uint32_t utid)
{
	if (utid >= s->last_state.n || !s->last_state.v[utid])
		return NULL;
	return &s->states.v[s->last_state.v[utid] - 1];
}

static int is_blocked(const tt_sched_tracker *s, int64_t state, int text);
static int64_t task_flags(const tt_sched_tracker *s, int64_t raw);

/* A thread's state from ts on, open (the swapper has none); a blocked
 * one is the thread's last blocked state until it runs again. A woken
 * one names its waker (TT_NONE: none), and the waker's state when it is
 * running (at a trace's start or after lost data it may not be). */
static void open_state(tt_sched_tracker *s, int64_t ts, uint32_t utid, int64_t state, int text, int32_t cpu,
		       uint32_t waker, int irq)
{
	strow r = { ts, -1, state, utid, cpu, waker, NO_ROW, 0, -1, (int8_t)irq, (int8_t)text };
	const strow *w;

	if (utid == 0 || utid == TT_NONE)
		return;
	if (waker != TT_NONE && (w = last_state(s, waker)) && w->state == ST_RUNNING)
		r.waker_id = s->last_state.v[waker] - 1;
	if (TT_VEC_PUSH(s->states, r)) {
		s->oom = 1;
		return;
	}
	while (s->last_state.n <= utid)
		if (TT_VEC_PUSH(s->last_state, 0) || TT_VEC_PUSH(s->last_blocked, 0)) {
			s->oom = 1;
			return;
		}
	s->last_state.v[utid] = (uint32_t)s->states.n;
	if (state == ST_RUNNING)
		s->last_blocked.v[utid] = 0;
	else if (is_blocked(s, state, text))
		s->last_blocked.v[utid] = (uint32_t)s->states.n;
}

void tt_sched_tracker_blocked(tt_sched_tracker *s, uint32_t utid, int64_t io_wait, tt_str function)
{
	strow *r;

	if (utid >= s->last_blocked.n || !s->last_blocked.v[utid])
		return;
	r = &s->states.v[s->last_blocked.v[utid] - 1];
	r->io_wait = (int8_t)(io_wait != 0);
	if (function)
		r->blocked = function;
}

/* Ends the thread's newest state at ts, unless data was lost (its end is
 * not known then: it stays open). */
static void close_state(tt_sched_tracker *s, int64_t ts, uint32_t utid, int lost)
{
	strow *r = last_state(s, utid);

	if (r && !lost)
		r->dur = ts - r->ts;
}

/* One switch on cpu at ts from prev (prev_state) to next. A thread
 * switched out that was not running lost data: its state before stays
 * open. */
static void switch_states(tt_sched_tracker *s, int64_t ts, uint32_t cpu, int64_t prev_state, uint32_t prev,
			  uint32_t next)
{
	strow *p = last_state(s, prev);

	close_state(s, ts, prev, p && p->state != ST_RUNNING);
	open_state(s, ts, prev, prev_state, 0, -1, TT_NONE, -1);
	/* (a forced migration can run a thread on two cpus at once: its
	 * state before is cut here, whatever it was) */
	close_state(s, ts, next, 0);
	open_state(s, ts, next, ST_RUNNING, 0, (int32_t)cpu, TT_NONE, -1);
}

int tt_sched_tracker_switch(tt_sched_tracker *s, int64_t ts, uint32_t cpu_id, int full, int64_t prev_pid,
			    uint32_t prev, int64_t prev_state, int64_t next_pid, uint32_t next, int32_t next_prio)
{
	scpu *cpu = cpu_of(s, cpu_id);
	srow slice = { ts, -1, ST_NONE, next, (int32_t)cpu_id, next_prio, 0 };

	if (!cpu)
		return -1;
	/* (a prev_state the kernel cannot have written is counted where
	 * trace processor decodes it: not for a cpu's first compact switch) */
	if ((full || cpu->last_utid != TT_NONE) && task_flags(s, prev_state) < 0)
		tt_storage_stat_add(s->st, TT_STAT_task_state_invalid, 1);
	if (full) {
		if (cpu->slice != NO_ROW) {
			if (prev_pid == cpu->last_pid) {
				s->slices.v[cpu->slice].dur = ts - s->slices.v[cpu->slice].ts;
				s->slices.v[cpu->slice].state = prev_state;
			} else {
				tt_storage_stat_add(s->st, TT_STAT_mismatched_sched_switch_tids, 1);
			}
		}
	} else {
		if (cpu->last_utid == TT_NONE) {
			/* the cpu's first compact switch: no prev fields */
			tt_storage_stat_add(s->st, TT_STAT_compact_sched_switch_skipped, 1);
			cpu->last_utid = next;
			cpu->last_pid = next_pid;
			cpu->last_prio = next_prio;
			return 1;
		}
		if (cpu->slice != NO_ROW) {
			s->slices.v[cpu->slice].dur = ts - s->slices.v[cpu->slice].ts;
			s->slices.v[cpu->slice].state = prev_state;
		}
		prev = cpu->last_utid;
	}
	cpu->last_utid = next;
	cpu->last_pid = next_pid;
	cpu->last_prio = next_prio;
	if (TT_VEC_PUSH(s->slices, slice)) {
		s->oom = 1;
		return -1;
	}
	cpu->slice = (uint32_t)(s->slices.n - 1);
	switch_states(s, ts, cpu_id, prev_state, prev, next);
	return s->oom ? -1 : 0;
}

int tt_sched_tracker_running(tt_sched_tracker *s, uint32_t cpu_id, uint32_t *utid, int64_t *pid, int32_t *prio)
{
	scpu *cpu = cpu_of(s, cpu_id);

	if (!cpu || cpu->last_utid == TT_NONE)
		return -1;
	*utid = cpu->last_utid;
	*pid = cpu->last_pid;
	*prio = cpu->last_prio;
	return 0;
}

void tt_sched_tracker_raw_switch(tt_sched_tracker *s, int64_t ts, uint32_t cpu, uint32_t prev_utid,
				 tt_str prev_comm, int64_t prev_pid, int32_t prev_prio, int64_t prev_state,
				 tt_str next_comm, int64_t next_pid, int32_t next_prio)
{
	tt_storage *st = s->st;
	const char *pc = tt_storage_str(st, prev_comm), *nc = tt_storage_str(st, next_comm);

	tt_storage_args_begin(st);
	tt_storage_args_str(st, "prev_comm", pc ? pc : "", pc ? strlen(pc) : 0);
	tt_storage_args_int(st, "prev_pid", prev_pid);
	tt_storage_args_int(st, "prev_prio", prev_prio);
	tt_storage_args_int(st, "prev_state", prev_state);
	tt_storage_args_str(st, "next_comm", nc ? nc : "", nc ? strlen(nc) : 0);
	tt_storage_args_int(st, "next_pid", next_pid);
	tt_storage_args_int(st, "next_prio", next_prio);
	tt_storage_raw(st, ts, tt_storage_intern_cstr(st, "sched_switch"), cpu, prev_utid,
		       tt_args_tracker_end(s->im->args));
}

static int64_t task_flags(const tt_sched_tracker *s, int64_t raw)
{
	return tt_task_state_flags(raw, s->kv_major, s->kv_minor);
}

/* trace processor's IsBlocked: a state neither Running nor exactly "R"
 * (an invalid one, NULL, counts as blocked; "R+" too). */
static int is_blocked(const tt_sched_tracker *s, int64_t state, int text)
{
	if (text) /* (Running and R are never text: make_text) */
		return 1;
	if (state == ST_RUNNING || state == ST_WOKEN)
		return 0;
	return task_flags(s, state) != 0;
}

/* Its letters (runnable: R, R+ preempted), 0 for an invalid state. */
static tt_str state_str(const tt_sched_tracker *s, int64_t raw)
{
	char b[TT_TASK_STATE_MAX];
	int n = tt_task_state_text(raw, s->kv_major, s->kv_minor, 0, b);

	return n < 0 ? 0 : tt_storage_intern(s->st, b, (size_t)n);
}

void tt_sched_tracker_new_task(tt_sched_tracker *s, int64_t ts, uint32_t utid, uint32_t parent)
{
	/* runnable from its creation (trace processor's PushNewTaskEvent:
	 * nothing closed), woken by its parent, not from an interrupt */
	open_state(s, ts, utid, ST_WOKEN, 0, -1, parent, 0);
}

void tt_sched_tracker_waking(tt_sched_tracker *s, int64_t ts, uint32_t utid, uint32_t waker_utid, int irq)
{
	strow *last = last_state(s, utid);

	if (last && !is_blocked(s, last->state, last->text)) {
		/* already running or runnable: a spurious waking */
		spurious w = { ts, s->last_state.v[utid] - 1, utid, waker_utid, (int8_t)irq };

		if (TT_VEC_PUSH(s->spurious, w))
			s->oom = 1;
		return;
	}
	close_state(s, ts, utid, 0);
	open_state(s, ts, utid, ST_WOKEN, 0, -1, waker_utid, irq);
}

/* "Running" and "R", interned once: the text of ST_RUNNING and ST_WOKEN. */
static void names(tt_sched_tracker *s)
{
	if (!s->running) {
		s->running = tt_storage_intern_cstr(s->st, "Running");
		s->runnable = tt_storage_intern_cstr(s->st, "R");
	}
}

/* A thread_state row's state as text (0: NULL). */
static tt_str row_state(tt_sched_tracker *s, int64_t state, int text)
{
	if (text)
		return (tt_str)state;
	names(s);
	return state == ST_RUNNING ? s->running : state == ST_WOKEN ? s->runnable : state_str(s, state);
}

void tt_sched_tracker_build(tt_sched_tracker *s)
{
	int64_t base = 0;             /* the storage row of states.v[0] */

	for (size_t i = 0; i < s->slices.n; i++) {
		const srow *r = &s->slices.v[i];

		tt_storage_sched(s->st, r->ts, r->dur, r->cpu, r->utid,
				 r->text ? (tt_str)r->state : r->state == ST_NONE ? 0 : state_str(s, r->state), r->prio);
	}
	for (size_t i = 0; i < s->states.n; i++) {
		const strow *r = &s->states.v[i];
		int64_t row = tt_storage_thread_state(s->st, r->ts, r->dur, r->cpu, r->utid,
						      row_state(s, r->state, r->text));

		if (row < 0)
			continue;
		if (i == 0)
			base = row;
		if (r->io_wait >= 0 || r->blocked)
			tt_storage_thread_state_blocked(s->st, row, r->io_wait >= 0 ? r->io_wait : TT_TS_NONE,
							r->blocked);
		if (r->waker_utid != TT_NONE || r->irq >= 0)
			tt_storage_thread_state_waker(s->st, row, r->waker_utid,
						      r->waker_id == NO_ROW ? TT_NONE : (uint32_t)(base + r->waker_id),
						      r->irq);
	}
	for (size_t i = 0; i < s->spurious.n; i++) {
		const spurious *w = &s->spurious.v[i];

		tt_storage_spurious_wakeup(s->st, w->ts, (uint32_t)(base + w->state), w->irq, w->utid, w->waker_utid);
	}
}

/* ---- states given as text (generic kernel task states) ------------------ */

/* "Running" and "R" are the states ST_RUNNING and ST_WOKEN stand for, so
 * that switches, wakings and these states read each other's rows alike;
 * any other text is kept as it is. */
static void make_text(tt_sched_tracker *s, tt_str state, int64_t *v, int *text)
{
	names(s);
	*text = state != s->running && state != s->runnable;
	*v = state == s->running ? ST_RUNNING : state == s->runnable ? ST_WOKEN : (int64_t)state;
}

uint32_t tt_sched_tracker_slice_open(tt_sched_tracker *s, int64_t ts, uint32_t cpu, uint32_t utid, int32_t prio)
{
	srow slice = { ts, -1, ST_NONE, utid, (int32_t)cpu, prio, 0 };

	if (s->slices.n >= NO_ROW || TT_VEC_PUSH(s->slices, slice)) {
		s->oom = 1;
		return NO_ROW;
	}
	return (uint32_t)(s->slices.n - 1);
}

void tt_sched_tracker_slice_close(tt_sched_tracker *s, uint32_t slice, int64_t ts, tt_str end_state)
{
	if (slice >= s->slices.n)
		return;
	s->slices.v[slice].dur = ts - s->slices.v[slice].ts;
	tt_sched_tracker_slice_set_end_state(s, slice, end_state);
}

int64_t tt_sched_tracker_slice_end(const tt_sched_tracker *s, uint32_t slice)
{
	if (slice >= s->slices.n || s->slices.v[slice].dur < 0)
		return -1;
	return s->slices.v[slice].ts + s->slices.v[slice].dur;
}

void tt_sched_tracker_slice_set_end_state(tt_sched_tracker *s, uint32_t slice, tt_str end_state)
{
	if (slice >= s->slices.n)
		return;
	s->slices.v[slice].state = (int64_t)end_state;
	s->slices.v[slice].text = 1;
}

int tt_sched_tracker_push_state(tt_sched_tracker *s, int64_t ts, uint32_t utid, tt_str state, int32_t cpu)
{
	const strow *last = last_state(s, utid);
	int same_ts = last && last->ts == ts, text;
	int64_t v;

	close_state(s, ts, utid, 0);
	make_text(s, state, &v, &text);
	open_state(s, ts, utid, v, text, cpu, TT_NONE, -1);
	return same_ts;
}

void tt_sched_tracker_set_state(tt_sched_tracker *s, uint32_t utid, tt_str state)
{
	strow *last = last_state(s, utid);
	int text;

	if (!last)
		return;
	make_text(s, state, &last->state, &text);
	last->text = (int8_t)text;
}

tt_str tt_sched_tracker_last_state(tt_sched_tracker *s, uint32_t utid)
{
	const strow *last = last_state(s, utid);

	return last ? row_state(s, last->state, last->text) : 0;
}

/* trace processor's TaskState from text (FromSystrace), then as a 4.4
 * kernel's raw state (ToRawStateOnlyForSystraceConversions): "R" (and
 * anything else starting with R) runnable, exactly "R+" preempted; else
 * letters, '|' between them ignored; an empty or unknown one invalid. */
int64_t tt_sched_state_from_text(const char *s, size_t n)
{
	static const struct { char c; uint16_t raw; } letters[] = {
		{ 'S', 0x1 }, { 'D', 0x2 }, { 'T', 0x4 }, { 't', 0x8 }, { 'X', 0x10 }, { 'Z', 0x20 },
		{ 'x', 0x40 }, { 'K', 0x80 }, { 'W', 0x100 }, { 'P', 0x200 }, { 'N', 0x400 }, { 'I', 0x2 | 0x400 },
	};
	int64_t raw = 0;

	if (n == 0)
		return 0xffff;
	if (s[0] == 'R')
		return n == 2 && s[1] == '+' ? 0x800 : 0;
	for (size_t i = 0; i < n; i++) {
		size_t k;

		if (s[i] == '|')
			continue;
		for (k = 0; k < sizeof(letters) / sizeof(letters[0]) && letters[k].c != s[i]; k++)
			;
		if (k == sizeof(letters) / sizeof(letters[0]))
			return 0xffff;
		raw |= letters[k].raw;
	}
	return raw;
}
