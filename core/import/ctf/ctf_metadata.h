/*
 * ctf_metadata.h - CTF 1.8 trace metadata: the TSDL text (plain or
 * packetized, as LTTng writes it) parsed into a resolved type tree that the
 * stream decoder (ctf_stream.c) walks without any name lookup.
 *
 * What "resolved" means: every field declaration is its own node (named
 * types are copied where they are used), `native` byte orders are replaced
 * by the trace's, clock maps point at an index in clocks[], variant tags and
 * sequence lengths point at a value slot that the decoder fills when it
 * decodes the referenced integer, and the fields the decoder needs to know
 * (magic, stream_id, timestamp_begin, content_size, event id, vtid, ...)
 * carry a role.
 *
 * Ownership: a ctf_meta owns every node, string and array below it; one
 * tt_ctf_meta_free() releases all of it.
 *
 * Known limits: CTF 2 (JSON metadata) is refused with TT_EUNSUPPORTED;
 * `callsite` and unknown blocks are skipped (counted); typealiases are
 * global whatever the scope they were declared in; floats other than
 * 32 and 64 bits are refused; integers are at most 64 bits.
 */
#ifndef TT_CTF_METADATA_H
#define TT_CTF_METADATA_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

enum ctf_kind {
	CTF_K_INT,     /* also enums (maps != NULL) */
	CTF_K_FLOAT,
	CTF_K_STRING,
	CTF_K_STRUCT,
	CTF_K_VARIANT,
	CTF_K_ARRAY,
	CTF_K_SEQ,
};

/* What the decoder does with a field beyond decoding it. */
enum ctf_role {
	CTF_R_NONE,
	CTF_R_MAGIC,
	CTF_R_UUID,            /* uint8_t uuid[16] in the packet header */
	CTF_R_STREAM_ID,
	CTF_R_STREAM_INSTANCE_ID,
	CTF_R_TS_BEGIN,
	CTF_R_TS_END,
	CTF_R_CONTENT_SIZE,
	CTF_R_PACKET_SIZE,
	CTF_R_EVENTS_DISCARDED,
	CTF_R_SEQ_NUM,
	CTF_R_CPU_ID,
	CTF_R_EVENT_ID,
	CTF_R_VPID,
	CTF_R_VTID,
	CTF_R_PID,
	CTF_R_TID,
	CTF_R_PROCNAME,        /* text array/sequence or string */
	CTF_R_COUNT
};

enum ctf_byte_order { CTF_BO_NATIVE = 0, CTF_BO_LE = 1, CTF_BO_BE = 2 };

typedef struct ctf_type ctf_type;

typedef struct ctf_mapping {
	char *label;
	uint64_t lo, hi; /* compared as int64 when the container is signed */
} ctf_mapping;

/* The decoder's program for a struct (ctf_meta_resolve.c compiles the
 * roots and variant options once; ctf_stream.c runs them): its fields with
 * nested structs flattened, integers classed by layout so that a
 * byte-aligned 8/16/32/64-bit one in the host's byte order is one load. */
enum ctf_op_code {
	CTF_OP_ALIGN,   /* a nested struct begins: align on its alignment */
	CTF_OP_U8, CTF_OP_U16, CTF_OP_U32, CTF_OP_U64, /* aligned, host order */
	CTF_OP_INT,     /* any other integer or enum */
	CTF_OP_STRING,
	CTF_OP_TEXT,    /* fixed-length text array */
	CTF_OP_VARIANT, /* its option's own program, or the tree walk */
	CTF_OP_ANY,     /* anything else: the tree walk from this node */
	CTF_OP_RUN,     /* the next n ops (fixed sizes, alignments that divide
			 * align) sit at fixed offsets from a position aligned
			 * on align: one bounds check for all when they fit */
	CTF_OP_MARK     /* an event's contexts end here (ncontext) */
};

typedef struct ctf_op {
	unsigned char code;
	unsigned char special;   /* integer with a slot, clock or role: read
				  * even when the event's values are not */
	unsigned short depth;    /* of the struct holding it (the root: 1) */
	unsigned align;          /* bits */
	const ctf_type *t;
	unsigned off;            /* in a run: bits from its start; CTF_OP_RUN:
				  * the run's size in bits */
	unsigned n;              /* CTF_OP_RUN: its ops */
} ctf_op;

typedef struct ctf_field {
	char *name;       /* as declared (leading '_' kept) */
	char *key;        /* name with one leading '_' stripped (args key) */
	ctf_type *type;
} ctf_field;

