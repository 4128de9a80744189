/* json_parse.c - see import_json.c for the importer as a whole. */
#include "json_int.h"

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
	if (tt_json_text_put(b, p->path, p->path_len, &a.key))
		return -1;
	if (s && tt_json_text_put(b, s, len, &a.str))
		return -1;
	a.len = (uint32_t)len;
	a.nested = p->args_depth > 1;
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

/* A scalar field of the top-level metadata object (str NULL: an int). */
static int meta_add(struct jparse *p, const char *str, size_t len, int64_t i)
{
	struct json *j = p->j;
	struct json_meta m = { 0 };

	m.key = strdup(p->meta_key);
	m.str = str ? strndup(str, len) : NULL;
	m.i = i;
	m.at = p->base + yajl_get_bytes_consumed(p->yh);
	if (!m.key || (str && !m.str) || TT_VEC_PUSH(j->meta, m)) {
		free(m.key);
		free(m.str);
		return tt_json_parse_oom(p);
	}
	return 1;
}

static int meta_here(const struct jparse *p)
{
	return !p->in_event && p->in_meta && p->depth == 2;
}

/* A ts, dur, tts or tdur whose value is of JSON type t (trace
 * processor's variant index: null 0, bool 1, object 5, array 6), not a
 * timestamp: its error, as trace processor's tokenizer logs it. A bad
 * dur, tts or tdur drops the event. */
static void time_bad(struct jparse *p, int t)
{
	int time = p->field == F_DUR || p->field == F_TTS || p->field == F_TDUR;

	if (!time && p->field != F_TS)
		return;
	tt_json_tokerr_type(p, t);
	if (time)
		p->ev.flags |= EV_BAD_TIME;
}

/* A top-level systemTraceEvents value that is not a string: trace
 * processor refuses the trace there; yajl stops (the events before are
 * kept, as at any JSON error). */
static int systrace_value(struct jparse *p)
{
	if (p->in_event || !p->top_key_systrace || p->depth != 1 || !p->top_is_map)
		return 1;
	p->systrace_not_string = 1;
	return 0;
}

static int cb_null(void *ctx)
{
	struct jparse *p = ctx;

	p->ncb++;
	if (!systrace_value(p))
		return 0;

	if (p->skip_depth || !p->in_event)
		return 1;
	if (in_args(p))
		return arg_add(p, TT_ARG_NULL, NULL, 0, 0, 0) ? tt_json_parse_oom(p) : 1;
	if (!p->id2_depth)
		time_bad(p, 0);
	return p->oom ? 0 : 1;
}

static int cb_bool(void *ctx, int b)
{
	struct jparse *p = ctx;

	p->ncb++;
	if (!systrace_value(p))
		return 0;

	if (meta_here(p))
		return meta_add(p, NULL, 0, b ? 1 : 0);
	if (p->skip_depth || !p->in_event)
		return 1;
	if (in_args(p))
		return arg_add(p, TT_ARG_BOOL, NULL, 0, b, 0) ? tt_json_parse_oom(p) : 1;
	if (!p->id2_depth)
		time_bad(p, 1);
	if (p->oom)
		return 0;
	/* (the last value read counts, false too) */
	if (p->field == F_FLOW_IN)
		p->ev.flags = b ? p->ev.flags | EV_FLOW_IN : p->ev.flags & ~(uint32_t)EV_FLOW_IN;
	else if (p->field == F_FLOW_OUT)
		p->ev.flags = b ? p->ev.flags | EV_FLOW_OUT : p->ev.flags & ~(uint32_t)EV_FLOW_OUT;
	return 1;
}

/* local: an id2.local id (process scoped); plain ids and id2.global ones
 * are global, as trace processor has them. An id is what trace processor
 * keys it by: a string by its text (\"1\" is not 1), a number when it is
 * an integer (else no id). 0 when there is none. */
static int set_id_text(struct jparse *p, const char *s, size_t len, int local, int is_string)
{
	int64_t v;

	if (is_string)
		p->ev.id = tt_json_hash_text(s, len);
	else if (tt_json_parse_int_text(s, len, &v) == 0)
		p->ev.id = (uint64_t)v;
	else
		return 0;
	p->ev.flags |= EV_HAS_ID;
	if (local)
		p->ev.flags |= EV_ID_LOCAL;
	else
		p->ev.flags &= ~(uint32_t)EV_ID_LOCAL;
	return 1;
}

