/*
 * import_int.h - what the importers share: the import context handed to
 * each format's entry point by import.c (sniffing and dispatch).
 *
 * An importer reads its input, appends through storage.h and
 * slice_tracker.h, counts anomalies with tt_storage_stat_add(), updates
 * progress, and returns TT_OK or a status with err filled (one line naming
 * the file and byte offset). A non-OK return with some rows already
 * appended keeps those rows: the trace opens with what came before the
 * problem only when the importer returns TT_OK, so importers that can
 * continue after a local problem count it in stats and return TT_OK.
 */
#ifndef TT_IMPORT_INT_H
#define TT_IMPORT_INT_H

#include "bytesrc.h"
#include "err.h"
#include "slice_tracker.h"
#include "storage.h"
#include "termtrace.h"

/* How to import, chosen by the caller (tt_trace_open reads the test
 * settings TT_JSON_CHUNK, TT_CTF_BATCH, TT_CTF_THREADS from the
 * environment into it): importers read no environment. 0 = default. The
 * result never depends on these, only how the work is split. */
typedef struct tt_import_opts {
	size_t json_chunk;    /* bytes per parallel JSON chunk (>= 16) */
	size_t ctf_batch;     /* events per batch from the CTF reader thread */
	int ctf_one_thread;   /* CTF: read and store on the import thread */
} tt_import_opts;

typedef struct tt_import {
	tt_storage *st;
	tt_slice_tracker *slices;
	/* progress and cancel: importers only read and write its atomics
	 * (tt_import_progress, tt_import_cancelled), never call back */
	tt_progress *progress; /* may be NULL */
	const char *path;      /* for messages */
	tt_err *err;
	tt_import_opts opts;
} tt_import;

/* Progress helpers (no-ops when progress is NULL). */
void tt_import_progress(tt_import *im, uint64_t bytes_done, uint64_t events);
/* Non-zero when the caller asked to cancel. */
int tt_import_cancelled(const tt_import *im);

/* Format entry points. */
int tt_import_json(tt_import *im, tt_bytesrc *src);
int tt_import_proto(tt_import *im, tt_bytesrc *src);
/* tt_import_proto with the packet reader's knobs (tests, benchmarks):
 * threaded 0 reads and unpacks on the calling thread; batch_packets is
 * the packets per batch (0 = the default). The result never depends on
 * them. */
int tt_import_proto_opts(tt_import *im, tt_bytesrc *src, int threaded, size_t batch_packets);
/* dir: a CTF trace directory, or a folder with CTF traces below it. */
int tt_import_ctf(tt_import *im, const char *dir);
/* Non-zero when dir holds at least one CTF trace (a `metadata` file at or
 * below it). */
int tt_ctf_dir_has_trace(const char *dir);

#endif
