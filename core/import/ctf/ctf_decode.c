/*
 * ctf_decode.c - the field decoders of a CTF data stream: the bit reader,
 * the walking decoder (value output, integers, strings, floats, arrays,
 * structs, variants) and the compiled struct programs. It owns no state:
 * everything lives in struct ctf_stream (ctf_stream_int.h); packets, event
 * records and the stream's life are ctf_stream.c's.
 *
 * The decoder walks the resolved type tree of ctf_metadata.c: no name is
 * looked up while decoding (roles, slots and clock indexes were computed
 * once), and byte-aligned 8/16/32/64-bit integers take a fast path.
 *
 * Bit layout (CTF 1.8 §4.1): fields are aligned on their `align` counted
 * from the packet start. Little endian: a field fills bits from the least
 * significant bit of each byte upward. Big endian: from the most
 * significant bit down, the first bit read being the value's MSB.
 *
 * Clock rebuild (CTF 1.8 §8, babeltrace2 msg-iter update_default_clock): a
 * 64-bit clock-mapped value replaces the stream clock; an N-bit value v
 * with v < (clock mod 2^N) adds 2^N (one wrap), then the low N bits become
 * v. timestamp_end does not touch the clock while decoding; at the end of a
 * packet the clock takes its value (as babeltrace2 does).
 *
 * Known limits: variants select an option through an enum tag only;
 * strings must be NUL-terminated inside the packet content; floats are 32
 * or 64 bits.
 */
#include "ctf_stream_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128;

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HOST_BO CTF_BO_BE
#else
#define HOST_BO CTF_BO_LE
#endif

#define MAX_VALS 1000000 /* values of one event */
#define MAX_DEPTH 64

/* ---- bit reader ------------------------------------------------------ */
static inline uint64_t align_up(uint64_t pos, unsigned align)
{
	return (pos + align - 1) & ~(uint64_t)(align - 1);
}

/* Any size and offset: up to 9 bytes assembled in a 128-bit word. */
static __attribute__((noinline)) uint64_t read_slow(const uint8_t *b, unsigned sh, unsigned size, int bo)
{
	unsigned nbytes = (sh + size + 7) / 8, i;
	u128 acc = 0;
	uint64_t mask = size == 64 ? UINT64_MAX : (((uint64_t)1 << size) - 1);

	if (bo == CTF_BO_BE) {
		for (i = 0; i < nbytes; i++)
			acc = acc << 8 | b[i];
		return (uint64_t)(acc >> (nbytes * 8 - sh - size)) & mask;
	}
	for (i = nbytes; i-- > 0;)
		acc = acc << 8 | b[i];
	return (uint64_t)(acc >> sh) & mask;
}

static inline __attribute__((always_inline)) int read_bits(ctf_stream *s, unsigned align, unsigned size,
							   int bo, uint64_t *out)
{
	uint64_t pos = align_up(s->pos, align);
	const uint8_t *b;
	unsigned sh;
	uint64_t v;

	if (pos > s->limit || size > s->limit - pos)
		return DEC_SHORT;
	b = s->pkt + (pos >> 3);
	sh = (unsigned)(pos & 7);
	if (!sh) {
		switch (size) {
		case 8:
			v = b[0];
			goto done;
		case 16:
			v = bo == CTF_BO_BE ? (uint64_t)b[0] << 8 | b[1] : (uint64_t)b[1] << 8 | b[0];
			goto done;
		case 32: {
			uint32_t w;

			memcpy(&w, b, 4);
			if (bo != HOST_BO)
				w = __builtin_bswap32(w);
			v = w;
			goto done;
		}
		case 64:
			memcpy(&v, b, 8);
			if (bo != HOST_BO)
				v = __builtin_bswap64(v);
			goto done;
		default:
			break;
		}
	}
	if (size <= 56 && (pos >> 3) + 8 <= (s->limit >> 3)) {
		/* 8 bytes are inside the packet content: one load, one shift */
		uint64_t w;

		memcpy(&w, b, 8);
		if (bo == CTF_BO_BE) {
			if (HOST_BO != CTF_BO_BE)
				w = __builtin_bswap64(w);
			v = (w >> (64 - sh - size)) & (((uint64_t)1 << size) - 1);
		} else {
			if (HOST_BO != CTF_BO_LE)
				w = __builtin_bswap64(w);
			v = (w >> sh) & (((uint64_t)1 << size) - 1);
		}
		goto done;
	}
	v = read_slow(b, sh, size, bo);
done:
	s->pos = pos + size;
	*out = v;
	return DEC_OK;
}

