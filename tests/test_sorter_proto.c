/*
 * test_sorter_proto.c - the Perfetto importer gives out what its sorter
 * holds where trace processor's sorter does (core/import/sorter.h,
 * tt_sorter_flush_until; proto_feed.c, tt_proto_read_buffers):
 *
 * trace processor (src/trace_processor/sorter/trace_sorter.h,
 * NotifyFlushEvent / NotifyReadBufferEvent, importers/proto/
 * proto_trace_reader.cc ParseServiceEvent): each TracingServiceEvent
 * all_data_sources_flushed counts a flush; at read_tracing_buffers_completed,
 * unless the sorter is in full sort, once two flushes came since the last
 * extraction, the events are extracted in (ts, arrival) order up to the
 * first one that arrived at or after the previous extraction point, and
 * this read is the next point. An event that arrives older than the last
 * one extracted is dropped (stat sorter_push_event_out_of_order). A
 * timestamp that cannot be converted before anything was extracted puts
 * the sorter in full sort (the packet is deferred to the end of the file).
 *
 * The traces are built here with protobuf-c's packers; the expected rows
 * are worked out from those rules in the comments.
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
#include "import_int.h"
#include "testutil.h"
#include "proto_tb.h"
#include "vtab.h"

/* An instant named name on the global track 200, on sequence seq; clock:
 * 0 for the trace clock. */
static void instant(tbuf *b, uint32_t seq, uint64_t ts, const char *name, uint32_t clock)
{
	Pkt p = pkt(seq, ts);
	Perfetto__Protos__TrackEvent te = PERFETTO__PROTOS__TRACK_EVENT__INIT;

	if (clock) {
		p.has_timestamp_clock_id = 1;
		p.timestamp_clock_id = clock;
	}
	te.has_type = 1;
	te.type = 3; /* TYPE_INSTANT */
	te.has_track_uuid = 1;
	te.track_uuid = 200;
	te.name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME;
	te.name = (char *)name;
	TB_PUT(b, p, TRACK_EVENT, track_event, &te);
}

static void track(tbuf *b)
{
	Pkt p = pkt(2, 1);
	Perfetto__Protos__TrackDescriptor td = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;

	td.has_uuid = 1;
	td.uuid = 200;
	td.name = "t";
	TB_PUT(b, p, TRACK_DESCRIPTOR, track_descriptor, &td);
}

/* The service's events, on its own sequence 1, as it writes them. */
enum { FLUSHED, READ };

static void service(tbuf *b, uint64_t ts, int what)
{
	Pkt p = pkt(1, ts);
	Perfetto__Protos__TracingServiceEvent se = PERFETTO__PROTOS__TRACING_SERVICE_EVENT__INIT;

	if (what == FLUSHED) {
		se.event_type_case = PERFETTO__PROTOS__TRACING_SERVICE_EVENT__EVENT_TYPE_ALL_DATA_SOURCES_FLUSHED;
		se.all_data_sources_flushed = 1;
	} else {
		se.event_type_case = PERFETTO__PROTOS__TRACING_SERVICE_EVENT__EVENT_TYPE_READ_TRACING_BUFFERS_COMPLETED;
		se.read_tracing_buffers_completed = 1;
	}
	TB_PUT(b, p, SERVICE_EVENT, service_event, &se);
}

/* A flush cycle of the service: two flushes, then the read. */
static void cycle(tbuf *b, uint64_t ts)
{
	service(b, ts, FLUSHED);
	service(b, ts + 1, FLUSHED);
	service(b, ts + 2, READ);
}

/* Imports path on one thread or with the reader's and the merge's threads;
 * the instants in the order they were given to the trackers (slice ids),
 * then the non-zero stats. */
