/*
 * proto_te_cases.c - TrackEvent cases of test_proto.c (included there, as
 * the CTF tests include ctf_writer.c; it uses that file's trace builders):
 * state tracks, the range of interest, descriptor tracks' source args and
 * legacy_event.passthrough_utid. Expected values follow from trace
 * processor's rules (docs/architecture.md, "Perfetto's results"), worked
 * out in the comments.
 */

/* A described track: parent 0 = none; kind 's' state, 'p' process (pid),
 * 't' thread (pid, tid), 'c' counter (builtin counter type in tid). */
static void put_desc(tbuf *b, uint32_t seq, int first_packet, uint64_t uuid, uint64_t parent,
		     const char *name, int kind, int32_t pid, int64_t tid)
{
	Pkt p = pkt(seq, 0);
	TDesc td = desc_of(uuid, name);
	Perfetto__Protos__StateDescriptor sd = PERFETTO__PROTOS__STATE_DESCRIPTOR__INIT;
	Perfetto__Protos__ProcessDescriptor pd = process_of(pid);
	Perfetto__Protos__ThreadDescriptor th = thread_of(pid, tid, NULL);
	Perfetto__Protos__CounterDescriptor cd = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;
	char *cats[2] = { "c1", "c2" };

	if (parent) {
		td.has_parent_uuid = 1;
		td.parent_uuid = parent;
	}
	if (kind == 's') {
		td.state = &sd;
	} else if (kind == 'p') {
		td.process = &pd;
	} else if (kind == 't') {
		td.thread = &th;
		td.has_disallow_merging_with_system_tracks = 1;
		td.disallow_merging_with_system_tracks = 1;
	} else if (kind == 'c') {
		cd.has_type = tid != 0;
		cd.type = (int32_t)tid;
		cd.n_categories = 2;
		cd.categories = cats;
		td.counter = &cd;
	}
	if (!first_packet) {
		put_td(b, seq, &td);
		return;
	}
	p.has_first_packet_on_sequence = 1;
	p.first_packet_on_sequence = 1;
	set_flags(&p, 1);
	TB_PUT(b, p, TRACK_DESCRIPTOR, track_descriptor, &td);
}

/* A TYPE_STATE event: value NULL ends the state; with_uuid 0 leaves the
 * track uuid out; arg_value (if any) becomes debug.n. */
static void put_state(tbuf *b, uint64_t ts, int with_uuid, uint64_t uuid, const char *value,
		      const char *cat, int64_t arg_value, int pid_override)
{
	Pkt p = pkt(1, ts);
	TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	Perfetto__Protos__TrackEvent__LegacyEvent le = PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__INIT;
	Perfetto__Protos__DebugAnnotation a = PERFETTO__PROTOS__DEBUG_ANNOTATION__INIT, *ap = &a;

	te_set(&te, 5, with_uuid ? (int64_t)uuid : -1, value);
	if (cat) {
		te.n_categories = 1;
		te.categories = (char **)&cat;
	}
	if (arg_value) {
		a.name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME;
		a.name = "n";
		a.value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_INT_VALUE;
		a.int_value = arg_value;
		te.n_debug_annotations = 1;
		te.debug_annotations = &ap;
	}
	if (pid_override) {
		le.has_pid_override = 1;
		le.pid_override = pid_override;
		te.legacy_event = &le;
	}
	TB_PUT(b, p, TRACK_EVENT, track_event, &te);
}

/* State tracks: a value holds until the next different one or an event
 * without a name; a repeated value continues it (its args join the row's);
 * values on a track that is not a state track, or on the legacy pid/tid
 * track, are parser errors; no uuid at all is its own stat. The track's
 * type names its scope, from its own descriptor or its parent's; under a
 * process or thread descriptor it has no parent_id. */
static void test_state_tracks(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	put_desc(&b, 1, 1, 10, 0, "Global", 's', 0, 0);
	put_desc(&b, 1, 0, 20, 0, NULL, 'p', 42, 0);
	put_desc(&b, 1, 0, 21, 20, "Proc", 's', 0, 0);
	/* on another sequence, so that sequence 1 has no thread of its own
	 * (its events would name it in legacy_event.passthrough_utid) */
	put_desc(&b, 2, 0, 30, 20, NULL, 't', 42, 43);
	put_desc(&b, 1, 0, 31, 30, NULL, 's', 0, 0); /* unnamed: its first value names it */
	put_desc(&b, 1, 0, 40, 0, "Slices", 0, 0, 0);
	put_desc(&b, 1, 0, 50, 40, "Nested", 's', 0, 0);
	put_state(&b, 1000, 1, 10, "on", "cat", 0, 0);
	put_state(&b, 1500, 1, 10, "on", "cat", 7, 0);   /* same value: row 0 goes on */
	put_state(&b, 3000, 1, 10, "off", NULL, 0, 0);   /* ends "on" (dur 2000) */
	put_state(&b, 4000, 1, 10, NULL, NULL, 0, 0);    /* ends "off" (dur 1000) */
	put_state(&b, 2000, 1, 21, "Foreground", NULL, 0, 0);
	put_state(&b, 2500, 1, 31, "Running", NULL, 0, 0);
	put_state(&b, 2600, 1, 50, "Deep", NULL, 0, 0);
	put_state(&b, 2700, 1, 40, "Wrong", NULL, 0, 0); /* a slice track: parser error */
	put_state(&b, 2800, 0, 0, "Lost", NULL, 0, 0);   /* no uuid */
	put_state(&b, 2900, 1, 0, "Legacy", NULL, 0, 9); /* pid override: legacy track */
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select s.id, s.ts, s.dur, s.category, s.value, t.name, t.type, "
		       "(select name from track where id = t.parent_id), s.arg_set_id is not null "
		       "from state s join track t on t.id = s.track_id order by s.id",
		   "0\t1000\t2000\tcat\ton\tGlobal\tglobal_state_track_event\tNULL\t1\n"
		   "1\t2000\t-1\tNULL\tForeground\tProc\tprocess_state_track_event\tNULL\t0\n"
		   "2\t2500\t-1\tNULL\tRunning\tRunning\tthread_state_track_event\tNULL\t0\n"
		   "3\t2600\t-1\tNULL\tDeep\tNested\tglobal_state_track_event\tSlices\t0\n"
		   "4\t3000\t1000\tNULL\toff\tGlobal\tglobal_state_track_event\tNULL\t0\n");
	tt_test_assert_tsv(tr, "select a.key, a.int_value from state s join args a using(arg_set_id)", "debug.n\t7\n");
	tt_test_assert_tsv(tr, "select p.pid, t.name from process_state_track t join process p using(upid)", "42\tProc\n");
	tt_test_assert_tsv(tr, "select th.tid, t.name from thread_state_track t join thread th using(utid)", "43\tRunning\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from state_track"), 4);
	/* trace processor's state blueprints' dimensions: the scope, the uuid */
	tt_test_assert_tsv(tr, "select t.name, a.key, a.display_value from track t join args a "
		       "on a.arg_set_id = t.dimension_arg_set_id where t.type like '%state%' order by t.name, a.id",
		   "Global\ttrack_uuid\t10\nNested\ttrack_uuid\t50\nProc\tupid\t1\nProc\ttrack_uuid\t21\n"
		   "Running\tutid\t2\nRunning\ttrack_uuid\t31\n");
	/* a state track is no process track */
	assert_int_equal(tt_test_int(tr, "select count(*) from process_track where name = 'Proc'"), 0);
	assert_int_equal(tt_test_stat(tr, "track_event_parser_errors"), 2);
	assert_int_equal(tt_test_stat(tr, "track_event_state_missing_track_uuid"), 1);
	tb_close(tr, path, &b);
}

