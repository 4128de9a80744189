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
 * Choices, where Chrome's and Perfetto's importers differ:
 *   - ts/dur are µs in the text; they are parsed from the number's text
 *     into exact ns (no double rounding for up to 3 decimals; beyond that
 *     llround(x * 1000) like Perfetto). displayTimeUnit does not rescale.
 *   - X without dur, or with a negative dur: skipped and counted (Perfetto).
 *   - Unclosed B: dur -1 (Perfetto), counted. Unmatched E: dropped, counted.
 *   - Same-ts X events: longer first, so parents precede children.
 *   - 'R' (mark) events are instants, like 'I'/'i'.
 *   - Async b/e/n: one track per (scope, cat, id), process-scoped unless
 *     the id is global (id2.global), named after its first event, as
 *     Perfetto does; legacy S/T/p/F: per (process, name, id).
 *   - C: one counter track per series, named "<name> <series>" (Perfetto),
 *     scoped to the process ("<name> <id> <series>" with an id).
 *   - tid missing: tid = pid. String pid/tid that are numbers are numbers;
 *     other strings get a stable synthetic number and name the thread.
 * Limits: `stackFrames`, `samples`, `systemTraceEvents` and object events
 * (N/O/D), memory dumps (v) and clock syncs (c) are ignored (counted as
 * json_phase_unknown for events).
 */
#include "async_tracker.h"
#include "import_int.h"
#include "keymap.h"
#include "storage_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#define READ_SIZE (256 * 1024)
#define MAX_ARG_DEPTH 32
#define PATH_MAX_LEN 1024
/* Longest string or number token: yajl buffers a token that spans chunks
 * and re-lexes it as it grows (time quadratic in its length), so a file of
 * one 2 GB string would take hours; no real trace has a token this long. */
#define MAX_TOKEN (32u << 20)
/* Deepest container nesting accepted: yajl's own stack has no limit; args
 * are flattened at MAX_ARG_DEPTH anyway and no trace nests this deep. */
#define MAX_JSON_DEPTH 1000
/* Batches in flight between the threads, and when one is handed over:
 * small enough to stay in cache, big enough that handing over is rare. */
#define NBATCH 4
#define BATCH_EVENTS 2048
#define BATCH_TEXT (256 * 1024)

enum field {
	F_OTHER, F_NAME, F_CAT, F_PH, F_TS, F_DUR, F_TDUR, F_TTS, F_PID, F_TID, F_ID,
	F_ID2, F_SCOPE, F_S, F_BP, F_ARGS, F_BIND_ID, F_FLOW_IN, F_FLOW_OUT
};

/* The low 12 bits travel with the record; the rest only say what the
 * parsed event holds. */
enum { EV_HAS_TS = 1, EV_HAS_DUR = 2, EV_HAS_PID = 4, EV_HAS_TID = 8, EV_HAS_ID = 16,
       EV_ID_LOCAL = 32, EV_BP_E = 64, EV_FLOW_IN = 128, EV_FLOW_OUT = 256,
       EV_HAS_TTS = 512, EV_HAS_TDUR = 1024, EV_HAS_BIND = 2048,
       EV_HAS_NAME = 1 << 12, EV_HAS_CAT = 1 << 13, EV_HAS_SCOPE = 1 << 14,
       EV_PID_STR = 1 << 15, EV_TID_STR = 1 << 16 };
#define EV_REC_FLAGS 0xfff

/* One sorted, compact event. */
struct rec {
	int64_t ts;
	union { int64_t dur; double value; } u;
	uint64_t id;      /* async/flow id (bind_id for v2 flows) */
	uint32_t utid;
	tt_str name, cat;
	uint32_t args;    /* arg set, TT_NONE = none */
	uint32_t seq;     /* file order */
	uint16_t flags;
	char ph;
	char scope;       /* instant scope t/p/g */
};

struct last_x {
	int64_t ts, dur;
};

struct thread_time {
	uint32_t seq;
	int64_t tts, tdur;
};

/* One flattened arg of a parsed event; strings are offsets into its
 * batch's text. */
struct targ {
	uint32_t key;
	uint8_t type;     /* enum tt_arg_type */
	uint32_t str;     /* strings' text */
	uint32_t len;
	union { int64_t i; double d; } v;
};

/* One event as the parser read it; strings are offsets into the batch's
 * text (each NUL-terminated), args a range of the batch's args. */
struct pev {
	int64_t ts, dur, tts, tdur, pid, tid;
	uint64_t id, bind_id;
	uint32_t name, name_len, cat, cat_len, scope, scope_len, pidname, tidname;
	uint32_t arg0, nargs;
	uint32_t flags;
	char ph, s;
};

struct batch {
	TT_VEC(struct pev) ev;
	TT_VEC(struct targ) args;
	TT_VEC(char) text;
	uint64_t offset;  /* file offset when it was handed over (progress) */
	uint64_t events;  /* events read by then */
};

/* The parser thread's state: yajl's callbacks fill the current batch. */
struct jparse {
	struct json *j;
	tt_bytesrc *src;
	yajl_handle yh;

	int depth;
	int top_is_map;
	int ev_array_depth; /* depth of the event array, 0 = not in one */
	int top_key_events; /* last top-level key was traceEvents */
	int top_key_unit;
	char unit[17];      /* displayTimeUnit, "" = none */

	/* the event being read */
	int in_event;
	enum field field;
	struct pev ev;
	struct batch *b;

	/* args of the event, flattened */
	int args_depth;      /* 0 = not in args; else container depth inside */
	char path[PATH_MAX_LEN];
	size_t path_len;
	size_t base_len[MAX_ARG_DEPTH + 2];
	int is_arr[MAX_ARG_DEPTH + 2];
	int64_t arr_idx[MAX_ARG_DEPTH + 2];
	int skip_depth;      /* >0: inside an ignored container */
	int id2_depth;
	int id2_global;      /* the id2 key being read is "global" */

	/* token length guard (see MAX_TOKEN): callbacks so far */
	uint64_t ncb;
	int too_deep;        /* stopped at MAX_JSON_DEPTH */
	int oom;
	uint64_t events;     /* events read */
	int chunk_mode;      /* parsing one chunk into one batch (see "chunks") */
	uint64_t base;       /* file offset of the text given to yajl_parse */
	uint64_t last_close; /* file offset just after the last event's '}' */
	uint64_t unit_at;    /* file offset of the displayTimeUnit value */
	int first_read_aligns; /* reading on from a place within a read's bytes */

	/* how the parse ended, for the import thread */
	yajl_status ys;
	uint64_t offset;     /* bytes parsed (yajl's error offset on error) */
	int truncated, too_long, read_failed;
	char msg[160];
	tt_err err;          /* a read error */
};

/* Hand-over between the two threads: batches[produced % NBATCH] is the
 * next one the parser fills, batches[consumed % NBATCH] the next one the
 * import thread reads. */
struct pipe {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct batch batches[NBATCH];
	uint64_t produced, consumed;
	unsigned char *readbuf; /* READ_SIZE bytes (see struct worker) */
	int done;            /* the parser finished */
	int threaded;
	atomic_int stop;     /* the import thread wants the parser to stop */
};

/* The import thread's state. */
struct json {
	tt_import *im;
	tt_storage *st;
	struct pipe pipe;

	/* the previous event's thread: most events follow one of their own */
	int64_t last_pid, last_tid;
	uint32_t last_utid;

	TT_VEC(struct rec) recs;
	int recs_unsorted;   /* a record went back in time, or an X must move */
	TT_VEC(struct last_x) last_x; /* by utid: the thread's last X */
	TT_VEC(struct thread_time) ttimes;
	int oom, cancelled;
};

/* ---- small helpers ---------------------------------------------------------- */

static int parse_oom(struct jparse *p)
{
	p->oom = 1;
	return 0; /* stops yajl */
}

/* Parses the text of a JSON number of µs into ns: exact for up to three
 * decimals, llround(x * 1000) beyond (what Perfetto does). */
static int us_text_to_ns(const char *s, size_t len, int64_t *out)
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

static int parse_int_text(const char *s, size_t len, int64_t *out)
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

static int parse_u64_text(const char *s, size_t len, uint64_t *out)
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

