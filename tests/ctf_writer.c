/*
 * ctf_writer.c - see ctf_writer.h. Test code: errors are -1, no messages.
 * Layout is computed by hand here (not with termtrace's reader) so that a
 * reader bug cannot hide behind a matching writer bug; babeltrace2 checks
 * the writer.
 */
#include "ctf_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXS 64

typedef struct wstream {
	FILE *f;
	uint8_t *buf;
	uint64_t pos;           /* bits from the packet start */
	int open;
	uint64_t ts_begin, ts_end, last_ts, seq, discarded, pending_disc;
	int32_t vpid, vtid;
	char procname[17];
	int bad_uuid;
	uint64_t ip;
} wstream;

struct ctfw {
	ctfw_opts o;
	char dir[1024];
	unsigned pbytes;
	int ns;
	wstream s[MAXS];
	uint64_t full;
	int failed;
};

static const uint8_t UUID[16] = { 0x2a, 0x1b, 0x3c, 0x4d, 0x5e, 0x6f, 0x70, 0x81,
				  0x92, 0xa3, 0xb4, 0xc5, 0xd6, 0xe7, 0xf8, 0x09 };

/* ---- bits ----------------------------------------------------------------- */
static void put(ctfw *w, wstream *s, uint64_t v, unsigned size, unsigned align)
{
	uint64_t pos = (s->pos + align - 1) / align * align;
	unsigned i;

	if ((pos + size) > (uint64_t)w->pbytes * 8) {
		w->failed = 1; /* caller checked the room */
		return;
	}
	if (pos % 8 == 0 && size % 8 == 0) {
		unsigned n = size / 8;

		for (i = 0; i < n; i++) {
			unsigned sh = w->o.big_endian ? (n - 1 - i) * 8 : i * 8;

			s->buf[pos / 8 + i] = (uint8_t)(v >> sh);
		}
	} else {
		for (i = 0; i < size; i++) {
			uint64_t p = pos + i;
			unsigned bit = w->o.big_endian ? (unsigned)((v >> (size - 1 - i)) & 1)
						       : (unsigned)((v >> i) & 1);
			unsigned sh = w->o.big_endian ? 7 - (unsigned)(p % 8) : (unsigned)(p % 8);

			s->buf[p / 8] = (uint8_t)((s->buf[p / 8] & ~(1u << sh)) | (bit << sh));
		}
	}
	s->pos = pos + size;
}

/* alignment of byte-sized integers of `size` bits */
static unsigned al(const ctfw *w, unsigned size)
{
	return w->o.natural_align ? size : 8;
}

/* ---- packets ------------------------------------------------------------------ */
#define HDR_BITS (84 * 8)

static void write_packet_header(ctfw *w, wstream *s, int idx, uint64_t content)
{
	uint64_t save = s->pos;
	int i;

	s->pos = 0;
	put(w, s, 0xC1FC1FC1u, 32, al(w, 32));
	for (i = 0; i < 16; i++)
		put(w, s, UUID[i] ^ (i == 15 && s->bad_uuid ? 0xFF : 0), 8, 8);
	put(w, s, 0, 32, al(w, 32));               /* stream_id */
	put(w, s, (uint64_t)idx, 64, al(w, 64));   /* stream_instance_id */
	put(w, s, s->ts_begin, 64, al(w, 64));
	put(w, s, s->ts_end, 64, al(w, 64));
	put(w, s, content, 64, al(w, 64));
	put(w, s, (uint64_t)w->pbytes * 8, 64, al(w, 64));
	put(w, s, s->seq, 64, al(w, 64));
	put(w, s, s->discarded, 64, al(w, 64));
	put(w, s, (uint64_t)idx, 32, al(w, 32));   /* cpu_id */
	s->pos = save > s->pos ? save : s->pos;
}

static void close_packet(ctfw *w, int idx)
{
	wstream *s = &w->s[idx];
	uint64_t content = s->pos;

	if (!s->open)
		return;
	write_packet_header(w, s, idx, content);
	if (fwrite(s->buf, 1, w->pbytes, s->f) != w->pbytes)
		w->failed = 1;
	s->open = 0;
	s->seq++;
}