static inline __attribute__((always_inline)) void update_clock(ctf_stream *s, uint64_t v, unsigned size)
{
	uint64_t mask;

	if (size == 64) {
		s->clock_val = v;
		s->full_clock = 1;
		return;
	}
	mask = ((uint64_t)1 << size) - 1;
	if (v < (s->clock_val & mask))
		s->clock_val += mask + 1;
	s->clock_val = (s->clock_val & ~mask) | v;
}

/* ---- value output ---------------------------------------------------------- */
/* Appends a value. Outside arrays its key is the node's precomputed path;
 * inside arrays it is kp[0..klen) copied to the key buffer (pointers are
 * fixed up once the event is decoded: the buffer may move). */
static int push_val(ctf_stream *s, const ctf_type *t, size_t klen, int dyn, ctf_val **out)
{
	ctf_val *v;

	if (s->nvals == s->cvals) {
		size_t nc = s->cvals ? s->cvals * 2 : 64;
		ctf_val *nv;

		if (nc > MAX_VALS)
			return DEC_BAD;
		nv = realloc(s->vals, nc * sizeof(*nv));
		if (!nv)
			return DEC_NOMEM;
		s->vals = nv;
		s->cvals = nc;
	}
	v = &s->vals[s->nvals++];
	v->type = t;
	v->s = NULL;
	v->len = 0;
	if (!dyn) {
		v->key = t->path ? t->path : "";
		return *out = v, DEC_OK;
	}
	if (s->nkeys + klen + 1 > s->ckeys) {
		size_t nc = s->ckeys ? s->ckeys * 2 : 4096;
		char *nk;

		while (nc < s->nkeys + klen + 1)
			nc *= 2;
		nk = realloc(s->keys, nc);
		if (!nk) {
			s->nvals--;
			return DEC_NOMEM;
		}
		s->keys = nk;
		s->ckeys = nc;
	}
	v->key = NULL;
	v->keyoff = (uint32_t)s->nkeys;
	memcpy(s->keys + s->nkeys, s->kp, klen);
	s->keys[s->nkeys + klen] = '\0';
	s->nkeys += klen + 1;
	*out = v;
	return DEC_OK;
}

static const char *enum_label(const ctf_type *t, uint64_t v)
{
	size_t i;

	for (i = 0; i < t->nmaps; i++) {
		if (t->is_signed) {
			if ((int64_t)v >= (int64_t)t->maps[i].lo && (int64_t)v <= (int64_t)t->maps[i].hi)
				return t->maps[i].label;
		} else if (v >= t->maps[i].lo && v <= t->maps[i].hi) {
			return t->maps[i].label;
		}
	}
	return NULL;
}

static inline int enum_index(const ctf_type *t, uint64_t v)
{
	size_t i;

	for (i = 0; i < t->nmaps; i++) {
		if (t->is_signed) {
			if ((int64_t)v >= (int64_t)t->maps[i].lo && (int64_t)v <= (int64_t)t->maps[i].hi)
				return (int)i;
		} else if (v >= t->maps[i].lo && v <= t->maps[i].hi) {
			return (int)i;
		}
	}
	return -1;
}

/* Appends ".name" (or "name" at the root) to the key; returns the new
 * length, or klen when it would not fit (keys are then cut). */
static size_t key_push(ctf_stream *s, size_t klen, const char *name)
{
	size_t n = strlen(name);

	if (klen + n + 2 > MAX_KEY)
		return klen;
	if (klen)
		s->kp[klen++] = '.';
	memcpy(s->kp + klen, name, n);
	return klen + n;
}


