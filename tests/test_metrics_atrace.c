/*
 * test_metrics_atrace.c - the Android metrics on a Perfetto trace built by
 * the test the way a phone writes one: a process tree, atrace markers in
 * ftrace print events (B/E on the app's main thread, S/F for the
 * "launching: <pkg>" async slice written by system_server, C for the ION
 * counter) and sched_switch on one CPU. Checks android_startup,
 * android_ion and thread_utilization's running time from sched data.
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

#include "metrics.h"
#include "metrics.pb-c.h"
#include "perfetto_trace.pb-c.h"
#include "proto_tb.h"
#include "testutil.h"

/* system_server (pid 100) launches com.example.app (pid 200, main thread
 * 200). Times in ns. */
static const struct {
	uint64_t ts;
	int32_t tid;
	const char *buf;
} prints[] = {
	{ 1000000, 100, "S|100|launching: com.example.app|1" },
	{ 1500000, 200, "C|200|mem.ion|4096" },
	{ 2000000, 200, "B|200|bindApplication" },
	{ 202000000, 200, "E|200" },
	{ 210000000, 200, "B|200|activityStart" },
	{ 260000000, 200, "E|200" },
	{ 270000000, 200, "B|200|activityResume" },
	{ 280000000, 200, "E|200" },
	{ 290000000, 200, "B|200|Choreographer#doFrame" },
	{ 291000000, 200, "B|200|traversal" },
	{ 300000000, 200, "E|200" },
	{ 302000000, 200, "E|200" },
	{ 303000000, 200, "C|200|mem.ion|12288" },
	{ 305000000, 100, "F|100|launching: com.example.app|1" },
	{ 400000000, 200, "C|200|mem.ion|8192" },
};

/* CPU 0: the app runs [0.5 ms, 150 ms) and [200 ms, 350 ms),
 * system_server [150 ms, 200 ms). */
static const struct {
	uint64_t ts;
	int64_t prev_state;
	int32_t next_pid;
	const char *comm;
} switches[] = {
	{ 500000, 0, 200, "example.app" },
	{ 150000000, 1, 100, "system_server" },
	{ 200000000, 1, 200, "example.app" },
	{ 350000000, 1, 0, "swapper/0" },
};

static char *write_trace(void)
{
	tbuf b = { 0 };
	Pkt p = pkt(1, 0);
	Perfetto__Protos__ProcessTree pt = PERFETTO__PROTOS__PROCESS_TREE__INIT;
	Perfetto__Protos__ProcessTree__Process pr[2], *prp[2];
	Perfetto__Protos__ProcessTree__Thread th[2], *thp[2];
	char *cmd[2] = { "system_server", "com.example.app" };
	const size_t np = sizeof(prints) / sizeof(*prints), ns = sizeof(switches) / sizeof(*switches);
	Perfetto__Protos__FtraceEvent ev[32], *evp[32];
	Perfetto__Protos__PrintFtraceEvent pe[32];
	Perfetto__Protos__SchedSwitchFtraceEvent ss[8];
	Perfetto__Protos__FtraceEventBundle fb = PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__INIT;
	char *path;
	size_t i, n = 0;

	for (i = 0; i < 2; i++) {
		perfetto__protos__process_tree__process__init(&pr[i]);
		perfetto__protos__process_tree__thread__init(&th[i]);
		pr[i].has_pid = 1;
		pr[i].pid = i ? 200 : 100;
		pr[i].n_cmdline = 1;
		pr[i].cmdline = &cmd[i];
		prp[i] = &pr[i];
		th[i].has_tid = th[i].has_tgid = 1;
		th[i].tid = th[i].tgid = pr[i].pid;
		th[i].name = i ? "example.app" : "system_server";
		thp[i] = &th[i];
	}
	/* A tiny first packet: core/import/import.c skips a leading 0x0a as JSON
	 * whitespace, so a first packet of 91 or 123 bytes (length byte '['
	 * or '{') would be taken for JSON (reported to the lead). */
	tb_packet(&b, &p);
	pt.n_processes = pt.n_threads = 2;
	pt.processes = prp;
	pt.threads = thp;
	p.has_timestamp = 1;
	p.timestamp = 100000;
	p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_PROCESS_TREE;
	p.process_tree = &pt;
	tb_packet(&b, &p);

	/* one bundle, events in time order: prints and switches merged */
	for (size_t a = 0, s = 0; a < np || s < ns;) {
		int take_switch = s < ns && (a >= np || switches[s].ts < prints[a].ts);

		perfetto__protos__ftrace_event__init(&ev[n]);
		ev[n].has_timestamp = 1;
		if (take_switch) {
			perfetto__protos__sched_switch_ftrace_event__init(&ss[s]);
			ss[s].has_prev_state = ss[s].has_next_pid = ss[s].has_next_prio = 1;
			ss[s].prev_state = switches[s].prev_state;
			/* the thread the previous switch ran (the swapper first) */
			ss[s].has_prev_pid = 1;
			ss[s].prev_pid = s ? switches[s - 1].next_pid : 0;
			ss[s].next_pid = switches[s].next_pid;
			ss[s].next_prio = 120;
			ss[s].next_comm = (char *)switches[s].comm;
			ev[n].timestamp = switches[s].ts;
			ev[n].event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_SWITCH;
			ev[n].sched_switch = &ss[s];
			s++;
		} else {
			perfetto__protos__print_ftrace_event__init(&pe[a]);
			pe[a].buf = (char *)prints[a].buf;
			ev[n].has_pid = 1;
			ev[n].pid = (uint32_t)prints[a].tid;
			ev[n].timestamp = prints[a].ts;
			ev[n].event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_PRINT;
			ev[n].print = &pe[a];
			a++;
		}
		evp[n] = &ev[n];
		n++;
	}
	fb.has_cpu = 1;
	fb.cpu = 0;
	fb.n_event = n;
	fb.event = evp;
	p = pkt(1, 0);
	p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS;
	p.ftrace_events = &fb;
	tb_packet(&b, &p);
	path = tt_test_write_tmp(b.p, b.n, ".pftrace");
	free(b.p);
	return path;
}

