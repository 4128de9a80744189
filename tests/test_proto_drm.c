/*
 * test_proto_drm.c - the DRM, dma-fence, V4L2 and virtio ftrace events of
 * a Perfetto trace (core/import/proto/proto_drm.c, proto_v4l2.c,
 * proto_virtio.c): vblank
 * instants, GPU scheduler jobs (before 6.17: local and global ids; since:
 * fence ids) on their rings' tracks with flows from their queue instants,
 * fence timelines (init, emit, signal) and fence waits; V4L2 buffers'
 * instants, args and queue flows; virtio-gpu commands on their queue's
 * lanes with free slots and latencies, virtio-video resources and
 * commands on their streams' lanes; on traces written here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfetto_trace.pb-c.h"
#include "testutil.h"
#include "proto_tb.h"

typedef Perfetto__Protos__FtraceEvent FEv;

/* The arg list of each slice of a query's rows: ts, dur, track, name, and
 * the args as key=value joined by ' '. */
#define SLICES_SQL                                                                                          \
	"select s.ts, s.dur, t.name, t.type, s.name, (select group_concat(a.key || '=' || a.display_value, ' ')" \
	" from args a where a.arg_set_id = s.arg_set_id) from slice s join track t on t.id = s.track_id"

static void vblank(tbuf *b, uint64_t ts, int delivered, int32_t crtc, uint32_t seq)
{
	FEv e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__DrmVblankEventFtraceEvent v = PERFETTO__PROTOS__DRM_VBLANK_EVENT_FTRACE_EVENT__INIT;
	Perfetto__Protos__DrmVblankEventDeliveredFtraceEvent d =
		PERFETTO__PROTOS__DRM_VBLANK_EVENT_DELIVERED_FTRACE_EVENT__INIT;

	v.has_crtc = v.has_seq = d.has_crtc = d.has_seq = 1;
	v.crtc = d.crtc = crtc;
	v.seq = d.seq = seq;
	if (delivered) {
		e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DRM_VBLANK_EVENT_DELIVERED;
		e.drm_vblank_event_delivered = &d;
	} else {
		e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DRM_VBLANK_EVENT;
		e.drm_vblank_event = &v;
	}
	ft_event_cpu(b, ts, 0, 1, &e, NULL);
}

/* An ftrace event of case ec whose message is msg (the oneof's members
 * share one union: any member can hold it). */
static void ft_msg(tbuf *b, uint64_t ts, uint32_t tid, Perfetto__Protos__FtraceEvent__EventCase ec, void *msg)
{
	FEv e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;

	e.event_case = ec;
	e.drm_sched_job = msg;
	ft_event_cpu(b, ts, 0, tid, &e, NULL);
}

/* A scheduler job's event: what 0 queued, 1 run, 2 done. Before 6.17
 * (fence_ids 0): drm_sched_job (x: -, y: the local id), drm_run_job (x:
 * the global fence, y: the local id), drm_sched_process_job (x: the
 * fence); since: drm_sched_job_queue, _run, _done (x, y: the fence's
 * context and seqno). */
static void job(tbuf *b, uint64_t ts, int what, uint32_t tid, const char *ring, uint64_t x, uint64_t y, int fence_ids)
{
	static const Perfetto__Protos__FtraceEvent__EventCase cases[2][3] = {
		{ PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DRM_SCHED_JOB, PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DRM_RUN_JOB,
		  PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DRM_SCHED_PROCESS_JOB },
		{ PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DRM_SCHED_JOB_QUEUE,
		  PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DRM_SCHED_JOB_RUN,
		  PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DRM_SCHED_JOB_DONE },
	};
	Perfetto__Protos__DrmSchedJobFtraceEvent q = PERFETTO__PROTOS__DRM_SCHED_JOB_FTRACE_EVENT__INIT;
	Perfetto__Protos__DrmSchedProcessJobFtraceEvent d = PERFETTO__PROTOS__DRM_SCHED_PROCESS_JOB_FTRACE_EVENT__INIT;
	Perfetto__Protos__DrmSchedJobRunFtraceEvent r = PERFETTO__PROTOS__DRM_SCHED_JOB_RUN_FTRACE_EVENT__INIT;
	Perfetto__Protos__DrmSchedJobDoneFtraceEvent fd = PERFETTO__PROTOS__DRM_SCHED_JOB_DONE_FTRACE_EVENT__INIT;
	void *old[] = { &q, &q, &d }, *since[] = { &r, &r, &fd };

	q.has_id = q.has_fence = d.has_fence = 1;
	q.fence = d.fence = x;
	q.id = y;
	r.has_fence_context = r.has_fence_seqno = fd.has_fence_context = fd.has_fence_seqno = 1;
	r.fence_context = fd.fence_context = x;
	r.fence_seqno = fd.fence_seqno = y;
	q.name = r.name = (char *)ring;
	ft_msg(b, ts, tid, cases[fence_ids][what], fence_ids ? since[what] : old[what]);
}

