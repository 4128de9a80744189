/*
 * import_json.c - Chrome JSON Trace Event Format importer (formats.md §2).
 *
 * Pipeline: yajl streams the text (256 KiB at a time, never the whole file)
 * -> each event becomes a compact record (48 bytes; args already in
 * storage) -> records are sorted by time (the format allows any order)
 * -> the records drive the slice tracker, counters and flows.
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
#include "import_int.h"
#include "keymap.h"
#include "storage_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#define CHUNK (256 * 1024)
#define MAX_ARG_DEPTH 32
#define PATH_MAX_LEN 1024
/* Longest string or number token: yajl buffers a token that spans chunks
 * and re-lexes it as it grows (time quadratic in its length), so a file of
 * one 2 GB string would take hours; no real trace has a token this long. */
#define MAX_TOKEN (32u << 20)
/* Deepest container nesting accepted: yajl's own stack has no limit; args
 * are flattened at MAX_ARG_DEPTH anyway and no trace nests this deep. */
#define MAX_JSON_DEPTH 1000

enum field {
	F_OTHER, F_NAME, F_CAT, F_PH, F_TS, F_DUR, F_TDUR, F_TTS, F_PID, F_TID, F_ID,
	F_ID2, F_SCOPE, F_S, F_BP, F_ARGS, F_BIND_ID, F_FLOW_IN, F_FLOW_OUT
};

enum { EV_HAS_TS = 1, EV_HAS_DUR = 2, EV_HAS_PID = 4, EV_HAS_TID = 8, EV_HAS_ID = 16,
       EV_ID_GLOBAL = 32, EV_BP_E = 64, EV_FLOW_IN = 128, EV_FLOW_OUT = 256,
       EV_HAS_TTS = 512, EV_HAS_TDUR = 1024, EV_HAS_BIND = 2048 };

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

struct targ {
	uint32_t key;     /* offset into text */
	uint8_t type;     /* enum tt_arg_type */
	uint32_t str;     /* offset into text (strings, numbers' text) */
	uint32_t len;
	union { int64_t i; double d; } v;
};

struct json {
	tt_import *im;
	tt_storage *st;
	yajl_handle yh;

	int depth;
	int top_is_map;
	int ev_array_depth; /* depth of the event array, 0 = not in one */
	int top_key_events; /* last top-level key was traceEvents */
	int top_key_unit;

	/* the event being read */
	int in_event;
	enum field field;
	struct {
		const char *name; size_t name_len;
		int64_t ts, dur, tts, tdur, pid, tid;
		uint64_t id, bind_id;
		char ph, s;
		uint16_t flags;
		int pid_str, tid_str;
	} ev;
	char evtext[1024];   /* name, cat, pid/tid/id strings of the event */
	size_t evtext_len;
	size_t scope_off, pidname_off, tidname_off;
	int has_name, has_cat, has_scope;
	tt_str name_id, cat_id; /* interned straight from yajl's buffer */
	/* the previous event's thread: most events follow one of their own */
	int64_t last_pid, last_tid;
	uint32_t last_utid;

	/* args of the event, flattened */
	int args_depth;      /* 0 = not in args; else container depth inside */
	char path[PATH_MAX_LEN];
	size_t base_len[MAX_ARG_DEPTH + 2];
	int is_arr[MAX_ARG_DEPTH + 2];
	int64_t arr_idx[MAX_ARG_DEPTH + 2];
	int args_stripped;
	TT_VEC(struct targ) targs;
	TT_VEC(char) text;   /* arg keys and string values */
	int skip_depth;      /* >0: inside an ignored container */
	int id2_depth;

	/* token length guard (see MAX_TOKEN): callbacks so far */
	uint64_t ncb;
	int too_deep;        /* stopped at MAX_JSON_DEPTH */

	TT_VEC(struct rec) recs;
	int recs_unsorted;   /* a record went back in time, or an X must move */
	TT_VEC(struct last_x) last_x; /* by utid: the thread's last X */
	TT_VEC(struct thread_time) ttimes;
	uint64_t events;     /* events read */
	int oom;
};

/* ---- small helpers ---------------------------------------------------------- */

static int oom(struct json *j)
{
	j->oom = 1;
	return 0; /* stops yajl */
}

