/*
 * cmd_describe_report.c - the whole-trace reports of `termtrace describe`:
 *
 *   --coverage [--top N] TRACE...   which kind of rule answers the slices of
 *       the traces: share of slices and of distinct names per kind (name,
 *       glob, regex, context, fallback, none), the share a specific rule
 *       (anything but fallback/none) answers, the tracks likewise, and the
 *       N (default 50) most frequent names that only get a fallback or
 *       nothing. A distinct name counts under the kind that answered most
 *       of its slices (ties go to the more specific kind).
 *   --lint TRACE...   rule hygiene: rule-file warnings, links that are
 *       not https, descriptions over 600 characters, rules shadowed by a
 *       rule ranking above them, and, over the given traces, rules that
 *       never match and rules that never win because a later rule of the
 *       same rank (same name kind, conditions and layer) always takes
 *       their slices. Losing to a rule with more conditions is not
 *       reported: that is a refinement doing its job. A rule file none
 *       of whose rules match the traces (android.rules against Chrome
 *       traces) is named once and not checked further: it was not
 *       exercised, which is not a defect of its rules.
 *
 * Everything comes through SQL (describe_slice, describe_track,
 * describe_rules): the viewer side never touches storage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_describe.h"
#include "termtrace.h"

enum { K_NAME, K_GLOB, K_REGEX, K_CONTEXT, K_FALLBACK, K_NONE, K_N };
static const char *const kinds[K_N] = { "name", "glob", "regex", "context", "fallback", "none" };

enum { DESC_MAX = 600 };

static int kind_index(const char *k)
{
	for (int i = 0; i < K_N; i++)
		if (k && strcmp(k, kinds[i]) == 0)
			return i;
	return K_NONE;
}

static int usage(const char *why)
{
	fprintf(stderr,
		"termtrace: %s\n"
		"usage: termtrace describe --coverage [--top N] TRACE...\n"
		"       termtrace describe --lint TRACE...\n",
		why);
	return 2;
}

/* ---- coverage -------------------------------------------------------------- */

struct nrow {
	char *name;
	uint64_t n[K_N];
};

struct names {
	struct nrow *v;
	size_t n, cap;
};

static int cmp_nrow_name(const void *a, const void *b)
{
	return strcmp(((const struct nrow *)a)->name, ((const struct nrow *)b)->name);
}

static uint64_t total(const struct nrow *r)
{
	uint64_t t = 0;

	for (int k = 0; k < K_N; k++)
		t += r->n[k];
	return t;
}

static int cmp_nrow_count(const void *a, const void *b)
{
	uint64_t x = total(a), y = total(b);

	if (x != y)
		return x < y ? 1 : -1;
	return cmp_nrow_name(a, b);
}

/* The kind that answered most of the name's slices; ties: more specific. */
static int main_kind(const struct nrow *r)
{
	int best = K_NONE;

	for (int k = K_N - 1; k >= 0; k--)
		if (r->n[k] >= r->n[best] && r->n[k] > 0)
			best = k;
	return best;
}

