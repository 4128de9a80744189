/*
 * test_args_tracker.c - core/import/args_tracker.c: arg sets kept once
 * (tt_args_tracker_dedupe): a set with the rows of an earlier one is that
 * set; any difference (a value, a type, a key, the order, one row more)
 * makes a new one; string values compare by text whatever the row held
 * before; off by default; the table turns itself off when sets do not
 * repeat; merged sets and args added to processes, threads and state
 * rows are kept once too, a pair merged again answered by the memo as
 * rebuilding would; a counter row's set is kept apart. Merges (a slice's begin and end args): arrays
 * continue, keep-first keys, and the sets a merge replaced leave the args
 * table once nothing owns them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "args_tracker.h"
#include "storage_int.h" /* argset_rows, arg_text */

static uint32_t set_is(tt_args_tracker *t, tt_storage *st, int64_t a, const char *s, int order)
{
	tt_storage_args_begin(st);
	if (order) {
		tt_storage_args_int(st, "a", a);
		tt_storage_args_str(st, "s", s, strlen(s));
	} else {
		tt_storage_args_str(st, "s", s, strlen(s));
		tt_storage_args_int(st, "a", a);
	}
	return tt_args_tracker_end(t);
}

/* A counter row's arg set is kept apart from the row (most have none):
 * set in any order, set again replaces, rows that do not exist and
 * TT_NONE are ignored. */
static void test_counter_args(void **state)
{
	tt_storage *st = tt_storage_new();

	(void)state;
	for (int i = 0; i < 4; i++)
		assert_int_equal(tt_storage_counter(st, 0, i * 10, 1.0), i);
	tt_storage_counter_set_args(st, 2, 7);
	tt_storage_counter_set_args(st, 0, 5);
	tt_storage_counter_set_args(st, 3, 9);
	tt_storage_counter_set_args(st, 2, 8);
	tt_storage_counter_set_args(st, 1, TT_NONE);
	tt_storage_counter_set_args(st, 4, 1);
	tt_storage_counter_set_args(st, -1, 1);
	assert_int_equal(tt_storage_counter_args(st, 0), 5);
	assert_int_equal(tt_storage_counter_args(st, 1), TT_NONE);
	assert_int_equal(tt_storage_counter_args(st, 2), 8);
	assert_int_equal(tt_storage_counter_args(st, 3), 9);
	assert_int_equal(tt_storage_counter_args(st, 4), TT_NONE);
	tt_storage_free(st);
}

static void test_same_rows_same_set(void **state)
{
	tt_storage *st = tt_storage_new();
	tt_args_tracker *t = tt_args_tracker_new(st);
	uint32_t s0, s1, s2, s3, s4, s5, s6;
	size_t first, end;

	(void)state;
	tt_args_tracker_dedupe(t, 1);
	s0 = set_is(t, st, 1, "x", 1);
	s1 = set_is(t, st, 2, "x", 1);      /* another value */
	s2 = set_is(t, st, 1, "x", 1);      /* the same as s0 */
	s3 = set_is(t, st, 1, "y", 1);      /* another string */
	s4 = set_is(t, st, 1, "x", 0);      /* the same rows in another order */
	tt_storage_args_begin(st);
	tt_storage_args_uint(st, "a", 1);  /* another type, same bits */
	tt_storage_args_str(st, "s", "x", 1);
	s5 = tt_args_tracker_end(t);
	tt_storage_args_begin(st);
	tt_storage_args_int(st, "a", 1);
	tt_storage_args_str(st, "s", "x", 1);
	tt_storage_args_bool(st, "b", 0);  /* one row more */
	s6 = tt_args_tracker_end(t);
	assert_int_equal(s0, 0);
	assert_int_equal(s1, 1);
	assert_int_equal(s2, s0);
	assert_int_equal(s3, 2);
	assert_int_equal(s4, 3);
	assert_int_equal(s5, 4);
	assert_int_equal(s6, 5);
	assert_int_equal(set_is(t, st, 1, "y", 1), s3);
	/* the repeated sets added no rows */
	assert_true(tt_storage_argset_rows(st, s6, &first, &end));
	assert_int_equal(first, 10);
	assert_int_equal(end, 13);
	tt_args_tracker_free(t);
	tt_storage_free(st);
}

