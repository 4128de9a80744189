/*
 * systrace.c - ftrace text lines into the trackers (see systrace.h).
 */
#include "systrace.h"

#include "atrace.h"
#include "atrace_tracker.h"
#include "binder_tracker.h"
#include "memory_tracker.h"
#include "sched_tracker.h"
#include "systrace_line.h"
#include "vec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A line kept between reading and parsing: its columns as offsets from
 * its first byte (in a text the reader owns). */
struct sline {
	int64_t ts;
	const char *text;
	uint32_t pid, cpu;
	uint32_t task, task_len, tgid, tgid_len, event, event_len, args, args_len; /* from text */
};

struct tt_systrace {
	tt_import *im;
	tt_storage *st;
	tt_atrace_tracker *atrace;
	tt_sched_tracker *sched;
	TT_VEC(struct sline) lines;
	TT_VEC(char *) texts;    /* what the lines point into, freed at the end */
	const char *own;         /* the text given last (tt_systrace_own) */
	tt_memory_tracker *memory; /* rss_stat */
	tt_binder_tracker *binder; /* binder lines, made at the first */
	size_t own_len;
	tt_str s_workqueue, s_unknown_task;
};

/* ---- threads as ftrace names them, on the import's process tracker -------- */

static uint32_t task_thread(void *ctx, int64_t tid)
{
	tt_systrace *s = ctx;
	uint32_t utid = tt_process_tracker_thread_by_tid(s->im->procs, tid);

	return utid != TT_NONE ? utid : tt_process_tracker_thread_new(s->im->procs, -1, tid);
}

static uint32_t task_thread_or_none(void *ctx, int64_t tid)
{
	tt_systrace *s = ctx;

	return tt_process_tracker_thread_by_tid(s->im->procs, tid);
}

static uint32_t task_process(void *ctx, int64_t pid)
{
	tt_systrace *s = ctx;

	return tt_process_tracker_process(s->im->procs, pid);
}

/* trace processor's UpdateThread(tid, pid): the tid's thread when it has
 * no process yet (now bound to pid's) or pid's, else the thread (pid,
 * tid). */
static uint32_t task_thread_in(void *ctx, int64_t pid, int64_t tid)
{
	tt_systrace *s = ctx;
	uint32_t upid = tt_process_tracker_process(s->im->procs, pid);
	uint32_t utid = tt_process_tracker_thread_by_tid(s->im->procs, tid);

	if (utid != TT_NONE) {
		uint32_t cur = tt_storage_thread_upid(s->st, utid);

		if (cur == upid)
			return utid;
		if (cur == TT_NONE) {
			tt_process_tracker_thread_set_pid(s->im->procs, utid, pid);
			return utid;
		}
	}
	return tt_process_tracker_thread(s->im->procs, pid, tid);
}

tt_systrace *tt_systrace_new(tt_import *im)
{
	tt_systrace *s = calloc(1, sizeof(*s));
	tt_task_lookup k = { NULL, task_thread, task_thread_in, task_thread_or_none, task_process };

	if (!s)
		return NULL;
	s->im = im;
	s->st = im->st;
	k.ctx = s;
	s->atrace = tt_atrace_tracker_new(im, &k);
	s->sched = tt_sched_tracker_new(im);
	s->memory = tt_memory_tracker_new(im);
	if (!s->atrace || !s->sched || !s->memory) {
		tt_systrace_free(s);
		return NULL;
	}
	return s;
}

void tt_systrace_free(tt_systrace *s)
{
	if (!s)
		return;
	tt_atrace_tracker_free(s->atrace);
	tt_sched_tracker_free(s->sched);
	for (size_t i = 0; i < s->texts.n; i++)
		free(s->texts.v[i]);
	TT_VEC_FREE(s->texts);
	TT_VEC_FREE(s->lines);
	tt_memory_tracker_free(s->memory);
	tt_binder_tracker_free(s->binder);
	free(s);
}

size_t tt_systrace_lines(const tt_systrace *s)
{
	return s->lines.n;
}

