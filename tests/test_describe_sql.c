/*
 * test_describe_sql.c - the describe_slice virtual table and
 * describe_warnings() through SQL: the two documented queries, a join over
 * many slices (with EXPLAIN QUERY PLAN proving the slice_id push-down),
 * slices with no rule, odd slice_id values, the missing-constraint error,
 * and the shipped rule packs on the real sample traces.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "describe.h"
#include "termtrace.h"
#include "testutil.h"

/* Two measure slices (one inside a frame), one unrelated slice. */
static const char trace_json[] =
	"{\"traceEvents\":[\n"
	"{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"thread_name\",\"args\":{\"name\":\"main\"}},\n"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":1000,\"name\":\"Choreographer#doFrame 42\"},\n"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":20,\"dur\":100,\"name\":\"measure\"},\n"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":2000,\"dur\":1.5,\"name\":\"measure\"},\n"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":3000,\"dur\":1,\"name\":\"other\"}\n"
	"]}\n";

static const char rules_text[] =
	"[rule]\nname = measure\ndescription = measure for {dur}\nlink = https://example.org/m\n"
	"[rule]\nname = measure\nancestor = Choreographer#doFrame*\n"
	"description = measure in a frame for {dur}\nlink = https://example.org/f\n"
	"[rule]\nglob = Choreographer#*\ndescription = a frame\n";

struct fx {
	char *trace, *dir;
	tt_trace *tr;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char path[600];
	FILE *fp;

