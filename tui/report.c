/*
 * report.c - reports on the range or the selection (see report.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timemath.h"
#include <curses.h>

#include "aggregate.h"
#include "calltree.h"
#include "flows.h"
#include "marks.h"
#include "range.h"
#include "report.h"
#include "report_int.h"
#include "theme.h"
#include "timefmt.h"

#define ATTR(a) ((attr_t)tt_theme_attr(a))

/* ---- result building ---------------------------------------------------- */
typedef struct rb {
	tt_result *r;
	size_t cap;
	int ok;
} rb;

static void rb_init(rb *b, tt_result *r, int ncols, const char *const *cols)
{
	memset(r, 0, sizeof *r);
	b->r = r;
	b->cap = 0;
	b->ok = 1;
	r->ncols = ncols;
	r->cols = calloc((size_t)ncols, sizeof *r->cols);
	if (!r->cols) {
		b->ok = 0;
		return;
	}
	for (int c = 0; c < ncols; c++)
		r->cols[c] = strdup(cols[c]);
}

/* Appends a row of ncols strings (NULL = SQL NULL). */
static void rb_row(rb *b, char **cells)
{
	tt_result *r = b->r;

	if (!b->ok)
		return;
	if (r->nrows == b->cap) {
		size_t nc = b->cap ? b->cap * 2 : 64;
		char **n = realloc(r->cells, nc * (size_t)r->ncols * sizeof *n);
		if (!n) {
			b->ok = 0;
			return;
		}
		r->cells = n;
		b->cap = nc;
	}
	for (int c = 0; c < r->ncols; c++)
		r->cells[r->nrows * (size_t)r->ncols + c] = cells[c] ? strdup(cells[c]) : NULL;
	r->nrows++;
}

static char *fmt(char *buf, size_t n, const char *f, ...) __attribute__((format(printf, 3, 4)));
static char *fmt(char *buf, size_t n, const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	vsnprintf(buf, n, f, ap);
	va_end(ap);
	return buf;
}

/* ---- the range and its aggregation (cached in v->agg) -------------------- */
static int range_or_selection(tt_view *v, int64_t *a, int64_t *b, uint8_t **tracks, uint32_t *min_depth,
			      char *what, size_t n)
{
	char len[64], scope[200];

	*tracks = NULL;
	*min_depth = 0;
	if (tt_range_get(v, a, b)) {
		if (*b <= *a)
			*b = *a + 1;
		*tracks = tt_range_core_tracks(v);
		tt_timefmt_exact(*b - *a, v->utf8, len, sizeof len);
		tt_range_scope_text(v, scope, sizeof scope);
		snprintf(what, n, "range %.60s on %.150s", len, scope);
		return *tracks ? 0 : -1;
	}
	if (v->sel_id >= 0 && v->sel_track >= 0 && !v->lay.tracks[v->sel_track].pnames) {
		int64_t id = v->sel_id;
		uint32_t nt = tt_trace_track_count(v->tr);
		*a = v->sc.ts[id];
		*b = v->sc.dur[id] >= 0 ? tt_tm_end(*a, v->sc.dur[id]) : v->lay.end;
		if (*b <= *a)
			*b = *a + 1;
		*min_depth = v->sc.depth[id];
		*tracks = calloc(nt ? nt : 1, 1);
		if (!*tracks)
			return -1;
		if (v->sc.track_id[id] < nt)
			(*tracks)[v->sc.track_id[id]] = 1;
		snprintf(what, n, "slice %s (id %lld)", tt_trace_str(v->tr, v->sc.name[id]), (long long)id);
		return 0;
	}
	tt_view_message(v, 1, "select a range first (v, a mouse drag or :range T1 T2) or a slice");
	return -1;
}

void tt_report_share_text(int64_t part, int64_t whole, char *buf, size_t n)
{
	snprintf(buf, n, "%.2f%%", whole > 0 ? (double)part * 100.0 / (double)whole : 0.0);
}

