/*
 * fuzz_proto_packet.c - libFuzzer target: the input is the body of ONE
 * TracePacket. It is framed as a trace with a single packet (field 1,
 * length-delimited) so that the fuzzer spends its mutations inside the
 * packet decoder instead of on the outer framing. Dictionary: proto.dict.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf = malloc(size + 11);
	size_t n = 0, v = size;

	if (!buf)
		return 0;
	buf[n++] = 0x0a; /* Trace.packet, wire type 2 */
	do {
		buf[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	if (size)
		memcpy(buf + n, data, size);
	fuzz_import_mem(tt_import_proto, buf, n + size);
	free(buf);
	return 0;
}
