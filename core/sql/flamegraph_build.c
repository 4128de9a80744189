/*
 * flamegraph_build.c - builds a flamegraph from its source tree and config
 * (see flamegraph.c for the SQL and the semantics): per source row the
 * frame identity (name and grouping values), the filters' matches and the
 * nearest kept frame; the merged downward half (TOP_DOWN, PIVOT,
 * FROM_FRAME) and upward half (BOTTOM_UP, PIVOT) as interned (parent,
 * frame) nodes; the values' self and cumulative sums; the aggregates; and
 * the layout (breadth first, siblings widest first).
 */
#include "flamegraph_int.h"

#include <stdlib.h>

/* Merged nodes: (parent, frame hash) -> node, first row = representative. */
struct interner {
	uint32_t *parent, *rep;
	uint64_t *hash;
	uint32_t n, cap;
	uint32_t *slots; /* open addressing: node + 1, 0 = empty */
	uint32_t nslots;
};

static uint64_t mix(uint64_t h, uint32_t parent)
{
	h ^= (uint64_t)parent * 0x9e3779b97f4a7c15ull;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	return h ^ (h >> 32);
}

static int intern_grow(struct interner *in)
{
	uint32_t ns = in->nslots ? in->nslots * 2 : 64;
	uint32_t *s = calloc(ns, sizeof(*s));

	if (!s)
		return -1;
	for (uint32_t i = 0; i < in->n; i++) {
		uint32_t k = (uint32_t)mix(in->hash[i], in->parent[i]) & (ns - 1);

		while (s[k])
			k = (k + 1) & (ns - 1);
		s[k] = i + 1;
	}
	free(in->slots);
	in->slots = s;
	in->nslots = ns;
	return 0;
}

/* The node for (parent, hash), made with representative row `row` if new;
 * NONE when memory ran out. */
static uint32_t intern(struct interner *in, uint32_t parent, uint64_t hash, uint32_t row)
{
	uint32_t k;

	if ((in->n + 1) * 2 > in->nslots && intern_grow(in))
		return NONE;
	k = (uint32_t)mix(hash, parent) & (in->nslots - 1);
	while (in->slots[k]) {
		uint32_t node = in->slots[k] - 1;

		if (in->hash[node] == hash && in->parent[node] == parent)
			return node;
		k = (k + 1) & (in->nslots - 1);
	}
	if (in->n == in->cap) {
		uint32_t cap = in->cap ? in->cap * 2 : 64;
		uint32_t *p = realloc(in->parent, cap * sizeof(*p));
		uint32_t *r = p ? realloc(in->rep, cap * sizeof(*r)) : NULL;
		uint64_t *h;

		if (p)
			in->parent = p;
		if (r)
			in->rep = r;
		h = r ? realloc(in->hash, cap * sizeof(*h)) : NULL;
		if (!h)
			return NONE;
		in->hash = h;
		in->cap = cap;
	}
	in->parent[in->n] = parent;
	in->rep[in->n] = row;
	in->hash[in->n] = hash;
	in->slots[k] = in->n + 1;
	return in->n++;
}

static void interner_free(struct interner *in)
{
	free(in->parent);
	free(in->rep);
	free(in->hash);
	free(in->slots);
}

void tt_flamegraph_result_free(struct fg_result *r)
{
	if (!r)
		return;
	/* a result that failed half-way has some arrays still NULL */
	for (int v = 0; v < r->nv; v++) {
		if (r->self_d)
			free(r->self_d[v]);
		if (r->cum_d)
			free(r->cum_d[v]);
		if (r->self_i)
			free(r->self_i[v]);
		if (r->cum_i)
			free(r->cum_i[v]);
	}
	for (int a = 0; r->ag && a < r->nag; a++) {
		for (uint32_t k = 0; r->ag[a] && k < r->nag_nodes; k++)
			sqlite3_free(r->ag[a][k].s);
		free(r->ag[a]);
	}
	free(r->self_d);
	free(r->cum_d);
	free(r->self_i);
	free(r->cum_i);
	free(r->ag);
	free(r->agcol);
	free(r->gcol);
	free(r->vcol);
	free(r->node);
	free(r->parent_row);
	free(r->x);
	free(r->depth);
	free(r->rep);
	free(r->pparent);
	free(r);
}

