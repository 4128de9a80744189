/*
 * fuzz_theme.c - libFuzzer target: a theme file (tui/theme.h) parsed by
 * tt_theme_parse over the built-in dark theme; every warning is read and
 * the resulting entries are checked against the ranges renderers rely on.
 * Dictionary: theme.dict.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "theme.h"

static void warn(void *ctx, const char *msg)
{
	*(size_t *)ctx += strlen(msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tt_theme th;
	size_t wlen = 0;
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	memset(&th, 0, sizeof(th));
	tt_theme_parse(&th, tt_theme_dark_text, "dark", NULL, NULL);
	tt_theme_parse(&th, text, "fuzz.theme", warn, &wlen);
	for (int a = 0; a < TT_AREA_COUNT; a++) {
		/* Renderers index ncurses colour tables with these. */
		if (th.e[a].fg < -1 || th.e[a].fg > 255 || th.e[a].bg < -1 || th.e[a].bg > 255)
			abort();
	}
	free(text);
	return 0;
}
