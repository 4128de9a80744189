/*
 * test_proto_kernel.c - the kernel's ftrace events of a Perfetto trace that
 * build slices across threads: binder transactions (core/import/
 * binder_tracker.c through proto_kernel.c), and the counters of GPU
 * frequencies, Android's power rails and its ion and DMA-BUF heaps, cpu
 * hotplug, hrtimers, the function graph tracer, wakelocks, CMA allocations
 * and android_fs reads, on traces written here.
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

/* ---- binder ------------------------------------------------------------------- */

#define BC_TRANSACTION 0x40406300u
#define BC_REPLY 0x40406301u
#define BR_TRANSACTION 0x80407202u
#define BR_REPLY 0x80407203u
#define BR_DEAD_REPLY 0x7205u
#define BR_TRANSACTION_COMPLETE 0x7206u

static void ft_txn(tbuf *b, uint64_t ts, uint32_t tid, int32_t id, int32_t node, int32_t to_proc, int32_t to_thread,
		   int reply, uint32_t code, uint32_t flags)
{
	Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__BinderTransactionFtraceEvent t = PERFETTO__PROTOS__BINDER_TRANSACTION_FTRACE_EVENT__INIT;

	t.has_debug_id = t.has_target_node = t.has_to_proc = t.has_to_thread = t.has_reply = 1;
	t.has_code = t.has_flags = 1;
	t.debug_id = id;
	t.target_node = node;
	t.to_proc = to_proc;
	t.to_thread = to_thread;
	t.reply = reply;
	t.code = code;
	t.flags = flags;
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_BINDER_TRANSACTION;
	e.binder_transaction = &t;
	ft_event_cpu(b, ts, 0, tid, &e, NULL);
}

static void ft_rcv(tbuf *b, uint64_t ts, uint32_t tid, int32_t id)
{
	Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__BinderTransactionReceivedFtraceEvent r =
		PERFETTO__PROTOS__BINDER_TRANSACTION_RECEIVED_FTRACE_EVENT__INIT;

	r.has_debug_id = 1;
	r.debug_id = id;
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_BINDER_TRANSACTION_RECEIVED;
	e.binder_transaction_received = &r;
	ft_event_cpu(b, ts, 0, tid, &e, NULL);
}

/* A binder_command (ret 0) or binder_return (ret 1). */
static void ft_cmd(tbuf *b, uint64_t ts, uint32_t tid, int ret, uint32_t cmd)
{
	Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__BinderCommandFtraceEvent c = PERFETTO__PROTOS__BINDER_COMMAND_FTRACE_EVENT__INIT;
	Perfetto__Protos__BinderReturnFtraceEvent r = PERFETTO__PROTOS__BINDER_RETURN_FTRACE_EVENT__INIT;

	c.has_cmd = r.has_cmd = 1;
	c.cmd = r.cmd = cmd;
	if (ret) {
		e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_BINDER_RETURN;
		e.binder_return = &r;
	} else {
		e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_BINDER_COMMAND;
		e.binder_command = &c;
	}
	ft_event_cpu(b, ts, 0, tid, &e, NULL);
}

static void ft_lock(tbuf *b, uint64_t ts, uint32_t tid, int what)
{
	Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__BinderLockFtraceEvent l = PERFETTO__PROTOS__BINDER_LOCK_FTRACE_EVENT__INIT;
	Perfetto__Protos__BinderLockedFtraceEvent ld = PERFETTO__PROTOS__BINDER_LOCKED_FTRACE_EVENT__INIT;
	Perfetto__Protos__BinderUnlockFtraceEvent u = PERFETTO__PROTOS__BINDER_UNLOCK_FTRACE_EVENT__INIT;

	if (what == 0) {
		e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_BINDER_LOCK;
		e.binder_lock = &l;
	} else if (what == 1) {
		e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_BINDER_LOCKED;
		e.binder_locked = &ld;
	} else {
		e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_BINDER_UNLOCK;
		e.binder_unlock = &u;
	}
	ft_event_cpu(b, ts, 0, tid, &e, NULL);
}

static void ft_alloc(tbuf *b, uint64_t ts, uint32_t tid, uint64_t data, uint64_t offsets)
{
	Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__BinderTransactionAllocBufFtraceEvent a =
		PERFETTO__PROTOS__BINDER_TRANSACTION_ALLOC_BUF_FTRACE_EVENT__INIT;

	a.has_data_size = a.has_offsets_size = 1;
	a.data_size = data;
	a.offsets_size = offsets;
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_BINDER_TRANSACTION_ALLOC_BUF;
	e.binder_transaction_alloc_buf = &a;
	ft_event_cpu(b, ts, 0, tid, &e, NULL);
}

#define SLICES_Q                                                                                              \
	"select s.ts, s.dur, s.category, s.name, th.tid, s.depth from slice s"                                \
	" join thread_track tt on tt.id = s.track_id join thread th using(utid) order by s.ts, th.tid"

/* A synchronous transaction with the driver's commands and returns: "binder
 * transaction" on the caller until the reply is back, "binder reply" on
 * the server from the receipt to its reply, a flow from one to the other
 * (no flow id); the args trace processor writes, the destination's added
 * at the receipt, the buffer's sizes while the transaction is open. A
 * oneway transaction: two instants and a flow. A transaction the driver
 * fails (BR_DEAD_REPLY) ends there. The old global lock's waiting and
 * held slices. A reply whose transaction came before the trace, and a
 * receipt of an unknown transaction: nothing, and nothing counted. */
