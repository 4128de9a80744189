/*
 * binder_tracker.c - see binder_tracker.h. The rules are trace
 * processor's BinderTracker (src/trace_processor/importers/ftrace/
 * binder_tracker.cc): the same slices, args, flows and per-thread
 * transaction stacks.
 */
#include "binder_tracker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keymap.h"
#include "vec.h"

/* The binder driver's commands (BC_*, from the thread) and returns
 * (BR_*, to it) that move a transaction along (uapi linux/android/
 * binder.h: _IOW/_IOR codes). */
enum {
	BC_TRANSACTION = 0x40406300, BC_REPLY = 0x40406301,
	BC_TRANSACTION_SG = 0x40486311, BC_REPLY_SG = 0x40486312,
	BR_TRANSACTION_SEC_CTX = 0x80487202, BR_TRANSACTION = 0x80407202, BR_REPLY = 0x80407203,
	BR_DEAD_REPLY = 0x7205, BR_TRANSACTION_COMPLETE = 0x7206, BR_FAILED_REPLY = 0x7211,
	BR_FROZEN_REPLY = 0x7212, BR_ONEWAY_SPAM_SUSPECT = 0x7213, BR_TRANSACTION_PENDING_FROZEN = 0x7214,
};

/* Where a thread is in a transaction it sends (SND_) or serves (RCV_):
 * after which event. */
enum {
	SND_AFTER_BC_TRANSACTION, SND_AFTER_TRANSACTION, SND_AFTER_BR_TRANSACTION_COMPLETE,
	SND_AFTER_TRANSACTION_RECEIVED, RCV_AFTER_TRANSACTION_RECEIVED, RCV_AFTER_BR_TRANSACTION,
	RCV_AFTER_BC_REPLY, RCV_AFTER_TRANSACTION,
};

struct frame {
	uint8_t state;
	uint8_t known;  /* oneway and reply are known (a transaction was seen) */
	uint8_t oneway, reply;
};

struct fstack {
	struct frame *f;
	uint32_t n, cap;
};

/* A transaction sent and not yet received. */
struct txn {
	int64_t send_slice; /* -1: none */
	uint32_t send_track;
	uint32_t args;      /* its arg set (a oneway receipt's slice gets it too) */
	uint8_t reply, oneway;
};

struct tt_binder_tracker {
	tt_import *im;
	tt_str cat, n_txn, n_async, n_reply, n_async_rcv, n_lock_wait, n_lock_held;
	tt_keymap open;              /* transaction id -> index in txns */
	TT_VEC(struct txn) txns;
	TT_VEC(uint32_t) free_txns;  /* indices of txns to reuse */
	TT_VEC(struct fstack) stacks; /* by utid */
	tt_keymap lock_wait, lock_held; /* tid -> 1 */
};

tt_binder_tracker *tt_binder_tracker_new(tt_import *im)
{
	tt_binder_tracker *b = calloc(1, sizeof(*b));
	tt_storage *st = im->st;

	if (!b)
		return NULL;
	b->im = im;
	b->cat = tt_storage_intern_cstr(st, "binder");
	b->n_txn = tt_storage_intern_cstr(st, "binder transaction");
	b->n_async = tt_storage_intern_cstr(st, "binder transaction async");
	b->n_reply = tt_storage_intern_cstr(st, "binder reply");
	b->n_async_rcv = tt_storage_intern_cstr(st, "binder async rcv");
	b->n_lock_wait = tt_storage_intern_cstr(st, "binder lock waiting");
	b->n_lock_held = tt_storage_intern_cstr(st, "binder lock held");
	return b;
}

void tt_binder_tracker_free(tt_binder_tracker *b)
{
	if (!b)
		return;
	tt_keymap_free(&b->open);
	tt_keymap_free(&b->lock_wait);
	tt_keymap_free(&b->lock_held);
	TT_VEC_FREE(b->txns);
	TT_VEC_FREE(b->free_txns);
	for (size_t i = 0; i < b->stacks.n; i++)
		free(b->stacks.v[i].f);
	TT_VEC_FREE(b->stacks);
	free(b);
}

/* ---- args ---------------------------------------------------------------- */

/* Flags in words, as trace processor writes them after the hex value. */
static void flags_text(char *out, size_t cap, uint32_t flags)
{
	int n = snprintf(out, cap, "0x%02x ", flags);

	if (flags & 0x01)
		n += snprintf(out + n, cap - (size_t)n, "this is a one-way call: async, no return; ");
	if (flags & 0x04)
		n += snprintf(out + n, cap - (size_t)n, "contents are the components root object; ");
	if (flags & 0x08)
		n += snprintf(out + n, cap - (size_t)n, "contents are a 32-bit status code; ");
	if (flags & 0x10)
		n += snprintf(out + n, cap - (size_t)n, "allow replies with file descriptors; ");
	if (!flags)
		snprintf(out + n, cap - (size_t)n, "No Flags Set");
}

