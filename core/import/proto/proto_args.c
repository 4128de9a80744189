/*
 * proto_args.c - debug annotations and legacy args of a TrackEvent become one
 * arg set (keys as trace processor flattens them). See import_proto.c.
 */
#include "proto_int.h"

#include <yajl/yajl_tree.h>

/* ---- args ------------------------------------------------------------------ */

static size_t key_append(pctx *c, size_t klen, const char *sep, const char *s, size_t slen)
{
	size_t cap = sizeof(c->key) - 1, n = strlen(sep);

	/* (klen <= cap: each call leaves it so; said for the compiler, which
	 * at -O3 warned of cap - klen wrapping) */
	if (klen > cap)
		klen = cap;
	if (n > cap - klen)
		n = cap - klen;
	memcpy(c->key + klen, sep, n);
	klen += n;
	if (slen > cap - klen)
		slen = cap - klen;
	memcpy(c->key + klen, s, slen);
	klen += slen;
	c->key[klen] = 0;
	return klen;
}

static size_t key_index(pctx *c, size_t klen, size_t i)
{
	char b[32];
	int n = snprintf(b, sizeof(b), "[%zu]", i);

	return key_append(c, klen, "", b, (size_t)n);
}

static void add_nested(pctx *c, size_t klen, const DNest *v, int depth)
{
	size_t i;

	if (!v || depth > 32)
		return;
	if (v->nested_type == 1) { /* DICT */
		for (i = 0; i < v->n_dict_keys && i < v->n_dict_values; i++) {
			const char *k = v->dict_keys[i] ? v->dict_keys[i] : "";
			size_t nl = key_append(c, klen, klen ? "." : "", k, strlen(k));
			add_nested(c, nl, v->dict_values[i], depth + 1);
			c->key[klen] = 0;
		}
		return;
	}
	if (v->nested_type == 2) { /* ARRAY */
		for (i = 0; i < v->n_array_values; i++) {
			size_t nl = key_index(c, klen, i);
			add_nested(c, nl, v->array_values[i], depth + 1);
			c->key[klen] = 0;
		}
		return;
	}
	if (v->has_int_value)
		tt_storage_args_int(c->st, c->key, v->int_value);
	else if (v->has_double_value)
		tt_storage_args_real(c->st, c->key, v->double_value);
	else if (v->has_bool_value)
		tt_storage_args_bool(c->st, c->key, v->bool_value);
	else if (v->string_value)
		tt_storage_args_str(c->st, c->key, v->string_value, strlen(v->string_value));
}

/* A JSON value under the key so far, as trace processor flattens a
 * legacy_json_value: objects as .key, arrays as [i], nulls left out. */
static void add_json(pctx *c, size_t klen, const yajl_val v, int depth)
{
	size_t i;

	if (!v || depth > 32)
		return;
	if (YAJL_IS_OBJECT(v)) {
		for (i = 0; i < v->u.object.len; i++) {
			const char *k = v->u.object.keys[i];
			size_t nl = key_append(c, klen, ".", k, strlen(k));

			add_json(c, nl, v->u.object.values[i], depth + 1);
			c->key[klen] = 0;
		}
	} else if (YAJL_IS_ARRAY(v)) {
		size_t at = 0;

		/* a null takes no index */
		for (i = 0; i < v->u.array.len; i++) {
			size_t nl;

			if (YAJL_IS_NULL(v->u.array.values[i]))
				continue;
			nl = key_index(c, klen, at++);
			add_json(c, nl, v->u.array.values[i], depth + 1);
			c->key[klen] = 0;
		}
	} else if (YAJL_IS_INTEGER(v)) {
		tt_storage_args_int(c->st, c->key, YAJL_GET_INTEGER(v));
	} else if (YAJL_IS_NUMBER(v)) {
		tt_storage_args_real(c->st, c->key, YAJL_GET_DOUBLE(v));
	} else if (YAJL_IS_STRING(v)) {
		const char *t = v->u.string;

		tt_storage_args_str(c->st, c->key, t, strlen(t));
	} else if (YAJL_IS_TRUE(v) || YAJL_IS_FALSE(v)) {
		tt_storage_args_bool(c->st, c->key, YAJL_IS_TRUE(v));
	}
}

