/*
 * test_hash.c - the hash of byte strings of the in-memory tables
 * (core/hash.h, tt_hash_bytes): every byte and the length count, in the
 * eight-byte steps and in each shape of the tail (the end of the last
 * eight, two overlapping loads of four, three bytes), so that a table
 * keyed by it does not put apart-looking keys on one probe chain.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "hash.h"

/* Changing any one byte of a string of 0-40 bytes changes its hash. */
static void test_every_byte_counts(void **state)
{
	unsigned char b[40];

	(void)state;
	for (size_t n = 1; n <= sizeof(b); n++) {
		for (size_t i = 0; i < n; i++)
			b[i] = (unsigned char)('a' + (i * 7 + n) % 26);
		uint64_t h = tt_hash_bytes(0, b, n);

		for (size_t i = 0; i < n; i++) {
			for (unsigned bit = 0; bit < 8; bit++) {
				b[i] ^= (unsigned char)(1u << bit);
				assert_true(tt_hash_bytes(0, b, n) != h);
				b[i] ^= (unsigned char)(1u << bit);
			}
		}
		assert_true(tt_hash_bytes(0, b, n) == h);
	}
}

/* Strings that differ only in length (zero bytes at the end) differ, and
 * so does the same string under another starting value. */
static void test_length_and_seed_count(void **state)
{
	static const unsigned char z[24];
	uint64_t seen[25];

	(void)state;
	for (size_t n = 0; n <= sizeof(z); n++) {
		seen[n] = tt_hash_bytes(0, z, n);
		for (size_t m = 0; m < n; m++)
			assert_true(seen[m] != seen[n]);
		assert_true(tt_hash_bytes(1, z, n) != seen[n]);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* All strings of 1-3 bytes over 32 letters (33,824 of them), and 40,000
 * of 5-7 bytes that share their middle: no two hashes alike. */
static void test_no_collisions(void **state)
{
	size_t cap = 32 + 32 * 32 + 32 * 32 * 32 + 40000, n = 0;
	uint64_t *h = malloc(cap * sizeof(*h));
	unsigned char b[8];

	(void)state;
	assert_non_null(h);
	for (size_t len = 1; len <= 3; len++) {
		size_t count = len == 1 ? 32 : len == 2 ? 32 * 32 : 32 * 32 * 32;

		for (size_t v = 0; v < count; v++) {
			for (size_t i = 0, x = v; i < len; i++, x /= 32)
				b[i] = (unsigned char)('0' + x % 32);
			h[n++] = tt_hash_bytes(0, b, len);
		}
	}
	for (size_t v = 0; v < 40000; v++) {
		size_t len = 5 + v % 3;

		memset(b, 'm', sizeof(b));
		b[0] = (unsigned char)(v / 3 % 200);
		b[len - 1] = (unsigned char)(v / 600 % 256);
		h[n++] = tt_hash_bytes(0, b, len);
	}
	assert_int_equal(n, cap);
	qsort(h, n, sizeof(*h), cmp_u64);
	for (size_t i = 1; i < n; i++)
		assert_true(h[i] != h[i - 1]);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_byte_counts),
		cmocka_unit_test(test_length_and_seed_count),
		cmocka_unit_test(test_no_collisions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
