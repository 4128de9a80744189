/*
 * test_strace.c - strace's text output as a trace (core/import/strace/):
 * the parts of a line (every kind of call, the pid, the time, what is not
 * a call), and traces the tests write: calls as slices on their threads
 * with args and ret, unfinished calls ended by their resumed lines,
 * lines out of order, the stats and warning of skipped lines, refusal of
 * a file with no call; and the real strace of a shell
 * (tests/data/strace-bash.strace).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strace.h"
#include "testutil.h"

/* The parts of line as "kind|pid|ts|name|args|ret", or "bad" / "clock". */
static const char *parts(const char *line)
{
	static char out[512];
	tt_strace_line l;

	switch (tt_strace_line_read(line, strlen(line), &l)) {
	case TT_STRACE_NOT_A_CALL:
		return "bad";
	case TT_STRACE_WALL_CLOCK:
		return "clock";
	default:
		break;
	}
	snprintf(out, sizeof(out), "%d|%lld|%lld|%.*s|%.*s|%.*s", l.kind, (long long)l.pid, (long long)l.ts,
		 (int)l.name_len, l.name, l.args ? (int)l.args_len : 4, l.args ? l.args : "NULL",
		 l.ret ? (int)l.ret_len : 4, l.ret ? l.ret : "NULL");
	return out;
}

static void line_parts(void **state)
{
	(void)state;
	assert_string_equal(parts("1000 1700000052.321000 openat(AT_FDCWD, \"/etc/passwd\", O_RDONLY) = 3"),
			    "0|1000|1700000052321000000|openat|AT_FDCWD, \"/etc/passwd\", O_RDONLY|3");
	/* an errno and its text stay in ret; no pid (no -f) */
	assert_string_equal(parts("1700000052.5 access(\"/x\", R_OK) = -1 ENOENT (No such file or directory)"),
			    "0|-1|1700000052000005000|access|\"/x\", R_OK|-1 ENOENT (No such file or directory)");
	/* a ')' inside the args does not end them: the one before '=' does */
	assert_string_equal(parts("7 1.000001 write(1, \"a) b\", 4)   = 4"), "0|7|1000001000|write|1, \"a) b\", 4|4");
	assert_string_equal(parts("7 1.000001 getpid()          = 7"), "0|7|1000001000|getpid|NULL|7");
	assert_string_equal(parts("7 1.000002 epoll_wait(4,  <unfinished ...>"), "1|7|1000002000|epoll_wait|4|NULL");
	assert_string_equal(parts("7 1.000003 <... epoll_wait resumed> [], 64, 100) = 0"),
			    "2|7|1000003000|epoll_wait|[], 64, 100|0");
	assert_string_equal(parts("7 1.000004 <... read resumed> \"x\", <unfinished ...>"),
			    "3|7|1000004000|read|\"x\"|NULL");
	/* a call with no ')' before its '=': the return value alone */
	assert_string_equal(parts("7 1.000005 exit_group(0 = ?"), "0|7|1000005000|exit_group|NULL|?");
	assert_string_equal(parts("7 14:32:01.123456 read(3) = 1"), "clock");
	assert_string_equal(parts("--- SIGCHLD {si_signo=SIGCHLD} ---"), "bad");
	assert_string_equal(parts("+++ exited with 0 +++"), "bad");
	assert_string_equal(parts("7 1.5 +++ exited with 0 +++"), "bad");
	assert_string_equal(parts("7 1.5 <... read resumed"), "bad");
	assert_string_equal(parts("7 1.1234567 read(3) = 1"), "bad"); /* more than microseconds */
	assert_string_equal(parts(""), "bad");
	assert_string_equal(parts("hello"), "bad");
}

static tt_trace *open_text(const char *text, char **path)
{
	return tt_test_open_text(text, strlen(text), ".strace", path);
}

