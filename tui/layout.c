/*
 * layout.c - groups, tracks, rows and screen lines (see layout.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "timemath.h"
#include "tracktree.h"

/* Per-track ordering key inside a group. */
typedef struct track_key {
	int idx;
	int rank;          /* 0 thread (with its tracks), 1 process-scoped, 2 counter */
	int sub;           /* in a thread: its track, its async tracks, its counters */
	int64_t sort_index, tid;
	uint32_t id;
} track_key;

static int cmp_track_key(const void *pa, const void *pb)
{
	const track_key *a = pa, *b = pb;

	if (a->rank != b->rank)
		return a->rank - b->rank;
	if (a->sort_index != b->sort_index)
		return a->sort_index < b->sort_index ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->sub != b->sub)
		return a->sub - b->sub;
	return a->id < b->id ? -1 : a->id > b->id;
}

static int cpu_track(const tt_track_info *ti)
{
	/* "cpu" and trace processor's cpu_frequency, cpu_idle */
	return ti->type && !strncmp(ti->type, "cpu", 3) && ti->cpu >= 0 && ti->utid == UINT32_MAX;
}

static int cmp_group(const void *pa, const void *pb)
{
	const tt_lgroup *a = pa, *b = pb;

	if (a->kind != b->kind && (a->kind < TT_LG_PROCESS || b->kind < TT_LG_PROCESS))
		return a->kind - b->kind;
	if (a->weight != b->weight)
		return a->weight > b->weight ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* Splits a track's ts-sorted slice ids into one lod row per depth. */
static int build_slice_rows(tt_ltrack *t, const tt_track_info *ti, const tt_slice_cols *sc,
			    int64_t open_end)
{
	uint32_t nd = ti->max_depth ? ti->max_depth : 1;
	size_t *count, *fill;
	uint32_t *ids;
	tt_lod_src src = {sc->ts, sc->dur, NULL, open_end, sc->name};
	int rc = 0;

	if (nd > TT_LAYOUT_MAX_DEPTH)
		nd = TT_LAYOUT_MAX_DEPTH;
	count = calloc(nd + 1, sizeof *count);
	fill = calloc(nd + 1, sizeof *fill);
	ids = malloc((ti->nrows ? ti->nrows : 1) * sizeof *ids);
	t->rows = calloc(nd, sizeof *t->rows);
	if (!count || !fill || !ids || !t->rows) {
		rc = -1;
		goto out;
	}
	for (size_t i = 0; i < ti->nrows; i++) {
		uint32_t d = sc->depth[ti->rows[i]];
		if (d < nd)
			count[d + 1]++;
	}
	for (uint32_t d = 1; d <= nd; d++)
		count[d] += count[d - 1];
	for (size_t i = 0; i < ti->nrows; i++) {
		uint32_t d = sc->depth[ti->rows[i]];
		if (d < nd)
			ids[count[d] + fill[d]++] = (uint32_t)ti->rows[i];
	}
	t->ndepth = (int)nd;
	for (uint32_t d = 0; d < nd; d++)
		if (tt_lod_build(&t->rows[d], &src, ids + count[d], fill[d]) < 0) {
			rc = -1;
			goto out;
		}
out:
	free(count);
	free(fill);
	free(ids);
	return rc;
}

static int build_counter_row(tt_ltrack *t, const tt_track_info *ti, const tt_counter_cols *cc)
{
	uint32_t *ids = malloc((ti->nrows ? ti->nrows : 1) * sizeof *ids);
	tt_lod_src src = {cc->ts, NULL, cc->value, 0, NULL};
	int rc;

	t->rows = calloc(1, sizeof *t->rows);
	if (!ids || !t->rows) {
		free(ids);
		return -1;
	}
	t->ndepth = 1;
	t->vmin = 0;
	t->vmax = 0;
	for (size_t i = 0; i < ti->nrows; i++) {
		double v = cc->value[ti->rows[i]];
		ids[i] = (uint32_t)ti->rows[i];
		if (i == 0 || v < t->vmin)
			t->vmin = v;
		if (i == 0 || v > t->vmax)
			t->vmax = v;
	}
	if (t->vmin > 0)
		t->vmin = 0; /* bars grow from zero when all values are positive */
	rc = tt_lod_build(&t->rows[0], &src, ids, ti->nrows);
	free(ids);
	return rc;
}

static int add_group(tt_layout *lay, int kind, const char *name, int64_t weight)
{
	tt_lgroup *g = realloc(lay->groups, (size_t)(lay->ngroups + 1) * sizeof *g);

	if (!g)
		return -1;
	lay->groups = g;
	g = &lay->groups[lay->ngroups];
	memset(g, 0, sizeof *g);
	g->kind = kind;
	g->weight = weight;
	g->uid = lay->ngroups;
	snprintf(g->name, sizeof g->name, "%s", name);
	return lay->ngroups++;
}

static int group_add_track(tt_lgroup *g, int track)
{
	int *t = realloc(g->tracks, (size_t)(g->ntracks + 1) * sizeof *t);

	if (!t)
		return -1;
	g->tracks = t;
	g->tracks[g->ntracks++] = track;
	return 0;
}

static int cmp_i64(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;

	return a < b ? -1 : a > b;
}

/* Bounds wider than the view can show (a timestamp near +-2^63 next to
 * ordinary ones) are narrowed to TT_TM_MAX_SPAN around the median start
 * time of a sample of the items, so that the bulk of the trace is what
 * opens; the viewer says so once. */
static void clamp_bounds(tt_layout *lay, const tt_slice_cols *sc, const tt_counter_cols *cc)
{
	int64_t sample[1025], mid;
	size_t n = 0, total = sc->n ? sc->n : cc->n;
	const int64_t *ts = sc->n ? sc->ts : cc->ts;

	lay->trace_start = lay->start;
	lay->trace_end = lay->end;
	if (tt_tm_len(lay->start, lay->end) <= TT_TM_MAX_SPAN)
		return;
	for (size_t i = 0; i < total && n < 1025; i++) {
		size_t at = total <= 1025 ? i : (size_t)((double)i * (double)(total - 1) / 1024.0);
		if (at < total)
			sample[n++] = ts[at];
	}
	if (n > 1)
		qsort(sample, n, sizeof *sample, cmp_i64);
	mid = n ? sample[(n - 1) / 2] : tt_tm_mid(lay->start, lay->end);
	int64_t lo = tt_tm_sub(mid, TT_TM_MAX_SPAN / 2);
	if (lo < lay->start)
		lo = lay->start;
	int64_t hi = tt_tm_add(lo, TT_TM_MAX_SPAN);
	if (hi > lay->end) {
		hi = lay->end;
		lo = hi - TT_TM_MAX_SPAN;
	}
	lay->start = lo;
	lay->end = hi;
	lay->clamped = 1;
}

int tt_layout_build(tt_layout *lay, tt_trace *tr)
{
	uint32_t ntr = tt_trace_track_count(tr), nproc = tt_trace_process_count(tr);
	tt_slice_cols sc;
	tt_counter_cols cc;
	int *proc_group = NULL, annot = -1, other = -1, orphan = -1, cpus = -1;
	track_key *keys = NULL;
	int rc = -1;

	memset(lay, 0, sizeof *lay);
	tt_trace_bounds(tr, &lay->start, &lay->end);
	if (lay->end <= lay->start) {
		lay->end = tt_tm_add(lay->start, 1);
		if (lay->end == lay->start) /* a trace at INT64_MAX */
			lay->start = tt_tm_sub(lay->end, 1);
	}
	tt_trace_slices(tr, &sc);
	tt_trace_counters(tr, &cc);
	lay->sc_track = sc.track_id;
	lay->sc_n = sc.n;
	clamp_bounds(lay, &sc, &cc);
	lay->tracks = calloc(ntr ? ntr : 1, sizeof *lay->tracks);
	proc_group = malloc((nproc ? nproc : 1) * sizeof *proc_group);
	keys = calloc(ntr ? ntr : 1, sizeof *keys);
	if (!lay->tracks || !proc_group || !keys)
		goto out;
	for (uint32_t i = 0; i < nproc; i++)
		proc_group[i] = -1;

	for (uint32_t id = 0; id < ntr; id++) {
		tt_track_info ti;
		tt_thread_info th = {0};
		int have_thread = 0, own;
		uint32_t upid;
		int g;

		if (tt_trace_track(tr, id, &ti) != 0 || ti.nrows == 0)
			continue;
		tt_ltrack *t = &lay->tracks[lay->ntracks];
		memset(t, 0, sizeof *t);
		t->track_id = id;
		t->parent = -1;
		t->home_uid = -1;
		t->utid = ti.utid;
		t->kind = ti.is_counter ? TT_LT_COUNTER : TT_LT_SLICE;
		t->nitems = ti.nrows;
		t->is_annotation = ti.type && !strcmp(ti.type, "annotation");
		snprintf(t->unit, sizeof t->unit, "%s", ti.unit ? ti.unit : "");
		upid = ti.upid;
		if (ti.utid != UINT32_MAX && tt_trace_thread(tr, ti.utid, &th) == 0) {
			have_thread = 1;
			if (upid == UINT32_MAX)
				upid = th.upid;
		}
		t->upid = upid;
		/* named slice tracks other than a thread's own merge by name; a
		 * thread's own tracks (its legacy "thread" track and, when the
		 * producer kept them apart, its TrackEvent track: Chrome's
		 * disallow_merging_with_system_tracks) merge into one row named
		 * after the thread, not two rows of the same name */
		own = have_thread && !ti.is_counter && !t->is_annotation &&
		      (!ti.name || !*ti.name ||
		       (ti.parent_id == UINT32_MAX && ti.type && !strcmp(ti.type, "thread")));
		t->own = own;
		t->mergeable = own || (!ti.is_counter && !t->is_annotation && ti.name && *ti.name);
		if (ti.name && *ti.name && ti.is_counter && have_thread && !t->is_annotation)
			/* a thread's counter sits under it and says whose it is */
			snprintf(t->name, sizeof t->name, "%s \xc2\xb7 %s %lld", ti.name,
				 *th.name ? th.name : "thread", (long long)th.tid);
		else if (ti.name && *ti.name && t->is_annotation && have_thread)
			/* several threads may each have a "Long tasks" track */
			snprintf(t->name, sizeof t->name, "%s: %s %lld", ti.name,
				 *th.name ? th.name : "thread", (long long)th.tid);
		else if (ti.name && *ti.name)
			snprintf(t->name, sizeof t->name, "%s", ti.name);
		else if (have_thread)
			snprintf(t->name, sizeof t->name, "%s %lld", *th.name ? th.name : "thread",
				 (long long)th.tid);
		else if (ti.type && !strcmp(ti.type, "chrome_process_instant"))
			/* trace processor gives a process's instant track no
			 * name; it sits in its process's group */
			snprintf(t->name, sizeof t->name, "Process instants");
		else
			snprintf(t->name, sizeof t->name, "track %u", id);
		if (t->kind == TT_LT_COUNTER ? build_counter_row(t, &ti, &cc) < 0
					     : build_slice_rows(t, &ti, &sc, lay->end) < 0)
			goto out;

		keys[lay->ntracks].idx = lay->ntracks;
		keys[lay->ntracks].id = id;
		/* threads first (a process may have thousands of one-slice
		 * async tracks that would bury them), then async/process
		 * tracks, then counters */
		keys[lay->ntracks].rank = have_thread ? 0 : t->kind == TT_LT_COUNTER ? 2 : 1;
		keys[lay->ntracks].sub = t->kind == TT_LT_COUNTER ? 2 : t->mergeable && !own ? 1 : 0;
		keys[lay->ntracks].sort_index = have_thread ? th.sort_index : 0;
		keys[lay->ntracks].tid = have_thread ? th.tid : 0;

		/* CPU tracks (what ran on each CPU) above the processes, by
		 * CPU number, as Perfetto and Trace Compass show them */
		if (cpu_track(&ti)) {
			if (cpus < 0 && (cpus = add_group(lay, TT_LG_CPUS, "CPUs", 0)) < 0)
				goto out;
			g = cpus;
			keys[lay->ntracks].rank = 0;
			keys[lay->ntracks].sort_index = ti.cpu;
			keys[lay->ntracks].tid = 0;
		} else if (t->is_annotation && upid == UINT32_MAX) {
			if (annot < 0 && (annot = add_group(lay, TT_LG_ANNOTATIONS, "Annotations", 0)) < 0)
				goto out;
			g = annot;
		} else if (upid != UINT32_MAX && upid < nproc) {
			if (proc_group[upid] < 0) {
				tt_process_info pi = {0};
				char name[160];
				tt_trace_process(tr, upid, &pi);
				/* long names (command lines) are cut, the pid stays */
				snprintf(name, sizeof name, "%.130s %lld", *pi.name ? pi.name : "process",
					 (long long)pi.pid);
				if ((proc_group[upid] = add_group(lay, TT_LG_PROCESS, name, 0)) < 0)
					goto out;
			}
			g = proc_group[upid];
		} else if (have_thread) {
			if (orphan < 0 && (orphan = add_group(lay, TT_LG_OTHER, "Threads", 0)) < 0)
				goto out;
			g = orphan;
		} else {
			if (other < 0 && (other = add_group(lay, TT_LG_OTHER, "Global", 0)) < 0)
				goto out;
			g = other;
		}
		t->group = g;
		lay->groups[g].weight += (int64_t)ti.nrows;
		lay->ntracks++;
	}
	/* tracks in group order: sort keys, then append to their group */
	if (lay->ntracks > 1)
		qsort(keys, (size_t)lay->ntracks, sizeof *keys, cmp_track_key);
	for (int i = 0; i < lay->ntracks; i++) {
		tt_ltrack *t = &lay->tracks[keys[i].idx];
		if (group_add_track(&lay->groups[t->group], keys[i].idx) < 0)
			goto out;
	}
	/* order groups; fix the group index of each track */
	if (lay->ngroups > 1)
		qsort(lay->groups, (size_t)lay->ngroups, sizeof *lay->groups, cmp_group);
	for (int g = 0; g < lay->ngroups; g++)
		for (int i = 0; i < lay->groups[g].ntracks; i++)
			lay->tracks[lay->groups[g].tracks[i]].group = g;
	if (tt_tracktree_build(lay) < 0)
		goto out;
	/* the most active groups open while they leave room for the others'
	 * headers on a first screen; the rest stay collapsed (their summary
	 * shows on the header line) */
	int budget = 24;
	for (int g = 0; g < lay->ngroups; g++) {
		tt_lgroup *gr = &lay->groups[g];
		int lines = 1;
		for (int i = 0; i < gr->ntracks; i++) {
			const tt_ltrack *t = &lay->tracks[gr->tracks[i]];
			if (t->parent < 0)
				lines += tt_layout_shown_rows(t);
		}
		gr->expanded = gr->kind == TT_LG_ANNOTATIONS || lines <= budget;
		budget -= gr->expanded ? lines : 1;
		if (budget < 0)
			budget = 0;
	}
	tt_layout_relines(lay);
	rc = lay->nlines >= 0 ? 0 : -1;
out:
	free(proc_group);
	free(keys);
	return rc;
}

static void free_track(tt_ltrack *t)
{
	for (int d = 0; d < t->ndepth; d++)
		tt_lod_free(&t->rows[d]);
	free(t->rows);
	for (size_t i = 0; i < t->pn; i++)
		free(t->pnames[i]);
	free(t->pnames);
	free(t->pts);
	free(t->pdur);
	free(t->pdepth);
	free(t->pslice);
	tt_tracktree_free_track(t);
}

void tt_layout_free(tt_layout *lay)
{
	for (int i = 0; i < lay->ntracks; i++)
		free_track(&lay->tracks[i]);
	for (int g = 0; g < lay->ngroups; g++) {
		free(lay->groups[g].tracks);
		tt_tracktree_free_group(&lay->groups[g]);
	}
	free(lay->tracks);
	free(lay->groups);
	free(lay->lines);
	memset(lay, 0, sizeof *lay);
}

static int matches_filter(const tt_layout *lay, const tt_ltrack *t)
{
	return !lay->filter[0] || strstr(t->name, lay->filter) ||
	       strstr(lay->groups[t->group].name, lay->filter);
}

static void push_line(tt_layout *lay, int g, int t, int d)
{
	if (lay->nlines == lay->cap_lines) {
		int cap = lay->cap_lines ? lay->cap_lines * 2 : 256;
		tt_line *l = realloc(lay->lines, (size_t)cap * sizeof *l);
		if (!l)
			return; /* lines stay short; nothing breaks */
		lay->lines = l;
		lay->cap_lines = cap;
	}
	lay->lines[lay->nlines++] = (tt_line){g, t, d};
}

void tt_layout_relines(tt_layout *lay)
{
	lay->nlines = 0;
	for (int g = 0; g < lay->ngroups; g++) {
		tt_lgroup *gr = &lay->groups[g];
		int shown = 0;
		for (int i = 0; i < gr->ntracks; i++) {
			tt_ltrack *t = &lay->tracks[gr->tracks[i]];
			t->hidden = !matches_filter(lay, t);
			shown += !t->hidden && !t->user_hidden;
		}
		if (!shown)
			continue;
		push_line(lay, g, -1, 0);
		if (!gr->expanded && !lay->filter[0]) /* a filter shows its matches */
			continue;
		for (int i = 0; i < gr->ntracks; i++) {
			int ti = gr->tracks[i];
			tt_ltrack *t = &lay->tracks[ti];
			if (t->hidden || t->removed || t->user_hidden ||
			    (t->parent >= 0 && !lay->tracks[t->parent].expanded))
				continue;
			int rows = tt_layout_shown_rows(t);
			for (int d = 0; d < rows; d++)
				push_line(lay, g, ti, d);
		}
	}
}

int tt_layout_find_track(const tt_layout *lay, uint32_t track_id)
{
	for (int i = 0; i < lay->ntracks; i++)
		if (lay->tracks[i].track_id == track_id) {
			int p = lay->tracks[i].parent;
			/* a member of a collapsed merged track: the merged one */
			return p >= 0 && !lay->tracks[p].expanded ? p : i;
		}
	return -1;
}

int tt_layout_shown_rows(const tt_ltrack *t)
{
	if (t->kind == TT_LT_COUNTER)
		return 2;
	return t->expanded || t->ndepth <= TT_LAYOUT_FOLD_DEPTH ? t->ndepth : TT_LAYOUT_FOLD_DEPTH;
}

int tt_layout_item_row(const tt_layout *lay, int track, int64_t id, const uint32_t *depth)
{
	const tt_ltrack *t = &lay->tracks[track];

	if (t->pdepth)
		return (int)t->pdepth[id];
	if (t->mids) {
		size_t lo = 0, hi = t->mn;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (t->mids[mid] < (uint32_t)id)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo < t->mn && t->mids[lo] == (uint32_t)id ? (int)t->mrows[lo] : 0;
	}
	return (int)depth[id];
}

int tt_layout_line_of(const tt_layout *lay, int track)
{
	int g = lay->tracks[track].group;

	for (int i = 0; i < lay->nlines; i++)
		if (lay->lines[i].track == track && lay->lines[i].depth == 0)
			return i;
	for (int i = 0; i < lay->nlines; i++)
		if (lay->lines[i].group == g && lay->lines[i].track < 0)
			return i;
	return -1;
}

const tt_lod_src *tt_layout_src(const tt_layout *lay, int track)
{
	const tt_ltrack *t = &lay->tracks[track];
	static const tt_lod_src none = {0};

	return t->ndepth > 0 ? &t->rows[0].src : &none;
}

static int find_col(const tt_result *res, const char *name)
{
	for (int c = 0; c < res->ncols; c++)
		if (res->cols[c] && !strcmp(res->cols[c], name))
			return c;
	return -1;
}

/* Pinned rows get depths by nesting: a slice inside the previous open one
 * goes one row deeper (rows sorted by ts, then longest first). */
static const tt_ltrack *pin_sort;
static const int64_t *pin_band;
static int cmp_pin(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	const tt_ltrack *t = pin_sort;

	if (pin_band[a] != pin_band[b])
		return pin_band[a] < pin_band[b] ? -1 : 1;
	if (t->pts[a] != t->pts[b])
		return t->pts[a] < t->pts[b] ? -1 : 1;
	if (t->pdur[a] != t->pdur[b])
		return t->pdur[a] > t->pdur[b] ? -1 : 1;
	return a < b ? -1 : a > b;
}

int tt_layout_pinned_group(tt_layout *lay)
{
	int g = -1;

	for (int i = 0; i < lay->ngroups; i++)
		if (lay->groups[i].kind == TT_LG_PINNED)
			return i;
	/* new group goes after the annotations, before the processes */
	if (add_group(lay, TT_LG_PINNED, "Pinned", 0) < 0)
		return -1;
	qsort(lay->groups, (size_t)lay->ngroups, sizeof *lay->groups, cmp_group);
	for (int i = 0; i < lay->ngroups; i++) {
		if (lay->groups[i].kind == TT_LG_PINNED)
			g = i;
		for (int k = 0; k < lay->groups[i].ntracks; k++)
			lay->tracks[lay->groups[i].tracks[k]].group = i;
	}
	lay->groups[g].expanded = 1;
	return g;
}

/* Whether every row has the same non-NULL name. */
static int same_name(const tt_result *res, int cname)
{
	const char *first = res->nrows ? res->cells[cname] : NULL;

	if (!first)
		return 0;
	for (size_t r = 1; r < res->nrows; r++) {
		const char *s = res->cells[r * (size_t)res->ncols + cname];
		if (!s || strcmp(s, first))
			return 0;
	}
	return 1;
}

int tt_layout_unpin(tt_layout *lay, const char *name)
{
	int n = 0;

	for (int g = 0; g < lay->ngroups; g++) {
		tt_lgroup *gr = &lay->groups[g];
		if (gr->kind != TT_LG_PINNED)
			continue;
		int k = 0;
		for (int i = 0; i < gr->ntracks; i++) {
			tt_ltrack *t = &lay->tracks[gr->tracks[i]];
			if (t->pnames && (!strcmp(name, "all") || !strcmp(t->name, name))) {
				t->removed = 1;
				n++;
			} else {
				gr->tracks[k++] = gr->tracks[i];
			}
		}
		gr->ntracks = k;
	}
	if (n)
		tt_layout_relines(lay);
	return n;
}

int tt_layout_pin(tt_layout *lay, const tt_result *res, const char *title, tt_err *err)
{
	int cts = find_col(res, "ts"), cdur = find_col(res, "dur"), cname = find_col(res, "name");
	int ctrack = find_col(res, "track_name");
	int g = -1, idx;
	tt_ltrack *t;
	uint32_t *order = NULL, **byd = NULL;
	int64_t *pband = NULL;
	size_t *nbyd = NULL;
	int64_t stack_end[TT_LAYOUT_MAX_DEPTH];
	int sp = 0, maxd = 0;

	int cslice = find_col(res, "slice_id"), cutid = find_col(res, "utid");

	if (cts < 0 || cdur < 0 || cname < 0)
		return tt_err_set(err, TT_EINVAL, "pin: the query needs columns ts, dur and name"), -1;
	if (res->nrows == 0)
		return tt_err_set(err, TT_EINVAL, "pin: the query returned no rows (no track made)"), -1;
	if ((g = tt_layout_pinned_group(lay)) < 0)
		goto oom;
	t = realloc(lay->tracks, (size_t)(lay->ntracks + 1) * sizeof *t);
	if (!t)
		goto oom;
	lay->tracks = t;
	idx = lay->ntracks;
	t = &lay->tracks[idx];
	memset(t, 0, sizeof *t);
	t->track_id = UINT32_MAX;
	t->kind = TT_LT_SLICE;
	t->group = g;
	t->parent = -1;
	t->home_uid = -1;
	t->utid = t->upid = UINT32_MAX;
	if (ctrack >= 0 && res->nrows > 0 && res->cells[ctrack])
		snprintf(t->name, sizeof t->name, "%s", res->cells[ctrack]);
	else if (same_name(res, cname))
		snprintf(t->name, sizeof t->name, "%s", res->cells[cname]);
	else
		snprintf(t->name, sizeof t->name, "%s", title);
	t->parent = -1;
	t->home_uid = -1;
	t->utid = t->upid = UINT32_MAX;
	t->pn = res->nrows;
	t->nitems = res->nrows;
	size_t n = res->nrows ? res->nrows : 1;
	t->pts = calloc(n, sizeof *t->pts);
	t->pdur = calloc(n, sizeof *t->pdur);
	t->pnames = calloc(n, sizeof *t->pnames);
	t->pdepth = calloc(n, sizeof *t->pdepth);
	t->pslice = malloc(n * sizeof *t->pslice);
	pband = calloc(n, sizeof *pband);
	order = malloc(n * sizeof *order);
	nbyd = calloc(TT_LAYOUT_MAX_DEPTH, sizeof *nbyd);
	byd = calloc(TT_LAYOUT_MAX_DEPTH, sizeof *byd);
	if (!t->pts || !t->pdur || !t->pnames || !t->pdepth || !t->pslice || !pband || !order || !nbyd || !byd)
		goto oom_track;
	for (size_t r = 0; r < res->nrows; r++) {
		char **row = res->cells + r * (size_t)res->ncols;
		t->pts[r] = row[cts] ? strtoll(row[cts], NULL, 10) : 0;
		t->pdur[r] = row[cdur] ? strtoll(row[cdur], NULL, 10) : 0;
		t->pnames[r] = strdup(row[cname] ? row[cname] : "NULL");
		if (!t->pnames[r])
			goto oom_track;
		t->pslice[r] = cslice >= 0 && row[cslice] ? strtoll(row[cslice], NULL, 10) : -1;
		/* the band: the source slice's track, else the thread */
		if (t->pslice[r] >= 0 && (size_t)t->pslice[r] < lay->sc_n)
			pband[r] = (int64_t)lay->sc_track[t->pslice[r]];
		else if (cutid >= 0 && row[cutid])
			pband[r] = strtoll(row[cutid], NULL, 10);
		else
			pband[r] = -1;
		order[r] = (uint32_t)r;
	}
	pin_sort = t;
	pin_band = pband;
	if (res->nrows > 1)
		qsort(order, res->nrows, sizeof *order, cmp_pin);
	/* rows sorted by band, then ts: each band nests on its own, below
	 * the rows of the bands before it */
	int base = 0, bandmax = 0;
	for (size_t i = 0; i < res->nrows; i++) {
		uint32_t id = order[i];
		int64_t end = tt_tm_end(t->pts[id], t->pdur[id]);
		if (i > 0 && pband[id] != pband[order[i - 1]]) {
			base += bandmax;
			bandmax = 0;
			sp = 0;
		}
		while (sp > 0 && stack_end[sp - 1] <= t->pts[id])
			sp--;
		if (sp >= TT_LAYOUT_MAX_DEPTH)
			sp = TT_LAYOUT_MAX_DEPTH - 1;
		int d = base + sp < TT_LAYOUT_MAX_DEPTH ? base + sp : TT_LAYOUT_MAX_DEPTH - 1;
		t->pdepth[id] = (uint32_t)d;
		if (d + 1 > maxd)
			maxd = d + 1;
		if (sp + 1 > bandmax)
			bandmax = sp + 1;
		stack_end[sp++] = end;
	}
	t->ndepth = maxd ? maxd : 1;
	t->rows = calloc((size_t)t->ndepth, sizeof *t->rows);
	if (!t->rows)
		goto oom_track;
	for (size_t i = 0; i < res->nrows; i++) {
		uint32_t d = t->pdepth[order[i]];
		uint32_t *p = realloc(byd[d], (nbyd[d] + 1) * sizeof *p);
		if (!p)
			goto oom_track;
		byd[d] = p;
		byd[d][nbyd[d]++] = order[i];
	}
	tt_lod_src src = {t->pts, t->pdur, NULL, lay->end, NULL};
	for (int d = 0; d < t->ndepth; d++)
		if (tt_lod_build(&t->rows[d], &src, byd[d], nbyd[d]) < 0)
			goto oom_track;
	lay->ntracks++;
	if (group_add_track(&lay->groups[g], idx) < 0) {
		lay->ntracks--;
		goto oom_track;
	}
	tt_layout_relines(lay);
	for (int d = 0; d < TT_LAYOUT_MAX_DEPTH; d++)
		free(byd[d]);
	free(byd);
	free(nbyd);
	free(order);
	free(pband);
	return idx;
oom_track:
	free_track(&lay->tracks[lay->ntracks]);
oom:
	if (byd)
		for (int d = 0; d < TT_LAYOUT_MAX_DEPTH; d++)
			free(byd[d]);
	free(byd);
	free(nbyd);
	free(order);
	free(pband);
	tt_err_set(err, TT_ENOMEM, "pin: out of memory");
	return -1;
}
