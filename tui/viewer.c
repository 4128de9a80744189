/*
 * viewer.c - the interactive viewer: opens the trace on a worker thread
 * behind a progress bar, then runs the main loop. The loop owns the
 * terminal: it reads a key, hands it to the current view (timeline, table,
 * help, command bar), and draws one frame into ncurses' virtual screen
 * followed by one doupdate() - handlers never refresh. SQL from the
 * command bar runs on a worker thread too, so that Ctrl-C can interrupt
 * it (tt_query_interrupt) while the viewer stays.
 */
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <curses.h>

#include "cmdbar.h"
#include "details.h"
#include "flows.h"
#include "metrics.h"
#include "mouse.h"
#include "osc.h"
#include "help.h"
#include "marks.h"
#include "range.h"
#include "report.h"
#include "table.h"
#include "termtrace.h"
#include "timefmt.h"
#include "timemath.h"
#include "timeline.h"
#include "trackops.h"
#include "view.h"
#include "viewer.h"

#define ATTR(a) ((attr_t)tt_theme_attr(a))
#define IDLE_MS 250 /* getch timeout of the main loop */

typedef struct viewer {
	tt_view v;
	tt_table table;
	int has_table;
	char *table_sql;    /* the query of the table, for its next pages */
	int npins;          /* pins made: their default titles */
	int help_scroll, help_lines;
	tt_cmdbar cb;
	int editing;        /* 0, ':' or '/' */
	tt_theme theme;
	int ncolors;
	int mouse_x, mouse_y, mouse_down;
	int hyperlinks;     /* the terminal shows OSC 8 hyperlinks */
	const char *path;
	tt_report *rep;     /* report of the open table or flame graph */
	int rep_table;      /* the table is rep's (a tree's rows) */
	tt_clicks clk;      /* double-click detection */
} viewer;

/* Drops the report (the panel that shows it too). */
static void drop_report(viewer *vw)
{
	if (vw->v.dock == vw->rep) {
		vw->v.dock = NULL;
		vw->v.dock_focus = 0;
	}
	tt_report_free(vw->rep);
	vw->rep = NULL;
	vw->rep_table = 0;
}

/* Data lost or skipped at import (a cut stream, an unknown TSDL
 * attribute): the message line says it, as the command line does. */
static void import_warning_msg(tt_view *v, tt_trace *tr)
{
	tt_result r;
	tt_err err = { 0 };

	if (tt_query_collect(tr, "select str_value from metadata where name = 'import_warning'", 1, &r,
			     &err) != TT_OK)
		return;
	if (r.nrows && r.cells[0])
		tt_view_message(v, 1, "warning: %s", r.cells[0]);
	tt_result_free(&r);
}

/* ---- warnings from theme/config parsing go to the message line ------ */
static void warn_msg(void *ctx, const char *msg)
{
	tt_view *v = ctx;

	if (!v->msg[0] || !v->msg_error)
		tt_view_message(v, 1, "%s", msg);
}

static void apply_theme(viewer *vw, const char *name)
{
	tt_theme th;

	if (tt_theme_load(&th, name, warn_msg, &vw->v) < 0)
		return;
	vw->theme = th;
	tt_theme_apply(&vw->theme, vw->ncolors);
}

/* ---- loading ------------------------------------------------------------ */
typedef struct loader {
	const char *path;
	tt_progress prog;
	tt_err err;
	tt_trace *tr;
	atomic_int finished;
} loader;

static void *load_main(void *arg)
{
	loader *ld = arg;

	ld->tr = tt_trace_open(ld->path, &ld->prog, &ld->err);
	atomic_store(&ld->finished, 1);
	return NULL;
}

static void human_bytes(uint64_t b, char *buf, size_t n)
{
	if (b >= 1024ull * 1024 * 1024)
		snprintf(buf, n, "%.1f GB", (double)b / (1024.0 * 1024 * 1024));
	else if (b >= 1024 * 1024)
		snprintf(buf, n, "%.1f MB", (double)b / (1024.0 * 1024));
	else if (b >= 1024)
		snprintf(buf, n, "%.1f KB", (double)b / 1024.0);
	else
		snprintf(buf, n, "%llu B", (unsigned long long)b);
}

/* Writes s at (y, x), cut to the screen's width (UTF-8: one column per
 * character), so that no line of the loading screen wraps. */
static void put_clipped(int y, int x, const char *s)
{
	int room = COLS - x, cols = 0;
	const unsigned char *p = (const unsigned char *)s;

	if (room <= 0 || y < 0 || y >= LINES)
		return;
	while (*p && cols < room) {
		p++;
		while ((*p & 0xc0) == 0x80)
			p++;
		cols++;
	}
	mvaddnstr(y, x, s, (int)((const char *)p - s));
}

static void draw_progress(const char *path, const tt_progress *p, int utf8, const char *what)
{
	uint64_t done = atomic_load(&p->bytes_done), total = atomic_load(&p->bytes_total);
	uint64_t events = atomic_load(&p->events);
	int w = COLS - 12, y = LINES / 2 - 2;
	char a[32], b[32], line[512];

	erase();
	if (w > 60)
		w = 60;
	if (y < 0)
		y = 0;
	attrset(ATTR(TT_AREA_DEFAULT) | A_BOLD);
	/* the path keeps its end (the file name) when the line is short */
	snprintf(line, sizeof line, "termtrace: %s ", what);
	int room = COLS - 2 - (int)strlen(line), plen = 0;
	for (const unsigned char *q = (const unsigned char *)path; *q; q++)
		plen += (*q & 0xc0) != 0x80;
	const char *tail = path;
	if (room > 1 && plen > room) {
		int skip = plen - room + 1;
		while (*tail && skip > 0) {
			tail++;
			while ((*(const unsigned char *)tail & 0xc0) == 0x80)
				tail++;
			skip--;
		}
		strncat(line, utf8 ? "\xe2\x80\xa6" : "~", sizeof line - strlen(line) - 1);
	}
	strncat(line, tail, sizeof line - strlen(line) - 1);
	put_clipped(y, 2, line);
	attrset(ATTR(TT_AREA_DEFAULT));
	if (w >= 1) {
		int fillw = total ? (int)((double)done / (double)total * w) : 0;
		if (fillw > w)
			fillw = w;
		mvaddstr(y + 1, 2, "[");
		attrset(ATTR(TT_AREA_PROGRESS));
		for (int i = 0; i < fillw; i++)
			mvaddstr(y + 1, 3 + i, utf8 ? "\xe2\x96\x88" : "#");
		attrset(ATTR(TT_AREA_DEFAULT));
		for (int i = fillw; i < w; i++)
			mvaddstr(y + 1, 3 + i, utf8 ? "\xe2\x96\x91" : ".");
		snprintf(line, sizeof line, "] %3d%%", total ? (int)(done * 100 / total) : 0);
		put_clipped(y + 1, 3 + w, line);
	} else {
		snprintf(line, sizeof line, "%d%%", total ? (int)(done * 100 / total) : 0);
		put_clipped(y + 1, 0, line);
	}
	human_bytes(done, a, sizeof a);
	human_bytes(total, b, sizeof b);
	snprintf(line, sizeof line, "%s of %s, %llu events", a, b, (unsigned long long)events);
	put_clipped(y + 2, 2, line);
	put_clipped(y + 4, 2, "q: cancel and quit");
	wnoutrefresh(stdscr);
	doupdate();
}

