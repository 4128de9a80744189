/*
 * proto_kernel.c - the kernel's ftrace events beyond scheduling and the
 * process tracker (proto_ftrace.c): interrupts, workqueues, the kernel's
 * counters, process memory and oom scores, oom kills and signals,
 * suspend and resume, binder, as trace processor's FtraceParser reads them. The
 * events that depend on which thread a tid is go through the sorter as
 * R_FTRACE records (FT_* in proto_int.h) and act when fed, in trace
 * order. See import_proto.c for the importer as a whole.
 */
#include "proto_int.h"

#include <stdio.h>

/* ---- interrupts and workqueues -------------------------------------------- */

/* A cpu's slice track of trace processor's blueprint type ("cpu_irq":
 * "Irq Cpu N", "cpu_softirq": "SoftIrq Cpu N"), dimension cpu. Asked for
 * at every irq and softirq: found again by the call site's own strings
 * (c->kernel_tracks), without formatting and interning its name. */
uint32_t tt_proto_cpu_slice_track(pctx *c, const char *type, const char *fmt, uint32_t cpu)
{
	char name[64];
	tt_track_desc d = { .type = type, .utid = TT_NONE, .upid = TT_NONE, .parent_id = TT_NONE, .cpu = cpu };
	uint32_t t = tt_keymap_get(&c->kernel_tracks, (uintptr_t)type, (uintptr_t)fmt, cpu, 0);

	if (t != TT_KEYMAP_NONE)
		return t;
	snprintf(name, sizeof(name), fmt, cpu);
	d.name = intern_c(c, name);
	t = tt_track_tracker_keyed(c->im->tracks, type, cpu, 0, d.name, &d);
	if (tt_proto_dims_begin(c, t)) {
		tt_storage_args_uint(c->st, "cpu", cpu);
		tt_proto_dims_end(c, t);
	}
	if (t != TT_NONE && tt_keymap_put(&c->kernel_tracks, (uintptr_t)type, (uintptr_t)fmt, cpu, 0, t))
		c->oom = 1;
	return t;
}

/* A global track (no dimension) of blueprint type named name, a counter
 * track when counter; found again as above. */
uint32_t tt_proto_global_track(pctx *c, const char *type, const char *name, int counter)
{
	tt_track_desc d = { .type = type, .utid = TT_NONE, .upid = TT_NONE, .parent_id = TT_NONE, .cpu = -1,
			    .is_counter = counter };
	uint32_t t = tt_keymap_get(&c->kernel_tracks, (uintptr_t)type, (uintptr_t)name, UINT64_MAX, 0);

	if (t != TT_KEYMAP_NONE)
		return t;
	d.name = intern_c(c, name);
	t = tt_track_tracker_keyed(c->im->tracks, type, 0, 0, d.name, &d);
	if (t != TT_NONE && tt_keymap_put(&c->kernel_tracks, (uintptr_t)type, (uintptr_t)name, UINT64_MAX, 0, t))
		c->oom = 1;
	return t;
}

/* Softirq vectors by number, as the kernel (and trace processor) name
 * them. */
static const char *const softirq_names[] = { "HI", "TIMER", "NET_TX", "NET_RX", "BLOCK",
					     "BLOCK_IOPOLL", "TASKLET", "SCHED", "HRTIMER", "RCU" };

/* One arg set {key: a string} or {key: an integer}. */
static uint32_t one_arg(pctx *c, const char *key, const char *s, int64_t i)
{
	tt_storage_args_begin(c->st);
	if (s)
		tt_storage_args_str(c->st, key, s, strlen(s));
	else
		tt_storage_args_int(c->st, key, i);
	return tt_args_tracker_end(c->im->args);
}

/* irq_handler_entry / _exit, local_timer_entry / _exit, softirq_entry /
 * _exit as trace processor's FtraceParser: slices of category "irq" on
 * the cpu's irq and softirq tracks; an exit ends the innermost open one
 * and adds its ret ("handled" for 1, else "unhandled") or vec. A softirq
 * vector past RCU is not read (as there). */
