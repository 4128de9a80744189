/*
 * tracktree.h - the track tree as a Perfetto user expects it, built over
 * the tracks the core gives (layout.c calls it once the groups are
 * ordered):
 *   - the async tracks of one name in a process (or thread) become one
 *     merged track whose slices are packed into rows without overlap,
 *     expandable (Space) to the per-id tracks it holds;
 *   - each process group gets a summary: how many of its threads are
 *     inside a top-level slice over time, drawn on the group's header
 *     line while the group is collapsed.
 */
#ifndef TT_TRACKTREE_H
#define TT_TRACKTREE_H

#include "layout.h"

/* Rows a merged track packs its members into. */
#define TT_TRACKTREE_MAX_ROWS 24

/* Merges same-named async tracks of each group and builds the process
 * summaries. Returns 0, -1 on OOM. */
int tt_tracktree_build(tt_layout *lay);
/* Frees what tt_tracktree_build added to a track / group. */
void tt_tracktree_free_track(tt_ltrack *t);
void tt_tracktree_free_group(tt_lgroup *g);
/* Tracks of a group shown at its top level (merged members not counted). */
int tt_tracktree_top_count(const tt_layout *lay, const tt_lgroup *g);

#endif