/* legacy_json_value: its keys become args (text that is not JSON adds
 * nothing, as in trace processor). */
static void add_legacy_json(pctx *c, size_t klen, const char *text)
{
	yajl_val v = yajl_tree_parse(text, NULL, 0);

	if (!v)
		return;
	add_json(c, klen, v, 0);
	yajl_tree_free(v);
}

/* ---- debug annotations: keys interned once -------------------------------
 * A Chrome trace writes the same few hundred keys millions of times. A key
 * is its parent key and one more part (a name, or an array index), so the
 * interned key of (parent, part) is kept in c->arg_keys: an annotation's
 * rows cost a map lookup each, not the building and hashing of its text.
 * A part is a name's interned id, KP_EMPTY for "", or KP_INDEX | index.
 * The text is built only on a miss, exactly as key_append builds it
 * (truncated at the same length), and its [ flag read from it. */
#define KP_INDEX 0x80000000u
#define KP_EMPTY 0x7fffffffu

/* The part of a dict entry's or annotation's name; KP_TEXT: a name whose
 * key is not kept (*text: an id too big for a part, or out of memory). */
#define KP_TEXT 0x7ffffffeu

static void note_missing(pctx *c);
static tt_str name_text(pctx *c, const char *s);

static uint32_t name_part(pctx *c, pseq *s, const DAnn *a, const char **text)
{
	if (a->name_field_case == PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME && a->name) {
		/* Chrome names dict entries by text: the name is interned
		 * (short, and a few hundred distinct) to find its key */
		tt_str v = a->name[0] ? name_text(c, a->name) : 0;

		if (!a->name[0])
			return KP_EMPTY;
		if (v && v < KP_TEXT)
			return v;
		*text = a->name;
		return KP_TEXT;
	}
	if (a->name_field_case == PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME_IID) {
		tt_str v;

		if (tt_proto_itab_find(&s->dnames, a->name_iid, &v)) {
			if (v < KP_TEXT)
				return v;
			*text = tt_storage_str(c->st, v);
			return KP_TEXT;
		}
		stat(c, TT_STAT_proto_interned_missing);
		note_missing(c);
	}
	return KP_EMPTY;
}

/* The key parent + part, as (flags << 32 | key): flags is TT_ARG_INDEXED
 * when the key text holds a [. root: the key is "debug." + part (parent
 * unused). Ids of KP_TEXT and above (2^31 strings: never in practice)
 * are not kept. */
static uint64_t child_key(pctx *c, tt_str parent, uint32_t part, int root, const char *text)
{
	uint64_t k = (uint64_t)(root ? KP_EMPTY : parent) << 32 | part, *v = NULL, out;
	int keep = part != KP_TEXT && (root || parent < KP_TEXT);
	size_t klen, nl;

	if (keep && (v = tt_pmap_find(&c->arg_keys, k)))
		return *v;
	if (root) {
		klen = key_append(c, 0, "debug.", "", 0);
	} else {
		const char *pt = tt_storage_str(c->st, parent);

		klen = key_append(c, 0, "", pt ? pt : "", pt ? strlen(pt) : 0);
	}
	if (part != KP_TEXT && (part & KP_INDEX)) {
		nl = key_index(c, klen, part & ~KP_INDEX);
	} else {
		const char *n = part == KP_TEXT ? text : part == KP_EMPTY ? "" : tt_storage_str(c->st, part);

		if (!n)
			n = "";
		nl = key_append(c, klen, root ? "" : ".", n, strlen(n));
	}
	out = (uint64_t)(strchr(c->key, '[') ? TT_ARG_INDEXED : 0) << 32 | tt_storage_intern(c->st, c->key, nl);
	if (keep && tt_pmap_put(&c->arg_keys, k, out))
		c->oom = 1;
	return out;
}