static void on_irq(pctx *c, pseq *ps, int64_t ts, uint32_t cpu, const Perfetto__Protos__FtraceEvent *e)
{
	tt_str irq = intern_c(c, "irq");
	char name[300];
	uint32_t t;

	switch (e->event_case) {
case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_IRQ_HANDLER_ENTRY:
	t = tt_proto_cpu_slice_track(c, "cpu_irq", "Irq Cpu %u", cpu);
	snprintf(name, sizeof(name), "IRQ (%.254s)", e->irq_handler_entry->name ? e->irq_handler_entry->name : "");
	tt_proto_push_rec(c, ps, ts, R_BEGIN, 0, t, intern_c(c, name), irq, TT_NONE, 0, 0);
	break;
case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_IRQ_HANDLER_EXIT:
	t = tt_proto_cpu_slice_track(c, "cpu_irq", "Irq Cpu %u", cpu);
	tt_proto_push_rec(c, ps, ts, R_END, F_QUIET, t, 0, irq,
			  one_arg(c, "ret", e->irq_handler_exit->ret == 1 ? "handled" : "unhandled", 0), 0, 0);
	break;
case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_LOCAL_TIMER_ENTRY:
	t = tt_proto_cpu_slice_track(c, "cpu_irq", "Irq Cpu %u", cpu);
	tt_proto_push_rec(c, ps, ts, R_BEGIN, 0, t, intern_c(c, "IRQ (LocalTimer)"), irq, TT_NONE, 0, 0);
	break;
case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_LOCAL_TIMER_EXIT:
	t = tt_proto_cpu_slice_track(c, "cpu_irq", "Irq Cpu %u", cpu);
	tt_proto_push_rec(c, ps, ts, R_END, F_QUIET, t, 0, irq, TT_NONE, 0, 0);
	break;
case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SOFTIRQ_ENTRY:
	if (e->softirq_entry->vec >= sizeof(softirq_names) / sizeof(softirq_names[0]))
		break;
	t = tt_proto_cpu_slice_track(c, "cpu_softirq", "SoftIrq Cpu %u", cpu);
	tt_proto_push_rec(c, ps, ts, R_BEGIN, 0, t, intern_c(c, softirq_names[e->softirq_entry->vec]), irq,
			  TT_NONE, 0, 0);
	break;
case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SOFTIRQ_EXIT:
	t = tt_proto_cpu_slice_track(c, "cpu_softirq", "SoftIrq Cpu %u", cpu);
	tt_proto_push_rec(c, ps, ts, R_END, F_QUIET, t, 0, irq, one_arg(c, "vec", NULL, e->softirq_exit->vec), 0, 0);
	break;
default:
	break;
}
}

/* A kernel function's name: its symbol interned on the sequence, else
 * its address as %#x (trace processor's InternedKernelSymbolOrFallback). */
static tt_str kernel_symbol(pctx *c, pseq *seq, uint64_t fn)
{
	tt_str name = 0;
	char hex[32];

	if (tt_proto_itab_find(&seq->ksyms, fn, &name) && name)
		return name;
	snprintf(hex, sizeof(hex), "%#llx", (unsigned long long)fn);
	return intern_c(c, hex);
}

/* cpuhp_enter / cpuhp_multi_enter / cpuhp_exit: "cpuhp(idx)" slices of
 * category cpu on "CPU Hotplug N" (cpu_hotplug) of the cpu hotplugged,
 * with the cpu doing it (action_cpu) and the step (cpuhp_idx); an exit
 * ends the track's innermost. hrtimer_expire_entry / _exit: slices of
 * category hrtimer named by the timer's function on "Hrtimer Cpu N"
 * (cpu_hrtimer). */
static void on_cpuhp_hrtimer(pctx *c, pseq *seq, pseq *ps, int64_t ts, uint32_t cpu,
			     const Perfetto__Protos__FtraceEvent *e)
{
	char name[32];
	uint32_t t, hp;
	int32_t idx;

	switch (e->event_case) {
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPUHP_ENTER:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPUHP_MULTI_ENTER:
		if (e->event_case == PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPUHP_ENTER) {
			hp = e->cpuhp_enter->cpu;
			idx = e->cpuhp_enter->idx;
		} else {
			hp = e->cpuhp_multi_enter->cpu;
			idx = e->cpuhp_multi_enter->idx;
		}
		t = tt_proto_cpu_slice_track(c, "cpu_hotplug", "CPU Hotplug %u", hp);
		snprintf(name, sizeof(name), "cpuhp(%d)", idx);
		tt_storage_args_begin(c->st);
		tt_storage_args_uint(c->st, "action_cpu", cpu);
		tt_storage_args_int(c->st, "cpuhp_idx", idx);
		tt_proto_push_rec(c, ps, ts, R_BEGIN, 0, t, intern_c(c, name), intern_c(c, "cpu"),
				  tt_args_tracker_end(c->im->args), 0, 0);
		break;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPUHP_EXIT:
		t = tt_proto_cpu_slice_track(c, "cpu_hotplug", "CPU Hotplug %u", e->cpuhp_exit->cpu);
		tt_proto_push_rec(c, ps, ts, R_END, F_QUIET, t, 0, 0, TT_NONE, 0, 0);
		break;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_HRTIMER_EXPIRE_ENTRY:
		t = tt_proto_cpu_slice_track(c, "cpu_hrtimer", "Hrtimer Cpu %u", cpu);
		tt_proto_push_rec(c, ps, ts, R_BEGIN, 0, t, kernel_symbol(c, seq, e->hrtimer_expire_entry->function),
				  intern_c(c, "hrtimer"), TT_NONE, 0, 0);
		break;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_HRTIMER_EXPIRE_EXIT:
		t = tt_proto_cpu_slice_track(c, "cpu_hrtimer", "Hrtimer Cpu %u", cpu);
		tt_proto_push_rec(c, ps, ts, R_END, F_QUIET, t, 0, intern_c(c, "hrtimer"), TT_NONE, 0, 0);
		break;
	default:
		break;
	}
}

