/*
 * ctf_metadata.c - TSDL (CTF 1.8 metadata): blocks, the top level, and the
 * entry points (unpack, parse, load, lookups); the lexer, types and
 * resolution are in the files ctf_meta_int.h lists.
 * See ctf_metadata.h for what the result looks like.
 *
 * Pipeline: unpack (packetized metadata -> text) -> lexer (tokens with line
 * numbers) -> recursive-descent parser (blocks, typealias/typedef, type
 * specifiers, declarators) -> resolver (native byte order, clock maps,
 * roles, variant tags and sequence lengths -> value slots, event tables).
 *
 * Every allocation comes from one arena owned by the ctf_meta, so copying a
 * named type where it is used can share strings, and freeing is one walk.
 * The arena is capped (hostile metadata that nests aliases cannot grow it
 * without bound), and so is the nesting depth.
 *
 * Known limits: typealiases/typedefs/named structs have one global scope;
 * `callsite` and unknown blocks are skipped; variant options are matched to
 * enum labels by name (one leading '_' ignored); relative paths are looked up
 * in the enclosing structs, then in the roots of the earlier scopes.
 */
#include "ctf_meta_int.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- blocks ------------------------------------------------------------- */
static int parse_uuid(const char *s, uint8_t out[16])
{
	int i = 0;

	while (*s && i < 32) {
		int d;

		if (*s == '-') {
			s++;
			continue;
		}
		if (!isxdigit((unsigned char)*s))
			return -1;
		d = isdigit((unsigned char)*s) ? *s - '0' : tolower((unsigned char)*s) - 'a' + 10;
		if (i % 2 == 0)
			out[i / 2] = (uint8_t)(d << 4);
		else
			out[i / 2] |= (uint8_t)d;
		i++;
		s++;
	}
	return i == 32 && !*s ? 0 : -1;
}

int ctfm_grow_array(parser *p, void **arr, size_t *cap, size_t esz)
{
	size_t nc = *cap ? *cap * 2 : 8;
	void *na;

	if (nc > 10000000)
		return ctfm_perr(p, "too many metadata blocks");
	na = realloc(*arr, nc * esz);
	if (!na)
		return ctfm_perr(p, "out of memory");
	memset((char *)na + *cap * esz, 0, (nc - *cap) * esz);
	*arr = na;
	*cap = nc;
	return 0;
}

enum block { B_TRACE, B_ENV, B_CLOCK, B_STREAM, B_EVENT, B_OTHER };

/* The `key = value;` attributes each block knows (env takes any). */
static int block_key(enum block b, const char *key)
{
	static const char *const trace[] = { "major", "minor", "uuid", "byte_order", NULL };
	static const char *const clock[] = { "name", "freq", "offset", "offset_s", "precision", "absolute",
					     "uuid", "description", NULL };
	static const char *const stream[] = { "id", NULL };
	static const char *const event[] = { "name", "id", "stream_id", "loglevel", "model.emf.uri", NULL };

	switch (b) {
	case B_TRACE: return ctfm_known_key(key, trace);
	case B_CLOCK: return ctfm_known_key(key, clock);
	case B_STREAM: return ctfm_known_key(key, stream);
	case B_EVENT: return ctfm_known_key(key, event);
	case B_ENV: return 1;
	default: return 0;
	}
}

