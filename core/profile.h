/*
 * profile.h - Perfetto's stack profile tables: stack_profile_mapping,
 * stack_profile_frame, stack_profile_symbol, stack_profile_callsite, and
 * __intrinsic_track_event_callstacks (a TrackEvent's callstack at its
 * begin or end). Owned by the storage (made on first use); ids are row
 * indexes.
 */
#ifndef TT_PROFILE_H
#define TT_PROFILE_H

#include <stdint.h>
#include "storage.h"

typedef struct tt_profile tt_profile;

/* The storage's profile tables, made on first use; NULL out of memory. */
tt_profile *tt_storage_profile(tt_storage *st);
/* The tables if any were made (readers), else NULL. */
const tt_profile *tt_storage_profile_get(const tt_storage *st);
void tt_profile_free(tt_profile *p);

/* Each returns the row id, TT_NONE out of memory. */
uint32_t tt_profile_mapping(tt_profile *p, tt_str build_id, tt_str name, int64_t start, int64_t end,
			    int64_t start_offset, int64_t exact_offset, int64_t load_bias);
/* A frame; the same (name, mapping, rel_pc, symbol set) gives the same row. */
uint32_t tt_profile_frame(tt_profile *p, tt_str name, uint32_t mapping, int64_t rel_pc,
			  uint32_t symbol_set_id);
/* A new symbol set of one symbol; returns its symbol_set_id (line TT_NONE: none). */
uint32_t tt_profile_symbol(tt_profile *p, tt_str name, tt_str source_file, uint32_t line);
/* The callsite of frame under parent (TT_NONE: a root) at depth; interned. */
uint32_t tt_profile_callsite(tt_profile *p, uint32_t parent, uint32_t frame, uint32_t depth);
/* A slice's callstack: at its begin (callsite) or end (is_end). 0 or -1. */
int tt_profile_te_callstack(tt_profile *p, int64_t slice, uint32_t track, uint32_t callsite, int is_end,
			    int has_weight, double weight);
/* A callstack sample of a sampling profiler (cpu_profile_stack_sample). */
int tt_profile_sample(tt_profile *p, int64_t ts, uint32_t callsite, uint32_t utid, int32_t process_priority);
/* 1 when memory ran out in any of the above. */
int tt_profile_oom(const tt_profile *p);

#endif
