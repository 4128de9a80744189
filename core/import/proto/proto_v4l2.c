/*
 * proto_v4l2.c - Video4Linux2's buffer ftrace events in a Perfetto trace,
 * as trace processor's V4l2Tracker reads them: each v4l2_qbuf,
 * v4l2_dqbuf and vb2_v4l2_* event is an instant of category "Video 4
 * Linux 2" on the writing thread, named after the ioctl and the buffer
 * ("VIDIOC_QBUF minor=0 seq=0 type=9 index=19"), the buffer's fields as
 * args (types, fields, flags and timecodes by their videodev2.h names);
 * a buffer dequeued has a flow from the instant that queued it (by minor,
 * sequence, type and index). The args are built when read; the instants
 * go through the sorter (FT_V4L2 records) for the flows' order.
 */
#include "proto_int.h"
#include <stdio.h>

typedef Perfetto__Protos__V4l2QbufFtraceEvent QBuf;
typedef Perfetto__Protos__Vb2V4l2FtraceEvent Vb2;

enum { V_QBUF = 1, V_DQBUF, V_OTHER };

/* What the events share (vb2 events have no index, type nor bytesused). */
struct vbuf {
	int32_t minor;
	int has_index;
	uint32_t index, type, bytesused, flags, field, sequence;
	int64_t timestamp;
	uint32_t tc_type, tc_flags, tc_frames, tc_seconds, tc_minutes, tc_hours, tc_bits[4];
};

static const char *buf_type(uint32_t t)
{
	static const char *const names[] = {
		NULL, "VIDEO_CAPTURE", "VIDEO_OUTPUT", "VIDEO_OVERLAY", "VBI_CAPTURE", "VBI_OUTPUT",
		"SLICED_VBI_CAPTURE", "SLICED_VBI_OUTPUT", "VIDEO_OUTPUT_OVERLAY", "VIDEO_CAPTURE_MPLANE",
		"VIDEO_OUTPUT_MPLANE", "SDR_CAPTURE", "SDR_OUTPUT", "META_CAPTURE", "META_OUTPUT",
	};

	if (t == 0x80)
		return "PRIVATE";
	return t < sizeof(names) / sizeof(names[0]) ? names[t] : NULL;
}

static const char *buf_field(uint32_t f)
{
	static const char *const names[] = { "ANY", "NONE", "TOP", "BOTTOM", "INTERLACED", "SEQ_TB", "SEQ_BT",
					     "ALTERNATE", "INTERLACED_TB", "INTERLACED_BT" };

	return f < sizeof(names) / sizeof(names[0]) ? names[f] : NULL;
}

static const char *tc_type(uint32_t t)
{
	static const char *const names[] = { NULL, "24FPS", "25FPS", "30FPS", "50FPS", "60FPS" };

	return t < sizeof(names) / sizeof(names[0]) ? names[t] : NULL;
}

static void join(char *buf, size_t cap, size_t *n, int on, const char *name)
{
	if (on && *n < cap)
		*n += (size_t)snprintf(buf + *n, cap - *n, "%s%s", *n ? "|" : "", name);
}

/* The buffer's flags by name, '|'-joined, as trace processor lists them
 * (the timestamp and source masks included). */
static void buf_flags(char *buf, size_t cap, uint32_t f)
{
	static const char *const bits[] = { "MAPPED", "QUEUED", "DONE", "KEYFRAME", "PFRAME", "BFRAME", "ERROR",
					    "IN_REQUEST", "TIMECODE", "M2M_HOLD_CAPTURE_BUF", "PREPARED",
					    "NO_CACHE_INVALIDATE", "NO_CACHE_CLEAN" };
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		join(buf, cap, &n, (f >> i) & 1, bits[i]);
	join(buf, cap, &n, (f & 0xe000) != 0, "TIMESTAMP_MASK");
	join(buf, cap, &n, f == 0, "TIMESTAMP_UNKNOWN");
	join(buf, cap, &n, (f & 0x2000) != 0, "TIMESTAMP_MONOTONIC");
	join(buf, cap, &n, (f & 0x4000) != 0, "TIMESTAMP_COPY");
	join(buf, cap, &n, (f & 0x70000) != 0, "TSTAMP_SRC_MASK");
	join(buf, cap, &n, f == 0, "TSTAMP_SRC_EOF");
	join(buf, cap, &n, (f & 0x10000) != 0, "TSTAMP_SRC_SOE");
	join(buf, cap, &n, (f & 0x100000) != 0, "LAST");
	join(buf, cap, &n, (f & 0x800000) != 0, "REQUEST_FD");
}

