/*
 * ctf_meta_types.c - TSDL type specifiers: built-in and aliased names,
 * integer/floating_point/string attributes, enums, structs, variants,
 * array and sequence declarators, typealias and typedef. Unknown
 * attributes are skipped with a warning (as babeltrace2 does). See
 * ctf_meta_int.h.
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

/* ---- types ---------------------------------------------------------------- */
static ctf_type *new_type(parser *p, enum ctf_kind k)
{
	ctf_type *t = ctfm_arena_alloc(p->ar, sizeof(*t));

	if (!t) {
		ctfm_perr(p, "metadata too large (out of memory)");
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
		ctfm_perr(p, "types nested deeper than %d", MAX_DEPTH);
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
		t->fields = ctfm_arena_alloc(p->ar, s->nfields * sizeof(*t->fields));
		if (!t->fields)
			return ctfm_perr(p, "metadata too large (out of memory)"), NULL;
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
			return ctfm_perr(p, "out of memory");
		p->aliases = na;
		p->calias = nc;
	}
	a = &p->aliases[p->naliases++];
	a->name = ctfm_arena_strndup(p->ar, name, strlen(name));
	a->type = t;
	return a->name ? 0 : ctfm_perr(p, "out of memory");
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

int ctfm_parse_byte_order(parser *p, const value *v, unsigned char *out)
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
	return ctfm_perr(p, "expected byte_order le, be, network or native");
}

/* Consumes the rest of a statement through its ';' (braces, brackets and
 * parentheses balanced): an attribute termtrace does not know may hold any
 * expression babeltrace2 accepts, and is skipped whole. */
int ctfm_skip_stmt(parser *p)
{
	int depth = 0;

	for (;;) {
		if (p->tok.kind == T_EOF)
			return ctfm_perr(p, "expected ';' before the end of the metadata");
		if (p->tok.kind == T_PUNCT) {
			char c = p->tok.s[0];

			if (p->tok.len == 1 && (c == '{' || c == '[' || c == '('))
				depth++;
			else if (p->tok.len == 1 && (c == '}' || c == ']' || c == ')')) {
				if (!depth)
					return ctfm_perr(p, "expected ';', got '%c'", c);
				depth--;
			} else if (p->tok.len == 1 && c == ';' && !depth) {
				ctfm_next(p);
				return 0;
			}
		}
		ctfm_next(p);
	}
}

/* An attribute unknown where it appears: counted by name, its line kept
 * for the import's warning, its value skipped. */
int ctfm_skip_attr(parser *p, const char *key, int line)
{
	ctf_meta *m = p->m;

	ctfm_skip(p, "attribute", key);
	if (!m->unknown_attr_line) {
		m->unknown_attr_line = line;
		snprintf(m->unknown_attr, sizeof(m->unknown_attr), "%s", key);
	}
	return ctfm_skip_stmt(p);
}

