/*
 * vtab_flow.c - flows connected to a slice, as Perfetto's table functions:
 *
 *   select * from directly_connected_flow(12);  -- flows in and out, chained
 *   select * from following_flow(12);   -- out-flows of the slice and its
 *                                       -- descendants, then onward
 *   select * from preceding_flow(12);   -- in-flows of the slice and its
 *                                       -- ancestors, then backward
 *   select s1.name, s2.name from following_flow(12) f
 *     join slice s1 on s1.id = f.slice_out join slice s2 on s2.id = f.slice_in;
 *
 * Columns: the flow table's (id, slice_out, slice_in, trace_id, arg_set_id)
 * plus the hidden input start_id; plan TT_FUNC_PLAN_ARG (vtab_func.h).
 *
 * A breadth-first walk from the slice: a slice reached by a flow (or the
 * start) also visits its relatives (descendants for following_flow,
 * ancestors for preceding_flow); a slice reached as a relative follows
 * flows only. Each flow followed is one row, in the order of the walk.
 */
#include "builtins.h"
#include "vtab_func.h"

#include <stdlib.h>
#include <string.h>

enum { VIA_START, VIA_IN, VIA_OUT, VIA_RELATIVE };
enum { GO_IN = 1, GO_OUT = 2 };
enum { REL_NONE, REL_ANCESTORS, REL_DESCENDANTS };

/* Kept between calls (the function's cache): flows by slice as CSR over
 * slice_out and slice_in, and the walk's per-slice marks, which a call
 * resets for the slices it touched only, so that a call costs what it
 * visits, not the size of the trace. */
struct flow_cache {
	uint32_t *out_off, *out_rows, *in_off, *in_rows;
	uint8_t *via;     /* by slice id: 0 unseen, else 1 + VIA_* */
	uint32_t *queue;  /* slice ids */
};

struct walk {
	const tt_storage *st;
	uint32_t *queue;
	uint8_t *via;
	size_t qhead, qlen;
	const uint32_t *out_off, *out_rows, *in_off, *in_rows;
};

static void flow_cache_free(void *p)
{
	struct flow_cache *c = p;

	if (!c)
		return;
	free(c->out_off);
	free(c->out_rows);
	free(c->in_off);
	free(c->in_rows);
	free(c->via);
	free(c->queue);
	free(c);
}

static int csr(const tt_storage *st, const int64_t *key, uint32_t **off_out, uint32_t **rows_out)
{
	size_t n = st->slice.n, nf = st->flow.n;
	uint32_t *off = calloc(n + 2, sizeof(*off));
	uint32_t *rows = malloc((nf ? nf : 1) * sizeof(*rows));

	if (!off || !rows) {
		free(off);
		free(rows);
		return -1;
	}
	for (size_t f = 0; f < nf; f++)
		if (key[f] >= 0 && (size_t)key[f] < n)
			off[key[f] + 2]++;
	for (size_t i = 2; i < n + 2; i++)
		off[i] += off[i - 1];
	for (size_t f = 0; f < nf; f++)
		if (key[f] >= 0 && (size_t)key[f] < n)
			rows[off[key[f] + 1]++] = (uint32_t)f;
	*off_out = off;
	*rows_out = rows;
	return 0;
}

static void enqueue(struct walk *w, uint32_t s, int via)
{
	if (w->via[s])
		return;
	w->via[s] = (uint8_t)(1 + via);
	w->queue[w->qlen++] = s;
}

static int go_flows(struct walk *w, uint32_t s, int dir, tt_rowlist *out)
{
	const uint32_t *off = dir == GO_OUT ? w->out_off : w->in_off;
	const uint32_t *rows = dir == GO_OUT ? w->out_rows : w->in_rows;

	for (uint32_t k = off[s]; k < off[s + 1]; k++) {
		uint32_t f = rows[k];
		int64_t next = dir == GO_OUT ? w->st->flow.slice_in[f] : w->st->flow.slice_out[f];

		if (tt_rowlist_push(out, f))
			return SQLITE_NOMEM;
		if (next >= 0 && (size_t)next < w->st->slice.n)
			enqueue(w, (uint32_t)next, dir == GO_OUT ? VIA_OUT : VIA_IN);
	}
	return SQLITE_OK;
}

static int go_relatives(struct walk *w, uint32_t s, int rel)
{
	const tt_storage *st = w->st;

	if (rel == REL_ANCESTORS) {
		for (int64_t p = st->slice.parent_id[s]; p >= 0; p = st->slice.parent_id[p])
			enqueue(w, (uint32_t)p, VIA_RELATIVE);
	} else if (rel == REL_DESCENDANTS) {
		tt_rowlist d = { 0 };

		if (tt_slice_push_descendants(st, s, &d) != SQLITE_OK) {
			sqlite3_free(d.v);
			return SQLITE_NOMEM;
		}
		for (size_t i = 0; i < d.n; i++)
			enqueue(w, d.v[i], VIA_RELATIVE);
		sqlite3_free(d.v);
	}
	return SQLITE_OK;
}

