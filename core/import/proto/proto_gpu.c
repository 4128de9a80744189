/*
 * proto_gpu.c - the GPU data sources of a Perfetto trace, as trace
 * processor's GraphicsEventModule, GpuEventParser and SystemProbesParser
 * read them:
 *   - GpuCounterEvent: a counter descriptor (inline, or interned on its
 *     sequence and named by counter_descriptor_iid) makes a "gpu_counter"
 *     track per (gpu, counter name) with its unit and description, and
 *     its gpu_counter_group rows; the descriptor is read in file order
 *     even in a packet without a timestamp. The counter values go through
 *     the sorter (FT_GPU_COUNTER records) and are stored in trace order: a
 *     backwards-looking counter's value is the interval's that ends at
 *     its sample, so the sample stores 0 and gives its value to the
 *     track's previous row. Inline descriptors' counter ids are global to
 *     the trace (a spec given again is an error), interned ones are the
 *     descriptor's own;
 *   - GpuRenderStageEvent: a slice on the "gpu_render_stage" tracks of
 *     its hardware queue (interned specs, or the deprecated
 *     specifications' ids; lanes as trace processor's track compressor
 *     makes them, chosen in trace order: FT_GPU_STAGE records), named by
 *     its stage, with trace processor's args; flows from the slices of
 *     the events it waits for (event_wait_ids); a graphics context it
 *     names is a gpu_context row;
 *   - GpuInfo: the gpu table's name, vendor, model, ... and extra_info
 *     as the GPU's args.
 * The state interned on a sequence is dropped when the sequence clears
 * its incremental state (tt_proto_gpu_cleared).
 */
#include "proto_int.h"
#include <stdio.h>

typedef Perfetto__Protos__GpuCounterDescriptor GDesc;
typedef Perfetto__Protos__GpuCounterDescriptor__GpuCounterSpec GSpec;
typedef Perfetto__Protos__GpuRenderStageEvent GStage;

enum { IN_DESC, IN_SPEC, IN_CTX };

/* One interned message of a sequence: a counter descriptor (kept packed
 * until an event names it; then its counters' owner number), a render
 * stage specification or a graphics context. */
struct gintern {
	uint32_t seq, gen, kind;
	uint64_t iid;
	uint8_t *blob;
	size_t n;
	uint32_t owner;              /* IN_DESC: its counters' owner once read (0: not yet) */
	int32_t gpu, pid, api, category;
	int has_pid;
	tt_str name, desc;
};

/* A counter a descriptor defined: its track and whether its values look
 * forwards (stored at their sample) or backwards. */
struct gctr {
	uint32_t track;
	int fwd;
};

/* A slice in a list by GPU event id (node index + 1 links, 0 ends). */
struct gnode {
	int64_t slice;
	uint32_t next;
};

/* A render stage's event id and the events it waits for (in waits). */
struct gstage {
	uint64_t event_id;
	size_t wait_at, nwait;
};

struct tt_proto_gpu {
	tt_pmap gens;                /* seq -> its generation: bumped by a clear */
	tt_pmap interned;            /* hash of (kind, seq, gen, iid) -> index in in + 1 */
	TT_VEC(struct gintern) in;
	tt_pmap ctrs;                /* owner << 32 | counter_id -> index in ctr + 1 (owner 0: inline specs) */
	TT_VEC(struct gctr) ctr;
	uint32_t owners;             /* interned descriptors read */
	tt_pmap last_row;            /* track -> its last counter row + 1 (backwards-looking values) */
	TT_VEC(tt_str) queues;       /* deprecated specifications: hw_queue id -> name, description (pairs) */
	TT_VEC(tt_str) stages;       /* ... stage id -> name, description (pairs) */
	tt_pmap contexts;            /* graphics contexts stored (gpu_context rows) */
	/* render stages' flows (trace processor's GpuTracker): an event's
	 * slices and the slices waiting for it, by event id -> list */
	tt_pmap ev_slices, ev_waits;
	TT_VEC(struct gnode) nodes;
	TT_VEC(struct gstage) stage_ev; /* the stages read, until fed */
	TT_VEC(uint64_t) waits;
};

static struct tt_proto_gpu *gpu_state(pctx *c)
{
	if (!c->gpu && !(c->gpu = calloc(1, sizeof(*c->gpu))))
		c->oom = 1;
	return c->gpu;
}

