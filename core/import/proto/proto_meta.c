/*
 * proto_meta.c - the packets that describe the trace rather than events
 * in it, as trace processor stores them (see import_proto.c for the
 * importer as a whole):
 *   - TraceStats, the tracing service's own statistics, written at the
 *     start and the end of a trace: the traced_* and filter_* stats, the
 *     buffers' ones per buffer (idx); the last packet's values win. Its
 *     writer_stats name each sequence's buffer, so the packet losses the
 *     importer saw on a sequence (previous_packet_dropped, packets skipped
 *     for lack of incremental state) are summed per buffer, as trace
 *     processor's ProtoTraceReader::ParseTraceStats does.
 *   - ChromeEventBundle.metadata, Chrome's untyped metadata (command line,
 *     versions, GPU, trace config...): metadata rows "cr-<name>" ("cr-2-"
 *     for a second bundle); a value-less entry is empty_chrome_metadata.
 *   - ChromeMetadataPacket, Chrome's typed metadata: rows "cr-a-<field>"
 *     (b, c... for later packets), background tracing's as base64.
 *   - ChromeBenchmarkMetadata (Telemetry): rows benchmark_*.
 *   - PackagesList: rows of package_list, a name once (the first time
 *     it is listed), and the data source's read and parse errors.
 *   - AndroidLogPacket, logcat: rows of android_logs in trace order (their
 *     CLOCK_REALTIME times converted; a line whose time cannot be is
 *     dropped, as there), and the data source's own counts.
 */
#include "proto_int.h"

#include <stdio.h>

/* ---- TraceStats ----------------------------------------------------------------- */

/* Loss counts of one buffer, summed over its sequences. */
typedef struct bufloss {
	uint32_t buffer;
	int64_t packet_loss, incr_dropped, cause[TT_PROTO_LOSS_CAUSES];
} bufloss;

static void set(pctx *c, tt_stat s, uint64_t v)
{
	tt_storage_stat_set(c->st, s, (int64_t)v);
}

static void set_i(pctx *c, tt_stat s, int32_t idx, uint64_t v)
{
	tt_storage_stat_set_indexed(c->st, s, idx, (int64_t)v);
}

static void buffer_stats(pctx *c, int32_t b, const Perfetto__Protos__TraceStats__BufferStats *x)
{
	set_i(c, TT_STAT_traced_buf_buffer_size, b, x->buffer_size);
	set_i(c, TT_STAT_traced_buf_bytes_written, b, x->bytes_written);
	set_i(c, TT_STAT_traced_buf_bytes_overwritten, b, x->bytes_overwritten);
	set_i(c, TT_STAT_traced_buf_bytes_read, b, x->bytes_read);
	set_i(c, TT_STAT_traced_buf_padding_bytes_written, b, x->padding_bytes_written);
	set_i(c, TT_STAT_traced_buf_padding_bytes_cleared, b, x->padding_bytes_cleared);
	set_i(c, TT_STAT_traced_buf_chunks_written, b, x->chunks_written);
	set_i(c, TT_STAT_traced_buf_chunks_rewritten, b, x->chunks_rewritten);
	set_i(c, TT_STAT_traced_buf_chunks_overwritten, b, x->chunks_overwritten);
	set_i(c, TT_STAT_traced_buf_chunks_discarded, b, x->chunks_discarded);
	set_i(c, TT_STAT_traced_buf_chunks_read, b, x->chunks_read);
	set_i(c, TT_STAT_traced_buf_chunks_relocated, b, x->chunks_relocated);
	set_i(c, TT_STAT_traced_buf_chunks_committed_out_of_order, b, x->chunks_committed_out_of_order);
	set_i(c, TT_STAT_traced_buf_write_wrap_count, b, x->write_wrap_count);
	set_i(c, TT_STAT_traced_buf_patches_succeeded, b, x->patches_succeeded);
	set_i(c, TT_STAT_traced_buf_patches_failed, b, x->patches_failed);
	set_i(c, TT_STAT_traced_buf_readaheads_succeeded, b, x->readaheads_succeeded);
	set_i(c, TT_STAT_traced_buf_readaheads_failed, b, x->readaheads_failed);
	set_i(c, TT_STAT_traced_buf_abi_violations, b, x->abi_violations);
	set_i(c, TT_STAT_traced_buf_trace_writer_packet_loss, b, x->trace_writer_packet_loss);
}

