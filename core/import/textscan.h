/*
 * textscan.h - the few byte-string scans the text importers share (ftrace
 * text lines, systrace pages, strace lines): text that is not
 * NUL-terminated, given as pointer and length.
 */
#ifndef TT_TEXTSCAN_H
#define TT_TEXTSCAN_H

#include <stddef.h>
#include <string.h>

/* C's isspace in the C locale: blank, \t \n \v \f \r. */
static inline int tt_text_is_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* [*s, *s + *n) without its leading and trailing white space. */
static inline void tt_text_trim(const char **s, size_t *n)
{
	while (*n && tt_text_is_space((unsigned char)**s))
		(*s)++, (*n)--;
	while (*n && tt_text_is_space((unsigned char)(*s)[*n - 1]))
		(*n)--;
}

/* The first needle[0, nl) in h[0, n), or NULL (memmem, which C11 lacks). */
static inline const char *tt_text_find(const char *h, size_t n, const char *needle, size_t nl)
{
	if (nl == 0)
		return h;
	for (const char *p = h; n >= nl && (p = memchr(p, needle[0], n - nl + 1)) != NULL; p++) {
		if (memcmp(p, needle, nl) == 0)
			return p;
		n -= (size_t)(p + 1 - h);
		h = p + 1;
	}
	return NULL;
}

#endif