/* Text of a cell for matching and for aggregates: SQLite's rendering. */
static void cell_text(sqlite3_value *v, char *buf, size_t len)
{
	switch (sqlite3_value_type(v)) {
	case SQLITE_INTEGER:
		sqlite3_snprintf((int)len, buf, "%lld", (long long)sqlite3_value_int64(v));
		break;
	case SQLITE_FLOAT:
		sqlite3_snprintf((int)len, buf, "%!.15g", sqlite3_value_double(v));
		break;
	case SQLITE_NULL:
		buf[0] = 0;
		break;
	default:
		sqlite3_snprintf((int)len, buf, "%s", (const char *)sqlite3_value_text(v));
	}
}

struct upath { uint32_t root, leaf; };

struct builder {
	const struct fg_table *t;
	const struct fg_config *c;
	uint32_t n;
	int *gcol;              /* grouping columns' source indexes */
	uint64_t *hash;         /* row -> frame identity */
	uint32_t *retained;     /* row -> nearest kept frame or NONE */
	uint64_t *bits;         /* row -> SHOW_STACK bits | HIDE_BIT */
	unsigned char *vmatch;  /* row -> matches the view pattern */
	uint64_t required;
	struct interner down, up;
	uint32_t *dnode;        /* row -> downward node or NONE */
	struct upath *bu;       /* frame -> bottom-up path */
	struct { uint32_t frame; struct upath path; } *anchors;
	uint32_t nanchors;
	struct { uint32_t frame, node; } *cons; /* upward aggregate constituents */
	size_t ncons, capcons;
	int want_cons;
};

static int contributes(const struct builder *b, uint32_t r)
{
	return b->retained[r] != NONE && b->bits[r] == b->required;
}

static int match(const regex_t *re, const char *s)
{
	return regexec(re, s, 0, NULL, 0) == 0;
}

static void analyze(struct builder *b)
{
	const struct fg_table *t = b->t;
	const struct fg_config *c = b->c;
	char buf[512];

	for (uint32_t r = 0; r < b->n; r++) {
		uint32_t p = t->parent[r];
		uint64_t h = 0xcbf29ce484222325ull, show = 0;
		int hide_stack = 0, hide_frame = 0, vm = 0;

		for (int k = -1; k < b->c->ngrouping; k++) {
			sqlite3_value *v = cell(t, r, k < 0 ? 2 : b->gcol[k]);
			int ty = sqlite3_value_type(v);

			cell_text(v, buf, sizeof(buf));
			h ^= (uint64_t)ty;
			h *= 0x100000001b3ull;
			for (const char *s = buf; *s; s++) {
				h ^= (unsigned char)*s;
				h *= 0x100000001b3ull;
			}
			h ^= 0xff;
			h *= 0x100000001b3ull;
			if (ty == SQLITE_NULL)
				continue; /* NULL matches nothing, not even ^$ */
			for (int i = 0; i < c->nshow; i++)
				if (match(&c->show[i].re, buf))
					show |= 1ull << i;
			for (int i = 0; i < c->nhide_stack; i++)
				hide_stack |= match(&c->hide_stack[i].re, buf);
			for (int i = 0; i < c->nhide_frame; i++)
				hide_frame |= match(&c->hide_frame[i].re, buf);
			if (c->view_pat.ok)
				vm |= match(&c->view_pat.re, buf);
		}
		b->hash[r] = h;
		if (hide_frame) {
			b->retained[r] = p == NONE ? NONE : b->retained[p];
			b->bits[r] = p == NONE ? 0 : b->bits[p];
			b->vmatch[r] = 0;
			continue;
		}
		b->retained[r] = r;
		b->vmatch[r] = (unsigned char)vm;
		b->bits[r] = hide_stack ? HIDE_BIT : show | (p == NONE ? 0 : b->bits[p]);
	}
}

