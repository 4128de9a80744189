/*
 * proto_inflate.h - the packets inside a TracePacket's compressed_packets
 * (zlib or gzip: deflate) or zstd_compressed_packets (one zstd frame, as
 * the tracing service writes them and trace processor reads them), made
 * whole again for the importer to frame (import_proto.c).
 */
#ifndef TT_PROTO_INFLATE_H
#define TT_PROTO_INFLATE_H

#include <stddef.h>

/* Inflates p[0..n) into *buf (grown as needed, kept by the caller for the
 * next blob; *cap its size), at most max bytes. zstd: the blob is one
 * zstd frame, nothing after it; else zlib or gzip data. Returns the bytes
 * inflated, or -1 when the data is bad, truncated, inflates past max, or
 * memory ran out. */
long tt_proto_inflate(int zstd, const unsigned char *p, size_t n, unsigned char **buf, size_t *cap, size_t max);

#endif
