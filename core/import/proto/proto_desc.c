/*
 * proto_desc.c - descriptors: track, process, thread descriptors, the
 * process tree and process stats, and how a process gets its name. See
 * import_proto.c for the pipeline.
 */
#include "proto_int.h"

/* ---- descriptors ----------------------------------------------------------- */

#define set_process_name tt_proto_set_process_name

void tt_proto_on_track_descriptor(pctx *c, pseq *s, const TDesc *td)
{
	uint32_t i;
	utrack *u;
	const char *nm = td->name ? td->name : td->static_name ? td->static_name : td->atrace_name;

	if (!td->has_uuid)
		return;
	i = tt_proto_get_utrack(c, td->uuid);
	if (i == TT_NONE)
		return;
	u = &c->utracks.v[i];
	u->described = 1;
	if (td->has_parent_uuid && td->parent_uuid != td->uuid) {
		u->has_parent = 1;
		u->parent = td->parent_uuid;
	}
	/* trace processor: a track that may merge with its siblings keeps its
	 * first name, one that may not (SIBLING_MERGE_BEHAVIOR_NONE) the
	 * latest; descriptors are all read before any event is fed */
	if (nm && nm[0] && (!u->name || (td->has_sibling_merge_behavior && td->sibling_merge_behavior == 2)))
		u->name = intern_c(c, nm);
	if (td->has_sibling_merge_behavior) {
		u->merge = td->sibling_merge_behavior;
		if (u->merge == 3 && td->sibling_merge_key)
			u->merge_key = intern_c(c, td->sibling_merge_key);
	}
	if (td->description)
		u->desc = intern_c(c, td->description);
	if (td->state)
		u->is_state = 1;
	if (td->has_disallow_merging_with_system_tracks)
		u->separate = td->disallow_merging_with_system_tracks;
	if (td->has_child_ordering)
		u->child_ordering = td->child_ordering;
	if (td->has_sibling_order_rank) {
		u->has_rank = 1;
		u->rank = td->sibling_order_rank;
	}
	if (td->uuid == 0) {
		if (td->has_process_ordering)
			c->process_order_explicit = td->process_ordering == 1;
		if (td->has_thread_ordering)
			c->thread_order_explicit = td->thread_ordering == 1;
	}
	if (td->thread) {
		const Perfetto__Protos__ThreadDescriptor *t = td->thread;
		int64_t pid = t->has_pid ? t->pid : -1;
		/* Chrome's sandboxed threads have tids only unique in their
		 * process: trace processor's synthetic tid, pid << 32 | tid */
		int64_t tid = td->chrome_thread && td->chrome_thread->is_sandboxed_tid ?
			      (int64_t)((uint64_t)pid << 32) | t->tid : t->tid;

		/* trace processor: a uuid described again for another thread
		 * (another sequence reusing it) keeps its first reservation;
		 * the new descriptor still names its own sequence's thread,
		 * where that sequence's events without a track go */
		if (u->kind == UT_THREAD && u->utid != TT_NONE && (u->dpid != pid || u->dtid != tid)) {
			uint32_t utid = tt_process_tracker_thread(c->im->procs, pid, tid);

			stat(c, TT_STAT_track_descriptor_conflicting_reservation);
			if (t->thread_name)
				tt_process_tracker_thread_name(c->im->procs, utid, intern_c(c, t->thread_name), TT_TN_DESCRIPTOR);
			if (s && s->fallback_track == TT_NONE) {
				s->fallback_track = tt_track_tracker_thread(c->im->tracks, utid);
				s->thr_pid = pid;
				s->thr_tid = tid;
			}
			return;
		}
		u->dpid = pid;
		u->dtid = tid;
		/* trace processor: one descriptor track per thread, so another
		 * uuid for a (pid, tid) already described means the tid was
		 * reused: a new thread (likewise for processes below) */
		if (u->kind != UT_THREAD || u->utid == TT_NONE) {
			uint32_t utid = tt_process_tracker_thread(c->im->procs, pid, tid);
			uint64_t *owner = tt_pmap_find(&c->desc_by_utid, utid);

			if (owner && *owner != td->uuid)
				utid = tt_process_tracker_thread_new(c->im->procs, pid, tid);
			if (tt_pmap_put(&c->desc_by_utid, utid, td->uuid))
				c->oom = 1;
			u->utid = utid;
		}
		u->kind = UT_THREAD;
		if (t->thread_name)
			tt_process_tracker_thread_name(c->im->procs, u->utid, intern_c(c, t->thread_name), TT_TN_DESCRIPTOR);
		u->upid = tt_storage_thread_upid(c->st, u->utid);
		if (s && s->fallback_track == TT_NONE) {
			s->fallback_track = TRACK_UUID | i;
			s->thr_pid = pid;
			s->thr_tid = tid;
		}
	} else if (td->process) {
		const Perfetto__Protos__ProcessDescriptor *p = td->process;
		if (u->kind != UT_PROCESS || u->upid == TT_NONE) {
			uint32_t upid = tt_process_tracker_process(c->im->procs, p->pid);
			uint64_t *owner = tt_pmap_find(&c->desc_by_upid, upid);

			if (owner && *owner != td->uuid)
				upid = tt_process_tracker_process_new(c->im->procs, p->pid);
			if (tt_pmap_put(&c->desc_by_upid, upid, td->uuid))
				c->oom = 1;
			u->upid = upid;
		}
		u->kind = UT_PROCESS;
		tt_proto_on_process_descriptor(c, u->upid, p, td->chrome_process);
	} else if (td->counter) {
		const Perfetto__Protos__CounterDescriptor *cd = td->counter;
		u->kind = UT_COUNTER;
		u->counter_type = cd->type;
		u->incremental = cd->is_incremental;
		u->mult = cd->has_unit_multiplier && cd->unit_multiplier ? cd->unit_multiplier : 1;
		/* trace processor: the built-in types' units first, then the
		 * unit enum, then unit_name */
		if (cd->type == 1 || (cd->type != 2 && cd->unit == 1))
			u->unit = intern_c(c, "ns");
		else if (cd->type == 2 || cd->unit == 2)
			u->unit = intern_c(c, "count");
		else if (cd->unit == 3)
			u->unit = intern_c(c, "bytes");
		else if (cd->unit_name && cd->unit_name[0])
			u->unit = intern_c(c, cd->unit_name);
		if (cd->n_categories) {
			size_t n = 0;

			for (size_t k = 0; k < cd->n_categories && n < sizeof(c->catbuf) - 1; k++)
				n += (size_t)snprintf(c->catbuf + n, sizeof(c->catbuf) - n, "%s%s", k ? "," : "",
						      cd->categories[k]);
			u->counter_cats = intern(c, c->catbuf, n < sizeof(c->catbuf) ? n : sizeof(c->catbuf) - 1);
		}
		if (cd->y_axis_share_key)
			u->y_axis_key = intern_c(c, cd->y_axis_share_key);
		if (!u->name && cd->type == 1)
			u->name = intern_c(c, "thread_time");
		else if (!u->name && cd->type == 2)
			u->name = intern_c(c, "thread_instruction_count");
	}
}

