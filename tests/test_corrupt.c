/*
 * test_corrupt.c - hostile input (issue 8): the importers on files that
 * were cut, flipped, zeroed, given huge length prefixes, nested absurdly
 * deep or filled with invalid UTF-8, all derived from the real test traces
 * with a fixed random seed (same cases on every run).
 *
 * Every case must end with TT_OK (a prefix or what could be read) or a
 * clear error (non-OK status and a one-line message naming the input),
 * within a time bound (SIGALRM fails the whole binary rather than letting
 * it hang), under ASan/UBSan in the sanitizer build.
 *
 * Truncations are checked exactly: the events kept from a file cut at byte
 * N are those of the same file cut right after its last complete event
 * before N and closed properly. Event boundaries are found here by a
 * scanner independent of the importers (JSON: string-aware bracket depth;
 * Perfetto: the outer Trace.packet framing), then both files are imported
 * and their slices, counters and raw events compared row by row.
 * CTF truncations: the events kept on the cut stream are a prefix, in
 * order, of that stream's events in the whole trace, and never fewer as
 * the cut moves later.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ctf_metadata.h"
#include "ctf_stream.h"
#include "import_int.h"
#include "storage_int.h"
#include "testutil.h"
#include "ctf_writer.c"

/* Bound on one case, seconds (ASan build included); a hang fails. */
#define CASE_SECONDS 20

typedef int (*import_fn)(tt_import *im, tt_bytesrc *src);

/* ---- helpers ------------------------------------------------------------ */

static uint64_t rng_state;

static void rng_seed(uint64_t s) { rng_state = s ? s : 1; }

static uint64_t rng(void)
{
	/* xorshift64: fixed seed -> the same cases on every run */
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void on_alarm(int sig)
{
	static const char m[] = "test_corrupt: a case ran longer than its time bound (hang?)\n";

	(void)sig;
	if (write(2, m, sizeof(m) - 1) < 0) {
		/* nothing more to do: we are exiting anyway */
	}
	_exit(3);
}

static void case_start(void)
{
	signal(SIGALRM, on_alarm);
	alarm(CASE_SECONDS);
}

static void case_end(void) { alarm(0); }

/* One import, as import.c runs one: a fresh storage and slice tracker,
 * the importer (body), flush, finalize when it succeeded; bounded in time.
 * Returns the storage (caller frees) and the status in *rc. */
typedef int (*import_body)(tt_import *im, const void *arg, size_t len);

/* the JSON string cap of the imports that follow, in MiB (0: the importer's) */
static size_t json_max_string_mib;

static tt_storage *import_with(import_body body, const void *arg, size_t len, const char *path,
			       int *rc, tt_err *err)
{
	tt_storage *st = tt_storage_new();
	tt_import im = { .st = st, .path = path, .err = err, .opts.json_max_string_mib = json_max_string_mib };

	assert_non_null(st);
	tt_err_clear(err);
	case_start();
	assert_int_equal(tt_import_begin(&im), 0);
	*rc = body(&im, arg, len);
	tt_import_end(&im);
	if (*rc == TT_OK)
		tt_storage_finalize(st);
	case_end();
	return st;
}

/* From memory: arg is the importer (a import_fn) and the bytes. */
struct mem_input {
	import_fn fn;
	const void *data;
};

static int body_mem(tt_import *im, const void *arg, size_t len)
{
	const struct mem_input *in = arg;
	tt_bytesrc *src = tt_bytesrc_mem(in->data, len);
	int rc;

	assert_non_null(src);
	rc = in->fn(im, src);
	tt_bytesrc_close(src);
	return rc;
}

static tt_storage *import_mem(import_fn fn, const void *data, size_t len, int *rc, tt_err *err)
{
	struct mem_input in = { fn, data };

	return import_with(body_mem, &in, len, "corrupt-input", rc, err);
}

/* A failed import must say what happened, naming the input. */
static void assert_clear_error(int rc, const tt_err *err, const char *what)
{
	if (rc == TT_OK)
		return;
	if (err->msg[0] == 0 || !strstr(err->msg, "corrupt-input") || strchr(err->msg, '\n')) {
		fail_msg("%s: status %d without a clear one-line message naming the input: '%s'",
			 what, rc, err->msg);
	}
}

/* Imports data; the case passes when the import ends in TT_OK or a clear
 * error. Returns the number of slices + counters + raw rows kept. */
static int64_t survive(import_fn fn, const void *data, size_t len, const char *what)
{
	tt_err err;
	int rc;
	tt_storage *st = import_mem(fn, data, len, &rc, &err);
	int64_t n = (int64_t)(st->slice.n + st->counter.n + st->raw.n);

	assert_clear_error(rc, &err, what);
	tt_storage_free(st);
	return n;
}

/* FNV-1a over the rows that make up "the events kept". */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h;
}

struct digest {
	size_t slices, counters, raws, flows;
	uint64_t hash;
};

static struct digest digest(const tt_storage *st)
{
	struct digest d = { st->slice.n, st->counter.n, st->raw.n, st->flow.n, 1469598103934665603ULL };

	for (size_t i = 0; i < st->slice.n; i++) {
		const char *name = tt_storage_str(st, st->slice.name[i]);

		d.hash = fnv(d.hash, &st->slice.ts[i], 8);
		d.hash = fnv(d.hash, &st->slice.dur[i], 8);
		d.hash = fnv(d.hash, &st->slice.track[i], 4);
		d.hash = fnv(d.hash, &st->slice.depth[i], 4);
		d.hash = fnv(d.hash, name, strlen(name));
	}
	for (size_t i = 0; i < st->counter.n; i++) {
		d.hash = fnv(d.hash, &st->counter.ts[i], 8);
		d.hash = fnv(d.hash, &st->counter.value[i], 8);
		d.hash = fnv(d.hash, &st->counter.track[i], 4);
	}
	for (size_t i = 0; i < st->raw.n; i++) {
		const char *name = tt_storage_str(st, st->raw.name[i]);

		d.hash = fnv(d.hash, &st->raw.ts[i], 8);
		d.hash = fnv(d.hash, name, strlen(name));
	}
	return d;
}

static void assert_same_events(const struct digest *got, const struct digest *want, const char *what)
{
	if (got->slices != want->slices || got->counters != want->counters ||
	    got->raws != want->raws || got->flows != want->flows || got->hash != want->hash) {
		fail_msg("%s: kept %zu slices %zu counters %zu raw %zu flows (hash %016" PRIx64
			 "), expected %zu/%zu/%zu/%zu (hash %016" PRIx64 ")",
			 what, got->slices, got->counters, got->raws, got->flows, got->hash,
			 want->slices, want->counters, want->raws, want->flows, want->hash);
	}
}