/* TrackEventRangeOfInterest: track events before start_us are dropped
 * (counted), other packets are not; the start is kept as metadata. */
static void test_range_of_interest(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Pkt p = pkt(1, 0);
	Perfetto__Protos__TrackEventRangeOfInterest roi = PERFETTO__PROTOS__TRACK_EVENT_RANGE_OF_INTEREST__INIT;

	(void)state;
	put_track(&b, 5, "t");
	put_event(&b, 1, 1000, 3, 5, "early");
	put_event(&b, 1, 1999, 1, 5, "early begin");
	put_event(&b, 1, 2000, 3, 5, "at start");
	put_event(&b, 1, 3000, 3, 5, "late");
	/* written last, as it applies to the whole trace */
	roi.has_start_us = 1;
	roi.start_us = 2;
	TB_PUT(&b, p, TRACK_EVENT_RANGE_OF_INTEREST, track_event_range_of_interest, &roi);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select ts, name from slice order by ts", "2000\tat start\n3000\tlate\n");
	assert_int_equal(tt_test_stat(tr, "track_event_dropped_packets_outside_of_range_of_interest"), 2);
	assert_int_equal(tt_test_int(tr, "select int_value from metadata where name = 'range_of_interest_start_us'"), 2);
	tb_close(tr, path, &b);
}

/* Source args of descriptor tracks, as trace processor fills them when it
 * makes the track: source, trace_id (the uuid), is_root_in_scope (process
 * and thread descriptors, uuid 0), counter categories and built-in type,
 * has_first_packet_on_sequence when the sequence of the event that made
 * the track began with such a packet (never for uuid 0). */
static void test_descriptor_source_args(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	put_desc(&b, 1, 1, 20, 0, NULL, 'p', 42, 0);
	put_desc(&b, 1, 0, 21, 20, "async", 0, 0, 0);
	put_desc(&b, 1, 0, 30, 20, NULL, 't', 42, 43);
	put_desc(&b, 1, 0, 40, 0, "time", 'c', 0, 1);
	put_desc(&b, 2, 0, 50, 0, "other seq", 0, 0, 0);
	put_event(&b, 1, 100, 3, 21, "a");
	put_event(&b, 1, 110, 3, 30, "t");
	put_event(&b, 1, 120, 3, 0, "d");
	put_event(&b, 2, 130, 3, 50, "o");
	put_counter(&b, 140, 0, 40, 0, 5);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select coalesce(t.name, t.type), a.key, a.display_value from track t "
		       "join args a on a.arg_set_id = t.source_arg_set_id order by t.id, a.id",
		   "process_track_event\tsource\tdescriptor\n"
		   "process_track_event\ttrace_id\t20\n"
		   "process_track_event\tis_root_in_scope\ttrue\n"
		   "process_track_event\thas_first_packet_on_sequence\ttrue\n"
		   "async\tsource\tdescriptor\n"
		   "async\ttrace_id\t21\n"
		   "async\tis_root_in_scope\tfalse\n"
		   "async\thas_first_packet_on_sequence\ttrue\n"
		   "thread_track_event\tsource\tdescriptor\n"
		   "thread_track_event\ttrace_id\t30\n"
		   "thread_track_event\tis_root_in_scope\ttrue\n"
		   "thread_track_event\thas_first_packet_on_sequence\ttrue\n"
		   "Default Track\tsource\tdescriptor\n"
		   "Default Track\ttrace_id\t0\n"
		   "Default Track\tis_root_in_scope\ttrue\n"
		   "other seq\tsource\tdescriptor\n"
		   "other seq\ttrace_id\t50\n"
		   "other seq\tis_root_in_scope\tfalse\n"
		   "time\tsource\tdescriptor\n"
		   "time\ttrace_id\t40\n"
		   "time\tis_root_in_scope\tfalse\n"
		   "time\tcategory\tc1,c2\n"
		   "time\tbuiltin_counter_type\tthread_time\n"
		   "time\thas_first_packet_on_sequence\ttrue\n");
	tb_close(tr, path, &b);
}

/* legacy_event.passthrough_utid: a legacy async event names the thread it
 * came from; an event on a process track (a thread of that process on the
 * sequence) or a global track names the sequence's thread; one on a thread
 * track, none. */
static void test_passthrough_utid(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	put_desc(&b, 1, 1, 30, 0, NULL, 't', 42, 43);
	put_desc(&b, 1, 0, 20, 0, NULL, 'p', 42, 0);
	put_desc(&b, 1, 0, 21, 20, "in process", 0, 0, 0);
	put_desc(&b, 1, 0, 22, 0, "global", 0, 0, 0);
	put_desc(&b, 1, 0, 23, 0, NULL, 'p', 77, 0);
	put_desc(&b, 1, 0, 24, 23, "other process", 0, 0, 0);
	put_legacy(&b, 100, 'b', "async", 0, 5);
	put_legacy(&b, 150, 'e', "async", 0, 5);
	put_event(&b, 1, 200, 3, 21, "p");
	put_event(&b, 1, 300, 3, 22, "g");
	put_event(&b, 1, 400, 3, 30, "t");
	put_event(&b, 1, 500, 3, 24, "o");
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select s.name, th.tid from slice s left join args a on a.arg_set_id = s.arg_set_id "
		       "and a.key = 'legacy_event.passthrough_utid' left join thread th on th.utid = a.int_value "
		       "order by s.ts",
		   "async\t43\np\t43\ng\t43\nt\tNULL\no\tNULL\n");
	tb_close(tr, path, &b);
}

/* A thread descriptor with disallow_merging_with_system_tracks: its events
 * on a track of their own; legacy events of the sequence (no type, no
 * uuid) on the thread's own track, made only when one lands there. */
static void test_separate_thread_track(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	put_desc(&b, 1, 0, 30, 0, NULL, 't', 42, 43);
	put_event(&b, 1, 100, 1, 30, "typed");
	put_legacy(&b, 110, 'B', "legacy", 0, 0);
	put_event(&b, 1, 120, 2, 30, NULL);   /* ends "typed" (not "legacy") */
	put_legacy(&b, 130, 'E', "legacy", 0, 0);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select s.name, s.ts, s.dur, s.depth, s.track_id, th.tid from slice s "
		       "join thread_track t on t.id = s.track_id join thread th using(utid) order by s.ts",
		   "typed\t100\t20\t0\t1\t43\nlegacy\t110\t20\t0\t0\t43\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from track"), 2);
	tb_close(tr, path, &b);
}

