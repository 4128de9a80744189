/*
 * view.c - viewer state and actions (see view.h). No ncurses here.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flows.h"
#include "marks.h"
#include "range.h"
#include "report.h"
#include "search.h"
#include "timefmt.h"
#include "timemath.h"
#include "trackops.h"
#include "view.h"

void tt_view_message(tt_view *v, int error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->msg, sizeof v->msg, fmt, ap);
	va_end(ap);
	v->msg_error = error;
}

int tt_view_init(tt_view *v, tt_trace *tr)
{
	memset(v, 0, sizeof *v);
	v->tr = tr;
	v->sel_track = -1;
	v->tdesc_track = UINT32_MAX;
	v->sel_id = -1;
	v->details_pos = TT_DETAILS_BOTTOM;
	v->details_h = 9;
	v->details_w = 44;
	tt_config_init(&v->cfg);
	tt_trace_slices(tr, &v->sc);
	if (tt_layout_build(&v->lay, tr) < 0)
		return -1;
	v->t0 = v->lay.start;
	v->span = tt_tm_len(v->lay.start, v->lay.end);
	v->cursor = tt_tm_mid(v->lay.start, v->lay.end);
	tt_view_geometry(v, 24, 80);
	tt_view_set_window(v, v->lay.start, v->span);
	tt_view_load_alerts(v);
	if (v->lay.clamped) {
		char a[48], b[48];
		tt_timefmt_exact(v->lay.trace_start, 0, a, sizeof a);
		tt_timefmt_exact(v->lay.trace_end, 0, b, sizeof b);
		tt_view_message(v, 1, "trace spans %s..%s, too wide: showing %.0f years around the median slice",
				a, b, (double)TT_TM_MAX_SPAN / 1e9 / 86400 / 365.25);
	}
	if (tt_flows_build(&v->flows, tr, v->sc.n) < 0)
		return -1;
	return 0;
}

void tt_view_free(tt_view *v)
{
	tt_layout_free(&v->lay);
	free(v->matches);
	free(v->match_bits);
	free(v->desc);
	free(v->doc_link);
	free(v->tdesc);
	free(v->tdesc_link);
	free(v->alerts);
	tt_flows_free(v->flows);
	tt_marks_free(v);
	tt_report_view_free(v);
	memset(v, 0, sizeof *v);
}

static void keep_line_visible(tt_view *v)
{
	if (v->line >= v->lay.nlines)
		v->line = v->lay.nlines - 1;
	if (v->line < 0)
		v->line = 0;
	if (v->line < v->top)
		v->top = v->line;
	if (v->tl_h > 0 && v->line >= v->top + v->tl_h)
		v->top = v->line - v->tl_h + 1;
	if (v->top > v->lay.nlines - v->tl_h)
		v->top = v->lay.nlines - v->tl_h;
	if (v->top < 0)
		v->top = 0;
}

void tt_view_geometry(tt_view *v, int rows, int cols)
{
	int avail_h, avail_w;

	v->rows = rows;
	v->cols = cols;
	avail_h = rows - 2; /* status line + command line */
	avail_w = cols;
	v->det_x = v->det_y = v->det_w = v->det_h = 0;
	/* a small terminal keeps the bottom panel folded until something
	 * is selected: the rows go to the tracks */
	int folded = v->details_pos == TT_DETAILS_BOTTOM && v->sel_id < 0 && !v->dock && rows < 30;
	if (v->details_pos == TT_DETAILS_BOTTOM && !folded) {
		int h = v->details_h;
		if (h > (avail_h - 2) / 2)
			h = (avail_h - 2) / 2;
		if (h < 3)
			h = avail_h >= 8 ? 3 : 0;
		v->det_x = 0;
		v->det_w = cols;
		v->det_h = h;
		v->det_y = avail_h - h;
		avail_h -= h;
	} else if (v->details_pos == TT_DETAILS_RIGHT) {
		int w = v->details_w;
		if (w > cols / 2)
			w = cols / 2;
		if (w < 16)
			w = cols >= 48 ? 16 : 0;
		v->det_w = w;
		v->det_h = w ? avail_h : 0;
		v->det_x = cols - w;
		v->det_y = 0;
		avail_w -= w;
	}
	v->name_w = avail_w / 5;
	if (v->name_w < 12)
		v->name_w = 12;
	if (v->name_w > 32)
		v->name_w = 32;
	if (v->name_w > avail_w - 8)
		v->name_w = avail_w - 8 > 0 ? avail_w - 8 : 0;
	v->tl_x = v->name_w + 1;
	v->tl_w = avail_w - v->tl_x;
	if (v->tl_w < 1)
		v->tl_w = 1;
	v->tl_y = 2; /* two ruler lines */
	v->tl_h = avail_h - v->tl_y;
	if (v->tl_h < 0)
		v->tl_h = 0;
	/* a resize keeps the window the user chose (Perfetto does): the
	 * clamp for this width does not become the new choice */
	int64_t want_t0 = v->want_t0, want_span = v->want_span;
	if (want_span <= 0) {
		want_t0 = v->t0;
		want_span = v->span;
	}
	tt_view_set_window(v, want_t0, want_span);
	v->want_t0 = want_t0;
	v->want_span = want_span;
	keep_line_visible(v);
}