/* An integer's value v just read: clock, sign, slot, role, output. */
static inline __attribute__((always_inline)) int int_tail(ctf_stream *s, const ctf_type *t, uint64_t v,
							  size_t klen, int dyn)
{
	ctf_val *out;
	int rc;

	if (__builtin_expect((t->slot & t->clock) >= 0, 0)) {
		/* slot or clock (not both -1): the clock takes the raw bits */
		if (t->clock >= 0 && t->role != CTF_R_TS_END)
			update_clock(s, v, t->size);
	}
	if (t->is_signed && t->size < 64 && (v >> (t->size - 1)) & 1)
		v |= ~(((uint64_t)1 << t->size) - 1);
	if (t->slot >= 0)
		s->slots[t->slot] = v;
	if (t->role) {
		s->role_val[t->role] = v;
		s->role_seen |= 1u << t->role;
		if (t->role >= CTF_R_VPID && !t->role_keep)
			return DEC_OK; /* thread identity: goes to the thread table */
	}
	if (!s->emit)
		return DEC_OK;
	rc = push_val(s, t, klen, dyn, &out);
	if (rc)
		return rc;
	if (t->maps) {
		out->kind = CTF_V_ENUM;
		out->v.u = v;
		out->s = enum_label(t, v);
		out->len = out->s ? strlen(out->s) : 0;
	} else if (t->is_signed) {
		out->kind = CTF_V_INT;
		out->v.i = (int64_t)v;
	} else {
		out->kind = CTF_V_UINT;
		out->v.u = v;
	}
	return DEC_OK;
}

static int dec_int(ctf_stream *s, const ctf_type *t, size_t klen, int dyn)
{
	uint64_t v;
	int rc = read_bits(s, t->align, t->size, t->byte_order, &v);

	if (rc)
		return rc;
	return int_tail(s, t, v, klen, dyn);
}

/* Position of the first NUL in b[0..n), or NULL. Names and short strings
 * dominate, where a library call costs more than the scan: 8 bytes at a
 * time over the first 64 (a string field's range is the rest of the
 * packet), then memchr. */
static inline const uint8_t *find_nul(const uint8_t *b, size_t n)
{
	size_t i = 0, m = n < 64 ? n : 64;

	for (; i + 8 <= m; i += 8) {
		uint64_t w, z;

		memcpy(&w, b + i, 8);
		z = (w - UINT64_C(0x0101010101010101)) & ~w & UINT64_C(0x8080808080808080);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		/* the lowest flagged byte is the first NUL (a false flag can
		 * only sit above a true one) */
		if (z)
			return b + i + (__builtin_ctzll(z) >> 3);
#else
		if (z)
			goto bytes;
#endif
	}
	if (n - i > 8)
		return memchr(b + i, 0, n - i); /* a long one: the library */
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
bytes:
#endif
	for (; i < n; i++)
		if (!b[i])
			return b + i;
	return NULL;
}

/* A decoded text of len bytes at b: the event's procname, or a value
 * (when values are kept). */
static int put_text(ctf_stream *s, const ctf_type *t, size_t klen, int dyn, const uint8_t *b, size_t len)
{
	ctf_val *out;
	int rc;

	if (t->role == CTF_R_PROCNAME) {
		s->ev.procname = (const char *)b;
		s->ev.procname_len = len;
		return DEC_OK;
	}
	if (!s->emit)
		return DEC_OK;
	rc = push_val(s, t, klen, dyn, &out);
	if (rc)
		return rc;
	out->kind = CTF_V_STR;
	out->s = (const char *)b;
	out->len = len;
	return DEC_OK;
}

static int dec_text(ctf_stream *s, const ctf_type *t, uint64_t n, size_t klen, int dyn)
{
	uint64_t pos = align_up(s->pos, t->elem->align < 8 ? 8 : t->elem->align);
	const uint8_t *b, *nul;

	if (pos > s->limit || n > (s->limit - pos) / 8)
		return DEC_SHORT;
	b = s->pkt + pos / 8;
	s->pos = pos + n * 8;
	if (t->role != CTF_R_PROCNAME && !s->emit)
		return DEC_OK; /* the length is known: no need to find the NUL */
	nul = find_nul(b, (size_t)n);
	return put_text(s, t, klen, dyn, b, nul ? (size_t)(nul - b) : (size_t)n);
}

