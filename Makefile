# termtrace - one plain Makefile.
#
#   make run [TRACE=file]   install packages, build, open a trace in the viewer
#   make test               install packages, build (normal + ASan/UBSan), run every test
#   make bench              benchmarks (figures, not pass/fail)
#   make fuzz-smoke / fuzz  libFuzzer targets (clang)
#   make install PREFIX=/usr/local DESTDIR=
#
# Objects go to $(B) (build/ by default, build-asan/ for the sanitizer build).

B       ?= build
SAN     ?=
PREFIX  ?= /usr/local
DESTDIR ?=
TRACE   ?= tests/data/chromium-tiny.json

CC      ?= cc
# V=1 shows full command lines.
V       ?=
Q       = $(if $(V),,@)
ifeq ($(SAN),1)
OPT     = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDSAN   = -fsanitize=address,undefined
else
OPT     = -O3 -g
LDSAN   =
# Link-time optimization: the objects carry their compiled code and the
# compiler's IR (fat), the viewer and the benchmarks are linked whole
# (inlining across files: storage appends into the trackers, the hash and
# cache lookups into the reader), the tests link the compiled code as is
# (-fno-lto: gcc would otherwise optimize each test whole, minutes more).
# Measured on the Chromium class (one thread, callgrind): 3.449G
# instructions at -O2, 3.428G at -O3, 3.378G at -O2 with LTO, 3.302G at
# -O3 with LTO (-4.3 %).
# (gcc's flags: another compiler builds without)
ifneq ($(shell $(CC) --version 2>/dev/null | grep -c 'Free Software Foundation'),0)
LTO     = -flto=auto -ffat-lto-objects
endif
endif
LTO_LD   = $(if $(LTO),-flto=auto)
# (an archive of LTO objects needs gcc's plugin for its index)
AR_LTO   = $(if $(LTO),gcc-ar,ar)

# Profile-guided optimization, with LTO (gcc, not the sanitizer build):
# the library and the viewer are first built instrumented in $(B)/pgo/
# (PGO_GEN=1 there), that viewer imports the bundled traces of PGO_TRAIN
# (not the benchmarks' Chromium sample: one of each kind the importers
# read), and the objects of $(B) are then compiled with the profile it
# wrote to $(PGO_DATA). Both builds name each object's profile alike
# (-dumpdir/-dumpbase): gcc's profile id of a static function includes
# that name. Code the training never ran is compiled as without a profile
# (-fprofile-partial-training). The profile is made once per build
# folder, and an object compiled again after a change goes without it
# (PGO_FLAGS): make clean makes it all again. Measured on the Chromium
# class (one thread, callgrind): 3.302G instructions with LTO at -O3,
# 3.145G with this too (-4.8 %); 40 alternating whole runs against the
# LTO build: median pair ratio 0.951.
PGO      ?= 1
PGO_GEN  ?=
PGO_DATA ?= $(abspath $(B))/pgo-data
PGO_TRAIN = tests/data/chromium-tiny.pftrace tests/data/chromium-tiny-zstd-packets.pftrace \
	    tests/data/chromium-window.json.gz tests/data/chromium-names-all.json.gz \
	    tests/data/kernel-ftrace.txt.gz tests/data/strace-bash.strace \
	    tests/data/ctf/lttng-ust-tiny tests/data/ctf/dmesg-ctf
ifneq ($(LTO),)
ifeq ($(PGO),1)
PGO_STAMP = $(B)/pgo.done
PGO_USE   = -fprofile-use -fprofile-partial-training -Wno-missing-profile -Wno-coverage-mismatch
endif
endif
PGO_NAME = -dumpdir $(PGO_DATA)/ -dumpbase $(subst /,~,$(1)).c -dumpbase-ext .c
# $(call PGO_FLAGS,object,name): the instrumented build's flags, or the
# profile's for an object compiled the first time. An object compiled
# again (its source or a header changed since) goes without: gcc would
# read a stale profile, and where a function's profile no longer fits,
# warns of missing counts in its callers, with no option to silence it.
PGO_FLAGS = $(if $(PGO_GEN),$(call PGO_NAME,$(2)),$(if $(PGO_USE),$(if $(wildcard $(1)),,$(PGO_USE) $(call PGO_NAME,$(2)))))
WARN     = -std=c11 -Wall -Wextra -Werror
# Include paths are per folder (INC below), so that a forbidden include fails
# the build: tui/ and metrics/ see only the public API (copied into
# $(B)/api), importers see core/ and core/import/ but not core/sql/ nor
# core/internal/, and a format's folder sees only its own headers besides
# those.
CPPFLAGS = -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -D_XOPEN_SOURCE_EXTENDED \
	   $(INC) -MMD -MP \
	   -DTT_DATADIR='"$(PREFIX)/share/termtrace"' -DTT_SRCDIR='"$(CURDIR)"'
