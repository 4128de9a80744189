/*
 * proto_map.h - a small open-addressing hash map from uint64 keys to
 * uint64 values, shared by the Perfetto importer's modules (interning
 * tables, track uuids, clocks, flows). Header-only: every function is
 * static inline.
 *
 * Contract: any uint64 is a key (UINT64_MAX, the empty-slot mark, lives
 * beside the table: hostile traces send it as an iid or uuid); values are
 * opaque. Growth failures are reported (-1) and leave the map usable.
 */
#ifndef TT_PROTO_MAP_H
#define TT_PROTO_MAP_H

#include <stdint.h>
#include <stdlib.h>

#define TT_PMAP_EMPTY UINT64_MAX

typedef struct tt_pmap {
	uint64_t *keys;
	uint64_t *vals;
	size_t cap; /* power of two, 0 when never used */
	size_t n;
	int has_max; /* key UINT64_MAX is set, to max_val */
	uint64_t max_val;
} tt_pmap;

static inline size_t tt_pmap_hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return (size_t)k;
}

/* Pointer to the value of k, or NULL when absent. */
static inline uint64_t *tt_pmap_find(const tt_pmap *m, uint64_t k)
{
	size_t i;

	if (k == TT_PMAP_EMPTY)
		return m->has_max ? (uint64_t *)&m->max_val : NULL;
	if (!m->cap)
		return NULL;
	for (i = tt_pmap_hash(k) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == k)
			return &m->vals[i];
		if (m->keys[i] == TT_PMAP_EMPTY)
			return NULL;
	}
}

static inline int tt_pmap_grow(tt_pmap *m)
{
	size_t ncap = m->cap ? m->cap * 2 : 16, i, j;
	uint64_t *nk = malloc(ncap * sizeof(*nk)), *nv = malloc(ncap * sizeof(*nv));

	if (!nk || !nv) {
		free(nk);
		free(nv);
		return -1;
	}
	for (i = 0; i < ncap; i++)
		nk[i] = TT_PMAP_EMPTY;
	for (i = 0; i < m->cap; i++) {
		if (m->keys[i] == TT_PMAP_EMPTY)
			continue;
		for (j = tt_pmap_hash(m->keys[i]) & (ncap - 1); nk[j] != TT_PMAP_EMPTY; j = (j + 1) & (ncap - 1))
			;
		nk[j] = m->keys[i];
		nv[j] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = nk;
	m->vals = nv;
	m->cap = ncap;
	return 0;
}

/* Sets k to v (inserting or overwriting). Returns 0, or -1 out of memory. */
static inline int tt_pmap_put(tt_pmap *m, uint64_t k, uint64_t v)
{
	size_t i;

	if (k == TT_PMAP_EMPTY) {
		m->has_max = 1;
		m->max_val = v;
		return 0;
	}
	if ((m->n + 1) * 4 > m->cap * 3 && tt_pmap_grow(m))
		return -1;
	for (i = tt_pmap_hash(k) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == k) {
			m->vals[i] = v;
			return 0;
		}
		if (m->keys[i] == TT_PMAP_EMPTY) {
			m->keys[i] = k;
			m->vals[i] = v;
			m->n++;
			return 0;
		}
	}
}

/* Forgets every entry but keeps the memory. */
static inline void tt_pmap_clear(tt_pmap *m)
{
	size_t i;

	m->has_max = 0;
	if (!m->n)
		return;
	for (i = 0; i < m->cap; i++)
		m->keys[i] = TT_PMAP_EMPTY;
	m->n = 0;
}

static inline void tt_pmap_free(tt_pmap *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = m->vals = NULL;
	m->cap = m->n = 0;
	m->has_max = 0;
}

#endif
