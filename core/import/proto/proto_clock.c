/*
 * proto_clock.c - clock snapshots and timestamp conversion for the
 * Perfetto importer (see proto_clock.h for the rules and known limits).
 * Arithmetic on timestamps is done in uint64 and cast back so that hostile
 * values wrap instead of being undefined behaviour.
 */
#include "proto_clock.h"

#include <stdlib.h>

#include "proto_map.h"
#include "vec.h"

typedef struct edge {
	int64_t a;     /* clock value (ns) in the snapshot */
	int64_t trace; /* trace clock value (ns) in the same snapshot */
} edge;

typedef struct clk {
	int is_incremental;
	uint64_t mult;
	int64_t last_ns;
	TT_VEC(edge) edges; /* sorted by a */
} clk;

struct tt_proto_clock {
	uint32_t primary;
	int primary_fixed;
	tt_pmap index; /* clock key -> index in clocks */
	uint64_t last_key; /* get_clk cache */
	size_t last_idx;
	TT_VEC(clk) clocks;
	uint32_t nsnap;    /* snapshots added */
};

static uint64_t clock_key(uint32_t seq, uint32_t id)
{
	if (id >= 64 && id <= 127)
		return ((uint64_t)seq << 32) | id;
	return id;
}

tt_proto_clock *tt_proto_clock_new(void)
{
	tt_proto_clock *c = calloc(1, sizeof(*c));

	if (c) {
		c->primary = TT_CLOCK_BOOTTIME;
		c->last_idx = (size_t)-1;
	}
	return c;
}

void tt_proto_clock_free(tt_proto_clock *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->clocks.n; i++)
		TT_VEC_FREE(c->clocks.v[i].edges);
	TT_VEC_FREE(c->clocks);
	tt_pmap_free(&c->index);
	free(c);
}

uint32_t tt_proto_clock_primary(const tt_proto_clock *c)
{
	return c->primary;
}

static clk *get_clk(tt_proto_clock *c, uint64_t key, int create)
{
	uint64_t *idx;
	clk z = {0};

	if (c->last_idx < c->clocks.n && c->last_key == key)
		return &c->clocks.v[c->last_idx];
	idx = tt_pmap_find(&c->index, key);
	if (idx) {
		c->last_key = key;
		c->last_idx = (size_t)*idx;
		return &c->clocks.v[*idx];
	}
	if (!create)
		return NULL;
	z.mult = 1;
	if (TT_VEC_PUSH(c->clocks, z) || tt_pmap_put(&c->index, key, c->clocks.n - 1))
		return NULL;
	return &c->clocks.v[c->clocks.n - 1];
}

static int64_t via_edges(const clk *k, int64_t ns)
{
	size_t lo = 0, hi = k->edges.n;
	const edge *e;

	/* last edge with a <= ns, else the first */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (k->edges.v[mid].a <= ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	e = &k->edges.v[lo ? lo - 1 : 0];
	return (int64_t)((uint64_t)e->trace + ((uint64_t)ns - (uint64_t)e->a));
}

static int add_edge(clk *k, int64_t a, int64_t trace)
{
	edge e = { a, trace };
	size_t i;

	if (TT_VEC_PUSH(k->edges, e))
		return -1;
	/* snapshots mostly arrive in time order: one insertion step */
	for (i = k->edges.n - 1; i > 0 && k->edges.v[i - 1].a > a; i--) {
		k->edges.v[i] = k->edges.v[i - 1];
		k->edges.v[i - 1] = e;
	}
	return 0;
}

int tt_proto_clock_snapshot(tt_proto_clock *c, uint32_t seq, const tt_proto_clock_value *v,
			    size_t n, int has_primary, uint32_t primary, uint32_t *id, int64_t *at)
{
	int64_t ns[32], trace_ns = 0;
	uint64_t pkey;
	size_t i;
	int have_trace = 0;

	*id = c->nsnap++;

	if (!c->primary_fixed) {
		c->primary = has_primary && primary ? primary : TT_CLOCK_BOOTTIME;
		c->primary_fixed = 1;
	}
	if (n > 32)
		n = 32; /* real snapshots hold < 16 clocks */
	pkey = clock_key(seq, c->primary);
	for (i = 0; i < n; i++) {
		uint64_t mult = v[i].mult ? v[i].mult : 1;
		clk *k = get_clk(c, clock_key(seq, v[i].id), 1);

		if (!k)
			return -1;
		ns[i] = (int64_t)(v[i].ts * mult);
		k->is_incremental = v[i].is_incremental;
		k->mult = mult;
		k->last_ns = ns[i];
		if (clock_key(seq, v[i].id) == pkey) {
			have_trace = 1;
			trace_ns = ns[i];
		}
	}
	if (!have_trace) {
		/* one hop: a clock of this snapshot that already converts */
		for (i = 0; i < n && !have_trace; i++) {
			clk *k = get_clk(c, clock_key(seq, v[i].id), 0);
			if (k && k->edges.n) {
				trace_ns = via_edges(k, ns[i]);
				have_trace = 1;
			}
		}
	}
	if (!have_trace)
		return 0;
	for (i = 0; i < n; i++) {
		uint64_t key = clock_key(seq, v[i].id);
		clk *k;

		if (key == pkey)
			continue;
		k = get_clk(c, key, 0);
		if (k && add_edge(k, ns[i], trace_ns))
			return -1;
	}
	*at = trace_ns;
	return 1;
}

int tt_proto_clock_to_trace(tt_proto_clock *c, uint32_t seq, uint32_t clock_id,
			    uint64_t raw, int64_t *out)
{
	uint64_t key = clock_key(seq, clock_id);
	clk *k = get_clk(c, key, 0);
	int64_t ns;

	if (!k) {
		*out = (int64_t)raw;
		return key == c->primary ? 0 : -1;
	}
	if (k->is_incremental) {
		k->last_ns = (int64_t)((uint64_t)k->last_ns + raw * k->mult);
		ns = k->last_ns;
	} else {
		ns = (int64_t)(raw * k->mult);
	}
	if (key == c->primary) {
		*out = ns;
		return 0;
	}
	if (!k->edges.n) {
		*out = ns;
		return -1;
	}
	*out = via_edges(k, ns);
	return 0;
}
