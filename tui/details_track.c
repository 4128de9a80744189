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

/* Fetches the description of core track id into v->tdesc (NULL when none
 * answers), once per track the cursor visits. */
static void fetch(tt_view *v, uint32_t id)
{
	tt_result r = {0};
	tt_err err = {0};
	char sql[160];

	if (v->tdesc_track == id)
		return;
	free(v->tdesc);
	free(v->tdesc_link);
	v->tdesc = v->tdesc_link = NULL;
	v->tdesc_track = id;
	snprintf(sql, sizeof sql,
		 "select description, doc_link from describe_track where track_id = %lu",
		 (unsigned long)id);
	if (tt_query_collect(v->tr, sql, 1, &r, &err) == TT_OK && r.nrows > 0 && r.cells[0]) {
		v->tdesc = strdup(r.cells[0]);
		v->tdesc_link = r.cells[1] ? strdup(r.cells[1]) : NULL;
	}
	tt_result_free(&r);
}

int tt_details_draw_track(tt_view *v)
{
	const tt_line *ln;
	const tt_ltrack *t;
	int y = v->det_y + 1;
	char title[160];

	if (v->line < 0 || v->line >= v->lay.nlines)
		return 0;
	ln = &v->lay.lines[v->line];
	if (ln->track < 0)
		return 0;
	t = &v->lay.tracks[ln->track];
	if (t->track_id == UINT32_MAX)
		return 0;
	fetch(v, t->track_id);
	if (!v->tdesc)
		return 0;
	snprintf(title, sizeof title, " %s%s", t->name, v->utf8 ? "  \xe2\x93\x98" : "  (i)");
	attrset(ATTR(TT_AREA_DETAILS_TITLE));
	mvhline(v->det_y, v->det_x, ' ', v->det_w);
	mvaddnstr(v->det_y, v->det_x, title, v->det_w);
	attrset(ATTR(TT_AREA_DETAILS));
	y = put_wrapped(v, y, v->tdesc);
	if (v->tdesc_link && y < v->det_y + v->det_h) {
		char link[512];

		snprintf(link, sizeof link, "doc link: %s", v->tdesc_link);
		put_wrapped(v, y, link);
	}
	return 1;
}
