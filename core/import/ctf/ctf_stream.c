/*
 * ctf_stream.c - one CTF data stream: its life (open, close, accessors),
 * packets, event records, the packet index (tt_ctf_stream_event_at) and
 * packets for parallel decoding. See ctf_stream.h. The fields are decoded
 * by ctf_decode.c (bit layout, clock rebuild, limits: see there); the
 * state both share is struct ctf_stream in ctf_stream_int.h.
 */
#include "ctf_stream_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define PACKET_MAGIC 0xC1FC1FC1u

void tt_ctf_problem(ctf_stream *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (s->problem[0])
		return;
	n = snprintf(s->problem, sizeof(s->problem), "%s: ", s->path);
	if (n < 0 || (size_t)n >= sizeof(s->problem))
		return;
	va_start(ap, fmt);
	vsnprintf(s->problem + n, sizeof(s->problem) - (size_t)n, fmt, ap);
	va_end(ap);
}

/* ---- packets ----------------------------------------------------------------- */
#define SEEN(s, r) ((s)->role_seen & (1u << (r)))

static inline int to_ns(const ctf_stream *s, uint64_t cycles, int64_t *ns)
{
	if (!s->clock) {
		*ns = cycles > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)cycles;
		return 0;
	}
	if (s->clock->freq == 1000000000u) {
		/* tt_ctf_clock_ns for a ns clock, without the calls */
		int64_t base = s->clock->base_ns;

		if (cycles >= (uint64_t)INT64_MAX || (base > 0 && (int64_t)cycles > INT64_MAX - base))
			return -1;
		*ns = base + (int64_t)cycles;
		return 0;
	}
	return tt_ctf_clock_ns(s->clock, cycles, ns);
}

