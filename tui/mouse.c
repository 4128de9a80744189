/*
 * mouse.c - SGR 1006 mouse reports (see mouse.h).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <curses.h>
#include <term.h>

#include "mouse.h"

static int own_sgr; /* we decode SGR reports (ncurses would read X10) */

void tt_mouse_setup(void)
{
	const char *km = tigetstr("kmous");

	mousemask(ALL_MOUSE_EVENTS, NULL);
	mouseinterval(0);
	if (km && km != (char *)-1 && !strcmp(km, "\033[M")) {
		own_sgr = 1;
		define_key("\033[<", TT_KEY_SGR_MOUSE);
		putp("\033[?1006h");
		fflush(stdout);
	}
}

void tt_mouse_end(void)
{
	if (own_sgr) {
		putp("\033[?1006l");
		fflush(stdout);
	}
}

int tt_mouse_parse_sgr(const char *s, MEVENT *ev)
{
	char *end;
	long b, x, y;

	b = strtol(s, &end, 10);
	if (*end != ';')
		return -1;
	x = strtol(end + 1, &end, 10);
	if (*end != ';')
		return -1;
	y = strtol(end + 1, &end, 10);
	if ((*end != 'M' && *end != 'm') || b < 0 || x < 1 || y < 1 || x > 100000 || y > 100000)
		return -1;
	memset(ev, 0, sizeof *ev);
	ev->x = (int)x - 1;
	ev->y = (int)y - 1;
	int release = *end == 'm', btn = (int)(b & 3);
	if (b & 32)
		return -1; /* motion: not asked for */
	if (b & 64) {
		if (release || btn > 1)
			return -1;
		ev->bstate = btn == 0 ? BUTTON4_PRESSED : BUTTON5_PRESSED;
	} else if (btn == 3) {
		return -1;
	} else {
		static const mmask_t press[3] = {BUTTON1_PRESSED, BUTTON2_PRESSED, BUTTON3_PRESSED};
		static const mmask_t rel[3] = {BUTTON1_RELEASED, BUTTON2_RELEASED, BUTTON3_RELEASED};
		ev->bstate = release ? rel[btn] : press[btn];
	}
	if (b & 4)
		ev->bstate |= BUTTON_SHIFT;
	if (b & 8)
		ev->bstate |= BUTTON_ALT;
	if (b & 16)
		ev->bstate |= BUTTON_CTRL;
	return 0;
}

int tt_mouse_event(int ch, MEVENT *ev)
{
	char buf[40];
	int n = 0, c;

	if (ch == KEY_MOUSE)
		return getmouse(ev) == OK ? 0 : -1;
	if (ch != TT_KEY_SGR_MOUSE)
		return -1;
	/* the report's rest is in the input already: read it without
	 * waiting long, up to its final M or m */
	int old = wgetdelay(stdscr);
	timeout(50);
	while (n < (int)sizeof buf - 1 && (c = getch()) != ERR) {
		buf[n++] = (char)c;
		if (c == 'M' || c == 'm')
			break;
	}
	buf[n] = 0;
	timeout(old);
	return tt_mouse_parse_sgr(buf, ev);
}

int tt_mouse_clicks(tt_clicks *c, int x, int y, double t)
{
	int dbl = c->n == 1 && x == c->x && y == c->y && t >= c->t && t - c->t <= TT_DOUBLE_CLICK_S;

	/* a third press starts a new click, not a triple */
	c->n = dbl ? 2 : 1;
	c->x = x;
	c->y = y;
	c->t = t;
	return c->n;
}

double tt_mouse_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int tt_mouse_press(tt_clicks *c, const MEVENT *ev, double t)
{
	if (ev->bstate & (BUTTON1_DOUBLE_CLICKED | BUTTON1_TRIPLE_CLICKED)) {
		*c = (tt_clicks){ev->x, ev->y, 2, t};
		return 2;
	}
	if (ev->bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED))
		return tt_mouse_clicks(c, ev->x, ev->y, t);
	return 0;
}
