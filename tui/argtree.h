/*
 * argtree.h - a slice's args as an indented tree of full keys, for the
 * details panel: "debug.data.frame" = "F1" becomes the lines
 *     "  debug"        (no value)
 *     "    data"       (no value)
 *     "      frame"    "F1"
 * and keys sharing a prefix with the previous arg share its header lines.
 * Pure code (no ncurses): tested in tests/test_tui_details.c.
 */
#ifndef TT_ARGTREE_H
#define TT_ARGTREE_H

#include <stdint.h>

#include "termtrace.h"

/* key: the indented component (2 spaces + 2 per level); value: NULL for
 * an inner node, the value text for a leaf. */
typedef void (*tt_argtree_fn)(void *ctx, const char *key, const char *value);
void tt_argtree_lines(const tt_trace *tr, uint32_t arg_set_id, tt_argtree_fn fn, void *ctx);

#endif