static int dec_array(ctf_stream *s, const ctf_type *t, uint64_t n, size_t klen, int dyn)
{
	uint64_t i;
	int rc;

	if (t->is_text)
		return dec_text(s, t, n, klen, dyn);
	/* CTF 1.8 §4.2.3/4.2.4: the array or sequence field itself is aligned
	 * on its element's alignment, whatever its length (babeltrace2 does
	 * so): skipping it for zero elements shifts every later field */
	s->pos = align_up(s->pos, t->align);
	if (s->pos > s->limit)
		return DEC_SHORT;
	if (t->role == CTF_R_UUID) {
		s->uuid_pos = align_up(s->pos, t->elem->align);
		s->role_seen |= 1u << CTF_R_UUID;
	}
	/* every element takes at least one bit (an empty struct takes none:
	 * still bounded by this check times the element count cap) */
	if (n > s->limit - (s->pos < s->limit ? s->pos : s->limit) && n > 4096)
		return DEC_SHORT;
	if (t->elem->kind == CTF_K_INT && n > (s->limit - (s->pos < s->limit ? s->pos : s->limit)) / t->elem->size)
		return DEC_SHORT;
	if (n > MAX_VALS)
		return DEC_BAD; /* elements of no size (empty structs) would spin */
	if (s->emit && !dyn) {
		/* first array level: element keys are built from its path */
		const char *p = t->path ? t->path : "";

		klen = strlen(p);
		if (klen > MAX_KEY)
			klen = MAX_KEY;
		memcpy(s->kp, p, klen);
	}
	for (i = 0; i < n; i++) {
		size_t kl = klen;
		int w;

		if (s->emit && klen + 24 < MAX_KEY) {
			w = snprintf(s->kp + klen, 24, "[%llu]", (unsigned long long)i);
			if (w > 0)
				kl = klen + (size_t)w;
		}
		rc = tt_ctf_dec(s, t->elem, kl, 1);
		if (rc)
			return rc;
	}
	return DEC_OK;
}

static int dec_float(ctf_stream *s, const ctf_type *t, size_t klen, int dyn)
{
	uint64_t raw;
	ctf_val *out;
	int rc = read_bits(s, t->align, t->size, t->byte_order, &raw);

	if (rc || !s->emit)
		return rc;
	rc = push_val(s, t, klen, dyn, &out);
	if (rc)
		return rc;
	out->kind = CTF_V_REAL;
	if (t->size == 32) {
		uint32_t w = (uint32_t)raw;
		float f;

		memcpy(&f, &w, 4);
		out->v.d = f;
	} else {
		memcpy(&out->v.d, &raw, 8);
	}
	return DEC_OK;
}

static int dec_string(ctf_stream *s, const ctf_type *t, size_t klen, int dyn)
{
	uint64_t pos = align_up(s->pos, 8);
	const uint8_t *b, *nul;

	if (pos >= s->limit)
		return DEC_SHORT;
	b = s->pkt + pos / 8;
	nul = find_nul(b, (size_t)((s->limit - pos) / 8));
	if (!nul)
		return DEC_SHORT;
	s->pos = pos + ((uint64_t)(nul - b) + 1) * 8;
	return put_text(s, t, klen, dyn, b, (size_t)(nul - b));
}

static int dec_variant(ctf_stream *s, const ctf_type *t, size_t klen, int dyn);

/* Members are dispatched here rather than through tt_ctf_dec(): one shared
 * switch for every field of every event predicts badly. */
int tt_ctf_dec_struct(ctf_stream *s, const ctf_type *t, size_t klen, int dyn)
{
	int rc = DEC_OK;
	size_t i;

	if (++s->depth > MAX_DEPTH) {
		s->depth--;
		return DEC_BAD;
	}
	s->pos = align_up(s->pos, t->align);
	for (i = 0; i < t->nfields && !rc; i++) {
		const ctf_type *ft = t->fields[i].type;
		size_t kl;

		/* an integer nobody reads (values skipped; no slot, clock or
		 * role): only its place matters */
		if (ft->kind == CTF_K_INT && !s->emit && (ft->slot & ft->clock) < 0 && !ft->role) {
			uint64_t pos = align_up(s->pos, ft->align);

			if (pos > s->limit || ft->size > s->limit - pos)
				rc = DEC_SHORT;
			else
				s->pos = pos + ft->size;
			continue;
		}
		kl = s->emit && dyn ? key_push(s, klen, t->fields[i].key) : klen;
		switch (ft->kind) {
		case CTF_K_INT:
			rc = dec_int(s, ft, kl, dyn);
			break;
		case CTF_K_STRING:
			rc = dec_string(s, ft, kl, dyn);
			break;
		case CTF_K_STRUCT:
			rc = tt_ctf_dec_struct(s, ft, kl, dyn);
			break;
		case CTF_K_ARRAY:
			rc = dec_array(s, ft, ft->length, kl, dyn);
			break;
		default:
			rc = tt_ctf_dec(s, ft, kl, dyn);
			break;
		}
	}
	s->depth--;
	return rc;
}

