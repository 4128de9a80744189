/*
 * proto_cma.c - the Contiguous Memory Allocator's ftrace events in a
 * Perfetto trace, as trace processor's FtraceParser reads them: an
 * allocation is an "mm_cma_alloc" slice on the allocating thread, its
 * numbers as the slice's args. Which events make it depends on the
 * kernel of SystemInfo (none without one, or before 5.10):
 *   - 5.10 to 6.0: cma_alloc_start begins, cma_alloc_info ends it with
 *     cma_name, cma_pfn, cma_req_pages, cma_nr_migrated / _reclaimed /
 *     _mapped, cma_nr_isolate_fail / _migrate_fail / _test_fail;
 *   - 6.1 on: cma_alloc_start begins, mm_alloc_contig_migrate_range_info
 *     gives the thread's migration numbers (0 until one comes: a start
 *     clears them), cma_alloc_finish ends it with cma_name, cma_pfn,
 *     cma_req_pages and the thread's cma_nr_migrated / _reclaimed /
 *     _mapped.
 * An end whose begin came before the trace ends nothing (quietly, as
 * SliceTracker::End). The events go through the sorter (FT_CMA records,
 * their numbers kept in c->cma) and act in trace order, with the kernel
 * version as known then. See proto_kernel.c for the other kernel events.
 */
#include "proto_int.h"

enum { CMA_START = 1, CMA_INFO, CMA_FINISH, CMA_MIGRATE };

#define KERNEL(major, minor) ((int32_t)((major) << 16 | (minor)))
/* (cma_migrated: a thread's numbers are zero, a start cleared them) */
#define CMA_ZEROS (UINT32_MAX - 1)

static void push(pctx *c, pseq *ps, int64_t ts, int kind, uint32_t pid, const char *name, const uint64_t *v,
		 size_t n)
{
	struct pcma m = { { 0 } };

	if (n) {
		memcpy(m.v, v, n * sizeof(*v));
		if (TT_VEC_PUSH(c->cma, m)) {
			c->oom = 1;
			return;
		}
	}
	tt_proto_push_ft(c, ps, ts, FT_CMA, (uint64_t)kind << 32 | pid, n ? (int64_t)(c->cma.n - 1) : 0,
			 intern_c(c, name ? name : ""), 0, TT_NONE);
}

void tt_proto_on_cma_event(pctx *c, pseq *ps, int64_t ts, const Perfetto__Protos__FtraceEvent *e)
{
	switch (e->event_case) {
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CMA_ALLOC_START:
		push(c, ps, ts, CMA_START, e->pid, NULL, NULL, 0);
		break;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CMA_ALLOC_INFO: {
		const Perfetto__Protos__CmaAllocInfoFtraceEvent *i = e->cma_alloc_info;
		const uint64_t v[8] = { i->pfn,     i->count,   i->nr_migrated, i->nr_reclaimed,
					i->nr_mapped, i->err_iso, i->err_mig,     i->err_test };

		push(c, ps, ts, CMA_INFO, e->pid, i->name, v, 8);
		break;
	}
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CMA_ALLOC_FINISH: {
		const Perfetto__Protos__CmaAllocFinishFtraceEvent *f = e->cma_alloc_finish;
		const uint64_t v[2] = { f->pfn, f->count };

		push(c, ps, ts, CMA_FINISH, e->pid, f->name, v, 2);
		break;
	}
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_MM_ALLOC_CONTIG_MIGRATE_RANGE_INFO: {
		const Perfetto__Protos__MmAllocContigMigrateRangeInfoFtraceEvent *m = e->mm_alloc_contig_migrate_range_info;
		const uint64_t v[3] = { m->nr_migrated, m->nr_reclaimed, m->nr_mapped };

		push(c, ps, ts, CMA_MIGRATE, e->pid, NULL, v, 3);
		break;
	}
	default:
		break;
	}
}

/* The end's args: name, pfn and count, then the migration numbers. */
static uint32_t end_args(pctx *c, tt_str name, const uint64_t *v, const uint64_t *migration, const uint64_t *fails)
{
	static const char *const keys[] = { "cma_nr_migrated", "cma_nr_reclaimed", "cma_nr_mapped",
					     "cma_nr_isolate_fail", "cma_nr_migrate_fail", "cma_nr_test_fail" };
	const char *n = tt_storage_str(c->st, name);

	tt_storage_args_begin(c->st);
	tt_storage_args_str(c->st, "cma_name", n, n ? strlen(n) : 0);
	tt_storage_args_uint(c->st, "cma_pfn", v[0]);
	tt_storage_args_uint(c->st, "cma_req_pages", v[1]);
	for (int k = 0; k < 3; k++)
		tt_storage_args_uint(c->st, keys[k], migration[k]);
	for (int k = 0; fails && k < 3; k++)
		tt_storage_args_uint(c->st, keys[3 + k], fails[k]);
	return tt_args_tracker_end(c->im->args);
}

void tt_proto_feed_cma(pctx *c, const prec *r)
{
	static const uint64_t zeros[3] = { 0, 0, 0 };
	int kind = (int)(r->id >> 32);
	int32_t kv = c->kernel_version;
	uint32_t utid, track, m;
	const struct pcma *vals = r->u.i >= 0 && (size_t)r->u.i < c->cma.n ? &c->cma.v[r->u.i] : NULL;

	if (kv < KERNEL(5, 10) || (kind != CMA_START && kind != CMA_INFO && kv < KERNEL(6, 1)) ||
	    (kind == CMA_INFO && kv >= KERNEL(6, 1)))
		return;
	utid = tt_proto_thread(c, (int32_t)(uint32_t)r->id);
	if (kind == CMA_MIGRATE) {
		if (tt_keymap_put(&c->cma_migrated, utid, 0, 0, 0, (uint32_t)r->u.i))
			c->oom = 1;
		return;
	}
	track = tt_track_tracker_thread(c->im->tracks, utid);
	if (track == TT_NONE)
		return;
	switch (kind) {
	case CMA_START:
		if (kv >= KERNEL(6, 1) && tt_keymap_put(&c->cma_migrated, utid, 0, 0, 0, CMA_ZEROS))
			c->oom = 1;
		tt_slice_tracker_begin(c->im->slices, track, r->ts, 0, intern_c(c, "mm_cma_alloc"), TT_NONE);
		break;
	case CMA_FINISH:
		m = tt_keymap_get(&c->cma_migrated, utid, 0, 0, 0);
		if (vals)
			tt_slice_tracker_end_quiet(c->im->slices, track, r->ts, 0, 0,
						   end_args(c, r->name, vals->v, m < c->cma.n ? c->cma.v[m].v : zeros, NULL));
		break;
	case CMA_INFO:
		if (vals)
			tt_slice_tracker_end_quiet(c->im->slices, track, r->ts, 0, 0,
						   end_args(c, r->name, vals->v, vals->v + 2, vals->v + 5));
		break;
	}
}
