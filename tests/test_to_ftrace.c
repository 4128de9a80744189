/*
 * test_to_ftrace.c - to_ftrace(id) (core/sql/functions_ftrace.c) and the
 * ftrace_event args it prints: each line checked whole, on traces written
 * here with protobuf-c (proto_tb.h): the prefix's padding, names, pids,
 * cpu and time; the events printed in their kernel format; kernel
 * function fields named by the trace's interned symbols; gfp_flags by the
 * kernel version; prev_state by the kernel version; the errors.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "termtrace.h"
#include "perfetto_trace.pb-c.h"
#include "testutil.h"
#include "proto_tb.h"

typedef Perfetto__Protos__FtraceEvent FEv;

static void ft_switch(tbuf *b, uint64_t ts, uint32_t cpu, int32_t prev_pid, const char *prev_comm, int64_t prev_state,
		      int32_t next_pid, const char *next_comm)
{
	FEv e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__SchedSwitchFtraceEvent s = PERFETTO__PROTOS__SCHED_SWITCH_FTRACE_EVENT__INIT;

	s.prev_comm = (char *)prev_comm;
	s.next_comm = (char *)next_comm;
	s.has_prev_pid = s.has_prev_prio = s.has_prev_state = s.has_next_pid = s.has_next_prio = 1;
	s.prev_pid = prev_pid;
	s.prev_prio = 120;
	s.prev_state = prev_state;
	s.next_pid = next_pid;
	s.next_prio = 100;
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_SWITCH;
	e.sched_switch = &s;
	ft_event_cpu(b, ts, cpu, (uint32_t)prev_pid, &e, NULL);
}

/* sym: interned as 0x1234 in the same packet (caller 0x1234 named) */
static void ft_blocked(tbuf *b, uint64_t ts, int32_t pid, uint64_t caller, const char *sym)
{
	FEv e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__SchedBlockedReasonFtraceEvent r = PERFETTO__PROTOS__SCHED_BLOCKED_REASON_FTRACE_EVENT__INIT;

	r.has_pid = r.has_caller = r.has_io_wait = 1;
	r.pid = pid;
	r.caller = caller;
	r.io_wait = 1;
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_BLOCKED_REASON;
	e.sched_blocked_reason = &r;
	ft_event_cpu(b, ts, 2, 0, &e, sym);
}

static void ft_print(tbuf *b, uint64_t ts, uint32_t tid, const char *text)
{
	FEv e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__PrintFtraceEvent p = PERFETTO__PROTOS__PRINT_FTRACE_EVENT__INIT;

	p.buf = (char *)text;
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_PRINT;
	e.print = &p;
	ft_event_cpu(b, ts, 1, tid, &e, NULL);
}

static void ft_irq_exit(tbuf *b, uint64_t ts, int32_t irq, int32_t ret)
{
	FEv e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__IrqHandlerExitFtraceEvent x = PERFETTO__PROTOS__IRQ_HANDLER_EXIT_FTRACE_EVENT__INIT;

	x.has_irq = x.has_ret = 1;
	x.irq = irq;
	x.ret = ret;
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_IRQ_HANDLER_EXIT;
	e.irq_handler_exit = &x;
	ft_event_cpu(b, ts, 0, 0, &e, NULL);
}

static void ft_softirq(tbuf *b, uint64_t ts, uint32_t vec)
{
	FEv e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__SoftirqEntryFtraceEvent x = PERFETTO__PROTOS__SOFTIRQ_ENTRY_FTRACE_EVENT__INIT;

	x.has_vec = 1;
	x.vec = vec;
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SOFTIRQ_ENTRY;
	e.softirq_entry = &x;
	ft_event_cpu(b, ts, 0, 0, &e, NULL);
}

static void ft_work_start(tbuf *b, uint64_t ts, uint64_t work, uint64_t fn, const char *sym)
{
	FEv e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__WorkqueueExecuteStartFtraceEvent w = PERFETTO__PROTOS__WORKQUEUE_EXECUTE_START_FTRACE_EVENT__INIT;

	w.has_work = w.has_function = 1;
	w.work = work;
	w.function = fn;
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_WORKQUEUE_EXECUTE_START;
	e.workqueue_execute_start = &w;
	ft_event_cpu(b, ts, 3, 0, &e, sym);
}

static void ft_cgroup(tbuf *b, uint64_t ts)
{
	FEv e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__CgroupAttachTaskFtraceEvent g = PERFETTO__PROTOS__CGROUP_ATTACH_TASK_FTRACE_EVENT__INIT;

	g.has_dst_root = g.has_dst_id = g.has_pid = g.has_dst_level = 1;
	g.dst_root = 1;
	g.dst_id = 7;
	g.pid = 4321;
	g.comm = "app";
	g.cname = "top-app";
	g.dst_level = 2;
	g.dst_path = "/top-app";
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CGROUP_ATTACH_TASK;
	e.cgroup_attach_task = &g;
	ft_event_cpu(b, ts, 0, 0, &e, NULL);
}

