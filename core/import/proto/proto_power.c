/*
 * proto_power.c - what Android's power HAL reports (android.power), as
 * trace processor's AndroidProbesModule reads it. See import_proto.c for
 * the importer as a whole; power rails and battery counters are
 * proto_sysstats.c's.
 *
 * AndroidEnergyEstimationBreakdown: a packet with a consumer descriptor
 * only describes (id -> name, type, ordinal; the first description of an
 * id kept) and gives no value; another packet's energy_uws is a counter
 * on the consumer's track (android_energy_estimation_breakdown, named by
 * the consumer, dimension energy_consumer_id, source args consumer_type
 * and ordinal), each per_uid_breakdown value on the consumer's track for
 * that uid (..._per_uid, dimensions energy_consumer_id and uid).
 *
 * EntityStateResidency: power_entity_state entries describe (the first
 * of an (entity, state) pair kept); each residency's total_time_in_state_ms
 * is a counter on "Entity residency: <entity> is <state>" (entity_state,
 * dimensions entity_name and state_name). A packet without residencies
 * (a descriptor alone too) counts entity_state_residency_invalid, an
 * unknown pair entity_state_residency_lookup_failed and ends the packet.
 *
 * Limits: descriptors are read in file order with the values (trace
 * processor reads them all before any value), so a value before its
 * descriptor in the file is counted as unknown.
 */
#include "proto_int.h"

#include <stdio.h>

typedef Perfetto__Protos__AndroidEnergyEstimationBreakdown Breakdown;

/* ---- energy estimation breakdown ----------------------------------------------- */

static const struct penergy *find_consumer(const pctx *c, int32_t id)
{
	for (size_t i = 0; i < c->energy.n; i++)
		if (c->energy.v[i].id == id)
			return &c->energy.v[i];
	return NULL;
}

static void describe_consumers(pctx *c, const Perfetto__Protos__AndroidEnergyConsumerDescriptor *d)
{
	for (size_t i = 0; i < d->n_energy_consumers; i++) {
		const Perfetto__Protos__AndroidEnergyConsumer *ec = d->energy_consumers[i];
		struct penergy e;

		if (!ec->has_energy_consumer_id) {
			stat(c, TT_STAT_energy_descriptor_invalid);
			continue;
		}
		if (find_consumer(c, ec->energy_consumer_id))
			continue;
		e = (struct penergy){ .id = ec->energy_consumer_id, .ordinal = ec->ordinal,
				      .name = intern_c(c, ec->name ? ec->name : ""),
				      .type = intern_c(c, ec->type ? ec->type : "") };
		if (TT_VEC_PUSH(c->energy, e))
			c->oom = 1;
	}
}

/* A consumer's track; for a uid's share (uid >= 0) the track of that uid. */
static uint32_t consumer_track(pctx *c, const struct penergy *e, int64_t uid)
{
	const char *type = uid < 0 ? "android_energy_estimation_breakdown" : "android_energy_estimation_breakdown_per_uid";
	tt_track_desc d = { .type = type, .name = e->name, .utid = TT_NONE, .upid = TT_NONE, .parent_id = TT_NONE,
			    .is_counter = 1, .cpu = -1 };
	uint32_t t = tt_track_tracker_keyed(c->im->tracks, type, (uint32_t)e->id, (uint64_t)uid, 0, &d);

	if (!tt_proto_dims_begin(c, t))
		return t;
	tt_storage_args_uint(c->st, "energy_consumer_id", (uint32_t)e->id);
	if (uid >= 0)
		tt_storage_args_uint(c->st, "uid", (uint64_t)uid);
	tt_proto_dims_end(c, t);
	if (uid < 0) {
		const char *ty = tt_storage_str(c->st, e->type);

		tt_storage_args_begin(c->st);
		tt_storage_args_str(c->st, "consumer_type", ty, ty ? strlen(ty) : 0);
		tt_storage_args_int(c->st, "ordinal", e->ordinal);
		tt_storage_track_set_source_args(c->st, t, tt_args_tracker_end(c->im->args));
	}
	return t;
}