enum { F_INIT, F_EMIT, F_SIGNALED, F_WAIT_START, F_WAIT_END };

static void fence(tbuf *b, uint64_t ts, int what, uint32_t tid, const char *timeline, uint32_t ctx, uint32_t seqno)
{
	Perfetto__Protos__DmaFenceFtraceEvent f = PERFETTO__PROTOS__DMA_FENCE_FTRACE_EVENT__INIT;
	static const Perfetto__Protos__FtraceEvent__EventCase cases[] = {
		PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DMA_FENCE_INIT, PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DMA_FENCE_EMIT,
		PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DMA_FENCE_SIGNALED,
		PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DMA_FENCE_WAIT_START,
		PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DMA_FENCE_WAIT_END,
	};

	f.has_context = f.has_seqno = 1;
	f.context = ctx;
	f.seqno = seqno;
	f.timeline = (char *)timeline;
	ft_msg(b, ts, tid, cases[what], &f); /* (one message for the five) */
}

/* Vblanks on their crtc's track; old-style jobs: queued on the thread,
 * run one at a time on the ring (the second begins when the first is
 * done), each with a flow from its queue instant; a done of a job never
 * run ends nothing. */
static void test_vblank_and_old_jobs(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	vblank(&b, 5, 0, 1, 77);
	vblank(&b, 6, 1, 1, 77);
	job(&b, 10, 0, 100, "gfx", 0, 1, 0);
	job(&b, 11, 0, 101, "gfx", 0, 2, 0);
	job(&b, 20, 1, 0, "gfx", 500, 1, 0);
	job(&b, 21, 1, 0, "gfx", 501, 2, 0);
	job(&b, 30, 2, 0, NULL, 500, 0, 0);
	job(&b, 40, 2, 0, NULL, 501, 0, 0);
	job(&b, 50, 2, 0, NULL, 999, 0, 0);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, SLICES_SQL " order by s.ts",
			   "5\t0\tvblank-1\tdrm_vblank\tsignal\tvblank seqno=77\n"
			   "6\t0\tvblank-1\tdrm_vblank\tdeliver\tvblank seqno=77\n"
			   "10\t0\tNULL\tthread\tdrm_sched_job_queue\tgpu sched ring=gfx gpu sched job=1\n"
			   "11\t0\tNULL\tthread\tdrm_sched_job_queue\tgpu sched ring=gfx gpu sched job=2\n"
			   "20\t10\tsched-gfx\tdrm_sched_ring\tjob\tgpu sched job=1\n"
			   "30\t10\tsched-gfx\tdrm_sched_ring\tjob\tgpu sched job=2\n");
	tt_test_assert_tsv(tr, "select o.ts, i.ts from flow f join slice o on o.id = f.slice_out"
			       " join slice i on i.id = f.slice_in order by o.ts",
			   "10\t20\n11\t30\n");
	tt_test_assert_tsv(tr, "select name from gpu_track order by id", "vblank-1\nsched-gfx\n");
	tt_test_assert_tsv(tr, "select a.key, a.display_value from track t join args a"
			       " on a.arg_set_id = t.dimension_arg_set_id where t.type = 'drm_vblank'",
			   "drm_crtc\t1\n");
	tb_close(tr, path, &b);
}

