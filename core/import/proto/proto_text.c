/*
 * proto_text.c - a message's bytes as protobuf text, the way trace
 * processor's protozero_to_text writes the trace config into metadata
 * trace_config_pbtxt: fields in the order they come on the wire (not by
 * number), one a line, nested messages indented by two spaces, enums by
 * name, strings quoted with Java's escapes, floats as "%f". A field the
 * descriptor does not declare (or whose wire type does not fit it) is
 * printed by number: varints as signed 64-bit, fixed ones as 0x hex,
 * length-delimited ones as a quoted string. protobuf-c's descriptors are
 * the reflection, so naming a field is declaring it in
 * protos/perfetto_trace.proto.
 *
 * Known limits: packed bool, sint32 and sint64 fields are printed raw
 * with trace processor's comment (it cannot read them either);
 * extensions are not named; messages nested deeper than MAX_DEPTH are
 * printed as strings.
 */
#include "proto_text.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto_read.h"

#define MAX_DEPTH 64

typedef struct out {
	char *s;
	size_t n, cap;
	int oom;
	int indent; /* spaces */
} out;

static void put(out *o, const char *p, size_t n)
{
	if (o->oom)
		return;
	if (o->n + n + 1 > o->cap) {
		size_t ncap = o->cap ? o->cap : 256;
		char *ns;

		while (ncap < o->n + n + 1)
			ncap *= 2;
		ns = realloc(o->s, ncap);
		if (!ns) {
			o->oom = 1;
			return;
		}
		o->s = ns;
		o->cap = ncap;
	}
	memcpy(o->s + o->n, p, n);
	o->n += n;
	o->s[o->n] = '\0';
}

static void puts_(out *o, const char *s)
{
	put(o, s, strlen(s));
}

static void putf(out *o, const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (k > 0)
		put(o, buf, (size_t)k < sizeof(buf) ? (size_t)k : sizeof(buf) - 1);
}

static void newline(out *o)
{
	puts_(o, "\n");
	for (int i = 0; i < o->indent; i++)
		puts_(o, " ");
}

/* Java's TextFormat escaping (trace processor's): C escapes, quotes and
 * backslash escaped, bytes outside printable ASCII as 3-digit octal. */
static void quoted(out *o, const unsigned char *p, size_t n)
{
	puts_(o, "\"");
	for (size_t i = 0; i < n; i++) {
		unsigned char c = p[i];
		const char *e = NULL;

		switch (c) {
		case '\a': e = "\\a"; break;
		case '\b': e = "\\b"; break;
		case '\f': e = "\\f"; break;
		case '\n': e = "\\n"; break;
		case '\r': e = "\\r"; break;
		case '\t': e = "\\t"; break;
		case '\v': e = "\\v"; break;
		case '\\': e = "\\\\"; break;
		case '\'': e = "\\'"; break;
		case '"': e = "\\\""; break;
		default: break;
		}
		if (e)
			puts_(o, e);
		else if (c >= 0x20 && c <= 0x7e)
			put(o, (const char *)&c, 1);
		else
			putf(o, "\\%c%c%c", '0' + ((c >> 6) & 3), '0' + ((c >> 3) & 7), '0' + (c & 7));
	}
	puts_(o, "\"");
}

static void enum_value(out *o, const ProtobufCFieldDescriptor *f, int32_t v)
{
	const ProtobufCEnumValue *ev = f->descriptor ? protobuf_c_enum_descriptor_get_value(f->descriptor, v) : NULL;

	if (ev)
		putf(o, "%s: %s", f->name, ev->name);
	else
		putf(o, "%u: %" PRId64, f->id, (int64_t)v);
}