/* The generic mutations, shared by the JSON and Perfetto cases. */
static void mutate_cases(import_fn fn, const unsigned char *orig, size_t len, uint64_t seed,
			 const char *fmt)
{
	unsigned char *buf = malloc(len);
	char what[96];

	assert_non_null(buf);
	rng_seed(seed);
	/* random byte flips: 1..8 bytes per case */
	for (int c = 0; c < 100; c++) {
		int nflips = 1 + (int)(rng() % 8);

		memcpy(buf, orig, len);
		for (int k = 0; k < nflips; k++)
			buf[rng() % len] ^= (unsigned char)(1 + rng() % 255);
		snprintf(what, sizeof(what), "%s flip case %d", fmt, c);
		survive(fn, buf, len, what);
	}
	/* zeroed regions of 1..4096 bytes */
	for (int c = 0; c < 50; c++) {
		size_t off = rng() % len, n = 1 + rng() % 4096;

		if (n > len - off)
			n = len - off;
		memcpy(buf, orig, len);
		memset(buf + off, 0, n);
		snprintf(what, sizeof(what), "%s zero case %d (%zu bytes at %zu)", fmt, c, n, off);
		survive(fn, buf, len, what);
	}
	/* random bytes over a region (garbage written by a crashing tracer) */
	for (int c = 0; c < 30; c++) {
		size_t off = rng() % len, n = 1 + rng() % 512;

		if (n > len - off)
			n = len - off;
		memcpy(buf, orig, len);
		for (size_t k = 0; k < n; k++)
			buf[off + k] = (unsigned char)rng();
		snprintf(what, sizeof(what), "%s garbage case %d", fmt, c);
		survive(fn, buf, len, what);
	}
	free(buf);
}

/* ---- Chrome JSON ------------------------------------------------------------ */

/* Offsets just after each complete event of the event array (the first
 * '[' of the text), by a scanner that knows only JSON strings and
 * brackets. *arr is the offset after that '['; *arr_end the offset of
 * the ']' that closes it (len when missing). */
static size_t json_event_ends(const unsigned char *t, size_t len, size_t **ends, size_t *arr,
			      size_t *arr_end)
{
	size_t n = 0, cap = 1024, depth = 0, adepth = 0;
	int in_str = 0, esc = 0;

	*ends = malloc(cap * sizeof(**ends));
	assert_non_null(*ends);
	*arr = 0;
	*arr_end = len;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = t[i];

		if (in_str) {
			if (esc)
				esc = 0;
			else if (c == '\\')
				esc = 1;
			else if (c == '"')
				in_str = 0;
			continue;
		}
		if (c == '"') {
			in_str = 1;
		} else if (c == '{' || c == '[') {
			depth++;
			if (c == '[' && !adepth) {
				adepth = depth;
				*arr = i + 1;
			}
		} else if (c == '}' || c == ']') {
			if (adepth && depth == adepth + 1 && c == '}') {
				if (n == cap) {
					cap *= 2;
					*ends = realloc(*ends, cap * sizeof(**ends));
					assert_non_null(*ends);
				}
				(*ends)[n++] = i + 1;
			}
			if (adepth && depth == adepth && c == ']') {
				*arr_end = i;
				adepth = (size_t)-1; /* done: no more events */
			}
			depth--;
		}
	}
	return n;
}

static void json_truncations(const char *name)
{
	size_t len, *ends, arr, arr_end, nev;
	unsigned char *orig = slurp(tt_test_data(name), &len);
	unsigned char *exp = malloc(len + 8);
	char what[128];
	int rc;
	tt_err err;

	assert_non_null(exp);
	nev = json_event_ends(orig, len, &ends, &arr, &arr_end);
	assert_true(nev > 100);
	rng_seed(0x5eed0001);
	for (int c = 0; c < 100; c++) {
		/* cuts anywhere from inside the first event to the end */
		size_t cut = arr + 1 + rng() % (len - arr - 1), k = 0, elen;
		tt_storage *got, *want;
		struct digest dg, dw;

		if (c == 0)
			cut = len - 1; /* cut in the trailing metadata */
		while (k < nev && ends[k] <= cut)
			k++;
		/* expected: the same text cut after event k and closed */
		elen = k ? ends[k - 1] : arr;
		memcpy(exp, orig, elen);
		memcpy(exp + elen, "]}", 2);
		elen += 2;
		snprintf(what, sizeof(what), "%s cut at byte %zu (%zu complete events)", name, cut, k);
		got = import_mem(tt_import_json, orig, cut, &rc, &err);
		if (k == 0) {
			/* nothing complete: an error or an empty trace are both fine */
			assert_clear_error(rc, &err, what);
			tt_storage_free(got);
			continue;
		}
		if (rc != TT_OK)
			fail_msg("%s: import failed: %s", what, err.msg);
		want = import_mem(tt_import_json, exp, elen, &rc, &err);
		assert_int_equal(rc, TT_OK);
		dg = digest(got);
		dw = digest(want);
		assert_same_events(&dg, &dw, what);
		/* the loss is reported when the cut fell inside the array */
		if (cut < arr_end && tt_storage_stat_get(got, TT_STAT_json_truncated) != 1)
			fail_msg("%s: json_truncated not counted", what);
		tt_storage_free(got);
		tt_storage_free(want);
	}
	free(ends);
	free(exp);
	free(orig);
}

static void json_truncate_chromium(void **state)
{
	(void)state;
	json_truncations("chromium-tiny.json");
}

static void json_truncate_uftrace(void **state)
{
	(void)state;
	json_truncations("uftrace-work.json");
}

static void json_mutations(void **state)
{
	size_t len;
	unsigned char *orig = slurp(tt_test_data("chromium-tiny.json"), &len);

	(void)state;
	mutate_cases(tt_import_json, orig, len, 0x5eed0002, "chromium-tiny.json");
	free(orig);
	orig = slurp(tt_test_data("uftrace-work.json"), &len);
	mutate_cases(tt_import_json, orig, len, 0x5eed0003, "uftrace-work.json");
	free(orig);
}

/* Appends s to a growing buffer. */
struct sbuf { char *p; size_t n, cap; };

