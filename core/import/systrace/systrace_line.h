/*
 * systrace_line.h - one line of ftrace text as systrace and atrace write
 * it (formats.md 2, systemTraceEvents), cut into its columns as trace
 * processor's SystraceLineTokenizer cuts it:
 *
 *   <task>-<pid>  (<tgid>) [<cpu>] <flags> <secs>.<frac>: <event>: <args>
 *
 * The tgid column is optional (and may be "-----"), so are the flags
 * (three of [a-zA-Z.] then one or two of [0-9a-f.]); the task name may
 * hold any character, dashes and spaces included: the columns are found
 * by the first place, from the left, where the rest of the pattern fits
 * after a '-'. The event name runs to the last ':' of its word. The
 * timestamp is read as a double and made ns as trace processor does
 * ((int64) (secs.frac * 1e9): truncated, not rounded).
 *
 * Pure function over the text: no allocation; the strings point into the
 * caller's line.
 */
#ifndef TT_SYSTRACE_LINE_H
#define TT_SYSTRACE_LINE_H

#include <stddef.h>
#include <stdint.h>

typedef struct tt_systrace_line {
	int64_t ts;          /* ns */
	uint32_t pid, cpu;   /* as strtoul reads them, cut to 32 bits */
	const char *task;    /* trimmed of white space; may be empty */
	size_t task_len;
	const char *tgid;    /* the tgid column's text ("" when absent) */
	size_t tgid_len;
	const char *event;   /* "sched_switch", "tracing_mark_write", ... */
	size_t event_len;
	const char *args;    /* the rest, trimmed of white space */
	size_t args_len;
} tt_systrace_line;

/* 0 and *out filled when line[0, len) has the columns, -1 when it does
 * not (trace processor: "Not a known systrace event format"). */
int tt_systrace_line_read(const char *line, size_t len, tt_systrace_line *out);

#endif
