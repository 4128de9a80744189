/*
 * strpool.c - interned strings: an open-addressing hash of ids, the text in
 * fixed-size blocks that never move (so const char * results stay valid).
 * Limits: a string is cut at its first NUL byte.
 */
#include "strpool.h"
#include "hash.h"

#include <stdlib.h>
#include <string.h>

#define BLOCK_SIZE (64 * 1024)

struct block {
	struct block *next;
	size_t used, size;
	char data[];
};

struct tt_strpool {
	const char **strs; /* id -> text; strs[0] = NULL */
	uint32_t *lens;
	uint32_t *hashes;
	size_t n, cap;
	uint32_t *table; /* slots hold ids; 0 = empty */
	size_t tcap;     /* power of two */
	struct block *blocks;
	size_t bytes;
	int oom;
};

/* Only the table's probe order depends on the hash: ids are given in
 * order of first intern. */
static uint32_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = tt_hash_bytes(0, s, len);

	return (uint32_t)(h ^ h >> 32);
}

tt_strpool *tt_strpool_new(void)
{
	tt_strpool *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->cap = 1024;
	p->strs = malloc(p->cap * sizeof(*p->strs));
	p->lens = malloc(p->cap * sizeof(*p->lens));
	p->hashes = malloc(p->cap * sizeof(*p->hashes));
	p->tcap = 2048;
	p->table = calloc(p->tcap, sizeof(*p->table));
	if (!p->strs || !p->lens || !p->hashes || !p->table) {
		tt_strpool_free(p);
		return NULL;
	}
	p->strs[0] = NULL;
	p->lens[0] = 0;
	p->hashes[0] = 0;
	p->n = 1;
	return p;
}

void tt_strpool_free(tt_strpool *p)
{
	struct block *b, *next;

	if (!p)
		return;
	for (b = p->blocks; b; b = next) {
		next = b->next;
		free(b);
	}
	free(p->strs);
	free(p->lens);
	free(p->hashes);
	free(p->table);
	free(p);
}

static size_t find_slot(const tt_strpool *p, const char *s, size_t len, uint32_t h)
{
	size_t mask = p->tcap - 1, i = h & mask;

	for (;;) {
		uint32_t id = p->table[i];

		if (id == 0)
			return i;
		if (p->hashes[id] == h && p->lens[id] == len && memcmp(p->strs[id], s, len) == 0)
			return i;
		i = (i + 1) & mask;
	}
}

static int grow_table(tt_strpool *p)
{
	size_t ncap = p->tcap * 2, mask = ncap - 1;
	uint32_t *nt = calloc(ncap, sizeof(*nt));

	if (!nt)
		return -1;
	for (size_t id = 1; id < p->n; id++) {
		size_t i = p->hashes[id] & mask;

		while (nt[i])
			i = (i + 1) & mask;
		nt[i] = (uint32_t)id;
	}
	free(p->table);
	p->table = nt;
	p->tcap = ncap;
	return 0;
}

static char *store(tt_strpool *p, const char *s, size_t len)
{
	struct block *b = p->blocks;
	char *dst;

	if (!b || b->size - b->used < len + 1) {
		size_t sz = len + 1 > BLOCK_SIZE / 4 ? len + 1 : BLOCK_SIZE;

		b = malloc(sizeof(*b) + sz);
		if (!b)
			return NULL;
		b->size = sz;
		b->used = 0;
		if (sz == BLOCK_SIZE || !p->blocks) {
			b->next = p->blocks;
			p->blocks = b;
		} else {
			/* A big string gets a block of its own, kept behind the
			 * current one so that the current block keeps filling. */
			b->next = p->blocks->next;
			p->blocks->next = b;
		}
	}
	dst = b->data + b->used;
	memcpy(dst, s, len);
	dst[len] = '\0';
	b->used += len + 1;
	p->bytes += len + 1;
	return dst;
}

/* s[0..len) holds no NUL. */
static tt_str intern_text(tt_strpool *p, const char *s, size_t len)
{
	uint32_t h;
	size_t slot;
	char *text;

	if (len > UINT32_MAX - 1)
		len = UINT32_MAX - 1;
	h = hash_bytes(s, len);
	slot = find_slot(p, s, len, h);
	if (p->table[slot])
		return p->table[slot];
	if (p->n >= UINT32_MAX - 1) {
		p->oom = 1;
		return 0;
	}
	if (p->n == p->cap) {
		size_t ncap = p->cap * 2;
		const char **ns = realloc(p->strs, ncap * sizeof(*ns));
		uint32_t *nl, *nh;

		if (!ns)
			goto oom;
		p->strs = ns;
		nl = realloc(p->lens, ncap * sizeof(*nl));
		if (!nl)
			goto oom;
		p->lens = nl;
		nh = realloc(p->hashes, ncap * sizeof(*nh));
		if (!nh)
			goto oom;
		p->hashes = nh;
		p->cap = ncap;
	}
	text = store(p, s, len);
	if (!text)
		goto oom;
	p->strs[p->n] = text;
	p->lens[p->n] = (uint32_t)len;
	p->hashes[p->n] = h;
	p->table[slot] = (uint32_t)p->n;
	p->n++;
	if (p->n * 2 > p->tcap && grow_table(p) != 0)
		goto oom;
	return (tt_str)(p->n - 1);
oom:
	p->oom = 1;
	return 0;
}

tt_str tt_strpool_intern(tt_strpool *p, const char *s, size_t len)
{
	const void *nul;

	if (!s)
		return 0;
	nul = memchr(s, '\0', len);
	if (nul)
		len = (size_t)((const char *)nul - s);
	return intern_text(p, s, len);
}

tt_str tt_strpool_intern_cstr(tt_strpool *p, const char *s)
{
	/* (strlen found the first NUL: no second scan for one) */
	return s ? intern_text(p, s, strlen(s)) : 0;
}

tt_str tt_strpool_find(const tt_strpool *p, const char *s, size_t len)
{
	const void *nul = memchr(s, '\0', len);

	if (nul)
		len = (size_t)((const char *)nul - s);
	return p->table[find_slot(p, s, len, hash_bytes(s, len))];
}

const char *tt_strpool_get(const tt_strpool *p, tt_str id)
{
	return id < p->n ? p->strs[id] : NULL;
}

size_t tt_strpool_count(const tt_strpool *p)
{
	return p->n - 1;
}

size_t tt_strpool_bytes(const tt_strpool *p)
{
	return p->bytes + p->cap * (sizeof(char *) + 8) + p->tcap * 4;
}

int tt_strpool_oom(const tt_strpool *p)
{
	return p->oom;
}
