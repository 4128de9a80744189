/*
 * trace.c - tt_trace: one opened trace = storage + SQLite connection.
 * Also the read accessors the viewer uses on its per-frame path and the
 * `termtrace info` report.
 */
#include "builtins.h"
#include "trace_int.h"
#include "import_int.h"
#include "describe.h"
#include "vtab.h"
#include "perfetto_sql.h"

#include <dirent.h>
#include <inttypes.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* The import options from the environment: test settings only, read here
 * so that nothing in core/import/ reads the environment. */
static void import_opts_from_env(tt_import_opts *opts)
{
	const char *e;

	memset(opts, 0, sizeof(*opts));
	if ((e = getenv("TT_JSON_CHUNK")) && atol(e) >= 16)
		opts->json_chunk = (size_t)atol(e);
	if ((e = getenv("TT_CTF_BATCH")) && atoll(e) > 0)
		opts->ctf_batch = (size_t)atoll(e);
	opts->ctf_one_thread = (e = getenv("TT_CTF_THREADS")) && atoi(e) == 1;
	opts->proto_one_thread = (e = getenv("TT_PROTO_THREADS")) && atoi(e) == 1;
	if ((e = getenv("TT_JSON_MAX_STRING_MIB")) && atol(e) > 0)
		opts->json_max_string_mib = (size_t)atol(e);
}

/* The importers' progress and cancel, into the caller's tt_progress. */
static void progress_cb(void *ctx, uint64_t bytes_total, uint64_t bytes_done, uint64_t events)
{
	tt_progress *pr = ctx;

	if (bytes_total) {
		atomic_store(&pr->bytes_total, bytes_total);
		return;
	}
	atomic_store(&pr->bytes_done, bytes_done);
	atomic_store(&pr->events, events);
}

static int cancelled_cb(void *ctx)
{
	return atomic_load(&((tt_progress *)ctx)->cancel);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The bytes of the regular files below dir (a CTF trace folder). */
static uint64_t dir_size(const char *dir)
{
	uint64_t total = 0;
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char p[4096];
		struct stat sb;

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (lstat(p, &sb) != 0)
			continue;
		if (S_ISDIR(sb.st_mode))
			total += dir_size(p);
		else if (S_ISREG(sb.st_mode))
			total += (uint64_t)sb.st_size;
	}
	closedir(d);
	return total;
}

