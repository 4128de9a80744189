/*
 * proto_fs.c - Android's file system reads (android_fs ftrace events) in
 * a Perfetto trace, as trace processor's FtraceParser reads them: an
 * android_fs_dataread_start begins an "android_fs_data_read" slice (args
 * file_path, offset_start, bytes_read_start) on the lanes of the
 * "android_fs" track (trace processor's track compressor, a lane per
 * reading tid); the android_fs_dataread_end of the same inode and offset
 * ends it (args offset_end, bytes_read_end), whoever writes it, on the
 * lane of the first start's reader. An end with no such start open is
 * dropped. In trace order, through the sorter
 * (FT_FS_READ, FT_FS_READ_END). See proto_kernel.c for the other kernel
 * events.
 */
#include "proto_int.h"

void tt_proto_on_fs_event(pctx *c, pseq *ps, int64_t ts, const Perfetto__Protos__FtraceEvent *e)
{
	if (e->event_case == PERFETTO__PROTOS__FTRACE_EVENT__EVENT_ANDROID_FS_DATAREAD_START) {
		const Perfetto__Protos__AndroidFsDatareadStartFtraceEvent *s = e->android_fs_dataread_start;
		const char *path = s->pathbuf ? s->pathbuf : "";

		tt_storage_args_begin(c->st);
		tt_storage_args_str(c->st, "file_path", path, strlen(path));
		tt_storage_args_int(c->st, "offset_start", s->offset);
		tt_storage_args_int(c->st, "bytes_read_start", s->bytes);
		tt_proto_push_ft(c, ps, ts, FT_FS_READ, s->ino, s->offset, 0, (tt_str)e->pid,
				 tt_args_tracker_end(c->im->args));
	} else {
		const Perfetto__Protos__AndroidFsDatareadEndFtraceEvent *d = e->android_fs_dataread_end;

		tt_proto_push_ft(c, ps, ts, FT_FS_READ_END, d->ino, d->offset, 0, 0, (uint32_t)d->bytes);
	}
}

void tt_proto_feed_fs(pctx *c, const prec *r)
{
	uint32_t tid, t, args;

	if (r->scope == FT_FS_READ) {
		tid = (uint32_t)r->cat;
		/* (a second start of an open read keeps the first's reader) */
		if (tt_keymap_get(&c->fs_reads, r->id, (uint64_t)r->u.i, 0, 0) == TT_KEYMAP_NONE &&
		    tt_keymap_put(&c->fs_reads, r->id, (uint64_t)r->u.i, 0, 0, tid)) {
			c->oom = 1;
			return;
		}
		t = tt_proto_lane_track(c, "android_fs", "android_fs", tid, TT_ASYNC_BEGIN);
		if (t != TT_NONE)
			tt_slice_tracker_begin(c->im->slices, t, r->ts, 0, intern_c(c, "android_fs_data_read"), r->args);
		return;
	}
	tid = tt_keymap_get(&c->fs_reads, r->id, (uint64_t)r->u.i, 0, 0);
	if (tid == TT_KEYMAP_NONE)
		return;
	tt_keymap_del(&c->fs_reads, r->id, (uint64_t)r->u.i, 0, 0);
	t = tt_proto_lane_track(c, "android_fs", "android_fs", tid, TT_ASYNC_END);
	if (t == TT_NONE)
		return;
	tt_storage_args_begin(c->st);
	tt_storage_args_int(c->st, "offset_end", r->u.i);
	tt_storage_args_int(c->st, "bytes_read_end", (int32_t)r->args);
	args = tt_args_tracker_end(c->im->args);
	tt_slice_tracker_end_quiet(c->im->slices, t, r->ts, 0, 0, args);
}
