/*
 * fuzz_json_chunks.c - libFuzzer target, differential: the JSON importer
 * parsing in parallel chunks (core/import/json/import_json.c, TT_JSON_CHUNK) must
 * store exactly what one parser stores, for any text. Each input is
 * imported with chunks off and with chunks of 16 bytes and of an eighth of
 * the input; a difference in any stored column, stat, metadata or in the
 * status and its message aborts (a crash for libFuzzer).
 * Dictionary: json.dict.
 */
#include <stdio.h>

#include "fuzz_common.h"
#include "storage_int.h"

static uint64_t mix(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		h ^= (v >> (8 * i)) & 0xff;
		h *= 1099511628211ULL;
	}
	return h;
}

static uint64_t mix_str(uint64_t h, const tt_storage *st, tt_str s)
{
	const char *t = s ? tt_storage_str(st, s) : "";

	for (; t && *t; t++) {
		h ^= (unsigned char)*t;
		h *= 1099511628211ULL;
	}
	return mix(h, 0xff);
}

static uint64_t mix_i64(uint64_t h, const int64_t *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		h = mix(h, (uint64_t)v[i]);
	return mix(h, n);
}

static uint64_t mix_u32(uint64_t h, const uint32_t *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		h = mix(h, v[i]);
	return mix(h, n);
}

static uint64_t mix_strs(uint64_t h, const tt_storage *st, const tt_str *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		h = mix_str(h, st, v[i]);
	return mix(h, n);
}

/* Everything the JSON importer writes. */
static uint64_t digest(const tt_storage *st)
{
	uint64_t h = 1469598103934665603ULL;

	h = mix_i64(h, st->process.pid, st->process.n);
	h = mix_strs(h, st, st->process.name, st->process.n);
	h = mix_i64(h, st->process.sort_index, st->process.n);
	h = mix_i64(h, st->thread.tid, st->thread.n);
	h = mix_strs(h, st, st->thread.name, st->thread.n);
	h = mix_u32(h, st->thread.upid, st->thread.n);
	h = mix_i64(h, st->thread.sort_index, st->thread.n);
	h = mix_strs(h, st, st->track.name, st->track.n);
	h = mix_strs(h, st, st->track.type, st->track.n);
	h = mix_u32(h, st->track.utid, st->track.n);
	h = mix_u32(h, st->track.upid, st->track.n);
	h = mix_i64(h, st->slice.ts, st->slice.n);
	h = mix_i64(h, st->slice.dur, st->slice.n);
	h = mix_i64(h, st->slice.thread_ts, st->slice.n);
	h = mix_i64(h, st->slice.thread_dur, st->slice.n);
	h = mix_u32(h, st->slice.track, st->slice.n);
	h = mix_u32(h, st->slice.depth, st->slice.n);
	h = mix_u32(h, st->slice.arg_set_id, st->slice.n);
	h = mix_u32(h, (const uint32_t *)st->slice.parent_id, st->slice.n);
	h = mix_strs(h, st, st->slice.name, st->slice.n);
	h = mix_strs(h, st, st->slice.cat, st->slice.n);
	h = mix_i64(h, st->counter.ts, st->counter.n);
	h = mix_u32(h, st->counter.track, st->counter.n);
	for (size_t i = 0; i < st->counter.n; i++) {
		uint64_t bits;

		memcpy(&bits, &st->counter.value[i], sizeof(bits));
		h = mix(h, bits);
	}
	for (size_t i = 0; i < st->args.n; i++) {
		uint8_t t = st->args.type[i];

		h = mix_str(h, st, st->args.key[i]);
		h = mix(h, t);
		if (TT_ARG_TYPE(t) == TT_ARG_STRING || TT_ARG_TYPE(t) == TT_ARG_JSON)
			h = mix_str(h, st, st->args.val[i].s);
		else
			h = mix(h, (uint64_t)st->args.val[i].i);
	}
	for (size_t i = 0; i < st->args.set_first.n; i++)
		h = mix(h, tt_storage_set_first(st, (uint32_t)i));
	h = mix(h, st->args.set_first.n);
	h = mix_i64(h, st->flow.slice_out, st->flow.n);
	h = mix_i64(h, st->flow.slice_in, st->flow.n);
	h = mix_i64(h, st->stats, TT_STAT_COUNT);
	h = mix_i64(h, st->named.count, st->named.n);
	h = mix_strs(h, st, st->named.name, st->named.n);
	for (size_t i = 0; i < st->meta.n; i++) {
		const char *name = tt_storage_str(st, st->meta.name[i]);

		if (name && strcmp(name, "json_parallel_bytes") == 0)
			continue;
		h = mix_str(h, st, st->meta.name[i]);
		h = mix_str(h, st, st->meta.sval[i]);
		h = mix(h, (uint64_t)st->meta.ival[i]);
	}
	return h;
}

static uint64_t import_digest(const uint8_t *data, size_t len, const char *chunk)
{
	tt_err err = { 0 };
	tt_storage *st = tt_storage_new();
	tt_bytesrc *src = tt_bytesrc_mem(data, len);
	tt_import im = { .st = st, .path = "fuzz-input", .err = &err };
	uint64_t h = 0;
	int rc;

	if (!st || !src || tt_import_begin(&im))
		abort(); /* the fuzzer's memory limit is far above this */
	im.opts.json_chunk = (size_t)atol(chunk);
	rc = tt_import_json(&im, src);
	tt_import_end(&im);
	h = mix(digest(st), (uint64_t)rc);
	for (const char *m = err.msg; *m; m++)
		h = mix(h, (unsigned char)*m);
	tt_bytesrc_close(src);
	tt_storage_free(st);
	return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char eighth[32];
	uint64_t one, a, b;

	if (size < 64)
		return 0; /* chunks start at four chunks' worth of text */
	snprintf(eighth, sizeof(eighth), "%zu", size / 8);
	one = import_digest(data, size, "1000000000");
	a = import_digest(data, size, "16");
	b = import_digest(data, size, eighth);
	if (a != one || b != one) {
		fprintf(stderr, "chunked import differs from one parser (16: %s, %s: %s)\n",
			a != one ? "differs" : "same", eighth, b != one ? "differs" : "same");
		abort();
	}
	return 0;
}