static void ft_shrink(tbuf *b, uint64_t ts, uint32_t gfp)
{
	FEv e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__MmShrinkSlabStartFtraceEvent m = PERFETTO__PROTOS__MM_SHRINK_SLAB_START_FTRACE_EVENT__INIT;

	m.has_gfp_flags = m.has_nid = 1;
	m.gfp_flags = gfp;
	m.nid = 0;
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_MM_SHRINK_SLAB_START;
	e.mm_shrink_slab_start = &m;
	ft_event_cpu(b, ts, 0, 0, &e, NULL);
}

/* A generic event: every arg " key=value" in field order. */
static void ft_cpu_freq(tbuf *b, uint64_t ts)
{
	FEv e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__CpuFrequencyFtraceEvent f = PERFETTO__PROTOS__CPU_FREQUENCY_FTRACE_EVENT__INIT;

	f.has_state = f.has_cpu_id = 1;
	f.state = 1800000;
	f.cpu_id = 3;
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPU_FREQUENCY;
	e.cpu_frequency = &f;
	ft_event_cpu(b, ts, 3, 0, &e, NULL);
}

#define LINES "select to_ftrace(id) from ftrace_event order by id"

/* Kernel 4.19 (its prev_state bits and gfp table). */
static void test_lines(void **state)
{
	tbuf b = { 0 };
	char *path;
	tt_trace *tr;

	(void)state;
	tb_kernel_release(&b, "4.19.113-perf");
	tree_packet(&b, 1, 4321, 1, "com.example.app", 4322, "Render-Thread");
	/* from 4.14: 0x100 is preempted (R+); 0x1 | 0x2 prints S|D */
	ft_switch(&b, 1000000000, 2, 4322, "Render-Thread", 0x100, 0, "swapper/2");
	ft_switch(&b, 1000001000, 2, 0, "swapper/2", 0x3, 4322, "Render-Thread");
	ft_blocked(&b, 1000002000, 4322, 0x1234, "io_schedule");
	ft_blocked(&b, 1000003000, 4322, 0xabc, NULL);
	ft_print(&b, 1000004000, 4322, "B|4321|draw\n");
	ft_irq_exit(&b, 1000005000, 33, 1);
	ft_irq_exit(&b, 1000006000, 34, 0);
	ft_softirq(&b, 1000007000, 3);
	ft_softirq(&b, 1000008000, 12);
	ft_work_start(&b, 1000009000, 0xffff8000deadbeefull, 0x1234, "vmstat_update");
	ft_cgroup(&b, 1000010000);
	ft_shrink(&b, 1000011000, 0x14000c0 | 0x8000);
	ft_shrink(&b, 1000012000, 0x14000c0 | 0x10000000);
	ft_shrink(&b, 1000013000, 0);
	ft_cpu_freq(&b, 12345678901234);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, LINES,
		"   Render_Thread-4322  ( 4321) [002] .... 1.000000: sched_switch: prev_comm=Render-Thread"
		" prev_pid=4322 prev_prio=120 prev_state=R+ ==> next_comm=swapper/2 next_pid=0 next_prio=100\n"
		"          <idle>-0     (-----) [002] .... 1.000001: sched_switch: prev_comm=swapper/2"
		" prev_pid=0 prev_prio=120 prev_state=S|D ==> next_comm=Render-Thread next_pid=4322 next_prio=100\n"
		"          <idle>-0     (-----) [002] .... 1.000002: sched_blocked_reason: pid=4322 iowait=1"
		" caller=io_schedule\n"
		"          <idle>-0     (-----) [002] .... 1.000003: sched_blocked_reason: pid=4322 iowait=1"
		" caller=abc\n"
		"   Render_Thread-4322  ( 4321) [001] .... 1.000004: tracing_mark_write: B|4321|draw\n"
		"          <idle>-0     (-----) [000] .... 1.000005: irq_handler_exit: irq=33 ret=handled\n"
		"          <idle>-0     (-----) [000] .... 1.000006: irq_handler_exit: irq=34 ret=unhandled\n"
		"          <idle>-0     (-----) [000] .... 1.000007: softirq_entry: vec=3 [action=NET_RX]\n"
		"          <idle>-0     (-----) [000] .... 1.000008: softirq_entry: vec=12 [action=12]\n"
		"          <idle>-0     (-----) [003] .... 1.000009: workqueue_execute_start: work struct"
		" ffff8000deadbeef: function vmstat_update\n"
		"          <idle>-0     (-----) [000] .... 1.000010: cgroup_attach_task: dst_root=1 dst_id=7"
		" cgroup=top-app dst_level=2 dst_path=/top-app pid=4321 comm=app\n"
		"          <idle>-0     (-----) [000] .... 1.000011: mm_shrink_slab_start: gfp_flags=GFP_KERNEL|__GFP_ZERO"
		" nid=0\n"
		"          <idle>-0     (-----) [000] .... 1.000012: mm_shrink_slab_start: gfp_flags=GFP_KERNEL|0x10000000"
		" nid=0\n"
		"          <idle>-0     (-----) [000] .... 1.000013: mm_shrink_slab_start: gfp_flags=GFP_NOWAIT nid=0\n"
		"          <idle>-0     (-----) [003] .... 12345.678901: cpu_frequency: state=1800000 cpu_id=3\n");
	/* the symbol is the arg itself, not only the line's */
	tt_test_assert_tsv(tr, "select a.value_type, a.display_value from ftrace_event e join args a using (arg_set_id)"
			       " where a.key in ('caller', 'function') order by e.id",
			   "string\tio_schedule\nuint\t2748\nstring\tvmstat_update\n");
	tb_close(tr, path, &b);
}

