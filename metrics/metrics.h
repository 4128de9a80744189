/*
 * metrics.h - the metric runner: finds metrics/<name>.sql, runs it on a
 * trace (once per trace), turns <name>_annotations into annotation tracks
 * and alerts (core/annotate.c), and fills the <name> field of a protobuf
 * message (termtrace.TraceMetrics by default) from the view <name>_output.
 * Output: protobuf binary, protobuf text format, JSON.
 *
 * Uses only the public core API (termtrace.h) and protobuf-c.
 * The conventions (column names = field names, JSON for nested values,
 * <view>_<field> sub-views for repeated fields, `include 'file.sql';`) are
 * described in docs/metrics.md.
 *
 * Errors: every function clears err first, then fills it on failure.
 *
 * Search path for metric and include files, first match wins:
 *   1. each folder of $TT_METRICS_PATH (colon-separated)
 *   2. $XDG_CONFIG_HOME/termtrace/metrics (default ~/.config/termtrace/metrics)
 *   3. TT_SRCDIR/metrics (the source tree, for uninstalled builds)
 *   4. TT_DATADIR/metrics (where `make install` copies the metric files)
 */
#ifndef TT_METRICS_H
#define TT_METRICS_H

#include <stdio.h>
#include <protobuf-c/protobuf-c.h>

#include "termtrace.h"

typedef enum tt_metrics_format {
	TT_METRICS_TEXT,   /* protobuf text format (default) */
	TT_METRICS_BINARY, /* protobuf wire format */
	TT_METRICS_JSON,   /* JSON, proto field names, int64 as numbers */
} tt_metrics_format;

/* Parses "text" | "binary" | "json"; returns -1 when unknown. */
int tt_metrics_format_parse(const char *s);

typedef struct tt_metric_info {
	char *name;        /* metric name = file name without .sql */
	char *path;        /* the file the search path resolves it to */
	char *summary;     /* first `--` comment line of the file, or "" */
	int has_field;     /* 1 when termtrace.TraceMetrics has a field of that name */
} tt_metric_info;

/* Every metric of the search path (files named [a-z0-9_]+.sql except the
 * include-only helpers lib_*.sql), sorted by name, each once. */
int tt_metrics_list(tt_metric_info **out, size_t *n, tt_err *err);
void tt_metrics_list_free(tt_metric_info *list, size_t n);

/* Resolves a metric or include file name ("x" or "x.sql") on the search
 * path; returns a malloc'ed path or NULL when not found. */
char *tt_metrics_find(const char *name);

/* Runs each metric of the comma-separated list names (spaces allowed) on
 * tr: its SQL, then its annotations. A metric already run on this trace is
 * skipped (so the viewer, `--metrics` and `metrics --run` can share a
 * trace). On error, the views the failing metric created are rolled back
 * and none of its annotations are added; metrics before it stay.
 * Returns TT_OK, TT_EINVAL (err names the metric and what is wrong),
 * TT_EIO (file unreadable) or TT_ENOMEM. */
int tt_metrics_run_names(tt_trace *tr, const char *names, tt_err *err);

/* Runs the metrics (as tt_metrics_run_names) and builds a message of type
 * root (NULL = termtrace.TraceMetrics) whose field <name> is filled from
 * <name>_output for each metric. *out is freed by the caller with
 * protobuf_c_message_free_unpacked(*out, NULL). */
int tt_metrics_compute(tt_trace *tr, const char *names, const ProtobufCMessageDescriptor *root,
		       ProtobufCMessage **out, tt_err *err);

/* The generic converter: a message of type desc from the (at most one) row
 * of relation, nested and repeated fields as in docs/metrics.md. */
int tt_metrics_fill(tt_trace *tr, const char *relation, const ProtobufCMessageDescriptor *desc,
		    ProtobufCMessage **out, tt_err *err);

/* Writes m to out in the given format. Returns TT_OK or TT_EIO/TT_ENOMEM. */
int tt_metrics_write(const ProtobufCMessage *m, tt_metrics_format fmt, FILE *out, tt_err *err);

/* termtrace.TraceMetrics */
const ProtobufCMessageDescriptor *tt_metrics_root_descriptor(void);

#endif
