/*
 * osc.c - OSC 8 hyperlinks and OSC 52 clipboard writes (see osc.h).
 *
 * ncurses owns the terminal: it knows where the cursor is and which
 * attributes are set, and it buffers its output in a buffer of its own
 * (not stdio's), flushed at the end of doupdate(). Text written beside
 * it leaves ncurses believing the cursor or the attributes are what they
 * are not, and the next frame's relative moves garble lines. So nothing
 * here writes text or moves the cursor: an OSC 8 link is a state of the
 * terminal (text written while it is open belongs to the link), so the
 * escape that opens it is written between two of ncurses' flushes, then
 * ncurses itself is made to write the link's cells again (they are
 * marked as different in its copy of the screen, curscr), then the link
 * is closed. Cursor and attributes stay ncurses' own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curses.h>

#include "osc.h"

int tt_osc_hyperlinks_supported(void)
{
	const char *hl = getenv("TT_HYPERLINKS"), *tp = getenv("TERM_PROGRAM");
	const char *term = getenv("TERM"), *vte = getenv("VTE_VERSION");

	if (hl && *hl)
		return !strcmp(hl, "1");
	/* A multiplexer passes OSC 8 through or not depending on its
	 * version and settings, and the variables below describe the
	 * terminal outside it: no links inside one unless forced. */
	if (getenv("TMUX") || getenv("STY") ||
	    (term && (!strncmp(term, "screen", 6) || !strncmp(term, "tmux", 4))))
		return 0;
	return (vte && atoi(vte) >= 5000) || getenv("KITTY_WINDOW_ID") ||
	       getenv("WEZTERM_EXECUTABLE") ||
	       (tp && (!strcmp(tp, "iTerm.app") || !strcmp(tp, "WezTerm") || !strcmp(tp, "vscode")));
}

/* Only printable ASCII goes into an escape (no ESC, BEL or C1 bytes that
 * would end it early). */
static int safe_text(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c >= 0x7f)
			return 0;
	}
	return 1;
}

void tt_osc_hyperlinks(const char *uri, const tt_link_seg *segs, int nseg)
{
	char open[64];
	int cy, cx;

	if (!uri || nseg <= 0 || !safe_text(uri, strlen(uri)) || strlen(uri) > 2000)
		return;
	/* one id: terminals show the pieces of a wrapped link as one link */
	unsigned h = 2166136261u;
	for (const char *p = uri; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	snprintf(open, sizeof open, "\033]8;id=tt%08x;", h);
	getyx(curscr, cy, cx);
	for (int i = 0; i < nseg; i++) {
		const tt_link_seg *s = &segs[i];
		/* ncurses' buffer is flushed (doupdate ended): stdio next */
		fputs(open, stdout);
		fputs(uri, stdout);
		fputs("\033\\", stdout);
		fflush(stdout);
		for (int x = s->x; x < s->x + s->len; x++) {
			chtype c = mvwinch(curscr, s->y, x) & A_CHARTEXT;
			mvwaddch(curscr, s->y, x, c == '`' ? '~' : '`');
		}
		wmove(curscr, cy, cx);
		touchline(stdscr, s->y, 1);
		wnoutrefresh(stdscr);
		doupdate(); /* writes exactly those cells, inside the link */
		fputs("\033]8;;\033\\", stdout);
		fflush(stdout);
	}
}

int tt_osc_clipboard(const char *text)
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *s = (const unsigned char *)text;
	size_t len = strlen(text), o = 0;
	char *out = malloc((len + 2) / 3 * 4 + 1);

	if (!out)
		return -1;
	for (size_t i = 0; i < len; i += 3) {
		unsigned v = (unsigned)s[i] << 16 | (i + 1 < len ? (unsigned)s[i + 1] << 8 : 0) |
			     (i + 2 < len ? s[i + 2] : 0);
		out[o++] = b64[v >> 18 & 63];
		out[o++] = b64[v >> 12 & 63];
		out[o++] = i + 1 < len ? b64[v >> 6 & 63] : '=';
		out[o++] = i + 2 < len ? b64[v & 63] : '=';
	}
	out[o] = 0;
	/* between frames ncurses' buffer is empty: stdio, flushed at once.
	 * screen swallows OSC 52: its DCS passthrough hands it on. */
	int in_screen = getenv("STY") != NULL && !getenv("TMUX");
	printf("%s\033]52;c;%s\a%s", in_screen ? "\033P" : "", out, in_screen ? "\033\\" : "");
	fflush(stdout);
	free(out);
	return 0;
}
