/*
 * json_int.h - what the files of this importer share: its records, its
 * context and the functions one section calls in another. Internal to
 * this folder.
 */
#ifndef JSON_INT_H
#define JSON_INT_H

#include "async_tracker.h"
#include "import_int.h"
#include "keymap.h"
#include "sorter.h"
#include "storage.h"
#include "vec.h"
#include "workq.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#define READ_SIZE (256 * 1024)

/* json_lenient.c: trailing commas and raw control characters in strings,
 * rewritten byte for byte for yajl */
#define JSON_LENIENT_NMAP 13
#define JSON_LENIENT_CARRY 4096 /* most bytes held back after a comma */
struct tt_json_lenient {
	int in_str, esc;
	uint64_t str_at; /* file offset of the '"' that opened the string */
	/* the '"' or ',' read last outside strings, and the one before the
	 * string being read (has_: there was one): a string held back from
	 * there reaches yajl behind a whole token of its own (import_json.c) */
	uint64_t last_stop, prev_at;
	int has_last, has_prev;
	int str_ctl, str_marker; /* the string being read: rewritten, holds a rewriting byte */
	int conflict;    /* one string with both: it cannot be read exactly */
	int oom;
	uint64_t *q;     /* file offsets of rewritten bytes not yet given back */
	size_t qh, qn, qcap;
	unsigned char *buf;
	size_t cap;
};
/* Rewrites buf[0, n) (at file offset base) in place (bytes after those of
 * the last call, or from the last call's return on); returns how many
 * bytes yajl may have now: a comma followed by white space only up to n
 * waits for the next bytes (unless at_end); on a conflict, the bytes
 * before it. */
size_t tt_json_lenient(struct tt_json_lenient *f, unsigned char *buf, size_t n, uint64_t base, int at_end);
/* The string s whose token ends at file offset end as it was in the file
 * (s itself, or f's buffer); NULL when out of memory. */
const unsigned char *tt_json_lenient_unmap(struct tt_json_lenient *f, const unsigned char *s, size_t len,
					   uint64_t end);
void tt_json_lenient_free(struct tt_json_lenient *f);
#define MAX_ARG_DEPTH 32
#define PATH_MAX_LEN 1024
/* An arg's key is kept as trace processor names it, "args.<path>": the
 * parser writes the prefix, so the import thread stores keys as they are. */
#define ARGS_PREFIX "args"
#define ARGS_PREFIX_LEN 5 /* with its '.' */
/* Longest number (or other token but a string): yajl buffers a token
 * that spans chunks and re-lexes it as it grows (time quadratic in its
 * length), so a file of one 2 GB number would take hours; no real trace
 * has a token this long. */
#define MAX_TOKEN (32u << 20)
/* Longest string: the serial parser holds a string cut by a read back
 * from yajl until it ends, so yajl reads it once, whole, where it is
 * (import_json.c); its cost is linear. Strings that long are real: a
 * systemTraceEvents string holds a whole ftrace capture (trace processor
 * reads any length). It is held three times while read (the read, yajl's
 * decoded copy, the importer's), so the limit bounds memory: past it the
 * parse stops there, without yajl reading the string. Test settings may
 * lower it (tt_import_opts.json_max_string_mib). */
#define JSON_MAX_STRING_MIB 1024
/* Deepest container nesting accepted: yajl's own stack has no limit; args
 * are flattened at MAX_ARG_DEPTH anyway and no trace nests this deep. */
#define MAX_JSON_DEPTH 1000
/* Batches in flight between the threads, and when one is handed over:
 * small enough to stay in cache, big enough that handing over is rare. */
#define NBATCH 4
#define BATCH_EVENTS 2048
#define BATCH_TEXT (256 * 1024)

enum field {
	F_OTHER, F_NAME, F_CAT, F_PH, F_TS, F_DUR, F_TDUR, F_TTS, F_PID, F_TID, F_ID,
	F_ID2, F_SCOPE, F_S, F_BP, F_ARGS, F_BIND_ID, F_FLOW_IN, F_FLOW_OUT
};

/* The low 12 bits travel with the record; the rest only say what the
 * parsed event holds. */
