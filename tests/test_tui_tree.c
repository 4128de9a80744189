/*
 * test_tui_tree.c - the track tree and what hangs off it (issue 15): the
 * args tree of the details panel (tui/argtree.c), merged async tracks and
 * process summaries (tui/tracktree.c) on the real Perfetto sample, pinned
 * query rows of two threads in bands of their own (tui/layout.c), and
 * P / x on tracks (tui/trackops.c), kept when the view is built again.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argtree.h"
#include "metrics.h"
#include "details.h"
#include "layout.h"
#include "testutil.h"
#include "trackops.h"
#include "tracktree.h"
#include "view.h"

typedef struct lines {
	int n;
	char text[64][200];
} lines;

static void collect(void *ctx, const char *key, const char *value)
{
	lines *l = ctx;

	if (l->n < 64)
		snprintf(l->text[l->n], sizeof l->text[0], "%s=%s", key, value ? value : "(node)");
	l->n++;
}

static const char args_json[] =
	"{\"traceEvents\":[\n"
	"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":5,\"name\":\"RunTask\",\"args\":{"
	"\"chrome_task_annotator\":{\"delay_policy\":\"FLEXIBLE_NO_SOONER\",\"task_delay_us\":49341},"
	"\"a\":1,\"ab\":{\"c\":{\"d\":2,\"e\":3}}}}\n"
	"]}\n";

static void test_argtree(void **state)
{
	char *path = tt_test_write_tmp(args_json, sizeof(args_json) - 1, ".json");
	tt_trace *tr = tt_test_open(path);
	tt_slice_cols sc;
	lines l = {0};

	(void)state;
	tt_trace_slices(tr, &sc);
	assert_int_equal(sc.n, 1);
	tt_argtree_lines(tr, tt_slice_cols_args(&sc, 0), collect, &l);
	/* full keys, one line per component, children indented under their
	 * parent; "a" and "ab" share no component; JSON args are keyed
	 * args.<path> (as trace processor), so all hang under "args" */
	assert_int_equal(l.n, 9);
	assert_string_equal(l.text[0], "  args=(node)");
	assert_string_equal(l.text[1], "    chrome_task_annotator=(node)");
	assert_string_equal(l.text[2], "      delay_policy=FLEXIBLE_NO_SOONER");
	assert_string_equal(l.text[3], "      task_delay_us=49341");
	assert_string_equal(l.text[4], "    a=1");
	assert_string_equal(l.text[5], "    ab=(node)");
	assert_string_equal(l.text[6], "      c=(node)");
	assert_string_equal(l.text[7], "        d=2");
	assert_string_equal(l.text[8], "        e=3");
	tt_trace_close(tr);
	tt_test_rm(path);
}

static void test_merged_tracks(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("chromium-small.pftrace.gz"));
	tt_view v;
	int merged = -1, members = 0, top = 0;

	(void)state;
	assert_int_equal(tt_view_init(&v, tr), 0);
	for (int i = 0; i < v.lay.ntracks; i++) {
		const tt_ltrack *t = &v.lay.tracks[i];
		if (!strcmp(t->name, "blink::Animation") && (merged < 0 || t->nchildren > v.lay.tracks[merged].nchildren))
			merged = i;
	}
	assert_true(merged >= 0);
	const tt_ltrack *m = &v.lay.tracks[merged];
	/* the per-id tracks of one process (as many as the importer made:
	 * the core reuses a track once its slices ended) become one, its
	 * slices packed */
	int64_t want = tt_test_int(tr, "select count(*) from track where name = 'blink::Animation' and upid = "
				  "(select upid from track where name = 'blink::Animation' group by upid "
				  "order by count(*) desc limit 1)");
	assert_true(want > 100);
	assert_int_equal(m->nchildren, want);
	assert_int_equal(m->track_id, UINT32_MAX - 1);
	for (int i = 0; i < v.lay.ntracks; i++)
		members += v.lay.tracks[i].parent == merged;
	assert_int_equal(members, want);
	const tt_lgroup *g = &v.lay.groups[m->group];
	/* the group header counts its top-level tracks: members are not */
	int inner = 0;
	for (int i = 0; i < g->ntracks; i++)
		inner += v.lay.tracks[g->tracks[i]].nchildren;
	top = tt_tracktree_top_count(&v.lay, g);
	assert_int_equal(top, g->ntracks - inner);
	assert_true(top < 40);
	/* every member slice has a row; rows never overlap inside a member */
	assert_int_equal(m->mn, (size_t)m->nitems);
	assert_true(m->ndepth <= TT_TRACKTREE_MAX_ROWS);
	/* selecting a member's slice lands on the merged track while it is
	 * collapsed, on the row the packing gave it */
	int mem = -1;
	for (int i = 0; i < v.lay.ntracks && mem < 0; i++)
		if (v.lay.tracks[i].parent == merged)
			mem = i;
	int64_t id = v.lay.tracks[mem].rows[0].ids[0];
	assert_int_equal(tt_layout_find_track(&v.lay, v.sc.track_id[id]), merged);
	int row = tt_layout_item_row(&v.lay, merged, id, v.sc.depth);
	assert_true(row >= 0 && row < m->ndepth);
	int found = 0;
	for (size_t k = 0; k < m->rows[row].n; k++)
		found |= m->rows[row].ids[k] == (uint32_t)id;
	assert_true(found);
	/* the process has a summary: its threads, busy over time; read cell
	 * by cell with a hint it gives what the plain lookup gives */
	assert_true(g->nthreads > 0);
	assert_true(g->summary.n > 0);
	for (int w = 1; w <= 997; w += 331) {
		size_t hint = 0;
		int64_t span = (v.lay.end - v.lay.start) / w + 1;
		for (int64_t a = v.lay.start - span; a < v.lay.end + span; a += span) {
			double x = -1, y = -1;
			int r1 = tt_lod_value(&g->summary, a, a + span, &x);
			int r2 = tt_lod_value_from(&g->summary, a, a + span, &hint, &y);
			assert_int_equal(r1, r2);
			assert_true(x == y);
			assert_true(x <= g->nthreads);
		}
	}
	/* the coarse copy: each bucket is the most threads busy in its span */
	for (int k = 0; k < TT_SUMMARY_BUCKETS; k += 97) {
		int64_t a = v.lay.start + (int64_t)k * g->coarse_w;
		double x = 0;
		size_t hint = 0;
		tt_lod_value_from(&g->summary, a, a + g->coarse_w, &hint, &x);
		assert_true(g->coarse[k] >= x);
		/* the level in effect at the bucket's start counts too */
		double at = 0;
		tt_lod_value(&g->summary, a, a + 1, &at);
		assert_true(g->coarse[k] >= at);
	}
	tt_view_free(&v);
	tt_trace_close(tr);
}