static void tc_flags(char *buf, size_t cap, uint32_t f)
{
	size_t n = 0;

	buf[0] = '\0';
	join(buf, cap, &n, f == 0, "USERBITS_USERDEFINED");
	join(buf, cap, &n, (f & 1) != 0, "FLAG_DROPFRAME");
	join(buf, cap, &n, (f & 2) != 0, "FLAG_COLORFRAME");
	join(buf, cap, &n, (f & 0xc) == 0x4, "USERBITS_field(01)");
	join(buf, cap, &n, (f & 0xc) == 0x8, "USERBITS_field(10)");
	join(buf, cap, &n, (f & 0xc) == 0xc, "USERBITS_field(11)");
	join(buf, cap, &n, (f & 0x8) != 0, "USERBITS_8BITCHARS");
}

static void str_arg(pctx *c, const char *key, const char *v)
{
	/* (a value with no name: trace processor's NULL string, left out) */
	if (v)
		tt_storage_args_str(c->st, key, v, strlen(v));
}

/* The buffer's args, in trace processor's order. */
static uint32_t buf_args(pctx *c, const struct vbuf *b)
{
	char flags[512];

	tt_storage_args_begin(c->st);
	tt_storage_args_int(c->st, "minor", b->minor);
	if (b->has_index) {
		tt_storage_args_int(c->st, "index", b->index);
		str_arg(c, "type", buf_type(b->type));
		tt_storage_args_int(c->st, "bytesused", b->bytesused);
	}
	buf_flags(flags, sizeof(flags), b->flags);
	str_arg(c, "flags", flags);
	str_arg(c, "field", buf_field(b->field));
	tt_storage_args_int(c->st, "timestamp", b->timestamp);
	str_arg(c, "timecode_type", tc_type(b->tc_type));
	tc_flags(flags, sizeof(flags), b->tc_flags);
	str_arg(c, "timecode_flags", flags);
	tt_storage_args_int(c->st, "timecode_frames", b->tc_frames);
	tt_storage_args_int(c->st, "timecode_seconds", b->tc_seconds);
	tt_storage_args_int(c->st, "timecode_minutes", b->tc_minutes);
	tt_storage_args_int(c->st, "timecode_hours", b->tc_hours);
	tt_storage_args_int(c->st, "timecode_userbits0", b->tc_bits[0]);
	tt_storage_args_int(c->st, "timecode_userbits1", b->tc_bits[1]);
	tt_storage_args_int(c->st, "timecode_userbits2", b->tc_bits[2]);
	tt_storage_args_int(c->st, "timecode_userbits3", b->tc_bits[3]);
	tt_storage_args_int(c->st, "sequence", b->sequence);
	return tt_args_tracker_end(c->im->args);
}

/* The fields every buffer event has, from its message m. */
#define BUF_COMMON(b, m)                                                                                 \
	((b).minor = (m)->minor, (b).flags = (m)->flags, (b).field = (m)->field, (b).timestamp = (m)->timestamp, \
	 (b).sequence = (m)->sequence, (b).tc_type = (m)->timecode_type, (b).tc_flags = (m)->timecode_flags,     \
	 (b).tc_frames = (m)->timecode_frames, (b).tc_seconds = (m)->timecode_seconds,                          \
	 (b).tc_minutes = (m)->timecode_minutes, (b).tc_hours = (m)->timecode_hours,                            \
	 (b).tc_bits[0] = (m)->timecode_userbits0, (b).tc_bits[1] = (m)->timecode_userbits1,                    \
	 (b).tc_bits[2] = (m)->timecode_userbits2, (b).tc_bits[3] = (m)->timecode_userbits3)

