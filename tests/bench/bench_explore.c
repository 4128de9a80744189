/*
 * bench_explore.c - figures of issue 14 (not pass/fail): what ran in a
 * range, and frames with a range, flows and marks on screen.
 *  - aggregation of a range holding every slice (1M: target <= 100 ms),
 *    call tree top-down and bottom-up (1M: <= 300 ms, 10M: <= 3 s), on
 *    in-memory slice columns shaped like a trace (64 threads, blocks of a
 *    depth-0 slice holding two depth-1 slices each holding a depth-2 one,
 *    16 names); the floor is one pass that sums the clipped durations per
 *    name over the same columns (an array indexed by name id: the least
 *    any aggregation must do);
 *  - frame p50/p99 with a range over a third of the trace, a selection
 *    with flows (connector and partners), 26 marks, at 80x24 and 300x80,
 *    on a Chrome JSON trace of N slices with flows between threads
 *    (target p99 <= 5 ms at 10M slices);
 *  - the call tree beside the timeline (Z): a move of its cursor (the
 *    node's slices found and highlighted on the timeline), and frames
 *    with it docked and a node highlighted, against the same frames with
 *    the details panel in its place.
 *
 *   bench_explore [N...]     default 1000000 10000000
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <curses.h>

#include "aggregate.h"
#include "calltree.h"
#include "marks.h"
#include "range.h"
#include "report.h"
#include "termtrace.h"
#include "theme.h"
#include "view.h"
#include "viewer.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* ---- in-memory columns ---------------------------------------------------- */
typedef struct cols {
	tt_slice_cols sc;
	int64_t *ts, *dur;
	uint32_t *track, *name, *depth, *zero;
	int32_t *parent;
	int64_t end;
} cols;

static void make_cols(cols *c, long n)
{
	long per = n / 64 / 5 * 5, k = 0;
	unsigned seed = 12345;

	c->ts = malloc((size_t)n * 8);
	c->dur = malloc((size_t)n * 8);
	c->track = malloc((size_t)n * 4);
	c->name = malloc((size_t)n * 4);
	c->depth = malloc((size_t)n * 4);
	c->zero = calloc((size_t)n, 4);
	c->parent = malloc((size_t)n * 4);
	c->end = 0;
	for (int th = 0; th < 64; th++) {
		int64_t t = 0;
		for (long b = 0; b < per / 5; b++) {
			seed = seed * 1103515245u + 12345u;
			int64_t unit = 200 + (seed >> 16) % 1800;
			long p0 = k;
			c->ts[k] = t, c->dur[k] = 8 * unit, c->track[k] = (uint32_t)th;
			c->name[k] = (seed >> 8) % 16, c->depth[k] = 0, c->parent[k] = -1, k++;
			for (int j = 0; j < 2; j++) {
				int64_t s1 = t + unit / 2 + j * 4 * unit;
				long p1 = k;
				c->ts[k] = s1, c->dur[k] = 3 * unit, c->track[k] = (uint32_t)th;
				c->name[k] = (uint32_t)((b + j + 3) % 16), c->depth[k] = 1, c->parent[k] = (int32_t)p0, k++;
				c->ts[k] = s1 + unit, c->dur[k] = unit, c->track[k] = (uint32_t)th;
				c->name[k] = (uint32_t)((b * 7 + j) % 16), c->depth[k] = 2, c->parent[k] = (int32_t)p1, k++;
			}
			t += 8 * unit + unit * (int64_t)((seed >> 4) % 3);
		}
		if (t > c->end)
			c->end = t;
	}
	c->sc = (tt_slice_cols){(size_t)k, c->ts, c->dur, c->track, c->name, c->zero, c->depth, c->parent, c->zero};
}

static void free_cols(cols *c)
{
	free(c->ts);
	free(c->dur);
	free(c->track);
	free(c->name);
	free(c->depth);
	free(c->zero);
	free(c->parent);
}

