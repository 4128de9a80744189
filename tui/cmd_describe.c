/*
 * cmd_describe.c - the `describe` subcommand: opens a trace, looks one slice
 * (or with --track, one track) up in describe_slice / describe_track and
 * prints
 *
 *   NAME  (slice ID, DURATION)
 *   the description, wrapped at 78 columns
 *   link: URL            (when the rule has one)
 *   rule: descriptions/chrome.rules:12 (name)     (with --explain, and what
 *   seen: thread ..., parent ...                   the rules saw and which
 *   also matched: RULE (KIND), ...                 others matched but lost)
 *
 * Options: --wrap N (0 = one line per description, for scripts),
 * --explain, --track. --coverage and --lint (several traces) are in
 * cmd_describe_report.c.
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
	fprintf(stderr,
		"termtrace: %s\n"
		"usage: termtrace describe [--wrap N] [--explain] [--track] TRACE ID\n"
		"       termtrace describe --coverage [--top N] TRACE...\n"
		"       termtrace describe --lint TRACE...\n",
		why);
	return 2;
}

/* Prints text wrapped at width columns (0 = no wrapping). */
void tt_describe_print_wrapped(const char *text, int width, FILE *out)
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

int tt_describe_print_warnings(tt_trace *tr)
{
	tt_result r = { 0 };
	tt_err err = { 0 };
	int n = 0;

	if (tt_query_collect(tr, "select describe_warnings()", 1, &r, &err) == TT_OK &&
	    r.nrows && r.cells[0]) {
		const char *s = r.cells[0];

		while (*s) {
			size_t len = strcspn(s, "\n");

			fprintf(stderr, "termtrace: warning: %.*s\n", (int)len, s);
			s += len + (s[len] == '\n');
			n++;
		}
	}
	tt_result_free(&r);
	return n;
}

/* The other rules that matched, which the winner beat (--explain). */
static void print_losers(tt_trace *tr, int track, long long id)
{
	tt_result r = { 0 };
	tt_err err = { 0 };
	char sql[200];

	snprintf(sql, sizeof(sql),
		 "select rule || ' (' || kind || ')' from describe_rules "
		 "where %s = %lld and matched > 0 and won = 0",
		 track ? "track_id" : "slice_id", id);
	if (tt_query_collect(tr, sql, 0, &r, &err) == TT_OK && r.nrows) {
		printf("also matched:");
		for (size_t i = 0; i < r.nrows; i++)
			printf("%s %s", i ? "," : "", r.cells[i] ? r.cells[i] : "?");
		printf("\n");
	}
	tt_result_free(&r);
}

int tt_cmd_describe(int argc, char **argv)
{
	const char *path = NULL, *idtext = NULL;
	int wrap = 78, rc = 1, explain = 0, track = 0;
	long long id;
	char *end, sql[768], dur[64];
	const char *what;
	tt_trace *tr;
	tt_err err = { 0 };
	tt_result r = { 0 };

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--wrap") == 0 && i + 1 < argc) {
			wrap = (int)strtol(argv[++i], &end, 10);
			if (*end || wrap < 0)
				return usage("--wrap needs a number of columns");
		} else if (strcmp(argv[i], "--explain") == 0) {
			explain = 1;
		} else if (strcmp(argv[i], "--track") == 0) {
			track = 1;
		} else if (strcmp(argv[i], "--coverage") == 0 || strcmp(argv[i], "--lint") == 0) {
			return tt_cmd_describe_report(argc, argv);
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
		return usage("describe needs a TRACE and a SLICE_ID (or --track TRACK_ID)");
	errno = 0;
	id = strtoll(idtext, &end, 10);
	if (*end || end == idtext || errno || id < 0)
		return usage("the id must be a non-negative integer");
	what = track ? "track" : "slice";
	tr = tt_trace_open(path, NULL, &err);
	if (!tr) {
		fprintf(stderr, "termtrace: %s\n", err.msg);
		return 1;
	}
	tt_describe_print_warnings(tr);
	if (track)
		/* a track goes by its name, else its thread's or process's (as in
		 * the viewer and the track rules) */
		snprintf(sql, sizeof(sql),
			 "select coalesce(t.name, th.name, p.name, ''), null, d.description, "
			 "d.doc_link, d.rule, d.kind, t.type from track t "
			 "left join thread th on th.utid = t.utid "
			 "left join process p on p.upid = t.upid "
			 "left join describe_track d on d.track_id = t.id where t.id = %lld", id);
	else
		snprintf(sql, sizeof(sql),
			 "select s.name, s.dur, d.description, d.doc_link, d.rule, d.kind, "
			 "(select name from thread where utid = (select utid from track "
			 "where id = s.track_id)), "
			 "(select name from slice where id = s.parent_id) from slice s "
			 "left join describe_slice d on d.slice_id = s.id where s.id = %lld", id);
	if (tt_query_collect(tr, sql, 1, &r, &err) != TT_OK) {
		fprintf(stderr, "termtrace: %s: %s\n", path, err.msg);
	} else if (r.nrows == 0) {
		fprintf(stderr, "termtrace: %s: no %s with id %lld\n", path, what, id);
	} else if (!r.cells[2]) {
		fprintf(stderr, "termtrace: %s: %s %lld (%s) has no description\n", path, what, id,
			r.cells[0] ? r.cells[0] : "");
	} else {
		if (track) {
			printf("%s  (track %lld, %s)\n", r.cells[0], id, r.cells[6] ? r.cells[6] : "");
		} else {
			tt_timefmt_short(r.cells[1] ? strtoll(r.cells[1], NULL, 10) : 0, 0, dur,
					 sizeof(dur));
			printf("%s  (slice %lld, %s)\n", r.cells[0] ? r.cells[0] : "", id, dur);
		}
		tt_describe_print_wrapped(r.cells[2], wrap, stdout);
		if (r.cells[3])
			printf("link: %s\n", r.cells[3]);
		if (explain) {
			printf("rule: %s (%s)\n", r.cells[4] ? r.cells[4] : "?",
			       r.cells[5] ? r.cells[5] : "?");
			if (!track)
				printf("seen: thread %s, parent %s\n",
				       r.cells[6] && *r.cells[6] ? r.cells[6] : "(none)",
				       r.cells[7] ? r.cells[7] : "(none)");
			print_losers(tr, track, id);
		}
		rc = 0;
	}
	tt_result_free(&r);
	tt_trace_close(tr);
	return rc;
}
