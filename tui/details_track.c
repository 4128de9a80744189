/*
 * details_track.c - the details panel when no slice is selected and the
 * cursor is on a track: the track's description (describe_track) and doc
 * link, so the name in the track list can be explained ("what is
 * VizCompositorThread?"). Kept apart from details.c, which draws slices.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curses.h>

#include "details.h"

#define ATTR(a) ((attr_t)tt_theme_attr(a))

/* Writes text wrapped into the panel from row y; returns the next row. */
static int put_wrapped(const tt_view *v, int y, const char *text)
{
	int w = v->det_w - 2, ymax = v->det_y + v->det_h;

	while (*text && y < ymax && w > 0) {
		int n = (int)strlen(text);

		if (n > w) {
			n = w;
			while (n > 0 && text[n] != ' ')
				n--;
			if (n == 0)
				n = w;
		}
		mvaddnstr(y++, v->det_x + 1, text, n);
		text += n;
		while (*text == ' ')
			text++;
	}
	return y;
}

int tt_details_draw_track(tt_view *v)
{
	tt_result r = {0};
	tt_err err = {0};
	char sql[160];
	const tt_line *ln;
	const tt_ltrack *t;
	int y = v->det_y + 1, shown = 0;

	if (v->line < 0 || v->line >= v->lay.nlines)
		return 0;
	ln = &v->lay.lines[v->line];
	if (ln->track < 0)
		return 0;
	t = &v->lay.tracks[ln->track];
	if (t->track_id == UINT32_MAX)
		return 0;
	snprintf(sql, sizeof sql,
		 "select description, doc_link from describe_track where track_id = %lu",
		 (unsigned long)t->track_id);
	if (tt_query_collect(v->tr, sql, 1, &r, &err) == TT_OK && r.nrows > 0 && r.cells[0]) {
		char title[160];

		snprintf(title, sizeof title, " %s%s", t->name, v->utf8 ? "  \xe2\x93\x98" : "  (i)");
		attrset(ATTR(TT_AREA_DETAILS_TITLE));
		mvhline(v->det_y, v->det_x, ' ', v->det_w);
		mvaddnstr(v->det_y, v->det_x, title, v->det_w);
		attrset(ATTR(TT_AREA_DETAILS));
		y = put_wrapped(v, y, r.cells[0]);
		if (r.cells[1] && y < v->det_y + v->det_h) {
			char link[512];

			snprintf(link, sizeof link, "doc link: %s", r.cells[1]);
			put_wrapped(v, y, link);
		}
		shown = 1;
	}
	tt_result_free(&r);
	return shown;
}
