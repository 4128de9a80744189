/*
 * proto_sysstats.c - SysStats packets (the Linux probes' periodic reads
 * of /proc: meminfo, vmstat, stat, interrupts, pressure, thermal zones,
 * cpu and device frequencies) as trace processor's SystemProbesParser
 * makes them: one counter track per key, of its blueprint's type, name,
 * unit and dimensions, the values at the packet's time in trace order.
 * See import_proto.c for the importer as a whole.
 *
 * Also BatteryCounters (android.power): the battery's charge (or the
 * charge its energy and voltage give), capacity, current, average
 * current, voltage and the power they give, on the battery_counter
 * tracks "batt.<name>.<counter>".
 *
 * Read: meminfo (kB, stored as bytes), vmstat, cpu_stat (cpu.times.*),
 * num_irq / num_softirq per interrupt and their totals, num_forks,
 * buddy_info, disk_stat (deltas from the device's previous values), psi,
 * thermal_zone, cpuidle_state, gpufreq_mhz, slab_info, devfreq and
 * cpufreq_khz (the tracks ftrace's clock, cpu and gpu frequency events
 * use).
 */
#include "proto_int.h"

#include <math.h>
#include <stdio.h>

#include "proto_sysstats_keys.h"

typedef Perfetto__Protos__SysStats SysStats;

/* A counter track keyed by (type, a, b) of blueprint type: its name and
 * unit (NULL: none), dimensions cpu (cpu >= 0), uint dimension ukey =
 * uval (ukey not NULL) and string dimension skey = sval (skey not NULL),
 * in that order. */
static uint32_t track(pctx *c, const char *type, uint64_t a, uint64_t b, const char *name, const char *unit,
		      int64_t cpu, const char *ukey, uint64_t uval, const char *skey, const char *sval)
{
	tt_track_desc d = { .type = type, .name = intern_c(c, name), .utid = TT_NONE, .upid = TT_NONE,
			    .parent_id = TT_NONE, .is_counter = 1, .unit = unit ? intern_c(c, unit) : 0, .cpu = cpu };
	uint32_t t = tt_track_tracker_keyed(c->im->tracks, type, a, b, d.name, &d);

	if (tt_proto_dims_begin(c, t)) {
		if (cpu >= 0)
			tt_storage_args_uint(c->st, "cpu", (uint64_t)cpu);
		if (ukey)
			tt_storage_args_uint(c->st, ukey, uval);
		if (skey)
			tt_storage_args_str(c->st, skey, sval, strlen(sval));
		tt_proto_dims_end(c, t);
	}
	return t;
}

static void value(pctx *c, pseq *s, int64_t ts, uint32_t t, double v)
{
	if (t != TT_NONE)
		tt_proto_push_rec(c, s, ts, R_COUNTER, 0, t, 0, 0, TT_NONE, 0, v);
}

/* A track keyed by one string (meminfo, vmstat, psi, thermal zones):
 * named by prefix + the string, dimension dim = the string. */
static uint32_t string_track(pctx *c, const char *type, const char *prefix, const char *unit, const char *dim,
			     const char *key)
{
	char name[1024];

	snprintf(name, sizeof(name), "%s%s", prefix, key);
	return track(c, type, intern_c(c, key), 0, name, unit, -1, NULL, 0, dim, key);
}

static void cpu_times(pctx *c, pseq *s, int64_t ts, const Perfetto__Protos__SysStats__CpuTimes *ct)
{
	const char *const keys[] = { "user_ns", "user_nice_ns", "system_mode_ns", "idle_ns",
				     "io_wait_ns", "irq_ns", "softirq_ns", "steal_ns" };
	const uint64_t v[] = { ct->user_ns, ct->user_nice_ns, ct->system_mode_ns, ct->idle_ns,
			       ct->io_wait_ns, ct->irq_ns, ct->softirq_ns, ct->steal_ns };

	if (!ct->has_cpu_id) {
		stat(c, TT_STAT_invalid_cpu_times);
		return;
	}
	for (size_t k = 0; k < 8; k++) {
		char name[64];

		snprintf(name, sizeof(name), "cpu.times.%s", keys[k]);
		value(c, s, ts, track(c, "cpustat", ct->cpu_id, k, name, NULL, ct->cpu_id, NULL, 0, "cpustat_key", keys[k]),
		      (double)v[k]);
	}
}

