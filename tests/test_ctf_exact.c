/*
 * test_ctf_exact.c - CTF cases where termtrace once disagreed with
 * babeltrace2, on traces tests/ctf_writer.c writes: arrays and sequences
 * of zero elements before fields of every alignment, TSDL string and
 * character literals (escapes, octal, hex, unicode) in known and unknown
 * attributes, packets whose uuid differs from the metadata's, and clock
 * values that convert past int64 ns. babeltrace2 runs on the same folder
 * and every event, every field must be the same (tests/ctf_compare.c).
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
#include "ctf_metadata.h"
#include "ctf_stream.h"
#include "ctf_writer.c"
#include "ctf_compare.c"

/* n = 0..3 elements, both byte orders, compact and large headers. */
static void test_zero_length_arrays(void **state)
{
	(void)state;
	for (int v = 0; v < 4; v++) {
		char *dir = tt_test_mkdtemp();
		ctfw_opts o = { .big_endian = v & 1, .large_header = v >> 1, .offset_s = 1700000000 };
		ctfw *w = ctfw_open(dir, &o);
		lines want = { 0 };
		tt_trace *tr;
		uint64_t ts = 1000;

		assert_non_null(w);
		for (unsigned i = 0; i < 40; i++, ts += 977)
			assert_int_equal(ctfw_zlen(w, 0, ts, i % 4, 10 + i), 0);
		assert_int_equal(ctfw_close(w), 0);
		bt2_expect(dir, &want);
		assert_int_equal(want.n, 40);
		tr = tt_test_open(dir);
		same_events("zlen", tr, &want);
		/* the first event (n = 0): each field after an empty array
		 * holds its own value, not a padding byte */
		assert_string_equal(tt_test_str(tr,
			"select group_concat(key || '=' || coalesce(int_value, string_value), ',') from args "
			"where arg_set_id = (select arg_set_id from raw order by ts limit 1) and key not like 'context.%'"),
			"n=0,c0=10,bit=1,after4=3,c16=12,c32=13,c64=14,d16=15,d32=16,d64=17,cs=18,bit2=1,txt=,ct=19");
		assert_int_equal(tt_test_int(tr, "select count(*) from stats where name = 'ctf_decode_error' and value > 0"), 0);
		tt_trace_close(tr);
		lines_free(&want);
		tt_test_rm(dir);
	}
}

/* Literal forms babeltrace2 reads: C escapes, octal, hex, character
 * constants, as values of known attributes (env, event name, clock
 * description) and of attributes nobody knows, in every block. */
#define UNKNOWN_ATTRS \
	"\ttest3 = '\\n';\n\tt_str = \"a\\tb\\\\c\\\"d\\'e\\?\";\n\tt_oct = '\\101\\7';\n" \
	"\tt_hex = \"\\x41\\x7e\";\n\tt_chr = 'x';\n\tt_path = clock.monotonic.value;\n\tt_neg = -0x10;\n"

static void test_literals(void **state)
{
	char *dir = tt_test_mkdtemp();
	ctfw_opts o = { .offset_s = 1700000000, .attrs = UNKNOWN_ATTRS,
			.env = "\tlit_char = 'x';\n\tlit_esc = \"a\\tb\\\\\\\"c\\'\\?\";\n"
			       "\tlit_oct = \"\\101\\102\\60\";\n\tlit_hex = \"\\x41\\x4a\";\n"
			       "\tlit_bell = \"\\a\\b\\f\\v\\r\";\n",
			.zlen_name = "\"tt:\\x7a\\154en\"" };
	ctfw *w = ctfw_open(dir, &o);
	lines want = { 0 };
	tt_trace *tr;

	(void)state;
	assert_non_null(w);
	assert_int_equal(ctfw_tick(w, 0, 500, 1, 2, "tick"), 0);
	for (unsigned i = 0; i < 10; i++)
		assert_int_equal(ctfw_zlen(w, 0, 1000 + i, i % 4, i), 0);
	assert_int_equal(ctfw_close(w), 0);
	bt2_expect(dir, &want);
	assert_int_equal(want.n, 11);
	tr = tt_test_open(dir);
	same_events("literals", tr, &want);
	assert_int_equal(tt_test_int(tr, "select count(*) from raw where name = 'tt:zlen'"), 10);
	assert_string_equal(tt_test_str(tr, "select str_value from metadata where name = 'ctf.env.lit_char'"), "x");
	assert_string_equal(tt_test_str(tr, "select str_value from metadata where name = 'ctf.env.lit_esc'"),
			    "a\tb\\\"c'?");
	assert_string_equal(tt_test_str(tr, "select str_value from metadata where name = 'ctf.env.lit_oct'"), "AB0");
	assert_string_equal(tt_test_str(tr, "select str_value from metadata where name = 'ctf.env.lit_hex'"), "AJ");
	assert_string_equal(tt_test_str(tr, "select str_value from metadata where name = 'ctf.env.lit_bell'"),
			    "\a\b\f\v\r");
	/* skipped, counted by name, and the warning says where */
	assert_int_equal(tt_test_int(tr, "select value from stats where name = 'ctf_metadata_unsupported'"), 6 * 7);
	assert_non_null(strstr(tt_test_str(tr, "select str_value from metadata where name = 'import_warning'"),
			       "/metadata:16: unknown attribute 'test3' skipped"));
	tt_trace_close(tr);
	lines_free(&want);
	tt_test_rm(dir);
}

