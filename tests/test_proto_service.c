/*
 * test_proto_service.c - the tracing service's own packets and the trace
 * config of a Perfetto trace (core/import/proto/proto_service.c and the
 * text printer proto_text.c), on traces written here: the config as text
 * and its attributes, triggers, service events, the write_into_file
 * stats, the concurrent sessions' state tracks, and the data sources'
 * own error reports.
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

#include "perfetto_trace.pb-c.h"
#include "testutil.h"
#include "proto_tb.h"

/* A TraceConfig packet of raw bytes cfg (as the service wrote them). */
static void put_config_raw(tbuf *b, const tbuf *cfg)
{
	Pkt p = pkt(1, 0);

	p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACE_CONFIG;
	p.trace_config.data = cfg->p;
	p.trace_config.len = cfg->n;
	tb_packet(b, &p);
}

static void put_config(tbuf *b, const Perfetto__Protos__TraceConfig *tc)
{
	tbuf cfg = { 0 };

	cfg.n = cfg.cap = perfetto__protos__trace_config__get_packed_size(tc);
	cfg.p = malloc(cfg.n + 1);
	assert_non_null(cfg.p);
	perfetto__protos__trace_config__pack(tc, cfg.p);
	put_config_raw(b, &cfg);
	free(cfg.p);
}

static void key(tbuf *b, uint32_t id, int wire)
{
	tb_varint(b, (uint64_t)id << 3 | (uint64_t)wire);
}

static void put_str(tbuf *b, uint32_t id, const char *s, size_t n)
{
	key(b, id, 2);
	tb_varint(b, n);
	tb_raw(b, s, n);
}

/* ---- the config ------------------------------------------------------------------ */

/* trace_config_pbtxt: the fields in wire order (not by number), nested
 * messages indented, enums by name, strings escaped as Java's TextFormat,
 * the fields our proto does not declare by number (a varint, a fixed64, a
 * string; an enum value with no name, too); bytes cut short end it. The
 * config's uuid and session name are metadata of their own. */
