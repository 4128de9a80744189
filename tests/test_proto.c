/*
 * test_proto.c - the Perfetto protobuf importer.
 *
 * Real traces: tests/data/chromium-tiny.pftrace and chromium-small.pftrace.gz
 * (Chromium 156's own proto output, copied from shared/samples). Every
 * expected number below was computed independently of the importer by
 *   python3 tests/tools/pftrace_walk.py slices FILE
 * (a hand-rolled wire walker, no protobuf library), and the packet/type
 * counts agree with shared/samples/ref/<file>.summary.json.
 * Regression pinned here: TrackDescriptor packets carry timestamp deltas
 * on Chrome's incremental clock 64 (2003 of them in chromium-small); they
 * must advance the clock like any packet (Perfetto converts every
 * packet's timestamp), or slices spanning them come out short
 * (CrRendererMain's sum(dur) was 7398706503 instead of 7528398503).
 *
 * Synthetic traces are built here with protobuf-c's packers; their
 * expected values follow from the rules in docs/formats.md section 1 and
 * are worked out in the comments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "perfetto_trace.pb-c.h"
#include "import_int.h"
#include "atrace.h"
#include "testutil.h"
#include "proto_tb.h"
#include "vtab.h"

typedef Perfetto__Protos__TrackEvent TEv;
typedef Perfetto__Protos__TrackDescriptor TDesc;

/* ---- building traces: tests/proto_tb.h ------------------------------------ */

/* A TrackEvent's type and track uuid (-1: not set) and inline name
 * (NULL: none). */
static void te_set(TEv *te, int type, int64_t track, const char *name)
{
	if (type >= 0) {
		te->has_type = 1;
		te->type = type;
	}
	if (track >= 0) {
		te->has_track_uuid = 1;
		te->track_uuid = (uint64_t)track;
	}
	if (name) {
		te->name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME;
		te->name = (char *)name;
	}
}

static void set_flags(Pkt *p, uint32_t flags)
{
	p->has_sequence_flags = 1;
	p->sequence_flags = flags;
}

/* A TrackEvent packet with an inline name (NULL: none). */
static void put_event(tbuf *b, uint32_t seq, uint64_t ts, int type, uint64_t track, const char *name)
{
	Pkt p = pkt(seq, ts);
	TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;

	te_set(&te, type, track, name);
	TB_PUT(b, p, TRACK_EVENT, track_event, &te);
}

/* One TrackDescriptor builder for every test: a descriptor of uuid (and
 * name) to fill in, put on a sequence by put_td; thread_of / process_of
 * fill the descriptors a track may carry. */
static TDesc desc_of(uint64_t uuid, const char *name)
{
	TDesc td = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;

	td.has_uuid = 1;
	td.uuid = uuid;
	td.name = (char *)name;
	return td;
}

static void put_td(tbuf *b, uint32_t seq, TDesc *td)
{
	Pkt p = pkt(seq, 0);

	TB_PUT(b, p, TRACK_DESCRIPTOR, track_descriptor, td);
}

static Perfetto__Protos__ThreadDescriptor thread_of(int32_t pid, int64_t tid, const char *name)
{
	Perfetto__Protos__ThreadDescriptor th = PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;

	th.has_pid = th.has_tid = 1;
	th.pid = pid;
	th.tid = tid;
	th.thread_name = (char *)name;
	return th;
}

static Perfetto__Protos__ProcessDescriptor process_of(int32_t pid)
{
	Perfetto__Protos__ProcessDescriptor pd = PERFETTO__PROTOS__PROCESS_DESCRIPTOR__INIT;

	pd.has_pid = 1;
	pd.pid = pid;
	return pd;
}

static void put_track(tbuf *b, uint64_t uuid, const char *name)
{
	TDesc td = desc_of(uuid, name);

	put_td(b, 1, &td);
}

static void put_thread_track(tbuf *b, uint32_t seq, uint64_t uuid, int32_t pid, int64_t tid, const char *name)
{
	TDesc td = desc_of(uuid, NULL);
	Perfetto__Protos__ThreadDescriptor th = thread_of(pid, tid, name);

	td.thread = &th;
	put_td(b, seq, &td);
}

/* ---- threads and batches change nothing ---------------------------------- */

/* The golden dump's tables (tests/sh/golden.sh), plus what only proto
 * traces fill. */
static const char *const dump_sql[] = {
	"select 'process', upid, pid, name, parent_upid from process order by upid",
	"select 'thread', utid, tid, name, upid from thread order by utid",
	"select 'track', id, name, type, utid, upid, is_counter from track order by id",
	"select 'slice', id, ts, dur, track_id, depth, parent_id, category, name, arg_set_id, thread_ts, "
	"thread_dur from slice order by id",
	"select 'args', arg_set_id, key, value_type, display_value from args order by id",
	"select 'counter', id, ts, track_id, value from counter order by id",
	"select 'flow', slice_out, slice_in from flow order by id",
	"select 'sched', ts, dur, cpu, utid, end_state, priority from sched order by id",
	"select 'state', ts, dur, cpu, utid, state from thread_state order by id",
	"select 'stat', name, value from stats where value != 0 order by name",
	"select 'meta', name, str_value, int_value from metadata order by name",
	"select 'statev', ts, dur, track_id, category, value, arg_set_id from state order by id",
	"select 'callstack', slice_id, track_id, callsite_id, end_callsite_id, weight from "
	"__intrinsic_track_event_callstacks order by id",
	"select 'callsite', id, depth, parent_id, frame_id from stack_profile_callsite order by id",
	"select 'frame', id, name, mapping, rel_pc, symbol_set_id from stack_profile_frame order by id",
};

static int dump_row(void *ctx, int n, char **vals, char **cols)
{
	tbuf *out = ctx;
	int i;

	(void)cols;
	for (i = 0; i < n; i++) {
		const char *v = vals[i] ? vals[i] : "NULL";
		if (i)
			tb_raw(out, "\t", 1);
		tb_raw(out, v, strlen(v) + 1);
		out->n--; /* keeps the text NUL-terminated */
	}
	tb_raw(out, "\n", 1);
	return 0;
}

/* Imports path with the packet reader's knobs and dumps what came out, or
 * the error (malloc'ed text). */
static char *import_dump(const char *path, int threaded, size_t batch)
{
	tt_err err = {0};
	tt_storage *st = tt_storage_new();
	tt_bytesrc *src = tt_bytesrc_open(path, &err);
	tt_import im = { .st = st, .path = path, .err = &err };
	tbuf out = {0};
	sqlite3 *db = NULL;
	size_t i;
	int rc;

	assert_non_null(st);
	assert_non_null(src);
	assert_int_equal(tt_import_begin(&im), 0);
	im.opts.proto_one_thread = !threaded;
	im.opts.proto_batch = batch;
	rc = tt_import_proto(&im, src);
	tt_import_end(&im);
	tt_bytesrc_close(src);
	if (rc != TT_OK) {
		tb_raw(&out, err.msg, strlen(err.msg) + 1);
	} else {
		tt_storage_finalize(st);
		assert_int_equal(sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL),
				 SQLITE_OK);
		assert_int_equal(tt_vtab_register_core(db, st), SQLITE_OK);
		for (i = 0; i < sizeof(dump_sql) / sizeof(dump_sql[0]); i++)
			if (sqlite3_exec(db, dump_sql[i], dump_row, &out, NULL) != SQLITE_OK)
				fail_msg("%s: %s", dump_sql[i], sqlite3_errmsg(db));
		sqlite3_close(db);
	}
	tb_raw(&out, "", 1);
	tt_storage_free(st);
	return (char *)out.p;
}

/* One thread or two, any batch size: the same trace (or the same error). */
static void assert_modes_agree(const char *path)
{
	static const struct { int threaded; size_t batch; } m[] = {
		{ 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 }, { 1, 3 },
	};
	char *want = import_dump(path, m[0].threaded, m[0].batch);
	size_t i;

	for (i = 1; i < sizeof(m) / sizeof(m[0]); i++) {
		char *got = import_dump(path, m[i].threaded, m[i].batch);

		if (strcmp(got, want) != 0)
			fail_msg("%s: threaded %d, batch_packets %zu (0 = default): not the one-thread import", path,
				 m[i].threaded, m[i].batch);
		free(got);
	}
	free(want);
}

static tt_trace *tb_open(tbuf *b, char **path)
{
	*path = tt_test_write_tmp(b->p, b->n, ".pftrace");
	assert_modes_agree(*path);
	return tt_test_open(*path);
}



/* ---- real traces --------------------------------------------------------- */

static void test_chromium_tiny(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("chromium-tiny.pftrace"));
	int64_t lo, hi;

	(void)state;
	assert_modes_agree(tt_test_data("chromium-tiny.pftrace"));
	assert_string_equal(tt_trace_format(tr), "perfetto-proto");
	/* pftrace_walk.py slices: total 536 = 429 BEGIN + 33 INSTANT + 74 R */
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 536);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice where dur = -1"), 0);
	assert_int_equal(tt_test_int(tr, "select count(*) from counter"), 859);
	/* thread time from the THREAD_TIME_NS extra counter (oracle: B and E
	 * both carry a value; incremental us, restarting at state clears) */
	tt_test_assert_tsv(tr, "select count(thread_dur), sum(thread_dur) from slice", "415\t10139000\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from flow"), 0);
	/* summary.json: distinct_processes 3, distinct_threads 4 */
	/* (upid 0 / utid 0: the idle process and its swapper thread, which
	 * trace processor reserves in every Perfetto trace) */
	tt_test_assert_tsv(tr, "select upid, pid, name from process where upid = 0", "0\t0\tNULL\n");
	tt_test_assert_tsv(tr, "select utid, tid, upid, name from thread where utid = 0", "0\t0\t0\tswapper\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from process where upid > 0"), 3);
	assert_int_equal(tt_test_int(tr, "select count(*) from thread where name is not null and utid > 0"), 4);
	/* and the main thread trace processor gives each process */
	assert_int_equal(tt_test_int(tr, "select count(*) from thread where utid > 0"), 5);
	/* summary.json: track_event_ts_min_ns / max_ns (the last event is an END) */
	assert_int_equal(tt_test_int(tr, "select min(ts) from slice"), 969228552000LL);
	assert_int_equal(tt_test_int(tr, "select max(ts + dur) from slice"), 971296847099LL);
	tt_trace_bounds(tr, &lo, &hi);
	assert_int_equal(lo, 969228552000LL);
	assert_int_equal(hi, 971296847099LL);
	/* per thread: count, sum(dur), max depth */
	tt_test_assert_tsv(tr,
		   "select t.name, count(*), sum(s.dur), max(s.depth) from slice s "
		   "join thread_track tt on s.track_id = tt.id join thread t using(utid) group by 1 order by 1",
		   "CrRendererMain\t499\t158747000\t1\n"
		   "DedicatedWorker thread\t33\t648000\t1\n");
	/* ActiveProcesses: INSTANT on explicit track uuid 0 = the default track
	 * (merged by name, trace processor's default for descriptor tracks) */
	tt_test_assert_tsv(tr, "select t.name, t.type, count(*) from slice s join track t on s.track_id = t.id "
		       "where t.utid is null group by 1, 2",
		   "Default Track\tglobal_merged_track_event\t4\n");
	/* summary.json top_event_names */
	assert_int_equal(tt_test_int(tr, "select count(*) from slice where name = 'V8.BytecodeBudgetInterrupt'"), 286);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice where name = 'RunMicrotasks'"), 58);
	/* legacy R marks: 74 zero-length instants with legacy_event.phase = R */
	assert_int_equal(tt_test_int(tr, "select count(*) from slice s join args a using(arg_set_id) "
					 "where a.key = 'legacy_event.phase' and a.string_value = 'R' and s.dur = 0"), 74);
	/* first navigationStart: ts from clock 3 packet, thread CrRendererMain */
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.category, t.tid from slice s join thread_track tt on s.track_id = tt.id "
		       "join thread t using(utid) where s.name = 'navigationStart' order by s.ts limit 1",
		   "969228552000\t0\tblink.user_timing\t9427\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from stats where name like 'slice%' and value > 0"), 0);
	tt_trace_close(tr);
}

static void test_chromium_small_gz(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("chromium-small.pftrace.gz"));

	(void)state;
	assert_modes_agree(tt_test_data("chromium-small.pftrace.gz"));
	/* pftrace_walk.py slices chromium-small.pftrace.gz */
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 30866);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice where dur = -1"), 217);
	assert_int_equal(tt_test_stat(tr, "slice_unfinished"), 217);
	assert_int_equal(tt_test_stat(tr, "slice_end_unmatched"), 408);
	assert_int_equal(tt_test_int(tr, "select count(*) from flow"), 190);
	assert_int_equal(tt_test_int(tr, "select count(*) from counter"), 49617);
	tt_test_assert_tsv(tr, "select count(thread_dur), sum(thread_dur) from slice", "21869\t5492756000\n");
	/* summary.json: 8 processes, 43 threads, ts range */
	assert_int_equal(tt_test_int(tr, "select count(*) from process where upid > 0"), 8);
	assert_int_equal(tt_test_int(tr, "select count(*) from thread where utid > 0"), 43);
	/* oracle: the first slice (the summary's ts_min is an unmatched END) */
	assert_int_equal(tt_test_int(tr, "select min(ts) from slice"), 943932841873LL);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice where name = 'RunTask'"), 13906);
	tt_test_assert_tsv(tr,
		   "select t.name, count(*), sum(s.dur), max(s.depth) from slice s "
		   "join thread_track tt on s.track_id = tt.id join thread t using(utid) group by 1 order by 1",
		   "CacheThread_BlockFile\t9\t17886000\t0\n"
		   "Chrome_ChildIOThread\t1829\t164928000\t0\n"
		   "Chrome_DevToolsHandlerThread\t2\t613000\t0\n"
		   "Chrome_IOThread\t2203\t34111000\t0\n"
		   "Compositor\t1359\t205165000\t0\n"
		   "CompositorTileWorker1\t41\t14114000\t0\n"
		   "CrBrowserMain\t3645\t205568000\t1\n"
		   "CrGpuMain\t104\t6681000\t0\n"
		   "CrRendererMain\t16364\t7528398503\t7\n"
		   "DedicatedWorker thread\t149\t2768807913\t4\n"
		   "MemoryInfra\t13\t1072000\t0\n"
		   "PerfettoTrace\t202\t5766850\t0\n"
		   "ThreadPoolForegroundWorker\t1031\t495013000\t1\n"
		   "ThreadPoolServiceThread\t8\t325000\t0\n"
		   "VizCompositorThread\t533\t146749854\t0\n"
		   "network.CrUtilityMain\t24\t372000\t0\n"
		   "storage.CrUtilityMain\t58\t1190000\t0\n"
		   "tracing.CrUtilityMain\t365\t45199115\t0\n");
	/* async slices on process tracks (oracle: tracks owned by process uuids) */
	tt_test_assert_tsv(tr, "select p.pid, count(*), sum(s.dur) from slice s join track t on s.track_id = t.id "
		       "join process p on p.upid = t.upid where t.utid is null group by 1 order by 1",
		   "8721\t3\t0\n8797\t11\t43938995\n8825\t2909\t237860720326\n");
	tt_trace_close(tr);
}

/* ---- synthetic traces ----------------------------------------------------- */

static void put_interned_event(tbuf *b, uint64_t ts, uint32_t flags, int type, uint64_t name_iid,
			       const char *interned_name)
{
	Pkt p = pkt(1, ts);
	TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	Perfetto__Protos__InternedData in = PERFETTO__PROTOS__INTERNED_DATA__INIT;
	Perfetto__Protos__EventName en = PERFETTO__PROTOS__EVENT_NAME__INIT, *enp = &en;

	set_flags(&p, flags);
	if (interned_name) {
		en.has_iid = 1;
		en.iid = name_iid;
		en.name = (char *)interned_name;
		in.n_event_names = 1;
		in.event_names = &enp;
		p.interned_data = &in;
	}
	te_set(&te, type, 100, NULL);
	if (type != 2) {
		te.name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME_IID;
		te.name_iid = name_iid;
	}
	TB_PUT(b, p, TRACK_EVENT, track_event, &te);
}

static void test_interning_and_clear(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Pkt p;

	(void)state;
	put_thread_track(&b, 1, 100, 10, 11, "main");
	/* iid 1 = alpha; a state clear then redefines iid 1 = beta */
	put_interned_event(&b, 1000, 1 | 2, 1, 1, "alpha");
	put_interned_event(&b, 2000, 2, 2, 0, NULL);
	put_interned_event(&b, 3000, 1 | 2, 3, 1, "beta");
	put_interned_event(&b, 3500, 2, 3, 1, NULL);   /* iid 1 still beta */
	put_interned_event(&b, 4000, 2, 3, 7, NULL);   /* iid 7 never defined */
	/* sequence 2 needs state it never got: skipped */
	p = pkt(2, 5000);
	set_flags(&p, 2);
	{
		TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
		te_set(&te, 3, -1, NULL);
		TB_PUT(&b, p, TRACK_EVENT, track_event, &te);
	}
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select s.ts, s.dur, coalesce(s.name, '-'), t.tid, t.name from slice s "
		       "join thread_track tt on s.track_id = tt.id join thread t using(utid) order by s.ts",
		   "1000\t1000\talpha\t11\tmain\n3000\t0\tbeta\t11\tmain\n3500\t0\tbeta\t11\tmain\n"
		   "4000\t0\t-\t11\tmain\n");
	assert_int_equal(tt_test_stat(tr, "proto_interned_missing"), 1);
	assert_int_equal(tt_test_stat(tr, "proto_skipped_incremental"), 1);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 4);
	tb_close(tr, path, &b);
}

static void test_nested_across_sequences(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	put_track(&b, 200, "shared");
	/* file order: all of sequence 1, then sequence 2; time order nests
	 * inner (seq 2) inside outer (seq 1) */
	put_event(&b, 1, 100, 1, 200, "outer");
	put_event(&b, 1, 400, 2, 200, NULL);
	put_event(&b, 2, 200, 1, 200, "inner");
	put_event(&b, 2, 300, 2, 200, NULL);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.name, s.depth, coalesce(p.name, '-'), t.name from slice s "
		       "left join slice p on s.parent_id = p.id join track t on s.track_id = t.id order by s.ts",
		   "100\t300\touter\t0\t-\tshared\n200\t100\tinner\t1\touter\tshared\n");
	tb_close(tr, path, &b);
}

/* trace processor's slice tracker: an instant at the ts of an instant
 * still on the stack nests in it (instants "stack"); a slice at that ts
 * pops it, and a later instant does not nest. */
static void test_instants_stack(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	put_track(&b, 200, "marks");
	put_event(&b, 1, 100, 3, 200, "a");
	put_event(&b, 1, 100, 3, 200, "b");
	put_event(&b, 1, 100, 1, 200, "slice");
	put_event(&b, 1, 150, 2, 200, NULL);
	put_event(&b, 1, 150, 3, 200, "c");
	put_event(&b, 1, 160, 3, 200, "d");
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.name, s.depth, coalesce(p.name, '-') from slice s "
		       "left join slice p on s.parent_id = p.id order by s.id",
		   "100\t0\ta\t0\t-\n100\t0\tb\t1\ta\n100\t50\tslice\t0\t-\n"
		   "150\t0\tc\t0\t-\n160\t0\td\t0\t-\n");
	tb_close(tr, path, &b);
}

static void put_counter_track(tbuf *b, uint64_t uuid, const char *name, int64_t mult, int incremental, int unit)
{
	TDesc td = desc_of(uuid, name);
	Perfetto__Protos__CounterDescriptor cd = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;

	if (mult) {
		cd.has_unit_multiplier = 1;
		cd.unit_multiplier = mult;
	}
	cd.has_is_incremental = incremental;
	cd.is_incremental = incremental;
	cd.has_unit = unit != 0;
	cd.unit = unit;
	td.counter = &cd;
	put_td(b, 1, &td);
}

static void put_counter(tbuf *b, uint64_t ts, uint32_t flags, uint64_t uuid, int is_double, double v)
{
	Pkt p = pkt(1, ts);
	TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;

	set_flags(&p, flags);
	te_set(&te, 4, uuid, NULL);
	if (is_double) {
		te.counter_value_field_case = PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_DOUBLE_COUNTER_VALUE;
		te.double_counter_value = v;
	} else {
		te.counter_value_field_case = PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE;
		te.counter_value = (int64_t)v;
	}
	TB_PUT(b, p, TRACK_EVENT, track_event, &te);
}

/* Counter units as trace processor picks them: a built-in type's unit,
 * then the unit enum, then unit_name. */
static void test_counter_units(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	TDesc td = desc_of(40, "tt");
	Perfetto__Protos__CounterDescriptor cd = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;

	(void)state;
	cd.has_type = 1;
	cd.type = 1; /* COUNTER_THREAD_TIME_NS */
	cd.unit_name = "ignored";
	td.counter = &cd;
	put_td(&b, 1, &td);
	td.uuid = 41;
	td.name = "named";
	cd.has_type = 0;
	cd.type = 0;
	cd.unit_name = "frames";
	put_td(&b, 1, &td);
	td.uuid = 42;
	td.name = "sized";
	cd.has_unit = 1;
	cd.unit = 3;
	put_td(&b, 1, &td);
	put_counter(&b, 10, 0, 40, 0, 1);
	put_counter(&b, 10, 0, 41, 0, 1);
	put_counter(&b, 10, 0, 42, 0, 1);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select name, unit from counter_track order by name",
		   "named\tframes\nsized\tbytes\ntt\tns\n");
	tb_close(tr, path, &b);
}

static void test_counters(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	put_counter_track(&b, 300, "inc", 1000, 1, 0);
	put_counter_track(&b, 301, "abs", 0, 0, 3 /* SIZE_BYTES */);
	put_track(&b, 302, "events");
	/* inc: deltas 5, 3 (x1000) -> 5000, 8000; a state clear restarts
	 * the running value: 2 -> 2000 */
	put_counter(&b, 10, 1, 300, 0, 5);
	put_counter(&b, 15, 2, 301, 1, 1.5);
	put_counter(&b, 20, 2, 300, 0, 3);
	put_counter(&b, 25, 2, 301, 0, 7);
	{
		/* extra counter value on an instant: 9 on abs at ts 30 */
		Pkt p = pkt(1, 30);
		TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
		uint64_t uu = 301;
		int64_t vv = 9;
		set_flags(&p, 2);
		te_set(&te, 3, 302, "tick");
		te.n_extra_counter_track_uuids = 1;
		te.extra_counter_track_uuids = &uu;
		te.n_extra_counter_values = 1;
		te.extra_counter_values = &vv;
		TB_PUT(&b, p, TRACK_EVENT, track_event, &te);
	}
	put_counter(&b, 40, 1, 300, 0, 2);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select t.name, c.ts, c.value from counter c join track t on c.track_id = t.id "
		       "order by t.name, c.ts",
		   "abs\t15\t1.5\nabs\t25\t7.0\nabs\t30\t9.0\ninc\t10\t5000.0\ninc\t20\t8000.0\ninc\t40\t2000.0\n");
	assert_string_equal(tt_test_str(tr, "select unit from track where name = 'abs'"), "bytes");
	assert_int_equal(tt_test_int(tr, "select is_counter from track where name = 'inc'"), 1);
	tb_close(tr, path, &b);
}

/* A track event on seq with one extra counter value (thread time, on the
 * sequence's default extra counter track) and maybe a flow. */
static void put_tt_event(tbuf *b, uint32_t seq, uint64_t ts, int type, int phase, uint64_t track, const char *name,
			 int64_t value, uint64_t flow, int terminating)
{
	Pkt p = pkt(seq, ts);
	TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	Perfetto__Protos__TrackEvent__LegacyEvent le = PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__INIT;

	set_flags(&p, 2);
	if (type) {
		te_set(&te, type, -1, NULL);
	}
	if (phase) {
		le.has_phase = 1;
		le.phase = phase;
		te.legacy_event = &le;
	}
	te_set(&te, -1, track, name);
	te.n_extra_counter_values = 1;
	te.extra_counter_values = &value;
	if (flow) {
		te.n_flow_ids = !terminating;
		te.n_terminating_flow_ids = terminating;
		te.flow_ids = te.terminating_flow_ids = &flow;
	}
	TB_PUT(b, p, TRACK_EVENT, track_event, &te);
}

/* Chrome's thread time: each event's extra counter value goes to the
 * counter table and to its slice's thread_ts / thread_dur. The importer
 * carries a BEGIN / END's value on the event's own record; whatever the
 * event becomes (an instant, a dropped event, a value a double rounds,
 * flows on it, another sequence's counter at the same ts),
 * the counter rows and their order are those of one record each. */
static void test_thread_time_counters(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	uint32_t seq;

	(void)state;
	for (seq = 1; seq <= 2; seq++) {
		Pkt p = pkt(seq, 0);
		Perfetto__Protos__TracePacketDefaults d = PERFETTO__PROTOS__TRACE_PACKET_DEFAULTS__INIT;
		Perfetto__Protos__TrackEventDefaults ted = PERFETTO__PROTOS__TRACK_EVENT_DEFAULTS__INIT;
		uint64_t xc = 900 + seq;
		TDesc td = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
		Perfetto__Protos__CounterDescriptor cd = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;

		set_flags(&p, 1);
		ted.n_extra_counter_track_uuids = 1;
		ted.extra_counter_track_uuids = &xc;
		d.track_event_defaults = &ted;
		p.trace_packet_defaults = &d;
		td.has_uuid = 1;
		td.uuid = xc;
		td.has_parent_uuid = 1;
		td.parent_uuid = 800 + seq;
		cd.has_type = 1;
		cd.type = 1; /* COUNTER_THREAD_TIME_NS */
		td.counter = &cd;
		TB_PUT(&b, p, TRACK_DESCRIPTOR, track_descriptor, &td);
		put_thread_track(&b, seq, 800 + seq, 7, 70 + seq, seq == 1 ? "T1" : "T2");
	}
	put_tt_event(&b, 1, 10, 1, 0, 801, "outer", 100, 0, 0);
	put_tt_event(&b, 1, 12, 1, 0, 801, "inner", 105, 77, 0);    /* a flow out */
	put_tt_event(&b, 1, 14, 3, 0, 801, "tick", 107, 78, 0);     /* an instant: a counter of its own */
	put_tt_event(&b, 1, 16, 0, '?', 801, "odd", 109, 0, 0);     /* dropped: its counter stays */
	put_tt_event(&b, 2, 16, 3, 0, 802, "tock", 111, 0, 0);      /* ... before this one */
	put_tt_event(&b, 1, 18, 2, 0, 801, NULL, 110, 0, 0);
	put_tt_event(&b, 1, 20, 2, 0, 801, NULL, 150, 0, 0);
	/* the same ts on two sequences: file order decides, either way */
	put_tt_event(&b, 2, 30, 1, 0, 802, "b2", 200, 77, 1);      /* the flow ends here */
	put_tt_event(&b, 1, 30, 1, 0, 801, "b1", 300, 78, 1);
	put_tt_event(&b, 1, 40, 2, 0, 801, NULL, 310, 0, 0);
	put_tt_event(&b, 2, 40, 2, 0, 802, NULL, 220, 0, 0);
	/* 2^53 + 1 is no double: the counter holds 2^53 and so does thread_ts */
	put_tt_event(&b, 1, 50, 1, 0, 801, "big", (INT64_C(1) << 53) + 1, 0, 0);
	put_tt_event(&b, 1, 60, 2, 0, 801, NULL, (INT64_C(1) << 53) + 5, 0, 0);
	put_tt_event(&b, 2, 70, 0, '?', 802, "last", 230, 0, 0);    /* the last packet, dropped */
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select c.ts, t.name, th.name, cast(c.value as int) from counter c join track t on c.track_id = t.id "
		       "join thread th using (utid) order by c.id",
		   "10\tthread_time\tT1\t100\n12\tthread_time\tT1\t105\n14\tthread_time\tT1\t107\n"
		   "16\tthread_time\tT1\t109\n16\tthread_time\tT2\t111\n18\tthread_time\tT1\t110\n"
		   "20\tthread_time\tT1\t150\n"
		   "30\tthread_time\tT2\t200\n30\tthread_time\tT1\t300\n40\tthread_time\tT1\t310\n"
		   "40\tthread_time\tT2\t220\n50\tthread_time\tT1\t9007199254740992\n"
		   "60\tthread_time\tT1\t9007199254740996\n70\tthread_time\tT2\t230\n");
	tt_test_assert_tsv(tr, "select ts, dur, name, thread_ts, thread_dur from slice order by id",
		   "10\t10\touter\t100\t50\n12\t6\tinner\t105\t5\n14\t0\ttick\tNULL\tNULL\n"
		   "16\t0\ttock\tNULL\tNULL\n30\t10\tb2\t200\t20\n30\t10\tb1\t300\t10\n"
		   "50\t10\tbig\t9007199254740992\t4\n");
	tt_test_assert_tsv(tr, "select so.name, si.name from flow f join slice so on so.id = f.slice_out "
		       "join slice si on si.id = f.slice_in order by f.id",
		   "inner\tb2\ntick\tb1\n");
	tb_close(tr, path, &b);
}

static void put_flow_event(tbuf *b, uint64_t ts, int type, const char *name, uint64_t flow, int terminating)
{
	Pkt p = pkt(1, ts);
	TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;

	te_set(&te, type, 400, name);
	if (flow && terminating) {
		te.n_terminating_flow_ids = 1;
		te.terminating_flow_ids = &flow;
	} else if (flow) {
		te.n_flow_ids = 1;
		te.flow_ids = &flow;
	}
	TB_PUT(b, p, TRACK_EVENT, track_event, &te);
}

