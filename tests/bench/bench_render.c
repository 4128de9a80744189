/*
 * bench_render.c - headless render benchmark of the viewer (figures, not
 * pass/fail). For synthetic traces of 100k, 1M and 10M slices on 64
 * threads (8 processes x 8 threads, nested 3 deep), written as Chrome JSON
 * plus a process of 5,000 one-slice async tracks of one name,
 * and opened through tt_trace_open like any trace, it prints:
 *   - import time, level-of-detail/layout build time, first frame time
 *     (import-to-interactive = their sum);
 *   - frame time p50/p99 at whole-trace, mid and deepest zoom, for 80x24
 *     and 300x80, each frame = erase + draw + doupdate() into an ncurses
 *     screen opened with newterm() on /dev/null (TERM xterm-256color).
 * Target: p99 <= 5 ms at every zoom and size, no growth from 1M to 10M.
 * The floor beside each figure: ncurses alone sending the same two screens
 * to the terminal (wnoutrefresh + doupdate of the screens copied back in),
 * what any renderer of these screens pays; the ratio is frame / floor (CPU
 * p50); frame - floor is our drawing.
 *
 *   bench_render [N...]        default: 100000 1000000 10000000
 *   TT_BENCH_SIZES="100000 1000000" and TT_BENCH_FRAMES=200 also work;
 *   TT_BENCH_ONLY="300x80 groups open mid" runs the cases whose label
 *   ("WxH, screen, zoom") holds every word given (for profiling one case);
 *   TT_BENCH_SPAN=ns adds a zoom "span" of that many ns (e.g. 310112 on a
 *   100k trace draws screens like the mid zoom of 10M, in a second).
 * Each case's line ends with the machine's load average (a shared machine
 * makes wall times and tails noisy).
 * The trace file goes to $TMPDIR (about 75 bytes per slice) and is
 * removed at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <wchar.h>

#include "termtrace.h"
#include "theme.h"
#include "view.h"
#include "viewer.h"

/* The glyphs a UTF-8 terminal gets (as the viewer picks them from the
 * locale); TT_BENCH_ASCII=1 draws the ASCII ones. */
static int bench_utf8;

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *const names[] = {
	"RunTask", "Layout", "Paint", "V8.Execute", "ParseHTML", "UpdateLayer",
	"Commit", "RasterTask", "GC.Scavenge", "EventDispatch", "FunctionCall",
	"TimerFire", "Decode", "Composite", "BeginFrame", "Draw",
};

