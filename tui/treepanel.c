/*
 * treepanel.c - the call tree, bottom-up tree or flame graph beside the
 * timeline, in the details panel (see report.h). Perfetto shows its
 * flame graph under the timeline and highlights what the selected node
 * stands for; here the node under the panel's cursor has its slices
 * highlighted on the timeline as the cursor moves (as search matches:
 * n/N step through them in time order), and the timeline keeps its keys
 * (zoom, pan, n/N) while the panel takes the tree's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curses.h>

#include "report_int.h"
#include "theme.h"
#include "timefmt.h"

#define ATTR(a) ((attr_t)tt_theme_attr(a))

int tt_report_is_tree(const tt_report *rep)
{
	return rep && (rep->kind == TT_ACT_CALLTREE || rep->kind == TT_ACT_BOTTOMUP || rep->kind == TT_ACT_FLAME);
}

static int is_flame(const tt_report *rep)
{
	return rep->kind == TT_ACT_FLAME;
}

/* The node under the panel's cursor. */
static uint32_t cur_node(tt_report *rep)
{
	if (is_flame(rep))
		return rep->cur;
	if (!rep->rowmap || rep->nrows == 0)
		return 0;
	if (rep->prow >= (int)rep->nrows)
		rep->prow = (int)rep->nrows - 1;
	if (rep->prow < 0)
		rep->prow = 0;
	return rep->rowmap[rep->prow];
}

/* The timeline follows the cursor: the node's slices, highlighted. */
static int follow(tt_report *rep, tt_view *v)
{
	uint32_t k = cur_node(rep);

	/* the same node, still highlighted (not replaced by a search) */
	if (k == rep->lit && (k == 0 || v->search[0] == '='))
		return TT_REDRAW;
	return tt_report_highlight(rep, v, k, 0);
}

int tt_report_dock(tt_report *rep, tt_view *v, const tt_table *t)
{
	if (!tt_report_is_tree(rep))
		return TT_REDRAW;
	v->dock = rep;
	v->dock_focus = 1;
	v->mode = TT_MODE_TIMELINE;
	if (!is_flame(rep)) {
		tt_report_tree_walk(rep);
		if (t)
			rep->prow = t->row;
	}
	/* the panel must show: a hidden one comes back at the bottom, with
	 * room for a few rows of the tree */
	if (v->details_pos == TT_DETAILS_HIDDEN)
		v->details_pos = TT_DETAILS_BOTTOM;
	if (v->details_h < 12)
		v->details_h = 12;
	tt_view_geometry(v, v->rows, v->cols);
	rep->lit = TT_CT_NONE;
	rep->freveal = 1;
	return follow(rep, v) | TT_REDRAW | TT_RELAYOUT;
}

int tt_report_undock(tt_report *rep, tt_view *v, tt_result *res, char *title, size_t ntitle, int *row)
{
	v->dock = NULL;
	v->dock_focus = 0;
	tt_view_geometry(v, v->rows, v->cols);
	memset(res, 0, sizeof *res);
	if (is_flame(rep)) {
		rep->freveal = 1;
		v->mode = TT_MODE_FLAME;
		return 0;
	}
	tt_report_tree_table(rep, v, res, title, ntitle);
	*row = rep->prow;
	v->mode = TT_MODE_TABLE;
	return 1;
}

/* Bytes of the first `cols` characters of UTF-8 text. */
static int ubytes(const char *s, int cols)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p && cols > 0) {
		p++;
		while ((*p & 0xc0) == 0x80)
			p++;
		cols--;
	}
	return (int)((const char *)p - s);
}

/* Columns before the name: total, self, calls, share; a narrow panel
 * (on the right) keeps total and share. */
static int wide(const tt_view *v)
{
	return v->det_w >= 70;
}

static int name_x(const tt_view *v)
{
	return v->det_x + (wide(v) ? 41 : 21);
}

static void clamp_rows(tt_report *rep, int nvis)
{
	if (rep->prow >= (int)rep->nrows)
		rep->prow = (int)rep->nrows - 1;
	if (rep->prow < 0)
		rep->prow = 0;
	if (rep->prow < rep->ptop)
		rep->ptop = rep->prow;
	if (nvis > 0 && rep->prow >= rep->ptop + nvis)
		rep->ptop = rep->prow - nvis + 1;
	if (rep->ptop < 0)
		rep->ptop = 0;
}

