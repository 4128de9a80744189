/*
 * proto_inflate.c - see proto_inflate.h. zlib inflates deflate blobs,
 * libzstd zstd frames; both write into the caller's buffer, which doubles
 * from 1 MiB as the output needs (up to the caller's limit).
 */
#include "proto_inflate.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

/* Makes room for at least 64 KiB more after used; 0, or -1 past max or
 * out of memory. */
static int room(unsigned char **buf, size_t *cap, size_t used, size_t max)
{
	size_t ncap;
	unsigned char *nb;

	if (*cap - used >= 64 * 1024)
		return 0;
	ncap = *cap ? *cap * 2 : 1u << 20;
	if (ncap > max)
		return -1;
	nb = realloc(*buf, ncap);
	if (!nb)
		return -1;
	*buf = nb;
	*cap = ncap;
	return 0;
}

static long inflate_deflate(const unsigned char *p, size_t n, unsigned char **buf, size_t *cap, size_t max)
{
	z_stream z;
	int rc = Z_OK;

	memset(&z, 0, sizeof(z));
	if (n > UINT32_MAX || inflateInit2(&z, 15 + 32) != Z_OK) /* 15 + 32: zlib or gzip header */
		return -1;
	z.next_in = (unsigned char *)(uintptr_t)p;
	z.avail_in = (uInt)n;
	for (;;) {
		if (room(buf, cap, z.total_out, max)) {
			rc = Z_MEM_ERROR;
			break;
		}
		z.next_out = *buf + z.total_out;
		z.avail_out = (uInt)(*cap - z.total_out > UINT32_MAX ? UINT32_MAX : *cap - z.total_out);
		rc = inflate(&z, Z_NO_FLUSH);
		if (rc == Z_STREAM_END || (rc != Z_OK && rc != Z_BUF_ERROR))
			break;
		if (rc == Z_BUF_ERROR && z.avail_in == 0)
			break; /* truncated */
	}
	inflateEnd(&z);
	return rc == Z_STREAM_END ? (long)z.total_out : -1;
}

static long inflate_zstd(const unsigned char *p, size_t n, unsigned char **buf, size_t *cap, size_t max)
{
	ZSTD_DStream *z = ZSTD_createDStream();
	ZSTD_inBuffer in = { p, n, 0 };
	ZSTD_outBuffer out = { NULL, 0, 0 };
	size_t rc = 1;

	if (!z)
		return -1;
	/* the frame's own window limit bounds the decoder's memory */
	while (rc != 0) {
		if (room(buf, cap, out.pos, max)) {
			rc = (size_t)-1;
			break;
		}
		out.dst = *buf;
		out.size = *cap;
		rc = ZSTD_decompressStream(z, &out, &in);
		if (ZSTD_isError(rc))
			break;
		if (rc != 0 && in.pos == in.size && out.pos < out.size)
			break; /* the input ended inside the frame */
	}
	ZSTD_freeDStream(z);
	/* one frame, nothing after it (trace processor's single-frame mode) */
	if (rc != 0 || in.pos != in.size)
		return -1;
	return (long)out.pos;
}

long tt_proto_inflate(int zstd, const unsigned char *p, size_t n, unsigned char **buf, size_t *cap, size_t max)
{
	if (max > (size_t)LONG_MAX)
		max = (size_t)LONG_MAX;
	return zstd ? inflate_zstd(p, n, buf, cap, max) : inflate_deflate(p, n, buf, cap, max);
}