static uint32_t gen_of(struct tt_proto_gpu *g, uint32_t seq)
{
	uint64_t *v = tt_pmap_find(&g->gens, seq);

	return v ? (uint32_t)*v : 0;
}

static uint64_t in_key(uint32_t kind, uint32_t seq, uint32_t gen, uint64_t iid)
{
	uint64_t k = ((uint64_t)seq << 32 | gen) * 0x9e3779b97f4a7c15ULL;

	return (k ^ (uint64_t)kind << 60) + iid * 0xff51afd7ed558ccdULL;
}

/* The interned message (kind, iid) of sequence seq, or NULL. */
static struct gintern *in_find(struct tt_proto_gpu *g, uint32_t kind, uint32_t seq, uint64_t iid)
{
	uint32_t gen = gen_of(g, seq);
	uint64_t *v = tt_pmap_find(&g->interned, in_key(kind, seq, gen, iid));
	struct gintern *e;

	if (!v)
		return NULL;
	e = &g->in.v[*v - 1];
	/* (a hash collision of two keys is treated as absent) */
	return e->kind == kind && e->seq == seq && e->gen == gen && e->iid == iid ? e : NULL;
}

/* A new interned entry (an iid given again on a sequence replaces it). */
static struct gintern *in_put(pctx *c, struct tt_proto_gpu *g, uint32_t kind, uint32_t seq, uint64_t iid)
{
	struct gintern e = { .seq = seq, .gen = gen_of(g, seq), .kind = kind, .iid = iid };

	if (TT_VEC_PUSH(g->in, e) || tt_pmap_put(&g->interned, in_key(kind, seq, e.gen, iid), g->in.n)) {
		c->oom = 1;
		return NULL;
	}
	return &g->in.v[g->in.n - 1];
}

void tt_proto_gpu_cleared(pctx *c, uint32_t seq)
{
	struct tt_proto_gpu *g = c->gpu;

	if (g && tt_pmap_put(&g->gens, seq, gen_of(g, seq) + 1))
		c->oom = 1;
}

void tt_proto_gpu_free(pctx *c)
{
	struct tt_proto_gpu *g = c->gpu;

	if (!g)
		return;
	for (size_t i = 0; i < g->in.n; i++)
		free(g->in.v[i].blob);
	TT_VEC_FREE(g->in);
	TT_VEC_FREE(g->ctr);
	TT_VEC_FREE(g->queues);
	TT_VEC_FREE(g->stages);
	tt_pmap_free(&g->gens);
	tt_pmap_free(&g->interned);
	tt_pmap_free(&g->ctrs);
	tt_pmap_free(&g->last_row);
	tt_pmap_free(&g->contexts);
	tt_pmap_free(&g->ev_slices);
	tt_pmap_free(&g->ev_waits);
	TT_VEC_FREE(g->nodes);
	TT_VEC_FREE(g->stage_ev);
	TT_VEC_FREE(g->waits);
	free(g);
	c->gpu = NULL;
}

/* ---- counters ----------------------------------------------------------------- */

/* Trace processor's names of GpuCounterDescriptor.MeasureUnit. */
static const char *unit_name(int32_t u)
{
	static const char *const names[] = {
		"", "bit", "Kb", "Mb", "Gb", "Tb", "Pb", "B", "KB", "MB", "GB", "TB", "PB",
		"Hz", "KHz", "MHz", "GHz", "THz", "PHz", "ns", "us", "ms", "s", "min", "h",
		"Vertex", "Pixel", "Triangle", "mW", "W", "kW", "J", "V", "A", "C", "F", "K", "%",
		"Primitive", "Fragment", "Instruction",
	};

	return u >= 0 && (size_t)u < sizeof(names) / sizeof(names[0]) ? names[u] : "Unknown";
}

/* "num:num/den:den" (trace processor's FormatCounterUnit): 0 without units. */
static tt_str spec_unit(pctx *c, const GSpec *sp)
{
	char buf[256];
	size_t n = 0, i;
	char sep = '/';

	if (!sp->n_numerator_units && !sp->n_denominator_units)
		return 0;
	buf[0] = '\0';
	for (i = 0; i < sp->n_numerator_units && n < sizeof(buf); i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? ":" : "", unit_name(sp->numerator_units[i]));
	for (i = 0; i < sp->n_denominator_units && n < sizeof(buf); i++) {
		const char *u = unit_name(sp->denominator_units[i]);

		if (!*u)
			continue;
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%c%s", sep, u);
		sep = ':';
	}
	return intern_c(c, buf);
}

