/*
 * timemath.h - overflow-free arithmetic on nanosecond timestamps for the
 * viewer. Trace timestamps are whatever the file said: a slice near
 * INT64_MAX, a span from -2^63 to 2^63, a duration of 2^62 all reach the
 * view. Every sum, difference and product of times in tui/ goes through
 * these helpers, which saturate at the int64 limits instead of wrapping
 * (a wrapped span is negative and a loop over it never ends; signed
 * overflow is undefined behaviour anyway). Pure functions, no ncurses:
 * unit-tested at the edges in tests/test_tui_timemath.c.
 */
#ifndef TT_TIMEMATH_H
#define TT_TIMEMATH_H

#include <stdint.h>

/* The widest window the view shows: 2^61 ns (about 73 years). Trace
 * bounds wider than this are clamped by the view, so that a window, a
 * quarter of margin on each side and a time relative to the trace start
 * all stay far from the int64 limits. */
#define TT_TM_MAX_SPAN (INT64_C(1) << 61)

/* a + b, a - b, a * k, saturated to [INT64_MIN, INT64_MAX]. */
int64_t tt_tm_add(int64_t a, int64_t b);
int64_t tt_tm_sub(int64_t a, int64_t b);
int64_t tt_tm_mul(int64_t a, int64_t k);
/* a * num / den rounded toward zero, saturated; den == 0 gives a. */
int64_t tt_tm_scale(int64_t a, int64_t num, int64_t den);
/* floor((a + b) / 2) without overflow. */
int64_t tt_tm_mid(int64_t a, int64_t b);
/* t limited to [lo, hi] (lo wins when lo > hi). */
int64_t tt_tm_clamp(int64_t t, int64_t lo, int64_t hi);
/* End of an item: ts + dur for dur > 0, else ts; saturated. */
int64_t tt_tm_end(int64_t ts, int64_t dur);
/* Length b - a of [a, b] as a non-negative span: 0 when b <= a,
 * saturated at INT64_MAX. */
int64_t tt_tm_len(int64_t a, int64_t b);
/* Floor division (toward -inf), den > 0. */
int64_t tt_tm_floordiv(int64_t a, int64_t den);

#endif
