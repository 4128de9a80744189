/*
 * ctf_read.c - decoding every stream on the worker threads and storing the
 * events in time order on the import thread.
 *
 * Each stream's packets are listed first (tt_ctf_stream_packets: LTTng's
 * index or a walk of the packet headers). Where a packet can be decoded
 * without the ones before it (its clock is set by a 64-bit
 * timestamp_begin or the previous packet's timestamp_end, as LTTng and
 * barectf write), the stream is cut there into jobs of about a MiB of
 * packets. Workers decode jobs, in the order of their first packet's
 * time, into records (import_ctf_int.h: time, place, CPU, thread, class,
 * and the values the import reads); the import thread merges the streams
 * by time with a heap over the jobs' records and stores them. When the
 * job it needs is not taken yet it decodes it itself, so it never waits
 * on a worker that is not running, and one stream on two cores decodes
 * on both.
 *
 * The jobs go through a tt_workq (workq.h) in the order of their keys:
 * sequence number k is job order[k]; a claim only opens the slot (stage
 * 1), decoding it is the second stage, grabbed by a worker or by the
 * import thread while it would otherwise wait. The import thread takes
 * slots in order up to the job a stream needs and gives each slot back at
 * once: the job keeps the slot's records (the slot gets a spare buffer),
 * so the ring bounds what is decoded ahead, not what the merge holds.
 *
 * A stream that cannot be cut is read by one cursor on the import thread
 * in refills. Either way the events, their order, the discarded-events
 * notes (merged across job edges as one cursor merges them), stats and
 * problems are those of one cursor per stream: TT_CTF_THREADS=1 (no
 * worker) and TT_CTF_BATCH (tiny jobs) give the same import.
 */
#include "import_ctf_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vec.h"
#include "workq.h"

#define JOB_BYTES (1u << 20)    /* packet content per job */
#define SERIAL_EVENTS 16384     /* refill of a stream that cannot be cut */
#define MAX_WORKERS 4

typedef struct batch {
	rec *r;
	size_t n, cap;
	struct { uint32_t first, n, ncontext; } *vl; /* value lists */
	size_t nvl, cvl;
	ctf_val *v;      /* copied values; keys are offsets into k until read */
	size_t nv, cv;
	char *k;
	size_t nk, ck;
	struct { size_t at; ctf_discard d; } *d; /* before r[at] */
	size_t nd, cd;
	/* the stream class and instance of r[at] on, for ties */
	struct { size_t at; uint64_t cls; int64_t inst; } *ci;
	size_t nci, cci;
	/* stored jobs' packets to drop from the resident set: the import
	 * thread hands them to whoever decodes into this buffer next */
	struct { const ctf_stream *s; uint64_t from, to; } *dr;
	size_t ndr, cdr;
	int oom;
} batch;

typedef struct job {
	uint32_t src;
	size_t pk;          /* first packet */
	uint64_t end_off;   /* no packet at or after this byte */
	uint64_t bytes;     /* content: progress */
	int64_t key;        /* its first packet's time: jobs are taken so */
	size_t seq;         /* its place in that order: its workq sequence */
	batch out;          /* the import thread's, once taken */
	/* written by whoever decodes it, read once it is taken */
	ctf_stream_stats st;
	char problem[256];
} job;

/* One stream as the merge sees it. */
typedef struct sstate {
	ctf_stream *main;
	const trace_ctx *tr;
	int idx;
	const ctf_packet *pk;
	size_t npk;
	size_t *jobs, njobs, next; /* its jobs in file order */
	ctf_stream *serial;        /* cannot be cut: this cursor, refilled */
	int more;                  /* serial: the cursor may have more */
	batch sb;
	batch *cur;                /* records being merged */
	job *curjob;
	size_t pos, ci;
	uint64_t cls;
	int64_t inst;
	int has_pend;
	ctf_discard pend;
	int has_last;
	int64_t last_ts;
	ctf_stream_stats st;
	char problem[256];
	int64_t ts;                /* cur->r[pos].ts */
	size_t stop;               /* records pos < stop have no discard
				    * note, class change or batch end at
				    * them: the next one is just taken */
} sstate;

