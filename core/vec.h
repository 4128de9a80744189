/*
 * vec.h - growable arrays for the columnar storage. A column is a plain
 * pointer + length + capacity; TT_VEC_PUSH grows it geometrically and
 * reports out-of-memory as a status instead of aborting.
 */
#ifndef TT_VEC_H
#define TT_VEC_H

#include <stddef.h>
#include <stdlib.h>

/* Grows *pp (element size esz) so that it holds at least need elements.
 * Returns 0 on success, -1 when the allocation fails (old array kept). */
static inline int tt_vec_reserve(void **pp, size_t *cap, size_t need, size_t esz)
{
	size_t ncap;
	void *np;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap : 16;
	while (ncap < need) {
		if (ncap > ((size_t)-1) / 2 / esz)
			return -1;
		ncap *= 2;
	}
	np = realloc(*pp, ncap * esz);
	if (!np)
		return -1;
	*pp = np;
	*cap = ncap;
	return 0;
}

#define TT_VEC(T) struct { T *v; size_t n, cap; }

/* Appends x; evaluates to 0 or -1 (out of memory). */
#define TT_VEC_PUSH(vec, x) \
	(tt_vec_reserve((void **)&(vec).v, &(vec).cap, (vec).n + 1, sizeof(*(vec).v)) \
	 ? -1 : ((vec).v[(vec).n++] = (x), 0))

#define TT_VEC_FREE(vec) do { free((vec).v); (vec).v = NULL; (vec).n = (vec).cap = 0; } while (0)

#endif