static void test_flows(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	put_track(&b, 400, "flows");
	/* A starts flow 42, B steps, C terminates it; D starts a new flow 42
	 * that never continues: 2 flow rows, A->B and B->C; E starts flow
	 * 2^64-1, F ends it. A link's trace_id is the flow's id as the trace
	 * gives it, as int64 (trace processor's FlowTracker::InsertFlow) */
	put_flow_event(&b, 10, 1, "A", 42, 0);
	put_flow_event(&b, 20, 2, NULL, 0, 0);
	put_flow_event(&b, 30, 3, "B", 42, 0);
	put_flow_event(&b, 40, 3, "C", 42, 1);
	put_flow_event(&b, 50, 3, "D", 42, 0);
	put_flow_event(&b, 60, 3, "E", UINT64_MAX, 0);
	put_flow_event(&b, 70, 3, "F", UINT64_MAX, 1);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select o.name, i.name, f.trace_id from flow f join slice o on f.slice_out = o.id "
		       "join slice i on f.slice_in = i.id order by f.id",
		   "A\tB\t42\nB\tC\t42\nE\tF\t-1\n");
	tt_test_assert_tsv(tr, "select f.trace_id from directly_connected_flow((select id from slice where name = 'B')) f "
		       "order by f.id", "42\n42\n");
	tb_close(tr, path, &b);
}

static void put_legacy_ids(tbuf *b, uint32_t seq, uint64_t ts, int phase, const char *name, int64_t dur_us,
			   uint64_t id, uint64_t local_id);
static void put_legacy(tbuf *b, uint64_t ts, int phase, const char *name, int64_t dur_us, uint64_t id);

/* An instant on track 400 with flow_ids, terminating_flow_ids and their
 * old fields (n of each, 0: none). */
static void put_flows(tbuf *b, uint64_t ts, const char *name, size_t nf, uint64_t *f, size_t nt,
		      uint64_t *t, size_t nfo, uint64_t *fo, size_t nto, uint64_t *to)
{
	Pkt p = pkt(1, ts);
	TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;

	te_set(&te, 3, 400, name);
	te.n_flow_ids = nf;
	te.flow_ids = f;
	te.n_terminating_flow_ids = nt;
	te.terminating_flow_ids = t;
	te.n_flow_ids_old = nfo;
	te.flow_ids_old = fo;
	te.n_terminating_flow_ids_old = nto;
	te.terminating_flow_ids_old = to;
	TB_PUT(b, p, TRACK_EVENT, track_event, &te);
}

#define FLOW_ROWS "select f.slice_out, o.name, f.slice_in, i.name from flow f join slice o on f.slice_out = o.id" \
		  " join slice i on f.slice_in = i.id order by f.id"
#define FLOW_STATS "select name, value from stats where name like 'flow%' and value != 0 order by name"

/* trace processor's v2 flows (MaybeParseTrackEventFlows): a flow id not
 * active begins, an active one steps; a terminating id ends an active
 * flow and closes it (its id begins again later), and is no flow when
 * not active (no stat); the old fields only without the new ones. */
static void test_flows_v2_rules(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	uint64_t one[] = { 1 }, two[] = { 2 }, three[] = { 3 }, five[] = { 5 }, onetwo[] = { 1, 2 };

	(void)state;
	put_track(&b, 400, "flows");
	put_flows(&b, 10, "A", 1, one, 0, NULL, 0, NULL, 0, NULL);   /* 1 begins */
	put_flows(&b, 20, "B", 1, one, 0, NULL, 0, NULL, 0, NULL);   /* steps: A -> B */
	put_flows(&b, 30, "C", 0, NULL, 1, one, 0, NULL, 0, NULL);   /* ends: B -> C, closed */
	put_flows(&b, 40, "D", 0, NULL, 1, one, 0, NULL, 0, NULL);   /* not active: nothing */
	put_flows(&b, 50, "E", 1, one, 0, NULL, 0, NULL, 0, NULL);   /* 1 begins again */
	put_flows(&b, 60, "F", 2, onetwo, 1, three, 0, NULL, 0, NULL); /* E -> F; 2 begins; 3 nothing */
	put_flows(&b, 70, "G", 0, NULL, 0, NULL, 1, two, 0, NULL);   /* old field: F -> G */
	put_flows(&b, 80, "H", 1, five, 0, NULL, 1, two, 0, NULL);   /* 5 begins; flow_ids_old unread */
	put_flows(&b, 90, "I", 0, NULL, 1, two, 0, NULL, 1, five);   /* G -> I; the old one unread */
	put_flows(&b, 95, "J", 1, five, 0, NULL, 0, NULL, 0, NULL);   /* 5 still active: H -> J */
	put_flows(&b, 97, "K", 0, NULL, 0, NULL, 0, NULL, 1, five);  /* old terminating: J -> K */
	put_flows(&b, 99, "L", 1, two, 0, NULL, 0, NULL, 0, NULL);   /* 2 closed at I: begins */
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, FLOW_ROWS,
			   "0\tA\t1\tB\n1\tB\t2\tC\n4\tE\t5\tF\n5\tF\t6\tG\n6\tG\t8\tI\n"
			   "7\tH\t9\tJ\n9\tJ\t10\tK\n");
	tt_test_assert_tsv(tr, FLOW_STATS, "");
	tb_close(tr, path, &b);
}

/* An instant on track 400 whose legacy_event has bind_id and a
 * flow_direction (1 in, 2 out, 3 inout; -1: none). */
static void put_bind(tbuf *b, uint64_t ts, const char *name, uint64_t bind_id, int dir)
{
	Pkt p = pkt(1, ts);
	TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	Perfetto__Protos__TrackEvent__LegacyEvent le = PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__INIT;

	te_set(&te, 3, 400, name);
	le.has_bind_id = 1;
	le.bind_id = bind_id;
	if (dir >= 0) {
		le.has_flow_direction = 1;
		le.flow_direction = dir;
	}
	te.legacy_event = &le;
	TB_PUT(b, p, TRACK_EVENT, track_event, &te);
}

/* trace processor's legacy flows (MaybeParseFlowEventV2, ParseFlowEventV1)
 * and the flow tracker's stats: bind_id out begins (an active flow:
 * flow_duplicate_id), inout steps, in ends and leaves the flow where it
 * was; a step or end of a flow not active, a bind_id without a direction
 * (or an unspecified one), a v1 flow with no slice to bind to, or with a
 * local id, are counted. */
static void test_flows_legacy_rules(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	put_track(&b, 400, "flows");
	put_thread_track(&b, 1, 800, 20, 21, "legacy");
	put_legacy(&b, 5, 's', "v1", 0, 3);                 /* no slice: flow_no_enclosing_slice */
	put_legacy_ids(&b, 1, 6, 's', "v1", 0, 0, 4);       /* local id: flow_invalid_id */
	put_bind(&b, 10, "A", 7, 2);  /* out: 7 begins */
	put_bind(&b, 20, "B", 7, 2);  /* out again: flow_duplicate_id */
	put_bind(&b, 30, "C", 7, 3);  /* inout: A -> C, 7 at C */
	put_bind(&b, 40, "D", 7, 1);  /* in: C -> D, 7 stays at C */
	put_bind(&b, 50, "E", 7, 1);  /* in: C -> E */
	put_bind(&b, 60, "F", 8, 3);  /* flow_step_without_start */
	put_bind(&b, 70, "G", 9, 1);  /* flow_end_without_start */
	put_bind(&b, 80, "H", 7, -1); /* flow_without_direction */
	put_bind(&b, 90, "I", 7, 0);  /* unspecified: flow_without_direction */
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, FLOW_ROWS, "0\tA\t2\tC\n2\tC\t3\tD\n2\tC\t4\tE\n");
	tt_test_assert_tsv(tr, FLOW_STATS,
			   "flow_duplicate_id\t1\nflow_end_without_start\t1\nflow_invalid_id\t1\n"
			   "flow_no_enclosing_slice\t1\nflow_step_without_start\t1\nflow_without_direction\t2\n");
	tb_close(tr, path, &b);
}

static void put_clocked(tbuf *b, uint32_t seq, uint64_t ts, uint32_t clock, const char *name)
{
	Pkt p = pkt(seq, ts);
	TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;

	if (clock) {
		p.has_timestamp_clock_id = 1;
		p.timestamp_clock_id = clock;
	}
	te_set(&te, 3, 500, name);
	TB_PUT(b, p, TRACK_EVENT, track_event, &te);
}

static void test_clocks(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	put_track(&b, 500, "clocks");
	/* trace clock BOOTTIME (6): no snapshot names a primary clock */
	tb_snapshot(&b, 1, 0, 6, 1000000, 3, 500000, 0, 0);
	put_clocked(&b, 1, 600000, 3, "m1");   /* 1000000 + (600000 - 500000) */
	tb_snapshot(&b, 1, 0, 6, 5000000, 3, 4000000, 0, 0);
	put_clocked(&b, 1, 4500000, 3, "m2");  /* nearest snapshot: 5000000 + 500000 */
	put_clocked(&b, 1, 3000000, 3, "m3");  /* latest snapshot <= t: the first */
	put_clocked(&b, 1, 2000000, 0, "m4");  /* no clock id: trace clock as is */
	/* sequence-scoped incremental clock 64 in us, base 100 us <-> 10 ms */
	tb_snapshot(&b, 1, 0, 6, 10000000, 64, 100, 1, 1000);
	put_clocked(&b, 1, 5, 64, "m5");       /* 100000 + 5000 -> 10005000 */
	put_clocked(&b, 1, 5, 64, "m6");       /* + 5000 more -> 10010000 */
	put_clocked(&b, 2, 5, 64, "m7");       /* clock 64 of seq 2 has no snapshot */
	{
		/* a descriptor packet's delta moves clock 64 too: +5 us */
		Pkt p = pkt(1, 5);
		TDesc td = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
		p.has_timestamp_clock_id = 1;
		p.timestamp_clock_id = 64;
		td.has_uuid = 1;
		td.uuid = 501;
		TB_PUT(&b, p, TRACK_DESCRIPTOR, track_descriptor, &td);
	}
	put_clocked(&b, 1, 5, 64, "m8");       /* 10010000 + 5000 + 5000 */
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select name, ts from slice order by name",
		   "m1\t1100000\nm2\t5500000\nm3\t3500000\nm4\t2000000\nm5\t10005000\nm6\t10010000\nm7\t5\n"
		   "m8\t10020000\n");
	assert_int_equal(tt_test_stat(tr, "proto_clock_unknown"), 1);
	tb_close(tr, path, &b);

	/* primary_trace_clock MONOTONIC (as Chrome): BOOTTIME values move */
	put_track(&b, 500, "clocks");
	tb_snapshot(&b, 1, 3, 6, 1000, 3, 100, 0, 0);
	put_clocked(&b, 1, 2000, 6, "boot");   /* 100 + (2000 - 1000) */
	put_clocked(&b, 1, 500, 0, "plain");
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select name, ts from slice order by name", "boot\t1100\nplain\t500\n");
	tb_close(tr, path, &b);
}

/* clock_snapshot keeps each snapshot that reaches the trace clock, each of
 * its clocks at the snapshot's instant; to_realtime, to_monotonic and
 * abs_time_str convert with it (trace processor's ClockConverter). */
static void test_clock_snapshot_table(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	put_track(&b, 500, "clocks");
	/* REALTIME: +1000 over the first 1000 ns of boot time, +500 over the next */
	tb_snapshot(&b, 1, 0, 6, 1000, 1, 1700000000000000000ull, 0, 0);
	tb_snapshot(&b, 1, 0, 6, 2000, 1, 1700000000000001000ull, 0, 0);
	tb_snapshot(&b, 1, 0, 6, 3000, 1, 1700000000000001500ull, 0, 0);
	tb_snapshot(&b, 1, 0, 6, 1500, 3, 50, 0, 0);
	tb_snapshot(&b, 1, 0, 6, 2500, 3, 700, 0, 0);
	tb_snapshot(&b, 1, 0, 6, 4000, 64, 7, 1, 1000); /* incremental, us: its value in ns */
	tb_snapshot(&b, 1, 0, 100, 1, 101, 2, 0, 0);     /* reaches no trace clock: no rows, a number */
	tb_snapshot(&b, 1, 0, 6, 5000, 3, 900, 0, 0);
	put_clocked(&b, 1, 1200, 0, "e");
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select ts, clock_id, coalesce(clock_name, '-'), clock_value, snapshot_id"
			       " from clock_snapshot order by id",
			   "1000\t6\tBOOTTIME\t1000\t0\n1000\t1\tREALTIME\t1700000000000000000\t0\n"
			   "2000\t6\tBOOTTIME\t2000\t1\n2000\t1\tREALTIME\t1700000000000001000\t1\n"
			   "3000\t6\tBOOTTIME\t3000\t2\n3000\t1\tREALTIME\t1700000000000001500\t2\n"
			   "1500\t6\tBOOTTIME\t1500\t3\n1500\t3\tMONOTONIC\t50\t3\n"
			   "2500\t6\tBOOTTIME\t2500\t4\n2500\t3\tMONOTONIC\t700\t4\n"
			   "4000\t6\tBOOTTIME\t4000\t5\n4000\t64\t-\t7000\t5\n"
			   "5000\t6\tBOOTTIME\t5000\t7\n5000\t3\tMONOTONIC\t900\t7\n");
	/* before the first snapshot: its value; at one: its value; between
	 * two: the earlier plus the distance, capped at the later; after
	 * the last: the last plus the distance */
	tt_test_assert_tsv(tr, "select to_realtime(500), to_realtime(2000), to_realtime(2800), to_realtime(4000)",
			   "1700000000000000000\t1700000000000001000\t1700000000000001500\t1700000000000002500\n");
	tt_test_assert_tsv(tr, "select to_monotonic(1000), to_monotonic(2000), to_monotonic(4000), to_monotonic(6000)",
			   "50\t550\t900\t1900\n");
	tt_test_assert_tsv(tr, "select abs_time_str(2000), abs_time_str(1500), coalesce(abs_time_str(null), '-')",
			   "2023-11-14T22:13:20.000001000\t2023-11-14T22:13:20.000000500\t-\n");
	tb_close(tr, path, &b);

	/* no REALTIME snapshot: NULL, as in Perfetto; the trace clock is
	 * MONOTONIC (as Chrome's), so past its snapshot to_monotonic is ts */
	put_track(&b, 500, "clocks");
	tb_snapshot(&b, 1, 3, 6, 1000, 3, 100, 0, 0);
	put_clocked(&b, 1, 500, 0, "plain");
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select coalesce(to_realtime(500), '-'), coalesce(abs_time_str(500), '-'),"
			       " to_monotonic(500), to_monotonic(40)", "-\t-\t500\t100\n");
	tb_close(tr, path, &b);
}

static void put_uuid_packet(tbuf *b, int64_t msb, int64_t lsb)
{
	Pkt p = pkt(1, 0);
	Perfetto__Protos__TraceUuid u = PERFETTO__PROTOS__TRACE_UUID__INIT;

	u.has_msb = u.has_lsb = 1;
	u.msb = msb;
	u.lsb = lsb;
	TB_PUT(b, p, TRACE_UUID, trace_uuid, &u);
}

static void put_config_packet(tbuf *b, int64_t msb, int64_t lsb, char *session)
{
	Pkt p = pkt(1, 0);
	Perfetto__Protos__TraceConfig tc = PERFETTO__PROTOS__TRACE_CONFIG__INIT;

	tc.has_trace_uuid_msb = tc.has_trace_uuid_lsb = 1;
	tc.trace_uuid_msb = msb;
	tc.trace_uuid_lsb = lsb;
	tc.unique_session_name = session;
	/* (the packet keeps its config as bytes: proto_service.c) */
	p.trace_config.len = perfetto__protos__trace_config__get_packed_size(&tc);
	p.trace_config.data = malloc(p.trace_config.len + 1);
	assert_non_null(p.trace_config.data);
	perfetto__protos__trace_config__pack(&tc, p.trace_config.data);
	p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACE_CONFIG;
	tb_packet(b, &p);
	free(p.trace_config.data);
}

/* metadata as trace processor writes it for a Perfetto trace: the type,
 * the size, the trace clock, the uuid (a TraceUuid packet wins over the
 * TraceConfig's, whichever comes first), the session name (and the
 * config as text: test_proto_service.c). */
static void test_trace_metadata(void **state)
{
	tbuf b = {0};
	char *path, want[64];
	tt_trace *tr;
	size_t size;

	(void)state;
	put_config_packet(&b, 0x0123456789abcdefll, (int64_t)0xfedcba9876543210ull, "my_session");
	put_uuid_packet(&b, 0x1111222233334444ll, 0x5555666677778888ll);
	tb_snapshot(&b, 1, 3, 6, 1000, 3, 100, 0, 0);
	put_clocked(&b, 1, 500, 0, "e");
	size = b.n;
	tr = tb_open(&b, &path);
	snprintf(want, sizeof(want), "proto\n11112222-3333-4444-5555-666677778888\nmy_session\n3\n%zu\n", size);
	tt_test_assert_tsv(tr, "select coalesce(str_value, int_value) from metadata where name in ('trace_type',"
			       " 'trace_uuid', 'unique_session_name', 'trace_time_clock_id', 'trace_size_bytes')"
			       " order by case name when 'trace_type' then 0 when 'trace_uuid' then 1"
			       " when 'unique_session_name' then 2 when 'trace_time_clock_id' then 3 else 4 end", want);
	tt_test_assert_tsv(tr, "select count(*), min(key_type), max(key_type), min(id), max(id) = count(*) - 1"
			       " from metadata", "6\tsingle\tsingle\t0\t1\n");
	/* the uuid the trace holds took the place of the file's hash */
	tt_test_assert_tsv(tr, "select id from metadata where name = 'trace_uuid'", "1\n");
	tb_close(tr, path, &b);

	/* the config's alone (no TraceUuid packet); the trace clock BOOTTIME
	 * when no snapshot names one */
	put_config_packet(&b, -1, 1, NULL);
	put_clocked(&b, 1, 500, 0, "e");
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select str_value from metadata where name = 'trace_uuid'",
			   "ffffffff-ffff-ffff-0000-000000000001\n");
	tt_test_assert_tsv(tr, "select int_value from metadata where name = 'trace_time_clock_id'", "6\n");
	tb_close(tr, path, &b);
}

static void put_android_info(tbuf *b, char *fingerprint, int64_t sdk, uint64_t ram)
{
	Perfetto__Protos__SystemInfo si = PERFETTO__PROTOS__SYSTEM_INFO__INIT;
	Pkt p = pkt(1, 0);

	si.android_build_fingerprint = fingerprint;
	si.has_android_sdk_version = sdk >= 0;
	si.android_sdk_version = (uint64_t)(sdk >= 0 ? sdk : 0);
	si.has_timezone_off_mins = 1;
	si.timezone_off_mins = -300;
	si.android_soc_model = "soc9";
	si.has_system_ram_bytes = ram != 0;
	si.system_ram_bytes = ram;
	TB_PUT(b, p, SYSTEM_INFO, system_info, &si);
}

/* SystemInfo's metadata as trace processor's SystemProbesParser writes
 * it: the fingerprint's incremental build, the SDK level from the
 * release when the packet does not give it, the RAM in bytes and GB. */
static void test_system_info_metadata(void **state)
{
	static const char sql[] = "select name || '=' || coalesce(str_value, int_value) from metadata"
				   " where name not glob 'trace_*' order by id";
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	put_android_info(&b, "acme/rocket/rocket:8.1/OPM1.171019/4417070:user/release-keys", -1, 7600000000ull);
	put_clocked(&b, 1, 500, 0, "e");
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, sql,
			   "timezone_off_mins=-300\n"
			   "android_build_fingerprint=acme/rocket/rocket:8.1/OPM1.171019/4417070:user/release-keys\n"
			   "android_incremental_build=4417070\nandroid_sdk_version=27\nandroid_soc_model=soc9\n"
			   "system_ram_bytes=7600000000\nsystem_ram_gb=8\n");
	tb_close(tr, path, &b);

	/* the packet's SDK level wins; an S build is 31; a fingerprint
	 * without the layout names only itself (same assertions, one table) */
	{
		static const struct { char *fp; int64_t sdk; const char *sql, *want; } cases[] = {
			{ "a/b/c:S/X/77:user/k", 33, "select int_value from metadata where name = 'android_sdk_version'",
			  "33\n" },
			{ "a/b/c:S/X/77:user/k", -1, "select int_value from metadata where name = 'android_sdk_version'",
			  "31\n" },
			{ "no layout here", -1, "select count(*) from metadata where name in ('android_sdk_version',"
						 " 'android_incremental_build')", "0\n" },
		};

		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			put_android_info(&b, cases[i].fp, cases[i].sdk, 0);
			put_clocked(&b, 1, 500, 0, "e");
			tr = tb_open(&b, &path);
			tt_test_assert_tsv(tr, cases[i].sql, cases[i].want);
			tb_close(tr, path, &b);
		}
	}
}

/* An ftrace bundle with print events (pid = writing tid) and sched_switch. */
static void test_ftrace_atrace_and_sched(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Pkt p;
	Perfetto__Protos__ProcessTree pt = PERFETTO__PROTOS__PROCESS_TREE__INIT;
	Perfetto__Protos__ProcessTree__Process pr = PERFETTO__PROTOS__PROCESS_TREE__PROCESS__INIT, *prp = &pr;
	Perfetto__Protos__ProcessTree__Thread th = PERFETTO__PROTOS__PROCESS_TREE__THREAD__INIT, *thp = &th;
	char *cmd = "/bin/app";
	static const struct { uint64_t ts; const char *buf; } prints[] = {
		{ 1000, "B|10|work\n" }, { 1100, "S|10|async|7" }, { 1500, "C|10|cnt|5" },
		{ 1900, "F|10|async|7" }, { 2000, "E|10" }, { 2500, "not a marker" },
	};
	Perfetto__Protos__FtraceEvent ev[6], *evp[6];
	Perfetto__Protos__PrintFtraceEvent pe[6];
	Perfetto__Protos__FtraceEventBundle fb = PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__INIT;
	Perfetto__Protos__FtraceEvent sw[3], *swp[3];
	Perfetto__Protos__SchedSwitchFtraceEvent ss[3];
	static const struct { uint64_t ts; int32_t prev_pid; int64_t prev_state; int32_t next_pid; const char *comm; } sws[] = {
		{ 100, 0, 0, 11, "worker" }, { 600, 11, 1, 0, "swapper/1" }, { 900, 0, 0, 11, "worker" },
	};
	size_t i;

	(void)state;
	p = pkt(1, 50);
	pr.has_pid = 1;
	pr.pid = 10;
	pr.n_cmdline = 1;
	pr.cmdline = &cmd;
	th.has_tid = 1;
	th.tid = 11;
	th.has_tgid = 1;
	th.tgid = 10;
	th.name = "worker";
	pt.n_processes = 1;
	pt.processes = &prp;
	pt.n_threads = 1;
	pt.threads = &thp;
	TB_PUT(&b, p, PROCESS_TREE, process_tree, &pt);

	for (i = 0; i < 6; i++) {
		perfetto__protos__ftrace_event__init(&ev[i]);
		perfetto__protos__print_ftrace_event__init(&pe[i]);
		pe[i].buf = (char *)prints[i].buf;
		ev[i].has_timestamp = ev[i].has_pid = 1;
		ev[i].timestamp = prints[i].ts;
		ev[i].pid = 11;
		ev[i].event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_PRINT;
		ev[i].print = &pe[i];
		evp[i] = &ev[i];
	}
	fb.has_cpu = 1;
	fb.cpu = 0;
	fb.n_event = 6;
	fb.event = evp;
	p = pkt(1, 0);
	TB_PUT(&b, p, FTRACE_EVENTS, ftrace_events, &fb);

	for (i = 0; i < 3; i++) {
		perfetto__protos__ftrace_event__init(&sw[i]);
		perfetto__protos__sched_switch_ftrace_event__init(&ss[i]);
		ss[i].has_prev_state = ss[i].has_next_pid = ss[i].has_next_prio = ss[i].has_prev_pid = 1;
		ss[i].prev_pid = sws[i].prev_pid;
		ss[i].prev_state = sws[i].prev_state;
		ss[i].next_pid = sws[i].next_pid;
		ss[i].next_prio = 120;
		ss[i].next_comm = (char *)sws[i].comm;
		sw[i].has_timestamp = 1;
		sw[i].timestamp = sws[i].ts;
		sw[i].event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_SWITCH;
		sw[i].sched_switch = &ss[i];
		swp[i] = &sw[i];
	}
	fb.cpu = 1;
	fb.n_event = 3;
	fb.event = swp;
	tb_packet(&b, &p);

	tr = tb_open(&b, &path);
	/* B/E on thread 11 of process 10 */
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.name, t.tid, t.name, pr.pid, pr.name from slice s "
		       "join thread_track tt on s.track_id = tt.id join thread t using(utid) "
		       "join process pr using(upid)",
		   "1000\t1000\twork\t11\tworker\t10\t/bin/app\n");
	/* S/F async on a process track */
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.name, t.type, pr.pid from slice s join track t on s.track_id = t.id "
		       "join process pr on pr.upid = t.upid where t.utid is null",
		   "1100\t800\tasync\tatrace_async_slice\t10\n");
	tt_test_assert_tsv(tr, "select t.name, c.ts, c.value from counter c join track t on c.track_id = t.id",
		   "cnt\t1500\t5.0\n");
	assert_int_equal(tt_test_stat(tr, "systrace_parse_failure"), 1);
	/* sched: the last slice is still open at the end (dur -1, as trace
	 * processor leaves it); the swapper has no thread_state */
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.cpu, t.tid, coalesce(s.end_state, '-'), s.priority "
		       "from sched_slice s join thread t using(utid) order by s.ts",
		   "100\t500\t1\t11\tS\t120\n600\t300\t1\t0\tR\t120\n900\t-1\t1\t11\t-\t120\n");
	tt_test_assert_tsv(tr, "select s.ts, s.dur, coalesce(s.cpu, -1), s.state from thread_state s join thread t using(utid) "
		       "where t.tid = 11 order by s.ts",
		   "100\t500\t1\tRunning\n600\t300\t-1\tS\n900\t-1\t1\tRunning\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from thread_state where utid = 0"), 0);
	tb_close(tr, path, &b);
}

/* One ftrace event in a bundle of cpu 0. */
static void ft_packet(tbuf *b, uint64_t ts, uint32_t pid, Perfetto__Protos__FtraceEvent *e)
{
	Perfetto__Protos__FtraceEventBundle fb = PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__INIT;
	Pkt p = pkt(1, 0);

	e->has_timestamp = e->has_pid = 1;
	e->timestamp = ts;
	e->pid = pid;
	fb.has_cpu = 1;
	fb.n_event = 1;
	fb.event = &e;
	TB_PUT(b, p, FTRACE_EVENTS, ftrace_events, &fb);
}

/* A sched_switch on cpu 0 from prev (switched out in raw prev_state) to next. */
static void ft_switch_st(tbuf *b, uint64_t ts, int32_t prev, const char *prev_comm, int64_t prev_state, int32_t next,
			 const char *next_comm)
{
	Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__SchedSwitchFtraceEvent ss = PERFETTO__PROTOS__SCHED_SWITCH_FTRACE_EVENT__INIT;

	ss.has_prev_pid = ss.has_next_pid = ss.has_prev_state = 1;
	ss.prev_pid = prev;
	ss.next_pid = next;
	ss.prev_state = prev_state;
	ss.prev_comm = (char *)prev_comm;
	ss.next_comm = (char *)next_comm;
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_SWITCH;
	e.sched_switch = &ss;
	ft_packet(b, ts, (uint32_t)prev, &e);
}

static void ft_switch(tbuf *b, uint64_t ts, int32_t prev, const char *prev_comm, int32_t next, const char *next_comm)
{
	ft_switch_st(b, ts, prev, prev_comm, 0, next, next_comm);
}

static void ft_newtask(tbuf *b, uint64_t ts, int32_t src, int32_t tid, const char *comm, uint64_t flags)
{
	Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__TaskNewtaskFtraceEvent nt = PERFETTO__PROTOS__TASK_NEWTASK_FTRACE_EVENT__INIT;

	nt.has_pid = nt.has_clone_flags = 1;
	nt.pid = tid;
	nt.comm = (char *)comm;
	nt.clone_flags = flags;
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_TASK_NEWTASK;
	e.task_newtask = &nt;
	ft_packet(b, ts, (uint32_t)src, &e);
}

static void ft_rename(tbuf *b, uint64_t ts, int32_t pid, const char *comm)
{
	Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__TaskRenameFtraceEvent rn = PERFETTO__PROTOS__TASK_RENAME_FTRACE_EVENT__INIT;

	rn.has_pid = 1;
	rn.pid = pid;
	rn.newcomm = (char *)comm;
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_TASK_RENAME;
	e.task_rename = &rn;
	ft_packet(b, ts, (uint32_t)pid, &e);
}

static void ft_free(tbuf *b, uint64_t ts, int32_t pid)
{
	Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__SchedProcessFreeFtraceEvent fr = PERFETTO__PROTOS__SCHED_PROCESS_FREE_FTRACE_EVENT__INIT;

	fr.has_pid = 1;
	fr.pid = pid;
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_PROCESS_FREE;
	e.sched_process_free = &fr;
	ft_packet(b, ts, (uint32_t)pid, &e);
}

static void ft_print(tbuf *b, uint64_t ts, int32_t tid, const char *text)
{
	Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__PrintFtraceEvent pe = PERFETTO__PROTOS__PRINT_FTRACE_EVENT__INIT;

	pe.buf = (char *)text;
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_PRINT;
	e.print = &pe;
	ft_packet(b, ts, (uint32_t)tid, &e);
}

/* The process tracker as trace processor's: threads cloned and processes
 * forked before their maker's process is known join it once the process
 * tree says; a renamed main thread renames its process; a freed tid comes
 * back as a new thread (the freed one has its end_ts, and so has its
 * process when it was the main thread); process tree names beat
 * sched_switch comms; a changed parent pid keeps the first parent; a
 * freed pid is a new process. */