typedef struct reader {
	ctx *c;
	tt_import *im;
	sstate *ss;
	size_t nss;
	sstate **heap;
	size_t nheap;
	job *jobs;
	size_t njobs;
	size_t *order, norder;    /* jobs by key: the workq's sequence */
	uint64_t job_bytes;
	size_t serial_events;
	tt_workq *q;
	size_t nslots;
	batch *slot;              /* per ring slot: the records decoded
				   * into it (a worker's until done) */
	size_t taken;             /* sequence numbers below are taken */
	batch *spare;             /* released jobs' buffers, the import
				   * thread's: they go back into the
				   * slots it takes, so no allocation
				   * churn between the threads */
	size_t nspare, cspare;
	struct { const ctf_stream *s; uint64_t from, to; } *dr; /* not handed on yet */
	size_t ndr, cdr;
	/* the import thread's */
	uint64_t events, bytes_done;
	int oom;
} reader;

/* ---- records ----------------------------------------------------------- */
static rec *rec_new(batch *b)
{
	if (b->n == b->cap) {
		size_t nc = b->cap ? b->cap * 2 : 1024;
		rec *nr = realloc(b->r, nc * sizeof(*nr));

		if (!nr) {
			b->oom = 1;
			return NULL;
		}
		b->r = nr;
		b->cap = nc;
	}
	return &b->r[b->n++];
}

/* Copies the values of ev (and their keys) into the batch. */
static int copy_vals(batch *b, const ctf_event *ev, rec *r)
{
	size_t kb = 0;

	for (size_t i = 0; i < ev->nvals; i++)
		kb += strlen(ev->vals[i].key) + 1;
	if (tt_vec_reserve((void **)&b->v, &b->cv, b->nv + ev->nvals, sizeof(*b->v)) ||
	    tt_vec_reserve((void **)&b->k, &b->ck, b->nk + kb, 1) ||
	    tt_vec_reserve((void **)&b->vl, &b->cvl, b->nvl + 1, sizeof(*b->vl)) ||
	    b->nk + kb > UINT32_MAX || b->nv + ev->nvals > UINT32_MAX)
		return -1;
	r->flags |= R_VALS;
	r->vals = (uint32_t)b->nvl;
	b->vl[b->nvl].first = (uint32_t)b->nv;
	b->vl[b->nvl].n = (uint32_t)ev->nvals;
	b->vl[b->nvl++].ncontext = (uint32_t)ev->ncontext;
	for (size_t i = 0; i < ev->nvals; i++) {
		ctf_val *v = &b->v[b->nv++];
		size_t kl = strlen(ev->vals[i].key) + 1;

		*v = ev->vals[i];
		v->keyoff = (uint32_t)b->nk;
		memcpy(b->k + b->nk, ev->vals[i].key, kl);
		b->nk += kl;
	}
	return 0;
}

