/*
 * test_systrace.c - ftrace text (systrace / atrace output) as trace
 * processor reads it: the columns of a line (every variant of the task,
 * pid, tgid, flags and timestamp columns, and lines that are not
 * ftrace), and the systemTraceEvents string of a Chrome JSON trace
 * imported among its JSON events (markers, counters, workqueues, thread
 * and process names, stats, the refusal of a bad line). The traces are
 * written by the tests.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_tracker.h"
#include "systrace_line.h"
#include "testutil.h"

/* ---- the columns of a line ----------------------------------------------------- */

/* The columns of line, or "bad", as "task|pid|tgid|cpu|ts|event|args". */
static char *cols(const char *line)
{
	static char out[512];
	tt_systrace_line l;

	if (tt_systrace_line_read(line, strlen(line), &l))
		return strcpy(out, "bad");
	snprintf(out, sizeof(out), "%.*s|%u|%.*s|%u|%lld|%.*s|%.*s", (int)l.task_len, l.task, l.pid, (int)l.tgid_len,
		 l.tgid, l.cpu, (long long)l.ts, (int)l.event_len, l.event, (int)l.args_len, l.args);
	return out;
}

static void line_with_tgid(void **state)
{
	(void)state;
	assert_string_equal(cols("  kworker/u16:1-77    (   77) [004] ....   316.196720: 0: B|77|__scm_call_armv8_64|0"),
			    "kworker/u16:1|77|77|4|316196720000|0|B|77|__scm_call_armv8_64|0");
	assert_string_equal(cols("RenderThread-1300 (1200) [001] d..2 5.5: tracing_mark_write: E|1200"),
			    "RenderThread|1300|1200|1|5500000000|tracing_mark_write|E|1200");
	/* no tgid known */
	assert_string_equal(cols("           <...>-13    (-----) [001] d..2   100.000800: cpu_frequency: state=1 cpu_id=1"),
			    "<...>|13|-----|1|100000800000|cpu_frequency|state=1 cpu_id=1");
}

static void line_without_tgid_or_flags(void **state)
{
	(void)state;
	assert_string_equal(cols("          <idle>-0     [000] ...2     0.002188: task_newtask: pid=1 comm=swapper/0"),
			    "<idle>|0||0|2188000|task_newtask|pid=1 comm=swapper/0");
	/* no flags column either */
	assert_string_equal(cols("<idle>-0     [000]  0.002188: task_newtask: pid=1"),
			    "<idle>|0||0|2188000|task_newtask|pid=1");
	/* one hex digit of flags, and two (the second one given back when
	 * the timestamp needs it) */
	assert_string_equal(cols("a-1 [2] d.h1 3.25: e: x"), "a|1||2|3250000000|e|x");
	assert_string_equal(cols("a-1 [2] d.h1f 3.25: e: x"), "a|1||2|3250000000|e|x");
	assert_string_equal(cols("a-1 [2] ...12.5: e: x"), "a|1||2|2500000000|e|x");
}

/* Task names hold anything: the columns start at the first '-' after
 * which the rest fits. */
static void task_names_with_dashes_and_spaces(void **state)
{
	(void)state;
	assert_string_equal(cols("Binder:1234_2-1300 ( 1234) [003] .... 1.0: binder_lock: x"),
			    "Binder:1234_2|1300|1234|3|1000000000|binder_lock|x");
	assert_string_equal(cols("my-app-v2-42 [000] .... 1.5: print: I|42|hi"),
			    "my-app-v2|42||0|1500000000|print|I|42|hi");
	assert_string_equal(cols("Chrome_IO Thread-7 (6) [0] .... 2.0: sched_waking: comm=a pid=9"),
			    "Chrome_IO Thread|7|6|0|2000000000|sched_waking|comm=a pid=9");
	assert_string_equal(cols("-12 [0] 1.0: e: a"), "|12||0|1000000000|e|a");
}

/* The timestamp as trace processor makes it: the double times 1e9, cut
 * (not rounded); the event name up to the last ':' of its word. */