/* 1: packet open, 0: end of stream (problem recorded when abnormal). */
static int open_packet(ctf_stream *s)
{
	const ctf_meta *m = s->m;
	uint64_t off = s->next_pkt_off, avail, content, psize;
	const ctf_stream_class *sc;
	int rc;

	if (off >= s->size || off >= s->end_off)
		return 0;
	avail = (s->size - off) * 8;
	s->pkt = s->map + off;
	s->pkt_off = off;
	s->pos = 0;
	s->limit = avail;
	s->role_seen = 0;
	s->emit = 0;
	s->pkt_truncated = 0;
	if (m->packet_header) {
		rc = tt_ctf_dec_root(s, m->packet_header);
		if (rc == DEC_SHORT) {
			s->st.truncated++;
			tt_ctf_problem(s, "packet header at byte %llu runs past the end of the file",
				(unsigned long long)off);
			return 0;
		}
		if (rc) {
			s->st.decode_errors++;
			tt_ctf_problem(s, "cannot decode the packet header at byte %llu", (unsigned long long)off);
			return 0;
		}
	}
	if (SEEN(s, CTF_R_MAGIC) && s->role_val[CTF_R_MAGIC] != PACKET_MAGIC) {
		s->st.decode_errors++;
		tt_ctf_problem(s, "bad packet magic 0x%llx at byte %llu", (unsigned long long)s->role_val[CTF_R_MAGIC],
			(unsigned long long)off);
		return 0;
	}
	if (SEEN(s, CTF_R_UUID) && m->has_uuid && memcmp(s->pkt + s->uuid_pos / 8, m->uuid, 16)) {
		/* babeltrace2 reads such packets (a metadata rewritten by hand,
		 * streams copied between sessions): so do we, and say so */
		s->st.uuid_mismatch++;
		tt_ctf_problem(s, "packet at byte %llu: uuid differs from the metadata's (read anyway)",
			(unsigned long long)off);
	}
	if (SEEN(s, CTF_R_STREAM_ID)) {
		sc = tt_ctf_meta_stream(m, s->role_val[CTF_R_STREAM_ID]);
		if (!sc) {
			s->st.decode_errors++;
			tt_ctf_problem(s, "packet at byte %llu: stream id %llu is not in the metadata",
				(unsigned long long)off, (unsigned long long)s->role_val[CTF_R_STREAM_ID]);
			return 0;
		}
	} else {
		if (m->nstreams != 1) {
			s->st.decode_errors++;
			tt_ctf_problem(s, "packet at byte %llu has no stream_id and the metadata has %zu streams",
				(unsigned long long)off, m->nstreams);
			return 0;
		}
		sc = &m->streams[0];
	}
	s->sc = sc;
	s->class_id = sc->id;
	s->clock = sc->clock >= 0 ? &m->clocks[sc->clock] : NULL;
	if (SEEN(s, CTF_R_STREAM_INSTANCE_ID))
		s->instance = (int64_t)s->role_val[CTF_R_STREAM_INSTANCE_ID];
	if (sc->packet_context) {
		rc = tt_ctf_dec_root(s, sc->packet_context);
		if (rc == DEC_SHORT) {
			s->st.truncated++;
			tt_ctf_problem(s, "packet context at byte %llu runs past the end of the file",
				(unsigned long long)off);
			return 0;
		}
		if (rc) {
			s->st.decode_errors++;
			tt_ctf_problem(s, "cannot decode the packet context at byte %llu", (unsigned long long)off);
			return 0;
		}
	}
	psize = SEEN(s, CTF_R_PACKET_SIZE) ? s->role_val[CTF_R_PACKET_SIZE]
	      : SEEN(s, CTF_R_CONTENT_SIZE) ? s->role_val[CTF_R_CONTENT_SIZE] : avail;
	content = SEEN(s, CTF_R_CONTENT_SIZE) ? s->role_val[CTF_R_CONTENT_SIZE] : psize;
	if (psize == 0 || content > psize || content < s->pos) {
		s->st.decode_errors++;
		tt_ctf_problem(s, "packet at byte %llu: content_size %llu / packet_size %llu bits are inconsistent",
			(unsigned long long)off, (unsigned long long)content, (unsigned long long)psize);
		return 0;
	}
	if (psize > avail) {
		s->st.truncated++;
		s->pkt_truncated = 1;
		if (content > avail)
			tt_ctf_problem(s, "packet at byte %llu: content_size (%llu bytes) runs past the end of the file (%llu bytes left)",
				(unsigned long long)off, (unsigned long long)(content / 8),
				(unsigned long long)(avail / 8));
		else
			tt_ctf_problem(s, "packet at byte %llu: packet_size (%llu bytes) runs past the end of the file (%llu bytes left)",
				(unsigned long long)off, (unsigned long long)(psize / 8),
				(unsigned long long)(avail / 8));
		s->next_pkt_off = s->size;
		if (content > avail)
			content = avail;
	} else {
		s->next_pkt_off = off + (psize + 7) / 8;
	}
	s->content_end = content;
	s->limit = content;
	if (SEEN(s, CTF_R_CPU_ID))
		s->cpu = (int64_t)s->role_val[CTF_R_CPU_ID];
	if (SEEN(s, CTF_R_SEQ_NUM)) {
		uint64_t seq = s->role_val[CTF_R_SEQ_NUM];

		if (s->have_seq && seq > s->prev_seq + 1) {
			/* lost between the previous packet's end and this one's
			 * beginning (babeltrace2's discarded-packets range) */
			int64_t b = 0, e = 0;

			to_ns(s, SEEN(s, CTF_R_TS_BEGIN) ? s->role_val[CTF_R_TS_BEGIN] : s->clock_val, &e);
			b = s->have_prev_end ? s->prev_end_ns : e;
			if (!s->has_pending) {
				s->pending.begin_ts = b;
				s->pending.end_ts = e;
				s->pending.count = 0;
				s->pending.packets = 0;
			}
			s->pending.packets += seq - s->prev_seq - 1;
			s->has_pending = 1;
			s->st.packets_lost += seq - s->prev_seq - 1;
		}
		s->have_seq = 1;
		s->prev_seq = seq;
	}
	if (SEEN(s, CTF_R_EVENTS_DISCARDED)) {
		uint64_t cur = s->role_val[CTF_R_EVENTS_DISCARDED];

		if (s->have_prev_disc && cur != s->prev_disc) {
			uint64_t delta = cur - s->prev_disc;
			int64_t end_ns = 0, begin_ns;

			if (s->disc_size < 64)
				delta &= ((uint64_t)1 << s->disc_size) - 1;
			if (SEEN(s, CTF_R_TS_END))
				to_ns(s, s->role_val[CTF_R_TS_END], &end_ns);
			else
				to_ns(s, s->clock_val, &end_ns);
			begin_ns = s->have_prev_end ? s->prev_end_ns : end_ns;
			if (!s->has_pending) {
				s->pending.begin_ts = begin_ns;
				s->pending.count = 0;
				s->pending.packets = 0;
			}
			s->pending.count += delta;
			s->pending.end_ts = end_ns;
			s->has_pending = 1;
			s->st.discarded += delta;
		}
		s->have_prev_disc = 1;
		s->prev_disc = cur;
	}
	s->pos = s->pos; /* events start right after the context */
	s->in_packet = 1;
	s->st.packets++;
	return 1;
}

