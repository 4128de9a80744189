/*
 * span_join.c - Perfetto's SPAN_JOIN, SPAN_LEFT_JOIN and SPAN_OUTER_JOIN
 * virtual tables: the intersection in time of two tables of spans (ts,
 * dur), optionally per partition.
 *
 *   create virtual table sp using span_join(sched partitioned cpu,
 *                                           freq partitioned cpu);
 *   select ts, dur, cpu, utid, value from sp;
 *   create virtual table l using span_left_join(slices partitioned utid, states);
 *   create virtual table o using span_outer_join(a, b);
 *
 * Output columns: ts, dur, the partition column (when either side is
 * partitioned), then the other columns of the first table, then those of
 * the second. A name present in both tables is an error, as in Perfetto.
 *
 * Each side is read once, in (partition, ts) order, by a statement on the
 * source table ("select ... order by part, ts": an index or SQLite's
 * sorter, O(n log n)). Each side is then a sequence of segments covering
 * the whole (partition, time) plane: its real spans, "present partition
 * shadows" (the gaps inside a partition the side has) and "missing
 * partition shadows" (whole partitions it lacks). The join walks both
 * sequences together, always advancing the side whose segment ends first,
 * and emits every overlap of two segments where at least one is real and
 * each shadow is one the join type keeps:
 *   span_join        no shadows                (both sides real)
 *   span_left_join   shadows of the second side (all of the first kept)
 *   span_outer_join  shadows of both sides
 * When only one side is partitioned ("mixed"), the unpartitioned side is
 * re-read for every partition of the other; there the partitioned side
 * keeps only present shadows (as do both sides of an unpartitioned join). Spans are [ts, ts + dur); a span of dur -1 (not ended) counts
 * as an instant when testing for overlap, and its output dur is computed
 * from ts + dur as Perfetto does.
 *
 * Plan, in idxNum:
 *   SJ_PLAN_PART   partition = ?   pushed into both sides' statements
 *   SJ_PLAN_TS_LE  ts <= / < ?     pushed into sides that keep no shadows
 *                                  (an output row starts no earlier than
 *                                  either side's span)
 * The constraints are not omitted: SQLite re-checks them.
 */
#include "builtins.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { SJ_PLAN_PART = 1, SJ_PLAN_TS_LE = 2 };
enum { SJ_INNER, SJ_LEFT, SJ_OUTER };
enum { PART_NONE, PART_SAME, PART_MIXED };
enum { SHADOW_NONE, SHADOW_PRESENT, SHADOW_ALL };
enum { ST_REAL, ST_PRESENT, ST_MISSING, ST_EOF };
enum { COL_TS, COL_DUR, COL_PART };

struct side {
	char *name, *part;   /* part: NULL when not partitioned */
	int ncols;
	char **cols, **types;
	int ts_idx, dur_idx, part_idx; /* -1: absent */
	int shadow;
};

struct table {
	sqlite3_vtab base;
	sqlite3 *db;
	int kind, partitioning;
	struct side s[2];
	/* output column k >= first_col: side loc_side[k], column loc_col[k] */
	int ncols, first_col;
	int *loc_side, *loc_col;
};

/* One side's walk over its segments (see the header). */
struct query {
	const struct side *d;
	sqlite3_stmt *stmt;
	int state, cursor_eof;
	int64_t ts, ts_end, part, mp_start, mp_end;
	int64_t c_ts, c_dur, c_part; /* the statement's current row, read once */
};

struct cursor {
	sqlite3_vtab_cursor base;
	struct query q[2];
	struct query *next;
	int64_t mixed_part;
	int mixed_set;
	sqlite3_int64 rowid;
};

/* ---- one side ---------------------------------------------------------------- */

static int64_t cur_ts(const struct query *q)
{
	return q->c_ts;
}

static int64_t cur_dur(const struct query *q)
{
	return q->c_dur;
}

static int64_t cur_part(const struct query *q)
{
	return q->c_part;
}

static int64_t first_part(const struct query *q)
{
	return q->state == ST_MISSING ? q->mp_start : q->part;
}

static int64_t last_part(const struct query *q)
{
	return q->state == ST_MISSING ? q->mp_end - 1 : q->part;
}

static int64_t adj_end(const struct query *q)
{
	return q->ts_end - q->ts == -1 ? q->ts : q->ts_end;
}

