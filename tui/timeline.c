/*
 * timeline.c - ruler, group headers, slice rows, counter bars, markers
 * (see timeline.h). Every colour comes from the theme by area.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curses.h>

#include "flows.h"
#include "marks.h"
#include "range.h"
#include "timefmt.h"
#include "timemath.h"
#include "timeline.h"
#include "tracktree.h"

#define ATTR(a) ((attr_t)tt_theme_attr(a))

/* Single-cell glyphs as prepared wide characters, written with
 * mvhline_set(): no multibyte conversion as mvaddstr() does for every
 * cell, nor the checks mvadd_wch() makes of what it adds (about 180
 * instructions a glyph instead of 250: a frame at whole zoom writes
 * thousands). */
enum { G_VLINE, G_OPEN, G_CLOSED, G_INSTANT, G_NARROW, G_CURSOR, G_ELLIPSIS, G_BUSY,
       G_RHALF, G_LHALF, G_BAR0, G_COUNT = G_BAR0 + 9 };

static const wchar_t utf8_codes[G_COUNT] = {
	0x2502, 0x25be, 0x25b8, 0x25c6, 0x258f, 0x25bc, 0x2026, 0x2591, 0x2590, 0x258c,
	' ', 0x2581, 0x2582, 0x2583, 0x2584, 0x2585, 0x2586, 0x2587, 0x2588,
};
static const wchar_t ascii_codes[G_COUNT] = {
	'|', 'v', '>', '*', '|', 'v', '~', ':', '[', ']',
	' ', '_', '_', '.', '.', '-', '=', '=', '#',
};

typedef struct glyphs {
	const char *open, *closed, *ellipsis; /* as text, for strings */
	cchar_t cc[G_COUNT];
} glyphs;

static const glyphs *get_glyphs(int utf8)
{
	static glyphs g[2];
	static int ready[2];

	utf8 = utf8 ? 1 : 0;
	if (!ready[utf8]) {
		for (int i = 0; i < G_COUNT; i++) {
			wchar_t w[2] = {utf8 ? utf8_codes[i] : ascii_codes[i], 0};
			setcchar(&g[utf8].cc[i], w, 0, 0, NULL);
		}
		g[utf8].open = utf8 ? "\xe2\x96\xbe" : "v";
		g[utf8].closed = utf8 ? "\xe2\x96\xb8" : ">";
		g[utf8].ellipsis = utf8 ? "\xe2\x80\xa6" : "~";
		ready[utf8] = 1;
	}
	return &g[utf8];
}

static void put_glyph(const glyphs *g, int y, int x, int which)
{
	mvhline_set(y, x, &g->cc[which], 1);
}

/* An item's name id when the caller does not have it from its row (the
 * row's copy, tt_lod_row.tag, saves reading the slices' name column at
 * random: a cache miss per slice drawn on a large trace). */
#define NO_NAME UINT32_MAX

/* Palette entry by interned name id (nm, or the slice's own when
 * NO_NAME): hashing the text once per name, not once per cell. */
static int palette_of(const tt_view *v, int track, int64_t id, uint32_t nm)
{
	static struct { uint32_t key; int pal; const tt_trace *tr; } cache[4096];

	if (v->lay.tracks[track].pnames)
		return tt_theme_palette(tt_view_item_name(v, track, id));
	uint32_t s = nm != NO_NAME ? nm : v->sc.name[id];
	size_t h = (s * 2654435761u) >> 20 & 4095;
	if (cache[h].tr != v->tr || cache[h].key != s + 1) {
		cache[h].tr = v->tr;
		cache[h].key = s + 1;
		cache[h].pal = tt_theme_palette(tt_trace_str(v->tr, s));
	}
	return cache[h].pal;
}

/* Writes n bytes of printable ASCII at (y, x) as mvaddnstr() would
 * render them (the window's attributes and background), as one chtype
 * string: mvaddnstr() converts and checks each character, some 300
 * instructions a cell, and every frame writes the track names. Returns 0
 * when it cannot (the text would reach past the line, where mvaddnstr()
 * wraps). */
static int put_ascii(int y, int x, const unsigned char *s, int n)
{
	chtype buf[256], a = (chtype)getattrs(stdscr), bk = getbkgd(stdscr);

	if (n > (int)(sizeof buf / sizeof *buf) || x < 0 || x + n > COLS)
		return 0;
	/* as ncurses renders a character: the background's attributes
	 * added, its colour where the window has none; a blank is the
	 * background's character */
	a = ((a | bk) & (A_ATTRIBUTES & ~A_COLOR)) | ((a & A_COLOR) ? a & A_COLOR : bk & A_COLOR);
	for (int i = 0; i < n; i++)
		buf[i] = (s[i] == ' ' ? (bk & A_CHARTEXT) : s[i]) | a;
	mvaddchnstr(y, x, buf, n);
	return 1;
}

