/*
 * proto_systrace.c - atrace markers (ftrace print and the kernel drivers'
 * marks) as trace processor's systrace parser stores them: read when the
 * bundle is tokenized (atrace.c parses the text), stored when the
 * sorted record is fed, in trace order (the threads and processes they
 * name come and go).
 */
#include "proto_int.h"

/* ---- tokenizing: markers into records ------------------------------------ */

static void on_atrace(pctx *c, pseq *ps, int64_t ts, int64_t tid, tt_atrace m)
{
	uint64_t id = (uint32_t)(int32_t)tid | (uint64_t)m.tgid << 32;

	tt_proto_push_ft(c, ps, ts, FT_PRINT, id, m.value, m.name ? intern(c, m.name, m.name_len) : 0,
		m.track ? intern(c, m.track, m.track_len) : 0, (uint32_t)m.phase);
}

/* An ftrace print: an atrace marker, its invalid UTF-8 dropped first. */
void tt_proto_on_print(pctx *c, pseq *ps, int64_t ts, int64_t tid, const char *buf)
{
	tt_atrace m;
	size_t len = buf ? strlen(buf) : 0, i;
	char small[256], *clean = NULL;
	const char *text = buf ? buf : "";
	int rc;

	for (i = 0; i < len && !((unsigned char)buf[i] & 0x80); i++)
		;
	if (i < len) {
		clean = len < sizeof(small) ? small : malloc(len);
		if (!clean) {
			c->oom = 1;
			return;
		}
		len = tt_atrace_utf8(buf, len, clean);
		text = clean;
	}
	rc = tt_atrace_parse(text, len, &m);
	if (rc == TT_ATRACE_OK)
		on_atrace(c, ps, ts, tid, m); /* (the strings are interned now) */
	else if (rc == TT_ATRACE_BAD)
		stat(c, TT_STAT_systrace_parse_failure);
	if (clean != small)
		free(clean);
}

/* A kernel driver's atrace-like mark (trace processor's
 * ParseKernelTracingMarkWrite): the phase in type (B E C I) or, when
 * type is 0, trace_begin (B / E); tgid from the event's pid field, the
 * writer the ftrace event's pid; the name as given (empty allowed). */
static void on_kernel_mark(pctx *c, pseq *ps, int64_t ts, int64_t tid, uint32_t type, int begin, const char *name,
			   uint32_t tgid, int64_t value)
{
	tt_atrace m = { .has_tgid = 1, .tgid = tgid, .value = value };
	char t = (char)type;

	if (t == 0)
		m.phase = begin ? 'B' : 'E';
	else if (t == 'B' || t == 'E' || t == 'C' || t == 'I')
		m.phase = t;
	else {
		stat(c, TT_STAT_systrace_parse_failure);
		return;
	}
	m.name = name ? name : "";
	m.name_len = strlen(m.name);
	on_atrace(c, ps, ts, tid, m);
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

/* ---- feeding: records into slices, counters and tracks -------------------- */

/* The track of an atrace async slice (S / F: named by the slice; G / H /
 * N: by the track name the marker gives) as trace processor's track
 * compressor makes them: one set per (process, name), a lane per cookie
 * while its slice is open (N: lanes of their own, by time), dimensions
 * upid, name (and the lane). space keeps the two kinds' sets apart (and
 * from the merged descriptor tracks'). */
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

/* An arg set of one key: 'u' unsigned or 'i' signed. */
static uint32_t one_arg(pctx *c, const char *key, int type, int64_t v)
{
	tt_storage_args_begin(c->st);
	if (type == 'u')
		tt_storage_args_uint(c->st, key, (uint64_t)v);
	else
		tt_storage_args_int(c->st, key, v);
	return tt_args_tracker_end(c->im->args);
}

/* A slice or counter track of one of trace processor's Android
 * blueprints: no dimension, or the process (upid), or a string one. */
static uint32_t special_track(pctx *c, const char *type, const char *name, uint32_t upid, const char *key,
			      tt_str keyval, int counter)
{
	tt_str n = counter && keyval ? keyval : intern_c(c, name);
	tt_track_desc d = { .type = type, .name = n, .utid = TT_NONE, .upid = upid,
			    .parent_id = TT_NONE, .is_counter = counter, .cpu = -1 };
	uint32_t t = tt_track_tracker_keyed(c->im->tracks, type, upid, keyval, 0, &d);

	if ((upid != TT_NONE || key) && tt_proto_dims_begin(c, t)) {
		if (upid != TT_NONE)
			tt_storage_args_uint(c->st, "upid", upid);
		if (key) {
			const char *v = tt_storage_str(c->st, keyval);
			tt_storage_args_str(c->st, key, v, v ? strlen(v) : 0);
		}
		tt_proto_dims_end(c, t);
	}
	return t;
}

/* A low memory kill of process pid at ts: a "mem.lmk" instant on the
 * process's LMK track (android_lmk), as trace processor writes every
 * kind of LMK event. */
static void lmk_instant(pctx *c, int64_t ts, uint32_t pid)
{
	uint32_t upid = tt_proto_process(c, pid);
	uint32_t t = special_track(c, "android_lmk", "LMK", upid, NULL, 0, 0);

	if (t != TT_NONE)
		tt_slice_tracker_complete(c->im->slices, t, ts, 0, 0, intern_c(c, "mem.lmk"), TT_NONE);
}

/* A slice named "lmk,pid,reason,oom_score_adj,..." (lmkd since Android
 * 12) begun: the killed process's oom_score_adj counter and LMK instant.
 * Empty fields do not count, as trace processor splits the name. */
static void lmk_slice(pctx *c, int64_t ts, const char *name)
{
	const char *tok[4];
	size_t len[4], n = 0;
	const char *p = name;
	int64_t pid, adj;

	while (*p && n < 4) {
		const char *e = strchr(p, ',');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l) {
			tok[n] = p;
			len[n++] = l;
		}
		p += l + (e != NULL);
	}
	/* (the pid a u32, the score an int32, as trace processor reads them) */
	if (n < 4 || tt_atrace_num(tok[1], len[1], 1, &pid) || tt_atrace_num(tok[3], len[3], 0, &adj))
		return;
	adj = (int32_t)adj;
	{
		uint32_t upid = tt_proto_process(c, pid);
		uint32_t t = tt_proto_oom_score_track(c, upid);

		if (t != TT_NONE)
			tt_storage_counter(c->st, t, ts, (double)adj);
		lmk_instant(c, ts, (uint32_t)pid);
	}
}

