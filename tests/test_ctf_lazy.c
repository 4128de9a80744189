/*
 * test_ctf_lazy.c - lazy arg sets are invisible. A CTF import registers an
 * event's fields by where the event lives and decodes them when read
 * (storage.h, import_ctf.c); these tests read the same sets through every
 * path, in both orders, and require the same rows:
 *   - a full scan of `args` first, then arg_set_id = ? lookups;
 *   - lookups first (raw and slice joined to args), then the full scan;
 *   - tt_trace_args (the details panel) and id = ? lookups on a fresh trace;
 *   - after the trace folder was deleted (the decoder keeps its mapped
 *     files and metadata; ASan checks nothing was freed under it).
 * The import's reader thread and its batches are checked the same way: one
 * thread, or tiny batches, give the same trace.
 * Then the storage mechanism alone, with a fake decoder: lazy, shaped,
 * keyless, merged, copied and undecodable sets against the same sets
 * written eagerly, read one by one and all at once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "trace_int.h"
#include "storage_int.h"
#include "ctf_writer.c"

#define ARG_COLS "a.id, a.arg_set_id, a.flat_key, a.key, a.int_value, a.string_value, " \
		 "a.real_value, a.value_type, a.display_value"

static const char *const full_scan = "select " ARG_COLS " from args a order by a.id";
/* every set a reader can reach, through arg_set_id = ? on args */
static const char *const lookups =
	"select r.id, " ARG_COLS " from raw r join args a on a.arg_set_id = r.arg_set_id"
	" union all select -1 - s.id, " ARG_COLS " from slice s join args a on a.arg_set_id = s.arg_set_id"
	" order by 1, 2";

static int has_lazy(tt_trace *tr)
{
	return tr->st->args.lazy != NULL;
}

/* A UST trace (compact headers, nested entry/exit, bit fields, extended
 * ids, discarded events) and a kernel one (large big-endian headers,
 * natural alignment, sched_switch, syscalls). */
static char *write_trace(int kernel)
{
	char *dir = tt_test_mkdtemp();
	ctfw_opts o = { .nstreams = 2, .packet_bytes = 512, .offset_s = 1700000000 };
	ctfw *w;
	uint64_t ts = 1000;

	if (kernel) {
		o.kernel = 1;
		o.large_header = 1;
		o.big_endian = 1;
		o.natural_align = 1;
		o.packetized_metadata = 1;
	}
	w = ctfw_open(dir, &o);
	assert_non_null(w);
	ctfw_thread(w, 0, 10, 11, "main");
	ctfw_thread(w, 1, 10, 12, "worker");
	for (int i = 0; i < 300; i++, ts += 1000) {
		int s = i & 1;

		if (kernel) {
			assert_int_equal(ctfw_sched_switch(w, s, ts, "a", 20 + s, i % 3, "b", 30 + s), 0);
			assert_int_equal(ctfw_openat(w, s, ts + 10, 1, i % 5 ? "/etc/x" : "", 0), 0);
			assert_int_equal(ctfw_openat(w, s, ts + 20, 0, NULL, i % 7 ? 3 : -2), 0);
			continue;
		}
		assert_int_equal(ctfw_tick(w, s, ts, (uint64_t)i, -i, i % 4 ? "tick" : ""), 0);
		assert_int_equal(ctfw_work(w, s, ts + 10, 1, i), 0);
		if (i % 3 == 0)
			assert_int_equal(ctfw_bits(w, s, ts + 20, 5, -100, 1, -5000, UINT64_MAX - (uint64_t)i,
						   -3, i % 9 - 4), 0);
		if (i % 5 == 0)
			assert_int_equal(ctfw_far(w, s, ts + 30, (uint32_t)i), 0);
		assert_int_equal(ctfw_work(w, s, ts + 40, 0, i + 1), 0);
		if (i == 150)
			ctfw_discard(w, s, 7);
	}
	assert_int_equal(ctfw_close(w), 0);
	return dir;
}

/* The same rows whichever reader comes first. */
static void check_orders(const char *path)
{
	tt_trace *a = tt_test_open(path), *b = tt_test_open(path);
	char *full_a, *full_b, *look_a, *look_b;

	/* a: full scan first; every set is stored and the decoder let go */
	assert_true(has_lazy(a));
	full_a = tt_test_tsv(a, full_scan);
	assert_false(has_lazy(a));
	look_a = tt_test_tsv(a, lookups);
	/* b: lookups first (sets decoded one at a time), then the scan */
	look_b = tt_test_tsv(b, lookups);
	assert_true(has_lazy(b));
	assert_string_equal(look_a, look_b);
	full_b = tt_test_tsv(b, full_scan);
	assert_string_equal(full_a, full_b);
	assert_int_equal(tt_test_int(a, "select count(*) from args"),
			 tt_test_int(b, "select count(*) from args"));
	free(full_a);
	free(full_b);
	free(look_a);
	free(look_b);
	tt_trace_close(a);
	tt_trace_close(b);
}