static void put_event(batch *b, const trace_ctx *tr, int idx, const ctf_event *ev)
{
	rec *r;
	uint64_t cls = ev->class_id;
	int64_t inst = ev->instance;

	if (!b->nci || b->ci[b->nci - 1].cls != cls || b->ci[b->nci - 1].inst != inst) {
		if (tt_vec_reserve((void **)&b->ci, &b->cci, b->nci + 1, sizeof(*b->ci))) {
			b->oom = 1;
			return;
		}
		b->ci[b->nci].at = b->n;
		b->ci[b->nci].cls = cls;
		b->ci[b->nci++].inst = inst;
	}
	if (!(r = rec_new(b)))
		return;
	r->ts = ev->ts;
	r->offset = ev->offset;
	r->cpu = ev->cpu;
	r->src = (uint16_t)idx;
	r->flags = ev->skipped ? R_SKIPPED : 0;
	/* who: the UST context's vpid/vtid first, else the kernel's pid/tid */
	r->pid = -1;
	r->tid = 0;
	if (ev->has_vtid) {
		r->flags |= R_THREAD;
		r->tid = ev->vtid;
		r->pid = ev->has_vpid ? ev->vpid : -1;
	} else if (ev->has_tid) {
		r->flags |= R_THREAD;
		r->tid = ev->tid;
		r->pid = ev->has_pid ? ev->pid : -1;
	} else if (ev->has_vpid || ev->has_pid) {
		/* a process without a thread: no thread row (the value is
		 * an arg too), but symbols are looked up in its map */
		r->pid = ev->has_vpid ? ev->vpid : ev->pid;
	}
	r->procname = ev->procname;
	r->procname_len = (uint32_t)ev->procname_len;
	/* the decoder just read both names: the comparison is cheap here,
	 * where storing would fetch them from the mapping again */
	if (b->n > 1 && b->ci[b->nci - 1].at < b->n - 1) {
		const rec *p = r - 1;

		if ((p->flags & R_THREAD) && (r->flags & R_THREAD) && p->pid == r->pid && p->tid == r->tid &&
		    p->procname_len == r->procname_len && (p->procname != NULL) == (r->procname != NULL) &&
		    (!r->procname || tt_ctf_same_bytes(p->procname, r->procname, r->procname_len)))
			r->flags |= R_SAME;
	}
	r->ci = (uint32_t)(ev->cls - tr->m->events);
	r->vals = 0;
	if (ev->nvals && copy_vals(b, ev, r))
		b->oom = 1;
}

static void put_discard(batch *b, const ctf_discard *d)
{
	if (tt_vec_reserve((void **)&b->d, &b->cd, b->nd + 1, sizeof(*b->d))) {
		b->oom = 1;
		return;
	}
	b->d[b->nd].at = b->n;
	b->d[b->nd++].d = *d;
}

/* Decodes up to max events of cursor s into b (emptied first). Returns 1
 * when the cursor has more. */
static int fill(batch *b, ctf_stream *s, const trace_ctx *tr, int idx, size_t max)
{
	b->n = b->nv = b->nk = b->nvl = b->nd = b->nci = 0;
	while (b->n < max && !b->oom) {
		const ctf_event *ev;
		ctf_discard d;
		int r = tt_ctf_stream_next(s, &ev);

		while ((!r || ev->discard) && tt_ctf_stream_take_discard(s, &d))
			put_discard(b, &d);
		if (!r)
			return 0;
		put_event(b, tr, idx, ev);
	}
	return !b->oom;
}

static void batch_free(batch *b)
{
	free(b->r);
	free(b->vl);
	free(b->v);
	free(b->k);
	free(b->d);
	free(b->ci);
	free(b->dr);
	memset(b, 0, sizeof(*b));
}

/* ---- jobs ---------------------------------------------------------------- */
/* Decodes the job of sequence number seq into its slot's batch. */
static void run_job(reader *rd, uint64_t seq)
{
	job *j = &rd->jobs[rd->order[seq]];
	batch *out = &rd->slot[seq % rd->nslots];
	sstate *ss = &rd->ss[j->src];
	ctf_stream *p;

	for (size_t i = 0; i < out->ndr; i++)
		tt_ctf_stream_drop_range(out->dr[i].s, out->dr[i].from, out->dr[i].to);
	out->ndr = 0;
	if (tt_ctf_stream_part(ss->main, &ss->pk[j->pk], j->end_off, &p) != TT_OK) {
		out->oom = 1;
		return;
	}
	fill(out, p, ss->tr, ss->idx, SIZE_MAX);
	j->st = *tt_ctf_stream_stats(p);
	snprintf(j->problem, sizeof(j->problem), "%s", tt_ctf_stream_problem(p));
	tt_ctf_stream_close(p);
}