static size_t evtext_put(struct json *j, const char *s, size_t len)
{
	size_t off = j->evtext_len;

	if (len > sizeof(j->evtext) - 1 - off)
		len = sizeof(j->evtext) - 1 - off;
	memcpy(j->evtext + off, s, len);
	j->evtext[off + len] = '\0';
	j->evtext_len += len + 1;
	if (j->evtext_len > sizeof(j->evtext))
		j->evtext_len = sizeof(j->evtext);
	return off;
}

/* Parses the text of a JSON number of µs into ns: exact for up to three
 * decimals, llround(x * 1000) beyond (what Perfetto does). */
static int us_text_to_ns(const char *s, size_t len, int64_t *out)
{
	char buf[64];
	int64_t ip = 0, frac = 0;
	int neg = 0, nd = 0;
	size_t i = 0;

	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (len > 19 || memchr(buf, 'e', len) || memchr(buf, 'E', len)) {
		char *end;
		double d = strtod(buf, &end);

		if (*end || !isfinite(d) || fabs(d) > 9.2e15)
			return -1;
		*out = llround(d * 1000.0);
		return 0;
	}
	if (buf[i] == '-')
		neg = 1, i++;
	if (!isdigit((unsigned char)buf[i]))
		return -1;
	for (; isdigit((unsigned char)buf[i]); i++) {
		if (ip > (INT64_MAX / 1000 - 9) / 10)
			return -1;
		ip = ip * 10 + (buf[i] - '0');
	}
	if (buf[i] == '.') {
		i++;
		for (; isdigit((unsigned char)buf[i]); i++) {
			if (nd < 3)
				frac = frac * 10 + (buf[i] - '0');
			else if (nd == 3 && buf[i] >= '5')
				frac += 1; /* round half away from zero on the 4th decimal */
			nd++;
		}
		for (int k = nd; k < 3; k++)
			frac *= 10;
	}
	if (buf[i])
		return -1;
	*out = neg ? -(ip * 1000 + frac) : ip * 1000 + frac;
	return 0;
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

static enum field field_of(const unsigned char *k, size_t n)
{
#define FIELD(s, f) { s, sizeof(s) - 1, f }
	static const struct { const char *key; size_t len; enum field f; } fields[] = {
		FIELD("ph", F_PH), FIELD("ts", F_TS), FIELD("name", F_NAME), FIELD("pid", F_PID),
		FIELD("tid", F_TID), FIELD("cat", F_CAT), FIELD("dur", F_DUR), FIELD("args", F_ARGS),
		FIELD("tdur", F_TDUR), FIELD("tts", F_TTS), FIELD("id", F_ID), FIELD("id2", F_ID2),
		FIELD("scope", F_SCOPE), FIELD("s", F_S), FIELD("bp", F_BP),
		FIELD("bind_id", F_BIND_ID), FIELD("flow_in", F_FLOW_IN), FIELD("flow_out", F_FLOW_OUT),
	};
#undef FIELD

	/* Keys are short: compare length and first byte before the text. */
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		if (fields[i].len == n && fields[i].key[0] == (char)k[0] &&
		    memcmp(fields[i].key, k, n) == 0)
			return fields[i].f;
	}
	return F_OTHER;
}

/* ---- args flattening ---------------------------------------------------------- */

static int text_put(struct json *j, const char *s, size_t len, uint32_t *off)
{
	if (j->text.n + len + 1 > UINT32_MAX)
		return -1;
	if (tt_vec_reserve((void **)&j->text.v, &j->text.cap, j->text.n + len + 1, 1))
		return -1;
	*off = (uint32_t)j->text.n;
	memcpy(j->text.v + j->text.n, s, len);
	j->text.v[j->text.n + len] = '\0';
	j->text.n += len + 1;
	return 0;
}

/* The key of the next value in the current args container. */
static void arg_key_for_value(struct json *j)
{
	int d = j->args_depth;

	if (j->is_arr[d]) {
		size_t b = j->base_len[d];
		int n = snprintf(j->path + b, sizeof(j->path) - b, "[%lld]", (long long)j->arr_idx[d]++);

		if (n < 0 || (size_t)n >= sizeof(j->path) - b)
			j->path[b] = '\0';
	}
}

static int arg_add(struct json *j, uint8_t type, const char *s, size_t len, int64_t i, double d)
{
	struct targ a = { .type = type };

	arg_key_for_value(j);
	if (text_put(j, j->path, strlen(j->path), &a.key))
		return -1;
	if (s && text_put(j, s, len, &a.str))
		return -1;
	a.len = (uint32_t)len;
	if (type == TT_ARG_REAL)
		a.v.d = d;
	else
		a.v.i = i;
	return TT_VEC_PUSH(j->targs, a);
}

