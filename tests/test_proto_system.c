/*
 * test_proto_system.c - the packets of a Perfetto trace that describe the
 * device (core/import/proto/proto_system.c): CpuInfo into the cpu and
 * cpu_available_frequencies tables, Android's system properties and the
 * display's initial state on the tracks atrace's markers use; the
 * scheduler's per-cpu utilisation counters (sched_cpu_util_cfs); and
 * Android's power HAL: energy estimates and entity state residency
 * (core/import/proto/proto_power.c); Android's cpu time per uid
 * (proto_cpu_uid.c); Android's aconfig flags, games and users, on
 * traces written here.
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

/* ---- CpuInfo ---------------------------------------------------------------------- */

typedef Perfetto__Protos__CpuInfo__Cpu Cpu;

/* A CPU of a CpuInfo: processor (NULL: none), capacity (0: none) and
 * frequencies (nf of them). */
static void cpu_set(Cpu *c, char *processor, uint32_t capacity, uint32_t *freqs, size_t nf)
{
	perfetto__protos__cpu_info__cpu__init(c);
	c->processor = processor;
	c->has_capacity = capacity != 0;
	c->capacity = capacity;
	c->n_frequencies = nf;
	c->frequencies = freqs;
}

static void cpu_info_packet(tbuf *b, Cpu **cpus, size_t n)
{
	Perfetto__Protos__CpuInfo ci = PERFETTO__PROTOS__CPU_INFO__INIT;
	Pkt p = pkt(1, 0);

	ci.n_cpus = n;
	ci.cpus = cpus;
	TB_PUT(b, p, CPU_INFO, cpu_info, &ci);
}

/* With a capacity on every CPU, CPUs of one capacity share a cluster,
 * numbered from the smallest capacity up (whatever their order in the
 * packet); the processor and capacity are the cpu's columns. */
static void test_cpu_clusters_by_capacity(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Cpu c[4], *cp[] = { &c[0], &c[1], &c[2], &c[3] };
	uint32_t f_small[] = { 300000, 900000 }, f_big[] = { 300000, 2000000 };

	(void)state;
	cpu_set(&c[0], "Little", 300, f_big, 2); /* (capacity wins over frequencies) */
	cpu_set(&c[1], "Big", 1024, f_small, 2);
	cpu_set(&c[2], "Little", 300, f_small, 2);
	cpu_set(&c[3], "Mid", 700, f_small, 2);
	cpu_info_packet(&b, cp, 4);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select id, ucpu, cpu, cluster_id, processor, capacity from cpu order by cpu",
			   "0\t0\t0\t0\tLittle\t300\n"
			   "1\t1\t1\t2\tBig\t1024\n"
			   "2\t2\t2\t0\tLittle\t300\n"
			   "3\t3\t3\t1\tMid\t700\n");
	tb_close(tr, path, &b);
}

/* Without a capacity on every CPU the clusters follow each CPU's highest
 * frequency, and the capacities given stay in the table; every listed
 * frequency is a row of cpu_available_frequencies. Without frequencies
 * on every CPU either, every cluster is 0. */
static void test_cpu_clusters_by_frequency(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Cpu c[3], *cp[] = { &c[0], &c[1], &c[2] };
	uint32_t f0[] = { 500000, 1800000 }, f1[] = { 300000, 1200000 }, f2[] = { 1800000 };

	(void)state;
	cpu_set(&c[0], "A", 512, f0, 2);
	cpu_set(&c[1], "A", 0, f1, 2);
	cpu_set(&c[2], "A", 0, f2, 1);
	cpu_info_packet(&b, cp, 3);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select cpu, cluster_id, coalesce(capacity, 'NULL') from cpu order by cpu",
			   "0\t1\t512\n1\t0\tNULL\n2\t1\tNULL\n");
	tt_test_assert_tsv(tr, "select id, cpu, freq, ucpu from cpu_available_frequencies order by id",
			   "0\t0\t500000\t0\n1\t0\t1800000\t0\n2\t1\t300000\t1\n3\t1\t1200000\t1\n"
			   "4\t2\t1800000\t2\n");
	tb_close(tr, path, &b);

	cpu_set(&c[0], "A", 512, f0, 2);
	cpu_set(&c[1], "A", 0, NULL, 0);
	cpu_info_packet(&b, cp, 2);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select cpu, cluster_id from cpu order by cpu", "0\t0\n1\t0\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from cpu_available_frequencies"), 2);
	tb_close(tr, path, &b);
}

/* A CPU's args: its ARM identifier, each feature bit with a name as
 * cpu_features.<name> (mte, mte3), the whole bitmap when not 0; a bit past
 * the named ones is counted (cpu_info_unknown_cpu_features, once per CPU,
 * logged). An empty processor is NULL. A CpuInfo naming a CPU that
 * sched events made a row for describes that row. */
