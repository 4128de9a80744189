/*
 * hash.h - the one hash of byte strings for the in-memory tables of core/
 * and core/import/ (string pool probes, caches keyed by bytes): eight
 * bytes a step, the tail in one or two loads of fixed size (a memcpy of
 * a variable length is a call; byte by byte, the tail was a fifth of
 * hashing the short strings and messages of a Chrome trace). Not stable
 * across versions: nothing stored depends on it.
 */
#ifndef TT_HASH_H
#define TT_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* FNV-1a 64, as Perfetto's base::FnvHasher: stable, for the values
 * termtrace must compute as trace processor does (SQL hash(), stack ids,
 * the stand-in trace_uuid). Start with TT_FNV1A64_SEED. */
#define TT_FNV1A64_SEED 0xcbf29ce484222325ull

static inline uint64_t tt_fnv1a64(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * 0x100000001b3ull;
	return h;
}

/* A hash of p[0..n), continuing h (any seed to start). */
static inline uint64_t tt_hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t v;
	size_t k;

	h = (h ^ n) * 0x9e3779b97f4a7c15ULL;
	for (k = 0; k + 8 <= n; k += 8) {
		memcpy(&v, s + k, 8);
		h = (h ^ v) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	/* the last 1-7 bytes: the end of the last eight (n >= 8), or two
	 * loads of four that overlap, or three bytes that cover them all
	 * (n, hashed first, tells the lengths apart) */
	v = 0;
	if (k < n) {
		size_t r = n - k;

		if (n >= 8) {
			memcpy(&v, s + n - 8, 8);
			v >>= (8 - r) * 8;
		} else if (r >= 4) {
			uint32_t a, b;

			memcpy(&a, s, 4);
			memcpy(&b, s + r - 4, 4);
			v = (uint64_t)b << 32 | a;
		} else {
			v = (uint64_t)s[0] | (uint64_t)s[r >> 1] << 8 | (uint64_t)s[r - 1] << 16;
		}
	}
	h = (h ^ v) * 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 29);
}

#endif
