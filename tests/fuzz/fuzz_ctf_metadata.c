/*
 * fuzz_ctf_metadata.c - libFuzzer target: CTF metadata bytes (plain TSDL
 * or LTTng's packetized form) through tt_ctf_meta_unpack and
 * tt_ctf_meta_parse (core/import/ctf/ctf_metadata.c), from memory.
 * Dictionary: tsdl.dict.
 */
#include <stdint.h>
#include <stdlib.h>

#include "ctf_metadata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tt_err err = { 0 };
	char *text = NULL;
	size_t len = 0;
	ctf_meta *m = NULL;

	if (tt_ctf_meta_unpack(data, size, "fuzz-metadata", &text, &len, &err) != TT_OK) {
		free(text);
		return 0;
	}
	if (tt_ctf_meta_parse(text, len, "fuzz-metadata", &m, &err) == TT_OK)
		tt_ctf_meta_free(m);
	free(text);
	return 0;
}
