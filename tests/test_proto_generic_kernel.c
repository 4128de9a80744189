/*
 * test_proto_generic_kernel.c - Perfetto's generic kernel data source
 * (core/import/proto/proto_generic_kernel.c) on traces written here: task
 * states to sched_slice and thread_state rows on one cpu and with a cpu's
 * next thread starting before the last one stopped, threads made and
 * ended, the orders refused and counted, names by rank and renames, the
 * process tree, and cpu and gpu frequencies through the clock conversion.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfetto_trace.pb-c.h"
#include "testutil.h"
#include "proto_tb.h"

enum { CREATED = 1, RUNNABLE, RUNNING, SLEEP, UNINTERRUPTIBLE, STOPPED, DEAD, DESTROYED };

#define NOCPU INT32_MIN /* (the event sets no cpu) */
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* A task state event on sequence seq at ts (comm NULL: none). */
struct ev {
	uint32_t seq;
	uint64_t ts;
	int64_t tid;
	int32_t state, cpu, prio;
	const char *comm;
};

static void tasks(tbuf *b, const struct ev *ev, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		Perfetto__Protos__GenericKernelTaskStateEvent e =
			PERFETTO__PROTOS__GENERIC_KERNEL_TASK_STATE_EVENT__INIT;
		Pkt p = pkt(ev[i].seq, ev[i].ts);

		e.has_tid = e.has_state = e.has_prio = 1;
		e.tid = ev[i].tid;
		e.state = ev[i].state;
		e.prio = ev[i].prio;
		e.has_cpu = ev[i].cpu != NOCPU;
		e.cpu = e.has_cpu ? ev[i].cpu : 0;
		e.comm = (char *)ev[i].comm;
		TB_PUT(b, p, GENERIC_KERNEL_TASK_STATE_EVENT, generic_kernel_task_state_event, &e);
	}
}

/* A trace being written (b), then open (tr, its file path). */
typedef struct gk {
	tbuf b;
	char *path;
	tt_trace *tr;
} gk;

/* The events ev written after what t->b holds, and the trace opened. */
static void gk_open(gk *t, const struct ev *ev, size_t n)
{
	tasks(&t->b, ev, n);
	t->tr = tb_open_file(&t->b, &t->path);
}

static void gk_close(gk *t)
{
	tb_close(t->tr, t->path, &t->b);
}

static void rename_task(tbuf *b, uint64_t ts, int64_t tid, const char *comm)
{
	Perfetto__Protos__GenericKernelTaskRenameEvent e = PERFETTO__PROTOS__GENERIC_KERNEL_TASK_RENAME_EVENT__INIT;
	Pkt p = pkt(1, ts);

	e.has_tid = 1;
	e.tid = tid;
	e.comm = (char *)comm;
	TB_PUT(b, p, GENERIC_KERNEL_TASK_RENAME_EVENT, generic_kernel_task_rename_event, &e);
}

#define SLICES "select ts, dur, cpu, utid, coalesce(end_state, 'NULL'), priority from sched_slice order by id"
#define STATES "select ts, dur, coalesce(cpu, 'NULL'), utid, coalesce(state, 'NULL') from thread_state order by id"
#define THREADS                                                                                       \
	"select utid, tid, name, coalesce(start_ts, 'NULL'), coalesce(end_ts, 'NULL') from thread where utid > 0" \
	" order by utid"

/* The task states ev make exactly these sched_slice (SLICES), thread_state
 * (STATES) and thread (THREADS) rows and invalid_order
 * generic_task_state_invalid_order; the trace stays open in t. */
static void gk_expect(gk *t, const struct ev *ev, size_t n, const char *slices, const char *states,
		      const char *threads, int64_t invalid_order)
{
	gk_open(t, ev, n);
	tt_test_assert_tsv(t->tr, SLICES, slices);
	tt_test_assert_tsv(t->tr, STATES, states);
	tt_test_assert_tsv(t->tr, THREADS, threads);
	assert_int_equal(tt_test_stat(t->tr, "generic_task_state_invalid_order"), invalid_order);
}

/* One thread's life on cpu 2: each state a row, Running with its cpu;
 * the thread's own next state closes its slice with that state; CREATED
 * and DESTROYED are its start_ts and end_ts; every comm but DESTROYED's
 * names it. */