/* The "gpu_counter" track of (gpu, the spec's name). */
static uint32_t counter_track(pctx *c, int32_t gpu, const GSpec *sp)
{
	uint32_t ugpu = tt_storage_gpu(c->st, (uint32_t)gpu);
	tt_str name = intern_c(c, sp->name);
	tt_track_desc d = { .type = "gpu_counter", .name = name, .utid = TT_NONE, .upid = TT_NONE,
			    .parent_id = TT_NONE, .is_counter = 1, .unit = spec_unit(c, sp),
			    .description = intern_c(c, sp->description ? sp->description : ""), .cpu = -1 };
	uint32_t t;

	if (ugpu == TT_NONE)
		return TT_NONE;
	t = tt_track_tracker_keyed(c->im->tracks, "gpu_counter", (uint32_t)gpu, name, 0, &d);
	if (t == TT_NONE || !tt_proto_dims_begin(c, t))
		return t;
	tt_storage_args_uint(c->st, "ugpu", ugpu);
	tt_storage_args_uint(c->st, "gpu", (uint32_t)gpu);
	tt_storage_args_str(c->st, "name", sp->name, strlen(sp->name));
	tt_proto_dims_end(c, t);
	tt_storage_args_begin(c->st);
	tt_storage_args_str(c->st, "description", sp->description ? sp->description : "",
			    sp->description ? strlen(sp->description) : 0);
	tt_storage_track_set_source_args(c->st, t, tt_args_tracker_end(c->im->args));
	return t;
}

static const Perfetto__Protos__GpuCounterDescriptor__GpuCounterGroupSpec *group_of(const GDesc *d, int64_t id)
{
	for (size_t i = 0; i < d->n_counter_groups; i++)
		if (d->counter_groups[i]->has_group_id && d->counter_groups[i]->group_id == id)
			return d->counter_groups[i];
	return NULL;
}

/* The groups a spec names (group 0, UNCLASSIFIED, when none), with the
 * name and description the descriptor gives a group. */
static void spec_groups(pctx *c, const GDesc *d, const GSpec *sp, uint32_t track)
{
	if (!sp->n_groups) {
		tt_storage_gpu_group(c->st, 0, track, 0, 0);
		return;
	}
	for (size_t i = 0; i < sp->n_groups; i++) {
		const Perfetto__Protos__GpuCounterDescriptor__GpuCounterGroupSpec *gs = group_of(d, sp->groups[i]);

		tt_storage_gpu_group(c->st, sp->groups[i], track, gs ? intern_c(c, gs->name) : 0,
				     gs ? intern_c(c, gs->description) : 0);
	}
}

/* The descriptor's custom groups: the counters each lists by id. */
static void custom_groups(pctx *c, struct tt_proto_gpu *g, const GDesc *d, uint32_t owner)
{
	for (size_t i = 0; i < d->n_counter_groups; i++) {
		const Perfetto__Protos__GpuCounterDescriptor__GpuCounterGroupSpec *gs = d->counter_groups[i];

		if (!gs->has_group_id)
			continue;
		for (size_t k = 0; k < gs->n_counter_ids; k++) {
			uint64_t *v = tt_pmap_find(&g->ctrs, (uint64_t)owner << 32 | gs->counter_ids[k]);

			if (v)
				tt_storage_gpu_group(c->st, gs->group_id, g->ctr.v[*v - 1].track, intern_c(c, gs->name),
						     intern_c(c, gs->description));
		}
	}
}

