/*
 * ctf_meta_lex.c - the TSDL reader's arena (every parsed node, capped), its
 * lexer (tokens with line numbers; comments; TSDL's integer, character and
 * string literals with their escapes) and attribute values (numbers,
 * strings, identifiers and dotted paths). See ctf_meta_int.h.
 */
#include "ctf_meta_int.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- arena ---------------------------------------------------------- */
void *ctfm_arena_alloc(arena *a, size_t n)
{
	chunk *c = a->head;
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (!c || c->cap - c->used < n) {
		size_t cap = n > 60000 ? n : 60000;

		if (a->total + cap > ARENA_MAX_BYTES) {
			a->oom = 1;
			return NULL;
		}
		c = malloc(sizeof(*c) + cap);
		if (!c) {
			a->oom = 1;
			return NULL;
		}
		c->next = a->head;
		c->used = 0;
		c->cap = cap;
		a->head = c;
		a->total += cap;
	}
	p = (char *)c->data + c->used;
	c->used += n;
	memset(p, 0, n);
	return p;
}

char *ctfm_arena_strndup(arena *a, const char *s, size_t n)
{
	char *p = ctfm_arena_alloc(a, n + 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

void ctfm_arena_free(arena *a)
{
	chunk *c = a->head, *n;

	while (c) {
		n = c->next;
		free(c);
		c = n;
	}
	a->head = NULL;
}

/* ---- lexer ------------------------------------------------------------ */

int ctfm_perr(parser *p, const char *fmt, ...)
{
	char buf[200];
	va_list ap;

	if (p->failed)
		return -1;
	p->failed = 1;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	tt_err_set(p->err, p->ar->oom ? TT_ENOMEM : TT_EINVAL, "%s:%d: %s", p->path,
		   p->tok.line, buf);
	return -1;
}

static void skip_space(parser *p)
{
	for (;;) {
		while (p->pos < p->len && isspace((unsigned char)p->text[p->pos])) {
			if (p->text[p->pos] == '\n')
				p->line++;
			p->pos++;
		}
		if (p->pos + 1 < p->len && p->text[p->pos] == '/' && p->text[p->pos + 1] == '*') {
			p->pos += 2;
			while (p->pos + 1 < p->len &&
			       !(p->text[p->pos] == '*' && p->text[p->pos + 1] == '/')) {
				if (p->text[p->pos] == '\n')
					p->line++;
				p->pos++;
			}
			p->pos = p->pos + 2 <= p->len ? p->pos + 2 : p->len;
			continue;
		}
		if (p->pos + 1 < p->len && p->text[p->pos] == '/' && p->text[p->pos + 1] == '/') {
			while (p->pos < p->len && p->text[p->pos] != '\n')
				p->pos++;
			continue;
		}
		break;
	}
}

/* A string ("...") or character ('...') literal from its opening quote:
 * both are string values, as in babeltrace2 (`name = 'x';`). A backslash
 * escapes the next character, so the closing quote is the first one not
 * escaped; ctfm_str_dup() decodes the escapes. */
static void lex_quoted(parser *p, char q)
{
	const char *t = p->text;

	p->pos++;
	while (p->pos < p->len && t[p->pos] != q) {
		if (t[p->pos] == '\\' && p->pos + 1 < p->len)
			p->pos++;
		if (t[p->pos] == '\n')
			p->line++;
		p->pos++;
	}
	if (p->pos < p->len)
		p->pos++; /* closing quote */
	p->tok.kind = T_STR;
}

void ctfm_next(parser *p)
{
	const char *t;
	size_t start;

	skip_space(p);
	p->tok.line = p->line;
	if (p->pos >= p->len) {
		p->tok.kind = T_EOF;
		p->tok.s = "end of metadata";
		p->tok.len = strlen(p->tok.s);
		return;
	}
	t = p->text;
	start = p->pos;
	p->tok.s = t + start;
	if (t[start] == 'L' && start + 1 < p->len && (t[start + 1] == '"' || t[start + 1] == '\'')) {
		/* wide literal: read as a plain one */
		p->pos++;
		lex_quoted(p, t[start + 1]);
	} else if (t[start] == '"' || t[start] == '\'') {
		lex_quoted(p, t[start]);
	} else if (isalpha((unsigned char)t[start]) || t[start] == '_') {
		while (p->pos < p->len && (isalnum((unsigned char)t[p->pos]) || t[p->pos] == '_'))
			p->pos++;
		p->tok.kind = T_IDENT;
	} else if (isdigit((unsigned char)t[start])) {
		while (p->pos < p->len && (isalnum((unsigned char)t[p->pos])))
			p->pos++;
		p->tok.kind = T_NUM;
	} else if (p->pos + 1 < p->len && t[start] == ':' && t[start + 1] == '=') {
		p->pos += 2;
		p->tok.kind = T_PUNCT;
	} else if (p->pos + 2 < p->len && t[start] == '.' && t[start + 1] == '.' &&
		   t[start + 2] == '.') {
		p->pos += 3;
		p->tok.kind = T_PUNCT;
	} else {
		p->pos++;
		p->tok.kind = T_PUNCT;
	}
	p->tok.len = p->pos - start;
}

int ctfm_is_punct(const parser *p, const char *s)
{
	return p->tok.kind == T_PUNCT && p->tok.len == strlen(s) && !memcmp(p->tok.s, s, p->tok.len);
}

int ctfm_is_ident(const parser *p, const char *s)
{
	return p->tok.kind == T_IDENT && p->tok.len == strlen(s) && !memcmp(p->tok.s, s, p->tok.len);
}

int ctfm_expect(parser *p, const char *s)
{
	if (!ctfm_is_punct(p, s))
		return ctfm_perr(p, "expected '%s', got '%.*s'", s, (int)(p->tok.len > 40 ? 40 : p->tok.len),
			    p->tok.s);
	ctfm_next(p);
	return 0;
}

char *ctfm_tok_dup(parser *p)
{
	return ctfm_arena_strndup(p->ar, p->tok.s, p->tok.len);
}

/* UTF-8 of code point c into out (at most 4 bytes); returns the length.
 * Code points past U+10FFFF and surrogates become U+FFFD. */
static size_t utf8_put(char *out, uint32_t c)
{
	if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		c = 0xFFFD;
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xC0 | c >> 6);
		out[1] = (char)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xE0 | c >> 12);
		out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
		out[2] = (char)(0x80 | (c & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | c >> 18);
	out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((c >> 6) & 0x3F));
	out[3] = (char)(0x80 | (c & 0x3F));
	return 4;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
	     : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Decodes the current string or character literal token into the arena:
 * TSDL (CTF 1.8 §7.1) takes C's escapes: simple ones (\a \b \f \n \r
 * \t \v \\ \' \" \?), octal (\ and 1-3 digits), hex (\x and up to 3
 * digits, as babeltrace2 reads them, one byte) and universal character
 * names (\uXXXX, \UXXXXXXXX, written as UTF-8; babeltrace2 refuses
 * them). An unknown escape keeps the character. The decoded text is never
 * longer than the token: every escape is at least as long as its bytes. */
