/*
 * metrics.c - the metric runner (see metrics.h and docs/metrics.md).
 *
 * Owns: the search path, the `include 'file.sql';` directive, running a
 * metric once per trace (the SQL table _tt_metric_done remembers what ran),
 * the generic SQL-rows-to-protobuf converter that walks a
 * ProtobufCMessageDescriptor, and the text / JSON / binary writers.
 *
 * How it fits: the SQL runs on the trace's SQLite connection
 * (tt_trace_db), so metric views see the core tables and stay visible to
 * later queries; annotations go through tt_annotate_sql (core/annotate.c).
 * Nested JSON values are walked with SQLite's json_each, so there is no
 * JSON parser here.
 *
 * Limits: oneof members are set but not checked for exclusivity; groups
 * and maps (proto2 groups, map<>) are not supported; repeated message
 * fields read from sub-views do not themselves read sub-sub-views (use
 * JSON columns below the first level); text format strings are escaped as
 * C octal for bytes outside printable ASCII.
 */
#include "metrics.h"
#include "metrics.pb-c.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifndef TT_SRCDIR
#define TT_SRCDIR "."
#endif
#ifndef TT_DATADIR
#define TT_DATADIR "/usr/local/share/termtrace"
#endif

#define MAX_INCLUDE_DEPTH 16
#define MAX_DIRS 32

/* ---- search path ---------------------------------------------------------- */

struct dirs {
	char *v[MAX_DIRS];
	int n;
	char *buf; /* owns TT_METRICS_PATH's copy */
};

static void dirs_add(struct dirs *d, char *s)
{
	if (s && *s && d->n < MAX_DIRS)
		d->v[d->n++] = s;
	else
		free(s);
}

static char *path_join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *p = malloc(la + lb + 2);

	if (p) {
		memcpy(p, a, la);
		p[la] = '/';
		memcpy(p + la + 1, b, lb + 1);
	}
	return p;
}

static void dirs_init(struct dirs *d)
{
	const char *env = getenv("TT_METRICS_PATH");
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	memset(d, 0, sizeof(*d));
	if (env && *env && (d->buf = strdup(env))) {
		char *save = NULL;

		for (char *t = strtok_r(d->buf, ":", &save); t; t = strtok_r(NULL, ":", &save))
			dirs_add(d, strdup(t));
	}
	if (xdg && *xdg)
		dirs_add(d, path_join(xdg, "termtrace/metrics"));
	else if (home && *home)
		dirs_add(d, path_join(home, ".config/termtrace/metrics"));
	dirs_add(d, strdup(TT_SRCDIR "/metrics"));
	dirs_add(d, strdup(TT_DATADIR "/metrics"));
}

static void dirs_free(struct dirs *d)
{
	for (int i = 0; i < d->n; i++)
		free(d->v[i]);
	free(d->buf);
}

static int valid_name(const char *s, size_t len)
{
	if (!len || len > 100)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (!(islower((unsigned char)s[i]) || isdigit((unsigned char)s[i]) || s[i] == '_'))
			return 0;
	return 1;
}

static int file_exists(const char *p)
{
	FILE *f = fopen(p, "r");

	if (f)
		fclose(f);
	return f != NULL;
}

char *tt_metrics_find(const char *name)
{
	struct dirs d;
	char file[128], *found = NULL;
	size_t len = strlen(name);

	if (len > 4 && strcmp(name + len - 4, ".sql") == 0)
		len -= 4;
	if (!valid_name(name, len))
		return NULL;
	snprintf(file, sizeof(file), "%.*s.sql", (int)len, name);
	dirs_init(&d);
	for (int i = 0; i < d.n && !found; i++) {
		char *p = path_join(d.v[i], file);

		if (p && file_exists(p))
			found = p;
		else
			free(p);
	}
	dirs_free(&d);
	return found;
}


/* The first `--` comment line of a file, trimmed: its one-line summary. */
static char *summary_of(const char *path)
{
	char *text = tt_text_load(path, 0, NULL), *out = NULL;

	if (!text)
		return strdup("");
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		char *p = line;

		if (nl)
			*nl = '\0';
		while (isspace((unsigned char)*p))
			p++;
		if (p[0] == '-' && p[1] == '-') {
			p += 2;
			while (*p == ' ' || *p == '-')
				p++;
			if (*p) {
				size_t l = strlen(p);

				while (l && isspace((unsigned char)p[l - 1]))
					p[--l] = '\0';
				out = strdup(p);
				break;
			}
		} else if (*p) {
			break;
		}
		line = nl ? nl + 1 : NULL;
	}
	free(text);
	return out ? out : strdup("");
}

const ProtobufCMessageDescriptor *tt_metrics_root_descriptor(void)
{
	return &termtrace__trace_metrics__descriptor;
}

static int cmp_info(const void *a, const void *b)
{
	return strcmp(((const tt_metric_info *)a)->name, ((const tt_metric_info *)b)->name);
}

int tt_metrics_list(tt_metric_info **out, size_t *n, tt_err *err)
{
	struct dirs d;
	tt_metric_info *v = NULL;
	size_t nv = 0, cap = 0;
	int rc = TT_OK;

	tt_err_clear(err);
	*out = NULL;
	*n = 0;
	dirs_init(&d);
	for (int i = 0; i < d.n; i++) {
		DIR *dir = opendir(d.v[i]);
		struct dirent *e;

		if (!dir)
			continue;
		while ((e = readdir(dir))) {
			size_t len = strlen(e->d_name);
			int dup = 0;

			if (len < 5 || strcmp(e->d_name + len - 4, ".sql") != 0 ||
			    !valid_name(e->d_name, len - 4) || strncmp(e->d_name, "lib_", 4) == 0)
				continue;
			for (size_t k = 0; k < nv && !dup; k++)
				dup = strlen(v[k].name) == len - 4 && !strncmp(v[k].name, e->d_name, len - 4);
			if (dup) /* an earlier folder wins */
				continue;
			if (nv == cap) {
				size_t nc = cap ? cap * 2 : 16;
				tt_metric_info *nvv = realloc(v, nc * sizeof(*nvv));

				if (!nvv) {
					rc = tt_err_set(err, TT_ENOMEM, "out of memory listing metrics");
					break;
				}
				v = nvv;
				cap = nc;
			}
			v[nv].name = strndup(e->d_name, len - 4);
			v[nv].path = path_join(d.v[i], e->d_name);
			v[nv].summary = v[nv].path ? summary_of(v[nv].path) : NULL;
			v[nv].has_field = v[nv].name &&
				protobuf_c_message_descriptor_get_field_by_name(
					tt_metrics_root_descriptor(), v[nv].name) != NULL;
			nv++;
			if (!v[nv - 1].name || !v[nv - 1].path || !v[nv - 1].summary) {
				rc = tt_err_set(err, TT_ENOMEM, "out of memory listing metrics");
				break;
			}
		}
		closedir(dir);
		if (rc)
			break;
	}
	dirs_free(&d);
	if (rc) {
		tt_metrics_list_free(v, nv);
		return rc;
	}
	if (nv)
		qsort(v, nv, sizeof(*v), cmp_info);
	*out = v;
	*n = nv;
	return TT_OK;
}