/* The floor: clipped wall per name, one pass, a direct array. */
static int64_t floor_pass(const cols *c, int64_t a, int64_t b)
{
	int64_t wall[16] = {0}, sum = 0;

	for (size_t i = 0; i < c->sc.n; i++) {
		int64_t s = c->ts[i], e = s + c->dur[i];
		if (s >= b || e <= a)
			continue;
		wall[c->name[i] & 15] += (e < b ? e : b) - (s > a ? s : a);
	}
	for (int i = 0; i < 16; i++)
		sum += wall[i];
	return sum;
}

/* Best of reps: wall and thread CPU time of fn, in ms. */
typedef struct best {
	double wall, cpu;
} best;

static void take(best *b, double wall, double cpu)
{
	if (wall < b->wall)
		b->wall = wall;
	if (cpu < b->cpu)
		b->cpu = cpu;
}

static void bench_builders(long n)
{
	cols c;
	tt_agg g = {0};
	tt_calltree ct;
	best fl = {1e9, 1e9}, ag = {1e9, 1e9}, td = {1e9, 1e9}, bu = {1e9, 1e9};
	int reps = n > 2000000 ? 3 : 5;
	volatile int64_t sink = 0;
	double w, cp;

	make_cols(&c, n);
	/* a range a little inside the trace: every slice but the edges' */
	int64_t a = 1000, b = c.end - 1000;
	for (int r = 0; r < reps; r++) {
		w = now(), cp = cpu_now();
		sink += floor_pass(&c, a, b);
		take(&fl, now() - w, cpu_now() - cp);
		w = now(), cp = cpu_now();
		tt_agg_slices(&g, &c.sc, NULL, 64, a, b, c.end);
		take(&ag, now() - w, cpu_now() - cp);
		w = now(), cp = cpu_now();
		tt_calltree_build(&ct, &c.sc, NULL, 64, a, b, c.end, 0, 0, NULL, NULL);
		take(&td, now() - w, cpu_now() - cp);
		tt_calltree_free(&ct);
		w = now(), cp = cpu_now();
		tt_calltree_build(&ct, &c.sc, NULL, 64, a, b, c.end, 0, 1, NULL, NULL);
		take(&bu, now() - w, cpu_now() - cp);
		tt_calltree_free(&ct);
	}
	(void)sink;
	printf("%zu slices in the range (best of %d; wall | thread CPU):\n", g.nslices, reps);
	printf("  floor (one pass, clipped wall per name)  %8.1f | %8.1f ms\n", fl.wall * 1e3, fl.cpu * 1e3);
	printf("  aggregation by name                      %8.1f | %8.1f ms  (%.1fx the floor; target %s)\n",
	       ag.wall * 1e3, ag.cpu * 1e3, ag.cpu / fl.cpu, n <= 1000000 ? "<= 100 ms at 1M" : "-");
	printf("  call tree, top-down                      %8.1f | %8.1f ms  (%.1fx the floor; target %s)\n",
	       td.wall * 1e3, td.cpu * 1e3, td.cpu / fl.cpu, n <= 1000000 ? "<= 300 ms at 1M" : "<= 3 s at 10M");
	printf("  call tree, bottom-up                     %8.1f | %8.1f ms  (%.1fx the floor)\n", bu.wall * 1e3,
	       bu.cpu * 1e3, bu.cpu / fl.cpu);
	tt_agg_free(&g);
	free_cols(&c);
}

/* ---- frames with a range, flows and marks ----------------------------------- */
static const char *const names[] = {
	"RunTask", "Layout", "Paint", "V8.Execute", "ParseHTML", "UpdateLayer",
	"Commit", "RasterTask", "GC.Scavenge", "EventDispatch", "FunctionCall",
	"TimerFire", "Decode", "Composite", "BeginFrame", "Draw",
};

/* Like bench_render's trace; every 16th depth-0 slice sends a flow
 * (bind_id) to the depth-0 slice of the same block on the next thread. */
