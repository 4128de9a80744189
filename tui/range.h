/*
 * range.h - the time range of the viewer: started with `v` at the cursor
 * (vim's visual mode: moving the cursor extends it), by a mouse drag, or
 * by `:range T1 T2`; cleared by Esc. It spans the tracks of its scope:
 * all tracks, the process group or the track it was made on (`V` cycles).
 * `f` zooms to it; the ruler shows it with its length.
 */
#ifndef TT_RANGE_H
#define TT_RANGE_H

#include <stdint.h>

enum { TT_SCOPE_ALL, TT_SCOPE_GROUP, TT_SCOPE_TRACK, TT_SCOPE_COUNT };

struct tt_view;
/* The range as [*a, *b); 0 when there is none. */
int tt_range_get(const struct tt_view *v, int64_t *a, int64_t *b);
/* Sets the range [a, b) (ordered), scope kept, made on the cursor track. */
void tt_range_set(struct tt_view *v, int64_t a, int64_t b);
/* Whether layout track t is inside the range's scope. */
int tt_range_track_in(const struct tt_view *v, int t);
/* "all tracks", "group Renderer 9186", "track CrRendererMain 9186". */
void tt_range_scope_text(const struct tt_view *v, char *buf, size_t n);
/* Per core track id (tt_trace_track_count entries): 1 when in scope.
 * malloc'ed; NULL on OOM. */
uint8_t *tt_range_core_tracks(const struct tt_view *v);
/* range-start, range-scope, and zoom-selected when a range exists;
 * returns TT_* flags, or -1 when the action is not the range's. */
int tt_range_action(struct tt_view *v, int action);
/* After any action: the visual range follows the cursor. */
void tt_range_follow(struct tt_view *v);
/* Draws the range over the ruler's first line: its extent and length. */
void tt_range_draw_ruler(const struct tt_view *v);

#endif