/* ---- SQL on a worker thread, cancellable with Ctrl-C -------------------- */
typedef struct query_job {
	tt_trace *tr;
	const char *sql;
	int page;           /* a page of the last statement from offset */
	size_t offset;
	tt_result res;
	tt_err err;
	int rc;
	atomic_int finished;
} query_job;

static void *query_main(void *arg)
{
	query_job *q = arg;

	q->rc = q->page ? tt_query_collect_page(q->tr, q->sql, q->offset, TT_TABLE_PAGE_ROWS, &q->res, &q->err)
			: tt_query_collect(q->tr, q->sql, TT_TABLE_PAGE_ROWS, &q->res, &q->err);
	atomic_store(&q->finished, 1);
	return NULL;
}

static void draw_frame(viewer *vw);
static void draw_message(const tt_view *v);

/* Runs sql (page: only its last statement, rows from offset); returns
 * TT_OK with *res filled, or an error with err set. */
static int run_query_page(viewer *vw, const char *sql, int page, size_t offset, tt_result *res,
			  tt_err *err)
{
	query_job q = {.tr = vw->v.tr, .sql = sql, .page = page, .offset = offset};
	pthread_t th;
	int cancelled = 0, resized = 0;

	memset(res, 0, sizeof *res);
	if (pthread_create(&th, NULL, query_main, &q) != 0) {
		query_main(&q);
	} else {
		timeout(50);
		for (int spins = 0; !atomic_load(&q.finished); spins++) {
			if (spins == 4) {
				/* only the message line: the worker owns the trace
				 * while the query runs, so the timeline is not read */
				tt_view_message(&vw->v, 0, "running query... (Ctrl-C cancels)");
				vw->editing = 0;
				draw_message(&vw->v);
				wnoutrefresh(stdscr);
				doupdate();
			}
			int ch = getch();
			if (ch == 3 && !cancelled) {
				tt_query_interrupt(vw->v.tr);
				cancelled = 1;
			} else if (ch == KEY_RESIZE) {
				resized = 1;
			}
		}
		pthread_join(th, NULL);
		timeout(IDLE_MS);
		if (resized)
			tt_view_geometry(&vw->v, LINES, COLS);
	}
	*res = q.res;
	*err = q.err;
	if (q.rc != TT_OK && cancelled)
		tt_err_set(err, TT_ECANCEL, "query cancelled");
	return q.rc;
}

static int run_query(viewer *vw, const char *sql, tt_result *res, tt_err *err)
{
	return run_query_page(vw, sql, 0, 0, res, err);
}

/* Builds the view again after the trace grew (metrics appended annotation
 * tracks): keeps the settings, the window, the message and what the user
 * did to the tracks (pins, hidden, open groups: trackops.c), the cursor on
 * its track; the selection and search are dropped. */
static int rebuild_view(viewer *vw)
{
	tt_view *v = &vw->v, nv;
	char msg[512];
	int err = v->msg_error;
	int line = v->line, below = v->line - v->top;

	snprintf(msg, sizeof msg, "%s", v->msg);
	if (tt_view_init(&nv, v->tr) < 0)
		return -1;
	line = tt_trackops_keep_apply(&nv.lay, tt_trackops_keep_take(&v->lay, line));
	nv.utf8 = v->utf8;
	nv.cfg = v->cfg;
	nv.details_pos = v->details_pos;
	nv.details_h = v->details_h;
	nv.details_w = v->details_w;
	nv.mode = v->mode;
	int64_t t0 = v->t0, span = v->span, cursor = v->cursor;
	nv.marks = v->marks; /* marks are times and slice ids: they stay */
	v->marks = NULL;
	tt_view_free(v);
	*v = nv;
	tt_view_geometry(v, LINES, COLS);
	tt_view_set_window(v, t0, span);
	v->cursor = cursor;
	v->line = line >= 0 ? line : 0;
	v->top = v->line - below > 0 ? v->line - below : 0;
	snprintf(v->msg, sizeof v->msg, "%s", msg);
	v->msg_error = err;
	return 0;
}

/* ---- commands ----------------------------------------------------------- */
static int run_sql_to_table(viewer *vw, const char *sql, const char *title)
{
	tt_result res;
	tt_err err = {0};

	if (run_query(vw, sql, &res, &err) != TT_OK) {
		tt_view_message(&vw->v, 1, "%s", err.msg[0] ? err.msg : "query failed");
		tt_result_free(&res);
		return TT_REDRAW;
	}
	if (res.ncols == 0) {
		tt_view_message(&vw->v, 0, "ok");
		tt_result_free(&res);
		return TT_REDRAW;
	}
	if (vw->has_table)
		tt_table_free(&vw->table);
	drop_report(vw);
	tt_view_geometry(&vw->v, vw->v.rows, vw->v.cols);
	tt_table_open(&vw->table, &res, title);
	vw->table.start = vw->v.lay.start;
	vw->table.utf8 = vw->v.utf8;
	free(vw->table_sql);
	vw->table_sql = strdup(sql);
	vw->has_table = 1;
	vw->v.mode = TT_MODE_TABLE;
	vw->v.msg[0] = 0;
	return TT_REDRAW;
}

static const char *word_arg(const char *cmd, const char *word)
{
	size_t n = strlen(word);

	if (strncmp(cmd, word, n) || (cmd[n] && cmd[n] != ' '))
		return NULL;
	cmd += n;
	while (*cmd == ' ')
		cmd++;
	return cmd;
}

