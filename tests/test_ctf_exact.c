/*
 * test_ctf_exact.c - CTF cases where termtrace once disagreed with
 * babeltrace2, on traces tests/ctf_writer.c writes: arrays and sequences
 * of zero elements before fields of every alignment, TSDL string and
 * character literals (escapes, octal, hex, unicode) in known and unknown
 * attributes, packets whose uuid differs from the metadata's, and clock
 * values that convert past int64 ns. babeltrace2 runs on the same folder
 * and every event, every field must be the same (tests/ctf_compare.c).
 * Also the compiled decoder (ctf_op programs) against the walk of the type
 * trees on every event kind of the writer, whole and cut.
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

/* The compiled decoder (ctf_op programs: flattened structs, runs of fixed
 * fields with one bounds check, one program per event class) against the
 * walk of the type trees, event by event and value by value: every event
 * kind the writer has, both byte orders, both header kinds, natural and
 * byte alignment, values produced and skipped, and a stream cut inside an
 * event (the run that no longer fits is read field by field). */
static void same_val(const ctf_val *a, const ctf_val *b)
{
	assert_string_equal(a->key, b->key);
	assert_int_equal(a->kind, b->kind);
	if (a->kind != CTF_V_STR) /* a string's v is not set */
		assert_true(a->v.u == b->v.u || (a->kind == CTF_V_REAL && a->v.d == b->v.d));
	assert_int_equal(a->len, b->len);
	assert_true((a->s == NULL) == (b->s == NULL));
	if (a->s)
		assert_memory_equal(a->s, b->s, a->len);
}

static int compare_decoders(const char *dir, const char *file, int skip_all)
{
	char path[1200];
	ctf_meta *mp, *mw;
	ctf_stream *sp, *sw;
	const ctf_event *a, *b;
	tt_err err = { 0 };
	uint8_t skip[64];
	int n = 0, ra, rb;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	assert_int_equal(tt_ctf_meta_load(dir, &mp, &err), 0);
	assert_int_equal(tt_ctf_meta_load(dir, &mw, &err), 0);
	assert_non_null(mp->events[0].ops);
	tt_ctf_meta_drop_programs(mw);
	assert_int_equal(tt_ctf_stream_open(mp, path, &sp, &err), 0);
	assert_int_equal(tt_ctf_stream_open(mw, path, &sw, &err), 0);
	memset(skip, 1, sizeof(skip));
	assert_true(mp->nevents <= sizeof(skip));
	if (skip_all) {
		tt_ctf_stream_skip_values(sp, skip);
		tt_ctf_stream_skip_values(sw, skip);
	}
	for (;;) {
		ra = tt_ctf_stream_next(sp, &a);
		rb = tt_ctf_stream_next(sw, &b);
		assert_int_equal(ra, rb);
		if (ra != 1)
			break;
		n++;
		assert_string_equal(a->cls->name, b->cls->name);
		assert_int_equal(a->offset, b->offset);
		assert_int_equal(a->cycles, b->cycles);
		assert_int_equal(a->ts, b->ts);
		assert_int_equal(a->nvals, b->nvals);
		assert_int_equal(a->ncontext, b->ncontext);
		assert_int_equal(a->skipped, b->skipped);
		assert_int_equal(a->has_vtid, b->has_vtid);
		assert_int_equal(a->vtid, b->vtid);
		assert_int_equal(a->vpid, b->vpid);
		assert_int_equal(a->procname_len, b->procname_len);
		if (a->procname_len)
			assert_memory_equal(a->procname, b->procname, a->procname_len);
		for (size_t i = 0; i < a->nvals; i++)
			same_val(&a->vals[i], &b->vals[i]);
	}
	assert_memory_equal(tt_ctf_stream_stats(sp), tt_ctf_stream_stats(sw), sizeof(ctf_stream_stats));
	assert_string_equal(strchr(tt_ctf_stream_problem(sp), ':') ? strchr(tt_ctf_stream_problem(sp), ':') : "",
			    strchr(tt_ctf_stream_problem(sw), ':') ? strchr(tt_ctf_stream_problem(sw), ':') : "");
	tt_ctf_stream_close(sp);
	tt_ctf_stream_close(sw);
	tt_ctf_meta_free(mp);
	tt_ctf_meta_free(mw);
	return n;
}