void tt_metrics_list_free(tt_metric_info *list, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(list[i].name);
		free(list[i].path);
		free(list[i].summary);
	}
	free(list);
}

/* ---- running SQL ---------------------------------------------------------- */

static int exec_sql(sqlite3 *db, const char *sql, const char *what, tt_err *err)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		tt_err_set(err, TT_EINVAL, "%s: %s", what, msg ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		return TT_EINVAL;
	}
	return TT_OK;
}

static int relation_exists(sqlite3 *db, const char *name)
{
	sqlite3_stmt *q = NULL;
	int found = 0;

	if (sqlite3_prepare_v2(db,
			       "select 1 from sqlite_master where name = ?1 and type in ('table', 'view')"
			       " union all select 1 from sqlite_temp_master where name = ?1"
			       " and type in ('table', 'view')",
			       -1, &q, NULL) == SQLITE_OK) {
		sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
		found = sqlite3_step(q) == SQLITE_ROW;
	}
	sqlite3_finalize(q);
	return found;
}

/* 1 when key (a metric name or "include:<file>") already ran on this db. */
static int done_get(sqlite3 *db, const char *key)
{
	sqlite3_stmt *q = NULL;
	int found = 0;

	if (sqlite3_prepare_v2(db, "select 1 from _tt_metric_done where name = ?", -1, &q, NULL) ==
	    SQLITE_OK) {
		sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
		found = sqlite3_step(q) == SQLITE_ROW;
	}
	sqlite3_finalize(q);
	return found;
}

static int done_set(sqlite3 *db, const char *key, tt_err *err)
{
	sqlite3_stmt *q = NULL;
	int ok;

	ok = sqlite3_prepare_v2(db, "insert or ignore into _tt_metric_done(name) values (?)", -1, &q,
				NULL) == SQLITE_OK;
	if (ok) {
		sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
		ok = sqlite3_step(q) == SQLITE_DONE;
	}
	sqlite3_finalize(q);
	if (!ok)
		return tt_err_set(err, TT_EINVAL, "cannot record metric %s: %s", key, sqlite3_errmsg(db));
	return TT_OK;
}

/* Recognises a line `include 'file.sql';` (alone on its line, any case). */
static int parse_include(const char *line, size_t len, char *file, size_t cap)
{
	const char *p = line, *end = line + len, *q;

	while (p < end && isspace((unsigned char)*p))
		p++;
	if (end - p < 8 || strncasecmp(p, "include", 7) != 0 || !isspace((unsigned char)p[7]))
		return 0;
	p += 7;
	while (p < end && isspace((unsigned char)*p))
		p++;
	if (p >= end || *p != '\'')
		return 0;
	q = memchr(p + 1, '\'', (size_t)(end - p - 1));
	if (!q || (size_t)(q - p - 1) >= cap)
		return 0;
	memcpy(file, p + 1, (size_t)(q - p - 1));
	file[q - p - 1] = '\0';
	p = q + 1;
	while (p < end && isspace((unsigned char)*p))
		p++;
	if (p >= end || *p != ';')
		return 0;
	p++;
	while (p < end && isspace((unsigned char)*p))
		p++;
	return p == end;
}

/* Runs the statements of sql one by one so that an error names the line
 * where the failing statement starts (line = the line of sql's start). */
static int exec_chunk(sqlite3 *db, const char *metric, const char *path, const char *sql,
		      unsigned line, tt_err *err)
{
	const char *p = sql;

	while (*p) {
		sqlite3_stmt *q = NULL;
		const char *tail = NULL, *start = p;
		int s;

		/* the statement's first line: skip blanks and comments */
		while (*start) {
			if (isspace((unsigned char)*start)) {
				start++;
			} else if (start[0] == '-' && start[1] == '-') {
				while (*start && *start != '\n')
					start++;
			} else {
				break;
			}
		}
		for (const char *c = p; c < start; c++)
			line += *c == '\n';
		s = sqlite3_prepare_v2(db, p, -1, &q, &tail);
		if (s == SQLITE_OK && q) {
			while ((s = sqlite3_step(q)) == SQLITE_ROW)
				;
			if (s == SQLITE_DONE)
				s = SQLITE_OK;
		}
		if (s != SQLITE_OK) {
			tt_err_set(err, TT_EINVAL, "metric %s: %s:%u: %s", metric, path, line,
				   sqlite3_errmsg(db));
			sqlite3_finalize(q);
			return TT_EINVAL;
		}
		sqlite3_finalize(q);
		if (!tail || tail == p)
			break;
		for (const char *c = start; c < tail; c++)
			line += *c == '\n';
		p = tail;
	}
	return TT_OK;
}

static int run_file(sqlite3 *db, const char *metric, const char *path, int depth, tt_err *err);