/* ---- yajl callbacks ------------------------------------------------------------ */

static void event_reset(struct json *j)
{
	memset(&j->ev, 0, sizeof(j->ev));
	j->evtext_len = 0;
	j->has_name = j->has_cat = j->has_scope = 0;
	j->targs.n = 0;
	j->text.n = 0;
	j->args_stripped = 0;
	j->field = F_OTHER;
}

static int in_args(const struct json *j)
{
	return j->args_depth > 0;
}

static int cb_null(void *ctx)
{
	struct json *j = ctx;

	j->ncb++;

	if (j->skip_depth || !j->in_event)
		return 1;
	if (in_args(j))
		return arg_add(j, TT_ARG_NULL, NULL, 0, 0, 0) ? oom(j) : 1;
	return 1;
}

static int cb_bool(void *ctx, int b)
{
	struct json *j = ctx;

	j->ncb++;

	if (j->skip_depth || !j->in_event)
		return 1;
	if (in_args(j))
		return arg_add(j, TT_ARG_BOOL, NULL, 0, b, 0) ? oom(j) : 1;
	if (j->field == F_FLOW_IN && b)
		j->ev.flags |= EV_FLOW_IN;
	else if (j->field == F_FLOW_OUT && b)
		j->ev.flags |= EV_FLOW_OUT;
	return 1;
}

static void set_id_text(struct json *j, const char *s, size_t len, int global)
{
	uint64_t v;

	if (parse_u64_text(s, len, &v) != 0)
		v = hash_text(s, len);
	j->ev.id = v;
	j->ev.flags |= EV_HAS_ID;
	if (global)
		j->ev.flags |= EV_ID_GLOBAL;
}

static int event_number(struct json *j, const char *s, size_t len, int is_string)
{
	int64_t v;

	switch (j->field) {
	case F_TS:
		if (us_text_to_ns(s, len, &j->ev.ts) == 0)
			j->ev.flags |= EV_HAS_TS;
		break;
	case F_DUR:
		if (us_text_to_ns(s, len, &j->ev.dur) == 0)
			j->ev.flags |= EV_HAS_DUR;
		break;
	case F_TTS:
		if (us_text_to_ns(s, len, &j->ev.tts) == 0)
			j->ev.flags |= EV_HAS_TTS;
		break;
	case F_TDUR:
		if (us_text_to_ns(s, len, &j->ev.tdur) == 0)
			j->ev.flags |= EV_HAS_TDUR;
		break;
	case F_PID:
		if (parse_int_text(s, len, &v) == 0) {
			j->ev.pid = v;
		} else if (is_string) {
			j->ev.pid = (int64_t)(hash_text(s, len) & 0x3fffffff) + 0x40000000;
			j->pidname_off = evtext_put(j, s, len);
			j->ev.pid_str = 1;
		} else {
			break;
		}
		j->ev.flags |= EV_HAS_PID;
		break;
	case F_TID:
		if (parse_int_text(s, len, &v) == 0) {
			j->ev.tid = v;
		} else if (is_string) {
			j->ev.tid = (int64_t)(hash_text(s, len) & 0x3fffffff) + 0x40000000;
			j->tidname_off = evtext_put(j, s, len);
			j->ev.tid_str = 1;
		} else {
			break;
		}
		j->ev.flags |= EV_HAS_TID;
		break;
	case F_ID:
		set_id_text(j, s, len, 0);
		break;
	case F_BIND_ID:
		if (parse_u64_text(s, len, &j->ev.bind_id) != 0)
			j->ev.bind_id = hash_text(s, len);
		j->ev.flags |= EV_HAS_BIND;
		break;
	default:
		break;
	}
	return 1;
}