static void varint_field(out *o, const ProtobufCFieldDescriptor *f, uint32_t id, uint64_t v)
{
	switch (f ? (int)f->type : -1) {
	case PROTOBUF_C_TYPE_INT32:
		putf(o, "%s: %" PRId32, f->name, (int32_t)(uint32_t)v);
		return;
	case PROTOBUF_C_TYPE_SINT32:
		putf(o, "%s: %" PRId32, f->name, (int32_t)((uint32_t)v >> 1) ^ -(int32_t)(v & 1));
		return;
	case PROTOBUF_C_TYPE_UINT32:
		putf(o, "%s: %" PRIu32, f->name, (uint32_t)v);
		return;
	case PROTOBUF_C_TYPE_INT64:
		putf(o, "%s: %" PRId64, f->name, (int64_t)v);
		return;
	case PROTOBUF_C_TYPE_SINT64:
		putf(o, "%s: %" PRId64, f->name, (int64_t)(v >> 1) ^ -(int64_t)(v & 1));
		return;
	case PROTOBUF_C_TYPE_UINT64:
		putf(o, "%s: %" PRIu64, f->name, v);
		return;
	case PROTOBUF_C_TYPE_BOOL:
		putf(o, "%s: %s", f->name, v ? "true" : "false");
		return;
	case PROTOBUF_C_TYPE_ENUM:
		enum_value(o, f, (int32_t)(uint32_t)v);
		return;
	default:
		putf(o, "%u: %" PRId64, id, (int64_t)v);
		return;
	}
}

static void fixed32_field(out *o, const ProtobufCFieldDescriptor *f, uint32_t id, uint32_t v)
{
	float fv;

	switch (f ? (int)f->type : -1) {
	case PROTOBUF_C_TYPE_SFIXED32:
		putf(o, "%s: %" PRId32, f->name, (int32_t)v);
		return;
	case PROTOBUF_C_TYPE_FIXED32:
		putf(o, "%s: %" PRIu32, f->name, v);
		return;
	case PROTOBUF_C_TYPE_FLOAT:
		memcpy(&fv, &v, sizeof(fv));
		putf(o, "%s: %f", f->name, (double)fv);
		return;
	default:
		putf(o, "%u: 0x%08" PRIx32, id, v);
		return;
	}
}

static void fixed64_field(out *o, const ProtobufCFieldDescriptor *f, uint32_t id, uint64_t v)
{
	double dv;

	switch (f ? (int)f->type : -1) {
	case PROTOBUF_C_TYPE_SFIXED64:
		putf(o, "%s: %" PRId64, f->name, (int64_t)v);
		return;
	case PROTOBUF_C_TYPE_FIXED64:
		putf(o, "%s: %" PRIu64, f->name, v);
		return;
	case PROTOBUF_C_TYPE_DOUBLE:
		memcpy(&dv, &v, sizeof(dv));
		putf(o, "%s: %f", f->name, dv);
		return;
	default:
		putf(o, "%u: 0x%016" PRIx64, id, v);
		return;
	}
}

static uint64_t le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* A packed repeated field: each value as "name: value", one a line; a
 * value cut short ends with trace processor's comment. */
static void packed_field(out *o, const ProtobufCFieldDescriptor *f, const unsigned char *p, size_t n)
{
	const unsigned char *e = n ? p + n : p; /* (p NULL when n is 0) */
	int first = 1;

	while (p < e) {
		uint64_t v;
		int k;

		if (!first)
			newline(o);
		switch (f->type) {
		case PROTOBUF_C_TYPE_FIXED32:
		case PROTOBUF_C_TYPE_SFIXED32:
		case PROTOBUF_C_TYPE_FLOAT:
			k = e - p >= 4 ? 4 : -1;
			if (k > 0)
				fixed32_field(o, f, f->id, (uint32_t)le(p, 4));
			break;
		case PROTOBUF_C_TYPE_FIXED64:
		case PROTOBUF_C_TYPE_SFIXED64:
		case PROTOBUF_C_TYPE_DOUBLE:
			k = e - p >= 8 ? 8 : -1;
			if (k > 0)
				fixed64_field(o, f, f->id, le(p, 8));
			break;
		default:
			k = tt_proto_varint(p, e, &v);
			if (k > 0)
				varint_field(o, f, f->id, v);
			break;
		}
		if (k <= 0) {
			putf(o, "# Packed decoding failure for field %s\n", f->name);
			return;
		}
		p += k;
		first = 0;
	}
}

