/*
 * proto_tb.h - builds Perfetto traces in memory for the tests: packets
 * packed by protobuf-c behind the Trace field-1 framing (tbuf, tb_packet),
 * a packet on a sequence at a time (pkt), a payload set and packed in one
 * step (TB_PUT), a clock snapshot, a process tree and a one-event ftrace
 * bundle. Included by the test_proto*.c tests, test_sorter_proto.c and
 * test_metrics_atrace.c.
 */
#ifndef TT_TEST_PROTO_TB_H
#define TT_TEST_PROTO_TB_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "perfetto_trace.pb-c.h"
#include "testutil.h"

typedef Perfetto__Protos__TracePacket Pkt;

typedef struct tbuf {
	unsigned char *p;
	size_t n, cap;
} tbuf;

static inline void tb_raw(tbuf *b, const void *d, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
		assert_non_null(b->p);
	}
	memcpy(b->p + b->n, d, n);
	b->n += n;
}

static inline void tb_varint(tbuf *b, uint64_t v)
{
	unsigned char c;

	do {
		c = v & 0x7f;
		v >>= 7;
		if (v)
			c |= 0x80;
		tb_raw(b, &c, 1);
	} while (v);
}

static inline void tb_packet(tbuf *b, const Pkt *p)
{
	size_t n = perfetto__protos__trace_packet__get_packed_size(p);
	unsigned char *tmp = malloc(n + 1);

	assert_non_null(tmp);
	perfetto__protos__trace_packet__pack(p, tmp);
	tb_raw(b, "\x0a", 1);
	tb_varint(b, n);
	tb_raw(b, tmp, n);
	free(tmp);
}

static inline Pkt pkt(uint32_t seq, uint64_t ts)
{
	Pkt p = PERFETTO__PROTOS__TRACE_PACKET__INIT;

	p.has_trusted_packet_sequence_id = 1;
	p.trusted_packet_sequence_id = seq;
	if (ts) {
		p.has_timestamp = 1;
		p.timestamp = ts;
	}
	return p;
}

/* The trace in b written to a temporary file and opened (the test fails
 * when it does not open); tb_close closes it, removes the file and
 * empties b. */
static inline tt_trace *tb_open_file(tbuf *b, char **path)
{
	*path = tt_test_write_tmp(b->p, b->n, ".pftrace");
	return tt_test_open(*path);
}