static int write_trace(const char *path, long n)
{
	FILE *f = fopen(path, "w");
	long per_thread = n / 64 / 5;
	unsigned seed = 12345;
	static char buf[1 << 20];

	if (!f)
		return -1;
	setvbuf(f, buf, _IOFBF, sizeof buf);
	fputs("{\"traceEvents\":[\n", f);
	for (int th = 0; th < 64; th++) {
		int pid = 100 + th / 8, tid = 1000 + th;
		long t = 0;
		for (long b = 0; b < per_thread; b++) {
			seed = seed * 1103515245u + 12345u;
			long unit = 200 + (seed >> 16) % 1800;
			long d0 = 8 * unit;
			char flow[96] = "";
			if (b % 16 == 0) {
				int in = th > 0, out = th < 63;
				snprintf(flow, sizeof flow, "%s%s%s", in || out ? ",\"bind_id\":" : "", "", "");
				if (out && in)
					snprintf(flow, sizeof flow, ",\"bind_id\":%ld,\"flow_in\":true,\"flow_out\":true", b);
				else if (out)
					snprintf(flow, sizeof flow, ",\"bind_id\":%ld,\"flow_out\":true", b);
				else
					snprintf(flow, sizeof flow, ",\"bind_id\":%ld,\"flow_in\":true", b);
			}
			fprintf(f, "{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"ts\":%ld.%03ld,\"dur\":%ld.%03ld,\"name\":\"%s\",\"cat\":\"bench\"%s},\n",
				pid, tid, t / 1000, t % 1000, d0 / 1000, d0 % 1000, names[(seed >> 8) % 16], flow);
			for (int k = 0; k < 2; k++) {
				long s1 = t + unit / 2 + k * 4 * unit, d1 = 3 * unit;
				long s2 = s1 + unit, d2 = unit;
				fprintf(f, "{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"ts\":%ld.%03ld,\"dur\":%ld.%03ld,\"name\":\"%s\",\"cat\":\"bench\"},\n",
					pid, tid, s1 / 1000, s1 % 1000, d1 / 1000, d1 % 1000, names[(b + k + 3) % 16]);
				fprintf(f, "{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"ts\":%ld.%03ld,\"dur\":%ld.%03ld,\"name\":\"%s\",\"cat\":\"bench\"},\n",
					pid, tid, s2 / 1000, s2 % 1000, d2 / 1000, d2 % 1000, names[(b * 7 + k) % 16]);
			}
			t += d0 + unit * (long)((seed >> 4) % 3);
		}
	}
	fputs("{\"ph\":\"M\",\"pid\":100,\"tid\":100,\"name\":\"thread_name\",\"args\":{\"name\":\"main\"}}\n]}\n", f);
	return fclose(f);
}

/* p99 of frame CPU time (ms); *p50 gets the median. Wall time on a
 * shared machine holds the other jobs' time slices: CPU time is the
 * frame's own cost. */
static double frames_p99(tt_view *v, int64_t t0, int64_t span, int frames, double *p50)
{
	double *ms = malloc((size_t)frames * sizeof *ms), p99;

	for (int i = 0; i < frames; i++) {
		int64_t shift = (i % 2) ? span / 64 : 0;
		tt_view_set_window(v, t0 + shift, span);
		double a = cpu_now();
		erase();
		tt_viewer_draw_timeline(v);
		wnoutrefresh(stdscr);
		doupdate();
		ms[i] = (cpu_now() - a) * 1e3;
	}
	qsort(ms, (size_t)frames, sizeof *ms, cmp_double);
	*p50 = ms[frames / 2];
	p99 = ms[frames * 99 / 100];
	free(ms);
	return p99;
}

/* The same frames with the range, flows and marks, and without them
 * (the peer: the plain timeline in the same run). */