static int build_down(struct builder *b)
{
	const struct fg_table *t = b->t;
	int view = b->c->view;

	for (uint32_t r = 0; r < b->n; r++) {
		uint32_t p = t->parent[r];
		uint32_t pn = p == NONE ? NONE : b->dnode[p];
		int has_kept_parent, starts;

		b->dnode[r] = NONE;
		if (view == V_BOTTOM_UP)
			continue;
		if (b->retained[r] != r) {
			b->dnode[r] = pn;
			continue;
		}
		has_kept_parent = p != NONE && b->retained[p] != NONE;
		starts = (b->c->view_pat.ok && b->vmatch[r]) || (view == V_TOP_DOWN && !has_kept_parent);
		if (!starts && pn == NONE)
			continue;
		b->dnode[r] = intern(&b->down, starts ? NONE : pn, b->hash[r], r);
		if (b->dnode[r] == NONE)
			return SQLITE_NOMEM;
	}
	return SQLITE_OK;
}

static int up_path(struct builder *b, uint32_t frame, int with_cons, struct upath *out)
{
	uint32_t upp = NONE;

	out->root = NONE;
	while (frame != NONE) {
		uint32_t p = b->t->parent[frame];

		upp = intern(&b->up, upp, b->hash[frame], frame);
		if (upp == NONE)
			return SQLITE_NOMEM;
		if (out->root == NONE)
			out->root = upp;
		if (with_cons && b->want_cons) {
			if (b->ncons == b->capcons) {
				size_t cap = b->capcons ? b->capcons * 2 : 64;
				void *v = realloc(b->cons, cap * sizeof(*b->cons));

				if (!v)
					return SQLITE_NOMEM;
				b->cons = v;
				b->capcons = cap;
			}
			b->cons[b->ncons].frame = frame;
			b->cons[b->ncons++].node = upp;
		}
		frame = p == NONE ? NONE : b->retained[p];
	}
	out->leaf = upp;
	return SQLITE_OK;
}

static double num(sqlite3_value *v)
{
	return sqlite3_value_double(v);
}

static int build_up(struct builder *b, char **err)
{
	const struct fg_table *t = b->t;

	if (b->c->view == V_PIVOT) {
		b->anchors = malloc((b->n ? b->n : 1) * sizeof(*b->anchors));
		if (!b->anchors)
			return SQLITE_NOMEM;
		for (uint32_t r = 0; r < b->n; r++) {
			if (!b->vmatch[r])
				continue;
			b->anchors[b->nanchors].frame = r;
			if (up_path(b, r, contributes(b, r), &b->anchors[b->nanchors].path))
				return SQLITE_NOMEM;
			b->nanchors++;
		}
	} else if (b->c->view == V_BOTTOM_UP) {
		unsigned char *active = calloc(b->n ? b->n : 1, 1);

		b->bu = malloc((b->n ? b->n : 1) * sizeof(*b->bu));
		if (!active || !b->bu) {
			free(active);
			return SQLITE_NOMEM;
		}
		for (uint32_t r = 0; r < b->n; r++) {
			b->bu[r].root = b->bu[r].leaf = NONE;
			for (int v = 0; v < b->c->nvalues; v++) {
				sqlite3_value *x = cell(t, r, col_index(t, b->c->values[v]));

				if (sqlite3_value_type(x) == SQLITE_NULL)
					continue;
				if (num(x) < 0) {
					free(active);
					*err = sqlite3_mprintf("flamegraph: value columns must be non-negative");
					return SQLITE_ERROR;
				}
				if (num(x) != 0 && contributes(b, r))
					active[b->retained[r]] = 1;
			}
		}
		for (uint32_t r = 0; r < b->n; r++)
			if (active[r] && up_path(b, r, 1, &b->bu[r])) {
				free(active);
				return SQLITE_NOMEM;
			}
		free(active);
	}
	return SQLITE_OK;
}

/* Self and cumulative sums of value column `col` over the combined node
 * space (downward nodes, then upward ones). */
