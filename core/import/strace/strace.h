/*
 * strace.h - strace's text output (strace -f -ttt [-T]: "pid secs.usecs
 * call(args) = ret"), one line cut into its parts as trace processor's
 * strace importer cuts it:
 *
 *   [pid ]secs[.usecs] name(args) = ret          a complete call
 *   [pid ]secs[.usecs] name(args <unfinished ...>  a call another thread's
 *                                                  line interrupted
 *   [pid ]secs[.usecs] <... name resumed> args) = ret   its end
 *   ... <... name resumed> args <unfinished ...>   both (resumed, then
 *                                                  interrupted again)
 *
 * The pid is the first word when it is up to 9 digits. The time is the
 * Unix epoch in seconds with the fraction read as microseconds (-ttt);
 * wall-clock times (-t, -tt: "14:32:01") are not read (their date is
 * unknown). The args run to the last ')' followed by '='; the return value
 * is the rest after that '=' (errno and its text included). Signal ("---")
 * and exit ("+++") lines are not calls.
 *
 * Pure function over the text: no allocation; the strings point into
 * the caller's line.
 */
#ifndef TT_STRACE_H
#define TT_STRACE_H

#include <stddef.h>
#include <stdint.h>

enum { TT_STRACE_COMPLETE, TT_STRACE_UNFINISHED, TT_STRACE_RESUMED, TT_STRACE_RESUMED_UNFINISHED };

typedef struct tt_strace_line {
	int64_t ts;            /* ns since the epoch */
	int64_t pid;           /* -1 when the line has none */
	int kind;              /* TT_STRACE_* */
	const char *name;      /* the system call */
	size_t name_len;
	const char *args;      /* NULL when none (empty) */
	size_t args_len;
	const char *ret;       /* NULL when none (unfinished) */
	size_t ret_len;
} tt_strace_line;

enum { TT_STRACE_OK = 0, TT_STRACE_NOT_A_CALL = -1, TT_STRACE_WALL_CLOCK = -2 };

/* TT_STRACE_OK with *out filled, TT_STRACE_WALL_CLOCK for a call timed
 * by the wall clock (-t / -tt), TT_STRACE_NOT_A_CALL for anything else. */
int tt_strace_line_read(const char *line, size_t len, tt_strace_line *out);

#endif
