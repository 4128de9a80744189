/*
 * test_describe.c - the description rules (core/describe.c): the parser on
 * good and bad files, the search path, matching precedence (exact name vs
 * ancestor vs glob/regex vs context-only vs user override) and template
 * expansion. Traces are small Chrome JSON files written here, so every
 * expected value is known exactly. SQL glue: test_describe_sql.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "describe.h"
#include "storage.h"
#include "termtrace.h"
#include "testutil.h"

/* pid 1 "com.example.app": tid 1 "main", tid 2 "RenderThread".
 * ts in us: 1 us = 1000 ns. */
static const char trace_json[] =
	"{\"traceEvents\":[\n"
	"{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"com.example.app\"}},\n"
	"{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"thread_name\",\"args\":{\"name\":\"main\"}},\n"
	"{\"ph\":\"M\",\"pid\":1,\"tid\":2,\"name\":\"thread_name\",\"args\":{\"name\":\"RenderThread\"}},\n"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":1000,\"name\":\"Choreographer#doFrame 42\",\"cat\":\"view\"},\n"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":500,\"name\":\"traversal\",\"cat\":\"view\"},\n"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":20,\"dur\":100,\"name\":\"measure\",\"cat\":\"view\"},\n"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":2000,\"dur\":1.5,\"name\":\"measure\",\"cat\":\"view\"},\n"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":3000,\"dur\":1500,\"name\":\"inflate\",\"cat\":\"view,input\","
	"\"args\":{\"layout\":\"main_activity\",\"n\":7}},\n"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":5000,\"dur\":2500000,\"name\":\"foo_bar\",\"cat\":\"x\"},\n"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":20,\"dur\":300,\"name\":\"DrawFrame 42\",\"cat\":\"gfx\"},\n"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":400,\"dur\":0.03,\"name\":\"flush\",\"cat\":\"gfx\"},\n"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":9000,\"dur\":1,\"name\":\"nothing matches\",\"cat\":\"x\"}\n"
	"]}\n";

struct fx {
	char *trace;  /* trace_json on disk */
	char *dir;    /* temp folder for rule files */
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	f->trace = tt_test_write_tmp(trace_json, strlen(trace_json), ".json");
	f->dir = tt_test_mkdtemp();
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	unsetenv("TT_DESCRIPTIONS_PATH");
	tt_test_rm(f->trace);
	tt_test_rm(f->dir);
	free(f);
	return 0;
}

/* Writes dir/name with text; returns the path (static buffer). */
static const char *put(const char *dir, const char *name, const char *text)
{
	static char path[1024];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	return path;
}

static void mkdir_in(const char *dir, const char *name, char *out, size_t len)
{
	snprintf(out, len, "%s/%s", dir, name);
	assert_int_equal(mkdir(out, 0700), 0);
}

/* The description of the slice picked by where (a `slice` WHERE clause),
 * or "NONE" when describe_slice has no row for it. */
static const char *desc_of(tt_trace *tr, const char *where)
{
	static char buf[2048];
	char sql[1024];

	snprintf(sql, sizeof(sql),
		 "select count(*) from describe_slice where slice_id = (select id from slice where %s)",
		 where);
	if (tt_test_int(tr, sql) == 0)
		return "NONE";
	snprintf(sql, sizeof(sql),
		 "select description from describe_slice where slice_id = (select id from slice where %s)",
		 where);
	snprintf(buf, sizeof(buf), "%s", tt_test_str(tr, sql));
	return buf;
}

/* ---- parser ------------------------------------------------------------- */

