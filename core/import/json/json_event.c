/* json_event.c - see import_json.c for the importer as a whole. */
#include "json_int.h"

/* ---- one event: metadata now, the rest as a record --------------------------- */

static const char *btext(const struct batch *b, uint32_t off)
{
	return b->text.v + off;
}

/* An arg's key without its "args." */
static const char *arg_key(const struct batch *b, const struct targ *a)
{
	return b->text.v + a->key + ARGS_PREFIX_LEN;
}

/* trace processor's record of an event its parser drops: the stat and an
 * import log (ts; args event_name, event_phase). */
static void event_error(struct json *j, const struct pev *e, const char *name, tt_stat stat)
{
	tt_storage *st = j->st;
	char ph[2] = { e->ph, 0 };

	tt_storage_stat_add(st, stat, 1);
	tt_storage_args_begin(st);
	tt_storage_args_str(st, "event_name", e->name_len ? name : NULL, e->name_len);
	tt_storage_args_str(st, "event_phase", ph, 1);
	tt_storage_import_log(st, stat, e->flags & EV_HAS_TS ? e->ts : 0, tt_args_tracker_end(j->im->args));
}

/* trace processor's reading of a pid or tid number: cut to 32 bits, 0
 * when negative or too large. */
static uint32_t coerce_u32(int64_t v)
{
	return v < 0 || v > (int64_t)UINT32_MAX ? 0 : (uint32_t)v;
}

/* The event's thread key (struct tkey), made when first seen; TT_NONE
 * when out of memory. */
static uint32_t event_key(struct json *j, const struct batch *b, const struct pev *e)
{
	tt_storage *st = j->st;
	int pstr = (e->flags & EV_HAS_PID) && (e->flags & EV_PID_STR);
	int tstr = (e->flags & EV_HAS_TID) && (e->flags & EV_TID_STR);
	struct tkey k = { e->flags & EV_HAS_PID ? (pstr ? (uint32_t)e->pid : coerce_u32(e->pid)) : 0,
			  e->flags & EV_HAS_TID ? (tstr ? (uint32_t)e->tid : coerce_u32(e->tid)) : 0, 0, 0,
			  TT_NONE };
	uint64_t ka, kb;
	uint32_t key;

	/* (trace processor: a tid of 0 is the pid's, unless it is a name) */
	if (k.tid == 0 && k.pid != 0 && !tstr)
		k.tid = k.pid;
	ka = k.pid | (uint64_t)pstr << 32;
	kb = k.tid | (uint64_t)tstr << 32;
	if (j->last_key != TT_NONE && ka == j->last_ka && kb == j->last_kb)
		return j->last_key;
	key = tt_keymap_get(&j->tkeymap, ka, kb, 0, 0);
	if (key == TT_KEYMAP_NONE) {
		if (pstr)
			k.pidname = tt_storage_intern_cstr(st, btext(b, e->pidname));
		if (tstr)
			k.tidname = tt_storage_intern_cstr(st, btext(b, e->tidname));
		key = (uint32_t)j->tkeys.n;
		if (TT_VEC_PUSH(j->tkeys, k) || tt_keymap_put(&j->tkeymap, ka, kb, 0, 0, key))
			return TT_NONE;
	}
	j->last_ka = ka;
	j->last_kb = kb;
	j->last_key = key;
	return key;
}

/* Metadata (M) events become records (r->scope: 'p' process_name, 't'
 * thread_name, 'P' process_sort_index, 'T' thread_sort_index, 0 other;
 * r->id 1 when the value r->name / r->u.i is there), applied in
 * timestamp order as trace processor's parser does (no ts: 0). It reads
 * the top-level "name" of a process_name / thread_name event (a string
 * that is not empty: else a parser failure) and the "sort_index" of a
 * *_sort_index one (an integer, or a number it cuts to one: else a
 * parser failure; kept as a 32-bit int); other names and keys it passes
 * over. Of two values the last is the one that stays. */
