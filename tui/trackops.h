/*
 * trackops.h - what a user does to tracks: P pins one to the top (the
 * "Pinned" group; again: back to its group), x hides one (:show brings
 * it back), :tracks lists them all with their state, filtered by name.
 */
#ifndef TT_TRACKOPS_H
#define TT_TRACKOPS_H

#include "layout.h"

/* Moves track (with its members when merged) to the Pinned group, or
 * back to its own group when it is there. Returns 1 pinned, 0 unpinned,
 * -1 (message in err) when it cannot move. */
int tt_trackops_pin(tt_layout *lay, int track, tt_err *err);
/* Hides track. */
void tt_trackops_hide(tt_layout *lay, int track);
/* Shows hidden tracks named name ("all": every one). Returns how many. */
int tt_trackops_show(tt_layout *lay, const char *name);
/* The track list as a result table: track, group, kind, items, state;
 * only names containing filter ("" = all). Returns 0, -1 on OOM. */
int tt_trackops_list(const tt_layout *lay, const char *filter, tt_result *out);

/* What the user did to a layout, kept across a rebuild of it (:metrics
 * appends tracks and the view is built again): P pins in their order,
 * :pin query tracks (moved over whole), x hidden tracks, open groups,
 * open merged and deep tracks, the :track filter and the cursor's line.
 * Kept by stable identities (core track ids; a merged track by a member's;
 * groups by kind and name), never by index. */
typedef struct tt_trackops_keep tt_trackops_keep;
/* Takes the state of old (its query pins move out of it: free old after).
 * cursor_line: the cursor's line of old, -1 for none. NULL on OOM. */
tt_trackops_keep *tt_trackops_keep_take(tt_layout *old, int cursor_line);
/* Applies it to a new layout and frees it (NULL: nothing). Returns the
 * line of lay for the cursor (its track and row, or its group header), -1
 * when that is gone or there was none. */
int tt_trackops_keep_apply(tt_layout *lay, tt_trackops_keep *k);

#endif
