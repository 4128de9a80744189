/*
 * import_systrace.c - a systrace file: ftrace text as the kernel's trace
 * file, atrace and trace-cmd write it, the same text inside systrace.py's
 * HTML page, or zlib-compressed behind "TRACE:\n" (`atrace -z`, a
 * "ctrace"). Read as trace processor's systrace reader reads them:
 *
 *   - before anything: bytes up to a "TRACE:\n" in the first 128 (what
 *     `adb shell atrace` prints before the trace: stderr, "capturing
 *     trace... done") are dropped, then a first line "cpus=<n>"
 *     (trace-cmd's header); text then starting with '<' is an HTML page;
 *   - an HTML page: only its <script class="trace-data"
 *     type="application/text"> sections are read; one whose first
 *     '#' line holds "TASK-PID" is the ftrace text, up to the line that
 *     holds "</script>", where reading stops for good; a "PROCESS DUMP"
 *     section names processes (`ps` long form: USER PID PPID VSZ ... NAME
 *     CMD) or threads (short form: USER PID TID CMD) when read, before
 *     any line is parsed; "CGROUP DUMP" sections are skipped;
 *   - ftrace text: a line per event (systrace_line.h), '#' and empty
 *     lines skipped; a line that is not ftrace text counts
 *     systrace_parse_failure and the rest is read on; text after the
 *     last newline is not a line (trace processor never reads it).
 * The lines are kept, sorted by ts (stable), and parsed into the
 * trackers in that order (systrace.h). Timestamps stay as written (the
 * trace's clock is its time). pid 0 is the idle task (swapper).
 *
 * Where this differs from trace processor, the user hears of it: lines
 * skipped and an unread last line make the import's warning (every
 * command shows it) as well as their stats, and a file where not one
 * line is ftrace text is refused with the first bad line, not opened
 * empty.
 */
#include "import_int.h"
#include "sorter.h"
#include "systrace.h"
#include "textscan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define LOOKAHEAD 128          /* trace processor's kGuessTraceMaxLookahead */
#define READ_CHUNK (4u << 20)   /* text read at a time */
#define ZIN_CHUNK (256u << 10)  /* compressed bytes read at a time */
#define MAX_LINE (64u << 20)    /* the longest line read */

static const char k_marker[] = "TRACE:\n";
static const char k_data_section[] = "<script class=\"trace-data\" type=\"application/text\">";

/* ---- small text helpers ---------------------------------------------------- */

#define HAS(h, n, lit) (tt_text_find((h), (n), (lit), sizeof(lit) - 1) != NULL)
#define STARTS(h, n, lit) ((n) >= sizeof(lit) - 1 && memcmp((h), (lit), sizeof(lit) - 1) == 0)

static int starts_nocase(const unsigned char *h, size_t n, const char *lit)
{
	size_t l = strlen(lit);

	if (n < l)
		return 0;
	for (size_t i = 0; i < l; i++) {
		unsigned char c = h[i];

		if ((c >= 'A' && c <= 'Z' ? c + 32 : c) != (unsigned char)lit[i])
			return 0;
	}
	return 1;
}

int tt_systrace_sniff(const unsigned char *head, size_t n)
{
	const char *h = (const char *)head;

	if (n > LOOKAHEAD)
		n = LOOKAHEAD;
	/* trace processor looks for "\x78\x9c" (zlib's default level, which
	 * atrace uses); any zlib header (RFC 1950: deflate, its check bits
	 * right) is as plain a sign */
	for (const char *m = h; (m = tt_text_find(m, n - (size_t)(m - h), k_marker, sizeof(k_marker) - 1)) != NULL; m++) {
		size_t at = (size_t)(m - h) + sizeof(k_marker) - 1;

		if (at + 2 <= n && head[at] == 0x78 && ((unsigned)head[at] << 8 | head[at + 1]) % 31 == 0)
			return TT_SYSTRACE_ZLIB;
	}
	if (HAS(h, n, "# tracer") || starts_nocase(head, n, "<!doctype html>") || starts_nocase(head, n, "<html>") ||
	    HAS(h, n, "TRACE:\n") || STARTS(h, n, "cpus=") || (n && h[0] == ' '))
		return TT_SYSTRACE_TEXT;
	return 0;
}

