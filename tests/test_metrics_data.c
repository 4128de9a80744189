/*
 * test_metrics_data.c - the shipped metrics (metrics/<name>.sql) on real and
 * synthetic traces, with exact values.
 *
 * Real data: chrome_long_tasks and thread_utilization on
 * tests/data/chromium-tiny.json, chromium-tiny.pftrace and
 * chromium-small.pftrace.gz. The expected numbers were computed
 * independently by tests/tools/metrics_check.py (python over the JSON
 * file; over the Perfetto file through tests/tools/pftrace_walk.py, which
 * shares no code with termtrace):
 *     python3 tests/tools/metrics_check.py tests/data/<trace>
 * lost_events on the CTF trace tests/data/ctf/lttng-ust-discarded (its
 * ctf_events_discarded stat must equal the sum of the gaps) and on a
 * truncated JSON file. Synthetic traces written here: long tasks and GCs
 * at the thresholds, an Android startup (atrace-style slice names, JSON
 * B/E and async b/e) and ION counters.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "metrics.pb-c.h"
#include "testutil.h"

static char *cfgdir;

static int setup(void **state)
{
	(void)state;
	/* only the shipped metrics: no user folder, no TT_METRICS_PATH */
	cfgdir = tt_test_mkdtemp();
	setenv("XDG_CONFIG_HOME", cfgdir, 1);
	unsetenv("TT_METRICS_PATH");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tt_test_rm(cfgdir);
	return 0;
}

static Termtrace__TraceMetrics *compute(tt_trace *tr, const char *names)
{
	ProtobufCMessage *m = NULL;
	tt_err err = { 0 };

	if (tt_metrics_compute(tr, names, NULL, &m, &err) != TT_OK)
		fail_msg("%s: %s", names, err.msg);
	return (Termtrace__TraceMetrics *)m;
}

static void check_tsv(tt_trace *tr, const char *sql, const char *want)
{
	char *got = tt_test_tsv(tr, sql);

	if (strcmp(got, want) != 0)
		fail_msg("%s\n--- got:\n%s--- want:\n%s", sql, got, want);
	free(got);
}

/* ---- real data ------------------------------------------------------------ */

static void test_chromium_tiny_json(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("chromium-tiny.json"));
	Termtrace__TraceMetrics *m = compute(tr, "chrome_long_tasks,thread_utilization");
	Termtrace__ChromeLongTasks *lt = m->chrome_long_tasks;
	Termtrace__ThreadUtilization *tu = m->thread_utilization;

	(void)state;
	/* metrics_check.py: main_task_count 312, main_long_task_count 0 */
	assert_int_equal(lt->task_count, 312);
	assert_int_equal(lt->long_task_count, 0);
	assert_int_equal(lt->n_task, 0);
	assert_int_equal(lt->n_thread, 0);
	/* trace_dur_ns 2226212000, total_busy_ns 32532000, per thread */
	assert_int_equal(tu->trace_dur_ns, 2226212000);
	assert_true(tu->has_has_sched && !tu->has_sched);
	assert_int_equal(tu->total_busy_ns, 32532000);
	assert_int_equal(tu->n_thread, 3);
	assert_int_equal(tu->thread[0]->tid, 9186);
	assert_int_equal(tu->thread[0]->slice_count, 110);
	assert_int_equal(tu->thread[0]->busy_ns, 19654000);
	assert_true(tu->thread[0]->busy_ratio == 19654000.0 / 2226212000.0);
	assert_false(tu->thread[0]->has_running_ns);
	assert_int_equal(tu->thread[1]->tid, 9174);
	assert_int_equal(tu->thread[1]->slice_count, 202);
	assert_int_equal(tu->thread[1]->busy_ns, 12750000);
	assert_int_equal(tu->thread[2]->tid, 9221);
	assert_string_equal(tu->thread[2]->thread_name, "DedicatedWorker thread");
	assert_int_equal(tu->thread[2]->slice_count, 7);
	assert_int_equal(tu->thread[2]->busy_ns, 128000);
	/* no long task: no alert, but the table exists; one "Busy threads" track */
	assert_int_equal(tt_test_int(tr, "select count(*) from alert"), 0);
	check_tsv(tr, "select name, is_counter, utid from track where type = 'annotation'",
		  "Busy threads\t1\tNULL\n");
	/* 637 distinct task start/end times; the threads' tasks never overlap
	 * (peak 1) and the count returns to 0 (checked with python) */
	check_tsv(tr, "select count(*), max(c.value), (select value from counter where track_id = t.id"
		      " order by ts desc limit 1) from counter c join track t on c.track_id = t.id"
		      " where t.name = 'Busy threads'", "637\t1.0\t0.0\n");
	protobuf_c_message_free_unpacked(&m->base, NULL);
	tt_trace_close(tr);
}