/* tt_trace_args (the details panel), joined into "key=value;" text. */
struct joined {
	char buf[8192];
	size_t n;
};

static void on_arg(void *ctx, const char *key, const char *value)
{
	struct joined *j = ctx;
	int w = snprintf(j->buf + j->n, sizeof(j->buf) - j->n, "%s=%s;", key, value);

	if (w > 0 && (size_t)w < sizeof(j->buf) - j->n)
		j->n += (size_t)w;
}

static void check_details(const char *path)
{
	tt_trace *a = tt_test_open(path), *b = tt_test_open(path);
	tt_result sets;
	tt_err err = { 0 };
	char sql[256];

	assert_int_equal(tt_query_collect(a, "select distinct arg_set_id from slice where arg_set_id is not null"
					  " union select arg_set_id from raw where arg_set_id is not null",
					  0, &sets, &err), 0);
	assert_true(sets.nrows > 0);
	for (size_t i = 0; i < sets.nrows; i++) {
		uint32_t set = (uint32_t)strtoul(sets.cells[i], NULL, 10);
		struct joined j = { .n = 0 };

		j.buf[0] = '\0';
		/* a: straight from the lazy set, b: stored by a scan */
		tt_trace_args(a, set, on_arg, &j);
		if (i == 0)
			tt_test_int(b, "select count(*) from args");
		snprintf(sql, sizeof(sql),
			 "select group_concat(key || '=' || ifnull(display_value, '') || ';', '') from"
			 " (select key, display_value from args where arg_set_id = %u order by id)", set);
		assert_string_equal(j.buf, tt_test_str(b, sql));
	}
	tt_result_free(&sets);
	/* id = ? on a fresh trace decodes the set holding that row */
	tt_trace_close(a);
	a = tt_test_open(path);
	for (int64_t id = 0; id < tt_test_int(b, "select count(*) from args"); id += 37) {
		char *x, *y;

		snprintf(sql, sizeof(sql), "select " ARG_COLS " from args a where a.id = %lld", (long long)id);
		x = tt_test_tsv(a, sql);
		y = tt_test_tsv(b, sql);
		assert_string_equal(x, y);
		free(x);
		free(y);
	}
	assert_true(has_lazy(a));
	tt_trace_close(a);
	tt_trace_close(b);
}

static void test_real_traces(void **state)
{
	static const char *const names[] = {
		"ctf/lttng-ust-tiny", "ctf/lttng-ust-discarded", "ctf/dmesg-ctf", "ctf/barectf-27bit-wrap",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[512];

		snprintf(path, sizeof(path), "%s", tt_test_data(names[i]));
		check_orders(path);
		if (i < 2) /* the barectf trace has too many sets for one query each */
			check_details(path);
	}
}

static void test_written_traces(void **state)
{
	(void)state;
	for (int kernel = 0; kernel < 2; kernel++) {
		char *dir = write_trace(kernel);

		check_orders(dir);
		check_details(dir);
		tt_test_rm(dir);
	}
}

/* The sets are decoded after the import, from files that are gone by
 * then: the decoder holds the mappings and the metadata. */
static void test_after_import(void **state)
{
	char *dir = write_trace(0);
	tt_trace *ref = tt_test_open(dir), *late = tt_test_open(dir);
	char *want_look, *want_full, *got;

	(void)state;
	want_full = tt_test_tsv(ref, full_scan);
	want_look = tt_test_tsv(ref, lookups);
	tt_trace_close(ref);
	tt_test_rm(dir);
	assert_true(has_lazy(late));
	got = tt_test_tsv(late, lookups);
	assert_string_equal(got, want_look);
	free(got);
	got = tt_test_tsv(late, full_scan);
	assert_string_equal(got, want_full);
	free(got);
	free(want_full);
	free(want_look);
	tt_trace_close(late);
}

/* The import reads on a thread of its own and hands events over in
 * batches: one thread, and batches of 1 and 3 events (discards and
 * packet ends fall on batch edges), give the same trace. */
