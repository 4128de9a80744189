/*
 * lod.h - level-of-detail summaries of one timeline row, built once after
 * import so that drawing a frame costs O(cells x log n), whatever the
 * trace size.
 *
 * A row is a list of items (slices of one track at one depth, or the
 * samples of one counter track), identified by their id in source columns.
 * The row keeps its own copy of the start times, sorted, the running
 * maximum of the end times (so that "the first item that ends after t" is
 * a binary search even when items overlap) and, for every power-of-two
 * block width 2^k, the item with the largest key in each block (key =
 * duration for slices, value for counters). A cell [a, b) then shows the
 * item with the largest key among those that intersect it: an item that
 * covers the whole cell is, at one depth, the only one there, so a summary
 * never hides a slice that owns a whole cell.
 *
 * Memory: about 32 bytes per item. Pure code, no ncurses.
 */
#ifndef TT_LOD_H
#define TT_LOD_H

#include <stddef.h>
#include <stdint.h>

typedef struct tt_lod_src {
	const int64_t *ts;   /* by id */
	const int64_t *dur;  /* by id, slices; NULL for counters */
	const double *value; /* by id, counters; NULL for slices */
	int64_t open_end;    /* end used for slices with dur < 0 (unfinished) */
	const uint32_t *tag; /* by id, optional: a value the renderer reads for
			      * every item it draws (a slice's name), kept in
			      * the row's order so that a frame does not read
			      * it at random from a column of every slice */
} tt_lod_src;

typedef struct tt_lod_row {
	tt_lod_src src;
	size_t n;
	uint32_t *ids;     /* n ids sorted by ts */
	int64_t *ts;       /* n start times */
	int64_t *maxend;   /* n: max end of items 0..i */
	int nlev;          /* levels 1..nlev of block argmax */
	uint32_t **blk;    /* blk[k][j] = best id of ids[j<<k .. (j+1)<<k) */
	float **bkey;      /* bkey[k][j] = its key (bkey[0][i]: key of ids[i]);
			    * row-local so a pick reads contiguous memory */
	uint32_t *tag;     /* n: src.tag of ids[i] (NULL without src.tag) */
	int exact_end;     /* 1: maxend[i] is ids[i]'s own end for every i (the
			    * items do not overlap: a slice depth), so the
			    * renderer reads an end in the row, not the source */
	uint32_t *marks;   /* sorted positions (in ids) of marked items, */
	size_t nmarks;     /* e.g. search matches; see tt_lod_mark */
	/* one entry per block of TT_LOD_BLOCK items (positions kB..kB+B-1):
	 * a small index that settles a dense cell (tt_lod_cell_kind) without
	 * reading the big arrays, which at whole zoom cost a cache and TLB
	 * miss per cell and row */
	size_t ncoarse;
	int64_t *coarse_ts;  /* start of the block's first item */
	int64_t *coarse_end; /* maxend of its last item */
	int64_t *coarse_len; /* its longest item (end - ts) */
} tt_lod_row;

enum { TT_LOD_BLOCK = 16 };

/* Builds a row from ids (in any order; copied). Returns 0, -1 on OOM. */
int tt_lod_build(tt_lod_row *row, const tt_lod_src *src, const uint32_t *ids, size_t n);
void tt_lod_free(tt_lod_row *row);

/* End of item id: ts + dur, at least ts + 1 so instants occupy a cell;
 * src.open_end for unfinished slices; ts + 1 for counter samples. */
int64_t tt_lod_end(const tt_lod_src *src, uint32_t id);

/* The item to draw in the cell [a, b): the one with the largest key among
 * the items intersecting it, or -1. *hint (start at 0, cells left to
 * right) makes consecutive cells cheap. */
int64_t tt_lod_pick(const tt_lod_row *row, int64_t a, int64_t b, size_t *hint);
/* The same, and *count = how many items start before b among those from
 * the first one ending after a: 1 when the pick is alone in the cell, more
 * when the cell is busy (the renderer draws busy cells differently). */
int64_t tt_lod_pick_n(const tt_lod_row *row, int64_t a, int64_t b, size_t *hint, size_t *count);
/* The renderer's cheaper question, O(log distance) with no summary: the
 * first item intersecting [a, b), and in *count how many start before b
 * from it on. One item: the renderer draws it from this cell on; several:
 * the cell is shared ("busy") and the next cell asks again. In a row of
 * non-overlapping items a slice that covers the whole cell is alone in it,
 * so it is always the one returned, with *count 1. */
