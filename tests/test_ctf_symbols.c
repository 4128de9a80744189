/*
 * test_ctf_symbols.c - function names for lttng-ust-cyg-profile traces:
 * the test compiles a small PIE program with DWARF, writes a trace
 * (tests/ctf_writer.c) whose statedump maps it at a load address with its
 * build id, and func_entry/func_exit events at addresses inside it. The
 * slices must be named by function, with debug_info.bin / .func / .src in
 * args; binutils' nm and addr2line are the oracles for the offsets and
 * lines (babeltrace2 2.0.5's debug-info filter aborts on this writer's
 * traces, an assertion in its trace-ir-mapping, so it cannot be). A binary that is
 * not on the machine, or another build of it, keeps the addresses and is
 * named once in stats.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "ctf_writer.c"

#define BADDR UINT64_C(0x555555554000)

static const char prog_c[] =
	"#include <stdio.h>\n"
	"__attribute__((noinline)) int inner(int x)\n"
	"{\n"
	"\treturn x * 3;\n"
	"}\n"
	"\n"
	"__attribute__((noinline)) int outer(int x)\n"
	"{\n"
	"\treturn inner(x) + 1;\n"
	"}\n"
	"\n"
	"int main(void)\n"
	"{\n"
	"\tprintf(\"%d\\n\", outer(2));\n"
	"\treturn 0;\n"
	"}\n";

static char *run(const char *cmd)
{
	static char out[4096];
	FILE *p = popen(cmd, "r");
	size_t n;

	assert_non_null(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	pclose(p);
	while (n && (out[n - 1] == '\n' || out[n - 1] == ' '))
		out[--n] = '\0';
	return out;
}

typedef struct prog {
	char dir[256], path[300];
	uint64_t inner, outer;  /* offsets */
	uint8_t bid[64];
	unsigned nbid;
	char inner_src[64], outer_src[64];
} prog;

static void build_prog(prog *p)
{
	char cmd[1024], *dir = tt_test_mkdtemp();
	FILE *f;
	const char *h;

	snprintf(p->dir, sizeof(p->dir), "%s", dir);
	free(dir);
	snprintf(cmd, sizeof(cmd), "%s/prog.c", p->dir);
	f = fopen(cmd, "w");
	assert_non_null(f);
	fputs(prog_c, f);
	fclose(f);
	snprintf(p->path, sizeof(p->path), "%s/prog", p->dir);
	snprintf(cmd, sizeof(cmd), "cd '%s' && cc -g -O0 -fPIE -pie -Wl,--build-id -o prog prog.c", p->dir);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "nm '%s' | awk '$3 == \"inner\" { print $1 }'", p->path);
	p->inner = strtoull(run(cmd), NULL, 16);
	snprintf(cmd, sizeof(cmd), "nm '%s' | awk '$3 == \"outer\" { print $1 }'", p->path);
	p->outer = strtoull(run(cmd), NULL, 16);
	assert_true(p->inner && p->outer);
	snprintf(cmd, sizeof(cmd), "readelf -n '%s' | sed -n 's/.*Build ID: //p'", p->path);
	h = run(cmd);
	for (p->nbid = 0; h[2 * p->nbid] && h[2 * p->nbid + 1] && p->nbid < 64; p->nbid++) {
		char b[3] = { h[2 * p->nbid], h[2 * p->nbid + 1], 0 };

		p->bid[p->nbid] = (uint8_t)strtoul(b, NULL, 16);
	}
	assert_true(p->nbid >= 16);
	/* addr2line names the file and line of each function's entry */
	snprintf(cmd, sizeof(cmd), "addr2line -e '%s' 0x%llx | sed 's|.*/||'", p->path, (unsigned long long)p->inner);
	snprintf(p->inner_src, sizeof(p->inner_src), "%.*s", (int)sizeof(p->inner_src) - 1, run(cmd));
	snprintf(cmd, sizeof(cmd), "addr2line -e '%s' 0x%llx | sed 's|.*/||'", p->path, (unsigned long long)p->outer);
	snprintf(p->outer_src, sizeof(p->outer_src), "%.*s", (int)sizeof(p->outer_src) - 1, run(cmd));
	assert_string_equal(p->inner_src, "prog.c:3");
}

/* statedump of path at BADDR, then outer -> inner, and a call outside. */
static char *write_trace(const prog *p, const char *path, const uint8_t *bid, unsigned nbid)
{
	char *dir = tt_test_mkdtemp();
	ctfw_opts o = { .offset_s = 1700000000 };
	ctfw *w = ctfw_open(dir, &o);

	assert_non_null(w);
	assert_int_equal(ctfw_bin_info(w, 0, 100, BADDR, 0x5000, path, 1, 1), 0);
	assert_int_equal(ctfw_build_id(w, 0, 110, BADDR, bid, nbid), 0);
	assert_int_equal(ctfw_func(w, 0, 200, 1, BADDR + p->outer, BADDR + 0x1180), 0);
	assert_int_equal(ctfw_func(w, 0, 300, 1, BADDR + p->inner, BADDR + p->outer + 8), 0);
	assert_int_equal(ctfw_func(w, 0, 400, 0, BADDR + p->inner, BADDR + p->outer + 8), 0);
	assert_int_equal(ctfw_func(w, 0, 500, 0, BADDR + p->outer, BADDR + 0x1180), 0);
	assert_int_equal(ctfw_func(w, 0, 600, 1, UINT64_C(0x7f0000001000), 0), 0);
	assert_int_equal(ctfw_func(w, 0, 700, 0, UINT64_C(0x7f0000001000), 0), 0);
	assert_int_equal(ctfw_close(w), 0);
	return dir;
}

