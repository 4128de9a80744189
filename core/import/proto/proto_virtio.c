/*
 * proto_virtio.c - the virtio-gpu and virtio-video ftrace events of a
 * Perfetto trace, as trace processor's VirtioGpuTracker and
 * VirtioVideoTracker read them:
 *   - virtio_gpu_cmd_queue / _response on the "control" or "cursor"
 *     queue: the queue's free slots as a counter (Virtgpu <Q> Free), the
 *     command a slice from its queueing to its response on the lanes of
 *     "Virtgpu <Q> Queue" (by seqno), named by the command; a command
 *     without a fence also gives its response time (Virtgpu <Q> Latency);
 *   - virtio_video_resource_queue / _done: a "Resource #<id>" slice on
 *     the lanes of "virtio_video stream #<s> INPUT|OUTPUT" (by resource),
 *     the done's fields as its args; virtio_video_cmd / _done: a 100 us
 *     slice named by the command on the lanes of "virtio_video stream
 *     #<s> Requests|Responses".
 * The events go through the sorter (FT_VIRTIO records: the slices' ends
 * and latencies depend on the order); the counters are pushed as values.
 */
#include "proto_int.h"
#include <stdio.h>

enum { VG_QUEUE = 1, VG_RESPONSE, VV_RES_QUEUE, VV_RES_DONE, VV_CMD, VV_CMD_DONE };

#define VV_CMD_DUR 100000   /* trace processor's length of a virtio_video command's slice */

/* ---- virtio-gpu ------------------------------------------------------------------ */

static const char *const gpu_queues[] = { "Control", "Cursor" };

/* The name of virtio_gpu_ctrl_type t ("" for a response or an unknown). */
static const char *gpu_cmd_name(uint32_t t)
{
	static const char *const d2[] = { "GET_DISPLAY_INFO", "RESOURCE_CREATE_2D", "RESOURCE_UNREF", "SET_SCANOUT",
					  "RESOURCE_FLUSH", "TRANSFER_TO_HOST_2D", "RESOURCE_ATTACH_BACKING",
					  "RESOURCE_DETACH_BACKING", "GET_CAPSET_INFO", "GET_CAPSET", "GET_EDID",
					  "RESOURCE_ASSIGN_UUID", "RESOURCE_CREATE_BLOB", "SET_SCANOUT_BLOB" };
	static const char *const d3[] = { "CTX_CREATE", "CTX_DESTROY", "CTX_ATTACH_RESOURCE", "CTX_DETACH_RESOURCE",
					  "RESOURCE_CREATE_3D", "TRANSFER_TO_HOST_3D", "TRANSFER_FROM_HOST_3D",
					  "SUBMIT_3D", "RESOURCE_MAP_BLOB", "RESOURCE_UNMAP_BLOB" };
	static const char *const cur[] = { "UPDATE_CURSOR", "MOVE_CURSOR" };

	if (t >= 0x100 && t - 0x100 < sizeof(d2) / sizeof(d2[0]))
		return d2[t - 0x100];
	if (t >= 0x200 && t - 0x200 < sizeof(d3) / sizeof(d3[0]))
		return d3[t - 0x200];
	if (t >= 0x300 && t - 0x300 < sizeof(cur) / sizeof(cur[0]))
		return cur[t - 0x300];
	return "";
}

/* The queue's counter track of blueprint type ("Virtgpu <Q> <what>"). */
static uint32_t gpu_counter(pctx *c, const char *type, int q, const char *what)
{
	char name[64];
	tt_track_desc d = { .type = type, .utid = TT_NONE, .upid = TT_NONE, .parent_id = TT_NONE, .is_counter = 1,
			    .cpu = -1 };
	uint32_t t;

	snprintf(name, sizeof(name), "Virtgpu %s %s", gpu_queues[q], what);
	d.name = intern_c(c, name);
	t = tt_track_tracker_keyed(c->im->tracks, type, (uint64_t)q, 0, 0, &d);
	if (t != TT_NONE && tt_proto_dims_begin(c, t)) {
		tt_storage_args_str(c->st, "virtgpu_name", gpu_queues[q], strlen(gpu_queues[q]));
		tt_proto_dims_end(c, t);
	}
	return t;
}

static uint32_t gpu_lane(pctx *c, int q, uint32_t seqno, enum tt_async_kind kind)
{
	char name[64];
	tt_track_desc d = { .type = "virtgpu_queue_event", .utid = TT_NONE, .upid = TT_NONE, .parent_id = TT_NONE,
			    .cpu = -1 };
	tt_async_args a = { .ndim = 1 };

	snprintf(name, sizeof(name), "Virtgpu %s Queue", gpu_queues[q]);
	d.name = intern_c(c, name);
	a.dim[0] = (tt_async_arg){ "virtgpu_name", 'c', 0, gpu_queues[q] };
	return tt_async_track_set(c->im->async, tt_fnv1a64(TT_FNV1A64_SEED, d.type, strlen(d.type)), (uint64_t)q, 0,
				  seqno, &d, &a, kind);
}

