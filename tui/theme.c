/*
 * theme.c - theme file parser, theme search path and colour-pair set-up
 * (see theme.h). The parser is pure; only tt_theme_apply/tt_theme_attr
 * touch ncurses.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curses.h>

#include "theme.h"
#include "confline.h"
#include "termtrace.h"

static const char *const area_names[TT_AREA_COUNT] = {
#define X(id, name) name,
	TT_AREAS(X)
#undef X
};

int tt_theme_area(const char *name)
{
	for (int i = 0; i < TT_AREA_COUNT; i++)
		if (!strcmp(area_names[i], name))
			return i;
	return -1;
}

const char *tt_theme_area_name(int area)
{
	return area >= 0 && area < TT_AREA_COUNT ? area_names[area] : "?";
}

static const char *const colour_names[8] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
};

static int parse_colour(const char *w, short *out)
{
	char *end;
	long v;

	if (!strcmp(w, "default")) {
		*out = -1;
		return 0;
	}
	for (int i = 0; i < 8; i++) {
		if (!strcmp(w, colour_names[i])) {
			*out = (short)i;
			return 0;
		}
		if (!strncmp(w, "bright-", 7) && !strcmp(w + 7, colour_names[i])) {
			*out = (short)(i + 8);
			return 0;
		}
	}
	if (!strncmp(w, "color", 5))
		w += 5;
	v = strtol(w, &end, 10);
	if (end == w || *end || v < 0 || v > 255)
		return -1;
	*out = (short)v;
	return 0;
}

static int parse_attr(const char *w)
{
	static const struct { const char *name; int bit; } attrs[] = {
		{"normal", 0}, {"bold", TT_ATTR_BOLD}, {"dim", TT_ATTR_DIM},
		{"reverse", TT_ATTR_REVERSE}, {"underline", TT_ATTR_UNDERLINE},
		{"italic", TT_ATTR_ITALIC}, {"blink", TT_ATTR_BLINK},
		{"standout", TT_ATTR_STANDOUT},
	};
	for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
		if (!strcmp(w, attrs[i].name))
			return attrs[i].bit;
	return -1;
}

int tt_theme_parse(tt_theme *th, const char *text, const char *path,
		   tt_theme_warn_fn warn, void *ctx)
{
	int bad = 0, nw;
	tt_confline c;

	tt_confline_init(&c, text, path);
	while ((nw = tt_confline_next(&c)) >= 0) {
		char **w = c.w;

		/* '#' starts a comment */
		for (int i = 0; i < nw; i++) {
			char *hash = strchr(w[i], '#');

			if (hash) {
				*hash = '\0';
				nw = w[i][0] ? i + 1 : i;
				break;
			}
		}
		if (nw == 0)
			continue;
		if (strcmp(w[0], "color")) {
			tt_confline_warn(&c, warn, ctx, "unknown command '%s' (expected 'color')", w[0]);
			bad++;
			continue;
		}
		if (nw < 4) {
			tt_confline_warn(&c, warn, ctx, "%s", "expected 'color AREA FG BG [ATTR...]'");
			bad++;
			continue;
		}
		int area = tt_theme_area(w[1]);
		if (area < 0) {
			tt_confline_warn(&c, warn, ctx, "unknown area '%s'", w[1]);
			bad++;
			continue;
		}
		tt_theme_entry e = {0, 0, 0, 1};
		if (parse_colour(w[2], &e.fg) || parse_colour(w[3], &e.bg)) {
			tt_confline_warn(&c, warn, ctx, "bad colour '%s'",
			      parse_colour(w[2], &e.fg) ? w[2] : w[3]);
			bad++;
			continue;
		}
		int ok = 1;
		for (int i = 4; i < nw; i++) {
			int a = parse_attr(w[i]);
			if (a < 0) {
				tt_confline_warn(&c, warn, ctx, "unknown attribute '%s'", w[i]);
				bad++;
				ok = 0;
				break;
			}
			e.attrs |= a;
		}
		if (ok)
			th->e[area] = e;
	}
	return bad;
}


/* A theme is small: never read a wrong file whole. */
#define THEME_MAX (1 << 20)