static uint32_t txn_args(tt_binder_tracker *b, int32_t txn, int32_t dest_node, int32_t dest_tgid, int is_reply,
			 uint32_t flags, const char *code, int64_t tid)
{
	tt_storage *st = b->im->st;
	char s[256];

	tt_storage_args_begin(st);
	tt_storage_args_int(st, "transaction id", txn);
	tt_storage_args_int(st, "destination node", dest_node);
	tt_storage_args_int(st, "destination process", dest_tgid);
	tt_storage_args_bool(st, "reply transaction?", is_reply);
	flags_text(s, sizeof(s), flags);
	tt_storage_args_str(st, "flags", s, strlen(s));
	snprintf(s, sizeof(s), "%.64s Java Layer Dependent", code);
	tt_storage_args_str(st, "code", s, strlen(s));
	tt_storage_args_uint(st, "calling tid", (uint64_t)(uint32_t)tid);
	return tt_args_tracker_end(b->im->args);
}

/* The destination thread (and its name, when it has one now) onto the
 * open slice of that name on track; nothing when there is none (the
 * set is only made for a slice that takes it). unsigned_tid: the tid's
 * type in trace processor (a receipt's is unsigned, a reply's signed). */
static void add_dest(tt_binder_tracker *b, uint32_t track, tt_str name, int64_t tid, uint32_t utid,
		     int unsigned_tid)
{
	tt_storage *st = b->im->st;
	tt_str tname = utid != TT_NONE ? tt_storage_thread_name(st, utid) : 0;

	if (tt_slice_tracker_add_args(b->im->slices, track, b->cat, name, TT_NONE) < 0)
		return;
	tt_storage_args_begin(st);
	if (unsigned_tid)
		tt_storage_args_uint(st, "destination thread", (uint64_t)(uint32_t)tid);
	else
		tt_storage_args_int(st, "destination thread", (int32_t)tid);
	if (tname) {
		const char *t = tt_storage_str(st, tname);

		tt_storage_args_str(st, "destination name", t, strlen(t));
	}
	tt_slice_tracker_add_args(b->im->slices, track, b->cat, name, tt_args_tracker_end(b->im->args));
}

/* ---- per-thread transaction stacks --------------------------------------- */

static struct frame *top(tt_binder_tracker *b, uint32_t utid)
{
	if (utid >= b->stacks.n || !b->stacks.v[utid].n)
		return NULL;
	return &b->stacks.v[utid].f[b->stacks.v[utid].n - 1];
}

static struct frame *push(tt_binder_tracker *b, uint32_t utid, int state)
{
	struct fstack *s;

	if (utid == TT_NONE) /* (no thread: out of memory before) */
		return NULL;
	while (b->stacks.n <= utid) {
		struct fstack z = { 0 };

		if (TT_VEC_PUSH(b->stacks, z)) {
			tt_storage_set_oom(b->im->st);
			return NULL;
		}
	}
	s = &b->stacks.v[utid];
	if (s->n == s->cap) {
		uint32_t cap = s->cap ? s->cap * 2 : 4;
		struct frame *f = realloc(s->f, cap * sizeof(*f));

		if (!f) {
			tt_storage_set_oom(b->im->st);
			return NULL;
		}
		s->f = f;
		s->cap = cap;
	}
	s->f[s->n] = (struct frame){ .state = (uint8_t)state };
	return &s->f[s->n++];
}

static void pop(tt_binder_tracker *b, uint32_t utid)
{
	if (utid < b->stacks.n && b->stacks.v[utid].n)
		b->stacks.v[utid].n--;
}

/* ---- transactions ---------------------------------------------------------- */

