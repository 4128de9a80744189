/*
 * details.h - the details panel of the selected slice: name, category,
 * times, thread and process, depth, parent, args (scrollable), and the
 * description and doc link from the `describe_slice` table (issue 6; when
 * the table does not exist the panel shows none).
 */
#ifndef TT_DETAILS_H
#define TT_DETAILS_H

#include "view.h"

/* Fetches what the panel needs beyond the columns (description, link)
 * after the selection changed. */
void tt_details_fetch(tt_view *v);
/* Draws the panel into v->det_* of the current screen. */
void tt_details_draw(tt_view *v);
/* With no slice selected: the description of the track under the cursor
 * (details_track.c). Returns 1 when it drew one, 0 when there is none. */
int tt_details_draw_track(tt_view *v);
/* The panel's text lines (for tests): calls fn for each "key\tvalue". */
typedef void (*tt_details_line_fn)(void *ctx, const char *key, const char *value);
void tt_details_lines(const tt_view *v, tt_details_line_fn fn, void *ctx);

#endif