static void test_config_pbtxt(void **state)
{
	/* (its new lines as '|': TSV has one row a line) */
	static const char pbtxt_sql[] = "select replace(str_value, char(10), '|') from metadata"
					" where name = 'trace_config_pbtxt'";
	tbuf b = { 0 }, cfg = { 0 }, buf = { 0 }, ds = { 0 }, dsc = { 0 };
	char *path;
	tt_trace *tr;

	(void)state;
	key(&cfg, 3, 0); /* duration_ms */
	tb_varint(&cfg, 10000);
	key(&buf, 1, 0); /* size_kb */
	tb_varint(&buf, 1024);
	key(&buf, 4, 0); /* fill_policy DISCARD */
	tb_varint(&buf, 2);
	key(&cfg, 1, 2); /* buffers */
	tb_varint(&cfg, buf.n);
	tb_raw(&cfg, buf.p, buf.n);
	put_str(&dsc, 1, "linux.ftrace", 12); /* name */
	key(&dsc, 100, 2); /* ftrace_config: not declared */
	tb_varint(&dsc, 2);
	tb_raw(&dsc, "\x08\x01", 2);
	put_str(&ds, 1, (const char *)dsc.p, dsc.n); /* config */
	put_str(&ds, 2, "traced_probes", 13); /* producer_name_filter */
	put_str(&cfg, 2, (const char *)ds.p, ds.n); /* data_sources */
	put_str(&cfg, 22, "s\"1\n\x01\xe9", 6); /* unique_session_name */
	key(&cfg, 27, 0); /* trace_uuid_msb: -1 */
	tb_varint(&cfg, UINT64_MAX);
	key(&cfg, 28, 0);
	tb_varint(&cfg, 2);
	key(&cfg, 5, 0); /* lockdown_mode: 7 has no name */
	tb_varint(&cfg, 7);
	key(&cfg, 99, 0);
	tb_varint(&cfg, 5);
	key(&cfg, 98, 1);
	tb_raw(&cfg, "\x01\0\0\0\0\0\0\0", 8);
	put_str(&cfg, 97, "x", 1);
	put_config_raw(&b, &cfg);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, pbtxt_sql,
			   "duration_ms: 10000|"
			   "buffers {|"
			   "  size_kb: 1024|"
			   "  fill_policy: DISCARD|"
			   "}|"
			   "data_sources {|"
			   "  config {|"
			   "    name: \"linux.ftrace\"|"
			   "    100: \"\\b\\001\"|"
			   "  }|"
			   "  producer_name_filter: \"traced_probes\"|"
			   "}|"
			   "unique_session_name: \"s\\\"1\\n\\001\\351\"|"
			   "trace_uuid_msb: -1|"
			   "trace_uuid_lsb: 2|"
			   "5: 7|"
			   "99: 5|"
			   "98: 0x0000000000000001|"
			   "97: \"x\"\n");
	tt_test_assert_tsv(tr, "select name, iif(name = 'trace_uuid', str_value, hex(str_value)) from metadata"
			       " where name in ('trace_uuid', 'unique_session_name') order by name",
			   "trace_uuid\tffffffff-ffff-ffff-0000-000000000002\n"
			   "unique_session_name\t7322310A01E9\n");
	tb_close(tr, path, &b);

	/* a config cut short: what came before, then the rest as bytes */
	free(cfg.p);
	memset(&cfg, 0, sizeof(cfg));
	key(&cfg, 3, 0);
	tb_varint(&cfg, 5);
	key(&cfg, 99, 2);
	tb_varint(&cfg, 9);
	tb_raw(&cfg, "ab", 2);
	put_config_raw(&b, &cfg);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, pbtxt_sql, "duration_ms: 5|# Extra bytes: \"\\232\\006\\tab\"|\n");
	tb_close(tr, path, &b);
	free(cfg.p);
	free(buf.p);
	free(ds.p);
	free(dsc.p);
}

static void attr(Perfetto__Protos__TraceAttributes__Attribute *a, char *k, char *s, int64_t v)
{
	perfetto__protos__trace_attributes__attribute__init(a);
	a->key = k;
	if (s) {
		a->value_case = PERFETTO__PROTOS__TRACE_ATTRIBUTES__ATTRIBUTE__VALUE_STRING_VALUE;
		a->string_value = s;
	} else {
		a->value_case = PERFETTO__PROTOS__TRACE_ATTRIBUTES__ATTRIBUTE__VALUE_LONG_VALUE;
		a->long_value = v;
	}
}

/* Trace attributes, the config's and the packets', are metadata
 * trace_attribute.<key>; the last value of a key wins, whatever its type. */
static void test_trace_attributes(void **state)
{
	Perfetto__Protos__TraceConfig tc = PERFETTO__PROTOS__TRACE_CONFIG__INIT;
	Perfetto__Protos__TraceAttributes ta1 = PERFETTO__PROTOS__TRACE_ATTRIBUTES__INIT;
	Perfetto__Protos__TraceAttributes ta2 = PERFETTO__PROTOS__TRACE_ATTRIBUTES__INIT;
	Perfetto__Protos__TraceAttributes__Attribute a[4], *pa1[2] = { &a[0], &a[1] }, *pa2[2] = { &a[2], &a[3] };
	tbuf b = { 0 };
	char *path;
	tt_trace *tr;
	Pkt p = pkt(1, 0);

	(void)state;
	attr(&a[0], "app.build", "b1", 0);
	attr(&a[1], "app.kind", "x", 0);
	attr(&a[2], "app.kind", NULL, -4);
	attr(&a[3], "app.runs", NULL, 3);
	ta1.n_attribute = 2;
	ta1.attribute = pa1;
	ta2.n_attribute = 2;
	ta2.attribute = pa2;
	tc.trace_attributes = &ta1;
	put_config(&b, &tc);
	TB_PUT(&b, p, TRACE_ATTRIBUTES, trace_attributes, &ta2);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select name, coalesce(str_value, int_value), key_type from metadata"
			       " where name glob 'trace_attribute.*' order by name",
			   "trace_attribute.app.build\tb1\tsingle\n"
			   "trace_attribute.app.kind\t-4\tsingle\n"
			   "trace_attribute.app.runs\t3\tsingle\n");
	tb_close(tr, path, &b);
}