/* A whole token of decimal digits that fits 32 bits (StringToUInt32). */
static int u32_of(const char *s, size_t n, int64_t *out)
{
	uint64_t v = 0;

	if (n == 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
		if (v > UINT32_MAX)
			return -1;
	}
	*out = (int64_t)v;
	return 0;
}

/* ---- the text: plain (bytesrc inflates gzip and zstd) or zlib ---------- */

struct text_src {
	tt_bytesrc *b;
	int zlib, zdone, zinit;
	z_stream z;
	unsigned char *zin;
	uint64_t zin_at;      /* file offset of zin[0], for messages */
};

/* Up to n bytes of text; 0 at the end, -1 with err set. */
static long text_read(struct text_src *t, tt_import *im, char *buf, size_t n)
{
	if (!t->zlib)
		return tt_bytesrc_read(t->b, buf, n, im->err);
	if (t->zdone)
		return 0;
	t->z.next_out = (unsigned char *)buf;
	t->z.avail_out = (uInt)n;
	while (t->z.avail_out == n) {
		int zr;

		if (t->z.avail_in == 0) {
			long got = tt_bytesrc_read(t->b, t->zin, ZIN_CHUNK, im->err);

			if (got < 0)
				return -1;
			if (got == 0)
				return tt_err_set(im->err, TT_EINVAL, "%s: compressed systrace is cut short (ends at byte %llu)",
						  im->path, (unsigned long long)tt_bytesrc_offset(t->b)), -1;
			t->zin_at = tt_bytesrc_offset(t->b) - (uint64_t)got;
			t->z.next_in = t->zin;
			t->z.avail_in = (uInt)got;
		}
		zr = inflate(&t->z, Z_NO_FLUSH);
		if (zr == Z_STREAM_END) {
			t->zdone = 1;
			break;
		}
		if (zr != Z_OK && zr != Z_BUF_ERROR)
			return tt_err_set(im->err, TT_EINVAL, "%s: compressed systrace is corrupt near byte %llu (%s)",
					  im->path,
					  (unsigned long long)(t->zin_at + (uint64_t)(t->z.next_in - t->zin)),
					  t->z.msg ? t->z.msg : "zlib error"), -1;
	}
	return (long)(n - t->z.avail_out);
}

/* atrace -z: the zlib stream starts right after "TRACE:\n" (found in the
 * first 128 bytes, as the sniff found it). */
static int text_open_zlib(struct text_src *t, tt_import *im)
{
	unsigned char head[LOOKAHEAD];
	long n = tt_bytesrc_read(t->b, head, sizeof(head), im->err);
	const char *m;
	size_t at;

	if (n < 0)
		return -1;
	m = tt_text_find((const char *)head, (size_t)n, k_marker, sizeof(k_marker) - 1);
	t->zin = malloc(ZIN_CHUNK);
	if (!m || !t->zin)
		return tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path), -1;
	at = (size_t)(m - (const char *)head) + sizeof(k_marker) - 1;
	memcpy(t->zin, head + at, (size_t)n - at);
	t->zin_at = at;
	t->z.next_in = t->zin;
	t->z.avail_in = (uInt)((size_t)n - at);
	/* 15 + 32: a zlib or gzip header, told by zlib */
	if (inflateInit2(&t->z, 15 + 32) != Z_OK)
		return tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path), -1;
	t->zinit = 1;
	t->zlib = 1;
	return 0;
}

/* ---- lines, as the reader's state says ------------------------------------- */

enum state { S_BEFORE, S_HTML, S_DATA_SECTION, S_SYSTRACE, S_DUMP_LONG, S_DUMP_SHORT, S_CGROUP, S_END };