/* track.source_arg_set_id of a descriptor's track, as trace processor
 * fills it when it makes the track: where it came from (source,
 * trace_id = uuid, is_root_in_scope), the counter's categories and
 * built-in type, whether the sequence of the event that made it began
 * with a first_packet_on_sequence packet, and the ordering hints and
 * description. A thread descriptor's own track is the thread's track,
 * which trace processor gives none unless it is a separate one
 * (disallow_merging_with_system_tracks); we keep the ordering hints and
 * description there too (the viewer reads them). */
void tt_proto_track_source_args(pctx *c, const utrack *u, uint32_t track, int first_packet)
{
	static const char *const orderings[] = { NULL, "lexicographic", "chronological", "explicit" };
	const char *ord = u->child_ordering >= 1 && u->child_ordering <= 3 ? orderings[u->child_ordering] : NULL;
	int full = u->kind != UT_THREAD || u->separate || u->is_state;
	tt_storage *st = c->st;

	if (u->legacy_counter || (!full && !u->desc && !ord && !u->has_rank))
		return;
	tt_storage_args_begin(st);
	if (full) {
		tt_storage_args_str(st, "source", "descriptor", 10);
		tt_storage_args_int(st, "trace_id", (int64_t)u->uuid);
		tt_storage_args_bool(st, "is_root_in_scope", u->kind == UT_THREAD || u->kind == UT_PROCESS ||
							     u->uuid == 0);
		if (u->kind == UT_COUNTER) {
			const char *builtin = u->counter_type == 1 ? "thread_time" :
					      u->counter_type == 2 ? "thread_instruction_count" : NULL;
			const char *t;

			if ((t = tt_storage_str(st, u->counter_cats)))
				tt_storage_args_str(st, "category", t, strlen(t));
			if (builtin)
				tt_storage_args_str(st, "builtin_counter_type", builtin, strlen(builtin));
			if ((t = tt_storage_str(st, u->y_axis_key)))
				tt_storage_args_str(st, "y_axis_share_key", t, strlen(t));
		}
		if (first_packet && u->uuid != 0)
			tt_storage_args_bool(st, "has_first_packet_on_sequence", 1);
	}
	if (ord)
		tt_storage_args_str(st, "child_ordering", ord, strlen(ord));
	if (u->has_rank)
		tt_storage_args_int(st, "sibling_order_rank", u->rank);
	if (u->desc) {
		const char *text = tt_storage_str(st, u->desc);

		tt_storage_args_str(st, "description", text, strlen(text));
	}
	tt_storage_track_set_source_args(st, track, tt_args_tracker_end(c->im->args));
}