/* A descriptor's specs as the counters of owner (0: inline, global). */
static void read_descriptor(pctx *c, struct tt_proto_gpu *g, const GDesc *d, int32_t gpu, uint32_t owner)
{
	for (size_t i = 0; i < d->n_specs; i++) {
		const GSpec *sp = d->specs[i];
		uint64_t key = (uint64_t)owner << 32 | sp->counter_id;
		struct gctr ct;

		if (!sp->has_counter_id || !sp->name) {
			/* (an interned descriptor's bad spec is skipped quietly, as there) */
			if (!owner)
				stat(c, TT_STAT_gpu_counters_invalid_spec);
			continue;
		}
		if (tt_pmap_find(&g->ctrs, key)) {
			/* inline: a counter id given again; interned: the
			 * first spec of an id keeps its track */
			if (!owner)
				stat(c, TT_STAT_gpu_counters_invalid_spec);
			continue;
		}
		ct.track = counter_track(c, gpu, sp);
		ct.fwd = sp->has_value_direction && sp->value_direction == 2;
		if (ct.track == TT_NONE)
			continue;
		if (TT_VEC_PUSH(g->ctr, ct) || tt_pmap_put(&g->ctrs, key, g->ctr.n)) {
			c->oom = 1;
			return;
		}
		spec_groups(c, d, sp, ct.track);
	}
	custom_groups(c, g, d, owner);
}

/* The owner of an event's interned descriptor, read at its first use;
 * 0 (and counted) when the sequence has none of that iid. */
static uint32_t interned_owner(pctx *c, struct tt_proto_gpu *g, pseq *s, uint64_t iid)
{
	struct gintern *e = in_find(g, IN_DESC, s->id, iid);
	Perfetto__Protos__InternedGpuCounterDescriptor *m;

	if (e && e->owner)
		return e->owner;
	if (!e || !e->blob ||
	    !(m = perfetto__protos__interned_gpu_counter_descriptor__unpack(NULL, e->n, e->blob))) {
		stat(c, TT_STAT_gpu_counters_invalid_spec);
		return 0;
	}
	if (!m->counter_descriptor) {
		stat(c, TT_STAT_gpu_counters_invalid_spec);
	} else {
		e->owner = ++g->owners;
		read_descriptor(c, g, m->counter_descriptor, m->gpu_id, e->owner);
	}
	perfetto__protos__interned_gpu_counter_descriptor__free_unpacked(m, NULL);
	return e->owner;
}

void tt_proto_on_gpu_counters(pctx *c, pseq *s, const Pkt *p, int64_t ts)
{
	const Perfetto__Protos__GpuCounterEvent *ev = p->gpu_counter_event;
	struct tt_proto_gpu *g = gpu_state(c);
	uint32_t owner = 0;

	if (!g)
		return;
	if (ev->desc_case == PERFETTO__PROTOS__GPU_COUNTER_EVENT__DESC_COUNTER_DESCRIPTOR_IID) {
		if (!(owner = interned_owner(c, g, s, ev->counter_descriptor_iid)))
			return;
	} else if (ev->desc_case == PERFETTO__PROTOS__GPU_COUNTER_EVENT__DESC_COUNTER_DESCRIPTOR) {
		read_descriptor(c, g, ev->counter_descriptor, ev->gpu_id, 0);
	}
	if (!ev->n_counters)
		return;
	if (!p->has_timestamp) {
		stat(c, TT_STAT_gpu_counters_missing_timestamp);
		return;
	}
	for (size_t i = 0; i < ev->n_counters; i++) {
		const Perfetto__Protos__GpuCounterEvent__GpuCounter *k = ev->counters[i];
		double v;
		int64_t bits;

		if (!k->has_counter_id || k->value_case == PERFETTO__PROTOS__GPU_COUNTER_EVENT__GPU_COUNTER__VALUE__NOT_SET)
			continue;
		v = k->value_case == PERFETTO__PROTOS__GPU_COUNTER_EVENT__GPU_COUNTER__VALUE_INT_VALUE ?
			    (double)k->int_value : k->double_value;
		memcpy(&bits, &v, sizeof(bits));
		/* resolved when fed: an inline descriptor later in the file
		 * still names the counter, as trace processor's full sort */
		tt_proto_push_ft(c, s, ts, FT_GPU_COUNTER, (uint64_t)owner << 32 | k->counter_id, bits, 0, 0, 0);
	}
}

