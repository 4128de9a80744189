/*
 * test_proto_gpu.c - the GPU data sources of a Perfetto trace
 * (core/import/proto/proto_gpu.c): GPU counters from inline and
 * interned descriptors (tracks, units, groups, backwards- and
 * forwards-looking values, the stats of bad packets), GpuInfo, and
 * render stages on their hardware queues' tracks, on traces written here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfetto_trace.pb-c.h"
#include "testutil.h"
#include "proto_tb.h"

typedef Perfetto__Protos__GpuCounterDescriptor GDesc;
typedef Perfetto__Protos__GpuCounterDescriptor__GpuCounterSpec GSpec;
typedef Perfetto__Protos__GpuCounterEvent GEvent;
typedef Perfetto__Protos__GpuCounterEvent__GpuCounter GCounter;

static GSpec spec(uint32_t id, const char *name, const char *desc)
{
	GSpec s = PERFETTO__PROTOS__GPU_COUNTER_DESCRIPTOR__GPU_COUNTER_SPEC__INIT;

	s.has_counter_id = 1;
	s.counter_id = id;
	s.name = (char *)name;
	s.description = (char *)desc;
	return s;
}

static GCounter value(uint32_t id, int64_t v)
{
	GCounter k = PERFETTO__PROTOS__GPU_COUNTER_EVENT__GPU_COUNTER__INIT;

	k.has_counter_id = 1;
	k.counter_id = id;
	k.value_case = PERFETTO__PROTOS__GPU_COUNTER_EVENT__GPU_COUNTER__VALUE_INT_VALUE;
	k.int_value = v;
	return k;
}

/* A GpuCounterEvent of gpu on seq at ts (0: no timestamp), with an
 * inline descriptor (NULL: none) or an interned one (iid), and values. */
static void counters(tbuf *b, uint32_t seq, uint64_t ts, int32_t gpu, GDesc *d, uint64_t iid, GCounter *v, size_t n)
{
	GEvent e = PERFETTO__PROTOS__GPU_COUNTER_EVENT__INIT;
	GCounter *vp[8];
	Pkt p = pkt(seq, ts);

	for (size_t i = 0; i < n; i++)
		vp[i] = &v[i];
	e.has_gpu_id = 1;
	e.gpu_id = gpu;
	if (d) {
		e.desc_case = PERFETTO__PROTOS__GPU_COUNTER_EVENT__DESC_COUNTER_DESCRIPTOR;
		e.counter_descriptor = d;
	} else if (iid) {
		e.desc_case = PERFETTO__PROTOS__GPU_COUNTER_EVENT__DESC_COUNTER_DESCRIPTOR_IID;
		e.counter_descriptor_iid = iid;
	}
	e.n_counters = n;
	e.counters = vp;
	TB_PUT(b, p, GPU_COUNTER_EVENT, gpu_counter_event, &e);
}

/* A packet of seq that clears its incremental state and interns in
 * (NULL: nothing). */
static void cleared(tbuf *b, uint32_t seq, Perfetto__Protos__InternedData *in)
{
	Pkt p = pkt(seq, 0);

	p.has_sequence_flags = 1;
	p.sequence_flags = 1;
	p.interned_data = in;
	tb_packet(b, &p);
}

/* Inline descriptors: a track per counter with its unit ("num:num/den",
 * NONE denominators left out) and description; a counter's groups (0
 * when it names none) and the descriptor's custom groups; values given
 * to the previous sample (backwards-looking) or kept (forwards); a spec
 * given again and values without a timestamp counted. */
