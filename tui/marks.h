/*
 * marks.h - places to come back to (vim's marks): `m` then a label key
 * marks the selection (its slice and time), else the range, else the
 * cursor time; `'` then the label goes back (the slice selected again,
 * the range restored); `:marks` lists them. Marks show on the ruler with
 * their label and survive zoom, pan and new selections.
 */
#ifndef TT_MARKS_H
#define TT_MARKS_H

#include <stdint.h>

#include "termtrace.h"

#define TT_MAX_MARKS 64

typedef struct tt_mark {
	char label;
	int64_t ts, end;     /* end > ts: a range */
	int64_t slice;       /* core slice id, -1 = none */
	char what[128];
} tt_mark;

typedef struct tt_marks {
	tt_mark m[TT_MAX_MARKS];
	int n;
} tt_marks;

struct tt_view;
/* Marks with label (a letter or digit; 0 = the next free letter). */
int tt_marks_set(struct tt_view *v, int label);
/* Goes to the mark; returns TT_* flags. */
int tt_marks_jump(struct tt_view *v, int label);
/* The key after `m` or `'` (v->pending): a label, Esc cancels. */
int tt_marks_pending_key(struct tt_view *v, int key);
/* Labels on the ruler's second line. */
void tt_marks_draw_ruler(const struct tt_view *v);
/* The `:marks` table (label, ts, end, dur, slice_id, what). */
int tt_marks_table(const struct tt_view *v, tt_result *res);
void tt_marks_free(struct tt_view *v);

#endif
