/*
 * import_ctf.c - the CTF 1.8 / LTTng importer: finds the traces below a
 * folder, opens every stream of each, merges all streams of all traces by
 * time with a heap, and turns each event into storage rows.
 *
 * Pipeline: discovery (folders with a `metadata` file) -> ctf_metadata
 * (TSDL -> resolved types) -> ctf_stream (one cursor per stream file,
 * bit-exact decoding and clock rebuild) -> heap merge (ns since the epoch,
 * ties by trace, stream class, stream instance, file) -> trackers/storage.
 *
 * What an event becomes:
 *   - a `raw` row (ts, name, cpu, utid) whose arg set holds its payload
 *     fields (keys `a`, `a.b`, `a[2]`) and non-identity context fields
 *     (`context.NAME`); enums store their label (the number when no label
 *     matches), 8-bit encoded arrays store text. The set is lazy (see
 *     storage.h): the raw row keeps where the event lives (stream, bit
 *     offset) and the fields are decoded again when something reads them;
 *     the keys of an event class are interned once (a shape). Sets are
 *     written at import only for events whose keys vary (variants, non-text
 *     sequences) and that open or close a slice, since a merge needs keys;
 *   - a thread from vpid/vtid (UST) or pid/tid (kernel context), named by
 *     procname; kernel events without them use the thread that
 *     sched_switch put on their CPU;
 *   - a slice: `X_entry`/`X_exit`, `X_begin`/`X_end`, kernel
 *     `syscall_entry_X`/`syscall_exit_X` and lttng_ust_cyg_profile
 *     func_entry/func_exit open/close slices on the thread track (named by
 *     function when the statedump's binary is here: ctf_debuginfo.c);
 *     lttng_ust_tracef/tracelog messages and the UST state dump
 *     (lttng_ust_statedump, lttng_ust_dl) are instants (dur 0) on the
 *     thread track, else on the CPU's "CPU N events" track, else on the
 *     stream's track; every other event is its `raw` row alone (also
 *     `ftrace_event`), as trace processor keeps ftrace events: millions
 *     of tracepoints would otherwise cost a slice each;
 *   - kernel sched_switch closes/opens `sched_slice` rows per CPU;
 *   - the packet's cpu_id: a `cpu` table row and the "CPU N" track of what
 *     ran there (sched_switch slices, else runs of one thread's events);
 *   - an events_discarded increase becomes the ctf_events_discarded stat
 *     and a slice "lost events (N discarded)" over [previous packet end,
 *     this packet end] on the stream's "lost events" track.
 *
 * Problems in one stream (truncated packet, decode error) keep every event
 * before them, are counted in stats and described in the metadata table
 * (`ctf.problem.N`, the first also as `import_warning`, which every command
 * prints); the import still succeeds. A packet whose uuid differs is read
 * (babeltrace2 reads it) and counted. The import fails only when no trace
 * could be opened at all.
 *
 * Lazy sets keep every stream file mapped (and the metadata loaded) until
 * the trace is closed or a full read of `args` stored every set; the
 * mapped pages leave the resident set after the import.
 *
 * Known limits: lost packets (packet_seq_num gaps) are only counted; a
 * stream file cut shorter while the trace is open is not supported.
 */
#include "import_ctf_int.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "vec.h"

/* ---- discovery -------------------------------------------------------- */
static int is_file(const char *dir, const char *name)
{
	char path[4096];
	struct stat sb;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return 0;
	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of the entries of dir (without . and ..). */
static char **list_dir(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;
	size_t cnt = 0, cap = 0;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (cnt == cap) {
			size_t nc = cap ? cap * 2 : 16;
			char **nv;

			if (nc > 1000000)
				break;
			nv = realloc(v, nc * sizeof(*nv));
			if (!nv)
				break;
			v = nv;
			cap = nc;
		}
		v[cnt] = strdup(e->d_name);
		if (!v[cnt])
			break;
		cnt++;
	}
	closedir(d);
	if (cnt)
		qsort(v, cnt, sizeof(*v), cmp_str);
	*n = cnt;
	return v;
}