/* A claim opens a slot for decoding, while jobs are left. */
static int claim_job(void *arg, uint64_t seq)
{
	const reader *rd = arg;

	return seq >= rd->norder;
}

static void *worker_main(void *arg)
{
	reader *rd = arg;
	uint64_t seq;
	int k;

	while ((k = tt_workq_work(rd->q, TT_WQ_WAIT, 1, &seq)) > 0) {
		if (k == TT_WQ_GRABBED)
			run_job(rd, seq);
		tt_workq_done(rd->q, seq, 0);
	}
	return NULL;
}

/* The import thread takes the oldest slot: its job keeps the records and
 * the slot gets a spare buffer. Decodes a slot itself rather than wait for
 * a worker that has not started it. -1 when the queue ended early. */
static int take_next(reader *rd)
{
	uint64_t seq;

	for (;;) {
		switch (tt_workq_next(rd->q, TT_WQ_WAIT, 1, &seq)) {
		case TT_WQ_TAKEN: {
			job *j = &rd->jobs[rd->order[seq]];
			batch *b = &rd->slot[seq % rd->nslots];

			j->out = *b;
			if (rd->nspare)
				*b = rd->spare[--rd->nspare];
			else
				memset(b, 0, sizeof(*b));
			/* the drops wait for the slot's next decoder: zapping
			 * pages is kernel time the import thread can spare */
			if (!rd->ndr) {
				/* nothing stored since the last take */
			} else if (!tt_vec_reserve((void **)&b->dr, &b->cdr, b->ndr + rd->ndr, sizeof(*b->dr))) {
				memcpy(b->dr + b->ndr, rd->dr, rd->ndr * sizeof(*b->dr));
				b->ndr += rd->ndr;
			} else {
				for (size_t i = 0; i < rd->ndr; i++)
					tt_ctf_stream_drop_range(rd->dr[i].s, rd->dr[i].from, rd->dr[i].to);
			}
			rd->ndr = 0;
			tt_workq_release(rd->q, seq);
			rd->taken++;
			return 0;
		}
		case TT_WQ_GRABBED:
			run_job(rd, seq);
			tt_workq_done(rd->q, seq, 0);
			break;
		case TT_WQ_NONE: /* no worker: open the next slot */
			if (tt_workq_work(rd->q, 0, -1, &seq) != TT_WQ_CLAIMED)
				return -1;
			tt_workq_done(rd->q, seq, 0);
			break;
		default:
			return -1;
		}
	}
}

/* The import thread needs job j: taken, with the ones before it. */
static int need_job(reader *rd, job *j)
{
	while (rd->taken <= j->seq)
		if (take_next(rd))
			return -1;
	return 0;
}

static void release_job(reader *rd, job *j)
{
	const sstate *ss = &rd->ss[j->src];
	uint64_t size = tt_ctf_stream_size(ss->main);

	/* its packets are stored: they leave the resident set, so that the
	 * import's peak is its storage, not the trace as well (on a worker,
	 * see take_next; what is left at the end goes with the streams) */
	if (!tt_vec_reserve((void **)&rd->dr, &rd->cdr, rd->ndr + 1, sizeof(*rd->dr))) {
		rd->dr[rd->ndr].s = ss->main;
		rd->dr[rd->ndr].from = ss->pk[j->pk].off;
		rd->dr[rd->ndr++].to = j->end_off < size ? j->end_off : size;
	} else {
		tt_ctf_stream_drop_range(ss->main, ss->pk[j->pk].off, j->end_off < size ? j->end_off : size);
	}
	if (!j->out.oom && !tt_vec_reserve((void **)&rd->spare, &rd->cspare, rd->nspare + 1, sizeof(*rd->spare))) {
		rd->spare[rd->nspare++] = j->out;
		memset(&j->out, 0, sizeof(j->out));
	}
}

