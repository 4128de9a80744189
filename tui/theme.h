/*
 * theme.h - colour themes: the UI elements (areas) every renderer indexes,
 * the parser of theme files, and their translation to ncurses attributes.
 *
 * A theme file has one rule per line, `#` starts a comment:
 *     color AREA FG BG [ATTR...]
 * AREA is a name from TT_AREAS below; FG/BG are `default`, a colour name
 * (black red green yellow blue magenta cyan white, `bright-` variants) or a
 * number 0-255; ATTR is bold dim reverse underline italic blink standout
 * normal. A bad line gives a warning `path:line: message` and parsing goes
 * on. Areas a theme does not name keep their value from the default theme.
 * Renderers never hard-code colours: they call tt_theme_attr(area).
 */
#ifndef TT_THEME_H
#define TT_THEME_H

#include <stddef.h>

/* X(ID, "name") - every element of the UI that has a colour. */
#define TT_AREAS(X) \
	X(DEFAULT, "default") \
	X(RULER, "ruler") \
	X(RULER_TICK, "ruler.tick") \
	X(CURSOR, "cursor") \
	X(RANGE, "range") \
	X(GROUP, "group") \
	X(GROUP_SEL, "group.selected") \
	X(TRACK_NAME, "track.name") \
	X(TRACK_SEL, "track.selected") \
	X(SLICE_SEL, "slice.selected") \
	X(SLICE_MATCH, "slice.match") \
	X(SLICE_BUSY, "slice.busy") \
	X(COUNTER, "counter") \
	X(INSTANT, "instant") \
	X(ALERT_WARNING, "alert.warning") \
	X(ALERT_ERROR, "alert.error") \
	X(DETAILS, "details") \
	X(DETAILS_TITLE, "details.title") \
	X(DETAILS_KEY, "details.key") \
	X(DETAILS_LINK, "details.link") \
	X(STATUS, "status") \
	X(CMDBAR, "cmdbar") \
	X(CMDBAR_ERROR, "cmdbar.error") \
	X(TABLE_HEADER, "table.header") \
	X(TABLE_SEL, "table.selected") \
	X(HELP_KEY, "help.key") \
	X(PROGRESS, "progress") \
	X(SLICE0, "slice.0") X(SLICE1, "slice.1") X(SLICE2, "slice.2") \
	X(SLICE3, "slice.3") X(SLICE4, "slice.4") X(SLICE5, "slice.5") \
	X(SLICE6, "slice.6") X(SLICE7, "slice.7") X(SLICE8, "slice.8") \
	X(SLICE9, "slice.9") X(SLICE10, "slice.10") X(SLICE11, "slice.11")

typedef enum tt_area {
#define X(id, name) TT_AREA_##id,
	TT_AREAS(X)
#undef X
	TT_AREA_COUNT
} tt_area;

#define TT_PALETTE 12 /* slice.0 .. slice.11 */

enum {
	TT_ATTR_BOLD = 1, TT_ATTR_DIM = 2, TT_ATTR_REVERSE = 4,
	TT_ATTR_UNDERLINE = 8, TT_ATTR_ITALIC = 16, TT_ATTR_BLINK = 32,
	TT_ATTR_STANDOUT = 64,
};

typedef struct tt_theme_entry {
	short fg, bg; /* -1 = terminal default, 0..255 */
	int attrs;    /* TT_ATTR_* */
	int set;      /* named by the file */
} tt_theme_entry;

typedef struct tt_theme {
	tt_theme_entry e[TT_AREA_COUNT];
} tt_theme;

/* Warnings go to fn (one line without '\n'); fn may be NULL. */
typedef void (*tt_theme_warn_fn)(void *ctx, const char *msg);

/* Parses theme text over *th (rules override what is there). path names
 * the text in warnings. Returns the number of bad lines. */
int tt_theme_parse(tt_theme *th, const char *text, const char *path,
		   tt_theme_warn_fn warn, void *ctx);
/* Reads a theme: NAME is a path when it holds '/', otherwise searched as
 * NAME.theme in $XDG_CONFIG_HOME/termtrace/themes, the data folder and the
 * source tree; "dark" and "monochrome" are also compiled in. The result
 * starts from the built-in dark theme. Returns 0, or -1 (message in warn)
 * when no such theme. */
int tt_theme_load(tt_theme *th, const char *name, tt_theme_warn_fn warn, void *ctx);
/* The theme names :theme can load (built-in and found in the theme
 * folders), space-separated. */
void tt_theme_list(char *buf, size_t n);
/* Area by name, -1 when unknown. */
int tt_theme_area(const char *name);
const char *tt_theme_area_name(int area);

/* Built-in theme texts (identical to themes/dark.theme and
 * themes/monochrome.theme; a test checks). */
extern const char tt_theme_dark_text[];
extern const char tt_theme_mono_text[];

/* ---- ncurses side ------------------------------------------------------
 * Allocates colour pairs for th on the current screen. ncolors is COLORS
 * (0 = no colour: attributes only; 8 = colours above 7 are mapped to the
 * nearest of the eight). */
void tt_theme_apply(const tt_theme *th, int ncolors);
/* The ncurses attribute (pair | attrs) of an area after tt_theme_apply. */
unsigned long tt_theme_attr(int area);
/* Palette entry for a name: stable hash of the text. */
int tt_theme_palette(const char *name);

#endif
