/*
 * describe.h - slice descriptions ("what does this slice mean?"). Rules are
 * data (`descriptions/NAME.rules`, format in docs/descriptions.md), loaded per
 * opened trace and compiled into a lookup: a hash on exact slice names,
 * then the pattern rules (glob, regex, context-only) in priority order.
 * The SQL side is the eponymous table `describe_slice`
 * (core/sql/vtab_describe_slice.c) and the function `describe_warnings()`.
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

/* Loads the rules of the search path above (reads the environment) and
 * registers describe_slice and describe_warnings() on db over st. The rule
 * set is freed with the connection. Returns an SQLite status (only
 * SQLITE_NOMEM or a registration failure: bad rules never fail it). */
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

size_t tt_describe_rules_count(const tt_describe_rules *r);
size_t tt_describe_rules_warning_count(const tt_describe_rules *r);
/* The i-th warning, "path:line: message". */
const char *tt_describe_rules_warning(const tt_describe_rules *r, size_t i);

/* Finds the winning rule for slice_id and expands its templates.
 * Returns 1 with *desc and *link (malloc'ed, caller frees; *link NULL when
 * the rule has none), 0 when no rule matches or the id is out of range,
 * -1 when out of memory. Where the winner came from is written to
 * *where ("path:line") when where is not NULL (not owned by the caller). */
int tt_describe_match(tt_describe_rules *r, const tt_storage *st, int64_t slice_id,
		      char **desc, char **link, const char **where);

/* ---- SQL glue (vtab_describe_slice.c) ----------------------------------- */

/* Registers the eponymous table describe_slice over st with rules (takes a
 * reference, dropped when the connection closes). SQLite status. */
int tt_vtab_describe_slice_register(sqlite3 *db, tt_storage *st, tt_describe_rules *rules);

#endif