void tt_view_set_window(tt_view *v, int64_t t0, int64_t span)
{
	int64_t len = tt_tm_len(v->lay.start, v->lay.end);
	int64_t min_span = v->tl_w > 0 ? v->tl_w : 1; /* 1 ns per cell */
	int64_t max_span = tt_tm_add(tt_tm_add(len, len / 4), min_span);

	v->want_t0 = t0;
	v->want_span = span;
	if (max_span > TT_TM_MAX_SPAN + TT_TM_MAX_SPAN / 4)
		max_span = TT_TM_MAX_SPAN + TT_TM_MAX_SPAN / 4;
	if (span < min_span)
		span = min_span;
	if (span > max_span)
		span = max_span;
	/* keep some of the trace on screen */
	int64_t hi = tt_tm_sub(v->lay.end, span / 8);
	int64_t lo = tt_tm_sub(tt_tm_add(v->lay.start, span / 8), span);
	if (t0 > hi)
		t0 = hi;
	if (t0 < lo)
		t0 = lo;
	/* the window's end is a timestamp too */
	if (t0 > INT64_MAX - span)
		t0 = INT64_MAX - span;
	v->t0 = t0;
	v->span = span;
}

int64_t tt_view_col_time(const tt_view *v, int x)
{
	return tt_timefmt_ts(x, v->t0, v->span, v->tl_w);
}

/* Keeps the cursor inside the window by moving the window. */
static void follow_cursor(tt_view *v)
{
	if (v->cursor < v->t0 || v->cursor >= tt_tm_add(v->t0, v->span))
		tt_view_set_window(v, tt_tm_sub(v->cursor, v->span / 2), v->span);
}

int tt_view_goto(tt_view *v, int64_t t)
{
	v->cursor = t;
	follow_cursor(v);
	tt_range_follow(v);
	return TT_REDRAW;
}

static void zoom(tt_view *v, int in)
{
	int64_t span = in ? tt_tm_scale(v->span, 2, 3) : tt_tm_add(tt_tm_scale(v->span, 3, 2), 1);
	int64_t c = v->cursor;

	if (c < v->t0 || c >= tt_tm_add(v->t0, v->span))
		c = tt_tm_add(v->t0, v->span / 2);
	/* the cursor keeps its column */
	int64_t t0 = tt_tm_sub(c, tt_tm_scale(tt_tm_sub(c, v->t0), span, v->span ? v->span : 1));
	tt_view_set_window(v, t0, span);
}

static void pan(tt_view *v, int dir)
{
	int64_t step = v->span / 8 ? v->span / 8 : 1;
	int64_t old = v->t0;

	step = dir < 0 ? -step : step;

	tt_view_set_window(v, tt_tm_add(v->t0, step), v->span);
	v->cursor = tt_tm_add(v->cursor, tt_tm_sub(v->t0, old));
	if (v->t0 == old) /* at the edge: the cursor still moves */
		v->cursor = tt_tm_add(v->cursor, step);
	if (v->cursor < v->lay.start)
		v->cursor = v->lay.start;
	if (v->cursor > v->lay.end)
		v->cursor = v->lay.end;
	follow_cursor(v);
}

const char *tt_view_item_name(const tt_view *v, int track, int64_t id)
{
	const tt_ltrack *t = &v->lay.tracks[track];

	if (id < 0)
		return "";
	if (t->pnames)
		return (size_t)id < t->pn ? t->pnames[id] : "";
	return tt_trace_str(v->tr, v->sc.name[id]);
}

int64_t tt_view_item_ts(const tt_view *v, int track, int64_t id)
{
	return tt_layout_src(&v->lay, track)->ts[id];
}

int64_t tt_view_item_dur(const tt_view *v, int track, int64_t id)
{
	const tt_lod_src *s = tt_layout_src(&v->lay, track);

	return s->dur ? s->dur[id] : 0;
}

static int item_depth(const tt_view *v, int track, int64_t id)
{
	return tt_layout_item_row(&v->lay, track, id, v->sc.depth);
}

