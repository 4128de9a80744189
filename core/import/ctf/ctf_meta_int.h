/*
 * ctf_meta_int.h - what the files of the TSDL reader share (internal to
 * core/import/ctf/): the arena every parsed node lives in, the lexer's
 * token and the parser's state, parsed attribute values, and the
 * functions one file calls in another:
 *   ctf_meta_lex.c      arena, lexer (tokens, literals), attribute values
 *   ctf_meta_types.c    type specifiers: integer, float, string, enum,
 *                       struct, variant, arrays, typealias/typedef
 *   ctf_metadata.c      blocks (trace, env, clock, stream, event), the
 *                       top level and the entry points (ctf_metadata.h)
 *   ctf_meta_resolve.c  resolution: paths, roles, slots, clocks, events
 */
#ifndef TT_CTF_META_INT_H
#define TT_CTF_META_INT_H

#include "ctf_metadata.h"

#include <stddef.h>
#include <stdint.h>

#define META_MAX_BYTES ((size_t)64 << 20)   /* metadata text */
#define ARENA_MAX_BYTES ((size_t)512 << 20) /* parsed tree */
#define MAX_DEPTH 48                        /* type nesting */
#define PKT_MAGIC 0x75D11D57u
#define PKT_HDR 37

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

enum { V_NUM, V_STR, V_IDENT };

typedef struct value {
	int kind;
	uint64_t mag; /* V_NUM: magnitude */
	int neg;
	char *s;      /* V_STR / V_IDENT (dotted path joined with '.') */
	int line;
} value;

/* ---- shared between the files ---- */
void *ctfm_arena_alloc(arena *a, size_t n);
char *ctfm_arena_strndup(arena *a, const char *s, size_t n);
void ctfm_arena_free(arena *a);
int ctfm_perr(parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ctfm_next(parser *p);
int ctfm_is_punct(const parser *p, const char *s);
int ctfm_is_ident(const parser *p, const char *s);
int ctfm_expect(parser *p, const char *s);
char *ctfm_tok_dup(parser *p);
char *ctfm_str_dup(parser *p);
int ctfm_parse_number_tok(parser *p, uint64_t *out);
int ctfm_parse_value(parser *p, value *v);
void ctfm_skip(parser *p, const char *what, const char *name);
int ctfm_value_int(parser *p, const value *v, int64_t *out);
int ctfm_parse_byte_order(parser *p, const value *v, unsigned char *out);
int ctfm_skip_stmt(parser *p);
int ctfm_skip_attr(parser *p, const char *key, int line);
int ctfm_known_key(const char *key, const char *const *list);
char *ctfm_parse_path(parser *p);
ctf_type *ctfm_parse_type_spec(parser *p, int want_name, char **name);
int ctfm_parse_type_decl(parser *p);
int ctfm_resolve(parser *p);
/* Doubles a parser's growing array when it is full (n == c). */
int ctfm_grow_array(parser *p, void **arr, size_t *cap, size_t esz);
#define GROW(p, arr, n, c) \
	((n) == (c) ? ctfm_grow_array((p), (void **)&(arr), &(c), sizeof(*(arr))) : 0)
/* Cycles of a clock at freq Hz as ns (128-bit intermediate). */
uint64_t ctfm_ns_from_value(uint64_t freq, uint64_t v);

#endif
