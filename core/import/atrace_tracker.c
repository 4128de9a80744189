/*
 * atrace_tracker.c - atrace markers into slices, counters and tracks (see
 * atrace_tracker.h), as trace processor's SystraceParser stores them.
 */
#include "atrace_tracker.h"

#include "atrace.h"
#include "vec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tt_atrace_tracker {
	tt_import *im;
	tt_storage *st;
	tt_task_lookup tasks;
	/* by atrace_async_slice track: S begins seen, the last one's ts */
	TT_VEC(uint64_t) unnest_n;
	TT_VEC(int64_t) unnest_ts;
	int oom;
};

tt_atrace_tracker *tt_atrace_tracker_new(tt_import *im, const tt_task_lookup *tasks)
{
	tt_atrace_tracker *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->im = im;
	t->st = im->st;
	t->tasks = *tasks;
	return t;
}

void tt_atrace_tracker_free(tt_atrace_tracker *t)
{
	if (!t)
		return;
	TT_VEC_FREE(t->unnest_n);
	TT_VEC_FREE(t->unnest_ts);
	free(t);
}

/* ---- reading: a print's text into a marker ------------------------------- */

int tt_atrace_tracker_read(tt_storage *st, const char *buf, size_t len, tt_atrace_mark *out)
{
	tt_atrace m;
	char small[256], *clean = NULL;
	const char *text = buf ? buf : "";
	size_t i;
	int rc;

	for (i = 0; i < len && !((unsigned char)buf[i] & 0x80); i++)
		;
	if (i < len) {
		clean = len < sizeof(small) ? small : malloc(len);
		if (!clean)
			return -2;
		len = tt_atrace_utf8(buf, len, clean);
		text = clean;
	}
	rc = tt_atrace_parse(text, len, &m);
	if (rc == TT_ATRACE_OK) {
		out->phase = m.phase;
		out->tgid = m.tgid;
		out->value = m.value;
		out->name = m.name ? tt_storage_intern(st, m.name, m.name_len) : 0;
		out->track = m.track ? tt_storage_intern(st, m.track, m.track_len) : 0;
	} else if (rc == TT_ATRACE_BAD) {
		tt_storage_stat_add(st, TT_STAT_systrace_parse_failure, 1);
	}
	if (clean != small)
		free(clean);
	return rc;
}

/* ---- tracks ------------------------------------------------------------------ */

int tt_import_dims_begin(tt_import *im, uint32_t track)
{
	if (track == TT_NONE || tt_storage_track_dimension_args(im->st, track) != TT_NONE)
		return 0;
	tt_storage_args_begin(im->st);
	return 1;
}

void tt_import_dims_end(tt_import *im, uint32_t track)
{
	tt_storage_track_set_dimension_args(im->st, track, tt_args_tracker_end(im->args));
}

uint32_t tt_import_keyed_counter(tt_import *im, const char *kind, uint64_t a, uint64_t b, tt_str name,
				 const char *type, uint32_t upid, int64_t cpu, const char *key, const char *val)
{
	tt_track_desc d = { .type = type, .name = name, .utid = TT_NONE,
			    .upid = upid, .parent_id = TT_NONE, .is_counter = 1, .cpu = cpu };
	uint32_t t = tt_track_tracker_keyed(im->tracks, kind, a, b, name, &d);

	if (tt_import_dims_begin(im, t)) {
		if (cpu >= 0)
			tt_storage_args_uint(im->st, "cpu", (uint64_t)cpu);
		if (upid != TT_NONE)
			tt_storage_args_uint(im->st, "upid", upid);
		if (key)
			tt_storage_args_str(im->st, key, val, val ? strlen(val) : 0);
		tt_import_dims_end(im, t);
	}
	return t;
}

uint32_t tt_import_cpu_counter_track(tt_import *im, const char *type, uint64_t key, const char *name, uint32_t cpu)
{
	return tt_import_keyed_counter(im, "proto-cpu-counter", cpu, key, tt_storage_intern_cstr(im->st, name), type,
				       TT_NONE, cpu, NULL, NULL);
}

uint32_t tt_import_device_counter_track(tt_import *im, const char *type, const char *dim, const char *value,
					size_t n, const char *suffix)
{
	char name[300], val[256];
	size_t k = n < 255 ? n : 255;

	snprintf(name, sizeof(name), "%.*s%s", (int)k, value, suffix);
	memcpy(val, value, k);
	val[k] = '\0';
	return tt_import_keyed_counter(im, type, tt_storage_intern(im->st, value, n), 0, tt_storage_intern_cstr(im->st, name),
				       type, TT_NONE, -1, dim, val);
}

