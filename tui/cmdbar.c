/*
 * cmdbar.c - line editing and history for the command bar (see cmdbar.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <curses.h>

#include "cmdbar.h"

void tt_cmdbar_open(tt_cmdbar *cb, char prompt)
{
	cb->prompt = prompt;
	cb->buf[0] = 0;
	cb->len = cb->pos = 0;
	cb->hpos = cb->nhist;
	cb->saved[0] = 0;
}

static void set_line(tt_cmdbar *cb, const char *s)
{
	snprintf(cb->buf, sizeof cb->buf, "%s", s);
	cb->len = cb->pos = strlen(cb->buf);
}

/* UTF-8: step over continuation bytes so the edit point stays on a
 * character boundary. */
static size_t prev_char(const tt_cmdbar *cb, size_t p)
{
	if (p == 0)
		return 0;
	p--;
	while (p > 0 && ((unsigned char)cb->buf[p] & 0xc0) == 0x80)
		p--;
	return p;
}

static size_t next_char(const tt_cmdbar *cb, size_t p)
{
	if (p >= cb->len)
		return cb->len;
	p++;
	while (p < cb->len && ((unsigned char)cb->buf[p] & 0xc0) == 0x80)
		p++;
	return p;
}

static void delete_range(tt_cmdbar *cb, size_t a, size_t b)
{
	memmove(cb->buf + a, cb->buf + b, cb->len - b + 1);
	cb->len -= b - a;
	cb->pos = a;
}

int tt_cmdbar_key(tt_cmdbar *cb, int key)
{
	switch (key) {
	case '\n': case '\r': case KEY_ENTER:
		return TT_CB_SUBMIT;
	case 27: case 3: /* Esc, C-c */
		return TT_CB_CANCEL;
	case KEY_LEFT: case 2:
		cb->pos = prev_char(cb, cb->pos);
		break;
	case KEY_RIGHT: case 6:
		cb->pos = next_char(cb, cb->pos);
		break;
	case KEY_HOME: case 1:
		cb->pos = 0;
		break;
	case KEY_END: case 5:
		cb->pos = cb->len;
		break;
	case KEY_BACKSPACE: case 127: case 8:
		if (cb->pos == 0 && cb->len == 0)
			return TT_CB_CANCEL; /* like vim: backspace on empty leaves */
		if (cb->pos > 0)
			delete_range(cb, prev_char(cb, cb->pos), cb->pos);
		break;
	case KEY_DC: case 4:
		if (cb->pos < cb->len)
			delete_range(cb, cb->pos, next_char(cb, cb->pos));
		break;
	case 21: /* C-u */
		delete_range(cb, 0, cb->pos);
		break;
	case 11: /* C-k */
		cb->buf[cb->pos] = 0;
		cb->len = cb->pos;
		break;
	case 23: { /* C-w: the word before the point */
		size_t p = cb->pos;
		while (p > 0 && cb->buf[p - 1] == ' ')
			p--;
		while (p > 0 && cb->buf[p - 1] != ' ')
			p--;
		delete_range(cb, p, cb->pos);
		break;
	}
	case KEY_UP: case 16:
		if (cb->hpos > 0) {
			if (cb->hpos == cb->nhist)
				snprintf(cb->saved, sizeof cb->saved, "%s", cb->buf);
			cb->hpos--;
			set_line(cb, cb->hist[cb->hpos]);
		}
		break;
	case KEY_DOWN: case 14:
		if (cb->hpos < cb->nhist) {
			cb->hpos++;
			set_line(cb, cb->hpos == cb->nhist ? cb->saved : cb->hist[cb->hpos]);
		}
		break;
	default:
		if (key >= 32 && key < 256 && key != 127 && cb->len + 1 < sizeof cb->buf) {
			memmove(cb->buf + cb->pos + 1, cb->buf + cb->pos, cb->len - cb->pos + 1);
			cb->buf[cb->pos++] = (char)key;
			cb->len++;
		}
		break;
	}
	return TT_CB_EDIT;
}

void tt_cmdbar_remember(tt_cmdbar *cb, const char *line)
{
	char *copy, **h;

	if (!*line || (cb->nhist > 0 && !strcmp(cb->hist[cb->nhist - 1], line)))
		return;
	copy = strdup(line);
	if (!copy)
		return;
	if (cb->nhist == TT_HISTORY_MAX) {
		free(cb->hist[0]);
		memmove(cb->hist, cb->hist + 1, (size_t)(cb->nhist - 1) * sizeof *cb->hist);
		cb->nhist--;
	}
	h = realloc(cb->hist, (size_t)(cb->nhist + 1) * sizeof *h);
	if (!h) {
		free(copy);
		return;
	}
	cb->hist = h;
	cb->hist[cb->nhist++] = copy;
	cb->hpos = cb->nhist;
}

const char *tt_cmdbar_history_path(void)
{
	static char path[1024];
	const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");

	if (xdg && *xdg)
		snprintf(path, sizeof path, "%s/termtrace/history", xdg);
	else
		snprintf(path, sizeof path, "%s/.local/state/termtrace/history", home ? home : ".");
	return path;
}

void tt_cmdbar_load(tt_cmdbar *cb, const char *path)
{
	char line[TT_CMDBAR_MAX];
	FILE *f = fopen(path ? path : tt_cmdbar_history_path(), "r");

	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = 0;
		tt_cmdbar_remember(cb, line);
	}
	fclose(f);
	cb->hpos = cb->nhist;
}

/* mkdir -p of the folder holding path. */
static void make_parent(const char *path)
{
	char dir[1024];

	snprintf(dir, sizeof dir, "%s", path);
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(dir, 0700) != 0 && errno != EEXIST)
			return;
		*p = '/';
	}
}

void tt_cmdbar_save_line(const char *path, const char *line)
{
	FILE *f;

	if (!path)
		path = tt_cmdbar_history_path();
	make_parent(path);
	f = fopen(path, "a");
	if (!f)
		return; /* history is a convenience: a read-only home is fine */
	fprintf(f, "%s\n", line);
	fclose(f);
}

void tt_cmdbar_free(tt_cmdbar *cb)
{
	for (int i = 0; i < cb->nhist; i++)
		free(cb->hist[i]);
	free(cb->hist);
	cb->hist = NULL;
	cb->nhist = cb->hpos = 0;
}