/* Since 6.17: jobs by their fence ids; two rings apart. */
static void test_fence_id_jobs(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	job(&b, 10, 0, 100, "gfx_0", 7, 1, 1);
	job(&b, 12, 0, 100, "comp", 8, 1, 1);
	job(&b, 20, 1, 0, "gfx_0", 7, 1, 1);
	job(&b, 21, 1, 0, "comp", 8, 1, 1);
	job(&b, 25, 2, 0, NULL, 8, 1, 1);
	job(&b, 30, 2, 0, NULL, 7, 1, 1);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, SLICES_SQL " where t.type = 'drm_sched_ring' order by s.ts",
			   "20\t10\tsched-gfx_0\tdrm_sched_ring\tjob\tfence context=7 fence seqno=1\n"
			   "21\t4\tsched-comp\tdrm_sched_ring\tjob\tfence context=8 fence seqno=1\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from flow"), 2);
	tb_close(tr, path, &b);
}

/* Fence timelines: init begins a fence's slice, signal ends it (a
 * signal of an older seqno ends nothing); once a timeline emits, its
 * inits are ignored and what was pending ends; "unbound" timelines are
 * left out; a wait is a slice on the waiting thread. */
static void test_fences(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	fence(&b, 10, F_INIT, 1, "ring", 3, 5);
	fence(&b, 11, F_INIT, 1, "ring", 3, 6);
	fence(&b, 12, F_SIGNALED, 1, "ring", 3, 4);
	fence(&b, 20, F_SIGNALED, 1, "ring", 3, 5);
	fence(&b, 30, F_EMIT, 1, "ring", 3, 7);
	fence(&b, 31, F_INIT, 1, "ring", 3, 8);
	fence(&b, 40, F_SIGNALED, 1, "ring", 3, 7);
	fence(&b, 41, F_INIT, 1, "unbound", 4, 1);
	fence(&b, 50, F_WAIT_START, 200, "ring", 3, 9);
	fence(&b, 60, F_WAIT_END, 200, "ring", 3, 9);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, SLICES_SQL " order by s.ts",
			   "10\t10\tfence-ring-3\tdrm_fence\tfence\tfence seqno=5\n"
			   "20\t10\tfence-ring-3\tdrm_fence\tfence\tfence seqno=6\n"
			   "30\t10\tfence-ring-3\tdrm_fence\tfence\tfence seqno=7\n"
			   "50\t10\tNULL\tthread\tdma_fence_wait\tfence context=3 fence seqno=9\n");
	tt_test_assert_tsv(tr, "select a.key, a.display_value from track t join args a"
			       " on a.arg_set_id = t.dimension_arg_set_id where t.type = 'drm_fence' order by a.id",
			   "name\tring\ncontext\t3\n");
	tb_close(tr, path, &b);
}

static void v4l2(tbuf *b, uint64_t ts, int dq, uint32_t tid, uint32_t index, uint32_t flags)
{
	Perfetto__Protos__V4l2QbufFtraceEvent q = PERFETTO__PROTOS__V4L2_QBUF_FTRACE_EVENT__INIT;

	q.has_index = q.has_type = q.has_flags = q.has_field = q.has_timecode_type = 1;
	q.index = index;
	q.type = 9;
	q.flags = flags;
	q.field = 1;
	q.timecode_type = 3;
	ft_msg(b, ts, tid, dq ? PERFETTO__PROTOS__FTRACE_EVENT__EVENT_V4L2_DQBUF : PERFETTO__PROTOS__FTRACE_EVENT__EVENT_V4L2_QBUF,
	       &q); /* (one message for both) */
}

/* V4L2: an instant per buffer event on the writing thread, its fields
 * as args by their names; a dequeue has a flow from the queue of the
 * same buffer; a vb2 event is named with type and index 0. */
