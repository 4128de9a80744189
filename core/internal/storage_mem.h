/*
 * storage_mem.h - the memory of the storage's columns (storage_mem.c),
 * private to the storage files. A column is an array the rest of the
 * program reads as usual; only its allocation, growth and release go
 * through here, never through malloc/realloc/free.
 */
#ifndef TT_STORAGE_MEM_H
#define TT_STORAGE_MEM_H

#include <stddef.h>

/* p (NULL: a new column) resized to hold `bytes`; the contents up to the
 * smaller size are kept, what grows is not initialised. NULL when memory
 * ran out (p is then unchanged and still valid). */
void *tt_colmem_resize(void *p, size_t bytes);
void tt_colmem_free(void *p);
/* The pages of p[0..len) made resident and writable ahead of their first
 * write (MADV_POPULATE_WRITE), their contents untouched: another thread
 * may do it while the column's owner writes there, as long as the column
 * is not resized meanwhile. Nothing where the kernel or the build (the
 * sanitizers' malloc'ed columns) has no such thing. */
void tt_colmem_populate(void *p, size_t len);

#endif