/* Runs an included file once per trace. */
static int run_include(sqlite3 *db, const char *metric, const char *from, unsigned line,
		       const char *file, int depth, tt_err *err)
{
	char key[160], *path;
	size_t len = strlen(file);
	int rc;

	/* "x" and "x.sql" name the same file: one key. */
	if (len > 4 && strcmp(file + len - 4, ".sql") == 0)
		len -= 4;
	snprintf(key, sizeof(key), "include:%.*s", (int)len, file);
	if (done_get(db, key))
		return TT_OK;
	if (depth >= MAX_INCLUDE_DEPTH)
		return tt_err_set(err, TT_EINVAL, "metric %s: %s:%u: includes nested too deep", metric,
				  from, line);
	path = tt_metrics_find(file);
	if (!path)
		return tt_err_set(err, TT_EINVAL, "metric %s: %s:%u: include '%s' not found", metric,
				  from, line, file);
	/* Marked first so that an include cycle stops instead of looping. */
	rc = done_set(db, key, err);
	if (!rc)
		rc = run_file(db, metric, path, depth + 1, err);
	free(path);
	return rc;
}

/* Runs a SQL file: the text between include lines is executed as is. */
static int run_file(sqlite3 *db, const char *metric, const char *path, int depth, tt_err *err)
{
	char *text = tt_text_load(path, 0, NULL), *chunk;
	unsigned lineno = 1, chunk_line = 1;
	int rc = TT_OK;

	if (!text)
		return tt_err_set(err, TT_EIO, "metric %s: %s: %s", metric, path, strerror(errno));
	chunk = text;
	for (char *line = text; *line;) {
		char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char file[128];

		if (parse_include(line, len, file, sizeof(file))) {
			char save = *line;

			*line = '\0';
			rc = exec_chunk(db, metric, path, chunk, chunk_line, err);
			*line = save;
			if (!rc)
				rc = run_include(db, metric, path, lineno, file, depth, err);
			if (rc)
				break;
			chunk = nl ? nl + 1 : line + len;
			chunk_line = lineno + 1;
		}
		lineno++;
		line = nl ? nl + 1 : line + len;
	}
	if (!rc)
		rc = exec_chunk(db, metric, path, chunk, chunk_line, err);
	free(text);
	return rc;
}

static int run_one(tt_trace *tr, const char *name, tt_err *err)
{
	sqlite3 *db = tt_trace_db(tr);
	char *path, rel[160];
	int rc;

	if (done_get(db, name))
		return TT_OK;
	path = tt_metrics_find(name);
	if (!path)
		return tt_err_set(err, TT_EINVAL,
				  "unknown metric '%s' (no %s.sql in $TT_METRICS_PATH, the config folder,"
				  " or the installed metrics; see termtrace metrics --list)", name, name);
	rc = exec_sql(db, "savepoint tt_metric", "metric", err);
	if (rc)
		goto out;
	rc = run_file(db, name, path, 0, err);
	snprintf(rel, sizeof(rel), "%s_annotations", name);
	if (!rc && relation_exists(db, rel))
		rc = tt_annotate_sql(tr, name, rel, err);
	if (!rc)
		rc = done_set(db, name, err);
	if (rc)
		sqlite3_exec(db, "rollback to tt_metric", NULL, NULL, NULL);
	sqlite3_exec(db, "release tt_metric", NULL, NULL, NULL);
out:
	free(path);
	return rc;
}

/* Calls fn for each name of a comma list; stops at the first error. */
static int each_name(const char *names, int (*fn)(void *, const char *, tt_err *), void *ctx,
		     tt_err *err)
{
	const char *p = names;

	if (!names)
		return TT_OK;
	while (*p) {
		const char *s, *e;
		char name[128];
		int rc;

		while (*p == ' ' || *p == ',')
			p++;
		s = p;
		while (*p && *p != ',')
			p++;
		e = p;
		while (e > s && e[-1] == ' ')
			e--;
		if (e == s)
			continue;
		if (!valid_name(s, (size_t)(e - s)))
			return tt_err_set(err, TT_EINVAL,
					  "bad metric name '%.*s' (lower-case letters, digits and _)",
					  (int)(e - s > 60 ? 60 : e - s), s);
		snprintf(name, sizeof(name), "%.*s", (int)(e - s), s);
		if ((rc = fn(ctx, name, err)))
			return rc;
	}
	return TT_OK;
}

static int run_cb(void *ctx, const char *name, tt_err *err)
{
	return run_one(ctx, name, err);
}

int tt_metrics_run_names(tt_trace *tr, const char *names, tt_err *err)
{
	int rc;

	tt_err_clear(err);
	rc = exec_sql(tt_trace_db(tr),
		      "create table if not exists _tt_metric_done(name text primary key)",
		      "metrics", err);
	/* `alert` exists (maybe empty) once metrics ran, whatever they hold */
	if (!rc)
		rc = tt_annotate_alert_table(tr, err);
	if (rc)
		return rc;
	return each_name(names, run_cb, tr, err);
}

/* ---- rows to protobuf ------------------------------------------------------ */

struct fill {
	sqlite3 *db;
	const char *metric; /* for messages */
	const char *where;  /* relation being read */
	tt_err *err;
};

static int fill_relation(struct fill *f, const char *relation, const ProtobufCMessageDescriptor *desc,
			 ProtobufCMessage *msg);
static int fill_json_object(struct fill *f, const char *json, const ProtobufCMessageDescriptor *desc,
			    ProtobufCMessage *msg, const char *path);

static size_t elem_size(const ProtobufCFieldDescriptor *fd)
{
	switch (fd->type) {
	case PROTOBUF_C_TYPE_INT32: case PROTOBUF_C_TYPE_SINT32: case PROTOBUF_C_TYPE_SFIXED32:
	case PROTOBUF_C_TYPE_UINT32: case PROTOBUF_C_TYPE_FIXED32:
		return 4;
	case PROTOBUF_C_TYPE_INT64: case PROTOBUF_C_TYPE_SINT64: case PROTOBUF_C_TYPE_SFIXED64:
	case PROTOBUF_C_TYPE_UINT64: case PROTOBUF_C_TYPE_FIXED64:
		return 8;
	case PROTOBUF_C_TYPE_FLOAT: return sizeof(float);
	case PROTOBUF_C_TYPE_DOUBLE: return sizeof(double);
	case PROTOBUF_C_TYPE_BOOL: return sizeof(protobuf_c_boolean);
	case PROTOBUF_C_TYPE_ENUM: return sizeof(int);
	case PROTOBUF_C_TYPE_STRING: return sizeof(char *);
	case PROTOBUF_C_TYPE_BYTES: return sizeof(ProtobufCBinaryData);
	case PROTOBUF_C_TYPE_MESSAGE: return sizeof(ProtobufCMessage *);
	}
	return 0;
}

