/*
 * query.c - running SQL over a trace: every statement of a script runs in
 * order, the last one's rows are printed (table, tsv, csv, json) or
 * collected as strings for the viewer and tests.
 */
#include "trace_int.h"
#include "perfetto_sql.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Calls row_fn for each row of the last statement of sql. Returns TT_OK or
 * TT_EINVAL with SQLite's message. */
typedef int (*row_fn)(void *ctx, sqlite3_stmt *stmt);

/* Non-zero when text holds no further statement: only blanks, comments
 * and semicolons. */
static int only_blank(const char *p)
{
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == ';')
			p++;
		if (p[0] == '-' && p[1] == '-') {
			while (*p && *p != '\n')
				p++;
		} else if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");

			if (!e)
				return 1;
			p = e + 2;
		} else {
			return *p == '\0';
		}
	}
}

struct script {
	row_fn header, row;
	void *ctx;
	int cb_failed;
};

/* Runs one statement of the script (PerfettoSQL already done by
 * perfetto_sql.c); only the script's last statement has its rows read. */
static int run_one(void *vs, sqlite3 *db, const char *sql, int last, tt_err *err)
{
	struct script *s = vs;
	sqlite3_stmt *cur = NULL;
	const char *tail = sql;

	while (!only_blank(tail)) {
		int step, is_last;

		if (sqlite3_prepare_v2(db, tail, -1, &cur, &tail) != SQLITE_OK)
			goto sql_error;
		if (!cur)
			continue;
		is_last = last && only_blank(tail);
		if (is_last && s->header && s->header(s->ctx, cur))
			goto cb_error;
		while ((step = sqlite3_step(cur)) == SQLITE_ROW) {
			if (is_last && s->row(s->ctx, cur))
				goto cb_error;
		}
		if (step != SQLITE_DONE)
			goto sql_error;
		sqlite3_finalize(cur);
		cur = NULL;
	}
	return TT_OK;
sql_error:
	tt_err_set(err, TT_EINVAL, "%s", sqlite3_errmsg(db));
	sqlite3_finalize(cur);
	return TT_EINVAL;
cb_error:
	sqlite3_finalize(cur);
	s->cb_failed = 1;
	return tt_err_set(err, TT_ENOMEM, "out of memory while reading the result");
}

tt_psql *tt_psql_of(tt_trace *tr);

static int run_script(tt_trace *tr, const char *sql, row_fn header, row_fn row, void *ctx,
		      tt_err *err)
{
	struct script s = { .header = header, .row = row, .ctx = ctx };
	tt_psql *ps = tt_psql_of(tr);

	if (!ps)
		return tt_err_set(err, TT_ENOMEM, "out of memory");
	if (tt_psql_prelude(ps, err) != TT_OK)
		return err->code;
	return tt_psql_run(ps, sql, NULL, NULL, run_one, &s, err);
}

/* ---- collecting ------------------------------------------------------------ */

struct collect {
	tt_result *r;
	size_t max_rows, cap;
	size_t skip; /* rows before the kept ones (paging) */
};

static int collect_header(void *ctx, sqlite3_stmt *s)
{
	struct collect *c = ctx;
	int n = sqlite3_column_count(s);

	c->r->ncols = n;
	c->r->cols = calloc((size_t)(n ? n : 1), sizeof(char *));
	if (!c->r->cols)
		return -1;
	for (int i = 0; i < n; i++) {
		c->r->cols[i] = strdup(sqlite3_column_name(s, i));
		if (!c->r->cols[i])
			return -1;
	}
	return 0;
}

static int collect_row(void *ctx, sqlite3_stmt *s)
{
	struct collect *c = ctx;
	tt_result *r = c->r;
	size_t base;

	r->total_rows++;
	if (r->total_rows <= c->skip || (c->max_rows && r->nrows >= c->max_rows))
		return 0;
	if ((r->nrows + 1) * (size_t)r->ncols > c->cap) {
		size_t ncap = c->cap ? c->cap * 2 : 64 * (size_t)(r->ncols ? r->ncols : 1);
		char **nc = realloc(r->cells, ncap * sizeof(char *));

		if (!nc)
			return -1;
		r->cells = nc;
		c->cap = ncap;
	}
	base = r->nrows * (size_t)r->ncols;
	for (int i = 0; i < r->ncols; i++) {
		const unsigned char *t = sqlite3_column_text(s, i);

		r->cells[base + i] = t ? strdup((const char *)t) : NULL;
		if (t && !r->cells[base + i])
			return -1;
	}
	r->nrows++;
	return 0;
}

int tt_query_collect(tt_trace *tr, const char *sql, size_t max_rows, tt_result *out, tt_err *err)
{
	struct collect c = { .r = out, .max_rows = max_rows };
	int rc;

	memset(out, 0, sizeof(*out));
	rc = run_script(tr, sql, collect_header, collect_row, &c, err);
	if (rc != TT_OK)
		tt_result_free(out);
	return rc;
}

int tt_query_collect_page(tt_trace *tr, const char *sql, size_t offset, size_t max_rows,
			  tt_result *out, tt_err *err)
{
	struct collect c = { .r = out, .max_rows = max_rows, .skip = offset };
	char *last;
	int rc;

	/* only the last statement runs again: the earlier ones ran with the
	 * first page, and what they made (views, tables, macros, included
	 * modules) is still there; the PerfettoSQL splitter finds it */
	memset(out, 0, sizeof(*out));
	last = tt_psql_last_statement(sql, err);
	if (!last)
		return err->code;
	rc = run_script(tr, last, collect_header, collect_row, &c, err);
	free(last);
	if (rc != TT_OK)
		tt_result_free(out);
	return rc;
}

