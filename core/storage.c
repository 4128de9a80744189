/*
 * storage.c - the columnar, append-only trace storage (see storage.h and
 * storage_int.h). Each table grows all its columns together; strings are
 * interned; lookup maps (pid -> upid, (pid, tid) -> utid, track keys) are
 * small open-addressing hashes.
 */
#include "storage_int.h"
#include "keymap.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- column growth ------------------------------------------------------ */

struct col {
	void **p;
	size_t esz;
};
#define COL(x) { (void **)&(x), sizeof(*(x)) }

/* Makes room for one more row in every column; -1 when memory ran out
 * (then the table is unchanged). */
static int grow_cols(tt_storage *st, size_t *cap, size_t n, struct col *cols, size_t ncols)
{
	size_t ncap;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 64;
	for (size_t i = 0; i < ncols; i++) {
		void *np;

		if (!*cols[i].p && cols[i].esz == 0)
			continue;
		np = realloc(*cols[i].p, ncap * cols[i].esz);
		if (!np) {
			st->oom = 1;
			return -1;
		}
		*cols[i].p = np;
	}
	*cap = ncap;
	return 0;
}
#define GROW(st, tbl, ...) \
	({ struct col cols_[] = { __VA_ARGS__ }; \
	   grow_cols((st), &(tbl).cap, (tbl).n, cols_, sizeof(cols_) / sizeof(cols_[0])); })

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
	for (size_t i_ = 0; i_ < sizeof(ps_) / sizeof(ps_[0]); i_++) free(ps_[i_]); } while (0)
	F(process, st->process.pid, st->process.start_ts, st->process.end_ts,
	  st->process.sort_index, st->process.name, st->process.parent_upid);
	F(thread, st->thread.tid, st->thread.start_ts, st->thread.end_ts, st->thread.sort_index,
	  st->thread.name, st->thread.upid, st->thread.track);
	F(track, st->track.name, st->track.type, st->track.unit, st->track.description,
	  st->track.parent_id, st->track.utid, st->track.upid, st->track.max_depth,
	  st->track.cpu, st->track.is_counter, st->track.row_off, st->track.rows);
	F(slice, st->slice.ts, st->slice.dur, st->slice.parent_id, st->slice.thread_ts,
	  st->slice.thread_dur, st->slice.track, st->slice.depth, st->slice.arg_set_id,
	  st->slice.cat, st->slice.name);
	F(counter, st->counter.ts, st->counter.value, st->counter.track);
	F(args, st->args.key, st->args.type, st->args.val);
	F(flow, st->flow.slice_out, st->flow.slice_in, st->flow.arg_set_id);
	F(raw, st->raw.ts, st->raw.cpu, st->raw.name, st->raw.utid, st->raw.arg_set_id);
	F(sched, st->sched.ts, st->sched.dur, st->sched.cpu, st->sched.priority,
	  st->sched.utid, st->sched.end_state);
	F(tstate, st->tstate.ts, st->tstate.dur, st->tstate.cpu, st->tstate.utid, st->tstate.state);
	F(meta, st->meta.name, st->meta.ival, st->meta.sval);
	F(named, st->named.stat, st->named.name, st->named.count);
#undef F
	TT_VEC_FREE(st->args.set_first);
	tt_keymap_free(&st->process_by_pid);
	tt_keymap_free(&st->thread_by_key);
	tt_keymap_free(&st->thread_by_tid);
	tt_keymap_free(&st->track_by_key);
	tt_keymap_free(&st->named_by_key);
	free(st);
}