/* ---- triggers -------------------------------------------------------------------- */

static void put_trigger(tbuf *b, uint64_t ts, char *name, char *producer, int uid, int clone)
{
	Perfetto__Protos__Trigger t = PERFETTO__PROTOS__TRIGGER__INIT;
	Pkt p = pkt(1, ts);

	t.trigger_name = name;
	t.producer_name = producer;
	t.has_trusted_producer_uid = uid >= 0;
	t.trusted_producer_uid = uid;
	if (clone)
		TB_PUT(b, p, CLONE_SNAPSHOT_TRIGGER, clone_snapshot_trigger, &t);
	else
		TB_PUT(b, p, TRIGGER, trigger, &t);
}

/* Triggers are zero-length slices on one global "Trace Triggers" track
 * (args producer_name, trusted_producer_uid), in timestamp order; the
 * earliest trace trigger names the trace (metadata trace_trigger). */
static void test_triggers(void **state)
{
	tbuf b = { 0 };
	char *path;
	tt_trace *tr;

	(void)state;
	put_trigger(&b, 300, "late", "prod_a", 7, 0);
	put_trigger(&b, 100, "early", "prod_b", -1, 0);
	put_trigger(&b, 200, "mid", NULL, 9, 0);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.name, s.category is null, t.name, t.type,"
			       " coalesce(extract_arg(s.arg_set_id, 'producer_name'), '-'),"
			       " coalesce(extract_arg(s.arg_set_id, 'trusted_producer_uid'), '-')"
			       " from slice s join track t on t.id = s.track_id order by s.ts",
			   "100\t0\tearly\t1\tTrace Triggers\ttriggers\tprod_b\t-\n"
			   "200\t0\tmid\t1\tTrace Triggers\ttriggers\t-\t9\n"
			   "300\t0\tlate\t1\tTrace Triggers\ttriggers\tprod_a\t7\n");
	tt_test_assert_tsv(tr, "select str_value from metadata where name = 'trace_trigger'", "early\n");
	tt_test_assert_tsv(tr, "select count(*) from stats where name = 'traced_clone_trigger_timestamp_ns'"
			       " and value != 0", "0\n");
	tb_close(tr, path, &b);
}

/* A clone snapshot trigger names the trace whenever it comes (its first
 * one: a later one does not), and says when it came
 * (traced_clone_trigger_timestamp_ns); it is a slice as the others. */
static void test_clone_snapshot_trigger(void **state)
{
	tbuf b = { 0 };
	char *path;
	tt_trace *tr;

	(void)state;
	put_trigger(&b, 100, "first", "p", 1, 0);
	put_trigger(&b, 400, "clone2", "p", 3, 1);
	put_trigger(&b, 300, "clone1", "p", 2, 1);
	put_trigger(&b, 350, "second", "p", 4, 0);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select str_value from metadata where name = 'trace_trigger'", "clone1\n");
	assert_int_equal(tt_test_stat(tr, "traced_clone_trigger_timestamp_ns"), 300);
	tt_test_assert_tsv(tr, "select group_concat(name, ',') from (select name from slice order by ts)",
			   "first,clone1,second,clone2\n");
	tb_close(tr, path, &b);
}

/* A Chrome trigger: a slice named by its name ("chrome_trigger" without
 * one) with its hash (and name) as args, ending the flow it names; each
 * adds metadata cr-triggered_rule_name_hash. */
