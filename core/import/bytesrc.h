/*
 * bytesrc.h - the one byte-source interface every streaming importer reads
 * through: plain, gzip and zstd files look the same (the compressed ones
 * are decoded as they are read, told by their magic bytes). The file is
 * opened read-only and never written.
 */
#ifndef TT_BYTESRC_H
#define TT_BYTESRC_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"

typedef struct tt_bytesrc tt_bytesrc;

/* Opens path for reading. Returns NULL and fills err on failure. */
tt_bytesrc *tt_bytesrc_open(const char *path, tt_err *err);
/* A source over a caller-owned memory buffer (tests, fuzzers). */
tt_bytesrc *tt_bytesrc_mem(const void *data, size_t len);
void tt_bytesrc_close(tt_bytesrc *src);

/* Reads up to n bytes; returns the count (0 at end of data) or -1 on error
 * (corrupt or cut gzip/zstd data, I/O error: err filled; an error that
 * peek met comes with the read that reaches it). */
long tt_bytesrc_read(tt_bytesrc *src, void *buf, size_t n, tt_err *err);
/* Copies the first n bytes without consuming them (sniffing); returns the
 * count available (may be < n for short files). */
size_t tt_bytesrc_peek(tt_bytesrc *src, void *buf, size_t n);
/* Bytes delivered so far (uncompressed). */
uint64_t tt_bytesrc_offset(const tt_bytesrc *src);
/* Position in the underlying file, for progress against tt_bytesrc_size. */
uint64_t tt_bytesrc_file_offset(const tt_bytesrc *src);
uint64_t tt_bytesrc_size(const tt_bytesrc *src);
/* Random access, for plain (not gzip) files and memory: the source is
 * "seekable". tt_bytesrc_pread reads up to n bytes at off without moving
 * the stream (safe from several threads at once) and returns the count,
 * 0 at the end, -1 on error or when the source is not seekable.
 * tt_bytesrc_seek moves the stream to off; 0 or -1. */
int tt_bytesrc_seekable(const tt_bytesrc *src);
long tt_bytesrc_pread(const tt_bytesrc *src, void *buf, size_t n, uint64_t off);
int tt_bytesrc_seek(tt_bytesrc *src, uint64_t off);
/* Compressed (gzip or zstd): decoded as read, not seekable. */
int tt_bytesrc_is_gzip(const tt_bytesrc *src);
const char *tt_bytesrc_path(const tt_bytesrc *src);

#endif