static const tt_stat cause_stat[TT_PROTO_LOSS_CAUSES] = {
	TT_STAT_traced_buf_data_loss_read_gap, TT_STAT_traced_buf_data_loss_chunk_corrupted,
	TT_STAT_traced_buf_data_loss_orphan_continuation, TT_STAT_traced_buf_data_loss_reassembly_gap,
	TT_STAT_traced_buf_data_loss_reassembly_broken_chain, TT_STAT_traced_buf_data_loss_overwrite,
	TT_STAT_traced_buf_data_loss_writer_abort, TT_STAT_traced_buf_data_loss_smb_full,
};

/* The sequences' losses by the buffer writer_stats puts them in; a
 * sequence the importer never saw adds nothing (nor makes its buffer's
 * rows). */
static void writer_losses(pctx *c, const Perfetto__Protos__TraceStats *t)
{
	TT_VEC(bufloss) bl = { 0 };
	size_t i, k;

	for (i = 0; i < t->n_writer_stats; i++) {
		const Perfetto__Protos__TraceStats__WriterStats *w = t->writer_stats[i];
		uint64_t *at = tt_pmap_find(&c->seq_index, (uint32_t)w->sequence_id);
		const pseq *s;
		bufloss *b = NULL;

		if (!at)
			continue;
		s = c->seqs.v[*at];
		for (k = 0; k < bl.n && !b; k++)
			if (bl.v[k].buffer == w->buffer)
				b = &bl.v[k];
		if (!b) {
			bufloss z = { .buffer = w->buffer };

			if (TT_VEC_PUSH(bl, z)) {
				c->oom = 1;
				break;
			}
			b = &bl.v[bl.n - 1];
		}
		b->packet_loss += s->dropped;
		b->incr_dropped += s->incr_skipped > 0 && s->incr_skipped == s->incr_total;
		for (k = 0; k < TT_PROTO_LOSS_CAUSES; k++)
			b->cause[k] += s->loss_cause[k];
	}
	for (i = 0; i < bl.n; i++) {
		int32_t b = (int32_t)bl.v[i].buffer;

		set_i(c, TT_STAT_traced_buf_sequence_packet_loss, b, (uint64_t)bl.v[i].packet_loss);
		set_i(c, TT_STAT_traced_buf_incremental_sequences_dropped, b, (uint64_t)bl.v[i].incr_dropped);
		for (k = 0; k < TT_PROTO_LOSS_CAUSES; k++)
			set_i(c, cause_stat[k], b, (uint64_t)bl.v[i].cause[k]);
	}
	TT_VEC_FREE(bl);
}

void tt_proto_on_trace_stats(pctx *c, const Perfetto__Protos__TraceStats *t)
{
	size_t i;

	set(c, TT_STAT_traced_producers_connected, t->producers_connected);
	set(c, TT_STAT_traced_producers_seen, t->producers_seen);
	set(c, TT_STAT_traced_data_sources_registered, t->data_sources_registered);
	set(c, TT_STAT_traced_data_sources_seen, t->data_sources_seen);
	set(c, TT_STAT_traced_tracing_sessions, t->tracing_sessions);
	set(c, TT_STAT_traced_total_buffers, t->total_buffers);
	set(c, TT_STAT_traced_chunks_discarded, t->chunks_discarded);
	set(c, TT_STAT_traced_patches_discarded, t->patches_discarded);
	set(c, TT_STAT_traced_flushes_requested, t->flushes_requested);
	set(c, TT_STAT_traced_flushes_succeeded, t->flushes_succeeded);
	set(c, TT_STAT_traced_flushes_failed, t->flushes_failed);
	if (t->filter_stats) {
		const Perfetto__Protos__TraceStats__FilterStats *f = t->filter_stats;

		set(c, TT_STAT_filter_errors, f->errors);
		set(c, TT_STAT_filter_input_bytes, f->input_bytes);
		set(c, TT_STAT_filter_input_packets, f->input_packets);
		set(c, TT_STAT_filter_output_bytes, f->output_bytes);
		set(c, TT_STAT_filter_time_taken_ns, f->time_taken_ns);
		for (i = 0; i < f->n_bytes_discarded_per_buffer && i < INT32_MAX; i++)
			set_i(c, TT_STAT_traced_buf_bytes_filtered_out, (int32_t)i, f->bytes_discarded_per_buffer[i]);
	}
	/* (counted, not set: two packets saying so count twice) */
	if (t->has_final_flush_outcome && t->final_flush_outcome == 1)
		tt_storage_stat_add(c->st, TT_STAT_traced_final_flush_succeeded, 1);
	else if (t->has_final_flush_outcome && t->final_flush_outcome == 2)
		tt_storage_stat_add(c->st, TT_STAT_traced_final_flush_failed, 1);
	for (i = 0; i < t->n_buffer_stats && i < INT32_MAX; i++)
		buffer_stats(c, (int32_t)i, t->buffer_stats[i]);
	writer_losses(c, t);
}

