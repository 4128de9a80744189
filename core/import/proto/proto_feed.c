/*
 * proto_feed.c - the merge of the sequences' records in (ts, file order)
 * and the feeding of the trackers: track resolution through descriptor
 * parent chains, slices, flows. See import_proto.c.
 */
#include "proto_int.h"

/* ---- parse: merge sequences and feed the trackers ------------------------------- */

static int rec_cmp(const void *a, const void *b)
{
	const prec *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->ord < y->ord ? -1 : x->ord > y->ord;
}

static uint32_t resolve(pctx *c, uint32_t i, int depth, tt_str event_name, enum tt_async_kind kind);

/* Resolves the parent track first (its scope is inherited). */
static uint32_t parent_track_of(pctx *c, const utrack *u, int depth)
{
	uint64_t *pi;

	if (!u->has_parent)
		return TT_NONE;
	pi = tt_pmap_find(&c->uuid_index, u->parent);
	return pi ? resolve(c, (uint32_t)*pi, depth + 1, 0, TT_ASYNC_PEEK) : TT_NONE;
}

/* Storage track of uuid entry i (created on first use). A slice track
 * with no name of its own is named by the first event fed onto it, as
 * trace processor names it. */
/* The track of a merged sibling set for one event (or a parent: PEEK). */
static uint32_t merged_track(pctx *c, const utrack *u, enum tt_async_kind kind)
{
	uint32_t t = tt_async_track_set(c->async, u->mk1, u->mk2, u->mk3, u->uuid, &u->mdesc, kind);

	if (t == TT_NONE)
		c->oom = 1;
	return t;
}

static uint32_t resolve_track(pctx *c, uint32_t i, int depth, tt_str event_name, enum tt_async_kind kind);

/* The track of descriptor i, with the source args trace processor gives
 * a descriptor's track when it makes it (proto_desc.c: tt_proto_track_source_args). */
static uint32_t resolve(pctx *c, uint32_t i, int depth, tt_str event_name, enum tt_async_kind kind)
{
	uint32_t t = resolve_track(c, i, depth, event_name, kind);
	utrack *u = &c->utracks.v[i];

	if (t != TT_NONE && u->desc_track != t + 1) {
		u->desc_track = t + 1;
		if (tt_storage_track_source_args(c->st, t) == TT_NONE)
			tt_proto_track_source_args(c, u, t, c->feed_first_packet);
	}
	return t;
}

