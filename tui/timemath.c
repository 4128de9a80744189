/*
 * timemath.c - saturating time arithmetic (see timemath.h). The compiler's
 * checked builtins do the overflow test; the result is pinned to the limit
 * on the side the exact value went.
 */
#include "timemath.h"

static int64_t sat128(__int128 v)
{
	if (v > INT64_MAX)
		return INT64_MAX;
	if (v < INT64_MIN)
		return INT64_MIN;
	return (int64_t)v;
}

int64_t tt_tm_add(int64_t a, int64_t b)
{
	int64_t r;

	if (!__builtin_add_overflow(a, b, &r))
		return r;
	return b > 0 ? INT64_MAX : INT64_MIN;
}

int64_t tt_tm_sub(int64_t a, int64_t b)
{
	int64_t r;

	if (!__builtin_sub_overflow(a, b, &r))
		return r;
	return b < 0 ? INT64_MAX : INT64_MIN;
}

int64_t tt_tm_mul(int64_t a, int64_t k)
{
	int64_t r;

	if (!__builtin_mul_overflow(a, k, &r))
		return r;
	return (a < 0) != (k < 0) ? INT64_MIN : INT64_MAX;
}

int64_t tt_tm_scale(int64_t a, int64_t num, int64_t den)
{
	if (den == 0)
		return a;
	/* |a * num| < 2^126: the product fits; only the quotient may not
	 * (INT64_MIN * -1 / 1) */
	return sat128((__int128)a * num / den);
}

int64_t tt_tm_mid(int64_t a, int64_t b)
{
	__int128 s = (__int128)a + b;

	return (int64_t)(s >= 0 ? s / 2 : (s - 1) / 2);
}

int64_t tt_tm_clamp(int64_t t, int64_t lo, int64_t hi)
{
	if (t > hi)
		t = hi;
	if (t < lo)
		t = lo;
	return t;
}

int64_t tt_tm_end(int64_t ts, int64_t dur)
{
	return dur > 0 ? tt_tm_add(ts, dur) : ts;
}

int64_t tt_tm_len(int64_t a, int64_t b)
{
	return b <= a ? 0 : sat128((__int128)b - a);
}

int64_t tt_tm_floordiv(int64_t a, int64_t den)
{
	int64_t q = a / den;

	if (a % den != 0 && a < 0)
		q--;
	return q;
}
