/*
 * slice_tracker.c - nesting of slices per track (see slice_tracker.h).
 *
 * Per track, a stack of entries: slices opened by a begin (end unknown) and
 * complete slices that may still enclose later ones (end known). A new
 * event first pops the complete entries that ended at or before it.
 * Limits: nesting deeper than MAX_DEPTH is dropped and counted.
 *
 * The tracker writes slices through storage.h only: an entry keeps the
 * slice's ts, category and name (never changed once appended), so that
 * matching an end reads no column.
 */
#include "slice_tracker.h"

#include "keymap.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 1024
#define OPEN INT64_MAX /* end of a slice opened by a begin */

struct entry {
	int64_t id;
	int64_t end; /* OPEN for begin/end slices */
	int64_t ts;
	tt_str cat, name;
};

struct stack {
	struct entry *e;
	uint32_t n, cap;
};

struct tt_slice_tracker {
	tt_storage *st;
	int stack_instants;    /* see tt_slice_tracker_stack_instants */
	tt_args_tracker *args; /* merges an end's args; NULL: storage's merge */
	struct stack *stacks; /* by track id */
	size_t nstacks;
	tt_keymap renames;     /* raw name -> the name slices take (tt_slice_tracker_rename) */
};

tt_slice_tracker *tt_slice_tracker_new(tt_storage *st, tt_args_tracker *args)
{
	tt_slice_tracker *t = calloc(1, sizeof(*t));

	if (t) {
		t->st = st;
		t->args = args;
	}
	return t;
}

void tt_slice_tracker_free(tt_slice_tracker *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nstacks; i++)
		free(t->stacks[i].e);
	free(t->stacks);
	tt_keymap_free(&t->renames);
	free(t);
}

int tt_slice_tracker_rename(tt_slice_tracker *t, tt_str raw, tt_str name)
{
	return tt_keymap_put(&t->renames, raw, 0, 0, 0, name);
}

static struct stack *stack_of(tt_slice_tracker *t, uint32_t track)
{
	if (track == TT_NONE)
		return NULL;
	if (track >= t->nstacks) {
		size_t n = t->nstacks ? t->nstacks : 64;
		struct stack *ns;

		while (n <= track)
			n *= 2;
		ns = realloc(t->stacks, n * sizeof(*ns));
		if (!ns) {
			tt_storage_set_oom(t->st);
			return NULL;
		}
		memset(ns + t->nstacks, 0, (n - t->nstacks) * sizeof(*ns));
		t->stacks = ns;
		t->nstacks = n;
	}
	return &t->stacks[track];
}

static int push(tt_slice_tracker *t, struct stack *s, struct entry e)
{
	if (s->n == s->cap) {
		uint32_t ncap = s->cap ? s->cap * 2 : 8;
		struct entry *ne = realloc(s->e, ncap * sizeof(*ne));

		if (!ne) {
			tt_storage_set_oom(t->st);
			return -1;
		}
		s->e = ne;
		s->cap = ncap;
	}
	s->e[s->n++] = e;
	return 0;
}

/* Pops the complete slices that ended at or before ts, except that an
 * instant stays under a new instant of its ts (trace processor: intervals
 * are closed on the left, open on the right, so instants only meet
 * instants, and those stack). */
static void pop_ended_for(struct stack *s, int64_t ts, int new_instant)
{
	while (s->n && s->e[s->n - 1].end != OPEN && s->e[s->n - 1].end <= ts) {
		const struct entry *e = &s->e[s->n - 1];

		if (new_instant && e->end == ts && e->ts == ts)
			break;
		s->n--;
	}
}

static void pop_ended(struct stack *s, int64_t ts)
{
	pop_ended_for(s, ts, 0);
}

