/*
 * flow_tracker.c - flows by key and flows waiting for a track's next
 * slice (see flow_tracker.h). Slice ids fit 32 bits (TT_MAX_ROWS).
 */
#include "flow_tracker.h"
#include "keymap.h"

#include <stdlib.h>

/* A key whose flow ended (absent keys are not open either). */
#define ENDED (TT_KEYMAP_NONE - 1)

struct tt_flow_tracker {
	tt_storage *st;
	tt_keymap last;    /* (a, b, c) -> the flow's last slice, or ENDED */
	tt_keymap waiting; /* track -> the slice a flow comes from, or ENDED */
	size_t nwaiting;   /* flows ever put to wait: none, no lookup per slice */
};

tt_flow_tracker *tt_flow_tracker_new(tt_storage *st)
{
	tt_flow_tracker *f = calloc(1, sizeof(*f));

	if (f)
		f->st = st;
	return f;
}

void tt_flow_tracker_free(tt_flow_tracker *f)
{
	if (!f)
		return;
	tt_keymap_free(&f->last);
	tt_keymap_free(&f->waiting);
	free(f);
}

static void put(tt_flow_tracker *f, tt_keymap *m, uint64_t a, uint64_t b, uint64_t c, uint32_t v)
{
	if (tt_keymap_put(m, a, b, c, 0, v))
		tt_storage_set_oom(f->st);
}

int64_t tt_flow_tracker_last(const tt_flow_tracker *f, uint64_t a, uint64_t b, uint64_t c)
{
	uint32_t v = tt_keymap_get(&f->last, a, b, c, 0);

	return v == TT_KEYMAP_NONE || v == ENDED ? -1 : (int64_t)v;
}

void tt_flow_tracker_set(tt_flow_tracker *f, uint64_t a, uint64_t b, uint64_t c, int64_t slice)
{
	if (slice >= 0 && slice < (int64_t)ENDED)
		put(f, &f->last, a, b, c, (uint32_t)slice);
}

void tt_flow_tracker_close(tt_flow_tracker *f, uint64_t a, uint64_t b, uint64_t c)
{
	put(f, &f->last, a, b, c, ENDED);
}

int tt_flow_tracker_link(tt_flow_tracker *f, uint64_t a, uint64_t b, uint64_t c, int64_t slice)
{
	int64_t from = tt_flow_tracker_last(f, a, b, c);

	if (from < 0)
		return 0;
	tt_storage_flow(f->st, from, slice, TT_NONE);
	return 1;
}

void tt_flow_tracker_to_next(tt_flow_tracker *f, uint64_t a, uint64_t b, uint64_t c, uint32_t track)
{
	int64_t from = tt_flow_tracker_last(f, a, b, c);

	if (from < 0)
		return;
	put(f, &f->waiting, track, 0, 0, (uint32_t)from);
	f->nwaiting++;
	tt_flow_tracker_close(f, a, b, c);
}

void tt_flow_tracker_slice_begun(tt_flow_tracker *f, uint32_t track, int64_t slice)
{
	uint32_t from;

	if (!f->nwaiting || slice < 0)
		return;
	from = tt_keymap_get(&f->waiting, track, 0, 0, 0);
	if (from == TT_KEYMAP_NONE || from == ENDED)
		return;
	tt_storage_flow(f->st, (int64_t)from, slice, TT_NONE);
	put(f, &f->waiting, track, 0, 0, ENDED);
}