static void test_cpu_args_and_features(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Cpu c[3], *cp[] = { &c[0], &c[1], &c[2] };
	Perfetto__Protos__CpuInfo__ArmCpuIdentifier arm = PERFETTO__PROTOS__CPU_INFO__ARM_CPU_IDENTIFIER__INIT;

	(void)state;
	cpu_set(&c[0], "", 0, NULL, 0);
	cpu_set(&c[1], "X", 0, NULL, 0);
	c[1].has_features = 1;
	c[1].features = 1;
	cpu_set(&c[2], "X", 0, NULL, 0);
	c[2].has_features = 1;
	c[2].features = 3 | 1ull << 63;
	arm.has_implementer = arm.has_architecture = arm.has_variant = arm.has_part = arm.has_revision = 1;
	arm.implementer = 0x41;
	arm.architecture = 8;
	arm.variant = 1;
	arm.part = 0xd44;
	arm.revision = 2;
	c[2].identifier_case = PERFETTO__PROTOS__CPU_INFO__CPU__IDENTIFIER_ARM_IDENTIFIER;
	c[2].arm_identifier = &arm;
	cpu_info_packet(&b, cp, 3);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select cpu, coalesce(processor, 'NULL'), coalesce(arg_set_id, 'NULL') from cpu"
			       " where cpu = 0",
			   "0\tNULL\tNULL\n");
	tt_test_assert_tsv(tr, "select c.cpu, a.key, a.value_type, a.int_value from cpu c join args a using (arg_set_id)"
			       " order by c.cpu, a.id",
			   "1\tcpu_features.mte\tbool\t1\n"
			   "1\tcpu_features.raw_bitmap\tuint\t1\n"
			   "2\tarm_cpu_implementer\tuint\t65\n"
			   "2\tarm_cpu_architecture\tuint\t8\n"
			   "2\tarm_cpu_variant\tuint\t1\n"
			   "2\tarm_cpu_part\tuint\t3396\n"
			   "2\tarm_cpu_revision\tuint\t2\n"
			   "2\tcpu_features.mte\tbool\t1\n"
			   "2\tcpu_features.mte3\tbool\t1\n"
			   "2\tcpu_features.raw_bitmap\tuint\t-9223372036854775805\n");
	assert_int_equal(tt_test_stat(tr, "cpu_info_unknown_cpu_features"), 1);
	assert_int_equal(tt_test_int(tr, "select count(*) from _trace_import_logs"
					 " where ts is null and byte_offset is null"),
			 1);
	tb_close(tr, path, &b);
}

/* A sched_switch on cpu 3 before the CpuInfo in the file: the CpuInfo
 * is read first (as trace processor reads it while tokenizing), so ucpu
 * is the cpu's number; the switch's slice is on that row. */
static void test_cpu_info_after_sched(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Cpu c[4], *cp[] = { &c[0], &c[1], &c[2], &c[3] };
	Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__SchedSwitchFtraceEvent sw = PERFETTO__PROTOS__SCHED_SWITCH_FTRACE_EVENT__INIT;

	(void)state;
	sw.prev_comm = "a";
	sw.next_comm = "b";
	sw.has_prev_pid = sw.has_next_pid = 1;
	sw.prev_pid = 0;
	sw.next_pid = 10;
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_SWITCH;
	e.sched_switch = &sw;
	ft_event_cpu(&b, 100, 3, 0, &e, NULL);
	for (int i = 0; i < 4; i++)
		cpu_set(&c[i], "P", 100u * (uint32_t)(i + 1), NULL, 0);
	cpu_info_packet(&b, cp, 4);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select ucpu, cpu, cluster_id, capacity from cpu order by cpu",
			   "0\t0\t0\t100\n1\t1\t1\t200\n2\t2\t2\t300\n3\t3\t3\t400\n");
	tt_test_assert_tsv(tr, "select s.cpu, c.cpu, c.capacity from sched s join cpu c using (ucpu)", "3\t3\t400\n");
	tb_close(tr, path, &b);
}

/* A CpuInfo listing no CPU: counted and logged (cpu_info_empty); the cpu
 * table stays as other tables make it. */
static void test_cpu_info_empty(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	cpu_info_packet(&b, NULL, 0);
	tr = tb_open_file(&b, &path);
	assert_int_equal(tt_test_stat(tr, "cpu_info_empty"), 1);
	assert_int_equal(tt_test_int(tr, "select count(*) from cpu"), 0);
	assert_int_equal(tt_test_int(tr, "select count(*) from _trace_import_logs"), 1);
	tb_close(tr, path, &b);
}

/* ---- sched_cpu_util_cfs ---------------------------------------------------------- */

static void ft_util(tbuf *b, uint64_t ts, uint32_t cpu, uint64_t util, uint64_t cap, uint32_t nr)
{
	Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__SchedCpuUtilCfsFtraceEvent u = PERFETTO__PROTOS__SCHED_CPU_UTIL_CFS_FTRACE_EVENT__INIT;

	u.has_cpu = u.has_cpu_util = u.has_capacity = u.has_nr_running = u.has_capacity_orig = 1;
	u.cpu = cpu;
	u.cpu_util = util;
	u.capacity = cap;
	u.capacity_orig = 1024;
	u.nr_running = nr;
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_CPU_UTIL_CFS;
	e.sched_cpu_util_cfs = &u;
	ft_event_cpu(b, ts, 0, 0, &e, NULL);
}

/* Each event: a value on the cpu's "Cpu N Util", "Cpu N Cap" and "Cpu N
 * Nr Running" counters (types cpu_utilization, cpu_capacity,
 * cpu_nr_running; dimension cpu), the event's cpu field's, not the
 * bundle's; its fields are its ftrace_event row's args. */
static void test_sched_cpu_util_cfs(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	ft_util(&b, 10, 6, 1, 1004, 0);
	ft_util(&b, 20, 4, 43, 760, 2);
	ft_util(&b, 30, 6, 5, 1000, 1);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select c.ts, t.name, t.type, extract_arg(t.dimension_arg_set_id, 'cpu'), c.value"
			       " from counter c join counter_track t on t.id = c.track_id order by c.ts, t.id",
			   "10\tCpu 6 Util\tcpu_utilization\t6\t1.0\n"
			   "10\tCpu 6 Cap\tcpu_capacity\t6\t1004.0\n"
			   "10\tCpu 6 Nr Running\tcpu_nr_running\t6\t0.0\n"
			   "20\tCpu 4 Util\tcpu_utilization\t4\t43.0\n"
			   "20\tCpu 4 Cap\tcpu_capacity\t4\t760.0\n"
			   "20\tCpu 4 Nr Running\tcpu_nr_running\t4\t2.0\n"
			   "30\tCpu 6 Util\tcpu_utilization\t6\t5.0\n"
			   "30\tCpu 6 Cap\tcpu_capacity\t6\t1000.0\n"
			   "30\tCpu 6 Nr Running\tcpu_nr_running\t6\t1.0\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from counter_track"), 6);
	tt_test_assert_tsv(tr, "select a.key, a.int_value from ftrace_event f join args a using (arg_set_id)"
			       " where f.ts = 20 order by a.id",
			   "capacity\t760\ncapacity_orig\t1024\ncpu\t4\ncpu_util\t43\nnr_running\t2\n");
	tb_close(tr, path, &b);
}

