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

/* ---- keeping the user's arrangement across a rebuild --------------------- */
typedef struct track_key {
	uint32_t id;     /* core track id; MERGED; QUERY (a :pin track) */
	uint32_t member; /* merged: its first member's core id; query: index in q */
} track_key;

enum { KEY_QUERY = UINT32_MAX, KEY_MERGED = UINT32_MAX - 1 };

typedef struct kept_track {
	track_key key;
	int user_hidden, expanded;
} kept_track;

typedef struct kept_group {
	int kind, expanded;
	char name[160];
} kept_group;

struct tt_trackops_keep {
	kept_track *t;
	int nt;
	kept_group *g;
	int ng;
	track_key *pins; /* top-level tracks of the Pinned group, in order */
	int npins;
	tt_ltrack *q;    /* :pin tracks taken out of the old layout */
	int nq;
	track_key cursor; /* the cursor's track and row, */
	int has_cursor, cursor_depth;
	int cursor_group; /* or its group header (index in g), -1 */
	char filter[128];
};

static track_key key_of(const tt_layout *lay, int ti)
{
	const tt_ltrack *t = &lay->tracks[ti];
	track_key k = {t->track_id, 0};

	if (t->track_id == KEY_MERGED) {
		k.member = KEY_QUERY;
		for (int i = 0; i < lay->ntracks; i++)
			if (lay->tracks[i].parent == ti && lay->tracks[i].track_id < k.member)
				k.member = lay->tracks[i].track_id;
	}
	return k;
}

static int find_key(const tt_layout *lay, track_key k)
{
	for (int i = 0; i < lay->ntracks; i++) {
		const tt_ltrack *t = &lay->tracks[i];
		if (t->removed || t->track_id != (k.id == KEY_MERGED ? k.member : k.id))
			continue;
		if (k.id != KEY_MERGED)
			return i;
		return t->parent >= 0 && lay->tracks[t->parent].track_id == KEY_MERGED ? t->parent : -1;
	}
	return -1;
}

tt_trackops_keep *tt_trackops_keep_take(tt_layout *old, int cursor_line)
{
	tt_trackops_keep *k = calloc(1, sizeof *k);
	int pg = -1, cursor_track = -1;

	if (!k)
		return NULL;
	k->cursor_group = -1;
	if (cursor_line >= 0 && cursor_line < old->nlines) {
		cursor_track = old->lines[cursor_line].track;
		k->cursor_depth = old->lines[cursor_line].depth;
		if (cursor_track < 0)
			k->cursor_group = old->lines[cursor_line].group;
	}
	k->t = calloc((size_t)old->ntracks + 1, sizeof *k->t);
	k->g = calloc((size_t)old->ngroups + 1, sizeof *k->g);
	k->pins = calloc((size_t)old->ntracks + 1, sizeof *k->pins);
	k->q = calloc((size_t)old->ntracks + 1, sizeof *k->q);
	if (!k->t || !k->g || !k->pins || !k->q) {
		tt_trackops_keep_apply(NULL, k);
		return NULL;
	}
	snprintf(k->filter, sizeof k->filter, "%s", old->filter);
	for (int g = 0; g < old->ngroups; g++) {
		kept_group *kg = &k->g[k->ng++];
		kg->kind = old->groups[g].kind;
		kg->expanded = old->groups[g].expanded;
		snprintf(kg->name, sizeof kg->name, "%s", old->groups[g].name);
		if (old->groups[g].kind == TT_LG_PINNED)
			pg = g;
	}
	for (int i = 0; i < old->ntracks; i++) {
		const tt_ltrack *t = &old->tracks[i];
		if (t->pnames || t->removed || (!t->user_hidden && !t->expanded))
			continue;
		k->t[k->nt++] = (kept_track){key_of(old, i), t->user_hidden, t->expanded};
	}
	if (cursor_track >= 0 && cursor_track < old->ntracks && !old->tracks[cursor_track].pnames) {
		k->cursor = key_of(old, cursor_track);
		k->has_cursor = 1;
	}
	for (int n = 0; pg >= 0 && n < old->groups[pg].ntracks; n++) {
		int ti = old->groups[pg].tracks[n];
		tt_ltrack *t = &old->tracks[ti];
		if (t->parent >= 0)
			continue; /* members follow their merged track */
		if (!t->pnames) {
			k->pins[k->npins++] = key_of(old, ti);
			continue;
		}
		/* a :pin track owns its columns: it moves over whole, and the
		 * old layout keeps an empty shell to free */
		if (cursor_track == ti) {
			k->cursor = (track_key){KEY_QUERY, (uint32_t)k->nq};
			k->has_cursor = 1;
		}
		k->pins[k->npins++] = (track_key){KEY_QUERY, (uint32_t)k->nq};
		k->q[k->nq++] = *t;
		t->rows = NULL;
		t->ndepth = 0;
		t->pnames = NULL;
		t->pn = 0;
		t->pts = t->pdur = t->pslice = NULL;
		t->pdepth = NULL;
	}
	return k;
}

