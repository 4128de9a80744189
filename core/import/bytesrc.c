/*
 * bytesrc.c - buffered reads of plain files (read(2)), gzip files (zlib's
 * gz* API) and zstd files (libzstd's streaming decoder), both decoded
 * ahead by a thread of their own, or a memory buffer. The buffer also
 * serves peek() for format sniffing. Files are opened O_RDONLY.
 */
#include "bytesrc.h"
#include "workq.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#define BUF_SIZE (256 * 1024)

/* Inflating takes about half as long as parsing JSON: a thread inflates
 * the next blocks while the importer parses the last (PF_BLOCKS of them,
 * PF_SIZE bytes each, in flight). */
#define PF_BLOCKS 4
#define PF_SIZE (512 * 1024)

struct pf_block {
	unsigned char *data;
	size_t len;
	uint64_t file_off;    /* compressed bytes read by then (progress) */
};

struct prefetch {
	tt_workq *q;          /* slot i of the ring is blocks[i] */
	struct pf_block blocks[PF_BLOCKS];
	uint64_t cur;         /* the block being read (taken) */
	int have;             /* cur is taken */
	size_t pos;           /* read position in blocks[cur % PF_BLOCKS] */
	int error;            /* gzread failed (or the data is truncated) */
	int truncated;
	char msg[128];
	uint64_t file_off;    /* of the block being read */
};

/* zstd files: the compressed bytes, read through fd, and the decoder
 * (frames one after another, as zstd's own tool reads them). */
#define ZIN_SIZE (128 * 1024)

struct zdec {
	int fd;
	ZSTD_DStream *ds;
	unsigned char *in;
	ZSTD_inBuffer ib;
	size_t last;          /* the decoder's last return: 0 at a frame's end */
	uint64_t file_off;    /* compressed bytes read */
	int eof;
};

struct tt_bytesrc {
	gzFile gz;            /* gzip files; NULL otherwise */
	struct zdec *zd;      /* zstd files; NULL otherwise */
	struct prefetch *pf;  /* gzip files, once read: the inflater */
	int fd;               /* plain files: read() directly, no zlib copy; -1 otherwise */
	const unsigned char *mem;
	size_t mem_len;
	unsigned char *buf;
	size_t pos, len;      /* unread bytes are buf[pos, len) */
	uint64_t delivered;
	uint64_t file_pos;    /* plain files: bytes read from the file */
	uint64_t size;
	int is_gzip;          /* compressed (gzip or zstd): not seekable */
	int is_zstd;
	int eof;
	int pf_failed;        /* no inflater thread: decode directly */
	tt_err perr;          /* an error peek() met: given by the read that reaches it */
	char dmsg[128];       /* decoding directly: the last error */
	int dtrunc;           /* decoding directly: the data ended mid-stream */
	char *path;
};

static int zstd_magic(const unsigned char *m)
{
	return m[0] == 0x28 && m[1] == 0xb5 && m[2] == 0x2f && m[3] == 0xfd;
}

static void zdec_free(struct zdec *z)
{
	if (!z)
		return;
	if (z->fd >= 0)
		close(z->fd);
	ZSTD_freeDStream(z->ds);
	free(z->in);
	free(z);
}

/* Takes fd over (closed on failure too). */
static struct zdec *zdec_new(int fd)
{
	struct zdec *z = calloc(1, sizeof(*z));

	if (!z) {
		close(fd);
		return NULL;
	}
	z->fd = fd;
	z->ds = ZSTD_createDStream();
	z->in = malloc(ZIN_SIZE);
	if (!z->ds || !z->in) {
		zdec_free(z);
		return NULL;
	}
	z->ib.src = z->in;
	return z;
}

/* Up to n decoded bytes: the count, 0 at the end, -1 on an error (msg).
 * *trunc: the file ended inside a frame. */