static void timestamps_and_event_names(void **state)
{
	(void)state;
	assert_string_equal(cols("t-1 [0] 1.000001: e: a"), "t|1||0|1000000999|e|a");
	assert_string_equal(cols("t-1 [0] 2.0: a:b: rest"), "t|1||0|2000000000|a:b|rest");
	assert_string_equal(cols("t-1 [0] 2.0: a:b:"), "t|1||0|2000000000|a:b|");
	/* the args trimmed, inner blanks kept */
	assert_string_equal(cols("t-1 [0] 2.0: ev:   x  y  "), "t|1||0|2000000000|ev|x  y");
	/* a pid beyond 32 bits is cut as strtoul's result is (beyond 64:
	 * saturated, then cut); leading zeros are no digits */
	assert_string_equal(cols("t-4294967297 [0] 2.0: ev: x"), "t|1||0|2000000000|ev|x");
	assert_string_equal(cols("t-99999999999999999999999 [0] 2.0: ev: x"), "t|4294967295||0|2000000000|ev|x");
	assert_string_equal(cols("t-0000000000000000000000000000000000000000001 [000000000000000000000000000000000003]"
				 " 2.0: ev: x"),
			    "t|1||3|2000000000|ev|x");
	/* a timestamp of many digits is read whole */
	assert_string_equal(cols("t-1 [0] 1.0000000000000000000000000000000000000000000000000000000000000000000009: ev: x"),
			    "t|1||0|1000000000|ev|x");
}

static void lines_that_are_not_ftrace(void **state)
{
	(void)state;
	assert_string_equal(cols(""), "bad");
	assert_string_equal(cols("hello world"), "bad");
	assert_string_equal(cols("task-12 [000] 1.0 e: x"), "bad");     /* no ':' after the ts */
	assert_string_equal(cols("task-12 [000] 1: e: x"), "bad");       /* no fraction */
	assert_string_equal(cols("task-12 [x] 1.0: e: x"), "bad");       /* cpu not a number */
	assert_string_equal(cols("task-12 [000] 1.0: e x"), "bad");      /* no ':' after the event */
	assert_string_equal(cols("task-12 [000] 1.0:e: x"), "bad");      /* no blank before it */
	assert_string_equal(cols("task-12 (  12 ) [0] 1.0: e: x"), "bad"); /* blank before ')' */
	assert_string_equal(cols("task-ab [000] 1.0: e: x"), "bad");
	/* the line is matched as a C string: nothing after a NUL */
	assert_string_equal(cols("t-1 [0]\0 1.0: e: x"), "bad");
}

/* ---- systemTraceEvents in a JSON trace --------------------------------------- */

/* A JSON trace of events (may be "") and systrace lines (each ended by
 * "\n"), the lines in the systemTraceEvents string. */
static tt_trace *open_sys(const char *events, const char *lines, char **path)
{
	static char json[16384];
	size_t o = 0;

	o += (size_t)snprintf(json + o, sizeof(json) - o, "{\"traceEvents\":[%s],\"systemTraceEvents\":\"", events);
	for (const char *p = lines; *p && o + 8 < sizeof(json); p++) {
		if (*p == '\n')
			o += (size_t)snprintf(json + o, sizeof(json) - o, "\\n");
		else if (*p == '"' || *p == '\\')
			o += (size_t)snprintf(json + o, sizeof(json) - o, "\\%c", *p);
		else
			json[o++] = *p;
	}
	snprintf(json + o, sizeof(json) - o, "\"}");
	return tt_test_open_json(json, path);
}

