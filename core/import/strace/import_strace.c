/*
 * import_strace.c - strace's text output as a trace (strace.h for a
 * line), as trace processor's strace importer reads it: each call a
 * slice of category "strace" named by the system call on its thread's
 * track, its arguments ("args") and return value ("ret") as args; a
 * complete call a zero-length slice, an unfinished one open until its
 * "resumed" line ends it (that line's args and ret win), a resumed call
 * interrupted again ending and beginning at once. Lines are sorted by time
 * (stable). Threads are known by tid only (strace names no process).
 *
 * Lines that are not calls (signals, exits, anything else) count
 * strace_parse_failure, calls timed by the wall clock (-t / -tt: no date)
 * strace_unsupported_timestamp_format, calls without a pid (strace run
 * without -f) strace_missing_pid; each is skipped, and the trace opens
 * with a warning naming the first (not one call read: refused, naming
 * it). Text after the last newline is not a line, as there.
 */
#include "import_int.h"
#include "sorter.h"
#include "strace.h"
#include "textscan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define READ_CHUNK (4u << 20)

/* ---- one line ------------------------------------------------------------------ */

/* A decimal integer of the whole token, >= 0, at most max; -1 when not. */
static int64_t number(const char *s, size_t n, int64_t max)
{
	int64_t v = 0;

	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		if (v > (max - (s[i] - '0')) / 10)
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

int tt_strace_line_read(const char *line, size_t len, tt_strace_line *out)
{
	const char *s = line, *sp, *p;
	size_t n = len, k;
	int64_t secs, us = 0;

	tt_text_trim(&s, &n);
	memset(out, 0, sizeof(*out));
	out->pid = -1;
	if (!n || s[0] == '-' || s[0] == '+') /* "--- SIGCHLD ... ---", "+++ exited ... +++" */
		return TT_STRACE_NOT_A_CALL;
	/* the pid: a first word of up to 9 digits */
	if ((sp = memchr(s, ' ', n)) != NULL && sp > s && sp - s < 10 && number(s, (size_t)(sp - s), UINT32_MAX) >= 0) {
		out->pid = number(s, (size_t)(sp - s), UINT32_MAX);
		n -= (size_t)(sp + 1 - s);
		s = sp + 1;
		tt_text_trim(&s, &n);
	}
	/* the time: seconds since the epoch, microseconds after the dot */
	if (!(sp = memchr(s, ' ', n)))
		return TT_STRACE_NOT_A_CALL;
	k = (size_t)(sp - s);
	if (memchr(s, ':', k))
		return TT_STRACE_WALL_CLOCK;
	p = memchr(s, '.', k);
	secs = number(s, p ? (size_t)(p - s) : k, INT64_MAX / 1000000000);
	if (p && p + 1 < s + k)
		us = number(p + 1, (size_t)(s + k - p - 1), 999999);
	if (secs < 0 || us < 0)
		return TT_STRACE_NOT_A_CALL;
	out->ts = secs * 1000000000 + us * 1000;
	n -= k + 1;
	s = sp + 1;
	tt_text_trim(&s, &n);
	if (!n)
		return TT_STRACE_NOT_A_CALL;
	/* the call's name, and where its args begin */
	if (n >= 5 && memcmp(s, "<... ", 5) == 0) {
		const char *e = tt_text_find(s + 5, n - 5, " resumed>", 9);

		if (!e)
			return TT_STRACE_NOT_A_CALL;
		out->name = s + 5;
		out->name_len = (size_t)(e - (s + 5));
		out->kind = TT_STRACE_RESUMED;
		n -= (size_t)(e + 9 - s);
		s = e + 9;
		tt_text_trim(&s, &n);
	} else {
		if (!(p = memchr(s, '(', n)))
			return TT_STRACE_NOT_A_CALL;
		out->name = s;
		out->name_len = (size_t)(p - s);
		out->kind = TT_STRACE_COMPLETE;
		n -= (size_t)(p + 1 - s);
		s = p + 1;
	}
	if ((p = tt_text_find(s, n, "<unfinished ...>", 16)) != NULL) {
		const char *a = s;
		size_t an = (size_t)(p - s);

		tt_text_trim(&a, &an);
		while (an && a[an - 1] == ',')
			an--;
		out->args = an ? a : NULL;
		out->args_len = an;
		out->kind = out->kind == TT_STRACE_RESUMED ? TT_STRACE_RESUMED_UNFINISHED : TT_STRACE_UNFINISHED;
		return TT_STRACE_OK;
	}
	/* the args end at the first ')' followed by '=' */
	for (p = memchr(s, ')', n); p; p = memchr(p + 1, ')', n - (size_t)(p + 1 - s))) {
		const char *q = p + 1;

		while (q < s + n && tt_text_is_space((unsigned char)*q))
			q++;
		if (q < s + n && *q == '=')
			break;
	}
	if (p) {
		const char *a = s, *eq = memchr(p + 1, '=', n - (size_t)(p + 1 - s));
		size_t an = (size_t)(p - s);

		tt_text_trim(&a, &an);
		out->args = an ? a : NULL;
		out->args_len = an;
		out->ret = eq + 1;
		out->ret_len = n - (size_t)(eq + 1 - s);
	} else {
		const char *eq = memchr(s, '=', n);

		if (!eq)
			return TT_STRACE_NOT_A_CALL;
		out->ret = eq + 1;
		out->ret_len = n - (size_t)(eq + 1 - s);
	}
	tt_text_trim(&out->ret, &out->ret_len);
	return TT_STRACE_OK;
}

/* ---- the import -------------------------------------------------------------- */

struct bad {
	uint64_t n, first_line;
	char first[81];
};

struct strace_import {
	tt_import *im;
	tt_sorter *sorter;
	uint32_t stream;
	uint64_t line_no, calls;
	struct bad bad[3]; /* not a call, wall clock, no pid */
	tt_str cat, k_args, k_ret;
};

static const tt_stat k_bad_stat[3] = { TT_STAT_strace_parse_failure, TT_STAT_strace_unsupported_timestamp_format,
					TT_STAT_strace_missing_pid };
static const char *const k_bad_what[3] = { "not strace calls", "timed by the wall clock (not -ttt)",
					   "without a pid (not strace -f)" };

static void bad_line(struct strace_import *r, int which, const char *s, size_t n)
{
	struct bad *b = &r->bad[which];

	if (!b->n++) {
		b->first_line = r->line_no;
		snprintf(b->first, sizeof(b->first), "%.*s", (int)(n < 80 ? n : 80), s);
	}
	tt_storage_stat_add(r->im->st, k_bad_stat[which], 1);
}

/* One line: a call pushed on the sorter (the event's name its call, cat
 * its args, track its return value, u.i its kind, id its tid); -1 when out
 * of memory. */
static int one_line(struct strace_import *r, const char *s, size_t n)
{
	tt_storage *st = r->im->st;
	tt_strace_line l;
	tt_event e = { .args = TT_NONE };

	switch (tt_strace_line_read(s, n, &l)) {
	case TT_STRACE_WALL_CLOCK:
		bad_line(r, 1, s, n);
		return 0;
	case TT_STRACE_NOT_A_CALL:
		bad_line(r, 0, s, n);
		return 0;
	default:
		break;
	}
	if (l.pid < 0) {
		bad_line(r, 2, s, n);
		return 0;
	}
	e.ts = l.ts;
	e.u.i = l.kind;
	e.id = (uint64_t)l.pid;
	e.name = tt_storage_intern(st, l.name, l.name_len);
	e.cat = l.args ? tt_storage_intern(st, l.args, l.args_len) : 0;
	e.track = l.ret ? tt_storage_intern(st, l.ret, l.ret_len) : 0;
	r->calls++;
	return tt_sorter_push(r->sorter, r->stream, &e) < 0 ? -1 : 0;
}

static int feed(void *ctx, const tt_event *e)
{
	struct strace_import *r = ctx;
	tt_import *im = r->im;
	uint32_t utid = tt_process_tracker_thread_by_tid(im->procs, (int64_t)e->id), track, args = TT_NONE;

	if (utid == TT_NONE)
		utid = tt_process_tracker_thread_new(im->procs, -1, (int64_t)e->id);
	track = tt_track_tracker_thread(im->tracks, utid);
	if (track == TT_NONE)
		return 0;
	if (e->cat || e->track) {
		tt_storage_args_begin(im->st);
		if (e->cat)
			tt_storage_args_keyed(im->st, r->k_args, TT_ARG_STRING, 0, 0, e->cat);
		if (e->track)
			tt_storage_args_keyed(im->st, r->k_ret, TT_ARG_STRING, 0, 0, e->track);
		args = tt_args_tracker_end(im->args);
	}
	switch (e->u.i) {
	case TT_STRACE_COMPLETE:
		tt_slice_tracker_complete(im->slices, track, e->ts, 0, r->cat, e->name, args);
		break;
	case TT_STRACE_UNFINISHED:
		tt_slice_tracker_begin(im->slices, track, e->ts, r->cat, e->name, args);
		break;
	case TT_STRACE_RESUMED:
		tt_slice_tracker_end_match(im->slices, track, e->ts, r->cat, e->name, args);
		break;
	default: /* resumed, then interrupted again */
		tt_slice_tracker_end_match(im->slices, track, e->ts, r->cat, e->name, args);
		tt_slice_tracker_begin(im->slices, track, e->ts, r->cat, e->name, args);
		break;
	}
	return 0;
}

int tt_strace_sniff(const unsigned char *head, size_t n)
{
	const char *nl = memchr(head, '\n', n);
	tt_strace_line l;

	return tt_strace_line_read((const char *)head, nl ? (size_t)(nl - (const char *)head) : n, &l) == TT_STRACE_OK;
}

int tt_import_strace(tt_import *im, tt_bytesrc *src)
{
	struct strace_import r = { .im = im };
	char *buf = malloc(READ_CHUNK), msg[400];
	size_t have = 0;
	int rc = TT_OK, k = 0;

	tt_process_tracker_main_threads(im->procs, 1);
	tt_args_tracker_dedupe(im->args, 1);
	tt_slice_tracker_stack_instants(im->slices, 1);
	r.sorter = tt_sorter_new(TT_SORT_FULL);
	if (!buf || !r.sorter || (r.stream = tt_sorter_stream(r.sorter)) == UINT32_MAX ||
	    tt_process_tracker_idle_rows(im->procs, 0)) {
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path);
		goto done;
	}
	r.cat = tt_storage_intern_cstr(im->st, "strace");
	r.k_args = tt_storage_intern_cstr(im->st, "args");
	r.k_ret = tt_storage_intern_cstr(im->st, "ret");
	for (;;) {
		long got = tt_bytesrc_read(src, buf + have, READ_CHUNK - have, im->err);
		size_t at = 0;

		if (got < 0) {
			rc = im->err->code;
			goto done;
		}
		have += (size_t)got;
		for (;;) {
			const char *nl = memchr(buf + at, '\n', have - at);

			if (!nl)
				break;
			r.line_no++;
			if (one_line(&r, buf + at, (size_t)(nl - (buf + at)))) {
				rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path);
				goto done;
			}
			at = (size_t)(nl - buf) + 1;
		}
		if (got == 0)
			break;
		if (at == 0 && have == READ_CHUNK) {
			rc = tt_err_set(im->err, TT_EINVAL, "%s: line %llu is longer than %u MiB", im->path,
					(unsigned long long)r.line_no + 1, READ_CHUNK >> 20);
			goto done;
		}
		memmove(buf, buf + at, have - at);
		have -= at;
		tt_import_progress(im, tt_bytesrc_file_offset(src), r.calls);
		if (tt_import_cancelled(im)) {
			rc = tt_err_set(im->err, TT_ECANCEL, "%s: import cancelled", im->path);
			goto done;
		}
	}
	if (!r.calls) {
		for (int i = 0; i < 3 && rc == TT_OK; i++)
			if (r.bad[i].n)
				rc = tt_err_set(im->err, TT_EINVAL, "%s: line %llu is not a call strace -f -ttt writes: %s",
						im->path, (unsigned long long)r.bad[i].first_line, r.bad[i].first);
		if (rc != TT_OK)
			goto done;
	}
	if (tt_sorter_finish(r.sorter, feed, &r)) {
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path);
		goto done;
	}
	msg[0] = '\0';
	for (int i = 0; i < 3; i++) {
		if (!r.bad[i].n || k >= (int)sizeof(msg) - 1)
			continue;
		k += snprintf(msg + k, sizeof(msg) - (size_t)k, "%s%llu line%s %s, skipped (first: line %llu: %s)",
			      k ? "; " : "", (unsigned long long)r.bad[i].n, r.bad[i].n == 1 ? "" : "s", k_bad_what[i],
			      (unsigned long long)r.bad[i].first_line, r.bad[i].first);
	}
	if (have && k < (int)sizeof(msg) - 1)
		snprintf(msg + k, sizeof(msg) - (size_t)k, "%sthe last line (%zu bytes) has no newline: not read",
			 k ? "; " : "", have);
	if (msg[0])
		tt_storage_meta_str(im->st, "import_warning", msg);
done:
	tt_sorter_free(r.sorter);
	free(buf);
	return rc;
}
