/*
 * mouse.h - mouse input in SGR 1006 encoding everywhere. ncurses picks
 * the encoding from terminfo: xterm's entry asks for SGR 1006, but
 * tmux's and screen's (the TERM inside a multiplexer, our SSH case) ask
 * for the old X10 one, which cannot say columns past 223 and loses the
 * modifiers of wheel events. There, SGR is turned on by hand and its
 * reports are read here; elsewhere ncurses reads them.
 */
#ifndef TT_MOUSE_H
#define TT_MOUSE_H

#include <curses.h>

/* The key code getch returns for the start of a report we decode. */
#define TT_KEY_SGR_MOUSE (KEY_MAX + 17)

/* After newterm: mouse on (button presses, releases, wheel). */
void tt_mouse_setup(void);
/* Before endwin: the terminal's SGR mode off again. */
void tt_mouse_end(void);
/* For ch == KEY_MOUSE or TT_KEY_SGR_MOUSE: the event. Returns 0, or -1
 * when there is none (a malformed report). */
int tt_mouse_event(int ch, MEVENT *ev);
/* Decodes the rest of an SGR report after "ESC [ <" ("64;30;10M"). */
int tt_mouse_parse_sgr(const char *s, MEVENT *ev);

#endif