int64_t tt_view_slice_at(const tt_view *v, int line, int64_t t)
{
	const tt_line *l;
	const tt_ltrack *tk;
	int64_t cell = v->span / (v->tl_w > 0 ? v->tl_w : 1), id;

	if (line < 0 || line >= v->lay.nlines)
		return -1;
	l = &v->lay.lines[line];
	if (l->track < 0)
		return -1;
	tk = &v->lay.tracks[l->track];
	if (tk->kind != TT_LT_SLICE || l->depth >= tk->ndepth)
		return -1;
	id = tt_lod_at(&tk->rows[l->depth], t);
	if (id < 0) /* a slice narrower than a cell: the one drawn there */
		id = tt_lod_pick(&tk->rows[l->depth], tt_tm_sub(t, cell / 2),
				 tt_tm_add(t, cell / 2 + 1), NULL);
	return id;
}

int tt_view_select(tt_view *v, int track, int64_t id)
{
	int line;
	tt_ltrack *t = &v->lay.tracks[track];
	int depth;

	v->sel_track = track;
	v->sel_id = id;
	v->details_scroll = 0;
	v->flow_pos = v->flow_top = 0;
	v->range_panel = v->visual; /* a slice picked after the range shows itself */
	if (id < 0)
		return TT_REDRAW | TT_SEL_CHANGED;
	depth = item_depth(v, track, id);
	if (!v->lay.groups[t->group].expanded || t->hidden || depth >= tt_layout_shown_rows(t)) {
		v->lay.groups[t->group].expanded = 1;
		t->expanded |= depth >= tt_layout_shown_rows(t); /* a folded deep row */
		if (t->hidden)
			tt_view_filter(v, "");
		tt_layout_relines(&v->lay);
	}
	line = tt_layout_line_of(&v->lay, track);
	if (line >= 0) {
		if (depth < t->ndepth && line + depth < v->lay.nlines)
			line += depth;
		v->line = line;
		keep_line_visible(v);
	}
	/* bring the slice into view, keeping the zoom */
	int64_t ts = tt_view_item_ts(v, track, id);
	int64_t dur = tt_view_item_dur(v, track, id);
	if (ts >= tt_tm_add(v->t0, v->span) || tt_tm_end(ts, dur) < v->t0)
		tt_view_set_window(v, tt_tm_sub(ts, v->span / 4), v->span);
	v->cursor = ts;
	return TT_REDRAW | TT_RELAYOUT | TT_SEL_CHANGED;
}

int tt_view_select_slice(tt_view *v, int64_t slice_id)
{
	int track;

	if (slice_id < 0 || (size_t)slice_id >= v->sc.n)
		return 0;
	track = tt_layout_find_track(&v->lay, v->sc.track_id[slice_id]);
	if (track < 0)
		return 0;
	return tt_view_select(v, track, slice_id);
}

/* Position of id in its row (-1 if not there). */
static int64_t row_pos(const tt_lod_row *row, int64_t id, int64_t ts)
{
	for (size_t i = tt_lod_lower(row, ts); i < row->n && row->ts[i] == ts; i++)
		if (row->ids[i] == (uint32_t)id)
			return (int64_t)i;
	return -1;
}

static int step_slice(tt_view *v, int dir)
{
	const tt_line *l;
	const tt_ltrack *t;
	const tt_lod_row *row;
	int64_t pos;

	if (v->sel_id < 0) {
		/* nothing selected: take the next slice after the cursor */
		if (v->line < 0 || v->line >= v->lay.nlines)
			return 0;
		l = &v->lay.lines[v->line];
		if (l->track < 0)
			return 0;
		t = &v->lay.tracks[l->track];
		if (t->kind != TT_LT_SLICE || l->depth >= t->ndepth)
			return 0;
		row = &t->rows[l->depth];
		size_t i = tt_lod_lower(row, tt_tm_add(v->cursor, dir > 0 ? 1 : 0));
		if (dir < 0) {
			if (i == 0)
				return 0;
			i--;
		}
		if (i >= row->n)
			return 0;
		return tt_view_select(v, l->track, row->ids[i]);
	}
	t = &v->lay.tracks[v->sel_track];
	int d = item_depth(v, v->sel_track, v->sel_id);
	if (d >= t->ndepth)
		return 0;
	row = &t->rows[d];
	pos = row_pos(row, v->sel_id, tt_view_item_ts(v, v->sel_track, v->sel_id));
	if (pos < 0 || pos + dir < 0 || (size_t)(pos + dir) >= row->n)
		return 0;
	return tt_view_select(v, v->sel_track, row->ids[pos + dir]);
}

