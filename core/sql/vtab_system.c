/*
 * vtab_system.c - what the trace says of the device, with trace
 * processor's names and columns:
 *
 *   select cpu, cluster_id, processor, capacity from cpu;
 *   select cpu, freq from cpu_available_frequencies where cpu = 0;
 *   select uid, sum(total_cpu_millis) from __intrinsic_android_cpu_per_uid_track group by uid;
 *
 * __intrinsic_cpu: the CPUs an importer recorded (CTF: a packet
 * context's cpu_id; Perfetto: every cpu a table names, and a CpuInfo
 * packet's CPUs with their cluster, processor, capacity and args); read
 * through the `cpu` view of core/sql/builtins.c, which falls back to the
 * CPUs other tables name. __intrinsic_cpu_freq: the frequencies a CpuInfo
 * packet lists per CPU, read through cpu_available_frequencies (its cpu
 * is the CPU's number, which is trace processor's ucpu on one machine).
 * __intrinsic_android_cpu_per_uid_track: a uid's cpu time on a cluster
 * over the trace, with its counter track (CpuPerUidData).
 * __intrinsic_android_aflags: Android's aconfig flags as each snapshot
 * saw them (the android.aflags module's android_aflags view).
 * __intrinsic_android_game_intervention_list (view
 * android_game_intervention_list): installed games and their modes.
 * __intrinsic_android_user_list: Android's users (the android.user_list
 * module's view).
 */
#include "vtab.h"

enum { CPU_ID, CPU_UCPU, CPU_CPU, CPU_CLUSTER, CPU_PROCESSOR, CPU_MACHINE, CPU_CAPACITY, CPU_ARGS };

static size_t cpu_n(const tt_storage *st) { return st->cpus.n; }
static void cpu_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	switch (c) {
	case CPU_ID: case CPU_UCPU: sqlite3_result_int64(ctx, (int64_t)r); break;
	case CPU_CPU: sqlite3_result_int64(ctx, st->cpus.cpu[r]); break;
	case CPU_CLUSTER: sqlite3_result_int64(ctx, st->cpus.cluster_id[r]); break;
	case CPU_PROCESSOR: tt_vtab_result_str(ctx, st, st->cpus.processor[r]); break;
	case CPU_CAPACITY:
		if (st->cpus.capacity[r] >= 0)
			sqlite3_result_int64(ctx, st->cpus.capacity[r]);
		else
			sqlite3_result_null(ctx);
		break;
	case CPU_ARGS: tt_vtab_result_id(ctx, st->cpus.arg_set_id[r]); break;
	default: sqlite3_result_null(ctx); break;
	}
}
static const tt_vtab_def cpu_def = {
	.name = "__intrinsic_cpu",
	.schema = "CREATE TABLE x(id INTEGER, ucpu INTEGER, cpu INTEGER, cluster_id INTEGER,"
		  " processor TEXT, machine_id INTEGER, capacity INTEGER, arg_set_id INTEGER)",
	.nrows = cpu_n, .column = cpu_col,
	.id_col = CPU_ID, .track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = -1,
	.id_alias_col = -1,
};

static size_t freq_n(const tt_storage *st) { return st->cpu_freq.n; }
static void freq_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	uint32_t ucpu = st->cpu_freq.ucpu[r];

	switch (c) {
	case 0: sqlite3_result_int64(ctx, (int64_t)r); break;
	case 1: sqlite3_result_int64(ctx, ucpu < st->cpus.n ? st->cpus.cpu[ucpu] : ucpu); break;
	case 2: sqlite3_result_int64(ctx, st->cpu_freq.freq[r]); break;
	default: sqlite3_result_int64(ctx, ucpu); break;
	}
}
static const tt_vtab_def freq_def = {
	.name = "__intrinsic_cpu_freq",
	.schema = "CREATE TABLE x(id INTEGER, cpu INTEGER, freq INTEGER, ucpu INTEGER)",
	.nrows = freq_n, .column = freq_col,
	.id_col = 0, .track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = -1, .id_alias_col = -1,
};

static size_t uid_n(const tt_storage *st) { return st->cpu_uid.n; }
static void uid_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	switch (c) {
	case 0: sqlite3_result_int64(ctx, (int64_t)r); break;
	case 1: tt_vtab_result_id(ctx, st->cpu_uid.track[r]); break;
	case 2: sqlite3_result_int64(ctx, st->cpu_uid.uid[r]); break;
	case 3: sqlite3_result_int64(ctx, st->cpu_uid.cluster[r]); break;
	default: sqlite3_result_int64(ctx, st->cpu_uid.total_ms[r]); break;
	}
}
static const tt_vtab_def uid_def = {
	.name = "__intrinsic_android_cpu_per_uid_track",
	.schema = "CREATE TABLE x(id INTEGER, track_id INTEGER, uid INTEGER, cluster INTEGER, total_cpu_millis INTEGER)",
	.nrows = uid_n, .column = uid_col,
	.id_col = 0, .track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = -1, .id_alias_col = -1,
};