static int ferr(struct fill *f, const char *path, const char *what)
{
	return tt_err_set(f->err, TT_EINVAL, "metric %s: %s: field %s %s", f->metric, f->where,
			  path, what);
}

static ProtobufCMessage *new_message(const ProtobufCMessageDescriptor *d)
{
	ProtobufCMessage *m = malloc(d->sizeof_message);

	if (m)
		d->message_init(m);
	return m;
}

/* Stores value v into *slot (an element of type fd->type). The slot must
 * be empty (zeroed) or hold a value this function can free. */
static int store(struct fill *f, const ProtobufCFieldDescriptor *fd, void *slot, sqlite3_value *v,
		 const char *path)
{
	int t = sqlite3_value_type(v);
	int64_t i = 0;
	double d = 0;

	if (fd->type != PROTOBUF_C_TYPE_STRING && fd->type != PROTOBUF_C_TYPE_BYTES &&
	    fd->type != PROTOBUF_C_TYPE_MESSAGE && fd->type != PROTOBUF_C_TYPE_ENUM) {
		if (t == SQLITE_INTEGER) {
			i = sqlite3_value_int64(v);
			d = (double)i;
		} else if (t == SQLITE_FLOAT) {
			d = sqlite3_value_double(v);
			i = (d != d || d < -9.2e18 || d > 9.2e18) ? 0 : (int64_t)d;
			if (fd->type != PROTOBUF_C_TYPE_DOUBLE && fd->type != PROTOBUF_C_TYPE_FLOAT &&
			    (double)i != d)
				return ferr(f, path, "is an integer field but got a fraction");
		} else {
			return ferr(f, path, "is numeric but got text or a blob");
		}
	}
	switch (fd->type) {
	case PROTOBUF_C_TYPE_INT32: case PROTOBUF_C_TYPE_SINT32: case PROTOBUF_C_TYPE_SFIXED32:
		if (i < INT32_MIN || i > INT32_MAX)
			return ferr(f, path, "value out of int32 range");
		*(int32_t *)slot = (int32_t)i;
		break;
	case PROTOBUF_C_TYPE_UINT32: case PROTOBUF_C_TYPE_FIXED32:
		if (i < 0 || i > (int64_t)UINT32_MAX)
			return ferr(f, path, "value out of uint32 range");
		*(uint32_t *)slot = (uint32_t)i;
		break;
	case PROTOBUF_C_TYPE_INT64: case PROTOBUF_C_TYPE_SINT64: case PROTOBUF_C_TYPE_SFIXED64:
		*(int64_t *)slot = i;
		break;
	case PROTOBUF_C_TYPE_UINT64: case PROTOBUF_C_TYPE_FIXED64:
		if (i < 0)
			return ferr(f, path, "value is negative for an unsigned field");
		*(uint64_t *)slot = (uint64_t)i;
		break;
	case PROTOBUF_C_TYPE_FLOAT: *(float *)slot = (float)d; break;
	case PROTOBUF_C_TYPE_DOUBLE: *(double *)slot = d; break;
	case PROTOBUF_C_TYPE_BOOL: *(protobuf_c_boolean *)slot = i != 0; break;
	case PROTOBUF_C_TYPE_ENUM: {
		const ProtobufCEnumDescriptor *ed = fd->descriptor;

		if (t == SQLITE_INTEGER) {
			int64_t e = sqlite3_value_int64(v);

			if (e < INT32_MIN || e > INT32_MAX ||
			    !protobuf_c_enum_descriptor_get_value(ed, (int)e))
				return ferr(f, path, "enum value is not defined");
			*(int *)slot = (int)e;
		} else if (t == SQLITE_TEXT) {
			const ProtobufCEnumValue *ev =
				protobuf_c_enum_descriptor_get_value_by_name(ed, (const char *)sqlite3_value_text(v));

			if (!ev)
				return ferr(f, path, "enum name is not defined");
			*(int *)slot = ev->value;
		} else {
			return ferr(f, path, "is an enum but got a real or a blob");
		}
		break;
	}
	case PROTOBUF_C_TYPE_STRING: {
		const char *s = (const char *)sqlite3_value_text(v);
		char *c = strdup(s ? s : "");

		if (!c)
			return tt_err_set(f->err, TT_ENOMEM, "metric %s: out of memory", f->metric);
		*(char **)slot = c;
		break;
	}
	case PROTOBUF_C_TYPE_BYTES: {
		ProtobufCBinaryData *b = slot;
		const void *p = t == SQLITE_BLOB ? sqlite3_value_blob(v) : sqlite3_value_text(v);
		size_t n = (size_t)sqlite3_value_bytes(v);

		b->data = malloc(n ? n : 1);
		if (!b->data)
			return tt_err_set(f->err, TT_ENOMEM, "metric %s: out of memory", f->metric);
		if (n)
			memcpy(b->data, p, n);
		b->len = n;
		break;
	}
	case PROTOBUF_C_TYPE_MESSAGE: {
		const ProtobufCMessageDescriptor *md = fd->descriptor;
		ProtobufCMessage *m;
		int rc;

		if (t != SQLITE_TEXT)
			return ferr(f, path, "is a message: the column must hold a JSON object");
		if (!(m = new_message(md)))
			return tt_err_set(f->err, TT_ENOMEM, "metric %s: out of memory", f->metric);
		rc = fill_json_object(f, (const char *)sqlite3_value_text(v), md, m, path);
		if (rc) {
			protobuf_c_message_free_unpacked(m, NULL);
			return rc;
		}
		*(ProtobufCMessage **)slot = m;
		break;
	}
	}
	return TT_OK;
}

/* Appends one element to a repeated field. */
static int append_elem(struct fill *f, ProtobufCMessage *msg, const ProtobufCFieldDescriptor *fd,
		       sqlite3_value *v, const char *path)
{
	size_t *n = (size_t *)((char *)msg + fd->quantifier_offset);
	void **arr = (void **)((char *)msg + fd->offset);
	size_t es = elem_size(fd);
	char *na, *slot;
	int rc;

	if (sqlite3_value_type(v) == SQLITE_NULL)
		return ferr(f, path, "has a NULL element");
	na = realloc(*arr, (*n + 1) * es);
	if (!na)
		return tt_err_set(f->err, TT_ENOMEM, "metric %s: out of memory", f->metric);
	*arr = na;
	slot = na + *n * es;
	memset(slot, 0, es);
	rc = store(f, fd, slot, v, path);
	if (!rc)
		(*n)++;
	return rc;
}