#define NAMES "select group_concat(name, ',') from (select s.name from slice s join thread_track t " \
	      "on s.track_id = t.id where s.name not like 'lttng_ust_statedump:%' order by s.ts)"
#define ARG(fn, key) "select string_value from args where key = '" key "' and arg_set_id = " \
		     "(select arg_set_id from slice where name = '" fn "')"

static void test_names_from_the_binary(void **state)
{
	prog p;
	char *dir, want[256], cmd[1024];
	tt_trace *tr;

	(void)state;
	build_prog(&p);
	dir = write_trace(&p, p.path, p.bid, p.nbid);
	tr = tt_test_open(dir);
	assert_string_equal(tt_test_str(tr, NAMES), "outer,inner,0x7f0000001000");
	assert_int_equal(tt_test_int(tr, "select depth from slice where name = 'inner'"), 1);
	assert_string_equal(tt_test_str(tr, ARG("inner", "debug_info.src")), p.inner_src);
	assert_string_equal(tt_test_str(tr, ARG("outer", "debug_info.src")), p.outer_src);
	assert_string_equal(tt_test_str(tr, ARG("inner", "debug_info.func")), "inner+0x0");
	snprintf(want, sizeof(want), "prog+0x%llx", (unsigned long long)p.outer);
	assert_string_equal(tt_test_str(tr, ARG("outer", "debug_info.bin")), want);
	/* the address stays in args */
	assert_int_equal(tt_test_int(tr, "select int_value from args where key = 'addr' and arg_set_id = "
					 "(select arg_set_id from slice where name = 'inner')"), (int64_t)(BADDR + p.inner));
	assert_int_equal(tt_test_int(tr, "select count(*) from stats where name = 'ctf_debug_info_missing' and value > 0"), 0);
	tt_trace_close(tr);
	tt_test_rm(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", p.dir);
	assert_int_equal(system(cmd), 0);
}

static void test_binary_missing_or_other_build(void **state)
{
	prog p;
	char *dir, cmd[1024], gone[400];
	uint8_t other[64];
	tt_trace *tr;

	(void)state;
	build_prog(&p);
	/* not on this machine: addresses kept, said once */
	snprintf(gone, sizeof(gone), "%s/not-here/prog", p.dir);
	dir = write_trace(&p, gone, p.bid, p.nbid);
	tr = tt_test_open(dir);
	snprintf(cmd, sizeof(cmd), "0x%llx,0x%llx,0x7f0000001000", (unsigned long long)(BADDR + p.outer),
		 (unsigned long long)(BADDR + p.inner));
	assert_string_equal(tt_test_str(tr, NAMES), cmd);
	assert_int_equal(tt_test_int(tr, "select value from stats where name = 'ctf_debug_info_missing'"), 1);
	tt_trace_close(tr);
	tt_test_rm(dir);
	/* another build of it (the build id differs): not used */
	memcpy(other, p.bid, p.nbid);
	other[0] ^= 0xFF;
	dir = write_trace(&p, p.path, other, p.nbid);
	tr = tt_test_open(dir);
	assert_string_equal(tt_test_str(tr, NAMES), cmd);
	assert_int_equal(tt_test_int(tr, "select value from stats where name = 'ctf_debug_info_missing'"), 1);
	tt_trace_close(tr);
	{
		/* termtrace info names the binary and the reason */
		char icmd[1200];

		snprintf(icmd, sizeof(icmd), "%s/termtrace info '%s' | grep ctf_debug_info_missing", tt_test_srcdir(), dir);
		assert_non_null(strstr(run(icmd), "its build id differs from the trace's"));
	}
	tt_test_rm(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", p.dir);
	assert_int_equal(system(cmd), 0);
}

/* A binary whose DWARF was moved to a separate file named by its
 * .gnu_debuglink (as distributions ship them): names from its symbol
 * table, lines from the debug file found next to it. */
static void test_debug_link(void **state)
{
	prog p;
	char *dir, cmd[2048];
	tt_trace *tr;

	(void)state;
	build_prog(&p);
	snprintf(cmd, sizeof(cmd), "cd '%s' && objcopy --only-keep-debug prog prog.debug && strip -g prog && "
		 "objcopy --add-gnu-debuglink=prog.debug prog && ! readelf -S prog | grep -q debug_line", p.dir);
	assert_int_equal(system(cmd), 0);
	dir = write_trace(&p, p.path, p.bid, p.nbid);
	tr = tt_test_open(dir);
	assert_string_equal(tt_test_str(tr, NAMES), "outer,inner,0x7f0000001000");
	assert_string_equal(tt_test_str(tr, ARG("inner", "debug_info.src")), p.inner_src);
	tt_trace_close(tr);
	tt_test_rm(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", p.dir);
	assert_int_equal(system(cmd), 0);
}

/* LTTng's `ip` context: every event's instruction pointer resolved the
 * same way, into the event's args (its name stays). */
static void test_ip_context(void **state)
{
	prog p;
	char *dir = tt_test_mkdtemp(), cmd[1024];
	ctfw_opts o = { .offset_s = 1700000000, .ip_context = 1 };
	ctfw *w = ctfw_open(dir, &o);
	tt_trace *tr;

	(void)state;
	build_prog(&p);
	assert_non_null(w);
	assert_int_equal(ctfw_bin_info(w, 0, 100, BADDR, 0x5000, p.path, 1, 1), 0);
	assert_int_equal(ctfw_build_id(w, 0, 110, BADDR, p.bid, p.nbid), 0);
	ctfw_ip(w, 0, BADDR + p.outer + 4);
	assert_int_equal(ctfw_tick(w, 0, 200, 1, 2, "in outer"), 0);
	ctfw_ip(w, 0, UINT64_C(0x7f0000001000));
	assert_int_equal(ctfw_tick(w, 0, 300, 2, 3, "elsewhere"), 0);
	assert_int_equal(ctfw_close(w), 0);
	tr = tt_test_open(dir);
	assert_string_equal(tt_test_str(tr, "select group_concat(name, ',') from raw where name = 'tt:tick'"),
			    "tt:tick,tt:tick");
	assert_string_equal(tt_test_str(tr,
		"select string_value from args where key = 'debug_info.func' and arg_set_id = "
		"(select arg_set_id from raw where name = 'tt:tick' order by ts limit 1)"), "outer+0x4");
	assert_string_equal(tt_test_str(tr,
		"select string_value from args where key = 'msg' and arg_set_id = "
		"(select arg_set_id from raw where name = 'tt:tick' order by ts limit 1)"), "in outer");
	assert_int_equal(tt_test_int(tr,
		"select count(*) from args where key like 'debug_info.%' and arg_set_id = "
		"(select arg_set_id from raw where name = 'tt:tick' order by ts limit 1 offset 1)"), 0);
	tt_trace_close(tr);
	tt_test_rm(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", p.dir);
	assert_int_equal(system(cmd), 0);
}

/* LTTng's debug-info recipe (`add-context -u -t vpid -t ip`): a vpid and
 * no vtid. The symbols come from that process's map all the same, and the
 * vpid, which names no thread, stays with the event as babeltrace2 prints
 * it (context.vpid). */
static void test_vpid_without_vtid(void **state)
{
	prog p;
	char *dir = tt_test_mkdtemp(), cmd[1024];
	ctfw_opts o = { .offset_s = 1700000000, .ip_context = 1, .vpid_only = 1 };
	ctfw *w = ctfw_open(dir, &o);
	tt_trace *tr;

	(void)state;
	build_prog(&p);
	assert_non_null(w);
	ctfw_thread(w, 0, 4242, 4243, "ignored");
	assert_int_equal(ctfw_bin_info(w, 0, 100, BADDR, 0x5000, p.path, 1, 1), 0);
	assert_int_equal(ctfw_build_id(w, 0, 110, BADDR, p.bid, p.nbid), 0);
	ctfw_ip(w, 0, BADDR + p.outer + 4);
	assert_int_equal(ctfw_tick(w, 0, 200, 1, 2, "in outer"), 0);
	assert_int_equal(ctfw_close(w), 0);
	tr = tt_test_open(dir);
	assert_string_equal(tt_test_str(tr,
		"select string_value from args where key = 'debug_info.func' and arg_set_id = "
		"(select arg_set_id from raw where name = 'tt:tick')"), "outer+0x4");
	assert_int_equal(tt_test_int(tr,
		"select int_value from args where key = 'context.vpid' and arg_set_id = "
		"(select arg_set_id from raw where name = 'tt:tick')"), 4242);
	assert_int_equal(tt_test_int(tr, "select count(*) from raw where utid is not null"), 0);
	assert_int_equal(tt_test_int(tr, "select count(*) from thread where tid = 4243"), 0);
	tt_trace_close(tr);
	/* babeltrace2 reads the same context */
	snprintf(cmd, sizeof(cmd), "babeltrace2 '%s' 2>/dev/null | grep -q 'vpid = 4242, ip = '", dir);
	assert_int_equal(system(cmd), 0);
	tt_test_rm(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", p.dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_from_the_binary),
		cmocka_unit_test(test_binary_missing_or_other_build),
		cmocka_unit_test(test_ip_context),
		cmocka_unit_test(test_vpid_without_vtid),
		cmocka_unit_test(test_debug_link),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