static void test_chrome_trigger(void **state)
{
	Perfetto__Protos__TrackDescriptor td = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
	Perfetto__Protos__ChromeTrigger ct = PERFETTO__PROTOS__CHROME_TRIGGER__INIT;
	Perfetto__Protos__TrackEvent te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	uint64_t flow = 77;
	tbuf b = { 0 };
	char *path;
	tt_trace *tr;
	Pkt p = pkt(1, 0);

	(void)state;
	td.has_uuid = 1;
	td.uuid = 5;
	td.name = "work";
	TB_PUT(&b, p, TRACK_DESCRIPTOR, track_descriptor, &td);
	p = pkt(1, 100);
	te.has_type = 1;
	te.type = 3; /* TYPE_INSTANT */
	te.has_track_uuid = 1;
	te.track_uuid = 5;
	te.name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME;
	te.name = "send";
	te.n_flow_ids = 1;
	te.flow_ids = &flow;
	TB_PUT(&b, p, TRACK_EVENT, track_event, &te);
	p = pkt(1, 200);
	ct.has_trigger_name_hash = 1;
	ct.trigger_name_hash = 0xfedcba98u;
	ct.has_flow_id = 1;
	ct.flow_id = flow;
	TB_PUT(&b, p, CHROME_TRIGGER, chrome_trigger, &ct);
	p = pkt(1, 300);
	ct.trigger_name = "named";
	ct.trigger_name_hash = 5;
	ct.has_flow_id = 0;
	TB_PUT(&b, p, CHROME_TRIGGER, chrome_trigger, &ct);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select s.ts, s.name, t.name, extract_arg(s.arg_set_id, 'chrome_trigger.name_hash'),"
			       " coalesce(extract_arg(s.arg_set_id, 'chrome_trigger.name'), '-')"
			       " from slice s join track t on t.id = s.track_id where t.type = 'triggers' order by s.ts",
			   "200\tchrome_trigger\tTrace Triggers\t4275878552\t-\n"
			   "300\tnamed\tTrace Triggers\t5\tnamed\n");
	tt_test_assert_tsv(tr, "select o.name, i.name from flow f join slice o on o.id = f.slice_out"
			       " join slice i on i.id = f.slice_in",
			   "send\tchrome_trigger\n");
	tt_test_assert_tsv(tr, "select int_value, key_type from metadata where name = 'cr-triggered_rule_name_hash'",
			   "5\tsingle\n");
	tb_close(tr, path, &b);
}

/* ---- service events ------------------------------------------------------------------ */

static void put_snapshot(tbuf *b, int primary, uint64_t boottime, uint64_t other)
{
	Pkt p = pkt(1, 0);
	Perfetto__Protos__ClockSnapshot cs = PERFETTO__PROTOS__CLOCK_SNAPSHOT__INIT;
	Perfetto__Protos__ClockSnapshot__Clock a = PERFETTO__PROTOS__CLOCK_SNAPSHOT__CLOCK__INIT;
	Perfetto__Protos__ClockSnapshot__Clock z = PERFETTO__PROTOS__CLOCK_SNAPSHOT__CLOCK__INIT;
	Perfetto__Protos__ClockSnapshot__Clock *cl[2] = { &a, &z };

	a.has_clock_id = z.has_clock_id = a.has_timestamp = z.has_timestamp = 1;
	a.clock_id = 6;
	a.timestamp = boottime;
	z.clock_id = (uint32_t)primary;
	z.timestamp = other;
	cs.n_clocks = 2;
	cs.clocks = cl;
	cs.has_primary_trace_clock = 1;
	cs.primary_trace_clock = primary;
	TB_PUT(b, p, CLOCK_SNAPSHOT, clock_snapshot, &cs);
}

static void put_event(tbuf *b, uint64_t ts, int clock, Perfetto__Protos__TracingServiceEvent *se)
{
	Pkt p = pkt(1, ts);

	p.has_timestamp_clock_id = clock != 0;
	p.timestamp_clock_id = (uint32_t)clock;
	TB_PUT(b, p, SERVICE_EVENT, service_event, se);
}

