/*
 * storage_args.c - the args table's rows: building a set row by row,
 * storing it (hash and compare for the args tracker's dedupe), copying a
 * set, the text of a value, and which rows finalize hides (sets a merge
 * replaced). Lazy sets and merges are storage_argsets.c's.
 */
#include "storage_args_int.h"
#include "storage_mem.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- args ------------------------------------------------------------------ */

static const char *const arg_type_names[] = {
	[TT_ARG_INT] = "int", [TT_ARG_UINT] = "uint", [TT_ARG_STRING] = "string",
	[TT_ARG_REAL] = "real", [TT_ARG_BOOL] = "bool", [TT_ARG_POINTER] = "pointer",
	[TT_ARG_JSON] = "json", [TT_ARG_NULL] = "null",
};

const char *tt_storage_arg_type_name(int type)
{
	return type >= 0 && type <= TT_ARG_NULL ? arg_type_names[type] : "null";
}

void tt_storage_args_begin(tt_storage *st)
{
	st->args.building = 1;
	st->args.build_start = st->args.n;
}

const char *tt_storage_arg_flat_key(const tt_storage *st, size_t row, char *buf, size_t len)
{
	const char *key = tt_storage_str(st, st->args.key[row]);
	size_t o = 0;

	if (!key)
		return "";
	if (!(st->args.type[row] & TT_ARG_INDEXED) || len == 0)
		return key;
	for (const char *p = key; *p && o + 1 < len; p++) {
		if (*p == '[') {
			const char *q = strchr(p, ']');

			if (q) {
				p = q;
				continue;
			}
		}
		buf[o++] = *p;
	}
	buf[o] = '\0';
	return buf;
}

uint32_t tt_storage_arg_set_of(const tt_storage *st, size_t row)
{
	ptrdiff_t s = set_at(st, row);

	if (s < 0 || (st->args.building && row >= st->args.build_start))
		return TT_NONE;
	return (uint32_t)s;
}

/* Makes the columns hold row ids [0, need). Lazy sets leave holes that are
 * never written until read, so a big reservation costs address space, not
 * memory. */
int tt_storage_args_reserve(tt_storage *st, size_t need)
{
	struct col cols[] = { COL(st->args.key), COL(st->args.type), COL(st->args.val) };
	size_t ncap = st->args.cap ? st->args.cap : 64;

	if (need <= st->args.cap)
		return 0;
	while (ncap < need)
		ncap += ncap / 2;
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		void *np = tt_colmem_resize(*cols[i].p, ncap * cols[i].esz);

		if (!np) {
			st->oom = 1;
			return -1;
		}
		*cols[i].p = np;
	}
	st->args.cap = ncap;
	return 0;
}

int tt_storage_args_ahead(tt_storage *st, size_t more, tt_storage_ahead *a)
{
	struct col cols[] = { COL(st->args.key), COL(st->args.type), COL(st->args.val) };

	a->ncol = 0;
	a->from = a->to = st->args.n;
	if (!more || more > TT_MAX_ROWS)
		return 0;
	if (tt_storage_args_reserve(st, st->args.n + more))
		return -1;
	tt_storage_ahead_set(a, st->args.n, more, cols, sizeof(cols) / sizeof(cols[0]));
	return 0;
}

size_t tt_storage_args_rows(const tt_storage *st)
{
	return st->args.n;
}

/* Appends a row to the set under construction. */
void tt_storage_args_append_row(tt_storage *st, tt_str key, uint8_t type, union tt_arg_val v)
{
	/* (the check first: a call per row was a tenth of building a set) */
	if (st->args.n >= st->args.cap && tt_storage_args_reserve(st, st->args.n + 1))
		return;
	put_row(st, st->args.n++, key, type, v);
}

static void arg_add(tt_storage *st, const char *key, int type, union tt_arg_val v)
{
	if (st->args.lazy && st->args.lazy->filling) {
		tt_storage_args_fill_add(st, key, type, v);
		return;
	}
	if (!st->args.building)
		return;
	tt_storage_args_append_row(st, tt_storage_intern_cstr(st, key ? key : ""), (uint8_t)(type | indexed_flag(key)), v);
}

void tt_storage_args_keyed(tt_storage *st, tt_str key, int type, int64_t i, double d, tt_str s)
{
	int base = type & ~TT_ARG_INDEXED;
	union tt_arg_val v = base == TT_ARG_REAL ? (union tt_arg_val){ .d = d } :
			     base == TT_ARG_STRING || base == TT_ARG_JSON ? (union tt_arg_val){ .s = s } :
			     (union tt_arg_val){ .i = i };

	if (st->args.lazy && st->args.lazy->filling) {
		tt_storage_args_fill_add(st, tt_storage_str(st, key), base, v);
		return;
	}
	if (st->args.building)
		tt_storage_args_append_row(st, key, (uint8_t)type, v);
}