void tt_binder_transaction(tt_binder_tracker *b, int64_t ts, uint32_t utid, int64_t tid, int32_t txn,
			   int32_t dest_node, int32_t dest_tgid, int64_t dest_tid, uint32_t dest_utid, int is_reply,
			   uint32_t flags, const char *code)
{
	tt_slice_tracker *sl = b->im->slices;
	uint32_t track = tt_track_tracker_thread(b->im->tracks, utid);
	int oneway = (flags & TT_BINDER_ONE_WAY) != 0;
	struct txn t = { .send_slice = -1, .send_track = track, .args = TT_NONE, .reply = (uint8_t)is_reply,
			 .oneway = (uint8_t)oneway };
	struct frame *f;
	uint32_t idx;

	if (track == TT_NONE)
		return;
	if (is_reply) {
		/* ends whatever the thread has open: its "binder reply" when
		 * all went as it should */
		add_dest(b, track, b->n_reply, dest_tid, dest_utid, 0);
		if (tt_slice_tracker_add_args(sl, track, 0, 0, TT_NONE) >= 0)
			t.args = txn_args(b, txn, dest_node, dest_tgid, 1, flags, code, tid);
		t.send_slice = tt_slice_tracker_end_quiet(sl, track, ts, 0, 0, t.args);
	} else {
		t.args = txn_args(b, txn, dest_node, dest_tgid, 0, flags, code, tid);
		t.send_slice = oneway ? tt_slice_tracker_complete(sl, track, ts, 0, b->cat, b->n_async, t.args)
				      : tt_slice_tracker_begin(sl, track, ts, b->cat, b->n_txn, t.args);
	}
	idx = tt_keymap_get(&b->open, (uint32_t)txn, 0, 0, 0);
	if (idx == TT_KEYMAP_NONE) {
		if (b->free_txns.n) {
			idx = b->free_txns.v[--b->free_txns.n];
		} else {
			idx = (uint32_t)b->txns.n;
			if (TT_VEC_PUSH(b->txns, t)) {
				tt_storage_set_oom(b->im->st);
				return;
			}
		}
		if (tt_keymap_put(&b->open, (uint32_t)txn, 0, 0, 0, idx)) {
			tt_storage_set_oom(b->im->st);
			return;
		}
	}
	b->txns.v[idx] = t;
	if ((f = top(b, utid))) {
		if (f->state == SND_AFTER_BC_TRANSACTION || f->state == RCV_AFTER_BC_REPLY) {
			f->state = f->state == SND_AFTER_BC_TRANSACTION ? SND_AFTER_TRANSACTION : RCV_AFTER_TRANSACTION;
			f->known = 1;
			f->oneway = (uint8_t)oneway;
			f->reply = (uint8_t)is_reply;
		} else if (f->state == RCV_AFTER_TRANSACTION_RECEIVED) {
			/* no commands traced: the frame would never be popped */
			pop(b, utid);
		}
	}
}

void tt_binder_received(tt_binder_tracker *b, int64_t ts, uint32_t utid, int64_t tid, int32_t txn)
{
	tt_slice_tracker *sl = b->im->slices;
	uint32_t idx = tt_keymap_get(&b->open, (uint32_t)txn, 0, 0, 0), track;
	struct txn t;
	int64_t recv;

	/* a receipt of a transaction not seen sent: its kind is unknown */
	if (idx == TT_KEYMAP_NONE)
		return;
	t = b->txns.v[idx];
	tt_keymap_del(&b->open, (uint32_t)txn, 0, 0, 0);
	if (TT_VEC_PUSH(b->free_txns, idx))
		tt_storage_set_oom(b->im->st);
	track = tt_track_tracker_thread(b->im->tracks, utid);
	if (track == TT_NONE)
		return;
	if (!t.oneway) {
		if (!t.reply) {
			struct frame *f = push(b, utid, RCV_AFTER_TRANSACTION_RECEIVED);

			if (f)
				f->known = 1;
		} else {
			struct frame *f = top(b, utid);

			if (f && f->state == SND_AFTER_BR_TRANSACTION_COMPLETE)
				f->state = SND_AFTER_TRANSACTION_RECEIVED;
		}
	}
	if (t.reply) {
		/* the reply is back: the sender's "binder transaction" ends */
		tt_slice_tracker_end_quiet(sl, track, ts, 0, 0, TT_NONE);
		return;
	}
	if (t.oneway) {
		recv = tt_slice_tracker_complete(sl, track, ts, 0, b->cat, b->n_async_rcv, t.args);
	} else {
		add_dest(b, t.send_track, b->n_txn, tid, utid, 1);
		recv = tt_slice_tracker_begin(sl, track, ts, b->cat, b->n_reply, TT_NONE);
	}
	if (t.send_slice >= 0 && recv >= 0)
		tt_storage_flow_link(b->im->st, t.send_slice, recv);
}

/* ---- commands and returns ------------------------------------------------- */

void tt_binder_command(tt_binder_tracker *b, uint32_t utid, uint32_t cmd)
{
	struct frame *f;

	switch (cmd) {
	case BC_TRANSACTION:
	case BC_TRANSACTION_SG:
		push(b, utid, SND_AFTER_BC_TRANSACTION);
		break;
	case BC_REPLY:
	case BC_REPLY_SG:
		if ((f = top(b, utid)) && f->state == RCV_AFTER_BR_TRANSACTION)
			f->state = RCV_AFTER_BC_REPLY;
		break;
	default:
		break;
	}
}

