/*
 * err.h - the error convention of the core: a status code plus a
 * caller-owned message buffer. Functions that can fail take a tt_err * and
 * return a tt_status; on failure they fill err->msg with one lower-case line
 * naming the file and the byte offset or line where that makes sense.
 * Nothing in core/ calls exit() or abort(); out of memory is TT_ENOMEM.
 */
#ifndef TT_ERR_H
#define TT_ERR_H

#include <stddef.h>

typedef enum tt_status {
	TT_OK = 0,
	TT_EINVAL = 1,   /* bad input: not a trace, corrupt data, bad SQL */
	TT_ENOMEM = 2,   /* allocation failed or a size limit was hit */
	TT_EIO = 3,      /* the operating system refused a read/open */
	TT_ECANCEL = 4,  /* the caller asked to stop (progress->cancel) */
	TT_EUNSUPPORTED = 5, /* valid input we do not read (e.g. CTF 2) */
} tt_status;

typedef struct tt_err {
	int code;
	char msg[256];
} tt_err;

/* Sets err (when not NULL) and returns code, so that callers can write
 * `return tt_err_set(err, TT_EINVAL, "%s: bad magic at byte %llu", ...)`. */
int tt_err_set(tt_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Clears err to TT_OK and an empty message. */
void tt_err_clear(tt_err *err);

#endif