static void agg_table(tt_view *v, tt_agg *g, tt_result *res)
{
	static const char *const cols[] = {"name", "count", "wall_ns", "self_ns", "avg_ns", "max_ns", "share"};
	char c[7][64], *cells[7];
	rb b;

	rb_init(&b, res, 7, cols);
	for (size_t i = 0; i < g->nrows; i++) {
		const tt_agg_row *r = &g->rows[i];
		cells[0] = (char *)tt_trace_str(v->tr, r->name);
		cells[1] = fmt(c[1], 64, "%lld", (long long)r->count);
		cells[2] = fmt(c[2], 64, "%lld", (long long)r->wall);
		cells[3] = fmt(c[3], 64, "%lld", (long long)r->self);
		cells[4] = fmt(c[4], 64, "%lld", (long long)(r->count ? r->wall / r->count : 0));
		cells[5] = fmt(c[5], 64, "%lld", (long long)r->max);
		tt_report_share_text(r->wall, tt_tm_len(g->a, g->b), c[6], 64);
		cells[6] = c[6];
		rb_row(&b, cells);
	}
}

static void threads_table(tt_view *v, tt_agg *g, tt_result *res)
{
	static const char *const cols[] = {"utid", "tid", "thread", "process", "busy_ns", "share"};
	uint32_t nth = tt_trace_thread_count(v->tr);
	int64_t *busy = calloc(nth ? nth : 1, sizeof *busy);
	char c[6][160], *cells[6];
	rb b;

	rb_init(&b, res, 6, cols);
	if (!busy)
		return;
	for (size_t t = 0; t < g->ntracks; t++) {
		tt_track_info ti;
		if (g->busy[t] && tt_trace_track(v->tr, (uint32_t)t, &ti) == 0 && ti.utid < nth)
			busy[ti.utid] += g->busy[t];
	}
	for (;;) { /* largest first: a selection sort over the few threads */
		uint32_t best = UINT32_MAX;
		for (uint32_t u = 0; u < nth; u++)
			if (busy[u] > 0 && (best == UINT32_MAX || busy[u] > busy[best]))
				best = u;
		if (best == UINT32_MAX)
			break;
		tt_thread_info th;
		tt_process_info pi;
		tt_trace_thread(v->tr, best, &th);
		cells[0] = fmt(c[0], 160, "%u", best);
		cells[1] = fmt(c[1], 160, "%lld", (long long)th.tid);
		cells[2] = (char *)th.name;
		cells[3] = th.upid != UINT32_MAX && tt_trace_process(v->tr, th.upid, &pi) == 0
			   ? fmt(c[3], 160, "%s %lld", pi.name, (long long)pi.pid) : NULL;
		cells[4] = fmt(c[4], 160, "%lld", (long long)busy[best]);
		tt_report_share_text(busy[best], tt_tm_len(g->a, g->b), c[5], 160);
		cells[5] = c[5];
		rb_row(&b, cells);
		busy[best] = 0;
	}
	free(busy);
}

static void counters_table(tt_view *v, int64_t a, int64_t bb, tt_result *res)
{
	static const char *const cols[] = {"track_id", "counter", "samples", "min", "max", "mean", "delta"};
	char c[7][160], *cells[7];
	tt_counter_cols cc;
	rb b;

	rb_init(&b, res, 7, cols);
	tt_trace_counters(v->tr, &cc);
	for (int t = 0; t < v->lay.ntracks; t++) {
		const tt_ltrack *lt = &v->lay.tracks[t];
		tt_track_info ti;
		tt_agg_counter s;
		if (lt->kind != TT_LT_COUNTER || lt->track_id == UINT32_MAX || !tt_range_track_in(v, t) ||
		    tt_trace_track(v->tr, lt->track_id, &ti) != 0)
			continue;
		tt_agg_counter_range(cc.ts, cc.value, ti.rows, ti.nrows, a, bb, &s);
		if (!s.known)
			continue;
		cells[0] = fmt(c[0], 160, "%u", lt->track_id);
		cells[1] = (char *)lt->name;
		cells[2] = fmt(c[2], 160, "%zu", s.n);
		cells[3] = fmt(c[3], 160, "%.10g", s.min);
		cells[4] = fmt(c[4], 160, "%.10g", s.max);
		cells[5] = fmt(c[5], 160, "%.10g", s.mean);
		cells[6] = fmt(c[6], 160, "%.10g", s.delta);
		rb_row(&b, cells);
	}
}

