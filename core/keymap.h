/*
 * keymap.h - a hash from a 4-word key to a uint32 value (row ids), used for
 * pid -> upid, (pid, tid) -> utid, keyed tracks, flow ids. Open addressing,
 * grows at half full; a key can be removed.
 */
#ifndef TT_KEYMAP_H
#define TT_KEYMAP_H

#include <stddef.h>
#include <stdint.h>

#define TT_KEYMAP_NONE UINT32_MAX

typedef struct tt_keymap {
	uint64_t *keys; /* 4 words per slot */
	uint32_t *vals; /* TT_KEYMAP_NONE = empty slot */
	size_t cap, n;  /* cap: power of two */
} tt_keymap;

/* TT_KEYMAP_NONE when absent. */
uint32_t tt_keymap_get(const tt_keymap *m, uint64_t a, uint64_t b, uint64_t c, uint64_t d);
/* Inserts or replaces; v must not be TT_KEYMAP_NONE. 0 or -1 (no memory). */
int tt_keymap_put(tt_keymap *m, uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint32_t v);
/* Removes the key if present (the slots after it move back: no tombstones,
 * so a map of short-lived keys stays the size of the live ones). */
void tt_keymap_del(tt_keymap *m, uint64_t a, uint64_t b, uint64_t c, uint64_t d);
void tt_keymap_free(tt_keymap *m);

#endif