static void end_packet(ctf_stream *s)
{
	s->in_packet = 0;
	if (SEEN(s, CTF_R_TS_END) && s->role_val[CTF_R_TS_END] != 0) {
		s->clock_val = s->role_val[CTF_R_TS_END];
		if (!to_ns(s, s->clock_val, &s->prev_end_ns))
			s->have_prev_end = 1;
	}
	if (s->pkt_truncated)
		s->ended = 1;
}

#define EVENT_ROLES ((1u << CTF_R_EVENT_ID) | (1u << CTF_R_VPID) | (1u << CTF_R_VTID) | \
		     (1u << CTF_R_PID) | (1u << CTF_R_TID) | (1u << CTF_R_PROCNAME))

/* Decodes one event record at s->pos. */
static int decode_event(ctf_stream *s)
{
	const ctf_stream_class *sc = s->sc;
	const ctf_event_class *cls;
	uint64_t start = s->pos, id = 0;
	ctf_event *ev = &s->ev;
	int rc;

	s->role_seen &= ~EVENT_ROLES;
	s->nvals = 0;
	s->nkeys = 0;
	ev->procname = NULL;
	ev->procname_len = 0;
	s->emit = 0;
	if (sc->event_header) {
		rc = tt_ctf_dec_root(s, sc->event_header);
		if (rc)
			return rc;
	}
	if (SEEN(s, CTF_R_EVENT_ID))
		id = s->role_val[CTF_R_EVENT_ID];
	/* tt_ctf_meta_event's dense table, without the call */
	cls = sc->by_id ? (id < sc->nby_id ? sc->by_id[id] : NULL) : tt_ctf_meta_event(sc, id);
	if (!cls) {
		s->st.unknown_events++;
		tt_ctf_problem(s, "event id %llu at byte %llu is not in the metadata (truncated metadata?)",
			(unsigned long long)id, (unsigned long long)(s->pkt_off + start / 8));
		return DEC_UNKNOWN;
	}
	s->emit = !(s->skip && s->skip[cls - s->m->events]);
	ev->skipped = !s->emit;
	if (cls->ops) {
		/* contexts and fields in one program (its MARK sets ncontext) */
		s->depth = 0;
		rc = tt_ctf_run_prog(s, cls->ops, cls->ops + cls->nops, 0);
		if (rc)
			return rc;
	} else {
		if (sc->event_context) {
			rc = tt_ctf_dec_root(s, sc->event_context);
			if (rc)
				return rc;
		}
		if (cls->context) {
			rc = tt_ctf_dec_root(s, cls->context);
			if (rc)
				return rc;
		}
		ev->ncontext = s->nvals;
		if (cls->fields) {
			rc = tt_ctf_dec_root(s, cls->fields);
			if (rc)
				return rc;
		}
	}
	if (s->pos == start)
		return DEC_BAD; /* an empty record would never advance */
	ev->cls = cls;
	ev->offset = s->pkt_off * 8 + start;
	ev->cycles = s->clock_val;
	if (to_ns(s, s->clock_val, &ev->ts))
		return DEC_TS; /* decoded (the record's size is known): dropped */
	if (s->nkeys) {
		size_t i;

		for (i = 0; i < s->nvals; i++)
			if (!s->vals[i].key)
				s->vals[i].key = s->keys + s->vals[i].keyoff;
	}
	ev->vals = s->vals;
	ev->nvals = s->nvals;
	ev->has_vpid = SEEN(s, CTF_R_VPID) != 0;
	ev->has_vtid = SEEN(s, CTF_R_VTID) != 0;
	ev->has_pid = SEEN(s, CTF_R_PID) != 0;
	ev->has_tid = SEEN(s, CTF_R_TID) != 0;
	ev->vpid = (int64_t)s->role_val[CTF_R_VPID];
	ev->vtid = (int64_t)s->role_val[CTF_R_VTID];
	ev->pid = (int64_t)s->role_val[CTF_R_PID];
	ev->tid = (int64_t)s->role_val[CTF_R_TID];
	if (s->has_last_ts && ev->ts < s->last_ts)
		s->st.ts_backwards++;
	s->has_last_ts = 1;
	s->last_ts = ev->ts;
	s->st.events++;
	return DEC_OK;
}

