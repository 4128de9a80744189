/*
 * bench_json.c - Chrome JSON import benchmark (figures, not pass/fail).
 *
 * Writes a synthetic trace (nested X slices on 64 threads, a counter every
 * 64 events), then for each size, in a fresh child process so peak RSS is
 * its own: the parsing floor (yajl over the same bytes with no callbacks),
 * termtrace's import (wall time, and CPU time: the import parses on two
 * cores, see docs/architecture.md), how much of the text the parallel
 * chunks parsed, resident bytes per slice, and queries.
 * Timings: this machine's speed swings from run to run (a shared VM), so
 * for up to 2M events the floor and the import are each the median of
 * REPS runs (each import in a process of its own), printed with the
 * fastest and slowest; bigger traces are run once (the floor after a
 * first read that may come from the disk).
 * Then a trace whose events are mostly ftrace text: a systemTraceEvents
 * string of S lines (sched_switch and atrace markers, as Chrome's
 * about:tracing writes with systrace on), its peak RSS against the file.
 * yajl hands a string to its callback only whole, so such a string is
 * held while it is read (our read buffer, yajl's decoded copy, ours):
 * the 1x target is the event arrays'; this line says what it costs.
 *   usage: bench_json [N ...] [sS]   (default 1000000 10000000 s200000)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <yajl/yajl_parse.h>

#include "termtrace.h"
#include "bench_median.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long rss_kb(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long pages = 0, res = 0;

	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &res) != 2)
			res = 0;
		fclose(f);
	}
	return res * (sysconf(_SC_PAGESIZE) / 1024);
}

/* n events: each thread runs tasks of 4 nested X slices; 1 in 64 is C. */
static void generate(const char *path, long n)
{
	FILE *f = fopen(path, "w");
	long i = 0;
	int64_t t = 1000000;

	if (!f) {
		perror(path);
		exit(1);
	}
	fputs("{\"traceEvents\":[\n", f);
	fputs("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"bench\"}}", f);
	while (i < n) {
		for (int tid = 1; tid <= 64 && i < n; tid++) {
			/* a task and three nested children, same start order */
			static const char *const names[] = { "Task", "Layout", "Paint", "Raster" };

			for (int d = 0; d < 4 && i < n; d++, i++)
				fprintf(f, ",\n{\"ph\":\"X\",\"name\":\"%s\",\"cat\":\"bench\",\"pid\":1,\"tid\":%d,"
					"\"ts\":%lld.%03d,\"dur\":%d,\"args\":{\"depth\":%d}}",
					names[d], tid, (long long)(t / 1000) + d, (int)(t % 1000), 400 - 100 * d, d);
			if (i % 64 < 4 && i < n) {
				fprintf(f, ",\n{\"ph\":\"C\",\"name\":\"queue\",\"pid\":1,\"ts\":%lld,\"args\":{\"len\":%ld}}",
					(long long)(t / 1000), i % 17);
				i++;
			}
		}
		t += 500000;
	}
	fputs("\n]}\n", f);
	fclose(f);
}

/* A systemTraceEvents string of `lines` lines (a third sched_switch, the
 * rest atrace B/E markers of 50 tasks) beside one JSON event. */
static void generate_systrace(const char *path, long lines)
{
	FILE *f = fopen(path, "w");
	double t = 1000.0;

	if (!f) {
		perror(path);
		exit(1);
	}
	fputs("{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"x\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2}],"
	      "\"systemTraceEvents\":\"# tracer: nop\\n", f);
	for (long i = 0; i < lines; i++) {
		int pid = 1000 + (int)(i % 50), cpu = (int)(i % 4);

		t += 0.00001;
		if (i % 3 == 0)
			fprintf(f, "          task-%d  ( %d) [00%d] d..3 %.6f: sched_switch: prev_comm=task prev_pid=%d "
				"prev_prio=120 prev_state=S ==> next_comm=other next_pid=%d next_prio=120\\n",
				pid, pid, cpu, t, pid, pid + 1);
		else if (i % 3 == 1)
			fprintf(f, "          task-%d  ( %d) [00%d] ...1 %.6f: tracing_mark_write: B|%d|slice_%ld\\n", pid,
				pid, cpu, t, pid, i % 40);
		else
			fprintf(f, "          task-%d  ( %d) [00%d] ...1 %.6f: tracing_mark_write: E|%d\\n", pid, pid, cpu,
				t, pid);
	}
	fputs("\"}\n", f);
	fclose(f);
}

static double cpu_now(void);

