/*
 * perfetto_sql.h - PerfettoSQL in front of SQLite: a script is split into
 * statements; INCLUDE PERFETTO MODULE, CREATE PERFETTO TABLE/VIEW/
 * FUNCTION/MACRO/INDEX are done here, macro invocations (name!(...)) are
 * expanded, and every other statement goes to SQLite unchanged.
 *
 * The state (macros, functions, included modules, module folders) belongs
 * to one trace's connection: tt_psql_get() makes it on first use.
 */
#ifndef TT_PERFETTO_SQL_H
#define TT_PERFETTO_SQL_H

#include <sqlite3.h>
#include "termtrace.h"

typedef struct tt_psql tt_psql;

/* Runs one plain SQL statement (already expanded). last: the script's last
 * statement, whose rows are the result. Returns TT_OK or sets err. */
typedef int (*tt_psql_exec_fn)(void *ctx, sqlite3 *db, const char *sql, int last, tt_err *err);

tt_psql *tt_psql_new(sqlite3 *db);
void tt_psql_free(tt_psql *ps);

/* Runs script. module/path name where it came from (NULL for the user's
 * own script); errors then carry them with the line and column. */
int tt_psql_run(tt_psql *ps, const char *script, const char *module, const char *path,
		tt_psql_exec_fn fn, void *ctx, tt_err *err);

/* A copy of the last statement of script (split as tt_psql_run splits it,
 * macros not expanded), for running it again without the statements before
 * it; NULL with err set when there is none or memory runs out. */
char *tt_psql_last_statement(const char *script, tt_err *err);

/* Expands every macro invocation of text; *out is malloc'd. */
int tt_psql_expand(tt_psql *ps, const char *text, char **out, tt_err *err);
/* The same for s[a, b); on error *err_off is where the failing call is. */
int tt_psql_expand_range(tt_psql *ps, const char *s, size_t a, size_t b, char **out,
			 size_t *err_off, tt_err *err);
struct psql_macro;
struct psql_macro *tt_psql_find_macro(tt_psql *ps, const char *name, size_t len);
void tt_psql_macro_clear(struct psql_macro *m);

/* ---- between perfetto_sql.c, psql_func.c and modules.c ---- */

/* SQL tokens: the end of the token at s[i] and its kind (blanks and
 * comments are one TT_TOK_SPACE token). */
enum { TT_TOK_END, TT_TOK_SPACE, TT_TOK_ID, TT_TOK_STR, TT_TOK_NUM, TT_TOK_VAR, TT_TOK_PUNCT };
size_t tt_psql_lex(const char *s, size_t i, int *kind);

/* The module folders, in search order; returns their count (modules.c). */
int tt_psql_search_dirs(const tt_psql *ps, char dirs[][4096], int max);
/* Registers __intrinsic_stdlib_objects, the documentation of the modules
 * (modules_docs.c). */
int tt_psql_register_docs(tt_psql *ps);

/* Parameter and column types, as Perfetto checks them. */
typedef enum {
	TT_PT_ANY, TT_PT_INT, TT_PT_BOOL, TT_PT_DOUBLE, TT_PT_STRING, TT_PT_BYTES,
} tt_ptype;

/* Parses a type name (INT, LONG, STRING, TIMESTAMP, ID(slice.id), ...);
 * -1 when it is not one. */
int tt_psql_type(const char *name, size_t len);
/* Non-zero when a value of SQLite type t may be held by type pt. */
int tt_psql_type_ok(int pt, int sqlite_type);
const char *tt_psql_type_name(int pt);

typedef struct tt_psql_fn tt_psql_fn;

/* Defines a function: args "x INT, y STRING", ret a type or NULL with
 * cols "a INT, b STRING" for a table function. */
int tt_psql_define_fn(tt_psql *ps, const char *name, const char *args, const char *ret,
		      const char *cols, const char *body, int replace, tt_err *err);
/* f(args) RETURNS t DELEGATES TO target: calls target with f's arguments. */
int tt_psql_define_delegate(tt_psql *ps, const char *name, const char *args, const char *ret,
			    const char *target, int replace, tt_err *err);
/* create_function(), create_view_function(), experimental_memoize(). */
int tt_psql_register_legacy(tt_psql *ps);
void tt_psql_fns_free(tt_psql *ps);

/* Module folders and INCLUDE (modules.c). */
int tt_psql_add_dir(tt_psql *ps, const char *dir);
int tt_psql_include(tt_psql *ps, const char *name, tt_err *err);
void tt_psql_modules_free(tt_psql *ps);
/* Includes the prelude.* modules once (none shipped: nothing to do). */
int tt_psql_prelude(tt_psql *ps, tt_err *err);

/* The shared state. */
struct psql_macro {
	char *name;
	int nparams;
	char **params; /* "$name" */
	char *body;
};

struct tt_psql {
	sqlite3 *db;
	struct psql_macro *macros;
	size_t nmacros, cap_macros;
	tt_psql_fn **fns;
	size_t nfns, cap_fns;
	char **dirs; /* --modules and the like, searched first */
	size_t ndirs;
	char **done; /* modules included */
	size_t ndone;
	char **stack; /* modules being included (cycle check) */
	size_t nstack;
	int depth; /* nested runs (modules including modules) */
	int prelude_done;
	int call_depth; /* nested calls of PerfettoSQL functions */
	unsigned calls; /* calls made, for tt_psql_call_stopped() */
};

#endif
