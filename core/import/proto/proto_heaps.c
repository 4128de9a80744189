/*
 * proto_heaps.c - Android's ion and DMA-BUF heap events in a Perfetto
 * trace's ftrace, as trace processor's FtraceParser reads them:
 *   - ion_heap_grow / ion_heap_shrink: the heap's total after the change
 *     on "mem.ion.<heap>" (ion, dimension heap_name; "unknown" when the
 *     event names none), the change on the writing thread's
 *     "mem.ion_change.<heap>" (ion_change, dimensions heap_name and utid);
 *   - ion_stat (kernels 4.19+): the same on "mem.ion" / "mem.ion_change"
 *     (no heap), and each buffer a slice "<len / 1024> kB" on the lanes of
 *     "mem.ion_buffer" from its allocation (len > 0) to its release;
 *   - dma_heap_stat: "mem.dma_heap", the change on the thread's
 *     "mem.dma_heap_change" with the buffer's inode as arg, the buffers'
 *     slices on "mem.dma_buffer".
 * The totals are counters at once; what depends on the thread or on the
 * lanes in time order goes through the sorter (FT_HEAP_CHANGE,
 * FT_HEAP_BUF in proto_int.h). See proto_kernel.c for the other kernel
 * events.
 */
#include "proto_int.h"

#include <stdio.h>

enum { HEAP_ION = 1, HEAP_DMA = 2 };

/* The global total of an ion heap (heap 0: ion_stat's, none) or of the
 * DMA-BUF heaps. */
static uint32_t total_track(pctx *c, int kind, tt_str heap)
{
	char name[300];
	const char *h = heap ? tt_storage_str(c->st, heap) : NULL;
	tt_track_desc d = { .type = kind == HEAP_ION ? "ion" : "android_dma_heap", .utid = TT_NONE, .upid = TT_NONE,
			    .parent_id = TT_NONE, .is_counter = 1, .cpu = -1 };
	uint32_t t;

	if (kind == HEAP_ION && h && *h)
		snprintf(name, sizeof(name), "mem.ion.%.255s", h);
	else
		snprintf(name, sizeof(name), "%s", kind == HEAP_ION ? "mem.ion" : "mem.dma_heap");
	d.name = intern_c(c, name);
	t = tt_track_tracker_keyed(c->im->tracks, d.type, heap, 0, d.name, &d);
	if (kind == HEAP_ION && tt_proto_dims_begin(c, t)) {
		tt_storage_args_str(c->st, "heap_name", h, h ? strlen(h) : 0);
		tt_proto_dims_end(c, t);
	}
	return t;
}

/* The change's track on thread utid. */
static uint32_t change_track(pctx *c, int kind, tt_str heap, uint32_t utid)
{
	char name[300];
	const char *h = heap ? tt_storage_str(c->st, heap) : NULL;
	tt_track_desc d = { .type = kind == HEAP_ION ? "ion_change" : "android_dma_heap_change", .utid = utid,
			    .upid = TT_NONE, .parent_id = TT_NONE, .is_counter = 1, .cpu = -1 };
	uint32_t t;

	if (kind == HEAP_ION && h && *h)
		snprintf(name, sizeof(name), "mem.ion_change.%.255s", h);
	else
		snprintf(name, sizeof(name), "%s", kind == HEAP_ION ? "mem.ion_change" : "mem.dma_heap_change");
	d.name = intern_c(c, name);
	t = tt_track_tracker_keyed(c->im->tracks, d.type, heap, utid, d.name, &d);
	if (tt_proto_dims_begin(c, t)) {
		if (kind == HEAP_ION)
			tt_storage_args_str(c->st, "heap_name", h, h ? strlen(h) : 0);
		tt_storage_args_uint(c->st, "utid", utid);
		tt_proto_dims_end(c, t);
	}
	return t;
}

/* A buffer's slice: begun (len > 0) or ended on its lane. */
static void push_buffer(pctx *c, pseq *ps, int64_t ts, int kind, uint64_t cookie, int64_t len)
{
	char name[40];
	tt_str n = 0;

	if (len > 0) {
		snprintf(name, sizeof(name), "%lld kB", (long long)(len / 1024));
		n = intern_c(c, name);
	}
	tt_proto_push_ft(c, ps, ts, FT_HEAP_BUF, cookie, len > 0, n, (tt_str)kind, TT_NONE);
}