static int parse_block(parser *p, enum block b)
{
	ctf_clock *ck = NULL;
	ctf_stream_class *sc = NULL;
	ctf_event_class *ev = NULL;

	ctfm_next(p); /* block name */
	if (b == B_CLOCK) {
		if (GROW(p, p->clocks, p->nclocks, p->cclocks))
			return -1;
		ck = &p->clocks[p->nclocks++];
		memset(ck, 0, sizeof(*ck));
		ck->freq = 1000000000;
	} else if (b == B_STREAM) {
		if (GROW(p, p->streams, p->nstreams, p->cstreams))
			return -1;
		sc = &p->streams[p->nstreams++];
		memset(sc, 0, sizeof(*sc));
		sc->clock = -1;
	} else if (b == B_EVENT) {
		if (GROW(p, p->events, p->nevents, p->cevents))
			return -1;
		ev = &p->events[p->nevents++];
		memset(ev, 0, sizeof(*ev));
		ev->loglevel = -1;
	}
	if (ctfm_expect(p, "{"))
		return -1;
	while (!ctfm_is_punct(p, "}")) {
		char *key;
		value v;
		int64_t n;
		int decl, line;

		if (p->tok.kind == T_EOF)
			return ctfm_perr(p, "expected '}' before the end of the metadata");
		decl = ctfm_parse_type_decl(p);
		if (decl < 0)
			return -1;
		if (decl)
			continue;
		if (p->tok.kind != T_IDENT)
			return ctfm_perr(p, "expected an attribute name, got '%.*s'", (int)(p->tok.len > 40 ? 40 : p->tok.len), p->tok.s);
		line = p->tok.line;
		key = ctfm_parse_path(p);
		if (!key)
			return -1;
		if (b == B_OTHER) {
			/* callsite and unknown blocks: counted once as a block */
			if (ctfm_skip_stmt(p))
				return -1;
			continue;
		}
		if (!ctfm_is_punct(p, ":=") && !block_key(b, key)) {
			if (ctfm_skip_attr(p, key, line))
				return -1;
			continue;
		}
		if (ctfm_is_punct(p, ":=")) {
			ctf_type *t;

			ctfm_next(p);
			t = ctfm_parse_type_spec(p, 0, NULL);
			if (!t)
				return -1;
			if (ctfm_expect(p, ";"))
				return -1;
			if (b == B_TRACE && !strcmp(key, "packet.header"))
				p->m->packet_header = t;
			else if (b == B_STREAM && !strcmp(key, "packet.context"))
				sc->packet_context = t;
			else if (b == B_STREAM && !strcmp(key, "event.header"))
				sc->event_header = t;
			else if (b == B_STREAM && !strcmp(key, "event.context"))
				sc->event_context = t;
			else if (b == B_EVENT && !strcmp(key, "fields"))
				ev->fields = t;
			else if (b == B_EVENT && !strcmp(key, "context"))
				ev->context = t;
			else
				ctfm_skip(p, "attribute", key);
			continue;
		}
		if (ctfm_expect(p, "="))
			return -1;
		if (ctfm_parse_value(p, &v))
			return -1;
		if (ctfm_expect(p, ";"))
			return -1;
		switch (b) {
		case B_TRACE:
			if (!strcmp(key, "major")) {
				if (ctfm_value_int(p, &v, &n))
					return -1;
				p->m->major = (int)n;
			} else if (!strcmp(key, "minor")) {
				if (ctfm_value_int(p, &v, &n))
					return -1;
				p->m->minor = (int)n;
			} else if (!strcmp(key, "uuid")) {
				if (v.kind != V_STR || parse_uuid(v.s, p->m->uuid))
					return ctfm_perr(p, "expected a uuid string");
				p->m->has_uuid = 1;
			} else if (!strcmp(key, "byte_order")) {
				unsigned char bo;

				if (ctfm_parse_byte_order(p, &v, &bo))
					return -1;
				if (bo == CTF_BO_NATIVE)
					return ctfm_perr(p, "the trace byte_order cannot be native");
				p->trace_bo = bo;
			} else {
				ctfm_skip(p, "attribute", key);
			}
			break;
		case B_ENV:
			if (GROW(p, p->env, p->nenv, p->cenv))
				return -1;
			p->env[p->nenv].key = key;
			if (v.kind == V_NUM) {
				if (ctfm_value_int(p, &v, &p->env[p->nenv].num))
					return -1;
			} else {
				p->env[p->nenv].str = v.s;
			}
			p->nenv++;
			break;
		case B_CLOCK:
			if (!strcmp(key, "name")) {
				ck->name = v.s;
			} else if (!strcmp(key, "freq")) {
				if (ctfm_value_int(p, &v, &n))
					return -1;
				if (n <= 0)
					return ctfm_perr(p, "clock freq must be positive");
				ck->freq = (uint64_t)n;
			} else if (!strcmp(key, "offset")) {
				if (ctfm_value_int(p, &v, &n))
					return -1;
				/* cycles; may be negative: keep as signed for now */
				ck->offset_cycles = (uint64_t)n;
			} else if (!strcmp(key, "offset_s")) {
				if (ctfm_value_int(p, &v, &n))
					return -1;
				ck->offset_s = n;
			} else if (!strcmp(key, "precision")) {
				if (ctfm_value_int(p, &v, &n))
					return -1;
				ck->precision = n;
			} else if (!strcmp(key, "absolute")) {
				if (ctfm_value_int(p, &v, &n))
					return -1;
				ck->absolute = n != 0;
			} else if (strcmp(key, "uuid") && strcmp(key, "description")) {
				ctfm_skip(p, "attribute", key);
			}
			break;
		case B_STREAM:
			if (!strcmp(key, "id")) {
				if (ctfm_value_int(p, &v, &n))
					return -1;
				sc->id = (uint64_t)n;
			} else {
				ctfm_skip(p, "attribute", key);
			}
			break;
		case B_EVENT:
			if (!strcmp(key, "name")) {
				ev->name = v.s;
			} else if (!strcmp(key, "id")) {
				if (ctfm_value_int(p, &v, &n))
					return -1;
				ev->id = (uint64_t)n;
			} else if (!strcmp(key, "stream_id")) {
				if (ctfm_value_int(p, &v, &n))
					return -1;
				ev->stream_id = (uint64_t)n;
			} else if (!strcmp(key, "loglevel")) {
				if (ctfm_value_int(p, &v, &n))
					return -1;
				ev->loglevel = n;
			} else if (strcmp(key, "model.emf.uri")) {
				ctfm_skip(p, "attribute", key);
			}
			break;
		case B_OTHER:
			break;
		}
	}
	ctfm_next(p);
	if (ck && !ck->name)
		return ctfm_perr(p, "clock without a name");
	if (ev && !ev->name)
		ev->name = "(unnamed)";
	return ctfm_expect(p, ";");
}