static void metadata_record(struct json *j, const struct batch *b, const struct pev *e, const char *name,
			    tt_event *r)
{
	tt_storage *st = j->st;
	int pname = strcmp(name, "process_name") == 0, tname = strcmp(name, "thread_name") == 0;
	int psort = strcmp(name, "process_sort_index") == 0, tsort = strcmp(name, "thread_sort_index") == 0;

	r->kind = 'M';
	r->scope = pname ? 'p' : tname ? 't' : psort ? 'P' : tsort ? 'T' : 0;
	r->id = 0;
	r->name = 0;
	r->args = TT_NONE;
	r->ts = e->flags & EV_HAS_TS ? e->ts : 0;
	for (uint32_t i = 0; i < e->nargs && r->scope; i++) {
		const struct targ *a = &b->args.v[e->arg0 + i];
		const char *k = arg_key(b, a);

		if (a->nested)
			continue;
		if ((pname || tname) && strcmp(k, "name") == 0) {
			if (a->type != TT_ARG_STRING || a->len == 0) {
				event_error(j, e, name, TT_STAT_json_parser_failure);
				continue;
			}
			r->name = tt_storage_intern(st, btext(b, a->str), a->len);
			r->id = 1;
		} else if ((psort || tsort) && strcmp(k, "sort_index") == 0) {
			if (a->type == TT_ARG_INT)
				r->u.i = a->v.i;
			else if (a->type == TT_ARG_REAL && isfinite(a->v.d) && fabs(a->v.d) < 9.2e18)
				r->u.i = (int64_t)a->v.d;
			else {
				event_error(j, e, name, TT_STAT_json_parser_failure);
				continue;
			}
			/* (trace processor keeps it as a 32-bit int: the low bits) */
			r->u.i = (int32_t)(uint32_t)(uint64_t)r->u.i;
			r->id = 1;
		}
	}
}

static uint32_t build_args(struct json *j, const struct batch *b, const struct pev *e)
{
	tt_storage *st = j->st;

	if (!e->nargs)
		return TT_NONE;
	/* trace processor keys an event's args "args.<path>" (as the
	 * parser wrote them) and leaves nulls out */
	tt_storage_args_begin(st);
	for (uint32_t i = 0; i < e->nargs; i++) {
		const struct targ *a = &b->args.v[e->arg0 + i];
		const char *k = btext(b, a->key);

		switch (a->type) {
		case TT_ARG_INT: tt_storage_args_int(st, k, a->v.i); break;
		case TT_ARG_REAL: tt_storage_args_real(st, k, a->v.d); break;
		case TT_ARG_BOOL: tt_storage_args_bool(st, k, (int)a->v.i); break;
		case TT_ARG_STRING: tt_storage_args_str(st, k, btext(b, a->str), a->len); break;
		default: break;
		}
	}
	return tt_args_tracker_end(j->im->args);
}

static int push_rec(struct json *j, const struct pev *e, tt_event *r)
{
	int64_t ord;

	if (j->nrecs && r->ts < j->last_ts)
		j->recs_unsorted = 1;
	j->last_ts = r->ts;
	if (r->kind == 'X' && !j->recs_unsorted) {
		/* X events of one thread at one ts must come longest first */
		if (r->track >= j->last_x.n) {
			size_t old = j->last_x.n;

			if (tt_vec_reserve((void **)&j->last_x.v, &j->last_x.cap, r->track + 1,
					   sizeof(*j->last_x.v)))
				return -1;
			for (size_t k = old; k <= r->track; k++)
				j->last_x.v[k] = (struct last_x){ INT64_MIN, 0 };
			j->last_x.n = r->track + 1;
		}
		if (j->last_x.v[r->track].ts == r->ts && r->u.i > j->last_x.v[r->track].dur)
			j->recs_unsorted = 1;
		j->last_x.v[r->track] = (struct last_x){ r->ts, r->u.i };
	}
	ord = tt_sorter_push(j->sorter, j->stream, r);
	if (ord < 0)
		return -1; /* never late: the sorter is a full one */
	j->nrecs++;
	if (e->flags & (EV_HAS_TTS | EV_HAS_TDUR)) {
		struct thread_time t = { (uint32_t)ord, e->flags & EV_HAS_TTS ? e->tts : TT_TS_NONE,
					 e->flags & EV_HAS_TDUR ? e->tdur : TT_TS_NONE };

		if (TT_VEC_PUSH(j->ttimes, t))
			return -1;
	}
	return 0;
}