/* ---- call tree as an expandable table ------------------------------------ */
void tt_report_tree_walk(tt_report *rep)
{
	const tt_calltree *ct = &rep->ct;
	uint32_t *stack = malloc((ct->n + 1) * sizeof *stack);
	size_t ns = 0;

	free(rep->rowmap);
	rep->rowmap = malloc((ct->n + 1) * sizeof *rep->rowmap);
	rep->nrows = 0;
	if (!stack || !rep->rowmap) {
		free(stack);
		return;
	}
	stack[ns++] = 0;
	while (ns > 0) {
		uint32_t k = stack[--ns];
		const tt_ct_node *nd = &ct->nodes[k];
		rep->rowmap[rep->nrows++] = k;
		if (nd->child == TT_CT_NONE || !rep->open[k])
			continue;
		/* push children in reverse so that the largest comes out first */
		size_t first = ns;
		for (uint32_t ch = nd->child; ch != TT_CT_NONE; ch = ct->nodes[ch].next)
			stack[ns++] = ch;
		for (size_t i = first, j = ns - 1; i < j; i++, j--) {
			uint32_t t = stack[i];
			stack[i] = stack[j];
			stack[j] = t;
		}
	}
	free(stack);
}

static void tree_rows(tt_report *rep, tt_view *v, tt_result *res)
{
	static const char *const cols[] = {"total_ns", "self_ns", "calls", "share", "name"};
	char c[5][64], name[400], *cells[5];
	const tt_calltree *ct = &rep->ct;
	rb b;

	rb_init(&b, res, 5, cols);
	tt_report_tree_walk(rep);
	for (size_t r = 0; r < rep->nrows; r++) {
		uint32_t k = rep->rowmap[r];
		const tt_ct_node *nd = &ct->nodes[k];
		int has_kids = nd->child != TT_CT_NONE;
		cells[0] = fmt(c[0], 64, "%lld", (long long)nd->total);
		cells[1] = k == 0 || ct->bottom_up ? NULL : fmt(c[1], 64, "%lld", (long long)nd->self);
		cells[2] = k == 0 ? NULL : fmt(c[2], 64, "%lld", (long long)nd->calls);
		tt_report_share_text(nd->total, ct->nodes[0].total, c[3], 64);
		cells[3] = c[3];
		const char *mark = !has_kids ? " " : rep->open[k] ? (v->utf8 ? "\xe2\x96\xbe" : "-")
								  : (v->utf8 ? "\xe2\x96\xb8" : "+");
		snprintf(name, sizeof name, "%*s%s %s", (int)nd->depth * 2, "", mark,
			 k == 0 ? rep->what : tt_trace_str(v->tr, nd->name));
		cells[4] = name;
		rb_row(&b, cells);
	}
}

void tt_report_tree_table(tt_report *rep, tt_view *v, tt_result *res, char *title, size_t ntitle)
{
	tree_rows(rep, v, res);
	snprintf(title, ntitle, "%s of %s: %zu slices (Enter/Right/Left fold, t: show on timeline, Z: beside it)",
		 rep->kind == TT_ACT_BOTTOMUP ? "bottom-up tree" : "call tree", rep->what, rep->ct.nslices);
}

typedef struct prog_ctx {
	tt_view *v;
	int cancelled;
	int chain;   /* a flow chain (its walk says total 0), else a tree */
} prog_ctx;

/* Off the draw path: the message line shows the progress; Esc or Ctrl-C
 * cancels. */
static int tree_progress(void *ctx, size_t done, size_t total)
{
	prog_ctx *p = ctx;
	int ch, delay = wgetdelay(stdscr);
	char n[32];

	attrset(ATTR(TT_AREA_CMDBAR));
	mvhline(p->v->rows - 1, 0, ' ', p->v->cols);
	tt_table_count(done, n, sizeof n);
	if (p->chain && total == 0)
		mvprintw(p->v->rows - 1, 0, "following the flow chain: %s slices so far (Esc cancels)", n);
	else
		mvprintw(p->v->rows - 1, 0, "%s... %d%% (Esc cancels)",
			 p->chain ? "listing the flow chain" : "building the call tree",
			 total ? (int)(done * 100 / total) : 0);
	wnoutrefresh(stdscr);
	doupdate();
	nodelay(stdscr, TRUE);
	while ((ch = getch()) != ERR)
		if (ch == 27 || ch == 3)
			p->cancelled = 1;
	timeout(delay); /* the main loop's own timeout again */
	return p->cancelled;
}