/* wakeup_source_activate / _deactivate: a "Wakelock(name)" slice on the
 * name's track (wakesource_wakelock, dimension wakelock_event) from the
 * first activation to the deactivation that leaves none active; the
 * count is kept in trace order, so the events go through the sorter
 * (FT_WAKELOCK). Track and slice names are cut at 31 bytes, as trace
 * processor's StackString<32> cuts them. */
static void feed_wakelock(pctx *c, const prec *r)
{
	uint64_t *v = tt_pmap_find(&c->wakelocks, r->name);
	uint64_t count = v ? *v : 0;
	const char *ev = tt_storage_str(c->st, r->name);
	tt_track_desc d = { .type = "wakesource_wakelock", .utid = TT_NONE, .upid = TT_NONE, .parent_id = TT_NONE,
			    .cpu = -1 };
	char name[32];
	uint32_t t;

	if (tt_pmap_put(&c->wakelocks, r->name, r->u.i ? count + 1 : count ? count - 1 : 0)) {
		c->oom = 1;
		return;
	}
	if (r->u.i ? count > 0 : count != 1)
		return;
	snprintf(name, sizeof(name), "Wakelock(%s)", ev ? ev : "");
	d.name = intern_c(c, name);
	t = tt_track_tracker_keyed(c->im->tracks, "wakesource_wakelock", r->name, 0, d.name, &d);
	if (t == TT_NONE)
		return;
	if (tt_proto_dims_begin(c, t)) {
		tt_storage_args_str(c->st, "wakelock_event", ev, ev ? strlen(ev) : 0);
		tt_proto_dims_end(c, t);
	}
	if (r->u.i)
		tt_slice_tracker_begin(c->im->slices, t, r->ts, 0, d.name, TT_NONE);
	else
		tt_slice_tracker_end_quiet(c->im->slices, t, r->ts, 0, 0, TT_NONE);
}

/* workqueue_execute_start / _end: a "workqueue" slice on the writing
 * thread named by the function run (its kernel symbol interned on the
 * sequence, else its address as %#x), with the cpu as arg; the end ends
 * the thread's innermost open workqueue slice. */
static void on_workqueue(pctx *c, pseq *seq, pseq *ps, int64_t ts, uint32_t cpu, const Perfetto__Protos__FtraceEvent *e)
{
if (e->event_case == PERFETTO__PROTOS__FTRACE_EVENT__EVENT_WORKQUEUE_EXECUTE_START) {
	tt_str name = kernel_symbol(c, seq, e->workqueue_execute_start->function);
	tt_proto_push_ft(c, ps, ts, FT_WQ_START, (uint32_t)e->pid, 0, name, 0, one_arg(c, "cpu", NULL, cpu));
} else {
	tt_proto_push_ft(c, ps, ts, FT_WQ_END, (uint32_t)e->pid, 0, 0, 0, TT_NONE);
}
}

/* funcgraph_entry / _exit (the function graph tracer): a slice per call
 * named by the function (its interned symbol, else its address) on the
 * thread's "Funcgraph" track (thread_funcgraph), the exit ending the
 * innermost of that name; the idle task's (pid 0, one per cpu at once) on
 * "swapper<cpu> -funcgraph" (cpu_funcgraph), as trace processor has them. */
static void on_funcgraph(pctx *c, pseq *seq, pseq *ps, int64_t ts, uint32_t cpu, const Perfetto__Protos__FtraceEvent *e)
{
	int entry = e->event_case == PERFETTO__PROTOS__FTRACE_EVENT__EVENT_FUNCGRAPH_ENTRY;
	tt_str name = kernel_symbol(c, seq, entry ? e->funcgraph_entry->func : e->funcgraph_exit->func);
	uint32_t t;

	if (e->pid) {
		tt_proto_push_ft(c, ps, ts, FT_FUNCGRAPH, (uint32_t)e->pid, entry, name, 0, TT_NONE);
		return;
	}
	t = tt_proto_cpu_slice_track(c, "cpu_funcgraph", "swapper%u -funcgraph", cpu);
	if (entry)
		tt_proto_push_rec(c, ps, ts, R_BEGIN, 0, t, name, 0, TT_NONE, 0, 0);
	else
		tt_proto_push_rec(c, ps, ts, R_END, F_QUIET, t, name, 0, TT_NONE, 0, 0);
}

/* The thread's funcgraph track. */
static uint32_t funcgraph_track(pctx *c, uint32_t utid)
{
	tt_track_desc d = { .type = "thread_funcgraph", .utid = utid, .upid = TT_NONE, .parent_id = TT_NONE,
			    .cpu = -1 };
	uint32_t t;

	if (utid == TT_NONE)
		return TT_NONE;
	d.upid = tt_storage_thread_upid(c->st, utid);
	d.name = intern_c(c, "Funcgraph");
	t = tt_track_tracker_keyed(c->im->tracks, "thread_funcgraph", utid, 0, 0, &d);
	if (tt_proto_dims_begin(c, t)) {
		tt_storage_args_uint(c->st, "utid", utid);
		tt_proto_dims_end(c, t);
	}
	return t;
}

