/*
 * profile_int.h - the rows of the stack profile tables (profile.h), shared
 * by profile.c and core/sql/vtab_profile.c. Rows are structs in vectors:
 * these tables are small next to slices.
 */
#ifndef TT_PROFILE_INT_H
#define TT_PROFILE_INT_H

#include "profile.h"
#include "keymap.h"
#include "vec.h"

typedef struct tt_prof_mapping {
	tt_str build_id, name;
	int64_t start, end, start_offset, exact_offset, load_bias;
} tt_prof_mapping;

typedef struct tt_prof_frame {
	tt_str name;
	uint32_t mapping, symbol_set_id; /* TT_NONE: none */
	int64_t rel_pc;
} tt_prof_frame;

typedef struct tt_prof_symbol {
	uint32_t symbol_set_id, line_number; /* line TT_NONE: none */
	tt_str name, source_file;
} tt_prof_symbol;

typedef struct tt_prof_callsite {
	uint32_t depth, parent_id, frame_id; /* parent TT_NONE: a root */
} tt_prof_callsite;

typedef struct tt_prof_te_callstack {
	int64_t slice_id;
	uint32_t track_id, callsite_id, end_callsite_id; /* TT_NONE: NULL */
	int has_weight;
	double weight;
} tt_prof_te_callstack;

typedef struct tt_prof_sample {
	int64_t ts;
	uint32_t callsite_id, utid;
	int32_t process_priority;
} tt_prof_sample;

struct tt_profile {
	TT_VEC(tt_prof_sample) samples;
	TT_VEC(tt_prof_mapping) mappings;
	TT_VEC(tt_prof_frame) frames;
	TT_VEC(tt_prof_symbol) symbols;
	TT_VEC(tt_prof_callsite) callsites;
	TT_VEC(tt_prof_te_callstack) te_callstacks;
	tt_keymap frame_by_key, callsite_by_key;
	int oom;
};

#endif
