/*
 * modules.c - INCLUDE PERFETTO MODULE: module a.b.c is the file a/b/c.sql
 * in the first folder that has it, searched in this order:
 *   1. folders given with --modules (tt_sql_add_module_dir), in order;
 *   2. $XDG_DATA_HOME/termtrace/modules (~/.local/share/... by default);
 *   3. the shipped library: TT_SRCDIR/core/sql/modules when that folder
 *      exists (a build run from its checkout), else TT_DATADIR/modules.
 * A user folder can so add modules and also replace a shipped one.
 * A module is run once per trace; `a.*` includes every module below a.
 */
#include "perfetto_sql.h"
#include "trace_int.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DIRS_MAX 16
#define PATH_LEN 4096

int tt_psql_add_dir(tt_psql *ps, const char *dir)
{
	char **nd = realloc(ps->dirs, (ps->ndirs + 1) * sizeof(*nd));

	if (!nd)
		return TT_ENOMEM;
	ps->dirs = nd;
	if (!(ps->dirs[ps->ndirs] = strdup(dir)))
		return TT_ENOMEM;
	ps->ndirs++;
	return TT_OK;
}

static void free_list(char **l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(l[i]);
	free(l);
}

void tt_psql_modules_free(tt_psql *ps)
{
	free_list(ps->dirs, ps->ndirs);
	free_list(ps->done, ps->ndone);
	free_list(ps->stack, ps->nstack);
	ps->dirs = ps->done = ps->stack = NULL;
	ps->ndirs = ps->ndone = ps->nstack = 0;
}

static int is_dir(const char *p)
{
	struct stat sb;

	return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* The search folders, in order; returns their count. */
static int search_dirs(const tt_psql *ps, char dirs[][PATH_LEN])
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	int n = 0;

	for (size_t i = 0; i < ps->ndirs && n < DIRS_MAX - 2; i++)
		snprintf(dirs[n++], PATH_LEN, "%s", ps->dirs[i]);
	if (xdg && *xdg)
		snprintf(dirs[n++], PATH_LEN, "%s/termtrace/modules", xdg);
	else if (home && *home)
		snprintf(dirs[n++], PATH_LEN, "%s/.local/share/termtrace/modules", home);
	snprintf(dirs[n], PATH_LEN, "%s/core/sql/modules", TT_SRCDIR);
	if (!is_dir(dirs[n]))
		snprintf(dirs[n], PATH_LEN, "%s/modules", TT_DATADIR);
	return n + 1;
}

int tt_psql_search_dirs(const tt_psql *ps, char dirs[][4096], int max)
{
	char all[DIRS_MAX][PATH_LEN];
	int n = search_dirs(ps, all);

	if (n > max)
		n = max;
	for (int i = 0; i < n; i++)
		memcpy(dirs[i], all[i], PATH_LEN);
	return n;
}

/* A module name: dot-separated words of [A-Za-z0-9_], maybe ending ".*". */
static int valid_name(const char *name, int *wildcard)
{
	size_t n = strlen(name);

	*wildcard = 0;
	if (n >= 2 && strcmp(name + n - 2, ".*") == 0) {
		*wildcard = 1;
		n -= 2;
	}
	if (!n || name[0] == '.' || name[n - 1] == '.')
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];

		if (c == '.' ? name[i + 1] == '.'
			     : !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
				 (c >= '0' && c <= '9') || c == '_'))
			return 0;
	}
	return 1;
}

/* ---- a list of module names ---------------------------------------------------- */

struct names {
	char **v;
	size_t n, cap;
};

static int names_has(const struct names *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i], s) == 0)
			return 1;
	return 0;
}

static void names_add(struct names *l, const char *s)
{
	if (names_has(l, s))
		return;
	if (l->n == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 32;
		char **nv = realloc(l->v, nc * sizeof(*nv));

		if (!nv)
			return;
		l->v = nv;
		l->cap = nc;
	}
	if ((l->v[l->n] = strdup(s)))
		l->n++;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds the modules below dir (prefix "a.b." for dir .../a/b). */
static void scan(const char *dir, const char *prefix, struct names *out, int depth)
{
	DIR *d = depth < 8 ? opendir(dir) : NULL;
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char p[PATH_LEN], name[512];
		size_t len = strlen(e->d_name);

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (is_dir(p)) {
			snprintf(name, sizeof(name), "%s%s.", prefix, e->d_name);
			scan(p, name, out, depth + 1);
		} else if (len > 4 && strcmp(e->d_name + len - 4, ".sql") == 0) {
			snprintf(name, sizeof(name), "%s%.*s", prefix, (int)(len - 4), e->d_name);
			names_add(out, name);
		}
	}
	closedir(d);
}

/* Every module below prefix ("" for all, else "a." ), sorted. */
static void known(const tt_psql *ps, const char *prefix, struct names *out)
{
	char dirs[DIRS_MAX][PATH_LEN];
	int nd = search_dirs(ps, dirs);

	for (int i = 0; i < nd; i++) {
		char sub[PATH_LEN];

		if (snprintf(sub, sizeof(sub), "%s/", dirs[i]) >= (int)sizeof(sub))
			continue;
		for (const char *c = prefix; *c; c++) {
			size_t l = strlen(sub);

			if (l + 1 < sizeof(sub)) {
				sub[l] = *c == '.' ? '/' : *c;
				sub[l + 1] = '\0';
			}
		}
		scan(sub, prefix, out, 0);
	}
	if (out->n)
		qsort(out->v, out->n, sizeof(char *), cmp_str);
}

