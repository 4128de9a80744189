/*
 * proto_ext.c - TrackEvent extensions described in the trace itself
 * (ExtensionDescriptor packets: a FileDescriptorSet of extensions of
 * .perfetto.protos.TrackEvent and the messages they use), imported as
 * typed args the way trace processor's descriptor pool does: every
 * descriptor in the file applies to every event, whichever comes first
 * (trace processor reads descriptors while tokenizing and parses events
 * after the sort), so an event's extension fields are kept (protobuf-c's
 * unknown fields) and read when the sorted event is fed.
 *
 * protobuf-c stays the decoder: the descriptors are turned into
 * protobuf-c message (and enum) descriptors at run time (the layout of the message
 * structs they describe is ours to choose), the kept fields are packed
 * back by protobuf-c and unpacked with those descriptors, and the result
 * is reflected into args by proto_typed_args.c.
 */
#include "proto_int.h"

/* FieldDescriptorProto.Type / Label values (descriptor.proto) */
enum { FT_DOUBLE = 1, FT_FLOAT, FT_INT64, FT_UINT64, FT_INT32, FT_FIXED64, FT_FIXED32, FT_BOOL, FT_STRING,
       FT_GROUP, FT_MESSAGE, FT_BYTES, FT_UINT32, FT_ENUM, FT_SFIXED32, FT_SFIXED64, FT_SINT32, FT_SINT64 };
#define LABEL_REPEATED 3
#define EXT_FIRST 1000 /* TrackEvent's extension ranges start here */

typedef struct xfield {
	char *name, *type_name;
	uint32_t number;
	int label, type;
} xfield;

typedef TT_VEC(xfield) xfields;

typedef struct xmsg {
	char *name;                  /* full name, ".package.Outer.Inner" */
	xfields fields;
	ProtobufCMessageDescriptor *desc; /* built on first use */
	int building;
} xmsg;

/* An enum described in the trace: its values, first name of a number
 * kept (aliases add nothing), its protobuf-c descriptor once used. */
typedef struct xenum {
	char *name;                  /* full name, ".package.Outer.Enum" */
	TT_VEC(ProtobufCEnumValue) values;
	ProtobufCEnumDescriptor *desc;
} xenum;

/* An event's kept extension fields, by the file order of its record. */
typedef struct xevent {
	uint32_t ord;
	pseq *seq;
	size_t n;
	ProtobufCMessageUnknownField *f;
} xevent;

struct tt_proto_ext {
	TT_VEC(xmsg) msgs;
	TT_VEC(xenum) enums;
	xfields te;                  /* extensions of TrackEvent */
	ProtobufCMessageDescriptor *te_desc;
	int dirty;                   /* descriptors changed since te_desc was built */
	TT_VEC(xevent) events;       /* in ord order */
	TT_VEC(void *) built;        /* allocations of the built descriptors */
};

static char *dup_s(const char *s)
{
	return strdup(s ? s : "");
}

static struct tt_proto_ext *ext_get(pctx *c)
{
	if (!c->ext && !(c->ext = calloc(1, sizeof(*c->ext))))
		c->oom = 1;
	return c->ext;
}

static int field_add(pctx *c, xfields *v, const Perfetto__Protos__FieldDescriptorProto *f)
{
	xfield x = { NULL, NULL, (uint32_t)f->number, f->label, f->type };

	for (size_t i = 0; i < v->n; i++)
		if (v->v[i].number == x.number)
			return 0; /* the first description of a number stays */
	x.name = dup_s(f->name);
	x.type_name = dup_s(f->type_name);
	if (!x.name || !x.type_name || TT_VEC_PUSH(*v, x)) {
		free(x.name);
		free(x.type_name);
		c->oom = 1;
		return -1;
	}
	return 0;
}

static void extensions_add(pctx *c, struct tt_proto_ext *x, Perfetto__Protos__FieldDescriptorProto **f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (f[i]->extendee && strcmp(f[i]->extendee, ".perfetto.protos.TrackEvent") == 0 &&
		    f[i]->number >= EXT_FIRST && field_add(c, &x->te, f[i]) == 0)
			x->dirty = 1;
}

/* "scope.name", malloc'ed (NULL: out of memory, counted). */
static char *scoped_name(pctx *c, const char *scope, const char *name)
{
	size_t n = strlen(scope) + strlen(name ? name : "") + 2;
	char *s = malloc(n);

	if (!s)
		c->oom = 1;
	else
		snprintf(s, n, "%s.%s", scope, name ? name : "");
	return s;
}

