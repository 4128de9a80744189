/*
 * bench_sql.c - PerfettoSQL built-ins against the equivalent plain SQLite
 * query, in the same run (figures, not pass/fail):
 *
 *   SPAN_JOIN of two interval tables of N rows each, partitioned by 64
 *   threads (default N = 1M): the tables are SQLite tables the bench fills
 *   in SQL, once with a (part, ts) primary key (the side statements walk
 *   the index) and once as plain rowid tables (SQLite sorts each side:
 *   O(n log n)). Peer: the interval join written in plain SQL over the
 *   indexed tables, bounded by the longest dur so that it is a range scan.
 *
 *   ancestor_slice / descendant_slice for every slice of a trace of M
 *   nested slices (default 100k), against the recursive CTE over
 *   slice.parent_id that a user writes without them.
 *
 * Each figure is the best of 3 runs.
 *   usage: bench_sql [N [M]]
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
		fprintf(stderr, "query failed: %s\n  %s\n", err.msg, sql);
		exit(1);
	}
	if (first) {
		first[0] = 0;
		if (r.nrows && r.ncols)
			snprintf(first, len, "%s", r.cells[0] ? r.cells[0] : "NULL");
	}
	tt_result_free(&r);
}

/* Best of 3 wall times of sql; its first cell in out. */
static double best(tt_trace *tr, const char *sql, char *out, size_t len)
{
	double b = 1e30;

	for (int i = 0; i < 3; i++) {
		double t0 = now();

		run(tr, sql, out, len);
		if (now() - t0 < b)
			b = now() - t0;
	}
	return b;
}

/* A JSON trace of m slices: tasks of 4 nested slices on 16 threads. */
static void write_trace(const char *path, long m)
{
	FILE *f = fopen(path, "w");
	long i = 0;
	int64_t t = 1000;

	if (!f) {
		perror(path);
		exit(1);
	}
	fputs("{\"traceEvents\":[\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"b\"}}", f);
	while (i < m) {
		for (int tid = 1; tid <= 16 && i < m; tid++)
			for (int d = 0; d < 4 && i < m; d++, i++)
				fprintf(f, ",\n{\"ph\":\"X\",\"name\":\"s%d\",\"pid\":1,\"tid\":%d,\"ts\":%lld,\"dur\":%d}",
					d, tid, (long long)(t + d), 100 - 2 * d);
		t += 200;
	}
	fputs("\n]}\n", f);
	fclose(f);
}

static void bench_span_join(tt_trace *tr, long n)
{
	char sql[2048], a[64], b[64];
	double t_idx, t_sort, t_peer, t_left, t0;

	/* per partition p: a = [j*100 + p, +60), b = [j*100 + 30 + p, +50): each
	 * a row meets one b row for 30 ns; rows go in in key order */
	long per = (n + 63) / 64;

	snprintf(sql, sizeof(sql),
		 "create table sa(ts int, dur int, part int, x int, primary key(part, ts)) without rowid;"
		 "create table sb(ts int, dur int, part int, y int, primary key(part, ts)) without rowid;"
		 "with recursive k(i) as (select 0 union all select i + 1 from k where i + 1 < %ld)"
		 " insert into sa select (i %% %ld) * 100 + i / %ld, 60, i / %ld, i from k;"
		 "with recursive k(i) as (select 0 union all select i + 1 from k where i + 1 < %ld)"
		 " insert into sb select (i %% %ld) * 100 + 30 + i / %ld, 50, i / %ld, i from k;"
		 "create table ua(ts int, dur int, part int, x int); insert into ua select * from sa order by x desc;"
		 "create table ub(ts int, dur int, part int, y int); insert into ub select * from sb order by y desc;"
		 "create virtual table sj using span_join(sa partitioned part, sb partitioned part);"
		 "create virtual table sju using span_join(ua partitioned part, ub partitioned part);"
		 "create virtual table sjl using span_left_join(sa partitioned part, sb partitioned part);"
		 "select 1", n, per, per, per, n, per, per, per);
	t0 = now();
	run(tr, sql, NULL, 0);
	printf("sql span_join: 2 x %ld rows in 64 partitions (tables filled in %.2f s)\n", n, now() - t0);
	t_idx = best(tr, "select count(*) || ' rows, ' || sum(dur) || ' ns' from sj", a, sizeof(a));
	t_sort = best(tr, "select count(*) || ' rows, ' || sum(dur) || ' ns' from sju", b, sizeof(b));
	if (strcmp(a, b) != 0)
		printf("  MISMATCH indexed %s vs unsorted %s\n", a, b);
	t_left = best(tr, "select count(*) from sjl", NULL, 0);
	t_peer = best(tr, "select count(*) || ' rows, ' || sum(min(a.ts + a.dur, b.ts + b.dur) - max(a.ts, b.ts)) || ' ns'"
			  " from sa a join sb b on b.part = a.part"
			  " and b.ts > a.ts - (select max(dur) from sb) and b.ts < a.ts + a.dur"
			  " where b.ts + b.dur > a.ts", b, sizeof(b));
	if (strcmp(a, b) != 0)
		printf("  MISMATCH span_join %s vs plain SQL %s\n", a, b);
	printf("sql span_join: %s | SPAN_JOIN on (part, ts) keys %.3f s  on unsorted tables %.3f s"
	       "  SPAN_LEFT_JOIN %.3f s | plain SQLite interval join (indexed, max-dur bound) %.3f s"
	       " | ratio %.2fx (unsorted %.2fx)\n",
	       a, t_idx, t_sort, t_left, t_peer, t_idx / t_peer, t_sort / t_peer);
	run(tr, "drop table sj; drop table sju; drop table sjl; drop table sa; drop table sb;"
		" drop table ua; drop table ub; select 1", NULL, 0);
}