/* Wall seconds; *cpu the CPU seconds. */
static double yajl_floor(const char *path, double *mb, double *cpu)
{
	FILE *f = fopen(path, "rb");
	static unsigned char buf[256 * 1024];
	yajl_handle h = yajl_alloc(NULL, NULL, NULL);
	double t0 = now(), c0 = cpu_now();
	size_t n, total = 0;

	yajl_config(h, yajl_dont_validate_strings, 1);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		total += n;
		if (yajl_parse(h, buf, n) != yajl_status_ok)
			break;
	}
	yajl_complete_parse(h);
	yajl_free(h);
	fclose(f);
	*mb = (double)total / 1e6;
	*cpu = cpu_now() - c0;
	return now() - t0;
}

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One import in a process of its own: wall seconds (-1: failed), *cpu its
 * CPU seconds. */
static double import_timed_fork(const char *path, double *cpu)
{
	double r[2] = { -1, 0 };
	int fd[2];
	pid_t pid;

	*cpu = 0;
	if (pipe(fd))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		tt_err err = { 0 };
		double t0 = now(), c0 = cpu_now();
		tt_trace *tr = tt_trace_open(path, NULL, &err);

		close(fd[0]);
		r[0] = tr ? now() - t0 : -1;
		r[1] = cpu_now() - c0;
		if (write(fd[1], r, sizeof(r)) != (ssize_t)sizeof(r))
			_exit(1);
		_exit(0);
	}
	close(fd[1]);
	if (pid < 0 || read(fd[0], r, sizeof(r)) != (ssize_t)sizeof(r))
		r[0] = -1;
	close(fd[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	*cpu = r[1];
	return r[0];
}

static double query_ms(tt_trace *tr, const char *sql)
{
	tt_result r;
	tt_err err = { 0 };
	double t0 = now();

	if (tt_query_collect(tr, sql, 0, &r, &err) != TT_OK) {
		fprintf(stderr, "query failed: %s\n", err.msg);
		return -1;
	}
	tt_result_free(&r);
	return (now() - t0) * 1000;
}

static long long query_int(tt_trace *tr, const char *sql)
{
	tt_result r;
	tt_err err = { 0 };
	long long v = 0;

	if (tt_query_collect(tr, sql, 0, &r, &err) != TT_OK)
		return -1;
	if (r.nrows > 0 && r.cells[0])
		v = atoll(r.cells[0]);
	tt_result_free(&r);
	return v;
}

static void run_child(const char *path, long n)
{
	int reps = n <= 2000000 ? REPS : 1, nt = 0, k;
	double mb, fcpu, floor_s, t0, imp_s, cpu0, cpu_s;
	double fw[REPS], fc[REPS], iw[REPS], ic[REPS];
	long base, after;
	tt_err err = { 0 };
	tt_trace *tr;
	struct rusage ru;
	long long slices;
	tt_slice_cols cols;
	char spread[2][96] = { "", "" };

	yajl_floor(path, &mb, &fcpu); /* the first read may still come from the disk */
	for (k = 0; k < reps; k++)
		fw[k] = yajl_floor(path, &mb, &fc[k]);
	floor_s = median_of(fw, reps);
	fcpu = median_of(fc, reps);
	for (k = 0; k + 1 < reps; k++)
		if ((iw[nt] = import_timed_fork(path, &ic[nt])) > 0)
			nt++;
	base = rss_kb();
	t0 = now();
	cpu0 = cpu_now();
	tr = tt_trace_open(path, NULL, &err);
	iw[nt] = now() - t0;
	ic[nt] = cpu_now() - cpu0;
	if (!tr) {
		fprintf(stderr, "import failed: %s\n", err.msg);
		exit(1);
	}
	nt++;
	imp_s = median_of(iw, nt);
	cpu_s = median_of(ic, nt);
	if (reps > 1) {
		snprintf(spread[0], sizeof(spread[0]), " (median of %d: %.3f-%.3f s)", reps, fw[0], fw[reps - 1]);
		snprintf(spread[1], sizeof(spread[1]), " (median of %d: %.2f-%.2f s)", nt, iw[0], iw[nt - 1]);
	}
	after = rss_kb();
	tt_trace_slices(tr, &cols);
	slices = (long long)cols.n;
	getrusage(RUSAGE_SELF, &ru);
	printf("json %9ld events  %7.1f MB | floor (yajl, no callbacks) %6.1f MB/s%s | import %6.2f s  %9.0f events/s  %6.1f MB/s%s  = %3.0f%% of floor (target >= 65 %%)\n",
	       n, mb, mb / floor_s, spread[0], imp_s, (double)n / imp_s, mb / imp_s, spread[1], 100.0 * floor_s / imp_s);
	/* (on a loaded machine the wall ratio drops: the import runs on two
	 * cores, the floor on one; CPU time says what the work costs) */
	printf("json %9ld events  import CPU %.2f s (%.2f cores busy) | floor CPU %.2f s | CPU %.2fx the floor's\n",
	       n, cpu_s, cpu_s / imp_s, fcpu, cpu_s / fcpu);
	printf("json %9ld events  parsed in parallel chunks: %.0f%% of the text (the rest by one parser)\n", n,
	       100.0 * (double)query_int(tr, "select coalesce((select int_value from metadata"
				      " where name = 'json_parallel_bytes'), 0)") / (mb * 1e6));
	printf("json %9ld events  slices %lld  resident %.1f bytes/slice (after import)  peak RSS %.0f MB (%.1f bytes/event)"
	       " = %.2fx the file (target <= 1x)\n",
	       n, slices, (double)(after - base) * 1024.0 / (double)slices, ru.ru_maxrss / 1024.0,
	       (double)ru.ru_maxrss * 1024.0 / (double)n, (double)ru.ru_maxrss * 1024.0 / (mb * 1e6));
	printf("json %9ld events  count(*) where name = ?: %.2f ms   slice join thread_track where utid = ?: %.2f ms   where id = ?: %.3f ms\n",
	       n, query_ms(tr, "select count(*) from slice where name = 'Paint'"),
	       query_ms(tr, "select count(*), sum(s.dur) from slice s join thread_track tt on s.track_id = tt.id where tt.utid = 7"),
	       query_ms(tr, "select * from slice where id = 12345"));
	fflush(stdout);
	tt_trace_close(tr);
}

static void run_systrace_child(const char *path, long lines)
{
	double mb, fcpu, floor_s = yajl_floor(path, &mb, &fcpu), t0 = now(), imp_s;
	tt_err err = { 0 };
	tt_trace *tr = tt_trace_open(path, NULL, &err);
	struct rusage ru;

	imp_s = now() - t0;
	if (!tr) {
		fprintf(stderr, "import failed: %s\n", err.msg);
		exit(1);
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("json systrace %ld lines  %.1f MB | floor (yajl, no callbacks) %.3f s | import %.3f s  %.1f MB/s"
	       " | slices %lld  sched %lld | peak RSS %.0f MB = %.2fx the file (a string is held whole: read, decoded, kept)\n",
	       lines, mb, floor_s, imp_s, mb / imp_s, query_int(tr, "select count(*) from slice"),
	       query_int(tr, "select count(*) from sched_slice"), ru.ru_maxrss / 1024.0,
	       (double)ru.ru_maxrss * 1024.0 / (mb * 1e6));
	fflush(stdout);
	tt_trace_close(tr);
}

int main(int argc, char **argv)
{
	long sizes[8] = { 1000000, 10000000 };
	int nsizes = 2;
	long systrace_lines = 200000;
	const char *dir = getenv("TT_BENCH_DIR") ? getenv("TT_BENCH_DIR") : "/tmp";

	if (argc > 1) {
		nsizes = 0;
		systrace_lines = 0;
		for (int i = 1; i < argc; i++)
			if (argv[i][0] == 's')
				systrace_lines = atol(argv[i] + 1);
			else if (nsizes < 8)
				sizes[nsizes++] = atol(argv[i]);
	}
	for (int i = 0; i < nsizes; i++) {
		char path[512];
		struct stat sb;
		pid_t pid;
		int status;

		snprintf(path, sizeof(path), "%s/tt-bench-%ld.json", dir, sizes[i]);
		if (stat(path, &sb) != 0)
			generate(path, sizes[i]);
		pid = fork();
		if (pid == 0) {
			run_child(path, sizes[i]);
			_exit(0);
		}
		waitpid(pid, &status, 0);
	}
	if (systrace_lines > 0) {
		char path[512];
		struct stat sb;
		pid_t pid;
		int status;

		snprintf(path, sizeof(path), "%s/tt-bench-systrace-%ld.json", dir, systrace_lines);
		if (stat(path, &sb) != 0)
			generate_systrace(path, systrace_lines);
		pid = fork();
		if (pid == 0) {
			run_systrace_child(path, systrace_lines);
			_exit(0);
		}
		waitpid(pid, &status, 0);
	}
	return 0;
}
