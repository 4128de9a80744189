/*
 * import_json.c - Chrome JSON Trace Event Format importer (formats.md §2).
 *
 * Pipeline, on two threads because yajl alone takes as long as everything
 * else together:
 *   parser thread: reads the file 256 KiB at a time (never the whole file),
 *     yajl streams the text, each event becomes a parsed event (its strings
 *     copied into a batch) -> batches of a few thousand events, at most
 *     NBATCH in flight;
 *   import thread: interns names, finds threads, stores args, turns each
 *     event into a compact record (48 bytes) -> records are sorted by time
 *     (the format allows any order) -> the records drive the slice
 *     tracker, counters and flows.
 * Batches are consumed in file order, so the result is the same as a
 * single-threaded run; if the thread cannot be started, the parser hands
 * each batch over directly.
 *
 * Files: import_json.c (batches, the parser thread, entry point),
 * json_int.h (records, batches, context), json_parse.c (yajl callbacks,
 * args flattening), json_event.c (one parsed event -> metadata or a
 * record; the sort), json_feed.c (records -> trackers), json_chunks.c
 * (two parsers on two halves of a plain file), json_tokerr.c (the
 * tokenizer's refusals, logged), json_lenient.c (trailing commas and
 * control characters), json_systrace.c (the systemTraceEvents string:
 * its ftrace lines on a sorter stream of their own, parsed by
 * core/import/systrace/).
 *
 * Choices, where Chrome's and Perfetto's importers differ:
 *   - ts/dur are µs in the text; they are parsed from the number's text
 *     into exact ns (no double rounding for up to 3 decimals; beyond that
 *     llround(x * 1000) like Perfetto). displayTimeUnit does not rescale
 *     (counted as json_display_time_unit, as there).
 *   - X without dur (json_parser_failure), or with a negative dur
 *     (slice_negative_duration): no slice, counted and logged (Perfetto).
 *   - Unclosed B: dur -1 (Perfetto), counted. Unmatched E: dropped, counted.
 *   - Same-ts X events: longer first, so parents precede children.
 *   - 'R' (mark) events are instants, like 'I'/'i'.
 *   - Async b/e/n: tracks by (cat, id) ("scope" is not read, as in
 *     Perfetto), trace-wide for an id or id2.global, per process for an
 *     id2.local, named after their first event, as Perfetto does. Legacy async S/p/F: not imported (Perfetto reads
 *     them and drops them), counted as json_phase_unknown; T is a thread
 *     state (Perfetto: refused only without a dur; a negative one kept).
 *   - C: one counter track per series, named "<name> <series>" (Perfetto),
 *     scoped to the process ("<name> id: <id> <series>" with a string id).
 *   - pid/tid as Perfetto reads them: numbers cut to 32 bits (out of
 *     range: 0), tid missing or 0: tid = pid; any string gets a stable
 *     synthetic number and names the process/thread. Threads are made in
 *     the order the sorted records are fed (Perfetto's parser order).
 *   - systemTraceEvents (a string of ftrace text): read as trace
 *     processor reads it (sched_switch, sched_waking,
 *     sched_blocked_reason, atrace markers, cpu frequency / idle /
 *     limits, clocks, thermal, cooling devices, workqueues, rss_stat;
 *     see systrace.h); a line that is not ftrace text refuses the trace,
 *     as there. Its binder events are not imported yet.
 * Limits: `stackFrames`, `samples` and object events (N/O/D), memory
 * dumps (v) and clock syncs (c) are ignored (counted as
 * json_phase_unknown for events); a string longer than 1 GiB
 * (JSON_MAX_STRING_MIB) or a number longer than 32 MiB (MAX_TOKEN) stops
 * the parse there, the events before it kept.
 */
#include "json_int.h"

/* ---- small helpers ---------------------------------------------------------- */

int tt_json_parse_oom(struct jparse *p)
{
	p->oom = 1;
	return 0; /* stops yajl */
}

/* Parses the text of a JSON number of µs into ns: exact for up to three
 * decimals, llround(x * 1000) beyond (what Perfetto does). */