static long zdec_read(struct zdec *z, void *buf, size_t n, char *msg, size_t cap, int *trunc)
{
	ZSTD_outBuffer ob = { buf, n, 0 };

	while (ob.pos == 0 && n) {
		size_t rc;

		if (z->ib.pos == z->ib.size && !z->eof) {
			ssize_t r;

			do
				r = read(z->fd, z->in, ZIN_SIZE);
			while (r < 0 && errno == EINTR);
			if (r < 0) {
				snprintf(msg, cap, "%s", strerror(errno));
				return -1;
			}
			if (r == 0)
				z->eof = 1;
			z->ib.size = (size_t)r;
			z->ib.pos = 0;
			z->file_off += (uint64_t)r;
		}
		if (z->ib.pos == z->ib.size && z->eof) {
			*trunc = z->last != 0;
			return 0;
		}
		rc = ZSTD_decompressStream(z->ds, &ob, &z->ib);
		if (ZSTD_isError(rc)) {
			snprintf(msg, cap, "%s", ZSTD_getErrorName(rc));
			return -1;
		}
		z->last = rc;
	}
	return (long)ob.pos;
}

/* One read of decoded bytes from a gzip or zstd file: the count, 0 at the
 * end (*trunc: cut short), -1 on an error (msg). */
static long dec_read(tt_bytesrc *src, void *buf, size_t n, char *msg, size_t cap, int *trunc)
{
	int n2, code = Z_OK;

	*trunc = 0;
	if (src->zd)
		return zdec_read(src->zd, buf, n, msg, cap, trunc);
	n2 = gzread(src->gz, buf, (unsigned)(n > INT32_MAX ? INT32_MAX : n));
	if (n2 < 0) {
		const char *m = gzerror(src->gz, &code);

		snprintf(msg, cap, "%s", m ? m : "error");
	} else if (n2 == 0) {
		/* a truncated gzip member ends without an error from gzread;
		 * gzerror tells */
		gzerror(src->gz, &code);
		*trunc = code == Z_BUF_ERROR;
	}
	return n2;
}

/* Compressed bytes read so far (progress). */
static uint64_t dec_file_off(const tt_bytesrc *src)
{
	long o;

	if (src->zd)
		return src->zd->file_off;
	o = gzoffset(src->gz);
	return o > 0 ? (uint64_t)o : 0;
}

static const char *codec(const tt_bytesrc *src)
{
	return src->is_zstd ? "zstd" : "gzip";
}

static void prefetch_stop(tt_bytesrc *src);

tt_bytesrc *tt_bytesrc_open(const char *path, tt_err *err)
{
	tt_bytesrc *src;
	struct stat sb;
	unsigned char magic[4] = { 0 };
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return tt_err_set(err, TT_EIO, "%s: %s", path, strerror(errno)), NULL;
	if (fstat(fd, &sb) != 0 || S_ISDIR(sb.st_mode)) {
		close(fd);
		tt_err_set(err, TT_EINVAL, "%s: is a directory without a CTF trace", path);
		return NULL;
	}
	src = calloc(1, sizeof(*src));
	if (!src || !(src->buf = malloc(BUF_SIZE)) || !(src->path = strdup(path))) {
		close(fd);
		tt_bytesrc_close(src);
		tt_err_set(err, TT_ENOMEM, "%s: out of memory", path);
		return NULL;
	}
	src->size = (uint64_t)sb.st_size;
	src->fd = -1;
	if (pread(fd, magic, 4, 0) == 4 && zstd_magic(magic)) {
		src->is_gzip = src->is_zstd = 1;
		if (!(src->zd = zdec_new(fd))) {
			tt_bytesrc_close(src);
			tt_err_set(err, TT_ENOMEM, "%s: out of memory", path);
			return NULL;
		}
		return src;
	}
	if (magic[0] == 0x1f && magic[1] == 0x8b)
		src->is_gzip = 1;
	if (!src->is_gzip) {
		src->fd = fd;
		return src;
	}
	src->gz = gzdopen(fd, "rb");
	if (!src->gz) {
		close(fd);
		tt_bytesrc_close(src);
		tt_err_set(err, TT_ENOMEM, "%s: cannot open", path);
		return NULL;
	}
	gzbuffer(src->gz, 128 * 1024);
	return src;
}