/* Universal character names and wide literals: babeltrace2 refuses them
 * ("wide characters are not supported"), termtrace reads them as UTF-8. */
static void test_unicode_literals(void **state)
{
	char *dir = tt_test_mkdtemp();
	ctfw_opts o = { .offset_s = 1700000000, .attrs = "\tt_uni = L'\\u00e9';\n",
			.env = "\tlit_uni = \"\\u00e9\\U0001F600\\u20ac\";\n\tlit_wide = L\"w\";\n" };
	ctfw *w = ctfw_open(dir, &o);
	tt_trace *tr;

	(void)state;
	assert_non_null(w);
	assert_int_equal(ctfw_tick(w, 0, 500, 1, 2, "tick"), 0);
	assert_int_equal(ctfw_close(w), 0);
	tr = tt_test_open(dir);
	assert_int_equal(tt_test_int(tr, "select count(*) from raw"), 1);
	assert_string_equal(tt_test_str(tr, "select str_value from metadata where name = 'ctf.env.lit_uni'"),
			    "\xc3\xa9\xf0\x9f\x98\x80\xe2\x82\xac");
	assert_string_equal(tt_test_str(tr, "select str_value from metadata where name = 'ctf.env.lit_wide'"), "w");
	tt_trace_close(tr);
	tt_test_rm(dir);
}

/* Packets 2 and 3 of stream 1 carry another uuid: babeltrace2 reads them,
 * so does termtrace, and says so in stats and in the import warning. */
static void test_uuid_mismatch_read(void **state)
{
	char *dir = tt_test_mkdtemp();
	ctfw_opts o = { .offset_s = 1700000000, .nstreams = 2, .packet_bytes = 512 };
	ctfw *w = ctfw_open(dir, &o);
	lines want = { 0 };
	tt_trace *tr;
	uint64_t ts = 100;

	(void)state;
	assert_non_null(w);
	for (int i = 0; i < 60; i++, ts += 1000) {
		if (i == 20)
			ctfw_bad_uuid(w, 1, 1);
		if (i == 40)
			ctfw_bad_uuid(w, 1, 0);
		assert_int_equal(ctfw_tick(w, i & 1, ts, (uint64_t)i, i * 3, "m"), 0);
	}
	assert_int_equal(ctfw_close(w), 0);
	bt2_expect(dir, &want);
	assert_int_equal(want.n, 60);
	tr = tt_test_open(dir);
	same_events("uuid", tr, &want);
	assert_true(tt_test_int(tr, "select value from stats where name = 'ctf_uuid_mismatch'") >= 2);
	assert_non_null(strstr(tt_test_str(tr, "select str_value from metadata where name = 'import_warning'"),
			       "chan_1: packet at byte "));
	assert_non_null(strstr(tt_test_str(tr, "select str_value from metadata where name = 'import_warning'"),
			       "uuid differs from the metadata's (read anyway)"));
	tt_trace_close(tr);
	lines_free(&want);
	tt_test_rm(dir);
}

/* offset_s + cycles past INT64_MAX ns: those events are dropped and
 * counted (Perfetto's *_invalid_timestamp), the ones before are kept. */
