/*
 * proto_io.c - storage and sensor ftrace events, as trace processor's
 * FtraceParser and IostatTracker turn them into counters and slices:
 *
 *   - ufshcd_command: the commands in the UFS queue ("io.ufs.command.count":
 *     the doorbell's bits set, else 1 while a command is sent and 0 when it
 *     completes) and each command as a slice named by its SCSI opcode (" (GID=0x..)"
 *     added for a group) on "io.ufs.command.tag[NNN]" of its tag, ended by
 *     its completion;
 *   - ufshcd_clk_gating: "io.ufs.clkgating (OFF:0/REQ_OFF/REQ_ON/ON:3)",
 *     the states renumbered OFF 0, REQ_OFF 1, REQ_ON 2, ON 3;
 *   - f2fs_iostat / f2fs_iostat_latency: one counter per figure,
 *     "f2fs_iostat.[major:minor].<figure>" (dimensions linux_device and
 *     counter_key), the figures named and ordered as there;
 *   - cros_ec_sensorhub_data: "cros_ec.cros_ec_sensorhub_data.<sensor>",
 *     the sample's delay (current_time - current_timestamp) with ec_num,
 *     ec_delta and sample_ts as args.
 */
#include "proto_int.h"

#include <stddef.h>
#include <stdio.h>

/* SCSI opcodes by number, as the kernel's ufs tracepoint (and trace
 * processor) name them. */
static const char *ufs_opcode(uint32_t op)
{
	static const struct { uint32_t op; const char *name; } k[] = {
		{ 4, "FORMAT UNIT" },	      { 18, "INQUIRY" },
		{ 85, "MODE SELECT (10)" },   { 90, "MODE SENSE (10)" },
		{ 52, "PRE-FETCH (10)" },     { 144, "PRE-FETCH (16)" },
		{ 8, "READ (6)" },	      { 40, "READ (10)" },
		{ 136, "READ (16)" },	      { 60, "READ BUFFER" },
		{ 37, "READ CAPACITY (10)" }, { 158, "READ CAPACITY (16)" },
		{ 160, "REPORT LUNS" },	      { 3, "REQUEST SENSE" },
		{ 162, "SECURITY PROTOCOL IN" }, { 181, "SECURITY PROTOCOL OUT" },
		{ 29, "SEND DIAGNOSTIC" },    { 27, "START STOP UNIT" },
		{ 53, "SYNCHRONIZE CACHE (10)" }, { 145, "SYNCHRONIZE CACHE (16)" },
		{ 0, "TEST UNIT READY" },     { 66, "UNMAP" },
		{ 47, "VERIFY" },	      { 10, "WRITE (6)" },
		{ 42, "WRITE (10)" },	      { 138, "WRITE (16)" },
		{ 59, "WRITE BUFFER" },
	};

	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		if (k[i].op == op)
			return k[i].name;
	return "UNDEFINED";
}

static void counter(pctx *c, pseq *ps, int64_t ts, uint32_t t, double v, uint32_t args)
{
	if (t != TT_NONE)
		tt_proto_push_rec(c, ps, ts, R_COUNTER, 0, t, 0, 0, args, 0, v);
}

static void on_ufs_command(pctx *c, pseq *ps, int64_t ts, const Perfetto__Protos__UfshcdCommandFtraceEvent *u)
{
	tt_track_desc d = { .type = "ufs_command_tag", .utid = TT_NONE, .upid = TT_NONE, .parent_id = TT_NONE,
			    .cpu = -1 };
	uint32_t queued = u->doorbell ? (uint32_t)__builtin_popcount(u->doorbell) : u->str_t == 1 ? 0 : 1;
	char name[64];
	uint32_t t;

	counter(c, ps, ts, tt_proto_global_track(c, "ufs_command_count", "io.ufs.command.count", 1), queued, TT_NONE);
	snprintf(name, sizeof(name), "io.ufs.command.tag[%03u]", u->tag);
	d.name = intern_c(c, name);
	t = tt_track_tracker_keyed(c->im->tracks, "ufs_command_tag", u->tag, 0, 0, &d);
	if (tt_proto_dims_begin(c, t)) {
		tt_storage_args_uint(c->st, "ufs_tag", u->tag);
		tt_proto_dims_end(c, t);
	}
	if (u->str_t == 0) { /* sent */
		if (u->group_id)
			snprintf(name, sizeof(name), "%s (GID=0x%x)", ufs_opcode(u->opcode), u->group_id);
		else
			snprintf(name, sizeof(name), "%s", ufs_opcode(u->opcode));
		tt_proto_push_rec(c, ps, ts, R_BEGIN, 0, t, intern_c(c, name), 0, TT_NONE, 0, 0);
	} else {
		tt_proto_push_rec(c, ps, ts, R_END, F_QUIET, t, 0, 0, TT_NONE, 0, 0);
	}
}

