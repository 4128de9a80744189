/*
 * flows.c - flow index, details section, chain table and timeline
 * connectors (see flows.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timemath.h"
#include <curses.h>

#include "flows.h"
#include "table.h"
#include "theme.h"
#include "timefmt.h"
#include "view.h"

#define ATTR(a) ((attr_t)tt_theme_attr(a))

static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* ---- the index ------------------------------------------------------------ */
int tt_flows_build(tt_flows **out, const tt_trace *tr, size_t nslices)
{
	tt_flow_cols fc;
	tt_flows *f;

	*out = NULL;
	tt_trace_flows(tr, &fc);
	if (fc.n == 0)
		return 0;
	f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	f->nslices = nslices;
	f->psel = -1;
	f->out_off = calloc(nslices + 1, sizeof *f->out_off);
	f->in_off = calloc(nslices + 1, sizeof *f->in_off);
	f->out_to = malloc(fc.n * sizeof *f->out_to);
	f->in_from = malloc(fc.n * sizeof *f->in_from);
	if (!f->out_off || !f->in_off || !f->out_to || !f->in_from) {
		tt_flows_free(f);
		return -1;
	}
	/* counting sort by slice, both directions; rows naming a slice that
	 * does not exist are left out */
	for (size_t i = 0; i < fc.n; i++) {
		int64_t o = fc.slice_out[i], in = fc.slice_in[i];
		if (o < 0 || in < 0 || (size_t)o >= nslices || (size_t)in >= nslices)
			continue;
		f->out_off[o + 1]++;
		f->in_off[in + 1]++;
	}
	for (size_t s = 0; s < nslices; s++) {
		f->out_off[s + 1] += f->out_off[s];
		f->in_off[s + 1] += f->in_off[s];
	}
	uint32_t *po = malloc(nslices * sizeof *po), *pi = malloc(nslices * sizeof *pi);
	if (!po || !pi) {
		free(po);
		free(pi);
		tt_flows_free(f);
		return -1;
	}
	memcpy(po, f->out_off, nslices * sizeof *po);
	memcpy(pi, f->in_off, nslices * sizeof *pi);
	for (size_t i = 0; i < fc.n; i++) {
		int64_t o = fc.slice_out[i], in = fc.slice_in[i];
		if (o < 0 || in < 0 || (size_t)o >= nslices || (size_t)in >= nslices)
			continue;
		f->out_to[po[o]++] = in;
		f->in_from[pi[in]++] = o;
		f->n++;
	}
	free(po);
	free(pi);
	*out = f;
	return 0;
}

void tt_flows_free(tt_flows *f)
{
	if (!f)
		return;
	free(f->out_off);
	free(f->in_off);
	free(f->out_to);
	free(f->in_from);
	free(f->pids);
	free(f);
}

size_t tt_flows_of(const tt_flows *f, int64_t id, tt_flow_ref *refs, size_t max)
{
	size_t k = 0;

	if (!f || id < 0 || (size_t)id >= f->nslices)
		return 0;
	for (uint32_t i = f->in_off[id]; i < f->in_off[id + 1]; i++, k++)
		if (k < max)
			refs[k] = (tt_flow_ref){f->in_from[i], 0};
	for (uint32_t i = f->out_off[id]; i < f->out_off[id + 1]; i++, k++)
		if (k < max)
			refs[k] = (tt_flow_ref){f->out_to[i], 1};
	return k;
}

tt_flow_ref tt_flows_at(const tt_flows *f, int64_t id, size_t i)
{
	size_t nin = f->in_off[id + 1] - f->in_off[id];

	if (i < nin)
		return (tt_flow_ref){f->in_from[f->in_off[id] + i], 0};
	return (tt_flow_ref){f->out_to[f->out_off[id] + (i - nin)], 1};
}

static size_t count_of(const tt_flows *f, int64_t id)
{
	if (!f || id < 0 || (size_t)id >= f->nslices)
		return 0;
	return (size_t)(f->in_off[id + 1] - f->in_off[id]) + (f->out_off[id + 1] - f->out_off[id]);
}

int tt_flows_has(const tt_flows *f, int64_t id)
{
	if (!f || id < 0 || (size_t)id >= f->nslices)
		return 0;
	return (f->out_off[id + 1] > f->out_off[id] ? 1 : 0) |
	       (f->in_off[id + 1] > f->in_off[id] ? 2 : 0);
}