/* Appends a kept :pin track to the Pinned group; its index or -1. */
static int add_query_pin(tt_layout *lay, tt_ltrack *q)
{
	int g = tt_layout_pinned_group(lay);
	tt_ltrack *nt = g < 0 ? NULL : realloc(lay->tracks, (size_t)(lay->ntracks + 1) * sizeof *nt);

	if (!nt)
		return -1;
	lay->tracks = nt;
	int *gt = realloc(lay->groups[g].tracks, (size_t)(lay->groups[g].ntracks + 1) * sizeof *gt);
	if (!gt)
		return -1;
	lay->groups[g].tracks = gt;
	gt[lay->groups[g].ntracks++] = lay->ntracks;
	nt[lay->ntracks] = *q;
	nt[lay->ntracks].group = g;
	memset(q, 0, sizeof *q); /* owned by lay now */
	return lay->ntracks++;
}

/* Puts the Pinned group's top-level tracks in the order of want (indices,
 * -1 = gone), members after their merged track, anything else after. */
static void order_pinned(tt_layout *lay, const int *want, int n)
{
	int g = tt_layout_pinned_group(lay);
	tt_lgroup *gr = g >= 0 ? &lay->groups[g] : NULL;
	int *out = gr ? malloc((size_t)(gr->ntracks + 1) * sizeof *out) : NULL;
	char *used = gr ? calloc((size_t)gr->ntracks + 1, 1) : NULL;
	int m = 0;

	if (!out || !used) {
		free(out);
		free(used);
		return; /* out of memory: the order is not kept, nothing else */
	}
	for (int w = 0; w <= n; w++) {
		if (w < n && want[w] < 0)
			continue; /* gone */
		for (int i = 0; i < gr->ntracks; i++) {
			int ti = gr->tracks[i];
			int mine = w == n || ti == want[w] || lay->tracks[ti].parent == want[w];
			if (!used[i] && mine) {
				used[i] = 1;
				out[m++] = ti;
			}
		}
	}
	memcpy(gr->tracks, out, (size_t)m * sizeof *out);
	free(out);
	free(used);
}

/* The line of track ti at row depth (its first line when that row is not
 * shown), -1 when not shown. */
static int line_of_row(const tt_layout *lay, int ti, int depth)
{
	for (int i = 0; i < lay->nlines; i++)
		if (lay->lines[i].track == ti && lay->lines[i].depth == depth)
			return i;
	return ti >= 0 ? tt_layout_line_of(lay, ti) : -1;
}

int tt_trackops_keep_apply(tt_layout *lay, tt_trackops_keep *k)
{
	int cursor = -1, line = -1;

	if (!k)
		return -1;
	if (lay) {
		int *want = calloc((size_t)k->npins + 1, sizeof *want);
		for (int i = 0; i < k->nt; i++) {
			int ti = find_key(lay, k->t[i].key);
			if (ti >= 0) {
				lay->tracks[ti].user_hidden = k->t[i].user_hidden;
				lay->tracks[ti].expanded = k->t[i].expanded;
			}
		}
		for (int i = 0; i < k->npins; i++) {
			int ti = -1;
			tt_err err = {0};
			if (k->pins[i].id == KEY_QUERY)
				ti = add_query_pin(lay, &k->q[k->pins[i].member]);
			else if ((ti = find_key(lay, k->pins[i])) >= 0 && tt_trackops_pin(lay, ti, &err) != 1)
				ti = -1;
			if (want)
				want[i] = ti;
			if (k->has_cursor && k->cursor.id == KEY_QUERY && k->pins[i].id == KEY_QUERY &&
			    k->cursor.member == k->pins[i].member)
				cursor = ti;
		}
		if (want && k->npins)
			order_pinned(lay, want, k->npins);
		free(want);
		/* groups last: pinning opens the Pinned group */
		for (int g = 0; g < lay->ngroups; g++)
			for (int i = 0; i < k->ng; i++)
				if (k->g[i].kind == lay->groups[g].kind && !strcmp(k->g[i].name, lay->groups[g].name))
					lay->groups[g].expanded = k->g[i].expanded;
		snprintf(lay->filter, sizeof lay->filter, "%s", k->filter);
		if (k->has_cursor && k->cursor.id != KEY_QUERY)
			cursor = find_key(lay, k->cursor);
		tt_layout_relines(lay);
		if (cursor >= 0)
			line = line_of_row(lay, cursor, k->cursor_depth);
		for (int i = 0; i < lay->nlines && k->cursor_group >= 0; i++) {
			const tt_lgroup *gr = &lay->groups[lay->lines[i].group];
			const kept_group *kg = &k->g[k->cursor_group];
			if (lay->lines[i].track < 0 && gr->kind == kg->kind && !strcmp(gr->name, kg->name)) {
				line = i;
				break;
			}
		}
	}
	/* :pin tracks that found no place (out of memory) are freed through
	 * a shell layout; those placed were emptied */
	tt_layout shell = {0};
	shell.tracks = k->q;
	shell.ntracks = k->nq;
	tt_layout_free(&shell);
	free(k->t);
	free(k->g);
	free(k->pins);
	free(k);
	return line;
}
