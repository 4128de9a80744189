/*
 * view.h - the viewer's state and the actions on it: the visible time
 * window, the time cursor, the track cursor, the selection, the search,
 * the details panel geometry, the alerts. Actions (tt_view_action) change
 * the state and return what must be redone (TT_REDRAW, TT_RELAYOUT,
 * TT_QUIT...); they never touch the terminal, so the key handling is
 * unit-tested without one. Drawing lives in timeline.c / details.c, the
 * main loop in viewer.c.
 */
#ifndef TT_VIEW_H
#define TT_VIEW_H

#include <stdint.h>

#include "cmdbar.h"
#include "keys.h"
#include "layout.h"
#include "termtrace.h"
#include "theme.h"

enum {
	TT_REDRAW = 1,    /* draw a new frame */
	TT_RELAYOUT = 2,  /* lines or geometry changed */
	TT_QUIT = 4,
	TT_OPEN_HELP = 8,
	TT_OPEN_CMD = 16,
	TT_OPEN_SEARCH = 32,
	TT_SEL_CHANGED = 64, /* details must be fetched again */
	TT_OPEN_REPORT = 128, /* open the report v->report (tui/report.c) */
};

enum { TT_MODE_TIMELINE, TT_MODE_TABLE, TT_MODE_HELP, TT_MODE_FLAME };

typedef struct tt_alert {
	int64_t ts, dur, slice_id;
	uint32_t track_id;
	int error; /* 1 = 'error', 0 = 'warning' */
} tt_alert;

typedef struct tt_link_seg tt_link_seg;

typedef struct tt_view {
	tt_trace *tr;
	tt_layout lay;
	tt_slice_cols sc;
	tt_config cfg;
	int utf8;

	/* time window [t0, t0 + span) over tl_w columns, and the cursor */
	int64_t t0, span, cursor;
	/* the window last asked for (before the clamp for the width): a
	 * resize goes back to it */
	int64_t want_t0, want_span;
	/* screen geometry, set by tt_view_geometry */
	int rows, cols;
	int name_w;          /* track name column */
	int tl_x, tl_y, tl_w, tl_h; /* timeline cells (right of the names) */
	int det_x, det_y, det_w, det_h; /* details panel, 0 size when hidden */

	int line, top;       /* cursor line and first shown line (lay.lines) */
	int sel_track;       /* layout track of the selection, -1 = none */
	int64_t sel_id;      /* slice id (core) or row id (pinned track) */
	int has_range;
	int64_t range_a, range_b;

	/* search */
	char search[128];
	int64_t *matches;    /* slice ids sorted by ts */
	size_t nmatches, match_pos; /* match_pos = index + 1 of the current one */
	uint8_t *match_bits; /* one bit per slice id */

	/* details panel */
	int details_pos;     /* tt_details_pos */
	int details_h, details_w; /* sizes at the bottom / on the right */
	int details_scroll;
	char *desc, *doc_link; /* description of the selection, or NULL */
	/* where the doc link was drawn, piece by piece when wrapped (for
	 * OSC 8 hyperlinks over the same cells) */
#define TT_LINK_SEGS 8
	int link_nseg;
	struct tt_link_seg { int y, x, off, len; } link_seg[TT_LINK_SEGS];
	/* description of the cursor's track (details_track.c), fetched when
	 * the cursor moves to another track, not once a frame */
	uint32_t tdesc_track; /* core track id of tdesc; UINT32_MAX = none */
	char *tdesc, *tdesc_link;

	/* alerts (SQL table `alert`; none when it does not exist) */
	tt_alert *alerts;
	size_t nalerts, nwarn, nerr, alert_pos;
	int64_t alert_maxdur; /* bounds the search for alerts in the window */

	/* flows, range scope, marks, reports (issue 14: tui/flows.c,
	 * range.c, marks.c, report.c; NULL/0 when unused) */
	struct tt_flows *flows; /* per-slice flow index, NULL = no flows */
	int flow_pos;        /* highlighted entry of the selection's flows */
	int visual;          /* v: the range's end follows the cursor */
	int range_scope;     /* TT_SCOPE_* */
	int range_track;     /* layout track the range was made on */
	struct tt_marks *marks;
	int pending;         /* action waiting for a label key (m, ') */
	int report;          /* TT_REPORT_* to open (TT_OPEN_REPORT) */
	struct tt_agg *agg;  /* aggregation of the range (cached) */
	int search_kind;     /* TT_SEARCH_* of the current search */
	int range_panel;     /* the details panel shows the range (set with
			      * the range; a later selection shows itself) */
	struct tt_report *dock; /* call tree / flame graph shown in the details
			      * panel beside the timeline (tui/treepanel.c;
			      * owned by the viewer), NULL = none */
	int dock_focus;      /* keys go to the docked tree first */
	int flow_top;        /* first flow of the details' list window */
	int flow_reveal;     /* scroll the details to the highlighted flow */
#define TT_DET_ROWS 256
	int32_t det_flow[TT_DET_ROWS]; /* flow index + 1 drawn on each row of
				      * the details panel (mouse), 0 = none */

	/* message line */
	char msg[512];
	int msg_error;
	int mode;            /* TT_MODE_* */
} tt_view;