struct reader {
	tt_import *im;
	tt_systrace *sys;
	tt_sorter *sorter;
	uint32_t stream;
	enum state state;
	uint64_t line_no;       /* of the line being read, from 1 */
	uint64_t bad;           /* lines that are not ftrace text */
	uint64_t first_bad_line;
	char first_bad[81];
	char *buf;              /* the chunk being read */
	size_t buf_len;
	int owned;              /* buf handed to sys (its lines point into it) */
};

/* Space-separated words of a line (a process dump's columns). */
static size_t words(const char *s, size_t n, const char **w, size_t *wl, size_t max)
{
	size_t k = 0, i = 0;

	while (i < n && k < max) {
		size_t b;

		while (i < n && s[i] == ' ')
			i++;
		if (i == n)
			break;
		b = i;
		while (i < n && s[i] != ' ')
			i++;
		w[k] = s + b;
		wl[k++] = i - b;
	}
	return k;
}

static int dump_line(struct reader *r, const char *s, size_t n)
{
	const char *w[10];
	size_t wl[10], k = words(s, n, w, wl, 10);
	int64_t a, b;

#define WORD_IS(i, lit) (wl[i] == sizeof(lit) - 1 && memcmp(w[i], lit, sizeof(lit) - 1) == 0)
	if (k == 4 && WORD_IS(0, "USER") && WORD_IS(1, "PID") && WORD_IS(2, "TID") && WORD_IS(3, "CMD")) {
		r->state = S_DUMP_SHORT;
		return 0;
	}
	if (k > 4 && WORD_IS(0, "USER") && WORD_IS(1, "PID") && WORD_IS(2, "PPID") && WORD_IS(3, "VSZ")) {
		r->state = S_DUMP_LONG;
		return 0;
	}
	if (r->state == S_DUMP_LONG && k >= 10) {
		/* user pid ppid vsz rss wchan pc s name cmd... */
		if (u32_of(w[1], wl[1], &a) || u32_of(w[2], wl[2], &b))
			return tt_err_set(r->im->err, TT_EINVAL, "%s: line %llu: a PROCESS DUMP line without pid and ppid: %.*s",
					  r->im->path, (unsigned long long)r->line_no, (int)(n < 60 ? n : 60), s), -1;
		if (tt_systrace_dump_process(r->sys, a, b, w[8], wl[8]))
			return tt_err_set(r->im->err, TT_ENOMEM, "%s: out of memory", r->im->path), -1;
	} else if (r->state == S_DUMP_SHORT && k >= 4) {
		/* user tgid tid cmd line (spaces and all) */
		if (u32_of(w[1], wl[1], &a) || u32_of(w[2], wl[2], &b))
			return tt_err_set(r->im->err, TT_EINVAL, "%s: line %llu: a PROCESS DUMP line without pid and tid: %.*s",
					  r->im->path, (unsigned long long)r->line_no, (int)(n < 60 ? n : 60), s), -1;
		if (tt_systrace_dump_thread(r->sys, a, b, w[3], (size_t)(s + n - w[3])))
			return tt_err_set(r->im->err, TT_ENOMEM, "%s: out of memory", r->im->path), -1;
	}
	return 0;
}

static int ftrace_line(struct reader *r, const char *s, size_t n)
{
	tt_event e = { .args = TT_NONE };
	uint32_t idx;

	if (!r->owned && n && s[0] != '#') {
		/* the chunk's lines are kept where they are */
		if (tt_systrace_own(r->sys, r->buf, r->buf_len))
			return -1;
		r->owned = 1;
	}
	switch (tt_systrace_add(r->sys, s, n, &e.ts, &idx)) {
	case TT_SYSTRACE_KEPT:
		e.id = idx;
		return tt_sorter_push(r->sorter, r->stream, &e) < 0 ? -1 : 0;
	case TT_SYSTRACE_SKIPPED:
		return 0;
	case TT_SYSTRACE_BAD:
		if (!r->bad++) {
			r->first_bad_line = r->line_no;
			snprintf(r->first_bad, sizeof(r->first_bad), "%.*s", (int)(n < 80 ? n : 80), s);
		}
		tt_storage_stat_add(r->im->st, TT_STAT_systrace_parse_failure, 1);
		return 0;
	default:
		return -1;
	}
}