void tt_proto_seq_losses(pseq *s, uint32_t reasons)
{
	/* previous_packet_dropped's bits past DATA_LOSS_PRESENT (1): read
	 * gap (2), chunk corrupted (4), ... smb full (256) */
	s->dropped++;
	for (int k = 0; k < TT_PROTO_LOSS_CAUSES; k++)
		if (reasons & (2u << k))
			s->loss_cause[k]++;
}

/* ---- Chrome's metadata ---------------------------------------------------------- */

void tt_proto_on_chrome_events(pctx *c, const Perfetto__Protos__ChromeEventBundle *b)
{
	uint32_t bundle;
	char key[300];

	if (!b->n_metadata)
		return;
	bundle = ++c->chrome_bundles;
	for (size_t i = 0; i < b->n_metadata; i++) {
		const Perfetto__Protos__ChromeMetadata *m = b->metadata[i];
		const char *name = m->name ? m->name : "";

		if (bundle > 1)
			snprintf(key, sizeof(key), "cr-%u-%s", bundle, name);
		else
			snprintf(key, sizeof(key), "cr-%s", name);
		switch (m->value_case) {
		case PERFETTO__PROTOS__CHROME_METADATA__VALUE_STRING_VALUE:
			tt_storage_meta_str(c->st, key, m->string_value);
			break;
		case PERFETTO__PROTOS__CHROME_METADATA__VALUE_JSON_VALUE:
			tt_storage_meta_str(c->st, key, m->json_value);
			break;
		case PERFETTO__PROTOS__CHROME_METADATA__VALUE_INT_VALUE:
			tt_storage_meta_int(c->st, key, m->int_value);
			break;
		case PERFETTO__PROTOS__CHROME_METADATA__VALUE_BOOL_VALUE:
			tt_storage_meta_int(c->st, key, m->bool_value);
			break;
		default:
			stat(c, TT_STAT_empty_chrome_metadata);
			break;
		}
	}
}

/* Standard base64 with padding. out holds 4 * ((n + 2) / 3) + 1 bytes. */
static void base64(const uint8_t *p, size_t n, char *out)
{
	static const char d[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i, o = 0;

	for (i = 0; i + 2 < n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];

		out[o++] = d[v >> 18];
		out[o++] = d[(v >> 12) & 63];
		out[o++] = d[(v >> 6) & 63];
		out[o++] = d[v & 63];
	}
	if (i < n) {
		uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0);

		out[o++] = d[v >> 18];
		out[o++] = d[(v >> 12) & 63];
		out[o++] = i + 1 < n ? d[(v >> 6) & 63] : '=';
		out[o++] = '=';
	}
	out[o] = '\0';
}

static void background_tracing(pctx *c, const ProtobufCBinaryData *bt)
{
	char *b64 = bt->len < (64u << 20) ? malloc(4 * ((bt->len + 2) / 3) + 1) : NULL;
	Perfetto__Protos__BackgroundTracingMetadata *m;

	if (!b64) {
		c->oom = bt->len < (64u << 20);
		return;
	}
	base64(bt->data, bt->len, b64);
	tt_storage_meta_str(c->st, "cr-background_tracing_metadata", b64);
	free(b64);
	m = perfetto__protos__background_tracing_metadata__unpack(NULL, bt->len, bt->data);
	if (m && m->has_scenario_name_hash)
		tt_storage_meta_int(c->st, "cr-scenario_name_hash", m->scenario_name_hash);
	if (m)
		perfetto__protos__background_tracing_metadata__free_unpacked(m, NULL);
}