static void tree_draw(tt_report *rep, tt_view *v)
{
	const tt_calltree *ct = &rep->ct;
	int x = v->det_x, y = v->det_y, w = v->det_w, h = v->det_h, nvis = h - 2;
	char buf[700], a[32], b[32], c[32];

	attrset(ATTR(TT_AREA_DETAILS));
	for (int r = 0; r < h; r++)
		mvhline(y + r, x, ' ', w);
	snprintf(buf, sizeof buf, " %s of %s: %zu slices  %s", ct->bottom_up ? "bottom-up tree" : "call tree", rep->what,
		 ct->nslices, v->dock_focus ? "(arrows, Enter: fold; t: timeline, Z: full screen, q: close)"
					    : "(Z: keys to the tree)");
	attrset(ATTR(TT_AREA_DETAILS_TITLE));
	mvhline(y, x, ' ', w);
	mvaddnstr(y, x, buf, ubytes(buf, w));
	if (h < 2)
		return;
	if (wide(v))
		snprintf(buf, sizeof buf, " %10s %10s %8s %7s  name", "total", ct->bottom_up ? "" : "self", "calls", "share");
	else
		snprintf(buf, sizeof buf, " %10s %7s  name", "total", "share");
	attrset(ATTR(TT_AREA_DETAILS_KEY));
	mvaddnstr(y + 1, x, buf, w);
	if (!rep->rowmap)
		return;
	clamp_rows(rep, nvis);
	for (int i = 0; i < nvis && rep->ptop + i < (int)rep->nrows; i++) {
		int r = rep->ptop + i;
		uint32_t k = rep->rowmap[r];
		const tt_ct_node *nd = &ct->nodes[k];
		double share = ct->nodes[0].total ? (double)nd->total * 100.0 / (double)ct->nodes[0].total : 0.0;
		tt_timefmt_short(nd->total, v->utf8, a, sizeof a);
		if (k == 0 || ct->bottom_up)
			snprintf(b, sizeof b, "-");
		else
			tt_timefmt_short(nd->self, v->utf8, b, sizeof b);
		if (k == 0)
			snprintf(c, sizeof c, "-");
		else
			snprintf(c, sizeof c, "%lld", (long long)nd->calls);
		attrset(ATTR(r == rep->prow ? TT_AREA_TABLE_SEL : TT_AREA_DETAILS));
		mvhline(y + 2 + i, x, ' ', w);
		/* printf pads bytes: right-align the times by their columns */
		int cx = x + 1;
		const char *vals[3] = {a, b, c};
		int widths[3] = {10, 10, 8};
		for (int j = 0; j < (wide(v) ? 3 : 1); j++) {
			int len = tt_view_text_cols(vals[j]);
			if (cx + widths[j] <= x + w)
				mvaddstr(y + 2 + i, cx + widths[j] - len, vals[j]);
			cx += widths[j] + 1;
		}
		snprintf(buf, sizeof buf, "%6.1f%%", share);
		if (cx + 7 <= x + w)
			mvaddstr(y + 2 + i, cx, buf);
		const char *mark = nd->child == TT_CT_NONE ? " " : rep->open[k] ? (v->utf8 ? "\xe2\x96\xbe" : "-")
										 : (v->utf8 ? "\xe2\x96\xb8" : "+");
		snprintf(buf, sizeof buf, "%*s%s %s", (int)nd->depth * 2, "", mark,
			 k == 0 ? rep->what : tt_trace_str(v->tr, nd->name));
		int nx = name_x(v), room = x + w - nx;
		if (room > 0)
			mvaddnstr(y + 2 + i, nx, buf, ubytes(buf, room));
	}
}

void tt_report_panel_draw(tt_view *v)
{
	tt_report *rep = v->dock;

	if (!rep || v->det_w <= 0 || v->det_h <= 0)
		return;
	if (is_flame(rep))
		tt_report_flame_panel(rep, v);
	else
		tree_draw(rep, v);
}

/* Closes the panel: the details come back; the highlight stays (Esc on
 * the timeline clears it). */
static int close_panel(tt_view *v)
{
	v->dock = NULL;
	v->dock_focus = 0;
	tt_view_geometry(v, v->rows, v->cols);
	tt_view_message(v, 0, "tree closed (Z opens it again beside the timeline)");
	return TT_REDRAW | TT_RELAYOUT;
}

