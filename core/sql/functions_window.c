/*
 * functions_window.c - Perfetto's built-in window functions:
 *
 *   select last_non_null(v) over (partition by p order by ts) from t;
 *   select internal_layout(ts, dur) over (order by ts rows between
 *          unbounded preceding and current row) from t;       -- packed depth
 */
#include "builtins.h"

#include <stdlib.h>
#include <string.h>

/* last_non_null: the window's last non-NULL value. Rows leave the window
 * from the front (xInverse); the state remembers how many rows are in it
 * and where the kept value sits, so that it is dropped when it leaves. */
struct lnn {
	sqlite3_int64 size, at; /* rows in the window; index of value */
	sqlite3_value *value;
};

static void lnn_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct lnn *s = sqlite3_aggregate_context(ctx, sizeof(*s));

	(void)argc;
	if (!s)
		return;
	s->size++;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL)
		return;
	sqlite3_value_free(s->value);
	s->value = sqlite3_value_dup(argv[0]);
	s->at = s->size - 1;
	if (!s->value)
		sqlite3_result_error_nomem(ctx);
}

static void lnn_inverse(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct lnn *s = sqlite3_aggregate_context(ctx, sizeof(*s));

	(void)argc;
	(void)argv;
	if (!s || s->size == 0)
		return;
	s->size--;
	if (!s->value)
		return;
	if (s->at == 0) {
		sqlite3_value_free(s->value);
		s->value = NULL;
	} else {
		s->at--;
	}
}

static void lnn_value(sqlite3_context *ctx)
{
	struct lnn *s = sqlite3_aggregate_context(ctx, 0);

	if (s && s->value)
		sqlite3_result_value(ctx, s->value);
}

static void lnn_final(sqlite3_context *ctx)
{
	struct lnn *s = sqlite3_aggregate_context(ctx, 0);

	if (s && s->value) {
		sqlite3_result_value(ctx, s->value);
		sqlite3_value_free(s->value);
		s->value = NULL;
	}
}

/* internal_layout(ts, dur): the lowest depth free at ts, over rows in ts
 * order ("rows between unbounded preceding and current row"). A depth is
 * busy until its slice ends; instants (dur 0) take a depth without holding
 * it; dur -1 holds it to the end. Ends are kept in a binary min-heap. */
struct lay_end { int64_t ts; int32_t depth; };
struct layout {
	struct lay_end *heap;
	int nheap, capheap;
	unsigned char *busy;
	int nbusy, capbusy;
	int64_t last_ts;
	int last_depth, stepped;
};
struct lay_ctx { struct layout *l; };

static void heap_push(struct layout *l, struct lay_end e)
{
	int i = l->nheap++;

	while (i > 0) {
		int p = (i - 1) / 2;

		if (l->heap[p].ts <= e.ts)
			break;
		l->heap[i] = l->heap[p];
		i = p;
	}
	l->heap[i] = e;
}

static struct lay_end heap_pop(struct layout *l)
{
	struct lay_end top = l->heap[0], last = l->heap[--l->nheap];
	int i = 0;

	for (;;) {
		int c = 2 * i + 1;

		if (c >= l->nheap)
			break;
		if (c + 1 < l->nheap && l->heap[c + 1].ts < l->heap[c].ts)
			c++;
		if (last.ts <= l->heap[c].ts)
			break;
		l->heap[i] = l->heap[c];
		i = c;
	}
	if (l->nheap)
		l->heap[i] = last;
	return top;
}

