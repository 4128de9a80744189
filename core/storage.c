/*
 * storage.c - the columnar, append-only trace storage (see storage.h and
 * storage_int.h). Each table grows all its columns together; strings are
 * interned. The lookups that decide which row an event means are the
 * trackers' (core/import/, the files named *_tracker.c).
 */
#include "storage_args_int.h"
#include "storage_mem.h"
#include "profile.h"
#include "keymap.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- column growth (struct col: storage_args_int.h) ---------------------- */

/* Makes room for one more row in every column; -1 when memory ran out
 * (then the table is unchanged). */
static int resize_cols(tt_storage *st, size_t *cap, size_t ncap, struct col *cols, size_t ncols)
{
	for (size_t i = 0; i < ncols; i++) {
		void *np;

		if (!*cols[i].p && cols[i].esz == 0)
			continue;
		np = tt_colmem_resize(*cols[i].p, ncap * cols[i].esz);
		if (!np) {
			st->oom = 1;
			return -1;
		}
		*cols[i].p = np;
	}
	*cap = ncap;
	return 0;
}

static int grow_cols(tt_storage *st, size_t *cap, size_t n, struct col *cols, size_t ncols)
{
	if (n < *cap)
		return 0;
	/* by half: the columns of a big import are most of its memory, and
	 * a big column grows by remapping, not copying (storage_mem.c) */
	return resize_cols(st, cap, *cap ? *cap + *cap / 2 : 64, cols, ncols);
}

/* The room check comes first: appends run per event, growth rarely. */
#define GROW(st, tbl, ...) \
	((tbl).n < (tbl).cap ? 0 : \
	 ({ struct col cols_[] = { __VA_ARGS__ }; \
	    grow_cols((st), &(tbl).cap, (tbl).n, cols_, sizeof(cols_) / sizeof(cols_[0])); }))

static int keymap_put_oom(tt_storage *st, tt_keymap *m, uint64_t a, uint64_t b, uint64_t c,
			  uint64_t d, uint32_t v)
{
	if (tt_keymap_put(m, a, b, c, d, v) == 0)
		return 0;
	st->oom = 1;
	return -1;
}

/* ---- life cycle ------------------------------------------------------------ */

tt_storage *tt_storage_new(void)
{
	tt_storage *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->strs = tt_strpool_new();
	if (!st->strs) {
		free(st);
		return NULL;
	}
	st->start_ts = 0;
	st->end_ts = 0;
	return st;
}

void tt_storage_free(tt_storage *st)
{
	if (!st)
		return;
	tt_strpool_free(st->strs);
#define F(tbl, ...) do { void *ps_[] = { __VA_ARGS__ }; \
	for (size_t i_ = 0; i_ < sizeof(ps_) / sizeof(ps_[0]); i_++) tt_colmem_free(ps_[i_]); } while (0)
	F(process, st->process.pid, st->process.start_ts, st->process.end_ts,
	  st->process.sort_index, st->process.name, st->process.parent_upid, st->process.uid,
	  st->process.cmdline, st->process.arg_set_id);
	F(thread, st->thread.tid, st->thread.start_ts, st->thread.end_ts, st->thread.sort_index,
	  st->thread.name, st->thread.upid, st->thread.arg_set_id, st->thread.flags);
	F(track, st->track.name, st->track.type, st->track.unit, st->track.description,
	  st->track.parent_id, st->track.utid, st->track.upid, st->track.max_depth,
	  st->track.cpu, st->track.is_counter, st->track.source_arg_set_id,
	  st->track.dimension_arg_set_id);
	free(st->track.row_off); /* finalize's index: malloc's */
	free(st->track.rows);
	F(slice, st->slice.ts, st->slice.dur, st->slice.parent_id, st->slice.thread_ts,
	  st->slice.thread_dur, st->slice.track, st->slice.depth, st->slice.arg_set_id,
	  st->slice.cat, st->slice.name);
	F(counter, st->counter.ts, st->counter.value, st->counter.track);
	F(counter_args, st->counter_args.row, st->counter_args.val);
	F(raw.common_flags, st->raw.common_flags.row, st->raw.common_flags.val);
	F(args, st->args.key, st->args.type, st->args.val);
	F(flow, st->flow.slice_out, st->flow.slice_in, st->flow.trace_id, st->flow.arg_set_id);
	TT_VEC_FREE(st->flow.no_id);
	F(raw, st->raw.ts, st->raw.name);
	tt_packcol_free(&st->raw.ucpu);
	tt_packcol_free(&st->raw.utid);
	tt_packcol_free(&st->raw.arg_set_id);
	F(sched, st->sched.ts, st->sched.dur, st->sched.cpu, st->sched.priority,
	  st->sched.utid, st->sched.end_state);
	F(tstate, st->tstate.ts, st->tstate.dur, st->tstate.cpu, st->tstate.utid, st->tstate.state,
	  st->tstate.io_wait, st->tstate.blocked, st->tstate.waker_utid, st->tstate.waker_id,
	  st->tstate.irq_context);
	F(spurious, st->spurious.ts, st->spurious.tstate_id, st->spurious.utid, st->spurious.waker_utid,
	  st->spurious.irq_context);
	F(import_logs, st->import_logs.ts, st->import_logs.byte_offset, st->import_logs.stat,
	  st->import_logs.arg_set_id);
	F(proto_path, st->proto_path.parent_id, st->proto_path.arg_set_id, st->proto_path.field_type,
	  st->proto_path.field_name);
	F(clock_snap, st->clock_snap.ts, st->clock_snap.clock_id, st->clock_snap.clock_value,
	  st->clock_snap.clock_name, st->clock_snap.snapshot_id);
	F(state, st->state.ts, st->state.dur, st->state.track, st->state.arg_set_id, st->state.cat,
	  st->state.value);
	F(cpus, st->cpus.cpu, st->cpus.cluster_id, st->cpus.arg_set_id, st->cpus.processor, st->cpus.capacity);
	F(cpu_freq, st->cpu_freq.ucpu, st->cpu_freq.freq);
	F(cpu_uid, st->cpu_uid.track, st->cpu_uid.uid, st->cpu_uid.cluster, st->cpu_uid.total_ms);
	TT_VEC_FREE(st->games);
	F(users, st->users.id, st->users.type);
	tt_colmem_free(st->aflags.ts);
	for (int k = 0; k < TT_AFLAG_COLS; k++)
		tt_colmem_free(st->aflags.col[k]);
	F(meta, st->meta.name, st->meta.ival, st->meta.sval, st->meta.multi);
	F(logs, st->logs.ts, st->logs.utid, st->logs.prio, st->logs.tag, st->logs.msg);
	F(packages, st->packages.name, st->packages.uid, st->packages.version_code, st->packages.debuggable,
	  st->packages.profileable);
	TT_VEC_FREE(st->gpus);
	TT_VEC_FREE(st->gpu_groups);
	TT_VEC_FREE(st->gpu_contexts);
	F(named, st->named.stat, st->named.name, st->named.count);
	F(istats, st->istats.stat, st->istats.idx, st->istats.value);
#undef F
	tt_packcol_free(&st->args.set_first);
	free(st->args.merged_in.v);
	free(st->args.dead);
	tt_storage_args_lazy_free(st);
	tt_keymap_free(&st->named_by_key);
	tt_profile_free(st->profile);
	free(st);
}

int tt_storage_oom(const tt_storage *st)
{
	return st->oom || tt_strpool_oom(st->strs) || tt_profile_oom(st->profile);
}

void tt_storage_set_oom(tt_storage *st)
{
	st->oom = 1;
}

/* ---- strings and stats ------------------------------------------------------ */

tt_str tt_storage_intern(tt_storage *st, const char *s, size_t len)
{
	return tt_strpool_intern(st->strs, s, len);
}

tt_str tt_storage_intern_cstr(tt_storage *st, const char *s)
{
	return tt_strpool_intern_cstr(st->strs, s);
}

const char *tt_storage_str(const tt_storage *st, tt_str id)
{
	return tt_strpool_get(st->strs, id);
}

