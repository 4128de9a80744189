/*
 * storage_argsets.c - arg sets whose rows are not in the columns yet: lazy
 * sets a decoder fills when read (storage.h), merged sets (a slice's begin
 * and end args, merged by trace processor's rules) and the loading that
 * stores them before a scan.
 */
#include "storage_args_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- lazy sets ---- */

/* The begin and end sets of merged set `set`. */
static const struct lz_pair *lz_pair(const struct tt_args_lazy *z, uint32_t set)
{
	size_t lo = 0, hi = z->merged.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (z->merged.v[mid].set < set)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < z->merged.n && z->merged.v[lo].set == set ? &z->merged.v[lo] : NULL;
}

/* A value written by a decoder: the next row of the set being decoded. */
void tt_storage_args_fill_add(tt_storage *st, const char *key, int type, union tt_arg_val v)
{
	struct tt_args_lazy *z = st->args.lazy;
	size_t r = z->fill_pos, i = r - z->fill_first;

	if (r >= z->fill_end)
		return; /* more values than registered: the count is the contract */
	z->fill_pos++;
	if (z->fill_kind == LZ_NOKEYS) {
		put_row(st, r, tt_storage_intern_cstr(st, key ? key : ""),
			(uint8_t)(type | indexed_flag(key)), v);
	} else {
		size_t k = z->shape_first.v[z->fill_kind] + i;

		put_row(st, r, z->keys.v[k], (uint8_t)(type | z->indexed.v[k]), v);
	}
}

static struct tt_args_lazy *lazy_get(tt_storage *st)
{
	struct tt_args_lazy *z = st->args.lazy;
	size_t n = st->args.set_first.n;

	if (z)
		return z;
	z = calloc(1, sizeof(*z));
	if (!z) {
		st->oom = 1;
		return NULL;
	}
	/* the sets written so far are stored */
	for (size_t i = 0; i < n; i++) {
		if (tt_packcol_push(&z->loc, 0) || tt_packcol_push(&z->kind, (uint32_t)(LZ_STORED + 3))) {
			tt_packcol_free(&z->loc);
			tt_packcol_free(&z->kind);
			free(z);
			st->oom = 1;
			return NULL;
		}
	}
	st->args.lazy = z;
	return z;
}

void tt_storage_args_lazy_free(tt_storage *st)
{
	struct tt_args_lazy *z = st->args.lazy;

	if (!z)
		return;
	if (z->dec.free_ctx)
		z->dec.free_ctx(z->ctx);
	tt_packcol_free(&z->loc);
	tt_packcol_free(&z->kind);
	TT_VEC_FREE(z->merged);
	TT_VEC_FREE(z->shape_first);
	TT_VEC_FREE(z->shape_n);
	TT_VEC_FREE(z->keys);
	TT_VEC_FREE(z->indexed);
	free(z);
	st->args.lazy = NULL;
}

/* Adds a set of nrows rows starting at row args.n, in both per-set
 * tables. Returns its id, TT_NONE when memory ran out. */
uint32_t tt_storage_args_set_push(tt_storage *st, uint64_t loc, uint32_t kind, size_t first)
{
	struct tt_args_lazy *z = st->args.lazy;
	uint32_t id = (uint32_t)st->args.set_first.n;

	if (id == TT_NONE || tt_packcol_push(&st->args.set_first, first)) {
		st->oom = 1;
		return TT_NONE;
	}
	if (z) {
		/* only decoded sets read their loc: the others repeat the
		 * previous one, which keeps the column's differences small */
		int decoded = kind != LZ_STORED && kind != LZ_MERGED;

		if (!decoded)
			loc = id ? lz_loc(z, id - 1) : 0;
		if (tt_packcol_push(&z->loc, loc) || tt_packcol_push(&z->kind, (uint32_t)(kind + 3))) {
			tt_packcol_truncate(&st->args.set_first, id);
			tt_packcol_truncate(&z->loc, id);
			tt_packcol_truncate(&z->kind, id);
			st->oom = 1;
			return TT_NONE;
		}
	}
	return id;
}