int tt_systrace_dump_process(tt_systrace *s, int64_t pid, int64_t ppid, const char *name, size_t len)
{
	uint32_t parent = tt_process_tracker_process(s->im->procs, ppid);
	uint32_t upid = tt_process_tracker_process(s->im->procs, pid);

	if (parent == TT_NONE || upid == TT_NONE)
		return -1;
	tt_storage_process_set_parent(s->st, upid, parent);
	tt_storage_process_set_name(s->st, upid, tt_storage_intern(s->st, name, len));
	tt_storage_process_set_cmdline(s->st, upid, tt_storage_intern(s->st, "", 0));
	return 0;
}

int tt_systrace_dump_thread(tt_systrace *s, int64_t tgid, int64_t tid, const char *name, size_t len)
{
	uint32_t utid = task_thread_in(s, tgid, tid);

	if (utid == TT_NONE)
		return -1;
	tt_process_tracker_thread_name(s->im->procs, utid, tt_storage_intern(s->st, name, len), TT_TN_OTHER);
	return 0;
}

/* ---- reading ------------------------------------------------------------------ */

int tt_systrace_own(tt_systrace *s, char *text, size_t len)
{
	if (TT_VEC_PUSH(s->texts, text))
		return -1;
	s->own = text;
	s->own_len = len;
	return 0;
}

int tt_systrace_add(tt_systrace *s, const char *line, size_t len, int64_t *ts, uint32_t *idx)
{
	tt_systrace_line l;
	struct sline k;
	const char *text = line;

	if (len == 0 || line[0] == '#')
		return TT_SYSTRACE_SKIPPED;
	if (tt_systrace_line_read(line, len, &l))
		return TT_SYSTRACE_BAD;
	if (len > UINT32_MAX || s->lines.n >= UINT32_MAX)
		return TT_SYSTRACE_OOM;
	if (!s->own || line < s->own || line + len > s->own + s->own_len) {
		/* (a line of no text given: a copy of its own) */
		char *copy = malloc(len + 1);

		if (!copy || TT_VEC_PUSH(s->texts, copy)) {
			free(copy);
			return TT_SYSTRACE_OOM;
		}
		memcpy(copy, line, len);
		copy[len] = '\0';
		text = copy;
	}
	k = (struct sline){ .ts = l.ts, .text = text, .pid = l.pid, .cpu = l.cpu,
			    .task = (uint32_t)(l.task - line), .task_len = (uint32_t)l.task_len,
			    .tgid = (uint32_t)(l.tgid - line), .tgid_len = (uint32_t)l.tgid_len,
			    .event = (uint32_t)(l.event - line), .event_len = (uint32_t)l.event_len,
			    .args = (uint32_t)(l.args - line), .args_len = (uint32_t)l.args_len };
	if (TT_VEC_PUSH(s->lines, k))
		return TT_SYSTRACE_OOM;
	*ts = l.ts;
	*idx = (uint32_t)(s->lines.n - 1);
	return TT_SYSTRACE_KEPT;
}

/* ---- the event's fields ----------------------------------------------------- */

/* The args column as trace processor's parser reads it: words split at
 * single spaces (empty words dropped), a word "key=value" (its first and
 * last '='-separated pieces; "key" alone when it has one) or, without
 * '=', the value of "name"; a key's first word wins. */
typedef struct field {
	const char *v;
	size_t n;
} field;

