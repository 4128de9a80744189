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
	size_t pn;
} tt_ltrack;

typedef struct tt_lgroup {
	char name[160];
	int kind;           /* TT_LG_* */
	int expanded;
	int64_t weight;
	int *tracks;
	int ntracks;
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
} tt_layout;

/* Builds the layout of an opened trace. Returns 0, -1 on OOM. */
int tt_layout_build(tt_layout *lay, tt_trace *tr);
void tt_layout_free(tt_layout *lay);
/* Recomputes lines after a change of expansion, filter or tracks. */
void tt_layout_relines(tt_layout *lay);
/* Adds a pinned slice track from a query result with columns ts, dur,
 * name (and optional track_name for the title). Returns the track index,
 * or -1 with a message in err (missing columns, OOM). */
int tt_layout_pin(tt_layout *lay, const tt_result *res, const char *title, tt_err *err);
/* Layout track index of a core track id, -1 if not shown. */
int tt_layout_find_track(const tt_layout *lay, uint32_t track_id);
/* First line of a track (its depth 0 row, or its group header when the
 * group is collapsed), -1 when hidden. */
int tt_layout_line_of(const tt_layout *lay, int track);
/* Source columns of a track's items (for slices: ts/dur by id). */
const tt_lod_src *tt_layout_src(const tt_layout *lay, int track);

#endif
