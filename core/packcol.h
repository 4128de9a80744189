/*
 * packcol.h - a column of 64-bit values stored in blocks of 64: each block
 * keeps its first value and the others as 16-bit signed differences from
 * it, or, when one does not fit, as 32-bit differences or whole values.
 * For the per-event columns of big imports (row ids, locators, shape
 * ids, utids) whose neighbours are close: about 2.2 bytes a value
 * instead of 8, with O(1) reads.
 *
 * Values are appended in order; one may be changed later (set), which
 * widens its block when needed. Out of memory is a -1 status, the column
 * staying as it was.
 */
#ifndef TT_PACKCOL_H
#define TT_PACKCOL_H

#include <stddef.h>
#include <stdint.h>

#define TT_PACK_BLOCK 64

typedef struct tt_packcol {
	size_t n, cap;      /* values; capacity of lo (a multiple of 64) */
	int16_t *lo;        /* per value: difference from its block's base */
	uint64_t *base;     /* per block: its first value */
	uint32_t *wide;     /* per block: 0, or (k << 1 | 0) block k - 1 of w32,
			     * or (k << 1 | 1) block k - 1 of w64 */
	int32_t *w32;       /* 64 differences a block */
	uint64_t *w64;      /* 64 whole values a block */
	size_t n32, c32, n64, c64; /* blocks in w32 / w64 */
} tt_packcol;

static inline uint64_t tt_packcol_get(const tt_packcol *c, size_t i)
{
	size_t b = i / TT_PACK_BLOCK;
	uint32_t w = c->wide[b];

	if (!w)
		return c->base[b] + (uint64_t)(int64_t)c->lo[i];
	if (!(w & 1))
		return c->base[b] + (uint64_t)(int64_t)c->w32[((size_t)(w >> 1) - 1) * TT_PACK_BLOCK + i % TT_PACK_BLOCK];
	return c->w64[((size_t)(w >> 1) - 1) * TT_PACK_BLOCK + i % TT_PACK_BLOCK];
}

int tt_packcol_push_slow(tt_packcol *c, uint64_t v);

/* Appends v. 0, or -1 when memory ran out. Millions of calls: the common
 * case (a 16-bit difference in a started block) is inline. */
static inline int tt_packcol_push(tt_packcol *c, uint64_t v)
{
	size_t i = c->n;

	if (i % TT_PACK_BLOCK && i < c->cap && !c->wide[i / TT_PACK_BLOCK]) {
		int64_t d = (int64_t)(v - c->base[i / TT_PACK_BLOCK]);

		if (d >= INT16_MIN && d <= INT16_MAX) {
			c->lo[i] = (int16_t)d;
			c->n = i + 1;
			return 0;
		}
	}
	return tt_packcol_push_slow(c, v);
}
/* Changes value i (< n). 0, or -1 when memory ran out. */
int tt_packcol_set(tt_packcol *c, size_t i, uint64_t v);
/* Drops the values from n on (n <= c->n). */
void tt_packcol_truncate(tt_packcol *c, size_t n);
/* Gives back the growth slack. */
void tt_packcol_shrink(tt_packcol *c);
void tt_packcol_free(tt_packcol *c);

#endif