/* Steps the statement; a partitioned side skips rows whose partition is
 * NULL. */
static int cursor_next(struct query *q, char **msg)
{
	for (;;) {
		int rc = sqlite3_step(q->stmt);

		if (rc == SQLITE_DONE) {
			q->cursor_eof = 1;
			return SQLITE_OK;
		}
		if (rc != SQLITE_ROW) {
			*msg = sqlite3_mprintf("SPAN_JOIN: reading %s: %s", q->d->name,
					       sqlite3_errmsg(sqlite3_db_handle(q->stmt)));
			return SQLITE_ERROR;
		}
		q->cursor_eof = 0;
		q->c_ts = sqlite3_column_int64(q->stmt, q->d->ts_idx);
		q->c_dur = q->d->dur_idx < 0 ? 0 : sqlite3_column_int64(q->stmt, q->d->dur_idx);
		if (!q->d->part)
			return SQLITE_OK;
		switch (sqlite3_column_type(q->stmt, q->d->part_idx)) {
		case SQLITE_NULL:
			continue;
		case SQLITE_INTEGER:
			q->c_part = sqlite3_column_int64(q->stmt, q->d->part_idx);
			return SQLITE_OK;
		default:
			*msg = sqlite3_mprintf("SPAN_JOIN: partition is not an INT column");
			return SQLITE_ERROR;
		}
	}
}

static int valid(const struct query *q)
{
	if (q->state == ST_PRESENT && q->d->shadow == SHADOW_NONE)
		return 0;
	if (q->state == ST_MISSING && q->d->shadow != SHADOW_ALL)
		return 0;
	if (q->state != ST_REAL && q->ts == q->ts_end)
		return 0;
	if (q->state == ST_MISSING && q->mp_start == q->mp_end)
		return 0;
	return 1;
}

/* Moves to the next segment, valid or not. */
static int next_segment(struct query *q, char **msg)
{
	int rc;

	switch (q->state) {
	case ST_REAL: {
		int64_t end = adj_end(q);
		int to_end;

		if ((rc = cursor_next(q, msg)) != SQLITE_OK)
			return rc;
		to_end = q->cursor_eof || (q->d->part && q->part != cur_part(q));
		q->state = ST_PRESENT;
		q->ts = end;
		q->ts_end = to_end ? INT64_MAX : cur_ts(q);
		break;
	}
	case ST_PRESENT:
		if (q->ts_end == INT64_MAX) {
			q->state = ST_MISSING;
			q->ts = 0;
			q->mp_start = q->part + 1;
			q->mp_end = q->cursor_eof ? INT64_MAX : cur_part(q);
		} else {
			q->state = ST_REAL;
			q->ts = cur_ts(q);
			q->ts_end = q->ts + cur_dur(q);
		}
		break;
	case ST_MISSING:
		if (q->mp_end == INT64_MAX) {
			q->state = ST_EOF;
		} else {
			q->state = ST_PRESENT;
			q->ts = 0;
			q->ts_end = cur_ts(q);
			q->part = q->mp_end;
		}
		break;
	default:
		break;
	}
	return SQLITE_OK;
}