/* A string row written over an int row of a set that was dropped as a
 * repeat: the union's other bytes must not matter. */
static void test_strings_by_text(void **state)
{
	tt_storage *st = tt_storage_new();
	tt_args_tracker *t = tt_args_tracker_new(st);
	uint32_t a, b, c;

	(void)state;
	tt_args_tracker_dedupe(t, 1);
	tt_storage_args_begin(st);
	tt_storage_args_str(st, "k", "v", 1);
	a = tt_args_tracker_end(t);
	tt_storage_args_begin(st);
	tt_storage_args_int(st, "k", -1); /* all ones in the row's value */
	b = tt_args_tracker_end(t);
	tt_storage_args_begin(st);
	tt_storage_args_int(st, "k", -1); /* a repeat: dropped, its row reused */
	assert_int_equal(tt_args_tracker_end(t), b);
	tt_storage_args_begin(st);
	tt_storage_args_str(st, "k", "v", 1); /* written where -1 was */
	c = tt_args_tracker_end(t);
	assert_int_equal(c, a);
	tt_args_tracker_free(t);
	tt_storage_free(st);
}

static void test_off_by_default(void **state)
{
	tt_storage *st = tt_storage_new();
	tt_args_tracker *t = tt_args_tracker_new(st);

	(void)state;
	assert_int_equal(set_is(t, st, 1, "x", 1), 0);
	assert_int_equal(set_is(t, st, 1, "x", 1), 1);
	tt_args_tracker_free(t);
	tt_storage_free(st);
}

/* 64k sets that never repeat: the table goes, sets stay distinct and
 * right. */
/* tt_args_tracker_again: a set ended again is itself while sets are kept
 * once, counted as a repeat (its trial stays on), and a copy once the
 * tracker keeps no sets once. */
static void test_again(void **state)
{
	tt_storage *st = tt_storage_new();
	tt_args_tracker *t = tt_args_tracker_new(st), *off = tt_args_tracker_new(st);
	uint32_t s0, s1, c;
	size_t f0, e0, f1, e1;

	(void)state;
	tt_args_tracker_dedupe(t, 1);
	s0 = set_is(t, st, 1, "x", 1);
	assert_int_equal(tt_args_tracker_again(t, s0), s0);
	/* 65536 tries with all but two of them repeats: the trial keeps it on */
	for (int i = 0; i < 65533; i++)
		assert_int_equal(tt_args_tracker_again(t, s0), s0);
	s1 = set_is(t, st, 2, "x", 1);
	assert_int_equal(s1, s0 + 1);
	assert_int_equal(set_is(t, st, 1, "x", 1), s0);
	assert_int_equal(set_is(t, st, 2, "x", 1), s1);
	/* off: a new set with the same rows */
	c = tt_args_tracker_again(off, s1);
	assert_int_equal(c, s1 + 1);
	assert_true(tt_storage_argset_rows(st, s1, &f1, &e1));
	assert_true(tt_storage_argset_rows(st, c, &f0, &e0));
	assert_int_equal(e0 - f0, 2);
	assert_int_equal(e1 - f1, 2);
	for (size_t i = 0; i < 2; i++) {
		char a[64], b[64];

		assert_int_equal(st->args.key[f0 + i], st->args.key[f1 + i]);
		assert_int_equal(st->args.type[f0 + i], st->args.type[f1 + i]);
		assert_string_equal(tt_storage_arg_text(st, f0 + i, a, sizeof(a)),
				    tt_storage_arg_text(st, f1 + i, b, sizeof(b)));
	}
	tt_args_tracker_free(off);
	tt_args_tracker_free(t);
	tt_storage_free(st);
}

static void test_turns_off(void **state)
{
	tt_storage *st = tt_storage_new();
	tt_args_tracker *t = tt_args_tracker_new(st);
	uint32_t last = 0;

	(void)state;
	tt_args_tracker_dedupe(t, 1);
	for (int64_t i = 0; i < 70000; i++)
		last = set_is(t, st, i, "x", 1);
	assert_int_equal(last, 69999);
	assert_int_equal(set_is(t, st, 5, "x", 1), 70000); /* no longer looked up */
	tt_args_tracker_free(t);
	tt_storage_free(st);
}