long tt_flows_chain(const tt_flows *f, int64_t id, int64_t **ids, int **dist, tt_flows_progress_fn progress,
		    void *ctx)
{
	size_t n = 0, cap = 16, head = 0;
	int64_t *q = malloc(cap * sizeof *q);
	int *d = malloc(cap * sizeof *d);
	uint8_t *seen = f ? calloc(f->nslices / 8 + 1, 1) : NULL;

	*ids = NULL;
	*dist = NULL;
	if (!q || !d || !seen || id < 0 || (size_t)id >= f->nslices) {
		long rc = q && d && (seen || !f) ? 0 : -1; /* no flows / bad id: none */
		free(q);
		free(d);
		free(seen);
		return rc;
	}
	q[n] = id;
	d[n++] = 0;
	seen[id / 8] |= (uint8_t)(1u << (id % 8));
	while (head < n) {
		int64_t s = q[head];
		int ds = d[head++];
		if (progress && (head & 0xffff) == 0 && progress(ctx, n, 0)) {
			free(q);
			free(d);
			free(seen);
			return -2;
		}
		for (int dir = 0; dir < 2; dir++) {
			const uint32_t *off = dir ? f->out_off : f->in_off;
			const int64_t *to = dir ? f->out_to : f->in_from;
			for (uint32_t i = off[s]; i < off[s + 1]; i++) {
				int64_t p = to[i];
				if (seen[p / 8] & (1u << (p % 8)))
					continue;
				seen[p / 8] |= (uint8_t)(1u << (p % 8));
				if (n == cap) {
					cap *= 2;
					int64_t *nq = realloc(q, cap * sizeof *q);
					int *nd = nq ? realloc(d, cap * sizeof *d) : NULL;
					if (nq)
						q = nq;
					if (!nd) {
						free(q);
						free(nd ? nd : d);
						free(seen);
						return -1;
					}
					d = nd;
				}
				q[n] = p;
				d[n++] = ds + 1;
			}
		}
	}
	free(seen);
	*ids = q;
	*dist = d;
	return (long)n;
}

/* ---- viewer side ------------------------------------------------------------ */
/* "thread 1234" or "process 99" or the track name of a slice. */
static void slice_where(const tt_view *v, int64_t id, char *buf, size_t n)
{
	tt_track_info ti;
	tt_thread_info th;
	tt_process_info pi;

	buf[0] = 0;
	if (tt_trace_track(v->tr, v->sc.track_id[id], &ti) != 0)
		return;
	if (ti.utid != UINT32_MAX && tt_trace_thread(v->tr, ti.utid, &th) == 0)
		snprintf(buf, n, "%s %lld", *th.name ? th.name : "thread", (long long)th.tid);
	else if (ti.upid != UINT32_MAX && tt_trace_process(v->tr, ti.upid, &pi) == 0)
		snprintf(buf, n, "%s %lld", *pi.name ? pi.name : "process", (long long)pi.pid);
	else
		snprintf(buf, n, "%s", ti.name);
}

static int sel_is_core(const tt_view *v)
{
	return v->sel_id >= 0 && v->sel_track >= 0 && !v->lay.tracks[v->sel_track].pnames &&
	       (size_t)v->sel_id < v->sc.n;
}

/* First flow of the details' window of TT_FLOWS_LISTED: flow_top when
 * it holds the highlighted flow, else the window that does. */
static size_t window_top(const tt_view *v, size_t n)
{
	size_t pos = v->flow_pos > 0 ? (size_t)v->flow_pos : 0, top = v->flow_top > 0 ? (size_t)v->flow_top : 0;

	if (n <= TT_FLOWS_LISTED)
		return 0;
	if (pos < top || pos >= top + TT_FLOWS_LISTED)
		top = pos >= TT_FLOWS_LISTED / 2 ? pos - TT_FLOWS_LISTED / 2 : 0;
	if (top + TT_FLOWS_LISTED > n)
		top = n - TT_FLOWS_LISTED;
	return top;
}

static void count_text(size_t n, char *buf, size_t len)
{
	tt_table_count(n, buf, len);
}