static int parse_top(parser *p)
{
	ctfm_next(p);
	while (p->tok.kind != T_EOF) {
		int decl = ctfm_parse_type_decl(p);

		if (decl < 0)
			return -1;
		if (decl) {
			continue;
		} else if (ctfm_is_ident(p, "trace")) {
			if (parse_block(p, B_TRACE))
				return -1;
		} else if (ctfm_is_ident(p, "env")) {
			if (parse_block(p, B_ENV))
				return -1;
		} else if (ctfm_is_ident(p, "clock")) {
			if (parse_block(p, B_CLOCK))
				return -1;
		} else if (ctfm_is_ident(p, "stream")) {
			if (parse_block(p, B_STREAM))
				return -1;
		} else if (ctfm_is_ident(p, "event")) {
			if (parse_block(p, B_EVENT))
				return -1;
		} else if (ctfm_is_ident(p, "struct") || ctfm_is_ident(p, "variant") || ctfm_is_ident(p, "enum")) {
			if (!ctfm_parse_type_spec(p, 0, NULL) || ctfm_expect(p, ";"))
				return -1;
		} else if (p->tok.kind == T_IDENT) {
			/* callsite and other blocks: skipped */
			char blk[40];

			snprintf(blk, sizeof(blk), "%.*s", (int)(p->tok.len < 39 ? p->tok.len : 39), p->tok.s);
			ctfm_skip(p, "block", blk);
			if (parse_block(p, B_OTHER))
				return -1;
		} else {
			return ctfm_perr(p, "expected a declaration (trace, clock, stream, event, typealias ...), got '%.*s'",
				    (int)(p->tok.len > 40 ? 40 : p->tok.len), p->tok.s);
		}
	}
	return 0;
}

