/*
 * proto_drm.c - the DRM and dma-fence ftrace events of a Perfetto trace,
 * as trace processor's DrmTracker reads them:
 *   - drm_vblank_event / _delivered: "signal" / "deliver" instants on the
 *     "drm_vblank" track of the crtc (vblank-<crtc>), arg "vblank seqno";
 *   - the GPU scheduler: a job queued is a "drm_sched_job_queue" instant on
 *     the queuing thread (args "gpu sched ring" and the job's ids); the
 *     jobs a ring runs are "job" slices on its "drm_sched_ring" track
 *     (sched-<ring>), one at a time in the order they were run, each
 *     ending when its job is done, with a flow from its queue instant.
 *     Before kernel 6.17 a job has a ring-local id (drm_sched_job,
 *     drm_run_job; "gpu sched job") and a global one (its fence:
 *     drm_run_job, drm_sched_process_job); since, its fence's context and
 *     seqno ("fence context", "fence seqno");
 *   - dma-fence timelines: "fence" slices on the "drm_fence" track of the
 *     timeline (fence-<name>-<context>), from its fence's init (or emit,
 *     once the timeline has emits) to its signal, one at a time; the
 *     "unbound" meta timelines are left out; dma_fence_wait_start / _end:
 *     a "dma_fence_wait" slice on the waiting thread.
 * The events go through the sorter (FT_DRM records) and act in trace
 * order; the rings and timelines are this file's (c->drm).
 */
#include "proto_int.h"
#include <stdio.h>

enum {
	K_VBLANK = 1, K_VBLANK_DELIVERED, K_QUEUE_LOCAL, K_RUN_GLOBAL_LOCAL, K_DONE_GLOBAL, K_QUEUE_FENCE,
	K_RUN_FENCE, K_DONE_FENCE, K_FENCE_INIT, K_FENCE_EMIT, K_FENCE_SIGNALED, K_WAIT_START, K_WAIT_END
};

/* A scheduler job by the ids its event gives (trace processor's SchedJob). */
enum { JOB_FENCE = 1, JOB_GLOBAL = 2, JOB_LOCAL = 4 };
struct djob {
	uint8_t types;
	uint64_t id0, id1;   /* fence context, seqno; or the global id, the local id */
};

/* A job queued: its instant, until a ring runs it. */
struct dqueued {
	struct djob job;
	int64_t slice;
};

struct dring {
	tt_str name;
	uint32_t track;
	TT_VEC(struct djob) running; /* from head on: run, not done yet */
	size_t head;
	TT_VEC(struct dqueued) queued;
};

struct dtimeline {
	uint32_t context, track;
	int has_emit;
	TT_VEC(uint32_t) pending;    /* seqnos from head on, not signalled yet */
	size_t head;
};

/* A job running and its ring. */
struct dbusy {
	struct djob job;
	size_t ring;
};

struct tt_proto_drm {
	TT_VEC(struct dring) rings;
	TT_VEC(struct dtimeline) timelines;
	TT_VEC(struct dbusy) busy;
};

/* ---- reading the events --------------------------------------------------------- */

static void push(pctx *c, pseq *ps, int64_t ts, int kind, uint32_t pid, const char *name, uint64_t a, uint64_t b)
{
	tt_proto_push_ft(c, ps, ts, FT_DRM, a, (int64_t)b, name ? intern_c(c, name) : 0, (tt_str)kind, pid);
}

/* A dma-fence event of kind k (a meta timeline's: none). */
static void fence(pctx *c, pseq *ps, int64_t ts, int k, uint32_t pid, const Perfetto__Protos__DmaFenceFtraceEvent *f)
{
	if (f->timeline && strcmp(f->timeline, "unbound") == 0 && k != K_WAIT_START && k != K_WAIT_END)
		return;
	push(c, ps, ts, k, pid, f->timeline ? f->timeline : "", f->context, f->seqno);
}

