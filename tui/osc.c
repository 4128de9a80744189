/*
 * osc.c - OSC 8 hyperlinks and OSC 52 clipboard writes (see osc.h).
 *
 * ncurses owns the terminal: it knows where the cursor is and which
 * attributes are set, and it buffers its output. Anything written beside
 * it (printf to stdout) lands out of order or leaves ncurses believing
 * the cursor is somewhere it is not, and the next frame's relative moves
 * then garble lines. So the escapes go through ncurses' own output
 * (putp, which appends to the same buffer), the cursor is moved with
 * mvcur from the position ncurses itself recorded (curscr's cursor after
 * doupdate, not stdscr's logical one), the link's text is written in the
 * attributes of the cells it covers (read back from curscr), and the
 * cursor is put back with mvcur, which also tells ncurses where it is.
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
 * would end it early, no "$<" that tputs reads as padding). */
static int safe_text(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c >= 0x7f || (c == '$' && i + 1 < len && s[i + 1] == '<'))
			return 0;
	}
	return 1;
}

static void put_raw(const char *s, size_t len)
{
	char buf[1024];

	while (len > 0) {
		size_t n = len < sizeof buf - 1 ? len : sizeof buf - 1;
		memcpy(buf, s, n);
		buf[n] = 0;
		putp(buf);
		s += n;
		len -= n;
	}
}

void tt_osc_hyperlinks(const char *uri, const tt_link_seg *segs, int nseg)
{
	int cy, cx, y, x;
	char open[64];

	if (!uri || nseg <= 0 || !safe_text(uri, strlen(uri)) || strlen(uri) > 2000)
		return;
	getyx(curscr, cy, cx);
	if (cy < 0 || cx < 0)
		return;
	y = cy;
	x = cx;
	/* one id: terminals show the pieces of a wrapped link as one link */
	snprintf(open, sizeof open, "\033]8;id=tt%08x;", (unsigned)(strlen(uri) * 2654435761u));
	for (int i = 0; i < nseg; i++) {
		const tt_link_seg *s = &segs[i];
		chtype ch = mvwinch(curscr, s->y, s->x);
		if (!safe_text(uri + s->off, (size_t)s->len))
			continue;
		mvcur(y, x, s->y, s->x);
		vidattr(ch & (A_ATTRIBUTES | A_COLOR));
		putp(open);
		put_raw(uri, strlen(uri));
		putp("\033\\");
		put_raw(uri + s->off, (size_t)s->len);
		putp("\033]8;;\033\\");
		y = s->y;
		x = s->x + s->len;
	}
	wmove(curscr, cy, cx); /* mvwinch moved curscr's cursor */
	mvcur(y, x, cy, cx);
	vidattr(A_NORMAL);
	/* mvcur flushes ncurses' buffer: the escapes are out, in order */
	mvcur(cy, cx, cy, cx);
}

int tt_osc_clipboard(const char *text)
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *s = (const unsigned char *)text;
	size_t len = strlen(text), o = 0;
	char *out = malloc((len + 2) / 3 * 4 + 40);
	int cy, cx;

	if (!out)
		return -1;
	/* screen swallows OSC 52: its DCS passthrough hands it on */
	int in_screen = getenv("STY") != NULL && !getenv("TMUX");
	o += (size_t)sprintf(out, "%s\033]52;c;", in_screen ? "\033P" : "");
	for (size_t i = 0; i < len; i += 3) {
		unsigned v = (unsigned)s[i] << 16 | (i + 1 < len ? (unsigned)s[i + 1] << 8 : 0) |
			     (i + 2 < len ? s[i + 2] : 0);
		out[o++] = b64[v >> 18 & 63];
		out[o++] = b64[v >> 12 & 63];
		out[o++] = i + 1 < len ? b64[v >> 6 & 63] : '=';
		out[o++] = i + 2 < len ? b64[v & 63] : '=';
	}
	o += (size_t)sprintf(out + o, "\a%s", in_screen ? "\033\\" : "");
	put_raw(out, o);
	free(out);
	getyx(curscr, cy, cx);
	mvcur(cy, cx, cy, cx); /* flush, cursor unchanged */
	return 0;
}
