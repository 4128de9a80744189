/*
 * flame.c - the flame (icicle) graph of a call tree (see report.h): the
 * full screen and the region the details panel gives it (treepanel.c).
 * A frame is as wide as its share of its parent; rows scroll when the
 * graph is deeper than the region; each frame drawn is remembered for
 * the mouse.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curses.h>

#include "report_int.h"
#include "theme.h"
#include "timefmt.h"

#define ATTR(a) ((attr_t)tt_theme_attr(a))

typedef struct flame_ctx {
	tt_report *rep;
	tt_view *v;
	int x0, y0, h, w;
	int first;   /* logical row drawn at y0 (the scroll) */
	int maxrow;  /* deepest logical row that has a frame */
} flame_ctx;

static void add_hit(tt_report *rep, int y, int x, int w, uint32_t node)
{
	if (rep->nhits == rep->caphits) {
		size_t nc = rep->caphits ? rep->caphits * 2 : 256;
		struct tt_flame_hit *nh = realloc(rep->hits, nc * sizeof *nh);
		if (!nh)
			return;
		rep->hits = nh;
		rep->caphits = nc;
	}
	rep->hits[rep->nhits++] = (struct tt_flame_hit){y, x, w, node};
}

static const char *frame_name(const tt_report *rep, const tt_view *v, uint32_t k)
{
	return k == 0 ? rep->what : tt_trace_str(v->tr, rep->ct.nodes[k].name);
}

/* Frame k over columns [x, x + w) at logical row `row`, then its
 * children under it. Frames of one column or more are visited even when
 * scrolled away, so that the graph's depth is known (bounded by the
 * region's cells, not by the tree). */
static void flame_node(flame_ctx *f, uint32_t k, int x, int w, int row)
{
	const tt_calltree *ct = &f->rep->ct;
	const tt_ct_node *nd = &ct->nodes[k];

	if (w <= 0)
		return;
	if (row > f->maxrow)
		f->maxrow = row;
	int y = row - f->first;
	if (y >= 0 && y < f->h) {
		const char *name = frame_name(f->rep, f->v, k);
		attr_t a = k == f->rep->cur ? ATTR(TT_AREA_SLICE_SEL)
					    : ATTR(TT_AREA_SLICE0 + (k == 0 ? 0 : tt_theme_palette(name)));
		y += f->y0;
		attrset(a);
		mvhline(y, x, ' ', w);
		/* a frame starts with a block edge, so that frames stay apart
		 * in any theme (monochrome too); the name follows when it fits */
		mvaddstr(y, x, f->v->utf8 ? "\xe2\x96\x8f" : "|");
		if (w >= 3) {
			int len = tt_view_text_cols(name);
			if (len <= w - 2)
				mvaddnstr(y, x + 1 + (w - 1 - len) / 2, name, (int)strlen(name));
			else if (w >= 5) {
				mvaddnstr(y, x + 1, name, w - 2);
				mvaddstr(y, x + w - 1, f->v->utf8 ? "\xe2\x80\xa6" : "~");
			}
		}
		add_hit(f->rep, y, x, w, k);
	}
	/* children: width = share of this node's total, left to right by
	 * total (cumulative rounding so that widths add up) */
	int64_t cum = 0;
	for (uint32_t c = nd->child; c != TT_CT_NONE; c = ct->nodes[c].next) {
		int64_t t = nd->total > 0 ? nd->total : 1;
		int cx0 = x + (int)((__int128)cum * w / t);
		cum += ct->nodes[c].total;
		int cx1 = x + (int)((__int128)cum * w / t);
		if (cx1 > cx0)
			flame_node(f, c, cx0, cx1 - cx0, row + 1);
	}
}