static void interrupts(pctx *c, pseq *s, int64_t ts, const char *type, Perfetto__Protos__SysStats__InterruptCount **ic,
		       size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char name[64];

		snprintf(name, sizeof(name), "%s (id: %u)", type, (uint32_t)ic[i]->irq);
		value(c, s, ts, track(c, type, (uint32_t)ic[i]->irq, 0, name, NULL, -1, "irq", (uint32_t)ic[i]->irq, NULL, NULL),
		      (double)ic[i]->count);
	}
}

static void total(pctx *c, pseq *s, int64_t ts, const char *type, protobuf_c_boolean has, uint64_t v)
{
	if (has)
		value(c, s, ts, track(c, type, 0, 0, type, NULL, -1, NULL, 0, NULL, NULL), (double)v);
}

/* /proc/buddyinfo: free chunks of each order, per node and zone. */
static void buddy_info(pctx *c, pseq *s, int64_t ts, const Perfetto__Protos__SysStats__BuddyInfo *bi)
{
	const char *node = bi->node ? bi->node : "", *zone = bi->zone ? bi->zone : "";
	uint64_t page = c->page_size ? c->page_size : 4096;

	for (size_t o = 0; o < bi->n_order_pages && o < 32; o++) {
		uint32_t kb = (uint32_t)(((1ull << o) * page) / 1024);
		char name[1024];
		tt_track_desc d = { .type = "buddyinfo", .utid = TT_NONE, .upid = TT_NONE, .parent_id = TT_NONE,
				    .is_counter = 1, .cpu = -1 };
		uint32_t t;

		snprintf(name, sizeof(name), "mem.buddyinfo[%s][%s][%u kB]", node, zone, kb);
		d.name = intern_c(c, name);
		t = tt_track_tracker_keyed(c->im->tracks, "buddyinfo", d.name, 0, d.name, &d);
		if (tt_proto_dims_begin(c, t)) {
			tt_storage_args_str(c->st, "buddyinfo_node", node, strlen(node));
			tt_storage_args_str(c->st, "buddyinfo_zone", zone, strlen(zone));
			tt_storage_args_uint(c->st, "buddyinfo_chunk_size_kb", kb);
			tt_proto_dims_end(c, t);
		}
		value(c, s, ts, t, (double)bi->order_pages[o]);
	}
}

/* /proc/diskstats: from a device's second sample on, what it did since the
 * one before (MB and MB/s in 512-byte sectors, flushes and their ms). */
