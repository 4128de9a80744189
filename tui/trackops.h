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

#endif
