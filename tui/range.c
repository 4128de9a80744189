/*
 * range.c - time range selection and its scope (see range.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curses.h>

#include "range.h"
#include "theme.h"
#include "timefmt.h"
#include "timemath.h"
#include "view.h"

#define ATTR(a) ((attr_t)tt_theme_attr(a))

int tt_range_get(const tt_view *v, int64_t *a, int64_t *b)
{
	if (!v->has_range)
		return 0;
	*a = v->range_a < v->range_b ? v->range_a : v->range_b;
	*b = v->range_a < v->range_b ? v->range_b : v->range_a;
	return 1;
}

static int cursor_track(const tt_view *v)
{
	if (v->line < 0 || v->line >= v->lay.nlines)
		return -1;
	const tt_line *l = &v->lay.lines[v->line];
	if (l->track >= 0)
		return l->track;
	const tt_lgroup *g = &v->lay.groups[l->group];
	return g->ntracks > 0 ? g->tracks[0] : -1;
}

void tt_range_set(tt_view *v, int64_t a, int64_t b)
{
	v->range_a = a < b ? a : b;
	v->range_b = a < b ? b : a;
	v->has_range = 1;
	v->range_track = cursor_track(v);
	v->range_panel = 1;
}

int tt_range_track_in(const tt_view *v, int t)
{
	if (v->range_scope == TT_SCOPE_ALL || v->range_track < 0 || v->range_track >= v->lay.ntracks)
		return 1;
	if (t < 0 || t >= v->lay.ntracks)
		return 0;
	if (v->range_scope == TT_SCOPE_TRACK)
		return t == v->range_track;
	return v->lay.tracks[t].group == v->lay.tracks[v->range_track].group;
}

void tt_range_scope_text(const tt_view *v, char *buf, size_t n)
{
	if (v->range_scope == TT_SCOPE_ALL || v->range_track < 0 || v->range_track >= v->lay.ntracks)
		snprintf(buf, n, "all tracks");
	else if (v->range_scope == TT_SCOPE_TRACK)
		snprintf(buf, n, "track %s", v->lay.tracks[v->range_track].name);
	else
		snprintf(buf, n, "group %s", v->lay.groups[v->lay.tracks[v->range_track].group].name);
}

uint8_t *tt_range_core_tracks(const tt_view *v)
{
	uint32_t n = tt_trace_track_count(v->tr);
	uint8_t *sel = calloc(n ? n : 1, 1);

	if (!sel)
		return NULL;
	for (int t = 0; t < v->lay.ntracks; t++) {
		uint32_t id = v->lay.tracks[t].track_id;
		if (id != UINT32_MAX && id < n && tt_range_track_in(v, t))
			sel[id] = 1;
	}
	return sel;
}

int tt_range_action(tt_view *v, int action)
{
	int64_t a, b;
	char scope[200], len[64];

	switch (action) {
	case TT_ACT_RANGE_START:
		if (v->visual) {
			/* a second v ends the visual mode and keeps the range */
			v->visual = 0;
			tt_view_message(v, 0, "range kept (Esc clears it)");
			return TT_REDRAW;
		}
		tt_range_set(v, v->cursor, v->cursor);
		v->visual = 1;
		tt_range_scope_text(v, scope, sizeof scope);
		tt_view_message(v, 0, "range from the cursor: move to extend it, v ends, Esc clears (%s)", scope);
		return TT_REDRAW;
	case TT_ACT_RANGE_SCOPE:
		v->range_scope = (v->range_scope + 1) % TT_SCOPE_COUNT;
		v->range_panel = 1;
		if (v->range_track < 0)
			v->range_track = cursor_track(v);
		tt_range_scope_text(v, scope, sizeof scope);
		tt_view_message(v, 0, "range spans %s", scope);
		return TT_REDRAW;
	case TT_ACT_ZOOM_SELECTED:
		if (!tt_range_get(v, &a, &b))
			return -1;
		if (b <= a)
			b = tt_tm_add(a, 1);
		tt_view_set_window(v, a, tt_tm_len(a, b));
		if (v->cursor < a || v->cursor > b)
			v->cursor = a;
		tt_timefmt_exact(tt_tm_len(a, b), v->utf8, len, sizeof len);
		tt_view_message(v, 0, "zoomed to the range (%s)", len);
		return TT_REDRAW;
	default:
		return -1;
	}
}

void tt_range_follow(tt_view *v)
{
	if (v->visual && v->has_range)
		v->range_b = v->cursor;
}

/* Blanks ruler cells [x0, x1) of line 0 and the rest of any tick label
 * they cut (up to the spaces around it). */
static void clear_cut(const tt_view *v, int x0, int x1)
{
	while (x0 > 0 && (mvinch(0, v->tl_x + x0 - 1) & A_CHARTEXT) != ' ')
		x0--;
	while (x1 < v->tl_w && (mvinch(0, v->tl_x + x1) & A_CHARTEXT) != ' ')
		x1++;
	if (x0 < 0)
		x0 = 0;
	attrset(ATTR(TT_AREA_RULER));
	if (x1 > x0)
		mvhline(0, v->tl_x + x0, ' ', x1 - x0);
}

void tt_range_draw_ruler(const tt_view *v)
{
	int64_t a, b;
	char len[64], label[96];

	if (!tt_range_get(v, &a, &b))
		return;
	int c0 = tt_timefmt_col(a, v->t0, v->span, v->tl_w);
	int c1 = tt_timefmt_col(b > a ? b - 1 : a, v->t0, v->span, v->tl_w);
	if (c1 < 0 || c0 >= v->tl_w)
		return;
	int l = c0 < 0 ? 0 : c0, r = c1 >= v->tl_w ? v->tl_w - 1 : c1;
	int w = r - l + 1;
	tt_timefmt_exact(tt_tm_len(a, b), v->utf8, len, sizeof len);
	snprintf(label, sizeof label, " %s ", len);
	int tw = tt_view_text_cols(label);
	int x = l + (w - tw) / 2;
	if (x + tw > v->tl_w)
		x = v->tl_w - tw;
	if (x < 0)
		x = 0;
	/* the ends and the length go over the tick labels; a label they cut
	 * goes, the others stay */
	int left = c0 >= 0, right = c1 < v->tl_w && w >= 4;
	if (left)
		clear_cut(v, c0, c0 + 2);
	if (right)
		clear_cut(v, c1 - 1, c1 + 1);
	if (tw <= v->tl_w)
		clear_cut(v, x, x + tw);
	attrset(ATTR(TT_AREA_RANGE) | A_REVERSE);
	if (left)
		mvaddstr(0, v->tl_x + c0, w >= 2 ? "|<" : "|");
	if (right)
		mvaddstr(0, v->tl_x + c1 - 1, ">|");
	if (tw <= v->tl_w)
		mvaddstr(0, v->tl_x + x, label);
}