static void put_flag_event(tbuf *b, uint64_t ts, int clock, int which)
{
	Perfetto__Protos__TracingServiceEvent se = PERFETTO__PROTOS__TRACING_SERVICE_EVENT__INIT;

	se.event_type_case = which;
	/* (the oneof's bools share their storage) */
	se.tracing_started = 1;
	put_event(b, ts, clock, &se);
}

/* Service events are metadata: tracing_started_ns, _disabled_ns,
 * all_data_source_started_ns (single), all_data_source_flushed_ns (one
 * row each), slow_start_data_source ("producer data source" each), and
 * the clone stats. Their timestamps are BOOTTIME unless the packet names
 * a clock, converted to the trace clock (here MONOTONIC_RAW, 900 behind). */
static void test_service_events(void **state)
{
	Perfetto__Protos__TracingServiceEvent se = PERFETTO__PROTOS__TRACING_SERVICE_EVENT__INIT;
	Perfetto__Protos__TracingServiceEvent__DataSources dss = PERFETTO__PROTOS__TRACING_SERVICE_EVENT__DATA_SOURCES__INIT;
	Perfetto__Protos__TracingServiceEvent__DataSources__DataSource d[2], *pd[2] = { &d[0], &d[1] };
	tbuf b = { 0 };
	char *path;
	tt_trace *tr;

	(void)state;
	put_snapshot(&b, 5, 1000, 100);
	put_flag_event(&b, 1050, 0, PERFETTO__PROTOS__TRACING_SERVICE_EVENT__EVENT_TYPE_TRACING_STARTED);
	put_flag_event(&b, 1060, 0, PERFETTO__PROTOS__TRACING_SERVICE_EVENT__EVENT_TYPE_ALL_DATA_SOURCES_STARTED);
	put_flag_event(&b, 1100, 0, PERFETTO__PROTOS__TRACING_SERVICE_EVENT__EVENT_TYPE_ALL_DATA_SOURCES_FLUSHED);
	put_flag_event(&b, 300, 5, PERFETTO__PROTOS__TRACING_SERVICE_EVENT__EVENT_TYPE_ALL_DATA_SOURCES_FLUSHED);
	put_flag_event(&b, 2000, 0, PERFETTO__PROTOS__TRACING_SERVICE_EVENT__EVENT_TYPE_TRACING_DISABLED);
	perfetto__protos__tracing_service_event__data_sources__data_source__init(&d[0]);
	perfetto__protos__tracing_service_event__data_sources__data_source__init(&d[1]);
	d[0].producer_name = "prod1";
	d[0].data_source_name = "track_event";
	d[1].producer_name = "prod2";
	d[1].data_source_name = "linux.ftrace";
	dss.n_data_source = 2;
	dss.data_source = pd;
	se.event_type_case = PERFETTO__PROTOS__TRACING_SERVICE_EVENT__EVENT_TYPE_SLOW_STARTING_DATA_SOURCES;
	se.slow_starting_data_sources = &dss;
	put_event(&b, 1200, 0, &se);
	se.event_type_case = PERFETTO__PROTOS__TRACING_SERVICE_EVENT__EVENT_TYPE_CLONE_STARTED;
	se.clone_started = 1;
	put_event(&b, 1500, 0, &se);
	se.event_type_case = PERFETTO__PROTOS__TRACING_SERVICE_EVENT__EVENT_TYPE_BUFFER_CLONED;
	se.buffer_cloned = 2;
	put_event(&b, 1600, 0, &se);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select name, coalesce(int_value, str_value), key_type from metadata"
			       " where name glob 'tracing_*' or name glob 'all_data*' or name = 'slow_start_data_source'"
			       " order by id",
			   "tracing_started_ns\t150\tsingle\n"
			   "all_data_source_started_ns\t160\tsingle\n"
			   "all_data_source_flushed_ns\t200\tmulti\n"
			   "all_data_source_flushed_ns\t300\tmulti\n"
			   "tracing_disabled_ns\t1100\tsingle\n"
			   "slow_start_data_source\tprod1 track_event\tmulti\n"
			   "slow_start_data_source\tprod2 linux.ftrace\tmulti\n");
	assert_int_equal(tt_test_stat(tr, "traced_clone_started_timestamp_ns"), 600);
	tt_test_assert_tsv(tr, "select idx, value from stats where name = 'traced_buf_clone_done_timestamp_ns'",
			   "2\t700\n");
	tb_close(tr, path, &b);

	/* no snapshot to convert it: the raw value is kept */
	put_flag_event(&b, 1234, 0, PERFETTO__PROTOS__TRACING_SERVICE_EVENT__EVENT_TYPE_TRACING_STARTED);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select int_value from metadata where name = 'tracing_started_ns'", "1234\n");
	tb_close(tr, path, &b);
}