static void test_programs_vs_walk(void **state)
{
	(void)state;
	for (int v = 0; v < 8; v++) {
		char *dir = tt_test_mkdtemp(), path[1200];
		ctfw_opts o = { .big_endian = v & 1, .large_header = (v >> 1) & 1, .natural_align = v >> 2,
				.offset_s = 1700000000, .packet_bytes = 512, .ip_context = v == 3, .kernel = v == 6 };
		ctfw *w = ctfw_open(dir, &o);
		static const uint8_t bid[20] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 };
		uint64_t ts = 1000;
		FILE *f;
		long size;
		int n;

		assert_non_null(w);
		ctfw_thread(w, 0, 4000, 4001, "prog-walk");
		for (unsigned i = 0; i < 300; i++, ts += 977 + (i % 50 == 49 ? (UINT64_C(1) << 28) : 0)) {
			switch (i % 11) {
			case 0: assert_int_equal(ctfw_tick(w, 0, ts, i, -(int32_t)i, i % 3 ? "tick" : ""), 0); break;
			case 1: assert_int_equal(ctfw_work(w, 0, ts, i & 1, (int32_t)i), 0); break;
			case 2: assert_int_equal(ctfw_bits(w, 0, ts, i & 7, -(int)(i & 3), i & 31, -(int32_t)i,
							   (uint64_t)i << 33, (int8_t)-i, (int)(i & 1)), 0); break;
			case 3: assert_int_equal(ctfw_far(w, 0, ts, i * 7), 0); break;
			case 4: assert_int_equal(ctfw_sched_switch(w, 0, ts, "a", (int32_t)i, i & 3, "bb", (int32_t)i + 1), 0); break;
			case 5: assert_int_equal(ctfw_openat(w, 0, ts, i & 1, "/etc/passwd", -(int64_t)i), 0); break;
			case 6: assert_int_equal(ctfw_zlen(w, 0, ts, i % 4, 10 + i), 0); break;
			case 7: assert_int_equal(ctfw_bin_info(w, 0, ts, 0x400000 + i, 4096, "/bin/x", 1, 1), 0); break;
			case 8: assert_int_equal(ctfw_build_id(w, 0, ts, 0x400000, bid, i % 21), 0); break;
			default: assert_int_equal(ctfw_func(w, 0, ts, i & 1, 0x1000 + i, 0x2000 + i), 0); break;
			}
		}
		assert_int_equal(ctfw_close(w), 0);
		n = compare_decoders(dir, "chan_0", 0);
		assert_int_equal(n, 300);
		assert_int_equal(compare_decoders(dir, "chan_0", 1), 300);
		/* cut inside the last packet's events */
		snprintf(path, sizeof(path), "%s/chan_0", dir);
		f = fopen(path, "rb");
		assert_non_null(f);
		fseek(f, 0, SEEK_END);
		size = ftell(f);
		fclose(f);
		for (long cut = 1; cut <= 133; cut += 12) {
			assert_int_equal(truncate(path, size - cut), 0);
			n = compare_decoders(dir, "chan_0", (int)(cut & 1));
			assert_true(n <= 300); /* the first cuts take padding */
			size -= cut;
		}
		assert_true(n < 300);
		tt_test_rm(dir);
	}
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

/* The packets the parallel import cuts into jobs (tt_ctf_stream_packets),
 * and what the import gives in jobs of one packet (TT_CTF_BATCH=1). */