static const char *const markers =
	"# tracer: nop\n"
	"#\n"
	"    RenderThread-11    (   10) [000] ...1   100.000100: tracing_mark_write: B|10|DrawFrame\n"
	"    RenderThread-11    (   10) [000] ...1   100.000200: tracing_mark_write: B|10|flush commands\n"
	"    RenderThread-11    (   10) [000] ...1   100.000300: tracing_mark_write: E|10\n"
	"    RenderThread-11    (   10) [000] ...1   100.000400: tracing_mark_write: E|10\n"
	"    RenderThread-11    (   10) [000] ...1   100.000500: tracing_mark_write: C|10|queued|3\n"
	"    RenderThread-11    (   10) [000] ...1   100.000600: tracing_mark_write: S|10|launch|7\n"
	"     Binder:10_2-12    (   10) [001] ...1   100.000700: tracing_mark_write: F|10|launch|7\n"
	"     Binder:10_2-12    (   10) [001] ...1   100.000800: tracing_mark_write: I|10|tick\n"
	"  kworker/u16:1-77    [002] ...1   100.000900: print: B|77|__scm_call\n"
	"  kworker/u16:1-77    [002] ...1   100.000950: print: E|77\n"
	"    RenderThread-11    (   10) [000] ...1   100.001000: tracing_mark_write: garbage\n"
	"    RenderThread-11    (   10) [000] ...1   100.001100: tracing_mark_write: trace_event_clock_sync: parent_ts=1\n"
	"    last-99 ( 99) [000] ...1   100.001300: tracing_mark_write: B|99|no line end";

/* atrace markers: slices on the writing thread, a process counter with
 * the writer as its value's utid arg, an async slice begun and ended by
 * two threads of the process; a bad marker counted, a clock sync
 * ignored; the text after the last "\n" is no line (as trace processor
 * reads the string). */
static void json_atrace_markers(void **state)
{
	char *p;
	tt_trace *tr = open_sys("{\"name\":\"x\",\"ph\":\"X\",\"ts\":100000050,\"dur\":10,\"pid\":10,\"tid\":11}",
				markers, &p);

	(void)state;
	tt_test_assert_tsv(tr,
			   "select s.ts, s.dur, s.name, s.depth, t.tid, t.name, p.pid from slice s"
			   " join thread_track tt on s.track_id = tt.id join thread t using(utid)"
			   " left join process p using(upid) order by s.ts",
			   "100000050000\t10000\tx\t0\t11\tRenderThread\t10\n"
			   "100000100000\t300000\tDrawFrame\t0\t11\tRenderThread\t10\n"
			   "100000200000\t100000\tflush commands\t1\t11\tRenderThread\t10\n"
			   "100000800000\t0\ttick\t0\t12\tBinder:10_2\t10\n"
			   "100000900000\t50000\t__scm_call\t0\t77\tkworker/u16:1\t77\n");
	tt_test_assert_tsv(tr,
			   "select t.name, t.type, c.ts, c.value, a.key, a.int_value = th.utid from counter c"
			   " join track t on c.track_id = t.id join args a on a.arg_set_id = c.arg_set_id"
			   " join thread th on th.tid = 11",
			   "queued\tatrace_counter\t100000500000\t3.0\tutid\t1\n");
	tt_test_assert_tsv(tr,
			   "select s.ts, s.dur, s.name, t.type, p.pid, a.key, a.int_value from slice s"
			   " join process_track t on s.track_id = t.id join process p using(upid)"
			   " join args a on a.arg_set_id = s.arg_set_id",
			   "100000600000\t100000\tlaunch\tatrace_async_slice\t10\tcookie\t7\n"
			   "100000600000\t100000\tlaunch\tatrace_async_slice\t10\tlegacy_unnestable_begin_count\t1\n"
			   "100000600000\t100000\tlaunch\tatrace_async_slice\t10\tlegacy_unnestable_last_begin_ts"
			   "\t100000600000\n");
	assert_int_equal(tt_test_stat(tr, "systrace_parse_failure"), 1);
	assert_int_equal(tt_test_int(tr, "select count(*) from thread where tid = 99"), 0);
	tt_test_close_text(tr, p);
}

/* Every line names its thread by the task column (not "<...>") and binds
 * it to the tgid column's process; the thread of a JSON event with the
 * same pid and tid is that thread. */
