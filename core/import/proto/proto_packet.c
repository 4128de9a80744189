/*
 * proto_packet.c - one TracePacket of a Perfetto trace (see import_proto.c
 * for the importer as a whole): its sequence's incremental state (clears,
 * interned data, defaults, skipped packets), its timestamp converted to
 * the trace clock, then its payload handed to the module that reads it
 * (descriptors, ftrace, track events, the tracing service, system and
 * Android data sources, ...). compressed_packets and
 * zstd_compressed_packets are inflated and framed here, one inner packet at
 * a time.
 */
#include "proto_int.h"
#include <math.h>
#include <stddef.h>
#include "proto_inflate.h"

/* ---- packets ----------------------------------------------------------------- */

static int frame_mem(pctx *c, const unsigned char *p, size_t len, int depth);

/* compressed_packets (zstd: zstd_compressed_packets): the packets in it,
 * framed and handled as the file's own; not inside another one. */
static void on_compressed(pctx *c, const ProtobufCBinaryData *d, int zstd, int depth)
{
	long n;

	if (depth > 0) {
		stat(c, TT_STAT_proto_compressed_bad);
		return;
	}
	n = tt_proto_inflate(zstd, d->data, d->len, &c->zbuf, &c->zcap, MAX_INFLATED);
	if (n < 0 || frame_mem(c, c->zbuf, (size_t)n, depth + 1))
		stat(c, TT_STAT_proto_compressed_bad);
}

/* Android's SDK level of a release ("12", "8.1", "S..."), as trace
 * processor maps it; -1 when unknown. */
static int64_t sdk_of_release(const char *v, size_t n)
{
	static const struct { const char *rel; int sdk; } map[] = {
		{ "12", 31 }, { "11", 30 }, { "10", 29 }, { "9", 28 }, { "8.1", 27 }, { "8.0", 26 },
		{ "7.1", 25 }, { "7.0", 24 }, { "6.0", 23 }, { "5.1", 22 }, { "5.1.1", 22 },
		{ "5.0", 21 }, { "5.0.1", 21 }, { "5.0.2", 21 },
	};

	if (n && (v[0] == 'T' || v[0] == 'S'))
		return 31;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strlen(map[i].rel) == n && memcmp(map[i].rel, v, n) == 0)
			return map[i].sdk;
	return -1;
}

/* A SystemInfo string field and its metadata key. */
struct si_key {
	const char *key;
	size_t off;
};

#define SI_KEY(f) { #f, offsetof(Perfetto__Protos__SystemInfo, f) }

static void si_strs(pctx *c, const Perfetto__Protos__SystemInfo *si, const struct si_key *k, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *v = *(char *const *)(const void *)((const char *)si + k[i].off);

		if (v)
			tt_storage_meta_str(c->st, k[i].key, v);
	}
}

/* SystemInfo's metadata rows, in the order trace processor's
 * SystemProbesParser writes them (the utsname's: tt_proto_on_system_info).
 * A build fingerprint BRAND/PRODUCT/DEVICE:RELEASE/ID/INCREMENTAL:TYPE/TAGS
 * gives the incremental build and, without android_sdk_version, the SDK
 * level. */
static void system_info_meta(pctx *c, const Perfetto__Protos__SystemInfo *si)
{
	static const struct si_key first[] = { SI_KEY(android_device_manufacturer) };
	static const struct si_key then[] = {
		SI_KEY(tracing_service_version), SI_KEY(android_soc_model), SI_KEY(android_guest_soc_model),
		SI_KEY(android_hardware_revision), SI_KEY(android_storage_model), SI_KEY(android_ram_model),
		SI_KEY(android_serial_console),
	};
	int64_t sdk = si->has_android_sdk_version ? (int64_t)si->android_sdk_version : -1;
	const char *fp = si->android_build_fingerprint;

	if (si->has_timezone_off_mins)
		tt_storage_meta_int(c->st, "timezone_off_mins", si->timezone_off_mins);
	if (fp) {
		const char *colon = strchr(fp, ':'), *rel_slash, *id_slash, *inc_colon;

		tt_storage_meta_str(c->st, "android_build_fingerprint", fp);
		if (colon && (rel_slash = strchr(colon, '/')) && (id_slash = strchr(rel_slash + 1, '/')) &&
		    (inc_colon = strchr(id_slash, ':'))) {
			char inc[256];

			snprintf(inc, sizeof(inc), "%.*s", (int)(inc_colon - id_slash - 1), id_slash + 1);
			tt_storage_meta_str(c->st, "android_incremental_build", inc);
			if (sdk < 0)
				sdk = sdk_of_release(colon + 1, (size_t)(rel_slash - colon - 1));
		}
	}
	si_strs(c, si, first, sizeof(first) / sizeof(first[0]));
	if (sdk >= 0)
		tt_storage_meta_int(c->st, "android_sdk_version", sdk);
	si_strs(c, si, then, sizeof(then) / sizeof(then[0]));
	if (si->has_system_ram_bytes) {
		tt_storage_meta_int(c->st, "system_ram_bytes", (int64_t)si->system_ram_bytes);
		/* in GB, rounded (trace processor's MachineTracker::BytesToGB) */
		tt_storage_meta_int(c->st, "system_ram_gb", (int64_t)llround((double)si->system_ram_bytes / 1e9));
	}
}