static void free_list(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Calls found(dir) for every trace folder at or below dir. Returns the
 * count; stops early when stop_at is reached (0 = no limit). */
static size_t find_traces(const char *dir, int depth, size_t stop_at,
			  void (*found)(void *, const char *), void *arg)
{
	char **names;
	size_t n, i, count = 0;
	struct stat sb;

	if (depth > MAX_DIR_DEPTH)
		return 0;
	if (is_file(dir, "metadata")) {
		if (found)
			found(arg, dir);
		return 1;
	}
	names = list_dir(dir, &n);
	for (i = 0; i < n && (!stop_at || count < stop_at); i++) {
		char path[4096];

		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, names[i]) >= sizeof(path))
			continue;
		if (lstat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
			count += find_traces(path, depth + 1, stop_at ? stop_at - count : 0, found, arg);
	}
	free_list(names, n);
	return count;
}

int tt_ctf_dir_has_trace(const char *dir)
{
	return find_traces(dir, 0, 1, NULL, NULL) > 0;
}

static void add_dir(void *arg, const char *dir)
{
	ctx *c = arg;

	if (c->ndirs == c->cdirs) {
		size_t nc = c->cdirs ? c->cdirs * 2 : 8;
		char **nd;

		if (nc > MAX_TRACES)
			return;
		nd = realloc(c->dirs, nc * sizeof(*nd));
		if (!nd)
			return;
		c->dirs = nd;
		c->cdirs = nc;
	}
	c->dirs[c->ndirs] = strdup(dir);
	if (c->dirs[c->ndirs])
		c->ndirs++;
}

/* ---- event classes --------------------------------------------------------- */
static int ends_with(const char *s, size_t n, const char *suf)
{
	size_t l = strlen(suf);

	return n > l && !memcmp(s + n - l, suf, l);
}

/* Keys of a class, interned as they come. */
struct key_list {
	tt_storage *st;
	TT_VEC(tt_str) keys;
	int oom;
};

static void add_key(void *p, const char *key)
{
	struct key_list *k = p;

	if (TT_VEC_PUSH(k->keys, tt_storage_intern_cstr(k->st, key)))
		k->oom = 1;
}

