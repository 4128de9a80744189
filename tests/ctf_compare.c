/*
 * ctf_compare.c - included by the CTF tests: termtrace's events as the
 * lines tests/ctf_ref.py makes of babeltrace2's output (ts, name, cpu,
 * tid, pid, fields), and babeltrace2 run live on a folder through
 * ctf_ref.py, so a test compares every event and every field with the
 * reference without a copy of the expected output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct lines {
	char **v;
	size_t n, cap;
} lines;

static void lines_add(lines *l, const char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 1024;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		assert_non_null(l->v);
	}
	l->v[l->n] = strdup(s);
	assert_non_null(l->v[l->n]);
	l->n++;
}

static void lines_free(lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends `key=value` of one args row, formatted like tests/ctf_ref.py. */
static void fmt_arg(char *dst, size_t cap, char **row)
{
	const char *key = row[1], *iv = row[2], *sv = row[3], *rv = row[4], *type = row[5];
	size_t n = strlen(dst);

	if (n && n + 1 < cap)
		dst[n++] = ';';
	if (!strcmp(type, "uint"))
		snprintf(dst + n, cap - n, "%s=%llu", key, (unsigned long long)strtoll(iv, NULL, 10));
	else if (!strcmp(type, "real"))
		snprintf(dst + n, cap - n, "%s=%g", key, strtod(rv, NULL));
	else if (!strcmp(type, "string"))
		snprintf(dst + n, cap - n, "%s=%s", key, sv ? sv : "");
	else
		snprintf(dst + n, cap - n, "%s=%s", key, iv ? iv : "NULL");
}

/* termtrace's view of every event, one line each like ctf_ref.py's. */
static void dump_events(tt_trace *tr, lines *out)
{
	tt_result ev, args;
	tt_err err = { 0 };
	char **sets = NULL;
	size_t nsets = 0, i;
	char line[65536];

	assert_int_equal(tt_query_collect(tr,
		"select arg_set_id, key, int_value, string_value, real_value, value_type "
		"from args order by id", 0, &args, &err), 0);
	for (i = 0; i < args.nrows; i++) {
		char **row = args.cells + i * 6;
		size_t set = (size_t)strtoull(row[0], NULL, 10);

		if (set >= nsets) {
			size_t nn = set + 1;

			sets = realloc(sets, nn * sizeof(*sets));
			assert_non_null(sets);
			for (size_t k = nsets; k < nn; k++)
				sets[k] = NULL;
			nsets = nn;
		}
		if (!sets[set]) {
			sets[set] = calloc(1, 65536);
			assert_non_null(sets[set]);
		}
		fmt_arg(sets[set], 65536, row);
	}
	assert_int_equal(tt_query_collect(tr,
		"select r.ts, r.name, ifnull(r.cpu, -1), ifnull(t.tid, -1), ifnull(p.pid, -1), r.arg_set_id "
		"from raw r left join thread t on t.utid = r.utid left join process p on p.upid = t.upid "
		"order by r.id", 0, &ev, &err), 0);
	for (i = 0; i < ev.nrows; i++) {
		char **row = ev.cells + i * 6;
		const char *f = "";

		if (row[5]) {
			size_t set = (size_t)strtoull(row[5], NULL, 10);

			if (set < nsets && sets[set])
				f = sets[set];
		}
		snprintf(line, sizeof(line), "%s\t%s\t%s\t%s\t%s\t%s", row[0], row[1], row[2], row[3],
			 row[4], f);
		lines_add(out, line);
	}
	for (i = 0; i < nsets; i++)
		free(sets[i]);
	free(sets);
	tt_result_free(&ev);
	tt_result_free(&args);
}

/* babeltrace2's events of dir (host testhost, as tests/ctf_writer.c writes), through tests/ctf_ref.py. */
static __attribute__((unused)) void bt2_expect(const char *dir, lines *out)
{
	char cmd[8192], buf[65536];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "babeltrace2 --clock-seconds '%s' 2>/dev/null | python3 '%s/tests/ctf_ref.py' --host testhost",
		 dir, tt_test_srcdir());
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(buf, sizeof(buf), p)) {
		size_t n = strlen(buf);

		if (n && buf[n - 1] == '\n')
			buf[n - 1] = '\0';
		lines_add(out, buf);
	}
	pclose(p);
}

/* Asserts that tr's events equal the lines in want (sorted sets). */
static void same_events(const char *what, tt_trace *tr, lines *want)
{
	lines got = { 0 };
	size_t i, bad = 0;

	dump_events(tr, &got);
	qsort(got.v, got.n, sizeof(*got.v), cmp_line);
	qsort(want->v, want->n, sizeof(*want->v), cmp_line);
	if (got.n != want->n)
		print_error("%s: termtrace %zu events, babeltrace2 %zu\n", what, got.n, want->n);
	for (i = 0; i < got.n && i < want->n; i++) {
		if (strcmp(got.v[i], want->v[i])) {
			if (bad++ < 3)
				print_error("%s: line %zu\n  termtrace:   %.400s\n  babeltrace2: %.400s\n", what,
					    i, got.v[i], want->v[i]);
		}
	}
	assert_int_equal(got.n, want->n);
	assert_int_equal(bad, 0);
	lines_free(&got);
}
