/*
 * test_proto_translate.c - Perfetto's TranslationTable packets, as trace
 * processor applies them: Chrome's hashed names (histograms, user
 * actions, performance marks) given back as args next to their hash,
 * deobfuscated slice names and process track names; a table after the
 * events still applies; an unknown hash stays alone. Traces written by
 * the tests (protobuf-c).
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
#include "proto_tb.h"
#include "testutil.h"

typedef Perfetto__Protos__TrackEvent TEv;
typedef Perfetto__Protos__TrackDescriptor TDesc;
typedef Perfetto__Protos__TranslationU64Entry U64E;
typedef Perfetto__Protos__TranslationStrEntry StrE;

/* A thread's track (uuid 1: pid 10, tid 11) and a process's (uuid 2: pid
 * 10); tracks 3 (named) and 4 (unnamed) under the process, 5 a counter
 * under it, 6 a track under the thread. */
static void put_tracks(tbuf *b)
{
	Perfetto__Protos__ThreadDescriptor th = PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;
	Perfetto__Protos__ProcessDescriptor pr = PERFETTO__PROTOS__PROCESS_DESCRIPTOR__INIT;
	Perfetto__Protos__CounterDescriptor cd = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;
	static const struct { uint64_t uuid, parent; const char *name; int counter; } kids[] = {
		{ 3, 2, "raw_track", 0 }, { 4, 2, NULL, 0 }, { 5, 2, "raw_counter", 1 }, { 6, 1, "raw_thread_track", 0 },
	};
	TDesc td = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
	Pkt p = pkt(1, 1);

	th.has_pid = th.has_tid = 1;
	th.pid = 10;
	th.tid = 11;
	td.has_uuid = 1;
	td.uuid = 1;
	td.thread = &th;
	TB_PUT(b, p, TRACK_DESCRIPTOR, track_descriptor, &td);
	td = (TDesc)PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
	pr.has_pid = 1;
	pr.pid = 10;
	td.has_uuid = 1;
	td.uuid = 2;
	td.process = &pr;
	p = pkt(1, 1);
	TB_PUT(b, p, TRACK_DESCRIPTOR, track_descriptor, &td);
	for (size_t i = 0; i < sizeof(kids) / sizeof(kids[0]); i++) {
		td = (TDesc)PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
		td.has_uuid = td.has_parent_uuid = 1;
		td.uuid = kids[i].uuid;
		td.parent_uuid = kids[i].parent;
		td.name = (char *)kids[i].name;
		if (kids[i].counter)
			td.counter = &cd;
		p = pkt(1, 1);
		TB_PUT(b, p, TRACK_DESCRIPTOR, track_descriptor, &td);
	}
}

/* A begin (type 1) or end (2), or a counter value (4), on track uuid. */
static void put_event(tbuf *b, uint64_t ts, uint64_t uuid, int type, const char *name, TEv *te)
{
	TEv def = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	Pkt p = pkt(1, ts);

	if (!te)
		te = &def;
	te->has_track_uuid = te->has_type = 1;
	te->track_uuid = uuid;
	te->type = type;
	if (name) {
		te->name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME;
		te->name = (char *)name;
	}
	if (type == 4) {
		te->counter_value_field_case = PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE;
		te->counter_value = 7;
	}
	TB_PUT(b, p, TRACK_EVENT, track_event, te);
}

static void put_table(tbuf *b, Perfetto__Protos__TranslationTable *t)
{
	Pkt p = pkt(1, 0);

	TB_PUT(b, p, TRANSLATION_TABLE, translation_table, t);
}

/* ---- hashed names as args ------------------------------------------------------ */