/* ---- the kernel's counters ------------------------------------------------ */

static void push_counter(pctx *c, pseq *ps, int64_t ts, uint32_t t, double v)
{
if (t != TT_NONE)
	tt_proto_push_rec(c, ps, ts, R_COUNTER, 0, t, 0, 0, TT_NONE, 0, v);
}

static uint32_t device_track(pctx *c, const char *type, const char *dim, const char *value, const char *suffix)
{
if (!value)
	value = "";
return tt_import_device_counter_track(c->im, type, dim, value, strlen(value), suffix);
}

/* cpu_frequency_limits (a cpu's max and min limit, both always), a cpu's
 * utilisation (sched_cpu_util_cfs: Util, Cap, Nr Running), clock
 * rates and states, thermal zones and cooling devices: counters on the
 * tracks trace processor's blueprints make, shared with systrace text
 * (atrace_tracker.h). */
static void on_kernel_counter(pctx *c, pseq *ps, int64_t ts, const Perfetto__Protos__FtraceEvent *e)
{
char n[64];

switch (e->event_case) {
case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPU_FREQUENCY_LIMITS: {
	const Perfetto__Protos__CpuFrequencyLimitsFtraceEvent *l = e->cpu_frequency_limits;

	snprintf(n, sizeof(n), "Cpu %u Max Freq Limit", l->cpu_id);
	push_counter(c, ps, ts, tt_import_cpu_counter_track(c->im, "cpu_max_frequency_limit", 2, n, l->cpu_id),
		     l->max_freq);
	snprintf(n, sizeof(n), "Cpu %u Min Freq Limit", l->cpu_id);
	push_counter(c, ps, ts, tt_import_cpu_counter_track(c->im, "cpu_min_frequency_limit", 3, n, l->cpu_id),
		     l->min_freq);
	break;
}
case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_CPU_UTIL_CFS: {
	/* the scheduler's view of a cpu: its utilisation, capacity and
	 * runnable threads (the other fields are only ftrace_event args) */
	const Perfetto__Protos__SchedCpuUtilCfsFtraceEvent *u = e->sched_cpu_util_cfs;

	snprintf(n, sizeof(n), "Cpu %u Util", u->cpu);
	push_counter(c, ps, ts, tt_import_cpu_counter_track(c->im, "cpu_utilization", 4, n, u->cpu),
		     (double)u->cpu_util);
	snprintf(n, sizeof(n), "Cpu %u Cap", u->cpu);
	push_counter(c, ps, ts, tt_import_cpu_counter_track(c->im, "cpu_capacity", 5, n, u->cpu),
		     (double)u->capacity);
	snprintf(n, sizeof(n), "Cpu %u Nr Running", u->cpu);
	push_counter(c, ps, ts, tt_import_cpu_counter_track(c->im, "cpu_nr_running", 6, n, u->cpu),
		     (double)u->nr_running);
	break;
}
case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CLOCK_SET_RATE:
	push_counter(c, ps, ts, device_track(c, "clock_frequency", "linux_device", e->clock_set_rate->name, " Frequency"),
		     (double)e->clock_set_rate->state);
	break;
case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CLOCK_ENABLE:
	push_counter(c, ps, ts, device_track(c, "clock_state", "linux_device", e->clock_enable->name, " State"),
		     (double)e->clock_enable->state);
	break;
case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CLOCK_DISABLE:
	push_counter(c, ps, ts, device_track(c, "clock_state", "linux_device", e->clock_disable->name, " State"),
		     (double)e->clock_disable->state);
	break;
case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_THERMAL_TEMPERATURE:
	push_counter(c, ps, ts,
		     device_track(c, "thermal_temperature", "thermal_zone", e->thermal_temperature->thermal_zone,
				  " Temperature"),
		     e->thermal_temperature->temp);
	break;
case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CDEV_UPDATE:
	push_counter(c, ps, ts,
		     device_track(c, "cooling_device_counter", "linux_device", e->cdev_update->type,
				  " Cooling Device"),
		     (double)e->cdev_update->target);
	break;
default:
	break;
}
}

/* ---- binder ------------------------------------------------------------------- */

/* The binder driver's events, as FT_BINDER_* records (proto_int.h): the
 * transactions act when fed, in trace order (binder_tracker.h). */
