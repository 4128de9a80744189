/*
 * proto_system.c - packets that describe the device rather than events
 * on it, as trace processor's SystemProbesParser reads them. See
 * import_proto.c for the importer as a whole.
 *
 * CpuInfo (linux.system_info): each listed CPU (numbered by its place in
 * the list) becomes or updates its `cpu` row: processor, capacity, a
 * cluster id, args (the ARM identifier: arm_cpu_implementer /
 * _architecture / _variant / _part / _revision; cpu_features.<name>
 * true for each known feature bit; cpu_features.raw_bitmap, the whole
 * bitmap when not 0) and its frequencies (cpu_available_frequencies).
 * Clusters: CPUs of equal capacity share one, numbered from the smallest
 * capacity up; without a capacity on every CPU, by the highest frequency
 * instead; without frequencies on every CPU, all 0. Read when met in the
 * file (as trace processor reads it while tokenizing).
 *
 * AndroidAflags (android.aflags): each flag of a snapshot a row of
 * __intrinsic_android_aflags at the packet's time (text without its
 * invalid UTF-8, enums by trace processor's names); a snapshot that
 * failed an android_aflags_errors import log with its error.
 *
 * AndroidGameInterventionList: each game a row of
 * __intrinsic_android_game_intervention_list (its standard, performance
 * and battery modes: downscale, ANGLE, fps); its read and parse errors
 * set game_intervention_has_read_errors / _parse_errors.
 *
 * AndroidUserList: each user a row of __intrinsic_android_user_list, a
 * user listed again its type updated; an error below 0 counts
 * user_list_errors.
 *
 * Limits: a second CpuInfo's args replace the first's instead of being
 * added to them; flags are kept in file order (trace processor: trace
 * order).
 */
#include "proto_int.h"

typedef Perfetto__Protos__CpuInfo__Cpu pcpu;

/* The names of the feature bits, by bit (Perfetto's append-only
 * kCpuInfoFeatures list, which its recorder indexes the same way). */
static const char *const feature_keys[] = { "cpu_features.mte", "cpu_features.mte3" };
#define N_FEATURES (sizeof(feature_keys) / sizeof(feature_keys[0]))

static uint32_t max_freq(const pcpu *p)
{
	uint32_t m = 0;

	for (size_t i = 0; i < p->n_frequencies; i++)
		if (p->frequencies[i] > m)
			m = p->frequencies[i];
	return m;
}

/* The key CPU i's cluster is decided by (its capacity or its highest
 * frequency); -1 when clusters are all 0. */
static int64_t cluster_key(const Perfetto__Protos__CpuInfo *ci, size_t i, int by_capacity, int by_freq)
{
	if (by_capacity)
		return ci->cpus[i]->capacity;
	if (by_freq)
		return max_freq(ci->cpus[i]);
	return -1;
}

/* The cluster of CPU i: how many distinct keys are below its own. */
static uint32_t cluster_of(const Perfetto__Protos__CpuInfo *ci, size_t i, int by_capacity, int by_freq)
{
	int64_t k = cluster_key(ci, i, by_capacity, by_freq);
	uint32_t n = 0;

	if (k < 0)
		return 0;
	for (size_t j = 0; j < ci->n_cpus; j++) {
		int64_t kj = cluster_key(ci, j, by_capacity, by_freq);
		size_t first = j;

		if (kj >= k)
			continue;
		for (size_t m = 0; m < j; m++)
			if (cluster_key(ci, m, by_capacity, by_freq) == kj) {
				first = m;
				break;
			}
		n += first == j; /* count each smaller key once */
	}
	return n;
}

static uint32_t cpu_args(pctx *c, const pcpu *p)
{
	tt_storage_args_begin(c->st);
	if (p->identifier_case == PERFETTO__PROTOS__CPU_INFO__CPU__IDENTIFIER_ARM_IDENTIFIER && p->arm_identifier) {
		const Perfetto__Protos__CpuInfo__ArmCpuIdentifier *a = p->arm_identifier;

		tt_storage_args_uint(c->st, "arm_cpu_implementer", a->implementer);
		tt_storage_args_uint(c->st, "arm_cpu_architecture", a->architecture);
		tt_storage_args_uint(c->st, "arm_cpu_variant", a->variant);
		tt_storage_args_uint(c->st, "arm_cpu_part", a->part);
		tt_storage_args_uint(c->st, "arm_cpu_revision", a->revision);
	}
	for (size_t b = 0; b < N_FEATURES; b++)
		if (p->features & (1ull << b))
			tt_storage_args_bool(c->st, feature_keys[b], 1);
	if (p->features)
		tt_storage_args_uint(c->st, "cpu_features.raw_bitmap", p->features);
	return tt_args_tracker_end(c->im->args);
}