/* Descriptor tracks typed as trace processor types them (scope, merged or
 * not, counter); a track under a process or thread descriptor has it as
 * its scope, not its parent_id; under any other track, that one is its
 * parent. thread_track lists every slice track of a thread. */
static void test_descriptor_track_types(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	put_desc(&b, 1, 0, 20, 0, NULL, 'p', 42, 0);
	put_track_merge(&b, 21, 20, "child", 2);
	put_track_merge(&b, 22, 21, "grandchild", 2);
	put_track_merge(&b, 23, 20, "merged", -1);
	put_track_merge(&b, 40, 0, "g", 2);
	put_track_merge(&b, 41, 40, "gchild", 2);
	put_desc(&b, 2, 0, 30, 20, NULL, 't', 42, 43);
	put_desc(&b, 1, 0, 31, 30, "tc", 'c', 0, 0);
	put_track_merge(&b, 32, 30, "on thread", 2);
	put_event(&b, 1, 100, 3, 22, "x");
	put_event(&b, 1, 110, 3, 23, "x");
	put_event(&b, 1, 120, 3, 41, "x");
	put_event(&b, 1, 130, 3, 32, "x");
	put_counter(&b, 140, 0, 31, 0, 1);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select coalesce(t.name, t.type), t.type, p.name from track t "
		       "left join track p on p.id = t.parent_id order by 1",
		   "child\tprocess_track_event\tNULL\n"
		   "g\tglobal_track_event\tNULL\n"
		   "gchild\tglobal_track_event\tg\n"
		   "grandchild\tprocess_track_event\tchild\n"
		   "merged\tprocess_merged_track_event\tNULL\n"
		   "on thread\tthread_track_event\tNULL\n"
		   "process_track_event\tprocess_track_event\tNULL\n"
		   "tc\tthread_counter_track_event\tNULL\n"
		   "thread_track_event\tthread_track_event\tNULL\n");
	tt_test_assert_tsv(tr, "select coalesce(name, type) from thread_track order by 1", "on thread\nthread_track_event\n");
	tb_close(tr, path, &b);
}

/* track.dimension_arg_set_id as trace processor's blueprints give it:
 * a descriptor track its scope (upid / utid) and uuid; merged siblings
 * their scope, parent, how and on what they merge, and the lane
 * (track_compressor_idx: two overlapping siblings, two lanes); the
 * default track is merged by its name; a thread's own track its utid
 * (given last);
 * a legacy async track its scope and name (lane 0) with Chrome's source
 * args. */
static void test_track_dimension_args(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	put_thread_track(&b, 1, 10, 42, 43, "main");
	put_desc(&b, 1, 0, 20, 0, NULL, 'p', 42, 0);
	put_track_merge(&b, 21, 20, "alone", 2);
	put_track_merge(&b, 23, 20, "merged", -1);
	put_track_merge(&b, 24, 20, "merged", -1);
	put_event(&b, 1, 100, 1, 23, "a");
	put_event(&b, 1, 110, 1, 24, "b");
	put_event(&b, 1, 120, 2, 23, NULL);
	put_event(&b, 1, 130, 2, 24, NULL);
	put_event(&b, 1, 140, 3, 21, "x");
	put_event(&b, 1, 150, 3, 0, "d");
	put_event(&b, 1, 160, 3, 10, "t");
	put_legacy_ids(&b, 1, 170, 'b', "async", 0, 5, 0);
	put_legacy_ids(&b, 1, 180, 'e', "async", 0, 5, 0);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select coalesce(t.name, t.type), a.key, a.display_value from track t join args a "
		       "on a.arg_set_id = t.dimension_arg_set_id order by t.id, a.id",
		   "process_track_event\tupid\t1\nprocess_track_event\ttrack_uuid\t20\n"
		   "merged\tupid\t1\nmerged\tparent_track_uuid\t20\nmerged\tmerge_key_type\t0\n"
		   "merged\tmerge_key_value\tmerged\nmerged\ttrack_compressor_idx\t0\n"
		   "merged\tupid\t1\nmerged\tparent_track_uuid\t20\nmerged\tmerge_key_type\t0\n"
		   "merged\tmerge_key_value\tmerged\nmerged\ttrack_compressor_idx\t1\n"
		   "alone\tupid\t1\nalone\ttrack_uuid\t21\n"
		   "Default Track\tparent_track_uuid\t0\nDefault Track\tmerge_key_type\t0\n"
		   "Default Track\tmerge_key_value\tDefault Track\nDefault Track\ttrack_compressor_idx\t0\n"
		   "thread\tutid\t2\n"
		   "async\tscope\tNULL\nasync\tname\tasync\nasync\ttrack_compressor_idx\t0\n");
	tt_test_assert_tsv(tr, "select a.key, a.display_value from track t join args a on a.arg_set_id = t.source_arg_set_id "
		       "where t.name = 'async' order by a.id",
		   "source\tchrome\ntrace_id_is_process_scoped\tfalse\nupid\t1\nsource_scope\tNULL\n");
	tb_close(tr, path, &b);
}

/* The proto content analyzer's root paths (trace processor's, as its diff
 * tests run it): one per distinct (category, name) of TrackEvent packets,
 * with those as args (a missing name is a null string), and one without
 * args for every other packet. */
static void test_proto_content_roots(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	put_track(&b, 5, "t");
	put_event(&b, 1, 100, 3, 5, "one");
	put_event(&b, 1, 110, 3, 5, "one");
	put_event(&b, 1, 120, 3, 5, "two");
	put_event(&b, 1, 130, 3, 5, NULL);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select p.field_type, p.parent_id, c.string_value, n.string_value from experimental_proto_path p "
		       "left join args c on c.arg_set_id = p.arg_set_id and c.key = 'event.category' "
		       "left join args n on n.arg_set_id = p.arg_set_id and n.key = 'event.name' order by p.id",
		   "TracePacket\tNULL\tNULL\tone\nTracePacket\tNULL\tNULL\ttwo\n"
		   "TracePacket\tNULL\tNULL\tNULL\nTracePacket\tNULL\tNULL\tNULL\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from args where key = 'event.name'"), 3);
	assert_int_equal(tt_test_int(tr, "select count(*) from experimental_proto_path where arg_set_id is null"), 1);
	tb_close(tr, path, &b);
}

/* An unknown field of wire type 2 (length-prefixed payload), as protobuf-c
 * keeps it: the length prefix, then the payload. */
static void ext_bytes(tbuf *out, const void *payload, size_t n)
{
	tb_varint(out, n);
	tb_raw(out, payload, n);
}

