/*
 * bench_ctf.c - CTF import throughput against babeltrace2 on the same files
 * in the same run.
 *
 *   build-bench/bench/bench_ctf [EVENTS] [STREAMS]
 *
 * Writes an LTTng-style trace with tests/ctf_writer.c (compact 5+27-bit
 * event headers; ticks with 3 fields, nested entry/exit pairs, a few gaps
 * that need full timestamps; every stream gets the same mix: each
 * stream's 10th record is a work pair). Without arguments, the issue's
 * two cases:
 * 5,000,000 events in one stream (target >= 5x babeltrace2) and
 * 10,000,000 in four (target >= 8x). Then times
 *   - termtrace: tt_trace_open (decode, merge, storage, finalize);
 *   - babeltrace2 TRACE -c sink.utils.dummy (decode + muxing, no output);
 * and prints events/s of both and the ratio, the memory the import keeps
 * (resident growth over the trace's size, bytes per event; target <= 1x),
 * then what reading the lazily decoded arg sets costs afterwards.
 *
 * While iterating: TT_BENCH_NOPEER=1 skips babeltrace2, TT_BENCH_KEEP=1
 * keeps the trace (for profiling), TT_BENCH_TICKS_ONLY=1 writes no work
 * pairs (threads of tracepoints only: their tracks are bursts).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "termtrace.h"
#include "ctf_metadata.h"
#include "ctf_stream.h"
#include "ctf_writer.c"

/* Resident bytes of this process now. */
static long long resident(void)
{
	long long pages = 0, res = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%lld %lld", &pages, &res) != 2)
			res = 0;
		fclose(f);
	}
	return res * sysconf(_SC_PAGESIZE);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU seconds (user + system) of this process, or of its waited-for
 * children: on a shared machine wall time depends on the neighbours. */