static void test_inline_counters(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	GDesc d = PERFETTO__PROTOS__GPU_COUNTER_DESCRIPTOR__INIT;
	GSpec s[3] = { spec(1, "Fragments", "fragments per vertex"), spec(2, "Freq", "clock"),
		       spec(1, "Again", "a second spec of id 1") };
	GSpec *sp[3] = { &s[0], &s[1], &s[2] };
	int32_t num[] = { 39 }, den[] = { 25, 0 }, hz[] = { 13 }, groups[] = { 3, 2 };
	uint32_t ids[] = { 2 };
	Perfetto__Protos__GpuCounterDescriptor__GpuCounterGroupSpec g =
		PERFETTO__PROTOS__GPU_COUNTER_DESCRIPTOR__GPU_COUNTER_GROUP_SPEC__INIT, *gp = &g;
	GCounter v1[] = { value(1, 10), value(2, 100) }, v2[] = { value(1, 20), value(2, 200) }, v3[] = { value(1, 5) };

	(void)state;
	s[0].n_numerator_units = 1;
	s[0].numerator_units = num;
	s[0].n_denominator_units = 2;
	s[0].denominator_units = den;
	s[0].n_groups = 2;
	s[0].groups = groups;
	s[1].n_numerator_units = 1;
	s[1].numerator_units = hz;
	s[1].has_value_direction = 1;
	s[1].value_direction = 2;
	g.has_group_id = 1;
	g.group_id = 7;
	g.name = "Clocks";
	g.description = "clock counters";
	g.n_counter_ids = 1;
	g.counter_ids = ids;
	d.n_specs = 3;
	d.specs = sp;
	d.n_counter_groups = 1;
	d.counter_groups = &gp;
	counters(&b, 1, 0, 1, &d, 0, NULL, 0);
	counters(&b, 1, 10, 1, NULL, 0, v1, 2);
	counters(&b, 1, 20, 1, NULL, 0, v2, 2);
	counters(&b, 1, 0, 1, NULL, 0, v3, 1);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select c.ts, c.value, t.name, t.gpu_id, t.ugpu, t.unit, t.description, t.type"
			       " from counter c join gpu_counter_track t on c.track_id = t.id order by t.name, c.ts",
			   "10\t20.0\tFragments\t1\t0\tFragment/Vertex\tfragments per vertex\tgpu_counter\n"
			   "20\t0.0\tFragments\t1\t0\tFragment/Vertex\tfragments per vertex\tgpu_counter\n"
			   "10\t100.0\tFreq\t1\t0\tHz\tclock\tgpu_counter\n"
			   "20\t200.0\tFreq\t1\t0\tHz\tclock\tgpu_counter\n");
	tt_test_assert_tsv(tr, "select g.group_id, coalesce(g.name, 'NULL'), coalesce(g.description, 'NULL'), t.name"
			       " from gpu_counter_group g join track t on t.id = g.track_id order by g.id",
			   "3\tNULL\tNULL\tFragments\n2\tNULL\tNULL\tFragments\n0\tNULL\tNULL\tFreq\n"
			   "7\tClocks\tclock counters\tFreq\n");
	tt_test_assert_tsv(tr, "select a.key, a.string_value from gpu_counter_track t"
			       " join args a on a.arg_set_id = t.source_arg_set_id where t.name = 'Freq'",
			   "description\tclock\n");
	assert_int_equal(tt_test_stat(tr, "gpu_counters_invalid_spec"), 1);
	assert_int_equal(tt_test_stat(tr, "gpu_counters_missing_timestamp"), 1);
	tt_test_assert_tsv(tr, "select gpu from gpu", "1\n");
	tb_close(tr, path, &b);
}

/* Interned descriptors are their sequence's: the same iid and counter
 * id on two sequences are two counters (of their own GPUs); an iid never
 * interned is counted, as is a value of a counter the descriptor does
 * not name; a cleared sequence forgets its descriptors. */
