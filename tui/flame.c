/*
 * flame.c - the flame (icicle) graph screen of a call tree (see report.h).
 */
#include <stdio.h>
#include <string.h>
#include <curses.h>

#include "report_int.h"
#include "theme.h"
#include "timefmt.h"

#define ATTR(a) ((attr_t)tt_theme_attr(a))

/* ---- flame graph ---------------------------------------------------------------- */
typedef struct flame_ctx {
	tt_report *rep;
	tt_view *v;
	int y0, h, w;
} flame_ctx;

static void flame_node(flame_ctx *f, uint32_t k, int x, int w, int row)
{
	const tt_calltree *ct = &f->rep->ct;
	const tt_ct_node *nd = &ct->nodes[k];

	if (row >= f->h || w <= 0)
		return;
	const char *name = k == 0 ? f->rep->what : tt_trace_str(f->v->tr, nd->name);
	attr_t a = k == f->rep->cur ? ATTR(TT_AREA_SLICE_SEL)
				    : ATTR(TT_AREA_SLICE0 + (k == 0 ? 0 : tt_theme_palette(name)));
	attrset(a);
	mvhline(f->y0 + row, x, ' ', w);
	/* a frame starts with a block edge, so that frames stay apart in
	 * any theme (monochrome too); the name follows when it fits */
	mvaddstr(f->y0 + row, x, f->v->utf8 ? "\xe2\x96\x8f" : "|");
	if (w >= 3) {
		int len = tt_view_text_cols(name);
		if (len <= w - 2)
			mvaddnstr(f->y0 + row, x + 1 + (w - 1 - len) / 2, name, (int)strlen(name));
		else if (w >= 5) {
			mvaddnstr(f->y0 + row, x + 1, name, w - 2);
			mvaddstr(f->y0 + row, x + w - 1, f->v->utf8 ? "\xe2\x80\xa6" : "~");
		}
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

void tt_report_flame_draw(tt_report *rep, tt_view *v)
{
	char buf[700], tot[64], self[64];

	attrset(ATTR(TT_AREA_STATUS));
	mvhline(0, 0, ' ', v->cols);
	if (!rep)
		return;
	const tt_ct_node *cur = &rep->ct.nodes[rep->cur];
	tt_timefmt_exact(cur->total, v->utf8, tot, sizeof tot);
	tt_timefmt_exact(cur->self, v->utf8, self, sizeof self);
	snprintf(buf, sizeof buf, " flame graph of %s | %s: total %s, self %s, %lld calls, %.2f%%", rep->what,
		 rep->cur == 0 ? "all" : tt_trace_str(v->tr, cur->name), tot, self, (long long)cur->calls,
		 rep->ct.nodes[0].total ? (double)cur->total * 100.0 / (double)rep->ct.nodes[0].total : 0.0);
	mvaddnstr(0, 0, buf, v->cols);
	flame_ctx f = {rep, v, 1, v->rows - 3, v->cols};
	/* the zoomed frame and its ancestors take the whole width */
	uint32_t path[256];
	int np = 0;
	for (uint32_t k = rep->focus; k != TT_CT_NONE && np < 256; k = rep->ct.nodes[k].parent)
		path[np++] = k;
	for (int i = np - 1; i > 0; i--) {
		const char *name = path[i] == 0 ? rep->what : tt_trace_str(v->tr, rep->ct.nodes[path[i]].name);
		attrset(ATTR(TT_AREA_SLICE_BUSY));
		mvhline(f.y0 + np - 1 - i, 0, ' ', v->cols);
		mvaddnstr(f.y0 + np - 1 - i, 0, name, v->cols);
	}
	flame_node(&f, rep->focus, 0, v->cols, np - 1);
	attrset(ATTR(TT_AREA_STATUS));
	mvhline(v->rows - 2, 0, ' ', v->cols);
	mvaddnstr(v->rows - 2, 0,
		  " arrows: move  Enter: zoom into the frame  Backspace: back  t: show on timeline  q: close",
		  v->cols);
}

int tt_report_flame_key(tt_report *rep, tt_view *v, int key)
{
	const tt_calltree *ct;
	const tt_ct_node *nd;

	if (!rep) {
		v->mode = TT_MODE_TIMELINE;
		return TT_REDRAW;
	}
	ct = &rep->ct;
	nd = &ct->nodes[rep->cur];
	switch (key) {
	case 'q': case 27:
		v->mode = TT_MODE_TIMELINE;
		break;
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
		break;
	case KEY_BACKSPACE: case 127: case 8:
		if (ct->nodes[rep->focus].parent != TT_CT_NONE)
			rep->focus = ct->nodes[rep->focus].parent;
		rep->cur = rep->focus;
		break;
	case 't':
		return tt_report_show_node(rep, v, rep->cur);
	default:
		break;
	}
	return TT_REDRAW;
}
