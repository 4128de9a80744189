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

	if (klen + n > cap)
		n = cap - klen;
	memcpy(c->key + klen, sep, n);
	klen += n;
	if (klen + slen > cap)
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

static const char *annot_name(pctx *c, pseq *s, const DAnn *a, size_t *len)
{
	if (a->name_field_case == PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME && a->name) {
		*len = strlen(a->name);
		return a->name;
	}
	if (a->name_field_case == PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME_IID) {
		tt_str v;
		if (tt_proto_itab_find(&s->dnames, a->name_iid, &v)) {
			const char *n = tt_storage_str(c->st, v);
			*len = n ? strlen(n) : 0;
			return n ? n : "";
		}
		stat(c, TT_STAT_proto_interned_missing);
	}
	*len = 0;
	return "";
}

static void add_annot(pctx *c, pseq *s, size_t klen, const DAnn *a, int depth)
{
	tt_storage *st = c->st;
	size_t i;

	if (depth > 32)
		return;
	switch (a->value_case) {
	case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_BOOL_VALUE:
		tt_storage_args_bool(st, c->key, a->bool_value);
		break;
	case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_UINT_VALUE:
		tt_storage_args_uint(st, c->key, a->uint_value);
		break;
	case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE:
		tt_storage_args_int(st, c->key, a->int_value);
		break;
	case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_DOUBLE_VALUE:
		tt_storage_args_real(st, c->key, a->double_value);
		break;
	case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE:
		tt_storage_args_str(st, c->key, a->string_value, strlen(a->string_value));
		break;
	case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_POINTER_VALUE:
		tt_storage_args_pointer(st, c->key, a->pointer_value);
		break;
	case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_NESTED_VALUE:
		add_nested(c, klen, a->nested_value, depth + 1);
		break;
	case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_LEGACY_JSON_VALUE:
		add_legacy_json(c, klen, a->legacy_json_value);
		break;
	case PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE_IID: {
		tt_str v;
		int found = tt_proto_itab_find(&s->dstrs, a->string_value_iid, &v);
		const char *str = found ? tt_storage_str(st, v) : NULL;
		if (!found)
			stat(c, TT_STAT_proto_interned_missing);
		tt_storage_args_str(st, c->key, str ? str : "", str ? strlen(str) : 0);
		break;
	}
	default:
		break;
	}
	for (i = 0; i < a->n_dict_entries; i++) {
		size_t nlen, nl;
		const char *n = annot_name(c, s, a->dict_entries[i], &nlen);
		nl = key_append(c, klen, ".", n, nlen);
		add_annot(c, s, nl, a->dict_entries[i], depth + 1);
		c->key[klen] = 0;
	}
	for (i = 0; i < a->n_array_values; i++) {
		size_t nl = key_index(c, klen, i);
		add_annot(c, s, nl, a->array_values[i], depth + 1);
		c->key[klen] = 0;
	}
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

	if (!te->n_debug_annotations && !has_src && phase != 'R' && phase != 'S' && phase != 'T' &&
	    phase != 'p' && passthrough_utid == TT_NONE && !tt_proto_has_typed_args(te))
		return TT_NONE;
	tt_storage_args_begin(c->st);
	tt_proto_typed_args_first(c, s, te);
	if (has_src) {
		uint64_t id = le->id_case == PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__ID_UNSCOPED_ID ? le->unscoped_id :
			      le->id_case == PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__ID_GLOBAL_ID ? le->global_id :
			      le->local_id;

		tt_storage_args_int(c->st, "legacy_trace_source_id", (int64_t)id);
	}
	tt_proto_typed_args(c, s, te);
	for (i = 0; i < te->n_debug_annotations; i++) {
		size_t nlen, kl;
		const char *n = annot_name(c, s, te->debug_annotations[i], &nlen);
		kl = key_append(c, 0, "debug.", n, nlen);
		add_annot(c, s, kl, te->debug_annotations[i], 0);
	}
	if (passthrough_utid != TT_NONE)
		tt_storage_args_uint(c->st, "legacy_event.passthrough_utid", passthrough_utid);
	if (phase == 'R' || phase == 'S' || phase == 'T' || phase == 'p') {
		char ph = (char)phase;
		tt_storage_args_str(c->st, "legacy_event.phase", &ph, 1);
	}
	return tt_args_tracker_end(c->im->args);
}
