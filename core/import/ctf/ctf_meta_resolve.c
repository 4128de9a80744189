/*
 * ctf_meta_resolve.c - after parsing: native byte order, clock mappings,
 * field roles (magic, stream id, timestamps, thread identity, ...),
 * variant tags and sequence lengths resolved to value slots (relative
 * paths in the enclosing structs, then the earlier scopes; absolute
 * paths), key paths, and each stream's event table. See ctf_meta_int.h.
 */
#include "ctf_meta_int.h"

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HOST_BO CTF_BO_BE
#else
#define HOST_BO CTF_BO_LE
#endif

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- resolution ------------------------------------------------------------ */
enum scope { S_PKT_HEADER, S_PKT_CONTEXT, S_EV_HEADER, S_STREAM_EV_CTX, S_EV_CTX, S_EV_FIELDS, S_COUNT };

typedef struct rstack {
	const ctf_type *st; /* struct */
	size_t idx;         /* index of the member being resolved */
} rstack;

typedef struct resolver {
	parser *p;
	ctf_type *roots[S_COUNT];
	int scope;
	rstack stack[MAX_DEPTH + 8];
	int depth;
	const char *where; /* event or stream name for messages */
} resolver;

static const struct { const char *prefix; int scope; } abs_prefix[] = {
	{ "trace.packet.header.", S_PKT_HEADER },
	{ "stream.packet.context.", S_PKT_CONTEXT },
	{ "stream.event.header.", S_EV_HEADER },
	{ "stream.event.context.", S_STREAM_EV_CTX },
	{ "event.context.", S_EV_CTX },
	{ "event.fields.", S_EV_FIELDS },
};

static const ctf_field *find_member(const ctf_type *st, const char *name, size_t len, size_t limit)
{
	size_t i;

	if (!st || st->kind != CTF_K_STRUCT)
		return NULL;
	for (i = 0; i < limit && i < st->nfields; i++)
		if (strlen(st->fields[i].name) == len && !memcmp(st->fields[i].name, name, len))
			return &st->fields[i];
	return NULL;
}

/* Follows the rest of a dotted path from field f. */
static ctf_type *descend(const ctf_field *f, const char *rest)
{
	ctf_type *t = f ? f->type : NULL;

	while (t && *rest) {
		const char *dot = strchr(rest, '.');
		size_t len = dot ? (size_t)(dot - rest) : strlen(rest);
		const ctf_field *m = find_member(t, rest, len, t->nfields);

		t = m ? m->type : NULL;
		rest = dot ? dot + 1 : rest + len;
	}
	return t;
}

static ctf_type *lookup_path(resolver *r, const char *path)
{
	const char *dot;
	size_t len, i;
	int d, s;

	for (i = 0; i < sizeof(abs_prefix) / sizeof(abs_prefix[0]); i++) {
		size_t pl = strlen(abs_prefix[i].prefix);

		if (!strncmp(path, abs_prefix[i].prefix, pl)) {
			const ctf_type *root = r->roots[abs_prefix[i].scope];
			const char *rest = path + pl;

			dot = strchr(rest, '.');
			len = dot ? (size_t)(dot - rest) : strlen(rest);
			return descend(find_member(root, rest, len, root ? root->nfields : 0),
				       dot ? dot + 1 : rest + len);
		}
	}
	dot = strchr(path, '.');
	len = dot ? (size_t)(dot - path) : strlen(path);
	for (d = r->depth - 1; d >= 0; d--) {
		const ctf_field *f = find_member(r->stack[d].st, path, len, r->stack[d].idx);

		if (f)
			return descend(f, dot ? dot + 1 : path + len);
	}
	for (s = r->scope - 1; s >= 0; s--) {
		const ctf_type *root = r->roots[s];
		const ctf_field *f = find_member(root, path, len, root ? root->nfields : 0);

		if (f)
			return descend(f, dot ? dot + 1 : path + len);
	}
	return NULL;
}

static int label_matches(const char *label, const char *opt)
{
	if (!strcmp(label, opt))
		return 1;
	if (opt[0] == '_' && !strcmp(label, opt + 1))
		return 1;
	if (label[0] == '_' && !strcmp(label + 1, opt))
		return 1;
	return 0;
}