static void test_ftrace_process_tracking(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	ft_switch(&b, 10, 0, "swapper/0", 20, "a-main");
	ft_switch(&b, 11, 20, "a-main", 21, "a-worker");
	ft_newtask(&b, 12, 21, 22, "a-clone", 0x00010000);
	ft_newtask(&b, 13, 22, 30, "b", 0);
	tree_packet(&b, 14, 20, 1, "/bin/a", 21, "tree-name");
	ft_rename(&b, 15, 30, "b-renamed");
	tree_packet(&b, 16, 30, 7, "b-renamed", 0, NULL); /* reparented: stays 20's */
	ft_free(&b, 17, 30);
	ft_newtask(&b, 18, 20, 30, "a-30", 0x00010000);
	ft_switch(&b, 19, 21, "a-worker", 30, "a-30x");
	ft_switch(&b, 20, 30, "a-30x", 0, "swapper/0");
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select t.utid, t.tid, coalesce(p.pid, -1), coalesce(p.name, '-'), coalesce(t.name, '-'), "
		       "coalesce(pp.pid, -1) from thread t left join process p using(upid) "
		       "left join process pp on pp.upid = p.parent_upid order by t.utid",
		   "0\t0\t0\t-\tswapper\t-1\n"
		   "1\t20\t20\t/bin/a\ta-main\t1\n"
		   "2\t21\t20\t/bin/a\ttree-name\t1\n"
		   "3\t22\t20\t/bin/a\ta-clone\t1\n"
		   "4\t30\t30\tb-renamed\tb-renamed\t20\n"
		   "5\t1\t1\t-\t-\t-1\n"
		   "6\t7\t7\t-\t-\t-1\n"
		   "7\t30\t20\t/bin/a\ta-30x\t1\n");
	/* the switch to tid 30 at 19 ran the new thread */
	tt_test_assert_tsv(tr, "select s.ts, s.utid from sched_slice s where s.ts = 19", "19\t7\n");
	/* the free of 30 (a main thread) ended its thread and its process */
	tt_test_assert_tsv(tr, "select utid, end_ts from thread where end_ts is not null", "4\t17\n");
	tt_test_assert_tsv(tr, "select pid, end_ts from process where end_ts is not null", "30\t17\n");
	tb_close(tr, path, &b);
}

/* A thread descriptor's name outranks ftrace's comm (trace processor's
 * ThreadNamePriority): sched_switch's 15-byte comm does not shorten it,
 * before or after; a thread ftrace alone names keeps the comm, and the
 * idle thread stays "swapper" (the importer's own name). */
static void test_descriptor_name_beats_ftrace(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	ft_switch(&b, 10, 0, "swapper/0", 21, "ThreadPoolForeg");
	put_thread_track(&b, 1, 100, 20, 21, "ThreadPoolForegroundWorker");
	ft_switch(&b, 20, 21, "ThreadPoolForeg", 22, "only-ftrace");
	ft_switch(&b, 30, 22, "only-ftrace", 0, "swapper/1");
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select tid, name from thread where tid in (0, 21, 22) order by tid",
			   "0\tswapper\n"
			   "21\tThreadPoolForegroundWorker\n"
			   "22\tonly-ftrace\n");
	tb_close(tr, path, &b);
}

/* A legacy metadata event (phase 'M') at ts on the thread track uuid:
 * name (thread_name / process_name) with its first debug annotation
 * "name" = value (NULL: no annotation). */
static void put_meta(tbuf *b, uint64_t ts, uint64_t uuid, const char *name, const char *value)
{
	Pkt p = pkt(1, ts);
	TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	Perfetto__Protos__TrackEvent__LegacyEvent le = PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__INIT;
	Perfetto__Protos__DebugAnnotation a = PERFETTO__PROTOS__DEBUG_ANNOTATION__INIT, *ap = &a;

	le.has_phase = 1;
	le.phase = 'M';
	te.legacy_event = &le;
	te_set(&te, -1, (int64_t)uuid, name);
	a.name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME;
	a.name = "name";
	a.value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE;
	a.string_value = (char *)value;
	te.n_debug_annotations = value ? 1 : 0;
	te.debug_annotations = &ap;
	TB_PUT(b, p, TRACK_EVENT, track_event, &te);
}

/* Legacy 'M' events as trace processor's ParseMetadataEvent: thread_name
 * names the thread (above ftrace's comm, below a thread descriptor's
 * name), process_name the process; in trace order (the later of two
 * wins); one without annotations is a parser error; other metadata
 * names are not kept, and make no slice. */
static void test_legacy_metadata_events(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	put_thread_track(&b, 1, 100, 20, 21, NULL);
	put_thread_track(&b, 1, 101, 20, 22, "descriptor-name");
	put_meta(&b, 30, 100, "thread_name", "late");
	put_meta(&b, 20, 100, "thread_name", "early");
	put_meta(&b, 10, 101, "thread_name", "meta-name");
	put_meta(&b, 10, 100, "process_name", "Browser");
	put_meta(&b, 40, 100, "thread_name", NULL);
	put_meta(&b, 40, 100, "trace_config", "x");
	ft_switch(&b, 50, 0, "swapper/0", 21, "comm-21");
	ft_switch(&b, 60, 21, "comm-21", 0, "swapper/0");
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select tid, name from thread where tid in (21, 22) order by tid",
			   "21\tlate\n"
			   "22\tdescriptor-name\n");
	tt_test_assert_tsv(tr, "select pid, name from process where pid = 20", "20\tBrowser\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 0);
	assert_int_equal(tt_test_int(tr, "select value from stats where name = 'track_event_parser_errors'"), 1);
	assert_int_equal(tt_test_int(tr, "select value from stats where name = 'proto_legacy_unsupported'"), 1);
	tb_close(tr, path, &b);
}

/* Interrupts and workqueues as trace processor's FtraceParser: irq and
 * local timer slices on "Irq Cpu N" (cpu_irq), softirqs on "SoftIrq Cpu N"
 * (cpu_softirq), category irq, the exits' ret / vec as args; workqueue
 * slices on the writing thread named by the function's interned symbol
 * or its address, with the cpu; every event an ftrace_event row. */
static void test_ftrace_irqs_and_workqueues(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Perfetto__Protos__FtraceEvent e;
	Perfetto__Protos__IrqHandlerEntryFtraceEvent ie = PERFETTO__PROTOS__IRQ_HANDLER_ENTRY_FTRACE_EVENT__INIT;
	Perfetto__Protos__IrqHandlerExitFtraceEvent ix = PERFETTO__PROTOS__IRQ_HANDLER_EXIT_FTRACE_EVENT__INIT;
	Perfetto__Protos__SoftirqEntryFtraceEvent se = PERFETTO__PROTOS__SOFTIRQ_ENTRY_FTRACE_EVENT__INIT;
	Perfetto__Protos__SoftirqExitFtraceEvent sx = PERFETTO__PROTOS__SOFTIRQ_EXIT_FTRACE_EVENT__INIT;
	Perfetto__Protos__LocalTimerEntryFtraceEvent le = PERFETTO__PROTOS__LOCAL_TIMER_ENTRY_FTRACE_EVENT__INIT;
	Perfetto__Protos__LocalTimerExitFtraceEvent lx = PERFETTO__PROTOS__LOCAL_TIMER_EXIT_FTRACE_EVENT__INIT;
	Perfetto__Protos__WorkqueueExecuteStartFtraceEvent ws = PERFETTO__PROTOS__WORKQUEUE_EXECUTE_START_FTRACE_EVENT__INIT;
	Perfetto__Protos__WorkqueueExecuteEndFtraceEvent we = PERFETTO__PROTOS__WORKQUEUE_EXECUTE_END_FTRACE_EVENT__INIT;

	(void)state;
#define EV(CASE, member, msg) (perfetto__protos__ftrace_event__init(&e), \
			       e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_##CASE, e.member = (msg), &e)
	ie.has_irq = 1;
	ie.irq = 27;
	ie.name = "eth0";
	ft_event_cpu(&b, 100, 1, 0, EV(IRQ_HANDLER_ENTRY, irq_handler_entry, &ie), NULL);
	ix.has_ret = 1;
	ix.ret = 1;
	ft_event_cpu(&b, 110, 1, 0, EV(IRQ_HANDLER_EXIT, irq_handler_exit, &ix), NULL);
	ft_event_cpu(&b, 120, 1, 0, EV(LOCAL_TIMER_ENTRY, local_timer_entry, &le), NULL);
	ft_event_cpu(&b, 125, 1, 0, EV(LOCAL_TIMER_EXIT, local_timer_exit, &lx), NULL);
	ie.name = "mmc";
	ft_event_cpu(&b, 130, 2, 0, EV(IRQ_HANDLER_ENTRY, irq_handler_entry, &ie), NULL);
	ix.ret = 0;
	ft_event_cpu(&b, 140, 2, 0, EV(IRQ_HANDLER_EXIT, irq_handler_exit, &ix), NULL);
	se.has_vec = sx.has_vec = 1;
	se.vec = sx.vec = 3;
	ft_event_cpu(&b, 150, 1, 0, EV(SOFTIRQ_ENTRY, softirq_entry, &se), NULL);
	ft_event_cpu(&b, 160, 1, 0, EV(SOFTIRQ_EXIT, softirq_exit, &sx), NULL);
	se.vec = 10; /* no such vector: no slice */
	ft_event_cpu(&b, 170, 1, 0, EV(SOFTIRQ_ENTRY, softirq_entry, &se), NULL);
	ws.has_function = 1;
	ws.function = 0x1234;
	ft_event_cpu(&b, 200, 0, 42, EV(WORKQUEUE_EXECUTE_START, workqueue_execute_start, &ws), "do_work");
	ft_event_cpu(&b, 210, 0, 42, EV(WORKQUEUE_EXECUTE_END, workqueue_execute_end, &we), NULL);
	ws.function = 0xabc;
	ft_event_cpu(&b, 220, 3, 42, EV(WORKQUEUE_EXECUTE_START, workqueue_execute_start, &ws), NULL);
	ft_event_cpu(&b, 230, 3, 42, EV(WORKQUEUE_EXECUTE_END, workqueue_execute_end, &we), NULL);
#undef EV
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.category, s.name, t.name, t.type,"
			       " coalesce((select group_concat(key || '=' || display_value, ' ') from args a"
			       " where a.arg_set_id = s.arg_set_id), '-') from slice s join track t on t.id = s.track_id"
			       " order by s.ts",
			   "100\t10\tirq\tIRQ (eth0)\tIrq Cpu 1\tcpu_irq\tret=handled\n"
			   "120\t5\tirq\tIRQ (LocalTimer)\tIrq Cpu 1\tcpu_irq\t-\n"
			   "130\t10\tirq\tIRQ (mmc)\tIrq Cpu 2\tcpu_irq\tret=unhandled\n"
			   "150\t10\tirq\tNET_RX\tSoftIrq Cpu 1\tcpu_softirq\tvec=3\n"
			   "200\t10\tworkqueue\tdo_work\tNULL\tthread\tcpu=0\n"
			   "220\t10\tworkqueue\t0xabc\tNULL\tthread\tcpu=3\n");
	tt_test_assert_tsv(tr, "select t.type, extract_arg(t.dimension_arg_set_id, 'cpu') from track t"
			       " where t.type like 'cpu_%irq' order by t.id",
			   "cpu_irq\t1\ncpu_irq\t2\ncpu_softirq\t1\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from ftrace_event where name in ('irq_handler_entry',"
				     " 'irq_handler_exit', 'softirq_entry', 'softirq_exit', 'local_timer_entry',"
				     " 'local_timer_exit', 'workqueue_execute_start', 'workqueue_execute_end')"), 13);
	assert_int_equal(tt_test_int(tr, "select count(*) from thread_track tt join thread using(utid)"
				     " where tid = 42"), 1);
	tb_close(tr, path, &b);
}

/* The kernel's counters from ftrace, on the tracks systrace text makes
 * for the same events (test_systrace json_counters_and_workqueues):
 * cpu_frequency_limits (max and min), clock rate and states (enable and
 * disable on one track), thermal zones, cooling devices; their
 * dimensions. */
static void test_ftrace_kernel_counters(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Perfetto__Protos__FtraceEvent e;
	Perfetto__Protos__CpuFrequencyLimitsFtraceEvent fl = PERFETTO__PROTOS__CPU_FREQUENCY_LIMITS_FTRACE_EVENT__INIT;
	Perfetto__Protos__ClockSetRateFtraceEvent cr = PERFETTO__PROTOS__CLOCK_SET_RATE_FTRACE_EVENT__INIT;
	Perfetto__Protos__ClockEnableFtraceEvent ce = PERFETTO__PROTOS__CLOCK_ENABLE_FTRACE_EVENT__INIT;
	Perfetto__Protos__ClockDisableFtraceEvent cd = PERFETTO__PROTOS__CLOCK_DISABLE_FTRACE_EVENT__INIT;
	Perfetto__Protos__ThermalTemperatureFtraceEvent th = PERFETTO__PROTOS__THERMAL_TEMPERATURE_FTRACE_EVENT__INIT;
	Perfetto__Protos__CdevUpdateFtraceEvent cu = PERFETTO__PROTOS__CDEV_UPDATE_FTRACE_EVENT__INIT;

	(void)state;
#define EV(CASE, member, msg) (perfetto__protos__ftrace_event__init(&e), \
			       e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_##CASE, e.member = (msg), &e)
	fl.has_cpu_id = fl.has_max_freq = fl.has_min_freq = 1;
	fl.cpu_id = 2;
	fl.max_freq = 900;
	fl.min_freq = 100;
	ft_event_cpu(&b, 4000, 2, 5, EV(CPU_FREQUENCY_LIMITS, cpu_frequency_limits, &fl), NULL);
	cr.name = ce.name = cd.name = "gpu_clk";
	cr.has_state = ce.has_state = 1;
	cr.state = 800;
	ce.state = 1;
	ft_event_cpu(&b, 5000, 2, 5, EV(CLOCK_SET_RATE, clock_set_rate, &cr), NULL);
	ft_event_cpu(&b, 6000, 2, 5, EV(CLOCK_ENABLE, clock_enable, &ce), NULL);
	ft_event_cpu(&b, 6500, 2, 5, EV(CLOCK_DISABLE, clock_disable, &cd), NULL);
	th.thermal_zone = "cpu0";
	th.has_temp = 1;
	th.temp = 45000;
	ft_event_cpu(&b, 7000, 2, 5, EV(THERMAL_TEMPERATURE, thermal_temperature, &th), NULL);
	cu.type = "fan";
	cu.has_target = 1;
	cu.target = 2;
	ft_event_cpu(&b, 8000, 2, 5, EV(CDEV_UPDATE, cdev_update, &cu), NULL);
#undef EV
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr,
			   "select t.name, t.type, c.ts, c.value from counter c join track t on c.track_id = t.id"
			   " order by c.ts, t.name",
			   "Cpu 2 Max Freq Limit\tcpu_max_frequency_limit\t4000\t900.0\n"
			   "Cpu 2 Min Freq Limit\tcpu_min_frequency_limit\t4000\t100.0\n"
			   "gpu_clk Frequency\tclock_frequency\t5000\t800.0\n"
			   "gpu_clk State\tclock_state\t6000\t1.0\n"
			   "gpu_clk State\tclock_state\t6500\t0.0\n"
			   "cpu0 Temperature\tthermal_temperature\t7000\t45000.0\n"
			   "fan Cooling Device\tcooling_device_counter\t8000\t2.0\n");
	tt_test_assert_tsv(tr,
			   "select t.name, a.key, a.display_value from track t join args a"
			   " on a.arg_set_id = t.dimension_arg_set_id where t.name in ('Cpu 2 Max Freq Limit', 'gpu_clk State',"
			   " 'cpu0 Temperature', 'fan Cooling Device') order by t.name",
			   "Cpu 2 Max Freq Limit\tcpu\t2\n"
			   "cpu0 Temperature\tthermal_zone\tcpu0\n"
			   "fan Cooling Device\tlinux_device\tfan\n"
			   "gpu_clk State\tlinux_device\tgpu_clk\n");
	tb_close(tr, path, &b);
}

/* logcat lines as trace processor's android_logs (and logs): CLOCK_REALTIME
 * times converted to the trace clock (a line before any snapshot that
 * links the clocks: dropped), in trace order; the thread (pid, tid);
 * priority 0 as info (4); a binary log's args after its message, or in
 * its place; an empty tag or message NULL; the data source's counts as
 * stats. */
static void test_android_logs(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Perfetto__Protos__AndroidLogPacket lp = PERFETTO__PROTOS__ANDROID_LOG_PACKET__INIT;
	Perfetto__Protos__AndroidLogPacket__LogEvent ev[4];
	Perfetto__Protos__AndroidLogPacket__LogEvent *evp[] = { &ev[0], &ev[1], &ev[2], &ev[3] };
	Perfetto__Protos__AndroidLogPacket__LogEvent__Arg ar[3];
	Perfetto__Protos__AndroidLogPacket__LogEvent__Arg *arp[] = { &ar[0], &ar[1], &ar[2] };
	Perfetto__Protos__AndroidLogPacket__Stats lst = PERFETTO__PROTOS__ANDROID_LOG_PACKET__STATS__INIT;
	Pkt p;

	(void)state;
	for (int i = 0; i < 4; i++) {
		perfetto__protos__android_log_packet__log_event__init(&ev[i]);
		ev[i].has_pid = ev[i].has_tid = ev[i].has_timestamp = 1;
		ev[i].pid = 100;
		ev[i].tid = 101 + i % 2;
	}
	for (int i = 0; i < 3; i++)
		perfetto__protos__android_log_packet__log_event__arg__init(&ar[i]);
	/* before any snapshot: no way to the trace clock, dropped */
	ev[0].timestamp = 5000000100ull;
	ev[0].message = "dropped";
	lp.n_events = 1;
	lp.events = evp;
	p = pkt(1, 0);
	TB_PUT(&b, p, ANDROID_LOG, android_log, &lp);
	/* realtime 5,000,000,000 is boottime 1,000 */
	tb_snapshot(&b, 1, 0, 6, 1000, 1, 5000000000ull, 0, 0);
	ev[0].timestamp = 5000000500ull;
	ev[0].tag = "ActivityManager";
	ev[0].message = "Start proc";
	ev[0].has_prio = 1;
	ev[0].prio = 6;
	ev[1].timestamp = 5000000200ull; /* earlier: first in trace order */
	ev[1].tag = "";
	ev[1].message = "no tag";
	ar[0].name = "a";
	ar[0].value_case = PERFETTO__PROTOS__ANDROID_LOG_PACKET__LOG_EVENT__ARG__VALUE_INT_VALUE;
	ar[0].int_value = 7;
	ar[1].name = "s";
	ar[1].value_case = PERFETTO__PROTOS__ANDROID_LOG_PACKET__LOG_EVENT__ARG__VALUE_STRING_VALUE;
	ar[1].string_value = "x y";
	ar[2].name = "f";
	ar[2].value_case = PERFETTO__PROTOS__ANDROID_LOG_PACKET__LOG_EVENT__ARG__VALUE_FLOAT_VALUE;
	ar[2].float_value = 1.5f;
	ev[2].timestamp = 5000000800ull;
	ev[2].tag = "am_proc";
	ev[2].n_args = 3;
	ev[2].args = arp;
	ev[3].timestamp = 5000000900ull;
	ev[3].tag = "t";
	ev[3].message = "m";
	ev[3].n_args = 1;
	ev[3].args = arp;
	lp.n_events = 4;
	lp.events = evp;
	lst.has_num_total = lst.has_num_failed = 1;
	lst.num_total = 10;
	lst.num_failed = 2;
	lp.stats = &lst;
	p = pkt(1, 0);
	TB_PUT(&b, p, ANDROID_LOG, android_log, &lp);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select l.ts, t.tid, p.pid, l.prio, coalesce(l.tag, 'NULL'), coalesce(l.msg, 'NULL')"
			       " from android_logs l join thread t using(utid) left join process p using(upid) order by l.id",
			   "1200\t102\t100\t4\tNULL\tno tag\n"
			   "1500\t101\t100\t6\tActivityManager\tStart proc\n"
			   "1800\t101\t100\t4\tam_proc\ta=7 s=\"x y\" f=1.500000\n"
			   "1900\t102\t100\t4\tt\tm a=7\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from logs where log_source = 'android_logcat'"), 4);
	tt_test_assert_tsv(tr, "select name, value from stats where name like 'android_log%' order by name",
			   "android_log_num_failed\t2\nandroid_log_num_skipped\t0\nandroid_log_num_total\t10\n");
	tb_close(tr, path, &b);
}

/* PackagesList as trace processor's package_list: a package once, the
 * first time it is listed (a later packet's copy dropped); uid,
 * debuggable, profileable and version as given; the data source's read
 * and parse errors as stats. */
static void test_packages_list(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Perfetto__Protos__PackagesList pl = PERFETTO__PROTOS__PACKAGES_LIST__INIT;
	Perfetto__Protos__PackagesList__PackageInfo pi[3];
	Perfetto__Protos__PackagesList__PackageInfo *pip[] = { &pi[0], &pi[1], &pi[2] };
	Pkt p;

	(void)state;
	for (int i = 0; i < 3; i++) {
		perfetto__protos__packages_list__package_info__init(&pi[i]);
		pi[i].has_uid = pi[i].has_version_code = 1;
	}
	pi[0].name = "com.example.app";
	pi[0].uid = 10123;
	pi[0].has_debuggable = 1;
	pi[0].debuggable = 1;
	pi[0].version_code = 42;
	pi[1].name = "com.android.systemui";
	pi[1].uid = 10050;
	pi[1].has_profileable_from_shell = 1;
	pi[1].profileable_from_shell = 1;
	pi[1].version_code = 7;
	pl.n_packages = 2;
	pl.packages = pip;
	pl.has_parse_error = 1;
	pl.parse_error = 1;
	p = pkt(1, 10);
	TB_PUT(&b, p, PACKAGES_LIST, packages_list, &pl);
	/* the second packet lists the app again (another uid: dropped) */
	pi[2] = pi[0];
	pi[2].uid = 99;
	pi[1].name = "com.other";
	pi[1].uid = 10200;
	pl.packages = pip + 1;
	pl.parse_error = 0;
	pl.has_read_error = 1;
	pl.read_error = 1;
	p = pkt(1, 20);
	TB_PUT(&b, p, PACKAGES_LIST, packages_list, &pl);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select package_name, uid, debuggable, profileable_from_shell, version_code"
			       " from package_list order by id",
			   "com.example.app\t10123\t1\t0\t42\n"
			   "com.android.systemui\t10050\t0\t1\t7\n"
			   "com.other\t10200\t0\t1\t7\n");
	tt_test_assert_tsv(tr, "select name, value from stats where name like 'packages_list%' order by name",
			   "packages_list_has_parse_errors\t0\npackages_list_has_read_errors\t1\n");
	tb_close(tr, path, &b);
}

/* SysStats as trace processor's SystemProbesParser: meminfo in bytes on
 * tracks named by the /proc key (an unknown key counted), vmstat,
 * cpu.times.* per cpu, interrupts per irq and their totals, forks,
 * pressure, thermal zones (in C), device and cpu frequencies on the
 * tracks ftrace's events use. */
static void test_sys_stats(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Perfetto__Protos__SysStats ss = PERFETTO__PROTOS__SYS_STATS__INIT;
	Perfetto__Protos__SysStats__MeminfoValue mi[3];
	Perfetto__Protos__SysStats__MeminfoValue *mip[] = { &mi[0], &mi[1], &mi[2] };
	Perfetto__Protos__SysStats__VmstatValue vm = PERFETTO__PROTOS__SYS_STATS__VMSTAT_VALUE__INIT, *vmp = &vm;
	Perfetto__Protos__SysStats__CpuTimes ct = PERFETTO__PROTOS__SYS_STATS__CPU_TIMES__INIT, *ctp = &ct;
	Perfetto__Protos__SysStats__InterruptCount ic = PERFETTO__PROTOS__SYS_STATS__INTERRUPT_COUNT__INIT, *icp = &ic;
	Perfetto__Protos__SysStats__PsiSample ps = PERFETTO__PROTOS__SYS_STATS__PSI_SAMPLE__INIT, *psp = &ps;
	Perfetto__Protos__SysStats__ThermalZone tz = PERFETTO__PROTOS__SYS_STATS__THERMAL_ZONE__INIT, *tzp = &tz;
	Perfetto__Protos__SysStats__DevfreqValue df = PERFETTO__PROTOS__SYS_STATS__DEVFREQ_VALUE__INIT, *dfp = &df;
	uint32_t khz[] = { 1000, 2000 };
	Pkt p;

	(void)state;
	for (int i = 0; i < 3; i++) {
		perfetto__protos__sys_stats__meminfo_value__init(&mi[i]);
		mi[i].has_key = mi[i].has_value = 1;
	}
	mi[0].key = 1; /* MemTotal */
	mi[0].value = 100;
	mi[1].key = 3; /* MemAvailable */
	mi[1].value = 50;
	mi[2].key = 999;
	ss.n_meminfo = 3;
	ss.meminfo = mip;
	vm.has_key = vm.has_value = 1;
	vm.key = 1;
	vm.value = 42;
	ss.n_vmstat = 1;
	ss.vmstat = &vmp;
	ct.has_cpu_id = ct.has_user_ns = ct.has_idle_ns = 1;
	ct.cpu_id = 1;
	ct.user_ns = 11;
	ct.idle_ns = 22;
	ss.n_cpu_stat = 1;
	ss.cpu_stat = &ctp;
	ic.has_irq = ic.has_count = 1;
	ic.irq = 5;
	ic.count = 7;
	ss.n_num_irq = 1;
	ss.num_irq = &icp;
	ss.has_num_forks = 1;
	ss.num_forks = 3;
	ps.has_resource = ps.has_total_ns = 1;
	ps.resource = 1;
	ps.total_ns = 123;
	ss.n_psi = 1;
	ss.psi = &psp;
	tz.type = "cpu-thermal";
	tz.has_temp = 1;
	tz.temp = 45;
	ss.n_thermal_zone = 1;
	ss.thermal_zone = &tzp;
	df.key = "ddr";
	df.has_value = 1;
	df.value = 800;
	ss.n_devfreq = 1;
	ss.devfreq = &dfp;
	ss.n_cpufreq_khz = 2;
	ss.cpufreq_khz = khz;
	p = pkt(1, 1000);
	TB_PUT(&b, p, SYS_STATS, sys_stats, &ss);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select t.name, t.type, coalesce(t.unit, '-'), c.value,"
			       " (select group_concat(key || '=' || display_value, ' ') from args a"
			       " where a.arg_set_id = t.dimension_arg_set_id)"
			       " from counter c join counter_track t on c.track_id = t.id where c.ts = 1000 order by c.id",
			   "MemTotal\tmeminfo\tbytes\t102400.0\tmeminfo_key=MemTotal\n"
			   "MemAvailable\tmeminfo\tbytes\t51200.0\tmeminfo_key=MemAvailable\n"
			   "ddr Frequency\tclock_frequency\t-\t800.0\tlinux_device=ddr\n"
			   "cpufreq\tcpu_frequency\t-\t1000.0\tcpu=0\n"
			   "cpufreq\tcpu_frequency\t-\t2000.0\tcpu=1\n"
			   "nr_free_pages\tvmstat\t-\t42.0\tvmstat_key=nr_free_pages\n"
			   "cpu.times.user_ns\tcpustat\t-\t11.0\tcpu=1 cpustat_key=user_ns\n"
			   "cpu.times.user_nice_ns\tcpustat\t-\t0.0\tcpu=1 cpustat_key=user_nice_ns\n"
			   "cpu.times.system_mode_ns\tcpustat\t-\t0.0\tcpu=1 cpustat_key=system_mode_ns\n"
			   "cpu.times.idle_ns\tcpustat\t-\t22.0\tcpu=1 cpustat_key=idle_ns\n"
			   "cpu.times.io_wait_ns\tcpustat\t-\t0.0\tcpu=1 cpustat_key=io_wait_ns\n"
			   "cpu.times.irq_ns\tcpustat\t-\t0.0\tcpu=1 cpustat_key=irq_ns\n"
			   "cpu.times.softirq_ns\tcpustat\t-\t0.0\tcpu=1 cpustat_key=softirq_ns\n"
			   "cpu.times.steal_ns\tcpustat\t-\t0.0\tcpu=1 cpustat_key=steal_ns\n"
			   "num_irq (id: 5)\tnum_irq\t-\t7.0\tirq=5\n"
			   "num_forks\tnum_forks\t-\t3.0\tNULL\n"
			   "psi.cpu.some\tpsi\t-\t123.0\tpsi_resource=cpu.some\n"
			   "cpu-thermal\tthermal_temperature_sys\tC\t45.0\tthermal_zone=cpu-thermal\n");
	assert_int_equal(tt_test_int(tr, "select value from stats where name = 'meminfo_unknown_keys'"), 1);
	tb_close(tr, path, &b);
}

/* SysStats' buddyinfo (chunk sizes from SystemInfo's page size), disk
 * stats (from the second sample: what the device did since the one
 * before), cpuidle states (us), slab info (bytes from the page size, its
 * factors as args). */