static void test_v4l2(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	FEv e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__Vb2V4l2FtraceEvent v = PERFETTO__PROTOS__VB2_V4L2_FTRACE_EVENT__INIT;

	(void)state;
	v4l2(&b, 10, 0, 7, 19, 0x2003);
	v4l2(&b, 11, 0, 7, 20, 0);
	v4l2(&b, 20, 1, 8, 19, 0x4);
	v.has_sequence = 1;
	v.sequence = 3;
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_VB2_V4L2_BUF_DONE;
	e.vb2_v4l2_buf_done = &v;
	ft_event_cpu(&b, 30, 0, 8, &e, NULL);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select s.ts, s.name, s.category, t.type from slice s join track t on t.id = s.track_id"
			       " order by s.ts",
			   "10\tVIDIOC_QBUF minor=0 seq=0 type=9 index=19\tVideo 4 Linux 2\tthread\n"
			   "11\tVIDIOC_QBUF minor=0 seq=0 type=9 index=20\tVideo 4 Linux 2\tthread\n"
			   "20\tVIDIOC_DQBUF minor=0 seq=0 type=9 index=19\tVideo 4 Linux 2\tthread\n"
			   "30\tvb2_v4l2_buf_done minor=0 seq=3 type=0 index=0\tVideo 4 Linux 2\tthread\n");
	tt_test_assert_tsv(tr, "select o.ts, i.ts from flow f join slice o on o.id = f.slice_out"
			       " join slice i on i.id = f.slice_in",
			   "10\t20\n");
	tt_test_assert_tsv(tr, "select a.key, a.display_value from slice s join args a using (arg_set_id)"
			       " where s.ts = 10 order by a.id",
			   "minor\t0\nindex\t19\ntype\tVIDEO_CAPTURE_MPLANE\nbytesused\t0\n"
			   "flags\tMAPPED|QUEUED|TIMESTAMP_MASK|TIMESTAMP_MONOTONIC\nfield\tNONE\ntimestamp\t0\n"
			   "timecode_type\t30FPS\ntimecode_flags\tUSERBITS_USERDEFINED\ntimecode_frames\t0\n"
			   "timecode_seconds\t0\ntimecode_minutes\t0\ntimecode_hours\t0\ntimecode_userbits0\t0\n"
			   "timecode_userbits1\t0\ntimecode_userbits2\t0\ntimecode_userbits3\t0\nsequence\t0\n");
	tt_test_assert_tsv(tr, "select a.display_value from slice s join args a using (arg_set_id)"
			       " where s.ts = 11 and a.key = 'flags'",
			   "TIMESTAMP_UNKNOWN|TSTAMP_SRC_EOF\n");
	tb_close(tr, path, &b);
}

static void virtgpu(tbuf *b, uint64_t ts, int response, uint32_t seqno, uint32_t type, uint64_t fence, uint32_t nfree)
{
	Perfetto__Protos__VirtioGpuCmdFtraceEvent v = PERFETTO__PROTOS__VIRTIO_GPU_CMD_FTRACE_EVENT__INIT;

	v.has_seqno = v.has_type = v.has_fence_id = v.has_num_free = 1;
	v.name = "control";
	v.seqno = seqno;
	v.type = type;
	v.fence_id = fence;
	v.num_free = nfree;
	ft_msg(b, ts, 1, response ? PERFETTO__PROTOS__FTRACE_EVENT__EVENT_VIRTIO_GPU_CMD_RESPONSE :
				    PERFETTO__PROTOS__FTRACE_EVENT__EVENT_VIRTIO_GPU_CMD_QUEUE, &v);
}

static void virtvideo_cmd(tbuf *b, uint64_t ts, int done, uint32_t stream, uint32_t type)
{
	Perfetto__Protos__VirtioVideoCmdFtraceEvent v = PERFETTO__PROTOS__VIRTIO_VIDEO_CMD_FTRACE_EVENT__INIT;

	v.has_stream_id = v.has_type = 1;
	v.stream_id = stream;
	v.type = type;
	ft_msg(b, ts, 1, done ? PERFETTO__PROTOS__FTRACE_EVENT__EVENT_VIRTIO_VIDEO_CMD_DONE :
				PERFETTO__PROTOS__FTRACE_EVENT__EVENT_VIRTIO_VIDEO_CMD, &v);
}