int tt_ctf_stream_next(ctf_stream *s, const ctf_event **out)
{
	*out = NULL;
	for (;;) {
		uint64_t at;
		int rc;

		if (!s->in_packet) {
			if (s->ended || !open_packet(s)) {
				s->ended = 1;
				return 0;
			}
			continue;
		}
		if (s->pos >= s->content_end) {
			end_packet(s);
			continue;
		}
		at = s->pos;
		rc = decode_event(s);
		if (rc == DEC_OK) {
			s->ev.discard = s->has_pending;
			s->ev.class_id = s->class_id;
			s->ev.instance = s->instance;
			s->ev.cpu = s->cpu;
			*out = &s->ev;
			return 1;
		}
		if (rc == DEC_TS) {
			/* offset + cycles past int64 ns: dropped and counted as
			 * Perfetto does with timestamps it cannot represent */
			s->st.ts_overflow++;
			tt_ctf_problem(s, "event at byte %llu: clock value %llu overflows 64-bit ns since the epoch (dropped)",
				(unsigned long long)(s->pkt_off + at / 8), (unsigned long long)s->clock_val);
			continue;
		}
		if (rc == DEC_SHORT) {
			if (s->pkt_truncated) {
				tt_ctf_problem(s, "event at byte %llu runs past the end of the file",
					(unsigned long long)(s->pkt_off + at / 8));
			} else {
				s->st.decode_errors++;
				tt_ctf_problem(s, "event at byte %llu runs past the packet's content_size",
					(unsigned long long)(s->pkt_off + at / 8));
			}
		} else if (rc == DEC_BAD) {
			s->st.decode_errors++;
			tt_ctf_problem(s, "cannot decode the event at byte %llu (bad variant tag, nesting or size)",
				(unsigned long long)(s->pkt_off + at / 8));
		} else if (rc == DEC_NOMEM) {
			s->st.decode_errors++;
			tt_ctf_problem(s, "out of memory decoding the event at byte %llu",
				(unsigned long long)(s->pkt_off + at / 8));
		}
		/* abandon the rest of this packet (DEC_UNKNOWN was counted as
		 * such): without the record size the next event cannot be found */
		end_packet(s);
	}
}

static uint64_t be64(const uint8_t *b)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | b[i];
	return v;
}

/* LTTng's packet index (DIR/index/NAME.idx, CTF index 1.x, big endian:
 * magic 0xC1F1DCC1, major, minor, entry size; then per packet its offset
 * and packet size in bits first): used when its packets chain from byte 0
 * to the end of the file, each where the previous one ends. 0 or -1. */