static void on_binder(pctx *c, pseq *ps, int64_t ts, const Perfetto__Protos__FtraceEvent *e)
{
	uint64_t tid = (uint64_t)(uint32_t)e->pid << 32;

	switch (e->event_case) {
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_BINDER_TRANSACTION: {
		const Perfetto__Protos__BinderTransactionFtraceEvent *t = e->binder_transaction;

		tt_proto_push_ft(c, ps, ts, t->reply == 1 ? FT_BINDER_REPLY : FT_BINDER_TXN, tid | (uint32_t)t->debug_id,
				 (int64_t)((uint64_t)(uint32_t)t->to_proc << 32 | (uint32_t)t->to_thread), t->code, t->flags,
				 (uint32_t)t->target_node);
		break;
	}
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_BINDER_TRANSACTION_RECEIVED:
		tt_proto_push_ft(c, ps, ts, FT_BINDER_RCV, tid | (uint32_t)e->binder_transaction_received->debug_id, 0, 0,
				 0, 0);
		break;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_BINDER_COMMAND:
		tt_proto_push_ft(c, ps, ts, FT_BINDER_CMD, tid >> 32, e->binder_command->cmd, 0, 0, 0);
		break;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_BINDER_RETURN:
		tt_proto_push_ft(c, ps, ts, FT_BINDER_RET, tid >> 32, e->binder_return->cmd, 0, 0, 0);
		break;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_BINDER_LOCK:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_BINDER_LOCKED:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_BINDER_UNLOCK:
		tt_proto_push_ft(c, ps, ts, FT_BINDER_LOCK, tid >> 32,
				 e->event_case == PERFETTO__PROTOS__FTRACE_EVENT__EVENT_BINDER_LOCK     ? 0
				 : e->event_case == PERFETTO__PROTOS__FTRACE_EVENT__EVENT_BINDER_LOCKED ? 1
													: 2,
				 0, 0, 0);
		break;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_BINDER_TRANSACTION_ALLOC_BUF: {
		uint64_t off = e->binder_transaction_alloc_buf->offsets_size;

		tt_proto_push_ft(c, ps, ts, FT_BINDER_ALLOC, tid >> 32, (int64_t)e->binder_transaction_alloc_buf->data_size,
				 (tt_str)(uint32_t)off, (tt_str)(uint32_t)(off >> 32), 0);
		break;
	}
	default:
		break;
	}
}

static void feed_binder(pctx *c, const prec *r)
{
	int32_t tid = (int32_t)(uint32_t)(r->scope == FT_BINDER_TXN || r->scope == FT_BINDER_REPLY ||
						  r->scope == FT_BINDER_RCV ? r->id >> 32 : r->id);
	uint32_t utid;

	if (!c->binder && !(c->binder = tt_binder_tracker_new(c->im))) {
		c->oom = 1;
		return;
	}
	utid = tt_proto_thread(c, tid);
	switch (r->scope) {
	case FT_BINDER_TXN:
	case FT_BINDER_REPLY: {
		int32_t dest_tid = (int32_t)(uint32_t)r->u.i;
		char code[16];

		snprintf(code, sizeof(code), "0x%02x", r->name);
		tt_binder_transaction(c->binder, r->ts, utid, tid, (int32_t)(uint32_t)r->id, (int32_t)r->args,
				      (int32_t)(uint32_t)((uint64_t)r->u.i >> 32), dest_tid,
				      r->scope == FT_BINDER_REPLY ? tt_proto_thread(c, dest_tid) : TT_NONE,
				      r->scope == FT_BINDER_REPLY, r->cat, code);
		break;
	}
	case FT_BINDER_RCV:
		tt_binder_received(c->binder, r->ts, utid, tid, (int32_t)(uint32_t)r->id);
		break;
	case FT_BINDER_CMD:
		tt_binder_command(c->binder, utid, (uint32_t)r->u.i);
		break;
	case FT_BINDER_RET:
		tt_binder_return(c->binder, r->ts, utid, (uint32_t)r->u.i);
		break;
	case FT_BINDER_LOCK:
		tt_binder_lock(c->binder, r->ts, utid, tid, (int)r->u.i);
		break;
	case FT_BINDER_ALLOC:
		tt_binder_alloc_buf(c->binder, utid, (uint64_t)r->u.i, (uint64_t)r->cat << 32 | r->name);
		break;
	}
}

/* ---- events by kind ------------------------------------------------------- */