static int cb_number(void *ctx, const char *s, size_t len)
{
	struct json *j = ctx;

	j->ncb++;

	if (j->skip_depth || !j->in_event)
		return 1;
	if (j->id2_depth) {
		set_id_text(j, s, len, j->field == F_ID2 && j->path[0] == 'g');
		return 1;
	}
	if (in_args(j)) {
		int64_t i;
		int is_int = !memchr(s, '.', len) && !memchr(s, 'e', len) && !memchr(s, 'E', len);

		if (is_int && parse_int_text(s, len, &i) == 0)
			return arg_add(j, TT_ARG_INT, s, len, i, 0) ? oom(j) : 1;
		{
			char buf[64];
			size_t n = len < sizeof(buf) - 1 ? len : sizeof(buf) - 1;

			memcpy(buf, s, n);
			buf[n] = '\0';
			return arg_add(j, TT_ARG_REAL, s, len, 0, strtod(buf, NULL)) ? oom(j) : 1;
		}
	}
	return event_number(j, s, len, 0);
}

static int cb_string(void *ctx, const unsigned char *s, size_t len)
{
	struct json *j = ctx;
	const char *t = (const char *)s;

	j->ncb++;
	if (!j->in_event) {
		if (j->top_key_unit && j->depth == 1 && j->top_is_map) {
			char buf[32];

			snprintf(buf, sizeof(buf), "%.*s", (int)(len < 16 ? len : 16), t);
			tt_storage_meta_str(j->st, "display_time_unit", buf);
		}
		return 1;
	}
	if (j->skip_depth)
		return 1;
	if (j->id2_depth) {
		set_id_text(j, t, len, j->path[0] == 'g');
		return 1;
	}
	if (in_args(j))
		return arg_add(j, TT_ARG_STRING, t, len, 0, 0) ? oom(j) : 1;
	switch (j->field) {
	case F_NAME:
		j->name_id = tt_storage_intern(j->st, t, len);
		j->has_name = 1;
		break;
	case F_CAT:
		j->cat_id = tt_storage_intern(j->st, t, len);
		j->has_cat = 1;
		break;
	case F_SCOPE:
		j->scope_off = evtext_put(j, t, len);
		j->has_scope = 1;
		break;
	case F_PH:
		j->ev.ph = len ? t[0] : 0;
		break;
	case F_S:
		j->ev.s = len ? t[0] : 0;
		break;
	case F_BP:
		if (len == 1 && t[0] == 'e')
			j->ev.flags |= EV_BP_E;
		break;
	case F_ARGS:
		j->args_stripped = 1; /* "__stripped__" */
		break;
	default:
		return event_number(j, t, len, 1);
	}
	return 1;
}

static int cb_map_key(void *ctx, const unsigned char *k, size_t len)
{
	struct json *j = ctx;

	j->ncb++;

	if (!j->in_event) {
		if (j->depth == 1 && j->top_is_map) {
			j->top_key_events = len == 11 && memcmp(k, "traceEvents", 11) == 0;
			j->top_key_unit = len == 15 && memcmp(k, "displayTimeUnit", 15) == 0;
		}
		return 1;
	}
	if (j->skip_depth)
		return 1;
	if (j->id2_depth) {
		j->path[0] = len ? (char)k[0] : 0; /* 'l'ocal or 'g'lobal */
		return 1;
	}
	if (in_args(j)) {
		int d = j->args_depth;
		size_t b = j->base_len[d], n = len;

		if (b + 1 + n >= sizeof(j->path))
			n = sizeof(j->path) - b - 2;
		if (b)
			j->path[b++] = '.';
		memcpy(j->path + b, k, n);
		j->path[b + n] = '\0';
		return 1;
	}
	j->field = field_of(k, len);
	return 1;
}