/* ---- entry points ------------------------------------------------------------ */
int tt_ctf_meta_parse(const char *text, size_t len, const char *path, ctf_meta **out, tt_err *err)
{
	parser p;
	arena *ar;
	ctf_meta *m;
	int rc;

	*out = NULL;
	{
		size_t i = 0;

		while (i < len && isspace((unsigned char)text[i]))
			i++;
		if (i < len && text[i] == 0x1E)
			return tt_err_set(err, TT_EUNSUPPORTED, "%s: CTF 2 not supported (JSON metadata)", path);
	}
	m = calloc(1, sizeof(*m));
	ar = calloc(1, sizeof(*ar));
	if (!m || !ar) {
		free(m);
		free(ar);
		return tt_err_set(err, TT_ENOMEM, "%s: out of memory", path);
	}
	m->parser_state = ar;
	memset(&p, 0, sizeof(p));
	p.path = path;
	p.text = text;
	p.len = len;
	p.line = 1;
	p.ar = ar;
	p.m = m;
	p.err = err;
	rc = parse_top(&p);
	if (!rc)
		rc = ctfm_resolve(&p);
	free(p.aliases);
	free(p.clocks);
	free(p.streams);
	free(p.events);
	free(p.env);
	if (rc || p.failed) {
		if (!p.failed)
			tt_err_set(err, TT_EINVAL, "%s: bad metadata", path);
		tt_ctf_meta_free(m);
		return err && err->code ? err->code : TT_EINVAL;
	}
	if (m->major && (m->major != 1 || m->minor != 8)) {
		int code = tt_err_set(err, TT_EUNSUPPORTED, "%s: CTF %d.%d not supported (1.8 only)", path,
				      m->major, m->minor);

		tt_ctf_meta_free(m);
		return code;
	}
	*out = m;
	return TT_OK;
}