static void json_task_names(void **state)
{
	char *p;
	tt_trace *tr = open_sys("{\"name\":\"x\",\"ph\":\"X\",\"ts\":0,\"dur\":1,\"pid\":20,\"tid\":21}",
				"  first name-21 ( 20) [000] .... 1.0: tracing_mark_write: I|20|a\n"
				"       <...>-21 ( 20) [000] .... 2.0: tracing_mark_write: I|20|b\n"
				"      second-22 (-----) [001] .... 3.0: cpu_idle: state=1 cpu_id=1\n"
				"       <...>-23 [001] .... 4.0: cpu_idle: state=2 cpu_id=1\n"
				"      worker-24 ( 30) [001] .... 5.0: cpu_idle: state=3 cpu_id=1\n",
				&p);

	(void)state;
	tt_test_assert_tsv(tr, "select tid, thread.name, pid from thread left join process using(upid)"
			       " where tid > 0 order by tid",
			   "20\tNULL\t20\n"
			   "21\tfirst name\t20\n"
			   "22\tsecond\tNULL\n"
			   "23\tNULL\tNULL\n"
			   "24\tworker\t30\n"
			   "30\tNULL\t30\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from thread where tid = 21"), 1);
	tt_test_close_text(tr, p);
}

/* A thread's name ranks by its source (trace processor's
 * ThreadNamePriority): a JSON thread_name after a systrace task name
 * leaves the ftrace name, before it is replaced by it; a thread only
 * JSON names keeps the JSON name, and a later one replaces it. */
static void json_thread_name_ranks(void **state)
{
	char *p;
	tt_trace *tr = open_sys("{\"ph\":\"M\",\"name\":\"thread_name\",\"ts\":2000000,\"pid\":20,\"tid\":21,"
				"\"args\":{\"name\":\"json late\"}},"
				"{\"ph\":\"M\",\"name\":\"thread_name\",\"ts\":0,\"pid\":20,\"tid\":22,"
				"\"args\":{\"name\":\"json early\"}},"
				"{\"ph\":\"M\",\"name\":\"thread_name\",\"ts\":0,\"pid\":20,\"tid\":23,"
				"\"args\":{\"name\":\"json first\"}},"
				"{\"ph\":\"M\",\"name\":\"thread_name\",\"ts\":5,\"pid\":20,\"tid\":23,"
				"\"args\":{\"name\":\"json second\"}}",
				"  ftrace-21 ( 20) [000] .... 1.0: tracing_mark_write: I|20|a\n"
				"  ftrace-22 ( 20) [000] .... 1.5: tracing_mark_write: I|20|b\n",
				&p);

	(void)state;
	tt_test_assert_tsv(tr, "select tid, name from thread where tid in (21, 22, 23) order by tid",
			   "21\tftrace\n"
			   "22\tftrace\n"
			   "23\tjson second\n");
	tt_test_close_text(tr, p);
}

/* cpu_frequency, cpu_idle, cpu_frequency_limits, clocks, thermal zones
 * and cooling devices: counters on trace processor's tracks (type, name,
 * dimension args); workqueue_execute_start / _end: a "workqueue" slice
 * on the thread named by its function. A field that does not convert
 * makes no value. */
