/*
 * test_json_phases.c - Chrome JSON events imported as trace processor's
 * JSON parser imports them, phase by phase, where its rules are easy to
 * miss: the legacy async phases it drops, counter track names and
 * failures, instants without their pid/tid, events without a name. The
 * JSON text is written by the tests.
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

#include "testutil.h"





/* Legacy async S, p, F (and T used as a step: a thread state without dur
 * there) come to no slice and no track; trace processor still makes the
 * event's thread, except for a V8 sample 'P'. termtrace counts what it
 * drops by phase; an event without ts is a tokenizer failure first. */
static void legacy_async_phases_dropped(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"{\"traceEvents\":["
		"{\"ph\":\"B\",\"name\":\"work\",\"pid\":1,\"tid\":1,\"ts\":1},"
		"{\"ph\":\"S\",\"name\":\"load\",\"cat\":\"net\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":2},"
		"{\"ph\":\"T\",\"name\":\"load\",\"cat\":\"net\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":3,"
		"\"args\":{\"step\":\"s1\"}},"
		"{\"ph\":\"p\",\"name\":\"load\",\"cat\":\"net\",\"id\":\"0x1\",\"pid\":1,\"tid\":2,\"ts\":4},"
		"{\"ph\":\"F\",\"name\":\"load\",\"cat\":\"net\",\"id\":\"0x1\",\"pid\":4,\"tid\":5,\"ts\":5},"
		"{\"ph\":\"S\",\"name\":\"load\",\"cat\":\"net\",\"id\":\"0x2\",\"pid\":1,\"tid\":2,\"ts\":6},"
		"{\"ph\":\"S\",\"name\":\"nots\",\"id\":\"0x3\",\"pid\":1,\"tid\":2},"
		"{\"ph\":\"P\",\"name\":\"Profile\",\"id\":\"0x4\",\"pid\":8,\"tid\":9,\"ts\":7,"
		"\"args\":{\"data\":{\"startTime\":7}}},"
		"{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":9}"
		"]}", &p);

	(void)state;
	tt_test_assert_tsv(tr, "select s.name, s.ts, s.dur, t.type from slice s join track t on s.track_id = t.id",
		   "work\t1000\t8000\tthread\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from track where type like '%async%'"), 0);
	assert_int_equal(tt_test_int(tr, "select count(*) from thread_state"), 0);
	tt_test_assert_tsv(tr, "select key, value from stats_detail where name = 'json_phase_unknown' order by key",
		   "phase 'F'\t1\n"
		   "phase 'P'\t1\n"
		   "phase 'S'\t2\n"
		   "phase 'p'\t1\n");
	assert_int_equal(tt_test_stat(tr, "json_phase_unknown"), 5);
	assert_int_equal(tt_test_stat(tr, "json_parser_failure"), 1);    /* T without dur */
	assert_int_equal(tt_test_stat(tr, "json_tokenizer_failure"), 1); /* S without ts */
	/* the dropped events' threads: 2 (S, T, p) and 5 (F, process 4); none for P */
	tt_test_assert_tsv(tr, "select t.tid, p.pid from thread t join process p using(upid)"
		       " where t.tid in (2, 5, 9) order by t.tid",
		   "2\t1\n"
		   "5\t4\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from process where pid = 8"), 0);
	tt_test_close_text(tr, p);
}

/* Counter tracks: "<name> <member>", "<name> id: <id> <member>" for a
 * string id only; a member that is an object or an array, or a C event
 * without args, is a parser failure (the other members still count);
 * "args":{} is none. */
static void counter_names_and_failures(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"["
		"{\"ph\":\"C\",\"name\":\"q\",\"id\":\"0x1f\",\"pid\":2,\"ts\":1,\"args\":{\"len\":3}},"
		"{\"ph\":\"C\",\"name\":\"q\",\"id\":31,\"pid\":2,\"ts\":2,\"args\":{\"len\":4}},"
		"{\"ph\":\"C\",\"name\":\"q\",\"pid\":2,\"ts\":3,"
		"\"args\":{\"obj\":{\"a\":1},\"arr\":[1,2],\"len\":5,\"flag\":true}},"
		"{\"ph\":\"C\",\"name\":\"q\",\"pid\":2,\"ts\":4},"
		"{\"ph\":\"C\",\"name\":\"q\",\"pid\":2,\"ts\":5,\"args\":{}}"
		"]", &p);

	(void)state;
	tt_test_assert_tsv(tr, "select t.name, c.ts, c.value from counter c join counter_track t"
		       " on c.track_id = t.id order by t.name, c.ts",
		   "q id: 0x1f len\t1000\t3.0\n"
		   "q len\t2000\t4.0\n"
		   "q len\t3000\t5.0\n");
	/* obj, arr, flag; and the C without args */
	assert_int_equal(tt_test_stat(tr, "json_parser_failure"), 4);
	tt_test_close_text(tr, p);
}

