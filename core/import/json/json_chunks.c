/* json_chunks.c - see import_json.c for the importer as a whole. */
#include "json_int.h"

/* ---- chunks: two parsers at once on plain files ------------------------------------
 *
 * yajl takes longer than the rest of the import together, so on a file
 * that can be read at any offset two worker threads parse it at once, in
 * chunks of about 1 MiB cut between two events of the event array: a chunk
 * ends after a '}' that is followed by a ',' and the next '{' (white space
 * between). Each chunk is parsed alone, as "[" chunk "]", into one batch;
 * the import thread takes the batches in file order. A cut found this way
 * may be wrong (the bytes can sit inside a string or a nested array), so
 * the import thread uses a chunk only from a proved start:
 *   - chunk 0 is parsed by the top-level parser (the file's real context);
 *   - a chunk that starts at a proved place reads its bytes exactly as the
 *     whole file's parse would, so every event it closes at the event
 *     array's depth is right, and so is the place after it.
 * A chunk that parses completely as an array ends at a proved place (any
 * other reading of its bytes leaves a string or a container open at the
 * "]"). One that does not (a wrong cut) is used up to its last event
 * closed at the array's depth; the chunks cut after it are dropped and
 * cutting starts again after that event. Where no chunk can start (the
 * last piece of the file, one event longer than 16 chunks, bad text), a
 * parser put in the state the file's parser has between two events reads
 * on alone from the last proved place: the text is read exactly once as
 * one JSON text, whatever the cuts were.
 */
#define NWORKERS 2
#define NSLOT 4
#define CHUNK_DEFAULT (1u << 20)
/* no cut in this many chunks' bytes (one huge event): parse alone */
#define CHUNK_GROW_MAX 16

struct slot {
	struct batch b;
	unsigned char *buf;   /* the chunk's bytes, read when it is claimed */
	size_t cap, len, avail;
	uint64_t start, end;  /* the chunk: the file's bytes [start, end) */
	unsigned gen;         /* cut in this generation (see chunks.gen) */
	int ok;               /* parsed completely: end is proved */
	/* not ok: its events (all closed at the array's depth, the last one
	 * ending at part_end) are right all the same; part_next is the '{'
	 * after the last, 0 when no event follows */
	uint64_t part_end, part_next;
};

struct chunks;

/* A worker's own parser (allocated by the import thread, as the slots'
 * buffers: memory a worker thread allocates would stay in its malloc
 * arena, resident after the import). */
struct worker {
	struct chunks *c;
	struct jparse p;
	yajl_handle yh;    /* parses chunk after chunk (yajl_allow_multiple_values) */
};

struct chunks {
	struct worker workers[NWORKERS];
	struct json *j;
	struct jparse *top;
	tt_bytesrc *src;
	size_t size;       /* bytes per chunk */
	int depth;         /* of the event array: 1 in "[...]", 2 in {"traceEvents":[...]} */
	int nl;            /* the file puts line breaks between events */
	/* slot seq % NSLOT holds chunk seq; a claim reads the chunk (under
	 * the queue's lock: chunks are cut in file order); the queue is dry
	 * when no chunk can be cut, until cutting starts again */
	tt_workq *q;
	struct slot slots[NSLOT];
	uint64_t next_start; /* under the queue's lock */
	unsigned gen;      /* bumped when cutting starts again: older chunks are dropped */
};

