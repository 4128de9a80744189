/*
 * test_json_chunks.c - the JSON importer's parallel chunks give exactly
 * what one parser gives. Every text is imported once with chunks off and
 * then with several small chunk sizes (TT_JSON_CHUNK), and the whole
 * trace is compared (every table, the stats, the warning, or the error).
 * The texts put the cut pattern "},{" where a cut would be wrong: inside
 * strings, inside nested arrays of objects (some starting with an event's
 * keys), with and without line breaks; and end in all the ways a file can
 * end. Wrong cuts must not stop the parallel parse: most of each text is
 * parsed in chunks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static const char *const dump_sql[] = {
	"select 'process', upid, pid, name from process order by upid",
	"select 'thread', utid, tid, name, upid from thread order by utid",
	"select 'track', id, name, type, utid, upid from track order by id",
	"select 'slice', id, ts, dur, track_id, depth, parent_id, category, name, arg_set_id,"
	" thread_ts, thread_dur from slice order by id",
	"select 'args', arg_set_id, key, value_type, display_value from args order by id",
	"select 'counter', id, ts, track_id, value from counter order by id",
	"select 'flow', slice_out, slice_in from flow order by id",
	"select 'stat', name, idx, value from stats where value != 0 order by name, idx",
	"select 'meta', name, str_value, int_value from metadata"
	" where name not in ('json_parallel_bytes', 'import_time_ns', 'trace_size_bytes', 'trace_uuid') order by name",
};

/* Bytes parsed in parallel on the last dump (0: none). */
static int64_t parallel_bytes;

/* Everything the trace holds, or its error, as text (malloc'ed). */
static char *dump(const char *path)
{
	tt_err err = { 0 };
	tt_trace *tr = tt_trace_open(path, NULL, &err);
	size_t len = 0, cap = 1;
	char *out = calloc(1, 1);

	parallel_bytes = 0;
	if (!tr) {
		char *e = malloc(strlen(err.msg) + 8);

		sprintf(e, "error: %s", err.msg);
		free(out);
		return e;
	}
	for (size_t i = 0; i < sizeof(dump_sql) / sizeof(dump_sql[0]); i++) {
		char *t = tt_test_tsv(tr, dump_sql[i]);
		size_t n = strlen(t);

		if (len + n + 1 > cap) {
			cap = (len + n + 1) * 2;
			out = realloc(out, cap);
		}
		memcpy(out + len, t, n + 1);
		len += n;
		free(t);
	}
	parallel_bytes = tt_test_int(tr, "select coalesce((select int_value from metadata"
				     " where name = 'json_parallel_bytes'), 0)");
	tt_trace_close(tr);
	return out;
}

/* Imports text with chunks off and with each size; every import must
 * equal the first. Returns the largest count of bytes parsed in parallel. */
static int64_t same_in_chunks(const char *text, size_t len)
{
	static const char *const sizes[] = { "16", "23", "64", "100", "257", "1000", "4096" };
	char *path = tt_test_write_tmp(text, len, ".json");
	char *ref, *got;
	int64_t most = 0;

	unsetenv("TT_JSON_CHUNK");
	ref = dump(path);
	assert_int_equal(parallel_bytes, 0); /* small files: one parser */
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		setenv("TT_JSON_CHUNK", sizes[i], 1);
		got = dump(path);
		if (strcmp(ref, got) != 0) {
			/* the whole dumps, for diff(1) */
			FILE *f = fopen("/tmp/tt-chunks-one.txt", "w");

			if (f) {
				fputs(ref, f);
				fclose(f);
			}
			f = fopen("/tmp/tt-chunks-got.txt", "w");
			if (f) {
				fputs(got, f);
				fclose(f);
			}
			fail_msg("chunks of %s bytes differ from one parser: diff /tmp/tt-chunks-one.txt"
				 " /tmp/tt-chunks-got.txt", sizes[i]);
		}
		if (parallel_bytes > most)
			most = parallel_bytes;
		free(got);
	}
	unsetenv("TT_JSON_CHUNK");
	free(ref);
	tt_test_rm(path);
	return most;
}

