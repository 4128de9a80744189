/*
 * fuzz_ctf_trace.c - libFuzzer target: a whole CTF trace folder through
 * tt_trace_open (core/import/ctf/import_ctf.c: streams merged, lazy args), then the
 * reads that decode the lazy arg sets again from the stream
 * (tt_ctf_stream_event_at): point lookups by arg_set_id, a full scan of
 * args, and describe_slice. The folder holds the metadata of
 * tests/data/ctf/lttng-ust-tiny and one stream file, chan0_0, which is the
 * input (rewritten in place; the trace is closed before the next input).
 * Each input is imported twice, by one cursor on the import thread and in
 * jobs of one packet on the workers (core/import/ctf/ctf_read.c), which
 * must agree (events, slices, stats, problems).
 * Dictionary: ctf_stream.dict; seeds: the ctf_stream ones.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "termtrace.h"
#include "import_int.h"
#include "storage_int.h"

#define META_DIR TT_SRCDIR "/tests/data/ctf/lttng-ust-tiny/ust/uid/0/64-bit"

static char dir[64];
static char stream_path[128], meta_path[128];

static void cleanup(void)
{
	unlink(stream_path);
	unlink(meta_path);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *meta;
	size_t len;
	FILE *f;

	(void)argc;
	(void)argv;
	snprintf(dir, sizeof(dir), "/tmp/tt-fuzz-ctf-trace-XXXXXX");
	if (!mkdtemp(dir)) {
		perror("fuzz_ctf_trace: mkdtemp");
		exit(1);
	}
	snprintf(stream_path, sizeof(stream_path), "%s/chan0_0", dir);
	snprintf(meta_path, sizeof(meta_path), "%s/metadata", dir);
	atexit(cleanup);
	meta = tt_text_load(META_DIR "/metadata", 1 << 20, &len);
	if (!meta) {
		fprintf(stderr, "fuzz_ctf_trace: cannot read %s/metadata\n", META_DIR);
		exit(1);
	}
	f = fopen(meta_path, "wb");
	if (!f || fwrite(meta, 1, len, f) != len || fclose(f) != 0) {
		perror("fuzz_ctf_trace: metadata");
		exit(1);
	}
	free(meta);
	return 0;
}

static int write_input(const uint8_t *data, size_t size)
{
	int fd = open(stream_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	size_t off = 0;

	if (fd < 0)
		return -1;
	while (off < size) {
		ssize_t n = write(fd, data + off, size - off);

		if (n <= 0)
			break;
		off += (size_t)n;
	}
	close(fd);
	return off == size ? 0 : -1;
}

static void run(tt_trace *tr, const char *sql)
{
	tt_result r;
	tt_err err = { 0 };

	if (tt_query_collect(tr, sql, 0, &r, &err) == TT_OK)
		tt_result_free(&r);
}

/* What must not depend on how the stream was cut into jobs and decoded:
 * the stored events, slices, stats and problems (storage level, without
 * the SQL and descriptions set-up of tt_trace_open). */
static uint64_t mix(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		h ^= (v >> (8 * i)) & 0xff;
		h *= 1099511628211ULL;
	}
	return h;
}

static uint64_t mix_s(uint64_t h, const tt_storage *st, tt_str s)
{
	const char *t = s ? tt_storage_str(st, s) : "";

	for (; t && *t; t++)
		h = mix(h, (unsigned char)*t);
	return mix(h, 0xff);
}

static uint64_t import_digest(int one_thread)
{
	tt_err err = { 0 };
	tt_storage *st = tt_storage_new();
	tt_import im = { .st = st, .path = dir, .err = &err };
	uint64_t h = 0;
	int rc;

	if (!st || tt_import_begin(&im))
		abort(); /* the fuzzer's memory limit is far above this */
	im.opts.ctf_one_thread = one_thread;
	im.opts.ctf_batch = one_thread ? 0 : 1; /* jobs of one packet */
	rc = tt_import_ctf(&im, dir);
	tt_import_end(&im);
	h = mix(h, (uint64_t)rc);
	for (size_t i = 0; i < st->raw.n; i++) {
		h = mix(h, (uint64_t)st->raw.ts[i]);
		h = mix_s(h, st, st->raw.name[i]);
		h = mix(h, tt_storage_raw_id(&st->raw.ucpu, i));
		h = mix(h, tt_storage_raw_id(&st->raw.utid, i));
		h = mix(h, tt_storage_raw_id(&st->raw.arg_set_id, i));
	}
	for (size_t i = 0; i < st->slice.n; i++) {
		h = mix(h, (uint64_t)st->slice.ts[i]);
		h = mix(h, (uint64_t)st->slice.dur[i]);
		h = mix(h, st->slice.track[i]);
		h = mix_s(h, st, st->slice.name[i]);
	}
	for (size_t i = 0; i < TT_STAT_COUNT; i++)
		h = mix(h, (uint64_t)st->stats[i]);
	for (size_t i = 0; i < st->meta.n; i++) {
		h = mix_s(h, st, st->meta.name[i]);
		h = mix_s(h, st, st->meta.sval[i]);
		h = mix(h, (uint64_t)st->meta.ival[i]);
	}
	for (const char *m = err.msg; *m; m++)
		h = mix(h, (unsigned char)*m);
	tt_storage_free(st);
	return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tt_err err = { 0 };
	tt_trace *tr;

	if (write_input(data, size) != 0)
		return 0;
	/* differential: one cursor on the import thread, and jobs of one
	 * packet on the workers (ctf_read.c), must store the same */
	if (import_digest(1) != import_digest(0)) {
		fprintf(stderr, "fuzz_ctf_trace: jobs of one packet store something else than one cursor\n");
		abort();
	}
	tr = tt_trace_open(dir, NULL, &err);
	if (!tr)
		return 0;
	/* one set at a time first (decoded and kept one by one) ... */
	run(tr, "select count(*), sum(length(a.display_value)) from raw r"
		" join args a on a.arg_set_id = r.arg_set_id where r.id % 7 = 0");
	run(tr, "select * from describe_slice where slice_id in (select id from slice limit 20)");
	/* ... then everything left */
	run(tr, "select count(*), total(int_value), total(real_value), sum(length(string_value)),"
		" sum(length(flat_key)) from args");
	run(tr, "select count(*) from args where arg_set_id = (select max(arg_set_id) from raw)");
	tt_trace_close(tr);
	return 0;
}
