/*
 * trackops.c - pin, hide, show and list tracks (see trackops.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trackops.h"

static int group_of_uid(const tt_layout *lay, int uid)
{
	for (int g = 0; g < lay->ngroups; g++)
		if (lay->groups[g].uid == uid)
			return g;
	return -1;
}

/* Moves the tracks [first, first + n) of group from to the end (or, for
 * to_front, the start) of group to. */
static int move_tracks(tt_layout *lay, int from, int to, int at, int n, int to_front)
{
	tt_lgroup *gf = &lay->groups[from], *gt = &lay->groups[to];
	int *nt = realloc(gt->tracks, (size_t)(gt->ntracks + n) * sizeof *nt);
	int *moved = malloc((size_t)(n > 0 ? n : 1) * sizeof *moved);

	if (nt)
		gt->tracks = nt;
	if (!nt || !moved) {
		free(moved);
		return -1;
	}
	memcpy(moved, gf->tracks + at, (size_t)n * sizeof *moved);
	memmove(gf->tracks + at, gf->tracks + at + n, (size_t)(gf->ntracks - at - n) * sizeof *gf->tracks);
	gf->ntracks -= n;
	if (to_front) {
		memmove(gt->tracks + n, gt->tracks, (size_t)gt->ntracks * sizeof *gt->tracks);
		memcpy(gt->tracks, moved, (size_t)n * sizeof *moved);
	} else {
		memcpy(gt->tracks + gt->ntracks, moved, (size_t)n * sizeof *moved);
	}
	gt->ntracks += n;
	for (int i = 0; i < n; i++)
		lay->tracks[moved[i]].group = to;
	free(moved);
	return 0;
}

int tt_trackops_pin(tt_layout *lay, int track, tt_err *err)
{
	tt_ltrack *t = &lay->tracks[track];
	int from = t->group, at = -1, n = 1 + t->nchildren, to;

	if (t->parent >= 0)
		return tt_err_set(err, TT_EINVAL, "pin-track: pin the merged track '%s' it belongs to", t->name), -1;
	if (t->pnames)
		return tt_err_set(err, TT_EINVAL, "pin-track: '%s' is a query pin already (:unpin removes it)",
				  t->name), -1;
	if (t->home_uid >= 0) {
		to = group_of_uid(lay, t->home_uid);
		if (to < 0)
			return tt_err_set(err, TT_EINVAL, "pin-track: the group of '%s' is gone", t->name), -1;
	} else {
		to = tt_layout_pinned_group(lay);
		if (to < 0)
			return tt_err_set(err, TT_ENOMEM, "pin-track: out of memory"), -1;
		from = t->group; /* groups may have moved */
	}
	for (int i = 0; i < lay->groups[from].ntracks; i++)
		if (lay->groups[from].tracks[i] == track)
			at = i;
	if (at < 0 || at + n > lay->groups[from].ntracks)
		return tt_err_set(err, TT_EINVAL, "pin-track: '%s' is not in its group", t->name), -1;
	int pinning = t->home_uid < 0;
	int home = lay->groups[from].uid;
	if (move_tracks(lay, from, to, at, n, pinning) < 0)
		return tt_err_set(err, TT_ENOMEM, "pin-track: out of memory"), -1;
	t->home_uid = pinning ? home : -1;
	lay->groups[to].expanded = 1;
	tt_layout_relines(lay);
	return pinning;
}

void tt_trackops_hide(tt_layout *lay, int track)
{
	lay->tracks[track].user_hidden = 1;
	tt_layout_relines(lay);
}

int tt_trackops_show(tt_layout *lay, const char *name)
{
	int n = 0;

	for (int i = 0; i < lay->ntracks; i++) {
		tt_ltrack *t = &lay->tracks[i];
		if (t->user_hidden && (!strcmp(name, "all") || !strcmp(name, t->name))) {
			t->user_hidden = 0;
			n++;
		}
	}
	if (n)
		tt_layout_relines(lay);
	return n;
}

static int set_cell(char **cell, const char *s)
{
	*cell = strdup(s);
	return *cell ? 0 : -1;
}

int tt_trackops_list(const tt_layout *lay, const char *filter, tt_result *out)
{
	static const char *const cols[] = {"track", "group", "kind", "items", "state"};
	size_t n = 0;

	memset(out, 0, sizeof *out);
	out->ncols = 5;
	out->cols = calloc(5, sizeof *out->cols);
	out->cells = calloc((size_t)lay->ntracks * 5 + 1, sizeof *out->cells);
	if (!out->cols || !out->cells)
		goto oom;
	for (int c = 0; c < 5; c++)
		if (set_cell(&out->cols[c], cols[c]) < 0)
			goto oom;
	for (int g = 0; g < lay->ngroups; g++) {
		const tt_lgroup *gr = &lay->groups[g];
		for (int i = 0; i < gr->ntracks; i++) {
			const tt_ltrack *t = &lay->tracks[gr->tracks[i]];
			char items[32], state[64];
			if (t->removed || (*filter && !strstr(t->name, filter)))
				continue;
			snprintf(items, sizeof items, "%zu", t->nitems);
			snprintf(state, sizeof state, "%s%s%s", t->user_hidden ? "hidden (:show)" : "shown",
				 t->home_uid >= 0 ? ", pinned (P)" : "",
				 t->nchildren ? ", merged" : t->parent >= 0 ? ", member" : "");
			char **row = out->cells + n * 5;
			n++;
			out->nrows = n; /* freed with what is set so far on OOM */
			if (set_cell(&row[0], t->name) < 0 || set_cell(&row[1], gr->name) < 0 ||
			    set_cell(&row[2], t->kind == TT_LT_COUNTER ? "counter" : t->pnames ? "query pin" : "slice") < 0 ||
			    set_cell(&row[3], items) < 0 || set_cell(&row[4], state) < 0)
				goto oom;
		}
	}
	out->total_rows = n;
	return 0;
oom:
	tt_result_free(out);
	return -1;
}