static void sb_add(struct sbuf *b, const void *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->p = realloc(b->p, b->cap);
		assert_non_null(b->p);
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = 0;
}

static void sb_str(struct sbuf *b, const char *s) { sb_add(b, s, strlen(s)); }

static void json_deep_nesting(void **state)
{
	/* 100000 levels of args, of events, of a bare top-level array */
	static const char *const shapes[][3] = {
		{ "{\"traceEvents\":[{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1,\"name\":\"a\",\"args\":{\"x\":",
		  "[", "]}}]}" },
		{ "{\"traceEvents\":[{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1,\"name\":\"a\",\"args\":",
		  "{\"k\":", "1}]}" },
		{ "", "[", "" },
		{ "{\"traceEvents\":", "[", "" },
	};
	(void)state;
	for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
		struct sbuf b = { 0 };
		tt_err err;
		int rc;
		tt_storage *st;
		char what[64];

		sb_str(&b, shapes[s][0]);
		for (int i = 0; i < 100000; i++)
			sb_str(&b, shapes[s][1]);
		sb_str(&b, shapes[s][2]);
		snprintf(what, sizeof(what), "json deep nesting shape %zu", s);
		st = import_mem(tt_import_json, b.p, b.n, &rc, &err);
		assert_clear_error(rc, &err, what);
		tt_storage_free(st);
		free(b.p);
	}
	/* the cap: nothing before it -> refused, saying why */
	{
		struct sbuf b = { 0 };
		tt_err err;
		int rc;
		tt_storage *st;

		for (int i = 0; i < 1001; i++)
			sb_str(&b, "[");
		st = import_mem(tt_import_json, b.p, b.n, &rc, &err);
		assert_int_equal(rc, TT_EINVAL);
		assert_non_null(strstr(err.msg, "nested deeper than 1000 levels"));
		tt_storage_free(st);
		/* a good event before it is kept, the stop is counted */
		b.n = 0;
		sb_str(&b, "{\"traceEvents\":[{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1,\"name\":\"kept\"},"
			   "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":1,\"name\":\"deep\",\"args\":{\"a\":");
		for (int i = 0; i < 5000; i++)
			sb_str(&b, "[");
		for (int i = 0; i < 5000; i++)
			sb_str(&b, "]");
		sb_str(&b, "}}]}");
		st = import_mem(tt_import_json, b.p, b.n, &rc, &err);
		assert_int_equal(rc, TT_OK);
		assert_int_equal(st->slice.n, 1);
		assert_string_equal(tt_storage_str(st, st->slice.name[0]), "kept");
		assert_int_equal(tt_storage_stat_get(st, TT_STAT_json_parse_error), 1);
		tt_storage_free(st);
		free(b.p);
	}
}

static void json_invalid_utf8(void **state)
{
	/* names, categories, keys and values with bytes that are not UTF-8:
	 * kept as they are, and SQL over them works */
	static const char text[] =
		"{\"traceEvents\":["
		"{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"thread_name\",\"args\":{\"name\":\"t\xff\xfe\"}},"
		"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":5,\"name\":\"bad\xc3\x28name\",\"cat\":\"\xed\xa0\x80\","
		"\"args\":{\"k\xff\":\"v\xf8\x88\x80\x80\x80\"}},"
		"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":1,\"name\":\"\\ud800 lone surrogate\"},"
		"{\"ph\":\"C\",\"pid\":1,\"ts\":3,\"name\":\"c\x80\",\"args\":{\"v\xc0\":1}}"
		"]}";
	char *path = tt_test_write_tmp(text, sizeof(text) - 1, ".json");
	tt_trace *tr = tt_test_open(path);

	(void)state;
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 2);
	assert_int_equal(tt_test_int(tr, "select count(*) from counter"), 1);
	assert_int_equal(tt_test_int(tr, "select length(cast(name as blob)) from slice where ts = 1000"), 9);
	assert_int_equal(tt_test_int(tr, "select count(*) from args where hex(key) = '617267732E6BFF'"), 1);
	free(tt_test_tsv(tr, "select * from slice join thread_track on slice.track_id = thread_track.id"));
	free(tt_test_tsv(tr, "select upper(name), lower(name), name like '%a%' from slice"));
	tt_trace_close(tr);
	tt_test_rm(path);
}

static void json_huge_values(void **state)
{
	/* a 16 MB string as a name and as an arg: imported or refused, in
	 * memory bounded by a small multiple of the input */
	struct sbuf b = { 0 };
	static const char *const heads[] = {
		"{\"traceEvents\":[{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1,\"name\":\"",
		"{\"traceEvents\":[{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1,\"name\":\"a\",\"args\":{\"s\":\"",
		"{\"traceEvents\":[{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1,\"name\":\"a\",\"args\":{\"",
	};
	char *blk = malloc(1 << 20);

	(void)state;
	assert_non_null(blk);
	memset(blk, 'x', 1 << 20);
	for (size_t h = 0; h < 3; h++) {
		b.n = 0;
		sb_str(&b, heads[h]);
		for (int i = 0; i < 16; i++)
			sb_add(&b, blk, 1 << 20);
		sb_str(&b, h == 2 ? "\":1}}]}" : h == 1 ? "\"}}]}" : "\"}]}");
		survive(tt_import_json, b.p, b.n, "json 16 MB string");
		/* and cut in the middle of the string */
		survive(tt_import_json, b.p, b.n / 2, "json 16 MB string cut");
	}
	/* a 40 MiB name: read whole (strings are capped at 1 GiB) */
	b.n = 0;
	sb_str(&b, "{\"traceEvents\":[{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1,\"name\":\"kept\"},"
		   "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":1,\"name\":\"");
	for (int i = 0; i < 40; i++)
		sb_add(&b, blk, 1 << 20);
	sb_str(&b, "\"}]}");
	{
		tt_err err;
		int rc;
		tt_storage *st = import_mem(tt_import_json, b.p, b.n, &rc, &err);

		assert_int_equal(rc, TT_OK);
		assert_int_equal(st->slice.n, 2);
		assert_int_equal(strlen(tt_storage_str(st, st->slice.name[1])), 40u << 20);
		assert_int_equal(tt_storage_stat_get(st, TT_STAT_json_parse_error), 0);
		tt_storage_free(st);
	}
	/* past the cap (lowered to 32 MiB here): the event before it is
	 * kept, the loss is counted, and the import stops without buffering
	 * the rest */
	json_max_string_mib = 32;
	{
		tt_err err;
		int rc;
		tt_storage *st = import_mem(tt_import_json, b.p, b.n, &rc, &err);

		assert_int_equal(rc, TT_OK);
		assert_int_equal(st->slice.n, 1);
		assert_string_equal(tt_storage_str(st, st->slice.name[0]), "kept");
		assert_int_equal(tt_storage_stat_get(st, TT_STAT_json_parse_error), 1);
		tt_storage_free(st);
	}
	json_max_string_mib = 0;
	free(blk);
	free(b.p);
}