static void test_binder_transactions(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	tree_packet(&b, 1, 100, 1, "com.example.app", 101, "main");
	tree_packet(&b, 2, 200, 1, "system_server", 201, "binder:200_1");
	/* a reply to a transaction before the trace: nothing open to end */
	ft_txn(&b, 50, 201, 3, 0, 100, 101, 1, 0, 0);
	ft_rcv(&b, 60, 101, 99); /* never sent: ignored */
	ft_cmd(&b, 100, 101, 0, BC_TRANSACTION);
	ft_txn(&b, 110, 101, 7, 5, 200, 201, 0, 3, 0x10);
	ft_alloc(&b, 115, 101, 64, 8);
	ft_rcv(&b, 120, 201, 7);
	ft_cmd(&b, 121, 201, 1, BR_TRANSACTION);
	ft_cmd(&b, 150, 201, 0, BC_REPLY);
	ft_txn(&b, 160, 201, 8, 0, 100, 101, 1, 0, 0);
	ft_cmd(&b, 170, 201, 1, BR_TRANSACTION_COMPLETE);
	ft_cmd(&b, 175, 101, 1, BR_TRANSACTION_COMPLETE);
	ft_rcv(&b, 180, 101, 8);
	ft_cmd(&b, 181, 101, 1, BR_REPLY);
	/* oneway */
	ft_txn(&b, 200, 101, 9, 5, 200, 0, 0, 0x1f, 0x11);
	ft_rcv(&b, 210, 201, 9);
	/* failed: the driver answers BR_DEAD_REPLY */
	ft_cmd(&b, 300, 101, 0, BC_TRANSACTION);
	ft_txn(&b, 310, 101, 10, 5, 200, 201, 0, 4, 0);
	ft_cmd(&b, 320, 101, 1, BR_DEAD_REPLY);
	/* the global lock */
	ft_lock(&b, 400, 101, 0);
	ft_lock(&b, 410, 101, 1);
	ft_lock(&b, 420, 101, 2);
	ft_lock(&b, 430, 101, 2); /* not held: ignored */
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, SLICES_Q,
			   "110\t70\tbinder\tbinder transaction\t101\t0\n"
			   "120\t40\tbinder\tbinder reply\t201\t0\n"
			   "200\t0\tbinder\tbinder transaction async\t101\t0\n"
			   "210\t0\tbinder\tbinder async rcv\t201\t0\n"
			   "310\t10\tbinder\tbinder transaction\t101\t0\n"
			   "400\t10\tbinder\tbinder lock waiting\t101\t0\n"
			   "410\t10\tbinder\tbinder lock held\t101\t0\n");
	tt_test_assert_tsv(tr, "select a.key, a.value_type, a.display_value from slice s join args a using(arg_set_id)"
			       " where s.ts = 110 order by a.id",
			   "transaction id\tint\t7\n"
			   "destination node\tint\t5\n"
			   "destination process\tint\t200\n"
			   "reply transaction?\tbool\tfalse\n"
			   "flags\tstring\t0x10 allow replies with file descriptors; \n"
			   "code\tstring\t0x03 Java Layer Dependent\n"
			   "calling tid\tuint\t101\n"
			   "data size\tuint\t64\n"
			   "offsets size\tuint\t8\n"
			   "destination thread\tuint\t201\n"
			   "destination name\tstring\tbinder:200_1\n");
	tt_test_assert_tsv(tr, "select a.key, a.value_type, a.display_value from slice s join args a using(arg_set_id)"
			       " where s.ts = 120 order by a.id",
			   "destination thread\tint\t101\n"
			   "destination name\tstring\tmain\n"
			   "transaction id\tint\t8\n"
			   "destination node\tint\t0\n"
			   "destination process\tint\t100\n"
			   "reply transaction?\tbool\ttrue\n"
			   "flags\tstring\t0x00 No Flags Set\n"
			   "code\tstring\t0x00 Java Layer Dependent\n"
			   "calling tid\tuint\t201\n");
	/* the oneway receipt has the transaction's args */
	tt_test_assert_tsv(tr, "select a.key, a.display_value from slice s join args a using(arg_set_id)"
			       " where s.ts = 210 and a.key in ('flags', 'code', 'calling tid') order by a.id",
			   "flags\t0x11 this is a one-way call: async, no return; allow replies with file descriptors; \n"
			   "code\t0x1f Java Layer Dependent\n"
			   "calling tid\t101\n");
	tt_test_assert_tsv(tr, "select o.ts, i.ts, f.trace_id is null from flow f join slice o on o.id = f.slice_out"
			       " join slice i on i.id = f.slice_in order by o.ts",
			   "110\t120\t1\n"
			   "200\t210\t1\n");
	assert_int_equal(tt_test_stat(tr, "slice_end_unmatched"), 0);
	assert_int_equal(tt_test_int(tr, "select count(*) from ftrace_event where name like 'binder%'"), 22);
	tb_close(tr, path, &b);
}

/* Without the driver's commands (binder_command / _return not traced), a
 * nested call: the server, serving a transaction, calls a third thread
 * and replies after; each reply ends its own slice, and the frames the
 * server pushed go when its next transaction shows no commands. */
static void test_binder_nested_without_commands(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	tree_packet(&b, 1, 100, 1, "app", 101, "main");
	tree_packet(&b, 2, 200, 1, "server", 201, "srv");
	tree_packet(&b, 3, 300, 1, "helper", 301, "hlp");
	ft_txn(&b, 10, 101, 1, 5, 200, 201, 0, 1, 0);
	ft_rcv(&b, 20, 201, 1);
	ft_txn(&b, 30, 201, 2, 6, 300, 301, 0, 2, 0);
	ft_rcv(&b, 40, 301, 2);
	ft_txn(&b, 50, 301, 3, 0, 200, 201, 1, 0, 0);
	ft_rcv(&b, 60, 201, 3);
	ft_txn(&b, 70, 201, 4, 0, 100, 101, 1, 0, 0);
	ft_rcv(&b, 80, 101, 4);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, SLICES_Q,
			   "10\t70\tbinder\tbinder transaction\t101\t0\n"
			   "20\t50\tbinder\tbinder reply\t201\t0\n"
			   "30\t30\tbinder\tbinder transaction\t201\t1\n"
			   "40\t10\tbinder\tbinder reply\t301\t0\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from flow"), 2);
	tb_close(tr, path, &b);
}

