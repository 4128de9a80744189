/*
 * cmd_describe.h - `termtrace describe TRACE SLICE_ID`: prints what the
 * details panel shows about one slice's description (describe_slice).
 */
#ifndef TT_CMD_DESCRIBE_H
#define TT_CMD_DESCRIBE_H

/* argv[0] is "describe". Exit status: 0 described, 1 bad trace, unknown
 * slice or no description (one line on stderr), 2 usage. Rule-file
 * warnings go to stderr as "termtrace: warning: path:line: message". */
int tt_cmd_describe(int argc, char **argv);

#endif
