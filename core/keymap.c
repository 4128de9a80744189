/* keymap.c - see keymap.h. */
#include "keymap.h"

#include <stdlib.h>
#include <string.h>


static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

static uint64_t key_hash(const uint64_t k[4])
{
	return mix(k[0] ^ mix(k[1] ^ mix(k[2] ^ mix(k[3]))));
}

static size_t keymap_slot(const tt_keymap *m, const uint64_t k[4])
{
	size_t mask = m->cap - 1, i = key_hash(k) & mask;

	while (m->vals[i] != TT_KEYMAP_NONE && memcmp(&m->keys[i * 4], k, 32) != 0)
		i = (i + 1) & mask;
	return i;
}

uint32_t tt_keymap_get(const tt_keymap *m, uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
	uint64_t k[4] = { a, b, c, d };

	if (!m->cap)
		return TT_KEYMAP_NONE;
	return m->vals[keymap_slot(m, k)];
}

int tt_keymap_put(tt_keymap *m, uint64_t a, uint64_t b, uint64_t c,
		      uint64_t d, uint32_t v)
{
	uint64_t k[4] = { a, b, c, d };
	size_t i;

	if ((m->n + 1) * 2 > m->cap) {
		tt_keymap nm = { 0 };

		nm.cap = m->cap ? m->cap * 2 : 64;
		nm.keys = malloc(nm.cap * 4 * sizeof(uint64_t));
		nm.vals = malloc(nm.cap * sizeof(uint32_t));
		if (!nm.keys || !nm.vals) {
			free(nm.keys);
			free(nm.vals);
			return -1;
		}
		memset(nm.vals, 0xff, nm.cap * sizeof(uint32_t));
		for (size_t j = 0; j < m->cap; j++) {
			if (m->vals[j] == TT_KEYMAP_NONE)
				continue;
			i = keymap_slot(&nm, &m->keys[j * 4]);
			memcpy(&nm.keys[i * 4], &m->keys[j * 4], 32);
			nm.vals[i] = m->vals[j];
		}
		nm.n = m->n;
		free(m->keys);
		free(m->vals);
		*m = nm;
	}
	i = keymap_slot(m, k);
	if (m->vals[i] == TT_KEYMAP_NONE)
		m->n++;
	memcpy(&m->keys[i * 4], k, 32);
	m->vals[i] = v;
	return 0;
}

void tt_keymap_del(tt_keymap *m, uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
	uint64_t k[4] = { a, b, c, d };
	size_t mask, i, j;

	if (!m->cap)
		return;
	mask = m->cap - 1;
	i = keymap_slot(m, k);
	if (m->vals[i] == TT_KEYMAP_NONE)
		return;
	m->vals[i] = TT_KEYMAP_NONE;
	m->n--;
	/* Backward shift: a later slot of the run moves into the hole when
	 * its home slot is not between the hole and it (cyclically), so every
	 * key stays reachable from its home without a tombstone. */
	for (j = (i + 1) & mask; m->vals[j] != TT_KEYMAP_NONE; j = (j + 1) & mask) {
		size_t h = key_hash(&m->keys[j * 4]) & mask;
		int move = i <= j ? (h <= i || h > j) : (h <= i && h > j);

		if (!move)
			continue;
		memcpy(&m->keys[i * 4], &m->keys[j * 4], 32);
		m->vals[i] = m->vals[j];
		m->vals[j] = TT_KEYMAP_NONE;
		i = j;
	}
}

void tt_keymap_free(tt_keymap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

