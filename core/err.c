/* err.c - see err.h. */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>

int tt_err_set(tt_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	/* Keep the first error: later ones are usually consequences of it. */
	if (err->code != TT_OK)
		return code;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}

void tt_err_clear(tt_err *err)
{
	if (!err)
		return;
	err->code = TT_OK;
	err->msg[0] = '\0';
}