static uint32_t resolve_track(pctx *c, uint32_t i, int depth, tt_str event_name, enum tt_async_kind kind)
{
	utrack *u = &c->utracks.v[i];
	uint32_t parent_track = TT_NONE, sutid = TT_NONE, supid = TT_NONE, t;
	int parent_root = 0;
	tt_track_desc d = { .type = "global", .utid = TT_NONE, .upid = TT_NONE, .parent_id = TT_NONE,
			    .cpu = -1 };

	if (u->track != TT_NONE)
		return u->track;
	if (u->merged)
		return merged_track(c, u, kind);
	if (u->resolving || depth > 32)
		return TT_NONE;
	u->resolving = 1;
	parent_track = parent_track_of(c, u, depth);
	u = &c->utracks.v[i];
	if (u->has_parent) {
		uint64_t *pi = tt_pmap_find(&c->uuid_index, u->parent);
		if (pi) {
			const utrack *p = &c->utracks.v[*pi];
			parent_root = p->kind == UT_THREAD || p->kind == UT_PROCESS;
			sutid = p->kind == UT_THREAD ? p->utid : p->scope_utid;
			supid = p->kind == UT_PROCESS ? p->upid : p->kind == UT_THREAD ? p->upid : p->scope_upid;
		}
	}
	u->resolving = 0;
	u->scope_utid = sutid;
	u->scope_upid = supid;
	d.name = u->name;
	d.description = u->desc;
	/* trace processor: a track scoped by a thread or process descriptor
	 * above it has that descriptor as its scope, not as its parent (the
	 * thread's track is where its own slices are; lib_slices.sql's
	 * is_main_track reads the type) */
	d.parent_id = parent_root && (sutid != TT_NONE || supid != TT_NONE) ? TT_NONE : parent_track;
	if (u->legacy_counter) {
		d.type = u->legacy_counter == 1 ? "thread_time" : "thread_instructions";
		d.name = intern_c(c, u->legacy_counter == 1 ? "thread_time" : "thread_instruction_count");
		d.utid = u->utid;
		d.upid = u->upid;
		d.is_counter = 1;
		u->track = tt_storage_track_new(c->st, &d);
		return u->track;
	}
	if (u->is_state && u->kind != UT_COUNTER) {
		u->track = tt_proto_state_track(c, u, parent_track, sutid, supid, event_name);
		return u->track;
	}
	switch (u->kind) {
	case UT_THREAD:
		if (u->separate) {
			/* disallow_merging_with_system_tracks: the thread's
			 * events on a track of their own, beside the thread's
			 * track (legacy events, ftrace's atrace) */
			d.type = "thread_track_event";
			d.utid = u->utid;
			d.upid = u->upid;
			d.parent_id = TT_NONE;
			break;
		}
		t = tt_storage_thread_track(c->st, u->utid);
		if (u->name)
			tt_storage_track_set_name(c->st, t, u->name);
		u->track = t;
		return t;
	case UT_PROCESS:
		d.type = "process_track_event";
		d.upid = u->upid;
		d.parent_id = TT_NONE;
		break;
	case UT_COUNTER:
		d.type = sutid != TT_NONE ? "thread_counter_track_event" :
			 supid != TT_NONE ? "process_counter_track_event" : "global_counter_track_event";
		d.is_counter = 1;
		d.unit = u->unit;
		d.utid = sutid;
		d.upid = supid;
		break;
	default:
		if (!u->described) {
			if (u->uuid == 0)
				d.name = intern_c(c, "Default Track");
			else
				stat(c, TT_STAT_proto_track_undescribed);
		}
		if (!d.name)
			d.name = event_name;
		d.type = "global_track_event";
		if (sutid != TT_NONE) {
			d.type = "thread_track_event";
			d.utid = sutid;
			d.upid = supid;
		} else if (supid != TT_NONE) {
			d.type = "process_track_event";
			d.upid = supid;
		}
		/* trace processor: sibling slice tracks of one parent that may
		 * merge (by name, the default, or by key) share tracks while
		 * their slices do not overlap, as async ids do: a thousand
		 * tracks of one name are not a thousand rows in the viewer */
		if (u->merge != 2 && u->uuid != 0) {
			u->merged = 1;
			u->mdesc = d;
			u->mdesc.type = sutid != TT_NONE ? "thread_merged_track_event" :
					supid != TT_NONE ? "process_merged_track_event" : "global_merged_track_event";
			u->mk1 = sutid != TT_NONE ? (1ULL << 32) | sutid : supid != TT_NONE ? (2ULL << 32) | supid : 0;
			u->mk2 = u->has_parent ? u->parent : 0;
			u->mk3 = u->merge == 3 ? (1ULL << 32) | u->merge_key : d.name;
			return merged_track(c, u, kind);
		}
		break;
	}
	u->track = tt_storage_track_new(c->st, &d);
	return u->track;
}

static uint32_t rec_track(pctx *c, const prec *r)
{
	if ((r->track & (TRACK_UUID | TRACK_ASYNC)) == TRACK_ASYNC) {
		const akey *k = &c->akeys.v[r->track & ~TRACK_ASYNC];
		uint32_t t = tt_async_track(c->async, k->upid, k->scope, k->id, k->name,
					    r->kind == R_BEGIN ? TT_ASYNC_BEGIN :
					    r->kind == R_END ? TT_ASYNC_END : TT_ASYNC_INSTANT);
		if (t == TT_NONE)
			c->oom = 1;
		return t;
	}
	return (r->track & TRACK_UUID) ? resolve(c, r->track & ~TRACK_UUID, 0,
						  r->kind == R_COUNTER ? 0 : r->name,
						  r->kind == R_BEGIN ? TT_ASYNC_BEGIN :
						  r->kind == R_END ? TT_ASYNC_END :
						  r->kind == R_COMPLETE ? TT_ASYNC_INSTANT : TT_ASYNC_PEEK) : r->track;
}