int tt_storage_oom(const tt_storage *st)
{
	return st->oom || tt_strpool_oom(st->strs);
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

int64_t tt_storage_stat_get(const tt_storage *st, tt_stat s)
{
	return (unsigned)s < TT_STAT_COUNT ? st->stats[s] : 0;
}

/* ---- processes and threads ------------------------------------------------ */

uint32_t tt_storage_process(tt_storage *st, int64_t pid)
{
	uint32_t upid = tt_keymap_get(&st->process_by_pid, (uint64_t)pid, 0, 0, 0);
	size_t n = st->process.n;

	if (upid != TT_NONE)
		return upid;
	if (GROW(st, st->process, COL(st->process.pid), COL(st->process.start_ts),
		 COL(st->process.end_ts), COL(st->process.sort_index), COL(st->process.name),
		 COL(st->process.parent_upid)))
		return TT_NONE;
	st->process.pid[n] = pid;
	st->process.start_ts[n] = TT_TS_NONE;
	st->process.end_ts[n] = TT_TS_NONE;
	st->process.sort_index[n] = TT_TS_NONE;
	st->process.name[n] = 0;
	st->process.parent_upid[n] = TT_NONE;
	if (keymap_put_oom(st, &st->process_by_pid, (uint64_t)pid, 0, 0, 0, (uint32_t)n))
		return TT_NONE;
	st->process.n++;
	return (uint32_t)n;
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

uint32_t tt_storage_thread(tt_storage *st, int64_t pid, int64_t tid)
{
	uint32_t utid = tt_keymap_get(&st->thread_by_key, (uint64_t)pid, (uint64_t)tid, 0, 0);
	uint32_t upid = TT_NONE;
	size_t n = st->thread.n;

	if (utid != TT_NONE)
		return utid;
	if (pid != -1) {
		upid = tt_storage_process(st, pid);
		if (upid == TT_NONE)
			return TT_NONE;
	}
	if (GROW(st, st->thread, COL(st->thread.tid), COL(st->thread.start_ts),
		 COL(st->thread.end_ts), COL(st->thread.sort_index), COL(st->thread.name),
		 COL(st->thread.upid), COL(st->thread.track)))
		return TT_NONE;
	st->thread.tid[n] = tid;
	st->thread.start_ts[n] = TT_TS_NONE;
	st->thread.end_ts[n] = TT_TS_NONE;
	st->thread.sort_index[n] = TT_TS_NONE;
	st->thread.name[n] = 0;
	st->thread.upid[n] = upid;
	st->thread.track[n] = TT_NONE;
	if (keymap_put_oom(st, &st->thread_by_key, (uint64_t)pid, (uint64_t)tid, 0, 0, (uint32_t)n) ||
	    keymap_put_oom(st, &st->thread_by_tid, (uint64_t)tid, 0, 0, 0, (uint32_t)n))
		return TT_NONE;
	st->thread.n++;
	return (uint32_t)n;
}

uint32_t tt_storage_thread_by_tid(const tt_storage *st, int64_t tid)
{
	return tt_keymap_get(&st->thread_by_tid, (uint64_t)tid, 0, 0, 0);
}

void tt_storage_thread_set_pid(tt_storage *st, uint32_t utid, int64_t pid)
{
	uint32_t upid;

	if (utid >= st->thread.n)
		return;
	upid = tt_storage_process(st, pid);
	st->thread.upid[utid] = upid;
	/* Later lookups by (pid, tid) must find this thread. */
	keymap_put_oom(st, &st->thread_by_key, (uint64_t)pid, (uint64_t)st->thread.tid[utid], 0, 0, utid);
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
		 COL(st->track.is_counter)))
		return TT_NONE;
	st->track.name[n] = d->name;
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

uint32_t tt_storage_track_keyed(tt_storage *st, const char *kind, uint64_t a, uint64_t b,
				uint64_t c, const tt_track_desc *d)
{
	uint64_t k = tt_storage_intern_cstr(st, kind);
	uint32_t id = tt_keymap_get(&st->track_by_key, k, a, b, c);

	if (id != TT_NONE)
		return id;
	id = tt_storage_track_new(st, d);
	if (id != TT_NONE && keymap_put_oom(st, &st->track_by_key, k, a, b, c, id))
		return TT_NONE;
	return id;
}

uint32_t tt_storage_thread_track(tt_storage *st, uint32_t utid)
{
	tt_track_desc d = { .type = "thread", .utid = utid, .upid = TT_NONE,
			    .parent_id = TT_NONE, .cpu = -1 };
	uint32_t id;

	if (utid >= st->thread.n)
		return TT_NONE;
	if (st->thread.track[utid] != TT_NONE)
		return st->thread.track[utid];
	d.upid = st->thread.upid[utid];
	id = tt_storage_track_new(st, &d);
	st->thread.track[utid] = id;
	return id;
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

/* ---- args ------------------------------------------------------------------ */

static const char *const arg_type_names[] = {
	[TT_ARG_INT] = "int", [TT_ARG_UINT] = "uint", [TT_ARG_STRING] = "string",
	[TT_ARG_REAL] = "real", [TT_ARG_BOOL] = "bool", [TT_ARG_POINTER] = "pointer",
	[TT_ARG_JSON] = "json", [TT_ARG_NULL] = "null",
};

const char *tt_storage_arg_type_name(int type)
{
	return type >= 0 && type <= TT_ARG_NULL ? arg_type_names[type] : "null";
}

void tt_storage_args_begin(tt_storage *st)
{
	st->args.building = 1;
	st->args.build_start = st->args.n;
}

const char *tt_storage_arg_flat_key(const tt_storage *st, size_t row, char *buf, size_t len)
{
	const char *key = tt_storage_str(st, st->args.key[row]);
	size_t o = 0;

	if (!key)
		return "";
	if (!(st->args.type[row] & TT_ARG_INDEXED) || len == 0)
		return key;
	for (const char *p = key; *p && o + 1 < len; p++) {
		if (*p == '[') {
			const char *q = strchr(p, ']');

			if (q) {
				p = q;
				continue;
			}
		}
		buf[o++] = *p;
	}
	buf[o] = '\0';
	return buf;
}

uint32_t tt_storage_arg_set_of(const tt_storage *st, size_t row)
{
	const uint32_t *first = st->args.set_first.v;
	size_t lo = 0, hi = st->args.set_first.n;

	/* the last set whose first row is <= row */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (first[mid] <= row)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || (st->args.building && row >= st->args.build_start))
		return TT_NONE;
	return (uint32_t)(lo - 1);
}

static void arg_add(tt_storage *st, const char *key, int type, union tt_arg_val v)
{
	size_t n = st->args.n;
	tt_str k;

	if (!st->args.building)
		return;
	if (GROW(st, st->args, COL(st->args.key), COL(st->args.type), COL(st->args.val)))
		return;
	k = tt_storage_intern_cstr(st, key ? key : "");
	st->args.key[n] = k;
	st->args.type[n] = (uint8_t)(type | (key && strchr(key, '[') ? TT_ARG_INDEXED : 0));
	st->args.val[n] = v;
	st->args.n++;
}

void tt_storage_args_int(tt_storage *st, const char *key, int64_t v)
{
	arg_add(st, key, TT_ARG_INT, (union tt_arg_val){ .i = v });
}

void tt_storage_args_uint(tt_storage *st, const char *key, uint64_t v)
{
	arg_add(st, key, TT_ARG_UINT, (union tt_arg_val){ .i = (int64_t)v });
}

void tt_storage_args_bool(tt_storage *st, const char *key, int v)
{
	arg_add(st, key, TT_ARG_BOOL, (union tt_arg_val){ .i = v ? 1 : 0 });
}

void tt_storage_args_real(tt_storage *st, const char *key, double v)
{
	arg_add(st, key, TT_ARG_REAL, (union tt_arg_val){ .d = v });
}

void tt_storage_args_str(tt_storage *st, const char *key, const char *s, size_t len)
{
	arg_add(st, key, TT_ARG_STRING, (union tt_arg_val){ .s = tt_storage_intern(st, s, len) });
}

void tt_storage_args_pointer(tt_storage *st, const char *key, uint64_t v)
{
	arg_add(st, key, TT_ARG_POINTER, (union tt_arg_val){ .i = (int64_t)v });
}

void tt_storage_args_json(tt_storage *st, const char *key, const char *s, size_t len)
{
	arg_add(st, key, TT_ARG_JSON, (union tt_arg_val){ .s = tt_storage_intern(st, s, len) });
}

void tt_storage_args_null(tt_storage *st, const char *key)
{
	arg_add(st, key, TT_ARG_NULL, (union tt_arg_val){ .i = 0 });
}

int tt_storage_argset_rows(const tt_storage *st, uint32_t set, size_t *first, size_t *end)
{
	if (set >= st->args.set_first.n)
		return 0;
	*first = st->args.set_first.v[set];
	if (set + 1 < st->args.set_first.n)
		*end = st->args.set_first.v[set + 1];
	else
		*end = st->args.building ? st->args.build_start : st->args.n;
	return 1;
}

void tt_storage_args_copy(tt_storage *st, uint32_t set)
{
	size_t first, end;

	if (!st->args.building || !tt_storage_argset_rows(st, set, &first, &end))
		return;
	for (size_t r = first; r < end; r++) {
		size_t n = st->args.n;

		if (GROW(st, st->args, COL(st->args.key), COL(st->args.type), COL(st->args.val)))
			return;
		st->args.key[n] = st->args.key[r];
		st->args.type[n] = st->args.type[r];
		st->args.val[n] = st->args.val[r];
		st->args.n++;
	}
}

uint32_t tt_storage_args_end(tt_storage *st)
{
	uint32_t id = (uint32_t)st->args.set_first.n;

	if (!st->args.building)
		return TT_NONE;
	st->args.building = 0;
	if (st->args.n == st->args.build_start)
		return TT_NONE;
	if (TT_VEC_PUSH(st->args.set_first, (uint32_t)st->args.build_start)) {
		st->oom = 1;
		st->args.n = st->args.build_start;
		return TT_NONE;
	}
	return id;
}

const char *tt_storage_arg_text(const tt_storage *st, size_t row, char *buf, size_t len)
{
	const union tt_arg_val *v = &st->args.val[row];
	const char *s;

	switch (TT_ARG_TYPE(st->args.type[row])) {
	case TT_ARG_INT:
		snprintf(buf, len, "%" PRId64, v->i);
		return buf;
	case TT_ARG_UINT:
		snprintf(buf, len, "%" PRIu64, (uint64_t)v->i);
		return buf;
	case TT_ARG_POINTER:
		snprintf(buf, len, "0x%" PRIx64, (uint64_t)v->i);
		return buf;
	case TT_ARG_BOOL:
		return v->i ? "true" : "false";
	case TT_ARG_REAL:
		snprintf(buf, len, "%.17g", v->d);
		return buf;
	case TT_ARG_STRING:
	case TT_ARG_JSON:
		s = tt_storage_str(st, v->s);
		return s ? s : "";
	default:
		return "";
	}
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

int64_t tt_storage_flow(tt_storage *st, int64_t out, int64_t in, uint32_t arg_set_id)
{
	size_t n = st->flow.n;

	if (GROW(st, st->flow, COL(st->flow.slice_out), COL(st->flow.slice_in), COL(st->flow.arg_set_id)))
		return -1;
	st->flow.slice_out[n] = out;
	st->flow.slice_in[n] = in;
	st->flow.arg_set_id[n] = arg_set_id;
	st->flow.n++;
	return (int64_t)n;
}

int64_t tt_storage_raw(tt_storage *st, int64_t ts, tt_str name, int64_t cpu, uint32_t utid,
		       uint32_t arg_set_id)
{
	size_t n = st->raw.n;

	if (GROW(st, st->raw, COL(st->raw.ts), COL(st->raw.cpu), COL(st->raw.name),
		 COL(st->raw.utid), COL(st->raw.arg_set_id)))
		return -1;
	st->raw.ts[n] = ts;
	st->raw.cpu[n] = cpu;
	st->raw.name[n] = name;
	st->raw.utid[n] = utid;
	st->raw.arg_set_id[n] = arg_set_id;
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

int64_t tt_storage_thread_state(tt_storage *st, int64_t ts, int64_t dur, int64_t cpu,
				uint32_t utid, tt_str state)
{
	size_t n = st->tstate.n;

	if (GROW(st, st->tstate, COL(st->tstate.ts), COL(st->tstate.dur), COL(st->tstate.cpu),
		 COL(st->tstate.utid), COL(st->tstate.state)))
		return -1;
	st->tstate.ts[n] = ts;
	st->tstate.dur[n] = dur;
	st->tstate.cpu[n] = cpu;
	st->tstate.utid[n] = utid;
	st->tstate.state[n] = state;
	st->tstate.n++;
	return (int64_t)n;
}

/* ---- slices ---------------------------------------------------------------- */

int64_t tt_storage_slice_append(tt_storage *st, uint32_t track, int64_t ts, int64_t dur,
				tt_str cat, tt_str name, uint32_t depth, int64_t parent_id,
				uint32_t arg_set_id)
{
	size_t n = st->slice.n;
	struct col cols[] = {
		COL(st->slice.ts), COL(st->slice.dur), COL(st->slice.parent_id),
		COL(st->slice.track), COL(st->slice.depth), COL(st->slice.arg_set_id),
		COL(st->slice.cat), COL(st->slice.name),
		/* optional columns grow only once they exist */
		{ (void **)&st->slice.thread_ts, st->slice.thread_ts ? sizeof(int64_t) : 0 },
		{ (void **)&st->slice.thread_dur, st->slice.thread_dur ? sizeof(int64_t) : 0 },
	};

	if (n >= TT_MAX_ROWS) {
		st->oom = 1;
		return -1;
	}
	if (grow_cols(st, &st->slice.cap, n, cols, sizeof(cols) / sizeof(cols[0])))
		return -1;
	st->slice.ts[n] = ts;
	st->slice.dur[n] = dur;
	st->slice.parent_id[n] = parent_id < 0 ? -1 : (int32_t)parent_id;
	st->slice.track[n] = track;
	st->slice.depth[n] = depth;
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
	if (id >= 0 && (size_t)id < st->slice.n)
		st->slice.arg_set_id[id] = arg_set_id;
}

void tt_storage_slice_set_thread_time(tt_storage *st, int64_t id, int64_t thread_ts, int64_t thread_dur)
{
	if (id < 0 || (size_t)id >= st->slice.n)
		return;
	if (!st->slice.thread_ts) {
		st->slice.thread_ts = malloc(st->slice.cap * sizeof(int64_t));
		st->slice.thread_dur = malloc(st->slice.cap * sizeof(int64_t));
		if (!st->slice.thread_ts || !st->slice.thread_dur) {
			free(st->slice.thread_ts);
			free(st->slice.thread_dur);
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
	return st->slice.arg_set_id[id];
}

int64_t tt_storage_slice_count(const tt_storage *st)
{
	return (int64_t)st->slice.n;
}

/* ---- metadata ---------------------------------------------------------------- */

static void meta_put(tt_storage *st, const char *key, int64_t ival, tt_str sval)
{
	tt_str k = tt_storage_intern_cstr(st, key);
	size_t n = st->meta.n;

	for (size_t i = 0; i < st->meta.n; i++) {
		if (st->meta.name[i] == k) {
			st->meta.ival[i] = ival;
			st->meta.sval[i] = sval;
			return;
		}
	}
	if (GROW(st, st->meta, COL(st->meta.name), COL(st->meta.ival), COL(st->meta.sval)))
		return;
	st->meta.name[n] = k;
	st->meta.ival[n] = ival;
	st->meta.sval[n] = sval;
	st->meta.n++;
}

void tt_storage_meta_str(tt_storage *st, const char *key, const char *value)
{
	meta_put(st, key, 0, tt_storage_intern_cstr(st, value ? value : ""));
}

void tt_storage_meta_int(tt_storage *st, const char *key, int64_t value)
{
	meta_put(st, key, value, 0);
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

static int is_sorted_ts(const int64_t *ts, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (ts[i] < ts[i - 1])
			return 0;
	return 1;
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
		np = realloc(*cols[i].p, (n ? n : 1) * cols[i].esz);
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

void tt_storage_finalize(tt_storage *st)
{
	size_t nt = st->track.n, nrows = st->slice.n + st->counter.n;
	size_t *off, *fill;
	uint32_t *rows;
	int64_t lo = INT64_MAX, hi = INT64_MIN;

	SHRINK(st, st->slice, COL(st->slice.ts), COL(st->slice.dur), COL(st->slice.parent_id),
	       COL(st->slice.track), COL(st->slice.depth), COL(st->slice.arg_set_id),
	       COL(st->slice.cat), COL(st->slice.name),
	       { (void **)&st->slice.thread_ts, st->slice.thread_ts ? sizeof(int64_t) : 0 },
	       { (void **)&st->slice.thread_dur, st->slice.thread_dur ? sizeof(int64_t) : 0 });
	SHRINK(st, st->args, COL(st->args.key), COL(st->args.type), COL(st->args.val));
	SHRINK(st, st->counter, COL(st->counter.ts), COL(st->counter.value), COL(st->counter.track));
	SHRINK(st, st->raw, COL(st->raw.ts), COL(st->raw.cpu), COL(st->raw.name),
	       COL(st->raw.utid), COL(st->raw.arg_set_id));
	free(st->track.row_off);
	free(st->track.rows);
	st->track.row_off = NULL;
	st->track.rows = NULL;
	off = calloc(nt + 1, sizeof(*off));
	fill = calloc(nt + 1, sizeof(*fill));
	rows = malloc((nrows ? nrows : 1) * sizeof(*rows));
	if (!off || !fill || !rows) {
		free(off);
		free(fill);
		free(rows);
		st->oom = 1;
		return;
	}
	/* A track indexes one kind of row: slices that an importer put on a
	 * counter track (or counters on a slice track) stay in their table
	 * but out of the per-track index, whose ts column would be the wrong
	 * one (found by fuzz_proto: a TrackEvent slice on a counter track). */
	for (size_t i = 0; i < st->slice.n; i++)
		if (st->slice.track[i] < nt && !st->track.is_counter[st->slice.track[i]])
			off[st->slice.track[i] + 1]++;
	for (size_t i = 0; i < st->counter.n; i++)
		if (st->counter.track[i] < nt && st->track.is_counter[st->counter.track[i]])
			off[st->counter.track[i] + 1]++;
	for (size_t t = 0; t < nt; t++)
		off[t + 1] += off[t];
	for (size_t i = 0; i < st->slice.n; i++) {
		uint32_t t = st->slice.track[i];

		if (t < nt && !st->track.is_counter[t]) {
			rows[off[t] + fill[t]++] = (uint32_t)i;
			if (st->slice.depth[i] + 1 > st->track.max_depth[t])
				st->track.max_depth[t] = st->slice.depth[i] + 1;
		}
	}
	for (size_t i = 0; i < st->counter.n; i++) {
		uint32_t t = st->counter.track[i];

		if (t < nt && st->track.is_counter[t])
			rows[off[t] + fill[t]++] = (uint32_t)i;
	}
	/* Rows went in by id; sort only the tracks whose ts went backwards. */
	for (size_t t = 0; t < nt; t++) {
		const int64_t *ts = st->track.is_counter[t] ? st->counter.ts : st->slice.ts;
		int sorted = 1;

		for (size_t r = off[t] + 1; r < off[t + 1] && sorted; r++)
			if (ts[rows[r]] < ts[rows[r - 1]])
				sorted = 0;
		if (!sorted && sort_rows(rows + off[t], off[t + 1] - off[t], ts))
			st->oom = 1;
	}
	free(fill);
	st->track.row_off = off;
	st->track.rows = rows;

	st->slice.sorted = is_sorted_ts(st->slice.ts, st->slice.n);
	st->counter.sorted = is_sorted_ts(st->counter.ts, st->counter.n);
	st->raw.sorted = is_sorted_ts(st->raw.ts, st->raw.n);

	for (size_t i = 0; i < st->slice.n; i++) {
		int64_t e = st->slice.ts[i] + (st->slice.dur[i] > 0 ? st->slice.dur[i] : 0);

		if (st->slice.ts[i] < lo)
			lo = st->slice.ts[i];
		if (e > hi)
			hi = e;
	}
	for (size_t i = 0; i < st->counter.n; i++) {
		if (st->counter.ts[i] < lo)
			lo = st->counter.ts[i];
		if (st->counter.ts[i] > hi)
			hi = st->counter.ts[i];
	}
	for (size_t i = 0; i < st->raw.n; i++) {
		if (st->raw.ts[i] < lo)
			lo = st->raw.ts[i];
		if (st->raw.ts[i] > hi)
			hi = st->raw.ts[i];
	}
	for (size_t i = 0; i < st->sched.n; i++) {
		if (st->sched.ts[i] < lo)
			lo = st->sched.ts[i];
		if (st->sched.ts[i] + st->sched.dur[i] > hi)
			hi = st->sched.ts[i] + st->sched.dur[i];
	}
	if (lo > hi)
		lo = hi = 0;
	st->start_ts = lo;
	st->end_ts = hi;
}
