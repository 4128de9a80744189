/*
 * details.c - content and drawing of the details panel (see details.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curses.h>

#include "details.h"
#include "flows.h"
#include "report.h"
#include "timefmt.h"
#include "timemath.h"

#define ATTR(a) ((attr_t)tt_theme_attr(a))

void tt_details_fetch(tt_view *v)
{
	tt_result r = {0};
	tt_err err = {0};
	char sql[128];

	free(v->desc);
	free(v->doc_link);
	v->desc = v->doc_link = NULL;
	if (v->sel_id < 0 || v->lay.tracks[v->sel_track].pnames)
		return;
	snprintf(sql, sizeof sql,
		 "select description, doc_link from describe_slice where slice_id = %lld",
		 (long long)v->sel_id);
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
	char k[160];

	snprintf(k, sizeof k, "  %s", key);
	a->fn(a->ctx, k, value);
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
		fn(ctx, "track", v->lay.tracks[tr].name);
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
	if (v->sc.arg_set_id[id] != UINT32_MAX) {
		arg_ctx a = {fn, ctx};
		fn(ctx, "args", "");
		tt_trace_args(v->tr, v->sc.arg_set_id[id], on_arg, &a);
	}
}

typedef struct draw_ctx {
	tt_view *v;
	int line;    /* logical line counter (after wrapping) */
	int y0, x0, w, h, keyw;
} draw_ctx;

static void put_line(draw_ctx *d, attr_t ka, const char *key, attr_t va, const char *val, int first)
{
	int row = d->line - d->v->details_scroll;

	d->line++;
	if (row < 0 || row >= d->h)
		return;
	attrset(ka);
	if (first)
		mvaddnstr(d->y0 + row, d->x0 + 1, key, d->keyw);
	attrset(va);
	/* UTF-8: count characters, not bytes, for the width */
	int cols = 0;
	const unsigned char *p = (const unsigned char *)val;
	while (*p && cols < d->w - d->keyw - 2) {
		p++;
		while ((*p & 0xc0) == 0x80)
			p++;
		cols++;
	}
	mvaddnstr(d->y0 + row, d->x0 + 2 + d->keyw, val, (int)((const char *)p - val));
	if (d->v->doc_link && val == d->v->doc_link && !*p) {
		/* the whole link is on screen: the viewer may make it an
		 * OSC 8 hyperlink after the frame */
		d->v->link_y = d->y0 + row;
		d->v->link_x = d->x0 + 2 + d->keyw;
		d->v->link_w = cols;
	}
}

static void on_line(void *ctx, const char *key, const char *value)
{
	draw_ctx *d = ctx;
	int vw = d->w - d->keyw - 2;
	int is_desc = !strcmp(key, "description");
	attr_t va = ATTR(!strcmp(key, "doc link") ? TT_AREA_DETAILS_LINK : TT_AREA_DETAILS);

	if (vw < 4)
		vw = 4;
	if (!is_desc) {
		put_line(d, ATTR(TT_AREA_DETAILS_KEY), key, va, value, 1);
		return;
	}
	/* wrap the description at spaces */
	const char *p = value;
	int first = 1;
	while (*p) {
		int len = (int)strlen(p);
		char seg[512];
		if (len > vw) {
			len = vw;
			while (len > 0 && p[len] != ' ')
				len--;
			if (len == 0)
				len = vw;
		}
		if (len >= (int)sizeof seg)
			len = (int)sizeof seg - 1;
		memcpy(seg, p, (size_t)len);
		seg[len] = 0;
		put_line(d, ATTR(TT_AREA_DETAILS_KEY), key, va, seg, first);
		first = 0;
		p += len;
		while (*p == ' ')
			p++;
	}
}

void tt_details_draw(tt_view *v)
{
	draw_ctx d = {v, 0, v->det_y + 1, v->det_x, v->det_w, v->det_h - 1, 11};
	char title[200];

	v->link_w = 0;
	if (v->det_w <= 0 || v->det_h <= 0)
		return;
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
	mvaddnstr(v->det_y, v->det_x, title, v->det_w);
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
	tt_details_lines(v, on_line, &d);
	if (v->details_scroll > 0 && v->details_scroll >= d.line)
		v->details_scroll = d.line > 0 ? d.line - 1 : 0;
	if (d.line > d.h) {
		char more[48];
		snprintf(more, sizeof more, " %d/%d J/K ", v->details_scroll + 1, d.line);
		attrset(ATTR(TT_AREA_DETAILS_TITLE));
		mvaddstr(v->det_y, v->det_x + v->det_w - (int)strlen(more), more);
	}
}
