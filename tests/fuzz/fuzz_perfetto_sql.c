/*
 * fuzz_perfetto_sql.c - libFuzzer target: the PerfettoSQL preprocessor
 * (core/sql/perfetto_sql.c, psql_func.c, modules.c). The input is a script
 * run on a fresh tiny trace through tt_query_collect, as `termtrace query`
 * runs it: statement splitting, INCLUDE (of the shipped modules too),
 * CREATE PERFETTO TABLE/VIEW/FUNCTION/MACRO/INDEX, macro expansion and the
 * functions' calls. A 1 s query limit keeps endless recursive CTEs from
 * reading as hangs. Dictionary: perfetto_sql.dict.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "termtrace.h"

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
	setenv("XDG_DATA_HOME", "/nonexistent", 1); /* the shipped modules only */
	snprintf(trace_path, sizeof(trace_path), "/tmp/tt-fuzz-psql-XXXXXX");
	fd = mkstemp(trace_path);
	if (fd < 0 || write(fd, trace_json, sizeof(trace_json) - 1) != (ssize_t)(sizeof(trace_json) - 1))
		abort();
	/* kept open and unlinked: nothing is left in /tmp */
	unlink(trace_path);
	snprintf(trace_path, sizeof(trace_path), "/proc/self/fd/%d", fd);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tt_err err = { 0 };
	tt_trace *tr = tt_trace_open(trace_path, NULL, &err);
	char *sql = malloc(size + 1);
	tt_result res = { 0 };

	if (!tr || !sql)
		goto done;
	memcpy(sql, data, size);
	sql[size] = 0;
	if (tt_query_set_timeout(tr, 1.0) != TT_OK)
		goto done;
	if (tt_query_collect(tr, sql, 1000, &res, &err) == TT_OK)
		tt_result_free(&res);
done:
	free(sql);
	tt_trace_close(tr);
	return 0;
}
