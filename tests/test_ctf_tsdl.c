/*
 * test_ctf_tsdl.c - TSDL features the LTTng samples do not use, on a small
 * handmade trace: payload variants selected by an enum tag (relative and
 * paths), arrays of structs, a sequence of
 * structs, 32-bit floats, typedef, a trace without packet context (one
 * packet per file), an 8-bit event id with a 64-bit timestamp.
 * babeltrace2 reads the same bytes and must print the same values; the
 * bytes are written here by hand, so both readers are checked against the
 * layout this file spells out.
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

static const char metadata[] =
	"/* CTF 1.8 */\n"
	"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
	"typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
	"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
	"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
	"typedef struct { uint8_t x; uint8_t y; } point_t;\n"
	"trace { major = 1; minor = 8; byte_order = le;\n"
	"  packet.header := struct { uint32_t magic; }; };\n"
	"clock { name = c; freq = 1000000000; offset_s = 100; };\n"
	"typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := ts_t;\n"
	"stream { event.header := struct { uint8_t id; ts_t timestamp; }; };\n"
	"event { name = \"v\"; id = 0; fields := struct {\n"
	"  enum : uint8_t { A = 0, B = 1 } tag;\n"
	"  variant <tag> { uint16_t A; string B; } val;\n"
	"  point_t pts[2];\n"
	"  uint8_t n;\n"
	"  struct { uint8_t k; } items[n];\n"
	"  floating_point { exp_dig = 8; mant_dig = 24; align = 8; } f;\n"
	"  variant <tag> { uint8_t A; uint32_t B; } abs;\n"
	"}; };\n";

static const uint8_t stream[] = {
	0xC1, 0x1F, 0xFC, 0xC1,                         /* magic (LE) */
	/* event 1 */
	0x00, 0xE8, 0x03, 0, 0, 0, 0, 0, 0,             /* id 0, ts 1000 */
	0x00,                                           /* tag A */
	0x34, 0x12,                                     /* val.A = 0x1234 */
	1, 2, 3, 4,                                     /* pts */
	2, 7, 8,                                        /* n, items */
	0x00, 0x00, 0xC0, 0x3F,                         /* f = 1.5 */
	9,                                              /* abs.A */
	/* event 2 */
	0x00, 0xD0, 0x07, 0, 0, 0, 0, 0, 0,             /* id 0, ts 2000 */
	0x01,                                           /* tag B */
	'h', 'i', 0,                                    /* val.B */
	5, 6, 7, 8,                                     /* pts */
	0,                                              /* n, no items */
	0x00, 0x00, 0x00, 0xC0,                         /* f = -2 */
	0xEF, 0xBE, 0xAD, 0xDE,                         /* abs.B */
};

static void write_file(const char *dir, const char *name, const void *p, size_t n)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static void test_variants_arrays_floats(void **state)
{
	char *dir = tt_test_mkdtemp();
	char cmd[1200], buf[4096], out[8192] = "";
	FILE *p;
	tt_trace *tr;

	(void)state;
	write_file(dir, "metadata", metadata, sizeof(metadata) - 1);
	write_file(dir, "stream", stream, sizeof(stream));
	/* babeltrace2's reading of the bytes */
	snprintf(cmd, sizeof(cmd), "babeltrace2 --clock-seconds '%s' 2>&1", dir);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(buf, sizeof(buf), p))
		strncat(out, buf, sizeof(out) - strlen(out) - 1);
	pclose(p);
	assert_non_null(strstr(out, "[100.000001000] "));
	assert_non_null(strstr(out, "v: { tag = ( \"A\" : container = 0 ), val = { 4660 }, "
				    "pts = [ [0] = { x = 1, y = 2 }, [1] = { x = 3, y = 4 } ], n = 2, items = [ [0] = { k = 7 }, [1] = { k = 8 } ], "
				    "f = 1.5, abs = { 9 } }"));
	assert_non_null(strstr(out, "[100.000002000] (+0.000001000) v: { tag = ( \"B\" : container = 1 ), val = { \"hi\" }, "
				    "pts = [ [0] = { x = 5, y = 6 }, [1] = { x = 7, y = 8 } ], n = 0, items = [ ], f = -2, abs = { 3735928559 } }"));
	/* termtrace's */
	tr = tt_test_open(dir);
	assert_string_equal(tt_test_str(tr, "select group_concat(ts, ',') from raw"), "100000001000,100000002000");
	assert_string_equal(tt_test_str(tr,
		"select group_concat(key || '=' || coalesce(string_value, int_value, real_value), ',') from args "
		"where arg_set_id = (select arg_set_id from raw order by id limit 1)"),
		"tag=A,val=4660,pts[0].x=1,pts[0].y=2,pts[1].x=3,pts[1].y=4,n=2,items[0].k=7,items[1].k=8,f=1.5,abs=9");
	assert_string_equal(tt_test_str(tr,
		"select group_concat(key || '=' || coalesce(string_value, int_value, real_value), ',') from args "
		"where arg_set_id = (select arg_set_id from raw order by id limit 1 offset 1)"),
		"tag=B,val=hi,pts[0].x=5,pts[0].y=6,pts[1].x=7,pts[1].y=8,n=0,f=-2.0,abs=3735928559");
	/* flat keys drop the indices */
	assert_int_equal(tt_test_int(tr, "select count(*) from args where flat_key = 'pts.x'"), 4);
	tt_trace_close(tr);
	tt_test_rm(dir);
}