uint32_t tt_import_gpu_freq_track(tt_import *im, uint32_t gpu)
{
	uint32_t ugpu = tt_storage_gpu(im->st, gpu);
	tt_track_desc d = { .type = "gpu_frequency", .name = tt_storage_intern_cstr(im->st, "gpufreq"),
			    .utid = TT_NONE, .upid = TT_NONE, .parent_id = TT_NONE, .is_counter = 1,
			    .unit = tt_storage_intern_cstr(im->st, "kHz"), .cpu = -1 };
	uint32_t t;

	if (ugpu == TT_NONE)
		return TT_NONE;
	t = tt_track_tracker_keyed(im->tracks, "gpu_frequency", gpu, 0, d.name, &d);
	if (tt_import_dims_begin(im, t)) {
		tt_storage_args_uint(im->st, "ugpu", ugpu);
		tt_storage_args_uint(im->st, "gpu", gpu);
		tt_import_dims_end(im, t);
	}
	return t;
}

uint32_t tt_import_oom_score_track(tt_import *im, uint32_t upid)
{
	return tt_import_keyed_counter(im, "proto-proc-stat", upid, 8, tt_storage_intern_cstr(im->st, "oom_score_adj"),
				       "oom_score_adj", upid, -1, NULL, NULL);
}

/* The track of an atrace async slice (S / F: named by the slice; G / H /
 * N: by the track name the marker gives) as trace processor's track
 * compressor makes them: one set per (process, name), a lane per cookie
 * while its slice is open (N: lanes of their own, by time), dimensions
 * upid, name (and the lane). space keeps the two kinds' sets apart (and
 * from the merged descriptor tracks'). */
static uint32_t atrace_async(tt_atrace_tracker *t, uint64_t space, const char *type, uint32_t upid, tt_str name,
			     uint64_t cookie, enum tt_async_kind kind)
{
	tt_track_desc d = { .type = type, .name = name, .utid = TT_NONE, .upid = upid,
			    .parent_id = TT_NONE, .cpu = -1 };
	tt_async_args a = { .ndim = 0 };

	if (upid != TT_NONE)
		a.dim[a.ndim++] = (tt_async_arg){ "upid", 'u', upid, NULL };
	a.dim[a.ndim++] = (tt_async_arg){ "name", 's', name, NULL };
	return tt_async_track_set(t->im->async, space << 32 | upid, 0, name, cookie, &d, &a, kind);
}

/* An arg set of one key: 'u' unsigned or 'i' signed. */
static uint32_t one_arg(tt_atrace_tracker *t, const char *key, int type, int64_t v)
{
	tt_storage_args_begin(t->st);
	if (type == 'u')
		tt_storage_args_uint(t->st, key, (uint64_t)v);
	else
		tt_storage_args_int(t->st, key, v);
	return tt_args_tracker_end(t->im->args);
}

uint32_t tt_import_android_track(tt_import *im, const char *type, const char *name, uint32_t upid, const char *key,
				 tt_str keyval, int counter)
{
	tt_str n = counter && keyval ? keyval : tt_storage_intern_cstr(im->st, name);
	tt_track_desc d = { .type = type, .name = n, .utid = TT_NONE, .upid = upid,
			    .parent_id = TT_NONE, .is_counter = counter, .cpu = -1 };
	uint32_t tr = tt_track_tracker_keyed(im->tracks, type, upid, keyval, 0, &d);

	if ((upid != TT_NONE || key) && tt_import_dims_begin(im, tr)) {
		if (upid != TT_NONE)
			tt_storage_args_uint(im->st, "upid", upid);
		if (key) {
			const char *v = tt_storage_str(im->st, keyval);
			tt_storage_args_str(im->st, key, v, v ? strlen(v) : 0);
		}
		tt_import_dims_end(im, tr);
	}
	return tr;
}

static uint32_t special_track(tt_atrace_tracker *t, const char *type, const char *name, uint32_t upid,
			      const char *key, tt_str keyval, int counter)
{
	return tt_import_android_track(t->im, type, name, upid, key, keyval, counter);
}

/* A low memory kill of process pid at ts: a "mem.lmk" instant on the
 * process's LMK track (android_lmk), as trace processor writes every
 * kind of LMK event. */
static void lmk_instant(tt_atrace_tracker *t, int64_t ts, uint32_t pid)
{
	uint32_t upid = t->tasks.process(t->tasks.ctx, pid);
	uint32_t tr = special_track(t, "android_lmk", "LMK", upid, NULL, 0, 0);

	if (tr != TT_NONE)
		tt_slice_tracker_complete(t->im->slices, tr, ts, 0, 0, tt_storage_intern_cstr(t->st, "mem.lmk"),
					  TT_NONE);
}