/* Old Chrome: a ThreadDescriptor packet names the sequence's thread and
 * carries the reference times of the delta-encoded legacy timestamps. */
void tt_proto_on_thread_descriptor(pctx *c, pseq *s, const Perfetto__Protos__ThreadDescriptor *t)
{
	uint32_t utid = tt_process_tracker_thread(c->im->procs, t->has_pid ? t->pid : -1, t->tid);

	if (t->thread_name)
		tt_process_tracker_thread_name(c->im->procs, utid, intern_c(c, t->thread_name), TT_TN_DESCRIPTOR);
	s->fallback_track = tt_track_tracker_thread(c->im->tracks, utid);
	s->thr_pid = t->has_pid ? t->pid : -1;
	s->thr_tid = t->tid;
	s->legacy_ts = sat_mul(t->reference_timestamp_us, 1000);
	s->legacy_tts = sat_mul(t->reference_thread_time_us, 1000);
}

/* "kworker/45:2-mm_percpu_wq" names the last workqueue the worker ran:
 * trace processor keeps "kworker/45:2" (the worker), and so do we. */
static size_t kworker_len(const char *s, size_t n)
{
	if (n > 8 && strncmp(s, "kworker/", 8) == 0)
		for (size_t i = 8; i < n; i++)
			if (s[i] == '-' || s[i] == '+')
				return i;
	return n;
}

/* ProcessTree as trace processor reads it: only processes with a cmdline;
 * the name is argv0 (up to a space when the cmdline is one element), the
 * cmdline the elements joined by spaces; kernel threads (parent kthreadd,
 * pid 2) lose their kworker suffix. */
void tt_proto_on_process_tree(pctx *c, uint32_t seq, const Perfetto__Protos__ProcessTree *pt)
{
	size_t i;
	TT_VEC(int32_t) kthreads = {0};

	for (i = 0; i < pt->n_processes; i++) {
		const Perfetto__Protos__ProcessTree__Process *p = pt->processes[i];
		const char *argv0;
		size_t n0, n = 0;
		uint32_t upid, parent;
		tt_str cmdline;

		if (!p->n_cmdline)
			continue;
		argv0 = p->cmdline[0];
		n0 = strlen(argv0);
		/* a changed parent is a reparenting: the first parent stays */
		parent = tt_proto_process(c, p->ppid);
		upid = tt_proto_process(c, p->pid);
		if (upid == TT_NONE)
			continue;
		if (p->ppid != p->pid && tt_storage_process_parent(c->st, upid) == TT_NONE)
			tt_storage_process_set_parent(c->st, upid, parent);
		if (p->ppid == 2 && TT_VEC_PUSH(kthreads, p->pid))
			c->oom = 1;
		if (p->ppid == 2 && kworker_len(argv0, n0) != n0) {
			n0 = kworker_len(argv0, n0);
			cmdline = intern(c, argv0, n0);
		} else {
			if (p->n_cmdline == 1 && memchr(argv0, ' ', n0))
				n0 = (size_t)((const char *)memchr(argv0, ' ', n0) - argv0);
			for (size_t k = 0; k < p->n_cmdline && n < sizeof(c->key) - 1; k++)
				n += (size_t)snprintf(c->key + n, sizeof(c->key) - n, "%s%s", k ? " " : "",
						      p->cmdline[k]);
			cmdline = intern(c, c->key, n < sizeof(c->key) ? n : sizeof(c->key) - 1);
		}
		set_process_name(c, upid, intern(c, argv0, n0), PN_SYSTEM);
		tt_storage_process_set_cmdline(c->st, upid, cmdline);
		if (p->cmdline_is_comm)
			tt_process_tracker_thread_name(c->im->procs, tt_proto_thread(c, p->pid), cmdline, TT_TN_PROCESS_TREE);
		if (p->has_uid)
			tt_storage_process_set_uid(c->st, upid, p->uid);
		if (p->has_process_start_from_boot && !tt_storage_process_start(c->st, upid)) {
			int64_t t;

			if (tt_proto_clock_to_trace(c->clock, seq, TT_CLOCK_BOOTTIME,
						    p->process_start_from_boot, &t) == 0)
				tt_storage_process_set_start(c->st, upid, t);
		}
		if (p->has_is_kthread) {
			tt_storage_args_begin(c->st);
			tt_storage_args_bool(c->st, "is_kthread", p->is_kthread);
			tt_args_tracker_add_to_process(c->im->args, upid, tt_args_tracker_end(c->im->args));
		}
	}
	for (i = 0; i < pt->n_threads; i++) {
		const Perfetto__Protos__ProcessTree__Thread *t = pt->threads[i];
		uint32_t utid = t->has_tgid ? tt_proto_thread_in(c, t->tgid, t->tid) : tt_proto_thread(c, t->tid);
		size_t n;
		int kthread = 0;

		if (!t->name || !t->name[0])
			continue;
		n = strlen(t->name);
		for (size_t k = 0; k < kthreads.n && t->tid == t->tgid; k++)
			kthread |= kthreads.v[k] == t->tid;
		if (kthread)
			n = kworker_len(t->name, n);
		tt_process_tracker_thread_name(c->im->procs, utid, intern(c, t->name, n), TT_TN_PROCESS_TREE);
	}
	TT_VEC_FREE(kthreads);
}