/* ---- write_into_file ----------------------------------------------------------------- */

static void put_stats(tbuf *b, const uint64_t *overwritten, size_t n)
{
	Perfetto__Protos__TraceStats ts = PERFETTO__PROTOS__TRACE_STATS__INIT;
	Perfetto__Protos__TraceStats__BufferStats bs[4], *pbs[4];
	Pkt p = pkt(1, 0);

	for (size_t i = 0; i < n; i++) {
		perfetto__protos__trace_stats__buffer_stats__init(&bs[i]);
		bs[i].has_bytes_overwritten = 1;
		bs[i].bytes_overwritten = overwritten[i];
		pbs[i] = &bs[i];
	}
	ts.n_buffer_stats = n;
	ts.buffer_stats = pbs;
	TB_PUT(b, p, TRACE_STATS, trace_stats, &ts);
}

static void put_file_config(tbuf *b, uint32_t period, uint32_t flush)
{
	Perfetto__Protos__TraceConfig tc = PERFETTO__PROTOS__TRACE_CONFIG__INIT;
	Perfetto__Protos__TraceConfig__BufferConfig bc[3], *pbc[3] = { &bc[0], &bc[1], &bc[2] };

	for (int i = 0; i < 3; i++)
		perfetto__protos__trace_config__buffer_config__init(&bc[i]);
	bc[1].has_fill_policy = 1;
	bc[1].fill_policy = PERFETTO__PROTOS__TRACE_CONFIG__BUFFER_CONFIG__FILL_POLICY__DISCARD;
	tc.n_buffers = 3;
	tc.buffers = pbc;
	tc.has_write_into_file = 1;
	tc.write_into_file = 1;
	tc.has_file_write_period_ms = 1;
	tc.file_write_period_ms = period;
	tc.has_flush_period_ms = flush != 0;
	tc.flush_period_ms = flush;
	put_config(b, &tc);
}

static void put_version(tbuf *b, char *v)
{
	Perfetto__Protos__SystemInfo si = PERFETTO__PROTOS__SYSTEM_INFO__INIT;
	Pkt p = pkt(1, 0);

	si.tracing_service_version = v;
	TB_PUT(b, p, SYSTEM_INFO, system_info, &si);
}

/* A write_into_file trace: a buffer that overwrote bytes lost them
 * (long_trace_mode_bytes_overwritten per buffer, the last TraceStats'
 * values), unless the period asks for a ring buffer (a day or more); a
 * DISCARD buffer is config_write_into_file_discard; no flush_period_ms
 * with a service older than v54 (or of unknown version) is
 * config_write_into_file_no_flush. */