static inline void tb_close(tt_trace *tr, char *path, tbuf *b)
{
	tt_trace_close(tr);
	unlink(path);
	free(path);
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/* Packs packet p with its payload msg in oneof member `member` (data case
 * CASE): TB_PUT(&b, p, TRACK_EVENT, track_event, &te). */
#define TB_PUT(b, p, CASE, member, msg)                                                \
	((p).data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_##CASE, (p).member = (msg), \
	 tb_packet((b), &(p)))

/* A clock snapshot on sequence seq: clock c1 at t1 is clock c2 at t2
 * (inc2: c2 incremental; mult2: its unit in ns, 0: none); primary: the
 * trace clock (0: unset). */
static inline void tb_snapshot(tbuf *b, uint32_t seq, int primary, uint32_t c1, uint64_t t1, uint32_t c2,
			       uint64_t t2, int inc2, uint64_t mult2)
{
	Pkt p = pkt(seq, 0);
	Perfetto__Protos__ClockSnapshot cs = PERFETTO__PROTOS__CLOCK_SNAPSHOT__INIT;
	Perfetto__Protos__ClockSnapshot__Clock a = PERFETTO__PROTOS__CLOCK_SNAPSHOT__CLOCK__INIT;
	Perfetto__Protos__ClockSnapshot__Clock z = PERFETTO__PROTOS__CLOCK_SNAPSHOT__CLOCK__INIT;
	Perfetto__Protos__ClockSnapshot__Clock *cl[2] = { &a, &z };

	a.has_clock_id = z.has_clock_id = a.has_timestamp = z.has_timestamp = 1;
	a.clock_id = c1;
	a.timestamp = t1;
	z.clock_id = c2;
	z.timestamp = t2;
	z.has_is_incremental = inc2;
	z.is_incremental = inc2;
	z.has_unit_multiplier_ns = mult2 != 0;
	z.unit_multiplier_ns = mult2;
	cs.n_clocks = 2;
	cs.clocks = cl;
	if (primary) {
		cs.has_primary_trace_clock = 1;
		cs.primary_trace_clock = primary;
	}
	TB_PUT(b, p, CLOCK_SNAPSHOT, clock_snapshot, &cs);
}

/* A process tree of one process (pid, ppid, argv0) and optionally one
 * thread (tid of pid, named). */
static inline void tree_packet(tbuf *b, uint64_t ts, int32_t pid, int32_t ppid, const char *argv0, int32_t tid,
			       const char *tname)
{
	Perfetto__Protos__ProcessTree pt = PERFETTO__PROTOS__PROCESS_TREE__INIT;
	Perfetto__Protos__ProcessTree__Process pr = PERFETTO__PROTOS__PROCESS_TREE__PROCESS__INIT, *prp = &pr;
	Perfetto__Protos__ProcessTree__Thread th = PERFETTO__PROTOS__PROCESS_TREE__THREAD__INIT, *thp = &th;
	char *cmd = (char *)argv0;
	Pkt p = pkt(1, ts);

	pr.has_pid = pr.has_ppid = 1;
	pr.pid = pid;
	pr.ppid = ppid;
	pr.n_cmdline = 1;
	pr.cmdline = &cmd;
	th.has_tid = th.has_tgid = 1;
	th.tid = tid;
	th.tgid = pid;
	th.name = (char *)tname;
	pt.n_processes = 1;
	pt.processes = &prp;
	pt.n_threads = tid ? 1 : 0;
	pt.threads = &thp;
	TB_PUT(b, p, PROCESS_TREE, process_tree, &pt);
}

/* SystemInfo naming a Linux kernel release (NULL: no packet). */
static inline void tb_kernel_release(tbuf *b, char *release)
{
	Perfetto__Protos__SystemInfo si = PERFETTO__PROTOS__SYSTEM_INFO__INIT;
	Perfetto__Protos__Utsname u = PERFETTO__PROTOS__UTSNAME__INIT;
	Pkt p = pkt(1, 0);

	if (!release)
		return;
	u.sysname = "Linux";
	u.release = release;
	si.utsname = &u;
	TB_PUT(b, p, SYSTEM_INFO, system_info, &si);
}

/* One ftrace event e (its case set by the caller) on cpu at ts, written
 * by pid; sym: a kernel symbol interned with iid 0x1234 first. */
static inline void ft_event_cpu(tbuf *b, uint64_t ts, uint32_t cpu, uint32_t pid, Perfetto__Protos__FtraceEvent *e,
				const char *sym)
{
	Perfetto__Protos__FtraceEventBundle fb = PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__INIT;
	Perfetto__Protos__InternedData in = PERFETTO__PROTOS__INTERNED_DATA__INIT;
	Perfetto__Protos__InternedString is = PERFETTO__PROTOS__INTERNED_STRING__INIT, *isp = &is;
	Pkt p = pkt(1, 0);

	e->has_timestamp = e->has_pid = 1;
	e->timestamp = ts;
	e->pid = pid;
	fb.has_cpu = 1;
	fb.cpu = cpu;
	fb.n_event = 1;
	fb.event = &e;
	if (sym) {
		is.has_iid = is.has_str = 1;
		is.iid = 0x1234;
		is.str.data = (uint8_t *)sym;
		is.str.len = strlen(sym);
		in.n_kernel_symbols = 1;
		in.kernel_symbols = &isp;
		p.interned_data = &in;
	}
	TB_PUT(b, p, FTRACE_EVENTS, ftrace_events, &fb);
}

#endif