tt_bytesrc *tt_bytesrc_mem(const void *data, size_t len)
{
	tt_bytesrc *src = calloc(1, sizeof(*src));

	if (!src)
		return NULL;
	src->fd = -1;
	src->mem = data;
	src->mem_len = len;
	src->size = len;
	src->path = strdup("<memory>");
	if (!src->path) {
		free(src);
		return NULL;
	}
	/* A gzip'ed or zstd buffer is decoded like a file would be. */
	if (len >= 2 && src->mem[0] == 0x1f && src->mem[1] == 0x8b)
		src->is_gzip = 1;
	if (len >= 4 && zstd_magic(src->mem))
		src->is_gzip = src->is_zstd = 1;
	return src;
}

void tt_bytesrc_close(tt_bytesrc *src)
{
	if (!src)
		return;
	if (src->pf)
		prefetch_stop(src);
	if (src->gz)
		gzclose(src->gz);
	zdec_free(src->zd);
	if (src->fd >= 0)
		close(src->fd);
	free(src->buf);
	free(src->path);
	free(src);
}

static void *inflater(void *arg)
{
	tt_bytesrc *src = arg;
	struct prefetch *pf = src->pf;
	uint64_t seq;

	while (tt_workq_work(pf->q, TT_WQ_WAIT, -1, &seq) == TT_WQ_CLAIMED) {
		struct pf_block *b = &pf->blocks[seq % PF_BLOCKS];
		int trunc = 0;
		long n = dec_read(src, b->data, PF_SIZE, pf->msg, sizeof(pf->msg), &trunc);

		b->len = n > 0 ? (size_t)n : 0;
		b->file_off = dec_file_off(src);
		if (n <= 0) {
			/* the last block is empty: the reader stops at it */
			pf->error = n < 0;
			pf->truncated = n == 0 && trunc;
		}
		tt_workq_done(pf->q, seq, 0);
		if (n <= 0) {
			tt_workq_close(pf->q);
			break;
		}
	}
	return NULL;
}

static void prefetch_free(struct prefetch *pf)
{
	tt_workq_free(pf->q);
	for (int i = 0; i < PF_BLOCKS; i++)
		free(pf->blocks[i].data);
	free(pf);
}

/* Starts the inflater; -1 when it can't (gzread is then called directly). */
static int prefetch_start(tt_bytesrc *src)
{
	struct prefetch *pf = calloc(1, sizeof(*pf));

	if (!pf)
		return -1;
	for (int i = 0; i < PF_BLOCKS; i++)
		if (!(pf->blocks[i].data = malloc(PF_SIZE))) {
			prefetch_free(pf);
			return -1;
		}
	if (!(pf->q = tt_workq_new(PF_BLOCKS, 1, 0))) {
		prefetch_free(pf);
		return -1;
	}
	src->pf = pf;
	if (tt_workq_start(pf->q, inflater, src) != 0) {
		src->pf = NULL;
		prefetch_free(pf);
		return -1;
	}
	return 0;
}

static void prefetch_stop(tt_bytesrc *src)
{
	prefetch_free(src->pf); /* cancels and joins the inflater */
	src->pf = NULL;
}

/* Up to n inflated bytes from the inflater: the count, 0 at the end (or
 * where a truncated member ends: pf->truncated), -1 on an error (pf->msg). */
static long prefetch_read(tt_bytesrc *src, void *buf, size_t n)
{
	struct prefetch *pf = src->pf;
	struct pf_block *b;
	size_t take;

	if (!pf->have) {
		if (tt_workq_next(pf->q, TT_WQ_WAIT, -1, &pf->cur) != TT_WQ_TAKEN)
			return pf->error ? -1 : 0;
		pf->have = 1;
	}
	b = &pf->blocks[pf->cur % PF_BLOCKS];
	if (b->len == 0) /* the end (kept taken: later reads end too) */
		return pf->error ? -1 : 0; /* (truncated: 0, as gzread) */
	take = b->len - pf->pos < n ? b->len - pf->pos : n;
	memcpy(buf, b->data + pf->pos, take);
	pf->pos += take;
	pf->file_off = b->file_off;
	if (pf->pos == b->len) {
		tt_workq_release(pf->q, pf->cur);
		pf->have = 0;
		pf->pos = 0;
	}
	return (long)take;
}