static int arg_of(const char *args, size_t len, const char *key, field *out)
{
	size_t klen = strlen(key), i = 0;

	while (i < len) {
		size_t w = i, e, k0, k1, v0, v1;
		const char *eq;

		while (w < len && args[w] != ' ')
			w++;
		if (w == i) {
			i++;
			continue;
		}
		eq = memchr(args + i, '=', w - i);
		if (!eq) {
			k0 = 0, k1 = 0, v0 = i, v1 = w;
			if (klen == 4 && memcmp(key, "name", 4) == 0) {
				out->v = args + v0;
				out->n = v1 - v0;
				return 0;
			}
		} else {
			/* the pieces between '='s, empty ones dropped */
			for (k0 = i; k0 < w && args[k0] == '='; k0++)
				;
			for (k1 = k0; k1 < w && args[k1] != '='; k1++)
				;
			for (e = w; e > k1 && args[e - 1] == '='; e--)
				;
			for (v0 = e; v0 > k1 && args[v0 - 1] != '='; v0--)
				;
			v1 = e;
			if (v0 <= k1)
				v0 = v1 = k1; /* one piece: a key, no value */
			if (k1 > k0 && k1 - k0 == klen && memcmp(args + k0, key, klen) == 0) {
				out->v = args + v0;
				out->n = v1 - v0;
				return 0;
			}
		}
		i = w + 1;
	}
	out->v = "";
	out->n = 0;
	return -1;
}

/* As trace processor's StringToUInt32 / StringToInt32 / StringToInt64 /
 * StringToDouble: the whole text, not empty (strtoul and strtol cut to
 * 32 bits). kind: 'u' 'i' 'l' 'd', 'x' (StringToUInt32 base 0: 0x for
 * hex), 'U' (StringToUInt64). */
static int num_of(const field *f, int kind, void *out)
{
	char b[64], *heap = NULL, *end;
	char *t = b;
	int ok;

	if (f->n >= sizeof(b) && !(t = heap = malloc(f->n + 1)))
		return -1; /* (a number of that many digits: memory to read it) */
	memcpy(t, f->v, f->n);
	t[f->n] = '\0';
	switch (kind) {
	case 'u':
		*(uint32_t *)out = (uint32_t)strtoul(t, &end, 10);
		break;
	case 'i':
		*(int32_t *)out = (int32_t)strtol(t, &end, 10);
		break;
	case 'l':
		*(int64_t *)out = (int64_t)strtoll(t, &end, 10);
		break;
	case 'x':
		*(uint32_t *)out = (uint32_t)strtoul(t, &end, 0);
		break;
	case 'U':
		*(uint64_t *)out = (uint64_t)strtoull(t, &end, 10);
		break;
	default:
		*(double *)out = strtod(t, &end);
		break;
	}
	ok = *t && !*end;
	free(heap);
	return ok ? 0 : -1;
}

static int u32_of(const field *f, uint32_t *out)
{
	return num_of(f, 'u', out);
}

static int i32_of(const field *f, int32_t *out)
{
	return num_of(f, 'i', out);
}

static int i64_of(const field *f, int64_t *out)
{
	return num_of(f, 'l', out);
}

static int dbl_of(const field *f, double *out)
{
	return num_of(f, 'd', out);
}

/* ---- parsing ------------------------------------------------------------------ */

/* A counter track of trace processor's cpu blueprints (dimension cpu). */
static void cpu_counter(tt_systrace *s, int64_t ts, const char *type, uint64_t key, const char *name, uint32_t cpu,
			double v)
{
	uint32_t t = tt_import_cpu_counter_track(s->im, type, key, name, cpu);

	if (t != TT_NONE)
		tt_storage_counter(s->st, t, ts, v);
}

/* A counter track of a blueprint with one string dimension, named
 * "<value><suffix>" (clocks, thermal zones, cooling devices). */
static uint32_t named_counter(tt_systrace *s, const char *type, const char *dim, const field *val,
			      const char *suffix)
{
	return tt_import_device_counter_track(s->im, type, dim, val->v, val->n, suffix);
}