/* ---- including ------------------------------------------------------------------- */

static int exec_module_stmt(void *ctx, sqlite3 *db, const char *sql, int last, tt_err *err)
{
	char *msg = NULL;

	(void)ctx;
	(void)last;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		tt_err_set(err, TT_EINVAL, "%s", msg ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		return TT_EINVAL;
	}
	return TT_OK;
}

static int push(char ***l, size_t *n, const char *s)
{
	char **nl = realloc(*l, (*n + 1) * sizeof(**l));

	if (!nl)
		return TT_ENOMEM;
	*l = nl;
	if (!((*l)[*n] = strdup(s)))
		return TT_ENOMEM;
	(*n)++;
	return TT_OK;
}

static int include_one(tt_psql *ps, const char *name, tt_err *err)
{
	char dirs[DIRS_MAX][PATH_LEN], path[PATH_LEN];
	int nd = search_dirs(ps, dirs), rc;
	FILE *f = NULL;
	char *text;

	for (size_t i = 0; i < ps->ndone; i++)
		if (strcmp(ps->done[i], name) == 0)
			return TT_OK;
	for (size_t i = 0; i < ps->nstack; i++) {
		if (strcmp(ps->stack[i], name) == 0) {
			char chain[200] = "";

			for (size_t k = i; k < ps->nstack; k++) {
				size_t l = strlen(chain);

				snprintf(chain + l, sizeof(chain) - l, "%s -> ", ps->stack[k]);
			}
			return tt_err_set(err, TT_EINVAL, "include cycle: %s%s", chain, name);
		}
	}
	for (int i = 0; i < nd && !f; i++) {
		if (snprintf(path, sizeof(path), "%s/", dirs[i]) >= (int)sizeof(path))
			continue;
		for (const char *c = name; *c; c++) {
			size_t l = strlen(path);

			if (l + 1 < sizeof(path)) {
				path[l] = *c == '.' ? '/' : *c;
				path[l + 1] = '\0';
			}
		}
		if (strlen(path) + 5 < sizeof(path))
			strcat(path, ".sql");
		f = fopen(path, "r");
	}
	if (!f) {
		struct names all = { 0 };
		char list[200] = "";

		known(ps, "", &all);
		for (size_t i = 0; i < all.n; i++) {
			size_t l = strlen(list);

			if (l + strlen(all.v[i]) + 8 >= sizeof(list)) {
				snprintf(list + l, sizeof(list) - l, ", ...");
				break;
			}
			snprintf(list + l, sizeof(list) - l, "%s%s", i ? ", " : "", all.v[i]);
		}
		free_list(all.v, all.n);
		return tt_err_set(err, TT_EINVAL, "no module '%s' (known: %s)", name,
				  *list ? list : "none");
	}
	text = tt_text_read(f, 0, NULL);
	fclose(f);
	if (!text)
		return tt_err_set(err, TT_ENOMEM, "%s: out of memory", path);
	if (push(&ps->stack, &ps->nstack, name) != TT_OK) {
		free(text);
		return tt_err_set(err, TT_ENOMEM, "out of memory");
	}
	rc = tt_psql_run(ps, text, name, path, exec_module_stmt, NULL, err);
	free(text);
	free(ps->stack[--ps->nstack]);
	if (rc == TT_OK && push(&ps->done, &ps->ndone, name) != TT_OK)
		rc = tt_err_set(err, TT_ENOMEM, "out of memory");
	return rc;
}

int tt_psql_include(tt_psql *ps, const char *name, tt_err *err)
{
	struct names all = { 0 };
	char prefix[512];
	int wildcard, rc = TT_OK;

	if (!valid_name(name, &wildcard))
		return tt_err_set(err, TT_EINVAL, "bad module name '%s' (words a.b.c, or a.*)", name);
	if (!wildcard)
		return include_one(ps, name, err);
	snprintf(prefix, sizeof(prefix), "%.*s.", (int)(strlen(name) - 2), name);
	known(ps, prefix, &all);
	if (!all.n)
		rc = tt_err_set(err, TT_EINVAL, "no module below '%s'", name);
	for (size_t i = 0; i < all.n && rc == TT_OK; i++)
		rc = include_one(ps, all.v[i], err);
	free_list(all.v, all.n);
	return rc;
}

int tt_psql_prelude(tt_psql *ps, tt_err *err)
{
	struct names all = { 0 };
	int rc = TT_OK;

	if (ps->prelude_done)
		return TT_OK;
	ps->prelude_done = 1;
	known(ps, "prelude.", &all);
	for (size_t i = 0; i < all.n && rc == TT_OK; i++)
		rc = include_one(ps, all.v[i], err);
	free_list(all.v, all.n);
	return rc;
}

/* ---- the public entry points ----------------------------------------------------------- */

/* The trace's PerfettoSQL state, made on first use. */
tt_psql *tt_psql_of(tt_trace *tr);
tt_psql *tt_psql_of(tt_trace *tr)
{
	if (!tr->psql)
		tr->psql = tt_psql_new(tr->db);
	return tr->psql;
}

int tt_sql_add_module_dir(tt_trace *tr, const char *dir, tt_err *err)
{
	tt_psql *ps = tt_psql_of(tr);

	if (!is_dir(dir))
		return tt_err_set(err, TT_EINVAL, "--modules %s: not a folder", dir);
	if (!ps || tt_psql_add_dir(ps, dir) != TT_OK)
		return tt_err_set(err, TT_ENOMEM, "out of memory");
	return TT_OK;
}