/* Draws at most `width` columns of s (UTF-8 aware: one column per
 * character, a good enough rule for slice names). Returns columns used. */
static int put_text(int y, int x, const char *s, int width)
{
	int cols = 0, ascii = 1;
	const unsigned char *p = (const unsigned char *)s, *start = p;

	while (*p && cols < width) {
		ascii &= *p >= 0x20 && *p < 0x7f;
		p++;
		while ((*p & 0xc0) == 0x80)
			p++;
		cols++;
	}
	if (p > start && !(ascii && put_ascii(y, x, start, (int)(p - start))))
		mvaddnstr(y, x, s, (int)(p - start));
	return cols;
}

static int text_cols(const char *s)
{
	int n = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if ((*p & 0xc0) != 0x80)
			n++;
	return n;
}

static void fill(int y, int x, int n, attr_t a)
{
	attrset(a);
	mvhline(y, x, ' ', n);
}

static void draw_ruler(const tt_view *v, const glyphs *g)
{
	char buf[64];
	int64_t step = tt_timefmt_tick_step(v->span, v->tl_w, 12);
	int64_t rel0 = tt_tm_sub(v->t0, v->lay.start);
	int64_t k = tt_tm_floordiv(rel0, step); /* the tick at or before t0 */
	int last_end = -1;
	int total = v->tl_x + v->tl_w;

	fill(0, 0, total, ATTR(TT_AREA_RULER));
	fill(1, 0, total, ATTR(TT_AREA_RULER));
	tt_timefmt_short(v->span, v->utf8, buf, sizeof buf);
	attrset(ATTR(TT_AREA_RULER));
	mvprintw(0, 0, "%.*s", v->name_w, "");
	char head[96];
	snprintf(head, sizeof head, "view %s", buf);
	put_text(0, 1, head, v->name_w - 1);
	/* cursor time, exact to the ns, relative to the trace start */
	tt_timefmt_exact(tt_tm_sub(v->cursor, v->lay.start), v->utf8, buf, sizeof buf);
	attrset(ATTR(TT_AREA_CURSOR) | A_REVERSE);
	snprintf(head, sizeof head, "@%s", buf);
	put_text(1, 1, head, v->name_w - 1);
	/* ticks are >= 12 columns apart, so a row holds at most tl_w / 12 + 2
	 * of them; the bound keeps a frame finite whatever the arithmetic
	 * saturated to */
	int64_t prev = 0;
	for (int n = 0; n < v->tl_w + 2; n++, k = tt_tm_add(k, 1)) {
		int64_t rel = tt_tm_mul(k, step);
		int64_t t = tt_tm_add(v->lay.start, rel);
		if (n > 0 && t == prev)
			break; /* saturated at the end of time */
		prev = t;
		int c = tt_timefmt_col(t, v->t0, v->span, v->tl_w);
		if (c >= v->tl_w)
			break;
		if (c < 0)
			continue;
		tt_timefmt_label(rel, step, v->utf8, buf, sizeof buf);
		attrset(ATTR(TT_AREA_RULER_TICK));
		put_glyph(g, 1, v->tl_x + c, G_VLINE);
		if (c > last_end && c + text_cols(buf) < v->tl_w) {
			put_text(0, v->tl_x + c, buf, v->tl_w - c);
			last_end = c + text_cols(buf);
		}
	}
	int cc = tt_timefmt_col(v->cursor, v->t0, v->span, v->tl_w);
	if (cc >= 0 && cc < v->tl_w) {
		attrset(ATTR(TT_AREA_CURSOR) | A_REVERSE);
		put_glyph(g, 1, v->tl_x + cc, G_CURSOR);
	}
}

static attr_t slice_attr(const tt_view *v, int track, int64_t id, uint32_t nm)
{
	if (track == v->sel_track && id == v->sel_id)
		return ATTR(TT_AREA_SLICE_SEL);
	if (v->match_bits && !v->lay.tracks[track].pnames && v->match_bits[id / 8] & (1u << (id % 8)))
		return ATTR(TT_AREA_SLICE_MATCH);
	if (v->flows && !v->lay.tracks[track].pnames && tt_flows_is_partner(v, id))
		return ATTR(TT_AREA_SLICE_SEL) | A_UNDERLINE;
	return ATTR(TT_AREA_SLICE0 + palette_of(v, track, id, nm));
}

/* Columns of s, and in *plain whether every byte is printable ASCII
 * (then a byte is a cell, and the text can go to the window as it is). */