/* Instants: a thread's (no "s", or "t") needs a tid, a process's a pid;
 * a global one neither. */
static void instants_need_their_ids(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"["
		"{\"ph\":\"i\",\"name\":\"nopid-thread\",\"pid\":3,\"ts\":1},"
		"{\"ph\":\"i\",\"name\":\"t\",\"pid\":3,\"tid\":4,\"ts\":2,\"s\":\"t\"},"
		"{\"ph\":\"I\",\"name\":\"nopid-process\",\"tid\":4,\"ts\":3,\"s\":\"p\"},"
		"{\"ph\":\"R\",\"name\":\"mark\",\"pid\":3,\"tid\":4,\"ts\":4},"
		"{\"ph\":\"i\",\"name\":\"g\",\"ts\":5,\"s\":\"g\"}"
		"]", &p);

	(void)state;
	tt_test_assert_tsv(tr, "select s.name, s.ts, t.type from slice s join track t on s.track_id = t.id order by s.ts",
		   "t\t2000\tthread\n"
		   "mark\t4000\tthread\n"
		   "g\t5000\tlegacy_chrome_global_instants\n");
	assert_int_equal(tt_test_stat(tr, "json_parser_failure"), 2);
	tt_test_close_text(tr, p);
}

/* An empty name or category is none; a slice of B, X, b or a thread's
 * instant, and a thread state, without a name is "[No name]"; an async
 * instant n or a global/process instant keeps no name. An E without a
 * name ends the innermost slice. */
static void events_without_names(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"["
		"{\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":1,\"cat\":\"\"},"
		"{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":2},"
		"{\"ph\":\"X\",\"name\":\"\",\"cat\":\"c\",\"pid\":1,\"tid\":1,\"ts\":3,\"dur\":1},"
		"{\"ph\":\"b\",\"id\":1,\"pid\":1,\"tid\":1,\"ts\":5},"
		"{\"ph\":\"n\",\"id\":1,\"pid\":1,\"tid\":1,\"ts\":6},"
		"{\"ph\":\"e\",\"id\":1,\"pid\":1,\"tid\":1,\"ts\":7},"
		"{\"ph\":\"i\",\"pid\":1,\"tid\":1,\"ts\":8},"
		"{\"ph\":\"i\",\"pid\":1,\"tid\":1,\"ts\":9,\"s\":\"g\"},"
		"{\"ph\":\"T\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":1}"
		"]", &p);

	(void)state;
	tt_test_assert_tsv(tr, "select ts, dur, coalesce(name, 'NULL'), coalesce(category, 'NULL') from slice order by ts",
		   "1000\t1000\t[No name]\tNULL\n"
		   "3000\t1000\t[No name]\tc\n"
		   "5000\t2000\t[No name]\tNULL\n"
		   "6000\t0\tNULL\tNULL\n"
		   "8000\t0\t[No name]\tNULL\n"
		   "9000\t0\tNULL\tNULL\n");
	tt_test_assert_tsv(tr, "select ts, state from thread_state", "10000\t[No name]\n");
	tt_test_close_text(tr, p);
}

/* v2 flows (flow_in / flow_out) go by bind_id alone: an id does not make
 * one; a string bind_id is hex ("0x5" and "5" are one; "q" none); async b
 * and n events take part too, and their bind_id leaves their async id
 * (their track) alone. */
static void v2_flows_by_bind_id(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"["
		"{\"ph\":\"X\",\"name\":\"idonly-out\",\"id\":7,\"flow_out\":true,\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},"
		"{\"ph\":\"X\",\"name\":\"idonly-in\",\"id\":7,\"flow_in\":true,\"pid\":1,\"tid\":2,\"ts\":3,\"dur\":1},"
		"{\"ph\":\"b\",\"name\":\"job\",\"cat\":\"c\",\"id\":1,\"bind_id\":\"0x5\",\"flow_out\":true,"
		"\"pid\":1,\"tid\":1,\"ts\":10},"
		"{\"ph\":\"n\",\"name\":\"mark\",\"cat\":\"c\",\"id\":1,\"bind_id\":\"0x5\",\"flow_in\":true,"
		"\"flow_out\":true,\"pid\":1,\"tid\":1,\"ts\":11},"
		"{\"ph\":\"e\",\"name\":\"job\",\"cat\":\"c\",\"id\":1,\"bind_id\":\"0x6\",\"pid\":1,\"tid\":1,\"ts\":12},"
		"{\"ph\":\"X\",\"name\":\"done\",\"bind_id\":\"5\",\"flow_in\":true,\"pid\":1,\"tid\":3,\"ts\":20,\"dur\":1},"
		"{\"ph\":\"X\",\"name\":\"nothex-out\",\"bind_id\":\"q\",\"flow_out\":true,\"pid\":1,\"tid\":4,\"ts\":30,\"dur\":1},"
		"{\"ph\":\"X\",\"name\":\"nothex-in\",\"bind_id\":\"q\",\"flow_in\":true,\"pid\":1,\"tid\":5,\"ts\":31,\"dur\":1}"
		"]", &p);

	(void)state;
	tt_test_assert_tsv(tr, "select o.name, i.name from flow f join slice o on f.slice_out = o.id"
		       " join slice i on f.slice_in = i.id order by f.id",
		   "job\tmark\n"
		   "mark\tdone\n");
	tt_test_assert_tsv(tr, "select name, dur, depth from slice where name in ('job', 'mark') order by ts",
		   "job\t2000\t0\n"
		   "mark\t0\t1\n");
	tt_test_close_text(tr, p);
}

