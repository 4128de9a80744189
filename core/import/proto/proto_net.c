/*
 * proto_net.c - the kernel's network ftrace events, as trace processor's
 * FtraceParser turns them into counters and slices:
 *
 *   - netif_receive_skb / net_dev_xmit (when the driver took the packet,
 *     rc 0): per network interface, the bytes so far in KB (integer
 *     division) on "<dev> Received KB" (net_receive) / "<dev> Transmitted
 *     KB" (net_transmit), dimension network_interface, each value with
 *     the cpu and the packet's len as args;
 *   - kfree_skb of an IP or IPv6 packet: the count so far on "Kfree Skb IP
 *     Prot" (net_kfree_skb), protocol ("IP" / "IPV6") as arg;
 *   - inet_sock_set_state of a TCP socket (IPv4 or IPv6, valid states):
 *     each socket (skaddr) a "TCP stream#N" track (N from 1 in the order
 *     sockets are first seen; net_socket_set_state, dimension
 *     tcp_stream_idx) holding one slice per state, category tcp_state,
 *     named by the state ("TCP_SYN_SENT(pid=P)", "TCP_ESTABLISHED(sport=S,
 *     dport=D)", else its name);
 *   - tcp_retransmit_skb: an instant "sport=S,dport=D" (category
 *     tcp_event) on "TCP Retransmit Skb";
 *   - napi_gro_receive_entry / _exit: slices named by the device
 *     (category napi_gro, its len as arg, the exit's ret added) on "Napi
 *     Gro Cpu N".
 * Running sums and stream numbers are taken in trace order, when the
 * events are fed.
 */
#include "proto_int.h"

#include <stdio.h>

enum { AF_NET = 2, AF_NET6 = 10, IPPROTO_TCP_ = 6, ETH_P_IP_ = 0x800, ETH_P_IP6_ = 0x86dd };
enum { TCP_ESTABLISHED_ = 1, TCP_SYN_SENT_ = 2, TCP_MAX_STATES_ = 13 };

static const char *const k_tcp_states[] = {
	"TCP_UNKNOWN",   "TCP_ESTABLISHED", "TCP_SYN_SENT", "TCP_SYN_RECV", "TCP_FIN_WAIT1",
	"TCP_FIN_WAIT2", "TCP_TIME_WAIT",   "TCP_CLOSE",    "TCP_CLOSE_WAIT", "TCP_LAST_ACK",
	"TCP_LISTEN",    "TCP_CLOSING",     "TCP_NEW_SYN_RECV",
};

int tt_proto_on_net_event(pctx *c, pseq *ps, int64_t ts, uint32_t cpu, const Perfetto__Protos__FtraceEvent *e)
{
	char name[96];
	uint32_t t, args;

	switch (e->event_case) {
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_NETIF_RECEIVE_SKB:
		tt_proto_push_ft(c, ps, ts, FT_NET_RX, cpu, e->netif_receive_skb->len,
				 intern_c(c, e->netif_receive_skb->name ? e->netif_receive_skb->name : ""), 0, TT_NONE);
		return 1;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_NET_DEV_XMIT:
		if (e->net_dev_xmit->rc == 0) /* (the driver took it) */
			tt_proto_push_ft(c, ps, ts, FT_NET_TX, cpu, e->net_dev_xmit->len,
					 intern_c(c, e->net_dev_xmit->name ? e->net_dev_xmit->name : ""), 0, TT_NONE);
		return 1;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_KFREE_SKB:
		if (e->kfree_skb->protocol == ETH_P_IP_ || e->kfree_skb->protocol == ETH_P_IP6_)
			tt_proto_push_ft(c, ps, ts, FT_NET_KFREE, 0, e->kfree_skb->protocol, 0, 0, TT_NONE);
		return 1;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_INET_SOCK_SET_STATE: {
		const Perfetto__Protos__InetSockSetStateFtraceEvent *s = e->inet_sock_set_state;

		if (s->protocol != IPPROTO_TCP_ || (s->family != AF_NET && s->family != AF_NET6) ||
		    s->newstate < 0 || s->newstate >= TCP_MAX_STATES_ || s->oldstate < 0 ||
		    s->oldstate >= TCP_MAX_STATES_)
			return 1;
		if (s->newstate == TCP_SYN_SENT_)
			snprintf(name, sizeof(name), "%s(pid=%u)", k_tcp_states[s->newstate], (uint32_t)e->pid);
		else if (s->newstate == TCP_ESTABLISHED_)
			snprintf(name, sizeof(name), "%s(sport=%u,dport=%u)", k_tcp_states[s->newstate], s->sport,
				 s->dport);
		else
			snprintf(name, sizeof(name), "%s", k_tcp_states[s->newstate]);
		tt_proto_push_ft(c, ps, ts, FT_TCP_STATE, s->skaddr, 0, intern_c(c, name), 0, TT_NONE);
		return 1;
	}
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_TCP_RETRANSMIT_SKB:
		t = tt_proto_global_track(c, "net_tcp_retransmit_skb", "TCP Retransmit Skb", 0);
		snprintf(name, sizeof(name), "sport=%u,dport=%u", e->tcp_retransmit_skb->sport,
			 e->tcp_retransmit_skb->dport);
		tt_proto_push_rec(c, ps, ts, R_COMPLETE, 0, t, intern_c(c, name), intern_c(c, "tcp_event"), TT_NONE, 0,
				  0);
		return 1;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_NAPI_GRO_RECEIVE_ENTRY:
		t = tt_proto_cpu_slice_track(c, "cpu_napi_gro", "Napi Gro Cpu %u", cpu);
		tt_storage_args_begin(c->st);
		tt_storage_args_int(c->st, "len", e->napi_gro_receive_entry->len);
		args = tt_args_tracker_end(c->im->args);
		tt_proto_push_rec(c, ps, ts, R_BEGIN, 0, t,
				  intern_c(c, e->napi_gro_receive_entry->name ? e->napi_gro_receive_entry->name : ""),
				  intern_c(c, "napi_gro"), args, 0, 0);
		return 1;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_NAPI_GRO_RECEIVE_EXIT:
		t = tt_proto_cpu_slice_track(c, "cpu_napi_gro", "Napi Gro Cpu %u", cpu);
		tt_storage_args_begin(c->st);
		tt_storage_args_int(c->st, "ret", e->napi_gro_receive_exit->ret);
		args = tt_args_tracker_end(c->im->args);
		tt_proto_push_rec(c, ps, ts, R_END, F_QUIET, t, 0, intern_c(c, "napi_gro"), args, 0, 0);
		return 1;
	default:
		return 0;
	}
}