static double cpu(int children)
{
	struct rusage ru;

	getrusage(children ? RUSAGE_CHILDREN : RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* termtrace's reader alone (metadata, every stream decoded with all its
 * fields, merged by time): what babeltrace2's dummy sink also does. */
static long long decode_only(const char *dir, int ns)
{
	ctf_meta *m;
	ctf_stream *st[64];
	const ctf_event *ev[64];
	tt_err err = { 0 };
	long long n = 0;
	int i, live = 0;

	if (tt_ctf_meta_load(dir, &m, &err))
		return -1;
	for (i = 0; i < ns; i++) {
		char path[1100];

		snprintf(path, sizeof(path), "%s/chan_%d", dir, i);
		if (tt_ctf_stream_open(m, path, &st[i], &err))
			return -1;
		if (tt_ctf_stream_next(st[i], &ev[i]) == 1)
			live++;
		else
			ev[i] = NULL;
	}
	while (live) {
		int best = -1;

		for (i = 0; i < ns; i++)
			if (ev[i] && (best < 0 || ev[i]->ts < ev[best]->ts))
				best = i;
		n++;
		if (tt_ctf_stream_next(st[best], &ev[best]) != 1) {
			ev[best] = NULL;
			live--;
		}
	}
	for (i = 0; i < ns; i++)
		tt_ctf_stream_close(st[i]);
	tt_ctf_meta_free(m);
	return n;
}

/* What reading lazy arg sets costs after the import: lookups of one set
 * (decoded on first read), then full scans of args (the first decodes and
 * stores every set left, the second reads stored rows). */
static void lazy_reads(tt_trace *tr, long long nev)
{
	tt_result r;
	tt_err err = { 0 };
	char sql[128];
	const int nlook = 2000;
	double t0 = now();

	for (int i = 0; i < nlook; i++) {
		snprintf(sql, sizeof(sql), "select count(*) from args where arg_set_id = %lld",
			 (long long)((nev / nlook) * i));
		if (tt_query_collect(tr, sql, 1, &r, &err) == 0)
			tt_result_free(&r);
	}
	printf("bench_ctf: args lookups  %8.1f us each (arg_set_id = ?, %d sets decoded on first read)\n",
	       (now() - t0) * 1e6 / nlook, nlook);
	for (int pass = 1; pass <= 2; pass++) {
		t0 = now();
		if (tt_query_collect(tr, "select count(*) from args", 1, &r, &err) == 0) {
			printf("bench_ctf: args scan %d   %8.3f s  (%s rows%s)\n", pass, now() - t0, r.cells[0],
			       pass == 1 ? ", decoding every set left" : ", stored");
			tt_result_free(&r);
		}
	}
}

static int bench_one(long long nev, int ns, double target)
{
	char dir[] = "/tmp/tt-bench-ctf-XXXXXX";
	long long rss0, rss1, tsize = 0;
	ctfw_opts o = { .offset_s = 1700000000, .nstreams = ns, .packet_bytes = 1 << 16 };
	ctfw *w;
	uint64_t ts[64] = { 0 };
	long long i, written = 0;
	double t0, c0, t_tt, t_bt = -1, t_dec, c_tt, c_bt = -1;
	long long ndec;
	tt_err err = { 0 };
	tt_trace *tr;
	char cmd[512];
	int rc, notrack, nopeer;

	if (ns < 1 || ns > 64 || nev < 1) {
		fprintf(stderr, "usage: bench_ctf [EVENTS] [STREAMS<=64]\n");
		return 2;
	}
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	/* TT_BENCH_TICKS_ONLY: no work pairs, so the threads have tracepoints
	 * only (their tracks are bursts of them) */
	notrack = getenv("TT_BENCH_TICKS_ONLY") != NULL;
	t0 = now();
	w = ctfw_open(dir, &o);
	if (!w)
		return 1;
	for (int s = 0; s < ns; s++) {
		ctfw_thread(w, s, 4000, 4000 + s, s ? "bench-worker" : "bench-main");
		ts[s] = 1000000 + (uint64_t)s * 7;
	}
	for (i = 0; written < nev; i++) {
		int s = (int)(i % ns);
		/* the stream's own count: every stream gets work events (with
		 * i % 10 and 4 streams only the even ones would) */
		long long k = i / ns;
		uint64_t step = (k % 100000 == 99999) ? (UINT64_C(1) << 28) : 97 + (uint64_t)(k % 13);

		ts[s] += step;
		if (k % 10 == 0 && written + 4 <= nev && !notrack) {
			ctfw_work(w, s, ts[s], 1, (int32_t)i);
			ctfw_work(w, s, ts[s] + 10, 1, (int32_t)i + 1);
			ctfw_work(w, s, ts[s] + 20, 0, (int32_t)i + 1);
			ctfw_work(w, s, ts[s] + 30, 0, (int32_t)i);
			ts[s] += 30;
			written += 4;
		} else {
			ctfw_tick(w, s, ts[s], (uint64_t)i, (int32_t)(i & 0xFFFF), "tick");
			written++;
		}
	}
	if (ctfw_close(w)) {
		fprintf(stderr, "bench_ctf: writing the trace failed\n");
		return 1;
	}
	/* the kernel would still be writing the files back while termtrace
	 * reads them (and not any more when babeltrace2 does) */
	sync();
	printf("bench_ctf: wrote %lld events in %d streams to %s in %.2f s\n", written, ns, dir, now() - t0);

	for (int s = 0; s < ns; s++) {
		char path[1100];
		FILE *f;

		snprintf(path, sizeof(path), "%s/chan_%d", dir, s);
		if ((f = fopen(path, "rb"))) {
			fseek(f, 0, SEEK_END);
			tsize += ftell(f);
			fclose(f);
		}
	}
	{
		/* how shared the machine is: the ratios below are of one run */
		FILE *la = fopen("/proc/loadavg", "r");
		double l1 = 0;

		if (la) {
			if (fscanf(la, "%lf", &l1) == 1)
				printf("bench_ctf: load average %.2f on %ld CPUs before the import\n", l1,
				       sysconf(_SC_NPROCESSORS_ONLN));
			fclose(la);
		}
	}
	rss0 = resident();
	t0 = now();
	c0 = cpu(0);
	tr = tt_trace_open(dir, NULL, &err);
	t_tt = now() - t0;
	c_tt = cpu(0) - c0;
	/* what the open trace keeps: storage, indexes, the mapped streams it
	 * has touched (lazy args decode from them) */
	rss1 = resident();
	if (!tr) {
		fprintf(stderr, "bench_ctf: %s\n", err.msg);
		return 1;
	}
	{
		tt_result r;

		if (tt_query_collect(tr, "select count(*) from raw", 1, &r, &err) == 0) {
			printf("bench_ctf: termtrace imported %s events\n", r.cells[0]);
			tt_result_free(&r);
		}
	}
	printf("bench_ctf: memory      %.1f MB resident after the import for a %.1f MB trace: %.2fx the trace "
	       "(target <= 1x), %.1f bytes/event (trace: %.1f bytes/event)\n",
	       (double)(rss1 - rss0) / 1e6, (double)tsize / 1e6, (double)(rss1 - rss0) / (double)tsize,
	       (double)(rss1 - rss0) / (double)written, (double)tsize / (double)written);
	lazy_reads(tr, written);
	tt_trace_close(tr);

	t0 = now();
	ndec = decode_only(dir, ns);
	t_dec = now() - t0;

	snprintf(cmd, sizeof(cmd), "babeltrace2 '%s' -c sink.utils.dummy >/dev/null 2>&1", dir);
	t0 = now();
	c0 = cpu(1);
	/* TT_BENCH_NOPEER: termtrace's figures only (while iterating) */
	nopeer = getenv("TT_BENCH_NOPEER") != NULL;
	rc = nopeer ? -1 : system(cmd);
	if (rc == 0) {
		t_bt = now() - t0;
		c_bt = cpu(1) - c0;
	}

	printf("bench_ctf: termtrace   %8.3f s  %12.0f events/s  (full import: decode, merge, storage, indexes)\n",
	       t_tt, (double)written / t_tt);
	printf("bench_ctf: ctf reader  %8.3f s  %12.0f events/s  (decode + merge of %lld events, no storage)\n",
	       t_dec, (double)ndec / t_dec, ndec);
	if (t_bt > 0) {
		printf("bench_ctf: babeltrace2 %8.3f s  %12.0f events/s\n", t_bt, (double)written / t_bt);
		printf("bench_ctf: ratio termtrace/babeltrace2 = %.2fx on %d stream%s (target >= %.0fx); reader alone %.2fx\n",
		       t_bt / t_tt, ns, ns == 1 ? "" : "s", target, t_bt / t_dec);
		printf("bench_ctf: cpu time    termtrace %.3f s, babeltrace2 %.3f s: ratio %.2fx\n", c_tt, c_bt,
		       c_bt / c_tt);
	} else if (nopeer) {
		printf("bench_ctf: babeltrace2 skipped (TT_BENCH_NOPEER): no ratio, the figures above have no peer\n");
	} else {
		printf("bench_ctf: babeltrace2 not available (exit %d): no ratio\n", rc);
	}
	if (getenv("TT_BENCH_KEEP")) { /* for profiling the import alone */
		printf("bench_ctf: trace kept in %s\n", dir);
		return 0;
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "bench_ctf: could not remove %s\n", dir);
	return 0;
}

/* One case in a process of its own, as termtrace imports one trace per
 * process: after an import glibc's malloc has raised its mmap threshold
 * (it follows the largest mmapped block freed, up to 32 MiB), so a second
 * import in the same process grows its columns on the heap, where realloc
 * leaves holes, and keeps 5-10 % more resident (0.94x -> 1.01x of the
 * trace measured; GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072 gives
 * 0.93x). */
static int run_child(long long nev, int ns, double target)
{
	pid_t pid;
	int st = 0;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return bench_one(nev, ns, target);
	if (pid == 0) {
		int rc = bench_one(nev, ns, target);

		fflush(stdout);
		_exit(rc);
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
		return 1;
	return WEXITSTATUS(st);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return bench_one(atoll(argv[1]), argc > 2 ? atoi(argv[2]) : 4, argc > 2 && atoi(argv[2]) == 1 ? 5 : 8);
	printf("bench_ctf: the machine may be shared: ratios are of runs made one after the other\n");
	if (run_child(5000000, 1, 5))
		return 1;
	return run_child(10000000, 4, 8);
}
