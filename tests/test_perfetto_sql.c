/*
 * test_perfetto_sql.c - the PerfettoSQL preprocessor (core/sql/
 * perfetto_sql.c, psql_func.c, modules.c): every statement form, macros
 * (nested, recursive, bad), types, INCLUDE from user folders (once,
 * wildcards, cycles, unknown names), errors with line and column, and the
 * shipped modules on a trace written here, against values worked out by
 * hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "testutil.h"

/* Two processes. Process 1 "app": thread 11 "main" with a tree
 *   A [0, 100)  > B [10, 40) > C [15, 25)
 *               > B [50, 90)
 * and thread 12 "worker" with A [200, 260). Process 2 "svc": thread 21
 * with D [5, 15), and an async slice E [30, 70), process-scoped by an id2.local
 * id (a plain id is trace-wide, as trace processor has it).
 * Flows go B(10) -> B(50) -> A(200).
 * Timestamps are in us in the JSON, so ns values are x1000. */
static const char trace_json[] =
	"{\"traceEvents\":["
	"{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"tid\":11,\"args\":{\"name\":\"app\"}},"
	"{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":11,\"args\":{\"name\":\"main\"}},"
	"{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":12,\"args\":{\"name\":\"worker\"}},"
	"{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":2,\"tid\":21,\"args\":{\"name\":\"svc\"}},"
	"{\"ph\":\"X\",\"name\":\"A\",\"cat\":\"c\",\"ts\":0,\"dur\":100,\"pid\":1,\"tid\":11},"
	"{\"ph\":\"X\",\"name\":\"B\",\"cat\":\"c\",\"ts\":10,\"dur\":30,\"pid\":1,\"tid\":11},"
	"{\"ph\":\"X\",\"name\":\"C\",\"cat\":\"c\",\"ts\":15,\"dur\":10,\"pid\":1,\"tid\":11},"
	"{\"ph\":\"X\",\"name\":\"B\",\"cat\":\"c\",\"ts\":50,\"dur\":40,\"pid\":1,\"tid\":11},"
	"{\"ph\":\"X\",\"name\":\"A\",\"cat\":\"c\",\"ts\":200,\"dur\":60,\"pid\":1,\"tid\":12},"
	"{\"ph\":\"X\",\"name\":\"D\",\"cat\":\"c\",\"ts\":5,\"dur\":10,\"pid\":2,\"tid\":21},"
	"{\"ph\":\"b\",\"name\":\"E\",\"cat\":\"c\",\"id2\":{\"local\":\"0x1\"},\"ts\":30,\"pid\":2,\"tid\":21},"
	"{\"ph\":\"e\",\"name\":\"E\",\"cat\":\"c\",\"id2\":{\"local\":\"0x1\"},\"ts\":70,\"pid\":2,\"tid\":21},"
	"{\"ph\":\"s\",\"name\":\"f\",\"cat\":\"c\",\"id\":7,\"ts\":12,\"pid\":1,\"tid\":11},"
	"{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"f\",\"cat\":\"c\",\"id\":7,\"ts\":60,\"pid\":1,\"tid\":11},"
	"{\"ph\":\"s\",\"name\":\"g\",\"cat\":\"c\",\"id\":8,\"ts\":70,\"pid\":1,\"tid\":11},"
	"{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"g\",\"cat\":\"c\",\"id\":8,\"ts\":210,\"pid\":1,\"tid\":12}"
	"]}";

struct fx {
	char *trace, *dir, *xdg;
	tt_trace *tr;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	/* no module of the user running the tests may leak in */
	f->xdg = tt_test_mkdtemp();
	setenv("XDG_DATA_HOME", f->xdg, 1);
	f->trace = tt_test_write_tmp(trace_json, sizeof(trace_json) - 1, ".json");
	f->dir = tt_test_mkdtemp();
	f->tr = tt_test_open(f->trace);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	tt_trace_close(f->tr);
	tt_test_rm(f->trace);
	tt_test_rm(f->dir);
	tt_test_rm(f->xdg);
	free(f);
	return 0;
}