int tt_proto_on_kernel_event(pctx *c, pseq *seq, pseq *ps, int64_t ts, uint32_t cpu,
			     const Perfetto__Protos__FtraceEvent *e)
{
	switch (e->event_case) {
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPU_FREQUENCY:
		push_counter(c, ps, ts,
			     tt_import_cpu_counter_track(c->im, "cpu_frequency", 0, "cpufreq", e->cpu_frequency->cpu_id),
			     (double)e->cpu_frequency->state);
		break;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_GPU_FREQUENCY:
		push_counter(c, ps, ts, tt_import_gpu_freq_track(c->im, e->gpu_frequency->gpu_id),
			     (double)e->gpu_frequency->state);
		break;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_KGSL_GPU_FREQUENCY:
		/* (Adreno's kgsl writes the frequency / 1000) */
		push_counter(c, ps, ts, tt_import_gpu_freq_track(c->im, e->kgsl_gpu_frequency->gpu_id),
			     (double)e->kgsl_gpu_frequency->gpu_freq * 1000.0);
		break;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPU_IDLE:
		push_counter(c, ps, ts, tt_import_cpu_counter_track(c->im, "cpu_idle", 1, "cpuidle", e->cpu_idle->cpu_id),
			     (double)e->cpu_idle->state);
		break;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_IRQ_HANDLER_ENTRY:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_IRQ_HANDLER_EXIT:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_LOCAL_TIMER_ENTRY:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_LOCAL_TIMER_EXIT:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SOFTIRQ_ENTRY:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SOFTIRQ_EXIT:
		on_irq(c, ps, ts, cpu, e);
		break;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_WORKQUEUE_EXECUTE_START:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_WORKQUEUE_EXECUTE_END:
		on_workqueue(c, seq, ps, ts, cpu, e);
		break;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPUHP_ENTER:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPUHP_MULTI_ENTER:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPUHP_EXIT:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_HRTIMER_EXPIRE_ENTRY:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_HRTIMER_EXPIRE_EXIT:
		on_cpuhp_hrtimer(c, seq, ps, ts, cpu, e);
		break;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_FUNCGRAPH_ENTRY:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_FUNCGRAPH_EXIT:
		on_funcgraph(c, seq, ps, ts, cpu, e);
		break;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_WAKEUP_SOURCE_ACTIVATE:
		tt_proto_push_ft(c, ps, ts, FT_WAKELOCK, 0, 1,
				 intern_c(c, e->wakeup_source_activate->name ? e->wakeup_source_activate->name : ""), 0,
				 TT_NONE);
		break;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_WAKEUP_SOURCE_DEACTIVATE:
		tt_proto_push_ft(c, ps, ts, FT_WAKELOCK, 0, 0,
				 intern_c(c, e->wakeup_source_deactivate->name ? e->wakeup_source_deactivate->name : ""),
				 0, TT_NONE);
		break;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_RSS_STAT: {
		const Perfetto__Protos__RssStatFtraceEvent *rs = e->rss_stat;

		tt_proto_push_ft(c, ps, ts, FT_RSS, (uint64_t)rs->mm_id << 32 | (uint32_t)e->pid, rs->size,
				 (tt_str)(uint32_t)rs->member, 0,
				 (rs->has_curr ? RSS_HAS_CURR : 0) | (rs->curr ? RSS_CURR : 0) |
					 (rs->has_mm_id ? RSS_HAS_MM : 0));
		break;
	}
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_RSS_STAT_THROTTLED: {
		const Perfetto__Protos__RssStatThrottledFtraceEvent *rs = e->rss_stat_throttled;

		/* (curr and mm_id always read, as there) */
		tt_proto_push_ft(c, ps, ts, FT_RSS, (uint64_t)rs->mm_id << 32 | (uint32_t)e->pid, rs->size,
				 (tt_str)(uint32_t)rs->member, 0, RSS_HAS_CURR | RSS_HAS_MM | (rs->curr ? RSS_CURR : 0));
		break;
	}
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SUSPEND_RESUME: {
		const Perfetto__Protos__SuspendResumeFtraceEvent *sr = e->suspend_resume;
		const char *action = sr->action ? sr->action : "";
		char name[64];

		/* (timekeeping_freeze's val is the cpu it ran on: 0) */
		snprintf(name, sizeof(name), "%s(%d)", action,
			 strcmp(action, "timekeeping_freeze") ? sr->val : 0);
		tt_proto_push_ft(c, ps, ts, FT_SUSPEND, (uint64_t)cpu << 32 | (uint32_t)e->pid, sr->start != 0,
				 intern_c(c, name), intern_c(c, action), 0);
		break;
	}
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_BINDER_TRANSACTION:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_BINDER_TRANSACTION_RECEIVED:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_BINDER_COMMAND:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_BINDER_RETURN:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_BINDER_LOCK:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_BINDER_LOCKED:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_BINDER_UNLOCK:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_BINDER_TRANSACTION_ALLOC_BUF:
		on_binder(c, ps, ts, e);
		break;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_ION_HEAP_GROW:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_ION_HEAP_SHRINK:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_ION_STAT:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_DMA_HEAP_STAT:
		tt_proto_on_heap_event(c, ps, ts, e);
		break;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CMA_ALLOC_START:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CMA_ALLOC_INFO:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CMA_ALLOC_FINISH:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_MM_ALLOC_CONTIG_MIGRATE_RANGE_INFO:
		tt_proto_on_cma_event(c, ps, ts, e);
		break;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_ANDROID_FS_DATAREAD_START:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_ANDROID_FS_DATAREAD_END:
		tt_proto_on_fs_event(c, ps, ts, e);
		break;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_OOM_SCORE_ADJ_UPDATE:
		/* (16 bits: older tracers wrote negative values wrongly) */
		tt_proto_push_ft(c, ps, ts, FT_OOM_SCORE, (uint32_t)e->oom_score_adj_update->pid,
				 (int16_t)e->oom_score_adj_update->oom_score_adj, 0, 0, 0);
		break;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_MARK_VICTIM:
		tt_proto_push_ft(c, ps, ts, FT_MARK, (uint32_t)e->mark_victim->pid, 0, intern_c(c, "mem.oom_kill"), 0,
				 0);
		break;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SIGNAL_GENERATE:
		/* on the thread signalled */
		tt_proto_push_ft(c, ps, ts, FT_SIG_MARK, (uint32_t)e->signal_generate->pid, e->signal_generate->sig,
				 intern_c(c, "signal_generate"), 0, 0);
		break;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SIGNAL_DELIVER:
		/* on the thread it is delivered to: the writer */
		tt_proto_push_ft(c, ps, ts, FT_SIG_MARK, (uint32_t)e->pid, e->signal_deliver->sig,
				 intern_c(c, "signal_deliver"), 0, 0);
		break;
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CPU_FREQUENCY_LIMITS:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CLOCK_SET_RATE:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CLOCK_ENABLE:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CLOCK_DISABLE:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_THERMAL_TEMPERATURE:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_CDEV_UPDATE:
	case PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_CPU_UTIL_CFS:
		on_kernel_counter(c, ps, ts, e);
		break;
	default:
		return tt_proto_on_net_event(c, ps, ts, cpu, e) || tt_proto_on_io_event(c, ps, ts, e) ||
		       tt_proto_on_drm_event(c, ps, ts, e) || tt_proto_on_v4l2_event(c, ps, ts, e) ||
		       tt_proto_on_virtio_event(c, ps, ts, e);
	}
	return 1;
}