static char *import_rows(const char *path, int threaded)
{
	tt_err err = {0};
	tt_storage *st = tt_storage_new();
	tt_bytesrc *src = tt_bytesrc_open(path, &err);
	tt_import im = { .st = st, .path = path, .err = &err };
	sqlite3 *db = NULL;
	sqlite3_stmt *q;
	tbuf out = {0};

	assert_non_null(st);
	assert_non_null(src);
	assert_int_equal(tt_import_begin(&im), 0);
	im.opts.proto_one_thread = !threaded;
	im.opts.proto_batch = 2; /* service events in batches of their own too */
	assert_int_equal(tt_import_proto(&im, src), TT_OK);
	tt_import_end(&im);
	tt_bytesrc_close(src);
	tt_storage_finalize(st);
	assert_int_equal(sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL),
			 SQLITE_OK);
	assert_int_equal(tt_vtab_register_core(db, st), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db,
					    "select ts || ' ' || name from slice "
					    "union all select * from (select name || '=' || value from stats "
					    "where value != 0 and name in ('sorter_push_event_out_of_order', "
					    "'proto_clock_unknown', 'proto_unknown_field') order by name)",
					    -1, &q, NULL),
			 SQLITE_OK);
	while (sqlite3_step(q) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(q, 0);

		tb_raw(&out, v, strlen(v));
		tb_raw(&out, ";", 1);
	}
	tb_raw(&out, "", 1);
	sqlite3_finalize(q);
	sqlite3_close(db);
	tt_storage_free(st);
	return (char *)out.p;
}

static void assert_rows(tbuf *b, const char *want)
{
	char *path = tt_test_write_tmp(b->p, b->n, ".pftrace");

	for (int threaded = 0; threaded < 2; threaded++) {
		char *got = import_rows(path, threaded);

		if (strcmp(got, want) != 0)
			fail_msg("threaded %d:\n got  %s\n want %s", threaded, got, want);
		free(got);
	}
	unlink(path);
	free(path);
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/* The events of the test traces, before and after the flush cycles. */
static void body(tbuf *b, int unknown_clock)
{
	track(b);
	instant(b, 2, 100, "a", 0);        /* ord 0 */
	instant(b, 3, 300, "b", 0);        /* ord 1: out of order across sequences */
	instant(b, 2, 200, "c", 0);        /* ord 2 */
	if (unknown_clock)                 /* MONOTONIC, no snapshot: kept as is */
		instant(b, 3, 400, "u", 3);
	/* first extraction: up to the start (nothing); the point is now */
	cycle(b, 500);
	instant(b, 2, 150, "d", 0);        /* after the point, older than c and b */
	instant(b, 3, 120, "e", 0);        /* after the point, older than d */
	/* second extraction, up to the first point: in order a(100) e(120)
	 * d(150) c(200) b(300): a goes, e arrived after the point and stops
	 * it (c and b, pushed before it, wait behind it) */
	cycle(b, 600);
	instant(b, 2, 90, "f", 0);         /* older than a, given out: late */
	instant(b, 3, 100, "g", 0);        /* as old as a: not late */
	service(b, 700, READ);             /* no flushes since: nothing */
}

/* Extraction at the service's read points, with out-of-order events
 * inside and across them: a record older than what went out is dropped
 * and counted; the rest comes out in (ts, arrival) order. */
static void test_read_buffer_points(void **state)
{
	tbuf b = {0};

	(void)state;
	body(&b, 0);
	assert_rows(&b, "100 a;100 g;120 e;150 d;200 c;300 b;sorter_push_event_out_of_order=1;");
}

/* One flush per read: the second read (two flushes since the start)
 * extracts up to the start, nothing; the third has one flush since: no
 * extraction. Nothing is late: the full sort's rows. */
static void test_one_flush_holds(void **state)
{
	tbuf b = {0};

	(void)state;
	track(&b);
	instant(&b, 2, 100, "a", 0);
	service(&b, 150, FLUSHED);
	service(&b, 151, READ);
	instant(&b, 2, 110, "b", 0);
	service(&b, 160, FLUSHED);
	service(&b, 161, READ);
	instant(&b, 2, 50, "c", 0);
	service(&b, 170, FLUSHED);
	service(&b, 171, READ);
	assert_rows(&b, "50 c;100 a;110 b;");
}

/* A timestamp that does not convert before the first extraction: trace
 * processor defers its packet and sorts the whole file; f is kept. */
static void test_unconvertible_clock_full_sort(void **state)
{
	tbuf b = {0};

	(void)state;
	body(&b, 1);
	assert_rows(&b, "90 f;100 a;100 g;120 e;150 d;200 c;300 b;400 u;proto_clock_unknown=1;");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_buffer_points),
		cmocka_unit_test(test_one_flush_holds),
		cmocka_unit_test(test_unconvertible_clock_full_sort),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