/* A counter value with {cpu, len} or {protocol} as its args. */
static void counter_with_args(pctx *c, uint32_t t, int64_t ts, double v, uint32_t args)
{
	int64_t id;

	if (t == TT_NONE)
		return;
	id = tt_storage_counter(c->st, t, ts, v);
	if (id >= 0 && args != TT_NONE)
		tt_storage_counter_set_args(c->st, id, args);
}

int tt_proto_feed_net(pctx *c, const prec *r)
{
	switch (r->scope) {
	case FT_NET_RX:
	case FT_NET_TX: {
		int rx = r->scope == FT_NET_RX;
		uint64_t key = (uint64_t)r->name << 1 | (uint64_t)rx, *sum = tt_pmap_find(&c->net_bytes, key);
		uint64_t total = (sum ? *sum : 0) + (uint64_t)r->u.i;
		const char *dev = tt_storage_str(c->st, r->name);
		uint32_t args;

		if (tt_pmap_put(&c->net_bytes, key, total)) {
			c->oom = 1;
			return 1;
		}
		tt_storage_args_begin(c->st);
		tt_storage_args_uint(c->st, "cpu", r->id);
		tt_storage_args_uint(c->st, "len", (uint64_t)r->u.i);
		args = tt_args_tracker_end(c->im->args);
		counter_with_args(c,
				  tt_import_device_counter_track(c->im, rx ? "net_receive" : "net_transmit",
								 "network_interface", dev ? dev : "",
								 dev ? strlen(dev) : 0,
								 rx ? " Received KB" : " Transmitted KB"),
				  r->ts, (double)(total / 1024), args);
		return 1;
	}
	case FT_NET_KFREE: {
		const char *prot = r->u.i == ETH_P_IP_ ? "IP" : "IPV6";
		uint32_t args;

		c->kfree_skbs++;
		tt_storage_args_begin(c->st);
		tt_storage_args_str(c->st, "protocol", prot, strlen(prot));
		args = tt_args_tracker_end(c->im->args);
		counter_with_args(c, tt_proto_global_track(c, "net_kfree_skb", "Kfree Skb IP Prot", 1), r->ts,
				  (double)c->kfree_skbs, args);
		return 1;
	}
	case FT_TCP_STATE: {
		uint64_t *at = tt_pmap_find(&c->tcp_streams, r->id), stream;
		tt_track_desc d = { .type = "net_socket_set_state", .utid = TT_NONE, .upid = TT_NONE,
				    .parent_id = TT_NONE, .cpu = -1 };
		char name[48];
		uint32_t t;

		if (!at && tt_pmap_put(&c->tcp_streams, r->id, ++c->ntcp_streams)) {
			c->oom = 1;
			return 1;
		}
		stream = at ? *at : c->ntcp_streams;
		snprintf(name, sizeof(name), "TCP stream#%u", (uint32_t)stream);
		d.name = intern_c(c, name);
		t = tt_track_tracker_keyed(c->im->tracks, "net_socket_set_state", stream, 0, 0, &d);
		if (tt_proto_dims_begin(c, t)) {
			tt_storage_args_uint(c->st, "tcp_stream_idx", stream);
			tt_proto_dims_end(c, t);
		}
		if (t == TT_NONE)
			return 1;
		/* the socket's last state ends where its next begins */
		tt_slice_tracker_end_quiet(c->im->slices, t, r->ts, 0, 0, TT_NONE);
		tt_slice_tracker_begin(c->im->slices, t, r->ts, intern_c(c, "tcp_state"), r->name, TT_NONE);
		return 1;
	}
	default:
		return 0;
	}
}
