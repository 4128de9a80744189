#!/usr/bin/env bash
# proto.sh - the command line on Perfetto protobuf traces, as issue 3's user
# types it:
#   termtrace info chrome-startup.pftrace
#   termtrace query TRACE "select t.name, count(*) from slice s join thread_track tt ..."
#   termtrace query TRACE.gz "select ts, dur, name from slice where name like ..."
# Expected numbers come from tests/tools/pftrace_walk.py (an independent
# wire walker) on the same files. $TT_BIN is the termtrace binary.
set -u
T=${TT_BIN:-./termtrace}
D=tests/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/../shlib.sh"

out=$($T info $D/chromium-tiny.pftrace); rc=$?
check "proto info exits 0" 0 $rc
check "proto info names the format" "format:        perfetto-proto" "$(grep '^format:' <<<"$out")"
check "proto info counts slices" "  slice        536" "$(grep '^  slice ' <<<"$out")"
check "proto info time range" "time range:    969228552000 .. 971296847099 ns (969.228552000 s .. 971.296847099 s)" "$(grep '^time range:' <<<"$out")"

out=$($T query --format tsv $D/chromium-tiny.pftrace "select t.name, count(*) from slice s join thread_track tt on s.track_id = tt.id join thread t using(utid) group by 1 order by 2 desc" 2>&1)
if [ "${out#name}" = "$out" ]; then hdr=""; else hdr=$(head -1 <<<"$out")$'\n'; fi
check "proto slices per thread" "${hdr}CrRendererMain	499
DedicatedWorker thread	33" "$out"

out=$($T query --format tsv $D/chromium-small.pftrace.gz "select count(*), sum(dur) from slice where name like 'Layout%'" 2>&1)
check "proto gzip query" "$(python3 - <<'PY'
import sys
sys.path.insert(0, 'tests/tools')
from pftrace_walk import slices
rows, tracks, stats = slices('tests/data/chromium-small.pftrace.gz')
sel = [r for r in rows if r[3].startswith('Layout')]
print("%d\t%d" % (len(sel), sum(r[1] for r in sel)))
PY
)" "$(tail -1 <<<"$out")"

# a truncated copy still opens, and says how many bytes it dropped
head -c 150000 $D/chromium-tiny.pftrace > "$tmp/cut.pftrace"
out=$($T info "$tmp/cut.pftrace"); rc=$?
check "proto truncated file opens" 0 $rc
check "proto truncated file is reported" "1" "$(grep -c '^  proto_truncated ' <<<"$out")"

# not a trace: one line naming the file and the byte offset, exit 1
printf '\nthis is text\n' > "$tmp/text.pftrace"
err=$($T info "$tmp/text.pftrace" 2>&1 >/dev/null); rc=$?
check "proto non-trace exits 1" 1 $rc
check "proto non-trace error is one line" 1 "$(wc -l <<<"$err")"
case "$err" in *"$tmp/text.pftrace"*"byte 0"*) echo "ok - proto non-trace error names file and offset";;
	*) echo "not ok - proto non-trace error names file and offset"; echo "#   $err";; esac
