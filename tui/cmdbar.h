/*
 * cmdbar.h - the one-line editor of the command bar (`:`) and the search
 * prompt (`/`), with a history that persists in
 * $XDG_STATE_HOME/termtrace/history (or ~/.local/state/termtrace/history).
 * The editing state machine is pure (tt_cmdbar_key) and unit-tested; the
 * caller draws tt_cmdbar text itself.
 */
#ifndef TT_CMDBAR_H
#define TT_CMDBAR_H

#include <stddef.h>

#define TT_CMDBAR_MAX 1024
#define TT_HISTORY_MAX 500

typedef struct tt_cmdbar {
	char prompt;               /* ':' or '/' */
	char buf[TT_CMDBAR_MAX];
	size_t len, pos;           /* bytes; pos is the edit point */
	char **hist;               /* oldest first */
	int nhist;
	int hpos;                  /* nhist = the line being typed */
	char saved[TT_CMDBAR_MAX]; /* the typed line while walking history */
} tt_cmdbar;

enum { TT_CB_EDIT, TT_CB_SUBMIT, TT_CB_CANCEL };

/* Starts editing an empty line. */
void tt_cmdbar_open(tt_cmdbar *cb, char prompt);
/* Feeds one key (ncurses code); returns TT_CB_*. Up/Down walk the history,
 * Left/Right/Home/End/C-a/C-e move, Backspace/Delete/C-u/C-w edit,
 * Enter submits, Esc and C-c cancel (C-c on an empty line too). */
int tt_cmdbar_key(tt_cmdbar *cb, int key);
/* Adds a line to the in-memory history (no empty lines, no repeats of the
 * last one). */
void tt_cmdbar_remember(tt_cmdbar *cb, const char *line);
/* Loads / appends the history file; path NULL = the default location. */
void tt_cmdbar_load(tt_cmdbar *cb, const char *path);
void tt_cmdbar_save_line(const char *path, const char *line);
void tt_cmdbar_free(tt_cmdbar *cb);
/* The default history path (static buffer). */
const char *tt_cmdbar_history_path(void);

#endif
