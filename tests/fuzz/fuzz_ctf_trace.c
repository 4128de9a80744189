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

/* What must not depend on how the stream was cut into jobs and decoded. */
static char *summary(tt_trace *tr)
{
	static const char sql[] =
		"select (select count(*) || ':' || total(ts) || ':' || total(ifnull(cpu, -1)) || ':' ||"
		" total(ifnull(utid, -1)) || ':' || total(ifnull(arg_set_id, -1)) from raw) || '|' ||"
		" (select count(*) || ':' || total(ts) || ':' || total(dur) from slice) || '|' ||"
		" (select ifnull(group_concat(name || '=' || value, ','), '') from stats where value != 0) || '|' ||"
		" (select ifnull(group_concat(str_value, ','), '') from metadata where name like 'ctf.problem.%')";
	tt_result r;
	tt_err err = { 0 };
	char *s = NULL;

	if (tt_query_collect(tr, sql, 1, &r, &err) == TT_OK) {
		if (r.nrows == 1 && r.cells[0])
			s = strdup(r.cells[0]);
		tt_result_free(&r);
	}
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tt_err err = { 0 };
	tt_trace *tr;
	char *one = NULL;

	if (write_input(data, size) != 0)
		return 0;
	/* differential: one cursor on the import thread, then jobs of one
	 * packet on the workers (ctf_read.c) must give the same import */
	setenv("TT_CTF_THREADS", "1", 1);
	tr = tt_trace_open(dir, NULL, &err);
	unsetenv("TT_CTF_THREADS");
	if (tr) {
		one = summary(tr);
		tt_trace_close(tr);
	}
	setenv("TT_CTF_BATCH", "1", 1);
	tr = tt_trace_open(dir, NULL, &err);
	unsetenv("TT_CTF_BATCH");
	if (!tr || !one) {
		if (!tr != !one) {
			fprintf(stderr, "fuzz_ctf_trace: one import failed, the other did not\n");
			abort();
		}
		free(one);
		if (tr)
			tt_trace_close(tr);
		return 0;
	}
	{
		char *jobs = summary(tr);

		if (!jobs || strcmp(jobs, one)) {
			fprintf(stderr, "fuzz_ctf_trace: one cursor gives\n  %s\njobs of one packet give\n  %s\n",
				one, jobs ? jobs : "(null)");
			abort();
		}
		free(jobs);
		free(one);
	}
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