static int build_tree(tt_report *rep, tt_view *v, int bottom_up)
{
	uint8_t *tracks;
	uint32_t min_depth;
	prog_ctx pc = {v, 0, 0};

	if (range_or_selection(v, &rep->a, &rep->b, &tracks, &min_depth, rep->what, sizeof rep->what) < 0)
		return -1;
	int rc = tt_calltree_build(&rep->ct, &v->sc, tracks, tt_trace_track_count(v->tr), rep->a, rep->b,
				   v->lay.end, min_depth, bottom_up, stdscr ? tree_progress : NULL, &pc);
	free(tracks);
	if (rc != 0) {
		tt_view_message(v, rc > 0 ? 0 : 1, rc > 0 ? "call tree cancelled" : "call tree: out of memory");
		return -1;
	}
	rep->open = calloc(rep->ct.n, 1);
	if (!rep->open)
		return -1;
	/* open the first levels: the heaviest paths show at once */
	for (size_t k = 0; k < rep->ct.n; k++)
		rep->open[k] = rep->ct.nodes[k].depth < 2;
	return 0;
}

int tt_report_open(tt_report **out, tt_view *v, tt_result *res, char *title, size_t ntitle)
{
	tt_report *rep = calloc(1, sizeof *rep);
	int kind = v->report;
	tt_agg *g;
	char len[64];

	*out = NULL;
	memset(res, 0, sizeof *res);
	if (!rep)
		return -1;
	rep->kind = kind;
	rep->lit = TT_CT_NONE;
	switch (kind) {
	case TT_ACT_FLOWS: {
		prog_ctx pc = {v, 0, 1};
		int rc = tt_flows_table(v, res, stdscr && v->flows ? tree_progress : NULL, &pc);
		if (rc == -2) {
			tt_view_message(v, 0, "flow chain cancelled");
			goto fail;
		}
		if (rc < 0) {
			tt_view_message(v, 1, v->sel_id < 0 ? "no slice selected" : "the selection has no flows");
			goto fail;
		}
		char cnt[32];
		tt_table_count(res->nrows, cnt, sizeof cnt);
		snprintf(title, ntitle, "flows of %s (id %lld): %s slices in the chain",
			 tt_trace_str(v->tr, v->sc.name[v->sel_id]), (long long)v->sel_id, cnt);
		if (res->nrows > TT_TABLE_PAGE_ROWS)
			tt_view_message(v, 0, "a flow chain of %s slices: the table holds every one (q closes)", cnt);
		break;
	}
	case TT_ACT_AGGREGATE:
	case TT_ACT_AGG_THREADS:
	case TT_ACT_AGG_COUNTERS: {
		int64_t a, b;
		if (!tt_range_get(v, &a, &b)) {
			tt_view_message(v, 1, "no range: v, a mouse drag or :range T1 T2 makes one");
			goto fail;
		}
		if (!(g = tt_report_range_agg(v))) {
			tt_view_message(v, 1, "aggregate: out of memory");
			goto fail;
		}
		char scope[200];
		tt_range_scope_text(v, scope, sizeof scope);
		tt_timefmt_exact(tt_tm_len(g->a, g->b), v->utf8, len, sizeof len);
		if (kind == TT_ACT_AGGREGATE) {
			agg_table(v, g, res);
			snprintf(title, ntitle, "range %s on %s: %zu slices (1-7 sort, Enter: find in range)", len,
				 scope, g->nslices);
		} else if (kind == TT_ACT_AGG_THREADS) {
			threads_table(v, g, res);
			snprintf(title, ntitle, "threads busy in range %s on %s", len, scope);
		} else {
			counters_table(v, g->a, g->b, res);
			snprintf(title, ntitle, "counters in range %s on %s", len, scope);
		}
		break;
	}
	case TT_ACT_CALLTREE:
	case TT_ACT_BOTTOMUP:
	case TT_ACT_FLAME:
		if (build_tree(rep, v, kind == TT_ACT_BOTTOMUP) < 0)
			goto fail;
		if (kind == TT_ACT_FLAME) {
			rep->focus = rep->cur = 0;
			v->mode = TT_MODE_FLAME;
			*out = rep;
			return 0;
		}
		tt_report_tree_table(rep, v, res, title, ntitle);
		break;
	case TT_ACT_MARKS:
		if (!v->marks || v->marks->n == 0) {
			tt_view_message(v, 1, "no marks: m then a letter marks the selection or the cursor");
			goto fail;
		}
		tt_marks_table(v, res);
		snprintf(title, ntitle, "marks (Enter: go there)");
		break;
	default:
		goto fail;
	}
	*out = rep;
	return 0;
fail:
	tt_result_free(res);
	tt_report_free(rep);
	return -1;
}