/* ---- gpu frequency --------------------------------------------------------------- */

static void ft_gpu(tbuf *b, uint64_t ts, int kgsl, uint32_t gpu, uint32_t freq)
{
	Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__GpuFrequencyFtraceEvent g = PERFETTO__PROTOS__GPU_FREQUENCY_FTRACE_EVENT__INIT;
	Perfetto__Protos__KgslGpuFrequencyFtraceEvent k = PERFETTO__PROTOS__KGSL_GPU_FREQUENCY_FTRACE_EVENT__INIT;

	g.has_gpu_id = g.has_state = k.has_gpu_id = k.has_gpu_freq = 1;
	g.gpu_id = k.gpu_id = gpu;
	g.state = k.gpu_freq = freq;
	if (kgsl) {
		e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_KGSL_GPU_FREQUENCY;
		e.kgsl_gpu_frequency = &k;
	} else {
		e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_GPU_FREQUENCY;
		e.gpu_frequency = &g;
	}
	ft_event_cpu(b, ts, 0, 10, &e, NULL);
}

/* gpu_frequency, kgsl_gpu_frequency (its value / 1000: times 1000) and
 * SysStats' gpufreq_mhz (GPU 0, as given) as trace processor's gpufreq
 * counters: one track per GPU (gpu_frequency, kHz, dimensions ugpu and
 * gpu), each GPU a row of the gpu table at its first mention. */
static void test_gpu_frequency(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Perfetto__Protos__SysStats ss = PERFETTO__PROTOS__SYS_STATS__INIT;
	uint64_t mhz[] = { 585 };
	Pkt p;

	(void)state;
	ft_gpu(&b, 10, 0, 1, 300000);
	ft_gpu(&b, 20, 0, 0, 500000);
	ft_gpu(&b, 30, 1, 0, 600);
	ss.n_gpufreq_mhz = 1;
	ss.gpufreq_mhz = mhz;
	p = pkt(1, 40);
	TB_PUT(&b, p, SYS_STATS, sys_stats, &ss);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select c.ts, c.value, t.name, t.type, t.unit, extract_arg(t.dimension_arg_set_id, 'gpu'),"
			       " extract_arg(t.dimension_arg_set_id, 'ugpu') from counter c join track t on t.id = c.track_id"
			       " order by c.ts",
			   "10\t300000.0\tgpufreq\tgpu_frequency\tkHz\t1\t0\n"
			   "20\t500000.0\tgpufreq\tgpu_frequency\tkHz\t0\t1\n"
			   "30\t600000.0\tgpufreq\tgpu_frequency\tkHz\t0\t1\n"
			   "40\t585.0\tgpufreq\tgpu_frequency\tkHz\t0\t1\n");
	tt_test_assert_tsv(tr, "select id, gpu, coalesce(name, 'NULL') from gpu order by id", "0\t1\tNULL\n1\t0\tNULL\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from track where type = 'gpu_frequency'"), 2);
	tb_close(tr, path, &b);
}

/* ---- power rails ------------------------------------------------------------------ */

/* PowerRails as trace processor's AndroidProbesModule: a track per rail
 * (power_rails; named power.rails.<name> for the rails it knows by the
 * end of their raw name, else power.<raw>_uws; dimensions name and
 * session_uuid; raw and subsystem names as the track's args); each
 * energy value at its own BOOTTIME ms (else the packet's time), with
 * the packet's time as packet_ts; a value of an unknown rail and a
 * packet with no values counted. */
static void test_power_rails(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Perfetto__Protos__PowerRails pr = PERFETTO__PROTOS__POWER_RAILS__INIT;
	Perfetto__Protos__PowerRails__RailDescriptor rd[2], *rdp[] = { &rd[0], &rd[1] };
	Perfetto__Protos__PowerRails__EnergyData ed[3], *edp[] = { &ed[0], &ed[1], &ed[2] };
	Pkt p;

	(void)state;
	for (int i = 0; i < 2; i++) {
		perfetto__protos__power_rails__rail_descriptor__init(&rd[i]);
		rd[i].has_index = 1;
		rd[i].index = (uint32_t)i;
	}
	rd[0].rail_name = "S10M_VDD_CPUCL0_M";
	rd[0].subsys_name = "CPU";
	rd[1].rail_name = "VSYS_PWR_FOO";
	for (int i = 0; i < 3; i++) {
		perfetto__protos__power_rails__energy_data__init(&ed[i]);
		ed[i].has_index = ed[i].has_energy = 1;
		ed[i].index = (uint32_t)i;
		ed[i].energy = 100u * (uint64_t)(i + 1);
	}
	ed[0].has_timestamp_ms = 1;
	ed[0].timestamp_ms = 2;
	ed[2].index = 7; /* no such rail */
	pr.has_session_uuid = 1;
	pr.session_uuid = 42;
	pr.n_rail_descriptor = 2;
	pr.rail_descriptor = rdp;
	pr.n_energy_data = 3;
	pr.energy_data = edp;
	p = pkt(1, 1000);
	TB_PUT(&b, p, POWER_RAILS, power_rails, &pr);
	pr.n_rail_descriptor = pr.n_energy_data = 0;
	p = pkt(1, 3000000);
	TB_PUT(&b, p, POWER_RAILS, power_rails, &pr);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select c.ts, c.value, t.name, t.type, coalesce(t.unit, 'NULL'),"
			       " extract_arg(c.arg_set_id, 'packet_ts'), extract_arg(t.dimension_arg_set_id, 'name'),"
			       " extract_arg(t.dimension_arg_set_id, 'session_uuid'), extract_arg(t.source_arg_set_id, 'raw_name'),"
			       " extract_arg(t.source_arg_set_id, 'subsystem_name')"
			       " from counter c join track t on t.id = c.track_id order by c.ts",
			   "1000\t200.0\tpower.VSYS_PWR_FOO_uws\tpower_rails\tNULL\t1000\tVSYS_PWR_FOO\t42\tVSYS_PWR_FOO\t\n"
			   "2000000\t100.0\tpower.rails.cpu.little.mem\tpower_rails\tNULL\t1000\tS10M_VDD_CPUCL0_M\t42"
			   "\tS10M_VDD_CPUCL0_M\tCPU\n");
	assert_int_equal(tt_test_stat(tr, "power_rail_unknown_index"), 1);
	assert_int_equal(tt_test_stat(tr, "power_rail_empty_packet"), 1);
	tb_close(tr, path, &b);
}