static void parser_good_file(void **state)
{
	tt_describe_rules *r = tt_describe_rules_new();

	(void)state;
	assert_non_null(r);
	assert_int_equal(tt_describe_rules_load_text(r, "good.rules",
		"# a comment\n"
		"\n"
		"[rule]\n"
		"name = measure\n"
		"name = Measure\n"
		"description = first line\n"
		"  continued here\n"
		"\tand with a tab\n"
		"link = https://example.org/a\n"
		"\n"
		"  # an indented comment is a comment\n"
		"[rule]\n"
		"glob = foo_*\n"
		"category = view\n"
		"ancestor = Choreographer#doFrame*\n"
		"parent = traversal\n"
		"thread = main\n"
		"process = com.*\n"
		"track = *\n"
		"track_type = thread\n"
		"args.layout = main_*\n"
		"description = {name} {dur} {ts} {category} {thread} {process} {args.x} {{literal}\n"
		"[rule]\n"
		"regex = ^a(b|c)+$\n"
		"description = regex rule\n"
		"[rule]\n"
		"thread = RenderThread\n"
		"description=no spaces around the equals sign\n", 0), TT_OK);
	assert_int_equal(tt_describe_rules_warning_count(r), 0);
	assert_int_equal(tt_describe_rules_count(r), 4);
	tt_describe_rules_unref(r);
}

/* A file with many problems: every warning names the file and line, in
 * order, and the good rules between the bad ones are kept. */
static void parser_bad_file(void **state)
{
	tt_describe_rules *r = tt_describe_rules_new();
	static const char *const want[] = {
		"bad.rules:1: 'name' outside a [rule] block",
		"bad.rules:2: unknown section '[rules]' (expected [rule] or [track])",
		"bad.rules:5: unknown key 'colour'",
		"bad.rules:6: expected 'key = value' or [rule]",
		"bad.rules:11: rule has no description",
		"bad.rules:13: bad regex: ",
		"bad.rules:16: unknown template field {nope}",
	};

	(void)state;
	assert_int_equal(tt_describe_rules_load_text(r, "bad.rules",
		"name = orphan\n"                 /* 1 */
		"[rules]\n"                       /* 2 */
		"name = ignored with its section\n" /* 3 */
		"[rule]\n"                        /* 4 */
		"colour = red\n"                  /* 5: rule kept */
		"just words\n"                    /* 6 */
		"name = kept\n"                   /* 7 */
		"description = kept rule,\n"      /* 8 */
		"  on two lines\n"                /* 9 */
		"\n"                              /* 10 */
		"[rule]\n"                        /* 11 */
		"name = x\n"                      /* 12 */
		"[rule]\n"                        /* 13 */
		"regex = a(b\n"                   /* 14 */
		"description = d\n"               /* 15 */
		"[rule]\n"                        /* 16 */
		"name = z\n"                      /* 17 */
		"description = {nope}\n"          /* 18 */
		"[rule]\n"                        /* 19 */
		"name = also kept\n"              /* 20 */
		"description = d\n", 0), TT_OK);  /* 21 */
	assert_int_equal(tt_describe_rules_warning_count(r), sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const char *w = tt_describe_rules_warning(r, i);

		if (strncmp(w, want[i], strlen(want[i])) != 0)
			fail_msg("warning %zu: got '%s', want '%s'", i, w, want[i]);
	}
	assert_int_equal(tt_describe_rules_count(r), 2);
	tt_describe_rules_unref(r);
}