/* Process names by trace processor's priorities: a higher one replaces a
 * lower or equal one, whatever order the packets come in. */

void tt_proto_set_process_name(pctx *c, uint32_t upid, tt_str name, int prio)
{
	uint64_t *cur = tt_pmap_find(&c->named_procs, upid);

	if (!name || upid == TT_NONE || (cur && (int)*cur > prio))
		return;
	tt_storage_process_set_name(c->st, upid, name);
	if (tt_pmap_put(&c->named_procs, upid, (uint64_t)prio))
		c->oom = 1;
}

/* Chrome's process types (chrome_enums.ProcessType) as trace processor
 * names them; types without a name here are named by their enum name. */
static const char *const chrome_process_names[] = {
	[1] = "Browser", [2] = "Renderer", [3] = "Utility", [4] = "SandboxHelper",
	[5] = "PROCESS_SANDBOX_HELPER", [6] = "Gpu", [7] = "PpapiPlugin", [8] = "PpapiBroker",
	[9] = "Service: network.mojom.NetworkService",
	[10] = "Service: tracing.mojom.TracingService",
	[11] = "Service: storage.mojom.StorageService",
	[12] = "Service: audio.mojom.AudioService",
	[13] = "Service: data_decoder.mojom.DataDecoderService",
	[14] = "Service: chrome.mojom.UtilWin",
	[15] = "Service: proxy_resolver.mojom.ProxyResolverFactory",
	[16] = "Service: media.mojom.CdmServiceBroker",
	[17] = "Service: video_capture.mojom.VideoCaptureService",
	[18] = "Service: unzip.mojom.Unzipper",
	[19] = "Service: mirroring.mojom.MirroringService",
	[20] = "Service: patch.mojom.FilePatcher",
	[21] = "Service: chromeos.tts.mojom.TtsService",
	[22] = "Service: printing.mojom.PrintingService",
	[23] = "Service: quarantine.mojom.Quarantine",
	[24] = "Service: chromeos.local_search_service.mojom.LocalSearchService",
	[25] = "Service: chromeos.assistant.mojom.AssistantAudioDecoderFactory",
	[26] = "Service: chrome.mojom.FileUtilService",
	[27] = "Service: printing.mojom.PrintCompositor",
	[28] = "Service: paint_preview.mojom.PaintPreviewCompositorCollection",
	[29] = "Service: media.mojom.SpeechRecognitionService",
	[30] = "Service: device.mojom.XRDeviceService",
	[31] = "Service: chrome.mojom.UtilReadIcon",
	[32] = "Service: language_detection.mojom.LanguageDetectionService",
	[33] = "Service: sharing.mojom.Sharing",
	[34] = "Service: chrome.mojom.MediaParserFactory",
	[35] = "Service: qrcode_generator.mojom.QRCodeService",
	[36] = "Service: chrome.mojom.ProfileImport",
	[37] = "Service: chromeos.ime.mojom.ImeService",
	[38] = "Service: recording.mojom.RecordingService",
	[39] = "Service: shape_detection.mojom.ShapeDetectionService",
	[40] = "Extension Renderer",
	[41] = "Service: media.mojom.MediaFoundationServiceBroker",
	[42] = "PROCESS_RENDERER_TOP_WEBUI",
};