CFLAGS  ?=
ALLCFLAGS = $(WARN) $(OPT) $(CPPFLAGS) $(CFLAGS)
LDLIBS  = -lsqlite3 -lprotobuf-c -lyajl -ldw -lelf -lz -lzstd -lpthread -lm
TUI_LDLIBS = -lncursesw

# Debian packages that `make deps` installs when missing.
DEB_PKGS = build-essential libncurses-dev libsqlite3-dev libprotobuf-c-dev \
	   protobuf-c-compiler libcmocka-dev zlib1g-dev libzstd-dev libyajl-dev tmux \
	   babeltrace2 clang libclang-rt-14-dev python3 sqlite3 libelf-dev libdw-dev

# ---- sources: one list per component -----------------------------------
CORE_SRCS   = core/err.c core/strpool.c core/keymap.c core/packcol.c core/storage.c core/storage_args.c core/storage_argsets.c core/storage_mem.c core/regex_guard.c core/trace.c core/textfile.c
IMPORT_SRCS = core/import/import.c core/import/bytesrc.c core/import/slice_tracker.c core/import/sorter.c \
	      core/import/async_tracker.c core/import/workq.c core/import/process_tracker.c \
	      core/import/track_tracker.c core/import/args_tracker.c core/import/flow_tracker.c \
	      core/import/atrace.c core/import/atrace_tracker.c core/import/sched_tracker.c \
	      core/import/memory_tracker.c core/import/binder_tracker.c
SQL_SRCS    = core/sql/query.c core/sql/vtab.c core/sql/vtab_tables.c core/sql/query_limit.c \
	      core/sql/perfetto_sql.c core/sql/psql_macro.c core/sql/psql_func.c core/sql/psql_tablefn.c \
	      core/sql/modules.c core/sql/modules_docs.c
JSON_SRCS   = core/import/json/import_json.c core/import/json/json_parse.c core/import/json/json_event.c \
	      core/import/json/json_feed.c core/import/json/json_chunks.c \
	      core/import/json/json_lenient.c core/import/json/json_tokerr.c \
	      core/import/json/json_systrace.c
SYSTRACE_SRCS = core/import/systrace/systrace_line.c core/import/systrace/systrace.c core/import/systrace/import_systrace.c
STRACE_SRCS = core/import/strace/import_strace.c
PROTO_SRCS  = core/import/proto/import_proto.c core/import/proto/proto_packet.c core/import/proto/proto_clock.c core/import/proto/proto_inflate.c \
	      core/import/proto/proto_read.c core/import/proto/proto_tecache.c \
	      core/import/proto/proto_args.c core/import/proto/proto_desc.c \
	      core/import/proto/proto_track_event.c core/import/proto/proto_ftrace.c core/import/proto/proto_sched.c \
	      core/import/proto/proto_systrace.c \
	      core/import/proto/proto_feed.c
PROTO_FILES = protos/perfetto_trace.proto
CTF_SRCS    = core/import/ctf/import_ctf.c core/import/ctf/ctf_read.c core/import/ctf/ctf_metadata.c core/import/ctf/ctf_meta_lex.c core/import/ctf/ctf_meta_types.c core/import/ctf/ctf_meta_resolve.c core/import/ctf/ctf_stream.c core/import/ctf/ctf_decode.c \
	      core/import/ctf/ctf_debuginfo.c core/import/ctf/ctf_store.c
DESCRIBE_SRCS = core/describe.c core/describe_match.c core/describe_expand.c \
		core/sql/vtab_describe_slice.c core/sql/vtab_describe_rules.c
METRICS_SRCS = metrics/metrics.c core/annotate.c
METRICS_PROTO_FILES = protos/metrics.proto protos/metrics_test.proto
TUI_SRCS    = tui/argtree.c tui/osc.c tui/mouse.c tui/tracktree.c tui/trackops.c tui/viewer.c tui/view.c tui/layout.c tui/lod.c tui/timeline.c tui/timefmt.c tui/timemath.c tui/details.c tui/details_track.c tui/cmdbar.c tui/table.c tui/help.c tui/keys.c tui/confline.c tui/theme.c tui/theme_builtin.c tui/cmd_metrics.c tui/cmd_describe.c tui/cmd_describe_report.c
TUI_SRCS   += tui/flows.c tui/range.c tui/aggregate.c tui/calltree.c tui/marks.c tui/search.c tui/report.c tui/flame.c tui/rangepanel.c tui/treepanel.c
MAIN_SRC    = tui/main.c