static int dec_variant(ctf_stream *s, const ctf_type *t, size_t klen, int dyn)
{
	int mi = enum_index(t->tag_type, s->slots[t->ref]);
	int opt = mi >= 0 ? t->opt_of_map[mi] : -1;
	const ctf_type *ot;
	int rc;

	if (opt < 0)
		return DEC_BAD;
	if (++s->depth > MAX_DEPTH) {
		s->depth--;
		return DEC_BAD;
	}
	ot = t->fields[opt].type;
	rc = ot->kind == CTF_K_STRUCT ? tt_ctf_dec_struct(s, ot, klen, dyn) : tt_ctf_dec(s, ot, klen, dyn);
	s->depth--;
	return rc;
}

int tt_ctf_dec(ctf_stream *s, const ctf_type *t, size_t klen, int dyn)
{
	switch (t->kind) {
	case CTF_K_INT:
		return dec_int(s, t, klen, dyn);
	case CTF_K_FLOAT:
		return dec_float(s, t, klen, dyn);
	case CTF_K_STRING:
		return dec_string(s, t, klen, dyn);
	case CTF_K_STRUCT:
		return tt_ctf_dec_struct(s, t, klen, dyn);
	case CTF_K_VARIANT:
		return dec_variant(s, t, klen, dyn);
	case CTF_K_ARRAY:
		return dec_array(s, t, t->length, klen, dyn);
	case CTF_K_SEQ:
		return dec_array(s, t, s->slots[t->ref], klen, dyn);
	}
	return DEC_BAD;
}

/* ---- compiled structs ------------------------------------------------------ */

/* A byte-aligned integer in the host's byte order (CTF_OP_U8..U64). */
static inline __attribute__((always_inline)) uint64_t load_host(const uint8_t *b, unsigned code)
{
	uint64_t v;
	uint32_t w;
	uint16_t h;

	switch (code) {
	case CTF_OP_U8:
		return b[0];
	case CTF_OP_U16:
		memcpy(&h, b, 2);
		return h;
	case CTF_OP_U32:
		memcpy(&w, b, 4);
		return w;
	default:
		memcpy(&v, b, 8);
		return v;
	}
}

/* An integer op outside a run. */
static inline __attribute__((always_inline)) int op_int(ctf_stream *s, const ctf_op *op)
{
	const ctf_type *ft = op->t;
	uint64_t pos = align_up(s->pos, op->align), v;
	const uint8_t *b;
	int rc;

	if (pos > s->limit || ft->size > s->limit - pos)
		return DEC_SHORT;
	if (!op->special && !s->emit) {
		/* an integer nobody reads (values skipped; no slot, clock or
		 * role): only its place matters */
		s->pos = pos + ft->size;
		return DEC_OK;
	}
	b = s->pkt + (pos >> 3);
	if (op->code == CTF_OP_INT) {
		if ((rc = read_bits(s, op->align, ft->size, ft->byte_order, &v)))
			return rc;
		return int_tail(s, ft, v, 0, 0);
	}
	v = load_host(b, op->code);
	s->pos = pos + ft->size;
	return int_tail(s, ft, v, 0, 0);
}