int tt_theme_load(tt_theme *th, const char *name, tt_theme_warn_fn warn, void *ctx)
{
	char path[1024];
	const char *dirs[4];
	char cfg[900];
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	int nd = 0;

	memset(th, 0, sizeof *th);
	tt_theme_parse(th, tt_theme_dark_text, "<built-in dark>", warn, ctx);
	if (!strcmp(name, "mono"))
		name = "monochrome";
	if (strchr(name, '/')) {
		char *text = tt_text_load(name, THEME_MAX, NULL);
		if (!text)
			goto missing;
		tt_theme_parse(th, text, name, warn, ctx);
		free(text);
		return 0;
	}
	if (xdg && *xdg)
		snprintf(cfg, sizeof cfg, "%s/termtrace/themes", xdg);
	else
		snprintf(cfg, sizeof cfg, "%s/.config/termtrace/themes", home ? home : ".");
	dirs[nd++] = cfg;
	dirs[nd++] = TT_DATADIR "/themes";
	dirs[nd++] = TT_SRCDIR "/themes";
	for (int i = 0; i < nd; i++) {
		snprintf(path, sizeof path, "%s/%s.theme", dirs[i], name);
		char *text = tt_text_load(path, THEME_MAX, NULL);
		if (text) {
			tt_theme_parse(th, text, path, warn, ctx);
			free(text);
			return 0;
		}
	}
	if (!strcmp(name, "dark"))
		return 0;
	if (!strcmp(name, "monochrome")) {
		tt_theme_parse(th, tt_theme_mono_text, "<built-in monochrome>", warn, ctx);
		return 0;
	}
missing:
	if (warn) {
		char msg[1200];
		snprintf(msg, sizeof msg, "no theme '%s'", name);
		warn(ctx, msg);
	}
	return -1;
}

static int has_word(const char *list, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = list; (p = strstr(p, w)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0))
			return 1;
	return 0;
}

void tt_theme_list(char *buf, size_t n)
{
	char cfg[900];
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	const char *dirs[3];

	snprintf(buf, n, "dark monochrome");
	if (xdg && *xdg)
		snprintf(cfg, sizeof cfg, "%s/termtrace/themes", xdg);
	else
		snprintf(cfg, sizeof cfg, "%s/.config/termtrace/themes", home ? home : ".");
	dirs[0] = cfg;
	dirs[1] = TT_DATADIR "/themes";
	dirs[2] = TT_SRCDIR "/themes";
	for (int i = 0; i < 3; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *e;
		if (!d)
			continue;
		while ((e = readdir(d))) {
			size_t len = strlen(e->d_name);
			char name[256];
			if (len <= 6 || len - 6 >= sizeof name || strcmp(e->d_name + len - 6, ".theme"))
				continue;
			memcpy(name, e->d_name, len - 6);
			name[len - 6] = 0;
			if (!has_word(buf, name) && strlen(buf) + len < n)
				strncat(strncat(buf, " ", n - strlen(buf) - 1), name, n - strlen(buf) - 1);
		}
		closedir(d);
	}
}

int tt_theme_palette(const char *name)
{
	/* FNV-1a: stable across runs and machines, so a name keeps its colour */
	uint32_t h = 2166136261u;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	return (int)(h % TT_PALETTE);
}

/* ---- ncurses ------------------------------------------------------------ */

static unsigned long area_attr[TT_AREA_COUNT];

/* Nearest of the 8 basic colours to an xterm-256 colour. */
static short to8(short c)
{
	int r, g, b;

	if (c < 0 || c < 8)
		return c;
	if (c < 16)
		return (short)(c - 8);
	if (c >= 232) {
		int v = (c - 232) * 10 + 8;
		return v < 128 ? COLOR_BLACK : COLOR_WHITE;
	}
	c = (short)(c - 16);
	r = c / 36, g = (c / 6) % 6, b = c % 6;
	return (short)((r >= 3 ? 1 : 0) | (g >= 3 ? 2 : 0) | (b >= 3 ? 4 : 0));
}

static short fit(short c, int ncolors)
{
	if (c < 0 || c < ncolors)
		return c;
	if (ncolors >= 16 && c < 16)
		return c;
	return to8(c);
}

void tt_theme_apply(const tt_theme *th, int ncolors)
{
	for (int i = 0; i < TT_AREA_COUNT; i++) {
		const tt_theme_entry *e = &th->e[i];
		unsigned long a = 0;

		if (e->attrs & TT_ATTR_BOLD) a |= A_BOLD;
		if (e->attrs & TT_ATTR_DIM) a |= A_DIM;
		if (e->attrs & TT_ATTR_REVERSE) a |= A_REVERSE;
		if (e->attrs & TT_ATTR_UNDERLINE) a |= A_UNDERLINE;
#ifdef A_ITALIC
		if (e->attrs & TT_ATTR_ITALIC) a |= A_ITALIC;
#endif
		if (e->attrs & TT_ATTR_BLINK) a |= A_BLINK;
		if (e->attrs & TT_ATTR_STANDOUT) a |= A_STANDOUT;
		if (ncolors > 0 && i + 1 < COLOR_PAIRS) {
			init_pair((short)(i + 1), fit(e->fg, ncolors), fit(e->bg, ncolors));
			a |= COLOR_PAIR(i + 1);
		}
		area_attr[i] = a;
	}
}

unsigned long tt_theme_attr(int area)
{
	return area >= 0 && area < TT_AREA_COUNT ? area_attr[area] : 0;
}