/* ---- cpu hotplug and hrtimers ------------------------------------------------------ */

/* cpuhp_enter / _multi_enter / _exit: "cpuhp(idx)" slices (category cpu)
 * on "CPU Hotplug N" of the cpu hotplugged, the cpu doing it and the step
 * as args; hrtimer_expire_entry / _exit: slices named by the timer's
 * function (its interned symbol, else its address) on "Hrtimer Cpu N".
 * An exit whose entry came before the trace ends nothing and counts
 * nothing (trace processor's SliceTracker::End). */
static void test_cpuhp_and_hrtimers(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Perfetto__Protos__FtraceEvent e;
	Perfetto__Protos__CpuhpEnterFtraceEvent ce = PERFETTO__PROTOS__CPUHP_ENTER_FTRACE_EVENT__INIT;
	Perfetto__Protos__CpuhpMultiEnterFtraceEvent cm = PERFETTO__PROTOS__CPUHP_MULTI_ENTER_FTRACE_EVENT__INIT;
	Perfetto__Protos__CpuhpExitFtraceEvent cx = PERFETTO__PROTOS__CPUHP_EXIT_FTRACE_EVENT__INIT;
	Perfetto__Protos__HrtimerExpireEntryFtraceEvent he = PERFETTO__PROTOS__HRTIMER_EXPIRE_ENTRY_FTRACE_EVENT__INIT;
	Perfetto__Protos__HrtimerExpireExitFtraceEvent hx = PERFETTO__PROTOS__HRTIMER_EXPIRE_EXIT_FTRACE_EVENT__INIT;

	(void)state;
#define EV(CASE, member, msg) (perfetto__protos__ftrace_event__init(&e), \
			       e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_##CASE, e.member = (msg), &e)
	ce.has_cpu = ce.has_idx = cm.has_cpu = cm.has_idx = cx.has_cpu = 1;
	ce.cpu = cx.cpu = 2;
	ce.idx = 5;
	ft_event_cpu(&b, 10, 0, 0, EV(CPUHP_ENTER, cpuhp_enter, &ce), NULL);
	cm.cpu = 2;
	cm.idx = 7;
	ft_event_cpu(&b, 12, 0, 0, EV(CPUHP_MULTI_ENTER, cpuhp_multi_enter, &cm), NULL);
	ft_event_cpu(&b, 14, 0, 0, EV(CPUHP_EXIT, cpuhp_exit, &cx), NULL);
	ft_event_cpu(&b, 20, 0, 0, EV(CPUHP_EXIT, cpuhp_exit, &cx), NULL);
	he.has_function = 1;
	he.function = 0x1234;
	ft_event_cpu(&b, 30, 1, 0, EV(HRTIMER_EXPIRE_ENTRY, hrtimer_expire_entry, &he), "tick_sched_timer");
	ft_event_cpu(&b, 40, 1, 0, EV(HRTIMER_EXPIRE_EXIT, hrtimer_expire_exit, &hx), NULL);
	he.function = 0x99;
	ft_event_cpu(&b, 50, 1, 0, EV(HRTIMER_EXPIRE_ENTRY, hrtimer_expire_entry, &he), NULL);
	ft_event_cpu(&b, 60, 1, 0, EV(HRTIMER_EXPIRE_EXIT, hrtimer_expire_exit, &hx), NULL);
	/* ends of nothing (their begins before the trace): nothing, nothing counted */
	ft_event_cpu(&b, 70, 1, 0, EV(HRTIMER_EXPIRE_EXIT, hrtimer_expire_exit, &hx), NULL);
	ft_event_cpu(&b, 71, 0, 0, EV(CPUHP_EXIT, cpuhp_exit, &cx), NULL);
#undef EV
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.category, s.name, s.depth, t.name, t.type,"
			       " coalesce(extract_arg(s.arg_set_id, 'action_cpu'), '-'),"
			       " coalesce(extract_arg(s.arg_set_id, 'cpuhp_idx'), '-'),"
			       " extract_arg(t.dimension_arg_set_id, 'cpu')"
			       " from slice s join track t on t.id = s.track_id order by s.ts",
			   "10\t10\tcpu\tcpuhp(5)\t0\tCPU Hotplug 2\tcpu_hotplug\t0\t5\t2\n"
			   "12\t2\tcpu\tcpuhp(7)\t1\tCPU Hotplug 2\tcpu_hotplug\t0\t7\t2\n"
			   "30\t10\thrtimer\ttick_sched_timer\t0\tHrtimer Cpu 1\tcpu_hrtimer\t-\t-\t1\n"
			   "50\t10\thrtimer\t0x99\t0\tHrtimer Cpu 1\tcpu_hrtimer\t-\t-\t1\n");
	assert_int_equal(tt_test_stat(tr, "slice_end_unmatched"), 0);
	tb_close(tr, path, &b);
}