/* ---- Android's system properties ----------------------------------------------- */

static void ft_print(tbuf *b, uint64_t ts, uint32_t tid, const char *text)
{
	Perfetto__Protos__FtraceEvent e = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__PrintFtraceEvent pe = PERFETTO__PROTOS__PRINT_FTRACE_EVENT__INIT;

	pe.buf = (char *)text;
	e.event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_PRINT;
	e.print = &pe;
	ft_event_cpu(b, ts, 0, tid, &e, NULL);
}

/* One AndroidSystemProperty packet at ts of n (name, value) pairs. */
static void sysprops(tbuf *b, uint64_t ts, char **kv, size_t n)
{
	Perfetto__Protos__AndroidSystemProperty sp = PERFETTO__PROTOS__ANDROID_SYSTEM_PROPERTY__INIT;
	Perfetto__Protos__AndroidSystemProperty__PropertyValue v[8], *vp[8];
	Pkt p = pkt(1, ts);

	assert_true(n <= 8);
	for (size_t i = 0; i < n; i++) {
		perfetto__protos__android_system_property__property_value__init(&v[i]);
		v[i].name = kv[2 * i];
		v[i].value = kv[2 * i + 1];
		vp[i] = &v[i];
	}
	sp.n_values = n;
	sp.values = vp;
	TB_PUT(b, p, ANDROID_SYSTEM_PROPERTY, android_system_property, &sp);
}

/* The screen's state from a property, the display's initial state and
 * atrace's ScreenState counter share one track (screen_state, no
 * dimension); values in trace order whatever the file order. */
static void test_screen_state(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Perfetto__Protos__InitialDisplayState ds = PERFETTO__PROTOS__INITIAL_DISPLAY_STATE__INIT;
	char *kv[] = { "debug.tracing.screen_state", "1" };
	Pkt p = pkt(1, 5);

	(void)state;
	ft_print(&b, 3000, 42, "C|42|ScreenState|2");
	sysprops(&b, 2000, kv, 1);
	ds.has_display_state = ds.has_brightness = 1;
	ds.display_state = 2;
	ds.brightness = 0.5;
	TB_PUT(&b, p, INITIAL_DISPLAY_STATE, initial_display_state, &ds);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select c.id, c.ts, c.value, t.name, t.type, coalesce(t.dimension_arg_set_id, 'NULL')"
			       " from counter c join counter_track t on t.id = c.track_id order by c.id",
			   "0\t5\t2.0\tScreenState\tscreen_state\tNULL\n"
			   "1\t2000\t1.0\tScreenState\tscreen_state\tNULL\n"
			   "2\t3000\t2.0\tScreenState\tscreen_state\tNULL\n");
	tb_close(tr, path, &b);
}

/* debug.tracing.device_state: an instant named by the value on the
 * DeviceStateChanged track (android_device_state) atrace's "N|pid|
 * DeviceStateChanged|..." marks use, in trace order. */
static void test_device_state(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	char *kv[] = { "debug.tracing.device_state", "folded" };

	(void)state;
	ft_print(&b, 3000, 42, "N|42|DeviceStateChanged|unfolded");
	sysprops(&b, 1000, kv, 1);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select s.id, s.ts, s.dur, s.name, t.name, t.type from slice s join track t"
			       " on t.id = s.track_id order by s.id",
			   "0\t1000\t0\tfolded\tDeviceStateChanged\tandroid_device_state\n"
			   "1\t3000\t0\tunfolded\tDeviceStateChanged\tandroid_device_state\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from track"), 1);
	tb_close(tr, path, &b);
}

/* Numeric properties: battery_stats.* on atrace's battery_stats tracks
 * (named without the prefix, dimension counter_key), mcc / mnc /
 * desktop_mode_visible_tasks, battery_status ("BatteryStatus") and
 * plug_type ("PlugType") on sysprop_counter tracks (dimension
 * sysprop_name, the whole property). A value that is not all a number,
 * and properties not known, give nothing; boot image profiling and the
 * wallpaper go to metadata. */