/* One FieldDescriptorProto: name, number, label (1 optional, 3 repeated),
 * type (descriptor.proto's numbers), type_name, extendee (or NULL). */
static Perfetto__Protos__FieldDescriptorProto xfield(const char *name, int32_t number, int32_t label, int32_t type,
						     const char *type_name, const char *extendee)
{
	Perfetto__Protos__FieldDescriptorProto f = PERFETTO__PROTOS__FIELD_DESCRIPTOR_PROTO__INIT;

	f.name = (char *)name;
	f.has_number = f.has_label = f.has_type = 1;
	f.number = number;
	f.label = label;
	f.type = type;
	f.type_name = (char *)type_name;
	f.extendee = (char *)extendee;
	return f;
}

/* The event "e" on track 5 at 100 with the extension fields uf[0..n). */
static void put_ext_event(tbuf *b, ProtobufCMessageUnknownField *uf, size_t n)
{
	Pkt p = pkt(1, 100);
	TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;

	te.base.n_unknown_fields = (unsigned)n;
	te.base.unknown_fields = uf;
	te_set(&te, 3, 5, "e");
	TB_PUT(b, p, TRACK_EVENT, track_event, &te);
}

/* An ExtensionDescriptor packet at ts of one file. */
static void put_ext_file(tbuf *b, uint64_t ts, Perfetto__Protos__FileDescriptorProto *file)
{
	Pkt p = pkt(1, ts);
	Perfetto__Protos__FileDescriptorSet set = PERFETTO__PROTOS__FILE_DESCRIPTOR_SET__INIT;
	Perfetto__Protos__ExtensionDescriptor ed = PERFETTO__PROTOS__EXTENSION_DESCRIPTOR__INIT;

	set.n_file = 1;
	set.file = &file;
	ed.extension_set = &set;
	TB_PUT(b, p, EXTENSION_DESCRIPTOR, extension_descriptor, &ed);
}

/* TrackEvent extensions described by the trace (an ExtensionDescriptor
 * packet, here after the event, as descriptors apply to every event):
 * a string, a repeated int, a message of its own with a DebugAnnotation
 * field (an annotation under the message's key, by its name), a message
 * field of a type never described and an extension no descriptor names
 * (both left out); a second descriptor for the same file adds one more. */
static void test_described_extensions(void **state)
{
	tbuf b = {0}, f0 = {0}, f1 = {0}, f2 = {0}, f3 = {0}, f4 = {0}, sub = {0};
	char *path;
	tt_trace *tr;
	ProtobufCMessageUnknownField uf[7];
	Perfetto__Protos__DebugAnnotation da = PERFETTO__PROTOS__DEBUG_ANNOTATION__INIT;
	unsigned char dbuf[64];
	size_t dn;
	Perfetto__Protos__FieldDescriptorProto ext[5], child[2], *extp[4], *childp[2], *ext2p[1];
	Perfetto__Protos__DescriptorProto holder = PERFETTO__PROTOS__DESCRIPTOR_PROTO__INIT,
					  msg = PERFETTO__PROTOS__DESCRIPTOR_PROTO__INIT, *msgs[2] = { &holder, &msg };
	Perfetto__Protos__FileDescriptorProto file = PERFETTO__PROTOS__FILE_DESCRIPTOR_PROTO__INIT;
	const char *te_name = ".perfetto.protos.TrackEvent";

	(void)state;
	put_track(&b, 5, "t");
	/* the event: 2000 "hello"; 2001 = 5, 6 (unpacked); 2002 { 1: "x", 99: note = "v" };
	 * 2004 = 9 (described by the second descriptor); 2003 (a message of a
	 * type never described) and 2005 (no descriptor) are not kept */
	ext_bytes(&f0, "hello", 5);
	tb_varint(&f1, 5);
	tb_varint(&f2, 6);
	da.name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME;
	da.name = "note";
	da.value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE;
	da.string_value = "v";
	dn = perfetto__protos__debug_annotation__pack(&da, dbuf);
	tb_raw(&sub, "\x0a\x01x", 3);
	tb_varint(&sub, 99 << 3 | 2);
	ext_bytes(&sub, dbuf, dn);
	ext_bytes(&f3, sub.p, sub.n);
	tb_varint(&f4, 9);
	uf[0] = (ProtobufCMessageUnknownField){ 2000, PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED, f0.n, f0.p };
	uf[1] = (ProtobufCMessageUnknownField){ 2001, PROTOBUF_C_WIRE_TYPE_VARINT, f1.n, f1.p };
	uf[2] = (ProtobufCMessageUnknownField){ 2001, PROTOBUF_C_WIRE_TYPE_VARINT, f2.n, f2.p };
	uf[3] = (ProtobufCMessageUnknownField){ 2002, PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED, f3.n, f3.p };
	uf[4] = (ProtobufCMessageUnknownField){ 2004, PROTOBUF_C_WIRE_TYPE_VARINT, f4.n, f4.p };
	uf[5] = (ProtobufCMessageUnknownField){ 2005, PROTOBUF_C_WIRE_TYPE_VARINT, f4.n, f4.p };
	uf[6] = (ProtobufCMessageUnknownField){ 2003, PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED, f0.n, f0.p };
	put_ext_event(&b, uf, 7);

	ext[0] = xfield("ext_str", 2000, 1, 9, NULL, te_name);
	ext[1] = xfield("ext_ints", 2001, 3, 5, NULL, te_name);
	ext[2] = xfield("ext_msg", 2002, 1, 11, ".test.Child", te_name);
	ext[3] = xfield("ext_lost", 2003, 1, 11, ".test.Nowhere", te_name);
	ext[4] = xfield("ext_late", 2004, 1, 4, NULL, te_name);
	child[0] = xfield("child", 1, 1, 9, NULL, NULL);
	child[1] = xfield("notes", 99, 3, 11, ".perfetto.protos.DebugAnnotation", NULL);
	for (int i = 0; i < 4; i++)
		extp[i] = &ext[i];
	childp[0] = &child[0];
	childp[1] = &child[1];
	holder.n_extension = 4;
	holder.extension = extp;
	msg.name = "Child";
	msg.n_field = 2;
	msg.field = childp;
	file.package = "test";
	file.n_message_type = 2;
	file.message_type = msgs;
	put_ext_file(&b, 200, &file);
	/* the same file again, with one more extension */
	ext2p[0] = &ext[4];
	holder.n_extension = 1;
	holder.extension = ext2p;
	file.n_message_type = 1;
	put_ext_file(&b, 200, &file);

	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select a.key, a.display_value from slice s join args a using(arg_set_id) order by a.key",
		   "ext_ints[0]\t5\next_ints[1]\t6\next_late\t9\next_msg.child\tx\next_msg.note\tv\n"
		   "ext_str\thello\n");
	tb_close(tr, path, &b);
	free(f0.p);
	free(f1.p);
	free(f2.p);
	free(f3.p);
	free(f4.p);
	free(sub.p);
}