enum { EV_HAS_TS = 1, EV_HAS_DUR = 2, EV_HAS_PID = 4, EV_HAS_TID = 8, EV_HAS_ID = 16,
       EV_ID_LOCAL = 32, EV_BP_E = 64, EV_FLOW_IN = 128, EV_FLOW_OUT = 256,
       EV_HAS_TTS = 512, EV_HAS_TDUR = 1024, EV_HAS_BIND = 2048,
       EV_HAS_NAME = 1 << 12, EV_HAS_CAT = 1 << 13, EV_HAS_SCOPE = 1 << 14,
       EV_PID_STR = 1 << 15, EV_TID_STR = 1 << 16, EV_ID_STR = 1 << 17,
       EV_HAS_ARGS = 1 << 18, EV_PLAIN_ID = 1 << 19,
       EV_BAD_TIME = 1 << 20, /* a dur, tts or tdur that is not a number */
       EV_SAW_FIELD = 1 << 21, /* a field of any name (not "{}") */
       EV_HAS_RAW = 1 << 22, /* refused by the tokenizer: raw, at (json_tokerr.c) */
       /* not an event: the parsed "event" that hands the systemTraceEvents
        * string (name: its index in the batch's sys, name_len its length)
        * from the parser thread to the import thread, in file order (a
        * flag, not a phase: any phase may come from the text) */
       EV_SYSTRACE = 1 << 23 };
#define EV_REC_FLAGS 0xfff

/* One event between parsing and the trackers: the importers' record
 * (sorter.h), read here as: track the thread (utid), kind the phase, u.i a
 * duration (b/n: the bind_id of their v2 flows), u.d a counter value, id
 * the async/flow id (B/X: the bind_id of their v2 flows), flags the low
 * EV_ bits, scope an instant's t/p/g, ord the file order. */
struct last_x {
	int64_t ts, dur;
};

struct thread_time {
	uint32_t seq;
	int64_t tts, tdur;
};

/* An event's thread as trace processor reads it: pid and tid (each a
 * number it cuts to 32 bits, 0 when out of range; a tid of 0 is the
 * pid's) or, given as strings, names (pid/tid a number made from the
 * name, the name kept). */
struct tkey {
	uint32_t pid, tid;
	tt_str pidname, tidname; /* 0 = given as a number */
	uint32_t utid;           /* the thread, once fed (else TT_NONE) */
};

/* Record kinds besides the phases: an event trace processor drops after
 * making its thread (a failure, an unknown phase), or its thread and the
 * thread's track (a v1 flow event without a usable id). */
#define REC_THREAD_ONLY 0
#define REC_THREAD_TRACK 1
/* A line of the systemTraceEvents text (json_systrace.c): id its number
 * in the systrace reader. */
#define REC_SYSTRACE 2

/* One flattened arg of a parsed event; strings are offsets into its
 * batch's text, the key's beginning with "args." (ARGS_PREFIX_LEN). */
struct targ {
	uint32_t key;
	uint8_t type;     /* enum tt_arg_type, or TARG_CONTAINER */
	uint8_t nested;   /* inside a container that is a member of args */
	uint32_t str;     /* strings' text */
	uint32_t len;
	union { int64_t i; double d; } v;
};

/* A member of args that is an object or an array (its leaves follow,
 * nested): trace processor reads counter and metadata args without
 * recursing, so such a member is one value it cannot use. Stored as no
 * row. */
#define TARG_CONTAINER 0xfe

/* One event as the parser read it; strings are offsets into the batch's
 * text (each NUL-terminated), args a range of the batch's args. */
struct pev {
	int64_t ts, dur, tts, tdur, pid, tid;
	uint64_t id, bind_id;
	uint32_t name, name_len, cat, cat_len, pidname, tidname;
	uint32_t idstr;   /* "id" given as a string (EV_ID_STR): its text */
	uint32_t arg0, nargs;
	uint32_t flags;
	uint32_t raw, raw_len;  /* EV_HAS_RAW: the event's text */
	uint32_t err, err_len;  /* a time field's conversion error (err_len 0: none) */
	uint64_t at;            /* EV_HAS_RAW: file offset just past its '}' */
	char ph, s;
};

