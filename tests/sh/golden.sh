#!/usr/bin/env bash
# Golden dumps: each trace listed below is dumped with the same SQL (every
# process, thread, track, slice, counter, flow and non-zero stat, in a
# fixed order) and diffed against tests/golden/<trace>.expect.
# After an intended change: TT_GOLDEN_UPDATE=1 tests/sh/golden.sh, then
# read the diff before committing it.
set -u
cd "$(dirname "$0")/../.."
T=${TT_BIN:-./termtrace}
TRACES="chromium-tiny.json uftrace-work.json ${TT_GOLDEN_EXTRA:-}"
for extra in tests/golden/*.expect; do
	n=$(basename "$extra" .expect)
	case " $TRACES " in *" $n "*) ;; *) [ -e "tests/data/$n" ] && TRACES="$TRACES $n" ;; esac
done

DUMP="
select 'process', upid, pid, name, parent_upid from process order by upid;
select 'thread', utid, tid, name, upid from thread order by utid;
select 'track', id, name, type, utid, upid, is_counter from track order by id;
select 'slice', id, ts, dur, track_id, depth, parent_id, category, name, arg_set_id from slice order by id;
select 'args', arg_set_id, key, value_type, display_value from args order by id;
select 'counter', id, ts, track_id, value from counter order by id;
select 'flow', slice_out, slice_in from flow order by id;
select 'raw', id, ts, name, cpu, utid from raw order by id;
select 'stat', name, value from stats where value != 0 order by name, idx;
"
# JSON traces are dumped a second time parsed in parallel chunks of 97 and
# 1000 bytes (TT_JSON_CHUNK): the dump must be the same golden dump.
RUNS=""
for t in $TRACES; do
	RUNS="$RUNS $t"
	case $t in *.json) RUNS="$RUNS $t@97 $t@1000" ;; esac
done
# The same trace in another form must give the same dump: FILE:GOLDEN.
# chromium-tiny-zstd-packets.pftrace holds chromium-tiny.pftrace's packets
# in two zstd_compressed_packets (as the tracing service writes them with
# compression_type ZSTD); chromium-tiny.pftrace.zst is the file zstd'ed.
# strace-bash.strace is strace -f -ttt of a shell running ls, sleep (a
# child) and cat. kernel-ftrace.txt is the kernel's own trace file (tracefs, record-tgid on:
# sched, cpu_idle, workqueue events and atrace markers written to
# trace_marker); .html is it inside a systrace page, .ctrace as `atrace -z`
# writes it (zlib behind "TRACE:\n"), .txt.gz gzip'ed.
RUNS="$RUNS chromium-tiny-zstd-packets.pftrace:chromium-tiny.pftrace chromium-tiny.pftrace.zst:chromium-tiny.pftrace"
RUNS="$RUNS kernel-ftrace.html:kernel-ftrace.txt kernel-ftrace.ctrace:kernel-ftrace.txt kernel-ftrace.txt.gz:kernel-ftrace.txt"
for run in $RUNS; do
	t=${run%@*}
	chunk=; [ "$run" != "$t" ] && chunk=${run#*@}
	g=${t#*:}
	t=${t%%:*}
	[ "$g" != "$t" ] && [ -n "${TT_GOLDEN_UPDATE:-}" ] && continue
	[ -n "$chunk" ] && [ -n "${TT_GOLDEN_UPDATE:-}" ] && continue
	exp=tests/golden/$g.expect
	out=$(mktemp)
	# one query per table keeps the dump readable; all in one process each
	while IFS= read -r q; do
		[ -n "$q" ] || continue
		TT_JSON_CHUNK=$chunk "$T" query --format tsv --no-header "tests/data/$t" "$q" 2>&1
	done <<<"$DUMP" >"$out"
	[ "$g" != "$t" ] && t="$t (as $g)"
	[ -n "$chunk" ] && t="$t in chunks of $chunk bytes"
	if [ -n "${TT_GOLDEN_UPDATE:-}" ]; then
		cp "$out" "$exp"
		echo "ok - $t (golden updated: $(wc -l <"$exp") lines)"
	elif [ ! -f "$exp" ]; then
		echo "not ok - $t: no $exp (run with TT_GOLDEN_UPDATE=1)"
	elif diff -u "$exp" "$out" >"$out.diff"; then
		echo "ok - $t matches its golden dump ($(wc -l <"$exp") lines)"
	else
		echo "not ok - $t differs from $exp:"
		head -40 "$out.diff" | sed 's/^/#   /'
	fi
	rm -f "$out" "$out.diff"
done