static size_t aflag_n(const tt_storage *st) { return st->aflags.n; }
static void aflag_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	if (c == 0)
		sqlite3_result_int64(ctx, (int64_t)r);
	else if (c == 1)
		sqlite3_result_int64(ctx, st->aflags.ts[r]);
	else
		tt_vtab_result_str(ctx, st, st->aflags.col[c - 2][r]);
}
static const tt_vtab_def aflag_def = {
	.name = "__intrinsic_android_aflags",
	.schema = "CREATE TABLE x(id INTEGER, ts INTEGER, package TEXT, name TEXT, flag_namespace TEXT,"
		  " container TEXT, value TEXT, staged_value TEXT, permission TEXT, value_picked_from TEXT,"
		  " storage_backend TEXT, type TEXT)",
	.nrows = aflag_n, .column = aflag_col,
	.id_col = 0, .track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = -1, .id_alias_col = -1,
};

static size_t game_n(const tt_storage *st) { return st->games.n; }
static void game_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	const tt_game_row *g = &st->games.v[r];
	const tt_game_mode *m;

	switch (c) {
	case 0: sqlite3_result_int64(ctx, (int64_t)r); return;
	case 1: tt_vtab_result_str(ctx, st, g->package); return;
	case 2: sqlite3_result_int64(ctx, g->uid); return;
	case 3: sqlite3_result_int64(ctx, g->current_mode); return;
	}
	/* then per mode: supported, downscale, use_angle, fps (NULL when not supported) */
	m = &g->mode[(c - 4) / 4];
	if ((c - 4) % 4 == 0)
		sqlite3_result_int64(ctx, m->supported);
	else if (!m->supported)
		sqlite3_result_null(ctx);
	else if ((c - 4) % 4 == 2)
		sqlite3_result_int64(ctx, m->use_angle);
	else
		sqlite3_result_double(ctx, (c - 4) % 4 == 1 ? m->downscale : m->fps);
}
static const tt_vtab_def game_def = {
	.name = "__intrinsic_android_game_intervention_list",
	.schema = "CREATE TABLE x(id INTEGER, package_name TEXT, uid INTEGER, current_mode INTEGER,"
		  " standard_mode_supported INTEGER, standard_mode_downscale REAL, standard_mode_use_angle INTEGER,"
		  " standard_mode_fps REAL, perf_mode_supported INTEGER, perf_mode_downscale REAL,"
		  " perf_mode_use_angle INTEGER, perf_mode_fps REAL, battery_mode_supported INTEGER,"
		  " battery_mode_downscale REAL, battery_mode_use_angle INTEGER, battery_mode_fps REAL)",
	.nrows = game_n, .column = game_col,
	.id_col = 0, .track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = -1, .id_alias_col = -1,
};

static size_t user_n(const tt_storage *st) { return st->users.n; }
static void user_col(const tt_storage *st, size_t r, int c, sqlite3_context *ctx)
{
	if (c == 0)
		sqlite3_result_int64(ctx, (int64_t)r);
	else if (c == 1)
		tt_vtab_result_str(ctx, st, st->users.type[r]);
	else
		sqlite3_result_int64(ctx, st->users.id[r]);
}
static const tt_vtab_def user_def = {
	.name = "__intrinsic_android_user_list",
	.schema = "CREATE TABLE x(id INTEGER, type TEXT, android_user_id INTEGER)",
	.nrows = user_n, .column = user_col,
	.id_col = 0, .track_col = -1, .ts_col = -1, .name_col = -1, .argset_col = -1, .id_alias_col = -1,
};

static const char system_views[] =
	"CREATE TEMP VIEW cpu_available_frequencies AS SELECT id, cpu, freq, ucpu FROM __intrinsic_cpu_freq;"
	"CREATE TEMP VIEW android_game_intervention_list AS SELECT * FROM __intrinsic_android_game_intervention_list;";

int tt_vtab_register_system(sqlite3 *db, tt_storage *st)
{
	int rc = tt_vtab_register(db, st, &cpu_def);

	if (rc == SQLITE_OK)
		rc = tt_vtab_register(db, st, &freq_def);
	if (rc == SQLITE_OK)
		rc = tt_vtab_register(db, st, &uid_def);
	if (rc == SQLITE_OK)
		rc = tt_vtab_register(db, st, &aflag_def);
	if (rc == SQLITE_OK)
		rc = tt_vtab_register(db, st, &game_def);
	if (rc == SQLITE_OK)
		rc = tt_vtab_register(db, st, &user_def);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, system_views, NULL, NULL, NULL);
	return rc;
}