/* pid/tid given as a string that is not a number: a stable synthetic
 * number, and the text names the process/thread. */
static int id_name(struct jparse *p, const char *s, size_t len, int64_t *v, uint32_t *name)
{
	*v = (int64_t)(tt_json_hash_text(s, len) & 0x3fffffff) + 0x40000000;
	return tt_json_text_put(p->b, s, len, name);
}

/* A pid or tid number: an integer, or a number with a fraction or an
 * exponent cut to one (trace processor's reading); out of range, -1 (no
 * thread number: json_event.c makes it 0, as there). */
static int64_t pid_number(const char *s, size_t len)
{
	char buf[64];
	int64_t v;
	double d;

	if (tt_json_parse_int_text(s, len, &v) == 0)
		return v;
	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	d = strtod(buf, NULL);
	return isfinite(d) && d > -1e18 && d < 1e18 ? (int64_t)d : -1;
}

static int event_number(struct jparse *p, const char *s, size_t len, int is_string)
{
	struct pev *e = &p->ev;

	switch (p->field) {
	/* (trace processor's tokenizer drops an event whose dur, tts or
	 * tdur is not a number: EV_BAD_TIME; a string is read as a JSON
	 * number, with its error) */
	case F_TS:
	case F_DUR:
	case F_TTS:
	case F_TDUR: {
		int64_t *v = p->field == F_TS ? &e->ts : p->field == F_DUR ? &e->dur :
			     p->field == F_TTS ? &e->tts : &e->tdur;

		if ((is_string ? tt_json_tokerr_time_string(p, s, len, v) : tt_json_us_text_to_ns(s, len, v)) == 0)
			e->flags |= p->field == F_TS ? EV_HAS_TS : p->field == F_DUR ? EV_HAS_DUR :
				    p->field == F_TTS ? EV_HAS_TTS : EV_HAS_TDUR;
		else if (p->field != F_TS)
			e->flags |= EV_BAD_TIME;
		break;
	}
	case F_PID:
		/* trace processor: a string (even "12") names the process */
		if (is_string) {
			if (id_name(p, s, len, &e->pid, &e->pidname))
				return tt_json_parse_oom(p);
			e->flags |= EV_PID_STR;
		} else {
			e->pid = pid_number(s, len);
			e->flags &= ~(uint32_t)EV_PID_STR;
		}
		e->flags |= EV_HAS_PID;
		break;
	case F_TID:
		if (is_string) {
			if (id_name(p, s, len, &e->tid, &e->tidname))
				return tt_json_parse_oom(p);
			e->flags |= EV_TID_STR;
		} else {
			e->tid = pid_number(s, len);
			e->flags &= ~(uint32_t)EV_TID_STR;
		}
		e->flags |= EV_HAS_TID;
		break;
	case F_ID:
		if (!set_id_text(p, s, len, 0, is_string))
			break;
		e->flags |= EV_PLAIN_ID;
		e->flags &= ~(uint32_t)EV_ID_STR;
		if (is_string) {
			if (tt_json_text_put(p->b, s, len, &e->idstr))
				return tt_json_parse_oom(p);
			e->flags |= EV_ID_STR;
		}
		break;
	case F_BIND_ID: {
		/* trace processor: a number, or a string read as hex; else no
		 * v2 flow */
		char buf[32], *end;

		e->flags &= ~(uint32_t)EV_HAS_BIND;
		if (!is_string) {
			int64_t v;

			if (tt_json_parse_int_text(s, len, &v) == 0) {
				e->bind_id = (uint64_t)v;
				e->flags |= EV_HAS_BIND;
			}
		} else if (len > 0 && len < sizeof(buf)) {
			memcpy(buf, s, len);
			buf[len] = '\0';
			e->bind_id = strtoull(buf, &end, 16);
			if (!*end)
				e->flags |= EV_HAS_BIND;
		}
		break;
	}
	default:
		break;
	}
	return p->oom ? 0 : 1;
}