/* Metadata: a process_name / thread_name needs a string that is not
 * empty, a *_sort_index a number (cut to an integer); anything else is a
 * parser failure; other M names (process_labels) and keys pass by. */
static void metadata_values(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"["
		"{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":4,\"args\":{\"name\":\"browser\",\"x\":1}},"
		"{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":5,\"args\":{\"name\":5}},"
		"{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":4,\"tid\":6,\"args\":{\"name\":\"\"}},"
		"{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":4,\"tid\":7,\"args\":{\"name\":{\"a\":\"b\"}}},"
		"{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":4,\"tid\":8,\"args\":{\"o\":{\"name\":\"nested\"}}},"
		"{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":4,\"args\":{\"sort_index\":2.7}},"
		"{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":4,\"tid\":6,\"args\":{\"sort_index\":\"x\"}},"
		"{\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":4,\"args\":{\"labels\":\"a,b\"}}"
		"]", &p);

	(void)state;
	tt_test_assert_tsv(tr, "select pid, coalesce(name, 'NULL') from process where pid in (4, 5) order by pid",
		   "4\tbrowser\n"
		   "5\tNULL\n");
	tt_test_assert_tsv(tr, "select tid, coalesce(name, 'NULL') from thread where tid in (6, 7, 8) order by tid",
		   "6\tNULL\n"
		   "7\tNULL\n"
		   "8\tNULL\n");
	tt_test_assert_tsv(tr, "select p.pid, a.int_value from process p join args a using(arg_set_id)"
		       " where a.key = 'process_sort_index_hint'",
		   "4\t2\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from thread t join args a using(arg_set_id)"
				     " where a.key = 'thread_sort_index_hint'"), 0);
	/* name 5, name "", name {...}, sort_index "x" */
	assert_int_equal(tt_test_stat(tr, "json_parser_failure"), 4);
	tt_test_close_text(tr, p);
}

/* v1 flows (s, t, f) need an "id": a number, or a string read as a hex
 * number ("0x10" and "10" are one flow); none, or a string that is not
 * hex, is flow_invalid_id and no flow. "scope" does not part ids. */
static void v1_flow_ids(void **state)
{
	char *p;
	tt_trace *tr = tt_test_open_json(
		"["
		"{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":5},"
		"{\"ph\":\"s\",\"name\":\"m\",\"cat\":\"c\",\"id\":\"0x10\",\"scope\":\"one\",\"pid\":1,\"tid\":1,\"ts\":2},"
		"{\"ph\":\"s\",\"name\":\"m\",\"cat\":\"c\",\"pid\":1,\"tid\":1,\"ts\":2},"
		"{\"ph\":\"s\",\"name\":\"m\",\"cat\":\"c\",\"id\":\"zz\",\"pid\":1,\"tid\":1,\"ts\":2},"
		"{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":2,\"ts\":10,\"dur\":5},"
		"{\"ph\":\"f\",\"name\":\"m\",\"cat\":\"c\",\"id\":\"10\",\"scope\":\"two\",\"bp\":\"e\",\"pid\":1,\"tid\":2,\"ts\":11}"
		"]", &p);

	(void)state;
	tt_test_assert_tsv(tr, "select o.name, i.name from flow f join slice o on f.slice_out = o.id"
		       " join slice i on f.slice_in = i.id order by f.id",
		   "a\tb\n");
	assert_int_equal(tt_test_stat(tr, "flow_invalid_id"), 2);
	tt_test_close_text(tr, p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(legacy_async_phases_dropped),
		cmocka_unit_test(counter_names_and_failures),
		cmocka_unit_test(instants_need_their_ids),
		cmocka_unit_test(events_without_names),
		cmocka_unit_test(v2_flows_by_bind_id),
		cmocka_unit_test(metadata_values),
		cmocka_unit_test(v1_flow_ids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
