/*
 * timefmt.h - time arithmetic and text for the viewer: the mapping between
 * nanoseconds and terminal columns, ruler tick steps and labels, duration
 * text and the parser of typed times (":goto 1.5ms"). Pure functions, no
 * ncurses: unit-tested in tests/test_tui_timefmt.c.
 *
 * A view is [t0, t0 + span) over width columns; column c covers
 * [ts(c), ts(c+1)) with ts(c) = t0 + ceil(span * c / width): exactly the
 * nanoseconds t with col(t) = floor((t - t0) * width / span) = c.
 */
#ifndef TT_TIMEFMT_H
#define TT_TIMEFMT_H

#include <stddef.h>
#include <stdint.h>

/* Column of time t (floor); negative or >= width when outside the view. */
int tt_timefmt_col(int64_t t, int64_t t0, int64_t span, int width);
/* First nanosecond of column col (col(ts(c)) == c). */
int64_t tt_timefmt_ts(int col, int64_t t0, int64_t span, int width);

/* Ruler tick step: the smallest 1, 2 or 5 x 10^k ns such that two labels
 * are at least min_gap columns apart. Always >= 1. */
int64_t tt_timefmt_tick_step(int64_t span, int width, int min_gap);
/* Label of tick t (ns relative to trace start) for a given step: the unit
 * follows t's magnitude, decimals are as many as step needs, trailing
 * zeros dropped: 0 -> "0", 1500000 step 500000 -> "1.5ms". */
void tt_timefmt_label(int64_t t, int64_t step, int utf8, char *buf, size_t n);
/* Exact duration/time text to the nanosecond with the largest unit <= |ns|
 * and trailing zeros dropped: 1234567 -> "1.234567ms", 0 -> "0ns". */
void tt_timefmt_exact(int64_t ns, int utf8, char *buf, size_t n);
/* Short duration text with 3 significant digits: 1234567 -> "1.23ms". */
void tt_timefmt_short(int64_t ns, int utf8, char *buf, size_t n);
/* Parses "123" (ns), "1.5ms", "20us", "20µs", "3s", "7ns", optional
 * leading '+'. Returns 0 and sets *ns, or -1 on bad text. */
int tt_timefmt_parse(const char *s, int64_t *ns);

#endif
