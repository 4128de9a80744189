/*
 * functions_ftrace.c - to_ftrace(id): an ftrace_event row as the line the
 * kernel's trace file would have printed for it (systrace text), as
 * trace processor's to_ftrace gives it:
 *
 *        <comm>-<tid>   (<tgid>) [<cpu>] .... <s>.<us>: <event>: <args>
 *
 * The thread name is right-aligned in 16 columns ('-' in it becomes '_';
 * "<idle>" for tid 0, "<unknown>" when it has none), the tid left-aligned
 * in 5, the process id right-aligned in 5 ("-----" when not known), the
 * cpu in 3 digits. The args are " key=value" in the set's order, but for
 * the events whose kernel format string trace processor follows (sched
 * switch and wakeup, clocks, binder, irq, softirq, workqueue, atrace
 * markers, i2c, cgroup, ...): their fields, renamed and formatted as the
 * kernel prints them. A gfp_flags arg is its flag names, as the kernel's
 * format for the trace's kernel version. A Chrome or track event row has
 * no line: an error, as in trace processor.
 */
#include "builtins.h"
#include "storage_int.h"
#include "task_state.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct fline {
	const tt_storage *st;
	sqlite3_str *out;
	size_t first, end; /* the event's arg rows */
	int kv_major, kv_minor;
} fline;

/* ---- values ------------------------------------------------------------------ */

static void put(fline *l, const char *s)
{
	sqlite3_str_appendall(l->out, s);
}