void tt_flows_details(const tt_view *v, tt_flows_line_fn fn, void *ctx)
{
	size_t n;
	char key[32], val[400], where[160], off[64], a[32], b[32], c[32];

	if (!sel_is_core(v) || !v->flows)
		return;
	n = count_of(v->flows, v->sel_id);
	if (n == 0)
		return;
	size_t top = window_top(v, n), end = top + TT_FLOWS_LISTED < n ? top + TT_FLOWS_LISTED : n;
	count_text(n, c, sizeof c);
	if (n > TT_FLOWS_LISTED) {
		count_text(top + 1, a, sizeof a);
		count_text(end, b, sizeof b);
		snprintf(val, sizeof val, "%s flows, %s-%s listed  ({ } pick and scroll, F follows, L the whole chain)", c,
			 a, b);
	} else {
		snprintf(val, sizeof val, "%s flow%s  ({ } pick, F follows, L the whole chain)", c, n == 1 ? "" : "s");
	}
	fn(ctx, "flows", val);
	if (top > 0) {
		count_text(top, a, sizeof a);
		snprintf(val, sizeof val, "%s %s earlier ({ scrolls up)", v->utf8 ? "\xe2\x86\x91" : "^", a);
		fn(ctx, "", val);
	}
	int64_t ts = v->sc.ts[v->sel_id];
	for (size_t i = top; i < end; i++) {
		tt_flow_ref r = tt_flows_at(v->flows, v->sel_id, i);
		int64_t p = r.partner;
		int64_t d = v->sc.ts[p] - ts;
		slice_where(v, p, where, sizeof where);
		tt_timefmt_exact(d < 0 ? -d : d, v->utf8, off, sizeof off);
		snprintf(key, sizeof key, "%s%s %zu", (long)i == v->flow_pos ? (v->utf8 ? "\xe2\x96\xb6" : ">") : " ",
			 r.out ? (v->utf8 ? "\xe2\x86\x92" : "->") : (v->utf8 ? "\xe2\x86\x90" : "<-"), i + 1);
		snprintf(val, sizeof val, "%s  %s  %s%s  (id %lld)", tt_trace_str(v->tr, v->sc.name[p]), where,
			 d < 0 ? "-" : "+", off, (long long)p);
		fn(ctx, key, val);
	}
	if (end < n) {
		count_text(n - end, a, sizeof a);
		snprintf(val, sizeof val, "%s %s more (} scrolls down)", v->utf8 ? "\xe2\x86\x93" : "v", a);
		fn(ctx, "", val);
	}
}

int tt_flows_line_index(const char *key)
{
	/* "▶→ 12", " ← 3", ">-> 12", " <- 3" (ASCII) */
	const char *sp = strrchr(key, ' ');
	if (!sp || !sp[1] || sp == key)
		return -1;
	if (!strstr(key, "\xe2\x86\x92") && !strstr(key, "\xe2\x86\x90") && !strstr(key, "->") && !strstr(key, "<-"))
		return -1;
	char *end;
	long i = strtol(sp + 1, &end, 10);
	return *end || i < 1 || i > 0x7fffffff ? -1 : (int)(i - 1);
}

void tt_flows_pick(tt_view *v, long i)
{
	size_t n = sel_is_core(v) ? count_of(v->flows, v->sel_id) : 0;

	if (n == 0)
		return;
	if (i < 0)
		i = 0;
	if ((size_t)i >= n)
		i = (long)n - 1;
	v->flow_pos = (int)i;
	v->flow_top = (int)window_top(v, n);
	v->flow_reveal = 1;
}

int tt_flows_click(tt_view *v, int y, int clicks)
{
	int r = y - v->det_y;

	if (r < 0 || r >= TT_DET_ROWS || r >= v->det_h || v->det_flow[r] <= 0)
		return -1;
	tt_flows_pick(v, (long)v->det_flow[r] - 1);
	v->flow_reveal = 0; /* the line clicked is on screen */
	if (clicks >= 2)
		return tt_flows_action(v, TT_ACT_FLOW_FOLLOW) | TT_SEL_CHANGED;
	return TT_REDRAW;
}

int tt_flows_is_partner(const tt_view *v, int64_t id)
{
	tt_flows *f = v->flows;

	if (!f || !sel_is_core(v) || id < 0 || (size_t)id >= f->nslices)
		return 0;
	int64_t s = v->sel_id;
	size_t n = count_of(f, s);
	if (n > 16) {
		/* asked once per slice drawn: the partners of a slice with
		 * many flows are sorted once, then found by binary search */
		if (f->psel != s) {
			int64_t *p = realloc(f->pids, n * sizeof *p);
			if (!p)
				return 0;
			f->pids = p;
			for (size_t i = 0; i < n; i++)
				p[i] = tt_flows_at(f, s, i).partner;
			qsort(p, n, sizeof *p, cmp_id);
			f->npids = n;
			f->psel = s;
		}
		size_t lo = 0, hi = f->npids;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (f->pids[mid] < id)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo < f->npids && f->pids[lo] == id;
	}
	for (uint32_t i = f->out_off[s]; i < f->out_off[s + 1]; i++)
		if (f->out_to[i] == id)
			return 1;
	for (uint32_t i = f->in_off[s]; i < f->in_off[s + 1]; i++)
		if (f->in_from[i] == id)
			return 1;
	return 0;
}