static void open_packet(ctfw *w, int idx, uint64_t ts)
{
	wstream *s = &w->s[idx];

	memset(s->buf, 0, w->pbytes);
	s->discarded += s->pending_disc;
	s->pending_disc = 0;
	s->ts_begin = ts;
	s->ts_end = ts;
	s->last_ts = ts;
	s->pos = 0;
	write_packet_header(w, s, idx, 0);
	s->pos = HDR_BITS;
	s->open = 1;
}

/* ---- events ----------------------------------------------------------------- */
typedef struct payload {
	int kind; /* event id */
	uint64_t seq;
	int32_t val, id, d;
	const char *msg;
	unsigned a, c;
	int b, g;
	uint64_t e;
	int8_t f;
	uint32_t v;
	const char *comm1, *comm2;
	int32_t tid1, tid2;
	int64_t state, ret;
	unsigned n, base; /* tt:zlen */
	uint64_t baddr, memsz, addr, call_site;
	int is_pic, has_build_id;
	const uint8_t *bid;
} payload;

static void pad(wstream *s, unsigned align)
{
	s->pos = (s->pos + align - 1) / align * align;
}

/* tt:zlen: an array's alignment applies even when it has no element */
static void write_zlen(ctfw *w, wstream *s, const payload *p)
{
	unsigned i, c = p->base;

	pad(s, 64); /* the payload struct: its most aligned member's */
	put(w, s, p->n, 8, 8);
	put(w, s, c++, 8, 8);                        /* c0 */
	put(w, s, 1, 1, 1);                          /* bit */
	pad(s, 4);
	for (i = 0; i < p->n; i++)
		put(w, s, (100 + i) & 0xF, 4, 4);    /* q4 */
	put(w, s, c++ & 7, 3, 1);                    /* after4 */
	pad(s, 16);
	for (i = 0; i < p->n; i++)
		put(w, s, 100 + i, 16, 16);
	put(w, s, c++, 8, 8);                        /* c16 */
	pad(s, 32);
	for (i = 0; i < p->n; i++)
		put(w, s, 100 + i, 32, 32);
	put(w, s, c++, 8, 8);                        /* c32 */
	pad(s, 64);
	for (i = 0; i < p->n; i++)
		put(w, s, 100 + i, 64, 64);
	put(w, s, c++, 8, 8);                        /* c64 */
	pad(s, 16);
	put(w, s, c++, 8, 8);                        /* d16 */
	pad(s, 32);
	put(w, s, c++, 8, 8);                        /* d32 */
	pad(s, 64);
	put(w, s, c++, 8, 8);                        /* d64 */
	pad(s, 32);
	for (i = 0; i < p->n; i++) {
		pad(s, 32);
		put(w, s, 100 + i, 8, 8);            /* qs[i].x */
	}
	put(w, s, c++, 8, 8);                        /* cs */
	put(w, s, 1, 1, 1);                          /* bit2 */
	pad(s, 8);                                   /* txt[0] */
	put(w, s, c++, 8, 8);                        /* ct */
}

static void write_header(ctfw *w, wstream *s, uint32_t id, uint64_t ts)
{
	unsigned bits = w->o.large_header ? 32 : 27;
	int full = ((ts - s->last_ts) >> bits) != 0;

	if (!w->o.large_header) {
		if (full || id > 30) {
			put(w, s, 31, 5, al(w, 32));
			/* extended struct: aligned on its largest member */
			put(w, s, id, 32, al(w, 32) > al(w, 64) ? al(w, 32) : al(w, 64));
			put(w, s, ts, 64, al(w, 64));
			w->full++;
		} else {
			put(w, s, id, 5, al(w, 32));
			put(w, s, ts & ((1u << 27) - 1), 27, 1);
		}
	} else {
		if (full || id > 65534) {
			put(w, s, 65535, 16, al(w, 16));
			put(w, s, id, 32, al(w, 64) > al(w, 32) ? al(w, 64) : al(w, 32));
			put(w, s, ts, 64, al(w, 64));
			w->full++;
		} else {
			put(w, s, id, 16, al(w, 16));
			put(w, s, ts & 0xFFFFFFFFu, 32, al(w, 32));
		}
	}
	s->last_ts = ts;
}

