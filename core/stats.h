/*
 * stats.h - every counted anomaly of import and analysis, as one X-macro.
 * Each row: (id, name, severity, source, description). The table becomes the
 * SQL `stats` table and the "stats" section of `termtrace info`, so adding a
 * row here is all it takes to report a new kind of problem.
 *
 * severity: info | data_loss | error  (as in Perfetto's stats)
 * source:   trace (what the file says) | analysis (what we inferred)
 */
#ifndef TT_STATS_H
#define TT_STATS_H

#define TT_STATS(X) \
	X(json_parse_error, "json_parse_error", "error", "trace", "JSON text that could not be parsed; import stopped there") \
	X(json_phase_unknown, "json_phase_unknown", "info", "trace", "trace events with a phase termtrace does not import") \
	X(json_truncated, "json_truncated", "data_loss", "trace", "the JSON text ended inside the event array (crashed writer?)") \
	X(slice_end_unmatched, "slice_end_unmatched", "error", "analysis", "slice ends (E / SLICE_END) with no open slice on their track, dropped") \
	X(slice_end_name_mismatch, "slice_end_name_mismatch", "error", "analysis", "slice ends whose name differs from the open slice they closed") \
	X(slice_unfinished, "slice_unfinished", "info", "analysis", "slices still open at the end of the trace (dur = -1)") \
	X(slice_backwards, "slice_backwards", "error", "analysis", "slice begins/ends earlier than the open slice on the same track, dropped") \
	X(slice_overlap, "slice_overlap", "error", "analysis", "complete slices that end after the slice enclosing them (kept, nested under it)") \
	X(slice_depth_limit, "slice_depth_limit", "error", "analysis", "slices nested deeper than termtrace's limit, dropped") \
	X(async_unmatched, "async_unmatched", "error", "analysis", "async ends (e / F) without a matching begin, dropped") \
	X(flow_duplicate_id, "flow_duplicate_id", "error", "trace", "flow starts (s, flow_out, a bind_id flow_out) of a flow already active: ignored") \
	X(flow_no_enclosing_slice, "flow_no_enclosing_slice", "error", "trace", "flow events (v1 s/t/f, JSON flow_in/flow_out) with no open slice on their thread (or async track) to bind to") \
	X(flow_step_without_start, "flow_step_without_start", "info", "trace", "flow steps (t, flow_in + flow_out, a bind_id flow_inout) of a flow not active") \
	X(flow_end_without_start, "flow_end_without_start", "info", "trace", "flow ends (f, flow_in, a bind_id flow_in) of a flow not active") \
	X(flow_without_direction, "flow_without_direction", "error", "trace", "events with a bind_id but no flow direction (JSON: neither flow_in nor flow_out): no flow") \
	X(flow_invalid_id, "flow_invalid_id", "error", "trace", "v1 flow events (s/t/f) without an id (Perfetto: without an unscoped_id; JSON: or a string id that is not a hex number): no flow") \
	X(proto_packet_bad, "proto_packet_bad", "error", "trace", "trace packets that protobuf-c could not unpack, skipped") \
	X(proto_truncated, "proto_truncated", "data_loss", "trace", "bytes after the last complete packet (truncated file)") \
	X(proto_skipped_incremental, "proto_skipped_incremental", "data_loss", "trace", "packets needing incremental state on a sequence that had none, skipped") \
	X(proto_interned_missing, "proto_interned_missing", "error", "trace", "interned ids that were never defined on their sequence") \
	X(proto_packet_dropped, "proto_packet_dropped", "data_loss", "trace", "sequences that reported lost packets (previous_packet_dropped)") \
	X(proto_clock_unknown, "proto_clock_unknown", "error", "trace", "timestamps on a clock with no snapshot to convert them, kept unconverted") \
	X(proto_compressed_bad, "proto_compressed_bad", "error", "trace", "compressed_packets or zstd_compressed_packets that failed to inflate") \
	X(proto_counter_bad_track, "proto_counter_bad_track", "error", "trace", "counter values on a track that is not a counter track") \
	X(systrace_parse_failure, "systrace_parse_failure", "error", "analysis", "ftrace text lines of a systrace file and atrace markers (ftrace print, sde_tracing_mark_write) that could not be parsed, skipped") \
	X(systrace_line_unterminated, "systrace_line_unterminated", "info", "trace", "systrace files whose last line has no newline; the line is not read, as trace processor does not read it") \
	X(strace_parse_failure, "strace_parse_failure", "error", "trace", "lines of an strace file that are not system calls (signals, exits, other text), skipped") \
	X(strace_unsupported_timestamp_format, "strace_unsupported_timestamp_format", "error", "trace", "strace calls timed by the wall clock (-t, -tt: no date), skipped: record with -ttt") \
	X(strace_missing_pid, "strace_missing_pid", "error", "trace", "strace calls without a pid (strace run without -f), skipped") \
	X(systrace_cpu_bad, "systrace_cpu_bad", "error", "trace", "sched_switch lines of ftrace text on a cpu >= 1024, skipped") \
	X(rss_stat_negative_size, "rss_stat_negative_size", "info", "analysis", "rss_stat events (systrace text) with a negative size, skipped") \
	X(proto_ftrace_cpu_bad, "proto_ftrace_cpu_bad", "error", "trace", "ftrace bundles with a cpu >= 1024, skipped") \
	X(proto_unknown_field, "proto_unknown_field", "info", "trace", "trace packets whose payload termtrace does not import") \
	X(sorter_push_event_out_of_order, "sorter_push_event_out_of_order", "error", "trace", "events older than what the sorter had already given out at a flush point, dropped") \
	X(ctf_events_discarded, "ctf_events_discarded", "data_loss", "trace", "events the tracer discarded (events_discarded deltas)") \
	X(ctf_packets_lost, "ctf_packets_lost", "data_loss", "trace", "packets missing from packet_seq_num sequences") \
	X(ctf_truncated, "ctf_truncated", "data_loss", "trace", "stream bytes cut short: a packet or event runs past the end of its file") \
	X(ctf_event_unknown, "ctf_event_unknown", "error", "trace", "events whose id is not in the metadata (truncated metadata?)") \
	X(ctf_decode_error, "ctf_decode_error", "error", "trace", "packets that could not be decoded; the rest of the packet was skipped") \
	X(ctf_metadata_unsupported, "ctf_metadata_unsupported", "info", "trace", "TSDL features termtrace skips (unknown blocks or attributes)") \
	X(ctf_uuid_mismatch, "ctf_uuid_mismatch", "error", "trace", "packets whose header uuid differs from the metadata's (read all the same, as babeltrace2 does)") \
	X(ctf_debug_info_missing, "ctf_debug_info_missing", "info", "analysis", "binaries of the statedump that could not be read for symbols (not on this machine, another build): their addresses are kept") \
	X(ctf_invalid_timestamp, "ctf_invalid_timestamp", "error", "analysis", "events whose clock value converts past 64-bit ns since the epoch, dropped (Perfetto's *_invalid_timestamp)") \
	X(ts_backwards, "ts_backwards", "error", "analysis", "events whose timestamp went backwards within their stream/thread") \
	/* added for the perfetto importer (issue 3) */ \
	X(proto_legacy_unsupported, "proto_legacy_unsupported", "info", "trace", "track events with a legacy phase or type termtrace does not import (objects, ...)") \
	/* trace processor's names (issue 16) */ \
	X(slice_spill_overlapping_complete_event, "slice_spill_overlapping_complete_event", "error", "analysis", "JSON complete (X) events that partly overlap a slice of their thread, moved to an overflow track of the thread (thread_overlapping_slice)") \
	X(slice_drop_overlapping_complete_event, "slice_drop_overlapping_complete_event", "error", "analysis", "complete slices that partly overlap a slice of their track and were dropped") \
	X(json_tokenizer_failure, "json_tokenizer_failure", "error", "trace", "JSON trace events that could not be read (no ph, no usable ts), skipped") \
	X(json_display_time_unit, "json_display_time_unit", "info", "trace", "the JSON trace sets displayTimeUnit, which changes how viewers show times but not the timestamps (ts and dur are microseconds)") \
	X(slice_negative_duration, "slice_negative_duration", "error", "analysis", "slices with a negative duration (JSON X events), dropped") \
	X(json_parser_failure, "json_parser_failure", "error", "trace", "JSON trace events whose fields do not make an event of their phase, skipped") \
	X(track_descriptor_conflicting_reservation, "track_descriptor_conflicting_reservation", "error", "analysis", "track descriptors that describe a uuid already described otherwise (another thread), ignored") \
	X(track_event_parser_errors, "track_event_parser_errors", "info", "analysis", "track events that could not be placed (state value on a track that is not a state track, ...), skipped") \
	X(track_event_invalid_timestamp, "track_event_invalid_timestamp", "error", "analysis", "track events whose timestamp is out of range (absolute or delta overflow, clock conversion overflow), dropped") \
	X(track_event_state_missing_track_uuid, "track_event_state_missing_track_uuid", "error", "trace", "state track events (TYPE_STATE) without a track uuid, skipped") \
	X(track_event_dropped_packets_outside_of_range_of_interest, "track_event_dropped_packets_outside_of_range_of_interest", "info", "analysis", "track events before Chrome's range of interest (TrackEventRangeOfInterest), dropped as Perfetto's UI does") \
	X(streaming_profile_invalid_timestamp, "streaming_profile_invalid_timestamp", "error", "analysis", "Chrome sampling profiler packets whose delta timestamps leave the valid range, dropped") \
	X(stackprofile_parser_error, "stackprofile_parser_error", "error", "trace", "sampling profiler samples without a timestamp delta or with an unknown callstack, dropped") \
	X(mismatched_sched_switch_tids, "mismatched_sched_switch_tids", "error", "analysis", "sched_switch events whose prev pid is not the thread the cpu's last switch ran: its slice is left open") \
	X(compact_sched_switch_skipped, "compact_sched_switch_skipped", "info", "analysis", "the first compact sched_switch of each cpu, which only says who runs next (no slice)") \
	X(compact_sched_waking_skipped, "compact_sched_waking_skipped", "info", "analysis", "compact sched_waking events on a cpu with no switch yet (their waker is unknown), skipped") \
	X(compact_sched_has_parse_errors, "compact_sched_has_parse_errors", "error", "trace", "compact_sched bundles whose switch arrays differ in length, skipped") \
	X(task_state_invalid, "task_state_invalid", "error", "analysis", "sched_switch prev_state values the kernel version cannot have written (state NULL); generic kernel task states unknown or UNKNOWN, skipped") \
	X(generic_task_state_invalid_order, "generic_task_state_invalid_order", "error", "analysis", "Invalid order of generic task state events. Should never happen.") \
	X(generic_task_state_cpu_bad, "generic_task_state_cpu_bad", "error", "trace", "generic kernel RUNNING task states on a cpu below 0 or from 1024 on, skipped") \
	X(proto_track_undescribed, "proto_track_undescribed", "info", "trace", "track uuids used by events but never described by a TrackDescriptor") \
	X(meminfo_unknown_keys, "meminfo_unknown_keys", "error", "analysis", "SysStats meminfo values of a key termtrace does not know, skipped") \
	X(vmstat_unknown_keys, "vmstat_unknown_keys", "error", "analysis", "SysStats vmstat values of a key termtrace does not know, skipped") \
	X(invalid_cpu_times, "invalid_cpu_times", "error", "analysis", "SysStats cpu times without a cpu, skipped") \
	X(cpu_info_empty, "cpu_info_empty", "error", "analysis", "CpuInfo packets that list no CPU (an unreadable /proc/cpuinfo): the cpu table lacks their details") \
	X(user_list_errors, "user_list_errors", "error", "trace", "Android user lists the android.user_list data source could not read or parse") \
	X(game_intervention_has_read_errors, "game_intervention_has_read_errors", "error", "trace", "the game interventions data source could not open the file it reads (1: it said so)") \
	X(game_intervention_has_parse_errors, "game_intervention_has_parse_errors", "error", "trace", "the game interventions data source could not parse what it read (1: it said so)") \
	X(android_aflags_errors, "android_aflags_errors", "error", "trace", "aconfig flag snapshots the android.aflags data source failed to take (the error in the import log)") \
	X(cpu_info_unknown_cpu_features, "cpu_info_unknown_cpu_features", "info", "analysis", "CpuInfo CPUs with feature bits termtrace has no name for (kept in the cpu's args as cpu_features.raw_bitmap)") \
	X(psi_unknown_resource, "psi_unknown_resource", "error", "analysis", "SysStats pressure samples of an unknown resource (the rest of the packet skipped)") \
	X(rss_stat_unknown_thread_for_mm_id, "rss_stat_unknown_thread_for_mm_id", "info", "analysis", "rss_stat events about another process's memory (curr 0) whose mm_id no live thread was seen with, dropped") \
	X(packages_list_has_parse_errors, "packages_list_has_parse_errors", "error", "trace", "the packages list data source could not parse Android's packages.list") \
	X(power_rail_empty_packet, "power_rail_empty_packet", "error", "analysis", "power rails packets with no energy data") \
	X(power_rail_unknown_index, "power_rail_unknown_index", "error", "trace", "power rail energy values of a rail no descriptor named") \
	X(energy_descriptor_invalid, "energy_descriptor_invalid", "error", "analysis", "energy consumers and power entity states described without their id, skipped") \
	X(energy_breakdown_missing_values, "energy_breakdown_missing_values", "error", "analysis", "energy estimates without a consumer id or a value, or of a consumer no descriptor named, skipped") \
	X(energy_uid_breakdown_missing_values, "energy_uid_breakdown_missing_values", "error", "analysis", "per-uid energy estimates without a uid or a value, skipped") \
	X(gpu_counters_invalid_spec, "gpu_counters_invalid_spec", "error", "analysis", "GPU counter specs without an id or a name, given twice, or counter values of an interned descriptor that does not name them, skipped") \
	X(gpu_counters_missing_timestamp, "gpu_counters_missing_timestamp", "error", "trace", "GpuCounterEvent packets with counter values but no timestamp: they cannot be placed in time, dropped") \
	X(entity_state_residency_invalid, "entity_state_residency_invalid", "error", "analysis", "entity state residency packets with no residency (a descriptor alone counts too, as in trace processor)") \
	X(entity_state_residency_lookup_failed, "entity_state_residency_lookup_failed", "error", "analysis", "entity state residencies of a state no descriptor named (the rest of the packet skipped)") \
	X(packages_list_has_read_errors, "packages_list_has_read_errors", "error", "trace", "the packages list data source could not read Android's packages.list") \
	X(android_log_num_total, "android_log_num_total", "info", "trace", "log lines the Android log data source read (its own count)") \
	X(android_log_num_failed, "android_log_num_failed", "error", "trace", "log lines the Android log data source failed to read") \
	X(android_log_num_skipped, "android_log_num_skipped", "info", "trace", "log lines the Android log data source skipped") \
	X(empty_chrome_metadata, "empty_chrome_metadata", "error", "trace", "Chrome metadata entries (ChromeEventBundle) without a value, skipped") \
	X(traced_producers_connected, "traced_producers_connected", "info", "trace", "producers connected to the tracing service (its TraceStats, last written)") \
	X(traced_producers_seen, "traced_producers_seen", "info", "trace", "producers the tracing service saw") \
	X(traced_data_sources_registered, "traced_data_sources_registered", "info", "trace", "data sources registered with the tracing service") \
	X(traced_data_sources_seen, "traced_data_sources_seen", "info", "trace", "data sources the tracing service saw") \
	X(traced_tracing_sessions, "traced_tracing_sessions", "info", "trace", "tracing sessions of the tracing service") \
	X(traced_total_buffers, "traced_total_buffers", "info", "trace", "buffers of the tracing service") \
	X(traced_chunks_discarded, "traced_chunks_discarded", "info", "trace", "chunks the tracing service discarded") \
	X(traced_patches_discarded, "traced_patches_discarded", "info", "trace", "patches the tracing service discarded") \
	X(traced_flushes_requested, "traced_flushes_requested", "info", "trace", "flushes the tracing service requested") \
	X(traced_flushes_succeeded, "traced_flushes_succeeded", "info", "trace", "flushes that succeeded") \
	X(traced_flushes_failed, "traced_flushes_failed", "data_loss", "trace", "flushes that failed: data of some data source may be missing") \
	X(traced_final_flush_succeeded, "traced_final_flush_succeeded", "info", "trace", "the final flush of the trace succeeded") \
	X(traced_final_flush_failed, "traced_final_flush_failed", "data_loss", "trace", "the final flush of the trace failed: its end may be missing") \
	X(filter_input_packets, "filter_input_packets", "info", "trace", "packets before the trace config's TraceFilter") \
	X(filter_input_bytes, "filter_input_bytes", "info", "trace", "bytes before the trace config's TraceFilter") \
	X(filter_output_bytes, "filter_output_bytes", "info", "trace", "bytes the TraceFilter let through") \
	X(filter_errors, "filter_errors", "error", "trace", "errors of the TraceFilter") \
	X(filter_time_taken_ns, "filter_time_taken_ns", "info", "trace", "time the TraceFilter took, in ns") \
	X(traced_clone_started_timestamp_ns, "traced_clone_started_timestamp_ns", "info", "trace", "when the tracing service began cloning the session (a clone snapshot), in trace time") \
	X(traced_clone_trigger_timestamp_ns, "traced_clone_trigger_timestamp_ns", "info", "trace", "when the trigger of the clone snapshot came (the first clone_snapshot_trigger)") \
	X(config_write_into_file_no_flush, "config_write_into_file_no_flush", "error", "trace", "the trace config sets write_into_file without flush_period_ms (a tracing service older than v54): the service held the whole trace in memory") \
	X(ftrace_abi_errors_skipped_zero_data_length, "ftrace_abi_errors_skipped_zero_data_length", "info", "analysis", "ftrace pages with a zero data length that traced_probes skipped (FtraceStats.ftrace_parse_errors; harmless padding)") \
	X(concurrent_session_event_unknown_state, "concurrent_session_event_unknown_state", "error", "analysis", "ConcurrentSessionEvents of an unspecified or unknown state (a newer tracing service?), skipped") \
	X(traced_buf_buffer_size, "traced_buf_buffer_size", "info", "trace", "size of each buffer of the tracing service (idx: the buffer)") \
	X(traced_buf_bytes_written, "traced_buf_bytes_written", "info", "trace", "bytes written into each buffer") \
	X(traced_buf_bytes_overwritten, "traced_buf_bytes_overwritten", "info", "trace", "bytes overwritten in each buffer (ring buffers: the oldest data lost)") \
	X(traced_buf_bytes_read, "traced_buf_bytes_read", "info", "trace", "bytes read from each buffer") \
	X(traced_buf_bytes_filtered_out, "traced_buf_bytes_filtered_out", "info", "trace", "bytes of each buffer the TraceFilter discarded") \
	X(traced_buf_padding_bytes_written, "traced_buf_padding_bytes_written", "info", "trace", "padding bytes written into each buffer") \
	X(traced_buf_padding_bytes_cleared, "traced_buf_padding_bytes_cleared", "info", "trace", "padding bytes cleared in each buffer") \
	X(traced_buf_chunks_written, "traced_buf_chunks_written", "info", "trace", "chunks written into each buffer") \
	X(traced_buf_chunks_rewritten, "traced_buf_chunks_rewritten", "info", "trace", "chunks rewritten in each buffer") \
	X(traced_buf_chunks_overwritten, "traced_buf_chunks_overwritten", "info", "trace", "chunks overwritten in each buffer") \
	X(traced_buf_chunks_discarded, "traced_buf_chunks_discarded", "info", "trace", "chunks each buffer discarded (a full DISCARD buffer)") \
	X(traced_buf_chunks_read, "traced_buf_chunks_read", "info", "trace", "chunks read from each buffer") \
	X(traced_buf_chunks_relocated, "traced_buf_chunks_relocated", "info", "trace", "chunks each buffer moved to its write cursor") \
	X(traced_buf_chunks_committed_out_of_order, "traced_buf_chunks_committed_out_of_order", "info", "trace", "chunks committed out of order in each buffer") \
	X(traced_buf_write_wrap_count, "traced_buf_write_wrap_count", "info", "trace", "times each buffer's writing wrapped around") \
	X(traced_buf_patches_succeeded, "traced_buf_patches_succeeded", "info", "trace", "patches applied in each buffer") \
	X(traced_buf_patches_failed, "traced_buf_patches_failed", "data_loss", "trace", "patches that failed in each buffer: data of a data source may be lost (not with a full DISCARD buffer)") \
	X(traced_buf_readaheads_succeeded, "traced_buf_readaheads_succeeded", "info", "trace", "readaheads that succeeded in each buffer") \
	X(traced_buf_readaheads_failed, "traced_buf_readaheads_failed", "info", "trace", "readaheads that failed in each buffer") \
	X(traced_buf_abi_violations, "traced_buf_abi_violations", "data_loss", "trace", "ABI violations of writers into each buffer") \
	X(traced_buf_trace_writer_packet_loss, "traced_buf_trace_writer_packet_loss", "data_loss", "trace", "packet loss the tracing service saw in each buffer") \
	X(traced_buf_sequence_packet_loss, "traced_buf_sequence_packet_loss", "data_loss", "analysis", "groups of consecutive packets lost in the sequences of each buffer (previous_packet_dropped)") \
	X(traced_buf_incremental_sequences_dropped, "traced_buf_incremental_sequences_dropped", "data_loss", "analysis", "sequences of each buffer all of whose packets were skipped for lack of incremental state") \
	X(traced_buf_data_loss_read_gap, "traced_buf_data_loss_read_gap", "data_loss", "trace", "sequence data losses from a read-time chunk id gap, per buffer") \
	X(traced_buf_data_loss_chunk_corrupted, "traced_buf_data_loss_chunk_corrupted", "data_loss", "trace", "sequence data losses from a corrupted chunk, per buffer") \
	X(traced_buf_data_loss_orphan_continuation, "traced_buf_data_loss_orphan_continuation", "data_loss", "trace", "sequence data losses from a continuation fragment without its beginning, per buffer") \
	X(traced_buf_data_loss_reassembly_gap, "traced_buf_data_loss_reassembly_gap", "data_loss", "trace", "sequence data losses from a chunk id gap in a fragmented packet, per buffer") \
	X(traced_buf_data_loss_reassembly_broken_chain, "traced_buf_data_loss_reassembly_broken_chain", "data_loss", "trace", "sequence data losses from a broken fragment chain, per buffer") \
	X(traced_buf_data_loss_overwrite, "traced_buf_data_loss_overwrite", "data_loss", "trace", "sequence data losses from unread chunks overwritten, per buffer") \
	X(traced_buf_data_loss_writer_abort, "traced_buf_data_loss_writer_abort", "data_loss", "trace", "sequence data losses from a writer aborting a fragmented packet, per buffer") \
	X(traced_buf_data_loss_smb_full, "traced_buf_data_loss_smb_full", "data_loss", "trace", "sequence data losses from a full shared memory buffer, per buffer") \
	X(traced_buf_clone_done_timestamp_ns, "traced_buf_clone_done_timestamp_ns", "info", "trace", "when the clone snapshot of each buffer was done, in trace time") \
	X(config_write_into_file_discard, "config_write_into_file_discard", "data_loss", "trace", "buffers of a write_into_file trace config with a DISCARD fill policy: once full they drop data, use RING_BUFFER") \
	X(long_trace_mode_bytes_overwritten, "long_trace_mode_bytes_overwritten", "data_loss", "trace", "bytes each buffer of a write_into_file trace overwrote before they were written to the file: missing from the trace")

/* The stats trace processor keeps per index (a buffer of the tracing
 * service): a row per index set, none before (tt_storage_stat_set_indexed). */
#define TT_STATS_INDEXED_FIRST TT_STAT_traced_buf_buffer_size
#define TT_STATS_INDEXED_LAST TT_STAT_long_trace_mode_bytes_overwritten

typedef enum tt_stat {
#define TT_STAT_ENUM(id, name, sev, src, desc) TT_STAT_##id,
	TT_STATS(TT_STAT_ENUM)
#undef TT_STAT_ENUM
	TT_STAT_COUNT
} tt_stat;

static inline int tt_stat_indexed(tt_stat s)
{
	return s >= TT_STATS_INDEXED_FIRST && s <= TT_STATS_INDEXED_LAST;
}

#endif