static int index_from_file(ctf_stream *s)
{
	const char *slash = strrchr(s->path, '/');
	char ipath[4096];
	uint8_t *buf = NULL;
	long len;
	size_t elen, n, i;
	uint64_t expect = 0;
	FILE *f;
	int rc = -1;

	if ((size_t)snprintf(ipath, sizeof(ipath), "%.*s/index/%s.idx", slash ? (int)(slash - s->path) : 1,
			     slash ? s->path : ".", slash ? slash + 1 : s->path) >= sizeof(ipath))
		return -1;
	f = fopen(ipath, "rb");
	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 16 || len > (64L << 20) || fseek(f, 0, SEEK_SET) ||
	    !(buf = malloc((size_t)len)) || fread(buf, 1, (size_t)len, f) != (size_t)len)
		goto out;
	elen = (size_t)(buf[12] << 24 | buf[13] << 16 | buf[14] << 8 | buf[15]);
	if (be64(buf) >> 32 != 0xC1F1DCC1u || (be64(buf) & 0xFFFFFFFFu) != 1 || elen < 16 ||
	    ((size_t)len - 16) % elen)
		goto out;
	n = ((size_t)len - 16) / elen;
	if (!n || !(s->pkts = malloc(n * sizeof(*s->pkts))))
		goto out;
	for (i = 0; i < n; i++) {
		const uint8_t *e = buf + 16 + i * elen;
		uint64_t off = be64(e), psize = be64(e + 8);

		if (off != expect || !psize || psize % 8 || psize / 8 > s->size - off)
			break;
		s->pkts[i] = off;
		expect = off + psize / 8;
	}
	if (i == n && expect == s->size) {
		s->npkts = n;
		rc = 0;
	} else {
		free(s->pkts);
		s->pkts = NULL;
	}
out:
	free(buf);
	fclose(f);
	return rc;
}

int tt_ctf_stream_indexed_by_file(const ctf_stream *s)
{
	return s->idx_file;
}

/* The packets' offsets: from LTTng's index file when it agrees with the
 * file, else a walk of the packet chain (headers and contexts only) that
 * finds the packets tt_ctf_stream_next opened: it stops where that
 * stopped, on the same bytes. */
static int index_packets(ctf_stream *s)
{
	size_t cap = 0;

	if (!index_from_file(s)) {
		s->indexed = s->idx_file = 1;
		s->in_packet = 0;
		return 0;
	}
	s->indexed = 1;
	s->next_pkt_off = 0;
	s->in_packet = 0;
	while (open_packet(s)) {
		if (s->npkts == cap) {
			size_t nc = cap ? cap * 2 : 64;
			uint64_t *np = realloc(s->pkts, nc * sizeof(*np));

			if (!np)
				return -1;
			s->pkts = np;
			cap = nc;
		}
		s->pkts[s->npkts++] = s->pkt_off;
	}
	s->in_packet = 0;
	return 0;
}

/* ---- packets for parallel decoding ------------------------------------ */
static void seed_get(const ctf_stream *s, ctf_seed *d)
{
	d->clock_val = s->clock_val;
	d->cpu = s->cpu;
	d->instance = s->instance;
	d->have_prev_disc = s->have_prev_disc;
	d->prev_disc = s->prev_disc;
	d->have_prev_end = s->have_prev_end;
	d->prev_end_ns = s->prev_end_ns;
	d->have_seq = s->have_seq;
	d->prev_seq = s->prev_seq;
}

/* Opens every packet from the first on (offsets from LTTng's index when
 * idx, else from the chain of packet sizes): 0, or -1 when the index
 * file's offsets are not the packets open_packet finds (or on no memory). */
