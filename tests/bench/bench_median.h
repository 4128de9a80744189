/*
 * bench_median.h - the median of a bench's repeated timings: this
 * machine's speed swings from run to run (a shared VM), so the benches
 * print the median of REPS runs with the fastest and slowest.
 */
#ifndef TT_BENCH_MEDIAN_H
#define TT_BENCH_MEDIAN_H

#include <stdlib.h>

#define REPS 5

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[0..n) (sorts v: v[0] and v[n-1] are then the fastest
 * and slowest). */
static inline double median_of(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), bench_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