/* A value in id2: trace processor reads only its "global" and "local"
 * keys (global first; no cookie, so no async slice, without either), and
 * a plain "id" (before or after) before either. */
static void id2_value(struct jparse *p, const char *s, size_t len, int is_string)
{
	if (p->id2_global < 0 || (p->ev.flags & EV_PLAIN_ID))
		return;
	if (!p->id2_global && (p->ev.flags & EV_HAS_ID) && !(p->ev.flags & EV_ID_LOCAL))
		return;
	set_id_text(p, s, len, !p->id2_global, is_string);
}

static int cb_number(void *ctx, const char *s, size_t len)
{
	struct jparse *p = ctx;

	p->ncb++;
	if (!systrace_value(p))
		return 0;

	if (meta_here(p)) {
		int64_t i;
		size_t k = 0;
		char buf[64];
		double d;

		while (k < len && s[k] != '.' && s[k] != 'e' && s[k] != 'E')
			k++;
		if (k == len && tt_json_parse_int_text(s, len, &i) == 0)
			return meta_add(p, NULL, 0, i);
		snprintf(buf, sizeof(buf), "%.*s", (int)(len < 63 ? len : 63), s);
		d = strtod(buf, NULL);
		if (d == trunc(d) && fabs(d) < 9.2e18)
			return meta_add(p, NULL, 0, (int64_t)d);
		snprintf(buf, sizeof(buf), "%g", d);
		return meta_add(p, buf, strlen(buf), 0);
	}
	if (p->skip_depth || !p->in_event)
		return 1;
	if (p->id2_depth) {
		id2_value(p, s, len, 0);
		return 1;
	}
	if (in_args(p)) {
		int64_t i;
		size_t k = 0;

		while (k < len && s[k] != '.' && s[k] != 'e' && s[k] != 'E')
			k++;
		if (k == len && tt_json_parse_int_text(s, len, &i) == 0)
			return arg_add(p, TT_ARG_INT, NULL, 0, i, 0) ? tt_json_parse_oom(p) : 1;
		{
			char buf[64];
			size_t n = len < sizeof(buf) - 1 ? len : sizeof(buf) - 1;

			memcpy(buf, s, n);
			buf[n] = '\0';
			return arg_add(p, TT_ARG_REAL, NULL, 0, 0, strtod(buf, NULL)) ? tt_json_parse_oom(p) : 1;
		}
	}
	return event_number(p, s, len, 0);
}