/* An enum of scope: values of a number not seen yet are added (as
 * fields are, until the enum is in use). */
static void enum_add(pctx *c, struct tt_proto_ext *x, const char *scope, const Perfetto__Protos__EnumDescriptorProto *e)
{
	char *name = scoped_name(c, scope, e->name);
	size_t ei;
	xenum *xe;

	if (!name)
		return;
	for (ei = 0; ei < x->enums.n; ei++)
		if (strcmp(x->enums.v[ei].name, name) == 0)
			break;
	if (ei < x->enums.n) {
		free(name);
	} else {
		xenum z = { name, { 0 }, NULL };

		if (TT_VEC_PUSH(x->enums, z)) {
			free(name);
			c->oom = 1;
			return;
		}
	}
	xe = &x->enums.v[ei];
	for (size_t i = 0; !xe->desc && i < e->n_value; i++) {
		const Perfetto__Protos__EnumValueDescriptorProto *v = e->value[i];
		ProtobufCEnumValue ev = { NULL, NULL, v->number };
		size_t k;

		if (!v->name)
			continue;
		for (k = 0; k < xe->values.n && xe->values.v[k].value != v->number; k++)
			;
		if (k < xe->values.n)
			continue;
		ev.name = ev.c_name = strdup(v->name);
		if (!ev.name || TT_VEC_PUSH(xe->values, ev)) {
			free((char *)ev.name);
			c->oom = 1;
			return;
		}
		x->dirty = 1;
	}
}

static void message_add(pctx *c, struct tt_proto_ext *x, const char *scope,
			const Perfetto__Protos__DescriptorProto *m, int depth)
{
	char *name = depth > 16 ? NULL : scoped_name(c, scope, m->name);
	size_t ei;

	if (!name)
		return;
	for (ei = 0; ei < x->msgs.n; ei++)
		if (strcmp(x->msgs.v[ei].name, name) == 0)
			break;
	if (ei < x->msgs.n) {
		free(name);
	} else {
		xmsg z = { name, { 0 }, NULL, 0 };

		if (TT_VEC_PUSH(x->msgs, z)) {
			free(name);
			c->oom = 1;
			return;
		}
	}
	/* fields of a message already in use stay as they were */
	for (size_t i = 0; !x->msgs.v[ei].desc && i < m->n_field; i++)
		if (m->field[i]->name && field_add(c, &x->msgs.v[ei].fields, m->field[i]) == 0)
			x->dirty = 1;
	extensions_add(c, x, m->extension, m->n_extension);
	for (size_t i = 0; i < m->n_enum_type; i++)
		enum_add(c, x, x->msgs.v[ei].name, m->enum_type[i]);
	for (size_t i = 0; i < m->n_nested_type; i++) {
		char *sc = strdup(x->msgs.v[ei].name);

		if (!sc) {
			c->oom = 1;
			return;
		}
		message_add(c, x, sc, m->nested_type[i], depth + 1);
		free(sc);
	}
}

void tt_proto_on_extension_descriptor(pctx *c, const Perfetto__Protos__ExtensionDescriptor *d)
{
	struct tt_proto_ext *x = ext_get(c);
	const Perfetto__Protos__FileDescriptorSet *set = d->extension_set;

	if (!x || !set)
		return;
	for (size_t i = 0; i < set->n_file; i++) {
		const Perfetto__Protos__FileDescriptorProto *f = set->file[i];
		char scope[256];

		snprintf(scope, sizeof(scope), "%s%s", f->package && f->package[0] ? "." : "",
			 f->package ? f->package : "");
		for (size_t k = 0; k < f->n_message_type; k++)
			message_add(c, x, scope, f->message_type[k], 0);
		for (size_t k = 0; k < f->n_enum_type; k++)
			enum_add(c, x, scope, f->enum_type[k]);
		extensions_add(c, x, f->extension, f->n_extension);
	}
}

/* ---- run-time protobuf-c descriptors ------------------------------------- */

static void *keep(struct tt_proto_ext *x, void *p)
{
	if (p && TT_VEC_PUSH(x->built, p)) {
		free(p);
		return NULL;
	}
	return p;
}

static const ProtobufCMessageDescriptor *message_desc(pctx *c, struct tt_proto_ext *x, const char *name, int depth);

static int cmp_value(const void *a, const void *b)
{
	const ProtobufCEnumValue *x = a, *y = b;

	return x->value < y->value ? -1 : x->value > y->value;
}