static int rerr(resolver *r, const char *fmt, const char *a)
{
	parser *p = r->p;

	if (p->failed)
		return -1;
	p->failed = 1;
	tt_err_set(p->err, TT_EINVAL, "%s: %s: ", p->path, r->where);
	{
		size_t l = strlen(p->err->msg);

		snprintf(p->err->msg + l, sizeof(p->err->msg) - l, fmt, a);
	}
	return -1;
}

static int resolve_type(resolver *r, ctf_type *t)
{
	size_t i;

	if (r->depth >= MAX_DEPTH + 4)
		return rerr(r, "%s: types nested too deeply", "");
	switch (t->kind) {
	case CTF_K_STRUCT:
		r->stack[r->depth].st = t;
		r->depth++;
		for (i = 0; i < t->nfields; i++) {
			r->stack[r->depth - 1].idx = i;
			if (resolve_type(r, t->fields[i].type))
				return -1;
		}
		r->depth--;
		return 0;
	case CTF_K_VARIANT: {
		ctf_type *tag;

		if (!t->tag)
			return rerr(r, "variant%s without a tag", "");
		if (t->ref < 0) {
			tag = lookup_path(r, t->tag);
			if (!tag || tag->kind != CTF_K_INT || !tag->maps)
				return rerr(r, "variant tag '%s' is not an enum field declared before it", t->tag);
			if (tag->slot < 0)
				tag->slot = r->p->nslots++;
			t->ref = tag->slot;
			t->tag_type = tag;
			t->opt_of_map = ctfm_arena_alloc(r->p->ar, (tag->nmaps + 1) * sizeof(int));
			if (!t->opt_of_map)
				return rerr(r, "%s: out of memory", "");
			for (i = 0; i < tag->nmaps; i++) {
				size_t j;

				t->opt_of_map[i] = -1;
				for (j = 0; j < t->nfields; j++)
					if (tag->maps[i].label && label_matches(tag->maps[i].label, t->fields[j].name))
						t->opt_of_map[i] = (int)j;
			}
		}
		/* options see the same enclosing scope as the variant */
		for (i = 0; i < t->nfields; i++)
			if (resolve_type(r, t->fields[i].type))
				return -1;
		return 0;
	}
	case CTF_K_SEQ: {
		ctf_type *len = lookup_path(r, t->tag);

		if (!len || len->kind != CTF_K_INT)
			return rerr(r, "sequence length '%s' is not an integer field declared before it", t->tag);
		if (len->slot < 0)
			len->slot = r->p->nslots++;
		t->ref = len->slot;
		return resolve_type(r, t->elem);
	}
	case CTF_K_ARRAY:
		return resolve_type(r, t->elem);
	default:
		return 0;
	}
}

/* A vpid (pid) without a vtid (tid) beside it names no thread: LTTng's
 * debug-info recipe (`add-context -t vpid -t ip`) records just that. The
 * value still says which process's binaries an address is in, so it keeps
 * its role (symbol lookup) and is also kept as the event's arg. */
static void keep_lone_pids(ctf_type *root)
{
	ctf_type *by_role[CTF_R_COUNT] = { 0 };

	for (size_t i = 0; i < root->nfields; i++) {
		ctf_type *ft = root->fields[i].type;

		if (ft->role > CTF_R_NONE && ft->role < CTF_R_COUNT)
			by_role[ft->role] = ft;
	}
	if (by_role[CTF_R_VPID] && !by_role[CTF_R_VTID])
		by_role[CTF_R_VPID]->role_keep = 1;
	if (by_role[CTF_R_PID] && !by_role[CTF_R_TID])
		by_role[CTF_R_PID]->role_keep = 1;
}