static int cb_string(void *ctx, const unsigned char *s, size_t len)
{
	struct jparse *p = ctx;
	const char *t;
	struct pev *e = &p->ev;

	p->ncb++;
	if (p->lenient.qh < p->lenient.qn &&
	    !(s = tt_json_lenient_unmap(&p->lenient, s, len, p->base + yajl_get_bytes_consumed(p->yh)))) {
		p->oom = 1;
		return 0;
	}
	t = (const char *)s;
	if (meta_here(p))
		return meta_add(p, t, len, 0);
	if (!p->in_event) {
		if (p->top_key_systrace && p->depth == 1 && p->top_is_map)
			return tt_json_systrace_put(p, t, len);
		if (p->top_key_unit && p->depth == 1 && p->top_is_map) {
			snprintf(p->unit, sizeof(p->unit), "%.*s", (int)(len < 16 ? len : 16), t);
			p->unit_at = p->base + yajl_get_bytes_consumed(p->yh);
		}
		return 1;
	}
	if (p->skip_depth)
		return 1;
	if (p->id2_depth) {
		id2_value(p, t, len, 1);
		return 1;
	}
	if (in_args(p))
		return arg_add(p, TT_ARG_STRING, t, len, 0, 0) ? tt_json_parse_oom(p) : 1;
	switch (p->field) {
	case F_NAME:
		if (tt_json_text_put(p->b, t, len, &e->name))
			return tt_json_parse_oom(p);
		e->name_len = (uint32_t)len;
		e->flags |= EV_HAS_NAME;
		break;
	case F_CAT:
		if (tt_json_text_put(p->b, t, len, &e->cat))
			return tt_json_parse_oom(p);
		e->cat_len = (uint32_t)len;
		e->flags |= EV_HAS_CAT;
		break;
	case F_SCOPE: /* (only seen: trace processor keys no id by it) */
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
	if (p->lenient.qh < p->lenient.qn &&
	    !(k = tt_json_lenient_unmap(&p->lenient, k, len, p->base + yajl_get_bytes_consumed(p->yh)))) {
		p->oom = 1;
		return 0;
	}

	if (!p->in_event) {
		if (p->depth == 1 && p->top_is_map) {
			p->top_key_events = len == 11 && memcmp(k, "traceEvents", 11) == 0;
			p->top_key_unit = len == 15 && memcmp(k, "displayTimeUnit", 15) == 0;
			p->top_key_meta = len == 8 && memcmp(k, "metadata", 8) == 0;
			p->top_key_systrace = len == 17 && memcmp(k, "systemTraceEvents", 17) == 0;
		} else if (p->in_meta && p->depth == 2) {
			size_t n = len < sizeof(p->meta_key) - 1 ? len : sizeof(p->meta_key) - 1;

			memcpy(p->meta_key, k, n);
			p->meta_key[n] = '\0';
		}
		return 1;
	}
	if (p->skip_depth)
		return 1;
	if (p->id2_depth) {
		p->id2_global = len == 6 && memcmp(k, "global", 6) == 0 ? 1 :
				len == 5 && memcmp(k, "local", 5) == 0 ? 0 : -1;
		return 1;
	}
	if (in_args(p)) {
		int d = p->args_depth;
		size_t b = p->base_len[d], n = len;

		if (b + 1 + n >= sizeof(p->path))
			n = sizeof(p->path) - b - 2;
		p->path[b++] = '.'; /* (after "args" at the top) */
		memcpy(p->path + b, k, n);
		p->path[b + n] = '\0';
		p->path_len = b + n;
		return 1;
	}
	p->field = field_of(k, len);
	p->ev.flags |= EV_SAW_FIELD;
	return 1;
}

static int open_container(struct jparse *p, int is_array)
{
	p->ncb++;
	if (!systrace_value(p))
		return 0;
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
		} else if (p->depth == 2 && p->top_is_map && p->top_key_meta && !is_array) {
			p->in_meta = 1;
		} else if (p->ev_array_depth && p->depth == p->ev_array_depth + 1 && !is_array) {
			p->in_event = 1;
			event_reset(p);
			p->ev_at = p->base + yajl_get_bytes_consumed(p->yh) - 1; /* ('{' just read) */
			p->carry.n = 0;
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
		if (p->args_depth == 1 && arg_add(p, TARG_CONTAINER, NULL, 0, 0, 0))
			return tt_json_parse_oom(p); /* (args is a map: no index to step) */
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
	time_bad(p, is_array ? 6 : 5);
	if (p->oom)
		return 0;
	if (p->field == F_ARGS && !is_array) {
		p->ev.flags |= EV_HAS_ARGS;
		p->args_depth = 1;
		memcpy(p->path, ARGS_PREFIX, sizeof(ARGS_PREFIX));
		p->path_len = ARGS_PREFIX_LEN - 1;
		p->base_len[1] = p->path_len;
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
	tt_json_tokerr_event_end(p);
	if (p->oom || TT_VEC_PUSH(b->ev, p->ev))
		return tt_json_parse_oom(p);
	/* (where the batch's events end: where chunks may be cut again) */
	p->last_close = p->base + yajl_get_bytes_consumed(p->yh);
	if (p->chunk_mode)
		return 1;
	if (b->ev.n >= BATCH_EVENTS || b->text.n >= BATCH_TEXT)
		return tt_json_batch_publish(p) == 0;
	return 1;
}

static int close_container(struct jparse *p)
{
	p->ncb++;
	p->depth--;
	if (!p->in_event) {
		if (p->depth < 2)
			p->in_meta = 0;
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

/* The event parser's callbacks; both the whole-file and the chunk parsers
 * allocate their yajl handles with them. */
const yajl_callbacks tt_json_callbacks = {
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
