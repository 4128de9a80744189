/*
 * keys.c - action table, key names and the config parser (see keys.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curses.h>

#include "keys.h"
#include "confline.h"
#include "termtrace.h"

static const struct { const char *name, *help; } actions[TT_ACT_COUNT] = {
	[TT_ACT_NONE] = {"none", ""},
#define X(id, name, help) [TT_ACT_##id] = {name, help},
	TT_ACTIONS(X)
#undef X
};

const char *tt_action_name(int act)
{
	return act > 0 && act < TT_ACT_COUNT ? actions[act].name : "none";
}

const char *tt_action_help(int act)
{
	return act > 0 && act < TT_ACT_COUNT ? actions[act].help : "";
}

int tt_action_lookup(const char *name)
{
	for (int i = 1; i < TT_ACT_COUNT; i++)
		if (!strcmp(actions[i].name, name))
			return i;
	return TT_ACT_NONE;
}

static const struct { const char *name; int key; } named_keys[] = {
	{"Enter", '\n'}, {"Tab", '\t'}, {"Esc", 27}, {"Space", ' '},
	{"Up", KEY_UP}, {"Down", KEY_DOWN}, {"Left", KEY_LEFT}, {"Right", KEY_RIGHT},
	{"PgUp", KEY_PPAGE}, {"PgDn", KEY_NPAGE}, {"Home", KEY_HOME}, {"End", KEY_END},
	{"Backspace", KEY_BACKSPACE}, {"Delete", KEY_DC}, {"BTab", KEY_BTAB},
	{"Hash", '#'},
};

int tt_key_parse(const char *name)
{
	size_t len = strlen(name);

	if (len == 0)
		return -1;
	for (size_t i = 0; i < sizeof named_keys / sizeof named_keys[0]; i++)
		if (!strcmp(named_keys[i].name, name))
			return named_keys[i].key;
	if (len == 1)
		return (unsigned char)name[0];
	if (len == 3 && name[0] == 'C' && name[1] == '-') {
		char c = name[2];
		if (c >= 'a' && c <= 'z')
			return c - 'a' + 1;
		if (c >= 'A' && c <= 'Z')
			return c - 'A' + 1;
		return -1;
	}
	if (name[0] == 'F' && len <= 3) {
		int n = atoi(name + 1);
		if (n >= 1 && n <= 12)
			return KEY_F(n);
	}
	return -1;
}

void tt_key_name(int key, char *buf, size_t n)
{
	for (size_t i = 0; i < sizeof named_keys / sizeof named_keys[0]; i++)
		if (named_keys[i].key == key && key != '#') {
			snprintf(buf, n, "%s", named_keys[i].name);
			return;
		}
	if (key == '\r') {
		snprintf(buf, n, "Enter");
		return;
	}
	if (key >= 1 && key <= 26) {
		snprintf(buf, n, "C-%c", 'a' + key - 1);
		return;
	}
	if (key > ' ' && key < 127) {
		snprintf(buf, n, "%c", key);
		return;
	}
	for (int f = 1; f <= 12; f++)
		if (key == KEY_F(f)) {
			snprintf(buf, n, "F%d", f);
			return;
		}
	snprintf(buf, n, "<%d>", key);
}

const char tt_keys_default_config[] =
	"# termtrace default key bindings (the same language as the user config)\n"
	"bind q quit\n" "bind C-c quit\n"
	"bind ? help\n"
	"bind F1 help\n"
	"bind w zoom-in\n" "bind W zoom-in\n" "bind + zoom-in\n" "bind = zoom-in\n"
	"bind s zoom-out\n" "bind S zoom-out\n" "bind - zoom-out\n"
	"bind a pan-left\n" "bind A pan-left\n" "bind Left pan-left\n"
	"bind d pan-right\n" "bind D pan-right\n" "bind Right pan-right\n"
	"bind Up track-up\n" "bind k track-up\n"
	"bind Down track-down\n" "bind j track-down\n"
	"bind PgUp page-up\n" "bind PgDn page-down\n"
	"bind g first-track\n" "bind G last-track\n"
	"bind Home trace-start\n" "bind End trace-end\n"
	"bind f zoom-selected\n" "bind 0 zoom-all\n"
	"bind Enter select\n" "bind Space toggle-group\n"
	"bind ] next\n" "bind [ prev\n"
	"bind l next-slice\n" "bind h prev-slice\n"
	"bind u parent\n" "bind p parent\n" "bind c child\n"
	"bind ! next-alert\n" "bind e source\n"
	"bind / search\n" "bind n search-next\n" "bind N search-prev\n"
	"bind : command\n"
	"bind Tab details\n" "bind M details-move\n"
	"bind > details-grow\n" "bind < details-shrink\n"
	"bind J details-down\n" "bind K details-up\n"
	"bind o open-link\n" "bind y copy-link\n"
	"bind P pin-track\n" "bind x hide-track\n"
	"bind Esc clear\n" "bind C-l redraw\n"
	"bind } flow-next\n" "bind { flow-prev\n" "bind F flow-follow\n" "bind L flows\n"
	"bind v range-start\n" "bind V range-scope\n"
	"bind R aggregate\n" "bind X aggregate-threads\n" "bind C aggregate-counters\n"
	"bind T calltree\n" "bind B bottomup\n" "bind z flame\n" "bind Z tree-panel\n"
	"bind m mark\n" "bind ' jump-mark\n" "bind ` marks\n";

static void set_binding(tt_config *cfg, int key, int action)
{
	for (int i = 0; i < cfg->nbind; i++)
		if (cfg->bind[i].key == key) {
			cfg->bind[i].action = action;
			return;
		}
	if (cfg->nbind < TT_MAX_BINDINGS) {
		cfg->bind[cfg->nbind].key = key;
		cfg->bind[cfg->nbind].action = action;
		cfg->nbind++;
	}
}

int tt_config_parse(tt_config *cfg, const char *text, const char *path,
		    tt_config_warn_fn warn, void *ctx)
{
	int bad = 0, nw;
	tt_confline c;

	tt_confline_init(&c, text, path);
	while ((nw = tt_confline_next(&c)) >= 0) {
		char **w = c.w;

		/* a word starting with '#' starts a comment, except the key
		 * of "bind # ACTION" */
		for (int i = 0; i < nw; i++)
			if (w[i][0] == '#' && !(i == 1 && !strcmp(w[i], "#") &&
						(!strcmp(w[0], "bind") || !strcmp(w[0], "unbind")))) {
				nw = i;
				break;
			}
		if (nw == 0)
			continue;
		if (!strcmp(w[0], "bind")) {
			if (nw != 3) {
				tt_confline_warn(&c, warn, ctx, "%s", "expected 'bind KEY ACTION'");
				bad++;
				continue;
			}
			int key = tt_key_parse(w[1]);
			int act = tt_action_lookup(w[2]);
			if (key < 0) {
				tt_confline_warn(&c, warn, ctx, "unknown key '%s'", w[1]);
				bad++;
			} else if (act == TT_ACT_NONE) {
				tt_confline_warn(&c, warn, ctx, "unknown action '%s'", w[2]);
				bad++;
			} else {
				set_binding(cfg, key, act);
			}
		} else if (!strcmp(w[0], "unbind")) {
			int key = nw == 2 ? tt_key_parse(w[1]) : -1;
			if (key < 0) {
				tt_confline_warn(&c, warn, ctx, "%s", "expected 'unbind KEY'");
				bad++;
				continue;
			}
			set_binding(cfg, key, TT_ACT_NONE);
		} else if (!strcmp(w[0], "set")) {
			if (nw != 3) {
				tt_confline_warn(&c, warn, ctx, "%s", "expected 'set OPTION VALUE'");
				bad++;
			} else if (!strcmp(w[1], "theme")) {
				snprintf(cfg->theme, sizeof cfg->theme, "%s", w[2]);
			} else if (!strcmp(w[1], "details")) {
				if (!strcmp(w[2], "bottom"))
					cfg->details = TT_DETAILS_BOTTOM;
				else if (!strcmp(w[2], "right"))
					cfg->details = TT_DETAILS_RIGHT;
				else if (!strcmp(w[2], "hidden"))
					cfg->details = TT_DETAILS_HIDDEN;
				else {
					tt_confline_warn(&c, warn, ctx, "bad details position '%s'", w[2]);
					bad++;
				}
			} else {
				tt_confline_warn(&c, warn, ctx, "unknown option '%s'", w[1]);
				bad++;
			}
		} else {
			tt_confline_warn(&c, warn, ctx, "unknown command '%s'", w[0]);
			bad++;
		}
	}
	return bad;
}