int tt_storage_args_decoder(tt_storage *st, const tt_args_decoder *dec, void *ctx)
{
	struct tt_args_lazy *z = lazy_get(st);

	if (!z || z->dec.decode) {
		if (dec->free_ctx)
			dec->free_ctx(ctx);
		return -1;
	}
	z->dec = *dec;
	z->ctx = ctx;
	return 0;
}

uint32_t tt_storage_args_shape(tt_storage *st, const tt_str *keys, size_t n)
{
	struct tt_args_lazy *z = lazy_get(st);
	uint32_t id;

	if (!z || z->shape_n.n >= LZ_NOKEYS || z->keys.n + n > UINT32_MAX)
		return TT_NONE;
	id = (uint32_t)z->shape_n.n;
	if (tt_vec_reserve((void **)&z->keys.v, &z->keys.cap, z->keys.n + n, sizeof(*z->keys.v)) ||
	    tt_vec_reserve((void **)&z->indexed.v, &z->indexed.cap, z->keys.n + n, sizeof(*z->indexed.v)) ||
	    TT_VEC_PUSH(z->shape_first, (uint32_t)z->keys.n)) {
		st->oom = 1;
		return TT_NONE;
	}
	if (TT_VEC_PUSH(z->shape_n, (uint32_t)n)) {
		z->shape_first.n--;
		st->oom = 1;
		return TT_NONE;
	}
	for (size_t i = 0; i < n; i++) {
		z->keys.v[z->keys.n] = keys[i];
		z->indexed.v[z->keys.n++] = indexed_flag(tt_storage_str(st, keys[i]));
	}
	return id;
}

uint32_t tt_storage_args_lazy(tt_storage *st, uint64_t loc, uint32_t shape, size_t nrows)
{
	struct tt_args_lazy *z = st->args.lazy;
	uint32_t id;

	if (!z || !z->dec.decode || !nrows || st->args.building)
		return TT_NONE;
	if (shape != TT_NONE && (shape >= z->shape_n.n || z->shape_n.v[shape] != nrows))
		return TT_NONE;
	if (nrows > UINT32_MAX - st->args.n) { /* row ids are 32-bit in set_first */
		st->oom = 1;
		return TT_NONE;
	}
	id = tt_storage_args_set_push(st, loc, shape != TT_NONE ? shape : LZ_NOKEYS, st->args.n);
	if (id == TT_NONE)
		return TT_NONE;
	st->args.n += nrows;
	z->pending++;
	return id;
}

static int load_set(tt_storage *st, uint32_t set);

static int key_in(const tt_storage *st, tt_str key, size_t first, size_t end)
{
	for (size_t q = first; q < end; q++)
		if (st->args.key[q] == key)
			return 1;
	return 0;
}

/* The key an end row takes in a merge with begin's keys bk[0..nb): trace
 * processor keeps one args tracker per open slice, so an array the end
 * adds under a key whose array begin already has continues after begin's
 * entries ("a[0]" after begin's "a[0]", "a[1]" is "a[2]"). Only the
 * outermost index moves; what is nested under it follows. With find_only
 * the new key is looked up, not interned (merged sets stored when read:
 * the merge interned it); 0 if absent. */
