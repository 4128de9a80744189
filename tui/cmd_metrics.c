/*
 * cmd_metrics.c - `termtrace metrics`: lists the metrics of the search path
 * or runs some on a trace and prints the termtrace.TraceMetrics message
 * (metrics/metrics.h does the work; this file is only the command line).
 */
#include "cmd_metrics.h"
#include "metrics.h"

#include <stdio.h>
#include <string.h>

static const char usage_text[] =
	"usage: termtrace metrics TRACE --run NAME[,NAME...] [--format text|binary|json]\n"
	"       termtrace metrics --list\n";

static int bad(const char *what, const char *arg)
{
	fprintf(stderr, "termtrace: metrics: %s%s\n%s", what, arg, usage_text);
	return 2;
}

static int list(void)
{
	tt_metric_info *v;
	size_t n;
	tt_err err = { 0 };

	if (tt_metrics_list(&v, &n, &err) != TT_OK) {
		fprintf(stderr, "termtrace: %s\n", err.msg);
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		printf("%-20s %s%s\n", v[i].name, v[i].summary,
		       v[i].has_field ? "" : " (annotations only: no TraceMetrics field)");
	tt_metrics_list_free(v, n);
	return 0;
}

int tt_cmd_metrics(int argc, char **argv)
{
	const char *path = NULL, *names = NULL;
	int fmt = TT_METRICS_TEXT, do_list = 0, rc;
	ProtobufCMessage *msg = NULL;
	tt_err err = { 0 };
	tt_trace *tr;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--list") == 0) {
			do_list = 1;
		} else if (strcmp(a, "--run") == 0 && i + 1 < argc) {
			names = argv[++i];
		} else if (strncmp(a, "--run=", 6) == 0) {
			names = a + 6;
		} else if ((strcmp(a, "--format") == 0 && i + 1 < argc) || strncmp(a, "--format=", 9) == 0) {
			const char *f = a[8] == '=' ? a + 9 : argv[++i];

			fmt = tt_metrics_format_parse(f);
			if (fmt < 0)
				return bad("unknown --format (text, binary, json): ", f);
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			fputs(usage_text, stdout);
			return 0;
		} else if (a[0] == '-' && a[1]) {
			return bad("unknown option ", a);
		} else if (!path) {
			path = a;
		} else {
			return bad("unexpected argument ", a);
		}
	}
	if (do_list)
		return path || names ? bad("--list takes no TRACE or --run", "") : list();
	if (!path)
		return bad("missing TRACE", "");
	if (!names || !*names)
		return bad("missing --run NAME[,NAME...]", "");
	tr = tt_trace_open(path, NULL, &err);
	if (!tr) {
		fprintf(stderr, "termtrace: %s\n", err.msg);
		return 1;
	}
	rc = tt_metrics_compute(tr, names, NULL, &msg, &err);
	if (rc == TT_OK)
		rc = tt_metrics_write(msg, (tt_metrics_format)fmt, stdout, &err);
	if (rc != TT_OK)
		fprintf(stderr, "termtrace: %s: %s\n", path, err.msg);
	if (msg)
		protobuf_c_message_free_unpacked(msg, NULL);
	tt_trace_close(tr);
	return rc == TT_OK ? 0 : 1;
}