static void set_root_roles(ctf_type *root, int scope)
{
	static const struct { int scope; const char *name; int role; } roles[] = {
		{ S_PKT_HEADER, "magic", CTF_R_MAGIC },
		{ S_PKT_HEADER, "uuid", CTF_R_UUID },
		{ S_PKT_HEADER, "stream_id", CTF_R_STREAM_ID },
		{ S_PKT_HEADER, "stream_instance_id", CTF_R_STREAM_INSTANCE_ID },
		{ S_PKT_CONTEXT, "timestamp_begin", CTF_R_TS_BEGIN },
		{ S_PKT_CONTEXT, "timestamp_end", CTF_R_TS_END },
		{ S_PKT_CONTEXT, "content_size", CTF_R_CONTENT_SIZE },
		{ S_PKT_CONTEXT, "packet_size", CTF_R_PACKET_SIZE },
		{ S_PKT_CONTEXT, "events_discarded", CTF_R_EVENTS_DISCARDED },
		{ S_PKT_CONTEXT, "packet_seq_num", CTF_R_SEQ_NUM },
		{ S_PKT_CONTEXT, "cpu_id", CTF_R_CPU_ID },
		{ S_STREAM_EV_CTX, "vpid", CTF_R_VPID },
		{ S_STREAM_EV_CTX, "vtid", CTF_R_VTID },
		{ S_STREAM_EV_CTX, "pid", CTF_R_PID },
		{ S_STREAM_EV_CTX, "tid", CTF_R_TID },
		{ S_STREAM_EV_CTX, "procname", CTF_R_PROCNAME },
	};
	size_t i, j;

	if (!root || root->kind != CTF_K_STRUCT)
		return;
	if (scope == S_EV_CTX)
		scope = S_STREAM_EV_CTX;
	for (i = 0; i < root->nfields; i++) {
		ctf_type *ft = root->fields[i].type;

		for (j = 0; j < sizeof(roles) / sizeof(roles[0]); j++) {
			if (roles[j].scope != scope || strcmp(roles[j].name, root->fields[i].key))
				continue;
			if (roles[j].role == CTF_R_UUID) {
				if (ft->kind == CTF_K_ARRAY && ft->length == 16 && ft->elem->kind == CTF_K_INT &&
				    ft->elem->size == 8)
					ft->role = CTF_R_UUID;
			} else if (roles[j].role == CTF_R_PROCNAME) {
				if (ft->kind == CTF_K_STRING || ft->is_text)
					ft->role = CTF_R_PROCNAME;
			} else if (ft->kind == CTF_K_INT) {
				ft->role = roles[j].role;
			}
		}
	}
	if (scope == S_STREAM_EV_CTX)
		keep_lone_pids(root);
}

/* Event header: every integer named id is the event id; a `timestamp`
 * integer without a map uses the trace's only clock (babeltrace2 does). */
static void header_roles(ctf_type *t, const char *name, int nclocks, int depth)
{
	size_t i;

	if (!t || depth > MAX_DEPTH)
		return;
	if (t->kind == CTF_K_INT) {
		if (name && !strcmp(name, "id"))
			t->role = CTF_R_EVENT_ID;
		if (name && !strcmp(name, "timestamp") && t->clock < 0 && !t->clock_name && nclocks == 1)
			t->clock = 0;
		return;
	}
	if (t->kind == CTF_K_STRUCT || t->kind == CTF_K_VARIANT)
		for (i = 0; i < t->nfields; i++)
			header_roles(t->fields[i].type, t->fields[i].name, nclocks, depth + 1);
}

static int first_clock(const ctf_type *t, int depth)
{
	size_t i;
	int c;

	if (!t || depth > MAX_DEPTH)
		return -1;
	if (t->kind == CTF_K_INT)
		return t->clock;
	if (t->kind == CTF_K_STRUCT || t->kind == CTF_K_VARIANT)
		for (i = 0; i < t->nfields; i++)
			if ((c = first_clock(t->fields[i].type, depth + 1)) >= 0)
				return c;
	return -1;
}

/* Precomputes the args key of every node of an emitted scope, so that
 * the decoder copies no names: members `prefix.name`, variant options and
 * array elements share their parent's path (elements add `[i]` at decode
 * time). */
static int assign_paths(parser *p, ctf_type *t, const char *path, int depth)
{
	size_t i;

	if (!t || depth > MAX_DEPTH + 4)
		return 0;
	t->path = path;
	switch (t->kind) {
	case CTF_K_STRUCT:
		for (i = 0; i < t->nfields; i++) {
			size_t pl = strlen(path), kl = strlen(t->fields[i].key);
			char *np = ctfm_arena_alloc(p->ar, pl + kl + 2);

			if (!np)
				return ctfm_perr(p, "metadata too large (out of memory)");
			if (pl) {
				memcpy(np, path, pl);
				np[pl] = '.';
				memcpy(np + pl + 1, t->fields[i].key, kl + 1);
			} else {
				memcpy(np, t->fields[i].key, kl + 1);
			}
			if (assign_paths(p, t->fields[i].type, np, depth + 1))
				return -1;
		}
		return 0;
	case CTF_K_VARIANT:
		for (i = 0; i < t->nfields; i++)
			if (assign_paths(p, t->fields[i].type, path, depth + 1))
				return -1;
		return 0;
	case CTF_K_ARRAY:
	case CTF_K_SEQ:
		return assign_paths(p, t->elem, path, depth + 1);
	default:
		return 0;
	}
}