int tt_proto_on_drm_event(pctx *c, pseq *ps, int64_t ts, const Perfetto__Protos__FtraceEvent *e)
{
	switch (e->event_case) {
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DRM_VBLANK_EVENT:
		push(c, ps, ts, K_VBLANK, e->pid, NULL, (uint32_t)e->drm_vblank_event->crtc, e->drm_vblank_event->seq);
		return 1;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DRM_VBLANK_EVENT_DELIVERED:
		push(c, ps, ts, K_VBLANK_DELIVERED, e->pid, NULL, (uint32_t)e->drm_vblank_event_delivered->crtc,
		     e->drm_vblank_event_delivered->seq);
		return 1;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DRM_SCHED_JOB:
		push(c, ps, ts, K_QUEUE_LOCAL, e->pid, e->drm_sched_job->name ? e->drm_sched_job->name : "",
		     e->drm_sched_job->id, 0);
		return 1;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DRM_RUN_JOB:
		push(c, ps, ts, K_RUN_GLOBAL_LOCAL, e->pid, e->drm_run_job->name ? e->drm_run_job->name : "",
		     e->drm_run_job->fence, e->drm_run_job->id);
		return 1;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DRM_SCHED_PROCESS_JOB:
		push(c, ps, ts, K_DONE_GLOBAL, e->pid, NULL, e->drm_sched_process_job->fence, 0);
		return 1;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DRM_SCHED_JOB_QUEUE:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DRM_SCHED_JOB_RUN: {
		int queue = e->event_case == PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DRM_SCHED_JOB_QUEUE;
		const Perfetto__Protos__DrmSchedJobRunFtraceEvent *j = queue ? e->drm_sched_job_queue : e->drm_sched_job_run;

		push(c, ps, ts, queue ? K_QUEUE_FENCE : K_RUN_FENCE, e->pid, j->name ? j->name : "", j->fence_context,
		     j->fence_seqno);
		return 1;
	}
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DRM_SCHED_JOB_DONE:
		push(c, ps, ts, K_DONE_FENCE, e->pid, NULL, e->drm_sched_job_done->fence_context,
		     e->drm_sched_job_done->fence_seqno);
		return 1;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DMA_FENCE_INIT:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DMA_FENCE_EMIT:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DMA_FENCE_SIGNALED:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DMA_FENCE_WAIT_START:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DMA_FENCE_WAIT_END:
		/* (the five share one message: any member of the oneof's union) */
		fence(c, ps, ts, K_FENCE_INIT + (int)(e->event_case - PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DMA_FENCE_INIT),
		      e->pid, e->dma_fence_init);
		return 1;
	default:
		return 0;
	}
}

/* ---- in trace order ---------------------------------------------------------------- */

/* trace processor's SchedJob equality: by the ids both have, fence ids
 * first; local ids assume one ring. */
static int job_eq(const struct djob *a, const struct djob *b)
{
	uint8_t both = a->types & b->types;

	if (both & JOB_FENCE)
		return a->id0 == b->id0 && a->id1 == b->id1;
	if (both & JOB_GLOBAL)
		return a->id0 == b->id0;
	if (both & JOB_LOCAL)
		return a->id1 == b->id1;
	return 0;
}

static struct tt_proto_drm *drm_state(pctx *c)
{
	if (!c->drm && !(c->drm = calloc(1, sizeof(*c->drm))))
		c->oom = 1;
	return c->drm;
}

/* A slice track of blueprint type named name, keyed by (a, b), with
 * dimension args key1 = v1 (a string when s1) and key2 = v2 (key2 NULL:
 * none). */
