/*
 * details.c - content and drawing of the details panel (see details.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curses.h>

#include "argtree.h"
#include "details.h"
#include "flows.h"
#include "report.h"
#include "timefmt.h"
#include "timemath.h"

#define ATTR(a) ((attr_t)tt_theme_attr(a))

/* The core slice the panel describes: the selection, or for a pinned
 * row the slice of its slice_id column (-1: none). */
static int64_t source_of(const tt_view *v)
{
	const tt_ltrack *t;

	if (v->sel_id < 0)
		return -1;
	t = &v->lay.tracks[v->sel_track];
	if (!t->pnames)
		return v->sel_id;
	if (!t->pslice || (size_t)v->sel_id >= t->pn || t->pslice[v->sel_id] < 0 ||
	    (size_t)t->pslice[v->sel_id] >= v->sc.n)
		return -1;
	return t->pslice[v->sel_id];
}

void tt_details_fetch(tt_view *v)
{
	tt_result r = {0};
	tt_err err = {0};
	char sql[128];

	free(v->desc);
	free(v->doc_link);
	v->desc = v->doc_link = NULL;
	int64_t id = source_of(v);
	if (id < 0)
		return;
	snprintf(sql, sizeof sql,
		 "select description, doc_link from describe_slice where slice_id = %lld",
		 (long long)id);
	/* the table arrives with the descriptions issue: an error = nothing */
	if (tt_query_collect(v->tr, sql, 1, &r, &err) == TT_OK && r.nrows > 0 && r.ncols >= 2) {
		if (r.cells[0] && *r.cells[0])
			v->desc = strdup(r.cells[0]);
		if (r.cells[1] && *r.cells[1])
			v->doc_link = strdup(r.cells[1]);
	}
	tt_result_free(&r);
}

typedef struct arg_ctx {
	tt_details_line_fn fn;
	void *ctx;
} arg_ctx;

static void on_arg(void *ctx, const char *key, const char *value)
{
	arg_ctx *a = ctx;

	a->fn(a->ctx, key, value ? value : "");
}

/* The args of a slice as a tree of full keys (argtree.c); kept apart from
 * the other sections of the panel. */
static void args_section(const tt_view *v, uint32_t arg_set_id, tt_details_line_fn fn, void *ctx)
{
	arg_ctx a = {fn, ctx};

	if (arg_set_id == UINT32_MAX)
		return;
	fn(ctx, "args", "");
	tt_argtree_lines(v->tr, arg_set_id, on_arg, &a);
}

void tt_details_lines(const tt_view *v, tt_details_line_fn fn, void *ctx)
{
	char buf[256], b2[64];
	int64_t id = v->sel_id;
	int tr = v->sel_track;

	if (id < 0)
		return;
	int64_t ts = tt_view_item_ts(v, tr, id), dur = tt_view_item_dur(v, tr, id);
	fn(ctx, "name", tt_view_item_name(v, tr, id));
	if (!v->lay.tracks[tr].pnames)
		fn(ctx, "category", tt_trace_str(v->tr, v->sc.cat[id]));
	tt_timefmt_exact(tt_tm_sub(ts, v->lay.start), v->utf8, b2, sizeof b2);
	snprintf(buf, sizeof buf, "%s  (%lld ns)", b2, (long long)ts);
	fn(ctx, "ts", buf);
	if (dur < 0)
		snprintf(buf, sizeof buf, "did not end");
	else
		tt_timefmt_exact(dur, v->utf8, buf, sizeof buf);
	fn(ctx, "dur", buf);
	if (v->lay.tracks[tr].pnames) {
		int64_t src = source_of(v);
		fn(ctx, "track", v->lay.tracks[tr].name);
		if (src < 0)
			return;
		/* a pinned row of a slice: that slice's details */
		snprintf(buf, sizeof buf, "%s (id %lld)  Enter/e: go there", tt_trace_str(v->tr, v->sc.name[src]),
			 (long long)src);
		fn(ctx, "slice", buf);
		tt_track_info sti;
		if (tt_trace_track(v->tr, v->sc.track_id[src], &sti) == 0)
			fn(ctx, "on track", *sti.name ? sti.name : "(thread track)");
		if (v->desc)
			fn(ctx, "description", v->desc);
		if (v->doc_link)
			fn(ctx, "doc link", v->doc_link);
		args_section(v, tt_slice_cols_args(&v->sc, (size_t)src), fn, ctx);
		return;
	}
	tt_track_info ti;
	if (tt_trace_track(v->tr, v->sc.track_id[id], &ti) == 0) {
		tt_thread_info th;
		tt_process_info pi;
		uint32_t upid = ti.upid;
		fn(ctx, "track", v->lay.tracks[tr].name);
		if (ti.utid != UINT32_MAX && tt_trace_thread(v->tr, ti.utid, &th) == 0) {
			snprintf(buf, sizeof buf, "%s %lld", *th.name ? th.name : "thread", (long long)th.tid);
			fn(ctx, "thread", buf);
			if (upid == UINT32_MAX)
				upid = th.upid;
		}
		if (upid != UINT32_MAX && tt_trace_process(v->tr, upid, &pi) == 0) {
			snprintf(buf, sizeof buf, "%s %lld", *pi.name ? pi.name : "process", (long long)pi.pid);
			fn(ctx, "process", buf);
		}
	}
	snprintf(buf, sizeof buf, "%u", v->sc.depth[id]);
	fn(ctx, "depth", buf);
	int64_t p = v->sc.parent_id[id];
	if (p >= 0)
		snprintf(buf, sizeof buf, "%s (id %lld)", tt_trace_str(v->tr, v->sc.name[p]), (long long)p);
	else
		snprintf(buf, sizeof buf, "none");
	fn(ctx, "parent", buf);
	int64_t src = tt_view_source_slice(v, id);
	if (src >= 0) {
		snprintf(buf, sizeof buf, "%s (id %lld)  e: go there", tt_trace_str(v->tr, v->sc.name[src]),
			 (long long)src);
		fn(ctx, "source", buf);
	}
	snprintf(buf, sizeof buf, "%lld", (long long)id);
	fn(ctx, "id", buf);
	tt_flows_details(v, fn, ctx);
	if (v->desc)
		fn(ctx, "description", v->desc);
	if (v->doc_link)
		fn(ctx, "doc link", v->doc_link);
	args_section(v, tt_slice_cols_args(&v->sc, (size_t)id), fn, ctx);
}