/* One read from the file: read() for plain files, gzread for gzip. */
static long raw_read(tt_bytesrc *src, void *buf, size_t n)
{
	if (src->fd >= 0) {
		ssize_t r;

		do
			r = read(src->fd, buf, n);
		while (r < 0 && errno == EINTR);
		if (r > 0)
			src->file_pos += (uint64_t)r;
		return (long)r;
	}
	if (!src->pf && !src->pf_failed && prefetch_start(src) != 0)
		src->pf_failed = 1;
	if (src->pf)
		return prefetch_read(src, buf, n);
	return dec_read(src, buf, n, src->dmsg, sizeof(src->dmsg), &src->dtrunc);
}

/* Memory sources that hold gzip data inflate through a zlib stream kept in
 * the buffer fields; plain memory is served in place. */
static long fill(tt_bytesrc *src, tt_err *err)
{
	int n;

	if (src->eof) {
		src->pos = src->len = 0;
		return 0;
	}
	if (src->pos < src->len) {
		memmove(src->buf, src->buf + src->pos, src->len - src->pos);
		src->len -= src->pos;
	} else {
		src->len = 0;
	}
	src->pos = 0;
	n = (int)raw_read(src, src->buf + src->len, BUF_SIZE - src->len);
	if (n < 0 && src->fd >= 0) {
		tt_err_set(err, TT_EIO, "%s: read error at byte %llu: %s", src->path,
			   (unsigned long long)(src->delivered + src->len), strerror(errno));
		return -1;
	}
	if (n < 0) {
		tt_err_set(err, TT_EINVAL, "%s: corrupt %s data near byte %llu: %s", src->path, codec(src),
			   (unsigned long long)(src->delivered + src->len), src->pf ? src->pf->msg : src->dmsg);
		return -1;
	}
	if (n == 0) {
		/* compressed data cut short ends without an error from the
		 * decoder: it says so once the data is used up */
		if (src->pf ? src->pf->truncated : src->dtrunc) {
			tt_err_set(err, TT_EINVAL, "%s: %s data is truncated after %llu bytes", src->path, codec(src),
				   (unsigned long long)(src->delivered + src->len));
			src->eof = 1;
			return -1;
		}
		src->eof = 1;
	}
	src->len += (size_t)n;
	return n;
}

static int mem_gzip_to_gz(tt_bytesrc *src)
{
	/* Rare (tests, fuzzers): spill the buffer to an anonymous file and
	 * decode it like a real file. */
	FILE *f = tmpfile();
	int fd;

	if (!f)
		return -1;
	if (fwrite(src->mem, 1, src->mem_len, f) != src->mem_len) {
		fclose(f);
		return -1;
	}
	fflush(f);
	fd = dup(fileno(f));
	fclose(f);
	if (fd < 0 || lseek(fd, 0, SEEK_SET) != 0)
		return -1;
	if (src->is_zstd)
		src->zd = zdec_new(fd);
	else
		src->gz = gzdopen(fd, "rb");
	src->buf = malloc(BUF_SIZE);
	src->mem = NULL;
	src->pos = 0;
	return (src->gz || src->zd) && src->buf ? 0 : -1;
}

