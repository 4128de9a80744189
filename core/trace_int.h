/* trace_int.h - the body of tt_trace, for core modules that extend a trace
 * (metrics annotations, descriptions). */
#ifndef TT_TRACE_INT_H
#define TT_TRACE_INT_H

#include <sqlite3.h>
#include "storage_int.h"
#include "termtrace.h"

struct tt_trace {
	tt_storage *st;
	sqlite3 *db;
	char *path;
	const char *format;
	uint64_t file_size;
	double import_seconds;
	struct tt_psql *psql; /* PerfettoSQL state, made on first query */
};

#endif
