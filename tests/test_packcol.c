/*
 * test_packcol.c - the packed column (core/packcol.c): values read back
 * exactly whatever their spread (16-bit, 32-bit differences, whole
 * values), changes that widen a block, truncation and shrinking.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "packcol.h"

static uint64_t rng_state = 88172645463325252ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Values of every spread, in runs: close neighbours, 32-bit jumps,
 * anything, and ids with TT_NONE + 1 = 0 among them. */
static uint64_t value(size_t i, uint64_t prev)
{
	switch ((i / 100) % 4) {
	case 0: return prev + rng() % 200;
	case 1: return prev + (rng() % 3 == 0 ? rng() % 4000000000ull : 1);
	case 2: return rng();
	default: return rng() % 5 == 0 ? 0 : 3000000 + i;
	}
}

static void test_round_trip(void **state)
{
	const size_t n = 100000;
	uint64_t *ref = malloc(n * sizeof(*ref));
	tt_packcol c = { 0 };
	uint64_t prev = 0;

	(void)state;
	assert_non_null(ref);
	for (size_t i = 0; i < n; i++) {
		ref[i] = prev = value(i, prev);
		assert_int_equal(tt_packcol_push(&c, ref[i]), 0);
	}
	assert_int_equal(c.n, n);
	for (size_t i = 0; i < n; i++)
		assert_true(tt_packcol_get(&c, i) == ref[i]);
	/* changes: small, then ones that widen their block to 32, 64 bits */
	for (size_t k = 0; k < 3000; k++) {
		size_t i = rng() % n;
		uint64_t v = k % 3 == 0 ? ref[i] + 1 : k % 3 == 1 ? ref[i] + 100000 : rng();

		assert_int_equal(tt_packcol_set(&c, i, v), 0);
		ref[i] = v;
	}
	assert_int_not_equal(tt_packcol_set(&c, n, 1), 0);
	for (size_t i = 0; i < n; i++)
		assert_true(tt_packcol_get(&c, i) == ref[i]);
	/* truncate in mid-block and append again */
	tt_packcol_truncate(&c, n - 37);
	assert_int_equal(c.n, n - 37);
	for (size_t i = n - 37; i < n; i++) {
		ref[i] = i * 7;
		assert_int_equal(tt_packcol_push(&c, ref[i]), 0);
	}
	tt_packcol_shrink(&c);
	for (size_t i = 0; i < n; i++)
		assert_true(tt_packcol_get(&c, i) == ref[i]);
	tt_packcol_free(&c);
	free(ref);
}

/* Close values cost about 2 bytes each: no block is widened. */
static void test_compact(void **state)
{
	tt_packcol c = { 0 };

	(void)state;
	for (uint64_t i = 0; i < 64 * 1000; i++)
		assert_int_equal(tt_packcol_push(&c, (UINT64_C(1) << 40) + i * 300), 0);
	assert_int_equal(c.n32, 0);
	assert_int_equal(c.n64, 0);
	assert_true(tt_packcol_get(&c, 64 * 1000 - 1) == (UINT64_C(1) << 40) + (64 * 1000 - 1) * 300ull);
	tt_packcol_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_compact),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