/* :goto TIME: times past the trace go to its end (or start), and say so. */
static int goto_clamped(tt_view *v, int64_t t, const char *text)
{
	int64_t len = tt_tm_sub(v->lay.end, v->lay.start);
	char a[48];

	if (t > len || t < 0) {
		tt_timefmt_exact(len, v->utf8, a, sizeof a);
		tt_view_message(v, 0, t < 0 ? "goto: %s is before the trace start: cursor at the start" :
					"goto: %s is past the trace end (%s): cursor at the end", text, a);
		t = t < 0 ? 0 : len;
	}
	return tt_view_goto(v, tt_tm_add(v->lay.start, t));
}

static int timeline_key_action(viewer *vw, int act);


static int open_report(viewer *vw);

/* Commands of issue 14 with arguments; -1 when cmd is none of them. */
static int run_command_ext(viewer *vw, const char *cmd)
{
	tt_view *v = &vw->v;
	const char *arg;

	if ((arg = word_arg(cmd, "range"))) {
		char a[64], b[64];
		int64_t ta, tb;
		if (sscanf(arg, "%63s %63s", a, b) != 2 || tt_timefmt_parse(a, &ta) || tt_timefmt_parse(b, &tb)) {
			tt_view_message(v, 1, "usage: :range T1 T2 (times as :goto takes them, e.g. 1.5ms 20ms)");
			return TT_REDRAW;
		}
		tt_range_set(v, tt_tm_add(v->lay.start, ta), tt_tm_add(v->lay.start, tb));
		v->visual = 0;
		int64_t ra, rb;
		tt_range_get(v, &ra, &rb);
		int64_t rl = tt_tm_len(ra, rb);
		if (ra < v->t0 || rb > tt_tm_add(v->t0, v->span))
			tt_view_set_window(v, tt_tm_sub(ra, rl / 10), tt_tm_add(rl, rl / 5 + 1));
		v->cursor = ra;
		char len[64];
		tt_timefmt_exact(tt_tm_len(ra, rb), v->utf8, len, sizeof len);
		tt_view_message(v, 0, "range %s (R: table, T: call tree, z: flame graph, Esc clears)", len);
		return TT_REDRAW | TT_SEL_CHANGED;
	}
	if ((arg = word_arg(cmd, "mark")) && *arg)
		return tt_marks_set(v, (unsigned char)arg[0]);
	if ((arg = word_arg(cmd, "jump-mark")) && *arg)
		return tt_marks_jump(v, (unsigned char)arg[0]) | TT_SEL_CHANGED;
	if ((arg = word_arg(cmd, "flow")) && *arg) {
		v->flow_pos = atoi(arg) - 1;
		if (v->flow_pos < 0)
			v->flow_pos = 0;
		return tt_view_action(v, TT_ACT_FLOW_FOLLOW) | TT_SEL_CHANGED;
	}
	/* a bare action name is run by run_command (timeline_key_action) */
	return -1;
}

static int run_command(viewer *vw, const char *cmd)
{
	tt_view *v = &vw->v;
	const char *arg;

	while (*cmd == ' ')
		cmd++;
	if (!*cmd)
		return TT_REDRAW;
	if (!strcmp(cmd, "q") || !strcmp(cmd, "quit") || !strcmp(cmd, "q!"))
		return TT_QUIT;
	if (!strcmp(cmd, "help")) {
		v->mode = TT_MODE_HELP;
		vw->help_scroll = 0;
		return TT_REDRAW;
	}
	if ((arg = word_arg(cmd, "theme"))) {
		if (!*arg) {
			char names[400];
			tt_theme_list(names, sizeof names);
			tt_view_message(v, 0, "themes: %s (:theme NAME)", names);
			return TT_REDRAW;
		}
		v->msg[0] = 0;
		apply_theme(vw, arg);
		if (!v->msg[0])
			tt_view_message(v, 0, "theme %s", arg);
		return TT_REDRAW;
	}
	if ((arg = word_arg(cmd, "goto"))) {
		int64_t t;
		if (tt_timefmt_parse(arg, &t) != 0) {
			tt_view_message(v, 1, "goto: bad time '%s' (e.g. 1.5ms, 200us, 3s)", arg);
			return TT_REDRAW;
		}
		return goto_clamped(v, t, arg);
	}
	if ((arg = word_arg(cmd, "track"))) {
		char old[sizeof v->lay.filter];
		snprintf(old, sizeof old, "%s", v->lay.filter);
		tt_view_filter(v, arg);
		if (*arg && v->lay.nlines == 0) {
			/* nothing matches: keep the tracks that were shown */
			tt_view_filter(v, old);
			tt_view_message(v, 1, "no track matches '%s'", arg);
		} else if (*arg) {
			tt_view_message(v, 0, "tracks matching '%s' (:track alone shows all)", arg);
		} else {
			v->msg[0] = 0;
		}
		return TT_REDRAW | TT_RELAYOUT;
	}
	if ((arg = word_arg(cmd, "metrics")) || (arg = word_arg(cmd, "metric"))) {
		tt_err err = {0};
		if (!*arg) {
			tt_view_message(v, 1, "usage: :metrics NAME[,NAME...]");
			return TT_REDRAW;
		}
		tt_view_message(v, 0, "running metrics %s...", arg);
		draw_frame(vw);
		int rc = tt_metrics_run_names(v->tr, arg, &err);
		/* annotations were appended: column pointers and tracks changed */
		if (rebuild_view(vw) < 0)
			return TT_QUIT;
		if (rc != TT_OK)
			tt_view_message(v, 1, "%s", err.msg);
		else
			tt_view_message(v, 0, "metrics %s: %zu alert%s (%zu warning%s, %zu error%s)", arg,
					v->nalerts, v->nalerts == 1 ? "" : "s", v->nwarn,
					v->nwarn == 1 ? "" : "s", v->nerr, v->nerr == 1 ? "" : "s");
		return TT_REDRAW | TT_RELAYOUT | TT_SEL_CHANGED;
	}
	if ((arg = word_arg(cmd, "alerts"))) {
		if (v->nalerts == 0) {
			tt_view_message(v, 0, "no alerts (run metrics with :metrics or --metrics)");
			return TT_REDRAW;
		}
		return run_sql_to_table(vw, "select * from alert order by ts", "alerts");
	}
	if ((arg = word_arg(cmd, "tracks"))) {
		tt_result res;
		if (tt_trackops_list(&v->lay, arg, &res) < 0) {
			tt_view_message(v, 1, "tracks: out of memory");
			return TT_REDRAW;
		}
		if (res.nrows == 0) {
			tt_result_free(&res);
			tt_view_message(v, 1, "no track matches '%s'", arg);
			return TT_REDRAW;
		}
		if (vw->has_table)
			tt_table_free(&vw->table);
		tt_table_open(&vw->table, &res, *arg ? "tracks (filtered)" : "tracks");
		vw->rep_table = 0;
		free(vw->table_sql);
		vw->table_sql = NULL;
		vw->has_table = 1;
		v->mode = TT_MODE_TABLE;
		return TT_REDRAW;
	}
	if ((arg = word_arg(cmd, "show"))) {
		if (!*arg) {
			tt_view_message(v, 1, "usage: :show NAME|all (tracks hidden with x)");
			return TT_REDRAW;
		}
		int n = tt_trackops_show(&v->lay, arg);
		if (n == 0)
			tt_view_message(v, 1, "show: no hidden track named '%s'", arg);
		else
			tt_view_message(v, 0, "%d track%s shown again", n, n == 1 ? "" : "s");
		return TT_REDRAW | TT_RELAYOUT;
	}
	if (tt_action_lookup(cmd) != TT_ACT_NONE) {
		/* every action of the key table is a command too */
		int rc = timeline_key_action(vw, tt_action_lookup(cmd));
		return rc;
	}
	if ((arg = word_arg(cmd, "unpin"))) {
		if (!*arg) {
			tt_view_message(v, 1, "usage: :unpin NAME|all");
			return TT_REDRAW;
		}
		if (v->sel_id >= 0 && v->lay.tracks[v->sel_track].pnames &&
		    (!strcmp(arg, "all") || !strcmp(arg, v->lay.tracks[v->sel_track].name))) {
			v->sel_id = -1; /* its track goes */
			v->sel_track = -1;
		}
		int n = tt_layout_unpin(&v->lay, arg);
		if (n == 0)
			tt_view_message(v, 1, "unpin: no pinned track named '%s'", arg);
		else
			tt_view_message(v, 0, "unpinned %d track%s", n, n == 1 ? "" : "s");
		v->line = v->top = 0;
		tt_view_geometry(v, v->rows, v->cols);
		return TT_REDRAW | TT_RELAYOUT | TT_SEL_CHANGED;
	}
	if ((arg = word_arg(cmd, "pin"))) {
		tt_result res;
		tt_err err = {0};
		if (!*arg) {
			tt_view_message(v, 1, "usage: :pin SQL (columns ts, dur, name [, track_name])");
			return TT_REDRAW;
		}
		if (run_query(vw, arg, &res, &err) != TT_OK) {
			tt_view_message(v, 1, "%s", err.msg);
			tt_result_free(&res);
			return TT_REDRAW;
		}
		char title[64];
		snprintf(title, sizeof title, "pin %d", vw->npins + 1);
		int t = tt_layout_pin(&v->lay, &res, title, &err);
		vw->npins += t >= 0;
		if (t < 0)
			tt_view_message(v, 1, "%s", err.msg);
		else
			tt_view_message(v, 0, "pinned %zu slice%s as track '%s'", res.nrows,
					res.nrows == 1 ? "" : "s", v->lay.tracks[t].name);
		tt_result_free(&res);
		/* the pinned group sits at the top: show it */
		v->line = 0;
		v->top = 0;
		tt_view_geometry(v, v->rows, v->cols);
		return TT_REDRAW | TT_RELAYOUT;
	}
	int rc = run_command_ext(vw, cmd);
	if (rc >= 0)
		return rc;
	return run_sql_to_table(vw, cmd, cmd);
}