static void add_annot(pctx *c, pseq *s, uint64_t key, const DAnn *a, int depth)
{
	tt_storage *st = c->st;
	tt_str k = (tt_str)key;
	int fl = (int)(key >> 32);
	size_t i;

	if (depth > 32)
		return;
	switch (a->value_case) {
	case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_BOOL_VALUE:
		tt_storage_args_keyed(st, k, TT_ARG_BOOL | fl, a->bool_value ? 1 : 0, 0, 0);
		break;
	case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_UINT_VALUE:
		tt_storage_args_keyed(st, k, TT_ARG_UINT | fl, (int64_t)a->uint_value, 0, 0);
		break;
	case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE:
		tt_storage_args_keyed(st, k, TT_ARG_INT | fl, a->int_value, 0, 0);
		break;
	case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_DOUBLE_VALUE:
		tt_storage_args_keyed(st, k, TT_ARG_REAL | fl, 0, a->double_value, 0);
		break;
	case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE:
		tt_storage_args_keyed(st, k, TT_ARG_STRING | fl, 0, 0,
				      tt_storage_intern_cstr(st, a->string_value));
		break;
	case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_POINTER_VALUE:
		tt_storage_args_keyed(st, k, TT_ARG_POINTER | fl, (int64_t)a->pointer_value, 0, 0);
		break;
	case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_NESTED_VALUE:
	case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_LEGACY_JSON_VALUE: {
		/* rare: these build their keys as text under the key's */
		const char *kt = tt_storage_str(st, k);
		size_t kl = key_append(c, 0, "", kt ? kt : "", kt ? strlen(kt) : 0);

		if (a->value_case == PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_NESTED_VALUE)
			add_nested(c, kl, a->nested_value, depth + 1);
		else
			add_legacy_json(c, kl, a->legacy_json_value);
		break;
	}
	case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE_IID: {
		tt_str v;
		int found = tt_proto_itab_find(&s->dstrs, a->string_value_iid, &v);

		if (!found) {
			stat(c, TT_STAT_proto_interned_missing);
			note_missing(c);
		}
		/* the interned value is the row's string unless its text stops
		 * at a NUL before its end (then the text up to it, as before) */
		if (found && v && !tt_pmap_find(&c->nul_strs, v)) {
			tt_storage_args_keyed(st, k, TT_ARG_STRING | fl, 0, 0, v);
		} else {
			const char *str = found ? tt_storage_str(st, v) : NULL;

			tt_storage_args_keyed(st, k, TT_ARG_STRING | fl, 0, 0,
					      tt_storage_intern(st, str ? str : "", str ? strlen(str) : 0));
		}
		break;
	}
	default:
		break;
	}
	for (i = 0; i < a->n_dict_entries; i++) {
		const char *text = NULL;
		uint32_t part = name_part(c, s, a->dict_entries[i], &text);

		add_annot(c, s, child_key(c, k, part, 0, text), a->dict_entries[i], depth + 1);
	}
	/* (an index of 2^31 would need a packet far above MAX_PACKET) */
	for (i = 0; i < a->n_array_values; i++)
		add_annot(c, s, child_key(c, k, KP_INDEX | (uint32_t)(i & ~(size_t)KP_INDEX), 0, NULL),
			  a->array_values[i], depth + 1);
}

/* A DebugAnnotation inside a typed arg: under its name, below klen. */
void tt_proto_annot_arg(pctx *c, pseq *s, size_t klen, const DAnn *a)
{
	const char *text = NULL;
	uint32_t part = name_part(c, s, a, &text);
	uint64_t key;

	if (klen) {
		/* the typed arg's key so far is the parent: child_key rebuilds
		 * the same prefix in c->key */
		key = child_key(c, tt_storage_intern(c->st, c->key, klen), part, 0, text);
	} else {
		const char *n = part == KP_TEXT ? text : part == KP_EMPTY ? "" : tt_storage_str(c->st, part);
		size_t kl = key_append(c, 0, "", n ? n : "", n ? strlen(n) : 0);

		key = (uint64_t)(strchr(c->key, '[') ? TT_ARG_INDEXED : 0) << 32 |
		      tt_storage_intern(c->st, c->key, kl);
	}
	add_annot(c, s, key, a, 0);
	c->key[klen] = 0;
}