static int cmp_event(const void *a, const void *b)
{
	const ctf_event_class *x = *(ctf_event_class *const *)a, *y = *(ctf_event_class *const *)b;

	return x->id < y->id ? -1 : x->id > y->id;
}

uint64_t ctfm_ns_from_value(uint64_t freq, uint64_t v)
{
	double d;

	if (freq == 1000000000u)
		return v;
	d = 1e9 * (double)v / (double)freq;
	return d >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)d;
}

/* ---- decoder programs ---------------------------------------------------- */
#define PROG_DEPTH 16 /* structs nested deeper are walked */

typedef struct prog {
	ctf_op *v;
	size_t n, cap;
	unsigned depth;
	int fail;
} prog;

static void prog_put(prog *g, unsigned code, const ctf_type *t, unsigned depth, unsigned align, int special)
{
	if (g->n == g->cap) {
		size_t nc = g->cap ? g->cap * 2 : 16;
		ctf_op *nv = realloc(g->v, nc * sizeof(*nv));

		if (!nv) {
			g->fail = 1;
			return;
		}
		g->v = nv;
		g->cap = nc;
	}
	g->v[g->n++] = (ctf_op){ (unsigned char)code, (unsigned char)special, (unsigned short)depth, align, t, 0, 0 };
}

/* Bits op takes when its size is fixed and known here, else 0. */
static uint64_t op_fixed_bits(const ctf_op *op)
{
	switch (op->code) {
	case CTF_OP_MARK:
		return 0;
	case CTF_OP_U8:
	case CTF_OP_U16:
	case CTF_OP_U32:
	case CTF_OP_U64:
	case CTF_OP_INT:
		return op->t->size;
	case CTF_OP_TEXT:
		return op->t->length <= (1u << 20) ? op->t->length * 8 : 0;
	default:
		return 0;
	}
}

/* The alignment op's decoding applies (a text array: at least a byte). */
static unsigned op_align(const ctf_op *op)
{
	if (op->code == CTF_OP_TEXT)
		return op->t->elem->align < 8 ? 8 : op->t->elem->align;
	if (op->code == CTF_OP_MARK)
		return 1;
	return op->align;
}

/* Groups ops into runs (CTF_OP_RUN): from a byte-aligned op on, the ops
 * of fixed size whose alignment divides the first one's get their offset
 * from its aligned position. A nested struct's ALIGN joins when its
 * alignment divides too. g's list is replaced; -1 when memory ran out. */
static int prog_runs(prog *g)
{
	ctf_op *out = malloc((g->n * 2 + 1) * sizeof(*out));
	size_t n = 0, i = 0;

	if (!out)
		return -1;
	while (i < g->n) {
		const ctf_op *op = &g->v[i];
		unsigned a = op_align(op);
		uint64_t o = 0, bits;
		size_t j = i;

		if (a < 8 || op->code == CTF_OP_MARK || (op->code != CTF_OP_ALIGN && !op_fixed_bits(op))) {
			out[n++] = g->v[i++];
			continue;
		}
		/* how far a run from op goes */
		for (; j < g->n; j++) {
			const ctf_op *q = &g->v[j];
			uint64_t at;

			if (op_align(q) > a)
				break;
			at = (o + op_align(q) - 1) & ~(uint64_t)(op_align(q) - 1);
			if (q->code == CTF_OP_ALIGN || q->code == CTF_OP_MARK) {
				o = at;
				continue;
			}
			if (!(bits = op_fixed_bits(q)) || at + bits > (1u << 30))
				break;
			o = at + bits;
		}
		if (j - i < 2) {
			out[n++] = g->v[i++];
			continue;
		}
		out[n] = (ctf_op){ CTF_OP_RUN, 0, op->depth, a, NULL, (unsigned)o, (unsigned)(j - i) };
		n++;
		for (o = 0; i < j; i++) {
			ctf_op q = g->v[i];
			uint64_t at = (o + op_align(&q) - 1) & ~(uint64_t)(op_align(&q) - 1);

			q.off = (unsigned)at;
			o = q.code == CTF_OP_ALIGN || q.code == CTF_OP_MARK ? at : at + op_fixed_bits(&q);
			out[n++] = q;
		}
	}
	free(g->v);
	g->v = out;
	g->n = n;
	return 0;
}