void tt_proto_on_cpu_info(pctx *c, const Perfetto__Protos__CpuInfo *ci)
{
	int by_capacity = 1, by_freq = 1;

	if (!ci->n_cpus) {
		stat(c, TT_STAT_cpu_info_empty);
		tt_storage_import_log_at(c->st, TT_STAT_cpu_info_empty, TT_TS_NONE, TT_NONE);
		return;
	}
	for (size_t i = 0; i < ci->n_cpus; i++) {
		by_capacity &= ci->cpus[i]->has_capacity;
		by_freq &= ci->cpus[i]->n_frequencies > 0;
	}
	for (size_t i = 0; i < ci->n_cpus; i++) {
		const pcpu *p = ci->cpus[i];
		uint32_t ucpu = tt_storage_cpu(c->st, (int64_t)i);
		const char *proc = p->processor && *p->processor ? p->processor : NULL;

		if (ucpu == TT_NONE) {
			c->oom = 1;
			return;
		}
		tt_storage_cpu_info(c->st, ucpu, cluster_of(ci, i, by_capacity, by_freq), intern_c(c, proc),
				    p->has_capacity ? (int64_t)p->capacity : -1, cpu_args(c, p));
		for (size_t f = 0; f < p->n_frequencies; f++)
			if (tt_storage_cpu_freq(c->st, ucpu, p->frequencies[f]))
				c->oom = 1;
		/* bits past the known names: a newer recorder's */
		if (p->features >> N_FEATURES) {
			stat(c, TT_STAT_cpu_info_unknown_cpu_features);
			tt_storage_import_log_at(c->st, TT_STAT_cpu_info_unknown_cpu_features, TT_TS_NONE, TT_NONE);
		}
	}
}

/* ---- Android's system properties ------------------------------------------- */

/* A property's value as trace processor reads it (StringToInt32: all of
 * it a base 10 number, kept to 32 bits); -1 when it is not one. */
static int prop_int(const char *v, int32_t *out)
{
	char *end = NULL;
	long n;

	if (!v || !*v)
		return -1;
	n = strtol(v, &end, 10);
	if (*end)
		return -1;
	*out = (int32_t)(uint32_t)(unsigned long)n;
	return 0;
}

/* A sysprop_counter track: dimension sysprop_name (the property), named
 * as given. */
static uint32_t sysprop_track(pctx *c, const char *prop, const char *name)
{
	tt_track_desc d = { .type = "sysprop_counter", .name = intern_c(c, name), .utid = TT_NONE, .upid = TT_NONE,
			    .parent_id = TT_NONE, .is_counter = 1, .cpu = -1 };
	uint32_t t = tt_track_tracker_keyed(c->im->tracks, "sysprop_counter", intern_c(c, prop), 0, 0, &d);

	if (tt_proto_dims_begin(c, t)) {
		tt_storage_args_str(c->st, "sysprop_name", prop, strlen(prop));
		tt_proto_dims_end(c, t);
	}
	return t;
}

static void system_property(pctx *c, pseq *s, int64_t ts, const char *name, const char *value)
{
	static const char pre[] = "debug.tracing.";
	const size_t npre = sizeof(pre) - 1;
	int32_t v;

	if (strcmp(name, "debug.tracing.device_state") == 0) {
		uint32_t t = tt_import_android_track(c->im, "android_device_state", "DeviceStateChanged", TT_NONE, NULL,
						     0, 0);

		if (t != TT_NONE)
			tt_proto_push_rec(c, s, ts, R_COMPLETE, 0, t, intern_c(c, value ? value : ""), 0, TT_NONE, 0,
					  0);
		return;
	}
	if (strcmp(name, "debug.tracing.wallpaper.package_name") == 0 ||
	    strcmp(name, "debug.tracing.wallpaper.class_name") == 0) {
		tt_storage_meta_str(c->st, name, value ? value : "");
		return;
	}
	if (prop_int(value, &v))
		return;
	if (strcmp(name, "debug.tracing.profile_boot_classpath") == 0) {
		tt_storage_meta_int(c->st, "android_profile_boot_classpath", v);
	} else if (strcmp(name, "debug.tracing.profile_system_server") == 0) {
		tt_storage_meta_int(c->st, "android_profile_system_server", v);
	} else if (strcmp(name, "debug.tracing.screen_state") == 0) {
		tt_proto_push_value(c, s, ts, tt_import_android_track(c->im, "screen_state", "ScreenState", TT_NONE, NULL, 0, 1), v);
	} else if (strncmp(name, "debug.tracing.battery_stats.", npre + 14) == 0) {
		/* the track atrace's "battery_stats.*" counters take */
		tt_proto_push_value(c, s, ts,
			   tt_import_android_track(c->im, "battery_stats", NULL, TT_NONE, "counter_key",
						   intern_c(c, name + npre), 1),
			   v);
	} else if (strcmp(name, "debug.tracing.mcc") == 0 || strcmp(name, "debug.tracing.mnc") == 0 ||
		   strcmp(name, "debug.tracing.desktop_mode_visible_tasks") == 0) {
		tt_proto_push_value(c, s, ts, sysprop_track(c, name, name + npre), v);
	} else if (strcmp(name, "debug.tracing.battery_status") == 0) {
		tt_proto_push_value(c, s, ts, sysprop_track(c, name, "BatteryStatus"), v);
	} else if (strcmp(name, "debug.tracing.plug_type") == 0) {
		tt_proto_push_value(c, s, ts, sysprop_track(c, name, "PlugType"), v);
	}
}