static void test_chromium_tiny_pftrace(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("chromium-tiny.pftrace"));
	Termtrace__TraceMetrics *m = compute(tr, "chrome_long_tasks,thread_utilization");
	Termtrace__ThreadUtilization *tu = m->thread_utilization;

	(void)state;
	/* metrics_check.py: 343 tasks, none long; performance.measure async
	 * slices on thread-scoped tracks are not tasks */
	assert_int_equal(m->chrome_long_tasks->task_count, 314);
	assert_int_equal(m->chrome_long_tasks->long_task_count, 0);
	assert_int_equal(tu->total_busy_ns, 59105000);
	assert_int_equal(tu->n_thread, 3);
	assert_int_equal(tu->thread[0]->tid, 9427);
	assert_int_equal(tu->thread[0]->slice_count, 201);
	assert_int_equal(tu->thread[0]->busy_ns, 37576000);
	assert_int_equal(tu->thread[1]->tid, 9456);
	assert_int_equal(tu->thread[1]->slice_count, 113);
	assert_int_equal(tu->thread[1]->busy_ns, 20925000);
	assert_int_equal(tu->thread[2]->tid, 9496);
	assert_int_equal(tu->thread[2]->slice_count, 29);
	assert_int_equal(tu->thread[2]->busy_ns, 604000);
	protobuf_c_message_free_unpacked(&m->base, NULL);
	tt_trace_close(tr);
}

static void test_chromium_small_pftrace(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("chromium-small.pftrace.gz"));
	Termtrace__TraceMetrics *m = compute(tr, "chrome_long_tasks,thread_utilization");
	Termtrace__ChromeLongTasks *lt = m->chrome_long_tasks;
	Termtrace__ThreadUtilization *tu = m->thread_utilization;
	(void)state;
	/* metrics_check.py: main_task_count 7185, one main_long_task; the
	 * five long RunTasks of the DedicatedWorker thread (8861) are not
	 * main-thread tasks */
	assert_int_equal(lt->task_count, 7185);
	assert_int_equal(lt->long_task_count, 1);
	assert_int_equal(lt->warning_count, 1);
	assert_int_equal(lt->error_count, 0);
	assert_int_equal(lt->long_task_dur_ns, 170201000);
	assert_int_equal(lt->n_task, 1);
	assert_int_equal(lt->task[0]->ts, 944751115457);
	assert_int_equal(lt->task[0]->dur, 170201000);
	assert_int_equal(lt->task[0]->tid, 8797);
	assert_string_equal(lt->task[0]->name, "RunTask");
	assert_string_equal(lt->task[0]->thread_name, "CrRendererMain");
	assert_string_equal(lt->task[0]->severity, "warning");
	assert_int_equal(lt->n_thread, 1);
	assert_int_equal(lt->thread[0]->tid, 8797);
	assert_int_equal(lt->thread[0]->long_task_count, 1);
	assert_int_equal(tu->total_busy_ns, 4129463700);
	assert_int_equal(tu->thread[0]->tid, 8825);
	assert_int_equal(tu->thread[0]->slice_count, 1023);
	assert_int_equal(tu->thread[0]->busy_ns, 1211859907);
	assert_int_equal(tu->thread[1]->tid, 8861);
	assert_int_equal(tu->thread[1]->busy_ns, 944946971);
	assert_int_equal(tu->thread[2]->tid, 8797);
	assert_int_equal(tu->thread[2]->busy_ns, 830759994);
	/* one alert, linked to its RunTask slice, on a "Long tasks" track of
	 * the renderer's main thread */
	check_tsv(tr, "select a.severity, s.id, s.name, s.ts, s.dur from alert a"
		      " join slice s on s.id = a.source_slice_id", "warning\t17047\tRunTask\t944751115457\t170201000\n");
	check_tsv(tr, "select t.name, th.tid, th.name from track t join thread th using (utid)"
		      " where t.type = 'annotation' order by th.tid",
		  "Long tasks\t8797\tCrRendererMain\n");
	protobuf_c_message_free_unpacked(&m->base, NULL);
	tt_trace_close(tr);
}

