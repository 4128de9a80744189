/*
 * confline.h - the line-based text files of the viewer (the config file
 * with its key bindings, theme files): the next line as blank-separated
 * words, and warnings "path:line: message" (style rule 7). Comments are
 * the caller's business: each format has its own rule for '#'.
 */
#ifndef TT_CONFLINE_H
#define TT_CONFLINE_H

typedef void (*tt_confline_warn_fn)(void *ctx, const char *msg);

#define TT_CONFLINE_WORDS 16

typedef struct tt_confline {
	const char *p;    /* the rest of the text */
	const char *path; /* for warnings */
	int lineno;       /* of the line last returned */
	char buf[512];    /* the line (longer lines are cut) */
	char *w[TT_CONFLINE_WORDS];
} tt_confline;

void tt_confline_init(tt_confline *c, const char *text, const char *path);
/* Splits the next line into c->w; returns the number of words (0 for a
 * blank line), or -1 after the last line. */
int tt_confline_next(tt_confline *c);
/* Warns "path:line: " fmt (with one %s taking arg) through warn, if any. */
void tt_confline_warn(const tt_confline *c, tt_confline_warn_fn warn, void *ctx, const char *fmt,
		      const char *arg);

#endif