static uint64_t hash_text(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

/* The event field a key names. Called for every key of every event: a
 * switch on the length and first byte instead of a table walk. */
static enum field field_of(const unsigned char *k, size_t n)
{
#define IS(s) (n == sizeof(s) - 1 && memcmp(k, s, sizeof(s) - 1) == 0)
	if (n == 0)
		return F_OTHER;
	switch (k[0]) {
	case 'p':
		return IS("ph") ? F_PH : IS("pid") ? F_PID : F_OTHER;
	case 't':
		return IS("ts") ? F_TS : IS("tid") ? F_TID : IS("tts") ? F_TTS :
		       IS("tdur") ? F_TDUR : F_OTHER;
	case 'n':
		return IS("name") ? F_NAME : F_OTHER;
	case 'c':
		return IS("cat") ? F_CAT : F_OTHER;
	case 'd':
		return IS("dur") ? F_DUR : F_OTHER;
	case 'a':
		return IS("args") ? F_ARGS : F_OTHER;
	case 'i':
		return IS("id") ? F_ID : IS("id2") ? F_ID2 : F_OTHER;
	case 's':
		return IS("s") ? F_S : IS("scope") ? F_SCOPE : F_OTHER;
	case 'b':
		return IS("bp") ? F_BP : IS("bind_id") ? F_BIND_ID : F_OTHER;
	case 'f':
		return IS("flow_in") ? F_FLOW_IN : IS("flow_out") ? F_FLOW_OUT : F_OTHER;
	default:
		return F_OTHER;
	}
#undef IS
}

/* ---- batches --------------------------------------------------------------------- */

/* Copies s into the batch's text (NUL-terminated); -1 when it can't. */
static int text_put(struct batch *b, const char *s, size_t len, uint32_t *off)
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
static int batch_reserve(struct batch *b, size_t events, size_t text)
{
	return tt_vec_reserve((void **)&b->ev.v, &b->ev.cap, events, sizeof(*b->ev.v)) ||
	       tt_vec_reserve((void **)&b->args.v, &b->args.cap, events, sizeof(*b->args.v)) ||
	       tt_vec_reserve((void **)&b->text.v, &b->text.cap, text, 1) ? -1 : 0;
}

static void batch_free(struct batch *b)
{
	TT_VEC_FREE(b->ev);
	TT_VEC_FREE(b->args);
	TT_VEC_FREE(b->text);
}

static int consume_batch(struct json *j, const struct batch *b);

/* The batch the parser fills next; NULL when the import thread stopped. */
static struct batch *batch_acquire(struct pipe *q)
{
	struct batch *b;

	if (q->threaded) {
		pthread_mutex_lock(&q->mu);
		while (q->produced - q->consumed >= NBATCH && !atomic_load(&q->stop))
			pthread_cond_wait(&q->cv, &q->mu);
		pthread_mutex_unlock(&q->mu);
	}
	if (atomic_load(&q->stop))
		return NULL;
	b = &q->batches[q->produced % NBATCH];
	b->ev.n = b->args.n = b->text.n = 0;
	return b;
}

/* Hands the parser's current batch over; 0, or -1 when the import thread
 * stopped. */
static int batch_publish(struct jparse *p)
{
	struct pipe *q = &p->j->pipe;
	struct batch *b = p->b;

	b->offset = tt_bytesrc_file_offset(p->src);
	b->events = p->events;
	if (q->threaded) {
		pthread_mutex_lock(&q->mu);
		q->produced++;
		pthread_cond_broadcast(&q->cv);
		pthread_mutex_unlock(&q->mu);
	} else {
		q->produced++;
		if (consume_batch(p->j, b))
			atomic_store(&q->stop, 1);
		q->consumed++;
	}
	p->b = batch_acquire(q);
	return p->b ? 0 : -1;
}

/* ---- args flattening ---------------------------------------------------------- */

/* The key of the next value in the current args container. */
static void arg_key_for_value(struct jparse *p)
{
	int d = p->args_depth;

	if (p->is_arr[d]) {
		size_t b = p->base_len[d];
		int n = snprintf(p->path + b, sizeof(p->path) - b, "[%lld]", (long long)p->arr_idx[d]++);

		if (n < 0 || (size_t)n >= sizeof(p->path) - b)
			n = 0;
		p->path[b + (size_t)n] = '\0';
		p->path_len = b + (size_t)n;
	}
}

static int arg_add(struct jparse *p, uint8_t type, const char *s, size_t len, int64_t i, double d)
{
	struct batch *b = p->b;
	struct targ a = { .type = type };

	arg_key_for_value(p);
	if (text_put(b, p->path, p->path_len, &a.key))
		return -1;
	if (s && text_put(b, s, len, &a.str))
		return -1;
	a.len = (uint32_t)len;
	if (type == TT_ARG_REAL)
		a.v.d = d;
	else
		a.v.i = i;
	if (TT_VEC_PUSH(b->args, a))
		return -1;
	p->ev.nargs++;
	return 0;
}

/* ---- yajl callbacks ------------------------------------------------------------ */

static void event_reset(struct jparse *p)
{
	memset(&p->ev, 0, sizeof(p->ev));
	p->ev.arg0 = (uint32_t)p->b->args.n;
	p->field = F_OTHER;
}

static int in_args(const struct jparse *p)
{
	return p->args_depth > 0;
}

static int cb_null(void *ctx)
{
	struct jparse *p = ctx;

	p->ncb++;

	if (p->skip_depth || !p->in_event)
		return 1;
	if (in_args(p))
		return arg_add(p, TT_ARG_NULL, NULL, 0, 0, 0) ? parse_oom(p) : 1;
	return 1;
}

static int cb_bool(void *ctx, int b)
{
	struct jparse *p = ctx;

	p->ncb++;

	if (p->skip_depth || !p->in_event)
		return 1;
	if (in_args(p))
		return arg_add(p, TT_ARG_BOOL, NULL, 0, b, 0) ? parse_oom(p) : 1;
	if (p->field == F_FLOW_IN && b)
		p->ev.flags |= EV_FLOW_IN;
	else if (p->field == F_FLOW_OUT && b)
		p->ev.flags |= EV_FLOW_OUT;
	return 1;
}

/* local: an id2.local id (process scoped); plain ids and id2.global ones
 * are global, as trace processor has them. */
static void set_id_text(struct jparse *p, const char *s, size_t len, int local)
{
	uint64_t v;

	if (parse_u64_text(s, len, &v) != 0)
		v = hash_text(s, len);
	p->ev.id = v;
	p->ev.flags |= EV_HAS_ID;
	if (local)
		p->ev.flags |= EV_ID_LOCAL;
	else
		p->ev.flags &= ~(uint32_t)EV_ID_LOCAL;
}

/* pid/tid given as a string that is not a number: a stable synthetic
 * number, and the text names the process/thread. */
static int id_name(struct jparse *p, const char *s, size_t len, int64_t *v, uint32_t *name)
{
	*v = (int64_t)(hash_text(s, len) & 0x3fffffff) + 0x40000000;
	return text_put(p->b, s, len, name);
}

static int event_number(struct jparse *p, const char *s, size_t len, int is_string)
{
	struct pev *e = &p->ev;

	switch (p->field) {
	case F_TS:
		if (us_text_to_ns(s, len, &e->ts) == 0)
			e->flags |= EV_HAS_TS;
		break;
	case F_DUR:
		if (us_text_to_ns(s, len, &e->dur) == 0)
			e->flags |= EV_HAS_DUR;
		break;
	case F_TTS:
		if (us_text_to_ns(s, len, &e->tts) == 0)
			e->flags |= EV_HAS_TTS;
		break;
	case F_TDUR:
		if (us_text_to_ns(s, len, &e->tdur) == 0)
			e->flags |= EV_HAS_TDUR;
		break;
	case F_PID:
		if (parse_int_text(s, len, &e->pid) == 0) {
			e->flags &= ~(uint32_t)EV_PID_STR;
		} else if (is_string) {
			if (id_name(p, s, len, &e->pid, &e->pidname))
				return parse_oom(p);
			e->flags |= EV_PID_STR;
		} else {
			break;
		}
		e->flags |= EV_HAS_PID;
		break;
	case F_TID:
		if (parse_int_text(s, len, &e->tid) == 0) {
			e->flags &= ~(uint32_t)EV_TID_STR;
		} else if (is_string) {
			if (id_name(p, s, len, &e->tid, &e->tidname))
				return parse_oom(p);
			e->flags |= EV_TID_STR;
		} else {
			break;
		}
		e->flags |= EV_HAS_TID;
		break;
	case F_ID:
		set_id_text(p, s, len, 0);
		break;
	case F_BIND_ID:
		if (parse_u64_text(s, len, &e->bind_id) != 0)
			e->bind_id = hash_text(s, len);
		e->flags |= EV_HAS_BIND;
		break;
	default:
		break;
	}
	return 1;
}

static int cb_number(void *ctx, const char *s, size_t len)
{
	struct jparse *p = ctx;

	p->ncb++;

	if (p->skip_depth || !p->in_event)
		return 1;
	if (p->id2_depth) {
		set_id_text(p, s, len, p->field == F_ID2 && !p->id2_global);
		return 1;
	}
	if (in_args(p)) {
		int64_t i;
		size_t k = 0;

		while (k < len && s[k] != '.' && s[k] != 'e' && s[k] != 'E')
			k++;
		if (k == len && parse_int_text(s, len, &i) == 0)
			return arg_add(p, TT_ARG_INT, NULL, 0, i, 0) ? parse_oom(p) : 1;
		{
			char buf[64];
			size_t n = len < sizeof(buf) - 1 ? len : sizeof(buf) - 1;

			memcpy(buf, s, n);
			buf[n] = '\0';
			return arg_add(p, TT_ARG_REAL, NULL, 0, 0, strtod(buf, NULL)) ? parse_oom(p) : 1;
		}
	}
	return event_number(p, s, len, 0);
}

static int cb_string(void *ctx, const unsigned char *s, size_t len)
{
	struct jparse *p = ctx;
	const char *t = (const char *)s;
	struct pev *e = &p->ev;

	p->ncb++;
	if (!p->in_event) {
		if (p->top_key_unit && p->depth == 1 && p->top_is_map) {
			snprintf(p->unit, sizeof(p->unit), "%.*s", (int)(len < 16 ? len : 16), t);
			p->unit_at = p->base + yajl_get_bytes_consumed(p->yh);
		}
		return 1;
	}
	if (p->skip_depth)
		return 1;
	if (p->id2_depth) {
		set_id_text(p, t, len, !p->id2_global);
		return 1;
	}
	if (in_args(p))
		return arg_add(p, TT_ARG_STRING, t, len, 0, 0) ? parse_oom(p) : 1;
	switch (p->field) {
	case F_NAME:
		if (text_put(p->b, t, len, &e->name))
			return parse_oom(p);
		e->name_len = (uint32_t)len;
		e->flags |= EV_HAS_NAME;
		break;
	case F_CAT:
		if (text_put(p->b, t, len, &e->cat))
			return parse_oom(p);
		e->cat_len = (uint32_t)len;
		e->flags |= EV_HAS_CAT;
		break;
	case F_SCOPE:
		if (text_put(p->b, t, len, &e->scope))
			return parse_oom(p);
		e->scope_len = (uint32_t)len;
		e->flags |= EV_HAS_SCOPE;
		break;
	case F_PH:
		e->ph = len ? t[0] : 0;
		break;
	case F_S:
		e->s = len ? t[0] : 0;
		break;
	case F_BP:
		if (len == 1 && t[0] == 'e')
			e->flags |= EV_BP_E;
		break;
	case F_ARGS:
		break; /* "__stripped__" */
	default:
		return event_number(p, t, len, 1);
	}
	return 1;
}

static int cb_map_key(void *ctx, const unsigned char *k, size_t len)
{
	struct jparse *p = ctx;

	p->ncb++;

	if (!p->in_event) {
		if (p->depth == 1 && p->top_is_map) {
			p->top_key_events = len == 11 && memcmp(k, "traceEvents", 11) == 0;
			p->top_key_unit = len == 15 && memcmp(k, "displayTimeUnit", 15) == 0;
		}
		return 1;
	}
	if (p->skip_depth)
		return 1;
	if (p->id2_depth) {
		p->id2_global = len && k[0] == 'g'; /* 'l'ocal or 'g'lobal */
		return 1;
	}
	if (in_args(p)) {
		int d = p->args_depth;
		size_t b = p->base_len[d], n = len;

		if (b + 1 + n >= sizeof(p->path))
			n = sizeof(p->path) - b - 2;
		if (b)
			p->path[b++] = '.';
		memcpy(p->path + b, k, n);
		p->path[b + n] = '\0';
		p->path_len = b + n;
		return 1;
	}
	p->field = field_of(k, len);
	return 1;
}

static int open_container(struct jparse *p, int is_array)
{
	p->ncb++;
	p->depth++;
	if (p->depth > MAX_JSON_DEPTH) {
		p->too_deep = 1;
		return 0; /* yajl stops here; the events before are kept */
	}
	if (!p->in_event) {
		if (p->depth == 1) {
			p->top_is_map = !is_array;
			if (is_array)
				p->ev_array_depth = 1;
		} else if (p->depth == 2 && p->top_is_map && p->top_key_events && is_array &&
			   !p->ev_array_depth) {
			p->ev_array_depth = 2;
		} else if (p->ev_array_depth && p->depth == p->ev_array_depth + 1 && !is_array) {
			p->in_event = 1;
			event_reset(p);
		}
		return 1;
	}
	if (p->skip_depth) {
		p->skip_depth++;
		return 1;
	}
	if (in_args(p)) {
		if (p->args_depth >= MAX_ARG_DEPTH) {
			p->skip_depth = 1;
			return 1;
		}
		arg_key_for_value(p);
		p->args_depth++;
		p->base_len[p->args_depth] = p->path_len;
		p->is_arr[p->args_depth] = is_array;
		p->arr_idx[p->args_depth] = 0;
		return 1;
	}
	if (p->id2_depth) {
		p->skip_depth = 1;
		return 1;
	}
	if (p->field == F_ARGS && !is_array) {
		p->args_depth = 1;
		p->path[0] = '\0';
		p->path_len = 0;
		p->base_len[1] = 0;
		p->is_arr[1] = 0;
		return 1;
	}
	if (p->field == F_ID2 && !is_array) {
		p->id2_depth = 1;
		p->id2_global = 0;
		return 1;
	}
	p->skip_depth = 1;
	return 1;
}

static int cb_start_map(void *ctx)
{
	return open_container(ctx, 0);
}

static int cb_start_array(void *ctx)
{
	return open_container(ctx, 1);
}

/* The event is complete: into the batch; a full batch is handed over. */
static int event_end(struct jparse *p)
{
	struct batch *b = p->b;

	p->events++;
	if (TT_VEC_PUSH(b->ev, p->ev))
		return parse_oom(p);
	/* (where the batch's events end: where chunks may be cut again) */
	p->last_close = p->base + yajl_get_bytes_consumed(p->yh);
	if (p->chunk_mode)
		return 1;
	if (b->ev.n >= BATCH_EVENTS || b->text.n >= BATCH_TEXT)
		return batch_publish(p) == 0;
	return 1;
}

static int close_container(struct jparse *p)
{
	p->ncb++;
	p->depth--;
	if (!p->in_event) {
		if (p->ev_array_depth && p->depth < p->ev_array_depth)
			p->ev_array_depth = -1; /* events array closed: ignore later arrays */
		return 1;
	}
	if (p->skip_depth) {
		p->skip_depth--;
		return 1;
	}
	if (p->id2_depth) {
		p->id2_depth = 0;
		return 1;
	}
	if (in_args(p)) {
		p->args_depth--;
		if (p->args_depth) {
			p->path_len = p->base_len[p->args_depth];
			p->path[p->path_len] = '\0';
		}
		return 1;
	}
	if (p->depth == p->ev_array_depth) {
		p->in_event = 0;
		return event_end(p);
	}
	return 1;
}

static int cb_end(void *ctx)
{
	return close_container(ctx);
}

static const yajl_callbacks callbacks = {
	.yajl_null = cb_null,
	.yajl_boolean = cb_bool,
	.yajl_number = cb_number,
	.yajl_string = cb_string,
	.yajl_start_map = cb_start_map,
	.yajl_map_key = cb_map_key,
	.yajl_end_map = cb_end,
	.yajl_start_array = cb_start_array,
	.yajl_end_array = cb_end,
};

/* ---- one event: metadata now, the rest as a record --------------------------- */

static const char *btext(const struct batch *b, uint32_t off)
{
	return b->text.v + off;
}

static uint32_t event_thread(struct json *j, const struct batch *b, const struct pev *e)
{
	tt_storage *st = j->st;
	int64_t pid = e->flags & EV_HAS_PID ? e->pid : 0;
	int64_t tid = e->flags & EV_HAS_TID ? e->tid : pid;
	int named = e->flags & (EV_PID_STR | EV_TID_STR);
	uint32_t utid;

	if (j->last_utid != TT_NONE && pid == j->last_pid && tid == j->last_tid && !named)
		return j->last_utid;
	utid = tt_storage_thread(st, pid, tid);
	if (utid == TT_NONE)
		return TT_NONE;
	j->last_pid = pid;
	j->last_tid = tid;
	j->last_utid = utid;
	if (e->flags & EV_PID_STR) {
		uint32_t upid = tt_storage_process(st, pid);

		if (upid != TT_NONE && !st->process.name[upid])
			tt_storage_process_set_name(st, upid, tt_storage_intern_cstr(st, btext(b, e->pidname)));
	}
	if ((e->flags & EV_TID_STR) && !st->thread.name[utid])
		tt_storage_thread_set_name(st, utid, tt_storage_intern_cstr(st, btext(b, e->tidname)));
	return utid;
}

static void do_metadata(struct json *j, const struct batch *b, const struct pev *e,
			const char *name, uint32_t utid, uint32_t upid)
{
	tt_storage *st = j->st;

	for (uint32_t i = 0; i < e->nargs; i++) {
		const struct targ *a = &b->args.v[e->arg0 + i];
		const char *k = btext(b, a->key);

		if (strcmp(name, "process_name") == 0 && strcmp(k, "name") == 0 && a->type == TT_ARG_STRING)
			tt_storage_process_set_name(st, upid, tt_storage_intern_cstr(st, btext(b, a->str)));
		else if (strcmp(name, "thread_name") == 0 && strcmp(k, "name") == 0 && a->type == TT_ARG_STRING)
			tt_storage_thread_set_name(st, utid, tt_storage_intern_cstr(st, btext(b, a->str)));
		else if (strcmp(name, "process_sort_index") == 0 && strcmp(k, "sort_index") == 0 && a->type == TT_ARG_INT)
			tt_storage_process_set_sort_index(st, upid, a->v.i);
		else if (strcmp(name, "thread_sort_index") == 0 && strcmp(k, "sort_index") == 0 && a->type == TT_ARG_INT)
			tt_storage_thread_set_sort_index(st, utid, a->v.i);
	}
}

static uint32_t build_args(struct json *j, const struct batch *b, const struct pev *e)
{
	tt_storage *st = j->st;

	if (!e->nargs)
		return TT_NONE;
	tt_storage_args_begin(st);
	for (uint32_t i = 0; i < e->nargs; i++) {
		const struct targ *a = &b->args.v[e->arg0 + i];
		const char *k = btext(b, a->key);

		switch (a->type) {
		case TT_ARG_INT: tt_storage_args_int(st, k, a->v.i); break;
		case TT_ARG_REAL: tt_storage_args_real(st, k, a->v.d); break;
		case TT_ARG_BOOL: tt_storage_args_bool(st, k, (int)a->v.i); break;
		case TT_ARG_STRING: tt_storage_args_str(st, k, btext(b, a->str), a->len); break;
		default: tt_storage_args_null(st, k); break;
		}
	}
	return tt_storage_args_end(st);
}

static int push_rec(struct json *j, const struct pev *e, struct rec *r)
{
	r->seq = (uint32_t)j->recs.n;
	if (j->recs.n && r->ts < j->recs.v[j->recs.n - 1].ts)
		j->recs_unsorted = 1;
	if (r->ph == 'X' && !j->recs_unsorted) {
		/* X events of one thread at one ts must come longest first */
		if (r->utid >= j->last_x.n) {
			size_t old = j->last_x.n;

			if (tt_vec_reserve((void **)&j->last_x.v, &j->last_x.cap, r->utid + 1,
					   sizeof(*j->last_x.v)))
				return -1;
			for (size_t k = old; k <= r->utid; k++)
				j->last_x.v[k] = (struct last_x){ INT64_MIN, 0 };
			j->last_x.n = r->utid + 1;
		}
		if (j->last_x.v[r->utid].ts == r->ts && r->u.dur > j->last_x.v[r->utid].dur)
			j->recs_unsorted = 1;
		j->last_x.v[r->utid] = (struct last_x){ r->ts, r->u.dur };
	}
	if (TT_VEC_PUSH(j->recs, *r))
		return -1;
	if (e->flags & (EV_HAS_TTS | EV_HAS_TDUR)) {
		struct thread_time t = { r->seq, e->flags & EV_HAS_TTS ? e->tts : TT_TS_NONE,
					 e->flags & EV_HAS_TDUR ? e->tdur : TT_TS_NONE };

		if (TT_VEC_PUSH(j->ttimes, t))
			return -1;
	}
	return 0;
}

/* One parsed event into storage; -1 when out of memory. */
static int event_done(struct json *j, const struct batch *b, const struct pev *e)
{
	tt_storage *st = j->st;
	char ph = e->ph;
	const char *name = e->flags & EV_HAS_NAME ? btext(b, e->name) : "";
	struct rec r = { 0 };

	if (!ph) {
		/* {} elements are tolerated (some writers end with one). */
		if (e->flags & ~(uint32_t)(EV_HAS_CAT | EV_HAS_SCOPE))
			tt_storage_stat_add(st, TT_STAT_json_tokenizer_failure, 1);
		return 0;
	}
	if (!strchr("BEXiIRCMbenSTpFstf", ph)) {
		char what[32];

		snprintf(what, sizeof(what), "phase '%c'", (ph >= 0x20 && ph < 0x7f) ? ph : '?');
		tt_storage_stat_named(st, TT_STAT_json_phase_unknown, what, 1);
		return 0;
	}
	if (!(e->flags & EV_HAS_TS) && ph != 'M') {
		tt_storage_stat_add(st, TT_STAT_json_tokenizer_failure, 1);
		return 0;
	}
	if (ph == 'M' && strncmp(name, "process_", 8) == 0) {
		/* process-level metadata: no thread to create */
		do_metadata(j, b, e, name, TT_NONE,
			    tt_storage_process(st, e->flags & EV_HAS_PID ? e->pid : 0));
		return 0;
	}
	r.utid = event_thread(j, b, e);
	if (r.utid == TT_NONE)
		return -1;
	if (ph == 'M') {
		do_metadata(j, b, e, name, r.utid, tt_storage_thread_upid(st, r.utid));
		return 0;
	}
	r.ts = e->ts;
	r.ph = ph;
	r.scope = e->s ? e->s : 't';
	r.flags = (uint16_t)(e->flags & EV_REC_FLAGS);
	r.id = e->id;
	r.name = e->flags & EV_HAS_NAME ? tt_storage_intern(st, name, e->name_len) : 0;
	r.cat = e->flags & EV_HAS_CAT ? tt_storage_intern(st, btext(b, e->cat), e->cat_len) : 0;
	r.args = TT_NONE;
	if (ph == 'C') {
		/* One record per numeric series; the record's name is the
		 * counter track's name. */
		char tname[600];

		for (uint32_t i = 0; i < e->nargs; i++) {
			const struct targ *a = &b->args.v[e->arg0 + i];
			double v;
			char *end;

			if (a->type == TT_ARG_INT)
				v = (double)a->v.i;
			else if (a->type == TT_ARG_REAL)
				v = a->v.d;
			else if (a->type == TT_ARG_STRING && (v = strtod(btext(b, a->str), &end), *end == '\0' && a->len))
				;
			else {
				tt_storage_stat_add(st, TT_STAT_json_counter_bad_value, 1);
				tt_storage_stat_add(st, TT_STAT_json_parser_failure, 1);
				continue;
			}
			if (e->flags & EV_HAS_ID)
				snprintf(tname, sizeof(tname), "%s %llu %s", name,
					 (unsigned long long)e->id, btext(b, a->key));
			else
				snprintf(tname, sizeof(tname), "%s %s", name, btext(b, a->key));
			r.name = tt_storage_intern_cstr(st, tname);
			r.u.value = v;
			if (push_rec(j, e, &r))
				return -1;
		}
		return 0;
	}
	if (ph == 'X') {
		if (!(e->flags & EV_HAS_DUR)) {
			tt_storage_stat_add(st, TT_STAT_json_x_no_dur, 1);
			tt_storage_stat_add(st, TT_STAT_json_parser_failure, 1);
			return 0;
		}
		if (e->dur < 0) {
			tt_storage_stat_add(st, TT_STAT_json_x_negative_dur, 1);
			return 0;
		}
	}
	r.u.dur = e->flags & EV_HAS_DUR ? e->dur : 0;
	if (e->flags & EV_HAS_BIND)
		r.id = e->bind_id;
	if ((e->flags & EV_HAS_SCOPE) &&
	    (ph == 'b' || ph == 'e' || ph == 'n' || ph == 's' || ph == 't' || ph == 'f'))
		r.id ^= hash_text(btext(b, e->scope), e->scope_len);
	r.args = build_args(j, b, e);
	return push_rec(j, e, &r);
}

/* Every event of a batch, in order; non-zero when the import must stop
 * (out of memory, or the caller cancelled). */
static int consume_batch(struct json *j, const struct batch *b)
{
	for (size_t i = 0; i < b->ev.n; i++) {
		if (event_done(j, b, &b->ev.v[i])) {
			j->oom = 1;
			return -1;
		}
	}
	tt_import_progress(j->im, b->offset, b->events);
	if (tt_import_cancelled(j->im)) {
		j->cancelled = 1;
		return 1;
	}
	return 0;
}

/* ---- sorting ---------------------------------------------------------------------- */

/* A record's place in time: its ts (as an offset from the first) and its
 * file order, which breaks ties. */
struct order {
	uint64_t key;
	uint32_t seq;
};

#define RADIX_BITS 11
#define RADIX (1u << RADIX_BITS)

/* Sorts o[0..n) by key, keeping the order of equal keys (LSD radix sort,
 * one pass per 11-bit digit that is not the same in every key); tmp has
 * room for n. Returns the sorted array (o or tmp). */
static struct order *radix_sort(struct order *o, struct order *tmp, size_t n)
{
	uint64_t max = 0;
	int digits;

	for (size_t i = 0; i < n; i++)
		max |= o[i].key;
	for (digits = 0; digits * RADIX_BITS < 64 && (max >> (digits * RADIX_BITS)); digits++)
		;
	for (int d = 0; d < digits; d++) {
		int shift = d * RADIX_BITS;
		size_t count[RADIX] = { 0 }, sum = 0;
		struct order *t;

		for (size_t i = 0; i < n; i++)
			count[(o[i].key >> shift) & (RADIX - 1)]++;
		if (count[o[0].key >> shift & (RADIX - 1)] == n)
			continue; /* the same digit everywhere */
		for (unsigned k = 0; k < RADIX; k++) {
			size_t c = count[k];

			count[k] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[count[(o[i].key >> shift) & (RADIX - 1)]++] = o[i];
		t = o;
		o = tmp;
		tmp = t;
	}
	return o;
}

struct xdur {
	int64_t dur;
	uint32_t seq;
};

/* Longer first; in file order when equally long. */
static int cmp_x_dur(const void *a, const void *b)
{
	const struct xdur *x = a, *y = b;

	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The order in which the records are fed: by (ts, file order), then,
 * among the X events of one timestamp, the longer first in the places the
 * X events hold: a total order, so parents precede their children without
 * disturbing B/E pairs. *order is NULL when the records are already in
 * that order, as most writers emit them. */
static int sort_recs(struct json *j, uint32_t **order)
{
	const struct rec *v = j->recs.v;
	size_t n = j->recs.n;
	struct order *o, *tmp, *s;
	struct xdur *x = NULL;
	size_t xcap = 0;
	uint32_t *out;
	int64_t min;

	*order = NULL;
	if (!j->recs_unsorted || n == 0)
		return 0;
	o = malloc(n * sizeof(*o));
	tmp = malloc(n * sizeof(*tmp));
	if (!o || !tmp) {
		free(o);
		free(tmp);
		return -1;
	}
	min = v[0].ts;
	for (size_t i = 1; i < n; i++)
		if (v[i].ts < min)
			min = v[i].ts;
	for (size_t i = 0; i < n; i++)
		o[i] = (struct order){ (uint64_t)v[i].ts - (uint64_t)min, (uint32_t)i };
	s = radix_sort(o, tmp, n);
	out = (uint32_t *)(s == o ? tmp : o); /* the other buffer is free */
	for (size_t i = 0; i < n; i++)
		out[i] = s[i].seq;
	free(s);
	/* the order lives on through the feed: 4 bytes a record, not 16 */
	{
		uint32_t *small = realloc(out, n * sizeof(*out));

		if (small)
			out = small;
	}
	for (size_t i = 0; i < n;) {
		size_t e = i, nx = 0, k = 0;

		int64_t prev_dur = INT64_MAX;
		int ordered = 1;

		while (e < n && v[out[e]].ts == v[out[i]].ts) {
			if (v[out[e]].ph == 'X') {
				nx++;
				ordered &= v[out[e]].u.dur <= prev_dur;
				prev_dur = v[out[e]].u.dur;
			}
			e++;
		}
		if (nx > 1 && !ordered) {
			if (tt_vec_reserve((void **)&x, &xcap, nx, sizeof(*x))) {
				free(out);
				return -1;
			}
			for (size_t q = i; q < e; q++)
				if (v[out[q]].ph == 'X')
					x[k++] = (struct xdur){ v[out[q]].u.dur, out[q] };
			qsort(x, nx, sizeof(*x), cmp_x_dur);
			k = 0;
			for (size_t q = i; q < e; q++)
				if (v[out[q]].ph == 'X')
					out[q] = x[k++].seq;
		}
		i = e;
	}
	free(x);
	*order = out;
	return 0;
}

/* ---- feeding the trackers ------------------------------------------------------------ */

/* A flow id whose flow ended (the id may start a new flow). */
#define FLOW_ENDED (TT_KEYMAP_NONE - 1)

struct feed {
	struct json *j;
	tt_keymap flows;   /* (kind, a, b, c) -> last slice of the flow */
	tt_keymap pending; /* track -> flow source waiting for the next slice */
	size_t tt_next;    /* cursor into j->ttimes (sorted by seq) */
	tt_async_tracker *async;
};

/* Perfetto: an id2.local id is scoped to the event's process, a plain id or
 * an id2.global one to the trace; the cookie is (category, id). Legacy
 * S/T/F are grouped the same way. */
static uint32_t async_track(struct feed *f, const struct rec *r, enum tt_async_kind kind)
{
	tt_storage *st = f->j->st;
	uint32_t upid = (r->flags & EV_ID_LOCAL) ? tt_storage_thread_upid(st, r->utid) : TT_NONE;
	uint64_t cookie = r->id * 0x9e3779b97f4a7c15ULL ^ r->cat;
	uint32_t track = tt_async_track(f->async, upid, 0, cookie, r->name, kind);

	if (track == TT_NONE)
		f->j->oom = 1;
	return track;
}

static uint32_t instant_track(struct json *j, const struct rec *r)
{
	tt_storage *st = j->st;
	tt_track_desc d = { .type = "global", .utid = TT_NONE, .upid = TT_NONE,
			    .parent_id = TT_NONE, .cpu = -1 };

	if (r->scope == 'g') {
		d.name = tt_storage_intern_cstr(st, "Global instants");
		return tt_storage_track_keyed(st, "json-instant", TT_NONE, 0, 0, &d);
	}
	if (r->scope == 'p') {
		d.type = "process";
		d.upid = tt_storage_thread_upid(st, r->utid);
		d.name = tt_storage_intern_cstr(st, "Process instants");
		return tt_storage_track_keyed(st, "json-instant", d.upid, 1, 0, &d);
	}
	return tt_storage_thread_track(st, r->utid);
}

static uint32_t counter_track(struct json *j, const struct rec *r)
{
	tt_storage *st = j->st;
	uint32_t upid = tt_storage_thread_upid(st, r->utid);
	tt_track_desc d = { .type = "counter", .name = r->name, .utid = TT_NONE, .upid = upid,
			    .parent_id = TT_NONE, .is_counter = 1, .cpu = -1 };

	return tt_storage_track_keyed(st, "json-counter", upid, r->name, 0, &d);
}

/* A flow step on slice: links it to the flow's previous slice (unless it
 * starts the flow) and remembers it as the flow's last slice (unless it
 * ends the flow). */
static void flow_step(struct feed *f, uint64_t a, uint64_t b, uint64_t c, int64_t slice,
		      int start, int end)
{
	tt_storage *st = f->j->st;
	uint32_t prev = tt_keymap_get(&f->flows, a, b, c, 0);

	if (slice < 0 || slice > (int64_t)UINT32_MAX - 1) {
		tt_storage_stat_add(st, TT_STAT_flow_unmatched, 1);
		return;
	}
	if (!start) {
		if (prev == TT_KEYMAP_NONE || prev == FLOW_ENDED)
			tt_storage_stat_add(st, TT_STAT_flow_unmatched, 1);
		else
			tt_storage_flow(st, (int64_t)prev, slice, TT_NONE);
	}
	if (tt_keymap_put(&f->flows, a, b, c, 0, end ? FLOW_ENDED : (uint32_t)slice))
		f->j->oom = 1;
}

/* After a slice begins on track: a pending 'f' (no bp:e) binds to it, and
 * v2 flow_in/flow_out flags connect it. */
static void slice_started(struct feed *f, const struct rec *r, uint32_t track, int64_t id)
{
	tt_storage *st = f->j->st;
	uint32_t src;

	if (id < 0)
		return;
	src = tt_keymap_get(&f->pending, track, 0, 0, 0);
	if (src != TT_KEYMAP_NONE && src != FLOW_ENDED) {
		tt_storage_flow(st, (int64_t)src, id, TT_NONE);
		tt_keymap_put(&f->pending, track, 0, 0, 0, FLOW_ENDED);
	}
	if (r->flags & EV_FLOW_IN) {
		uint32_t prev = tt_keymap_get(&f->flows, 2, r->id, 0, 0);

		if (prev == TT_KEYMAP_NONE || prev == FLOW_ENDED)
			tt_storage_stat_add(st, TT_STAT_flow_unmatched, 1);
		else
			tt_storage_flow(st, (int64_t)prev, id, TT_NONE);
	}
	if ((r->flags & EV_FLOW_OUT) && id <= (int64_t)UINT32_MAX - 2)
		tt_keymap_put(&f->flows, 2, r->id, 0, 0, (uint32_t)id);
}

static const struct thread_time *thread_time_of(struct feed *f, uint32_t seq)
{
	const struct json *j = f->j;
	size_t lo = 0, hi = j->ttimes.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (j->ttimes.v[mid].seq < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < j->ttimes.n && j->ttimes.v[lo].seq == seq ? &j->ttimes.v[lo] : NULL;
}

static void feed_one(struct feed *f, const struct rec *r)
{
	struct json *j = f->j;
	tt_storage *st = j->st;
	tt_slice_tracker *sl = j->im->slices;
	const struct thread_time *tt = j->ttimes.n ? thread_time_of(f, r->seq) : NULL;
	uint32_t track;
	int64_t id;

	switch (r->ph) {
	case 'B':
		track = tt_storage_thread_track(st, r->utid);
		id = tt_slice_tracker_begin(sl, track, r->ts, r->cat, r->name, r->args);
		if (id >= 0 && tt && tt->tts != TT_TS_NONE)
			tt_storage_slice_set_thread_time(st, id, tt->tts, TT_TS_NONE);
		slice_started(f, r, track, id);
		break;
	case 'E':
		track = tt_storage_thread_track(st, r->utid);
		id = tt_slice_tracker_end(sl, track, r->ts, r->name, r->args);
		if (id >= 0 && tt && tt->tts != TT_TS_NONE && st->slice.thread_ts &&
		    st->slice.thread_ts[id] != TT_TS_NONE)
			st->slice.thread_dur[id] = tt->tts - st->slice.thread_ts[id];
		break;
	case 'X':
		track = tt_storage_thread_track(st, r->utid);
		if (tt_slice_tracker_overlaps(sl, track, r->ts, r->u.dur)) {
			/* trace processor spills it onto an overflow track */
			tt_storage_stat_add(st, TT_STAT_slice_spill_overlapping_complete_event, 1);
			track = tt_async_overlap_track(f->async, r->utid, r->ts, r->u.dur);
			if (track == TT_NONE) {
				j->oom = 1;
				break;
			}
		}
		id = tt_slice_tracker_complete(sl, track, r->ts, r->u.dur, r->cat, r->name, r->args);
		if (id >= 0 && tt)
			tt_storage_slice_set_thread_time(st, id, tt->tts, tt->tdur);
		slice_started(f, r, track, id);
		break;
	case 'i': case 'I': case 'R':
		track = instant_track(j, r);
		tt_slice_tracker_complete(sl, track, r->ts, 0, r->cat, r->name, r->args);
		break;
	case 'C':
		track = counter_track(j, r);
		tt_storage_counter(st, track, r->ts, r->u.value);
		break;
	case 'b': case 'S':
		track = async_track(f, r, TT_ASYNC_BEGIN);
		if (track == TT_NONE)
			break;
		tt_slice_tracker_begin(sl, track, r->ts, r->cat, r->name, r->args);
		break;
	case 'e': case 'F':
		track = async_track(f, r, TT_ASYNC_END);
		if (track == TT_NONE)
			break;
		if (tt_slice_tracker_enclosing(sl, track, r->ts) < 0)
			tt_storage_stat_add(st, TT_STAT_async_unmatched, 1);
		else
			tt_slice_tracker_end(sl, track, r->ts, r->ph == 'e' ? r->name : 0, r->args);
		break;
	case 'n': case 'T': case 'p':
		track = async_track(f, r, TT_ASYNC_INSTANT);
		if (track == TT_NONE)
			break;
		tt_slice_tracker_complete(sl, track, r->ts, 0, r->cat, r->name, r->args);
		break;
	case 's': case 't':
		track = tt_storage_thread_track(st, r->utid);
		flow_step(f, 1, ((uint64_t)r->cat << 32) | r->name, r->id,
			  tt_slice_tracker_enclosing(sl, track, r->ts), r->ph == 's', 0);
		break;
	case 'f': {
		uint32_t prev = tt_keymap_get(&f->flows, 1, ((uint64_t)r->cat << 32) | r->name, r->id, 0);

		track = tt_storage_thread_track(st, r->utid);
		if (prev == TT_KEYMAP_NONE || prev == FLOW_ENDED) {
			tt_storage_stat_add(st, TT_STAT_flow_unmatched, 1);
		} else if (r->flags & EV_BP_E) {
			flow_step(f, 1, ((uint64_t)r->cat << 32) | r->name, r->id,
				  tt_slice_tracker_enclosing(sl, track, r->ts), 0, 1);
		} else {
			tt_keymap_put(&f->pending, track, 0, 0, 0, prev);
			tt_keymap_put(&f->flows, 1, ((uint64_t)r->cat << 32) | r->name, r->id, 0,
				      FLOW_ENDED);
		}
		break;
	}
	}
}

static int feed_all(struct json *j)
{
	struct feed f = { .j = j };
	uint32_t *order;

	if (sort_recs(j, &order))
		return -1;
	f.async = tt_async_tracker_new(j->st);
	if (!f.async) {
		free(order);
		return -1;
	}
	for (size_t i = 0; i < j->recs.n; i++) {
		feed_one(&f, &j->recs.v[order ? order[i] : i]);
		if ((i & 0xffff) == 0 && tt_import_cancelled(j->im))
			break;
	}
	free(order);
	tt_keymap_free(&f.flows);
	tt_keymap_free(&f.pending);
	tt_async_tracker_free(f.async);
	return j->oom || tt_storage_oom(j->st) ? -1 : 0;
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
	unsigned char *buf = q->readbuf;
	uint64_t idle = 0, ncb_before = 0;

	p->b = batch_acquire(q);
	if (!buf) {
		p->oom = 1;
		goto out;
	}
	/* (a parse that failed in its first chunk has its message to give) */
	while (p->b && p->ys == yajl_status_ok) {
		/* reads end at multiples of READ_SIZE in the file, wherever the
		 * parse started, so that the token guard below stops at the
		 * same byte as a parse from the start would */
		size_t want = READ_SIZE - (size_t)(p->offset % READ_SIZE);
		long n = tt_bytesrc_read(p->src, buf, want, &p->err);

		if (n < 0) {
			p->read_failed = 1;
			break;
		}
		if (n == 0)
			break;
		p->base = p->offset;
		p->ys = yajl_parse(p->yh, buf, (size_t)n);
		if (p->ys != yajl_status_ok) {
			p->offset += yajl_get_bytes_consumed(p->yh);
			break;
		}
		p->offset += (uint64_t)n;
		/* No callback for MAX_TOKEN bytes: one token that long is being
		 * buffered by yajl. Stop there; the events before it are kept.
		 * (Counting callbacks costs nothing per byte.) */
		idle = p->ncb == ncb_before && !p->first_read_aligns ? idle + (uint64_t)n : 0;
		ncb_before = p->ncb;
		p->first_read_aligns = 0; /* (its read had the event before: a callback) */
		if (idle > MAX_TOKEN) {
			p->too_long = 1;
			p->ys = yajl_status_error;
			break;
		}
		if (atomic_load(&q->stop))
			break;
	}
	if (p->b && !p->read_failed && p->ys == yajl_status_ok && !atomic_load(&q->stop)) {
		p->ys = yajl_complete_parse(p->yh);
		if (p->ys != yajl_status_ok)
			p->truncated = 1;
	} else if (p->ys != yajl_status_ok && !p->oom && p->b) {
		if (p->too_long)
			snprintf(p->msg, sizeof(p->msg), "a string or number longer than %u MiB",
				 MAX_TOKEN >> 20);
		else if (p->too_deep)
			snprintf(p->msg, sizeof(p->msg), "containers nested deeper than %d levels",
				 MAX_JSON_DEPTH);
		else
			yajl_message(p->yh, p->msg, sizeof(p->msg));
	}
	/* the events before the end or the problem */
	if (p->b && p->b->ev.n)
		batch_publish(p);
out:
	if (q->threaded) {
		pthread_mutex_lock(&q->mu);
		q->done = 1;
		pthread_cond_broadcast(&q->cv);
		pthread_mutex_unlock(&q->mu);
	}
}

static void *parse_thread(void *arg)
{
	parse_all(arg);
	return NULL;
}

/* The import thread's side of the pipe: every batch, in order, until the
 * parser is done or storage fails or the caller cancels. */
static void consume_all(struct json *j)
{
	struct pipe *q = &j->pipe;

	for (;;) {
		struct batch *b;
		int rc;

		pthread_mutex_lock(&q->mu);
		while (q->consumed == q->produced && !q->done)
			pthread_cond_wait(&q->cv, &q->mu);
		if (q->consumed == q->produced) {
			pthread_mutex_unlock(&q->mu);
			return;
		}
		pthread_mutex_unlock(&q->mu);
		b = &q->batches[q->consumed % NBATCH];
		rc = consume_batch(j, b);
		pthread_mutex_lock(&q->mu);
		q->consumed++;
		if (rc)
			atomic_store(&q->stop, 1);
		pthread_cond_broadcast(&q->cv);
		pthread_mutex_unlock(&q->mu);
		if (rc)
			return;
	}
}

/* A fresh top-level parser (the one that reads the file from its start);
 * 0 or -1 (out of memory). */
static int top_init(struct jparse *p, struct json *j, tt_bytesrc *src)
{
	if (p->yh)
		yajl_free(p->yh);
	memset(p, 0, sizeof(*p));
	p->j = j;
	p->src = src;
	p->yh = yajl_alloc(&callbacks, NULL, p);
	if (!p->yh)
		return -1;
	/* Names from other machines may hold invalid UTF-8: keep them. */
	yajl_config(p->yh, yajl_dont_validate_strings, 1);
	return 0;
}

/* ---- chunks: two parsers at once on plain files ------------------------------------
 *
 * yajl takes longer than the rest of the import together, so on a file
 * that can be read at any offset two worker threads parse it at once, in
 * chunks of about 1 MiB cut between two events of the event array: a chunk
 * ends after a '}' that is followed by a ',' and the next '{' (white space
 * between). Each chunk is parsed alone, as "[" chunk "]", into one batch;
 * the import thread takes the batches in file order. A cut found this way
 * may be wrong (the bytes can sit inside a string or a nested array), so
 * the import thread uses a chunk only from a proved start:
 *   - chunk 0 is parsed by the top-level parser (the file's real context);
 *   - a chunk that starts at a proved place reads its bytes exactly as the
 *     whole file's parse would, so every event it closes at the event
 *     array's depth is right, and so is the place after it.
 * A chunk that parses completely as an array ends at a proved place (any
 * other reading of its bytes leaves a string or a container open at the
 * "]"). One that does not (a wrong cut) is used up to its last event
 * closed at the array's depth; the chunks cut after it are dropped and
 * cutting starts again after that event. Where no chunk can start (the
 * last piece of the file, one event longer than 16 chunks, bad text), a
 * parser put in the state the file's parser has between two events reads
 * on alone from the last proved place: the text is read exactly once as
 * one JSON text, whatever the cuts were.
 */
#define NWORKERS 2
#define NSLOT 4
#define CHUNK_DEFAULT (1u << 20)
/* no cut in this many chunks' bytes (one huge event): parse alone */
#define CHUNK_GROW_MAX 16

enum { SLOT_FREE, SLOT_BUSY, SLOT_READY };

struct slot {
	struct batch b;
	uint64_t start, end;  /* the chunk: the file's bytes [start, end) */
	unsigned gen;         /* cut in this generation (see chunks.gen) */
	int state;
	int ok;               /* parsed completely: end is proved */
	/* not ok: its events (all closed at the array's depth, the last one
	 * ending at part_end) are right all the same; part_next is the '{'
	 * after the last, 0 when no event follows */
	uint64_t part_end, part_next;
};

struct chunks;

/* A worker's own parser and read buffer (allocated by the import thread:
 * memory a worker thread allocates would stay in its malloc arena, resident
 * after the import). */
struct worker {
	struct chunks *c;
	struct jparse p;
	yajl_handle yh;    /* parses chunk after chunk (yajl_allow_multiple_values) */
	unsigned char *buf;
	size_t cap;
};

struct chunks {
	struct worker workers[NWORKERS];
	struct json *j;
	struct jparse *top;
	tt_bytesrc *src;
	size_t size;       /* bytes per chunk */
	int depth;         /* of the event array: 1 in "[...]", 2 in {"traceEvents":[...]} */
	int nl;            /* the file puts line breaks between events */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct slot slots[NSLOT];
	uint64_t next_start, next_seq;
	unsigned gen;      /* bumped when cutting starts again: older chunks are dropped */
	int no_more;       /* no chunk will be handed out (until cutting starts again) */
	int stop;
};

static int is_ws(unsigned char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* Does the object at buf[k] ('{') start with a key of a trace event? */
static int event_key_at(const unsigned char *buf, size_t len, size_t k)
{
	static const char *const keys[] = { "ph", "ts", "pid", "tid", "name", "cat", "args", "dur",
					    "id", "id2", "s", "tts", "tdur", "bp", "scope", "bind_id" };
	size_t i = k + 1, e;

	while (i < len && is_ws(buf[i]))
		i++;
	if (i >= len || buf[i] != '"')
		return 0;
	for (e = ++i; e < len && e - i < 8 && buf[e] != '"'; e++)
		;
	if (e >= len || buf[e] != '"')
		return 0;
	for (size_t n = 0; n < sizeof(keys) / sizeof(keys[0]); n++)
		if (strlen(keys[n]) == e - i && memcmp(keys[n], buf + i, e - i) == 0)
			return 1;
	return 0;
}

/* The best of the last cuts in buf[0, len): *end just after a '}', *next
 * at the '{' that follows it after a ',' (white space around). A wrong
 * cut is never wrong data but makes the rest of the file parse alone, so
 * the cut is chosen among those of the last 64 KiB by how much it looks
 * like one between events: the next object starts with an event's key
 * (nested objects seldom do), and a line break is in it (writers that put
 * events on lines of their own write nested objects inline). With nl,
 * only cuts with a line break count. 0, or -1 if there is no cut. */
static int last_cut(const unsigned char *buf, size_t len, int nl, size_t *end, size_t *next)
{
	int best = -1;

	for (size_t k = len; k-- > 0;) {
		size_t m = k;
		int has_nl = 0, score;

		if (best >= 0 && len - k > 64 * 1024)
			break;
		if (buf[k] != '{')
			continue;
		for (; m > 0 && is_ws(buf[m - 1]); m--)
			has_nl |= buf[m - 1] == '\n';
		if (m == 0 || buf[m - 1] != ',')
			continue;
		m--;
		for (; m > 0 && is_ws(buf[m - 1]); m--)
			has_nl |= buf[m - 1] == '\n';
		if (m == 0 || buf[m - 1] != '}' || (nl && !has_nl))
			continue;
		score = 2 * event_key_at(buf, len, k) + has_nl;
		if (score > best) {
			best = score;
			*end = m;
			*next = k;
			if (score == 3)
				break;
		}
	}
	return best >= 0 ? 0 : -1;
}

/* Reads the chunk starting at start into *buf; 0 with *len (the chunk's
 * bytes), *avail (the bytes read) and *next set, or -1 when there is no
 * further chunk (end of file near, no cut, read error: the parser that
 * reads on alone takes it from there). */
static int read_chunk(struct chunks *c, uint64_t start, unsigned char **buf, size_t *cap,
		      size_t *len, size_t *avail, uint64_t *next)
{
	size_t most = c->size * CHUNK_GROW_MAX;

	for (size_t want = c->size; want <= most; want *= 2) {
		size_t end = 0, nx = 0;
		long n;

		if (tt_vec_reserve((void **)buf, cap, want, 1))
			return -1;
		n = tt_bytesrc_pread(c->src, *buf, want, start);
		if (n < 0 || (size_t)n < want)
			return -1; /* the file's last piece */
		/* a file of one event a line: a longer chunk rather than a
		 * cut without a line break (one inside a long event's args) */
		if ((last_cut(*buf, want, c->nl, &end, &nx) == 0 ||
		     ((!c->nl || want * 2 > most) && last_cut(*buf, want, 0, &end, &nx) == 0)) &&
		    end > 0) {
			*len = end;
			*avail = want;
			*next = start + nx;
			return 0;
		}
	}
	return -1;
}

/* The '{' after buf[at]: its offset when white space, a ',' and white
 * space lead to it, else 0. */
static size_t brace_after(const unsigned char *buf, size_t avail, size_t at)
{
	while (at < avail && is_ws(buf[at]))
		at++;
	if (at >= avail || buf[at] != ',')
		return 0;
	for (at++; at < avail && is_ws(buf[at]); at++)
		;
	return at < avail && buf[at] == '{' ? at : 0;
}

/* Where a chunk p did not read completely may be cut again: after its
 * last event. */
static void slot_part(struct slot *s, const struct jparse *p, const unsigned char *buf,
		      size_t avail)
{
	size_t brace;

	s->part_end = s->part_next = 0;
	if (!s->b.ev.n)
		return;
	s->part_end = s->start + p->last_close;
	brace = brace_after(buf, avail, (size_t)p->last_close);
	if (brace)
		s->part_next = s->start + brace;
}

/* A yajl handle for the chunk parser p; NULL when out of memory. */
static yajl_handle chunk_handle(struct jparse *p)
{
	yajl_handle yh = yajl_alloc(&callbacks, NULL, p);

	if (yh) {
		yajl_config(yh, yajl_dont_validate_strings, 1);
		/* each chunk is one "[...]" value */
		yajl_config(yh, yajl_allow_multiple_values, 1);
	}
	return yh;
}

/* Parses one chunk (not chunk 0) with the worker's parser into s, at the
 * depth of the file's event array (depth limits stay exact). */
static int parse_chunk(struct worker *w, struct slot *s, const unsigned char *buf, size_t len,
		       size_t avail, int depth)
{
	struct jparse *p = &w->p;
	struct batch *b = &s->b;
	int ok;

	memset(p, 0, sizeof(*p));
	p->j = w->c->j;
	p->src = w->c->src;
	if (!w->yh && !(w->yh = chunk_handle(p)))
		return 0;
	p->yh = w->yh;
	p->chunk_mode = 1;
	p->b = b;
	p->depth = depth - 1;
	p->top_is_map = p->top_key_events = depth == 2;
	b->ev.n = b->args.n = b->text.n = 0;
	ok = yajl_parse(p->yh, (const unsigned char *)"[", 1) == yajl_status_ok &&
	     yajl_parse(p->yh, buf, len) == yajl_status_ok; /* (base 0: offsets in buf) */
	slot_part(s, p, buf, avail);
	ok = ok && yajl_parse(p->yh, (const unsigned char *)"]", 1) == yajl_status_ok &&
	     yajl_complete_parse(p->yh) == yajl_status_ok &&
	     !p->oom && !p->too_deep && p->depth == depth - 1 && p->ev_array_depth == -1;
	if (!ok) {
		/* a handle that failed stays failed: a new one next time */
		yajl_free(w->yh);
		w->yh = NULL;
	}
	p->yh = NULL;
	return ok;
}

/* Chunk 0, from the start of the file, with the top-level parser: proved
 * when the parser is then between two events, having just read the '}'
 * that ends the chunk. */
static int parse_first(struct chunks *c, struct slot *s, const unsigned char *buf, size_t len,
		       size_t avail)
{
	struct jparse *p = c->top;

	p->chunk_mode = 1;
	p->b = &s->b;
	p->b->ev.n = p->b->args.n = p->b->text.n = 0;
	p->base = 0;
	p->ys = yajl_parse(p->yh, buf, len);
	p->chunk_mode = 0;
	p->b = NULL;
	/* events of an array at another depth than the chunks were cut for:
	 * none of it is used (the parser reading on alone starts over) */
	if (p->ev_array_depth != c->depth)
		s->b.ev.n = 0;
	slot_part(s, p, buf, avail);
	return p->ys == yajl_status_ok && !p->oom && !p->in_event && !p->skip_depth &&
	       p->ev_array_depth == c->depth && p->depth == p->ev_array_depth &&
	       s->b.ev.n && p->last_close == len;
}

static void *chunk_worker(void *arg)
{
	struct worker *w = arg;
	struct chunks *c = w->c;

	pthread_mutex_lock(&c->mu);
	for (;;) {
		struct slot *s;
		uint64_t seq, next;
		size_t len = 0, avail = 0;
		int ok;

		while (!c->stop && (c->no_more || c->slots[c->next_seq % NSLOT].state != SLOT_FREE))
			pthread_cond_wait(&c->cv, &c->mu);
		if (c->stop)
			break;
		seq = c->next_seq;
		s = &c->slots[seq % NSLOT];
		if (read_chunk(c, c->next_start, &w->buf, &w->cap, &len, &avail, &next)) {
			c->no_more = 1;
			pthread_cond_broadcast(&c->cv);
			continue;
		}
		s->state = SLOT_BUSY;
		s->gen = c->gen;
		s->start = c->next_start;
		s->end = c->next_start + len;
		c->next_start = next;
		c->next_seq++;
		pthread_mutex_unlock(&c->mu);
		if (seq == 0) {
			ok = parse_first(c, s, w->buf, len, avail);
		} else {
			ok = parse_chunk(w, s, w->buf, len, avail, c->depth);
		}
		pthread_mutex_lock(&c->mu);
		s->ok = ok;
		s->state = SLOT_READY;
		pthread_cond_broadcast(&c->cv);
	}
	pthread_mutex_unlock(&c->mu);
	return NULL;
}

/* Room for a chunk's worth in the import thread's arena (see struct
 * worker); 0 or -1. */
static int chunks_reserve(struct chunks *c)
{
	size_t events = c->size / 64 + 16;

	for (int i = 0; i < NWORKERS; i++) {
		struct worker *w = &c->workers[i];

		w->c = c;
		if (tt_vec_reserve((void **)&w->buf, &w->cap, c->size, 1) || !(w->yh = chunk_handle(&w->p)))
			return -1;
	}
	for (int i = 0; i < NSLOT; i++)
		if (batch_reserve(&c->slots[i].b, events, c->size))
			return -1;
	return 0;
}

/* Runs the workers and takes their chunks in order. Returns the proved
 * file offset from which a parser must read on alone (0: from the start),
 * with *events the events taken before it; -1 when the import must stop
 * (out of memory, cancelled). */
static int64_t parse_chunks(struct json *j, struct jparse *top, tt_bytesrc *src, size_t size,
			    int depth, int nl, uint64_t *events)
{
	struct chunks *c = calloc(1, sizeof(*c));
	pthread_t th[NWORKERS];
	int nth = 0, stop = 0;
	uint64_t resume = 0;

	*events = 0;
	if (!c)
		return 0;
	c->j = j;
	c->top = top;
	c->src = src;
	c->size = size;
	c->depth = depth;
	c->nl = nl;
	if (pthread_mutex_init(&c->mu, NULL) != 0) {
		free(c);
		return 0;
	}
	if (pthread_cond_init(&c->cv, NULL) != 0) {
		pthread_mutex_destroy(&c->mu);
		free(c);
		return 0;
	}
	if (chunks_reserve(c) == 0)
		while (nth < NWORKERS && pthread_create(&th[nth], NULL, chunk_worker, &c->workers[nth]) == 0)
			nth++;
	pthread_mutex_lock(&c->mu);
	if (nth == 0)
		c->no_more = 1;
	for (uint64_t seq = 0;; seq++) {
		struct slot *s = &c->slots[seq % NSLOT];

		while (s->state != SLOT_READY && !(c->no_more && seq >= c->next_seq))
			pthread_cond_wait(&c->cv, &c->mu);
		if (s->state != SLOT_READY)
			break;
		if (s->gen != c->gen) {
			/* cut after a wrong cut: dropped */
			s->state = SLOT_FREE;
			pthread_cond_broadcast(&c->cv);
			continue;
		}
		pthread_mutex_unlock(&c->mu);
		if (s->b.ev.n) {
			*events += s->b.ev.n;
			resume = s->ok ? s->end : s->part_end;
			s->b.offset = resume;
			s->b.events = *events;
			if (consume_batch(j, &s->b))
				stop = 1;
		}
		pthread_mutex_lock(&c->mu);
		s->state = SLOT_FREE;
		if (stop || (!s->ok && !s->part_next))
			break;
		if (!s->ok) {
			/* a wrong cut: cut again after the chunk's last right event */
			c->gen++;
			c->next_start = s->part_next;
			c->no_more = 0;
		}
		pthread_cond_broadcast(&c->cv);
	}
	c->stop = 1;
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
	for (int i = 0; i < nth; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < NSLOT; i++)
		batch_free(&c->slots[i].b);
	for (int i = 0; i < NWORKERS; i++) {
		free(c->workers[i].buf);
		if (c->workers[i].yh)
			yajl_free(c->workers[i].yh);
	}
	pthread_cond_destroy(&c->cv);
	pthread_mutex_destroy(&c->mu);
	free(c);
	return stop ? -1 : (int64_t)resume;
}

/* Puts p, fresh, in the state the file's parser has after an event that
 * ends at offset at: in the event array, events events read so far, and
 * the displayTimeUnit top read before (unit, when it came before at). */
static int top_between_events(struct jparse *p, struct json *j, tt_bytesrc *src, int depth,
			      uint64_t at, uint64_t events, const char *unit, uint64_t unit_at)
{
	/* an element that is not an event leaves no trace; a string, as it
	 * ends at its quote (a number would run on into the next bytes) */
	const char *prefix = depth == 1 ? "[\"\"" : "{\"traceEvents\":[\"\"";

	if (top_init(p, j, src))
		return -1;
	if (yajl_parse(p->yh, (const unsigned char *)prefix, strlen(prefix)) != yajl_status_ok)
		return -1;
	p->events = events;
	p->offset = at;
	p->first_read_aligns = 1;
	if (unit[0] && unit_at < at) {
		snprintf(p->unit, sizeof(p->unit), "%s", unit);
		p->unit_at = unit_at;
	}
	return 0;
}

/* Chunks are worth it on a plain file of several chunks whose text starts
 * like a trace: the depth of its event array, or 0; *nl when its first
 * 64 KiB put a line break between two events (one before an event's key). */
static int chunk_depth(tt_bytesrc *src, size_t size, int *nl)
{
	unsigned char *head;
	size_t end, next;
	long n;
	int depth = 0;

	*nl = 0;
	if (!tt_bytesrc_seekable(src) || tt_bytesrc_size(src) < 4 * (uint64_t)size)
		return 0;
	head = malloc(64 * 1024);
	if (!head)
		return 0;
	n = tt_bytesrc_pread(src, head, 64 * 1024, 0);
	for (long i = 0; i < n; i++) {
		if (is_ws(head[i]))
			continue;
		depth = head[i] == '[' ? 1 : head[i] == '{' ? 2 : 0;
		break;
	}
	*nl = n > 0 && last_cut(head, (size_t)n, 1, &end, &next) == 0 &&
	      event_key_at(head, (size_t)n, next);
	free(head);
	return depth;
}

/* Bytes per chunk: the import options' (tests cut small files into many
 * chunks with TT_JSON_CHUNK), else 1 MiB. */
static size_t chunk_size(const tt_import *im)
{
	return im->opts.json_chunk >= 16 ? im->opts.json_chunk : CHUNK_DEFAULT;
}

static void json_free(struct json *j)
{
	for (int i = 0; i < NBATCH; i++)
		batch_free(&j->pipe.batches[i]);
	free(j->pipe.readbuf);
	TT_VEC_FREE(j->recs);
	TT_VEC_FREE(j->last_x);
	TT_VEC_FREE(j->ttimes);
	free(j);
}

int tt_import_json(tt_import *im, tt_bytesrc *src)
{
	struct json *j = calloc(1, sizeof(*j));
	struct jparse *p = calloc(1, sizeof(*p));
	struct pipe *q;
	pthread_t th;

	/* trace processor's process tracker: a process has its main thread */
	tt_storage_main_threads(im->st, 1);
	char msg[200];
	int rc = TT_OK, truncated;

	if (!j || !p) {
		free(p);
		free(j);
		return tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path);
	}
	j->im = im;
	j->st = im->st;
	j->last_utid = TT_NONE;
	if (top_init(p, j, src)) {
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path);
		goto done;
	}
	{
		size_t size = chunk_size(im);
		int nl, depth = chunk_depth(src, size, &nl);
		uint64_t events = 0, unit_at;
		int64_t resume = depth ? parse_chunks(j, p, src, size, depth, nl, &events) : 0;
		char unit[sizeof(p->unit)];

		if (resume < 0)
			goto parsed; /* out of memory or cancelled */
		snprintf(unit, sizeof(unit), "%s", p->unit);
		unit_at = p->unit_at;
		/* nothing proved: from the start, alone; else on from the last
		 * proved place */
		if (depth && (resume == 0 ? top_init(p, j, src) :
			      top_between_events(p, j, src, depth, (uint64_t)resume, events, unit, unit_at))) {
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
	atomic_init(&q->stop, 0);
	/* the batches' memory comes from this thread's arena (see struct
	 * worker); a failure here only means slower growth later */
	for (int i = 0; i < NBATCH; i++)
		batch_reserve(&q->batches[i], BATCH_EVENTS + 1, BATCH_TEXT * 2);
	q->readbuf = malloc(READ_SIZE);
	q->threaded = pthread_mutex_init(&q->mu, NULL) == 0;
	if (q->threaded && pthread_cond_init(&q->cv, NULL) != 0) {
		pthread_mutex_destroy(&q->mu);
		q->threaded = 0;
	}
	if (q->threaded && pthread_create(&th, NULL, parse_thread, p) != 0) {
		pthread_cond_destroy(&q->cv);
		pthread_mutex_destroy(&q->mu);
		q->threaded = 0;
	}
	if (q->threaded) {
		consume_all(j);
		pthread_join(th, NULL);
		pthread_cond_destroy(&q->cv);
		pthread_mutex_destroy(&q->mu);
	} else {
		parse_all(p); /* batches are consumed as they are handed over */
	}
parsed:

	if (j->cancelled) {
		rc = tt_err_set(im->err, TT_ECANCEL, "%s: import cancelled", im->path);
		goto done;
	}
	if (p->oom || j->oom) {
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory at byte %llu", im->path,
				(unsigned long long)p->offset);
		goto done;
	}
	if (p->unit[0])
		tt_storage_meta_str(im->st, "display_time_unit", p->unit);
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
		if (p->events == 0 && j->recs.n == 0) {
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
	if (p->ev_array_depth == 0 && p->events == 0) {
		rc = tt_err_set(im->err, TT_EINVAL,
				"%s: JSON but not a trace (no traceEvents array or event list)", im->path);
		goto done;
	}
	tt_storage_meta_str(im->st, "trace_type", "json");
	tt_storage_meta_int(im->st, "json_events", (int64_t)p->events);
	if (feed_all(j))
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path);
	tt_import_progress(im, tt_bytesrc_file_offset(src), p->events);
done:
	if (p->yh)
		yajl_free(p->yh);
	free(p);
	json_free(j);
	return rc;
}