static void show_table(viewer *vw, tt_result *res, const char *title)
{
	if (vw->has_table)
		tt_table_free(&vw->table);
	tt_table_open(&vw->table, res, title);
	vw->has_table = 1;
	vw->rep_table = 1;
	vw->v.mode = TT_MODE_TABLE;
}

/* Z: the tree beside the timeline (docked), its keys, full screen. */
static int tree_panel(viewer *vw)
{
	tt_view *v = &vw->v;
	tt_result res;
	char title[256];
	int row = 0;

	if (v->dock && !v->dock_focus && v->mode == TT_MODE_TIMELINE) {
		v->dock_focus = 1;
		return TT_REDRAW;
	}
	if (v->dock) {
		if (tt_report_undock(vw->rep, v, &res, title, sizeof title, &row)) {
			show_table(vw, &res, title);
			vw->table.row = row;
		}
		return TT_REDRAW | TT_RELAYOUT;
	}
	if (!tt_report_is_tree(vw->rep)) {
		v->report = TT_ACT_CALLTREE;
		open_report(vw);
		if (!tt_report_is_tree(vw->rep))
			return TT_REDRAW;
	}
	int from_table = v->mode == TT_MODE_TABLE && vw->has_table && vw->rep_table;
	return tt_report_dock(vw->rep, v, from_table ? &vw->table : NULL);
}

/* Opens report v->report (flows, aggregations, call trees, marks) in the
 * table, or the flame graph screen; Z docks or undocks a tree. */
static int open_report(viewer *vw)
{
	tt_view *v = &vw->v;
	tt_result res;
	char title[256];

	if (v->report == TT_ACT_PANEL)
		return tree_panel(vw);
	drop_report(vw);
	tt_view_geometry(v, v->rows, v->cols);
	v->msg[0] = 0; /* what the report says stays */
	if (tt_report_open(&vw->rep, v, &res, title, sizeof title) < 0)
		return TT_REDRAW | TT_RELAYOUT;
	if (v->mode == TT_MODE_FLAME)
		return TT_REDRAW | TT_RELAYOUT;
	show_table(vw, &res, title);
	return TT_REDRAW | TT_RELAYOUT;
}

/* ---- doc link: open and copy --------------------------------------------- */
static void open_link(viewer *vw)
{
	const char *browser = getenv("BROWSER");
	pid_t pid;

	if (!vw->v.doc_link) {
		tt_view_message(&vw->v, 1, "the selection has no doc link");
		return;
	}
	if (!browser || !*browser) {
		tt_view_message(&vw->v, 1, "set $BROWSER to open links: %s", vw->v.doc_link);
		return;
	}
	pid = fork();
	if (pid == 0) {
		int fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		setsid();
		execlp(browser, browser, vw->v.doc_link, (char *)NULL);
		_exit(127);
	}
	tt_view_message(&vw->v, pid > 0 ? 0 : 1, pid > 0 ? "opened %s" : "cannot start %s",
			pid > 0 ? vw->v.doc_link : browser);
}