void tt_storage_stat_add(tt_storage *st, tt_stat s, int64_t n)
{
	if ((unsigned)s < TT_STAT_COUNT)
		st->stats[s] += n;
}

void tt_storage_stat_named(tt_storage *st, tt_stat s, const char *name, int64_t n)
{
	tt_str k;
	uint32_t i;

	if ((unsigned)s >= TT_STAT_COUNT)
		return;
	st->stats[s] += n;
	k = tt_storage_intern_cstr(st, name ? name : "");
	i = tt_keymap_get(&st->named_by_key, (uint64_t)s, k, 0, 0);
	if (i == TT_NONE) {
		size_t r = st->named.n;

		if (GROW(st, st->named, COL(st->named.stat), COL(st->named.name), COL(st->named.count)))
			return;
		if (keymap_put_oom(st, &st->named_by_key, (uint64_t)s, k, 0, 0, (uint32_t)r))
			return;
		st->named.stat[r] = (uint16_t)s;
		st->named.name[r] = k;
		st->named.count[r] = 0;
		st->named.n++;
		i = (uint32_t)r;
	}
	st->named.count[i] += n;
}

void tt_storage_stat_set(tt_storage *st, tt_stat s, int64_t v)
{
	if ((unsigned)s < TT_STAT_COUNT && !tt_stat_indexed(s))
		st->stats[s] = v;
}

void tt_storage_stat_set_indexed(tt_storage *st, tt_stat s, int32_t idx, int64_t v)
{
	size_t r, n = st->istats.n;

	if ((unsigned)s >= TT_STAT_COUNT || !tt_stat_indexed(s))
		return;
	/* a few rows (one per buffer of the tracing service): a scan */
	for (r = 0; r < n; r++) {
		if (st->istats.stat[r] == s && st->istats.idx[r] == idx) {
			st->istats.value[r] = v;
			return;
		}
		if (st->istats.stat[r] > s || (st->istats.stat[r] == s && st->istats.idx[r] > idx))
			break;
	}
	if (GROW(st, st->istats, COL(st->istats.stat), COL(st->istats.idx), COL(st->istats.value)))
		return;
	memmove(st->istats.stat + r + 1, st->istats.stat + r, (n - r) * sizeof(*st->istats.stat));
	memmove(st->istats.idx + r + 1, st->istats.idx + r, (n - r) * sizeof(*st->istats.idx));
	memmove(st->istats.value + r + 1, st->istats.value + r, (n - r) * sizeof(*st->istats.value));
	st->istats.stat[r] = (uint16_t)s;
	st->istats.idx[r] = idx;
	st->istats.value[r] = v;
	st->istats.n++;
}

size_t tt_storage_stat_indexed_count(const tt_storage *st)
{
	return st->istats.n;
}

tt_stat tt_storage_stat_indexed_row(const tt_storage *st, size_t r, int32_t *idx, int64_t *value)
{
	*idx = st->istats.idx[r];
	*value = st->istats.value[r];
	return (tt_stat)st->istats.stat[r];
}

int64_t tt_storage_stat_get(const tt_storage *st, tt_stat s)
{
	return (unsigned)s < TT_STAT_COUNT ? st->stats[s] : 0;
}

/* ---- processes and threads ------------------------------------------------ */

/* A process row for pid with every other column unset; the process
 * tracker (core/import/process_tracker.c) decides when one is made. */
uint32_t tt_storage_process_append(tt_storage *st, int64_t pid)
{
	size_t n = st->process.n;

	if (GROW(st, st->process, COL(st->process.pid), COL(st->process.start_ts),
		 COL(st->process.end_ts), COL(st->process.sort_index), COL(st->process.name),
		 COL(st->process.parent_upid), COL(st->process.uid), COL(st->process.cmdline),
		 COL(st->process.arg_set_id)))
		return TT_NONE;
	st->process.pid[n] = pid;
	st->process.start_ts[n] = TT_TS_NONE;
	st->process.end_ts[n] = TT_TS_NONE;
	st->process.sort_index[n] = TT_TS_NONE;
	st->process.name[n] = 0;
	st->process.parent_upid[n] = TT_NONE;
	st->process.uid[n] = TT_TS_NONE;
	st->process.cmdline[n] = 0;
	st->process.arg_set_id[n] = TT_NONE;
	st->process.n++;
	return (uint32_t)n;
}

/* A thread row for tid in upid (TT_NONE: not known yet). */
uint32_t tt_storage_thread_append(tt_storage *st, int64_t tid, uint32_t upid)
{
	size_t n = st->thread.n;

	if (GROW(st, st->thread, COL(st->thread.tid), COL(st->thread.start_ts),
		 COL(st->thread.end_ts), COL(st->thread.sort_index), COL(st->thread.name),
		 COL(st->thread.upid), COL(st->thread.arg_set_id), COL(st->thread.flags)))
		return TT_NONE;
	st->thread.tid[n] = tid;
	st->thread.start_ts[n] = TT_TS_NONE;
	st->thread.end_ts[n] = TT_TS_NONE;
	st->thread.sort_index[n] = TT_TS_NONE;
	st->thread.name[n] = 0;
	st->thread.upid[n] = upid;
	st->thread.arg_set_id[n] = TT_NONE;
	st->thread.flags[n] = 0;
	st->thread.n++;
	return (uint32_t)n;
}

uint32_t tt_storage_process_count(const tt_storage *st)
{
	return (uint32_t)st->process.n;
}

uint32_t tt_storage_thread_count(const tt_storage *st)
{
	return (uint32_t)st->thread.n;
}

/* trace processor reserves upid 0 and utid 0 (pid 0, tid 0) before any
 * event, for the idle process (the process tracker says whether lookups
 * of pid 0 find them). */
int tt_storage_idle_rows(tt_storage *st)
{
	if (st->process.n || st->thread.n) /* (only before anything else) */
		return 0;
	if (tt_storage_process_append(st, 0) == TT_NONE || tt_storage_thread_append(st, 0, 0) == TT_NONE)
		return -1;
	st->idle_rows = 1;
	return 0;
}

void tt_storage_process_set_name(tt_storage *st, uint32_t upid, tt_str name)
{
	if (upid < st->process.n)
		st->process.name[upid] = name;
}

void tt_storage_process_set_parent(tt_storage *st, uint32_t upid, uint32_t parent)
{
	if (upid < st->process.n)
		st->process.parent_upid[upid] = parent;
}

void tt_storage_process_set_cmdline(tt_storage *st, uint32_t upid, tt_str cmdline)
{
	if (upid < st->process.n)
		st->process.cmdline[upid] = cmdline;
}

uint32_t tt_storage_process_parent(const tt_storage *st, uint32_t upid)
{
	return upid < st->process.n ? st->process.parent_upid[upid] : TT_NONE;
}

int64_t tt_storage_process_pid(const tt_storage *st, uint32_t upid)
{
	return upid < st->process.n ? st->process.pid[upid] : -1;
}

tt_str tt_storage_process_cmdline(const tt_storage *st, uint32_t upid)
{
	return upid < st->process.n ? st->process.cmdline[upid] : 0;
}

int tt_storage_process_start(const tt_storage *st, uint32_t upid)
{
	return upid < st->process.n && st->process.start_ts[upid] != TT_TS_NONE;
}

void tt_storage_process_set_start(tt_storage *st, uint32_t upid, int64_t ts)
{
	if (upid < st->process.n)
		st->process.start_ts[upid] = ts;
}

void tt_storage_process_set_uid(tt_storage *st, uint32_t upid, int64_t uid)
{
	if (upid < st->process.n)
		st->process.uid[upid] = uid;
}

tt_str tt_storage_process_name(const tt_storage *st, uint32_t upid)
{
	return upid < st->process.n ? st->process.name[upid] : 0;
}

tt_str tt_storage_thread_name(const tt_storage *st, uint32_t utid)
{
	return utid < st->thread.n ? st->thread.name[utid] : 0;
}

