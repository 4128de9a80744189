/*
 * main.c - the termtrace command line: the viewer, `info`, `query`, and
 * the other subcommands. Exit codes: 0 ok, 1 bad input or query error (one
 * line on stderr naming the file and the problem), 2 usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_describe.h"
#include "cmd_metrics.h"
#include "metrics.h"
#include "termtrace.h"
#include "viewer.h"

static const char usage_text[] =
	"usage: termtrace [options] TRACE            open TRACE in the viewer\n"
	"       termtrace info [--metrics A,B] TRACE summary: format, counts, time range, stats\n"
	"       termtrace query [options] TRACE [SQL] run SQL (or -f FILE, or stdin), print the last result\n"
	"       termtrace describe [--explain] [--track] TRACE ID  what a slice (track) means, and its docs\n"
	"       termtrace describe --coverage TRACE... | --lint TRACE...  description coverage, rule hygiene\n"
	"       termtrace metrics TRACE --run A,B [--format text|binary|json]\n"
	"       termtrace metrics --list             the metrics termtrace knows\n"
	"       termtrace --help | --version\n"
	"\n"
	"TRACE is a Chrome JSON trace (.json, .json.gz), a Perfetto protobuf trace\n"
	"(.pftrace, .perfetto-trace, gzip'ed too) or a CTF/LTTng trace folder;\n"
	"the format is recognised from the content.\n"
	"\n"
	"viewer options:\n"
	"  --theme NAME       colour theme (dark, light, high-contrast, mono)\n"
	"  --metrics A,B      run metrics at load\n"
	"  --modules DIR      also find PerfettoSQL modules in DIR (a/b.sql = a.b; repeatable)\n"
	"query options (also --metrics A,B: run metrics first, adding annotations and alerts):\n"
	"  --format F         table (default), tsv, csv, json\n"
	"  --no-header        no column names\n"
	"  --timeout SECONDS  stop a query still running after SECONDS\n"
	"  -f FILE            read SQL from FILE ('-' = stdin); several statements, PerfettoSQL too\n"
	"  --modules DIR      also find PerfettoSQL modules in DIR (a/b.sql = a.b; repeatable)\n";

static int usage(FILE *f, int code)
{
	fputs(usage_text, f);
	return code;
}

static int bad_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "termtrace: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'termtrace --help'.\n");
	return 2;
}

/* Opens path and runs the comma list of metrics (may be NULL); warn: say
 * on stderr where a damaged trace stopped (scripts read stderr; `info`
 * also lists it in its report). */
static tt_trace *open_or_complain(const char *path, const char *metrics, int warn)
{
	tt_err err = { 0 };
	tt_trace *tr = tt_trace_open(path, NULL, &err);
	tt_result r;

	if (!tr) {
		fprintf(stderr, "termtrace: %s\n", err.msg);
		return NULL;
	}
	if (metrics && tt_metrics_run_names(tr, metrics, &err) != TT_OK) {
		fprintf(stderr, "termtrace: %s\n", err.msg);
		tt_trace_close(tr);
		return NULL;
	}
	/* Data lost at import is not fatal, but the user must hear of it. */
	if (tt_query_collect(tr, "select str_value from metadata where name = 'import_warning'", 1,
			     &r, &err) == TT_OK) {
		if (warn && r.nrows && r.cells[0])
			fprintf(stderr, "termtrace: warning: %s: %s\n", path, r.cells[0]);
		tt_result_free(&r);
	}
	/* So are bad lines in the user's description rule files. */
	if (tt_query_collect(tr, "select describe_warnings()", 1, &r, &err) == TT_OK) {
		if (r.nrows && r.cells[0])
			fprintf(stderr, "%s%s", r.cells[0],
				r.cells[0][strlen(r.cells[0]) - 1] == '\n' ? "" : "\n");
		tt_result_free(&r);
	}
	return tr;
}

static int cmd_info(int argc, char **argv)
{
	const char *metrics = NULL, *path = NULL;
	tt_trace *tr;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--metrics") == 0 && i + 1 < argc)
			metrics = argv[++i];
		else if (argv[i][0] == '-' && argv[i][1])
			return bad_usage("unknown option '%s'", argv[i]);
		else if (!path)
			path = argv[i];
		else
			return bad_usage("unexpected argument '%s'", argv[i]);
	}
	if (!path)
		return bad_usage("info takes one TRACE%s", "");
	tr = open_or_complain(path, metrics, 1);
	if (!tr)
		return 1;
	tt_trace_print_info(tr, stdout);
	tt_trace_close(tr);
	return 0;
}

static int parse_format(const char *f, tt_query_format *fmt)
{
	static const struct { const char *name; tt_query_format fmt; } formats[] = {
		{ "table", TT_FMT_TABLE }, { "tsv", TT_FMT_TSV }, { "csv", TT_FMT_CSV }, { "json", TT_FMT_JSON },
	};

	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		if (strcmp(f, formats[i].name) == 0) {
			*fmt = formats[i].fmt;
			return 0;
		}
	}
	return -1;
}