/* One line (without its '\n'). 0, or -1 with err set for a bad process
 * dump, or -2 when out of memory. */
static int one_line(struct reader *r, const char *s, size_t n)
{
	switch (r->state) {
	case S_HTML:
		if (tt_text_find(s, n, k_data_section, sizeof(k_data_section) - 1))
			r->state = S_DATA_SECTION;
		return 0;
	case S_DATA_SECTION:
		if (n && s[0] == '#' && HAS(s, n, "TASK-PID"))
			r->state = S_SYSTRACE;
		else if (STARTS(s, n, "PROCESS DUMP"))
			r->state = S_DUMP_LONG;
		else if (STARTS(s, n, "CGROUP DUMP"))
			r->state = S_CGROUP;
		else if (HAS(s, n, "</script>"))
			r->state = S_HTML;
		return 0;
	case S_SYSTRACE:
		if (HAS(s, n, "</script>")) {
			r->state = S_END;
			return 0;
		}
		return ftrace_line(r, s, n) ? -2 : 0;
	case S_DUMP_LONG:
	case S_DUMP_SHORT:
		if (HAS(s, n, "</script>")) {
			r->state = S_HTML;
			return 0;
		}
		return dump_line(r, s, n);
	case S_CGROUP:
		if (HAS(s, n, "</script>"))
			r->state = S_HTML;
		return 0;
	default:
		return 0;
	}
}

/* The first chunk: what comes before the trace (see the top). Returns
 * where its lines start. */
static size_t first_chunk(struct reader *r, const char *s, size_t n)
{
	size_t at = 0;
	const char *m = tt_text_find(s, n < LOOKAHEAD ? n : LOOKAHEAD, k_marker, sizeof(k_marker) - 1);
	const char *nl;

	if (m) {
		at = (size_t)(m - s) + sizeof(k_marker) - 1;
		for (size_t i = 0; i < at; i++)
			r->line_no += s[i] == '\n';
	}
	nl = memchr(s + at, '\n', n - at);
	if (nl && STARTS(s + at, n - at, "cpus=")) {
		size_t i = at + 5;

		while (s + i < nl && s[i] >= '0' && s[i] <= '9')
			i++;
		if (s + i == nl) {
			at = i + 1;
			r->line_no++;
		}
	}
	r->state = at < n && s[at] == '<' ? S_HTML : S_SYSTRACE;
	return at;
}

static int emit(void *ctx, const tt_event *e)
{
	return tt_systrace_parse(ctx, (uint32_t)e->id) ? -1 : 0;
}

/* ---- the import ---------------------------------------------------------- */

