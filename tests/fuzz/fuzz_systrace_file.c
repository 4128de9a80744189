/*
 * fuzz_systrace_file.c - libFuzzer target: a whole systrace file (ftrace
 * text, a systrace HTML page with its process dumps, atrace's zlib
 * "TRACE:\n" form) through tt_import_systrace, from memory; the form is
 * the one the sniff picks. Dictionary: systrace.dict.
 */
#include "fuzz_common.h"

static int import_sniffed(tt_import *im, tt_bytesrc *src)
{
	unsigned char head[128];
	size_t n = tt_bytesrc_peek(src, head, sizeof(head));

	return tt_import_systrace(im, src, tt_systrace_sniff(head, n) == TT_SYSTRACE_ZLIB);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_import_mem(import_sniffed, data, size);
	return 0;
}