void tt_result_free(tt_result *r)
{
	if (!r)
		return;
	for (size_t i = 0; r->cells && i < r->nrows * (size_t)r->ncols; i++)
		free(r->cells[i]);
	for (int i = 0; r->cols && i < r->ncols; i++)
		free(r->cols[i]);
	free(r->cells);
	free(r->cols);
	memset(r, 0, sizeof(*r));
}

void tt_query_interrupt(tt_trace *tr)
{
	if (tr && tr->db)
		sqlite3_interrupt(tr->db);
}

/* ---- printing ------------------------------------------------------------------- */

struct printer {
	FILE *out;
	tt_query_format fmt;
	int header;
	size_t nrows;
	int opened; /* the JSON array's '[' is out */
};

static void put_csv(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void put_tsv(FILE *f, const char *s)
{
	/* Tabs and newlines inside a value would break the row. */
	for (; *s; s++)
		fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
}

static void put_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch == '\n')
			fputs("\\n", f);
		else if (ch == '\t')
			fputs("\\t", f);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static int print_header(void *ctx, sqlite3_stmt *s)
{
	struct printer *p = ctx;
	int n = sqlite3_column_count(s);

	if (p->fmt == TT_FMT_JSON) {
		fputc('[', p->out);
		p->opened = 1;
		return 0;
	}
	if (!p->header)
		return 0;
	for (int i = 0; i < n; i++) {
		if (i)
			fputc(p->fmt == TT_FMT_CSV ? ',' : '\t', p->out);
		if (p->fmt == TT_FMT_CSV)
			put_csv(p->out, sqlite3_column_name(s, i));
		else
			put_tsv(p->out, sqlite3_column_name(s, i));
	}
	fputc('\n', p->out);
	return 0;
}

static int print_row(void *ctx, sqlite3_stmt *s)
{
	struct printer *p = ctx;
	int n = sqlite3_column_count(s);

	if (p->fmt == TT_FMT_JSON)
		fputs(p->nrows ? ",\n{" : "\n{", p->out);
	for (int i = 0; i < n; i++) {
		int type = sqlite3_column_type(s, i);
		const char *t = (const char *)sqlite3_column_text(s, i);

		if (p->fmt == TT_FMT_JSON) {
			if (i)
				fputc(',', p->out);
			put_json_str(p->out, sqlite3_column_name(s, i));
			fputc(':', p->out);
			if (type == SQLITE_NULL)
				fputs("null", p->out);
			else if (type == SQLITE_INTEGER || type == SQLITE_FLOAT)
				fputs(t, p->out);
			else
				put_json_str(p->out, t);
			continue;
		}
		if (i)
			fputc(p->fmt == TT_FMT_CSV ? ',' : '\t', p->out);
		if (type == SQLITE_NULL)
			fputs(p->fmt == TT_FMT_CSV ? "" : "NULL", p->out);
		else if (p->fmt == TT_FMT_CSV)
			put_csv(p->out, t);
		else
			put_tsv(p->out, t);
	}
	if (p->fmt == TT_FMT_JSON)
		fputc('}', p->out);
	else
		fputc('\n', p->out);
	p->nrows++;
	return 0;
}

/* Display width of UTF-8 text (code points; good enough for names). */
static size_t text_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

static void print_table(FILE *out, const tt_result *r, int header)
{
	size_t *w = calloc((size_t)(r->ncols ? r->ncols : 1), sizeof(size_t));

	if (!w)
		return;
	for (int c = 0; c < r->ncols; c++) {
		w[c] = header ? text_width(r->cols[c]) : 0;
		for (size_t i = 0; i < r->nrows; i++) {
			const char *t = r->cells[i * (size_t)r->ncols + c];
			size_t tw = text_width(t ? t : "NULL");

			if (tw > w[c])
				w[c] = tw;
		}
	}
	if (header) {
		for (int c = 0; c < r->ncols; c++) {
			fprintf(out, "%s%s", c ? "  " : "", r->cols[c]);
			if (c + 1 < r->ncols)
				fprintf(out, "%*s", (int)(w[c] - text_width(r->cols[c])), "");
		}
		fputc('\n', out);
		for (int c = 0; c < r->ncols; c++) {
			fputs(c ? "  " : "", out);
			for (size_t k = 0; k < w[c]; k++)
				fputc('-', out);
		}
		fputc('\n', out);
	}
	for (size_t i = 0; i < r->nrows; i++) {
		for (int c = 0; c < r->ncols; c++) {
			const char *t = r->cells[i * (size_t)r->ncols + c];

			if (!t)
				t = "NULL";
			fprintf(out, "%s%s", c ? "  " : "", t);
			if (c + 1 < r->ncols)
				fprintf(out, "%*s", (int)(w[c] - text_width(t)), "");
		}
		fputc('\n', out);
	}
	free(w);
}

int tt_query_print(tt_trace *tr, const char *sql, tt_query_format fmt, int header, FILE *out,
		   tt_err *err)
{
	struct printer p = { .out = out, .fmt = fmt, .header = header };
	int rc;

	if (fmt == TT_FMT_TABLE) {
		tt_result r;

		rc = tt_query_collect(tr, sql, 0, &r, err);
		if (rc == TT_OK) {
			print_table(out, &r, header);
			tt_result_free(&r);
		}
		return rc;
	}
	rc = run_script(tr, sql, print_header, print_row, &p, err);
	/* a script ending in CREATE PERFETTO ... has no result: an empty array */
	if (rc == TT_OK && fmt == TT_FMT_JSON)
		fputs(p.nrows ? "\n]\n" : p.opened ? "]\n" : "[]\n", out);
	return rc;
}