/* An atrace marker, fed in trace order (from tt_proto_feed_ftrace), as trace
 * processor's systrace parser reads it: the writing thread (B, E, I) is
 * looked up then, as tasks come and go (tgid 0: the tid's live thread,
 * else the tid made a thread of that process); the other phases belong
 * to the tgid's process whatever thread wrote them. Returns the slice or
 * counter record it makes in *out, 0 when none. */
int tt_proto_feed_atrace(pctx *c, const prec *r, prec *out)
{
	int64_t tid = (int32_t)(uint32_t)r->id;
	uint32_t tgid = (uint32_t)(r->id >> 32);
	int phase = (int)r->args;
	uint32_t utid, upid;
	tt_str name = r->name;
	const char *nm = tt_storage_str(c->st, name);

	/* the writer's thread first, as trace processor's raw table row for
	 * the event makes it before the marker is parsed */
	tt_proto_thread(c, tid);
	*out = *r;
	out->flags = 0;
	out->args = TT_NONE;
	out->cat = 0;
	out->name = 0;
	switch (phase) {
	case 'B':
		utid = tgid == 0 ? tt_proto_thread(c, tid) : tt_proto_thread_in(c, tgid, tid);
		out->kind = R_BEGIN;
		out->track = tt_track_tracker_thread(c->im->tracks, utid);
		out->name = name;
		if (nm && strncmp(nm, "lmk,", 4) == 0 && out->track != TT_NONE) {
			/* the slice first (its id before the LMK instant's) */
			int64_t id = tt_slice_tracker_begin(c->im->slices, out->track, r->ts, 0, name, TT_NONE);

			if (id >= 0)
				tt_flow_tracker_slice_begun(c->im->flows, out->track, id);
			lmk_slice(c, r->ts, nm);
			return 0;
		}
		break;
	case 'E':
		utid = tgid == 0 ? tt_proto_thread_or_none(c, tid) : tt_proto_thread_in(c, tgid, tid);
		if (utid == TT_NONE)
			return 0; /* a thread never seen began nothing */
		out->kind = R_END;
		out->track = tt_track_tracker_thread(c->im->tracks, utid);
		break;
	case 'I':
		utid = tgid == 0 ? tt_proto_thread(c, tid) : tt_proto_thread_in(c, tgid, tid);
		out->kind = R_COMPLETE;
		out->track = tt_track_tracker_thread(c->im->tracks, utid);
		out->name = name;
		out->u.i = 0;
		break;
	case 'C':
		out->kind = R_COUNTER;
		out->u.d = (double)r->u.i;
		if (nm && strcmp(nm, "kill_one_process") == 0) {
			/* lmkd's kills as a counter of the killed pid (0: the
			 * kill is over): an LMK instant too, the counter kept */
			if (r->u.i != 0)
				lmk_instant(c, r->ts, (uint32_t)r->u.i);
		} else if (nm && strcmp(nm, "ScreenState") == 0) {
			out->track = special_track(c, "screen_state", "ScreenState", TT_NONE, NULL, 0, 1);
			break;
		} else if (nm && strncmp(nm, "battery_stats.", 14) == 0) {
			out->track = special_track(c, "battery_stats", NULL, TT_NONE, "counter_key", name, 1);
			break;
		}
		/* per process on purpose: long-standing counters are written
		 * from any of its threads; the writing thread is the value's
		 * arg utid (uint), as trace processor keeps it */
		upid = tt_proto_process(c, tgid);
		out->track = tt_proto_keyed_counter(c, "proto-atrace-counter", upid, 0, name, "atrace_counter", upid, -1,
						    "name", nm);
		utid = tt_proto_thread_or_none(c, tid);
		if (utid != TT_NONE)
			out->args = one_arg(c, "utid", 'u', utid);
		break;
	case 'S':
	case 'F': {
		uint64_t *n, *last;

		upid = tt_proto_process(c, tgid);
		out->track = atrace_async(c, 3, "atrace_async_slice", upid, name, (uint64_t)r->u.i,
					  phase == 'S' ? TT_ASYNC_BEGIN_SAT : TT_ASYNC_END);
		if (out->track == TT_NONE)
			return 0;
		if (phase == 'S') {
			/* Android's async slices do not nest (PowerManager's
			 * wakelocks begin again and again): a begin while one is
			 * open only counts, and the slice's end says how many
			 * came and when the last did */
			uint64_t cnt = 1;

			if ((n = tt_pmap_find(&c->unnest_n, out->track)))
				cnt = *n + 1;
			if (tt_pmap_put(&c->unnest_n, out->track, cnt) ||
			    tt_pmap_put(&c->unnest_ts, out->track, (uint64_t)r->ts))
				c->oom = 1;
			if (tt_slice_tracker_enclosing(c->im->slices, out->track, r->ts) >= 0)
				return 0;
			out->kind = R_BEGIN;
			out->name = name;
			out->args = one_arg(c, "cookie", 'i', r->u.i);
			break;
		}
		out->kind = R_END;
		n = tt_pmap_find(&c->unnest_n, out->track);
		last = tt_pmap_find(&c->unnest_ts, out->track);
		if (n && last) {
			tt_storage_args_begin(c->st);
			tt_storage_args_int(c->st, "legacy_unnestable_begin_count", (int64_t)*n);
			tt_storage_args_int(c->st, "legacy_unnestable_last_begin_ts", (int64_t)*last);
			out->args = tt_args_tracker_end(c->im->args);
		}
		break;
	}
	case 'N':
	case 'G':
	case 'H': {
		const char *tn = tt_storage_str(c->st, r->cat);

		if (phase == 'N' && tn && strcmp(tn, "DeviceStateChanged") == 0) {
			/* a top-level track of its own */
			out->kind = R_COMPLETE;
			out->track = special_track(c, "android_device_state", "DeviceStateChanged", TT_NONE, NULL, 0, 0);
			out->name = name;
			out->u.i = 0;
			break;
		}
		upid = tt_proto_process(c, tgid);
		out->kind = phase == 'N' ? R_COMPLETE : phase == 'G' ? R_BEGIN : R_END;
		out->track = atrace_async(c, 4, "atrace_async_slice_for_track", upid, r->cat,
					  phase == 'N' ? (uint64_t)r->ts : (uint64_t)r->u.i,
					  phase == 'N' ? TT_ASYNC_SCOPED : phase == 'G' ? TT_ASYNC_BEGIN : TT_ASYNC_END);
		out->name = phase == 'H' ? 0 : name;
		out->u.i = 0;
		/* the writing thread: utid on the slice, end_utid at its end */
		utid = tt_proto_thread(c, tid);
		out->args = one_arg(c, phase == 'H' ? "end_utid" : "utid", 'u', utid);
		break;
	}
	default:
		return 0;
	}
	return out->track != TT_NONE;
}

