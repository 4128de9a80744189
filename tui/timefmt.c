/*
 * timefmt.c - ns <-> column mapping, ruler steps and time text (see
 * timefmt.h). Integer arithmetic throughout (128-bit products) so that
 * the mapping is exact at every zoom, from 1 ns per cell to hours.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "termtrace.h"
#include "timefmt.h"
#include "timemath.h"

int tt_timefmt_col(int64_t t, int64_t t0, int64_t span, int width)
{
	__int128 d = (__int128)t - t0;
	__int128 q;

	if (span <= 0)
		return 0;
	d *= width;
	q = d / span;
	if (d % span != 0 && d < 0)
		q--; /* floor, not truncation */
	if (q < -1000000)
		return -1000000;
	if (q > 1000000)
		return 1000000;
	return (int)q;
}

int64_t tt_timefmt_ts(int col, int64_t t0, int64_t span, int width)
{
	if (width <= 0)
		return t0;
	/* ceiling: the first ns whose column (floor mapping) is col */
	__int128 p = (__int128)span * col;
	__int128 q = p / width;
	if (p % width != 0 && p > 0)
		q++;
	/* q fits in int64 for |col| <= width; past the edges of the
	 * timestamps the column's start saturates */
	if (q > INT64_MAX)
		q = INT64_MAX;
	if (q < INT64_MIN)
		q = INT64_MIN;
	return tt_tm_add(t0, (int64_t)q);
}

int64_t tt_timefmt_tick_step(int64_t span, int width, int min_gap)
{
	static const int mult[3] = {1, 2, 5};
	int64_t p = 1;

	if (width < 1)
		width = 1;
	for (;;) {
		for (int i = 0; i < 3; i++) {
			int64_t step = p * mult[i];
			/* columns between ticks = step * width / span */
			if ((__int128)step * width >= (__int128)span * min_gap)
				return step;
		}
		if (p > INT64_MAX / 10)
			return p;
		p *= 10;
	}
}

static const char *unit_name(int64_t unit, int utf8)
{
	switch (unit) {
	case 1: return "ns";
	case 1000: return utf8 ? "\xc2\xb5s" : "us";
	case 1000000: return "ms";
	default: return "s";
	}
}

static int64_t unit_for(int64_t mag)
{
	if (mag >= 1000000000)
		return 1000000000;
	if (mag >= 1000000)
		return 1000000;
	if (mag >= 1000)
		return 1000;
	return 1;
}

/* Writes |ns| / unit with `dec` decimals (truncated, exact integer math),
 * trailing zeros dropped, then the unit name. */
static void put(int64_t ns, int64_t unit, int dec, int utf8, char *buf, size_t n)
{
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	uint64_t ip = a / (uint64_t)unit, fp = a % (uint64_t)unit;
	char frac[24] = "";
	int ud = 0;

	for (int64_t u = unit; u > 1; u /= 10)
		ud++; /* digits of the unit's fraction */
	if (ud > 18) /* (an int64 unit has at most 18: said for the compiler) */
		ud = 18;
	if (dec > ud)
		dec = ud;
	if (dec > 0) {
		char all[20];
		/* ud <= 18 digits: write them by hand, most significant first */
		uint64_t f = fp;
		for (int i = ud - 1; i >= 0; i--) {
			all[i] = (char)('0' + f % 10);
			f /= 10;
		}
		all[ud] = 0;
		all[dec] = 0;
		int len = dec;
		while (len > 0 && all[len - 1] == '0')
			all[--len] = 0;
		if (len > 0)
			snprintf(frac, sizeof frac, ".%.9s", all);
	}
	snprintf(buf, n, "%s%llu%s%s", ns < 0 ? "-" : "", (unsigned long long)ip, frac,
		 unit_name(unit, utf8));
}

void tt_timefmt_label(int64_t t, int64_t step, int utf8, char *buf, size_t n)
{
	int64_t mag = t < 0 ? tt_tm_sub(0, t) : t;
	int64_t unit;
	int dec = 0;

	if (t == 0) {
		snprintf(buf, n, "0");
		return;
	}
	unit = unit_for(mag > step ? mag : step);
	for (int64_t s = step; s < unit && dec < 9; s *= 10)
		dec++;
	put(t, unit, dec, utf8, buf, n);
}

void tt_timefmt_exact(int64_t ns, int utf8, char *buf, size_t n)
{
	tt_dur_text(ns, utf8, buf, n);
}

void tt_timefmt_short(int64_t ns, int utf8, char *buf, size_t n)
{
	int64_t mag = ns < 0 ? tt_tm_sub(0, ns) : ns;
	int64_t unit = unit_for(mag);
	int dec = mag / unit >= 100 ? 0 : mag / unit >= 10 ? 1 : 2;

	put(ns, unit, dec, utf8, buf, n);
}

int tt_timefmt_parse(const char *s, int64_t *ns)
{
	char *end;
	double v;
	int64_t unit = 1;

	while (*s == ' ')
		s++;
	if (*s == '+')
		s++;
	if (!*s)
		return -1;
	v = strtod(s, &end);
	if (end == s)
		return -1;
	while (*end == ' ')
		end++;
	if (!strcmp(end, "") || !strcmp(end, "ns"))
		unit = 1;
	else if (!strcmp(end, "us") || !strcmp(end, "\xc2\xb5s"))
		unit = 1000;
	else if (!strcmp(end, "ms"))
		unit = 1000000;
	else if (!strcmp(end, "s"))
		unit = 1000000000;
	else
		return -1;
	v *= (double)unit;
	if (v > 9.2e18 || v < -9.2e18)
		return -1;
	*ns = (int64_t)(v < 0 ? v - 0.5 : v + 0.5);
	return 0;
}