static void message(out *o, const ProtobufCMessageDescriptor *d, const unsigned char *p, size_t n, int depth);

static void bytes_field(out *o, const ProtobufCFieldDescriptor *f, uint32_t id, const unsigned char *p, size_t n,
			int depth)
{
	switch (f ? (int)f->type : -1) {
	case PROTOBUF_C_TYPE_STRING:
	case PROTOBUF_C_TYPE_BYTES:
		putf(o, "%s: ", f->name);
		quoted(o, p, n);
		return;
	case PROTOBUF_C_TYPE_MESSAGE:
		if (depth >= MAX_DEPTH)
			break;
		putf(o, "%s {", f->name);
		o->indent += 2;
		message(o, f->descriptor, p, n, depth + 1);
		o->indent -= 2;
		newline(o);
		puts_(o, "}");
		return;
	case PROTOBUF_C_TYPE_BOOL:
	case PROTOBUF_C_TYPE_SINT32:
	case PROTOBUF_C_TYPE_SINT64:
		putf(o, "# Packed type %d not supported. Printing raw string.",
		     f->type == PROTOBUF_C_TYPE_BOOL ? 8 : f->type == PROTOBUF_C_TYPE_SINT32 ? 17 : 18);
		newline(o);
		break;
	case -1:
		break;
	default:
		packed_field(o, f, p, n);
		return;
	}
	putf(o, "%u: ", id);
	quoted(o, p, n);
}

static void message(out *o, const ProtobufCMessageDescriptor *d, const unsigned char *p, size_t n, int depth)
{
	const unsigned char *e;

	if (!n)
		return; /* (an empty message may come with no bytes at all: p NULL) */
	e = p + n;

	while (p < e) {
		const unsigned char *at = p;
		const ProtobufCFieldDescriptor *f;
		uint64_t tag, v;
		uint32_t id;
		int k = tt_proto_varint(p, e, &tag);

		if (k <= 0 || tag >> 3 == 0 || tag >> 3 > UINT32_MAX)
			goto extra;
		p += k;
		id = (uint32_t)(tag >> 3);
		f = d ? protobuf_c_message_descriptor_get_field(d, id) : NULL;
		/* (trace processor separates by its whole output so far) */
		switch (tag & 7) {
		case 0:
			if ((k = tt_proto_varint(p, e, &v)) <= 0)
				goto bad;
			p += k;
			if (o->n)
				newline(o);
			varint_field(o, f, id, v);
			break;
		case 1:
			if (e - p < 8)
				goto bad;
			if (o->n)
				newline(o);
			fixed64_field(o, f, id, le(p, 8));
			p += 8;
			break;
		case 5:
			if (e - p < 4)
				goto bad;
			if (o->n)
				newline(o);
			fixed32_field(o, f, id, (uint32_t)le(p, 4));
			p += 4;
			break;
		case 2:
			if ((k = tt_proto_varint(p, e, &v)) <= 0 || v > (uint64_t)(e - p - k))
				goto bad;
			p += k;
			if (o->n)
				newline(o);
			bytes_field(o, f, id, p, (size_t)v, depth);
			p += v;
			break;
		default:
			goto bad;
		}
		continue;
bad:
		p = at;
extra:
		if (o->n)
			newline(o);
		puts_(o, "# Extra bytes: ");
		quoted(o, p, (size_t)(e - p));
		puts_(o, "\n");
		return;
	}
}

char *tt_proto_text(const ProtobufCMessageDescriptor *d, const unsigned char *p, size_t n)
{
	out o = { 0 };

	put(&o, "", 0);
	message(&o, d, p, n, 0);
	if (o.oom) {
		free(o.s);
		return NULL;
	}
	return o.s;
}
