/*
 * proto_sysstats.c - SysStats packets (the Linux probes' periodic reads
 * of /proc: meminfo, vmstat, stat, interrupts, pressure, thermal zones,
 * cpu and device frequencies) as trace processor's SystemProbesParser
 * makes them: one counter track per key, of its blueprint's type, name,
 * unit and dimensions, the values at the packet's time in trace order.
 * See import_proto.c for the importer as a whole.
 *
 * Read: meminfo (kB, stored as bytes), vmstat, cpu_stat (cpu.times.*),
 * num_irq / num_softirq per interrupt and their totals, num_forks, psi,
 * thermal_zone, devfreq and cpufreq_khz (the tracks ftrace's clock and
 * cpu frequency events use). Not read yet: buddy_info, disk_stat,
 * cpuidle_state, gpufreq_mhz, slab_info.
 */
#include "proto_int.h"

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
}