static void test_numeric_properties(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	char *kv[] = { "debug.tracing.battery_stats.wifi", "1",
		       "debug.tracing.mcc", "310",
		       "debug.tracing.battery_status", "2",
		       "debug.tracing.plug_type", "12x",
		       "debug.tracing.something_else", "5",
		       "debug.tracing.profile_boot_classpath", "1",
		       "debug.tracing.wallpaper.package_name", "com.example.wall" };

	(void)state;
	sysprops(&b, 1000, kv, 7);
	ft_print(&b, 2000, 42, "C|42|battery_stats.wifi|0");
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select c.ts, c.value, t.name, t.type, coalesce(extract_arg(t.dimension_arg_set_id,"
			       " 'counter_key'), extract_arg(t.dimension_arg_set_id, 'sysprop_name'))"
			       " from counter c join counter_track t on t.id = c.track_id order by c.ts, t.name",
			   "1000\t2.0\tBatteryStatus\tsysprop_counter\tdebug.tracing.battery_status\n"
			   "1000\t1.0\tbattery_stats.wifi\tbattery_stats\tbattery_stats.wifi\n"
			   "1000\t310.0\tmcc\tsysprop_counter\tdebug.tracing.mcc\n"
			   "2000\t0.0\tbattery_stats.wifi\tbattery_stats\tbattery_stats.wifi\n");
	assert_int_equal(tt_test_int(tr, "select int_value from metadata where name = 'android_profile_boot_classpath'"),
			 1);
	tt_test_assert_tsv(tr, "select str_value from metadata where name = 'debug.tracing.wallpaper.package_name'",
			   "com.example.wall\n");
	tb_close(tr, path, &b);
}

/* ---- Android's power HAL ---------------------------------------------------------- */

typedef Perfetto__Protos__AndroidEnergyEstimationBreakdown Breakdown;

static void consumer(Perfetto__Protos__AndroidEnergyConsumer *ec, int has_id, int32_t id, int32_t ordinal,
		     char *type, char *name)
{
	perfetto__protos__android_energy_consumer__init(ec);
	ec->has_energy_consumer_id = has_id;
	ec->energy_consumer_id = id;
	ec->has_ordinal = 1;
	ec->ordinal = ordinal;
	ec->type = type;
	ec->name = name;
}

/* An estimate at ts of consumer id (has: which of id and value are set),
 * with n (uid, energy) shares, uid < 0 for a share without its uid. */
static void estimate(tbuf *b, uint64_t ts, int has, int32_t id, int64_t uws, const int64_t *shares, size_t n)
{
	Breakdown eb = PERFETTO__PROTOS__ANDROID_ENERGY_ESTIMATION_BREAKDOWN__INIT;
	Perfetto__Protos__AndroidEnergyEstimationBreakdown__EnergyUidBreakdown u[4], *up[4];
	Pkt p = pkt(1, ts);

	assert_true(n <= 4);
	eb.has_energy_consumer_id = (has & 1) != 0;
	eb.energy_consumer_id = id;
	eb.has_energy_uws = (has & 2) != 0;
	eb.energy_uws = uws;
	for (size_t i = 0; i < n; i++) {
		perfetto__protos__android_energy_estimation_breakdown__energy_uid_breakdown__init(&u[i]);
		u[i].has_uid = shares[2 * i] >= 0;
		u[i].uid = (int32_t)shares[2 * i];
		u[i].has_energy_uws = 1;
		u[i].energy_uws = shares[2 * i + 1];
		up[i] = &u[i];
	}
	eb.n_per_uid_breakdown = n;
	eb.per_uid_breakdown = up;
	TB_PUT(b, p, ANDROID_ENERGY_ESTIMATION_BREAKDOWN, android_energy_estimation_breakdown, &eb);
}

/* Consumers described once (the first description of an id kept; one
 * without an id counted as energy_descriptor_invalid; a packet that
 * describes gives no value); each estimate on its consumer's track
 * (android_energy_estimation_breakdown: dimension energy_consumer_id,
 * source args consumer_type and ordinal), each uid's share on the
 * consumer's track for the uid (..._per_uid). Estimates of an unknown
 * consumer or without a value, and shares without a uid, are counted. */
static void test_energy_breakdown(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Breakdown eb = PERFETTO__PROTOS__ANDROID_ENERGY_ESTIMATION_BREAKDOWN__INIT;
	Perfetto__Protos__AndroidEnergyConsumerDescriptor cd = PERFETTO__PROTOS__ANDROID_ENERGY_CONSUMER_DESCRIPTOR__INIT;
	Perfetto__Protos__AndroidEnergyConsumer ec[4], *ecp[] = { &ec[0], &ec[1], &ec[2], &ec[3] };
	const int64_t shares[] = { 10234, 300, -1, 5, 10190, 0 };
	Pkt p = pkt(1, 0);

	(void)state;
	consumer(&ec[0], 1, 0, 2, "CPU_CLUSTER", "CPUCL0");
	consumer(&ec[1], 1, 3, 0, "OTHER", "GPU");
	consumer(&ec[2], 0, 0, 0, "OTHER", "nameless");
	consumer(&ec[3], 1, 0, 0, "OTHER", "again");
	cd.n_energy_consumers = 4;
	cd.energy_consumers = ecp;
	eb.energy_consumer_descriptor = &cd;
	eb.has_energy_consumer_id = eb.has_energy_uws = 1;
	eb.energy_uws = 7; /* (not a value: the packet describes) */
	TB_PUT(&b, p, ANDROID_ENERGY_ESTIMATION_BREAKDOWN, android_energy_estimation_breakdown, &eb);
	estimate(&b, 100, 3, 0, 1000, NULL, 0);
	estimate(&b, 200, 3, 3, 900, shares, 3);
	estimate(&b, 300, 3, 9, 1, NULL, 0);
	estimate(&b, 400, 1, 0, 0, NULL, 0);
	estimate(&b, 500, 3, 0, 2000, NULL, 0);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select t.id, t.name, t.type, extract_arg(t.dimension_arg_set_id, 'energy_consumer_id'),"
			       " coalesce(extract_arg(t.dimension_arg_set_id, 'uid'), 'NULL'),"
			       " coalesce(extract_arg(t.source_arg_set_id, 'consumer_type'), 'NULL'),"
			       " coalesce(extract_arg(t.source_arg_set_id, 'ordinal'), 'NULL') from counter_track t order by t.id",
			   "0\tCPUCL0\tandroid_energy_estimation_breakdown\t0\tNULL\tCPU_CLUSTER\t2\n"
			   "1\tGPU\tandroid_energy_estimation_breakdown\t3\tNULL\tOTHER\t0\n"
			   "2\tGPU\tandroid_energy_estimation_breakdown_per_uid\t3\t10234\tNULL\tNULL\n"
			   "3\tGPU\tandroid_energy_estimation_breakdown_per_uid\t3\t10190\tNULL\tNULL\n");
	tt_test_assert_tsv(tr, "select ts, track_id, value from counter order by ts, track_id",
			   "100\t0\t1000.0\n200\t1\t900.0\n200\t2\t300.0\n200\t3\t0.0\n500\t0\t2000.0\n");
	assert_int_equal(tt_test_stat(tr, "energy_descriptor_invalid"), 1);
	assert_int_equal(tt_test_stat(tr, "energy_breakdown_missing_values"), 2);
	assert_int_equal(tt_test_stat(tr, "energy_uid_breakdown_missing_values"), 1);
	tb_close(tr, path, &b);
}

