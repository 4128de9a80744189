/*
 * query_limit.h - a time limit on the SQL run over a trace (issue 8: a
 * runaway query such as a cross join of slice with itself must not hang
 * `termtrace query`). Implemented with sqlite3_progress_handler on the
 * trace's connection; the viewer's own cancel key uses tt_query_interrupt.
 */
#ifndef TT_QUERY_LIMIT_H
#define TT_QUERY_LIMIT_H

#include "termtrace.h"

/* From now on, statements run on tr stop with an error once `seconds`
 * (wall clock, counted from this call) have passed; 0 or less removes
 * the limit. Calling it again re-arms the limit from the new call.
 * Returns TT_OK or TT_ENOMEM. */
int tt_query_set_timeout(tt_trace *tr, double seconds);

/* Non-zero when a statement was stopped by the limit since it was armed
 * (so that callers can say "timed out" instead of SQLite's
 * "interrupted"). */
int tt_query_timed_out(tt_trace *tr);

#endif