static int run_variant(ctf_stream *s, const ctf_type *t, int d)
{
	int mi = enum_index(t->tag_type, s->slots[t->ref]);
	int opt = mi >= 0 ? t->opt_of_map[mi] : -1;
	const ctf_type *ot;

	if (opt < 0 || d + 1 > MAX_DEPTH)
		return DEC_BAD;
	ot = t->fields[opt].type;
	if (ot->nops == 1 && ot->ops[0].code >= CTF_OP_U8 && ot->ops[0].code <= CTF_OP_INT && d + 2 <= MAX_DEPTH) {
		/* one integer (LTTng's compact header: the timestamp) */
		s->pos = align_up(s->pos, ot->align);
		return op_int(s, &ot->ops[0]);
	}
	if (ot->ops)
		return tt_ctf_run_ops(s, ot, d + 1);
	s->depth = d + 1;
	return ot->kind == CTF_K_STRUCT ? tt_ctf_dec_struct(s, ot, 0, 0) : tt_ctf_dec(s, ot, 0, 0);
}


int tt_ctf_run_ops(ctf_stream *s, const ctf_type *t, int base)
{
	if (base + (int)t->ops_depth > MAX_DEPTH) {
		/* the walk fails where it gets too deep, as without programs */
		s->depth = base;
		return tt_ctf_dec_struct(s, t, 0, 0);
	}
	s->pos = align_up(s->pos, t->align);
	return tt_ctf_run_prog(s, t->ops, t->ops + t->nops, base);
}

int tt_ctf_run_prog(ctf_stream *s, const ctf_op *op, const ctf_op *end, int base)
{
	int rc;

	for (; op < end; op++) {
		const ctf_type *ft = op->t;
		uint64_t v;

		switch (op->code) {
		case CTF_OP_ALIGN:
			s->pos = align_up(s->pos, op->align);
			continue;
		case CTF_OP_MARK:
			s->ev.ncontext = s->nvals;
			continue;
		case CTF_OP_RUN: {
			const ctf_op *q = op + 1, *qe = op + 1 + op->n;
			uint64_t at = align_up(s->pos, op->align);

			if (at > s->limit || op->off > s->limit - at)
				continue; /* not all inside: op by op, checked */
			for (; q < qe; q++) {
				const ctf_type *qt = q->t;
				const uint8_t *b = s->pkt + ((at + q->off) >> 3);

				switch (q->code) {
				case CTF_OP_U8:
				case CTF_OP_U16:
				case CTF_OP_U32:
				case CTF_OP_U64:
					if (!q->special && !s->emit)
						continue;
					v = load_host(b, q->code);
					break;
				case CTF_OP_INT:
					if (!q->special && !s->emit)
						continue;
					s->pos = at + q->off;
					if ((rc = read_bits(s, 1, qt->size, qt->byte_order, &v)))
						return rc;
					break;
				case CTF_OP_TEXT:
					if (qt->role == CTF_R_PROCNAME) {
						/* dec_text's, inside the run */
						const uint8_t *nul = find_nul(b, (size_t)qt->length);

						s->ev.procname = (const char *)b;
						s->ev.procname_len = nul ? (size_t)(nul - b) : (size_t)qt->length;
						continue;
					}
					if (!s->emit)
						continue;
					s->pos = at + q->off;
					if ((rc = dec_text(s, qt, qt->length, 0, 0)))
						return rc;
					continue;
				case CTF_OP_MARK:
					s->ev.ncontext = s->nvals;
					continue;
				default: /* a nested struct's ALIGN: placed already */
					continue;
				}
				if ((rc = int_tail(s, qt, v, 0, 0)))
					return rc;
			}
			s->pos = at + op->off;
			op = qe - 1;
			continue;
		}
		case CTF_OP_U8:
		case CTF_OP_U16:
		case CTF_OP_U32:
		case CTF_OP_U64:
		case CTF_OP_INT:
			if ((rc = op_int(s, op)))
				return rc;
			continue;
		case CTF_OP_STRING:
			if ((rc = dec_string(s, ft, 0, 0)))
				return rc;
			continue;
		case CTF_OP_TEXT:
			if ((rc = dec_text(s, ft, ft->length, 0, 0)))
				return rc;
			continue;
		case CTF_OP_VARIANT:
			if ((rc = run_variant(s, ft, base + op->depth)))
				return rc;
			continue;
		default:
			s->depth = base + op->depth;
			if ((rc = tt_ctf_dec(s, ft, 0, 0)))
				return rc;
			continue;
		}
	}
	return DEC_OK;
}