static void virtvideo_res(tbuf *b, uint64_t ts, int done, int32_t stream, int32_t res)
{
	Perfetto__Protos__VirtioVideoResourceQueueFtraceEvent v =
		PERFETTO__PROTOS__VIRTIO_VIDEO_RESOURCE_QUEUE_FTRACE_EVENT__INIT;

	v.has_stream_id = v.has_resource_id = v.has_queue_type = v.has_data_size0 = v.has_timestamp = 1;
	v.stream_id = stream;
	v.resource_id = res;
	v.queue_type = 0x101;
	v.data_size0 = 4096;
	v.timestamp = 77;
	ft_msg(b, ts, 1, done ? PERFETTO__PROTOS__FTRACE_EVENT__EVENT_VIRTIO_VIDEO_RESOURCE_QUEUE_DONE :
				PERFETTO__PROTOS__FTRACE_EVENT__EVENT_VIRTIO_VIDEO_RESOURCE_QUEUE, &v);
}

/* virtio-gpu: a command is a slice from its queueing to its response on
 * the lane of its seqno, named by its type; free slots at each event; a
 * command without a fence gives its latency. virtio-video: a resource's
 * slice on its stream's queue, the done's fields as args; commands are
 * 100 us slices, a second lane when one overlaps. */
static void test_virtio(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	virtgpu(&b, 10, 0, 1, 0x207, 0, 5);
	virtgpu(&b, 12, 0, 2, 0x203, 9, 4);
	virtgpu(&b, 20, 1, 1, 0x1100, 0, 5);
	virtgpu(&b, 30, 1, 2, 0x1100, 9, 6);
	virtvideo_res(&b, 100, 0, 4, 102);
	virtvideo_cmd(&b, 101, 0, 4, 0x105);
	virtvideo_cmd(&b, 150, 0, 4, 0x1ff);
	virtvideo_cmd(&b, 100200, 1, 4, 0x105);
	virtvideo_res(&b, 300, 1, 4, 102);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.name, t.name, t.type,"
			       " extract_arg(t.dimension_arg_set_id, 'track_compressor_idx')"
			       " from slice s join track t on t.id = s.track_id order by s.ts",
			   "10\t10\tSUBMIT_3D\tVirtgpu Control Queue\tvirtgpu_queue_event\t0\n"
			   "12\t18\tCTX_DETACH_RESOURCE\tVirtgpu Control Queue\tvirtgpu_queue_event\t1\n"
			   "100\t200\tResource #102\tvirtio_video stream #4 OUTPUT\tvirtio_video_queue_event\t0\n"
			   "101\t100000\tRESOURCE_QUEUE\tvirtio_video stream #4 Requests\tvirtio_video_command\t0\n"
			   "150\t100000\tUnknown\tvirtio_video stream #4 Requests\tvirtio_video_command\t1\n"
			   "100200\t100000\tRESOURCE_QUEUE\tvirtio_video stream #4 Responses\tvirtio_video_command\t0\n");
	tt_test_assert_tsv(tr, "select c.ts, c.value, t.name, t.type from counter c join track t on t.id = c.track_id"
			       " order by t.name, c.ts",
			   "10\t5.0\tVirtgpu Control Free\tvirtgpu_num_free\n12\t4.0\tVirtgpu Control Free\tvirtgpu_num_free\n"
			   "20\t5.0\tVirtgpu Control Free\tvirtgpu_num_free\n30\t6.0\tVirtgpu Control Free\tvirtgpu_num_free\n"
			   "20\t10.0\tVirtgpu Control Latency\tvirtgpu_latency\n");
	tt_test_assert_tsv(tr, "select a.key, a.display_value from slice s join args a using (arg_set_id)"
			       " where s.ts = 100 order by a.id",
			   "stream_id\t4\nresource_id\t102\nqueue_type\tOUTPUT\ndata_size0\t4096\ndata_size1\t0\n"
			   "data_size2\t0\ndata_size3\t0\ntimestamp\t77\n");
	tb_close(tr, path, &b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vblank_and_old_jobs),
		cmocka_unit_test(test_fence_id_jobs),
		cmocka_unit_test(test_fences),
		cmocka_unit_test(test_v4l2),
		cmocka_unit_test(test_virtio),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