struct batch {
	TT_VEC(struct pev) ev;
	TT_VEC(struct targ) args;
	TT_VEC(char) text;
	/* systemTraceEvents strings (json_systrace.c), each its own
	 * allocation that the import thread takes over (NULL once taken):
	 * megabytes that the batch's text would keep for the whole import */
	TT_VEC(char *) sys;
	uint64_t offset;  /* file offset when it was handed over (progress) */
	uint64_t events;  /* events read by then */
};

/* The parser thread's state: yajl's callbacks fill the current batch. */
struct jparse {
	struct json *j;
	tt_bytesrc *src;
	yajl_handle yh;

	int depth;
	int top_is_map;
	int ev_array_depth; /* depth of the event array, 0 = not in one */
	int top_key_events; /* last top-level key was traceEvents */
	int top_key_unit;
	int top_key_meta;   /* last top-level key was metadata */
	int top_key_systrace; /* last top-level key was systemTraceEvents */
	int systrace_not_string; /* stopped at a systemTraceEvents value that is not a string */
	int in_meta;        /* inside the top-level metadata object */
	char meta_key[128];
	char unit[17];      /* displayTimeUnit, "" = none */

	/* the event being read */
	int in_event;
	enum field field;
	struct pev ev;
	struct batch *b;

	/* args of the event, flattened */
	int args_depth;      /* 0 = not in args; else container depth inside */
	char path[PATH_MAX_LEN + ARGS_PREFIX_LEN]; /* "args.<path>" */
	size_t path_len;
	size_t base_len[MAX_ARG_DEPTH + 2];
	int is_arr[MAX_ARG_DEPTH + 2];
	int64_t arr_idx[MAX_ARG_DEPTH + 2];
	int skip_depth;      /* >0: inside an ignored container */
	int id2_depth;
	int id2_global;      /* the id2 key being read: 1 "global", 0 "local", -1 other */

	/* token length guard (see MAX_TOKEN): callbacks so far */
	uint64_t ncb;
	int too_deep;        /* stopped at MAX_JSON_DEPTH */
	int oom;
	uint64_t events;     /* events read */
	int chunk_mode;      /* parsing one chunk into one batch (see "chunks") */
	uint64_t base;       /* offset of the text given to yajl_parse (chunks: in the chunk) */
	uint64_t file_base;  /* chunks: the chunk's file offset (base + file_base: in the file) */
	const unsigned char *text; /* the text given to yajl_parse, NULL: not kept */
	uint64_t ev_at;      /* offset (as base) of the event's '{' */
	TT_VEC(char) carry;  /* the event's bytes from earlier reads (json_tokerr.c) */
	uint64_t last_close; /* file offset just after the last event's '}' */
	uint64_t unit_at;    /* file offset of the displayTimeUnit value */
	int first_read_aligns; /* reading on from a place within a read's bytes */
	struct tt_json_lenient lenient; /* the serial parse's rewriting (json_lenient.c) */

	/* how the parse ended, for the import thread */
	yajl_status ys;
	uint64_t offset;     /* bytes parsed (yajl's error offset on error) */
	int truncated, too_long, read_failed;
	uint64_t max_string;     /* longest string accepted, in bytes */
	uint64_t long_string_at; /* too_long: the first byte of the string, else 0 */
	char msg[160];
	tt_err err;          /* a read error */
};

/* Hand-over between the two threads (a tt_workq of NBATCH slots):
 * batches[seq % NBATCH] is the one the parser fills; the import thread
 * reads them in the same order. */
struct pipe {
	tt_workq *q;
	struct batch batches[NBATCH];
	uint64_t seq;        /* the parser's current batch */
	unsigned char *readbuf; /* READ_SIZE bytes and more (see struct worker) */
	size_t readcap;
};

/* The import thread's state. */
/* One field of the top-level "metadata" object: trace processor keeps it
 * as metadata "json_metadata.<key>" (ints, bools as 0/1, integral doubles
 * as ints, other doubles as %g text, strings as text; null is left out). */
struct json_meta {
	char *key, *str;   /* str NULL: an int */
	int64_t i;
	uint64_t at;       /* file offset of the value, to drop re-read ones */
};

struct json {
	tt_import *im;
	tt_storage *st;
	struct pipe pipe;