static void json_counters_and_workqueues(void **state)
{
	char *p;
	tt_trace *tr = open_sys("",
				"k-5 [001] d..2 1.0: cpu_frequency: state=1500000 cpu_id=1\n"
				"k-5 [001] d..2 2.0: cpu_frequency: state=300000 cpu_id=1\n"
				"k-5 [001] d..2 2.0: cpu_frequency: state=x cpu_id=1\n"
				"k-5 [002] d..2 3.0: cpu_idle: state=4294967295 cpu_id=2\n"
				"k-5 [002] d..2 4.0: cpu_frequency_limits: min_freq=100 max_freq=900 cpu_id=2\n"
				"k-5 [002] d..2 5.0: clock_set_rate: name=gpu_clk state=800 cpu_id=2\n"
				"k-5 [002] d..2 6.0: clock_enable: name=gpu_clk state=1 cpu_id=2\n"
				"k-5 [002] d..2 7.0: thermal_temperature: thermal_zone=cpu0 id=0 temp_prev=1 temp=45000\n"
				"k-5 [002] d..2 8.0: cdev_update: type=fan target=2\n"
				"k-5 [002] .... 9.0: workqueue_execute_start: work struct 0xffff: function do_work\n"
				"k-5 [002] .... 9.5: workqueue_execute_end: work struct 0xffff\n",
				&p);

	(void)state;
	tt_test_assert_tsv(tr,
			   "select t.name, t.type, c.ts, c.value from counter c join track t on c.track_id = t.id"
			   " order by c.ts, t.name",
			   "cpufreq\tcpu_frequency\t1000000000\t1500000.0\n"
			   "cpufreq\tcpu_frequency\t2000000000\t300000.0\n"
			   "cpuidle\tcpu_idle\t3000000000\t4294967295.0\n"
			   "Cpu 2 Max Freq Limit\tcpu_max_frequency_limit\t4000000000\t900.0\n"
			   "Cpu 2 Min Freq Limit\tcpu_min_frequency_limit\t4000000000\t100.0\n"
			   "gpu_clk Frequency\tclock_frequency\t5000000000\t800.0\n"
			   "gpu_clk State\tclock_state\t6000000000\t1.0\n"
			   "cpu0 Temperature\tthermal_temperature\t7000000000\t45000.0\n"
			   "fan Cooling Device\tcooling_device_counter\t8000000000\t2.0\n");
	tt_test_assert_tsv(tr,
			   "select t.name, a.key, a.display_value from track t join args a"
			   " on a.arg_set_id = t.dimension_arg_set_id where t.name in ('cpufreq', 'gpu_clk State',"
			   " 'cpu0 Temperature') order by t.name",
			   "cpu0 Temperature\tthermal_zone\tcpu0\n"
			   "cpufreq\tcpu\t1\n"
			   "gpu_clk State\tlinux_device\tgpu_clk\n");
	tt_test_assert_tsv(tr, "select ts, dur, category, name from slice", "9000000000\t500000000\tworkqueue\tdo_work\n");
	tt_test_close_text(tr, p);
}

/* sched_switch pairs make sched slices (end state from the next switch's
 * prev_state letters) and thread states; a waking makes the blocked
 * thread runnable with its waker (a spurious one when it runs already);
 * sched_blocked_reason names the blocked state's io_wait and caller; each
 * switch has its ftrace_event row. */