/* A text of n events in a few shapes, with prefix/suffix around the
 * event list; the caller frees. */
static char *events_text(const char *prefix, int n, const char *sep, const char *suffix)
{
	size_t cap = strlen(prefix) + strlen(suffix) + (size_t)n * 400 + 1, len = 0;
	char *t = malloc(cap);

	len += (size_t)sprintf(t + len, "%s", prefix);
	for (int i = 0; i < n; i++) {
		const char *s = i ? sep : "";

		switch (i % 6) {
		case 0: /* a nested array of objects: the cut pattern inline */
			len += (size_t)sprintf(t + len, "%s{\"ph\":\"X\",\"name\":\"frames\",\"pid\":1,\"tid\":%d,"
					       "\"ts\":%d.5,\"dur\":3,\"args\":{\"f\":[{\"a\":1},{\"b\":2}, {\"c\":[{},{}]}],"
					       "\"headers\":[{\"name\":\"a\",\"ph\":\"X\"},{\"name\":\"b\"}]}}",
					       s, 1 + i % 3, 100 + i * 10);
			break;
		case 1: /* ... and across lines */
			len += (size_t)sprintf(t + len, "%s{\"ph\":\"B\",\"name\":\"multi\",\"pid\":1,\"tid\":%d,\"ts\":%d,"
					       "\"args\":{\"l\":[{\"x\":1},\n{\"y\":2}\n,\n{\"z\":\"},\\n{\"}]}}",
					       s, 1 + i % 3, 100 + i * 10);
			break;
		case 2: /* strings holding the pattern */
			len += (size_t)sprintf(t + len, "%s{\"ph\":\"i\",\"name\":\"s},{\\\"ph\\\":\\\"X\\\"}, {x\","
					       "\"pid\":1,\"tid\":%d,\"ts\":%d,\"s\":\"t\",\"args\":{\"q\":\"}, {\"}}",
					       s, 1 + i % 3, 100 + i * 10);
			break;
		case 3:
			len += (size_t)sprintf(t + len, "%s{\"ph\":\"E\",\"pid\":1,\"tid\":%d,\"ts\":%d}",
					       s, 1 + (i - 2) % 3, 100 + i * 10);
			break;
		case 4: /* a counter and an unsorted event */
			len += (size_t)sprintf(t + len, "%s{\"ph\":\"C\",\"name\":\"q\",\"pid\":1,\"ts\":%d,"
					       "\"args\":{\"v\":%d,\"w\":1.25}}", s, 50 + i, i);
			break;
		default: /* async with id2, flows, thread time */
			len += (size_t)sprintf(t + len, "%s{\"ph\":\"b\",\"name\":\"as\",\"cat\":\"c\",\"pid\":1,\"tid\":2,"
					       "\"ts\":%d,\"id2\":{\"local\":\"0x%x\"},\"tts\":%d,\"bind_id\":%d,\"flow_out\":true}",
					       s, 100 + i * 10, i / 6, i, i);
			break;
		}
	}
	len += (size_t)sprintf(t + len, "%s", suffix);
	assert_true(len < cap);
	return t;
}

static void array_and_object_forms(void **state)
{
	static const char *const seps[] = { ",", ",\n", " ,\r\n ", ",\n\n\t" };

	(void)state;
	for (size_t k = 0; k < sizeof(seps) / sizeof(seps[0]); k++) {
		char *a = events_text("[", 60, seps[k], "]");
		char *o = events_text("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", 60, seps[k],
				      "\n],\"metadata\":{\"x\":[{\"a\":1},{\"b\":2}]},\"displayTimeUnit\":\"ms\"}");

		/* the chunks really ran: a good part of the text in parallel */
		assert_true(same_in_chunks(a, strlen(a)) > (int64_t)strlen(a) / 2);
		assert_true(same_in_chunks(o, strlen(o)) > (int64_t)strlen(o) / 2);
		free(a);
		free(o);
	}
}