typedef Perfetto__Protos__EntityStateResidency Residency;

/* A residency packet at ts: n states described (entity, state, names)
 * and m residencies (entity, state, ms). */
static void residency(tbuf *b, uint64_t ts, char **desc, size_t n, const uint64_t *res, size_t m)
{
	Residency er = PERFETTO__PROTOS__ENTITY_STATE_RESIDENCY__INIT;
	Perfetto__Protos__EntityStateResidency__PowerEntityState ps[4], *psp[4];
	Perfetto__Protos__EntityStateResidency__StateResidency r[4], *rp[4];
	Pkt p = pkt(1, ts);

	assert_true(n <= 4 && m <= 4);
	for (size_t i = 0; i < n; i++) {
		perfetto__protos__entity_state_residency__power_entity_state__init(&ps[i]);
		ps[i].has_entity_index = ps[i].has_state_index = 1;
		ps[i].entity_index = (int32_t)atoi(desc[4 * i]);
		ps[i].state_index = (int32_t)atoi(desc[4 * i + 1]);
		ps[i].entity_name = desc[4 * i + 2];
		ps[i].state_name = desc[4 * i + 3];
		psp[i] = &ps[i];
	}
	for (size_t i = 0; i < m; i++) {
		perfetto__protos__entity_state_residency__state_residency__init(&r[i]);
		r[i].has_entity_index = r[i].has_state_index = r[i].has_total_time_in_state_ms = 1;
		r[i].entity_index = (int32_t)res[3 * i];
		r[i].state_index = (int32_t)res[3 * i + 1];
		r[i].total_time_in_state_ms = res[3 * i + 2];
		rp[i] = &r[i];
	}
	er.n_power_entity_state = n;
	er.power_entity_state = psp;
	er.n_residency = m;
	er.residency = rp;
	TB_PUT(b, p, ENTITY_STATE_RESIDENCY, entity_state_residency, &er);
}

/* Each residency's time in state on "Entity residency: <entity> is
 * <state>" (entity_state; dimensions entity_name, state_name), described
 * by the same or an earlier packet (a later description of the pair is
 * not taken). An undescribed pair is counted and ends its packet; a
 * packet without residencies is counted. */
static void test_entity_state_residency(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	char *desc[] = { "0", "0", "Bluetooth", "Idle", "0", "1", "Bluetooth", "Active", "1", "0", "Modem", "UP" };
	char *again[] = { "0", "0", "Wifi", "Idle" };
	const uint64_t r1[] = { 0, 0, 1000, 0, 1, 2000 };
	const uint64_t r2[] = { 0, 0, 3000, 0, 1, 4000, 5, 5, 1, 1, 0, 30000 };

	(void)state;
	residency(&b, 1, desc, 3, r1, 2);
	residency(&b, 2, again, 1, r2, 4);
	residency(&b, 3, NULL, 0, NULL, 0);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select c.ts, t.name, t.type, extract_arg(t.dimension_arg_set_id, 'entity_name'),"
			       " extract_arg(t.dimension_arg_set_id, 'state_name'), c.value from counter c"
			       " join counter_track t on t.id = c.track_id order by c.ts, t.id",
			   "1\tEntity residency: Bluetooth is Idle\tentity_state\tBluetooth\tIdle\t1000.0\n"
			   "1\tEntity residency: Bluetooth is Active\tentity_state\tBluetooth\tActive\t2000.0\n"
			   "2\tEntity residency: Bluetooth is Idle\tentity_state\tBluetooth\tIdle\t3000.0\n"
			   "2\tEntity residency: Bluetooth is Active\tentity_state\tBluetooth\tActive\t4000.0\n");
	assert_int_equal(tt_test_stat(tr, "entity_state_residency_lookup_failed"), 1);
	assert_int_equal(tt_test_stat(tr, "entity_state_residency_invalid"), 1);
	tb_close(tr, path, &b);
}

/* ---- cpu time per uid ---------------------------------------------------------------- */

/* A CpuPerUidData packet at ts on sequence 5 (clusters 0: not given;
 * cleared: an incremental state clear). */
static void cpu_per_uid(tbuf *b, uint64_t ts, uint32_t clusters, int cleared, uint32_t *uids, size_t nu,
			uint64_t *times, size_t nt)
{
	Perfetto__Protos__CpuPerUidData d = PERFETTO__PROTOS__CPU_PER_UID_DATA__INIT;
	Pkt p = pkt(5, ts);

	d.has_cluster_count = clusters != 0;
	d.cluster_count = clusters;
	d.n_uid = nu;
	d.uid = uids;
	d.n_total_time_ms = nt;
	d.total_time_ms = times;
	p.has_incremental_state_cleared = cleared;
	p.incremental_state_cleared = cleared;
	TB_PUT(b, p, CPU_PER_UID_DATA, cpu_per_uid_data, &d);
}

#define UID_COUNTERS "select t.name, c.ts, c.value from counter c join counter_track t on t.id = c.track_id" \
		     " where t.type = '%s' order by t.name, c.ts"

