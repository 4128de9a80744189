/*
 * textfile.c - whole small text files (SQL scripts, metric files, themes,
 * the config file) read into one NUL-terminated buffer. See termtrace.h.
 */
#include <stdio.h>
#include <stdlib.h>

#include "termtrace.h"

char *tt_text_read(FILE *f, size_t max, size_t *len_out)
{
	size_t len = 0, cap = 8192;
	char *buf = malloc(cap);

	while (buf) {
		size_t want = cap - len - 1, n;

		if (max && want > max - len)
			want = max - len;
		n = want ? fread(buf + len, 1, want, f) : 0;
		len += n;
		if (n == 0 || (max && len >= max))
			break;
		if (cap - len < 2) {
			char *nb = realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
	}
	if (!buf)
		return NULL;
	buf[len] = '\0';
	if (len_out)
		*len_out = len;
	return buf;
}

char *tt_text_load(const char *path, size_t max, size_t *len_out)
{
	FILE *f = fopen(path, "r");
	char *text;

	if (!f)
		return NULL;
	text = tt_text_read(f, max, len_out);
	fclose(f);
	return text;
}