/* The top-level metadata object's fields (json_metadata.*), before and
 * after the event array, come out once each whatever the chunks. */
static void metadata_object_in_chunks(void **state)
{
	char *o = events_text("{\"metadata\":{\"a\":1,\"s\":\"x\"},\"traceEvents\":[\n", 60, ",\n",
			      "\n],\"metadata\":{\"b\":2.5,\"n\":null,\"o\":{\"c\":3}}}");
	char *path = tt_test_write_tmp(o, strlen(o), ".json");
	tt_trace *tr;
	char *tsv;

	(void)state;
	assert_true(same_in_chunks(o, strlen(o)) > (int64_t)strlen(o) / 2);
	tr = tt_test_open(path);
	tsv = tt_test_tsv(tr, "select name, int_value, str_value from metadata"
			      " where name glob 'json_metadata.*' order by name");
	assert_string_equal(tsv, "json_metadata.a\t1\tNULL\njson_metadata.b\tNULL\t2.5\n"
				 "json_metadata.s\tNULL\tx\n");
	free(tsv);
	tt_trace_close(tr);
	tt_test_rm(path);
	free(o);
}

/* The systemTraceEvents string (systrace text), before and after the
 * event array, is read once whatever the chunks: the same slices,
 * threads and counters. */
static void systrace_text_in_chunks(void **state)
{
	const char *sys = "\"systemTraceEvents\":\"# tracer: nop\\n"
			  "  RenderThread-2 ( 1) [000] ...1 0.000101: tracing_mark_write: B|1|draw\\n"
			  "  RenderThread-2 ( 1) [000] ...1 0.000409: tracing_mark_write: E|1\\n"
			  "  <...>-3 (-----) [001] d..2 0.000200: cpu_frequency: state=900 cpu_id=1\\n"
			  "  RenderThread-2 ( 1) [000] ...1 0.000300: tracing_mark_write: C|1|q|4\\n\"";
	char before[512], after[512];
	char *a, *b;

	(void)state;
	snprintf(before, sizeof(before), "{%s,\"traceEvents\":[\n", sys);
	snprintf(after, sizeof(after), "\n],%s}", sys);
	a = events_text(before, 60, ",\n", "\n]}");
	b = events_text("{\"traceEvents\":[\n", 60, ",\n", after);
	assert_true(same_in_chunks(a, strlen(a)) > 0);
	assert_true(same_in_chunks(b, strlen(b)) > (int64_t)strlen(b) / 2);
	free(a);
	free(b);
}

/* A first chunk that holds the systemTraceEvents string and ends inside
 * the first event (a cut that looks right in its args) is not used: the
 * parser that starts over reads the string once. Chunk sizes around the
 * first event's place, each against one parser. */
static void systrace_text_before_a_wrong_cut(void **state)
{
	size_t cap = 64 * 1024, len = 0;
	char *t = malloc(cap), *path, *ref;

	(void)state;
	len += (size_t)sprintf(t + len, "{\"systemTraceEvents\":\"  R-2 ( 1) [000] ...1 0.000101: "
			       "tracing_mark_write: B|1|draw\\n  R-2 ( 1) [000] ...1 0.000409: "
			       "tracing_mark_write: E|1\\n\",\"traceEvents\":[\n");
	for (int i = 0; i < 150; i++)
		len += (size_t)sprintf(t + len, "%s{\"ph\":\"X\",\"name\":\"f\",\"pid\":1,\"tid\":%d,\"ts\":%d,"
				       "\"dur\":3,\"args\":{\"h\":[{\"name\":\"a\",\"ph\":\"X\"},\n"
				       "{\"name\":\"b\",\"ph\":\"X\"},\n{\"name\":\"c\",\"ph\":\"X\"}]}}",
				       i ? ",\n" : "", 1 + i % 3, 100 + i * 10);
	len += (size_t)sprintf(t + len, "\n]}");
	assert_true(len < cap);
	path = tt_test_write_tmp(t, len, ".json");
	unsetenv("TT_JSON_CHUNK");
	ref = dump(path);
	for (int size = 150; size <= 450; size += 10) {
		char sz[16], *got;

		snprintf(sz, sizeof(sz), "%d", size);
		setenv("TT_JSON_CHUNK", sz, 1);
		got = dump(path);
		if (strcmp(ref, got) != 0)
			fail_msg("chunks of %d bytes differ from one parser", size);
		free(got);
	}
	unsetenv("TT_JSON_CHUNK");
	free(ref);
	tt_test_rm(path);
	free(t);
}

