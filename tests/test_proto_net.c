/*
 * test_proto_net.c - the kernel's network ftrace events of a Perfetto
 * trace (core/import/proto/proto_net.c), as trace processor turns them
 * into counters and slices: bytes received / sent per interface in KB,
 * IP packets freed, TCP sockets' states as slices per stream,
 * retransmits as instants, GRO receives as slices per cpu. Traces written
 * by the tests.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto_trace.pb-c.h"
#include "proto_tb.h"
#include "testutil.h"

typedef Perfetto__Protos__FtraceEvent FEv;

#define EV(e, CASE, member, msg) (perfetto__protos__ftrace_event__init(&(e)), \
				  (e).event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_##CASE, (e).member = (msg), &(e))

static void rx(tbuf *b, uint64_t ts, uint32_t cpu, const char *dev, uint32_t len)
{
	Perfetto__Protos__NetifReceiveSkbFtraceEvent r = PERFETTO__PROTOS__NETIF_RECEIVE_SKB_FTRACE_EVENT__INIT;
	FEv e;

	r.has_len = 1;
	r.len = len;
	r.name = (char *)dev;
	ft_event_cpu(b, ts, cpu, 100, EV(e, NETIF_RECEIVE_SKB, netif_receive_skb, &r), NULL);
}

static void tx(tbuf *b, uint64_t ts, uint32_t cpu, const char *dev, uint32_t len, int32_t rc)
{
	Perfetto__Protos__NetDevXmitFtraceEvent x = PERFETTO__PROTOS__NET_DEV_XMIT_FTRACE_EVENT__INIT;
	FEv e;

	x.has_len = x.has_rc = 1;
	x.len = len;
	x.rc = rc;
	x.name = (char *)dev;
	ft_event_cpu(b, ts, cpu, 100, EV(e, NET_DEV_XMIT, net_dev_xmit, &x), NULL);
}

static void kfree(tbuf *b, uint64_t ts, uint32_t protocol)
{
	Perfetto__Protos__KfreeSkbFtraceEvent k = PERFETTO__PROTOS__KFREE_SKB_FTRACE_EVENT__INIT;
	FEv e;

	k.has_protocol = 1;
	k.protocol = protocol;
	ft_event_cpu(b, ts, 0, 100, EV(e, KFREE_SKB, kfree_skb, &k), NULL);
}

/* Received / transmitted KB so far per interface (integer KB of the
 * bytes so far), cpu and len as args; a transmit the driver refused
 * (rc != 0) counts nothing; IP and IPv6 packets freed counted. */
static void test_bytes_and_frees(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	rx(&b, 10, 0, "rmnet0", 1000);
	rx(&b, 20, 1, "rmnet0", 1000);
	rx(&b, 30, 2, "wlan0", 3000);
	tx(&b, 40, 0, "rmnet0", 700, 0);
	tx(&b, 50, 0, "rmnet0", 700, 16); /* busy: not sent */
	tx(&b, 60, 1, "rmnet0", 700, 0);
	kfree(&b, 70, 0x800);
	kfree(&b, 80, 0x806); /* ARP: not IP */
	kfree(&b, 90, 0x86dd);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select c.ts, t.name, t.type, cast(c.value as int), extract_arg(c.arg_set_id, 'cpu'),"
			       " extract_arg(c.arg_set_id, 'len'), extract_arg(t.dimension_arg_set_id, 'network_interface')"
			       " from counter c join counter_track t on c.track_id = t.id"
			       " where t.type in ('net_receive', 'net_transmit')"
			       " order by c.ts",
			   "10\trmnet0 Received KB\tnet_receive\t0\t0\t1000\trmnet0\n"
			   "20\trmnet0 Received KB\tnet_receive\t1\t1\t1000\trmnet0\n"
			   "30\twlan0 Received KB\tnet_receive\t2\t2\t3000\twlan0\n"
			   "40\trmnet0 Transmitted KB\tnet_transmit\t0\t0\t700\trmnet0\n"
			   "60\trmnet0 Transmitted KB\tnet_transmit\t1\t1\t700\trmnet0\n");
	tt_test_assert_tsv(tr, "select c.ts, cast(c.value as int), extract_arg(c.arg_set_id, 'protocol'), t.type"
			       " from counter c join counter_track t on c.track_id = t.id"
			       " where t.name = 'Kfree Skb IP Prot' order by c.ts",
			   "70\t1\tIP\tnet_kfree_skb\n90\t2\tIPV6\tnet_kfree_skb\n");
	tb_close(tr, path, &b);
}

