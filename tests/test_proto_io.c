/*
 * test_proto_io.c - storage and sensor ftrace events of a Perfetto trace
 * (core/import/proto/proto_io.c), as trace processor has them: UFS
 * commands (queue depth counter, a slice per command on its tag's track)
 * and clock gating, f2fs I/O statistics as one counter per figure, and
 * ChromeOS EC sensor samples. Traces written by the tests.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto_trace.pb-c.h"
#include "proto_tb.h"
#include "testutil.h"

typedef Perfetto__Protos__FtraceEvent FEv;

#define EV(e, CASE, member, msg) (perfetto__protos__ftrace_event__init(&(e)), \
				  (e).event_case = PERFETTO__PROTOS__FTRACE_EVENT__EVENT_##CASE, (e).member = (msg), &(e))

static void ufs(tbuf *b, uint64_t ts, uint32_t tag, uint32_t opcode, uint32_t gid, uint32_t doorbell, uint32_t str_t)
{
	Perfetto__Protos__UfshcdCommandFtraceEvent u = PERFETTO__PROTOS__UFSHCD_COMMAND_FTRACE_EVENT__INIT;
	FEv e;

	u.has_tag = u.has_opcode = u.has_group_id = u.has_doorbell = u.has_str_t = 1;
	u.tag = tag;
	u.opcode = opcode;
	u.group_id = gid;
	u.doorbell = doorbell;
	u.str_t = str_t;
	ft_event_cpu(b, ts, 0, 0, EV(e, UFSHCD_COMMAND, ufshcd_command, &u), NULL);
}

/* A command's slice from its send (str_t 0) to its completion, named by
 * the SCSI opcode (and group); the queue's depth from the doorbell's bits,
 * else 1 on send and 0 on completion; clock gating states renumbered. */
static void test_ufs(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Perfetto__Protos__UfshcdClkGatingFtraceEvent g = PERFETTO__PROTOS__UFSHCD_CLK_GATING_FTRACE_EVENT__INIT;
	FEv e;

	(void)state;
	ufs(&b, 100, 5, 40, 0, 0, 0);    /* READ (10) sent, no doorbell: 1 */
	ufs(&b, 110, 6, 42, 2, 0x7, 0);  /* WRITE (10), group 2, 3 bits: 3 */
	ufs(&b, 150, 5, 40, 0, 0, 1);    /* completed: 0 */
	ufs(&b, 160, 6, 42, 2, 0, 1);
	ufs(&b, 170, 7, 250, 0, 0, 0);   /* an opcode of no name */
	g.has_state = 1;
	g.state = 1; /* ON */
	ft_event_cpu(&b, 200, 0, 0, EV(e, UFSHCD_CLK_GATING, ufshcd_clk_gating, &g), NULL);
	g.state = 2; /* REQ_OFF */
	ft_event_cpu(&b, 210, 0, 0, EV(e, UFSHCD_CLK_GATING, ufshcd_clk_gating, &g), NULL);
	tr = tb_open_file(&b, &path);
	tt_test_assert_tsv(tr, "select s.ts, s.dur, s.name, t.name, t.type, extract_arg(t.dimension_arg_set_id, 'ufs_tag')"
			       " from slice s join track t on s.track_id = t.id order by s.ts",
			   "100\t50\tREAD (10)\tio.ufs.command.tag[005]\tufs_command_tag\t5\n"
			   "110\t50\tWRITE (10) (GID=0x2)\tio.ufs.command.tag[006]\tufs_command_tag\t6\n"
			   "170\t-1\tUNDEFINED\tio.ufs.command.tag[007]\tufs_command_tag\t7\n");
	tt_test_assert_tsv(tr, "select t.name, group_concat(cast(c.value as int), ',') from counter c"
			       " join counter_track t on c.track_id = t.id group by t.id order by t.id",
			   "io.ufs.command.count\t1,3,0,0,1\n"
			   "io.ufs.clkgating (OFF:0/REQ_OFF/REQ_ON/ON:3)\t3,1\n");
	tb_close(tr, path, &b);
}

/* f2fs_iostat: a counter per figure named by the device (major:minor of
 * the low 16 bits) and the figure; the latency event likewise.
 * cros_ec_sensorhub_data: the sample's delay with its args. */
static void test_f2fs_and_cros_ec(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Perfetto__Protos__F2fsIostatFtraceEvent io = PERFETTO__PROTOS__F2FS_IOSTAT_FTRACE_EVENT__INIT;
	Perfetto__Protos__F2fsIostatLatencyFtraceEvent lat = PERFETTO__PROTOS__F2FS_IOSTAT_LATENCY_FTRACE_EVENT__INIT;
	Perfetto__Protos__CrosEcSensorhubDataFtraceEvent ec = PERFETTO__PROTOS__CROS_EC_SENSORHUB_DATA_FTRACE_EVENT__INIT;
	FEv e;

	(void)state;
	io.has_dev = io.has_app_wio = io.has_fs_discard = 1;
	io.dev = 0xfe20; /* 254:32 */
	io.app_wio = 4096;
	io.fs_discard = 7;
	ft_event_cpu(&b, 100, 0, 0, EV(e, F2FS_IOSTAT, f2fs_iostat, &io), NULL);
	lat.has_dev = lat.has_d_rd_peak = 1;
	lat.dev = 0xfe20;
	lat.d_rd_peak = 12;
	ft_event_cpu(&b, 110, 0, 0, EV(e, F2FS_IOSTAT_LATENCY, f2fs_iostat_latency, &lat), NULL);
	ec.has_ec_sensor_num = ec.has_current_time = ec.has_current_timestamp = ec.has_fifo_timestamp = 1;
	ec.ec_sensor_num = 2;
	ec.current_time = 5000;
	ec.current_timestamp = 4000;
	ec.fifo_timestamp = 4500;
	ft_event_cpu(&b, 120, 0, 0, EV(e, CROS_EC_SENSORHUB_DATA, cros_ec_sensorhub_data, &ec), NULL);
	tr = tb_open_file(&b, &path);
	assert_int_equal(tt_test_int(tr, "select count(*) from counter_track where type = 'f2fs_iostat'"), 22);
	assert_int_equal(tt_test_int(tr, "select count(*) from counter_track where type = 'f2fs_iostat_latency'"), 27);
	tt_test_assert_tsv(tr, "select t.name, cast(c.value as int), extract_arg(t.dimension_arg_set_id, 'linux_device'),"
			       " extract_arg(t.dimension_arg_set_id, 'counter_key') from counter c"
			       " join counter_track t on c.track_id = t.id where c.value > 0 and t.type glob 'f2fs*'"
			       " order by t.name",
			   "f2fs_iostat.[254:32].other_fs_discard\t7\t254:32\tother_fs_discard\n"
			   "f2fs_iostat.[254:32].write_app_total\t4096\t254:32\twrite_app_total\n"
			   "f2fs_iostat_latency.[254:32].read_data_peak\t12\t254:32\tread_data_peak\n");
	tt_test_assert_tsv(tr, "select t.name, c.ts, cast(c.value as int), extract_arg(c.arg_set_id, 'ec_num'),"
			       " extract_arg(c.arg_set_id, 'ec_delta'), extract_arg(c.arg_set_id, 'sample_ts')"
			       " from counter c join counter_track t on c.track_id = t.id where t.type = 'cros_ec_sensorhub_data'",
			   "cros_ec.cros_ec_sensorhub_data.2\t120\t1000\t2\t500\t4000\n");
	tb_close(tr, path, &b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ufs),
		cmocka_unit_test(test_f2fs_and_cros_ec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
