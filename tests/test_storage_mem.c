/*
 * test_storage_mem.c - the storage's column memory (core/storage_mem.c):
 * contents kept across growth from a malloc'd block to a mapping and
 * across shrinking, alignment, and a failed (absurd) resize leaving the
 * column valid.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "storage_mem.h"

/* Grows by half from 64 rows to 4M rows (32 MB: through the mapping
 * threshold), writing each new row, then checks every row. */
static void test_grow_keeps_rows(void **state)
{
	size_t cap = 0, n = 4u << 20;
	int64_t *col = NULL;

	(void)state;
	for (size_t i = 0; i < n; i++) {
		if (i == cap) {
			int64_t *nc;

			cap = cap ? cap + cap / 2 : 64;
			nc = tt_colmem_resize(col, cap * sizeof(*col));
			assert_non_null(nc);
			assert_int_equal((uintptr_t)nc % 16, 0);
			col = nc;
		}
		col[i] = (int64_t)(i * 2654435761u);
	}
	for (size_t i = 0; i < n; i++)
		if (col[i] != (int64_t)(i * 2654435761u))
			fail_msg("row %zu: %lld", i, (long long)col[i]);
	tt_colmem_free(col);
}

/* Shrinking to the rows (finalize) keeps them, big or small. */
static void test_shrink_keeps_rows(void **state)
{
	static const size_t sizes[] = { 10, 5000, 300000 };

	(void)state;
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t n = sizes[k];
		uint32_t *col = tt_colmem_resize(NULL, 2 * n * sizeof(*col));

		assert_non_null(col);
		for (size_t i = 0; i < n; i++)
			col[i] = (uint32_t)(i ^ 0x5a5a5a5a);
		col = tt_colmem_resize(col, n * sizeof(*col));
		assert_non_null(col);
		for (size_t i = 0; i < n; i++)
			assert_int_equal(col[i], (uint32_t)(i ^ 0x5a5a5a5a));
		tt_colmem_free(col);
	}
}

static void test_failure_keeps_column(void **state)
{
	uint8_t *col = tt_colmem_resize(NULL, 1000);

	(void)state;
	assert_non_null(col);
	col[999] = 7;
	assert_null(tt_colmem_resize(col, SIZE_MAX - 8));
	assert_int_equal(col[999], 7);
	tt_colmem_free(col);
	tt_colmem_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grow_keeps_rows),
		cmocka_unit_test(test_shrink_keeps_rows),
		cmocka_unit_test(test_failure_keeps_column),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
