/*
 * proto_atrace.c - the atrace marker grammar (see proto_atrace.h).
 */
#include "proto_atrace.h"

#include <string.h>

/* Parses an optionally signed decimal integer filling [s, e); 0 on success. */
static int parse_int(const char *s, const char *e, int64_t *out)
{
	uint64_t v = 0;
	int neg = 0;

	if (s < e && (*s == '-' || *s == '+'))
		neg = *s++ == '-';
	if (s == e)
		return -1;
	for (; s < e; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

/* Splits the next '|'-terminated field off [*p, e). */
static int next_field(const char **p, const char *e, const char **fs, const char **fe)
{
	const char *bar;

	if (*p > e)
		return -1;
	*fs = *p;
	bar = memchr(*p, '|', (size_t)(e - *p));
	*fe = bar ? bar : e;
	*p = bar ? bar + 1 : e + 1;
	return 0;
}

static const char *last_bar(const char *s, const char *e)
{
	while (e > s) {
		if (e[-1] == '|')
			return e - 1;
		e--;
	}
	return NULL;
}

int tt_proto_atrace_parse(const char *buf, size_t len, tt_atrace *out)
{
	const char *e, *p, *fs = NULL, *fe = NULL, *bar;

	memset(out, 0, sizeof(*out));
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\0'))
		len--;
	if (len < 1)
		return -1;
	e = buf + len;
	out->phase = buf[0];
	if (!strchr("BECSFINGH", out->phase))
		return -1;
	if (len == 1)
		return out->phase == 'E' ? 0 : -1;
	if (buf[1] != '|')
		return -1;
	p = buf + 2;
	if (next_field(&p, e, &fs, &fe) || parse_int(fs, fe, &out->tgid)) {
		/* "E|" alone, or a tgid that is not a number */
		return out->phase == 'E' && fs == fe ? 0 : -1;
	}
	out->has_tgid = 1;
	switch (out->phase) {
	case 'E':
		return 0; /* anything after the tgid is ignored */
	case 'B':
	case 'I':
		if (p > e)
			return -1;
		out->name = p;
		out->name_len = (size_t)(e - p);
		return 0;
	case 'C':
	case 'S':
	case 'F':
		/* name|value[|cat]: the name may contain '|', so take the value
		 * from the end; a trailing category is allowed for C only. */
		if (p > e)
			return -1;
		bar = last_bar(p, e);
		if (!bar)
			return -1;
		if (parse_int(bar + 1, e, &out->value)) {
			const char *bar2;
			if (out->phase != 'C')
				return -1;
			bar2 = last_bar(p, bar);
			if (!bar2 || parse_int(bar2 + 1, bar, &out->value))
				return -1;
			bar = bar2;
		}
		out->name = p;
		out->name_len = (size_t)(bar - p);
		return 0;
	case 'N':
		if (next_field(&p, e, &fs, &fe) || p > e)
			return -1;
		out->track = fs;
		out->track_len = (size_t)(fe - fs);
		out->name = p;
		out->name_len = (size_t)(e - p);
		return 0;
	case 'G':
	case 'H':
		if (next_field(&p, e, &fs, &fe))
			return -1;
		out->track = fs;
		out->track_len = (size_t)(fe - fs);
		if (p > e)
			return -1;
		bar = last_bar(p, e);
		if (!bar) {
			/* H|tgid|track|cookie */
			if (out->phase != 'H' || parse_int(p, e, &out->value))
				return -1;
			return 0;
		}
		if (parse_int(bar + 1, e, &out->value))
			return -1;
		out->name = p;
		out->name_len = (size_t)(bar - p);
		return 0;
	}
	return -1;
}