static int is_ws(unsigned char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* Does the object at buf[k] ('{') start with a key of a trace event? */
static int event_key_at(const unsigned char *buf, size_t len, size_t k)
{
	static const char *const keys[] = { "ph", "ts", "pid", "tid", "name", "cat", "args", "dur",
					    "id", "id2", "s", "tts", "tdur", "bp", "scope", "bind_id" };
	size_t i = k + 1, e;

	while (i < len && is_ws(buf[i]))
		i++;
	if (i >= len || buf[i] != '"')
		return 0;
	for (e = ++i; e < len && e - i < 8 && buf[e] != '"'; e++)
		;
	if (e >= len || buf[e] != '"')
		return 0;
	for (size_t n = 0; n < sizeof(keys) / sizeof(keys[0]); n++)
		if (strlen(keys[n]) == e - i && memcmp(keys[n], buf + i, e - i) == 0)
			return 1;
	return 0;
}

/* The best of the last cuts in buf[0, len): *end just after a '}', *next
 * at the '{' that follows it after a ',' (white space around). A wrong
 * cut is never wrong data but makes the rest of the file parse alone, so
 * the cut is chosen among those of the last 64 KiB by how much it looks
 * like one between events: the next object starts with an event's key
 * (nested objects seldom do), and a line break is in it (writers that put
 * events on lines of their own write nested objects inline). With nl,
 * only cuts with a line break count. Only cuts at a '{' from buf[from] on
 * are looked for (whether a '{' is a cut depends on the bytes up to it:
 * a longer read need not look again where a shorter one found none).
 * 0, or -1 if there is no cut. */
static int last_cut(const unsigned char *buf, size_t len, size_t from, int nl, size_t *end, size_t *next)
{
	int best = -1;

	for (size_t k = len; k-- > from;) {
		size_t m = k;
		int has_nl = 0, score;

		if (best >= 0 && len - k > 64 * 1024)
			break;
		if (buf[k] != '{')
			continue;
		for (; m > 0 && is_ws(buf[m - 1]); m--)
			has_nl |= buf[m - 1] == '\n';
		if (m == 0 || buf[m - 1] != ',')
			continue;
		m--;
		for (; m > 0 && is_ws(buf[m - 1]); m--)
			has_nl |= buf[m - 1] == '\n';
		if (m == 0 || buf[m - 1] != '}' || (nl && !has_nl))
			continue;
		score = 2 * event_key_at(buf, len, k) + has_nl;
		if (score > best) {
			best = score;
			*end = m;
			*next = k;
			if (score == 3)
				break;
		}
	}
	return best >= 0 ? 0 : -1;
}

/* Reads the chunk starting at start into *buf; 0 with *len (the chunk's
 * bytes), *avail (the bytes read) and *next set, or -1 when there is no
 * further chunk (end of file near, no cut, read error: the parser that
 * reads on alone takes it from there). */
static int read_chunk(struct chunks *c, uint64_t start, unsigned char **buf, size_t *cap,
		      size_t *len, size_t *avail, uint64_t *next)
{
	size_t most = c->size * CHUNK_GROW_MAX, have = 0;

	for (size_t want = c->size; want <= most; have = want, want *= 2) {
		size_t end = 0, nx = 0;
		long n;

		if (tt_vec_reserve((void **)buf, cap, want, 1))
			return -1;
		/* (a longer try reads and searches only its new bytes) */
		n = tt_bytesrc_pread(c->src, *buf + have, want - have, start + have);
		if (n < 0 || (size_t)n < want - have)
			return -1; /* the file's last piece */
		/* a file of one event a line: a longer chunk rather than a
		 * cut without a line break (one inside a long event's args) */
		if ((last_cut(*buf, want, have, c->nl, &end, &nx) == 0 ||
		     (c->nl && want * 2 > most && last_cut(*buf, want, 0, 0, &end, &nx) == 0)) &&
		    end > 0) {
			*len = end;
			*avail = want;
			*next = start + nx;
			return 0;
		}
	}
	return -1;
}

/* The '{' after buf[at]: its offset when white space, a ',' and white
 * space lead to it, else 0. */
static size_t brace_after(const unsigned char *buf, size_t avail, size_t at)
{
	while (at < avail && is_ws(buf[at]))
		at++;
	if (at >= avail || buf[at] != ',')
		return 0;
	for (at++; at < avail && is_ws(buf[at]); at++)
		;
	return at < avail && buf[at] == '{' ? at : 0;
}

/* Where a chunk p did not read completely may be cut again: after its
 * last event. */
static void slot_part(struct slot *s, const struct jparse *p, const unsigned char *buf,
		      size_t avail)
{
	size_t brace;

	s->part_end = s->part_next = 0;
	if (!s->b.ev.n)
		return;
	s->part_end = s->start + p->last_close;
	brace = brace_after(buf, avail, (size_t)p->last_close);
	if (brace)
		s->part_next = s->start + brace;
}

/* A yajl handle for the chunk parser p; NULL when out of memory. */
static yajl_handle chunk_handle(struct jparse *p)
{
	yajl_handle yh = yajl_alloc(&tt_json_callbacks, NULL, p);

	if (yh) {
		yajl_config(yh, yajl_dont_validate_strings, 1);
		/* each chunk is one "[...]" value */
		yajl_config(yh, yajl_allow_multiple_values, 1);
	}
	return yh;
}

/* Parses one chunk (not chunk 0) with the worker's parser into s, at the
 * depth of the file's event array (depth limits stay exact). */
static int parse_chunk(struct worker *w, struct slot *s, const unsigned char *buf, size_t len,
		       size_t avail, int depth)
{
	struct jparse *p = &w->p;
	struct batch *b = &s->b;
	int ok;

	memset(p, 0, sizeof(*p));
	p->j = w->c->j;
	p->src = w->c->src;
	if (!w->yh && !(w->yh = chunk_handle(p)))
		return 0;
	p->yh = w->yh;
	p->chunk_mode = 1;
	p->b = b;
	p->depth = depth - 1;
	p->top_is_map = p->top_key_events = depth == 2;
	tt_json_batch_clear(b);
	p->file_base = s->start;
	ok = yajl_parse(p->yh, (const unsigned char *)"[", 1) == yajl_status_ok;
	p->text = buf; /* (base 0: offsets in buf) */
	ok = ok && yajl_parse(p->yh, buf, len) == yajl_status_ok;
	p->text = NULL;
	slot_part(s, p, buf, avail);
	ok = ok && yajl_parse(p->yh, (const unsigned char *)"]", 1) == yajl_status_ok &&
	     yajl_complete_parse(p->yh) == yajl_status_ok &&
	     !p->oom && !p->too_deep && p->depth == depth - 1 && p->ev_array_depth == -1;
	if (!ok) {
		/* a handle that failed stays failed: a new one next time */
		yajl_free(w->yh);
		w->yh = NULL;
	}
	p->yh = NULL;
	return ok;
}

/* Chunk 0, from the start of the file, with the top-level parser: proved
 * when the parser is then between two events, having just read the '}'
 * that ends the chunk. */
static int parse_first(struct chunks *c, struct slot *s, const unsigned char *buf, size_t len,
		       size_t avail)
{
	struct jparse *p = c->top;

	p->chunk_mode = 1;
	p->b = &s->b;
	tt_json_batch_clear(p->b);
	p->base = 0;
	p->text = buf;
	p->ys = yajl_parse(p->yh, buf, len);
	p->text = NULL;
	p->chunk_mode = 0;
	p->b = NULL;
	/* events of an array at another depth than the chunks were cut for:
	 * none of it is used (the parser reading on alone starts over); nor
	 * is a systemTraceEvents string without an event after it (the
	 * parser starting over would read it again) */
	if (p->ev_array_depth != c->depth || s->b.ev.n == tt_json_systrace_count(&s->b))
		s->b.ev.n = 0;
	slot_part(s, p, buf, avail);
	return p->ys == yajl_status_ok && !p->oom && !p->in_event && !p->skip_depth &&
	       p->ev_array_depth == c->depth && p->depth == p->ev_array_depth &&
	       s->b.ev.n && p->last_close == len;
}

/* A claim (under the queue's lock): the next chunk into the slot; non-zero
 * when none can be cut from here (the queue is dry). */
static int claim_chunk(void *arg, uint64_t seq)
{
	struct chunks *c = arg;
	struct slot *s = &c->slots[seq % NSLOT];
	uint64_t next;

	if (read_chunk(c, c->next_start, &s->buf, &s->cap, &s->len, &s->avail, &next))
		return 1;
	s->gen = c->gen;
	s->start = c->next_start;
	s->end = c->next_start + s->len;
	c->next_start = next;
	return 0;
}

static void *chunk_worker(void *arg)
{
	struct worker *w = arg;
	struct chunks *c = w->c;
	uint64_t seq;

	while (tt_workq_work(c->q, TT_WQ_WAIT, -1, &seq) == TT_WQ_CLAIMED) {
		struct slot *s = &c->slots[seq % NSLOT];

		s->ok = seq == 0 ? parse_first(c, s, s->buf, s->len, s->avail)
				 : parse_chunk(w, s, s->buf, s->len, s->avail, c->depth);
		tt_workq_done(c->q, seq, 0);
	}
	return NULL;
}

/* Room for a chunk's worth in the import thread's arena (see struct
 * worker); 0 or -1. */
static int chunks_reserve(struct chunks *c)
{
	size_t events = c->size / 64 + 16;

	for (int i = 0; i < NWORKERS; i++) {
		struct worker *w = &c->workers[i];

		w->c = c;
		if (!(w->yh = chunk_handle(&w->p)))
			return -1;
	}
	for (int i = 0; i < NSLOT; i++)
		if (tt_vec_reserve((void **)&c->slots[i].buf, &c->slots[i].cap, c->size, 1) ||
		    tt_json_batch_reserve(&c->slots[i].b, events, c->size))
			return -1;
	return 0;
}

struct recut {
	struct chunks *c;
	uint64_t at;
};

/* Cutting starts again at r->at (under the queue's lock). */
static void recut(void *arg)
{
	struct recut *r = arg;

	r->c->gen++;
	r->c->next_start = r->at;
}

/* Runs the workers and takes their chunks in order. Returns the proved
 * file offset from which a parser must read on alone (0: from the start),
 * with *events the events taken before it; -1 when the import must stop
 * (out of memory, cancelled). */
int64_t tt_json_parse_chunks(struct json *j, struct jparse *top, tt_bytesrc *src, size_t size,
			    int depth, int nl, uint64_t *events)
{
	struct chunks *c = calloc(1, sizeof(*c));
	int stop = 0;
	uint64_t resume = 0, seq;

	*events = 0;
	if (!c)
		return 0;
	c->j = j;
	c->top = top;
	c->src = src;
	c->size = size;
	c->depth = depth;
	c->nl = nl;
	if (!(c->q = tt_workq_new(NSLOT, 1, 0))) {
		free(c);
		return 0;
	}
	tt_workq_on_claim(c->q, claim_chunk, c);
	if (chunks_reserve(c) == 0)
		for (int i = 0; i < NWORKERS && tt_workq_start(c->q, chunk_worker, &c->workers[i]) == 0; i++)
			;
	/* (no worker: nothing is taken, the parser reads on alone from 0) */
	while (tt_workq_next(c->q, TT_WQ_WAIT, -1, &seq) == TT_WQ_TAKEN) {
		struct slot *s = &c->slots[seq % NSLOT];
		int ok = s->ok;
		uint64_t part_next = s->part_next;

		if (s->gen != c->gen) {
			/* cut after a wrong cut: dropped */
			tt_workq_release(c->q, seq);
			continue;
		}
		if (s->b.ev.n) {
			*events += s->b.ev.n - tt_json_systrace_count(&s->b);
			resume = ok ? s->end : s->part_end;
			s->b.offset = resume;
			s->b.events = *events;
			if (tt_json_consume_batch(j, &s->b))
				stop = 1;
		}
		tt_workq_release(c->q, seq);
		if (stop || (!ok && !part_next))
			break;
		if (!ok) {
			/* a wrong cut: cut again after the chunk's last right event */
			struct recut r = { c, part_next };

			tt_workq_restart(c->q, recut, &r);
		}
	}
	tt_workq_free(c->q); /* stops and joins the workers */
	for (int i = 0; i < NSLOT; i++) {
		tt_json_batch_free(&c->slots[i].b);
		free(c->slots[i].buf);
	}
	for (int i = 0; i < NWORKERS; i++)
		if (c->workers[i].yh)
			yajl_free(c->workers[i].yh);
	free(c);
	return stop ? -1 : (int64_t)resume;
}

/* Puts p, fresh, in the state the file's parser has after an event that
 * ends at offset at: in the event array, events events read so far, and
 * the displayTimeUnit top read before (unit, when it came before at). */
int tt_json_top_between_events(struct jparse *p, struct json *j, tt_bytesrc *src, int depth,
			      uint64_t at, uint64_t events, const char *unit, uint64_t unit_at)
{
	/* an element that is not an event leaves no trace; a string, as it
	 * ends at its quote (a number would run on into the next bytes) */
	const char *prefix = depth == 1 ? "[\"\"" : "{\"traceEvents\":[\"\"";

	if (tt_json_top_init(p, j, src))
		return -1;
	if (yajl_parse(p->yh, (const unsigned char *)prefix, strlen(prefix)) != yajl_status_ok)
		return -1;
	p->events = events;
	p->offset = at;
	p->first_read_aligns = 1;
	if (unit_at && unit_at < at) {
		snprintf(p->unit, sizeof(p->unit), "%s", unit);
		p->unit_at = unit_at;
	}
	return 0;
}

/* Chunks are worth it on a plain file of several chunks whose text starts
 * like a trace: the depth of its event array, or 0; *nl when its first
 * 64 KiB put a line break between two events (one before an event's key). */
int tt_json_chunk_depth(tt_bytesrc *src, size_t size, int *nl)
{
	unsigned char *head;
	size_t end, next;
	long n;
	int depth = 0;

	*nl = 0;
	if (!tt_bytesrc_seekable(src) || tt_bytesrc_size(src) < 4 * (uint64_t)size)
		return 0;
	head = malloc(64 * 1024);
	if (!head)
		return 0;
	n = tt_bytesrc_pread(src, head, 64 * 1024, 0);
	for (long i = 0; i < n; i++) {
		if (is_ws(head[i]))
			continue;
		depth = head[i] == '[' ? 1 : head[i] == '{' ? 2 : 0;
		break;
	}
	*nl = n > 0 && last_cut(head, (size_t)n, 0, 1, &end, &next) == 0 &&
	      event_key_at(head, (size_t)n, next);
	free(head);
	return depth;
}

/* Bytes per chunk: the import options' (tests cut small files into many
 * chunks with TT_JSON_CHUNK), else 1 MiB. */
size_t tt_json_chunk_size(const tt_import *im)
{
	return im->opts.json_chunk >= 16 ? im->opts.json_chunk : CHUNK_DEFAULT;
}