/* ---- packed debug annotations, and the sets they made ---------------------
 * The reader leaves a TrackEvent's debug annotations packed (proto_read.h).
 * A Chrome trace repeats its annotations' bytes: 75k distinct arg sets
 * for 300k slices. The bytes seen are kept, by sequence, with the set
 * they made (without typed args; with the legacy id, passthrough thread
 * and phase it was made with): the same bytes on the same sequence, with
 * the same of those, while its interned names and strings mean the same
 * (pseq.agen), are the same rows, so they are
 * that set again instead of unpacked and built again (the args tracker
 * counts it as the repeat it is, tt_args_tracker_again: its trial of its
 * first 64k sets decides as when the set was built; once it stops keeping
 * sets once, the set's rows are copied into a new set). Bytes seen once unpacked cleanly, so they are
 * unpacked without a check when their set must be built again. The
 * kept bytes are bounded: when full, the cache starts again. */
#define AC_BYTES (1u << 20)

typedef struct aentry {
	uint64_t h;
	uint32_t seq, gen;
	uint32_t set;                /* TT_NONE: none; valid when known */
	int known;
	/* what else made the set (tt_proto_event_args): the legacy id
	 * (has_src), the passthrough thread, the phase written */
	uint64_t src;
	uint32_t pt;
	char has_src, ph;
	int deep;                    /* nests too deep for a packet of 1 KiB or more (tt_proto_annots_deep); -1 not known yet (only seen in shorter packets) */
	size_t off, len;             /* its bytes in bytes[]: (u32 length, annotation) each */
} aentry;

struct tt_proto_annots {
	uint32_t *slot;              /* entry + 1 by hash; 0 = empty */
	size_t cap;
	TT_VEC(aentry) e;
	unsigned char *bytes;
	size_t nb;
	tt_proto_arena ar;           /* the current event's unpacked annotations */
	tt_proto_tecache *tc;        /* their dict entries decoded before (tt_proto_da_unpack) */
	uint64_t tc_seq;             /* the events unpacked: one "batch" each to tc */
	TT_VEC(DAnn *) da;
	int unpacked;                /* da holds the current event's */
	DAnn **given;                /* or the reader unpacked them (tt_proto_item) */
	uint32_t cur;                /* its entry + 1, 0 = none */
	int missing;                 /* an interned id was missing while building */
#define NAME_SLOTS 1024
	struct nslot { uint64_t h; size_t len; tt_str v; const char *t; } names[NAME_SLOTS]; /* name_text (t: v's text, which never moves) */
	uint64_t ends;               /* sets ended here that were not empty */
	int sure;                    /* the args tracker keeps sets once for good */
};

/* A dict entry's name interned: the few hundred names of a Chrome trace
 * come millions of times, so the last id of each hash is kept (checked
 * against the stored text) before asking storage's pool. */
static tt_str name_text(pctx *c, const char *s)
{
	struct tt_proto_annots *a = c->annots;
	size_t n = strlen(s);
	uint64_t h;
	struct nslot *e;
	const char *t;
	tt_str r;

	if (!a)
		return intern(c, s, n);
	h = tt_hash_bytes(0, s, n);
	e = &a->names[h & (NAME_SLOTS - 1)];
	if (e->v && e->h == h && e->len == n && !memcmp(e->t, s, n))
		return e->v;
	e->v = 0;
	r = intern(c, s, n);
	if (r && (t = tt_storage_str(c->st, r))) {
		e->h = h;
		e->len = n;
		e->t = t;
		e->v = r;
	}
	return r;
}