/* The id of a v1 flow event (s, t, f), as trace processor reads it: the
 * "id" key's number, or its string as a hex number ("0x1f", "1f"); 0, or
 * -1 when there is none (flow_invalid_id). */
static int flow_v1_id(const struct batch *b, const struct pev *e, uint64_t *id)
{
	const char *s;
	char *end;

	if (!(e->flags & EV_PLAIN_ID))
		return -1;
	if (!(e->flags & EV_ID_STR)) {
		*id = e->id;
		return 0;
	}
	s = btext(b, e->idstr);
	if (!*s)
		return -1;
	*id = strtoull(s, &end, 16); /* (out of range: the largest, as there) */
	return *end ? -1 : 0;
}

/* A counter event: one record per top-level numeric member of args (a
 * number, or a string that is one), named as trace processor names its
 * counter track: "<name> <member>", "<name> id: <id> <member>" when the
 * id is a string (a numeric id is not in the name). Other members (a
 * bool, null, an object, an array) and no args at all are parser
 * failures there. Returns the records made, or -1. */
static int counter_event(struct json *j, const struct batch *b, const struct pev *e, tt_event *r,
			 const char *name)
{
	tt_storage *st = j->st;

	int pushed = 0;

	if (!(e->flags & EV_HAS_ARGS)) {
		event_error(j, e, name, TT_STAT_json_parser_failure);
		return 0;
	}
	for (uint32_t i = 0; i < e->nargs; i++) {
		const struct targ *a = &b->args.v[e->arg0 + i];
		const char *key = arg_key(b, a);
		size_t nlen = strlen(name), klen = strlen(key), idlen = 0, n;
		double v;
		char *end;

		if (a->nested)
			continue; /* (its container counted once) */
		if (a->type == TT_ARG_INT)
			v = (double)a->v.i;
		else if (a->type == TT_ARG_REAL)
			v = a->v.d;
		else if (a->type == TT_ARG_STRING && (v = strtod(btext(b, a->str), &end), *end == '\0' && a->len))
			;
		else {
			event_error(j, e, name, TT_STAT_json_parser_failure);
			continue;
		}
		if (e->flags & EV_ID_STR)
			idlen = strlen(btext(b, e->idstr));
		n = nlen + (idlen ? 5 + idlen : 0) + 1 + klen;
		if (n + 1 > j->cname.cap && tt_vec_reserve((void **)&j->cname.v, &j->cname.cap, n + 1, 1))
			return -1;
		if (idlen)
			snprintf(j->cname.v, n + 1, "%s id: %s %s", name, btext(b, e->idstr), key);
		else
			snprintf(j->cname.v, n + 1, "%s %s", name, key);
		r->name = tt_storage_intern(st, j->cname.v, n);
		r->u.d = v;
		if (push_rec(j, e, r))
			return -1;
		pushed++;
	}
	return pushed;
}

/* The phases trace processor's JSON parser imports. It drops the others
 * without a word, the legacy async S, T (step), p and F among them: T is
 * a thread state there (below), and the rest come to no slice. 'P' (V8
 * CPU profile samples) its tokenizer reads into a profile termtrace does
 * not keep. termtrace counts them all as json_phase_unknown (info), with
 * the phase in stats_detail. */
static int phase_imported(char ph)
{
	switch (ph) {
	case 'B': case 'E': case 'X': case 'i': case 'I': case 'R': case 'C': case 'M':
	case 'b': case 'e': case 'n': case 'T': case 's': case 't': case 'f':
		return 1;
	default:
		return 0;
	}
}