static int add_name(struct names *ns, const char *name, int kind, uint64_t count)
{
	if (ns->n == ns->cap) {
		size_t ncap = ns->cap ? ns->cap * 2 : 256;
		struct nrow *nv = realloc(ns->v, ncap * sizeof(*nv));

		if (!nv)
			return -1;
		ns->v = nv;
		ns->cap = ncap;
	}
	memset(&ns->v[ns->n], 0, sizeof(ns->v[0]));
	if (!(ns->v[ns->n].name = strdup(name)))
		return -1;
	ns->v[ns->n++].n[kind] = count;
	return 0;
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

static int coverage(char **paths, int npaths, int top)
{
	struct names ns = { 0 };
	uint64_t tracks[K_N] = { 0 }, slices[K_N] = { 0 }, names[K_N] = { 0 };
	uint64_t nslices = 0, ntracks = 0, sp_s, sp_n, sp_t;
	size_t m = 0;
	int rc = 0;

	for (int i = 0; i < npaths; i++) {
		tt_err err = { 0 };
		tt_result r = { 0 };
		tt_trace *tr = tt_trace_open(paths[i], NULL, &err);

		if (!tr) {
			fprintf(stderr, "termtrace: %s\n", err.msg);
			rc = 1;
			continue;
		}
		if (i == 0)
			tt_describe_print_warnings(tr);
		if (tt_query_collect(tr,
				     "select coalesce(s.name, ''), d.kind, count(*) from slice s "
				     "left join describe_slice d on d.slice_id = s.id group by 1, 2",
				     0, &r, &err) != TT_OK) {
			fprintf(stderr, "termtrace: %s: %s\n", paths[i], err.msg);
			rc = 1;
		}
		for (size_t j = 0; j < r.nrows; j++) {
			char **c = r.cells + j * 3;

			if (add_name(&ns, c[0], kind_index(c[1]), strtoull(c[2], NULL, 10)) < 0) {
				fprintf(stderr, "termtrace: out of memory\n");
				exit(1);
			}
		}
		tt_result_free(&r);
		if (tt_query_collect(tr,
				     "select d.kind, count(*) from track t left join describe_track d "
				     "on d.track_id = t.id group by 1",
				     0, &r, &err) == TT_OK)
			for (size_t j = 0; j < r.nrows; j++) {
				uint64_t n = strtoull(r.cells[j * 2 + 1], NULL, 10);

				tracks[kind_index(r.cells[j * 2])] += n;
				ntracks += n;
			}
		tt_result_free(&r);
		tt_trace_close(tr);
	}
	/* merge the rows of one name (several kinds, several traces) */
	if (ns.n)
		qsort(ns.v, ns.n, sizeof(*ns.v), cmp_nrow_name);
	for (size_t i = 0; i < ns.n; i++) {
		if (m > 0 && strcmp(ns.v[m - 1].name, ns.v[i].name) == 0) {
			for (int k = 0; k < K_N; k++)
				ns.v[m - 1].n[k] += ns.v[i].n[k];
			free(ns.v[i].name);
		} else {
			ns.v[m++] = ns.v[i];
		}
	}
	ns.n = m;
	for (size_t i = 0; i < ns.n; i++) {
		for (int k = 0; k < K_N; k++)
			slices[k] += ns.v[i].n[k];
		nslices += total(&ns.v[i]);
		names[main_kind(&ns.v[i])]++;
	}
	printf("description coverage of %d trace%s: %llu slices, %zu distinct names, %llu tracks\n",
	       npaths, npaths == 1 ? "" : "s", (unsigned long long)nslices, ns.n,
	       (unsigned long long)ntracks);
	printf("%-9s %9s %7s %7s %7s %7s %7s\n", "kind", "slices", "%", "names", "%", "tracks", "%");
	sp_s = sp_n = sp_t = 0;
	for (int k = 0; k < K_N; k++) {
		printf("%-9s %9llu %6.1f%% %7llu %6.1f%% %7llu %6.1f%%\n", kinds[k],
		       (unsigned long long)slices[k], pct(slices[k], nslices),
		       (unsigned long long)names[k], pct(names[k], ns.n),
		       (unsigned long long)tracks[k], pct(tracks[k], ntracks));
		if (k <= K_CONTEXT) {
			sp_s += slices[k];
			sp_n += names[k];
			sp_t += tracks[k];
		}
	}
	printf("%-9s %9llu %6.1f%% %7llu %6.1f%% %7llu %6.1f%%\n", "specific",
	       (unsigned long long)sp_s, pct(sp_s, nslices), (unsigned long long)sp_n,
	       pct(sp_n, ns.n), (unsigned long long)sp_t, pct(sp_t, ntracks));
	if (ns.n)
		qsort(ns.v, ns.n, sizeof(*ns.v), cmp_nrow_count);
	m = 0;
	for (size_t i = 0; i < ns.n; i++) {
		const struct nrow *r = &ns.v[i];

		if (r->n[K_FALLBACK] + r->n[K_NONE] != total(r) || (int)m >= top)
			continue;
		if (m++ == 0)
			printf("most frequent names with only a fallback or no description:\n");
		printf("%9llu  %-8s  %s\n", (unsigned long long)total(r),
		       r->n[K_FALLBACK] ? "fallback" : "none", r->name);
	}
	for (size_t i = 0; i < ns.n; i++)
		free(ns.v[i].name);
	free(ns.v);
	return rc;
}

/* ---- lint ------------------------------------------------------------------ */

struct lrule {
	char *rule, *target, *kind, *matcher, *link, *shadow;
	long long len;
	uint64_t matched, won, tied;
};

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* "descriptions/chrome.rules:12" -> length of the file part */
static size_t file_len(const char *where)
{
	const char *c = strrchr(where, ':');

	return c ? (size_t)(c - where) : strlen(where);
}

static int lint(char **paths, int npaths)
{
	static const char sql[] =
		"select rule, target, kind, matcher, doc_link, desc_len, shadowed_by, %s from "
		"describe_rules";
	enum { NCOL = 10 };
	struct lrule *v = NULL;
	size_t n = 0, problems = 0, skipped = 0;
	int ntraces = 0, warns = 0;
	char q[256];
	tt_trace *tr = NULL;
	tt_err err = { 0 };
	tt_result r = { 0 };

	for (int i = 0; i < npaths; i++) {
		tr = tt_trace_open(paths[i], NULL, &err);
		if (!tr) {
			fprintf(stderr, "termtrace: %s\n", err.msg);
			problems++;
			continue;
		}
		if (ntraces == 0)
			warns = tt_describe_print_warnings(tr);
		snprintf(q, sizeof(q), sql, "matched, won, tied");
		if (tt_query_collect(tr, q, 0, &r, &err) != TT_OK) {
			fprintf(stderr, "termtrace: %s: %s\n", paths[i], err.msg);
			tt_trace_close(tr);
			return 1;
		}
		if (ntraces == 0) {
			v = calloc(r.nrows + 1, sizeof(*v));
			if (!v) {
				fprintf(stderr, "termtrace: out of memory\n");
				exit(1);
			}
			n = r.nrows;
			for (size_t j = 0; j < n; j++) {
				char **c = r.cells + j * NCOL;

				v[j].rule = dup_or_null(c[0]);
				v[j].target = dup_or_null(c[1]);
				v[j].kind = dup_or_null(c[2]);
				v[j].matcher = dup_or_null(c[3]);
				v[j].link = dup_or_null(c[4]);
				v[j].len = c[5] ? atoll(c[5]) : 0;
				v[j].shadow = dup_or_null(c[6]);
			}
		}
		for (size_t j = 0; j < n && j < r.nrows; j++) {
			v[j].matched += strtoull(r.cells[j * NCOL + 7], NULL, 10);
			v[j].won += strtoull(r.cells[j * NCOL + 8], NULL, 10);
			v[j].tied += strtoull(r.cells[j * NCOL + 9], NULL, 10);
		}
		ntraces++;
		tt_result_free(&r);
		tt_trace_close(tr);
	}
	problems += (size_t)warns;
	for (size_t j = 0; j < n; j++) {
		struct lrule *u = &v[j];
		int file_used = 0;

		if (u->link && strncmp(u->link, "https://", 8) != 0) {
			printf("%s: link is not https: %s\n", u->rule, u->link);
			problems++;
		}
		if (u->len > DESC_MAX) {
			printf("%s: description is %lld characters (at most %d)\n", u->rule, u->len,
			       DESC_MAX);
			problems++;
		}
		if (u->shadow) {
			printf("%s: shadowed by %s, which ranks higher and matches all it matches\n",
			       u->rule, u->shadow);
			problems++;
		}
		/* a pack counts as exercised when one of its specific rules
		 * matched: a fallback (a CPU track's runs in a user-space CTF
		 * trace hit linux.rules' thread fallback) says nothing of the
		 * pack's own names */
		for (size_t k = 0; k < n && !file_used; k++)
			file_used = v[k].matched > 0 &&
				    !(v[k].kind && strcmp(v[k].kind, "fallback") == 0) &&
				    file_len(v[k].rule) == file_len(u->rule) &&
				    strncmp(v[k].rule, u->rule, file_len(u->rule)) == 0;
		if (!file_used) {
			if (j == 0 || file_len(v[j - 1].rule) != file_len(u->rule) ||
			    strncmp(v[j - 1].rule, u->rule, file_len(u->rule)) != 0) {
				printf("%.*s: no rule matches the given traces (file not exercised)\n",
				       (int)file_len(u->rule), u->rule);
			}
			skipped++;
			continue;
		}
		if (u->matched == 0) {
			printf("%s: matches no %s of the given traces (%s '%s')\n", u->rule, u->target,
			       u->kind, u->matcher);
			problems++;
		} else if (u->won == 0 && u->tied > 0) {
			/* losing to a rule with more conditions is a refinement
			 * working; losing a tie to a later rule is dead text */
			printf("%s: matches %llu %ss but never wins: a later rule of the same "
			       "rank answers %llu of them\n",
			       u->rule, (unsigned long long)u->matched, u->target,
			       (unsigned long long)u->tied);
			problems++;
		}
	}
	printf("%zu rules, %d trace%s, %zu not exercised, %zu problem%s\n", n, ntraces,
	       ntraces == 1 ? "" : "s", skipped, problems, problems == 1 ? "" : "s");
	for (size_t j = 0; j < n; j++) {
		free(v[j].rule);
		free(v[j].target);
		free(v[j].kind);
		free(v[j].matcher);
		free(v[j].link);
		free(v[j].shadow);
	}
	free(v);
	return problems ? 1 : 0;
}

int tt_cmd_describe_report(int argc, char **argv)
{
	int mode = 0, top = 50, npaths = 0, rc;
	char **paths = calloc((size_t)argc + 1, sizeof(*paths));

	if (!paths)
		return 1;
	for (int i = 1; i < argc; i++) {
		char *end;

		if (strcmp(argv[i], "--coverage") == 0) {
			mode = 'c';
		} else if (strcmp(argv[i], "--lint") == 0) {
			mode = 'l';
		} else if (strcmp(argv[i], "--top") == 0 && i + 1 < argc) {
			top = (int)strtol(argv[++i], &end, 10);
			if (*end || top < 0) {
				free(paths);
				return usage("--top needs a number of names");
			}
		} else if (argv[i][0] == '-' && argv[i][1]) {
			free(paths);
			return usage("unknown option");
		} else {
			paths[npaths++] = argv[i];
		}
	}
	if (npaths == 0) {
		free(paths);
		return usage(mode == 'c' ? "--coverage needs at least one TRACE"
					 : "--lint needs at least one TRACE to try the rules on");
	}
	rc = mode == 'c' ? coverage(paths, npaths, top) : lint(paths, npaths);
	free(paths);
	return rc;
}