/* The protobuf-c descriptor of a described enum (values by number, in
 * ranges of consecutive numbers, and by name), or NULL: an enum field of
 * a type never described keeps its numbers. */
static const ProtobufCEnumDescriptor *enum_desc(pctx *c, struct tt_proto_ext *x, const char *name)
{
	xenum *e = NULL;
	ProtobufCEnumDescriptor *d;
	ProtobufCIntRange *ranges;
	ProtobufCEnumValueIndex *by_name;
	size_t n, nr = 0;

	for (size_t i = 0; i < x->enums.n && !e; i++)
		if (strcmp(x->enums.v[i].name, name) == 0)
			e = &x->enums.v[i];
	if (!e || e->desc)
		return e ? e->desc : NULL;
	n = e->values.n;
	if (n > 1)
		qsort(e->values.v, n, sizeof(*e->values.v), cmp_value);
	d = keep(x, calloc(1, sizeof(*d)));
	ranges = keep(x, calloc(n + 1, sizeof(*ranges)));
	by_name = keep(x, calloc(n + 1, sizeof(*by_name)));
	if (!d || !ranges || !by_name) {
		c->oom = 1;
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		by_name[i] = (ProtobufCEnumValueIndex){ e->values.v[i].name, (unsigned)i };
		if (i == 0 || e->values.v[i].value != e->values.v[i - 1].value + 1)
			ranges[nr++] = (ProtobufCIntRange){ e->values.v[i].value, (unsigned)i };
	}
	ranges[nr] = (ProtobufCIntRange){ 0, (unsigned)n };
	for (size_t i = 1; i < n; i++) /* by name */
		for (size_t k = i; k > 0 && strcmp(by_name[k - 1].name, by_name[k].name) > 0; k--) {
			ProtobufCEnumValueIndex t = by_name[k];

			by_name[k] = by_name[k - 1];
			by_name[k - 1] = t;
		}
	d->magic = PROTOBUF_C__ENUM_DESCRIPTOR_MAGIC;
	d->name = d->short_name = d->c_name = e->name;
	d->package_name = "";
	d->n_values = (unsigned)n;
	d->values = e->values.v;
	d->n_value_names = (unsigned)n;
	d->values_by_name = by_name;
	d->n_value_ranges = (unsigned)nr;
	d->value_ranges = ranges;
	e->desc = d;
	return d;
}

static size_t align8(size_t v)
{
	return (v + 7) & ~(size_t)7;
}