static void note_missing(pctx *c)
{
	if (c->annots)
		c->annots->missing = 1;
}

static int annots_equal(const struct tt_proto_annots *a, const aentry *e, const ProtobufCBinaryData *d, size_t n)
{
	const unsigned char *p = a->bytes + e->off, *end = p + e->len;

	for (size_t i = 0; i < n; i++) {
		uint32_t k;

		if (end - p < 4)
			return 0;
		memcpy(&k, p, 4);
		p += 4;
		if (k != d[i].len || (size_t)(end - p) < k || (k && memcmp(p, d[i].data, k)))
			return 0;
		p += k;
	}
	return p == end;
}

static void annots_reset(struct tt_proto_annots *a)
{
	if (a->cap)
		memset(a->slot, 0, a->cap * sizeof(*a->slot));
	a->e.n = 0;
	a->nb = 0;
}

/* Keeps the bytes of d (a new entry); its index + 1, or 0 when they do
 * not fit or out of memory (then nothing is kept). */
static uint32_t annots_add(struct tt_proto_annots *a, uint64_t h, uint32_t seq, const ProtobufCBinaryData *d,
			   size_t n, int deep)
{
	size_t len = 0, i;
	aentry e = { .h = h, .seq = seq, .set = TT_NONE, .deep = deep };

	for (i = 0; i < n; i++)
		len += 4 + d[i].len;
	if (len > AC_BYTES / 16)
		return 0;
	if (a->nb + len > AC_BYTES || (a->e.n + 1) * 2 > a->cap)
		annots_reset(a);
	if (!a->bytes && !(a->bytes = malloc(AC_BYTES)))
		return 0;
	if (!a->cap) {
		a->cap = 1u << 15;
		if (!(a->slot = calloc(a->cap, sizeof(*a->slot)))) {
			a->cap = 0;
			return 0;
		}
	}
	if ((a->e.n + 1) * 2 > a->cap || TT_VEC_PUSH(a->e, e))
		return 0;
	e.off = a->nb;
	for (i = 0; i < n; i++) {
		uint32_t k = (uint32_t)d[i].len;

		memcpy(a->bytes + a->nb, &k, 4);
		if (k)
			memcpy(a->bytes + a->nb + 4, d[i].data, k);
		a->nb += 4 + k;
	}
	a->e.v[a->e.n - 1].off = e.off;
	a->e.v[a->e.n - 1].len = a->nb - e.off;
	for (i = (size_t)h & (a->cap - 1); a->slot[i]; i = (i + 1) & (a->cap - 1))
		;
	a->slot[i] = (uint32_t)a->e.n;
	return (uint32_t)a->e.n;
}

/* Unpacks the current event's annotations into a->da; -1 when protobuf-c
 * rejects one (or out of memory). */
static int annots_unpack(pctx *c, struct tt_proto_annots *a, const ProtobufCBinaryData *d, size_t n)
{
	tt_proto_arena_reset(&a->ar);
	a->da.n = 0;
	/* the entries of an event's annotations are read while its args
	 * are built, before the next event's unpack: a generation found
	 * for no event after the last one may be used again */
	if (!a->tc)
		a->tc = tt_proto_tecache_new(TT_PROTO_DA_GEN, 0);
	if (a->tc) {
		a->tc_seq++;
		tt_proto_tecache_batch(a->tc, a->tc_seq, a->tc_seq);
	}
	for (size_t i = 0; i < n; i++) {
		DAnn *x = tt_proto_da_unpack(c->schema, &a->ar, a->tc, d[i].data, d[i].len);

		if (!x || TT_VEC_PUSH(a->da, x))
			return -1;
	}
	a->unpacked = 1;
	return 0;
}

/* The slot of a coming packet's annotations (the reader hashed them) is
 * a cache miss the check would wait on: asked for a few packets ahead,
 * it is there when the check comes. */
