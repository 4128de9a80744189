/*
 * ctf_metadata.c - TSDL (CTF 1.8 metadata) lexer, parser and resolver.
 * See ctf_metadata.h for what the result looks like.
 *
 * Pipeline: unpack (packetized metadata -> text) -> lexer (tokens with line
 * numbers) -> recursive-descent parser (blocks, typealias/typedef, type
 * specifiers, declarators) -> resolver (native byte order, clock maps,
 * roles, variant tags and sequence lengths -> value slots, event tables).
 *
 * Every allocation comes from one arena owned by the ctf_meta, so copying a
 * named type where it is used can share strings, and freeing is one walk.
 * The arena is capped (hostile metadata that nests aliases cannot grow it
 * without bound), and so is the nesting depth.
 *
 * Known limits: typealiases/typedefs/named structs have one global scope;
 * `callsite` and unknown blocks are skipped; variant options are matched to
 * enum labels by name (one leading '_' ignored); relative paths are looked up
 * in the enclosing structs, then in the roots of the earlier scopes.
 */
#include "ctf_metadata.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define META_MAX_BYTES ((size_t)64 << 20)   /* metadata text */
#define ARENA_MAX_BYTES ((size_t)512 << 20) /* parsed tree */
#define MAX_DEPTH 48                        /* type nesting */
#define PKT_MAGIC 0x75D11D57u
#define PKT_HDR 37

/* ---- arena ---------------------------------------------------------- */
typedef struct chunk {
	struct chunk *next;
	size_t used, cap;
	max_align_t data[];
} chunk;

typedef struct arena {
	chunk *head;
	size_t total;
	int oom;
} arena;

static void *arena_alloc(arena *a, size_t n)
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