static void test_lost_events_ctf(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("ctf/lttng-ust-discarded"));
	Termtrace__TraceMetrics *m = compute(tr, "lost_events");
	Termtrace__LostEvents *le = m->lost_events;
	int64_t sum = 0;

	(void)state;
	assert_int_equal(le->total_lost, 101220);
	assert_int_equal(le->n_stat, 1);
	assert_string_equal(le->stat[0]->name, "ctf_events_discarded");
	assert_int_equal(le->stat[0]->value, 101220);
	assert_int_equal(le->n_gap, 15);
	for (size_t i = 0; i < le->n_gap; i++)
		sum += le->gap[i]->count;
	assert_int_equal(sum, 101220); /* the gaps account for every discarded event */
	assert_int_equal(le->gap[0]->count, 685);
	assert_int_equal(le->gap[0]->ts, 1795237054210573977LL);
	assert_int_equal(le->gap[0]->dur, 133098);
	assert_string_equal(le->gap[0]->track_name, "lost events (chan0_1)");
	/* one error alert per gap, at the gap, linked to it */
	check_tsv(tr, "select count(*), sum(severity = 'error'), min(ts), count(distinct source_slice_id)"
		      " from alert", "15\t15\t1795237054210573977\t15\n");
	check_tsv(tr, "select count(*) from alert a join slice s on s.id = a.source_slice_id"
		      " where s.ts = a.ts and s.dur = a.dur and s.name glob 'lost events (*'", "15\n");
	protobuf_c_message_free_unpacked(&m->base, NULL);
	tt_trace_close(tr);
}

static void test_lost_events_json(void **state)
{
	static const char trunc[] =
		"{\"traceEvents\":[{\"name\":\"a\",\"ph\":\"X\",\"ts\":1,\"dur\":2,\"pid\":1,\"tid\":1},"
		"{\"name\":\"b\",\"ph\":\"X\",\"ts\":5,\"dur\":1,\"pid\":1,\"tid\":1},{\"name\":\"c\",\"ph\":\"X\",\"ts\":9,";
	char *path = tt_test_write_tmp(trunc, sizeof(trunc) - 1, ".json");
	tt_trace *tr = tt_test_open(path);
	Termtrace__TraceMetrics *m = compute(tr, "lost_events");

	(void)state;
	assert_int_equal(m->lost_events->total_lost, 1);
	assert_int_equal(m->lost_events->n_stat, 1);
	assert_string_equal(m->lost_events->stat[0]->name, "json_truncated");
	assert_int_equal(m->lost_events->n_gap, 0);
	/* no location: an instant at the end of the trace (6 us) */
	check_tsv(tr, "select ts, dur, severity, name from alert",
		  "6000\t0\terror\tjson_truncated: 1 (the JSON text ended inside the event array"
		  " (crashed writer?))\n");
	protobuf_c_message_free_unpacked(&m->base, NULL);
	tt_trace_close(tr);
	tt_test_rm(path);

	/* a complete trace: nothing lost, no alert */
	tr = tt_test_open(tt_test_data("chromium-tiny.json"));
	m = compute(tr, "lost_events");
	assert_true(m->lost_events->has_total_lost);
	assert_int_equal(m->lost_events->total_lost, 0);
	assert_int_equal(tt_test_int(tr, "select count(*) from alert"), 0);
	assert_int_equal(tt_test_int(tr, "select count(*) from track where type = 'annotation'"), 0);
	protobuf_c_message_free_unpacked(&m->base, NULL);
	tt_trace_close(tr);
}

/* ---- synthetic ------------------------------------------------------------ */

/* Thread 10: tasks of 60 ms (warning), 300 ms (error, holding an 80 ms
 * nested slice that is not a task, itself holding a 60 ms MajorGC with a
 * GC child) and 10 ms. Thread 11: 50 ms exactly (warning) and 49.999 ms
 * (not long) holding a 12 ms V8.GCScavenger. */