/* An event trace processor drops after making its thread: a record that
 * makes the thread when it is fed, in its place in ts order. */
static int thread_only(struct json *j, const struct pev *e, tt_event *r)
{
	r->kind = e->ph == 's' || e->ph == 't' || e->ph == 'f' ? REC_THREAD_TRACK : REC_THREAD_ONLY;
	r->ts = e->flags & EV_HAS_TS ? e->ts : 0;
	r->args = TT_NONE;
	r->flags = 0;
	return push_rec(j, e, r);
}

/* One parsed event into storage; -1 when out of memory. */
static int event_done(struct json *j, const struct batch *b, const struct pev *e)
{
	tt_storage *st = j->st;
	char ph = e->ph;
	const char *name = e->flags & EV_HAS_NAME ? btext(b, e->name) : "";
	tt_event r = { 0 };

	if (e->flags & EV_SYSTRACE)
		return tt_json_systrace_lines(j, b, e);

	/* the tokenizer's refusals (json_tokerr.c logs them): a bad time
	 * field as soon as it is read, then no ph (an empty {} is
	 * tolerated: some writers end with one), then no ts (before the
	 * phase is looked at) */
	if ((e->flags & EV_BAD_TIME) || (!ph && (e->flags & EV_SAW_FIELD)) ||
	    (ph && !(e->flags & EV_HAS_TS) && ph != 'M')) {
		tt_storage_stat_add(st, TT_STAT_json_tokenizer_failure, 1);
		tt_json_tokerr_log(j, b, e);
		return 0;
	}
	if (!ph)
		return 0;
	if (ph == 'P') {
		/* trace processor's tokenizer keeps it for a V8 profile (no
		 * thread); termtrace does not keep one */
		tt_storage_stat_named(st, TT_STAT_json_phase_unknown, "phase 'P'", 1);
		return 0;
	}
	/* trace processor makes the thread of every event its parser sees
	 * (metadata, failures and phases it drops included) */
	r.track = event_key(j, b, e);
	if (r.track == TT_NONE)
		return -1;
	if (!phase_imported(ph)) {
		char what[32];

		snprintf(what, sizeof(what), "phase '%c'", (ph >= 0x20 && ph < 0x7f) ? ph : '?');
		tt_storage_stat_named(st, TT_STAT_json_phase_unknown, what, 1);
		return thread_only(j, e, &r);
	}
	if (ph == 'M') {
		metadata_record(j, b, e, name, &r);
		return push_rec(j, e, &r);
	}
	r.ts = e->ts;
	r.kind = ph;
	r.scope = e->s ? e->s : 't';
	r.flags = (uint16_t)(e->flags & EV_REC_FLAGS);
	r.id = e->id;
	/* trace processor: an empty name or category is none; a slice
	 * (B, X, b, a thread's instant) or a thread state without a name is
	 * "[No name]" */
	r.name = e->name_len ? tt_storage_intern(st, name, e->name_len) : 0;
	r.cat = e->cat_len ? tt_storage_intern(st, btext(b, e->cat), e->cat_len) : 0;
	if (ph == 'i' || ph == 'I' || ph == 'R') {
		/* trace processor: a process instant needs a pid, a thread's
		 * (the default) a tid */
		int need = r.scope == 'g' ? 0 : r.scope == 'p' ? EV_HAS_PID : EV_HAS_TID;

		if ((e->flags & need) != (uint32_t)need) {
			event_error(j, e, name, TT_STAT_json_parser_failure);
			return thread_only(j, e, &r);
		}
	}
	if (!r.name && (ph == 'B' || ph == 'X' || ph == 'b' || ph == 'T' ||
			((ph == 'i' || ph == 'I' || ph == 'R') && r.scope != 'g' && r.scope != 'p'))) {
		if (!j->s_no_name)
			j->s_no_name = tt_storage_intern_cstr(st, "[No name]");
		r.name = j->s_no_name;
	}
	r.args = TT_NONE;
	if (ph == 'C') {
		int n = counter_event(j, b, e, &r, name);

		return n < 0 ? -1 : n == 0 ? thread_only(j, e, &r) : 0;
	}
	if (ph == 'T') {
		/* trace processor's thread state event: the name is the state;
		 * args cpu, io_wait, blocked_function are columns, not args
		 * (the record carries them: id = cpu, args = io_wait, cat =
		 * blocked_function; scope 'w' when io_wait is given: any
		 * uint32 is one). Only a missing dur refuses it (a negative
		 * one is the row's dur); integer cpu and io_wait are read as
		 * uint32 (-1: 4294967295), as there. */
		if (!(e->flags & EV_HAS_DUR)) {
			event_error(j, e, name, TT_STAT_json_parser_failure);
			return thread_only(j, e, &r);
		}
		r.u.i = e->dur;
		r.id = UINT64_MAX;
		r.cat = 0;
		for (uint32_t i = 0; i < e->nargs; i++) {
			const struct targ *a = &b->args.v[e->arg0 + i];
			const char *k = arg_key(b, a);

			if (strcmp(k, "cpu") == 0 && a->type == TT_ARG_INT) {
				r.id = (uint32_t)a->v.i;
			} else if (strcmp(k, "io_wait") == 0 && a->type == TT_ARG_INT) {
				r.args = (uint32_t)a->v.i;
				r.scope = 'w';
			}
			else if (strcmp(k, "blocked_function") == 0 && a->type == TT_ARG_STRING)
				r.cat = tt_storage_intern(st, btext(b, a->str), a->len);
		}
		return push_rec(j, e, &r);
	}
	if (ph == 'X' && !(e->flags & EV_HAS_DUR)) {
		event_error(j, e, name, TT_STAT_json_parser_failure);
		return thread_only(j, e, &r);
	}
	if ((ph == 'b' || ph == 'e' || ph == 'n') &&
	    (e->flags & (EV_HAS_ID | EV_HAS_PID)) != (EV_HAS_ID | EV_HAS_PID)) {
		/* trace processor: no async slice without a pid and an id
		 * (id, id2.global or id2.local) */
		event_error(j, e, name, TT_STAT_json_parser_failure);
		return thread_only(j, e, &r);
	}
	if ((ph == 's' || ph == 't' || ph == 'f') && flow_v1_id(b, e, &r.id) != 0) {
		/* (trace processor has made the thread's track by then) */
		event_error(j, e, name, TT_STAT_flow_invalid_id);
		return thread_only(j, e, &r);
	}
	r.u.i = e->flags & EV_HAS_DUR ? e->dur : 0;
	/* v2 flows (flow_in / flow_out) go by bind_id alone (trace
	 * processor: an id does not make one); on B and X it is the
	 * record's id, on b and n (whose id is the async one) its u.i. A
	 * bind_id with neither direction is no flow. */
	if (!(e->flags & EV_HAS_BIND))
		r.flags &= (uint16_t)~(EV_FLOW_IN | EV_FLOW_OUT);
	else if (ph == 'e')
		;
	else if (!(e->flags & (EV_FLOW_IN | EV_FLOW_OUT)))
		event_error(j, e, name, TT_STAT_flow_without_direction);
	else if (ph == 'b' || ph == 'n')
		r.u.i = (int64_t)e->bind_id;
	else if (ph == 'B' || ph == 'X')
		r.id = e->bind_id;
	/* (trace processor keys async ids and v1 flows without "scope") */
	r.args = build_args(j, b, e);
	return push_rec(j, e, &r);
}

/* Every event of a batch, in order; non-zero when the import must stop
 * (out of memory, or the caller cancelled). */
int tt_json_consume_batch(struct json *j, const struct batch *b)
{
	for (size_t i = 0; i < b->ev.n; i++) {
		if (event_done(j, b, &b->ev.v[i])) {
			if (!j->bad[0])
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