int64_t tt_storage_slice_thread_ts(const tt_storage *st, int64_t id)
{
	if (id < 0 || (size_t)id >= st->slice.n || !st->slice.thread_ts)
		return TT_TS_NONE;
	return st->slice.thread_ts[id];
}

void tt_storage_process_set_arg_set(tt_storage *st, uint32_t upid, uint32_t arg_set_id)
{
	if (upid < st->process.n)
		st->process.arg_set_id[upid] = arg_set_id;
}

uint32_t tt_storage_process_arg_set(const tt_storage *st, uint32_t upid)
{
	return upid < st->process.n ? st->process.arg_set_id[upid] : TT_NONE;
}

void tt_storage_thread_set_arg_set(tt_storage *st, uint32_t utid, uint32_t arg_set_id)
{
	if (utid < st->thread.n)
		st->thread.arg_set_id[utid] = arg_set_id;
}

uint32_t tt_storage_thread_arg_set(const tt_storage *st, uint32_t utid)
{
	return utid < st->thread.n ? st->thread.arg_set_id[utid] : TT_NONE;
}

int64_t tt_storage_process_sort_index(const tt_storage *st, uint32_t upid)
{
	return upid < st->process.n ? st->process.sort_index[upid] : TT_TS_NONE;
}

int64_t tt_storage_thread_sort_index(const tt_storage *st, uint32_t utid)
{
	return utid < st->thread.n ? st->thread.sort_index[utid] : TT_TS_NONE;
}

void tt_storage_process_set_sort_index(tt_storage *st, uint32_t upid, int64_t idx)
{
	if (upid < st->process.n)
		st->process.sort_index[upid] = idx;
}

static void widen(int64_t *start, int64_t *end, int64_t ts)
{
	if (*start == TT_TS_NONE || ts < *start)
		*start = ts;
	if (*end == TT_TS_NONE || ts > *end)
		*end = ts;
}

void tt_storage_process_seen(tt_storage *st, uint32_t upid, int64_t ts)
{
	if (upid < st->process.n)
		widen(&st->process.start_ts[upid], &st->process.end_ts[upid], ts);
}

int64_t tt_storage_thread_tid(const tt_storage *st, uint32_t utid)
{
	return utid < st->thread.n ? st->thread.tid[utid] : -1;
}

void tt_storage_thread_set_upid(tt_storage *st, uint32_t utid, uint32_t upid)
{
	if (utid < st->thread.n)
		st->thread.upid[utid] = upid;
}

void tt_storage_thread_set_name(tt_storage *st, uint32_t utid, tt_str name)
{
	if (utid < st->thread.n)
		st->thread.name[utid] = name;
}

void tt_storage_thread_set_sort_index(tt_storage *st, uint32_t utid, int64_t idx)
{
	if (utid < st->thread.n)
		st->thread.sort_index[utid] = idx;
}

void tt_storage_thread_seen(tt_storage *st, uint32_t utid, int64_t ts)
{
	if (utid < st->thread.n)
		widen(&st->thread.start_ts[utid], &st->thread.end_ts[utid], ts);
}

void tt_storage_thread_set_life(tt_storage *st, uint32_t utid, int end, int64_t ts)
{
	if (utid < st->thread.n)
		(end ? st->thread.end_ts : st->thread.start_ts)[utid] = ts;
}

void tt_storage_process_set_end(tt_storage *st, uint32_t upid, int64_t ts)
{
	if (upid < st->process.n)
		st->process.end_ts[upid] = ts;
}

void tt_storage_thread_set_kind(tt_storage *st, uint32_t utid, int is_main, int is_idle)
{
	if (utid < st->thread.n)
		st->thread.flags[utid] = (uint8_t)(TH_F_MAIN_SET | TH_F_IDLE_SET | (is_main ? TH_F_MAIN : 0) |
						   (is_idle ? TH_F_IDLE : 0));
}

uint32_t tt_storage_thread_upid(const tt_storage *st, uint32_t utid)
{
	return utid < st->thread.n ? st->thread.upid[utid] : TT_NONE;
}

/* ---- tracks -------------------------------------------------------------- */

uint32_t tt_storage_track_new(tt_storage *st, const tt_track_desc *d)
{
	size_t n = st->track.n;

	if (GROW(st, st->track, COL(st->track.name), COL(st->track.type), COL(st->track.unit),
		 COL(st->track.description), COL(st->track.parent_id), COL(st->track.utid),
		 COL(st->track.upid), COL(st->track.max_depth), COL(st->track.cpu),
		 COL(st->track.is_counter), COL(st->track.source_arg_set_id), COL(st->track.dimension_arg_set_id)))
		return TT_NONE;
	st->track.name[n] = d->name;
	st->track.source_arg_set_id[n] = TT_NONE;
	st->track.dimension_arg_set_id[n] = TT_NONE;
	st->track.type[n] = tt_storage_intern_cstr(st, d->type ? d->type : "global");
	st->track.unit[n] = d->unit;
	st->track.description[n] = d->description;
	st->track.parent_id[n] = d->parent_id;
	st->track.utid[n] = d->utid;
	st->track.upid[n] = d->upid;
	st->track.max_depth[n] = 0;
	st->track.cpu[n] = d->cpu;
	st->track.is_counter[n] = d->is_counter ? 1 : 0;
	st->track.n++;
	return (uint32_t)n;
}

uint32_t tt_storage_track_utid(const tt_storage *st, uint32_t track)
{
	return track < st->track.n ? st->track.utid[track] : TT_NONE;
}

uint32_t tt_storage_track_upid(const tt_storage *st, uint32_t track)
{
	return track < st->track.n ? st->track.upid[track] : TT_NONE;
}

void tt_storage_track_set_source_args(tt_storage *st, uint32_t track, uint32_t arg_set_id)
{
	if (track < st->track.n)
		st->track.source_arg_set_id[track] = arg_set_id;
}

void tt_storage_machine(tt_storage *st, int64_t raw_id)
{
	st->machine.set = 1;
	st->machine.raw_id = raw_id;
	st->machine.processes = st->process.n;
	st->machine.threads = st->thread.n;
	st->machine.tracks = st->track.n;
}

uint32_t tt_storage_machine_of(const tt_storage *st, int table, size_t row)
{
	size_t n = table == 'p' ? st->machine.processes : table == 't' ? st->machine.threads : st->machine.tracks;

	return st->machine.set && row < n ? 0 : TT_NONE;
}

void tt_storage_track_set_dimension_args(tt_storage *st, uint32_t track, uint32_t arg_set_id)
{
	if (track < st->track.n)
		st->track.dimension_arg_set_id[track] = arg_set_id;
}

uint32_t tt_storage_track_dimension_args(const tt_storage *st, uint32_t track)
{
	return track < st->track.n ? st->track.dimension_arg_set_id[track] : TT_NONE;
}

/* trace processor's thread tracks ("thread") have one dimension, the
 * thread: given at the end to those the importer gave none (made last,
 * so the other sets keep their ids). */
static void thread_track_dimensions(tt_storage *st)
{
	tt_str thread = tt_strpool_find(st->strs, "thread", 6);

	for (size_t t = 0; thread && t < st->track.n; t++) {
		if (st->track.type[t] != thread || st->track.dimension_arg_set_id[t] != TT_NONE ||
		    st->track.utid[t] == TT_NONE)
			continue;
		tt_storage_args_begin(st);
		tt_storage_args_uint(st, "utid", st->track.utid[t]);
		st->track.dimension_arg_set_id[t] = tt_storage_args_store(st);
	}
}

uint32_t tt_storage_track_source_args(const tt_storage *st, uint32_t track)
{
	return track < st->track.n ? st->track.source_arg_set_id[track] : TT_NONE;
}

void tt_storage_track_set_name(tt_storage *st, uint32_t track, tt_str name)
{
	if (track < st->track.n)
		st->track.name[track] = name;
}

uint32_t tt_storage_track_count(const tt_storage *st)
{
	return (uint32_t)st->track.n;
}

/* ---- counters, flows, raw, sched ------------------------------------------- */