static int next_valid(struct query *q, char **msg)
{
	while (q->state != ST_EOF && !valid(q)) {
		int rc = next_segment(q, msg);

		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_OK;
}

static int q_next(struct query *q, char **msg)
{
	int rc = next_segment(q, msg);

	return rc != SQLITE_OK ? rc : next_valid(q, msg);
}

/* Re-runs the statement from the start: the first segment is the missing
 * partitions below the first row's. */
static int q_rewind(struct query *q, char **msg)
{
	int rc;

	sqlite3_reset(q->stmt);
	if ((rc = cursor_next(q, msg)) != SQLITE_OK)
		return rc;
	q->state = ST_MISSING;
	q->ts = 0;
	q->ts_end = INT64_MAX;
	q->part = 0;
	q->mp_start = INT64_MIN;
	if (q->cursor_eof)
		q->mp_end = INT64_MAX;
	else
		q->mp_end = q->d->part ? cur_part(q) : INT64_MIN;
	return next_valid(q, msg);
}

/* ---- the join ------------------------------------------------------------------ */

static int overlapping(const struct table *t, const struct query *a, const struct query *b)
{
	if (a->state == ST_EOF || b->state == ST_EOF)
		return 0;
	if (a->state != ST_REAL && b->state != ST_REAL)
		return 0;
	if (t->partitioning == PART_SAME &&
	    !((first_part(a) >= first_part(b) && first_part(a) <= last_part(b)) ||
	      (first_part(b) >= first_part(a) && first_part(b) <= last_part(a))))
		return 0;
	return (a->ts == b->ts && a->state == ST_REAL && b->state == ST_REAL) ||
	       (a->ts >= b->ts && a->ts < adj_end(b)) || (b->ts >= a->ts && b->ts < adj_end(a));
}

/* The side to advance: the lower (partition, end, real) */
static struct query *earliest(const struct table *t, struct cursor *c)
{
	struct query *a = &c->q[0], *b = &c->q[1];
	int64_t pa = 0, pb = 0, ea, eb;

	if (t->partitioning == PART_MIXED) {
		if (a->state == ST_EOF)
			return b;
		if (b->state == ST_EOF)
			return a;
	} else if (t->partitioning == PART_SAME) {
		pa = last_part(a);
		pb = last_part(b);
	}
	if (pa != pb)
		return pa < pb ? a : b;
	ea = adj_end(a);
	eb = adj_end(b);
	if (ea != eb)
		return ea < eb ? a : b;
	return (a->state == ST_REAL) < (b->state == ST_REAL) ? a : b;
}

static int find_overlap(const struct table *t, struct cursor *c, char **msg)
{
	for (;;) {
		int rc;

		if (t->partitioning == PART_MIXED) {
			struct query *p = c->q[0].d->part ? &c->q[0] : &c->q[1];
			struct query *u = c->q[0].d->part ? &c->q[1] : &c->q[0];

			if (p->state == ST_EOF)
				break;
			if (!c->mixed_set || c->mixed_part != p->part) {
				if (c->mixed_set && (rc = q_rewind(u, msg)) != SQLITE_OK)
					return rc;
				c->mixed_part = p->part;
				c->mixed_set = 1;
			}
		} else if (c->q[0].state == ST_EOF || c->q[1].state == ST_EOF) {
			break;
		}
		c->next = earliest(t, c);
		if (overlapping(t, &c->q[0], &c->q[1]))
			break;
		if ((rc = q_next(c->next, msg)) != SQLITE_OK)
			return rc;
	}
	return SQLITE_OK;
}

/* ---- table definition ---------------------------------------------------------------- */

static void side_free(struct side *s)
{
	for (int i = 0; i < s->ncols; i++) {
		sqlite3_free(s->cols[i]);
		sqlite3_free(s->types[i]);
	}
	sqlite3_free(s->cols);
	sqlite3_free(s->types);
	sqlite3_free(s->name);
	sqlite3_free(s->part);
	memset(s, 0, sizeof(*s));
}

static void table_free(struct table *t)
{
	side_free(&t->s[0]);
	side_free(&t->s[1]);
	sqlite3_free(t->loc_side);
	sqlite3_free(t->loc_col);
	sqlite3_free(t);
}

/* "name [PARTITIONED col]" */
static int parse_desc(const char *arg, struct side *s, char **err)
{
	char tok[3][256];
	int n = 0;
	const char *p = arg;

	while (*p && n < 4) {
		size_t len;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		len = strcspn(p, " \t\r\n");
		if (n == 3 || len >= sizeof(tok[0])) {
			*err = sqlite3_mprintf("SPAN_JOIN: Invalid token");
			return SQLITE_ERROR;
		}
		memcpy(tok[n], p, len);
		tok[n++][len] = 0;
		p += len;
	}
	if (n == 0) {
		*err = sqlite3_mprintf("SPAN_JOIN: Missing table name");
		return SQLITE_ERROR;
	}
	if (n == 2 || (n == 3 && sqlite3_stricmp(tok[1], "partitioned") != 0)) {
		*err = sqlite3_mprintf(n == 2 ? "SPAN_JOIN: Missing partitioning column"
					      : "SPAN_JOIN: Invalid token");
		return SQLITE_ERROR;
	}
	s->name = sqlite3_mprintf("%s", tok[0]);
	s->part = n == 3 ? sqlite3_mprintf("%s", tok[2]) : NULL;
	if (!s->name || (n == 3 && !s->part))
		return SQLITE_NOMEM;
	return SQLITE_OK;
}

/* The side's columns, from a statement on its table. */
static int read_columns(sqlite3 *db, struct side *s, char **err)
{
	char *sql = sqlite3_mprintf("SELECT * FROM %s", s->name);
	sqlite3_stmt *st = NULL;
	int rc;

	if (!sql)
		return SQLITE_NOMEM;
	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK) {
		*err = sqlite3_mprintf("SPAN_JOIN: cannot read table %s: %s", s->name, sqlite3_errmsg(db));
		return SQLITE_ERROR;
	}
	s->ncols = sqlite3_column_count(st);
	s->cols = sqlite3_malloc64((sqlite3_uint64)(s->ncols + 1) * sizeof(char *));
	s->types = sqlite3_malloc64((sqlite3_uint64)(s->ncols + 1) * sizeof(char *));
	if (!s->cols || !s->types) {
		s->ncols = 0;
		sqlite3_finalize(st);
		return SQLITE_NOMEM;
	}
	s->ts_idx = s->dur_idx = s->part_idx = -1;
	for (int i = 0; i < s->ncols; i++) {
		const char *name = sqlite3_column_name(st, i);
		const char *type = sqlite3_column_decltype(st, i);

		s->cols[i] = sqlite3_mprintf("%s", name ? name : "");
		s->types[i] = sqlite3_mprintf("%s", type ? type : "");
		if (!s->cols[i] || !s->types[i]) {
			s->ncols = i + 1;
			sqlite3_finalize(st);
			return SQLITE_NOMEM;
		}
		if (strchr(s->cols[i], ',') || strchr(s->cols[i], ':')) {
			*err = sqlite3_mprintf("SPAN_JOIN: column '%s' cannot contain any '%c'", s->cols[i],
					       strchr(s->cols[i], ',') ? ',' : ':');
			s->ncols = i + 1;
			sqlite3_finalize(st);
			return SQLITE_ERROR;
		}
		if (strcmp(s->cols[i], "ts") == 0)
			s->ts_idx = i;
		else if (strcmp(s->cols[i], "dur") == 0)
			s->dur_idx = i;
		else if (s->part && strcmp(s->cols[i], s->part) == 0)
			s->part_idx = i;
	}
	sqlite3_finalize(st);
	if (s->ts_idx < 0) {
		*err = sqlite3_mprintf("SPAN_JOIN: Missing ts column in table %s", s->name);
		return SQLITE_ERROR;
	}
	if (s->part && s->part_idx < 0) {
		*err = sqlite3_mprintf("SPAN_JOIN: Missing partition column '%s' in table '%s'",
				       s->part, s->name);
		return SQLITE_ERROR;
	}
	return SQLITE_OK;
}