/* Writes dir/rel (making its folders). */
static void put_file(const char *dir, const char *rel, const char *text)
{
	char p[4096];
	FILE *fp;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	for (char *s = p + strlen(dir) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	fp = fopen(p, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

/* The error of sql, which must fail. */
static const char *err_of(tt_trace *tr, const char *sql)
{
	static tt_err err;
	tt_result r;

	memset(&err, 0, sizeof(err));
	if (tt_query_collect(tr, sql, 0, &r, &err) == TT_OK) {
		tt_result_free(&r);
		fail_msg("expected an error from [%s]", sql);
	}
	return err.msg;
}

static void assert_err(tt_trace *tr, const char *sql, const char *want)
{
	const char *msg = err_of(tr, sql);

	if (!strstr(msg, want))
		fail_msg("error of [%s] is [%s], lacks [%s]", sql, msg, want);
}


/* ---- tables, views, indexes ------------------------------------------------------ */

static void perfetto_table(void **state)
{
	tt_trace *tr = ((struct fx *)*state)->tr;

	tt_test_assert_tsv(tr,
		   "CREATE PERFETTO TABLE t(x INT, s STRING) AS SELECT 1 AS x, 'a' AS s UNION ALL SELECT 2, 'b';"
		   "SELECT sum(x), group_concat(s, '') FROM t",
		   "3\tab\n");
	/* again without OR REPLACE: refused, and says how */
	assert_err(tr, "CREATE PERFETTO TABLE t AS SELECT 5 AS x", "table 't' already exists");
	tt_test_assert_tsv(tr, "CREATE OR REPLACE PERFETTO TABLE t AS SELECT 5 AS x; SELECT x FROM t", "5\n");
	/* schema and result disagree */
	assert_err(tr, "CREATE PERFETTO TABLE u(x INT, y INT) AS SELECT 1 AS x",
		   "declared column 'y' is not in the result");
	assert_err(tr, "CREATE PERFETTO TABLE u(x INT) AS SELECT 1 AS x, 2 AS z",
		   "column 'z' is not in the declared schema");
	/* a value of the wrong type */
	assert_err(tr, "CREATE PERFETTO TABLE u(x INT) AS SELECT 1 AS x UNION ALL SELECT 'no'",
		   "'u': column 'x' is declared INT but holds a text value");
	/* the failed table is not left behind */
	assert_err(tr, "SELECT * FROM u", "no such table: u");
	assert_err(tr, "CREATE PERFETTO TABLE u(x WIBBLE) AS SELECT 1 AS x", "unknown type 'WIBBLE' for 'x'");
	/* DOUBLE takes integers too; ID(...) names what it refers to */
	tt_test_assert_tsv(tr, "CREATE PERFETTO TABLE d(v DOUBLE, i ID(slice.id)) AS SELECT 1 AS v, 2 AS i "
		       "UNION ALL SELECT 2.5, 3; SELECT sum(v), sum(i) FROM d",
		   "3.5\t5\n");
}

/* perfetto_table_info: a PERFETTO TABLE's columns typed as trace
 * processor's dataframe builder types them, from their values. */
static void perfetto_table_info(void **state)
{
	tt_trace *tr = ((struct fx *)*state)->tr;

	tt_test_assert_tsv(tr,
		   "CREATE PERFETTO TABLE ti AS"
		   " SELECT 0 AS k, 5 AS g, -3 AS neg, 5000000000 AS big, 0.5 AS r, 'a' AS s, NULL AS n, 7 AS o"
		   " UNION ALL SELECT 1, 5, 4, 1, 1.5, 'b', NULL, NULL"
		   " UNION ALL SELECT 2, 6, 9, 2, 2.5, 'c', NULL, 3;"
		   "SELECT id, name, col_type, nullable, sorted FROM perfetto_table_info('ti')",
		   "0\tk\tid\t0\t0\n"          /* 0, 1, 2: the row ids */
		   "1\tg\tuint32\t0\t2\n"      /* sorted with repeats, not from 0 */
		   "2\tneg\tint32\t0\t2\n"
		   "3\tbig\tint64\t0\t3\n"
		   "4\tr\tdouble\t0\t2\n"
		   "5\ts\tstring\t0\t2\n"
		   "6\tn\tuint32\t1\t3\n"      /* no value at all */
		   "7\to\tuint32\t1\t3\n"      /* a NULL: sparse, unsorted */
		   "8\t_auto_id\tid\t0\t0\n");
	/* 0, 0, 2, 2: a set id (each value the index of its first row) */
	tt_test_assert_tsv(tr,
		   "CREATE PERFETTO TABLE ts AS SELECT 0 AS x UNION ALL SELECT 0 UNION ALL SELECT 2 UNION ALL SELECT 2;"
		   "SELECT col_type, sorted FROM perfetto_table_info('ts') WHERE name = 'x'", "uint32\t1\n");
	assert_err(tr, "SELECT * FROM perfetto_table_info('nope')", "Perfetto table 'nope' not found.");
	assert_err(tr, "SELECT * FROM perfetto_table_info(3)", "takes table name as a string");
}

static void perfetto_view_and_index(void **state)
{
	tt_trace *tr = ((struct fx *)*state)->tr;

	/* a view may read the built-in (temp) views such as thread_track */
	tt_test_assert_tsv(tr,
		   "CREATE PERFETTO VIEW v(name STRING, n LONG) AS "
		   "SELECT s.name, count(*) AS n FROM slice s JOIN thread_track t ON s.track_id = t.id "
		   "GROUP BY s.name;"
		   "SELECT name, n FROM v ORDER BY name",
		   "A\t2\nB\t2\nC\t1\nD\t1\n");
	assert_err(tr, "CREATE PERFETTO VIEW v AS SELECT 1", "view 'v' already exists");
	tt_test_assert_tsv(tr, "CREATE OR REPLACE PERFETTO VIEW v AS SELECT 7 AS n; SELECT n FROM v", "7\n");
	tt_test_assert_tsv(tr,
		   "CREATE PERFETTO TABLE big AS WITH RECURSIVE g(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM g "
		   "WHERE k < 100) SELECT k FROM g;"
		   "CREATE PERFETTO INDEX big_k ON big(k);"
		   "SELECT count(*) FROM pragma_index_list('big')",
		   "1\n");
	tt_test_assert_tsv(tr, "CREATE OR REPLACE PERFETTO INDEX big_k ON big(k); SELECT count(*) FROM big WHERE k > 90",
		   "10\n");
}

/* ---- functions ----------------------------------------------------------------------- */

static void perfetto_functions(void **state)
{
	tt_trace *tr = ((struct fx *)*state)->tr;

	tt_test_assert_tsv(tr, "CREATE PERFETTO FUNCTION add1(x INT) RETURNS INT AS SELECT $x + 1; SELECT add1(41)",
		   "42\n");
	/* several arguments, a string, no row -> NULL */
	tt_test_assert_tsv(tr,
		   "CREATE PERFETTO FUNCTION greet(who STRING, n LONG) RETURNS STRING AS "
		   "SELECT 'hi ' || $who || ' x' || $n WHERE $n > 0;"
		   "SELECT greet('bob', 2), ifnull(greet('x', 0), 'none')",
		   "hi bob x2\tnone\n");
	/* recursion: each nested call has its own statement */
	tt_test_assert_tsv(tr,
		   "CREATE PERFETTO FUNCTION fib(n INT) RETURNS INT AS "
		   "SELECT IIF($n < 2, $n, fib($n - 1) + fib($n - 2));"
		   "SELECT fib(15)",
		   "610\n");
	/* endless recursion: an error, not a crash */
	assert_err(tr, "CREATE PERFETTO FUNCTION forever(x INT) RETURNS INT AS SELECT forever($x + 1);"
		       "SELECT forever(1)",
		   "forever: calls nested deeper than 400 (endless recursion?)");
	tt_test_assert_tsv(tr, "CREATE PERFETTO FUNCTION depth(x INT) RETURNS INT AS "
		       "SELECT IIF($x = 0, 0, 1 + depth($x - 1)); SELECT depth(399)",
		   "399\n");
	/* a function over the trace */
	tt_test_assert_tsv(tr,
		   "CREATE PERFETTO FUNCTION slices_named(n STRING) RETURNS LONG AS "
		   "SELECT count(*) FROM slice WHERE name = $n;"
		   "SELECT slices_named('B'), slices_named('Z')",
		   "2\t0\n");
	assert_err(tr, "CREATE PERFETTO FUNCTION add1(x INT) RETURNS INT AS SELECT 0",
		   "function 'add1' already exists");
	tt_test_assert_tsv(tr, "CREATE OR REPLACE PERFETTO FUNCTION add1(x INT) RETURNS INT AS SELECT $x + 100;"
		       "SELECT add1(1)",
		   "101\n");
	/* types checked on the way in and out */
	assert_err(tr, "SELECT add1('text')", "argument x is declared INT but given a STRING value");
	assert_err(tr, "CREATE PERFETTO FUNCTION bad() RETURNS INT AS SELECT 'x'; SELECT bad()",
		   "bad: declared to return INT but returned a STRING value");
	assert_err(tr, "CREATE PERFETTO FUNCTION bad2(x NUMBER) RETURNS INT AS SELECT 1",
		   "unknown type 'NUMBER' for argument 'x'");
	assert_err(tr, "CREATE PERFETTO FUNCTION bad3() RETURNS INT AS SELECT * FROM nowhere",
		   "function 'bad3': no such table: nowhere");
	/* older spelling, with memoization: 2^40 calls without it */
	tt_test_assert_tsv(tr,
		   "SELECT create_function('pow2(x INT)', 'INT', 'SELECT IIF($x = 0, 1, pow2($x - 1) + pow2($x - 1))');"
		   "SELECT experimental_memoize('pow2');"
		   "SELECT pow2(40)",
		   "1099511627776\n");
	/* DELEGATES TO: another name for an existing function */
	tt_test_assert_tsv(tr, "CREATE PERFETTO FUNCTION my_max(a ANY...) RETURNS INT DELEGATES TO max;"
		       "SELECT my_max(3, 9, 4), my_max(1, 2)",
		   "9\t2\n");
}

static void perfetto_table_functions(void **state)
{
	tt_trace *tr = ((struct fx *)*state)->tr;

	tt_test_assert_tsv(tr,
		   "CREATE PERFETTO FUNCTION kids(p LONG) RETURNS TABLE(id LONG, name STRING) AS "
		   "SELECT id, name FROM slice WHERE parent_id = $p ORDER BY ts;"
		   "SELECT k.name FROM slice s, kids(s.id) k WHERE s.name = 'A' AND s.depth = 0 "
		   "ORDER BY k.name",
		   "B\nB\n");
	tt_test_assert_tsv(tr, "SELECT count(*) FROM kids(999)", "0\n");
	/* columns in another order than declared: matched by name */
	tt_test_assert_tsv(tr,
		   "CREATE PERFETTO FUNCTION pairs(n INT) RETURNS TABLE(a INT, b INT) AS "
		   "WITH RECURSIVE g(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM g WHERE v < $n) "
		   "SELECT v * 10 AS b, v AS a FROM g;"
		   "SELECT group_concat(a || ':' || b, ' ') FROM pairs(3)",
		   "1:10 2:20 3:30\n");
	assert_err(tr, "CREATE PERFETTO FUNCTION badt() RETURNS TABLE(a INT) AS SELECT 1 AS b",
		   "declared column 'a' is not in the body's result");
	assert_err(tr, "CREATE PERFETTO FUNCTION badt2() RETURNS TABLE(a INT) AS SELECT 'x' AS a;"
		       "SELECT * FROM badt2()",
		   "column a is declared INT but holds a STRING value");
	assert_err(tr, "CREATE PERFETTO FUNCTION tforever(x INT) RETURNS TABLE(y INT) AS "
		       "SELECT y FROM tforever($x + 1); SELECT * FROM tforever(1)",
		   "col 98: tforever: calls nested deeper than 400 (endless recursion?)");
	/* the older spelling */
	tt_test_assert_tsv(tr,
		   "SELECT create_view_function('sq(n INT)', 'v INT', 'WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM g WHERE x < $n) SELECT x * x AS v FROM g');"
		   "SELECT sum(v) FROM sq(4)",
		   "30\n");
}

/* ---- macros -------------------------------------------------------------------------------- */

static void perfetto_macros(void **state)
{
	tt_trace *tr = ((struct fx *)*state)->tr;

	tt_test_assert_tsv(tr,
		   "CREATE PERFETTO MACRO twice(x Expr) RETURNS Expr AS (($x) * 2);"
		   "SELECT twice!(21)",
		   "42\n");
	/* nested in arguments and in bodies; arguments with commas in parens */
	tt_test_assert_tsv(tr,
		   "CREATE PERFETTO MACRO plus(a Expr, b Expr) RETURNS Expr AS ($a + $b);"
		   "CREATE PERFETTO MACRO quad(x Expr) RETURNS Expr AS twice!(twice!($x));"
		   "SELECT quad!(plus!(max(1, 2), 3)), twice!(plus!(1, twice!(2)))",
		   "20\t10\n");
	/* a table macro used in FROM and as a whole statement */
	tt_test_assert_tsv(tr,
		   "CREATE PERFETTO MACRO named(tab TableOrSubquery, n Expr) RETURNS TableOrSubquery AS "
		   "(SELECT * FROM $tab WHERE name = $n);"
		   "SELECT count(*) FROM named!(slice, 'B')",
		   "2\n");
	tt_test_assert_tsv(tr,
		   "CREATE PERFETTO MACRO all_of(tab TableOrSubquery) RETURNS TableOrSubquery AS "
		   "SELECT count(*) AS n FROM $tab;"
		   "all_of!(thread_track)",
		   "3\n");
	/* a macro with no argument; replacement */
	tt_test_assert_tsv(tr, "CREATE PERFETTO MACRO one() RETURNS Expr AS 1; SELECT one!() + one!()", "2\n");
	assert_err(tr, "CREATE PERFETTO MACRO one() RETURNS Expr AS 5", "macro 'one' already exists");
	tt_test_assert_tsv(tr, "CREATE OR REPLACE PERFETTO MACRO one() RETURNS Expr AS 5; SELECT one!()", "5\n");
	/* text in strings and comments is not a macro call */
	tt_test_assert_tsv(tr, "SELECT 'one!()' -- one!()\n", "one!()\n");
	tt_test_assert_tsv(tr, "SELECT __intrinsic_stringify!(a + b)", "a + b\n");
	/* splitting: a trigger body's ';' and quoted ones do not end a statement */
	tt_test_assert_tsv(tr,
		   "CREATE TABLE tg(x); CREATE TABLE tg2(y);"
		   "CREATE TRIGGER tgt AFTER INSERT ON tg BEGIN INSERT INTO tg2 VALUES (new.x * 2); END;"
		   "INSERT INTO tg VALUES (21); SELECT y, 'a;b', \"c;d\" FROM tg2, (SELECT 1 AS \"c;d\") -- ;x\n",
		   "42\ta;b\t1\n");
}

static void macro_errors(void **state)
{
	tt_trace *tr = ((struct fx *)*state)->tr;

	free(tt_test_tsv(tr, "CREATE PERFETTO MACRO pair(a Expr, b Expr) RETURNS Expr AS ($a, $b)"));
	/* wrong arity, at line 2 col 8 of a two-statement script */
	assert_err(tr, "SELECT 1;\nSELECT pair!(1)", "line 2 col 8: macro 'pair' takes 2 arguments, given 1");
	/* unterminated invocation */
	assert_err(tr, "SELECT 1;\n  SELECT pair!(1, (2)", "line 2 col 10: unterminated macro invocation 'pair!('");
	assert_err(tr, "SELECT nope!(1)", "no macro 'nope'");
	/* recursion stops at the depth limit */
	assert_err(tr, "CREATE PERFETTO MACRO forever(x Expr) RETURNS Expr AS forever!($x);"
		       "SELECT forever!(1)",
		   "macro 'forever': expansion nested deeper than 64");
	/* exponential expansion: an error, not all the memory (a long body,
	 * so that the size limit comes before the count of calls) */
	assert_err(tr, "CREATE PERFETTO MACRO d0(x Expr) RETURNS Expr AS ($x + $x + $x + $x"
		       " + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1"
		       " + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1);"
		       "CREATE PERFETTO MACRO d1(x Expr) RETURNS Expr AS d0!(d0!(d0!($x)));"
		       "CREATE PERFETTO MACRO d2(x Expr) RETURNS Expr AS d1!(d1!(d1!($x)));"
		       "CREATE PERFETTO MACRO d3(x Expr) RETURNS Expr AS d2!(d2!(d2!($x)));"
		       "SELECT d3!(1)",
		   "expands to more than 8 MiB of SQL");
	/* exponential calls that expand to nothing: stopped by their count
	 * (3^10 = 59049 calls are fine, 3^11 are too many) */
	{
		char sql[2048];
		int n = snprintf(sql, sizeof(sql),
				 "CREATE PERFETTO MACRO e0(x Expr) RETURNS Expr AS /* nothing */ ;");

		for (int i = 1; i <= 11; i++)
			n += snprintf(sql + n, sizeof(sql) - (size_t)n,
				      "CREATE PERFETTO MACRO e%d(x Expr) RETURNS Expr AS e%d!($x) e%d!($x) e%d!($x);",
				      i, i - 1, i - 1, i - 1);
		snprintf(sql + n, sizeof(sql) - (size_t)n, "SELECT 7 e10!(1)");
		tt_test_assert_tsv(tr, sql, "7\n");
		assert_err(tr, "SELECT 7 e11!(1)",
			   "macro 'e11': its expansion makes more than 100000 macro calls");
	}
	/* bad definitions */
	assert_err(tr, "CREATE PERFETTO MACRO m(a Expr RETURNS Expr AS $a", "unterminated list");
	assert_err(tr, "CREATE PERFETTO MACRO m(a Expr) AS $a", "macro 'm': expected RETURNS");
	assert_err(tr, "CREATE PERFETTO GADGET g AS SELECT 1", "unknown CREATE PERFETTO 'GADGET'");
	/* a plain SQL error keeps SQLite's words and gains the place */
	assert_err(tr, "SELECT 1;\n\n   SELECT * FROM nowhere", "line 3 col 4: no such table: nowhere");
}

/* ---- modules ------------------------------------------------------------------------------------ */

static void user_modules(void **state)
{
	struct fx *f = *state;
	tt_err err = { 0 };

	put_file(f->dir, "mine/base.sql",
		 "-- counts its own inclusions\n"
		 "CREATE PERFETTO TABLE mine_base AS SELECT 1 AS x;\n"
		 "CREATE PERFETTO FUNCTION mine_double(x INT) RETURNS INT AS SELECT $x * 2;\n");
	put_file(f->dir, "mine/top.sql",
		 "INCLUDE PERFETTO MODULE mine.base;\n"
		 "CREATE PERFETTO VIEW mine_top AS SELECT mine_double(x) AS y FROM mine_base;\n");
	put_file(f->dir, "mine/sub/deep.sql", "CREATE PERFETTO MACRO mine_m() RETURNS Expr AS 77;\n");
	put_file(f->dir, "cyc/a.sql", "SELECT 1;\nINCLUDE PERFETTO MODULE cyc.b;\n");
	put_file(f->dir, "cyc/b.sql", "INCLUDE PERFETTO MODULE cyc.a;\n");
	put_file(f->dir, "broken/m.sql", "SELECT 1;\n\n  SELECT * FROM no_such_thing;\n");
	assert_int_equal(tt_sql_add_module_dir(f->tr, f->dir, &err), TT_OK);
	assert_int_not_equal(tt_sql_add_module_dir(f->tr, "/no/such/dir", &err), TT_OK);

	/* top includes base; including base again does nothing (no "already
	 * exists" from its CREATE TABLE) */
	tt_test_assert_tsv(f->tr,
		   "INCLUDE PERFETTO MODULE mine.top;\n"
		   "INCLUDE PERFETTO MODULE mine.base;\n"
		   "SELECT y FROM mine_top",
		   "2\n");
	/* wildcard: every module below mine, sub-folders too */
	tt_test_assert_tsv(f->tr, "INCLUDE PERFETTO MODULE mine.*; SELECT mine_m!()", "77\n");
	/* the cycle is found at cyc.b's INCLUDE, line 1 col 1 of cyc/b.sql */
	assert_err(f->tr, "INCLUDE PERFETTO MODULE cyc.a", "module 'cyc.b' (");
	assert_err(f->tr, "INCLUDE PERFETTO MODULE cyc.a",
		   "b.sql) line 1 col 1: include cycle: cyc.a -> cyc.b -> cyc.a");
	assert_err(f->tr, "INCLUDE PERFETTO MODULE broken.m",
		   "module 'broken.m' (");
	assert_err(f->tr, "INCLUDE PERFETTO MODULE broken.m", "m.sql) line 3 col 3: no such table: no_such_thing");
	/* unknown: the known ones are listed (shipped and the user's) */
	assert_err(f->tr, "INCLUDE PERFETTO MODULE x.y",
		   "no module 'x.y' (known: android.aflags, android.entity_state_residency, android.power_rails,"
		   " android.user_list, broken.m, counters.intervals, cyc.a");
	assert_err(f->tr, "INCLUDE PERFETTO MODULE ../etc", "bad module name '../etc'");
	/* the older spelling */
	tt_test_assert_tsv(f->tr, "SELECT import('mine.base'); SELECT x FROM mine_base", "1\n");
}

/* Paging a result (the viewer's n/p) runs the script's last statement
 * again, found by the PerfettoSQL splitter and expanded with the macros
 * and modules the first run defined: SQLite's own splitter stopped at
 * CREATE PERFETTO MACRO. */
static void paging_a_script(void **state)
{
	tt_trace *tr = ((struct fx *)*state)->tr;
	const char *sql = "CREATE PERFETTO MACRO pg_ids() RETURNS TableOrSubquery AS "
			  "(SELECT id FROM slice ORDER BY id);\n"
			  "INCLUDE PERFETTO MODULE slices.with_context;\n"
			  "SELECT id FROM pg_ids!() WHERE id IN (SELECT id FROM thread_slice)";
	tt_result r;
	tt_err err = {0};

	assert_int_equal(tt_query_collect(tr, sql, 3, &r, &err), TT_OK);
	assert_int_equal(r.nrows, 3);
	assert_string_equal(r.cells[0], "0");
	assert_string_equal(r.cells[2], "2");
	tt_result_free(&r);
	assert_int_equal(tt_query_collect_page(tr, sql, 3, 3, &r, &err), TT_OK);
	assert_int_equal(r.nrows, 3);
	{
		char *want = tt_test_tsv(tr, "SELECT group_concat(id, ' ') FROM (SELECT id FROM slice "
					     "WHERE id IN (SELECT id FROM thread_slice) ORDER BY id LIMIT 3 OFFSET 3)");
		char got[64];

		snprintf(got, sizeof got, "%s %s %s\n", r.cells[0], r.cells[1], r.cells[2]);
		assert_string_equal(got, want);
		free(want);
	}
	tt_result_free(&r);
	/* a script of comments only has no statement to page */
	assert_int_not_equal(tt_query_collect_page(tr, "-- nothing", 0, 3, &r, &err), TT_OK);
	assert_non_null(strstr(err.msg, "no SQL statement"));
}

static void shipped_with_context(void **state)
{
	tt_trace *tr = ((struct fx *)*state)->tr;

	tt_test_assert_tsv(tr,
		   "INCLUDE PERFETTO MODULE slices.with_context;"
		   "SELECT name, ts, dur, depth, thread_name, tid, process_name, pid FROM thread_slice "
		   "ORDER BY ts, name",
		   "A\t0\t100000\t0\tmain\t11\tapp\t1\n"
		   "D\t5000\t10000\t0\tNULL\t21\tsvc\t2\n"
		   "B\t10000\t30000\t1\tmain\t11\tapp\t1\n"
		   "C\t15000\t10000\t2\tmain\t11\tapp\t1\n"
		   "B\t50000\t40000\t1\tmain\t11\tapp\t1\n"
		   "A\t200000\t60000\t0\tworker\t12\tapp\t1\n");
	tt_test_assert_tsv(tr,
		   "INCLUDE PERFETTO MODULE slices.with_context;"
		   "SELECT name, ts, dur, process_name, pid FROM process_slice",
		   "E\t30000\t40000\tsvc\t2\n");
	tt_test_assert_tsv(tr,
		   "INCLUDE PERFETTO MODULE slices.with_context;"
		   "SELECT count(*), count(utid), count(upid) FROM thread_or_process_slice",
		   "7\t6\t7\n");
}

static void shipped_hierarchy_and_self_dur(void **state)
{
	tt_trace *tr = ((struct fx *)*state)->tr;

	/* A = 100 - (30 + 40); B(10) = 30 - 10; C has no child */
	tt_test_assert_tsv(tr,
		   "INCLUDE PERFETTO MODULE slices.self_dur;"
		   "SELECT s.name, d.self_dur FROM slice s JOIN slice_self_dur d USING (id) "
		   "WHERE s.track_id = (SELECT track_id FROM slice WHERE name = 'C') ORDER BY s.ts",
		   "A\t30000\nB\t20000\nC\t10000\nB\t40000\n");
	tt_test_assert_tsv(tr,
		   "INCLUDE PERFETTO MODULE slices.hierarchy;"
		   "SELECT group_concat(name, '>') FROM _slice_ancestor_and_self((SELECT id FROM slice WHERE name = 'C'))",
		   "C>A>B\n");
	tt_test_assert_tsv(tr,
		   "INCLUDE PERFETTO MODULE slices.hierarchy;"
		   "SELECT group_concat(name || '@' || ts, ' ') FROM _slice_descendant_and_self("
		   "(SELECT id FROM slice WHERE name = 'A' AND ts = 0))",
		   "A@0 B@10000 C@15000 B@50000\n");
	/* dropping B re-parents C to A, at A's depth */
	tt_test_assert_tsv(tr,
		   "INCLUDE PERFETTO MODULE slices.hierarchy;"
		   "SELECT r.name, p.name, r.depth FROM _slice_remove_nulls_and_reparent!("
		   "(SELECT id, parent_id, depth, IIF(name = 'B', NULL, name) AS name FROM slice), name) r "
		   "LEFT JOIN slice p ON p.id = r.parent_id WHERE r.name IN ('A', 'C') ORDER BY r.id",
		   "A\tNULL\t0\nC\tA\t0\nA\tNULL\t0\n");
}

static void shipped_flat_slices(void **state)
{
	tt_trace *tr = ((struct fx *)*state)->tr;

	/* thread 11's stack A > B > C, B flattened; roots are A (or D) */
	tt_test_assert_tsv(tr,
		   "INCLUDE PERFETTO MODULE slices.flat_slices;"
		   "SELECT group_concat(f.name || '@' || (f.ts / 1000) || '+' || (f.dur / 1000) || '^' || r.name, ' ') "
		   "FROM _slice_flattened f JOIN slice r ON r.id = f.root_id GROUP BY f.utid ORDER BY min(f.ts)",
		   "A@0+10^A B@10+5^A C@15+10^A B@25+15^A A@40+10^A B@50+40^A A@90+10^A\n"
		   "D@5+10^D\n"
		   "A@200+60^A\n");
	tt_test_assert_tsv(tr,
		   "INCLUDE PERFETTO MODULE slices.flat_slices;"
		   "SELECT DISTINCT thread_name, tid, process_name, pid FROM _slice_flattened WHERE name = 'C'",
		   "main\t11\tapp\t1\n");
}

static void shipped_stack(void **state)
{
	tt_trace *tr = ((struct fx *)*state)->tr;

	/* same chain, same id: both B (A > B), both A roots (two threads) */
	tt_test_assert_tsv(tr,
		   "INCLUDE PERFETTO MODULE slices.stack;"
		   "SELECT name, count(DISTINCT stack_id), count(*) FROM slice_with_stack_id "
		   "WHERE name IN ('A', 'B') GROUP BY name ORDER BY name",
		   "A\t1\t2\nB\t1\t2\n");
	/* a root hashes the text of its frame's hash; a child's parent_stack_id
	 * is its parent's stack_id */
	tt_test_assert_tsv(tr,
		   "INCLUDE PERFETTO MODULE slices.stack;"
		   "SELECT s.stack_id = hash(CAST(hash('c|A') AS TEXT)), s.parent_stack_id,"
		   " (SELECT count(*) FROM slice_with_stack_id c WHERE c.parent_id = s.id AND c.parent_stack_id != s.stack_id)"
		   " FROM slice_with_stack_id s WHERE s.name = 'A' AND s.ts = 0",
		   "1\t0\t0\n");
	/* the built-in _by_stack functions agree with the view */
	tt_test_assert_tsv(tr,
		   "INCLUDE PERFETTO MODULE slices.stack;"
		   "SELECT group_concat(name, '>') FROM ancestor_slice_by_stack("
		   "(SELECT stack_id FROM slice_with_stack_id WHERE name = 'C'))",
		   "A>B>C\n");
}

static void shipped_time_conversion(void **state)
{
	tt_trace *tr = ((struct fx *)*state)->tr;

	tt_test_assert_tsv(tr,
		   "INCLUDE PERFETTO MODULE time.conversion;"
		   "SELECT time_from_us(3), time_from_ms(2), time_from_s(1), time_from_min(1), "
		   "time_from_hours(1), time_from_days(1), time_to_ms(2500000), time_to_s(-1500000000)",
		   "3000\t2000000\t1000000000\t60000000000\t3600000000000\t86400000000000\t2\t-1\n");
}

static void shipped_intervals(void **state)
{
	tt_trace *tr = ((struct fx *)*state)->tr;

	/* [0,10) [5,7) [10,15) [20,25) [26,27): open counts and merged runs */
	static const char ivals[] =
		"(SELECT 0 AS ts, 10 AS dur UNION ALL SELECT 5, 2 UNION ALL SELECT 10, 5 "
		"UNION ALL SELECT 20, 5 UNION ALL SELECT 26, 1)";
	char q[1024];

	snprintf(q, sizeof(q),
		 "INCLUDE PERFETTO MODULE intervals.overlap;"
		 "SELECT group_concat(ts || '=' || value, ' ') FROM intervals_overlap_count!(%s, ts, dur)",
		 ivals);
	tt_test_assert_tsv(tr, q, "0=1 5=2 7=1 10=1 15=0 20=1 25=0 26=1 27=0\n");
	snprintf(q, sizeof(q),
		 "INCLUDE PERFETTO MODULE intervals.overlap;"
		 "SELECT group_concat(ts || '+' || dur, ' ') FROM interval_merge_overlapping!(%s, 0)", ivals);
	tt_test_assert_tsv(tr, q, "0+15 20+5 26+1\n");
	/* with epsilon 1 the gap of 1 at 25..26 closes */
	snprintf(q, sizeof(q),
		 "INCLUDE PERFETTO MODULE intervals.overlap;"
		 "SELECT group_concat(ts || '+' || dur, ' ') FROM interval_merge_overlapping!(%s, 1)", ivals);
	tt_test_assert_tsv(tr, q, "0+15 20+7\n");
	tt_test_assert_tsv(tr,
		   "INCLUDE PERFETTO MODULE intervals.overlap;"
		   "SELECT group_concat(group_name || '@' || ts || '=' || value, ' ') FROM "
		   "intervals_overlap_count_by_group!((SELECT ts, dur, name FROM slice WHERE name IN ('B', 'C')), ts, dur, name)",
		   "B@10000=1 B@40000=0 B@50000=1 B@90000=0 C@15000=1 C@25000=0\n");
}

static void shipped_counter_intervals(void **state)
{
	tt_trace *tr = ((struct fx *)*state)->tr;

	/* the trace ends at 260000 (worker's A); track 3 ends in a run of
	 * four equal values: the first two are kept (as Perfetto does, the
	 * run's last is kept only when another value follows) */
	tt_test_assert_tsv(tr,
		   "INCLUDE PERFETTO MODULE counters.intervals;"
		   "SELECT id, ts, dur, track_id, value, next_value, delta_value FROM counter_leading_intervals!("
		   "(SELECT 0 AS id, 0 AS ts, 1 AS track_id, 10.0 AS value UNION ALL SELECT 1, 10, 1, 10.0 "
		   "UNION ALL SELECT 2, 20, 1, 30.0 UNION ALL SELECT 3, 0, 2, 10.0 UNION ALL SELECT 4, 10, 2, 20.0 "
		   "UNION ALL SELECT 5, 0, 3, 5.0 UNION ALL SELECT 6, 1, 3, 5.0 UNION ALL SELECT 7, 2, 3, 5.0 "
		   "UNION ALL SELECT 8, 3, 3, 5.0))",
		   "0\t0\t10\t1\t10.0\t10.0\tNULL\n"
		   "1\t10\t10\t1\t10.0\t30.0\t0.0\n"
		   "2\t20\t259980\t1\t30.0\tNULL\t20.0\n"
		   "3\t0\t10\t2\t10.0\t20.0\tNULL\n"
		   "4\t10\t259990\t2\t20.0\tNULL\t10.0\n"
		   "5\t0\t1\t3\t5.0\t5.0\tNULL\n"
		   "6\t1\t259999\t3\t5.0\tNULL\t0.0\n");
}

static void shipped_intersect_and_flow(void **state)
{
	tt_trace *tr = ((struct fx *)*state)->tr;

	/* thread 11's slices against two windows of the same thread */
	tt_test_assert_tsv(tr,
		   "INCLUDE PERFETTO MODULE intervals.intersect;"
		   "SELECT i.ts, i.dur, s.name, i.id_1, i.track_id FROM _interval_intersect!(("
		   "(SELECT id, ts, dur, track_id FROM slice WHERE depth > 0),"
		   "(SELECT 100 AS id, 20000 AS ts, 40000 AS dur, track_id FROM slice WHERE name = 'C')"
		   "), (track_id)) i JOIN slice s ON s.id = i.id_0 ORDER BY i.ts",
		   "20000\t20000\tB\t100\t0\n20000\t5000\tC\t100\t0\n50000\t10000\tB\t100\t0\n");
	/* two tables, no partition: the sweep; quotes and a macro in a table */
	tt_test_assert_tsv(tr,
		   "INCLUDE PERFETTO MODULE intervals.intersect;"
		   "CREATE PERFETTO MACRO named_slices(n Expr) RETURNS TableOrSubquery AS "
		   "(SELECT id, ts, dur FROM slice WHERE name = $n);"
		   "SELECT i.ts, i.dur, a.name, b.name FROM _interval_intersect!(("
		   "(SELECT id, ts, dur FROM slice WHERE name = 'B'), named_slices!('C')), ()) i "
		   "JOIN slice a ON a.id = i.id_0 JOIN slice b ON b.id = i.id_1",
		   "15000\t10000\tB\tC\n");
	assert_err(tr, "INCLUDE PERFETTO MODULE intervals.intersect; SELECT * FROM _interval_intersect!((slice), ())",
		   "interval intersect needs 2 to 64 tables, given 1");
	tt_test_assert_tsv(tr,
		   "INCLUDE PERFETTO MODULE intervals.intersect;"
		   "SELECT group_concat(name || ':' || i.ts || '+' || i.dur, ' ') FROM "
		   "_interval_intersect_single!(20000, 75000, (SELECT id, ts, dur FROM slice WHERE track_id = 0)) i "
		   "JOIN slice USING (id)",
		   "A:20000+75000 B:20000+20000 C:20000+5000 B:50000+40000\n");
	tt_test_assert_tsv(tr,
		   "INCLUDE PERFETTO MODULE slices.flow;"
		   "SELECT r.name || '@' || r.ts, n.name || '@' || n.ts, ifnull(p.name || '@' || p.ts, '-') "
		   "FROM _slice_following_flow!((SELECT id FROM slice WHERE name = 'B' AND ts = 10000)) f "
		   "JOIN slice r ON r.id = f.root_node_id JOIN slice n ON n.id = f.node_id "
		   "LEFT JOIN slice p ON p.id = f.parent_node_id ORDER BY n.ts",
		   "B@10000\tB@10000\t-\nB@10000\tB@50000\tB@10000\nB@10000\tA@200000\tB@50000\n");
}

static void module_docs(void **state)
{
	struct fx *f = *state;
	tt_err err = { 0 };

	put_file(f->dir, "team/docs.sql",
		 "-- team.docs: things for the docs test.\n"
		 "\n"
		 "-- Busy slices. Longer than a frame.\n"
		 "CREATE PERFETTO TABLE _busy(\n"
		 "  -- The slice.\n"
		 "  id ID(slice.id),\n"
		 "  -- How long.\n"
		 "  dur DURATION\n"
		 ") AS SELECT id, dur FROM slice WHERE dur > 16000000;\n"
		 "-- Twice x.\n"
		 "CREATE PERFETTO FUNCTION team_twice(\n"
		 "  -- The number.\n"
		 "  x LONG)\n"
		 "-- x + x.\n"
		 "RETURNS LONG AS SELECT $x * 2;\n");
	assert_int_equal(tt_sql_add_module_dir(f->tr, f->dir, &err), TT_OK);
	/* documented without being included */
	tt_test_assert_tsv(f->tr,
		   "SELECT object_type, qualified_name, exposed, short_description, description FROM "
		   "__intrinsic_stdlib_objects WHERE module = 'team.docs' ORDER BY rowid",
		   "MODULE\tteam.docs\t1\tthings for the docs test.\tthings for the docs test.\n"
		   "TABLE\tteam.docs._busy\t0\tBusy slices.\tBusy slices. Longer than a frame.\n"
		   "FUNCTION\tteam.docs.team_twice\t1\tTwice x.\tTwice x.\n");
	tt_test_assert_tsv(f->tr,
		   "SELECT cols FROM __intrinsic_stdlib_objects WHERE name = '_busy'",
		   "[{\"name\":\"id\",\"type\":\"ID(slice.id)\",\"description\":\"The slice.\"},"
		   "{\"name\":\"dur\",\"type\":\"DURATION\",\"description\":\"How long.\"}]\n");
	tt_test_assert_tsv(f->tr,
		   "SELECT return_type, return_description, a.value ->> 'name', a.value ->> 'description' "
		   "FROM __intrinsic_stdlib_objects, json_each(args) a WHERE name = 'team_twice'",
		   "LONG\tx + x.\tx\tThe number.\n");
	tt_test_assert_tsv(f->tr,
		   "SELECT replace(summary, char(10), '|') FROM __intrinsic_stdlib_objects WHERE name = 'team_twice'",
		   "Kind: public FUNCTION|Module: team.docs|Name: team.docs.team_twice|"
		   "Arguments: x (LONG)|Returns: LONG - x + x.|Search aliases: team team docs team twice|"
		   "Twice x.\n");
	/* the shipped library is listed too, each kind of object */
	tt_test_assert_tsv(f->tr,
		   "SELECT group_concat(object_type, ' ') FROM (SELECT DISTINCT object_type FROM "
		   "__intrinsic_stdlib_objects ORDER BY 1)",
		   "FUNCTION MACRO MODULE TABLE TABLE_FUNCTION VIEW\n");
	tt_test_assert_tsv(f->tr,
		   "SELECT object_type, return_type FROM __intrinsic_stdlib_objects "
		   "WHERE qualified_name = 'slices.hierarchy._slice_ancestor_and_self'",
		   "TABLE_FUNCTION\tTABLE\n");
}

static void empty_trace(void **state)
{
	char *p = tt_test_write_tmp("", 0, ".pb");
	tt_trace *tr = tt_test_open(p);

	(void)state;
	tt_test_assert_tsv(tr, "SELECT count(*) FROM slice", "0\n");
	tt_test_assert_tsv(tr, "SELECT str_value FROM metadata WHERE name = 'import_warning'",
		   "empty file: the trace holds no data\n");
	tt_test_assert_tsv(tr, "CREATE PERFETTO FUNCTION f(x INT) RETURNS INT AS SELECT $x + 1; SELECT f(5)", "6\n");
	tt_trace_close(tr);
	tt_test_rm(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(perfetto_table, setup, teardown),
		cmocka_unit_test_setup_teardown(perfetto_table_info, setup, teardown),
		cmocka_unit_test_setup_teardown(perfetto_view_and_index, setup, teardown),
		cmocka_unit_test_setup_teardown(perfetto_functions, setup, teardown),
		cmocka_unit_test_setup_teardown(perfetto_table_functions, setup, teardown),
		cmocka_unit_test_setup_teardown(perfetto_macros, setup, teardown),
		cmocka_unit_test_setup_teardown(macro_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(user_modules, setup, teardown),
		cmocka_unit_test_setup_teardown(paging_a_script, setup, teardown),
		cmocka_unit_test_setup_teardown(shipped_with_context, setup, teardown),
		cmocka_unit_test_setup_teardown(shipped_hierarchy_and_self_dur, setup, teardown),
		cmocka_unit_test_setup_teardown(shipped_flat_slices, setup, teardown),
		cmocka_unit_test_setup_teardown(shipped_stack, setup, teardown),
		cmocka_unit_test_setup_teardown(shipped_time_conversion, setup, teardown),
		cmocka_unit_test_setup_teardown(shipped_intervals, setup, teardown),
		cmocka_unit_test_setup_teardown(shipped_counter_intervals, setup, teardown),
		cmocka_unit_test_setup_teardown(shipped_intersect_and_flow, setup, teardown),
		cmocka_unit_test_setup_teardown(module_docs, setup, teardown),
		cmocka_unit_test(empty_trace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