static void cpu_event(tt_systrace *s, const struct sline *l, const char *ev, const char *args)
{
	field f;
	uint32_t cpu;
	double v, lo, hi;
	int has_lo, has_hi;

	arg_of(args, l->args_len, "cpu_id", &f);
	if (u32_of(&f, &cpu))
		return;
	if (strcmp(ev, "cpu_frequency_limits") != 0) {
		arg_of(args, l->args_len, "state", &f);
		if (dbl_of(&f, &v))
			return;
		if (strcmp(ev, "cpu_frequency") == 0)
			cpu_counter(s, l->ts, "cpu_frequency", 0, "cpufreq", cpu, v);
		else
			cpu_counter(s, l->ts, "cpu_idle", 1, "cpuidle", cpu, v);
		return;
	}
	/* max / min, or max_freq / min_freq when those are not given */
	if (arg_of(args, l->args_len, "max", &f))
		arg_of(args, l->args_len, "max_freq", &f);
	has_hi = dbl_of(&f, &hi) == 0;
	if (arg_of(args, l->args_len, "min", &f))
		arg_of(args, l->args_len, "min_freq", &f);
	has_lo = dbl_of(&f, &lo) == 0;
	if (has_hi) {
		char n[64];

		snprintf(n, sizeof(n), "Cpu %u Max Freq Limit", cpu);
		cpu_counter(s, l->ts, "cpu_max_frequency_limit", 2, n, cpu, hi);
	}
	if (has_lo) {
		char n[64];

		snprintf(n, sizeof(n), "Cpu %u Min Freq Limit", cpu);
		cpu_counter(s, l->ts, "cpu_min_frequency_limit", 3, n, cpu, lo);
	}
}

/* clock_set_rate / clock_enable / clock_disable, thermal_temperature,
 * cdev_update: one value on a track named by a field. */
static void device_counter(tt_systrace *s, const struct sline *l, const char *ev, const char *args)
{
	field name, f;
	uint32_t rate;
	int32_t temp;
	double v;
	uint32_t t;

	if (strcmp(ev, "thermal_temperature") == 0) {
		/* (the track comes before the value is read, as there) */
		arg_of(args, l->args_len, "thermal_zone", &name);
		t = named_counter(s, "thermal_temperature", "thermal_zone", &name, " Temperature");
		arg_of(args, l->args_len, "temp", &f);
		if (i32_of(&f, &temp) == 0 && t != TT_NONE)
			tt_storage_counter(s->st, t, l->ts, temp);
		return;
	}
	if (strcmp(ev, "cdev_update") == 0) {
		arg_of(args, l->args_len, "type", &name);
		t = named_counter(s, "cooling_device_counter", "linux_device", &name, " Cooling Device");
		arg_of(args, l->args_len, "target", &f);
		if (dbl_of(&f, &v) == 0 && t != TT_NONE)
			tt_storage_counter(s->st, t, l->ts, v);
		return;
	}
	arg_of(args, l->args_len, "state", &f);
	if (u32_of(&f, &rate))
		return;
	arg_of(args, l->args_len, "name", &name);
	if (strcmp(ev, "clock_set_rate") == 0)
		t = named_counter(s, "clock_frequency", "linux_device", &name, " Frequency");
	else
		t = named_counter(s, "clock_state", "linux_device", &name, " State");
	if (t != TT_NONE)
		tt_storage_counter(s->st, t, l->ts, rate);
}

/* workqueue_execute_start: a "workqueue" slice named by what follows
 * "function " (the args' second piece split at it; none: nothing). */
static void workqueue_start(tt_systrace *s, const struct sline *l, uint32_t utid, const char *args)
{
	const char *key = "function ";
	size_t kl = strlen(key), i = 0, n = l->args_len, pieces = 0;

	while (i < n) {
		const char *hit = NULL;
		size_t j, end;

		for (j = i; j + kl <= n; j++)
			if (memcmp(args + j, key, kl) == 0) {
				hit = args + j;
				break;
			}
		end = hit ? (size_t)(hit - args) : n;
		if (end > i && ++pieces == 2) {
			uint32_t track = tt_track_tracker_thread(s->im->tracks, utid);
			tt_str name = tt_storage_intern(s->st, args + i, end - i);

			if (track != TT_NONE)
				tt_slice_tracker_begin(s->im->slices, track, l->ts, s->s_workqueue, name, TT_NONE);
			return;
		}
		i = end + kl;
	}
}