static char *dump_all(const char *path)
{
	static const char *const sql[] = {
		"select id, ts, name, cpu, utid, arg_set_id from raw order by id",
		"select id, ts, dur, track_id, category, name, depth, parent_id, arg_set_id from slice order by id",
		"select utid, tid, name, upid from thread order by utid",
		"select upid, pid, name from process order by upid",
		"select id, name, type, utid, cpu from track order by id",
		"select ts, dur, cpu, utid, end_state from sched_slice order by ts, cpu",
		"select name, value from stats where value != 0 order by name",
		"select name, str_value, int_value from metadata order by name",
		"select " ARG_COLS " from args a order by a.id",
	};
	tt_trace *tr = tt_test_open(path);
	size_t len = 0;
	char *all = NULL;

	for (size_t i = 0; i < sizeof(sql) / sizeof(sql[0]); i++) {
		char *t = tt_test_tsv(tr, sql[i]);
		size_t n = strlen(t);

		all = realloc(all, len + n + 2);
		assert_non_null(all);
		memcpy(all + len, t, n);
		len += n;
		all[len++] = '\n';
		all[len] = '\0';
		free(t);
	}
	tt_trace_close(tr);
	return all;
}

static void check_threads(const char *path)
{
	static const char *const env[][2] = {
		{ "TT_CTF_THREADS", "1" }, { "TT_CTF_BATCH", "1" }, { "TT_CTF_BATCH", "3" },
	};
	char *want = dump_all(path);

	for (size_t i = 0; i < sizeof(env) / sizeof(env[0]); i++) {
		char *got;

		setenv(env[i][0], env[i][1], 1);
		got = dump_all(path);
		unsetenv(env[i][0]);
		assert_string_equal(got, want);
		free(got);
	}
	free(want);
}

/* Many streams at uneven rates: the locator map (import_ctf_int.h) finds
 * each set's stream and offset across its rank checkpoints, read in order,
 * backwards and one at a time. Event g of the trace carries seq = g. */
static void test_many_streams(void **state)
{
	char *dir = tt_test_mkdtemp();
	ctfw_opts o = { .nstreams = 5, .packet_bytes = 1024, .offset_s = 1700000000 };
	ctfw *w = ctfw_open(dir, &o);
	const int n = 5000;
	tt_trace *tr;
	char sql[256];

	(void)state;
	assert_non_null(w);
	for (int s = 0; s < 5; s++)
		ctfw_thread(w, s, 10, 11 + s, "t");
	for (int g = 0; g < n; g++) {
		/* stream 0 gets half the events, stream 4 one in 16 */
		int s = g % 2 ? 0 : g % 4 == 2 ? 1 : g % 8 == 4 ? 2 : g % 16 == 8 ? 3 : 4;

		assert_int_equal(ctfw_tick(w, s, 1000 + (uint64_t)g * 10, (uint64_t)g, s, "tick"), 0);
	}
	assert_int_equal(ctfw_close(w), 0);
	tr = tt_test_open(dir);
	assert_true(has_lazy(tr));
	/* one at a time, from the end, then a few checkpoints' edges */
	for (int g = n - 1; g >= 0; g -= g > n - 40 ? 1 : 97) {
		snprintf(sql, sizeof(sql),
			 "select a.int_value from raw r join args a using (arg_set_id) "
			 "where r.id = %d and a.key = 'seq'", g);
		assert_int_equal(tt_test_int(tr, sql), g);
	}
	for (int g = 1020; g < 1030; g++) {
		snprintf(sql, sizeof(sql),
			 "select a.int_value from raw r join args a using (arg_set_id) "
			 "where r.id = %d and a.key = 'val'", g);
		assert_int_equal(tt_test_int(tr, sql),
				 g % 2 ? 0 : g % 4 == 2 ? 1 : g % 8 == 4 ? 2 : g % 16 == 8 ? 3 : 4);
	}
	/* all of them in order */
	assert_int_equal(tt_test_int(tr, "select count(*) from raw r join args a using (arg_set_id) "
					 "where a.key = 'seq' and a.int_value = r.id"), n);
	tt_trace_close(tr);
	tt_test_rm(dir);
}

static void test_threads_and_batches(void **state)
{
	static const char *const names[] = {
		"ctf/lttng-ust-tiny", "ctf/lttng-ust-discarded", "ctf/dmesg-ctf",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[512];

		snprintf(path, sizeof(path), "%s", tt_test_data(names[i]));
		check_threads(path);
	}
	for (int kernel = 0; kernel < 2; kernel++) {
		char *dir = write_trace(kernel);

		check_threads(dir);
		tt_test_rm(dir);
	}
}

