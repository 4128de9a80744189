/*
 * systrace_line.c - the columns of an ftrace text line (see
 * systrace_line.h). trace processor finds them with the regular
 * expression
 *
 *   -(\d+)\s+\(?\s*(\d+|-+)?\)?\s?\[(\d+)\]\s*([a-zA-Z.]{3}[0-9a-f.]{1,2}\s*)?(\d+\.\d+):\s+(\S+):
 *
 * searched from the left (leftmost match, greedy, backtracking). Each
 * step below is that expression's step; where a greedy step could give
 * back characters it is said why giving back cannot help, except for the
 * flags' one-or-two hex digits, which are tried both ways.
 */
#include "systrace_line.h"

#include "textscan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ECMAScript's \s over ASCII */

static int is_dig(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static size_t digits(const char *s, size_t i, size_t n)
{
	while (i < n && is_dig((unsigned char)s[i]))
		i++;
	return i;
}

static size_t spaces(const char *s, size_t i, size_t n)
{
	while (i < n && tt_text_is_space((unsigned char)s[i]))
		i++;
	return i;
}

typedef struct match {
	size_t pid, pid_end, tgid, tgid_end, cpu, cpu_end, ts, ts_end, ev, ev_end, end;
} match;

/* (\d+\.\d+):\s+(\S+): at i. Each \d+ runs to a non-digit and \s+ to a
 * non-space, which the next step needs; \S+ gives back up to the last
 * ':' of its word (not its first character). */
static int match_tail(const char *s, size_t i, size_t n, match *m)
{
	size_t j, w;

	m->ts = i;
	j = digits(s, i, n);
	if (j == i || j >= n || s[j] != '.')
		return -1;
	i = j + 1;
	j = digits(s, i, n);
	if (j == i || j >= n || s[j] != ':')
		return -1;
	m->ts_end = j;
	i = j + 1;
	j = spaces(s, i, n);
	if (j == i)
		return -1;
	i = j;
	for (w = i; w < n && !tt_text_is_space((unsigned char)s[w]); w++)
		;
	for (j = w; j > i + 1; j--)
		if (s[j - 1] == ':') {
			m->ev = i;
			m->ev_end = j - 1;
			m->end = j;
			return 0;
		}
	return -1;
}

static int is_flag_a(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.';
}

static int is_flag_b(unsigned char c)
{
	return is_dig(c) || (c >= 'a' && c <= 'f') || c == '.';
}

/* The whole expression with its '-' at s[i]. */
static int match_at(const char *s, size_t i, size_t n, match *m)
{
	size_t j;

	m->pid = ++i;
	j = digits(s, i, n);
	if (j == i)
		return -1;
	m->pid_end = i = j;
	/* \s+\(?\s*: all the blanks, a '(', all the blanks (giving any back
	 * leaves a blank or '(' where none of the next steps takes one) */
	j = spaces(s, i, n);
	if (j == i)
		return -1;
	i = j;
	if (i < n && s[i] == '(')
		i++;
	i = spaces(s, i, n);
	/* (\d+|-+)?\)?\s?\[ : giving back a digit, a dash or the ')' leaves
	 * it before the '[' */
	m->tgid = i;
	if (i < n && is_dig((unsigned char)s[i]))
		i = digits(s, i, n);
	else
		while (i < n && s[i] == '-')
			i++;
	m->tgid_end = i;
	if (i < n && s[i] == ')')
		i++;
	if (i < n && tt_text_is_space((unsigned char)s[i]))
		i++;
	if (i >= n || s[i] != '[')
		return -1;
	m->cpu = ++i;
	j = digits(s, i, n);
	if (j == i || j >= n || s[j] != ']')
		return -1;
	m->cpu_end = j;
	i = spaces(s, j + 1, n);
	/* ([a-zA-Z.]{3}[0-9a-f.]{1,2}\s*)? : with two, with one, without */
	if (i + 3 < n && is_flag_a((unsigned char)s[i]) && is_flag_a((unsigned char)s[i + 1]) &&
	    is_flag_a((unsigned char)s[i + 2]) && is_flag_b((unsigned char)s[i + 3])) {
		if (i + 4 < n && is_flag_b((unsigned char)s[i + 4]) && match_tail(s, spaces(s, i + 5, n), n, m) == 0)
			return 0;
		if (match_tail(s, spaces(s, i + 4, n), n, m) == 0)
			return 0;
	}
	return match_tail(s, i, n, m);
}

/* A column of digits as strtoul reads it, cut to 32 bits as trace
 * processor's conversion cuts it. */
static uint32_t u32_of(const char *s, size_t n)
{
	char b[32];

	while (n > 1 && *s == '0')
		s++, n--;
	if (n >= sizeof(b))
		return UINT32_MAX; /* (strtoul saturates, the cut keeps the ones) */
	memcpy(b, s, n);
	b[n] = '\0';
	return (uint32_t)strtoul(b, NULL, 10);
}

int tt_systrace_line_read(const char *line, size_t len, tt_systrace_line *out)
{
	/* (trace processor matches the line as a C string: up to a NUL) */
	const char *nul = memchr(line, '\0', len);
	size_t n = nul ? (size_t)(nul - line) : len;
	match m;
	size_t i;

	for (i = 0; i < n; i++) {
		if (line[i] != '-' || match_at(line, i, n, &m) != 0)
			continue;
		{
			char small[64], *b = small;
			size_t tl = m.ts_end - m.ts;
			double d;

			if (tl >= sizeof(small) && !(b = malloc(tl + 1)))
				return -1; /* (digits by the thousand: out of memory) */
			memcpy(b, line + m.ts, tl);
			b[tl] = '\0';
			d = strtod(b, NULL) * 1e9;
			if (b != small)
				free(b);
			if (!(fabs(d) < 9.2e18))
				return -1; /* (beyond int64: the cast has no value) */
			out->ts = (int64_t)d;
		}
		out->pid = u32_of(line + m.pid, m.pid_end - m.pid);
		out->cpu = u32_of(line + m.cpu, m.cpu_end - m.cpu);
		out->task = line;
		out->task_len = i;
		tt_text_trim(&out->task, &out->task_len);
		out->tgid = line + m.tgid;
		out->tgid_len = m.tgid_end - m.tgid;
		out->event = line + m.ev;
		out->event_len = m.ev_end - m.ev;
		out->args = line + m.end;
		out->args_len = len - m.end;
		tt_text_trim(&out->args, &out->args_len);
		return 0;
	}
	return -1;
}