static void json_sched(void **state)
{
	char *p;
	tt_trace *tr = open_sys("",
				"  <idle>-0 (-----) [000] d..3 100.000000: sched_switch: prev_comm=swapper/0 prev_pid=0"
				" prev_prio=120 prev_state=R ==> next_comm=RenderThread next_pid=11 next_prio=110\n"
				"  RenderThread-11 ( 10) [000] d..3 100.000200: sched_switch: prev_comm=RenderThread"
				" prev_pid=11 prev_prio=110 prev_state=D ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
				"  <...>-15 (-----) [001] d..2 100.000250: sched_blocked_reason: pid=11 iowait=1"
				" caller=do_io+0x10\n"
				"  worker-15 ( 14) [001] d..2 100.000300: sched_waking: comm=RenderThread pid=11 prio=110"
				" target_cpu=000\n"
				"  <idle>-0 (-----) [000] d..3 100.000400: sched_switch: prev_comm=swapper/0 prev_pid=0"
				" prev_prio=120 prev_state=R+ ==> next_comm=RenderThread next_pid=11 next_prio=110\n"
				"  <idle>-0 (-----) [000] d..3 100.000500: sched_waking: comm=RenderThread pid=11 prio=110"
				" target_cpu=000\n"
				"  <idle>-0 (-----) [001] d..3 100.000600: sched_switch: prev_comm=a prev_pid=0"
				" prev_prio=x prev_state=S ==> next_comm=b next_pid=12 next_prio=120\n"
				"  <idle>-0 (-----) [5555555555] d..3 100.000700: sched_switch: prev_comm=a prev_pid=0"
				" prev_prio=1 prev_state=S ==> next_comm=b next_pid=12 next_prio=120\n",
				&p);

	(void)state;
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.cpu, t.tid, s.end_state, s.priority from sched s"
			       " join thread t using(utid) order by s.ts",
			   "100000000000\t200000\t0\t11\tD\t110\n"
			   "100000200000\t200000\t0\t0\tR+\t120\n"
			   "100000400000\t-1\t0\t11\tNULL\t110\n");
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.cpu, t.tid, s.state, s.io_wait, s.blocked_function, w.tid,"
			       " s.waker_id from thread_state s join thread t using(utid)"
			       " left join thread w on w.utid = s.waker_utid order by s.id",
			   "100000000000\t200000\tNULL\t0\tR\tNULL\tNULL\tNULL\tNULL\n"
			   "100000000000\t200000\t0\t11\tRunning\tNULL\tNULL\tNULL\tNULL\n"
			   "100000200000\t100000\tNULL\t11\tD\t1\tdo_io+0x10\tNULL\tNULL\n"
			   "100000200000\t200000\t0\t0\tRunning\tNULL\tNULL\tNULL\tNULL\n"
			   "100000300000\t100000\tNULL\t11\tR\tNULL\tNULL\t15\tNULL\n"
			   "100000400000\t-1\tNULL\t0\tR+\tNULL\tNULL\tNULL\tNULL\n"
			   "100000400000\t-1\t0\t11\tRunning\tNULL\tNULL\tNULL\tNULL\n");
	tt_test_assert_tsv(tr, "select w.ts, t.tid, k.tid from spurious_sched_wakeup w join thread t using(utid)"
			       " join thread k on k.utid = w.waker_utid",
			   "100000500000\t11\t0\n");
	tt_test_assert_tsv(tr, "select e.ts, e.cpu, t.tid, a.key, a.display_value from ftrace_event e"
			       " join thread t using(utid) join args a using(arg_set_id)"
			       " where e.ts = 100000200000 order by a.id",
			   "100000200000\t0\t11\tprev_comm\tRenderThread\n"
			   "100000200000\t0\t11\tprev_pid\t11\n"
			   "100000200000\t0\t11\tprev_prio\t110\n"
			   "100000200000\t0\t11\tprev_state\t2\n"
			   "100000200000\t0\t11\tnext_comm\tswapper/0\n"
			   "100000200000\t0\t11\tnext_pid\t0\n"
			   "100000200000\t0\t11\tnext_prio\t120\n");
	/* names: the comms of the switches and the waking, the tasks */
	tt_test_assert_tsv(tr, "select tid, name from thread where utid > 0 order by utid",
			   "0\t<idle>\n11\tRenderThread\n10\tNULL\n15\tworker\n14\tNULL\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from ftrace_event"), 3);
	assert_int_equal(tt_test_stat(tr, "systrace_cpu_bad"), 1); /* (no 4G cpus kept) */
	tt_test_close_text(tr, p);
}

/* The prev_state letters as trace processor converts them (a 4.4
 * kernel's bits; invalid text: 0xffff). */
static void prev_state_text(void **state)
{
	(void)state;
	assert_int_equal(tt_sched_state_from_text("R", 1), 0);
	assert_int_equal(tt_sched_state_from_text("R+", 2), 0x800);
	assert_int_equal(tt_sched_state_from_text("S", 1), 1);
	assert_int_equal(tt_sched_state_from_text("D|K", 3), 0x82);
	assert_int_equal(tt_sched_state_from_text("I", 1), 0x402);
	assert_int_equal(tt_sched_state_from_text("xWPN", 4), 0x740);
	assert_int_equal(tt_sched_state_from_text("", 0), 0xffff);
	assert_int_equal(tt_sched_state_from_text("S+", 2), 0xffff);
	assert_int_equal(tt_sched_state_from_text("Q", 1), 0xffff);
}

/* rss_stat: process_memory counters of the thread's process, named by
 * the member, the thread a utid arg of each value; a thread that never
 * gets a process keeps its own fallback track; a negative size is
 * counted, a size that is not a number skipped. */