/* ---- Perfetto protobuf ------------------------------------------------------ */

static int rd_varint(const unsigned char *p, size_t len, size_t *i, uint64_t *v)
{
	*v = 0;
	for (int s = 0; s < 64 && *i < len; s += 7) {
		unsigned char c = p[(*i)++];

		*v |= (uint64_t)(c & 0x7f) << s;
		if (!(c & 0x80))
			return 0;
	}
	return -1;
}

/* Offsets just after each complete Trace.packet. */
static size_t proto_packet_ends(const unsigned char *p, size_t len, size_t **ends)
{
	size_t i = 0, n = 0;
	uint64_t key, l;

	*ends = malloc((len / 2 + 1) * sizeof(**ends));
	assert_non_null(*ends);
	while (i < len) {
		if (rd_varint(p, len, &i, &key) || rd_varint(p, len, &i, &l) || l > len - i)
			break;
		i += l;
		(*ends)[n++] = i;
	}
	assert_int_equal(i, len); /* the test trace itself is whole */
	return n;
}

static void proto_truncations(void **state)
{
	size_t len, *ends, npk;
	unsigned char *orig = slurp(tt_test_data("chromium-tiny.pftrace"), &len);
	char what[128];
	int rc;
	tt_err err;

	(void)state;
	npk = proto_packet_ends(orig, len, &ends);
	assert_true(npk > 100);
	rng_seed(0x5eed0004);
	for (int c = 0; c < 100; c++) {
		size_t cut = 1 + rng() % (len - 1), k = 0;
		tt_storage *got, *want;
		struct digest dg, dw;

		while (k < npk && ends[k] <= cut)
			k++;
		snprintf(what, sizeof(what), "chromium-tiny.pftrace cut at byte %zu (%zu complete packets)",
			 cut, k);
		got = import_mem(tt_import_proto, orig, cut, &rc, &err);
		if (k == 0) {
			assert_clear_error(rc, &err, what);
			tt_storage_free(got);
			continue;
		}
		if (rc != TT_OK)
			fail_msg("%s: import failed: %s", what, err.msg);
		want = import_mem(tt_import_proto, orig, ends[k - 1], &rc, &err);
		assert_int_equal(rc, TT_OK);
		dg = digest(got);
		dw = digest(want);
		assert_same_events(&dg, &dw, what);
		if (cut != ends[k - 1] && tt_storage_stat_get(got, TT_STAT_proto_truncated) <= 0)
			fail_msg("%s: proto_truncated not counted", what);
		tt_storage_free(got);
		tt_storage_free(want);
	}
	free(ends);
	free(orig);
}

static void proto_mutations(void **state)
{
	size_t len;
	unsigned char *orig = slurp(tt_test_data("chromium-tiny.pftrace"), &len);

	(void)state;
	mutate_cases(tt_import_proto, orig, len, 0x5eed0005, "chromium-tiny.pftrace");
	free(orig);
}

static size_t put_varint(unsigned char *p, uint64_t v)
{
	size_t n = 0;

	do {
		p[n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	return n;
}

static void proto_huge_lengths(void **state)
{
	size_t len, *ends, npk;
	unsigned char *orig = slurp(tt_test_data("chromium-tiny.pftrace"), &len);
	unsigned char *buf = malloc(len + 32);
	static const uint64_t huge[] = { 0x7fffffffULL, 0xffffffffULL, 1ULL << 40, UINT64_MAX,
					 (1ULL << 31) + 5 };
	char what[96];

	(void)state;
	assert_non_null(buf);
	npk = proto_packet_ends(orig, len, &ends);
	rng_seed(0x5eed0006);
	/* the length of packet k replaced by a huge value: the packets before
	 * k are kept, the rest is reported as truncated */
	for (int c = 0; c < 40; c++) {
		size_t k = rng() % npk, start = k ? ends[k - 1] : 0, i = start + 1, n;
		uint64_t l;
		tt_err err;
		int rc;
		tt_storage *st;

		assert_int_equal(rd_varint(orig, len, &i, &l), 0);
		memcpy(buf, orig, start + 1);
		n = start + 1 + put_varint(buf + start + 1, huge[c % 5]);
		memcpy(buf + n, orig + i, len - i);
		n += len - i;
		snprintf(what, sizeof(what), "pftrace huge length %" PRIu64 " on packet %zu", huge[c % 5], k);
		st = import_mem(tt_import_proto, buf, n, &rc, &err);
		assert_clear_error(rc, &err, what);
		if (k > 0 && rc != TT_OK)
			fail_msg("%s: the %zu packets before it were lost: %s", what, k, err.msg);
		tt_storage_free(st);
	}
	/* huge lengths inside a packet (nested fields): random positions */
	for (int c = 0; c < 60; c++) {
		size_t off = 2 + rng() % (len - 12), n;

		memcpy(buf, orig, off);
		n = off + put_varint(buf + off, huge[c % 5]);
		memcpy(buf + n, orig + off + 1, len - off - 1);
		n += len - off - 1;
		snprintf(what, sizeof(what), "pftrace huge varint at %zu", off);
		survive(tt_import_proto, buf, n, what);
	}
	free(buf);
	free(ends);
	free(orig);
}

/* A TracePacket with a TrackEvent whose debug annotation nests depth
 * levels of dict_entries (DebugAnnotation.dict_entries = 11,
 * name = 10, int_value = 4; TrackEvent.debug_annotations = 4,
 * TracePacket.track_event = 11, timestamp = 8, sequence id = 10). */
static unsigned char *proto_deep(int depth, size_t *out_len)
{
	size_t cap = (size_t)depth * 16 + 64, n = 0;
	unsigned char *a = malloc(cap), *b = malloc(cap), *t;
	unsigned char hdr[16];
	size_t h;

	assert_non_null(a);
	assert_non_null(b);
	/* innermost: name "x", int_value 1 */
	a[n++] = 0x52; a[n++] = 1; a[n++] = 'x'; a[n++] = 0x20; a[n++] = 1;
	for (int d = 0; d < depth; d++) {
		size_t m = 0;

		b[m++] = 0x52; b[m++] = 1; b[m++] = 'd';
		b[m++] = 0x5a; /* dict_entries */
		m += put_varint(b + m, n);
		memcpy(b + m, a, n);
		m += n;
		t = a; a = b; b = t;
		n = m;
	}
	/* TrackEvent { type = INSTANT(3) (9), name = "e" (23), debug_annotations (4) } */
	h = 0;
	b[h++] = 0x48; b[h++] = 3;
	b[h++] = 0xba; b[h++] = 0x01; b[h++] = 1; b[h++] = 'e';
	b[h++] = 0x22;
	h += put_varint(b + h, n);
	memcpy(b + h, a, n);
	h += n;
	/* TracePacket { timestamp 1, trusted_packet_sequence_id 1, track_event } */
	n = 0;
	a[n++] = 0x40; a[n++] = 1; a[n++] = 0x50; a[n++] = 1; a[n++] = 0x5a;
	n += put_varint(a + n, h);
	memcpy(a + n, b, h);
	n += h;
	/* Trace { packet } */
	hdr[0] = 0x0a;
	h = 1 + put_varint(hdr + 1, n);
	memcpy(b, hdr, h);
	memcpy(b + h, a, n);
	free(a);
	*out_len = h + n;
	return b;
}

static void proto_deep_nesting(void **state)
{
	static const int depths[] = { 10, 100, 1000, 20000 };

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		size_t len;
		unsigned char *p = proto_deep(depths[i], &len);
		char what[64];

		snprintf(what, sizeof(what), "pftrace debug annotations nested %d deep", depths[i]);
		survive(tt_import_proto, p, len, what);
		free(p);
	}
}

static void proto_invalid_utf8(void **state)
{
	/* TracePacket { timestamp 5, seq 1, track_event { INSTANT, name "\xff\xc3(" } } */
	static const unsigned char pkt[] = {
		0x0a, 14, 0x40, 5, 0x50, 1, 0x5a, 8, 0x48, 3, 0xba, 0x01, 3, 0xff, 0xc3, '(',
	};
	char *path = tt_test_write_tmp(pkt, sizeof(pkt), ".pftrace");
	tt_err err;
	tt_trace *tr = tt_trace_open(path, NULL, &err);

	(void)state;
	if (!tr)
		fail_msg("invalid UTF-8 packet refused: %s", err.msg);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 1);
	assert_int_equal(tt_test_int(tr, "select length(cast(name as blob)) from slice"), 3);
	free(tt_test_tsv(tr, "select upper(name), name like '%(%' from slice"));
	tt_trace_close(tr);
	tt_test_rm(path);
}

