/*
 * marks.c - marks (see marks.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timemath.h"
#include <curses.h>

#include "marks.h"
#include "range.h"
#include "theme.h"
#include "timefmt.h"
#include "view.h"

#define ATTR(a) ((attr_t)tt_theme_attr(a))

static int valid_label(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static tt_mark *find(tt_marks *ms, int label)
{
	for (int i = 0; i < ms->n; i++)
		if (ms->m[i].label == label)
			return &ms->m[i];
	return NULL;
}

int tt_marks_set(tt_view *v, int label)
{
	int64_t a, b;
	char t[64];

	if (!v->marks && !(v->marks = calloc(1, sizeof *v->marks))) {
		tt_view_message(v, 1, "mark: out of memory");
		return TT_REDRAW;
	}
	tt_marks *ms = v->marks;
	if (label == 0) {
		for (int c = 'a'; c <= 'z' && !label; c++)
			if (!find(ms, c))
				label = c;
		if (!label) {
			tt_view_message(v, 1, "mark: every letter is used");
			return TT_REDRAW;
		}
	}
	if (!valid_label(label)) {
		tt_view_message(v, 1, "mark: a label is a letter or a digit");
		return TT_REDRAW;
	}
	tt_mark *m = find(ms, label);
	if (!m) {
		if (ms->n == TT_MAX_MARKS) {
			tt_view_message(v, 1, "mark: at most %d marks", TT_MAX_MARKS);
			return TT_REDRAW;
		}
		m = &ms->m[ms->n++];
	}
	memset(m, 0, sizeof *m);
	m->label = (char)label;
	m->slice = -1;
	if (v->sel_id >= 0 && v->sel_track >= 0 && !v->lay.tracks[v->sel_track].pnames) {
		m->slice = v->sel_id;
		m->ts = v->sc.ts[v->sel_id];
		m->end = v->sc.dur[v->sel_id] > 0 ? tt_tm_end(m->ts, v->sc.dur[v->sel_id]) : m->ts;
		snprintf(m->what, sizeof m->what, "slice %s (id %lld)", tt_trace_str(v->tr, v->sc.name[v->sel_id]),
			 (long long)v->sel_id);
	} else if (tt_range_get(v, &a, &b)) {
		m->ts = a;
		m->end = b;
		tt_timefmt_exact(tt_tm_len(a, b), v->utf8, t, sizeof t);
		snprintf(m->what, sizeof m->what, "range %s", t);
	} else {
		m->ts = m->end = v->cursor;
		snprintf(m->what, sizeof m->what, "cursor");
	}
	tt_timefmt_exact(m->ts - v->lay.start, v->utf8, t, sizeof t);
	tt_view_message(v, 0, "mark '%c' at %s: %s ('%c goes back)", label, t, m->what, label);
	return TT_REDRAW;
}

int tt_marks_jump(tt_view *v, int label)
{
	tt_mark *m = v->marks ? find(v->marks, label) : NULL;
	int rc = TT_REDRAW;

	if (!m) {
		tt_view_message(v, 1, "no mark '%c' (m%c sets it)", label, valid_label(label) ? label : 'a');
		return TT_REDRAW;
	}
	if (m->slice >= 0 && (size_t)m->slice < v->sc.n) {
		rc |= tt_view_select_slice(v, m->slice);
	} else if (m->end > m->ts) {
		tt_range_set(v, m->ts, m->end);
		v->visual = 0;
		if (m->ts < v->t0 || m->end > v->t0 + v->span)
			tt_view_set_window(v, tt_tm_sub(m->ts, tt_tm_len(m->ts, m->end) / 10), tt_tm_add(tt_tm_len(m->ts, m->end), tt_tm_len(m->ts, m->end) / 5 + 1));
	}
	rc |= tt_view_goto(v, m->ts);
	tt_view_message(v, 0, "mark '%c': %s", label, m->what);
	return rc;
}

int tt_marks_pending_key(tt_view *v, int key)
{
	int act = v->pending;

	v->pending = 0;
	if (key == 27 || key == 3) {
		v->msg[0] = 0;
		return TT_REDRAW;
	}
	if (act == TT_ACT_MARK)
		return tt_marks_set(v, key == '\n' || key == '\r' || key == 'm' ? 0 : key);
	return tt_marks_jump(v, key == '\'' ? '\'' : key);
}

void tt_marks_draw_ruler(const tt_view *v)
{
	if (!v->marks)
		return;
	for (int i = 0; i < v->marks->n; i++) {
		const tt_mark *m = &v->marks->m[i];
		int c0 = tt_timefmt_col(m->ts, v->t0, v->span, v->tl_w);
		int c1 = m->end > m->ts ? tt_timefmt_col(m->end - 1, v->t0, v->span, v->tl_w) : c0;
		if (c1 < 0 || c0 >= v->tl_w)
			continue;
		attrset(ATTR(TT_AREA_RULER_TICK) | A_BOLD);
		for (int c = (c0 < 0 ? 0 : c0) + 1; c <= c1 && c < v->tl_w; c++)
			mvaddstr(1, v->tl_x + c, v->utf8 ? "\xe2\x94\x80" : "-");
		if (c0 >= 0) {
			attrset(ATTR(TT_AREA_CURSOR) | A_REVERSE | A_BOLD);
			mvaddch(1, v->tl_x + c0, (chtype)(unsigned char)m->label);
		}
	}
}

int tt_marks_table(const tt_view *v, tt_result *res)
{
	static const char *cols[] = {"label", "ts", "time", "dur", "slice_id", "what"};
	enum { NC = 6 };
	int n = v->marks ? v->marks->n : 0;

	memset(res, 0, sizeof *res);
	res->ncols = NC;
	res->cols = calloc(NC, sizeof *res->cols);
	res->cells = calloc((size_t)(n ? n : 1) * NC, sizeof *res->cells);
	if (!res->cols || !res->cells)
		return -1;
	for (int c = 0; c < NC; c++)
		res->cols[c] = strdup(cols[c]);
	for (int i = 0; i < n; i++) {
		const tt_mark *m = &v->marks->m[i];
		char **row = res->cells + (size_t)i * NC, buf[64];
		snprintf(buf, sizeof buf, "%c", m->label);
		row[0] = strdup(buf);
		snprintf(buf, sizeof buf, "%lld", (long long)m->ts);
		row[1] = strdup(buf);
		tt_timefmt_exact(m->ts - v->lay.start, v->utf8, buf, sizeof buf);
		row[2] = strdup(buf);
		tt_timefmt_exact(tt_tm_len(m->ts, m->end), v->utf8, buf, sizeof buf);
		row[3] = strdup(buf);
		if (m->slice >= 0) {
			snprintf(buf, sizeof buf, "%lld", (long long)m->slice);
			row[4] = strdup(buf);
		}
		row[5] = strdup(m->what);
	}
	res->nrows = (size_t)n;
	return 0;
}

void tt_marks_free(tt_view *v)
{
	free(v->marks);
	v->marks = NULL;
}