void tt_config_init(tt_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->details = -1;
	tt_config_parse(cfg, tt_keys_default_config, "<built-in config>", NULL, NULL);
}

int tt_config_load_user(tt_config *cfg, tt_config_warn_fn warn, void *ctx)
{
	char path[1024];
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	char *buf;
	int bad;

	if (xdg && *xdg)
		snprintf(path, sizeof path, "%s/termtrace/config", xdg);
	else if (home)
		snprintf(path, sizeof path, "%s/.config/termtrace/config", home);
	else
		return 0;
	buf = tt_text_load(path, 65535, NULL);
	if (!buf)
		return 0;
	bad = tt_config_parse(cfg, buf, path, warn, ctx);
	free(buf);
	return bad;
}

int tt_config_action(const tt_config *cfg, int key)
{
	if (key == '\r' || key == KEY_ENTER)
		key = '\n';
	for (int i = 0; i < cfg->nbind; i++)
		if (cfg->bind[i].key == key)
			return cfg->bind[i].action;
	return TT_ACT_NONE;
}

void tt_config_keys_of(const tt_config *cfg, int action, char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = 0;
	for (int i = 0; i < cfg->nbind && used + 1 < n; i++) {
		char name[32];
		if (cfg->bind[i].action != action)
			continue;
		tt_key_name(cfg->bind[i].key, name, sizeof name);
		used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? " " : "", name);
		if (used >= n)
			used = n - 1;
	}
}