static void feed_flows(pctx *c, tt_pmap *active, const prec *r, int64_t slice)
{
	size_t lo = 0, hi = c->flows.n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (c->flows.v[mid].ord < r->ord)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < c->flows.n && c->flows.v[lo].ord == r->ord; lo++) {
		const pflow *f = &c->flows.v[lo];
		uint64_t *last = tt_pmap_find(active, f->id);
		int live = last && *last;

		switch (f->kind) {
		case FL_STEP:
		case FL_INOUT:
			if (live)
				tt_storage_flow(c->st, (int64_t)(*last - 1), slice, TT_NONE);
			else if (f->kind == FL_INOUT)
				stat(c, TT_STAT_flow_unmatched);
			if (tt_pmap_put(active, f->id, (uint64_t)slice + 1))
				c->oom = 1;
			break;
		case FL_OUT:
			if (tt_pmap_put(active, f->id, (uint64_t)slice + 1))
				c->oom = 1;
			break;
		case FL_TERM:
			if (live) {
				tt_storage_flow(c->st, (int64_t)(*last - 1), slice, TT_NONE);
				*last = 0;
			}
			break;
		case FL_IN:
			/* trace processor: a legacy FLOW_IN links from the flow's
			 * last slice and leaves the flow open (more may come in) */
			if (live)
				tt_storage_flow(c->st, (int64_t)(*last - 1), slice, TT_NONE);
			else
				stat(c, TT_STAT_flow_unmatched);
			break;
		}
	}
}

/* A v1 flow event (legacy 's' / 't' / 'f'): binds to the slice enclosing
 * it on its track; an 'f' without bind_to_enclosing binds to the next
 * slice that begins there. */
static void feed_flow_v1(pctx *c, const prec *r, uint32_t track, tt_pmap *active)
{
	int64_t slice = tt_slice_tracker_enclosing(c->im->slices, track, r->ts);
	uint64_t key = (uint64_t)r->u.i, *last = tt_pmap_find(active, key);
	int live = last && *last;

	switch (r->flags & ~(F_TE | F_FPOS | F_CS)) {
	case V1_START:
		if (slice < 0) {
			stat(c, TT_STAT_flow_unmatched);
			return;
		}
		if (tt_pmap_put(active, key, (uint64_t)slice + 1))
			c->oom = 1;
		return;
	case V1_STEP:
		if (slice < 0 || !live) {
			stat(c, TT_STAT_flow_unmatched);
			return;
		}
		tt_storage_flow(c->st, (int64_t)(*last - 1), slice, TT_NONE);
		*last = (uint64_t)slice + 1;
		return;
	case V1_END_ENCLOSING:
		if (slice < 0 || !live) {
			stat(c, TT_STAT_flow_unmatched);
			return;
		}
		tt_storage_flow(c->st, (int64_t)(*last - 1), slice, TT_NONE);
		*last = 0;
		return;
	case V1_END:
		if (!live) {
			stat(c, TT_STAT_flow_unmatched);
			return;
		}
		if (tt_pmap_put(&c->v1_pending, track, *last))
			c->oom = 1;
		*last = 0;
		return;
	}
}

static void feed(pctx *c, const prec *r, tt_pmap *active, tt_pmap *open_tts)
{
	uint32_t track;
	int64_t id = -1;

	if ((r->flags & F_TE) && c->has_roi && r->ts < c->roi_ns) {
		stat(c, TT_STAT_track_event_dropped_packets_outside_of_range_of_interest);
		return;
	}
	c->feed_first_packet = (r->flags & F_FPOS) != 0;
	track = rec_track(c, r);

	if (track == TT_NONE)
		return;
	if (r->kind == R_FLOW_V1) {
		feed_flow_v1(c, r, track, active);
		return;
	}
	if (r->kind == R_STATE) {
		tt_proto_feed_state(c, r, track);
		return;
	}
	switch (r->kind) {
	case R_BEGIN:
		id = tt_slice_tracker_begin(c->im->slices, track, r->ts, r->cat, r->name, r->args);
		if (id >= 0 && (r->flags & F_TTS) && tt_pmap_put(open_tts, (uint64_t)id, (uint64_t)r->u.i))
			c->oom = 1;
		break;
	case R_END:
		id = tt_slice_tracker_end_match(c->im->slices, track, r->ts, r->cat, r->name, r->args);
		if (id >= 0 && (r->flags & F_TTS)) {
			uint64_t *b = tt_pmap_find(open_tts, (uint64_t)id);
			if (b)
				tt_storage_slice_set_thread_time(c->st, id, (int64_t)*b,
								 (int64_t)((uint64_t)r->u.i - *b));
		}
		break;
	case R_COMPLETE:
		id = tt_slice_tracker_complete(c->im->slices, track, r->ts, r->u.i, r->cat, r->name, r->args);
		break;
	case R_COUNTER:
		if (r->track & TRACK_UUID) {
			const utrack *u = &c->utracks.v[r->track & ~TRACK_UUID];
			if (u->kind != UT_COUNTER && u->described) {
				stat(c, TT_STAT_proto_counter_bad_track);
				return;
			}
		}
		tt_storage_counter(c->st, track, r->ts, r->u.d);
		return;
	}
	if (id >= 0 && (r->flags & F_FLOWS))
		feed_flows(c, active, r, id);
	if (id >= 0 && (r->flags & F_CS))
		tt_proto_feed_callstack(c, r, id, track);
	if (id >= 0 && c->v1_pending.n && r->kind != R_END) {
		uint64_t *src = tt_pmap_find(&c->v1_pending, track);

		if (src && *src) {
			tt_storage_flow(c->st, (int64_t)(*src - 1), id, TT_NONE);
			*src = 0;
		}
	}
}