static void write_body(ctfw *w, wstream *s, const payload *p)
{
	size_t i, n;

	/* stream event context */
	if (!w->o.kernel) {
		put(w, s, (uint32_t)s->vpid, 32, al(w, 32));
		if (!w->o.vpid_only) {
			put(w, s, (uint32_t)s->vtid, 32, al(w, 32));
			for (i = 0; i < 17; i++)
				put(w, s, (uint8_t)s->procname[i], 8, 8);
		}
		if (w->o.ip_context)
			put(w, s, s->ip, 64, al(w, 64));
	}
	switch (p->kind) {
	case 5: {
		char c[16];

		s->pos = (s->pos + al(w, 64) - 1) / al(w, 64) * al(w, 64);
		memset(c, 0, sizeof(c));
		strncpy(c, p->comm1, 15);
		for (i = 0; i < 16; i++)
			put(w, s, (uint8_t)c[i], 8, 8);
		put(w, s, (uint32_t)p->tid1, 32, al(w, 32));
		put(w, s, 120, 32, al(w, 32));
		put(w, s, (uint64_t)p->state, 64, al(w, 64));
		memset(c, 0, sizeof(c));
		strncpy(c, p->comm2, 15);
		for (i = 0; i < 16; i++)
			put(w, s, (uint8_t)c[i], 8, 8);
		put(w, s, (uint32_t)p->tid2, 32, al(w, 32));
		put(w, s, 120, 32, al(w, 32));
		break;
	}
	case 6:
		put(w, s, (uint32_t)-100, 32, al(w, 32));
		n = strlen(p->msg);
		for (i = 0; i <= n; i++)
			put(w, s, (uint8_t)p->msg[i], 8, 8);
		break;
	case 7:
		put(w, s, (uint64_t)p->ret, 64, al(w, 64));
		break;
	case 0:
		put(w, s, p->seq, 64, al(w, 64));
		put(w, s, (uint32_t)p->val, 32, al(w, 32));
		n = strlen(p->msg);
		for (i = 0; i <= n; i++)
			put(w, s, (uint8_t)p->msg[i], 8, 8);
		break;
	case 1:
	case 2:
		put(w, s, (uint32_t)p->id, 32, al(w, 32));
		break;
	case 3:
		/* the struct aligns on its most aligned member (e) */
		s->pos = (s->pos + al(w, 64) - 1) / al(w, 64) * al(w, 64);
		put(w, s, p->a, 3, 1);
		put(w, s, (uint64_t)p->b & 0x1FFF, 13, 1);
		put(w, s, p->c, 1, 1);
		put(w, s, (uint64_t)p->d & 0x7FFFFFF, 27, 1);
		put(w, s, p->e, 64, al(w, 64));
		put(w, s, (uint8_t)p->f, 8, 8);
		put(w, s, (uint64_t)p->g & 0xFFFF, 16, al(w, 16));
		break;
	case 40:
		put(w, s, p->v, 32, al(w, 32));
		break;
	case 8:
		write_zlen(w, s, p);
		break;
	case 10:
		put(w, s, p->baddr, 64, al(w, 64));
		put(w, s, p->memsz, 64, al(w, 64));
		n = strlen(p->msg);
		for (i = 0; i <= n; i++)
			put(w, s, (uint8_t)p->msg[i], 8, 8);
		put(w, s, (uint64_t)p->is_pic, 8, 8);
		put(w, s, (uint64_t)p->has_build_id, 8, 8);
		put(w, s, 0, 8, 8); /* has_debug_link */
		break;
	case 11:
		put(w, s, p->baddr, 64, al(w, 64));
		put(w, s, p->n, 64, al(w, 64));
		for (i = 0; i < p->n; i++)
			put(w, s, p->bid[i], 8, 8);
		break;
	case 12:
	case 13:
		put(w, s, p->addr, 64, al(w, 64));
		put(w, s, p->call_site, 64, al(w, 64));
		break;
	}
}

static int event(ctfw *w, int idx, uint64_t ts, const payload *p)
{
	wstream *s;
	/* an upper bound of the record: header 24, context 32, payload
	 * 40 + message, alignment padding included */
	uint64_t bound = 24 + 32 + 64 + (p->kind == 0 || p->kind == 6 ? strlen(p->msg) + 1 : 0) +
			 (p->kind == 8 ? 160 : 0) + (p->kind == 10 ? strlen(p->msg) + 24 : 0) +
			 (p->kind == 11 ? p->n + 16 : 0) + (w->o.ip_context ? 16 : 0);

	if (!w || idx < 0 || idx >= w->ns)
		return -1;
	s = &w->s[idx];
	if (HDR_BITS / 8 + bound > w->pbytes)
		return -1;
	if (s->open && (s->pos + 7) / 8 + bound > w->pbytes)
		close_packet(w, idx);
	if (!s->open)
		open_packet(w, idx, ts);
	write_header(w, s, (uint32_t)p->kind, ts);
	write_body(w, s, p);
	s->ts_end = ts;
	return w->failed ? -1 : 0;
}

