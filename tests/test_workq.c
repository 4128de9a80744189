/*
 * test_workq.c - the import threads' hand-over queue (core/import/workq.h):
 * slots come out in sequence order whoever filled them, producers block
 * at the bound, cancel wakes every waiter, stages and weights, "dry" and
 * restart, and the one-thread mode that never waits.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "workq.h"

static void nap(long us)
{
	struct timespec t = { 0, us * 1000 };

	nanosleep(&t, NULL);
}

#define NSLOT 4
#define NITEMS 2000

struct prod {
	tt_workq *q;
	uint64_t val[NSLOT];
	atomic_int claimed;
};

/* Two workers fill slots with their sequence number, the later ones
 * sometimes faster (odd sequence numbers are slow). */
static void *filler(void *arg)
{
	struct prod *p = arg;
	uint64_t seq;

	while (tt_workq_work(p->q, TT_WQ_WAIT, -1, &seq) == TT_WQ_CLAIMED) {
		if (seq % 7 == 1)
			nap(50);
		p->val[seq % NSLOT] = seq * 3;
		atomic_fetch_add(&p->claimed, 1);
		tt_workq_done(p->q, seq, 0);
	}
	return NULL;
}

static int stop_at(void *arg, uint64_t seq)
{
	(void)arg;
	return seq >= NITEMS; /* dry: nothing more */
}

static void in_order_from_two_workers(void **state)
{
	struct prod p = { .q = tt_workq_new(NSLOT, 1, 0) };
	uint64_t seq, want = 0;
	int rc;

	(void)state;
	assert_non_null(p.q);
	tt_workq_on_claim(p.q, stop_at, NULL);
	assert_int_equal(tt_workq_start(p.q, filler, &p), 0);
	assert_int_equal(tt_workq_start(p.q, filler, &p), 0);
	assert_int_equal(tt_workq_threads(p.q), 2);
	while ((rc = tt_workq_next(p.q, TT_WQ_WAIT, -1, &seq)) == TT_WQ_TAKEN) {
		assert_int_equal(seq, want);
		assert_int_equal(p.val[seq % NSLOT], seq * 3);
		want++;
		tt_workq_release(p.q, seq);
	}
	assert_int_equal(rc, TT_WQ_END);
	assert_int_equal(want, NITEMS);
	tt_workq_free(p.q);
}

/* A producer claims at most NSLOT slots ahead of the consumer; it waits
 * for the next one until a slot is released. */
static void producer_blocks_at_bound(void **state)
{
	struct prod p = { .q = tt_workq_new(NSLOT, 1, 0) };
	uint64_t seq;

	(void)state;
	atomic_init(&p.claimed, 0);
	assert_int_equal(tt_workq_start(p.q, filler, &p), 0);
	for (int i = 0; i < 200 && atomic_load(&p.claimed) < NSLOT; i++)
		nap(1000);
	nap(20000);
	assert_int_equal(atomic_load(&p.claimed), NSLOT);
	assert_int_equal(tt_workq_next(p.q, TT_WQ_WAIT, -1, &seq), TT_WQ_TAKEN);
	assert_int_equal(seq, 0);
	nap(20000);
	assert_int_equal(atomic_load(&p.claimed), NSLOT); /* still held */
	tt_workq_release(p.q, seq);
	for (int i = 0; i < 200 && atomic_load(&p.claimed) < NSLOT + 1; i++)
		nap(1000);
	nap(20000);
	assert_int_equal(atomic_load(&p.claimed), NSLOT + 1);
	tt_workq_cancel(p.q);
	tt_workq_join(p.q); /* the blocked producer woke up and returned */
	assert_int_equal(tt_workq_next(p.q, TT_WQ_WAIT, -1, &seq), TT_WQ_END);
	tt_workq_free(p.q);
}

static void *cancel_later(void *arg)
{
	nap(20000);
	tt_workq_cancel(arg);
	return NULL;
}

/* A consumer waiting on an empty queue returns END when someone cancels;
 * so do claims afterwards. */
static void cancel_wakes_consumer(void **state)
{
	tt_workq *q = tt_workq_new(2, 1, 0);
	uint64_t seq;

	(void)state;
	assert_int_equal(tt_workq_start(q, cancel_later, q), 0);
	assert_int_equal(tt_workq_next(q, TT_WQ_WAIT, -1, &seq), TT_WQ_END);
	assert_true(tt_workq_cancelled(q));
	assert_int_equal(tt_workq_work(q, TT_WQ_WAIT, -1, &seq), TT_WQ_END);
	tt_workq_free(q);
}

/* Without threads nothing waits: the caller fills and consumes in turn;
 * a full ring says NONE, and close ends the consumer after the last. */