void tt_storage_args_int(tt_storage *st, const char *key, int64_t v)
{
	arg_add(st, key, TT_ARG_INT, (union tt_arg_val){ .i = v });
}

void tt_storage_args_uint(tt_storage *st, const char *key, uint64_t v)
{
	arg_add(st, key, TT_ARG_UINT, (union tt_arg_val){ .i = (int64_t)v });
}

void tt_storage_args_bool(tt_storage *st, const char *key, int v)
{
	arg_add(st, key, TT_ARG_BOOL, (union tt_arg_val){ .i = v ? 1 : 0 });
}

void tt_storage_args_real(tt_storage *st, const char *key, double v)
{
	arg_add(st, key, TT_ARG_REAL, (union tt_arg_val){ .d = v });
}

void tt_storage_args_str(tt_storage *st, const char *key, const char *s, size_t len)
{
	arg_add(st, key, TT_ARG_STRING, (union tt_arg_val){ .s = tt_storage_intern(st, s, len) });
}

void tt_storage_args_pointer(tt_storage *st, const char *key, uint64_t v)
{
	arg_add(st, key, TT_ARG_POINTER, (union tt_arg_val){ .i = (int64_t)v });
}

void tt_storage_args_json(tt_storage *st, const char *key, const char *s, size_t len)
{
	arg_add(st, key, TT_ARG_JSON, (union tt_arg_val){ .s = tt_storage_intern(st, s, len) });
}

void tt_storage_args_null(tt_storage *st, const char *key)
{
	arg_add(st, key, TT_ARG_NULL, (union tt_arg_val){ .i = 0 });
}

void tt_storage_args_replaced(tt_storage *st, uint32_t set)
{
	if (set != TT_NONE && TT_VEC_PUSH(st->args.merged_in, set))
		st->oom = 1;
}

int tt_storage_args_uint_of(const tt_storage *st, uint32_t set, tt_str key, uint64_t *v)
{
	size_t first, end;

	if (!key || !tt_storage_argset_rows(st, set, &first, &end))
		return 0;
	for (size_t r = first; r < end; r++)
		if (st->args.key[r] == key && TT_ARG_TYPE(st->args.type[r]) == TT_ARG_UINT) {
			*v = (uint64_t)st->args.val[r].i;
			return 1;
		}
	return 0;
}

void tt_storage_args_copy(tt_storage *st, uint32_t set)
{
	size_t first, end;

	if (!st->args.building || !tt_storage_argset_rows(st, set, &first, &end))
		return;
	for (size_t r = first; r < end; r++)
		tt_storage_args_append_row(st, st->args.key[r], st->args.type[r], st->args.val[r]);
}

static uint32_t set_push_or_drop(tt_storage *st, size_t first)
{
	uint32_t id = tt_storage_args_set_push(st, 0, LZ_STORED, first);

	if (id == TT_NONE)
		st->args.n = first;
	return id;
}

static uint64_t mix64(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ULL;
	return h ^ (h >> 29);
}

/* A row's value bits: a string's id only (the union's other bytes are
 * whatever the row held before), null as 0. */
static inline uint64_t val_bits(const tt_storage *st, size_t r)
{
	switch (TT_ARG_TYPE(st->args.type[r])) {
	case TT_ARG_STRING:
	case TT_ARG_JSON: return st->args.val[r].s;
	case TT_ARG_NULL: return 0;
	default: return (uint64_t)st->args.val[r].i;
	}
}

static uint64_t rows_hash(const tt_storage *st, size_t first, size_t end)
{
	uint64_t h = 0x243f6a8885a308d3ULL;

	/* a multiply per word and one finishing mix: a table keyed by it
	 * only needs the slots spread, equal rows are compared anyway */
	for (size_t r = first; r < end; r++) {
		h = (h ^ ((uint64_t)st->args.key[r] << 8 | st->args.type[r])) * 0x9e3779b97f4a7c15ULL;
		h = (h ^ val_bits(st, r)) * 0xbf58476d1ce4e5b9ULL;
		h ^= h >> 29;
	}
	return mix64(h, end - first);
}

uint64_t tt_storage_args_set_hash(const tt_storage *st, uint32_t set)
{
	return rows_hash(st, tt_storage_set_first(st, set), set_end(st, set));
}

size_t tt_storage_args_building(const tt_storage *st, uint64_t *hash)
{
	if (!st->args.building)
		return 0;
	if (hash)
		*hash = rows_hash(st, st->args.build_start, st->args.n);
	return st->args.n - st->args.build_start;
}

