/*
 * cmd_metrics.h - the `termtrace metrics` subcommand (issue 7):
 *   termtrace metrics TRACE --run NAME[,NAME...] [--format text|binary|json]
 *   termtrace metrics --list
 * Exit codes as main.c: 0 ok, 1 bad input / metric error, 2 usage.
 */
#ifndef TT_CMD_METRICS_H
#define TT_CMD_METRICS_H

/* argv[0] is "metrics". */
int tt_cmd_metrics(int argc, char **argv);

#endif