static void test_pin_bands_and_trackops(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("chromium-tiny.json"));
	tt_view v;
	tt_result r = {0};
	tt_err err = {0};

	(void)state;
	assert_int_equal(tt_view_init(&v, tr), 0);
	tt_view_geometry(&v, 40, 120);
	/* slices 291 (thread 9174) and 64 (heavyTask track) overlap in time
	 * but are on two tracks: two bands, no nesting between them */
	assert_int_equal(tt_query_collect(tr,
		"select ts, dur, name, id as slice_id from slice where id in (64, 291, 65) order by id",
		0, &r, &err), TT_OK);
	int t = tt_layout_pin(&v.lay, &r, "pin 1", &err);
	tt_result_free(&r);
	assert_true(t >= 0);
	const tt_ltrack *pt = &v.lay.tracks[t];
	assert_int_equal(pt->pslice[0], 64);
	assert_int_equal(pt->pslice[2], 291);
	assert_true(pt->pdepth[0] != pt->pdepth[2]);
	/* an empty result is refused */
	assert_int_equal(tt_query_collect(tr, "select 1 as ts, 1 as dur, 'x' as name where 0", 0, &r, &err), TT_OK);
	assert_int_equal(tt_layout_pin(&v.lay, &r, "pin 2", &err), -1);
	assert_string_equal(err.msg, "pin: the query returned no rows (no track made)");
	tt_result_free(&r);
	/* unpin */
	assert_int_equal(tt_layout_unpin(&v.lay, "nope"), 0);
	assert_int_equal(tt_layout_unpin(&v.lay, "all"), 1);
	/* P moves a track to the Pinned group and back; x hides it */
	int gi = tt_layout_find_track(&v.lay, 0);
	int home = v.lay.tracks[gi].group;
	assert_int_equal(tt_trackops_pin(&v.lay, gi, &err), 1);
	assert_int_equal(v.lay.groups[v.lay.tracks[gi].group].kind, TT_LG_PINNED);
	assert_int_equal(v.lay.groups[v.lay.tracks[gi].group].tracks[0], gi);
	assert_int_equal(tt_trackops_pin(&v.lay, gi, &err), 0);
	assert_string_equal(v.lay.groups[v.lay.tracks[gi].group].name, v.lay.groups[home].name);
	int before = v.lay.nlines;
	tt_trackops_hide(&v.lay, gi);
	assert_true(v.lay.nlines < before);
	assert_int_equal(tt_trackops_show(&v.lay, v.lay.tracks[gi].name), 1);
	assert_int_equal(v.lay.nlines, before);
	tt_view_free(&v);
	tt_trace_close(tr);
}

static int group_named(const tt_layout *lay, const char *name)
{
	for (int g = 0; g < lay->ngroups; g++)
		if (!strcmp(lay->groups[g].name, name))
			return g;
	return -1;
}

/* :metrics builds the view again over a trace with one more track: a
 * pinned and opened merged track, a hidden thread, a :pin query track, a
 * closed group and the cursor's row come back on the same tracks (found
 * by core track id, not index), the Pinned group in the same order. */