static void copy_link(viewer *vw)
{
	if (!vw->v.doc_link) {
		tt_view_message(&vw->v, 1, "the selection has no doc link");
		return;
	}
	if (tt_osc_clipboard(vw->v.doc_link) < 0)
		tt_view_message(&vw->v, 1, "copy: out of memory");
	else
		tt_view_message(&vw->v, 0, "copied %s", vw->v.doc_link);
}

/* ---- drawing -------------------------------------------------------------- */
static void draw_status(tt_view *v)
{
	char buf[512], part[200], d[64];
	int y = v->rows - 2;

	attrset(ATTR(TT_AREA_STATUS));
	mvhline(y, 0, ' ', v->cols);
	buf[0] = 0;
	if (v->sel_id >= 0) {
		tt_timefmt_exact(tt_view_item_dur(v, v->sel_track, v->sel_id), v->utf8, d, sizeof d);
		snprintf(part, sizeof part, " sel: %.60s (%s)", tt_view_item_name(v, v->sel_track, v->sel_id), d);
		strncat(buf, part, sizeof buf - strlen(buf) - 1);
	}
	if (v->has_range) {
		int64_t a = v->range_a < v->range_b ? v->range_a : v->range_b;
		int64_t b = v->range_a < v->range_b ? v->range_b : v->range_a;
		tt_timefmt_exact(tt_tm_len(a, b), v->utf8, d, sizeof d);
		snprintf(part, sizeof part, " | range %s%s", d,
			 v->range_scope == TT_SCOPE_ALL ? "" : v->range_scope == TT_SCOPE_GROUP ? " (group)" : " (track)");
		strncat(buf, part, sizeof buf - strlen(buf) - 1);
	}
	if (v->search[0]) {
		snprintf(part, sizeof part, " | /%.40s: %zu match%s", v->search, v->nmatches,
			 v->nmatches == 1 ? "" : "es");
		strncat(buf, part, sizeof buf - strlen(buf) - 1);
	}
	if (v->nalerts) {
		snprintf(part, sizeof part, " | alerts: %zu warning%s, %zu error%s", v->nwarn,
			 v->nwarn == 1 ? "" : "s", v->nerr, v->nerr == 1 ? "" : "s");
		strncat(buf, part, sizeof buf - strlen(buf) - 1);
	}
	if (v->lay.filter[0]) {
		snprintf(part, sizeof part, " | tracks: %.30s", v->lay.filter);
		strncat(buf, part, sizeof buf - strlen(buf) - 1);
	}
	mvaddnstr(y, 0, buf, v->cols);
	const char *hint = "? help ";
	if ((int)strlen(buf) + 8 < v->cols)
		mvaddstr(y, v->cols - (int)strlen(hint), hint);
}

static void draw_message(const tt_view *v)
{
	int y = v->rows - 1;

	attrset(ATTR(TT_AREA_CMDBAR));
	mvhline(y, 0, ' ', v->cols);
	if (v->msg[0]) {
		attrset(ATTR(v->msg_error ? TT_AREA_CMDBAR_ERROR : TT_AREA_CMDBAR));
		mvaddnstr(y, 0, v->msg, v->cols);
	} else if (v->mode == TT_MODE_HELP) {
		mvaddnstr(y, 0, "Up/Down/PgUp/PgDn scroll  q/Esc close", v->cols);
	} else {
		mvaddnstr(y, 0, "q quit  ? help  : command/SQL  / search  Enter select  w/s zoom  a/d pan", v->cols);
	}
}

void tt_viewer_draw_timeline(tt_view *v)
{
	tt_timeline_draw(v);
	tt_details_draw(v);
	draw_status(v);
	draw_message(v);
}

static void draw_cmdline(viewer *vw)
{
	tt_view *v = &vw->v;
	int y = v->rows - 1;

	attrset(ATTR(TT_AREA_CMDBAR));
	mvhline(y, 0, ' ', v->cols);
	if (vw->editing) {
		/* show the end of a long line */
		size_t off = 0;
		int w = v->cols - 2;
		while (w > 0 && (int)(vw->cb.pos - off) >= w)
			off += w > 1 ? (size_t)w / 2 : 1; /* w 1: a 3-column terminal */
		mvaddch(y, 0, (chtype)vw->editing);
		mvaddnstr(y, 1, vw->cb.buf + off, w);
		move(y, 1 + (int)(vw->cb.pos - off));
		return;
	}
	draw_message(v);
}

/* The full-screen views (timeline, result table, help): see "the screens"
 * below. */
typedef struct screen_ops {
	const char *name;
	void (*draw)(viewer *vw);
	int (*key)(viewer *vw, int ch); /* returns TT_* flags */
} screen_ops;
static const screen_ops *screen_of(const viewer *vw);

/* OSC 8 over the doc link once the frame is on the terminal (osc.c):
 * ncurses cannot put the escape inside a cell. */
static void draw_hyperlink(viewer *vw)
{
	tt_view *v = &vw->v;

	if (!vw->hyperlinks || !v->doc_link || v->link_nseg <= 0 || v->mode != TT_MODE_TIMELINE)
		return;
	tt_osc_hyperlinks(v->doc_link, v->link_seg, v->link_nseg);
}

static void draw_frame(viewer *vw)
{
	erase();
	bkgdset(' ' | ATTR(TT_AREA_DEFAULT));
	screen_of(vw)->draw(vw);
	draw_cmdline(vw);
	curs_set(vw->editing ? 1 : 0);
	wnoutrefresh(stdscr);
	doupdate();
	draw_hyperlink(vw);
}

/* ---- input ----------------------------------------------------------------- */
static int line_at_y(const tt_view *v, int y)
{
	if (y < v->tl_y || y >= v->tl_y + v->tl_h)
		return -1;
	int li = v->top + y - v->tl_y;
	return li < v->lay.nlines ? li : -1;
}

static int in_timeline(const tt_view *v, int x, int y)
{
	return x >= v->tl_x && x < v->tl_x + v->tl_w && y < v->tl_y + v->tl_h;
}

