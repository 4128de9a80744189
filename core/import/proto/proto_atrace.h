/*
 * proto_atrace.h - parses Android atrace markers as written to
 * trace_marker and seen in ftrace `print` events (formats.md 1.7).
 * Pure function over the text: no storage, no allocation. The parsed
 * strings point into the caller's buffer.
 *
 *   B|tgid|name            begin on the writing thread (name may hold '|')
 *   E|tgid  /  E           end the innermost slice of the writing thread
 *   C|tgid|name|value[|cat] counter on process tgid
 *   S|tgid|name|cookie     async begin on process tgid, keyed (name, cookie)
 *   F|tgid|name|cookie     async end
 *   I|tgid|name            instant on the writing thread
 *   N|tgid|track|name      instant on a named process track
 *   G|tgid|track|name|cookie  async begin on a named track
 *   H|tgid|track|[name|]cookie async end on a named track
 * Trailing '\n' and NULs are ignored. Known limit: values must be
 * integers (as Perfetto's systrace parser requires).
 */
#ifndef TT_PROTO_ATRACE_H
#define TT_PROTO_ATRACE_H

#include <stddef.h>
#include <stdint.h>

typedef struct tt_atrace {
	char phase;          /* B E C S F I N G H */
	int has_tgid;
	int64_t tgid;
	const char *name;    /* slice / counter name */
	size_t name_len;
	const char *track;   /* N, G, H: the track name */
	size_t track_len;
	int64_t value;       /* C: the value; S F G H: the cookie */
} tt_atrace;

/* Returns 0 and fills out when buf is a marker, -1 otherwise. */
int tt_proto_atrace_parse(const char *buf, size_t len, tt_atrace *out);

#endif