/* Builds the view of an opened trace (layout, LOD, alerts). Returns 0 or
 * -1 on OOM. The view does not own tr. */
int tt_view_init(tt_view *v, tt_trace *tr);
void tt_view_free(tt_view *v);
/* Lays the screen out for rows x cols. */
void tt_view_geometry(tt_view *v, int rows, int cols);
/* Runs an action; returns TT_* flags. */
int tt_view_action(tt_view *v, int action);
/* Runs the action bound to key. */
int tt_view_key(tt_view *v, int key);

/* Moves the window so that [t0, t0+span) is shown (clamped). */
void tt_view_set_window(tt_view *v, int64_t t0, int64_t span);
/* Selects a slice (core id) and brings it into view: cursor line on its
 * track (its group opened), cursor time at its start. Returns flags. */
int tt_view_select_slice(tt_view *v, int64_t slice_id);
/* The slice an annotation slice came from (its source_slice_id arg), or -1. */
int64_t tt_view_source_slice(const tt_view *v, int64_t id);
/* Selects row id of a layout track. */
int tt_view_select(tt_view *v, int track, int64_t id);
/* Moves the cursor to absolute time t, panning when needed. */
int tt_view_goto(tt_view *v, int64_t t);
/* Runs a name search (substring); returns the match count and selects
 * the first match at or after the cursor. */
size_t tt_view_search(tt_view *v, const char *text);
/* Makes ids (slice ids) the search matches, shown as '=label'; with
 * step, selects the first at or after the cursor (else n/N will). */
void tt_view_set_matches(tt_view *v, const int64_t *ids, size_t n, const char *label, int step);
/* Terminal columns of UTF-8 text (one per character). */
int tt_view_text_cols(const char *s);
/* Filters the tracks by name (substring; "" = all). */
void tt_view_filter(tt_view *v, const char *text);
/* Loads alerts with SQL; a failing query (no table) means no alerts. */
void tt_view_load_alerts(tt_view *v);
/* Name, ts, dur of a row of a layout track. */
const char *tt_view_item_name(const tt_view *v, int track, int64_t id);
int64_t tt_view_item_ts(const tt_view *v, int track, int64_t id);
int64_t tt_view_item_dur(const tt_view *v, int track, int64_t id);
/* Slice under (line, time), -1 when none. */
int64_t tt_view_slice_at(const tt_view *v, int line, int64_t t);
/* Column -> time, for mouse handling. */
int64_t tt_view_col_time(const tt_view *v, int x);
void tt_view_message(tt_view *v, int error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