char *ctfm_str_dup(parser *p)
{
	const char *s = p->tok.s;
	size_t n = p->tok.len, i, o = 0;
	char *out;

	if (n && s[0] == 'L') {
		s++;
		n--;
	}
	s++;
	n = n >= 2 ? n - 2 : 0;
	out = ctfm_arena_alloc(p->ar, n + 1);
	if (!out)
		return NULL;
	for (i = 0; i < n; i++) {
		char c = s[i];
		uint32_t u;
		int k, d;

		if (c != '\\' || i + 1 >= n) {
			out[o++] = c;
			continue;
		}
		c = s[++i];
		switch (c) {
		case 'a': out[o++] = '\a'; break;
		case 'b': out[o++] = '\b'; break;
		case 'f': out[o++] = '\f'; break;
		case 'n': out[o++] = '\n'; break;
		case 'r': out[o++] = '\r'; break;
		case 't': out[o++] = '\t'; break;
		case 'v': out[o++] = '\v'; break;
		case 'x':
			for (u = 0, k = 0; k < 3 && i + 1 < n && (d = hexval(s[i + 1])) >= 0; k++, i++)
				u = u * 16 + (uint32_t)d;
			out[o++] = k ? (char)u : 'x';
			break;
		case 'u':
		case 'U':
			for (u = 0, k = 0; k < (c == 'u' ? 4 : 8) && i + 1 < n && (d = hexval(s[i + 1])) >= 0; k++, i++)
				u = u * 16 + (uint32_t)d;
			/* \u and 4 digits are 6 bytes: room for 3 of UTF-8 */
			if (k == (c == 'u' ? 4 : 8))
				o += utf8_put(out + o, u);
			else
				out[o++] = c;
			break;
		default:
			if (c >= '0' && c <= '7') {
				u = (uint32_t)(c - '0');
				for (k = 1; k < 3 && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '7'; k++, i++)
					u = u * 8 + (uint32_t)(s[i + 1] - '0');
				out[o++] = (char)u;
			} else {
				out[o++] = c; /* \\ \' \" \? and unknown ones */
			}
			break;
		}
	}
	out[o] = '\0';
	return out;
}