static void on_gpu(pctx *c, pseq *ps, int64_t ts, int kind, const Perfetto__Protos__VirtioGpuCmdFtraceEvent *v)
{
	int q;

	if (!v->name || (strcmp(v->name, "control") && strcmp(v->name, "cursor")))
		return;
	q = strcmp(v->name, "control") ? 1 : 0;
	tt_proto_push_value(c, ps, ts, gpu_counter(c, "virtgpu_num_free", q, "Free"), (double)v->num_free);
	/* id: the queue, whether it has a fence, the seqno */
	tt_proto_push_ft(c, ps, ts, FT_VIRTIO, (uint64_t)q << 33 | (uint64_t)(v->fence_id != 0) << 32 | v->seqno, kind,
			 kind == VG_QUEUE ? intern_c(c, gpu_cmd_name(v->type)) : 0, 0, 0);
}

static void feed_gpu(pctx *c, const prec *r)
{
	int q = (int)(r->id >> 33), fenced = (int)(r->id >> 32) & 1;
	uint32_t seqno = (uint32_t)r->id, t;
	uint64_t key = (uint64_t)q << 32 | seqno, *start;

	if (r->u.i == VG_QUEUE) {
		t = gpu_lane(c, q, seqno, TT_ASYNC_BEGIN);
		if (t != TT_NONE)
			tt_slice_tracker_begin(c->im->slices, t, r->ts, 0, r->name, TT_NONE);
		/* (a fenced command's response need not come at once: no latency) */
		if (!fenced && tt_pmap_put(&c->virtgpu_starts, key, (uint64_t)r->ts + 1))
			c->oom = 1;
		return;
	}
	t = gpu_lane(c, q, seqno, TT_ASYNC_END);
	if (t != TT_NONE)
		tt_slice_tracker_end_quiet(c->im->slices, t, r->ts, 0, 0, TT_NONE);
	start = tt_pmap_find(&c->virtgpu_starts, key);
	if (!start || !*start)
		return;
	t = gpu_counter(c, "virtgpu_latency", q, "Latency");
	if (t != TT_NONE)
		tt_storage_counter(c->st, t, r->ts, (double)(r->ts - (int64_t)(*start - 1)));
	*start = 0;
}

/* ---- virtio-video ------------------------------------------------------------------ */

static const char *queue_type(uint32_t t)
{
	return t == 0x100 ? "INPUT" : t == 0x101 ? "OUTPUT" : "Unknown";
}

static const char *video_cmd_name(uint32_t t)
{
	static const char *const names[] = { "QUERY_CAPABILITY", "STREAM_CREATE", "STREAM_DESTROY", "STREAM_DRAIN",
					     "RESOURCE_CREATE", "RESOURCE_QUEUE", "RESOURCE_DESTROY_ALL",
					     "QUEUE_CLEAR", "GET_PARAMS", "SET_PARAMS", "QUERY_CONTROL",
					     "GET_CONTROL", "SET_CONTROL", "GET_PARAMS_EXT", "SET_PARAMS_EXT" };

	return t >= 0x100 && t - 0x100 < sizeof(names) / sizeof(names[0]) ? names[t - 0x100] : "Unknown";
}

/* The lanes of a stream's queue (resource slices) or of its commands
 * (response: 0 requests, 1 responses): the track of cookie, or with
 * dur >= 0 a scoped lane for [ts, ts + dur). */
static uint32_t video_lane(pctx *c, int cmd, uint32_t stream, uint32_t second, uint64_t cookie, int64_t ts,
			   int64_t dur, enum tt_async_kind kind)
{
	char name[80];
	tt_track_desc d = { .utid = TT_NONE, .upid = TT_NONE, .parent_id = TT_NONE, .cpu = -1 };
	tt_async_args a = { .ndim = 2 };
	uint64_t k1;

	d.type = cmd ? "virtio_video_command" : "virtio_video_queue_event";
	if (cmd)
		snprintf(name, sizeof(name), "virtio_video stream #%u %s", stream, second ? "Responses" : "Requests");
	else
		snprintf(name, sizeof(name), "virtio_video stream #%u %s", stream, queue_type(second));
	d.name = intern_c(c, name);
	a.dim[0] = (tt_async_arg){ "virtio_stream_id", 'u', stream, NULL };
	a.dim[1] = (tt_async_arg){ cmd ? "is_response" : "virtio_queue_type", 'u', second, NULL };
	k1 = tt_fnv1a64(TT_FNV1A64_SEED, d.type, strlen(d.type));
	if (dur >= 0)
		return tt_async_track_scoped(c->im->async, k1, stream, second, ts, dur, &d, &a);
	return tt_async_track_set(c->im->async, k1, stream, second, cookie, &d, &a, kind);
}