static int tree_key(tt_report *rep, tt_view *v, int key)
{
	int page = v->det_h > 4 ? v->det_h - 3 : 1;

	if (!rep->rowmap || rep->nrows == 0)
		return -1;
	clamp_rows(rep, 0);
	uint32_t k = rep->rowmap[rep->prow];
	const tt_ct_node *nd = &rep->ct.nodes[k];
	switch (key) {
	case KEY_UP: case 'k':
		rep->prow--;
		break;
	case KEY_DOWN: case 'j':
		rep->prow++;
		break;
	case KEY_PPAGE:
		rep->prow -= page;
		break;
	case KEY_NPAGE:
		rep->prow += page;
		break;
	case KEY_HOME:
		rep->prow = 0;
		break;
	case KEY_END:
		rep->prow = (int)rep->nrows - 1;
		break;
	case '\n': case '\r': case KEY_ENTER:
		if (nd->child == TT_CT_NONE)
			return TT_REDRAW;
		rep->open[k] = !rep->open[k];
		tt_report_tree_walk(rep);
		break;
	case KEY_RIGHT: case 'l':
		if (nd->child == TT_CT_NONE)
			return TT_REDRAW;
		if (rep->open[k])
			rep->prow++;
		else
			rep->open[k] = 1;
		tt_report_tree_walk(rep);
		break;
	case KEY_LEFT: case 'h':
		if (rep->open[k] && nd->child != TT_CT_NONE) {
			rep->open[k] = 0;
			tt_report_tree_walk(rep);
			break;
		}
		for (int r = rep->prow - 1; r >= 0; r--)
			if (rep->rowmap[r] == nd->parent) {
				rep->prow = r;
				break;
			}
		break;
	default:
		return -1;
	}
	clamp_rows(rep, v->det_h - 2);
	return follow(rep, v);
}

int tt_report_panel_key(tt_view *v, int key)
{
	tt_report *rep = v->dock;

	if (!rep || !v->dock_focus || v->det_w <= 0 || v->det_h <= 0)
		return -1; /* a hidden panel (Tab) leaves the keys to the timeline */
	switch (key) {
	case 'q':
		return close_panel(v);
	case 27:
		v->dock_focus = 0;
		tt_view_message(v, 0, "keys to the timeline (Z: back to the %s)", is_flame(rep) ? "graph" : "tree");
		return TT_REDRAW;
	case 't': {
		uint32_t k = cur_node(rep);
		v->dock_focus = 0;
		if (k == 0)
			return TT_REDRAW;
		return tt_report_highlight(rep, v, k, 1);
	}
	default:
		break;
	}
	if (is_flame(rep)) {
		if (tt_report_flame_nav(rep, v, key) < 0)
			return -1;
		return follow(rep, v);
	}
	return tree_key(rep, v, key);
}

int tt_report_panel_mouse(tt_view *v, const MEVENT *ev, int clicks)
{
	tt_report *rep = v->dock;

	if (!rep || ev->x < v->det_x || ev->x >= v->det_x + v->det_w || ev->y < v->det_y ||
	    ev->y >= v->det_y + v->det_h)
		return -1;
	v->dock_focus = 1;
	if (is_flame(rep)) {
		if (tt_report_flame_mouse(rep, v, ev, clicks) < 0)
			return TT_REDRAW;
		return follow(rep, v);
	}
	if (ev->bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
		rep->prow += ev->bstate & BUTTON4_PRESSED ? -3 : 3;
		clamp_rows(rep, v->det_h - 2);
		return follow(rep, v);
	}
	if (!(clicks) || !rep->rowmap)
		return TT_REDRAW;
	int r = rep->ptop + ev->y - (v->det_y + 2);
	if (ev->y < v->det_y + 2 || r < 0 || r >= (int)rep->nrows)
		return TT_REDRAW;
	uint32_t k = rep->rowmap[r];
	int mx = name_x(v) + (int)rep->ct.nodes[k].depth * 2;
	int on_mark = ev->x == mx && rep->ct.nodes[k].child != TT_CT_NONE;
	rep->prow = r;
	/* each click on the fold marker opens/closes; a double-click
	 * elsewhere is Enter */
	if (on_mark || clicks >= 2) {
		if (rep->ct.nodes[k].child != TT_CT_NONE) {
			rep->open[k] = !rep->open[k];
			tt_report_tree_walk(rep);
		}
	}
	clamp_rows(rep, v->det_h - 2);
	return follow(rep, v);
}