static void proto_one_giant_field(void **state)
{
	/* one packet whose single length-delimited field claims 64 MB and
	 * holds 8 MB: refused or skipped without allocating the claim */
	size_t n = 0, body = 8u << 20;
	unsigned char *p = malloc(body + 32);

	(void)state;
	assert_non_null(p);
	p[n++] = 0x0a;
	n += put_varint(p + n, 64u << 20);
	p[n++] = 0x5a;
	n += put_varint(p + n, (64u << 20) - 8);
	memset(p + n, 0x41, body);
	survive(tt_import_proto, p, n + body, "pftrace 64 MB field claimed, 8 MB present");
	free(p);
}

/* ---- CTF ---------------------------------------------------------------------- */

static void copy_file(const char *from, const char *to, size_t keep)
{
	size_t len;
	unsigned char *d = slurp(from, &len);
	FILE *f = fopen(to, "wb");

	assert_non_null(f);
	if (keep > len)
		keep = len;
	assert_int_equal(fwrite(d, 1, keep, f), keep);
	fclose(f);
	free(d);
}

#define UST_DIR "ctf/lttng-ust-tiny/ust/uid/0/64-bit"

/* Copies the lttng-ust-tiny trace into dir with chan0_1 cut at keep bytes
 * (SIZE_MAX: whole). */
static void ust_copy(const char *dir, size_t keep)
{
	char src[1024], dst[1024];
	static const char *const files[] = { "metadata", "chan0_0", "chan0_1" };

	for (int i = 0; i < 3; i++) {
		snprintf(src, sizeof(src), "%s", tt_test_data(UST_DIR));
		snprintf(src + strlen(src), sizeof(src) - strlen(src), "/%s", files[i]);
		snprintf(dst, sizeof(dst), "%s/%s", dir, files[i]);
		copy_file(src, dst, i == 2 ? keep : SIZE_MAX);
	}
}

/* The ts of every raw event on cpu (chan0_1 is cpu 1), in order. */
static size_t raw_ts_of_cpu(const tt_storage *st, int64_t cpu, int64_t **out)
{
	size_t n = 0;

	*out = malloc((st->raw.n + 1) * sizeof(**out));
	assert_non_null(*out);
	for (size_t i = 0; i < st->raw.n; i++)
		if (tt_storage_raw_id(&st->raw.ucpu, i) < st->cpus.n &&
		    st->cpus.cpu[tt_storage_raw_id(&st->raw.ucpu, i)] == cpu)
			(*out)[n++] = st->raw.ts[i];
	return n;
}

static int body_ctf(tt_import *im, const void *dir, size_t len)
{
	(void)len;
	return tt_import_ctf(im, dir);
}

static tt_storage *ctf_import_dir(const char *dir, int *rc, tt_err *err)
{
	return import_with(body_ctf, dir, 0, dir, rc, err);
}

