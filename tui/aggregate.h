/*
 * aggregate.h - what ran in a time range [a, b), Perfetto's area-selection
 * tabs as pure functions (no ncurses; unit-tested in test_tui_aggregate):
 *  - per slice name: count of the slices that intersect the range, wall
 *    time and self time clipped to the range, average and max of the
 *    clipped wall, share of the range's length;
 *  - per track: busy time (the clipped wall of its depth-0 slices);
 *  - per counter track: samples, min, max, time-weighted mean and delta.
 * Unfinished slices (dur < 0) end at open_end (the trace end).
 */
#ifndef TT_AGGREGATE_H
#define TT_AGGREGATE_H

#include <stddef.h>
#include <stdint.h>

#include "termtrace.h"

/* The part of a slice inside [a, b): *in says whether the slice is in the
 * range (intersects it; an instant when a <= ts < b), the return value is
 * its clipped wall time. dur < 0: the slice ends at open_end. */
int64_t tt_agg_clip(int64_t ts, int64_t dur, int64_t a, int64_t b, int64_t open_end, int *in);

typedef struct tt_agg_row {
	uint32_t name;       /* string id */
	int64_t count, wall, self, max;
} tt_agg_row;

enum { TT_AGG_NAME, TT_AGG_COUNT, TT_AGG_WALL, TT_AGG_SELF, TT_AGG_AVG, TT_AGG_MAX, TT_AGG_SHARE,
       TT_AGG_NCOLS };

typedef struct tt_agg {
	int64_t a, b, open_end;
	size_t nrows, nslices;
	tt_agg_row *rows;
	int64_t *busy;       /* by core track id: clipped depth-0 wall */
	size_t ntracks;
	int sort_col, sort_desc;
	/* what it was computed for (the viewer's cache key) */
	int scope, track, valid;
} tt_agg;

/* Aggregates the slices on the tracks with tracks[track_id] set (NULL: all)
 * that intersect [a, b). Rows come sorted by wall time, largest first.
 * Returns 0, -1 on OOM. */
int tt_agg_slices(tt_agg *g, const tt_slice_cols *sc, const uint8_t *tracks, size_t ntracks,
		  int64_t a, int64_t b, int64_t open_end);
/* The same over the slices ids (the candidates a caller found with an
 * index: slices that do not intersect [a, b) are left out here). */
int tt_agg_slices_ids(tt_agg *g, const tt_slice_cols *sc, const uint32_t *ids, size_t nids, size_t ntracks,
		      int64_t a, int64_t b, int64_t open_end);
void tt_agg_free(tt_agg *g);
/* Sorts the rows by column TT_AGG_* (names by text through names(ctx, id)). */
void tt_agg_sort(tt_agg *g, int col, int desc, const char *(*names)(void *ctx, uint32_t id), void *ctx);

typedef struct tt_agg_counter {
	size_t n;            /* samples in [a, b) */
	int known;           /* a value is in effect somewhere in the range */
	double min, max, mean, delta;
} tt_agg_counter;
/* One counter track: rows = its sample ids sorted by ts (tt_track_info). */
void tt_agg_counter_range(const int64_t *ts, const double *value, const uint32_t *rows, size_t nrows,
			  int64_t a, int64_t b, tt_agg_counter *out);

#endif