static void assert_uid_counters(tt_trace *tr, const char *type, const char *want)
{
	char sql[256];

	snprintf(sql, sizeof(sql), UID_COUNTERS, type);
	tt_test_assert_tsv(tr, sql, want);
}

/* A sequence's first packet gives each uid's absolute time per cluster,
 * later ones deltas: "CPU for UID <uid> CL<n>" holds the sequence's value
 * (unit ms, dimensions uid and cluster); "CPU for System / Apps CL<n>"
 * the growth of uids with app ids below / from 10000. A value equal to
 * the last is not written unless the next one differs (then written at
 * its time). Times past the uids are not read; a uid whose times end
 * early gets those. */
static void test_cpu_per_uid(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	uint32_t u1[] = { 1000, 10050 }, u2[] = { 1000 }, u3[] = { 10050, 1000 };
	uint64_t t1[] = { 100, 200, 300, 400 }, t2[] = { 0, 5, 9, 9 }, t3[] = { 7 };

	(void)state;
	cpu_per_uid(&b, 10, 2, 0, u1, 2, t1, 4);
	cpu_per_uid(&b, 20, 0, 0, u2, 1, t2, 4);
	cpu_per_uid(&b, 30, 0, 0, u3, 2, t3, 1);
	tr = tb_open_file(&b, &path);
	assert_uid_counters(tr, "android_cpu_per_uid",
			    "CPU for UID 1000 CL0\t10\t100.0\n"
			    "CPU for UID 1000 CL1\t10\t200.0\n"
			    "CPU for UID 1000 CL1\t20\t205.0\n"
			    "CPU for UID 10050 CL0\t10\t300.0\n"
			    "CPU for UID 10050 CL0\t20\t300.0\n"
			    "CPU for UID 10050 CL0\t30\t307.0\n"
			    "CPU for UID 10050 CL1\t10\t400.0\n");
	assert_uid_counters(tr, "android_cpu_per_uid_totals",
			    "CPU for Apps CL0\t10\t0.0\n"
			    "CPU for Apps CL0\t20\t0.0\n"
			    "CPU for Apps CL0\t30\t7.0\n"
			    "CPU for Apps CL1\t10\t0.0\n"
			    "CPU for System CL0\t10\t0.0\n"
			    "CPU for System CL1\t10\t0.0\n"
			    "CPU for System CL1\t20\t5.0\n");
	tt_test_assert_tsv(tr, "select t.unit, extract_arg(t.dimension_arg_set_id, 'uid'),"
			       " extract_arg(t.dimension_arg_set_id, 'cluster') from counter_track t"
			       " where t.name = 'CPU for UID 10050 CL1'",
			   "ms\t10050\t1\n");
	tt_test_assert_tsv(tr, "select extract_arg(dimension_arg_set_id, 'type'), extract_arg(dimension_arg_set_id,"
			       " 'cluster') from counter_track where name = 'CPU for Apps CL1'",
			   "Apps\t1\n");
	tb_close(tr, path, &b);
}

/* Isolated and sdk-sandbox uids (app ids 90000-99999, 50000-59999) are
 * grouped by uid - uid % 10000 into one track of their growth since the
 * trace began; at the end, every grouped uid's and every counted uid's
 * total growth per cluster is a row of
 * __intrinsic_android_cpu_per_uid_track with its track. An incremental
 * state clear makes the sequence's next values absolute again. */
static void test_cpu_per_uid_grouped(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	uint32_t u1[] = { 90000, 91000, 1000 }, u2[] = { 91000 }, u3[] = { 1090001, 1000 };
	uint64_t t1[] = { 1000, 500, 10 }, t2[] = { 50 }, t3[] = { 7, 30 };

	(void)state;
	cpu_per_uid(&b, 10, 1, 0, u1, 3, t1, 3);
	cpu_per_uid(&b, 20, 0, 0, u2, 1, t2, 1);
	cpu_per_uid(&b, 30, 1, 1, u3, 2, t3, 2);
	tr = tb_open_file(&b, &path);
	assert_uid_counters(tr, "android_cpu_per_uid",
			    "CPU for UID 1000 CL0\t10\t10.0\n"
			    "CPU for UID 1000 CL0\t20\t10.0\n"
			    "CPU for UID 1000 CL0\t30\t30.0\n"
			    "CPU for UID 1090000 CL0\t30\t0.0\n"
			    "CPU for UID 90000 CL0\t10\t0.0\n"
			    "CPU for UID 90000 CL0\t20\t50.0\n");
	tt_test_assert_tsv(tr, "select u.uid, u.cluster, u.total_cpu_millis, t.name from"
			       " __intrinsic_android_cpu_per_uid_track u join track t on t.id = u.track_id order by u.id",
			   "90000\t0\t50\tCPU for UID 90000 CL0\n"
			   "1000\t0\t20\tCPU for UID 1000 CL0\n"
			   "1090000\t0\t0\tCPU for UID 1090000 CL0\n");
	tb_close(tr, path, &b);
}

/* ---- aconfig flags ----------------------------------------------------------------- */

/* Each flag of an AndroidAflags snapshot is a row of android_aflags (the
 * android.aflags module) at the packet's time: its texts without their
 * invalid UTF-8, no staged value NULL, the enums by name ("unspecified"
 * when not set). A snapshot with an error is an android_aflags_errors
 * import log at its time with the error as arg, and counted. */
