/*
 * proto_service.c - the tracing service's own packets and the trace
 * config, as trace processor stores them (see import_proto.c for the
 * importer as a whole; TraceStats are proto_meta.c's):
 *   - TraceConfig: metadata trace_uuid (unless a TraceUuid packet gave
 *     it), unique_session_name, trace_config_pbtxt (the config as text,
 *     proto_text.c), its trace_attributes; with write_into_file, the
 *     DISCARD buffers (config_write_into_file_discard) and, at the end,
 *     the bytes each buffer overwrote (long_trace_mode_bytes_overwritten,
 *     unless file_write_period_ms is a day or more: a ring buffer then)
 *     and config_write_into_file_no_flush (no flush_period_ms, service
 *     older than v54 or unknown). The last config counts.
 *   - TraceAttributes packets: metadata trace_attribute.<key>, the last
 *     value of a key winning (config's and packets' alike, file order).
 *   - TracingServiceEvent: metadata tracing_started_ns,
 *     tracing_disabled_ns, all_data_source_started_ns,
 *     all_data_source_flushed_ns (one each), slow_start_data_source
 *     ("producer data_source" each), the clone stats. Its timestamp is
 *     BOOTTIME unless the packet names a clock (the service stamps it so),
 *     converted to trace time when it can be, else kept as it is.
 *   - Trigger / clone_snapshot_trigger / ChromeTrigger: zero-length
 *     slices on the global "Trace Triggers" track, in timestamp order;
 *     metadata trace_trigger is the first trace trigger's name, or the
 *     first clone snapshot trigger's whenever there is one; a Chrome
 *     trigger ends its flow and adds cr-triggered_rule_name_hash.
 *   - ConcurrentSessionEvent: a state track per session (its name, else
 *     "Session <id>"; " (clone)" for a clone), the state's name as value
 *     with consumer_uid and num_data_sources; DISABLED a zero-length
 *     marker; an unknown state concurrent_session_event_unknown_state.
 *   - FtraceStats: zero-data-length ABI errors counted (other ABI errors
 *     make trace processor refuse the trace; we import it all the same).
 *   - AndroidAflags: its error as android_aflags_errors with the message.
 */
#include "proto_int.h"
#include "proto_text.h"

#include <stdio.h>

#define TRIG_TRACE 1
#define TRIG_CLONE 2
#define TRIG_CHROME 3

void tt_proto_set_uuid(pctx *c, int64_t msb, int64_t lsb, int from_packet)
{
	if ((!msb && !lsb) || (c->uuid_found && !from_packet))
		return;
	tt_import_set_uuid(c->im, (uint64_t)msb, (uint64_t)lsb);
	c->uuid_found = 1;
}

void tt_proto_on_trace_attributes(pctx *c, const Perfetto__Protos__TraceAttributes *a)
{
	char key[300];

	for (size_t i = 0; i < a->n_attribute; i++) {
		const Perfetto__Protos__TraceAttributes__Attribute *at = a->attribute[i];

		snprintf(key, sizeof(key), "trace_attribute.%s", at->key ? at->key : "");
		if (at->value_case == PERFETTO__PROTOS__TRACE_ATTRIBUTES__ATTRIBUTE__VALUE_LONG_VALUE)
			tt_storage_meta_int(c->st, key, at->long_value);
		else if (at->value_case == PERFETTO__PROTOS__TRACE_ATTRIBUTES__ATTRIBUTE__VALUE_STRING_VALUE)
			tt_storage_meta_str(c->st, key, at->string_value);
	}
}

void tt_proto_on_trace_config(pctx *c, const ProtobufCBinaryData *raw)
{
	Perfetto__Protos__TraceConfig *tc;
	char *text = tt_proto_text(&perfetto__protos__trace_config__descriptor, raw->data, raw->len);

	/* the text even of a config cut short, as trace processor's (the
	 * bytes it cannot read at its end); nothing else of it, where trace
	 * processor reads the fields before the cut */
	if (text)
		tt_storage_meta_str(c->st, "trace_config_pbtxt", text);
	else
		c->oom = 1;
	free(text);
	tc = perfetto__protos__trace_config__unpack(NULL, raw->len, raw->data);
	if (!tc)
		return;
	tt_proto_set_uuid(c, tc->trace_uuid_msb, tc->trace_uuid_lsb, 0);
	if (tc->unique_session_name)
		tt_storage_meta_str(c->st, "unique_session_name", tc->unique_session_name);
	c->cfg_seen = 1;
	c->cfg_write_into_file = tc->write_into_file;
	c->cfg_file_write_period_ms = tc->file_write_period_ms;
	c->cfg_flush_period_ms = tc->flush_period_ms;
	c->cfg_buffers = tc->n_buffers;
	if (tc->write_into_file)
		for (size_t i = 0; i < tc->n_buffers && i < INT32_MAX; i++)
			if (tc->buffers[i]->fill_policy ==
			    PERFETTO__PROTOS__TRACE_CONFIG__BUFFER_CONFIG__FILL_POLICY__DISCARD)
				tt_proto_stat_add_indexed(c, TT_STAT_config_write_into_file_discard, (int32_t)i, 1);
	if (tc->trace_attributes)
		tt_proto_on_trace_attributes(c, tc->trace_attributes);
	perfetto__protos__trace_config__free_unpacked(tc, NULL);
}

