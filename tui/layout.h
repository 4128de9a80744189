/*
 * layout.h - what the timeline shows and in which order: process groups,
 * their tracks, the rows of each track (one per nesting depth, with its
 * level-of-detail summary), and the flat list of screen lines after
 * collapsing and filtering.
 *
 * Built once after import from the public API (tt_trace_track, ...);
 * the per-frame path reads only the tt_lod rows. Groups: "Annotations"
 * (tracks of type "annotation") and "Pinned" (:pin queries) at the top,
 * then processes and other groups, biggest (most slices and samples)
 * first. Inside a process: process-scoped tracks, then threads by sort
 * index and tid, then counters.
 */
#ifndef TT_LAYOUT_H
#define TT_LAYOUT_H

#include <stdint.h>

#include "lod.h"
#include "termtrace.h"

#define TT_LAYOUT_MAX_DEPTH 64 /* rows drawn per track; deeper slices are not */

enum { TT_LT_SLICE, TT_LT_COUNTER };
enum { TT_LG_ANNOTATIONS, TT_LG_PINNED, TT_LG_CPUS, TT_LG_PROCESS, TT_LG_OTHER };

typedef struct tt_ltrack {
	uint32_t track_id;  /* core track id; UINT32_MAX for a pinned track */
	char name[112];
	int kind;           /* TT_LT_* */
	int group;
	int is_annotation;
	int ndepth;         /* rows */
	tt_lod_row *rows;   /* ndepth rows (depth 0 first) */
	size_t nitems;
	double vmin, vmax;  /* counters */
	char unit[24];
	int hidden;         /* filtered out by :track */
	/* pinned tracks own their columns; ids index these */
	int64_t *pts, *pdur;
	char **pnames;
	uint32_t *pdepth;
	int64_t *pslice;    /* source slice of each row (slice_id column), -1 */
	size_t pn;
	int removed;        /* :unpin: gone from its group */
	int user_hidden;    /* x (trackops.c) */
	int home_uid;       /* P: the group it came from (uid), -1 = not moved */
	/* track tree (tracktree.c) */
	uint32_t utid, upid;  /* UINT32_MAX when none */
	int mergeable;      /* a named async slice track: merges by name */
	int own;            /* one of its thread's own slice tracks (merges with the others) */
	int parent;         /* merged track holding this one, -1 = none */
	int nchildren;      /* merged track: its member tracks follow it */
	int expanded;       /* children / all depth rows shown */
	uint32_t *mids, *mrows; /* merged: row of each slice id (sorted by id) */
	size_t mn;
} tt_ltrack;

#define TT_SUMMARY_BUCKETS 4096

/* Rows a slice track shows until it is expanded. */
#define TT_LAYOUT_FOLD_DEPTH 6

typedef struct tt_lgroup {
	char name[160];
	int kind;           /* TT_LG_* */
	int expanded;
	int64_t weight;
	int *tracks;
	int ntracks;
	int uid;             /* stays with the group when groups are sorted */
	/* process summary (tracktree.c): threads inside a top-level slice */
	int nthreads;
	tt_lod_row summary;  /* counter row over sum_ts/sum_val */
	int64_t *sum_ts;
	double *sum_val;
	/* the same at a fixed resolution, for wide cells: the most threads
	 * busy in each of TT_SUMMARY_BUCKETS equal spans of the trace */
	uint16_t *coarse;
	int64_t coarse_w;  /* ns per bucket */
} tt_lgroup;

typedef struct tt_line {
	int group;
	int track;  /* -1: the group header */
	int depth;
} tt_line;

typedef struct tt_layout {
	tt_ltrack *tracks;
	int ntracks;
	tt_lgroup *groups;
	int ngroups;
	tt_line *lines;
	int nlines, cap_lines;
	int64_t start, end; /* trace bounds, clamped to what the view shows */
	int64_t trace_start, trace_end; /* the trace's own bounds */
	int clamped;        /* start/end were narrowed (TT_TM_MAX_SPAN) */
	char filter[128];   /* :track filter, "" = all */
	const uint32_t *sc_track; /* track of each slice (tt_slice_cols) */
	size_t sc_n;
} tt_layout;

/* Builds the layout of an opened trace. Returns 0, -1 on OOM. */
int tt_layout_build(tt_layout *lay, tt_trace *tr);
void tt_layout_free(tt_layout *lay);
/* Recomputes lines after a change of expansion, filter or tracks. */
void tt_layout_relines(tt_layout *lay);
/* Adds a pinned slice track from a query result with columns ts, dur,
 * name, optional track_name (the title; else the slices' name when they
 * share one, else `title`), slice_id (kept: the source of each row) and
 * utid. Rows of different source tracks (or threads) get rows of their
 * own: nesting is only within one. Returns the track index, or -1 with a
 * message in err (missing columns, no rows, OOM). */
int tt_layout_pin(tt_layout *lay, const tt_result *res, const char *title, tt_err *err);
/* The "Pinned" group (made at the top when missing), -1 on OOM. */
int tt_layout_pinned_group(tt_layout *lay);
/* Removes pinned tracks named name ("all": every one). Returns how many. */
int tt_layout_unpin(tt_layout *lay, const char *name);
/* Layout track index of a core track id, -1 if not shown. */
int tt_layout_find_track(const tt_layout *lay, uint32_t track_id);
/* First line of a track (its depth 0 row, or its group header when the
 * group is collapsed), -1 when hidden. */
int tt_layout_line_of(const tt_layout *lay, int track);
/* Row (screen line under the track's first) of item id of a track:
 * its nesting depth, or its packed row in a merged track. */
int tt_layout_item_row(const tt_layout *lay, int track, int64_t id, const uint32_t *depth);
/* Depth rows a track shows now (folded deep tracks show fewer). */
int tt_layout_shown_rows(const tt_ltrack *t);
/* Source columns of a track's items (for slices: ts/dur by id). */
const tt_lod_src *tt_layout_src(const tt_layout *lay, int track);

#endif