static void test_timestamp_overflow(void **state)
{
	char *dir = tt_test_mkdtemp();
	/* INT64_MAX ns is 9223372036.854775807 s */
	ctfw_opts o = { .offset_s = 9223372035, .large_header = 1 };
	ctfw *w = ctfw_open(dir, &o);
	tt_trace *tr;

	(void)state;
	assert_non_null(w);
	assert_int_equal(ctfw_tick(w, 0, 1000, 0, 0, "ok"), 0);
	assert_int_equal(ctfw_tick(w, 0, 1800000000, 1, 1, "ok"), 0);
	assert_int_equal(ctfw_tick(w, 0, 1900000000, 2, 2, "past"), 0);
	assert_int_equal(ctfw_tick(w, 0, 2000000000, 3, 3, "past"), 0);
	assert_int_equal(ctfw_close(w), 0);
	tr = tt_test_open(dir);
	assert_string_equal(tt_test_str(tr, "select group_concat(ts, ',') from raw"),
			    "9223372035000001000,9223372036800000000");
	assert_int_equal(tt_test_int(tr, "select value from stats where name = 'ctf_invalid_timestamp'"), 2);
	assert_non_null(strstr(tt_test_str(tr, "select str_value from metadata where name = 'import_warning'"),
			       "overflows 64-bit ns since the epoch (dropped)"));
	tt_trace_close(tr);
	tt_test_rm(dir);
}

/* Lazy reads find an event's packet through LTTng's index/NAME.idx when
 * it agrees with the stream file, else by a scan of the packet headers:
 * the same events either way; an index that does not chain (a wrong
 * offset) is not used. */
static int events_at(const char *dir, const char *file, int *by_file, uint64_t *sum)
{
	char path[1200];
	ctf_meta *m;
	ctf_stream *s, *r;
	const ctf_event *ev;
	tt_err err = { 0 };
	int n = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	assert_int_equal(tt_ctf_meta_load(dir, &m, &err), 0);
	assert_int_equal(tt_ctf_stream_open(m, path, &s, &err), 0);
	assert_int_equal(tt_ctf_stream_open(m, path, &r, &err), 0);
	*sum = 0;
	while (tt_ctf_stream_next(s, &ev) == 1) {
		uint64_t off = ev->offset;
		const ctf_event *again;

		if (n++ % 7)
			continue;
		assert_int_equal(tt_ctf_stream_event_at(r, off, &again), 1);
		assert_int_equal(again->offset, off);
		*sum += off + again->nvals;
	}
	*by_file = tt_ctf_stream_indexed_by_file(r);
	tt_ctf_stream_close(s);
	tt_ctf_stream_close(r);
	tt_ctf_meta_free(m);
	return n;
}

static void test_packet_index_file(void **state)
{
	char *dir = tt_test_mkdtemp(), cmd[2048];
	int by_file, n1, n2;
	uint64_t sum1, sum2;

	(void)state;
	snprintf(cmd, sizeof(cmd), "cp -r '%s'/* '%s'/", tt_test_data("ctf/lttng-ust-tiny/ust/uid/0/64-bit"), dir);
	assert_int_equal(system(cmd), 0);
	n1 = events_at(dir, "chan0_1", &by_file, &sum1);
	assert_int_equal(n1, 2072);
	assert_int_equal(by_file, 1);
	/* a wrong offset in the second entry: the headers are scanned */
	snprintf(cmd, sizeof(cmd), "printf '\\x01' | dd of='%s/index/chan0_1.idx' bs=1 seek=%d conv=notrunc 2>/dev/null",
		 dir, 16 + 72 + 6);
	assert_int_equal(system(cmd), 0);
	n2 = events_at(dir, "chan0_1", &by_file, &sum2);
	assert_int_equal(by_file, 0);
	assert_int_equal(n2, n1);
	assert_true(sum1 == sum2);
	/* no index at all */
	snprintf(cmd, sizeof(cmd), "rm -r '%s/index'", dir);
	assert_int_equal(system(cmd), 0);
	n2 = events_at(dir, "chan0_1", &by_file, &sum2);
	assert_int_equal(by_file, 0);
	assert_true(sum1 == sum2);
	tt_test_rm(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zero_length_arrays),
		cmocka_unit_test(test_literals),
		cmocka_unit_test(test_unicode_literals),
		cmocka_unit_test(test_uuid_mismatch_read),
		cmocka_unit_test(test_timestamp_overflow),
		cmocka_unit_test(test_packet_index_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