	f->trace = tt_test_write_tmp(trace_json, strlen(trace_json), ".json");
	f->dir = tt_test_mkdtemp();
	snprintf(path, sizeof(path), "%s/t.rules", f->dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(rules_text, fp);
	fclose(fp);
	setenv("TT_DESCRIPTIONS_PATH", f->dir, 1);
	f->tr = tt_test_open(f->trace);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	tt_trace_close(f->tr);
	unsetenv("TT_DESCRIPTIONS_PATH");
	tt_test_rm(f->trace);
	tt_test_rm(f->dir);
	free(f);
	return 0;
}

static void expect_tsv(tt_trace *tr, const char *sql, const char *want)
{
	char *got = tt_test_tsv(tr, sql);

	assert_string_equal(got, want);
	free(got);
}

/* The `detail` lines of EXPLAIN QUERY PLAN sql, each followed by '\n'. */
static void expect_plan(tt_trace *tr, const char *sql, const char *want)
{
	char q[1024], got[1024] = "";
	tt_result r = { 0 };
	tt_err err = { 0 };

	snprintf(q, sizeof(q), "explain query plan %s", sql);
	if (tt_query_collect(tr, q, 0, &r, &err) != TT_OK)
		fail_msg("%s: %s", q, err.msg);
	assert_int_equal(r.ncols, 4);
	for (size_t i = 0; i < r.nrows; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s\n", r.cells[i * 4 + 3]);
	tt_result_free(&r);
	assert_string_equal(got, want);
}

/* The first documented query: one slice by id. */
static void by_slice_id(void **state)
{
	struct fx *f = *state;
	char sql[200];
	int64_t id = tt_test_int(f->tr, "select id from slice where name = 'measure' and depth = 1");

	snprintf(sql, sizeof(sql), "select description, doc_link from describe_slice where slice_id = %lld",
		 (long long)id);
	expect_tsv(f->tr, sql, "measure in a frame for 100 us\thttps://example.org/f\n");
	/* table-valued form and the hidden column */
	snprintf(sql, sizeof(sql), "select slice_id, description from describe_slice(%lld)", (long long)id);
	{
		char want[100];

		snprintf(want, sizeof(want), "%lld\tmeasure in a frame for 100 us\n", (long long)id);
		expect_tsv(f->tr, sql, want);
	}
	/* a rule without a link: doc_link is NULL */
	expect_tsv(f->tr, "select description, doc_link is null from describe_slice where slice_id = "
			  "(select id from slice where name like 'Choreographer%')",
		   "a frame\t1\n");
}

/* The second documented query: a join filtered on the slice name. */
static void join_on_name(void **state)
{
	struct fx *f = *state;

	expect_tsv(f->tr,
		   "select ts, dur, description from slice s join describe_slice d on s.id = d.slice_id "
		   "where s.name = 'measure' order by ts",
		   "20000\t100000\tmeasure in a frame for 100 us\n"
		   "2000000\t1500\tmeasure for 1.5 us\n");
	/* the plan: slice scanned by name, describe_slice looked up per row
	 * with slice_id = ? (idxNum 1), never a scan */
	expect_plan(f->tr,
		   "select ts, dur, description from slice s "
		   "join describe_slice d on s.id = d.slice_id where s.name = 'measure'",
		   "SCAN s VIRTUAL TABLE INDEX 16:\nSCAN d VIRTUAL TABLE INDEX 1:\n");
	/* written the other way round, SQLite still puts describe_slice inside */
	expect_plan(f->tr,
		   "select d.description from describe_slice d join slice s on d.slice_id = s.id",
		   "SCAN s VIRTUAL TABLE INDEX 0:\nSCAN d VIRTUAL TABLE INDEX 1:\n");
}

/* No rule / unknown ids / odd values: no row, no error. */
static void no_row_cases(void **state)
{
	struct fx *f = *state;

	assert_int_equal(tt_test_int(f->tr, "select count(*) from describe_slice where slice_id = "
					    "(select id from slice where name = 'other')"), 0);
	assert_int_equal(tt_test_int(f->tr, "select count(*) from describe_slice where slice_id = 1000000"), 0);
	assert_int_equal(tt_test_int(f->tr, "select count(*) from describe_slice where slice_id = -1"), 0);
	assert_int_equal(tt_test_int(f->tr, "select count(*) from describe_slice where slice_id = null"), 0);
	assert_int_equal(tt_test_int(f->tr, "select count(*) from describe_slice where slice_id = 1.5"), 0);
	assert_int_equal(tt_test_int(f->tr, "select count(*) from describe_slice where slice_id = 'abc'"), 0);
	assert_int_equal(tt_test_int(f->tr, "select count(*) from describe_slice where slice_id = "
					    "(select id + 0.0 from slice where depth = 1)"), 1);
	/* '1' as text names slice 1, like slice.id would */
	assert_int_equal(tt_test_int(f->tr, "select count(*) from describe_slice where slice_id = "
					    "(select cast(id as text) from slice where name = 'other')"), 0);
	assert_int_equal(tt_test_int(f->tr, "select count(*) from describe_slice where slice_id = "
					    "(select cast(id as text) from slice where depth = 1)"), 1);
	/* LEFT JOIN keeps the undescribed slices */
	expect_tsv(f->tr,
		   "select s.name, d.description is null from slice s left join describe_slice d "
		   "on d.slice_id = s.id order by s.ts",
		   "Choreographer#doFrame 42\t0\nmeasure\t0\nmeasure\t0\nother\t1\n");
	/* IN list */
	assert_int_equal(tt_test_int(f->tr, "select count(*) from describe_slice where slice_id in "
					    "(select id from slice)"), 3);
}

/* Without slice_id the table refuses, with a message saying why. */
static void needs_slice_id(void **state)
{
	struct fx *f = *state;
	tt_result r = { 0 };
	tt_err err = { 0 };

	assert_int_equal(tt_query_collect(f->tr, "select * from describe_slice", 0, &r, &err), TT_EINVAL);
	assert_non_null(strstr(err.msg, "describe_slice: needs slice_id = ..."));
	assert_int_equal(tt_query_collect(f->tr, "select * from describe_slice where slice_id > 1", 0, &r,
					  &err), TT_EINVAL);
	assert_non_null(strstr(err.msg, "describe_slice: needs slice_id = ..."));
}

/* A join over every slice of a real trace: exactly the slices that have a
 * rule come back, and each lookup uses the push-down. */
static void join_many(void **state)
{
	char *dir = tt_test_mkdtemp(), path[600];
	FILE *fp;
	tt_trace *tr;

	(void)state;
	snprintf(path, sizeof(path), "%s/v8.rules", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("[rule]\ncategory = v8.execute\ndescription = v8 {name}\n", fp);
	fclose(fp);
	setenv("TT_DESCRIPTIONS_PATH", dir, 1);
	tr = tt_test_open(tt_test_data("chromium-tiny.json"));
	assert_int_equal(tt_test_int(tr, "select count(*) from slice where category = 'v8.execute'"), 390);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice s join describe_slice d "
					 "on d.slice_id = s.id"), 390);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice s join describe_slice d "
					 "on d.slice_id = s.id where d.description = 'v8 ' || s.name"), 390);
	expect_plan(tr, "select count(*) from slice s join describe_slice d on d.slice_id = s.id",
		   "SCAN s VIRTUAL TABLE INDEX 0:\nSCAN d VIRTUAL TABLE INDEX 1:\n");
	tt_trace_close(tr);
	unsetenv("TT_DESCRIPTIONS_PATH");
	tt_test_rm(dir);
}

