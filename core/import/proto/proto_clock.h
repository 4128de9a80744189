/*
 * proto_clock.h - the clock tracker of the Perfetto importer: turns a
 * packet's (clock id, raw timestamp) into nanoseconds on the trace clock,
 * from the ClockSnapshot packets seen so far (file order).
 *
 * Choice (documented for users in import_proto.c): the trace clock is the
 * `primary_trace_clock` of the first ClockSnapshot, or BOOTTIME (6) when it
 * names none, as trace_processor does. Chrome sets MONOTONIC (3). Once
 * fixed it never changes, so every timestamp of a trace is on one clock.
 *
 * Clocks 64..127 are sequence-scoped: (sequence, id) is their identity.
 * A snapshot clock with is_incremental makes later raw values deltas on
 * the last value of that clock (the snapshot's value first). Raw values
 * are multiplied by unit_multiplier_ns (1 when absent).
 *
 * Conversion A -> trace uses the snapshot holding both whose A value is
 * the latest <= t (else the first one): t_trace = snap_trace + (t - snap_A).
 * A snapshot without the trace clock is linked through another of its
 * clocks that already converts (one hop, resolved when the snapshot
 * arrives). Known limit: a snapshot linking A to a clock that only gains a
 * path to the trace clock later is not revisited.
 */
#ifndef TT_PROTO_CLOCK_H
#define TT_PROTO_CLOCK_H

#include <stddef.h>
#include <stdint.h>

#define TT_CLOCK_REALTIME 1
#define TT_CLOCK_MONOTONIC 3
#define TT_CLOCK_MONOTONIC_RAW 5
#define TT_CLOCK_BOOTTIME 6

typedef struct tt_proto_clock tt_proto_clock;

typedef struct tt_proto_clock_value {
	uint32_t id;
	uint64_t ts;       /* in the clock's unit */
	int is_incremental;
	uint64_t mult;     /* unit_multiplier_ns, 0 = 1 */
} tt_proto_clock_value;

tt_proto_clock *tt_proto_clock_new(void);
void tt_proto_clock_free(tt_proto_clock *c);

/* The trace clock id (BOOTTIME until a snapshot fixes it). */
uint32_t tt_proto_clock_primary(const tt_proto_clock *c);

/* Adds a snapshot emitted on sequence seq. has_primary/primary: the
 * snapshot's primary_trace_clock. *id: the snapshot's number (0 for the
 * first of the trace, as trace processor's snapshot_id); *at: its instant
 * on the trace clock, when it links to it. Returns 1 when it links (*at
 * set), 0 when it does not, -1 when memory ran out. */
int tt_proto_clock_snapshot(tt_proto_clock *c, uint32_t seq, const tt_proto_clock_value *v,
			    size_t n, int has_primary, uint32_t primary, uint32_t *id, int64_t *at);

/* Converts raw (clock clock_id as seen on sequence seq) to trace-clock ns
 * in *out. Returns 0, or -1 when no snapshot links the clock to the trace
 * clock: *out then holds the unconverted value (raw x unit). Incremental
 * clocks advance their base even when the conversion fails. */
int tt_proto_clock_to_trace(tt_proto_clock *c, uint32_t seq, uint32_t clock_id,
			    uint64_t raw, int64_t *out);

#endif