static int select_child(tt_view *v)
{
	const tt_ltrack *t;
	int d;

	if (v->sel_id < 0)
		return 0;
	t = &v->lay.tracks[v->sel_track];
	d = item_depth(v, v->sel_track, v->sel_id) + 1;
	if (d >= t->ndepth)
		return 0;
	const tt_lod_row *row = &t->rows[d];
	int64_t ts = tt_view_item_ts(v, v->sel_track, v->sel_id);
	int64_t end = tt_lod_end(&row->src, (uint32_t)v->sel_id);
	size_t i = tt_lod_lower(row, ts);
	if (i < row->n && row->ts[i] < end)
		return tt_view_select(v, v->sel_track, row->ids[i]);
	return 0;
}

struct find_arg {
	const char *key;
	long long value;
	int found;
};

static void on_find_arg(void *ctx, const char *key, const char *value)
{
	struct find_arg *f = ctx;
	char *end;

	if (!f->found && strcmp(key, f->key) == 0) {
		f->value = strtoll(value, &end, 10);
		f->found = *value && !*end;
	}
}

int64_t tt_view_source_slice(const tt_view *v, int64_t id)
{
	struct find_arg f = { .key = "source_slice_id" };
	uint32_t set;

	if (id < 0 || (size_t)id >= v->sc.n || (set = tt_slice_cols_args(&v->sc, (size_t)id)) == UINT32_MAX)
		return -1;
	tt_trace_args(v->tr, set, on_find_arg, &f);
	return f.found && f.value >= 0 && (size_t)f.value < v->sc.n ? f.value : -1;
}

/* The source slice of the selection: a pinned row's slice_id, an
 * annotation's source_slice_id. */
static int64_t selection_source(const tt_view *v)
{
	const tt_ltrack *t;

	if (v->sel_id < 0)
		return -1;
	t = &v->lay.tracks[v->sel_track];
	if (t->pnames)
		return t->pslice && (size_t)v->sel_id < t->pn && t->pslice[v->sel_id] >= 0 &&
		       (size_t)t->pslice[v->sel_id] < v->sc.n ? t->pslice[v->sel_id] : -1;
	return tt_view_source_slice(v, v->sel_id);
}

static int select_source(tt_view *v)
{
	int64_t src = selection_source(v);

	if (src < 0) {
		tt_view_message(v, 1, "the selection has no source slice");
		return TT_REDRAW;
	}
	return tt_view_select_slice(v, src) | TT_REDRAW;
}

static int select_parent(tt_view *v)
{
	if (v->sel_id < 0)
		return 0;
	if (v->lay.tracks[v->sel_track].pnames) {
		/* pinned: the enclosing item one row up */
		int d = item_depth(v, v->sel_track, v->sel_id);
		if (d == 0)
			return 0;
		int64_t id = tt_lod_at(&v->lay.tracks[v->sel_track].rows[d - 1],
				       tt_view_item_ts(v, v->sel_track, v->sel_id));
		return id >= 0 ? tt_view_select(v, v->sel_track, id) : 0;
	}
	if (v->sc.parent_id[v->sel_id] < 0)
		return 0;
	return tt_view_select(v, v->sel_track, v->sc.parent_id[v->sel_id]);
}

static int step_alert(tt_view *v, int dir)
{
	size_t i;

	if (v->nalerts == 0)
		return 0;
	/* the next alert strictly after (before) the cursor, in time order */
	if (dir > 0) {
		for (i = 0; i < v->nalerts && v->alerts[i].ts <= v->cursor; i++)
			;
		if (i == v->nalerts)
			i = 0; /* wrap */
	} else {
		i = v->nalerts;
		while (i > 0 && v->alerts[i - 1].ts >= v->cursor)
			i--;
		i = i == 0 ? v->nalerts - 1 : i - 1;
	}
	v->alert_pos = i + 1;
	tt_alert *a = &v->alerts[i];
	tt_view_message(v, 0, "alert %zu/%zu (%s)", i + 1, v->nalerts, a->error ? "error" : "warning");
	if (a->slice_id >= 0 && tt_view_select_slice(v, a->slice_id))
		return TT_REDRAW | TT_RELAYOUT | TT_SEL_CHANGED;
	return tt_view_goto(v, a->ts);
}

static int step_match(tt_view *v, int dir)
{
	size_t i;

	if (v->nmatches == 0) {
		tt_view_message(v, 1, v->search[0] ? "no match for '%s'" : "no search%s", v->search);
		return TT_REDRAW;
	}
	if (v->match_pos == 0) {
		for (i = 0; i < v->nmatches && v->sc.ts[v->matches[i]] < v->cursor; i++)
			;
		if (dir < 0)
			i = i == 0 ? v->nmatches - 1 : i - 1;
		else if (i == v->nmatches)
			i = 0;
	} else {
		i = v->match_pos - 1;
		i = dir > 0 ? (i + 1) % v->nmatches : (i + v->nmatches - 1) % v->nmatches;
	}
	v->match_pos = i + 1;
	tt_view_message(v, 0, "match %zu/%zu for '%s'", i + 1, v->nmatches, v->search);
	return tt_view_select_slice(v, v->matches[i]) | TT_REDRAW;
}

