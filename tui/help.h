/*
 * help.h - the `?` screen, generated from the action table (keys.h) and
 * the current bindings, plus the command bar's commands, so that the help
 * always matches the behaviour.
 */
#ifndef TT_HELP_H
#define TT_HELP_H

#include "keys.h"

/* Calls fn for each help line (no '\n'). */
typedef void (*tt_help_line_fn)(void *ctx, const char *line);
void tt_help_lines(const tt_config *cfg, tt_help_line_fn fn, void *ctx);
/* Draws the help from line `scroll` into rows [0, h) of the current
 * screen; returns the number of lines (to clamp scrolling). */
int tt_help_draw(const tt_config *cfg, int scroll, int h, int cols);

#endif
