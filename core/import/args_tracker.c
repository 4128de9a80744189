/*
 * args_tracker.c - arg sets kept once by content, and args added to rows
 * by merging (see args_tracker.h). The table holds set ids by the hash of
 * their rows; storage hashes and compares the rows.
 */
#include "args_tracker.h"

#include <stdlib.h>

struct tt_args_tracker {
	tt_storage *st;
	int on;                 /* tt_args_tracker_dedupe */
	uint64_t *slot;         /* hash's high half << 32 | set + 1; 0 = empty */
	size_t cap, n;          /* cap: a power of two; at most 3/4 full (see put) */
	uint64_t tries, hits;   /* sets ended while on, and found */
	struct memo *memo;      /* merges made while on (MEMO slots) */
};

/* A merge of two sets kept once is a function of the pair while the
 * table is on: the merged rows are found again as the set they made the
 * first time. A Chromium trace's slice ends merge the same pair again
 * six times in ten; the memo spares rebuilding and hashing those rows.
 * Direct-mapped: a pair pushed out is only merged again. */
#define MEMO_BITS 12
#define MEMO (1u << MEMO_BITS)
struct memo {
	uint32_t begin, end, set; /* set + 1: 0 = empty */
};

tt_args_tracker *tt_args_tracker_new(tt_storage *st)
{
	tt_args_tracker *a = calloc(1, sizeof(*a));

	if (a)
		a->st = st;
	return a;
}

static void table_free(tt_args_tracker *a)
{
	free(a->slot);
	a->slot = NULL;
	a->cap = a->n = 0;
	free(a->memo);
	a->memo = NULL;
}

void tt_args_tracker_free(tt_args_tracker *a)
{
	if (!a)
		return;
	table_free(a);
	free(a);
}

void tt_args_tracker_dedupe(tt_args_tracker *a, int on)
{
	a->on = on;
	free(a->memo);
	a->memo = NULL;
}

/* The earlier set whose rows are those under construction, or TT_NONE;
 * a slot's high half skips most row comparisons. */
static uint32_t find(const tt_args_tracker *a, uint64_t h)
{
	size_t mask = a->cap - 1;

	if (!a->cap)
		return TT_NONE;
	for (size_t i = (size_t)(h >> 32) & mask;; i = (i + 1) & mask) {
		uint64_t e = a->slot[i];

		if (!e)
			return TT_NONE;
		if ((e >> 32) == (h >> 32) && tt_storage_args_building_is(a->st, (uint32_t)e - 1))
			return (uint32_t)e - 1;
	}
}

/* A slot's place comes from the hash's high half, which the slot keeps:
 * growing the table moves slots without hashing their rows again. */
static void insert(uint64_t *slot, size_t cap, uint64_t e)
{
	size_t i;

	for (i = (size_t)(e >> 32) & (cap - 1); slot[i]; i = (i + 1) & (cap - 1))
		;
	slot[i] = e;
}

/* The table grows at 3/4 full, not 1/2: it is the largest thing the
 * import allocates late (2 MB for the Perfetto Chromium class's 75,616
 * sets at 1/2, 1 MB at 3/4), and the most resident fell by as much (54.4
 * -> 53.1 MB for a 37.3 MB file), with 1.1k fewer page faults. A probe
 * compares the slot's high hash half first, so the longer runs cost
 * little; the first slot read, a cache miss either way, is most of a
 * lookup's time. */
static int put(tt_args_tracker *a, uint64_t h, uint32_t id)
{
	if ((a->n + 1) * 4 > a->cap * 3) {
		size_t ncap = a->cap ? a->cap * 2 : 1024;
		uint64_t *ns = calloc(ncap, sizeof(*ns));

		if (!ns)
			return -1;
		for (size_t i = 0; i < a->cap; i++)
			if (a->slot[i])
				insert(ns, ncap, a->slot[i]);
		free(a->slot);
		a->slot = ns;
		a->cap = ncap;
	}
	insert(a->slot, a->cap, (h >> 32) << 32 | ((uint64_t)id + 1));
	a->n++;
	return 0;
}

/* A Chrome trace repeats a few thousand sets hundreds of thousands of
 * times: each is stored once. */
uint32_t tt_args_tracker_end(tt_args_tracker *a)
{
	uint64_t h;
	uint32_t id;

	if (!a->on || !tt_storage_args_building(a->st, &h))
		return tt_storage_args_store(a->st);
	a->tries++;
	id = find(a, h);
	if (id != TT_NONE) {
		tt_storage_args_discard(a->st);
		a->hits++;
		return id;
	}
	if (a->tries == 65536 && a->hits < 65536 / 8) {
		/* every event's args differ: the table would cost more than
		 * it saves */
		a->on = 0;
		table_free(a);
		return tt_storage_args_store(a->st);
	}
	id = tt_storage_args_store(a->st);
	if (id != TT_NONE && put(a, h, id))
		tt_storage_set_oom(a->st);
	return id;
}

uint32_t tt_args_tracker_again(tt_args_tracker *a, uint32_t set)
{
	/* on: the table holds set (its rows were a new set, or found as a
	 * repeat of the set the table holds), and no other set with its
	 * rows; end would find it, count a try and a hit, and return it.
	 * Off (it never comes back on): a copy is a new set. */
	if (a->on) {
		a->tries++;
		a->hits++;
		return set;
	}
	tt_storage_args_begin(a->st);
	tt_storage_args_copy(a->st, set);
	return tt_storage_args_store(a->st);
}

static struct memo *memo_slot(tt_args_tracker *a, uint32_t begin, uint32_t end)
{
	uint64_t h = ((uint64_t)begin << 32 | end) * 0x9e3779b97f4a7c15ULL;

	return &a->memo[h >> (64 - MEMO_BITS)];
}

uint32_t tt_args_tracker_merge(tt_args_tracker *a, uint32_t begin, uint32_t end)
{
	struct memo *m = NULL;
	uint32_t set;

	if (a->on && begin != TT_NONE && end != TT_NONE &&
	    (a->memo || (a->memo = calloc(MEMO, sizeof(*a->memo))))) {
		m = memo_slot(a, begin, end);
		if (m->set && m->begin == begin && m->end == end) {
			/* as end would: a try, found (the pair's sets were
			 * read by a merge before: storage knows them) */
			a->tries++;
			a->hits++;
			return m->set - 1;
		}
	}
	if (!tt_storage_args_merge_begin(a->st, begin, end, &set))
		return set;
	set = tt_args_tracker_end(a);
	/* (end may have turned the table off, and freed the memo) */
	if (m && a->memo && set != TT_NONE)
		*m = (struct memo){ begin, end, set + 1 };
	return set;
}

void tt_args_tracker_add_to_process(tt_args_tracker *a, uint32_t upid, uint32_t arg_set_id)
{
	uint32_t cur = tt_storage_process_arg_set(a->st, upid);

	tt_storage_process_set_arg_set(a->st, upid, tt_args_tracker_merge(a, cur, arg_set_id));
}

void tt_args_tracker_add_to_thread(tt_args_tracker *a, uint32_t utid, uint32_t arg_set_id)
{
	uint32_t cur = tt_storage_thread_arg_set(a->st, utid);

	tt_storage_thread_set_arg_set(a->st, utid, tt_args_tracker_merge(a, cur, arg_set_id));
}

void tt_args_tracker_add_to_state(tt_args_tracker *a, int64_t row, uint32_t arg_set_id)
{
	if (arg_set_id == TT_NONE)
		return;
	tt_storage_state_set_arg_set(a->st, row, tt_args_tracker_merge(a, tt_storage_state_arg_set(a->st, row), arg_set_id));
}