void tt_binder_return(tt_binder_tracker *b, int64_t ts, uint32_t utid, uint32_t cmd)
{
	struct frame *f = top(b, utid);

	if (!f)
		return;
	switch (cmd) {
	case BR_DEAD_REPLY:
	case BR_FAILED_REPLY:
	case BR_FROZEN_REPLY:
	case BR_TRANSACTION_PENDING_FROZEN:
		/* the transaction failed: end the slice it left open */
		switch (f->state) {
		case SND_AFTER_BC_TRANSACTION: /* failed before binder_transaction: no slice */
			pop(b, utid);
			break;
		case RCV_AFTER_BC_REPLY:
		case SND_AFTER_TRANSACTION:
		case RCV_AFTER_TRANSACTION:
		case SND_AFTER_BR_TRANSACTION_COMPLETE:
			if (f->known && !f->oneway && !f->reply) {
				uint32_t track = tt_track_tracker_thread(b->im->tracks, utid);

				if (track != TT_NONE)
					tt_slice_tracker_end_quiet(b->im->slices, track, ts, 0, 0, TT_NONE);
			}
			pop(b, utid);
			break;
		default:
			break;
		}
		break;
	case BR_TRANSACTION_COMPLETE:
	case BR_ONEWAY_SPAM_SUSPECT:
		if (f->state == RCV_AFTER_TRANSACTION || f->state == SND_AFTER_BC_TRANSACTION)
			pop(b, utid);
		else if (f->state == SND_AFTER_TRANSACTION) {
			/* a oneway transaction ends here (it opened no slice) */
			if (f->known && !f->oneway)
				f->state = SND_AFTER_BR_TRANSACTION_COMPLETE;
			else
				pop(b, utid);
		}
		break;
	case BR_REPLY:
		if (f->state == SND_AFTER_TRANSACTION_RECEIVED)
			pop(b, utid);
		break;
	case BR_TRANSACTION:
	case BR_TRANSACTION_SEC_CTX:
		if (f->state == RCV_AFTER_TRANSACTION_RECEIVED)
			f->state = RCV_AFTER_BR_TRANSACTION;
		break;
	default:
		break;
	}
}

/* ---- the global binder lock (kernels before 4.14) ------------------------- */

void tt_binder_lock(tt_binder_tracker *b, int64_t ts, uint32_t utid, int64_t tid, int what)
{
	tt_slice_tracker *sl = b->im->slices;
	uint32_t track = tt_track_tracker_thread(b->im->tracks, utid);
	uint64_t k = (uint64_t)tid;

	if (track == TT_NONE)
		return;
	if (what == 0) {
		if (tt_keymap_put(&b->lock_wait, k, 0, 0, 0, 1))
			tt_storage_set_oom(b->im->st);
		tt_slice_tracker_begin(sl, track, ts, b->cat, b->n_lock_wait, TT_NONE);
	} else if (what == 1) {
		if (tt_keymap_get(&b->lock_wait, k, 0, 0, 0) == TT_KEYMAP_NONE)
			return;
		tt_slice_tracker_end_quiet(sl, track, ts, 0, 0, TT_NONE);
		tt_slice_tracker_begin(sl, track, ts, b->cat, b->n_lock_held, TT_NONE);
		tt_keymap_del(&b->lock_wait, k, 0, 0, 0);
		if (tt_keymap_put(&b->lock_held, k, 0, 0, 0, 1))
			tt_storage_set_oom(b->im->st);
	} else {
		if (tt_keymap_get(&b->lock_held, k, 0, 0, 0) == TT_KEYMAP_NONE)
			return;
		tt_slice_tracker_end_quiet(sl, track, ts, b->cat, b->n_lock_held, TT_NONE);
		tt_keymap_del(&b->lock_held, k, 0, 0, 0);
	}
}

void tt_binder_alloc_buf(tt_binder_tracker *b, uint32_t utid, uint64_t data_size, uint64_t offsets_size)
{
	tt_storage *st = b->im->st;
	uint32_t track = tt_track_tracker_thread(b->im->tracks, utid);

	if (track == TT_NONE || tt_slice_tracker_add_args(b->im->slices, track, b->cat, b->n_txn, TT_NONE) < 0)
		return;
	tt_storage_args_begin(st);
	tt_storage_args_uint(st, "data size", data_size);
	tt_storage_args_uint(st, "offsets size", offsets_size);
	tt_slice_tracker_add_args(b->im->slices, track, b->cat, b->n_txn, tt_args_tracker_end(b->im->args));
}