int tt_json_us_text_to_ns(const char *s, size_t len, int64_t *out)
{
	int64_t ip = 0, frac = 0;
	int neg = 0, nd = 0;
	size_t i = 0;

	if (len == 0 || len > 19)
		goto exponent;
	if (s[i] == '-')
		neg = 1, i++;
	if (i == len || s[i] < '0' || s[i] > '9')
		return -1;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		if (ip > (INT64_MAX / 1000 - 9) / 10)
			return -1;
		ip = ip * 10 + (s[i] - '0');
	}
	if (i < len && s[i] == '.') {
		i++;
		for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
			if (nd < 3)
				frac = frac * 10 + (s[i] - '0');
			else if (nd == 3 && s[i] >= '5')
				frac += 1; /* round half away from zero on the 4th decimal */
			nd++;
		}
		for (int k = nd; k < 3; k++)
			frac *= 10;
	}
	if (i != len)
		goto exponent;
	*out = neg ? -(ip * 1000 + frac) : ip * 1000 + frac;
	return 0;
exponent:
	/* 1.5e3, or too long for the exact path: through a double */
	if (len == 0 || len >= 64 || (!memchr(s, 'e', len) && !memchr(s, 'E', len) && len <= 19))
		return -1;
	{
		char buf[64], *end;
		double d;

		memcpy(buf, s, len);
		buf[len] = '\0';
		d = strtod(buf, &end);
		if (*end || !isfinite(d) || fabs(d) > 9.2e15)
			return -1;
		*out = llround(d * 1000.0);
		return 0;
	}
}

