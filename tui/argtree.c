/*
 * argtree.c - a slice's args as a tree for the details panel (see
 * argtree.h). The core gives flat keys ("chrome_task_annotator.delay_policy",
 * "debug.data.frame"); the panel shows them as Perfetto's UI does: one
 * line per path component, children indented under their parent, the
 * leaf with its value. Keys are never cut here: the drawing decides how
 * a long key and its value share the width.
 */
#include <stdlib.h>
#include <string.h>

#include "argtree.h"

typedef struct arg_list {
	char **keys, **vals;
	size_t n, cap;
	int oom;
} arg_list;

static void add_arg(void *ctx, const char *key, const char *value)
{
	arg_list *l = ctx;

	if (l->oom)
		return;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		char **k = realloc(l->keys, cap * sizeof *k);
		if (!k) {
			l->oom = 1;
			return;
		}
		l->keys = k;
		char **v = realloc(l->vals, cap * sizeof *v);
		if (!v) {
			l->oom = 1;
			return;
		}
		l->vals = v;
		l->cap = cap;
	}
	l->keys[l->n] = strdup(key);
	l->vals[l->n] = strdup(value ? value : "");
	if (!l->keys[l->n] || !l->vals[l->n]) {
		free(l->keys[l->n]);
		free(l->vals[l->n]);
		l->oom = 1;
		return;
	}
	l->n++;
}

/* Length of the first `parts` dot-separated components of key. */
static size_t prefix_len(const char *key, int parts)
{
	const char *p = key;

	for (int i = 0; i < parts; i++) {
		p = strchr(p, '.');
		if (!p)
			return strlen(key);
		if (i + 1 < parts)
			p++;
	}
	return (size_t)(p - key);
}

static int count_parts(const char *key)
{
	int n = 1;

	for (const char *p = key; *p; p++)
		n += *p == '.';
	return n;
}

/* Components shared by a and b (whole components only). */
static int common_parts(const char *a, const char *b)
{
	int n = 0;

	for (size_t i = 0;; i++) {
		if (a[i] != b[i])
			return n;
		if (a[i] == 0)
			return n + 1;
		if (a[i] == '.')
			n++;
	}
}

void tt_argtree_lines(const tt_trace *tr, uint32_t arg_set_id, tt_argtree_fn fn, void *ctx)
{
	arg_list l = {0};
	char line[512];

	tt_trace_args(tr, arg_set_id, add_arg, &l);
	for (size_t i = 0; i < l.n; i++) {
		const char *key = l.keys[i];
		int parts = count_parts(key);
		/* a key that is itself a prefix ("a" then "a.b") stays a leaf */
		int shared = i > 0 ? common_parts(l.keys[i - 1], key) : 0;
		if (shared >= parts)
			shared = parts - 1;
		for (int d = shared; d < parts; d++) {
			size_t from = d ? prefix_len(key, d) + 1 : 0;
			size_t to = d + 1 < parts ? prefix_len(key, d + 1) : strlen(key);
			int indent = 2 + 2 * d;
			int len = (int)(to - from);
			if (len > (int)sizeof line - indent - 1)
				len = (int)sizeof line - indent - 1;
			memset(line, ' ', (size_t)indent);
			memcpy(line + indent, key + from, (size_t)len);
			line[indent + len] = 0;
			fn(ctx, line, d + 1 < parts ? NULL : l.vals[i]);
		}
	}
	for (size_t i = 0; i < l.n; i++) {
		free(l.keys[i]);
		free(l.vals[i]);
	}
	free(l.keys);
	free(l.vals);
	if (l.oom)
		fn(ctx, "  (out of memory: some args are missing)", NULL);
}