void tt_proto_on_energy_breakdown(pctx *c, pseq *s, const Breakdown *eb, int64_t ts)
{
	const struct penergy *e;

	if (eb->energy_consumer_descriptor) {
		describe_consumers(c, eb->energy_consumer_descriptor);
		return;
	}
	if (!eb->has_energy_consumer_id || !eb->has_energy_uws ||
	    !(e = find_consumer(c, eb->energy_consumer_id))) {
		stat(c, TT_STAT_energy_breakdown_missing_values);
		return;
	}
	tt_proto_push_value(c, s, ts, consumer_track(c, e, -1), (double)eb->energy_uws);
	for (size_t i = 0; i < eb->n_per_uid_breakdown; i++) {
		const Perfetto__Protos__AndroidEnergyEstimationBreakdown__EnergyUidBreakdown *u = eb->per_uid_breakdown[i];

		if (!u->has_uid || !u->has_energy_uws) {
			stat(c, TT_STAT_energy_uid_breakdown_missing_values);
			continue;
		}
		tt_proto_push_value(c, s, ts, consumer_track(c, e, (uint32_t)u->uid), (double)u->energy_uws);
	}
}

/* ---- entity state residency ------------------------------------------------------ */

static const struct pentity *find_state(const pctx *c, int32_t entity, int32_t state)
{
	for (size_t i = 0; i < c->entities.n; i++)
		if (c->entities.v[i].entity == entity && c->entities.v[i].state == state)
			return &c->entities.v[i];
	return NULL;
}

static void describe_states(pctx *c, const Perfetto__Protos__EntityStateResidency *er)
{
	for (size_t i = 0; i < er->n_power_entity_state; i++) {
		const Perfetto__Protos__EntityStateResidency__PowerEntityState *ps = er->power_entity_state[i];
		const char *en = ps->entity_name ? ps->entity_name : "", *sn = ps->state_name ? ps->state_name : "";
		struct pentity e;
		char overall[1024];

		if (!ps->has_entity_index || !ps->has_state_index) {
			stat(c, TT_STAT_energy_descriptor_invalid);
			continue;
		}
		if (find_state(c, ps->entity_index, ps->state_index))
			continue;
		snprintf(overall, sizeof(overall), "Entity residency: %s is %s", en, sn);
		e = (struct pentity){ .entity = ps->entity_index, .state = ps->state_index, .entity_name = intern_c(c, en),
				      .state_name = intern_c(c, sn), .overall = intern_c(c, overall) };
		if (TT_VEC_PUSH(c->entities, e))
			c->oom = 1;
	}
}

static uint32_t state_track(pctx *c, const struct pentity *e)
{
	tt_track_desc d = { .type = "entity_state", .name = e->overall, .utid = TT_NONE, .upid = TT_NONE,
			    .parent_id = TT_NONE, .is_counter = 1, .cpu = -1 };
	uint32_t t = tt_track_tracker_keyed(c->im->tracks, "entity_state", e->entity_name, e->state_name, 0, &d);

	if (tt_proto_dims_begin(c, t)) {
		const char *en = tt_storage_str(c->st, e->entity_name), *sn = tt_storage_str(c->st, e->state_name);

		tt_storage_args_str(c->st, "entity_name", en, en ? strlen(en) : 0);
		tt_storage_args_str(c->st, "state_name", sn, sn ? strlen(sn) : 0);
		tt_proto_dims_end(c, t);
	}
	return t;
}

void tt_proto_on_entity_state(pctx *c, pseq *s, const Perfetto__Protos__EntityStateResidency *er, int64_t ts)
{
	describe_states(c, er);
	if (!er->n_residency) {
		stat(c, TT_STAT_entity_state_residency_invalid);
		return;
	}
	for (size_t i = 0; i < er->n_residency; i++) {
		const Perfetto__Protos__EntityStateResidency__StateResidency *r = er->residency[i];
		const struct pentity *e = find_state(c, r->entity_index, r->state_index);

		if (!e) {
			stat(c, TT_STAT_entity_state_residency_lookup_failed);
			return;
		}
		tt_proto_push_value(c, s, ts, state_track(c, e), (double)r->total_time_in_state_ms);
	}
}