static void test_sys_stats_memory_and_disks(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Perfetto__Protos__SystemInfo si = PERFETTO__PROTOS__SYSTEM_INFO__INIT;
	Perfetto__Protos__SysStats ss = PERFETTO__PROTOS__SYS_STATS__INIT;
	Perfetto__Protos__SysStats__BuddyInfo bi = PERFETTO__PROTOS__SYS_STATS__BUDDY_INFO__INIT, *bip = &bi;
	Perfetto__Protos__SysStats__DiskStat ds = PERFETTO__PROTOS__SYS_STATS__DISK_STAT__INIT, *dsp = &ds;
	Perfetto__Protos__SysStats__CpuIdleStateEntry ce = PERFETTO__PROTOS__SYS_STATS__CPU_IDLE_STATE_ENTRY__INIT, *cep = &ce;
	Perfetto__Protos__SysStats__CpuIdleState cs = PERFETTO__PROTOS__SYS_STATS__CPU_IDLE_STATE__INIT, *csp = &cs;
	Perfetto__Protos__SysStats__SlabInfo sl = PERFETTO__PROTOS__SYS_STATS__SLAB_INFO__INIT, *slp = &sl;
	uint32_t pages[] = { 10, 5 };
	Pkt p;

	(void)state;
	si.has_page_size = 1;
	si.page_size = 16384;
	p = pkt(1, 0);
	TB_PUT(&b, p, SYSTEM_INFO, system_info, &si);
	bi.node = "Node 0";
	bi.zone = "Normal";
	bi.n_order_pages = 2;
	bi.order_pages = pages;
	ss.n_buddy_info = 1;
	ss.buddy_info = &bip;
	ds.device_name = "sda";
	ds.has_read_sectors = ds.has_read_time_ms = 1;
	ds.read_sectors = 2048;
	ds.read_time_ms = 100;
	ss.n_disk_stat = 1;
	ss.disk_stat = &dsp;
	ce.state = "C1";
	ce.has_duration_us = 1;
	ce.duration_us = 123;
	cs.has_cpu_id = 1;
	cs.n_cpuidle_state_entry = 1;
	cs.cpuidle_state_entry = &cep;
	ss.n_cpuidle_state = 1;
	ss.cpuidle_state = &csp;
	sl.name = "kmalloc-64";
	sl.has_pages_per_slab = sl.has_num_slabs = 1;
	sl.pages_per_slab = 1;
	sl.num_slabs = 10;
	ss.n_slab_info = 1;
	ss.slab_info = &slp;
	p = pkt(1, 1000);
	TB_PUT(&b, p, SYS_STATS, sys_stats, &ss);
	ss.n_buddy_info = ss.n_cpuidle_state = ss.n_slab_info = 0;
	ds.read_sectors = 6144;
	ds.read_time_ms = 300;
	p = pkt(1, 2000);
	TB_PUT(&b, p, SYS_STATS, sys_stats, &ss);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select c.ts, t.name, t.type, coalesce(t.unit, '-'), c.value from counter c"
			       " join counter_track t on c.track_id = t.id where t.name not like 'diskstat%'"
			       " or t.name in ('diskstat.[sda].read_amount', 'diskstat.[sda].read_throughput',"
			       " 'diskstat.[sda].write_amount') order by c.id",
			   "1000\tmem.buddyinfo[Node 0][Normal][16 kB]\tbuddyinfo\t-\t10.0\n"
			   "1000\tmem.buddyinfo[Node 0][Normal][32 kB]\tbuddyinfo\t-\t5.0\n"
			   "1000\tcpuidle0.C1\tcpu_idle_state\tus\t123.0\n"
			   "1000\tmem.slab.kmalloc-64\tslabinfo\tbytes\t163840.0\n"
			   "2000\tdiskstat.[sda].read_amount\tdiskstat\tMB\t2.0\n"
			   "2000\tdiskstat.[sda].read_throughput\tdiskstat\tMB/s\t10.0\n"
			   "2000\tdiskstat.[sda].write_amount\tdiskstat\tMB\t0.0\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from counter c join counter_track t on c.track_id = t.id"
				     " where t.type = 'diskstat'"), 8);
	tt_test_assert_tsv(tr, "select a.key, a.display_value from counter c join counter_track t on c.track_id = t.id"
			       " join args a on a.arg_set_id = c.arg_set_id where t.type = 'slabinfo' order by a.id",
			   "pages_per_slab\t1\nnum_slabs\t10\n");
	tb_close(tr, path, &b);
}

/* BatteryCounters as trace processor's: "batt.<name>.<counter>" tracks
 * (no name: "batt.<counter>"), the charge from energy and voltage when
 * not given, the power from current and voltage (positive). */
static void test_battery_counters(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Perfetto__Protos__BatteryCounters bc = PERFETTO__PROTOS__BATTERY_COUNTERS__INIT;
	Pkt p;

	(void)state;
	bc.name = "bq27";
	bc.has_charge_counter_uah = bc.has_capacity_percent = bc.has_current_ua = bc.has_voltage_uv = 1;
	bc.charge_counter_uah = 3000000;
	bc.capacity_percent = 85.5f;
	bc.current_ua = -500000;
	bc.voltage_uv = 4000000;
	p = pkt(1, 1000);
	TB_PUT(&b, p, BATTERY, battery, &bc);
	perfetto__protos__battery_counters__init(&bc);
	bc.has_energy_counter_uwh = bc.has_voltage_uv = 1;
	bc.energy_counter_uwh = 40000000;
	bc.voltage_uv = 4000000;
	p = pkt(1, 2000);
	TB_PUT(&b, p, BATTERY, battery, &bc);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select c.ts, t.name, t.type, c.value,"
			       " extract_arg(t.dimension_arg_set_id, 'counter_name') from counter c"
			       " join counter_track t on c.track_id = t.id order by c.id",
			   "1000\tbatt.bq27.charge_uah\tbattery_counter\t3000000.0\tcharge_uah\n"
			   "1000\tbatt.bq27.capacity_pct\tbattery_counter\t85.5\tcapacity_pct\n"
			   "1000\tbatt.bq27.current_ua\tbattery_counter\t-500000.0\tcurrent_ua\n"
			   "1000\tbatt.bq27.voltage_uv\tbattery_counter\t4000000.0\tvoltage_uv\n"
			   "1000\tbatt.bq27.power_mw\tbattery_counter\t2000.0\tpower_mw\n"
			   "2000\tbatt.charge_uah\tbattery_counter\t10000000.0\tcharge_uah\n"
			   "2000\tbatt.voltage_uv\tbattery_counter\t4000000.0\tvoltage_uv\n");
	tb_close(tr, path, &b);
}

/* One rss_stat from tid at ts (has: curr and mm_id given). */
static void ft_rss(tbuf *b, uint64_t ts, int32_t tid, int32_t member, int64_t size, int has, uint32_t curr, uint32_t mm)
{
	Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__RssStatFtraceEvent rs = PERFETTO__PROTOS__RSS_STAT_FTRACE_EVENT__INIT;

	rs.has_member = rs.has_size = 1;
	rs.member = member;
	rs.size = size;
	rs.has_curr = rs.has_mm_id = has;
	rs.curr = curr;
	rs.mm_id = mm;
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_RSS_STAT;
	e.rss_stat = &rs;
	ft_packet(b, ts, (uint32_t)tid, &e);
}

/* rss_stat as trace processor's RssStatTracker: a thread's own memory
 * (curr 1) on its process's mem.<key> track, the one its process stats
 * use; another process's (curr 0) on the thread last seen with that
 * mm_id while it lives, else dropped and counted; without curr / mm_id
 * the writer's; a thread of no process on its own fallback track; a
 * negative size counted. */
static void test_ftrace_rss_stat(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	tree_packet(&b, 5, 20, 1, "/bin/app", 21, "worker");
	ft_rss(&b, 10, 21, 1, 4096, 1, 1, 7);    /* rss.anon of 21's process */
	ft_rss(&b, 20, 30, 0, 8192, 1, 0, 7);    /* kswapd about mm 7: process 20's rss.file */
	ft_rss(&b, 30, 30, 0, 1, 1, 0, 99);      /* mm 99 never seen: dropped */
	ft_rss(&b, 40, 40, 2, 512, 0, 0, 0);     /* no curr / mm_id: the writer, of no process */
	ft_rss(&b, 50, 21, 3, -1, 1, 1, 7);      /* negative: counted */
	ft_free(&b, 60, 21);
	ft_rss(&b, 70, 30, 0, 1, 1, 0, 7);       /* mm 7's thread ended: dropped */
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select c.ts, c.value, t.name, t.type, coalesce(p.pid, -1), coalesce(th.tid, -1),"
			       " extract_arg(c.arg_set_id, 'utid') = coalesce(th.utid, (select utid from thread where tid = 21 limit 1))"
			       " from counter c join track t on t.id = c.track_id"
			       " left join process_counter_track pt on pt.id = t.id left join process p on p.upid = pt.upid"
			       " left join thread_counter_track tt on tt.id = t.id left join thread th on th.utid = tt.utid"
			       " order by c.ts",
			   "10\t4096.0\tmem.rss.anon\tprocess_memory\t20\t-1\t1\n"
			   "20\t8192.0\tmem.rss.file\tprocess_memory\t20\t-1\t1\n"
			   "40\t512.0\tmem.swap\tprocess_memory_thread_fallback\t-1\t40\t1\n");
	assert_int_equal(tt_test_stat(tr, "rss_stat_unknown_thread_for_mm_id"), 2);
	assert_int_equal(tt_test_stat(tr, "rss_stat_negative_size"), 1);
	tb_close(tr, path, &b);
}

/* oom_score_adj_update as the process's oom_score_adj counter (the one
 * ProcessStats and lmkd use; a thread of no process: its own fallback
 * track; 16-bit values), mark_victim as a zero-length mem.oom_kill slice
 * on the victim, signal_generate / signal_deliver as zero-length slices
 * on the thread signalled / delivered to, with signal.sig. */
static void test_ftrace_oom_and_signals(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Perfetto__Protos__FtraceEvent e;
	Perfetto__Protos__OomScoreAdjUpdateFtraceEvent oa = PERFETTO__PROTOS__OOM_SCORE_ADJ_UPDATE_FTRACE_EVENT__INIT;
	Perfetto__Protos__MarkVictimFtraceEvent mv = PERFETTO__PROTOS__MARK_VICTIM_FTRACE_EVENT__INIT;
	Perfetto__Protos__SignalGenerateFtraceEvent sg = PERFETTO__PROTOS__SIGNAL_GENERATE_FTRACE_EVENT__INIT;
	Perfetto__Protos__SignalDeliverFtraceEvent sd = PERFETTO__PROTOS__SIGNAL_DELIVER_FTRACE_EVENT__INIT;

	(void)state;
#define EV(CASE, member, msg) (perfetto__protos__ftrace_event__init(&e), \
			       e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_##CASE, e.member = (msg), &e)
	tree_packet(&b, 5, 20, 1, "/bin/app", 21, "worker");
	oa.has_pid = oa.has_oom_score_adj = 1;
	oa.pid = 21;
	oa.oom_score_adj = -900;
	ft_event_cpu(&b, 10, 0, 30, EV(OOM_SCORE_ADJ_UPDATE, oom_score_adj_update, &oa), NULL);
	oa.pid = 50;
	oa.oom_score_adj = 0x10000 + 100; /* 100 in 16 bits */
	ft_event_cpu(&b, 11, 0, 30, EV(OOM_SCORE_ADJ_UPDATE, oom_score_adj_update, &oa), NULL);
	sg.has_pid = sg.has_sig = 1;
	sg.pid = 21;
	sg.sig = 9;
	ft_event_cpu(&b, 20, 0, 30, EV(SIGNAL_GENERATE, signal_generate, &sg), NULL);
	sd.has_sig = 1;
	sd.sig = 9;
	ft_event_cpu(&b, 30, 0, 21, EV(SIGNAL_DELIVER, signal_deliver, &sd), NULL);
	mv.has_pid = 1;
	mv.pid = 21;
	ft_event_cpu(&b, 40, 0, 30, EV(MARK_VICTIM, mark_victim, &mv), NULL);
#undef EV
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select c.ts, c.value, t.name, t.type, coalesce(p.pid, -1), coalesce(th.tid, -1)"
			       " from counter c join track t on t.id = c.track_id"
			       " left join process_counter_track pt on pt.id = t.id left join process p on p.upid = pt.upid"
			       " left join thread_counter_track tt on tt.id = t.id left join thread th on th.utid = tt.utid"
			       " order by c.ts",
			   "10\t-900.0\toom_score_adj\toom_score_adj\t20\t-1\n"
			   "11\t100.0\toom_score_adj\toom_score_adj_thread_fallback\t-1\t50\n");
	tt_test_assert_tsv(tr, "select s.ts, s.dur, coalesce(s.category, 'NULL'), s.name, th.tid,"
			       " coalesce(extract_arg(s.arg_set_id, 'signal.sig'), '-') from slice s"
			       " join thread_track tt on tt.id = s.track_id join thread th using(utid) order by s.ts",
			   "20\t0\tNULL\tsignal_generate\t21\t9\n"
			   "30\t0\tNULL\tsignal_deliver\t21\t9\n"
			   "40\t0\tNULL\tmem.oom_kill\t21\t-\n");
	tb_close(tr, path, &b);
}

static void ft_suspend(tbuf *b, uint64_t ts, const char *action, int32_t val, int start)
{
	Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__SuspendResumeFtraceEvent sr = PERFETTO__PROTOS__SUSPEND_RESUME_FTRACE_EVENT__INIT;

	sr.action = (char *)action;
	sr.has_val = sr.has_start = 1;
	sr.val = val;
	sr.start = (uint32_t)start;
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SUSPEND_RESUME;
	e.suspend_resume = &sr;
	ft_event_cpu(b, ts, 1, 40, &e, NULL);
}

/* suspend_resume as trace processor's FtraceParser: "action(val)" slices
 * on the lanes of "Suspend/Resume Latency" (a cookie per name), a start's
 * args (the writer, the event type, the cpu; device, driver and phase
 * null); timekeeping_freeze's val read as 0; a suspend_enter whose
 * freeze_processes failed (thaw_processes inside it) ended with the
 * thaw. */
static void test_ftrace_suspend_resume(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	ft_suspend(&b, 100, "suspend_enter", 3, 1);
	ft_suspend(&b, 110, "freeze_processes", 0, 1);
	ft_suspend(&b, 120, "thaw_processes", 0, 1);
	ft_suspend(&b, 130, "thaw_processes", 0, 0);
	ft_suspend(&b, 200, "timekeeping_freeze", 5, 1);
	ft_suspend(&b, 210, "timekeeping_freeze", 5, 0);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select s.ts, s.dur, coalesce(s.category, 'NULL'), s.name, t.name, t.type,"
			       " extract_arg(t.dimension_arg_set_id, 'track_compressor_idx')"
			       " from slice s join track t on t.id = s.track_id order by s.ts",
			   "100\t30\tNULL\tsuspend_enter(3)\tSuspend/Resume Latency\tsuspend_resume\t0\n"
			   "110\t-1\tNULL\tfreeze_processes(0)\tSuspend/Resume Latency\tsuspend_resume\t1\n"
			   "120\t10\tNULL\tthaw_processes(0)\tSuspend/Resume Latency\tsuspend_resume\t2\n"
			   "200\t10\tNULL\ttimekeeping_freeze(0)\tSuspend/Resume Latency\tsuspend_resume\t0\n");
	tt_test_assert_tsv(tr, "select a.key, a.value_type, coalesce(a.display_value, 'NULL') from slice s"
			       " join args a using(arg_set_id) where s.ts = 100 order by a.id",
			   "utid\tuint\t1\n"
			   "event_type\tstring\tMain Kernel Suspend Event\n"
			   "cpu\tuint\t1\n"
			   "device_name\tstring\tNULL\n"
			   "driver_name\tstring\tNULL\n"
			   "callback_phase\tstring\tNULL\n");
	assert_int_equal(tt_test_int(tr, "select tid from thread where utid = 1"), 40);
	tb_close(tr, path, &b);
}

/* The tracing service's TraceStats as trace processor's stats: the last
 * packet's values, per buffer (idx) for the buffers' ones, the filter's,
 * the final flush counted; the losses the importer saw on a sequence,
 * summed into the buffer writer_stats names (sequence 1: one packet saying
 * previous_packet_dropped with a read gap and an overwrite; sequence 2:
 * every packet needing incremental state it never had). */
static void test_trace_stats(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Perfetto__Protos__TraceStats t1 = PERFETTO__PROTOS__TRACE_STATS__INIT, t2 = PERFETTO__PROTOS__TRACE_STATS__INIT;
	Perfetto__Protos__TraceStats__BufferStats b0 = PERFETTO__PROTOS__TRACE_STATS__BUFFER_STATS__INIT,
						  b1 = PERFETTO__PROTOS__TRACE_STATS__BUFFER_STATS__INIT;
	Perfetto__Protos__TraceStats__BufferStats *bufs[] = { &b0, &b1 };
	Perfetto__Protos__TraceStats__WriterStats w1 = PERFETTO__PROTOS__TRACE_STATS__WRITER_STATS__INIT,
						  w2 = PERFETTO__PROTOS__TRACE_STATS__WRITER_STATS__INIT,
						  w9 = PERFETTO__PROTOS__TRACE_STATS__WRITER_STATS__INIT;
	Perfetto__Protos__TraceStats__WriterStats *ws[] = { &w1, &w2, &w9 };
	Perfetto__Protos__TraceStats__FilterStats fs = PERFETTO__PROTOS__TRACE_STATS__FILTER_STATS__INIT;
	uint64_t discarded[] = { 5, 6 };
	Pkt p;

	(void)state;
	t1.has_producers_connected = 1;
	t1.producers_connected = 1;
	p = pkt(1, 0);
	TB_PUT(&b, p, TRACE_STATS, trace_stats, &t1);
	put_track(&b, 100, "t");
	put_event(&b, 1, 10, 3, 100, "a");
	p = pkt(1, 20);
	p.has_previous_packet_dropped = 1;
	p.previous_packet_dropped = 1 | 2 | 64; /* present, read gap, overwrite */
	set_flags(&p, 1);
	TB_PUT(&b, p, TRACK_EVENT, track_event, &(TEv)PERFETTO__PROTOS__TRACK_EVENT__INIT);
	for (int i = 0; i < 2; i++) {
		p = pkt(2, 30);
		set_flags(&p, 2);
		TB_PUT(&b, p, TRACK_EVENT, track_event, &(TEv)PERFETTO__PROTOS__TRACK_EVENT__INIT);
	}
	t2.has_producers_connected = t2.has_total_buffers = t2.has_final_flush_outcome = 1;
	t2.producers_connected = 3;
	t2.total_buffers = 2;
	t2.final_flush_outcome = 2;
	b0.has_buffer_size = b0.has_bytes_written = b1.has_buffer_size = b1.has_chunks_discarded = 1;
	b0.buffer_size = 1024;
	b0.bytes_written = 700;
	b1.buffer_size = 2048;
	b1.chunks_discarded = 4;
	t2.n_buffer_stats = 2;
	t2.buffer_stats = bufs;
	w1.has_sequence_id = w1.has_buffer = w2.has_sequence_id = w2.has_buffer = w9.has_sequence_id = 1;
	w1.sequence_id = 1;
	w1.buffer = 1;
	w2.sequence_id = 2;
	w2.buffer = 0;
	w9.sequence_id = 9; /* never seen: nothing */
	t2.n_writer_stats = 3;
	t2.writer_stats = ws;
	fs.has_input_bytes = fs.has_output_bytes = 1;
	fs.input_bytes = 100;
	fs.output_bytes = 89;
	fs.n_bytes_discarded_per_buffer = 2;
	fs.bytes_discarded_per_buffer = discarded;
	t2.filter_stats = &fs;
	p = pkt(3, 0);
	TB_PUT(&b, p, TRACE_STATS, trace_stats, &t2);
	tr = tb_open(&b, &path);
	/* idx: NULL for a single stat, as trace processor gives it */
	tt_test_assert_tsv(tr, "select name, idx, severity, value from stats where name in ('traced_producers_connected',"
			       " 'traced_total_buffers', 'traced_flushes_failed', 'traced_final_flush_succeeded',"
			       " 'traced_final_flush_failed', 'filter_input_bytes', 'filter_output_bytes', 'filter_errors',"
			       " 'traced_buf_buffer_size', 'traced_buf_bytes_written') order by rowid",
			   "traced_producers_connected\tNULL\tinfo\t3\n"
			   "traced_total_buffers\tNULL\tinfo\t2\n"
			   "traced_flushes_failed\tNULL\tdata_loss\t0\n"
			   "traced_final_flush_succeeded\tNULL\tinfo\t0\n"
			   "traced_final_flush_failed\tNULL\tdata_loss\t1\n"
			   "filter_input_bytes\tNULL\tinfo\t100\n"
			   "filter_output_bytes\tNULL\tinfo\t89\n"
			   "filter_errors\tNULL\terror\t0\n"
			   "traced_buf_buffer_size\t0\tinfo\t1024\n"
			   "traced_buf_buffer_size\t1\tinfo\t2048\n"
			   "traced_buf_bytes_written\t0\tinfo\t700\n"
			   "traced_buf_bytes_written\t1\tinfo\t0\n");
	/* (every buffer row comes with the packet, zeros too) */
	assert_int_equal(tt_test_int(tr, "select count(*) from stats where name like 'traced_buf%'"), 2 * 20 + 2 + 2 * 10);
	tt_test_assert_tsv(tr, "select name, idx, value from stats where name in ('traced_buf_bytes_filtered_out',"
			       " 'traced_buf_chunks_discarded', 'traced_buf_sequence_packet_loss',"
			       " 'traced_buf_incremental_sequences_dropped', 'traced_buf_data_loss_read_gap',"
			       " 'traced_buf_data_loss_overwrite', 'traced_buf_data_loss_smb_full') order by rowid",
			   "traced_buf_bytes_filtered_out\t0\t5\n"
			   "traced_buf_bytes_filtered_out\t1\t6\n"
			   "traced_buf_chunks_discarded\t0\t0\n"
			   "traced_buf_chunks_discarded\t1\t4\n"
			   "traced_buf_sequence_packet_loss\t0\t0\n"
			   "traced_buf_sequence_packet_loss\t1\t1\n"
			   "traced_buf_incremental_sequences_dropped\t0\t1\n"
			   "traced_buf_incremental_sequences_dropped\t1\t0\n"
			   "traced_buf_data_loss_read_gap\t0\t0\n"
			   "traced_buf_data_loss_read_gap\t1\t1\n"
			   "traced_buf_data_loss_overwrite\t0\t0\n"
			   "traced_buf_data_loss_overwrite\t1\t1\n"
			   "traced_buf_data_loss_smb_full\t0\t0\n"
			   "traced_buf_data_loss_smb_full\t1\t0\n");
	tb_close(tr, path, &b);
}

/* Chrome's metadata as trace processor's metadata rows: the untyped
 * bundle's as cr-<name> (a second bundle's cr-2-<name>; a value-less
 * entry counted), the typed packet's as cr-a-<field> (the field trial
 * hashes two a line; background tracing's as base64 and its scenario
 * hash), the benchmark's as benchmark_* (story tags: several values). */
static void test_chrome_metadata(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Perfetto__Protos__ChromeMetadata m[5], m2 = PERFETTO__PROTOS__CHROME_METADATA__INIT;
	Perfetto__Protos__ChromeMetadata *mp[] = { &m[0], &m[1], &m[2], &m[3], &m[4] }, *mp2[] = { &m2 };
	Perfetto__Protos__ChromeEventBundle eb = PERFETTO__PROTOS__CHROME_EVENT_BUNDLE__INIT,
					   eb2 = PERFETTO__PROTOS__CHROME_EVENT_BUNDLE__INIT;
	Perfetto__Protos__ChromeMetadataPacket cm = PERFETTO__PROTOS__CHROME_METADATA_PACKET__INIT;
	Perfetto__Protos__ChromeMetadataPacket__FinchHash fh[3];
	Perfetto__Protos__ChromeMetadataPacket__FinchHash *fhp[] = { &fh[0], &fh[1], &fh[2] };
	Perfetto__Protos__BackgroundTracingMetadata bt = PERFETTO__PROTOS__BACKGROUND_TRACING_METADATA__INIT;
	Perfetto__Protos__ChromeBenchmarkMetadata bm = PERFETTO__PROTOS__CHROME_BENCHMARK_METADATA__INIT;
	char *tags[] = { "t1", "t2" };
	uint8_t btbuf[16];
	Pkt p;

	(void)state;
	for (int i = 0; i < 5; i++)
		perfetto__protos__chrome_metadata__init(&m[i]);
	m[0].name = "user-agent";
	m[0].value_case = PERFETTO__PROTOS__CHROME_METADATA__VALUE_STRING_VALUE;
	m[0].string_value = "UA";
	m[1].name = "num-cpus";
	m[1].value_case = PERFETTO__PROTOS__CHROME_METADATA__VALUE_INT_VALUE;
	m[1].int_value = 8;
	m[2].name = "in-vm";
	m[2].value_case = PERFETTO__PROTOS__CHROME_METADATA__VALUE_BOOL_VALUE;
	m[2].bool_value = 1;
	m[3].name = "config";
	m[3].value_case = PERFETTO__PROTOS__CHROME_METADATA__VALUE_JSON_VALUE;
	m[3].json_value = "{\"a\":1}";
	m[4].name = "nothing";
	eb.n_metadata = 5;
	eb.metadata = mp;
	m2.name = "user-agent";
	m2.value_case = PERFETTO__PROTOS__CHROME_METADATA__VALUE_STRING_VALUE;
	m2.string_value = "UA2";
	eb2.n_metadata = 1;
	eb2.metadata = mp2;
	for (int i = 0; i < 3; i++) {
		perfetto__protos__chrome_metadata_packet__finch_hash__init(&fh[i]);
		fh[i].has_name = fh[i].has_group = 1;
		fh[i].name = (uint32_t)(2 * i + 1);
		fh[i].group = (uint32_t)(2 * i + 2);
	}
	cm.n_field_trial_hashes = 3;
	cm.field_trial_hashes = fhp;
	cm.has_chrome_version_code = cm.has_channel = 1;
	cm.chrome_version_code = 42;
	cm.channel = 3;
	cm.app_version = "1.2.3";
	bt.has_scenario_name_hash = 1;
	bt.scenario_name_hash = 0xabcdef;
	cm.has_background_tracing_metadata = 1;
	cm.background_tracing_metadata.len = perfetto__protos__background_tracing_metadata__pack(&bt, btbuf);
	cm.background_tracing_metadata.data = btbuf;
	bm.benchmark_name = "speedometer";
	bm.n_story_tags = 2;
	bm.story_tags = tags;
	bm.has_story_run_index = 1;
	bm.story_run_index = 7;
	p = pkt(1, 0);
	TB_PUT(&b, p, CHROME_EVENTS, chrome_events, &eb);
	p = pkt(1, 0);
	TB_PUT(&b, p, CHROME_EVENTS, chrome_events, &eb2);
	p = pkt(1, 0);
	TB_PUT(&b, p, CHROME_METADATA, chrome_metadata, &cm);
	p = pkt(1, 0);
	TB_PUT(&b, p, CHROME_BENCHMARK_METADATA, chrome_benchmark_metadata, &bm);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select name, key_type, coalesce(int_value, 'NULL'), coalesce(replace(str_value, char(10), '|'), 'NULL')"
			       " from metadata where name like 'cr-%' or name like 'benchmark%' order by id",
			   "cr-user-agent\tsingle\tNULL\tUA\n"
			   "cr-num-cpus\tsingle\t8\tNULL\n"
			   "cr-in-vm\tsingle\t1\tNULL\n"
			   "cr-config\tsingle\tNULL\t{\"a\":1}\n"
			   "cr-2-user-agent\tsingle\tNULL\tUA2\n"
			   "cr-a-playstore_version_code\tsingle\t42\tNULL\n"
			   "cr-a-product-version\tsingle\tNULL\t1.2.3\n"
			   "cr-a-channel\tsingle\t3\tNULL\n"
			   "cr-a-field_trial_hashes\tsingle\tNULL\t{ name: 1, group: 2 } { name: 3, group: 4 } |{ name: 5, group: 6 } \n"
			   "cr-background_tracing_metadata\tsingle\tNULL\tHe/NqwA=\n"
			   "cr-scenario_name_hash\tsingle\t11259375\tNULL\n"
			   "benchmark_name\tsingle\tNULL\tspeedometer\n"
			   "benchmark_story_tags\tmulti\tNULL\tt1\n"
			   "benchmark_story_tags\tmulti\tNULL\tt2\n"
			   "benchmark_story_run_index\tsingle\t7\tNULL\n");
	assert_int_equal(tt_test_int(tr, "select value from stats where name = 'empty_chrome_metadata'"), 1);
	tb_close(tr, path, &b);
}

/* The process tracker acts in trace order, as trace processor parses the
 * sorted events, not in the order of the file (where one cpu's bundle of
 * later events may come before another's earlier ones): here the free of
 * tid 11 (900) and its rename (500) come first in the file, yet the
 * switches to 11 at 100 and 600, its marker at 200 (which puts it in
 * process 10) and its clone of 12 at 400 are of the first thread 11; the
 * switch at 1000 is a new one. The process tree (50) comes last in the
 * file and still makes process 10 before the marker looks it up. */
static void test_ftrace_trace_order(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	ft_free(&b, 900, 11);
	ft_rename(&b, 500, 11, "renamed");
	ft_switch(&b, 100, 0, "swapper/0", 11, "worker");
	ft_print(&b, 200, 11, "B|10|work");
	ft_print(&b, 300, 11, "E|10");
	ft_newtask(&b, 400, 11, 12, "helper", 0x00010000);
	ft_switch(&b, 600, 0, "swapper/0", 11, "worker2");
	ft_switch(&b, 1000, 0, "swapper/0", 11, "reborn");
	tree_packet(&b, 50, 10, 1, "/bin/app", 0, NULL);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select t.tid, coalesce(p.pid, -1), coalesce(t.name, '-') from thread t "
		       "left join process p using(upid) where t.tid > 10 order by t.utid",
		   "11\t10\tworker2\n12\t10\thelper\n11\t-1\treborn\n");
	tt_test_assert_tsv(tr, "select s.ts, t.tid, t.name from sched_slice s join thread t using(utid) order by s.ts",
		   "100\t11\tworker2\n600\t11\tworker2\n1000\t11\treborn\n");
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.name, t.name, p.pid from slice s join thread_track tt on "
		       "tt.id = s.track_id join thread t using(utid) join process p using(upid)",
		   "200\t100\twork\tworker2\t10\n");
	tb_close(tr, path, &b);
}

/* sde_tracing_mark_write: begin / end by trace_begin (older kernels) or
 * by trace_type; a counter by trace_type 'C' on the tgid's process; an
 * event with neither field is counted, not imported. */
