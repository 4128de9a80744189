/*
 * fuzz_systrace.c - libFuzzer target: ftrace text (systrace / atrace
 * output, a JSON trace's systemTraceEvents) line by line through the
 * column reader (core/import/systrace/systrace_line.c), whose columns must
 * lie inside the line, then the kept lines parsed in ts order into a
 * fresh import's trackers (systrace.c, the atrace tracker), which is
 * then finalized. Dictionary: systrace.dict.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "import_int.h"
#include "systrace.h"
#include "systrace_line.h"

struct kept {
	int64_t ts;
	uint32_t idx;
};

static int by_ts(const void *a, const void *b)
{
	const struct kept *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Each column within [line, line + len). */
static void check_cols(const char *line, size_t len)
{
	tt_systrace_line l;

	if (tt_systrace_line_read(line, len, &l))
		return;
#define INSIDE(p, n) if ((p) < line || (p) + (n) > line + len) abort()
	INSIDE(l.task, l.task_len);
	INSIDE(l.tgid, l.tgid_len);
	INSIDE(l.event, l.event_len);
	INSIDE(l.args, l.args_len);
	if (l.event_len == 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	tt_err err = { 0 };
	tt_storage *st = tt_storage_new();
	tt_import im = { .st = st, .path = "fuzz-input", .err = &err };
	tt_systrace *sys = NULL;
	struct kept *k = calloc(size + 1, sizeof(*k));
	size_t nk = 0, i = 0;

	if (!st || !k || tt_import_begin(&im))
		goto out;
	if (!(sys = tt_systrace_new(&im)))
		goto end;
	while (i < size) {
		const char *nl = memchr(s + i, '\n', size - i);
		size_t n = nl ? (size_t)(nl - (s + i)) : size - i;
		int64_t ts;
		uint32_t idx;

		check_cols(s + i, n);
		if (tt_systrace_add(sys, s + i, n, &ts, &idx) == TT_SYSTRACE_KEPT)
			k[nk++] = (struct kept){ ts, idx };
		i += n + 1;
	}
	qsort(k, nk, sizeof(*k), by_ts);
	for (i = 0; i < nk; i++)
		if (tt_systrace_parse(sys, k[i].idx))
			break;
	tt_systrace_free(sys);
end:
	tt_import_end(&im);
	tt_storage_finalize(st);
out:
	tt_storage_free(st);
	free(k);
	return 0;
}