void tt_proto_feed_gpu_counter(pctx *c, const prec *r)
{
	struct tt_proto_gpu *g = c->gpu;
	uint64_t *v = g ? tt_pmap_find(&g->ctrs, r->id) : NULL, *last;
	const struct gctr *ct;
	double val;
	int64_t row;

	if (!v) {
		/* an interned descriptor that does not name the counter (an
		 * inline one may just not have come yet: quiet) */
		if (r->id >> 32)
			stat(c, TT_STAT_gpu_counters_invalid_spec);
		return;
	}
	ct = &g->ctr.v[*v - 1];
	memcpy(&val, &r->u.i, sizeof(val));
	row = tt_storage_counter(c->st, ct->track, r->ts, ct->fwd ? val : 0.0);
	if (row < 0)
		return;
	last = tt_pmap_find(&g->last_row, ct->track);
	if (!ct->fwd && last && *last)
		tt_storage_counter_set_value(c->st, (int64_t)*last - 1, val);
	if (tt_pmap_put(&g->last_row, ct->track, (uint64_t)row + 1))
		c->oom = 1;
}

/* ---- interned data --------------------------------------------------------------- */

void tt_proto_on_interned_gpu(pctx *c, pseq *s, const Perfetto__Protos__InternedData *in)
{
	struct tt_proto_gpu *g;
	size_t i;

	if (!in->n_gpu_counter_descriptors && !in->n_gpu_specifications && !in->n_graphics_contexts)
		return;
	if (!(g = gpu_state(c)))
		return;
	for (i = 0; i < in->n_gpu_counter_descriptors; i++) {
		const Perfetto__Protos__InternedGpuCounterDescriptor *d = in->gpu_counter_descriptors[i];
		struct gintern *e = in_put(c, g, IN_DESC, s->id, d->iid);
		size_t n = perfetto__protos__interned_gpu_counter_descriptor__get_packed_size(d);

		/* packed again: read when an event first names it */
		if (!e || !(e->blob = malloc(n ? n : 1))) {
			c->oom = 1;
			return;
		}
		e->n = perfetto__protos__interned_gpu_counter_descriptor__pack(d, e->blob);
	}
	for (i = 0; i < in->n_gpu_specifications; i++) {
		const Perfetto__Protos__InternedGpuRenderStageSpecification *sp = in->gpu_specifications[i];
		struct gintern *e = in_put(c, g, IN_SPEC, s->id, sp->iid);

		if (!e)
			return;
		e->name = intern_c(c, sp->name ? sp->name : "");
		e->desc = intern_c(c, sp->description ? sp->description : "");
		e->category = sp->category;
	}
	for (i = 0; i < in->n_graphics_contexts; i++) {
		const Perfetto__Protos__InternedGraphicsContext *gc = in->graphics_contexts[i];
		struct gintern *e = in_put(c, g, IN_CTX, s->id, gc->iid);

		if (!e)
			return;
		e->pid = gc->pid;
		e->has_pid = gc->has_pid;
		e->api = gc->has_api ? gc->api : -1;
	}
}

/* ---- render stages ------------------------------------------------------------------ */

/* The deprecated specifications: hardware queues and stages by their
 * index (name, description pairs; name 0: none given). */
static void old_specs(pctx *c, struct tt_proto_gpu *g, const Perfetto__Protos__GpuRenderStageEvent__Specifications *sp)
{
	size_t i;

	for (i = 0; i < sp->n_hw_queue; i++) {
		if (!sp->hw_queue[i]->name)
			continue;
		while (g->queues.n < 2 * (i + 1))
			if (TT_VEC_PUSH(g->queues, 0)) {
				c->oom = 1;
				return;
			}
		g->queues.v[2 * i] = intern_c(c, sp->hw_queue[i]->name);
		g->queues.v[2 * i + 1] = intern_c(c, sp->hw_queue[i]->description ? sp->hw_queue[i]->description : "");
	}
	for (i = 0; i < sp->n_stage; i++) {
		if (!sp->stage[i]->name)
			continue;
		if (TT_VEC_PUSH(g->stages, intern_c(c, sp->stage[i]->name)) ||
		    TT_VEC_PUSH(g->stages, intern_c(c, sp->stage[i]->description ? sp->stage[i]->description : "")))
			c->oom = 1;
	}
}

/* The "gpu_render_stage" tracks of a hardware queue: by (gpu, where its
 * id comes from, the id, its name), named name, described desc (0:
 * none); a set of lanes, as trace processor's track compressor keeps
 * them, its stages going to the first lane free at their start (when
 * fed: FT_GPU_STAGE). Returns the set, or TT_NONE. */