/* ---- storage alone, with a fake decoder -------------------------------------- */

struct fake_row {
	const char *key;
	int type; /* 'i' int, 'u' uint, 's' string, 'r' real, 'n' null */
	int64_t i;
	const char *s;
};

struct fake {
	const struct fake_row *ev[8];
	size_t n[8];
	int freed;
};

static const struct fake_row ev_a[] = { { "x", 'i', -1, NULL }, { "name", 's', 0, "hello" },
					{ "v[0]", 'u', 7, NULL } };
static const struct fake_row ev_b[] = { { "x", 'i', 42, NULL }, { "ret", 'r', 0, NULL } };
static const struct fake_row ev_c[] = { { "dyn.k", 's', 0, "dyn" }, { "n", 'n', 0, NULL } };

static void put_row(tt_storage *st, const struct fake_row *r)
{
	switch (r->type) {
	case 'i': tt_storage_args_int(st, r->key, r->i); break;
	case 'u': tt_storage_args_uint(st, r->key, (uint64_t)r->i); break;
	case 's': tt_storage_args_str(st, r->key, r->s, strlen(r->s)); break;
	case 'r': tt_storage_args_real(st, r->key, 0.5); break;
	default: tt_storage_args_null(st, r->key); break;
	}
}

/* loc: event index | 0x100 (stop after one value) | 0x200 (one value
 * too many) */