static void test_interned_counters(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	GDesc d1 = PERFETTO__PROTOS__GPU_COUNTER_DESCRIPTOR__INIT, d2 = PERFETTO__PROTOS__GPU_COUNTER_DESCRIPTOR__INIT;
	GSpec s1 = spec(1, "A", "a"), s2 = spec(1, "B", "b"), *sp1 = &s1, *sp2 = &s2;
	Perfetto__Protos__InternedGpuCounterDescriptor i1 = PERFETTO__PROTOS__INTERNED_GPU_COUNTER_DESCRIPTOR__INIT,
						      i2 = PERFETTO__PROTOS__INTERNED_GPU_COUNTER_DESCRIPTOR__INIT, *ip;
	Perfetto__Protos__InternedData in = PERFETTO__PROTOS__INTERNED_DATA__INIT;
	GCounter v[] = { value(1, 100), value(9, 1) }, w[] = { value(1, 200) };

	(void)state;
	d1.n_specs = d2.n_specs = 1;
	d1.specs = &sp1;
	d2.specs = &sp2;
	i1.has_iid = i2.has_iid = i1.has_gpu_id = i2.has_gpu_id = 1;
	i1.iid = i2.iid = 1;
	i1.gpu_id = 0;
	i2.gpu_id = 1;
	i1.counter_descriptor = &d1;
	i2.counter_descriptor = &d2;
	in.n_gpu_counter_descriptors = 1;
	in.gpu_counter_descriptors = &ip;
	ip = &i1;
	cleared(&b, 1, &in);
	ip = &i2;
	cleared(&b, 2, &in);
	counters(&b, 1, 10, 0, NULL, 1, v, 2);
	counters(&b, 2, 10, 0, NULL, 1, w, 1);
	counters(&b, 1, 20, 0, NULL, 1, w, 1);
	counters(&b, 1, 30, 0, NULL, 5, w, 1);
	cleared(&b, 2, NULL);
	counters(&b, 2, 40, 0, NULL, 1, w, 1);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select c.ts, c.value, t.name, t.gpu_id from counter c"
			       " join gpu_counter_track t on c.track_id = t.id order by t.gpu_id, c.ts",
			   "10\t200.0\tA\t0\n20\t0.0\tA\t0\n10\t0.0\tB\t1\n");
	assert_int_equal(tt_test_stat(tr, "gpu_counters_invalid_spec"), 3);
	tb_close(tr, path, &b);
}

/* GpuInfo: the gpu table's columns (the uuid in hex) and extra_info as
 * the GPU's args. */
static void test_gpu_info(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Perfetto__Protos__GpuInfo gi = PERFETTO__PROTOS__GPU_INFO__INIT;
	Perfetto__Protos__GpuInfo__Gpu g0 = PERFETTO__PROTOS__GPU_INFO__GPU__INIT, g1 = PERFETTO__PROTOS__GPU_INFO__GPU__INIT;
	Perfetto__Protos__GpuInfo__Gpu *gp[] = { &g0, &g1 };
	Perfetto__Protos__GpuInfo__Gpu__KeyValue kv = PERFETTO__PROTOS__GPU_INFO__GPU__KEY_VALUE__INIT, *kvp = &kv;
	uint8_t uuid[] = { 0x01, 0xab, 0x00, 0xff };
	Pkt p = pkt(1, 5);

	(void)state;
	g0.name = "Mali-G78";
	g0.vendor = "ARM";
	g0.architecture = "Valhall";
	g0.has_uuid = 1;
	g0.uuid.data = uuid;
	g0.uuid.len = sizeof(uuid);
	g0.pci_bdf = "";
	kv.key = "driver";
	kv.value = "r38p1";
	g0.n_extra_info = 1;
	g0.extra_info = &kvp;
	g1.model = "X";
	gi.n_gpus = 2;
	gi.gpus = gp;
	TB_PUT(&b, p, GPU_INFO, gpu_info, &gi);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select gpu, coalesce(name, 'NULL'), coalesce(vendor, 'NULL'), coalesce(model, 'NULL'),"
			       " coalesce(architecture, 'NULL'), coalesce(uuid, 'NULL'), coalesce(pci_bdf, 'NULL'),"
			       " machine_id from gpu order by gpu",
			   "0\tMali-G78\tARM\tNULL\tValhall\t01ab00ff\tNULL\t0\n"
			   "1\tNULL\tNULL\tX\tNULL\tNULL\tNULL\t0\n");
	tt_test_assert_tsv(tr, "select g.gpu, a.key, a.string_value from gpu g join args a using (arg_set_id)",
			   "0\tdriver\tr38p1\n");
	tb_close(tr, path, &b);
}