static int csr(const tt_storage *st, const int64_t *key, uint32_t **off_out, uint32_t **rows_out);

static struct flow_cache *flow_cache_get(const tt_storage *st, void **cache)
{
	struct flow_cache *c = *cache;

	if (c)
		return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->queue = malloc((st->slice.n ? st->slice.n : 1) * sizeof(*c->queue));
	c->via = calloc(st->slice.n ? st->slice.n : 1, 1);
	if (!c->queue || !c->via || csr(st, st->flow.slice_out, &c->out_off, &c->out_rows) ||
	    csr(st, st->flow.slice_in, &c->in_off, &c->in_rows)) {
		flow_cache_free(c);
		return NULL;
	}
	*cache = c;
	return c;
}

static int walk(const tt_storage *st, void **cache, sqlite3_value *v, tt_rowlist *out, char **msg,
		int dirs, int rel)
{
	struct flow_cache *fc;
	struct walk w = { .st = st };
	sqlite3_int64 id = sqlite3_value_int64(v);
	int rc = SQLITE_OK;

	if (sqlite3_value_type(v) != SQLITE_INTEGER) {
		*msg = sqlite3_mprintf("start id should be an integer.");
		return SQLITE_ERROR;
	}
	if (id < 0 || (size_t)id >= st->slice.n) {
		*msg = sqlite3_mprintf("invalid slice id %lld", (long long)id);
		return SQLITE_ERROR;
	}
	fc = flow_cache_get(st, cache);
	if (!fc)
		return SQLITE_NOMEM;
	w.queue = fc->queue;
	w.via = fc->via;
	w.out_off = fc->out_off;
	w.out_rows = fc->out_rows;
	w.in_off = fc->in_off;
	w.in_rows = fc->in_rows;
	enqueue(&w, (uint32_t)id, VIA_START);
	while (w.qhead < w.qlen && rc == SQLITE_OK) {
		uint32_t s = w.queue[w.qhead++];
		int via = w.via[s] - 1;

		if (via != VIA_RELATIVE)
			rc = go_relatives(&w, s, rel);
		if (rc == SQLITE_OK && (dirs & GO_IN) && via != VIA_OUT)
			rc = go_flows(&w, s, GO_IN, out);
		if (rc == SQLITE_OK && (dirs & GO_OUT) && via != VIA_IN)
			rc = go_flows(&w, s, GO_OUT, out);
	}
	/* every slice marked was queued: unmark them for the next call */
	for (size_t k = 0; k < w.qlen; k++)
		w.via[w.queue[k]] = 0;
	return rc;
}

static int fill_direct(const tt_storage *st, void **cache, sqlite3_value *v, tt_rowlist *out, char **msg)
{
	return walk(st, cache, v, out, msg, GO_IN | GO_OUT, REL_NONE);
}

static int fill_following(const tt_storage *st, void **cache, sqlite3_value *v, tt_rowlist *out, char **msg)
{
	return walk(st, cache, v, out, msg, GO_OUT, REL_DESCENDANTS);
}

static int fill_preceding(const tt_storage *st, void **cache, sqlite3_value *v, tt_rowlist *out, char **msg)
{
	return walk(st, cache, v, out, msg, GO_IN, REL_ANCESTORS);
}

static void flow_column(const tt_storage *st, uint32_t f, int64_t aux, int col, sqlite3_context *ctx)
{
	(void)aux;
	switch (col) {
	case 0: sqlite3_result_int64(ctx, f); break;
	case 1: sqlite3_result_int64(ctx, st->flow.slice_out[f]); break;
	case 2: sqlite3_result_int64(ctx, st->flow.slice_in[f]); break;
	case 3: sqlite3_result_int64(ctx, (int64_t)st->flow.trace_id[f]); break;
	case 4:
		if (st->flow.arg_set_id[f] == TT_NONE)
			sqlite3_result_null(ctx);
		else
			sqlite3_result_int64(ctx, st->flow.arg_set_id[f]);
		break;
	}
}

#define FLOW_SCHEMA "CREATE TABLE x(id INTEGER, slice_out INTEGER, slice_in INTEGER," \
		    " trace_id INTEGER, arg_set_id INTEGER, start_id HIDDEN)"

static const tt_func_def defs[] = {
	{ "directly_connected_flow", FLOW_SCHEMA, 5, fill_direct, flow_column, flow_cache_free },
	{ "following_flow", FLOW_SCHEMA, 5, fill_following, flow_column, flow_cache_free },
	{ "preceding_flow", FLOW_SCHEMA, 5, fill_preceding, flow_column, flow_cache_free },
};

int tt_sql_register_flow(sqlite3 *db, tt_storage *st)
{
	int rc = SQLITE_OK;

	for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]) && rc == SQLITE_OK; i++)
		rc = tt_func_register(db, st, &defs[i]);
	return rc;
}