/* The bad-file case again, line by line, with exact messages. */
static void parser_bad_lines_exact(void **state)
{
	struct {
		const char *text;
		const char *warning; /* NULL = none */
		size_t rules;
	} cases[] = {
		{ "name = orphan\n", "t.rules:1: 'name' outside a [rule] block", 0 },
		{ "[rules]\nname = a\ndescription = b\n",
		  "t.rules:1: unknown section '[rules]' (expected [rule] or [track])", 0 },
		{ "[rule]\ncolour = red\nname = a\ndescription = b\n", "t.rules:2: unknown key 'colour'", 1 },
		{ "[rule]\njust words\nname = a\ndescription = b\n",
		  "t.rules:2: expected 'key = value' or [rule]", 1 },
		{ "[rule]\nglob =\nname = a\ndescription = b\n", "t.rules:2: empty value for 'glob'", 1 },
		{ "\n[rule]\nname = x\n", "t.rules:2: rule has no description", 0 },
		{ "[rule]\nname = y\nglob = y*\ndescription = d\n",
		  "t.rules:1: rule has more than one of name, glob and regex", 0 },
		{ "[rule]\nregex = a(b\ndescription = d\n", "t.rules:1: bad regex: ", 0 },
		/* regcomp copies repeated parts, and stacked or nested repeats
		 * multiply: refused before it runs out of memory */
		{ "[rule]\nregex = ba++++++++++++++++++++++++++++++++++++++++\ndescription = d\n",
		  "t.rules:1: bad regex: too big (its repeats would copy its parts past 20,000)", 0 },
		{ "[rule]\nregex = ^((x[a-z]{1,200}){1,200}|y)$\ndescription = d\n",
		  "t.rules:1: bad regex: too big (its repeats would copy its parts past 20,000)", 0 },
		{ "[rule]\nregex = ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((("
		  "((((((a))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))\n"
		  "description = d\n",
		  "t.rules:1: bad regex: groups nest too deep", 0 },
		/* glibc takes back-references in an ERE; matching one can take
		 * minutes */
		{ "[rule]\nregex = ^(a*)*\\1\\1$\ndescription = d\n",
		  "t.rules:1: bad regex: back-references (\\1-\\9) are not allowed", 0 },
		{ "[rule]\nregex = ^(foo|[]a-z]x|\\(q\\))+[[:alpha:]_]{1,60}(bar){2,}$\ndescription = d\n", NULL, 1 },
		{ "[rule]\ndescription = d\n",
		  "t.rules:1: rule matches nothing (no name, glob, regex or condition)", 0 },
		{ "[rule]\nname = z\ndescription = {nope}\n", "t.rules:1: unknown template field {nope}", 0 },
		{ "[rule]\nname = w\ndescription = ok\nlink = https://x/{name\n",
		  "t.rules:1: unclosed '{' in template", 0 },
		{ "[rule]\nname = v\ndescription = one\ndescription = two\n",
		  "t.rules:4: duplicate 'description' (the later one is used)", 1 },
		{ "[rule]\nname = u\n  continued name\ndescription = d\n",
		  "t.rules:3: continuation line without a value before it", 1 },
		{ "[rule]\nname = t\ndescription = d\n  more\n\n  orphan\n",
		  "t.rules:6: continuation line without a value before it", 1 },
		{ "[rule]\nname = s\ndescription = d\n", NULL, 1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		tt_describe_rules *r = tt_describe_rules_new();

		assert_int_equal(tt_describe_rules_load_text(r, "t.rules", cases[i].text, 0), TT_OK);
		if (!cases[i].warning) {
			assert_int_equal(tt_describe_rules_warning_count(r), 0);
		} else {
			const char *w = tt_describe_rules_warning(r, 0);

			if (tt_describe_rules_warning_count(r) != 1 || !w ||
			    strncmp(w, cases[i].warning, strlen(cases[i].warning)) != 0)
				fail_msg("case %zu: got %zu warnings, first '%s', want '%s'", i,
					 tt_describe_rules_warning_count(r), w ? w : "(none)",
					 cases[i].warning);
		}
		if (tt_describe_rules_count(r) != cases[i].rules)
			fail_msg("case %zu: %zu rules, want %zu", i, tt_describe_rules_count(r),
				 cases[i].rules);
		tt_describe_rules_unref(r);
	}
}

/* A folder: *.rules in name order, other files ignored, bad file reported
 * with its path and line while the other files still load. */
static void load_folder(void **state)
{
	struct fx *f = *state;
	tt_describe_rules *r = tt_describe_rules_new();
	char want[1200];

	put(f->dir, "b.rules", "[rule]\nname = measure\ndescription = from b\n");
	put(f->dir, "a.rules", "[rule]\nname = measure\ndescription = from a\n[rule]\nbogus line\n");
	put(f->dir, "c.txt", "[rule]\nname = measure\ndescription = from c.txt\n");
	put(f->dir, ".hidden.rules", "[rule]\nname = measure\ndescription = hidden\n");
	assert_int_equal(tt_describe_rules_load(r, f->dir, 0), TT_OK);
	assert_int_equal(tt_describe_rules_load(r, "/nonexistent/termtrace/rules", 1), TT_OK);
	assert_int_equal(tt_describe_rules_count(r), 2);
	assert_int_equal(tt_describe_rules_warning_count(r), 2);
	snprintf(want, sizeof(want), "%s/a.rules:5: expected 'key = value' or [rule]", f->dir);
	assert_string_equal(tt_describe_rules_warning(r, 0), want);
	snprintf(want, sizeof(want), "%s/a.rules:4: rule has no description", f->dir);
	assert_string_equal(tt_describe_rules_warning(r, 1), want);
	assert_null(tt_describe_rules_warning(r, 2));
	tt_describe_rules_unref(r);
}

/* ---- matching precedence ------------------------------------------------------ */

static void precedence(void **state)
{
	struct fx *f = *state;
	char shipped[512], user[512], env[1100];
	tt_trace *tr;

	mkdir_in(f->dir, "shipped", shipped, sizeof(shipped));
	mkdir_in(f->dir, "user", user, sizeof(user));
	put(shipped, "a.rules",
	    "[rule]\nname = measure\ndescription = plain measure\n"
	    "[rule]\nname = measure\nancestor = Choreographer#doFrame*\ndescription = measure in a frame\n"
	    "[rule]\nname = measure\nparent = nope\ndescription = never: wrong parent\n"
	    "[rule]\nglob = meas*\ndescription = never: exact name is more specific\n"
	    "[rule]\nname = inflate\ndescription = shipped inflate\n"
	    "[rule]\nglob = foo_*\ndescription = foo glob\n"
	    "[rule]\nregex = ^foo_b\ndescription = foo regex (later rule wins the tie)\n"
	    "[rule]\nthread = RenderThread\ndescription = render thread fallback\n"
	    "[rule]\nglob = DrawFrame*\ndescription = draw frame glob\n"
	    "[rule]\nglob = Choreographer#doFrame*\nprocess = com.example.*\ndescription = frame in app\n"
	    "[rule]\nglob = Choreographer#doFrame*\nprocess = other\ndescription = never: wrong process\n"
	    "[rule]\nname = traversal\ncategory = input\ndescription = never: wrong category\n"
	    "[rule]\nname = traversal\ndescription = traversal\n");
	put(user, "u.rules",
	    "[rule]\nname = inflate\ndescription = user inflate\n"
	    "[rule]\nglob = measure\ndescription = never: user glob below shipped exact\n"
	    "[rule]\nname = flush\nthread = RenderThread\ndescription = user flush\n");
	snprintf(env, sizeof(env), "%s:%s", shipped, user);
	setenv("TT_DESCRIPTIONS_PATH", env, 1);
	tr = tt_test_open(f->trace);
	assert_string_equal(tt_test_str(tr, "select describe_warnings()"), "NULL");
	/* exact name + ancestor beats exact name alone */
	assert_string_equal(desc_of(tr, "name = 'measure' and depth = 2"), "measure in a frame");
	assert_string_equal(desc_of(tr, "name = 'measure' and depth = 0"), "plain measure");
	/* user layer wins a tie (same tier, same conditions) */
	assert_string_equal(desc_of(tr, "name = 'inflate'"), "user inflate");
	/* glob vs regex: same tier, later rule wins */
	assert_string_equal(desc_of(tr, "name = 'foo_bar'"), "foo regex (later rule wins the tie)");
	/* a glob beats a context-only rule */
	assert_string_equal(desc_of(tr, "name = 'DrawFrame 42'"), "draw frame glob");
	/* glob with a process condition */
	assert_string_equal(desc_of(tr, "name = 'Choreographer#doFrame 42'"), "frame in app");
	/* failed category condition falls through to the plain rule */
	assert_string_equal(desc_of(tr, "name = 'traversal'"), "traversal");
	assert_string_equal(desc_of(tr, "name = 'flush'"), "user flush");
	assert_string_equal(desc_of(tr, "name = 'nothing matches'"), "NONE");
	tt_trace_close(tr);
}

/* The default search path: shipped rules from the source tree, then the
 * user's $XDG_CONFIG_HOME/termtrace/descriptions, which wins ties. */
static void default_search_path(void **state)
{
	struct fx *f = *state;
	char cfg[512], p[700];
	const char *old = getenv("XDG_CONFIG_HOME");
	char *saved = old ? strdup(old) : NULL;
	tt_trace *tr;

	mkdir_in(f->dir, "cfg", cfg, sizeof(cfg));
	snprintf(p, sizeof(p), "%s/termtrace", cfg);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/termtrace/descriptions", cfg);
	assert_int_equal(mkdir(p, 0700), 0);
	put(p, "mine.rules", "[rule]\nname = RunMicrotasks\ndescription = my own words\n"
			     "link = https://example.org/mine\n");
	unsetenv("TT_DESCRIPTIONS_PATH");
	setenv("XDG_CONFIG_HOME", cfg, 1);
	tr = tt_test_open(tt_test_data("chromium-tiny.json"));
	assert_string_equal(desc_of(tr, "name = 'RunMicrotasks' limit 1"), "my own words");
	assert_string_equal(tt_test_str(tr, "select doc_link from describe_slice where slice_id = "
					    "(select id from slice where name = 'RunMicrotasks' limit 1)"),
			    "https://example.org/mine");
	/* shipped rules are there too (v8.rules) */
	assert_string_equal(tt_test_str(tr, "select doc_link from describe_slice where slice_id = "
					    "(select id from slice where name = 'V8.StackGuard' limit 1)"),
			    "https://v8.dev/docs");
	assert_string_equal(tt_test_str(tr, "select describe_warnings()"), "NULL");
	tt_trace_close(tr);
	if (saved)
		setenv("XDG_CONFIG_HOME", saved, 1);
	else
		unsetenv("XDG_CONFIG_HOME");
	free(saved);
}

/* A bad user file: the warning names it; its good rules and the other
 * files still load. */
static void bad_file_keeps_loading(void **state)
{
	struct fx *f = *state;
	char want[1200];
	tt_trace *tr;

	put(f->dir, "1.rules", "[rule]\nname = measure\ndescription = good one\n");
	put(f->dir, "2.rules", "[rule]\nname = inflate\nregex = (\ndescription = broken\n"
			       "[rule]\nname = traversal\ndescription = good two\n");
	setenv("TT_DESCRIPTIONS_PATH", f->dir, 1);
	tr = tt_test_open(f->trace);
	snprintf(want, sizeof(want), "%s/2.rules:1: rule has more than one of name, glob and regex",
		 f->dir);
	assert_string_equal(tt_test_str(tr, "select describe_warnings()"), want);
	assert_string_equal(desc_of(tr, "name = 'measure' and depth = 0"), "good one");
	assert_string_equal(desc_of(tr, "name = 'traversal'"), "good two");
	assert_string_equal(desc_of(tr, "name = 'inflate'"), "NONE");
	tt_trace_close(tr);
}

/* ---- templates ------------------------------------------------------------------ */

static void templates(void **state)
{
	struct fx *f = *state;
	tt_trace *tr;

	put(f->dir, "t.rules",
	    "[rule]\nname = inflate\n"
	    "description = {name}|{dur}|{ts}|{category}|{thread}|{process}|{args.layout}|{args.n}"
	    "|{args.missing}|{{x}|{id}\n"
	    "link = https://example.org/{args.layout}?t={thread}\n"
	    "[rule]\nname = measure\ndescription = under {parent}, depth {depth}, {dur}\n"
	    "[rule]\nname = foo_bar\ndescription = {dur} in {pid}/{tid}\n"
	    "[rule]\nname = flush\ndescription = {dur} on {thread}\n"
	    "[rule]\nname = DrawFrame 42\ndescription = {dur}\n");
	setenv("TT_DESCRIPTIONS_PATH", f->dir, 1);
	tr = tt_test_open(f->trace);
	assert_string_equal(desc_of(tr, "name = 'inflate'"),
			    tt_test_str(tr, "select 'inflate|1.5 ms|3000000|view,input|main|com.example.app|"
					    "main_activity|7||{x}|' || id from slice where name = 'inflate'"));
	assert_string_equal(tt_test_str(tr, "select doc_link from describe_slice where slice_id = "
					    "(select id from slice where name = 'inflate')"),
			    "https://example.org/main_activity?t=main");
	assert_string_equal(desc_of(tr, "name = 'measure' and depth = 2"), "under traversal, depth 2, 100µs");
	assert_string_equal(desc_of(tr, "name = 'measure' and depth = 0"), "under , depth 0, 1.5µs");
	assert_string_equal(desc_of(tr, "name = 'foo_bar'"), "2.5s in 1/1");
	assert_string_equal(desc_of(tr, "name = 'flush'"), "30ns on RenderThread");
	assert_string_equal(desc_of(tr, "name = 'DrawFrame 42'"), "300µs");
	/* no link in the rule: NULL doc_link, the row still exists */
	assert_string_equal(tt_test_str(tr, "select coalesce(doc_link, 'NULL') from describe_slice "
					    "where slice_id = (select id from slice where name = 'flush')"),
			    "NULL");
	tt_trace_close(tr);
}

/* args.KEY conditions */
static void arg_condition(void **state)
{
	struct fx *f = *state;
	tt_trace *tr;

	put(f->dir, "a.rules",
	    "[rule]\nname = inflate\nargs.layout = other*\ndescription = never\n"
	    "[rule]\nname = inflate\nargs.layout = main_*\ndescription = main layout\n"
	    "[rule]\nname = inflate\ndescription = any layout\n"
	    "[rule]\nname = traversal\nargs.layout = *\ndescription = never: no such arg\n");
	setenv("TT_DESCRIPTIONS_PATH", f->dir, 1);
	tr = tt_test_open(f->trace);
	assert_string_equal(desc_of(tr, "name = 'inflate'"), "main layout");
	assert_string_equal(desc_of(tr, "name = 'traversal'"), "NONE");
	tt_trace_close(tr);
}

/* Many exact rules: the lookup is a hash, so 20,000 rules cost nothing per
 * slice; matching every slice must still find the right one. */
static void many_exact_rules(void **state)
{
	struct fx *f = *state;
	size_t cap = 20000 * 64, len = 0;
	char *text = malloc(cap);
	tt_trace *tr;

	for (int i = 0; i < 20000; i++)
		len += (size_t)snprintf(text + len, cap - len, "[rule]\nname = n%d\ndescription = d%d\n", i, i);
	len += (size_t)snprintf(text + len, cap - len, "[rule]\nname = inflate\ndescription = found\n");
	put(f->dir, "many.rules", text);
	free(text);
	setenv("TT_DESCRIPTIONS_PATH", f->dir, 1);
	tr = tt_test_open(f->trace);
	assert_string_equal(desc_of(tr, "name = 'inflate'"), "found");
	assert_string_equal(desc_of(tr, "name = 'traversal'"), "NONE");
	tt_trace_close(tr);
}

/* Random rule files made of the syntax's own pieces, matched against a
 * small storage: no crash, no leak (ASan build), every result a valid
 * string. The generator is a fixed LCG, so a failure reproduces. */
static void parser_random_input(void **state)
{
	static const char *const pieces[] = {
		"[rule]\n", "[rule", "]\n", "name = ", "glob = ", "regex = ", "category = ",
		"ancestor = ", "parent = ", "thread = ", "process = ", "track = ", "track_type = ",
		"args.k = ", "args. = ", "description = ", "link = ", "{name}", "{dur}", "{args.k}",
		"{args.}", "{", "}", "{{", "*", "?", "[", "(", "a|b", "^f", "$", "measure", "foo",
		"\n", "\n", "\n", "  ", "\t", "#", "=", " ", "\r\n", "\xc3\xa9", "\\",
	};
	const size_t npieces = sizeof(pieces) / sizeof(pieces[0]);
	tt_storage *st = tt_storage_new();
	uint32_t utid, track, set;
	int64_t root;
	uint64_t seed = 42;
	char text[4096];
	size_t nrules = 0, nmatch = 0;

	(void)state;
	assert_non_null(st);
	utid = tt_storage_thread_append(st, 1, tt_storage_process_append(st, 1));
	tt_storage_thread_set_name(st, utid, tt_storage_intern_cstr(st, "main"));
	track = tt_storage_track_new(st, &(tt_track_desc){ .type = "thread", .utid = utid, .upid = 0,
							   .parent_id = TT_NONE, .cpu = -1 });
	tt_storage_args_begin(st);
	tt_storage_args_str(st, "k", "v", 1);
	set = tt_storage_args_store(st);
	root = tt_storage_slice_append(st, track, 0, 100, tt_storage_intern_cstr(st, "c"),
				       tt_storage_intern_cstr(st, "foo"), 0, -1, set);
	tt_storage_slice_append(st, track, 10, 20, 0, tt_storage_intern_cstr(st, "measure"), 1, root,
				TT_NONE);
	tt_storage_slice_append(st, track, 200, -1, 0, 0, 0, -1, TT_NONE);
	tt_storage_finalize(st);
	for (int iter = 0; iter < 3000; iter++) {
		tt_describe_rules *r = tt_describe_rules_new();
		size_t len = 0;
		int n;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		n = (int)((seed >> 33) % 60);
		/* half the files start with a valid rule the noise then edits */
		if (iter % 2)
			len = (size_t)snprintf(text, sizeof(text), "[rule]\nname = foo\ndescription = %s",
					       iter % 4 == 1 ? "{name} {dur}" : "x");
		for (int i = 0; i < n; i++) {
			const char *pc;

			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			pc = pieces[(seed >> 33) % npieces];
			if (len + strlen(pc) + 1 >= sizeof(text))
				break;
			memcpy(text + len, pc, strlen(pc));
			len += strlen(pc);
		}
		text[len] = '\0';
		assert_int_equal(tt_describe_rules_load_text(r, "fuzz.rules", text, 0), TT_OK);
		nrules += tt_describe_rules_count(r);
		for (int64_t id = -1; id <= 3; id++) {
			struct tt_describe_hit hit;
			int rc = tt_describe_match(r, st, TT_DESCRIBE_SLICE, id, &hit);

			assert_true(rc == 0 || rc == 1);
			if (rc == 1) {
				nmatch++;
				assert_non_null(hit.desc);
				assert_non_null(hit.where);
				assert_true(strncmp(hit.where, "fuzz.rules:", 11) == 0);
				assert_true(hit.kind >= 0 && hit.kind < TT_KIND_COUNT);
			} else {
				assert_null(hit.desc);
				assert_null(hit.link);
			}
			free(hit.desc);
			free(hit.link);
		}
		tt_describe_rules_unref(r);
	}
	tt_storage_free(st);
	/* the generator must reach the matcher, not only the error paths */
	if (nrules < 500 || nmatch < 300)
		fail_msg("weak fuzz: %zu rules, %zu matches", nrules, nmatch);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parser_good_file),
		cmocka_unit_test(parser_bad_file),
		cmocka_unit_test(parser_bad_lines_exact),
		cmocka_unit_test(parser_random_input),
		cmocka_unit_test_setup_teardown(load_folder, setup, teardown),
		cmocka_unit_test_setup_teardown(precedence, setup, teardown),
		cmocka_unit_test_setup_teardown(default_search_path, setup, teardown),
		cmocka_unit_test_setup_teardown(bad_file_keeps_loading, setup, teardown),
		cmocka_unit_test_setup_teardown(templates, setup, teardown),
		cmocka_unit_test_setup_teardown(arg_condition, setup, teardown),
		cmocka_unit_test_setup_teardown(many_exact_rules, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