static void test_aflags(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Perfetto__Protos__AndroidAflags af = PERFETTO__PROTOS__ANDROID_AFLAGS__INIT;
	Perfetto__Protos__AndroidAflags__Flag f[2], *fp[] = { &f[0], &f[1] };
	Pkt p = pkt(1, 1000);

	(void)state;
	perfetto__protos__android_aflags__flag__init(&f[0]);
	perfetto__protos__android_aflags__flag__init(&f[1]);
	f[0].pkg = "com.example";
	f[0].name = "fast_path";
	f[0].flag_namespace = "core";
	f[0].container = "system";
	f[0].value = "enabled";
	f[0].staged_value = "disabled";
	f[0].has_permission = f[0].has_value_picked_from = f[0].has_storage_backend = f[0].has_type = 1;
	f[0].permission = PERFETTO__PROTOS__ANDROID_AFLAGS__FLAG_PERMISSION__FLAG_PERMISSION_READ_WRITE;
	f[0].value_picked_from = PERFETTO__PROTOS__ANDROID_AFLAGS__VALUE_PICKED_FROM__VALUE_PICKED_FROM_SERVER;
	f[0].storage_backend = PERFETTO__PROTOS__ANDROID_AFLAGS__FLAG_STORAGE_BACKEND__FLAG_STORAGE_BACKEND_DEVICE_CONFIG;
	f[0].type = PERFETTO__PROTOS__ANDROID_AFLAGS__FLAG_TYPE__FLAG_TYPE_INTEGER;
	f[1].pkg = "com.ex\xffmple";
	f[1].name = "other";
	f[1].flag_namespace = "ns";
	f[1].container = "vendor";
	f[1].value = "1";
	af.n_flags = 2;
	af.flags = fp;
	TB_PUT(&b, p, ANDROID_AFLAGS, android_aflags, &af);
	af.n_flags = 0;
	af.error = "no aflags tool";
	p = pkt(1, 2000);
	TB_PUT(&b, p, ANDROID_AFLAGS, android_aflags, &af);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "include perfetto module android.aflags;"
			       " select ts, package, name, flag_namespace, container, value, coalesce(staged_value, 'NULL'),"
			       " permission, value_picked_from, storage_backend, type from android_aflags order by name",
			   "1000\tcom.example\tfast_path\tcore\tsystem\tenabled\tdisabled\tread-write\tserver\tdevice_config"
			   "\tinteger\n"
			   "1000\tcom.exmple\tother\tns\tvendor\t1\tNULL\tunspecified\tunspecified\tunspecified"
			   "\tunspecified\n");
	tt_test_assert_tsv(tr, "select l.ts, a.key, a.display_value from _trace_import_logs l join args a using (arg_set_id)"
			       " where l.name = 'android_aflags_errors'",
			   "2000\terror\tno aflags tool\n");
	assert_int_equal(tt_test_stat(tr, "android_aflags_errors"), 1);
	tb_close(tr, path, &b);
}

/* The android.entity_state_residency module: each residency sample up
 * to the next of its entity and state (ms as ns, the share of the time
 * between in the state); android.power_rails: each rail once (its raw,
 * friendly and subsystem names) and its samples as intervals with the
 * mean power (mW) up to the next. */
static void test_power_modules(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	char *desc[] = { "0", "0", "Modem", "UP" };
	const uint64_t r1[] = { 0, 0, 1000 }, r2[] = { 0, 0, 1500 };
	Perfetto__Protos__PowerRails pr = PERFETTO__PROTOS__POWER_RAILS__INIT;
	Perfetto__Protos__PowerRails__RailDescriptor rd = PERFETTO__PROTOS__POWER_RAILS__RAIL_DESCRIPTOR__INIT, *rdp = &rd;
	Perfetto__Protos__PowerRails__EnergyData ed = PERFETTO__PROTOS__POWER_RAILS__ENERGY_DATA__INIT, *edp = &ed;
	Pkt p;

	(void)state;
	residency(&b, 1000000000, desc, 1, r1, 1);
	residency(&b, 2000000000, NULL, 0, r2, 1);
	rd.has_index = 1;
	rd.rail_name = "S2S_VDD_G3D";
	rd.subsys_name = "gpu";
	pr.n_rail_descriptor = 1;
	pr.rail_descriptor = &rdp;
	ed.has_index = ed.has_energy = 1;
	ed.energy = 1000;
	pr.n_energy_data = 1;
	pr.energy_data = &edp;
	p = pkt(1, 1000000000);
	TB_PUT(&b, p, POWER_RAILS, power_rails, &pr);
	pr.n_rail_descriptor = 0;
	ed.energy = 3000;
	p = pkt(1, 3000000000);
	TB_PUT(&b, p, POWER_RAILS, power_rails, &pr);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "include perfetto module android.entity_state_residency;"
			       " select ts, coalesce(dur, 'NULL'), entity_name, state_name, raw_name, state_time_since_boot,"
			       " coalesce(state_time_since_boot_at_end, 'NULL'), coalesce(state_time_ratio, 'NULL')"
			       " from android_entity_state_residency order by ts",
			   "1000000000\t1000000000\tModem\tUP\tEntity residency: Modem is UP\t1000000000\t1500000000\t0.5\n"
			   "2000000000\tNULL\tModem\tUP\tEntity residency: Modem is UP\t1500000000\tNULL\tNULL\n");
	tt_test_assert_tsv(tr, "include perfetto module android.power_rails;"
			       " select power_rail_name, raw_power_rail_name, friendly_name, subsystem_name"
			       " from android_power_rails_metadata",
			   "power.rails.gpu\tS2S_VDD_G3D\tgpu\tgpu\n");
	tt_test_assert_tsv(tr, "select ts, dur, energy_since_boot, coalesce(energy_since_boot_at_end, 'NULL'),"
			       " coalesce(average_power, 'NULL') from android_power_rails_counters order by ts",
			   "1000000000\t2000000000\t1000.0\t3000.0\t1.0\n"
			   "3000000000\t0\t3000.0\tNULL\tNULL\n");
	tb_close(tr, path, &b);
}