static void check_tsv(tt_trace *tr, const char *sql, const char *want)
{
	char *got = tt_test_tsv(tr, sql);

	if (strcmp(got, want) != 0)
		fail_msg("%s\n--- got:\n%s--- want:\n%s", sql, got, want);
	free(got);
}

static void test_android_metrics_on_atrace(void **state)
{
	char *cfg = tt_test_mkdtemp(), *path;
	ProtobufCMessage *msg = NULL;
	Termtrace__TraceMetrics *m;
	Termtrace__AndroidStartup__Startup *s;
	Termtrace__ThreadUtilization *tu;
	tt_err err = { 0 };
	tt_trace *tr;
	int seen = 0;

	(void)state;
	setenv("XDG_CONFIG_HOME", cfg, 1);
	unsetenv("TT_METRICS_PATH");
	path = write_trace();
	tr = tt_test_open(path);
	/* the importer made what the metrics expect */
	check_tsv(tr, "select t.type, s.name from slice s join track t on t.id = s.track_id"
		      " where s.name glob 'launching*'", "atrace_async_slice\tlaunching: com.example.app\n");
	if (tt_metrics_compute(tr, "android_startup,android_ion,thread_utilization", NULL, &msg, &err))
		fail_msg("%s", err.msg);
	m = (Termtrace__TraceMetrics *)msg;
	assert_int_equal(m->android_startup->n_startup, 1);
	s = m->android_startup->startup[0];
	assert_string_equal(s->package_name, "com.example.app");
	assert_int_equal(s->ts, 1000000);
	assert_int_equal(s->dur, 304000000);
	assert_int_equal(s->bind_application_dur, 200000000);
	assert_int_equal(s->activity_start_dur, 50000000);
	assert_int_equal(s->activity_resume_dur, 10000000);
	assert_int_equal(s->first_frame_dur, 12000000);
	assert_int_equal(s->time_to_first_frame_ns, 301000000);
	check_tsv(tr, "select s.name, s.depth, s.dur from slice s join track t on t.id = s.track_id"
		      " where t.name = 'Android startups' order by s.ts, s.depth",
		  "startup: com.example.app\t0\t304000000\n"
		  "bindApplication\t1\t200000000\n"
		  "activityStart\t1\t50000000\n"
		  "activityResume\t1\t10000000\n"
		  "first frame\t1\t12000000\n");
	/* ION: samples 4096 @1.5 ms, 12288 @303 ms, 8192 @400 ms */
	assert_int_equal(m->android_ion->n_buffer, 1);
	assert_string_equal(m->android_ion->buffer[0]->name, "mem.ion");
	assert_int_equal(m->android_ion->buffer[0]->sample_count, 3);
	assert_true(m->android_ion->buffer[0]->max_value == 12288);
	assert_true(m->android_ion->buffer[0]->avg_value ==
		    (4096.0 * 301500000 + 12288.0 * 97000000) / 398500000);
	assert_true(m->android_ion->buffer[0]->last_value == 8192);
	/* running time from sched: app 149.5 + 150 ms, system_server 50 ms */
	tu = m->thread_utilization;
	assert_true(tu->has_sched);
	check_tsv(tr, "select count(*) from sched_slice", "4\n");
	for (size_t i = 0; i < tu->n_thread; i++) {
		seen += tu->thread[i]->tid == 200 || tu->thread[i]->tid == 100;
		if (tu->thread[i]->tid == 200) {
			assert_int_equal(tu->thread[i]->running_ns, 149500000 + 150000000);
			assert_int_equal(tu->thread[i]->busy_ns, 200000000 + 50000000 + 10000000 + 12000000);
		} else if (tu->thread[i]->tid == 100) {
			assert_int_equal(tu->thread[i]->running_ns, 50000000);
			assert_int_equal(tu->thread[i]->busy_ns, 0);
		}
	}
	assert_int_equal(seen, 2);
	protobuf_c_message_free_unpacked(msg, NULL);
	tt_trace_close(tr);
	unlink(path);
	free(path);
	tt_test_rm(cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_android_metrics_on_atrace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