void tt_proto_on_heap_event(pctx *c, pseq *ps, int64_t ts, const Perfetto__Protos__FtraceEvent *e)
{
	uint32_t tid = (uint32_t)e->pid;
	tt_str heap;

	switch (e->event_case) {
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_ION_HEAP_GROW:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_ION_HEAP_SHRINK: {
		/* (the two messages are alike; total_allocated is the value
		 * before the change) */
		int grow = e->event_case == PERFETTO__PROTOS__FTRACE_EVENT__EVENT_ION_HEAP_GROW;
		const char *hn = grow ? e->ion_heap_grow->heap_name : e->ion_heap_shrink->heap_name;
		int has = grow ? e->ion_heap_grow->heap_name != NULL : e->ion_heap_shrink->heap_name != NULL;
		uint64_t len = grow ? e->ion_heap_grow->len : e->ion_heap_shrink->len;
		int64_t total = grow ? e->ion_heap_grow->total_allocated : e->ion_heap_shrink->total_allocated;
		/* (wrapping, as trace processor's int64 arithmetic on sane
		 * values: a hostile len must not overflow) */
		int64_t change = (int64_t)(grow ? len : 0 - len);
		uint32_t t;

		heap = intern_c(c, has ? hn : "unknown");
		t = total_track(c, HEAP_ION, heap);
		if (t != TT_NONE)
			tt_proto_push_rec(c, ps, ts, R_COUNTER, 0, t, 0, 0, TT_NONE, 0,
					  (double)(int64_t)((uint64_t)total + (uint64_t)change));
		tt_proto_push_ft(c, ps, ts, FT_HEAP_CHANGE, tid, change, heap, HEAP_ION, TT_NONE);
		break;
	}
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_ION_STAT: {
		const Perfetto__Protos__IonStatFtraceEvent *s = e->ion_stat;
		uint32_t t = total_track(c, HEAP_ION, 0);

		if (t != TT_NONE)
			tt_proto_push_rec(c, ps, ts, R_COUNTER, 0, t, 0, 0, TT_NONE, 0, (double)s->total_allocated);
		tt_proto_push_ft(c, ps, ts, FT_HEAP_CHANGE, tid, s->len, 0, HEAP_ION, TT_NONE);
		push_buffer(c, ps, ts, HEAP_ION, s->buffer_id, s->len);
		break;
	}
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DMA_HEAP_STAT: {
		const Perfetto__Protos__DmaHeapStatFtraceEvent *s = e->dma_heap_stat;
		uint32_t t = total_track(c, HEAP_DMA, 0);

		if (t != TT_NONE)
			tt_proto_push_rec(c, ps, ts, R_COUNTER, 0, t, 0, 0, TT_NONE, 0, (double)s->total_allocated);
		tt_storage_args_begin(c->st);
		tt_storage_args_uint(c->st, "inode", s->inode);
		tt_proto_push_ft(c, ps, ts, FT_HEAP_CHANGE, tid, s->len, 0, HEAP_DMA, tt_args_tracker_end(c->im->args));
		push_buffer(c, ps, ts, HEAP_DMA, s->inode, s->len);
		break;
	}
	default:
		break;
	}
}

void tt_proto_feed_heap(pctx *c, const prec *r)
{
	int kind = (int)r->cat;

	if (r->scope == FT_HEAP_CHANGE) {
		uint32_t utid = tt_proto_thread(c, (int32_t)(uint32_t)r->id);
		uint32_t t = utid != TT_NONE ? change_track(c, kind, r->name, utid) : TT_NONE;
		int64_t row;

		if (t == TT_NONE)
			return;
		row = tt_storage_counter(c->st, t, r->ts, (double)r->u.i);
		if (row >= 0 && r->args != TT_NONE)
			tt_storage_counter_set_args(c->st, row, r->args);
	} else {
		tt_track_desc d = { .type = kind == HEAP_ION ? "android_ion_allocations" : "android_dma_allocations",
				    .name = intern_c(c, kind == HEAP_ION ? "mem.ion_buffer" : "mem.dma_buffer"),
				    .utid = TT_NONE, .upid = TT_NONE, .parent_id = TT_NONE, .cpu = -1 };
		tt_async_args a = { .ndim = 0 };
		uint32_t t = tt_async_track_set(c->im->async, tt_fnv1a64(TT_FNV1A64_SEED, d.type, strlen(d.type)), 0, 0,
						r->id, &d, &a, r->u.i ? TT_ASYNC_BEGIN : TT_ASYNC_END);

		if (t == TT_NONE)
			return;
		if (r->u.i)
			tt_slice_tracker_begin(c->im->slices, t, r->ts, 0, r->name, TT_NONE);
		else
			tt_slice_tracker_end_quiet(c->im->slices, t, r->ts, 0, 0, TT_NONE);
	}
}
