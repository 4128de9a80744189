/*
 * proto_typed_args.c - a TrackEvent's typed args (Chrome's
 * chrome_user_event, chrome_legacy_ipc, chrome_latency_info, ...) as
 * trace processor's proto-to-args reflection gives them: every field set
 * becomes an arg keyed by its path of field names (`a.b`, `a.c[0].d`),
 * enums by their value names, integers, bools, reals and strings as such.
 * protobuf-c's descriptors are the reflection: a typed field added to
 * protos/perfetto_trace.proto is imported with no code here. See
 * proto_args.c for the arg set they join.
 */
#include "proto_int.h"

static size_t key_add(pctx *c, size_t klen, const char *name, int index, size_t i)
{
	int n = snprintf(c->key + klen, sizeof(c->key) - klen, index ? "%s%s[%zu]" : "%s%s",
			 klen ? "." : "", name, i);

	if (n < 0 || (size_t)n >= sizeof(c->key) - klen)
		return sizeof(c->key) - 1;
	return klen + (size_t)n;
}

static void add_message(pctx *c, pseq *s, size_t klen, const ProtobufCMessage *m, int depth);

/* One value of field f at v (an element of a repeated field, or the field). */
static void add_value(pctx *c, pseq *s, size_t klen, const ProtobufCFieldDescriptor *f, const void *v, int depth)
{
	tt_storage *st = c->st;

	switch (f->type) {
	case PROTOBUF_C_TYPE_INT32:
	case PROTOBUF_C_TYPE_SINT32:
	case PROTOBUF_C_TYPE_SFIXED32:
		tt_storage_args_int(st, c->key, *(const int32_t *)v);
		break;
	case PROTOBUF_C_TYPE_INT64:
	case PROTOBUF_C_TYPE_SINT64:
	case PROTOBUF_C_TYPE_SFIXED64:
		tt_storage_args_int(st, c->key, *(const int64_t *)v);
		break;
	case PROTOBUF_C_TYPE_UINT32:
	case PROTOBUF_C_TYPE_FIXED32:
		tt_storage_args_uint(st, c->key, *(const uint32_t *)v);
		break;
	case PROTOBUF_C_TYPE_UINT64:
	case PROTOBUF_C_TYPE_FIXED64:
		tt_storage_args_uint(st, c->key, *(const uint64_t *)v);
		break;
	case PROTOBUF_C_TYPE_FLOAT:
		tt_storage_args_real(st, c->key, *(const float *)v);
		break;
	case PROTOBUF_C_TYPE_DOUBLE:
		tt_storage_args_real(st, c->key, *(const double *)v);
		break;
	case PROTOBUF_C_TYPE_BOOL:
		tt_storage_args_bool(st, c->key, *(const protobuf_c_boolean *)v != 0);
		break;
	case PROTOBUF_C_TYPE_ENUM: {
		int32_t e = *(const int32_t *)v;
		const ProtobufCEnumValue *ev = protobuf_c_enum_descriptor_get_value(f->descriptor, e);

		if (ev)
			tt_storage_args_str(st, c->key, ev->name, strlen(ev->name));
		else /* a value newer than our .proto */
			tt_storage_args_int(st, c->key, e);
		break;
	}
	case PROTOBUF_C_TYPE_STRING: {
		const char *s = *(char *const *)v;

		if (s)
			tt_storage_args_str(st, c->key, s, strlen(s));
		break;
	}
	case PROTOBUF_C_TYPE_MESSAGE: {
		const ProtobufCMessage *sub = *(ProtobufCMessage *const *)v;

		if (sub)
			add_message(c, s, klen, sub, depth + 1);
		break;
	}
	default: /* bytes: not an arg in trace processor either */
		break;
	}
}

