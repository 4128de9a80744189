/*
 * describe.h - slice descriptions ("what does this slice mean?"). Rules are
 * data (`descriptions/NAME.rules`, format in docs/descriptions.md), loaded per
 * opened trace and compiled into a lookup: a hash on exact slice names,
 * then the pattern rules (glob, regex, context-only) in priority order,
 * one lookup for slices (`[rule]` blocks) and one for tracks (`[track]`).
 * The SQL side is the eponymous tables `describe_slice` and
 * `describe_track` (core/sql/vtab_describe_slice.c), `describe_rules`
 * (core/sql/vtab_describe_rules.c: per-rule counts for --lint and
 * --explain) and the function `describe_warnings()`. The engine is split
 * in describe.c (rule set, parser, loading), describe_match.c (lookup,
 * conditions, kinds, counts) and describe_expand.c (templates).
 *
 * Where rules come from, lowest priority first (a later layer wins ties):
 *   1. shipped: TT_SRCDIR "/descriptions" when that folder exists (a build
 *      run from its checkout), else TT_DATADIR "/descriptions";
 *   2. user: $XDG_CONFIG_HOME/termtrace/descriptions (default
 *      ~/.config/termtrace/descriptions).
 * The environment variable TT_DESCRIPTIONS_PATH (a colon-separated list of
 * folders or files, lowest priority first) replaces that list; an empty
 * value loads no rules (tests use it). A folder contributes its `*.rules`
 * files in name order.
 *
 * Errors: a bad line or rule is a warning "path:line: message"; loading
 * goes on with the other lines and files. Warnings are kept with the rule
 * set (tt_describe_rules_warning, SQL `describe_warnings()`), never printed
 * by the core: the viewer owns the terminal.
 */
#ifndef TT_DESCRIBE_H
#define TT_DESCRIBE_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>
#include "storage.h"

typedef struct tt_describe_rules tt_describe_rules;

/* Registers describe_slice, describe_track, describe_rules and
 * describe_warnings() on db over st, with the rules of the search path
 * above (the environment is read now, the files at the first use of one
 * of them). The rule set is freed with the connection. Returns an SQLite
 * status (only SQLITE_NOMEM or a registration failure: bad rules never
 * fail it; out of memory reading them fails the statement using them). */
int tt_describe_register(sqlite3 *db, tt_storage *st);

/* ---- the rule set (used by the SQL glue and by tests) ----------------- */

/* A new empty rule set with one reference; NULL when out of memory. */
tt_describe_rules *tt_describe_rules_new(void);
void tt_describe_rules_ref(tt_describe_rules *r);
/* Drops one reference; the last one frees the set. NULL is allowed. */
void tt_describe_rules_unref(tt_describe_rules *r);

/* Adds the rules of path (a `.rules` file, or a folder whose `*.rules`
 * files are read in name order) as priority layer `layer` (higher wins
 * ties). A missing path is silently skipped. Returns TT_OK or TT_ENOMEM;
 * parse problems become warnings. Must be called before the first match. */
int tt_describe_rules_load(tt_describe_rules *r, const char *path, int layer);
/* Same from text in memory; name stands for the path in warnings. */
int tt_describe_rules_load_text(tt_describe_rules *r, const char *name, const char *text,
				int layer);

/* Reads the rules a registration deferred (tt_describe_register), once;
 * the SQL glue calls it before it looks at the rules. 0 (TT_OK), or
 * TT_ENOMEM (then the set stays as far as it got). */
int tt_describe_rules_ready(tt_describe_rules *r);

size_t tt_describe_rules_count(const tt_describe_rules *r);
size_t tt_describe_rules_warning_count(const tt_describe_rules *r);
/* The i-th warning, "path:line: message". */
const char *tt_describe_rules_warning(const tt_describe_rules *r, size_t i);

/* What a rule describes: `[rule]` blocks describe slices, `[track]` blocks
 * describe tracks. */
enum tt_describe_target { TT_DESCRIBE_SLICE, TT_DESCRIBE_TRACK };

/* Which kind of rule answered (the `kind` column), from its matcher and
 * conditions: an exact name, a glob, a regex, a name matcher with context
 * conditions (thread, process, track, parent, ancestor, args, durations),
 * or a fallback (no name matcher: thread-, category- or track-level text). */
enum tt_describe_kind {
	TT_KIND_NAME, TT_KIND_GLOB, TT_KIND_REGEX, TT_KIND_CONTEXT, TT_KIND_FALLBACK,
	TT_KIND_COUNT
};
/* "name", "glob", "regex", "context", "fallback". */
const char *tt_describe_kind_name(int kind);

struct tt_describe_hit {
	char *desc, *link;  /* malloc'ed; link NULL when the rule has none */
	const char *where;  /* "path:line" of the rule (owned by the set) */
	int kind;           /* enum tt_describe_kind */
};

/* Finds the winning rule for slice or track id and expands its templates.
 * Returns 1 with *hit filled (free desc and link), 0 when no rule matches
 * or the id is out of range, -1 when out of memory. */
int tt_describe_match(tt_describe_rules *r, const tt_storage *st, int target, int64_t id,
		      struct tt_describe_hit *hit);

/* ---- rule hygiene (describe --lint, table describe_rules) --------------- */

struct tt_describe_rule_info {
	const char *where;       /* "path:line" */
	int target, kind;
	const char *matcher;     /* first name, the glob or the regex; "" for none */
	const char *link;        /* NULL when none */
	size_t desc_len;         /* bytes of the description template */
	const char *shadowed_by; /* a rule that always wins over this one, or NULL */
};
/* Rule i in load order (0 .. tt_describe_rules_count - 1); 0 when out of
 * range. */
int tt_describe_rule_info_get(tt_describe_rules *r, size_t i, struct tt_describe_rule_info *out);
/* For every rule, how many slices/tracks of st it matches (matcher and all
 * conditions hold), how many it wins, and how many it loses only to a
 * rule of the same rank (name kind, condition count, layer) that comes
 * later: a rule hidden by order. target < 0: every slice and track of st;
 * otherwise only slice or track id of that target (what `describe
 * --explain` lists). The arrays have tt_describe_rules_count entries and
 * are added to. TT_OK or TT_ENOMEM. */
int tt_describe_rules_tally(tt_describe_rules *r, const tt_storage *st, int target, int64_t id,
			    uint64_t *matched, uint64_t *won, uint64_t *tied);

/* ---- SQL glue (vtab_describe_slice.c) ----------------------------------- */

/* Registers the eponymous table describe_slice over st with rules (takes a
 * reference, dropped when the connection closes). SQLite status. */
int tt_vtab_describe_slice_register(sqlite3 *db, tt_storage *st, tt_describe_rules *rules);
/* The same for describe_track (input track_id) and for describe_rules, one
 * row per rule with its match counts over this trace (used by --lint). */
int tt_vtab_describe_track_register(sqlite3 *db, tt_storage *st, tt_describe_rules *rules);
int tt_vtab_describe_rules_register(sqlite3 *db, tt_storage *st, tt_describe_rules *rules);

#endif