/* Frees what a singular field holds before it is set again. */
static void clear_singular(ProtobufCMessage *msg, const ProtobufCFieldDescriptor *fd)
{
	void *slot = (char *)msg + fd->offset;

	if (fd->type == PROTOBUF_C_TYPE_STRING) {
		char *s = *(char **)slot;

		if (s && s != (const char *)fd->default_value && s != protobuf_c_empty_string)
			free(s);
		*(char **)slot = NULL;
	} else if (fd->type == PROTOBUF_C_TYPE_MESSAGE) {
		if (*(ProtobufCMessage **)slot)
			protobuf_c_message_free_unpacked(*(ProtobufCMessage **)slot, NULL);
		*(ProtobufCMessage **)slot = NULL;
	} else if (fd->type == PROTOBUF_C_TYPE_BYTES) {
		ProtobufCBinaryData *b = slot;

		if (b->data && (!fd->default_value ||
				b->data != ((const ProtobufCBinaryData *)fd->default_value)->data))
			free(b->data);
		b->data = NULL;
		b->len = 0;
	}
}

/* Sets field fd of msg from an SQL value: NULL leaves it unset; a repeated
 * field takes a JSON array (or one scalar as a one-element list). */
static int set_field(struct fill *f, ProtobufCMessage *msg, const ProtobufCFieldDescriptor *fd,
		     sqlite3_value *v, const char *path)
{
	int t = sqlite3_value_type(v), rc = TT_OK;

	if (t == SQLITE_NULL)
		return TT_OK;
	if (fd->label == PROTOBUF_C_LABEL_REPEATED) {
		sqlite3_stmt *q = NULL;
		const char *txt;

		txt = t == SQLITE_TEXT ? (const char *)sqlite3_value_text(v) : NULL;
		if (!txt || !(txt[strspn(txt, " \t\r\n")] == '['))
			return append_elem(f, msg, fd, v, path);
		if (sqlite3_prepare_v2(f->db, "select value from json_each(?)", -1, &q, NULL) != SQLITE_OK)
			return tt_err_set(f->err, TT_EINVAL, "metric %s: %s", f->metric, sqlite3_errmsg(f->db));
		sqlite3_bind_text(q, 1, txt, -1, SQLITE_TRANSIENT);
		while (!rc && (t = sqlite3_step(q)) == SQLITE_ROW)
			rc = append_elem(f, msg, fd, sqlite3_column_value(q, 0), path);
		if (!rc && t != SQLITE_DONE)
			rc = ferr(f, path, "holds text that is not a JSON array");
		sqlite3_finalize(q);
		return rc;
	}
	clear_singular(msg, fd);
	rc = store(f, fd, (char *)msg + fd->offset, v, path);
	if (rc)
		return rc;
	if (fd->flags & PROTOBUF_C_FIELD_FLAG_ONEOF)
		*(uint32_t *)((char *)msg + fd->quantifier_offset) = fd->id;
	else if (fd->label == PROTOBUF_C_LABEL_OPTIONAL && fd->type != PROTOBUF_C_TYPE_STRING &&
		 fd->type != PROTOBUF_C_TYPE_MESSAGE && fd->quantifier_offset)
		*(protobuf_c_boolean *)((char *)msg + fd->quantifier_offset) = 1;
	return TT_OK;
}

static int fill_json_object(struct fill *f, const char *json, const ProtobufCMessageDescriptor *desc,
			    ProtobufCMessage *msg, const char *path)
{
	sqlite3_stmt *q = NULL;
	int rc = TT_OK, s;

	if (sqlite3_prepare_v2(f->db,
			       "select key, value, json_type(?1) from json_each(?1)", -1, &q, NULL) != SQLITE_OK)
		return tt_err_set(f->err, TT_EINVAL, "metric %s: %s", f->metric, sqlite3_errmsg(f->db));
	sqlite3_bind_text(q, 1, json, -1, SQLITE_TRANSIENT);
	while (!rc && (s = sqlite3_step(q)) == SQLITE_ROW) {
		const char *key = (const char *)sqlite3_column_text(q, 0);
		const char *type = (const char *)sqlite3_column_text(q, 2);
		const ProtobufCFieldDescriptor *fd;
		char sub[256];

		if (!type || strcmp(type, "object") != 0) {
			rc = ferr(f, path, "is a message: the value must be a JSON object");
			break;
		}
		fd = key ? protobuf_c_message_descriptor_get_field_by_name(desc, key) : NULL;
		snprintf(sub, sizeof(sub), "%s.%s", path, key ? key : "?");
		if (!fd) {
			rc = tt_err_set(f->err, TT_EINVAL, "metric %s: %s: %s is not a field of %s",
					f->metric, f->where, sub, desc->name);
			break;
		}
		rc = set_field(f, msg, fd, sqlite3_column_value(q, 1), sub);
	}
	if (!rc && s != SQLITE_DONE)
		rc = ferr(f, path, "is a message: the value must be a JSON object");
	sqlite3_finalize(q);
	return rc;
}

/* Fills msg from one row of q (columns = fields). */
static int fill_row(struct fill *f, sqlite3_stmt *q, const ProtobufCMessageDescriptor *desc,
		    ProtobufCMessage *msg, unsigned char *given)
{
	int n = sqlite3_column_count(q);

	for (int i = 0; i < n; i++) {
		const char *name = sqlite3_column_name(q, i);
		const ProtobufCFieldDescriptor *fd = protobuf_c_message_descriptor_get_field_by_name(desc, name);
		int rc;

		if (!fd)
			return tt_err_set(f->err, TT_EINVAL, "metric %s: %s: column %s is not a field of %s",
					  f->metric, f->where, name, desc->name);
		if (given && sqlite3_column_type(q, i) != SQLITE_NULL)
			given[fd - desc->fields] = 1;
		if ((rc = set_field(f, msg, fd, sqlite3_column_value(q, i), name)))
			return rc;
	}
	return TT_OK;
}

