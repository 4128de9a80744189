/*
 * proto_sched.c - the Perfetto importer's scheduler events (sched_switch,
 * full and compact; sched_waking; task_newtask; sched_blocked_reason) to
 * the import's sched tracker (core/import/sched_tracker.c, which decides
 * the sched_slice and thread_state rows as trace processor's trackers
 * do): here the threads are found and named through this importer's
 * ftrace process tracking, and the ftrace_event rows of the switches and
 * compact wakings are written. SystemInfo's kernel version decodes
 * prev_state (4.4 without one, as trace processor assumes).
 */
#include "proto_int.h"
#include "task_state.h"

tt_sched_tracker *tt_proto_sched(pctx *c)
{
	if (!c->sst && !(c->sst = tt_sched_tracker_new(c->im)))
		c->oom = 1;
	return c->sst;
}

/* SystemInfo (read as the packet comes, before any switch is fed): the
 * kernel version of a Linux uname release "major.minor[.rest]" decodes
 * prev_state; uname goes to metadata as trace processor keeps it. */
void tt_proto_on_system_info(pctx *c, const Perfetto__Protos__SystemInfo *si)
{
	tt_sched_tracker *s = tt_proto_sched(c);
	const Perfetto__Protos__Utsname *u = si->utsname;
	int major, minor;

	c->page_size = si->page_size; /* (SysStats' pages; 0: 4096) */
	if (!s || !u)
		return;
	if (u->sysname)
		tt_storage_meta_str(c->st, "system_name", u->sysname);
	if (u->version)
		tt_storage_meta_str(c->st, "system_version", u->version);
	if (u->release)
		tt_storage_meta_str(c->st, "system_release", u->release);
	if (u->machine)
		tt_storage_meta_str(c->st, "system_machine", u->machine);
	tt_sched_tracker_kernel(s, 0, 0);
	c->kernel_version = 0;
	if (tt_task_state_kernel(u->sysname, u->release, &major, &minor))
		return;
	tt_sched_tracker_kernel(s, major, minor);
	if (major > 0)
		c->kernel_version = (int32_t)(major << 16 | minor);
}

void tt_proto_sched_blocked(pctx *c, int64_t pid, int64_t io_wait, tt_str function)
{
	tt_sched_tracker *s = tt_proto_sched(c);
	uint32_t utid = tt_proto_thread(c, pid);

	if (s)
		tt_sched_tracker_blocked(s, utid, io_wait, function);
}

void tt_proto_sched_switch(pctx *c, sched_rec *r, int full, int64_t prev_pid, tt_str prev_comm)
{
	tt_sched_tracker *s = tt_proto_sched(c);
	uint32_t prev = TT_NONE, next;
	int64_t last_pid;
	int32_t last_prio;

	if (!s)
		return;
	next = tt_proto_thread(c, r->next_pid);
	r->next_utid = next;
	tt_process_tracker_thread_name(c->im->procs, next, r->next_comm, TT_TN_FTRACE);
	if (full) {
		/* (named again: a thread may rename itself while it runs) */
		prev = tt_proto_thread(c, prev_pid);
		tt_process_tracker_thread_name(c->im->procs, prev, prev_comm, TT_TN_FTRACE);
		tt_proto_raw_switch(c, r, prev, prev_pid, r->prev_prio, prev_comm);
	} else if (tt_sched_tracker_running(s, r->cpu, &prev, &last_pid, &last_prio) == 0) {
		/* (prev's comm: its name now, a rename while it ran included) */
		tt_proto_raw_switch(c, r, prev, last_pid, last_prio, tt_storage_thread_name(c->st, prev));
	}
	if (tt_sched_tracker_switch(s, r->ts, r->cpu, full, prev_pid, prev, r->prev_state, r->next_pid, next,
				    r->next_prio) < 0)
		c->oom = 1;
}

void tt_proto_sched_new_task(pctx *c, int64_t ts, uint32_t utid, uint32_t parent)
{
	tt_sched_tracker *s = tt_proto_sched(c);

	if (s)
		tt_sched_tracker_new_task(s, ts, utid, parent);
}

/* trace processor's CommonFlagsToIrqContext: TRACE_FLAG_HARDIRQ (0x08)
 * or TRACE_FLAG_SOFTIRQ (0x10) set. */
static int irq_context(uint32_t common_flags)
{
	return (common_flags & (0x08 | 0x10)) != 0;
}

void tt_proto_sched_waking(pctx *c, const prec *r, int compact, int64_t waker, int64_t wakee)
{
	tt_sched_tracker *s = tt_proto_sched(c);
	uint32_t utid, waker_utid;
	int irq = -1;

	if (!s)
		return;
	if (compact) {
		/* the waker is whoever the cpu runs: unknown before its
		 * first switch */
		const char *comm = tt_storage_str(c->st, r->name);
		int64_t run_pid;
		int32_t run_prio;

		if (tt_sched_tracker_running(s, (uint32_t)waker, &waker_utid, &run_pid, &run_prio)) {
			stat(c, TT_STAT_compact_sched_waking_skipped);
			return;
		}
		/* its ftrace_event row: written by the running thread */
		tt_storage_args_begin(c->st);
		tt_storage_args_str(c->st, "comm", comm ? comm : "", comm ? strlen(comm) : 0);
		tt_storage_args_int(c->st, "pid", wakee);
		tt_storage_args_int(c->st, "prio", (int32_t)(uint32_t)((uint64_t)r->u.i >> 32));
		tt_storage_args_int(c->st, "target_cpu", (int32_t)(uint32_t)r->u.i);
		/* (its common_flags too: trace processor keeps them on this
		 * row only) */
		tt_storage_raw_set_common_flags(c->st,
						tt_storage_raw(c->st, r->ts, intern_c(c, "sched_waking"), waker,
							       waker_utid, tt_args_tracker_end(c->im->args)),
						(uint16_t)r->args);
		utid = tt_proto_thread(c, wakee);
		irq = irq_context(r->args); /* (args: its common_flags) */
	} else {
		/* the waker first (the event's raw table row), then the wakee */
		waker_utid = tt_proto_thread(c, waker);
		utid = tt_proto_thread(c, wakee);
		tt_process_tracker_thread_name(c->im->procs, utid, r->name, TT_TN_FTRACE);
	}
	tt_sched_tracker_waking(s, r->ts, utid, waker_utid, irq);
	if (tt_sched_tracker_oom(s))
		c->oom = 1;
}

void tt_proto_build_sched(pctx *c)
{
	if (c->sst)
		tt_sched_tracker_build(c->sst);
}

void tt_proto_sched_free(pctx *c)
{
	tt_sched_tracker_free(c->sst);
	c->sst = NULL;
}
