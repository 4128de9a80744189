/*
 * proto_translate.c - TranslationTable packets: the names Chrome leaves
 * out of a trace (histograms, user actions, performance marks and studies
 * as hashes; slice and process track names obfuscated), given back in
 * tables, as trace processor's translation tables apply them:
 *
 *   - a TrackEvent arg set holding a known hash (chrome_histogram_sample.
 *     name_hash, chrome_user_event.action_hash,
 *     chrome_hashed_performance_mark.site_hash / mark_hash,
 *     chrome_trigger.name_hash) gets the name (chrome_histogram_sample.name,
 *     chrome_user_event.action, ...site / ...mark, chrome_trigger.name)
 *     when its event is parsed, after the set's own args (trace processor
 *     puts it right after the hash: the same rows, another args.id
 *     order); an unknown hash stays alone;
 *   - a slice opened or completed under a raw name takes its
 *     deobfuscated one (the slice tracker's rename rules: ends still
 *     match by the name they give, as there);
 *   - a process-scoped track named by a raw name takes its deobfuscated
 *     one (tt_proto_translate_track_name).
 * Tables are read when their packet is met, before the events around them
 * are sorted and parsed (trace processor reads them at tokenization), so a
 * table anywhere in the file applies to every event of it. A later rule
 * for the same key replaces the earlier one.
 */
#include "proto_int.h"

enum { X_HIST, X_ACTION, X_SITE, X_MARK, X_STUDY, X_TRACK, X_N };

#define N_HASH_ARGS 5

struct tt_proto_xlate {
	tt_pmap map[X_N];  /* hash (or the raw name's tt_str) -> tt_str */
	int arg_rules;     /* a hash table has rules: sets are looked at */
	tt_str keys[N_HASH_ARGS]; /* the hash keys, interned */
	tt_pmap done;      /* set -> its translated set */
};

static struct tt_proto_xlate *xlate(pctx *c)
{
	if (!c->xlate && !(c->xlate = calloc(1, sizeof(*c->xlate))))
		c->oom = 1;
	return c->xlate;
}

void tt_proto_translate_free(pctx *c)
{
	if (!c->xlate)
		return;
	for (int i = 0; i < X_N; i++)
		tt_pmap_free(&c->xlate->map[i]);
	tt_pmap_free(&c->xlate->done);
	free(c->xlate);
	c->xlate = NULL;
}

static void rule(pctx *c, int which, uint64_t key, const char *value)
{
	struct tt_proto_xlate *x = xlate(c);

	if (x && tt_pmap_put(&x->map[which], key, intern_c(c, value ? value : "")))
		c->oom = 1;
	if (x && which != X_TRACK)
		x->arg_rules = 1;
}

#define U64_RULES(which, entries, n)                                   \
	for (size_t i = 0; i < (n); i++)                                \
		if ((entries)[i]->has_key)                              \
			rule(c, which, (entries)[i]->key, (entries)[i]->value)

