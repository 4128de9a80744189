/*
 * test_systrace_file.c - systrace files opened as traces of their own
 * (core/import/systrace/import_systrace.c): the kernel's trace file
 * captured from tracefs (tests/data/kernel-ftrace.txt: sched, cpu_idle,
 * workqueue events and atrace markers written to trace_marker by two
 * shells), and traces the tests write for each form and edge: what atrace
 * prints before "TRACE:", trace-cmd's "cpus=" line, systrace's HTML page
 * with its process dumps, atrace -z's zlib, lines out of ts order, lines
 * that are not ftrace text, a last line without its newline, a file
 * larger than one read.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "import_int.h"
#include "testutil.h"

/* A sched_switch / atrace marker line of the kernel's form (tgid column
 * and five flag characters, as record-tgid writes them). */
#define SW(task, pid, cpu, ts, prev, ppid, next, npid)                                                        \
	"  " task "-" #pid " ( " #pid ") [00" #cpu "] d..2. " ts ": sched_switch: prev_comm=" prev " prev_pid=" #ppid \
	" prev_prio=120 prev_state=S ==> next_comm=" next " next_pid=" #npid " next_prio=120\n"
#define MARK(task, pid, ts, text) MARKT(task, pid, pid, ts, text)
#define MARKT(task, tid, tgid, ts, text) \
	"  " task "-" #tid " ( " #tgid ") [000] ...1. " ts ": tracing_mark_write: " text "\n"

static const char k_lines[] =
	MARK("app", 100, "10.000100", "B|100|outer")
	MARK("app", 100, "10.000200", "B|100|inner")
	MARK("app", 100, "10.000300", "E|100")
	MARK("app", 100, "10.000400", "E|100")
	MARK("app", 100, "10.000500", "C|100|queued|3");

static tt_trace *open_text(const char *text, size_t len, char **path)
{
	return tt_test_open_text(text, len, ".systrace", path);
}

/* The error tt_trace_open gives for text ("" when it opens). */
static const char *open_error(const void *text, size_t len)
{
	static char msg[512];
	char *p = tt_test_write_tmp(text, len, ".systrace");
	tt_err err = { 0 };
	tt_trace *tr = tt_trace_open(p, NULL, &err);

	msg[0] = '\0';
	if (tr)
		tt_trace_close(tr);
	else
		snprintf(msg, sizeof(msg), "%s", err.msg + strlen(p)); /* after the file's name */
	tt_test_rm(p);
	return msg;
}

/* ---- sniffing -------------------------------------------------------------------- */