static void test_ftrace_sde_marks(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	static const struct { uint64_t ts; int has_type, has_begin; uint32_t type, begin; int32_t value; const char *name; } ev[] = {
		{ 100, 0, 1, 0, 1, 0, "draw" }, { 101, 0, 1, 0, 0, 0, "draw" },
		{ 200, 1, 0, 'B', 0, 0, "kick" }, { 250, 1, 0, 'E', 0, 0, "kick" },
		{ 300, 1, 0, 'C', 0, 42, "fences" }, { 400, 0, 0, 0, 0, 0, "none" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++) {
		Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
		Perfetto__Protos__SdeTracingMarkWriteFtraceEvent m = PERFETTO__PROTOS__SDE_TRACING_MARK_WRITE_FTRACE_EVENT__INIT;

		m.has_pid = 1;
		m.pid = 403;
		m.trace_name = (char *)ev[i].name;
		m.has_trace_type = ev[i].has_type;
		m.trace_type = ev[i].type;
		m.has_trace_begin = ev[i].has_begin;
		m.trace_begin = ev[i].begin;
		m.has_value = 1;
		m.value = ev[i].value;
		e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SDE_TRACING_MARK_WRITE;
		e.sde_tracing_mark_write = &m;
		ft_packet(&b, ev[i].ts, 404, &e);
	}
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select s.name, s.ts, s.dur, t.tid, p.pid from slice s join thread_track tt on s.track_id = tt.id "
		       "join thread t using(utid) join process p using(upid) order by s.ts",
		   "draw\t100\t1\t404\t403\nkick\t200\t50\t404\t403\n");
	tt_test_assert_tsv(tr, "select t.name, c.value, p.pid from counter c join track t on c.track_id = t.id "
		       "join process p on p.upid = t.upid",
		   "fences\t42.0\t403\n");
	assert_int_equal(tt_test_stat(tr, "systrace_parse_failure"), 1);
	tb_close(tr, path, &b);
}

/* The kernel drivers' marks as trace processor reads each: systrace/0's
 * phase in flag bits (begin 1, end 2, counter 4, else refused); dpu's
 * slices with no tgid (the writer's own thread, no process) but its
 * counters on the pid field's process; mali's instants; mdss
 * tracing_mark_write by trace_begin; a g2d mark of type 0 and a samsung
 * mark without trace_type refused (systrace_parse_failure). */
static void test_ftrace_kernel_marks(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Perfetto__Protos__ZeroFtraceEvent z[4];
	Perfetto__Protos__DpuTracingMarkWriteFtraceEvent d[2];
	Perfetto__Protos__MaliTracingMarkWriteFtraceEvent ml = PERFETTO__PROTOS__MALI_TRACING_MARK_WRITE_FTRACE_EVENT__INIT;
	Perfetto__Protos__TracingMarkWriteFtraceEvent tm[2];
	Perfetto__Protos__G2dTracingMarkWriteFtraceEvent g = PERFETTO__PROTOS__G2D_TRACING_MARK_WRITE_FTRACE_EVENT__INIT;
	Perfetto__Protos__SamsungTracingMarkWriteFtraceEvent sm = PERFETTO__PROTOS__SAMSUNG_TRACING_MARK_WRITE_FTRACE_EVENT__INIT;
	static const int32_t flags[] = { 1, 2, 4, 8 };

	(void)state;
	tree_packet(&b, 10, 50, 1, "/bin/gpu", 51, "gpu-main");
	for (int i = 0; i < 4; i++) {
		Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;

		perfetto__protos__zero_ftrace_event__init(&z[i]);
		z[i].has_flag = z[i].has_pid = z[i].has_value = 1;
		z[i].flag = flags[i];
		z[i].name = "zwork";
		z[i].pid = 50;
		z[i].value = 7;
		e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_ZERO;
		e.zero = &z[i];
		ft_packet(&b, 100 + 100 * (uint64_t)i, 51, &e);
	}
	for (int i = 0; i < 2; i++) {
		Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;

		perfetto__protos__dpu_tracing_mark_write_ftrace_event__init(&d[i]);
		d[i].has_type = d[i].has_pid = d[i].has_value = 1;
		d[i].type = i ? 'C' : 'I';
		d[i].name = i ? "fences" : "vsync";
		d[i].pid = 50;
		d[i].value = 3;
		e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DPU_TRACING_MARK_WRITE;
		e.dpu_tracing_mark_write = &d[i];
		ft_packet(&b, 500 + 10 * (uint64_t)i, 60, &e);
	}
	{
		Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;

		ml.has_type = ml.has_pid = 1;
		ml.type = 'I';
		ml.name = "mali";
		ml.pid = 50;
		e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_MALI_TRACING_MARK_WRITE;
		e.mali_tracing_mark_write = &ml;
		ft_packet(&b, 600, 51, &e);
	}
	for (int i = 0; i < 2; i++) {
		Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;

		perfetto__protos__tracing_mark_write_ftrace_event__init(&tm[i]);
		tm[i].has_trace_begin = tm[i].has_pid = 1;
		tm[i].trace_begin = !i;
		tm[i].trace_name = "mdss";
		tm[i].pid = 50;
		e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_TRACING_MARK_WRITE;
		e.tracing_mark_write = &tm[i];
		ft_packet(&b, 700 + 50 * (uint64_t)i, 51, &e);
	}
	{
		Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT, f = PERFETTO__PROTOS__FTRACE_EVENT__INIT;

		g.has_pid = 1;
		g.pid = 50;
		g.name = "g2d";
		e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_G2D_TRACING_MARK_WRITE;
		e.g2d_tracing_mark_write = &g;
		ft_packet(&b, 800, 51, &e);
		sm.trace_name = "sam";
		f.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SAMSUNG_TRACING_MARK_WRITE;
		f.samsung_tracing_mark_write = &sm;
		ft_packet(&b, 810, 51, &f);
	}
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.name, t.tid, coalesce(p.pid, -1) from slice s "
		       "join thread_track tt on tt.id = s.track_id join thread t using(utid) "
		       "left join process p using(upid) order by s.ts",
		   "100\t100\tzwork\t51\t50\n500\t0\tvsync\t60\t-1\n600\t0\tmali\t51\t50\n"
		   "700\t50\tmdss\t51\t50\n");
	tt_test_assert_tsv(tr, "select c.ts, t.name, c.value, p.pid from counter c join track t on t.id = c.track_id "
		       "join process p on p.upid = t.upid order by c.ts",
		   "300\tzwork\t7.0\t50\n510\tfences\t3.0\t50\n");
	assert_int_equal(tt_test_stat(tr, "systrace_parse_failure"), 3);
	tb_close(tr, path, &b);
}

/* Three events on one track, as raw packet bytes. */
static void three_events(tbuf *b)
{
	put_track(b, 600, "z");
	put_event(b, 1, 100, 1, 600, "x");
	put_event(b, 1, 150, 3, 600, "y");
	put_event(b, 1, 200, 2, 600, NULL);
}

/* Appends a compressed_packets packet (sequence seq) holding inner's
 * packets, zlib-compressed; the compressed bytes (*zn of them), which the
 * caller frees. */
static unsigned char *put_compressed(tbuf *b, const tbuf *inner, uint32_t seq, uLongf *zn)
{
	Pkt p = pkt(seq, 0);
	unsigned char *z;

	*zn = compressBound(inner->n);
	z = malloc(*zn);
	assert_non_null(z);
	assert_int_equal(compress2(z, zn, inner->p, inner->n, 6), Z_OK);
	p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_COMPRESSED_PACKETS;
	p.compressed_packets.data = z;
	p.compressed_packets.len = *zn;
	tb_packet(b, &p);
	return z;
}

static void test_compressed_packets(void **state)
{
	tbuf inner = {0}, b = {0};
	char *path;
	tt_trace *tr;
	uLongf zn;
	unsigned char *z;
	Pkt p = pkt(1, 0);

	(void)state;
	three_events(&inner);
	z = put_compressed(&b, &inner, 1, &zn);
	p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_COMPRESSED_PACKETS;
	p.compressed_packets.len = zn;
	put_event(&b, 1, 300, 3, 600, "after");
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select ts, dur, name, depth from slice order by ts",
		   "100\t100\tx\t0\n150\t0\ty\t1\n300\t0\tafter\t0\n");
	tb_close(tr, path, &b);

	/* a corrupt blob is counted, the rest imports */
	memset(z, 0x55, zn);
	p.compressed_packets.data = z;
	tb_packet(&b, &p);
	put_event(&b, 1, 300, 3, 600, "after");
	tr = tb_open(&b, &path);
	assert_int_equal(tt_test_stat(tr, "proto_compressed_bad"), 1);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 1);
	tb_close(tr, path, &b);
	free(z);
	free(inner.p);
}

/* zstd_compressed_packets: one zstd frame of packets, as the tracing
 * service writes them with compression_type ZSTD. */
static void test_zstd_compressed_packets(void **state)
{
	tbuf inner = {0}, b = {0};
	char *path;
	tt_trace *tr;
	size_t zn, cut;
	unsigned char *z, *two;
	Pkt p = pkt(1, 0);

	(void)state;
	three_events(&inner);
	zn = ZSTD_compressBound(inner.n);
	z = malloc(zn);
	two = malloc(2 * zn);
	assert_non_null(z);
	assert_non_null(two);
	zn = ZSTD_compress(z, zn, inner.p, inner.n, 3);
	assert_false(ZSTD_isError(zn));
	p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_ZSTD_COMPRESSED_PACKETS;
	p.zstd_compressed_packets.data = z;
	p.zstd_compressed_packets.len = zn;
	tb_packet(&b, &p);
	put_event(&b, 1, 300, 3, 600, "after");
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select ts, dur, name, depth from slice order by ts",
		   "100\t100\tx\t0\n150\t0\ty\t1\n300\t0\tafter\t0\n");
	assert_int_equal(tt_test_stat(tr, "proto_compressed_bad"), 0);
	tb_close(tr, path, &b);

	/* a frame cut short, a frame followed by another, bytes that are
	 * not zstd: each counted once, the rest imports */
	for (cut = 0; cut < 3; cut++) {
		memcpy(two, z, zn);
		memcpy(two + zn, z, zn);
		if (cut == 2)
			memset(two, 0x55, zn);
		p.zstd_compressed_packets.data = two;
		p.zstd_compressed_packets.len = cut == 0 ? zn - 3 : cut == 1 ? 2 * zn : zn;
		tb_packet(&b, &p);
		put_event(&b, 1, 300, 3, 600, "after");
		tr = tb_open(&b, &path);
		assert_int_equal(tt_test_stat(tr, "proto_compressed_bad"), 1);
		assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 1);
		tb_close(tr, path, &b);
	}
	free(two);
	free(z);
	free(inner.p);
}

static void test_truncated_last_packet(void **state)
{
	tbuf b = {0};
	char *path, sql[128];
	tt_trace *tr;
	size_t good;

	(void)state;
	three_events(&b);
	good = b.n;
	put_event(&b, 1, 300, 3, 600, "cut");
	b.n = good + 5; /* keep 5 bytes of the last packet */
	tr = tb_open(&b, &path);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 2);
	assert_int_equal(tt_test_stat(tr, "proto_truncated"), 5);
	snprintf(sql, sizeof(sql), "select int_value from metadata where name = 'proto_truncated_offset'");
	assert_int_equal(tt_test_int(tr, sql), (int64_t)good);
	tb_close(tr, path, &b);
}

static void test_length_beyond_file(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	tt_err err = {0};

	(void)state;
	three_events(&b);
	tb_raw(&b, "\x0a\xff\xff\x03zz", 6); /* claims 65535 bytes */
	tr = tb_open(&b, &path);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 2);
	assert_int_equal(tt_test_stat(tr, "proto_truncated"), 6);
	tb_close(tr, path, &b);

	/* the same prefix as the first packet: not a trace */
	tb_raw(&b, "\x0a\xff\xff\x03zz", 6);
	path = tt_test_write_tmp(b.p, b.n, ".pftrace");
	assert_modes_agree(path);
	assert_null(tt_trace_open(path, NULL, &err));
	assert_int_equal(err.code, TT_EINVAL);
	assert_non_null(strstr(err.msg, path));
	assert_non_null(strstr(err.msg, "byte 0"));
	unlink(path);
	free(path);
	free(b.p);
}

static void test_not_a_trace(void **state)
{
	/* text after a newline, and binary garbage (control bytes: sniffed
	 * as proto whatever the text heuristics) */
	static const struct { const char *data; size_t len; } in[] = {
		{ "\nhello, this is a text file\nwith lines\n", 40 },
		{ "\n\x02\x01\x07\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01garbage", 23 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		char *path = tt_test_write_tmp(in[i].data, in[i].len, ".pftrace");
		tt_err err = {0};

		assert_modes_agree(path);
		assert_null(tt_trace_open(path, NULL, &err));
		assert_int_equal(err.code, TT_EINVAL);
		assert_non_null(strstr(err.msg, path));
		assert_non_null(strstr(err.msg, "not a perfetto trace"));
		assert_non_null(strstr(err.msg, "byte 0"));
		assert_null(strchr(err.msg, '\n'));
		unlink(path);
		free(path);
	}
}

/* One event on seq 1 of track 700: annotation iid-named (name_iid 1)
 * with the interned string iid 2, and "d": {"e": 1, "f[": [2, 3]}. */
static void put_keyed_event(tbuf *b, uint64_t ts, const char *iname, const char *istr, size_t istr_len)
{
	Pkt p = pkt(1, ts);
	TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	Perfetto__Protos__DebugAnnotation a[6], *top[2] = { &a[0], &a[1] }, *dict[2] = { &a[2], &a[3] },
					       *arr[2] = { &a[4], &a[5] };
	Perfetto__Protos__InternedData in = PERFETTO__PROTOS__INTERNED_DATA__INIT;
	Perfetto__Protos__DebugAnnotationName dn = PERFETTO__PROTOS__DEBUG_ANNOTATION_NAME__INIT, *dnp = &dn;
	Perfetto__Protos__InternedString is = PERFETTO__PROTOS__INTERNED_STRING__INIT, *isp = &is;
	size_t i;

	for (i = 0; i < 6; i++)
		perfetto__protos__debug_annotation__init(&a[i]);
	if (iname) { /* a new sequence state with these interned values */
		set_flags(&p, 1);
		dn.has_iid = 1;
		dn.iid = 1;
		dn.name = (char *)iname;
		is.has_iid = is.has_str = 1;
		is.iid = 2;
		is.str.data = (uint8_t *)istr;
		is.str.len = istr_len;
		in.n_debug_annotation_names = 1;
		in.debug_annotation_names = &dnp;
		in.n_debug_annotation_string_values = 1;
		in.debug_annotation_string_values = &isp;
		p.interned_data = &in;
	} else {
		set_flags(&p, 2);
	}
	a[0].name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME_IID;
	a[0].name_iid = 1;
	a[0].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE_IID;
	a[0].string_value_iid = 2;
	a[1].name_field_case = a[2].name_field_case = a[3].name_field_case =
		PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME;
	a[1].name = "d";
	a[1].n_dict_entries = 2;
	a[1].dict_entries = dict;
	a[2].name = "e";
	a[2].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE;
	a[2].int_value = 1;
	a[3].name = "f[";
	a[3].n_array_values = 2;
	a[3].array_values = arr;
	a[4].value_case = a[5].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_UINT_VALUE;
	a[4].uint_value = 2;
	a[5].uint_value = 3;
	te_set(&te, 3, 700, "ev");
	te.n_debug_annotations = 2;
	te.debug_annotations = top;
	TB_PUT(b, p, TRACK_EVENT, track_event, &te);
}

/* Keys are interned once and found again by (parent key, name id or
 * index): the same keys and values on every event, a new name for an iid
 * after a sequence clear, a name holding '[' (a key with [ is
 * "indexed": its flat key drops the brackets), an interned string whose
 * text holds a NUL (the text up to it, as before the keys were kept). */
static void test_debug_annotation_keys(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	put_track(&b, 700, "args");
	put_keyed_event(&b, 10, "k", "v1", 2);
	put_keyed_event(&b, 20, NULL, NULL, 0);
	put_keyed_event(&b, 30, "other", "a\0b", 3);
	put_keyed_event(&b, 40, NULL, NULL, 0);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select ts, arg_set_id from slice order by ts", "10\t0\n20\t0\n30\t1\n40\t1\n");
	tt_test_assert_tsv(tr, "select arg_set_id, key, flat_key, display_value from args where arg_set_id in (0, 1) order by id",
		   "0\tdebug.k\tdebug.k\tv1\n0\tdebug.d.e\tdebug.d.e\t1\n0\tdebug.d.f[[0]\tdebug.d.f\t2\n"
		   "0\tdebug.d.f[[1]\tdebug.d.f\t3\n"
		   "1\tdebug.other\tdebug.other\ta\n1\tdebug.d.e\tdebug.d.e\t1\n1\tdebug.d.f[[0]\tdebug.d.f\t2\n"
		   "1\tdebug.d.f[[1]\tdebug.d.f\t3\n");
	tb_close(tr, path, &b);
}

/* An event on seq with two annotations: name_iid 1 = string_value_iid 2,
 * and name_iid 5 = int 7; interned before it: iid 1 = n1 and iid 2 = v2
 * (NULL: none), iid 5 = n5 (NULL: none); clear: a new sequence state. */
static void put_iid_event(tbuf *b, uint32_t seq, uint64_t ts, int clear, const char *n1, const char *v2,
			  const char *n5)
{
	Pkt p = pkt(seq, ts);
	TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	Perfetto__Protos__DebugAnnotation a[2], *top[2] = { &a[0], &a[1] };
	Perfetto__Protos__InternedData in = PERFETTO__PROTOS__INTERNED_DATA__INIT;
	Perfetto__Protos__DebugAnnotationName dn[2], *dnp[2] = { &dn[0], &dn[1] };
	Perfetto__Protos__InternedString is = PERFETTO__PROTOS__INTERNED_STRING__INIT, *isp = &is;

	perfetto__protos__debug_annotation__init(&a[0]);
	perfetto__protos__debug_annotation__init(&a[1]);
	perfetto__protos__debug_annotation_name__init(&dn[0]);
	perfetto__protos__debug_annotation_name__init(&dn[1]);
	set_flags(&p, clear ? 1 : 2);
	if (n1) {
		dn[in.n_debug_annotation_names].has_iid = 1;
		dn[in.n_debug_annotation_names].iid = 1;
		dn[in.n_debug_annotation_names++].name = (char *)n1;
	}
	if (n5) {
		dn[in.n_debug_annotation_names].has_iid = 1;
		dn[in.n_debug_annotation_names].iid = 5;
		dn[in.n_debug_annotation_names++].name = (char *)n5;
	}
	in.debug_annotation_names = dnp;
	if (v2) {
		is.has_iid = is.has_str = 1;
		is.iid = 2;
		is.str.data = (uint8_t *)v2;
		is.str.len = strlen(v2);
		in.n_debug_annotation_string_values = 1;
		in.debug_annotation_string_values = &isp;
	}
	if (n1 || n5 || v2)
		p.interned_data = &in;
	a[0].name_field_case = a[1].name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME_IID;
	a[0].name_iid = 1;
	a[0].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE_IID;
	a[0].string_value_iid = 2;
	a[1].name_iid = 5;
	a[1].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE;
	a[1].int_value = 7;
	te.has_type = 1;
	te.type = 3;
	te.has_track_uuid = 1;
	te.track_uuid = 700;
	te.name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME;
	te.name = "ev";
	te.n_debug_annotations = 2;
	te.debug_annotations = top;
	p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT;
	p.track_event = &te;
	tb_packet(b, &p);
}

/* The importer keeps the arg set of annotation bytes it has seen on a
 * sequence (proto_args.c): the same bytes are the same args only while
 * the sequence's interned names and strings say the same. Here the same
 * annotation bytes on every event: again as they were (the set is
 * shared); after an iid is given another name without a clear, and a
 * missing one is given at last; on another sequence with its own
 * interning. Annotation bytes protobuf-c rejects reject their packet,
 * every time they come. */
static void test_debug_annotations_repeated(void **state)
{
	/* seq 1, ts 70, track 700, instant "ev", one annotation of bytes
	 * 0x0f (a tag of wire type 7) */
	static const unsigned char bad[] = { 0x0a, 21, 0x50, 0x01, 0x40, 70, 0x68, 0x02, 0x5a, 13, 0x48, 0x03, 0x58,
					     0xbc, 0x05, 0xba, 0x01, 0x02, 'e', 'v', 0x22, 0x01, 0x0f };
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	put_track(&b, 700, "args");
	put_iid_event(&b, 1, 10, 1, "k", "v1", NULL);
	put_iid_event(&b, 1, 20, 0, NULL, NULL, NULL);
	put_iid_event(&b, 1, 30, 0, "z", NULL, "m");
	put_iid_event(&b, 1, 40, 0, NULL, NULL, NULL);
	put_iid_event(&b, 2, 50, 1, "q", "w", NULL);
	put_iid_event(&b, 1, 60, 0, NULL, "v3", NULL);
	tb_raw(&b, bad, sizeof(bad));
	put_iid_event(&b, 1, 80, 0, NULL, NULL, NULL);
	tb_raw(&b, bad, sizeof(bad));
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select ts, arg_set_id from slice order by ts",
			   "10\t0\n20\t0\n30\t1\n40\t1\n50\t2\n60\t3\n80\t3\n");
	tt_test_assert_tsv(tr, "select arg_set_id, key, display_value from args where arg_set_id <= 3 order by id",
			   "0\tdebug.k\tv1\n0\tdebug.\t7\n1\tdebug.z\tv1\n1\tdebug.m\t7\n"
			   "2\tdebug.q\tw\n2\tdebug.\t7\n3\tdebug.z\tv3\n3\tdebug.m\t7\n");
	assert_int_equal(tt_test_stat(tr, "proto_packet_bad"), 2);
	/* iid 5 at 10, at 20 (counted again: not kept while missing), at 50 */
	assert_int_equal(tt_test_stat(tr, "proto_interned_missing"), 3);
	tb_close(tr, path, &b);
}

/* An instant named name at ts on seq 1 whose annotation nests depth
 * dict levels ("d" within "d"... down to "x" = 1), and a string
 * annotation of pad bytes. */
/* minimal: the nested annotations have no name and the innermost no
 * value, so that each level costs the 2 bytes of its field's tag and
 * length, the fewest a level can cost. */
static void put_deep_event_ex(tbuf *b, uint64_t ts, int depth, size_t pad, const char *name, int minimal)
{
	Pkt p = pkt(1, ts);
	TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	Perfetto__Protos__DebugAnnotation *a = calloc((size_t)depth + 2, sizeof(*a)), **ptr = calloc((size_t)depth + 2, sizeof(*ptr));
	Perfetto__Protos__DebugAnnotation *top[2];
	char *text = malloc(pad + 1);

	assert_non_null(a);
	assert_non_null(ptr);
	assert_non_null(text);
	memset(text, 'p', pad);
	text[pad] = 0;
	for (int i = 0; i <= depth + 1; i++) {
		perfetto__protos__debug_annotation__init(&a[i]);
		ptr[i] = &a[i];
		a[i].name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME;
		a[i].name = "d";
	}
	for (int i = 0; i < depth; i++) {
		a[i].n_dict_entries = 1;
		a[i].dict_entries = &ptr[i + 1];
		if (minimal && i > 0)
			a[i].name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD__NOT_SET;
	}
	a[depth].name = "x";
	a[depth].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE;
	a[depth].int_value = 1;
	if (minimal) {
		a[depth].name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD__NOT_SET;
		a[depth].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE__NOT_SET;
	}
	a[depth + 1].name = "pad";
	a[depth + 1].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE;
	a[depth + 1].string_value = text;
	top[0] = &a[0];
	top[1] = &a[depth + 1];
	te.has_type = 1;
	te.type = 3;
	te.has_track_uuid = 1;
	te.track_uuid = 700;
	te.name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME;
	te.name = (char *)name;
	te.n_debug_annotations = 2;
	te.debug_annotations = top;
	p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT;
	p.track_event = &te;
	tb_packet(b, &p);
	free(a);
	free(ptr);
	free(text);
}

static void put_deep_event(tbuf *b, uint64_t ts, int depth, size_t pad, const char *name)
{
	put_deep_event_ex(b, ts, depth, pad, name, 0);
}

/* The same limit at the fewest bytes a level can cost (2): the walk that
 * checks it skips what is too short to pass the limit, and must still
 * see 65 levels there. */
static void test_debug_annotations_deep_minimal(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	put_track(&b, 700, "args");
	put_deep_event_ex(&b, 10, 62, 1000, "deep", 1); /* 64 levels: taken */
	put_deep_event_ex(&b, 20, 63, 1000, "deep", 1); /* 65 levels: not */
	put_deep_event_ex(&b, 30, 61, 1000, "deep", 1);
	put_deep_event_ex(&b, 40, 200, 1000, "deep", 1);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select ts from slice order by ts", "10\n30\n");
	assert_int_equal(tt_test_stat(tr, "proto_packet_bad"), 2);
	tb_close(tr, path, &b);
}

/* Annotations nesting deeper than 64 levels (the packet and its event
 * count) reject a packet of 1 KiB or more (the nesting is checked there,
 * protobuf-c recursing without a limit), however often they come, and
 * not a shorter packet; the same annotation bytes behave as their packet
 * says. */
static void test_debug_annotations_deep(void **state)
{
	char longname[800];
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = 0;
	put_track(&b, 700, "args");
	put_deep_event(&b, 10, 70, 1, "deep");   /* about 500 bytes: taken */
	put_deep_event(&b, 20, 70, 1, "deep");
	put_deep_event(&b, 30, 62, 900, "deep"); /* over 1 KiB, 64 levels: taken */
	put_deep_event(&b, 40, 63, 900, "deep"); /* over 1 KiB, 65 levels: not */
	put_deep_event(&b, 50, 63, 900, "deep");
	put_deep_event(&b, 60, 63, 1, "deep");   /* the same depth, short */
	put_deep_event(&b, 70, 63, 1, longname); /* its annotations again, in a long packet */
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select ts from slice order by ts", "10\n20\n30\n60\n");
	assert_int_equal(tt_test_stat(tr, "proto_packet_bad"), 3);
	tb_close(tr, path, &b);
}

static void test_debug_annotations(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Pkt p = pkt(1, 10);
	TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	Perfetto__Protos__DebugAnnotation a[12], *ap[8], *dict[2], *arr[2];
	Perfetto__Protos__InternedData in = PERFETTO__PROTOS__INTERNED_DATA__INIT;
	Perfetto__Protos__DebugAnnotationName dn = PERFETTO__PROTOS__DEBUG_ANNOTATION_NAME__INIT, *dnp = &dn;
	Perfetto__Protos__InternedString is = PERFETTO__PROTOS__INTERNED_STRING__INIT, *isp = &is;
	size_t i;

	(void)state;
	put_track(&b, 700, "args");
	for (i = 0; i < 12; i++)
		perfetto__protos__debug_annotation__init(&a[i]);
	for (i = 0; i < 8; i++) {
		a[i].name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME;
		ap[i] = &a[i];
	}
	a[0].name = "b"; a[0].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_BOOL_VALUE; a[0].bool_value = 1;
	a[1].name = "u"; a[1].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_UINT_VALUE; a[1].uint_value = 5;
	a[2].name = "i"; a[2].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE; a[2].int_value = -3;
	a[3].name = "d"; a[3].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_DOUBLE_VALUE; a[3].double_value = 2.5;
	a[4].name = "s"; a[4].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE; a[4].string_value = "x";
	/* interned name (iid 1 = "named") and interned string value (iid 2 = "val") */
	a[5].name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME_IID;
	a[5].name_iid = 1;
	a[5].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE_IID;
	a[5].string_value_iid = 2;
	/* n: {k1: 1, k2: [7, "z"]} */
	a[6].name = "n";
	a[8].name_field_case = a[9].name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME;
	a[8].name = "k1"; a[8].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE; a[8].int_value = 1;
	a[9].name = "k2";
	a[10].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE; a[10].int_value = 7;
	a[11].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE; a[11].string_value = "z";
	dict[0] = &a[8];
	dict[1] = &a[9];
	arr[0] = &a[10];
	arr[1] = &a[11];
	a[6].n_dict_entries = 2;
	a[6].dict_entries = dict;
	a[9].n_array_values = 2;
	a[9].array_values = arr;
	a[7].name = "j"; a[7].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_LEGACY_JSON_VALUE;
	/* flattened as trace processor does: nulls left out (no index) */
	a[7].legacy_json_value = "{\"q\":1,\"r\":[null,2.5,\"s\"],\"t\":{\"u\":true,\"v\":null}}";
	dn.has_iid = 1;
	dn.iid = 1;
	dn.name = "named";
	is.has_iid = is.has_str = 1;
	is.iid = 2;
	is.str.data = (uint8_t *)"val";
	is.str.len = 3;
	in.n_debug_annotation_names = 1;
	in.debug_annotation_names = &dnp;
	in.n_debug_annotation_string_values = 1;
	in.debug_annotation_string_values = &isp;
	p.interned_data = &in;
	set_flags(&p, 1);
	te_set(&te, 3, 700, "with-args");
	te.n_debug_annotations = 8;
	te.debug_annotations = ap;
	TB_PUT(&b, p, TRACK_EVENT, track_event, &te);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select a.key, a.flat_key, coalesce(a.int_value, a.string_value, a.real_value) from slice s "
		       "join args a using(arg_set_id) order by a.key",
		   "debug.b\tdebug.b\t1\n"
		   "debug.d\tdebug.d\t2.5\n"
		   "debug.i\tdebug.i\t-3\n"
		   "debug.j.q\tdebug.j.q\t1\n"
		   "debug.j.r[0]\tdebug.j.r\t2.5\n"
		   "debug.j.r[1]\tdebug.j.r\ts\n"
		   "debug.j.t.u\tdebug.j.t.u\t1\n"
		   "debug.n.k1\tdebug.n.k1\t1\n"
		   "debug.n.k2[0]\tdebug.n.k2\t7\n"
		   "debug.n.k2[1]\tdebug.n.k2\tz\n"
		   "debug.named\tdebug.named\tval\n"
		   "debug.s\tdebug.s\tx\n"
		   "debug.u\tdebug.u\t5\n");
	tb_close(tr, path, &b);
}