/* ---- the function graph tracer ---------------------------------------------------- */

/* funcgraph_entry / _exit: a slice per call named by its function (its
 * interned symbol, else its address) on the thread's "Funcgraph" track,
 * nested as the calls; the idle task's on "swapper<cpu> -funcgraph". An
 * exit ends the innermost call of its name. */
static void test_funcgraph(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Perfetto__Protos__FtraceEvent e;
	Perfetto__Protos__FuncgraphEntryFtraceEvent fe = PERFETTO__PROTOS__FUNCGRAPH_ENTRY_FTRACE_EVENT__INIT;
	Perfetto__Protos__FuncgraphExitFtraceEvent fx = PERFETTO__PROTOS__FUNCGRAPH_EXIT_FTRACE_EVENT__INIT;

	(void)state;
#define EV(CASE, member, msg) (perfetto__protos__ftrace_event__init(&e), \
			       e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_##CASE, e.member = (msg), &e)
	fe.has_func = fx.has_func = 1;
	fe.func = fx.func = 0x1234;
	ft_event_cpu(&b, 100, 0, 42, EV(FUNCGRAPH_ENTRY, funcgraph_entry, &fe), "__handle_mm_fault");
	fe.func = fx.func = 0x99;
	ft_event_cpu(&b, 110, 0, 42, EV(FUNCGRAPH_ENTRY, funcgraph_entry, &fe), NULL);
	ft_event_cpu(&b, 130, 0, 42, EV(FUNCGRAPH_EXIT, funcgraph_exit, &fx), NULL);
	fx.func = 0x1234;
	ft_event_cpu(&b, 200, 0, 42, EV(FUNCGRAPH_EXIT, funcgraph_exit, &fx), NULL);
	/* the idle task on cpu 3 */
	fe.func = fx.func = 0x77;
	ft_event_cpu(&b, 300, 3, 0, EV(FUNCGRAPH_ENTRY, funcgraph_entry, &fe), NULL);
	ft_event_cpu(&b, 350, 3, 0, EV(FUNCGRAPH_EXIT, funcgraph_exit, &fx), NULL);
#undef EV
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.name, s.depth, t.name, t.type, coalesce(th.tid, '-'),"
			       " coalesce(extract_arg(t.dimension_arg_set_id, 'cpu'), '-')"
			       " from slice s join track t on t.id = s.track_id left join thread th using(utid)"
			       " order by s.ts",
			   "100\t100\t__handle_mm_fault\t0\tFuncgraph\tthread_funcgraph\t42\t-\n"
			   "110\t20\t0x99\t1\tFuncgraph\tthread_funcgraph\t42\t-\n"
			   "300\t50\t0x77\t0\tswapper3 -funcgraph\tcpu_funcgraph\t-\t3\n");
	/* the thread's track is one of its thread tracks */
	assert_int_equal(tt_test_int(tr, "select count(*) from thread_track where type = 'thread_funcgraph'"), 1);
	tb_close(tr, path, &b);
}

/* ---- wakelocks ------------------------------------------------------------------------ */

static void ft_wakeup(tbuf *b, uint64_t ts, int on, const char *name)
{
	Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__WakeupSourceActivateFtraceEvent a = PERFETTO__PROTOS__WAKEUP_SOURCE_ACTIVATE_FTRACE_EVENT__INIT;
	Perfetto__Protos__WakeupSourceDeactivateFtraceEvent d =
		PERFETTO__PROTOS__WAKEUP_SOURCE_DEACTIVATE_FTRACE_EVENT__INIT;

	a.name = d.name = (char *)name;
	if (on) {
		e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_WAKEUP_SOURCE_ACTIVATE;
		e.wakeup_source_activate = &a;
	} else {
		e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_WAKEUP_SOURCE_DEACTIVATE;
		e.wakeup_source_deactivate = &d;
	}
	ft_event_cpu(b, ts, 0, 1, &e, NULL);
}

/* wakeup_source_activate / _deactivate: one "Wakelock(name)" slice from
 * the first activation to the deactivation that leaves none active (a
 * deactivation of nothing active is nothing), on the name's track
 * (wakesource_wakelock, the whole name as wakelock_event); names cut at
 * 31 bytes. */
static void test_wakelocks(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	ft_wakeup(&b, 10, 1, "alarm");
	ft_wakeup(&b, 20, 1, "alarm");
	ft_wakeup(&b, 30, 0, "alarm");
	ft_wakeup(&b, 40, 0, "alarm");
	ft_wakeup(&b, 45, 0, "alarm");
	ft_wakeup(&b, 50, 1, "a_very_long_wakelock_name_exceeding");
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.name, t.name, t.type, extract_arg(t.dimension_arg_set_id, 'wakelock_event')"
			       " from slice s join track t on t.id = s.track_id order by s.ts",
			   "10\t30\tWakelock(alarm)\tWakelock(alarm)\twakesource_wakelock\talarm\n"
			   "50\t-1\tWakelock(a_very_long_wakelock_n\tWakelock(a_very_long_wakelock_n\twakesource_wakelock"
			   "\ta_very_long_wakelock_name_exceeding\n");
	tb_close(tr, path, &b);
}

/* ---- ion and DMA-BUF heaps ---------------------------------------------------------- */

