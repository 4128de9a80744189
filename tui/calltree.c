/*
 * calltree.c - call tree builder (see calltree.h).
 */
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "calltree.h"

static uint64_t hkey(uint32_t parent, uint32_t name)
{
	return ((uint64_t)parent << 32 | name) + 1; /* 0 = empty slot */
}

static size_t hslot(uint64_t k, size_t cap)
{
	k ^= k >> 29;
	k *= 0xbf58476d1ce4e5b9ull;
	k ^= k >> 32;
	return (size_t)k & (cap - 1);
}

static int hgrow(tt_calltree *ct)
{
	size_t cap = ct->hcap ? ct->hcap * 2 : 4096;
	uint64_t *k = calloc(cap, sizeof *k);
	uint32_t *v = malloc(cap * sizeof *v);

	if (!k || !v) {
		free(k);
		free(v);
		return -1;
	}
	for (size_t i = 0; i < ct->hcap; i++) {
		if (!ct->hkeys[i])
			continue;
		size_t h = hslot(ct->hkeys[i], cap);
		while (k[h])
			h = (h + 1) & (cap - 1);
		k[h] = ct->hkeys[i];
		v[h] = ct->hvals[i];
	}
	free(ct->hkeys);
	free(ct->hvals);
	ct->hkeys = k;
	ct->hvals = v;
	ct->hcap = cap;
	return 0;
}

/* The child of parent named name, made when new; TT_CT_NONE on OOM. */
static uint32_t child_of(tt_calltree *ct, uint32_t parent, uint32_t name)
{
	uint64_t k = hkey(parent, name);
	size_t h = hslot(k, ct->hcap);

	while (ct->hkeys[h]) {
		if (ct->hkeys[h] == k)
			return ct->hvals[h];
		h = (h + 1) & (ct->hcap - 1);
	}
	if ((ct->n + 1) * 2 > ct->hcap) {
		if (hgrow(ct) < 0)
			return TT_CT_NONE;
		h = hslot(k, ct->hcap);
		while (ct->hkeys[h])
			h = (h + 1) & (ct->hcap - 1);
	}
	if (ct->n == ct->cap) {
		size_t nc = ct->cap * 2;
		tt_ct_node *nn = realloc(ct->nodes, nc * sizeof *nn);
		if (!nn)
			return TT_CT_NONE;
		ct->nodes = nn;
		ct->cap = nc;
	}
	uint32_t id = (uint32_t)ct->n++;
	ct->nodes[id] = (tt_ct_node){.name = name, .parent = parent, .child = TT_CT_NONE,
				     .next = ct->nodes[parent].child, .depth = ct->nodes[parent].depth + 1};
	ct->nodes[parent].child = id;
	ct->hkeys[h] = k;
	ct->hvals[h] = id;
	return id;
}

/* Children lists sorted by total (largest first), ties by name id. */
static int cmp_total(const void *pa, const void *pb, const tt_ct_node *nodes)
{
	const tt_ct_node *a = &nodes[*(const uint32_t *)pa], *b = &nodes[*(const uint32_t *)pb];
	if (a->total != b->total)
		return a->total > b->total ? -1 : 1;
	return (a->name > b->name) - (a->name < b->name);
}

static const tt_ct_node *sort_nodes;
static int cmp_q(const void *a, const void *b)
{
	return cmp_total(a, b, sort_nodes);
}

static int sort_children(tt_calltree *ct)
{
	uint32_t *buf = malloc(ct->n * sizeof *buf);

	if (!buf)
		return -1;
	sort_nodes = ct->nodes;
	for (size_t p = 0; p < ct->n; p++) {
		size_t k = 0;
		for (uint32_t c = ct->nodes[p].child; c != TT_CT_NONE; c = ct->nodes[c].next)
			buf[k++] = c;
		if (k > 1)
			qsort(buf, k, sizeof *buf, cmp_q);
		ct->nodes[p].child = k ? buf[0] : TT_CT_NONE;
		for (size_t i = 0; i < k; i++)
			ct->nodes[buf[i]].next = i + 1 < k ? buf[i + 1] : TT_CT_NONE;
	}
	free(buf);
	return 0;
}