long tt_bytesrc_read(tt_bytesrc *src, void *buf, size_t n, tt_err *err)
{
	size_t got = 0;

	if (src->mem && src->is_gzip && mem_gzip_to_gz(src))
		return tt_err_set(err, TT_ENOMEM, "%s: out of memory", src->path), -1;
	if (src->mem) {
		size_t left = src->mem_len - src->pos;

		if (n > left)
			n = left;
		memcpy(buf, src->mem + src->pos, n);
		src->pos += n;
		src->delivered += n;
		return (long)n;
	}
	while (got < n) {
		size_t avail = src->len - src->pos;

		if (avail == 0 && src->perr.code) {
			/* corrupt or cut compressed data seen while sniffing */
			if (!got && err)
				*err = src->perr;
			return got ? (long)got : -1;
		}
		if (avail == 0) {
			/* Large reads bypass the buffer. */
			if (n - got >= BUF_SIZE && !src->eof) {
				long r = raw_read(src, (char *)buf + got, n - got);

				if (r < 0)
					return tt_err_set(err, src->fd >= 0 ? TT_EIO : TT_EINVAL, "%s: %s%s at byte %llu",
							  src->path, src->fd >= 0 ? "read error" : "corrupt ",
							  src->fd >= 0 ? "" : src->is_zstd ? "zstd data" : "gzip data",
							  (unsigned long long)src->delivered), -1;
				if (r == 0)
					src->eof = 1;
				got += (size_t)r;
				src->delivered += (uint64_t)r;
				if (r == 0)
					break;
				continue;
			}
			long f = fill(src, err);

			if (f < 0)
				return got ? (long)got : -1;
			if (src->len == 0)
				break;
			continue;
		}
		if (avail > n - got)
			avail = n - got;
		memcpy((char *)buf + got, src->buf + src->pos, avail);
		src->pos += avail;
		got += avail;
		src->delivered += avail;
	}
	return (long)got;
}

size_t tt_bytesrc_peek(tt_bytesrc *src, void *buf, size_t n)
{
	if (src->mem && src->is_gzip && mem_gzip_to_gz(src))
		return 0;
	if (src->mem) {
		size_t left = src->mem_len - src->pos;

		if (n > left)
			n = left;
		memcpy(buf, src->mem + src->pos, n);
		return n;
	}
	if (n > BUF_SIZE / 2)
		n = BUF_SIZE / 2;
	while (src->len - src->pos < n && !src->eof && !src->perr.code) {
		if (fill(src, &src->perr) <= 0)
			break;
	}
	if (n > src->len - src->pos)
		n = src->len - src->pos;
	memcpy(buf, src->buf + src->pos, n);
	return n;
}

uint64_t tt_bytesrc_offset(const tt_bytesrc *src)
{
	return src->delivered;
}

uint64_t tt_bytesrc_file_offset(const tt_bytesrc *src)
{
	if (src->pf)
		return src->pf->file_off;
	if (src->gz || src->zd)
		return dec_file_off(src);
	if (src->fd >= 0)
		return src->file_pos;
	return src->pos;
}

uint64_t tt_bytesrc_size(const tt_bytesrc *src)
{
	return src->size;
}

int tt_bytesrc_seekable(const tt_bytesrc *src)
{
	return !src->is_gzip && (src->fd >= 0 || src->mem);
}

long tt_bytesrc_pread(const tt_bytesrc *src, void *buf, size_t n, uint64_t off)
{
	if (!tt_bytesrc_seekable(src))
		return -1;
	if (src->mem) {
		if (off >= src->mem_len)
			return 0;
		if (n > src->mem_len - off)
			n = src->mem_len - (size_t)off;
		memcpy(buf, src->mem + off, n);
		return (long)n;
	}
	for (size_t got = 0;;) {
		ssize_t r = pread(src->fd, (char *)buf + got, n - got, (off_t)(off + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		got += (size_t)r;
		if (r == 0 || got == n)
			return (long)got;
	}
}

int tt_bytesrc_seek(tt_bytesrc *src, uint64_t off)
{
	if (!tt_bytesrc_seekable(src) || off > src->size)
		return -1;
	if (src->mem) {
		src->pos = (size_t)off;
	} else {
		if (lseek(src->fd, (off_t)off, SEEK_SET) < 0)
			return -1;
		src->file_pos = off;
		src->pos = src->len = 0;
		src->eof = 0;
	}
	src->delivered = off;
	return 0;
}

int tt_bytesrc_is_gzip(const tt_bytesrc *src)
{
	return src->is_gzip;
}

const char *tt_bytesrc_path(const tt_bytesrc *src)
{
	return src->path;
}
