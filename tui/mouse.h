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

/* Double-clicks, counted by the viewer (ncurses' own click detection is
 * off: mouseinterval(0), so that a press answers at once): a press on
 * the cell of the previous press within TT_DOUBLE_CLICK_S is the second
 * click of a double-click. */
#define TT_DOUBLE_CLICK_S 0.4
typedef struct tt_clicks {
	int x, y, n;
	double t;
} tt_clicks;
/* For a button-1 press at (x, y) at time t (seconds, monotonic): 2 when
 * it completes a double-click, else 1. */
int tt_mouse_clicks(tt_clicks *c, int x, int y, double t);
/* A press of button 1 as ncurses reports it: pressed, or, when the
 * reports arrived together (a slow link, a test), merged into a click
 * or a double-click. */
#define TT_BUTTON1_DOWN (BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON1_TRIPLE_CLICKED)
/* For any event: 0 when it is no button-1 press, else 1, or 2 for a
 * double-click (ours, or ncurses' merged one). */
int tt_mouse_press(tt_clicks *c, const MEVENT *ev, double t);
/* The monotonic clock in seconds. */
double tt_mouse_now(void);

#endif
