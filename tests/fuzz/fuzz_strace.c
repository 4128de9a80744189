/*
 * fuzz_strace.c - libFuzzer target: strace text output through the line
 * reader (core/import/strace/), whose parts must lie inside the line,
 * then through tt_import_strace whole, from memory. Dictionary:
 * strace.dict.
 */
#include "fuzz_common.h"
#include "strace.h"

#define INSIDE(p, n, line, len) \
	if ((p) && ((p) < (line) || (p) + (n) > (line) + (len))) abort()

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	size_t i = 0;

	while (i < size) {
		const char *nl = memchr(s + i, '\n', size - i);
		size_t n = nl ? (size_t)(nl - (s + i)) : size - i;
		tt_strace_line l;

		if (tt_strace_line_read(s + i, n, &l) == TT_STRACE_OK) {
			INSIDE(l.name, l.name_len, s + i, n);
			INSIDE(l.args, l.args_len, s + i, n);
			INSIDE(l.ret, l.ret_len, s + i, n);
		}
		i += n + 1;
	}
	fuzz_import_mem(tt_import_strace, data, size);
	return 0;
}