/* A field as text interned (empty: 0, as trace processor's empty string
 * is its null one). */
static tt_str str_of(tt_systrace *s, const field *f)
{
	return f->n ? tt_storage_intern(s->st, f->v, f->n) : 0;
}

/* sched_switch: trace processor's PushSchedSwitch (prev_state given as
 * letters); every number must convert. */
static int sched_switch(tt_systrace *s, const struct sline *l, const char *args)
{
	field ps, pc, pp, ppr, np, nc, npr;
	uint32_t prev_pid, next_pid, prev, next;
	int32_t prev_prio, next_prio;
	int64_t state;
	tt_str prev_comm, next_comm;

	arg_of(args, l->args_len, "prev_state", &ps);
	arg_of(args, l->args_len, "prev_pid", &pp);
	arg_of(args, l->args_len, "prev_comm", &pc);
	arg_of(args, l->args_len, "prev_prio", &ppr);
	arg_of(args, l->args_len, "next_pid", &np);
	arg_of(args, l->args_len, "next_comm", &nc);
	arg_of(args, l->args_len, "next_prio", &npr);
	if (u32_of(&pp, &prev_pid) || i32_of(&ppr, &prev_prio) || u32_of(&np, &next_pid) || i32_of(&npr, &next_prio))
		return 0;
	if (l->cpu >= 1024) {
		/* (a cpu's state is kept by its number: the Perfetto importer
		 * refuses such cpus too) */
		tt_storage_stat_add(s->st, TT_STAT_systrace_cpu_bad, 1);
		return 0;
	}
	state = tt_sched_state_from_text(ps.v, ps.n);
	next_comm = str_of(s, &nc);
	next = task_thread(s, next_pid);
	if (next != TT_NONE && next_comm)
		tt_process_tracker_thread_name(s->im->procs, next, next_comm, TT_TN_FTRACE);
	/* (named again: a thread may rename itself while it runs) */
	prev_comm = str_of(s, &pc);
	prev = task_thread(s, prev_pid);
	if (prev != TT_NONE && prev_comm)
		tt_process_tracker_thread_name(s->im->procs, prev, prev_comm, TT_TN_FTRACE);
	tt_sched_tracker_raw_switch(s->sched, l->ts, l->cpu, prev, prev_comm, prev_pid, prev_prio, state, next_comm,
				    next_pid, next_prio);
	return tt_sched_tracker_switch(s->sched, l->ts, l->cpu, 1, prev_pid, prev, state, next_pid, next, next_prio) < 0
		       ? -1 : 0;
}

/* sched_waking: the wakee (named by its comm) made runnable, woken by
 * the line's thread. sched_blocked_reason: the thread's last blocked
 * state waited on io or not, in caller. */
static void sched_wake(tt_systrace *s, const struct sline *l, const char *ev, uint32_t utid, const char *args)
{
	field f, g;
	uint32_t pid, wakee;
	int32_t io_wait;

	arg_of(args, l->args_len, "pid", &f);
	if (strcmp(ev, "sched_waking") == 0) {
		arg_of(args, l->args_len, "comm", &g);
		if (u32_of(&f, &pid))
			return;
		wakee = task_thread(s, pid);
		if (wakee != TT_NONE && g.n)
			tt_process_tracker_thread_name(s->im->procs, wakee, str_of(s, &g), TT_TN_FTRACE);
		tt_sched_tracker_waking(s->sched, l->ts, wakee, utid, -1);
		return;
	}
	if (u32_of(&f, &pid))
		return;
	wakee = task_thread(s, pid);
	arg_of(args, l->args_len, "iowait", &g);
	if (i32_of(&g, &io_wait))
		return;
	arg_of(args, l->args_len, "caller", &f);
	tt_sched_tracker_blocked(s->sched, wakee, io_wait != 0, str_of(s, &f));
}

