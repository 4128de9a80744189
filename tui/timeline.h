/*
 * timeline.h - draws the ruler and the track lines of a tt_view into the
 * current ncurses screen (stdscr's virtual screen only: the caller does the
 * one doupdate() of the frame). Cost per frame: O(cells x log n), through
 * the level-of-detail rows of layout.h.
 */
#ifndef TT_TIMELINE_H
#define TT_TIMELINE_H

#include "view.h"

void tt_timeline_draw(const tt_view *v);

#endif