/* Minified text whose events end in long arrays of objects that start
 * with an event's key: most cuts land inside an array. Each such chunk is
 * used up to its last whole event and cutting starts again there. */
static void wrong_cuts_recovered(void **state)
{
	size_t cap = 64 * 1024, len = 0;
	char *t = malloc(cap);

	(void)state;
	len += (size_t)sprintf(t + len, "[");
	for (int i = 0; i < 60; i++) {
		len += (size_t)sprintf(t + len, "%s{\"ph\":\"X\",\"name\":\"req\",\"pid\":1,\"tid\":%d,"
				       "\"ts\":%d,\"dur\":5,\"args\":{\"headers\":[",
				       i ? "," : "", 1 + i % 2, 1000 + i * 10);
		for (int h = 0; h < 30; h++)
			len += (size_t)sprintf(t + len, "%s{\"name\":\"h%d\",\"ph\":%d}", h ? "," : "", h, i);
		len += (size_t)sprintf(t + len, "]}}");
	}
	len += (size_t)sprintf(t + len, "]");
	assert_true(len < cap);
	assert_true(same_in_chunks(t, len) > (int64_t)len / 2);
	free(t);
}

/* Cut at every few bytes: truncated files keep the same prefix and say
 * the same thing, whichever parser reached the end. */
static void truncated_anywhere(void **state)
{
	char *o = events_text("{\"traceEvents\":[\n", 24, ",\n", "\n]}");
	size_t len = strlen(o);

	(void)state;
	for (size_t cut = len / 3; cut < len; cut += 37)
		same_in_chunks(o, cut);
	free(o);
}

/* A syntax error deep inside the events: the same events before it, the
 * same message and byte offset. */
/* Trailing commas (json_lenient.c): a chunk that holds one fails in
 * yajl, and the parser reading on alone reads it as trace processor does:
 * the same import whatever the chunks. */
static void trailing_commas_in_chunks(void **state)
{
	char *o = events_text("{\"traceEvents\": [\n", 80, ",\n", ",\n],}");
	size_t len = strlen(o);
	char *bad = strdup(o);
	char *strict = events_text("{\"traceEvents\": [\n", 80, ",\n", "\n]}");
	char *path = tt_test_write_tmp(bad, len, ".json");
	char *spath = tt_test_write_tmp(strict, strlen(strict), ".json");
	char *want, *got;

	(void)state;
	/* the same trace as without the commas */
	unsetenv("TT_JSON_CHUNK");
	want = dump(spath);
	got = dump(path);
	assert_string_equal(got, want);
	free(want);
	free(got);
	free(strict);
	tt_test_rm(path);
	tt_test_rm(spath);
	same_in_chunks(bad, len);
	/* and one inside an event's args, midway */
	for (size_t at = len / 2; at + 1 < len; at++)
		if (o[at] == '}' && o[at + 1] == '}') {
			char *t = malloc(len + 2);

			memcpy(t, o, at);
			t[at] = ',';
			memcpy(t + at + 1, o + at, len - at + 1);
			same_in_chunks(t, len + 1);
			free(t);
			break;
		}
	free(bad);
	free(o);
}