static void putf(fline *l, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static void putf(fline *l, const char *fmt, ...)
{
	char b[64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	if (n > 0)
		sqlite3_str_append(l->out, b, n < (int)sizeof(b) ? n : (int)sizeof(b) - 1);
}

static const char *str_of(const fline *l, tt_str s, size_t *n)
{
	const char *p = tt_storage_str(l->st, s);

	*n = p ? strlen(p) : 0;
	return p ? p : "";
}

/* The row of key in the event's args, or -1. */
static long find(const fline *l, const char *key)
{
	for (size_t r = l->first; r < l->end; r++) {
		const char *k = tt_storage_str(l->st, l->st->args.key[r]);

		if (k && strcmp(k, key) == 0)
			return (long)r;
	}
	return -1;
}

static int type_of(const fline *l, long r)
{
	return TT_ARG_TYPE(l->st->args.type[r]);
}

static int64_t int_of(const fline *l, long r)
{
	return l->st->args.val[r].i;
}

/* trace processor's default value writer */
static void value(fline *l, long r)
{
	const union tt_arg_val *v = &l->st->args.val[r];
	size_t n;
	const char *s;

	switch (type_of(l, r)) {
	case TT_ARG_INT:
		putf(l, "%" PRId64, v->i);
		break;
	case TT_ARG_UINT: case TT_ARG_POINTER:
		putf(l, "%" PRIu64, (uint64_t)v->i);
		break;
	case TT_ARG_REAL:
		putf(l, "%.16g", v->d);
		break;
	case TT_ARG_BOOL:
		put(l, v->i ? "true" : "false");
		break;
	case TT_ARG_STRING: case TT_ARG_JSON:
		s = str_of(l, v->s, &n);
		sqlite3_str_append(l->out, s, (int)n);
		break;
	default:
		put(l, "[NULL]");
	}
}

/* ---- gfp_flags: the kernel's show_gfp_flags table of its version ---------------- */

typedef struct gfp_flag {
	uint32_t mask;
	const char *name;
	uint8_t only; /* in the table before 4.4: 0 both, 1 before 3.10 only, 2 from 3.10 only */
} gfp_flag;

/* The composite masks come first, as the kernel lists them, so that a
 * value prints as GFP_KERNEL|... rather than its single bits. Four
 * tables, as trace processor keeps them: before 3.10, 3.10 to 4.4 (one
 * list here, the rows of one only marked), 4.4 to 4.14, 4.14 on (and
 * their quirks: before 3.10 a mask of 0 named GFP_NOTRACK, which every
 * value matches). */
static const gfp_flag gfp_v3[] = {
	{ 0x10 | 0x40 | 0x80 | 0x20000 | 0x02 | 0x08 | 0x4000 | 0x10000 | 0x1000 | 0x200 | 0x400000, "GFP_TRANSHUGE", 0 },
	{ 0x10 | 0x40 | 0x80 | 0x20000 | 0x02 | 0x08, "GFP_HIGHUSER_MOVABLE", 0 },
	{ 0x10 | 0x40 | 0x80 | 0x20000 | 0x02, "GFP_HIGHUSER", 0 },
	{ 0x10 | 0x40 | 0x80 | 0x20000, "GFP_USER", 0 },
	{ 0x10 | 0x40 | 0x80 | 0x80000, "GFP_TEMPORARY", 0 },
	{ 0x10 | 0x40 | 0x80, "GFP_KERNEL", 0 },
	{ 0x10 | 0x40, "GFP_NOFS", 0 },
	{ 0x20, "GFP_ATOMIC", 0 },
	{ 0x10, "GFP_NOIO", 0 },
	{ 0x20, "GFP_HIGH", 0 },
	{ 0x10, "GFP_WAIT", 0 },
	{ 0x40, "GFP_IO", 0 },
	{ 0x100, "GFP_COLD", 0 },
	{ 0x200, "GFP_NOWARN", 0 },
	{ 0x400, "GFP_REPEAT", 0 },
	{ 0x800, "GFP_NOFAIL", 0 },
	{ 0x1000, "GFP_NORETRY", 0 },
	{ 0x4000, "GFP_COMP", 0 },
	{ 0x8000, "GFP_ZERO", 0 },
	{ 0x10000, "GFP_NOMEMALLOC", 0 },
	{ 0x2000, "GFP_MEMALLOC", 2 },
	{ 0x20000, "GFP_HARDWALL", 0 },
	{ 0x40000, "GFP_THISNODE", 0 },
	{ 0x80000, "GFP_RECLAIMABLE", 0 },
	{ 0x100000, "GFP_KMEMCG", 2 },
	{ 0x08, "GFP_MOVABLE", 0 },
	{ 0, "GFP_NOTRACK", 1 },
	{ 0x200000, "GFP_NOTRACK", 2 },
	{ 0x400000, "GFP_NO_KSWAPD", 0 },
	{ 0x800000, "GFP_OTHER_NODE", 0 },
	{ 0, NULL, 0 },
};

/* 4.4: __GFP_RECLAIM = DIRECT (0x400000) | KSWAPD (0x2000000) */
#define R44 (0x400000u | 0x2000000u)
static const gfp_flag gfp_v4_4[] = {
	{ (R44 | 0x40 | 0x80 | 0x20000 | 0x02 | 0x08 | 0x4000 | 0x10000 | 0x1000 | 0x200) & ~0x2000000u, "GFP_TRANSHUGE", 0 },
	{ R44 | 0x40 | 0x80 | 0x20000 | 0x02 | 0x08, "GFP_HIGHUSER_MOVABLE", 0 },
	{ R44 | 0x40 | 0x80 | 0x20000 | 0x02, "GFP_HIGHUSER", 0 },
	{ R44 | 0x40 | 0x80 | 0x20000, "GFP_USER", 0 },
	{ R44 | 0x40 | 0x80 | 0x10, "GFP_TEMPORARY", 0 },
	{ R44 | 0x40 | 0x80, "GFP_KERNEL", 0 },
	{ R44 | 0x40, "GFP_NOFS", 0 },
	{ 0x20 | 0x80000 | 0x2000000, "GFP_ATOMIC", 0 },
	{ R44, "GFP_NOIO", 0 },
	{ 0x20, "GFP_HIGH", 0 },
	{ 0x80000, "GFP_ATOMIC", 0 },
	{ 0x40, "GFP_IO", 0 },
	{ 0x100, "GFP_COLD", 0 },
	{ 0x200, "GFP_NOWARN", 0 },
	{ 0x400, "GFP_REPEAT", 0 },
	{ 0x800, "GFP_NOFAIL", 0 },
	{ 0x1000, "GFP_NORETRY", 0 },
	{ 0x4000, "GFP_COMP", 0 },
	{ 0x8000, "GFP_ZERO", 0 },
	{ 0x10000, "GFP_NOMEMALLOC", 0 },
	{ 0x2000, "GFP_MEMALLOC", 0 },
	{ 0x20000, "GFP_HARDWALL", 0 },
	{ 0x40000, "GFP_THISNODE", 0 },
	{ 0x10, "GFP_RECLAIMABLE", 0 },
	{ 0x08, "GFP_MOVABLE", 0 },
	{ 0x200000, "GFP_NOTRACK", 0 },
	{ 0x400000, "GFP_DIRECT_RECLAIM", 0 },
	{ 0x2000000, "GFP_KSWAPD_RECLAIM", 0 },
	{ 0x800000, "GFP_OTHER_NODE", 0 },
	{ 0, NULL, 0 },
};

/* 4.14: __GFP_RECLAIM = DIRECT (0x400000) | KSWAPD (0x1000000) */
#define R414 (0x400000u | 0x1000000u)
#define TH_LIGHT414 ((R414 | 0x40 | 0x80 | 0x20000 | 0x02 | 0x08 | 0x4000 | 0x10000 | 0x200) & ~R414)
static const gfp_flag gfp_v4_14[] = {
	{ TH_LIGHT414 | 0x400000, "GFP_TRANSHUGE", 0 },
	{ TH_LIGHT414, "GFP_TRANSHUGE_LIGHT", 0 },
	{ R414 | 0x40 | 0x80 | 0x20000 | 0x02 | 0x08, "GFP_HIGHUSER_MOVABLE", 0 },
	{ R414 | 0x40 | 0x80 | 0x20000 | 0x02, "GFP_HIGHUSER", 0 },
	{ R414 | 0x40 | 0x80 | 0x20000, "GFP_USER", 0 },
	{ R414 | 0x40 | 0x80 | 0x100000, "GFP_KERNEL_ACCOUNT", 0 },
	{ R414 | 0x40 | 0x80, "GFP_KERNEL", 0 },
	{ R414 | 0x40, "GFP_NOFS", 0 },
	{ 0x20 | 0x80000 | 0x1000000, "GFP_ATOMIC", 0 },
	{ R414, "GFP_NOIO", 0 },
	{ 0x1000000, "GFP_NOWAIT", 0 },
	{ 0x01, "GFP_DMA", 0 },
	{ 0x02, "__GFP_HIGHMEM", 0 },
	{ 0x04, "GFP_DMA32", 0 },
	{ 0x20, "__GFP_HIGH", 0 },
	{ 0x80000, "__GFP_ATOMIC", 0 },
	{ 0x40, "__GFP_IO", 0 },
	{ 0x80, "__GFP_FS", 0 },
	{ 0x100, "__GFP_COLD", 0 },
	{ 0x200, "__GFP_NOWARN", 0 },
	{ 0x400, "__GFP_RETRY_MAYFAIL", 0 },
	{ 0x800, "__GFP_NOFAIL", 0 },
	{ 0x1000, "__GFP_NORETRY", 0 },
	{ 0x4000, "__GFP_COMP", 0 },
	{ 0x8000, "__GFP_ZERO", 0 },
	{ 0x10000, "__GFP_NOMEMALLOC", 0 },
	{ 0x2000, "__GFP_MEMALLOC", 0 },
	{ 0x20000, "__GFP_HARDWALL", 0 },
	{ 0x40000, "__GFP_THISNODE", 0 },
	{ 0x10, "__GFP_RECLAIMABLE", 0 },
	{ 0x08, "__GFP_MOVABLE", 0 },
	{ 0x100000, "__GFP_ACCOUNT", 0 },
	{ 0x800000, "__GFP_WRITE", 0 },
	{ R414, "__GFP_RECLAIM", 0 },
	{ 0x400000, "__GFP_DIRECT_RECLAIM", 0 },
	{ 0x1000000, "__GFP_KSWAPD_RECLAIM", 0 },
	{ 0, NULL, 0 },
};

/* As the kernel's trace_print_flags_seq: each mask wholly set is named
 * and taken out; what is left over follows in hex. An unknown kernel is
 * read as 4.4. */
static void gfp(fline *l, uint64_t v)
{
	int maj = l->kv_major, min = l->kv_minor, skip = 0;
	const gfp_flag *t;
	int named = 0;

	if (!maj && !min) {
		maj = 4;
		min = 4;
	}
	t = maj < 4 || (maj == 4 && min < 4) ? gfp_v3 : maj == 4 && min < 14 ? gfp_v4_4 : gfp_v4_14;
	if (t == gfp_v3)
		skip = maj < 3 || (maj == 3 && min < 10) ? 2 : 1;
	if (!v) {
		put(l, "GFP_NOWAIT");
		return;
	}
	for (; t->name; t++) {
		if ((skip && t->only == skip) || (v & t->mask) != t->mask)
			continue;
		v &= ~(uint64_t)t->mask;
		if (named++)
			put(l, "|");
		put(l, t->name);
	}
	if (v)
		putf(l, "%s0x%" PRIx64, named ? "|" : "", v);
}

/* ---- args ---------------------------------------------------------------------- */

/* " key=value" of row r, under its own key or shown (NULL: its own). */
static void arg_at(fline *l, long r, const char *shown, void (*fn)(fline *, long))
{
	size_t n;
	const char *k = str_of(l, l->st->args.key[r], &n);

	put(l, " ");
	if (shown)
		put(l, shown);
	else
		sqlite3_str_append(l->out, k, (int)n);
	put(l, "=");
	if (strcmp(shown ? shown : k, "gfp_flags") == 0 &&
	    (type_of(l, r) == TT_ARG_UINT || type_of(l, r) == TT_ARG_INT)) {
		gfp(l, (uint64_t)int_of(l, r));
		return;
	}
	(fn ? fn : value)(l, r);
}

static void w_hex(fline *l, long r)
{
	putf(l, "%" PRIx64, (uint64_t)int_of(l, r));
}

static void w_u32(fline *l, long r)
{
	putf(l, "%" PRIu32, (uint32_t)int_of(l, r));
}

static void w_cpu3(fline *l, long r)
{
	putf(l, "%03" PRId64, int_of(l, r));
}

static void w_char(fline *l, long r)
{
	char c = (char)int_of(l, r);

	sqlite3_str_append(l->out, &c, 1);
}

/* A kernel function: its symbol when the trace had it, else the address. */
static void w_kfn(fline *l, long r)
{
	if (type_of(l, r) == TT_ARG_STRING)
		value(l, r);
	else
		w_hex(l, r);
}

static void w_prev_state(fline *l, long r)
{
	char b[TT_TASK_STATE_MAX];
	int n = tt_task_state_text(int_of(l, r), l->kv_major, l->kv_minor, '|', b);

	if (n < 0)
		put(l, "?");
	else
		sqlite3_str_append(l->out, b, n);
}

static void w_begin_end(fline *l, long r)
{
	put(l, int_of(l, r) ? "B" : "E");
}

static void w_handled(fline *l, long r)
{
	put(l, int_of(l, r) ? "handled" : "unhandled");
}

static void w_softirq(fline *l, long r)
{
	static const char *const names[] = { "HI", "TIMER", "NET_TX", "NET_RX", "BLOCK",
					      "BLOCK_IOPOLL", "TASKLET", "SCHED", "HRTIMER", "RCU" };
	uint64_t v = (uint64_t)int_of(l, r);

	if (v < sizeof(names) / sizeof(names[0]))
		put(l, names[v]);
	else
		putf(l, "%" PRIu64, v);
}

static void w_addr3(fline *l, long r)
{
	putf(l, "%03" PRIx64, (uint64_t)int_of(l, r));
}

static void w_flags4(fline *l, long r)
{
	putf(l, "%04" PRIx64, (uint64_t)int_of(l, r));
}

static void w_dev_major(fline *l, long r)
{
	putf(l, "%" PRIu64, (uint64_t)int_of(l, r) >> 20);
}

static void w_dev_minor(fline *l, long r)
{
	putf(l, "%" PRIu64, (uint64_t)int_of(l, r) & ((1u << 20) - 1));
}

static void w_page_ofs(fline *l, long r)
{
	putf(l, "%" PRIu64, (uint64_t)int_of(l, r) << 12);
}

/* print's buffer without its last newline */
static void w_print_buf(fline *l, long r)
{
	size_t n;
	const char *s = str_of(l, l->st->args.val[r].s, &n);

	if (n && s[n - 1] == '\n')
		n--;
	sqlite3_str_append(l->out, s, (int)n);
}

/* i2c's bytes: two hex digits each, '-' between, at most 64 as the
 * kernel's %*phD prints them */
static void w_i2c_buf(fline *l, long r)
{
	size_t n;
	const char *s = str_of(l, l->st->args.val[r].s, &n);

	put(l, " [");
	for (size_t i = 0; i < n && i < 64; i++)
		putf(l, "%s%02x", i ? "-" : "", (unsigned)(unsigned char)s[i]);
	put(l, "]");
}

/* An event's kernel format as steps: a literal, a field's value alone,
 * or a field as " key=value" (under another key when shown is set); a
 * field the event lacks prints nothing. */
typedef struct step {
	char op;          /* 'l' literal, 'v' value, 'a' arg, 0 end */
	const char *a;    /* the literal, or the field's key */
	const char *shown;
	void (*fn)(fline *, long);
} step;

#define L(s) { 'l', s, NULL, NULL }
#define V(k, f) { 'v', k, NULL, f }
#define A(k) { 'a', k, NULL, NULL }
#define AS(k, shown, f) { 'a', k, shown, f }
#define END { 0, NULL, NULL, NULL }

static const step f_switch[] = { A("prev_comm"), A("prev_pid"), A("prev_prio"), AS("prev_state", NULL, w_prev_state),
				 L(" ==>"), A("next_comm"), A("next_pid"), A("next_prio"), END };
static const step f_wakeup[] = { A("comm"), A("pid"), A("prio"), AS("target_cpu", NULL, w_cpu3), END };
static const step f_clock_set_rate[] = { L(" "), V("name", NULL), A("state"), A("cpu_id"), END };
static const step f_clk_set_rate[] = { L(" "), V("name", NULL), L(" "), V("rate", NULL), END };
static const step f_clock_onoff[] = { V("name", NULL), A("state"), A("cpu_id"), END };
static const step f_binder_txn[] = { L(" transaction="), V("debug_id", w_u32), L(" dest_node="), V("target_node", w_u32),
				     L(" dest_proc="), V("to_proc", NULL), L(" dest_thread="), V("to_thread", NULL),
				     L(" reply="), V("reply", NULL), L(" flags=0x"), V("flags", w_hex),
				     L(" code=0x"), V("code", w_hex), END };
static const step f_binder_alloc[] = { L(" transaction="), V("debug_id", w_u32), A("data_size"), A("offsets_size"), END };
static const step f_binder_rcv[] = { L(" transaction="), V("debug_id", w_u32), END };
static const step f_filemap_add[] = { L(" dev "), V("s_dev", w_dev_major), L(":"), V("s_dev", w_dev_minor),
				      L(" ino "), V("i_ino", w_hex), L(" page=0000000000000000 pfn="), V("pfn", NULL),
				      L(" ofs="), V("index", w_page_ofs), END };
static const step f_print[] = { L(" "), V("buf", w_print_buf), END };
static const step f_blocked[] = { A("pid"), AS("io_wait", "iowait", NULL), AS("caller", NULL, w_kfn), END };
static const step f_work[] = { L(" work struct "), V("work", w_hex), END };
static const step f_work_start[] = { L(" work struct "), V("work", w_hex), L(": function "), V("function", w_kfn), END };
static const step f_work_queue[] = { L(" work struct="), V("work", w_hex), AS("function", NULL, w_kfn),
				     AS("workqueue", NULL, w_hex), V("req_cpu", NULL), V("cpu", NULL), END };
static const step f_irq_entry[] = { A("irq"), A("name"), END };
static const step f_irq_exit[] = { A("irq"), L(" ret="), V("ret", w_handled), END };
static const step f_softirq[] = { A("vec"), L(" [action="), V("vec", w_softirq), L("]"), END };
static const step f_atrace[] = { V("trace_begin", w_begin_end), L("|"), V("pid", NULL), L("|"), V("trace_name", NULL), END };
static const step f_marker[] = { V("type", w_char), L("|"), V("pid", NULL), L("|"), V("name", NULL), L("|"),
				 V("value", NULL), END };
static const step f_samsung[] = { V("trace_type", w_char), L("|"), V("pid", NULL), L("|"), V("trace_name", NULL),
				  L("|"), V("value", NULL), END };
static const step f_cgroup[] = { A("dst_root"), A("dst_id"), AS("cname", "cgroup", NULL), A("dst_level"), A("dst_path"),
				 A("pid"), A("comm"), END };
static const step f_hrtimer[] = { AS("function", NULL, w_kfn), END };
#define I2C_HEAD L(" i2c-"), V("adapter_nr", NULL), L(" #"), V("msg_nr", NULL), AS("addr", "a", w_addr3), \
		 AS("flags", "f", w_flags4), AS("len", "l", NULL)
static const step f_i2c_buf[] = { I2C_HEAD, V("buf", w_i2c_buf), END };
static const step f_i2c_read[] = { I2C_HEAD, END };
static const step f_i2c_result[] = { L(" i2c-"), V("adapter_nr", NULL), AS("nr_msgs", "n", NULL), AS("ret", "ret", NULL),
				     END };

static const struct { const char *name; const step *fmt; } formats[] = {
	{ "sched_switch", f_switch },
	{ "sched_wakeup", f_wakeup },
	{ "clock_set_rate", f_clock_set_rate },
	{ "clk_set_rate", f_clk_set_rate },
	{ "clock_enable", f_clock_onoff },
	{ "clock_disable", f_clock_onoff },
	{ "binder_transaction", f_binder_txn },
	{ "binder_transaction_alloc_buf", f_binder_alloc },
	{ "binder_transaction_received", f_binder_rcv },
	{ "mm_filemap_add_to_page_cache", f_filemap_add },
	{ "print", f_print },
	{ "sched_blocked_reason", f_blocked },
	{ "workqueue_activate_work", f_work },
	{ "workqueue_execute_end", f_work },
	{ "workqueue_execute_start", f_work_start },
	{ "workqueue_queue_work", f_work_queue },
	{ "irq_handler_entry", f_irq_entry },
	{ "irq_handler_exit", f_irq_exit },
	{ "softirq_entry", f_softirq },
	{ "softirq_exit", f_softirq },
	{ "tracing_mark_write", f_atrace },
	{ "dpu_tracing_mark_write", f_marker },
	{ "panel_write_generic", f_marker },
	{ "g2d_tracing_mark_write", f_marker },
	{ "samsung_tracing_mark_write", f_samsung },
	{ "cgroup_attach_task", f_cgroup },
	{ "hrtimer_expire_entry", f_hrtimer },
	{ "i2c_write", f_i2c_buf },
	{ "i2c_reply", f_i2c_buf },
	{ "i2c_read", f_i2c_read },
	{ "i2c_result", f_i2c_result },
};

/* The events printed in their kernel format; 0 when name is not one. */
static int special(fline *l, const char *name)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		if (strcmp(name, formats[i].name))
			continue;
		for (const step *s = formats[i].fmt; s->op; s++) {
			long r = s->op == 'l' ? -1 : find(l, s->a);

			if (s->op == 'l')
				put(l, s->a);
			else if (r >= 0 && s->op == 'v')
				(s->fn ? s->fn : value)(l, r);
			else if (r >= 0)
				arg_at(l, r, s->shown, s->fn);
		}
		return 1;
	}
	return 0;
}