static int scan_packets(ctf_stream *s, int idx)
{
	size_t cap = 0, i = 0;
	int prev_end_set = 0;

	s->npk = 0;
	s->next_pkt_off = 0;
	s->in_packet = 0;
	s->ended = 0;
	s->clock_val = 0;
	s->have_seq = s->have_prev_disc = s->has_pending = s->have_prev_end = 0;
	s->cpu = -1;
	s->instance = -1;
	for (;;) {
		ctf_packet *p;
		ctf_seed seed;

		if (idx && i == s->npkts)
			break;
		if (idx)
			s->next_pkt_off = s->pkts[i];
		seed_get(s, &seed);
		s->full_clock = 0;
		if (!open_packet(s))
			break;
		if (idx && (s->pkt_off != s->pkts[i] ||
			    (i + 1 < s->npkts ? s->next_pkt_off != s->pkts[i + 1] : s->next_pkt_off != s->size)))
			return -1;
		if (s->npk == cap) {
			size_t nc = cap ? cap * 2 : 64;
			ctf_packet *np = realloc(s->pk, nc * sizeof(*np));

			if (!np)
				return -1;
			s->pk = np;
			cap = nc;
		}
		p = &s->pk[s->npk++];
		p->off = s->pkt_off;
		p->content_bytes = s->content_end / 8;
		p->seed = seed;
		/* the clock at the packet's start is the whole stream's when
		 * the packet sets it (a 64-bit timestamp_begin, as LTTng and
		 * barectf write) or the previous one ended on its
		 * timestamp_end: no event before it matters */
		p->cut = s->npk == 1 || s->full_clock || prev_end_set;
		if (to_ns(s, s->clock_val, &p->ts))
			p->ts = INT64_MAX;
		s->has_pending = 0;
		end_packet(s);
		prev_end_set = SEEN(s, CTF_R_TS_END) && s->role_val[CTF_R_TS_END] != 0;
		i++;
		if (s->ended)
			break;
	}
	return 0;
}

int tt_ctf_stream_packets(ctf_stream *s, const ctf_packet **out, size_t *n)
{
	int rc;

	if (!s->pk && !s->npk) {
		/* the same packets whichever way they are found: the index
		 * file is used when its offsets are the chain's */
		if (index_from_file(s) || scan_packets(s, 1)) {
			free(s->pkts);
			s->pkts = NULL;
			s->npkts = 0;
			s->idx_file = 0;
			rc = scan_packets(s, 0);
		} else {
			s->idx_file = 1;
			rc = 0;
		}
		if (rc) {
			free(s->pk);
			s->pk = NULL;
			s->npk = 0;
			return -1;
		}
		/* the packets are tt_ctf_stream_event_at's index too */
		free(s->pkts);
		s->pkts = malloc((s->npk ? s->npk : 1) * sizeof(*s->pkts));
		s->npkts = 0;
		if (s->pkts) {
			for (size_t i = 0; i < s->npk; i++)
				s->pkts[i] = s->pk[i].off;
			s->npkts = s->npk;
			s->indexed = 1;
		}
		s->in_packet = 0;
		memset(&s->st, 0, sizeof(s->st));
		s->problem[0] = '\0';
	}
	*out = s->pk;
	*n = s->npk;
	return 0;
}

int tt_ctf_stream_part(const ctf_stream *s, const ctf_packet *pk, uint64_t end_off, ctf_stream **out)
{
	ctf_stream *p = calloc(1, sizeof(*p));

	*out = NULL;
	if (!p)
		return TT_ENOMEM;
	p->m = s->m;
	p->path = strdup(s->path);
	p->slots = calloc((size_t)s->m->nslots + 1, sizeof(*p->slots));
	if (!p->path || !p->slots) {
		tt_ctf_stream_close(p);
		return TT_ENOMEM;
	}
	p->part = 1;
	p->map = s->map;
	p->size = s->size;
	p->end_off = end_off;
	p->disc_size = s->disc_size;
	p->skip = s->skip;
	p->next_pkt_off = pk->off;
	p->clock_val = pk->seed.clock_val;
	p->cpu = pk->seed.cpu;
	p->instance = pk->seed.instance;
	p->have_prev_disc = pk->seed.have_prev_disc;
	p->prev_disc = pk->seed.prev_disc;
	p->have_prev_end = pk->seed.have_prev_end;
	p->prev_end_ns = pk->seed.prev_end_ns;
	p->have_seq = pk->seed.have_seq;
	p->prev_seq = pk->seed.prev_seq;
	p->class_id = s->class_id;
	*out = p;
	return TT_OK;
}