int64_t tt_lod_cell(const tt_lod_row *row, int64_t a, int64_t b, size_t *hint, size_t *count);
/* The same answers for cells visited left to right, cheaper when a cell
 * starts where the last one ended: the next cell's first item is found
 * back from the last cell's end position (usually one step), and its end
 * position is looked for first where the last cell's item count puts it
 * (interpolation), so a dense row costs a couple of cache lines per cell,
 * not two binary searches. Start with a zeroed walk; w->i is the hint.
 * Returns 1 when an item intersects the cell: the first is ids[w->i]
 * (read by the caller only when it needs it: a busy cell does not). */
typedef struct tt_lod_walk {
	size_t i, j;   /* positions of the last cell: first item, end */
	int64_t b;     /* end of the last cell; valid when set */
	int valid;
	size_t k;      /* block of the last dense cell (tt_lod_cell_kind) */
	size_t dpos;   /* position in ids of tt_lod_cell_kind's *dom */
} tt_lod_walk;
int tt_lod_cell_walk(const tt_lod_row *row, int64_t a, int64_t b, tt_lod_walk *w, size_t *count);
/* What a slice renderer draws in the cell [a, b), cells left to right:
 *  0: nothing intersects it (w->i = position of the next item, n if none);
 *  1: one item does, ids[w->i], alone in the cell;
 *  2: several do (busy): *marked = one of them is marked; else *dom = the
 *     item covering at least half of the cell (looked for among the first
 *     four: in a row of non-overlapping items only an early one can), or
 *     -1 when none does (a genuinely mixed cell).
 * A dense cell (more than two blocks of TT_LOD_BLOCK items in it) is
 * settled from the block index alone when it can be: no block near its
 * start holds an item long enough to cover half of it, and its marks are
 * plainly in or out. The answers are the same either way. */
int tt_lod_cell_kind(const tt_lod_row *row, int64_t a, int64_t b, tt_lod_walk *w, int64_t *dom,
		     int *marked);
/* tt_lod_cell_kind's answers for the cells from the left on, up to n of
 * them and up to the first that is not busy (kind 2), that one included:
 * busy cells are drawn one by one, each other cell makes the renderer
 * jump, so every answer given is used. Cell c is [edge[c], edge[c + 1]),
 * or [edge[c], edge[c] + 1) when edge[c + 1] is not after edge[c]
 * (columns narrower than 1 ns); a cell at INT64_MAX has no end and is
 * TT_LOD_STOP. Returns the cells answered (>= 1 when n >= 1). w: as for
 * tt_lod_cell_kind, across calls. At whole zoom a frame is mostly runs of
 * busy cells: a loop over a run costs far less than a call per cell. */
enum { TT_LOD_STOP = 3 };
typedef struct tt_lod_cellans {
	int kind;    /* tt_lod_cell_kind's answer, or TT_LOD_STOP */
	int marked;  /* its *marked */
	size_t pos;  /* w->i after the cell: kind 1 the item's position in
		      * ids, kind 0 the next item's (n: none) */
	size_t dpos; /* kind 2: the position of *dom, SIZE_MAX when -1 */
} tt_lod_cellans;
int tt_lod_cells(const tt_lod_row *row, const int64_t *edge, int n, tt_lod_walk *w, tt_lod_cellans *out);
/* Marks the items whose id has its bit set in bits (one bit per id;
 * NULL clears the marks). Returns 0, -1 on OOM (no marks then). */
int tt_lod_mark(tt_lod_row *row, const uint8_t *bits);
/* Whether an item at positions [i, j) of ids is marked: O(log marks),
 * so a busy cell can show that it holds a match. */
int tt_lod_marked(const tt_lod_row *row, size_t i, size_t j);
/* Counters: the largest value sampled in [a, b); when none, the value in
 * effect at a (the last sample before a). Returns 0 when there is none. */
int tt_lod_value(const tt_lod_row *row, int64_t a, int64_t b, double *out);
/* The same for cells visited left to right: *hint (start at 0) keeps the
 * position between calls, so a row of cells costs O(log gap) per cell. */
int tt_lod_value_from(const tt_lod_row *row, int64_t a, int64_t b, size_t *hint, double *out);
/* Index in ids of the first item starting at or after t. */
size_t tt_lod_lower(const tt_lod_row *row, int64_t t);
/* The item containing t (largest key if several), or -1. */
int64_t tt_lod_at(const tt_lod_row *row, int64_t t);

#endif
