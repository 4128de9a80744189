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
	X(systrace_parse_failure, "systrace_parse_failure", "error", "analysis", "atrace markers (ftrace print, sde_tracing_mark_write) that could not be parsed, skipped") \
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
	X(task_state_invalid, "task_state_invalid", "error", "analysis", "sched_switch prev_state values the kernel version cannot have written (state NULL)") \
	X(proto_track_undescribed, "proto_track_undescribed", "info", "trace", "track uuids used by events but never described by a TrackDescriptor")

typedef enum tt_stat {
#define TT_STAT_ENUM(id, name, sev, src, desc) TT_STAT_##id,
	TT_STATS(TT_STAT_ENUM)
#undef TT_STAT_ENUM
	TT_STAT_COUNT
} tt_stat;

#endif
