/*
 * json_lenient.c - the two liberties trace processor's JSON reader takes
 * that yajl does not: a comma before a closing '}' or ']' ("trailing
 * comma"), and raw control characters inside strings. yajl still does
 * all the parsing; this pass only rewrites those bytes, in place and
 * byte for byte, before yajl sees them:
 *   - a trailing comma becomes a space (it carries nothing);
 *   - a raw control character inside a string becomes a byte that valid
 *     UTF-8 never holds (C0, C1, F5-FF: yajl passes them through, its
 *     UTF-8 check being off), and tt_json_lenient_unmap gives the
 *     control character back when the string reaches a callback.
 * Exact or not at all: the control characters without such a byte are
 * left for yajl to refuse, and a string holding both a rewritten
 * character and one of those bytes itself stops the parse
 * (tt_json_lenient.conflict), since they could not be told apart. The
 * file offsets of the rewritten bytes say which strings to give back,
 * so strings are read alike wherever a parse started.
 * Only the serial parser uses it (a chunk parsed in parallel that fails
 * on these bytes is read again by the serial parser).
 */
#include "json_int.h"

/* the control characters mapped (the common ones first), and their bytes */
static const unsigned char ctl_from[JSON_LENIENT_NMAP] = { '\n', '\r', '\t', '\f', '\b', '\v', 0x00, 0x1b,
							   0x07, 0x01, 0x02, 0x03, 0x04 };
static const unsigned char ctl_to[JSON_LENIENT_NMAP] = { 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc,
							 0xfd, 0xfe, 0xff, 0xc0, 0xc1 };

/* the bytes each state stops at: in a string, its end, an escape, a
 * control character or a byte of the rewriting; outside, a string or a
 * comma (a table lookup per byte keeps the pass cheap beside yajl) */
static const unsigned char stop_in_str[256] = { ['"'] = 1, ['\\'] = 1, [0] = 1, [1] = 1, [2] = 1, [3] = 1, [4] = 1, [5] = 1, [6] = 1, [7] = 1, [8] = 1, [9] = 1, [10] = 1, [11] = 1, [12] = 1, [13] = 1, [14] = 1, [15] = 1, [16] = 1, [17] = 1, [18] = 1, [19] = 1, [20] = 1, [21] = 1, [22] = 1, [23] = 1, [24] = 1, [25] = 1, [26] = 1, [27] = 1, [28] = 1, [29] = 1, [30] = 1, [31] = 1,
						[0xc0] = 1, [0xc1] = 1, [0xf5] = 1, [0xf6] = 1, [0xf7] = 1, [0xf8] = 1, [0xf9] = 1, [0xfa] = 1, [0xfb] = 1, [0xfc] = 1, [0xfd] = 1, [0xfe] = 1, [0xff] = 1 };
static const unsigned char stop_outside[256] = { ['"'] = 1, [','] = 1 };

static int is_marker(unsigned char c)
{
	return c >= 0xf5 || c == 0xc0 || c == 0xc1;
}

static int is_ws(unsigned char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

static void q_push(struct tt_json_lenient *f, uint64_t off)
{
	if (f->qh && f->qh == f->qn) /* all given back: start over */
		f->qh = f->qn = 0;
	if (f->qn == f->qcap) {
		size_t nc = f->qcap ? f->qcap * 2 : 64;
		uint64_t *nq;

		if (f->qh) { /* room at the front first */
			memmove(f->q, f->q + f->qh, (f->qn - f->qh) * sizeof(*f->q));
			f->qn -= f->qh;
			f->qh = 0;
		} else if ((nq = realloc(f->q, nc * sizeof(*nq)))) {
			f->q = nq;
			f->qcap = nc;
		} else {
			f->oom = 1;
			return;
		}
	}
	f->q[f->qn++] = off;
}

size_t tt_json_lenient(struct tt_json_lenient *f, unsigned char *buf, size_t n, uint64_t base, int at_end)
{
	size_t i = 0;

	if (f->esc && n) { /* the byte after a backslash that ended the last bytes */
		f->esc = 0;
		i = 1;
	}
	while (i < n) {
		unsigned char c;

		if (f->in_str) {
			while (i < n && !stop_in_str[buf[i]])
				i++;
			if (i == n)
				break;
			c = buf[i];
			if (c == '"') {
				f->in_str = 0;
			} else if (c == '\\') {
				if (++i == n) {
					f->esc = 1;
					break;
				}
			} else if (c < 0x20) {
				for (int k = 0; k < JSON_LENIENT_NMAP; k++)
					if (ctl_from[k] == c) {
						if (f->str_marker) {
							f->conflict = 1;
							return i;
						}
						buf[i] = ctl_to[k];
						f->str_ctl = 1;
						q_push(f, base + i);
						break;
					}
			} else {
				if (f->str_ctl) {
					f->conflict = 1;
					return i;
				}
				f->str_marker = 1;
			}
			i++;
			continue;
		}
		while (i < n && !stop_outside[buf[i]])
			i++;
		if (i == n)
			break;
		if (buf[i] == '"') {
			f->in_str = 1;
			f->str_at = base + i;
			f->str_ctl = f->str_marker = 0;
			f->prev_at = f->last_stop;
			f->has_prev = f->has_last;
		} else { /* a comma */
			size_t k = i + 1;

			while (k < n && is_ws(buf[k]))
				k++;
			if (k == n && !at_end && n - i <= JSON_LENIENT_CARRY)
				return i; /* what follows decides: with the next bytes */
			if (k < n && (buf[k] == '}' || buf[k] == ']'))
				buf[i] = ' ';
		}
		f->last_stop = base + i;
		f->has_last = 1;
		i++;
	}
	return n;
}

const unsigned char *tt_json_lenient_unmap(struct tt_json_lenient *f, const unsigned char *s, size_t len,
					   uint64_t end)
{
	int mine = 0;

	while (f->qh < f->qn && f->q[f->qh] < end) { /* rewritten bytes of this string */
		f->qh++;
		mine = 1;
	}
	if (!mine)
		return s;
	if (len > f->cap) {
		unsigned char *nb = realloc(f->buf, len);

		if (!nb)
			return NULL;
		f->buf = nb;
		f->cap = len;
	}
	for (size_t i = 0; i < len; i++) {
		unsigned char c = s[i];

		for (int k = 0; k < JSON_LENIENT_NMAP && is_marker(c); k++)
			if (ctl_to[k] == s[i])
				c = ctl_from[k];
		f->buf[i] = c;
	}
	return f->buf;
}

void tt_json_lenient_free(struct tt_json_lenient *f)
{
	free(f->q);
	f->q = NULL;
	f->qh = f->qn = f->qcap = 0;
	free(f->buf);
	f->buf = NULL;
	f->cap = 0;
}