/* Message and repeated fields without a column (or whose column is NULL)
 * come from the sub-views <relation>_<field>, when they exist. */
static int fill_subviews(struct fill *f, const char *relation, const ProtobufCMessageDescriptor *desc,
			 ProtobufCMessage *msg, const unsigned char *given)
{
	for (unsigned k = 0; k < desc->n_fields; k++) {
		const ProtobufCFieldDescriptor *fd = &desc->fields[k];
		char sub[256];
		int rc;

		if (given[k] || (fd->label != PROTOBUF_C_LABEL_REPEATED && fd->type != PROTOBUF_C_TYPE_MESSAGE))
			continue;
		snprintf(sub, sizeof(sub), "%s_%s", relation, fd->name);
		if (!relation_exists(f->db, sub))
			continue;
		if (fd->label == PROTOBUF_C_LABEL_REPEATED) {
			sqlite3_stmt *q = NULL;
			char *sql = sqlite3_mprintf("select * from \"%w\"", sub);
			const char *saved = f->where;
			int s;

			if (!sql)
				return tt_err_set(f->err, TT_ENOMEM, "metric %s: out of memory", f->metric);
			rc = sqlite3_prepare_v2(f->db, sql, -1, &q, NULL);
			sqlite3_free(sql);
			if (rc != SQLITE_OK) {
				sqlite3_finalize(q);
				return tt_err_set(f->err, TT_EINVAL, "metric %s: %s: %s", f->metric, sub,
						  sqlite3_errmsg(f->db));
			}
			f->where = sub;
			rc = TT_OK;
			while (!rc && (s = sqlite3_step(q)) == SQLITE_ROW) {
				if (fd->type == PROTOBUF_C_TYPE_MESSAGE) {
					const ProtobufCMessageDescriptor *md = fd->descriptor;
					ProtobufCMessage *m = new_message(md);
					size_t *n = (size_t *)((char *)msg + fd->quantifier_offset);
					ProtobufCMessage ***arr = (ProtobufCMessage ***)((char *)msg + fd->offset);
					ProtobufCMessage **na;

					if (!m || !(na = realloc(*arr, (*n + 1) * sizeof(*na)))) {
						free(m);
						rc = tt_err_set(f->err, TT_ENOMEM, "metric %s: out of memory", f->metric);
						break;
					}
					*arr = na;
					na[(*n)++] = m;
					rc = fill_row(f, q, md, m, NULL);
				} else if (sqlite3_column_count(q) != 1) {
					rc = tt_err_set(f->err, TT_EINVAL,
							"metric %s: %s: a repeated scalar view must have one column",
							f->metric, sub);
				} else {
					rc = append_elem(f, msg, fd, sqlite3_column_value(q, 0), fd->name);
				}
			}
			if (!rc && s != SQLITE_DONE)
				rc = tt_err_set(f->err, TT_EINVAL, "metric %s: %s: %s", f->metric, sub,
						sqlite3_errmsg(f->db));
			sqlite3_finalize(q);
			f->where = saved;
			if (rc)
				return rc;
		} else {
			const ProtobufCMessageDescriptor *md = fd->descriptor;
			ProtobufCMessage *m = new_message(md);
			const char *saved = f->where;

			if (!m)
				return tt_err_set(f->err, TT_ENOMEM, "metric %s: out of memory", f->metric);
			clear_singular(msg, fd);
			*(ProtobufCMessage **)((char *)msg + fd->offset) = m;
			f->where = sub;
			rc = fill_relation(f, sub, md, m);
			f->where = saved;
			if (rc)
				return rc;
		}
	}
	return TT_OK;
}

/* Fills msg from the single row of relation (none = empty message). */
static int fill_relation(struct fill *f, const char *relation, const ProtobufCMessageDescriptor *desc,
			 ProtobufCMessage *msg)
{
	sqlite3_stmt *q = NULL;
	char *sql = sqlite3_mprintf("select * from \"%w\"", relation);
	unsigned char *given = calloc(desc->n_fields + 1, 1);
	size_t rows = 0;
	int rc = TT_OK, s;

	if (!sql || !given) {
		rc = tt_err_set(f->err, TT_ENOMEM, "metric %s: out of memory", f->metric);
		goto done;
	}
	if (sqlite3_prepare_v2(f->db, sql, -1, &q, NULL) != SQLITE_OK) {
		rc = tt_err_set(f->err, TT_EINVAL, "metric %s: %s: %s", f->metric, relation,
				sqlite3_errmsg(f->db));
		goto done;
	}
	while ((s = sqlite3_step(q)) == SQLITE_ROW) {
		if (++rows > 1) {
			rc = tt_err_set(f->err, TT_EINVAL,
					"metric %s: %s returned more than one row (repeated fields come"
					" from JSON arrays or from views %s_<field>)",
					f->metric, relation, relation);
			goto done;
		}
		if ((rc = fill_row(f, q, desc, msg, given)))
			goto done;
	}
	if (s != SQLITE_DONE) {
		rc = tt_err_set(f->err, TT_EINVAL, "metric %s: %s: %s", f->metric, relation,
				sqlite3_errmsg(f->db));
		goto done;
	}
	sqlite3_finalize(q);
	q = NULL;
	rc = fill_subviews(f, relation, desc, msg, given);
done:
	sqlite3_finalize(q);
	sqlite3_free(sql);
	free(given);
	return rc;
}

int tt_metrics_fill(tt_trace *tr, const char *relation, const ProtobufCMessageDescriptor *desc,
		    ProtobufCMessage **out, tt_err *err)
{
	struct fill f = { tt_trace_db(tr), relation, relation, err };
	ProtobufCMessage *m;
	int rc;

	tt_err_clear(err);
	*out = NULL;
	if (!relation_exists(f.db, relation))
		return tt_err_set(err, TT_EINVAL, "%s: no such table or view", relation);
	if (!(m = new_message(desc)))
		return tt_err_set(err, TT_ENOMEM, "out of memory");
	rc = fill_relation(&f, relation, desc, m);
	if (rc) {
		protobuf_c_message_free_unpacked(m, NULL);
		return rc;
	}
	*out = m;
	return TT_OK;
}

