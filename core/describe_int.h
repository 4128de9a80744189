/*
 * describe_int.h - what the pieces of the description engine share:
 * describe.c (rule set, parser, loading, registration), describe_match.c
 * (compiled lookup, conditions, winner, per-rule statistics for lint) and
 * describe_expand.c (templates and the slice's context numbers).
 * Nothing outside core/describe*.c and core/vtab_describe_*.c includes it.
 */
#ifndef TT_DESCRIBE_INT_H
#define TT_DESCRIBE_INT_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>
#include "describe.h"
#include "storage_int.h"

enum { TIER_NONE = 0, TIER_PATTERN = 2, TIER_EXACT = 3 };

/* Context conditions: each is a glob on one text of the slice or track. */
enum cond {
	C_CATEGORY, C_PARENT, C_ANCESTOR, C_THREAD, C_PROCESS, C_TRACK, C_TRACK_TYPE,
	C_COUNT
};
extern const char *const tt_describe_cond_key[C_COUNT];

struct rule {
	int target;     /* TT_DESCRIBE_SLICE or TT_DESCRIBE_TRACK */
	char **names;   /* exact names (any of them) */
	size_t nnames;
	char *glob;
	char *regex_src;
	regex_t re;
	int has_re;
	char *cond[C_COUNT]; /* NULL = no condition */
	char **arg_key, **arg_pat; /* args.KEY = glob conditions */
	size_t nargs;
	int64_t min_dur, max_dur; /* -1 = no bound */
	char *desc, *link;
	int tier, ncond, layer, kind;
	size_t seq;     /* load order, later = higher */
	char *where;    /* "path:line" of the [rule] header */
};

struct hent {
	uint64_t hash;
	const char *name;
	size_t rule;    /* index into rules */
	size_t next;    /* next entry of the bucket, SIZE_MAX = end */
};

/* The compiled lookup of one target (slices or tracks). */
struct lookup {
	size_t *buckets;    /* head entry per bucket, SIZE_MAX = empty */
	size_t nbuckets;
	struct hent *ents;
	size_t nents;
	size_t *patterns;   /* non-exact rule indices, best first */
	size_t npatterns;
};

struct tt_describe_rules {
	int refs;
	struct rule *rules;
	size_t n, cap;
	char **warn;
	size_t nwarn, capwarn;
	int compiled;       /* lookups below are current */
	size_t *order;      /* rule indices, best first */
	struct lookup lk[2];
	/* Name cache: for each slice name (interned id of one storage), a bit
	 * per slice pattern rule (lk[0].patterns) whose glob or regex accepts
	 * the name, so a name is tried against each pattern once, not once
	 * per slice. Open addressing on the id; dropped with the lookups. */
	const void *nc_st;  /* the storage the ids belong to */
	uint32_t *nc_ids;   /* nc_cap slots, 0 = empty */
	uint8_t *nc_bits;   /* nc_cap rows of nc_row bytes */
	size_t nc_cap, nc_n, nc_row;
	/* Rules registered on a connection are read at their first use
	 * (tt_describe_rules_ready): parsing them and compiling their
	 * regexes cost as much as importing a few MB of trace, and most
	 * queries never describe. The files to read are chosen at
	 * registration, from the environment of then. */
	struct deferred { char *path; int layer; } *defer;
	size_t ndefer, ndefer_cap;
	int deferred;       /* defer[] not read yet */
	int ready_rc;       /* TT_OK, or TT_ENOMEM once reading them failed */
};

/* What a rule may look at; filled once per match. For a track, name is
 * the track's display name and the slice-only fields stay empty. */
struct sctx {
	const tt_storage *st;
	int target;
	int64_t id;         /* slice id or track id */
	const char *name, *cat, *thread, *process, *track, *track_type;
	uint32_t utid, upid, track_id;
	tt_str name_id;     /* the slice's interned name, 0 for a track */
};

/* A growing output string; oom sticks. */
struct out {
	char *s;
	size_t n, cap;
	int oom;
};
void tt_describe_out_add(struct out *o, const char *s, size_t len);
void tt_describe_out_str(struct out *o, const char *s);

int tt_describe_grow(void **p, size_t *cap, size_t need, size_t esz);
const char *tt_describe_str(const tt_storage *st, tt_str s);

/* describe_match.c */
int tt_describe_compile(tt_describe_rules *r);
void tt_describe_uncompile(tt_describe_rules *r);
/* The kind of u from its matcher and conditions (enum tt_describe_kind). */
int tt_describe_rule_kind(const struct rule *u);

/* describe_expand.c */
/* Checks the {fields} of a template; NULL or a message (in bad). */
const char *tt_describe_tmpl_check(const char *t, char *bad, size_t badlen);
/* Expands {field}s for x; malloc'ed, NULL when out of memory. */
char *tt_describe_expand(const char *t, const struct sctx *x);
/* The display text of arg key of slice x->id; 0 when absent. */
int tt_describe_arg_text(const struct sctx *x, const char *key, size_t klen, char *buf,
			 size_t len);
/* Durations as everywhere else (tt_dur_text): "830ns", "1.5ms". */
void tt_describe_human_dur(int64_t ns, char *buf, size_t len);
/* Parses "50ms", "1.5 s", "200us", "800ns", "3" (ns); -1 when bad. */
int64_t tt_describe_parse_dur(const char *s);

#endif