/* Tournament ("loser") tree over the sequences' record lists: t[0] holds
 * the smallest next record by (ts, ord), each inner node the loser of the
 * match played there, and the leaves are the lists. Taking the winner
 * replays one leaf-to-root path: log2(k) matches, played without branches
 * because who wins is a coin toss when many threads interleave (a binary
 * heap's sift mispredicted half of its branches and was a third of the
 * merge). An entry keeps its record's key, so matches touch no record
 * memory: key = ord << 32 | leaf (ords are unique, so the leaf never
 * decides); exhausted and padding leaves hold the largest key and are never
 * taken, since the merge stops after `left` records. */
typedef struct lent {
	int64_t ts;
	uint64_t key;
} lent;

typedef struct mleaf {
	const prec *cur, *end;
} mleaf;

typedef struct merger {
	lent *t;
	mleaf *leaf;
	size_t k;        /* leaves, a power of two */
	uint64_t left;   /* records not taken yet */
} merger;

static int lent_less(const lent *a, const lent *b)
{
	return (a->ts < b->ts) | ((a->ts == b->ts) & (a->key < b->key));
}

static lent leaf_head(const mleaf *l, size_t j)
{
	lent e = { INT64_MAX, UINT64_MAX };

	if (l->cur < l->end) {
		e.ts = l->cur->ts;
		e.key = (uint64_t)l->cur->ord << 32 | j;
	}
	return e;
}

/* Sorts each list that needs it and plays the first round. */
static int merger_init(pctx *c, merger *m)
{
	size_t i, n = 0;
	lent *w;

	memset(m, 0, sizeof(*m));
	for (m->k = 1; m->k < c->seqs.n; m->k *= 2)
		;
	m->t = malloc(m->k * sizeof(*m->t));
	m->leaf = calloc(m->k, sizeof(*m->leaf));
	w = malloc(2 * m->k * sizeof(*w));
	if (!m->t || !m->leaf || !w) {
		free(w);
		return -1;
	}
	for (i = 0; i < c->seqs.n; i++) {
		pseq *s = c->seqs.v[i];
		if (!s->recs.n)
			continue;
		if (!s->sorted)
			qsort(s->recs.v, s->recs.n, sizeof(prec), rec_cmp);
		m->leaf[n].cur = s->recs.v;
		m->leaf[n++].end = s->recs.v + s->recs.n;
		m->left += s->recs.n;
	}
	for (i = 0; i < m->k; i++)
		w[m->k + i] = leaf_head(&m->leaf[i], i);
	for (i = m->k; i-- > 1;) {
		int a_wins = lent_less(&w[2 * i], &w[2 * i + 1]);
		w[i] = w[2 * i + !a_wins];
		m->t[i] = w[2 * i + a_wins];
	}
	m->t[0] = w[1];
	free(w);
	return 0;
}

/* The next record in (ts, ord) order; m->left must be > 0. */
static const prec *merger_next(merger *m)
{
	size_t j = (size_t)(m->t[0].key & 0xffffffffu), i;
	mleaf *l = &m->leaf[j];
	const prec *r = l->cur++;
	lent e = leaf_head(l, j);

	/* the lists are read in turns, too many streams for the hardware
	 * prefetcher: this list comes up again after about k others */
	if (l->end - l->cur > 3)
		__builtin_prefetch(l->cur + 3);
	for (i = (m->k + j) >> 1; i; i >>= 1) {
		lent x = m->t[i];
		uint64_t up = -(uint64_t)lent_less(&x, &e); /* all ones: x wins and goes on up */

		m->t[i].ts = (int64_t)(((uint64_t)e.ts & up) | ((uint64_t)x.ts & ~up));
		m->t[i].key = (e.key & up) | (x.key & ~up);
		e.ts = (int64_t)(((uint64_t)x.ts & up) | ((uint64_t)e.ts & ~up));
		e.key = (x.key & up) | (e.key & ~up);
	}
	m->t[0] = e;
	m->left--;
	return r;
}