static int classify(ctx *c, trace_ctx *t)
{
	ctf_meta *m = t->m;
	size_t i, n = m->nevents ? m->nevents : 1;
	uint8_t *seen = calloc(n, 1);

	t->name = calloc(n, sizeof(*t->name));
	t->base = calloc(n, sizeof(*t->base));
	t->cat = calloc(n, sizeof(*t->cat));
	t->kind = calloc(n, sizeof(*t->kind));
	t->shape = malloc(n * sizeof(*t->shape));
	t->nkeys = calloc(n, sizeof(*t->nkeys));
	t->skip = calloc(n, sizeof(*t->skip));
	if (!seen || !t->name || !t->base || !t->cat || !t->kind || !t->shape || !t->nkeys || !t->skip) {
		free(seen);
		return TT_ENOMEM;
	}
	for (i = 0; i < n; i++)
		t->shape[i] = TT_NONE;
	for (i = 0; i < m->nevents; i++) {
		const char *nm = m->events[i].name;
		size_t len = strlen(nm);
		const char *colon = strchr(nm, ':');
		const char *se;

		t->name[i] = tt_storage_intern(c->st, nm, len);
		t->cat[i] = colon ? tt_storage_intern(c->st, nm, (size_t)(colon - nm)) : 0;
		t->kind[i] = K_RAW;
		if (!strcmp(nm, "sched_switch")) {
			t->kind[i] = K_SCHED_SWITCH;
		} else if (!strcmp(nm, "lttng_ust_statedump:bin_info") || !strcmp(nm, "lttng_ust_dl:dlopen")) {
			t->kind[i] = K_BIN_INFO;
		} else if (!strcmp(nm, "lttng_ust_statedump:build_id") || !strcmp(nm, "lttng_ust_dl:build_id")) {
			t->kind[i] = K_BUILD_ID;
		} else if (colon && (!strcmp(colon, ":func_entry") || !strcmp(colon, ":func_exit")) &&
			   !strncmp(nm, "lttng_ust_cyg_profile", 21)) {
			t->kind[i] = !strcmp(colon, ":func_entry") ? K_FUNC_ENTRY : K_FUNC_EXIT;
		} else if (!strncmp(nm, "lttng_ust_tracef:", 17) || !strncmp(nm, "lttng_ust_tracelog:", 19) ||
			   !strncmp(nm, "lttng_ust_statedump:", 20) || !strncmp(nm, "lttng_ust_dl:", 13)) {
			/* few, and read by a person: messages and the state dump */
			t->kind[i] = K_INSTANT;
		} else if ((se = strstr(nm, "syscall_entry_")) != NULL) {
			t->kind[i] = K_BEGIN;
			t->base[i] = tt_storage_intern_cstr(c->st, se + 14);
		} else if ((se = strstr(nm, "syscall_exit_")) != NULL) {
			t->kind[i] = K_END;
			t->base[i] = tt_storage_intern_cstr(c->st, se + 13);
		} else if (ends_with(nm, len, "_entry")) {
			t->kind[i] = K_BEGIN;
			t->base[i] = tt_storage_intern(c->st, nm, len - 6);
		} else if (ends_with(nm, len, "_exit")) {
			t->kind[i] = K_END;
			t->base[i] = tt_storage_intern(c->st, nm, len - 5);
		} else if (ends_with(nm, len, "_begin")) {
			t->kind[i] = K_BEGIN;
			t->base[i] = tt_storage_intern(c->st, nm, len - 6);
		} else if (ends_with(nm, len, "_end")) {
			t->kind[i] = K_END;
			t->base[i] = tt_storage_intern(c->st, nm, len - 4);
		}
	}
	/* LTTng's `ip` context (an instruction pointer in every event) is
	 * resolved like func_entry's addr when the trace has a statedump */
	for (size_t k = 0; k < m->nstreams; k++) {
		const ctf_type *ec = m->streams[k].event_context;

		for (size_t f = 0; ec && ec->kind == CTF_K_STRUCT && f < ec->nfields; f++)
			if (!strcmp(ec->fields[f].key, "ip"))
				t->has_ip = 1;
	}
	if (t->has_ip) {
		int statedump = 0;

		for (i = 0; i < m->nevents; i++)
			statedump |= t->kind[i] == K_BIN_INFO;
		t->has_ip = statedump;
	}
	/* Classes whose keys never vary get a shape now and lazy sets; their
	 * values are not even produced at import unless the import reads them
	 * (func_entry's addr, sched_switch). The event context is the stream
	 * class's: a class listed by two is left out. */
	for (size_t k = 0; k < m->nstreams; k++) {
		const ctf_stream_class *sc = &m->streams[k];
		int ctx_fixed = tt_ctf_type_fixed(sc->event_context);

		for (size_t j = 0; j < sc->nsorted; j++) {
			const ctf_event_class *ec = sc->sorted[j];
			size_t ci = (size_t)(ec - m->events);
			struct key_list keys = { .st = c->st };

			t->shape[ci] = TT_NONE;
			t->skip[ci] = 0;
			if (seen[ci]++ || !ctx_fixed || !tt_ctf_type_fixed(ec->context) ||
			    !tt_ctf_type_fixed(ec->fields))
				continue;
			if (!tt_ctf_class_keys(m, sc, ec, add_key, &keys) && !keys.oom) {
				t->shape[ci] = tt_storage_args_shape(c->st, keys.keys.v, keys.keys.n);
				t->nkeys[ci] = (uint32_t)keys.keys.n;
				t->skip[ci] = t->shape[ci] != TT_NONE && t->kind[ci] != K_FUNC_ENTRY &&
					      t->kind[ci] != K_SCHED_SWITCH && t->kind[ci] != K_BIN_INFO &&
					      t->kind[ci] != K_BUILD_ID && !t->has_ip;
			}
			TT_VEC_FREE(keys.keys);
		}
	}
	free(seen);
	return tt_storage_oom(c->st) ? TT_ENOMEM : TT_OK;
}