static void test_keep_across_rebuild(void **state)
{
	tt_trace *tr = tt_test_open(tt_test_data("chromium-small.pftrace.gz"));
	tt_view v, nv;
	tt_result r = {0};
	tt_err err = {0};
	int merged = -1, hidden = -1, closed = -1;

	(void)state;
	assert_int_equal(tt_view_init(&v, tr), 0);
	for (int i = 0; i < v.lay.ntracks; i++) {
		const tt_ltrack *t = &v.lay.tracks[i];
		if (t->nchildren && (merged < 0 || t->nchildren > v.lay.tracks[merged].nchildren))
			merged = i;
	}
	assert_true(merged >= 0);
	int nmembers = v.lay.tracks[merged].nchildren;
	/* in its group's list the members follow it */
	const tt_lgroup *mg = &v.lay.groups[v.lay.tracks[merged].group];
	int first_member = -1;
	for (int i = 0; i + 1 < mg->ntracks; i++)
		if (mg->tracks[i] == merged)
			first_member = mg->tracks[i + 1];
	assert_true(first_member >= 0);
	assert_int_equal(v.lay.tracks[first_member].parent, merged);
	uint32_t member_id = v.lay.tracks[first_member].track_id;
	/* a thread of another group, hidden; that group closed */
	for (int i = 0; i < v.lay.ntracks && hidden < 0; i++) {
		const tt_ltrack *t = &v.lay.tracks[i];
		if (t->track_id < UINT32_MAX - 1 && t->parent < 0 && t->group != v.lay.tracks[merged].group &&
		    t->kind == TT_LT_SLICE && v.lay.groups[t->group].kind == TT_LG_PROCESS)
			hidden = i;
	}
	assert_true(hidden >= 0);
	uint32_t hidden_id = v.lay.tracks[hidden].track_id;
	char closed_name[160];
	snprintf(closed_name, sizeof closed_name, "%s", v.lay.groups[v.lay.tracks[hidden].group].name);
	assert_int_equal(tt_query_collect(tr, "select ts, dur, name, id as slice_id from slice order by dur desc limit 4",
					  0, &r, &err), TT_OK);
	int qi = tt_layout_pin(&v.lay, &r, "pin 1", &err);
	tt_result_free(&r);
	assert_true(qi >= 0);
	char qname[112];
	snprintf(qname, sizeof qname, "%s", v.lay.tracks[qi].name);
	assert_int_equal(tt_trackops_pin(&v.lay, merged, &err), 1); /* before the query pin */
	v.lay.tracks[merged].expanded = 1;
	tt_trackops_hide(&v.lay, hidden);
	closed = group_named(&v.lay, closed_name);
	v.lay.groups[closed].expanded = 0;
	tt_layout_relines(&v.lay);
	/* the cursor on the last row of the first member */
	int cursor = -1;
	for (int i = 0; i < v.lay.nlines; i++)
		if (v.lay.lines[i].track == first_member)
			cursor = i;
	int cursor_depth = cursor >= 0 ? v.lay.lines[cursor].depth : -1;
	assert_true(cursor >= 0);
	uint32_t ntracks_before = tt_trace_track_count(tr);
	assert_int_equal(tt_metrics_run_names(tr, "thread_utilization", &err), TT_OK);
	assert_true(tt_trace_track_count(tr) > ntracks_before);
	assert_int_equal(tt_view_init(&nv, tr), 0);
	int line = tt_trackops_keep_apply(&nv.lay, tt_trackops_keep_take(&v.lay, cursor));
	tt_view_free(&v);

	int pg = group_named(&nv.lay, "Pinned");
	assert_true(pg >= 0);
	const tt_lgroup *p = &nv.lay.groups[pg];
	/* merged track first (its members after it), then the query pin */
	assert_int_equal(p->ntracks, 1 + nmembers + 1);
	const tt_ltrack *m = &nv.lay.tracks[p->tracks[0]];
	assert_int_equal(m->nchildren, nmembers);
	assert_int_equal(m->expanded, 1);
	assert_int_equal(nv.lay.tracks[p->tracks[1]].track_id, member_id);
	const tt_ltrack *q = &nv.lay.tracks[p->tracks[p->ntracks - 1]];
	assert_non_null(q->pnames);
	assert_int_equal(q->pn, 4);
	assert_string_equal(q->name, qname);
	/* the hidden thread and the closed group */
	int h = tt_layout_find_track(&nv.lay, hidden_id);
	assert_true(h >= 0);
	assert_int_equal(nv.lay.tracks[h].user_hidden, 1);
	assert_int_equal(nv.lay.groups[group_named(&nv.lay, closed_name)].expanded, 0);
	/* the cursor's line: the same member track */
	assert_true(line >= 0);
	assert_int_equal(nv.lay.tracks[nv.lay.lines[line].track].track_id, member_id);
	assert_int_equal(nv.lay.lines[line].depth, cursor_depth);
	/* P again puts the merged track back in its own group */
	assert_int_equal(tt_trackops_pin(&nv.lay, p->tracks[0], &err), 0);
	tt_view_free(&nv);
	tt_trace_close(tr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_argtree),
		cmocka_unit_test(test_merged_tracks),
		cmocka_unit_test(test_pin_bands_and_trackops),
		cmocka_unit_test(test_keep_across_rebuild),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
