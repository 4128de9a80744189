/*
 * vtab_ancestor.c - the slice hierarchy as table functions, with the slice
 * table's columns and Perfetto's names:
 *
 *   select name, depth from ancestor_slice(42);        -- root first
 *   select * from descendant_slice(7) where depth = 2; -- in ts order
 *   select s.name, a.name from slice s join ancestor_slice(s.id) a;
 *   select * from ancestor_slice_by_stack(1905114530773834795);  -- and self
 *   select * from descendant_slice_by_stack(:stack_id);          -- and self
 *
 * The input is the hidden column start_id (start_stack_id for the _by_stack
 * forms); the plan is vtab_func.h's TT_FUNC_PLAN_ARG.
 *
 * A stack id is Perfetto's slices.stack hash: the FNV-1a HASH() of the
 * '|'-joined decimal hashes of "category|name" of the slice itself, then
 * of its ancestors root first. The _by_stack forms return the slices of
 * that stack with their ancestors (descendants), each once, in ts order;
 * they hash every slice once per connection (O(slices x depth)), kept as
 * the function's cache. The others touch only the slice's chain or
 * subtree.
 */
#include "builtins.h"
#include "hash.h"
#include "vtab_func.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static int start_slice(const tt_storage *st, sqlite3_value *v, size_t *out, char **msg)
{
	sqlite3_int64 id = sqlite3_value_int64(v);

	if (sqlite3_value_type(v) != SQLITE_INTEGER) {
		*msg = sqlite3_mprintf("start id should be an integer.");
		return SQLITE_ERROR;
	}
	if (id < 0 || (size_t)id >= st->slice.n) {
		*msg = sqlite3_mprintf("no row with id %lld", (long long)id);
		return SQLITE_ERROR;
	}
	*out = (size_t)id;
	return SQLITE_OK;
}

/* Ancestors of slice s, root first. */
static int push_ancestors(const tt_storage *st, size_t s, tt_rowlist *out)
{
	size_t first = out->n;

	for (int64_t p = st->slice.parent_id[s]; p >= 0; p = st->slice.parent_id[p])
		if (tt_rowlist_push(out, (uint32_t)p))
			return SQLITE_NOMEM;
	for (size_t i = first, j = out->n; i + 1 < j; i++, j--) {
		uint32_t t = out->v[i];

		out->v[i] = out->v[j - 1];
		out->v[j - 1] = t;
	}
	return SQLITE_OK;
}

static int is_ancestor(const tt_storage *st, size_t a, size_t d)
{
	uint32_t adepth = st->slice.depth[a];

	for (int64_t p = st->slice.parent_id[d]; p >= 0; p = st->slice.parent_id[p]) {
		if ((size_t)p == a)
			return 1;
		if (st->slice.depth[p] <= adepth)
			return 0;
	}
	return 0;
}

/* Descendants of slice s in its track's ts order: the track's rows that
 * start inside [ts, ts + dur] (dur -1: to the end) and whose parent chain
 * reaches s. An instant at the end boundary is a child only if the
 * importer made it one. */
