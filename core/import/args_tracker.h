/*
 * args_tracker.h - which arg set an import's args are: a set whose rows
 * equal an earlier set's is that set (as trace processor's global args
 * tracker keeps each distinct set once), and args added to a row that has
 * some are merged into a new set (the new keys winning). The rows are
 * storage's: an importer appends them with tt_storage_args_begin and the
 * value calls (storage.h), then ends the set here. One per import
 * (tt_import.args); it forgets its table when the import ends, so sets
 * made later (annotations) are new sets.
 */
#ifndef TT_ARGS_TRACKER_H
#define TT_ARGS_TRACKER_H

#include <stdint.h>
#include "storage.h"

typedef struct tt_args_tracker tt_args_tracker;

/* NULL when out of memory. Keeping sets once is off until asked. */
tt_args_tracker *tt_args_tracker_new(tt_storage *st);
void tt_args_tracker_free(tt_args_tracker *a);

/* From now on a set with the same rows (keys, types, values, in order) as
 * an earlier set ended here is that set. Off by default: an importer of
 * lazy sets (CTF) numbers sets one per event. It turns itself off when
 * 64k sets brought under 1/8 repeats. */
void tt_args_tracker_dedupe(tt_args_tracker *a, int on);
/* Ends the set under construction (tt_storage_args_begin + value calls):
 * its id, an earlier identical set's id, or TT_NONE when it is empty. */
uint32_t tt_args_tracker_end(tt_args_tracker *a);
/* What ending a copy of set's rows would give, without the copy while
 * sets are kept once: set is then the one set with those rows, found
 * again (counted as tt_args_tracker_end counts it). set: a set this
 * tracker ended, not TT_NONE. */
uint32_t tt_args_tracker_again(tt_args_tracker *a, uint32_t set);
/* tt_storage_args_merge, with the merged set kept once as above (while
 * sets are kept once, a pair merged before is answered from a memo, as
 * rebuilding its rows would be). */
uint32_t tt_args_tracker_merge(tt_args_tracker *a, uint32_t begin, uint32_t end);
/* Adds the rows of arg_set_id to a row's args (merged, its keys winning):
 * process.arg_set_id, thread.arg_set_id, a state row's arg_set_id. */
void tt_args_tracker_add_to_process(tt_args_tracker *a, uint32_t upid, uint32_t arg_set_id);
void tt_args_tracker_add_to_thread(tt_args_tracker *a, uint32_t utid, uint32_t arg_set_id);
void tt_args_tracker_add_to_state(tt_args_tracker *a, int64_t row, uint32_t arg_set_id);

#endif