/* A merge (a slice's end args, args added to a process, a thread, a
 * state row) keeps the merged set once as well; the new keys win. */
static void test_merges_kept_once(void **state)
{
	tt_storage *st = tt_storage_new();
	tt_args_tracker *t = tt_args_tracker_new(st);
	uint32_t a, b, m1, m2, upid, utid;
	char buf[32];
	size_t first, end;

	(void)state;
	tt_args_tracker_dedupe(t, 1);
	a = set_is(t, st, 1, "x", 1);
	tt_storage_args_begin(st);
	tt_storage_args_int(st, "a", 2);
	tt_storage_args_int(st, "c", 3);
	b = tt_args_tracker_end(t);
	m1 = tt_args_tracker_merge(t, a, b);
	m2 = tt_args_tracker_merge(t, a, b);
	assert_int_equal(m1, 2);
	assert_int_equal(m2, m1);
	assert_true(tt_storage_argset_rows(st, m1, &first, &end));
	assert_int_equal(end - first, 3);
	assert_string_equal(tt_storage_arg_text(st, first, buf, sizeof(buf)), "2"); /* a: end's value */
	assert_string_equal(tt_storage_arg_text(st, first + 1, buf, sizeof(buf)), "x");
	assert_string_equal(tt_storage_arg_text(st, first + 2, buf, sizeof(buf)), "3");
	assert_int_equal(tt_args_tracker_merge(t, a, TT_NONE), a);
	assert_int_equal(tt_args_tracker_merge(t, TT_NONE, b), b);
	/* rows: added args merge into the row's set, kept once */
	upid = tt_storage_process_append(st, 10);
	utid = tt_storage_thread_append(st, 11, upid);
	tt_args_tracker_add_to_process(t, upid, a);
	assert_int_equal(tt_storage_process_arg_set(st, upid), a);
	tt_args_tracker_add_to_process(t, upid, b);
	assert_int_equal(tt_storage_process_arg_set(st, upid), m1);
	tt_args_tracker_add_to_thread(t, utid, a);
	tt_args_tracker_add_to_thread(t, utid, b);
	assert_int_equal(tt_storage_thread_arg_set(st, utid), m1);
	tt_args_tracker_add_to_thread(t, utid + 1, b); /* no such thread */
	assert_int_equal(tt_storage_thread_arg_set(st, utid + 1), TT_NONE);
	assert_true(tt_storage_argset_rows(st, m1, &first, &end));
	assert_int_equal(tt_storage_arg_set_of(st, end - 1), m1);
	/* storage's own merge stores a new set each time */
	assert_int_equal(tt_storage_args_merge(st, a, b), m1 + 1);
	tt_args_tracker_free(t);
	tt_storage_free(st);
}

/* A merge of a pair merged before is answered from the tracker's memo: it
 * must decide as rebuilding the rows would. A repeat counts as a try that
 * found its set (65533 repeats keep the trial on, where 65533 uncounted
 * ones would leave it to the distinct sets after them to turn it off);
 * once the table is off, or on a tracker that was never on, each merge
 * is a new set. */