static int metric(struct builder *b, int col, double *self_d, double *cum_d, int64_t *self_i,
		  int64_t *cum_i, char **err)
{
	const struct fg_table *t = b->t;
	uint32_t nd = b->down.n, nu = b->up.n;
	int view = b->c->view;

#define ADD(arr_d, arr_i, k, v, vi) ((arr_d)[k] += (v), (arr_i)[k] += (vi))
	if (view != V_BOTTOM_UP) {
		for (uint32_t r = 0; r < b->n; r++) {
			sqlite3_value *x = cell(t, r, col);

			if (sqlite3_value_type(x) == SQLITE_NULL)
				continue;
			if (num(x) < 0) {
				*err = sqlite3_mprintf("flamegraph: value columns must be non-negative");
				return SQLITE_ERROR;
			}
			if (b->dnode[r] != NONE && contributes(b, r)) {
				ADD(self_d, self_i, b->dnode[r], num(x), sqlite3_value_int64(x));
				ADD(cum_d, cum_i, b->dnode[r], num(x), sqlite3_value_int64(x));
			}
		}
		for (uint32_t k = nd; k-- > 0;)
			if (b->down.parent[k] != NONE)
				ADD(cum_d, cum_i, b->down.parent[k], cum_d[k], cum_i[k]);
	}
	if (view == V_BOTTOM_UP) {
		for (uint32_t r = 0; r < b->n; r++) {
			sqlite3_value *x = cell(t, r, col);
			struct upath p;

			if (sqlite3_value_type(x) == SQLITE_NULL || num(x) == 0 || !contributes(b, r))
				continue;
			p = b->bu[b->retained[r]];
			ADD(self_d, self_i, nd + p.root, num(x), sqlite3_value_int64(x));
			ADD(cum_d, cum_i, nd + p.leaf, num(x), sqlite3_value_int64(x));
		}
	} else if (view == V_PIVOT) {
		double *wd = calloc(b->n ? b->n : 1, sizeof(*wd));
		int64_t *wi = calloc(b->n ? b->n : 1, sizeof(*wi));

		if (!wd || !wi) {
			free(wd);
			free(wi);
			return SQLITE_NOMEM;
		}
		for (uint32_t r = 0; r < b->n; r++) {
			sqlite3_value *x = cell(t, r, col);

			if (sqlite3_value_type(x) != SQLITE_NULL && b->dnode[r] != NONE && contributes(b, r))
				ADD(wd, wi, b->retained[r], num(x), sqlite3_value_int64(x));
		}
		for (uint32_t r = b->n; r-- > 0;) {
			uint32_t p = t->parent[r];

			if (b->retained[r] != r || b->dnode[r] == NONE || b->down.parent[b->dnode[r]] == NONE ||
			    p == NONE || b->retained[p] == NONE)
				continue;
			ADD(wd, wi, b->retained[p], wd[r], wi[r]);
		}
		for (uint32_t a = 0; a < b->nanchors; a++) {
			uint32_t f = b->anchors[a].frame;

			ADD(self_d, self_i, nd + b->anchors[a].path.root, wd[f], wi[f]);
			ADD(cum_d, cum_i, nd + b->anchors[a].path.leaf, wd[f], wi[f]);
		}
		free(wd);
		free(wi);
	}
	for (uint32_t k = nu; k-- > 0;)
		if (b->up.parent[k] != NONE)
			ADD(cum_d, cum_i, nd + b->up.parent[k], cum_d[nd + k], cum_i[nd + k]);
#undef ADD
	return SQLITE_OK;
}

/* Aggregate state of one node. */
struct agg {
	int kind, is_int, has;
	int64_t si;
	double sd;
	sqlite3_str *text;
	char *first;
	char **seen;
	size_t nseen, capseen;
};

static void agg_add(struct agg *a, sqlite3_value *v)
{
	char buf[512];

	if (sqlite3_value_type(v) == SQLITE_NULL)
		return;
	if (a->kind == AG_SUM) {
		a->si += sqlite3_value_int64(v);
		a->sd += sqlite3_value_double(v);
		a->has = 1;
		return;
	}
	cell_text(v, buf, sizeof(buf));
	if (a->kind == AG_CONCAT) {
		if (a->has)
			sqlite3_str_appendchar(a->text, 1, ',');
		sqlite3_str_appendall(a->text, buf);
		a->has = 1;
		return;
	}
	if (!a->has) {
		a->first = sqlite3_mprintf("%s", buf);
		a->has = 1;
	}
	for (size_t i = 0; i < a->nseen; i++)
		if (strcmp(a->seen[i], buf) == 0)
			return;
	if (a->nseen == a->capseen) {
		size_t cap = a->capseen ? a->capseen * 2 : 8;
		char **s = sqlite3_realloc64(a->seen, cap * sizeof(*s));

		if (!s)
			return;
		a->seen = s;
		a->capseen = cap;
	}
	a->seen[a->nseen++] = sqlite3_mprintf("%s", buf);
}

