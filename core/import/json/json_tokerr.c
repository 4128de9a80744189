/*
 * json_tokerr.c - what trace processor's JSON tokenizer logs for an event
 * it refuses (json_tokenizer_failure: no ph, no usable ts, a dur / tts /
 * tdur that is not a number): a _trace_import_logs row with no ts, the
 * byte offset where it stopped reading the event (just past its '}'),
 * arg raw_event (the event's text) and, when a time field failed to
 * convert, arg error (CoerceToTs's message). The parser thread keeps the
 * event's text and the message in the batch (tt_json_tokerr_*), the
 * import thread writes the row (tt_json_tokerr_log).
 *
 * Known limits: trace processor stops tokenizing at a bad dur / tts /
 * tdur (its raw_event ends after that field, and the rest of the file is
 * not read); termtrace skips the one event and logs it whole. Bytes the
 * lenient pass rewrote (json_lenient.c) are logged as rewritten.
 */
#include "json_int.h"

#include <stdio.h>

/* The event's time error is msg[0, n) (the first bad dur / tts / tdur
 * stops trace processor's reading of the event: its error stays). */
static void set_error(struct jparse *p, const char *msg, int n)
{
	if (p->ev.flags & EV_BAD_TIME)
		return;
	if (tt_json_text_put(p->b, msg, (size_t)n, &p->ev.err))
		p->oom = 1;
	else
		p->ev.err_len = (uint32_t)n;
}

/* The message of CoerceToTs for a value of JSON type t that is not a
 * number or a string (its JsonValue variant index). */
void tt_json_tokerr_type(struct jparse *p, int t)
{
	char msg[64];

	set_error(p, msg, snprintf(msg, sizeof(msg), "Expected a number in timestamp, got %d", t));
}

/* How trace processor's number reader fails on q[0, n) (the string and
 * its closing quote): its message in msg, or 0 when it reads a number
 * (*used: its length). */
static int number_error(const char *q, size_t n, char *msg, size_t cap, size_t *used)
{
	size_t i = 0, frac, exp;

	i += q[i] == '-';
	if (q[i] == '0') {
		if (++i < n && isdigit((unsigned char)q[i]))
			return snprintf(msg, cap, "Invalid number: leading zero in '%.*s'", (int)n, q);
	} else if (q[i] >= '1' && q[i] <= '9') {
		while (i < n && isdigit((unsigned char)q[i]))
			i++;
	} else {
		return snprintf(msg, cap, "Invalid number: expected digit in '%.*s'", (int)n, q);
	}
	if (q[i] == '.') {
		frac = ++i;
		while (i < n && isdigit((unsigned char)q[i]))
			i++;
		if (i == frac)
			return snprintf(msg, cap, "Invalid number: expected digit after '.' in '%.*s'", (int)n, q);
	}
	if (q[i] == 'e' || q[i] == 'E') {
		i++;
		i += q[i] == '+' || q[i] == '-';
		exp = i;
		while (i < n && isdigit((unsigned char)q[i]))
			i++;
		if (i == exp)
			return snprintf(msg, cap, "Invalid number: expected digit after 'e' in '%.*s'", (int)n, q);
	}
	*used = i;
	return 0;
}

/* Why CoerceToTs refuses the string s[0, len) as a timestamp, in msg:
 * it reads the string's text as a JSON value (up to and with its closing
 * quote); 0 when that is a number, -1 out of memory. */
static int string_error(const char *s, size_t len, char *msg, size_t cap)
{
	static const char *const words[] = { "true", "false", "null" };
	char *q = malloc(len + 2);
	int n = 0;
	size_t used = 0;

	if (!q)
		return -1;
	memcpy(q, s, len);
	q[len] = '"';
	q[len + 1] = '\0';
	if (len == 0 || q[0] == '{' || q[0] == '[' || q[0] == '"') {
		/* (a string, object or array that runs to the end) */
		n = snprintf(msg, cap, "Unexpected incomplete input when parsing string timestamp '%.*s'",
			     (int)len, s);
	} else if (q[0] == 't' || q[0] == 'f' || q[0] == 'n') {
		const char *w = words[q[0] == 't' ? 0 : q[0] == 'f' ? 1 : 2];
		size_t wl = strlen(w);

		if (len + 1 < wl)
			n = snprintf(msg, cap, "Unexpected incomplete input when parsing string timestamp '%.*s'",
				     (int)len, s);
		else if (memcmp(q, w, wl) != 0)
			n = snprintf(msg, cap, "Invalid token: expected '%s' but got '%.*s'", w, (int)wl, q);
		else if (len != wl)
			n = snprintf(msg, cap, "Unexpected trailing characters when parsing string timestamp '%.*s'",
				     (int)len, s);
		else
			n = snprintf(msg, cap, "Expected a number in string timestamp '%.*s'", (int)len, s);
	} else if ((n = number_error(q, len + 1, msg, cap, &used)) == 0 && used != len) {
		n = snprintf(msg, cap, "Unexpected trailing characters when parsing string timestamp '%.*s'",
			     (int)len, s);
	}
	free(q);
	return n > 0 && (size_t)n >= cap ? (int)cap - 1 : n;
}

