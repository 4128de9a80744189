/*
 * psql_tok.h - the pieces of the PerfettoSQL preprocessor shared by
 * perfetto_sql.c (statements) and psql_macro.c (macro expansion): a small
 * SQL tokenizer with a cursor that skips blanks and comments, a growing
 * string, and line/column of an offset. Only these two files include it.
 */
#ifndef TT_PSQL_TOK_H
#define TT_PSQL_TOK_H

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "perfetto_sql.h"

/* Names in a list: macro arguments, schema columns. */
#define MAX_ARGS 64

/* ---- tokens ---------------------------------------------------------------- */

enum { T_END = TT_TOK_END, T_SPACE = TT_TOK_SPACE, T_ID = TT_TOK_ID, T_STR = TT_TOK_STR,
       T_NUM = TT_TOK_NUM, T_VAR = TT_TOK_VAR, T_PUNCT = TT_TOK_PUNCT };

static inline int id_char(unsigned char c)
{
	return isalnum(c) || c == '_' || c == '$' || c >= 0x80;
}

/* Returns the end of the token starting at s[i] and its kind. An
 * unterminated string or comment runs to the end (SQLite reports it). */
static inline size_t lex(const char *s, size_t i, int *kind)
{
	unsigned char c = (unsigned char)s[i];
	size_t j = i + 1;

	if (!c) {
		*kind = T_END;
		return i;
	}
	if (isspace(c) || (c == '-' && s[j] == '-') || (c == '/' && s[j] == '*')) {
		*kind = T_SPACE;
		for (j = i; s[j];) {
			if (isspace((unsigned char)s[j])) {
				j++;
			} else if (s[j] == '-' && s[j + 1] == '-') {
				while (s[j] && s[j] != '\n')
					j++;
			} else if (s[j] == '/' && s[j + 1] == '*') {
				const char *e = strstr(s + j + 2, "*/");

				j = e ? (size_t)(e - s) + 2 : strlen(s);
			} else {
				break;
			}
		}
		return j;
	}
	if (c == '\'' || c == '"' || c == '`' || c == '[') {
		char close = c == '[' ? ']' : (char)c;

		*kind = c == '\'' ? T_STR : T_ID;
		for (; s[j]; j++) {
			if (s[j] == close) {
				if (close != ']' && s[j + 1] == close) {
					j++;
					continue;
				}
				return j + 1;
			}
		}
		return j;
	}
	if ((c == '$' || c == ':' || c == '@') && id_char((unsigned char)s[j]) && s[j] != '$') {
		*kind = T_VAR;
		while (id_char((unsigned char)s[j]))
			j++;
		return j;
	}
	if (isalpha(c) || c == '_' || c >= 0x80) {
		*kind = T_ID;
		while (id_char((unsigned char)s[j]))
			j++;
		return j;
	}
	if (isdigit(c) || (c == '.' && isdigit((unsigned char)s[j]))) {
		*kind = T_NUM;
		while (isalnum((unsigned char)s[j]) || s[j] == '.' ||
		       ((s[j] == '+' || s[j] == '-') && (s[j - 1] == 'e' || s[j - 1] == 'E')))
			j++;
		return j;
	}
	*kind = T_PUNCT;
	return j;
}

/* A cursor over the tokens of s[.. end) that skips blanks and comments. */
struct cur {
	const char *s;
	size_t i, end;
	/* the last token, and where the blanks and comments before it start */
	size_t ts, te, gap;
	int kind;
};

static inline int next(struct cur *c)
{
	c->gap = c->i;
	for (;;) {
		int k;
		size_t e;

		if (c->i >= c->end) {
			c->ts = c->te = c->end;
			return c->kind = T_END;
		}
		e = lex(c->s, c->i, &k);
		if (e > c->end)
			e = c->end;
		c->ts = c->i;
		c->te = e;
		c->i = e;
		if (k != T_SPACE)
			return c->kind = k;
	}
}

static inline int is_kw(const struct cur *c, const char *kw)
{
	size_t n = strlen(kw);

	return c->kind == T_ID && c->te - c->ts == n && strncasecmp(c->s + c->ts, kw, n) == 0;
}

static inline int is_punct(const struct cur *c, char ch)
{
	return c->kind == T_PUNCT && c->s[c->ts] == ch;
}

static inline char *dup_range(const char *s, size_t a, size_t b)
{
	char *r = malloc(b - a + 1);

	if (r) {
		memcpy(r, s + a, b - a);
		r[b - a] = '\0';
	}
	return r;
}

/* Trims blanks and comments at both ends of s[*a, *b). */
static inline void trim(const char *s, size_t *a, size_t *b)
{
	int k;

	while (*a < *b) {
		size_t e = lex(s, *a, &k);

		if (k != T_SPACE)
			break;
		*a = e;
	}
	while (*b > *a && isspace((unsigned char)s[*b - 1]))
		(*b)--;
}

/* ---- a growing string ------------------------------------------------------ */

struct buf {
	char *p;
	size_t n, cap;
	int oom;
};

static inline void put(struct buf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->n + n + 1 > b->cap) {
		size_t nc = b->cap ? b->cap * 2 : 256;
		char *np;

		while (nc < b->n + n + 1)
			nc *= 2;
		np = realloc(b->p, nc);
		if (!np) {
			b->oom = 1;
			return;
		}
		b->p = np;
		b->cap = nc;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = '\0';
}

/* ---- positions ------------------------------------------------------------- */

static inline void line_col(const char *s, size_t off, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off && s[i]; i++) {
		if (s[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

#endif