void tt_report_flame_region(tt_report *rep, tt_view *v, int x, int y, int w, int h)
{
	uint32_t path[256];
	int np = 0;

	rep->nhits = 0;
	if (w <= 0 || h <= 0)
		return;
	/* the zoomed frame's ancestors take the whole width, one line each */
	for (uint32_t k = rep->focus; k != TT_CT_NONE && np < 256; k = rep->ct.nodes[k].parent)
		path[np++] = k;
	if (rep->freveal) {
		int crow = np - 1 + (int)(rep->ct.nodes[rep->cur].depth - rep->ct.nodes[rep->focus].depth);
		if (crow < rep->fscroll)
			rep->fscroll = crow;
		if (crow >= rep->fscroll + h)
			rep->fscroll = crow - h + 1;
		rep->freveal = 0;
	}
	if (rep->fscroll < 0)
		rep->fscroll = 0;
	flame_ctx f = {rep, v, x, y, h, w, rep->fscroll, 0};
	for (int i = np - 1; i > 0; i--) {
		int r = np - 1 - i - f.first;
		if (r < 0 || r >= h)
			continue;
		attrset(ATTR(TT_AREA_SLICE_BUSY));
		mvhline(y + r, x, ' ', w);
		mvaddnstr(y + r, x, frame_name(rep, v, path[i]), w);
		add_hit(rep, y + r, x, w, path[i]);
	}
	flame_node(&f, rep->focus, x, w, np - 1);
	/* scrolled past the deepest row (the window grew, a zoom): again */
	if (f.first > 0 && f.maxrow - f.first < h - 1) {
		int want = f.maxrow - h + 1 > 0 ? f.maxrow - h + 1 : 0;
		if (want < rep->fscroll) {
			rep->fscroll = want;
			attrset(ATTR(TT_AREA_DEFAULT));
			for (int r = 0; r < h; r++)
				mvhline(y + r, x, ' ', w);
			tt_report_flame_region(rep, v, x, y, w, h);
		}
	}
}

uint32_t tt_report_flame_at(const tt_report *rep, int x, int y)
{
	for (size_t i = 0; rep && i < rep->nhits; i++)
		if (rep->hits[i].y == y && x >= rep->hits[i].x && x < rep->hits[i].x + rep->hits[i].w)
			return rep->hits[i].node;
	return TT_CT_NONE;
}

/* "| RunTask: total 1.2ms, self 3µs, 12 calls, 4.56%" of the selected frame. */
static void flame_status(const tt_report *rep, const tt_view *v, char *buf, size_t n)
{
	const tt_ct_node *cur = &rep->ct.nodes[rep->cur];
	char tot[64], self[64];

	tt_timefmt_exact(cur->total, v->utf8, tot, sizeof tot);
	tt_timefmt_exact(cur->self, v->utf8, self, sizeof self);
	snprintf(buf, n, "%s: total %s, self %s, %lld calls, %.2f%%",
		 rep->cur == 0 ? "all" : tt_trace_str(v->tr, cur->name), tot, self, (long long)cur->calls,
		 rep->ct.nodes[0].total ? (double)cur->total * 100.0 / (double)rep->ct.nodes[0].total : 0.0);
}

void tt_report_flame_draw(tt_report *rep, tt_view *v)
{
	char buf[700], st[400];

	attrset(ATTR(TT_AREA_STATUS));
	mvhline(0, 0, ' ', v->cols);
	if (!rep)
		return;
	flame_status(rep, v, st, sizeof st);
	snprintf(buf, sizeof buf, " flame graph of %s | %s", rep->what, st);
	mvaddnstr(0, 0, buf, v->cols);
	tt_report_flame_region(rep, v, 0, 1, v->cols, v->rows - 3);
	attrset(ATTR(TT_AREA_STATUS));
	mvhline(v->rows - 2, 0, ' ', v->cols);
	mvaddnstr(v->rows - 2, 0,
		  " arrows: move  Enter: zoom into the frame  Backspace: back  t: show on timeline  Z: beside it  q: close",
		  v->cols);
}