static char *packets_and_import(const char *dir, const char *file, int *by_file)
{
	char path[1200], *out, *imp;
	ctf_meta *m;
	ctf_stream *s;
	const ctf_packet *pk;
	size_t n, len = 0;
	tt_err err = { 0 };
	tt_trace *tr;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	assert_int_equal(tt_ctf_meta_load(dir, &m, &err), 0);
	assert_int_equal(tt_ctf_stream_open(m, path, &s, &err), 0);
	assert_int_equal(tt_ctf_stream_packets(s, &pk, &n), 0);
	*by_file = tt_ctf_stream_indexed_by_file(s);
	out = malloc(n * 64 + 1);
	assert_non_null(out);
	out[0] = '\0';
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(out + len, "%llu:%llu:%lld:%d,", (unsigned long long)pk[i].off,
				       (unsigned long long)pk[i].content_bytes, (long long)pk[i].ts, pk[i].cut);
	tt_ctf_stream_close(s);
	tt_ctf_meta_free(m);
	setenv("TT_CTF_BATCH", "1", 1);
	tr = tt_test_open(dir);
	unsetenv("TT_CTF_BATCH");
	imp = tt_test_tsv(tr, "select r.id, r.ts, r.name, r.cpu, r.utid, a.key, a.display_value from raw r "
			      "left join args a using(arg_set_id) order by r.id, a.id");
	out = realloc(out, len + strlen(imp) + 2);
	assert_non_null(out);
	sprintf(out + len, "\n%s", imp);
	free(imp);
	tt_trace_close(tr);
	return out;
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
	/* the parallel import's packets and events: the same from the index
	 * file and from the headers (index moved away) */
	{
		char *with, *without;
		int f1, f2;

		with = packets_and_import(dir, "chan0_1", &f1);
		snprintf(cmd, sizeof(cmd), "mv '%s/index' '%s/index.away'", dir, dir);
		assert_int_equal(system(cmd), 0);
		without = packets_and_import(dir, "chan0_1", &f2);
		snprintf(cmd, sizeof(cmd), "mv '%s/index.away' '%s/index'", dir, dir);
		assert_int_equal(system(cmd), 0);
		assert_int_equal(f1, 1);
		assert_int_equal(f2, 0);
		assert_true(strlen(with) > 2072 * 10);
		assert_string_equal(with, without);
		free(with);
		free(without);
	}
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

/* Lazy arg sets read one at a time (point lookups, last event first: each
 * decodes its event again from the stream) and all at once (a full scan)
 * give babeltrace2's fields, on a two-stream trace of many small packets
 * imported in jobs of one packet on the workers. */
static void test_lazy_args_vs_babeltrace(void **state)
{
	char *dir = tt_test_mkdtemp();
	ctfw_opts o = { .packet_bytes = 512, .nstreams = 2 };
	ctfw *w = ctfw_open(dir, &o);
	lines want = { 0 }, got = { 0 };
	tt_trace *tr;
	tt_result ev;
	tt_err err = { 0 };
	size_t bad = 0;

	(void)state;
	assert_non_null(w);
	ctfw_thread(w, 0, 500, 500, "lazy-main");
	ctfw_thread(w, 1, 500, 501, "lazy-worker");
	for (int i = 0; i < 600; i++) {
		int s = i % 2;
		uint64_t ts = 1000 + (uint64_t)i * 37;

		switch (i % 4) {
		case 0:
			assert_int_equal(ctfw_bits(w, s, ts, (unsigned)i % 8, -i * 3, (unsigned)i & 1,
						   (i << 10) - 77, UINT64_C(0x8000000000000000) + (uint64_t)i,
						   (int8_t)(i - 128), i % 7 - 3), 0);
			break;
		case 1:
			assert_int_equal(ctfw_tick(w, s, ts, (uint64_t)i * 1000003, -i, i % 3 ? "tick" : "a longer message"), 0);
			break;
		case 2:
			assert_int_equal(ctfw_work(w, s, ts, 1, i), 0);
			break;
		default:
			assert_int_equal(ctfw_work(w, s, ts, 0, i - 1), 0);
			break;
		}
	}
	assert_int_equal(ctfw_close(w), 0);
	bt2_expect(dir, &want);
	assert_int_equal(want.n, 600);
	setenv("TT_CTF_BATCH", "1", 1);
	tr = tt_test_open(dir);
	unsetenv("TT_CTF_BATCH");
	assert_int_equal(tt_query_collect(tr,
		"select r.ts, r.name, ifnull(r.cpu, -1), ifnull(t.tid, -1), ifnull(p.pid, -1), r.arg_set_id "
		"from raw r left join thread t on t.utid = r.utid left join process p on p.upid = t.upid "
		"order by r.id desc", 0, &ev, &err), 0);
	assert_int_equal(ev.nrows, 600);
	for (size_t i = 0; i < ev.nrows; i++) {
		char **row = ev.cells + i * 6, sql[256], f[8192] = "", line[8400];
		tt_result a;

		if (row[5]) {
			snprintf(sql, sizeof(sql), "select arg_set_id, key, int_value, string_value, real_value, "
				 "value_type from args where arg_set_id = %s order by id", row[5]);
			assert_int_equal(tt_query_collect(tr, sql, 0, &a, &err), 0);
			for (size_t k = 0; k < a.nrows; k++)
				fmt_arg(f, sizeof(f), a.cells + k * 6);
			tt_result_free(&a);
		}
		snprintf(line, sizeof(line), "%s\t%s\t%s\t%s\t%s\t%s", row[0], row[1], row[2], row[3], row[4], f);
		lines_add(&got, line);
	}
	tt_result_free(&ev);
	qsort(got.v, got.n, sizeof(*got.v), cmp_line);
	qsort(want.v, want.n, sizeof(*want.v), cmp_line);
	for (size_t i = 0; i < got.n; i++)
		if (strcmp(got.v[i], want.v[i]) && bad++ < 3)
			print_error("lookup %zu\n  termtrace:   %s\n  babeltrace2: %s\n", i, got.v[i], want.v[i]);
	assert_int_equal(bad, 0);
	/* and the full scan, now that some sets are stored */
	same_events("lazy scan", tr, &want);
	tt_trace_close(tr);
	lines_free(&got);
	lines_free(&want);
	tt_test_rm(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zero_length_arrays),
		cmocka_unit_test(test_programs_vs_walk),
		cmocka_unit_test(test_literals),
		cmocka_unit_test(test_unicode_literals),
		cmocka_unit_test(test_uuid_mismatch_read),
		cmocka_unit_test(test_timestamp_overflow),
		cmocka_unit_test(test_packet_index_file),
		cmocka_unit_test(test_lazy_args_vs_babeltrace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