/* ---- in trace order ---------------------------------------------------------- */

/* The thread an rss_stat is about, as trace processor's RssStatTracker
 * decides it: with its mm_id and curr known, a curr event is the writing
 * thread's own memory (and binds the mm_id to it), another one the memory
 * of the thread last seen with that mm_id while that thread lives;
 * without them, the writing thread. TT_NONE: none. */
static uint32_t rss_thread(pctx *c, const prec *r)
{
	int32_t pid = (int32_t)(uint32_t)r->id;
	uint64_t mm = r->id >> 32, *at, *live;
	uint32_t utid;

	if (!(r->args & RSS_HAS_MM) || !(r->args & RSS_HAS_CURR))
		return tt_proto_thread(c, pid);
	if (r->args & RSS_CURR) {
		utid = tt_proto_thread(c, pid);
		if (tt_pmap_put(&c->mm_threads, mm, (uint64_t)utid + 1))
			c->oom = 1;
		return utid;
	}
	at = tt_pmap_find(&c->mm_threads, mm);
	if (!at || !*at) /* (0: forgotten) */
		return TT_NONE;
	utid = (uint32_t)(*at - 1);
	/* alive: still its tid's live thread (not freed, not replaced) */
	live = tt_pmap_find(&c->ftrace_threads, (uint64_t)tt_storage_thread_tid(c->st, utid));
	if (live && *live != (uint64_t)utid + 1) {
		*at = 0;
		return TT_NONE;
	}
	return utid;
}

static void feed_rss(pctx *c, const prec *r)
{
	uint32_t utid;

	if (r->u.i < 0) { /* (before any thread is made, as there) */
		tt_storage_stat_add(c->st, TT_STAT_rss_stat_negative_size, 1);
		return;
	}
	utid = rss_thread(c, r);
	if (utid == TT_NONE)
		stat(c, TT_STAT_rss_stat_unknown_thread_for_mm_id);
	else if (tt_memory_tracker_rss(c->memory, r->ts, utid, (int32_t)r->name, r->u.i))
		c->oom = 1;
}

uint32_t tt_proto_lane_track(pctx *c, const char *type, const char *name, uint64_t cookie, enum tt_async_kind kind)
{
	tt_track_desc d = { .type = type, .name = intern_c(c, name), .utid = TT_NONE, .upid = TT_NONE,
			    .parent_id = TT_NONE, .cpu = -1 };
	tt_async_args a = { .ndim = 0 };

	return tt_async_track_set(c->im->async, tt_fnv1a64(TT_FNV1A64_SEED, type, strlen(type)), 0, 0, cookie, &d, &a,
				  kind);
}

/* The lane of the "Suspend/Resume Latency" tracks (suspend_resume) that
 * slice name's cookie has. */
static uint32_t suspend_track(pctx *c, tt_str cookie, enum tt_async_kind kind)
{
	return tt_proto_lane_track(c, "suspend_resume", "Suspend/Resume Latency", cookie, kind);
}

/* suspend_resume as trace processor's FtraceParser: a start begins a
 * slice "action(val)" on its lane with the writer, the event type, the
 * cpu and (null: this is no device callback) device, driver and phase; an
 * end ends the lane's slice. A suspend_enter whose suspend_prepare
 * failed never ends: a thaw_processes ending inside freeze_processes
 * inside it ends it too, as there. */