int tt_calltree_build(tt_calltree *ct, const tt_slice_cols *sc, const uint8_t *tracks, size_t ntracks,
		      int64_t a, int64_t b, int64_t open_end, uint32_t min_depth, int bottom_up,
		      tt_ct_progress_fn progress, void *ctx)
{
	uint32_t *node_of = NULL, *stack = NULL;
	int64_t *w = NULL, *kids = NULL;
	size_t nstack = 0, capstack = 64;
	int in, rc = -1;

	memset(ct, 0, sizeof *ct);
	ct->bottom_up = bottom_up;
	ct->min_depth = min_depth;
	ct->cap = 1024;
	ct->nodes = malloc(ct->cap * sizeof *ct->nodes);
	stack = malloc(capstack * sizeof *stack);
	if (!ct->nodes || !stack || hgrow(ct) < 0)
		goto out;
	ct->nodes[0] = (tt_ct_node){.name = TT_CT_NONE, .parent = TT_CT_NONE, .child = TT_CT_NONE,
				    .next = TT_CT_NONE};
	ct->n = 1;
	/* the clipped wall of each slice that goes in, -1 for the others */
	w = malloc((sc->n ? sc->n : 1) * sizeof *w);
	if (!w)
		goto out;
	for (size_t i = 0; i < sc->n; i++) {
		uint32_t t = sc->track_id[i];
		w[i] = -1;
		if (sc->depth[i] < min_depth || (tracks && (t >= ntracks || !tracks[t])))
			continue;
		int64_t x = tt_agg_clip(sc->ts[i], sc->dur[i], a, b, open_end, &in);
		if (in) {
			w[i] = x;
			ct->nslices++;
		}
		if (progress && (i & 0xffff) == 0xffff && progress(ctx, i / 2, sc->n)) {
			rc = 1;
			goto out;
		}
	}
	node_of = malloc((sc->n ? sc->n : 1) * sizeof *node_of);
	if (!node_of)
		goto out;
	memset(node_of, 0xff, (sc->n ? sc->n : 1) * sizeof *node_of);
	if (!bottom_up) {
		for (size_t i = 0; i < sc->n; i++) {
			if (w[i] < 0)
				continue;
			if (progress && (i & 0xffff) == 0xffff && progress(ctx, sc->n / 2 + i / 2, sc->n)) {
				rc = 1;
				goto out;
			}
			/* the path: up to a slice whose node is known, or a root */
			nstack = 0;
			int64_t s = (int64_t)i;
			uint32_t pnode = 0;
			for (;;) {
				if (node_of[s] != TT_CT_NONE) {
					pnode = node_of[s];
					break;
				}
				if (nstack == capstack) {
					uint32_t *ns = realloc(stack, capstack * 2 * sizeof *ns);
					if (!ns)
						goto out;
					stack = ns;
					capstack *= 2;
				}
				stack[nstack++] = (uint32_t)s;
				int32_t p = sc->parent_id[s];
				if (sc->depth[s] <= min_depth || p < 0 || (size_t)p >= sc->n || w[p] < 0) {
					pnode = 0;
					break;
				}
				s = p;
			}
			while (nstack > 0) {
				uint32_t x = stack[--nstack];
				pnode = child_of(ct, pnode, sc->name[x]);
				if (pnode == TT_CT_NONE)
					goto out;
				node_of[x] = pnode;
			}
			ct->nodes[node_of[i]].total += w[i];
			ct->nodes[node_of[i]].calls++;
		}
		for (size_t k = 0; k < ct->n; k++)
			ct->nodes[k].self = ct->nodes[k].total;
		for (size_t k = 1; k < ct->n; k++) {
			ct->nodes[ct->nodes[k].parent].self -= ct->nodes[k].total;
			if (ct->nodes[k].depth == 1)
				ct->nodes[0].total += ct->nodes[k].total;
		}
		ct->nodes[0].self = 0;
	} else {
		/* self time of each slice, then up its callers */
		kids = calloc(sc->n ? sc->n : 1, sizeof *kids);
		if (!kids)
			goto out;
		for (size_t i = 0; i < sc->n; i++) {
			int32_t p = sc->parent_id[i];
			if (w[i] >= 0 && sc->depth[i] > min_depth && p >= 0 && (size_t)p < sc->n && w[p] >= 0)
				kids[p] += w[i];
		}
		for (size_t i = 0; i < sc->n; i++) {
			if (w[i] < 0)
				continue;
			if (progress && (i & 0xffff) == 0xffff && progress(ctx, sc->n / 2 + i / 2, sc->n)) {
				rc = 1;
				goto out;
			}
			int64_t self = w[i] - kids[i];
			uint32_t node = child_of(ct, 0, sc->name[i]);
			if (node == TT_CT_NONE)
				goto out;
			node_of[i] = node;
			ct->nodes[node].total += self;
			ct->nodes[node].self += self;
			ct->nodes[node].calls++;
			ct->nodes[0].total += self;
			int64_t s = (int64_t)i;
			while (sc->depth[s] > min_depth) {
				int32_t p = sc->parent_id[s];
				if (p < 0 || (size_t)p >= sc->n || w[p] < 0)
					break;
				node = child_of(ct, node, sc->name[p]);
				if (node == TT_CT_NONE)
					goto out;
				ct->nodes[node].total += self;
				ct->nodes[node].calls++;
				s = p;
			}
		}
	}
	if (sort_children(ct) < 0)
		goto out;
	ct->node_of = node_of;
	ct->nsc = sc->n;
	node_of = NULL;
	rc = 0;
out:
	free(node_of);
	free(stack);
	free(w);
	free(kids);
	if (rc != 0)
		tt_calltree_free(ct);
	return rc;
}