int ctfm_known_key(const char *key, const char *const *list)
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

	if (ctfm_expect(p, "{"))
		return -1;
	while (!ctfm_is_punct(p, "}")) {
		char *key;
		value v;
		int64_t n;

		if (p->tok.kind != T_IDENT)
			return ctfm_perr(p, "expected an attribute name, got '%.*s'", (int)(p->tok.len > 40 ? 40 : p->tok.len), p->tok.s);
		key = ctfm_tok_dup(p);
		if (!key)
			return ctfm_perr(p, "out of memory");
		if (!ctfm_known_key(key, type_attrs)) {
			int line = p->tok.line;

			ctfm_next(p);
			if (ctfm_skip_attr(p, key, line))
				return -1;
			continue;
		}
		ctfm_next(p);
		if (ctfm_expect(p, "=") || ctfm_parse_value(p, &v))
			return -1;
		if (!strcmp(key, "size")) {
			if (ctfm_value_int(p, &v, &n))
				return -1;
			if (n < 1 || n > 64)
				return ctfm_perr(p, "integer size %lld not in 1..64", (long long)n);
			t->size = (unsigned)n;
		} else if (!strcmp(key, "align")) {
			if (ctfm_value_int(p, &v, &n))
				return -1;
			if (n < 1 || n > 4096 || (n & (n - 1)))
				return ctfm_perr(p, "align %lld is not a power of two", (long long)n);
			t->align = (unsigned)n;
			have_align = 1;
		} else if (!strcmp(key, "signed")) {
			if (ctfm_value_int(p, &v, &n))
				return -1;
			t->is_signed = n != 0;
		} else if (!strcmp(key, "byte_order")) {
			if (ctfm_parse_byte_order(p, &v, &t->byte_order))
				return -1;
		} else if (!strcmp(key, "base")) {
			t->base = (unsigned char)parse_base(&v);
			if (!t->base)
				return ctfm_perr(p, "bad integer base");
		} else if (!strcmp(key, "encoding")) {
			if (v.kind != V_IDENT)
				return ctfm_perr(p, "expected encoding none, UTF8 or ASCII");
			t->encoding = !strcmp(v.s, "UTF8") || !strcmp(v.s, "utf8") ? 1
				    : !strcmp(v.s, "ASCII") || !strcmp(v.s, "ascii") ? 2 : 0;
		} else if (!strcmp(key, "map")) {
			size_t l;

			if (v.kind != V_IDENT || strncmp(v.s, "clock.", 6) ||
			    (l = strlen(v.s)) < 13 || strcmp(v.s + l - 6, ".value"))
				return ctfm_perr(p, "expected map = clock.NAME.value");
			t->clock_name = ctfm_arena_strndup(p->ar, v.s + 6, l - 12);
		} else if (!strcmp(key, "exp_dig")) {
			if (ctfm_value_int(p, &v, &n))
				return -1;
			t->exp_dig = (unsigned)(n > 0 && n < 64 ? n : 0);
		} else if (!strcmp(key, "mant_dig")) {
			if (ctfm_value_int(p, &v, &n))
				return -1;
			t->mant_dig = (unsigned)(n > 0 && n < 64 ? n : 0);
		}
		if (ctfm_expect(p, ";"))
			return -1;
	}
	ctfm_next(p);
	if (t->kind == CTF_K_FLOAT) {
		t->size = t->exp_dig + t->mant_dig;
		if (t->size != 32 && t->size != 64)
			return ctfm_perr(p, "floating_point of %u bits is not supported (32 or 64)", t->size);
	}
	if (t->kind == CTF_K_INT && t->size == 0)
		return ctfm_perr(p, "integer without size");
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
	ctfm_next(p); /* enum */
	if (p->tok.kind == T_IDENT) {
		ename = ctfm_tok_dup(p);
		ctfm_next(p);
	}
	if (ctfm_is_punct(p, ":")) {
		ctfm_next(p);
		cont = ctfm_parse_type_spec(p, 0, NULL);
		if (!cont)
			return NULL;
		if (cont->kind != CTF_K_INT)
			return ctfm_perr(p, "enum container must be an integer"), NULL;
		t = copy_type(p, cont, 0);
	} else if (!ctfm_is_punct(p, "{") && ename) {
		char buf[300];
		alias *a;

		snprintf(buf, sizeof(buf), "enum %s", ename);
		a = find_alias(p, buf);
		if (!a)
			return ctfm_perr(p, "unknown enum '%s'", ename), NULL;
		return copy_type(p, a->type, 0);
	} else {
		alias *a = find_alias(p, "int");

		t = a ? copy_type(p, a->type, 0) : builtin_type(p, "int");
	}
	if (!t)
		return NULL;
	if (ctfm_expect(p, "{"))
		return NULL;
	while (!ctfm_is_punct(p, "}")) {
		ctf_mapping mp;
		value v;
		int64_t lo, hi;

		memset(&mp, 0, sizeof(mp));
		if (p->tok.kind == T_STR)
			mp.label = ctfm_str_dup(p);
		else if (p->tok.kind == T_IDENT)
			mp.label = ctfm_tok_dup(p);
		else
			return ctfm_perr(p, "expected an enum label"), NULL;
		ctfm_next(p);
		lo = hi = nextv;
		if (ctfm_is_punct(p, "=")) {
			ctfm_next(p);
			if (ctfm_parse_value(p, &v) || ctfm_value_int(p, &v, &lo))
				return NULL;
			hi = lo;
			if (ctfm_is_punct(p, "...")) {
				ctfm_next(p);
				if (ctfm_parse_value(p, &v) || ctfm_value_int(p, &v, &hi))
					return NULL;
			}
		}
		nextv = (int64_t)((uint64_t)hi + 1); /* wraps at INT64_MAX, no UB */
		mp.lo = (uint64_t)lo;
		mp.hi = (uint64_t)hi;
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 8;
			ctf_mapping *nm = ctfm_arena_alloc(p->ar, nc * sizeof(*nm));

			if (!nm)
				return ctfm_perr(p, "metadata too large (out of memory)"), NULL;
			if (n)
				memcpy(nm, maps, n * sizeof(*nm));
			maps = nm;
			cap = nc;
		}
		maps[n++] = mp;
		if (ctfm_is_punct(p, ","))
			ctfm_next(p);
		else if (!ctfm_is_punct(p, "}"))
			return ctfm_perr(p, "expected ',' or '}' in enum"), NULL;
	}
	ctfm_next(p);
	t->maps = maps;
	t->nmaps = n;
	if (!maps) {
		t->maps = ctfm_arena_alloc(p->ar, sizeof(*maps)); /* non-NULL: still an enum */
		if (!t->maps)
			return ctfm_perr(p, "out of memory"), NULL;
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
char *ctfm_parse_path(parser *p)
{
	value v;

	if (p->tok.kind != T_IDENT)
		return ctfm_perr(p, "expected a field path"), NULL;
	if (ctfm_parse_value(p, &v))
		return NULL;
	return v.s;
}

/*
 * Parses a type specifier. With want_name, a specifier made of plain words
 * ("unsigned long events_discarded") ends with the declarator name, which is
 * returned in *name; keyword specifiers (integer {..}, struct ..) leave
 * *name NULL and the caller reads the name.
 */
ctf_type *ctfm_parse_type_spec(parser *p, int want_name, char **name)
{
	ctf_type *t;

	if (name)
		*name = NULL;
	if (++p->depth > MAX_DEPTH) {
		ctfm_perr(p, "types nested deeper than %d", MAX_DEPTH);
		return NULL;
	}
	if (p->tok.kind != T_IDENT) {
		ctfm_perr(p, "expected a type, got '%.*s'", (int)(p->tok.len > 40 ? 40 : p->tok.len), p->tok.s);
		t = NULL;
		goto out;
	}
	if (ctfm_is_ident(p, "integer") || ctfm_is_ident(p, "floating_point")) {
		t = new_type(p, ctfm_is_ident(p, "integer") ? CTF_K_INT : CTF_K_FLOAT);
		if (!t)
			goto out;
		t->base = 10;
		ctfm_next(p);
		if (parse_attrs(p, t))
			t = NULL;
		goto out;
	}
	if (ctfm_is_ident(p, "string")) {
		t = new_type(p, CTF_K_STRING);
		if (!t)
			goto out;
		t->encoding = 1;
		ctfm_next(p);
		if (ctfm_is_punct(p, "{") && parse_attrs(p, t))
			t = NULL;
		if (t)
			t->align = 8;
		goto out;
	}
	if (ctfm_is_ident(p, "enum")) {
		t = parse_enum(p, name);
		goto out;
	}
	if (ctfm_is_ident(p, "struct") || ctfm_is_ident(p, "variant")) {
		int is_var = ctfm_is_ident(p, "variant");
		char *sname = NULL, *tag = NULL;
		char buf[300];

		ctfm_next(p);
		if (p->tok.kind == T_IDENT) {
			sname = ctfm_tok_dup(p);
			ctfm_next(p);
		}
		if (is_var && ctfm_is_punct(p, "<")) {
			ctfm_next(p);
			tag = ctfm_parse_path(p);
			if (!tag || ctfm_expect(p, ">")) {
				t = NULL;
				goto out;
			}
		}
		if (ctfm_is_punct(p, "{")) {
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
				ctfm_perr(p, "expected '{' after %s", is_var ? "variant" : "struct");
				t = NULL;
				goto out;
			}
			snprintf(buf, sizeof(buf), "%s %s", is_var ? "variant" : "struct", sname);
			a = find_alias(p, buf);
			if (!a) {
				ctfm_perr(p, "unknown type '%s'", buf);
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
		} else if (ctfm_is_ident(p, "align")) {
			value v;
			int64_t n;

			ctfm_next(p);
			if (ctfm_expect(p, "(") || ctfm_parse_value(p, &v) || ctfm_value_int(p, &v, &n) || ctfm_expect(p, ")")) {
				t = NULL;
				goto out;
			}
			if (n < 1 || n > 4096 || (n & (n - 1))) {
				ctfm_perr(p, "align(%lld) is not a power of two", (long long)n);
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
				ctfm_perr(p, "type name too long");
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
			ctfm_next(p);
		}
		if (want_name) {
			/* `uint8_t uuid[16]`: all but the last word name the type,
			 * unless the whole phrase is a type and no name follows. */
			char whole[512];

			memcpy(whole, words, wl + 1);
			if (prevwl == 0 && !strchr(words, ' ')) {
				ctfm_perr(p, "expected a type before '%s'", words);
				t = NULL;
				goto out;
			}
			words[prevwl] = '\0';
			if (name) {
				*name = ctfm_arena_strndup(p->ar, lastw, lastl);
				if (!*name) {
					ctfm_perr(p, "out of memory");
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
				ctfm_perr(p, "unknown type '%s'", words);
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

	while (ctfm_is_punct(p, "[")) {
		ctfm_next(p);
		if (nd == 8)
			return ctfm_perr(p, "too many array dimensions"), NULL;
		dims[nd].seq = 0;
		dims[nd].path = NULL;
		dims[nd].n = 0;
		if (p->tok.kind == T_NUM) {
			if (ctfm_parse_number_tok(p, &dims[nd].n))
				return NULL;
			ctfm_next(p);
		} else {
			dims[nd].seq = 1;
			dims[nd].path = ctfm_parse_path(p);
			if (!dims[nd].path)
				return NULL;
		}
		if (ctfm_expect(p, "]"))
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

	ctfm_next(p); /* typealias */
	t = ctfm_parse_type_spec(p, 0, NULL);
	if (!t)
		return -1;
	if (ctfm_expect(p, ":="))
		return -1;
	words[0] = '\0';
	while (p->tok.kind == T_IDENT) {
		if (wl + p->tok.len + 2 >= sizeof(words))
			return ctfm_perr(p, "type name too long");
		if (wl)
			words[wl++] = ' ';
		memcpy(words + wl, p->tok.s, p->tok.len);
		wl += p->tok.len;
		words[wl] = '\0';
		ctfm_next(p);
	}
	if (!wl)
		return ctfm_perr(p, "expected a type name after ':='");
	if (ctfm_is_punct(p, "*"))
		return ctfm_perr(p, "pointer types are not supported");
	if (add_alias(p, words, t))
		return -1;
	return ctfm_expect(p, ";");
}

static int parse_typedef(parser *p)
{
	ctf_type *t;
	char *name = NULL;

	ctfm_next(p); /* typedef */
	t = ctfm_parse_type_spec(p, 1, &name);
	if (!t)
		return -1;
	if (!name) {
		if (p->tok.kind != T_IDENT)
			return ctfm_perr(p, "expected a name in typedef");
		name = ctfm_tok_dup(p);
		ctfm_next(p);
	}
	t = parse_dims(p, t);
	if (!t || add_alias(p, name, t))
		return -1;
	return ctfm_expect(p, ";");
}

/* A typealias or typedef where a block allows one: 1 when one was parsed,
 * 0 when the next token starts something else, -1 on error. */
int ctfm_parse_type_decl(parser *p)
{
	if (ctfm_is_ident(p, "typealias"))
		return parse_typealias(p) ? -1 : 1;
	if (ctfm_is_ident(p, "typedef"))
		return parse_typedef(p) ? -1 : 1;
	return 0;
}

/* Members of a struct or options of a variant, up to and including '}'. */
static int parse_struct_body(parser *p, ctf_type *t)
{
	ctf_field *f = NULL;
	size_t n = 0, cap = 0;

	if (ctfm_expect(p, "{"))
		return -1;
	while (!ctfm_is_punct(p, "}")) {
		ctf_type *ft, *base;
		char *name = NULL;
		int decl;

		if (p->tok.kind == T_EOF)
			return ctfm_perr(p, "expected '}' before the end of the metadata");
		decl = ctfm_parse_type_decl(p);
		if (decl < 0)
			return -1;
		if (decl)
			continue;
		base = ctfm_parse_type_spec(p, 1, &name);
		if (!base)
			return -1;
		for (;;) {
			if (!name) {
				if (p->tok.kind != T_IDENT)
					return ctfm_perr(p, "expected a field name, got '%.*s'", (int)(p->tok.len > 40 ? 40 : p->tok.len), p->tok.s);
				name = ctfm_tok_dup(p);
				ctfm_next(p);
			}
			ft = parse_dims(p, base);
			if (!ft)
				return -1;
			if (n == cap) {
				size_t nc = cap ? cap * 2 : 8;
				ctf_field *nf;

				if (nc > 100000)
					return ctfm_perr(p, "too many fields");
				nf = ctfm_arena_alloc(p->ar, nc * sizeof(*nf));
				if (!nf)
					return ctfm_perr(p, "metadata too large (out of memory)");
				if (n)
					memcpy(nf, f, n * sizeof(*nf));
				f = nf;
				cap = nc;
			}
			f[n].name = name;
			f[n].key = name[0] == '_' ? name + 1 : name;
			f[n].type = ft;
			n++;
			if (!ctfm_is_punct(p, ","))
				break;
			ctfm_next(p);
			name = NULL;
			base = copy_type(p, base, 0);
			if (!base)
				return -1;
		}
		if (ctfm_expect(p, ";"))
			return -1;
	}
	ctfm_next(p);
	t->fields = f;
	t->nfields = n;
	return 0;
}