tt_trace *tt_trace_open(const char *path, tt_progress *progress, tt_err *err)
{
	tt_import_opts opts;
	tt_trace *tr = calloc(1, sizeof(*tr));
	struct stat sb;
	double t0 = now_s();
	int rc;

	if (!tr || !(tr->path = strdup(path)) || !(tr->st = tt_storage_new())) {
		tt_trace_close(tr);
		tt_err_set(err, TT_ENOMEM, "%s: out of memory", path);
		goto done;
	}
	if (stat(path, &sb) == 0)
		tr->file_size = S_ISDIR(sb.st_mode) ? dir_size(path) : (uint64_t)sb.st_size;
	import_opts_from_env(&opts);
	if (progress) {
		opts.progress = progress_cb;
		opts.cancelled = cancelled_cb;
		opts.ctx = progress;
	}
	rc = tt_import_run(tr->st, path, &opts, &tr->format, err);
	if (rc != TT_OK) {
		tt_trace_close(tr);
		tr = NULL;
		goto done;
	}
	tt_storage_finalize(tr->st);
#ifdef __GLIBC__
	/* The importer's temporary buffers are freed by now; hand the pages
	 * back so that resident memory is the storage, not the import peak. */
	malloc_trim(0);
#endif
	tr->import_seconds = now_s() - t0;
	if (sqlite3_open_v2(":memory:", &tr->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK ||
	    tt_sql_register_builtins(tr->db, tr->st) != SQLITE_OK ||
	    tt_vtab_register_core(tr->db, tr->st) != SQLITE_OK ||
	    tt_describe_register(tr->db, tr->st) != SQLITE_OK ||
	    !(tr->psql = tt_psql_new(tr->db))) {
		tt_err_set(err, TT_ENOMEM, "%s: cannot set up SQL: %s", path,
			   tr->db ? sqlite3_errmsg(tr->db) : "out of memory");
		tt_trace_close(tr);
		tr = NULL;
	}
done:
	if (progress)
		atomic_store(&progress->done, 1);
	return tr;
}

void tt_trace_close(tt_trace *tr)
{
	if (!tr)
		return;
	tt_psql_free(tr->psql); /* its statements go before the connection */
	if (tr->db)
		sqlite3_close_v2(tr->db);
	tt_storage_free(tr->st);
	free(tr->path);
	free(tr);
}

sqlite3 *tt_trace_db(tt_trace *tr) { return tr->db; }
const char *tt_trace_format(const tt_trace *tr) { return tr->format; }
const char *tt_trace_path(const tt_trace *tr) { return tr->path; }
uint64_t tt_trace_file_size(const tt_trace *tr) { return tr->file_size; }
double tt_trace_import_seconds(const tt_trace *tr) { return tr->import_seconds; }

void tt_trace_bounds(const tt_trace *tr, int64_t *start_ts, int64_t *end_ts)
{
	*start_ts = tr->st->start_ts;
	*end_ts = tr->st->end_ts;
}

/* ---- viewer accessors ------------------------------------------------------ */

void tt_trace_slices(const tt_trace *tr, tt_slice_cols *o)
{
	const tt_storage *st = tr->st;

	o->n = st->slice.n;
	o->ts = st->slice.ts;
	o->dur = st->slice.dur;
	o->track_id = st->slice.track;
	o->name = st->slice.name;
	o->cat = st->slice.cat;
	o->depth = st->slice.depth;
	o->parent_id = st->slice.parent_id;
	o->arg_set_id = st->slice.arg_set_id;
}

void tt_trace_counters(const tt_trace *tr, tt_counter_cols *o)
{
	o->n = tr->st->counter.n;
	o->ts = tr->st->counter.ts;
	o->value = tr->st->counter.value;
	o->track_id = tr->st->counter.track;
}

void tt_trace_flows(const tt_trace *tr, tt_flow_cols *o)
{
	o->n = tr->st->flow.n;
	o->slice_out = tr->st->flow.slice_out;
	o->slice_in = tr->st->flow.slice_in;
}

static const char *or_empty(const tt_storage *st, tt_str s)
{
	const char *t = tt_storage_str(st, s);

	return t ? t : "";
}

uint32_t tt_trace_track_count(const tt_trace *tr)
{
	return (uint32_t)tr->st->track.n;
}

int tt_trace_track(const tt_trace *tr, uint32_t id, tt_track_info *o)
{
	const tt_storage *st = tr->st;

	if (id >= st->track.n)
		return -1;
	o->id = id;
	o->name = or_empty(st, st->track.name[id]);
	o->type = or_empty(st, st->track.type[id]);
	o->utid = st->track.utid[id];
	o->upid = st->track.upid[id];
	o->parent_id = st->track.parent_id[id];
	o->is_counter = st->track.is_counter[id];
	o->unit = or_empty(st, st->track.unit[id]);
	o->max_depth = st->track.max_depth[id];
	o->cpu = st->track.cpu[id];
	if (st->track.row_off && id + 1 <= st->track.n) {
		o->rows = st->track.rows + st->track.row_off[id];
		o->nrows = st->track.row_off[id + 1] - st->track.row_off[id];
	} else {
		o->rows = NULL;
		o->nrows = 0;
	}
	return 0;
}

uint32_t tt_trace_thread_count(const tt_trace *tr)
{
	return (uint32_t)tr->st->thread.n;
}

int tt_trace_thread(const tt_trace *tr, uint32_t utid, tt_thread_info *o)
{
	const tt_storage *st = tr->st;

	if (utid >= st->thread.n)
		return -1;
	o->utid = utid;
	o->upid = st->thread.upid[utid];
	o->tid = st->thread.tid[utid];
	o->name = or_empty(st, st->thread.name[utid]);
	o->sort_index = st->thread.sort_index[utid] == TT_TS_NONE ? 0 : st->thread.sort_index[utid];
	return 0;
}

uint32_t tt_trace_process_count(const tt_trace *tr)
{
	return (uint32_t)tr->st->process.n;
}

int tt_trace_process(const tt_trace *tr, uint32_t upid, tt_process_info *o)
{
	const tt_storage *st = tr->st;

	if (upid >= st->process.n)
		return -1;
	o->upid = upid;
	o->pid = st->process.pid[upid];
	o->name = or_empty(st, st->process.name[upid]);
	o->sort_index = st->process.sort_index[upid] == TT_TS_NONE ? 0 : st->process.sort_index[upid];
	return 0;
}

void tt_dur_text(int64_t ns, int utf8, char *buf, size_t n)
{
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	uint64_t unit = a >= 1000000000 ? 1000000000 : a >= 1000000 ? 1000000 : a >= 1000 ? 1000 : 1;
	const char *name = unit == 1000000000 ? "s" : unit == 1000000 ? "ms" :
			   unit == 1000 ? (utf8 ? "\xc2\xb5s" : "us") : "ns";
	char frac[16] = "";
	int digits = unit == 1000000000 ? 9 : unit == 1000000 ? 6 : unit == 1000 ? 3 : 0;
	uint64_t f = a % unit;

	if (f) {
		/* the fraction's digits, most significant first, zeros dropped */
		frac[0] = '.';
		for (int i = digits; i >= 1; i--, f /= 10)
			frac[i] = (char)('0' + f % 10);
		int len = digits;
		while (frac[len] == '0')
			len--;
		frac[len + 1] = 0;
	}
	snprintf(buf, n, "%s%" PRIu64 "%s%s", ns < 0 ? "-" : "", a / unit, frac, name);
}

const char *tt_trace_str(const tt_trace *tr, uint32_t id)
{
	return or_empty(tr->st, id);
}

void tt_trace_args(const tt_trace *tr, uint32_t set, tt_arg_fn fn, void *ctx)
{
	const tt_storage *st = tr->st;
	size_t first, end;
	char buf[64];

	if (set == TT_NONE || !tt_storage_argset_rows(st, set, &first, &end))
		return;
	for (size_t r = first; r < end; r++)
		fn(ctx, or_empty(st, st->args.key[r]), tt_storage_arg_text(st, r, buf, sizeof(buf)));
}

/* ---- info ------------------------------------------------------------------------- */

static void fmt_ns(char *buf, size_t len, int64_t ns)
{
	snprintf(buf, len, "%" PRId64 ".%09" PRId64 " s", ns / 1000000000, (ns < 0 ? -ns : ns) % 1000000000);
}

/* The stats the tracing service's TraceStats sets (traced_*, filter_*). */
static int service_stat(int s)
{
	return (s >= TT_STAT_traced_producers_connected && s <= TT_STAT_filter_time_taken_ns) || tt_stat_indexed(s);
}

void tt_trace_print_info(tt_trace *tr, FILE *out)
{
	const tt_storage *st = tr->st;
	static const struct { const char *name, *severity; } stat_info[] = {
#define TT_STAT_ROW(id, name, sev, src, desc) { name, sev },
		TT_STATS(TT_STAT_ROW)
#undef TT_STAT_ROW
	};
	char a[64], b[64], c[64];
	int any = 0, problems = 0, listed = 0, service = 0;

	fmt_ns(a, sizeof(a), st->start_ts);
	fmt_ns(b, sizeof(b), st->end_ts);
	fmt_ns(c, sizeof(c), st->end_ts - st->start_ts);
	fprintf(out, "file:          %s\n", tr->path);
	fprintf(out, "format:        %s\n", tr->format);
	fprintf(out, "size:          %" PRIu64 " bytes\n", tr->file_size);
	fprintf(out, "import time:   %.3f s\n", tr->import_seconds);
	fprintf(out, "time range:    %" PRId64 " .. %" PRId64 " ns (%s .. %s)\n", st->start_ts,
		st->end_ts, a, b);
	fprintf(out, "duration:      %s\n", c);
	fprintf(out, "tables:\n");
	fprintf(out, "  process      %zu\n", st->process.n);
	fprintf(out, "  thread       %zu\n", st->thread.n);
	fprintf(out, "  track        %zu\n", st->track.n);
	fprintf(out, "  slice        %zu\n", st->slice.n);
	fprintf(out, "  counter      %zu\n", st->counter.n);
	fprintf(out, "  flow         %zu\n", st->flow.n);
	fprintf(out, "  args         %zu\n", st->args.n);
	if (st->raw.n)
		fprintf(out, "  raw          %zu\n", st->raw.n);
	if (st->sched.n)
		fprintf(out, "  sched_slice  %zu\n", st->sched.n);
	if (st->tstate.n)
		fprintf(out, "  thread_state %zu\n", st->tstate.n);
	/* Problems an importer recorded (a cut file, a bad packet): where.
	 * An importer that lists them (`X.problem.N`) also sums them up in
	 * import_warning for the other commands: the list is enough here. */
	for (size_t i = 0; i < st->meta.n; i++) {
		const char *name = tt_storage_str(st, st->meta.name[i]);

		if (name && strstr(name, ".problem"))
			listed = 1;
	}
	for (size_t i = 0; i < st->meta.n; i++) {
		const char *name = tt_storage_str(st, st->meta.name[i]);
		const char *val = tt_storage_str(st, st->meta.sval[i]);

		if (!name || !val || (strcmp(name, "import_warning") && !strstr(name, ".problem")))
			continue;
		if (listed && !strcmp(name, "import_warning"))
			continue;
		if (!problems++)
			fprintf(out, "problems:\n");
		fprintf(out, "  %s\n", val);
	}
	fprintf(out, "stats:\n");
	for (int i = 0; i < TT_STAT_COUNT; i++) {
		if (!st->stats[i])
			continue;
		/* the tracing service's own figures (TraceStats) are not
		 * problems: one line for them below, unless one is a loss */
		if (service_stat(i) && !strcmp(stat_info[i].severity, "info")) {
			service++;
			continue;
		}
		fprintf(out, "  %-28s %-9s %" PRId64, stat_info[i].name, stat_info[i].severity,
			st->stats[i]);
		/* what it was, when the importer named it */
		for (size_t k = 0, shown = 0; k < st->named.n; k++) {
			if (st->named.stat[k] != i)
				continue;
			if (shown == 8) {
				fputs(", ...", out);
				break;
			}
			fprintf(out, "%s%s: %" PRId64, shown++ ? ", " : "  (",
				tt_storage_str(st, st->named.name[k]), st->named.count[k]);
		}
		for (size_t k = 0; k < st->named.n; k++) {
			if (st->named.stat[k] == i) {
				fputc(')', out);
				break;
			}
		}
		fputc('\n', out);
		any = 1;
	}
	for (size_t r = 0; r < tt_storage_stat_indexed_count(st); r++) {
		int32_t idx;
		int64_t v;
		tt_stat s = tt_storage_stat_indexed_row(st, r, &idx, &v);
		char name[80];

		if (!v)
			continue;
		if (!strcmp(stat_info[s].severity, "info")) {
			service++;
			continue;
		}
		snprintf(name, sizeof(name), "%s[%d]", stat_info[s].name, (int)idx);
		fprintf(out, "  %-28s %-9s %" PRId64 "\n", name, stat_info[s].severity, v);
		any = 1;
	}
	if (service)
		fprintf(out, "  (%s%d figures of the tracing service: select * from stats where name like 'traced%%')\n",
			any ? "and " : "", service);
	else if (!any)
		fprintf(out, "  (none)\n");
}
