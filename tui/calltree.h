/*
 * calltree.h - call trees of a range (or of one slice): top-down (each
 * node a call path, columns total, self, calls, uftrace's `tui` graph)
 * and bottom-up (roots are the names with self time, children their
 * callers). Times are clipped to the range like the aggregation's. Pure
 * code (unit-tested in test_tui_calltree); the viewer builds a tree off
 * the draw path, once per request, with a progress callback.
 */
#ifndef TT_CALLTREE_H
#define TT_CALLTREE_H

#include <stddef.h>
#include <stdint.h>

#include "termtrace.h"

#define TT_CT_NONE UINT32_MAX

typedef struct tt_ct_node {
	uint32_t name;      /* string id; TT_CT_NONE for the root */
	uint32_t parent, child, next; /* children sorted by total, largest first */
	uint32_t depth;     /* root 0 */
	int64_t total, self, calls;
} tt_ct_node;

typedef struct tt_calltree {
	tt_ct_node *nodes;  /* node 0 is the root */
	size_t n, cap;
	uint64_t *hkeys;    /* (parent, name) -> node */
	uint32_t *hvals;
	size_t hcap;
	int bottom_up;
	size_t nslices;     /* slices that went in */
	uint32_t *node_of;  /* node of each slice id (TT_CT_NONE when out;
			     * bottom-up: its root, the node of its name),
			     * for highlighting a node's slices */
	size_t nsc;         /* entries of node_of */
	uint32_t min_depth;
	uint32_t *by_off, *by_ids; /* top-down: slice ids of each node (CSR,
				    * ids ascending), made on first use */
} tt_calltree;

/* Called every 64K slices; non-zero cancels the build (returns 1). */
typedef int (*tt_ct_progress_fn)(void *ctx, size_t done, size_t total);

/* Builds the tree of the slices on the tracks with tracks[id] set (NULL:
 * all) at depth >= min_depth that intersect [a, b); slices at min_depth
 * are roots. Returns 0, -1 on OOM, 1 when cancelled. */
int tt_calltree_build(tt_calltree *ct, const tt_slice_cols *sc, const uint8_t *tracks, size_t ntracks,
		      int64_t a, int64_t b, int64_t open_end, uint32_t min_depth, int bottom_up,
		      tt_ct_progress_fn progress, void *ctx);
void tt_calltree_free(tt_calltree *ct);
/* The slices of node k (sc: the columns the tree was built from): top-
 * down, the slices whose call path is k; bottom-up, at a root the slices
 * of its name, deeper the callers at that level of the path. *ids gets
 * them malloc'ed, ascending; returns the count, -1 on OOM. The first
 * call on a top-down tree indexes every node (one pass), so that moving
 * from node to node costs only the node's slices. */
long tt_calltree_node_slices(tt_calltree *ct, const tt_slice_cols *sc, uint32_t k, int64_t **ids);

#endif