static tt_str merge_key(tt_storage *st, tt_str key, const tt_str *bk, const uint8_t *bt, size_t nb, int find_only)
{
	const char *k = tt_storage_str(st, key), *open, *close;
	size_t base;
	unsigned long long next = 0, idx;
	char buf[1024];
	int n;

	if (!k || !(open = strchr(k, '[')) || !(close = strchr(open, ']')))
		return key;
	base = (size_t)(open - k);
	for (size_t i = 0; i < nb; i++) {
		const char *b;

		/* (begin's row types, when known, say which keys hold a [) */
		if (bt && !(bt[i] & TT_ARG_INDEXED))
			continue;
		b = tt_storage_str(st, bk[i]);
		if (b && strncmp(b, k, base) == 0 && b[base] == '[') {
			unsigned long long j = strtoull(b + base + 1, NULL, 10);

			if (j + 1 > next)
				next = j + 1;
		}
	}
	if (next == 0)
		return key;
	idx = strtoull(open + 1, NULL, 10) + next;
	n = snprintf(buf, sizeof(buf), "%.*s[%llu%s", (int)base, k, idx, close);
	if (n < 0 || (size_t)n >= sizeof(buf))
		return key;
	return find_only ? tt_strpool_find(st->strs, buf, (size_t)n) : tt_storage_intern(st, buf, (size_t)n);
}

/* A key whose begin value a merge keeps (tt_storage_args_keep_first). */
static int keeps_first(const tt_storage *st, tt_str key)
{
	for (size_t i = 0; i < st->args.nkeep; i++)
		if (st->args.keep[i] == key)
			return 1;
	return 0;
}

void tt_storage_args_keep_first(tt_storage *st, const char *key)
{
	if (st->args.nkeep < sizeof(st->args.keep) / sizeof(st->args.keep[0]))
		st->args.keep[st->args.nkeep++] = tt_storage_intern_cstr(st, key);
}

/* Where begin's key is in end's (merged) keys ek[0..ne), or ne. */
static size_t merged_row(const tt_storage *st, tt_str key, const tt_str *ek, size_t ne)
{
	if (keeps_first(st, key))
		return ne;
	for (size_t j = 0; j < ne; j++)
		if (ek[j] == key)
			return j;
	return ne;
}

/* Sets a merge read, which no row may own any more (tt_storage_finalize
 * hides those from the args table, as trace processor writes a slice's
 * args once, when it ends). */
static void merge_input(tt_storage *st, uint32_t a, uint32_t b)
{
	if (tt_vec_reserve((void **)&st->args.merged_in.v, &st->args.merged_in.cap, st->args.merged_in.n + 2,
			   sizeof(uint32_t))) {
		st->oom = 1;
		return;
	}
	st->args.merged_in.v[st->args.merged_in.n++] = a;
	st->args.merged_in.v[st->args.merged_in.n++] = b;
}

/* Rows of a merged set: what tt_storage_args_merge would have appended. */
static int store_merged(tt_storage *st, uint32_t set, size_t first, size_t end)
{
	const struct lz_pair *p = lz_pair(st->args.lazy, set);
	uint32_t b, e;
	size_t bf, be, ef, ee, r = first;
	tt_str *ek;

	if (!p)
		return -1;
	b = p->begin;
	e = p->end;
	if (load_set(st, b) || load_set(st, e))
		return -1;
	bf = tt_storage_set_first(st, b);
	be = set_end(st, b);
	ef = tt_storage_set_first(st, e);
	ee = set_end(st, e);
	ek = malloc((ee - ef + 1) * sizeof(*ek));
	if (!ek)
		return -1;
	for (size_t q = ef; q < ee; q++)
		ek[q - ef] = merge_key(st, st->args.key[q], st->args.key + bf, NULL, be - bf, 1);
	for (size_t q = bf; q < be && r < end; q++) {
		size_t w = merged_row(st, st->args.key[q], ek, ee - ef);

		w = w < ee - ef ? ef + w : q;
		put_row(st, r++, st->args.key[q], st->args.type[w], st->args.val[w]);
	}
	for (size_t q = ef; q < ee && r < end; q++)
		if (!key_in(st, ek[q - ef], bf, be))
			put_row(st, r++, ek[q - ef], st->args.type[q], st->args.val[q]);
	for (; r < end; r++)
		put_row(st, r, 0, TT_ARG_NULL, (union tt_arg_val){ .i = 0 });
	free(ek);
	return 0;
}