static uint32_t drm_track(pctx *c, const char *type, const char *name, uint64_t a, uint64_t b, const char *key1,
			  const char *s1, uint64_t v1, const char *key2, uint64_t v2)
{
	tt_track_desc d = { .type = type, .name = intern_c(c, name), .utid = TT_NONE, .upid = TT_NONE,
			    .parent_id = TT_NONE, .cpu = -1 };
	uint32_t t = tt_track_tracker_keyed(c->im->tracks, type, a, b, 0, &d);

	if (t == TT_NONE || !tt_proto_dims_begin(c, t))
		return t;
	if (s1)
		tt_storage_args_str(c->st, key1, s1, strlen(s1));
	else
		tt_storage_args_uint(c->st, key1, v1);
	if (key2)
		tt_storage_args_uint(c->st, key2, v2);
	tt_proto_dims_end(c, t);
	return t;
}

static size_t ring_of(pctx *c, struct tt_proto_drm *d, tt_str name)
{
	struct dring r = { .name = name, .track = TT_NONE };
	const char *s = tt_storage_str(c->st, name);
	char buf[300];
	size_t i;

	for (i = 0; i < d->rings.n; i++)
		if (d->rings.v[i].name == name)
			return i;
	snprintf(buf, sizeof(buf), "sched-%s", s ? s : "");
	r.track = drm_track(c, "drm_sched_ring", buf, name, 0, "name", s ? s : "", 0, NULL, 0);
	if (TT_VEC_PUSH(d->rings, r)) {
		c->oom = 1;
		return SIZE_MAX;
	}
	return d->rings.n - 1;
}

/* A job's args: its fence's ids, else its ring-local id. */
static void job_args(pctx *c, const struct djob *j)
{
	if (j->types & JOB_FENCE) {
		tt_storage_args_uint(c->st, "fence context", j->id0);
		tt_storage_args_uint(c->st, "fence seqno", j->id1);
	} else {
		tt_storage_args_uint(c->st, "gpu sched job", (j->types & JOB_LOCAL) ? j->id1 : 0);
	}
}

/* The ring's first running job begins its slice, with a flow from the
 * job's queue instant. */
static void ring_begin(pctx *c, struct dring *r, int64_t ts)
{
	const struct djob *j = &r->running.v[r->head];
	int64_t slice;

	tt_storage_args_begin(c->st);
	job_args(c, j);
	slice = tt_slice_tracker_begin(c->im->slices, r->track, ts, 0, intern_c(c, "job"),
				       tt_args_tracker_end(c->im->args));
	if (slice < 0)
		return;
	for (size_t i = 0; i < r->queued.n; i++)
		if (job_eq(&r->queued.v[i].job, j)) {
			tt_storage_flow_link(c->st, r->queued.v[i].slice, slice);
			r->queued.v[i] = r->queued.v[--r->queued.n];
			return;
		}
}

static void job_queue(pctx *c, struct tt_proto_drm *d, const prec *r, struct djob j)
{
	uint32_t t = tt_track_tracker_thread(c->im->tracks, tt_proto_thread(c, (int32_t)r->args));
	const char *ring = tt_storage_str(c->st, r->name);
	struct dqueued q = { j, -1 };
	size_t ri;

	if (t == TT_NONE)
		return;
	tt_storage_args_begin(c->st);
	tt_storage_args_str(c->st, "gpu sched ring", ring ? ring : "", ring ? strlen(ring) : 0);
	job_args(c, &j);
	q.slice = tt_slice_tracker_complete(c->im->slices, t, r->ts, 0, 0, intern_c(c, "drm_sched_job_queue"),
					    tt_args_tracker_end(c->im->args));
	if (q.slice < 0 || (ri = ring_of(c, d, r->name)) == SIZE_MAX)
		return;
	/* a job queued again replaces its instant */
	for (size_t i = 0; i < d->rings.v[ri].queued.n; i++)
		if (job_eq(&d->rings.v[ri].queued.v[i].job, &j)) {
			d->rings.v[ri].queued.v[i].slice = q.slice;
			return;
		}
	if (TT_VEC_PUSH(d->rings.v[ri].queued, q))
		c->oom = 1;
}