static int compile_struct(parser *p, ctf_type *t);

/* g's ops grouped into runs and moved to the arena, in *out (NULL when g
 * failed or is empty: the tree is walked); g's list is freed. -1 when
 * memory ran out. */
static int prog_done(parser *p, prog *g, const ctf_op **out)
{
	ctf_op *ops = NULL;
	int rc = 0;

	if (!g->fail && g->n) {
		if (prog_runs(g) || !(ops = ctfm_arena_alloc(p->ar, g->n * sizeof(*ops))))
			rc = -1;
		else
			memcpy(ops, g->v, g->n * sizeof(*ops));
	}
	free(g->v);
	g->v = NULL;
	*out = ops;
	return rc;
}

/* The fields of struct t (at depth, the root being 1) into g. */
static void prog_struct(parser *p, prog *g, const ctf_type *t, unsigned depth)
{
	if (depth > PROG_DEPTH) {
		g->fail = 1;
		return;
	}
	if (depth > g->depth)
		g->depth = depth;
	if (depth > 1)
		prog_put(g, CTF_OP_ALIGN, t, depth, t->align, 0);
	for (size_t i = 0; i < t->nfields && !g->fail; i++) {
		ctf_type *ft = t->fields[i].type;
		unsigned code = CTF_OP_ANY;

		switch (ft->kind) {
		case CTF_K_INT:
			code = CTF_OP_INT;
			if (ft->align % 8 == 0 && ft->byte_order == HOST_BO) {
				if (ft->size == 8)
					code = CTF_OP_U8;
				else if (ft->size == 16)
					code = CTF_OP_U16;
				else if (ft->size == 32)
					code = CTF_OP_U32;
				else if (ft->size == 64)
					code = CTF_OP_U64;
			}
			prog_put(g, code, ft, depth, ft->align, ft->slot >= 0 || ft->clock >= 0 || ft->role);
			continue;
		case CTF_K_STRING:
			code = CTF_OP_STRING;
			break;
		case CTF_K_ARRAY:
			if (ft->is_text)
				code = CTF_OP_TEXT;
			break;
		case CTF_K_STRUCT:
			prog_struct(p, g, ft, depth + 1);
			continue;
		case CTF_K_VARIANT:
			code = CTF_OP_VARIANT;
			for (size_t k = 0; k < ft->nfields; k++)
				if (compile_struct(p, ft->fields[k].type))
					g->fail = 1;
			break;
		default:
			break;
		}
		prog_put(g, code, ft, depth, ft->align, 0);
	}
}

/* Gives struct t (a root or a variant option) its program when it can
 * have one; -1 only when memory ran out. */
static int compile_struct(parser *p, ctf_type *t)
{
	prog g;
	const ctf_op *ops;

	if (!t || t->kind != CTF_K_STRUCT || t->ops)
		return 0;
	memset(&g, 0, sizeof(g));
	prog_struct(p, &g, t, 1);
	if (prog_done(p, &g, &ops))
		return -1;
	t->ops = ops;
	t->nops = ops ? (unsigned)g.n : 0;
	t->ops_depth = ops ? g.depth : 0;
	return 0;
}

/* Event class ev of stream class sc: one program from its stream's event
 * context to its fields, when each scope is a struct that has one (runs
 * then span the scopes). -1 only when memory ran out. */
static int compile_event(parser *p, const ctf_stream_class *sc, ctf_event_class *ev)
{
	const ctf_type *scope[3] = { sc->event_context, ev->context, ev->fields };
	prog g;
	const ctf_op *ops;

	for (int k = 0; k < 3; k++)
		if (scope[k] && (scope[k]->kind != CTF_K_STRUCT || !scope[k]->ops))
			return 0;
	memset(&g, 0, sizeof(g));
	for (int k = 0; k < 3 && !g.fail; k++) {
		if (k == 2)
			prog_put(&g, CTF_OP_MARK, NULL, 1, 1, 0);
		if (!scope[k])
			continue;
		/* a root struct aligns where it starts */
		prog_put(&g, CTF_OP_ALIGN, scope[k], 1, scope[k]->align, 0);
		prog_struct(p, &g, scope[k], 1);
	}
	if (prog_done(p, &g, &ops))
		return -1;
	ev->ops = ops;
	ev->nops = ops ? (unsigned)g.n : 0;
	return 0;
}