static void ctf_truncations(void **state)
{
	char *dir = tt_test_mkdtemp();
	char path[1024];
	struct stat sb;
	size_t full_n, size, prev_n = 0;
	int64_t *full_ts;
	int rc;
	tt_err err;
	tt_storage *st;
	size_t cuts[100];

	(void)state;
	snprintf(path, sizeof(path), "%s/chan0_1", tt_test_data(UST_DIR));
	assert_int_equal(stat(path, &sb), 0);
	size = (size_t)sb.st_size;
	ust_copy(dir, SIZE_MAX);
	st = ctf_import_dir(dir, &rc, &err);
	if (rc != TT_OK)
		fail_msg("whole ust trace: %s", err.msg);
	full_n = raw_ts_of_cpu(st, 1, &full_ts);
	assert_true(full_n > 100);
	tt_storage_free(st);
	/* 100 sorted cuts so that "never fewer as the cut moves later" holds */
	rng_seed(0x5eed0007);
	for (int c = 0; c < 100; c++)
		cuts[c] = rng() % size;
	for (int a = 1; a < 100; a++)
		for (int b = a; b > 0 && cuts[b - 1] > cuts[b]; b--) {
			size_t t = cuts[b];
			cuts[b] = cuts[b - 1];
			cuts[b - 1] = t;
		}
	for (int c = 0; c < 100; c++) {
		int64_t *ts;
		size_t n;

		ust_copy(dir, cuts[c]);
		st = ctf_import_dir(dir, &rc, &err);
		if (rc != TT_OK)
			fail_msg("ust chan0_1 cut at %zu: %s", cuts[c], err.msg);
		n = raw_ts_of_cpu(st, 1, &ts);
		if (n > full_n || n < prev_n || memcmp(ts, full_ts, n * sizeof(*ts)) != 0)
			fail_msg("ust chan0_1 cut at %zu: kept %zu events (whole %zu, previous cut %zu),"
				 " not a prefix of the whole stream", cuts[c], n, full_n, prev_n);
		if (n < full_n && tt_storage_stat_get(st, TT_STAT_ctf_truncated) <= 0 && cuts[c] % 4096)
			fail_msg("ust chan0_1 cut at %zu: loss not counted in ctf_truncated", cuts[c]);
		prev_n = n;
		free(ts);
		tt_storage_free(st);
	}
	free(full_ts);
	tt_test_rm(dir);
}

/* Parallel decoding (core/import/ctf/ctf_read.c) of a damaged stream: jobs
 * of one packet on the workers keep exactly what one cursor keeps, every
 * complete event before the damage, whether the file is cut in a packet
 * or a packet in the middle has a bad header. */
static int body_ctf_jobs(tt_import *im, const void *dir, size_t len)
{
	(void)len;
	im->opts.ctf_batch = 1;
	return tt_import_ctf(im, dir);
}

static int body_ctf_one(tt_import *im, const void *dir, size_t len)
{
	(void)len;
	im->opts.ctf_one_thread = 1;
	return tt_import_ctf(im, dir);
}

/* Imports dir both ways; both must agree; returns the events kept. */
static size_t cut_import(const char *dir, const int64_t *full_ts, const char *what)
{
	tt_storage *a, *b;
	tt_err err;
	int rc;
	size_t n;

	a = import_with(body_ctf_jobs, dir, 0, dir, &rc, &err);
	if (rc != TT_OK)
		fail_msg("%s: %s", what, err.msg);
	b = import_with(body_ctf_one, dir, 0, dir, &rc, &err);
	if (rc != TT_OK)
		fail_msg("%s (one cursor): %s", what, err.msg);
	n = a->raw.n;
	if (b->raw.n != n || memcmp(a->raw.ts, b->raw.ts, n * sizeof(int64_t)) ||
	    a->slice.n != b->slice.n || memcmp(a->stats, b->stats, sizeof(a->stats)))
		fail_msg("%s: jobs kept %zu events, %zu slices; one cursor %zu, %zu (or stats differ)", what, n,
			 a->slice.n, b->raw.n, b->slice.n);
	if (memcmp(a->raw.ts, full_ts, n * sizeof(int64_t)))
		fail_msg("%s: not a prefix of the whole stream", what);
	tt_storage_free(a);
	tt_storage_free(b);
	return n;
}

static void ctf_parallel_damage(void **state)
{
	char *dir = tt_test_mkdtemp();
	char path[1024];
	ctfw_opts o = { .packet_bytes = 1024 };
	ctfw *w = ctfw_open(dir, &o);
	size_t len, nev = 0, n, cap = 4096;
	unsigned char *orig;
	uint64_t *ends = malloc(cap * sizeof(*ends));
	int64_t *full_ts;
	tt_storage *st;
	tt_err err;
	int rc;

	(void)state;
	assert_non_null(w);
	assert_non_null(ends);
	ctfw_thread(w, 0, 100, 101, "cut");
	for (int i = 0; i < 3000; i++) {
		if (i % 10 == 0) {
			assert_int_equal(ctfw_work(w, 0, 1000 + (uint64_t)i * 10, 1, i), 0);
			assert_int_equal(ctfw_work(w, 0, 1005 + (uint64_t)i * 10, 0, i), 0);
		} else {
			assert_int_equal(ctfw_tick(w, 0, 1000 + (uint64_t)i * 10, (uint64_t)i, i, i % 3 ? "t" : "tock"), 0);
		}
	}
	assert_int_equal(ctfw_close(w), 0);
	snprintf(path, sizeof(path), "%s/chan_0", dir);
	orig = slurp(path, &len);
	/* where each event ends, by one cursor over the whole file */
	{
		ctf_meta *m;
		ctf_stream *s;
		const ctf_event *ev;

		tt_err_clear(&err);
		assert_int_equal(tt_ctf_meta_load(dir, &m, &err), 0);
		assert_int_equal(tt_ctf_stream_open(m, path, &s, &err), 0);
		while (tt_ctf_stream_next(s, &ev) == 1) {
			if (nev == cap) {
				cap *= 2;
				ends = realloc(ends, cap * sizeof(*ends));
				assert_non_null(ends);
			}
			ends[nev++] = tt_ctf_stream_offset(s);
		}
		tt_ctf_stream_close(s);
		tt_ctf_meta_free(m);
	}
	st = import_with(body_ctf_one, dir, 0, dir, &rc, &err);
	assert_int_equal(rc, TT_OK);
	assert_int_equal(st->raw.n, nev);
	assert_true(nev > 3000 && len / 1024 > 40);
	full_ts = malloc(nev * sizeof(*full_ts));
	assert_non_null(full_ts);
	memcpy(full_ts, st->raw.ts, nev * sizeof(*full_ts));
	tt_storage_free(st);
	assert_int_equal(cut_import(dir, full_ts, "whole stream"), nev);
	/* the file cut anywhere: the events that end before the cut */
	rng_seed(0x5eed0018);
	for (int c = 0; c < 40; c++) {
		size_t cut = c ? rng() % len : len / 2 + 7, want = 0;
		char what[64];
		FILE *f = fopen(path, "wb");

		assert_non_null(f);
		assert_int_equal(fwrite(orig, 1, cut, f), cut);
		fclose(f);
		while (want < nev && ends[want] <= cut)
			want++;
		snprintf(what, sizeof(what), "cut at byte %zu", cut);
		n = cut_import(dir, full_ts, what);
		if (n != want)
			fail_msg("%s: kept %zu events, %zu end before the cut", what, n, want);
	}
	/* a bad magic in a packet in the middle: the stream ends before it */
	{
		size_t pk = len / 1024 / 2, want = 0;
		FILE *f = fopen(path, "wb");

		memset(orig + pk * 1024, 0, 4);
		assert_non_null(f);
		assert_int_equal(fwrite(orig, 1, len, f), len);
		fclose(f);
		while (want < nev && ends[want] <= pk * 1024)
			want++;
		n = cut_import(dir, full_ts, "bad magic in mid-stream");
		assert_int_equal(n, want);
		assert_true(want > 1000);
	}
	free(full_ts);
	free(ends);
	free(orig);
	tt_test_rm(dir);
}

