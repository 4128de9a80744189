/*
 * query_limit.c - time limit on a trace's SQL (see query_limit.h).
 *
 * The state (deadline, whether it fired) lives in a small heap block that
 * must live exactly as long as the connection, without a field in
 * tt_trace: it is the user data of a hidden SQL function
 * tt_query_limit_state() registered with a destructor, so SQLite frees it
 * when the connection closes or when a new limit replaces the function.
 * The same function reads the state back for tt_query_timed_out(), and,
 * given an argument, checks the deadline for tt_query_limit_hit().
 */
#include "query_limit.h"
#include "trace_int.h"

#include <stdlib.h>
#include <time.h>

/* VM instructions between two clock reads: ~1 ms of work, so the limit is
 * honoured within a few ms while the clock costs nothing measurable. */
#define CHECK_EVERY 10000

struct limit {
	struct timespec deadline;
	int fired;
};

static int past(const struct timespec *d)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > d->tv_sec || (now.tv_sec == d->tv_sec && now.tv_nsec >= d->tv_nsec);
}

static int on_progress(void *arg)
{
	struct limit *l = arg;

	if (l->fired || past(&l->deadline)) {
		l->fired = 1;
		return 1; /* makes the statement fail with SQLITE_INTERRUPT */
	}
	return 0;
}

/* tt_query_limit_state(): whether the limit fired; with any argument, also
 * whether the deadline is past now (which fires it). */
static void state_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct limit *l = sqlite3_user_data(ctx);

	(void)argv;
	if (argc > 0 && !l->fired && past(&l->deadline))
		l->fired = 1;
	sqlite3_result_int(ctx, l->fired);
}

int tt_query_set_timeout(tt_trace *tr, double seconds)
{
	struct limit *l;
	double whole;

	/* The old handler goes first: the old block may be freed below. */
	sqlite3_progress_handler(tr->db, 0, NULL, NULL);
	if (!(seconds > 0)) {
		sqlite3_create_function_v2(tr->db, "tt_query_limit_state", -1, SQLITE_UTF8, NULL,
					   NULL, NULL, NULL, NULL);
		return TT_OK;
	}
	l = calloc(1, sizeof(*l));
	if (!l)
		return TT_ENOMEM;
	clock_gettime(CLOCK_MONOTONIC, &l->deadline);
	if (seconds > 1e9)
		seconds = 1e9; /* "forever", without overflowing time_t */
	whole = (double)(long long)seconds;
	l->deadline.tv_sec += (time_t)whole;
	l->deadline.tv_nsec += (long)((seconds - whole) * 1e9);
	if (l->deadline.tv_nsec >= 1000000000L) {
		l->deadline.tv_sec++;
		l->deadline.tv_nsec -= 1000000000L;
	}
	/* On failure SQLite calls the destructor (free) itself. */
	if (sqlite3_create_function_v2(tr->db, "tt_query_limit_state", -1, SQLITE_UTF8, l,
				       state_fn, NULL, NULL, free) != SQLITE_OK)
		return TT_ENOMEM;
	sqlite3_progress_handler(tr->db, CHECK_EVERY, on_progress, l);
	return TT_OK;
}

static int read_state(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int fired = 0;

	/* A handful of VM instructions, far below CHECK_EVERY: the progress
	 * handler is never called for this statement, fired or not. */
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return 0; /* no limit armed */
	if (sqlite3_step(st) == SQLITE_ROW)
		fired = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return fired;
}

int tt_query_timed_out(tt_trace *tr)
{
	return read_state(tr->db, "select tt_query_limit_state()");
}

int tt_query_limit_hit(sqlite3 *db)
{
	return read_state(db, "select tt_query_limit_state(1)");
}