/* One EnumValueDescriptorProto. */
static Perfetto__Protos__EnumValueDescriptorProto xenum_value(const char *name, int32_t number)
{
	Perfetto__Protos__EnumValueDescriptorProto v = PERFETTO__PROTOS__ENUM_VALUE_DESCRIPTOR_PROTO__INIT;

	v.name = (char *)name;
	v.has_number = 1;
	v.number = number;
	return v;
}

/* Enum values of described extensions by name, as trace processor shows
 * them: a top-level enum of the file and one nested in a message, a
 * repeated enum, a value the enum does not name and an enum type no
 * descriptor gives (both kept as numbers); an alias adds no name. */
static void test_described_extension_enums(void **state)
{
	/* 2010 = 2; 2011 = 1, 7; 2013 = 3 (varints), 2012 { kind: 5 } */
	static const struct { uint32_t tag; uint64_t v; } vs[] = { { 2010, 2 }, { 2011, 1 }, { 2011, 7 }, { 2013, 3 } };
	tbuf b = {0}, v[4] = {{0}}, sub = {0};
	char *path;
	tt_trace *tr;
	ProtobufCMessageUnknownField uf[5];
	Perfetto__Protos__FieldDescriptorProto ext[4], kind = xfield("kind", 1, 1, 14, ".test.Child.Kind", NULL);
	Perfetto__Protos__FieldDescriptorProto *extp[4], *kindp = &kind;
	Perfetto__Protos__EnumValueDescriptorProto mv[3] = { xenum_value("MODE_A", 1), xenum_value("MODE_B", 2),
							     xenum_value("MODE_ALIAS", 2) };
	Perfetto__Protos__EnumValueDescriptorProto kv[2] = { xenum_value("K_X", 0), xenum_value("K_Y", 5) };
	Perfetto__Protos__EnumValueDescriptorProto *mvp[3] = { &mv[0], &mv[1], &mv[2] }, *kvp[2] = { &kv[0], &kv[1] };
	Perfetto__Protos__EnumDescriptorProto mode = PERFETTO__PROTOS__ENUM_DESCRIPTOR_PROTO__INIT, *modep = &mode;
	Perfetto__Protos__EnumDescriptorProto kinde = PERFETTO__PROTOS__ENUM_DESCRIPTOR_PROTO__INIT, *kindep = &kinde;
	Perfetto__Protos__DescriptorProto holder = PERFETTO__PROTOS__DESCRIPTOR_PROTO__INIT,
					  child = PERFETTO__PROTOS__DESCRIPTOR_PROTO__INIT, *msgs[2] = { &holder, &child };
	Perfetto__Protos__FileDescriptorProto file = PERFETTO__PROTOS__FILE_DESCRIPTOR_PROTO__INIT;
	const char *te_name = ".perfetto.protos.TrackEvent";

	(void)state;
	put_track(&b, 5, "t");
	for (size_t i = 0; i < 4; i++) {
		tb_varint(&v[i], vs[i].v);
		uf[i] = (ProtobufCMessageUnknownField){ vs[i].tag, PROTOBUF_C_WIRE_TYPE_VARINT, v[i].n, v[i].p };
	}
	tb_raw(&sub, "\x02\x08\x05", 3); /* (length-prefixed: its length first) */
	uf[4] = (ProtobufCMessageUnknownField){ 2012, PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED, sub.n, sub.p };
	put_ext_event(&b, uf, 5);

	ext[0] = xfield("ext_mode", 2010, 1, 14, ".test.Mode", te_name);
	ext[1] = xfield("ext_modes", 2011, 3, 14, ".test.Mode", te_name);
	ext[2] = xfield("ext_child", 2012, 1, 11, ".test.Child", te_name);
	ext[3] = xfield("ext_nope", 2013, 1, 14, ".test.Nope", te_name);
	for (int i = 0; i < 4; i++)
		extp[i] = &ext[i];
	holder.n_extension = 4;
	holder.extension = extp;
	mode.name = "Mode";
	mode.n_value = 3;
	mode.value = mvp;
	kinde.name = "Kind";
	kinde.n_value = 2;
	kinde.value = kvp;
	child.name = "Child";
	child.n_field = 1;
	child.field = &kindp;
	child.n_enum_type = 1;
	child.enum_type = &kindep;
	file.package = "test";
	file.n_message_type = 2;
	file.message_type = msgs;
	file.n_enum_type = 1;
	file.enum_type = &modep;
	put_ext_file(&b, 50, &file);

	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select a.key, a.value_type, a.display_value from slice s join args a using(arg_set_id) "
		       "order by a.id",
		   "ext_mode\tstring\tMODE_B\n"
		   "ext_modes[0]\tstring\tMODE_A\n"
		   "ext_modes[1]\tint\t7\n"
		   "ext_child.kind\tstring\tK_Y\n"
		   "ext_nope\tint\t3\n");
	tb_close(tr, path, &b);
	for (size_t i = 0; i < 4; i++)
		free(v[i].p);
	free(sub.p);
}

/* A slice event with a callstack: inline (inline != NULL: its two frames
 * main.cc:10 > leaf), or interned (iid). */
static void put_cs_event(tbuf *b, uint64_t ts, int type, const char *name, const char *inline_leaf,
			 uint64_t iid, double weight)
{
	Pkt p = pkt(1, ts);
	TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	Perfetto__Protos__TrackEvent__InlineCallstack cs = PERFETTO__PROTOS__TRACK_EVENT__INLINE_CALLSTACK__INIT;
	Perfetto__Protos__TrackEvent__InlineCallstack__Frame f[2], *fp[2] = { &f[0], &f[1] };

	te_set(&te, type, 5, name);
	if (inline_leaf) {
		perfetto__protos__track_event__inline_callstack__frame__init(&f[0]);
		perfetto__protos__track_event__inline_callstack__frame__init(&f[1]);
		f[0].function_name = "main";
		f[0].source_file = "main.cc";
		f[0].has_line_number = 1;
		f[0].line_number = 10;
		f[1].function_name = (char *)inline_leaf;
		cs.n_frames = 2;
		cs.frames = fp;
		te.callstack_field_case = PERFETTO__PROTOS__TRACK_EVENT__CALLSTACK_FIELD_CALLSTACK;
		te.callstack = &cs;
	} else if (iid) {
		te.callstack_field_case = PERFETTO__PROTOS__TRACK_EVENT__CALLSTACK_FIELD_CALLSTACK_IID;
		te.callstack_iid = iid;
	}
	if (weight) {
		te.has_callstack_weight = 1;
		te.callstack_weight = weight;
	}
	TB_PUT(b, p, TRACK_EVENT, track_event, &te);
}

/* TrackEvent callstacks: interned frames (function names, a mapping with
 * its build id and path) make a chain of callsites, root first; the same
 * inline stack twice is one callsite, its frames with their file and line
 * as symbols; a begin's callstack is callsite_id, an end's
 * end_callsite_id, with the weight when given; an unknown callstack_iid is
 * a parser error. */