/* An indexed stat's value (0: no row). */
static int64_t stat_indexed(pctx *c, tt_stat s, int32_t idx)
{
	size_t n = tt_storage_stat_indexed_count(c->st);

	for (size_t r = 0; r < n; r++) {
		int32_t i;
		int64_t v;

		if (tt_storage_stat_indexed_row(c->st, r, &i, &v) == s && i == idx)
			return v;
	}
	return 0;
}

void tt_proto_stat_add_indexed(pctx *c, tt_stat s, int32_t idx, int64_t n)
{
	tt_storage_stat_set_indexed(c->st, s, idx, stat_indexed(c, s, idx) + n);
}

void tt_proto_service_end(pctx *c)
{
	if (!c->cfg_seen || !c->cfg_write_into_file)
		return;
	/* a period of a day or more asks for a ring buffer (Traceur's
	 * detached mode), as the tracing service's is_long_trace */
	if (c->cfg_file_write_period_ms < 24u * 60 * 60 * 1000)
		for (size_t i = 0; i < c->cfg_buffers && i < INT32_MAX; i++) {
			int64_t v = stat_indexed(c, TT_STAT_traced_buf_bytes_overwritten, (int32_t)i);

			if (v > 0)
				tt_storage_stat_set_indexed(c->st, TT_STAT_long_trace_mode_bytes_overwritten,
							    (int32_t)i, v);
		}
	/* since v54 the service flushes at every write into the file */
	if (!c->cfg_flush_period_ms && (!c->service_major || c->service_major < 54))
		stat(c, TT_STAT_config_write_into_file_no_flush);
}

void tt_proto_on_system_version(pctx *c, const char *v)
{
	static const char pre[] = "Perfetto v";
	unsigned long major = 0;
	const char *p;

	c->service_major = 0;
	if (!v || strncmp(v, pre, sizeof(pre) - 1) != 0)
		return;
	for (p = v + sizeof(pre) - 1; *p >= '0' && *p <= '9' && major < 100000000; p++)
		major = major * 10 + (unsigned long)(*p - '0');
	/* "Perfetto vNN.M..." or "vNN-...": a number, then '.' or '-' */
	if (p > v + sizeof(pre) - 1 && (*p == '.' || *p == '-'))
		c->service_major = (uint32_t)major;
}

