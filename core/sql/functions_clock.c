/*
 * functions_clock.c - trace time on the trace's other clocks, as Perfetto's
 * ClockConverter gives it, from the clock_snapshot table (the Perfetto
 * importer fills it: each snapshot that reaches the trace clock):
 *
 *   select to_realtime(ts), to_monotonic(ts) from slice;
 *   select abs_time_str(ts) from slice;     -- '2022-05-18T20:00:00.000000000'
 *
 * NULL without a snapshot of the clock (JSON and CTF traces have none).
 */
#include "builtins.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* One clock's snapshots by trace time (the first row wins where two share
 * a ts), built on the first call: the storage is final by then. */
typedef struct clockline {
	const tt_storage *st;
	int64_t clock_id;
	int built;
	size_t n;
	int64_t *ts, *val;
} clockline;

typedef struct csnap_row {
	int64_t ts, val;
	size_t row;
} csnap_row;

static int by_ts_then_row(const void *a, const void *b)
{
	const csnap_row *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (x->row > y->row) - (x->row < y->row);
}

static int clockline_build(clockline *l)
{
	const tt_storage *st = l->st;
	size_t n = 0;
	csnap_row *rows;

	l->built = 1;
	for (size_t i = 0; i < st->clock_snap.n; i++)
		n += st->clock_snap.clock_id[i] == l->clock_id;
	if (!n)
		return 0;
	rows = malloc(n * sizeof(*rows));
	l->ts = malloc(n * sizeof(*l->ts));
	l->val = malloc(n * sizeof(*l->val));
	if (!rows || !l->ts || !l->val) {
		free(rows);
		free(l->ts);
		free(l->val);
		l->ts = l->val = NULL;
		l->built = 0; /* try again on the next call */
		return -1;
	}
	n = 0;
	for (size_t i = 0; i < st->clock_snap.n; i++)
		if (st->clock_snap.clock_id[i] == l->clock_id)
			rows[n++] = (csnap_row){ st->clock_snap.ts[i], st->clock_snap.clock_value[i], i };
	qsort(rows, n, sizeof(*rows), by_ts_then_row);
	for (size_t i = 0; i < n; i++) {
		if (l->n && l->ts[l->n - 1] == rows[i].ts)
			continue; /* the first snapshot at a ts is the one kept */
		l->ts[l->n] = rows[i].ts;
		l->val[l->n++] = rows[i].val;
	}
	free(rows);
	return 0;
}

static void clockline_free(void *p)
{
	clockline *l = p;

	free(l->ts);
	free(l->val);
	free(l);
}

/* ts (trace time) on the line's clock: the snapshot at ts gives its
 * value; before the first snapshot, the first's value; past the last, the
 * last's plus the distance; between two, the earlier's plus the distance
 * but never past the later's value (a clock may step back). -1: no
 * snapshot of the clock. */
static int clockline_convert(clockline *l, int64_t ts, int64_t *out)
{
	size_t lo = 0, hi;

	if (!l->built && clockline_build(l))
		return -1;
	if (!l->n)
		return -1;
	hi = l->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (l->ts[mid] < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == l->n) {
		*out = (int64_t)((uint64_t)l->val[lo - 1] + (uint64_t)ts - (uint64_t)l->ts[lo - 1]);
		return 0;
	}
	if (lo == 0 || l->ts[lo] == ts) {
		*out = l->val[lo];
		return 0;
	}
	*out = (int64_t)((uint64_t)l->val[lo - 1] + (uint64_t)ts - (uint64_t)l->ts[lo - 1]);
	if (*out > l->val[lo])
		*out = l->val[lo];
	return 0;
}

/* to_realtime(ts), to_monotonic(ts): NULL when ts is NULL or the trace
 * has no snapshot of the clock. */
static void fn_to_clock(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	int64_t v;

	(void)argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL ||
	    clockline_convert(sqlite3_user_data(ctx), sqlite3_value_int64(argv[0]), &v))
		return;
	sqlite3_result_int64(ctx, v);
}

/* abs_time_str(ts): the REALTIME of ts as ISO 8601 with ns, UTC
 * ("2022-05-18T20:00:00.000000000"). */
static void fn_abs_time_str(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	int64_t v, s, ns;
	time_t secs;
	struct tm tm;
	char buf[64];

	(void)argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL ||
	    clockline_convert(sqlite3_user_data(ctx), sqlite3_value_int64(argv[0]), &v))
		return;
	s = v / 1000000000;
	ns = v % 1000000000;
	secs = (time_t)s;
	if (!gmtime_r(&secs, &tm))
		return;
	snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%09lld", tm.tm_year + 1900, tm.tm_mon + 1,
		 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (long long)ns);
	sqlite3_result_text(ctx, buf, -1, SQLITE_TRANSIENT);
}

static int register_one(sqlite3 *db, tt_storage *st, const char *name, int64_t clock_id,
			     void (*fn)(sqlite3_context *, int, sqlite3_value **))
{
	clockline *l = calloc(1, sizeof(*l));

	if (!l)
		return SQLITE_NOMEM;
	l->st = st;
	l->clock_id = clock_id;
	/* sqlite calls clockline_free when the function goes, or at once
	 * when the registration fails */
	return sqlite3_create_function_v2(db, name, 1, SQLITE_UTF8, l, fn, NULL, NULL, clockline_free);
}

int tt_sql_register_clock_functions(sqlite3 *db, tt_storage *st)
{
	int rc = register_one(db, st, "abs_time_str", 1, fn_abs_time_str);

	if (rc == SQLITE_OK)
		rc = register_one(db, st, "to_realtime", 1, fn_to_clock);
	if (rc == SQLITE_OK)
		rc = register_one(db, st, "to_monotonic", 3, fn_to_clock);
	return rc;
}
