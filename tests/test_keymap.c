/*
 * test_keymap.c - the 4-word hash map (core/keymap.c): lookups after
 * growth, replacing, and removal, whose backward shift must leave every
 * other key reachable, runs that wrap past the table's end included.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "keymap.h"

static uint64_t rng_state = 2463534242ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Random inserts and removals against a plain array of what is in the
 * map: after each round every key answers as the array says, and n is
 * the count of live keys. Few distinct keys and a small table make long
 * runs that wrap around. */
static void test_del_against_model(void **state)
{
	enum { KEYS = 200, OPS = 20000 };
	uint32_t model[KEYS];
	tt_keymap m = { 0 };
	size_t live = 0;

	(void)state;
	for (size_t k = 0; k < KEYS; k++)
		model[k] = TT_KEYMAP_NONE;
	for (size_t op = 0; op < OPS; op++) {
		size_t k = (size_t)(rng() % KEYS);

		if (rng() % 3) {
			uint32_t v = (uint32_t)(rng() % 1000000);

			assert_int_equal(tt_keymap_put(&m, k, k * 7, 0, 1, v), 0);
			if (model[k] == TT_KEYMAP_NONE)
				live++;
			model[k] = v;
		} else {
			tt_keymap_del(&m, k, k * 7, 0, 1);
			if (model[k] != TT_KEYMAP_NONE)
				live--;
			model[k] = TT_KEYMAP_NONE;
		}
		if (op % 97 == 0)
			for (size_t j = 0; j < KEYS; j++)
				assert_int_equal(tt_keymap_get(&m, j, j * 7, 0, 1), model[j]);
		assert_int_equal(m.n, live);
	}
	for (size_t j = 0; j < KEYS; j++)
		assert_int_equal(tt_keymap_get(&m, j, j * 7, 0, 1), model[j]);
	tt_keymap_free(&m);
}

/* Removing everything empties the table; removing an absent key, or
 * from a map never used, changes nothing. */
static void test_del_all(void **state)
{
	tt_keymap m = { 0 };

	(void)state;
	tt_keymap_del(&m, 1, 2, 3, 4);
	assert_int_equal(m.n, 0);
	for (uint64_t k = 0; k < 1000; k++)
		assert_int_equal(tt_keymap_put(&m, k, 0, 0, 0, (uint32_t)k), 0);
	tt_keymap_del(&m, 5000, 0, 0, 0);
	assert_int_equal(m.n, 1000);
	for (uint64_t k = 0; k < 1000; k += 2)
		tt_keymap_del(&m, k, 0, 0, 0);
	assert_int_equal(m.n, 500);
	for (uint64_t k = 0; k < 1000; k++)
		assert_int_equal(tt_keymap_get(&m, k, 0, 0, 0), k % 2 ? (uint32_t)k : TT_KEYMAP_NONE);
	for (uint64_t k = 1; k < 1000; k += 2)
		tt_keymap_del(&m, k, 0, 0, 0);
	assert_int_equal(m.n, 0);
	for (size_t i = 0; i < m.cap; i++)
		assert_int_equal(m.vals[i], TT_KEYMAP_NONE);
	tt_keymap_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_del_against_model),
		cmocka_unit_test(test_del_all),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