static int special(const struct table *t, const struct side *s, int i)
{
	return i == s->ts_idx || i == s->dur_idx ||
	       (t->partitioning != PART_NONE && s->part && i == s->part_idx);
}

static int x_create(sqlite3 *db, void *aux, int argc, const char *const *argv,
		    sqlite3_vtab **out, char **err)
{
	struct table *t;
	sqlite3_str *schema;
	char *sql;
	int rc, k;

	if (argc != 5) {
		*err = sqlite3_mprintf("SPAN_JOIN: expected exactly two arguments");
		return SQLITE_ERROR;
	}
	t = sqlite3_malloc(sizeof(*t));
	if (!t)
		return SQLITE_NOMEM;
	memset(t, 0, sizeof(*t));
	t->db = db;
	t->kind = (int)(intptr_t)aux;
	for (int i = 0; i < 2; i++) {
		if ((rc = parse_desc(argv[3 + i], &t->s[i], err)) != SQLITE_OK)
			goto fail;
		if (t->s[i].part && (!strcmp(t->s[i].part, "ts") || !strcmp(t->s[i].part, "dur"))) {
			*err = sqlite3_mprintf("SPAN_JOIN: partition column cannot be any of {ts, dur} for table %s",
					       t->s[i].name);
			rc = SQLITE_ERROR;
			goto fail;
		}
	}
	if (!t->s[0].part && !t->s[1].part) {
		t->partitioning = PART_NONE;
	} else if (t->s[0].part && t->s[1].part) {
		if (strcmp(t->s[0].part, t->s[1].part) != 0) {
			*err = sqlite3_mprintf("SPAN_JOIN: mismatching partitions between the two tables; "
					       "(partition %s in table %s, partition %s in table %s)",
					       t->s[0].part, t->s[0].name, t->s[1].part, t->s[1].name);
			rc = SQLITE_ERROR;
			goto fail;
		}
		t->partitioning = PART_SAME;
	} else {
		t->partitioning = PART_MIXED;
	}
	for (int i = 0; i < 2; i++) {
		int keeps = t->kind == SJ_OUTER || (i == 1 && t->kind == SJ_LEFT);

		int present_only = t->partitioning == PART_NONE ||
				   (t->partitioning == PART_MIXED && t->s[i].part);

		t->s[i].shadow = !keeps ? SHADOW_NONE : present_only ? SHADOW_PRESENT : SHADOW_ALL;
		if ((rc = read_columns(db, &t->s[i], err)) != SQLITE_OK)
			goto fail;
	}
	if (t->s[0].dur_idx < 0 && t->s[1].dur_idx < 0) {
		*err = sqlite3_mprintf("SPAN_JOIN: column dur must be present in at least one of tables %s and %s",
				       t->s[0].name, t->s[1].name);
		rc = SQLITE_ERROR;
		goto fail;
	}
	t->first_col = t->partitioning == PART_NONE ? 2 : 3;
	t->ncols = t->first_col;
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < t->s[i].ncols; j++)
			t->ncols += !special(t, &t->s[i], j);
	t->loc_side = sqlite3_malloc64((sqlite3_uint64)t->ncols * sizeof(int));
	t->loc_col = sqlite3_malloc64((sqlite3_uint64)t->ncols * sizeof(int));
	schema = sqlite3_str_new(db);
	if (!t->loc_side || !t->loc_col) {
		sqlite3_free(sqlite3_str_finish(schema));
		rc = SQLITE_NOMEM;
		goto fail;
	}
	sqlite3_str_appendall(schema, "CREATE TABLE x(ts BIGINT, dur BIGINT");
	if (t->partitioning != PART_NONE)
		sqlite3_str_appendf(schema, ", \"%w\" BIGINT", t->s[0].part ? t->s[0].part : t->s[1].part);
	k = t->first_col;
	for (int i = 0; i < 2; i++) {
		for (int j = 0; j < t->s[i].ncols; j++) {
			if (special(t, &t->s[i], j))
				continue;
			/* a duplicate name is an error, as in Perfetto */
			for (int m = t->first_col; m < k; m++) {
				if (sqlite3_stricmp(t->s[t->loc_side[m]].cols[t->loc_col[m]], t->s[i].cols[j]) == 0) {
					*err = sqlite3_mprintf("SPAN_JOIN: column %s present in both tables %s and %s",
							       t->s[i].cols[j], t->s[0].name, t->s[1].name);
					sqlite3_free(sqlite3_str_finish(schema));
					rc = SQLITE_ERROR;
					goto fail;
				}
			}
			t->loc_side[k] = i;
			t->loc_col[k++] = j;
			sqlite3_str_appendf(schema, ", \"%w\" %s", t->s[i].cols[j], t->s[i].types[j]);
		}
	}
	sqlite3_str_appendall(schema, ")");
	sql = sqlite3_str_finish(schema);
	if (!sql) {
		rc = SQLITE_NOMEM;
		goto fail;
	}
	rc = sqlite3_declare_vtab(db, sql);
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		goto fail;
	*out = &t->base;
	return SQLITE_OK;
