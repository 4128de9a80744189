/*
 * strpool.h - interned strings. Every distinct string is stored once and
 * named by a uint32 id; id 0 is the NULL string. Ids are stable for the life
 * of the pool; the returned char pointers are stable too (strings live in
 * fixed blocks that are never moved).
 */
#ifndef TT_STRPOOL_H
#define TT_STRPOOL_H

#include <stddef.h>
#include <stdint.h>

typedef struct tt_strpool tt_strpool;
typedef uint32_t tt_str; /* 0 = NULL */

tt_strpool *tt_strpool_new(void);
void tt_strpool_free(tt_strpool *p);

/* Interns s[0..len) (need not be NUL-terminated; embedded NULs cut it).
 * Returns the id, or 0 when s is NULL or memory ran out (check *oom). */
tt_str tt_strpool_intern(tt_strpool *p, const char *s, size_t len);
tt_str tt_strpool_intern_cstr(tt_strpool *p, const char *s);

/* Looks s up without adding it; 0 when absent. */
tt_str tt_strpool_find(const tt_strpool *p, const char *s, size_t len);

/* The text of id, or NULL for id 0 / unknown ids. */
const char *tt_strpool_get(const tt_strpool *p, tt_str id);

size_t tt_strpool_count(const tt_strpool *p);
size_t tt_strpool_bytes(const tt_strpool *p);
/* Non-zero once an allocation failed. */
int tt_strpool_oom(const tt_strpool *p);

#endif
