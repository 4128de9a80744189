/*
 * profile.c - the stack profile tables (profile.h).
 */
#include <stdlib.h>

#include "profile_int.h"
#include "storage_int.h"

tt_profile *tt_storage_profile(tt_storage *st)
{
	if (!st->profile && !(st->profile = calloc(1, sizeof(*st->profile))))
		st->oom = 1;
	return st->profile;
}

const tt_profile *tt_storage_profile_get(const tt_storage *st)
{
	return st->profile;
}

void tt_profile_free(tt_profile *p)
{
	if (!p)
		return;
	TT_VEC_FREE(p->mappings);
	TT_VEC_FREE(p->frames);
	TT_VEC_FREE(p->symbols);
	TT_VEC_FREE(p->callsites);
	TT_VEC_FREE(p->te_callstacks);
	TT_VEC_FREE(p->samples);
	tt_keymap_free(&p->frame_by_key);
	tt_keymap_free(&p->callsite_by_key);
	free(p);
}

int tt_profile_oom(const tt_profile *p)
{
	return p && p->oom;
}

uint32_t tt_profile_mapping(tt_profile *p, tt_str build_id, tt_str name, int64_t start, int64_t end,
			    int64_t start_offset, int64_t exact_offset, int64_t load_bias)
{
	tt_prof_mapping m = { build_id, name, start, end, start_offset, exact_offset, load_bias };

	if (p->mappings.n >= TT_NONE - 1 || TT_VEC_PUSH(p->mappings, m)) {
		p->oom = 1;
		return TT_NONE;
	}
	return (uint32_t)(p->mappings.n - 1);
}

uint32_t tt_profile_frame(tt_profile *p, tt_str name, uint32_t mapping, int64_t rel_pc,
			  uint32_t symbol_set_id)
{
	uint64_t a = (uint64_t)name << 32 | mapping, b = (uint64_t)rel_pc, c = symbol_set_id;
	uint32_t id = tt_keymap_get(&p->frame_by_key, a, b, c, 0);
	tt_prof_frame f = { name, mapping, symbol_set_id, rel_pc };

	if (id != TT_KEYMAP_NONE)
		return id;
	id = (uint32_t)p->frames.n;
	if (id >= TT_NONE - 1 || TT_VEC_PUSH(p->frames, f) || tt_keymap_put(&p->frame_by_key, a, b, c, 0, id)) {
		p->oom = 1;
		return TT_NONE;
	}
	return id;
}

uint32_t tt_profile_symbol(tt_profile *p, tt_str name, tt_str source_file, uint32_t line)
{
	uint32_t id = (uint32_t)p->symbols.n;
	tt_prof_symbol s = { id, line, name, source_file };

	/* one symbol a set: the set's id is its row's */
	if (id >= TT_NONE - 1 || TT_VEC_PUSH(p->symbols, s)) {
		p->oom = 1;
		return TT_NONE;
	}
	return id;
}

uint32_t tt_profile_callsite(tt_profile *p, uint32_t parent, uint32_t frame, uint32_t depth)
{
	uint32_t id = tt_keymap_get(&p->callsite_by_key, parent, frame, depth, 0);
	tt_prof_callsite cs = { depth, parent, frame };

	if (id != TT_KEYMAP_NONE)
		return id;
	id = (uint32_t)p->callsites.n;
	if (id >= TT_NONE - 1 || TT_VEC_PUSH(p->callsites, cs) ||
	    tt_keymap_put(&p->callsite_by_key, parent, frame, depth, 0, id)) {
		p->oom = 1;
		return TT_NONE;
	}
	return id;
}

int tt_profile_te_callstack(tt_profile *p, int64_t slice, uint32_t track, uint32_t callsite, int is_end,
			    int has_weight, double weight)
{
	tt_prof_te_callstack r = { slice, track, is_end ? TT_NONE : callsite, is_end ? callsite : TT_NONE,
				   has_weight, weight };

	if (TT_VEC_PUSH(p->te_callstacks, r)) {
		p->oom = 1;
		return -1;
	}
	return 0;
}

int tt_profile_sample(tt_profile *p, int64_t ts, uint32_t callsite, uint32_t utid, int32_t process_priority)
{
	tt_prof_sample r = { ts, callsite, utid, process_priority };

	if (TT_VEC_PUSH(p->samples, r)) {
		p->oom = 1;
		return -1;
	}
	return 0;
}