int64_t tt_storage_counter(tt_storage *st, uint32_t track, int64_t ts, double value)
{
	size_t n = st->counter.n;

	if (n >= TT_MAX_ROWS) {
		st->oom = 1;
		return -1;
	}
	if (GROW(st, st->counter, COL(st->counter.ts), COL(st->counter.value), COL(st->counter.track)))
		return -1;
	st->counter.ts[n] = ts;
	st->counter.value[n] = value;
	st->counter.track[n] = track;
	st->counter.n++;
	return (int64_t)n;
}

void tt_storage_counter_set_track(tt_storage *st, int64_t row, uint32_t track)
{
	if (row >= 0 && (size_t)row < st->counter.n)
		st->counter.track[row] = track;
}

void tt_storage_counter_set_value(tt_storage *st, int64_t row, double value)
{
	if (row >= 0 && (size_t)row < st->counter.n)
		st->counter.value[row] = value;
}

/* row's value in v (set again: replaced). */
static void rowvals_set(tt_storage *st, struct tt_rowvals *v, uint32_t row, uint32_t val)
{
	size_t n = v->n, i = n;

	/* (rows come in ascending: the place is nearly always the end) */
	while (i > 0 && v->row[i - 1] >= row)
		i--;
	if (i < n && v->row[i] == row) {
		v->val[i] = val;
		return;
	}
	if (GROW(st, *v, COL(v->row), COL(v->val)))
		return;
	memmove(v->row + i + 1, v->row + i, (n - i) * sizeof(uint32_t));
	memmove(v->val + i + 1, v->val + i, (n - i) * sizeof(uint32_t));
	v->row[i] = row;
	v->val[i] = val;
	v->n++;
}

/* row's value in v, or none (TT_NONE). */
static uint32_t rowvals_get(const struct tt_rowvals *v, size_t row)
{
	size_t lo = 0, hi = v->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v->row[mid] < row)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < v->n && v->row[lo] == row ? v->val[lo] : TT_NONE;
}

void tt_storage_counter_set_args(tt_storage *st, int64_t row, uint32_t arg_set_id)
{
	if (row >= 0 && (size_t)row < st->counter.n && arg_set_id != TT_NONE)
		rowvals_set(st, &st->counter_args, (uint32_t)row, arg_set_id);
}

uint32_t tt_storage_counter_args(const tt_storage *st, size_t row)
{
	return rowvals_get(&st->counter_args, row);
}

void tt_storage_raw_set_common_flags(tt_storage *st, int64_t row, uint16_t flags)
{
	if (row >= 0 && (size_t)row < st->raw.n)
		rowvals_set(st, &st->raw.common_flags, (uint32_t)row, flags);
}

uint32_t tt_storage_raw_common_flags(const tt_storage *st, size_t row)
{
	return rowvals_get(&st->raw.common_flags, row);
}

int64_t tt_storage_flow(tt_storage *st, int64_t out, int64_t in, uint64_t trace_id, uint32_t arg_set_id)
{
	size_t n = st->flow.n;

	if (GROW(st, st->flow, COL(st->flow.slice_out), COL(st->flow.slice_in), COL(st->flow.trace_id),
		 COL(st->flow.arg_set_id)))
		return -1;
	st->flow.slice_out[n] = out;
	st->flow.slice_in[n] = in;
	st->flow.trace_id[n] = trace_id;
	st->flow.arg_set_id[n] = arg_set_id;
	st->flow.n++;
	return (int64_t)n;
}

int64_t tt_storage_flow_link(tt_storage *st, int64_t out, int64_t in)
{
	int64_t row = tt_storage_flow(st, out, in, 0, TT_NONE);

	if (row >= 0 && TT_VEC_PUSH(st->flow.no_id, row)) {
		st->oom = 1;
		return -1;
	}
	return row;
}

int tt_storage_flow_has_id(const tt_storage *st, size_t row)
{
	size_t lo = 0, hi = st->flow.no_id.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((size_t)st->flow.no_id.v[mid] < row)
			lo = mid + 1;
		else
			hi = mid;
	}
	return !(lo < st->flow.no_id.n && (size_t)st->flow.no_id.v[lo] == row);
}

int64_t tt_storage_proto_path(tt_storage *st, uint32_t parent_id, tt_str field_type, tt_str field_name,
			      uint32_t arg_set_id)
{
	size_t n = st->proto_path.n;

	if (GROW(st, st->proto_path, COL(st->proto_path.parent_id), COL(st->proto_path.arg_set_id),
		 COL(st->proto_path.field_type), COL(st->proto_path.field_name)))
		return -1;
	st->proto_path.parent_id[n] = parent_id;
	st->proto_path.arg_set_id[n] = arg_set_id;
	st->proto_path.field_type[n] = field_type;
	st->proto_path.field_name[n] = field_name;
	st->proto_path.n++;
	return (int64_t)n;
}

int64_t tt_storage_clock_snapshot(tt_storage *st, int64_t ts, int64_t clock_id, int64_t clock_value, tt_str name,
				  uint32_t snapshot_id)
{
	size_t n = st->clock_snap.n;

	if (GROW(st, st->clock_snap, COL(st->clock_snap.ts), COL(st->clock_snap.clock_id),
		 COL(st->clock_snap.clock_value), COL(st->clock_snap.clock_name), COL(st->clock_snap.snapshot_id)))
		return -1;
	st->clock_snap.ts[n] = ts;
	st->clock_snap.clock_id[n] = clock_id;
	st->clock_snap.clock_value[n] = clock_value;
	st->clock_snap.clock_name[n] = name;
	st->clock_snap.snapshot_id[n] = snapshot_id;
	st->clock_snap.n++;
	return (int64_t)n;
}

int64_t tt_storage_raw(tt_storage *st, int64_t ts, tt_str name, int64_t cpu, uint32_t utid,
		       uint32_t arg_set_id)
{
	size_t n = st->raw.n;

	uint32_t ucpu = TT_NONE;

	if (cpu >= 0 && cpu < 64) {
		/* events of several CPUs interleave: no search per event */
		if (!st->raw.ucpu_of[cpu])
			st->raw.ucpu_of[cpu] = tt_storage_cpu(st, cpu) + 1;
		ucpu = st->raw.ucpu_of[cpu] - 1;
	} else if (cpu >= 0) {
		ucpu = tt_storage_cpu(st, cpu);
	}
	if (GROW(st, st->raw, COL(st->raw.ts), COL(st->raw.name)))
		return -1;
	if (tt_packcol_push(&st->raw.ucpu, (uint32_t)(ucpu + 1)) ||
	    tt_packcol_push(&st->raw.utid, (uint32_t)(utid + 1)) ||
	    tt_packcol_push(&st->raw.arg_set_id, (uint32_t)(arg_set_id + 1))) {
		tt_packcol_truncate(&st->raw.ucpu, n);
		tt_packcol_truncate(&st->raw.utid, n);
		st->oom = 1;
		return -1;
	}
	st->raw.ts[n] = ts;
	st->raw.name[n] = name;
	st->raw.n++;
	return (int64_t)n;
}

int64_t tt_storage_sched(tt_storage *st, int64_t ts, int64_t dur, int64_t cpu, uint32_t utid,
			 tt_str end_state, int64_t priority)
{
	size_t n = st->sched.n;

	if (GROW(st, st->sched, COL(st->sched.ts), COL(st->sched.dur), COL(st->sched.cpu),
		 COL(st->sched.priority), COL(st->sched.utid), COL(st->sched.end_state)))
		return -1;
	st->sched.ts[n] = ts;
	st->sched.dur[n] = dur;
	st->sched.cpu[n] = cpu;
	st->sched.priority[n] = priority;
	st->sched.utid[n] = utid;
	st->sched.end_state[n] = end_state;
	st->sched.n++;
	return (int64_t)n;
}

