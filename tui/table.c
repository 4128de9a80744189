/*
 * table.c - result table view (see table.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curses.h>

#include "table.h"
#include "timefmt.h"
#include "timemath.h"
#include "theme.h"

#define ATTR(a) ((attr_t)tt_theme_attr(a))
#define MAX_COL_W 48

static int ucols(const char *s)
{
	int n = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if ((*p & 0xc0) != 0x80)
			n++;
	return n;
}

/* Column widths fitted to the header and the first rows (a million-row
 * result must open fast), capped. */
static void fit_widths(tt_table *t)
{
	free(t->widths);
	t->widths = calloc(t->res.ncols ? (size_t)t->res.ncols : 1, sizeof *t->widths);
	if (!t->widths)
		return;
	for (int c = 0; c < t->res.ncols; c++) {
		int w = ucols(t->res.cols[c] ? t->res.cols[c] : "");
		for (size_t r = 0; r < t->res.nrows && r < 2000; r++) {
			const char *s = t->res.cells[r * (size_t)t->res.ncols + c];
			int cw = ucols(s ? s : "NULL");
			if (cw > w)
				w = cw;
		}
		t->widths[c] = w > MAX_COL_W ? MAX_COL_W : w < 1 ? 1 : w;
	}
}

void tt_table_open(tt_table *t, tt_result *res, const char *title)
{
	memset(t, 0, sizeof *t);
	t->res = *res;
	memset(res, 0, sizeof *res);
	snprintf(t->title, sizeof t->title, "%s", title);
	fit_widths(t);
}

void tt_table_page(tt_table *t, tt_result *res, size_t offset)
{
	tt_result_free(&t->res);
	t->res = *res;
	memset(res, 0, sizeof *res);
	t->offset = offset;
	t->row = t->top = 0;
	fit_widths(t);
}