static void syntax_error_later(void **state)
{
	char *o = events_text("[\n", 80, ",\n", "\n]");
	size_t len = strlen(o);
	char *bad = strdup(o);

	(void)state;
	memcpy(bad + len * 3 / 4, "}}}}", 4);
	same_in_chunks(bad, len);
	memcpy(bad, o, len);
	bad[len / 2] = '\x01';
	same_in_chunks(bad, len);
	/* right after an event, where a parser reading on alone starts: a
	 * character that would join a number before it ("0.") */
	for (size_t at = len / 2, n = 0; at < len && n < 4; at++) {
		if (o[at] != ',' || o[at - 1] != '}')
			continue;
		memcpy(bad, o, len);
		bad[at] = n % 2 ? '.' : 'e';
		same_in_chunks(bad, len);
		n++;
	}
	free(bad);
	free(o);
}

/* Not-event elements, empty objects, and nesting near the depth limit in
 * the middle of the array. */
static void odd_elements_and_depth(void **state)
{
	char *head = events_text("[\n", 30, ",\n", "");
	char *tail = events_text(",\n", 30, ",\n", "]");
	size_t cap = strlen(head) + strlen(tail) + 8000;
	char *t = malloc(cap);
	size_t len = 0;

	(void)state;
	len += (size_t)sprintf(t + len, "%s,\n1,\n\"str\",\n{},\n[],\n{\"ph\":\"X\",\"args\":", head);
	for (int d = 0; d < 997; d++)
		t[len++] = '[';
	for (int d = 0; d < 997; d++)
		t[len++] = ']';
	len += (size_t)sprintf(t + len, "},\n{\"ph\":\"i\",\"ts\":1,\"args\":{\"deep\":");
	for (int d = 0; d < 1000; d++)
		t[len++] = '[';
	for (int d = 0; d < 1000; d++)
		t[len++] = ']';
	len += (size_t)sprintf(t + len, "}}%s", tail);
	assert_true(len < cap);
	same_in_chunks(t, len);
	free(t);
	free(head);
	free(tail);
}

/* Strings longer than a read are read whole (the serial parser holds
 * them back from yajl until they end): a 700 KiB name with raw control
 * characters in it (json_lenient.c gives them back) and a 300 KiB arg
 * come out as they were, in chunks or not. A 33 MiB string is read
 * whole; one past the limit stops the parse at once, at the same byte in
 * chunks or not; the events before it are kept. */
static char *long_string_text(size_t name_len, int with_ctl)
{
	size_t cap = name_len + 400 * 1024, len = 0;
	char *t = malloc(cap);

	len += (size_t)sprintf(t, "{\"traceEvents\":[\n");
	for (int i = 0; i < 20; i++)
		len += (size_t)sprintf(t + len, "{\"ph\":\"X\",\"name\":\"small\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":1},\n",
				       i * 10);
	len += (size_t)sprintf(t + len, "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":5,\"dur\":1,\"name\":\"");
	memset(t + len, 'n', name_len);
	if (with_ctl) {
		t[len + 1000] = '\t';
		t[len + name_len - 1000] = '\n';
	}
	len += name_len;
	len += (size_t)sprintf(t + len, "\",\"args\":{\"big\":\"");
	for (int i = 0; i < 300 * 1024 / 4; i++)
		len += (size_t)sprintf(t + len, "a\\nb");
	len += (size_t)sprintf(t + len, "\"}},\n{\"ph\":\"X\",\"name\":\"after\",\"pid\":1,\"tid\":1,\"ts\":500,\"dur\":1}\n]}\n");
	assert_true(len < cap);
	t[len] = '\0';
	return t;
}