static void sniff_signs(void **state)
{
	static const struct { const char *head; int want; } cases[] = {
		{ "# tracer: nop\n", TT_SYSTRACE_TEXT },
		{ "\n# tracer: nop\n", TT_SYSTRACE_TEXT },
		{ "<!DOCTYPE html>\n<html>", TT_SYSTRACE_TEXT },
		{ "<HTML>\n", TT_SYSTRACE_TEXT },
		{ "capturing trace... done\nTRACE:\n# tracer", TT_SYSTRACE_TEXT },
		{ "cpus=8\n", TT_SYSTRACE_TEXT },
		{ "          <idle>-0     [001] d..2  1.0: sched_switch: x", TT_SYSTRACE_TEXT },
		{ "done\nTRACE:\n\x78\x9c", TT_SYSTRACE_ZLIB },
		{ "TRACE:\n\x78\xda", TT_SYSTRACE_ZLIB },
		{ "TRACE:\n\x78\x9d", TT_SYSTRACE_TEXT }, /* no zlib header: its check bits are wrong */
		{ "<idle>-0 [001] d..2 1.0: sched_switch", 0 },
		{ "hello", 0 },
		{ "<?xml version", 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (tt_systrace_sniff((const unsigned char *)cases[i].head, strlen(cases[i].head)) != cases[i].want)
			fail_msg("case %zu (%s): not %d", i, cases[i].head, cases[i].want);
	{
		/* the signs count in the first 128 bytes only */
		char far[300];

		memset(far, 'x', sizeof(far));
		memcpy(far + 200, "# tracer", 8);
		assert_int_equal(tt_systrace_sniff((const unsigned char *)far, sizeof(far)), 0);
	}
}

/* ---- the kernel's own trace file ---------------------------------------------- */

static void kernel_trace(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("kernel-ftrace.txt"));

	(void)state;
	assert_string_equal(tt_trace_format(tr), "systrace");
	assert_string_equal(tt_test_str(tr, "select str_value from metadata where name = 'trace_type'"), "systrace");
	assert_int_equal(tt_test_int(tr, "select count(*) from sched"), 124);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 14);
	assert_int_equal(tt_test_int(tr, "select count(*) from counter c join track t on c.track_id = t.id "
					 "where t.name = 'cpuidle'"), 10);
	assert_int_equal(tt_test_int(tr, "select min(ts) from sched"), 71309421899000);
	assert_int_equal(tt_test_int(tr, "select count(*) from sched where ts_end != ts + dur"), 0);
	/* the cpu_idle counter: a cpu counter track, not a cpu (slice) track */
	tt_test_assert_tsv(tr, "select name, cpu from cpu_counter_track", "cpuidle\t0\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from cpu_track"), 0);
	/* pid 0 is the idle task */
	tt_test_assert_tsv(tr, "select utid, tid, name, upid from thread where utid = 0", "0\t0\tswapper\t0\n");
	tt_test_assert_tsv(tr, "select group_concat(utid) from thread where is_idle", "0\n");
	/* atrace markers: nesting, threads of the tgid column's process */
	tt_test_assert_tsv(tr,
			   "select s.ts, s.dur, s.depth, s.name, t.tid, p.pid from slice s join thread_track tt on "
			   "s.track_id = tt.id join thread t using(utid) join process p using(upid) "
			   "where t.tid = 9799 order by s.ts limit 3",
			   "71309424238000\t26556000\t0\tframe 1\t9799\t9799\n"
			   "71309424269000\t26461000\t1\tdraw\t9799\t9799\n"
			   "71309450823000\t25163000\t0\tframe 2\t9799\t9799\n");
	/* the async pair and the counter of the first shell */
	assert_int_equal(tt_test_int(tr, "select dur from slice where name = 'load'"), 52389000);
	tt_test_assert_tsv(tr, "select group_concat(cast(value as int), ',') from counter c join track t on "
			       "c.track_id = t.id where t.name = 'queued'", "1,2,3\n");
	/* workqueue slices on the kworker */
	assert_int_equal(tt_test_int(tr, "select count(*) from slice s join thread_track tt on s.track_id = tt.id "
					 "join thread t using(utid) where t.name = 'kworker/1:2'"), 4);
	/* the kernel lost switches on cpu 1 (a prev_pid that the cpu did not
	 * run): counted, as trace processor counts them */
	assert_int_equal(tt_test_stat(tr, "mismatched_sched_switch_tids"), 29);
	assert_int_equal(tt_test_stat(tr, "systrace_parse_failure"), 0);
	tt_trace_close(tr);
}

/* ---- what comes before the trace ------------------------------------------------ */

static void atrace_preamble_and_cpus_line(void **state)
{
	char text[4096];
	char *p;
	tt_trace *tr;

	(void)state;
	/* adb's stderr and atrace's "done" before TRACE:, trace-cmd's cpus= */
	snprintf(text, sizeof(text), "warning: something\ncapturing trace... done\nTRACE:\ncpus=2\n%s", k_lines);
	tr = open_text(text, strlen(text), &p);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 2);
	assert_int_equal(tt_test_stat(tr, "systrace_parse_failure"), 0);
	tt_test_close_text(tr, p);

	/* a TRACE: past the first 128 bytes is not looked for: the text
	 * before it is read as lines (two are not ftrace text) */
	snprintf(text, sizeof(text), " %0200d\nTRACE:\n%s", 0, k_lines);
	tr = open_text(text, strlen(text), &p);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 2);
	assert_int_equal(tt_test_stat(tr, "systrace_parse_failure"), 2);
	assert_non_null(strstr(tt_test_str(tr, "select str_value from metadata where name = 'import_warning'"),
			       "2 lines are not ftrace text, skipped (first: line 1: "));
	tt_test_close_text(tr, p);
}

/* ---- systrace's HTML page ---------------------------------------------------- */