/* Draws the flame graph in the details panel (treepanel.c). */
void tt_report_flame_panel(tt_report *rep, tt_view *v)
{
	char buf[1200], st[400];
	int x = v->det_x, y = v->det_y, w = v->det_w, h = v->det_h;

	flame_status(rep, v, st, sizeof st);
	snprintf(buf, sizeof buf, " flame graph of %s | %s  %s", rep->what, st,
		 v->dock_focus ? "(arrows, Enter, Backspace; t: timeline, Z: full screen, q: close)"
			       : "(Z: keys to the graph)");
	attrset(ATTR(TT_AREA_DETAILS_TITLE));
	mvhline(y, x, ' ', w);
	mvaddnstr(y, x, buf, w);
	tt_report_flame_region(rep, v, x, y + 1, w, h - 1);
}

int tt_report_flame_nav(tt_report *rep, tt_view *v, int key)
{
	const tt_calltree *ct = &rep->ct;
	const tt_ct_node *nd = &ct->nodes[rep->cur];

	(void)v;
	switch (key) {
	case KEY_DOWN: case 'j':
		if (nd->child != TT_CT_NONE)
			rep->cur = nd->child;
		break;
	case KEY_UP: case 'k':
		if (rep->cur != rep->focus && nd->parent != TT_CT_NONE)
			rep->cur = nd->parent;
		break;
	case KEY_RIGHT: case 'l':
		if (nd->next != TT_CT_NONE)
			rep->cur = nd->next;
		break;
	case KEY_LEFT: case 'h':
		if (rep->cur != rep->focus && nd->parent != TT_CT_NONE) {
			uint32_t prev = TT_CT_NONE;
			for (uint32_t c = ct->nodes[nd->parent].child; c != TT_CT_NONE && c != rep->cur;
			     c = ct->nodes[c].next)
				prev = c;
			if (prev != TT_CT_NONE)
				rep->cur = prev;
		}
		break;
	case '\n': case '\r': case KEY_ENTER:
		rep->focus = rep->cur;
		rep->fscroll = 0;
		break;
	case KEY_BACKSPACE: case 127: case 8:
		if (ct->nodes[rep->focus].parent != TT_CT_NONE)
			rep->focus = ct->nodes[rep->focus].parent;
		rep->cur = rep->focus;
		rep->fscroll = 0;
		break;
	case KEY_NPAGE:
		rep->fscroll += 5;
		return TT_REDRAW;
	case KEY_PPAGE:
		rep->fscroll -= 5;
		return TT_REDRAW;
	default:
		return -1;
	}
	rep->freveal = 1;
	return TT_REDRAW;
}

/* A click: on the selected frame (or a double-click) zooms into it, on
 * an ancestor line zooms out to it, elsewhere selects; the wheel scrolls
 * the rows. Returns TT_* flags, -1 when the event is not the graph's. */
int tt_report_flame_mouse(tt_report *rep, tt_view *v, const MEVENT *ev, int clicks)
{
	(void)v;
	if (ev->bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
		rep->fscroll += ev->bstate & BUTTON4_PRESSED ? -3 : 3;
		return TT_REDRAW;
	}
	if (!(clicks))
		return -1;
	uint32_t k = tt_report_flame_at(rep, ev->x, ev->y);
	if (k == TT_CT_NONE)
		return -1;
	int above = rep->ct.nodes[k].depth < rep->ct.nodes[rep->focus].depth;
	if (above || k == rep->cur || clicks >= 2) {
		rep->focus = rep->cur = k;
		rep->fscroll = 0;
	} else {
		rep->cur = k;
	}
	return TT_REDRAW;
}

int tt_report_flame_key(tt_report *rep, tt_view *v, int key)
{
	if (!rep) {
		v->mode = TT_MODE_TIMELINE;
		return TT_REDRAW;
	}
	switch (key) {
	case 'q': case 27:
		v->mode = TT_MODE_TIMELINE;
		return TT_REDRAW;
	case 't':
		return tt_report_show_node(rep, v, rep->cur);
	default:
		break;
	}
	tt_report_flame_nav(rep, v, key);
	return TT_REDRAW;
}