static void test_task_states_one_cpu(void **state)
{
	static const struct ev evs[] = {
		{ 1, 100, 10, CREATED, NOCPU, 0, "worker" },
		{ 1, 110, 10, RUNNABLE, NOCPU, 0, "worker" },
		{ 1, 120, 10, RUNNING, 2, 120, "worker" },
		{ 1, 150, 10, SLEEP, 2, 120, "worker" },
		{ 1, 170, 10, RUNNABLE, NOCPU, 0, "worker" },
		{ 1, 180, 10, RUNNING, 2, 100, "worker-b" },
		{ 1, 200, 10, UNINTERRUPTIBLE, 2, 100, "worker-b" },
		{ 1, 205, 10, RUNNABLE, 2, 100, NULL },
		{ 1, 207, 10, STOPPED, 2, 100, NULL },
		{ 1, 210, 10, DEAD, NOCPU, 100, "worker-b" },
		{ 1, 230, 10, DESTROYED, NOCPU, 100, "gone" },
	};
	gk t = {0};

	(void)state;
	gk_expect(&t, evs, N(evs), "120\t30\t2\t1\tS\t120\n180\t20\t2\t1\tD\t100\n",
			   "100\t10\tNULL\t1\tCreated\n110\t10\tNULL\t1\tR\n120\t30\t2\t1\tRunning\n"
			   "150\t20\tNULL\t1\tS\n170\t10\tNULL\t1\tR\n180\t20\t2\t1\tRunning\n"
			   "200\t5\tNULL\t1\tD\n205\t2\tNULL\t1\tR\n207\t3\tNULL\t1\tT\n210\t20\tNULL\t1\tZ\n"
			   "230\t-1\tNULL\t1\tX\n",
		  "1\t10\tworker-b\t100\t230\n", 0);
	gk_close(&t);
}

/* On cpu 1, B starts at 200 before A says it stopped: A's slice ends
 * there with no end state and A gets a NULL state; A's S at that same
 * time becomes both. C starts at 300 and B's D comes at 350 (written
 * first, on another sequence: sorted): B keeps its NULL state from 300
 * to 350 and its slice no end state. C's S names cpu 0, which it does
 * not run on: its slice stays open. */
static void test_interleaved_starts(void **state)
{
	static const struct ev evs[] = {
		{ 2, 350, 22, UNINTERRUPTIBLE, 1, 90, "B" },
		{ 1, 100, 21, RUNNING, 1, 80, "A" },
		{ 1, 200, 22, RUNNING, 1, 90, "B" },
		{ 1, 200, 21, SLEEP, 1, 80, "A" },
		{ 1, 300, 23, RUNNING, 1, 70, "C" },
		{ 1, 400, 23, SLEEP, 0, 70, "C" },
	};
	gk t = {0};

	(void)state;
	gk_expect(&t, evs, N(evs), "100\t100\t1\t1\tS\t80\n200\t100\t1\t2\tNULL\t90\n300\t-1\t1\t3\tNULL\t70\n",
		  "100\t100\t1\t1\tRunning\n200\t-1\tNULL\t1\tS\n200\t100\t1\t2\tRunning\n"
			   "300\t50\tNULL\t2\tNULL\n300\t100\t1\t3\tRunning\n350\t-1\tNULL\t2\tD\n"
			   "400\t-1\tNULL\t3\tS\n",
		  "1\t21\tA\tNULL\tNULL\n2\t22\tB\tNULL\tNULL\n3\t23\tC\tNULL\tNULL\n", 0);
	gk_close(&t);
}

/* What the parser refuses: CREATED of a live thread, Running twice,
 * anything but DESTROYED after DEAD (dropped, counted); two states at
 * one time (counted, kept); an unknown state (task_state_invalid) and
 * RUNNING on a cpu out of range (generic_task_state_cpu_bad) make no
 * thread. A tid DESTROYED ended is a new thread when it runs again. */