static const char tasks_json[] =
	"{\"traceEvents\":[\n"
	"{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":10,\"args\":{\"name\":\"CrRendererMain\"}},\n"
	"{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":11,\"args\":{\"name\":\"Worker\"}},\n"
	"{\"name\":\"TaskA\",\"ph\":\"X\",\"pid\":1,\"tid\":10,\"ts\":1000,\"dur\":60000},\n"
	"{\"name\":\"TaskB\",\"ph\":\"X\",\"pid\":1,\"tid\":10,\"ts\":100000,\"dur\":300000},\n"
	"{\"name\":\"Nested\",\"ph\":\"X\",\"pid\":1,\"tid\":10,\"ts\":110000,\"dur\":80000},\n"
	"{\"name\":\"MajorGC\",\"ph\":\"X\",\"pid\":1,\"tid\":10,\"ts\":120000,\"dur\":60000},\n"
	"{\"name\":\"V8.GC_MC_MARK\",\"ph\":\"X\",\"pid\":1,\"tid\":10,\"ts\":125000,\"dur\":40000},\n"
	"{\"name\":\"TaskC\",\"ph\":\"X\",\"pid\":1,\"tid\":10,\"ts\":500000,\"dur\":10000},\n"
	"{\"name\":\"TaskD\",\"ph\":\"X\",\"pid\":1,\"tid\":11,\"ts\":2000,\"dur\":50000},\n"
	"{\"name\":\"TaskE\",\"ph\":\"X\",\"pid\":1,\"tid\":11,\"ts\":60000,\"dur\":49999},\n"
	"{\"name\":\"V8.GCScavenger\",\"ph\":\"X\",\"pid\":1,\"tid\":11,\"ts\":61000,\"dur\":12000}\n"
	"]}\n";

static void test_long_tasks_and_gc_synthetic(void **state)
{
	char *path = tt_test_write_tmp(tasks_json, sizeof(tasks_json) - 1, ".json");
	tt_trace *tr = tt_test_open(path);
	Termtrace__TraceMetrics *m = compute(tr, "chrome_long_tasks,long_gc,thread_utilization");
	Termtrace__ChromeLongTasks *lt = m->chrome_long_tasks;
	Termtrace__LongGc *gc = m->long_gc;
	Termtrace__ThreadUtilization *tu = m->thread_utilization;

	(void)state;
	/* main threads only: TaskD (50 ms) on Worker is not a long task */
	assert_int_equal(lt->task_count, 3);
	assert_int_equal(lt->long_task_count, 2);
	assert_int_equal(lt->warning_count, 1);
	assert_int_equal(lt->error_count, 1);
	assert_int_equal(lt->long_task_dur_ns, 360000000);
	assert_string_equal(lt->task[0]->name, "TaskA");
	assert_string_equal(lt->task[1]->name, "TaskB");
	assert_string_equal(lt->task[1]->severity, "error");
	assert_string_equal(lt->task[1]->thread_name, "CrRendererMain");
	assert_int_equal(gc->gc_count, 2);
	assert_int_equal(gc->gc_dur_ns, 72000000);
	assert_int_equal(gc->max_gc_dur_ns, 60000000);
	assert_int_equal(gc->long_gc_count, 2);
	assert_string_equal(gc->gc[0]->name, "V8.GCScavenger");
	assert_string_equal(gc->gc[0]->severity, "warning");
	assert_string_equal(gc->gc[1]->name, "MajorGC");
	assert_string_equal(gc->gc[1]->severity, "error");
	assert_int_equal(tu->trace_dur_ns, 509000000);
	assert_int_equal(tu->total_busy_ns, 469999000);
	assert_int_equal(tu->thread[0]->busy_ns, 370000000);
	assert_int_equal(tu->thread[1]->busy_ns, 99999000);
	/* alerts listed and counted, in the order the metrics ran */
	check_tsv(tr, "select a.id, a.severity, a.metric, s.name, a.ts, a.dur, t.name, th.name"
		      " from alert a join slice s on s.id = a.source_slice_id"
		      " join track t on t.id = a.track_id join thread th on th.utid = t.utid order by a.id",
		  "0\twarning\tchrome_long_tasks\tTaskA\t1000000\t60000000\tLong tasks\tCrRendererMain\n"
		  "1\terror\tchrome_long_tasks\tTaskB\t100000000\t300000000\tLong tasks\tCrRendererMain\n"
		  "2\twarning\tlong_gc\tV8.GCScavenger\t61000000\t12000000\tLong GC\tWorker\n"
		  "3\terror\tlong_gc\tMajorGC\t120000000\t60000000\tLong GC\tCrRendererMain\n");
	check_tsv(tr, "select severity, count(*) from alert group by 1 order by 1", "error\t2\nwarning\t2\n");
	/* alert.slice_id is the annotation slice, with the alert args */
	check_tsv(tr, "select s.name, t.type, a2.display_value from alert a join slice s on s.id = a.slice_id"
		      " join track t on t.id = s.track_id join args a2 on a2.arg_set_id = s.arg_set_id"
		      " and a2.key = 'alert_type' where a.id = 1", "TaskB\tannotation\terror\n");
	/* running the same metric again adds nothing */
	{
		tt_err err = { 0 };

		assert_int_equal(tt_metrics_run_names(tr, "chrome_long_tasks", &err), TT_OK);
		assert_int_equal(tt_test_int(tr, "select count(*) from alert"), 4);
	}
	protobuf_c_message_free_unpacked(&m->base, NULL);
	tt_trace_close(tr);
	tt_test_rm(path);
}