static void ft_ion(tbuf *b, uint64_t ts, int grow, const char *heap, uint64_t len, int64_t total)
{
	Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__IonHeapGrowFtraceEvent g = PERFETTO__PROTOS__ION_HEAP_GROW_FTRACE_EVENT__INIT;
	Perfetto__Protos__IonHeapShrinkFtraceEvent k = PERFETTO__PROTOS__ION_HEAP_SHRINK_FTRACE_EVENT__INIT;

	g.heap_name = k.heap_name = (char *)heap;
	g.has_len = g.has_total_allocated = k.has_len = k.has_total_allocated = 1;
	g.len = k.len = len;
	g.total_allocated = k.total_allocated = total;
	if (grow) {
		e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_ION_HEAP_GROW;
		e.ion_heap_grow = &g;
	} else {
		e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_ION_HEAP_SHRINK;
		e.ion_heap_shrink = &k;
	}
	ft_event_cpu(b, ts, 0, 101, &e, NULL);
}

/* ion_stat (dma 0) or dma_heap_stat (dma 1) of buffer id. */
static void ft_heap_stat(tbuf *b, uint64_t ts, int dma, uint64_t id, int64_t len, uint64_t total)
{
	Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__IonStatFtraceEvent is = PERFETTO__PROTOS__ION_STAT_FTRACE_EVENT__INIT;
	Perfetto__Protos__DmaHeapStatFtraceEvent ds = PERFETTO__PROTOS__DMA_HEAP_STAT_FTRACE_EVENT__INIT;

	is.has_buffer_id = is.has_len = is.has_total_allocated = 1;
	ds.has_inode = ds.has_len = ds.has_total_allocated = 1;
	is.buffer_id = (uint32_t)id;
	ds.inode = id;
	is.len = ds.len = len;
	is.total_allocated = ds.total_allocated = total;
	if (dma) {
		e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DMA_HEAP_STAT;
		e.dma_heap_stat = &ds;
	} else {
		e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_ION_STAT;
		e.ion_stat = &is;
	}
	ft_event_cpu(b, ts, 0, 101, &e, NULL);
}

/* ion_heap_grow / _shrink: the heap's total after the change (total_allocated
 * is before it) on mem.ion.<heap> ("unknown" without a heap name), the
 * change on the thread's mem.ion_change.<heap>; ion_stat: mem.ion and
 * mem.ion_change, each buffer a "N kB" slice on the lanes of
 * mem.ion_buffer until its release; dma_heap_stat: the same on
 * mem.dma_heap, mem.dma_heap_change (the inode as arg), mem.dma_buffer. */
static void test_ion_and_dma_heaps(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	tree_packet(&b, 1, 100, 1, "app", 101, "main");
	ft_ion(&b, 10, 1, "system", 4096, 8192);
	ft_ion(&b, 20, 0, "system", 1024, 12288);
	ft_ion(&b, 30, 1, NULL, 10, 0);
	ft_heap_stat(&b, 40, 0, 5, 8192, 20000);
	ft_heap_stat(&b, 50, 0, 6, 2048, 22048);
	ft_heap_stat(&b, 60, 0, 5, -8192, 13856);
	ft_heap_stat(&b, 70, 1, 77, 4096, 4096);
	ft_heap_stat(&b, 80, 1, 77, -4096, 0);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select c.ts, c.value, t.name, t.type, coalesce(th.tid, -1),"
			       " coalesce(extract_arg(c.arg_set_id, 'inode'), '-')"
			       " from counter c join track t on t.id = c.track_id"
			       " left join thread_counter_track tt on tt.id = t.id left join thread th on th.utid = tt.utid"
			       " order by c.id",
			   "10\t12288.0\tmem.ion.system\tion\t-1\t-\n"
			   "10\t4096.0\tmem.ion_change.system\tion_change\t101\t-\n"
			   "20\t11264.0\tmem.ion.system\tion\t-1\t-\n"
			   "20\t-1024.0\tmem.ion_change.system\tion_change\t101\t-\n"
			   "30\t10.0\tmem.ion.unknown\tion\t-1\t-\n"
			   "30\t10.0\tmem.ion_change.unknown\tion_change\t101\t-\n"
			   "40\t20000.0\tmem.ion\tion\t-1\t-\n"
			   "40\t8192.0\tmem.ion_change\tion_change\t101\t-\n"
			   "50\t22048.0\tmem.ion\tion\t-1\t-\n"
			   "50\t2048.0\tmem.ion_change\tion_change\t101\t-\n"
			   "60\t13856.0\tmem.ion\tion\t-1\t-\n"
			   "60\t-8192.0\tmem.ion_change\tion_change\t101\t-\n"
			   "70\t4096.0\tmem.dma_heap\tandroid_dma_heap\t-1\t-\n"
			   "70\t4096.0\tmem.dma_heap_change\tandroid_dma_heap_change\t101\t77\n"
			   "80\t0.0\tmem.dma_heap\tandroid_dma_heap\t-1\t-\n"
			   "80\t-4096.0\tmem.dma_heap_change\tandroid_dma_heap_change\t101\t77\n");
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.name, t.name, t.type from slice s join track t on t.id = s.track_id"
			       " order by s.ts",
			   "40\t20\t8 kB\tmem.ion_buffer\tandroid_ion_allocations\n"
			   "50\t-1\t2 kB\tmem.ion_buffer\tandroid_ion_allocations\n"
			   "70\t10\t4 kB\tmem.dma_buffer\tandroid_dma_allocations\n");
	/* two buffers open at once: two lanes */
	assert_int_equal(tt_test_int(tr, "select count(distinct track_id) from slice where name like '% kB'"), 3);
	tt_test_assert_tsv(tr, "select t.name, a.key, coalesce(a.display_value, 'NULL') from track t join args a"
			       " on a.arg_set_id = t.dimension_arg_set_id where t.type = 'ion' order by t.id, a.id",
			   "mem.ion.system\theap_name\tsystem\n"
			   "mem.ion.unknown\theap_name\tunknown\n"
			   "mem.ion\theap_name\tNULL\n");
	tb_close(tr, path, &b);
}