static int timeline_mouse(viewer *vw, int ch)
{
	tt_view *v = &vw->v;
	MEVENT ev;

	if (tt_mouse_event(ch, &ev) < 0)
		return 0;
	int clicks = tt_mouse_press(&vw->clk, &ev, tt_mouse_now());
	if (ev.x >= v->det_x && ev.x < v->det_x + v->det_w && ev.y >= v->det_y && ev.y < v->det_y + v->det_h &&
	    !(vw->mouse_down && (ev.bstate & BUTTON1_RELEASED))) { /* (a drag's end stays the timeline's) */
		/* the details panel: the docked tree, the flows' list, the wheel */
		int rc = v->dock ? tt_report_panel_mouse(v, &ev, clicks) : -1;
		if (rc < 0 && clicks)
			rc = tt_flows_click(v, ev.y, clicks);
		for (int i = 0; rc < 0 && i < 3 && (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)); i++)
			tt_view_action(v, ev.bstate & BUTTON4_PRESSED ? TT_ACT_DETAILS_UP : TT_ACT_DETAILS_DOWN);
		return rc < 0 ? TT_REDRAW : rc;
	}
	if (clicks)
		v->dock_focus = 0; /* a click on the timeline gives it the keys */
	if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
		int up = (ev.bstate & BUTTON4_PRESSED) != 0;
		/* Ctrl-wheel zooms around the pointer, Shift-wheel pans */
		if (ev.bstate & BUTTON_CTRL) {
			if (in_timeline(v, ev.x, ev.y))
				v->cursor = tt_view_col_time(v, ev.x - v->tl_x);
			return tt_view_action(v, up ? TT_ACT_ZOOM_IN : TT_ACT_ZOOM_OUT);
		}
		if (ev.bstate & BUTTON_SHIFT)
			return tt_view_action(v, up ? TT_ACT_PAN_LEFT : TT_ACT_PAN_RIGHT);
		for (int i = 0; i < 3; i++)
			tt_view_action(v, up ? TT_ACT_TRACK_UP : TT_ACT_TRACK_DOWN);
		return TT_REDRAW;
	}
	if (ev.bstate & BUTTON1_PRESSED) {
		vw->mouse_down = 1;
		vw->mouse_x = ev.x;
		vw->mouse_y = ev.y;
		return 0;
	}
	if (ev.bstate & (BUTTON1_RELEASED | BUTTON1_CLICKED)) {
		int was_down = vw->mouse_down;
		vw->mouse_down = 0;
		if (was_down && ev.x != vw->mouse_x && in_timeline(v, vw->mouse_x, vw->mouse_y)) {
			int x = ev.x < v->tl_x ? v->tl_x : ev.x >= v->tl_x + v->tl_w ? v->tl_x + v->tl_w - 1 : ev.x;
			v->range_a = tt_view_col_time(v, vw->mouse_x - v->tl_x);
			v->range_b = tt_view_col_time(v, x - v->tl_x);
			if (v->range_b < v->range_a) {
				int64_t t = v->range_a;
				v->range_a = v->range_b;
				v->range_b = t;
			}
			v->range_b = tt_view_col_time(v, (x > vw->mouse_x ? x : vw->mouse_x) - v->tl_x + 1);
			tt_range_set(v, v->range_a, v->range_b);
			v->visual = 0;
			return TT_REDRAW;
		}
		int li = line_at_y(v, ev.y);
		if (li >= 0 && v->lay.lines[li].track < 0) {
			v->line = li;
			return tt_view_action(v, TT_ACT_TOGGLE_GROUP);
		}
		if (in_timeline(v, ev.x, ev.y)) {
			v->cursor = tt_view_col_time(v, ev.x - v->tl_x);
			tt_range_follow(v); /* a click extends a range being made (v) */
			if (li >= 0) {
				v->line = li;
				int64_t keep = v->cursor;
				int64_t id = tt_view_slice_at(v, li, v->cursor);
				if (id >= 0) {
					int rc = tt_view_select(v, v->lay.lines[li].track, id);
					v->cursor = keep;
					return rc;
				}
			}
			return TT_REDRAW;
		}
		if (li >= 0) {
			v->line = li;
			return TT_REDRAW;
		}
	}
	return 0;
}

/* ---- the screens: timeline, result table, help ---------------------------
 * Each full-screen view of the loop draws itself into the virtual screen
 * and takes the keys the command bar does not (tig's view_ops); the loop
 * adds the command line and does the one doupdate() of the frame. */

static void open_cmdbar(viewer *vw, char prompt)
{
	tt_cmdbar_open(&vw->cb, prompt);
	vw->editing = prompt;
	vw->v.msg[0] = 0;
}

static void timeline_draw(viewer *vw)
{
	tt_timeline_draw(&vw->v);
	tt_details_draw(&vw->v);
	draw_status(&vw->v);
}

static int timeline_key(viewer *vw, int ch)
{
	tt_view *v = &vw->v;
	int act;

	if (ch == KEY_MOUSE || ch == TT_KEY_SGR_MOUSE)
		return timeline_mouse(vw, ch);
	if (v->pending)
		return tt_marks_pending_key(v, ch) | TT_SEL_CHANGED | TT_RELAYOUT;
	int rc = v->dock && v->dock_focus ? tt_report_panel_key(v, ch) : -1;
	if (rc >= 0) /* the docked tree takes its keys, the timeline the rest */
		return rc;
	act = tt_config_action(&v->cfg, ch);
	return timeline_key_action(vw, act);
}

static int timeline_key_action(viewer *vw, int act)
{
	tt_view *v = &vw->v;
	int rc;

	if (act == TT_ACT_REDRAW)
		clearok(curscr, TRUE); /* the next frame repaints every cell */
	if (act == TT_ACT_OPEN_LINK) {
		open_link(vw);
		return TT_REDRAW;
	}
	if (act == TT_ACT_COPY_LINK) {
		copy_link(vw);
		return TT_REDRAW;
	}
	rc = tt_view_action(v, act);
	if (rc & TT_OPEN_HELP) {
		v->mode = TT_MODE_HELP;
		vw->help_scroll = 0;
	}
	if (rc & (TT_OPEN_CMD | TT_OPEN_SEARCH))
		open_cmdbar(vw, (rc & TT_OPEN_CMD) ? ':' : '/');
	if (rc & TT_OPEN_REPORT)
		rc |= open_report(vw);
	return rc | TT_REDRAW;
}

static void table_draw(viewer *vw)
{
	if (vw->has_table)
		tt_table_draw(&vw->table, 0, vw->v.rows - 1, vw->v.cols);
}