/* ---- values ------------------------------------------------------------- */
int ctfm_parse_number_tok(parser *p, uint64_t *out)
{
	const char *s = p->tok.s;
	size_t n = p->tok.len, i = 0;
	uint64_t v = 0;
	int base = 10;

	if (n > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	} else if (n > 1 && s[0] == '0') {
		base = 8;
		i = 1;
	}
	for (; i < n; i++) {
		int d;
		char c = s[i];

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (base == 16 && isxdigit((unsigned char)c))
			d = tolower((unsigned char)c) - 'a' + 10;
		else if (c == 'u' || c == 'U' || c == 'l' || c == 'L')
			continue; /* C suffixes */
		else
			return ctfm_perr(p, "bad number '%.*s'", (int)n, s);
		if (d >= base)
			return ctfm_perr(p, "bad number '%.*s'", (int)n, s);
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return ctfm_perr(p, "number out of range '%.*s'", (int)n, s);
		v = v * (uint64_t)base + (uint64_t)d;
	}
	*out = v;
	return 0;
}

/* number | -number | "string" | ident(.ident)* */
int ctfm_parse_value(parser *p, value *v)
{
	memset(v, 0, sizeof(*v));
	v->line = p->tok.line;
	if (ctfm_is_punct(p, "-") || ctfm_is_punct(p, "+")) {
		v->neg = ctfm_is_punct(p, "-");
		ctfm_next(p);
		if (p->tok.kind != T_NUM)
			return ctfm_perr(p, "expected a number after the sign");
	}
	if (p->tok.kind == T_NUM) {
		v->kind = V_NUM;
		if (ctfm_parse_number_tok(p, &v->mag))
			return -1;
		ctfm_next(p);
		return 0;
	}
	if (p->tok.kind == T_STR) {
		v->kind = V_STR;
		v->s = ctfm_str_dup(p);
		ctfm_next(p);
		return v->s ? 0 : ctfm_perr(p, "out of memory");
	}
	if (p->tok.kind == T_IDENT) {
		const char *start = p->tok.s;
		const char *end = p->tok.s + p->tok.len;

		ctfm_next(p);
		while (ctfm_is_punct(p, ".")) {
			ctfm_next(p);
			if (p->tok.kind != T_IDENT)
				return ctfm_perr(p, "expected a name after '.'");
			end = p->tok.s + p->tok.len;
			ctfm_next(p);
		}
		v->kind = V_IDENT;
		/* comments/space inside a dotted path are not expected: keep text */
		v->s = ctfm_arena_strndup(p->ar, start, (size_t)(end - start));
		if (!v->s)
			return ctfm_perr(p, "out of memory");
		/* squeeze spaces, if any */
		{
			char *r = v->s, *w = v->s;

			for (; *r; r++)
				if (!isspace((unsigned char)*r))
					*w++ = *r;
			*w = '\0';
		}
		return 0;
	}
	return ctfm_perr(p, "expected a value, got '%.*s'", (int)(p->tok.len > 40 ? 40 : p->tok.len), p->tok.s);
}

/* Counts a TSDL feature termtrace skips, keeping its name for the stats
 * (ctf_metadata_unsupported is reported by name, not only counted). */
void ctfm_skip(parser *p, const char *what, const char *name)
{
	ctf_meta *m = p->m;
	char full[48];

	m->skipped++;
	snprintf(full, sizeof(full), "%s '%s'", what, name ? name : "?");
	for (int i = 0; i < m->nskipped_names; i++) {
		if (!strcmp(m->skipped_name[i], full)) {
			m->skipped_count[i]++;
			return;
		}
	}
	if (m->nskipped_names < 16) {
		snprintf(m->skipped_name[m->nskipped_names], sizeof(m->skipped_name[0]), "%s", full);
		m->skipped_count[m->nskipped_names++] = 1;
	}
}

int ctfm_value_int(parser *p, const value *v, int64_t *out)
{
	if (v->kind == V_NUM) {
		if (v->neg) {
			if (v->mag > (uint64_t)INT64_MAX + 1)
				return ctfm_perr(p, "number out of range");
			*out = v->mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v->mag;
		} else {
			*out = (int64_t)v->mag;
		}
		return 0;
	}
	if (v->kind == V_IDENT) {
		if (!strcmp(v->s, "true") || !strcmp(v->s, "TRUE")) {
			*out = 1;
			return 0;
		}
		if (!strcmp(v->s, "false") || !strcmp(v->s, "FALSE")) {
			*out = 0;
			return 0;
		}
	}
	return ctfm_perr(p, "expected an integer value");
}