/* Sizes a hostile trace gives: the change and the total wrap (64-bit,
 * two's complement) instead of overflowing. */
static void test_ion_hostile_sizes(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	ft_ion(&b, 10, 1, "big", (uint64_t)1 << 63, INT64_MAX);
	ft_ion(&b, 20, 0, "big", (uint64_t)1 << 63, INT64_MIN);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select c.ts, cast(c.value as int), t.name from counter c join track t on t.id = c.track_id"
			       " order by c.id",
			   "10\t-1\tmem.ion.big\n"
			   "10\t-9223372036854775808\tmem.ion_change.big\n"
			   "20\t0\tmem.ion.big\n"
			   "20\t-9223372036854775808\tmem.ion_change.big\n");
	tb_close(tr, path, &b);
}

/* ---- CMA allocations ----------------------------------------------------------------- */

static void ft_cma_start(tbuf *b, uint64_t ts, uint32_t tid)
{
	Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__CmaAllocStartFtraceEvent s = PERFETTO__PROTOS__CMA_ALLOC_START_FTRACE_EVENT__INIT;

	s.has_count = 1;
	s.count = 64;
	s.name = "area";
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CMA_ALLOC_START;
	e.cma_alloc_start = &s;
	ft_event_cpu(b, ts, 0, tid, &e, NULL);
}

static void ft_cma_migrate(tbuf *b, uint64_t ts, uint32_t tid, uint64_t migrated, uint64_t reclaimed, uint64_t mapped)
{
	Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__MmAllocContigMigrateRangeInfoFtraceEvent m =
		PERFETTO__PROTOS__MM_ALLOC_CONTIG_MIGRATE_RANGE_INFO_FTRACE_EVENT__INIT;

	m.has_nr_migrated = m.has_nr_reclaimed = m.has_nr_mapped = 1;
	m.nr_migrated = migrated;
	m.nr_reclaimed = reclaimed;
	m.nr_mapped = mapped;
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_MM_ALLOC_CONTIG_MIGRATE_RANGE_INFO;
	e.mm_alloc_contig_migrate_range_info = &m;
	ft_event_cpu(b, ts, 0, tid, &e, NULL);
}

static void ft_cma_finish(tbuf *b, uint64_t ts, uint32_t tid, uint64_t pfn)
{
	Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__CmaAllocFinishFtraceEvent f = PERFETTO__PROTOS__CMA_ALLOC_FINISH_FTRACE_EVENT__INIT;

	f.has_pfn = f.has_count = 1;
	f.pfn = pfn;
	f.count = 64;
	f.name = "area";
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CMA_ALLOC_FINISH;
	e.cma_alloc_finish = &f;
	ft_event_cpu(b, ts, 0, tid, &e, NULL);
}

static void ft_cma_info(tbuf *b, uint64_t ts, uint32_t tid)
{
	Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__CmaAllocInfoFtraceEvent i = PERFETTO__PROTOS__CMA_ALLOC_INFO_FTRACE_EVENT__INIT;

	i.has_pfn = i.has_count = i.has_nr_migrated = i.has_nr_reclaimed = i.has_nr_mapped = 1;
	i.has_err_iso = i.has_err_mig = i.has_err_test = 1;
	i.pfn = 4096;
	i.count = 64;
	i.nr_migrated = 5;
	i.nr_reclaimed = 6;
	i.nr_mapped = 7;
	i.err_iso = 1;
	i.err_mig = 2;
	i.err_test = 3;
	i.name = "old";
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CMA_ALLOC_INFO;
	e.cma_alloc_info = &i;
	ft_event_cpu(b, ts, 0, tid, &e, NULL);
}

#define CMA_SLICES "select s.ts, s.dur, s.name, t.utid, coalesce(s.category, 'NULL') from slice s" \
		   " join thread_track t on t.id = s.track_id order by s.ts"

/* Kernels 6.1 on: cma_alloc_start begins an "mm_cma_alloc" slice on the
 * thread, cma_alloc_finish ends it with the area's name, pfn, pages
 * asked for and the thread's last migration numbers
 * (mm_alloc_contig_migrate_range_info; 0 when none came since the
 * start). A finish with nothing open ends nothing; cma_alloc_info is not
 * read there. */
static void test_cma_since_6_1(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	tb_kernel_release(&b, "6.1.25-android14");
	ft_cma_start(&b, 100, 7);
	ft_cma_migrate(&b, 150, 7, 10, 1000, 99);
	ft_cma_finish(&b, 200, 7, 2048);
	ft_cma_start(&b, 300, 7);
	ft_cma_info(&b, 350, 7);
	ft_cma_finish(&b, 400, 7, 4096);
	ft_cma_finish(&b, 500, 8, 1);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, CMA_SLICES, "100\t100\tmm_cma_alloc\t1\tNULL\n300\t100\tmm_cma_alloc\t1\tNULL\n");
	tt_test_assert_tsv(tr, "select a.key, a.value_type, coalesce(a.int_value, a.string_value) from slice s"
			       " join args a using (arg_set_id) where s.ts = 100 order by a.id",
			   "cma_name\tstring\tarea\ncma_pfn\tuint\t2048\ncma_req_pages\tuint\t64\n"
			   "cma_nr_migrated\tuint\t10\ncma_nr_reclaimed\tuint\t1000\ncma_nr_mapped\tuint\t99\n");
	tt_test_assert_tsv(tr, "select a.key, coalesce(a.int_value, a.string_value) from slice s"
			       " join args a using (arg_set_id) where s.ts = 300 order by a.id",
			   "cma_name\tarea\ncma_pfn\t4096\ncma_req_pages\t64\n"
			   "cma_nr_migrated\t0\ncma_nr_reclaimed\t0\ncma_nr_mapped\t0\n");
	assert_int_equal(tt_test_stat(tr, "slice_end_unmatched"), 0);
	tb_close(tr, path, &b);
}