static void test_callstacks(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Pkt p = pkt(1, 1);
	Perfetto__Protos__InternedData in = PERFETTO__PROTOS__INTERNED_DATA__INIT;
	Perfetto__Protos__InternedString fn[2], bid, mp, *fnp[2] = { &fn[0], &fn[1] }, *bidp = &bid, *mpp = &mp;
	Perfetto__Protos__Frame fr[2], *frp[2] = { &fr[0], &fr[1] };
	Perfetto__Protos__Mapping m = PERFETTO__PROTOS__MAPPING__INIT, *mp_ = &m;
	Perfetto__Protos__Callstack cs = PERFETTO__PROTOS__CALLSTACK__INIT, *csp = &cs;
	uint64_t frame_ids[2] = { 1, 2 }, path_ids[1] = { 1 };
	const char *names[2] = { "FuncA", "FuncB" };

	(void)state;
	put_track(&b, 5, "t");
	for (int i = 0; i < 2; i++) {
		perfetto__protos__interned_string__init(&fn[i]);
		fn[i].has_iid = fn[i].has_str = 1;
		fn[i].iid = (uint64_t)i + 1;
		fn[i].str.data = (uint8_t *)names[i];
		fn[i].str.len = 5;
		perfetto__protos__frame__init(&fr[i]);
		fr[i].has_iid = fr[i].has_function_name_id = fr[i].has_mapping_id = fr[i].has_rel_pc = 1;
		fr[i].iid = (uint64_t)i + 1;
		fr[i].function_name_id = (uint64_t)i + 1;
		fr[i].mapping_id = 1;
		fr[i].rel_pc = 16u << i;
	}
	perfetto__protos__interned_string__init(&bid);
	bid.has_iid = bid.has_str = 1;
	bid.iid = 1;
	bid.str.data = (uint8_t *)"abcd";
	bid.str.len = 4;
	perfetto__protos__interned_string__init(&mp);
	mp.has_iid = mp.has_str = 1;
	mp.iid = 1;
	mp.str.data = (uint8_t *)"/bin/demo";
	mp.str.len = 9;
	m.has_iid = m.has_build_id = m.has_start = m.has_end = 1;
	m.iid = 1;
	m.build_id = 1;
	m.start = 4096;
	m.end = 8192;
	m.n_path_string_ids = 1;
	m.path_string_ids = path_ids;
	cs.has_iid = 1;
	cs.iid = 1;
	cs.n_frame_ids = 2;
	cs.frame_ids = frame_ids;
	in.n_function_names = 2;
	in.function_names = fnp;
	in.n_build_ids = 1;
	in.build_ids = &bidp;
	in.n_mapping_paths = 1;
	in.mapping_paths = &mpp;
	in.n_mappings = 1;
	in.mappings = &mp_;
	in.n_frames = 2;
	in.frames = frp;
	in.n_callstacks = 1;
	in.callstacks = &csp;
	p.interned_data = &in;
	set_flags(&p, 1);
	tb_packet(&b, &p);
	put_cs_event(&b, 10, 1, "inline1", "leaf", 0, 2.5);
	put_cs_event(&b, 30, 2, NULL, NULL, 0, 0);
	put_cs_event(&b, 40, 1, "inline2", "leaf", 0, 0);
	put_cs_event(&b, 70, 2, NULL, NULL, 0, 0);
	put_cs_event(&b, 100, 1, "interned", NULL, 1, 0);
	put_cs_event(&b, 140, 2, NULL, NULL, 1, 4);
	put_cs_event(&b, 150, 3, "bad iid", NULL, 9, 0);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select s.name, c.callsite_id is not null, f.name, cs.depth, sym.source_file, sym.line_number, "
		       "(select pf.name from stack_profile_callsite pc join stack_profile_frame pf on pf.id = pc.frame_id "
		       "where pc.id = cs.parent_id), c.weight "
		       "from __intrinsic_track_event_callstacks c join slice s on s.id = c.slice_id "
		       "join stack_profile_callsite cs on cs.id = coalesce(c.callsite_id, c.end_callsite_id) "
		       "join stack_profile_frame f on f.id = cs.frame_id "
		       "left join stack_profile_symbol sym on sym.id = f.symbol_set_id order by c.id",
		   "inline1\t1\tleaf\t1\tNULL\tNULL\tmain\t2.5\n"
		   "inline2\t1\tleaf\t1\tNULL\tNULL\tmain\tNULL\n"
		   "interned\t1\tFuncB\t1\tNULL\tNULL\tFuncA\tNULL\n"
		   "interned\t0\tFuncB\t1\tNULL\tNULL\tFuncA\t4.0\n");
	assert_int_equal(tt_test_int(tr, "select count(distinct callsite_id) from __intrinsic_track_event_callstacks "
					 "where callsite_id is not null"), 2);
	tt_test_assert_tsv(tr, "select f.name, s.source_file, s.line_number from stack_profile_frame f "
		       "join stack_profile_symbol s on s.symbol_set_id = f.symbol_set_id where f.name = 'main'",
		   "main\tmain.cc\t10\n");
	tt_test_assert_tsv(tr, "select m.build_id, m.name, m.start, m.end, f.rel_pc from stack_profile_frame f "
		       "join stack_profile_mapping m on m.id = f.mapping where f.name = 'FuncB'",
		   "abcd\t/bin/demo\t4096\t8192\t32\n");
	assert_int_equal(tt_test_stat(tr, "track_event_parser_errors"), 1);
	tb_close(tr, path, &b);
}

static void put_profile(tbuf *b, const uint64_t *iids, size_t n_iids, const int64_t *deltas, size_t n_deltas)
{
	Pkt p = pkt(1, 0);
	Perfetto__Protos__StreamingProfilePacket sp = PERFETTO__PROTOS__STREAMING_PROFILE_PACKET__INIT;

	p.has_timestamp = 0;
	sp.n_callstack_iid = n_iids;
	sp.callstack_iid = (uint64_t *)iids;
	sp.n_timestamp_delta_us = n_deltas;
	sp.timestamp_delta_us = (int64_t *)deltas;
	TB_PUT(b, p, STREAMING_PROFILE_PACKET, streaming_profile_packet, &sp);
}

/* Chrome's sampling profiler: samples at the sequence's reference time
 * plus their deltas (which the delta-encoded track events share), on the
 * sequence's thread, with their interned callstack; a delta leaving the
 * valid range drops the packet and leaves the sequence's time invalid, so
 * that the next packet and delta-timed event are dropped too. */