static void test_write_into_file(void **state)
{
	static const uint64_t first[3] = { 1, 1, 1 }, last[3] = { 0, 2048, 512 };
	static const char idx_sql[] = "select name, idx, value from stats where name in"
				      " ('long_trace_mode_bytes_overwritten', 'config_write_into_file_discard')"
				      " order by name, idx";
	tbuf b = { 0 };
	char *path;
	tt_trace *tr;

	(void)state;
	put_file_config(&b, 5000, 0);
	put_stats(&b, first, 3);
	put_stats(&b, last, 3);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, idx_sql,
			   "config_write_into_file_discard\t1\t1\n"
			   "long_trace_mode_bytes_overwritten\t1\t2048\n"
			   "long_trace_mode_bytes_overwritten\t2\t512\n");
	assert_int_equal(tt_test_stat(tr, "config_write_into_file_no_flush"), 1);
	tb_close(tr, path, &b);

	/* a week's period: a ring buffer; v54 flushes by itself */
	put_version(&b, "Perfetto v54.0-1a2b3c");
	put_file_config(&b, 7u * 24 * 60 * 60 * 1000, 0);
	put_stats(&b, last, 3);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, idx_sql, "config_write_into_file_discard\t1\t1\n");
	assert_int_equal(tt_test_stat(tr, "config_write_into_file_no_flush"), 0);
	tb_close(tr, path, &b);

	/* v53 with a flush period: no stat; v53 without one: the stat */
	put_version(&b, "Perfetto v53.1 (abc)");
	put_file_config(&b, 5000, 1000);
	tr = tb_open_file(&b, &path);
	assert_int_equal(tt_test_stat(tr, "config_write_into_file_no_flush"), 0);
	tb_close(tr, path, &b);
	put_version(&b, "Perfetto v53.1 (abc)");
	put_file_config(&b, 5000, 0);
	tr = tb_open_file(&b, &path);
	assert_int_equal(tt_test_stat(tr, "config_write_into_file_no_flush"), 1);
	tb_close(tr, path, &b);
}

/* ---- concurrent tracing sessions ------------------------------------------------------ */

static void put_session(tbuf *b, uint64_t ts, int state, char *name, uint64_t id, int32_t uid, uint32_t nds)
{
	Perfetto__Protos__ConcurrentSessionEvent e = PERFETTO__PROTOS__CONCURRENT_SESSION_EVENT__INIT;
	Pkt p = pkt(1, ts);

	e.has_state = 1;
	e.state = state;
	e.session_name = name;
	e.has_session_id = 1;
	e.session_id = id;
	e.has_consumer_uid = uid != 0;
	e.consumer_uid = uid;
	e.has_num_data_sources = nds != 0;
	e.num_data_sources = nds;
	TB_PUT(b, p, CONCURRENT_SESSION_EVENT, concurrent_session_event, &e);
}

/* Each session is a state track (type concurrent_tracing_sessions,
 * dimension session_id) named by its first event: its name, "Session
 * <id>" without one, " (clone)" for a clone; each state holds until the
 * next (args consumer_uid, num_data_sources), DISABLED is a zero-length
 * marker, even alone. A state the importer does not know is
 * concurrent_session_event_unknown_state, with the state in the log. */