int tt_import_systrace(tt_import *im, tt_bytesrc *src, int zlib)
{
	struct text_src t = { .b = src };
	struct reader r = { .im = im, .state = S_BEFORE };
	char *carry = NULL;
	size_t ncarry = 0;
	uint64_t read_total = 0;
	int rc = TT_OK, eof = 0;

	tt_process_tracker_main_threads(im->procs, 1);
	tt_args_tracker_dedupe(im->args, 1);
	tt_slice_tracker_stack_instants(im->slices, 1);
	r.sys = tt_systrace_new(im);
	r.sorter = tt_sorter_new(TT_SORT_FULL);
	if (!r.sys || !r.sorter || (r.stream = tt_sorter_stream(r.sorter)) == UINT32_MAX ||
	    tt_process_tracker_idle_rows(im->procs, 1)) {
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path);
		goto done;
	}
	if (zlib && text_open_zlib(&t, im)) {
		rc = im->err->code;
		goto done;
	}
	while (!eof && r.state != S_END) {
		size_t at = 0;
		long got;

		r.buf = malloc(ncarry + READ_CHUNK);
		if (!r.buf) {
			rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path);
			goto done;
		}
		r.owned = 0;
		if (ncarry)
			memcpy(r.buf, carry, ncarry);
		free(carry);
		carry = NULL;
		got = text_read(&t, im, r.buf + ncarry, READ_CHUNK);
		if (got < 0) {
			free(r.buf);
			rc = im->err->code;
			goto done;
		}
		eof = got == 0;
		read_total += (uint64_t)got;
		r.buf_len = ncarry + (size_t)got;
		if (r.state == S_BEFORE && (r.buf_len >= LOOKAHEAD || eof))
			at = first_chunk(&r, r.buf, r.buf_len);
		if (r.state != S_BEFORE) {
			for (;;) {
				const char *nl = memchr(r.buf + at, '\n', r.buf_len - at);
				int lr;

				if (!nl)
					break;
				r.line_no++;
				lr = one_line(&r, r.buf + at, (size_t)(nl - (r.buf + at)));
				if (lr == -2)
					rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path);
				if (lr) {
					if (!r.owned)
						free(r.buf);
					rc = rc ? rc : im->err->code;
					goto done;
				}
				at = (size_t)(nl - r.buf) + 1;
				if (r.state == S_END)
					break;
			}
		}
		/* the part line, on to the next chunk */
		ncarry = r.buf_len - at;
		if (ncarry > MAX_LINE && r.state != S_END) {
			/* (each read copies the part line again: a file of one
			 * endless line would take quadratic time) */
			if (!r.owned)
				free(r.buf);
			rc = tt_err_set(im->err, TT_EINVAL, "%s: line %llu is longer than %u MiB", im->path,
					(unsigned long long)r.line_no + 1, MAX_LINE >> 20);
			goto done;
		}
		if (r.state != S_END && ncarry) {
			carry = malloc(ncarry);
			if (!carry) {
				if (!r.owned)
					free(r.buf);
				rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path);
				goto done;
			}
			memcpy(carry, r.buf + at, ncarry);
		}
		if (!r.owned)
			free(r.buf);
		r.buf = NULL;
		tt_import_progress(im, tt_bytesrc_file_offset(src), tt_systrace_lines(r.sys));
		if (tt_import_cancelled(im)) {
			rc = tt_err_set(im->err, TT_ECANCEL, "%s: import cancelled", im->path);
			goto done;
		}
	}
	if (tt_systrace_lines(r.sys) == 0 && r.bad) {
		rc = tt_err_set(im->err, TT_EINVAL, "%s: line %llu is not ftrace text: %s", im->path,
				(unsigned long long)r.first_bad_line, r.first_bad);
		goto done;
	}
	if (tt_sorter_finish(r.sorter, emit, r.sys) || tt_systrace_finish(r.sys)) {
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path);
		goto done;
	}
	{
		char msg[300];
		int k = 0;

		msg[0] = '\0';
		if (r.bad)
			k = snprintf(msg, sizeof(msg), "%llu line%s not ftrace text, skipped (first: line %llu: %s)",
				     (unsigned long long)r.bad, r.bad == 1 ? " is" : "s are",
				     (unsigned long long)r.first_bad_line, r.first_bad);
		if (ncarry && r.state != S_END && r.state != S_BEFORE) {
			tt_storage_stat_add(im->st, TT_STAT_systrace_line_unterminated, 1);
			snprintf(msg + k, sizeof(msg) - (size_t)k,
				 "%sthe last line (%zu bytes from text byte %llu) has no newline: not read", k ? "; " : "",
				 ncarry, (unsigned long long)(read_total - ncarry));
		}
		if (msg[0])
			tt_storage_meta_str(im->st, "import_warning", msg);
	}
done:
	free(carry);
	if (t.zinit)
		inflateEnd(&t.z);
	free(t.zin);
	tt_sorter_free(r.sorter);
	tt_systrace_free(r.sys);
	return rc;
}