static void one_thread_never_waits(void **state)
{
	tt_workq *q = tt_workq_new(2, 1, 0);
	uint64_t seq;

	(void)state;
	assert_int_equal(tt_workq_threads(q), 0);
	assert_int_equal(tt_workq_next(q, TT_WQ_WAIT, -1, &seq), TT_WQ_NONE);
	assert_int_equal(tt_workq_work(q, TT_WQ_WAIT, -1, &seq), TT_WQ_CLAIMED);
	assert_int_equal(seq, 0);
	assert_int_equal(tt_workq_next(q, TT_WQ_WAIT, -1, &seq), TT_WQ_NONE); /* not done */
	tt_workq_done(q, 0, 0);
	assert_int_equal(tt_workq_work(q, TT_WQ_WAIT, -1, &seq), TT_WQ_CLAIMED);
	assert_int_equal(seq, 1);
	tt_workq_done(q, 1, 0);
	assert_int_equal(tt_workq_work(q, TT_WQ_WAIT, -1, &seq), TT_WQ_NONE); /* full */
	assert_int_equal(tt_workq_next(q, 0, -1, &seq), TT_WQ_TAKEN);
	assert_int_equal(seq, 0);
	tt_workq_release(q, 0);
	tt_workq_close(q);
	assert_int_equal(tt_workq_work(q, 0, -1, &seq), TT_WQ_END);
	assert_int_equal(tt_workq_next(q, 0, -1, &seq), TT_WQ_TAKEN);
	assert_int_equal(seq, 1);
	tt_workq_release(q, 1);
	assert_int_equal(tt_workq_next(q, 0, -1, &seq), TT_WQ_END);
	tt_workq_free(q);
	/* a claim the producer did not fill when it closed is dropped */
	q = tt_workq_new(2, 1, 0);
	assert_int_equal(tt_workq_work(q, 0, -1, &seq), TT_WQ_CLAIMED);
	tt_workq_done(q, seq, 0);
	assert_int_equal(tt_workq_work(q, 0, -1, &seq), TT_WQ_CLAIMED);
	tt_workq_close(q);
	assert_int_equal(tt_workq_next(q, 0, -1, &seq), TT_WQ_TAKEN);
	tt_workq_release(q, seq);
	assert_int_equal(tt_workq_next(q, 0, -1, &seq), TT_WQ_END);
	tt_workq_free(q);
}

/* Two stages: a filled slot is grabbed for its second step, the newest
 * first by workers, the oldest first by the consumer; it is taken only
 * once both are done. */
static void stages_and_grabs(void **state)
{
	tt_workq *q = tt_workq_new(4, 2, 0);
	uint64_t seq;

	(void)state;
	for (uint64_t i = 0; i < 3; i++) {
		assert_int_equal(tt_workq_work(q, 0, 1, &seq), TT_WQ_CLAIMED);
		assert_int_equal(seq, i);
		tt_workq_done(q, seq, 0);
	}
	tt_workq_close(q);
	assert_int_equal(tt_workq_work(q, TT_WQ_NEWEST, 1, &seq), TT_WQ_GRABBED);
	assert_int_equal(seq, 2);
	assert_int_equal(tt_workq_next(q, 0, 1, &seq), TT_WQ_GRABBED);
	assert_int_equal(seq, 0);
	tt_workq_done(q, 0, 0);
	assert_int_equal(tt_workq_next(q, 0, 1, &seq), TT_WQ_TAKEN);
	assert_int_equal(seq, 0);
	tt_workq_release(q, 0);
	assert_int_equal(tt_workq_next(q, 0, 1, &seq), TT_WQ_GRABBED);
	assert_int_equal(seq, 1);
	assert_int_equal(tt_workq_next(q, 0, 1, &seq), TT_WQ_NONE); /* 1 and 2 busy */
	tt_workq_done(q, 2, 0);
	assert_int_equal(tt_workq_next(q, 0, 1, &seq), TT_WQ_NONE); /* 2 ready, 1 not */
	tt_workq_done(q, 1, 0);
	assert_int_equal(tt_workq_next(q, 0, 1, &seq), TT_WQ_TAKEN);
	assert_int_equal(seq, 1);
	tt_workq_release(q, 1);
	assert_int_equal(tt_workq_next(q, 0, 1, &seq), TT_WQ_TAKEN);
	assert_int_equal(seq, 2);
	tt_workq_release(q, 2);
	assert_int_equal(tt_workq_next(q, 0, 1, &seq), TT_WQ_END);
	assert_int_equal(tt_workq_work(q, 0, 1, &seq), TT_WQ_END);
	tt_workq_free(q);
}

/* max_weight: one heavy slot in flight stops claims until released; an
 * empty ring always takes one, however heavy. */
static void weight_bounds_claims(void **state)
{
	tt_workq *q = tt_workq_new(8, 1, 100);
	uint64_t seq;

	(void)state;
	assert_int_equal(tt_workq_work(q, 0, -1, &seq), TT_WQ_CLAIMED);
	tt_workq_done(q, seq, 60);
	assert_int_equal(tt_workq_work(q, 0, -1, &seq), TT_WQ_CLAIMED);
	tt_workq_done(q, seq, 500);
	assert_int_equal(tt_workq_work(q, 0, -1, &seq), TT_WQ_NONE);
	assert_int_equal(tt_workq_next(q, 0, -1, &seq), TT_WQ_TAKEN);
	tt_workq_release(q, seq);
	assert_int_equal(tt_workq_work(q, 0, -1, &seq), TT_WQ_NONE); /* 500 left */
	assert_int_equal(tt_workq_next(q, 0, -1, &seq), TT_WQ_TAKEN);
	tt_workq_release(q, seq);
	assert_int_equal(tt_workq_work(q, 0, -1, &seq), TT_WQ_CLAIMED);
	assert_int_equal(seq, 2);
	tt_workq_free(q);
}

