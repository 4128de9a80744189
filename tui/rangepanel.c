/*
 * rangepanel.c - the aggregation of the range, cached, and the details
 * panel that shows it while a range is set (see report.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curses.h>

#include "timemath.h"
#include "range.h"
#include "report_int.h"
#include "theme.h"
#include "timefmt.h"

#define ATTR(a) ((attr_t)tt_theme_attr(a))

const char *tt_report_name_of(void *ctx, uint32_t id)
{
	return tt_trace_str(ctx, id);
}

/* Aggregates [a, b) on the range's tracks. A short range of a big trace
 * takes its candidates from the level-of-detail rows (per row: from the
 * first slice ending after a, by the running max of ends, to the last
 * starting before b), so its cost follows the slices in the range; a
 * range holding much of the trace is one pass over the columns. */
static int range_candidates_agg(tt_view *v, tt_agg *g, int64_t a, int64_t b)
{
	size_t total = 0, ntr = tt_trace_track_count(v->tr);
	uint32_t *ids = NULL;
	int rc;

	for (int pass = 0; pass < 2; pass++) {
		size_t k = 0;
		for (int t = 0; t < v->lay.ntracks; t++) {
			const tt_ltrack *lt = &v->lay.tracks[t];
			if (lt->kind != TT_LT_SLICE || lt->pnames || lt->track_id == UINT32_MAX || !tt_range_track_in(v, t))
				continue;
			for (int d = 0; d < lt->ndepth; d++) {
				const tt_lod_row *row = &lt->rows[d];
				size_t lo = 0, hi = row->n;
				while (lo < hi) { /* first item whose running max end passes a */
					size_t mid = lo + (hi - lo) / 2;
					if (row->maxend[mid] > a)
						hi = mid;
					else
						lo = mid + 1;
				}
				for (size_t i = lo; i < row->n && row->ts[i] < b; i++, k++)
					if (pass == 1)
						ids[k] = row->ids[i];
			}
		}
		if (pass == 0) {
			total = k;
			if (total > v->sc.n / 4)
				break; /* most of the trace: the plain pass */
			ids = malloc((total ? total : 1) * sizeof *ids);
			if (!ids)
				return -1;
		}
	}
	if (ids) {
		rc = tt_agg_slices_ids(g, &v->sc, ids, total, ntr, a, b, v->lay.end);
		free(ids);
		return rc;
	}
	uint8_t *tracks = tt_range_core_tracks(v);
	if (!tracks)
		return -1;
	rc = tt_agg_slices(g, &v->sc, tracks, ntr, a, b, v->lay.end);
	free(tracks);
	return rc;
}

/* The aggregation of the current range, computed when the range or its
 * scope changed. NULL when there is no range (or OOM). */
tt_agg *tt_report_range_agg(tt_view *v)
{
	int64_t a, b;

	if (!tt_range_get(v, &a, &b))
		return NULL;
	if (b <= a)
		b = a + 1;
	tt_agg *g = v->agg;
	if (g && g->valid && g->a == a && g->b == b && g->scope == v->range_scope && g->track == v->range_track)
		return g;
	if (!g && !(g = v->agg = calloc(1, sizeof *g)))
		return NULL;
	int sc = g->sort_col, sd = g->sort_desc, had = g->valid;
	g->valid = 0;
	if (range_candidates_agg(v, g, a, b) < 0)
		return NULL;
	if (had && (sc != TT_AGG_WALL || !sd))
		tt_agg_sort(g, sc, sd, tt_report_name_of, v->tr);
	g->scope = v->range_scope;
	g->track = v->range_track;
	g->valid = 1;
	return g;
}