static char *arena_strndup(arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

static void arena_free(arena *a)
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
enum tok_kind { T_EOF, T_IDENT, T_NUM, T_STR, T_PUNCT };

typedef struct token {
	enum tok_kind kind;
	const char *s; /* into the text */
	size_t len;
	int line;
} token;

typedef struct alias {
	char *name;     /* "uint8_t", "struct packet_context", ... */
	ctf_type *type;
} alias;

typedef struct parser {
	const char *path;
	const char *text;
	size_t len, pos;
	int line;
	token tok;       /* current token */
	arena *ar;
	ctf_meta *m;
	tt_err *err;
	int failed;
	int depth;
	alias *aliases;
	size_t naliases, calias;
	/* growing arrays (realloc'ed, freed at the end) */
	ctf_clock *clocks; size_t nclocks, cclocks;
	ctf_stream_class *streams; size_t nstreams, cstreams;
	ctf_event_class *events; size_t nevents, cevents;
	ctf_env_entry *env; size_t nenv, cenv;
	int trace_bo;
	int nslots;
} parser;

static int perr(parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int perr(parser *p, const char *fmt, ...)
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
 * escaped; str_dup() decodes the escapes. */
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

static void next(parser *p)
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

static int is_punct(const parser *p, const char *s)
{
	return p->tok.kind == T_PUNCT && p->tok.len == strlen(s) && !memcmp(p->tok.s, s, p->tok.len);
}

static int is_ident(const parser *p, const char *s)
{
	return p->tok.kind == T_IDENT && p->tok.len == strlen(s) && !memcmp(p->tok.s, s, p->tok.len);
}

static int expect(parser *p, const char *s)
{
	if (!is_punct(p, s))
		return perr(p, "expected '%s', got '%.*s'", s, (int)(p->tok.len > 40 ? 40 : p->tok.len),
			    p->tok.s);
	next(p);
	return 0;
}

static char *tok_dup(parser *p)
{
	return arena_strndup(p->ar, p->tok.s, p->tok.len);
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
static char *str_dup(parser *p)
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
	out = arena_alloc(p->ar, n + 1);
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
enum { V_NUM, V_STR, V_IDENT };

typedef struct value {
	int kind;
	uint64_t mag; /* V_NUM: magnitude */
	int neg;
	char *s;      /* V_STR / V_IDENT (dotted path joined with '.') */
	int line;
} value;

static int parse_number_tok(parser *p, uint64_t *out)
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
			return perr(p, "bad number '%.*s'", (int)n, s);
		if (d >= base)
			return perr(p, "bad number '%.*s'", (int)n, s);
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return perr(p, "number out of range '%.*s'", (int)n, s);
		v = v * (uint64_t)base + (uint64_t)d;
	}
	*out = v;
	return 0;
}

/* number | -number | "string" | ident(.ident)* */
static int parse_value(parser *p, value *v)
{
	memset(v, 0, sizeof(*v));
	v->line = p->tok.line;
	if (is_punct(p, "-") || is_punct(p, "+")) {
		v->neg = is_punct(p, "-");
		next(p);
		if (p->tok.kind != T_NUM)
			return perr(p, "expected a number after the sign");
	}
	if (p->tok.kind == T_NUM) {
		v->kind = V_NUM;
		if (parse_number_tok(p, &v->mag))
			return -1;
		next(p);
		return 0;
	}
	if (p->tok.kind == T_STR) {
		v->kind = V_STR;
		v->s = str_dup(p);
		next(p);
		return v->s ? 0 : perr(p, "out of memory");
	}
	if (p->tok.kind == T_IDENT) {
		const char *start = p->tok.s;
		const char *end = p->tok.s + p->tok.len;

		next(p);
		while (is_punct(p, ".")) {
			next(p);
			if (p->tok.kind != T_IDENT)
				return perr(p, "expected a name after '.'");
			end = p->tok.s + p->tok.len;
			next(p);
		}
		v->kind = V_IDENT;
		/* comments/space inside a dotted path are not expected: keep text */
		v->s = arena_strndup(p->ar, start, (size_t)(end - start));
		if (!v->s)
			return perr(p, "out of memory");
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
	return perr(p, "expected a value, got '%.*s'", (int)(p->tok.len > 40 ? 40 : p->tok.len), p->tok.s);
}

/* Counts a TSDL feature termtrace skips, keeping its name for the stats
 * (ctf_metadata_unsupported is reported by name, not only counted). */
static void skip(parser *p, const char *what, const char *name)
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

static int value_int(parser *p, const value *v, int64_t *out)
{
	if (v->kind == V_NUM) {
		if (v->neg) {
			if (v->mag > (uint64_t)INT64_MAX + 1)
				return perr(p, "number out of range");
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
	return perr(p, "expected an integer value");
}

/* ---- types ---------------------------------------------------------------- */
static ctf_type *new_type(parser *p, enum ctf_kind k)
{
	ctf_type *t = arena_alloc(p->ar, sizeof(*t));

	if (!t) {
		perr(p, "metadata too large (out of memory)");
		return NULL;
	}
	t->kind = k;
	t->align = 8;
	t->clock = -1;
	t->slot = -1;
	t->ref = -1;
	t->next_alloc = p->m->all;
	p->m->all = t;
	return t;
}

/* Deep copy: every use of a named type gets its own nodes (slots and roles
 * are per declaration). Strings and mappings are shared (arena). */
static ctf_type *copy_type(parser *p, const ctf_type *s, int depth)
{
	ctf_type *t;
	size_t i;

	if (!s)
		return NULL;
	if (depth > MAX_DEPTH) {
		perr(p, "types nested deeper than %d", MAX_DEPTH);
		return NULL;
	}
	t = new_type(p, s->kind);
	if (!t)
		return NULL;
	{
		ctf_type *keep = t->next_alloc;

		*t = *s;
		t->next_alloc = keep;
	}
	t->slot = -1;
	t->ref = -1;
	t->role = CTF_R_NONE;
	t->opt_of_map = NULL;
	t->tag_type = NULL;
	if (s->nfields) {
		t->fields = arena_alloc(p->ar, s->nfields * sizeof(*t->fields));
		if (!t->fields)
			return perr(p, "metadata too large (out of memory)"), NULL;
		for (i = 0; i < s->nfields; i++) {
			t->fields[i] = s->fields[i];
			t->fields[i].type = copy_type(p, s->fields[i].type, depth + 1);
			if (!t->fields[i].type)
				return NULL;
		}
	}
	if (s->elem) {
		t->elem = copy_type(p, s->elem, depth + 1);
		if (!t->elem)
			return NULL;
	}
	return t;
}

static alias *find_alias(parser *p, const char *name)
{
	size_t i;

	for (i = p->naliases; i-- > 0;)
		if (!strcmp(p->aliases[i].name, name))
			return &p->aliases[i];
	return NULL;
}

static int add_alias(parser *p, const char *name, ctf_type *t)
{
	alias *a;

	if (p->naliases == p->calias) {
		size_t nc = p->calias ? p->calias * 2 : 64;
		alias *na = realloc(p->aliases, nc * sizeof(*na));

		if (!na)
			return perr(p, "out of memory");
		p->aliases = na;
		p->calias = nc;
	}
	a = &p->aliases[p->naliases++];
	a->name = arena_strndup(p->ar, name, strlen(name));
	a->type = t;
	return a->name ? 0 : perr(p, "out of memory");
}

/* Built-in C-like names, used when the metadata does not alias them. */
static ctf_type *builtin_type(parser *p, const char *name)
{
	static const struct { const char *n; unsigned size; int sign; } b[] = {
		{ "int", 32, 1 }, { "signed int", 32, 1 }, { "unsigned int", 32, 0 },
		{ "unsigned", 32, 0 }, { "char", 8, 1 }, { "signed char", 8, 1 },
		{ "unsigned char", 8, 0 }, { "short", 16, 1 }, { "unsigned short", 16, 0 },
		{ "long", 64, 1 }, { "unsigned long", 64, 0 }, { "long long", 64, 1 },
		{ "unsigned long long", 64, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(b) / sizeof(b[0]); i++) {
		if (!strcmp(b[i].n, name)) {
			ctf_type *t = new_type(p, CTF_K_INT);

			if (t) {
				t->size = b[i].size;
				t->is_signed = (unsigned char)b[i].sign;
				t->base = 10;
			}
			return t;
		}
	}
	return NULL;
}

static ctf_type *parse_type_spec(parser *p, int want_name, char **name);
static int parse_struct_body(parser *p, ctf_type *t);

static unsigned parse_base(const value *v)
{
	if (v->kind == V_NUM)
		return (unsigned)v->mag;
	if (v->kind == V_IDENT) {
		const char *s = v->s;

		if (!strcmp(s, "x") || !strcmp(s, "X") || !strcmp(s, "hex") ||
		    !strcmp(s, "hexadecimal") || !strcmp(s, "p"))
			return 16;
		if (!strcmp(s, "o") || !strcmp(s, "oct") || !strcmp(s, "octal"))
			return 8;
		if (!strcmp(s, "b") || !strcmp(s, "binary"))
			return 2;
		if (!strcmp(s, "d") || !strcmp(s, "i") || !strcmp(s, "u") ||
		    !strcmp(s, "dec") || !strcmp(s, "decimal"))
			return 10;
	}
	return 0;
}

static int parse_byte_order(parser *p, const value *v, unsigned char *out)
{
	if (v->kind == V_IDENT) {
		if (!strcmp(v->s, "le") || !strcmp(v->s, "little_endian") || !strcmp(v->s, "little")) {
			*out = CTF_BO_LE;
			return 0;
		}
		if (!strcmp(v->s, "be") || !strcmp(v->s, "network") || !strcmp(v->s, "big_endian") ||
		    !strcmp(v->s, "big")) {
			*out = CTF_BO_BE;
			return 0;
		}
		if (!strcmp(v->s, "native")) {
			*out = CTF_BO_NATIVE;
			return 0;
		}
	}
	return perr(p, "expected byte_order le, be, network or native");
}

/* Consumes the rest of a statement through its ';' (braces, brackets and
 * parentheses balanced): an attribute termtrace does not know may hold any
 * expression babeltrace2 accepts, and is skipped whole. */
static int skip_stmt(parser *p)
{
	int depth = 0;

	for (;;) {
		if (p->tok.kind == T_EOF)
			return perr(p, "expected ';' before the end of the metadata");
		if (p->tok.kind == T_PUNCT) {
			char c = p->tok.s[0];

			if (p->tok.len == 1 && (c == '{' || c == '[' || c == '('))
				depth++;
			else if (p->tok.len == 1 && (c == '}' || c == ']' || c == ')')) {
				if (!depth)
					return perr(p, "expected ';', got '%c'", c);
				depth--;
			} else if (p->tok.len == 1 && c == ';' && !depth) {
				next(p);
				return 0;
			}
		}
		next(p);
	}
}

/* An attribute unknown where it appears: counted by name, its line kept
 * for the import's warning, its value skipped. */
static int skip_attr(parser *p, const char *key, int line)
{
	ctf_meta *m = p->m;

	skip(p, "attribute", key);
	if (!m->unknown_attr_line) {
		m->unknown_attr_line = line;
		snprintf(m->unknown_attr, sizeof(m->unknown_attr), "%s", key);
	}
	return skip_stmt(p);
}

static int known_key(const char *key, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(key, *list))
			return 1;
	return 0;
}

static const char *const type_attrs[] = { "size", "align", "signed", "byte_order", "base", "encoding",
					  "map", "exp_dig", "mant_dig", NULL };

/* { key = value; ... } of integer / floating_point / string */
static int parse_attrs(parser *p, ctf_type *t)
{
	int have_align = 0;

	if (expect(p, "{"))
		return -1;
	while (!is_punct(p, "}")) {
		char *key;
		value v;
		int64_t n;

		if (p->tok.kind != T_IDENT)
			return perr(p, "expected an attribute name, got '%.*s'", (int)(p->tok.len > 40 ? 40 : p->tok.len), p->tok.s);
		key = tok_dup(p);
		if (!key)
			return perr(p, "out of memory");
		if (!known_key(key, type_attrs)) {
			int line = p->tok.line;

			next(p);
			if (skip_attr(p, key, line))
				return -1;
			continue;
		}
		next(p);
		if (expect(p, "=") || parse_value(p, &v))
			return -1;
		if (!strcmp(key, "size")) {
			if (value_int(p, &v, &n))
				return -1;
			if (n < 1 || n > 64)
				return perr(p, "integer size %lld not in 1..64", (long long)n);
			t->size = (unsigned)n;
		} else if (!strcmp(key, "align")) {
			if (value_int(p, &v, &n))
				return -1;
			if (n < 1 || n > 4096 || (n & (n - 1)))
				return perr(p, "align %lld is not a power of two", (long long)n);
			t->align = (unsigned)n;
			have_align = 1;
		} else if (!strcmp(key, "signed")) {
			if (value_int(p, &v, &n))
				return -1;
			t->is_signed = n != 0;
		} else if (!strcmp(key, "byte_order")) {
			if (parse_byte_order(p, &v, &t->byte_order))
				return -1;
		} else if (!strcmp(key, "base")) {
			t->base = (unsigned char)parse_base(&v);
			if (!t->base)
				return perr(p, "bad integer base");
		} else if (!strcmp(key, "encoding")) {
			if (v.kind != V_IDENT)
				return perr(p, "expected encoding none, UTF8 or ASCII");
			t->encoding = !strcmp(v.s, "UTF8") || !strcmp(v.s, "utf8") ? 1
				    : !strcmp(v.s, "ASCII") || !strcmp(v.s, "ascii") ? 2 : 0;
		} else if (!strcmp(key, "map")) {
			size_t l;

			if (v.kind != V_IDENT || strncmp(v.s, "clock.", 6) ||
			    (l = strlen(v.s)) < 13 || strcmp(v.s + l - 6, ".value"))
				return perr(p, "expected map = clock.NAME.value");
			t->clock_name = arena_strndup(p->ar, v.s + 6, l - 12);
		} else if (!strcmp(key, "exp_dig")) {
			if (value_int(p, &v, &n))
				return -1;
			t->exp_dig = (unsigned)(n > 0 && n < 64 ? n : 0);
		} else if (!strcmp(key, "mant_dig")) {
			if (value_int(p, &v, &n))
				return -1;
			t->mant_dig = (unsigned)(n > 0 && n < 64 ? n : 0);
		}
		if (expect(p, ";"))
			return -1;
	}
	next(p);
	if (t->kind == CTF_K_FLOAT) {
		t->size = t->exp_dig + t->mant_dig;
		if (t->size != 32 && t->size != 64)
			return perr(p, "floating_point of %u bits is not supported (32 or 64)", t->size);
	}
	if (t->kind == CTF_K_INT && t->size == 0)
		return perr(p, "integer without size");
	if (!have_align && t->kind != CTF_K_STRING)
		t->align = t->size % 8 ? 1 : 8;
	return 0;
}

/* enum [NAME] [: container] { LABEL [= v [... v]], ... } */
static ctf_type *parse_enum(parser *p, char **declname)
{
	ctf_type *t = NULL, *cont;
	char *ename = NULL;
	ctf_mapping *maps = NULL;
	size_t n = 0, cap = 0;
	int64_t nextv = 0;

	(void)declname;
	next(p); /* enum */
	if (p->tok.kind == T_IDENT) {
		ename = tok_dup(p);
		next(p);
	}
	if (is_punct(p, ":")) {
		next(p);
		cont = parse_type_spec(p, 0, NULL);
		if (!cont)
			return NULL;
		if (cont->kind != CTF_K_INT)
			return perr(p, "enum container must be an integer"), NULL;
		t = copy_type(p, cont, 0);
	} else if (!is_punct(p, "{") && ename) {
		char buf[300];
		alias *a;

		snprintf(buf, sizeof(buf), "enum %s", ename);
		a = find_alias(p, buf);
		if (!a)
			return perr(p, "unknown enum '%s'", ename), NULL;
		return copy_type(p, a->type, 0);
	} else {
		alias *a = find_alias(p, "int");

		t = a ? copy_type(p, a->type, 0) : builtin_type(p, "int");
	}
	if (!t)
		return NULL;
	if (expect(p, "{"))
		return NULL;
	while (!is_punct(p, "}")) {
		ctf_mapping mp;
		value v;
		int64_t lo, hi;

		memset(&mp, 0, sizeof(mp));
		if (p->tok.kind == T_STR)
			mp.label = str_dup(p);
		else if (p->tok.kind == T_IDENT)
			mp.label = tok_dup(p);
		else
			return perr(p, "expected an enum label"), NULL;
		next(p);
		lo = hi = nextv;
		if (is_punct(p, "=")) {
			next(p);
			if (parse_value(p, &v) || value_int(p, &v, &lo))
				return NULL;
			hi = lo;
			if (is_punct(p, "...")) {
				next(p);
				if (parse_value(p, &v) || value_int(p, &v, &hi))
					return NULL;
			}
		}
		nextv = (int64_t)((uint64_t)hi + 1); /* wraps at INT64_MAX, no UB */
		mp.lo = (uint64_t)lo;
		mp.hi = (uint64_t)hi;
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 8;
			ctf_mapping *nm = arena_alloc(p->ar, nc * sizeof(*nm));

			if (!nm)
				return perr(p, "metadata too large (out of memory)"), NULL;
			if (n)
				memcpy(nm, maps, n * sizeof(*nm));
			maps = nm;
			cap = nc;
		}
		maps[n++] = mp;
		if (is_punct(p, ","))
			next(p);
		else if (!is_punct(p, "}"))
			return perr(p, "expected ',' or '}' in enum"), NULL;
	}
	next(p);
	t->maps = maps;
	t->nmaps = n;
	if (!maps) {
		t->maps = arena_alloc(p->ar, sizeof(*maps)); /* non-NULL: still an enum */
		if (!t->maps)
			return perr(p, "out of memory"), NULL;
	}
	if (ename) {
		char buf[300];

		snprintf(buf, sizeof(buf), "enum %s", ename);
		if (add_alias(p, buf, t))
			return NULL;
	}
	return t;
}

/* Reads a path `a.b.c` into the arena. */
static char *parse_path(parser *p)
{
	value v;

	if (p->tok.kind != T_IDENT)
		return perr(p, "expected a field path"), NULL;
	if (parse_value(p, &v))
		return NULL;
	return v.s;
}

/*
 * Parses a type specifier. With want_name, a specifier made of plain words
 * ("unsigned long events_discarded") ends with the declarator name, which is
 * returned in *name; keyword specifiers (integer {..}, struct ..) leave
 * *name NULL and the caller reads the name.
 */
static ctf_type *parse_type_spec(parser *p, int want_name, char **name)
{
	ctf_type *t;

	if (name)
		*name = NULL;
	if (++p->depth > MAX_DEPTH) {
		perr(p, "types nested deeper than %d", MAX_DEPTH);
		return NULL;
	}
	if (p->tok.kind != T_IDENT) {
		perr(p, "expected a type, got '%.*s'", (int)(p->tok.len > 40 ? 40 : p->tok.len), p->tok.s);
		t = NULL;
		goto out;
	}
	if (is_ident(p, "integer") || is_ident(p, "floating_point")) {
		t = new_type(p, is_ident(p, "integer") ? CTF_K_INT : CTF_K_FLOAT);
		if (!t)
			goto out;
		t->base = 10;
		next(p);
		if (parse_attrs(p, t))
			t = NULL;
		goto out;
	}
	if (is_ident(p, "string")) {
		t = new_type(p, CTF_K_STRING);
		if (!t)
			goto out;
		t->encoding = 1;
		next(p);
		if (is_punct(p, "{") && parse_attrs(p, t))
			t = NULL;
		if (t)
			t->align = 8;
		goto out;
	}
	if (is_ident(p, "enum")) {
		t = parse_enum(p, name);
		goto out;
	}
	if (is_ident(p, "struct") || is_ident(p, "variant")) {
		int is_var = is_ident(p, "variant");
		char *sname = NULL, *tag = NULL;
		char buf[300];

		next(p);
		if (p->tok.kind == T_IDENT) {
			sname = tok_dup(p);
			next(p);
		}
		if (is_var && is_punct(p, "<")) {
			next(p);
			tag = parse_path(p);
			if (!tag || expect(p, ">")) {
				t = NULL;
				goto out;
			}
		}
		if (is_punct(p, "{")) {
			t = new_type(p, is_var ? CTF_K_VARIANT : CTF_K_STRUCT);
			if (!t || parse_struct_body(p, t)) {
				t = NULL;
				goto out;
			}
			t->align = 1;
			if (is_var)
				t->align = 1;
			else {
				size_t i;

				for (i = 0; i < t->nfields; i++)
					if (t->fields[i].type->align > t->align)
						t->align = t->fields[i].type->align;
			}
			if (sname) {
				snprintf(buf, sizeof(buf), "%s %s", is_var ? "variant" : "struct", sname);
				if (add_alias(p, buf, t)) {
					t = NULL;
					goto out;
				}
			}
		} else {
			alias *a;

			if (!sname) {
				perr(p, "expected '{' after %s", is_var ? "variant" : "struct");
				t = NULL;
				goto out;
			}
			snprintf(buf, sizeof(buf), "%s %s", is_var ? "variant" : "struct", sname);
			a = find_alias(p, buf);
			if (!a) {
				perr(p, "unknown type '%s'", buf);
				t = NULL;
				goto out;
			}
			t = copy_type(p, a->type, 0);
			if (!t)
				goto out;
		}
		if (is_var) {
			if (tag)
				t->tag = tag;
		} else if (is_ident(p, "align")) {
			value v;
			int64_t n;

			next(p);
			if (expect(p, "(") || parse_value(p, &v) || value_int(p, &v, &n) || expect(p, ")")) {
				t = NULL;
				goto out;
			}
			if (n < 1 || n > 4096 || (n & (n - 1))) {
				perr(p, "align(%lld) is not a power of two", (long long)n);
				t = NULL;
				goto out;
			}
			if ((unsigned)n > t->align)
				t->align = (unsigned)n;
		}
		goto out;
	}
	/* Plain words: an alias name, possibly several words; with want_name
	 * the last word is the declarator. */
	{
		char words[512];
		size_t wl = 0;
		const char *lastw = NULL;
		size_t lastl = 0, prevwl = 0;
		alias *a;

		words[0] = '\0';
		while (p->tok.kind == T_IDENT) {
			if (wl + p->tok.len + 2 >= sizeof(words)) {
				perr(p, "type name too long");
				t = NULL;
				goto out;
			}
			prevwl = wl;
			if (wl)
				words[wl++] = ' ';
			memcpy(words + wl, p->tok.s, p->tok.len);
			wl += p->tok.len;
			words[wl] = '\0';
			lastw = p->tok.s;
			lastl = p->tok.len;
			next(p);
		}
		if (want_name) {
			/* `uint8_t uuid[16]`: all but the last word name the type,
			 * unless the whole phrase is a type and no name follows. */
			char whole[512];

			memcpy(whole, words, wl + 1);
			if (prevwl == 0 && !strchr(words, ' ')) {
				perr(p, "expected a type before '%s'", words);
				t = NULL;
				goto out;
			}
			words[prevwl] = '\0';
			if (name) {
				*name = arena_strndup(p->ar, lastw, lastl);
				if (!*name) {
					perr(p, "out of memory");
					t = NULL;
					goto out;
				}
			}
			(void)whole;
		}
		a = find_alias(p, words);
		if (a) {
			t = copy_type(p, a->type, 0);
		} else {
			t = builtin_type(p, words);
			if (!t && !p->failed)
				perr(p, "unknown type '%s'", words);
		}
	}
out:
	p->depth--;
	return t;
}

/* [N] [path] ... after a declarator name: wraps t into arrays/sequences. */
static ctf_type *parse_dims(parser *p, ctf_type *t)
{
	struct { int seq; uint64_t n; char *path; } dims[8];
	int nd = 0, i;

	while (is_punct(p, "[")) {
		next(p);
		if (nd == 8)
			return perr(p, "too many array dimensions"), NULL;
		dims[nd].seq = 0;
		dims[nd].path = NULL;
		dims[nd].n = 0;
		if (p->tok.kind == T_NUM) {
			if (parse_number_tok(p, &dims[nd].n))
				return NULL;
			next(p);
		} else {
			dims[nd].seq = 1;
			dims[nd].path = parse_path(p);
			if (!dims[nd].path)
				return NULL;
		}
		if (expect(p, "]"))
			return NULL;
		nd++;
	}
	for (i = nd - 1; i >= 0; i--) {
		ctf_type *a = new_type(p, dims[i].seq ? CTF_K_SEQ : CTF_K_ARRAY);

		if (!a)
			return NULL;
		a->elem = t;
		a->length = dims[i].n;
		a->tag = dims[i].path;
		a->align = t->align;
		a->is_text = t->kind == CTF_K_INT && t->size == 8 && t->encoding && !t->maps;
		t = a;
	}
	return t;
}

static int parse_typealias(parser *p)
{
	ctf_type *t;
	char words[512];
	size_t wl = 0;

	next(p); /* typealias */
	t = parse_type_spec(p, 0, NULL);
	if (!t)
		return -1;
	if (expect(p, ":="))
		return -1;
	words[0] = '\0';
	while (p->tok.kind == T_IDENT) {
		if (wl + p->tok.len + 2 >= sizeof(words))
			return perr(p, "type name too long");
		if (wl)
			words[wl++] = ' ';
		memcpy(words + wl, p->tok.s, p->tok.len);
		wl += p->tok.len;
		words[wl] = '\0';
		next(p);
	}
	if (!wl)
		return perr(p, "expected a type name after ':='");
	if (is_punct(p, "*"))
		return perr(p, "pointer types are not supported");
	if (add_alias(p, words, t))
		return -1;
	return expect(p, ";");
}

static int parse_typedef(parser *p)
{
	ctf_type *t;
	char *name = NULL;

	next(p); /* typedef */
	t = parse_type_spec(p, 1, &name);
	if (!t)
		return -1;
	if (!name) {
		if (p->tok.kind != T_IDENT)
			return perr(p, "expected a name in typedef");
		name = tok_dup(p);
		next(p);
	}
	t = parse_dims(p, t);
	if (!t || add_alias(p, name, t))
		return -1;
	return expect(p, ";");
}

/* A typealias or typedef where a block allows one: 1 when one was parsed,
 * 0 when the next token starts something else, -1 on error. */
static int parse_type_decl(parser *p)
{
	if (is_ident(p, "typealias"))
		return parse_typealias(p) ? -1 : 1;
	if (is_ident(p, "typedef"))
		return parse_typedef(p) ? -1 : 1;
	return 0;
}

/* Members of a struct or options of a variant, up to and including '}'. */
static int parse_struct_body(parser *p, ctf_type *t)
{
	ctf_field *f = NULL;
	size_t n = 0, cap = 0;

	if (expect(p, "{"))
		return -1;
	while (!is_punct(p, "}")) {
		ctf_type *ft, *base;
		char *name = NULL;
		int decl;

		if (p->tok.kind == T_EOF)
			return perr(p, "expected '}' before the end of the metadata");
		decl = parse_type_decl(p);
		if (decl < 0)
			return -1;
		if (decl)
			continue;
		base = parse_type_spec(p, 1, &name);
		if (!base)
			return -1;
		for (;;) {
			if (!name) {
				if (p->tok.kind != T_IDENT)
					return perr(p, "expected a field name, got '%.*s'", (int)(p->tok.len > 40 ? 40 : p->tok.len), p->tok.s);
				name = tok_dup(p);
				next(p);
			}
			ft = parse_dims(p, base);
			if (!ft)
				return -1;
			if (n == cap) {
				size_t nc = cap ? cap * 2 : 8;
				ctf_field *nf;

				if (nc > 100000)
					return perr(p, "too many fields");
				nf = arena_alloc(p->ar, nc * sizeof(*nf));
				if (!nf)
					return perr(p, "metadata too large (out of memory)");
				if (n)
					memcpy(nf, f, n * sizeof(*nf));
				f = nf;
				cap = nc;
			}
			f[n].name = name;
			f[n].key = name[0] == '_' ? name + 1 : name;
			f[n].type = ft;
			n++;
			if (!is_punct(p, ","))
				break;
			next(p);
			name = NULL;
			base = copy_type(p, base, 0);
			if (!base)
				return -1;
		}
		if (expect(p, ";"))
			return -1;
	}
	next(p);
	t->fields = f;
	t->nfields = n;
	return 0;
}

/* ---- blocks ------------------------------------------------------------- */
static int parse_uuid(const char *s, uint8_t out[16])
{
	int i = 0;

	while (*s && i < 32) {
		int d;

		if (*s == '-') {
			s++;
			continue;
		}
		if (!isxdigit((unsigned char)*s))
			return -1;
		d = isdigit((unsigned char)*s) ? *s - '0' : tolower((unsigned char)*s) - 'a' + 10;
		if (i % 2 == 0)
			out[i / 2] = (uint8_t)(d << 4);
		else
			out[i / 2] |= (uint8_t)d;
		i++;
		s++;
	}
	return i == 32 && !*s ? 0 : -1;
}

#define GROW(p, arr, n, c) \
	((n) == (c) ? grow_array((p), (void **)&(arr), &(c), sizeof(*(arr))) : 0)

static int grow_array(parser *p, void **arr, size_t *cap, size_t esz)
{
	size_t nc = *cap ? *cap * 2 : 8;
	void *na;

	if (nc > 10000000)
		return perr(p, "too many metadata blocks");
	na = realloc(*arr, nc * esz);
	if (!na)
		return perr(p, "out of memory");
	memset((char *)na + *cap * esz, 0, (nc - *cap) * esz);
	*arr = na;
	*cap = nc;
	return 0;
}

enum block { B_TRACE, B_ENV, B_CLOCK, B_STREAM, B_EVENT, B_OTHER };

/* The `key = value;` attributes each block knows (env takes any). */
static int block_key(enum block b, const char *key)
{
	static const char *const trace[] = { "major", "minor", "uuid", "byte_order", NULL };
	static const char *const clock[] = { "name", "freq", "offset", "offset_s", "precision", "absolute",
					     "uuid", "description", NULL };
	static const char *const stream[] = { "id", NULL };
	static const char *const event[] = { "name", "id", "stream_id", "loglevel", "model.emf.uri", NULL };

	switch (b) {
	case B_TRACE: return known_key(key, trace);
	case B_CLOCK: return known_key(key, clock);
	case B_STREAM: return known_key(key, stream);
	case B_EVENT: return known_key(key, event);
	case B_ENV: return 1;
	default: return 0;
	}
}

static int parse_block(parser *p, enum block b)
{
	ctf_clock *ck = NULL;
	ctf_stream_class *sc = NULL;
	ctf_event_class *ev = NULL;

	next(p); /* block name */
	if (b == B_CLOCK) {
		if (GROW(p, p->clocks, p->nclocks, p->cclocks))
			return -1;
		ck = &p->clocks[p->nclocks++];
		memset(ck, 0, sizeof(*ck));
		ck->freq = 1000000000;
	} else if (b == B_STREAM) {
		if (GROW(p, p->streams, p->nstreams, p->cstreams))
			return -1;
		sc = &p->streams[p->nstreams++];
		memset(sc, 0, sizeof(*sc));
		sc->clock = -1;
	} else if (b == B_EVENT) {
		if (GROW(p, p->events, p->nevents, p->cevents))
			return -1;
		ev = &p->events[p->nevents++];
		memset(ev, 0, sizeof(*ev));
		ev->loglevel = -1;
	}
	if (expect(p, "{"))
		return -1;
	while (!is_punct(p, "}")) {
		char *key;
		value v;
		int64_t n;
		int decl, line;

		if (p->tok.kind == T_EOF)
			return perr(p, "expected '}' before the end of the metadata");
		decl = parse_type_decl(p);
		if (decl < 0)
			return -1;
		if (decl)
			continue;
		if (p->tok.kind != T_IDENT)
			return perr(p, "expected an attribute name, got '%.*s'", (int)(p->tok.len > 40 ? 40 : p->tok.len), p->tok.s);
		line = p->tok.line;
		key = parse_path(p);
		if (!key)
			return -1;
		if (b == B_OTHER) {
			/* callsite and unknown blocks: counted once as a block */
			if (skip_stmt(p))
				return -1;
			continue;
		}
		if (!is_punct(p, ":=") && !block_key(b, key)) {
			if (skip_attr(p, key, line))
				return -1;
			continue;
		}
		if (is_punct(p, ":=")) {
			ctf_type *t;

			next(p);
			t = parse_type_spec(p, 0, NULL);
			if (!t)
				return -1;
			if (expect(p, ";"))
				return -1;
			if (b == B_TRACE && !strcmp(key, "packet.header"))
				p->m->packet_header = t;
			else if (b == B_STREAM && !strcmp(key, "packet.context"))
				sc->packet_context = t;
			else if (b == B_STREAM && !strcmp(key, "event.header"))
				sc->event_header = t;
			else if (b == B_STREAM && !strcmp(key, "event.context"))
				sc->event_context = t;
			else if (b == B_EVENT && !strcmp(key, "fields"))
				ev->fields = t;
			else if (b == B_EVENT && !strcmp(key, "context"))
				ev->context = t;
			else
				skip(p, "attribute", key);
			continue;
		}
		if (expect(p, "="))
			return -1;
		if (parse_value(p, &v))
			return -1;
		if (expect(p, ";"))
			return -1;
		switch (b) {
		case B_TRACE:
			if (!strcmp(key, "major")) {
				if (value_int(p, &v, &n))
					return -1;
				p->m->major = (int)n;
			} else if (!strcmp(key, "minor")) {
				if (value_int(p, &v, &n))
					return -1;
				p->m->minor = (int)n;
			} else if (!strcmp(key, "uuid")) {
				if (v.kind != V_STR || parse_uuid(v.s, p->m->uuid))
					return perr(p, "expected a uuid string");
				p->m->has_uuid = 1;
			} else if (!strcmp(key, "byte_order")) {
				unsigned char bo;

				if (parse_byte_order(p, &v, &bo))
					return -1;
				if (bo == CTF_BO_NATIVE)
					return perr(p, "the trace byte_order cannot be native");
				p->trace_bo = bo;
			} else {
				skip(p, "attribute", key);
			}
			break;
		case B_ENV:
			if (GROW(p, p->env, p->nenv, p->cenv))
				return -1;
			p->env[p->nenv].key = key;
			if (v.kind == V_NUM) {
				if (value_int(p, &v, &p->env[p->nenv].num))
					return -1;
			} else {
				p->env[p->nenv].str = v.s;
			}
			p->nenv++;
			break;
		case B_CLOCK:
			if (!strcmp(key, "name")) {
				ck->name = v.s;
			} else if (!strcmp(key, "freq")) {
				if (value_int(p, &v, &n))
					return -1;
				if (n <= 0)
					return perr(p, "clock freq must be positive");
				ck->freq = (uint64_t)n;
			} else if (!strcmp(key, "offset")) {
				if (value_int(p, &v, &n))
					return -1;
				/* cycles; may be negative: keep as signed for now */
				ck->offset_cycles = (uint64_t)n;
			} else if (!strcmp(key, "offset_s")) {
				if (value_int(p, &v, &n))
					return -1;
				ck->offset_s = n;
			} else if (!strcmp(key, "precision")) {
				if (value_int(p, &v, &n))
					return -1;
				ck->precision = n;
			} else if (!strcmp(key, "absolute")) {
				if (value_int(p, &v, &n))
					return -1;
				ck->absolute = n != 0;
			} else if (strcmp(key, "uuid") && strcmp(key, "description")) {
				skip(p, "attribute", key);
			}
			break;
		case B_STREAM:
			if (!strcmp(key, "id")) {
				if (value_int(p, &v, &n))
					return -1;
				sc->id = (uint64_t)n;
			} else {
				skip(p, "attribute", key);
			}
			break;
		case B_EVENT:
			if (!strcmp(key, "name")) {
				ev->name = v.s;
			} else if (!strcmp(key, "id")) {
				if (value_int(p, &v, &n))
					return -1;
				ev->id = (uint64_t)n;
			} else if (!strcmp(key, "stream_id")) {
				if (value_int(p, &v, &n))
					return -1;
				ev->stream_id = (uint64_t)n;
			} else if (!strcmp(key, "loglevel")) {
				if (value_int(p, &v, &n))
					return -1;
				ev->loglevel = n;
			} else if (strcmp(key, "model.emf.uri")) {
				skip(p, "attribute", key);
			}
			break;
		case B_OTHER:
			break;
		}
	}
	next(p);
	if (ck && !ck->name)
		return perr(p, "clock without a name");
	if (ev && !ev->name)
		ev->name = "(unnamed)";
	return expect(p, ";");
}

static int parse_top(parser *p)
{
	next(p);
	while (p->tok.kind != T_EOF) {
		int decl = parse_type_decl(p);

		if (decl < 0)
			return -1;
		if (decl) {
			continue;
		} else if (is_ident(p, "trace")) {
			if (parse_block(p, B_TRACE))
				return -1;
		} else if (is_ident(p, "env")) {
			if (parse_block(p, B_ENV))
				return -1;
		} else if (is_ident(p, "clock")) {
			if (parse_block(p, B_CLOCK))
				return -1;
		} else if (is_ident(p, "stream")) {
			if (parse_block(p, B_STREAM))
				return -1;
		} else if (is_ident(p, "event")) {
			if (parse_block(p, B_EVENT))
				return -1;
		} else if (is_ident(p, "struct") || is_ident(p, "variant") || is_ident(p, "enum")) {
			if (!parse_type_spec(p, 0, NULL) || expect(p, ";"))
				return -1;
		} else if (p->tok.kind == T_IDENT) {
			/* callsite and other blocks: skipped */
			char blk[40];

			snprintf(blk, sizeof(blk), "%.*s", (int)(p->tok.len < 39 ? p->tok.len : 39), p->tok.s);
			skip(p, "block", blk);
			if (parse_block(p, B_OTHER))
				return -1;
		} else {
			return perr(p, "expected a declaration (trace, clock, stream, event, typealias ...), got '%.*s'",
				    (int)(p->tok.len > 40 ? 40 : p->tok.len), p->tok.s);
		}
	}
	return 0;
}

/* ---- resolution ------------------------------------------------------------ */
enum scope { S_PKT_HEADER, S_PKT_CONTEXT, S_EV_HEADER, S_STREAM_EV_CTX, S_EV_CTX, S_EV_FIELDS, S_COUNT };

typedef struct rstack {
	const ctf_type *st; /* struct */
	size_t idx;         /* index of the member being resolved */
} rstack;

typedef struct resolver {
	parser *p;
	ctf_type *roots[S_COUNT];
	int scope;
	rstack stack[MAX_DEPTH + 8];
	int depth;
	const char *where; /* event or stream name for messages */
} resolver;

static const struct { const char *prefix; int scope; } abs_prefix[] = {
	{ "trace.packet.header.", S_PKT_HEADER },
	{ "stream.packet.context.", S_PKT_CONTEXT },
	{ "stream.event.header.", S_EV_HEADER },
	{ "stream.event.context.", S_STREAM_EV_CTX },
	{ "event.context.", S_EV_CTX },
	{ "event.fields.", S_EV_FIELDS },
};

static const ctf_field *find_member(const ctf_type *st, const char *name, size_t len, size_t limit)
{
	size_t i;

	if (!st || st->kind != CTF_K_STRUCT)
		return NULL;
	for (i = 0; i < limit && i < st->nfields; i++)
		if (strlen(st->fields[i].name) == len && !memcmp(st->fields[i].name, name, len))
			return &st->fields[i];
	return NULL;
}

/* Follows the rest of a dotted path from field f. */
static ctf_type *descend(const ctf_field *f, const char *rest)
{
	ctf_type *t = f ? f->type : NULL;

	while (t && *rest) {
		const char *dot = strchr(rest, '.');
		size_t len = dot ? (size_t)(dot - rest) : strlen(rest);
		const ctf_field *m = find_member(t, rest, len, t->nfields);

		t = m ? m->type : NULL;
		rest = dot ? dot + 1 : rest + len;
	}
	return t;
}

static ctf_type *lookup_path(resolver *r, const char *path)
{
	const char *dot;
	size_t len, i;
	int d, s;

	for (i = 0; i < sizeof(abs_prefix) / sizeof(abs_prefix[0]); i++) {
		size_t pl = strlen(abs_prefix[i].prefix);

		if (!strncmp(path, abs_prefix[i].prefix, pl)) {
			const ctf_type *root = r->roots[abs_prefix[i].scope];
			const char *rest = path + pl;

			dot = strchr(rest, '.');
			len = dot ? (size_t)(dot - rest) : strlen(rest);
			return descend(find_member(root, rest, len, root ? root->nfields : 0),
				       dot ? dot + 1 : rest + len);
		}
	}
	dot = strchr(path, '.');
	len = dot ? (size_t)(dot - path) : strlen(path);
	for (d = r->depth - 1; d >= 0; d--) {
		const ctf_field *f = find_member(r->stack[d].st, path, len, r->stack[d].idx);

		if (f)
			return descend(f, dot ? dot + 1 : path + len);
	}
	for (s = r->scope - 1; s >= 0; s--) {
		const ctf_type *root = r->roots[s];
		const ctf_field *f = find_member(root, path, len, root ? root->nfields : 0);

		if (f)
			return descend(f, dot ? dot + 1 : path + len);
	}
	return NULL;
}

static int label_matches(const char *label, const char *opt)
{
	if (!strcmp(label, opt))
		return 1;
	if (opt[0] == '_' && !strcmp(label, opt + 1))
		return 1;
	if (label[0] == '_' && !strcmp(label + 1, opt))
		return 1;
	return 0;
}

static int rerr(resolver *r, const char *fmt, const char *a)
{
	parser *p = r->p;

	if (p->failed)
		return -1;
	p->failed = 1;
	tt_err_set(p->err, TT_EINVAL, "%s: %s: ", p->path, r->where);
	{
		size_t l = strlen(p->err->msg);

		snprintf(p->err->msg + l, sizeof(p->err->msg) - l, fmt, a);
	}
	return -1;
}

static int resolve_type(resolver *r, ctf_type *t)
{
	size_t i;

	if (r->depth >= MAX_DEPTH + 4)
		return rerr(r, "%s: types nested too deeply", "");
	switch (t->kind) {
	case CTF_K_STRUCT:
		r->stack[r->depth].st = t;
		r->depth++;
		for (i = 0; i < t->nfields; i++) {
			r->stack[r->depth - 1].idx = i;
			if (resolve_type(r, t->fields[i].type))
				return -1;
		}
		r->depth--;
		return 0;
	case CTF_K_VARIANT: {
		ctf_type *tag;

		if (!t->tag)
			return rerr(r, "variant%s without a tag", "");
		if (t->ref < 0) {
			tag = lookup_path(r, t->tag);
			if (!tag || tag->kind != CTF_K_INT || !tag->maps)
				return rerr(r, "variant tag '%s' is not an enum field declared before it", t->tag);
			if (tag->slot < 0)
				tag->slot = r->p->nslots++;
			t->ref = tag->slot;
			t->tag_type = tag;
			t->opt_of_map = arena_alloc(r->p->ar, (tag->nmaps + 1) * sizeof(int));
			if (!t->opt_of_map)
				return rerr(r, "%s: out of memory", "");
			for (i = 0; i < tag->nmaps; i++) {
				size_t j;

				t->opt_of_map[i] = -1;
				for (j = 0; j < t->nfields; j++)
					if (tag->maps[i].label && label_matches(tag->maps[i].label, t->fields[j].name))
						t->opt_of_map[i] = (int)j;
			}
		}
		/* options see the same enclosing scope as the variant */
		for (i = 0; i < t->nfields; i++)
			if (resolve_type(r, t->fields[i].type))
				return -1;
		return 0;
	}
	case CTF_K_SEQ: {
		ctf_type *len = lookup_path(r, t->tag);

		if (!len || len->kind != CTF_K_INT)
			return rerr(r, "sequence length '%s' is not an integer field declared before it", t->tag);
		if (len->slot < 0)
			len->slot = r->p->nslots++;
		t->ref = len->slot;
		return resolve_type(r, t->elem);
	}
	case CTF_K_ARRAY:
		return resolve_type(r, t->elem);
	default:
		return 0;
	}
}

static void set_root_roles(ctf_type *root, int scope)
{
	static const struct { int scope; const char *name; int role; } roles[] = {
		{ S_PKT_HEADER, "magic", CTF_R_MAGIC },
		{ S_PKT_HEADER, "uuid", CTF_R_UUID },
		{ S_PKT_HEADER, "stream_id", CTF_R_STREAM_ID },
		{ S_PKT_HEADER, "stream_instance_id", CTF_R_STREAM_INSTANCE_ID },
		{ S_PKT_CONTEXT, "timestamp_begin", CTF_R_TS_BEGIN },
		{ S_PKT_CONTEXT, "timestamp_end", CTF_R_TS_END },
		{ S_PKT_CONTEXT, "content_size", CTF_R_CONTENT_SIZE },
		{ S_PKT_CONTEXT, "packet_size", CTF_R_PACKET_SIZE },
		{ S_PKT_CONTEXT, "events_discarded", CTF_R_EVENTS_DISCARDED },
		{ S_PKT_CONTEXT, "packet_seq_num", CTF_R_SEQ_NUM },
		{ S_PKT_CONTEXT, "cpu_id", CTF_R_CPU_ID },
		{ S_STREAM_EV_CTX, "vpid", CTF_R_VPID },
		{ S_STREAM_EV_CTX, "vtid", CTF_R_VTID },
		{ S_STREAM_EV_CTX, "pid", CTF_R_PID },
		{ S_STREAM_EV_CTX, "tid", CTF_R_TID },
		{ S_STREAM_EV_CTX, "procname", CTF_R_PROCNAME },
	};
	size_t i, j;

	if (!root || root->kind != CTF_K_STRUCT)
		return;
	if (scope == S_EV_CTX)
		scope = S_STREAM_EV_CTX;
	for (i = 0; i < root->nfields; i++) {
		ctf_type *ft = root->fields[i].type;

		for (j = 0; j < sizeof(roles) / sizeof(roles[0]); j++) {
			if (roles[j].scope != scope || strcmp(roles[j].name, root->fields[i].key))
				continue;
			if (roles[j].role == CTF_R_UUID) {
				if (ft->kind == CTF_K_ARRAY && ft->length == 16 && ft->elem->kind == CTF_K_INT &&
				    ft->elem->size == 8)
					ft->role = CTF_R_UUID;
			} else if (roles[j].role == CTF_R_PROCNAME) {
				if (ft->kind == CTF_K_STRING || ft->is_text)
					ft->role = CTF_R_PROCNAME;
			} else if (ft->kind == CTF_K_INT) {
				ft->role = roles[j].role;
			}
		}
	}
}

/* Event header: every integer named id is the event id; a `timestamp`
 * integer without a map uses the trace's only clock (babeltrace2 does). */
static void header_roles(ctf_type *t, const char *name, int nclocks, int depth)
{
	size_t i;

	if (!t || depth > MAX_DEPTH)
		return;
	if (t->kind == CTF_K_INT) {
		if (name && !strcmp(name, "id"))
			t->role = CTF_R_EVENT_ID;
		if (name && !strcmp(name, "timestamp") && t->clock < 0 && !t->clock_name && nclocks == 1)
			t->clock = 0;
		return;
	}
	if (t->kind == CTF_K_STRUCT || t->kind == CTF_K_VARIANT)
		for (i = 0; i < t->nfields; i++)
			header_roles(t->fields[i].type, t->fields[i].name, nclocks, depth + 1);
}

static int first_clock(const ctf_type *t, int depth)
{
	size_t i;
	int c;

	if (!t || depth > MAX_DEPTH)
		return -1;
	if (t->kind == CTF_K_INT)
		return t->clock;
	if (t->kind == CTF_K_STRUCT || t->kind == CTF_K_VARIANT)
		for (i = 0; i < t->nfields; i++)
			if ((c = first_clock(t->fields[i].type, depth + 1)) >= 0)
				return c;
	return -1;
}

/* Precomputes the args key of every node of an emitted scope, so that
 * the decoder copies no names: members `prefix.name`, variant options and
 * array elements share their parent's path (elements add `[i]` at decode
 * time). */
static int assign_paths(parser *p, ctf_type *t, const char *path, int depth)
{
	size_t i;

	if (!t || depth > MAX_DEPTH + 4)
		return 0;
	t->path = path;
	switch (t->kind) {
	case CTF_K_STRUCT:
		for (i = 0; i < t->nfields; i++) {
			size_t pl = strlen(path), kl = strlen(t->fields[i].key);
			char *np = arena_alloc(p->ar, pl + kl + 2);

			if (!np)
				return perr(p, "metadata too large (out of memory)");
			if (pl) {
				memcpy(np, path, pl);
				np[pl] = '.';
				memcpy(np + pl + 1, t->fields[i].key, kl + 1);
			} else {
				memcpy(np, t->fields[i].key, kl + 1);
			}
			if (assign_paths(p, t->fields[i].type, np, depth + 1))
				return -1;
		}
		return 0;
	case CTF_K_VARIANT:
		for (i = 0; i < t->nfields; i++)
			if (assign_paths(p, t->fields[i].type, path, depth + 1))
				return -1;
		return 0;
	case CTF_K_ARRAY:
	case CTF_K_SEQ:
		return assign_paths(p, t->elem, path, depth + 1);
	default:
		return 0;
	}
}

static int cmp_event(const void *a, const void *b)
{
	const ctf_event_class *x = *(ctf_event_class *const *)a, *y = *(ctf_event_class *const *)b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static uint64_t ns_from_value(uint64_t freq, uint64_t v)
{
	double d;

	if (freq == 1000000000u)
		return v;
	d = 1e9 * (double)v / (double)freq;
	return d >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)d;
}

static int resolve(parser *p)
{
	ctf_meta *m = p->m;
	ctf_type *t;
	size_t i, j;

	if (!p->trace_bo)
		return perr(p, "no trace block with a byte_order");
	m->byte_order = p->trace_bo;
	for (t = m->all; t; t = t->next_alloc) {
		if ((t->kind == CTF_K_INT || t->kind == CTF_K_FLOAT) && t->byte_order == CTF_BO_NATIVE)
			t->byte_order = (unsigned char)m->byte_order;
		if (t->clock_name) {
			for (i = 0; i < p->nclocks; i++)
				if (!strcmp(p->clocks[i].name, t->clock_name))
					break;
			if (i == p->nclocks) {
				p->failed = 1;
				return tt_err_set(p->err, TT_EINVAL, "%s: map to unknown clock '%s'", p->path,
						  t->clock_name);
			}
			t->clock = (int)i;
		}
	}
	/* clocks: babeltrace2 moves whole seconds out of the cycle offset */
	for (i = 0; i < p->nclocks; i++) {
		ctf_clock *c = &p->clocks[i];
		int64_t off = (int64_t)c->offset_cycles;
		int64_t f = (int64_t)(c->freq > (uint64_t)INT64_MAX ? INT64_MAX : c->freq);
		int64_t q = off / f, rmd = off % f;

		if (rmd < 0) {
			rmd += f;
			q--;
		}
		if ((q > 0 && c->offset_s > INT64_MAX / 2 - q) || (q < 0 && c->offset_s < INT64_MIN / 2 - q))
			return perr(p, "clock offset out of range");
		c->offset_s += q;
		c->offset_cycles = (uint64_t)rmd;
		if (c->offset_s > INT64_MAX / 1000000000 - 1 || c->offset_s < INT64_MIN / 1000000000 + 1)
			return perr(p, "clock offset out of range");
		c->base_ns = c->offset_s * 1000000000 + (int64_t)ns_from_value(c->freq, c->offset_cycles);
	}
	if (p->nstreams == 0) {
		/* no stream block: one implicit stream class 0 */
		if (GROW(p, p->streams, p->nstreams, p->cstreams))
			return -1;
		memset(&p->streams[0], 0, sizeof(p->streams[0]));
		p->streams[0].clock = -1;
		p->nstreams = 1;
	}
	m->clocks = p->clocks;
	m->nclocks = p->nclocks;
	m->streams = p->streams;
	m->nstreams = p->nstreams;
	m->events = p->events;
	m->nevents = p->nevents;
	m->env = p->env;
	m->nenv = p->nenv;
	p->clocks = NULL;
	p->streams = NULL;
	p->events = NULL;
	p->env = NULL;

	set_root_roles(m->packet_header, S_PKT_HEADER);
	for (i = 0; i < m->nstreams; i++) {
		ctf_stream_class *sc = &m->streams[i];
		resolver r;
		char where[64];

		for (j = 0; j < i; j++)
			if (m->streams[j].id == sc->id) {
				p->failed = 1;
				return tt_err_set(p->err, TT_EINVAL, "%s: two stream blocks with id %llu",
						  p->path, (unsigned long long)sc->id);
			}
		set_root_roles(sc->packet_context, S_PKT_CONTEXT);
		if (sc->packet_context && sc->packet_context->kind == CTF_K_STRUCT) {
			for (j = 0; j < sc->packet_context->nfields; j++) {
				ctf_type *ft = sc->packet_context->fields[j].type;

				if ((ft->role == CTF_R_TS_BEGIN || ft->role == CTF_R_TS_END) && ft->clock < 0 &&
				    m->nclocks == 1)
					ft->clock = 0;
			}
		}
		header_roles(sc->event_header, NULL, (int)m->nclocks, 0);
		set_root_roles(sc->event_context, S_STREAM_EV_CTX);
		sc->clock = first_clock(sc->event_header, 0);
		if (sc->clock < 0)
			sc->clock = first_clock(sc->packet_context, 0);
		if (sc->clock < 0 && m->nclocks == 1)
			sc->clock = 0;

		memset(&r, 0, sizeof(r));
		r.p = p;
		snprintf(where, sizeof(where), "stream %llu", (unsigned long long)sc->id);
		r.where = where;
		r.roots[S_PKT_HEADER] = m->packet_header;
		r.roots[S_PKT_CONTEXT] = sc->packet_context;
		r.roots[S_EV_HEADER] = sc->event_header;
		r.roots[S_STREAM_EV_CTX] = sc->event_context;
		if (assign_paths(p, sc->event_context, "context", 0))
			return -1;
		for (r.scope = 0; r.scope <= S_STREAM_EV_CTX; r.scope++) {
			if (r.scope == S_PKT_HEADER && i > 0)
				continue; /* shared: resolved once */
			if (r.roots[r.scope] && resolve_type(&r, r.roots[r.scope]))
				return -1;
		}
		/* events of this stream */
		{
			size_t cnt = 0, k = 0;
			uint64_t maxid = 0;

			for (j = 0; j < m->nevents; j++)
				if (m->events[j].stream_id == sc->id ||
				    (m->nstreams == 1 && !sc->id))
					cnt++;
			sc->sorted = calloc(cnt ? cnt : 1, sizeof(*sc->sorted));
			if (!sc->sorted)
				return perr(p, "out of memory");
			for (j = 0; j < m->nevents; j++) {
				ctf_event_class *ev = &m->events[j];

				if (!(ev->stream_id == sc->id || (m->nstreams == 1 && !sc->id)))
					continue;
				sc->sorted[k++] = ev;
				if (ev->id > maxid)
					maxid = ev->id;
				set_root_roles(ev->context, S_EV_CTX);
				r.where = ev->name;
				r.depth = 0;
				r.roots[S_EV_CTX] = ev->context;
				r.roots[S_EV_FIELDS] = ev->fields;
				r.scope = S_EV_CTX;
				if (ev->context && resolve_type(&r, ev->context))
					return -1;
				r.scope = S_EV_FIELDS;
				if (ev->fields && resolve_type(&r, ev->fields))
					return -1;
				if (assign_paths(p, ev->context, "context", 0) ||
				    assign_paths(p, ev->fields, "", 0))
					return -1;
			}
			sc->nsorted = cnt;
			qsort(sc->sorted, cnt, sizeof(*sc->sorted), cmp_event);
			for (j = 1; j < cnt; j++)
				if (sc->sorted[j]->id == sc->sorted[j - 1]->id) {
					p->failed = 1;
					return tt_err_set(p->err, TT_EINVAL,
							  "%s: two events with id %llu in stream %llu", p->path,
							  (unsigned long long)sc->sorted[j]->id,
							  (unsigned long long)sc->id);
				}
			if (cnt && maxid < (1u << 20)) {
				sc->by_id = calloc((size_t)maxid + 1, sizeof(*sc->by_id));
				if (!sc->by_id)
					return perr(p, "out of memory");
				sc->nby_id = (size_t)maxid + 1;
				for (j = 0; j < cnt; j++)
					sc->by_id[sc->sorted[j]->id] = sc->sorted[j];
			}
		}
	}
	m->nslots = p->nslots;
	return 0;
}

/* ---- entry points ------------------------------------------------------------ */
int tt_ctf_meta_parse(const char *text, size_t len, const char *path, ctf_meta **out, tt_err *err)
{
	parser p;
	arena *ar;
	ctf_meta *m;
	int rc;

	*out = NULL;
	{
		size_t i = 0;

		while (i < len && isspace((unsigned char)text[i]))
			i++;
		if (i < len && text[i] == 0x1E)
			return tt_err_set(err, TT_EUNSUPPORTED, "%s: CTF 2 not supported (JSON metadata)", path);
	}
	m = calloc(1, sizeof(*m));
	ar = calloc(1, sizeof(*ar));
	if (!m || !ar) {
		free(m);
		free(ar);
		return tt_err_set(err, TT_ENOMEM, "%s: out of memory", path);
	}
	m->parser_state = ar;
	memset(&p, 0, sizeof(p));
	p.path = path;
	p.text = text;
	p.len = len;
	p.line = 1;
	p.ar = ar;
	p.m = m;
	p.err = err;
	rc = parse_top(&p);
	if (!rc)
		rc = resolve(&p);
	free(p.aliases);
	free(p.clocks);
	free(p.streams);
	free(p.events);
	free(p.env);
	if (rc || p.failed) {
		if (!p.failed)
			tt_err_set(err, TT_EINVAL, "%s: bad metadata", path);
		tt_ctf_meta_free(m);
		return err && err->code ? err->code : TT_EINVAL;
	}
	if (m->major && (m->major != 1 || m->minor != 8)) {
		int code = tt_err_set(err, TT_EUNSUPPORTED, "%s: CTF %d.%d not supported (1.8 only)", path,
				      m->major, m->minor);

		tt_ctf_meta_free(m);
		return code;
	}
	*out = m;
	return TT_OK;
}

static uint32_t rd32(const uint8_t *b, int be)
{
	return be ? (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]
		  : (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

int tt_ctf_meta_unpack(const uint8_t *data, size_t len, const char *path, char **text,
		       size_t *text_len, tt_err *err)
{
	char *out;
	size_t n = 0, off = 0;

	*text = NULL;
	*text_len = 0;
	if (len >= 4 && (rd32(data, 0) == PKT_MAGIC || rd32(data, 1) == PKT_MAGIC)) {
		int be = rd32(data, 1) == PKT_MAGIC;

		out = malloc(len + 1);
		if (!out)
			return tt_err_set(err, TT_ENOMEM, "%s: out of memory", path);
		while (off + PKT_HDR <= len) {
			uint32_t content, packet;

			if (rd32(data + off, be) != PKT_MAGIC) {
				free(out);
				return tt_err_set(err, TT_EINVAL, "%s: bad metadata packet magic at byte %zu",
						  path, off);
			}
			content = rd32(data + off + 24, be);
			packet = rd32(data + off + 28, be);
			if (data[off + 32] || data[off + 33] || data[off + 34]) {
				free(out);
				return tt_err_set(err, TT_EUNSUPPORTED,
						  "%s: compressed, encrypted or checksummed metadata packet at byte %zu is not supported",
						  path, off);
			}
			if (content % 8 || packet % 8 || content < PKT_HDR * 8 || packet < content ||
			    off + content / 8 > len) {
				free(out);
				return tt_err_set(err, TT_EINVAL,
						  "%s: metadata packet at byte %zu has a bad content_size/packet_size",
						  path, off);
			}
			memcpy(out + n, data + off + PKT_HDR, content / 8 - PKT_HDR);
			n += content / 8 - PKT_HDR;
			off += packet / 8;
		}
	} else {
		out = malloc(len + 1);
		if (!out)
			return tt_err_set(err, TT_ENOMEM, "%s: out of memory", path);
		memcpy(out, data, len);
		n = len;
	}
	/* drop NUL padding at the end */
	while (n && out[n - 1] == '\0')
		n--;
	out[n] = '\0';
	if (memchr(out, '\0', n)) {
		size_t at = (size_t)((char *)memchr(out, '\0', n) - out);

		free(out);
		return tt_err_set(err, TT_EINVAL, "%s: NUL byte in metadata text at offset %zu", path, at);
	}
	{
		size_t i = 0;

		while (i < n && isspace((unsigned char)out[i]))
			i++;
		if (i < n && out[i] == 0x1E) {
			free(out);
			return tt_err_set(err, TT_EUNSUPPORTED, "%s: CTF 2 not supported (JSON metadata)", path);
		}
	}
	*text = out;
	*text_len = n;
	return TT_OK;
}

int tt_ctf_meta_load(const char *dir, ctf_meta **out, tt_err *err)
{
	char path[4096];
	struct stat sb;
	uint8_t *data = NULL;
	char *text = NULL;
	size_t len, got = 0, tlen;
	int fd, rc;

	*out = NULL;
	snprintf(path, sizeof(path), "%s/metadata", dir);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return tt_err_set(err, TT_EIO, "%s: cannot open: %s", path, strerror(errno));
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		close(fd);
		return tt_err_set(err, TT_EIO, "%s: not a regular file", path);
	}
	if ((uint64_t)sb.st_size > META_MAX_BYTES) {
		close(fd);
		return tt_err_set(err, TT_ENOMEM, "%s: metadata larger than %zu MiB", path,
				  META_MAX_BYTES >> 20);
	}
	len = (size_t)sb.st_size;
	data = malloc(len ? len : 1);
	if (!data) {
		close(fd);
		return tt_err_set(err, TT_ENOMEM, "%s: out of memory", path);
	}
	while (got < len) {
		ssize_t r = read(fd, data + got, len - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (got == 0) {
		free(data);
		return tt_err_set(err, TT_EINVAL, "%s: empty metadata", path);
	}
	rc = tt_ctf_meta_unpack(data, got, path, &text, &tlen, err);
	free(data);
	if (rc)
		return rc;
	rc = tt_ctf_meta_parse(text, tlen, path, out, err);
	free(text);
	return rc;
}

void tt_ctf_meta_free(ctf_meta *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nstreams; i++) {
		free(m->streams[i].by_id);
		free(m->streams[i].sorted);
	}
	free(m->clocks);
	free(m->streams);
	free(m->events);
	free(m->env);
	if (m->parser_state) {
		arena_free(m->parser_state);
		free(m->parser_state);
	}
	free(m);
}

const ctf_event_class *tt_ctf_meta_event(const ctf_stream_class *sc, uint64_t id)
{
	size_t lo = 0, hi;

	if (sc->by_id)
		return id < sc->nby_id ? sc->by_id[id] : NULL;
	hi = sc->nsorted;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sc->sorted[mid]->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < sc->nsorted && sc->sorted[lo]->id == id ? sc->sorted[lo] : NULL;
}

int tt_ctf_type_fixed(const ctf_type *t)
{
	if (!t)
		return 1;
	switch (t->kind) {
	case CTF_K_VARIANT:
		return 0;
	case CTF_K_SEQ:
		return t->is_text; /* text is one value, whatever its length */
	case CTF_K_ARRAY:
		return t->is_text || tt_ctf_type_fixed(t->elem);
	case CTF_K_STRUCT:
		for (size_t i = 0; i < t->nfields; i++)
			if (!tt_ctf_type_fixed(t->fields[i].type))
				return 0;
		return 1;
	default:
		return 1;
	}
}

const ctf_stream_class *tt_ctf_meta_stream(const ctf_meta *m, uint64_t id)
{
	size_t i;

	for (i = 0; i < m->nstreams; i++)
		if (m->streams[i].id == id)
			return &m->streams[i];
	return NULL;
}

int tt_ctf_clock_ns(const ctf_clock *c, uint64_t cycles, int64_t *ns)
{
	uint64_t v = ns_from_value(c->freq, cycles);

	if (v >= (uint64_t)INT64_MAX)
		return -1;
	if (c->base_ns > 0 && (int64_t)v > INT64_MAX - c->base_ns)
		return -1;
	*ns = c->base_ns + (int64_t)v;
	return 0;
}