static int64_t add(tt_slice_tracker *t, uint32_t track, int64_t ts, int64_t dur, tt_str cat,
		   tt_str name, uint32_t args, int64_t end)
{
	struct stack *s = stack_of(t, track);
	int64_t parent = -1, id;

	if (!s)
		return -1;
	if (t->renames.n && name) {
		uint32_t to = tt_keymap_get(&t->renames, name, 0, 0, 0);

		if (to != TT_KEYMAP_NONE)
			name = to;
	}
	pop_ended_for(s, ts, t->stack_instants && end != OPEN && dur == 0);
	if (s->n) {
		parent = s->e[s->n - 1].id;
		if (ts < s->e[s->n - 1].ts) {
			tt_storage_stat_add(t->st, TT_STAT_slice_backwards, 1);
			return -1;
		}
		if (end != OPEN && s->e[s->n - 1].end != OPEN && end > s->e[s->n - 1].end)
			tt_storage_stat_add(t->st, TT_STAT_slice_overlap, 1);
	}
	if (s->n >= MAX_DEPTH) {
		tt_storage_stat_add(t->st, TT_STAT_slice_depth_limit, 1);
		return -1;
	}
	id = tt_storage_slice_append(t->st, track, ts, dur, cat, name, s->n, parent, args);
	if (id < 0)
		return -1;
	/* (stacking instants: the next instant of its ts nests in it, and
	 * flows bind to it until the track's next slice event) */
	if ((end == OPEN || dur > 0 || t->stack_instants) && push(t, s, (struct entry){ id, end, ts, cat, name }))
		return -1;
	return id;
}

int64_t tt_slice_tracker_begin(tt_slice_tracker *t, uint32_t track, int64_t ts, tt_str cat,
			       tt_str name, uint32_t arg_set_id)
{
	return add(t, track, ts, -1, cat, name, arg_set_id, OPEN);
}

int64_t tt_slice_tracker_complete(tt_slice_tracker *t, uint32_t track, int64_t ts, int64_t dur,
				  tt_str cat, tt_str name, uint32_t arg_set_id)
{
	int64_t end;

	if (dur < 0)
		dur = 0;
	/* an end past the last int64 (a file's absurd ts + dur; importers
	 * that follow Perfetto drop those first) nests as ending there */
	if (__builtin_add_overflow(ts, dur, &end))
		end = INT64_MAX;
	return add(t, track, ts, dur, cat, name, arg_set_id, end);
}

/* end - begin for end >= begin; a difference past INT64_MAX (a begin near
 * -2^63, an end near 2^63) is kept at INT64_MAX instead of wrapping. */
static int64_t dur_between(int64_t begin, int64_t end)
{
	int64_t d;

	return __builtin_sub_overflow(end, begin, &d) ? INT64_MAX : d;
}

/* Closes stack entry target at ts with the slices inside it. */
static int64_t close_at(tt_slice_tracker *t, struct stack *s, uint32_t target, int64_t ts,
			uint32_t arg_set_id)
{
	tt_storage *st = t->st;
	const struct entry *e = &s->e[target];
	int64_t id = e->id;

	for (uint32_t k = s->n; k > target + 1; k--) {
		const struct entry *in = &s->e[k - 1];

		if (tt_storage_slice_dur(st, in->id) < 0)
			tt_storage_slice_set_dur(st, in->id, ts >= in->ts ? dur_between(in->ts, ts) : 0);
	}
	if (ts < e->ts) {
		tt_storage_stat_add(st, TT_STAT_slice_backwards, 1);
		ts = e->ts;
	}
	tt_storage_slice_set_dur(st, id, dur_between(e->ts, ts));
	s->n = target;
	if (arg_set_id != TT_NONE) {
		uint32_t cur = tt_storage_slice_args(st, id);

		tt_storage_slice_set_args(st, id, t->args ? tt_args_tracker_merge(t->args, cur, arg_set_id)
							  : tt_storage_args_merge(st, cur, arg_set_id));
	}
	return id;
}

/* The innermost open slice of stack s matching cat and name as
 * trace processor's MatchingIncompleteSliceIndex matches (zero: any), its
 * index + 1, or 0. */
static uint32_t matching_open(const struct stack *s, tt_str cat, tt_str name)
{
	for (uint32_t k = s->n; k > 0; k--) {
		const struct entry *e = &s->e[k - 1];

		if (e->end != OPEN)
			continue;
		if (cat && e->cat != cat)
			continue;
		if (name && e->name && e->name != name)
			continue;
		return k;
	}
	return 0;
}

static int64_t end_matching(tt_slice_tracker *t, uint32_t track, int64_t ts, tt_str cat, tt_str name,
			    uint32_t arg_set_id, int count)
{
	struct stack *s = stack_of(t, track);
	uint32_t k;

	if (s) {
		pop_ended(s, ts);
		if ((k = matching_open(s, cat, name)))
			return close_at(t, s, k - 1, ts, arg_set_id);
	}
	if (count)
		tt_storage_stat_add(t->st, TT_STAT_slice_end_unmatched, 1);
	return -1;
}