/* Atrace-style names as a Chrome JSON trace: the launch is an async b/e
 * slice in system_server, the phases B/E slices on the app's main thread,
 * ION a C counter. A second launch has no phases and lasts 2.5 s. */
static const char android_json[] =
	"{\"traceEvents\":[\n"
	"{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":100,\"tid\":100,\"args\":{\"name\":\"system_server\"}},\n"
	"{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":200,\"tid\":200,\"args\":{\"name\":\"com.example.app\"}},\n"
	"{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":200,\"tid\":200,\"args\":{\"name\":\"example.app\"}},\n"
	"{\"name\":\"launching: com.example.app\",\"cat\":\"android\",\"ph\":\"b\",\"id\":\"0x1\",\"pid\":100,\"tid\":100,\"ts\":1000},\n"
	"{\"name\":\"bindApplication\",\"ph\":\"B\",\"pid\":200,\"tid\":200,\"ts\":2000},\n"
	"{\"name\":\"bindApplication\",\"ph\":\"E\",\"pid\":200,\"tid\":200,\"ts\":302000},\n"
	"{\"name\":\"activityStart\",\"ph\":\"B\",\"pid\":200,\"tid\":200,\"ts\":310000},\n"
	"{\"name\":\"activityStart\",\"ph\":\"E\",\"pid\":200,\"tid\":200,\"ts\":410000},\n"
	"{\"name\":\"activityResume\",\"ph\":\"B\",\"pid\":200,\"tid\":200,\"ts\":420000},\n"
	"{\"name\":\"activityResume\",\"ph\":\"E\",\"pid\":200,\"tid\":200,\"ts\":450000},\n"
	"{\"name\":\"Choreographer#doFrame\",\"ph\":\"B\",\"pid\":200,\"tid\":200,\"ts\":400000},\n"
	"{\"name\":\"Choreographer#doFrame\",\"ph\":\"E\",\"pid\":200,\"tid\":200,\"ts\":405000},\n"
	"{\"name\":\"Choreographer#doFrame\",\"ph\":\"B\",\"pid\":200,\"tid\":200,\"ts\":460000},\n"
	"{\"name\":\"Choreographer#doFrame\",\"ph\":\"E\",\"pid\":200,\"tid\":200,\"ts\":476000},\n"
	"{\"name\":\"Choreographer#doFrame\",\"ph\":\"B\",\"pid\":200,\"tid\":200,\"ts\":480000},\n"
	"{\"name\":\"Choreographer#doFrame\",\"ph\":\"E\",\"pid\":200,\"tid\":200,\"ts\":490000},\n"
	"{\"name\":\"launching: com.example.app\",\"cat\":\"android\",\"ph\":\"e\",\"id\":\"0x1\",\"pid\":100,\"tid\":100,\"ts\":500000},\n"
	"{\"name\":\"launching: com.other.app\",\"cat\":\"android\",\"ph\":\"b\",\"id\":\"0x2\",\"pid\":100,\"tid\":100,\"ts\":1000000},\n"
	"{\"name\":\"launching: com.other.app\",\"cat\":\"android\",\"ph\":\"e\",\"id\":\"0x2\",\"pid\":100,\"tid\":100,\"ts\":3500000},\n"
	"{\"name\":\"mem.ion\",\"ph\":\"C\",\"pid\":200,\"tid\":200,\"ts\":1000,\"args\":{\"value\":1000}},\n"
	"{\"name\":\"mem.ion\",\"ph\":\"C\",\"pid\":200,\"tid\":200,\"ts\":3000,\"args\":{\"value\":3000}},\n"
	"{\"name\":\"mem.ion\",\"ph\":\"C\",\"pid\":200,\"tid\":200,\"ts\":4000,\"args\":{\"value\":2000}}\n"
	"]}\n";