/* Kernels 5.10 to 6.0: cma_alloc_info ends the slice with its own
 * numbers and failures; the 6.1 events are not read. Before 5.10, or
 * with no SystemInfo, no slice at all. */
static void test_cma_before_6_1(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	char *releases[] = { "5.4.0", NULL };

	(void)state;
	tb_kernel_release(&b, "5.10.0");
	ft_cma_start(&b, 100, 7);
	ft_cma_migrate(&b, 120, 7, 10, 1000, 99);
	ft_cma_finish(&b, 150, 7, 2048);
	ft_cma_info(&b, 200, 7);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, CMA_SLICES, "100\t100\tmm_cma_alloc\t1\tNULL\n");
	tt_test_assert_tsv(tr, "select a.key, coalesce(a.int_value, a.string_value) from slice s"
			       " join args a using (arg_set_id) order by a.id",
			   "cma_name\told\ncma_pfn\t4096\ncma_req_pages\t64\ncma_nr_migrated\t5\n"
			   "cma_nr_reclaimed\t6\ncma_nr_mapped\t7\ncma_nr_isolate_fail\t1\n"
			   "cma_nr_migrate_fail\t2\ncma_nr_test_fail\t3\n");
	tb_close(tr, path, &b);
	for (int k = 0; k < 2; k++) {
		tb_kernel_release(&b, releases[k]);
		ft_cma_start(&b, 100, 7);
		ft_cma_info(&b, 200, 7);
		ft_cma_finish(&b, 300, 7, 1);
		tr = tb_open_file(&b, &path);
		assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 0);
		assert_int_equal(tt_test_int(tr, "select count(*) from ftrace_event"), 3);
		tb_close(tr, path, &b);
	}
}

/* ---- android_fs ------------------------------------------------------------------------ */

static void ft_fs_read(tbuf *b, uint64_t ts, uint32_t tid, int start, uint64_t ino, int64_t offset, int32_t bytes,
		       char *path)
{
	Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__AndroidFsDatareadStartFtraceEvent s = PERFETTO__PROTOS__ANDROID_FS_DATAREAD_START_FTRACE_EVENT__INIT;
	Perfetto__Protos__AndroidFsDatareadEndFtraceEvent d = PERFETTO__PROTOS__ANDROID_FS_DATAREAD_END_FTRACE_EVENT__INIT;

	if (start) {
		s.has_ino = s.has_offset = s.has_bytes = 1;
		s.ino = ino;
		s.offset = offset;
		s.bytes = bytes;
		s.pathbuf = path;
		e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_ANDROID_FS_DATAREAD_START;
		e.android_fs_dataread_start = &s;
	} else {
		d.has_ino = d.has_offset = d.has_bytes = 1;
		d.ino = ino;
		d.offset = offset;
		d.bytes = bytes;
		e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_ANDROID_FS_DATAREAD_END;
		e.android_fs_dataread_end = &d;
	}
	ft_event_cpu(b, ts, 0, tid, &e, NULL);
}

/* android_fs_dataread_start / _end: an "android_fs_data_read" slice from
 * the start to the end of the same inode and offset (whoever writes the
 * end), on the "android_fs" track's lane of the reader (reads of two
 * threads at once: two lanes); the start's path, offset and bytes and
 * the end's offset and bytes as args. An end that matches no start is
 * dropped. */
static void test_android_fs_reads(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	ft_fs_read(&b, 100, 10, 1, 836, 0, 4096, "/system/bin/cmd");
	ft_fs_read(&b, 120, 11, 1, 900, 8192, 512, "/data/x");
	ft_fs_read(&b, 150, 99, 0, 836, 0, 4000, NULL);
	ft_fs_read(&b, 160, 99, 0, 836, 0, 4000, NULL);
	ft_fs_read(&b, 200, 11, 0, 900, 8192, 512, NULL);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.name, t.name, t.type,"
			       " extract_arg(t.dimension_arg_set_id, 'track_compressor_idx')"
			       " from slice s join track t on t.id = s.track_id order by s.ts",
			   "100\t50\tandroid_fs_data_read\tandroid_fs\tandroid_fs\t0\n"
			   "120\t80\tandroid_fs_data_read\tandroid_fs\tandroid_fs\t1\n");
	tt_test_assert_tsv(tr, "select a.key, a.display_value from slice s join args a using (arg_set_id)"
			       " where s.ts = 100 order by a.id",
			   "file_path\t/system/bin/cmd\noffset_start\t0\nbytes_read_start\t4096\n"
			   "offset_end\t0\nbytes_read_end\t4000\n");
	assert_int_equal(tt_test_stat(tr, "slice_end_unmatched"), 0);
	tb_close(tr, path, &b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_binder_transactions),
		cmocka_unit_test(test_binder_nested_without_commands),
		cmocka_unit_test(test_gpu_frequency),
		cmocka_unit_test(test_power_rails),
		cmocka_unit_test(test_cpuhp_and_hrtimers),
		cmocka_unit_test(test_funcgraph),
		cmocka_unit_test(test_ion_and_dma_heaps),
		cmocka_unit_test(test_wakelocks),
		cmocka_unit_test(test_ion_hostile_sizes),
		cmocka_unit_test(test_cma_since_6_1),
		cmocka_unit_test(test_cma_before_6_1),
		cmocka_unit_test(test_android_fs_reads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
