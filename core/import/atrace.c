/*
 * atrace.c - the atrace marker grammar (see atrace.h).
 */
#include "atrace.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A field as a number, as strtoul / strtoll read it (leading blanks and a
 * sign allowed, the whole field consumed, not empty; out of range
 * saturates for strtoll and wraps to 32 bits for the tgid, as trace
 * processor's conversions do). Fields longer than any number written
 * in full are refused. */
static int field_num(const char *s, size_t n, int is_u32, int64_t *out)
{
	char b[64], *end;

	if (n == 0 || n >= sizeof(b))
		return -1;
	memcpy(b, s, n);
	b[n] = '\0';
	errno = 0;
	if (is_u32)
		*out = (int64_t)(uint32_t)strtoul(b, &end, 10);
	else
		*out = (int64_t)strtoll(b, &end, 10);
	return *end ? -1 : 0;
}

typedef struct fields {
	const char *s;
	size_t len, off;
} fields;

/* The next '|'-ended field; past the end, empty ones. */
static const char *next_field(fields *f, size_t *n)
{
	size_t start = f->off;

	while (f->off < f->len && f->s[f->off] != '|')
		f->off++;
	*n = f->off > start ? f->off - start : 0;
	f->off++; /* the separator */
	return start < f->len ? f->s + start : f->s + f->len;
}

int tt_atrace_parse(const char *buf, size_t len, tt_atrace *out)
{
	fields f = { buf, len, 0 };
	const char *ph, *tg, *a, *b, *d;
	size_t nph, ntg, na, nb, nd, rest;
	int64_t v;
	int ok;

	memset(out, 0, sizeof(*out));
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\0'))
		len--;
	f.len = len;
	ph = next_field(&f, &nph);
	if (nph == 0)
		return TT_ATRACE_BAD;
	out->phase = ph[0];
	tg = next_field(&f, &ntg);
	if (field_num(tg, ntg, 1, &v) == 0) {
		out->has_tgid = 1;
		out->tgid = (uint32_t)v;
	}
	/* the fields after the tgid, as each phase reads them */
	rest = f.off;
	a = next_field(&f, &na);
	b = next_field(&f, &nb);
	d = next_field(&f, &nd);
	switch (out->phase) {
	case 'B': /* the rest of the text is the name */
		ok = 1;
		if (rest >= len) {
			a = "[empty slice name]";
			na = strlen(a);
		} else {
			a = buf + rest;
			na = len - rest;
		}
		break;
	case 'E': /* (Flutter writes a bare "E"; the tgid is optional) */
		return TT_ATRACE_OK;
	case 'S':
	case 'F':
	case 'C': /* name|value (a counter's trailing category ignored) */
		ok = na && !field_num(b, nb, 0, &out->value);
		break;
	case 'I':
		ok = na != 0;
		break;
	case 'N': /* track|name */
	case 'G': /* track|name|cookie */
		ok = na && nb && (out->phase == 'N' || !field_num(d, nd, 0, &out->value));
		out->track = a;
		out->track_len = na;
		a = b;
		na = nb;
		break;
	case 'H': /* track|cookie or track|name|cookie */
		ok = na && !field_num(nd ? d : b, nd ? nd : nb, 0, &out->value);
		out->track = a;
		out->track_len = na;
		a = NULL;
		na = 0;
		break;
	default:
		if (len >= 23 && memcmp(buf, "trace_event_clock_sync:", 23) == 0)
			return TT_ATRACE_UNSUPPORTED;
		return TT_ATRACE_BAD;
	}
	if (!out->has_tgid || !ok)
		return TT_ATRACE_BAD;
	out->name = a;
	out->name_len = na;
	return TT_ATRACE_OK;
}

/* A field of an atrace marker (or of a name made like one) as a number. */
int tt_atrace_num(const char *s, size_t n, int is_u32, int64_t *out)
{
	return field_num(s, n, is_u32, out);
}

/* The length of the valid UTF-8 sequence at p (n bytes left), 0 if none
 * (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF). */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
	size_t k, i;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		k = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		k = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		k = 4;
	else
		return 0;
	if (k > n)
		return 0;
	for (i = 1; i < k; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0) ||
	    (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90))
		return 0;
	return k;
}

size_t tt_atrace_utf8(const char *buf, size_t len, char *out)
{
	const unsigned char *p = (const unsigned char *)buf;
	size_t i = 0, o = 0;

	while (i < len) {
		size_t k = utf8_seq(p + i, len - i);

		if (k == 0) {
			i++; /* not part of a character: dropped */
			continue;
		}
		memcpy(out + o, p + i, k);
		o += k;
		i += k;
	}
	return o;
}