static void html_page(void **state)
{
	static const char page[] =
		"<!DOCTYPE html>\n<html>\n<head>\n"
		"<script>var x = '# TASK-PID';</script>\n"
		/* not application/text: not read */
		"<script class=\"trace-data\" type=\"application/json\">\n# TASK-PID\n" MARK("no", 5, "1.0", "B|5|never")
		"</script>\n"
		"<script class=\"trace-data\" type=\"application/text\">\nPROCESS DUMP\n"
		"USER PID PPID VSZ RSS WCHAN PC S NAME COMMAND\n"
		"root 1 0 100 10 0 0 S init /init\n"
		"u0_a1 100 1 200 20 0 0 S com.example.app com.example.app --flag\n"
		"short line\n"
		"</script>\n"
		"<script class=\"trace-data\" type=\"application/text\">\nPROCESS DUMP\nUSER PID TID CMD\n"
		"u0_a1 100 101 RenderThread x\n"
		"</script>\n"
		"<script class=\"trace-data\" type=\"application/text\">\nCGROUP DUMP\n" MARK("no", 6, "1.0", "B|6|never")
		"</script>\n"
		"<script class=\"trace-data\" type=\"application/text\">\n"
		"# tracer: nop\n#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
		MARK("app", 100, "10.000100", "B|100|outer")
		MARKT("RenderThread", 101, 100, "10.000150", "B|100|render")
		MARKT("RenderThread", 101, 100, "10.000250", "E|100")
		MARK("app", 100, "10.000400", "E|100")
		"  </script>\n"
		/* after the ftrace text's end nothing is read */
		"<script class=\"trace-data\" type=\"application/text\">\n# TASK-PID\n" MARK("no", 7, "1.0", "B|7|never")
		"</script>\n</body>\n</html>\n";
	char *p;
	tt_trace *tr = open_text(page, sizeof(page) - 1, &p);

	(void)state;
	tt_test_assert_tsv(tr, "select name, dur from slice order by ts", "outer\t300000\nrender\t100000\n");
	tt_test_assert_tsv(tr,
			   "select p.pid, p.name, pp.pid, p.cmdline from process p left join process pp on "
			   "p.parent_upid = pp.upid where p.pid in (1, 100) order by p.pid",
			   "1\tinit\t0\t\n100\tcom.example.app\t1\t\n");
	/* the dump's thread name ranks lowest: ftrace's task name stays */
	tt_test_assert_tsv(tr, "select tid, name, (select pid from process where upid = thread.upid) from thread "
			       "where tid = 101", "101\tRenderThread\t100\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from thread where tid in (5, 6, 7)"), 0);
	tt_test_close_text(tr, p);
}

static void html_dump_without_pid(void **state)
{
	static const char page[] =
		"<html>\n<script class=\"trace-data\" type=\"application/text\">\nPROCESS DUMP\n"
		"USER PID PPID VSZ RSS WCHAN PC S NAME COMMAND\n"
		"root one 0 100 10 0 0 S init /init\n</script>\n";

	(void)state;
	assert_string_equal(open_error(page, sizeof(page) - 1),
			    ": line 5: a PROCESS DUMP line without pid and ppid: root one 0 100 10 0 0 S init /init");
}

/* ---- atrace -z ---------------------------------------------------------------- */

/* prefix, then text zlib-compressed: *len bytes, malloc'ed. */
static unsigned char *ctrace(const char *prefix, const char *text, size_t *len)
{
	size_t pl = strlen(prefix);
	uLongf zn = compressBound(strlen(text));
	unsigned char *out = malloc(pl + zn);

	assert_non_null(out);
	memcpy(out, prefix, pl);
	assert_int_equal(compress(out + pl, &zn, (const Bytef *)text, strlen(text)), Z_OK);
	*len = pl + zn;
	return out;
}

static void compressed_atrace(void **state)
{
	size_t n;
	unsigned char *z = ctrace("capturing trace... done\nTRACE:\n", k_lines, &n);
	char *p;
	tt_trace *tr = open_text((const char *)z, n, &p);

	(void)state;
	assert_string_equal(tt_trace_format(tr), "systrace");
	tt_test_assert_tsv(tr, "select name, ts, dur, depth from slice order by ts",
			   "outer\t10000100000\t300000\t0\ninner\t10000200000\t100000\t1\n");
	tt_test_close_text(tr, p);

	/* cut short, and a byte broken: one line each, with where */
	{
		char want[100];

		snprintf(want, sizeof(want), ": compressed systrace is cut short (ends at byte %zu)", n - 6);
		assert_string_equal(open_error(z, n - 6), want);
	}
	z[40] ^= 0x55;
	assert_non_null(strstr(open_error(z, n), ": compressed systrace is corrupt near byte"));
	free(z);
}

/* ---- lines ------------------------------------------------------------------------ */

static void lines_sorted_by_ts(void **state)
{
	/* written out of order (per-cpu buffers merged by hand, say): parsed
	 * in ts order, the file's order kept among equal ts */
	static const char text[] =
		"# tracer: nop\n"
		MARK("app", 100, "10.000300", "E|100")
		MARK("app", 100, "10.000100", "B|100|first")
		MARK("app", 100, "10.000100", "B|100|second")
		MARK("app", 100, "10.000200", "E|100");
	char *p;
	tt_trace *tr = open_text(text, sizeof(text) - 1, &p);

	(void)state;
	tt_test_assert_tsv(tr, "select name, dur, depth from slice order by id", "first\t200000\t0\nsecond\t100000\t1\n");
	tt_test_close_text(tr, p);
}