/* A slice named "lmk,pid,reason,oom_score_adj,..." (lmkd since Android
 * 12) begun: the killed process's oom_score_adj counter and LMK instant.
 * Empty fields do not count, as trace processor splits the name. */
static void lmk_slice(tt_atrace_tracker *t, int64_t ts, const char *name)
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
		uint32_t upid = t->tasks.process(t->tasks.ctx, pid);
		uint32_t tr = tt_import_oom_score_track(t->im, upid);

		if (tr != TT_NONE)
			tt_storage_counter(t->st, tr, ts, (double)adj);
		lmk_instant(t, ts, (uint32_t)pid);
	}
}

/* ---- storing ------------------------------------------------------------------ */

static void slice_begin(tt_atrace_tracker *t, uint32_t track, int64_t ts, tt_str name, uint32_t args)
{
	int64_t id = tt_slice_tracker_begin(t->im->slices, track, ts, 0, name, args);

	/* (the flows waiting on the track come into a slice as it begins) */
	tt_flow_tracker_slice_begun(t->im->flows, track, id);
}

static void slice_instant(tt_atrace_tracker *t, uint32_t track, int64_t ts, tt_str name, uint32_t args)
{
	int64_t id = tt_slice_tracker_complete(t->im->slices, track, ts, 0, 0, name, args);

	tt_flow_tracker_slice_begun(t->im->flows, track, id);
}

/* The S begins of an atrace_async_slice track so far (kept until its F). */
static int unnest_count(tt_atrace_tracker *t, uint32_t track, int64_t ts)
{
	while (t->unnest_n.n <= track)
		if (TT_VEC_PUSH(t->unnest_n, 0) || TT_VEC_PUSH(t->unnest_ts, 0))
			return -1;
	t->unnest_n.v[track]++;
	t->unnest_ts.v[track] = ts;
	return 0;
}

/* A counter (C): per process on purpose, as long-standing counters are
 * written from any of its threads; the writing thread is the value's
 * arg utid (uint), as trace processor keeps it. */
static void counter(tt_atrace_tracker *t, const tt_atrace_mark *m)
{
	const char *nm = tt_storage_str(t->st, m->name);
	uint32_t track, utid, upid;
	int64_t row;

	if (nm && strcmp(nm, "ScreenState") == 0) {
		track = special_track(t, "screen_state", "ScreenState", TT_NONE, NULL, 0, 1);
	} else if (nm && strncmp(nm, "battery_stats.", 14) == 0) {
		track = special_track(t, "battery_stats", NULL, TT_NONE, "counter_key", m->name, 1);
	} else {
		/* lmkd's kills as a counter of the killed pid (0: the kill is
		 * over): an LMK instant too, the counter kept */
		if (nm && strcmp(nm, "kill_one_process") == 0 && m->value != 0)
			lmk_instant(t, m->ts, (uint32_t)m->value);
		upid = t->tasks.process(t->tasks.ctx, m->tgid);
		track = tt_import_keyed_counter(t->im, "proto-atrace-counter", upid, 0, m->name, "atrace_counter", upid,
						-1, "name", nm);
		utid = t->tasks.thread_or_none(t->tasks.ctx, m->tid);
		if (track != TT_NONE) {
			row = tt_storage_counter(t->st, track, m->ts, (double)m->value);
			if (utid != TT_NONE)
				tt_storage_counter_set_args(t->st, row, one_arg(t, "utid", 'u', utid));
		}
		return;
	}
	if (track != TT_NONE)
		tt_storage_counter(t->st, track, m->ts, (double)m->value);
}

/* S / F: Android's async slices do not nest (PowerManager's wakelocks
 * begin again and again): a begin while one is open only counts, and the
 * slice's end says how many came and when the last did. */
static int async_sf(tt_atrace_tracker *t, const tt_atrace_mark *m)
{
	uint32_t upid = t->tasks.process(t->tasks.ctx, m->tgid), track;

	track = atrace_async(t, 3, "atrace_async_slice", upid, m->name, (uint64_t)m->value,
			     m->phase == 'S' ? TT_ASYNC_BEGIN_SAT : TT_ASYNC_END);
	if (track == TT_NONE)
		return 0;
	if (m->phase == 'S') {
		if (unnest_count(t, track, m->ts))
			return -1;
		if (tt_slice_tracker_enclosing(t->im->slices, track, m->ts) >= 0)
			return 0;
		slice_begin(t, track, m->ts, m->name, one_arg(t, "cookie", 'i', m->value));
		return 0;
	}
	{
		uint32_t args = TT_NONE;

		if (track < t->unnest_n.n && t->unnest_n.v[track]) {
			tt_storage_args_begin(t->st);
			tt_storage_args_int(t->st, "legacy_unnestable_begin_count", (int64_t)t->unnest_n.v[track]);
			tt_storage_args_int(t->st, "legacy_unnestable_last_begin_ts", t->unnest_ts.v[track]);
			args = tt_args_tracker_end(t->im->args);
		}
		tt_slice_tracker_end_match(t->im->slices, track, m->ts, 0, 0, args);
	}
	return 0;
}