/* An empty TT_DESCRIPTIONS_PATH loads nothing: no rows, no warnings. */
static void no_rules(void **state)
{
	tt_trace *tr;

	(void)state;
	setenv("TT_DESCRIPTIONS_PATH", "", 1);
	tr = tt_test_open(tt_test_data("chromium-tiny.json"));
	assert_int_equal(tt_test_int(tr, "select count(*) from slice s join describe_slice d "
					 "on d.slice_id = s.id"), 0);
	assert_string_equal(tt_test_str(tr, "select describe_warnings()"), "NULL");
	tt_trace_close(tr);
	unsetenv("TT_DESCRIPTIONS_PATH");
}

/* The shipped packs: load without a warning, and describe the real
 * Chromium sample's slices (only the __metadata ones are left out). */
static void shipped_rules(void **state)
{
	char path[1024];
	tt_describe_rules *r = tt_describe_rules_new();
	tt_trace *tr;

	(void)state;
	snprintf(path, sizeof(path), "%s/descriptions", tt_test_srcdir());
	assert_int_equal(tt_describe_rules_load(r, path, 0), TT_OK);
	if (tt_describe_rules_warning_count(r))
		fail_msg("shipped rules: %s", tt_describe_rules_warning(r, 0));
	assert_true(tt_describe_rules_count(r) >= 100);
	tt_describe_rules_unref(r);

	setenv("TT_DESCRIPTIONS_PATH", path, 1);
	tr = tt_test_open(tt_test_data("chromium-tiny.json"));
	assert_string_equal(tt_test_str(tr, "select describe_warnings()"), "NULL");
	/* every slice of the sample has a description (ActiveProcesses too) */
	expect_tsv(tr, "select s.name, count(*) from slice s left join describe_slice d "
		       "on d.slice_id = s.id where d.description is null group by 1",
		   "");
	expect_tsv(tr, "select distinct doc_link from slice s join describe_slice d on d.slice_id = s.id "
		       "where s.name in ('RunMicrotasks', 'V8.BytecodeBudgetInterrupt', 'domComplete', "
		       "'heavyTask 3') order by 1",
		   "https://v8.dev/blog/fast-async\nhttps://v8.dev/blog/maglev\n"
		   "https://www.w3.org/TR/navigation-timing-2/\nhttps://www.w3.org/TR/user-timing/\n");
	/* the template sees the slice's args */
	assert_int_equal(tt_test_int(tr, "select count(*) from slice s join describe_slice d "
					 "on d.slice_id = s.id where s.name = 'RunMicrotasks' and "
					 "d.description like '%' || (select display_value from args a "
					 "where a.arg_set_id = s.arg_set_id and a.key = 'microtask_count') "
					 "|| ' microtasks%'"),
			 59);
	tt_trace_close(tr);

	tr = tt_test_open(tt_test_data("uftrace-work.json"));
	expect_tsv(tr, "select doc_link from describe_slice where slice_id = "
		       "(select id from slice where name = 'linux:schedule' limit 1)",
		   "https://docs.kernel.org/scheduler/index.html\n");
	tt_trace_close(tr);
	unsetenv("TT_DESCRIPTIONS_PATH");
}

/* Android names as atrace writes them, in a synthetic trace (the samples
 * are Chrome, LTTng and uftrace): every name the Android pack promises. */
