/*
 * fuzz_describe.c - libFuzzer target: a description rule file
 * (docs/descriptions.md) parsed by tt_describe_rules_load_text and then
 * matched against every slice of a small fixed trace (nested slices,
 * args, categories, threads, processes), so that the compiled globs,
 * regexes, context conditions and template expansion all run on what the
 * parser made of the input. Dictionary: describe.dict.
 */
#include "fuzz_common.h"
#include "describe.h"

/* Slices with parents, args, categories and named threads/processes: the
 * context every rule condition and template field reads. */
static const char trace_json[] =
	"{\"traceEvents\":["
	"{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"com.example\"}},"
	"{\"ph\":\"M\",\"pid\":1,\"tid\":2,\"name\":\"thread_name\",\"args\":{\"name\":\"main\"}},"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":1,\"dur\":100,\"name\":\"Choreographer#doFrame 1\",\"cat\":\"gfx,view\"},"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":2,\"dur\":50,\"name\":\"traversal\",\"cat\":\"view\"},"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":3,\"dur\":20,\"name\":\"measure\",\"cat\":\"view\",\"args\":{\"data\":{\"url\":\"https://x/\",\"n\":3},\"alert_type\":\"error\"}},"
	"{\"ph\":\"B\",\"pid\":1,\"tid\":2,\"ts\":200,\"name\":\"RunTask\",\"cat\":\"toplevel\"},"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":3,\"ts\":5,\"dur\":0.5,\"name\":\"\",\"cat\":\"\"},"
	"{\"ph\":\"i\",\"pid\":1,\"tid\":3,\"ts\":7,\"s\":\"g\",\"name\":\"mark\"},"
	"{\"ph\":\"b\",\"pid\":1,\"tid\":3,\"ts\":8,\"id\":\"0x1\",\"name\":\"async\",\"cat\":\"net\"},"
	"{\"ph\":\"e\",\"pid\":1,\"tid\":3,\"ts\":9000000,\"id\":\"0x1\",\"name\":\"async\",\"cat\":\"net\"}"
	"]}";

static tt_storage *st;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	tt_err err = { 0 };
	tt_bytesrc *src = tt_bytesrc_mem(trace_json, sizeof(trace_json) - 1);
	tt_import im = { .path = "fuzz-describe", .err = &err };

	(void)argc;
	(void)argv;
	st = tt_storage_new();
	im.st = st;
	if (tt_import_begin(&im))
		abort();
	if (tt_import_json(&im, src) != TT_OK)
		abort();
	tt_import_end(&im);
	tt_bytesrc_close(src);
	tt_storage_finalize(st);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tt_describe_rules *r = tt_describe_rules_new();
	char *text = malloc(size + 1);
	int64_t n = tt_storage_slice_count(st);

	if (!r || !text)
		goto done;
	memcpy(text, data, size);
	text[size] = 0;
	if (tt_describe_rules_load_text(r, "fuzz.rules", text, 1) != TT_OK)
		goto done;
	for (size_t i = 0; i < tt_describe_rules_warning_count(r); i++)
		(void)strlen(tt_describe_rules_warning(r, i));
	for (int target = 0; target < 2; target++) {
		int64_t end = target == TT_DESCRIBE_SLICE ? n : 8;

		for (int64_t id = -1; id <= end; id++) {
			struct tt_describe_hit hit;

			if (tt_describe_match(r, st, target, id, &hit) == 1) {
				(void)strlen(hit.desc);
				(void)strlen(hit.where);
			}
			free(hit.desc);
			free(hit.link);
		}
	}
	{
		size_t nr = tt_describe_rules_count(r);
		uint64_t *m = calloc(nr + 1, sizeof(*m)), *w = calloc(nr + 1, sizeof(*w));
		uint64_t *t = calloc(nr + 1, sizeof(*t));
		struct tt_describe_rule_info in;

		if (m && w && t)
			(void)tt_describe_rules_tally(r, st, -1, 0, m, w, t);
		if (m && w && t)
			(void)tt_describe_rules_tally(r, st, TT_DESCRIBE_SLICE, n / 2, m, w, t);
		for (size_t i = 0; i < nr; i++)
			(void)tt_describe_rule_info_get(r, i, &in);
		free(m);
		free(w);
		free(t);
	}
done:
	free(text);
	tt_describe_rules_unref(r);
	return 0;
}