/* ---- the merge ------------------------------------------------------------ */
static void stats_add(ctf_stream_stats *a, const ctf_stream_stats *b)
{
	a->packets += b->packets;
	a->events += b->events;
	a->discarded += b->discarded;
	a->packets_lost += b->packets_lost;
	a->truncated += b->truncated;
	a->decode_errors += b->decode_errors;
	a->unknown_events += b->unknown_events;
	a->ts_backwards += b->ts_backwards;
	a->ts_overflow += b->ts_overflow;
	a->uuid_mismatch += b->uuid_mismatch;
}

/* Discards noted before record `at` of the current batch join the pending
 * note, as one cursor merges what it finds between two events. */
static void take_discards(sstate *ss, size_t *di, size_t at)
{
	batch *b = ss->cur;

	for (; *di < b->nd && b->d[*di].at <= at; (*di)++) {
		const ctf_discard *d = &b->d[*di].d;

		if (!ss->has_pend) {
			ss->pend = *d;
			ss->has_pend = 1;
			continue;
		}
		/* a later packet adds its counts; its end stands when it
		 * counted discarded events (tt_ctf_stream_next's rule) */
		ss->pend.count += d->count;
		ss->pend.packets += d->packets;
		if (d->count)
			ss->pend.end_ts = d->end_ts;
	}
}

static void emit_pending(reader *rd, sstate *ss)
{
	if (!ss->has_pend)
		return;
	ss->has_pend = 0;
	tt_ctf_emit_discard(rd->c, &rd->c->srcs[ss->idx], &ss->pend);
}

/* Where the next batch of a stream comes from; 0 when none is left. */
static int next_batch(reader *rd, sstate *ss)
{
	if (ss->curjob) {
		stats_add(&ss->st, &ss->curjob->st);
		if (!ss->problem[0])
			snprintf(ss->problem, sizeof(ss->problem), "%s", ss->curjob->problem);
		rd->bytes_done += ss->curjob->bytes;
		release_job(rd, ss->curjob);
		ss->curjob = NULL;
		ss->cur = NULL;
	}
	if (ss->serial) {
		if (!ss->more)
			return 0;
		ss->cur = &ss->sb;
		ss->more = fill(&ss->sb, ss->serial, ss->tr, ss->idx, rd->serial_events);
		if (ss->sb.oom)
			rd->oom = 1;
		if (!ss->more) {
			/* the cursor ended: its stats and problem are final */
			ss->st = *tt_ctf_stream_stats(ss->serial);
			snprintf(ss->problem, sizeof(ss->problem), "%s", tt_ctf_stream_problem(ss->serial));
		}
		return 1;
	}
	if (ss->next >= ss->njobs)
		return 0;
	ss->curjob = &rd->jobs[ss->jobs[ss->next++]];
	if (need_job(rd, ss->curjob)) {
		rd->oom = 1;
		ss->curjob = NULL;
		return 0;
	}
	ss->cur = &ss->curjob->out;
	if (ss->cur->oom)
		rd->oom = 1;
	return 1;
}

/* Moves a stream to its next record (from pos on), noting the discards
 * before it. Returns 1 when it has one. */
static int settle(reader *rd, sstate *ss, size_t di)
{
	for (;;) {
		if (ss->cur) {
			take_discards(ss, &di, ss->pos);
			if (ss->pos < ss->cur->n) {
				batch *b = ss->cur;
				const rec *r = &b->r[ss->pos];

				while (ss->ci < b->nci && b->ci[ss->ci].at <= ss->pos) {
					ss->cls = b->ci[ss->ci].cls;
					ss->inst = b->ci[ss->ci].inst;
					ss->ci++;
				}
				/* a job's first event is compared with the event
				 * before it here (its cursor did not see it) */
				if (ss->pos == 0 && ss->curjob && ss->has_last && r->ts < ss->last_ts)
					ss->st.ts_backwards++;
				ss->ts = r->ts;
				ss->stop = b->n;
				if (di < b->nd && b->d[di].at < ss->stop)
					ss->stop = b->d[di].at;
				if (ss->ci < b->nci && b->ci[ss->ci].at < ss->stop)
					ss->stop = b->ci[ss->ci].at;
				return 1;
			}
		}
		if (rd->oom)
			return 0;
		if (!next_batch(rd, ss))
			return 0;
		ss->pos = 0;
		ss->ci = 0;
		di = 0;
		for (size_t i = 0; i < ss->cur->nv; i++)
			ss->cur->v[i].key = ss->cur->k + ss->cur->v[i].keyoff;
	}
}