/* ---- opening ---------------------------------------------------------------- */
static void env_meta(ctx *c, trace_ctx *t)
{
	char key[160];
	size_t i;

	if (t->index == 0)
		tt_storage_meta_str(c->st, "ctf.trace_dir", t->dir);
	for (i = 0; i < t->m->nenv; i++) {
		const ctf_env_entry *e = &t->m->env[i];

		if (t->index == 0)
			snprintf(key, sizeof(key), "ctf.env.%s", e->key);
		else
			snprintf(key, sizeof(key), "ctf.%d.env.%s", t->index, e->key);
		if (e->str)
			tt_storage_meta_str(c->st, key, e->str);
		else
			tt_storage_meta_int(c->st, key, e->num);
	}
	if (t->m->skipped) {
		int named = 0;

		for (int k = 0; k < t->m->nskipped_names; k++) {
			tt_storage_stat_named(c->st, TT_STAT_ctf_metadata_unsupported,
					      t->m->skipped_name[k], t->m->skipped_count[k]);
			named += t->m->skipped_count[k];
		}
		/* past the first 16 names: still counted */
		if (t->m->skipped > named)
			tt_storage_stat_add(c->st, TT_STAT_ctf_metadata_unsupported, t->m->skipped - named);
	}
}

static int open_trace_streams(ctx *c, trace_ctx *t)
{
	char **names;
	size_t n, i;
	int rc = TT_OK;

	names = list_dir(t->dir, &n);
	for (i = 0; i < n; i++) {
		char path[4096];
		tt_err e;
		ctf_stream *s;
		src *sp;

		if (!strcmp(names[i], "metadata") || !is_file(t->dir, names[i]))
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", t->dir, names[i]) >= sizeof(path))
			continue;
		tt_err_clear(&e);
		if (tt_ctf_stream_open(t->m, path, &s, &e) != TT_OK) {
			if (e.code == TT_ENOMEM) {
				rc = tt_err_set(c->im->err, TT_ENOMEM, "%s", e.msg);
				break;
			}
			tt_storage_stat_add(c->st, TT_STAT_ctf_decode_error, 1);
			tt_ctf_note_problem(c, e.msg);
			continue;
		}
		if (c->nsrcs >= MAX_STREAMS) {
			tt_ctf_stream_close(s);
			tt_ctf_note_problem(c, "too many stream files: the rest were skipped");
			break;
		}
		sp = &c->srcs[c->nsrcs];
		memset(sp, 0, sizeof(*sp));
		sp->s = s;
		sp->tr = t;
		sp->idx = (int)c->nsrcs;
		sp->file = strdup(names[i]);
		sp->stream_track = TT_NONE;
		sp->trk_utid = TT_NONE;
		sp->lost_track = TT_NONE;
		sp->seen_utid = TT_NONE;
		sp->cpu_track = TT_NONE;
		sp->reg_cpu = -1;
		/* locators hold the stream index and a bit offset */
		if (c->lz && sp->idx <= (int)(UINT64_MAX >> LOC_BITS) &&
		    tt_ctf_stream_size(s) <= LOC_MASK / 8) {
			lazy_src *ls = &c->lz->srcs[sp->idx];

			ls->m = t->m;
			ls->path = strdup(path);
			sp->lazy = ls->path != NULL;
			if (sp->lazy) {
				c->lz->nsrcs = (size_t)sp->idx + 1;
				tt_ctf_stream_skip_values(s, t->skip);
			}
		}
		if (!sp->file) {
			tt_ctf_stream_close(s);
			rc = tt_err_set(c->im->err, TT_ENOMEM, "%s: out of memory", path);
			break;
		}
		c->total_bytes += tt_ctf_stream_size(s);
		c->nsrcs++;
	}
	free_list(names, n);
	return rc;
}