static int text_cols_plain(const char *s, int *plain)
{
	int n = 0, ok = 1;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p >= 0x7f)
			ok = 0;
		if ((*p & 0xc0) != 0x80)
			n++;
	}
	*plain = ok;
	return n;
}

/* A box of w cells from column x of line y in attribute a, holding
 * text[0..len) from cell at: one chtype string written at once. Boxes
 * are most of what a dense frame draws; a fill and then the text as a
 * multibyte string cost a conversion and a width lookup per character. */
static void put_box(int y, int x, int w, attr_t a, const char *text, int at, int len)
{
	chtype buf[256];
	int cap = (int)(sizeof buf / sizeof *buf);

	for (int done = 0; done < w;) {
		int n = w - done < cap ? w - done : cap;
		for (int i = 0; i < n; i++)
			buf[i] = ' ' | a;
		/* the text's cells within [done, done + n) */
		int k0 = at > done ? at : done, k1 = at + len < done + n ? at + len : done + n;
		for (int k = k0; k < k1; k++)
			buf[k - done] = (chtype)(unsigned char)text[k - at] | a;
		mvaddchnstr(y, x + done, buf, n);
		done += n;
	}
}

/* Draws item id over columns [c0, c1] of line y. nm: its name id from
 * its row, or NO_NAME; len: its end - its start when the caller knows
 * them (> 1: not an instant, no need to read its duration), else 0. */
static void draw_item(const tt_view *v, const glyphs *g, int y, int track, int64_t id, uint32_t nm,
		      int64_t len, int c0, int c1, int narrow)
{
	attr_t a = slice_attr(v, track, id, nm);
	int w = c1 - c0 + 1;
	int64_t dur = w == 1 && len <= 1 ? tt_view_item_dur(v, track, id) : 1;

	if (dur == 0 && w == 1) {
		attr_t plain = ATTR(TT_AREA_SLICE0 + palette_of(v, track, id, nm));
		attrset(a == plain ? ATTR(TT_AREA_INSTANT) : a);
		put_glyph(g, y, v->tl_x + c0, G_INSTANT);
		return;
	}
	const char *name = w < 2 ? "" : nm != NO_NAME && !v->lay.tracks[track].pnames ? tt_trace_str(v->tr, nm)
					     : tt_view_item_name(v, track, id);
	int plain;
	int nlen = text_cols_plain(name, &plain);
	if (w <= 2 && !(nlen > 0 && nlen <= w) && a == ATTR(TT_AREA_SLICE0 + palette_of(v, track, id, nm))) {
		/* a slice of one or two cells, no room for its name: a mark
		 * in the default colours, as blank as the cells around it.
		 * A dense row is mostly such slices between gaps; in its
		 * colour each cost the terminal a colour change in and one
		 * out (a tparm() each in ncurses, most of a dense frame),
		 * for a colour too small to tell a name by. */
		attrset(ATTR(TT_AREA_DEFAULT));
		if (w == 2) {
			put_glyph(g, y, v->tl_x + c0, G_RHALF);
			put_glyph(g, y, v->tl_x + c1, G_LHALF);
		} else {
			put_glyph(g, y, v->tl_x + c0, narrow ? G_NARROW : G_BAR0 + 8);
		}
		return;
	}
	attrset(a);
	if (narrow && w == 1) {
		put_glyph(g, y, v->tl_x + c0, G_NARROW);
		return;
	}
	int shown = 0, at = 0, cut = 0; /* name cells, from cell at; cut with … */
	if (nlen > 0 && nlen <= w) {
		shown = nlen;
		at = (w - nlen) / 2;
	} else if (nlen > 0 && w >= 4) {
		shown = w - 1;
		cut = 1;
	}
	if (plain) {
		put_box(y, v->tl_x + c0, w, a, name, at, shown);
	} else {
		mvhline(y, v->tl_x + c0, ' ', w);
		if (shown)
			put_text(y, v->tl_x + c0 + at, name, shown);
	}
	if (cut)
		put_glyph(g, y, v->tl_x + c1, G_ELLIPSIS);
	/* a slice with flows: an arrow at its edge when the name leaves room */
	int fl = v->flows && !v->lay.tracks[track].pnames ? tt_flows_has(v->flows, id) : 0;
	if (fl && w >= 3 && (nlen == 0 || (w - nlen) / 2 >= 1)) {
		if (fl & 2)
			mvaddstr(y, v->tl_x + c0, v->utf8 ? "\xe2\x86\x92" : ">");
		if ((fl & 1) && (w - nlen + 1) / 2 >= 1)
			mvaddstr(y, v->tl_x + c1, v->utf8 ? "\xe2\x86\x92" : ">");
	}
}

/* The frame's column edges, computed once for every row: edge[c] is the
 * first ns of column c (c = 0..tl_w), so the rows neither divide per cell
 * nor per item. */