static void json_rss_stat(void **state)
{
	char *p;
	tt_trace *tr = open_sys("",
				" app-21 ( 20) [000] .... 1.0: rss_stat: size=8437760 member=1 curr=1 mm_id=28\n"
				" app-21 ( 20) [000] .... 2.0: rss_stat: size=9437760 member=1 curr=1 mm_id=28\n"
				" app-21 ( 20) [000] .... 3.0: rss_stat: size=100 member=0 curr=1 mm_id=28\n"
				" lone-30 [001] .... 4.0: rss_stat: size=5 member=2 curr=1 mm_id=7\n"
				" lone-30 [001] .... 5.0: rss_stat: size=-5 member=2 curr=1 mm_id=7\n"
				" lone-30 [001] .... 6.0: rss_stat: size=5B member=9 curr=1 mm_id=7\n",
				&p);

	(void)state;
	tt_test_assert_tsv(tr, "select c.ts, c.value, t.name, t.type, p.pid, th.tid, a.int_value = th2.utid"
			       " from counter c join track t on c.track_id = t.id left join process p using(upid)"
			       " left join thread th on th.utid = t.utid join args a on a.arg_set_id = c.arg_set_id"
			       " join thread th2 on th2.tid = (case when p.pid = 20 then 21 else 30 end) order by c.ts",
			   "1000000000\t8437760.0\tmem.rss.anon\tprocess_memory\t20\tNULL\t1\n"
			   "2000000000\t9437760.0\tmem.rss.anon\tprocess_memory\t20\tNULL\t1\n"
			   "3000000000\t100.0\tmem.rss.file\tprocess_memory\t20\tNULL\t1\n"
			   "4000000000\t5.0\tmem.swap\tprocess_memory_thread_fallback\tNULL\t30\t1\n");
	tt_test_assert_tsv(tr, "select t.name, a.key, a.display_value from track t join args a"
			       " on a.arg_set_id = t.dimension_arg_set_id where t.name = 'mem.rss.anon' order by a.id",
			   "mem.rss.anon\tupid\t1\nmem.rss.anon\tprocess_memory_key\trss.anon\n");
	assert_int_equal(tt_test_stat(tr, "rss_stat_negative_size"), 1);
	tt_test_close_text(tr, p);
}

/* binder lines as trace processor's systrace parser reads them into its
 * BinderTracker: a synchronous transaction and its reply (slices on both
 * threads, a flow, the args with the code as the line writes it), a
 * oneway one (two instants), the driver's commands in C's base; a line
 * whose numbers do not convert is skipped. */
static void json_binder(void **state)
{
	char *p;
	tt_trace *tr = open_sys("",
				" app-101 ( 100) [000] .... 1.0: binder_command: cmd=0x40406300 BC_TRANSACTION\n"
				" app-101 ( 100) [000] .... 1.1: binder_transaction: transaction=7 dest_node=5 dest_proc=200"
				" dest_thread=201 reply=0 flags=0x10 code=0x3\n"
				" app-101 ( 100) [000] .... 1.15: binder_transaction_alloc_buf: transaction=7 data_size=64"
				" offsets_size=8\n"
				" binder:200_1-201 ( 200) [001] .... 1.2: binder_transaction_received: transaction=7\n"
				" binder:200_1-201 ( 200) [001] .... 1.6: binder_transaction: transaction=8 dest_node=0"
				" dest_proc=100 dest_thread=101 reply=1 flags=0x0 code=0x0\n"
				" app-101 ( 100) [000] .... 1.8: binder_transaction_received: transaction=8\n"
				" app-101 ( 100) [000] .... 2.0: binder_transaction: transaction=9 dest_node=5 dest_proc=200"
				" dest_thread=0 reply=0 flags=0x11 code=0x1f\n"
				" binder:200_1-201 ( 200) [001] .... 2.1: binder_transaction_received: transaction=9\n"
				" app-101 ( 100) [000] .... 3.0: binder_transaction: transaction=x dest_node=5 dest_proc=200"
				" dest_thread=0 reply=0 flags=0x10 code=0x3\n",
				&p);

	(void)state;
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.category, s.name, th.tid from slice s"
			       " join thread_track tt on tt.id = s.track_id join thread th using(utid) order by s.ts",
			   "1100000000\t700000000\tbinder\tbinder transaction\t101\n"
			   "1200000000\t400000000\tbinder\tbinder reply\t201\n"
			   "2000000000\t0\tbinder\tbinder transaction async\t101\n"
			   "2100000000\t0\tbinder\tbinder async rcv\t201\n");
	tt_test_assert_tsv(tr, "select a.key, a.display_value from slice s join args a using(arg_set_id)"
			       " where s.ts = 1100000000 and a.key in ('code', 'flags', 'data size', 'destination name')"
			       " order by a.id",
			   "flags\t0x10 allow replies with file descriptors; \n"
			   "code\t0x3 Java Layer Dependent\n"
			   "data size\t64\n"
			   "destination name\tbinder:200_1\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from flow where trace_id is null"), 2);
	tt_test_close_text(tr, p);
}

