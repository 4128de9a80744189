/*
 * proto_cpu_uid.c - Android's cpu time per uid (CpuPerUidData packets of
 * the android.cpu_per_uid data source), as trace processor's
 * AndroidCpuPerUidModule reads them while tokenizing. See import_proto.c
 * for the importer as a whole.
 *
 * A packet lists uids and, for each, one time (ms) per cluster (the
 * sequence's cluster_count, given by its first packet): absolute in a
 * sequence's first packet, then deltas added to the sequence's values. A
 * uid whose times end early gets only those; times past the last uid are
 * not read. Each packet then writes:
 *   - "CPU for UID <uid> CL<n>" (android_cpu_per_uid, unit ms,
 *     dimensions uid and cluster): the sequence's value of each uid and
 *     cluster, but for isolated and sdk-sandbox uids (app ids 50000-59999
 *     and 90000-99999), which are grouped (uid - uid % 10000) into a
 *     track of their growth since the trace began;
 *   - "CPU for System CL<n>" / "CPU for Apps CL<n>"
 *     (android_cpu_per_uid_totals, dimensions type and cluster): the
 *     growth since the trace began of uids with app id below 10000, and
 *     of the others.
 * As trace processor's sparse counters, a value equal to the track's
 * last one is not written, unless the next differs: then the last is
 * written at its own time. At the end every grouped uid's growth and every
 * counted uid and cluster is a row of __intrinsic_android_cpu_per_uid_track
 * (by track).
 *
 * A sequence's incremental state clear forgets its cluster count and
 * values (trace processor's custom state goes with the interned data).
 */
#include "proto_int.h"

#include <stdio.h>

/* A map of (a, b, c) -> a 64-bit value, its entries in insertion order. */
struct uent {
	uint64_t a, b, c, v;
	int64_t ts;   /* sparse counters: the last value's time */
	int written;  /* sparse counters: the last value was written */
};
struct utab {
	TT_VEC(struct uent) e;
	tt_keymap at;
};

struct pcpuuid {
	struct utab clusters; /* seq -> cluster_count, and (ts) its clears so far */
	struct utab last;     /* (seq | clears << 32, uid, cluster) -> the sequence's value */
	struct utab global;   /* (uid, cluster) -> the last value of any sequence */
	struct utab cumul;    /* (grouped uid, cluster) -> growth since the start */
	struct utab totals;   /* (0 System / 1 Apps, cluster) -> growth */
	struct utab sparse;   /* track -> its last value (v as a double's bits) */
};

/* The entry of (a, b, c), made with value 0 when new (*made set). NULL
 * out of memory. Pointers last until the next insertion. */
static struct uent *uget(struct utab *t, uint64_t a, uint64_t b, uint64_t c, int *made)
{
	uint32_t i = tt_keymap_get(&t->at, a, b, c, 0);
	struct uent e = { a, b, c, 0, 0, 0 };

	*made = 0;
	if (i != TT_KEYMAP_NONE)
		return &t->e.v[i];
	if (TT_VEC_PUSH(t->e, e) || tt_keymap_put(&t->at, a, b, c, 0, (uint32_t)(t->e.n - 1)))
		return NULL;
	*made = 1;
	return &t->e.v[t->e.n - 1];
}

static void ufree(struct utab *t)
{
	TT_VEC_FREE(t->e);
	tt_keymap_free(&t->at);
}

void tt_proto_cpu_uid_free(pctx *c)
{
	struct pcpuuid *u = c->cpu_uid;

	if (!u)
		return;
	ufree(&u->clusters);
	ufree(&u->last);
	ufree(&u->global);
	ufree(&u->cumul);
	ufree(&u->totals);
	ufree(&u->sparse);
	free(u);
	c->cpu_uid = NULL;
}

void tt_proto_cpu_uid_cleared(pctx *c, uint32_t seq)
{
	int made;
	struct uent *cc = c->cpu_uid ? uget(&c->cpu_uid->clusters, seq, 0, 0, &made) : NULL;

	if (!cc) {
		c->oom |= c->cpu_uid != NULL;
		return;
	}
	cc->v = 0;
	cc->ts++;
}

static int grouped(uint32_t uid)
{
	uint32_t app = uid % 100000;

	return (app >= 50000 && app < 60000) || (app >= 90000 && app < 100000);
}

static uint32_t uid_track(pctx *c, uint32_t uid, uint32_t cluster)
{
	char name[64];
	tt_track_desc d = { .type = "android_cpu_per_uid", .utid = TT_NONE, .upid = TT_NONE, .parent_id = TT_NONE,
			    .is_counter = 1, .unit = intern_c(c, "ms"), .cpu = -1 };
	uint32_t t;

	snprintf(name, sizeof(name), "CPU for UID %u CL%u", uid, cluster);
	d.name = intern_c(c, name);
	t = tt_track_tracker_keyed(c->im->tracks, d.type, uid, cluster, 0, &d);
	if (tt_proto_dims_begin(c, t)) {
		tt_storage_args_uint(c->st, "uid", uid);
		tt_storage_args_uint(c->st, "cluster", cluster);
		tt_proto_dims_end(c, t);
	}
	return t;
}

