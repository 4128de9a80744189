/*
 * osc.h - terminal escapes ncurses has no call for: OSC 8 hyperlinks
 * over cells already drawn, and OSC 52 clipboard copies. Both are
 * written through ncurses' own output so that its idea of the cursor
 * and the attributes stays right (a frame after them is drawn exactly
 * as without them).
 */
#ifndef TT_OSC_H
#define TT_OSC_H

#include "view.h"

/* Whether to write OSC 8 links: TT_HYPERLINKS=1/0 decides; else only
 * terminals known to show them (VTE >= 0.50, kitty, WezTerm, iTerm2,
 * VS Code), and never inside tmux or screen, whose support depends on
 * their version and settings. */
int tt_osc_hyperlinks_supported(void);
/* After doupdate(): writes uri as a hyperlink over the cells where its
 * pieces were drawn (same text, same attributes) and puts the cursor
 * back where ncurses has it. */
void tt_osc_hyperlinks(const char *uri, const tt_link_seg *segs, int nseg);
/* Puts text on the clipboard with OSC 52 (inside screen, through its
 * DCS passthrough). Returns 0, -1 on OOM. */
int tt_osc_clipboard(const char *text);

#endif