int tt_json_parse_int_text(const char *s, size_t len, int64_t *out)
{
	char buf[32], *end;
	long long v;

	/* fast path: a plain decimal that fits (pids, tids, arg values) */
	if (len && len < 18 && (s[0] != '0' || len == 1)) {
		int64_t acc = 0;
		size_t i = s[0] == '-';

		for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			acc = acc * 10 + (s[i] - '0');
		if (i == len && len > (size_t)(s[0] == '-')) {
			*out = s[0] == '-' ? -acc : acc;
			return 0;
		}
	}
	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	v = strtoll(buf, &end, 0); /* hex ids "0x1f" too */
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int tt_json_parse_u64_text(const char *s, size_t len, uint64_t *out)
{
	char buf[32], *end;
	unsigned long long v;

	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	v = strtoull(buf, &end, 0);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

uint64_t tt_json_hash_text(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

/* ---- batches --------------------------------------------------------------------- */

/* Copies s into the batch's text (NUL-terminated); -1 when it can't. */
int tt_json_text_put(struct batch *b, const char *s, size_t len, uint32_t *off)
{
	if (b->text.n + len + 1 > UINT32_MAX)
		return -1;
	if (b->text.n + len + 1 > b->text.cap &&
	    tt_vec_reserve((void **)&b->text.v, &b->text.cap, b->text.n + len + 1, 1))
		return -1;
	*off = (uint32_t)b->text.n;
	memcpy(b->text.v + b->text.n, s, len);
	b->text.v[b->text.n + len] = '\0';
	b->text.n += len + 1;
	return 0;
}

/* Room for events events and text bytes; 0 or -1. */
int tt_json_batch_reserve(struct batch *b, size_t events, size_t text)
{
	return tt_vec_reserve((void **)&b->ev.v, &b->ev.cap, events, sizeof(*b->ev.v)) ||
	       tt_vec_reserve((void **)&b->args.v, &b->args.cap, events, sizeof(*b->args.v)) ||
	       tt_vec_reserve((void **)&b->text.v, &b->text.cap, text, 1) ? -1 : 0;
}

void tt_json_batch_clear(struct batch *b)
{
	b->ev.n = b->args.n = b->text.n = 0;
	for (size_t i = 0; i < b->sys.n; i++)
		free(b->sys.v[i]);
	b->sys.n = 0;
}

void tt_json_batch_free(struct batch *b)
{
	tt_json_batch_clear(b);
	TT_VEC_FREE(b->sys);
	TT_VEC_FREE(b->ev);
	TT_VEC_FREE(b->args);
	TT_VEC_FREE(b->text);
}


/* The batch the parser fills next; NULL when the import thread stopped. */
static struct batch *batch_acquire(struct pipe *q)
{
	struct batch *b;

	if (tt_workq_work(q->q, TT_WQ_WAIT, -1, &q->seq) != TT_WQ_CLAIMED)
		return NULL;
	b = &q->batches[q->seq % NBATCH];
	tt_json_batch_clear(b);
	return b;
}

static void consume_all(struct json *j);

/* Hands the parser's current batch over; 0, or -1 when the import thread
 * stopped. */
int tt_json_batch_publish(struct jparse *p)
{
	struct pipe *q = &p->j->pipe;
	struct batch *b = p->b;

	b->offset = tt_bytesrc_file_offset(p->src);
	b->events = p->events;
	tt_workq_done(q->q, q->seq, 0);
	if (!tt_workq_threads(q->q))
		consume_all(p->j); /* one thread: the batch is consumed now */
	p->b = batch_acquire(q);
	return p->b ? 0 : -1;
}

/* ---- entry point ------------------------------------------------------------------- */

/* The first line of yajl's message (it adds a caret picture after it). */
static void yajl_message(yajl_handle yh, char *buf, size_t len)
{
	unsigned char *m = yajl_get_error(yh, 0, NULL, 0);
	char *nl;

	snprintf(buf, len, "%s", m ? (const char *)m : "parse error");
	if (m)
		yajl_free_error(yh, m);
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	for (char *c = buf; *c; c++)
		*c = (char)tolower((unsigned char)*c);
}

/* The parser: the whole input through yajl, batch by batch; how it ended
 * is left in p for the import thread. */
static void parse_all(struct jparse *p)
{
	struct pipe *q = &p->j->pipe;
	uint64_t idle = 0, ncb_before = 0;
	/* bytes at the read buffer's start that yajl has not had: held back
	 * after a comma (json_lenient.c reads them again), or a string the
	 * last read cut, with the token before it (scanned: the lenient pass
	 * has read them) */
	size_t keep = 0;
	int scanned = 0;

	p->b = batch_acquire(q);
	if (!q->readbuf) {
		p->oom = 1;
		goto out;
	}
	/* (a parse that failed in its first chunk has its message to give) */
	while (p->b && p->ys == yajl_status_ok) {
		/* reads end at multiples of READ_SIZE in the file, wherever the
		 * parse started, so that the token guard below stops at the
		 * same byte as a parse from the start would (the bytes held
		 * back come first in buf) */
		size_t want = READ_SIZE - (size_t)((p->offset + keep) % READ_SIZE), total, feed;
		unsigned char *buf;
		long n;

		if (keep + want > q->readcap &&
		    tt_vec_reserve((void **)&q->readbuf, &q->readcap, keep + want, 1)) {
			p->oom = 1;
			break;
		}
		buf = q->readbuf;
		n = tt_bytesrc_read(p->src, buf + keep, want, &p->err);
		if (n < 0) {
			p->read_failed = 1;
			break;
		}
		total = keep + (size_t)n;
		if (total == 0)
			break;
		if (scanned)
			feed = keep + tt_json_lenient(&p->lenient, buf + keep, (size_t)n, p->offset + keep, n == 0);
		else
			feed = tt_json_lenient(&p->lenient, buf, total, p->offset, n == 0);
		if (p->lenient.oom) {
			p->oom = 1;
			break;
		}
		scanned = 0;
		if (feed == total && n > 0 && p->lenient.in_str && !p->lenient.conflict) {
			/* a read that ends inside a string: yajl gets the string
			 * whole once it ends (or never when it is too long).
			 * Given its start, yajl would copy the string into its
			 * lexer's buffer as it grows, and lex it again from its
			 * start at every read. yajl also copies the first token
			 * of every call into that buffer (a call ends in its
			 * lexer's end-of-input state), so the string is held
			 * back with the token before it (a key, a comma) when
			 * that is not given yet: yajl then reads the string
			 * where it is. A 22 MB systemTraceEvents string cost
			 * 23 MB more peak otherwise. A short string is a few
			 * bytes moved to the next read. */
			uint64_t at = p->lenient.str_at, hold = at;

			if (p->lenient.has_prev && p->lenient.prev_at >= p->offset && p->lenient.prev_at < at &&
			    at - p->lenient.prev_at <= JSON_LENIENT_CARRY)
				hold = p->lenient.prev_at;
			feed = hold > p->offset ? (size_t)(hold - p->offset) : 0;
			scanned = 1;
			if (p->offset + total - at > p->max_string + 1)
				p->long_string_at = at + 1;
		}
		p->base = p->offset;
		p->text = buf;
		p->ys = yajl_parse(p->yh, buf, feed);
		if (p->ys != yajl_status_ok) {
			p->offset += yajl_get_bytes_consumed(p->yh);
			break;
		}
		tt_json_tokerr_read_done(p, buf, feed);
		if (p->oom)
			break;
		p->offset += (uint64_t)feed;
		if (p->lenient.conflict) { /* (the events before it are read) */
			p->ys = yajl_status_error;
			break;
		}
		if (p->long_string_at) { /* (the events before it are read) */
			p->too_long = 1;
			p->offset = p->long_string_at + p->max_string;
			p->ys = yajl_status_error;
			break;
		}
		keep = total - feed;
		if (feed && keep)
			memmove(buf, buf + feed, keep);
		if (tt_workq_cancelled(q->q))
			break;
		if (scanned)
			continue;
		n = (long)feed;
		/* No callback for MAX_TOKEN bytes: one token that long (a
		 * number) is being buffered by yajl. Stop there; the events
		 * before it are kept. (Counting callbacks costs nothing per
		 * byte.) */
		idle = p->ncb == ncb_before && !p->first_read_aligns ? idle + (uint64_t)n : 0;
		ncb_before = p->ncb;
		p->first_read_aligns = 0; /* (its read had the event before: a callback) */
		if (idle > MAX_TOKEN) {
			p->too_long = 1;
			p->ys = yajl_status_error;
			break;
		}
	}
	p->text = NULL; /* (buf's bytes were all given) */
	if (p->b && !p->read_failed && p->ys == yajl_status_ok && !tt_workq_cancelled(q->q)) {
		p->ys = yajl_complete_parse(p->yh);
		if (p->ys != yajl_status_ok)
			p->truncated = 1;
	} else if (p->ys != yajl_status_ok && !p->oom && p->b) {
		if (p->too_long && p->long_string_at)
			snprintf(p->msg, sizeof(p->msg), "a string longer than %llu MiB (from byte %llu)",
				 (unsigned long long)(p->max_string >> 20), (unsigned long long)p->long_string_at);
		else if (p->too_long)
			snprintf(p->msg, sizeof(p->msg), "a string or number longer than %u MiB",
				 MAX_TOKEN >> 20);
		else if (p->lenient.conflict)
			snprintf(p->msg, sizeof(p->msg),
				 "strings hold both raw control characters and bytes C0, C1 or F5-FF");
		else if (p->too_deep)
			snprintf(p->msg, sizeof(p->msg), "containers nested deeper than %d levels",
				 MAX_JSON_DEPTH);
		else if (p->systrace_not_string)
			snprintf(p->msg, sizeof(p->msg), "systemTraceEvents is not a string");
		else
			yajl_message(p->yh, p->msg, sizeof(p->msg));
	}
	/* the events before the end or the problem */
	if (p->b && p->b->ev.n)
		tt_json_batch_publish(p);
out:
	tt_workq_close(q->q);
}

static void *parse_thread(void *arg)
{
	parse_all(arg);
	return NULL;
}

/* The import thread's side of the pipe: every batch, in order, until the
 * parser is done or storage fails or the caller cancels. One thread: the
 * batches ready now. */
static void consume_all(struct json *j)
{
	struct pipe *q = &j->pipe;
	uint64_t seq;

	while (tt_workq_next(q->q, TT_WQ_WAIT, -1, &seq) == TT_WQ_TAKEN) {
		int rc = tt_json_consume_batch(j, &q->batches[seq % NBATCH]);

		tt_workq_release(q->q, seq);
		if (rc) {
			tt_workq_cancel(q->q); /* the parser stops at its next batch */
			return;
		}
	}
}

/* A fresh top-level parser (the one that reads the file from its start);
 * 0 or -1 (out of memory). */
int tt_json_top_init(struct jparse *p, struct json *j, tt_bytesrc *src)
{
	if (p->yh)
		yajl_free(p->yh);
	tt_json_lenient_free(&p->lenient);
	TT_VEC_FREE(p->carry);
	memset(p, 0, sizeof(*p));
	p->j = j;
	p->src = src;
	p->max_string = (uint64_t)(j->im->opts.json_max_string_mib ? j->im->opts.json_max_string_mib
								   : JSON_MAX_STRING_MIB) << 20;
	p->yh = yajl_alloc(&tt_json_callbacks, NULL, p);
	if (!p->yh)
		return -1;
	/* Names from other machines may hold invalid UTF-8: keep them. */
	yajl_config(p->yh, yajl_dont_validate_strings, 1);
	return 0;
}

static void json_free(struct json *j)
{
	for (int i = 0; i < NBATCH; i++)
		tt_json_batch_free(&j->pipe.batches[i]);
	tt_workq_free(j->pipe.q);
	free(j->pipe.readbuf);
	tt_sorter_free(j->sorter);
	tt_json_systrace_free(j);
	TT_VEC_FREE(j->last_x);
	TT_VEC_FREE(j->ttimes);
	for (size_t i = 0; i < j->meta.n; i++) {
		free(j->meta.v[i].key);
		free(j->meta.v[i].str);
	}
	TT_VEC_FREE(j->meta);
	TT_VEC_FREE(j->cname);
	TT_VEC_FREE(j->tkeys);
	tt_keymap_free(&j->tkeymap);
	free(j);
}

int tt_import_json(tt_import *im, tt_bytesrc *src)
{
	struct json *j = calloc(1, sizeof(*j));
	struct jparse *p = calloc(1, sizeof(*p));
	struct pipe *q;

	/* trace processor's process tracker: a process has its main thread */
	tt_process_tracker_main_threads(im->procs, 1);
	tt_args_tracker_dedupe(im->args, 1);
	tt_slice_tracker_stack_instants(im->slices, 1);
	(void)tt_process_tracker_idle_rows(im->procs, 0); /* (out of memory shows later) */
	char msg[200];
	int rc = TT_OK, truncated;

	if (!j || !p) {
		free(p);
		free(j);
		return tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path);
	}
	j->im = im;
	j->st = im->st;
	j->last_key = TT_NONE;
	/* JSON allows any order (Chrome writes an X when it ends): only a
	 * full sort is exact (sorter.h) */
	j->sorter = tt_sorter_new(TT_SORT_FULL);
	if (j->sorter)
		j->stream = tt_sorter_stream(j->sorter);
	if (!j->sorter || j->stream == UINT32_MAX || tt_json_top_init(p, j, src)) {
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path);
		goto done;
	}
	{
		size_t size = tt_json_chunk_size(im);
		int nl, depth = tt_json_chunk_depth(src, size, &nl);
		uint64_t events = 0, unit_at;
		int64_t resume = depth ? tt_json_parse_chunks(j, p, src, size, depth, nl, &events) : 0;
		char unit[sizeof(p->unit)];

		if (resume < 0)
			goto parsed; /* out of memory or cancelled */
		snprintf(unit, sizeof(unit), "%s", p->unit);
		unit_at = p->unit_at;
		/* the metadata fields the parse from there reads again */
		while (j->meta.n && (resume <= 0 || j->meta.v[j->meta.n - 1].at > (uint64_t)resume)) {
			j->meta.n--;
			free(j->meta.v[j->meta.n].key);
			free(j->meta.v[j->meta.n].str);
		}
		/* nothing proved: from the start, alone; else on from the last
		 * proved place */
		if (depth && (resume == 0 ? tt_json_top_init(p, j, src) :
			      tt_json_top_between_events(p, j, src, depth, (uint64_t)resume, events, unit, unit_at))) {
			rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path);
			goto done;
		}
		if (resume > 0) {
			tt_storage_meta_int(im->st, "json_parallel_bytes", resume);
			if (tt_bytesrc_seek(src, (uint64_t)resume) != 0) {
				rc = tt_err_set(im->err, TT_EIO, "%s: cannot seek", im->path);
				goto done;
			}
		}
	}

	q = &j->pipe;
	/* the batches' memory comes from this thread's arena (see struct
	 * worker); a failure here only means slower growth later */
	for (int i = 0; i < NBATCH; i++)
		tt_json_batch_reserve(&q->batches[i], BATCH_EVENTS + 1, BATCH_TEXT * 2);
	q->readcap = READ_SIZE + JSON_LENIENT_CARRY;
	q->readbuf = malloc(q->readcap);
	if (!(q->q = tt_workq_new(NBATCH, 1, 0))) {
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path);
		goto done;
	}
	if (tt_workq_start(q->q, parse_thread, p) == 0) {
		consume_all(j);
		tt_workq_join(q->q);
	} else {
		parse_all(p); /* batches are consumed as they are handed over */
	}