static int cmp_number(const void *a, const void *b)
{
	const ProtobufCFieldDescriptor *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* A message descriptor for fields xf[0..n): a struct of ProtobufCMessage,
 * then per field its presence or count and its value (8 bytes each). */
static ProtobufCMessageDescriptor *build(pctx *c, struct tt_proto_ext *x, const char *name, const xfield *xf,
					 size_t n, int depth)
{
	ProtobufCMessageDescriptor *d = keep(x, calloc(1, sizeof(*d)));
	ProtobufCFieldDescriptor *f = keep(x, calloc(n + 1, sizeof(*f)));
	unsigned *by_name = keep(x, calloc(n + 1, sizeof(*by_name)));
	ProtobufCIntRange *ranges = keep(x, calloc(n + 1, sizeof(*ranges)));
	size_t off = sizeof(ProtobufCMessage), nf = 0, nr = 0;

	if (!d || !f || !by_name || !ranges) {
		c->oom = 1;
		return NULL;
	}
	d->magic = PROTOBUF_C__MESSAGE_DESCRIPTOR_MAGIC;
	d->name = d->short_name = d->c_name = name;
	d->package_name = "";
	for (size_t i = 0; i < n; i++) {
		ProtobufCFieldDescriptor *g = &f[nf];
		static const ProtobufCType types[] = {
			[FT_DOUBLE] = PROTOBUF_C_TYPE_DOUBLE, [FT_FLOAT] = PROTOBUF_C_TYPE_FLOAT,
			[FT_INT64] = PROTOBUF_C_TYPE_INT64, [FT_UINT64] = PROTOBUF_C_TYPE_UINT64,
			[FT_INT32] = PROTOBUF_C_TYPE_INT32, [FT_FIXED64] = PROTOBUF_C_TYPE_FIXED64,
			[FT_FIXED32] = PROTOBUF_C_TYPE_FIXED32, [FT_BOOL] = PROTOBUF_C_TYPE_BOOL,
			[FT_STRING] = PROTOBUF_C_TYPE_STRING, [FT_MESSAGE] = PROTOBUF_C_TYPE_MESSAGE,
			[FT_BYTES] = PROTOBUF_C_TYPE_BYTES, [FT_UINT32] = PROTOBUF_C_TYPE_UINT32,
			/* enums: by name when the trace describes the enum */
			[FT_ENUM] = PROTOBUF_C_TYPE_INT32, [FT_SFIXED32] = PROTOBUF_C_TYPE_SFIXED32,
			[FT_SFIXED64] = PROTOBUF_C_TYPE_SFIXED64, [FT_SINT32] = PROTOBUF_C_TYPE_SINT32,
			[FT_SINT64] = PROTOBUF_C_TYPE_SINT64,
		};

		if (xf[i].type <= 0 || xf[i].type > FT_SINT64 || xf[i].type == FT_GROUP || !xf[i].number ||
		    xf[i].number > 536870911)
			continue;
		g->name = xf[i].name;
		g->id = xf[i].number;
		g->type = types[xf[i].type];
		g->label = xf[i].label == LABEL_REPEATED ? PROTOBUF_C_LABEL_REPEATED : PROTOBUF_C_LABEL_OPTIONAL;
		if (g->type == PROTOBUF_C_TYPE_MESSAGE) {
			g->descriptor = message_desc(c, x, xf[i].type_name, depth + 1);
			if (!g->descriptor)
				continue; /* a message we have no description of: skipped */
		}
		if (xf[i].type == FT_ENUM && (g->descriptor = enum_desc(c, x, xf[i].type_name)))
			g->type = PROTOBUF_C_TYPE_ENUM;
		if (g->label == PROTOBUF_C_LABEL_REPEATED) {
			g->quantifier_offset = (unsigned)off;
			off += 8;
		} else if (g->type != PROTOBUF_C_TYPE_STRING && g->type != PROTOBUF_C_TYPE_MESSAGE) {
			g->quantifier_offset = (unsigned)off;
			off += 8;
		}
		g->offset = (unsigned)off;
		off += g->type == PROTOBUF_C_TYPE_BYTES && g->label != PROTOBUF_C_LABEL_REPEATED ?
			       align8(sizeof(ProtobufCBinaryData)) : 8;
		nf++;
	}
	qsort(f, nf, sizeof(*f), cmp_number);
	for (size_t i = 0; i < nf; i++) {
		by_name[i] = (unsigned)i;
		if (i == 0 || f[i].id != f[i - 1].id + 1)
			ranges[nr++] = (ProtobufCIntRange){ (int)f[i].id, (unsigned)i };
	}
	ranges[nr] = (ProtobufCIntRange){ 0, (unsigned)nf };
	for (size_t i = 1; i < nf; i++) /* by name (a few fields) */
		for (size_t k = i; k > 0 && strcmp(f[by_name[k - 1]].name, f[by_name[k]].name) > 0; k--) {
			unsigned t = by_name[k];

			by_name[k] = by_name[k - 1];
			by_name[k - 1] = t;
		}
	d->sizeof_message = align8(off);
	d->n_fields = (unsigned)nf;
	d->fields = f;
	d->fields_sorted_by_name = by_name;
	d->n_field_ranges = (unsigned)nr;
	d->field_ranges = ranges;
	d->message_init = NULL; /* protobuf-c initializes by the fields */
	return d;
}

static const ProtobufCMessageDescriptor *message_desc(pctx *c, struct tt_proto_ext *x, const char *name, int depth)
{
	xmsg *m = NULL;

	/* a debug annotation inside an extension is one (proto_typed_args.c) */
	if (strcmp(name, ".perfetto.protos.DebugAnnotation") == 0)
		return &perfetto__protos__debug_annotation__descriptor;
	for (size_t i = 0; i < x->msgs.n && !m; i++)
		if (strcmp(x->msgs.v[i].name, name) == 0)
			m = &x->msgs.v[i];
	if (!m || m->building || depth > 16)
		return m ? m->desc : NULL;
	if (!m->desc) {
		size_t i = (size_t)(m - x->msgs.v);
		ProtobufCMessageDescriptor *d;

		m->building = 1;
		d = build(c, x, m->name, m->fields.v, m->fields.n, depth);
		m = &x->msgs.v[i];
		m->building = 0;
		m->desc = d;
	}
	return m->desc;
}

/* ---- events ---------------------------------------------------------------- */

int tt_proto_ext_keep(pctx *c, pseq *s, const TEv *te)
{
	const ProtobufCMessage *b = &te->base;
	struct tt_proto_ext *x;
	xevent e = { c->ord, s, 0, NULL };
	size_t n = 0;

	for (size_t i = 0; i < b->n_unknown_fields; i++)
		n += b->unknown_fields[i].tag >= EXT_FIRST;
	if (!n || !(x = ext_get(c)))
		return 0;
	if (!(e.f = calloc(n, sizeof(*e.f)))) {
		c->oom = 1;
		return 0;
	}
	for (size_t i = 0; i < b->n_unknown_fields; i++) {
		const ProtobufCMessageUnknownField *u = &b->unknown_fields[i];

		if (u->tag < EXT_FIRST)
			continue;
		e.f[e.n] = *u;
		e.f[e.n].data = malloc(u->len ? u->len : 1);
		if (!e.f[e.n].data) {
			c->oom = 1;
			break;
		}
		memcpy(e.f[e.n].data, u->data, u->len);
		e.n++;
	}
	if (TT_VEC_PUSH(x->events, e)) {
		for (size_t i = 0; i < e.n; i++)
			free(e.f[i].data);
		free(e.f);
		c->oom = 1;
		return 0;
	}
	return 1;
}

static const ProtobufCMessageDescriptor empty_desc = {
	PROTOBUF_C__MESSAGE_DESCRIPTOR_MAGIC, "Empty", "Empty", "Empty", "", sizeof(ProtobufCMessage),
	0, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL,
};

uint32_t tt_proto_ext_args(pctx *c, const prec *r)
{
	struct tt_proto_ext *x = c->ext;
	size_t lo = 0, hi = x ? x->events.n : 0;
	ProtobufCMessage holder = { &empty_desc, 0, NULL };
	ProtobufCMessage *m;
	xevent *e;
	uint8_t *buf;
	size_t len;
	uint32_t set;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->events.v[mid].ord < (uint32_t)r->id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!x || lo >= x->events.n || x->events.v[lo].ord != (uint32_t)r->id)
		return r->args;
	e = &x->events.v[lo];
	if (x->dirty || !x->te_desc) {
		x->te_desc = build(c, x, ".perfetto.protos.TrackEvent", x->te.v, x->te.n, 0);
		x->dirty = 0;
	}
	if (!x->te_desc || !x->te_desc->n_fields)
		return r->args;
	holder.n_unknown_fields = (unsigned)e->n;
	holder.unknown_fields = e->f;
	len = protobuf_c_message_get_packed_size(&holder);
	if (!(buf = malloc(len ? len : 1))) {
		c->oom = 1;
		return r->args;
	}
	protobuf_c_message_pack(&holder, buf);
	m = protobuf_c_message_unpack(x->te_desc, NULL, len, buf);
	free(buf);
	if (!m) {
		stat(c, TT_STAT_track_event_parser_errors);
		return r->args;
	}
	tt_storage_args_begin(c->st);
	tt_proto_reflect_args(c, e->seq, m);
	set = tt_args_tracker_end(c->im->args);
	protobuf_c_message_free_unpacked(m, NULL);
	return tt_args_tracker_merge(c->im->args, r->args, set);
}