static int cmd_query(int argc, char **argv)
{
	tt_query_format fmt = TT_FMT_TABLE;
	const char *path = NULL, *sql = NULL, *sqlfile = NULL, *metrics = NULL, *modules[8];
	int nmodules = 0;
	double timeout = 0;
	char *owned = NULL;
	int header = 1, rc;
	tt_trace *tr;
	tt_err err = { 0 };

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		const char *f = NULL;

		if (strcmp(a, "--format") == 0 && i + 1 < argc)
			f = argv[++i];
		else if (strncmp(a, "--format=", 9) == 0)
			f = a + 9;
		if (f) {
			if (parse_format(f, &fmt))
				return bad_usage("unknown --format '%s' (table, tsv, csv, json)", f);
		} else if (strcmp(a, "--metrics") == 0 && i + 1 < argc) {
			metrics = argv[++i];
		} else if (strcmp(a, "--timeout") == 0 && i + 1 < argc) {
			char *end;

			timeout = strtod(argv[++i], &end);
			if (*end || timeout <= 0)
				return bad_usage("--timeout wants a number of seconds, not '%s'", argv[i]);
		} else if (strcmp(a, "--modules") == 0 && i + 1 < argc && nmodules < 8) {
			modules[nmodules++] = argv[++i];
		} else if (strcmp(a, "--no-header") == 0) {
			header = 0;
		} else if (strcmp(a, "-f") == 0 && i + 1 < argc) {
			sqlfile = argv[++i];
		} else if (a[0] == '-' && a[1] && strcmp(a, "-") != 0) {
			return bad_usage("unknown option '%s'", a);
		} else if (!path) {
			path = a;
		} else if (!sql) {
			sql = a;
		} else {
			return bad_usage("unexpected argument '%s'", a);
		}
	}
	if (!path)
		return bad_usage("query needs a TRACE%s", "");
	if (sql && sqlfile)
		return bad_usage("give SQL either as an argument or with -f, not both%s", "");
	if (!sql) {
		FILE *f = stdin;

		if (sqlfile && strcmp(sqlfile, "-") != 0) {
			f = fopen(sqlfile, "r");
			if (!f) {
				fprintf(stderr, "termtrace: %s: %s\n", sqlfile, strerror(errno));
				return 1;
			}
		}
		owned = tt_text_read(f, 0, NULL);
		if (f != stdin)
			fclose(f);
		if (!owned) {
			fprintf(stderr, "termtrace: out of memory reading SQL\n");
			return 1;
		}
		sql = owned;
	}
	tr = open_or_complain(path, metrics, 1);
	if (!tr) {
		free(owned);
		return 1;
	}
	for (int i = 0; i < nmodules; i++) {
		if (tt_sql_add_module_dir(tr, modules[i], &err) != TT_OK) {
			fprintf(stderr, "termtrace: %s\n", err.msg);
			tt_trace_close(tr);
			free(owned);
			return 1;
		}
	}
	if (timeout > 0 && tt_query_set_timeout(tr, timeout) != TT_OK) {
		fprintf(stderr, "termtrace: out of memory\n");
		tt_trace_close(tr);
		free(owned);
		return 1;
	}
	rc = tt_query_print(tr, sql, fmt, header, stdout, &err);
	if (rc != TT_OK && timeout > 0 && tt_query_timed_out(tr))
		fprintf(stderr, "termtrace: query error: stopped after the %g s --timeout\n", timeout);
	else if (rc != TT_OK && sqlfile && strcmp(sqlfile, "-") != 0)
		fprintf(stderr, "termtrace: query error: %s: %s\n", sqlfile, err.msg); /* the file, then where in it */
	else if (rc != TT_OK)
		fprintf(stderr, "termtrace: query error: %s\n", err.msg);
	tt_trace_close(tr);
	free(owned);
	return rc == TT_OK ? 0 : 1;
}

static int cmd_view(int argc, char **argv)
{
	tt_viewer_opts opts = { 0 };

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--theme") == 0 && i + 1 < argc)
			opts.theme = argv[++i];
		else if (strcmp(a, "--metrics") == 0 && i + 1 < argc)
			opts.metrics = argv[++i];
		else if (strcmp(a, "--modules") == 0 && i + 1 < argc && opts.nmodules < 8)
			opts.modules[opts.nmodules++] = argv[++i];
		else if (a[0] == '-' && a[1])
			return bad_usage("unknown option '%s'", a);
		else if (!opts.path)
			opts.path = a;
		else
			return bad_usage("unexpected argument '%s'", a);
	}
	if (!opts.path)
		return usage(stderr, 2);
	return tt_viewer_run(&opts);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage(stderr, 2);
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
		return usage(stdout, 0);
	if (strcmp(argv[1], "--version") == 0) {
		printf("termtrace %s\n", TT_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "info") == 0)
		return cmd_info(argc - 1, argv + 1);
	if (strcmp(argv[1], "query") == 0)
		return cmd_query(argc - 1, argv + 1);
	if (strcmp(argv[1], "describe") == 0)
		return tt_cmd_describe(argc - 1, argv + 1);
	if (strcmp(argv[1], "metrics") == 0)
		return tt_cmd_metrics(argc - 1, argv + 1);
	return cmd_view(argc, argv);
}