void tt_report_free(tt_report *rep)
{
	if (!rep)
		return;
	tt_calltree_free(&rep->ct);
	free(rep->open);
	free(rep->rowmap);
	free(rep->hits);
	free(rep);
}

/* Appends slice id s to a growing id list; 0, -1 on OOM. */
static int push_id(int64_t **ids, size_t *n, size_t *cap, size_t s)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 64;
		int64_t *ni = realloc(*ids, nc * sizeof *ni);
		if (!ni)
			return -1;
		*ids = ni;
		*cap = nc;
	}
	(*ids)[(*n)++] = (int64_t)s;
	return 0;
}

int tt_report_highlight(tt_report *rep, tt_view *v, uint32_t node, int step)
{
	tt_calltree *ct = &rep->ct;
	int64_t *ids = NULL;

	if (node >= ct->n)
		return TT_REDRAW;
	rep->lit = node;
	if (node == 0) {
		if (v->search[0] == '=')
			tt_view_search(v, "");
		return TT_REDRAW;
	}
	long n = tt_calltree_node_slices(ct, &v->sc, node, &ids);
	if (n < 0) {
		tt_view_message(v, 1, "out of memory");
		return TT_REDRAW;
	}
	tt_view_set_matches(v, ids, (size_t)n, tt_trace_str(v->tr, ct->nodes[node].name), step);
	free(ids);
	if (!step && n > 0)
		tt_view_message(v, 0, "%s: %ld slice%s highlighted (n/N: step through them in time)",
				tt_trace_str(v->tr, ct->nodes[node].name), n, n == 1 ? "" : "s");
	return TT_REDRAW | (step ? TT_SEL_CHANGED | TT_RELAYOUT : 0);
}

/* Highlights the slices of a call tree node on the timeline (as search
 * matches: n/N step through them) and goes there. */
int tt_report_show_node(tt_report *rep, tt_view *v, uint32_t node)
{
	if (node == 0 || node >= rep->ct.n)
		return TT_REDRAW;
	v->mode = TT_MODE_TIMELINE;
	return tt_report_highlight(rep, v, node, 1) | TT_REDRAW | TT_SEL_CHANGED | TT_RELAYOUT;
}

int tt_report_table_mouse(tt_report *rep, tt_view *v, tt_table *t, const MEVENT *ev, int clicks)
{
	if (!rep || (rep->kind != TT_ACT_CALLTREE && rep->kind != TT_ACT_BOTTOMUP) || !rep->rowmap ||
	    !(clicks) || !t->widths || t->col > 4)
		return -1;
	int r = t->top + ev->y - 2; /* the table's title and header first */
	if (ev->y < 2 || r < 0 || (size_t)r >= rep->nrows)
		return -1;
	int x = 0;
	for (int c = t->col; c < 4; c++)
		x += t->widths[c] + 2;
	uint32_t k = rep->rowmap[r];
	if (ev->x != x + (int)rep->ct.nodes[k].depth * 2 || rep->ct.nodes[k].child == TT_CT_NONE)
		return -1;
	/* the fold marker: each click opens/closes (a double-click there
	 * is two clicks, not also Enter) */
	(void)clicks;
	t->row = r;
	return tt_report_table_key(rep, v, t, '\n');
}