void tt_proto_on_translation_table(pctx *c, const Perfetto__Protos__TranslationTable *t)
{
	switch (t->table_case) {
	case PERFETTO__PROTOS__TRANSLATION_TABLE__TABLE_CHROME_HISTOGRAM:
		U64_RULES(X_HIST, t->chrome_histogram->hash_to_name, t->chrome_histogram->n_hash_to_name);
		break;
	case PERFETTO__PROTOS__TRANSLATION_TABLE__TABLE_CHROME_USER_EVENT:
		U64_RULES(X_ACTION, t->chrome_user_event->action_hash_to_name,
			  t->chrome_user_event->n_action_hash_to_name);
		break;
	case PERFETTO__PROTOS__TRANSLATION_TABLE__TABLE_CHROME_PERFORMANCE_MARK:
		U64_RULES(X_SITE, t->chrome_performance_mark->site_hash_to_name,
			  t->chrome_performance_mark->n_site_hash_to_name);
		U64_RULES(X_MARK, t->chrome_performance_mark->mark_hash_to_name,
			  t->chrome_performance_mark->n_mark_hash_to_name);
		break;
	case PERFETTO__PROTOS__TRANSLATION_TABLE__TABLE_CHROME_STUDY:
		U64_RULES(X_STUDY, t->chrome_study->hash_to_name, t->chrome_study->n_hash_to_name);
		break;
	case PERFETTO__PROTOS__TRANSLATION_TABLE__TABLE_SLICE_NAME:
		for (size_t i = 0; i < t->slice_name->n_raw_to_deobfuscated_name; i++) {
			const Perfetto__Protos__TranslationStrEntry *e = t->slice_name->raw_to_deobfuscated_name[i];

			if (e->key && tt_slice_tracker_rename(c->im->slices, intern_c(c, e->key),
							      intern_c(c, e->value ? e->value : "")))
				c->oom = 1;
		}
		break;
	case PERFETTO__PROTOS__TRANSLATION_TABLE__TABLE_PROCESS_TRACK_NAME:
		for (size_t i = 0; i < t->process_track_name->n_raw_to_deobfuscated_name; i++) {
			const Perfetto__Protos__TranslationStrEntry *e =
				t->process_track_name->raw_to_deobfuscated_name[i];

			if (e->key)
				rule(c, X_TRACK, intern_c(c, e->key), e->value);
		}
		break;
	default:
		break;
	}
}

/* The hash keys and the name each is given with. */
static const struct { const char *hash_key, *name_key; int which; } k_hash_args[N_HASH_ARGS] = {
	{ "chrome_histogram_sample.name_hash", "chrome_histogram_sample.name", X_HIST },
	{ "chrome_user_event.action_hash", "chrome_user_event.action", X_ACTION },
	{ "chrome_hashed_performance_mark.site_hash", "chrome_hashed_performance_mark.site", X_SITE },
	{ "chrome_hashed_performance_mark.mark_hash", "chrome_hashed_performance_mark.mark", X_MARK },
	{ "chrome_trigger.name_hash", "chrome_trigger.name", X_STUDY },
};

uint32_t tt_proto_translate_set(pctx *c, uint32_t set)
{
	struct tt_proto_xlate *x = c->xlate;
	const uint64_t *done, *name;
	tt_str names[N_HASH_ARGS];
	int which[N_HASH_ARGS], n = 0;
	uint32_t out = set;
	uint64_t v;

	if (!x->arg_rules)
		return set;
	if ((done = tt_pmap_find(&x->done, set)) != NULL)
		return (uint32_t)*done;
	for (int i = 0; i < N_HASH_ARGS; i++) {
		if (!x->map[k_hash_args[i].which].n)
			continue;
		if (!x->keys[i])
			x->keys[i] = intern_c(c, k_hash_args[i].hash_key);
		if (tt_storage_args_uint_of(c->st, set, x->keys[i], &v) &&
		    (name = tt_pmap_find(&x->map[k_hash_args[i].which], v)) != NULL) {
			names[n] = (tt_str)*name;
			which[n++] = i;
		}
	}
	if (n) {
		tt_storage_args_begin(c->st);
		tt_storage_args_copy(c->st, set);
		for (int i = 0; i < n; i++) {
			const char *t = tt_storage_str(c->st, names[i]);

			tt_storage_args_str(c->st, k_hash_args[which[i]].name_key, t ? t : "", t ? strlen(t) : 0);
		}
		out = tt_args_tracker_end(c->im->args);
		tt_storage_args_replaced(c->st, set);
	}
	if (tt_pmap_put(&x->done, set, out))
		c->oom = 1;
	return out;
}

tt_str tt_proto_translate_track_name(const pctx *c, tt_str raw)
{
	const uint64_t *name = c->xlate && raw ? tt_pmap_find(&c->xlate->map[X_TRACK], raw) : NULL;

	return name ? (tt_str)*name : raw;
}
