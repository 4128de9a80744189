/*
 * atrace.h - parses Android atrace markers (for every importer that meets
 * them: Perfetto ftrace print, systrace text in JSON) as written to
 * trace_marker and seen in ftrace `print` events (formats.md 1.7), field
 * by field as trace processor's systrace parser reads them. Pure
 * function over the text: no storage, no allocation. The parsed strings
 * point into the caller's buffer.
 *
 *   B|tgid|name             begin on the writing thread (the rest of the
 *                           text is the name, '|' included; empty:
 *                           "[empty slice name]")
 *   E|tgid  /  E            end the innermost slice of the writing thread
 *   C|tgid|name|value[|...] counter on process tgid (a trailing Chrome
 *                           category group is ignored)
 *   S|tgid|name|cookie      async begin on process tgid, keyed (name, cookie)
 *   F|tgid|name|cookie      async end
 *   I|tgid|name             instant on the writing thread
 *   N|tgid|track|name       instant on a named process track
 *   G|tgid|track|name|cookie  async begin on a named track
 *   H|tgid|track|[name|]cookie async end on a named track
 * Each field ends at the next '|'. Trailing '\n' and NULs are ignored.
 * The tgid is an unsigned 32-bit number (0: none); values and cookies
 * are 64-bit integers (strtoll's syntax, as trace processor's).
 */
#ifndef TT_ATRACE_H
#define TT_ATRACE_H

#include <stddef.h>
#include <stdint.h>

typedef struct tt_atrace {
	char phase;          /* B E C S F I N G H */
	int has_tgid;
	uint32_t tgid;       /* 0 when absent or not a number */
	const char *name;    /* slice / counter name (H: none) */
	size_t name_len;
	const char *track;   /* N, G, H: the track name */
	size_t track_len;
	int64_t value;       /* C: the value; S F G H: the cookie */
} tt_atrace;

enum { TT_ATRACE_OK = 0, TT_ATRACE_BAD = -1, TT_ATRACE_UNSUPPORTED = 1 };

/* Returns TT_ATRACE_OK and fills out when buf is a marker,
 * TT_ATRACE_UNSUPPORTED for text trace processor ignores without a word
 * (trace_event_clock_sync:), TT_ATRACE_BAD otherwise (its
 * systrace_parse_failure). */
int tt_atrace_parse(const char *buf, size_t len, tt_atrace *out);

/* A decimal field as strtoul (is_u32: wrapped to 32 bits) or strtoll
 * read it: leading blanks and a sign allowed, the whole field used, not
 * empty; 0 on success. */
int tt_atrace_num(const char *s, size_t n, int is_u32, int64_t *out);

/* Copies buf to out (len bytes of room) without the bytes that are not
 * part of a valid UTF-8 sequence, as trace processor cleans a marker
 * before parsing it; returns the length written. */
size_t tt_atrace_utf8(const char *buf, size_t len, char *out);

#endif
