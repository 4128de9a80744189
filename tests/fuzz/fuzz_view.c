/*
 * fuzz_view.c - libFuzzer target: the viewer's state and drawing (tui/view.c,
 * layout.c, lod.c, timeline.c, details.c, timefmt.c, timemath.c) on a
 * headless ncurses screen (newterm on /dev/null), so that a time span that
 * overflows, a loop that runs in proportion to a span, or a cell mapping
 * that goes out of the screen is found here and not by a user whose
 * viewer stops answering.
 *
 * The input is read as a byte stream:
 *
 *   byte      number of trace events (0..47), then per event:
 *   byte      kind: X, B, E, i (instant), C (counter), M (thread name)
 *   byte      thread (1..6)
 *   time      ts in ns (see below), then for X a duration
 *   rest      operations, at most 96: every key-table action, windows set
 *             to any int64 t0/span, :goto to any time, a resize to any size
 *             (1..255 x 1..255), a search, a track filter; each followed
 *             by a frame drawn into the virtual screen
 *
 * A time is one selector byte then, for some selectors, 8 bytes: 0, the
 * int64 limits, +-2^53 us, 2^62, a small value, or any 64 bits. The
 * events become a Chrome JSON trace (ts and dur in us with 3 decimals,
 * exact to the ns) opened through tt_trace_open, as the viewer does; the
 * JSON importer may drop events it finds out of range, so the view's own
 * clamps are also driven directly through tt_view_set_window/goto.
 *
 * After each operation the window must stay a real window: span > 0 and
 * t0 + span representable; otherwise abort() (libFuzzer reports it).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <curses.h>

#include "details.h"
#include "termtrace.h"
#include "view.h"
#include "viewer.h"

#define MAX_EVENTS 48
#define MAX_OPS 96

static int trace_fd = -1;
static char trace_path[64];
static SCREEN *scr;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setenv("TT_DESCRIPTIONS_PATH", "", 1); /* no rule files: faster open */
	snprintf(trace_path, sizeof(trace_path), "/tmp/tt-fuzz-view-XXXXXX");
	trace_fd = mkstemp(trace_path);
	if (trace_fd < 0)
		abort();
	/* unlinked at once and read through /proc/self/fd: nothing is left
	 * in /tmp whatever way the fuzzer ends */
	unlink(trace_path);
	snprintf(trace_path, sizeof(trace_path), "/proc/self/fd/%d", trace_fd);
	/* the headless screen: ncurses draws into its virtual screen; the
	 * terminal is /dev/null */
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	if (!out || !in)
		abort();
	scr = newterm("xterm", out, in);
	if (!scr)
		scr = newterm("dumb", out, in);
	if (!scr)
		abort();
	set_term(scr);
	return 0;
}

typedef struct input {
	const uint8_t *p;
	size_t n;
} input;

static uint8_t u8(input *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static int64_t i64(input *in)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | u8(in);
	return (int64_t)v;
}

static int64_t a_time(input *in)
{
	switch (u8(in) % 10) {
	case 0: return 0;
	case 1: return INT64_MAX;
	case 2: return INT64_MIN + 1;
	case 3: return INT64_C(9007199254740992000); /* 2^53 us */
	case 4: return -INT64_C(9007199254740992000);
	case 5: return INT64_C(1) << 62;
	case 6: return (int64_t)u8(in) * 1000;
	case 7: return (int64_t)(int8_t)u8(in) * 1000000;
	default: return i64(in);
	}
}

/* ns as microseconds with 3 decimals: exact, as the JSON importer reads */
static int put_us(char *buf, size_t n, int64_t ns)
{
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;

	return snprintf(buf, n, "%s%llu.%03llu", ns < 0 ? "-" : "", (unsigned long long)(a / 1000),
			(unsigned long long)(a % 1000));
}