int tt_report_table_key(tt_report *rep, tt_view *v, tt_table *t, int key)
{
	if (!rep)
		return -1;
	if (rep->kind == TT_ACT_AGGREGATE && v->agg) {
		tt_agg *g = v->agg;
		if (key >= '1' && key < '1' + TT_AGG_NCOLS) {
			int col = key - '1';
			/* the same column again turns the order round */
			int desc = g->sort_col == col ? !g->sort_desc : col != TT_AGG_NAME;
			tt_agg_sort(g, col, desc, tt_report_name_of, v->tr);
			tt_result res;
			char title[256];
			snprintf(title, sizeof title, "%s", t->title);
			agg_table(v, g, &res);
			int row = t->row;
			tt_table_free(t);
			tt_table_open(t, &res, title);
			t->row = row;
			tt_view_message(v, 0, "sorted by %s%s", col < t->res.ncols ? t->res.cols[col] : "",
					desc ? ", largest first" : "");
			return TT_REDRAW;
		}
		if ((key == '\n' || key == '\r' || key == KEY_ENTER) && t->row >= 0 && (size_t)t->row < g->nrows) {
			uint32_t name = g->rows[t->row].name;
			uint8_t *tracks = tt_range_core_tracks(v);
			uint32_t nt = tt_trace_track_count(v->tr);
			int64_t *ids = NULL;
			size_t n = 0, cap = 0;
			for (size_t s = 0; s < v->sc.n && tracks; s++) {
				int64_t ts = v->sc.ts[s], dur = v->sc.dur[s], end = dur < 0 ? v->lay.end : tt_tm_end(ts, dur);
				if (v->sc.name[s] != name || v->sc.track_id[s] >= nt || !tracks[v->sc.track_id[s]])
					continue;
				if (dur == 0 ? !(ts >= g->a && ts < g->b) : !(ts < g->b && end > g->a))
					continue;
				if (push_id(&ids, &n, &cap, s) < 0)
					break;
			}
			free(tracks);
			v->mode = TT_MODE_TIMELINE;
			tt_view_set_matches(v, ids, n, tt_trace_str(v->tr, name), 1);
			free(ids);
			return TT_REDRAW | TT_SEL_CHANGED | TT_RELAYOUT;
		}
		return -1;
	}
	if (rep->kind == TT_ACT_MARKS && (key == '\n' || key == '\r' || key == KEY_ENTER)) {
		if (t->row < 0 || (size_t)t->row >= t->res.nrows)
			return -1;
		const char *l = t->res.cells[(size_t)t->row * (size_t)t->res.ncols];
		v->mode = TT_MODE_TIMELINE;
		return tt_marks_jump(v, l ? l[0] : 0) | TT_SEL_CHANGED | TT_RELAYOUT;
	}
	if ((rep->kind == TT_ACT_CALLTREE || rep->kind == TT_ACT_BOTTOMUP) && rep->rowmap &&
	    t->row >= 0 && (size_t)t->row < rep->nrows) {
		uint32_t k = rep->rowmap[t->row];
		const tt_ct_node *nd = &rep->ct.nodes[k];
		int row = t->row;
		switch (key) {
		case '\n': case '\r': case KEY_ENTER:
			rep->open[k] = !rep->open[k];
			break;
		case KEY_RIGHT: case 'l':
			if (nd->child == TT_CT_NONE)
				return TT_REDRAW;
			if (rep->open[k]) {
				t->row++;
				return TT_REDRAW;
			}
			rep->open[k] = 1;
			break;
		case KEY_LEFT: case 'h':
			if (rep->open[k] && nd->child != TT_CT_NONE) {
				rep->open[k] = 0;
				break;
			}
			/* to the parent's row */
			for (int r = row - 1; r >= 0; r--)
				if (rep->rowmap[r] == nd->parent) {
					t->row = r;
					break;
				}
			return TT_REDRAW;
		case 't':
			return tt_report_show_node(rep, v, k);
		default:
			return -1;
		}
		tt_result res;
		char title[256];
		snprintf(title, sizeof title, "%s", t->title);
		tree_rows(rep, v, &res);
		tt_table_free(t);
		tt_table_open(t, &res, title);
		t->row = row;
		return TT_REDRAW;
	}
	return -1;
}
