/* testutil.c - see testutil.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

const char *tt_test_srcdir(void)
{
	const char *s = getenv("TT_SRCDIR");

	return s && *s ? s : TT_SRCDIR;
}

const char *tt_test_data(const char *name)
{
	static char buf[4096];

	snprintf(buf, sizeof(buf), "%s/tests/data/%s", tt_test_srcdir(), name);
	return buf;
}

char *tt_test_write_tmp(const void *data, size_t len, const char *suffix)
{
	char tmpl[256];
	int fd;
	size_t sl = strlen(suffix);
	FILE *f;

	snprintf(tmpl, sizeof(tmpl), "/tmp/tt-test-XXXXXX%s", suffix);
	fd = mkstemps(tmpl, (int)sl);
	assert_true(fd >= 0);
	f = fdopen(fd, "wb");
	assert_non_null(f);
	if (len)
		assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
	return strdup(tmpl);
}

char *tt_test_mkdtemp(void)
{
	char tmpl[] = "/tmp/tt-test-dir-XXXXXX";

	assert_non_null(mkdtemp(tmpl));
	return strdup(tmpl);
}

void tt_test_rm(char *path)
{
	char cmd[4200];

	if (!path)
		return;
	if (strncmp(path, "/tmp/tt-test", 12) == 0) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", path);
	}
	free(path);
}

tt_trace *tt_test_open(const char *path)
{
	tt_err err = {0};
	tt_trace *tr = tt_trace_open(path, NULL, &err);

	if (!tr)
		fail_msg("open %s: %s", path, err.msg);
	return tr;
}

static const char *first_cell(tt_trace *tr, const char *sql)
{
	static char buf[4096];
	tt_result r;
	tt_err err = {0};

	if (tt_query_collect(tr, sql, 1, &r, &err) != TT_OK)
		fail_msg("query failed: %s: %s", sql, err.msg);
	if (r.nrows < 1 || r.ncols < 1) {
		tt_result_free(&r);
		fail_msg("query returned no rows: %s", sql);
	}
	snprintf(buf, sizeof(buf), "%s", r.cells[0] ? r.cells[0] : "NULL");
	tt_result_free(&r);
	return buf;
}

int64_t tt_test_int(tt_trace *tr, const char *sql)
{
	return strtoll(first_cell(tr, sql), NULL, 10);
}

const char *tt_test_str(tt_trace *tr, const char *sql)
{
	return first_cell(tr, sql);
}

char *tt_test_tsv(tt_trace *tr, const char *sql)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	tt_err err = {0};
	int rc;

	assert_non_null(f);
	rc = tt_query_print(tr, sql, TT_FMT_TSV, 0, f, &err);
	fclose(f);
	if (rc != TT_OK) {
		free(buf);
		fail_msg("query failed: %s: %s", sql, err.msg);
	}
	return buf;
}

void tt_test_collect_warning(void *ctx, const char *msg)
{
	tt_test_warns *w = ctx;

	if (w->n < 8)
		snprintf(w->msg[w->n], sizeof w->msg[0], "%s", msg);
	w->n++;
}

void tt_test_assert_tsv(tt_trace *tr, const char *sql, const char *want)
{
	char *got = tt_test_tsv(tr, sql);
	int same = strcmp(got, want) == 0;

	if (!same)
		fprintf(stderr, "[%s]\n got: [%s]\nwant: [%s]\n", sql, got, want);
	free(got);
	if (!same)
		fail_msg("query result differs: %s", sql);
}

int64_t tt_test_stat(tt_trace *tr, const char *name)
{
	char sql[256];

	snprintf(sql, sizeof(sql), "select value from stats where name = '%s'", name);
	return tt_test_int(tr, sql);
}

tt_trace *tt_test_open_text(const char *text, size_t len, const char *suffix, char **path)
{
	*path = tt_test_write_tmp(text, len, suffix);
	return tt_test_open(*path);
}

tt_trace *tt_test_open_json(const char *json, char **path)
{
	return tt_test_open_text(json, strlen(json), ".json", path);
}

void tt_test_close_text(tt_trace *tr, char *path)
{
	tt_trace_close(tr);
	unlink(path);
	free(path);
}