/* trace processor refuses the whole trace at a line that is not ftrace
 * text, and at a systemTraceEvents that is not a string; a trace of
 * systrace lines alone (no traceEvents) is a trace. */
static void json_bad_line_refused(void **state)
{
	const char *bad = "{\"systemTraceEvents\":\"t-1 [0] 1.0: print: I|1|a\\nnot a line\\n\"}";
	const char *alone = "{\"systemTraceEvents\":\"t-1 [0] 1.0: print: I|1|a\\n\"}";
	char *path = tt_test_write_tmp(bad, strlen(bad), ".json");
	tt_err err = { 0 };
	tt_trace *tr = tt_trace_open(path, NULL, &err);
	char *p;

	(void)state;
	assert_null(tr);
	assert_non_null(strstr(err.msg, "systemTraceEvents line 2"));
	assert_non_null(strstr(err.msg, "not a line"));
	remove(path);
	free(path);
	tr = tt_test_open_json(alone, &p);
	assert_non_null(tr);
	tt_test_assert_tsv(tr, "select ts, name from slice", "1000000000\ta\n");
	tt_test_close_text(tr, p);
	/* not a string: refused there (an error before any event, else a
	 * warning with the events before) */
	path = tt_test_write_tmp("{\"systemTraceEvents\":{\"a\":1}}", 29, ".json");
	memset(&err, 0, sizeof(err));
	assert_null(tt_trace_open(path, NULL, &err));
	assert_non_null(strstr(err.msg, "systemTraceEvents is not a string"));
	remove(path);
	free(path);
	tr = tt_test_open_json("{\"traceEvents\":[{\"ph\":\"i\",\"name\":\"a\",\"ts\":1,\"pid\":1,\"tid\":1}],"
			       "\"systemTraceEvents\":[1]}", &p);
	assert_int_equal(tt_test_stat(tr, "json_parse_error"), 1);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 1);
	tt_test_close_text(tr, p);
	/* an event whose phase is any byte is an event (found by fuzz_json:
	 * phase 0x01 was read as the systemTraceEvents hand-over) */
	tr = tt_test_open_json("{\"traceEvents\":[{\"ph\":\"\\u0001\",\"name\":\"a\",\"ts\":1,\"pid\":1,"
			       "\"tid\":1},{\"ph\":\"i\",\"name\":\"b\",\"ts\":2,\"pid\":1,\"tid\":1}]}", &p);
	assert_int_equal(tt_test_stat(tr, "json_phase_unknown"), 1);
	tt_test_assert_tsv(tr, "select name from slice", "b\n");
	tt_test_close_text(tr, p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(line_with_tgid),
		cmocka_unit_test(line_without_tgid_or_flags),
		cmocka_unit_test(task_names_with_dashes_and_spaces),
		cmocka_unit_test(timestamps_and_event_names),
		cmocka_unit_test(lines_that_are_not_ftrace),
		cmocka_unit_test(json_atrace_markers),
		cmocka_unit_test(json_task_names),
		cmocka_unit_test(json_thread_name_ranks),
		cmocka_unit_test(json_counters_and_workqueues),
		cmocka_unit_test(json_bad_line_refused),
		cmocka_unit_test(json_sched),
		cmocka_unit_test(json_rss_stat),
		cmocka_unit_test(json_binder),
		cmocka_unit_test(prev_state_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