int tt_ctf_stream_event_at(ctf_stream *s, uint64_t offset, const ctf_event **out)
{
	uint64_t byte = offset / 8, pkt;
	size_t lo = 0, hi;

	*out = NULL;
	if (!s->indexed && index_packets(s))
		return 0;
	/* most calls stay in the packet of the previous one */
	if (!s->in_packet || byte < s->pkt_off || byte >= s->next_pkt_off) {
		hi = s->npkts;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (s->pkts[mid] <= byte)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == 0)
			return 0;
		pkt = s->pkts[lo - 1];
		s->next_pkt_off = pkt;
		s->in_packet = 0;
		if (!open_packet(s) || s->pkt_off != pkt)
			return 0;
	}
	s->pos = offset - s->pkt_off * 8;
	if (s->pos >= s->content_end || decode_event(s) != DEC_OK)
		return 0;
	*out = &s->ev;
	return 1;
}

int tt_ctf_class_keys(const ctf_meta *m, const ctf_stream_class *sc, const ctf_event_class *cls,
		      void (*fn)(void *ctx, const char *key), void *ctx)
{
	const ctf_type *scopes[3] = { sc->event_context, cls->context, cls->fields };
	ctf_stream *s = calloc(1, sizeof(*s));
	size_t size = 4096;
	int rc = -1;

	if (!s)
		return -1;
	s->m = m;
	s->slots = calloc((size_t)m->nslots + 1, sizeof(*s->slots));
	/* zeros decode as any event would, short of a variant (none here):
	 * integers, empty strings, text sequences of length 0 */
	while (s->slots && size <= (64u << 20)) {
		uint8_t *zeros = calloc(size, 1);
		int r = DEC_OK;

		if (!zeros)
			break;
		s->pkt = zeros;
		s->pos = 0;
		s->limit = (uint64_t)size * 8;
		s->nvals = s->nkeys = 0;
		s->emit = 1;
		for (int i = 0; i < 3 && r == DEC_OK; i++)
			if (scopes[i])
				r = tt_ctf_dec_root(s, scopes[i]);
		if (r == DEC_OK) {
			for (size_t i = 0; i < s->nvals; i++)
				fn(ctx, s->vals[i].key ? s->vals[i].key : s->keys + s->vals[i].keyoff);
			rc = 0;
		}
		free(zeros);
		if (r != DEC_SHORT)
			break;
		size *= 4;
	}
	free(s->slots);
	free(s->vals);
	free(s->keys);
	free(s);
	return rc;
}

void tt_ctf_stream_drop_pages(ctf_stream *s)
{
	/* file-backed and read-only: the pages come back from the page
	 * cache (or the disk) when a lazy set is read */
	if (s->map && s->size)
		madvise((void *)s->map, (size_t)s->size, MADV_DONTNEED);
}

void tt_ctf_stream_drop_range(const ctf_stream *s, uint64_t from, uint64_t to)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t a, b;

	if (!s->map || pg <= 0)
		return;
	if (to > s->size)
		to = s->size;
	a = from / (uint64_t)pg * (uint64_t)pg;
	b = (to + (uint64_t)pg - 1) / (uint64_t)pg * (uint64_t)pg;
	if (b > a)
		madvise((void *)(s->map + a), (size_t)(b - a), MADV_DONTNEED);
}

void tt_ctf_stream_skip_values(ctf_stream *s, const uint8_t *skip)
{
	s->skip = skip;
}

int tt_ctf_stream_take_discard(ctf_stream *s, ctf_discard *out)
{
	if (!s->has_pending)
		return 0;
	*out = s->pending;
	s->has_pending = 0;
	return 1;
}