/* rss_stat: a process memory counter of the writing thread's process
 * (memory_tracker.h). trace processor reads this text's curr field so
 * that the mm_id never decides (a curr given is dropped, one missing read
 * as unknown): the line's thread it is, as here. */
static int rss_stat(tt_systrace *s, const struct sline *l, const char *args)
{
	field f;
	int64_t size;
	uint32_t member;

	arg_of(args, l->args_len, "size", &f);
	if (i64_of(&f, &size))
		return 0;
	arg_of(args, l->args_len, "member", &f);
	if (u32_of(&f, &member))
		return 0;
	return tt_memory_tracker_rss(s->memory, l->ts, size < 0 ? TT_NONE : task_thread(s, l->pid), member, size);
}

/* The binder driver's lines, as trace processor's SystraceLineParser
 * reads them into its BinderTracker (binder_tracker.h): every number must
 * convert (flags are hex, read as far as they go; cmd in C's base); the
 * code as the line writes it. -1 out of memory. */
static int binder_line(tt_systrace *s, const struct sline *l, const char *ev, uint32_t utid, const char *args)
{
	field f;

	if (!s->binder && !(s->binder = tt_binder_tracker_new(s->im)))
		return -1;
	if (strcmp(ev, "binder_transaction") == 0) {
		static const char *const keys[] = { "transaction", "dest_node", "dest_proc", "dest_thread", "reply" };
		int32_t v[5];
		uint32_t dest_tid;
		char flags[32], code[64];

		for (int i = 0; i < 5; i++) {
			arg_of(args, l->args_len, keys[i], &f);
			if (i == 2 || i == 3 ? u32_of(&f, (uint32_t *)&v[i]) : i32_of(&f, &v[i]))
				return 0;
		}
		dest_tid = (uint32_t)v[3];
		arg_of(args, l->args_len, "flags", &f);
		snprintf(flags, sizeof(flags), "%.*s", (int)f.n, f.v);
		arg_of(args, l->args_len, "code", &f);
		snprintf(code, sizeof(code), "%.*s", (int)f.n, f.v);
		tt_binder_transaction(s->binder, l->ts, utid, l->pid, v[0], v[1], v[2], dest_tid,
				      v[4] == 1 ? task_thread(s, dest_tid) : TT_NONE, v[4] == 1,
				      (uint32_t)strtoul(flags, NULL, 16), code);
	} else if (strcmp(ev, "binder_transaction_received") == 0) {
		int32_t id;

		arg_of(args, l->args_len, "transaction", &f);
		if (i32_of(&f, &id) == 0)
			tt_binder_received(s->binder, l->ts, utid, l->pid, id);
	} else if (strcmp(ev, "binder_command") == 0 || strcmp(ev, "binder_return") == 0) {
		uint32_t cmd;

		arg_of(args, l->args_len, "cmd", &f);
		if (num_of(&f, 'x', &cmd))
			return 0;
		if (ev[7] == 'c')
			tt_binder_command(s->binder, utid, cmd);
		else
			tt_binder_return(s->binder, l->ts, utid, cmd);
	} else if (strcmp(ev, "binder_transaction_alloc_buf") == 0) {
		uint64_t data, offsets;

		arg_of(args, l->args_len, "data_size", &f);
		if (num_of(&f, 'U', &data))
			return 0;
		arg_of(args, l->args_len, "offsets_size", &f);
		if (num_of(&f, 'U', &offsets))
			return 0;
		tt_binder_alloc_buf(s->binder, utid, data, offsets);
	} else {
		tt_binder_lock(s->binder, l->ts, utid, l->pid,
			       strcmp(ev, "binder_lock") == 0 ? 0 : strcmp(ev, "binder_locked") == 0 ? 1 : 2);
	}
	return 0;
}

int tt_systrace_finish(tt_systrace *s)
{
	tt_memory_tracker_finish(s->memory);
	tt_sched_tracker_build(s->sched);
	return tt_sched_tracker_oom(s->sched) || tt_storage_oom(s->st) ? -1 : 0;
}