static void test_merge_memo(void **state)
{
	tt_storage *st = tt_storage_new();
	tt_args_tracker *t = tt_args_tracker_new(st), *off = tt_args_tracker_new(st);
	uint32_t a, b, m, m2;
	int64_t i;

	(void)state;
	tt_args_tracker_dedupe(t, 1);
	a = set_is(t, st, 1, "x", 1);
	b = set_is(t, st, 2, "y", 0);
	m = tt_args_tracker_merge(t, a, b); /* try 3: a new set */
	assert_int_equal(m, b + 1);
	for (i = 0; i < 65533; i++) /* tries 4 .. 65536: all found */
		assert_int_equal(tt_args_tracker_merge(t, a, b), m);
	/* (uncounted, these would be tries 4 .. 65536, nearly none found:
	 * the table would go) */
	for (i = 0; i < 65600; i++)
		(void)set_is(t, st, 1000 + i, "z", 1);
	assert_int_equal(set_is(t, st, 1, "x", 1), a); /* still kept once */
	assert_int_equal(tt_args_tracker_merge(t, b, a), m + 65601); /* another pair */
	assert_int_equal(tt_args_tracker_merge(t, b, a), m + 65601);

	/* never on: a new set for each merge */
	m2 = tt_args_tracker_merge(off, a, b);
	assert_int_equal(tt_args_tracker_merge(off, a, b), m2 + 1);

	/* turned off by its trial: what the memo held is not given again */
	tt_args_tracker_free(t);
	t = tt_args_tracker_new(st);
	tt_args_tracker_dedupe(t, 1);
	a = set_is(t, st, 1, "x", 1);
	b = set_is(t, st, 2, "y", 0);
	m = tt_args_tracker_merge(t, a, b);
	assert_int_equal(tt_args_tracker_merge(t, a, b), m);
	for (i = 0; i < 70000; i++)
		(void)set_is(t, st, 5000 + i, "w", 1);
	m2 = tt_args_tracker_merge(t, a, b);
	assert_true(m2 > m);
	assert_int_equal(tt_args_tracker_merge(t, a, b), m2 + 1);
	tt_args_tracker_free(off);
	tt_args_tracker_free(t);
	tt_storage_free(st);
}

/* ---- merges (a slice's begin and end args) ------------------------------ */

/* begin and end rows of a slice's args: the end's arrays a and b (b with
 * a key under each entry), a key both have (d.x), a keep-first key (p),
 * a new key (e) */
struct row {
	const char *key;
	int64_t v;
};
static const struct row begin_rows[] = { { "a[0]", 1 }, { "a[1]", 2 }, { "d.x", 3 }, { "p", 5 }, { "b[0].c", 4 } };
static const struct row end_rows[] = { { "a[0]", 10 }, { "a[1]", 11 }, { "b[0].c", 40 }, { "b[1].c", 41 },
				       { "d.x", 30 },  { "p", 6 },    { "e", 8 } };

static void put_rows(tt_storage *st, const struct row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		tt_storage_args_int(st, rows[i].key, rows[i].v);
}

static void put_begin(tt_storage *st)
{
	put_rows(st, begin_rows, sizeof(begin_rows) / sizeof(begin_rows[0]));
}

static void put_end(tt_storage *st)
{
	put_rows(st, end_rows, sizeof(end_rows) / sizeof(end_rows[0]));
}

/* A stored set of the rows put() writes (kept once when t says so). */
static uint32_t stored(tt_args_tracker *t, tt_storage *st, void (*put)(tt_storage *))
{
	tt_storage_args_begin(st);
	put(st);
	return t ? tt_args_tracker_end(t) : tt_storage_args_store(st);
}

static int decode_lazy(void *ctx, tt_storage *st, uint64_t loc)
{
	(void)ctx;
	if (loc == 1)
		put_begin(st);
	else
		put_end(st);
	return 0;
}

static void free_nothing(void *ctx)
{
	(void)ctx;
}

/* The rows of a set as "key=value " text. */
static char *set_text(tt_storage *st, uint32_t set, char *buf, size_t len)
{
	size_t first, end, o = 0;

	buf[0] = '\0';
	assert_true(tt_storage_argset_rows(st, set, &first, &end));
	for (size_t r = first; r < end && o < len; r++)
		o += (size_t)snprintf(buf + o, len - o, "%s=%lld ", tt_storage_str(st, st->args.key[r]),
				      (long long)st->args.val[r].i);
	return buf;
}

/* Trace processor's args tracker for an open slice: the end's arrays
 * continue the beginning's (a[0], a[1] then a[2], a[3]; b's entries move
 * with what is nested under them), a key both have takes the end's value
 * in place, a keep-first key keeps the beginning's, new keys follow.
 * Stored and lazy sets merge alike. */