static int count_files(const char *dir)
{
	char **names;
	size_t n, i;
	int k = 0;

	names = list_dir(dir, &n);
	for (i = 0; i < n; i++)
		if (strcmp(names[i], "metadata") && is_file(dir, names[i]))
			k++;
	free_list(names, n);
	return k;
}

int tt_import_ctf(tt_import *im, const char *dir)
{
	ctx c;
	size_t i, nfiles = 0;
	uint64_t events = 0;
	int rc = TT_OK;
	tt_err first;

	memset(&c, 0, sizeof(c));
	c.im = im;
	c.st = im->st;
	tt_err_clear(&first);
	find_traces(dir, 0, 0, add_dir, &c);
	if (!c.ndirs) {
		rc = tt_err_set(im->err, TT_EINVAL, "%s: no CTF trace (no metadata file) found", dir);
		goto out;
	}
	c.traces = calloc(c.ndirs, sizeof(*c.traces));
	if (!c.traces) {
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", dir);
		goto out;
	}
	for (i = 0; i < c.ndirs; i++)
		nfiles += (size_t)count_files(c.dirs[i]);
	if (nfiles > MAX_STREAMS)
		nfiles = MAX_STREAMS;
	c.srcs = calloc(nfiles ? nfiles : 1, sizeof(*c.srcs));
	if (!c.srcs) {
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", dir);
		goto out;
	}
	/* Lazy args: the storage owns the decoder (metadata, stream paths)
	 * from here on; without it every set is written now. */
	c.lz = calloc(1, sizeof(*c.lz));
	if (c.lz) {
		c.lz->srcs = calloc(nfiles ? nfiles : 1, sizeof(*c.lz->srcs));
		c.lz->metas = calloc(c.ndirs, sizeof(*c.lz->metas));
		if (!c.lz->srcs || !c.lz->metas) {
			tt_ctf_lazy_free(c.lz);
			c.lz = NULL;
		} else if (tt_storage_args_decoder(c.st, &tt_ctf_lazy_ops, c.lz)) {
			c.lz = NULL; /* freed by the storage */
		}
	}
	for (i = 0; i < c.ndirs; i++) {
		trace_ctx *t = &c.traces[c.ntraces];
		tt_err e;
		int r;

		tt_err_clear(&e);
		r = tt_ctf_meta_load(c.dirs[i], &t->m, &e);
		if (r != TT_OK) {
			if (r == TT_ENOMEM) {
				rc = tt_err_set(im->err, r, "%s", e.msg);
				goto out;
			}
			if (!first.code)
				first = e;
			tt_ctf_note_problem(&c, e.msg);
			continue;
		}
		t->dir = c.dirs[i];
		t->index = (int)c.ntraces;
		c.ntraces++;
		if (c.lz)
			c.lz->metas[c.lz->nmetas++] = t->m;
		if ((rc = classify(&c, t)) != TT_OK) {
			tt_err_set(im->err, rc, "%s: out of memory", dir);
			goto out;
		}
		env_meta(&c, t);
		if (t->m->unknown_attr_line) {
			/* babeltrace2 warns and reads on: so do we */
			char msg[4096 + 128];

			snprintf(msg, sizeof(msg), "%s/metadata:%d: unknown attribute '%s' skipped", t->dir,
				 t->m->unknown_attr_line, t->m->unknown_attr);
			if (t->m->skipped > 1)
				snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg),
					 " (%d TSDL features skipped in all: see stats)", t->m->skipped);
			tt_ctf_note_problem(&c, msg);
		}
		if ((rc = open_trace_streams(&c, t)) != TT_OK)
			goto out;
	}
	if (!c.ntraces) {
		rc = tt_err_set(im->err, first.code ? first.code : TT_EINVAL, "%s", first.msg);
		goto out;
	}
	tt_import_total(im, c.total_bytes);
	if (c.lz && c.nsrcs > 1 && c.nsrcs <= LOC_MAP_STREAMS && !(c.lz->map = tt_ctf_loc_map_new(c.nsrcs))) {
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", dir);
		goto out;
	}
	/* decoding on the workers, storing here (ctf_read.c) */
	if (tt_ctf_read_and_store(&c, &events)) {
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory after %llu events", dir,
				(unsigned long long)events);
		goto out;
	}
	if (tt_import_cancelled(im)) {
		rc = tt_err_set(im->err, TT_ECANCEL, "%s: import cancelled", dir);
		goto out;
	}
	/* a thread still running on a CPU at the end has no known end: no
	 * sched_slice row for it (Perfetto does the same); an event run
	 * ends at its last event */
	tt_ctf_cpu_runs_end(&c);
	for (i = 0; i < c.nsrcs; i++)
		tt_ctf_seen_flush(&c, &c.srcs[i]);
	tt_ctf_thread_instants_end(&c);
	if (c.lz)
		tt_ctf_loc_map_done(c.lz->map);
	for (i = 0; i < c.nsrcs; i++) {
		const ctf_stream_stats *ss = &c.srcs[i].st;

		if (ss->packets_lost)
			tt_storage_stat_add(c.st, TT_STAT_ctf_packets_lost, (int64_t)ss->packets_lost);
		if (ss->truncated)
			tt_storage_stat_add(c.st, TT_STAT_ctf_truncated, (int64_t)ss->truncated);
		if (ss->decode_errors)
			tt_storage_stat_add(c.st, TT_STAT_ctf_decode_error, (int64_t)ss->decode_errors);
		if (ss->unknown_events)
			tt_storage_stat_add(c.st, TT_STAT_ctf_event_unknown, (int64_t)ss->unknown_events);
		if (ss->ts_backwards)
			tt_storage_stat_add(c.st, TT_STAT_ts_backwards, (int64_t)ss->ts_backwards);
		if (ss->uuid_mismatch)
			tt_storage_stat_add(c.st, TT_STAT_ctf_uuid_mismatch, (int64_t)ss->uuid_mismatch);
		if (ss->ts_overflow)
			tt_storage_stat_add(c.st, TT_STAT_ctf_invalid_timestamp, (int64_t)ss->ts_overflow);
		tt_ctf_note_problem(&c, c.srcs[i].problem);
	}
	if (c.nproblems > 1) {
		/* the warning line names the first; info lists them all */
		char buf[sizeof(c.first_problem) + 64];

		snprintf(buf, sizeof(buf), "%s (and %d more problems: termtrace info lists them)",
			 c.first_problem, c.nproblems - 1);
		tt_storage_meta_str(c.st, "import_warning", buf);
	}
	if (tt_storage_oom(c.st))
		rc = tt_err_set(im->err, TT_ENOMEM, "%s: out of memory", dir);