/* Screen row of a core slice, -1 when its line is not on screen. */
static int slice_row(const tt_view *v, int64_t id)
{
	int t = tt_layout_find_track(&v->lay, v->sc.track_id[id]);
	if (t < 0)
		return -1;
	const tt_ltrack *tk = &v->lay.tracks[t];
	if (!v->lay.groups[tk->group].expanded || tk->hidden)
		return -1;
	int line = tt_layout_line_of(&v->lay, t);
	if (line < 0)
		return -1;
	line += (int)v->sc.depth[id];
	if (line < v->top || line >= v->top + v->tl_h || line >= v->lay.nlines)
		return -1;
	return v->tl_y + line - v->top;
}

/* Puts glyph w at (y, x) of the timeline when the cell is empty. */
static void put_free(const tt_view *v, int y, int x, wchar_t w)
{
	cchar_t cur, cc;
	wchar_t got[16];
	attr_t a;
	short pair;

	if (x < v->tl_x || x >= v->tl_x + v->tl_w)
		return;
	if (mvin_wch(y, x, &cur) != OK || getcchar(&cur, got, &a, &pair, NULL) == ERR)
		return;
	/* blank, or the cursor line: free; anything else is a slice */
	if (got[0] != L' ' && got[0] != 0x2502 && got[0] != L'|')
		return;
	if (got[0] != L' ' && (a & A_REVERSE))
		return;
	wchar_t s[2] = {w, 0};
	attr_t fa = ATTR(TT_AREA_CURSOR) | A_BOLD;
	setcchar(&cc, s, fa & ~A_COLOR, (short)PAIR_NUMBER(fa), NULL);
	mvadd_wch(y, x, &cc);
}

static void connect(const tt_view *v, int ya, int ca, int yb, int cb)
{
	int u = v->utf8;
	int x0 = v->tl_x;

	if (ca < -1 || ca > v->tl_w || cb < 0 || cb >= v->tl_w)
		return;
	if (ya == yb) {
		int lo = ca < cb ? ca : cb, hi = ca < cb ? cb : ca;
		for (int c = lo + 1; c < hi; c++)
			put_free(v, ya, x0 + c, c == hi - 1 && cb > ca ? (u ? 0x2192 : '>') :
						  c == lo + 1 && cb < ca ? (u ? 0x2190 : '<') : (u ? 0x2500 : '-'));
		return;
	}
	int down = yb > ya;
	/* along the source row to the target's column, then to its row */
	int step = cb > ca ? 1 : -1;
	for (int c = ca + step; ca != cb && c != cb; c += step)
		put_free(v, ya, x0 + c, u ? 0x2500 : '-');
	if (cb != ca)
		put_free(v, ya, x0 + cb, u ? (down ? (step > 0 ? 0x256e : 0x256d) : (step > 0 ? 0x256f : 0x2570))
				      : '+');
	else
		put_free(v, ya, x0 + cb, u ? 0x2502 : '|');
	for (int y = ya + (down ? 1 : -1); y != yb; y += down ? 1 : -1)
		put_free(v, y, x0 + cb, y + (down ? 1 : -1) == yb ? (u ? (down ? 0x25bc : 0x25b2) : (down ? 'v' : '^'))
								 : (u ? 0x2502 : '|'));
}

/* Connectors drawn at most in a frame: past that many the screen is
 * covered anyway, and a slice with 100,000 flows must not cost a frame. */
#define MAX_CONNECTORS 512

void tt_flows_draw(const tt_view *v)
{
	if (!v->flows || !sel_is_core(v))
		return;
	size_t n = count_of(v->flows, v->sel_id);
	int ys = slice_row(v, v->sel_id), drawn = 0;
	if (ys < 0)
		return;
	int64_t w_end = tt_tm_add(v->t0, v->span);
	for (size_t i = 0; i < n && drawn < MAX_CONNECTORS; i++) {
		tt_flow_ref r = tt_flows_at(v->flows, v->sel_id, i);
		int64_t p = r.partner, from = r.out ? v->sel_id : p, to = r.out ? p : v->sel_id;
		/* both ends must be on screen: the times first (cheap), then
		 * the rows */
		int64_t end = v->sc.dur[from] >= 0 ? tt_tm_end(v->sc.ts[from], v->sc.dur[from]) : v->lay.end;
		int64_t fe = end > v->sc.ts[from] ? end - 1 : end;
		if (fe < v->t0 || fe >= w_end || v->sc.ts[to] < v->t0 || v->sc.ts[to] >= w_end)
			continue;
		int yf = from == v->sel_id ? ys : slice_row(v, from);
		int yt = to == v->sel_id ? ys : slice_row(v, to);
		if (yf < 0 || yt < 0)
			continue;
		/* Perfetto's arrow: from the end of the source to the start of
		 * the destination */
		int cf = tt_timefmt_col(fe, v->t0, v->span, v->tl_w);
		int ct = tt_timefmt_col(v->sc.ts[to], v->t0, v->span, v->tl_w);
		if (cf < 0 || cf >= v->tl_w || ct < 0 || ct >= v->tl_w)
			continue;
		connect(v, yf, cf, yt, ct);
		drawn++;
	}
}

