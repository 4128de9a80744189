/*
 * regex_guard.c - see regex_guard.h.
 */
#include "regex_guard.h"

#include <ctype.h>
#include <stdio.h>

/* glibc's regcomp builds a copy of a repeated part for each repeat
 * (`x{1,200}` is 200 copies of x, `x+` is x then x*), and repeats that
 * are stacked (`x++`) or nested (`(x{9}){9}`) multiply: a rules file
 * with `a` and forty `+` took more than a gigabyte (found by
 * fuzz_describe). The size regcomp would build is estimated from the
 * ERE's syntax (atoms, groups, alternation, repeats; brackets and
 * escapes are one atom) and a regex past RE_NODES parts, or nesting past
 * RE_DEPTH groups, is refused before regcomp sees it. The shipped
 * description rules need at most a few hundred. So is a back-reference
 * (\1-\9) where the caller says: POSIX EREs have none, glibc takes them,
 * and matching `^(a*)*\1\1\1$` against a name of 200 letters ran for
 * more than 30 s (SQL's regexp keeps them, as trace processor's regcomp
 * does). Syntax errors are left to regcomp. */
#define RE_NODES 20000.0
#define RE_DEPTH 64
#define TOO_BIG "too big (its repeats would copy its parts past 20,000)"

/* A bracket expression's end: the ']' that closes it (a first ']' and
 * [:class:], [=x=], [.x.] inside are part of it), or the end of s. */
static const char *bracket_end(const char *s)
{
	s++;
	if (*s == '^')
		s++;
	if (*s == ']')
		s++;
	for (; *s && *s != ']'; s++)
		if (*s == '[' && (s[1] == ':' || s[1] == '=' || s[1] == '.')) {
			char k = s[1];
			const char *e = s + 2;

			while (*e && !(e[0] == k && e[1] == ']'))
				e++;
			if (!*e)
				return e;
			s = e + 1;
		}
	return s;
}

/* How many copies a repeat at s makes of what it follows (1 for * and ?),
 * and where the repeat ends; 0 when s is not a repeat. */
static double repeat_factor(const char *s, const char **end)
{
	double m = 0, n = -1;

	if (*s == '*' || *s == '?' || *s == '+') {
		*end = s + 1;
		return *s == '+' ? 2 : 1;
	}
	if (*s != '{' || !isdigit((unsigned char)s[1]))
		return 0;
	for (s++; isdigit((unsigned char)*s); s++)
		m = m * 10 + (*s - '0');
	if (*s == ',') {
		n = 0;
		for (s++; isdigit((unsigned char)*s); s++)
			n = n * 10 + (*s - '0');
		if (s[-1] == ',')
			n = m + 1; /* {m,}: m copies and a star */
	}
	if (*s != '}')
		return 0;
	*end = s + 1;
	n = n < 0 ? m : n;
	return n < 1 ? 1 : n;
}

/* NULL when regcomp may have the regex, else why not. */
static const char *refused(const char *s, int backrefs)
{
	double sum[RE_DEPTH + 1] = { 0 }, last = 0;
	int depth = 0;

	while (*s) {
		const char *end = NULL;
		double f = repeat_factor(s, &end);

		if (f > 0) {
			/* the unit before counts f times */
			sum[depth] += last * (f - 1);
			last *= f;
			s = end;
		} else if (*s == '(') {
			if (depth == RE_DEPTH)
				return "groups nest too deep";
			sum[++depth] = 0;
			last = 0;
			s++;
		} else if (*s == ')' && depth > 0) {
			last = sum[depth] > 1 ? sum[depth] : 1;
			sum[--depth] += last;
			s++;
		} else if (*s == '|') {
			last = 0;
			s++;
		} else {
			if (*s == '[')
				s = bracket_end(s);
			else if (*s == '\\' && s[1] >= '1' && s[1] <= '9' && !backrefs)
				return "back-references (\\1-\\9) are not allowed";
			else if (*s == '\\' && s[1])
				s++;
			if (*s)
				s++;
			sum[depth] += 1;
			last = 1;
		}
		if (sum[depth] > RE_NODES || last > RE_NODES)
			return TOO_BIG;
	}
	for (int d = 0; d < depth; d++)
		sum[0] += sum[d + 1];
	return sum[0] > RE_NODES ? TOO_BIG : NULL;
}

int tt_regex_compile(regex_t *re, const char *pat, int cflags, int backrefs, char *msg, size_t msglen)
{
	const char *why = refused(pat, backrefs);
	int e;

	if (why) {
		snprintf(msg, msglen, "%s", why);
		return -1;
	}
	if ((e = regcomp(re, pat, cflags)) != 0) {
		regerror(e, re, msg, msglen);
		return -1;
	}
	return 0;
}
