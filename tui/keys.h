/*
 * keys.h - the viewer's actions, key names and the config language.
 *
 * Every action is one row of TT_ACTIONS (id, name, help text); the enum,
 * the `bind` name lookup and the `?` help screen are generated from it.
 * The default bindings are config text (tt_keys_default_config), parsed by
 * the same code as the user's $XDG_CONFIG_HOME/termtrace/config:
 *     bind KEY ACTION     # KEY: a character, C-x, Enter, Tab, Esc, Space,
 *                         # Up Down Left Right PgUp PgDn Home End F1..F12
 *     unbind KEY
 *     set theme NAME
 *     set details bottom|right|hidden
 * A bad line is a warning `path:line: message`; the other lines still
 * apply. Pure code: the key codes are ncurses' KEY_* numbers.
 */
#ifndef TT_KEYS_H
#define TT_KEYS_H

#include <stddef.h>

#define TT_ACTIONS(X) \
	X(QUIT, "quit", "quit termtrace") \
	X(HELP, "help", "show this help") \
	X(ZOOM_IN, "zoom-in", "zoom in around the cursor") \
	X(ZOOM_OUT, "zoom-out", "zoom out around the cursor") \
	X(PAN_LEFT, "pan-left", "move the view and cursor left") \
	X(PAN_RIGHT, "pan-right", "move the view and cursor right") \
	X(TRACK_UP, "track-up", "move to the previous track") \
	X(TRACK_DOWN, "track-down", "move to the next track") \
	X(PAGE_UP, "page-up", "scroll the tracks one page up") \
	X(PAGE_DOWN, "page-down", "scroll the tracks one page down") \
	X(FIRST_TRACK, "first-track", "move to the first track") \
	X(LAST_TRACK, "last-track", "move to the last track") \
	X(TRACE_START, "trace-start", "move the cursor to the trace start") \
	X(TRACE_END, "trace-end", "move the cursor to the trace end") \
	X(ZOOM_SELECTED, "zoom-selected", "zoom to the selected slice") \
	X(ZOOM_ALL, "zoom-all", "show the whole trace") \
	X(SELECT, "select", "select the slice under the cursor; open/close a process group") \
	X(TOGGLE_GROUP, "toggle-group", "open/close the process group of the cursor") \
	X(NEXT, "next", "next alert (when the trace has alerts), else next slice on the track") \
	X(PREV, "prev", "previous alert (when the trace has alerts), else previous slice") \
	X(NEXT_SLICE, "next-slice", "next slice on the track") \
	X(PREV_SLICE, "prev-slice", "previous slice on the track") \
	X(PARENT, "parent", "select the parent slice") \
	X(CHILD, "child", "select the first child slice") \
	X(NEXT_ALERT, "next-alert", "jump to the next alert") \
	X(SOURCE, "source", "jump to the slice an annotation came from (its source_slice_id)") \
	X(SEARCH, "search", "search slice names (smartcase; /@ args, /% threads, /N slice id)") \
	X(SEARCH_NEXT, "search-next", "next match in time") \
	X(SEARCH_PREV, "search-prev", "previous match in time") \
	X(COMMAND, "command", "open the command bar (SQL or a command)") \
	X(DETAILS, "details", "show/hide the details panel") \
	X(DETAILS_MOVE, "details-move", "put the details panel at the bottom or on the right") \
	X(DETAILS_GROW, "details-grow", "make the details panel bigger") \
	X(DETAILS_SHRINK, "details-shrink", "make the details panel smaller") \
	X(DETAILS_DOWN, "details-down", "scroll the details down") \
	X(DETAILS_UP, "details-up", "scroll the details up") \
	X(OPEN_LINK, "open-link", "open the description's doc link with $BROWSER") \
	X(COPY_LINK, "copy-link", "copy the doc link (OSC 52)") \
	X(PIN_TRACK, "pin-track", "pin the track of the cursor to the top (again: back to its group)") \
	X(HIDE_TRACK, "hide-track", "hide the track of the cursor (:show NAME|all brings it back)") \
	X(CLEAR, "clear", "clear the selection, time range and search") \
	X(REDRAW, "redraw", "redraw the screen") \
	X(FLOW_NEXT, "flow-next", "highlight the next flow of the selection (details panel)") \
	X(FLOW_PREV, "flow-prev", "highlight the previous flow of the selection") \
	X(FLOW_FOLLOW, "flow-follow", "jump to the other end of the highlighted flow") \
	X(FLOWS, "flows", "table of the selection's whole flow chain (direct and transitive)") \
	X(RANGE_START, "range-start", "start a time range at the cursor (moving extends it; Esc clears)") \
	X(RANGE_SCOPE, "range-scope", "range spans: all tracks, the process group, the current track") \
	X(AGGREGATE, "aggregate", "aggregation of the range by slice name (sortable table)") \
	X(AGG_THREADS, "aggregate-threads", "busy time of each thread in the range") \
	X(AGG_COUNTERS, "aggregate-counters", "min, max, mean, delta of each counter in the range") \
	X(CALLTREE, "calltree", "top-down call tree of the range (or of the selected slice)") \
	X(BOTTOMUP, "bottomup", "bottom-up call tree by self time") \
	X(FLAME, "flame", "flame graph of the range (or of the selected slice)") \
	X(PANEL, "tree-panel", "tree or flame graph beside the timeline; again: full screen") \
	X(MARK, "mark", "mark the selection, range or cursor time: m then a label key") \
	X(JUMP_MARK, "jump-mark", "go back to a mark: ' then its label") \
	X(MARKS, "marks", "table of the marks (Enter jumps)")

typedef enum tt_action {
	TT_ACT_NONE = 0,
#define X(id, name, help) TT_ACT_##id,
	TT_ACTIONS(X)
#undef X
	TT_ACT_COUNT
} tt_action;

const char *tt_action_name(int act);
const char *tt_action_help(int act);
int tt_action_lookup(const char *name); /* TT_ACT_NONE when unknown */

/* Key name <-> ncurses key code. Returns -1 for an unknown name. */
int tt_key_parse(const char *name);
/* Writes a key's name ("q", "C-c", "PgUp"). */
void tt_key_name(int key, char *buf, size_t n);

#define TT_MAX_BINDINGS 256

typedef enum tt_details_pos { TT_DETAILS_BOTTOM, TT_DETAILS_RIGHT, TT_DETAILS_HIDDEN } tt_details_pos;

typedef struct tt_config {
	int nbind;
	struct { int key, action; } bind[TT_MAX_BINDINGS];
	char theme[128];      /* "" = not set */
	int details;          /* tt_details_pos, -1 = not set */
} tt_config;

typedef void (*tt_config_warn_fn)(void *ctx, const char *msg);

extern const char tt_keys_default_config[];

/* Starts a config with the default bindings. */
void tt_config_init(tt_config *cfg);
/* Applies config text; returns the number of bad lines. */
int tt_config_parse(tt_config *cfg, const char *text, const char *path,
		    tt_config_warn_fn warn, void *ctx);
/* Reads $XDG_CONFIG_HOME/termtrace/config (or ~/.config/...) if it exists. */
int tt_config_load_user(tt_config *cfg, tt_config_warn_fn warn, void *ctx);
/* The action bound to key, TT_ACT_NONE when none. */
int tt_config_action(const tt_config *cfg, int key);
/* Keys bound to an action, as text ("w, +, W"); "" when none. */
void tt_config_keys_of(const tt_config *cfg, int action, char *buf, size_t n);

#endif