struct compute {
	tt_trace *tr;
	const ProtobufCMessageDescriptor *root;
	ProtobufCMessage *msg;
};

static int compute_cb(void *ctx, const char *name, tt_err *err)
{
	struct compute *c = ctx;
	const ProtobufCFieldDescriptor *fd = protobuf_c_message_descriptor_get_field_by_name(c->root, name);
	struct fill f = { tt_trace_db(c->tr), name, NULL, err };
	char rel[160];
	ProtobufCMessage *m;
	int rc;

	if (!fd || fd->type != PROTOBUF_C_TYPE_MESSAGE || fd->label == PROTOBUF_C_LABEL_REPEATED) {
		char *path = tt_metrics_find(name);

		if (!path)
			return run_one(c->tr, name, err); /* the "unknown metric" error */
		free(path);
		return tt_err_set(err, TT_EINVAL,
				  "metric %s has no message field in %s (add one to protos/metrics.proto);"
				  " it can still add annotations with --metrics", name, c->root->name);
	}
	rc = run_one(c->tr, name, err);
	if (rc)
		return rc;
	snprintf(rel, sizeof(rel), "%s_output", name);
	f.where = rel;
	if (!relation_exists(f.db, rel))
		return tt_err_set(err, TT_EINVAL, "metric %s: its SQL did not create the view %s", name, rel);
	if (!(m = new_message(fd->descriptor)))
		return tt_err_set(err, TT_ENOMEM, "out of memory");
	rc = fill_relation(&f, rel, fd->descriptor, m);
	if (rc) {
		protobuf_c_message_free_unpacked(m, NULL);
		return rc;
	}
	clear_singular(c->msg, fd);
	*(ProtobufCMessage **)((char *)c->msg + fd->offset) = m;
	return TT_OK;
}

int tt_metrics_compute(tt_trace *tr, const char *names, const ProtobufCMessageDescriptor *root,
		       ProtobufCMessage **out, tt_err *err)
{
	struct compute c = { tr, root ? root : tt_metrics_root_descriptor(), NULL };
	int rc;

	tt_err_clear(err);
	*out = NULL;
	rc = exec_sql(tt_trace_db(tr), "create table if not exists _tt_metric_done(name text primary key)",
		      "metrics", err);
	if (!rc)
		rc = tt_annotate_alert_table(tr, err);
	if (rc)
		return rc;
	if (!(c.msg = new_message(c.root)))
		return tt_err_set(err, TT_ENOMEM, "out of memory");
	rc = each_name(names, compute_cb, &c, err);
	if (rc) {
		protobuf_c_message_free_unpacked(c.msg, NULL);
		return rc;
	}
	*out = c.msg;
	return TT_OK;
}

/* ---- writers ------------------------------------------------------------------ */

int tt_metrics_format_parse(const char *s)
{
	if (strcmp(s, "text") == 0)
		return TT_METRICS_TEXT;
	if (strcmp(s, "binary") == 0)
		return TT_METRICS_BINARY;
	if (strcmp(s, "json") == 0)
		return TT_METRICS_JSON;
	return -1;
}

/* Whether a singular field holds a value (proto2 optional: has_ or
 * non-NULL pointer; required: always). */
static int field_present(const ProtobufCMessage *m, const ProtobufCFieldDescriptor *fd)
{
	const char *base = (const char *)m;
	const void *slot = base + fd->offset;

	if (fd->flags & PROTOBUF_C_FIELD_FLAG_ONEOF)
		return *(const uint32_t *)(base + fd->quantifier_offset) == fd->id;
	if (fd->type == PROTOBUF_C_TYPE_MESSAGE || fd->type == PROTOBUF_C_TYPE_STRING)
		return *(void *const *)slot != NULL &&
		       (fd->type != PROTOBUF_C_TYPE_STRING || fd->label != PROTOBUF_C_LABEL_NONE ||
			**(const char *const *)slot);
	if (fd->label == PROTOBUF_C_LABEL_OPTIONAL)
		return *(const protobuf_c_boolean *)(base + fd->quantifier_offset);
	if (fd->label == PROTOBUF_C_LABEL_REQUIRED)
		return 1;
	/* proto3 scalar: present when not zero */
	switch (fd->type) {
	case PROTOBUF_C_TYPE_BYTES: return ((const ProtobufCBinaryData *)slot)->len != 0;
	default: {
		static const char zero[16];

		return memcmp(slot, zero, elem_size(fd)) != 0;
	}
	}
}

/* Shortest "%.*g" that reads back as the same double. */
static void fmt_double(char *buf, size_t cap, double d)
{
	for (int p = 6; p <= 17; p++) {
		snprintf(buf, cap, "%.*g", p, d);
		if (strtod(buf, NULL) == d)
			return;
	}
}

static void put_escaped(FILE *out, const unsigned char *s, size_t n, int json)
{
	fputc('"', out);
	for (size_t i = 0; i < n; i++) {
		unsigned c = s[i];

		switch (c) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		default:
			if (c < 0x20 || (!json && c >= 0x7f))
				fprintf(out, json ? "\\u%04x" : "\\%03o", c);
			else
				fputc((int)c, out);
		}
	}
	fputc('"', out);
}

static void put_base64(FILE *out, const uint8_t *p, size_t n)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	fputc('"', out);
	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
			     (i + 2 < n ? p[i + 2] : 0);

		fputc(tab[v >> 18 & 63], out);
		fputc(tab[v >> 12 & 63], out);
		fputc(i + 1 < n ? tab[v >> 6 & 63] : '=', out);
		fputc(i + 2 < n ? tab[v & 63] : '=', out);
	}
	fputc('"', out);
}

static void indent(FILE *out, int depth)
{
	for (int i = 0; i < depth; i++)
		fputs("  ", out);
}

static void write_message(FILE *out, const ProtobufCMessage *m, int depth, int json);

