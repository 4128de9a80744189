/*
 * import_int.h - what the importers share: the import context handed to
 * each format's entry point by import.c (sniffing and dispatch).
 *
 * An importer reads its input, decides rows through the import's
 * trackers (processes/threads, tracks, arg sets, flows, slices: made by
 * tt_import_begin) and appends through storage.h, counts anomalies with
 * tt_storage_stat_add(), updates progress, and returns TT_OK or a status
 * with err filled (one line naming the file and byte offset). A non-OK return with some rows already
 * appended keeps those rows: the trace opens with what came before the
 * problem only when the importer returns TT_OK, so importers that can
 * continue after a local problem count it in stats and return TT_OK.
 */
#ifndef TT_IMPORT_INT_H
#define TT_IMPORT_INT_H

#include "args_tracker.h"
#include "async_tracker.h"
#include "bytesrc.h"
#include "err.h"
#include "flow_tracker.h"
#include "process_tracker.h"
#include "slice_tracker.h"
#include "storage.h"
#include "termtrace.h"
#include "track_tracker.h"

/* How to import, chosen by the caller, and the importers' only way back
 * to it. Importers read no environment (tt_trace_open reads the test
 * settings TT_JSON_CHUNK, TT_CTF_BATCH, TT_CTF_THREADS into it) and call
 * nothing of their caller but these callbacks. 0 / NULL = the default.
 * The result never depends on the knobs, only how the work is split. */
typedef struct tt_import_opts {
	size_t json_chunk;    /* bytes per parallel JSON chunk (>= 16) */
	size_t ctf_batch;     /* events per batch from the CTF reader thread */
	int ctf_one_thread;   /* CTF: read and store on the import thread */
	int proto_one_thread; /* Perfetto: read, unpack and merge on the import thread */
	size_t proto_batch;   /* Perfetto: packets per batch */
	size_t json_max_string_mib; /* longest JSON string accepted, in MiB (0: JSON_MAX_STRING_MIB) */
	/* Progress: bytes_total once known (0 = unchanged), then bytes done
	 * and events so far. Cancel: non-zero makes the import stop with
	 * TT_ECANCEL. Both are called on the import thread; either may be
	 * NULL. ctx is theirs. */
	void (*progress)(void *ctx, uint64_t bytes_total, uint64_t bytes_done, uint64_t events);
	int (*cancelled)(void *ctx);
	void *ctx;
} tt_import_opts;

/* What one import holds besides the storage: its trackers (made by
 * tt_import_begin, flushed and freed by tt_import_end), the file's name,
 * the error to fill and the options. */
typedef struct tt_import {
	tt_storage *st;
	tt_slice_tracker *slices;
	tt_process_tracker *procs;
	tt_track_tracker *tracks;
	tt_args_tracker *args;
	tt_flow_tracker *flows;
	tt_async_tracker *async;
	const char *path;      /* for messages */
	tt_err *err;
	tt_import_opts opts;
} tt_import;

static inline void tt_import_total(tt_import *im, uint64_t bytes_total)
{
	if (im->opts.progress && bytes_total)
		im->opts.progress(im->opts.ctx, bytes_total, 0, 0);
}

static inline void tt_import_progress(tt_import *im, uint64_t bytes_done, uint64_t events)
{
	if (im->opts.progress)
		im->opts.progress(im->opts.ctx, 0, bytes_done, events);
}

/* Non-zero when the caller asked to cancel. */
static inline int tt_import_cancelled(const tt_import *im)
{
	return im->opts.cancelled && im->opts.cancelled(im->opts.ctx);
}

/* metadata trace_uuid from its 128 bits, as trace processor prints a
 * uuid: msb then lsb, 8-4-4-4-12 hex digits. */
void tt_import_set_uuid(tt_import *im, uint64_t msb, uint64_t lsb);
/* Makes the trackers of im (on im->st); -1 when out of memory (then
 * none is left). */
int tt_import_begin(tt_import *im);
/* Flushes the slice tracker (open slices end unfinished) and frees the
 * trackers. */
void tt_import_end(tt_import *im);

/* Sniffs the format and imports path into st (opts may be NULL); *format
 * names what was found. */
int tt_import_run(tt_storage *st, const char *path, const tt_import_opts *opts,
		  const char **format, tt_err *err);

/* Format entry points. */
int tt_import_json(tt_import *im, tt_bytesrc *src);
int tt_import_proto(tt_import *im, tt_bytesrc *src);
/* A systrace file (ftrace text, its HTML page, or zlib behind "TRACE:\n"
 * when zlib): core/import/systrace/import_systrace.c. */
int tt_import_systrace(tt_import *im, tt_bytesrc *src, int zlib);
/* What the first bytes of a file say: TT_SYSTRACE_TEXT, TT_SYSTRACE_ZLIB
 * (atrace -z), or 0 (not a systrace file), as trace processor sniffs. */
enum { TT_SYSTRACE_TEXT = 1, TT_SYSTRACE_ZLIB = 2 };
int tt_systrace_sniff(const unsigned char *head, size_t n);
/* strace's text output (core/import/strace/import_strace.c); its sniff:
 * non-zero when the first line is a call as strace -f -ttt writes it. */
int tt_import_strace(tt_import *im, tt_bytesrc *src);
int tt_strace_sniff(const unsigned char *head, size_t n);
/* dir: a CTF trace directory, or a folder with CTF traces below it. */
int tt_import_ctf(tt_import *im, const char *dir);
/* Non-zero when dir holds at least one CTF trace (a `metadata` file at or
 * below it). */
int tt_ctf_dir_has_trace(const char *dir);

#endif