/* One instant on sequence seq with a dict annotation "data": {frame: "F1",
 * n: n, <interned name 1>: 5}; its sequence interns name 1 as iname. */
static void put_dict_event(tbuf *b, uint32_t seq, uint64_t ts, int64_t n, const char *iname)
{
	Pkt p = pkt(seq, ts);
	TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	Perfetto__Protos__DebugAnnotation top, e[3], *ep[3], *tp = &top;
	Perfetto__Protos__InternedData in = PERFETTO__PROTOS__INTERNED_DATA__INIT;
	Perfetto__Protos__DebugAnnotationName dn = PERFETTO__PROTOS__DEBUG_ANNOTATION_NAME__INIT, *dnp = &dn;

	perfetto__protos__debug_annotation__init(&top);
	for (int i = 0; i < 3; i++) {
		perfetto__protos__debug_annotation__init(&e[i]);
		ep[i] = &e[i];
	}
	top.name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME;
	top.name = "data";
	top.n_dict_entries = 3;
	top.dict_entries = ep;
	e[0].name_field_case = e[1].name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME;
	e[0].name = "frame";
	e[0].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE;
	e[0].string_value = "F1";
	e[1].name = "n";
	e[1].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE;
	e[1].int_value = n;
	e[2].name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME_IID;
	e[2].name_iid = 1;
	e[2].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE;
	e[2].int_value = 5;
	dn.has_iid = 1;
	dn.iid = 1;
	dn.name = (char *)iname;
	in.n_debug_annotation_names = 1;
	in.debug_annotation_names = &dnp;
	p.interned_data = &in;
	set_flags(&p, 1);
	te_set(&te, 3, 700, "dict");
	te.n_debug_annotations = 1;
	te.debug_annotations = &tp;
	TB_PUT(b, p, TRACK_EVENT, track_event, &te);
}

/* Dict entries are decoded on their own and shared when their bytes come
 * again (proto_read.c: da_unpack): an entry seen before, beside one that
 * changed, is the same entry; the same bytes on another sequence name the
 * key that sequence interned. */
static void test_debug_annotation_entries_shared(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	tbuf inner = {0};
	uLongf zn;
	unsigned char *z;

	(void)state;
	put_track(&b, 700, "args");
	put_dict_event(&b, 1, 10, 1, "alpha");
	put_dict_event(&b, 1, 20, 2, "alpha");
	put_dict_event(&b, 2, 30, 1, "beta");
	put_dict_event(&b, 1, 40, 1, "alpha");
	/* packets inside a compressed one are unpacked by the importing
	 * thread, whose annotations' entries have a cache of their own */
	put_dict_event(&inner, 3, 50, 1, "gamma");
	put_dict_event(&inner, 3, 60, 2, "gamma");
	put_dict_event(&inner, 3, 70, 3, "gamma");
	z = put_compressed(&b, &inner, 3, &zn);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select s.ts, a.key, coalesce(a.int_value, a.string_value) from slice s "
			       "join args a using(arg_set_id) order by s.ts, a.key",
			   "10\tdebug.data.alpha\t5\n10\tdebug.data.frame\tF1\n10\tdebug.data.n\t1\n"
			   "20\tdebug.data.alpha\t5\n20\tdebug.data.frame\tF1\n20\tdebug.data.n\t2\n"
			   "30\tdebug.data.beta\t5\n30\tdebug.data.frame\tF1\n30\tdebug.data.n\t1\n"
			   "40\tdebug.data.alpha\t5\n40\tdebug.data.frame\tF1\n40\tdebug.data.n\t1\n"
			   "50\tdebug.data.frame\tF1\n50\tdebug.data.gamma\t5\n50\tdebug.data.n\t1\n"
			   "60\tdebug.data.frame\tF1\n60\tdebug.data.gamma\t5\n60\tdebug.data.n\t2\n"
			   "70\tdebug.data.frame\tF1\n70\tdebug.data.gamma\t5\n70\tdebug.data.n\t3\n");
	assert_int_equal(tt_test_int(tr, "select count(distinct arg_set_id) from slice"), 6);
	tb_close(tr, path, &b);
	free(z);
	free(inner.p);
}

/* A legacy event of phase, named name, on the sequence's thread (no
 * type, track uuid 0), with its legacy part in *le: id an unscoped id,
 * local_id a process-scoped one (both 0: none). */
static void legacy_event(TEv *te, Perfetto__Protos__TrackEvent__LegacyEvent *le, int phase, const char *name,
			 int64_t dur_us, uint64_t id, uint64_t local_id)
{
	te_set(te, -1, 0, name);
	le->has_phase = 1;
	le->phase = phase;
	if (dur_us) {
		le->has_duration_us = 1;
		le->duration_us = dur_us;
	}
	if (id) {
		le->id_case = PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__ID_UNSCOPED_ID;
		le->unscoped_id = id;
	} else if (local_id) {
		le->id_case = PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__ID_LOCAL_ID;
		le->local_id = local_id;
	}
	te->legacy_event = le;
}

static void put_legacy_ids(tbuf *b, uint32_t seq, uint64_t ts, int phase, const char *name, int64_t dur_us,
			   uint64_t id, uint64_t local_id)
{
	Pkt p = pkt(seq, ts);
	TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	Perfetto__Protos__TrackEvent__LegacyEvent le = PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__INIT;

	legacy_event(&te, &le, phase, name, dur_us, id, local_id);
	TB_PUT(b, p, TRACK_EVENT, track_event, &te);
}

static void put_legacy(tbuf *b, uint64_t ts, int phase, const char *name, int64_t dur_us, uint64_t id)
{
	put_legacy_ids(b, 1, ts, phase, name, dur_us, id, 0);
}

static void test_legacy_events(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	put_thread_track(&b, 1, 800, 20, 21, "legacy");
	put_legacy(&b, 1000, 'X', "complete", 5, 0);   /* 5 us */
	put_legacy(&b, 2000, 'R', "mark", 0, 0);
	put_legacy(&b, 3000, 'b', "async", 0, 9);
	put_legacy(&b, 4000, 'e', "async", 0, 9);
	put_legacy(&b, 4500, 's', "flow-v1", 0, 9);   /* v1 flow out of the topmost slice */
	put_legacy(&b, 6500, 'f', "flow-v1", 0, 9);   /* into the next slice there */
	put_legacy(&b, 7000, 'X', "next", 1, 0);
	/* ids 10 and 11 do not overlap: one track; 12 overlaps 11: a second */
	put_legacy_ids(&b, 1, 5000, 'b', "local", 0, 0, 10);
	put_legacy_ids(&b, 1, 6000, 'e', "local", 0, 0, 10);
	put_legacy_ids(&b, 1, 7000, 'b', "local", 0, 0, 11);
	put_legacy_ids(&b, 1, 7500, 'b', "local", 0, 0, 12);
	put_legacy_ids(&b, 1, 8000, 'e', "local", 0, 0, 11);
	put_legacy_ids(&b, 1, 8500, 'e', "local", 0, 0, 12);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.name, t.tid from slice s join thread_track tt on s.track_id = tt.id "
		       "join thread t using(utid) where tt.id = (select id from thread_track order by id limit 1) "
		       "order by s.ts",
		   "1000\t5000\tcomplete\t21\n2000\t0\tmark\t21\n7000\t1000\tnext\t21\n");
	assert_string_equal(tt_test_str(tr, "select a.string_value from slice s join args a using(arg_set_id) "
					    "where s.name = 'mark' and a.key = 'legacy_event.phase'"), "R");
	/* an unscoped id is global in trace processor, a local_id per process */
	tt_test_assert_tsv(tr, "select s.ts, s.dur, t.type, t.name, t.upid from slice s join track t on s.track_id = t.id "
		       "where s.name = 'async'",
		   "3000\t1000\tlegacy_async_global_slice\tasync\tNULL\n");
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.track_id - (select min(track_id) from slice where name = 'local'),"
		       " t.type, p.pid from slice s join track t on s.track_id = t.id"
		       " join process p on p.upid = t.upid where s.name = 'local' order by s.ts",
		   "5000\t1000\t0\tlegacy_async_process_slice\t20\n"
		   "7000\t1000\t0\tlegacy_async_process_slice\t20\n"
		   "7500\t1000\t1\tlegacy_async_process_slice\t20\n");
	assert_int_equal(tt_test_stat(tr, "proto_legacy_unsupported"), 0);
	/* a legacy async event's id is its slice's legacy_trace_source_id arg
	 * (the end's value updates it in place); none on other phases */
	tt_test_assert_tsv(tr, "select s.name, a.key, a.int_value from slice s join args a using(arg_set_id)"
		       " where a.key = 'legacy_trace_source_id' order by s.ts",
		   "async\tlegacy_trace_source_id\t9\nlocal\tlegacy_trace_source_id\t10\n"
		   "local\tlegacy_trace_source_id\t11\nlocal\tlegacy_trace_source_id\t12\n");
	/* trace processor binds a v1 flow to the topmost slice of the stack:
	 * "mark" (ended, but nothing began since to pop it) */
	tt_test_assert_tsv(tr, "select o.name, i.name from flow f join slice o on f.slice_out = o.id"
		       " join slice i on f.slice_in = i.id", "mark\tnext\n");
	tb_close(tr, path, &b);
}

/* A legacy event "ev" on sequence 1's thread, of phase and unscoped id
 * (0: none), with one debug annotation s = sv. */
static void put_annotated_legacy(tbuf *b, uint64_t ts, int phase, uint64_t id, int64_t sv)
{
	Pkt p = pkt(1, ts);
	TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	Perfetto__Protos__TrackEvent__LegacyEvent le = PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__INIT;
	Perfetto__Protos__DebugAnnotation a = PERFETTO__PROTOS__DEBUG_ANNOTATION__INIT, *ap[1] = { &a };

	legacy_event(&te, &le, phase, "ev", 0, id, 0);
	a.name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME;
	a.name = "s";
	a.value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE;
	a.int_value = sv;
	te.n_debug_annotations = 1;
	te.debug_annotations = ap;
	TB_PUT(b, p, TRACK_EVENT, track_event, &te);
}

/* The same annotation bytes on one sequence make the same set only with
 * the same legacy id, passthrough thread and phase: the importer keeps a
 * set by the bytes together with those (proto_args.c), so an async
 * instant of another id, or an R mark, gets its own rows, and one made
 * again is the same set. */
static void test_annotations_with_legacy_parts(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	put_thread_track(&b, 1, 800, 20, 21, "t");
	put_annotated_legacy(&b, 1000, 'n', 5, 1);
	put_annotated_legacy(&b, 2000, 'n', 6, 1);
	put_annotated_legacy(&b, 3000, 'n', 5, 1);
	put_annotated_legacy(&b, 4000, 'R', 0, 1);
	put_annotated_legacy(&b, 5000, 'I', 0, 1);
	put_annotated_legacy(&b, 6000, 'R', 0, 1);
	put_annotated_legacy(&b, 7000, 'n', 6, 1);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select s.ts, (select int_value from args a where a.arg_set_id = s.arg_set_id and "
		       "a.key = 'legacy_trace_source_id'), (select string_value from args a where a.arg_set_id = "
		       "s.arg_set_id and a.key = 'legacy_event.phase'), (select count(*) from args a where "
		       "a.arg_set_id = s.arg_set_id and a.key = 'legacy_event.passthrough_utid'), (select int_value "
		       "from args a where a.arg_set_id = s.arg_set_id and a.key = 'debug.s') from slice s "
		       "where s.name = 'ev' order by s.ts",
		   "1000\t5\tNULL\t1\t1\n2000\t6\tNULL\t1\t1\n3000\t5\tNULL\t1\t1\n4000\tNULL\tR\t0\t1\n"
		   "5000\tNULL\tNULL\t0\t1\n6000\tNULL\tR\t0\t1\n7000\t6\tNULL\t1\t1\n");
	assert_int_equal(tt_test_int(tr, "select count(distinct arg_set_id) from slice where name = 'ev'"), 4);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice a join slice b on a.arg_set_id = b.arg_set_id "
					 "where a.name = 'ev' and b.name = 'ev' and a.ts < b.ts"), 3);
	tb_close(tr, path, &b);
}

/* A uuid described again by another sequence for another thread: trace
 * processor keeps the first description (the uuid's track stays the
 * first thread's) and counts the conflict, but the second descriptor
 * still makes its thread the second sequence's, where that sequence's
 * events without a track go (and name it as their passthrough thread). */
static void test_conflicting_thread_descriptor(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	put_thread_track(&b, 1, 7, 50, 51, "first");
	put_thread_track(&b, 2, 7, 50, 52, "second");
	put_legacy_ids(&b, 1, 1000, 'X', "on-first", 1, 0, 0);
	put_legacy_ids(&b, 2, 2000, 'X', "on-second", 1, 0, 0);
	put_legacy_ids(&b, 2, 3000, 'S', "async", 0, 4, 0);
	put_legacy_ids(&b, 2, 4000, 'F', "async", 0, 4, 0);
	put_event(&b, 2, 5000, 3, 7, "by-uuid");
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select s.name, th.tid, th.name from slice s join thread_track tt on tt.id = s.track_id "
		       "join thread th using(utid) order by s.ts",
		   "on-first\t51\tfirst\non-second\t52\tsecond\nby-uuid\t51\tfirst\n");
	tt_test_assert_tsv(tr, "select th.tid from slice s join args a using(arg_set_id) join thread th "
		       "on th.utid = a.int_value where s.name = 'async' and a.key = 'legacy_event.passthrough_utid'",
		   "52\n");
	assert_int_equal(tt_test_stat(tr, "track_descriptor_conflicting_reservation"), 1);
	tb_close(tr, path, &b);
}

/* A legacy async event with an int array "arr" (n values from v) and a
 * scalar "s" as debug annotations. */
static void put_async_arr(tbuf *b, uint32_t seq, uint64_t ts, int phase, int64_t v, size_t n, int64_t sv)
{
	Pkt p = pkt(seq, ts);
	TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	Perfetto__Protos__TrackEvent__LegacyEvent le = PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__INIT;
	Perfetto__Protos__DebugAnnotation a = PERFETTO__PROTOS__DEBUG_ANNOTATION__INIT, sc = a, el[4], *ap[2] = { &a, &sc },
					  *elp[4];

	assert_true(n <= 4);
	for (size_t i = 0; i < n; i++) {
		el[i] = (Perfetto__Protos__DebugAnnotation)PERFETTO__PROTOS__DEBUG_ANNOTATION__INIT;
		el[i].value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE;
		el[i].int_value = v + (int64_t)i;
		elp[i] = &el[i];
	}
	a.name_field_case = sc.name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME;
	a.name = "arr";
	a.n_array_values = n;
	a.array_values = elp;
	sc.name = "s";
	sc.value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE;
	sc.int_value = sv;
	te.n_debug_annotations = 2;
	te.debug_annotations = ap;
	te.name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME;
	te.name = "async";
	le.has_phase = 1;
	le.phase = phase;
	le.id_case = PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__ID_UNSCOPED_ID;
	le.unscoped_id = 77;
	te.legacy_event = &le;
	TB_PUT(b, p, TRACK_EVENT, track_event, &te);
}

/* An async slice's end args join its beginning's as trace processor's
 * args tracker of the open slice does: the end's array entries follow
 * the beginning's (arr[2], arr[3]), its scalar replaces the beginning's,
 * the passthrough thread stays the beginning's although the end came
 * from another thread; and the args table holds the slice's set only
 * (not the beginning's and end's sets it was made of). */
static void test_async_end_args_merge(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	put_thread_track(&b, 1, 7, 50, 51, "first");
	put_thread_track(&b, 2, 8, 50, 52, "second");
	put_async_arr(&b, 1, 1000, 'b', 10, 2, 1);
	put_async_arr(&b, 2, 2000, 'e', 20, 2, 2);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select a.key, a.int_value from slice s join args a using(arg_set_id) "
		       "where a.key glob 'debug.*' order by a.key",
		   "debug.arr[0]\t10\ndebug.arr[1]\t11\ndebug.arr[2]\t20\ndebug.arr[3]\t21\ndebug.s\t2\n");
	tt_test_assert_tsv(tr, "select th.tid from slice s join args a using(arg_set_id) join thread th "
		       "on th.utid = a.int_value where a.key = 'legacy_event.passthrough_utid'", "51\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from args where key glob 'debug.*'"), 5);
	assert_int_equal(tt_test_int(tr, "select count(*) from args where key = 'legacy_event.passthrough_utid'"), 1);
	tb_close(tr, path, &b);
}

/* Regression: protobuf-c recursed through 100,000 nested DebugAnnotation
 * dict_entries and overflowed the stack (segfault). The packet is built
 * as raw bytes, inside out (protobuf-c's packer would recurse too). */
static void test_deep_nesting(void **state)
{
	enum { DEPTH = 5000 };
	static size_t sz[DEPTH + 1];
	tbuf b = {0}, pk = {0}, te = {0};
	char *path;
	tt_trace *tr;
	int i;

	(void)state;
	three_events(&b);
	sz[0] = 5; /* name "x" (0x52 0x01 'x') + int_value 1 (0x20 0x01) */
	for (i = 1; i <= DEPTH; i++) {
		size_t v = sz[i - 1], n = 1;
		while (v >= 0x80) {
			v >>= 7;
			n++;
		}
		sz[i] = 1 + n + sz[i - 1];
	}
	/* TrackEvent { type: INSTANT, debug_annotations: <DEPTH levels> } */
	tb_raw(&te, "\x48\x03\x22", 3);
	tb_varint(&te, sz[DEPTH]);
	for (i = DEPTH; i >= 1; i--) {
		tb_raw(&te, "\x5a", 1); /* dict_entries = 11, LEN */
		tb_varint(&te, sz[i - 1]);
	}
	tb_raw(&te, "\x52\x01x\x20\x01", 5);
	tb_raw(&pk, "\x5a", 1); /* TracePacket.track_event = 11 */
	tb_varint(&pk, te.n);
	tb_raw(&pk, te.p, te.n);
	tb_raw(&b, "\x0a", 1);
	tb_varint(&b, pk.n);
	tb_raw(&b, pk.p, pk.n);
	put_event(&b, 1, 300, 3, 600, "after");
	tr = tb_open(&b, &path);
	assert_int_equal(tt_test_stat(tr, "proto_packet_bad"), 1);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 3);
	tb_close(tr, path, &b);
	free(pk.p);
	free(te.p);
}

static void test_process_stats(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Pkt p = pkt(1, 7000);
	Perfetto__Protos__ProcessStats ps = PERFETTO__PROTOS__PROCESS_STATS__INIT;
	Perfetto__Protos__ProcessStats__Process pr = PERFETTO__PROTOS__PROCESS_STATS__PROCESS__INIT, *prp[2] = { &pr, NULL };
	Perfetto__Protos__ProcessStats__Process bare = PERFETTO__PROTOS__PROCESS_STATS__PROCESS__INIT;

	(void)state;
	/* an entry with its pid only makes no process; lmkd's kill of 33
	 * reports on the same oom_score_adj track as the process stats */
	bare.has_pid = 1;
	bare.pid = 34;
	prp[1] = &bare;
	ft_print(&b, 8000, 40, "B|40|lmk,33,3,900");
	ft_print(&b, 8100, 40, "E|40");
	pr.has_pid = 1;
	pr.pid = 33;
	pr.has_vm_rss_kb = 1;
	pr.vm_rss_kb = 4; /* -> 4096 bytes */
	pr.has_oom_score_adj = 1;
	pr.oom_score_adj = -100;
	pr.has_runtime_kernel_mode = 1; /* ns, kept as is */
	pr.runtime_kernel_mode = 1500000;
	ps.n_processes = 2;
	ps.processes = prp;
	TB_PUT(&b, p, PROCESS_STATS, process_stats, &ps);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select t.name, pr.pid, c.ts, c.value from counter c join track t on c.track_id = t.id "
		       "join process pr on pr.upid = t.upid order by t.name, c.ts",
		   "mem.rss\t33\t7000\t4096.0\noom_score_adj\t33\t7000\t-100.0\noom_score_adj\t33\t8000\t900.0\n"
		   "runtime.kernel_ns\t33\t7000\t1500000.0\n");
	assert_int_equal(tt_test_int(tr, "select count(distinct track_id) from counter c join track t on "
					 "t.id = c.track_id where t.type = 'oom_score_adj'"), 1);
	assert_int_equal(tt_test_int(tr, "select count(*) from process where pid = 34"), 0);
	tb_close(tr, path, &b);
}

/* track.dimension_arg_set_id of counter tracks, as trace processor's
 * blueprints give them (keys in the blueprint's order): a descriptor
 * counter its scope (utid / upid, none when global) and uuid; a process's
 * memory its upid and key, its oom_score_adj its upid; a cpu's frequency
 * and idle state their cpu (one set, kept once); with trace processor's
 * track types. */
static void test_counter_dimension_args(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	TDesc td;
	Perfetto__Protos__ProcessDescriptor pd = process_of(42);
	Perfetto__Protos__CounterDescriptor cd = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;
	Pkt p = pkt(1, 50);
	Perfetto__Protos__ProcessStats ps = PERFETTO__PROTOS__PROCESS_STATS__INIT;
	Perfetto__Protos__ProcessStats__Process pr = PERFETTO__PROTOS__PROCESS_STATS__PROCESS__INIT, *prp = &pr;
	Perfetto__Protos__FtraceEvent e1 = PERFETTO__PROTOS__FTRACE_EVENT__INIT, e2 = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__CpuFrequencyFtraceEvent cf = PERFETTO__PROTOS__CPU_FREQUENCY_FTRACE_EVENT__INIT;
	Perfetto__Protos__CpuIdleFtraceEvent ci = PERFETTO__PROTOS__CPU_IDLE_FTRACE_EVENT__INIT;

	(void)state;
	put_thread_track(&b, 1, 10, 42, 43, "main");
	td = desc_of(20, NULL);
	td.process = &pd;
	put_td(&b, 1, &td);
	/* thread counter, process counter, global counter */
	td = desc_of(11, "tc");
	td.has_parent_uuid = 1;
	td.parent_uuid = 10;
	td.counter = &cd;
	put_td(&b, 1, &td);
	td = desc_of(21, "pc");
	td.has_parent_uuid = 1;
	td.parent_uuid = 20;
	td.counter = &cd;
	put_td(&b, 1, &td);
	td = desc_of(30, "gc");
	td.counter = &cd;
	put_td(&b, 1, &td);
	put_counter(&b, 100, 0, 11, 0, 1);
	put_counter(&b, 100, 0, 21, 0, 2);
	put_counter(&b, 100, 0, 30, 0, 3);
	pr.has_pid = 1;
	pr.pid = 42;
	pr.has_vm_rss_kb = 1;
	pr.vm_rss_kb = 4;
	pr.has_oom_score_adj = 1;
	pr.oom_score_adj = 5;
	ps.n_processes = 1;
	ps.processes = &prp;
	TB_PUT(&b, p, PROCESS_STATS, process_stats, &ps);
	cf.has_cpu_id = cf.has_state = 1;
	cf.cpu_id = 1;
	cf.state = 1800000;
	e1.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPU_FREQUENCY;
	e1.cpu_frequency = &cf;
	ft_packet(&b, 200, 0, &e1);
	ci.has_cpu_id = ci.has_state = 1;
	ci.cpu_id = 1;
	ci.state = 2;
	e2.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPU_IDLE;
	e2.cpu_idle = &ci;
	ft_packet(&b, 210, 0, &e2);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select t.type, t.name, a.key, a.display_value from counter_track t join args a "
		       "on a.arg_set_id = t.dimension_arg_set_id order by t.type, a.id",
		   "cpu_frequency\tcpufreq\tcpu\t1\n"
		   "cpu_idle\tcpuidle\tcpu\t1\n"
		   "global_counter_track_event\tgc\ttrack_uuid\t30\n"
		   "oom_score_adj\toom_score_adj\tupid\t1\n"
		   "process_counter_track_event\tpc\tupid\t1\n"
		   "process_counter_track_event\tpc\ttrack_uuid\t21\n"
		   "process_memory\tmem.rss\tupid\t1\n"
		   "process_memory\tmem.rss\tprocess_memory_key\trss\n"
		   "thread_counter_track_event\ttc\tutid\t2\n"
		   "thread_counter_track_event\ttc\ttrack_uuid\t11\n");
	/* the scopes are the trace's: pid 42, tid 43 */
	assert_int_equal(tt_test_int(tr, "select p.pid from counter_track t join args a on a.arg_set_id = "
					 "t.dimension_arg_set_id join process p on p.upid = a.int_value "
					 "where t.name = 'pc' and a.key = 'upid'"), 42);
	assert_int_equal(tt_test_int(tr, "select th.tid from counter_track t join args a on a.arg_set_id = "
					 "t.dimension_arg_set_id join thread th on th.utid = a.int_value "
					 "where t.name = 'tc' and a.key = 'utid'"), 43);
	/* one set {cpu: 1} for both cpu tracks (identical sets kept once) */
	assert_int_equal(tt_test_int(tr, "select count(distinct dimension_arg_set_id) from counter_track "
					 "where type in ('cpu_frequency', 'cpu_idle')"), 1);
	assert_int_equal(tt_test_int(tr, "select count(*) from track where cpu = 1 and is_counter"), 2);
	tb_close(tr, path, &b);
}

static void put_legacy_instant(tbuf *b, uint64_t ts, const char *name, int scope)
{
	Pkt p = pkt(1, ts);
	TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	Perfetto__Protos__TrackEvent__LegacyEvent le = PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__INIT;

	te_set(&te, -1, 0, name);
	le.has_phase = 1;
	le.phase = 'I';
	le.has_instant_event_scope = 1;
	le.instant_event_scope = scope;
	te.legacy_event = &le;
	TB_PUT(b, p, TRACK_EVENT, track_event, &te);
}

/* Legacy global / process instants' tracks as trace processor makes
 * them: legacy_chrome_global_instants (no dimension), chrome_process_instant
 * (the process), each with the source arg chrome; one track per scope. */
static void test_legacy_instant_tracks(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	put_thread_track(&b, 1, 10, 42, 43, "main");
	put_legacy_instant(&b, 100, "g1", 1);
	put_legacy_instant(&b, 110, "p1", 2);
	put_legacy_instant(&b, 120, "g2", 1);
	put_legacy_instant(&b, 130, "p2", 2);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select t.type, group_concat(s.name) from track t join slice s on s.track_id = t.id "
		       "group by t.id order by t.type",
		   "chrome_process_instant\tp1,p2\nlegacy_chrome_global_instants\tg1,g2\n");
	tt_test_assert_tsv(tr, "select t.type, a.key, a.display_value from track t join args a "
		       "on a.arg_set_id = t.dimension_arg_set_id where t.type like '%instant%' order by t.type, a.id",
		   "chrome_process_instant\tupid\t1\n");
	assert_int_equal(tt_test_int(tr, "select p.pid from track t join process p on p.upid = t.upid "
					 "where t.type = 'chrome_process_instant'"), 42);
	tt_test_assert_tsv(tr, "select t.type, a.key, a.display_value from track t join args a "
		       "on a.arg_set_id = t.source_arg_set_id where t.type like '%instant%' order by t.type, a.id",
		   "chrome_process_instant\tsource\tchrome\nlegacy_chrome_global_instants\tsource\tchrome\n");
	tb_close(tr, path, &b);
}

/* atrace async slices on trace processor's track compressor tracks: one
 * set per (process, name) for S / F and one per (process, track name) for
 * G / H / N, a lane per cookie while its slice is open (a lane left idle
 * is taken again), dimensions upid, name, track_compressor_idx. An
 * instant (N) takes lanes of its own kind, never a cookie's idle lane:
 * "late" follows "inst" on lane 1, not "a" on lane 0. */
static void test_atrace_async_tracks(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	tree_packet(&b, 10, 10, 1, "/bin/app", 11, "worker");
	ft_print(&b, 100, 11, "S|10|req|1");
	ft_print(&b, 110, 11, "S|10|req|2");
	ft_print(&b, 200, 11, "F|10|req|1");
	ft_print(&b, 210, 11, "F|10|req|2");
	ft_print(&b, 300, 11, "S|10|req|3");
	ft_print(&b, 400, 11, "F|10|req|3");
	ft_print(&b, 500, 11, "G|10|trk|a|5");
	ft_print(&b, 550, 11, "N|10|trk|inst");
	ft_print(&b, 600, 11, "H|10|trk|5");
	ft_print(&b, 700, 11, "N|10|trk|late");
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select t.type, t.name, group_concat(s.name || '@' || s.ts || '+' || s.dur, ' ') "
		       "from slice s join track t on t.id = s.track_id group by t.id order by t.id",
		   "atrace_async_slice\treq\treq@100+100 req@300+100\n"
		   "atrace_async_slice\treq\treq@110+100\n"
		   "atrace_async_slice_for_track\ttrk\ta@500+100\n"
		   "atrace_async_slice_for_track\ttrk\tinst@550+0 late@700+0\n");
	tt_test_assert_tsv(tr, "select t.id, a.key, a.display_value from track t join args a "
		       "on a.arg_set_id = t.dimension_arg_set_id where t.type like 'atrace_async%' order by t.id, a.id",
		   "0\tupid\t2\n0\tname\treq\n0\ttrack_compressor_idx\t0\n"
		   "1\tupid\t2\n1\tname\treq\n1\ttrack_compressor_idx\t1\n"
		   "2\tupid\t2\n2\tname\ttrk\n2\ttrack_compressor_idx\t0\n"
		   "3\tupid\t2\n3\tname\ttrk\n3\ttrack_compressor_idx\t1\n");
	/* (upid 2: pid 10, after its parent pid 1) */
	tt_test_assert_tsv(tr, "select distinct p.pid from track t join process p using(upid) "
		       "where t.type like 'atrace_async%'", "10\n");
	tb_close(tr, path, &b);
}