fail:
	table_free(t);
	return rc;
}

static int x_disconnect(sqlite3_vtab *vt)
{
	table_free((struct table *)vt);
	return SQLITE_OK;
}

static int x_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	const struct table *t = (const struct table *)vt;
	int ci_part = -1, ci_ts = -1, argv = 0, plan = 0;

	for (int i = 0; i < info->nConstraint; i++) {
		const struct sqlite3_index_constraint *k = &info->aConstraint[i];

		if (!k->usable)
			continue;
		if (k->iColumn == COL_PART && t->partitioning != PART_NONE &&
		    k->op == SQLITE_INDEX_CONSTRAINT_EQ)
			ci_part = i;
		else if (k->iColumn == COL_TS &&
			 (k->op == SQLITE_INDEX_CONSTRAINT_LE || k->op == SQLITE_INDEX_CONSTRAINT_LT))
			ci_ts = i;
	}
	if (ci_part >= 0) {
		plan |= SJ_PLAN_PART;
		info->aConstraintUsage[ci_part].argvIndex = ++argv;
	}
	if (ci_ts >= 0 && (t->s[0].shadow == SHADOW_NONE || t->s[1].shadow == SHADOW_NONE)) {
		plan |= SJ_PLAN_TS_LE;
		info->aConstraintUsage[ci_ts].argvIndex = ++argv;
	}
	info->idxNum = plan;
	info->estimatedCost = plan & SJ_PLAN_PART ? 1e4 : 1e6;
	if (t->partitioning == PART_NONE)
		info->orderByConsumed = info->nOrderBy == 1 && info->aOrderBy[0].iColumn == COL_TS &&
					!info->aOrderBy[0].desc;
	else
		info->orderByConsumed =
			info->nOrderBy >= 1 && info->nOrderBy <= 2 &&
			info->aOrderBy[0].iColumn == COL_PART && !info->aOrderBy[0].desc &&
			(info->nOrderBy == 1 ||
			 (info->aOrderBy[1].iColumn == COL_TS && !info->aOrderBy[1].desc));
	return SQLITE_OK;
}