static int compile_all(parser *p, ctf_meta *m)
{
	int rc = compile_struct(p, m->packet_header);

	for (size_t i = 0; i < m->nstreams; i++) {
		rc |= compile_struct(p, m->streams[i].packet_context);
		rc |= compile_struct(p, m->streams[i].event_header);
		rc |= compile_struct(p, m->streams[i].event_context);
	}
	for (size_t i = 0; i < m->nevents; i++) {
		rc |= compile_struct(p, m->events[i].context);
		rc |= compile_struct(p, m->events[i].fields);
	}
	for (size_t i = 0; i < m->nstreams; i++)
		for (size_t j = 0; j < m->streams[i].nsorted; j++)
			rc |= compile_event(p, &m->streams[i], m->streams[i].sorted[j]);
	return rc ? ctfm_perr(p, "out of memory") : 0;
}

int ctfm_resolve(parser *p)
{
	ctf_meta *m = p->m;
	ctf_type *t;
	size_t i, j;

	if (!p->trace_bo)
		return ctfm_perr(p, "no trace block with a byte_order");
	m->byte_order = p->trace_bo;
	for (t = m->all; t; t = t->next_alloc) {
		if ((t->kind == CTF_K_INT || t->kind == CTF_K_FLOAT) && t->byte_order == CTF_BO_NATIVE)
			t->byte_order = (unsigned char)m->byte_order;
		if (t->clock_name) {
			for (i = 0; i < p->nclocks; i++)
				if (!strcmp(p->clocks[i].name, t->clock_name))
					break;
			if (i == p->nclocks) {
				p->failed = 1;
				return tt_err_set(p->err, TT_EINVAL, "%s: map to unknown clock '%s'", p->path,
						  t->clock_name);
			}
			t->clock = (int)i;
		}
	}
	/* clocks: babeltrace2 moves whole seconds out of the cycle offset */
	for (i = 0; i < p->nclocks; i++) {
		ctf_clock *c = &p->clocks[i];
		int64_t off = (int64_t)c->offset_cycles;
		int64_t f = (int64_t)(c->freq > (uint64_t)INT64_MAX ? INT64_MAX : c->freq);
		int64_t q = off / f, rmd = off % f;

		if (rmd < 0) {
			rmd += f;
			q--;
		}
		if ((q > 0 && c->offset_s > INT64_MAX / 2 - q) || (q < 0 && c->offset_s < INT64_MIN / 2 - q))
			return ctfm_perr(p, "clock offset out of range");
		c->offset_s += q;
		c->offset_cycles = (uint64_t)rmd;
		if (c->offset_s > INT64_MAX / 1000000000 - 1 || c->offset_s < INT64_MIN / 1000000000 + 1)
			return ctfm_perr(p, "clock offset out of range");
		c->base_ns = c->offset_s * 1000000000 + (int64_t)ctfm_ns_from_value(c->freq, c->offset_cycles);
	}
	if (p->nstreams == 0) {
		/* no stream block: one implicit stream class 0 */
		if (GROW(p, p->streams, p->nstreams, p->cstreams))
			return -1;
		memset(&p->streams[0], 0, sizeof(p->streams[0]));
		p->streams[0].clock = -1;
		p->nstreams = 1;
	}
	m->clocks = p->clocks;
	m->nclocks = p->nclocks;
	m->streams = p->streams;
	m->nstreams = p->nstreams;
	m->events = p->events;
	m->nevents = p->nevents;
	m->env = p->env;
	m->nenv = p->nenv;
	p->clocks = NULL;
	p->streams = NULL;
	p->events = NULL;
	p->env = NULL;

	set_root_roles(m->packet_header, S_PKT_HEADER);
	for (i = 0; i < m->nstreams; i++) {
		ctf_stream_class *sc = &m->streams[i];
		resolver r;
		char where[64];

		for (j = 0; j < i; j++)
			if (m->streams[j].id == sc->id) {
				p->failed = 1;
				return tt_err_set(p->err, TT_EINVAL, "%s: two stream blocks with id %llu",
						  p->path, (unsigned long long)sc->id);
			}
		set_root_roles(sc->packet_context, S_PKT_CONTEXT);
		if (sc->packet_context && sc->packet_context->kind == CTF_K_STRUCT) {
			for (j = 0; j < sc->packet_context->nfields; j++) {
				ctf_type *ft = sc->packet_context->fields[j].type;

				if ((ft->role == CTF_R_TS_BEGIN || ft->role == CTF_R_TS_END) && ft->clock < 0 &&
				    m->nclocks == 1)
					ft->clock = 0;
			}
		}
		header_roles(sc->event_header, NULL, (int)m->nclocks, 0);
		set_root_roles(sc->event_context, S_STREAM_EV_CTX);
		sc->clock = first_clock(sc->event_header, 0);
		if (sc->clock < 0)
			sc->clock = first_clock(sc->packet_context, 0);
		if (sc->clock < 0 && m->nclocks == 1)
			sc->clock = 0;

		memset(&r, 0, sizeof(r));
		r.p = p;
		snprintf(where, sizeof(where), "stream %llu", (unsigned long long)sc->id);
		r.where = where;
		r.roots[S_PKT_HEADER] = m->packet_header;
		r.roots[S_PKT_CONTEXT] = sc->packet_context;
		r.roots[S_EV_HEADER] = sc->event_header;
		r.roots[S_STREAM_EV_CTX] = sc->event_context;
		if (assign_paths(p, sc->event_context, "context", 0))
			return -1;
		for (r.scope = 0; r.scope <= S_STREAM_EV_CTX; r.scope++) {
			if (r.scope == S_PKT_HEADER && i > 0)
				continue; /* shared: resolved once */
			if (r.roots[r.scope] && resolve_type(&r, r.roots[r.scope]))
				return -1;
		}
		/* events of this stream */
		{
			size_t cnt = 0, k = 0;
			uint64_t maxid = 0;

			for (j = 0; j < m->nevents; j++)
				if (m->events[j].stream_id == sc->id ||
				    (m->nstreams == 1 && !sc->id))
					cnt++;
			sc->sorted = calloc(cnt ? cnt : 1, sizeof(*sc->sorted));
			if (!sc->sorted)
				return ctfm_perr(p, "out of memory");
			for (j = 0; j < m->nevents; j++) {
				ctf_event_class *ev = &m->events[j];

				if (!(ev->stream_id == sc->id || (m->nstreams == 1 && !sc->id)))
					continue;
				sc->sorted[k++] = ev;
				if (ev->id > maxid)
					maxid = ev->id;
				set_root_roles(ev->context, S_EV_CTX);
				r.where = ev->name;
				r.depth = 0;
				r.roots[S_EV_CTX] = ev->context;
				r.roots[S_EV_FIELDS] = ev->fields;
				r.scope = S_EV_CTX;
				if (ev->context && resolve_type(&r, ev->context))
					return -1;
				r.scope = S_EV_FIELDS;
				if (ev->fields && resolve_type(&r, ev->fields))
					return -1;
				if (assign_paths(p, ev->context, "context", 0) ||
				    assign_paths(p, ev->fields, "", 0))
					return -1;
			}
			sc->nsorted = cnt;
			qsort(sc->sorted, cnt, sizeof(*sc->sorted), cmp_event);
			for (j = 1; j < cnt; j++)
				if (sc->sorted[j]->id == sc->sorted[j - 1]->id) {
					p->failed = 1;
					return tt_err_set(p->err, TT_EINVAL,
							  "%s: two events with id %llu in stream %llu", p->path,
							  (unsigned long long)sc->sorted[j]->id,
							  (unsigned long long)sc->id);
				}
			if (cnt && maxid < (1u << 20)) {
				sc->by_id = calloc((size_t)maxid + 1, sizeof(*sc->by_id));
				if (!sc->by_id)
					return ctfm_perr(p, "out of memory");
				sc->nby_id = (size_t)maxid + 1;
				for (j = 0; j < cnt; j++)
					sc->by_id[sc->sorted[j]->id] = sc->sorted[j];
			}
		}
	}
	m->nslots = p->nslots;
	return compile_all(p, m);
}