static void hashed_names_become_args(void **state)
{
	tbuf b = { 0 };
	U64E h1 = PERFETTO__PROTOS__TRANSLATION_U64_ENTRY__INIT, a1 = h1, *hp = &h1, *ap = &a1;
	Perfetto__Protos__TranslationU32Entry s1 = PERFETTO__PROTOS__TRANSLATION_U32_ENTRY__INIT, *sp = &s1;
	Perfetto__Protos__ChromeHistorgramTranslationTable ht =
		PERFETTO__PROTOS__CHROME_HISTORGRAM_TRANSLATION_TABLE__INIT;
	Perfetto__Protos__ChromeUserEventTranslationTable ut =
		PERFETTO__PROTOS__CHROME_USER_EVENT_TRANSLATION_TABLE__INIT;
	Perfetto__Protos__ChromePerformanceMarkTranslationTable pt =
		PERFETTO__PROTOS__CHROME_PERFORMANCE_MARK_TRANSLATION_TABLE__INIT;
	Perfetto__Protos__TranslationTable t1 = PERFETTO__PROTOS__TRANSLATION_TABLE__INIT, t2 = t1, t3 = t1;
	Perfetto__Protos__ChromeHistogramSample hs[2] = { PERFETTO__PROTOS__CHROME_HISTOGRAM_SAMPLE__INIT,
							   PERFETTO__PROTOS__CHROME_HISTOGRAM_SAMPLE__INIT };
	Perfetto__Protos__ChromeUserEvent ue = PERFETTO__PROTOS__CHROME_USER_EVENT__INIT;
	TEv te[3] = { PERFETTO__PROTOS__TRACK_EVENT__INIT, PERFETTO__PROTOS__TRACK_EVENT__INIT,
		      PERFETTO__PROTOS__TRACK_EVENT__INIT };
	char *path;
	tt_trace *tr;

	(void)state;
	put_tracks(&b);
	/* the histogram table before its events, the user event table
	 * after them: both apply, as trace processor reads tables first */
	h1.has_key = 1;
	h1.key = 10;
	h1.value = "Memory.Total";
	ht.n_hash_to_name = 1;
	ht.hash_to_name = &hp;
	t1.table_case = PERFETTO__PROTOS__TRANSLATION_TABLE__TABLE_CHROME_HISTOGRAM;
	t1.chrome_histogram = &ht;
	put_table(&b, &t1);
	hs[0].has_name_hash = hs[0].has_sample = 1;
	hs[0].name_hash = 10;
	hs[0].sample = 100;
	hs[1].has_name_hash = 1;
	hs[1].name_hash = 30; /* no rule: the hash alone */
	te[0].chrome_histogram_sample = &hs[0];
	put_event(&b, 100, 1, 1, "known", &te[0]);
	put_event(&b, 110, 1, 2, NULL, NULL);
	te[1].chrome_histogram_sample = &hs[1];
	put_event(&b, 120, 1, 1, "unknown", &te[1]);
	put_event(&b, 130, 1, 2, NULL, NULL);
	ue.has_action_hash = 1;
	ue.action_hash = 20;
	te[2].chrome_user_event = &ue;
	put_event(&b, 140, 1, 1, "action", &te[2]);
	put_event(&b, 150, 1, 2, NULL, NULL);
	a1.has_key = 1;
	a1.key = 20;
	a1.value = "Back";
	ut.n_action_hash_to_name = 1;
	ut.action_hash_to_name = &ap;
	t2.table_case = PERFETTO__PROTOS__TRANSLATION_TABLE__TABLE_CHROME_USER_EVENT;
	t2.chrome_user_event = &ut;
	put_table(&b, &t2);
	/* a performance mark table on no arg: reading it changes nothing */
	s1.has_key = 1;
	s1.key = 5;
	s1.value = "site";
	pt.n_site_hash_to_name = 1;
	pt.site_hash_to_name = &sp;
	t3.table_case = PERFETTO__PROTOS__TRANSLATION_TABLE__TABLE_CHROME_PERFORMANCE_MARK;
	t3.chrome_performance_mark = &pt;
	put_table(&b, &t3);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr,
			   "select s.name, a.key, a.display_value from slice s join args a using(arg_set_id)"
			   " where a.key glob 'chrome_*' order by s.ts, a.id",
			   "known\tchrome_histogram_sample.name_hash\t10\n"
			   "known\tchrome_histogram_sample.sample\t100\n"
			   "known\tchrome_histogram_sample.name\tMemory.Total\n"
			   "unknown\tchrome_histogram_sample.name_hash\t30\n"
			   "action\tchrome_user_event.action_hash\t20\n"
			   "action\tchrome_user_event.action\tBack\n");
	assert_int_equal(tt_test_stat(tr, "proto_unknown_field"), 0);
	/* the sets before naming are not in the args table */
	assert_int_equal(tt_test_int(tr, "select count(*) from args where key = 'chrome_histogram_sample.name_hash'"), 2);
	assert_int_equal(tt_test_int(tr, "select count(*) from args where key = 'chrome_user_event.action_hash'"), 1);
	tb_close(tr, path, &b);
}

/* ---- deobfuscated slice and track names ---------------------------------------- */