static size_t elem_size(ProtobufCType t)
{
	switch (t) {
	case PROTOBUF_C_TYPE_INT64: case PROTOBUF_C_TYPE_SINT64: case PROTOBUF_C_TYPE_SFIXED64:
	case PROTOBUF_C_TYPE_UINT64: case PROTOBUF_C_TYPE_FIXED64: case PROTOBUF_C_TYPE_DOUBLE:
		return 8;
	case PROTOBUF_C_TYPE_STRING: case PROTOBUF_C_TYPE_MESSAGE:
		return sizeof(void *);
	case PROTOBUF_C_TYPE_BYTES:
		return sizeof(ProtobufCBinaryData);
	case PROTOBUF_C_TYPE_BOOL:
		return sizeof(protobuf_c_boolean);
	default:
		return 4;
	}
}

/* Every field of m that is set, in field number order (protobuf-c keeps
 * descriptors' fields sorted by number, as the wire has them). */
static void add_message(pctx *c, pseq *s, size_t klen, const ProtobufCMessage *m, int depth)
{
	const ProtobufCMessageDescriptor *d = m->descriptor;
	const char *base = (const char *)m;

	if (depth > 16)
		return;
	for (unsigned i = 0; i < d->n_fields; i++) {
		const ProtobufCFieldDescriptor *f = &d->fields[i];

		/* trace processor: a DebugAnnotation field is a debug
		 * annotation under its own name, not a message */
		if (f->type == PROTOBUF_C_TYPE_MESSAGE && f->descriptor == &perfetto__protos__debug_annotation__descriptor) {
			size_t n = f->label == PROTOBUF_C_LABEL_REPEATED ? *(const size_t *)(base + f->quantifier_offset) : 1;
			const DAnn *const *vals = f->label == PROTOBUF_C_LABEL_REPEATED ?
							  *(const DAnn *const *const *)(base + f->offset) :
							  (const DAnn *const *)(base + f->offset);

			for (size_t k = 0; k < n && vals; k++)
				if (vals[k])
					tt_proto_annot_arg(c, s, klen, vals[k]);
			continue;
		}
		if (f->label == PROTOBUF_C_LABEL_REPEATED) {
			size_t n = *(const size_t *)(base + f->quantifier_offset);
			const char *vals = *(char *const *)(base + f->offset);

			for (size_t k = 0; k < n && vals; k++) {
				size_t nl = key_add(c, klen, f->name, 1, k);

				add_value(c, s, nl, f, vals + k * elem_size(f->type), depth);
				c->key[klen] = 0;
			}
			continue;
		}
		if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
			if (*(const uint32_t *)(base + f->quantifier_offset) != f->id)
				continue;
		} else if (f->quantifier_offset && f->type != PROTOBUF_C_TYPE_STRING &&
			   f->type != PROTOBUF_C_TYPE_MESSAGE &&
			   !*(const protobuf_c_boolean *)(base + f->quantifier_offset)) {
			continue; /* a proto2 optional scalar not set */
		}
		{
			size_t nl = key_add(c, klen, f->name, 0, 0);

			add_value(c, s, nl, f, base + f->offset, depth);
			c->key[klen] = 0;
		}
	}
}

/* Interned SourceLocations (where Chrome posted a task from). */
void tt_proto_on_interned_srclocs(pctx *c, pseq *s, const Perfetto__Protos__InternedData *in)
{
	for (size_t i = 0; i < in->n_source_locations; i++) {
		const Perfetto__Protos__SourceLocation *l = in->source_locations[i];
		psrcloc e = { 0, 0, l->line_number };
		char *f = l->file_name ? strdup(l->file_name) : NULL;

		/* trace processor normalizes Windows path separators */
		for (char *q = f; q && *q; q++)
			if (*q == '\\')
				*q = '/';
		e.file = intern_c(c, f ? f : "");
		e.func = intern_c(c, l->function_name ? l->function_name : "");
		free(f);
		if (TT_VEC_PUSH(s->srcloc, e) || tt_pmap_put(&s->srclocs, l->iid, s->srcloc.n))
			c->oom = 1;
	}
}

/* prefix.file_name, .function_name, .line_number of an interned
 * SourceLocation; an unknown iid is a parser error. */