static void ctf_mutations(void **state)
{
	char *dir = tt_test_mkdtemp();
	char path[1024];
	size_t len;
	unsigned char *orig, *buf;

	(void)state;
	ust_copy(dir, SIZE_MAX);
	snprintf(path, sizeof(path), "%s/chan0_1", dir);
	orig = slurp(path, &len);
	buf = malloc(len);
	assert_non_null(buf);
	rng_seed(0x5eed0008);
	for (int c = 0; c < 120; c++) {
		FILE *f;
		int rc;
		tt_err err;
		tt_storage *st;

		memcpy(buf, orig, len);
		if (c < 60) {
			for (int k = 0; k < 1 + (int)(rng() % 8); k++)
				buf[rng() % len] ^= (unsigned char)(1 + rng() % 255);
		} else if (c < 90) {
			size_t off = rng() % len, n = 1 + rng() % 4096;
			memset(buf + off, 0, n > len - off ? len - off : n);
		} else {
			/* huge packet_size / content_size: the 64-bit fields after
			 * the packet header of a random packet */
			size_t pk = (rng() % (len / 4096)) * 4096, off = pk + 32 + 8 * (rng() % 6);
			memset(buf + off, 0xff, 8);
		}
		f = fopen(path, "wb");
		assert_non_null(f);
		assert_int_equal(fwrite(buf, 1, len, f), len);
		fclose(f);
		st = ctf_import_dir(dir, &rc, &err);
		if (rc != TT_OK && (err.msg[0] == 0 || strchr(err.msg, '\n')))
			fail_msg("ctf mutation %d: status %d without a clear message", c, rc);
		tt_storage_free(st);
	}
	free(buf);
	free(orig);
	tt_test_rm(dir);
}

static void ctf_metadata_mutations(void **state)
{
	size_t len;
	unsigned char *orig = slurp(tt_test_data("ctf/dmesg-ctf/metadata"), &len);
	unsigned char *buf = malloc(len + 1);

	(void)state;
	assert_non_null(buf);
	rng_seed(0x5eed0009);
	for (int c = 0; c < 300; c++) {
		char *text = NULL;
		size_t tl = 0, n = len;
		ctf_meta *m = NULL;
		tt_err err;

		memcpy(buf, orig, len);
		if (c < 100)
			n = rng() % len;
		else if (c < 250)
			for (int k = 0; k < 1 + (int)(rng() % 4); k++)
				buf[rng() % len] = (unsigned char)rng();
		else
			memset(buf + rng() % len, 0, 1 + rng() % 16);
		case_start();
		if (tt_ctf_meta_unpack(buf, n, "corrupt-input", &text, &tl, &err) == TT_OK &&
		    tt_ctf_meta_parse(text, tl, "corrupt-input", &m, &err) == TT_OK)
			tt_ctf_meta_free(m);
		else if (err.msg[0] == 0)
			fail_msg("metadata case %d: failure without a message", c);
		case_end();
		free(text);
	}
	free(buf);
	free(orig);
}

static void ctf_metadata_deep(void **state)
{
	/* struct { struct { ... } } 100000 deep, and typealias chains */
	struct sbuf b = { 0 };
	char *text = NULL;
	size_t tl;
	ctf_meta *m = NULL;
	tt_err err;
	int rc;

	(void)state;
	sb_str(&b, "/* CTF 1.8 */\ntrace { major = 1; minor = 8; byte_order = le; };\n"
		   "typealias integer { size = 8; } := u8;\nevent { name = e; fields := ");
	for (int i = 0; i < 100000; i++)
		sb_str(&b, "struct { ");
	sb_str(&b, "u8 x; ");
	for (int i = 0; i < 100000; i++)
		sb_str(&b, "} f; ");
	sb_str(&b, "};\n");
	case_start();
	rc = tt_ctf_meta_unpack((const uint8_t *)b.p, b.n, "corrupt-input", &text, &tl, &err);
	if (rc == TT_OK)
		rc = tt_ctf_meta_parse(text, tl, "corrupt-input", &m, &err);
	case_end();
	if (rc == TT_OK)
		tt_ctf_meta_free(m);
	else if (err.msg[0] == 0)
		fail_msg("deep TSDL: failure without a message");
	free(text);
	free(b.p);
}

/* ---- SQL time limit --------------------------------------------------------- */

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* sql, run under the limit armed on tr (a fraction of a second), fails,
 * well within 5 s, and reads as timed out. */
static void assert_stopped(tt_trace *tr, const char *sql)
{
	tt_result r;
	tt_err err;
	double t0;

	case_start();
	t0 = mono();
	assert_int_equal(tt_query_collect(tr, sql, 0, &r, &err), TT_EINVAL);
	case_end();
	assert_true(mono() - t0 < 5.0);
	assert_int_equal(tt_query_timed_out(tr), 1);
}

static void query_timeout(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("chromium-tiny.json"));
	/* a runaway query: a cross join of slice with itself, three times */
	static const char runaway[] = "select count(*) from slice a, slice b, slice c where a.dur + b.dur = c.dur + 1";

	(void)state;
	assert_int_equal(tt_query_timed_out(tr), 0);
	assert_int_equal(tt_query_set_timeout(tr, 0.3), TT_OK);
	/* a quick query is not affected */
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 514);
	assert_stopped(tr, runaway);
	/* re-armed: counted again from the new call */
	assert_int_equal(tt_query_set_timeout(tr, 60), TT_OK);
	assert_int_equal(tt_query_timed_out(tr), 0);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice where dur > 0"), 403);
	/* removed: no state left */
	assert_int_equal(tt_query_set_timeout(tr, 0), TT_OK);
	assert_int_equal(tt_query_timed_out(tr), 0);
	tt_trace_close(tr);
}