static tt_str chrome_process_name(pctx *c, int32_t type)
{
	if (type <= 0 || (size_t)type >= sizeof(chrome_process_names) / sizeof(chrome_process_names[0]))
		return 0;
	return intern_c(c, chrome_process_names[type]);
}

/* A ProcessDescriptor (and the TrackDescriptor's ChromeProcessDescriptor):
 * names, Chrome labels and type as process args, the command line. */
void tt_proto_on_process_descriptor(pctx *c, uint32_t upid, const Perfetto__Protos__ProcessDescriptor *p,
				  const Perfetto__Protos__ChromeProcessDescriptor *cp)
{
	tt_str type_name = 0;

	if (upid == TT_NONE)
		return;
	if (p->process_name && p->process_name[0])
		set_process_name(c, upid, intern_c(c, p->process_name), PN_TRACK_DESCRIPTOR);
	if (p->has_chrome_process_type)
		set_process_name(c, upid, chrome_process_name(c, p->chrome_process_type),
				 p->chrome_process_type == 2 ? PN_CHROME_RENDERER : PN_CHROME_LABEL);
	if (cp) {
		type_name = chrome_process_name(c, cp->process_type);
		set_process_name(c, upid, type_name,
				 cp->process_type == 2 || cp->process_type == 40 ? PN_CHROME_RENDERER
										 : PN_CHROME_LABEL);
	}
	if (p->n_cmdline && !tt_storage_process_cmdline(c->st, upid)) {
		size_t n = 0;

		for (size_t i = 0; i < p->n_cmdline && n < sizeof(c->key) - 1; i++)
			n += (size_t)snprintf(c->key + n, sizeof(c->key) - n, "%s%s", i ? " " : "",
					      p->cmdline[i]);
		tt_storage_process_set_cmdline(c->st, upid, intern(c, c->key, n < sizeof(c->key) ? n : sizeof(c->key) - 1));
	}
	if (p->n_process_labels || type_name || (cp && (cp->host_app_package_name || cp->has_crash_trace_id))) {
		/* stored at the end of the import (tt_proto_process_args_flush), as trace
		 * processor does: descriptors repeat on every sequence, and the
		 * latest one's args are the process's */
		uint64_t *at = tt_pmap_find(&c->proc_args, upid);
		pargs a = { .upid = upid, .type = type_name };

		if (cp && cp->host_app_package_name)
			a.pkg = intern_c(c, cp->host_app_package_name);
		if (cp && cp->has_crash_trace_id) {
			a.has_crash = 1;
			a.crash = cp->crash_trace_id;
		}
		for (size_t i = 0; i < p->n_process_labels && a.nlabels < PARGS_LABELS; i++)
			a.labels[a.nlabels++] = intern_c(c, p->process_labels[i]);
		if (at) {
			/* keys add up over descriptors, the latest value winning */
			pargs *o = &c->pargs.v[*at];

			if (a.type)
				o->type = a.type;
			if (a.pkg)
				o->pkg = a.pkg;
			if (a.has_crash) {
				o->has_crash = 1;
				o->crash = a.crash;
			}
			for (size_t i = 0; i < a.nlabels; i++)
				o->labels[i] = a.labels[i];
			if (a.nlabels > o->nlabels)
				o->nlabels = a.nlabels;
		} else if (tt_pmap_put(&c->proc_args, upid, c->pargs.n) || TT_VEC_PUSH(c->pargs, a)) {
			c->oom = 1;
		}
	}
}

