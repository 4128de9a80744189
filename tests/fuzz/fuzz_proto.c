/*
 * fuzz_proto.c - libFuzzer target: a whole Perfetto trace (a sequence of
 * Trace.packet records) through tt_import_proto, from memory.
 * Dictionary: proto.dict.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_import_mem(tt_import_proto, data, size);
	return 0;
}