void tt_table_count(size_t n, char *buf, size_t len)
{
	char tmp[32];
	int l = snprintf(tmp, sizeof tmp, "%zu", n), o = 0;

	for (int i = 0; i < l && o + 2 < (int)len; i++) {
		if (i > 0 && (l - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = 0;
}

/* ts-like and dur-like columns, shown as times when t->rel. */
static int time_kind(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	if (!n)
		return 0;
	if (!strcmp(name, "ts") || (n > 3 && !strcmp(name + n - 3, "_ts")))
		return 1;
	if (!strcmp(name, "dur") || (n > 4 && !strcmp(name + n - 4, "_dur")))
		return 2;
	return 0;
}

void tt_table_free(tt_table *t)
{
	tt_result_free(&t->res);
	free(t->widths);
	memset(t, 0, sizeof *t);
}

/* Draws s in w columns from x (characters, not bytes), padded. */
static void cell(int y, int x, const char *s, int w, int maxx)
{
	const unsigned char *p = (const unsigned char *)s;
	int cols = 0;

	if (x >= maxx)
		return;
	if (x + w > maxx)
		w = maxx - x;
	while (*p && cols < w) {
		p++;
		while ((*p & 0xc0) == 0x80)
			p++;
		cols++;
	}
	mvaddnstr(y, x, s, (int)((const char *)p - s));
}

void tt_table_draw(tt_table *t, int y, int h, int cols)
{
	char buf[400];
	int x;

	t->height = h - 2;
	if (t->height < 1)
		t->height = 1;
	if (t->row >= (int)t->res.nrows)
		t->row = (int)t->res.nrows - 1;
	if (t->row < 0)
		t->row = 0;
	if (t->row < t->top)
		t->top = t->row;
	if (t->row >= t->top + t->height)
		t->top = t->row - t->height + 1;
	attrset(ATTR(TT_AREA_STATUS));
	mvhline(y, 0, ' ', cols);
	if (t->res.total_rows > t->res.nrows) {
		char a[32], b[32], c[32];
		tt_table_count(t->offset + 1, a, sizeof a);
		tt_table_count(t->offset + t->res.nrows, b, sizeof b);
		tt_table_count(t->res.total_rows, c, sizeof c);
		snprintf(buf, sizeof buf, " showing %s-%s of %s rows (n/p: next/previous page, t: times,"
			 " Enter: jump, q: close)  %.200s", a, b, c, t->title);
	} else {
		snprintf(buf, sizeof buf, " %.200s  %zu row%s  (t: times, Enter: jump, Left/Right: columns, q: close)",
			 t->title, t->res.nrows, t->res.nrows == 1 ? "" : "s");
	}
	cell(y, 0, buf, cols, cols);
	attrset(ATTR(TT_AREA_TABLE_HEADER));
	mvhline(y + 1, 0, ' ', cols);
	x = 0;
	for (int c = t->col; c < t->res.ncols && x < cols; c++) {
		cell(y + 1, x, t->res.cols[c] ? t->res.cols[c] : "", t->widths[c], cols);
		x += t->widths[c] + 2;
	}
	for (int i = 0; i < t->height; i++) {
		size_t r = (size_t)(t->top + i);
		if (r >= t->res.nrows)
			break;
		attrset(ATTR((int)r == t->row ? TT_AREA_TABLE_SEL : TT_AREA_DEFAULT));
		mvhline(y + 2 + i, 0, ' ', cols);
		x = 0;
		for (int c = t->col; c < t->res.ncols && x < cols; c++) {
			const char *s = t->res.cells[r * (size_t)t->res.ncols + c];
			char tb[48];
			int k = t->rel && s ? time_kind(t->res.cols[c]) : 0;
			if (k) {
				/* relative to the trace start; durations as they are */
				int64_t val = strtoll(s, NULL, 10);
				/* saturating: a ts at the int64 edges (ASan sweep) */
				tt_timefmt_exact(k == 1 ? tt_tm_sub(val, t->start) : val, t->utf8, tb, sizeof tb);
				s = tb;
			}
			cell(y + 2 + i, x, s ? s : "NULL", t->widths[c], cols);
			x += t->widths[c] + 2;
		}
	}
}

static int find_col(const tt_table *t, const char *name)
{
	for (int c = 0; c < t->res.ncols; c++)
		if (t->res.cols[c] && !strcmp(t->res.cols[c], name))
			return c;
	return -1;
}

int tt_table_key(tt_table *t, int key, int64_t *slice_id, int64_t *ts)
{
	int page = t->height > 1 ? t->height - 1 : 1;

	switch (key) {
	case 'q': case 27:
		return TT_TABLE_CLOSE;
	case KEY_UP: case 'k':
		t->row--;
		break;
	case KEY_DOWN: case 'j':
		t->row++;
		break;
	case KEY_PPAGE:
		t->row -= page;
		break;
	case KEY_NPAGE: case ' ':
		t->row += page;
		break;
	case KEY_HOME: case 'g':
		t->row = 0;
		break;
	case KEY_END: case 'G':
		t->row = (int)t->res.nrows - 1;
		break;
	case KEY_LEFT: case 'h':
		if (t->col > 0)
			t->col--;
		break;
	case KEY_RIGHT: case 'l':
		if (t->col + 1 < t->res.ncols)
			t->col++;
		break;
	case 't':
		t->rel = !t->rel;
		break;
	case 'n':
		if (t->offset + t->res.nrows < t->res.total_rows)
			return TT_TABLE_NEXT_PAGE;
		break;
	case 'p':
		if (t->offset > 0)
			return TT_TABLE_PREV_PAGE;
		break;
	case '\n': case '\r': case KEY_ENTER: {
		int cid = find_col(t, "slice_id"), cts = find_col(t, "ts");
		if (cid < 0)
			cid = find_col(t, "id");
		if (t->res.nrows == 0 || (cid < 0 && cts < 0))
			return TT_TABLE_STAY;
		char **row = t->res.cells + (size_t)t->row * (size_t)t->res.ncols;
		*slice_id = cid >= 0 && row[cid] ? strtoll(row[cid], NULL, 10) : -1;
		*ts = cts >= 0 && row[cts] ? strtoll(row[cts], NULL, 10) : INT64_MIN;
		return TT_TABLE_JUMP;
	}
	default:
		break;
	}
	if (t->row >= (int)t->res.nrows)
		t->row = (int)t->res.nrows - 1;
	if (t->row < 0)
		t->row = 0;
	return TT_TABLE_STAY;
}