uint32_t tt_storage_cpu(tt_storage *st, int64_t cpu)
{
	size_t n = st->cpus.n;

	for (size_t i = 0; i < n; i++)
		if (st->cpus.cpu[i] == cpu)
			return (uint32_t)i;
	if (GROW(st, st->cpus, COL(st->cpus.cpu), COL(st->cpus.cluster_id), COL(st->cpus.arg_set_id),
		 COL(st->cpus.processor), COL(st->cpus.capacity)))
		return TT_NONE;
	st->cpus.cpu[n] = cpu;
	st->cpus.cluster_id[n] = 0;
	st->cpus.arg_set_id[n] = TT_NONE;
	st->cpus.processor[n] = 0;
	st->cpus.capacity[n] = -1;
	st->cpus.n++;
	return (uint32_t)n;
}

void tt_storage_cpu_info(tt_storage *st, uint32_t ucpu, uint32_t cluster_id, tt_str processor, int64_t capacity,
			 uint32_t arg_set_id)
{
	if (ucpu >= st->cpus.n)
		return;
	st->cpus.cluster_id[ucpu] = cluster_id;
	if (processor)
		st->cpus.processor[ucpu] = processor;
	if (capacity >= 0)
		st->cpus.capacity[ucpu] = capacity;
	st->cpus.arg_set_id[ucpu] = arg_set_id;
}

int tt_storage_android_user(tt_storage *st, int64_t user_id, tt_str type)
{
	size_t n = st->users.n;

	for (size_t i = 0; i < n; i++)
		if (st->users.id[i] == user_id) {
			st->users.type[i] = type;
			return 0;
		}
	if (GROW(st, st->users, COL(st->users.id), COL(st->users.type)))
		return -1;
	st->users.id[n] = user_id;
	st->users.type[n] = type;
	st->users.n++;
	return 0;
}

int tt_storage_game(tt_storage *st, const tt_game_row *row)
{
	if (TT_VEC_PUSH(st->games, *row)) {
		st->oom = 1;
		return -1;
	}
	return 0;
}

int tt_storage_aflag(tt_storage *st, int64_t ts, const tt_str col[TT_AFLAG_COLS])
{
	size_t n = st->aflags.n;
	struct col cols[TT_AFLAG_COLS + 1] = { COL(st->aflags.ts) };

	for (int k = 0; k < TT_AFLAG_COLS; k++)
		cols[k + 1] = (struct col)COL(st->aflags.col[k]);
	if (n == st->aflags.cap && grow_cols(st, &st->aflags.cap, n, cols, TT_AFLAG_COLS + 1))
		return -1;
	st->aflags.ts[n] = ts;
	for (int k = 0; k < TT_AFLAG_COLS; k++)
		st->aflags.col[k][n] = col[k];
	st->aflags.n++;
	return 0;
}

int tt_storage_cpu_per_uid(tt_storage *st, uint32_t track, int64_t uid, int64_t cluster, int64_t total_ms)
{
	size_t n = st->cpu_uid.n;

	if (GROW(st, st->cpu_uid, COL(st->cpu_uid.track), COL(st->cpu_uid.uid), COL(st->cpu_uid.cluster),
		 COL(st->cpu_uid.total_ms)))
		return -1;
	st->cpu_uid.track[n] = track;
	st->cpu_uid.uid[n] = uid;
	st->cpu_uid.cluster[n] = cluster;
	st->cpu_uid.total_ms[n] = total_ms;
	st->cpu_uid.n++;
	return 0;
}

int tt_storage_cpu_freq(tt_storage *st, uint32_t ucpu, uint32_t khz)
{
	size_t n = st->cpu_freq.n;

	if (GROW(st, st->cpu_freq, COL(st->cpu_freq.ucpu), COL(st->cpu_freq.freq)))
		return -1;
	st->cpu_freq.ucpu[n] = ucpu;
	st->cpu_freq.freq[n] = khz;
	st->cpu_freq.n++;
	return 0;
}

int64_t tt_storage_thread_state(tt_storage *st, int64_t ts, int64_t dur, int64_t cpu,
				uint32_t utid, tt_str state)
{
	size_t n = st->tstate.n;

	if (GROW(st, st->tstate, COL(st->tstate.ts), COL(st->tstate.dur), COL(st->tstate.cpu),
		 COL(st->tstate.utid), COL(st->tstate.state), COL(st->tstate.io_wait),
		 COL(st->tstate.blocked), COL(st->tstate.waker_utid), COL(st->tstate.waker_id),
		 COL(st->tstate.irq_context)))
		return -1;
	st->tstate.io_wait[n] = TT_TS_NONE;
	st->tstate.blocked[n] = 0;
	st->tstate.waker_utid[n] = TT_NONE;
	st->tstate.waker_id[n] = TT_NONE;
	st->tstate.irq_context[n] = -1;
	st->tstate.ts[n] = ts;
	st->tstate.dur[n] = dur;
	st->tstate.cpu[n] = cpu;
	st->tstate.utid[n] = utid;
	st->tstate.state[n] = state;
	st->tstate.n++;
	return (int64_t)n;
}

void tt_storage_thread_state_blocked(tt_storage *st, int64_t row, int64_t io_wait, tt_str function)
{
	if (row < 0 || (size_t)row >= st->tstate.n)
		return;
	st->tstate.io_wait[row] = io_wait;
	st->tstate.blocked[row] = function;
}

void tt_storage_thread_state_waker(tt_storage *st, int64_t row, uint32_t waker_utid, uint32_t waker_id,
				   int irq_context)
{
	if (row < 0 || (size_t)row >= st->tstate.n)
		return;
	st->tstate.waker_utid[row] = waker_utid;
	st->tstate.waker_id[row] = waker_id;
	st->tstate.irq_context[row] = (int8_t)(irq_context < 0 ? -1 : irq_context != 0);
}

int64_t tt_storage_spurious_wakeup(tt_storage *st, int64_t ts, uint32_t tstate_id, int irq_context, uint32_t utid,
				   uint32_t waker_utid)
{
	size_t n = st->spurious.n;

	if (GROW(st, st->spurious, COL(st->spurious.ts), COL(st->spurious.tstate_id), COL(st->spurious.utid),
		 COL(st->spurious.waker_utid), COL(st->spurious.irq_context)))
		return -1;
	st->spurious.ts[n] = ts;
	st->spurious.tstate_id[n] = tstate_id;
	st->spurious.irq_context[n] = (int8_t)(irq_context < 0 ? -1 : irq_context != 0);
	st->spurious.utid[n] = utid;
	st->spurious.waker_utid[n] = waker_utid;
	st->spurious.n++;
	return (int64_t)n;
}

static int64_t import_log(tt_storage *st, tt_stat stat, int64_t ts, int64_t byte_offset, uint32_t arg_set_id)
{
	size_t n = st->import_logs.n;

	if (GROW(st, st->import_logs, COL(st->import_logs.ts), COL(st->import_logs.byte_offset),
		 COL(st->import_logs.stat), COL(st->import_logs.arg_set_id)))
		return -1;
	st->import_logs.ts[n] = ts;
	st->import_logs.byte_offset[n] = byte_offset;
	st->import_logs.stat[n] = (uint16_t)stat;
	st->import_logs.arg_set_id[n] = arg_set_id;
	st->import_logs.n++;
	return (int64_t)n;
}

int64_t tt_storage_import_log(tt_storage *st, tt_stat stat, int64_t ts, uint32_t arg_set_id)
{
	return import_log(st, stat, ts, TT_TS_NONE, arg_set_id);
}

int64_t tt_storage_import_log_at(tt_storage *st, tt_stat stat, int64_t byte_offset, uint32_t arg_set_id)
{
	return import_log(st, stat, TT_TS_NONE, byte_offset, arg_set_id);
}

int64_t tt_storage_state(tt_storage *st, int64_t ts, uint32_t track, tt_str cat, tt_str value,
			 uint32_t arg_set_id)
{
	size_t n = st->state.n;

	if (GROW(st, st->state, COL(st->state.ts), COL(st->state.dur), COL(st->state.track),
		 COL(st->state.arg_set_id), COL(st->state.cat), COL(st->state.value)))
		return -1;
	st->state.ts[n] = ts;
	st->state.dur[n] = -1;
	st->state.track[n] = track;
	st->state.arg_set_id[n] = arg_set_id;
	st->state.cat[n] = cat;
	st->state.value[n] = value;
	st->state.n++;
	return (int64_t)n;
}