void tt_proto_on_service_event(pctx *c, const Perfetto__Protos__TracingServiceEvent *se, int64_t ts)
{
	switch (se->event_type_case) {
	case PERFETTO__PROTOS__TRACING_SERVICE_EVENT__EVENT_TYPE_TRACING_STARTED:
		if (se->tracing_started)
			tt_storage_meta_int(c->st, "tracing_started_ns", ts);
		break;
	case PERFETTO__PROTOS__TRACING_SERVICE_EVENT__EVENT_TYPE_TRACING_DISABLED:
		if (se->tracing_disabled)
			tt_storage_meta_int(c->st, "tracing_disabled_ns", ts);
		break;
	case PERFETTO__PROTOS__TRACING_SERVICE_EVENT__EVENT_TYPE_ALL_DATA_SOURCES_STARTED:
		if (se->all_data_sources_started)
			tt_storage_meta_int(c->st, "all_data_source_started_ns", ts);
		break;
	case PERFETTO__PROTOS__TRACING_SERVICE_EVENT__EVENT_TYPE_ALL_DATA_SOURCES_FLUSHED:
		/* also where trace processor's sorter gives out what it holds */
		if (se->all_data_sources_flushed) {
			tt_storage_meta_append_int(c->st, "all_data_source_flushed_ns", ts);
			c->flushes++;
		}
		break;
	case PERFETTO__PROTOS__TRACING_SERVICE_EVENT__EVENT_TYPE_READ_TRACING_BUFFERS_COMPLETED:
		if (se->read_tracing_buffers_completed && tt_proto_read_buffers(c))
			c->oom = 1;
		break;
	case PERFETTO__PROTOS__TRACING_SERVICE_EVENT__EVENT_TYPE_SLOW_STARTING_DATA_SOURCES: {
		const Perfetto__Protos__TracingServiceEvent__DataSources *ds = se->slow_starting_data_sources;
		char buf[512];

		for (size_t i = 0; i < ds->n_data_source; i++) {
			const Perfetto__Protos__TracingServiceEvent__DataSources__DataSource *d = ds->data_source[i];

			snprintf(buf, sizeof(buf), "%s %s", d->producer_name ? d->producer_name : "",
				 d->data_source_name ? d->data_source_name : "");
			tt_storage_meta_append_str(c->st, "slow_start_data_source", buf);
		}
		break;
	}
	case PERFETTO__PROTOS__TRACING_SERVICE_EVENT__EVENT_TYPE_CLONE_STARTED:
		tt_storage_stat_set(c->st, TT_STAT_traced_clone_started_timestamp_ns, ts);
		break;
	case PERFETTO__PROTOS__TRACING_SERVICE_EVENT__EVENT_TYPE_BUFFER_CLONED:
		if (se->buffer_cloned <= INT32_MAX)
			tt_storage_stat_set_indexed(c->st, TT_STAT_traced_buf_clone_done_timestamp_ns,
						    (int32_t)se->buffer_cloned, ts);
		break;
	default:
		break;
	}
}

/* ---- triggers ----------------------------------------------------------------- */

void tt_proto_on_trigger(pctx *c, pseq *s, int64_t ts, const Perfetto__Protos__Trigger *t, int clone)
{
	uint32_t args = TT_NONE;

	if (t->producer_name || t->has_trusted_producer_uid) {
		tt_storage_args_begin(c->st);
		if (t->producer_name && t->producer_name[0])
			tt_storage_args_str(c->st, "producer_name", t->producer_name, strlen(t->producer_name));
		if (t->has_trusted_producer_uid)
			tt_storage_args_int(c->st, "trusted_producer_uid", t->trusted_producer_uid);
		args = tt_args_tracker_end(c->im->args);
	}
	tt_proto_push_ft(c, s, ts, FT_TRIGGER, 0, clone ? TRIG_CLONE : TRIG_TRACE, intern_c(c, t->trigger_name), 0,
			 args);
}

void tt_proto_on_chrome_trigger(pctx *c, pseq *s, int64_t ts, const Perfetto__Protos__ChromeTrigger *t)
{
	tt_str name = t->trigger_name ? intern_c(c, t->trigger_name) : intern_c(c, "chrome_trigger");
	uint32_t args;

	tt_storage_args_begin(c->st);
	tt_storage_args_uint(c->st, "chrome_trigger.name_hash", t->trigger_name_hash);
	if (t->trigger_name)
		tt_storage_args_str(c->st, "chrome_trigger.name", t->trigger_name, strlen(t->trigger_name));
	args = tt_args_tracker_end(c->im->args);
	/* u.i: the hash, and whether a flow id follows in id */
	tt_proto_push_ft(c, s, ts, FT_TRIGGER, t->flow_id,
			 TRIG_CHROME | (int64_t)t->has_flow_id << 2 | (int64_t)t->trigger_name_hash << 8, name, 0, args);
}

void tt_proto_feed_trigger(pctx *c, const prec *r)
{
	tt_track_desc d = { .type = "triggers", .utid = TT_NONE, .upid = TT_NONE, .parent_id = TT_NONE, .cpu = -1 };
	int kind = (int)(r->u.i & 3);
	uint32_t t;
	int64_t slice;

	d.name = intern_c(c, "Trace Triggers");
	t = tt_track_tracker_keyed(c->im->tracks, "triggers", 0, 0, d.name, &d);
	if (t == TT_NONE)
		return;
	/* a Chrome trigger's name hash named by a study translation table
	 * (proto_translate.c), as for a track event's hashes */
	slice = tt_slice_tracker_complete(c->im->slices, t, r->ts, 0, 0, r->name,
					  kind == TRIG_CHROME && c->xlate && r->args != TT_NONE ?
						  tt_proto_translate_set(c, r->args) : r->args);
	if (kind == TRIG_CHROME) {
		if (slice >= 0 && (r->u.i & 4) && tt_flow_tracker_active(c->im->flows, r->id))
			tt_flow_tracker_end_close(c->im->flows, slice, r->id);
		tt_storage_meta_int(c->st, "cr-triggered_rule_name_hash", (int64_t)(uint32_t)(r->u.i >> 8));
		return;
	}
	/* the first trace trigger names the trace, unless a clone snapshot
	 * trigger does (its first one, whenever it comes) */
	if ((kind == TRIG_CLONE && c->trigger_kind != TRIG_CLONE) || (kind == TRIG_TRACE && !c->trigger_kind)) {
		const char *name = tt_storage_str(c->st, r->name);

		c->trigger_kind = kind;
		tt_storage_meta_str(c->st, "trace_trigger", name);
		if (kind == TRIG_CLONE)
			tt_storage_stat_set(c->st, TT_STAT_traced_clone_trigger_timestamp_ns, r->ts);
	}
}