void tt_proto_annots_prefetch(pctx *c, const tt_proto_item *it)
{
	const struct tt_proto_annots *a = c->annots;

	if (a && a->cap && it->da_state)
		__builtin_prefetch(&a->slot[(size_t)it->ahash & (a->cap - 1)]);
}

/* The next stage, two packets ahead: the entry the slot names (the slot
 * was asked for before). */
void tt_proto_annots_prefetch2(pctx *c, const tt_proto_item *it)
{
	const struct tt_proto_annots *a = c->annots;
	uint32_t e;

	if (a && a->cap && it->da_state && (e = a->slot[(size_t)it->ahash & (a->cap - 1)]) && e <= a->e.n) {
		__builtin_prefetch(&a->e.v[e - 1]);
		__builtin_prefetch(a->bytes + a->e.v[e - 1].off);
	}
}

int tt_proto_annots_check(pctx *c, const Pkt *p, const tt_proto_item *it)
{
	const TEv *te = p->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT ? p->track_event : NULL;
	struct tt_proto_annots *a = c->annots;
	const ProtobufCBinaryData *d;
	uint64_t h;
	size_t i;
	int deep;

	if (!a) {
		if (!(a = c->annots = calloc(1, sizeof(*a)))) {
			c->oom = 1;
			return 0;
		}
		tt_proto_arena_init(&a->ar);
	}
	a->unpacked = 0;
	a->given = NULL;
	a->cur = 0;
	if (!te || !te->n_debug_annotations)
		return 0;
	d = tt_proto_packed_annots(te);
	if (it->da_state == 1)
		a->given = it->da;
	h = it->da_state ? it->ahash : tt_proto_annots_hash(p->trusted_packet_sequence_id, d, te->n_debug_annotations);
	if (a->cap)
		for (i = (size_t)h & (a->cap - 1); a->slot[i]; i = (i + 1) & (a->cap - 1)) {
			aentry *e = &a->e.v[a->slot[i] - 1];

			if (e->h == h && e->seq == p->trusted_packet_sequence_id &&
			    annots_equal(a, e, d, te->n_debug_annotations)) {
				if (it->len >= 1024 && e->deep < 0)
					e->deep = tt_proto_annots_deep(d, te->n_debug_annotations);
				if (it->len >= 1024 && e->deep)
					return -1;
				a->cur = a->slot[i];
				return 0;
			}
		}
	/* as the nesting walk of tt_proto_unpack would have said: only a
	 * packet of 1 KiB or more is walked (a shorter one's recursion is
	 * bounded by its length); the reader unpacks no annotations that
	 * nest too deep in one */
	deep = it->len < 1024 ? -1 : !a->given && tt_proto_annots_deep(d, te->n_debug_annotations);
	if (deep > 0)
		return -1;
	if (!a->given && annots_unpack(c, a, d, te->n_debug_annotations))
		return -1;
	a->cur = annots_add(a, h, p->trusted_packet_sequence_id, d, te->n_debug_annotations, deep);
	return 0;
}

void tt_proto_annots_free(pctx *c)
{
	struct tt_proto_annots *a = c->annots;

	if (!a)
		return;
	free(a->slot);
	TT_VEC_FREE(a->e);
	free(a->bytes);
	TT_VEC_FREE(a->da);
	tt_proto_arena_destroy(&a->ar);
	tt_proto_tecache_free(a->tc);
	free(a);
	c->annots = NULL;
}

/* The current event's annotations, unpacked (they unpacked cleanly
 * before: a failure now is out of memory). NULL when none. */
static DAnn **annots_get(pctx *c, const TEv *te)
{
	struct tt_proto_annots *a = c->annots;

	if (!a || !te->n_debug_annotations)
		return NULL;
	if (a->given)
		return a->given;
	if (!a->unpacked && annots_unpack(c, a, tt_proto_packed_annots(te), te->n_debug_annotations)) {
		c->oom = 1;
		return NULL;
	}
	return a->da.v;
}