static void merger_free(merger *m)
{
	free(m->t);
	free(m->leaf);
}

/* The merge runs on a thread of its own while the importing thread feeds
 * the trackers (feed() is about as costly as the merge, and the trackers
 * and storage stay on one thread). The merge thread copies records in
 * order into a ring of chunks: the feeding thread then reads them in
 * sequence instead of chasing k lists. */
#define MCHUNK 2048
#define MCHUNKS 4

typedef struct mpipe {
	merger *m;
	prec *chunk[MCHUNKS];
	size_t fill[MCHUNKS];
	size_t head, tail;       /* chunks taken / filled */
	int done;
	atomic_int stop;
	pthread_mutex_t mu;
	pthread_cond_t cv;
} mpipe;

static void *merge_thread(void *arg)
{
	mpipe *p = arg;

	pthread_mutex_lock(&p->mu);
	while (!p->done && !atomic_load(&p->stop)) {
		size_t k = p->tail % MCHUNKS, n = 0;

		if (p->tail - p->head == MCHUNKS) {
			pthread_cond_wait(&p->cv, &p->mu);
			continue;
		}
		pthread_mutex_unlock(&p->mu);
		while (n < MCHUNK && p->m->left)
			p->chunk[k][n++] = *merger_next(p->m);
		pthread_mutex_lock(&p->mu);
		p->fill[k] = n;
		p->tail++;
		p->done = !p->m->left;
		pthread_cond_broadcast(&p->cv);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* Feeds the merged records from the merge thread. Returns 0, or -1 when
 * the thread could not be set up (nothing fed then). */
static int feed_piped(pctx *c, merger *m, tt_pmap *active, tt_pmap *open_tts)
{
	mpipe p;
	pthread_t th;
	uint64_t fed = 0;
	size_t i;
	int rc = -1;

	memset(&p, 0, sizeof(p));
	p.m = m;
	atomic_init(&p.stop, 0);
	for (i = 0; i < MCHUNKS; i++)
		if (!(p.chunk[i] = malloc(MCHUNK * sizeof(prec))))
			goto out;
	if (pthread_mutex_init(&p.mu, NULL))
		goto out;
	if (pthread_cond_init(&p.cv, NULL)) {
		pthread_mutex_destroy(&p.mu);
		goto out;
	}
	if (pthread_create(&th, NULL, merge_thread, &p)) {
		pthread_cond_destroy(&p.cv);
		pthread_mutex_destroy(&p.mu);
		goto out;
	}
	rc = 0;
	pthread_mutex_lock(&p.mu);
	for (;;) {
		size_t k = p.head % MCHUNKS, n;

		if (p.head == p.tail) {
			if (p.done)
				break;
			pthread_cond_wait(&p.cv, &p.mu);
			continue;
		}
		n = p.fill[k];
		pthread_mutex_unlock(&p.mu);
		for (i = 0; i < n; i++)
			feed(c, &p.chunk[k][i], active, open_tts);
		fed += n;
		pthread_mutex_lock(&p.mu);
		p.head++;
		pthread_cond_broadcast(&p.cv);
		if ((fed & ~(uint64_t)0xffff) != ((fed - n) & ~(uint64_t)0xffff) && tt_import_cancelled(c->im)) {
			atomic_store(&p.stop, 1);
			break;
		}
	}
	pthread_mutex_unlock(&p.mu);
	pthread_join(th, NULL);
	pthread_cond_destroy(&p.cv);
	pthread_mutex_destroy(&p.mu);
out:
	for (i = 0; i < MCHUNKS; i++)
		free(p.chunk[i]);
	return rc;
}

int tt_proto_merge_and_feed(pctx *c)
{
	merger m;
	tt_pmap active = {0}, open_tts = {0};
	size_t i;

	if (merger_init(c, &m)) {
		merger_free(&m);
		return -1;
	}
	if (!c->threaded || feed_piped(c, &m, &active, &open_tts)) {
		while (m.left) {
			feed(c, merger_next(&m), &active, &open_tts);
			if ((m.left & 0xffff) == 0 && tt_import_cancelled(c->im))
				break;
		}
	}
	merger_free(&m);
	for (i = 0; i < c->seqs.n; i++)
		TT_VEC_FREE(c->seqs.v[i]->recs);
	tt_pmap_free(&active);
	tt_pmap_free(&open_tts);
	return 0;
}