int tt_systrace_parse(tt_systrace *s, uint32_t idx)
{
	const struct sline *l = &s->lines.v[idx];
	const char *base = l->text;
	const char *args = base + l->args;
	char ev[64];
	uint32_t utid;
	tt_str task;

	if (!s->s_workqueue) {
		s->s_workqueue = tt_storage_intern_cstr(s->st, "workqueue");
		s->s_unknown_task = tt_storage_intern_cstr(s->st, "<...>");
	}
	/* the line's thread, named by its task (ftrace does not always know
	 * the name: "<...>" would overwrite a real one) */
	utid = task_thread(s, l->pid);
	task = tt_storage_intern(s->st, base + l->task, l->task_len);
	if (utid != TT_NONE && task && task != s->s_unknown_task)
		tt_process_tracker_thread_name(s->im->procs, utid, task, TT_TN_FTRACE);
	if (l->tgid_len && base[l->tgid] != '-') {
		field f = { base + l->tgid, l->tgid_len };
		uint32_t tgid;

		if (u32_of(&f, &tgid) == 0)
			task_thread_in(s, tgid, l->pid);
	}
	if (l->event_len >= sizeof(ev))
		return 0;
	memcpy(ev, base + l->event, l->event_len);
	ev[l->event_len] = '\0';
	if (strcmp(ev, "tracing_mark_write") == 0 || strcmp(ev, "print") == 0 || strcmp(ev, "0") == 0) {
		tt_atrace_mark m = { .ts = l->ts, .tid = l->pid };
		int rc = tt_atrace_tracker_read(s->st, args, l->args_len, &m);

		if (rc == -2)
			return -1;
		if (rc == TT_ATRACE_OK && tt_atrace_tracker_mark(s->atrace, &m))
			return -1;
	} else if (strcmp(ev, "sched_switch") == 0) {
		if (sched_switch(s, l, args))
			return -1;
	} else if (strcmp(ev, "sched_waking") == 0 || strcmp(ev, "sched_blocked_reason") == 0) {
		sched_wake(s, l, ev, utid, args);
	} else if (strncmp(ev, "cpu_", 4) == 0 &&
		   (strcmp(ev, "cpu_frequency") == 0 || strcmp(ev, "cpu_idle") == 0 ||
		    strcmp(ev, "cpu_frequency_limits") == 0)) {
		cpu_event(s, l, ev, args);
	} else if (strcmp(ev, "clock_set_rate") == 0 || strcmp(ev, "clock_enable") == 0 ||
		   strcmp(ev, "clock_disable") == 0 || strcmp(ev, "thermal_temperature") == 0 ||
		   strcmp(ev, "cdev_update") == 0) {
		device_counter(s, l, ev, args);
	} else if (strcmp(ev, "rss_stat") == 0) {
		if (rss_stat(s, l, args))
			return -1;
	} else if (strncmp(ev, "binder_", 7) == 0 &&
		   (strcmp(ev, "binder_transaction") == 0 || strcmp(ev, "binder_transaction_received") == 0 ||
		    strcmp(ev, "binder_command") == 0 || strcmp(ev, "binder_return") == 0 ||
		    strcmp(ev, "binder_lock") == 0 || strcmp(ev, "binder_locked") == 0 ||
		    strcmp(ev, "binder_unlock") == 0 || strcmp(ev, "binder_transaction_alloc_buf") == 0)) {
		if (binder_line(s, l, ev, utid, args))
			return -1;
	} else if (strcmp(ev, "workqueue_execute_start") == 0) {
		workqueue_start(s, l, utid, args);
	} else if (strcmp(ev, "workqueue_execute_end") == 0) {
		uint32_t track = tt_track_tracker_thread(s->im->tracks, utid);

		if (track != TT_NONE)
			tt_slice_tracker_end_quiet(s->im->slices, track, l->ts, s->s_workqueue, 0, TT_NONE);
	}
	return tt_storage_oom(s->st) || tt_sched_tracker_oom(s->sched) ? -1 : 0;
}