/* Functions written in PerfettoSQL that call themselves twice per call: each
 * call runs a short statement of its own, too short for SQLite's progress
 * count, so the limit has to be looked at per call (fuzz_perfetto_sql hung
 * on such a script past its 10 s). Scalar and table functions alike. */
static void query_timeout_recursive_calls(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("chromium-tiny.json"));
	static const char *const scripts[] = {
		"CREATE PERFETTO FUNCTION f2(x INT) RETURNS INT AS "
		"SELECT CASE WHEN $x <= 0 THEN 1 ELSE f2($x - 1) + f2($x - 1) END;"
		"SELECT f2(60)",
		"CREATE PERFETTO FUNCTION g2(x INT) RETURNS TABLE(v INT) AS "
		"SELECT 1 AS v WHERE $x <= 0 UNION ALL SELECT (SELECT count(*) FROM g2($x - 1))"
		" + (SELECT count(*) FROM g2($x - 1)) AS v WHERE $x > 0;"
		"SELECT * FROM g2(60)",
	};

	(void)state;
	/* without a limit, a small case completes: 2^10 leaves */
	assert_int_equal(tt_test_int(tr, "CREATE PERFETTO FUNCTION f1(x INT) RETURNS INT AS "
					 "SELECT CASE WHEN $x <= 0 THEN 1 ELSE f1($x - 1) + f1($x - 1) END;"
					 "SELECT f1(10)"), 1024);
	for (size_t i = 0; i < sizeof(scripts) / sizeof(scripts[0]); i++) {
		assert_int_equal(tt_query_set_timeout(tr, 0.3), TT_OK);
		assert_stopped(tr, scripts[i]);
	}
	/* re-armed, the connection answers again */
	assert_int_equal(tt_query_set_timeout(tr, 60), TT_OK);
	assert_int_equal(tt_test_int(tr, "SELECT f2(4)"), 16);
	assert_int_equal(tt_test_int(tr, "SELECT v FROM g2(3)"), 2);
	tt_trace_close(tr);
}

/* ---- regressions found by the fuzzers (docs/reliability.md) ------------------- */

/* fuzz_proto, storage.c: a TrackEvent slice on a counter track made
 * tt_storage_finalize index slice ids into the counter ts column (NULL
 * when there were no counters: UBSan; out of bounds otherwise), and the
 * counter vtab then read slice ids as counter rows. A track now indexes
 * only rows of its own kind. */
static void regress_slice_on_counter_track(void **state)
{
	tt_storage *st = tt_storage_new();
	tt_track_desc cd = { .type = "counter", .utid = TT_NONE, .upid = TT_NONE,
			     .parent_id = TT_NONE, .is_counter = 1, .cpu = -1 };
	tt_track_desc sd = { .type = "global", .utid = TT_NONE, .upid = TT_NONE,
			     .parent_id = TT_NONE, .cpu = -1 };
	uint32_t ct, stk;

	(void)state;
	ct = tt_storage_track_new(st, &cd);
	stk = tt_storage_track_new(st, &sd);
	/* two slices on the counter track, out of order, no counter at all */
	tt_storage_slice_append(st, ct, 20, 1, 0, tt_storage_intern_cstr(st, "a"), 0, -1, TT_NONE);
	tt_storage_slice_append(st, ct, 10, 1, 0, tt_storage_intern_cstr(st, "b"), 0, -1, TT_NONE);
	tt_storage_slice_append(st, stk, 5, 1, 0, tt_storage_intern_cstr(st, "c"), 0, -1, TT_NONE);
	tt_storage_counter(st, stk, 7, 1.0);
	tt_storage_finalize(st);
	assert_int_equal(st->track.row_off[ct + 1] - st->track.row_off[ct], 0);
	assert_int_equal(st->track.row_off[stk + 1] - st->track.row_off[stk], 1);
	assert_int_equal(st->track.rows[st->track.row_off[stk]], 2);
	assert_int_equal(tt_storage_slice_count(st), 3);
	tt_storage_free(st);
}

/* fuzz_proto, import_proto.c: a TrackEvent whose type is 88 (the 'X' the
 * importer uses for legacy complete events) without a legacy_event read
 * le->duration_us through NULL (segmentation fault). Now an unsupported
 * type, counted. The 16 bytes of tests/fuzz/corpus/proto/crash-te-type-88-... */
static void regress_te_type_x_without_legacy(void **state)
{
	static const unsigned char pkt[] = { 0x0a, 0x0e, 0x40, 0x01, 0x5a, 0x08, 0x48, 0x58,
					     0x60, 0x01, 0x18, 0x01, 0x50, 0x01, 0x18, 0x01 };
	tt_err err;
	int rc;
	tt_storage *st = import_mem(tt_import_proto, pkt, sizeof(pkt), &rc, &err);

	(void)state;
	assert_int_equal(rc, TT_OK);
	assert_int_equal(st->slice.n, 0);
	assert_int_equal(tt_storage_stat_get(st, TT_STAT_proto_legacy_unsupported), 1);
	tt_storage_free(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(json_truncate_chromium),
		cmocka_unit_test(json_truncate_uftrace),
		cmocka_unit_test(json_mutations),
		cmocka_unit_test(json_deep_nesting),
		cmocka_unit_test(json_invalid_utf8),
		cmocka_unit_test(json_huge_values),
		cmocka_unit_test(proto_truncations),
		cmocka_unit_test(proto_mutations),
		cmocka_unit_test(proto_huge_lengths),
		cmocka_unit_test(proto_deep_nesting),
		cmocka_unit_test(proto_invalid_utf8),
		cmocka_unit_test(proto_one_giant_field),
		cmocka_unit_test(ctf_truncations),
		cmocka_unit_test(ctf_parallel_damage),
		cmocka_unit_test(ctf_mutations),
		cmocka_unit_test(ctf_metadata_mutations),
		cmocka_unit_test(ctf_metadata_deep),
		cmocka_unit_test(query_timeout),
		cmocka_unit_test(query_timeout_recursive_calls),
		cmocka_unit_test(regress_slice_on_counter_track),
		cmocka_unit_test(regress_te_type_x_without_legacy),
	};

	setenv("TT_DESCRIPTIONS_PATH", "", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