out:
	for (i = 0; i < c.nsrcs; i++) {
		/* the decoder keeps the mapped file: a stream deleted or
		 * moved after the import still decodes */
		if (c.lz && c.srcs[i].lazy && !c.lz->srcs[i].s) {
			tt_ctf_stream_skip_values(c.srcs[i].s, NULL);
			tt_ctf_stream_drop_pages(c.srcs[i].s);
			c.lz->srcs[i].s = c.srcs[i].s;
		} else {
			tt_ctf_stream_close(c.srcs[i].s);
		}
		free((char *)c.srcs[i].file);
	}
	for (i = 0; i < c.ntraces; i++) {
		if (!c.lz)
			tt_ctf_meta_free(c.traces[i].m);
		free(c.traces[i].name);
		free(c.traces[i].base);
		free(c.traces[i].cat);
		free(c.traces[i].kind);
		free(c.traces[i].shape);
		free(c.traces[i].nkeys);
		free(c.traces[i].skip);
	}
	for (i = 0; i < c.ntp; i++) /* an import that stopped early */
		free(c.tp[i].b);
	free(c.tp);
	free_list(c.dirs, c.ndirs);
	free(c.traces);
	free(c.srcs);
	free(c.cpus);
	free(c.runs);
	tt_ctf_di_free(c.di);
	return rc;
}
