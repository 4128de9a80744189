/*
 * import.c - format sniffing and dispatch (formats.md section 0). The
 * decision is made from content, never from the file name: a directory is
 * CTF; a file is peeked (after gzip inflation, which bytesrc does) for
 * `{`/`[` (Chrome JSON), 0x0A (Perfetto Trace.packet), systrace text (the
 * signs trace processor looks for in the first 128 bytes: "# tracer",
 * an HTML page, "TRACE:\n", "cpus=", a leading space), strace output (a
 * first line that is a call "pid secs.usecs name(args) = ret"), or CTF metadata /
 * stream magics (a CTF file opened alone: point at its folder instead).
 */
#include "import_int.h"
#include "hash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Bytes JSON text cannot contain unescaped (below 0x20 but tab/LF/CR). */
static int has_control_bytes(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] < 0x20 && p[i] != '\t' && p[i] != '\n' && p[i] != '\r')
			return 1;
	return 0;
}

void tt_import_set_uuid(tt_import *im, uint64_t msb, uint64_t lsb)
{
	char buf[40];

	snprintf(buf, sizeof(buf), "%08llx-%04llx-%04llx-%04llx-%012llx", (unsigned long long)(msb >> 32),
		 (unsigned long long)(msb >> 16 & 0xffff), (unsigned long long)(msb & 0xffff),
		 (unsigned long long)(lsb >> 48), (unsigned long long)(lsb & 0xffffffffffffull));
	tt_storage_meta_str(im->st, "trace_uuid", buf);
}

/* trace processor's trace_uuid for a trace that names none: FNV-1a 64 of
 * the file's first 4 KiB (as read, compressed or not) as the uuid's low
 * half. A uuid the trace holds replaces it (import_proto.c). */
static void uuid_from_head(tt_import *im)
{
	unsigned char head[4096];
	FILE *f = fopen(im->path, "rb");
	size_t n;

	if (!f)
		return;
	n = fread(head, 1, sizeof(head), f);
	fclose(f);
	tt_import_set_uuid(im, 0, tt_fnv1a64(TT_FNV1A64_SEED, head, n));
}

/* The file's first line is an strace call (up to 4 KiB of it looked at). */
static int strace_head(tt_bytesrc *src)
{
	unsigned char head[4096];
	size_t n = tt_bytesrc_peek(src, head, sizeof(head));

	return n && tt_strace_sniff(head, n);
}