GEN_SRCS = $(patsubst protos/%.proto,$(B)/gen/%.pb-c.c,$(PROTO_FILES) $(METRICS_PROTO_FILES))
GEN_HDRS = $(GEN_SRCS:.c=.h)
# Perfetto's built-in functions and tables (core/sql/builtins.h)
SQL_SRCS   += core/sql/builtins.c core/sql/functions.c core/sql/functions_window.c core/sql/functions_clock.c core/sql/functions_ftrace.c core/sql/vtab_table_info.c core/sql/vtab_func.c core/sql/vtab_ancestor.c \
	      core/sql/vtab_flow.c core/sql/vtab_slice_layout.c core/sql/span_join.c core/sql/intervals.c \
	      core/sql/flamegraph.c core/sql/flamegraph_build.c
# Perfetto's state tracks (issue 16)
SQL_SRCS   += core/sql/vtab_state.c core/sql/vtab_profile.c core/sql/vtab_system.c
PROTO_SRCS += core/import/proto/proto_state.c core/import/proto/proto_callstack.c \
	      core/import/proto/proto_typed_args.c core/import/proto/proto_ext.c core/import/proto/proto_meta.c \
	      core/import/proto/proto_sysstats.c core/import/proto/proto_kernel.c \
	      core/import/proto/proto_heaps.c core/import/proto/proto_translate.c core/import/proto/proto_net.c \
	      core/import/proto/proto_io.c core/import/proto/proto_system.c \
	      core/import/proto/proto_power.c core/import/proto/proto_cma.c \
	      core/import/proto/proto_cpu_uid.c core/import/proto/proto_fs.c core/import/proto/proto_generic_kernel.c \
	      core/import/proto/proto_gpu.c core/import/proto/proto_drm.c core/import/proto/proto_v4l2.c core/import/proto/proto_virtio.c
# the tracing service's own packets and the trace config
PROTO_SRCS += core/import/proto/proto_service.c core/import/proto/proto_text.c
CORE_SRCS  += core/profile.c core/task_state.c
LIB_SRCS = $(CORE_SRCS) $(IMPORT_SRCS) $(SQL_SRCS) $(JSON_SRCS) $(SYSTRACE_SRCS) $(STRACE_SRCS) $(PROTO_SRCS) $(CTF_SRCS) $(DESCRIBE_SRCS) $(METRICS_SRCS)
LIB_OBJS = $(patsubst %.c,$(B)/%.o,$(LIB_SRCS)) $(GEN_SRCS:.c=.o)
TUI_OBJS = $(patsubst %.c,$(B)/%.o,$(TUI_SRCS))
MAIN_OBJ = $(patsubst %.c,$(B)/%.o,$(MAIN_SRC))

TEST_SRCS  = $(wildcard tests/test_*.c)
TEST_UTIL  = tests/testutil.c
TEST_BINS  = $(patsubst tests/%.c,$(B)/tests/%,$(TEST_SRCS))
BENCH_SRCS = $(wildcard tests/bench/bench_*.c)
BENCH_BINS = $(patsubst tests/bench/%.c,$(B)/bench/%,$(BENCH_SRCS))

ifeq ($(B),build)
BIN = termtrace
else
BIN = $(B)/termtrace
endif

.PHONY: all deps run test check check-asan tests-build bench install clean fuzz fuzz-smoke
all: $(BIN)

deps:
	@missing=""; for p in $(DEB_PKGS); do \
		dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		echo "installing:$$missing"; \
		$$sudo apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing; \
	fi

run: deps
	@$(MAKE) --no-print-directory all
	./termtrace info $(TRACE)
	./termtrace $(TRACE)