static void test_concurrent_sessions(void **state)
{
	tbuf b = { 0 };
	char *path;
	tt_trace *tr;

	(void)state;
	put_session(&b, 400, 2, "sa", 1, 10000, 3);
	put_session(&b, 500, 3, "sa", 1, 10000, 3);
	put_session(&b, 1000, 3, NULL, 2, 0, 0);
	put_session(&b, 3000, 4, NULL, 2, 0, 0);
	put_session(&b, 3500, 1, NULL, 2, 0, 0);
	put_session(&b, 4000, 5, "sa", 3, 0, 0);
	put_session(&b, 4500, 1, "sa", 3, 0, 0);
	put_session(&b, 5000, 1, "sa", 1, 10000, 3);
	put_session(&b, 6000, 1, "ghost", 9, 0, 0);
	put_session(&b, 6500, 9, "new", 4, 0, 0);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select t.name, s.ts, s.dur, s.value, extract_arg(s.arg_set_id, 'consumer_uid'),"
			       " extract_arg(s.arg_set_id, 'num_data_sources'),"
			       " extract_arg(t.dimension_arg_set_id, 'session_id')"
			       " from state s join track t on t.id = s.track_id"
			       " where t.type = 'concurrent_tracing_sessions' order by t.name, s.ts",
			   "Session 2\t1000\t2000\tSTARTED\t0\t0\t2\n"
			   "Session 2\t3000\t500\tDISABLING_WAITING_STOP_ACKS\t0\t0\t2\n"
			   "Session 2\t3500\t0\tDISABLED\t0\t0\t2\n"
			   "ghost\t6000\t0\tDISABLED\t0\t0\t9\n"
			   "sa\t400\t100\tCONFIGURED\t10000\t3\t1\n"
			   "sa\t500\t4500\tSTARTED\t10000\t3\t1\n"
			   "sa\t5000\t0\tDISABLED\t10000\t3\t1\n"
			   "sa (clone)\t4000\t500\tCLONED_READ_ONLY\t0\t0\t3\n"
			   "sa (clone)\t4500\t0\tDISABLED\t0\t0\t3\n");
	assert_int_equal(tt_test_stat(tr, "concurrent_session_event_unknown_state"), 1);
	tt_test_assert_tsv(tr, "select l.ts, a.key, a.int_value from _trace_import_logs l join args a using (arg_set_id)"
			       " where l.name = 'concurrent_session_event_unknown_state'",
			   "6500\tstate\t9\n");
	tb_close(tr, path, &b);
}

/* ---- data sources' own reports -------------------------------------------------------- */

/* FtraceStats' zero-data-length ABI errors are counted (others are not
 * read); an AndroidAflags error is a stat and an import log row with the
 * message at the packet's time. */
static void test_data_source_errors(void **state)
{
	Perfetto__Protos__FtraceStats fs = PERFETTO__PROTOS__FTRACE_STATS__INIT;
	Perfetto__Protos__AndroidAflags af = PERFETTO__PROTOS__ANDROID_AFLAGS__INIT;
	Perfetto__Protos__FtraceParseStatus errs[3] = {
		PERFETTO__PROTOS__FTRACE_PARSE_STATUS__FTRACE_STATUS_ABI_ZERO_DATA_LENGTH,
		PERFETTO__PROTOS__FTRACE_PARSE_STATUS__FTRACE_STATUS_ABI_SHORT_EVENT_ID,
		PERFETTO__PROTOS__FTRACE_PARSE_STATUS__FTRACE_STATUS_ABI_ZERO_DATA_LENGTH,
	};
	tbuf b = { 0 };
	char *path;
	tt_trace *tr;
	Pkt p = pkt(2, 0);

	(void)state;
	fs.n_ftrace_parse_errors = 3;
	fs.ftrace_parse_errors = errs;
	TB_PUT(&b, p, FTRACE_STATS, ftrace_stats, &fs);
	p = pkt(2, 2000);
	af.error = "no aflags here";
	TB_PUT(&b, p, ANDROID_AFLAGS, android_aflags, &af);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select name, severity, source, value from stats where name in"
			       " ('ftrace_abi_errors_skipped_zero_data_length', 'android_aflags_errors') order by name",
			   "android_aflags_errors\terror\ttrace\t1\n"
			   "ftrace_abi_errors_skipped_zero_data_length\tinfo\tanalysis\t2\n");
	tt_test_assert_tsv(tr, "select l.ts, l.name, a.display_value from _trace_import_logs l"
			       " join args a using (arg_set_id) where l.name = 'android_aflags_errors'",
			   "2000\tandroid_aflags_errors\tno aflags here\n");
	tb_close(tr, path, &b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_pbtxt),
		cmocka_unit_test(test_trace_attributes),
		cmocka_unit_test(test_triggers),
		cmocka_unit_test(test_clone_snapshot_trigger),
		cmocka_unit_test(test_chrome_trigger),
		cmocka_unit_test(test_service_events),
		cmocka_unit_test(test_write_into_file),
		cmocka_unit_test(test_concurrent_sessions),
		cmocka_unit_test(test_data_source_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