static void long_strings_whole_or_refused(void **state)
{
	static const char *const sizes[] = { "64", "1000", "100000" };
	char *t = long_string_text(700 * 1024, 1), *path, *ref;
	tt_err err = { 0 };
	long at;
	tt_trace *tr;

	(void)state;
	same_in_chunks(t, strlen(t));
	path = tt_test_write_tmp(t, strlen(t), ".json");
	tr = tt_trace_open(path, NULL, &err);
	assert_non_null(tr);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 22);
	assert_int_equal(tt_test_int(tr, "select length(name) from slice where ts = 5000"), 700 * 1024);
	assert_int_equal(tt_test_int(tr, "select instr(name, char(9)) from slice where ts = 5000"), 1001);
	assert_int_equal(tt_test_int(tr, "select instr(name, char(10)) from slice where ts = 5000"),
			 700 * 1024 - 999);
	assert_int_equal(tt_test_int(tr, "select length(display_value) from args where key = 'args.big'"),
			 300 * 1024 / 4 * 3);
	tt_trace_close(tr);
	tt_test_rm(path);
	free(t);

	/* 33 MiB: read whole (a systemTraceEvents string is that long) */
	t = long_string_text(33u << 20, 0);
	path = tt_test_write_tmp(t, strlen(t), ".json");
	/* the name's first byte */
	at = (long)(strstr(t, "\"ts\":5,\"dur\":1,\"name\":\"") - t) +
	     (long)strlen("\"ts\":5,\"dur\":1,\"name\":\"");
	free(t);
	unsetenv("TT_JSON_CHUNK");
	tr = tt_trace_open(path, NULL, &err);
	assert_non_null(tr);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 22);
	assert_int_equal(tt_test_int(tr, "select length(name) from slice where ts = 5000"), 33 << 20);
	assert_int_equal(tt_test_int(tr, "select count(*) from metadata where name = 'import_warning'"), 0);
	tt_trace_close(tr);
	/* refused where it passes the limit (lowered to 32 MiB here; 1 GiB
	 * is the importer's) */
	setenv("TT_JSON_MAX_STRING_MIB", "32", 1);
	ref = dump(path);
	tr = tt_trace_open(path, NULL, &err);
	assert_non_null(tr);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 20);
	{
		char *w = tt_test_tsv(tr, "select str_value from metadata where name = 'import_warning'");
		char want[200];

		snprintf(want, sizeof(want), "a string longer than 32 MiB (from byte %ld) at byte %ld\n", at,
			 at + (32L << 20));
		assert_string_equal(w, want);
		free(w);
	}
	tt_trace_close(tr);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		char *got;

		setenv("TT_JSON_CHUNK", sizes[i], 1);
		got = dump(path);
		assert_string_equal(got, ref);
		free(got);
	}
	unsetenv("TT_JSON_CHUNK");
	unsetenv("TT_JSON_MAX_STRING_MIB");
	free(ref);
	tt_test_rm(path);
}

/* Cancelling stops both ways of parsing, threads and all. */
static void cancelled(void **state)
{
	char *t = events_text("[\n", 200, ",\n", "\n]");
	char *path = tt_test_write_tmp(t, strlen(t), ".json");
	static const char *const sizes[] = { "1000000000", "64", "1000" };

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		tt_progress pr = { 0 };
		tt_err err = { 0 };
		tt_trace *tr;

		setenv("TT_JSON_CHUNK", sizes[i], 1);
		atomic_store(&pr.cancel, 1);
		tr = tt_trace_open(path, &pr, &err);
		assert_null(tr);
		assert_non_null(strstr(err.msg, "import cancelled"));
		assert_int_equal(atomic_load(&pr.done), 1);
	}
	unsetenv("TT_JSON_CHUNK");
	tt_test_rm(path);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(array_and_object_forms),
		cmocka_unit_test(wrong_cuts_recovered),
		cmocka_unit_test(metadata_object_in_chunks),
		cmocka_unit_test(systrace_text_in_chunks),
		cmocka_unit_test(systrace_text_before_a_wrong_cut),
		cmocka_unit_test(truncated_anywhere),
		cmocka_unit_test(syntax_error_later),
		cmocka_unit_test(trailing_commas_in_chunks),
		cmocka_unit_test(odd_elements_and_depth),
		cmocka_unit_test(cancelled),
		cmocka_unit_test(long_strings_whole_or_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
