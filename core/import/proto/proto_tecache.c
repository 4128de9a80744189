/*
 * proto_tecache.c - decoded messages by their bytes (proto_tecache.h).
 *
 * A direct-mapped table of SLOTS entries (hash, bytes, message, the
 * generation that holds them); a slot pushed out only costs a decode. The
 * generations are GENS fixed arenas (gen_bytes each) used in turn; see
 * the header for when one may be used again. The door is a second,
 * smaller table: a hash's high 32 bits (low bit set, so 0 is empty) by
 * other bits of it than the slots use.
 */
#include "proto_tecache.h"

#include <stdlib.h>
#include <string.h>

#define SLOTS 2048
#define GENS 3

typedef struct slot {
	uint64_t h;
	const unsigned char *p;
	const void *m;
	uint32_t n;
	uint32_t gen; /* 0: empty */
} slot;

typedef struct big {
	struct big *next;
} big;

typedef struct gen {
	char *mem;         /* gen_bytes */
	size_t used;
	big *bigs;         /* what did not fit, malloc'ed (freed on reuse) */
	int full;          /* used up: start another before the next decode */
	uint32_t id;       /* 0: never used */
	uint64_t last_seq; /* the last batch unpacked while it was found */
} gen;

struct tt_proto_tecache {
	slot slots[SLOTS];
	size_t gen_bytes;
	gen g[GENS];
	int cur;           /* -1: none yet */
	uint32_t next_id;
	uint64_t seq, released;
	ProtobufCAllocator alloc;
	uint64_t lookups, hits;
	uint32_t *door;    /* NULL: every miss is kept */
	size_t ndoor;
};

/* Bump allocation in the current generation; what does not fit goes to
 * malloc and ends the generation. */
static void *gen_alloc(void *data, size_t n)
{
	tt_proto_tecache *c = data;
	gen *g = &c->g[c->cur];
	big *b;

	n = (n + 15) & ~(size_t)15;
	if (g->used + n <= c->gen_bytes) {
		void *p = g->mem + g->used;
		g->used += n;
		return p;
	}
	g->full = 1;
	b = malloc(sizeof(big) + 16 + n);
	if (!b)
		return NULL;
	b->next = g->bigs;
	g->bigs = b;
	return (char *)b + 16;
}

static void gen_nofree(void *data, void *p)
{
	(void)data;
	(void)p;
}

static void gen_clear(gen *g)
{
	while (g->bigs) {
		big *b = g->bigs;
		g->bigs = b->next;
		free(b);
	}
	g->used = 0;
	g->full = 0;
}

tt_proto_tecache *tt_proto_tecache_new(size_t gen_bytes, size_t door)
{
	tt_proto_tecache *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	if (door && !(c->door = calloc(door, sizeof(*c->door)))) {
		free(c);
		return NULL;
	}
	c->ndoor = door;
	c->gen_bytes = gen_bytes;
	c->cur = -1;
	c->next_id = 1;
	c->alloc.alloc = gen_alloc;
	c->alloc.free = gen_nofree;
	c->alloc.allocator_data = c;
	return c;
}

void tt_proto_tecache_free(tt_proto_tecache *c)
{
	if (!c)
		return;
	for (int i = 0; i < GENS; i++) {
		gen_clear(&c->g[i]);
		free(c->g[i].mem);
	}
	free(c->door);
	free(c);
}

/* Found: the current generation and the one before it. */
static int found(const tt_proto_tecache *c, uint32_t id)
{
	return c->cur >= 0 && id && id + 1 >= c->g[c->cur].id;
}

void tt_proto_tecache_batch(tt_proto_tecache *c, uint64_t seq, uint64_t released)
{
	c->seq = seq;
	c->released = released;
	for (int i = 0; i < GENS; i++)
		if (found(c, c->g[i].id) && c->g[i].last_seq < seq)
			c->g[i].last_seq = seq;
}

const void *tt_proto_tecache_find(tt_proto_tecache *c, uint64_t h, const unsigned char *p, size_t n)
{
	const slot *s = &c->slots[h & (SLOTS - 1)];

	c->lookups++;
	/* (an empty event's bytes may be NULL: no memcmp of them) */
	if (s->h != h || s->n != n || !found(c, s->gen) || (n && memcmp(s->p, p, n)))
		return NULL;
	c->hits++;
	return s->m;
}

void tt_proto_tecache_prefetch(const tt_proto_tecache *c, uint64_t h)
{
	__builtin_prefetch(&c->slots[h & (SLOTS - 1)]);
}

int tt_proto_tecache_admit(tt_proto_tecache *c, uint64_t h)
{
	uint32_t *d, t = (uint32_t)(h >> 32) | 1;

	if (!c->door)
		return 1;
	d = &c->door[(h >> 16) & (c->ndoor - 1)];
	if (*d == t)
		return 1;
	*d = t;
	return 0;
}

/* A generation that is not found any more and whose last batch is back. */
static int reusable(const tt_proto_tecache *c, const gen *g)
{
	return !g->id || (!found(c, g->id) && g->last_seq < c->released);
}

ProtobufCAllocator *tt_proto_tecache_alloc(tt_proto_tecache *c)
{
	if (c->cur >= 0 && !c->g[c->cur].full)
		return &c->alloc;
	for (int k = 1; k <= GENS; k++) {
		int i = (c->cur + k) % GENS;
		gen *g = &c->g[i];

		if (i == c->cur || !reusable(c, g))
			continue;
		if (!g->mem && !(g->mem = malloc(c->gen_bytes)))
			return NULL;
		gen_clear(g);
		g->id = c->next_id++;
		g->last_seq = c->seq;
		c->cur = i;
		/* the one before the new current is still found: this batch's
		 * items may point into it */
		for (int j = 0; j < GENS; j++)
			if (found(c, c->g[j].id) && c->g[j].last_seq < c->seq)
				c->g[j].last_seq = c->seq;
		return &c->alloc;
	}
	return NULL;
}

void tt_proto_tecache_put(tt_proto_tecache *c, uint64_t h, const unsigned char *p, size_t n, const void *m)
{
	slot *s = &c->slots[h & (SLOTS - 1)];
	unsigned char *copy;

	if (c->cur < 0 || n > UINT32_MAX || !(copy = gen_alloc(c, n ? n : 1)))
		return;
	if (n)
		memcpy(copy, p, n);
	s->h = h;
	s->p = copy;
	s->n = (uint32_t)n;
	s->m = m;
	s->gen = c->g[c->cur].id;
}

void tt_proto_tecache_counts(const tt_proto_tecache *c, uint64_t *lookups, uint64_t *hits)
{
	*lookups = c->lookups;
	*hits = c->hits;
}