static int x_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	struct table *t = (struct table *)vt;
	struct cursor *c = sqlite3_malloc(sizeof(*c));

	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof(*c));
	c->q[0].d = &t->s[0];
	c->q[1].d = &t->s[1];
	c->q[0].state = c->q[1].state = ST_EOF;
	*out = &c->base;
	return SQLITE_OK;
}

static int x_close(sqlite3_vtab_cursor *cur)
{
	struct cursor *c = (struct cursor *)cur;

	sqlite3_finalize(c->q[0].stmt);
	sqlite3_finalize(c->q[1].stmt);
	sqlite3_free(c);
	return SQLITE_OK;
}

static int set_error(struct table *t, int rc, char *msg)
{
	sqlite3_free(t->base.zErrMsg);
	t->base.zErrMsg = msg;
	return rc == SQLITE_OK ? SQLITE_ERROR : rc;
}

/* The statement reading side i, with the pushed-down constraints. */
static int prepare_side(struct table *t, struct query *q, int i, int plan, sqlite3_value *part,
			sqlite3_value *ts_hi)
{
	const struct side *s = &t->s[i];
	sqlite3_str *sql = sqlite3_str_new(t->db);
	const char *sep = " WHERE ";
	char *text;
	int rc, nbind = 0;
	sqlite3_value *binds[2];

	sqlite3_str_appendall(sql, "SELECT ");
	for (int j = 0; j < s->ncols; j++)
		sqlite3_str_appendf(sql, "%s\"%w\"", j ? ", " : "", s->cols[j]);
	sqlite3_str_appendf(sql, " FROM %s", s->name);
	if ((plan & SJ_PLAN_PART) && s->part) {
		sqlite3_str_appendf(sql, "%s\"%w\" = ?", sep, s->part);
		sep = " AND ";
		binds[nbind++] = part;
	}
	if ((plan & SJ_PLAN_TS_LE) && s->shadow == SHADOW_NONE) {
		sqlite3_str_appendf(sql, "%sts <= ?", sep);
		binds[nbind++] = ts_hi;
	}
	if (s->part)
		sqlite3_str_appendf(sql, " ORDER BY \"%w\", ts", s->part);
	else
		sqlite3_str_appendall(sql, " ORDER BY ts");
	text = sqlite3_str_finish(sql);
	if (!text)
		return SQLITE_NOMEM;
	sqlite3_finalize(q->stmt);
	q->stmt = NULL;
	rc = sqlite3_prepare_v2(t->db, text, -1, &q->stmt, NULL);
	sqlite3_free(text);
	if (rc != SQLITE_OK)
		return set_error(t, rc, sqlite3_mprintf("SPAN_JOIN: %s", sqlite3_errmsg(t->db)));
	for (int b = 0; b < nbind; b++)
		sqlite3_bind_value(q->stmt, b + 1, binds[b]);
	return SQLITE_OK;
}