/* Render stages: interned queue and stage specifications name the track
 * (its description a source arg) and the slice (the stage's description
 * and category as args); the deprecated specifications by index, a queue
 * none named on a track of its own, a stage none named by its number;
 * the subpass mask's bits; a stage overlapping another on a lane of its
 * queue's tracks of its own; gpu_track and gpu_slice; a graphics context
 * named by an event is a gpu_context row (once) with its pid and API. */
static void test_render_stages(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Perfetto__Protos__InternedGpuRenderStageSpecification q = PERFETTO__PROTOS__INTERNED_GPU_RENDER_STAGE_SPECIFICATION__INIT,
							      st = PERFETTO__PROTOS__INTERNED_GPU_RENDER_STAGE_SPECIFICATION__INIT;
	Perfetto__Protos__InternedGpuRenderStageSpecification *specs[] = { &q, &st };
	Perfetto__Protos__InternedData in = PERFETTO__PROTOS__INTERNED_DATA__INIT;
	Perfetto__Protos__InternedGraphicsContext gc = PERFETTO__PROTOS__INTERNED_GRAPHICS_CONTEXT__INIT, *gcp = &gc;
	Perfetto__Protos__GpuRenderStageEvent e = PERFETTO__PROTOS__GPU_RENDER_STAGE_EVENT__INIT;
	Perfetto__Protos__GpuRenderStageEvent__Specifications os =
		PERFETTO__PROTOS__GPU_RENDER_STAGE_EVENT__SPECIFICATIONS__INIT;
	Perfetto__Protos__GpuRenderStageEvent__Specifications__Description qd =
		PERFETTO__PROTOS__GPU_RENDER_STAGE_EVENT__SPECIFICATIONS__DESCRIPTION__INIT, *qdp = &qd;
	uint64_t mask[] = { 0x9, 0x1 };
	Pkt p;

	(void)state;
	q.has_iid = st.has_iid = 1;
	q.iid = 1;
	q.name = "vertex";
	q.description = "vertex queue";
	st.iid = 2;
	st.name = "binning";
	st.description = "binning graphics";
	st.has_category = 1;
	st.category = 1;
	in.n_gpu_specifications = 2;
	in.gpu_specifications = specs;
	gc.has_iid = gc.has_pid = gc.has_api = 1;
	gc.iid = 42;
	gc.pid = 300;
	gc.api = 4;
	in.n_graphics_contexts = 1;
	in.graphics_contexts = &gcp;
	cleared(&b, 1, &in);
	e.has_event_id = e.has_duration = e.has_hw_queue_iid = e.has_stage_iid = 1;
	e.event_id = 1;
	e.duration = 10;
	e.hw_queue_iid = 1;
	e.stage_iid = 2;
	e.n_render_subpass_index_mask = 2;
	e.render_subpass_index_mask = mask;
	e.has_context = 1;
	e.context = 42;
	p = pkt(1, 100);
	p.has_sequence_flags = 1;
	p.sequence_flags = 2;
	TB_PUT(&b, p, GPU_RENDER_STAGE_EVENT, gpu_render_stage_event, &e);
	p = pkt(1, 105); /* (overlaps the first: a lane of its own) */
	TB_PUT(&b, p, GPU_RENDER_STAGE_EVENT, gpu_render_stage_event, &e);
	/* the deprecated specifications: queue 0 named, queue 3 not */
	e = (Perfetto__Protos__GpuRenderStageEvent)PERFETTO__PROTOS__GPU_RENDER_STAGE_EVENT__INIT;
	qd.name = "q0";
	qd.description = "queue zero";
	os.n_hw_queue = 1;
	os.hw_queue = &qdp;
	e.specifications = &os;
	e.has_event_id = e.has_duration = e.has_hw_queue_id = e.has_stage_id = e.has_submission_id = 1;
	e.event_id = 2;
	e.duration = 5;
	e.stage_id = 4;
	e.submission_id = 7;
	p = pkt(1, 200);
	TB_PUT(&b, p, GPU_RENDER_STAGE_EVENT, gpu_render_stage_event, &e);
	e.specifications = NULL;
	e.hw_queue_id = 3;
	p = pkt(1, 300);
	TB_PUT(&b, p, GPU_RENDER_STAGE_EVENT, gpu_render_stage_event, &e);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select g.name, coalesce(g.description, 'NULL'), g.type, s.ts, s.dur, s.name, s.hw_queue_id,"
			       " s.submission_id, coalesce(s.render_subpasses, 'NULL'),"
			       " coalesce(s.render_stage_category, 'NULL'),"
			       " coalesce(extract_arg(s.arg_set_id, 'description'), 'NULL')"
			       " from gpu_track g join gpu_slice s on s.track_id = g.id order by s.ts",
			   "vertex\tvertex queue\tgpu_render_stage\t100\t10\tbinning\t1\t0\t0,3,64\t1\tbinning graphics\n"
			   "vertex\tvertex queue\tgpu_render_stage\t105\t10\tbinning\t1\t0\t0,3,64\t1\tbinning graphics\n"
			   "q0\tqueue zero\tgpu_render_stage\t200\t5\trender stage(4)\t0\t7\tNULL\tNULL\tNULL\n"
			   "Unknown GPU Queue 3\tNULL\tgpu_render_stage\t300\t5\trender stage(4)\t3\t7\tNULL\tNULL\tNULL\n");
	tt_test_assert_tsv(tr, "select a.key, a.display_value from track t join args a on a.arg_set_id = t.dimension_arg_set_id"
			       " where t.id = (select min(id) from track where name = 'vertex') order by a.id",
			   "ugpu\t0\ngpu\t0\nrender_stage_source\tiid\nhwqueue_id\t1\nhwqueue_name\tvertex\n"
			   "track_compressor_idx\t0\n");
	tt_test_assert_tsv(tr, "select s.ts, extract_arg(t.dimension_arg_set_id, 'track_compressor_idx'), s.depth"
			       " from slice s join track t on t.id = s.track_id where t.name = 'vertex' order by s.ts",
			   "100\t0\t0\n105\t1\t0\n");
	tt_test_assert_tsv(tr, "include perfetto module std.gpu.context; select context_id, pid, api from gpu_context",
			   "42\t300\tCUDA\n");
	tt_test_assert_tsv(tr, "select s.context_id, p.pid from gpu_slice s join process p on p.upid = s.upid"
			       " where s.ts = 100",
			   "42\t300\n");
	tb_close(tr, path, &b);
}

