#!/usr/bin/env bash
# metrics_cli.sh - the command line of metrics (issue 7): `termtrace
# metrics --list`, `termtrace metrics TRACE --run ...` in each format, the
# errors and exit codes, and `--metrics` on `query` / `info`.
# Prints "ok - what" / "not ok - what".
set -u
cd "$(dirname "$0")/../.."
T=${TT_BIN:-./termtrace}
D=tests/data
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# only the shipped metrics
export XDG_CONFIG_HOME=$TMP/cfg
unset TT_METRICS_PATH

. "$(dirname "$0")/../shlib.sh"

out=$($T metrics --list 2>&1); rc=$?
check "metrics --list exits 0" 0 $rc
check "metrics --list names the shipped metrics" \
	"android_ion android_startup chrome_long_tasks long_gc lost_events thread_utilization" \
	"$(awk '{print $1}' <<<"$out" | tr '\n' ' ' | sed 's/ $//')"
check "metrics --list shows each summary" \
	"chrome_long_tasks    Main-thread tasks (CrBrowserMain, CrRendererMain) of 50 ms or more (warning), 250 ms or more (error)." \
	"$(grep '^chrome_long_tasks' <<<"$out")"

out=$($T metrics $D/chromium-tiny.json --run chrome_long_tasks 2>&1); rc=$?
check "metrics --run exits 0" 0 $rc
check "metrics --run prints protobuf text format" "chrome_long_tasks {
  warning_threshold_ns: 50000000
  error_threshold_ns: 250000000
  task_count: 312
  long_task_count: 0
  warning_count: 0
  error_count: 0
  long_task_dur_ns: 0
}" "$out"

out=$($T metrics $D/chromium-tiny.json --run lost_events,chrome_long_tasks --format json 2>&1)
check "metrics --format json" '{
  "chrome_long_tasks": {
    "warning_threshold_ns": 50000000,
    "error_threshold_ns": 250000000,
    "task_count": 312,
    "long_task_count": 0,
    "warning_count": 0,
    "error_count": 0,
    "long_task_dur_ns": 0
  },
  "lost_events": {
    "total_lost": 0
  }
}' "$out"

# TraceMetrics { lost_events (3) { total_lost (1): 0 } } = 1a 02 08 00
out=$($T metrics $D/chromium-tiny.json --run lost_events --format binary | od -An -tx1 | tr -s ' ' | sed 's/^ //')
check "metrics --format binary is the wire format" "1a 02 08 00" "$out"

out=$($T metrics $D/chromium-tiny.json --run nosuch 2>&1); rc=$?
check "unknown metric exits 1" 1 $rc
check "unknown metric is named" "termtrace: $D/chromium-tiny.json: unknown metric 'nosuch' (no nosuch.sql in \$TT_METRICS_PATH, the config folder, or the installed metrics; see termtrace metrics --list)" "$out"
$T metrics $D/chromium-tiny.json >/dev/null 2>&1; rc=$?
check "metrics without --run is a usage error" 2 $rc
$T metrics $D/chromium-tiny.json --run chrome_long_tasks --format xml >/dev/null 2>&1; rc=$?
check "unknown --format is a usage error" 2 $rc

# a user metric with a malformed annotations view: a clear error
mkdir -p "$TMP/m"
cat >"$TMP/m/bad_view.sql" <<'SQL'
-- broken on purpose
create view bad_view_annotations as
select 'slice' as track_type, 'T' as track_name, null as ts, 1 as dur, 'x' as slice_name, null as value;
SQL
out=$(TT_METRICS_PATH=$TMP/m $T query --metrics bad_view $D/chromium-tiny.json "select 1" 2>&1); rc=$?
check "query --metrics with a malformed view exits 1" 1 $rc
check "the error names the metric, the view, the row and the column" \
	"termtrace: metric bad_view: bad_view_annotations row 1: column ts is NULL" "$(grep -o 'termtrace: metric.*' <<<"$out" | head -1)"

out=$($T query --metrics chrome_long_tasks --format tsv --no-header $D/chromium-small.pftrace.gz \
	"select severity, count(*) from alert group by 1 order by 1" 2>&1)
check "query --metrics: alerts in SQL (main threads only)" "warning	1" "$out"
out=$($T query --metrics chrome_long_tasks,lost_events --format tsv --no-header $D/chromium-tiny.json \
	"select count(*) from alert" 2>&1)
check "query --metrics with no alert: the table exists and is empty" "0" "$out"
out=$($T info --metrics chrome_long_tasks $D/chromium-small.pftrace.gz 2>&1); rc=$?
check "info --metrics exits 0" 0 $rc
check "info --metrics counts the annotation slice" "  slice        30867" "$(grep '^  slice ' <<<"$out")"