static void test_merge_continues_arrays(void **state)
{
	static const char want[] = "a[0]=1 a[1]=2 d.x=30 p=5 b[0].c=4 a[2]=10 a[3]=11 b[1].c=40 b[2].c=41 e=8 ";
	char buf[512];

	(void)state;
	for (int lazy = 0; lazy < 2; lazy++) {
		tt_storage *st = tt_storage_new();
		tt_args_decoder dec = { decode_lazy, free_nothing };
		uint32_t b, e, m;

		tt_storage_args_keep_first(st, "p");
		if (lazy) {
			assert_int_equal(tt_storage_args_decoder(st, &dec, NULL), 0);
			b = tt_storage_args_lazy(st, 1, TT_NONE, 5);
			e = tt_storage_args_lazy(st, 2, TT_NONE, 7);
		} else {
			b = stored(NULL, st, put_begin);
			e = stored(NULL, st, put_end);
		}
		m = tt_storage_args_merge(st, b, e);
		assert_int_equal(m, 2);
		assert_string_equal(set_text(st, m, buf, sizeof(buf)), want);
		tt_storage_free(st);
	}
}

/* Sets a merge replaced are not in the args table once nothing owns
 * them; one that another row still owns (kept once for identical rows)
 * stays. */
static void test_merged_away_sets_hidden(void **state)
{
	tt_storage *st = tt_storage_new();
	tt_args_tracker *t = tt_args_tracker_new(st);
	tt_track_desc d = { .type = "global", .name = 0, .utid = TT_NONE, .upid = TT_NONE, .parent_id = TT_NONE,
			    .cpu = -1 };
	uint32_t track, b, e, b2, e2, keep;
	int64_t s1, s2, s3;
	size_t dead = 0;

	(void)state;
	tt_args_tracker_dedupe(t, 1);
	track = tt_storage_track_new(st, &d);
	b = stored(t, st, put_begin);
	e = stored(t, st, put_end);
	b2 = stored(t, st, put_begin);    /* the same set as b */
	tt_storage_args_begin(st);
	tt_storage_args_int(st, "z", 1);
	e2 = tt_args_tracker_end(t);
	assert_int_equal(b2, b);
	s1 = tt_storage_slice_append(st, track, 100, 10, 0, 0, 0, -1, b);
	s2 = tt_storage_slice_append(st, track, 200, 10, 0, 0, 0, -1, b2);
	tt_storage_slice_set_args(st, s1, tt_args_tracker_merge(t, b, e));
	tt_storage_slice_set_args(st, s2, tt_args_tracker_merge(t, b, e2));
	/* a merge input another row owns stays */
	tt_storage_args_begin(st);
	tt_storage_args_int(st, "k", 1);
	keep = tt_args_tracker_end(t);
	s3 = tt_storage_slice_append(st, track, 300, 10, 0, 0, 0, -1, keep);
	(void)tt_args_tracker_merge(t, keep, e2);
	tt_storage_finalize(st);
	assert_int_equal(tt_storage_slice_args(st, s3), keep);
	/* no slice owns b (5 rows; both began with it), e (7) or e2 (1) any more */
	for (size_t r = 0; r < st->args.n; r++)
		dead += (size_t)tt_storage_arg_row_dead(st, r);
	assert_int_equal(dead, 5 + 7 + 1);
	for (size_t r = 0; r < st->args.n; r++)
		if (tt_storage_arg_set_of(st, r) == tt_storage_slice_args(st, s1) ||
		    tt_storage_arg_set_of(st, r) == tt_storage_slice_args(st, s2) ||
		    tt_storage_arg_set_of(st, r) == keep)
			assert_false(tt_storage_arg_row_dead(st, r));
	tt_args_tracker_free(t);
	tt_storage_free(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_rows_same_set),
		cmocka_unit_test(test_counter_args),
		cmocka_unit_test(test_strings_by_text),
		cmocka_unit_test(test_off_by_default),
		cmocka_unit_test(test_turns_off),
		cmocka_unit_test(test_again),
		cmocka_unit_test(test_merges_kept_once),
		cmocka_unit_test(test_merge_memo),
		cmocka_unit_test(test_merge_continues_arrays),
		cmocka_unit_test(test_merged_away_sets_hidden),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