# ---- include paths, per folder -------------------------------------------
# GNU make picks the most specific pattern, so core/import/json/ gets its own.
API_HDRS = $(B)/api/termtrace.h $(B)/api/err.h $(B)/api/metrics.h
# core/internal/ (the column layout, storage_int.h) is seen by storage and
# SQL code only: importers and trackers go through storage.h.
CORE_INC = -Icore -Icore/internal -Icore/import -Icore/sql -I$(B)/gen
IMP_INC  = -Icore -Icore/import -I$(B)/gen
ALL_INC  = $(CORE_INC) $(patsubst %,-I%,$(wildcard core/import/*/)) -Imetrics -Itui -Itests -I$(B)/gen
$(B)/core/%.o:              INC = $(CORE_INC)
$(B)/core/import/%.o:       INC = $(IMP_INC)
# (a JSON trace's systemTraceEvents are systrace text: json/ uses systrace/,
# as trace processor's JSON importer uses its systrace line parser)
$(B)/core/import/json/%.o:  INC = $(IMP_INC) -Icore/import/json -Icore/import/systrace
$(B)/core/import/systrace/%.o: INC = $(IMP_INC) -Icore/import/systrace
$(B)/core/import/strace/%.o: INC = $(IMP_INC) -Icore/import/strace
$(B)/core/import/proto/%.o: INC = $(IMP_INC) -Icore/import/proto
$(B)/core/import/ctf/%.o:   INC = $(IMP_INC) -Icore/import/ctf
$(B)/metrics/%.o:           INC = -Imetrics -I$(B)/api -I$(B)/gen
$(B)/tui/%.o:               INC = -Itui -I$(B)/api
$(B)/gen/%.o:               INC = -I$(B)/gen
INC ?= $(ALL_INC)

# The public API, as tui/ and metrics/ see it.
$(B)/api/%.h: core/%.h
	@mkdir -p $(B)/api
	$(Q)cp $< $@
$(B)/api/metrics.h: metrics/metrics.h
	@mkdir -p $(B)/api
	$(Q)cp $< $@

# ---- build rules ----------------------------------------------------------
# Generated sources are kept (not deleted as intermediates) so that a second
# make does nothing.
.SECONDARY:

$(B)/gen/%.pb-c.c $(B)/gen/%.pb-c.h: protos/%.proto
	@mkdir -p $(B)/gen
	$(Q)protoc-c --proto_path=protos --c_out=$(B)/gen $<

# Generated code is protoc-c's, not ours: keep warnings on, not -Werror.
$(B)/gen/%.pb-c.o: $(B)/gen/%.pb-c.c | $(PGO_STAMP)
	$(Q)$(CC) -std=c11 $(OPT) $(LTO) $(call PGO_FLAGS,$@,gen/$*.pb-c) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(B)/%.o: %.c | $(GEN_HDRS) $(API_HDRS) $(PGO_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(V),,echo '  CC    $<')
	$(Q)$(CC) $(ALLCFLAGS) $(LTO) $(call PGO_FLAGS,$@,$*) -c $< -o $@

# The profile (see PGO above).
$(B)/pgo.done:
	@rm -rf $(PGO_DATA)
	@$(MAKE) --no-print-directory B=$(B)/pgo PGO=0 PGO_GEN=1 PGO_DATA=$(PGO_DATA) \
		OPT="$(OPT) -fprofile-generate -fprofile-update=atomic" LDSAN="-fprofile-generate" $(B)/pgo/termtrace
	@echo '  PGO   training on $(words $(PGO_TRAIN)) bundled traces'
	$(Q)for t in $(PGO_TRAIN); do $(B)/pgo/termtrace query "$$t" 'select count(*) from slice' >/dev/null 2>&1 || true; done
	$(Q)touch $@

$(B)/libtermtrace.a: $(LIB_OBJS)
	$(Q)rm -f $@; $(AR_LTO) rcs $@ $^

$(B)/libtermtrace_tui.a: $(TUI_OBJS)
	$(Q)rm -f $@; $(AR_LTO) rcs $@ $^

$(BIN): $(MAIN_OBJ) $(B)/libtermtrace_tui.a $(B)/libtermtrace.a
	@$(if $(V),,echo '  LD    $@')
	$(Q)$(CC) $(OPT) $(LTO_LD) $(LDSAN) -o $@ $^ $(TUI_LDLIBS) $(LDLIBS)

$(B)/tests/%: tests/%.c $(B)/tests/testutil.o $(B)/libtermtrace_tui.a $(B)/libtermtrace.a | $(GEN_HDRS)
	@mkdir -p $(dir $@)
	@$(if $(V),,echo '  TEST  $@')
	$(Q)$(CC) $(ALLCFLAGS) $(if $(LTO),-fno-lto) -o $@ $< $(B)/tests/testutil.o $(B)/libtermtrace_tui.a \
		$(B)/libtermtrace.a $(LDSAN) -lcmocka $(TUI_LDLIBS) $(LDLIBS)

$(B)/bench/%: tests/bench/%.c $(B)/libtermtrace_tui.a $(B)/libtermtrace.a | $(GEN_HDRS)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALLCFLAGS) $(LTO_LD) -o $@ $< $(B)/libtermtrace_tui.a $(B)/libtermtrace.a $(LDSAN) $(TUI_LDLIBS) $(LDLIBS)

tests-build: $(BIN) $(TEST_BINS)

# ---- tests ----------------------------------------------------------------
# `make test` = deps + both builds + every suite; the last line it prints is
# "N passed, N failed".
JOBS ?= 2
test: deps
	@$(MAKE) --no-print-directory -j$(JOBS) tests-build
	@$(MAKE) --no-print-directory -j$(JOBS) B=build-asan SAN=1 tests-build
	@$(MAKE) --no-print-directory -j$(JOBS) fuzz-smoke
	@tests/run.sh build build-asan

check: tests-build
	@tests/run.sh build

check-asan:
	@$(MAKE) --no-print-directory -j$(JOBS) B=build-asan SAN=1 tests-build
	@tests/run.sh build-asan

bench: deps
	@$(MAKE) --no-print-directory B=build-bench OPT="-O3 -g -DNDEBUG" build-bench/termtrace $(patsubst $(B)/%,build-bench/%,$(BENCH_BINS))
	@tests/bench/run.sh build-bench

# ---- install ----------------------------------------------------------------
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/termtrace
	install -m 755 termtrace $(DESTDIR)$(PREFIX)/bin/termtrace
	cp -r themes $(DESTDIR)$(PREFIX)/share/termtrace/
	cp -r core/sql/modules $(DESTDIR)$(PREFIX)/share/termtrace/
	[ ! -d descriptions ] || cp -r descriptions $(DESTDIR)$(PREFIX)/share/termtrace/
	[ ! -d metrics ] || { install -d $(DESTDIR)$(PREFIX)/share/termtrace/metrics; \
		cp metrics/*.sql $(DESTDIR)$(PREFIX)/share/termtrace/metrics/ 2>/dev/null || true; }
	[ ! -f docs/termtrace.1 ] || { install -d $(DESTDIR)$(PREFIX)/share/man/man1; \
		install -m 644 docs/termtrace.1 $(DESTDIR)$(PREFIX)/share/man/man1/; }

clean:
	rm -rf build build-asan build-bench build-fuzz termtrace

# ---- fuzzing ----------------------------------------------------------------
# libFuzzer targets (tests/fuzz/fuzz_<target>.c), built with clang into build-fuzz/:
# the library with -fsanitize=fuzzer-no-link,address,undefined (a recursive
# make of the ordinary rules with CC/OPT swapped), each target linked with
# -fsanitize=fuzzer,address,undefined. tests/fuzz/run.sh replays the seed corpus
# tests/fuzz/corpus/<target>/ and fuzzes; new inputs go to
# build-fuzz/corpus/<target>/, crashes to build-fuzz/artifacts/<target>/.
#   make fuzz-smoke                     every target, ~60 s in total (make test),
#                                       fixed seed, <= 3000 inputs a target
#   make fuzz FUZZ_SECONDS=600 [FUZZ_TARGETS="json proto"]   long runs
FUZZ_B       = build-fuzz
FUZZ_CC     ?= clang
FUZZ_OPT     = -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined \
	       -fno-sanitize-recover=all
FUZZ_LDSAN   = -fsanitize=fuzzer,address,undefined
FUZZ_TARGETS ?= json json_chunks systrace systrace_file strace proto proto_packet ctf_metadata ctf_stream ctf_trace describe theme annotate view perfetto_sql
FUZZ_BINS    = $(patsubst %,$(FUZZ_B)/fuzz/fuzz_%,$(FUZZ_TARGETS))
FUZZ_SECONDS ?= 300
FUZZ_SMOKE_SECONDS ?= 60

.PHONY: fuzz-build fuzz-bins
fuzz-build:
	@$(MAKE) --no-print-directory B=$(FUZZ_B) CC=$(FUZZ_CC) OPT="$(FUZZ_OPT)" LTO= LDSAN="$(FUZZ_LDSAN)" fuzz-bins

fuzz-bins: $(FUZZ_BINS)

$(FUZZ_B)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_common.h $(FUZZ_B)/libtermtrace_tui.a $(FUZZ_B)/libtermtrace.a | $(GEN_HDRS)
	@mkdir -p $(dir $@)
	@$(if $(V),,echo '  FUZZ  $@')
	$(Q)$(CC) $(ALLCFLAGS) -o $@ $< $(FUZZ_B)/libtermtrace_tui.a $(FUZZ_B)/libtermtrace.a \
		$(FUZZ_LDSAN) $(TUI_LDLIBS) $(LDLIBS)

fuzz-smoke: fuzz-build
	@tests/fuzz/run.sh smoke $(FUZZ_SMOKE_SECONDS) $(FUZZ_TARGETS)

fuzz: fuzz-build
	@tests/fuzz/run.sh long $(FUZZ_SECONDS) $(FUZZ_TARGETS)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