static int x_filter(sqlite3_vtab_cursor *cur, int plan, const char *idxstr, int argc,
		    sqlite3_value **argv)
{
	struct cursor *c = (struct cursor *)cur;
	struct table *t = (struct table *)cur->pVtab;
	sqlite3_value *part = NULL, *ts_hi = NULL;
	char *msg = NULL;
	int a = 0, rc;

	(void)idxstr;
	(void)argc;
	if (plan & SJ_PLAN_PART)
		part = argv[a++];
	if (plan & SJ_PLAN_TS_LE)
		ts_hi = argv[a++];
	c->rowid = 0;
	c->mixed_set = 0;
	for (int i = 0; i < 2; i++) {
		struct query *q = &c->q[i];
		int missing_if_empty;

		if ((rc = prepare_side(t, q, i, plan, part, ts_hi)) != SQLITE_OK)
			return rc;
		if ((rc = q_rewind(q, &msg)) != SQLITE_OK)
			return set_error(t, rc, msg);
		/* An empty side of an outer (or the right of a left) join is
		 * one missing-partition shadow over everything. */
		missing_if_empty = (t->kind == SJ_OUTER || (i == 1 && t->kind == SJ_LEFT)) &&
				   !(t->partitioning == PART_MIXED && q->d->part);
		if (missing_if_empty && q->state == ST_EOF)
			q->state = ST_MISSING;
	}
	if ((rc = find_overlap(t, c, &msg)) != SQLITE_OK)
		return set_error(t, rc, msg);
	return SQLITE_OK;
}

static int x_next(sqlite3_vtab_cursor *cur)
{
	struct cursor *c = (struct cursor *)cur;
	struct table *t = (struct table *)cur->pVtab;
	char *msg = NULL;
	int rc;

	c->rowid++;
	if ((rc = q_next(c->next, &msg)) != SQLITE_OK || (rc = find_overlap(t, c, &msg)) != SQLITE_OK)
		return set_error(t, rc, msg);
	return SQLITE_OK;
}

static int x_eof(sqlite3_vtab_cursor *cur)
{
	const struct cursor *c = (const struct cursor *)cur;

	return c->q[0].state == ST_EOF || c->q[1].state == ST_EOF;
}

static int x_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	const struct cursor *c = (const struct cursor *)cur;
	const struct table *t = (const struct table *)cur->pVtab;
	const struct query *a = &c->q[0], *b = &c->q[1];
	const struct query *q;
	int64_t start = a->ts > b->ts ? a->ts : b->ts;
	int j;

	if (col == COL_TS) {
		sqlite3_result_int64(ctx, start);
		return SQLITE_OK;
	}
	if (col == COL_DUR) {
		int64_t end = a->ts_end < b->ts_end ? a->ts_end : b->ts_end;

		sqlite3_result_int64(ctx, end - start);
		return SQLITE_OK;
	}
	if (col == COL_PART && t->partitioning != PART_NONE) {
		if (t->partitioning == PART_MIXED)
			sqlite3_result_int64(ctx, c->mixed_part);
		else
			sqlite3_result_int64(ctx, a->state == ST_REAL ? a->part : b->part);
		return SQLITE_OK;
	}
	q = &c->q[t->loc_side[col]];
	j = t->loc_col[col];
	if (q->state == ST_REAL)
		sqlite3_result_value(ctx, sqlite3_column_value(q->stmt, j));
	return SQLITE_OK;
}

static int x_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
	*rowid = ((const struct cursor *)cur)->rowid;
	return SQLITE_OK;
}

static const sqlite3_module module = {
	.iVersion = 0,
	.xCreate = x_create,
	.xConnect = x_create,
	.xBestIndex = x_best_index,
	.xDisconnect = x_disconnect,
	.xDestroy = x_disconnect,
	.xOpen = x_open,
	.xClose = x_close,
	.xFilter = x_filter,
	.xNext = x_next,
	.xEof = x_eof,
	.xColumn = x_column,
	.xRowid = x_rowid,
};

int tt_sql_register_span_join(sqlite3 *db)
{
	int rc = sqlite3_create_module(db, "span_join", &module, (void *)(intptr_t)SJ_INNER);

	if (rc == SQLITE_OK)
		rc = sqlite3_create_module(db, "span_left_join", &module, (void *)(intptr_t)SJ_LEFT);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_module(db, "span_outer_join", &module, (void *)(intptr_t)SJ_OUTER);
	return rc;
}
