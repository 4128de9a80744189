/*
 * test_ctf_bad.c - hostile CTF input: a missing metadata file, broken TSDL
 * (line and what was expected), CTF 2 metadata, a stream whose uuid does
 * not match (read, as babeltrace2 does), truncated packets, a content_size beyond packet_size, garbage
 * stream files, and random corruption (no crash, bounded memory: run under
 * ASan). Events before a problem are kept; the problem is counted in stats
 * and described in the metadata table (ctf.problem.N).
 *
 * Expected counts come from babeltrace 1's verbose output of the same
 * trace (../shared/samples/ref/lttng-ust-tiny.bt1-verbose.txt): chan0_1's
 * packets 0, 1 and 2 hold 60, 64 and 65 events; chan0_0 holds none.
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
#include <zlib.h>

#include "testutil.h"

#define TINY "ctf/lttng-ust-tiny/ust/uid/0/64-bit"

static void copy_file(const char *from, const char *to)
{
	FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
	char buf[65536];
	size_t n;

	assert_non_null(a);
	assert_non_null(b);
	while ((n = fread(buf, 1, sizeof(buf), a)) > 0)
		assert_int_equal(fwrite(buf, 1, n, b), n);
	fclose(a);
	assert_int_equal(fclose(b), 0);
}

/* A fresh copy of the tiny trace (metadata, chan0_0, chan0_1). */
static char *copy_tiny(void)
{
	char *dir = tt_test_mkdtemp();
	const char *files[] = { "metadata", "chan0_0", "chan0_1" };
	char from[1024], to[1024];

	for (size_t i = 0; i < 3; i++) {
		snprintf(from, sizeof(from), "%s/%s", tt_test_data(TINY), files[i]);
		snprintf(to, sizeof(to), "%s/%s", dir, files[i]);
		copy_file(from, to);
	}
	return dir;
}