static int table_key(viewer *vw, int ch)
{
	tt_view *v = &vw->v;
	int64_t id = -1, ts = INT64_MIN;
	int rc;
	MEVENT ev;

	if (!vw->has_table) {
		v->mode = TT_MODE_TIMELINE;
		return TT_REDRAW;
	}
	if (ch == KEY_MOUSE || ch == TT_KEY_SGR_MOUSE) {
		if (tt_mouse_event(ch, &ev) < 0)
			return 0;
		if (ev.bstate & BUTTON4_PRESSED)
			vw->table.row -= 3;
		else if (ev.bstate & BUTTON5_PRESSED)
			vw->table.row += 3;
		int clicks = tt_mouse_press(&vw->clk, &ev, tt_mouse_now());
		if (clicks) {
			/* a click selects a row, a double-click is Enter */
			if (vw->rep_table && (rc = tt_report_table_mouse(vw->rep, v, &vw->table, &ev, clicks)) >= 0)
				return rc;
			int r = vw->table.top + ev.y - 2; /* under the title and the header */
			if (ev.y >= 2 && r >= 0 && (size_t)r < vw->table.res.nrows) {
				vw->table.row = r;
				if (clicks >= 2)
					return table_key(vw, '\n');
			}
		}
		return TT_REDRAW;
	}
	if (tt_config_action(&v->cfg, ch) == TT_ACT_PANEL && vw->rep_table && tt_report_is_tree(vw->rep)) {
		v->report = TT_ACT_PANEL;
		return open_report(vw);
	}
	if (ch == ':') {
		open_cmdbar(vw, ':');
		return TT_REDRAW;
	}
	if ((rc = tt_report_table_key(vw->rep_table ? vw->rep : NULL, v, &vw->table, ch)) >= 0)
		return rc;
	switch (tt_table_key(&vw->table, ch, &id, &ts)) {
	case TT_TABLE_NEXT_PAGE:
	case TT_TABLE_PREV_PAGE: {
		tt_table *t = &vw->table;
		size_t off = t->offset;
		tt_result res;
		tt_err err = {0};
		off = ch == 'n' ? off + t->res.nrows : off > TT_TABLE_PAGE_ROWS ? off - TT_TABLE_PAGE_ROWS : 0;
		if (!vw->table_sql || run_query_page(vw, vw->table_sql, 1, off, &res, &err) != TT_OK) {
			tt_view_message(v, 1, "%s", err.msg[0] ? err.msg : "no query to page");
			return TT_REDRAW;
		}
		tt_table_page(t, &res, off);
		v->msg[0] = 0;
		return TT_REDRAW;
	}
	case TT_TABLE_CLOSE:
		v->mode = TT_MODE_TIMELINE;
		return TT_REDRAW;
	case TT_TABLE_JUMP:
		v->mode = TT_MODE_TIMELINE;
		if (id >= 0 && (rc = tt_view_select_slice(v, id)))
			return rc;
		if (ts != INT64_MIN)
			return tt_view_goto(v, ts);
		tt_view_message(v, 1, "no slice with id %lld", (long long)id);
		return TT_REDRAW;
	default:
		return TT_REDRAW;
	}
}

static void help_draw(viewer *vw)
{
	vw->help_lines = tt_help_draw(&vw->v.cfg, vw->help_scroll, vw->v.rows - 1, vw->v.cols);
}

static int help_key(viewer *vw, int ch)
{
	tt_view *v = &vw->v;

	if (ch == 'q' || ch == 27 || ch == '?' || ch == '\n' || ch == '\r')
		v->mode = TT_MODE_TIMELINE;
	else if (ch == KEY_DOWN || ch == 'j')
		vw->help_scroll++;
	else if (ch == KEY_UP || ch == 'k')
		vw->help_scroll--;
	else if (ch == KEY_NPAGE || ch == ' ')
		vw->help_scroll += v->rows - 2;
	else if (ch == KEY_PPAGE)
		vw->help_scroll -= v->rows - 2;
	if (vw->help_scroll > vw->help_lines - (v->rows - 1))
		vw->help_scroll = vw->help_lines - (v->rows - 1);
	if (vw->help_scroll < 0)
		vw->help_scroll = 0;
	return TT_REDRAW;
}

static void flame_draw(viewer *vw)
{
	tt_report_flame_draw(vw->rep, &vw->v);
}

static int flame_key(viewer *vw, int ch)
{
	MEVENT ev;

	if (ch == ':') {
		open_cmdbar(vw, ':');
		return TT_REDRAW;
	}
	if (ch == KEY_MOUSE || ch == TT_KEY_SGR_MOUSE) {
		if (!vw->rep || tt_mouse_event(ch, &ev) < 0)
			return 0;
		int clicks = tt_mouse_press(&vw->clk, &ev, tt_mouse_now());
		int rc = tt_report_flame_mouse(vw->rep, &vw->v, &ev, clicks);
		return rc < 0 ? 0 : rc;
	}
	if (tt_config_action(&vw->v.cfg, ch) == TT_ACT_PANEL && vw->rep) {
		vw->v.report = TT_ACT_PANEL;
		return open_report(vw);
	}
	return tt_report_flame_key(vw->rep, &vw->v, ch);
}

static const screen_ops screens[] = {
	[TT_MODE_TIMELINE] = {.name = "timeline", .draw = timeline_draw, .key = timeline_key},
	[TT_MODE_TABLE] = {.name = "table", .draw = table_draw, .key = table_key},
	[TT_MODE_HELP] = {.name = "help", .draw = help_draw, .key = help_key},
	[TT_MODE_FLAME] = {.name = "flame", .draw = flame_draw, .key = flame_key},
};

static const screen_ops *screen_of(const viewer *vw)
{
	int m = vw->v.mode;

	return &screens[m >= 0 && m < (int)(sizeof screens / sizeof screens[0]) ? m : TT_MODE_TIMELINE];
}

static int handle_key(viewer *vw, int ch)
{
	tt_view *v = &vw->v;

	if (ch == KEY_RESIZE) {
		tt_view_geometry(v, LINES, COLS);
		return TT_REDRAW | TT_RELAYOUT;
	}
	if (vw->editing) {
		int r = tt_cmdbar_key(&vw->cb, ch);
		if (r == TT_CB_CANCEL) {
			vw->editing = 0;
			return TT_REDRAW;
		}
		if (r == TT_CB_EDIT)
			return TT_REDRAW;
		char line[TT_CMDBAR_MAX];
		int prompt = vw->editing;
		snprintf(line, sizeof line, "%s", vw->cb.buf);
		vw->editing = 0;
		if (prompt == '/') {
			if (line[0])
				tt_view_search(v, line);
			return TT_REDRAW | TT_SEL_CHANGED;
		}
		if (line[0]) {
			tt_cmdbar_remember(&vw->cb, line);
			tt_cmdbar_save_line(NULL, line);
		}
		v->msg[0] = 0;
		return run_command(vw, line) | TT_SEL_CHANGED;
	}
	if (ch == 3) /* Ctrl-C quits from every screen (raw mode: no SIGINT) */
		return TT_QUIT;
	return screen_of(vw)->key(vw, ch);
}