static __attribute__((noinline)) int src_tie(const sstate *a, const sstate *b)
{
	if (a->tr->index != b->tr->index)
		return a->tr->index < b->tr->index;
	if (a->cls != b->cls)
		return a->cls < b->cls;
	if (a->inst != b->inst)
		return a->inst < b->inst;
	return a->idx < b->idx;
}

/* Time first (ties are rare): inlined in the heap walks. */
static inline int src_less(const sstate *a, const sstate *b)
{
	if (a->ts != b->ts)
		return a->ts < b->ts;
	return src_tie(a, b);
}

static void heap_down(reader *rd, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		sstate *t;

		if (l < rd->nheap && src_less(rd->heap[l], rd->heap[m]))
			m = l;
		if (r < rd->nheap && src_less(rd->heap[r], rd->heap[m]))
			m = r;
		if (m == i)
			return;
		t = rd->heap[i];
		rd->heap[i] = rd->heap[m];
		rd->heap[m] = t;
		i = m;
	}
}

static void heap_up(reader *rd, size_t i)
{
	while (i > 0) {
		size_t p = (i - 1) / 2;
		sstate *t;

		if (!src_less(rd->heap[i], rd->heap[p]))
			return;
		t = rd->heap[i];
		rd->heap[i] = rd->heap[p];
		rd->heap[p] = t;
		i = p;
	}
}

/* Stores the current record of ss and moves it on. Returns 1 while it has
 * records. */
static int store_one(reader *rd, sstate *ss)
{
	batch *b = ss->cur;
	const rec *r = &b->r[ss->pos];
	evals x = { NULL, 0, 0 };
	size_t di;

	if (r->flags & R_VALS) {
		x.v = b->v + b->vl[r->vals].first;
		x.n = b->vl[r->vals].n;
		x.ncontext = b->vl[r->vals].ncontext;
	}
	tt_ctf_store_event(rd->c, &rd->c->srcs[r->src], r, &x);
	ss->has_last = 1;
	ss->last_ts = r->ts;
	ss->pos++;
	/* the records are the workers' writes: fetched ahead of their turn
	 * (the streams take turns: a stream's next few are far ahead) */
	if (ss->pos + 12 < b->n)
		__builtin_prefetch(&b->r[ss->pos + 12]);
	if (ss->pos < ss->stop) {
		/* nothing noted before it (settle's rules): just its time */
		ss->ts = b->r[ss->pos].ts;
		return 1;
	}
	/* the discards before the next record: where the cursor of one
	 * stream gave them, right after this event */
	for (di = 0; di < b->nd && b->d[di].at < ss->pos; di++)
		;
	if (settle(rd, ss, di)) {
		emit_pending(rd, ss);
		return 1;
	}
	emit_pending(rd, ss);
	return 0;
}

/* ---- set-up ---------------------------------------------------------------- */
/* Jobs in the order of their first packet's time (ties: stream, place). */
struct okey {
	int64_t key;
	uint32_t src;
	size_t pk, job;
};

static int cmp_okey(const void *a, const void *b)
{
	const struct okey *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	return x->pk < y->pk ? -1 : x->pk > y->pk;
}