/* ---- f2fs --------------------------------------------------------------------- */

typedef struct figure {
	const char *name;
	size_t off;   /* of the value in the event's message */
	int wide;     /* uint64_t, else uint32_t */
} figure;

#define IO(n, f) { n, offsetof(Perfetto__Protos__F2fsIostatFtraceEvent, f), 1 }
static const figure k_iostat[] = {
	IO("write_app_total", app_wio),	  IO("write_app_direct", app_dio),   IO("write_app_buffered", app_bio),
	IO("write_app_mapped", app_mio),  IO("write_fs_data", fs_dio),	     IO("write_fs_node", fs_nio),
	IO("write_fs_meta", fs_mio),	  IO("write_gc_data", fs_gc_dio),    IO("write_gc_node", fs_gc_nio),
	IO("write_cp_data", fs_cp_dio),	  IO("write_cp_node", fs_cp_nio),    IO("write_cp_meta", fs_cp_mio),
	IO("read_app_total", app_rio),	  IO("read_app_direct", app_drio),   IO("read_app_buffered", app_brio),
	IO("read_app_mapped", app_mrio),  IO("read_fs_data", fs_drio),	     IO("read_fs_gdata", fs_gdrio),
	IO("read_fs_cdata", fs_cdrio),	  IO("read_fs_node", fs_nrio),	     IO("read_fs_meta", fs_mrio),
	IO("other_fs_discard", fs_discard),
};
#undef IO
#define LAT(n, f) { n, offsetof(Perfetto__Protos__F2fsIostatLatencyFtraceEvent, f), 0 }
static const figure k_latency[] = {
	LAT("read_data_peak", d_rd_peak),	  LAT("read_data_avg", d_rd_avg),
	LAT("read_data_cnt", d_rd_cnt),		  LAT("read_node_peak", n_rd_peak),
	LAT("read_node_avg", n_rd_avg),		  LAT("read_node_cnt", n_rd_cnt),
	LAT("read_meta_peak", m_rd_peak),	  LAT("read_meta_avg", m_rd_avg),
	LAT("read_meta_cnt", m_rd_cnt),		  LAT("write_sync_data_peak", d_wr_s_peak),
	LAT("write_sync_data_avg", d_wr_s_avg),	  LAT("write_sync_data_cnt", d_wr_s_cnt),
	LAT("write_sync_node_peak", n_wr_s_peak), LAT("write_sync_node_avg", n_wr_s_avg),
	LAT("write_sync_node_cnt", n_wr_s_cnt),	  LAT("write_sync_meta_peak", m_wr_s_peak),
	LAT("write_sync_meta_avg", m_wr_s_avg),	  LAT("write_sync_meta_cnt", m_wr_s_cnt),
	LAT("write_async_data_peak", d_wr_as_peak), LAT("write_async_data_avg", d_wr_as_avg),
	LAT("write_async_data_cnt", d_wr_as_cnt), LAT("write_async_node_peak", n_wr_as_peak),
	LAT("write_async_node_avg", n_wr_as_avg), LAT("write_async_node_cnt", n_wr_as_cnt),
	LAT("write_async_meta_peak", m_wr_as_peak), LAT("write_async_meta_avg", m_wr_as_avg),
	LAT("write_async_meta_cnt", m_wr_as_cnt),
};
#undef LAT

/* Every figure of msg as a counter of the device dev ("major:minor" from
 * its low 16 bits, as there). */