static int store_decoded(tt_storage *st, uint32_t set, size_t first, size_t end)
{
	struct tt_args_lazy *z = st->args.lazy;
	uint32_t kind = lz_kind(z, set);

	if (z->filling)
		return -1; /* a decoder reading args: not supported */
	z->filling = 1;
	z->fill_first = z->fill_pos = first;
	z->fill_end = end;
	z->fill_kind = kind;
	z->dec.decode(z->ctx, st, lz_loc(z, set));
	z->filling = 0;
	/* an event that cannot be decoded any more keeps its keys */
	for (size_t r = z->fill_pos; r < end; r++) {
		size_t k = kind == LZ_NOKEYS ? 0 : z->shape_first.v[kind] + (r - first);

		put_row(st, r, kind == LZ_NOKEYS ? 0 : z->keys.v[k],
			(uint8_t)(TT_ARG_NULL | (kind == LZ_NOKEYS ? 0 : z->indexed.v[k])),
			(union tt_arg_val){ .i = 0 });
	}
	return 0;
}

/* Stores the rows of set if it is lazy. 0, or -1 when memory ran out. */
static int load_set(tt_storage *st, uint32_t set)
{
	struct tt_args_lazy *z = st->args.lazy;
	size_t first, end;
	int rc;

	if (!z || set >= z->kind.n || lz_kind(z, set) == LZ_STORED)
		return 0;
	if (tt_storage_args_reserve(st, st->args.n))
		return -1;
	first = tt_storage_set_first(st, set);
	end = set_end(st, set);
	if (lz_kind(z, set) == LZ_MERGED)
		rc = store_merged(st, set, first, end);
	else
		rc = store_decoded(st, set, first, end);
	if (rc || tt_packcol_set(&z->kind, set, (uint32_t)(LZ_STORED + 3)))
		return -1;
	z->pending--;
	return 0;
}

int tt_storage_args_load(const tt_storage *cst, size_t first, size_t end)
{
	/* storing a lazy set changes no row as readers see it */
	tt_storage *st = (tt_storage *)cst;
	struct tt_args_lazy *z = st->args.lazy;
	ptrdiff_t s0, s1;

	if (!z)
		return 0;
	if (end > st->args.n)
		end = st->args.n;
	if (z->pending && first < end) {
		s0 = set_at(st, first);
		s1 = set_at(st, end - 1);
		for (ptrdiff_t s = s0 < 0 ? 0 : s0; s <= s1; s++)
			if (load_set(st, (uint32_t)s))
				return -1;
	}
	/* nothing left to decode: back to plain columns, and the decoder's
	 * files and metadata are released */
	if (!z->pending && !z->filling)
		tt_storage_args_lazy_free(st);
	return 0;
}

int tt_storage_argset_rows(const tt_storage *st, uint32_t set, size_t *first, size_t *end)
{
	if (set >= st->args.set_first.n)
		return 0;
	if (st->args.lazy && load_set((tt_storage *)st, set))
		return 0;
	*first = tt_storage_set_first(st, set);
	*end = set_end(st, set);
	return 1;
}

/* The key list of a set for a merge: shape keys of a lazy set, else its
 * stored rows (decoded now when only decoding tells the keys). */
static const tt_str *set_keys(tt_storage *st, uint32_t set, size_t *n)
{
	struct tt_args_lazy *z = st->args.lazy;
	uint32_t kind = z ? lz_kind(z, set) : LZ_STORED;

	if (kind != LZ_STORED && kind != LZ_MERGED && kind != LZ_NOKEYS) {
		*n = z->shape_n.v[kind];
		return z->keys.v + z->shape_first.v[kind];
	}
	if (load_set(st, set))
		return NULL;
	*n = set_end(st, set) - tt_storage_set_first(st, set);
	return st->args.key + tt_storage_set_first(st, set);
}

