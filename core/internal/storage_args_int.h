/*
 * storage_args_int.h - what the storage files share about the args table:
 * storage.c (life cycle, finalize), storage_args.c (rows, building, store,
 * hashing, text, dead rows) and storage_argsets.c (lazy sets, loading,
 * merges). Private to storage: the SQL tables and trace.c read the args
 * columns through storage_int.h only.
 */
#ifndef TT_STORAGE_ARGS_INT_H
#define TT_STORAGE_ARGS_INT_H

#include "storage_int.h"

#include <stddef.h>
#include <string.h>

/* A column of a table for the growth helpers: its pointer and element size. */
struct col {
	void **p;
	size_t esz;
};
#define COL(x) { (void **)&(x), sizeof(*(x)) }
/* An optional column (NULL until first written): it grows and shrinks
 * with its table only once it exists. */
#define OPT_COL(x) { (void **)&(x), (x) ? sizeof(*(x)) : 0 }

/* a (storage.h's rows ahead) for rows [n, n + more) of the columns that
 * exist (storage.c) */
void tt_storage_ahead_set(tt_storage_ahead *a, size_t n, size_t more, const struct col *cols, size_t ncols);

/* What reading a set involves, per arg set (kind); any other value is the
 * shape id of a decoded set. */
#define LZ_STORED UINT32_MAX       /* its rows are in the columns */
#define LZ_MERGED (UINT32_MAX - 1) /* begin and end sets in merged */
#define LZ_NOKEYS (UINT32_MAX - 2) /* decoded, keys come with the values */

/* Lazy sets (storage.h). Exists from the first decoder, shape or lazy set
 * until a full read stored every set; loc and kind then cover every set,
 * eager ones included (LZ_STORED), so both are indexed by arg_set_id.
 * Both are packed columns (about 2 bytes a set where neighbours are
 * close): kind holds kind + 3, so that LZ_* and small shape ids are near,
 * and a set that is not decoded repeats the previous set's loc (merged
 * sets keep their pair in merged, by set id). */
struct lz_pair {
	uint32_t set, begin, end;
};

struct tt_args_lazy {
	tt_args_decoder dec;
	void *ctx;
	tt_packcol loc;
	tt_packcol kind;
	TT_VEC(struct lz_pair) merged;
	size_t pending;               /* sets not stored yet */
	TT_VEC(uint32_t) shape_first; /* shape -> its first key in keys */
	TT_VEC(uint32_t) shape_n;
	TT_VEC(tt_str) keys;
	TT_VEC(uint8_t) indexed;      /* per key: TT_ARG_INDEXED or 0 */
	/* the set being decoded: decode() writes rows [fill_pos, fill_end) */
	int filling;
	size_t fill_first, fill_pos, fill_end;
	uint32_t fill_kind;
};

static inline uint32_t lz_kind(const struct tt_args_lazy *z, uint32_t set)
{
	return (uint32_t)tt_packcol_get(&z->kind, set) - 3;
}

static inline uint64_t lz_loc(const struct tt_args_lazy *z, uint32_t set)
{
	return tt_packcol_get(&z->loc, set);
}

/* Index of the last set whose first row is <= row, or -1. */
static inline ptrdiff_t set_at(const tt_storage *st, size_t row)
{
	size_t lo = 0, hi = st->args.set_first.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tt_storage_set_first(st, (uint32_t)mid) <= row)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (ptrdiff_t)lo - 1;
}

/* One past the last row of an existing set. */
static inline size_t set_end(const tt_storage *st, uint32_t set)
{
	if (set + 1 < st->args.set_first.n)
		return tt_storage_set_first(st, set + 1);
	return st->args.building ? st->args.build_start : st->args.n;
}

/* Writes row r of the args columns (room made by tt_storage_args_reserve). */
static inline void put_row(tt_storage *st, size_t r, tt_str key, uint8_t type, union tt_arg_val v)
{
	st->args.key[r] = key;
	st->args.type[r] = type;
	st->args.val[r] = v;
}

static inline uint8_t indexed_flag(const char *key)
{
	return key && strchr(key, '[') ? TT_ARG_INDEXED : 0;
}

/* storage_args.c */
/* Makes the columns hold row ids [0, need); -1 when memory ran out. */
int tt_storage_args_reserve(tt_storage *st, size_t need);
/* Appends a row to the set under construction. */
void tt_storage_args_append_row(tt_storage *st, tt_str key, uint8_t type, union tt_arg_val v);
/* finalize: marks the rows of sets a merge read and no row owns. */
void tt_storage_args_mark_dead(tt_storage *st);

/* storage_argsets.c */
/* A value written by a decoder: the next row of the set being decoded. */
void tt_storage_args_fill_add(tt_storage *st, const char *key, int type, union tt_arg_val v);
/* Adds a set starting at row `first` to the per-set tables; its id, or
 * TT_NONE when memory ran out. */
uint32_t tt_storage_args_set_push(tt_storage *st, uint64_t loc, uint32_t kind, size_t first);
void tt_storage_args_lazy_free(tt_storage *st);

#endif