static int open_container(struct json *j, int is_array)
{
	j->ncb++;
	j->depth++;
	if (j->depth > MAX_JSON_DEPTH) {
		j->too_deep = 1;
		return 0; /* yajl stops here; the events before are kept */
	}
	if (!j->in_event) {
		if (j->depth == 1) {
			j->top_is_map = !is_array;
			if (is_array)
				j->ev_array_depth = 1;
		} else if (j->depth == 2 && j->top_is_map && j->top_key_events && is_array &&
			   !j->ev_array_depth) {
			j->ev_array_depth = 2;
		} else if (j->ev_array_depth && j->depth == j->ev_array_depth + 1 && !is_array) {
			j->in_event = 1;
			event_reset(j);
		}
		return 1;
	}
	if (j->skip_depth) {
		j->skip_depth++;
		return 1;
	}
	if (in_args(j)) {
		if (j->args_depth >= MAX_ARG_DEPTH) {
			j->skip_depth = 1;
			return 1;
		}
		arg_key_for_value(j);
		j->args_depth++;
		j->base_len[j->args_depth] = strlen(j->path);
		j->is_arr[j->args_depth] = is_array;
		j->arr_idx[j->args_depth] = 0;
		return 1;
	}
	if (j->id2_depth) {
		j->skip_depth = 1;
		return 1;
	}
	if (j->field == F_ARGS && !is_array) {
		j->args_depth = 1;
		j->path[0] = '\0';
		j->base_len[1] = 0;
		j->is_arr[1] = 0;
		return 1;
	}
	if (j->field == F_ID2 && !is_array) {
		j->id2_depth = 1;
		j->path[0] = 0;
		return 1;
	}
	j->skip_depth = 1;
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

static int event_done(struct json *j);

static int close_container(struct json *j)
{
	j->ncb++;
	j->depth--;
	if (!j->in_event) {
		if (j->ev_array_depth && j->depth < j->ev_array_depth)
			j->ev_array_depth = -1; /* events array closed: ignore later arrays */
		return 1;
	}
	if (j->skip_depth) {
		j->skip_depth--;
		return 1;
	}
	if (j->id2_depth) {
		j->id2_depth = 0;
		return 1;
	}
	if (in_args(j)) {
		j->args_depth--;
		if (j->args_depth)
			j->path[j->base_len[j->args_depth]] = '\0';
		return 1;
	}
	if (j->depth == j->ev_array_depth) {
		j->in_event = 0;
		return event_done(j);
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

static const char *targ_key(const struct json *j, const struct targ *a)
{
	return j->text.v + a->key;
}

static const char *targ_str(const struct json *j, const struct targ *a)
{
	return j->text.v + a->str;
}

static uint32_t event_thread(struct json *j)
{
	tt_storage *st = j->st;
	int64_t pid = j->ev.flags & EV_HAS_PID ? j->ev.pid : 0;
	int64_t tid = j->ev.flags & EV_HAS_TID ? j->ev.tid : pid;
	uint32_t utid;

	if (j->last_utid != TT_NONE && pid == j->last_pid && tid == j->last_tid &&
	    !j->ev.pid_str && !j->ev.tid_str)
		return j->last_utid;
	utid = tt_storage_thread(st, pid, tid);
	if (utid == TT_NONE)
		return TT_NONE;
	j->last_pid = pid;
	j->last_tid = tid;
	j->last_utid = utid;
	if (j->ev.pid_str) {
		uint32_t upid = tt_storage_process(st, pid);

		if (upid != TT_NONE && !st->process.name[upid])
			tt_storage_process_set_name(st, upid, tt_storage_intern_cstr(st, j->evtext + j->pidname_off));
	}
	if (j->ev.tid_str && !st->thread.name[utid])
		tt_storage_thread_set_name(st, utid, tt_storage_intern_cstr(st, j->evtext + j->tidname_off));
	return utid;
}

static void do_metadata(struct json *j, const char *name, uint32_t utid, uint32_t upid)
{
	tt_storage *st = j->st;

	for (size_t i = 0; i < j->targs.n; i++) {
		const struct targ *a = &j->targs.v[i];
		const char *k = targ_key(j, a);

		if (strcmp(name, "process_name") == 0 && strcmp(k, "name") == 0 && a->type == TT_ARG_STRING)
			tt_storage_process_set_name(st, upid, tt_storage_intern_cstr(st, targ_str(j, a)));
		else if (strcmp(name, "thread_name") == 0 && strcmp(k, "name") == 0 && a->type == TT_ARG_STRING)
			tt_storage_thread_set_name(st, utid, tt_storage_intern_cstr(st, targ_str(j, a)));
		else if (strcmp(name, "process_sort_index") == 0 && strcmp(k, "sort_index") == 0 && a->type == TT_ARG_INT)
			tt_storage_process_set_sort_index(st, upid, a->v.i);
		else if (strcmp(name, "thread_sort_index") == 0 && strcmp(k, "sort_index") == 0 && a->type == TT_ARG_INT)
			tt_storage_thread_set_sort_index(st, utid, a->v.i);
	}
}

static uint32_t build_args(struct json *j)
{
	tt_storage *st = j->st;

	if (!j->targs.n)
		return TT_NONE;
	tt_storage_args_begin(st);
	for (size_t i = 0; i < j->targs.n; i++) {
		const struct targ *a = &j->targs.v[i];
		const char *k = targ_key(j, a);

		switch (a->type) {
		case TT_ARG_INT: tt_storage_args_int(st, k, a->v.i); break;
		case TT_ARG_REAL: tt_storage_args_real(st, k, a->v.d); break;
		case TT_ARG_BOOL: tt_storage_args_bool(st, k, (int)a->v.i); break;
		case TT_ARG_STRING: tt_storage_args_str(st, k, targ_str(j, a), a->len); break;
		default: tt_storage_args_null(st, k); break;
		}
	}
	return tt_storage_args_end(st);
}

static int push_rec(struct json *j, struct rec *r)
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
	if (j->ev.flags & (EV_HAS_TTS | EV_HAS_TDUR)) {
		struct thread_time t = { r->seq, j->ev.flags & EV_HAS_TTS ? j->ev.tts : TT_TS_NONE,
					 j->ev.flags & EV_HAS_TDUR ? j->ev.tdur : TT_TS_NONE };

		if (TT_VEC_PUSH(j->ttimes, t))
			return -1;
	}
	return 0;
}

static int event_done(struct json *j)
{
	tt_storage *st = j->st;
	char ph = j->ev.ph;
	const char *name = j->has_name ? tt_storage_str(st, j->name_id) : "";
	struct rec r = { 0 };

	j->events++;
	if (!ph) {
		/* {} elements are tolerated (some writers end with one). */
		if (j->ev.flags || j->has_name)
			tt_storage_stat_add(st, TT_STAT_json_event_bad, 1);
		return 1;
	}
	if (!strchr("BEXiIRCMbenSTpFstf", ph)) {
		char what[32];

		snprintf(what, sizeof(what), "phase '%c'", (ph >= 0x20 && ph < 0x7f) ? ph : '?');
		tt_storage_stat_named(st, TT_STAT_json_phase_unknown, what, 1);
		return 1;
	}
	if (!(j->ev.flags & EV_HAS_TS) && ph != 'M') {
		tt_storage_stat_add(st, TT_STAT_json_event_bad, 1);
		return 1;
	}
	if (ph == 'M' && strncmp(name, "process_", 8) == 0) {
		/* process-level metadata: no thread to create */
		do_metadata(j, name, TT_NONE, tt_storage_process(st, j->ev.flags & EV_HAS_PID ? j->ev.pid : 0));
		return 1;
	}
	r.utid = event_thread(j);
	if (r.utid == TT_NONE)
		return oom(j);
	if (ph == 'M') {
		do_metadata(j, name, r.utid, tt_storage_thread_upid(st, r.utid));
		return 1;
	}
	r.ts = j->ev.ts;
	r.ph = ph;
	r.scope = j->ev.s ? j->ev.s : 't';
	r.flags = j->ev.flags;
	r.id = j->ev.id;
	r.name = j->has_name ? j->name_id : 0;
	r.cat = j->has_cat ? j->cat_id : 0;
	r.args = TT_NONE;
	if (ph == 'C') {
		/* One record per numeric series; the record's name is the
		 * counter track's name. */
		char tname[600];

		for (size_t i = 0; i < j->targs.n; i++) {
			const struct targ *a = &j->targs.v[i];
			double v;
			char *end;

			if (a->type == TT_ARG_INT)
				v = (double)a->v.i;
			else if (a->type == TT_ARG_REAL)
				v = a->v.d;
			else if (a->type == TT_ARG_STRING && (v = strtod(targ_str(j, a), &end), *end == '\0' && a->len))
				;
			else {
				tt_storage_stat_add(st, TT_STAT_json_counter_bad_value, 1);
				continue;
			}
			if (j->ev.flags & EV_HAS_ID)
				snprintf(tname, sizeof(tname), "%s %llu %s", name,
					 (unsigned long long)j->ev.id, targ_key(j, a));
			else
				snprintf(tname, sizeof(tname), "%s %s", name, targ_key(j, a));
			r.name = tt_storage_intern_cstr(st, tname);
			r.u.value = v;
			if (push_rec(j, &r))
				return oom(j);
		}
		return 1;
	}
	if (ph == 'X') {
		if (!(j->ev.flags & EV_HAS_DUR)) {
			tt_storage_stat_add(st, TT_STAT_json_x_no_dur, 1);
			return 1;
		}
		if (j->ev.dur < 0) {
			tt_storage_stat_add(st, TT_STAT_json_x_negative_dur, 1);
			return 1;
		}
	}
	r.u.dur = j->ev.flags & EV_HAS_DUR ? j->ev.dur : 0;
	if (j->ev.flags & EV_HAS_BIND)
		r.id = j->ev.bind_id;
	if (j->has_scope && (ph == 'b' || ph == 'e' || ph == 'n' || ph == 's' || ph == 't' || ph == 'f'))
		r.id ^= hash_text(j->evtext + j->scope_off, strlen(j->evtext + j->scope_off));
	r.args = build_args(j);
	if (push_rec(j, &r))
		return oom(j);
	return 1;
}

/* ---- sorting ---------------------------------------------------------------------- */

static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_x_dur(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->u.dur != y->u.dur)
		return x->u.dur > y->u.dur ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sorts by (ts, file order), then, among the X events of one timestamp,
 * puts the longer first in the places the X events hold: a total order,
 * so parents precede their children without disturbing B/E pairs. */
static int sort_recs(struct json *j)
{
	struct rec *v = j->recs.v, *tmp = NULL;
	size_t n = j->recs.n, tcap = 0;

	if (!j->recs_unsorted)
		return 0; /* already in time order, as most writers emit it */
	qsort(v, n, sizeof(*v), cmp_rec);
	for (size_t i = 0; i < n;) {
		size_t e = i, nx = 0, k = 0;

		while (e < n && v[e].ts == v[i].ts) {
			nx += v[e].ph == 'X';
			e++;
		}
		if (nx > 1) {
			if (tt_vec_reserve((void **)&tmp, &tcap, nx, sizeof(*tmp)))
				return -1;
			for (size_t q = i; q < e; q++)
				if (v[q].ph == 'X')
					tmp[k++] = v[q];
			qsort(tmp, nx, sizeof(*tmp), cmp_x_dur);
			k = 0;
			for (size_t q = i; q < e; q++)
				if (v[q].ph == 'X')
					v[q] = tmp[k++];
		}
		i = e;
	}
	free(tmp);
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
};

static uint32_t async_track(struct json *j, const struct rec *r, int legacy)
{
	tt_storage *st = j->st;
	uint32_t upid = tt_storage_thread_upid(st, r->utid);
	int global = r->flags & EV_ID_GLOBAL;
	tt_track_desc d = { .type = global ? "global" : "process", .name = r->name,
			    .utid = TT_NONE, .upid = global ? TT_NONE : upid,
			    .parent_id = TT_NONE, .cpu = -1 };

	if (legacy)
		return tt_storage_track_keyed(st, "json-legacy-async", global ? TT_NONE : upid,
					      r->name, r->id, &d);
	return tt_storage_track_keyed(st, "json-async", global ? TT_NONE : upid, r->cat, r->id, &d);
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
		track = async_track(j, r, r->ph == 'S');
		tt_slice_tracker_begin(sl, track, r->ts, r->cat, r->name, r->args);
		break;
	case 'e': case 'F':
		track = async_track(j, r, r->ph == 'F');
		if (tt_slice_tracker_enclosing(sl, track, r->ts) < 0)
			tt_storage_stat_add(st, TT_STAT_async_unmatched, 1);
		else
			tt_slice_tracker_end(sl, track, r->ts, r->ph == 'e' ? r->name : 0, r->args);
		break;
	case 'n': case 'T': case 'p':
		track = async_track(j, r, r->ph != 'n');
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

	if (sort_recs(j))
		return -1;
	for (size_t i = 0; i < j->recs.n; i++) {
		feed_one(&f, &j->recs.v[i]);
		if ((i & 0xffff) == 0 && tt_import_cancelled(j->im))
			break;
	}
	tt_keymap_free(&f.flows);
	tt_keymap_free(&f.pending);
	return j->oom || tt_storage_oom(j->st) ? -1 : 0;
}

/* ---- entry point ------------------------------------------------------------------- */

static void json_free(struct json *j)
{
	if (j->yh)
		yajl_free(j->yh);
	TT_VEC_FREE(j->targs);
	TT_VEC_FREE(j->text);
	TT_VEC_FREE(j->recs);
	TT_VEC_FREE(j->last_x);
	TT_VEC_FREE(j->ttimes);
	free(j);
}

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
	for (char *p = buf; *p; p++)
		*p = (char)tolower((unsigned char)*p);
}

int tt_import_json(tt_import *im, tt_bytesrc *src)
{
	struct json *j = calloc(1, sizeof(*j));
	unsigned char *buf = malloc(CHUNK);
	uint64_t offset = 0;
	yajl_status ys = yajl_status_ok;
	char msg[160];
	int rc = TT_OK, truncated = 0, too_long = 0;
	uint64_t idle = 0, ncb_before = 0;

	if (!j || !buf) {
		free(buf);
		free(j);
		return tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path);
	}
	j->im = im;
	j->st = im->st;
	j->last_utid = TT_NONE;
	j->yh = yajl_alloc(&callbacks, NULL, j);
	if (!j->yh) {
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path);
		goto done;
	}
	/* Names from other machines may hold invalid UTF-8: keep them. */
	yajl_config(j->yh, yajl_dont_validate_strings, 1);
	for (;;) {
		long n = tt_bytesrc_read(src, buf, CHUNK, im->err);

		if (n < 0) {
			/* corrupt gzip: keep what came before if it was a trace */
			if (j->events == 0) {
				rc = im->err->code;
				goto done;
			}
			tt_err_clear(im->err);
			truncated = 1;
			break;
		}
		if (n == 0)
			break;
		ys = yajl_parse(j->yh, buf, (size_t)n);
		if (ys != yajl_status_ok) {
			offset += yajl_get_bytes_consumed(j->yh);
			break;
		}
		offset += (uint64_t)n;
		/* No callback for MAX_TOKEN bytes: one token that long is being
		 * buffered by yajl. Stop there; the events before it are kept.
		 * (Counting callbacks costs nothing per byte.) */
		idle = j->ncb == ncb_before ? idle + (uint64_t)n : 0;
		ncb_before = j->ncb;
		if (idle > MAX_TOKEN) {
			too_long = 1;
			ys = yajl_status_error;
			break;
		}
		tt_import_progress(im, tt_bytesrc_file_offset(src), j->events);
		if (tt_import_cancelled(im)) {
			rc = tt_err_set(im->err, TT_ECANCEL, "%s: import cancelled", im->path);
			goto done;
		}
	}
	if (j->oom) {
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory at byte %llu", im->path,
				(unsigned long long)offset);
		goto done;
	}
	if (ys == yajl_status_ok && !truncated) {
		ys = yajl_complete_parse(j->yh);
		if (ys != yajl_status_ok)
			truncated = 1;
	} else if (ys != yajl_status_ok) {
		if (too_long)
			snprintf(msg, sizeof(msg), "a string or number longer than %u MiB",
				 MAX_TOKEN >> 20);
		else if (j->too_deep)
			snprintf(msg, sizeof(msg), "containers nested deeper than %d levels",
				 MAX_JSON_DEPTH);
		else
			yajl_message(j->yh, msg, sizeof(msg));
		if (j->events == 0 && j->recs.n == 0) {
			rc = tt_err_set(im->err, TT_EINVAL, "%s: not valid JSON at byte %llu: %s",
					im->path, (unsigned long long)offset, msg);
			goto done;
		}
		tt_storage_stat_add(im->st, TT_STAT_json_parse_error, 1);
		snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg), " at byte %llu",
			 (unsigned long long)offset);
		tt_storage_meta_str(im->st, "import_warning", msg);
	}
	if (truncated) {
		if (j->ev_array_depth <= 0 && j->events == 0) {
			rc = tt_err_set(im->err, TT_EINVAL, "%s: JSON text ends early at byte %llu, before any trace event",
					im->path, (unsigned long long)offset);
			goto done;
		}
		if (j->ev_array_depth > 0) {
			/* inside the event array: a crashed writer or a cut file */
			tt_storage_stat_add(im->st, TT_STAT_json_truncated, 1);
			snprintf(msg, sizeof(msg), "json text ends inside the event array at byte %llu",
				 (unsigned long long)offset);
			tt_storage_meta_str(im->st, "import_warning", msg);
		}
	}
	if (j->ev_array_depth == 0 && j->events == 0) {
		rc = tt_err_set(im->err, TT_EINVAL,
				"%s: JSON but not a trace (no traceEvents array or event list)", im->path);
		goto done;
	}
	tt_storage_meta_str(im->st, "trace_type", "json");
	tt_storage_meta_int(im->st, "json_events", (int64_t)j->events);
	if (feed_all(j))
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", im->path);
	tt_import_progress(im, tt_bytesrc_file_offset(src), j->events);
done:
	free(buf);
	json_free(j);
	return rc;
}