static void on_resource(pctx *c, pseq *ps, int64_t ts, int done,
			const Perfetto__Protos__VirtioVideoResourceQueueFtraceEvent *v)
{
	uint32_t args = TT_NONE;
	char name[48];

	if (done) {
		tt_storage_args_begin(c->st);
		tt_storage_args_int(c->st, "stream_id", v->stream_id);
		tt_storage_args_int(c->st, "resource_id", v->resource_id);
		tt_storage_args_str(c->st, "queue_type", queue_type(v->queue_type), strlen(queue_type(v->queue_type)));
		tt_storage_args_int(c->st, "data_size0", v->data_size0);
		tt_storage_args_int(c->st, "data_size1", v->data_size1);
		tt_storage_args_int(c->st, "data_size2", v->data_size2);
		tt_storage_args_int(c->st, "data_size3", v->data_size3);
		tt_storage_args_uint(c->st, "timestamp", v->timestamp);
		args = tt_args_tracker_end(c->im->args);
	}
	snprintf(name, sizeof(name), "Resource #%d", v->resource_id);
	/* id: the stream, its queue type; u.i the resource */
	tt_proto_push_ft(c, ps, ts, FT_VIRTIO, (uint64_t)(uint32_t)v->stream_id << 32 | v->queue_type,
			 (int64_t)(uint32_t)v->resource_id, done ? 0 : intern_c(c, name),
			 (tt_str)(done ? VV_RES_DONE : VV_RES_QUEUE), args);
}

int tt_proto_on_virtio_event(pctx *c, pseq *ps, int64_t ts, const Perfetto__Protos__FtraceEvent *e)
{
	switch (e->event_case) {
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_VIRTIO_GPU_CMD_QUEUE:
		on_gpu(c, ps, ts, VG_QUEUE, e->virtio_gpu_cmd_queue);
		return 1;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_VIRTIO_GPU_CMD_RESPONSE:
		on_gpu(c, ps, ts, VG_RESPONSE, e->virtio_gpu_cmd_response);
		return 1;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_VIRTIO_VIDEO_RESOURCE_QUEUE:
		on_resource(c, ps, ts, 0, e->virtio_video_resource_queue);
		return 1;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_VIRTIO_VIDEO_RESOURCE_QUEUE_DONE:
		on_resource(c, ps, ts, 1, e->virtio_video_resource_queue_done);
		return 1;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_VIRTIO_VIDEO_CMD:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_VIRTIO_VIDEO_CMD_DONE: {
		const Perfetto__Protos__VirtioVideoCmdFtraceEvent *v = e->virtio_video_cmd; /* (one message for both) */
		int done = e->event_case == PERFETTO__PROTOS__FTRACE_EVENT__EVENT_VIRTIO_VIDEO_CMD_DONE;

		tt_proto_push_ft(c, ps, ts, FT_VIRTIO, (uint64_t)v->stream_id << 32 | (uint32_t)done, 0,
				 intern_c(c, video_cmd_name(v->type)), (tt_str)(done ? VV_CMD_DONE : VV_CMD), 0);
		return 1;
	}
	default:
		return 0;
	}
}

void tt_proto_feed_virtio(pctx *c, const prec *r)
{
	uint32_t stream = (uint32_t)(r->id >> 32), second = (uint32_t)r->id, t;

	switch ((int)r->cat) {
	case 0: /* virtio-gpu (its kind in u.i) */
		feed_gpu(c, r);
		return;
	case VV_RES_QUEUE:
		t = video_lane(c, 0, stream, second, (uint32_t)r->u.i, 0, -1, TT_ASYNC_BEGIN);
		if (t != TT_NONE)
			tt_slice_tracker_begin(c->im->slices, t, r->ts, 0, r->name, TT_NONE);
		return;
	case VV_RES_DONE:
		t = video_lane(c, 0, stream, second, (uint32_t)r->u.i, 0, -1, TT_ASYNC_END);
		if (t != TT_NONE)
			tt_slice_tracker_end_quiet(c->im->slices, t, r->ts, 0, 0, r->args);
		return;
	case VV_CMD:
	case VV_CMD_DONE:
		t = video_lane(c, 1, stream, second, 0, r->ts, VV_CMD_DUR, TT_ASYNC_SCOPED);
		if (t != TT_NONE)
			tt_slice_tracker_complete(c->im->slices, t, r->ts, VV_CMD_DUR, 0, r->name, TT_NONE);
		return;
	}
}
