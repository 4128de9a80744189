/*
 * cmd_describe.h - `termtrace describe TRACE SLICE_ID`: prints what the
 * details panel shows about one slice's description (describe_slice).
 */
#ifndef TT_CMD_DESCRIBE_H
#define TT_CMD_DESCRIBE_H

#include <stdio.h>

/* argv[0] is "describe". Exit status: 0 described, 1 bad trace, unknown
 * slice or no description (one line on stderr), 2 usage. Rule-file
 * warnings go to stderr as "termtrace: warning: path:line: message". */
int tt_cmd_describe(int argc, char **argv);

/* `describe --coverage [--top N] TRACE...` and `describe --lint [TRACE...]`
 * (cmd_describe_report.c); argv as for tt_cmd_describe. Coverage exits 0
 * (1 when a trace does not open); lint exits 1 when it finds a problem. */
int tt_cmd_describe_report(int argc, char **argv);

/* Shared by both: text wrapped at width columns (0 = one line), and the
 * rule-file warnings of tr on stderr (returns how many). */
struct tt_trace;
void tt_describe_print_wrapped(const char *text, int width, FILE *out);
int tt_describe_print_warnings(struct tt_trace *tr);

#endif