int64_t tt_slice_tracker_end_match(tt_slice_tracker *t, uint32_t track, int64_t ts, tt_str cat,
				   tt_str name, uint32_t arg_set_id)
{
	return end_matching(t, track, ts, cat, name, arg_set_id, 1);
}

int64_t tt_slice_tracker_end_quiet(tt_slice_tracker *t, uint32_t track, int64_t ts, tt_str cat, tt_str name,
				   uint32_t arg_set_id)
{
	return end_matching(t, track, ts, cat, name, arg_set_id, 0);
}

int64_t tt_slice_tracker_add_args(tt_slice_tracker *t, uint32_t track, tt_str cat, tt_str name,
				  uint32_t arg_set_id)
{
	struct stack *s = stack_of(t, track);
	uint32_t k = s ? matching_open(s, cat, name) : 0;
	int64_t id;
	uint32_t cur;

	if (!k)
		return -1;
	id = s->e[k - 1].id;
	if (arg_set_id == TT_NONE)
		return id;
	cur = tt_storage_slice_args(t->st, id);
	tt_storage_slice_set_args(t->st, id, t->args ? tt_args_tracker_merge(t->args, cur, arg_set_id)
						     : tt_storage_args_merge(t->st, cur, arg_set_id));
	return id;
}

int64_t tt_slice_tracker_end(tt_slice_tracker *t, uint32_t track, int64_t ts, tt_str name,
			     uint32_t arg_set_id)
{
	struct stack *s = stack_of(t, track);
	tt_storage *st = t->st;
	int64_t innermost = -1, target = -1;
	uint32_t k;

	if (!s)
		return -1;
	pop_ended(s, ts);
	/* The innermost slice opened by a begin; complete slices above it
	 * that are still running end with it. */
	for (k = s->n; k > 0; k--) {
		if (s->e[k - 1].end == OPEN) {
			innermost = k - 1;
			break;
		}
	}
	if (innermost < 0) {
		tt_storage_stat_add(st, TT_STAT_slice_end_unmatched, 1);
		return -1;
	}
	target = innermost;
	if (name && s->e[innermost].name != name) {
		tt_storage_stat_add(st, TT_STAT_slice_end_name_mismatch, 1);
		for (k = (uint32_t)innermost + 1; k > 0; k--) {
			if (s->e[k - 1].end == OPEN && s->e[k - 1].name == name) {
				target = k - 1;
				break;
			}
		}
	}
	/* Slices inside the target end with it. */
	return close_at(t, s, (uint32_t)target, ts, arg_set_id);
}

int64_t tt_slice_tracker_overlapping(tt_slice_tracker *t, uint32_t track, int64_t ts, int64_t dur)
{
	struct stack *s = stack_of(t, track);

	if (!s || dur <= 0)
		return -1;
	pop_ended(s, ts);
	for (uint32_t k = s->n; k > 0; k--) {
		int64_t end = s->e[k - 1].end;

		if (end != OPEN && ts < end && dur > dur_between(ts, end))
			return s->e[k - 1].id;
	}
	return -1;
}

int tt_slice_tracker_overlaps(tt_slice_tracker *t, uint32_t track, int64_t ts, int64_t dur)
{
	return tt_slice_tracker_overlapping(t, track, ts, dur) >= 0;
}

int64_t tt_slice_tracker_enclosing(tt_slice_tracker *t, uint32_t track, int64_t ts)
{
	struct stack *s = stack_of(t, track);

	if (!s)
		return -1;
	pop_ended(s, ts);
	return s->n ? s->e[s->n - 1].id : -1;
}

void tt_slice_tracker_stack_instants(tt_slice_tracker *t, int on)
{
	t->stack_instants = on;
}

int64_t tt_slice_tracker_top(tt_slice_tracker *t, uint32_t track)
{
	struct stack *s = stack_of(t, track);

	return s && s->n ? s->e[s->n - 1].id : -1;
}

void tt_slice_tracker_flush(tt_slice_tracker *t)
{
	for (size_t i = 0; i < t->nstacks; i++) {
		struct stack *s = &t->stacks[i];

		for (uint32_t k = 0; k < s->n; k++)
			if (s->e[k].end == OPEN && tt_storage_slice_dur(t->st, s->e[k].id) < 0)
				tt_storage_stat_add(t->st, TT_STAT_slice_unfinished, 1);
		s->n = 0;
	}
}