void tt_proto_on_chrome_metadata(pctx *c, const Perfetto__Protos__ChromeMetadataPacket *m)
{
	char key[64], pre[8];

	snprintf(pre, sizeof(pre), "cr-%c-", 'a' + (int)(c->chrome_metadata_packets++ % 26));
#define KEY(k) (snprintf(key, sizeof(key), "%s%s", pre, k), key)
	if (m->has_chrome_version_code)
		tt_storage_meta_int(c->st, KEY("playstore_version_code"), m->chrome_version_code);
	if (m->app_version)
		tt_storage_meta_str(c->st, KEY("product-version"), m->app_version);
	if (m->os_name)
		tt_storage_meta_str(c->st, KEY("os-name"), m->os_name);
	if (m->app_package_name)
		tt_storage_meta_str(c->st, KEY("package-name"), m->app_package_name);
	if (m->has_channel)
		tt_storage_meta_int(c->st, KEY("channel"), m->channel);
	if (m->enabled_categories)
		tt_storage_meta_str(c->st, KEY("enabled_categories"), m->enabled_categories);
	if (m->n_field_trial_hashes) {
		/* two hashes a line, as trace processor writes them for its UI */
		char *s = malloc(m->n_field_trial_hashes * 48 + 1);
		size_t o = 0;
		int line = 0;

		if (!s) {
			c->oom = 1;
			return;
		}
		for (size_t i = 0; i < m->n_field_trial_hashes; i++) {
			const Perfetto__Protos__ChromeMetadataPacket__FinchHash *h = m->field_trial_hashes[i];

			if (line == 2) {
				s[o++] = '\n';
				line = 1;
			} else {
				line++;
			}
			o += (size_t)sprintf(s + o, "{ name: %u, group: %u } ", h->name, h->group);
		}
		s[o] = '\0';
		tt_storage_meta_str(c->st, KEY("field_trial_hashes"), s);
		free(s);
	}
#undef KEY
	if (m->has_background_tracing_metadata)
		background_tracing(c, &m->background_tracing_metadata);
}

void tt_proto_on_benchmark_metadata(pctx *c, const Perfetto__Protos__ChromeBenchmarkMetadata *b)
{
	if (b->benchmark_name)
		tt_storage_meta_str(c->st, "benchmark_name", b->benchmark_name);
	if (b->benchmark_description)
		tt_storage_meta_str(c->st, "benchmark_description", b->benchmark_description);
	if (b->label)
		tt_storage_meta_str(c->st, "benchmark_label", b->label);
	if (b->story_name)
		tt_storage_meta_str(c->st, "benchmark_story_name", b->story_name);
	for (size_t i = 0; i < b->n_story_tags; i++)
		tt_storage_meta_append_str(c->st, "benchmark_story_tags", b->story_tags[i]);
	if (b->has_benchmark_start_time_us)
		tt_storage_meta_int(c->st, "benchmark_start_time_us", b->benchmark_start_time_us);
	if (b->has_story_run_time_us)
		tt_storage_meta_int(c->st, "benchmark_story_run_time_us", b->story_run_time_us);
	if (b->has_story_run_index)
		tt_storage_meta_int(c->st, "benchmark_story_run_index", b->story_run_index);
	if (b->has_had_failures)
		tt_storage_meta_int(c->st, "benchmark_had_failures", b->had_failures);
}

/* ---- Android logs --------------------------------------------------------------- */

/* A binary log's args as trace processor writes them after the message:
 * " name=value" each (strings quoted, floats %f), in at most 4 KiB. */
