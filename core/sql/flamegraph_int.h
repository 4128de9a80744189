/*
 * flamegraph_int.h - what the flamegraph module (flamegraph.c: config,
 * source, SQL glue) and its builder (flamegraph_build.c: merging, values,
 * aggregates, layout) share. Included by those two files only.
 */
#ifndef TT_SQL_FLAMEGRAPH_INT_H
#define TT_SQL_FLAMEGRAPH_INT_H

#include <regex.h>
#include <stdint.h>
#include <string.h>
#include <sqlite3.h>

#define NONE UINT32_MAX
#define MAX_SHOW 61
#define HIDE_BIT (1ull << 63)
enum { V_TOP_DOWN, V_BOTTOM_UP, V_PIVOT, V_FROM_FRAME };
enum { AG_SUM, AG_ONE, AG_CONCAT };

/* The parsed __intrinsic_flamegraph_config(...) */
struct fg_pat {
	regex_t re;
	int ok;
};

struct fg_config {
	int view;
	struct fg_pat view_pat;
	struct fg_pat show[MAX_SHOW], hide_stack[16], hide_frame[16];
	int nshow, nhide_stack, nhide_frame;
	char *grouping[8];
	int ngrouping;
	char *values[8];
	int nvalues;
	struct { int kind; char *col; } agg[16];
	int nagg;
};

/* The source tree, loaded when the table is created. */
struct fg_table {
	sqlite3_vtab base;
	sqlite3 *db;
	int nrows, ncols;         /* source columns: id, parent_id, name, value, props... */
	char **cols;
	sqlite3_value **cells;    /* nrows * ncols, in parent-before-child order */
	uint32_t *parent;         /* row -> parent row or NONE */
	int *numeric;             /* column -> all non-NULL values are numbers (and some are) */
	int *is_int;              /* column -> numeric and all integers */
	double value_sum;
	int ncand;                /* property columns that are numeric */
};

static inline sqlite3_value *cell(const struct fg_table *t, uint32_t row, int col)
{
	return t->cells[(size_t)row * (size_t)t->ncols + (size_t)col];
}

static inline int col_index(const struct fg_table *t, const char *name)
{
	for (int i = 0; i < t->ncols; i++)
		if (strcmp(t->cols[i], name) == 0)
			return i;
	return -1;
}

struct fg_aggval {
	int type; /* SQLITE_NULL, SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT */
	int64_t i;
	double d;
	char *s;
};

/* The built flamegraph, in layout order. */
struct fg_result {
	uint32_t n;             /* output rows */
	uint32_t *node;         /* row -> packed node */
	uint32_t *parent_row;   /* row -> parent row or NONE */
	double *x;              /* row -> x_start */
	/* packed nodes */
	uint32_t np;
	int64_t *depth;
	uint32_t *rep;          /* representative source row */
	uint32_t *pparent;      /* packed parent */
	int nv;                 /* value columns */
	int *vcol;              /* value column -> source column */
	double **self_d, **cum_d;
	int64_t **self_i, **cum_i;
	int nag;
	uint32_t nag_nodes;     /* entries of each ag[] array */
	int *agcol;
	int ng;
	int *gcol;              /* grouping columns' source indexes */
	struct fg_aggval **ag;     /* [aggregate][packed node] */
};

/* Builds the flamegraph of t under c; NULL with *err set (or on OOM). */
struct fg_result *tt_flamegraph_build(const struct fg_table *t, const struct fg_config *c, char **err);
void tt_flamegraph_result_free(struct fg_result *r);

#endif