/* A buffer's key for its queue's flow. */
static uint64_t buf_key(const struct vbuf *b)
{
	uint64_t k = (uint64_t)(uint32_t)b->minor * 0x9e3779b97f4a7c15ULL;

	k = (k ^ b->sequence) * 0xff51afd7ed558ccdULL;
	k = (k ^ b->type) * 0xc4ceb9fe1a85ec53ULL;
	return k ^ b->index;
}

int tt_proto_on_v4l2_event(pctx *c, pseq *ps, int64_t ts, const Perfetto__Protos__FtraceEvent *e)
{
	struct vbuf b = { 0 };
	const char *what;
	char name[128];
	int kind;

	switch (e->event_case) {
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_V4L2_QBUF:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_V4L2_DQBUF: {
		const QBuf *q = e->v4l2_qbuf; /* (both: one message, the oneof's union) */

		kind = e->event_case == PERFETTO__PROTOS__FTRACE_EVENT__EVENT_V4L2_QBUF ? V_QBUF : V_DQBUF;
		BUF_COMMON(b, q);
		b.has_index = 1;
		b.index = q->index;
		b.type = q->type;
		b.bytesused = q->bytesused;
		snprintf(name, sizeof(name), "%s minor=%d seq=%u type=%u index=%u",
			 kind == V_QBUF ? "VIDIOC_QBUF" : "VIDIOC_DQBUF", b.minor, b.sequence, b.type, b.index);
		break;
	}
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_VB2_V4L2_BUF_QUEUE:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_VB2_V4L2_BUF_DONE:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_VB2_V4L2_QBUF:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_VB2_V4L2_DQBUF: {
		const Vb2 *v = e->vb2_v4l2_buf_queue; /* (the four: one message) */

		kind = V_OTHER;
		BUF_COMMON(b, v);
		/* (vb2_v4l2_dqbuf is named vb2_v4l2_qbuf there too) */
		what = e->event_case == PERFETTO__PROTOS__FTRACE_EVENT__EVENT_VB2_V4L2_BUF_QUEUE ? "vb2_v4l2_buf_queue" :
		       e->event_case == PERFETTO__PROTOS__FTRACE_EVENT__EVENT_VB2_V4L2_BUF_DONE	 ? "vb2_v4l2_buf_done" :
												   "vb2_v4l2_qbuf";
		snprintf(name, sizeof(name), "%s minor=%d seq=%u type=0 index=0", what, b.minor, b.sequence);
		break;
	}
	default:
		return 0;
	}
	tt_proto_push_ft(c, ps, ts, FT_V4L2, (uint64_t)kind << 32 | (uint32_t)e->pid,
			 kind == V_OTHER ? 0 : (int64_t)buf_key(&b), intern_c(c, name), 0, buf_args(c, &b));
	return 1;
}

void tt_proto_feed_v4l2(pctx *c, const prec *r)
{
	uint32_t t = tt_track_tracker_thread(c->im->tracks, tt_proto_thread(c, (int32_t)(uint32_t)r->id));
	int kind = (int)(r->id >> 32);
	uint64_t *queued;
	int64_t slice;

	if (t == TT_NONE)
		return;
	slice = tt_slice_tracker_complete(c->im->slices, t, r->ts, 0, intern_c(c, "Video 4 Linux 2"), r->name, r->args);
	if (kind == V_QBUF) {
		/* (a buffer queued twice keeps its first instant, as there) */
		queued = tt_pmap_find(&c->v4l2_queued, (uint64_t)r->u.i);
		if ((!queued || !*queued) &&
		    tt_pmap_put(&c->v4l2_queued, (uint64_t)r->u.i, slice < 0 ? 0 : (uint64_t)slice + 1))
			c->oom = 1;
	} else if (kind == V_DQBUF && (queued = tt_pmap_find(&c->v4l2_queued, (uint64_t)r->u.i)) && *queued) {
		if (slice >= 0)
			tt_storage_flow_link(c->st, (int64_t)*queued - 1, slice);
		*queued = 0; /* (the buffer is no longer queued) */
	}
}