/* A process track descriptor with the Chrome fields. */
static void put_process_desc(tbuf *b, uint64_t uuid, int32_t pid, const char *name, int chrome_type,
			     const char *label, char **cmdline, size_t ncmd)
{
	TDesc td = desc_of(uuid, NULL);
	Perfetto__Protos__ProcessDescriptor pd = process_of(pid);
	Perfetto__Protos__ChromeProcessDescriptor cp = PERFETTO__PROTOS__CHROME_PROCESS_DESCRIPTOR__INIT;
	char *labels[1] = { (char *)label };

	pd.process_name = (char *)name;
	pd.n_cmdline = ncmd;
	pd.cmdline = cmdline;
	if (label) {
		pd.n_process_labels = 1;
		pd.process_labels = labels;
	}
	td.process = &pd;
	if (chrome_type) {
		cp.has_process_type = 1;
		cp.process_type = chrome_type;
		td.chrome_process = &cp;
	}
	put_td(b, 1, &td);
}

/* Process names by trace processor's priorities (system > Chrome renderer
 * type > descriptor name > other Chrome types), whatever the order; the
 * command line in process.cmdline, never the name; Chrome type and labels
 * as process args; process tree rules (argv0, kworker suffix, uid,
 * cmdline_is_comm); sort indexes as *_sort_index_hint args. */
static void test_process_naming(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	char *renderer_cmd[] = { "/usr/lib/chromium/chromium --type=renderer --x=1" };
	char *app_cmd[] = { "/bin/app", "--flag" };
	char *one_cmd[] = { "/bin/one two" };
	char *kw_cmd[] = { "kworker/1:0-events" };
	Pkt p = pkt(1, 0);
	Perfetto__Protos__ProcessTree pt = PERFETTO__PROTOS__PROCESS_TREE__INIT;
	Perfetto__Protos__ProcessTree__Process pr[3], *prp[3];
	Perfetto__Protos__ProcessTree__Thread th = PERFETTO__PROTOS__PROCESS_TREE__THREAD__INIT, *thp = &th;

	(void)state;
	/* a renderer: the type wins over the descriptor's name, in either order */
	put_process_desc(&b, 1, 100, NULL, 2, "page", renderer_cmd, 1);
	put_process_desc(&b, 1, 100, "chromium --type=renderer", 0, NULL, NULL, 0);
	/* a GPU process: its descriptor's name wins over the Chrome type */
	put_process_desc(&b, 2, 101, "GPU Process", 6, NULL, NULL, 0);
	/* a descriptor's command line alone names nothing */
	put_process_desc(&b, 3, 102, NULL, 0, NULL, app_cmd, 2);
	for (int i = 0; i < 3; i++) {
		perfetto__protos__process_tree__process__init(&pr[i]);
		prp[i] = &pr[i];
		pr[i].has_pid = pr[i].has_ppid = 1;
	}
	pr[0].pid = 102; /* the process tree (system) wins over the descriptor */
	pr[0].ppid = 1;
	pr[0].n_cmdline = 2;
	pr[0].cmdline = app_cmd;
	pr[0].has_uid = 1;
	pr[0].uid = 1010001; /* Android user 10's app 10001 */
	pr[1].pid = 103;
	pr[1].ppid = 1;
	pr[1].n_cmdline = 1;
	pr[1].cmdline = one_cmd;
	pr[2].pid = 104;
	pr[2].ppid = 2;
	pr[2].n_cmdline = 1;
	pr[2].cmdline = kw_cmd;
	pr[2].has_cmdline_is_comm = 1;
	pr[2].cmdline_is_comm = 1;
	th.has_tid = th.has_tgid = 1;
	th.tid = th.tgid = 104;
	th.name = "kworker/1:0-events";
	pt.n_processes = 3;
	pt.processes = prp;
	pt.n_threads = 1;
	pt.threads = &thp;
	TB_PUT(&b, p, PROCESS_TREE, process_tree, &pt);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select pid, name, cmdline, uid from process where pid >= 100 order by pid",
		   "100\tRenderer\t/usr/lib/chromium/chromium --type=renderer --x=1\tNULL\n"
		   "101\tGPU Process\tNULL\tNULL\n"
		   "102\t/bin/app\t/bin/app --flag\t1010001\n"
		   "103\t/bin/one\t/bin/one two\tNULL\n"
		   "104\tkworker/1:0\tkworker/1:0\tNULL\n");
	tt_test_assert_tsv(tr, "select p.pid, a.key, a.display_value from process p join args a using(arg_set_id)"
		       " order by p.pid, a.key",
		   "100\tchrome.process_label[0]\tpage\n"
		   "100\tchrome.process_type\tRenderer\n"
		   "101\tchrome.process_type\tGpu\n");
	tt_test_assert_tsv(tr, "select tid, name from thread where tid = 104", "104\tkworker/1:0\n");
	/* trace processor's android_appid / android_user_id (UserHandle) */
	tt_test_assert_tsv(tr, "select pid, android_appid, android_user_id from process where pid in (100, 102) order by pid",
		   "100\tNULL\tNULL\n102\t10001\t10\n");
	tb_close(tr, path, &b);
}

static void put_track_merge(tbuf *b, uint64_t uuid, uint64_t parent, const char *name, int merge)
{
	TDesc td = desc_of(uuid, name);

	if (parent) {
		td.has_parent_uuid = 1;
		td.parent_uuid = parent;
	}
	if (merge >= 0) {
		td.has_sibling_merge_behavior = 1;
		td.sibling_merge_behavior = merge;
	}
	put_td(b, 1, &td);
}

/* Track names as trace processor gives them: a track that must not merge
 * with its siblings takes its latest name, one that may keeps its first,
 * one never named takes the name of its first event; whenever the
 * descriptors come. */
static void test_track_names(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	put_track_merge(&b, 1, 0, "first", 2);
	put_event(&b, 1, 100, 3, 1, "e1");
	put_track_merge(&b, 1, 0, "second", 2);
	put_track_merge(&b, 2, 0, "kept", -1);
	put_event(&b, 1, 200, 3, 2, "e2");
	put_track_merge(&b, 2, 0, "ignored", -1);
	put_track_merge(&b, 3, 0, NULL, -1);
	put_event(&b, 1, 300, 3, 3, "from event");
	put_event(&b, 1, 310, 3, 3, "later event");
	put_track_merge(&b, 4, 0, NULL, -1);
	put_event(&b, 1, 400, 3, 4, "before name");
	put_track_merge(&b, 4, 0, "named later", -1);
	put_track_merge(&b, 5, 0, "parent", -1);
	put_track_merge(&b, 6, 5, NULL, -1);
	put_event(&b, 1, 500, 3, 6, "child event");
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select t.name, p.name from track t left join track p on t.parent_id = p.id order by t.name",
		   "child event\tparent\nfrom event\tNULL\nkept\tNULL\nnamed later\tNULL\n"
		   "parent\tNULL\nsecond\tNULL\n");
	tb_close(tr, path, &b);
}

/* A TrackDescriptor's description: the track's source arg "description"
 * (thread tracks and plain ones alike); none without one. */
static void test_track_descriptions(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	TDesc td = desc_of(7, NULL);
	Perfetto__Protos__ThreadDescriptor th = thread_of(3, 4, "w");

	(void)state;
	td.description = (char *)"Worker thread";
	td.thread = &th;
	put_td(&b, 1, &td);
	td = desc_of(8, "jobs");
	td.description = (char *)"Queued jobs";
	put_td(&b, 1, &td);
	put_track(&b, 9, "plain");
	put_event(&b, 1, 100, 3, 7, "a");
	put_event(&b, 1, 200, 3, 8, "b");
	put_event(&b, 1, 300, 3, 9, "c");
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select s.name, extract_arg(t.source_arg_set_id, 'description') from slice s"
		       " join track t on s.track_id = t.id order by s.ts",
		   "a\tWorker thread\nb\tQueued jobs\nc\tNULL\n");
	tb_close(tr, path, &b);
}

/* sibling_order_rank of process and thread descriptors is their sort
 * index (process_sort_index_hint / thread_sort_index_hint) only when the
 * root descriptor (uuid 0) asks for explicit process / thread ordering. */
static void put_ranked(tbuf *b, uint64_t uuid, int32_t pid, int64_t tid, int32_t rank)
{
	TDesc td = desc_of(uuid, NULL);
	Perfetto__Protos__ThreadDescriptor th = thread_of(pid, tid, NULL);
	Perfetto__Protos__ProcessDescriptor pr = process_of(pid);

	td.has_sibling_order_rank = 1;
	td.sibling_order_rank = rank;
	if (tid)
		td.thread = &th;
	else
		td.process = &pr;
	put_td(b, 1, &td);
}

/* child_ordering and sibling_order_rank as the track's source args. */
static void test_track_ordering_args(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	TDesc td = desc_of(2, "parent");

	(void)state;
	put_thread_track(&b, 1, 1, 5, 6, "t");
	td.has_child_ordering = 1;
	td.child_ordering = 3;
	put_td(&b, 1, &td);
	td = desc_of(3, "ranked");
	td.has_parent_uuid = 1;
	td.parent_uuid = 2;
	td.has_sibling_order_rank = 1;
	td.sibling_order_rank = -4;
	put_td(&b, 1, &td);
	put_track_merge(&b, 4, 1, "under thread", -1);
	put_event(&b, 1, 100, 3, 3, "a");
	put_event(&b, 1, 200, 3, 4, "b");
	put_event(&b, 1, 300, 3, 2, "c");
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select t.name, p.name, extract_arg(t.source_arg_set_id, 'child_ordering'),"
		       " extract_arg(t.source_arg_set_id, 'sibling_order_rank'), t.utid is not null"
		       " from track t left join track p on t.parent_id = p.id where t.name != 't' order by t.name",
		   "parent\tNULL\texplicit\tNULL\t0\nranked\tparent\tNULL\t-4\t0\n"
		   "under thread\tNULL\tNULL\tNULL\t1\n");
	tb_close(tr, path, &b);
}

static void test_descriptor_sort_index(void **state)
{
	for (int explicit_order = 0; explicit_order < 2; explicit_order++) {
		tbuf b = {0};
		char *path;
		tt_trace *tr;
		TDesc root = desc_of(0, NULL);

		(void)state;
		root.has_process_ordering = 1;
		root.process_ordering = explicit_order;
		root.has_thread_ordering = 1;
		root.thread_ordering = explicit_order;
		put_td(&b, 1, &root);
		put_ranked(&b, 1, 100, 0, 5);
		put_ranked(&b, 2, 100, 101, -3);
		put_event(&b, 1, 100, 3, 2, "e");
		tr = tb_open(&b, &path);
		tt_test_assert_tsv(tr, "select extract_arg(p.arg_set_id, 'process_sort_index_hint'),"
			       " extract_arg(t.arg_set_id, 'thread_sort_index_hint')"
			       " from thread t join process p using (upid) where t.tid = 101",
			   explicit_order ? "5\t-3\n" : "NULL\tNULL\n");
		tb_close(tr, path, &b);
	}
}

/* One descriptor track per thread and per process: a second uuid for the
 * same (pid, tid) or pid is a reused id, so a new thread / process; events
 * stay with the one their track described. A tid override puts a legacy
 * event on that thread of the sequence's process. */
static void test_descriptor_id_reuse(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Pkt p;
	TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	Perfetto__Protos__TrackEvent__LegacyEvent le = PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__INIT;

	(void)state;
	put_thread_track(&b, 1, 1, 5, 1, "t1");
	put_process_desc(&b, 10, 5, "p1", 0, NULL, NULL, 0);
	put_event(&b, 1, 100, 3, 1, "on_t1");
	put_event(&b, 1, 200, 3, 10, "on_p1");
	put_thread_track(&b, 1, 3, 5, 1, "t3");
	put_event(&b, 1, 300, 3, 3, "on_t3");
	put_process_desc(&b, 20, 5, "p2", 0, NULL, NULL, 0);
	put_event(&b, 1, 400, 3, 20, "on_p2");
	put_thread_track(&b, 1, 21, 5, 4, "t4");
	p = pkt(1, 500);
	te_set(&te, 3, 0, "override");
	le.has_tid_override = 1;
	le.tid_override = 4;
	te.legacy_event = &le;
	TB_PUT(&b, p, TRACK_EVENT, track_event, &te);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select s.name, coalesce(th.name, '-'), coalesce(pr.name, tp.name), coalesce(pr.pid, tp.pid)"
		       " from slice s join track t on s.track_id = t.id left join thread th on t.utid = th.utid"
		       " left join process tp on th.upid = tp.upid left join process pr on t.utid is null and"
		       " t.upid = pr.upid order by s.ts",
		   "on_t1\tt1\tp1\t5\n"
		   "on_p1\t-\tp1\t5\n"
		   "on_t3\tt3\tp1\t5\n"
		   "on_p2\t-\tp2\t5\n"
		   "override\tt4\tp2\t5\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from thread where tid = 1"), 2);
	tb_close(tr, path, &b);
}

/* Sibling tracks of one parent with one name share tracks while their
 * slices do not overlap, as trace processor merges them (by name, the
 * default); SIBLING_MERGE_BEHAVIOR_NONE keeps a track per uuid. */
static void test_merged_sibling_tracks(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	put_process_desc(&b, 1, 10, "p", 0, NULL, NULL, 0);
	for (uint64_t u = 2; u <= 4; u++)
		put_track_merge(&b, u, 1, "anim", -1);
	put_track_merge(&b, 5, 1, "solo", 2);
	put_track_merge(&b, 6, 1, "solo", 2);
	put_event(&b, 1, 100, 1, 2, "a");
	put_event(&b, 1, 200, 2, 2, NULL);
	put_event(&b, 1, 300, 1, 3, "b");   /* after a: a's track */
	put_event(&b, 1, 350, 1, 4, "c");   /* overlaps b: a second track */
	put_event(&b, 1, 400, 2, 3, NULL);
	put_event(&b, 1, 450, 2, 4, NULL);
	put_event(&b, 1, 500, 3, 5, "s1");
	put_event(&b, 1, 600, 3, 6, "s2");
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select s.name, s.dur, t.name, s.track_id - (select min(track_id) from slice) from slice s"
		       " join track t on s.track_id = t.id order by s.ts",
		   "a\t100\tanim\t0\nb\t100\tanim\t0\nc\t100\tanim\t1\n"
		   "s1\t0\tsolo\t2\ns2\t0\tsolo\t3\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from track where name = 'anim'"), 2);
	tb_close(tr, path, &b);
}

static void put_old_chrome(tbuf *b, int phase, const char *name, int64_t delta_us, int64_t abs_us, int64_t tt_delta_us)
{
	Pkt p = pkt(1, 0);
	TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	Perfetto__Protos__TrackEvent__LegacyEvent le = PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__INIT;

	p.has_timestamp = 0;
	if (name) {
		te.name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME;
		te.name = (char *)name;
	}
	if (abs_us) {
		te.timestamp_case = PERFETTO__PROTOS__TRACK_EVENT__TIMESTAMP_TIMESTAMP_ABSOLUTE_US;
		te.timestamp_absolute_us = abs_us;
	} else {
		te.timestamp_case = PERFETTO__PROTOS__TRACK_EVENT__TIMESTAMP_TIMESTAMP_DELTA_US;
		te.timestamp_delta_us = delta_us;
	}
	if (tt_delta_us) {
		te.thread_time_case = PERFETTO__PROTOS__TRACK_EVENT__THREAD_TIME_THREAD_TIME_DELTA_US;
		te.thread_time_delta_us = tt_delta_us;
	}
	le.has_phase = 1;
	le.phase = phase;
	te.legacy_event = &le;
	TB_PUT(b, p, TRACK_EVENT, track_event, &te);
}

/* 2019-20 Chrome: a ThreadDescriptor packet carries the reference times,
 * events carry us deltas (MONOTONIC) and thread-time deltas; an absolute
 * timestamp is a one-off that leaves the running sum alone. */
static void test_legacy_delta_timestamps(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Pkt p = pkt(1, 0);
	Perfetto__Protos__ThreadDescriptor th = PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;

	(void)state;
	tb_snapshot(&b, 1, 3, 6, 1000, 3, 1000, 0, 0); /* trace clock MONOTONIC */
	th.has_pid = th.has_tid = th.has_reference_timestamp_us = th.has_reference_thread_time_us = 1;
	th.pid = 5;
	th.tid = 6;
	th.thread_name = "old";
	th.reference_timestamp_us = 1000;
	th.reference_thread_time_us = 50;
	TB_PUT(&b, p, THREAD_DESCRIPTOR, thread_descriptor, &th);
	put_old_chrome(&b, 'B', "a", 5, 0, 2);    /* ts 1005 us, tts 52 us */
	put_old_chrome(&b, 'E', NULL, 10, 0, 3);  /* ts 1015 us, tts 55 us */
	put_old_chrome(&b, 'I', "abs", 0, 2000, 0);
	put_old_chrome(&b, 'B', "b", 1, 0, 0);    /* 1016 us: the sum ignored 2000 */
	put_old_chrome(&b, 'E', NULL, 1, 0, 0);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.name, coalesce(s.thread_ts, -1), coalesce(s.thread_dur, -1), t.tid, t.name "
		       "from slice s join thread_track tt on s.track_id = tt.id join thread t using(utid) order by s.ts",
		   "1005000\t10000\ta\t52000\t3000\t6\told\n"
		   "1016000\t1000\tb\t-1\t-1\t6\told\n"
		   "2000000\t0\tabs\t-1\t-1\t6\told\n");
	/* the thread times are also a counter of the thread */
	tt_test_assert_tsv(tr, "select t.name, t.type, th.tid, c.ts, c.value from counter c join track t on c.track_id = t.id"
		       " join thread th using(utid) order by c.ts",
		   "thread_time\tthread_time\t6\t1005000\t52000.0\n"
		   "thread_time\tthread_time\t6\t1015000\t55000.0\n");
	tb_close(tr, path, &b);
}

/* Times out of range drop the event, counted as trace processor counts
 * them: an absolute time whose ns overflow, a delta that takes the running
 * sum below zero (saturating, so the sum stays below zero after). */
static void test_timestamp_overflow(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Pkt p = pkt(1, 0);
	Perfetto__Protos__ThreadDescriptor th = PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;

	(void)state;
	th.has_pid = th.has_tid = th.has_reference_timestamp_us = 1;
	th.pid = 5;
	th.tid = 6;
	th.reference_timestamp_us = 1000;
	TB_PUT(&b, p, THREAD_DESCRIPTOR, thread_descriptor, &th);
	put_old_chrome(&b, 'I', "good", 0, 1000, 0);
	put_old_chrome(&b, 'I', "abs_overflow", 0, -9223372036854776LL, 0);
	put_old_chrome(&b, 'I', "neg", -2000, 0, 0);      /* sum -1000 us */
	put_old_chrome(&b, 'I', "still_neg", 500, 0, 0);  /* sum -500 us */
	put_old_chrome(&b, 'I', "back", 1500, 0, 0);      /* sum 1000 us */
	th.reference_timestamp_us = -9223372036854775LL;
	tb_packet(&b, &p);
	put_old_chrome(&b, 'I', "delta_overflow", -10, 0, 0);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select ts, name from slice order by ts, name",
		   "1000000\tback\n1000000\tgood\n");
	assert_int_equal(tt_test_stat(tr, "track_event_invalid_timestamp"), 4);
	tb_close(tr, path, &b);
}

/* compact_sched: lockstep arrays, first timestamp absolute then deltas,
 * the switched-out thread is whoever ran before on that cpu. */
/* An ftrace bundle of cpu holding only compact sched events. */
static void put_compact(tbuf *b, uint32_t cpu, Perfetto__Protos__FtraceEventBundle__CompactSched *cs)
{
	Pkt p = pkt(1, 0);
	Perfetto__Protos__FtraceEventBundle fb = PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__INIT;

	fb.has_cpu = 1;
	fb.cpu = cpu;
	fb.compact_sched = cs;
	TB_PUT(b, p, FTRACE_EVENTS, ftrace_events, &fb);
}

typedef Perfetto__Protos__FtraceEventBundle__CompactSched CSched;

/* n compact switches (timestamps: the first absolute, then deltas). */
static void cs_switches(CSched *cs, size_t n, uint64_t *ts, int64_t *prev_state, int32_t *pid, int32_t *prio,
			uint32_t *comm)
{
	cs->n_switch_timestamp = cs->n_switch_prev_state = cs->n_switch_next_pid = n;
	cs->n_switch_next_prio = cs->n_switch_next_comm_index = n;
	cs->switch_timestamp = ts;
	cs->switch_prev_state = prev_state;
	cs->switch_next_pid = pid;
	cs->switch_next_prio = prio;
	cs->switch_next_comm_index = comm;
}

/* n compact wakings (common_flags: none). */
static void cs_wakings(CSched *cs, size_t n, uint64_t *ts, int32_t *pid, int32_t *prio, int32_t *cpu, uint32_t *comm)
{
	cs->n_waking_timestamp = cs->n_waking_pid = cs->n_waking_comm_index = n;
	cs->n_waking_prio = cs->n_waking_target_cpu = n;
	cs->waking_timestamp = ts;
	cs->waking_pid = pid;
	cs->waking_prio = prio;
	cs->waking_target_cpu = cpu;
	cs->waking_comm_index = comm;
}

/* A SystemInfo packet with a uname. */
static void system_info_packet(tbuf *b, const char *sysname, const char *release)
{
	Perfetto__Protos__SystemInfo si = PERFETTO__PROTOS__SYSTEM_INFO__INIT;
	Perfetto__Protos__Utsname u = PERFETTO__PROTOS__UTSNAME__INIT;
	Pkt p = pkt(1, 0);

	u.sysname = (char *)sysname;
	u.release = (char *)release;
	si.utsname = &u;
	TB_PUT(b, p, SYSTEM_INFO, system_info, &si);
}

/* sched_switch prev_state decoded as trace processor's TaskState for the
 * kernel of the trace's SystemInfo (4.4 without one): before 4.14 0x40 is
 * x (dead), 0x800 preemption (R+), D with NOLOAD is I; from 4.14 0x40 is
 * P, 0x80 I, 0x100 R+ and higher bits are invalid (NULL, counted). A
 * switch whose prev pid is not the thread the cpu ran leaves that slice
 * open (mismatched_sched_switch_tids). */
static void test_sched_task_states(void **state)
{
	static const char *releases[] = { NULL, "5.10.43-android12", "4.9.1" };
	static const char *want[] = {
		"100\t100\t5\tx\n200\t100\t6\tR+\n300\t100\t5\tI\n400\t-1\t7\t-\n500\t-1\t0\t-\n",
		"100\t100\t5\tP\n200\t100\t6\tS\n300\t100\t5\tDI\n400\t-1\t7\t-\n500\t-1\t0\t-\n",
		"100\t100\t5\tx\n200\t100\t6\tS\n300\t100\t5\tI\n400\t-1\t7\t-\n500\t-1\t0\t-\n",
	};
	/* (4.9: 0x800 is not preemption there, 0x1000 is) */

	(void)state;
	for (int k = 0; k < 3; k++) {
		tbuf b = {0};
		char *path;
		tt_trace *tr;

		if (releases[k])
			system_info_packet(&b, "Linux", releases[k]);
		ft_switch_st(&b, 100, 0, "swapper", 0, 5, "a");
		ft_switch_st(&b, 200, 5, "a", 0x40, 6, "b");
		ft_switch_st(&b, 300, 6, "b", k == 0 ? 0x800 : 1, 5, "a");
		ft_switch_st(&b, 400, 5, "a", k == 1 ? 0x82 : 0x402, 7, "c");
		ft_switch_st(&b, 500, 9, "z", 1, 0, "swapper");
		tr = tb_open(&b, &path);
		tt_test_assert_tsv(tr, "select s.ts, s.dur, t.tid, coalesce(s.end_state, '-') from sched_slice s "
			       "join thread t using(utid) order by s.ts", want[k]);
		assert_int_equal(tt_test_stat(tr, "mismatched_sched_switch_tids"), 1);
		assert_int_equal(tt_test_stat(tr, "task_state_invalid"), 0);
		if (k == 1)
			tt_test_assert_tsv(tr, "select str_value from metadata where name = 'system_release'",
					   "5.10.43-android12\n");
		tb_close(tr, path, &b);
	}
	{
		tbuf b = {0};
		char *path;
		tt_trace *tr;

		system_info_packet(&b, "Linux", "6.1.0");
		ft_switch_st(&b, 100, 0, "swapper", 0, 5, "a");
		ft_switch_st(&b, 200, 5, "a", 0x80, 6, "b");
		ft_switch_st(&b, 300, 6, "b", 0x100, 5, "a");
		ft_switch_st(&b, 400, 5, "a", 0x200, 0, "swapper");
		tr = tb_open(&b, &path);
		tt_test_assert_tsv(tr, "select s.ts, coalesce(s.end_state, 'NULL') from sched_slice s order by s.ts",
				   "100\tI\n200\tR+\n300\tNULL\n400\tNULL\n");
		assert_int_equal(tt_test_stat(tr, "task_state_invalid"), 1);
		/* thread 5's states: running, idle (I), running, then its
		 * invalid state (NULL) from 400 */
		tt_test_assert_tsv(tr, "select s.ts, s.dur, coalesce(s.state, 'NULL') from thread_state s join thread t "
			       "using(utid) where t.tid = 5 order by s.ts",
				   "100\t100\tRunning\n200\t100\tI\n300\t100\tRunning\n400\t-1\tNULL\n");
		tb_close(tr, path, &b);
	}
}

/* A sched_waking of wakee by the thread tid. */
static void ft_waking(tbuf *b, uint64_t ts, int32_t tid, int32_t wakee, const char *comm)
{
	Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__SchedWakingFtraceEvent w = PERFETTO__PROTOS__SCHED_WAKING_FTRACE_EVENT__INIT;

	w.has_pid = 1;
	w.pid = wakee;
	w.comm = (char *)comm;
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_WAKING;
	e.sched_waking = &w;
	ft_packet(b, ts, (uint32_t)tid, &e);
}

/* A cpu_frequency event written by the thread tid. */
static void ft_cpufreq(tbuf *b, uint64_t ts, int32_t tid, uint32_t cpu, uint32_t khz)
{
	Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__CpuFrequencyFtraceEvent f = PERFETTO__PROTOS__CPU_FREQUENCY_FTRACE_EVENT__INIT;

	f.has_cpu_id = f.has_state = 1;
	f.cpu_id = cpu;
	f.state = khz;
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPU_FREQUENCY;
	e.cpu_frequency = &f;
	ft_packet(b, ts, (uint32_t)tid, &e);
}

/* Every ftrace event's writing thread exists, made when the event is
 * reached and before the event acts (trace processor's raw table row for
 * it makes the thread first): a cpu_frequency writer; a waker before
 * its wakee; a forking thread before the process it forks; an atrace
 * end without a tgid then ends the writer's open slice. cpufreq / cpuidle
 * tracks are per cpu (dimension cpu). */
static void test_ftrace_writer_threads(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	ft_cpufreq(&b, 100, 77, 2, 1800000);
	ft_waking(&b, 200, 81, 82, "wakee");
	ft_newtask(&b, 300, 91, 92, "child", 0);
	ft_print(&b, 400, 95, "B|95|work");
	ft_print(&b, 500, 95, "E");
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select tid from thread where utid > 0 order by utid", "77\n81\n82\n91\n92\n95\n");
	tt_test_assert_tsv(tr, "select t.type, t.name, a.key, a.display_value, c.value from counter c "
		       "join track t on t.id = c.track_id join args a on a.arg_set_id = t.dimension_arg_set_id",
		   "cpu_frequency\tcpufreq\tcpu\t2\t1800000.0\n");
	tt_test_assert_tsv(tr, "select name, ts, dur from slice", "work\t400\t100\n");
	tb_close(tr, path, &b);
}

/* A sched_blocked_reason of pid (io_wait 0 / 1) whose caller is kernel
 * symbol iid; sym (not NULL) is interned as that iid in the same packet. */
static void ft_blocked(tbuf *b, uint64_t ts, int32_t pid, uint32_t io_wait, uint64_t iid, const char *sym)
{
	Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT, *ep = &e;
	Perfetto__Protos__SchedBlockedReasonFtraceEvent r = PERFETTO__PROTOS__SCHED_BLOCKED_REASON_FTRACE_EVENT__INIT;
	Perfetto__Protos__FtraceEventBundle fb = PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__INIT;
	Perfetto__Protos__InternedData in = PERFETTO__PROTOS__INTERNED_DATA__INIT;
	Perfetto__Protos__InternedString is = PERFETTO__PROTOS__INTERNED_STRING__INIT, *isp = &is;
	Pkt p = pkt(1, 0);

	r.has_pid = r.has_io_wait = r.has_caller = 1;
	r.pid = pid;
	r.io_wait = io_wait;
	r.caller = iid;
	e.has_timestamp = 1;
	e.timestamp = ts;
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_BLOCKED_REASON;
	e.sched_blocked_reason = &r;
	fb.has_cpu = 1;
	fb.n_event = 1;
	fb.event = &ep;
	if (sym) {
		is.has_iid = is.has_str = 1;
		is.iid = iid;
		is.str.data = (uint8_t *)sym;
		is.str.len = strlen(sym);
		in.n_kernel_symbols = 1;
		in.kernel_symbols = &isp;
		p.interned_data = &in;
	}
	TB_PUT(b, p, FTRACE_EVENTS, ftrace_events, &fb);
}

