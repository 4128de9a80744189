/*
 * cmd_describe.c - the `describe` subcommand: opens a trace, looks one slice
 * up in describe_slice and prints
 *
 *   NAME  (slice ID, DURATION)
 *   the description, wrapped at 78 columns
 *   link: URL            (when the rule has one)
 *
 * Options: --wrap N (0 = one line per description, for scripts).
 * Known limits: wrapping counts bytes, so a line with multi-byte UTF-8
 * text can be a little shorter than N columns.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_describe.h"
#include "termtrace.h"
#include "timefmt.h"

static int usage(const char *why)
{
	fprintf(stderr, "termtrace: %s\nusage: termtrace describe [--wrap N] TRACE SLICE_ID\n", why);
	return 2;
}

/* Prints text wrapped at width columns (0 = no wrapping). */
static void print_wrapped(const char *text, int width, FILE *out)
{
	size_t col = 0;

	if (width <= 0) {
		fprintf(out, "%s\n", text);
		return;
	}
	while (*text) {
		size_t w = strcspn(text, " ");

		if (col > 0 && col + 1 + w > (size_t)width) {
			fputc('\n', out);
			col = 0;
		} else if (col > 0) {
			fputc(' ', out);
			col++;
		}
		fwrite(text, 1, w, out);
		col += w;
		text += w;
		while (*text == ' ')
			text++;
	}
	fputc('\n', out);
}

static void print_warnings(tt_trace *tr)
{
	tt_result r = { 0 };
	tt_err err = { 0 };

	if (tt_query_collect(tr, "select describe_warnings()", 1, &r, &err) == TT_OK &&
	    r.nrows && r.cells[0]) {
		const char *s = r.cells[0];

		while (*s) {
			size_t len = strcspn(s, "\n");

			fprintf(stderr, "termtrace: warning: %.*s\n", (int)len, s);
			s += len + (s[len] == '\n');
		}
	}
	tt_result_free(&r);
}

int tt_cmd_describe(int argc, char **argv)
{
	const char *path = NULL, *idtext = NULL;
	int wrap = 78, rc = 1;
	long long id;
	char *end, sql[256], dur[64];
	tt_trace *tr;
	tt_err err = { 0 };
	tt_result r = { 0 };

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--wrap") == 0 && i + 1 < argc) {
			wrap = (int)strtol(argv[++i], &end, 10);
			if (*end || wrap < 0)
				return usage("--wrap needs a number of columns");
		} else if (argv[i][0] == '-' && argv[i][1] && !path) {
			return usage("unknown option");
		} else if (!path) {
			path = argv[i];
		} else if (!idtext) {
			idtext = argv[i];
		} else {
			return usage("too many arguments");
		}
	}
	if (!path || !idtext)
		return usage("describe needs a TRACE and a SLICE_ID");
	errno = 0;
	id = strtoll(idtext, &end, 10);
	if (*end || end == idtext || errno || id < 0)
		return usage("SLICE_ID must be a slice id (a non-negative integer)");
	tr = tt_trace_open(path, NULL, &err);
	if (!tr) {
		fprintf(stderr, "termtrace: %s\n", err.msg);
		return 1;
	}
	print_warnings(tr);
	snprintf(sql, sizeof(sql),
		 "select s.name, s.dur, d.description, d.doc_link from slice s "
		 "left join describe_slice d on d.slice_id = s.id where s.id = %lld", id);
	if (tt_query_collect(tr, sql, 1, &r, &err) != TT_OK) {
		fprintf(stderr, "termtrace: %s: %s\n", path, err.msg);
	} else if (r.nrows == 0) {
		fprintf(stderr, "termtrace: %s: no slice with id %lld\n", path, id);
	} else if (!r.cells[2]) {
		fprintf(stderr, "termtrace: %s: slice %lld (%s) has no description\n", path, id,
			r.cells[0] ? r.cells[0] : "");
	} else {
		tt_timefmt_exact(r.cells[1] ? strtoll(r.cells[1], NULL, 10) : 0, 1, dur, sizeof(dur));
		printf("%s  (slice %lld, %s)\n", r.cells[0] ? r.cells[0] : "", id, dur);
		print_wrapped(r.cells[2], wrap, stdout);
		if (r.cells[3])
			printf("link: %s\n", r.cells[3]);
		rc = 0;
	}
	tt_result_free(&r);
	tt_trace_close(tr);
	return rc;
}