struct ctf_type {
	/* what the decoder reads for every field comes first (one cache
	 * line): kind, layout, and the resolution results */
	enum ctf_kind kind;
	unsigned align;          /* bits, >= 1 */
	unsigned size;           /* bits (integer, enum, float) */
	unsigned char is_signed, byte_order, base, encoding; /* encoding: 0 none, 1 UTF8, 2 ASCII */
	int clock;               /* index in ctf_meta.clocks, or -1 */
	int slot;                /* integer: value slot to fill, -1 */
	int role;                /* enum ctf_role */
	int role_keep;           /* a vpid/pid role whose scope has no vtid/tid:
				  * no thread to give it to, so it is also
				  * kept as the event's `context.` arg */
	int ref;                 /* variant/sequence: slot to read, -1 */
	const char *path;        /* args key of the values decoded here
				  * (`ctx.a.b`; for arrays the base before
				  * `[i]`), NULL outside emitted scopes */
	ctf_mapping *maps;       /* enum mappings, NULL for plain integers */
	size_t nmaps;
	/* struct, variant */
	ctf_field *fields;
	size_t nfields;
	/* array, sequence */
	ctf_type *elem;
	uint64_t length;         /* array */
	int is_text;             /* array/sequence of 8-bit encoded integers */
	const ctf_type *tag_type;/* variant: the enum of its tag */
	int *opt_of_map;         /* variant: option index per tag mapping, -1 */
	/* struct: its program (NULL: walk the tree), and the deepest struct
	 * in it (the root: 1) */
	const ctf_op *ops;
	unsigned nops, ops_depth;
	/* parse-time only */
	char *clock_name;        /* from map = clock.NAME.value, until resolved */
	char *tag;               /* variant: tag path; sequence: length path */
	unsigned exp_dig, mant_dig;
	ctf_type *next_alloc;    /* every node, for freeing */
};

typedef struct ctf_clock {
	char *name;
	uint64_t freq;           /* Hz, default 1e9 */
	int64_t offset_s;        /* normalized: offset_cycles < freq */
	uint64_t offset_cycles;
	int64_t base_ns;         /* offset_s * 1e9 + ns(offset_cycles) */
	int64_t precision;
	int absolute;
} ctf_clock;

typedef struct ctf_event_class {
	char *name;
	uint64_t id;
	uint64_t stream_id;
	int64_t loglevel;        /* -1 when absent */
	ctf_type *context;       /* may be NULL */
	ctf_type *fields;        /* may be NULL */
	/* the decoder's program for what follows its header: its stream's
	 * event context, its context, a MARK, its fields (NULL: each scope
	 * on its own) */
	const ctf_op *ops;
	unsigned nops;
} ctf_event_class;

typedef struct ctf_stream_class {
	uint64_t id;
	ctf_type *packet_context; /* may be NULL */
	ctf_type *event_header;   /* may be NULL */
	ctf_type *event_context;  /* may be NULL */
	int clock;               /* clock of the event timestamps, or -1 */
	/* event classes of this stream, by id */
	ctf_event_class **by_id; /* dense table when ids are small */
	size_t nby_id;
	ctf_event_class **sorted;/* all events sorted by id (bsearch) */
	size_t nsorted;
} ctf_stream_class;

typedef struct ctf_env_entry {
	char *key;
	char *str;               /* NULL when the value is an integer */
	int64_t num;
} ctf_env_entry;

typedef struct ctf_meta {
	int major, minor;
	int byte_order;          /* CTF_BO_LE or CTF_BO_BE */
	int has_uuid;
	uint8_t uuid[16];
	ctf_type *packet_header; /* may be NULL */
	ctf_clock *clocks;
	size_t nclocks;
	ctf_stream_class *streams;
	size_t nstreams;
	ctf_event_class *events;
	size_t nevents;
	ctf_env_entry *env;
	size_t nenv;
	int nslots;              /* value slots the decoder needs */
	int skipped;             /* unknown blocks/attributes skipped */
	/* what was skipped, by name ("attribute 'foo'"), first ones only */
	char skipped_name[16][48];
	int skipped_count[16];
	int nskipped_names;
	/* the first unknown attribute: the import warns with its line */
	int unknown_attr_line;
	char unknown_attr[48];
	ctf_type *all;           /* every type node */
	void *parser_state;      /* aliases etc., freed with the meta */
} ctf_meta;

/* Reads dir/metadata (plain or packetized), parses and resolves it.
 * Errors: TT_EIO (missing/unreadable), TT_EINVAL (syntax: "metadata:LINE:
 * expected ..."), TT_EUNSUPPORTED (CTF 2), TT_ENOMEM. */
int tt_ctf_meta_load(const char *dir, ctf_meta **out, tt_err *err);
/* Parses TSDL from memory (text already unpacked). path is for messages. */
int tt_ctf_meta_parse(const char *text, size_t len, const char *path,
		      ctf_meta **out, tt_err *err);
/* Unpacks packetized metadata (magic 0x75D11D57) or checks plain text.
 * *text is malloc'ed (NUL-terminated); the caller frees it. */
int tt_ctf_meta_unpack(const uint8_t *data, size_t len, const char *path,
		       char **text, size_t *text_len, tt_err *err);
void tt_ctf_meta_free(ctf_meta *m);
/* Drops the decoder's programs (ctf_op): cursors opened after it walk the
 * type trees. For tests that compare the two decoders. */
void tt_ctf_meta_drop_programs(ctf_meta *m);

/* The event class of stream class sc with id, or NULL. */
const ctf_event_class *tt_ctf_meta_event(const ctf_stream_class *sc, uint64_t id);
/* The stream class with id, or NULL (a trace with a single stream class
 * and no stream_id in its packet header uses that one). */
const ctf_stream_class *tt_ctf_meta_stream(const ctf_meta *m, uint64_t id);
/* 1 when every value decoded from t comes with the same keys, in the same
 * order (no variant and no sequence other than text below it); NULL counts
 * as fixed. */
int tt_ctf_type_fixed(const ctf_type *t);
/* Clock cycles -> ns since the epoch, exactly as babeltrace2 computes it.
 * Returns 0, or -1 when the result does not fit int64. */
int tt_ctf_clock_ns(const ctf_clock *c, uint64_t cycles, int64_t *ns);

#endif
