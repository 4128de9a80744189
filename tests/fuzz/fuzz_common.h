/*
 * fuzz_common.h - what the libFuzzer targets share: importing a memory
 * buffer through one format's entry point with a fresh storage and slice
 * tracker, exactly as import.c does for a file, then freeing everything so
 * that LeakSanitizer sees a leak in the parser as a leak.
 *
 * Each fuzz_<target>.c includes this once; the statics are per target.
 */
#ifndef TT_FUZZ_COMMON_H
#define TT_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "import_int.h"

typedef int (*fuzz_import_fn)(tt_import *im, tt_bytesrc *src);

/* Imports data[0..len) with fn; finalizes the storage when the import
 * succeeded (finalize builds the per-track indexes the viewer reads, which
 * is code the importers' output must not break). Returns the status. */
static inline int fuzz_import_mem(fuzz_import_fn fn, const uint8_t *data, size_t len)
{
	tt_err err = { 0 };
	tt_storage *st = tt_storage_new();
	tt_bytesrc *src = tt_bytesrc_mem(data, len);
	tt_import im = { .st = st, .path = "fuzz-input", .err = &err };
	int rc = TT_ENOMEM;

	if (!st || !src)
		goto done;
	if (tt_import_begin(&im))
		goto done;
	rc = fn(&im, src);
	tt_import_end(&im);
	if (rc == TT_OK)
		tt_storage_finalize(st);
done:
	if (src)
		tt_bytesrc_close(src);
	tt_storage_free(st);
	return rc;
}

#endif
