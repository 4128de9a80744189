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

#endif