static void add_srcloc(pctx *c, pseq *s, const char *prefix, uint64_t iid)
{
	const uint64_t *at = tt_pmap_find(&s->srclocs, iid);
	const psrcloc *e;
	const char *t;
	char key[64];

	if (!at) {
		stat(c, TT_STAT_track_event_parser_errors);
		return;
	}
	e = &s->srcloc.v[*at - 1];
	snprintf(key, sizeof(key), "%s.file_name", prefix);
	t = tt_storage_str(c->st, e->file);
	tt_storage_args_str(c->st, key, t ? t : "", t ? strlen(t) : 0);
	snprintf(key, sizeof(key), "%s.function_name", prefix);
	t = tt_storage_str(c->st, e->func);
	tt_storage_args_str(c->st, key, t ? t : "", t ? strlen(t) : 0);
	snprintf(key, sizeof(key), "%s.line_number", prefix);
	tt_storage_args_uint(c->st, key, e->line);
}

/* The typed fields of te trace processor reflects into args, in field
 * number order: those before source_location_iid (34), then the rest. */
#define TYPED_FIELDS_LO(X) \
	X(chrome_user_event) X(chrome_keyed_service) X(chrome_legacy_ipc) X(chrome_histogram_sample) \
	X(chrome_latency_info)
#define TYPED_FIELDS_HI(X) \
	X(chrome_message_pump) X(chrome_mojo_event_info) X(chrome_application_state_info) \
	X(chrome_window_handle_event_info) X(chrome_active_processes)

int tt_proto_has_typed_args(const TEv *te)
{
#define HAS(f) if (te->f) return 1;
	TYPED_FIELDS_LO(HAS)
	TYPED_FIELDS_HI(HAS)
#undef HAS
	return te->task_execution || te->has_source_location_iid || te->has_chrome_app_state ||
	       te->chrome_memory_pressure_notification || te->log_message;
}

/* ChromeTrackEvent's extensions (field numbers 1000 up, after every
 * TrackEvent field): reflected as the others, but a memory pressure
 * notification's creation_location_iid is its interned SourceLocation
 * (file_name, function_name, line_number under the extension's name), as
 * trace processor's parsing override gives it. */
static void chrome_extensions(pctx *c, pseq *s, const TEv *te)
{
	const Perfetto__Protos__ChromeMemoryPressureNotification *m = te->chrome_memory_pressure_notification;

	if (te->has_chrome_app_state) {
		const ProtobufCEnumValue *ev =
			protobuf_c_enum_descriptor_get_value(&perfetto__protos__chrome_app_state__descriptor,
							     te->chrome_app_state);

		if (ev)
			tt_storage_args_str(c->st, "chrome_app_state", ev->name, strlen(ev->name));
		else
			tt_storage_args_int(c->st, "chrome_app_state", te->chrome_app_state);
	}
	if (m) {
		if (m->has_level) {
			const ProtobufCEnumValue *ev =
				protobuf_c_enum_descriptor_get_value(&perfetto__protos__memory_pressure_level__descriptor,
								     m->level);
			const char *k = "chrome_memory_pressure_notification.level";

			if (ev)
				tt_storage_args_str(c->st, k, ev->name, strlen(ev->name));
			else
				tt_storage_args_int(c->st, k, m->level);
		}
		if (m->has_creation_location_iid)
			add_srcloc(c, s, "chrome_memory_pressure_notification", m->creation_location_iid);
	}
}

/* A log message's body and source location (interned on s); 0 when one
 * named is not there (trace processor: an error, the message dropped). */
static int log_parts(pseq *s, const Perfetto__Protos__LogMessage *m, tt_str *body, const psrcloc **loc)
{
	const uint64_t *at;

	*loc = NULL;
	if (!tt_proto_itab_find(&s->lbodies, m->body_iid, body))
		return 0;
	if (m->has_source_location_iid) {
		if (!(at = tt_pmap_find(&s->srclocs, m->source_location_iid)))
			return 0;
		*loc = &s->srcloc.v[*at - 1];
	}
	return 1;
}

/* Its args (message, then where, then the priority when given), as trace
 * processor's track event parser names them. */
