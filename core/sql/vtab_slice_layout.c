/*
 * vtab_slice_layout.c - experimental_slice_layout(track_ids): the slices of
 * several tracks laid out on one, as Perfetto's UI merges tracks:
 *
 *   select id, name, layout_depth from experimental_slice_layout('3,4,7');
 *
 * Columns: the slice table's, then layout_depth; the hidden input is
 * filter_track_ids, a comma-separated list of track ids (others ignored).
 * Plan: TT_FUNC_PLAN_ARG (vtab_func.h).
 *
 * Each stack (a root slice and its descendants) becomes a box (start, end,
 * height). Boxes are placed tallest first, then by start: each takes the
 * lowest run of height + 1 rows that are free over its whole time range.
 * A slice's layout_depth is its depth plus its box's row. A slice of dur -1
 * lasts to the end of time. Rows come out in id order.
 */
#include "builtins.h"
#include "vtab_func.h"

#include <stdlib.h>
#include <string.h>

struct box {
	int64_t start, end;
	uint32_t height, row, idx;
};

/* The occupied [start, end) ranges of one layout row, sorted and disjoint. */
struct lrow {
	int64_t (*r)[2];
	size_t n, cap;
};

static size_t first_at_or_after(const struct lrow *l, int64_t ts)
{
	size_t lo = 0, hi = l->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (l->r[mid][0] < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int row_free(const struct lrow *l, int64_t start, int64_t end)
{
	size_t k;

	if (l->n == 0 || start >= l->r[l->n - 1][1])
		return 1;
	k = first_at_or_after(l, start);
	if (k < l->n && l->r[k][0] < end)
		return 0;
	if (k > 0 && l->r[k - 1][1] > start)
		return 0;
	return 1;
}

static int row_mark(struct lrow *l, int64_t start, int64_t end)
{
	size_t k;

	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		int64_t (*r)[2] = realloc(l->r, cap * sizeof(*r));

		if (!r)
			return -1;
		l->r = r;
		l->cap = cap;
	}
	k = l->n == 0 || start >= l->r[l->n - 1][0] ? l->n : first_at_or_after(l, start);
	memmove(&l->r[k + 1], &l->r[k], (l->n - k) * sizeof(*l->r));
	l->r[k][0] = start;
	l->r[k][1] = end;
	l->n++;
	return 0;
}

static int box_order(const void *a, const void *b)
{
	const struct box *x = a, *y = b;

	if (x->height != y->height)
		return x->height > y->height ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int fill_layout(const tt_storage *st, void **cache, sqlite3_value *v, tt_rowlist *out, char **msg)
{
	const char *list = (const char *)sqlite3_value_text(v);
	size_t n = st->slice.n, nb = 0, nrows = 0;
	unsigned char *want = calloc(st->track.n + 1, 1);
	uint32_t *group = malloc((n ? n : 1) * sizeof(*group));
	uint32_t *row_of = NULL;
	struct box *boxes = malloc((n ? n : 1) * sizeof(*boxes));
	struct lrow *rows = NULL;
	int rc = SQLITE_NOMEM;

	(void)cache;
	if (sqlite3_value_type(v) != SQLITE_TEXT) {
		*msg = sqlite3_mprintf("invalid input track id list");
		rc = SQLITE_ERROR;
		goto done;
	}
	if (!want || !group || !boxes)
		goto done;
	for (const char *p = list; *p;) {
		char *e;
		long long t = strtoll(p, &e, 10);

		if (e != p && (*e == ',' || !*e) && t >= 0 && (size_t)t < st->track.n)
			want[t] = 1;
		p = strchr(p, ',');
		if (!p)
			break;
		p++;
	}
	/* boxes: a root starts one; a child joins its parent's */
	for (size_t i = 0; i < n; i++) {
		uint32_t tr = st->slice.track[i];
		int64_t end = st->slice.dur[i] == -1 ? INT64_MAX : st->slice.ts[i] + st->slice.dur[i];
		int64_t p = st->slice.parent_id[i];

		group[i] = UINT32_MAX;
		if (tr >= st->track.n || !want[tr])
			continue;
		if (p >= 0 && (size_t)p < i && group[p] != UINT32_MAX) {
			struct box *b = &boxes[group[p]];

			group[i] = group[p];
			if (st->slice.depth[i] > b->height)
				b->height = st->slice.depth[i];
			if (end > b->end)
				b->end = end;
		} else {
			group[i] = (uint32_t)nb;
			boxes[nb] = (struct box){ st->slice.ts[i], end, st->slice.depth[i], 0, (uint32_t)nb };
			nb++;
		}
	}
	qsort(boxes, nb, sizeof(*boxes), box_order);
	row_of = malloc((nb ? nb : 1) * sizeof(*row_of));
	if (!row_of)
		goto done;
	for (size_t b = 0; b < nb; b++) {
		struct box *x = &boxes[b];
		uint32_t at = 0, run = 0;

		for (uint32_t r = 0;; r++) {
			if (r >= nrows || row_free(&rows[r], x->start, x->end)) {
				if (run == 0)
					at = r;
				if (++run == x->height + 1)
					break;
			} else {
				run = 0;
			}
		}
		if (at + x->height + 1 > nrows) {
			size_t want_rows = at + x->height + 1;
			struct lrow *nr = realloc(rows, want_rows * sizeof(*rows));

			if (!nr)
				goto done;
			memset(nr + nrows, 0, (want_rows - nrows) * sizeof(*rows));
			rows = nr;
			nrows = want_rows;
		}
		for (uint32_t r = at; r <= at + x->height; r++)
			if (row_mark(&rows[r], x->start, x->end))
				goto done;
		row_of[x->idx] = at;
	}
	rc = SQLITE_OK;
	for (size_t i = 0; i < n && rc == SQLITE_OK; i++)
		if (group[i] != UINT32_MAX &&
		    tt_rowlist_push_aux(out, (uint32_t)i, (int64_t)st->slice.depth[i] + row_of[group[i]]))
			rc = SQLITE_NOMEM;
done:
	for (size_t r = 0; r < nrows; r++)
		free(rows[r].r);
	free(rows);
	free(row_of);
	free(boxes);
	free(group);
	free(want);
	return rc;
}

static void layout_column(const tt_storage *st, uint32_t row, int64_t aux, int col, sqlite3_context *ctx)
{
	if (col == TT_SLICE_NCOLS)
		sqlite3_result_int64(ctx, aux);
	else
		tt_vtab_slice_column(st, row, col, ctx);
}

static const tt_func_def def = {
	"experimental_slice_layout",
	"CREATE TABLE x(" TT_SLICE_COLUMNS ", layout_depth INTEGER, filter_track_ids HIDDEN)",
	TT_SLICE_NCOLS + 1, fill_layout, layout_column, NULL,
};

int tt_sql_register_slice_layout(sqlite3 *db, tt_storage *st)
{
	return tt_func_register(db, st, &def);
}