int tt_flows_table(tt_view *v, tt_result *res, tt_flows_progress_fn progress, void *ctx)
{
	int64_t *ids;
	int *dist;
	long n;
	static const char *cols[] = {"slice_id", "hops", "ts", "dur", "name", "thread", "flows_in", "flows_out"};
	enum { NC = 8 };

	memset(res, 0, sizeof *res);
	if (!sel_is_core(v))
		return -1;
	n = tt_flows_chain(v->flows, v->sel_id, &ids, &dist, progress, ctx);
	if (n <= 0)
		return n == -2 ? -2 : -1;
	res->ncols = NC;
	res->cols = calloc(NC, sizeof *res->cols);
	res->cells = calloc((size_t)n * NC, sizeof *res->cells);
	if (!res->cols || !res->cells) {
		free(ids);
		free(dist);
		return -1;
	}
	for (int c = 0; c < NC; c++)
		res->cols[c] = strdup(cols[c]);
	for (long i = 0; i < n; i++) {
		char buf[200];
		int64_t s = ids[i];
		if (progress && (i & 0xffff) == 0xffff && progress(ctx, (size_t)i, (size_t)n)) {
			res->nrows = (size_t)i;
			tt_result_free(res);
			free(ids);
			free(dist);
			return -2;
		}
		char **row = res->cells + (size_t)i * NC;
		const tt_flows *f = v->flows;
		snprintf(buf, sizeof buf, "%lld", (long long)s);
		row[0] = strdup(buf);
		snprintf(buf, sizeof buf, "%d", dist[i]);
		row[1] = strdup(buf);
		snprintf(buf, sizeof buf, "%lld", (long long)v->sc.ts[s]);
		row[2] = strdup(buf);
		snprintf(buf, sizeof buf, "%lld", (long long)v->sc.dur[s]);
		row[3] = strdup(buf);
		row[4] = strdup(tt_trace_str(v->tr, v->sc.name[s]));
		slice_where(v, s, buf, sizeof buf);
		row[5] = strdup(buf);
		snprintf(buf, sizeof buf, "%u", f->in_off[s + 1] - f->in_off[s]);
		row[6] = strdup(buf);
		snprintf(buf, sizeof buf, "%u", f->out_off[s + 1] - f->out_off[s]);
		row[7] = strdup(buf);
	}
	res->nrows = (size_t)n;
	free(ids);
	free(dist);
	return 0;
}

int tt_flows_action(tt_view *v, int action)
{
	size_t n = sel_is_core(v) ? count_of(v->flows, v->sel_id) : 0;

	if (n == 0) {
		tt_view_message(v, 1, v->sel_id < 0 ? "no slice selected" : "the selection has no flows");
		return TT_REDRAW;
	}
	switch (action) {
	case TT_ACT_FLOW_NEXT:
		tt_flows_pick(v, ((long)v->flow_pos + 1) % (long)n);
		break;
	case TT_ACT_FLOW_PREV:
		tt_flows_pick(v, ((long)v->flow_pos + (long)n - 1) % (long)n);
		break;
	case TT_ACT_FLOW_FOLLOW: {
		if (v->flow_pos < 0 || (size_t)v->flow_pos >= n)
			v->flow_pos = 0;
		int64_t from = v->sel_id, to = tt_flows_at(v->flows, v->sel_id, (size_t)v->flow_pos).partner;
		int rc = tt_view_select_slice(v, to);
		/* on the new slice, highlight the flow we came along */
		size_t m = count_of(v->flows, to);
		for (size_t i = 0; i < m; i++)
			if (tt_flows_at(v->flows, to, i).partner == from) {
				tt_flows_pick(v, (long)i);
				break;
			}
		tt_view_message(v, 0, "followed the flow to %s (id %lld); F again goes back",
				tt_trace_str(v->tr, v->sc.name[to]), (long long)to);
		return rc | TT_REDRAW;
	}
	case TT_ACT_FLOWS:
		v->report = action;
		return TT_OPEN_REPORT | TT_REDRAW;
	default:
		break;
	}
	return TT_REDRAW;
}