/* ---- the run ------------------------------------------------------------------ */
static int setup_terminal(viewer *vw, SCREEN **scr)
{
	const char *cs;

	setlocale(LC_ALL, "");
	cs = nl_langinfo(CODESET);
	vw->v.utf8 = cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
	*scr = newterm(NULL, stdout, stdin);
	if (!*scr)
		return -1;
	set_term(*scr);
	raw();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(100); /* long enough for escape sequences over SSH */
	curs_set(0);
	tt_mouse_setup();
	vw->hyperlinks = tt_osc_hyperlinks_supported();
	vw->ncolors = 0;
	if (has_colors() && !(getenv("NO_COLOR") && *getenv("NO_COLOR"))) {
		start_color();
		use_default_colors();
		vw->ncolors = COLORS;
	}
	return 0;
}

int tt_viewer_run(const tt_viewer_opts *opts)
{
	viewer *vw = calloc(1, sizeof *vw);
	loader *ld = calloc(1, sizeof *ld);
	SCREEN *scr = NULL;
	pthread_t th;
	tt_config user;
	int rc = 0, quit = 0, ntyped = 0;
	int typed[64];
	char theme_name[128];

	if (!vw || !ld) {
		free(vw);
		free(ld);
		fprintf(stderr, "termtrace: out of memory\n");
		return 1;
	}
	vw->path = opts->path;
	/* config first: its warnings are printed if the terminal fails */
	tt_config_init(&user);
	tt_config_load_user(&user, warn_msg, &vw->v);
	if (setup_terminal(vw, &scr) < 0) {
		fprintf(stderr, "termtrace: cannot open the terminal (TERM=%s)\n",
			getenv("TERM") ? getenv("TERM") : "");
		free(vw);
		free(ld);
		return 1;
	}
	snprintf(theme_name, sizeof theme_name, "%s",
		 vw->ncolors == 0 ? "monochrome" : opts->theme ? opts->theme : user.theme[0] ? user.theme : "dark");
	apply_theme(vw, theme_name);

	ld->path = opts->path;
	if (pthread_create(&th, NULL, load_main, ld) != 0) {
		load_main(ld);
	} else {
		int waited = 0;
		timeout(50);
		while (!atomic_load(&ld->finished)) {
			draw_progress(opts->path, &ld->prog, vw->v.utf8, "loading");
			int ch = getch();
			if (ch == 'q' || ch == 3) {
				atomic_store(&ld->prog.cancel, 1);
				quit = 1;
			} else if (ch != ERR && ch != KEY_RESIZE && ntyped < (int)(sizeof typed / sizeof typed[0])) {
				typed[ntyped++] = ch; /* typed ahead: replayed once loaded */
			}
			/* a read that never returns (a FIFO nobody writes, a
			 * stalled network file) cannot see the cancel: after a
			 * second the viewer leaves it behind and quits; the
			 * worker still owns ld, which is not freed */
			if (quit && ++waited > 20) {
				pthread_detach(th);
				endwin();
				delscreen(scr);
				free(vw);
				return 0;
			}
		}
		pthread_join(th, NULL);
		timeout(IDLE_MS);
	}
	if (quit || !ld->tr) {
		tt_mouse_end();
		endwin();
		delscreen(scr);
		if (ld->tr)
			tt_trace_close(ld->tr);
		else if (!quit) {
			fprintf(stderr, "termtrace: %s\n", ld->err.msg);
			rc = 1;
		}
		free(vw);
		free(ld);
		return rc;
	}
	for (int i = 0; i < opts->nmodules; i++) {
		tt_err merr = {0};
		if (tt_sql_add_module_dir(ld->tr, opts->modules[i], &merr) != TT_OK)
			tt_view_message(&vw->v, 1, "%s", merr.msg);
	}
	if (opts->metrics && *opts->metrics) {
		tt_err merr = {0};
		draw_progress(opts->path, &ld->prog, vw->v.utf8, "running metrics on");
		if (tt_metrics_run_names(ld->tr, opts->metrics, &merr) != TT_OK)
			tt_view_message(&vw->v, 1, "%s", merr.msg);
	}
	draw_progress(opts->path, &ld->prog, vw->v.utf8, "building the timeline of");
	char saved_msg[512];
	int saved_err = vw->v.msg_error;
	snprintf(saved_msg, sizeof saved_msg, "%s", vw->v.msg);
	int utf8 = vw->v.utf8;
	if (tt_view_init(&vw->v, ld->tr) < 0) {
		tt_mouse_end();
		endwin();
		delscreen(scr);
		fprintf(stderr, "termtrace: out of memory building the timeline\n");
		tt_trace_close(ld->tr);
		free(vw);
		free(ld);
		return 1;
	}
	vw->v.utf8 = utf8;
	vw->v.cfg = user;
	if (user.details >= 0)
		vw->v.details_pos = user.details;
	if (saved_msg[0]) {
		snprintf(vw->v.msg, sizeof vw->v.msg, "%s", saved_msg);
		vw->v.msg_error = saved_err;
	} else {
		/* else the view's own message (clamped bounds) stays unless the
		 * import left a warning */
		import_warning_msg(&vw->v, ld->tr);
	}
	tt_cmdbar_load(&vw->cb, NULL);
	tt_view_geometry(&vw->v, LINES, COLS);

	/* ncurses' ungetch is a stack: push the typed-ahead keys last first */
	for (int i = ntyped - 1; i >= 0; i--)
		ungetch(typed[i]);
	int flags = TT_REDRAW;
	timeout(IDLE_MS);
	while (!(flags & TT_QUIT)) {
		if (flags & TT_SEL_CHANGED) {
			tt_details_fetch(&vw->v);
			/* the panel unfolds on a selection (small terminals) */
			tt_view_geometry(&vw->v, LINES, COLS);
		}
		if (flags & (TT_REDRAW | TT_RELAYOUT))
			draw_frame(vw);
		/* a timeout, not a blocking read: a SIGWINCH that lands just
		 * before the read is then seen (as KEY_RESIZE) at the next
		 * call instead of after the next key */
		int ch = getch();
		flags = ch == ERR ? 0 : handle_key(vw, ch);
	}
	tt_mouse_end();
	endwin();
	delscreen(scr);
	if (vw->has_table)
		tt_table_free(&vw->table);
	free(vw->table_sql);
	drop_report(vw);
	tt_cmdbar_free(&vw->cb);
	tt_view_free(&vw->v);
	tt_trace_close(ld->tr);
	free(vw);
	free(ld);
	return 0;
}