parsed:

	if (j->cancelled) {
		rc = tt_err_set(im->err, TT_ECANCEL, "%s: import cancelled", im->path);
		goto done;
	}
	if (j->bad[0]) {
		rc = tt_err_set(im->err, TT_EINVAL, "%s: %s", im->path, j->bad);
		goto done;
	}
	if (p->oom || j->oom) {
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory at byte %llu", im->path,
				(unsigned long long)p->offset);
		goto done;
	}
	if (p->unit_at) {
		/* trace processor counts the key (it changes no timestamp) */
		tt_storage_stat_add(im->st, TT_STAT_json_display_time_unit, 1);
		if (p->unit[0])
			tt_storage_meta_str(im->st, "display_time_unit", p->unit);
	}
	for (size_t i = 0; i < j->meta.n; i++) {
		char key[160];

		snprintf(key, sizeof(key), "json_metadata.%s", j->meta.v[i].key);
		if (j->meta.v[i].str)
			tt_storage_meta_str(im->st, key, j->meta.v[i].str);
		else
			tt_storage_meta_int(im->st, key, j->meta.v[i].i);
	}
	truncated = p->truncated;
	if (p->read_failed) {
		/* corrupt gzip: keep what came before if it was a trace */
		if (p->events == 0) {
			*im->err = p->err;
			rc = im->err->code;
			goto done;
		}
		truncated = 1;
	} else if (p->ys != yajl_status_ok && !p->truncated) {
		snprintf(msg, sizeof(msg), "%s", p->msg);
		if (p->events == 0 && j->nrecs == 0) {
			rc = tt_err_set(im->err, TT_EINVAL, "%s: not valid JSON at byte %llu: %s",
					im->path, (unsigned long long)p->offset, msg);
			goto done;
		}
		tt_storage_stat_add(im->st, TT_STAT_json_parse_error, 1);
		snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg), " at byte %llu",
			 (unsigned long long)p->offset);
		tt_storage_meta_str(im->st, "import_warning", msg);
	}
	if (truncated) {
		if (p->ev_array_depth <= 0 && p->events == 0) {
			rc = tt_err_set(im->err, TT_EINVAL, "%s: JSON text ends early at byte %llu, before any trace event",
					im->path, (unsigned long long)p->offset);
			goto done;
		}
		if (p->ev_array_depth > 0) {
			/* inside the event array: a crashed writer or a cut file */
			tt_storage_stat_add(im->st, TT_STAT_json_truncated, 1);
			snprintf(msg, sizeof(msg), "json text ends inside the event array at byte %llu",
				 (unsigned long long)p->offset);
			tt_storage_meta_str(im->st, "import_warning", msg);
		}
	}
	if (p->ev_array_depth == 0 && p->events == 0 && !j->has_systrace) {
		rc = tt_err_set(im->err, TT_EINVAL,
				"%s: JSON but not a trace (no traceEvents array or event list)", im->path);
		goto done;
	}
	tt_storage_meta_str(im->st, "trace_type", "json");
	tt_storage_meta_int(im->st, "json_events", (int64_t)p->events);
	/* the parse's buffers are not the feed's: a long string (a
	 * systemTraceEvents text) left megabytes in yajl's and the read
	 * buffer */
	if (p->yh)
		yajl_free(p->yh);
	p->yh = NULL;
	free(j->pipe.readbuf);
	j->pipe.readbuf = NULL;
	j->pipe.readcap = 0;
	if (tt_json_feed_all(j) || tt_json_systrace_finish(j))
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path);
	tt_import_progress(im, tt_bytesrc_file_offset(src), p->events);
done:
	if (p->yh)
		yajl_free(p->yh);
	tt_json_lenient_free(&p->lenient);
	TT_VEC_FREE(p->carry);
	free(p);
	json_free(j);
	return rc;
}