static void test_streaming_profile(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Pkt p = pkt(1, 0), pi = pkt(1, 0);
	Perfetto__Protos__ThreadDescriptor th = PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;
	Perfetto__Protos__InternedData in = PERFETTO__PROTOS__INTERNED_DATA__INIT;
	Perfetto__Protos__InternedString fn = PERFETTO__PROTOS__INTERNED_STRING__INIT, *fnp = &fn;
	Perfetto__Protos__Frame fr = PERFETTO__PROTOS__FRAME__INIT, *frp = &fr;
	Perfetto__Protos__Callstack cs = PERFETTO__PROTOS__CALLSTACK__INIT, *csp = &cs;
	uint64_t frame_ids[1] = { 1 }, iids[2] = { 1, 1 };
	int64_t deltas[3] = { 10, 5, 7 }, overflow[1] = { INT64_MIN / 1000 - 1 }, zero[1] = { 0 };

	(void)state;
	tb_snapshot(&b, 1, 3, 6, 1000, 3, 1000, 0, 0); /* trace clock MONOTONIC */
	th.has_pid = th.has_tid = th.has_reference_timestamp_us = 1;
	th.pid = 5;
	th.tid = 6;
	th.reference_timestamp_us = 1000;
	p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_THREAD_DESCRIPTOR;
	p.thread_descriptor = &th;
	set_flags(&p, 1);
	tb_packet(&b, &p);
	fn.has_iid = fn.has_str = 1;
	fn.iid = 1;
	fn.str.data = (uint8_t *)"Sampled";
	fn.str.len = 7;
	fr.has_iid = fr.has_function_name_id = 1;
	fr.iid = fr.function_name_id = 1;
	cs.has_iid = 1;
	cs.iid = 1;
	cs.n_frame_ids = 1;
	cs.frame_ids = frame_ids;
	in.n_function_names = in.n_frames = in.n_callstacks = 1;
	in.function_names = &fnp;
	in.frames = &frp;
	in.callstacks = &csp;
	pi.interned_data = &in;
	tb_packet(&b, &pi);
	/* samples at 1000 + 10 and + 15 us; the trailing 7 us moves the time */
	put_profile(&b, iids, 2, deltas, 3);
	put_old_chrome(&b, 'I', "after", 3, 0, 0);         /* 1000 + 25 us */
	put_profile(&b, NULL, 0, overflow, 1);            /* out of range */
	put_profile(&b, iids, 1, zero, 1);                 /* still invalid */
	put_old_chrome(&b, 'I', "dropped", 0, 0, 0);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select s.ts, f.name, t.tid from cpu_profile_stack_sample s "
		       "join stack_profile_callsite c on c.id = s.callsite_id "
		       "join stack_profile_frame f on f.id = c.frame_id join thread t using(utid) order by s.ts",
		   "1010000\tSampled\t6\n1015000\tSampled\t6\n");
	tt_test_assert_tsv(tr, "select ts, name from slice", "1025000\tafter\n");
	assert_int_equal(tt_test_stat(tr, "streaming_profile_invalid_timestamp"), 2);
	assert_int_equal(tt_test_stat(tr, "track_event_invalid_timestamp"), 1);
	tb_close(tr, path, &b);
}

/* A thread descriptor and one slice on it, every packet from machine m
 * (0: the host, no machine_id). */
static void put_machine_trace(tbuf *b, uint32_t m1, uint32_t m2)
{
	Pkt p = pkt(1, 0), e = pkt(1, 100);
	TDesc td = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
	Perfetto__Protos__ThreadDescriptor th = PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;
	TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;

	td.has_uuid = 1;
	td.uuid = 7;
	th.has_pid = th.has_tid = 1;
	th.pid = 3;
	th.tid = 4;
	td.thread = &th;
	p.has_machine_id = m1 != 0;
	p.machine_id = m1;
	TB_PUT(b, p, TRACK_DESCRIPTOR, track_descriptor, &td);
	te_set(&te, 3, 7, NULL);
	e.has_machine_id = m2 != 0;
	e.machine_id = m2;
	TB_PUT(b, e, TRACK_EVENT, track_event, &te);
}

/* A trace recorded on another machine (machine_id on every packet): its
 * processes, threads and tracks are machine 0, whose raw id the machine
 * table gives; a trace mixing machines keeps machine_id NULL. */
static void test_machine_id(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;

	(void)state;
	put_machine_trace(&b, 1001, 1001);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select id, raw_id from machine", "0\t1001\n");
	assert_int_equal(tt_test_int(tr, "select count(*) from track where machine_id = 0"),
			 tt_test_int(tr, "select count(*) from track"));
	tt_test_assert_tsv(tr, "select distinct machine_id from thread union all select distinct machine_id from process",
		   "0\n0\n");
	tb_close(tr, path, &b);
	put_machine_trace(&b, 1001, 0);
	tr = tb_open(&b, &path);
	assert_int_equal(tt_test_int(tr, "select count(*) from machine"), 0);
	assert_int_equal(tt_test_int(tr, "select count(*) from track where machine_id is not null"), 0);
	tb_close(tr, path, &b);
}

/* Legacy thread time fields make the thread's thread_time counter when
 * the sorted events reach it, as trace processor makes it: after a
 * descriptor counter whose first value comes earlier, whatever the file
 * order. */
static void test_legacy_counter_order(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Pkt p = pkt(2, 2000);
	TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;

	(void)state;
	put_desc(&b, 2, 0, 30, 0, NULL, 't', 42, 43);
	te_set(&te, 3, 30, NULL);
	te.thread_time_case = PERFETTO__PROTOS__TRACK_EVENT__THREAD_TIME_THREAD_TIME_ABSOLUTE_US;
	te.thread_time_absolute_us = 5;
	TB_PUT(&b, p, TRACK_EVENT, track_event, &te);
	put_desc(&b, 1, 0, 40, 0, "early", 'c', 0, 0);
	put_counter(&b, 1000, 0, 40, 0, 1);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select name, type from track where is_counter order by id",
		   "early\tglobal_counter_track_event\nthread_time\tthread_time\n");
	tt_test_assert_tsv(tr, "select c.ts, c.value from counter c join track t on t.id = c.track_id "
		       "where t.name = 'thread_time'", "2000\t5000.0\n");
	/* trace processor's thread_time blueprint: the thread */
	tt_test_assert_tsv(tr, "select a.key, th.tid from track t join args a on a.arg_set_id = t.dimension_arg_set_id "
		       "join thread th on th.utid = a.int_value where t.type = 'thread_time'", "utid\t43\n");
	tb_close(tr, path, &b);
}

/* Typed args as trace processor reflects them: keys are field-name paths
 * (repeated fields indexed), enums their value names (a value newer than
 * our .proto its number); first the interned source location, the task's
 * posted_from (path separators made '/') and histogram name. */