/* ---- games ---------------------------------------------------------------------- */

/* Each game of an AndroidGameInterventionList is a row of
 * android_game_intervention_list: its modes (1 standard, 2 performance,
 * 3 battery) supported or not, a supported one's downscale, ANGLE use
 * and fps (0 when not given), NULL for one not supported; the list's
 * read and parse errors set their stats. */
static void test_game_interventions(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Perfetto__Protos__AndroidGameInterventionList gl = PERFETTO__PROTOS__ANDROID_GAME_INTERVENTION_LIST__INIT;
	Perfetto__Protos__AndroidGameInterventionList__GamePackageInfo g[2], *gp[] = { &g[0], &g[1] };
	Perfetto__Protos__AndroidGameInterventionList__GameModeInfo m[3], *mp[] = { &m[0], &m[1], &m[2] };
	Pkt p = pkt(1, 0);

	(void)state;
	for (int i = 0; i < 3; i++) {
		perfetto__protos__android_game_intervention_list__game_mode_info__init(&m[i]);
		m[i].has_mode = 1;
		m[i].mode = (uint32_t)i + 1;
	}
	m[0].has_resolution_downscale = m[0].has_use_angle = 1;
	m[0].resolution_downscale = 0.5f;
	m[0].use_angle = 1;
	m[2].has_fps = 1;
	m[2].fps = 45;
	for (int i = 0; i < 2; i++) {
		perfetto__protos__android_game_intervention_list__game_package_info__init(&g[i]);
		g[i].has_uid = g[i].has_current_mode = 1;
	}
	g[0].name = "com.game.a";
	g[0].uid = 10001;
	g[0].current_mode = 1;
	g[0].n_game_mode_info = 3;
	g[0].game_mode_info = mp;
	g[1].name = "com.game.b";
	g[1].uid = 10002;
	g[1].current_mode = 3;
	g[1].n_game_mode_info = 1;
	g[1].game_mode_info = &mp[2];
	gl.n_game_packages = 2;
	gl.game_packages = gp;
	gl.has_read_error = 1;
	gl.read_error = 1;
	TB_PUT(&b, p, ANDROID_GAME_INTERVENTION_LIST, android_game_intervention_list, &gl);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select package_name, uid, current_mode, standard_mode_supported,"
			       " coalesce(standard_mode_downscale, 'NULL'), coalesce(standard_mode_use_angle, 'NULL'),"
			       " coalesce(standard_mode_fps, 'NULL'), perf_mode_supported, coalesce(perf_mode_fps, 'NULL'),"
			       " battery_mode_supported, coalesce(battery_mode_downscale, 'NULL'), battery_mode_fps"
			       " from android_game_intervention_list order by package_name",
			   "com.game.a\t10001\t1\t1\t0.5\t1\t0.0\t1\t0.0\t1\t0.0\t45.0\n"
			   "com.game.b\t10002\t3\t0\tNULL\tNULL\tNULL\t0\tNULL\t1\t0.0\t45.0\n");
	assert_int_equal(tt_test_stat(tr, "game_intervention_has_read_errors"), 1);
	assert_int_equal(tt_test_stat(tr, "game_intervention_has_parse_errors"), 0);
	tb_close(tr, path, &b);
}

/* ---- users ---------------------------------------------------------------------- */

/* Each user of an AndroidUserList is a row of android_user_list (the
 * android.user_list module); a user listed again (another packet) keeps
 * its row with the newer type; an error below 0 is counted. */
static void test_user_list(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Perfetto__Protos__AndroidUserList ul = PERFETTO__PROTOS__ANDROID_USER_LIST__INIT;
	Perfetto__Protos__AndroidUserList__UserInfo u[2], *up[] = { &u[0], &u[1] };
	Pkt p = pkt(1, 0);

	(void)state;
	for (int i = 0; i < 2; i++) {
		perfetto__protos__android_user_list__user_info__init(&u[i]);
		u[i].has_uid = 1;
	}
	u[0].uid = 10;
	u[0].type = "android.os.usertype.full.SECONDARY";
	u[1].uid = 0;
	u[1].type = "android.os.usertype.system.HEADLESS";
	ul.n_users = 2;
	ul.users = up;
	TB_PUT(&b, p, USER_LIST, user_list, &ul);
	u[0].type = "android.os.usertype.full.GUEST";
	ul.n_users = 1;
	ul.has_error = 1;
	ul.error = -1;
	TB_PUT(&b, p, USER_LIST, user_list, &ul);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "include perfetto module android.user_list;"
			       " select android_user_id, type from android_user_list order by android_user_id",
			   "0\tandroid.os.usertype.system.HEADLESS\n10\tandroid.os.usertype.full.GUEST\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from __intrinsic_android_user_list"), 2);
	assert_int_equal(tt_test_stat(tr, "user_list_errors"), 1);
	tb_close(tr, path, &b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_clusters_by_capacity),
		cmocka_unit_test(test_cpu_clusters_by_frequency),
		cmocka_unit_test(test_cpu_args_and_features),
		cmocka_unit_test(test_cpu_info_after_sched),
		cmocka_unit_test(test_cpu_info_empty),
		cmocka_unit_test(test_sched_cpu_util_cfs),
		cmocka_unit_test(test_screen_state),
		cmocka_unit_test(test_device_state),
		cmocka_unit_test(test_numeric_properties),
		cmocka_unit_test(test_energy_breakdown),
		cmocka_unit_test(test_entity_state_residency),
		cmocka_unit_test(test_power_modules),
		cmocka_unit_test(test_cpu_per_uid),
		cmocka_unit_test(test_cpu_per_uid_grouped),
		cmocka_unit_test(test_aflags),
		cmocka_unit_test(test_game_interventions),
		cmocka_unit_test(test_user_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