/* Lists the packets of every stream and cuts them into jobs. */
static int plan(reader *rd)
{
	size_t cap = 0;
	struct okey *ok;

	for (size_t i = 0; i < rd->nss; i++) {
		sstate *ss = &rd->ss[i];
		size_t first = 0, nj = 0;
		uint64_t acc = 0;
		int cuttable = 1;

		if (tt_ctf_stream_packets(ss->main, &ss->pk, &ss->npk))
			return -1;
		for (size_t p = 0; p < ss->npk; p++)
			cuttable &= ss->pk[p].cut;
		/* a stream that cannot be cut anywhere but at its start is
		 * read by one cursor */
		if (!ss->npk)
			continue;
		if (!cuttable) {
			ctf_stream *p;

			if (tt_ctf_stream_part(ss->main, &ss->pk[0], UINT64_MAX, &p) != TT_OK)
				return -1;
			ss->serial = p;
			ss->more = 1;
			continue;
		}
		ss->jobs = malloc(ss->npk * sizeof(*ss->jobs));
		if (!ss->jobs)
			return -1;
		for (size_t p = 0; p <= ss->npk; p++) {
			if (p < ss->npk && (p == first || acc + ss->pk[p].content_bytes <= rd->job_bytes)) {
				acc += ss->pk[p].content_bytes;
				continue;
			}
			/* a job of packets [first, p) */
			if (tt_vec_reserve((void **)&rd->jobs, &cap, rd->njobs + 1, sizeof(*rd->jobs)))
				return -1;
			memset(&rd->jobs[rd->njobs], 0, sizeof(rd->jobs[0]));
			rd->jobs[rd->njobs].src = (uint32_t)i;
			rd->jobs[rd->njobs].pk = first;
			/* the last job opens packets to the end, as the cursor
			 * of the whole stream would (a bad header after the
			 * listed packets is met and described there) */
			rd->jobs[rd->njobs].end_off = p < ss->npk ? ss->pk[p].off : UINT64_MAX;
			rd->jobs[rd->njobs].bytes = acc;
			rd->jobs[rd->njobs].key = ss->pk[first].ts;
			ss->jobs[nj++] = rd->njobs++;
			first = p;
			acc = p < ss->npk ? ss->pk[p].content_bytes : 0;
		}
		ss->njobs = nj;
	}
	rd->order = malloc((rd->njobs ? rd->njobs : 1) * sizeof(*rd->order));
	ok = malloc((rd->njobs ? rd->njobs : 1) * sizeof(*ok));
	if (!rd->order || !ok) {
		free(ok);
		return -1;
	}
	for (size_t j = 0; j < rd->njobs; j++)
		ok[j] = (struct okey){ rd->jobs[j].key, rd->jobs[j].src, rd->jobs[j].pk, j };
	qsort(ok, rd->njobs, sizeof(*ok), cmp_okey);
	for (size_t j = 0; j < rd->njobs; j++) {
		rd->order[j] = ok[j].job;
		rd->jobs[ok[j].job].seq = j;
	}
	rd->norder = rd->njobs;
	free(ok);
	return 0;
}

static int workers_for(void)
{
	int n = tt_workq_cpus();

	return n > MAX_WORKERS ? MAX_WORKERS : n;
}