typedef struct frame_edges {
	int64_t *edge;
	int n; /* columns: edge[0..n] */
} frame_edges;

static frame_edges fe;

static int edges_build(const tt_view *v)
{
	static int64_t *buf;
	static int cap;

	if (v->tl_w + 1 > cap) {
		int ncap = v->tl_w + 1 > 2 * cap ? v->tl_w + 1 : 2 * cap;
		int64_t *nb = realloc(buf, (size_t)ncap * sizeof *nb);
		if (!nb)
			return -1;
		buf = nb;
		cap = ncap;
	}
	for (int c = 0; c <= v->tl_w; c++)
		buf[c] = tt_timefmt_ts(c, v->t0, v->span, v->tl_w);
	fe.edge = buf;
	fe.n = v->tl_w;
	return 0;
}

/* The cell [*a, *b) of column c, as tt_timefmt_ts gives it; 0 when no
 * cell starts there (the column starts at INT64_MAX). */
static int cell_of(const tt_view *v, int c, int64_t *a, int64_t *b)
{
	if (fe.edge && fe.n == v->tl_w) {
		*a = fe.edge[c];
		*b = fe.edge[c + 1];
	} else {
		*a = tt_timefmt_ts(c, v->t0, v->span, v->tl_w);
		*b = tt_timefmt_ts(c + 1, v->t0, v->span, v->tl_w);
	}
	if (*b <= *a)
		*b = tt_tm_add(*a, 1);
	return *b > *a;
}

/* The start of column c, as cell_of gives it. */
static int64_t fe_start(const tt_view *v, int c)
{
	if (fe.edge && fe.n == v->tl_w)
		return fe.edge[c];
	return tt_timefmt_ts(c, v->t0, v->span, v->tl_w);
}

/* Column of t (tt_timefmt_col), from the edges when t is on screen: the
 * last column starting at or before t, galloping on from column `from`. */