/* Builds the arg set of a TrackEvent (debug annotations under "debug.",
 * plus legacy_event.passthrough_utid and legacy_event.phase for R / S / T
 * / p as trace_processor does, and before them legacy_trace_source_id: the
 * id of a legacy async event). */
uint32_t tt_proto_event_args(pctx *c, pseq *s, const TEv *te, int phase, uint32_t passthrough_utid)
{
	size_t i;
	const LEv *le = te->legacy_event;
	int has_src = le && phase && strchr("beSFnTp", phase) &&
		      le->id_case != PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__ID__NOT_SET;

	char ph = phase == 'R' || phase == 'S' || phase == 'T' || phase == 'p' ? (char)phase : 0;
	uint64_t src = !has_src ? 0 :
		       le->id_case == PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__ID_UNSCOPED_ID ? le->unscoped_id :
		       le->id_case == PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__ID_GLOBAL_ID ? le->global_id :
		       le->local_id;
	/* the set is a function of the annotations' bytes (on the sequence,
	 * while its interned names and strings mean the same) and of src,
	 * passthrough_utid and ph: the annotations' entry keeps it for those
	 * (typed args are read from the event: not kept). Chrome's async
	 * events repeat their annotations with the same passthrough thread:
	 * on the Chromium class 28k of the 43k sets built with one of these
	 * were found again. */
	int keep = !tt_proto_has_typed_args(te);
	aentry *e = NULL;
	DAnn **da;
	uint32_t set;

	if (!te->n_debug_annotations && keep && !has_src && !ph && passthrough_utid == TT_NONE)
		return TT_NONE;
	if (keep && c->annots && c->annots->cur) {
		e = &c->annots->e.v[c->annots->cur - 1];
		if (e->known && e->gen == s->agen && e->pt == passthrough_utid && e->ph == ph &&
		    e->has_src == (char)has_src && e->src == src) {
			struct tt_proto_annots *a = c->annots;

			if (e->set == TT_NONE || a->sure)
				return e->set;
			set = tt_args_tracker_again(c->im->args, e->set);
			/* The tracker stops keeping sets once if its first 64k
			 * sets brought few repeats (args_tracker.h), and never
			 * turns it back on. Each non-empty set ended here was one
			 * of them: past 64k, a set it found again means it keeps
			 * them for good, and a repeat is its set without the copy. */
			if (set != TT_NONE && ++a->ends > 65536 && set == e->set)
				a->sure = 1;
			return set;
		}
	}
	da = annots_get(c, te);
	if (te->n_debug_annotations && !da)
		return TT_NONE;
	if (c->annots)
		c->annots->missing = 0;
	tt_storage_args_begin(c->st);
	tt_proto_typed_args_first(c, s, te);
	if (has_src)
		tt_storage_args_int(c->st, "legacy_trace_source_id", (int64_t)src);
	tt_proto_typed_args(c, s, te);
	for (i = 0; i < te->n_debug_annotations; i++) {
		const char *text = NULL;
		uint32_t part = name_part(c, s, da[i], &text);

		add_annot(c, s, child_key(c, 0, part, 1, text), da[i], 0);
	}
	if (passthrough_utid != TT_NONE) {
		/* (one event in ten has it: its key is interned once) */
		if (!c->k_passthrough)
			c->k_passthrough = intern_c(c, "legacy_event.passthrough_utid");
		tt_storage_args_keyed(c->st, c->k_passthrough, TT_ARG_UINT, passthrough_utid, 0, 0);
	}
	if (ph)
		tt_storage_args_str(c->st, "legacy_event.phase", &ph, 1);
	set = tt_args_tracker_end(c->im->args);
	if (set != TT_NONE && c->annots)
		c->annots->ends++;
	if (e && !c->annots->missing) {
		e->known = 1;
		e->gen = s->agen;
		e->set = set;
		e->pt = passthrough_utid;
		e->ph = ph;
		e->has_src = (char)has_src;
		e->src = src;
	}
	return set;
}