int tt_ctf_stream_open(const ctf_meta *m, const char *path, ctf_stream **out, tt_err *err)
{
	ctf_stream *s;
	struct stat sb;
	int fd;
	size_t i;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return tt_err_set(err, TT_ENOMEM, "%s: out of memory", path);
	s->m = m;
	s->path = strdup(path);
	s->slots = calloc((size_t)m->nslots + 1, sizeof(*s->slots));
	s->instance = -1;
	s->cpu = -1;
	s->disc_size = 64;
	if (!s->path || !s->slots) {
		tt_ctf_stream_close(s);
		return tt_err_set(err, TT_ENOMEM, "%s: out of memory", path);
	}
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		tt_ctf_stream_close(s);
		return tt_err_set(err, TT_EIO, "%s: cannot open: %s", path, strerror(errno));
	}
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		close(fd);
		tt_ctf_stream_close(s);
		return tt_err_set(err, TT_EIO, "%s: not a regular file", path);
	}
	s->size = (uint64_t)sb.st_size;
	s->end_off = s->size;
	if (s->size) {
		void *p = mmap(NULL, (size_t)s->size, PROT_READ, MAP_PRIVATE, fd, 0);

		if (p == MAP_FAILED) {
			close(fd);
			tt_ctf_stream_close(s);
			return tt_err_set(err, TT_EIO, "%s: cannot map: %s", path, strerror(errno));
		}
		s->map = p;
		madvise(p, (size_t)s->size, MADV_SEQUENTIAL);
	}
	close(fd);
	/* size of events_discarded for wrap-around deltas */
	for (i = 0; i < m->nstreams; i++) {
		const ctf_type *pc = m->streams[i].packet_context;
		size_t j;

		for (j = 0; pc && pc->kind == CTF_K_STRUCT && j < pc->nfields; j++)
			if (pc->fields[j].type->role == CTF_R_EVENTS_DISCARDED)
				s->disc_size = pc->fields[j].type->size;
	}
	/* learn the stream class from the first packet, then start over */
	if (s->size) {
		if (!open_packet(s)) {
			int code = TT_EINVAL;

			tt_err_set(err, code, "%s", s->problem[0] ? s->problem : "not a CTF stream");
			tt_ctf_stream_close(s);
			return code;
		}
		s->in_packet = 0;
		s->next_pkt_off = 0;
		memset(&s->st, 0, sizeof(s->st));
		s->have_seq = s->have_prev_disc = s->has_pending = s->have_prev_end = 0;
		s->pkt_truncated = 0;
		s->clock_val = 0;
		memset(s->slots, 0, ((size_t)m->nslots + 1) * sizeof(*s->slots));
		s->problem[0] = '\0';
	} else {
		s->ended = 1;
	}
	*out = s;
	return TT_OK;
}

void tt_ctf_stream_close(ctf_stream *s)
{
	if (!s)
		return;
	if (s->map && !s->part)
		munmap((void *)s->map, (size_t)s->size);
	free(s->pk);
	free(s->path);
	free(s->slots);
	free(s->vals);
	free(s->keys);
	free(s->pkts);
	free(s);
}

const ctf_stream_stats *tt_ctf_stream_stats(const ctf_stream *s) { return &s->st; }
const char *tt_ctf_stream_problem(const ctf_stream *s) { return s->problem; }
uint64_t tt_ctf_stream_offset(const ctf_stream *s) { return s->in_packet ? s->pkt_off + s->pos / 8 : s->next_pkt_off; }
uint64_t tt_ctf_stream_size(const ctf_stream *s) { return s->size; }
uint64_t tt_ctf_stream_class_id(const ctf_stream *s) { return s->class_id; }
const ctf_stream_class *tt_ctf_stream_class(const ctf_stream *s) { return s->sc; }
int64_t tt_ctf_stream_instance(const ctf_stream *s) { return s->instance; }
int64_t tt_ctf_stream_cpu(const ctf_stream *s) { return s->cpu; }