struct dry {
	uint64_t limit, start;
};

static int until_limit(void *arg, uint64_t seq)
{
	struct dry *d = arg;

	(void)seq;
	if (d->start >= d->limit)
		return 1;
	d->start++;
	return 0;
}

static void raise_limit(void *arg)
{
	((struct dry *)arg)->limit += 2;
}

/* A claim callback that has nothing makes the queue dry: the consumer
 * ends once the ring is empty; a restart lets claims go on. */
static void dry_and_restart(void **state)
{
	tt_workq *q = tt_workq_new(4, 1, 0);
	struct dry d = { 1, 0 };
	uint64_t seq;

	(void)state;
	tt_workq_on_claim(q, until_limit, &d);
	assert_int_equal(tt_workq_work(q, 0, -1, &seq), TT_WQ_CLAIMED);
	tt_workq_done(q, seq, 0);
	assert_int_equal(tt_workq_work(q, 0, -1, &seq), TT_WQ_NONE);
	assert_int_equal(tt_workq_next(q, 0, -1, &seq), TT_WQ_TAKEN);
	tt_workq_release(q, seq);
	assert_int_equal(tt_workq_next(q, 0, -1, &seq), TT_WQ_END);
	tt_workq_restart(q, raise_limit, &d);
	assert_int_equal(tt_workq_work(q, 0, -1, &seq), TT_WQ_CLAIMED);
	assert_int_equal(seq, 1);
	assert_int_equal(d.start, 2);
	tt_workq_free(q);
}

/* A producer whose slots come after pauses inside and well past the
 * waiter's watch (wait_change: watched unlocked for up to 100 us, then a
 * sleep on the condition variable): each slot still comes out, in order,
 * with its value, so no change is lost between the watch and the sleep.
 * A lost wake-up would hang the consumer: the watchdog cancels after 5 s,
 * and the count falls short. */
static const long pause_us[] = { 0, 5, 40, 90, 150, 400, 2000, 1, 120, 3000 };
#define NPAUSED 60

static void *paced_filler(void *arg)
{
	struct prod *p = arg;
	uint64_t seq;

	while (tt_workq_work(p->q, TT_WQ_WAIT, -1, &seq) == TT_WQ_CLAIMED) {
		if (seq >= NPAUSED) {
			tt_workq_close(p->q);
			break;
		}
		nap(pause_us[seq % (sizeof(pause_us) / sizeof(pause_us[0]))]);
		p->val[seq % NSLOT] = seq + 100;
		tt_workq_done(p->q, seq, 0);
	}
	return NULL;
}

static void *watchdog(void *arg)
{
	tt_workq *q = arg;

	for (int i = 0; i < 500 && !tt_workq_cancelled(q); i++)
		nap(10000);
	tt_workq_cancel(q);
	return NULL;
}

static void waits_across_watch_and_sleep(void **state)
{
	struct prod p = { .q = tt_workq_new(NSLOT, 1, 0) };
	uint64_t seq, want = 0;
	pthread_t dog;
	int rc;

	(void)state;
	assert_non_null(p.q);
	assert_int_equal(pthread_create(&dog, NULL, watchdog, p.q), 0);
	assert_int_equal(tt_workq_start(p.q, paced_filler, &p), 0);
	while ((rc = tt_workq_next(p.q, TT_WQ_WAIT, -1, &seq)) == TT_WQ_TAKEN) {
		assert_int_equal(seq, want);
		assert_int_equal(p.val[seq % NSLOT], seq + 100);
		want++;
		/* the producer, at the bound, waits in its turn */
		nap(pause_us[(seq + 3) % (sizeof(pause_us) / sizeof(pause_us[0]))]);
		tt_workq_release(p.q, seq);
	}
	assert_int_equal(rc, TT_WQ_END);
	assert_int_equal(want, NPAUSED);
	assert_false(tt_workq_cancelled(p.q));
	tt_workq_cancel(p.q); /* the watchdog's end */
	pthread_join(dog, NULL);
	tt_workq_free(p.q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(in_order_from_two_workers),
		cmocka_unit_test(producer_blocks_at_bound),
		cmocka_unit_test(cancel_wakes_consumer),
		cmocka_unit_test(one_thread_never_waits),
		cmocka_unit_test(stages_and_grabs),
		cmocka_unit_test(weight_bounds_claims),
		cmocka_unit_test(dry_and_restart),
		cmocka_unit_test(waits_across_watch_and_sleep),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