/* The clock_snapshot rows of a snapshot that links to the trace clock:
 * each clock at the snapshot's instant, its value in ns (trace
 * processor's ClockTracker::AddSnapshotToTable; an incremental clock's
 * value is the snapshot's, its base). */
static void store_snapshot(pctx *c, const tt_proto_clock_value *v, size_t n, uint32_t snap, int64_t at)
{
	static const char *const builtin[] = { NULL, "REALTIME", "REALTIME_COARSE", "MONOTONIC",
					       "MONOTONIC_COARSE", "MONOTONIC_RAW", "BOOTTIME" };

	for (size_t i = 0; i < n; i++) {
		const char *name = v[i].id < sizeof(builtin) / sizeof(builtin[0]) ? builtin[v[i].id] : NULL;
		uint64_t mult = v[i].mult ? v[i].mult : 1;

		if (tt_storage_clock_snapshot(c->st, at, v[i].id, (int64_t)(v[i].ts * mult),
					      name ? intern(c, name, strlen(name)) : 0, snap) < 0)
			c->oom = 1;
	}
}

/* Handles one unpacked packet (NULL: protobuf-c rejected it). depth is 1
 * inside compressed_packets. Returns 0, or -1 for a rejected packet. */
int tt_proto_on_packet(pctx *c, const Pkt *p, const tt_proto_item *it, int depth)
{
	pseq *s;
	int64_t ts;
	uint32_t clock_id;
	int cleared;

	/* debug annotations protobuf-c rejects reject their packet, as
	 * they would unpacked with it (proto_read.h: they come packed) */
	if (!p || tt_proto_annots_check(c, p, it)) {
		stat(c, TT_STAT_proto_packet_bad);
		return -1;
	}
	c->packets_ok++;
	if (p->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_COMPRESSED_PACKETS ||
	    p->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_ZSTD_COMPRESSED_PACKETS) {
		/* zbuf is reused by the inner packets: inflate from where the
		 * outer packet was unpacked */
		on_compressed(c, p->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_ZSTD_COMPRESSED_PACKETS ?
				 &p->zstd_compressed_packets : &p->compressed_packets,
			      p->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_ZSTD_COMPRESSED_PACKETS, depth);
		return 0;
	}
	if (p->has_machine_id && p->machine_id) {
		if (c->remote_packets++ && p->machine_id != c->machine_raw)
			c->machines_mixed = 1;
		c->machine_raw = p->machine_id;
	} else {
		c->host_packets++;
	}
	s = tt_proto_get_seq(c, p->trusted_packet_sequence_id);
	if (!s)
		return 0;
	/* (trace processor counts a sequence's losses from its second packet) */
	if (s->seen && p->has_trusted_packet_sequence_id && p->previous_packet_dropped)
		tt_proto_seq_losses(s, p->previous_packet_dropped);
	s->seen = 1;
	if (p->has_first_packet_on_sequence && p->first_packet_on_sequence)
		s->first_packet = 1;
	cleared = (p->has_sequence_flags && (p->sequence_flags & 1)) ||
		  (p->has_incremental_state_cleared && p->incremental_state_cleared);
	if (cleared) {
		tt_proto_seq_clear(s);
		tt_proto_cpu_uid_cleared(c, s->id);
		tt_proto_gpu_cleared(c, s->id);
		s->valid = 1;
	} else if (p->has_previous_packet_dropped && p->previous_packet_dropped &&
		   !(p->has_first_packet_on_sequence && p->first_packet_on_sequence)) {
		s->valid = 0;
		stat(c, TT_STAT_proto_packet_dropped);
	}
	if (p->has_sequence_flags && (p->sequence_flags & 2)) {
		s->incr_total++;
		if (!s->valid) {
			s->incr_skipped++;
			stat(c, TT_STAT_proto_skipped_incremental);
			return 0;
		}
	}
	if (p->trace_packet_defaults) {
		const Perfetto__Protos__TracePacketDefaults *d = p->trace_packet_defaults;
		s->has_def_clock = d->has_timestamp_clock_id;
		s->def_clock = d->timestamp_clock_id;
		s->has_def_track = 0;
		s->def_extra.n = s->def_extra_dbl.n = 0;
		if (d->track_event_defaults) {
			const Perfetto__Protos__TrackEventDefaults *td = d->track_event_defaults;
			size_t i;
			s->has_def_track = td->has_track_uuid;
			s->def_track = td->track_uuid;
			for (i = 0; i < td->n_extra_counter_track_uuids; i++)
				if (TT_VEC_PUSH(s->def_extra, td->extra_counter_track_uuids[i]))
					c->oom = 1;
			for (i = 0; i < td->n_extra_double_counter_track_uuids; i++)
				if (TT_VEC_PUSH(s->def_extra_dbl, td->extra_double_counter_track_uuids[i]))
					c->oom = 1;
		}
	}
	if (p->interned_data) {
		const Perfetto__Protos__InternedData *in = p->interned_data;
		size_t i;
		for (i = 0; i < in->n_event_names; i++)
			if (tt_proto_itab_put(&s->names, in->event_names[i]->iid, intern_c(c, in->event_names[i]->name)))
				c->oom = 1;
		for (i = 0; i < in->n_event_categories; i++)
			if (tt_proto_itab_put(&s->cats, in->event_categories[i]->iid,
				     intern_c(c, in->event_categories[i]->name)))
				c->oom = 1;
		for (i = 0; i < in->n_debug_annotation_names; i++) {
			tt_str old;
			/* a name given again may differ: annotations seen
			 * before may mean other args now (proto_args.c) */
			if (tt_proto_itab_find(&s->dnames, in->debug_annotation_names[i]->iid, &old))
				s->agen++;
			if (tt_proto_itab_put(&s->dnames, in->debug_annotation_names[i]->iid,
				     intern_c(c, in->debug_annotation_names[i]->name)))
				c->oom = 1;
		}
		for (i = 0; i < in->n_debug_annotation_string_values; i++) {
			const Perfetto__Protos__InternedString *is = in->debug_annotation_string_values[i];
			tt_str v = is->has_str ? intern(c, (const char *)is->str.data, is->str.len) : 0, old;
			if (tt_proto_itab_find(&s->dstrs, is->iid, &old))
				s->agen++;
			if (is->has_str && !v)
				v = intern(c, "", 0);
			if (v && is->has_str && memchr(is->str.data, 0, is->str.len) &&
			    tt_pmap_put(&c->nul_strs, v, 1))
				c->oom = 1;
			if (tt_proto_itab_put(&s->dstrs, is->iid, v))
				c->oom = 1;
		}
		for (i = 0; i < in->n_histogram_names; i++)
			if (tt_proto_itab_put(&s->hnames, in->histogram_names[i]->iid,
					      intern_c(c, in->histogram_names[i]->name ? in->histogram_names[i]->name : "")))
				c->oom = 1;
		for (i = 0; i < in->n_log_message_body; i++)
			if (tt_proto_itab_put(&s->lbodies, in->log_message_body[i]->iid,
					      intern_c(c, in->log_message_body[i]->body ? in->log_message_body[i]->body : "")))
				c->oom = 1;
		tt_proto_on_interned_callstacks(c, s, in);
		tt_proto_on_interned_srclocs(c, s, in);
		tt_proto_on_interned_ksyms(c, s, in);
		tt_proto_on_interned_gpu(c, s, in);
	}

	/* Every packet but clock snapshots converts its timestamp, so that
	 * deltas on an incremental clock advance its base as in Perfetto. */
	if (p->data_case != PERFETTO__PROTOS__TRACE_PACKET__DATA_CLOCK_SNAPSHOT) {
		clock_id = p->has_timestamp_clock_id ? p->timestamp_clock_id :
			   s->has_def_clock ? s->def_clock : tt_proto_clock_primary(c->clock);
		if (p->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_SERVICE_EVENT) {
			/* trace processor: the service stamps its events with
			 * BOOTTIME whatever the trace clock; converted with
			 * errors suppressed, else the raw value kept (and not
			 * the time of the packets without one after it) */
			clock_id = p->has_timestamp_clock_id ? p->timestamp_clock_id : 6;
			if (tt_proto_clock_to_trace(c->clock, s->id, clock_id, p->timestamp, &ts))
				ts = (int64_t)p->timestamp;
		} else if (p->has_timestamp) {
			ts = to_trace(c, s->id, clock_id, p->timestamp);
			c->last_ts = ts;
			c->have_ts = 1;
		} else {
			ts = c->have_ts ? c->last_ts : 0;
		}
	} else {
		ts = 0;
	}

	if (p->data_case != PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT)
		c->content_other = 1;
	switch (p->data_case) {
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_CLOCK_SNAPSHOT: {
		const Perfetto__Protos__ClockSnapshot *cs = p->clock_snapshot;
		tt_proto_clock_value v[32];
		size_t i, n = cs->n_clocks < 32 ? cs->n_clocks : 32;
		uint32_t snap;
		int64_t at;
		for (i = 0; i < n; i++) {
			v[i].id = cs->clocks[i]->clock_id;
			v[i].ts = cs->clocks[i]->timestamp;
			v[i].is_incremental = cs->clocks[i]->is_incremental;
			v[i].mult = cs->clocks[i]->unit_multiplier_ns;
		}
		switch (tt_proto_clock_snapshot(c->clock, s->id, v, n, cs->has_primary_trace_clock,
						(uint32_t)cs->primary_trace_clock, &snap, &at)) {
		case 1:
			store_snapshot(c, v, n, snap, at);
			break;
		case -1:
			c->oom = 1;
			break;
		}
		return 0;
	}
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR:
		tt_proto_on_track_descriptor(c, s, p->track_descriptor);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_THREAD_DESCRIPTOR:
		tt_proto_on_thread_descriptor(c, s, p->thread_descriptor);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_PROCESS_DESCRIPTOR: {
		const Perfetto__Protos__ProcessDescriptor *pd = p->process_descriptor;
		tt_proto_on_process_descriptor(c, tt_process_tracker_process(c->im->procs, pd->pid), pd, NULL);
		return 0;
	}
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_PROCESS_TREE:
		tt_proto_defer(c, s, ts, FT_PTREE, &p->process_tree->base);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_GENERIC_KERNEL_TASK_STATE_EVENT:
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_GENERIC_KERNEL_TASK_RENAME_EVENT:
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_GENERIC_KERNEL_PROCESS_TREE:
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_GENERIC_KERNEL_CPU_FREQ_EVENT:
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_GENERIC_GPU_FREQUENCY_EVENT:
		tt_proto_on_generic_kernel(c, s, p, ts);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS:
		tt_proto_on_ftrace(c, s, p->ftrace_events);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_EXTENSION_DESCRIPTOR:
		tt_proto_on_extension_descriptor(c, p->extension_descriptor);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_SYSTEM_INFO:
		tt_proto_on_system_info(c, p->system_info);
		system_info_meta(c, p->system_info);
		tt_proto_on_system_version(c, p->system_info->tracing_service_version);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACE_UUID:
		tt_proto_set_uuid(c, p->trace_uuid->msb, p->trace_uuid->lsb, 1);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACE_CONFIG:
		tt_proto_on_trace_config(c, &p->trace_config);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACE_ATTRIBUTES:
		tt_proto_on_trace_attributes(c, p->trace_attributes);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRIGGER:
		tt_proto_on_trigger(c, s, ts, p->trigger, 0);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_CLONE_SNAPSHOT_TRIGGER:
		tt_proto_on_trigger(c, s, ts, p->clone_snapshot_trigger, 1);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_CHROME_TRIGGER:
		tt_proto_on_chrome_trigger(c, s, ts, p->chrome_trigger);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_CONCURRENT_SESSION_EVENT:
		tt_proto_on_session_event(c, s, ts, p->concurrent_session_event);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_STATS:
		tt_proto_on_ftrace_stats(c, p->ftrace_stats);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACE_STATS:
		tt_proto_on_trace_stats(c, p->trace_stats);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_ANDROID_LOG:
		tt_proto_on_android_log(c, s, p->android_log);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_CHROME_EVENTS:
		tt_proto_on_chrome_events(c, p->chrome_events);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_CHROME_METADATA:
		tt_proto_on_chrome_metadata(c, p->chrome_metadata);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_CHROME_BENCHMARK_METADATA:
		tt_proto_on_benchmark_metadata(c, p->chrome_benchmark_metadata);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_SYNCHRONIZATION_MARKER:
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACE_PROVENANCE:
		return 0; /* (read, not kept: trace processor keeps neither) */
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_STREAMING_PROFILE_PACKET:
		tt_proto_on_streaming_profile(c, s, p->streaming_profile_packet);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT_RANGE_OF_INTEREST:
		/* Chrome: track events before start_us are incomplete (a ring
		 * buffer's oldest part); trace processor drops them when told
		 * to, as Perfetto's UI does: so do we (feed drops them) */
		if (p->track_event_range_of_interest->has_start_us) {
			c->has_roi = 1;
			c->roi_ns = sat_mul(p->track_event_range_of_interest->start_us, 1000);
			tt_storage_meta_int(c->st, "range_of_interest_start_us",
					    p->track_event_range_of_interest->start_us);
		}
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_SERVICE_EVENT:
		tt_proto_on_service_event(c, p->service_event, ts);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_SYS_STATS:
		tt_proto_on_sys_stats(c, s, p->sys_stats, ts);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_PACKAGES_LIST:
		tt_proto_on_packages(c, p->packages_list);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_BATTERY:
		tt_proto_on_battery(c, s, p->battery, ts);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_POWER_RAILS:
		tt_proto_on_power_rails(c, s, p->power_rails, ts);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRANSLATION_TABLE:
		tt_proto_on_translation_table(c, p->translation_table);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_CPU_INFO:
		tt_proto_on_cpu_info(c, p->cpu_info);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_ANDROID_SYSTEM_PROPERTY:
		tt_proto_on_system_property(c, s, p->android_system_property, ts);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_INITIAL_DISPLAY_STATE:
		tt_proto_on_initial_display_state(c, s, p->initial_display_state, ts);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_ANDROID_ENERGY_ESTIMATION_BREAKDOWN:
		tt_proto_on_energy_breakdown(c, s, p->android_energy_estimation_breakdown, ts);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_ENTITY_STATE_RESIDENCY:
		tt_proto_on_entity_state(c, s, p->entity_state_residency, ts);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_CPU_PER_UID_DATA:
		tt_proto_on_cpu_per_uid(c, s, p->cpu_per_uid_data, ts);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_ANDROID_AFLAGS:
		tt_proto_on_aflags(c, p->android_aflags, ts);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_ANDROID_GAME_INTERVENTION_LIST:
		tt_proto_on_game_list(c, p->android_game_intervention_list);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_USER_LIST:
		tt_proto_on_user_list(c, p->user_list);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_GPU_COUNTER_EVENT:
		tt_proto_on_gpu_counters(c, s, p, ts);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_GPU_RENDER_STAGE_EVENT:
		tt_proto_on_gpu_render_stage(c, s, p->gpu_render_stage_event, ts);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_GPU_INFO:
		tt_proto_on_gpu_info(c, p->gpu_info);
		return 0;
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT:
	case PERFETTO__PROTOS__TRACE_PACKET__DATA_PROCESS_STATS:
		break;
	default:
		if (p->base.n_unknown_fields) {
			char what[48];

			snprintf(what, sizeof(what), "TracePacket field %u", p->base.unknown_fields[0].tag);
			tt_storage_stat_named(c->st, TT_STAT_proto_unknown_field, what, 1);
		}
		return 0;
	}

	/* payloads that need the packet's timestamp (converted above) */
	if (p->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT) {
		c->in_track_event = 1;
		tt_proto_on_track_event(c, s, p, p->track_event, ts);
		tt_proto_fold_flush(c, s); /* its event was dropped or took none */
		c->in_track_event = 0;
	} else
		tt_proto_on_process_stats(c, s, p->process_stats, ts);
	return 0;
}

/* Frames packets inside an inflated compressed_packets blob. */
static int frame_mem(pctx *c, const unsigned char *p, size_t len, int depth)
{
	const unsigned char *e = p + len;

	while (p < e) {
		uint64_t tag, n;
		int k = tt_proto_varint(p, e, &tag), k2;

		if (k <= 0 || (tag & 7) != 2)
			return -1;
		k2 = tt_proto_varint(p + k, e, &n);
		if (k2 <= 0 || n > (uint64_t)(e - p - k - k2))
			return -1;
		if (tag >> 3 == 1) {
			/* one at a time: the arena holds a single packet */
			tt_proto_item it = { .len = (size_t)n };

			tt_proto_arena_reset(&c->ar);
			it.pkt = tt_proto_unpack(c->schema, &c->ar, NULL, p + k + k2, (size_t)n);
			tt_proto_on_packet(c, it.pkt, &it, depth);
		}
		p += k + k2 + n;
	}
	return 0;
}