void tt_proto_on_system_property(pctx *c, pseq *s, const Perfetto__Protos__AndroidSystemProperty *sp, int64_t ts)
{
	for (size_t i = 0; i < sp->n_values; i++)
		if (sp->values[i]->name)
			system_property(c, s, ts, sp->values[i]->name, sp->values[i]->value);
}

void tt_proto_on_initial_display_state(pctx *c, pseq *s, const Perfetto__Protos__InitialDisplayState *ds,
				       int64_t ts)
{
	tt_proto_push_value(c, s, ts, tt_import_android_track(c->im, "screen_state", "ScreenState", TT_NONE, NULL, 0, 1),
		   ds->display_state);
}

/* ---- Android's aconfig flags ---------------------------------------------------- */

/* A flag's text interned without its invalid UTF-8 (NULL: ""). */
static tt_str clean(pctx *c, const char *s)
{
	char small[256], *buf = small;
	size_t n = s ? strlen(s) : 0;
	tt_str r;

	if (n > sizeof(small) && !(buf = malloc(n))) {
		c->oom = 1;
		return 0;
	}
	r = intern(c, buf, tt_atrace_utf8(s ? s : "", n, buf));
	if (buf != small)
		free(buf);
	return r;
}

static const char *enum_name(int v, const char *const *names, int n)
{
	return v > 0 && v < n ? names[v] : "unspecified";
}

void tt_proto_on_aflags(pctx *c, const Perfetto__Protos__AndroidAflags *af, int64_t ts)
{
	static const char *const perm[] = { NULL, "read-only", "read-write" };
	static const char *const picked[] = { NULL, "default", "server", "local" };
	static const char *const backend[] = { NULL, "none", "aconfigd", "device_config" };
	static const char *const type[] = { NULL, "boolean", "integer" };

	if (af->error) {
		const char *e = tt_storage_str(c->st, clean(c, af->error));

		tt_storage_args_begin(c->st);
		tt_storage_args_str(c->st, "error", e, e ? strlen(e) : 0);
		stat(c, TT_STAT_android_aflags_errors);
		tt_storage_import_log(c->st, TT_STAT_android_aflags_errors, ts, tt_args_tracker_end(c->im->args));
		return;
	}
	for (size_t i = 0; i < af->n_flags; i++) {
		const Perfetto__Protos__AndroidAflags__Flag *f = af->flags[i];
		const tt_str col[TT_AFLAG_COLS] = {
			clean(c, f->pkg), clean(c, f->name), clean(c, f->flag_namespace), clean(c, f->container),
			clean(c, f->value), f->staged_value ? clean(c, f->staged_value) : 0,
			intern_c(c, enum_name(f->permission, perm, 3)), intern_c(c, enum_name(f->value_picked_from, picked, 4)),
			intern_c(c, enum_name(f->storage_backend, backend, 4)), intern_c(c, enum_name(f->type, type, 3)),
		};

		if (tt_storage_aflag(c->st, ts, col))
			c->oom = 1;
	}
}

/* ---- Android's games ---------------------------------------------------------------- */

void tt_proto_on_game_list(pctx *c, const Perfetto__Protos__AndroidGameInterventionList *gl)
{
	tt_storage_stat_set(c->st, TT_STAT_game_intervention_has_read_errors, gl->read_error);
	tt_storage_stat_set(c->st, TT_STAT_game_intervention_has_parse_errors, gl->parse_error);
	for (size_t i = 0; i < gl->n_game_packages; i++) {
		const Perfetto__Protos__AndroidGameInterventionList__GamePackageInfo *g = gl->game_packages[i];
		tt_game_row row = { .package = intern_c(c, g->name ? g->name : ""), .uid = (int64_t)g->uid,
				    .current_mode = (int32_t)g->current_mode };

		/* modes 1 standard, 2 performance, 3 battery; a mode listed twice: the last */
		for (size_t k = 0; k < g->n_game_mode_info; k++) {
			const Perfetto__Protos__AndroidGameInterventionList__GameModeInfo *m = g->game_mode_info[k];

			if (m->mode >= 1 && m->mode <= 3)
				row.mode[m->mode - 1] = (tt_game_mode){ .supported = 1, .downscale = m->resolution_downscale,
									.fps = m->fps, .use_angle = m->use_angle };
		}
		if (tt_storage_game(c->st, &row))
			c->oom = 1;
	}
}

/* ---- Android's users -------------------------------------------------------------- */

void tt_proto_on_user_list(pctx *c, const Perfetto__Protos__AndroidUserList *ul)
{
	if (ul->has_error && ul->error < 0)
		stat(c, TT_STAT_user_list_errors);
	for (size_t i = 0; i < ul->n_users; i++)
		if (tt_storage_android_user(c->st, ul->users[i]->uid,
					    intern_c(c, ul->users[i]->type ? ul->users[i]->type : "")))
			c->oom = 1;
}