static void add_log_message(pctx *c, pseq *s, const Perfetto__Protos__LogMessage *m)
{
	const psrcloc *loc;
	const char *t;
	tt_str body;

	if (!log_parts(s, m, &body, &loc)) {
		stat(c, TT_STAT_track_event_parser_errors);
		return;
	}
	t = tt_storage_str(c->st, body);
	tt_storage_args_str(c->st, "track_event.log_message.message", t ? t : "", t ? strlen(t) : 0);
	if (loc) {
		t = tt_storage_str(c->st, loc->file);
		tt_storage_args_str(c->st, "track_event.log_message.file_name", t ? t : "", t ? strlen(t) : 0);
		t = tt_storage_str(c->st, loc->func);
		tt_storage_args_str(c->st, "track_event.log_message.function_name", t ? t : "", t ? strlen(t) : 0);
		tt_storage_args_int(c->st, "track_event.log_message.line_number", loc->line);
	}
	if (m->has_prio)
		tt_storage_args_int(c->st, "track_event.priority", m->prio);
}

void tt_proto_log_message(pctx *c, pseq *s, const TEv *te, int64_t ts, uint32_t utid)
{
	const Perfetto__Protos__LogMessage *m = te->log_message;
	const psrcloc *loc;
	tt_str body, tag = 0;

	if (utid == TT_NONE || !log_parts(s, m, &body, &loc)) {
		/* (a missing part was counted with the args) */
		if (utid == TT_NONE)
			stat(c, TT_STAT_track_event_parser_errors);
		return;
	}
	if (loc) {
		/* the tag: "file:line" */
		const char *f = tt_storage_str(c->st, loc->file);
		int n = snprintf(c->key, sizeof(c->key), "%s:%u", f ? f : "", loc->line);

		tag = intern(c, c->key, n < 0 ? 0 : (size_t)n < sizeof(c->key) ? (size_t)n : sizeof(c->key) - 1);
	}
	/* no priority: INFO (4), which the UI shows */
	tt_proto_push_ft(c, s, ts, FT_LOG_UTID, utid, m->has_prio ? m->prio : 4, body, tag, 0);
}

/* Before them, as trace processor orders them: the source location, the
 * task's posted_from, a log message, an interned histogram name. */
void tt_proto_typed_args_first(pctx *c, pseq *s, const TEv *te)
{
	const Perfetto__Protos__ChromeHistogramSample *h = te->chrome_histogram_sample;

	if (te->has_source_location_iid)
		add_srcloc(c, s, "source", te->source_location_iid);
	if (te->task_execution && te->task_execution->has_posted_from_iid)
		add_srcloc(c, s, "task.posted_from", te->task_execution->posted_from_iid);
	if (te->log_message)
		add_log_message(c, s, te->log_message);
	if (h && h->has_name_iid && !h->name) {
		tt_str v;

		if (tt_proto_itab_find(&s->hnames, h->name_iid, &v)) {
			const char *t = tt_storage_str(c->st, v);

			tt_storage_args_str(c->st, "chrome_histogram_sample.name", t ? t : "", t ? strlen(t) : 0);
		} else {
			stat(c, TT_STAT_track_event_parser_errors);
		}
	}
}

void tt_proto_typed_args(pctx *c, pseq *s, const TEv *te)
{
#define ADD(f) if (te->f) { size_t nl = key_add(c, 0, #f, 0, 0); add_message(c, s, nl, &te->f->base, 0); c->key[0] = 0; }
	TYPED_FIELDS_LO(ADD)
	if (te->has_source_location_iid)
		tt_storage_args_uint(c->st, "source_location_iid", te->source_location_iid);
	TYPED_FIELDS_HI(ADD)
#undef ADD
	chrome_extensions(c, s, te);
}

/* Every field of m that is set, keyed from the root (extension fields of
 * a TrackEvent: proto_ext.c). */
void tt_proto_reflect_args(pctx *c, pseq *s, const ProtobufCMessage *m)
{
	c->key[0] = 0;
	add_message(c, s, 0, m, 0);
	c->key[0] = 0;
}
