/*
 * proto_text.h - a message's bytes as protobuf text, as trace processor
 * prints the trace config (proto_text.c).
 */
#ifndef TT_PROTO_TEXT_H
#define TT_PROTO_TEXT_H

#include <stddef.h>
#include <protobuf-c/protobuf-c.h>

/* The n bytes at p, a message of descriptor d (NULL: every field by
 * number), as text: one field a line, in wire order. A malloc'd string
 * the caller frees ("" for no field); NULL when out of memory. */
char *tt_proto_text(const ProtobufCMessageDescriptor *d, const unsigned char *p, size_t n);

#endif