void tt_storage_state_end(tt_storage *st, int64_t id, int64_t ts)
{
	if (id >= 0 && (size_t)id < st->state.n)
		st->state.dur[id] = ts - st->state.ts[id];
}

void tt_storage_state_set_arg_set(tt_storage *st, int64_t id, uint32_t arg_set_id)
{
	if (id >= 0 && (size_t)id < st->state.n)
		st->state.arg_set_id[id] = arg_set_id;
}

uint32_t tt_storage_state_arg_set(const tt_storage *st, int64_t id)
{
	return id >= 0 && (size_t)id < st->state.n ? st->state.arg_set_id[id] : TT_NONE;
}

/* ---- slices ---------------------------------------------------------------- */

/* The slices' arg_set_id column, made when the first slice has args (the
 * rows before read TT_NONE): slices without any (atrace's, a trace of
 * plain begin/end events) cost no 4 bytes each for a column of TT_NONE.
 * 0, or -1 out of memory (st->oom set). */
static int slice_args_col(tt_storage *st)
{
	st->slice.arg_set_id = tt_colmem_resize(NULL, st->slice.cap * sizeof(uint32_t));
	if (!st->slice.arg_set_id) {
		st->oom = 1;
		return -1;
	}
	for (size_t i = 0; i < st->slice.n; i++)
		st->slice.arg_set_id[i] = TT_NONE;
	return 0;
}

int64_t tt_storage_slice_append(tt_storage *st, uint32_t track, int64_t ts, int64_t dur,
				tt_str cat, tt_str name, uint32_t depth, int64_t parent_id,
				uint32_t arg_set_id)
{
	size_t n = st->slice.n;

	if (n >= TT_MAX_ROWS) {
		st->oom = 1;
		return -1;
	}
	if (GROW(st, st->slice, COL(st->slice.ts), COL(st->slice.dur), COL(st->slice.parent_id),
		 COL(st->slice.track), COL(st->slice.depth), COL(st->slice.cat), COL(st->slice.name),
		 /* optional columns grow only once they exist */
		 OPT_COL(st->slice.arg_set_id), OPT_COL(st->slice.thread_ts), OPT_COL(st->slice.thread_dur)))
		return -1;
	if (arg_set_id != TT_NONE && !st->slice.arg_set_id && slice_args_col(st))
		return -1;
	st->slice.ts[n] = ts;
	st->slice.dur[n] = dur;
	st->slice.parent_id[n] = parent_id < 0 ? -1 : (int32_t)parent_id;
	st->slice.track[n] = track;
	st->slice.depth[n] = depth;
	if (st->slice.arg_set_id)
		st->slice.arg_set_id[n] = arg_set_id;
	st->slice.cat[n] = cat;
	st->slice.name[n] = name;
	if (st->slice.thread_ts) {
		st->slice.thread_ts[n] = TT_TS_NONE;
		st->slice.thread_dur[n] = TT_TS_NONE;
	}
	st->slice.n++;
	return (int64_t)n;
}

void tt_storage_slice_set_dur(tt_storage *st, int64_t id, int64_t dur)
{
	if (id >= 0 && (size_t)id < st->slice.n)
		st->slice.dur[id] = dur;
}

void tt_storage_slice_set_args(tt_storage *st, int64_t id, uint32_t arg_set_id)
{
	if (id < 0 || (size_t)id >= st->slice.n)
		return;
	if (!st->slice.arg_set_id && (arg_set_id == TT_NONE || slice_args_col(st)))
		return;
	st->slice.arg_set_id[id] = arg_set_id;
}

void tt_storage_slice_set_thread_time(tt_storage *st, int64_t id, int64_t thread_ts, int64_t thread_dur)
{
	if (id < 0 || (size_t)id >= st->slice.n)
		return;
	if (!st->slice.thread_ts) {
		st->slice.thread_ts = tt_colmem_resize(NULL, st->slice.cap * sizeof(int64_t));
		st->slice.thread_dur = tt_colmem_resize(NULL, st->slice.cap * sizeof(int64_t));
		if (!st->slice.thread_ts || !st->slice.thread_dur) {
			tt_colmem_free(st->slice.thread_ts);
			tt_colmem_free(st->slice.thread_dur);
			st->slice.thread_ts = st->slice.thread_dur = NULL;
			st->oom = 1;
			return;
		}
		for (size_t i = 0; i < st->slice.n; i++)
			st->slice.thread_ts[i] = st->slice.thread_dur[i] = TT_TS_NONE;
	}
	st->slice.thread_ts[id] = thread_ts;
	st->slice.thread_dur[id] = thread_dur;
}

int64_t tt_storage_slice_ts(const tt_storage *st, int64_t id)
{
	return st->slice.ts[id];
}

int64_t tt_storage_slice_dur(const tt_storage *st, int64_t id)
{
	return st->slice.dur[id];
}

uint32_t tt_storage_slice_track(const tt_storage *st, int64_t id)
{
	return st->slice.track[id];
}

tt_str tt_storage_slice_name(const tt_storage *st, int64_t id)
{
	return st->slice.name[id];
}

uint32_t tt_storage_slice_args(const tt_storage *st, int64_t id)
{
	return st->slice.arg_set_id ? st->slice.arg_set_id[id] : TT_NONE;
}

int64_t tt_storage_slice_count(const tt_storage *st)
{
	return (int64_t)st->slice.n;
}

/* ---- rows ahead -------------------------------------------------------------- */

/* Room for rows [n, n + more) (grown as appends would grow it, by half at
 * a time), and where each column puts them. */
static int ahead(tt_storage *st, size_t *cap, size_t n, size_t more, struct col *cols, size_t ncols,
		 tt_storage_ahead *a)
{
	size_t ncap = *cap;

	a->ncol = 0;
	a->from = a->to = n;
	if (!more || more > TT_MAX_ROWS)
		return 0;
	while (ncap < n + more)
		ncap = ncap ? ncap + ncap / 2 : 64;
	if (ncap != *cap && resize_cols(st, cap, ncap, cols, ncols))
		return -1;
	tt_storage_ahead_set(a, n, more, cols, ncols);
	return 0;
}

void tt_storage_ahead_set(tt_storage_ahead *a, size_t n, size_t more, const struct col *cols, size_t ncols)
{
	a->ncol = 0;
	for (size_t i = 0; i < ncols && a->ncol < TT_STORAGE_AHEAD_COLS; i++)
		if (*cols[i].p) {
			a->col[a->ncol].base = *cols[i].p;
			a->col[a->ncol++].esz = cols[i].esz;
		}
	a->from = n;
	a->to = n + more;
}

int tt_storage_slices_ahead(tt_storage *st, size_t more, tt_storage_ahead *a)
{
	struct col cols[] = { COL(st->slice.ts), COL(st->slice.dur), COL(st->slice.parent_id),
			      COL(st->slice.track), COL(st->slice.depth), COL(st->slice.cat),
			      COL(st->slice.name), OPT_COL(st->slice.arg_set_id),
			      OPT_COL(st->slice.thread_ts), OPT_COL(st->slice.thread_dur) };

	return ahead(st, &st->slice.cap, st->slice.n, more, cols, sizeof(cols) / sizeof(cols[0]), a);
}

int tt_storage_counters_ahead(tt_storage *st, size_t more, tt_storage_ahead *a)
{
	struct col cols[] = { COL(st->counter.ts), COL(st->counter.value), COL(st->counter.track) };

	return ahead(st, &st->counter.cap, st->counter.n, more, cols, sizeof(cols) / sizeof(cols[0]), a);
}

void tt_storage_ahead_populate(const tt_storage_ahead *a, size_t from, size_t to)
{
	if (from < a->from)
		from = a->from;
	if (to > a->to)
		to = a->to;
	for (size_t i = 0; from < to && i < a->ncol; i++)
		tt_colmem_populate((char *)a->col[i].base + from * a->col[i].esz, (to - from) * a->col[i].esz);
}