int tt_ctf_read_and_store(ctx *c, uint64_t *events)
{
	reader rd;
	int rc = 0;

	memset(&rd, 0, sizeof(rd));
	rd.c = c;
	rd.im = c->im;
	rd.nss = c->nsrcs;
	rd.ss = calloc(rd.nss ? rd.nss : 1, sizeof(*rd.ss));
	rd.heap = calloc(rd.nss ? rd.nss : 1, sizeof(*rd.heap));
	/* for tests: TT_CTF_BATCH=<n> makes jobs of n bytes of packets (one
	 * packet each when small) and refills of n events */
	rd.job_bytes = c->im->opts.ctf_batch ? c->im->opts.ctf_batch : JOB_BYTES;
	rd.serial_events = c->im->opts.ctf_batch ? c->im->opts.ctf_batch : SERIAL_EVENTS;
	if (!rd.ss || !rd.heap) {
		rc = -1;
		goto out;
	}
	for (size_t i = 0; i < rd.nss; i++) {
		rd.ss[i].main = c->srcs[i].s;
		rd.ss[i].tr = c->srcs[i].tr;
		rd.ss[i].idx = c->srcs[i].idx;
		rd.ss[i].cls = tt_ctf_stream_class_id(c->srcs[i].s);
		rd.ss[i].inst = tt_ctf_stream_instance(c->srcs[i].s);
	}
	if (plan(&rd)) {
		rc = -1;
		goto out;
	}
	if (rd.njobs) {
		int want = c->im->opts.ctf_one_thread || rd.njobs < 2 ? 0 : workers_for();

		/* decoded ahead and not taken yet: two jobs a worker (the
		 * merge holds one per stream besides) */
		rd.nslots = 2 * (size_t)want + 2;
		rd.slot = calloc(rd.nslots, sizeof(*rd.slot));
		if (!rd.slot || !(rd.q = tt_workq_new(rd.nslots, 2, 0))) {
			rc = -1;
			goto out;
		}
		tt_workq_on_claim(rd.q, claim_job, &rd);
		for (int i = 0; i < want; i++)
			tt_workq_start(rd.q, worker_main, &rd);
	}
	/* every stream to its first record, in stream order (their discards
	 * first), then the merge */
	for (size_t i = 0; i < rd.nss; i++) {
		sstate *ss = &rd.ss[i];
		int has = settle(&rd, ss, 0);

		emit_pending(&rd, ss);
		if (has) {
			rd.heap[rd.nheap++] = ss;
			heap_up(&rd, rd.nheap - 1);
		}
	}
	while (rd.nheap && !rd.oom) {
		sstate *ss = rd.heap[0];

		if (!store_one(&rd, ss))
			rd.heap[0] = rd.heap[--rd.nheap];
		heap_down(&rd, 0);
		/* storing after memory ran out does nothing: checked now and then */
		if ((++rd.events & 0xFFF) == 0 && (tt_storage_oom(c->st) || c->oom)) {
			rc = -1;
			break;
		}
		if ((rd.events & 0xFFFF) == 0) {
			if (tt_import_cancelled(rd.im))
				break;
			tt_import_progress(rd.im, rd.bytes_done, rd.events);
		}
	}
	if (rd.oom || c->oom || tt_storage_oom(c->st))
		rc = -1;
	/* what each stream's cursor counted and met first */
	for (size_t i = 0; i < rd.nss; i++) {
		sstate *ss = &rd.ss[i];

		if (ss->curjob) {
			stats_add(&ss->st, &ss->curjob->st);
			if (!ss->problem[0])
				snprintf(ss->problem, sizeof(ss->problem), "%s", ss->curjob->problem);
		}
		c->srcs[i].st = ss->st;
		snprintf(c->srcs[i].problem, sizeof(c->srcs[i].problem), "%s", ss->problem);
	}
	tt_import_progress(rd.im, c->total_bytes, rd.events);
out:
	tt_workq_free(rd.q); /* stops and joins the workers */
	for (size_t k = 0; rd.slot && k < rd.nslots; k++)
		batch_free(&rd.slot[k]);
	free(rd.slot);
	for (size_t j = 0; j < rd.njobs; j++)
		batch_free(&rd.jobs[j].out);
	for (size_t j = 0; j < rd.nspare; j++)
		batch_free(&rd.spare[j]);
	free(rd.spare);
	free(rd.dr);
	for (size_t i = 0; rd.ss && i < rd.nss; i++) {
		free(rd.ss[i].jobs);
		batch_free(&rd.ss[i].sb);
		tt_ctf_stream_close(rd.ss[i].serial);
	}
	*events = rd.events;
	free(rd.jobs);
	free(rd.order);
	free(rd.ss);
	free(rd.heap);
	return rc;
}