void tt_proto_process_args_flush(pctx *c)
{
	char key[48];

	for (size_t k = 0; k < c->pargs.n; k++) {
		const pargs *a = &c->pargs.v[k];

		tt_storage_args_begin(c->st);
		for (size_t i = 0; i < a->nlabels; i++) {
			const char *t = tt_storage_str(c->st, a->labels[i]);

			snprintf(key, sizeof(key), "chrome.process_label[%zu]", i);
			tt_storage_args_str(c->st, key, t, strlen(t));
		}
		if (a->type) {
			const char *t = tt_storage_str(c->st, a->type);
			tt_storage_args_str(c->st, "chrome.process_type", t, strlen(t));
		}
		if (a->pkg) {
			const char *t = tt_storage_str(c->st, a->pkg);
			tt_storage_args_str(c->st, "chrome.host_app_package_name", t, strlen(t));
		}
		if (a->has_crash)
			tt_storage_args_uint(c->st, "chrome.crash_trace_id", a->crash);
		tt_args_tracker_add_to_process(c->im->args, a->upid, tt_args_tracker_end(c->im->args));
	}
}

/* The import's (atrace_tracker.h), for this importer's context. */
int tt_proto_dims_begin(pctx *c, uint32_t track)
{
	return tt_import_dims_begin(c->im, track);
}

void tt_proto_dims_end(pctx *c, uint32_t track)
{
	tt_import_dims_end(c->im, track);
}

uint32_t tt_proto_keyed_counter(pctx *c, const char *kind, uint64_t a, uint64_t b, tt_str name,
			      const char *type, uint32_t upid, int64_t cpu, const char *key, const char *val)
{
	return tt_import_keyed_counter(c->im, kind, a, b, name, type, upid, cpu, key, val);
}

uint32_t tt_proto_oom_score_track(pctx *c, uint32_t upid)
{
	return tt_import_oom_score_track(c->im, upid);
}

void tt_proto_on_process_stats(pctx *c, pseq *s, const Perfetto__Protos__ProcessStats *ps, int64_t ts)
{
	static const char *names[] = { "mem.virt", "mem.rss", "mem.rss.anon", "mem.rss.file",
				       "mem.rss.shmem", "mem.swap", "mem.locked", "mem.rss.watermark" };
	size_t i, k;

	for (i = 0; i < ps->n_processes; i++) {
		const Perfetto__Protos__ProcessStats__Process *p = ps->processes[i];
		const protobuf_c_boolean has[] = { p->has_vm_size_kb, p->has_vm_rss_kb, p->has_rss_anon_kb,
						   p->has_rss_file_kb, p->has_rss_shmem_kb, p->has_vm_swap_kb,
						   p->has_vm_locked_kb, p->has_vm_hwm_kb };
		const uint64_t val[] = { p->vm_size_kb, p->vm_rss_kb, p->rss_anon_kb, p->rss_file_kb,
					 p->rss_shmem_kb, p->vm_swap_kb, p->vm_locked_kb, p->vm_hwm_kb };
		uint32_t upid;

		/* a process is made by a value, not by its pid alone */
		for (k = 0; k < 8 && !has[k]; k++)
			;
		if (k == 8 && !p->has_oom_score_adj && !p->has_runtime_user_mode && !p->has_runtime_kernel_mode)
			continue;
		upid = tt_process_tracker_process(c->im->procs, p->pid);

		for (k = 0; k < 8; k++) {
			tt_str n;
			if (!has[k])
				continue;
			n = intern_c(c, names[k]);
			tt_proto_push_rec(c, s, ts, R_COUNTER, 0,
					  tt_proto_keyed_counter(c, "proto-proc-stat", upid, k, n, "process_memory", upid, -1,
								 "process_memory_key", names[k] + 4),
				 0, 0, TT_NONE, 0, (double)val[k] * 1024.0);
		}
		if (p->has_oom_score_adj)
			tt_proto_push_rec(c, s, ts, R_COUNTER, 0, tt_proto_oom_score_track(c, upid), 0, 0, TT_NONE, 0,
					  (double)p->oom_score_adj);
		/* cpu time from /proc/pid/stat, already in ns (no unit, as trace
		 * processor's proc_stat_runtime tracks) */
		for (k = 0; k < 2; k++) {
			tt_str n;

			if (!(k ? p->has_runtime_kernel_mode : p->has_runtime_user_mode))
				continue;
			n = intern_c(c, k ? "runtime.kernel_ns" : "runtime.user_ns");
			tt_proto_push_rec(c, s, ts, R_COUNTER, 0,
					  tt_proto_keyed_counter(c, "proto-proc-stat", upid, 9 + k, n, "proc_stat_runtime", upid, -1,
								 "proc_stat_runtime_key", k ? "kernel_ns" : "user_ns"), 0, 0,
					  TT_NONE, 0, (double)(k ? p->runtime_kernel_mode : p->runtime_user_mode));
		}
	}
}