/* ---- concurrent tracing sessions ------------------------------------------------ */

static const char *const session_state[] = {
	[1] = "DISABLED", [2] = "CONFIGURED", [3] = "STARTED", [4] = "DISABLING_WAITING_STOP_ACKS",
	[5] = "CLONED_READ_ONLY",
};
#define STATE_DISABLED 1
#define STATE_CLONED_READ_ONLY 5

void tt_proto_on_session_event(pctx *c, pseq *s, int64_t ts, const Perfetto__Protos__ConcurrentSessionEvent *e)
{
	char name[300];
	uint32_t args;

	if (e->state <= 0 || e->state > STATE_CLONED_READ_ONLY) {
		stat(c, TT_STAT_concurrent_session_event_unknown_state);
		tt_storage_args_begin(c->st);
		tt_storage_args_int(c->st, "state", e->state);
		tt_storage_import_log(c->st, TT_STAT_concurrent_session_event_unknown_state, ts,
				      tt_args_tracker_end(c->im->args));
		return;
	}
	/* a session without a name by its id; a clone (whose first event,
	 * naming its track, is CLONED_READ_ONLY) shares its parent's name */
	if (e->session_name && e->session_name[0])
		snprintf(name, sizeof(name), "%s%s", e->session_name,
			 e->state == STATE_CLONED_READ_ONLY ? " (clone)" : "");
	else
		snprintf(name, sizeof(name), "Session %llu%s", (unsigned long long)e->session_id,
			 e->state == STATE_CLONED_READ_ONLY ? " (clone)" : "");
	tt_storage_args_begin(c->st);
	tt_storage_args_int(c->st, "consumer_uid", e->consumer_uid);
	tt_storage_args_int(c->st, "num_data_sources", e->num_data_sources);
	args = tt_args_tracker_end(c->im->args);
	tt_proto_push_ft(c, s, ts, FT_SESSION, e->session_id, e->state, intern_c(c, name), 0, args);
}

/* One state track per session id (trace processor's
 * concurrent_tracing_sessions blueprint, dimension session_id), named by
 * its first event; DISABLED ends at once: a zero-length marker. */
void tt_proto_feed_session(pctx *c, const prec *r)
{
	tt_track_desc d = { .type = "concurrent_tracing_sessions", .name = r->name, .utid = TT_NONE,
			    .upid = TT_NONE, .parent_id = TT_NONE, .cpu = -1 };
	uint32_t t = tt_track_tracker_keyed(c->im->tracks, "concurrent_tracing_sessions", r->id, 0, 0, &d);

	if (t == TT_NONE)
		return;
	if (tt_proto_dims_begin(c, t)) {
		tt_storage_args_int(c->st, "session_id", (int64_t)r->id);
		tt_proto_dims_end(c, t);
	}
	tt_proto_state_update(c, t, r->ts, 0, intern_c(c, session_state[r->u.i]), r->args);
	if (r->u.i == STATE_DISABLED)
		tt_proto_state_update(c, t, r->ts, 0, 0, TT_NONE);
}

/* ---- data sources' own reports ------------------------------------------------ */

void tt_proto_on_ftrace_stats(pctx *c, const Perfetto__Protos__FtraceStats *fs)
{
	for (size_t i = 0; i < fs->n_ftrace_parse_errors; i++)
		if (fs->ftrace_parse_errors[i] == PERFETTO__PROTOS__FTRACE_PARSE_STATUS__FTRACE_STATUS_ABI_ZERO_DATA_LENGTH)
			stat(c, TT_STAT_ftrace_abi_errors_skipped_zero_data_length);
}
