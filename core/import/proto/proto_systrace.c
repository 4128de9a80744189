/*
 * proto_systrace.c - atrace markers of Perfetto traces (ftrace print and
 * the kernel drivers' marks): read when the bundle is tokenized (atrace.c
 * parses the text), pushed through the sorter, and stored when the
 * sorted record is fed, in trace order (the threads and processes they
 * name come and go), by the import's atrace tracker (atrace_tracker.c,
 * shared with the systrace text of JSON traces), which finds threads
 * through this importer's ftrace process tracking (proto_ftrace.c).
 */
#include "proto_int.h"

/* ---- tokenizing: markers into records ------------------------------------ */

static void on_atrace(pctx *c, pseq *ps, int64_t ts, int64_t tid, const tt_atrace_mark *m)
{
	uint64_t id = (uint32_t)(int32_t)tid | (uint64_t)m->tgid << 32;

	tt_proto_push_ft(c, ps, ts, FT_PRINT, id, m->value, m->name, m->track, (uint32_t)m->phase);
}

/* An ftrace print: an atrace marker, its invalid UTF-8 dropped first. */
void tt_proto_on_print(pctx *c, pseq *ps, int64_t ts, int64_t tid, const char *buf)
{
	tt_atrace_mark m = { .ts = ts, .tid = tid };
	int rc = tt_atrace_tracker_read(c->st, buf, buf ? strlen(buf) : 0, &m);

	if (rc == TT_ATRACE_OK)
		on_atrace(c, ps, ts, tid, &m);
	else if (rc == -2)
		c->oom = 1;
}

/* A kernel driver's atrace-like mark (trace processor's
 * ParseKernelTracingMarkWrite): the phase in type (B E C I) or, when
 * type is 0, trace_begin (B / E); tgid from the event's pid field, the
 * writer the ftrace event's pid; the name as given (empty allowed). */
static void on_kernel_mark(pctx *c, pseq *ps, int64_t ts, int64_t tid, uint32_t type, int begin, const char *name,
			   uint32_t tgid, int64_t value)
{
	tt_atrace_mark m = { .ts = ts, .tid = tid, .tgid = tgid, .value = value };
	char t = (char)type;

	if (t == 0)
		m.phase = begin ? 'B' : 'E';
	else if (t == 'B' || t == 'E' || t == 'C' || t == 'I')
		m.phase = t;
	else {
		stat(c, TT_STAT_systrace_parse_failure);
		return;
	}
	m.name = tt_storage_intern_cstr(c->st, name ? name : "");
	on_atrace(c, ps, ts, tid, &m);
}

/* The kernel marks: which field says what, and when one is refused
 * (systrace_parse_failure), as trace processor reads each. */
void tt_proto_on_kernel_marks(pctx *c, pseq *ps, int64_t ts, const Perfetto__Protos__FtraceEvent *e)
{
	int64_t tid = e->pid;

	switch (e->event_case) {
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SDE_TRACING_MARK_WRITE: {
		const Perfetto__Protos__SdeTracingMarkWriteFtraceEvent *k = e->sde_tracing_mark_write;

		if (!k->has_trace_type && !k->has_trace_begin)
			break;
		on_kernel_mark(c, ps, ts, tid, k->trace_type, k->trace_begin, k->trace_name, (uint32_t)k->pid, k->value);
		return;
	}
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_TRACING_MARK_WRITE: {
		const Perfetto__Protos__TracingMarkWriteFtraceEvent *k = e->tracing_mark_write;

		if (!k->has_trace_begin)
			break;
		on_kernel_mark(c, ps, ts, tid, 0, k->trace_begin, k->trace_name, (uint32_t)k->pid, 0);
		return;
	}
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_ZERO: {
		/* systrace/0: the phase in flag bits (begin, end, int64) */
		const Perfetto__Protos__ZeroFtraceEvent *k = e->zero;
		char ph = k->flag & 1 ? 'B' : k->flag & 2 ? 'E' : k->flag & 4 ? 'C' : 0;

		if (!ph)
			break;
		on_kernel_mark(c, ps, ts, tid, (uint32_t)ph, 0, k->name, (uint32_t)k->pid, k->value);
		return;
	}
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DPU_TRACING_MARK_WRITE: {
		/* drivers write marks as other processes': only a counter
		 * keeps its tgid (the others are read with none) */
		const Perfetto__Protos__DpuTracingMarkWriteFtraceEvent *k = e->dpu_tracing_mark_write;

		if (!k->type)
			break;
		on_kernel_mark(c, ps, ts, tid, k->type, 0, k->name, (char)k->type == 'C' ? (uint32_t)k->pid : 0,
			       k->value);
		return;
	}
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_G2D_TRACING_MARK_WRITE: {
		const Perfetto__Protos__G2dTracingMarkWriteFtraceEvent *k = e->g2d_tracing_mark_write;

		if (!k->type)
			break;
		on_kernel_mark(c, ps, ts, tid, k->type, 0, k->name, (uint32_t)k->pid, k->value);
		return;
	}
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_MALI_TRACING_MARK_WRITE: {
		const Perfetto__Protos__MaliTracingMarkWriteFtraceEvent *k = e->mali_tracing_mark_write;

		if (!k->type)
			break;
		on_kernel_mark(c, ps, ts, tid, k->type, 0, k->name, (uint32_t)k->pid, k->value);
		return;
	}
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_LWIS_TRACING_MARK_WRITE: {
		const Perfetto__Protos__LwisTracingMarkWriteFtraceEvent *k = e->lwis_tracing_mark_write;

		if (!k->type)
			break;
		on_kernel_mark(c, ps, ts, tid, k->type, 0, k->func_name, (uint32_t)k->pid, k->value);
		return;
	}
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SAMSUNG_TRACING_MARK_WRITE: {
		const Perfetto__Protos__SamsungTracingMarkWriteFtraceEvent *k = e->samsung_tracing_mark_write;

		if (!k->has_trace_type)
			break;
		on_kernel_mark(c, ps, ts, tid, k->trace_type, 0, k->trace_name, (uint32_t)k->pid, k->value);
		return;
	}
	default:
		return;
	}
	stat(c, TT_STAT_systrace_parse_failure);
}

/* ---- feeding: records to the atrace tracker ------------------------------ */

static uint32_t task_thread(void *ctx, int64_t tid)
{
	return tt_proto_thread(ctx, tid);
}

static uint32_t task_thread_in(void *ctx, int64_t pid, int64_t tid)
{
	return tt_proto_thread_in(ctx, pid, tid);
}

static uint32_t task_thread_or_none(void *ctx, int64_t tid)
{
	return tt_proto_thread_or_none(ctx, tid);
}

static uint32_t task_process(void *ctx, int64_t pid)
{
	return tt_proto_process(ctx, pid);
}

/* An atrace marker, fed in trace order (from tt_proto_feed_ftrace). */
void tt_proto_feed_atrace(pctx *c, const prec *r)
{
	tt_atrace_mark m = { .ts = r->ts, .tid = (int32_t)(uint32_t)r->id, .tgid = (uint32_t)(r->id >> 32),
			     .phase = (char)r->args, .name = r->name, .track = r->cat, .value = r->u.i };

	if (!c->atrace) {
		tt_task_lookup k = { c, task_thread, task_thread_in, task_thread_or_none, task_process };

		if (!(c->atrace = tt_atrace_tracker_new(c->im, &k))) {
			c->oom = 1;
			return;
		}
	}
	if (tt_atrace_tracker_mark(c->atrace, &m))
		c->oom = 1;
}