static void calls_as_slices(void **state)
{
	/* thread 11's read interrupted by thread 12's calls, then resumed;
	 * 12's lines written out of order */
	static const char text[] =
		"11 100.000001 openat(AT_FDCWD, \"/etc/hosts\", O_RDONLY) = 3\n"
		"11 100.000010 read(3,  <unfinished ...>\n"
		"12 100.000030 close(5)                = 0\n"
		"12 100.000020 futex(0x10, FUTEX_WAKE, 1) = 1\n"
		"11 100.000050 <... read resumed> \"127.0.0.1\", 4096) = 10\n"
		"--- SIGCHLD {si_signo=SIGCHLD} ---\n"
		"11 100.000060 +++ exited with 0 +++\n";
	char *p;
	tt_trace *tr = open_text(text, &p);

	(void)state;
	assert_string_equal(tt_trace_format(tr), "strace");
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.category, s.name, t.tid, extract_arg(s.arg_set_id, 'args'),"
			       " extract_arg(s.arg_set_id, 'ret') from slice s join thread_track tt on s.track_id = tt.id"
			       " join thread t using(utid) order by s.ts",
			   "100000001000\t0\tstrace\topenat\t11\tAT_FDCWD, \"/etc/hosts\", O_RDONLY\t3\n"
			   "100000010000\t40000\tstrace\tread\t11\t\"127.0.0.1\", 4096\t10\n"
			   "100000020000\t0\tstrace\tfutex\t12\t0x10, FUTEX_WAKE, 1\t1\n"
			   "100000030000\t0\tstrace\tclose\t12\t5\t0\n");
	assert_int_equal(tt_test_stat(tr, "strace_parse_failure"), 2);
	assert_string_equal(tt_test_str(tr, "select str_value from metadata where name = 'import_warning'"),
			    "2 lines not strace calls, skipped (first: line 6: --- SIGCHLD {si_signo=SIGCHLD} ---)");
	tt_test_close_text(tr, p);
}

static void skipped_lines(void **state)
{
	static const char text[] =
		"11 100.000001 getpid() = 11\n"
		"11 14:32:01 getpid() = 11\n"
		"100.000003 getpid() = 11\n"
		"11 100.000004 getpid() = 11";
	char *p;
	tt_trace *tr = open_text(text, &p);
	tt_err err = { 0 };
	char *q;

	(void)state;
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 1);
	assert_int_equal(tt_test_stat(tr, "strace_unsupported_timestamp_format"), 1);
	assert_int_equal(tt_test_stat(tr, "strace_missing_pid"), 1);
	assert_int_equal(tt_test_stat(tr, "strace_parse_failure"), 0);
	assert_string_equal(tt_test_str(tr, "select str_value from metadata where name = 'import_warning'"),
			    "1 line timed by the wall clock (not -ttt), skipped (first: line 2: 11 14:32:01 getpid() = 11); "
			    "1 line without a pid (not strace -f), skipped (first: line 3: 100.000003 getpid() = 11); "
			    "the last line (27 bytes) has no newline: not read");
	tt_test_close_text(tr, p);

	/* not one call: refused, naming the first line (strace without -f) */
	q = tt_test_write_tmp("100.1 getpid() = 1\n100.2 getpid() = 1\n", 38, ".strace");
	assert_null(tt_trace_open(q, NULL, &err));
	assert_non_null(strstr(err.msg, ": line 1 is not a call strace -f -ttt writes: 100.1 getpid() = 1"));
	tt_test_rm(q);
}

static void real_strace(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("strace-bash.strace"));

	(void)state;
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 757);
	assert_int_equal(tt_test_int(tr, "select count(*) from thread where tid > 0"), 5);
	/* every unfinished call was resumed: none left open */
	assert_int_equal(tt_test_int(tr, "select count(*) from slice where dur < 0"), 0);
	tt_test_assert_tsv(tr, "select name, extract_arg(arg_set_id, 'ret') from slice order by ts limit 2",
			   "execve\t0\nbrk\t0x55dfbefbe000\n");
	assert_int_equal(tt_test_stat(tr, "strace_parse_failure"), 9);
	tt_trace_close(tr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(line_parts),
		cmocka_unit_test(calls_as_slices),
		cmocka_unit_test(skipped_lines),
		cmocka_unit_test(real_strace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