/* N / G / H: a named track of the process; the writing thread is utid
 * on the slice, end_utid at its end. */
static void named_track(tt_atrace_tracker *t, const tt_atrace_mark *m)
{
	const char *tn = tt_storage_str(t->st, m->track);
	uint32_t upid, track, utid, args;

	if (m->phase == 'N' && tn && strcmp(tn, "DeviceStateChanged") == 0) {
		/* a top-level track of its own */
		track = special_track(t, "android_device_state", "DeviceStateChanged", TT_NONE, NULL, 0, 0);
		if (track != TT_NONE)
			slice_instant(t, track, m->ts, m->name, TT_NONE);
		return;
	}
	upid = t->tasks.process(t->tasks.ctx, m->tgid);
	track = atrace_async(t, 4, "atrace_async_slice_for_track", upid, m->track,
			     m->phase == 'N' ? (uint64_t)m->ts : (uint64_t)m->value,
			     m->phase == 'N' ? TT_ASYNC_SCOPED : m->phase == 'G' ? TT_ASYNC_BEGIN : TT_ASYNC_END);
	utid = t->tasks.thread(t->tasks.ctx, m->tid);
	args = one_arg(t, m->phase == 'H' ? "end_utid" : "utid", 'u', utid);
	if (track == TT_NONE)
		return;
	if (m->phase == 'N')
		slice_instant(t, track, m->ts, m->name, args);
	else if (m->phase == 'G')
		slice_begin(t, track, m->ts, m->name, args);
	else
		tt_slice_tracker_end_match(t->im->slices, track, m->ts, 0, 0, args);
}

int tt_atrace_tracker_mark(tt_atrace_tracker *t, const tt_atrace_mark *m)
{
	const tt_task_lookup *k = &t->tasks;
	const char *nm;
	uint32_t utid, track;

	/* the writer's thread first, as trace processor's raw table row for
	 * the event makes it before the marker is parsed */
	k->thread(k->ctx, m->tid);
	switch (m->phase) {
	case 'B':
		utid = m->tgid == 0 ? k->thread(k->ctx, m->tid) : k->thread_in(k->ctx, m->tgid, m->tid);
		track = tt_track_tracker_thread(t->im->tracks, utid);
		if (track == TT_NONE)
			break;
		nm = tt_storage_str(t->st, m->name);
		if (nm && strncmp(nm, "lmk,", 4) == 0) {
			/* the slice first (its id before the LMK instant's) */
			int64_t id = tt_slice_tracker_begin(t->im->slices, track, m->ts, 0, m->name, TT_NONE);

			if (id >= 0)
				tt_flow_tracker_slice_begun(t->im->flows, track, id);
			lmk_slice(t, m->ts, nm);
			break;
		}
		slice_begin(t, track, m->ts, m->name, TT_NONE);
		break;
	case 'E':
		utid = m->tgid == 0 ? k->thread_or_none(k->ctx, m->tid) : k->thread_in(k->ctx, m->tgid, m->tid);
		if (utid == TT_NONE)
			break; /* a thread never seen began nothing */
		track = tt_track_tracker_thread(t->im->tracks, utid);
		if (track != TT_NONE)
			tt_slice_tracker_end_match(t->im->slices, track, m->ts, 0, 0, TT_NONE);
		break;
	case 'I':
		utid = m->tgid == 0 ? k->thread(k->ctx, m->tid) : k->thread_in(k->ctx, m->tgid, m->tid);
		track = tt_track_tracker_thread(t->im->tracks, utid);
		if (track != TT_NONE)
			slice_instant(t, track, m->ts, m->name, TT_NONE);
		break;
	case 'C':
		counter(t, m);
		break;
	case 'S':
	case 'F':
		if (async_sf(t, m))
			t->oom = 1;
		break;
	case 'N':
	case 'G':
	case 'H':
		named_track(t, m);
		break;
	}
	return t->oom ? -1 : 0;
}
