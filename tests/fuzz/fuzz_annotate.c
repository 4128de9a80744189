/*
 * fuzz_annotate.c - libFuzzer target: metric annotation ingestion
 * (tt_annotate_sql, core/annotate.c). The input is a small table in text:
 *
 *     col<TAB>col<TAB>...        first line: column names (at most 16)
 *     val<TAB>val<TAB>...        one line per row (at most 256 rows)
 *
 * A value `\N` is SQL NULL, a whole integer or real number is bound as
 * one, anything else as text (bytes as they are: invalid UTF-8 included).
 * The rows go into a table of a freshly opened tiny trace and the table is
 * ingested as the metric `fuzz`'s annotations; then the alert table and
 * the new tracks are read back through SQL. Dictionary: annotate.dict.
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "termtrace.h"

#define MAX_COLS 16
#define MAX_ROWS 256

static char trace_path[64];

static const char trace_json[] =
	"{\"traceEvents\":["
	"{\"ph\":\"M\",\"pid\":1,\"tid\":2,\"name\":\"thread_name\",\"args\":{\"name\":\"main\"}},"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":1,\"dur\":100,\"name\":\"a\"},"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":2,\"dur\":50,\"name\":\"b\"},"
	"{\"ph\":\"C\",\"pid\":1,\"ts\":3,\"name\":\"mem\",\"args\":{\"v\":7}}"
	"]}";

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd;

	(void)argc;
	(void)argv;
	setenv("TT_DESCRIPTIONS_PATH", "", 1); /* no rule files: faster open */
	snprintf(trace_path, sizeof(trace_path), "/tmp/tt-fuzz-annot-XXXXXX");
	fd = mkstemp(trace_path);
	if (fd < 0 || write(fd, trace_json, sizeof(trace_json) - 1) != (ssize_t)(sizeof(trace_json) - 1))
		abort();
	/* Kept open and unlinked: opened through /proc/self/fd, so nothing
	 * is left in /tmp whatever way the fuzzer ends. */
	unlink(trace_path);
	snprintf(trace_path, sizeof(trace_path), "/proc/self/fd/%d", fd);
	return 0;
}

/* Splits the next line of [*p, end) at tabs into at most max cells
 * (pointers into buf, NUL-terminated in place). Returns the cell count,
 * -1 at the end of the input. */
static int next_line(char **p, char *end, char **cells, int max)
{
	char *s = *p, *e;
	int n = 0;

	if (s >= end)
		return -1;
	e = memchr(s, '\n', (size_t)(end - s));
	if (!e)
		e = end;
	*e = 0;
	*p = e + 1;
	cells[n++] = s;
	for (char *q = s; q < e && n < max; q++) {
		if (*q == '\t') {
			*q = 0;
			cells[n++] = q + 1;
		}
	}
	return n;
}

static void bind_cell(sqlite3_stmt *st, int i, const char *v)
{
	char *end;
	long long ll;
	double d;

	if (strcmp(v, "\\N") == 0) {
		sqlite3_bind_null(st, i);
		return;
	}
	if (*v) {
		ll = strtoll(v, &end, 10);
		if (*end == 0) {
			sqlite3_bind_int64(st, i, ll);
			return;
		}
		d = strtod(v, &end);
		if (*end == 0) {
			sqlite3_bind_double(st, i, d);
			return;
		}
	}
	sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
}

static int load_table(sqlite3 *db, char *buf, size_t size)
{
	char *p = buf, *end = buf + size, *cells[MAX_COLS];
	char *sql;
	sqlite3_stmt *st = NULL;
	int ncols, n, rows = 0, rc;

	ncols = next_line(&p, end, cells, MAX_COLS);
	if (ncols <= 0)
		return -1;
	sql = sqlite3_mprintf("create table fuzz_annotations(\"%w\"", cells[0]);
	for (int i = 1; i < ncols && sql; i++) {
		char *s = sqlite3_mprintf("%s, \"%w\"", sql, cells[i]);
		sqlite3_free(sql);
		sql = s;
	}
	if (sql) {
		char *s = sqlite3_mprintf("%s)", sql);
		sqlite3_free(sql);
		sql = s;
	}
	if (!sql)
		return -1;
	rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return -1;
	sql = sqlite3_mprintf("insert into fuzz_annotations values(?");
	for (int i = 1; i < ncols && sql; i++) {
		char *s = sqlite3_mprintf("%s, ?", sql);
		sqlite3_free(sql);
		sql = s;
	}
	if (sql) {
		char *s = sqlite3_mprintf("%s)", sql);
		sqlite3_free(sql);
		sql = s;
	}
	if (!sql)
		return -1;
	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return -1;
	while (rows < MAX_ROWS && (n = next_line(&p, end, cells, MAX_COLS)) >= 0) {
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
		for (int i = 0; i < n && i < ncols; i++)
			bind_cell(st, i + 1, cells[i]);
		sqlite3_step(st);
		rows++;
	}
	sqlite3_finalize(st);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tt_err err = { 0 };
	tt_trace *tr = tt_trace_open(trace_path, NULL, &err);
	char *buf = malloc(size + 1);
	tt_result res = { 0 };

	if (!tr || !buf)
		goto done;
	memcpy(buf, data, size);
	buf[size] = 0;
	if (load_table(tt_trace_db(tr), buf, size) != 0)
		goto done;
	if (tt_annotate_sql(tr, "fuzz", "fuzz_annotations", &err) == TT_OK) {
		if (tt_query_collect(tr, "select * from alert", 0, &res, &err) == TT_OK)
			tt_result_free(&res);
		if (tt_query_collect(tr, "select s.*, t.name from slice s join track t on s.track_id = t.id",
				     0, &res, &err) == TT_OK)
			tt_result_free(&res);
	}
done:
	free(buf);
	tt_trace_close(tr);
	return 0;
}
