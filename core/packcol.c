/*
 * packcol.c - blocks of 64 values as 16-bit, 32-bit differences or whole
 * values (see packcol.h).
 */
#include "packcol.h"

#include <stdlib.h>
#include <string.h>

#define B TT_PACK_BLOCK

static int grow(void **p, size_t n, size_t esz)
{
	void *np = realloc(*p, (n ? n : 1) * esz);

	if (!np)
		return -1;
	*p = np;
	return 0;
}

/* Values filled in block b (the one being appended to counts up to n). */
static size_t filled(const tt_packcol *c, size_t b)
{
	size_t first = b * B;

	return c->n - first < B ? c->n - first : B;
}

static int widen32(tt_packcol *c, size_t b)
{
	size_t k, nf = filled(c, b);
	int32_t *d;

	if (c->n32 == c->c32) {
		size_t nc = c->c32 ? c->c32 * 2 : 4;

		if (grow((void **)&c->w32, nc * B, sizeof(*c->w32)))
			return -1;
		c->c32 = nc;
	}
	k = c->n32++;
	d = c->w32 + k * B;
	for (size_t i = 0; i < nf; i++)
		d[i] = c->lo[b * B + i];
	c->wide[b] = (uint32_t)(k + 1) << 1;
	return 0;
}

static int widen64(tt_packcol *c, size_t b)
{
	size_t k, nf = filled(c, b);
	uint64_t *d;

	if (c->n64 == c->c64) {
		size_t nc = c->c64 ? c->c64 * 2 : 4;

		if (grow((void **)&c->w64, nc * B, sizeof(*c->w64)))
			return -1;
		c->c64 = nc;
	}
	k = c->n64++;
	d = c->w64 + k * B;
	for (size_t i = 0; i < nf; i++)
		d[i] = tt_packcol_get(c, b * B + i);
	c->wide[b] = (uint32_t)(k + 1) << 1 | 1;
	return 0;
}

/* Writes value i of an existing block, widening the block if needed. */
static int put(tt_packcol *c, size_t i, uint64_t v)
{
	size_t b = i / B;
	int64_t d = (int64_t)(v - c->base[b]);
	uint32_t w = c->wide[b];

	if (!w) {
		if (d >= INT16_MIN && d <= INT16_MAX) {
			c->lo[i] = (int16_t)d;
			return 0;
		}
		if (d >= INT32_MIN && d <= INT32_MAX ? widen32(c, b) : widen64(c, b))
			return -1;
		w = c->wide[b];
	}
	if (!(w & 1)) {
		if (d >= INT32_MIN && d <= INT32_MAX) {
			c->w32[((size_t)(w >> 1) - 1) * B + i % B] = (int32_t)d;
			return 0;
		}
		if (widen64(c, b))
			return -1;
		w = c->wide[b];
	}
	c->w64[((size_t)(w >> 1) - 1) * B + i % B] = v;
	return 0;
}

int tt_packcol_push_slow(tt_packcol *c, uint64_t v)
{
	size_t i = c->n, b = i / B;

	if (i == c->cap) {
		size_t nc = c->cap ? c->cap * 2 : 16 * B;

		if (grow((void **)&c->lo, nc, sizeof(*c->lo)) ||
		    grow((void **)&c->base, nc / B, sizeof(*c->base)) ||
		    grow((void **)&c->wide, nc / B, sizeof(*c->wide)))
			return -1;
		c->cap = nc;
	}
	if (i % B == 0) {
		c->base[b] = v;
		c->wide[b] = 0;
		c->lo[i] = 0;
		c->n++;
		return 0;
	}
	if (put(c, i, v))
		return -1;
	c->n++;
	return 0;
}

int tt_packcol_set(tt_packcol *c, size_t i, uint64_t v)
{
	return i < c->n ? put(c, i, v) : -1;
}

void tt_packcol_truncate(tt_packcol *c, size_t n)
{
	if (n < c->n)
		c->n = n; /* a block widened meanwhile stays wide */
}

void tt_packcol_shrink(tt_packcol *c)
{
	size_t cap = (c->n + B - 1) / B * B;

	if (!c->n || cap >= c->cap)
		return;
	/* a failed realloc keeps the bigger array: still valid */
	if (grow((void **)&c->lo, cap, sizeof(*c->lo)))
		return;
	c->cap = cap;
	(void)grow((void **)&c->base, cap / B, sizeof(*c->base));
	(void)grow((void **)&c->wide, cap / B, sizeof(*c->wide));
}

void tt_packcol_free(tt_packcol *c)
{
	free(c->lo);
	free(c->base);
	free(c->wide);
	free(c->w32);
	free(c->w64);
	memset(c, 0, sizeof(*c));
}
