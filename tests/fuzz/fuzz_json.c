/*
 * fuzz_json.c - libFuzzer target: Chrome JSON trace text through
 * tt_import_json (core/import/json/import_json.c), from memory. Dictionary: json.dict.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_import_mem(tt_import_json, data, size);
	return 0;
}
