/*
 * query_limit.h - the time limit on a trace's SQL (tt_query_set_timeout)
 * as seen from inside the connection.
 *
 * The limit is a progress handler, and SQLite counts a statement's steps
 * per statement: the short statements that PerfettoSQL functions run for
 * each call never reach the count that calls the handler, however many
 * calls a query makes (a function calling itself twice per call). Code
 * that runs statements of its own, call after call, asks here instead.
 */
#ifndef TT_SQL_QUERY_LIMIT_H
#define TT_SQL_QUERY_LIMIT_H

#include <sqlite3.h>

/* 1 when db's limit has fired or its deadline is past (which fires it, so
 * the query reads as timed out); 0 when not, or when no limit is armed.
 * Costs a statement of its own: call it every so many calls. */
int tt_query_limit_hit(sqlite3 *db);

#endif
