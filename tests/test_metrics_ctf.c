/*
 * test_metrics_ctf.c - lost_events on CTF traces written by the test
 * (tests/ctf_writer.c) with discarded events at known places: each discard
 * is one error alert over the gap, linked to the importer's "lost events"
 * slice, and the totals match what was discarded.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf_writer.c"
#include "metrics.h"
#include "metrics.pb-c.h"
#include "testutil.h"

static void test_lost_events_written_ctf(void **state)
{
	char *dir = tt_test_mkdtemp(), *cfg = tt_test_mkdtemp();
	ctfw_opts o = { .nstreams = 2, .packet_bytes = 512, .offset_s = 1000 };
	ctfw *w = ctfw_open(dir, &o);
	ProtobufCMessage *msg = NULL;
	Termtrace__LostEvents *le;
	tt_err err = { 0 };
	tt_trace *tr;
	char *tsv;

	(void)state;
	setenv("XDG_CONFIG_HOME", cfg, 1);
	unsetenv("TT_METRICS_PATH");
	ctfw_thread(w, 0, 500, 500, "main");
	ctfw_thread(w, 1, 500, 501, "worker");
	for (int i = 0; i < 200; i++) {
		int s = i % 2;

		if (i == 60)
			ctfw_discard(w, 0, 7);
		if (i == 150)
			ctfw_discard(w, 1, 1000);
		assert_int_equal(ctfw_tick(w, s, (uint64_t)i * 1000, (uint64_t)i, i, "x"), 0);
	}
	assert_int_equal(ctfw_close(w), 0);
	tr = tt_test_open(dir);
	assert_int_equal(tt_metrics_compute(tr, "lost_events", NULL, &msg, &err), TT_OK);
	le = ((Termtrace__TraceMetrics *)msg)->lost_events;
	assert_int_equal(le->total_lost, 1007);
	assert_int_equal(le->n_stat, 1);
	assert_string_equal(le->stat[0]->name, "ctf_events_discarded");
	assert_int_equal(le->n_gap, 2);
	assert_int_equal(le->gap[0]->count, 7);
	assert_int_equal(le->gap[1]->count, 1000);
	/* the alerts sit on the gaps the importer found, one per discard */
	tsv = tt_test_tsv(tr, "select a.id, a.severity, a.name, a.ts = s.ts and a.dur = s.dur"
			      " from alert a join slice s on s.id = a.source_slice_id order by a.id");
	assert_string_equal(tsv, "0\terror\tlost events (7 discarded)\t1\n"
				 "1\terror\tlost events (1000 discarded)\t1\n");
	free(tsv);
	/* on the global "Lost data" annotation track */
	tsv = tt_test_tsv(tr, "select t.name, t.type, count(*) from alert a join track t on t.id = a.track_id"
			      " group by t.id");
	assert_string_equal(tsv, "Lost data\tannotation\t2\n");
	free(tsv);
	protobuf_c_message_free_unpacked(msg, NULL);
	tt_trace_close(tr);
	tt_test_rm(dir);
	tt_test_rm(cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lost_events_written_ctf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
