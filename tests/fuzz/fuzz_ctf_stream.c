/*
 * fuzz_ctf_stream.c - libFuzzer target: one CTF data stream file decoded
 * with a fixed metadata (tests/data/ctf/lttng-ust-tiny, LTTng-UST 64-bit:
 * packet header with magic/uuid/stream_id, packet context with sizes,
 * timestamps, discarded counts and sequence numbers, compact and extended
 * event headers, every integer size). The stream API maps a file, so each
 * input is written to one private temporary file (rewritten in place, not
 * re-created) and decoded with tt_ctf_stream_open/next.
 * Override the metadata folder with TT_FUZZ_CTF_META=DIR.
 * Dictionary: ctf_stream.dict.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctf_stream.h"

#define META_DIR TT_SRCDIR "/tests/data/ctf/lttng-ust-tiny/ust/uid/0/64-bit"
/* A stream of n bytes holds at most n events of >= 1 byte, and empty
 * events are legal in CTF: cap the walk so that a packet of zero-sized
 * events cannot turn into a time-out of the fuzzer instead of a finding. */
#define MAX_EVENTS 200000

static ctf_meta *meta;
static char tmp_path[64];
static int tmp_fd = -1;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("TT_FUZZ_CTF_META");
	tt_err err = { 0 };

	(void)argc;
	(void)argv;
	if (tt_ctf_meta_load(dir ? dir : META_DIR, &meta, &err) != TT_OK) {
		fprintf(stderr, "fuzz_ctf_stream: %s\n", err.msg);
		exit(1);
	}
	snprintf(tmp_path, sizeof(tmp_path), "/tmp/tt-fuzz-ctf-XXXXXX");
	tmp_fd = mkstemp(tmp_path);
	if (tmp_fd < 0) {
		perror("fuzz_ctf_stream: mkstemp");
		exit(1);
	}
	/* Unlinked at once: the stream is opened through /proc/self/fd, so
	 * nothing is left in /tmp whatever way the fuzzer ends. */
	unlink(tmp_path);
	snprintf(tmp_path, sizeof(tmp_path), "/proc/self/fd/%d", tmp_fd);
	return 0;
}

static int write_input(const uint8_t *data, size_t size)
{
	size_t off = 0;

	if (ftruncate(tmp_fd, 0) != 0)
		return -1;
	while (off < size) {
		ssize_t n = pwrite(tmp_fd, data + off, size - off, (off_t)off);
		if (n <= 0)
			return -1;
		off += (size_t)n;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tt_err err = { 0 };
	ctf_stream *s = NULL;
	const ctf_event *ev;
	ctf_discard d;
	long n = 0;

	if (write_input(data, size) != 0)
		return 0;
	if (tt_ctf_stream_open(meta, tmp_path, &s, &err) != TT_OK)
		return 0;
	while (n < MAX_EVENTS && tt_ctf_stream_next(s, &ev) == 1) {
		/* Touch what the importer reads so that bad pointers show. */
		for (size_t i = 0; i < ev->nvals; i++) {
			const ctf_val *v = &ev->vals[i];
			if (v->key)
				n += (long)(strlen(v->key) & 1);
			if (v->kind == CTF_V_STR && v->s)
				n += (long)(memchr(v->s, 0, v->len) != NULL);
		}
		if (ev->procname && ev->procname_len)
			n += ev->procname[ev->procname_len - 1] == 'x';
		tt_ctf_stream_take_discard(s, &d);
		n++;
	}
	tt_ctf_stream_take_discard(s, &d);
	(void)tt_ctf_stream_problem(s);
	tt_ctf_stream_close(s);
	return 0;
}