int tt_json_tokerr_time_string(struct jparse *p, const char *s, size_t len, int64_t *v)
{
	char msg[256];
	int n = string_error(s, len, msg, sizeof(msg));

	if (n < 0) {
		p->oom = 1;
		return -1;
	}
	if (n == 0)
		return tt_json_us_text_to_ns(s, len, v);
	set_error(p, msg, n);
	return -1;
}

/* Trace processor's tokenizer refuses the event (json_event.c checks the
 * same, in the same order). */
static int refused(const struct pev *e)
{
	return (e->flags & EV_BAD_TIME) || (!e->ph && (e->flags & EV_SAW_FIELD)) ||
	       (e->ph && e->ph != 'M' && !(e->flags & EV_HAS_TS));
}

/* The parser has just read the '}' of an event that began at p->ev_at:
 * a refused one keeps its text and where it ends. The text is in the
 * bytes yajl was given (p->text, at file offset p->base), after what
 * earlier reads left in p->carry. */
void tt_json_tokerr_event_end(struct jparse *p)
{
	struct pev *e = &p->ev;
	uint64_t end, from;
	size_t n;

	/* (every event comes here: the refused ones are rare) */
	if (!refused(e) || !p->text)
		return;
	end = p->base + yajl_get_bytes_consumed(p->yh);
	from = p->ev_at > p->base ? p->ev_at - p->base : 0;
	n = (size_t)(end - p->base - from);
	e->at = p->file_base + end;
	if (p->carry.n) {
		if (tt_vec_reserve((void **)&p->carry.v, &p->carry.cap, p->carry.n + n, 1)) {
			p->oom = 1;
			return;
		}
		memcpy(p->carry.v + p->carry.n, p->text + from, n);
		p->carry.n += n;
		if (tt_json_text_put(p->b, p->carry.v, p->carry.n, &e->raw))
			p->oom = 1;
		e->raw_len = (uint32_t)p->carry.n;
	} else {
		if (tt_json_text_put(p->b, (const char *)p->text + from, n, &e->raw))
			p->oom = 1;
		e->raw_len = (uint32_t)n;
	}
	e->flags |= EV_HAS_RAW;
}

/* After yajl read text[0, n): an event still open keeps its bytes so far
 * (its text, should it be refused). */
void tt_json_tokerr_read_done(struct jparse *p, const unsigned char *text, size_t n)
{
	uint64_t from;

	if (!p->in_event)
		return;
	from = p->ev_at > p->base ? p->ev_at - p->base : 0;
	if (from >= n)
		return;
	if (tt_vec_reserve((void **)&p->carry.v, &p->carry.cap, p->carry.n + (n - from), 1)) {
		p->oom = 1;
		return;
	}
	memcpy(p->carry.v + p->carry.n, text + from, n - from);
	p->carry.n += n - from;
}

/* The import log of a refused event (trace processor's RecordEventError). */
void tt_json_tokerr_log(struct json *j, const struct batch *b, const struct pev *e)
{
	tt_storage *st = j->st;

	tt_storage_args_begin(st);
	if (e->flags & EV_HAS_RAW)
		tt_storage_args_str(st, "raw_event", b->text.v + e->raw, e->raw_len);
	/* (an event without ph is logged without: the error of a ts that
	 * did not convert only comes with the want of a ts) */
	if (e->err_len && ((e->flags & EV_BAD_TIME) || e->ph))
		tt_storage_args_str(st, "error", b->text.v + e->err, e->err_len);
	tt_storage_import_log_at(st, TT_STAT_json_tokenizer_failure, e->flags & EV_HAS_RAW ? (int64_t)e->at : TT_TS_NONE,
				 tt_args_tracker_end(j->im->args));
}