static const char android_json[] =
	"{\"traceEvents\":[\n"
	"{\"ph\":\"M\",\"pid\":10,\"tid\":10,\"name\":\"process_name\",\"args\":{\"name\":\"com.example.app\"}},\n"
	"{\"ph\":\"M\",\"pid\":10,\"tid\":10,\"name\":\"thread_name\",\"args\":{\"name\":\"com.example.app\"}},\n"
	"{\"ph\":\"M\",\"pid\":10,\"tid\":11,\"name\":\"thread_name\",\"args\":{\"name\":\"RenderThread\"}},\n"
	"{\"ph\":\"M\",\"pid\":10,\"tid\":12,\"name\":\"thread_name\",\"args\":{\"name\":\"HeapTaskDaemon\"}},\n"
	"{\"ph\":\"M\",\"pid\":20,\"tid\":21,\"name\":\"process_name\",\"args\":{\"name\":\"system_server\"}},\n"
	"{\"ph\":\"M\",\"pid\":20,\"tid\":21,\"name\":\"thread_name\",\"args\":{\"name\":\"binder:20_3\"}},\n"
	"{\"ph\":\"X\",\"pid\":10,\"tid\":10,\"ts\":0,\"dur\":900,\"name\":\"bindApplication\"},\n"
	"{\"ph\":\"X\",\"pid\":10,\"tid\":10,\"ts\":1000,\"dur\":100,\"name\":\"activityStart\"},\n"
	"{\"ph\":\"X\",\"pid\":10,\"tid\":10,\"ts\":1200,\"dur\":100,\"name\":\"activityResume\"},\n"
	"{\"ph\":\"X\",\"pid\":10,\"tid\":10,\"ts\":1400,\"dur\":200,\"name\":\"inflate\"},\n"
	"{\"ph\":\"X\",\"pid\":10,\"tid\":10,\"ts\":2000,\"dur\":16000,\"name\":\"Choreographer#doFrame 123\"},\n"
	"{\"ph\":\"X\",\"pid\":10,\"tid\":10,\"ts\":2100,\"dur\":15000,\"name\":\"traversal\"},\n"
	"{\"ph\":\"X\",\"pid\":10,\"tid\":10,\"ts\":2200,\"dur\":5000,\"name\":\"measure\"},\n"
	"{\"ph\":\"X\",\"pid\":10,\"tid\":10,\"ts\":7300,\"dur\":3000,\"name\":\"layout\"},\n"
	"{\"ph\":\"X\",\"pid\":10,\"tid\":10,\"ts\":10400,\"dur\":4000,\"name\":\"draw\"},\n"
	"{\"ph\":\"X\",\"pid\":10,\"tid\":10,\"ts\":20000,\"dur\":50,\"name\":\"measure\"},\n"
	"{\"ph\":\"X\",\"pid\":10,\"tid\":10,\"ts\":21000,\"dur\":500,\"name\":\"Lock contention on a monitor lock (owner tid: 12)\"},\n"
	"{\"ph\":\"X\",\"pid\":10,\"tid\":10,\"ts\":22000,\"dur\":800,\"name\":\"binder transaction\"},\n"
	"{\"ph\":\"X\",\"pid\":20,\"tid\":21,\"ts\":22100,\"dur\":600,\"name\":\"binder reply\"},\n"
	"{\"ph\":\"X\",\"pid\":10,\"tid\":11,\"ts\":18000,\"dur\":4000,\"name\":\"DrawFrames 123\"},\n"
	"{\"ph\":\"X\",\"pid\":10,\"tid\":11,\"ts\":18100,\"dur\":300,\"name\":\"syncFrameState\"},\n"
	"{\"ph\":\"X\",\"pid\":10,\"tid\":11,\"ts\":19000,\"dur\":300,\"name\":\"flush commands\"},\n"
	"{\"ph\":\"X\",\"pid\":10,\"tid\":12,\"ts\":23000,\"dur\":3000,\"name\":\"young concurrent copying GC\"},\n"
	"{\"ph\":\"X\",\"pid\":10,\"tid\":10,\"ts\":24000,\"dur\":700,\"name\":\"Alloc young concurrent copying GC\"},\n"
	"{\"ph\":\"X\",\"pid\":10,\"tid\":10,\"ts\":25000,\"dur\":300,\"name\":\"WaitForGcToComplete\"}\n"
	"]}\n"
;