static void on_f2fs(pctx *c, pseq *ps, int64_t ts, const char *type, uint64_t dev, const void *msg,
		    const figure *f, size_t n)
{
	char device[32], name[160];

	snprintf(device, sizeof(device), "%u:%u", (unsigned)((dev & 0xff00) >> 8), (unsigned)(dev & 0xff));
	for (size_t i = 0; i < n; i++) {
		const char *p = (const char *)msg + f[i].off;
		uint64_t v = f[i].wide ? *(const uint64_t *)(const void *)p : *(const uint32_t *)(const void *)p;
		tt_track_desc d = { .type = type, .utid = TT_NONE, .upid = TT_NONE, .parent_id = TT_NONE, .cpu = -1,
				    .is_counter = 1 };
		uint32_t t;

		snprintf(name, sizeof(name), "%s.[%s].%s", type, device, f[i].name);
		d.name = intern_c(c, name);
		t = tt_track_tracker_keyed(c->im->tracks, type, dev & 0xffff, i, 0, &d);
		if (tt_proto_dims_begin(c, t)) {
			tt_storage_args_str(c->st, "linux_device", device, strlen(device));
			tt_storage_args_str(c->st, "counter_key", f[i].name, strlen(f[i].name));
			tt_proto_dims_end(c, t);
		}
		counter(c, ps, ts, t, (double)v, TT_NONE);
	}
}

int tt_proto_on_io_event(pctx *c, pseq *ps, int64_t ts, const Perfetto__Protos__FtraceEvent *e)
{
	switch (e->event_case) {
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_UFSHCD_COMMAND:
		on_ufs_command(c, ps, ts, e->ufshcd_command);
		return 1;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_UFSHCD_CLK_GATING: {
		/* ON 1 -> 3, REQ_OFF 2 -> 1, REQ_ON 3 -> 2, OFF (0) stays */
		static const int k_state[4] = { 0, 3, 1, 2 };
		int32_t s = e->ufshcd_clk_gating->state;

		counter(c, ps, ts, tt_proto_global_track(c, "ufs_clkgating", "io.ufs.clkgating (OFF:0/REQ_OFF/REQ_ON/ON:3)", 1),
			s >= 0 && s <= 3 ? k_state[s] : 0, TT_NONE);
		return 1;
	}
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_F2FS_IOSTAT:
		on_f2fs(c, ps, ts, "f2fs_iostat", e->f2fs_iostat->dev, e->f2fs_iostat, k_iostat,
			sizeof(k_iostat) / sizeof(k_iostat[0]));
		return 1;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_F2FS_IOSTAT_LATENCY:
		on_f2fs(c, ps, ts, "f2fs_iostat_latency", e->f2fs_iostat_latency->dev, e->f2fs_iostat_latency,
			k_latency, sizeof(k_latency) / sizeof(k_latency[0]));
		return 1;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CROS_EC_SENSORHUB_DATA: {
		const Perfetto__Protos__CrosEcSensorhubDataFtraceEvent *s = e->cros_ec_sensorhub_data;
		tt_track_desc d = { .type = "cros_ec_sensorhub_data", .utid = TT_NONE, .upid = TT_NONE,
				    .parent_id = TT_NONE, .cpu = -1, .is_counter = 1 };
		char name[64];
		uint32_t t, args;

		snprintf(name, sizeof(name), "cros_ec.cros_ec_sensorhub_data.%u", s->ec_sensor_num);
		d.name = intern_c(c, name);
		t = tt_track_tracker_keyed(c->im->tracks, "cros_ec_sensorhub_data", s->ec_sensor_num, 0, 0, &d);
		if (tt_proto_dims_begin(c, t)) {
			tt_storage_args_uint(c->st, "ec_sensor_num", s->ec_sensor_num);
			tt_proto_dims_end(c, t);
		}
		tt_storage_args_begin(c->st);
		tt_storage_args_int(c->st, "ec_num", s->ec_sensor_num);
		tt_storage_args_int(c->st, "ec_delta", (int64_t)((uint64_t)s->fifo_timestamp - (uint64_t)s->current_timestamp));
		tt_storage_args_int(c->st, "sample_ts", s->current_timestamp);
		args = tt_args_tracker_end(c->im->args);
		counter(c, ps, ts, t, (double)(int64_t)((uint64_t)s->current_time - (uint64_t)s->current_timestamp), args);
		return 1;
	}
	default:
		return 0;
	}
}
