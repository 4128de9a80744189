/*
 * proto_ftrace.c - ftrace bundles (print/atrace, sched_switch and what
 * else is imported) and, after the merge, sched_switch rows turned into
 * sched_slice and thread_state. See import_proto.c.
 */
#include "proto_int.h"

/* ---- ftrace ------------------------------------------------------------------ */

static uint32_t ftrace_thread(pctx *c, int64_t tid)
{
	uint64_t *v = tt_pmap_find(&c->ftrace_threads, (uint64_t)tid);
	uint32_t utid;

	if (v)
		return (uint32_t)(*v - 1);
	utid = tt_storage_thread_by_tid(c->st, tid);
	if (utid == TT_NONE)
		utid = tt_storage_thread(c->st, tid == 0 ? 0 : -1, tid);
	if (tt_pmap_put(&c->ftrace_threads, (uint64_t)tid, (uint64_t)utid + 1))
		c->oom = 1;
	return utid;
}

static void on_print(pctx *c, pseq *ps, int64_t ts, int64_t tid, const char *buf)
{
	tt_atrace m;
	uint32_t utid, upid, track;
	tt_str name;

	if (!buf || tt_proto_atrace_parse(buf, strlen(buf), &m)) {
		stat(c, TT_STAT_proto_atrace_bad);
		return;
	}
	if (m.has_tgid && m.tgid > 0) {
		utid = tt_storage_thread(c->st, m.tgid, tid);
		upid = tt_storage_process(c->st, m.tgid);
	} else {
		utid = ftrace_thread(c, tid);
		upid = tt_storage_thread_upid(c->st, utid);
	}
	name = m.name ? intern(c, m.name, m.name_len) : 0;
	switch (m.phase) {
	case 'B':
		tt_proto_push_rec(c, ps, ts, R_BEGIN, 0, tt_storage_thread_track(c->st, utid), name, 0, TT_NONE, 0, 0);
		break;
	case 'E':
		tt_proto_push_rec(c, ps, ts, R_END, 0, tt_storage_thread_track(c->st, utid), 0, 0, TT_NONE, 0, 0);
		break;
	case 'I':
		tt_proto_push_rec(c, ps, ts, R_COMPLETE, 0, tt_storage_thread_track(c->st, utid), name, 0, TT_NONE, 0, 0);
		break;
	case 'C':
		track = tt_proto_keyed_counter(c, "proto-atrace-counter", upid, 0, name, upid, -1, NULL);
		tt_proto_push_rec(c, ps, ts, R_COUNTER, 0, track, 0, 0, TT_NONE, 0, (double)m.value);
		break;
	case 'S':
	case 'F': {
		tt_track_desc d = { .type = "process", .name = name, .utid = TT_NONE, .upid = upid,
				    .parent_id = TT_NONE, .cpu = -1 };
		track = tt_storage_track_keyed(c->st, "proto-atrace-async", upid, (uint64_t)m.value, name, &d);
		tt_proto_push_rec(c, ps, ts, m.phase == 'S' ? R_BEGIN : R_END, 0, track, m.phase == 'S' ? name : 0, 0,
			 TT_NONE, 0, 0);
		break;
	}
	case 'N':
	case 'G':
	case 'H': {
		tt_str tn = intern(c, m.track, m.track_len);
		tt_track_desc d = { .type = "process", .name = tn, .utid = TT_NONE, .upid = upid,
				    .parent_id = TT_NONE, .cpu = -1 };
		uint64_t cookie = m.phase == 'N' ? 0 : (uint64_t)m.value;
		track = tt_storage_track_keyed(c->st, "proto-atrace-track", upid, cookie, tn, &d);
		if (m.phase == 'N')
			tt_proto_push_rec(c, ps, ts, R_COMPLETE, 0, track, name, 0, TT_NONE, 0, 0);
		else
			tt_proto_push_rec(c, ps, ts, m.phase == 'G' ? R_BEGIN : R_END, 0, track, m.phase == 'G' ? name : 0,
				 0, TT_NONE, 0, 0);
		break;
	}
	}
}

static void push_sched(pctx *c, int64_t ts, uint32_t cpu, int64_t prev_state, int32_t next_pid,
		       int32_t next_prio, tt_str comm)
{
	sched_rec r = { ts, prev_state, cpu, next_pid, next_prio, c->ord++, comm };

	if (TT_VEC_PUSH(c->sched, r))
		c->oom = 1;
	if (ts > c->max_ts)
		c->max_ts = ts;
	c->events++;
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
			push_sched(c, ts, b->cpu, sw->prev_state, sw->next_pid, sw->next_prio,
				   intern_c(c, sw->next_comm));
			break;
		}
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPU_FREQUENCY: {
			tt_str n = intern_c(c, "cpufreq");
			uint32_t t = tt_proto_keyed_counter(c, "proto-cpu-counter", e->cpu_frequency->cpu_id, 0, n,
						   TT_NONE, e->cpu_frequency->cpu_id, NULL);
			tt_proto_push_rec(c, ps, ts, R_COUNTER, 0, t, 0, 0, TT_NONE, 0, (double)e->cpu_frequency->state);
			break;
		}
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPU_IDLE: {
			tt_str n = intern_c(c, "cpuidle");
			uint32_t t = tt_proto_keyed_counter(c, "proto-cpu-counter", e->cpu_idle->cpu_id, 1, n,
						   TT_NONE, e->cpu_idle->cpu_id, NULL);
			tt_proto_push_rec(c, ps, ts, R_COUNTER, 0, t, 0, 0, TT_NONE, 0, (double)e->cpu_idle->state);
			break;
		}
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_TASK_NEWTASK:
			if (e->task_newtask->comm)
				tt_storage_thread_set_name(c->st, ftrace_thread(c, e->task_newtask->pid),
							   intern_c(c, e->task_newtask->comm));
			break;
		case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_TASK_RENAME:
			if (e->task_rename->newcomm)
				tt_storage_thread_set_name(c->st, ftrace_thread(c, e->task_rename->pid),
							   intern_c(c, e->task_rename->newcomm));
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
			push_sched(c, to_trace(c, 0, clock, t + (uint64_t)offset), b->cpu, cs->switch_prev_state[i],
				   cs->switch_next_pid[i], cs->switch_next_prio[i],
				   ci < cs->n_intern_table ? intern_c(c, cs->intern_table[ci]) : 0);
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
		cur.utid = ftrace_thread(c, r->next_pid);
		cur.prio = r->next_prio;
		if (r->next_comm && r->next_pid != 0)
			tt_storage_thread_set_name(c->st, cur.utid, r->next_comm);
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