static void run_frames(tt_view *v, const char *zoom, int64_t t0, int64_t span, int frames)
{
	double p50, b50, p99 = frames_p99(v, t0, span, frames, &p50);
	int has_range = v->has_range;
	int64_t sel = v->sel_id;
	int sel_track = v->sel_track;
	struct tt_marks *marks = v->marks;

	v->has_range = 0;
	v->sel_id = -1;
	v->marks = NULL;
	double b99 = frames_p99(v, t0, span, frames, &b50);
	v->has_range = has_range;
	v->sel_id = sel;
	v->sel_track = sel_track;
	v->marks = marks;
	printf("    %-6s zoom: cpu p50 %6.3f p99 %6.3f ms (target p99 <= 5 ms) | plain timeline p50 %6.3f p99 %6.3f ms | p99 ratio %.2f\n",
	       zoom, p50, p99, b50, b99, b99 > 0 ? p99 / b99 : 0);
}

/* The call tree of the range docked beside the timeline: cursor moves
 * (each highlights the node's slices), then frames with it, against the
 * same frames with the details panel (its peer). */
static void bench_dock(tt_view *v, int64_t t0, int64_t span, int frames)
{
	tt_report *rep = NULL;
	tt_result res;
	char title[256];
	double ms[16], p50, b50;

	v->report = TT_ACT_CALLTREE;
	if (tt_report_open(&rep, v, &res, title, sizeof title) < 0) {
		printf("    call tree: %s\n", v->msg);
		return;
	}
	tt_result_free(&res);
	double b99 = frames_p99(v, t0, span, frames, &b50);
	int dh = v->details_h; /* the dock makes the panel 12 rows at least */
	tt_report_dock(rep, v, NULL);
	/* Down through the first rows: the first move indexes the tree's
	 * slices by node (once), the others cost their node's slices */
	for (int k = 0; k < 16; k++) {
		double a = cpu_now();
		tt_report_panel_key(v, KEY_DOWN);
		ms[k] = (cpu_now() - a) * 1e3;
	}
	double first = ms[0];
	qsort(ms + 1, 15, sizeof *ms, cmp_double);
	printf("    docked call tree: a cursor move highlights the node's slices (%zu matches at the last): first %.1f ms (indexes the tree), then cpu median %.2f ms, max %.2f ms\n",
	       v->nmatches, first, ms[8], ms[15]);
	double p99 = frames_p99(v, t0, span, frames, &p50);
	printf("    whole  zoom, docked tree + highlight: cpu p50 %6.3f p99 %6.3f ms | details panel instead p50 %6.3f p99 %6.3f ms | p99 ratio %.2f\n",
	       p50, p99, b50, b99, b99 > 0 ? p99 / b99 : 0);
	v->dock = NULL;
	v->dock_focus = 0;
	tt_view_search(v, "");
	tt_report_free(rep);
	v->details_h = dh;
	tt_view_geometry(v, v->rows, v->cols);
}