int tt_slice_push_descendants(const tt_storage *st, size_t s, tt_rowlist *out)
{
	uint32_t tr = st->slice.track[s];
	int64_t ts = st->slice.ts[s], dur = st->slice.dur[s];
	int64_t end = dur < 0 ? INT64_MAX : ts + dur;
	const uint32_t *rows;
	size_t lo, hi;

	if (tr == TT_NONE || tr >= st->track.n || !st->track.row_off || st->track.is_counter[tr]) {
		/* not indexed: scan every later slice */
		for (size_t r = s + 1; r < st->slice.n; r++)
			if (is_ancestor(st, s, r) && tt_rowlist_push(out, (uint32_t)r))
				return SQLITE_NOMEM;
		return SQLITE_OK;
	}
	rows = st->track.rows;
	lo = st->track.row_off[tr];
	hi = st->track.row_off[tr + 1];
	/* first row of the track with ts >= the slice's ts (rows are in ts order) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->slice.ts[rows[mid]] < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t k = lo; k < st->track.row_off[tr + 1]; k++) {
		uint32_t r = rows[k];

		if (st->slice.ts[r] > end)
			break;
		if (r != s && st->slice.depth[r] > st->slice.depth[s] && is_ancestor(st, s, r) &&
		    tt_rowlist_push(out, r))
			return SQLITE_NOMEM;
	}
	return SQLITE_OK;
}

static int fill_ancestor(const tt_storage *st, void **cache, sqlite3_value *v, tt_rowlist *out, char **msg)
{
	(void)cache;
	size_t s;
	int rc = start_slice(st, v, &s, msg);

	return rc != SQLITE_OK ? rc : push_ancestors(st, s, out);
}

static int fill_descendant(const tt_storage *st, void **cache, sqlite3_value *v, tt_rowlist *out, char **msg)
{
	(void)cache;
	size_t s;
	int rc = start_slice(st, v, &s, msg);

	return rc != SQLITE_OK ? rc : tt_slice_push_descendants(st, s, out);
}

/* The stack hash of every slice, by id (parents before children when ids
 * follow ts; otherwise the chain is walked). Returns NULL on OOM. */
static int64_t *stack_hashes(const tt_storage *st)
{
	size_t n = st->slice.n;
	uint64_t *self = malloc((n ? n : 1) * sizeof(*self));
	int64_t *out = malloc((n ? n : 1) * sizeof(*out));
	uint32_t *chain = malloc(((size_t)1 << 16) * sizeof(*chain));

	if (!self || !out || !chain) {
		free(self);
		free(out);
		free(chain);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		const char *cat = tt_storage_str(st, st->slice.cat[i]);
		const char *name = tt_storage_str(st, st->slice.name[i]);
		uint64_t h = TT_FNV1A64_SEED;

		h = tt_fnv1a64(h, cat ? cat : "", cat ? strlen(cat) : 0);
		h = tt_fnv1a64(h, "|", 1);
		h = tt_fnv1a64(h, name ? name : "", name ? strlen(name) : 0);
		self[i] = h;
	}
	for (size_t i = 0; i < n; i++) {
		size_t len = 0;
		uint64_t h = TT_FNV1A64_SEED;
		char buf[32];
		int m;

		for (int64_t p = st->slice.parent_id[i]; p >= 0 && len < ((size_t)1 << 16); p = st->slice.parent_id[p])
			chain[len++] = (uint32_t)p;
		/* the slice itself, then its ancestors root first */
		m = snprintf(buf, sizeof(buf), "%" PRId64, (int64_t)self[i]);
		h = tt_fnv1a64(h, buf, (size_t)m);
		for (size_t k = len; k-- > 0;) {
			m = snprintf(buf, sizeof(buf), "|%" PRId64, (int64_t)self[chain[k]]);
			h = tt_fnv1a64(h, buf, (size_t)m);
		}
		out[i] = (int64_t)h;
	}
	free(self);
	free(chain);
	return out;
}

struct ts_id {
	int64_t ts;
	uint32_t id;
};

static int by_ts(const void *a, const void *b)
{
	const struct ts_id *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int sort_by_ts(const tt_storage *st, tt_rowlist *l)
{
	struct ts_id *v = malloc((l->n ? l->n : 1) * sizeof(*v));

	if (!v)
		return SQLITE_NOMEM;
	for (size_t i = 0; i < l->n; i++)
		v[i] = (struct ts_id){ st->slice.ts[l->v[i]], l->v[i] };
	qsort(v, l->n, sizeof(*v), by_ts);
	for (size_t i = 0; i < l->n; i++)
		l->v[i] = v[i].id;
	free(v);
	return SQLITE_OK;
}

/* The slices with stack id `want` with their ancestors (or descendants),
 * each once, in ts order, as Perfetto's slices.stack functions. */
static int fill_by_stack(const tt_storage *st, void **cache, sqlite3_value *v, tt_rowlist *out,
			 char **msg, int descend)
{
	int64_t want = sqlite3_value_int64(v), *h;
	unsigned char *seen;
	tt_rowlist all = { 0 };
	int rc = SQLITE_OK;

	if (sqlite3_value_type(v) != SQLITE_INTEGER) {
		*msg = sqlite3_mprintf("stack id should be an integer.");
		return SQLITE_ERROR;
	}
	/* the stack ids are computed once per connection */
	if (!*cache)
		*cache = stack_hashes(st);
	h = *cache;
	seen = calloc(st->slice.n ? st->slice.n : 1, 1);
	if (!h || !seen) {
		free(seen);
		return SQLITE_NOMEM;
	}
	for (size_t i = 0; i < st->slice.n && rc == SQLITE_OK; i++) {
		if (h[i] != want)
			continue;
		if (tt_rowlist_push(&all, (uint32_t)i))
			rc = SQLITE_NOMEM;
		else
			rc = descend ? tt_slice_push_descendants(st, i, &all) : push_ancestors(st, i, &all);
	}
	for (size_t k = 0; k < all.n && rc == SQLITE_OK; k++) {
		if (seen[all.v[k]])
			continue;
		seen[all.v[k]] = 1;
		if (tt_rowlist_push(out, all.v[k]))
			rc = SQLITE_NOMEM;
	}
	if (rc == SQLITE_OK)
		rc = sort_by_ts(st, out);
	sqlite3_free(all.v);
	sqlite3_free(all.aux);
	free(seen);
	return rc;
}

static int fill_ancestor_stack(const tt_storage *st, void **cache, sqlite3_value *v, tt_rowlist *out, char **msg)
{
	return fill_by_stack(st, cache, v, out, msg, 0);
}

static int fill_descendant_stack(const tt_storage *st, void **cache, sqlite3_value *v, tt_rowlist *out, char **msg)
{
	return fill_by_stack(st, cache, v, out, msg, 1);
}

static void slice_column(const tt_storage *st, uint32_t row, int64_t aux, int col, sqlite3_context *ctx)
{
	(void)aux;
	tt_vtab_slice_column(st, row, col, ctx);
}

static const tt_func_def defs[] = {
	{ "ancestor_slice", "CREATE TABLE x(" TT_SLICE_COLUMNS ", start_id HIDDEN)",
	  TT_SLICE_NCOLS, fill_ancestor, slice_column, NULL },
	{ "descendant_slice", "CREATE TABLE x(" TT_SLICE_COLUMNS ", start_id HIDDEN)",
	  TT_SLICE_NCOLS, fill_descendant, slice_column, NULL },
	{ "ancestor_slice_by_stack", "CREATE TABLE x(" TT_SLICE_COLUMNS ", start_stack_id HIDDEN)",
	  TT_SLICE_NCOLS, fill_ancestor_stack, slice_column, free },
	{ "descendant_slice_by_stack", "CREATE TABLE x(" TT_SLICE_COLUMNS ", start_stack_id HIDDEN)",
	  TT_SLICE_NCOLS, fill_descendant_stack, slice_column, free },
};

int tt_sql_register_ancestor(sqlite3 *db, tt_storage *st)
{
	int rc = SQLITE_OK;

	for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]) && rc == SQLITE_OK; i++)
		rc = tt_func_register(db, st, &defs[i]);
	return rc;
}
