/*
 * workq.h - the one way a thread hands work to another in an import: a
 * bounded ring of slots that go, in sequence order, from a producer (or
 * several workers) to one consumer, with cancel.
 *
 * The queue owns no data: the caller keeps an array of as many slots as
 * the queue has and uses slot seq % slots for sequence number seq. The
 * queue says which sequence number is whose:
 *
 *   claim  (tt_workq_work)  a producer gets the next sequence number, in
 *          order, once its slot is free (at most `slots` in flight, and,
 *          with max_weight, not too many bytes ahead); it fills the slot
 *          outside the lock and calls tt_workq_done.
 *   stages a slot may need more steps after it is filled (proto: framed,
 *          then unpacked): with stages = 2 the first done() makes it
 *          grabbable at stage 1, by a worker (tt_workq_work) or by the
 *          consumer while it would otherwise wait (tt_workq_next), in any
 *          order; the second done() makes it ready.
 *   take   (tt_workq_next)  the consumer gets the oldest slot once it is
 *          ready, so slots come out in sequence order whoever filled them;
 *          tt_workq_release gives the slot back.
 *
 * Ending: the producer calls tt_workq_close when it has nothing more (the
 * consumer then gets TT_WQ_END after the last slot). A claim callback can
 * instead say "nothing for now" (dry): claims wait until tt_workq_restart,
 * and the consumer ends when the ring is empty. tt_workq_cancel (either
 * side, or tt_workq_free) makes every call return TT_WQ_END at once.
 *
 * One thread: a queue without worker threads (none asked for, or none
 * could be started: tt_workq_threads() is 0) never waits; where a threaded
 * call would wait it returns TT_WQ_NONE and the caller does the work
 * itself (fills the slot, or consumes inline), so the result of an import
 * never depends on how many threads ran it.
 *
 * Memory ordering: what a thread writes into a slot before done() (or
 * before close()) is seen by the thread that takes it.
 */
#ifndef TT_WORKQ_H
#define TT_WORKQ_H

#include <stddef.h>
#include <stdint.h>

typedef struct tt_workq tt_workq;

enum {
	TT_WQ_END = -1,    /* closed and drained, or cancelled */
	TT_WQ_NONE = 0,    /* nothing now (only without TT_WQ_WAIT or threads) */
	TT_WQ_CLAIMED = 1, /* *seq is the next slot to fill (stage 0) */
	TT_WQ_GRABBED = 2, /* *seq sits at the asked stage; do its next step */
	TT_WQ_TAKEN = 3    /* *seq is the oldest slot, ready: consume it */
};

/* flags of tt_workq_work / tt_workq_next */
#define TT_WQ_WAIT 1   /* wait (threaded queues only) instead of TT_WQ_NONE */
#define TT_WQ_NEWEST 2 /* grab the newest slot of the stage, not the oldest */

/* slots: the ring's size (>= 1); stages: done() calls that make a slot
 * ready (>= 1); max_weight: claims wait while the slots in flight weigh
 * that much (weights come with done()), 0 = no limit. NULL when memory
 * ran out. */
tt_workq *tt_workq_new(size_t slots, int stages, size_t max_weight);
/* Cancels, joins the threads, frees. NULL is fine. */
void tt_workq_free(tt_workq *q);

/* Called under the queue's lock for each claim, before the claim is made:
 * returns 0 to make it (the callback may start the slot: producers that
 * must start in order, such as reading the next piece of a file, do that
 * here), non-zero for "nothing for now" (dry, see above). */
typedef int (*tt_workq_claim_fn)(void *arg, uint64_t seq);
void tt_workq_on_claim(tt_workq *q, tt_workq_claim_fn fn, void *arg);

/* CPUs online (at least 1), read once a process: how many threads are
 * worth starting, and whether a waiter may watch before it sleeps. */
int tt_workq_cpus(void);

/* Starts a worker thread running fn(arg). Returns 0, or -1 when no thread
 * could be started (the queue is then one-thread unless another started). */
int tt_workq_start(tt_workq *q, void *(*fn)(void *), void *arg);
/* Worker threads running. */
int tt_workq_threads(tt_workq *q);
/* Waits for the worker threads to return (they should have seen END). */
void tt_workq_join(tt_workq *q);

/* Producers and workers: claims the next slot (TT_WQ_CLAIMED) or, with
 * grab >= 0, takes a slot waiting at stage grab (TT_WQ_GRABBED); claims
 * come first. TT_WQ_END when closed with nothing left to grab, or
 * cancelled. */
int tt_workq_work(tt_workq *q, int flags, int grab, uint64_t *seq);
/* The slot finished its current stage; weight (bytes) counts against
 * max_weight until the slot is released. */
void tt_workq_done(tt_workq *q, uint64_t seq, size_t weight);

/* The consumer: the oldest slot when ready (TT_WQ_TAKEN), else with grab
 * >= 0 the oldest slot waiting at stage grab (TT_WQ_GRABBED: do its step,
 * done(), call again). TT_WQ_END when the ring is empty and closed (or
 * dry), or cancelled. */
int tt_workq_next(tt_workq *q, int flags, int grab, uint64_t *seq);
/* Gives the taken slot back: its sequence number's slot may be claimed. */
void tt_workq_release(tt_workq *q, uint64_t seq);

/* The producer has nothing more. Its claims not done yet are given back
 * (a producer holds the next slot before it knows the input ended): call
 * it when no other thread is filling a claimed slot. */
void tt_workq_close(tt_workq *q);
/* Clears "dry" after running fn(arg) under the lock (the consumer moves
 * where producers start, say); claims go on. fn may be NULL. */
void tt_workq_restart(tt_workq *q, void (*fn)(void *arg), void *arg);
/* Stops everything: every call returns TT_WQ_END from now on. */
void tt_workq_cancel(tt_workq *q);
int tt_workq_cancelled(const tt_workq *q);

#endif
