/*
 * psql_func.h - what psql_func.c (functions written in PerfettoSQL) and
 * psql_tablefn.c (their table-valued form) share.
 */
#ifndef TT_PSQL_FUNC_H
#define TT_PSQL_FUNC_H

#include <stdint.h>
#include "perfetto_sql.h"

#define FN_ARGS_MAX 32
/* Nested calls of functions written in SQL: each level is a few SQLite VM
 * frames on the C stack; a function that calls itself forever stops here
 * with an error instead of overflowing the stack. */
#define CALL_DEPTH_MAX 400
#define FN_COLS_MAX 64

const char *tt_psql_value_type_name(int sqlite_type);

struct memo {
	int64_t *keys;
	sqlite3_value **vals;
	size_t n, cap; /* cap: a power of two, or 0 */
};

struct tt_psql_fn {
	tt_psql *ps;
	char *name, *body;
	int nargs;
	char *args[FN_ARGS_MAX]; /* "$x" */
	int arg_types[FN_ARGS_MAX];
	int ret; /* scalar: the return type */
	int is_table, ncols;
	char *cols[FN_COLS_MAX];
	int col_types[FN_COLS_MAX];
	sqlite3_stmt *idle; /* a prepared body no call is using */
	int memoize;
	struct memo memo;
};

/* 1 when the query's time limit has stopped it (query_limit.h): looked at
 * every so many calls of PerfettoSQL functions, scalar or table, since a
 * query of many short calls is never stopped by SQLite's own count. */
int tt_psql_call_stopped(tt_psql *ps);
/* 0, or -1 with msg set when an argument's type is not the declared one. */
int tt_psql_fn_check_args(tt_psql_fn *f, sqlite3_value **argv, char *msg, size_t len);
/* The name Perfetto gives a value's type (perfetto_sql.c). */
const char *tt_psql_value_type_name(int sqlite_type);
/* The module behind every table function (its pAux is the tt_psql_fn). */
extern const sqlite3_module tt_psql_table_fn_module;

#endif