struct draw_ctx;
static void draw_line(struct draw_ctx *d, const char *key, const char *value);

typedef struct draw_ctx {
	tt_view *v;
	int line;    /* logical line counter (after wrapping) */
	int y0, x0, w, h, keyw;
	int argw;    /* key column of the args tree */
	/* the flows' lines, for the mouse: which flow each row shows */
	int in_flows, last_flow, pending_row;
	int flow_line; /* logical line of the highlighted flow, -1 */
} draw_ctx;

/* Display columns of UTF-8 text (one per character). */
static int ucols(const char *s)
{
	int n = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		n += (*p & 0xc0) != 0x80;
	return n;
}

/* Bytes of the first `cols` characters of s. */
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

/* Row on screen of the next logical line, -1 when scrolled away. */
static int next_row(draw_ctx *d)
{
	int row = d->line++ - d->v->details_scroll;

	return row >= 0 && row < d->h ? d->y0 + row : -1;
}

/* Draws text wrapped into w columns from x, on as many lines as it needs
 * (the first one is the current line): at spaces when `words`, else at
 * the width. The doc link's pieces are remembered for OSC 8. */
static void put_wrapped(draw_ctx *d, int y, int x, int w, attr_t a, const char *text, int words)
{
	const char *p = text;
	int first = 1;

	if (w < 4)
		w = 4;
	attrset(a);
	do {
		int n = ubytes(p, w), len = n;
		if (words && p[n]) {
			while (len > 0 && p[len] != ' ')
				len--;
			if (len == 0)
				len = n;
		}
		if (!first)
			y = next_row(d);
		first = 0;
		if (y >= 0) {
			mvaddnstr(y, x, p, len);
			if (d->v->doc_link && text == d->v->doc_link && d->v->link_nseg < TT_LINK_SEGS) {
				tt_link_seg *sg = &d->v->link_seg[d->v->link_nseg++];
				sg->y = y;
				sg->x = x;
				sg->off = (int)(p - text);
				sg->len = len;
			}
		}
		p += len;
		while (words && *p == ' ')
			p++;
	} while (*p);
}

/* Rows [l0, l1) of the panel's logical lines show flow `flow` (index +
 * 1 in det_flow): a click there picks it. */
static void flow_rows(draw_ctx *d, int l0, int l1, int flow)
{
	for (int l = l0; l < l1; l++) {
		int r = l - d->v->details_scroll + (d->y0 - d->v->det_y);
		if (l - d->v->details_scroll >= 0 && l - d->v->details_scroll < d->h && r >= 0 && r < TT_DET_ROWS)
			d->v->det_flow[r] = flow + 1;
	}
}

/* The flows section: the list's lines, and the "earlier"/"more" lines
 * around its window, which pick the flow just past the window. */
static void track_flows(draw_ctx *d, const char *key, int l0, int l1)
{
	int fi = d->in_flows ? tt_flows_line_index(key) : -1;

	if (!strcmp(key, "flows")) {
		d->in_flows = 1;
		d->last_flow = -1;
		d->pending_row = -1;
	} else if (fi >= 0) {
		flow_rows(d, l0, l1, fi);
		if (d->pending_row >= 0 && fi > 0)
			flow_rows(d, d->pending_row, d->pending_row + 1, fi - 1);
		d->pending_row = -1;
		d->last_flow = fi;
		if (fi == d->v->flow_pos)
			d->flow_line = l0;
	} else if (d->in_flows && !*key) {
		if (d->last_flow < 0)
			d->pending_row = l0;
		else
			flow_rows(d, l0, l1, d->last_flow + 1);
	} else {
		d->in_flows = 0;
	}
}