/* A render stage of event id on hardware queue queue (the deprecated
 * ids), waiting for the events waits. */
static void stage(tbuf *b, uint64_t ts, uint64_t id, int32_t queue, uint64_t *waits, size_t nwaits)
{
	Perfetto__Protos__GpuRenderStageEvent e = PERFETTO__PROTOS__GPU_RENDER_STAGE_EVENT__INIT;
	Pkt p = pkt(1, ts);

	e.has_event_id = e.has_duration = e.has_hw_queue_id = e.has_stage_id = 1;
	e.event_id = id;
	e.duration = 10;
	e.hw_queue_id = queue;
	e.stage_id = (int32_t)id;
	e.n_event_wait_ids = nwaits;
	e.event_wait_ids = waits;
	TB_PUT(b, p, GPU_RENDER_STAGE_EVENT, gpu_render_stage_event, &e);
}

/* event_wait_ids: a flow from each slice of the event waited for to the
 * waiting one, whichever comes first in the trace. */
static void test_render_stage_waits(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	uint64_t w1[] = { 1 }, w4[] = { 4 };

	(void)state;
	stage(&b, 100, 1, 0, NULL, 0);
	stage(&b, 200, 2, 1, w1, 1);
	stage(&b, 300, 3, 1, w4, 1);
	stage(&b, 400, 4, 0, NULL, 0);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select o.name, i.name from flow f join slice o on o.id = f.slice_out"
			       " join slice i on i.id = f.slice_in order by o.ts",
			   "render stage(1)\trender stage(2)\nrender stage(4)\trender stage(3)\n");
	tb_close(tr, path, &b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inline_counters),
		cmocka_unit_test(test_interned_counters),
		cmocka_unit_test(test_gpu_info),
		cmocka_unit_test(test_render_stages),
		cmocka_unit_test(test_render_stage_waits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