static void sock_state(tbuf *b, uint64_t ts, uint32_t pid, uint64_t sk, int32_t from, int32_t to, uint32_t proto,
		       uint32_t family)
{
	Perfetto__Protos__InetSockSetStateFtraceEvent s = PERFETTO__PROTOS__INET_SOCK_SET_STATE_FTRACE_EVENT__INIT;
	FEv e;

	s.has_skaddr = s.has_oldstate = s.has_newstate = s.has_protocol = s.has_family = 1;
	s.has_sport = s.has_dport = 1;
	s.skaddr = sk;
	s.oldstate = from;
	s.newstate = to;
	s.protocol = proto;
	s.family = family;
	s.sport = 56789;
	s.dport = 443;
	ft_event_cpu(b, ts, 0, pid, EV(e, INET_SOCK_SET_STATE, inet_sock_set_state, &s), NULL);
}

/* Each TCP socket a "TCP stream#N" track (by first appearance), a slice
 * per state (category tcp_state) ending where the next begins; other
 * protocols, families and out-of-range states skipped. Retransmits:
 * instants; GRO receives: slices named by the device on the cpu's track,
 * len at the entry, ret from the exit. */
static void test_tcp_and_gro(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Perfetto__Protos__TcpRetransmitSkbFtraceEvent rt = PERFETTO__PROTOS__TCP_RETRANSMIT_SKB_FTRACE_EVENT__INIT;
	Perfetto__Protos__NapiGroReceiveEntryFtraceEvent ge = PERFETTO__PROTOS__NAPI_GRO_RECEIVE_ENTRY_FTRACE_EVENT__INIT;
	Perfetto__Protos__NapiGroReceiveExitFtraceEvent gx = PERFETTO__PROTOS__NAPI_GRO_RECEIVE_EXIT_FTRACE_EVENT__INIT;
	FEv e;

	(void)state;
	sock_state(&b, 100, 77, 0xb, 7, 2, 6, 2);  /* stream 1: SYN_SENT */
	sock_state(&b, 110, 78, 0xa, 7, 2, 6, 10); /* stream 2 (IPv6) */
	sock_state(&b, 150, 77, 0xb, 2, 1, 6, 2);  /* stream 1: ESTABLISHED */
	sock_state(&b, 160, 77, 0xc, 7, 2, 17, 2); /* UDP: skipped */
	sock_state(&b, 170, 77, 0xd, 7, 2, 6, 1);  /* not IP: skipped */
	sock_state(&b, 180, 77, 0xb, 1, 13, 6, 2); /* no such state: skipped */
	sock_state(&b, 200, 77, 0xb, 1, 4, 6, 2);  /* stream 1: FIN_WAIT1 */
	rt.has_sport = rt.has_dport = 1;
	rt.sport = 56789;
	rt.dport = 443;
	ft_event_cpu(&b, 210, 0, 77, EV(e, TCP_RETRANSMIT_SKB, tcp_retransmit_skb, &rt), NULL);
	ge.has_len = 1;
	ge.len = 1500;
	ge.name = "rmnet0";
	ft_event_cpu(&b, 300, 2, 0, EV(e, NAPI_GRO_RECEIVE_ENTRY, napi_gro_receive_entry, &ge), NULL);
	gx.has_ret = 1;
	gx.ret = 3;
	ft_event_cpu(&b, 320, 2, 0, EV(e, NAPI_GRO_RECEIVE_EXIT, napi_gro_receive_exit, &gx), NULL);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.category, s.name, t.name, t.type,"
			       " coalesce(extract_arg(t.dimension_arg_set_id, 'tcp_stream_idx'), '-')"
			       " from slice s join track t on s.track_id = t.id where t.type glob 'net_*' order by s.ts",
			   "100\t50\ttcp_state\tTCP_SYN_SENT(pid=77)\tTCP stream#1\tnet_socket_set_state\t1\n"
			   "110\t-1\ttcp_state\tTCP_SYN_SENT(pid=78)\tTCP stream#2\tnet_socket_set_state\t2\n"
			   "150\t50\ttcp_state\tTCP_ESTABLISHED(sport=56789,dport=443)\tTCP stream#1\tnet_socket_set_state\t1\n"
			   "200\t-1\ttcp_state\tTCP_FIN_WAIT1\tTCP stream#1\tnet_socket_set_state\t1\n"
			   "210\t0\ttcp_event\tsport=56789,dport=443\tTCP Retransmit Skb\tnet_tcp_retransmit_skb\t-\n");
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.category, s.name, t.name, extract_arg(s.arg_set_id, 'len'),"
			       " extract_arg(s.arg_set_id, 'ret') from slice s join track t on s.track_id = t.id"
			       " where t.type = 'cpu_napi_gro'",
			   "300\t20\tnapi_gro\trmnet0\tNapi Gro Cpu 2\t1500\t3\n");
	tb_close(tr, path, &b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bytes_and_frees),
		cmocka_unit_test(test_tcp_and_gro),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