static void bench_frames(long n, int frames)
{
	char path[512];
	const char *tmp = getenv("TMPDIR");
	tt_err err = {0};
	tt_view v;

	snprintf(path, sizeof path, "%s/tt-bench-explore-%ld-%d.json", tmp && *tmp ? tmp : "/tmp", n, (int)getpid());
	if (write_trace(path, n) != 0) {
		printf("cannot write %s\n", path);
		return;
	}
	double t = now();
	tt_trace *tr = tt_trace_open(path, NULL, &err);
	unlink(path);
	if (!tr) {
		printf("import failed: %s\n", err.msg);
		return;
	}
	double t_import = now() - t;
	t = now();
	if (tt_view_init(&v, tr) != 0) {
		printf("view init failed\n");
		tt_trace_close(tr);
		return;
	}
	tt_flow_cols fc;
	tt_trace_flows(tr, &fc);
	printf("%zu slices, %zu flows: import %.2f s, view (LOD, layout, flow index) %.3f s\n", v.sc.n, fc.n,
	       t_import, now() - t);
	/* a selection with flows, in the middle */
	int64_t sel = -1;
	for (size_t i = 0; i < fc.n && sel < 0; i++)
		if (fc.slice_out[i] >= 0 && v.sc.ts[fc.slice_out[i]] > v.lay.start + (v.lay.end - v.lay.start) / 2)
			sel = fc.slice_out[i];
	int64_t len = v.lay.end - v.lay.start, mid = v.lay.start + len / 2;
	static const int sizes[2][2] = {{24, 80}, {80, 300}};
	for (int s = 0; s < 2; s++) {
		resizeterm(sizes[s][0], sizes[s][1]);
		tt_view_geometry(&v, sizes[s][0], sizes[s][1]);
		if (sel >= 0)
			tt_view_select_slice(&v, sel);
		v.cursor = mid;
		/* marks over the trace, then a range over its middle third (the
		 * range panel replaces the details: its aggregation is cached) */
		for (int m = 0; m < 26; m++) {
			int64_t keep = v.sel_id;
			v.sel_id = -1;
			v.cursor = v.lay.start + len * m / 26;
			tt_marks_set(&v, 'a' + m);
			v.sel_id = keep;
		}
		v.cursor = mid;
		tt_range_set(&v, v.lay.start + len / 3, v.lay.start + 2 * len / 3);
		v.line = 0;
		v.top = 0;
		printf("  %dx%d, range over a third, selection with flows, 26 marks:\n", sizes[s][1], sizes[s][0]);
		double a = now();
		erase();
		tt_viewer_draw_timeline(&v);
		printf("    first frame with the range (aggregates it once): %.1f ms\n", (now() - a) * 1e3);
		run_frames(&v, "whole", v.lay.start, len, frames);
		int64_t ts = sel >= 0 ? v.sc.ts[sel] : mid;
		/* both ends of the flow on screen: the connector is drawn */
		run_frames(&v, "flow", ts - 20000, 80000, frames);
		run_frames(&v, "deep", mid, v.tl_w, frames);
		/* a new short range (a mouse drag at a closer zoom): the
		 * frame that aggregates it */
		if (s == 0) {
			double ms[10];
			for (int k = 0; k < 10; k++) {
				tt_range_set(&v, mid + (k + 1) * (len / 1000), mid + (k + 2) * (len / 1000));
				a = cpu_now();
				erase();
				tt_viewer_draw_timeline(&v);
				ms[k] = (cpu_now() - a) * 1e3;
			}
			qsort(ms, 10, sizeof *ms, cmp_double);
			printf("    a new range of 1/1000 of the trace (~%ld slices), 10 of them: the frame that aggregates it, cpu median %.2f ms, max %.2f ms\n",
			       (long)(v.sc.n / 1000), ms[5], ms[9]);
			tt_range_set(&v, v.lay.start + len / 3, v.lay.start + 2 * len / 3);
		}
		bench_dock(&v, v.lay.start, len, frames);
	}
	tt_view_free(&v);
	tt_trace_close(tr);
}

int main(int argc, char **argv)
{
	long sizes[16];
	int nsizes = 0, frames = 200;
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	SCREEN *scr;
	tt_theme th;

	for (int i = 1; i < argc && nsizes < 16; i++)
		sizes[nsizes++] = atol(argv[i]);
	if (nsizes == 0) {
		sizes[0] = 1000000;
		sizes[1] = 10000000;
		nsizes = 2;
	}
	if (!out || !in)
		return 1;
	printf("bench_explore: range aggregation and call trees (in-memory columns), frames with a range,\n"
	       "flows and marks (headless ncurses); machine shared with other jobs: figures are noisy\n");
	for (int i = 0; i < nsizes; i++) {
		bench_builders(sizes[i]);
		fflush(stdout);
	}
	scr = newterm("xterm-256color", out, in);
	if (!scr)
		return 1;
	set_term(scr);
	start_color();
	use_default_colors();
	tt_theme_load(&th, "dark", NULL, NULL);
	tt_theme_apply(&th, COLORS);
	for (int i = 0; i < nsizes; i++) {
		bench_frames(sizes[i], frames);
		fflush(stdout);
	}
	endwin();
	delscreen(scr);
	fclose(out);
	fclose(in);
	return 0;
}