static void disk_stat(pctx *c, pseq *s, int64_t ts, const Perfetto__Protos__SysStats__DiskStat *ds)
{
	static const char *const names[8] = { "read_amount", "read_throughput", "write_amount", "write_throughput",
					       "discard_amount", "discard_throughput", "flush_amount", "flush_time" };
	static const char *const units[8] = { "MB", "MB/s", "MB", "MB/s", "MB", "MB/s", "count", "ms" };
	const char *dev = ds->device_name ? ds->device_name : "";
	int64_t cur[8] = { (int64_t)ds->read_sectors, (int64_t)ds->write_sectors, (int64_t)ds->discard_sectors,
			   (int64_t)ds->flush_count, (int64_t)ds->read_time_ms, (int64_t)ds->write_time_ms,
			   (int64_t)ds->discard_time_ms, (int64_t)ds->flush_time_ms };
	tt_str id = intern_c(c, dev);
	struct pdisk *p = NULL;

	for (size_t i = 0; i < c->disks.n && !p; i++)
		if (c->disks.v[i].device == id)
			p = &c->disks.v[i];
	if (!p) {
		struct pdisk z = { .device = id };

		if (TT_VEC_PUSH(c->disks, z)) {
			c->oom = 1;
			return;
		}
		memcpy(c->disks.v[c->disks.n - 1].v, cur, sizeof(cur));
		return; /* (the first sample only sets the base) */
	}
	{
		double v[8];

		for (int k = 0; k < 3; k++) {
			double mb = (double)(cur[k] - p->v[k]) / 2048.0; /* (512-byte sectors) */
			int64_t ms = cur[4 + k] - p->v[4 + k];

			v[2 * k] = mb;
			v[2 * k + 1] = ms == 0 ? 0 : mb * 1000.0 / (double)ms;
		}
		v[6] = (double)(cur[3] - p->v[3]);
		v[7] = (double)(cur[7] - p->v[7]);
		for (int k = 0; k < 8; k++) {
			char name[1024];
			tt_track_desc d = { .type = "diskstat", .utid = TT_NONE, .upid = TT_NONE, .parent_id = TT_NONE,
					    .is_counter = 1, .unit = intern_c(c, units[k]), .cpu = -1 };
			uint32_t t;

			snprintf(name, sizeof(name), "diskstat.[%s].%s", dev, names[k]);
			d.name = intern_c(c, name);
			t = tt_track_tracker_keyed(c->im->tracks, "diskstat", d.name, 0, d.name, &d);
			if (tt_proto_dims_begin(c, t)) {
				tt_storage_args_str(c->st, "device_name", dev, strlen(dev));
				tt_storage_args_str(c->st, "counter_name", names[k], strlen(names[k]));
				tt_proto_dims_end(c, t);
			}
			value(c, s, ts, t, v[k]);
		}
	}
	memcpy(p->v, cur, sizeof(cur));
}

static const char *psi_key(int r)
{
	static const char *const k[] = { "resource.unspecified", "cpu.some", "cpu.full", "io.some",
					 "io.full", "mem.some", "mem.full" };

	return r >= 0 && r < 7 ? k[r] : NULL;
}