static void test_invalid_orders(void **state)
{
	static const struct ev evs[] = {
		{ 1, 100, 31, CREATED, NOCPU, 0, "t31" },
		{ 1, 110, 31, CREATED, NOCPU, 0, "t31" },
		{ 1, 120, 31, RUNNING, 0, 5, "t31" },
		{ 1, 130, 31, RUNNING, 0, 5, "t31" },
		{ 1, 140, 31, SLEEP, 0, 5, "t31" },
		{ 1, 140, 31, RUNNABLE, 0, 5, "t31" },
		{ 1, 150, 31, DEAD, NOCPU, 5, "t31" },
		{ 1, 160, 31, RUNNABLE, NOCPU, 5, "t31" },
		{ 1, 170, 31, DESTROYED, NOCPU, 5, "t31" },
		{ 1, 175, 31, RUNNING, 3, 5, "t31" },
		{ 1, 180, 32, 0, NOCPU, 0, "t32" },
		{ 1, 181, 32, 42, NOCPU, 0, "t32" },
		{ 1, 190, 33, RUNNING, 5000, 0, "t33" },
		{ 1, 200, 33, RUNNING, -1, 0, "t33" },
	};
	gk t = {0};

	(void)state;
	gk_expect(&t, evs, N(evs), "120\t20\t0\t1\tS\t5\n175\t-1\t3\t2\tNULL\t5\n",
		  "100\t20\tNULL\t1\tCreated\n120\t20\t0\t1\tRunning\n140\t0\tNULL\t1\tS\n"
		  "140\t10\tNULL\t1\tR\n150\t20\tNULL\t1\tZ\n170\t-1\tNULL\t1\tX\n175\t-1\t3\t2\tRunning\n",
		  "1\t31\tt31\t100\t170\n2\t31\tt31\tNULL\tNULL\n", 4);
	assert_int_equal(tt_test_stat(t.tr, "task_state_invalid"), 2);
	assert_int_equal(tt_test_stat(t.tr, "generic_task_state_cpu_bad"), 2);
	gk_close(&t);
}

/* The process tree: processes with a cmdline (named up to its first
 * space, parent the ppid's process: the idle process for none) and no
 * main thread of their own; threads in their process (made without a
 * name when unknown), is_main_thread and is_idle as listed, named at the
 * tree's rank, which a task state's comm or a rename does not replace;
 * a main thread's rename names its process. */
static void test_process_tree_and_names(void **state)
{
	static const struct ev evs[] = {
		{ 1, 70, 42, RUNNING, 0, 0, "io" },
	};
	Perfetto__Protos__GenericKernelProcessTree pt = PERFETTO__PROTOS__GENERIC_KERNEL_PROCESS_TREE__INIT;
	Perfetto__Protos__GenericKernelProcessTree__Process pr[3], *prp[3];
	Perfetto__Protos__GenericKernelProcessTree__Thread th[3], *thp[3];
	static const struct { int64_t pid, ppid; const char *cmdline; } procs[3] = {
		{ 1, 0, "init" }, { 40, 1, "/bin/srv --port 80" }, { 41, 1, NULL },
	};
	static const struct { int64_t tid, pid; const char *comm; int main, idle; } thr[3] = {
		{ 40, 40, "srv", 1, 0 }, { 42, 40, "srv-io", 0, 0 }, { 43, 50, "idle0", 0, 1 },
	};
	gk t = {0};
	Pkt p = pkt(1, 50);

	(void)state;
	for (int i = 0; i < 3; i++) {
		perfetto__protos__generic_kernel_process_tree__process__init(&pr[i]);
		pr[i].has_pid = 1;
		pr[i].pid = procs[i].pid;
		pr[i].has_ppid = procs[i].ppid != 0;
		pr[i].ppid = procs[i].ppid;
		pr[i].cmdline = (char *)procs[i].cmdline;
		prp[i] = &pr[i];
		perfetto__protos__generic_kernel_process_tree__thread__init(&th[i]);
		th[i].has_tid = th[i].has_pid = th[i].has_is_main_thread = th[i].has_is_idle = 1;
		th[i].tid = thr[i].tid;
		th[i].pid = thr[i].pid;
		th[i].comm = (char *)thr[i].comm;
		th[i].is_main_thread = thr[i].main;
		th[i].is_idle = thr[i].idle;
		thp[i] = &th[i];
	}
	pt.n_processes = pt.n_threads = 3;
	pt.processes = prp;
	pt.threads = thp;
	TB_PUT(&t.b, p, GENERIC_KERNEL_PROCESS_TREE, generic_kernel_process_tree, &pt);
	rename_task(&t.b, 60, 40, "server");
	rename_task(&t.b, 80, 44, "fresh");
	gk_open(&t, evs, N(evs));
	tt_test_assert_tsv(t.tr, "select upid, pid, coalesce(name, 'NULL'), coalesce(parent_upid, 'NULL'),"
			       " coalesce(cmdline, 'NULL') from process order by upid",
			   "0\t0\tNULL\tNULL\tNULL\n1\t1\tinit\t0\tinit\n2\t40\tserver\t1\t/bin/srv --port 80\n"
			   "3\t50\tNULL\tNULL\tNULL\n");
	tt_test_assert_tsv(t.tr, "select utid, tid, name, coalesce(upid, 'NULL'), coalesce(is_main_thread, 'NULL'),"
			       " is_idle from thread order by utid",
			   "0\t0\tswapper\t0\t1\t1\n1\t40\tsrv\t2\t1\t0\n2\t42\tsrv-io\t2\t0\t0\n"
			   "3\t43\tidle0\t3\t0\t1\n4\t44\tfresh\tNULL\tNULL\t0\n");
	gk_close(&t);
}

