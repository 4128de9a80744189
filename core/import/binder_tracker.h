/*
 * binder_tracker.h - Android binder transactions as trace processor's
 * BinderTracker shows them, from the kernel's binder events (ftrace in a
 * Perfetto trace; format-neutral):
 *   - a synchronous transaction: "binder transaction" on the sending
 *     thread from binder_transaction to the reply's receipt, "binder
 *     reply" on the receiving thread from the receipt to its reply, a
 *     flow from the first to the second;
 *   - a oneway one: instants "binder transaction async" and, on receipt,
 *     "binder async rcv", with a flow;
 *   - binder_command / binder_return keep a stack of transactions per
 *     thread, so that a failed transaction (BR_DEAD_REPLY and the like)
 *     ends the slice it left open;
 *   - binder_lock / _locked / _unlock (kernels before 4.14): "binder lock
 *     waiting", then "binder lock held";
 *   - binder_transaction_alloc_buf: its sizes on the open transaction.
 * All slices are of category "binder" on thread tracks. Calls come in
 * trace order (the importer's sorter). One per importer.
 */
#ifndef TT_BINDER_TRACKER_H
#define TT_BINDER_TRACKER_H

#include <stdint.h>

#include "import_int.h"

typedef struct tt_binder_tracker tt_binder_tracker;

tt_binder_tracker *tt_binder_tracker_new(tt_import *im);
void tt_binder_tracker_free(tt_binder_tracker *b);

/* Transaction flags (the kernel's TF_*). */
#define TT_BINDER_ONE_WAY 0x01u

/* binder_transaction on thread utid (its tid: tid), to process
 * dest_tgid's thread dest_tid (dest_utid: the thread of dest_tid, whose
 * name a reply's slice takes now); code: its hex text (Perfetto's
 * "0x%02x", the line's own in systrace text). Its args are trace
 * processor's: transaction id, destination node and process, reply
 * transaction?, flags and code in words, calling tid. */
void tt_binder_transaction(tt_binder_tracker *b, int64_t ts, uint32_t utid, int64_t tid, int32_t txn,
			   int32_t dest_node, int32_t dest_tgid, int64_t dest_tid, uint32_t dest_utid, int is_reply,
			   uint32_t flags, const char *code);
/* binder_transaction_received on thread utid (its tid: tid). */
void tt_binder_received(tt_binder_tracker *b, int64_t ts, uint32_t utid, int64_t tid, int32_t txn);
/* binder_command (BC_*) and binder_return (BR_*) on thread utid. */
void tt_binder_command(tt_binder_tracker *b, uint32_t utid, uint32_t cmd);
void tt_binder_return(tt_binder_tracker *b, int64_t ts, uint32_t utid, uint32_t cmd);
/* binder_lock (what 0), binder_locked (1), binder_unlock (2) of tid. */
void tt_binder_lock(tt_binder_tracker *b, int64_t ts, uint32_t utid, int64_t tid, int what);
/* binder_transaction_alloc_buf: its sizes ("data size", "offsets size")
 * onto the thread's open "binder transaction". */
void tt_binder_alloc_buf(tt_binder_tracker *b, uint32_t utid, uint64_t data_size, uint64_t offsets_size);

#endif