static void patch(const char *dir, const char *file, long off, const void *bytes, size_t n)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r+b");
	assert_non_null(f);
	assert_int_equal(fseek(f, off, SEEK_SET), 0);
	assert_int_equal(fwrite(bytes, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static void write_file(const char *dir, const char *file, const void *data, size_t n)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static tt_trace *open_fails(const char *dir, int code, const char *needle)
{
	tt_err err = { 0 };
	tt_trace *tr = tt_trace_open(dir, NULL, &err);

	assert_null(tr);
	assert_int_equal(err.code, code);
	if (!strstr(err.msg, needle))
		print_error("message '%s' lacks '%s'\n", err.msg, needle);
	assert_non_null(strstr(err.msg, needle));
	return tr;
}

static void test_missing_metadata(void **state)
{
	char *dir = copy_tiny();
	char path[1024];

	(void)state;
	snprintf(path, sizeof(path), "%s/metadata", dir);
	assert_int_equal(unlink(path), 0);
	open_fails(dir, TT_EINVAL, "no metadata file");
	tt_test_rm(dir);
}

static void test_broken_tsdl(void **state)
{
	char *dir = tt_test_mkdtemp();
	static const char bad[] = "/* CTF 1.8 */\n"
				  "trace {\n"
				  "\tmajor = 1;\n"
				  "\tbyte_order = le\n"
				  "};\n";
	static const char unknown[] = "/* CTF 1.8 */\n"
				      "trace { major = 1; minor = 8; byte_order = le; };\n"
				      "event { name = \"x\"; id = 0; fields := struct { uint99_t v; }; };\n";
	static const char deep[] = "/* CTF 1.8 */\ntrace { major = 1; minor = 8; byte_order = le; };\n"
				   "typealias struct { struct { struct { struct { struct { struct { struct { struct {"
				   "struct { struct { struct { struct { struct { struct { struct { struct { struct {"
				   "struct { struct { struct { struct { struct { struct { struct { struct { struct {"
				   "struct { struct { struct { struct { struct { struct { struct { struct { struct {"
				   "struct { struct { struct { struct { struct { struct { struct { struct { struct {"
				   "struct { struct { struct { struct { struct { struct { struct { struct { struct {";

	(void)state;
	write_file(dir, "metadata", bad, sizeof(bad) - 1);
	open_fails(dir, TT_EINVAL, "metadata:5: expected ';', got '}'");
	write_file(dir, "metadata", unknown, sizeof(unknown) - 1);
	open_fails(dir, TT_EINVAL, "metadata:3: unknown type 'uint99_t'");
	write_file(dir, "metadata", deep, sizeof(deep) - 1);
	open_fails(dir, TT_EINVAL, "nested deeper");
	tt_test_rm(dir);
}

static void test_ctf2_metadata(void **state)
{
	char *dir = tt_test_mkdtemp();
	static const char ctf2[] = "\x1e{\"type\": \"preamble\", \"version\": 2}\n";

	(void)state;
	write_file(dir, "metadata", ctf2, sizeof(ctf2) - 1);
	open_fails(dir, TT_EUNSUPPORTED, "CTF 2 not supported");
	tt_test_rm(dir);
}

/* chan0_1's packets carry another uuid: babeltrace2 reads them all the
 * same (2072 events), so does termtrace, counting each packet in stats and
 * naming the first in the warning every command prints. */
static void test_uuid_mismatch(void **state)
{
	char *dir = copy_tiny();
	static const uint8_t x = 0xEE;
	tt_trace *tr;

	(void)state;
	patch(dir, "chan0_1", 4096 + 4, &x, 1);
	tr = tt_test_open(dir);
	assert_int_equal(tt_test_int(tr, "select count(*) from raw"), 2072);
	assert_int_equal(tt_test_int(tr, "select value from stats where name = 'ctf_uuid_mismatch'"), 1);
	assert_int_equal(tt_test_int(tr, "select value from stats where name = 'ctf_decode_error'"), 0);
	assert_non_null(strstr(tt_test_str(tr, "select str_value from metadata where name = 'import_warning'"),
			       "chan0_1: packet at byte 4096: uuid differs from the metadata's (read anyway)"));
	tt_trace_close(tr);
	/* in the first packet too */
	patch(dir, "chan0_1", 4, &x, 1);
	tr = tt_test_open(dir);
	assert_int_equal(tt_test_int(tr, "select count(*) from raw"), 2072);
	assert_int_equal(tt_test_int(tr, "select value from stats where name = 'ctf_uuid_mismatch'"), 2);
	assert_non_null(strstr(tt_test_str(tr, "select str_value from metadata where name = 'ctf.problem.0'"),
			       "packet at byte 0: uuid differs"));
	tt_trace_close(tr);
	tt_test_rm(dir);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* chan0_1 cut 2000 bytes into its third packet: packets 0 and 1 (124
 * events) and the complete events of the third packet's first 2000 bytes
 * are kept, and they are exactly the first events of babeltrace2's
 * reference. */
static void test_truncated_packet(void **state)
{
	char *dir = copy_tiny();
	char path[1024], buf[65536];
	tt_trace *tr;
	tt_result r;
	tt_err err = { 0 };
	gzFile f;
	size_t i;
	int64_t n;

	(void)state;
	snprintf(path, sizeof(path), "%s/chan0_1", dir);
	assert_int_equal(truncate(path, 4096 * 2 + 2000), 0);
	tr = tt_test_open(dir);
	n = tt_test_int(tr, "select count(*) from raw");
	assert_true(n >= 124 && n < 124 + 65);
	assert_int_equal(tt_test_int(tr, "select value from stats where name = 'ctf_truncated'"), 1);
	assert_string_equal(tt_test_str(tr, "select str_value from metadata where name = 'ctf.problem.0'") +
				    strlen(dir),
			    "/chan0_1: packet at byte 8192: content_size (4080 bytes) runs past the end of the file (2000 bytes left)");
	/* the kept events are the reference's first n (one stream: time order) */
	assert_int_equal(tt_query_collect(tr, "select ts || char(9) || name from raw order by ts, id", 0, &r, &err), 0);
	f = gzopen(tt_test_data("ctf/lttng-ust-tiny.expect.gz"), "rb");
	assert_non_null(f);
	for (i = 0; i < r.nrows; i++) {
		char *tab;

		assert_non_null(gzgets(f, buf, sizeof(buf)));
		tab = strchr(buf, '\t');
		tab = strchr(tab + 1, '\t');
		*tab = '\0';
		assert_string_equal(r.cells[i], buf);
	}
	gzclose(f);
	tt_result_free(&r);
	tt_trace_close(tr);
	(void)cmp_str;
	tt_test_rm(dir);
}

/* content_size larger than packet_size in the second packet (byte 4096 +
 * 48): decode error, the first packet's 60 events kept. */
static void test_content_size_beyond_packet(void **state)
{
	char *dir = copy_tiny();
	uint8_t big[8] = { 0, 0, 0, 0, 1, 0, 0, 0 }; /* 2^32 bits, LE */
	tt_trace *tr;

	(void)state;
	patch(dir, "chan0_1", 4096 + 48, big, 8);
	tr = tt_test_open(dir);
	assert_int_equal(tt_test_int(tr, "select count(*) from raw"), 60);
	assert_int_equal(tt_test_int(tr, "select value from stats where name = 'ctf_decode_error'"), 1);
	assert_non_null(strstr(tt_test_str(tr, "select str_value from metadata where name = 'ctf.problem.0'"),
			       "packet at byte 4096: content_size 4294967296 / packet_size 32768 bits are inconsistent"));
	tt_trace_close(tr);
	/* both beyond the file: truncated */
	patch(dir, "chan0_1", 4096 + 56, big, 8);
	tr = tt_test_open(dir);
	assert_int_equal(tt_test_int(tr, "select value from stats where name = 'ctf_truncated'"), 1);
	assert_true(tt_test_int(tr, "select count(*) from raw") >= 60 + 64);
	tt_trace_close(tr);
	tt_test_rm(dir);
}

/* A stray file beside the streams is skipped with a message. */
static void test_garbage_stream(void **state)
{
	char *dir = copy_tiny();
	uint8_t junk[5000];
	tt_trace *tr;

	(void)state;
	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (uint8_t)(i * 131 + 7);
	write_file(dir, "notes.txt", junk, sizeof(junk));
	tr = tt_test_open(dir);
	assert_int_equal(tt_test_int(tr, "select count(*) from raw"), 2072);
	assert_non_null(strstr(tt_test_str(tr, "select str_value from metadata where name = 'ctf.problem.0'"),
			       "notes.txt: bad packet magic"));
	tt_trace_close(tr);
	tt_test_rm(dir);
}

/* Random byte flips in the metadata text and in the stream: whatever
 * happens, no crash, no hang (ASan/UBSan builds check memory). */
static void test_random_corruption(void **state)
{
	char *dir = copy_tiny();
	char path[1024];
	uint8_t *meta, *stream;
	size_t mlen, slen;
	FILE *f;
	unsigned seed = 12345;
	int i, opened = 0;

	(void)state;
	snprintf(path, sizeof(path), "%s/metadata", dir);
	f = fopen(path, "rb");
	assert_non_null(f);
	meta = malloc(1 << 16);
	mlen = fread(meta, 1, 1 << 16, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/chan0_1", dir);
	f = fopen(path, "rb");
	assert_non_null(f);
	stream = malloc(1 << 18);
	slen = fread(stream, 1, 1 << 18, f);
	fclose(f);
	for (i = 0; i < 60; i++) {
		uint8_t *m2 = malloc(mlen), *s2 = malloc(slen);
		tt_err err = { 0 };
		tt_trace *tr;
		int k;

		memcpy(m2, meta, mlen);
		memcpy(s2, stream, slen);
		for (k = 0; k < 8; k++) {
			seed = seed * 1103515245 + 12345;
			if (i % 2)
				m2[(seed >> 8) % mlen] ^= (uint8_t)(1 + (seed >> 3) % 255);
			else
				s2[(seed >> 8) % slen] ^= (uint8_t)(1 + (seed >> 3) % 255);
		}
		write_file(dir, "metadata", m2, mlen);
		write_file(dir, "chan0_1", s2, slen);
		tr = tt_trace_open(dir, NULL, &err);
		if (tr) {
			opened++;
			tt_trace_close(tr);
		} else {
			assert_true(err.msg[0] != '\0');
		}
		free(m2);
		free(s2);
	}
	/* stream corruption (half the cases) keeps the trace openable */
	assert_true(opened >= 30);
	free(meta);
	free(stream);
	tt_test_rm(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing_metadata),
		cmocka_unit_test(test_broken_tsdl),
		cmocka_unit_test(test_ctf2_metadata),
		cmocka_unit_test(test_uuid_mismatch),
		cmocka_unit_test(test_truncated_packet),
		cmocka_unit_test(test_content_size_beyond_packet),
		cmocka_unit_test(test_garbage_stream),
		cmocka_unit_test(test_random_corruption),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