/* Writes the JSON trace of the events at the head of the input. */
static int write_trace(input *in)
{
	static char json[MAX_EVENTS * 160 + 64];
	size_t o = 0;
	int nev = u8(in) % MAX_EVENTS;

	o += (size_t)snprintf(json + o, sizeof json - o, "{\"traceEvents\":[");
	for (int i = 0; i < nev; i++) {
		int kind = u8(in) % 6, tid = 1 + u8(in) % 6;
		char ts[40], dur[40];
		put_us(ts, sizeof ts, a_time(in));
		if (i)
			json[o++] = ',';
		switch (kind) {
		case 0: {
			int64_t d = a_time(in);
			put_us(dur, sizeof dur, d < 0 ? 0 : d);
			o += (size_t)snprintf(json + o, sizeof json - o,
					      "{\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"ts\":%s,\"dur\":%s,\"name\":\"x%d\"}",
					      tid, ts, dur, i % 5);
			break;
		}
		case 1:
		case 2:
			o += (size_t)snprintf(json + o, sizeof json - o,
					      "{\"ph\":\"%c\",\"pid\":1,\"tid\":%d,\"ts\":%s,\"name\":\"b%d\"}",
					      kind == 1 ? 'B' : 'E', tid, ts, i % 3);
			break;
		case 3:
			o += (size_t)snprintf(json + o, sizeof json - o,
					      "{\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":%d,\"ts\":%s,\"name\":\"i\"}",
					      tid, ts);
			break;
		case 4:
			o += (size_t)snprintf(json + o, sizeof json - o,
					      "{\"ph\":\"C\",\"pid\":1,\"ts\":%s,\"name\":\"c\",\"args\":{\"v\":%d}}",
					      ts, (int)(int8_t)u8(in));
			break;
		default:
			o += (size_t)snprintf(json + o, sizeof json - o,
					      "{\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"name\":\"thread_name\","
					      "\"args\":{\"name\":\"t%d\"}}",
					      tid, tid);
			break;
		}
	}
	o += (size_t)snprintf(json + o, sizeof json - o, "]}");
	if (ftruncate(trace_fd, 0) != 0 || pwrite(trace_fd, json, o, 0) != (ssize_t)o)
		abort();
	return 0;
}

static void check_window(const tt_view *v)
{
	if (v->span <= 0 || v->t0 > INT64_MAX - v->span || v->tl_w < 1)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	input in = {data, size};
	tt_err err = {0};
	tt_view v;

	write_trace(&in);
	tt_trace *tr = tt_trace_open(trace_path, NULL, &err);
	if (!tr)
		return 0;
	resize_term(24, 80);
	if (tt_view_init(&v, tr) < 0) {
		tt_trace_close(tr);
		return 0;
	}
	v.utf8 = 1;
	tt_view_geometry(&v, LINES, COLS);
	check_window(&v);
	erase();
	tt_viewer_draw_timeline(&v);
	for (int op = 0; op < MAX_OPS && in.n; op++) {
		uint8_t k = u8(&in);
		int flags = 0;
		if (k < 160) {
			int act = 1 + k % (TT_ACT_COUNT - 1);
			if (act == TT_ACT_OPEN_LINK || act == TT_ACT_COPY_LINK)
				continue; /* they start a browser / write to the tty */
			flags = tt_view_action(&v, act);
			if (flags & TT_QUIT)
				continue; /* the viewer would stop here; go on */
		} else if (k < 180) {
			int64_t t0 = a_time(&in), span = a_time(&in);
			tt_view_set_window(&v, t0, span);
		} else if (k < 200) {
			flags = tt_view_goto(&v, a_time(&in));
		} else if (k < 215) {
			int rows = 1 + u8(&in), cols = 1 + u8(&in);
			resize_term(rows, cols);
			tt_view_geometry(&v, LINES, COLS);
		} else if (k < 230) {
			static const char *const words[] = {"", "x", "b1", "i", "zz"};
			tt_view_search(&v, words[u8(&in) % 5]);
			flags = TT_SEL_CHANGED;
		} else if (k < 240) {
			tt_view_filter(&v, u8(&in) % 2 ? "t1" : "");
		} else {
			/* a click: the slice under a line and a column */
			int line = u8(&in), x = u8(&in);
			if (v.lay.nlines > 0) {
				line %= v.lay.nlines;
				int64_t id = tt_view_slice_at(&v, line, tt_view_col_time(&v, x));
				if (id >= 0 && v.lay.lines[line].track >= 0)
					flags = tt_view_select(&v, v.lay.lines[line].track, id);
			}
		}
		check_window(&v);
		if (flags & TT_SEL_CHANGED)
			tt_details_fetch(&v);
		erase();
		tt_viewer_draw_timeline(&v);
	}
	tt_view_free(&v);
	tt_trace_close(tr);
	return 0;
}