/* Without a kernel version the bits read as 4.4's (0x800 preempted, 0x80
 * wakekill) and gfp_flags by 4.4's table; an unnamed thread of a known
 * process, a thread named with a '-'. */
static void test_old_kernel_and_names(void **state)
{
	tbuf b = { 0 };
	char *path;
	tt_trace *tr;

	(void)state;
	tree_packet(&b, 1, 77, 1, "daemon", 0, NULL);
	ft_switch(&b, 5000, 0, 78, "", 0x800, 79, "a-b");
	ft_switch(&b, 6000, 0, 79, "a-b", 0x82, 0, "swapper/0");
	ft_shrink(&b, 7000, 0x400000 | 0x2000000 | 0x40 | 0x80);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, LINES,
		"       <unknown>-78    (-----) [000] .... 0.000005: sched_switch: prev_comm= prev_pid=78 prev_prio=120"
		" prev_state=R+ ==> next_comm=a-b next_pid=79 next_prio=100\n"
		"             a_b-79    (-----) [000] .... 0.000006: sched_switch: prev_comm=a-b prev_pid=79 prev_prio=120"
		" prev_state=D|K ==> next_comm=swapper/0 next_pid=0 next_prio=100\n"
		"          <idle>-0     (-----) [000] .... 0.000007: mm_shrink_slab_start: gfp_flags=GFP_KERNEL nid=0\n");
	tb_close(tr, path, &b);
}

/* The kernel's gfp table of the trace's version: 3.10 has GFP_MEMALLOC
 * and GFP_KMEMCG, before it they are not named (and trace processor's
 * table before 3.10 names a mask of 0, GFP_NOTRACK, in every value). */
static void test_gfp_old_kernels(void **state)
{
	static const struct { char *release; const char *want; } k[] = {
		{ "3.18.71", "gfp_flags=GFP_KERNEL|GFP_MEMALLOC|GFP_KMEMCG nid=0" },
		{ "3.4.0", "gfp_flags=GFP_KERNEL|GFP_NOTRACK|0x102000 nid=0" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		tbuf b = { 0 };
		char *path, want[160];
		tt_trace *tr;

		tb_kernel_release(&b, k[i].release);
		ft_shrink(&b, 1000, 0x10 | 0x40 | 0x80 | 0x2000 | 0x100000);
		tr = tb_open_file(&b, &path);
		snprintf(want, sizeof(want), "          <idle>-0     (-----) [000] .... 0.000001: mm_shrink_slab_start: %s",
			 k[i].want);
		assert_string_equal(tt_test_str(tr, "select to_ftrace(0)"), want);
		tb_close(tr, path, &b);
	}
}

static void expect_error(tt_trace *tr, const char *sql, const char *msg)
{
	tt_result r;
	tt_err err = { 0 };

	assert_int_equal(tt_query_collect(tr, sql, 0, &r, &err), TT_EINVAL);
	if (!strstr(err.msg, msg))
		fail_msg("%s: error \"%s\", wanted \"%s\"", sql, err.msg, msg);
}

static void test_errors(void **state)
{
	tbuf b = { 0 };
	char *path;
	tt_trace *tr;

	(void)state;
	ft_irq_exit(&b, 1000, 1, 1);
	tr = tb_open_file(&b, &path);
	expect_error(tr, "select to_ftrace('x')", "Usage: to_ftrace(id)");
	expect_error(tr, "select to_ftrace(1)", "to_ftrace: Cannot serialize row id 1");
	expect_error(tr, "select to_ftrace(-1)", "to_ftrace: Cannot serialize row id -1");
	assert_string_equal(tt_test_str(tr, "select to_ftrace(0)"),
			    "          <idle>-0     (-----) [000] .... 0.000001: irq_handler_exit: irq=1 ret=handled");
	tb_close(tr, path, &b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_old_kernel_and_names),
		cmocka_unit_test(test_gfp_old_kernels),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
