/* confline.c - see confline.h. */
#include "confline.h"

#include <stdio.h>
#include <string.h>

void tt_confline_init(tt_confline *c, const char *text, const char *path)
{
	c->p = text ? text : "";
	c->path = path;
	c->lineno = 0;
}

int tt_confline_next(tt_confline *c)
{
	size_t len;
	char *save = NULL;
	int nw = 0;

	if (!*c->p)
		return -1;
	len = strcspn(c->p, "\n");
	c->lineno++;
	if (len >= sizeof c->buf)
		len = sizeof c->buf - 1;
	memcpy(c->buf, c->p, len);
	c->buf[len] = '\0';
	c->p += strcspn(c->p, "\n");
	if (*c->p)
		c->p++;
	for (char *t = strtok_r(c->buf, " \t\r", &save); t && nw < TT_CONFLINE_WORDS;
	     t = strtok_r(NULL, " \t\r", &save))
		c->w[nw++] = t;
	return nw;
}

void tt_confline_warn(const tt_confline *c, tt_confline_warn_fn warn, void *ctx, const char *fmt,
		      const char *arg)
{
	char msg[600], what[400];

	if (!warn)
		return;
	snprintf(what, sizeof what, fmt, arg);
	snprintf(msg, sizeof msg, "%s:%d: %s", c->path, c->lineno, what);
	warn(ctx, msg);
}