static void android_pack(void **state)
{
	char rules[1024];
	char *trace = tt_test_write_tmp(android_json, strlen(android_json), ".json");
	tt_trace *tr;

	(void)state;
	snprintf(rules, sizeof(rules), "%s/descriptions", tt_test_srcdir());
	setenv("TT_DESCRIPTIONS_PATH", rules, 1);
	tr = tt_test_open(trace);
	expect_tsv(tr, "select s.name, substr(d.description, 1, 40), d.doc_link from slice s "
		       "left join describe_slice d on d.slice_id = s.id order by s.ts, s.depth",
#define AD "https://developer.android.com/"
#define SA "https://source.android.com/docs/core/"
		"bindApplication\tThe new app process sets itself up after\t" AD "topic/performance/vitals/launch-time\n"
		"activityStart\tThe framework calls the Activity's onSta\t" AD "topic/performance/vitals/launch-time\n"
		"activityResume\tThe framework calls the Activity's onRes\t" AD "topic/performance/vitals/launch-time\n"
		"inflate\tLayoutInflater turns an XML layout resou\t" AD "reference/android/view/LayoutInflater\n"
		"Choreographer#doFrame 123\tOne frame of the app's UI thread, starte\t" AD "reference/android/view/Choreographer\n"
		"traversal\tViewRootImpl walks the view hierarchy fo\t" AD "topic/performance/rendering/optimizing-view-hierarchies\n"
		"measure\tThe measure pass of a frame's traversal,\t" AD "develop/ui/views/layout/how-android-draws\n"
		"layout\tThe layout pass: each view group places \t" AD "develop/ui/views/layout/how-android-draws\n"
		"draw\tThe UI thread records the drawing comman\t" AD "topic/performance/rendering\n"
		"DrawFrames 123\tThe RenderThread's work for one frame: i\t" AD "topic/performance/rendering/inspect-gpu-rendering\n"
		"syncFrameState\tThe RenderThread copies the frame's disp\t" AD "topic/performance/rendering/inspect-gpu-rendering\n"
		"flush commands\tRenderThread work on the GPU path (flush\t" SA "graphics/renderthread\n"
		"measure\tThe measure pass: each view is asked how\t" AD "develop/ui/views/layout/how-android-draws\n"
		"Lock contention on a monitor lock (owner tid: 12)\tThe thread wanted a Java monitor (a sync\t" AD "topic/performance/threads\n"
		"binder transaction\tA synchronous binder call: this thread s\t" SA "architecture/hidl/binder-ipc\n"
		"binder reply\tThe server side of a binder call: a bind\t" SA "architecture/hidl/binder-ipc\n"
		"young concurrent copying GC\tA garbage collection by ART (young concu\t" SA "runtime/gc-debug\n"
		"Alloc young concurrent copying GC\tAn allocation-triggered GC: a thread tri\t" SA "runtime/gc-debug\n"
		"WaitForGcToComplete\tThe thread is blocked until a running ga\t" SA "runtime/gc-debug\n");
#undef AD
#undef SA
	tt_trace_close(tr);
	unsetenv("TT_DESCRIPTIONS_PATH");
	tt_test_rm(trace);
}

/* One line per shipped description worth pinning: a slice name (on a
 * thread of that name, "main" when NULL) and the link its rule gives.
 * Adding a description to descriptions/ = adding a line here. */