/* Frequencies: a cpu's in Hz as kHz on its cpufreq track, a gpu's kHz on
 * its gpufreq track; a task state and a frequency stamped with MONOTONIC
 * converted to the trace's BOOTTIME like any packet. */
static void test_frequencies(void **state)
{
	static const struct ev evs[] = {
		{ 1, 1070, 7, RUNNING, 1, 0, "t7" },
	};
	Perfetto__Protos__GenericKernelCpuFrequencyEvent cf = PERFETTO__PROTOS__GENERIC_KERNEL_CPU_FREQUENCY_EVENT__INIT;
	Perfetto__Protos__GenericGpuFrequencyEvent gf = PERFETTO__PROTOS__GENERIC_GPU_FREQUENCY_EVENT__INIT;
	static const struct { uint64_t ts; int32_t cpu; int64_t hz; } freqs[3] = {
		{ 1010, 0, 1500000000 }, { 1020, 3, 800000000 }, { 1030, 0, 2000000000 },
	};
	gk t = {0};
	Pkt p;

	(void)state;
	tb_snapshot(&t.b, 1, 0, 6, 1000, 3, 100, 0, 0);
	cf.has_cpu = cf.has_freq_hz = 1;
	for (int i = 0; i < 3; i++) {
		p = pkt(1, freqs[i].ts);
		cf.cpu = freqs[i].cpu;
		cf.freq_hz = freqs[i].hz;
		TB_PUT(&t.b, p, GENERIC_KERNEL_CPU_FREQ_EVENT, generic_kernel_cpu_freq_event, &cf);
	}
	p = pkt(1, 150);
	p.has_timestamp_clock_id = 1;
	p.timestamp_clock_id = 3;
	cf.cpu = 3;
	cf.freq_hz = 999999;
	TB_PUT(&t.b, p, GENERIC_KERNEL_CPU_FREQ_EVENT, generic_kernel_cpu_freq_event, &cf);
	gf.has_gpu_id = gf.has_frequency_khz = 1;
	gf.gpu_id = 0;
	gf.frequency_khz = 585000;
	p = pkt(1, 1060);
	TB_PUT(&t.b, p, GENERIC_GPU_FREQUENCY_EVENT, generic_gpu_frequency_event, &gf);
	gk_open(&t, evs, N(evs));
	tt_test_assert_tsv(t.tr, "select c.ts, t.cpu, c.value, t.name, t.type from counter c"
			       " join cpu_counter_track t on c.track_id = t.id order by c.ts",
			   "1010\t0\t1500000.0\tcpufreq\tcpu_frequency\n1020\t3\t800000.0\tcpufreq\tcpu_frequency\n"
			   "1030\t0\t2000000.0\tcpufreq\tcpu_frequency\n1050\t3\t999.999\tcpufreq\tcpu_frequency\n");
	tt_test_assert_tsv(t.tr, "select c.ts, c.value, t.name, t.type, t.unit from counter c join track t"
			       " on t.id = c.track_id where t.type = 'gpu_frequency'",
			   "1060\t585000.0\tgpufreq\tgpu_frequency\tkHz\n");
	tt_test_assert_tsv(t.tr, SLICES, "1070\t-1\t1\t1\tNULL\t0\n");
	gk_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_task_states_one_cpu),
		cmocka_unit_test(test_interleaved_starts),
		cmocka_unit_test(test_invalid_orders),
		cmocka_unit_test(test_process_tree_and_names),
		cmocka_unit_test(test_frequencies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