/* ---- search (what matches: tui/search.c) -------------------------- */
static const tt_view *sort_view;
static int cmp_match(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
	int64_t ta = sort_view->sc.ts[a], tb = sort_view->sc.ts[b];

	if (ta != tb)
		return ta < tb ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Search matches marked in every core slice row, so that busy cells can
 * show them too. */
static void mark_rows(tt_view *v, const uint8_t *bits)
{
	for (int t = 0; t < v->lay.ntracks; t++) {
		tt_ltrack *tk = &v->lay.tracks[t];
		if (tk->kind != TT_LT_SLICE || tk->pnames)
			continue;
		for (int d = 0; d < tk->ndepth; d++)
			tt_lod_mark(&tk->rows[d], bits);
	}
}

size_t tt_view_search(tt_view *v, const char *text)
{
	size_t cap = 0;
	int kind = TT_SEARCH_NAME;
	int64_t want = -1;
	tt_search *q = NULL;

	mark_rows(v, NULL);

	free(v->matches);
	free(v->match_bits);
	v->matches = NULL;
	v->match_bits = NULL;
	v->nmatches = v->match_pos = 0;
	snprintf(v->search, sizeof v->search, "%s", text);
	if (!*text)
		return 0;
	q = tt_search_new(v, text, &kind, &want);
	v->search_kind = kind;
	if (!q)
		goto oom;
	if (kind == TT_SEARCH_ID) {
		/* a slice id: Perfetto's omnibox jumps there */
		tt_search_free(q);
		v->search[0] = 0;
		if (want < 0 || (size_t)want >= v->sc.n || !tt_view_select_slice(v, want)) {
			tt_view_message(v, 1, "no slice with id %lld", (long long)want);
			return 0;
		}
		tt_view_message(v, 0, "slice %lld: %s", (long long)want, tt_trace_str(v->tr, v->sc.name[want]));
		return 1;
	}
	v->match_bits = calloc(v->sc.n / 8 + 1, 1);
	if (!v->match_bits)
		goto oom;
	for (size_t id = 0; id < v->sc.n; id++) {
		if (!tt_search_test(q, v, id))
			continue;
		if (v->nmatches == cap) {
			cap = cap ? cap * 2 : 256;
			int64_t *nm = realloc(v->matches, cap * sizeof *nm);
			if (!nm)
				goto oom;
			v->matches = nm;
		}
		v->matches[v->nmatches++] = (int64_t)id;
		v->match_bits[id / 8] |= (uint8_t)(1u << (id % 8));
	}
	tt_search_free(q);
	mark_rows(v, v->match_bits);
	sort_view = v;
	if (v->nmatches > 1)
		qsort(v->matches, v->nmatches, sizeof *v->matches, cmp_match);
	if (v->nmatches)
		step_match(v, 1);
	else
		tt_view_message(v, 1, "no match for '%s'%s", text, v->has_range ? " in the range" : "");
	return v->nmatches;
oom:
	tt_search_free(q);
	tt_view_message(v, 1, "search: out of memory");
	return v->nmatches;
}

void tt_view_set_matches(tt_view *v, const int64_t *ids, size_t n, const char *label, int step)
{
	tt_view_search(v, "");
	snprintf(v->search, sizeof v->search, "=%s", label);
	v->match_bits = calloc(v->sc.n / 8 + 1, 1);
	v->matches = malloc((n ? n : 1) * sizeof *v->matches);
	if (!v->match_bits || !v->matches) {
		tt_view_search(v, "");
		tt_view_message(v, 1, "out of memory");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		v->matches[i] = ids[i];
		v->match_bits[ids[i] / 8] |= (uint8_t)(1u << (ids[i] % 8));
	}
	v->nmatches = n;
	mark_rows(v, v->match_bits);
	sort_view = v;
	size_t i = 1;
	while (i < n && cmp_match(&v->matches[i - 1], &v->matches[i]) <= 0)
		i++;
	if (i < n) /* ids mostly come in time order already */
		qsort(v->matches, n, sizeof *v->matches, cmp_match);
	if (!n)
		tt_view_message(v, 1, "no slice of '%s' here", label);
	else if (step)
		step_match(v, 1);
}

int tt_view_text_cols(const char *s)
{
	int n = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if ((*p & 0xc0) != 0x80)
			n++;
	return n;
}

void tt_view_filter(tt_view *v, const char *text)
{
	snprintf(v->lay.filter, sizeof v->lay.filter, "%s", text);
	tt_layout_relines(&v->lay);
	v->line = 0;
	v->top = 0;
}

static int cmp_alert(const void *pa, const void *pb)
{
	const tt_alert *a = pa, *b = pb;

	return a->ts < b->ts ? -1 : a->ts > b->ts;
}

void tt_view_load_alerts(tt_view *v)
{
	tt_result r = {0};
	tt_err err = {0};

	free(v->alerts);
	v->alerts = NULL;
	v->nalerts = v->nwarn = v->nerr = v->alert_pos = 0;
	v->alert_maxdur = 0;
	if (tt_query_collect(v->tr, "select ts, dur, track_id, slice_id, severity from alert",
			     0, &r, &err) != TT_OK || r.ncols < 5) {
		tt_result_free(&r);
		return; /* no alert table: no alerts */
	}
	v->alerts = calloc(r.nrows ? r.nrows : 1, sizeof *v->alerts);
	if (!v->alerts) {
		tt_result_free(&r);
		return;
	}
	for (size_t i = 0; i < r.nrows; i++) {
		char **c = r.cells + i * 5;
		tt_alert *a = &v->alerts[v->nalerts++];
		a->ts = c[0] ? strtoll(c[0], NULL, 10) : 0;
		a->dur = c[1] ? strtoll(c[1], NULL, 10) : 0;
		a->track_id = c[2] ? (uint32_t)strtoul(c[2], NULL, 10) : UINT32_MAX;
		a->slice_id = c[3] ? strtoll(c[3], NULL, 10) : -1;
		a->error = c[4] && !strcmp(c[4], "error");
		if (a->dur > v->alert_maxdur)
			v->alert_maxdur = a->dur;
		if (a->error)
			v->nerr++;
		else
			v->nwarn++;
	}
	if (v->nalerts > 1)
		qsort(v->alerts, v->nalerts, sizeof *v->alerts, cmp_alert);
	tt_result_free(&r);
}

static int select_at_cursor(tt_view *v)
{
	const tt_line *l;
	int64_t id;

	if (v->line < 0 || v->line >= v->lay.nlines)
		return 0;
	l = &v->lay.lines[v->line];
	if (l->track < 0) {
		tt_lgroup *g = &v->lay.groups[l->group];
		g->expanded = !g->expanded;
		tt_layout_relines(&v->lay);
		keep_line_visible(v);
		return TT_REDRAW | TT_RELAYOUT;
	}
	id = tt_view_slice_at(v, v->line, v->cursor);
	if (id < 0) {
		/* the deepest slice of the track under the cursor */
		const tt_ltrack *t = &v->lay.tracks[l->track];
		for (int d = t->kind == TT_LT_SLICE ? t->ndepth - 1 : -1; d >= 0 && id < 0; d--)
			id = tt_lod_at(&t->rows[d], v->cursor);
	}
	if (id < 0) {
		tt_view_message(v, 0, "no slice under the cursor");
		return TT_REDRAW;
	}
	if (l->track == v->sel_track && id == v->sel_id && v->lay.tracks[l->track].pnames &&
	    selection_source(v) >= 0)
		return select_source(v); /* Enter again on a pinned row: its slice */
	int64_t keep = v->cursor;
	int rc = tt_view_select(v, l->track, id);
	v->cursor = keep; /* selecting by cursor does not move it */
	return rc;
}

static int toggle_group(tt_view *v)
{
	if (v->line < 0 || v->line >= v->lay.nlines)
		return 0;
	int tr = v->lay.lines[v->line].track;
	if (tr >= 0 && (v->lay.tracks[tr].nchildren ||
			(v->lay.tracks[tr].kind == TT_LT_SLICE && v->lay.tracks[tr].ndepth > TT_LAYOUT_FOLD_DEPTH))) {
		/* a merged or deep track: its members / all its rows */
		v->lay.tracks[tr].expanded = !v->lay.tracks[tr].expanded;
		tt_layout_relines(&v->lay);
		v->line = tt_layout_line_of(&v->lay, tr);
		keep_line_visible(v);
		return TT_REDRAW | TT_RELAYOUT;
	}
	int g = v->lay.lines[v->line].group;
	v->lay.groups[g].expanded = !v->lay.groups[g].expanded;
	tt_layout_relines(&v->lay);
	for (int i = 0; i < v->lay.nlines; i++)
		if (v->lay.lines[i].group == g && v->lay.lines[i].track < 0)
			v->line = i;
	keep_line_visible(v);
	return TT_REDRAW | TT_RELAYOUT;
}

/* P and x on the track of the cursor (trackops.c). */
static int track_op(tt_view *v, int action)
{
	int tr = v->line >= 0 && v->line < v->lay.nlines ? v->lay.lines[v->line].track : -1;
	tt_err err = {0};

	if (tr < 0) {
		tt_view_message(v, 1, "%s: put the cursor on a track", tt_action_name(action));
		return TT_REDRAW;
	}
	if (action == TT_ACT_HIDE_TRACK) {
		if (v->sel_track == tr) {
			v->sel_track = -1;
			v->sel_id = -1;
		}
		tt_trackops_hide(&v->lay, tr);
		tt_view_message(v, 0, "hid '%s' (:show %s brings it back)", v->lay.tracks[tr].name,
				v->lay.tracks[tr].name);
		keep_line_visible(v);
		return TT_REDRAW | TT_RELAYOUT | TT_SEL_CHANGED;
	}
	int rc = tt_trackops_pin(&v->lay, tr, &err);
	if (rc < 0) {
		tt_view_message(v, 1, "%s", err.msg);
		return TT_REDRAW;
	}
	tt_view_message(v, 0, rc ? "pinned '%s' to the top (P again: back)" : "'%s' is back in its group",
			v->lay.tracks[tr].name);
	v->line = tt_layout_line_of(&v->lay, tr);
	keep_line_visible(v);
	return TT_REDRAW | TT_RELAYOUT;
}

/* The actions of the flows, range, marks and reports (issue 14); -1 for
 * the others. */
static int ext_action(tt_view *v, int action)
{
	switch (action) {
	case TT_ACT_FLOW_NEXT:
	case TT_ACT_FLOW_PREV:
	case TT_ACT_FLOW_FOLLOW:
	case TT_ACT_FLOWS:
		return tt_flows_action(v, action);
	case TT_ACT_RANGE_START:
	case TT_ACT_RANGE_SCOPE:
	case TT_ACT_ZOOM_SELECTED: /* zooms to the range when there is one */
		return tt_range_action(v, action);
	case TT_ACT_AGGREGATE:
	case TT_ACT_AGG_THREADS:
	case TT_ACT_AGG_COUNTERS:
	case TT_ACT_CALLTREE:
	case TT_ACT_BOTTOMUP:
	case TT_ACT_FLAME:
	case TT_ACT_PANEL:
	case TT_ACT_MARKS:
		v->report = action;
		return TT_OPEN_REPORT | TT_REDRAW;
	case TT_ACT_MARK:
	case TT_ACT_JUMP_MARK:
		v->pending = action;
		tt_view_message(v, 0, action == TT_ACT_MARK ? "mark: press a letter or digit (m: the next free letter)"
							 : "go to mark: press its label");
		return TT_REDRAW;
	case TT_ACT_CLEAR:
		v->visual = 0;
		return -1;
	default:
		return -1;
	}
}

static int base_action(tt_view *v, int action);

int tt_view_action(tt_view *v, int action)
{
	int rc = ext_action(v, action);

	if (rc < 0)
		rc = base_action(v, action);
	tt_range_follow(v);
	return rc;
}

static int base_action(tt_view *v, int action)
{
	int page = v->tl_h > 1 ? v->tl_h - 1 : 1;

	switch (action) {
	case TT_ACT_QUIT:
		return TT_QUIT;
	case TT_ACT_HELP:
		return TT_OPEN_HELP;
	case TT_ACT_COMMAND:
		return TT_OPEN_CMD;
	case TT_ACT_SEARCH:
		return TT_OPEN_SEARCH;
	case TT_ACT_ZOOM_IN:
	case TT_ACT_ZOOM_OUT:
		zoom(v, action == TT_ACT_ZOOM_IN);
		return TT_REDRAW;
	case TT_ACT_PAN_LEFT:
	case TT_ACT_PAN_RIGHT:
		pan(v, action == TT_ACT_PAN_LEFT ? -1 : 1);
		return TT_REDRAW;
	case TT_ACT_TRACK_UP:
		v->line--;
		keep_line_visible(v);
		return TT_REDRAW;
	case TT_ACT_TRACK_DOWN:
		v->line++;
		keep_line_visible(v);
		return TT_REDRAW;
	case TT_ACT_PAGE_UP:
		v->line -= page;
		v->top -= page;
		keep_line_visible(v);
		return TT_REDRAW;
	case TT_ACT_PAGE_DOWN:
		v->line += page;
		v->top += page;
		keep_line_visible(v);
		return TT_REDRAW;
	case TT_ACT_FIRST_TRACK:
		v->line = 0;
		keep_line_visible(v);
		return TT_REDRAW;
	case TT_ACT_LAST_TRACK:
		v->line = v->lay.nlines - 1;
		keep_line_visible(v);
		return TT_REDRAW;
	case TT_ACT_TRACE_START:
		return tt_view_goto(v, v->lay.start);
	case TT_ACT_TRACE_END:
		return tt_view_goto(v, v->lay.end);
	case TT_ACT_ZOOM_SELECTED: {
		if (v->sel_id < 0) {
			tt_view_message(v, 1, "no slice selected");
			return TT_REDRAW;
		}
		int64_t ts = tt_view_item_ts(v, v->sel_track, v->sel_id);
		int64_t dur = tt_view_item_dur(v, v->sel_track, v->sel_id);
		if (dur <= 0)
			dur = 1;
		tt_view_set_window(v, tt_tm_sub(ts, dur / 10), tt_tm_add(tt_tm_add(dur, dur / 5), 1));
		v->cursor = ts;
		return TT_REDRAW;
	}
	case TT_ACT_ZOOM_ALL:
		tt_view_set_window(v, v->lay.start, tt_tm_len(v->lay.start, v->lay.end));
		follow_cursor(v);
		return TT_REDRAW;
	case TT_ACT_SELECT:
		return select_at_cursor(v);
	case TT_ACT_TOGGLE_GROUP:
		return toggle_group(v);
	case TT_ACT_NEXT:
		return v->nalerts ? step_alert(v, 1) : step_slice(v, 1);
	case TT_ACT_PREV:
		return v->nalerts ? step_alert(v, -1) : step_slice(v, -1);
	case TT_ACT_NEXT_SLICE:
		return step_slice(v, 1) | TT_REDRAW;
	case TT_ACT_PREV_SLICE:
		return step_slice(v, -1) | TT_REDRAW;
	case TT_ACT_PARENT:
		return select_parent(v) | TT_REDRAW;
	case TT_ACT_CHILD:
		return select_child(v) | TT_REDRAW;
	case TT_ACT_SOURCE:
		return select_source(v);
	case TT_ACT_NEXT_ALERT:
		if (!v->nalerts) {
			tt_view_message(v, 0, "no alerts");
			return TT_REDRAW;
		}
		return step_alert(v, 1);
	case TT_ACT_SEARCH_NEXT:
		return step_match(v, 1);
	case TT_ACT_SEARCH_PREV:
		return step_match(v, -1);
	case TT_ACT_DETAILS:
		v->details_pos = v->details_pos == TT_DETAILS_HIDDEN ? TT_DETAILS_BOTTOM : TT_DETAILS_HIDDEN;
		tt_view_geometry(v, v->rows, v->cols);
		return TT_REDRAW | TT_RELAYOUT;
	case TT_ACT_DETAILS_MOVE:
		v->details_pos = v->details_pos == TT_DETAILS_RIGHT ? TT_DETAILS_BOTTOM : TT_DETAILS_RIGHT;
		tt_view_geometry(v, v->rows, v->cols);
		return TT_REDRAW | TT_RELAYOUT;
	case TT_ACT_DETAILS_GROW:
	case TT_ACT_DETAILS_SHRINK: {
		int d = action == TT_ACT_DETAILS_GROW ? 1 : -1;
		if (v->details_pos == TT_DETAILS_RIGHT) {
			v->details_w = v->det_w + 4 * d;
			if (v->details_w < 16)
				v->details_w = 16;
		} else {
			v->details_h = v->det_h + d;
			if (v->details_h < 3)
				v->details_h = 3;
		}
		tt_view_geometry(v, v->rows, v->cols);
		return TT_REDRAW | TT_RELAYOUT;
	}
	case TT_ACT_DETAILS_DOWN:
		v->details_scroll++;
		return TT_REDRAW;
	case TT_ACT_DETAILS_UP:
		if (v->details_scroll > 0)
			v->details_scroll--;
		return TT_REDRAW;
	case TT_ACT_CLEAR:
		v->sel_track = -1;
		v->sel_id = -1;
		v->has_range = 0;
		v->msg[0] = 0;
		tt_view_search(v, "");
		return TT_REDRAW | TT_SEL_CHANGED;
	case TT_ACT_REDRAW:
		return TT_REDRAW | TT_RELAYOUT;
	case TT_ACT_PIN_TRACK:
	case TT_ACT_HIDE_TRACK:
		return track_op(v, action);
	default:
		return 0; /* open-link, copy-link: handled by the viewer */
	}
}

int tt_view_key(tt_view *v, int key)
{
	if (v->pending)
		return tt_marks_pending_key(v, key);
	return tt_view_action(v, tt_config_action(&v->cfg, key));
}
