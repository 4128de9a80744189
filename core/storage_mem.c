/*
 * storage_mem.c - the memory of the storage's columns.
 *
 * Why not realloc: glibc serves a block from its mmap threshold up with a
 * mapping of its own (grown by mremap: no copy, and pages past the rows
 * are never touched, so slack costs no memory), but the threshold moves:
 * freeing a mapped block raises it to that block's size (up to 32 MB).
 * After the importer's reader frees its first buffers, columns of a few
 * MB then come from the heap, where each growth copies (old and new both
 * resident) and leaves a hole the next, bigger growth cannot reuse. On the
 * 37 MB Chromium-class import that was 9 MB of the peak (measured with
 * GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072: 57 -> 49 MB).
 * Here a column of MAP_MIN bytes or more is always its own mapping.
 *
 * Each block starts with a header (16 bytes, so the column stays 16-byte
 * aligned): the bytes mapped (0: the block is malloc's) and the bytes
 * asked for. Under AddressSanitizer every block is malloc's, so that
 * overruns of a column are still caught.
 */
#define _GNU_SOURCE /* mremap */
#include "storage_mem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define COLMEM_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define COLMEM_ASAN 1
#endif

#if defined(__linux__) && !defined(COLMEM_ASAN)
#define COLMEM_MAP 1
#include <sys/mman.h>
#include <unistd.h>
#endif

struct colmem_hdr {
	size_t map;   /* bytes mapped, header included; 0 = from malloc */
	size_t bytes; /* bytes asked for (the column's size) */
};

#define MAP_MIN ((size_t)128 * 1024)

#ifdef COLMEM_MAP
static size_t page_round(size_t n)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	return (n + pg - 1) / pg * pg;
}

static void *map_resize(struct colmem_hdr *h, size_t total, size_t bytes)
{
	size_t len = page_round(total);
	struct colmem_hdr *nh;

	if (h && h->map) {
		nh = len == h->map ? h : mremap(h, h->map, len, MREMAP_MAYMOVE);
		if (nh == MAP_FAILED)
			return NULL;
	} else {
		nh = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (nh == MAP_FAILED)
			return NULL;
		if (h) { /* from malloc's to a mapping: copied once */
			memcpy(nh + 1, h + 1, h->bytes < bytes ? h->bytes : bytes);
			free(h);
		}
	}
	nh->map = len;
	nh->bytes = bytes;
	return nh + 1;
}
#endif

void *tt_colmem_resize(void *p, size_t bytes)
{
	struct colmem_hdr *h = p ? (struct colmem_hdr *)p - 1 : NULL, *nh;
	size_t total;

	if (bytes > SIZE_MAX / 2)
		return NULL;
	total = bytes + sizeof(*h);
#ifdef COLMEM_MAP
	if (total >= MAP_MIN || (h && h->map))
		return map_resize(h, total, bytes);
#endif
	nh = realloc(h, total);
	if (!nh)
		return NULL;
	nh->map = 0;
	nh->bytes = bytes;
	return nh + 1;
}

void tt_colmem_free(void *p)
{
	struct colmem_hdr *h = p ? (struct colmem_hdr *)p - 1 : NULL;

	if (!h)
		return;
#ifdef COLMEM_MAP
	if (h->map) {
		munmap(h, h->map);
		return;
	}
#endif
	free(h);
}

void tt_colmem_populate(void *p, size_t len)
{
#if defined(COLMEM_MAP) && defined(MADV_POPULATE_WRITE)
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = (uintptr_t)p / pg * pg, e = ((uintptr_t)p + len + pg - 1) / pg * pg;

	/* (an error leaves the pages to be faulted in as written) */
	if (len && madvise((void *)a, e - a, MADV_POPULATE_WRITE))
		return;
#else
	(void)p;
	(void)len;
#endif
}
