/*
 * vtab_func.h - one sqlite3_module for the table functions that compute a
 * list of rows from one argument (ancestor_slice(id), following_flow(id),
 * ...). A function is a tt_func_def: its schema (visible columns, then
 * the hidden input column), how to fill the row list for an argument, and
 * how to read a column of a listed row.
 *
 * Plan, in idxNum:
 *   TT_FUNC_PLAN_ARG   the hidden input column = ?   (required: without it
 *                      xBestIndex answers SQLITE_CONSTRAINT, so SQLite
 *                      reports "no query solution" instead of scanning)
 */
#ifndef TT_SQL_VTAB_FUNC_H
#define TT_SQL_VTAB_FUNC_H

#include <sqlite3.h>
#include "storage_int.h"

enum { TT_FUNC_PLAN_ARG = 1 };

/* A growable list of row ids, each with an optional extra value (aux,
 * kept only when a function pushes with tt_rowlist_push_aux). */
typedef struct tt_rowlist {
	uint32_t *v;
	int64_t *aux;
	size_t n, cap;
} tt_rowlist;

/* Append; 0, or -1 when memory ran out. */
int tt_rowlist_push(tt_rowlist *l, uint32_t row);
int tt_rowlist_push_aux(tt_rowlist *l, uint32_t row, int64_t aux);

/* The descendants of slice s in its track's ts order (vtab_ancestor.c). */
int tt_slice_push_descendants(const tt_storage *st, size_t s, tt_rowlist *out);

typedef struct tt_func_def {
	const char *name;
	const char *schema; /* "CREATE TABLE x(a, b, ..., arg HIDDEN)" */
	int ncols;          /* visible columns; the hidden input is column ncols */
	/* Fills out for argument v (never NULL: NULL gives no rows). Returns
	 * SQLITE_OK or an error code with *msg (sqlite3_mprintf) set. *cache
	 * is the function's own state kept between calls on one connection
	 * (NULL at first; the storage does not change once opened), freed
	 * with free_cache. */
	int (*fill)(const tt_storage *st, void **cache, sqlite3_value *v, tt_rowlist *out, char **msg);
	/* aux: the value pushed with the row (0 without one) */
	void (*column)(const tt_storage *st, uint32_t row, int64_t aux, int col, sqlite3_context *ctx);
	void (*free_cache)(void *cache); /* NULL: the function keeps none */
} tt_func_def;

int tt_func_register(sqlite3 *db, tt_storage *st, const tt_func_def *def);

#endif