void tt_proto_ext_free(pctx *c)
{
	struct tt_proto_ext *x = c->ext;

	if (!x)
		return;
	for (size_t i = 0; i < x->msgs.n; i++) {
		for (size_t k = 0; k < x->msgs.v[i].fields.n; k++) {
			free(x->msgs.v[i].fields.v[k].name);
			free(x->msgs.v[i].fields.v[k].type_name);
		}
		TT_VEC_FREE(x->msgs.v[i].fields);
		free(x->msgs.v[i].name);
	}
	TT_VEC_FREE(x->msgs);
	for (size_t i = 0; i < x->enums.n; i++) {
		for (size_t k = 0; k < x->enums.v[i].values.n; k++)
			free((char *)x->enums.v[i].values.v[k].name);
		TT_VEC_FREE(x->enums.v[i].values);
		free(x->enums.v[i].name);
	}
	TT_VEC_FREE(x->enums);
	for (size_t k = 0; k < x->te.n; k++) {
		free(x->te.v[k].name);
		free(x->te.v[k].type_name);
	}
	TT_VEC_FREE(x->te);
	for (size_t i = 0; i < x->events.n; i++) {
		for (size_t k = 0; k < x->events.v[i].n; k++)
			free(x->events.v[i].f[k].data);
		free(x->events.v[i].f);
	}
	TT_VEC_FREE(x->events);
	for (size_t i = 0; i < x->built.n; i++)
		free(x->built.v[i]);
	TT_VEC_FREE(x->built);
	free(x);
	c->ext = NULL;
}