static int sniff_and_import(tt_import *im, const char **format)
{
	struct stat sb;
	unsigned char head[128];
	size_t n, i = 0;
	tt_bytesrc *src;
	int rc, sys;

	if (stat(im->path, &sb) != 0)
		return tt_err_set(im->err, TT_EIO, "%s: no such file or directory", im->path);
	if (S_ISDIR(sb.st_mode)) {
		*format = "ctf";
		if (!tt_ctf_dir_has_trace(im->path))
			return tt_err_set(im->err, TT_EINVAL,
					  "%s: directory holds no CTF trace (no metadata file found)", im->path);
		return tt_import_ctf(im, im->path);
	}
	src = tt_bytesrc_open(im->path, im->err);
	if (!src)
		return im->err->code;
	tt_import_total(im, tt_bytesrc_size(src));
	n = tt_bytesrc_peek(src, head, sizeof(head));
	if (n == 0 && tt_bytesrc_read(src, head, 1, im->err) < 0) {
		/* nothing decoded: corrupt or cut gzip/zstd data, said as such */
		tt_bytesrc_close(src);
		return im->err->code ? im->err->code : TT_EIO;
	}
	if (n == 0) {
		/* Perfetto opens a 0-byte file as a trace with no data; so do we
		 * (SQL-only scripts use one), but the user hears of it. */
		tt_bytesrc_close(src);
		*format = "empty";
		tt_storage_meta_str(im->st, "import_warning", "empty file: the trace holds no data");
		return TT_OK;
	}
	while (i < n && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r'))
		i++;
	if (head[0] == 0x0a && has_control_bytes(head, n)) {
		/* 0x0A is both Trace.packet's tag and a newline: JSON text never
		 * holds raw control bytes, a packet's tags and varints do. */
		*format = "perfetto-proto";
		tt_storage_meta_str(im->st, "trace_type", "proto");
		uuid_from_head(im);
		rc = tt_import_proto(im, src);
	} else if (i < n && (head[i] == '{' || head[i] == '[')) {
		*format = "chrome-json";
		tt_storage_meta_str(im->st, "trace_type", "json");
		uuid_from_head(im);
		rc = tt_import_json(im, src);
	} else if ((sys = tt_systrace_sniff(head, n)) != 0) {
		*format = "systrace";
		tt_storage_meta_str(im->st, "trace_type", "systrace");
		uuid_from_head(im);
		rc = tt_import_systrace(im, src, sys == TT_SYSTRACE_ZLIB);
	} else if (strace_head(src)) {
		*format = "strace";
		tt_storage_meta_str(im->st, "trace_type", "strace");
		uuid_from_head(im);
		rc = tt_import_strace(im, src);
	} else if (head[0] == 0x0a) {
		/* a packet of printable bytes only: rare, but still a packet */
		*format = "perfetto-proto";
		tt_storage_meta_str(im->st, "trace_type", "proto");
		uuid_from_head(im);
		rc = tt_import_proto(im, src);
	} else if ((n >= 4 && memcmp(head, "\xc1\x1f\xfc\xc1", 4) == 0) ||
		   (n >= 4 && memcmp(head, "\x57\x1d\xd1\x75", 4) == 0) ||
		   (n >= 4 && memcmp(head, "\x75\xd1\x1d\x57", 4) == 0) ||
		   (n >= 10 && memcmp(head, "/* CTF 1.8", 10) == 0)) {
		rc = tt_err_set(im->err, TT_EINVAL,
				"%s: a file of a CTF trace; open the folder that holds it and its metadata",
				im->path);
	} else {
		rc = tt_err_set(im->err, TT_EINVAL,
				"%s: unknown format (not Chrome JSON, Perfetto protobuf, systrace, strace or CTF); first byte 0x%02x",
				im->path, head[0]);
	}
	/* trace processor's trace_type (above) and trace_size_bytes: the
	 * trace's own bytes (a gzip or zstd file's, inflated) */
	if (rc == TT_OK)
		tt_storage_meta_int(im->st, "trace_size_bytes",
				    (int64_t)(tt_bytesrc_is_gzip(src) ? tt_bytesrc_offset(src) : tt_bytesrc_size(src)));
	tt_bytesrc_close(src);
	return rc;
}

/* End of import: the sort indexes as process_sort_index_hint /
 * thread_sort_index_hint args, as trace processor gives them. */
static void sort_index_hints(tt_import *im)
{
	tt_storage *st = im->st;

	for (uint32_t i = 0; i < tt_storage_process_count(st); i++) {
		if (tt_storage_process_sort_index(st, i) == TT_TS_NONE)
			continue;
		tt_storage_args_begin(st);
		tt_storage_args_int(st, "process_sort_index_hint", tt_storage_process_sort_index(st, i));
		tt_args_tracker_add_to_process(im->args, i, tt_args_tracker_end(im->args));
	}
	for (uint32_t i = 0; i < tt_storage_thread_count(st); i++) {
		if (tt_storage_thread_sort_index(st, i) == TT_TS_NONE)
			continue;
		tt_storage_args_begin(st);
		tt_storage_args_int(st, "thread_sort_index_hint", tt_storage_thread_sort_index(st, i));
		tt_args_tracker_add_to_thread(im->args, i, tt_args_tracker_end(im->args));
	}
}

void tt_import_end(tt_import *im)
{
	if (im->slices)
		tt_slice_tracker_flush(im->slices);
	tt_slice_tracker_free(im->slices);
	tt_process_tracker_free(im->procs);
	tt_track_tracker_free(im->tracks);
	tt_args_tracker_free(im->args);
	tt_flow_tracker_free(im->flows);
	tt_async_tracker_free(im->async);
	im->flows = NULL;
	im->async = NULL;
	im->slices = NULL;
	im->procs = NULL;
	im->tracks = NULL;
	im->args = NULL;
}

int tt_import_begin(tt_import *im)
{
	im->args = tt_args_tracker_new(im->st);
	im->slices = im->args ? tt_slice_tracker_new(im->st, im->args) : NULL;
	im->procs = tt_process_tracker_new(im->st);
	im->tracks = tt_track_tracker_new(im->st);
	im->flows = tt_flow_tracker_new(im->st);
	im->async = tt_async_tracker_new(im->st, im->args);
	if (im->args && im->slices && im->procs && im->tracks && im->flows && im->async)
		return 0;
	tt_import_end(im);
	return -1;
}

int tt_import_run(tt_storage *st, const char *path, const tt_import_opts *opts,
		  const char **format, tt_err *err)
{
	tt_import im = { .st = st, .path = path, .err = err };
	int rc;

	*format = "unknown";
	if (opts)
		im.opts = *opts;
	if (tt_import_begin(&im))
		return tt_err_set(err, TT_ENOMEM, "%s: out of memory", path);
	rc = sniff_and_import(&im, format);
	tt_slice_tracker_flush(im.slices);
	sort_index_hints(&im);
	tt_import_end(&im);
	if (rc == TT_OK && tt_storage_oom(st))
		rc = tt_err_set(err, TT_ENOMEM, "%s: out of memory while importing", path);
	return rc;
}