int64_t tt_storage_counter_count(const tt_storage *st)
{
	return (int64_t)st->counter.n;
}

/* ---- metadata ---------------------------------------------------------------- */

static void meta_put(tt_storage *st, const char *key, int64_t ival, tt_str sval, int multi)
{
	tt_str k = tt_storage_intern_cstr(st, key);
	size_t n = st->meta.n;

	for (size_t i = 0; i < st->meta.n && !multi; i++) {
		if (st->meta.name[i] == k) {
			st->meta.ival[i] = ival;
			st->meta.sval[i] = sval;
			return;
		}
	}
	if (GROW(st, st->meta, COL(st->meta.name), COL(st->meta.ival), COL(st->meta.sval), COL(st->meta.multi)))
		return;
	st->meta.name[n] = k;
	st->meta.ival[n] = ival;
	st->meta.sval[n] = sval;
	st->meta.multi[n] = (uint8_t)(multi != 0);
	st->meta.n++;
}

void tt_storage_meta_str(tt_storage *st, const char *key, const char *value)
{
	meta_put(st, key, 0, tt_storage_intern_cstr(st, value ? value : ""), 0);
}

void tt_storage_meta_append_str(tt_storage *st, const char *key, const char *value)
{
	meta_put(st, key, 0, tt_storage_intern_cstr(st, value ? value : ""), 1);
}

void tt_storage_meta_append_int(tt_storage *st, const char *key, int64_t value)
{
	meta_put(st, key, value, 0, 1);
}

void tt_storage_log(tt_storage *st, int64_t ts, uint32_t utid, uint32_t prio, tt_str tag, tt_str msg)
{
	size_t n = st->logs.n;

	if (GROW(st, st->logs, COL(st->logs.ts), COL(st->logs.utid), COL(st->logs.prio), COL(st->logs.tag),
		 COL(st->logs.msg)))
		return;
	st->logs.ts[n] = ts;
	st->logs.utid[n] = utid;
	st->logs.prio[n] = prio;
	st->logs.tag[n] = tag;
	st->logs.msg[n] = msg;
	st->logs.n++;
}

void tt_storage_package(tt_storage *st, tt_str name, int64_t uid, int debuggable, int profileable, int64_t version_code)
{
	size_t n = st->packages.n;

	if (GROW(st, st->packages, COL(st->packages.name), COL(st->packages.uid), COL(st->packages.version_code),
		 COL(st->packages.debuggable), COL(st->packages.profileable)))
		return;
	st->packages.name[n] = name;
	st->packages.uid[n] = uid;
	st->packages.version_code[n] = version_code;
	st->packages.debuggable[n] = (uint8_t)(debuggable != 0);
	st->packages.profileable[n] = (uint8_t)(profileable != 0);
	st->packages.n++;
}

uint32_t tt_storage_gpu(tt_storage *st, uint32_t gpu)
{
	struct tt_gpu_row r = { .gpu = gpu, .arg_set_id = TT_NONE };

	/* (a device has a few GPUs: a scan) */
	for (size_t i = 0; i < st->gpus.n; i++)
		if (st->gpus.v[i].gpu == gpu)
			return (uint32_t)i;
	if (TT_VEC_PUSH(st->gpus, r)) {
		st->oom = 1;
		return TT_NONE;
	}
	return (uint32_t)(st->gpus.n - 1);
}

void tt_storage_gpu_info(tt_storage *st, uint32_t ugpu, const tt_gpu_info *info)
{
	struct tt_gpu_row *r;

	if (ugpu >= st->gpus.n)
		return;
	r = &st->gpus.v[ugpu];
	/* (an empty value keeps what was there, as trace processor's SetGpuInfo) */
	r->name = info->name ? info->name : r->name;
	r->vendor = info->vendor ? info->vendor : r->vendor;
	r->model = info->model ? info->model : r->model;
	r->arch = info->arch ? info->arch : r->arch;
	r->uuid = info->uuid ? info->uuid : r->uuid;
	r->pci_bdf = info->pci_bdf ? info->pci_bdf : r->pci_bdf;
	if (info->arg_set_id != TT_NONE)
		r->arg_set_id = info->arg_set_id;
}

void tt_storage_gpu_context(tt_storage *st, uint64_t context_id, int64_t pid, tt_str api)
{
	struct tt_gpu_context_row r = { context_id, pid, api };

	if (TT_VEC_PUSH(st->gpu_contexts, r))
		st->oom = 1;
}

void tt_storage_gpu_group(tt_storage *st, int64_t group_id, uint32_t track, tt_str name, tt_str desc)
{
	struct tt_gpu_group_row r = { group_id, track, name, desc };

	if (TT_VEC_PUSH(st->gpu_groups, r))
		st->oom = 1;
}

void tt_storage_meta_int(tt_storage *st, const char *key, int64_t value)
{
	meta_put(st, key, value, 0, 0);
}

/* ---- finalize ------------------------------------------------------------------- */

/* Rows appended out of time order (JSON X events written late, annotations)
 * are sorted by (ts, id) through pairs, so the comparator needs no state. */
struct ts_row {
	int64_t ts;
	uint32_t id;
};

