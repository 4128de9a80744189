/*
 * test_proto_chrome.c - Chrome's track event features as trace processor
 * imports them: LOG() lines on track events (args under
 * track_event.log_message, a log row of the event's thread, tag
 * "file:line", INFO when no priority; a missing body is an error and no
 * row), and sandboxed threads' synthetic tids (pid << 32 | tid). Traces
 * written by the tests (protobuf-c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto_trace.pb-c.h"
#include "proto_tb.h"
#include "testutil.h"

typedef Perfetto__Protos__TrackEvent TEv;
typedef Perfetto__Protos__TrackDescriptor TDesc;

/* Thread track uuid (pid, tid), sandboxed or not. */
static void put_thread(tbuf *b, uint64_t uuid, int32_t pid, int32_t tid, const char *name, int sandboxed)
{
	Perfetto__Protos__ThreadDescriptor th = PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;
	Perfetto__Protos__ChromeThreadDescriptor ct = PERFETTO__PROTOS__CHROME_THREAD_DESCRIPTOR__INIT;
	TDesc td = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
	Pkt p = pkt(1, 1);

	th.has_pid = th.has_tid = 1;
	th.pid = pid;
	th.tid = tid;
	th.thread_name = (char *)name;
	td.has_uuid = 1;
	td.uuid = uuid;
	td.thread = &th;
	if (sandboxed) {
		ct.has_is_sandboxed_tid = 1;
		ct.is_sandboxed_tid = 1;
		td.chrome_thread = &ct;
	}
	TB_PUT(b, p, TRACK_DESCRIPTOR, track_descriptor, &td);
}

/* An instant on uuid at ts with a log message of body iid 1 (interned
 * here when body is set) and source location iid 3 when loc. */
static void put_log(tbuf *b, uint64_t uuid, uint64_t ts, const char *body, int loc, int prio)
{
	Perfetto__Protos__LogMessage lm = PERFETTO__PROTOS__LOG_MESSAGE__INIT;
	Perfetto__Protos__LogMessageBody lb = PERFETTO__PROTOS__LOG_MESSAGE_BODY__INIT, *lbp = &lb;
	Perfetto__Protos__SourceLocation sl = PERFETTO__PROTOS__SOURCE_LOCATION__INIT, *slp = &sl;
	Perfetto__Protos__InternedData in = PERFETTO__PROTOS__INTERNED_DATA__INIT;
	TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	Pkt p = pkt(1, ts);

	lm.has_body_iid = 1;
	lm.body_iid = 1;
	if (loc) {
		lm.has_source_location_iid = 1;
		lm.source_location_iid = 3;
		sl.has_iid = sl.has_line_number = 1;
		sl.iid = 3;
		sl.file_name = "foo.cc";
		sl.function_name = "Run";
		sl.line_number = 123;
		in.n_source_locations = 1;
		in.source_locations = &slp;
	}
	if (prio) {
		lm.has_prio = 1;
		lm.prio = prio;
	}
	if (body) {
		lb.has_iid = 1;
		lb.iid = 1;
		lb.body = (char *)body;
		in.n_log_message_body = 1;
		in.log_message_body = &lbp;
	}
	p.interned_data = &in;
	te.has_track_uuid = te.has_type = 1;
	te.track_uuid = uuid;
	te.type = 3; /* instant */
	te.name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME;
	te.name = "log";
	te.log_message = &lm;
	TB_PUT(b, p, TRACK_EVENT, track_event, &te);
}

static void log_messages(void **state)
{
	tbuf b = { 0 };
	char *path;
	tt_trace *tr;

	(void)state;
	put_thread(&b, 1, 10, 11, "main", 0);
	put_log(&b, 1, 100, "hello", 1, 0);
	put_log(&b, 1, 200, "careful", 1, 5);
	put_log(&b, 1, 300, "where?", 0, 0);
	put_log(&b, 1, 400, NULL, 1, 0); /* body iid 1 was interned in another packet: still there */
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select l.ts, t.tid, l.tag, l.msg, l.prio from android_logs l join thread t using(utid)"
			       " order by l.ts",
			   "100\t11\tfoo.cc:123\thello\t4\n"
			   "200\t11\tfoo.cc:123\tcareful\t5\n"
			   "300\t11\tNULL\twhere?\t4\n"
			   "400\t11\tfoo.cc:123\twhere?\t4\n");
	tt_test_assert_tsv(tr, "select a.key, a.display_value from slice s join args a using(arg_set_id)"
			       " where s.ts = 200 and a.key glob 'track_event.*' order by a.id",
			   "track_event.log_message.message\tcareful\n"
			   "track_event.log_message.file_name\tfoo.cc\n"
			   "track_event.log_message.function_name\tRun\n"
			   "track_event.log_message.line_number\t123\n"
			   "track_event.priority\t5\n");
	assert_int_equal(tt_test_stat(tr, "track_event_parser_errors"), 0);
	tb_close(tr, path, &b);

	/* a body never interned: an error, no row, no args */
	put_thread(&b, 1, 10, 11, "main", 0);
	put_log(&b, 1, 100, NULL, 1, 0);
	tr = tb_open_file(&b, &path);
	assert_int_equal(tt_test_int(tr, "select count(*) from android_logs"), 0);
	assert_int_equal(tt_test_int(tr, "select count(*) from args where key glob 'track_event.log*'"), 0);
	assert_int_equal(tt_test_stat(tr, "track_event_parser_errors"), 1); /* (once, as there) */
	tb_close(tr, path, &b);
}

static void sandboxed_tids(void **state)
{
	tbuf b = { 0 };
	char *path;
	tt_trace *tr;

	(void)state;
	/* tid 1 in two sandboxed processes: two threads, told apart */
	put_thread(&b, 1, 1234, 1, "renderer", 1);
	put_thread(&b, 2, 1235, 1, "gpu", 1);
	put_thread(&b, 3, 1236, 7, "plain", 0);
	put_log(&b, 1, 100, "a", 0, 0);
	put_log(&b, 2, 110, "b", 0, 0);
	put_log(&b, 3, 120, "c", 0, 0);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select t.tid, t.name, p.pid from thread t join process p using(upid)"
			       " where t.tid > 0 and t.name is not null order by t.tid",
			   "7\tplain\t1236\n5299989643265\trenderer\t1234\n5304284610561\tgpu\t1235\n");
	tt_test_assert_tsv(tr, "select l.msg, t.tid from android_logs l join thread t using(utid) order by l.ts",
			   "a\t5299989643265\nb\t5304284610561\nc\t7\n");
	tb_close(tr, path, &b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(log_messages),
		cmocka_unit_test(sandboxed_tids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