/* ---- the line ------------------------------------------------------------------- */

/* The trace's Linux kernel version from its metadata (system_name,
 * system_release), 0.0 when it has none. */
static void kernel_of(const tt_storage *st, int *major, int *minor)
{
	const char *sys = NULL, *rel = NULL;

	*major = *minor = 0;
	for (size_t i = 0; i < st->meta.n; i++) {
		const char *k = tt_storage_str(st, st->meta.name[i]);

		if (!k || !st->meta.sval[i])
			continue;
		if (!strcmp(k, "system_name"))
			sys = tt_storage_str(st, st->meta.sval[i]);
		else if (!strcmp(k, "system_release"))
			rel = tt_storage_str(st, st->meta.sval[i]);
	}
	if (tt_task_state_kernel(sys, rel, major, minor))
		*major = *minor = 0;
}

static void prefix(fline *l, size_t row)
{
	const tt_storage *st = l->st;
	uint32_t ucpu = tt_storage_raw_id(&st->raw.ucpu, row), utid = tt_storage_raw_id(&st->raw.utid, row);
	int64_t ts = st->raw.ts[row], tid = 0, tgid = 0, cpu = 0, secs, us;
	const char *name = "";
	size_t n, pad;

	if (utid != TT_NONE && utid < tt_storage_thread_count(st)) {
		uint32_t upid = tt_storage_thread_upid(st, utid);

		tid = tt_storage_thread_tid(st, utid);
		name = str_of(l, tt_storage_thread_name(st, utid), &n);
		if (upid != TT_NONE)
			tgid = tt_storage_process_pid(st, upid);
	}
	if (tid == 0)
		name = "<idle>";
	else if (!*name)
		name = "<unknown>";
	n = strlen(name);
	for (pad = n; pad < 16; pad++)
		put(l, " ");
	for (size_t i = 0; i < n; i++)
		sqlite3_str_appendchar(l->out, 1, name[i] == '-' ? '_' : name[i]);
	putf(l, "-%-5" PRId64, tid);
	if (tgid == 0)
		put(l, " (-----)");
	else
		putf(l, " (%5" PRId64 ")", tgid);
	if (ucpu != TT_NONE && ucpu < st->cpus.n)
		cpu = st->cpus.cpu[ucpu];
	secs = ts / 1000000000;
	us = (ts - secs * 1000000000) / 1000;
	putf(l, " [%03" PRId64 "] .... %" PRId64 ".%06" PRId64 ":", cpu, secs, us);
}