/* A variant tag value with no option is a decode error of that packet;
 * the trace still opens and says where. */
static void test_bad_variant_tag(void **state)
{
	char *dir = tt_test_mkdtemp();
	uint8_t bad[sizeof(stream)];
	tt_trace *tr;

	(void)state;
	memcpy(bad, stream, sizeof(stream));
	bad[13] = 5; /* first event's tag */
	write_file(dir, "metadata", metadata, sizeof(metadata) - 1);
	write_file(dir, "stream", bad, sizeof(bad));
	tr = tt_test_open(dir);
	assert_int_equal(tt_test_int(tr, "select count(*) from raw"), 0);
	assert_int_equal(tt_test_int(tr, "select value from stats where name = 'ctf_decode_error'"), 1);
	assert_non_null(strstr(tt_test_str(tr, "select str_value from metadata where name = 'ctf.problem.0'"),
			       "stream: cannot decode the event at byte 4"));
	tt_trace_close(tr);
	tt_test_rm(dir);
}

/* An event id the metadata does not declare (truncated metadata): counted
 * as ctf_event_unknown, the rest of its packet skipped, said where. */
static void test_unknown_event_id(void **state)
{
	char *dir = tt_test_mkdtemp();
	uint8_t bad[sizeof(stream)];
	tt_trace *tr;

	(void)state;
	memcpy(bad, stream, sizeof(stream));
	bad[4] = 7; /* first event's id */
	write_file(dir, "metadata", metadata, sizeof(metadata) - 1);
	write_file(dir, "stream", bad, sizeof(bad));
	tr = tt_test_open(dir);
	assert_int_equal(tt_test_int(tr, "select count(*) from raw"), 0);
	assert_int_equal(tt_test_int(tr, "select value from stats where name = 'ctf_event_unknown'"), 1);
	assert_int_equal(tt_test_int(tr, "select count(*) from stats where name = 'ctf_decode_error' and value > 0"), 0);
	assert_non_null(strstr(tt_test_str(tr, "select str_value from metadata where name = 'ctf.problem.0'"),
			       "stream: event id 7 at byte 4 is not in the metadata (truncated metadata?)"));
	tt_trace_close(tr);
	tt_test_rm(dir);
}

/* The same trace with the second variant's tag written as an absolute
 * path (CTF 1.8 section 7.3.2; babeltrace2 2.0.4's parser rejects the
 * `event` keyword there, so only termtrace is checked): same values. */
static void test_absolute_tag_path(void **state)
{
	char *dir = tt_test_mkdtemp();
	char *meta = strdup(metadata), *at;
	tt_trace *tr;
	size_t n;

	(void)state;
	at = strstr(meta, "variant <tag> { uint8_t A; uint32_t B; } abs;");
	assert_non_null(at);
	n = strlen(meta) + 64;
	{
		char *m2 = malloc(n);

		snprintf(m2, n, "%.*svariant <event.fields.tag> { uint8_t A; uint32_t B; } abs;%s", (int)(at - meta),
			 meta, at + strlen("variant <tag> { uint8_t A; uint32_t B; } abs;"));
		write_file(dir, "metadata", m2, strlen(m2));
		free(m2);
	}
	write_file(dir, "stream", stream, sizeof(stream));
	tr = tt_test_open(dir);
	assert_string_equal(tt_test_str(tr, "select group_concat(ifnull(string_value, int_value), ',') from args where key = 'abs'"),
			    "9,3735928559");
	tt_trace_close(tr);
	free(meta);
	tt_test_rm(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_variants_arrays_floats),
		cmocka_unit_test(test_bad_variant_tag),
		cmocka_unit_test(test_absolute_tag_path),
		cmocka_unit_test(test_unknown_event_id),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