int tt_storage_args_merge_begin(tt_storage *st, uint32_t begin, uint32_t end, uint32_t *set)
{
	struct tt_args_lazy *z = st->args.lazy;
	const tt_str *bk, *ek;
	tt_str *mk;
	size_t nb, ne, count;
	uint32_t id;

	*set = TT_NONE;
	if (end == TT_NONE || end >= st->args.set_first.n) {
		*set = begin;
		return 0;
	}
	if (begin == TT_NONE || begin >= st->args.set_first.n) {
		*set = end;
		return 0;
	}
	merge_input(st, begin, end);
	if (!z || (lz_kind(z, begin) == LZ_STORED && lz_kind(z, end) == LZ_STORED)) {
		size_t bf = tt_storage_set_first(st, begin), be = set_end(st, begin);
		size_t ef = tt_storage_set_first(st, end), ee = set_end(st, end);
		tt_str small[32];
		/* (a slice's end has a few args: no allocation for them) */
		tt_str *mk = ee - ef <= 32 ? small : malloc((ee - ef + 1) * sizeof(*mk));

		if (!mk) {
			st->oom = 1;
			return 0;
		}
		/* end's keys as merged, before appending moves the columns (a
		 * key without [ is itself: its row's type says so, no need to
		 * read its text) */
		for (size_t r = ef; r < ee; r++)
			mk[r - ef] = !(st->args.type[r] & TT_ARG_INDEXED) ? st->args.key[r] :
				     merge_key(st, st->args.key[r], st->args.key + bf, st->args.type + bf, be - bf, 0);
		tt_storage_args_begin(st);
		for (size_t r = bf; r < be; r++) {
			size_t w = merged_row(st, st->args.key[r], mk, ee - ef);

			w = w < ee - ef ? ef + w : r;
			tt_storage_args_append_row(st, st->args.key[r], st->args.type[w], st->args.val[w]);
		}
		for (size_t r = ef; r < ee; r++)
			if (!key_in(st, mk[r - ef], bf, be))
				tt_storage_args_append_row(st, mk[r - ef], st->args.type[r], st->args.val[r]);
		if (mk != small)
			free(mk);
		return 1;
	}
	/* decode what has no known keys first: storing moves the columns */
	if (!set_keys(st, begin, &nb) || !set_keys(st, end, &ne))
		return 0;
	bk = set_keys(st, begin, &nb);
	ek = set_keys(st, end, &ne);
	/* end's arrays continuing begin's take new keys, interned now (the
	 * merged rows are stored when read, which only looks them up);
	 * interning moves no key list */
	mk = malloc((ne + 1) * sizeof(*mk));
	if (!mk) {
		st->oom = 1;
		return 0;
	}
	for (size_t j = 0; j < ne; j++)
		mk[j] = merge_key(st, ek[j], bk, NULL, nb, 0);
	count = nb;
	for (size_t j = 0; j < ne; j++) {
		size_t i = 0;

		while (i < nb && bk[i] != mk[j])
			i++;
		count += i == nb;
	}
	free(mk);
	if (count > UINT32_MAX - st->args.n) {
		st->oom = 1;
		return 0;
	}
	if (tt_vec_reserve((void **)&z->merged.v, &z->merged.cap, z->merged.n + 1, sizeof(*z->merged.v))) {
		st->oom = 1;
		return 0;
	}
	id = tt_storage_args_set_push(st, 0, LZ_MERGED, st->args.n);
	if (id == TT_NONE)
		return 0;
	z->merged.v[z->merged.n++] = (struct lz_pair){ id, begin, end };
	st->args.n += count;
	z->pending++;
	*set = id;
	return 0;
}

uint32_t tt_storage_args_merge(tt_storage *st, uint32_t begin, uint32_t end)
{
	uint32_t set;

	return tt_storage_args_merge_begin(st, begin, end, &set) ? tt_storage_args_store(st) : set;
}