static void test_typed_args(void **state)
{
	tbuf b = {0};
	char *path;
	tt_trace *tr;
	Pkt p = pkt(1, 10);
	TEv te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	Perfetto__Protos__InternedData in = PERFETTO__PROTOS__INTERNED_DATA__INIT;
	Perfetto__Protos__HistogramName hn = PERFETTO__PROTOS__HISTOGRAM_NAME__INIT, *hnp = &hn;
	Perfetto__Protos__ChromeLegacyIpc ipc = PERFETTO__PROTOS__CHROME_LEGACY_IPC__INIT;
	Perfetto__Protos__ChromeUserEvent ue = PERFETTO__PROTOS__CHROME_USER_EVENT__INIT;
	Perfetto__Protos__ChromeHistogramSample hs = PERFETTO__PROTOS__CHROME_HISTOGRAM_SAMPLE__INIT;
	Perfetto__Protos__ChromeLatencyInfo li = PERFETTO__PROTOS__CHROME_LATENCY_INFO__INIT;
	Perfetto__Protos__ChromeLatencyInfo__ComponentInfo ci[2], *cip[2] = { &ci[0], &ci[1] };
	Perfetto__Protos__ChromeActiveProcesses ap = PERFETTO__PROTOS__CHROME_ACTIVE_PROCESSES__INIT;
	int32_t pids[2] = { 7, 9 };
	Perfetto__Protos__SourceLocation sl = PERFETTO__PROTOS__SOURCE_LOCATION__INIT, *slp = &sl;
	Perfetto__Protos__TaskExecution tx = PERFETTO__PROTOS__TASK_EXECUTION__INIT;
	Perfetto__Protos__ChromeMemoryPressureNotification mp = PERFETTO__PROTOS__CHROME_MEMORY_PRESSURE_NOTIFICATION__INIT;

	(void)state;
	put_track(&b, 5, "t");
	sl.has_iid = sl.has_line_number = 1;
	sl.iid = 4;
	sl.file_name = "base\\task.cc";
	sl.function_name = "PostTask";
	sl.line_number = 12;
	in.n_source_locations = 1;
	in.source_locations = &slp;
	tx.has_posted_from_iid = 1;
	tx.posted_from_iid = 4;
	te.task_execution = &tx;
	te.has_source_location_iid = 1;
	te.source_location_iid = 4;
	hn.has_iid = 1;
	hn.iid = 3;
	hn.name = "Compositing.Latency";
	in.n_histogram_names = 1;
	in.histogram_names = &hnp;
	p.interned_data = &in;
	set_flags(&p, 1);
	ipc.has_message_class = ipc.has_message_line = 1;
	ipc.message_class = 1;
	ipc.message_line = 10;
	ue.action = "NewTab";
	hs.has_name_iid = hs.has_sample = 1;
	hs.name_iid = 3;
	hs.sample = 100;
	li.has_trace_id = li.has_is_coalesced = li.has_step = 1;
	li.trace_id = 7;
	li.is_coalesced = 1;
	li.step = 99; /* newer than our .proto */
	for (int i = 0; i < 2; i++) {
		perfetto__protos__chrome_latency_info__component_info__init(&ci[i]);
		ci[i].has_time_us = 1;
		ci[i].time_us = 1000u * (unsigned)(i + 1);
	}
	ci[0].has_component_type = 1;
	ci[0].component_type = 3;
	li.n_component_info = 2;
	li.component_info = cip;
	ap.n_pid = 2;
	ap.pid = pids;
	te_set(&te, 3, 5, NULL);
	te.chrome_legacy_ipc = &ipc;
	te.chrome_user_event = &ue;
	te.chrome_histogram_sample = &hs;
	te.chrome_latency_info = &li;
	te.chrome_active_processes = &ap;
	/* ChromeTrackEvent extensions: an enum, and a notification whose
	 * creation location is the interned one */
	te.has_chrome_app_state = 1;
	te.chrome_app_state = 2;
	mp.has_level = mp.has_creation_location_iid = 1;
	mp.level = 1;
	mp.creation_location_iid = 4;
	te.chrome_memory_pressure_notification = &mp;
	TB_PUT(&b, p, TRACK_EVENT, track_event, &te);
	tr = tb_open(&b, &path);
	tt_test_assert_tsv(tr, "select a.key, a.flat_key, a.value_type, a.display_value from slice s "
		       "join args a using(arg_set_id) order by a.id",
		   "source.file_name\tsource.file_name\tstring\tbase/task.cc\n"
		   "source.function_name\tsource.function_name\tstring\tPostTask\n"
		   "source.line_number\tsource.line_number\tuint\t12\n"
		   "task.posted_from.file_name\ttask.posted_from.file_name\tstring\tbase/task.cc\n"
		   "task.posted_from.function_name\ttask.posted_from.function_name\tstring\tPostTask\n"
		   "task.posted_from.line_number\ttask.posted_from.line_number\tuint\t12\n"
		   "chrome_histogram_sample.name\tchrome_histogram_sample.name\tstring\tCompositing.Latency\n"
		   "chrome_user_event.action\tchrome_user_event.action\tstring\tNewTab\n"
		   "chrome_legacy_ipc.message_class\tchrome_legacy_ipc.message_class\tstring\tCLASS_AUTOMATION\n"
		   "chrome_legacy_ipc.message_line\tchrome_legacy_ipc.message_line\tuint\t10\n"
		   "chrome_histogram_sample.sample\tchrome_histogram_sample.sample\tint\t100\n"
		   "chrome_histogram_sample.name_iid\tchrome_histogram_sample.name_iid\tuint\t3\n"
		   "chrome_latency_info.trace_id\tchrome_latency_info.trace_id\tint\t7\n"
		   "chrome_latency_info.step\tchrome_latency_info.step\tint\t99\n"
		   "chrome_latency_info.component_info[0].component_type\tchrome_latency_info.component_info.component_type"
		   "\tstring\tCOMPONENT_INPUT_EVENT_LATENCY_FIRST_SCROLL_UPDATE_ORIGINAL\n"
		   "chrome_latency_info.component_info[0].time_us\tchrome_latency_info.component_info.time_us\tuint\t1000\n"
		   "chrome_latency_info.component_info[1].time_us\tchrome_latency_info.component_info.time_us\tuint\t2000\n"
		   "chrome_latency_info.is_coalesced\tchrome_latency_info.is_coalesced\tbool\ttrue\n"
		   "source_location_iid\tsource_location_iid\tuint\t4\n"
		   "chrome_active_processes.pid[0]\tchrome_active_processes.pid\tint\t7\n"
		   "chrome_active_processes.pid[1]\tchrome_active_processes.pid\tint\t9\n"
		   "chrome_app_state\tchrome_app_state\tstring\tAPP_STATE_BACKGROUND\n"
		   "chrome_memory_pressure_notification.level\tchrome_memory_pressure_notification.level\tstring"
		   "\tMEMORY_PRESSURE_LEVEL_MODERATE\n"
		   "chrome_memory_pressure_notification.file_name\tchrome_memory_pressure_notification.file_name"
		   "\tstring\tbase/task.cc\n"
		   "chrome_memory_pressure_notification.function_name\tchrome_memory_pressure_notification.function_name"
		   "\tstring\tPostTask\n"
		   "chrome_memory_pressure_notification.line_number\tchrome_memory_pressure_notification.line_number"
		   "\tuint\t12\n");
	tb_close(tr, path, &b);
}