static void bad_lines(void **state)
{
	char text[2048];
	char *p;
	tt_trace *tr;

	(void)state;
	snprintf(text, sizeof(text), "# tracer: nop\n%snot a line\nnor this one\n\n", k_lines);
	tr = open_text(text, strlen(text), &p);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 2);
	assert_int_equal(tt_test_stat(tr, "systrace_parse_failure"), 2);
	assert_string_equal(tt_test_str(tr, "select str_value from metadata where name = 'import_warning'"),
			    "2 lines are not ftrace text, skipped (first: line 7: not a line)");
	tt_test_close_text(tr, p);

	/* not one line of ftrace text: refused, with the first */
	assert_string_equal(open_error("# tracer: nop\nhello\nworld\n", 26), ": line 2 is not ftrace text: hello");
}

static void last_line_without_newline(void **state)
{
	char text[2048];
	char *p;
	tt_trace *tr;

	(void)state;
	/* trace processor reads a line at its newline: the last marker (an
	 * end) is not read, so the slice it would end stays open */
	snprintf(text, sizeof(text), "# tracer: nop\n%s", k_lines);
	text[strlen(text) - 1] = '\0';
	tr = open_text(text, strlen(text), &p);
	assert_int_equal(tt_test_int(tr, "select count(*) from counter"), 0);
	assert_int_equal(tt_test_stat(tr, "systrace_line_unterminated"), 1);
	{
		char want[100];

		snprintf(want, sizeof(want), "the last line (74 bytes from text byte %zu) has no newline: not read",
			 strlen(text) - 74);
		assert_string_equal(tt_test_str(tr, "select str_value from metadata where name = 'import_warning'"),
				    want);
	}
	tt_test_close_text(tr, p);
}

static void larger_than_a_read(void **state)
{
	/* 5.5 MB: lines cross the reader's 4 MB reads */
	enum { PAIRS = 40000 };
	size_t cap = (size_t)PAIRS * 2 * 100 + 64, n = 0;
	char *text = malloc(cap);
	char *p;
	tt_trace *tr;

	(void)state;
	assert_non_null(text);
	n += (size_t)snprintf(text + n, cap - n, "# tracer: nop\n");
	for (int i = 0; i < PAIRS; i++) {
		n += (size_t)snprintf(text + n, cap - n,
				      "  worker-%d ( 100) [001] ...1. %d.%06d: tracing_mark_write: B|100|job %d\n",
				      200 + i % 7, 20 + i / 100000, (i * 10) % 1000000, i % 13);
		n += (size_t)snprintf(text + n, cap - n,
				      "  worker-%d ( 100) [001] ...1. %d.%06d: tracing_mark_write: E|100\n", 200 + i % 7,
				      20 + i / 100000, (i * 10 + 5) % 1000000);
	}
	assert_true(n > (5u << 20));
	tr = open_text(text, n, &p);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), PAIRS);
	assert_int_equal(tt_test_int(tr, "select count(distinct dur) from slice"), 1);
	assert_int_equal(tt_test_int(tr, "select count(*) from thread where tid between 200 and 206"), 7);
	assert_int_equal(tt_test_stat(tr, "systrace_parse_failure"), 0);
	tt_test_close_text(tr, p);
	free(text);
}

static void endless_line(void **state)
{
	/* 65 MiB without a newline: refused with where, not read for ever */
	size_t n = (65u << 20) + 10;
	char *text = malloc(n);
	char *p;
	tt_err err = { 0 };

	(void)state;
	assert_non_null(text);
	memcpy(text, "# tracer: nop\n ", 15);
	memset(text + 15, 'x', n - 15);
	p = tt_test_write_tmp(text, n, ".systrace");
	assert_null(tt_trace_open(p, NULL, &err));
	assert_non_null(strstr(err.msg, ": line 2 is longer than 64 MiB"));
	tt_test_rm(p);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sniff_signs),
		cmocka_unit_test(kernel_trace),
		cmocka_unit_test(atrace_preamble_and_cpus_line),
		cmocka_unit_test(html_page),
		cmocka_unit_test(html_dump_without_pid),
		cmocka_unit_test(compressed_atrace),
		cmocka_unit_test(lines_sorted_by_ts),
		cmocka_unit_test(bad_lines),
		cmocka_unit_test(last_line_without_newline),
		cmocka_unit_test(larger_than_a_read),
		cmocka_unit_test(endless_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
