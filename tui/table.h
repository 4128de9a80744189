/*
 * table.h - the scrollable view of a SQL result (command bar queries):
 * column widths fitted to the content (capped), horizontal scroll by
 * column, and Enter on a row with an `id`/`slice_id` or `ts` column
 * jumps to that slice / time.
 */
#ifndef TT_TABLE_H
#define TT_TABLE_H

#include "termtrace.h"

typedef struct tt_table {
	tt_result res;
	char title[256];
	int *widths;
	int row, top, col; /* selected row, first row shown, first column shown */
	int height;        /* data rows on screen, set when drawn */
	size_t offset;     /* rows of the result before res (paging) */
	int64_t start;     /* trace start, for times relative to it */
	int rel;           /* show ts/dur columns as times (t toggles) */
	int utf8;
} tt_table;

enum { TT_TABLE_STAY, TT_TABLE_CLOSE, TT_TABLE_JUMP, TT_TABLE_NEXT_PAGE, TT_TABLE_PREV_PAGE };
/* Rows a page of a result holds. */
#define TT_TABLE_PAGE_ROWS 100000

/* Takes ownership of res. */
void tt_table_open(tt_table *t, tt_result *res, const char *title);
/* Replaces the rows by another page of the same result (ownership of res
 * taken), rows [offset, offset + res->nrows). */
void tt_table_page(tt_table *t, tt_result *res, size_t offset);
/* "1234567" -> "1,234,567". */
void tt_table_count(size_t n, char *buf, size_t len);
void tt_table_free(tt_table *t);
/* Draws into rows [y, y+h) of the current screen, cols columns wide. */
void tt_table_draw(tt_table *t, int y, int h, int cols);
/* Keys: returns TT_TABLE_*; on JUMP, *slice_id (or -1) and *ts (or
 * INT64_MIN) say where. */
int tt_table_key(tt_table *t, int key, int64_t *slice_id, int64_t *ts);

#endif