static void job_run(pctx *c, struct tt_proto_drm *d, const prec *r, struct djob j)
{
	size_t ri = ring_of(c, d, r->name);
	struct dbusy bz = { j, ri };
	struct dring *ring;
	size_t i;

	if (ri == SIZE_MAX)
		return;
	ring = &d->rings.v[ri];
	if (TT_VEC_PUSH(ring->running, j)) {
		c->oom = 1;
		return;
	}
	/* (a job already running keeps its ring, as trace processor's map) */
	for (i = 0; i < d->busy.n; i++)
		if (job_eq(&d->busy.v[i].job, &j))
			break;
	if (i == d->busy.n && TT_VEC_PUSH(d->busy, bz)) {
		c->oom = 1;
		return;
	}
	if (ring->running.n - ring->head == 1)
		ring_begin(c, ring, r->ts);
}

static void job_done(pctx *c, struct tt_proto_drm *d, const prec *r, struct djob j)
{
	struct dring *ring;
	size_t i;

	for (i = 0; i < d->busy.n; i++)
		if (job_eq(&d->busy.v[i].job, &j))
			break;
	if (i == d->busy.n)
		return;
	ring = &d->rings.v[d->busy.v[i].ring];
	d->busy.v[i] = d->busy.v[--d->busy.n];
	if (ring->head < ring->running.n)
		ring->head++;
	if (ring->head == ring->running.n)
		ring->head = ring->running.n = 0;
	tt_slice_tracker_end_quiet(c->im->slices, ring->track, r->ts, 0, 0, TT_NONE);
	if (ring->head < ring->running.n)
		ring_begin(c, ring, r->ts);
}

static struct dtimeline *timeline_of(pctx *c, struct tt_proto_drm *d, uint32_t context, tt_str name)
{
	struct dtimeline tl = { .context = context };
	const char *s = tt_storage_str(c->st, name);
	char buf[300];

	for (size_t i = 0; i < d->timelines.n; i++)
		if (d->timelines.v[i].context == context)
			return &d->timelines.v[i];
	snprintf(buf, sizeof(buf), "fence-%s-%u", s ? s : "", context);
	tl.track = drm_track(c, "drm_fence", buf, name, context, "name", s ? s : "", 0, "context", context);
	if (TT_VEC_PUSH(d->timelines, tl)) {
		c->oom = 1;
		return NULL;
	}
	return &d->timelines.v[d->timelines.n - 1];
}

/* The timeline's first pending fence begins its slice. */
static void fence_begin(pctx *c, const struct dtimeline *tl, int64_t ts)
{
	tt_storage_args_begin(c->st);
	tt_storage_args_uint(c->st, "fence seqno", tl->pending.v[tl->head]);
	tt_slice_tracker_begin(c->im->slices, tl->track, ts, 0, intern_c(c, "fence"), tt_args_tracker_end(c->im->args));
}

static void fence_event(pctx *c, struct tt_proto_drm *d, const prec *r, int kind)
{
	struct dtimeline *tl = timeline_of(c, d, (uint32_t)r->id, r->name);
	uint32_t seqno = (uint32_t)r->u.i;

	if (!tl)
		return;
	if (kind == K_FENCE_SIGNALED) {
		if (tl->head == tl->pending.n || seqno < tl->pending.v[tl->head])
			return;
		tl->head++;
		tt_slice_tracker_end_quiet(c->im->slices, tl->track, r->ts, 0, 0, TT_NONE);
		if (tl->head < tl->pending.n)
			fence_begin(c, tl, r->ts);
		else
			tl->head = tl->pending.n = 0;
		return;
	}
	if (kind == K_FENCE_INIT && tl->has_emit)
		return; /* (the timeline's emits are more accurate) */
	if (kind == K_FENCE_EMIT && !tl->has_emit) {
		tl->has_emit = 1;
		if (tl->head < tl->pending.n) {
			tt_slice_tracker_end_quiet(c->im->slices, tl->track, r->ts, 0, 0, TT_NONE);
			tl->head = tl->pending.n = 0;
		}
	}
	if (TT_VEC_PUSH(tl->pending, seqno)) {
		c->oom = 1;
		return;
	}
	if (tl->pending.n - tl->head == 1)
		fence_begin(c, tl, r->ts);
}