void tt_proto_on_sys_stats(pctx *c, pseq *s, const SysStats *ss, int64_t ts)
{
	size_t i;

	for (i = 0; i < ss->n_meminfo; i++) {
		const Perfetto__Protos__SysStats__MeminfoValue *m = ss->meminfo[i];

		if ((uint32_t)m->key >= sizeof(meminfo_keys) / sizeof(meminfo_keys[0])) {
			stat(c, TT_STAT_meminfo_unknown_keys);
			continue;
		}
		/* kB in /proc/meminfo: bytes here */
		value(c, s, ts, string_track(c, "meminfo", "", "bytes", "meminfo_key", meminfo_keys[m->key]),
		      (double)m->value * 1024);
	}
	for (i = 0; i < ss->n_devfreq; i++) {
		const char *k = ss->devfreq[i]->key ? ss->devfreq[i]->key : "";

		value(c, s, ts, tt_import_device_counter_track(c->im, "clock_frequency", "linux_device", k, strlen(k),
							       " Frequency"),
		      (double)ss->devfreq[i]->value);
	}
	for (i = 0; i < ss->n_cpufreq_khz; i++)
		value(c, s, ts, tt_import_cpu_counter_track(c->im, "cpu_frequency", 0, "cpufreq", (uint32_t)i),
		      (double)ss->cpufreq_khz[i]);
	for (i = 0; i < ss->n_vmstat; i++) {
		const Perfetto__Protos__SysStats__VmstatValue *v = ss->vmstat[i];

		if ((uint32_t)v->key >= sizeof(vmstat_keys) / sizeof(vmstat_keys[0])) {
			stat(c, TT_STAT_vmstat_unknown_keys);
			continue;
		}
		value(c, s, ts, string_track(c, "vmstat", "", NULL, "vmstat_key", vmstat_keys[v->key]), (double)v->value);
	}
	for (i = 0; i < ss->n_cpu_stat; i++)
		cpu_times(c, s, ts, ss->cpu_stat[i]);
	interrupts(c, s, ts, "num_irq", ss->num_irq, ss->n_num_irq);
	interrupts(c, s, ts, "num_softirq", ss->num_softirq, ss->n_num_softirq);
	total(c, s, ts, "num_forks", ss->has_num_forks, ss->num_forks);
	total(c, s, ts, "num_irq_total", ss->has_num_irq_total, ss->num_irq_total);
	total(c, s, ts, "num_softirq_total", ss->has_num_softirq_total, ss->num_softirq_total);
	for (i = 0; i < ss->n_buddy_info; i++)
		buddy_info(c, s, ts, ss->buddy_info[i]);
	for (i = 0; i < ss->n_disk_stat; i++)
		disk_stat(c, s, ts, ss->disk_stat[i]);
	for (i = 0; i < ss->n_psi; i++) {
		const char *k = psi_key(ss->psi[i]->resource);

		/* (an unknown resource ends the packet's reading, as there) */
		if (!k) {
			stat(c, TT_STAT_psi_unknown_resource);
			return;
		}
		value(c, s, ts, string_track(c, "psi", "psi.", NULL, "psi_resource", k), (double)ss->psi[i]->total_ns);
	}
	for (i = 0; i < ss->n_thermal_zone; i++) {
		const char *t = ss->thermal_zone[i]->type ? ss->thermal_zone[i]->type : "";

		value(c, s, ts, string_track(c, "thermal_temperature_sys", "", "C", "thermal_zone", t),
		      (double)ss->thermal_zone[i]->temp);
	}
	for (i = 0; i < ss->n_cpuidle_state; i++) {
		const Perfetto__Protos__SysStats__CpuIdleState *cs = ss->cpuidle_state[i];

		for (size_t k = 0; k < cs->n_cpuidle_state_entry; k++) {
			const char *st = cs->cpuidle_state_entry[k]->state ? cs->cpuidle_state_entry[k]->state : "";
			char name[1024];

			snprintf(name, sizeof(name), "cpuidle%u.%s", cs->cpu_id, st);
			value(c, s, ts,
			      track(c, "cpu_idle_state", cs->cpu_id, intern_c(c, st), name, "us", cs->cpu_id, NULL, 0, "state",
				    st),
			      (double)cs->cpuidle_state_entry[k]->duration_us);
		}
	}
	/* every value on GPU 0's track, in MHz as given (as there: the track
	 * ftrace's gpu_frequency writes kHz to) */
	for (i = 0; i < ss->n_gpufreq_mhz; i++)
		value(c, s, ts, tt_import_gpu_freq_track(c->im, 0), (double)ss->gpufreq_mhz[i]);
	for (i = 0; i < ss->n_slab_info; i++) {
		const Perfetto__Protos__SysStats__SlabInfo *sl = ss->slab_info[i];
		const char *n = sl->name ? sl->name : "";
		uint32_t t = string_track(c, "slabinfo", "mem.slab.", "bytes", "slab_name", n);
		int64_t row;

		if (t == TT_NONE)
			continue;
		/* (a value with its two factors as args: stored now, in the
		 * packet's order, as trace processor pushes it) */
		tt_storage_args_begin(c->st);
		tt_storage_args_uint(c->st, "pages_per_slab", sl->pages_per_slab);
		tt_storage_args_uint(c->st, "num_slabs", sl->num_slabs);
		row = (int64_t)tt_args_tracker_end(c->im->args);
		tt_proto_push_rec(c, s, ts, R_COUNTER, 0, t, 0, 0, (uint32_t)row, 0,
				  (double)sl->pages_per_slab * (double)sl->num_slabs *
					  (double)(c->page_size ? c->page_size : 4096));
	}
}

/* ---- battery ---------------------------------------------------------------------- */

static int64_t wrap_mul(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a * (uint64_t)b);
}