/* The function's state: the kernel version is read from the metadata
 * once, at the first call (the storage is complete by then), not per
 * row. */
typedef struct ftrace_fn {
	const tt_storage *st;
	int have_kernel, kv_major, kv_minor;
} ftrace_fn;

static void fn_to_ftrace(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	ftrace_fn *f = sqlite3_user_data(ctx);
	const tt_storage *st = f->st;
	fline l = { .st = st };
	sqlite3_int64 id;
	const char *name;
	uint32_t set;
	size_t n;
	char *text;
	int len;

	(void)argc;
	if (sqlite3_value_type(argv[0]) != SQLITE_INTEGER) {
		sqlite3_result_error(ctx, "Usage: to_ftrace(id)", -1);
		return;
	}
	id = sqlite3_value_int64(argv[0]);
	name = id >= 0 && (uint64_t)id < st->raw.n ? str_of(&l, st->raw.name[id], &n) : NULL;
	if (!name || !strncmp(name, "chrome_event.", 13) || !strncmp(name, "track_event.", 12)) {
		char msg[80];

		snprintf(msg, sizeof(msg), "to_ftrace: Cannot serialize row id %lld", (long long)id);
		sqlite3_result_error(ctx, msg, -1);
		return;
	}
	if (!(l.out = sqlite3_str_new(sqlite3_context_db_handle(ctx)))) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	if (!f->have_kernel) {
		kernel_of(st, &f->kv_major, &f->kv_minor);
		f->have_kernel = 1;
	}
	l.kv_major = f->kv_major;
	l.kv_minor = f->kv_minor;
	prefix(&l, (size_t)id);
	put(&l, " ");
	/* atrace-like markers print as the marker they are */
	put(&l, !strcmp(name, "print") || !strcmp(name, "g2d_tracing_mark_write") ||
			!strcmp(name, "dpu_tracing_mark_write") ? "tracing_mark_write" : name);
	put(&l, ":");
	set = tt_storage_raw_id(&st->raw.arg_set_id, (size_t)id);
	if (set != TT_NONE && tt_storage_argset_rows(st, set, &l.first, &l.end) && !special(&l, name))
		for (size_t r = l.first; r < l.end; r++)
			arg_at(&l, (long)r, NULL, NULL);
	len = sqlite3_str_length(l.out);
	if (sqlite3_str_errcode(l.out)) {
		sqlite3_free(sqlite3_str_finish(l.out));
		sqlite3_result_error_nomem(ctx);
		return;
	}
	text = sqlite3_str_finish(l.out);
	if (text)
		sqlite3_result_text(ctx, text, len, sqlite3_free);
	else
		sqlite3_result_text(ctx, "", 0, SQLITE_STATIC);
}

int tt_sql_register_ftrace_functions(sqlite3 *db, const tt_storage *st)
{
	ftrace_fn *f = sqlite3_malloc(sizeof(*f));

	if (!f)
		return SQLITE_NOMEM;
	*f = (ftrace_fn){ .st = st };
	/* (on failure SQLite calls the destructor itself) */
	return sqlite3_create_function_v2(db, "to_ftrace", 1, SQLITE_UTF8, f, fn_to_ftrace, NULL, NULL, sqlite3_free);
}