static uint32_t rd32(const uint8_t *b, int be)
{
	return be ? (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]
		  : (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

int tt_ctf_meta_unpack(const uint8_t *data, size_t len, const char *path, char **text,
		       size_t *text_len, tt_err *err)
{
	char *out;
	size_t n = 0, off = 0;

	*text = NULL;
	*text_len = 0;
	if (len >= 4 && (rd32(data, 0) == PKT_MAGIC || rd32(data, 1) == PKT_MAGIC)) {
		int be = rd32(data, 1) == PKT_MAGIC;

		out = malloc(len + 1);
		if (!out)
			return tt_err_set(err, TT_ENOMEM, "%s: out of memory", path);
		while (off + PKT_HDR <= len) {
			uint32_t content, packet;

			if (rd32(data + off, be) != PKT_MAGIC) {
				free(out);
				return tt_err_set(err, TT_EINVAL, "%s: bad metadata packet magic at byte %zu",
						  path, off);
			}
			content = rd32(data + off + 24, be);
			packet = rd32(data + off + 28, be);
			if (data[off + 32] || data[off + 33] || data[off + 34]) {
				free(out);
				return tt_err_set(err, TT_EUNSUPPORTED,
						  "%s: compressed, encrypted or checksummed metadata packet at byte %zu is not supported",
						  path, off);
			}
			if (content % 8 || packet % 8 || content < PKT_HDR * 8 || packet < content ||
			    off + content / 8 > len) {
				free(out);
				return tt_err_set(err, TT_EINVAL,
						  "%s: metadata packet at byte %zu has a bad content_size/packet_size",
						  path, off);
			}
			memcpy(out + n, data + off + PKT_HDR, content / 8 - PKT_HDR);
			n += content / 8 - PKT_HDR;
			off += packet / 8;
		}
	} else {
		out = malloc(len + 1);
		if (!out)
			return tt_err_set(err, TT_ENOMEM, "%s: out of memory", path);
		memcpy(out, data, len);
		n = len;
	}
	/* drop NUL padding at the end */
	while (n && out[n - 1] == '\0')
		n--;
	out[n] = '\0';
	if (memchr(out, '\0', n)) {
		size_t at = (size_t)((char *)memchr(out, '\0', n) - out);

		free(out);
		return tt_err_set(err, TT_EINVAL, "%s: NUL byte in metadata text at offset %zu", path, at);
	}
	{
		size_t i = 0;

		while (i < n && isspace((unsigned char)out[i]))
			i++;
		if (i < n && out[i] == 0x1E) {
			free(out);
			return tt_err_set(err, TT_EUNSUPPORTED, "%s: CTF 2 not supported (JSON metadata)", path);
		}
	}
	*text = out;
	*text_len = n;
	return TT_OK;
}

int tt_ctf_meta_load(const char *dir, ctf_meta **out, tt_err *err)
{
	char path[4096];
	struct stat sb;
	uint8_t *data = NULL;
	char *text = NULL;
	size_t len, got = 0, tlen;
	int fd, rc;

	*out = NULL;
	snprintf(path, sizeof(path), "%s/metadata", dir);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return tt_err_set(err, TT_EIO, "%s: cannot open: %s", path, strerror(errno));
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		close(fd);
		return tt_err_set(err, TT_EIO, "%s: not a regular file", path);
	}
	if ((uint64_t)sb.st_size > META_MAX_BYTES) {
		close(fd);
		return tt_err_set(err, TT_ENOMEM, "%s: metadata larger than %zu MiB", path,
				  META_MAX_BYTES >> 20);
	}
	len = (size_t)sb.st_size;
	data = malloc(len ? len : 1);
	if (!data) {
		close(fd);
		return tt_err_set(err, TT_ENOMEM, "%s: out of memory", path);
	}
	while (got < len) {
		ssize_t r = read(fd, data + got, len - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (got == 0) {
		free(data);
		return tt_err_set(err, TT_EINVAL, "%s: empty metadata", path);
	}
	rc = tt_ctf_meta_unpack(data, got, path, &text, &tlen, err);
	free(data);
	if (rc)
		return rc;
	rc = tt_ctf_meta_parse(text, tlen, path, out, err);
	free(text);
	return rc;
}

void tt_ctf_meta_drop_programs(ctf_meta *m)
{
	for (ctf_type *t = m->all; t; t = t->next_alloc) {
		t->ops = NULL;
		t->nops = t->ops_depth = 0;
	}
	for (size_t i = 0; i < m->nevents; i++) {
		m->events[i].ops = NULL;
		m->events[i].nops = 0;
	}
}

void tt_ctf_meta_free(ctf_meta *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nstreams; i++) {
		free(m->streams[i].by_id);
		free(m->streams[i].sorted);
	}
	free(m->clocks);
	free(m->streams);
	free(m->events);
	free(m->env);
	if (m->parser_state) {
		ctfm_arena_free(m->parser_state);
		free(m->parser_state);
	}
	free(m);
}

const ctf_event_class *tt_ctf_meta_event(const ctf_stream_class *sc, uint64_t id)
{
	size_t lo = 0, hi;

	if (sc->by_id)
		return id < sc->nby_id ? sc->by_id[id] : NULL;
	hi = sc->nsorted;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sc->sorted[mid]->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < sc->nsorted && sc->sorted[lo]->id == id ? sc->sorted[lo] : NULL;
}

int tt_ctf_type_fixed(const ctf_type *t)
{
	if (!t)
		return 1;
	switch (t->kind) {
	case CTF_K_VARIANT:
		return 0;
	case CTF_K_SEQ:
		return t->is_text; /* text is one value, whatever its length */
	case CTF_K_ARRAY:
		return t->is_text || tt_ctf_type_fixed(t->elem);
	case CTF_K_STRUCT:
		for (size_t i = 0; i < t->nfields; i++)
			if (!tt_ctf_type_fixed(t->fields[i].type))
				return 0;
		return 1;
	default:
		return 1;
	}
}

const ctf_stream_class *tt_ctf_meta_stream(const ctf_meta *m, uint64_t id)
{
	size_t i;

	for (i = 0; i < m->nstreams; i++)
		if (m->streams[i].id == id)
			return &m->streams[i];
	return NULL;
}

int tt_ctf_clock_ns(const ctf_clock *c, uint64_t cycles, int64_t *ns)
{
	uint64_t v = ctfm_ns_from_value(c->freq, cycles);

	if (v >= (uint64_t)INT64_MAX)
		return -1;
	if (c->base_ns > 0 && (int64_t)v > INT64_MAX - c->base_ns)
		return -1;
	*ns = c->base_ns + (int64_t)v;
	return 0;
}