static void battery_value(pctx *c, pseq *s, int64_t ts, const char *battery, const char *counter, double v)
{
	char name[1024], key[600];

	if (battery[0])
		snprintf(name, sizeof(name), "batt.%s.%s", battery, counter);
	else
		snprintf(name, sizeof(name), "batt.%s", counter);
	snprintf(key, sizeof(key), "%s\n%s", battery, counter);
	{
		tt_track_desc d = { .type = "battery_counter", .name = intern_c(c, name), .utid = TT_NONE,
				    .upid = TT_NONE, .parent_id = TT_NONE, .is_counter = 1, .cpu = -1 };
		uint32_t t = tt_track_tracker_keyed(c->im->tracks, "battery_counter", intern_c(c, key), 0, d.name, &d);

		if (tt_proto_dims_begin(c, t)) {
			tt_storage_args_str(c->st, "battery_name", battery, strlen(battery));
			tt_storage_args_str(c->st, "counter_name", counter, strlen(counter));
			tt_proto_dims_end(c, t);
		}
		value(c, s, ts, t, v);
	}
}

void tt_proto_on_battery(pctx *c, pseq *s, const Perfetto__Protos__BatteryCounters *b, int64_t ts)
{
	const char *n = b->name ? b->name : "";

	/* (int64 arithmetic, as trace processor computes the derived ones;
	 * products that overflow wrap instead of being undefined) */
	if (b->has_charge_counter_uah)
		battery_value(c, s, ts, n, "charge_uah", (double)b->charge_counter_uah);
	else if (b->has_energy_counter_uwh && b->has_voltage_uv && b->voltage_uv > 0)
		battery_value(c, s, ts, n, "charge_uah",
			      (double)(wrap_mul(b->energy_counter_uwh, 1000000) / b->voltage_uv));
	if (b->has_capacity_percent)
		battery_value(c, s, ts, n, "capacity_pct", (double)b->capacity_percent);
	if (b->has_current_ua)
		battery_value(c, s, ts, n, "current_ua", (double)b->current_ua);
	if (b->has_current_avg_ua)
		battery_value(c, s, ts, n, "current.avg_ua", (double)b->current_avg_ua);
	if (b->has_voltage_uv)
		battery_value(c, s, ts, n, "voltage_uv", (double)b->voltage_uv);
	/* (discharging, the current is negative: the power is not) */
	if (b->has_current_ua && b->has_voltage_uv)
		battery_value(c, s, ts, n, "power_mw", fabs((double)(wrap_mul(b->current_ua, b->voltage_uv) / 1000000000)));
}

/* ---- power rails ------------------------------------------------------------------ */

/* Rails trace processor knows by the end of their raw name, and the
 * names it gives them (power.rails.<name>; others: power.<raw>_uws). */
static const struct { const char *suffix, *name; } rail_names[] = {
	{ "M_VDD_CPUCL0", "cpu.little" }, { "M_VDD_CPUCL0_M", "cpu.little.mem" },
	{ "M_VDD_CPUCL1", "cpu.mid" }, { "M_VDD_CPUCL1_M", "cpu.mid.mem" },
	{ "M_VDD_CPUCL2", "cpu.big" }, { "M_VDD_INT", "system.fabric" }, { "M_VDD_TPU", "tpu" },
	{ "VSYS_PWR_DISP", "display" }, { "VSYS_PWR_DISPLAY", "display" }, { "M_DISP", "ldo.main.a.display" },
	{ "VSYS_PWR_MODEM", "modem" }, { "M_VDD_MIF", "memory.interface" }, { "VSYS_PWR_WLAN_BT", "wifi.bt" },
	{ "VSYS_PWR_MMWAVE", "mmwave" }, { "S_VDD_AOC_RET", "aoc.memory" }, { "S_VDD_AOC", "aoc.logic" },
	{ "S_VDDQ_MEM", "ddr.a" }, { "S_VDD2L", "ddr.b" }, { "S_VDD2L_MEM", "ddr.b" }, { "S_VDD2H_MEM", "ddr.c" },
	{ "S_VDD_G3D", "gpu" }, { "S_VDD_G3D_L2", "gpu.l2" }, { "S_GNSS_CORE", "gps" },
	{ "VSYS_PWR_RFFE", "radio.frontend" }, { "VSYS_PWR_CAMERA", "camera" }, { "S_VDD_CAM", "multimedia" },
	{ "S_UDFPS", "udfps" }, { "S_PLL_MIPI_UFS", "ufs" }, { "M_LLDO1", "ldo.main.a" },
	{ "M_LLDO2", "ldo.main.b" }, { "S_LLDO1", "ldo.sub" },
};