static void vblank(pctx *c, const prec *r, const char *name)
{
	char buf[32];
	uint32_t t;

	snprintf(buf, sizeof(buf), "vblank-%u", (uint32_t)r->id);
	t = drm_track(c, "drm_vblank", buf, (uint32_t)r->id, 0, "drm_crtc", NULL, (uint32_t)r->id, NULL, 0);
	if (t == TT_NONE)
		return;
	tt_storage_args_begin(c->st);
	tt_storage_args_uint(c->st, "vblank seqno", (uint64_t)r->u.i);
	tt_slice_tracker_complete(c->im->slices, t, r->ts, 0, 0, intern_c(c, name), tt_args_tracker_end(c->im->args));
}

void tt_proto_feed_drm(pctx *c, const prec *r)
{
	struct tt_proto_drm *d = drm_state(c);
	uint64_t a = r->id, b = (uint64_t)r->u.i;
	uint32_t t;

	if (!d)
		return;
	switch ((int)r->cat) {
	case K_VBLANK:
		vblank(c, r, "signal");
		return;
	case K_VBLANK_DELIVERED:
		vblank(c, r, "deliver");
		return;
	case K_QUEUE_LOCAL:
		job_queue(c, d, r, (struct djob){ JOB_LOCAL, 0, a });
		return;
	case K_QUEUE_FENCE:
		job_queue(c, d, r, (struct djob){ JOB_FENCE, a, b });
		return;
	case K_RUN_GLOBAL_LOCAL:
		job_run(c, d, r, (struct djob){ JOB_GLOBAL | JOB_LOCAL, a, b });
		return;
	case K_RUN_FENCE:
		job_run(c, d, r, (struct djob){ JOB_FENCE, a, b });
		return;
	case K_DONE_GLOBAL:
		job_done(c, d, r, (struct djob){ JOB_GLOBAL, a, 0 });
		return;
	case K_DONE_FENCE:
		job_done(c, d, r, (struct djob){ JOB_FENCE, a, b });
		return;
	case K_FENCE_INIT:
	case K_FENCE_EMIT:
	case K_FENCE_SIGNALED:
		fence_event(c, d, r, (int)r->cat);
		return;
	case K_WAIT_START:
	case K_WAIT_END:
		t = tt_track_tracker_thread(c->im->tracks, tt_proto_thread(c, (int32_t)r->args));
		if (t == TT_NONE)
			return;
		if (r->cat == K_WAIT_END) {
			tt_slice_tracker_end_quiet(c->im->slices, t, r->ts, 0, 0, TT_NONE);
			return;
		}
		tt_storage_args_begin(c->st);
		tt_storage_args_uint(c->st, "fence context", (uint32_t)a);
		tt_storage_args_uint(c->st, "fence seqno", (uint32_t)b);
		tt_slice_tracker_begin(c->im->slices, t, r->ts, 0, intern_c(c, "dma_fence_wait"),
				       tt_args_tracker_end(c->im->args));
		return;
	}
}

void tt_proto_drm_free(pctx *c)
{
	struct tt_proto_drm *d = c->drm;

	if (!d)
		return;
	for (size_t i = 0; i < d->rings.n; i++) {
		TT_VEC_FREE(d->rings.v[i].running);
		TT_VEC_FREE(d->rings.v[i].queued);
	}
	for (size_t i = 0; i < d->timelines.n; i++)
		TT_VEC_FREE(d->timelines.v[i].pending);
	TT_VEC_FREE(d->rings);
	TT_VEC_FREE(d->timelines);
	TT_VEC_FREE(d->busy);
	free(d);
	c->drm = NULL;
}
