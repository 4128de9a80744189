/*
 * bench_sql_modules.c - PerfettoSQL modules against the plain SQL a user
 * would write without them, in the same run (figures, not pass/fail):
 *
 *   INCLUDE PERFETTO MODULE slices.with_context + select count(*) from
 *   thread_slice on a trace of N slices (default 1M): the first run
 *   (include: reading and running the module, then the count) and the
 *   count alone once included (best of 3). Peer: the join of slice,
 *   thread_track, thread and process as a user writes it in plain SQL;
 *   peer 2: the module's join order (slices innermost, read per track
 *   from the track index) in plain SQL (best of 3 each).
 *   Floor: select count(*) from slice.
 *
 *   The preprocessor's own cost: a script of 100 CREATE PERFETTO MACRO and
 *   100 SELECTs with nested macro calls, against the 100 SELECTs written
 *   out in plain SQL.
 *
 *   usage: bench_sql_modules [N]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "termtrace.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void run(tt_trace *tr, const char *sql, char *first, size_t len)
{
	tt_result r;
	tt_err err = { 0 };

	if (tt_query_collect(tr, sql, 0, &r, &err) != TT_OK) {
		fprintf(stderr, "query failed: %s\n  %.200s\n", err.msg, sql);
		exit(1);
	}
	if (first) {
		first[0] = 0;
		if (r.nrows && r.ncols)
			snprintf(first, len, "%s", r.cells[0] ? r.cells[0] : "NULL");
	}
	tt_result_free(&r);
}

static double once(tt_trace *tr, const char *sql, char *out, size_t len)
{
	double t0 = now();

	run(tr, sql, out, len);
	return now() - t0;
}

static double best(tt_trace *tr, const char *sql, char *out, size_t len)
{
	double b = 1e30;

	for (int i = 0; i < 3; i++) {
		double t = once(tr, sql, out, len);

		if (t < b)
			b = t;
	}
	return b;
}

/* A JSON trace of n slices: tasks of 4 nested X slices on 64 threads of
 * 4 processes, with thread and process names. */
static void write_trace(const char *path, long n)
{
	FILE *f = fopen(path, "w");
	long i = 0;
	int64_t t = 1000;

	if (!f) {
		perror(path);
		exit(1);
	}
	fputs("{\"traceEvents\":[\n", f);
	for (int p = 1; p <= 4; p++)
		fprintf(f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"args\":{\"name\":\"p%d\"}},\n", p, p);
	for (int tid = 1; tid <= 64; tid++)
		fprintf(f, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":\"t%d\"}},\n",
			(tid - 1) / 16 + 1, tid, tid);
	while (i < n) {
		for (int tid = 1; tid <= 64 && i < n; tid++) {
			for (int d = 0; d < 4 && i < n; d++, i++)
				fprintf(f, "%s{\"ph\":\"X\",\"name\":\"s%d\",\"ts\":%lld,\"dur\":%d,\"pid\":%d,\"tid\":%d}",
					i ? ",\n" : "", d, (long long)(t + d), 100 - 2 * d, (tid - 1) / 16 + 1, tid);
		}
		t += 200;
	}
	fputs("\n]}\n", f);
	fclose(f);
}

static void bench_with_context(tt_trace *tr, long n)
{
	static const char plain[] =
		"select count(*) from slice s join thread_track tt on tt.id = s.track_id "
		"join thread t on t.utid = tt.utid left join process p on p.upid = t.upid";
	/* the module's own join order, in plain SQL */
	static const char same[] =
		"select count(*) from thread_track tt join thread t on t.utid = tt.utid "
		"left join process p on p.upid = t.upid cross join slice s on s.track_id = tt.id";
	char a[64], b[64], c[64], d[64];
	double first, inc, peer, peer2, floor_;

	first = once(tr, "INCLUDE PERFETTO MODULE slices.with_context; select count(*) from thread_slice", a,
		     sizeof(a));
	inc = best(tr, "INCLUDE PERFETTO MODULE slices.with_context; select count(*) from thread_slice", a,
		   sizeof(a));
	peer = best(tr, plain, b, sizeof(b));
	peer2 = best(tr, same, d, sizeof(d));
	floor_ = best(tr, "select count(*) from slice", c, sizeof(c));
	printf("slices.with_context, %ld slices: include + count(*) from thread_slice: first %.3f s, "
	       "included %.3f s (%s rows)\n", n, first, inc, a);
	printf("  peer: the plain-SQL join %.3f s (%s rows); ratio %.2fx (first run %.2fx)\n", peer, b,
	       inc / peer, first / peer);
	printf("  peer 2: the module's join order in plain SQL %.3f s (%s rows); ratio %.2fx\n", peer2, d,
	       inc / peer2);
	printf("  floor: count(*) from slice %.3f s (%s rows)\n", floor_, c);
}

static void bench_preprocessor(tt_trace *tr)
{
	size_t cap = 1 << 20, na = 0, nb = 0;
	char *ps = malloc(cap), *pl = malloc(cap), x[64], y[64];
	double tp, tl;

	if (!ps || !pl)
		exit(1);
	/* 100 functions and macros, then 100 statements calling them */
	for (int i = 0; i < 100; i++) {
		na += (size_t)snprintf(ps + na, cap - na,
				       "CREATE PERFETTO MACRO m%d(a Expr) RETURNS Expr AS ($a + %d);\n", i, i);
	}
	for (int i = 0; i < 100; i++) {
		na += (size_t)snprintf(ps + na, cap - na, "SELECT m%d!(m%d!(%d));\n", i, (i + 1) % 100, i);
		nb += (size_t)snprintf(pl + nb, cap - nb, "SELECT ((%d + %d) + %d);\n", i, (i + 1) % 100, i);
	}
	tp = once(tr, ps, x, sizeof(x));
	tl = once(tr, pl, y, sizeof(y));
	printf("preprocessor: 100 CREATE PERFETTO MACRO + 100 nested macro calls %.4f s; "
	       "peer: the 100 SELECTs as expanded, in plain SQL %.4f s; ratio %.2fx\n", tp, tl, tp / tl);
	free(ps);
	free(pl);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	char path[] = "/tmp/tt_bench_sqlmod_XXXXXX";
	int fd = mkstemp(path);
	tt_err err = { 0 };
	tt_trace *tr;

	if (fd < 0) {
		perror("mkstemp");
		return 1;
	}
	close(fd);
	write_trace(path, n);
	tr = tt_trace_open(path, NULL, &err);
	if (!tr) {
		fprintf(stderr, "%s\n", err.msg);
		unlink(path);
		return 1;
	}
	bench_with_context(tr, n);
	bench_preprocessor(tr);
	printf("(machine shared with other jobs: figures are noisy)\n");
	tt_trace_close(tr);
	unlink(path);
	return 0;
}