static int cmp_ts_row(const void *a, const void *b)
{
	const struct ts_row *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int sort_rows(uint32_t *rows, size_t n, const int64_t *ts)
{
	struct ts_row *tmp = malloc(n * sizeof(*tmp));

	if (!tmp)
		return -1;
	for (size_t i = 0; i < n; i++)
		tmp[i] = (struct ts_row){ ts[rows[i]], rows[i] };
	qsort(tmp, n, sizeof(*tmp), cmp_ts_row);
	for (size_t i = 0; i < n; i++)
		rows[i] = tmp[i].id;
	free(tmp);
	return 0;
}

/* Gives back the slack of the doubling growth: after import, the big
 * tables are as large as their rows (the ~25% average slack would be a
 * quarter of the resident size). Appends later simply grow again. */
static void shrink(tt_storage *st, size_t *cap, size_t n, struct col *cols, size_t ncols)
{
	if (*cap <= n + n / 16 + 64)
		return;
	for (size_t i = 0; i < ncols; i++) {
		void *np;

		if (!*cols[i].p || cols[i].esz == 0)
			continue;
		np = tt_colmem_resize(*cols[i].p, (n ? n : 1) * cols[i].esz);
		if (!np)
			return; /* keep the bigger, still valid array */
		*cols[i].p = np;
	}
	*cap = n ? n : 1;
	(void)st;
}
#define SHRINK(st, tbl, ...) \
	do { struct col cols_[] = { __VA_ARGS__ }; \
	     shrink((st), &(tbl).cap, (tbl).n, cols_, sizeof(cols_) / sizeof(cols_[0])); } while (0)

/* The per-track index while finalize builds it. */
struct csr {
	size_t *off, *fill;
	uint32_t *rows;
	int64_t *last;     /* per track: ts of its previous row */
	uint8_t *unsorted; /* per track: a ts went backwards */
	int64_t lo, hi;    /* trace bounds so far */
};

/* One pass over a table in id order (no random reads of ts): its rows into
 * the lists of the tracks of their kind (counter or not), which tracks
 * need sorting, and the bounds (dur: slices, else NULL). Returns whether
 * the table is sorted by ts. */
static int index_table(tt_storage *st, struct csr *c, size_t n, const int64_t *ts,
		       const int64_t *dur, const uint32_t *track, const uint32_t *depth, int counter)
{
	size_t nt = st->track.n;
	int sorted = 1;

	for (size_t i = 0; i < n; i++) {
		uint32_t t = track[i];
		int64_t e;

		/* saturated: a slice whose end passes INT64_MAX ends there */
		if (__builtin_add_overflow(ts[i], dur && dur[i] > 0 ? dur[i] : 0, &e))
			e = INT64_MAX;

		if (i && ts[i] < ts[i - 1])
			sorted = 0;
		if (ts[i] < c->lo)
			c->lo = ts[i];
		if (e > c->hi)
			c->hi = e;
		if (t >= nt || st->track.is_counter[t] != counter)
			continue;
		c->rows[c->off[t] + c->fill[t]++] = (uint32_t)i;
		if (depth && depth[i] + 1 > st->track.max_depth[t])
			st->track.max_depth[t] = depth[i] + 1;
		if (ts[i] < c->last[t])
			c->unsorted[t] = 1;
		c->last[t] = ts[i];
	}
	return sorted;
}

/* Rows per track of one kind (counter or not) into cnt[track + 1]. */
static void count_rows(const tt_storage *st, size_t *cnt, size_t n, const uint32_t *track, int counter)
{
	size_t nt = st->track.n;

	for (size_t i = 0; i < n; i++)
		if (track[i] < nt && !st->track.is_counter[track[i]] == !counter)
			cnt[track[i] + 1]++;
}

/* The counter table's half of the index, on a thread of its own while
 * the finalizing thread does the slices' (a Chrome trace has more
 * counters than slices: 3.2 of the 5.7 ms of finalize on the Perfetto
 * Chromium class). A track indexes one kind of row, so the two write
 * disjoint places; the per-track arrays the counter half writes are its
 * own all the same (cnt, fill, last, unsorted: the tracks of the two
 * kinds interleave, and sharing them would bounce their cache lines
 * between the cores), merged after the join. */
struct counter_half {
	tt_storage *st;
	size_t *cnt;
	struct csr c; /* off and rows: the shared ones (off read only) */
	int sorted;
};

static void *count_counters(void *arg)
{
	struct counter_half *h = arg;

	count_rows(h->st, h->cnt, h->st->counter.n, h->st->counter.track, 1);
	return NULL;
}

static void *index_counters(void *arg)
{
	struct counter_half *h = arg;
	tt_storage *st = h->st;

	h->sorted = index_table(st, &h->c, st->counter.n, st->counter.ts, NULL, st->counter.track, NULL, 1);
	return NULL;
}

#define HALF_MIN_ROWS 65536 /* below this a thread costs more than it saves */

void tt_storage_finalize(tt_storage *st)
{
	size_t nt = st->track.n, nrows = st->slice.n + st->counter.n;
	struct csr c = { .lo = INT64_MAX, .hi = INT64_MIN };
	struct counter_half h = { .st = st, .c = { .lo = INT64_MAX, .hi = INT64_MIN } };
	pthread_t th;
	int sorted, two = 0;

	SHRINK(st, st->slice, COL(st->slice.ts), COL(st->slice.dur), COL(st->slice.parent_id),
	       COL(st->slice.track), COL(st->slice.depth), COL(st->slice.cat), COL(st->slice.name),
	       OPT_COL(st->slice.arg_set_id), OPT_COL(st->slice.thread_ts),
	       OPT_COL(st->slice.thread_dur));
	SHRINK(st, st->args, COL(st->args.key), COL(st->args.type), COL(st->args.val));
	thread_track_dimensions(st);
	tt_storage_args_mark_dead(st);
	SHRINK(st, st->counter, COL(st->counter.ts), COL(st->counter.value), COL(st->counter.track));
	SHRINK(st, st->raw, COL(st->raw.ts), COL(st->raw.name));
	tt_packcol_shrink(&st->raw.ucpu);
	tt_packcol_shrink(&st->raw.utid);
	tt_packcol_shrink(&st->raw.arg_set_id);
	tt_packcol_shrink(&st->args.set_first);
	free(st->track.row_off);
	free(st->track.rows);
	st->track.row_off = NULL;
	st->track.rows = NULL;
	c.off = calloc(nt + 1, sizeof(*c.off));
	c.fill = calloc(nt + 1, sizeof(*c.fill));
	c.last = malloc((nt + 1) * sizeof(*c.last));
	c.unsorted = calloc(nt + 1, sizeof(*c.unsorted));
	c.rows = malloc((nrows ? nrows : 1) * sizeof(*c.rows));
	if (st->slice.n >= HALF_MIN_ROWS && st->counter.n >= HALF_MIN_ROWS) {
		h.cnt = calloc(nt + 1, sizeof(*h.cnt));
		h.c.fill = calloc(nt + 1, sizeof(*h.c.fill));
		h.c.last = malloc((nt + 1) * sizeof(*h.c.last));
		h.c.unsorted = calloc(nt + 1, sizeof(*h.c.unsorted));
		two = h.cnt && h.c.fill && h.c.last && h.c.unsorted;
	}
	if (!c.off || !c.fill || !c.last || !c.unsorted || !c.rows) {
		free(c.off);
		free(c.fill);
		free(c.last);
		free(c.unsorted);
		free(c.rows);
		free(h.cnt);
		free(h.c.fill);
		free(h.c.last);
		free(h.c.unsorted);
		st->oom = 1;
		return;
	}
	/* A track indexes one kind of row: slices that an importer put on a
	 * counter track (or counters on a slice track) stay in their table
	 * but out of the per-track index, whose ts column would be the wrong
	 * one (found by fuzz_proto: a TrackEvent slice on a counter track). */
	two = two && pthread_create(&th, NULL, count_counters, &h) == 0;
	count_rows(st, c.off, st->slice.n, st->slice.track, 0);
	if (two) {
		pthread_join(th, NULL);
		for (size_t t = 0; t < nt; t++)
			c.off[t + 1] += h.cnt[t + 1];
	} else {
		count_rows(st, c.off, st->counter.n, st->counter.track, 1);
	}
	for (size_t t = 0; t < nt; t++) {
		c.off[t + 1] += c.off[t];
		c.last[t] = INT64_MIN;
		if (two)
			h.c.last[t] = INT64_MIN;
	}
	/* rows go in by id: a track needs sorting only if its ts went back */
	h.c.off = c.off;
	h.c.rows = c.rows;
	two = two && pthread_create(&th, NULL, index_counters, &h) == 0;
	st->slice.sorted = index_table(st, &c, st->slice.n, st->slice.ts, st->slice.dur,
				       st->slice.track, st->slice.depth, 0);
	if (two) {
		pthread_join(th, NULL);
		st->counter.sorted = h.sorted;
		for (size_t t = 0; t < nt; t++)
			if (st->track.is_counter[t])
				c.unsorted[t] = h.c.unsorted[t];
		if (h.c.lo < c.lo)
			c.lo = h.c.lo;
		if (h.c.hi > c.hi)
			c.hi = h.c.hi;
	} else {
		st->counter.sorted = index_table(st, &c, st->counter.n, st->counter.ts, NULL,
						 st->counter.track, NULL, 1);
	}
	free(h.cnt);
	free(h.c.fill);
	free(h.c.last);
	free(h.c.unsorted);
	for (size_t t = 0; t < nt; t++)
		if (c.unsorted[t] && sort_rows(c.rows + c.off[t], c.off[t + 1] - c.off[t],
					       st->track.is_counter[t] ? st->counter.ts : st->slice.ts))
			st->oom = 1;
	free(c.fill);
	free(c.last);
	free(c.unsorted);
	st->track.row_off = c.off;
	st->track.rows = c.rows;

	sorted = 1;
	for (size_t i = 0; i < st->raw.n; i++) {
		if (i && st->raw.ts[i] < st->raw.ts[i - 1])
			sorted = 0;
		if (st->raw.ts[i] < c.lo)
			c.lo = st->raw.ts[i];
		if (st->raw.ts[i] > c.hi)
			c.hi = st->raw.ts[i];
	}
	st->raw.sorted = sorted;
	for (size_t i = 0; i < st->sched.n; i++) {
		if (st->sched.ts[i] < c.lo)
			c.lo = st->sched.ts[i];
		int64_t e;
		if (__builtin_add_overflow(st->sched.ts[i], st->sched.dur[i], &e))
			e = st->sched.dur[i] > 0 ? INT64_MAX : INT64_MIN;
		if (e > c.hi)
			c.hi = e;
	}
	if (c.lo > c.hi)
		c.lo = c.hi = 0;
	st->start_ts = c.lo;
	st->end_ts = c.hi;
}