int ctfw_tick(ctfw *w, int s, uint64_t ts, uint64_t seq, int32_t val, const char *msg)
{
	payload p = { .kind = 0, .seq = seq, .val = val, .msg = msg };

	return event(w, s, ts, &p);
}

int ctfw_work(ctfw *w, int s, uint64_t ts, int entry, int32_t id)
{
	payload p = { .kind = entry ? 1 : 2, .id = id };

	return event(w, s, ts, &p);
}

int ctfw_bits(ctfw *w, int s, uint64_t ts, unsigned a, int b, unsigned c, int32_t d, uint64_t e,
	      int8_t f, int g)
{
	payload p = { .kind = 3, .a = a, .b = b, .c = c, .d = d, .e = e, .f = f, .g = g };

	return event(w, s, ts, &p);
}

int ctfw_far(ctfw *w, int s, uint64_t ts, uint32_t v)
{
	payload p = { .kind = 40, .v = v };

	return event(w, s, ts, &p);
}

int ctfw_sched_switch(ctfw *w, int s, uint64_t ts, const char *prev_comm, int32_t prev_tid,
		      int64_t prev_state, const char *next_comm, int32_t next_tid)
{
	payload p = { .kind = 5, .comm1 = prev_comm, .tid1 = prev_tid, .state = prev_state,
		      .comm2 = next_comm, .tid2 = next_tid };

	return event(w, s, ts, &p);
}

int ctfw_openat(ctfw *w, int s, uint64_t ts, int entry, const char *filename, int64_t ret)
{
	payload p = { .kind = entry ? 6 : 7, .msg = filename, .ret = ret };

	return event(w, s, ts, &p);
}

int ctfw_zlen(ctfw *w, int s, uint64_t ts, unsigned n, unsigned base)
{
	payload p = { .kind = 8, .n = n > 3 ? 3 : n, .base = base };

	return event(w, s, ts, &p);
}

int ctfw_bin_info(ctfw *w, int s, uint64_t ts, uint64_t baddr, uint64_t memsz, const char *path,
		  int is_pic, int has_build_id)
{
	payload p = { .kind = 10, .baddr = baddr, .memsz = memsz, .msg = path, .is_pic = is_pic,
		      .has_build_id = has_build_id };

	return event(w, s, ts, &p);
}

int ctfw_build_id(ctfw *w, int s, uint64_t ts, uint64_t baddr, const uint8_t *id, unsigned n)
{
	payload p = { .kind = 11, .baddr = baddr, .bid = id, .n = n > 64 ? 64 : n };

	return event(w, s, ts, &p);
}

int ctfw_func(ctfw *w, int s, uint64_t ts, int entry, uint64_t addr, uint64_t call_site)
{
	payload p = { .kind = entry ? 12 : 13, .addr = addr, .call_site = call_site };

	return event(w, s, ts, &p);
}

void ctfw_ip(ctfw *w, int s, uint64_t ip)
{
	if (w && s >= 0 && s < w->ns)
		w->s[s].ip = ip;
}

void ctfw_bad_uuid(ctfw *w, int s, int bad)
{
	if (!w || s < 0 || s >= w->ns)
		return;
	close_packet(w, s);
	w->s[s].bad_uuid = bad;
}

void ctfw_discard(ctfw *w, int s, uint64_t n)
{
	if (!w || s < 0 || s >= w->ns)
		return;
	close_packet(w, s);
	w->s[s].pending_disc += n;
}

void ctfw_lose_packet(ctfw *w, int s)
{
	if (!w || s < 0 || s >= w->ns)
		return;
	close_packet(w, s);
	w->s[s].seq++;
}

uint64_t ctfw_full_stamps(const ctfw *w)
{
	return w->full;
}