static uint32_t stage_set(pctx *c, int32_t gpu, int interned, uint32_t queue, tt_str dim_name, tt_str name,
			  tt_str desc)
{
	static const char type[] = "gpu_render_stage";
	uint32_t ugpu = tt_storage_gpu(c->st, (uint32_t)gpu);
	tt_track_desc d = { .type = type, .name = name, .utid = TT_NONE, .upid = TT_NONE, .parent_id = TT_NONE,
			    .cpu = -1 };
	tt_async_args a = { .ndim = 4 };

	if (ugpu == TT_NONE)
		return TT_NONE;
	a.dim[0] = (tt_async_arg){ "ugpu", 'u', ugpu, NULL };
	a.dim[1] = (tt_async_arg){ "gpu", 'u', (uint32_t)gpu, NULL };
	a.dim[2] = (tt_async_arg){ "render_stage_source", 'c', 0, interned ? "iid" : "id" };
	a.dim[3] = (tt_async_arg){ "hwqueue_id", 'u', queue, NULL };
	if (dim_name)
		a.dim[a.ndim++] = (tt_async_arg){ "hwqueue_name", 's', dim_name, NULL };
	if (desc)
		a.src[a.nsrc++] = (tt_async_arg){ "description", 's', desc, NULL };
	return tt_async_set(c->im->async, tt_fnv1a64(TT_FNV1A64_SEED, type, strlen(type)),
			    (uint64_t)(uint32_t)gpu << 32 | queue, (uint64_t)interned << 32 | dim_name, &d, &a);
}

/* slice onto the list of event id in m. */
static void list_add(pctx *c, struct tt_proto_gpu *g, tt_pmap *m, uint64_t id, int64_t slice)
{
	uint64_t *head = tt_pmap_find(m, id);
	struct gnode n = { slice, head ? (uint32_t)*head : 0 };

	if (TT_VEC_PUSH(g->nodes, n) || tt_pmap_put(m, id, g->nodes.n))
		c->oom = 1;
}

/* Flows from each slice of event id in m to slice (out 1), or from slice
 * to each (out 0). */
static void list_flows(pctx *c, struct tt_proto_gpu *g, tt_pmap *m, uint64_t id, int64_t slice, int out)
{
	uint64_t *head = tt_pmap_find(m, id);

	for (uint32_t i = head ? (uint32_t)*head : 0; i; i = g->nodes.v[i - 1].next) {
		int64_t other = g->nodes.v[i - 1].slice;

		tt_storage_flow_link(c->st, out ? other : slice, out ? slice : other);
	}
}

void tt_proto_feed_gpu_stage(pctx *c, const prec *r)
{
	struct tt_proto_gpu *g = c->gpu;
	uint32_t t = tt_async_track_in_set_scoped(c->im->async, (uint32_t)r->id, r->ts, r->u.i);
	const struct gstage *st;
	int64_t slice;

	if (t == TT_NONE) {
		c->oom = 1;
		return;
	}
	slice = tt_slice_tracker_complete(c->im->slices, t, r->ts, r->u.i, 0, r->name, r->args);
	if (slice < 0 || !g || (r->id >> 32) >= g->stage_ev.n)
		return;
	/* its event's slices: flows to the slices waiting for the event;
	 * the events it waits for: flows from their slices, and it waits
	 * for slices of those events still to come */
	st = &g->stage_ev.v[r->id >> 32];
	list_add(c, g, &g->ev_slices, st->event_id, slice);
	list_flows(c, g, &g->ev_waits, st->event_id, slice, 0);
	for (size_t i = 0; i < st->nwait; i++) {
		uint64_t w = g->waits.v[st->wait_at + i];

		list_flows(c, g, &g->ev_slices, w, slice, 1);
		list_add(c, g, &g->ev_waits, w, slice);
	}
}

static void arg_tstr(pctx *c, const char *key, tt_str v)
{
	const char *s = tt_storage_str(c->st, v);

	if (s)
		tt_storage_args_str(c->st, key, s, strlen(s));
}

/* render_subpass_index_mask's set bits as "i,j,..." (each mask word
 * counts 64 bits on from the last set bit's word, as trace processor's
 * ParseRenderSubpasses); 0 without a mask. */