void tt_calltree_free(tt_calltree *ct)
{
	free(ct->nodes);
	free(ct->hkeys);
	free(ct->hvals);
	free(ct->node_of);
	free(ct->by_off);
	free(ct->by_ids);
	memset(ct, 0, sizeof *ct);
}

/* Top-down: the slice ids of every node, by a counting sort on node_of. */
static int index_nodes(tt_calltree *ct)
{
	uint32_t *off = calloc(ct->n + 1, sizeof *off), *ids = malloc((ct->nslices ? ct->nslices : 1) * sizeof *ids);

	if (!off || !ids) {
		free(off);
		free(ids);
		return -1;
	}
	for (size_t s = 0; s < ct->nsc; s++)
		if (ct->node_of[s] != TT_CT_NONE)
			off[ct->node_of[s] + 1]++;
	for (size_t k = 0; k < ct->n; k++)
		off[k + 1] += off[k];
	for (size_t s = 0; s < ct->nsc; s++) {
		uint32_t k = ct->node_of[s];
		if (k != TT_CT_NONE)
			ids[off[k]++] = (uint32_t)s;
	}
	/* the fill moved each offset to the node's end: shift them back */
	for (size_t k = ct->n; k > 0; k--)
		off[k] = off[k - 1];
	off[0] = 0;
	ct->by_off = off;
	ct->by_ids = ids;
	return 0;
}

long tt_calltree_node_slices(tt_calltree *ct, const tt_slice_cols *sc, uint32_t k, int64_t **ids)
{
	size_t n = 0;

	*ids = NULL;
	if (k == 0 || k >= ct->n || !ct->node_of)
		return 0;
	if (!ct->bottom_up) {
		if (!ct->by_off && index_nodes(ct) < 0)
			return -1;
		n = ct->by_off[k + 1] - ct->by_off[k];
		*ids = malloc((n ? n : 1) * sizeof **ids);
		if (!*ids)
			return -1;
		for (size_t i = 0; i < n; i++)
			(*ids)[i] = ct->by_ids[ct->by_off[k] + i];
		return (long)n;
	}
	/* bottom-up: the path's names from its root (the callee) to k */
	uint32_t d = ct->nodes[k].depth, root = k, *names = malloc(d * sizeof *names);
	uint8_t *seen = calloc(ct->nsc / 8 + 1, 1);
	if (!names || !seen) {
		free(names);
		free(seen);
		return -1;
	}
	for (uint32_t j = d; j > 0; j--) {
		names[j - 1] = ct->nodes[root].name;
		if (j > 1)
			root = ct->nodes[root].parent;
	}
	for (size_t s = 0; s < ct->nsc && s < sc->n; s++) {
		if (ct->node_of[s] != root)
			continue;
		/* up d - 1 callers, each in the tree and of the path's name */
		int64_t x = (int64_t)s;
		uint32_t j = 1;
		for (; j < d; j++) {
			int32_t p = sc->parent_id[x];
			if (sc->depth[x] <= ct->min_depth || p < 0 || (size_t)p >= ct->nsc ||
			    ct->node_of[p] == TT_CT_NONE || sc->name[p] != names[j])
				break;
			x = p;
		}
		if (j < d || (seen[x / 8] >> (x % 8)) & 1)
			continue;
		seen[x / 8] |= (uint8_t)(1u << (x % 8));
		n++;
	}
	*ids = malloc((n ? n : 1) * sizeof **ids);
	if (!*ids) {
		free(names);
		free(seen);
		return -1;
	}
	n = 0;
	for (size_t s = 0; s < ct->nsc; s++)
		if ((seen[s / 8] >> (s % 8)) & 1)
			(*ids)[n++] = (int64_t)s;
	free(names);
	free(seen);
	return (long)n;
}