static void test_android_startup_and_ion(void **state)
{
	char *path = tt_test_write_tmp(android_json, sizeof(android_json) - 1, ".json");
	tt_trace *tr = tt_test_open(path);
	Termtrace__TraceMetrics *m = compute(tr, "android_startup,android_ion");
	Termtrace__AndroidStartup *as = m->android_startup;
	Termtrace__AndroidIon *ion = m->android_ion;
	Termtrace__AndroidStartup__Startup *s;

	(void)state;
	assert_int_equal(as->n_startup, 2);
	s = as->startup[0];
	assert_int_equal(s->startup_id, 0);
	assert_string_equal(s->package_name, "com.example.app");
	assert_int_equal(s->ts, 1000000);
	assert_int_equal(s->dur, 499000000);
	assert_int_equal(s->bind_application_dur, 300000000);
	assert_int_equal(s->activity_start_dur, 100000000);
	assert_int_equal(s->activity_resume_dur, 30000000);
	/* the frame before activityResume does not count */
	assert_int_equal(s->first_frame_dur, 16000000);
	assert_int_equal(s->time_to_first_frame_ns, 475000000);
	s = as->startup[1];
	assert_string_equal(s->package_name, "com.other.app");
	assert_int_equal(s->dur, 2500000000LL);
	assert_false(s->has_bind_application_dur);
	assert_false(s->has_first_frame_dur);
	/* one annotation slice per startup, its phases nested under it */
	check_tsv(tr, "select s.name, s.ts, s.dur, s.depth, p.name, src.name from slice s"
		      " join track t on t.id = s.track_id left join slice p on p.id = s.parent_id"
		      " left join slice src on src.id = (select int_value from args"
		      "   where arg_set_id = s.arg_set_id and key = 'source_slice_id')"
		      " where t.name = 'Android startups' order by s.ts, s.depth",
		  "startup: com.example.app\t1000000\t499000000\t0\tNULL\tlaunching: com.example.app\n"
		  "bindApplication\t2000000\t300000000\t1\tstartup: com.example.app\tbindApplication\n"
		  "activityStart\t310000000\t100000000\t1\tstartup: com.example.app\tactivityStart\n"
		  "activityResume\t420000000\t30000000\t1\tstartup: com.example.app\tactivityResume\n"
		  "first frame\t460000000\t16000000\t1\tstartup: com.example.app\tChoreographer#doFrame\n"
		  "startup: com.other.app\t1000000000\t2500000000\t0\tNULL\tlaunching: com.other.app\n");
	/* the 2.5 s startup is a warning */
	check_tsv(tr, "select severity, name from alert", "warning\tstartup: com.other.app\n");
	/* ION */
	assert_int_equal(ion->n_buffer, 1);
	assert_string_equal(ion->buffer[0]->name, "mem.ion value");
	assert_int_equal(ion->buffer[0]->sample_count, 3);
	assert_true(ion->buffer[0]->min_value == 1000);
	assert_true(ion->buffer[0]->max_value == 3000);
	assert_true(ion->buffer[0]->avg_value == 5000000.0 / 3000.0);
	assert_true(ion->buffer[0]->last_value == 2000);
	check_tsv(tr, "select t.name, c.ts, c.value from counter c join track t on t.id = c.track_id"
		      " where t.type = 'annotation' order by c.ts",
		  "ION: mem.ion value\t1000000\t1000.0\n"
		  "ION: mem.ion value\t3000000\t3000.0\n"
		  "ION: mem.ion value\t4000000\t2000.0\n");
	protobuf_c_message_free_unpacked(&m->base, NULL);
	tt_trace_close(tr);
	tt_test_rm(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chromium_tiny_json),
		cmocka_unit_test(test_chromium_tiny_pftrace),
		cmocka_unit_test(test_chromium_small_pftrace),
		cmocka_unit_test(test_lost_events_ctf),
		cmocka_unit_test(test_lost_events_json),
		cmocka_unit_test(test_long_tasks_and_gc_synthetic),
		cmocka_unit_test(test_android_startup_and_ion),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