static void subpasses_arg(pctx *c, const GStage *ev)
{
	char buf[1024];
	size_t n = 0;
	uint32_t bit = 0;

	if (!ev->n_render_subpass_index_mask)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < ev->n_render_subpass_index_mask; i++) {
		uint64_t m = ev->render_subpass_index_mask[i];

		do {
			if ((m & 1) && n < sizeof(buf))
				n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%u", n ? "," : "", bit);
			m >>= 1;
			bit++;
		} while (m);
		bit = ((bit - 1) / 64 + 1) * 64;
	}
	tt_storage_args_str(c->st, "render_subpasses", buf, strlen(buf));
}

/* A graphics context's gpu_context row, the first time an event names it. */
static void context_row(pctx *c, struct tt_proto_gpu *g, uint64_t id, const struct gintern *e)
{
	static const char *const apis[] = { "UNDEFINED", "OPEN_GL", "VULKAN", "OPEN_CL", "CUDA", "HIP" };
	const char *api = e->api < 0 ? NULL : (size_t)e->api < sizeof(apis) / sizeof(apis[0]) ? apis[e->api] : apis[0];

	if (tt_pmap_find(&g->contexts, id))
		return;
	if (tt_pmap_put(&g->contexts, id, 1)) {
		c->oom = 1;
		return;
	}
	tt_storage_gpu_context(c->st, id, e->has_pid ? e->pid : INT64_MIN, api ? intern_c(c, api) : 0);
}

void tt_proto_on_gpu_render_stage(pctx *c, pseq *s, const GStage *ev, int64_t ts)
{
	struct tt_proto_gpu *g = gpu_state(c);
	int32_t pid = 0, gpu = ev->has_gpu_id ? ev->gpu_id : 0;
	tt_str tname = 0, tdesc = 0, dim = 0, name = 0;
	uint64_t queue;
	int interned = ev->has_hw_queue_iid;
	const struct gintern *stage = NULL;
	struct gstage st;
	uint32_t set;

	if (!g)
		return;
	if (ev->specifications) {
		old_specs(c, g, ev->specifications);
		if (ev->specifications->context_spec && ev->specifications->context_spec->has_pid)
			pid = ev->specifications->context_spec->pid;
	}
	if (ev->has_context) {
		const struct gintern *e = in_find(g, IN_CTX, s->id, ev->context);

		if (e) {
			pid = e->pid;
			context_row(c, g, ev->context, e);
		}
	}
	if (!ev->has_event_id)
		return;
	if (interned) {
		const struct gintern *e = in_find(g, IN_SPEC, s->id, ev->hw_queue_iid);

		if (!e)
			return;
		queue = ev->hw_queue_iid;
		tname = dim = e->name;
		tdesc = tt_storage_str(c->st, e->desc)[0] ? e->desc : 0;
	} else {
		queue = (uint32_t)ev->hw_queue_id;
		if (2 * queue + 1 < g->queues.n && g->queues.v[2 * queue]) {
			tname = dim = g->queues.v[2 * queue];
			tdesc = g->queues.v[2 * queue + 1];
		} else {
			char buf[64];

			/* a queue no specification named: a track of its own */
			snprintf(buf, sizeof(buf), "Unknown GPU Queue %llu", (unsigned long long)queue);
			tname = intern_c(c, buf);
		}
	}
	set = stage_set(c, gpu, interned, (uint32_t)queue, dim, tname, tdesc);
	if (set == TT_NONE)
		return;
	if (ev->has_stage_iid)
		stage = in_find(g, IN_SPEC, s->id, ev->stage_iid);
	if (ev->name_field_case == PERFETTO__PROTOS__GPU_RENDER_STAGE_EVENT__NAME_FIELD_NAME_IID) {
		if (!tt_proto_itab_find(&s->names, ev->name_iid, &name))
			name = 0;
	} else if (ev->name_field_case == PERFETTO__PROTOS__GPU_RENDER_STAGE_EVENT__NAME_FIELD_NAME) {
		name = intern_c(c, ev->name);
	} else if (ev->has_stage_iid) {
		name = stage ? stage->name : 0;
	} else if (2 * (uint64_t)(uint32_t)ev->stage_id + 1 < g->stages.n) {
		name = g->stages.v[2 * (size_t)(uint32_t)ev->stage_id];
	} else {
		char buf[64];

		snprintf(buf, sizeof(buf), "render stage(%llu)", (unsigned long long)(int64_t)ev->stage_id);
		name = intern_c(c, buf);
	}

	/* the args, in trace processor's order (its NULL strings left out) */
	tt_storage_args_begin(c->st);
	if (stage) {
		tt_storage_args_int(c->st, "render_stage_category", stage->category);
		arg_tstr(c, "description", stage->desc);
	} else if (!ev->has_stage_iid && ev->has_stage_id &&
		   2 * (uint64_t)(uint32_t)ev->stage_id + 1 < g->stages.n) {
		arg_tstr(c, "description", g->stages.v[2 * (size_t)(uint32_t)ev->stage_id + 1]);
	}
	if (ev->render_pass_instance_id) {
		char buf[40];

		snprintf(buf, sizeof(buf), "rp:#%llu", (unsigned long long)ev->render_pass_instance_id);
		tt_storage_args_str(c->st, "correlation_id", buf, strlen(buf));
	}
	for (size_t i = 0; i < ev->n_extra_data; i++) {
		const Perfetto__Protos__GpuRenderStageEvent__ExtraData *x = ev->extra_data[i];

		if (x->name && x->value)
			tt_storage_args_str(c->st, x->name, x->value, strlen(x->value));
	}
	tt_storage_args_uint(c->st, "context_id", ev->context);
	tt_storage_args_uint(c->st, "render_target", ev->render_target_handle);
	tt_storage_args_uint(c->st, "render_pass", ev->render_pass_handle);
	subpasses_arg(c, ev);
	tt_storage_args_uint(c->st, "command_buffer", ev->command_buffer_handle);
	tt_storage_args_int(c->st, "submission_id", ev->submission_id);
	tt_storage_args_uint(c->st, "hw_queue_id", queue);
	tt_storage_args_int(c->st, "upid", tt_proto_process(c, pid));
	st.event_id = ev->event_id;
	st.wait_at = g->waits.n;
	st.nwait = ev->n_event_wait_ids;
	for (size_t i = 0; i < ev->n_event_wait_ids; i++)
		if (TT_VEC_PUSH(g->waits, ev->event_wait_ids[i]))
			c->oom = 1;
	if (TT_VEC_PUSH(g->stage_ev, st)) {
		c->oom = 1;
		tt_args_tracker_end(c->im->args);
		return;
	}
	tt_proto_push_ft(c, s, ts, FT_GPU_STAGE, (uint64_t)(g->stage_ev.n - 1) << 32 | set, (int64_t)ev->duration, name,
			 0, tt_args_tracker_end(c->im->args));
}