static int col_of(const tt_view *v, int from, int64_t t)
{
	const int64_t *e = fe.edge;
	int n = fe.n;

	if (!e || n != v->tl_w || t < e[0] || t >= e[n] || from < 0 || from >= n || e[from] > t)
		return tt_timefmt_col(t, v->t0, v->span, v->tl_w);
	int lo = from, step = 1, hi; /* e[lo] <= t */
	for (;;) {
		hi = lo + step;
		if (hi >= n || e[hi] > t)
			break;
		lo = hi;
		step *= 2;
	}
	if (hi > n)
		hi = n; /* e[n] > t */
	while (hi - lo > 1) {
		int mid = lo + (hi - lo) / 2;
		if (e[mid] <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* A run of cells of one glyph and attribute, written with one call when
 * it ends: busy and coloured cells come in long runs at whole zoom, and
 * per-cell attribute changes and writes were most of a frame. */
typedef struct cell_run {
	int y, x, n, glyph;
	attr_t attr;
} cell_run;

static void run_flush(const glyphs *g, cell_run *r)
{
	if (r->n <= 0)
		return;
	attrset(r->attr);
	mvhline_set(r->y, r->x, &g->cc[r->glyph], r->n);
	r->n = 0;
}

static void run_put(const glyphs *g, cell_run *r, int x, int glyph, attr_t a)
{
	if (r->n > 0 && r->x + r->n == x && r->glyph == glyph && r->attr == a) {
		r->n++;
		return;
	}
	run_flush(g, r);
	r->x = x;
	r->n = 1;
	r->glyph = glyph;
	r->attr = a;
}

/* A slice covering at least half of each of a run of busy cells [c0, c1]
 * (and so most of the run), not drawn yet: the run may go on, or the
 * slice be alone in the next cells. */
typedef struct dom_run {
	int64_t id; /* -1: none */
	int c0, c1;
	attr_t attr;
	uint32_t nm; /* its name id, NO_NAME when the row has none */
} dom_run;

/* Draws a pending run: one cell as a coloured cell (a run with its
 * neighbours), wider as the slice itself, with its name where it fits, as
 * Perfetto titles a merged box. */
static void dom_draw(const tt_view *v, const glyphs *g, int y, int track, dom_run *d, cell_run *run)
{
	if (d->c1 == d->c0) {
		run_put(g, run, v->tl_x + d->c0, G_BAR0, d->attr);
	} else {
		run_flush(g, run);
		draw_item(v, g, y, track, d->id, d->nm, 0, d->c0, d->c1, 0);
	}
	d->id = -1;
}

/* Called for every cell: the test inline, the drawing not. */
static inline void dom_flush(const tt_view *v, const glyphs *g, int y, int track, dom_run *d, cell_run *run)
{
	if (d->id >= 0)
		dom_draw(v, g, y, track, d, run);
}

/* The slice the last coloured cells showed (a dominant slice: one drawn
 * alone ends in its last cell), for the mixed cell after it: a mixed cell
 * that this slice runs into is drawn as its "busy" mark on the slice's
 * colour (the cell holds the end of that slice and bits of others), one
 * that no slice runs into on the neutral busy colour. At dense zooms the cells alternate
 * between a slice's cell and a mixed cell; with the mixed cell in the
 * colour before it the terminal changes colour half as often, and the
 * cell says which slice it continues. */
typedef struct left_slice {
	int64_t id;  /* -1: none */
	int64_t end; /* its end; INT64_MIN until needed (dominant cells) */
	attr_t attr;
} left_slice;

static int left_runs_into(const tt_lod_row *row, left_slice *l, int64_t a)
{
	if (l->id < 0)
		return 0;
	if (l->end == INT64_MIN)
		l->end = tt_lod_end(&row->src, (uint32_t)l->id);
	return l->end > a;
}

/* The edges of cells c .. c + n (n + 1 of them): the frame's, or
 * computed into buf when those could not be allocated. */
static const int64_t *chunk_edges(const tt_view *v, int c, int n, int64_t *buf)
{
	if (fe.edge && fe.n == v->tl_w)
		return fe.edge + c;
	for (int k = 0; k <= n; k++)
		buf[k] = tt_timefmt_ts(c + k, v->t0, v->span, v->tl_w);
	return buf;
}

static void draw_slice_row(const tt_view *v, const glyphs *g, int y, int track, int depth)
{
	const tt_ltrack *t = &v->lay.tracks[track];
	const tt_lod_row *row = &t->rows[depth];
	tt_lod_walk w = {0};
	int c = 0;
	int64_t last_dom = -1;
	attr_t last_attr = 0;
	const attr_t busy = ATTR(TT_AREA_SLICE_BUSY), match = ATTR(TT_AREA_SLICE_MATCH);
	cell_run run = {.y = y};
	dom_run pend = {.id = -1};
	left_slice left = {.id = -1};
	/* the row's answers, cell by cell: a run of busy cells and the cell
	 * after it per call (ans[k] is cell ac + k, for k < nans) */
	enum { CHUNK = 64 };
	tt_lod_cellans ans[CHUNK];
	int64_t ebuf[CHUNK + 1];
	int ac = 0, nans = 0;

	while (c < v->tl_w) {
		if (c - ac >= nans) {
			int n = v->tl_w - c < CHUNK ? v->tl_w - c : CHUNK;
			nans = tt_lod_cells(row, chunk_edges(v, c, n, ebuf), n, &w, ans);
			ac = c;
		}
		const tt_lod_cellans *k = &ans[c - ac];
		int64_t a, b;
		if (k->kind == 2) {
			/* several slices share the cell. The one covering most
			 * of it (at least half: slices of a row do not overlap,
			 * so no other can) gives the cell its colour, as
			 * Perfetto merges tiny slices into coloured blocks;
			 * only a genuinely mixed cell gets the neutral "busy"
			 * mark. */
			int64_t dom = k->dpos != SIZE_MAX ? (int64_t)row->ids[k->dpos] : -1;
			if (dom >= 0 && dom == pend.id && pend.c1 == c - 1) {
				pend.c1 = c; /* it covers half of this cell too */
			} else if (dom >= 0) {
				dom_flush(v, g, y, track, &pend, &run);
				/* neighbouring cells often share a name: one
				 * attribute lookup per run */
				uint32_t nm = row->tag ? row->tag[k->dpos] : NO_NAME;
				if (dom != last_dom) {
					last_attr = slice_attr(v, track, dom, nm);
					last_dom = dom;
				}
				pend = (dom_run){dom, c, c, last_attr, nm};
				left = (left_slice){dom, row->exact_end ? row->maxend[k->dpos] : INT64_MIN, last_attr};
			} else {
				dom_flush(v, g, y, track, &pend, &run);
				attr_t ba = busy;
				if (k->marked)
					ba = match;
				else if (left.id >= 0 && left_runs_into(row, &left, fe_start(v, c)))
					ba = left.attr;
				else
					left.id = -1;
				run_put(g, &run, v->tl_x + c, G_BUSY, ba);
			}
			c++;
			continue;
		}
		if (k->kind == TT_LOD_STOP)
			break; /* the column starts at INT64_MAX: nothing after it */
		cell_of(v, c, &a, &b);
		if (k->kind == 0) {
			/* jump straight to the next item's column */
			dom_flush(v, g, y, track, &pend, &run);
			left.id = -1;
			size_t i = k->pos;
			if (i >= row->n)
				break;
			int nc = col_of(v, c, row->ts[i] > a ? row->ts[i] : a);
			c = nc > c ? nc : c + 1;
			continue;
		}
		/* the item's start, end and name from the row (in order, in
		 * cache), not from the slice columns */
		int64_t id = row->ids[k->pos];
		int64_t ts = row->ts[k->pos];
		int64_t end = row->exact_end ? row->maxend[k->pos] : tt_lod_end(&row->src, (uint32_t)id);
		uint32_t nm = row->tag ? row->tag[k->pos] : NO_NAME;
		int c1 = col_of(v, c, tt_tm_sub(end, 1));
		if (c1 >= v->tl_w)
			c1 = v->tl_w - 1;
		if (c1 < c)
			c1 = c;
		int covers = ts <= a && end >= b;
		int c0 = c;
		if (pend.id == id && pend.c1 == c - 1) {
			/* alone from here on, it covered half of the cells
			 * before: one box from its first cell, its name over
			 * all of it */
			c0 = pend.c0;
			pend.id = -1;
		}
		dom_flush(v, g, y, track, &pend, &run);
		run_flush(g, &run);
		draw_item(v, g, y, track, id, nm, tt_tm_sub(end, ts), c0, c1, c0 == c1 && !covers);
		left.id = -1; /* it ends in its last cell */
		c = c1 + 1;
	}
	dom_flush(v, g, y, track, &pend, &run);
	run_flush(g, &run);
	/* the selection shows at every zoom, even when a longer neighbour
	 * owns its cell */
	if (track == v->sel_track && v->sel_id >= 0) {
		const tt_lod_src *s = &row->src;
		int d = tt_layout_item_row(&v->lay, track, v->sel_id, v->sc.depth);
		if (d == depth) {
			int c0 = tt_timefmt_col(s->ts[v->sel_id], v->t0, v->span, v->tl_w);
			int c1 = tt_timefmt_col(tt_tm_sub(tt_lod_end(s, (uint32_t)v->sel_id), 1), v->t0, v->span,
						v->tl_w);
			if (c1 >= 0 && c0 < v->tl_w) {
				if (c0 < 0)
					c0 = 0;
				if (c1 >= v->tl_w)
					c1 = v->tl_w - 1;
				if (c1 < c0)
					c1 = c0;
				draw_item(v, g, y, track, v->sel_id, NO_NAME, 0, c0, c1, c0 == c1);
			}
		}
	}
}

/* Alerts on this track and depth, drawn over the slices: never merged
 * away, whatever the zoom. */
static void draw_alerts(const tt_view *v, int y, int track, int depth)
{
	const tt_ltrack *t = &v->lay.tracks[track];
	int64_t from = tt_tm_sub(tt_tm_sub(v->t0, v->alert_maxdur), 1);
	int64_t until = tt_tm_add(v->t0, v->span);
	size_t lo = 0, hi = v->nalerts;

	/* alerts are sorted by ts: skip those that end before the window */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v->alerts[mid].ts < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < v->nalerts && v->alerts[i].ts < until; i++) {
		const tt_alert *al = &v->alerts[i];
		if (al->track_id != t->track_id || t->track_id == UINT32_MAX)
			continue;
		int d = 0;
		if (al->slice_id >= 0 && (size_t)al->slice_id < v->sc.n && v->sc.track_id[al->slice_id] == t->track_id)
			d = (int)v->sc.depth[al->slice_id];
		if (d != depth)
			continue;
		int c0 = tt_timefmt_col(al->ts, v->t0, v->span, v->tl_w);
		int c1 = tt_timefmt_col(tt_tm_add(al->ts, al->dur > 0 ? al->dur - 1 : 0), v->t0, v->span, v->tl_w);
		if (c1 < 0 || c0 >= v->tl_w)
			continue;
		if (c0 < 0)
			c0 = 0;
		if (c1 >= v->tl_w)
			c1 = v->tl_w - 1;
		if (c1 < c0)
			c1 = c0;
		/* keep the text, change the colour */
		attr_t a = ATTR(al->error ? TT_AREA_ALERT_ERROR : TT_AREA_ALERT_WARNING);
		mvchgat(y, v->tl_x + c0, c1 - c0 + 1, a & ~A_COLOR, (short)PAIR_NUMBER(a), NULL);
	}
}

static void draw_counter(const tt_view *v, const glyphs *g, int y, int track, int line_depth)
{
	const tt_ltrack *t = &v->lay.tracks[track];
	const tt_lod_row *row = &t->rows[0];
	double range = t->vmax - t->vmin;
	size_t hint = 0;

	attrset(ATTR(TT_AREA_COUNTER));
	for (int c = 0; c < v->tl_w; c++) {
		int64_t a, b;
		double val;
		cell_of(v, c, &a, &b);
		if (a > v->lay.end || !tt_lod_value_from(row, a, b, &hint, &val))
			continue;
		int level = range > 0 ? (int)((val - t->vmin) / range * 16 + 0.5) : 16;
		if (level < 1 && val != t->vmin)
			level = 1;
		if (level > 16)
			level = 16;
		/* two lines: line 0 holds levels 9..16, line 1 levels 1..8 */
		int part = line_depth == 0 ? level - 8 : level;
		if (part > 8)
			part = 8;
		if (part < 0)
			part = 0;
		if (part > 0)
			put_glyph(g, y, v->tl_x + c, G_BAR0 + part);
	}
}

static void fmt_value(double d, char *buf, size_t n)
{
	const char *suffix = "";
	double a = d < 0 ? -d : d;

	if (a >= 1e9) {
		d /= 1e9;
		suffix = "G";
	} else if (a >= 1e6) {
		d /= 1e6;
		suffix = "M";
	} else if (a >= 1e4) {
		d /= 1e3;
		suffix = "k";
	}
	snprintf(buf, n, "%.4g%s", d, suffix);
}

static void draw_name(const tt_view *v, int y, const tt_line *l, int is_cursor, const glyphs *g)
{
	const tt_ltrack *t = &v->lay.tracks[l->track];
	char buf[160];

	fill(y, 0, v->name_w, ATTR(is_cursor ? TT_AREA_TRACK_SEL : TT_AREA_TRACK_NAME));
	if (l->depth == 0) {
		/* members of a merged track are indented under it; a merged
		 * track shows whether it is open; a name cut says so */
		int x = t->parent >= 0 ? 3 : 1;
		if (t->nchildren) {
			put_text(y, 1, t->expanded ? g->open : g->closed, 1);
			x = 3;
		}
		int room = v->name_w - x;
		if (text_cols(t->name) > room && room > 2) {
			put_text(y, x, t->name, room - 1);
			put_glyph(g, y, v->name_w - 1, G_ELLIPSIS);
		} else {
			put_text(y, x, t->name, room);
		}
	} else if (t->kind == TT_LT_SLICE && !t->expanded && t->ndepth > TT_LAYOUT_FOLD_DEPTH &&
		   l->depth == TT_LAYOUT_FOLD_DEPTH - 1) {
		/* the last row of a folded deep track: how much is hidden */
		snprintf(buf, sizeof buf, "  +%d rows (Space)", t->ndepth - TT_LAYOUT_FOLD_DEPTH);
		put_text(y, 1, buf, v->name_w - 1);
	} else if (t->kind == TT_LT_COUNTER) {
		char lo[32], hi[32];
		fmt_value(t->vmin, lo, sizeof lo);
		fmt_value(t->vmax, hi, sizeof hi);
		snprintf(buf, sizeof buf, "%s..%s%s%s", lo, hi, t->unit[0] ? " " : "", t->unit);
		put_text(y, v->name_w - 1 - (text_cols(buf) < v->name_w - 2 ? text_cols(buf) : v->name_w - 2),
			 buf, v->name_w - 2);
	} else if (is_cursor) {
		snprintf(buf, sizeof buf, "  depth %d", l->depth);
		put_text(y, 1, buf, v->name_w - 1);
	}
	attrset(ATTR(TT_AREA_TRACK_NAME));
	put_glyph(g, y, v->name_w, G_VLINE);
}

/* A collapsed group's header in the name column: glyph, name (cut with
 * an ellipsis), the track count when it fits. */
static void draw_header_name(const tt_view *v, const glyphs *g, int y, const tt_lgroup *gr,
			     const char *count)
{
	char buf[240];
	int w = v->name_w;

	snprintf(buf, sizeof buf, "%s %s", g->closed, gr->name);
	if (text_cols(buf) + (int)strlen(count) <= w)
		strncat(buf, count, sizeof buf - strlen(buf) - 1);
	if (text_cols(buf) > w && w > 2) {
		put_text(y, 0, buf, w - 1);
		put_glyph(g, y, w - 1, G_ELLIPSIS);
	} else {
		put_text(y, 0, buf, w);
	}
	put_glyph(g, y, w, G_VLINE);
}

/* The process summary: in each cell, the most threads inside a top-level
 * slice at once, as a bar of 8 levels over the group's thread count. */
static void draw_summary(const tt_view *v, const glyphs *g, int y, const tt_lgroup *gr)
{
	int nt = gr->nthreads > 0 ? gr->nthreads : 1;
	size_t hint = 0;

	attrset(ATTR(TT_AREA_COUNTER));
	for (int c = 0; c < v->tl_w; c++) {
		int64_t a, b;
		double val;
		cell_of(v, c, &a, &b);
		if (a > v->lay.end)
			break;
		if (gr->coarse && b - a >= gr->coarse_w) {
			/* a wide cell: the buckets it covers (few, in cache) */
			int64_t k0 = tt_tm_sub(a, v->lay.start) / gr->coarse_w;
			int64_t k1 = tt_tm_sub(tt_tm_sub(b, 1), v->lay.start) / gr->coarse_w;
			if (k1 < 0 || k0 >= TT_SUMMARY_BUCKETS)
				continue;
			val = 0;
			for (int64_t k = k0 < 0 ? 0 : k0; k <= k1 && k < TT_SUMMARY_BUCKETS; k++)
				val = gr->coarse[k] > val ? gr->coarse[k] : val;
		} else if (!tt_lod_value_from(&gr->summary, a, b, &hint, &val)) {
			continue;
		}
		if (val <= 0)
			continue;
		int level = (int)(val * 8 / nt + 0.999);
		put_glyph(g, y, v->tl_x + c, G_BAR0 + (level < 1 ? 1 : level > 8 ? 8 : level));
	}
}

void tt_timeline_draw(const tt_view *v)
{
	const glyphs *g = get_glyphs(v->utf8);
	int cc = tt_timefmt_col(v->cursor, v->t0, v->span, v->tl_w);
	int rc0 = 0, rc1 = -1;

	if (edges_build(v) != 0)
		fe.edge = NULL; /* out of memory: per-cell arithmetic */
	draw_ruler(v, g);
	tt_range_draw_ruler(v);
	tt_marks_draw_ruler(v);
	if (v->has_range) {
		rc0 = tt_timefmt_col(v->range_a, v->t0, v->span, v->tl_w);
		rc1 = tt_timefmt_col(v->range_b, v->t0, v->span, v->tl_w);
	}
	for (int i = 0; i < v->tl_h; i++) {
		int li = v->top + i, y = v->tl_y + i;
		if (li >= v->lay.nlines)
			break;
		const tt_line *l = &v->lay.lines[li];
		if (l->track < 0) {
			const tt_lgroup *gr = &v->lay.groups[l->group];
			char buf[240];
			/* the count stays visible: long names (command lines)
			 * are cut first */
			char count[32];
			int room;
			int ntop = tt_tracktree_top_count(&v->lay, gr);
			snprintf(count, sizeof count, "  (%d track%s)", ntop, ntop == 1 ? "" : "s");
			room = v->tl_x + v->tl_w - 3 - (int)strlen(count);
			if (room < 8)
				room = 8;
			if (text_cols(gr->name) > room) {
				snprintf(buf, sizeof buf, "%s %.*s%s%s", gr->expanded ? g->open : g->closed,
					 room - 1, gr->name, g->ellipsis, count);
			} else {
				snprintf(buf, sizeof buf, "%s %s%s", gr->expanded ? g->open : g->closed,
					 gr->name, count);
			}
			fill(y, 0, v->tl_x + v->tl_w, ATTR(li == v->line ? TT_AREA_GROUP_SEL : TT_AREA_GROUP));
			if (!gr->expanded && !v->lay.filter[0] && gr->summary.n > 0) {
				/* collapsed process: its summary beside the name */
				draw_header_name(v, g, y, gr, count);
				draw_summary(v, g, y, gr);
			} else {
				put_text(y, 0, buf, v->tl_x + v->tl_w);
			}
			continue;
		}
		attrset(ATTR(TT_AREA_DEFAULT));
		draw_name(v, y, l, li == v->line, g);
		const tt_ltrack *t = &v->lay.tracks[l->track];
		/* background: range, then the cursor line on empty cells */
		if (v->has_range && rc1 >= 0 && rc0 < v->tl_w && tt_range_track_in(v, l->track)) {
			int a = rc0 < 0 ? 0 : rc0, b = rc1 >= v->tl_w ? v->tl_w - 1 : rc1;
			fill(y, v->tl_x + a, b - a + 1, ATTR(TT_AREA_RANGE));
		}
		if (cc >= 0 && cc < v->tl_w) {
			attrset(ATTR(TT_AREA_CURSOR));
			put_glyph(g, y, v->tl_x + cc, G_VLINE);
		}
		if (t->kind == TT_LT_COUNTER) {
			draw_counter(v, g, y, l->track, l->depth);
		} else {
			draw_slice_row(v, g, y, l->track, l->depth);
			if (v->nalerts)
				draw_alerts(v, y, l->track, l->depth);
		}
	}
	tt_flows_draw(v);
	attrset(ATTR(TT_AREA_DEFAULT));
	fe.edge = NULL; /* this frame's */
}