static struct fg_aggval agg_end(struct agg *a)
{
	struct fg_aggval out = { SQLITE_NULL, 0, 0, NULL };
	char *txt = a->text ? sqlite3_str_finish(a->text) : NULL;

	a->text = NULL;
	if (a->has) {
		if (a->kind == AG_SUM) {
			out.type = a->is_int ? SQLITE_INTEGER : SQLITE_FLOAT;
			out.i = a->si;
			out.d = a->sd;
		} else if (a->kind == AG_CONCAT) {
			out.type = SQLITE_TEXT;
			out.s = txt;
			txt = NULL;
		} else {
			out.type = SQLITE_TEXT;
			out.s = a->nseen > 1 ? sqlite3_mprintf("%s and %d others", a->first, (int)a->nseen)
					     : sqlite3_mprintf("%s", a->first);
		}
	}
	sqlite3_free(txt);
	sqlite3_free(a->first);
	for (size_t i = 0; i < a->nseen; i++)
		sqlite3_free(a->seen[i]);
	sqlite3_free(a->seen);
	return out;
}

/* Aggregates over the combined node space: a node's frames (downward:
 * kept frames that count; upward: the path constituents), each frame's
 * rows (itself and the hidden frames folded into it, stacks not hidden). */
static int aggregates(struct builder *b, int col, int kind, struct fg_aggval *out)
{
	const struct fg_table *t = b->t;
	uint32_t nd = b->down.n, nodes = nd + b->up.n;
	uint32_t *foff = calloc((size_t)b->n + 1, sizeof(*foff));
	uint32_t *frows = malloc((b->n ? b->n : 1) * sizeof(*frows));
	uint32_t *ffill = malloc(((size_t)b->n + 1) * sizeof(*ffill));
	uint32_t *noff = calloc((size_t)nodes + 1, sizeof(*noff));
	uint32_t *nfr = malloc(((size_t)b->n + b->ncons + 1) * sizeof(*nfr));
	uint32_t *nfill = malloc(((size_t)nodes + 1) * sizeof(*nfill));
	int rc = SQLITE_NOMEM;

	if (!foff || !frows || !ffill || !noff || !nfr || !nfill)
		goto done;
	for (uint32_t r = 0; r < b->n; r++)
		if (b->retained[r] != NONE && !(b->bits[r] & HIDE_BIT))
			foff[b->retained[r] + 1]++;
	for (uint32_t f = 0; f < b->n; f++)
		foff[f + 1] += foff[f];
	memcpy(ffill, foff, ((size_t)b->n + 1) * sizeof(*ffill));
	for (uint32_t r = 0; r < b->n; r++)
		if (b->retained[r] != NONE && !(b->bits[r] & HIDE_BIT))
			frows[ffill[b->retained[r]]++] = r;
	for (uint32_t f = 0; f < b->n; f++)
		if (b->retained[f] == f && b->dnode[f] != NONE && contributes(b, f))
			noff[b->dnode[f] + 1]++;
	for (size_t k = 0; k < b->ncons; k++)
		noff[nd + b->cons[k].node + 1]++;
	for (uint32_t k = 0; k < nodes; k++)
		noff[k + 1] += noff[k];
	memcpy(nfill, noff, ((size_t)nodes + 1) * sizeof(*nfill));
	for (uint32_t f = 0; f < b->n; f++)
		if (b->retained[f] == f && b->dnode[f] != NONE && contributes(b, f))
			nfr[nfill[b->dnode[f]]++] = f;
	for (size_t k = 0; k < b->ncons; k++)
		nfr[nfill[nd + b->cons[k].node]++] = b->cons[k].frame;
	for (uint32_t k = 0; k < nodes; k++) {
		struct agg a = { kind, t->is_int[col], 0, 0, 0, NULL, NULL, NULL, 0, 0 };

		if (kind == AG_CONCAT)
			a.text = sqlite3_str_new(NULL);
		for (uint32_t i = noff[k]; i < noff[k + 1]; i++) {
			uint32_t f = nfr[i];

			for (uint32_t j = foff[f]; j < foff[f + 1]; j++)
				agg_add(&a, cell(t, frows[j], col));
		}
		out[k] = agg_end(&a);
	}
	rc = SQLITE_OK;
done:
	free(foff);
	free(frows);
	free(ffill);
	free(noff);
	free(nfr);
	free(nfill);
	return rc;
}