static void bench_hierarchy(long m, long n)
{
	char dir[] = "/tmp/tt-bench-sql-XXXXXX", path[64], a[64], b[64];
	tt_err err = { 0 };
	tt_trace *tr;
	double t_anc, t_anc_peer, t_desc, t_desc_peer;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/h.json", dir);
	write_trace(path, m);
	tr = tt_trace_open(path, NULL, &err);
	if (!tr) {
		fprintf(stderr, "import failed: %s\n", err.msg);
		exit(1);
	}
	t_anc = best(tr, "select count(*) from slice s join ancestor_slice(s.id) a", a, sizeof(a));
	t_anc_peer = best(tr, "with recursive anc(sid, aid) as ("
				"  select id, parent_id from slice where parent_id is not null"
				"  union all select anc.sid, s.parent_id from anc join slice s on s.id = anc.aid"
				"  where s.parent_id is not null)"
				" select count(*) from anc", b, sizeof(b));
	if (strcmp(a, b) != 0)
		printf("  MISMATCH ancestor_slice %s vs CTE %s\n", a, b);
	printf("sql ancestor_slice: %ld slices, %s ancestor rows | ancestor_slice(s.id) for every slice %.3f s"
	       " | recursive CTE over parent_id %.3f s | ratio %.2fx\n", m, a, t_anc, t_anc_peer, t_anc / t_anc_peer);
	t_desc = best(tr, "select count(*) from slice s join descendant_slice(s.id) d", a, sizeof(a));
	/* going down needs parent_id -> children: an indexed copy (built
	 * outside the timing) */
	run(tr, "create temp table sp as select id, parent_id from slice;"
		" create index sp_parent on sp(parent_id); select 1", NULL, 0);
	t_desc_peer = best(tr, "with recursive des(sid, did) as ("
				 "  select parent_id, id from sp where parent_id is not null"
				 "  union all select des.sid, sp.id from des join sp on sp.parent_id = des.did)"
				 " select count(*) from des", b, sizeof(b));
	if (strcmp(a, b) != 0)
		printf("  MISMATCH descendant_slice %s vs CTE %s\n", a, b);
	printf("sql descendant_slice: %ld slices, %s rows | descendant_slice(s.id) for every slice %.3f s"
	       " | recursive CTE over an indexed copy of (id, parent_id) %.3f s | ratio %.2fx\n", m, a, t_desc, t_desc_peer, t_desc / t_desc_peer);
	bench_span_join(tr, n); /* any trace serves: its tables are SQL ones */
	tt_trace_close(tr);
	unlink(path);
	rmdir(dir);
}

/* bench_sql N 0: the span joins only (for profiling) */
static void bench_span_only(long n)
{
	char dir[] = "/tmp/tt-bench-sql-XXXXXX", path[64];
	tt_err err = { 0 };
	tt_trace *tr;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/h.json", dir);
	write_trace(path, 10);
	tr = tt_trace_open(path, NULL, &err);
	if (!tr) {
		fprintf(stderr, "import failed: %s\n", err.msg);
		exit(1);
	}
	bench_span_join(tr, n);
	tt_trace_close(tr);
	unlink(path);
	rmdir(dir);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	long m = argc > 2 ? atol(argv[2]) : 100000;

	printf("(machine shared with other jobs: figures are noisy; peers run in the same process)\n");
	if (m > 0)
		bench_hierarchy(m, n);
	else
		bench_span_only(n);
	return 0;
}