/* ---- GpuInfo ----------------------------------------------------------------------- */

void tt_proto_on_gpu_info(pctx *c, const Perfetto__Protos__GpuInfo *gi)
{
	for (size_t i = 0; i < gi->n_gpus; i++) {
		const Perfetto__Protos__GpuInfo__Gpu *gp = gi->gpus[i];
		tt_gpu_info info = { .arg_set_id = TT_NONE };
		uint32_t ugpu = tt_storage_gpu(c->st, (uint32_t)i);
		char hex[2 * 64 + 1];
		size_t k;

		if (ugpu == TT_NONE)
			return;
#define NONEMPTY(f) (gp->f && *gp->f ? intern_c(c, gp->f) : 0)
		info.name = NONEMPTY(name);
		info.vendor = NONEMPTY(vendor);
		info.model = NONEMPTY(model);
		info.arch = NONEMPTY(architecture);
		info.pci_bdf = NONEMPTY(pci_bdf);
#undef NONEMPTY
		if (gp->has_uuid && gp->uuid.len) {
			/* hex, as trace processor's base::ToHex (a longer one cut) */
			for (k = 0; k < gp->uuid.len && k < 64; k++)
				snprintf(hex + 2 * k, 3, "%02x", gp->uuid.data[k]);
			info.uuid = intern_c(c, hex);
		}
		if (gp->n_extra_info) {
			tt_storage_args_begin(c->st);
			for (k = 0; k < gp->n_extra_info; k++) {
				const Perfetto__Protos__GpuInfo__Gpu__KeyValue *kv = gp->extra_info[k];

				if (kv->key && kv->value)
					tt_storage_args_str(c->st, kv->key, kv->value, strlen(kv->value));
			}
			info.arg_set_id = tt_args_tracker_end(c->im->args);
		}
		tt_storage_gpu_info(c->st, ugpu, &info);
	}
}
