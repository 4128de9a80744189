/*
 * testutil.h - helpers shared by the cmocka suites: test data paths,
 * temporary files, and one-value SQL queries on an opened trace.
 * Include after <cmocka.h> (and its prerequisites).
 */
#ifndef TT_TESTUTIL_H
#define TT_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>
#include "termtrace.h"

/* Path of tests/data/<name> (static buffer, valid until the next call). */
const char *tt_test_data(const char *name);
/* Path of the source tree's top folder. */
const char *tt_test_srcdir(void);
/* Writes data to a new temporary file whose name ends with suffix; returns
 * its path (malloc'ed; caller frees and unlinks with tt_test_rm). */
char *tt_test_write_tmp(const void *data, size_t len, const char *suffix);
/* Makes a new empty temporary folder; malloc'ed path. */
char *tt_test_mkdtemp(void);
void tt_test_rm(char *path); /* removes a file or a folder tree, frees path */

/* Opens a trace and fails the test (with the error text) when it fails. */
tt_trace *tt_test_open(const char *path);
/* Runs sql and returns the first column of the first row as an integer;
 * fails the test on an SQL error or an empty result. */
int64_t tt_test_int(tt_trace *tr, const char *sql);
/* Same, as text ("NULL" for SQL NULL); static buffer. */
const char *tt_test_str(tt_trace *tr, const char *sql);
/* The whole result as TSV without a header (malloc'ed; caller frees). */
char *tt_test_tsv(tt_trace *tr, const char *sql);
/* Fails the test, naming sql, unless its TSV result is exactly want. */
void tt_test_assert_tsv(tt_trace *tr, const char *sql, const char *want);
/* The value of the stats row name; fails the test when there is none
 * (a misspelt name is an error, not a 0). */
int64_t tt_test_stat(tt_trace *tr, const char *name);

/* A trace written by the test: text goes to a temporary file ending with
 * suffix (".json", ".pftrace"), which is opened; *path gets the file's
 * path for tt_test_close_text, which closes the trace and removes it. */
tt_trace *tt_test_open_text(const char *text, size_t len, const char *suffix, char **path);
void tt_test_close_text(tt_trace *tr, char *path);
/* tt_test_open_text of a NUL-terminated JSON trace. */
tt_trace *tt_test_open_json(const char *json, char **path);

/* Collects "path:line: message" warnings from the parsers that report
 * through a (void *ctx, const char *msg) callback: pass
 * tt_test_collect_warning and a tt_test_warns (n counts them all; the
 * first 8 are kept). */
typedef struct tt_test_warns {
	int n;
	char msg[8][300];
} tt_test_warns;
void tt_test_collect_warning(void *ctx, const char *msg);

#endif