void ctfw_thread(ctfw *w, int s, int32_t vpid, int32_t vtid, const char *procname)
{
	if (!w || s < 0 || s >= w->ns)
		return;
	w->s[s].vpid = vpid;
	w->s[s].vtid = vtid;
	memset(w->s[s].procname, 0, sizeof(w->s[s].procname));
	strncpy(w->s[s].procname, procname, 16);
}

ctfw *ctfw_open(const char *dir, const ctfw_opts *o)
{
	ctfw *w = calloc(1, sizeof(*w));
	int i;

	if (!w)
		return NULL;
	w->o = *o;
	if (!w->o.freq)
		w->o.freq = 1000000000;
	w->pbytes = o->packet_bytes ? o->packet_bytes : 4096;
	w->ns = o->nstreams > 0 ? (o->nstreams < MAXS ? o->nstreams : MAXS) : 1;
	snprintf(w->dir, sizeof(w->dir), "%s", dir);
	for (i = 0; i < w->ns; i++) {
		char path[1200];

		snprintf(path, sizeof(path), "%s/chan_%d", dir, i);
		w->s[i].f = fopen(path, "wb");
		w->s[i].buf = calloc(1, w->pbytes);
		if (!w->s[i].f || !w->s[i].buf) {
			w->ns = i + 1;
			ctfw_close(w);
			return NULL;
		}
		ctfw_thread(w, i, 1000, 1000 + i, i ? "tt-worker" : "tt-main");
	}
	return w;
}