static const struct {
	const char *name, *thread, *link;
} shipped[] = {
#define AD "https://developer.android.com/"
#define CR "https://chromium.googlesource.com/chromium/src/+/HEAD/"
	{ "eglSwapBuffersWithDamageKHR", "RenderThread", AD "topic/performance/rendering/inspect-gpu-rendering" },
	{ "postAndWait", NULL, AD "topic/performance/rendering" },
	{ "RV Prefetch", NULL, AD "develop/ui/views/layout/recyclerview" },
	{ "RV OnBindView", NULL, AD "develop/ui/views/layout/recyclerview" },
	{ "ZygoteInit", NULL, AD "topic/performance/vitals/launch-time" },
	{ "activityCreate", NULL, AD "topic/performance/vitals/launch-time" },
	{ "launching: com.example.app", NULL, AD "topic/performance/vitals/launch-time" },
	{ "Contending for pthread mutex", NULL, AD "topic/performance/threads" },
	{ "monitor contention with owner Thread-2 (12)", NULL, AD "topic/performance/threads" },
	{ "binder transaction async", NULL, "https://source.android.com/docs/core/architecture/hidl/binder-ipc" },
	{ "dequeueBuffer", "RenderThread", "https://source.android.com/docs/core/graphics/arch-bq-gralloc" },
	{ "Choreographer#onVsync", NULL, AD "reference/android/view/Choreographer" },
	{ "ThreadControllerImpl::RunTask", "CrBrowserMain", CR "docs/threading_and_tasks.md" },
	{ "Receive mojo message", "CrBrowserMain", CR "mojo/README.md" },
	{ "UpdateLayoutTree", "CrRendererMain", CR "third_party/blink/renderer/core/css/README.md" },
	{ "Layout", "CrRendererMain", CR "third_party/blink/renderer/core/layout/README.md" },
	{ "Paint", "CrRendererMain", CR "third_party/blink/renderer/core/paint/README.md" },
	{ "Commit", "CrRendererMain", CR "docs/how_cc_works.md" },
	{ "RasterTask", "CompositorTileWorker1", CR "docs/how_cc_works.md" },
	{ "Display::DrawAndSwap", "VizCompositorThread", CR "components/viz/README.md" },
	{ "GpuChannel::ExecuteDeferredRequest", "CrGpuMain",
	  "https://www.chromium.org/developers/design-documents/gpu-command-buffer/" },
	{ "PipelineReporter", "Compositor", CR "docs/how_cc_works.md" },
	{ "EventLatency", "CrBrowserMain", "https://w3c.github.io/event-timing/" },
	{ "ParseHTML", "CrRendererMain", "https://html.spec.whatwg.org/multipage/parsing.html" },
	{ "firstContentfulPaint", "CrRendererMain", "https://w3c.github.io/paint-timing/" },
	{ "some unknown renderer work", "CrRendererMain", CR "docs/threading_and_tasks.md" },
	{ "some pool work", "ThreadPoolForegroundWorker", CR "docs/threading_and_tasks.md" },
	{ "V8.GC_MC_MARK", "CrRendererMain", "https://v8.dev/blog/trash-talk" },
	{ "V8.GC_SCAVENGER_SCAVENGE", "CrRendererMain", "https://v8.dev/blog/orinoco-parallel-scavenger" },
	{ "MajorGC", "CrRendererMain", "https://v8.dev/blog/concurrent-marking" },
	{ "v8.parseOnBackgroundWaiting", "CrRendererMain", "https://v8.dev/blog/background-compilation" },
	{ "lttng_ust_cyg_profile_fast:func_entry", NULL, "https://lttng.org/docs/v2.13/#doc-liblttng-ust-cyg-profile" },
	{ "lost events", NULL, "https://lttng.org/docs/v2.13/#doc-channel-overwrite-mode-vs-discard-mode" },
	{ "lttng_ust_tracef:event", NULL, "https://lttng.org/docs/v2.13/#doc-tracef" },
	{ "sched_wakeup_new", NULL, "https://perfetto.dev/docs/data-sources/cpu-scheduling" },
	{ "irq_handler_entry", NULL, "https://docs.kernel.org/core-api/genericirq.html" },
	/* issue 19's additions, Android and kernel (no bundled trace has them) */
	{ "ResourcesManager#getResources", NULL, AD "topic/performance/vitals/launch-time" },
	{ "Inflate main_activity", NULL, AD "develop/ui/views/layout/improving-layouts/optimizing-layout" },
	{ "JIT compiling void a.b.c()", NULL, AD "topic/performance/baselineprofiles/overview" },
	{ "AIDL::java::IFoo::bar::server", NULL, "https://source.android.com/docs/core/architecture/aidl" },
	{ "GC: Wait For Completion Alloc", NULL, "https://source.android.com/docs/core/runtime/gc-debug" },
	{ "activityPause", NULL, AD "guide/components/activities/activity-lifecycle" },
	{ "sched_process_exec", NULL, "https://docs.kernel.org/trace/events.html" },
	{ "syscall_entry_openat", NULL, "https://lttng.org/docs/v2.13/#doc-enabling-disabling-events" },
	{ "block_rq_complete", NULL, "https://docs.kernel.org/block/index.html" },
	{ "workqueue_execute_start", NULL, "https://docs.kernel.org/core-api/workqueue.html" },
	{ "lttng_statedump_process_state", NULL, "https://lttng.org/docs/v2.13/#doc-lttng-modules" },
	{ "cpu_frequency", NULL, "https://docs.kernel.org/admin-guide/pm/cpufreq.html" },
#undef AD
#undef CR
};