/* Writes n slices: per thread, blocks of 5 (a depth-0 slice holding two
 * depth-1 slices, each holding one depth-2 slice) with varying widths. */
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
	for (int p = 0; p < 8; p++) {
		fprintf(f, "{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"process_name\",\"args\":{\"name\":\"proc%d\"}},\n",
			100 + p, 100 + p, p);
		for (int t = 0; t < 8; t++)
			fprintf(f, "{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"thread_name\",\"args\":{\"name\":\"worker%d\"}},\n",
				100 + p, 1000 + p * 8 + t, t);
	}
	for (int th = 0; th < 64; th++) {
		int pid = 100 + th / 8, tid = 1000 + th;
		long t = 0; /* ns */
		for (long b = 0; b < per_thread; b++) {
			seed = seed * 1103515245u + 12345u;
			long unit = 200 + (seed >> 16) % 1800; /* 0.2 .. 2 us */
			long d0 = 8 * unit;
			const char *n0 = names[(seed >> 8) % 16];
			fprintf(f, "{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"ts\":%ld.%03ld,\"dur\":%ld.%03ld,\"name\":\"%s\",\"cat\":\"bench\"},\n",
				pid, tid, t / 1000, t % 1000, d0 / 1000, d0 % 1000, n0);
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
	/* a process with 5,000 one-slice async tracks of one name (as Chrome
	 * writes blink::Animation, one track per id): the viewer merges them
	 * into one track packed in rows */
	long len = per_thread * 8 * 200; /* within every thread's span */
	fprintf(f, "{\"ph\":\"M\",\"pid\":200,\"tid\":200,\"name\":\"process_name\",\"args\":{\"name\":\"anim\"}},\n");
	for (long k = 0; k < 5000; k++) {
		long ts = len / 5000 * k, dur = len / 500 + 1000;
		fprintf(f, "{\"ph\":\"b\",\"pid\":200,\"tid\":200,\"id\":\"0x%lx\",\"ts\":%ld.%03ld,\"name\":\"blink::Animation\",\"cat\":\"blink\"},\n"
			   "{\"ph\":\"e\",\"pid\":200,\"tid\":200,\"id\":\"0x%lx\",\"ts\":%ld.%03ld,\"name\":\"blink::Animation\",\"cat\":\"blink\"},\n",
			k + 1, ts / 1000, ts % 1000, k + 1, (ts + dur) / 1000, (ts + dur) % 1000);
	}
	/* a closing event without a trailing comma */
	fputs("{\"ph\":\"M\",\"pid\":100,\"tid\":100,\"name\":\"thread_name\",\"args\":{\"name\":\"main\"}}\n]}\n", f);
	return fclose(f);
}

/* Whether the case "WxH, screen, zoom" is asked for (TT_BENCH_ONLY). */
static int case_wanted(int cols, int rows, const char *screen, const char *zoom)
{
	const char *only = getenv("TT_BENCH_ONLY");
	char label[160], word[64];

	if (!only || !*only)
		return 1;
	snprintf(label, sizeof label, "%dx%d, %s, %s", cols, rows, screen, zoom);
	for (const char *p = only; *p;) {
		int n = 0;
		while (*p == ' ')
			p++;
		while (*p && *p != ' ' && n < (int)sizeof word - 1)
			word[n++] = *p++;
		word[n] = 0;
		if (n && !strstr(label, word))
			return 0;
	}
	return 1;
}

static double load1(void)
{
	double l[1] = {0};

	return getloadavg(l, 1) == 1 ? l[0] : -1;
}

/* Attribute changes a screen asks of the terminal: cells whose colour
 * pair or attributes differ from the cell before them, in the order
 * ncurses writes them (row by row). Each costs an SGR escape (two
 * tparm() calls for a colour pair, more with bold/underline), most of
 * what ncurses spends on a dense screen. */
static long attr_changes(const cchar_t *scr)
{
	long n = 0;
	attr_t pa = 0;
	short pp = -1;

	for (long i = 0; i < (long)LINES * COLS; i++) {
		wchar_t wc[CCHARW_MAX + 1];
		attr_t a;
		short p;
		getcchar(&scr[i], wc, &a, &p, NULL);
		a &= ~A_COLOR;
		if (a != pa || p != pp)
			n++;
		pa = a;
		pp = p;
	}
	return n;
}

/* TT_BENCH_DUMP=file: appends a case's first screen, as text, then as
 * one letter per colour pair (for looking at what a case draws). */
static void dump_screen(const char *label, const cchar_t *scr)
{
	const char *path = getenv("TT_BENCH_DUMP");
	FILE *f;

	if (!path || !*path || !(f = fopen(path, "a")))
		return;
	fprintf(f, "== %s\n", label);
	for (int pass = 0; pass < 2; pass++)
		for (int y = 0; y < LINES; y++) {
			for (int x = 0; x < COLS; x++) {
				wchar_t wc[CCHARW_MAX + 1];
				attr_t a;
				short p;
				getcchar(&scr[(size_t)y * COLS + x], wc, &a, &p, NULL);
				if (pass == 0)
					fprintf(f, "%lc", wc[0] ? (wint_t)wc[0] : L' ');
				else
					fputc(p < 26 ? 'a' + p : p < 52 ? 'A' + p - 26 : '#', f);
			}
			fputc('\n', f);
		}
	fclose(f);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Cells of the window that differ from scr (character, attributes or
 * colour pair). */
static long screen_diff(const cchar_t *scr)
{
	static cchar_t row[4096];
	long n = 0;

	for (int y = 0; y < LINES && COLS <= 4096; y++) {
		mvin_wchnstr(y, 0, row, COLS);
		for (int x = 0; x < COLS; x++) {
			wchar_t w1[CCHARW_MAX + 1], w2[CCHARW_MAX + 1];
			attr_t a1, a2;
			short p1, p2;
			getcchar(&row[x], w1, &a1, &p1, NULL);
			getcchar(&scr[(size_t)y * COLS + x], w2, &a2, &p2, NULL);
			n += a1 != a2 || p1 != p2 || w1[0] != w2[0];
		}
	}
	return n;
}

/* The floor of a frame: ncurses alone sending the same screens to the
 * terminal (the two screens the frames alternate between, copied back in
 * untimed, then wnoutrefresh + doupdate timed), i.e. what any renderer
 * of these screens through ncurses pays on top of its drawing. The copy
 * is made with the window's attributes cleared (wadd_wchnstr gives the
 * current attributes to cells of colour pair 0, which made the floor's
 * blank cells another colour than the frames'), and checked: a floor of
 * other screens than ours would say nothing. Returns the cells that
 * differed (0). */
static long floor_frames(cchar_t *scr[2], int frames, double *p50, double *p99)
{
	double *cpu = malloc((size_t)frames * sizeof *cpu);
	long differ = 0;

	for (int i = 0; i < frames; i++) {
		attrset(A_NORMAL);
		erase();
		for (int y = 0; y < LINES; y++)
			mvadd_wchnstr(y, 0, scr[i % 2] + (size_t)y * COLS, COLS);
		if (i < 2)
			differ += screen_diff(scr[i]);
		double ca = cpu_now();
		wnoutrefresh(stdscr);
		doupdate();
		cpu[i] = (cpu_now() - ca) * 1e3;
	}
	qsort(cpu, (size_t)frames, sizeof *cpu, cmp_double);
	*p50 = cpu[frames / 2];
	*p99 = cpu[frames * 99 / 100];
	free(cpu);
	return differ;
}

/* Renders frames at one zoom; prints p50/p99 in ms, and the floor's.
 * Alternates a small pan so that every frame changes what is on screen. */
static void run_frames(tt_view *v, const char *screen, const char *zoom, int64_t t0, int64_t span,
		       int frames)
{
	if (!case_wanted(COLS, LINES, screen, zoom))
		return;
	double *ms = malloc((size_t)frames * sizeof *ms);
	double *draw = malloc((size_t)frames * sizeof *draw);
	double *cpu = malloc((size_t)frames * sizeof *cpu);
	cchar_t *scr[2];

	for (int k = 0; k < 2; k++)
		scr[k] = calloc((size_t)LINES * COLS + 1, sizeof **scr);
	for (int i = 0; i < frames; i++) {
		int64_t shift = (i % 2) ? span / 64 : 0;
		tt_view_set_window(v, t0 + shift, span);
		v->cursor = v->t0 + v->span / 2;
		double a = now(), ca = cpu_now();
		/* as the viewer's frame (draw_frame): blank cells in the
		 * theme's default colours */
		bkgdset(' ' | (attr_t)tt_theme_attr(TT_AREA_DEFAULT));
		erase();
		tt_viewer_draw_timeline(v);
		draw[i] = (cpu_now() - ca) * 1e3;
		wnoutrefresh(stdscr);
		doupdate();
		ms[i] = (now() - a) * 1e3;
		cpu[i] = (cpu_now() - ca) * 1e3;
		if (i < 2)
			for (int y = 0; y < LINES; y++)
				mvin_wchnstr(y, 0, scr[i] + (size_t)y * COLS, COLS);
	}
	double f50, f99;
	char label[160];
	snprintf(label, sizeof label, "%dx%d, %s, %s", COLS, LINES, screen, zoom);
	dump_screen(label, scr[0]);
	long changes = (attr_changes(scr[0]) + attr_changes(scr[1])) / 2;
	long differ = floor_frames(scr, frames, &f50, &f99);
	if (differ)
		printf("    (the floor's screens differ from the frames' in %ld cells: its figure is off)\n", differ);
	qsort(cpu, (size_t)frames, sizeof *cpu, cmp_double);
	qsort(ms, (size_t)frames, sizeof *ms, cmp_double);
	qsort(draw, (size_t)frames, sizeof *draw, cmp_double);
	/* wall time includes other processes on a shared machine; thread CPU
	 * time is the frame's own cost */
	printf("    %-6s zoom: wall p50 %6.3f p99 %6.3f ms | cpu p50 %6.3f p99 %6.3f ms (target p99 <= 5) | "
	       "floor cpu p50 %6.3f p99 %6.3f ms, p50 ratio %.2f | draw cpu p50 %.3f ms (view %lld ns) | %ld SGR | load %.1f\n",
	       zoom, ms[frames / 2], ms[frames * 99 / 100], cpu[frames / 2], cpu[frames * 99 / 100], f50, f99,
	       f50 > 0 ? cpu[frames / 2] / f50 : 0, draw[frames / 2], (long long)v->span, changes, load1());
	free(ms);
	free(draw);
	free(cpu);
	free(scr[0]);
	free(scr[1]);
}

static void bench_size(long n, int frames)
{
	char path[512];
	const char *tmp = getenv("TMPDIR");
	tt_err err = {0};
	tt_view v;
	double a, t_gen, t_import, t_view, t_first;

	snprintf(path, sizeof path, "%s/tt-bench-render-%ld-%d.json", tmp && *tmp ? tmp : "/tmp", n,
		 (int)getpid());
	a = now();
	if (write_trace(path, n) != 0) {
		printf("cannot write %s\n", path);
		return;
	}
	t_gen = now() - a;
	a = now();
	tt_trace *tr = tt_trace_open(path, NULL, &err);
	t_import = now() - a;
	unlink(path);
	if (!tr) {
		printf("import failed: %s\n", err.msg);
		return;
	}
	a = now();
	if (tt_view_init(&v, tr) != 0) {
		printf("view init failed (out of memory)\n");
		tt_trace_close(tr);
		return;
	}
	v.utf8 = bench_utf8;
	t_view = now() - a;
	printf("%ld slices (%zu imported) on 64 threads: generate %.2f s, import %.2f s, LOD+layout %.3f s\n",
	       n, v.sc.n, t_gen, t_import, t_view);
	/* a selection, so that the details panel is part of every frame */
	if (v.sc.n > 0)
		tt_view_select_slice(&v, (int64_t)(v.sc.n / 2));
	static const int sizes[2][2] = {{24, 80}, {80, 300}};
	/* three screens: the first one (collapsed groups draw their process
	 * summary), every group open, and the merged async track on top */
	static const char *const screens[3] = {"first screen (summaries)", "groups open",
					       "merged 5,000 async tracks"};
	int merged_line = -1;
	for (int i = 0; i < v.lay.ntracks && merged_line < 0; i++)
		if (v.lay.tracks[i].nchildren)
			merged_line = i;
	for (int sc = 0; sc < 3; sc++)
	for (int s = 0; s < 2; s++) {
		resizeterm(sizes[s][0], sizes[s][1]);
		if (sc >= 1)
			for (int g = 0; g < v.lay.ngroups; g++)
				v.lay.groups[g].expanded = 1;
		tt_layout_relines(&v.lay);
		tt_view_geometry(&v, sizes[s][0], sizes[s][1]);
		v.line = 0;
		v.top = 0;
		if (sc == 2 && merged_line >= 0) {
			v.line = v.top = tt_layout_line_of(&v.lay, merged_line);
			if (v.top < 0)
				v.line = v.top = 0;
		}
		if (s == 0 && sc == 0) {
			tt_view_set_window(&v, v.lay.start, v.lay.end - v.lay.start);
			a = now();
			bkgdset(' ' | (attr_t)tt_theme_attr(TT_AREA_DEFAULT));
			erase();
			tt_viewer_draw_timeline(&v);
			wnoutrefresh(stdscr);
			doupdate();
			t_first = now() - a;
			printf("  first frame %.3f ms; import-to-interactive %.2f s\n", t_first * 1e3,
			       t_import + t_view + t_first);
		}
		printf("  %dx%d, %s:\n", sizes[s][1], sizes[s][0], screens[sc]);
		int64_t len = v.lay.end - v.lay.start;
		run_frames(&v, screens[sc], "whole", v.lay.start, len, frames);
		run_frames(&v, screens[sc], "mid", v.lay.start + len / 2, len / 1000 > v.tl_w ? len / 1000 : v.tl_w,
			   frames);
		run_frames(&v, screens[sc], "deep", v.lay.start + len / 2, v.tl_w, frames);
		if (getenv("TT_BENCH_SPAN") && atoll(getenv("TT_BENCH_SPAN")) > 0)
			run_frames(&v, screens[sc], "span", v.lay.start + len / 2, atoll(getenv("TT_BENCH_SPAN")), frames);
	}
	tt_view_free(&v);
	tt_trace_close(tr);
}

int main(int argc, char **argv)
{
	long sizes[16];
	int nsizes = 0, frames = 200;
	const char *env = getenv("TT_BENCH_SIZES");
	const char *out = getenv("TT_BENCH_OUT"); /* the terminal bytes, to look at */
	FILE *devnull_out = fopen(out && *out ? out : "/dev/null", "w"), *devnull_in = fopen("/dev/null", "r");
	SCREEN *scr;
	tt_theme th;

	if (getenv("TT_BENCH_FRAMES"))
		frames = atoi(getenv("TT_BENCH_FRAMES"));
	if (frames < 10)
		frames = 10;
	for (int i = 1; i < argc && nsizes < 16; i++)
		sizes[nsizes++] = atol(argv[i]);
	if (nsizes == 0 && env)
		for (char *e = (char *)env; *e && nsizes < 16;) {
			char *end;
			long v = strtol(e, &end, 10);
			if (end == e)
				break;
			sizes[nsizes++] = v;
			e = end;
			while (*e == ' ' || *e == ',')
				e++;
		}
	if (nsizes == 0) {
		sizes[0] = 100000;
		sizes[1] = 1000000;
		sizes[2] = 10000000;
		nsizes = 3;
	}
	if (!devnull_out || !devnull_in)
		return 1;
	/* a UTF-8 locale, as most terminals have, unless asked otherwise */
	if (!getenv("TT_BENCH_ASCII") || !*getenv("TT_BENCH_ASCII")) {
		const char *cs;
		if (!setlocale(LC_ALL, "") || !(cs = nl_langinfo(CODESET)) ||
		    (strcmp(cs, "UTF-8") && strcmp(cs, "utf8")))
			setlocale(LC_ALL, "C.UTF-8");
		cs = nl_langinfo(CODESET);
		bench_utf8 = cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
	}
	scr = newterm("xterm-256color", devnull_out, devnull_in);
	if (!scr) {
		fprintf(stderr, "bench_render: newterm failed (no xterm-256color terminfo?)\n");
		return 1;
	}
	set_term(scr);
	start_color();
	use_default_colors();
	tt_theme_load(&th, "dark", NULL, NULL);
	tt_theme_apply(&th, COLORS);
	/* results go to stdout, which newterm does not use here */
	printf("bench_render: headless ncurses (newterm on /dev/null, %d colours, %s glyphs), %d frames per case; "
	       "load %.1f\n",
	       COLORS, bench_utf8 ? "UTF-8" : "ASCII", frames, load1());
	for (int i = 0; i < nsizes; i++) {
		bench_size(sizes[i], frames);
		fflush(stdout);
	}
	endwin();
	delscreen(scr);
	fclose(devnull_out);
	fclose(devnull_in);
	return 0;
}