/* One scalar or message value (an element of fd's type at slot). */
static void write_value(FILE *out, const ProtobufCFieldDescriptor *fd, const void *slot, int depth,
			int json)
{
	char buf[64];

	switch (fd->type) {
	case PROTOBUF_C_TYPE_INT32: case PROTOBUF_C_TYPE_SINT32: case PROTOBUF_C_TYPE_SFIXED32:
		fprintf(out, "%" PRId32, *(const int32_t *)slot);
		break;
	case PROTOBUF_C_TYPE_UINT32: case PROTOBUF_C_TYPE_FIXED32:
		fprintf(out, "%" PRIu32, *(const uint32_t *)slot);
		break;
	case PROTOBUF_C_TYPE_INT64: case PROTOBUF_C_TYPE_SINT64: case PROTOBUF_C_TYPE_SFIXED64:
		fprintf(out, "%" PRId64, *(const int64_t *)slot);
		break;
	case PROTOBUF_C_TYPE_UINT64: case PROTOBUF_C_TYPE_FIXED64:
		fprintf(out, "%" PRIu64, *(const uint64_t *)slot);
		break;
	case PROTOBUF_C_TYPE_FLOAT: case PROTOBUF_C_TYPE_DOUBLE: {
		double d = fd->type == PROTOBUF_C_TYPE_FLOAT ? (double)*(const float *)slot
							       : *(const double *)slot;

		if (isnan(d))
			fputs(json ? "\"NaN\"" : "nan", out);
		else if (isinf(d))
			fputs(json ? (d > 0 ? "\"Infinity\"" : "\"-Infinity\"") : (d > 0 ? "inf" : "-inf"), out);
		else {
			if (fd->type == PROTOBUF_C_TYPE_FLOAT)
				snprintf(buf, sizeof(buf), "%.9g", d);
			else
				fmt_double(buf, sizeof(buf), d);
			fputs(buf, out);
		}
		break;
	}
	case PROTOBUF_C_TYPE_BOOL:
		fputs(*(const protobuf_c_boolean *)slot ? "true" : "false", out);
		break;
	case PROTOBUF_C_TYPE_ENUM: {
		const ProtobufCEnumValue *ev =
			protobuf_c_enum_descriptor_get_value(fd->descriptor, *(const int *)slot);

		if (!ev)
			fprintf(out, "%d", *(const int *)slot);
		else if (json)
			fprintf(out, "\"%s\"", ev->name);
		else
			fputs(ev->name, out);
		break;
	}
	case PROTOBUF_C_TYPE_STRING: {
		const char *s = *(const char *const *)slot;

		put_escaped(out, (const unsigned char *)(s ? s : ""), s ? strlen(s) : 0, json);
		break;
	}
	case PROTOBUF_C_TYPE_BYTES: {
		const ProtobufCBinaryData *b = slot;

		if (json)
			put_base64(out, b->data, b->len);
		else
			put_escaped(out, b->data, b->len, 0);
		break;
	}
	case PROTOBUF_C_TYPE_MESSAGE:
		write_message(out, *(const ProtobufCMessage *const *)slot, depth, json);
		break;
	}
}

/* Text format: `name: value` / `name {` ... `}`, fields in number order.
 * JSON: an object with proto field names. depth = indent of the fields. */
static void write_message(FILE *out, const ProtobufCMessage *m, int depth, int json)
{
	const ProtobufCMessageDescriptor *d = m->descriptor;
	int first = 1;

	if (json)
		fputc('{', out);
	else if (depth > 0)
		fputs("{\n", out);
	for (unsigned k = 0; k < d->n_fields; k++) {
		const ProtobufCFieldDescriptor *fd = &d->fields[k];
		const char *slot = (const char *)m + fd->offset;
		int is_msg = fd->type == PROTOBUF_C_TYPE_MESSAGE;

		if (fd->label == PROTOBUF_C_LABEL_REPEATED) {
			size_t n = *(const size_t *)((const char *)m + fd->quantifier_offset);
			const char *arr = *(const char *const *)slot;
			size_t es = elem_size(fd);

			if (!n)
				continue;
			if (json) {
				fprintf(out, "%s\n", first ? "" : ",");
				indent(out, depth + 1);
				fprintf(out, "\"%s\": [", fd->name);
				for (size_t i = 0; i < n; i++) {
					fprintf(out, "%s\n", i ? "," : "");
					indent(out, depth + 2);
					write_value(out, fd, arr + i * es, depth + 2, 1);
				}
				fputc('\n', out);
				indent(out, depth + 1);
				fputc(']', out);
			} else {
				for (size_t i = 0; i < n; i++) {
					indent(out, depth);
					fprintf(out, "%s%s", fd->name, is_msg ? " " : ": ");
					write_value(out, fd, arr + i * es, depth + 1, 0);
					if (!is_msg)
						fputc('\n', out);
				}
			}
			first = 0;
			continue;
		}
		if (!field_present(m, fd))
			continue;
		if (json) {
			fprintf(out, "%s\n", first ? "" : ",");
			indent(out, depth + 1);
			fprintf(out, "\"%s\": ", fd->name);
			write_value(out, fd, slot, depth + 1, 1);
		} else {
			indent(out, depth);
			fprintf(out, "%s%s", fd->name, is_msg ? " " : ": ");
			write_value(out, fd, slot, depth + 1, 0);
			if (!is_msg)
				fputc('\n', out);
		}
		first = 0;
	}
	if (json) {
		if (!first) {
			fputc('\n', out);
			indent(out, depth);
		}
		fputc('}', out);
	} else if (depth > 0) {
		indent(out, depth - 1);
		fputs("}\n", out);
	}
}

int tt_metrics_write(const ProtobufCMessage *m, tt_metrics_format fmt, FILE *out, tt_err *err)
{
	tt_err_clear(err);
	if (fmt == TT_METRICS_BINARY) {
		size_t n = protobuf_c_message_get_packed_size(m);
		uint8_t *buf = malloc(n ? n : 1);

		if (!buf)
			return tt_err_set(err, TT_ENOMEM, "out of memory packing metrics");
		protobuf_c_message_pack(m, buf);
		if (n && fwrite(buf, 1, n, out) != n) {
			free(buf);
			return tt_err_set(err, TT_EIO, "write error: %s", strerror(errno));
		}
		free(buf);
	} else {
		write_message(out, m, 0, fmt == TT_METRICS_JSON);
		if (fmt == TT_METRICS_JSON)
			fputc('\n', out);
	}
	if (fflush(out) != 0 || ferror(out))
		return tt_err_set(err, TT_EIO, "write error: %s", strerror(errno));
	return TT_OK;
}