static void shipped_names(void **state)
{
	char rules[1024], *json, *trace;
	size_t cap = 65536, len = 0;
	size_t n = sizeof(shipped) / sizeof(shipped[0]);
	tt_trace *tr;

	(void)state;
	json = malloc(cap);
	len += (size_t)snprintf(json + len, cap - len, "{\"traceEvents\":[\n");
	for (size_t i = 0; i < n; i++) {
		/* one thread per entry, named as the entry says */
		len += (size_t)snprintf(json + len, cap - len,
			"{\"ph\":\"M\",\"pid\":1,\"tid\":%zu,\"name\":\"thread_name\","
			"\"args\":{\"name\":\"%s\"}},\n"
			"{\"ph\":\"X\",\"pid\":1,\"tid\":%zu,\"ts\":%zu,\"dur\":100,\"name\":\"%s\"},\n",
			i + 1, shipped[i].thread ? shipped[i].thread : "main", i + 1, i * 1000, shipped[i].name);
	}
	len += (size_t)snprintf(json + len, cap - len, "{\"ph\":\"i\",\"pid\":1,\"tid\":1,\"ts\":0,\"name\":\"end\"}]}\n");
	trace = tt_test_write_tmp(json, len, ".json");
	free(json);
	snprintf(rules, sizeof(rules), "%s/descriptions", tt_test_srcdir());
	setenv("TT_DESCRIPTIONS_PATH", rules, 1);
	tr = tt_test_open(trace);
	for (size_t i = 0; i < n; i++) {
		char sql[512];
		const char *got;

		snprintf(sql, sizeof(sql), "select coalesce((select doc_link from describe_slice "
			 "where slice_id = (select id from slice where name = '%s')), 'NONE')",
			 shipped[i].name);
		got = tt_test_str(tr, sql);
		if (strcmp(got, shipped[i].link) != 0)
			fail_msg("%s: link %s, want %s", shipped[i].name, got, shipped[i].link);
	}
	tt_trace_close(tr);
	unsetenv("TT_DESCRIPTIONS_PATH");
	tt_test_rm(trace);
}

/* Linux scheduling names (as a thread-state or ftrace importer names them). */
static void linux_pack(void **state)
{
	static const char json[] =
		"{\"traceEvents\":[\n"
		"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":5,\"name\":\"Running\"},\n"
		"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":5,\"name\":\"Runnable (Preempted)\"},\n"
		"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":20,\"dur\":5,\"name\":\"Sleeping\"},\n"
		"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":30,\"dur\":5,\"name\":\"Uninterruptible Sleep (IO)\"},\n"
		"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":40,\"dur\":0,\"name\":\"sched_switch\"},\n"
		"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":50,\"dur\":0,\"name\":\"sched_waking\"},\n"
		"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":60,\"dur\":2,\"name\":\"sys_read\"}\n"
		"]}\n";
	char rules[1024];
	char *trace = tt_test_write_tmp(json, strlen(json), ".json");
	tt_trace *tr;

	(void)state;
	snprintf(rules, sizeof(rules), "%s/descriptions", tt_test_srcdir());
	setenv("TT_DESCRIPTIONS_PATH", rules, 1);
	tr = tt_test_open(trace);
	expect_tsv(tr, "select s.name, substr(d.description, 1, 30), d.doc_link from slice s "
		       "left join describe_slice d on d.slice_id = s.id order by s.ts",
		   "Running\tThe thread was on a CPU, execu\thttps://perfetto.dev/docs/data-sources/cpu-scheduling\n"
		   "Runnable (Preempted)\tThe thread was ready to run bu\thttps://perfetto.dev/docs/data-sources/cpu-scheduling\n"
		   "Sleeping\tThe thread was blocked in an i\thttps://perfetto.dev/docs/data-sources/cpu-scheduling\n"
		   "Uninterruptible Sleep (IO)\tThe thread was blocked in an u\thttps://perfetto.dev/docs/data-sources/cpu-scheduling\n"
		   "sched_switch\tThe kernel scheduler switched \thttps://docs.kernel.org/trace/events.html\n"
		   "sched_waking\tA task was made runnable (sche\thttps://perfetto.dev/docs/data-sources/cpu-scheduling\n"
		   "sys_read\tA system call (sys_read): the \thttps://docs.kernel.org/trace/events.html\n");
	tt_trace_close(tr);
	unsetenv("TT_DESCRIPTIONS_PATH");
	tt_test_rm(trace);
}