static int fake_decode(void *ctx, tt_storage *st, uint64_t loc)
{
	struct fake *f = ctx;
	size_t e = loc & 0xff, n = f->n[e];

	if (loc & 0x100) {
		put_row(st, &f->ev[e][0]);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		put_row(st, &f->ev[e][i]);
	if (loc & 0x200)
		put_row(st, &f->ev[e][0]);
	return 0;
}

static void fake_free(void *ctx)
{
	((struct fake *)ctx)->freed++;
}

static uint32_t eager_set(tt_storage *st, const struct fake_row *rows, size_t n, size_t keep)
{
	tt_storage_args_begin(st);
	for (size_t i = 0; i < n; i++) {
		if (i < keep)
			put_row(st, &rows[i]);
		else
			tt_storage_args_null(st, rows[i].key);
	}
	return tt_storage_args_store(st);
}

/* Builds the same sets in lz (lazy where it can) and in eg (eagerly). */
static void build(tt_storage *lz, tt_storage *eg, struct fake *f)
{
	static const tt_args_decoder ops = { .decode = fake_decode, .free_ctx = fake_free };
	tt_str ka[3], kb[2];
	uint32_t sa, sb, l[16], e[16];
	int n = 0;

	f->ev[0] = ev_a, f->n[0] = 3;
	f->ev[1] = ev_b, f->n[1] = 2;
	f->ev[2] = ev_c, f->n[2] = 2;
	assert_int_equal(tt_storage_args_decoder(lz, &ops, f), 0);
	for (int i = 0; i < 3; i++)
		ka[i] = tt_storage_intern_cstr(lz, ev_a[i].key);
	for (int i = 0; i < 2; i++)
		kb[i] = tt_storage_intern_cstr(lz, ev_b[i].key);
	sa = tt_storage_args_shape(lz, ka, 3);
	sb = tt_storage_args_shape(lz, kb, 2);
	assert_int_not_equal(sa, TT_NONE);
	assert_int_not_equal(sb, TT_NONE);
	/* refused: empty, a count that is not the shape's, while building */
	assert_int_equal(tt_storage_args_lazy(lz, 0, sa, 0), TT_NONE);
	assert_int_equal(tt_storage_args_lazy(lz, 0, sa, 2), TT_NONE);
	tt_storage_args_begin(lz);
	assert_int_equal(tt_storage_args_lazy(lz, 0, sa, 3), TT_NONE);
	assert_int_equal(tt_storage_args_store(lz), TT_NONE);

#define BOTH(lexpr, eexpr) do { l[n] = (lexpr); e[n] = (eexpr); assert_int_equal(l[n], e[n]); n++; } while (0)
	BOTH(eager_set(lz, ev_b, 2, 2), eager_set(eg, ev_b, 2, 2));          /* 0: eager */
	BOTH(tt_storage_args_lazy(lz, 0, sa, 3), eager_set(eg, ev_a, 3, 3)); /* 1: shaped */
	BOTH(tt_storage_args_lazy(lz, 1, sb, 2), eager_set(eg, ev_b, 2, 2)); /* 2 */
	BOTH(tt_storage_args_lazy(lz, 2, TT_NONE, 2), eager_set(eg, ev_c, 2, 2)); /* 3: keyless */
	BOTH(tt_storage_args_lazy(lz, 0x100, sa, 3), eager_set(eg, ev_a, 3, 1)); /* 4: fails */
	BOTH(tt_storage_args_lazy(lz, 0x201, sb, 2), eager_set(eg, ev_b, 2, 2)); /* 5: extra */
	/* merges: lazy+lazy, lazy+eager, eager+lazy, keyless, merged+lazy */
	BOTH(tt_storage_args_merge(lz, l[1], l[2]), tt_storage_args_merge(eg, e[1], e[2]));
	BOTH(tt_storage_args_merge(lz, l[2], l[0]), tt_storage_args_merge(eg, e[2], e[0]));
	BOTH(tt_storage_args_merge(lz, l[0], l[1]), tt_storage_args_merge(eg, e[0], e[1]));
	BOTH(tt_storage_args_merge(lz, l[3], l[1]), tt_storage_args_merge(eg, e[3], e[1]));
	BOTH(tt_storage_args_merge(lz, l[6], l[5]), tt_storage_args_merge(eg, e[6], e[5]));
	BOTH(tt_storage_args_merge(lz, l[4], TT_NONE), tt_storage_args_merge(eg, e[4], TT_NONE));
	/* a lazy set copied into one under construction */
	tt_storage_args_begin(lz);
	tt_storage_args_int(lz, "first", 1);
	tt_storage_args_copy(lz, l[2]);
	tt_storage_args_begin(eg);
	tt_storage_args_int(eg, "first", 1);
	tt_storage_args_copy(eg, e[2]);
	BOTH(tt_storage_args_store(lz), tt_storage_args_store(eg));
	BOTH(tt_storage_args_lazy(lz, 1, sb, 2), eager_set(eg, ev_b, 2, 2)); /* last: lazy */
#undef BOTH
	assert_int_equal(lz->args.n, eg->args.n);
}

static void same_sets(const tt_storage *lz, const tt_storage *eg, int backwards)
{
	size_t nsets = eg->args.set_first.n;

	assert_int_equal(lz->args.set_first.n, nsets);
	for (size_t k = 0; k < nsets; k++) {
		uint32_t set = (uint32_t)(backwards ? nsets - 1 - k : k);
		size_t lf, le, ef, ee;

		assert_true(tt_storage_argset_rows(lz, set, &lf, &le));
		assert_true(tt_storage_argset_rows(eg, set, &ef, &ee));
		assert_int_equal(lf, ef);
		assert_int_equal(le, ee);
		for (size_t r = lf; r < le; r++) {
			char b1[64], b2[64];

			assert_string_equal(tt_storage_str(lz, lz->args.key[r]) ? tt_storage_str(lz, lz->args.key[r]) : "",
					    tt_storage_str(eg, eg->args.key[r]) ? tt_storage_str(eg, eg->args.key[r]) : "");
			assert_int_equal(lz->args.type[r], eg->args.type[r]);
			assert_string_equal(tt_storage_arg_text(lz, r, b1, sizeof(b1)),
					    tt_storage_arg_text(eg, r, b2, sizeof(b2)));
			assert_int_equal(tt_storage_arg_set_of(lz, r), set);
		}
	}
}

static void test_storage_lazy_sets(void **state)
{
	(void)state;
	for (int order = 0; order < 3; order++) {
		tt_storage *lz = tt_storage_new(), *eg = tt_storage_new();
		struct fake f = { .freed = 0 };

		assert_non_null(lz);
		assert_non_null(eg);
		build(lz, eg, &f);
		tt_storage_finalize(lz);
		tt_storage_finalize(eg);
		if (order == 2) {
			/* a full read stores everything and lets the decoder go */
			assert_int_equal(tt_storage_args_load(lz, 0, lz->args.n), 0);
			assert_null(lz->args.lazy);
			assert_int_equal(f.freed, 1);
		}
		same_sets(lz, eg, order == 1);
		assert_int_equal(tt_storage_oom(lz), 0);
		tt_storage_free(lz);
		tt_storage_free(eg);
		assert_int_equal(f.freed, 1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_traces),
		cmocka_unit_test(test_written_traces),
		cmocka_unit_test(test_after_import),
		cmocka_unit_test(test_threads_and_batches),
		cmocka_unit_test(test_many_streams),
		cmocka_unit_test(test_storage_lazy_sets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
