/* viewer.c - placeholder until the viewer issue lands: opens the trace and prints its info. */
#include <stdio.h>
#include "termtrace.h"
#include "viewer.h"

int tt_viewer_run(const tt_viewer_opts *opts)
{
	tt_err err = {0};
	tt_trace *tr = tt_trace_open(opts->path, NULL, &err);

	if (!tr) {
		fprintf(stderr, "termtrace: %s\n", err.msg);
		return 1;
	}
	printf("termtrace: the interactive viewer is not built yet; here is the trace:\n");
	tt_trace_print_info(tr, stdout);
	tt_trace_close(tr);
	return 0;
}