static void on_line(void *ctx, const char *key, const char *value)
{
	draw_ctx *d = ctx;
	int l0 = d->line;

	draw_line(d, key, value);
	track_flows(d, key, l0, d->line);
}

static void draw_line(draw_ctx *d, const char *key, const char *value)
{
	/* args are indented keys; a flow's key starts with a space when it
	 * is not the highlighted one, and keeps the main key column */
	int is_arg = key[0] == ' ' && !(d->in_flows && tt_flows_line_index(key) >= 0);
	int keyw = is_arg ? d->argw : d->keyw;
	int vx = d->x0 + 2 + keyw, vw = d->w - keyw - 2;
	attr_t va = ATTR(!strcmp(key, "doc link") ? TT_AREA_DETAILS_LINK : TT_AREA_DETAILS);
	int y = next_row(d);

	if (is_arg && ucols(key) > keyw) {
		/* a key longer than its column: whole on its line (wrapped
		 * when wider than the panel), the value under it */
		put_wrapped(d, y, d->x0 + 1, d->w - 2, ATTR(TT_AREA_DETAILS_KEY), key, 0);
		if (!*value)
			return;
		y = next_row(d);
	} else if (y >= 0) {
		attrset(ATTR(TT_AREA_DETAILS_KEY));
		mvaddnstr(y, d->x0 + 1, key, ubytes(key, keyw));
	}
	if (*value)
		put_wrapped(d, y, vx, vw, va, value, !strcmp(key, "description"));
}

/* Widest arg key with a value: the args' value column. */
static void measure_arg(void *ctx, const char *key, const char *value)
{
	int *w = ctx;

	if (key[0] == ' ' && *value && ucols(key) > *w && tt_flows_line_index(key) < 0)
		*w = ucols(key);
}

void tt_details_draw(tt_view *v)
{
	draw_ctx d = {v, 0, v->det_y + 1, v->det_x, v->det_w, v->det_h - 1, 11, 0, 0, -1, -1, -1};
	char title[200];

	v->link_nseg = 0;
	memset(v->det_flow, 0, sizeof v->det_flow);
	if (v->det_w <= 0 || v->det_h <= 0)
		return;
	if (v->dock) { /* the call tree or flame graph beside the timeline */
		tt_report_panel_draw(v);
		return;
	}
	if (tt_report_range_panel(v)) /* a range shows what ran in it */
		return;
	attrset(ATTR(TT_AREA_DETAILS));
	for (int y = 0; y < v->det_h; y++)
		mvhline(v->det_y + y, v->det_x, ' ', v->det_w);
	if (v->sel_id < 0) {
		snprintf(title, sizeof title, " Details");
	} else {
		snprintf(title, sizeof title, " %s%s", tt_view_item_name(v, v->sel_track, v->sel_id),
			 v->desc ? (v->utf8 ? "  \xe2\x93\x98" : "  (i)") : "");
	}
	attrset(ATTR(TT_AREA_DETAILS_TITLE));
	mvhline(v->det_y, v->det_x, ' ', v->det_w);
	mvaddnstr(v->det_y, v->det_x, title, ubytes(title, v->det_w));
	if (v->sel_id < 0 && tt_details_draw_track(v))
		return;
	if (v->sel_id < 0) {
		attrset(ATTR(TT_AREA_DETAILS));
		mvaddnstr(v->det_y + 1, v->det_x + 1, "No slice selected: Enter selects the slice under the cursor.",
			  v->det_w - 2);
		return;
	}
	if (v->det_w < 30)
		d.keyw = 8;
	tt_details_lines(v, measure_arg, &d.argw);
	if (d.argw > (d.w - 2) * 3 / 5)
		d.argw = (d.w - 2) * 3 / 5;
	tt_details_lines(v, on_line, &d);
	if (v->flow_reveal) {
		/* { } or a click moved the flow highlight: scroll to it */
		v->flow_reveal = 0;
		if (d.flow_line >= 0 && (d.flow_line < v->details_scroll || d.flow_line >= v->details_scroll + d.h)) {
			v->details_scroll = d.flow_line - d.h / 2 > 0 ? d.flow_line - d.h / 2 : 0;
			tt_details_draw(v);
			return;
		}
	}
	if (v->details_scroll > 0 && v->details_scroll >= d.line)
		v->details_scroll = d.line > 0 ? d.line - 1 : 0;
	if (d.line > d.h) {
		char more[48];
		snprintf(more, sizeof more, " %d/%d J/K ", v->details_scroll + 1, d.line);
		attrset(ATTR(TT_AREA_DETAILS_TITLE));
		mvaddstr(v->det_y, v->det_x + v->det_w - (int)strlen(more), more);
	}
}