/* thread_state's waker columns, as trace processor's thread state
 * tracker fills them: a new task is woken by its parent (irq_context 0),
 * a waking by the thread that wrote it (irq_context unknown), a compact
 * waking by whoever runs on its cpu (irq_context from its common_flags:
 * hardirq 0x08 or softirq 0x10); waker_id is the waker's thread_state
 * row when it is running (the swapper has none). A waking of a thread
 * already running or runnable is a spurious_sched_wakeup row naming the
 * wakee's current state. sched_blocked_reason's caller names the last
 * blocked state's blocked_function through the interned kernel symbols
 * (an iid not interned: none). A compact waking's ftrace_event row keeps
 * its common_flags (the only rows that do); ftrace_event's columns are
 * trace processor's. */
static void test_sched_waker_columns(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	CSched cs = PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__COMPACT_SCHED__INIT;
	char *names[] = { "c", "a" };
	uint64_t wts[] = { 270, 10 };
	int32_t wpid[] = { 7, 5 }, wprio[] = { 120, 120 }, wcpu[] = { 0, 0 };
	uint32_t wcomm[] = { 0, 1 }, wflags[] = { 0x08, 0x01 };

	(void)state;
	ft_switch_st(&b, 100, 0, "swapper", 0, 5, "a");
	ft_newtask(&b, 150, 5, 6, "b", 0x00010000);
	ft_switch_st(&b, 200, 5, "a", 1, 6, "b");
	ft_waking(&b, 250, 6, 5, "a");
	ft_waking(&b, 260, 6, 5, "a");
	cs.n_intern_table = 2;
	cs.intern_table = names;
	cs_wakings(&cs, 2, wts, wpid, wprio, wcpu, wcomm);
	cs.n_waking_common_flags = 2;
	cs.waking_common_flags = wflags;
	put_compact(&b, 0, &cs);
	ft_switch_st(&b, 300, 6, "b", 1, 5, "a");
	ft_blocked(&b, 305, 6, 0, 3, "do_sys_poll");
	ft_waking(&b, 310, 0, 6, "b");
	ft_switch_st(&b, 400, 5, "a", 2, 6, "b");
	ft_blocked(&b, 410, 5, 1, 9, NULL);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select s.id, s.ts, t.tid, s.state, coalesce(w.tid, -1), coalesce(s.waker_id, -1), "
		       "coalesce(s.irq_context, -1), coalesce(s.io_wait, -1), coalesce(s.blocked_function, '-') "
		       "from thread_state s join thread t using(utid) left join thread w on w.utid = s.waker_utid "
		       "order by s.id",
		   "0\t100\t5\tRunning\t-1\t-1\t-1\t-1\t-\n"
		   "1\t150\t6\tR\t5\t0\t0\t-1\t-\n"
		   "2\t200\t5\tS\t-1\t-1\t-1\t-1\t-\n"
		   "3\t200\t6\tRunning\t-1\t-1\t-1\t-1\t-\n"
		   "4\t250\t5\tR\t6\t3\t-1\t-1\t-\n"
		   "5\t270\t7\tR\t6\t3\t1\t-1\t-\n"
		   "6\t300\t6\tS\t-1\t-1\t-1\t0\tdo_sys_poll\n"
		   "7\t300\t5\tRunning\t-1\t-1\t-1\t-1\t-\n"
		   "8\t310\t6\tR\t0\t-1\t-1\t-1\t-\n"
		   "9\t400\t5\tD\t-1\t-1\t-1\t1\t-\n"
		   "10\t400\t6\tRunning\t-1\t-1\t-1\t-1\t-\n");
	tt_test_assert_tsv(tr, "select s.ts, s.thread_state_id, coalesce(s.irq_context, -1), t.tid, w.tid "
		       "from spurious_sched_wakeup s join thread t using(utid) join thread w on w.utid = s.waker_utid "
		       "order by s.id",
		   "260\t4\t-1\t5\t6\n280\t4\t0\t5\t6\n");
	/* ftrace_event.common_flags: a compact waking's, NULL on the rest */
	tt_test_assert_tsv(tr, "select ts, coalesce(common_flags, -1) from ftrace_event where name = 'sched_waking' "
		       "order by id", "250\t-1\n260\t-1\n270\t8\n280\t1\n310\t-1\n");
	tt_test_assert_tsv(tr, "select group_concat(name, ' ') from pragma_table_info('ftrace_event')",
		   "id ts name cpu utid arg_set_id common_flags ucpu\n");
	tb_close(tr, path, &b);
}

/* sched_blocked_reason sets io_wait on the thread's last blocked state
 * (trace processor's PushBlockedReason), even after a waking made it
 * runnable; a thread that ran since has none to set. */
static void test_sched_blocked_reason(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	ft_switch_st(&b, 100, 0, "swapper", 0, 5, "a");
	ft_switch_st(&b, 200, 5, "a", 2, 6, "b");
	ft_waking(&b, 250, 6, 5, "a");
	ft_blocked(&b, 260, 5, 1, 0, NULL);
	ft_switch_st(&b, 300, 6, "b", 1, 5, "a");
	ft_blocked(&b, 310, 6, 0, 0, NULL);
	ft_blocked(&b, 320, 5, 1, 0, NULL);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select s.ts, t.tid, s.state, coalesce(s.io_wait, -1) from thread_state s "
		       "join thread t using(utid) order by s.id",
		   "100\t5\tRunning\t-1\n200\t5\tD\t1\n200\t6\tRunning\t-1\n250\t5\tR\t-1\n"
		   "300\t6\tS\t0\n300\t5\tRunning\t-1\n");
	tb_close(tr, path, &b);
}

/* ftrace_event (raw) rows as trace processor writes them, in trace order:
 * each event's present fields by name (unsigned as uint, signed as int),
 * the writing thread; sched_switch with its seven fields and the prev
 * thread; a compact switch with the prev fields of the cpu's last one
 * (the first compact switch has no row); a compact waking written by the
 * cpu's running thread. */
static void test_ftrace_raw_rows(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	CSched cs = PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__COMPACT_SCHED__INIT;
	char *names[] = { "c1", "c2" };
	uint64_t sts[] = { 300, 10 }, wts[] = { 305 };
	int64_t pstate[] = { 0, 1 };
	int32_t spid[] = { 41, 42 }, sprio[] = { 120, 100 }, wpid[] = { 43 }, wprio[] = { 110 }, wcpu[] = { 1 };
	uint32_t scomm[] = { 0, 1 }, wcomm[] = { 1 };

	(void)state;
	ft_cpufreq(&b, 100, 77, 2, 1800000);
	ft_switch_st(&b, 200, 5, "a", 1, 6, "b");
	ft_print(&b, 250, 6, "I|6|mark");
	cs.n_intern_table = 2;
	cs.intern_table = names;
	cs_switches(&cs, 2, sts, pstate, spid, sprio, scomm);
	cs_wakings(&cs, 1, wts, wpid, wprio, wcpu, wcomm);
	put_compact(&b, 3, &cs);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select r.ts, r.name, r.cpu, (select tid from thread where utid = r.utid), "
		       "group_concat(a.key || '=' || a.display_value || ':' || a.value_type, ' ') from ftrace_event r "
		       "join args a using(arg_set_id) group by r.id order by r.id",
		   "100\tcpu_frequency\t0\t77\tstate=1800000:uint cpu_id=2:uint\n"
		   "200\tsched_switch\t0\t5\tprev_comm=a:string prev_pid=5:int prev_prio=0:int prev_state=1:int "
		   "next_comm=b:string next_pid=6:int next_prio=0:int\n"
		   "250\tprint\t0\t6\tbuf=I|6|mark:string\n"
		   "305\tsched_waking\t3\t41\tcomm=c2:string pid=43:int prio=110:int target_cpu=1:int\n"
		   "310\tsched_switch\t3\t41\tprev_comm=c1:string prev_pid=41:int prev_prio=120:int prev_state=1:int "
		   "next_comm=c2:string next_pid=42:int next_prio=100:int\n");
	tb_close(tr, path, &b);
}

/* Thread states from wakings and new tasks, as trace processor's thread
 * state tracker keeps them: a new task is runnable (R) from its creation;
 * a waking makes a blocked thread runnable and is ignored for one already
 * running or runnable (a prev_state of 0 is "R"); a thread never seen
 * becomes runnable. Rows in event order, open ones dur -1. A compact
 * waking on a cpu with no switch yet has no waker: skipped, counted. */
static void test_sched_waking_states(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	CSched cs = PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__COMPACT_SCHED__INIT;
	char *names[] = { "late" };
	uint64_t wts[] = { 400 };
	int32_t wpid[] = { 9 }, wprio[] = { 120 }, wcpu[] = { 3 };
	uint32_t wcomm[] = { 0 };

	(void)state;
	ft_switch_st(&b, 100, 0, "swapper", 0, 5, "a");
	ft_newtask(&b, 150, 5, 6, "b", 0x00010000);
	ft_switch_st(&b, 200, 5, "a", 1, 6, "b");
	ft_waking(&b, 250, 6, 5, "a");
	ft_waking(&b, 260, 6, 5, "a");
	ft_switch_st(&b, 300, 6, "b", 0, 5, "a");
	ft_waking(&b, 310, 5, 6, "b");
	ft_waking(&b, 320, 5, 9, "c");
	cs.n_intern_table = 1;
	cs.intern_table = names;
	cs_wakings(&cs, 1, wts, wpid, wprio, wcpu, wcomm);
	put_compact(&b, 3, &cs);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select s.ts, s.dur, t.tid, coalesce(s.cpu, -1), s.state from thread_state s "
		       "join thread t using(utid) order by s.id",
		   "100\t100\t5\t0\tRunning\n"
		   "150\t50\t6\t-1\tR\n"
		   "200\t50\t5\t-1\tS\n"
		   "200\t100\t6\t0\tRunning\n"
		   "250\t50\t5\t-1\tR\n"
		   "300\t-1\t6\t-1\tR\n"
		   "300\t-1\t5\t0\tRunning\n"
		   "320\t-1\t9\t-1\tR\n");
	tt_test_assert_tsv(tr, "select name from thread where tid = 9", "c\n");
	assert_int_equal(tt_test_stat(tr, "compact_sched_waking_skipped"), 1);
	tb_close(tr, path, &b);
}

/* A compact bundle's arrays as trace processor's tokenizer walks them:
 * each kind's in lockstep up to the shortest, a comm index outside the
 * intern table ending the kind there; either counts
 * compact_sched_has_parse_errors once per kind, the events before kept.
 * A waking's prio and target cpu are uint16 (-1: 65535). */
static void test_compact_sched_lockstep(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	CSched cs = PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__COMPACT_SCHED__INIT;
	char *names[] = { "a", "b" };
	uint64_t sts[] = { 100, 10, 10 }, wts[] = { 120, 10, 10 };
	int64_t pstate[] = { 0, 1, 0 };
	int32_t spid[] = { 7, 8 }, sprio[] = { 120, 120, 120 };
	int32_t wpid[] = { 9, 10, 11 }, wprio[] = { -1, 100, 100 }, wcpu[] = { 2, 2, 2 };
	uint32_t scomm[] = { 0, 1, 0 }, wcomm[] = { 0, 5, 1 };

	(void)state;
	cs.n_intern_table = 2;
	cs.intern_table = names;
	cs_switches(&cs, 3, sts, pstate, spid, sprio, scomm);
	cs.n_switch_next_pid = 2;
	cs_wakings(&cs, 3, wts, wpid, wprio, wcpu, wcomm);
	put_compact(&b, 1, &cs);
	tr = tb_open(&b, &path);
	/* switches at 100 (the cpu's first: no slice) and 110; wakings: the
	 * one at 120 (the second's comm index is out of the table) */
	tt_test_assert_tsv(tr, "select s.ts, s.dur, t.tid, t.name from sched_slice s join thread t using(utid)",
		   "110\t-1\t8\tb\n");
	tt_test_assert_tsv(tr, "select s.ts, t.tid, s.state from thread_state s join thread t using(utid) order by s.id",
		   "110\t7\tS\n110\t8\tRunning\n120\t9\tR\n");
	tt_test_assert_tsv(tr, "select group_concat(a.key || '=' || a.display_value, ' ') from ftrace_event r "
		       "join args a using(arg_set_id) where r.name = 'sched_waking'",
		   "comm=a pid=9 prio=65535 target_cpu=2\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from thread where tid in (10, 11)"), 0);
	assert_int_equal(tt_test_stat(tr, "compact_sched_has_parse_errors"), 2);
	tb_close(tr, path, &b);
}

static void test_compact_sched(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	CSched cs = PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__COMPACT_SCHED__INIT;
	char *names[] = { "alpha", "beta" };
	uint64_t ts[] = { 100, 50, 50 };
	int64_t prev_state[] = { 0, 1, 0 };
	int32_t pid[] = { 7, 8, 7 }, prio[] = { 120, 110, 120 };
	uint32_t comm[] = { 0, 1, 0 };

	(void)state;
	cs.n_intern_table = 2;
	cs.intern_table = names;
	cs_switches(&cs, 3, ts, prev_state, pid, prio, comm);
	put_compact(&b, 2, &cs);
	tr = tb_open(&b, &path);
	/* the cpu's first compact switch (100) only says who runs: no slice;
	 * slices end with the next switch's prev_state; the last stays open */
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.cpu, t.tid, t.name, coalesce(s.end_state, '-'), s.priority "
		       "from sched_slice s join thread t using(utid) order by s.ts",
		   "150\t50\t2\t8\tbeta\tR\t110\n200\t-1\t2\t7\talpha\t-\t120\n");
	assert_int_equal(tt_test_stat(tr, "compact_sched_switch_skipped"), 1);
	/* the thread switched out at 150 (7, whose prev_state S came with
	 * that switch) sleeps until it runs again at 200 */
	tt_test_assert_tsv(tr, "select s.ts, s.dur, t.tid, coalesce(s.cpu, -1), s.state from thread_state s "
		       "join thread t using(utid) order by s.id",
		   "150\t50\t7\t-1\tS\n150\t50\t8\t2\tRunning\n200\t-1\t8\t-1\tR\n200\t-1\t7\t2\tRunning\n");
	tb_close(tr, path, &b);
}

static void test_atrace_parser(void **state)
{
	tt_atrace m;

	(void)state;
	assert_int_equal(tt_atrace_parse("B|12|a|b c\n", 11, &m), 0);
	assert_int_equal(m.phase, 'B');
	assert_int_equal(m.tgid, 12);
	assert_int_equal(m.name_len, 5);
	assert_memory_equal(m.name, "a|b c", 5);
	assert_int_equal(tt_atrace_parse("E", 1, &m), 0);
	assert_int_equal(m.has_tgid, 0);
	assert_int_equal(tt_atrace_parse("E|12", 4, &m), 0);
	assert_int_equal(m.tgid, 12);
	assert_int_equal(tt_atrace_parse("C|3|mem|-42", 11, &m), 0);
	assert_int_equal(m.value, -42);
	assert_int_equal(m.name_len, 3);
	assert_int_equal(tt_atrace_parse("C|3|mem|42|cat", 14, &m), 0);
	assert_int_equal(m.value, 42);
	assert_int_equal(m.name_len, 3);
	assert_int_equal(tt_atrace_parse("S|3|req|99", 10, &m), 0);
	assert_int_equal(m.value, 99);
	assert_int_equal(tt_atrace_parse("G|3|trk|nm|5", 12, &m), 0);
	assert_memory_equal(m.track, "trk", 3);
	assert_memory_equal(m.name, "nm", 2);
	assert_int_equal(m.value, 5);
	assert_int_equal(tt_atrace_parse("H|3|trk|5", 9, &m), 0);
	assert_int_equal(m.value, 5);
	assert_int_equal(tt_atrace_parse("N|3|trk|inst", 12, &m), 0);
	assert_memory_equal(m.name, "inst", 4);
	assert_int_equal(tt_atrace_parse("hello", 5, &m), -1);
	assert_int_equal(tt_atrace_parse("B|x|name", 8, &m), -1);
	assert_int_equal(tt_atrace_parse("S|3|req|notnum", 14, &m), -1);
	assert_int_equal(tt_atrace_parse("", 0, &m), -1);
	/* field by field as trace processor reads them: a counter's name ends
	 * at the first '|', an instant's too; an empty begin name is named */
	assert_int_equal(tt_atrace_parse("C|3|a|b|5", 9, &m), TT_ATRACE_BAD);
	assert_int_equal(tt_atrace_parse("I|3|in|st", 9, &m), TT_ATRACE_OK);
	assert_int_equal(m.name_len, 2);
	assert_int_equal(tt_atrace_parse("N|3|trk|a|b", 11, &m), TT_ATRACE_OK);
	assert_int_equal(m.name_len, 1);
	assert_int_equal(tt_atrace_parse("B|3|", 4, &m), TT_ATRACE_OK);
	assert_string_equal(m.name, "[empty slice name]");
	assert_int_equal(tt_atrace_parse("H|3|trk|nm|7", 12, &m), TT_ATRACE_OK);
	assert_int_equal(m.value, 7);
	assert_null(m.name);
	assert_int_equal(tt_atrace_parse("E|notnum", 8, &m), TT_ATRACE_OK);
	assert_int_equal(m.has_tgid, 0);
	assert_int_equal(tt_atrace_parse("trace_event_clock_sync: parent_ts=1", 35, &m),
			 TT_ATRACE_UNSUPPORTED);
	assert_int_equal(tt_atrace_parse("I|3|", 4, &m), TT_ATRACE_BAD);
	assert_int_equal(tt_atrace_parse("G|3|trk|nm|x", 12, &m), TT_ATRACE_BAD);
	{
		char out[16];
		/* a stray continuation byte and a truncated sequence go, a
		 * two-byte character stays */
		size_t n = tt_atrace_utf8("a\x80" "b\xc3\xa9" "c\xe2", 7, out);

		assert_int_equal(n, 5);
		assert_memory_equal(out, "ab\xc3\xa9" "c", 5);
	}
}

/* atrace markers as trace processor stores them: an async begin's cookie
 * arg; a begin while its track has one open only counts, and the end
 * says how many came (legacy_unnestable_*); named-track slices carry the
 * writing thread (utid, end_utid); counters and async slices belong to
 * the tgid's process, not the writer's (the writer is not moved to it);
 * ScreenState, battery_stats.*, DeviceStateChanged and the LMK forms get
 * trace processor's own tracks; bad markers count systrace_parse_failure,
 * clock sync markers nothing. */
static void test_atrace_tp_rules(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	tree_packet(&b, 10, 10, 1, "/bin/app", 11, "worker");
	tree_packet(&b, 11, 20, 1, "/bin/other", 21, "w2");
	ft_print(&b, 100, 11, "S|10|wl|7");
	ft_print(&b, 150, 11, "S|10|wl|7");
	ft_print(&b, 200, 11, "F|10|wl|7");
	ft_print(&b, 300, 11, "G|10|trk|g|5");
	ft_print(&b, 350, 21, "H|10|trk|5");
	ft_print(&b, 400, 11, "N|10|trk|inst");
	ft_print(&b, 500, 21, "C|10|mem|42");
	ft_print(&b, 510, 11, "C|0|ScreenState|2");
	ft_print(&b, 520, 11, "C|10|battery_stats.top|1");
	ft_print(&b, 530, 11, "N|10|DeviceStateChanged|folded");
	ft_print(&b, 600, 11, "B|10|lmk,20,0,900,x");
	ft_print(&b, 650, 11, "E|10");
	ft_print(&b, 700, 11, "C|10|kill_one_process|20");
	ft_print(&b, 710, 11, "C|10|kill_one_process|0");
	ft_print(&b, 800, 11, "C|10|bad|x");
	ft_print(&b, 810, 11, "trace_event_clock_sync: parent_ts=5");
	ft_print(&b, 820, 11, "B|10|caf\xc3\xa9" "\xff");
	ft_print(&b, 830, 11, "E|10");
	tr = tb_open(&b, &path);
	/* (utid args shown as the thread's tid) */
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.name, a.key, case when a.key like '%utid' then "
		       "(select 'tid ' || tid from thread where utid = a.int_value) else a.display_value end "
		       "from slice s join args a using(arg_set_id) join track t on t.id = s.track_id "
		       "where t.type like 'atrace%' order by s.ts, a.id",
		   "100\t100\twl\tcookie\t7\n"
		   "100\t100\twl\tlegacy_unnestable_begin_count\t2\n"
		   "100\t100\twl\tlegacy_unnestable_last_begin_ts\t150\n"
		   "300\t50\tg\tutid\ttid 11\n300\t50\tg\tend_utid\ttid 21\n"
		   "400\t0\tinst\tutid\ttid 11\n");
	/* the counter of pid 10 written by pid 20's thread; tid 21 stays 20's.
	 * An atrace counter's value has the writing thread as arg utid (uint),
	 * kill_one_process's too; ScreenState and battery_stats have none */
	tt_test_assert_tsv(tr, "select t.type, t.name, coalesce(p.pid, -1), c.ts, c.value, "
		       "coalesce((select group_concat(a.key || ':' || a.value_type || ':' || "
		       "(select tid from thread where utid = a.int_value)) from args a "
		       "where a.arg_set_id = c.arg_set_id), '-') from counter c "
		       "join track t on t.id = c.track_id left join process p on p.upid = t.upid "
		       "order by c.ts",
		   "atrace_counter\tmem\t10\t500\t42.0\tutid:uint:21\n"
		   "screen_state\tScreenState\t-1\t510\t2.0\t-\n"
		   "battery_stats\tbattery_stats.top\t-1\t520\t1.0\t-\n"
		   "oom_score_adj\toom_score_adj\t20\t600\t900.0\t-\n"
		   "atrace_counter\tkill_one_process\t10\t700\t20.0\tutid:uint:11\n"
		   "atrace_counter\tkill_one_process\t10\t710\t0.0\tutid:uint:11\n");
	tt_test_assert_tsv(tr, "select t.tid, p.pid from thread t join process p using(upid) where t.tid = 21", "21\t20\n");
	tt_test_assert_tsv(tr, "select t.type, t.name, s.name, s.ts, s.dur from slice s join track t on t.id = s.track_id "
		       "where t.type in ('android_device_state', 'android_lmk') order by s.ts",
		   "android_device_state\tDeviceStateChanged\tfolded\t530\t0\n"
		   "android_lmk\tLMK\tmem.lmk\t600\t0\n"
		   "android_lmk\tLMK\tmem.lmk\t700\t0\n");
	tt_test_assert_tsv(tr, "select count(distinct t.id), min(p.pid) from track t join process p using(upid) "
		       "where t.type = 'android_lmk'", "1\t20\n");
	tt_test_assert_tsv(tr, "select s.name from slice s where s.ts in (600, 820) order by s.id",
		   "lmk,20,0,900,x\nmem.lmk\ncaf\xc3\xa9" "\n");
	tt_test_assert_tsv(tr, "select t.id, a.key, a.display_value from track t join args a "
		       "on a.arg_set_id = t.dimension_arg_set_id where t.type = 'battery_stats'",
		   "5\tcounter_key\tbattery_stats.top\n");
	assert_int_equal(tt_test_stat(tr, "systrace_parse_failure"), 1);
	tb_close(tr, path, &b);
}

/* Empty packets are packets (found by fuzz_proto: the first one of a
 * batch had no buffer to point into). */
static void test_empty_packets(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	tb_raw(&b, "\x0a\x00", 2);
	three_events(&b);
	tb_raw(&b, "\x0a\x00", 2);
	tr = tb_open(&b, &path);
	assert_int_equal(tt_test_int(tr, "select count(*) from slice"), 2);
	tb_close(tr, path, &b);
}

/* Packets of several MiB: the reader stops framing ahead past its byte
 * budget and frees a big batch's buffers once used (modes agree, ASan
 * checks the memory). */
static void test_big_packets(void **state)
{
	tbuf b = {0};
	char *path, *name = malloc(9u << 20);
	tt_trace *tr;
	int i;

	(void)state;
	assert_non_null(name);
	memset(name, 'a', (9u << 20) - 1);
	name[(9u << 20) - 1] = 0;
	for (i = 0; i < 5; i++) /* 45 MiB: more than the 32 MiB framed ahead */
		put_event(&b, 1, 100 + 100 * (uint64_t)i, 3, 600, name);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select count(*), sum(length(name)) from slice", "5\t47185915\n");
	tb_close(tr, path, &b);
	free(name);
}

static int always(void *ctx)
{
	(void)ctx;
	return 1;
}

/* Cancelling stops the import, with or without the reader's worker and
 * whatever it has read ahead (ASan checks that nothing leaks). */
static void test_cancel(void **state)
{
	const char *path = tt_test_data("chromium-small.pftrace.gz");
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		tt_err err = {0};
		tt_storage *st = tt_storage_new();
		tt_bytesrc *src = tt_bytesrc_open(path, &err);
		tt_import im = { .st = st, .path = path, .err = &err,
				 .opts = { .cancelled = always, .proto_one_thread = !(i & 1),
					   .proto_batch = i & 2 ? 1 : 0 } };

		assert_non_null(st);
		assert_non_null(src);
		assert_int_equal(tt_import_begin(&im), 0);
		assert_int_equal(tt_import_proto(&im, src), TT_ECANCEL);
		assert_non_null(strstr(err.msg, "cancelled"));
		tt_import_end(&im);
		tt_bytesrc_close(src);
		tt_storage_free(st);
	}
}

#include "proto_te_cases.c"

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chromium_tiny),
		cmocka_unit_test(test_chromium_small_gz),
		cmocka_unit_test(test_interning_and_clear),
		cmocka_unit_test(test_nested_across_sequences),
		cmocka_unit_test(test_instants_stack),
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_thread_time_counters),
		cmocka_unit_test(test_flows),
		cmocka_unit_test(test_flows_v2_rules),
		cmocka_unit_test(test_flows_legacy_rules),
		cmocka_unit_test(test_clocks),
		cmocka_unit_test(test_clock_snapshot_table),
		cmocka_unit_test(test_trace_metadata),
		cmocka_unit_test(test_system_info_metadata),
		cmocka_unit_test(test_ftrace_atrace_and_sched),
		cmocka_unit_test(test_ftrace_process_tracking),
		cmocka_unit_test(test_descriptor_name_beats_ftrace),
		cmocka_unit_test(test_legacy_metadata_events),
		cmocka_unit_test(test_trace_stats),
		cmocka_unit_test(test_ftrace_irqs_and_workqueues),
		cmocka_unit_test(test_ftrace_kernel_counters),
		cmocka_unit_test(test_android_logs),
		cmocka_unit_test(test_packages_list),
		cmocka_unit_test(test_sys_stats),
		cmocka_unit_test(test_sys_stats_memory_and_disks),
		cmocka_unit_test(test_battery_counters),
		cmocka_unit_test(test_ftrace_rss_stat),
		cmocka_unit_test(test_ftrace_oom_and_signals),
		cmocka_unit_test(test_ftrace_suspend_resume),
		cmocka_unit_test(test_chrome_metadata),
		cmocka_unit_test(test_ftrace_trace_order),
		cmocka_unit_test(test_ftrace_sde_marks),
		cmocka_unit_test(test_compressed_packets),
		cmocka_unit_test(test_zstd_compressed_packets),
		cmocka_unit_test(test_truncated_last_packet),
		cmocka_unit_test(test_length_beyond_file),
		cmocka_unit_test(test_not_a_trace),
		cmocka_unit_test(test_debug_annotations),
		cmocka_unit_test(test_debug_annotation_keys),
		cmocka_unit_test(test_debug_annotations_repeated),
		cmocka_unit_test(test_debug_annotations_deep),
		cmocka_unit_test(test_debug_annotations_deep_minimal),
		cmocka_unit_test(test_debug_annotation_entries_shared),
		cmocka_unit_test(test_legacy_events),
		cmocka_unit_test(test_annotations_with_legacy_parts),
		cmocka_unit_test(test_conflicting_thread_descriptor),
		cmocka_unit_test(test_async_end_args_merge),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_process_stats),
		cmocka_unit_test(test_counter_dimension_args),
		cmocka_unit_test(test_legacy_instant_tracks),
		cmocka_unit_test(test_atrace_async_tracks),
		cmocka_unit_test(test_track_names),
		cmocka_unit_test(test_track_descriptions),
		cmocka_unit_test(test_descriptor_sort_index),
		cmocka_unit_test(test_track_ordering_args),
		cmocka_unit_test(test_merged_sibling_tracks),
		cmocka_unit_test(test_counter_units),
		cmocka_unit_test(test_descriptor_id_reuse),
		cmocka_unit_test(test_process_naming),
		cmocka_unit_test(test_legacy_delta_timestamps),
		cmocka_unit_test(test_timestamp_overflow),
		cmocka_unit_test(test_compact_sched),
		cmocka_unit_test(test_atrace_parser),
		cmocka_unit_test(test_atrace_tp_rules),
		cmocka_unit_test(test_sched_task_states),
		cmocka_unit_test(test_sched_waking_states),
		cmocka_unit_test(test_ftrace_writer_threads),
		cmocka_unit_test(test_ftrace_raw_rows),
		cmocka_unit_test(test_sched_blocked_reason),
		cmocka_unit_test(test_sched_waker_columns),
		cmocka_unit_test(test_compact_sched_lockstep),
		cmocka_unit_test(test_ftrace_kernel_marks),
		cmocka_unit_test(test_cancel),
		cmocka_unit_test(test_big_packets),
		cmocka_unit_test(test_empty_packets),
		cmocka_unit_test(test_state_tracks),
		cmocka_unit_test(test_range_of_interest),
		cmocka_unit_test(test_descriptor_source_args),
		cmocka_unit_test(test_passthrough_utid),
		cmocka_unit_test(test_separate_thread_track),
		cmocka_unit_test(test_descriptor_track_types),
		cmocka_unit_test(test_callstacks),
		cmocka_unit_test(test_streaming_profile),
		cmocka_unit_test(test_machine_id),
		cmocka_unit_test(test_legacy_counter_order),
		cmocka_unit_test(test_typed_args),
		cmocka_unit_test(test_track_dimension_args),
		cmocka_unit_test(test_proto_content_roots),
		cmocka_unit_test(test_described_extensions),
		cmocka_unit_test(test_described_extension_enums),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