/* termtrace's own annotation and alert slices, made by tt_annotate_sql
 * after the rules were loaded (descriptions read storage live). */
static void annotation_pack(void **state)
{
	char rules[1024];
	tt_trace *tr;
	tt_err err = { 0 };

	(void)state;
	snprintf(rules, sizeof(rules), "%s/descriptions", tt_test_srcdir());
	setenv("TT_DESCRIPTIONS_PATH", rules, 1);
	tr = tt_test_open(tt_test_data("chromium-tiny.json"));
	free(tt_test_tsv(tr, "create view slow_annotations as "
			     "select 'slice' as track_type, 'slow tasks' as track_name, ts, dur, "
			     "'slow ' || name as slice_name, dur as value, "
			     "case when dur > 4000000 then 'error' end as alert_type "
			     "from slice where name = 'V8.StackGuard'"));
	if (tt_annotate_sql(tr, "slow", "slow_annotations", &err) != TT_OK)
		fail_msg("annotate: %s", err.msg);
	expect_tsv(tr, "select s.name, d.description, d.doc_link "
		       "from slice s join track t on t.id = s.track_id "
		       "left join describe_slice d on d.slice_id = s.id "
		       "where t.type = 'annotation' and s.dur in (83000, 4154000) order by s.dur",
		   "slow V8.StackGuard\tAn annotation made by the termtrace metric slow on the track "
		   "\"slow tasks\": the metric's SQL selected this interval from the trace and named it "
		   "slow V8.StackGuard. It is derived data, not an event of the traced program; the "
		   "metric's SQL file says exactly what it means.\thttps://perfetto.dev/docs/analysis/metrics\n"
		   "slow V8.StackGuard\tAn alert (error) raised by the termtrace metric slow: its SQL "
		   "flagged this interval (slow V8.StackGuard, 4.15 ms) as worth looking at. Alerts are "
		   "listed by `select * from alert`; jump between them with ] and [ in the viewer."
		   "\thttps://perfetto.dev/docs/analysis/metrics\n");
	tt_trace_close(tr);
	unsetenv("TT_DESCRIPTIONS_PATH");
}

/* LTTng: lost-event markers (with their args in the text) and the statedump
 * in a real discard-mode trace. */
static void lttng_pack(void **state)
{
	char rules[1024];
	tt_trace *tr;

	(void)state;
	snprintf(rules, sizeof(rules), "%s/descriptions", tt_test_srcdir());
	setenv("TT_DESCRIPTIONS_PATH", rules, 1);
	tr = tt_test_open(tt_test_data("ctf/lttng-ust-discarded"));
	expect_tsv(tr, "select substr(d.description, 1, 60), d.doc_link from slice s "
		       "join describe_slice d on d.slice_id = s.id "
		       "where s.name = 'lost events (685 discarded)'",
		   "The tracer dropped 685 events of stream chan0_1 here: the ch\t"
		   "https://lttng.org/docs/v2.13/#doc-channel-overwrite-mode-vs-discard-mode\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from slice s join describe_slice d "
					 "on d.slice_id = s.id where s.name like 'lost events%' and "
					 "d.description like 'The tracer dropped % events of stream chan0_%'"),
			 tt_test_int(tr, "select count(*) from slice where name like 'lost events%'"));
	assert_int_equal(tt_test_int(tr, "select count(*) from slice where name like 'lost events%'"), 15);
	expect_tsv(tr, "select distinct d.doc_link from slice s join describe_slice d "
		       "on d.slice_id = s.id where s.name like 'lttng_ust_statedump:%'",
		   "https://lttng.org/man/3/lttng-ust/v2.13/\n");
	tt_trace_close(tr);
	unsetenv("TT_DESCRIPTIONS_PATH");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(by_slice_id, setup, teardown),
		cmocka_unit_test_setup_teardown(join_on_name, setup, teardown),
		cmocka_unit_test_setup_teardown(no_row_cases, setup, teardown),
		cmocka_unit_test_setup_teardown(needs_slice_id, setup, teardown),
		cmocka_unit_test(join_many),
		cmocka_unit_test(no_rules),
		cmocka_unit_test(shipped_rules),
		cmocka_unit_test(android_pack),
		cmocka_unit_test(linux_pack),
		cmocka_unit_test(shipped_names),
		cmocka_unit_test(lttng_pack),
		cmocka_unit_test(annotation_pack),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