	/* The threads of the events, as keys: trace processor makes an
	 * event's thread when its parser (after the sorter) sees the event,
	 * so a record carries its key (track) and the feed makes the thread.
	 * keys by (pid | named << 32, tid | named << 32); the previous
	 * event's key, as most events follow one of their own. */
	TT_VEC(struct tkey) tkeys;
	tt_keymap tkeymap;
	uint64_t last_ka, last_kb;
	uint32_t last_key;

	tt_sorter *sorter;   /* the records, one stream in file order */
	uint32_t stream;
	uint64_t nrecs;
	int64_t last_ts;     /* of the last record */
	int recs_unsorted;   /* a record went back in time, or an X must move */
	TT_VEC(struct last_x) last_x; /* by utid: the thread's last X */
	TT_VEC(struct thread_time) ttimes;
	/* the top-level "metadata" object's scalar fields, in file order */
	TT_VEC(struct json_meta) meta;
	TT_VEC(char) cname;  /* a counter track's name being made */
	tt_str s_no_name;    /* "[No name]", once needed */
	/* the systemTraceEvents lines (json_systrace.c), made at the first */
	struct tt_systrace *sys;
	uint32_t sys_stream;
	int has_systrace;
	char bad[200];       /* why the trace is refused (a bad systrace line), "" */
	int oom, cancelled;
};


int tt_json_parse_oom(struct jparse *p);
int tt_json_us_text_to_ns(const char *s, size_t len, int64_t *out);
int tt_json_parse_int_text(const char *s, size_t len, int64_t *out);
int tt_json_parse_u64_text(const char *s, size_t len, uint64_t *out);
uint64_t tt_json_hash_text(const char *s, size_t len);
int tt_json_text_put(struct batch *b, const char *s, size_t len, uint32_t *off);
int tt_json_batch_reserve(struct batch *b, size_t events, size_t text);
void tt_json_batch_free(struct batch *b);
/* Empties b for the next events (frees strings nobody took). */
void tt_json_batch_clear(struct batch *b);
int tt_json_batch_publish(struct jparse *p);
int tt_json_consume_batch(struct json *j, const struct batch *b);
/* json_tokerr.c: the tokenizer's refusals, logged as trace processor's */
void tt_json_tokerr_type(struct jparse *p, int t);
/* A string ts / dur / tts / tdur s[0, len) in ns into *v, read as trace
 * processor reads one (a JSON number, nothing after it); else -1 and
 * the event's error */
int tt_json_tokerr_time_string(struct jparse *p, const char *s, size_t len, int64_t *v);
void tt_json_tokerr_event_end(struct jparse *p);
void tt_json_tokerr_read_done(struct jparse *p, const unsigned char *text, size_t n);
void tt_json_tokerr_log(struct json *j, const struct batch *b, const struct pev *e);
int tt_json_feed_all(struct json *j);
int tt_json_top_init(struct jparse *p, struct json *j, tt_bytesrc *src);
int64_t tt_json_parse_chunks(struct json *j, struct jparse *top, tt_bytesrc *src, size_t size,
			    int depth, int nl, uint64_t *events);
int tt_json_top_between_events(struct jparse *p, struct json *j, tt_bytesrc *src, int depth,
			      uint64_t at, uint64_t events, const char *unit, uint64_t unit_at);
int tt_json_chunk_depth(tt_bytesrc *src, size_t size, int *nl);
size_t tt_json_chunk_size(const tt_import *im);

/* json_systrace.c: the systemTraceEvents string handed over by the
 * parser (its callback's return); its lines cut and sorted (0, -1 out of
 * memory, -2 a line that is not ftrace text: j->bad says which); one
 * sorted line parsed (-1 out of memory) */
int tt_json_systrace_put(struct jparse *p, const char *s, size_t len);
size_t tt_json_systrace_count(const struct batch *b); /* such hand-overs in b (not events) */
int tt_json_systrace_lines(struct json *j, const struct batch *b, const struct pev *e);
int tt_json_systrace_feed(struct json *j, const tt_event *r);
int tt_json_systrace_finish(struct json *j); /* after the feed: the scheduling rows */
void tt_json_systrace_free(struct json *j);

extern const yajl_callbacks tt_json_callbacks;

#endif