static void slice_and_track_names(void **state)
{
	tbuf b = { 0 };
	StrE sn[2] = { PERFETTO__PROTOS__TRANSLATION_STR_ENTRY__INIT, PERFETTO__PROTOS__TRANSLATION_STR_ENTRY__INIT };
	StrE tn[4] = { PERFETTO__PROTOS__TRANSLATION_STR_ENTRY__INIT, PERFETTO__PROTOS__TRANSLATION_STR_ENTRY__INIT,
		       PERFETTO__PROTOS__TRANSLATION_STR_ENTRY__INIT, PERFETTO__PROTOS__TRANSLATION_STR_ENTRY__INIT };
	StrE *snp[2] = { &sn[0], &sn[1] }, *tnp[4] = { &tn[0], &tn[1], &tn[2], &tn[3] };
	Perfetto__Protos__SliceNameTranslationTable st = PERFETTO__PROTOS__SLICE_NAME_TRANSLATION_TABLE__INIT;
	Perfetto__Protos__ProcessTrackNameTranslationTable pt =
		PERFETTO__PROTOS__PROCESS_TRACK_NAME_TRANSLATION_TABLE__INIT;
	Perfetto__Protos__TranslationTable t1 = PERFETTO__PROTOS__TRANSLATION_TABLE__INIT, t2 = t1;
	char *path;
	tt_trace *tr;

	(void)state;
	sn[0].key = "a.b";
	sn[0].value = "Renderer::Paint";
	sn[1].key = "unused";
	sn[1].value = "never";
	st.n_raw_to_deobfuscated_name = 2;
	st.raw_to_deobfuscated_name = snp;
	t1.table_case = PERFETTO__PROTOS__TRANSLATION_TABLE__TABLE_SLICE_NAME;
	t1.slice_name = &st;
	put_table(&b, &t1);
	tn[0].key = "raw_track";
	tn[0].value = "named_track";
	tn[1].key = "raw_slice";
	tn[1].value = "implicit_track";
	tn[2].key = "raw_counter";
	tn[2].value = "named_counter";
	tn[3].key = "raw_thread_track";
	tn[3].value = "not_for_threads";
	pt.n_raw_to_deobfuscated_name = 4;
	pt.raw_to_deobfuscated_name = tnp;
	t2.table_case = PERFETTO__PROTOS__TRANSLATION_TABLE__TABLE_PROCESS_TRACK_NAME;
	t2.process_track_name = &pt;
	put_table(&b, &t2);
	put_tracks(&b);
	/* a.b renamed on the thread; its end (no name) ends it */
	put_event(&b, 100, 1, 1, "a.b", NULL);
	put_event(&b, 200, 1, 2, NULL, NULL);
	put_event(&b, 300, 1, 1, "c.d", NULL);
	put_event(&b, 400, 1, 2, NULL, NULL);
	/* process tracks: named, named by its first slice, a counter; a
	 * track under the thread keeps its name */
	put_event(&b, 500, 3, 1, "s1", NULL);
	put_event(&b, 510, 3, 2, NULL, NULL);
	put_event(&b, 520, 4, 1, "raw_slice", NULL);
	put_event(&b, 530, 4, 2, NULL, NULL);
	put_event(&b, 540, 5, 4, NULL, NULL);
	put_event(&b, 550, 6, 1, "s2", NULL);
	put_event(&b, 560, 6, 2, NULL, NULL);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select name, dur from slice order by ts",
			   "Renderer::Paint\t100\nc.d\t100\ns1\t10\nraw_slice\t10\ns2\t10\n");
	tt_test_assert_tsv(tr,
			   "select name from process_track where name is not null union all"
			   " select name from process_counter_track where name is not null order by name",
			   "implicit_track\nnamed_counter\nnamed_track\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from track where name = 'raw_thread_track'"), 1);
	tb_close(tr, path, &b);
}

/* A Chrome trigger's name hash, named by a study table (the table after
 * the trigger: it still applies). */
static void chrome_trigger_names(void **state)
{
	tbuf b = { 0 };
	U64E st1 = PERFETTO__PROTOS__TRANSLATION_U64_ENTRY__INIT, *stp = &st1;
	Perfetto__Protos__ChromeStudyTranslationTable sty = PERFETTO__PROTOS__CHROME_STUDY_TRANSLATION_TABLE__INIT;
	Perfetto__Protos__TranslationTable t = PERFETTO__PROTOS__TRANSLATION_TABLE__INIT;
	Perfetto__Protos__ChromeTrigger ct = PERFETTO__PROTOS__CHROME_TRIGGER__INIT;
	Pkt p = pkt(1, 100);
	char *path;
	tt_trace *tr;

	(void)state;
	ct.has_trigger_name_hash = 1;
	ct.trigger_name_hash = 10;
	TB_PUT(&b, p, CHROME_TRIGGER, chrome_trigger, &ct);
	p = pkt(1, 200);
	ct.trigger_name_hash = 30; /* no rule */
	TB_PUT(&b, p, CHROME_TRIGGER, chrome_trigger, &ct);
	st1.has_key = 1;
	st1.key = 10;
	st1.value = "study_one";
	sty.n_hash_to_name = 1;
	sty.hash_to_name = &stp;
	t.table_case = PERFETTO__PROTOS__TRANSLATION_TABLE__TABLE_CHROME_STUDY;
	t.chrome_study = &sty;
	put_table(&b, &t);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select s.ts, a.key, a.display_value from slice s join args a using(arg_set_id)"
			       " where a.key glob 'chrome_trigger.*' order by s.ts, a.key",
			   "100\tchrome_trigger.name\tstudy_one\n100\tchrome_trigger.name_hash\t10\n"
			   "200\tchrome_trigger.name_hash\t30\n");
	tb_close(tr, path, &b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hashed_names_become_args),
		cmocka_unit_test(slice_and_track_names),
		cmocka_unit_test(chrome_trigger_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