static uint32_t totals_track(pctx *c, const char *type, uint32_t cluster)
{
	char name[64];
	tt_track_desc d = { .type = "android_cpu_per_uid_totals", .utid = TT_NONE, .upid = TT_NONE,
			    .parent_id = TT_NONE, .is_counter = 1, .unit = intern_c(c, "ms"), .cpu = -1 };
	uint32_t t;

	snprintf(name, sizeof(name), "CPU for %s CL%u", type, cluster);
	d.name = intern_c(c, name);
	t = tt_track_tracker_keyed(c->im->tracks, d.type, intern_c(c, type), cluster, 0, &d);
	if (tt_proto_dims_begin(c, t)) {
		tt_storage_args_str(c->st, "type", type, strlen(type));
		tt_storage_args_uint(c->st, "cluster", cluster);
		tt_proto_dims_end(c, t);
	}
	return t;
}

/* trace processor's SparseCounterTracker::PushCounter. */
static void sparse(pctx *c, pseq *s, int64_t ts, uint32_t track, double v)
{
	int made;
	struct uent *e = track != TT_NONE ? uget(&c->cpu_uid->sparse, track, 0, 0, &made) : NULL;
	double last;

	if (!e) {
		c->oom |= track != TT_NONE;
		return;
	}
	memcpy(&last, &e->v, sizeof(last));
	if (!made && last != v && !e->written)
		tt_proto_push_value(c, s, e->ts, track, last);
	e->written = made || last != v;
	if (e->written)
		tt_proto_push_value(c, s, ts, track, v);
	memcpy(&e->v, &v, sizeof(v));
	e->ts = ts;
}

/* One time of (uid, cluster) into the sequence's values; its growth
 * over the last value any sequence gave counted for the grouped uid and
 * the totals. 0, -1 out of memory. */
static int add_time(struct pcpuuid *u, uint64_t seq, uint32_t uid, uint32_t cluster, uint64_t t)
{
	int made;
	struct uent *e = uget(&u->last, seq, uid, cluster, &made), *g;
	uint64_t v, delta = 0;

	if (!e)
		return -1;
	e->v = made ? t : e->v + t;
	v = e->v;
	if (!(g = uget(&u->global, uid, cluster, 0, &made)))
		return -1;
	if (made)
		g->v = v;
	if (v > g->v)
		delta = v - g->v;
	g->v = v;
	if (grouped(uid))
		uid -= uid % 10000;
	if (!(e = uget(&u->cumul, uid, cluster, 0, &made)))
		return -1;
	e->v += delta;
	if (!(e = uget(&u->totals, uid % 100000 < 10000 ? 0 : 1, cluster, 0, &made)))
		return -1;
	e->v += delta;
	return 0;
}

void tt_proto_on_cpu_per_uid(pctx *c, pseq *s, const Perfetto__Protos__CpuPerUidData *d, int64_t ts)
{
	struct pcpuuid *u = c->cpu_uid;
	struct uent *cc;
	uint32_t clusters, cluster = 0;
	uint64_t seq;
	size_t ui = 0;
	int made;

	if (!u && !(u = c->cpu_uid = calloc(1, sizeof(*u)))) {
		c->oom = 1;
		return;
	}
	if (!(cc = uget(&u->clusters, s->id, 0, 0, &made))) {
		c->oom = 1;
		return;
	}
	if (d->has_cluster_count)
		cc->v = d->cluster_count;
	clusters = (uint32_t)cc->v;
	seq = (uint64_t)cc->ts << 32 | s->id;
	for (size_t ti = 0; ui < d->n_uid && ti < d->n_total_time_ms; ti++) {
		if (add_time(u, seq, d->uid[ui], cluster, d->total_time_ms[ti])) {
			c->oom = 1;
			return;
		}
		if (++cluster >= clusters) {
			cluster = 0;
			ui++;
		}
	}
	for (size_t i = 0; i < u->totals.e.n; i++) {
		const struct uent *e = &u->totals.e.v[i];

		sparse(c, s, ts, totals_track(c, e->a ? "Apps" : "System", (uint32_t)e->b), (double)e->v);
	}
	for (size_t i = 0; i < u->cumul.e.n; i++) {
		const struct uent *e = &u->cumul.e.v[i];

		if (grouped((uint32_t)e->a))
			sparse(c, s, ts, uid_track(c, (uint32_t)e->a, (uint32_t)e->b), (double)e->v);
	}
	for (size_t i = 0; i < u->last.e.n; i++) {
		const struct uent *e = &u->last.e.v[i];

		if (e->a == seq && !grouped((uint32_t)e->b))
			sparse(c, s, ts, uid_track(c, (uint32_t)e->b, (uint32_t)e->c), (double)e->v);
	}
}

static int by_track(const void *a, const void *b)
{
	uint32_t x = ((const uint32_t *)a)[0], y = ((const uint32_t *)b)[0];

	return x < y ? -1 : x > y;
}

void tt_proto_cpu_uid_finish(pctx *c)
{
	struct pcpuuid *u = c->cpu_uid;
	uint32_t (*rows)[2];
	size_t n;

	if (!u || !(n = u->cumul.e.n))
		return;
	if (!(rows = malloc(n * sizeof(*rows)))) {
		c->oom = 1;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		rows[i][0] = uid_track(c, (uint32_t)u->cumul.e.v[i].a, (uint32_t)u->cumul.e.v[i].b);
		rows[i][1] = (uint32_t)i;
	}
	qsort(rows, n, sizeof(*rows), by_track);
	for (size_t i = 0; i < n; i++) {
		const struct uent *e = &u->cumul.e.v[rows[i][1]];

		if (tt_storage_cpu_per_uid(c->st, rows[i][0], (int64_t)e->a, (int64_t)e->b, (int64_t)e->v))
			c->oom = 1;
	}
	free(rows);
}