static void layout_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct lay_ctx *c = sqlite3_aggregate_context(ctx, sizeof(*c));
	struct layout *l;
	int64_t ts, dur;
	int depth;

	if (!c)
		return;
	if (argc != 2 || sqlite3_value_type(argv[0]) != SQLITE_INTEGER ||
	    sqlite3_value_type(argv[1]) != SQLITE_INTEGER) {
		sqlite3_result_error(ctx, "INTERNAL_LAYOUT: ts and dur must be integers", -1);
		return;
	}
	ts = sqlite3_value_int64(argv[0]);
	dur = sqlite3_value_int64(argv[1]);
	if (ts < 0 || dur < -1) {
		sqlite3_result_error(ctx, ts < 0 ? "INTERNAL_LAYOUT: ts cannot be negative."
						 : "INTERNAL_LAYOUT: dur cannot be < -1.", -1);
		return;
	}
	if (!c->l) {
		if (!(c->l = sqlite3_malloc(sizeof(*c->l)))) {
			sqlite3_result_error_nomem(ctx);
			return;
		}
		memset(c->l, 0, sizeof(*c->l));
	}
	l = c->l;
	if (l->stepped) {
		sqlite3_result_error(ctx, "INTERNAL_LAYOUT: the window clause should be "
				     "\"rows between unbounded preceding and current row\"", -1);
		return;
	}
	if (ts < l->last_ts) {
		sqlite3_result_error(ctx, "INTERNAL_LAYOUT: rows are not in ts order: "
				     "add \"order by ts\" to the window clause", -1);
		return;
	}
	l->stepped = 1;
	l->last_ts = ts;
	while (l->nheap && l->heap[0].ts <= ts)
		l->busy[heap_pop(l).depth] = 0;
	for (depth = 0; depth < l->nbusy && l->busy[depth]; depth++)
		;
	if (depth == l->nbusy) {
		if (l->nbusy == l->capbusy) {
			int cap = l->capbusy ? l->capbusy * 2 : 16;
			unsigned char *b = sqlite3_realloc(l->busy, cap);

			if (!b) {
				sqlite3_result_error_nomem(ctx);
				return;
			}
			l->busy = b;
			l->capbusy = cap;
		}
		l->busy[l->nbusy++] = 0;
	}
	if (dur != 0) {
		if (l->nheap == l->capheap) {
			int cap = l->capheap ? l->capheap * 2 : 16;
			struct lay_end *h = sqlite3_realloc64(l->heap, (sqlite3_uint64)cap * sizeof(*h));

			if (!h) {
				sqlite3_result_error_nomem(ctx);
				return;
			}
			l->heap = h;
			l->capheap = cap;
		}
		l->busy[depth] = 1;
		heap_push(l, (struct lay_end){ dur == -1 ? INT64_MAX : ts + dur, depth });
	}
	l->last_depth = depth;
}

static void layout_inverse(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	(void)argv;
	sqlite3_result_error(ctx, "INTERNAL_LAYOUT: the inverse step is not supported: the window "
			     "clause should be \"rows between unbounded preceding and current row\"", -1);
}

static void layout_value(sqlite3_context *ctx)
{
	struct lay_ctx *c = sqlite3_aggregate_context(ctx, sizeof(*c));

	if (!c || !c->l)
		return;
	c->l->stepped = 0;
	sqlite3_result_int(ctx, c->l->last_depth);
}

static void layout_final(sqlite3_context *ctx)
{
	struct lay_ctx *c = sqlite3_aggregate_context(ctx, 0);

	if (!c || !c->l)
		return;
	sqlite3_result_int(ctx, c->l->last_depth);
	sqlite3_free(c->l->heap);
	sqlite3_free(c->l->busy);
	sqlite3_free(c->l);
	c->l = NULL;
}

int tt_sql_register_window_functions(sqlite3 *db)
{
	int rc = sqlite3_create_window_function(db, "last_non_null", 1, SQLITE_UTF8, NULL, lnn_step,
						lnn_final, lnn_value, lnn_inverse, NULL);

	if (rc == SQLITE_OK)
		rc = sqlite3_create_window_function(db, "internal_layout", 2, SQLITE_UTF8, NULL,
						    layout_step, layout_final, layout_value,
						    layout_inverse, NULL);
	return rc;
}