int tt_storage_args_building_is(const tt_storage *st, uint32_t set)
{
	size_t first = st->args.build_start, n = st->args.n - first, sf;

	if (!st->args.building || set >= st->args.set_first.n)
		return 0;
	sf = tt_storage_set_first(st, set);
	if (set_end(st, set) - sf != n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (st->args.key[sf + i] != st->args.key[first + i] ||
		    st->args.type[sf + i] != st->args.type[first + i] ||
		    val_bits(st, sf + i) != val_bits(st, first + i))
			return 0;
	return 1;
}

void tt_storage_args_discard(tt_storage *st)
{
	if (!st->args.building)
		return;
	st->args.building = 0;
	st->args.n = st->args.build_start;
}

uint32_t tt_storage_args_store(tt_storage *st)
{
	size_t first = st->args.build_start;

	if (!st->args.building)
		return TT_NONE;
	st->args.building = 0;
	if (st->args.n == first)
		return TT_NONE;
	return set_push_or_drop(st, first);
}

const char *tt_storage_arg_text(const tt_storage *st, size_t row, char *buf, size_t len)
{
	const union tt_arg_val *v = &st->args.val[row];
	const char *s;

	switch (TT_ARG_TYPE(st->args.type[row])) {
	case TT_ARG_INT:
		snprintf(buf, len, "%" PRId64, v->i);
		return buf;
	case TT_ARG_UINT:
		snprintf(buf, len, "%" PRIu64, (uint64_t)v->i);
		return buf;
	case TT_ARG_POINTER:
		snprintf(buf, len, "0x%" PRIx64, (uint64_t)v->i);
		return buf;
	case TT_ARG_BOOL:
		return v->i ? "true" : "false";
	case TT_ARG_REAL:
		snprintf(buf, len, "%.17g", v->d);
		return buf;
	case TT_ARG_STRING:
	case TT_ARG_JSON:
		s = tt_storage_str(st, v->s);
		return s ? s : "";
	default:
		return "";
	}
}

/* ---- dead rows (finalize) ---- */

static void unmark(uint64_t *bits, size_t nbits, uint32_t set)
{
	if (set < nbits)
		bits[set / 64] &= ~(1ULL << (set % 64));
}

static void unmark_col(uint64_t *bits, size_t nbits, const uint32_t *col, size_t n)
{
	for (size_t i = 0; col && i < n; i++)
		unmark(bits, nbits, col[i]);
}

/* The rows of sets a merge read and no row owns any more: trace processor
 * writes a slice's args once, when it ends, so the begin and end sets a
 * merge replaced never reach its args table. A set kept once for identical
 * rows (the args tracker's dedupe, tt_args_tracker_dedupe) may still be another row's: every column
 * that holds an arg_set_id is looked at. */
void tt_storage_args_mark_dead(tt_storage *st)
{
	size_t nsets = st->args.set_first.n, nrows = st->args.n;
	uint64_t *cand;
	int any = 0;

	free(st->args.dead);
	st->args.dead = NULL;
	st->args.dead_n = 0;
	if (!st->args.merged_in.n || !nsets)
		return;
	cand = calloc(nsets / 64 + 1, sizeof(*cand));
	if (!cand) {
		st->oom = 1;
		return;
	}
	for (size_t i = 0; i < st->args.merged_in.n; i++) {
		uint32_t set = st->args.merged_in.v[i];

		if (set < nsets)
			cand[set / 64] |= 1ULL << (set % 64);
	}
	unmark_col(cand, nsets, st->process.arg_set_id, st->process.n);
	unmark_col(cand, nsets, st->thread.arg_set_id, st->thread.n);
	unmark_col(cand, nsets, st->track.source_arg_set_id, st->track.n);
	unmark_col(cand, nsets, st->track.dimension_arg_set_id, st->track.n);
	unmark_col(cand, nsets, st->slice.arg_set_id, st->slice.n);
	unmark_col(cand, nsets, st->flow.arg_set_id, st->flow.n);
	unmark_col(cand, nsets, st->counter_args.val, st->counter_args.n);
	unmark_col(cand, nsets, st->state.arg_set_id, st->state.n);
	unmark_col(cand, nsets, st->import_logs.arg_set_id, st->import_logs.n);
	unmark_col(cand, nsets, st->proto_path.arg_set_id, st->proto_path.n);
	unmark_col(cand, nsets, st->cpus.arg_set_id, st->cpus.n);
	for (size_t i = 0; i < st->raw.n; i++)
		unmark(cand, nsets, tt_storage_raw_id(&st->raw.arg_set_id, i));
	for (size_t w = 0; w <= nsets / 64 && !any; w++)
		any = cand[w] != 0;
	if (any && (st->args.dead = calloc(nrows / 64 + 1, sizeof(uint64_t))) == NULL)
		st->oom = 1;
	for (uint32_t set = 0; any && st->args.dead && set < nsets; set++) {
		if (!(cand[set / 64] >> (set % 64) & 1))
			continue;
		for (size_t r = tt_storage_set_first(st, set), e = set_end(st, set); r < e && r < nrows; r++)
			st->args.dead[r / 64] |= 1ULL << (r % 64);
	}
	if (st->args.dead)
		st->args.dead_n = nrows;
	free(cand);
}

int tt_storage_arg_row_dead(const tt_storage *st, size_t row)
{
	return row < st->args.dead_n && (st->args.dead[row / 64] >> (row % 64) & 1);
}