struct wnode { double w; uint32_t k; };

static int by_width(const void *a, const void *b)
{
	const struct wnode *x = a, *y = b;

	if (x->w != y->w)
		return x->w > y->w ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

/* Breadth-first order, siblings widest first, children packed inside
 * their parent from its x; the downward and upward roots are two strips
 * from x = 0, merged by x (downward first). */
static int layout(struct fg_result *res)
{
	uint32_t np = res->np, nd_roots = 0, nu_roots = 0, tail = 0;
	struct wnode *order = malloc((np ? np : 1) * sizeof(*order));
	uint32_t *coff = calloc((size_t)np + 1, sizeof(*coff));
	uint32_t *cfill = malloc(((size_t)np + 1) * sizeof(*cfill));
	uint32_t *kids = malloc((np ? np : 1) * sizeof(*kids));
	uint32_t *droots = malloc((np ? np : 1) * sizeof(*droots));
	uint32_t *uroots = malloc((np ? np : 1) * sizeof(*uroots));
	double *w = malloc((np ? np : 1) * sizeof(*w));
	double *x = malloc((np ? np : 1) * sizeof(*x));
	int rc = SQLITE_NOMEM;

	res->node = malloc((np ? np : 1) * sizeof(*res->node));
	res->parent_row = malloc((np ? np : 1) * sizeof(*res->parent_row));
	res->x = malloc((np ? np : 1) * sizeof(*res->x));
	if (!order || !coff || !cfill || !kids || !droots || !uroots || !w || !x || !res->node ||
	    !res->parent_row || !res->x)
		goto done;
	for (uint32_t k = 0; k < np; k++) {
		double v = res->cum_d[0][k];

		w[k] = v > 0 ? v : 0;
		order[k] = (struct wnode){ w[k], k };
		if (res->pparent[k] != NONE)
			coff[res->pparent[k] + 1]++;
	}
	qsort(order, np, sizeof(*order), by_width);
	for (uint32_t k = 0; k < np; k++)
		coff[k + 1] += coff[k];
	memcpy(cfill, coff, ((size_t)np + 1) * sizeof(*cfill));
	for (uint32_t i = 0; i < np; i++) {
		uint32_t k = order[i].k, p = res->pparent[k];

		if (p != NONE)
			kids[cfill[p]++] = k;
		else if (res->depth[k] >= 0)
			droots[nd_roots++] = k;
		else
			uroots[nu_roots++] = k;
	}
	{
		double sx = 0;

		for (uint32_t i = 0; i < nd_roots; i++)
			x[droots[i]] = sx, sx += w[droots[i]];
		sx = 0;
		for (uint32_t i = 0; i < nu_roots; i++)
			x[uroots[i]] = sx, sx += w[uroots[i]];
	}
	for (uint32_t di = 0, ui = 0; di < nd_roots || ui < nu_roots;) {
		uint32_t k;

		if (ui >= nu_roots || (di < nd_roots && x[droots[di]] <= x[uroots[ui]]))
			k = droots[di++];
		else
			k = uroots[ui++];
		res->node[tail] = k;
		res->parent_row[tail] = NONE;
		res->x[tail++] = x[k];
	}
	for (uint32_t row = 0; row < tail; row++) {
		uint32_t k = res->node[row];
		double off = res->x[row];

		for (uint32_t i = coff[k]; i < coff[k + 1]; i++) {
			uint32_t ch = kids[i];

			x[ch] = off;
			off += w[ch];
			res->node[tail] = ch;
			res->parent_row[tail] = row;
			res->x[tail++] = x[ch];
		}
	}
	res->n = tail;
	rc = SQLITE_OK;
done:
	free(order);
	free(coff);
	free(cfill);
	free(kids);
	free(droots);
	free(uroots);
	free(w);
	free(x);
	return rc;
}

static void builder_free(struct builder *b)
{
	free(b->gcol);
	free(b->hash);
	free(b->retained);
	free(b->bits);
	free(b->vmatch);
	free(b->dnode);
	free(b->bu);
	free(b->anchors);
	free(b->cons);
	interner_free(&b->down);
	interner_free(&b->up);
}

/* Builds the flamegraph of t under config c; NULL with *err or on OOM. */
struct fg_result *tt_flamegraph_build(const struct fg_table *t, const struct fg_config *c, char **err)
{
	struct builder b = { .t = t, .c = c, .n = (uint32_t)t->nrows };
	struct fg_result *res = calloc(1, sizeof(*res));
	uint32_t nodes, *packed_of = NULL;
	int rc = SQLITE_NOMEM;

	if (!res)
		return NULL;
	res->nv = c->nvalues;
	res->nag = c->nagg;
	b.required = c->nshow ? (c->nshow == 64 ? ~0ull : (1ull << c->nshow) - 1) : 0;
	b.want_cons = c->nagg > 0;
	b.gcol = malloc(((size_t)c->ngrouping + 1) * sizeof(*b.gcol));
	res->vcol = malloc(((size_t)c->nvalues + 1) * sizeof(*res->vcol));
	res->agcol = malloc(((size_t)c->nagg + 1) * sizeof(*res->agcol));
	if (!b.gcol || !res->vcol || !res->agcol)
		goto fail;
	for (int i = 0; i < c->ngrouping; i++)
		if ((b.gcol[i] = col_index(t, c->grouping[i])) < 0) {
			*err = sqlite3_mprintf("flamegraph: grouping column: column '%s' does not exist", c->grouping[i]);
			goto fail;
		}
	for (int i = 0; i < c->nvalues; i++) {
		if ((res->vcol[i] = col_index(t, c->values[i])) < 0) {
			*err = sqlite3_mprintf("flamegraph: value column: column '%s' does not exist", c->values[i]);
			goto fail;
		}
		if (!t->numeric[res->vcol[i]]) {
			*err = sqlite3_mprintf("flamegraph: value columns must be numeric");
			goto fail;
		}
	}
	for (int i = 0; i < c->nagg; i++) {
		if ((res->agcol[i] = col_index(t, c->agg[i].col)) < 0) {
			*err = sqlite3_mprintf("flamegraph: aggregate column: column '%s' does not exist", c->agg[i].col);
			goto fail;
		}
		if (c->agg[i].kind == AG_SUM && !t->numeric[res->agcol[i]] &&
		    sqlite3_value_type(cell(t, 0, res->agcol[i])) != SQLITE_NULL) {
			*err = sqlite3_mprintf("flamegraph: SUM aggregate columns must be numeric");
			goto fail;
		}
	}
	b.hash = malloc((b.n ? b.n : 1) * sizeof(*b.hash));
	b.retained = malloc((b.n ? b.n : 1) * sizeof(*b.retained));
	b.bits = malloc((b.n ? b.n : 1) * sizeof(*b.bits));
	b.vmatch = malloc(b.n ? b.n : 1);
	b.dnode = malloc((b.n ? b.n : 1) * sizeof(*b.dnode));
	if (!b.hash || !b.retained || !b.bits || !b.vmatch || !b.dnode)
		goto fail;
	analyze(&b);
	if ((rc = build_down(&b)) != SQLITE_OK || (rc = build_up(&b, err)) != SQLITE_OK)
		goto fail;
	rc = SQLITE_NOMEM;
	nodes = b.down.n + b.up.n;
	res->self_d = calloc((size_t)c->nvalues + 1, sizeof(double *));
	res->cum_d = calloc((size_t)c->nvalues + 1, sizeof(double *));
	res->self_i = calloc((size_t)c->nvalues + 1, sizeof(int64_t *));
	res->cum_i = calloc((size_t)c->nvalues + 1, sizeof(int64_t *));
	res->ag = calloc((size_t)c->nagg + 1, sizeof(struct fg_aggval *));
	if (!res->self_d || !res->cum_d || !res->self_i || !res->cum_i || !res->ag)
		goto fail;
	for (int v = 0; v < c->nvalues; v++) {
		res->self_d[v] = calloc(nodes ? nodes : 1, sizeof(double));
		res->cum_d[v] = calloc(nodes ? nodes : 1, sizeof(double));
		res->self_i[v] = calloc(nodes ? nodes : 1, sizeof(int64_t));
		res->cum_i[v] = calloc(nodes ? nodes : 1, sizeof(int64_t));
		if (!res->self_d[v] || !res->cum_d[v] || !res->self_i[v] || !res->cum_i[v])
			goto fail;
		if ((rc = metric(&b, res->vcol[v], res->self_d[v], res->cum_d[v], res->self_i[v],
				 res->cum_i[v], err)) != SQLITE_OK)
			goto fail;
		rc = SQLITE_NOMEM;
	}
	res->nag_nodes = nodes;
	for (int a = 0; a < c->nagg; a++) {
		res->ag[a] = calloc(nodes ? nodes : 1, sizeof(struct fg_aggval));
		if (!res->ag[a] || aggregates(&b, res->agcol[a], c->agg[a].kind, res->ag[a]) != SQLITE_OK)
			goto fail;
	}
	/* pack: nodes with a nonzero cumulative value, downward then upward */
	packed_of = malloc((nodes ? nodes : 1) * sizeof(*packed_of));
	res->depth = malloc((nodes ? nodes : 1) * sizeof(*res->depth));
	res->rep = malloc((nodes ? nodes : 1) * sizeof(*res->rep));
	res->pparent = malloc((nodes ? nodes : 1) * sizeof(*res->pparent));
	if (!packed_of || !res->depth || !res->rep || !res->pparent)
		goto fail;
	for (uint32_t k = 0; k < nodes; k++) {
		int up = k >= b.down.n, keep = 0;
		uint32_t local = up ? k - b.down.n : k;
		uint32_t par = up ? b.up.parent[local] : b.down.parent[local];
		uint32_t pp;

		packed_of[k] = NONE;
		for (int v = 0; v < c->nvalues; v++)
			keep |= res->cum_d[v][k] != 0;
		if (!keep)
			continue;
		pp = par == NONE ? NONE : packed_of[up ? b.down.n + par : par];
		packed_of[k] = res->np;
		res->depth[res->np] = pp == NONE ? (up ? -1 : 1) : res->depth[pp] + (up ? -1 : 1);
		res->rep[res->np] = up ? b.up.rep[local] : b.down.rep[local];
		res->pparent[res->np] = pp;
		/* move the node's sums to its packed place (np <= k) */
		for (int v = 0; v < c->nvalues; v++) {
			res->self_d[v][res->np] = res->self_d[v][k];
			res->cum_d[v][res->np] = res->cum_d[v][k];
			res->self_i[v][res->np] = res->self_i[v][k];
			res->cum_i[v][res->np] = res->cum_i[v][k];
		}
		for (int a = 0; a < c->nagg; a++) {
			struct fg_aggval tmp = res->ag[a][k];

			res->ag[a][k] = res->ag[a][res->np];
			res->ag[a][res->np] = tmp;
		}
		res->np++;
	}
	/* the aggregates left past np belong to dropped nodes */
	for (int a = 0; a < c->nagg; a++)
		for (uint32_t k = res->np; k < nodes; k++) {
			sqlite3_free(res->ag[a][k].s);
			res->ag[a][k].s = NULL;
		}
	if (layout(res) != SQLITE_OK)
		goto fail;
	res->gcol = b.gcol;
	res->ng = c->ngrouping;
	b.gcol = NULL;
	free(packed_of);
	builder_free(&b);
	return res;
fail:
	free(packed_of);
	builder_free(&b);
	tt_flamegraph_result_free(res);
	if (!*err && rc == SQLITE_NOMEM)
		*err = sqlite3_mprintf("flamegraph: out of memory");
	return NULL;
}