static void feed_suspend(pctx *c, const prec *r)
{
	const char *action = tt_storage_str(c->st, r->cat);
	int enter = action && !strcmp(action, "suspend_enter");
	uint32_t t, args;

	if (!r->u.i) {
		t = suspend_track(c, r->name, TT_ASYNC_END);
		if (t != TT_NONE)
			tt_slice_tracker_end_quiet(c->im->slices, t, r->ts, 0, 0, TT_NONE);
		if (enter) {
			c->suspend_state = 0;
		} else if (action && !strcmp(action, "thaw_processes") && c->suspend_state == 2) {
			t = suspend_track(c, c->suspend_enter, TT_ASYNC_END);
			if (t != TT_NONE)
				tt_slice_tracker_end_quiet(c->im->slices, t, r->ts, 0, 0, TT_NONE);
			c->suspend_state = 0;
		}
		return;
	}
	if (enter) {
		c->suspend_state = 1;
		c->suspend_enter = r->name;
	} else if (action && !strcmp(action, "freeze_processes") && c->suspend_state == 1) {
		c->suspend_state = 2;
	}
	t = suspend_track(c, r->name, TT_ASYNC_BEGIN);
	if (t == TT_NONE)
		return;
	tt_storage_args_begin(c->st);
	tt_storage_args_uint(c->st, "utid", tt_proto_thread(c, (int32_t)(uint32_t)r->id));
	tt_storage_args_str(c->st, "event_type", "Main Kernel Suspend Event", 25);
	tt_storage_args_uint(c->st, "cpu", r->id >> 32);
	tt_storage_args_str(c->st, "device_name", NULL, 0);
	tt_storage_args_str(c->st, "driver_name", NULL, 0);
	tt_storage_args_str(c->st, "callback_phase", NULL, 0);
	args = tt_args_tracker_end(c->im->args);
	tt_slice_tracker_begin(c->im->slices, t, r->ts, 0, r->name, args);
}

int tt_proto_feed_kernel(pctx *c, const prec *r)
{
	int32_t pid = (int32_t)(uint32_t)r->id;

	switch (r->scope) {
	case FT_RSS:
		feed_rss(c, r);
		return 1;
	case FT_SUSPEND:
		feed_suspend(c, r);
		return 1;
	case FT_BINDER_TXN:
	case FT_BINDER_REPLY:
	case FT_BINDER_RCV:
	case FT_BINDER_CMD:
	case FT_BINDER_RET:
	case FT_BINDER_LOCK:
	case FT_BINDER_ALLOC:
		feed_binder(c, r);
		return 1;
	case FT_HEAP_CHANGE:
	case FT_HEAP_BUF:
		tt_proto_feed_heap(c, r);
		return 1;
	case FT_WAKELOCK:
		feed_wakelock(c, r);
		return 1;
	case FT_CMA:
		tt_proto_feed_cma(c, r);
		return 1;
	case FT_FS_READ:
	case FT_FS_READ_END:
		tt_proto_feed_fs(c, r);
		return 1;
	case FT_OOM_SCORE:
		if (tt_memory_tracker_oom_score(c->memory, r->ts, tt_proto_thread(c, pid), r->u.i))
			c->oom = 1;
		return 1;
	case FT_MARK:
	case FT_SIG_MARK: {
		/* a zero-length slice with no category on the thread */
		uint32_t t = tt_track_tracker_thread(c->im->tracks, tt_proto_thread(c, pid)), args = TT_NONE;

		if (t == TT_NONE)
			return 1;
		if (r->scope == FT_SIG_MARK) {
			tt_storage_args_begin(c->st);
			tt_storage_args_int(c->st, "signal.sig", r->u.i);
			args = tt_args_tracker_end(c->im->args);
		}
		tt_slice_tracker_complete(c->im->slices, t, r->ts, 0, 0, r->name, args);
		return 1;
	}
	case FT_FUNCGRAPH: {
		uint32_t t = funcgraph_track(c, tt_proto_thread(c, pid));

		if (t == TT_NONE)
			return 1;
		if (r->u.i)
			tt_slice_tracker_begin(c->im->slices, t, r->ts, 0, r->name, TT_NONE);
		else
			tt_slice_tracker_end_quiet(c->im->slices, t, r->ts, 0, r->name, TT_NONE);
		return 1;
	}
	case FT_WQ_START:
	case FT_WQ_END: {
		/* on the writing thread, as it is now */
		uint32_t t = tt_track_tracker_thread(c->im->tracks, tt_proto_thread(c, pid));
		tt_str wq = intern_c(c, "workqueue");

		if (t == TT_NONE)
			return 1;
		if (r->scope == FT_WQ_START)
			tt_slice_tracker_begin(c->im->slices, t, r->ts, wq, r->name, r->args);
		else
			tt_slice_tracker_end_quiet(c->im->slices, t, r->ts, wq, 0, TT_NONE);
		return 1;
	}
	default:
		return tt_proto_feed_net(c, r);
	}
}