/* ---- the range panel ----------------------------------------------------------------- */
int tt_report_range_panel(tt_view *v)
{
	char title[600], len[64], scope[200], line[400], w[32], s[32], av[32], mx[32];
	tt_agg *g;
	int x = v->det_x, y = v->det_y, h = v->det_h, wd = v->det_w;

	if (!v->has_range || wd <= 0 || h <= 0 || (!v->range_panel && v->sel_id >= 0))
		return 0;
	if (v->visual && v->sc.n > 1000000) {
		/* a key costs an aggregation of the range (~11 ns a slice in it):
		 * on big traces it waits until the range is made */
		int64_t a, b;
		tt_range_get(v, &a, &b);
		tt_timefmt_exact(tt_tm_len(a, b), v->utf8, len, sizeof len);
		attrset(ATTR(TT_AREA_DETAILS));
		for (int r = 0; r < h; r++)
			mvhline(y + r, x, ' ', wd);
		snprintf(title, sizeof title, " Range %s: move to extend it; v ends it and shows what ran in it", len);
		attrset(ATTR(TT_AREA_DETAILS_TITLE));
		mvhline(y, x, ' ', wd);
		mvaddnstr(y, x, title, wd);
		return 1;
	}
	g = tt_report_range_agg(v);
	if (!g)
		return 0;
	attrset(ATTR(TT_AREA_DETAILS));
	for (int r = 0; r < h; r++)
		mvhline(y + r, x, ' ', wd);
	tt_timefmt_exact(tt_tm_len(g->a, g->b), v->utf8, len, sizeof len);
	tt_range_scope_text(v, scope, sizeof scope);
	static const char *const by[TT_AGG_NCOLS] = {"name", "count", "wall", "self", "avg", "max", "share"};
	snprintf(title, sizeof title, " Range %s on %s: %zu slices, %zu names%s%s%s   R table  T tree  z flame  Z beside  V scope",
		 len, scope, g->nslices, g->nrows, g->sort_col != TT_AGG_WALL || !g->sort_desc ? " (by " : "",
		 g->sort_col != TT_AGG_WALL || !g->sort_desc ? by[g->sort_col % TT_AGG_NCOLS] : "",
		 g->sort_col != TT_AGG_WALL || !g->sort_desc ? (g->sort_desc ? ")" : ", ascending)") : "");
	attrset(ATTR(TT_AREA_DETAILS_TITLE));
	mvhline(y, x, ' ', wd);
	mvaddnstr(y, x, title, wd);
	int nw = wd - 62; /* name, count 7, four times 10, share 6, spaces */
	if (nw < 12)
		nw = 12;
	if (nw > 60)
		nw = 60;
	snprintf(line, sizeof line, " %-*s %7s %10s %10s %10s %10s %6s", nw, "name", "count", "wall", "self", "avg",
		 "max", "share");
	attrset(ATTR(TT_AREA_DETAILS_KEY));
	mvaddnstr(y + 1, x, line, wd);
	attrset(ATTR(TT_AREA_DETAILS));
	for (int r = 0; r + 2 < h && (size_t)r < g->nrows; r++) {
		const tt_agg_row *row = &g->rows[r];
		char name[200];
		tt_timefmt_short(row->wall, v->utf8, w, sizeof w);
		tt_timefmt_short(row->self, v->utf8, s, sizeof s);
		tt_timefmt_short(row->count ? row->wall / row->count : 0, v->utf8, av, sizeof av);
		tt_timefmt_short(row->max, v->utf8, mx, sizeof mx);
		snprintf(name, sizeof name, "%.*s", nw, tt_trace_str(v->tr, row->name));
		/* printf pads bytes, not columns: pad the units ourselves */
		snprintf(line, sizeof line, " %-*s %7lld ", nw, name, (long long)row->count);
		mvaddnstr(y + 2 + r, x, line, wd);
		int cx = x + (int)strlen(line) - (int)(strlen(name) - (size_t)tt_view_text_cols(name));
		const char *vals[4] = {w, s, av, mx};
		for (int i = 0; i < 4; i++, cx += 11)
			if (cx + 10 < x + wd)
				mvaddstr(y + 2 + r, cx + 10 - tt_view_text_cols(vals[i]), vals[i]);
		snprintf(line, sizeof line, "%5.1f%%", g->b > g->a ? (double)row->wall * 100.0 / (double)(tt_tm_len(g->a, g->b)) : 0.0);
		if (cx + 6 < x + wd)
			mvaddstr(y + 2 + r, cx, line);
	}
	return 1;
}

void tt_report_view_free(tt_view *v)
{
	if (v->agg) {
		tt_agg_free(v->agg);
		free(v->agg);
		v->agg = NULL;
	}
}