static size_t log_args(const Perfetto__Protos__AndroidLogPacket__LogEvent *e, char *out, size_t size)
{
	size_t o = 0;

	out[0] = '\0';
	for (size_t i = 0; i < e->n_args && o + 1 < size; i++) {
		const Perfetto__Protos__AndroidLogPacket__LogEvent__Arg *a = e->args[i];
		int k;

		if (!a->name)
			continue;
		k = snprintf(out + o, size - o, " %s=", a->name);
		o = k < 0 ? o : (size_t)k >= size - o ? size - 1 : o + (size_t)k;
		switch (a->value_case) {
		case PERFETTO__PROTOS__ANDROID_LOG_PACKET__LOG_EVENT__ARG__VALUE_STRING_VALUE:
			k = snprintf(out + o, size - o, "\"%s\"", a->string_value ? a->string_value : "");
			break;
		case PERFETTO__PROTOS__ANDROID_LOG_PACKET__LOG_EVENT__ARG__VALUE_INT_VALUE:
			k = snprintf(out + o, size - o, "%lld", (long long)a->int_value);
			break;
		case PERFETTO__PROTOS__ANDROID_LOG_PACKET__LOG_EVENT__ARG__VALUE_FLOAT_VALUE:
			k = snprintf(out + o, size - o, "%f", (double)a->float_value);
			break;
		default:
			k = 0;
			break;
		}
		o = k < 0 ? o : (size_t)k >= size - o ? size - 1 : o + (size_t)k;
	}
	return o;
}

void tt_proto_on_android_log(pctx *c, pseq *s, const Perfetto__Protos__AndroidLogPacket *p)
{
	char args[4096];

	for (size_t i = 0; i < p->n_events; i++) {
		const Perfetto__Protos__AndroidLogPacket__LogEvent *e = p->events[i];
		int64_t ts;
		tt_str msg, tag;
		size_t na;

		if (tt_proto_clock_to_trace(c->clock, s->id, TT_CLOCK_REALTIME, e->timestamp, &ts))
			continue;
		/* an empty text is trace processor's null string: NULL */
		msg = e->message && e->message[0] ? intern_c(c, e->message) : 0;
		tag = e->tag && e->tag[0] ? intern_c(c, e->tag) : 0;
		na = log_args(e, args, sizeof(args));
		if (na) {
			if (!msg) {
				msg = intern_c(c, args + 1); /* (its first blank skipped) */
			} else {
				size_t nm = strlen(e->message);
				char *both = malloc(nm + na + 1);

				if (!both) {
					c->oom = 1;
					return;
				}
				memcpy(both, e->message, nm);
				memcpy(both + nm, args, na + 1);
				msg = intern_c(c, both);
				free(both);
			}
		}
		tt_proto_push_ft(c, s, ts, FT_LOG, (uint64_t)(uint32_t)e->pid << 32 | (uint32_t)e->tid,
				 e->prio ? e->prio : 4, msg, tag, 0);
	}
	if (p->stats) {
		if (p->stats->has_num_failed)
			tt_storage_stat_set(c->st, TT_STAT_android_log_num_failed, (int64_t)p->stats->num_failed);
		if (p->stats->has_num_skipped)
			tt_storage_stat_set(c->st, TT_STAT_android_log_num_skipped, (int64_t)p->stats->num_skipped);
		if (p->stats->has_num_total)
			tt_storage_stat_set(c->st, TT_STAT_android_log_num_total, (int64_t)p->stats->num_total);
	}
}

void tt_proto_feed_log(pctx *c, const prec *r)
{
	/* the thread (pid, tid) names now, as trace processor's UpdateThread */
	uint32_t utid = tt_proto_thread_in(c, (int32_t)(uint32_t)(r->id >> 32), (int32_t)(uint32_t)r->id);

	tt_storage_log(c->st, r->ts, utid, (uint32_t)r->u.i, r->cat, r->name);
}

/* ---- Android's packages ------------------------------------------------------------ */

void tt_proto_on_packages(pctx *c, const Perfetto__Protos__PackagesList *pl)
{
	tt_storage_stat_set(c->st, TT_STAT_packages_list_has_read_errors, pl->read_error);
	tt_storage_stat_set(c->st, TT_STAT_packages_list_has_parse_errors, pl->parse_error);
	for (size_t i = 0; i < pl->n_packages; i++) {
		const Perfetto__Protos__PackagesList__PackageInfo *p = pl->packages[i];
		tt_str name = intern_c(c, p->name ? p->name : "");

		if (tt_pmap_find(&c->packages, name))
			continue;
		if (tt_pmap_put(&c->packages, name, 1)) {
			c->oom = 1;
			return;
		}
		tt_storage_package(c->st, name, (int64_t)p->uid, p->debuggable, p->profileable_from_shell, p->version_code);
	}
}