/* ---- metadata ------------------------------------------------------------------ */
static int write_metadata(ctfw *w)
{
	char path[1200];
	FILE *f;
	char *text = NULL;
	size_t len = 0;
	const char *bo = w->o.big_endian ? "be" : "le";
	unsigned a8 = 8, a16 = al(w, 16), a32 = al(w, 32), a64 = al(w, 64);
	const char *A = w->o.attrs ? w->o.attrs : "";
	char ip[128], tid_name[256];

	snprintf(ip, sizeof(ip), "\t\tinteger { size = 64; align = %u; signed = 0; encoding = none; base = 16; } _ip;\n",
		 al(w, 64));
	snprintf(tid_name, sizeof(tid_name),
		 "\t\tinteger { size = 32; align = %u; signed = 1; encoding = none; base = 10; } _vtid;\n"
		 "\t\tinteger { size = 8; align = 8; signed = 1; encoding = UTF8; base = 10; } _procname[17];\n", a32);

	f = open_memstream(&text, &len);
	if (!f)
		return -1;
	fprintf(f, "/* CTF 1.8 */\n\n");
	fprintf(f, "typealias integer { size = 8; align = %u; signed = false; } := uint8_t;\n", a8);
	fprintf(f, "typealias integer { size = 16; align = %u; signed = false; } := uint16_t;\n", a16);
	fprintf(f, "typealias integer { size = 32; align = %u; signed = false; } := uint32_t;\n", a32);
	fprintf(f, "typealias integer { size = 64; align = %u; signed = false; } := uint64_t;\n", a64);
	fprintf(f, "typealias integer { size = 64; align = %u; signed = false; } := unsigned long;\n", a64);
	fprintf(f, "typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n");
	fprintf(f, "typealias integer { size = 27; align = 1; signed = false; } := uint27_t;\n\n");
	fprintf(f, "trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"");
	for (int i = 0; i < 16; i++)
		fprintf(f, "%02x%s", UUID[i], i == 3 || i == 5 || i == 7 || i == 9 ? "-" : "");
	fprintf(f, "\";\n\tbyte_order = %s;\n%s", bo, A);
	fprintf(f, "\tpacket.header := struct {\n\t\tuint32_t magic;\n\t\tuint8_t  uuid[16];\n"
		   "\t\tuint32_t stream_id;\n\t\tuint64_t stream_instance_id;\n\t};\n};\n\n");
	fprintf(f, "env {\n\tdomain = \"ust\";\n\ttracer_name = \"tt-ctf-writer\";\n\thostname = \"testhost\";\n%s};\n\n",
		w->o.env ? w->o.env : "");
	fprintf(f, "clock {\n\tname = \"monotonic\";\n\tfreq = %llu;\n\toffset_s = %lld;\n\toffset = %lld;\n%s};\n\n",
		(unsigned long long)w->o.freq, (long long)w->o.offset_s, (long long)w->o.offset, A);
	fprintf(f, "typealias integer { size = 27; align = 1; signed = false; map = clock.monotonic.value; } := uint27_clock_monotonic_t;\n");
	fprintf(f, "typealias integer { size = 32; align = %u; signed = false; map = clock.monotonic.value; } := uint32_clock_monotonic_t;\n", a32);
	fprintf(f, "typealias integer { size = 64; align = %u; signed = false; map = clock.monotonic.value; } := uint64_clock_monotonic_t;\n\n", a64);
	fprintf(f, "struct packet_context {\n\tuint64_clock_monotonic_t timestamp_begin;\n"
		   "\tuint64_clock_monotonic_t timestamp_end;\n\tuint64_t content_size;\n"
		   "\tuint64_t packet_size;\n\tuint64_t packet_seq_num;\n\tunsigned long events_discarded;\n"
		   "\tuint32_t cpu_id;\n};\n\n");
	fprintf(f, "struct event_header_compact {\n\tenum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
		   "\tvariant <id> {\n\t\tstruct {\n\t\t\tuint27_clock_monotonic_t timestamp;\n\t\t} compact;\n"
		   "\t\tstruct {\n\t\t\tuint32_t id;\n\t\t\tuint64_clock_monotonic_t timestamp;\n\t\t} extended;\n"
		   "\t} v;\n} align(%u);\n\n", a32);
	fprintf(f, "struct event_header_large {\n\tenum : uint16_t { compact = 0 ... 65534, extended = 65535 } id;\n"
		   "\tvariant <id> {\n\t\tstruct {\n\t\t\tuint32_clock_monotonic_t timestamp;\n\t\t} compact;\n"
		   "\t\tstruct {\n\t\t\tuint32_t id;\n\t\t\tuint64_clock_monotonic_t timestamp;\n\t\t} extended;\n"
		   "\t} v;\n} align(%u);\n\n", a16);
	fprintf(f, "stream {\n\tid = 0;\n\tevent.header := struct event_header_%s;\n"
		   "\tpacket.context := struct packet_context;\n%s", w->o.large_header ? "large" : "compact", A);
	if (!w->o.kernel)
		fprintf(f, "\tevent.context := struct {\n"
			   "\t\tinteger { size = 32; align = %u; signed = 1; encoding = none; base = 10; } _vpid;\n"
			   "%s%s\t};\n", a32, w->o.vpid_only ? "" : tid_name, w->o.ip_context ? ip : "");
	fprintf(f, "};\n\n");
	fprintf(f, "event {\n\tname = \"tt:tick\";\n\tid = 0;\n\tstream_id = 0;\n%s\tfields := struct {\n"
		   "\t\tinteger { size = 64; align = %u; signed = 0; encoding = none; base = 10; } _seq;\n"
		   "\t\tinteger { size = 32; align = %u; signed = 1; encoding = none; base = 10; } _val;\n"
		   "\t\tstring _msg;\n\t};\n};\n\n", A, a64, a32);
	fprintf(f, "event {\n\tname = \"tt:work_entry\";\n\tid = 1;\n\tstream_id = 0;\n\tfields := struct {\n"
		   "\t\tinteger { size = 32; align = %u; signed = 1; encoding = none; base = 10; } _id;\n\t};\n};\n\n", a32);
	fprintf(f, "event {\n\tname = \"tt:work_exit\";\n\tid = 2;\n\tstream_id = 0;\n\tfields := struct {\n"
		   "\t\tinteger { size = 32; align = %u; signed = 1; encoding = none; base = 10; } _id;\n\t};\n};\n\n", a32);
	fprintf(f, "event {\n\tname = \"tt:bits\";\n\tid = 3;\n\tstream_id = 0;\n\tfields := struct {\n"
		   "\t\tinteger { size = 3; align = 1; signed = false; } a;\n"
		   "\t\tinteger { size = 13; align = 1; signed = true; } b;\n"
		   "\t\tinteger { size = 1; align = 1; signed = false; } c;\n"
		   "\t\tinteger { size = 27; align = 1; signed = true; } d;\n"
		   "\t\tinteger { size = 64; align = %u; signed = false; base = 16; } e;\n"
		   "\t\tinteger { size = 8; align = 8; signed = true; } f;\n"
		   "\t\tenum : integer { size = 16; align = %u; signed = true; } { \"NEG\" = -5 ... -1, \"ZERO\" = 0, \"ONE\" = 1, \"MANY\" = 2 ... 1000 } g;\n"
		   "\t};\n};\n\n", a64, a16);
	fprintf(f, "event {\n\tname = \"sched_switch\";\n\tid = 5;\n\tstream_id = 0;\n\tfields := struct {\n"
		   "\t\tinteger { size = 8; align = 8; signed = 1; encoding = UTF8; base = 10; } _prev_comm[16];\n"
		   "\t\tinteger { size = 32; align = %u; signed = 1; encoding = none; base = 10; } _prev_tid;\n"
		   "\t\tinteger { size = 32; align = %u; signed = 1; encoding = none; base = 10; } _prev_prio;\n"
		   "\t\tinteger { size = 64; align = %u; signed = 1; encoding = none; base = 10; } _prev_state;\n"
		   "\t\tinteger { size = 8; align = 8; signed = 1; encoding = UTF8; base = 10; } _next_comm[16];\n"
		   "\t\tinteger { size = 32; align = %u; signed = 1; encoding = none; base = 10; } _next_tid;\n"
		   "\t\tinteger { size = 32; align = %u; signed = 1; encoding = none; base = 10; } _next_prio;\n"
		   "\t};\n};\n\n", a32, a32, a64, a32, a32);
	fprintf(f, "event {\n\tname = \"syscall_entry_openat\";\n\tid = 6;\n\tstream_id = 0;\n\tfields := struct {\n"
		   "\t\tinteger { size = 32; align = %u; signed = 1; } dfd;\n\t\tstring filename;\n\t};\n};\n\n", a32);
	fprintf(f, "event {\n\tname = \"syscall_exit_openat\";\n\tid = 7;\n\tstream_id = 0;\n\tfields := struct {\n"
		   "\t\tinteger { size = 64; align = %u; signed = 1; } ret;\n\t};\n};\n\n", a64);
	fprintf(f, "event {\n\tname = \"tt:far_id\";\n\tid = 40;\n\tstream_id = 0;\n\tfields := struct {\n"
		   "\t\tinteger { size = 32; align = %u; signed = false; } v;\n\t};\n};\n", a32);
	fprintf(f, "event {\n\tname = \"lttng_ust_statedump:bin_info\";\n\tid = 10;\n\tstream_id = 0;\n\tfields := struct {\n"
		   "\t\tinteger { size = 64; align = %u; signed = 0; encoding = none; base = 16; } _baddr;\n"
		   "\t\tinteger { size = 64; align = %u; signed = 0; encoding = none; base = 10; } _memsz;\n"
		   "\t\tstring _path;\n"
		   "\t\tinteger { size = 8; align = 8; signed = 0; encoding = none; base = 10; } _is_pic;\n"
		   "\t\tinteger { size = 8; align = 8; signed = 0; encoding = none; base = 10; } _has_build_id;\n"
		   "\t\tinteger { size = 8; align = 8; signed = 0; encoding = none; base = 10; } _has_debug_link;\n"
		   "\t};\n};\n\n", a64, a64);
	fprintf(f, "event {\n\tname = \"lttng_ust_statedump:build_id\";\n\tid = 11;\n\tstream_id = 0;\n\tfields := struct {\n"
		   "\t\tinteger { size = 64; align = %u; signed = 0; encoding = none; base = 16; } _baddr;\n"
		   "\t\tinteger { size = 64; align = %u; signed = 0; encoding = none; base = 10; } __build_id_length;\n"
		   "\t\tinteger { size = 8; align = 8; signed = 0; encoding = none; base = 16; } _build_id[ __build_id_length ];\n"
		   "\t};\n};\n\n", a64, a64);
	for (int e = 0; e < 2; e++)
		fprintf(f, "event {\n\tname = \"lttng_ust_cyg_profile:func_%s\";\n\tid = %d;\n\tstream_id = 0;\n"
			   "\tloglevel = 12;\n\tfields := struct {\n"
			   "\t\tinteger { size = 64; align = %u; signed = 0; encoding = none; base = 16; } _addr;\n"
			   "\t\tinteger { size = 64; align = %u; signed = 0; encoding = none; base = 16; } _call_site;\n"
			   "\t};\n};\n\n", e ? "exit" : "entry", 12 + e, a64, a64);
	fprintf(f, "event {\n\tname = %s;\n\tid = 8;\n\tstream_id = 0;\n%s\tfields := struct {\n"
		   "\t\tinteger { size = 8; align = 8; signed = false; %s } n;\n"
		   "\t\tinteger { size = 8; align = 8; signed = false; } c0;\n"
		   "\t\tinteger { size = 1; align = 1; signed = false; } bit;\n"
		   "\t\tinteger { size = 4; align = 4; signed = false; } q4[n];\n"
		   "\t\tinteger { size = 3; align = 1; signed = false; } after4;\n"
		   "\t\tinteger { size = 16; align = 16; signed = false; } q16[n];\n"
		   "\t\tinteger { size = 8; align = 8; signed = false; } c16;\n"
		   "\t\tinteger { size = 32; align = 32; signed = false; } q32[n];\n"
		   "\t\tinteger { size = 8; align = 8; signed = false; } c32;\n"
		   "\t\tinteger { size = 64; align = 64; signed = false; } q64[n];\n"
		   "\t\tinteger { size = 8; align = 8; signed = false; } c64;\n"
		   "\t\tinteger { size = 16; align = 16; signed = false; } a16[0];\n"
		   "\t\tinteger { size = 8; align = 8; signed = false; } d16;\n"
		   "\t\tinteger { size = 32; align = 32; signed = false; } a32[0];\n"
		   "\t\tinteger { size = 8; align = 8; signed = false; } d32;\n"
		   "\t\tinteger { size = 64; align = 64; signed = false; } a64[0];\n"
		   "\t\tinteger { size = 8; align = 8; signed = false; } d64;\n"
		   "\t\tstruct { integer { size = 8; align = 8; signed = false; } x; } align(32) qs[n];\n"
		   "\t\tinteger { size = 8; align = 8; signed = false; } cs;\n"
		   "\t\tinteger { size = 1; align = 1; signed = false; } bit2;\n"
		   "\t\tinteger { size = 8; align = 8; signed = false; encoding = UTF8; } txt[0];\n"
		   "\t\tinteger { size = 8; align = 8; signed = false; } ct;\n"
		   "\t};\n};\n", w->o.zlen_name ? w->o.zlen_name : "\"tt:zlen\"", A, A);
	if (fclose(f))
		return -1;
	snprintf(path, sizeof(path), "%s/metadata", w->dir);
	f = fopen(path, "wb");
	if (!f) {
		free(text);
		return -1;
	}
	if (!w->o.packetized_metadata) {
		fwrite(text, 1, len, f);
	} else {
		/* packets of at most 900 text bytes, padded to 1024 */
		size_t off = 0;

		while (off < len) {
			uint8_t hdr[37];
			size_t n = len - off > 900 ? 900 : len - off;
			uint32_t content = (uint32_t)((37 + n) * 8), psize = 1024 * 8;
			uint32_t magic = 0x75D11D57;
			uint8_t pad[1024] = { 0 };

			memset(hdr, 0, sizeof(hdr));
			for (int i = 0; i < 4; i++) {
				int sh = w->o.big_endian ? (3 - i) * 8 : i * 8;

				hdr[i] = (uint8_t)(magic >> sh);
				hdr[24 + i] = (uint8_t)(content >> sh);
				hdr[28 + i] = (uint8_t)(psize >> sh);
			}
			memcpy(hdr + 4, UUID, 16);
			hdr[35] = 1;
			hdr[36] = 8;
			fwrite(hdr, 1, 37, f);
			fwrite(text + off, 1, n, f);
			fwrite(pad, 1, 1024 - 37 - n, f);
			off += n;
		}
	}
	free(text);
	return fclose(f) ? -1 : 0;
}

int ctfw_close(ctfw *w)
{
	int i, rc;

	if (!w)
		return -1;
	for (i = 0; i < w->ns; i++) {
		if (w->s[i].f) {
			close_packet(w, i);
			if (fclose(w->s[i].f))
				w->failed = 1;
		}
		free(w->s[i].buf);
	}
	rc = write_metadata(w);
	rc = rc || w->failed ? -1 : 0;
	free(w);
	return rc;
}