static const char *rail_friendly(const char *raw)
{
	size_t n = strlen(raw);

	/* (the first suffix that matches, in trace processor's order) */
	for (size_t i = 0; i < sizeof(rail_names) / sizeof(rail_names[0]); i++) {
		size_t k = strlen(rail_names[i].suffix);

		if (n >= k && !strcmp(raw + n - k, rail_names[i].suffix))
			return rail_names[i].name;
	}
	return NULL;
}

/* A rail's counter track (power_rails, no unit, dimensions name = the raw
 * name and session_uuid), its raw and subsystem names as the track's
 * args; index past 256 skipped, as there. */
static void rail_descriptor(pctx *c, uint64_t session, const Perfetto__Protos__PowerRails__RailDescriptor *rd)
{
	const char *raw = rd->rail_name ? rd->rail_name : "", *friendly = rail_friendly(raw);
	char name[300];
	tt_track_desc d = { .type = "power_rails", .utid = TT_NONE, .upid = TT_NONE, .parent_id = TT_NONE,
			    .is_counter = 1, .cpu = -1 };
	uint32_t t;

	if (rd->index > 256)
		return;
	if (friendly)
		snprintf(name, sizeof(name), "power.rails.%s", friendly);
	else
		snprintf(name, sizeof(name), "power.%.255s_uws", raw);
	d.name = intern_c(c, name);
	t = tt_track_tracker_keyed(c->im->tracks, "power_rails", intern_c(c, raw), session, d.name, &d);
	if (t == TT_NONE)
		return;
	if (tt_proto_dims_begin(c, t)) {
		tt_storage_args_str(c->st, "name", raw, strlen(raw));
		tt_storage_args_uint(c->st, "session_uuid", session);
		tt_proto_dims_end(c, t);
		tt_storage_args_begin(c->st);
		tt_storage_args_str(c->st, "raw_name", raw, strlen(raw));
		tt_storage_args_str(c->st, "subsystem_name", rd->subsys_name ? rd->subsys_name : "",
				    rd->subsys_name ? strlen(rd->subsys_name) : 0);
		tt_storage_track_set_source_args(c->st, t, tt_args_tracker_end(c->im->args));
	}
	if (tt_keymap_put(&c->rails, session, rd->index, 0, 0, t))
		c->oom = 1;
}

/* PowerRails as trace processor's AndroidProbesModule: descriptors make
 * the rails' tracks at once; each energy value is a counter at its own
 * time (timestamp_ms on BOOTTIME, else the packet's; one no snapshot
 * converts is dropped) with the packet's time as arg packet_ts. */
void tt_proto_on_power_rails(pctx *c, pseq *s, const Perfetto__Protos__PowerRails *pr, int64_t ts)
{
	for (size_t i = 0; i < pr->n_rail_descriptor; i++)
		rail_descriptor(c, pr->session_uuid, pr->rail_descriptor[i]);
	if (!pr->n_energy_data) {
		stat(c, TT_STAT_power_rail_empty_packet);
		return;
	}
	for (size_t i = 0; i < pr->n_energy_data; i++) {
		const Perfetto__Protos__PowerRails__EnergyData *e = pr->energy_data[i];
		uint32_t t = tt_keymap_get(&c->rails, pr->session_uuid, e->index, 0, 0);
		int64_t at = ts;

		if (e->has_timestamp_ms &&
		    tt_proto_clock_to_trace(c->clock, s->id, TT_CLOCK_BOOTTIME, (uint64_t)sat_mul((int64_t)e->timestamp_ms, 1000000), &at))
			continue;
		if (t == TT_KEYMAP_NONE) {
			stat(c, TT_STAT_power_rail_unknown_index);
			continue;
		}
		tt_storage_args_begin(c->st);
		tt_storage_args_uint(c->st, "packet_ts", (uint64_t)ts);
		tt_proto_push_rec(c, s, at, R_COUNTER, 0, t, 0, 0, tt_args_tracker_end(c->im->args), 0,
				  (double)e->energy);
	}
}
