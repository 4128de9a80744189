#!/usr/bin/env bash
# Command-line behaviour: info, query and its formats, SQL from -f/stdin,
# exit codes (0 ok, 1 bad input or query, 2 usage), one-line errors that
# name the file, and the input file left untouched.
set -u
T=${TT_BIN:-./termtrace}
D=tests/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/../shlib.sh"

out=$($T info $D/chromium-tiny.json); rc=$?
check "info exits 0" 0 $rc
check "info names the format" "format:        chrome-json" "$(grep '^format:' <<<"$out")"
check "info counts slices" "  slice        514" "$(grep '^  slice ' <<<"$out")"
check "info time range" "time range:    958160867000 .. 960387079000 ns (958.160867000 s .. 960.387079000 s)" "$(grep '^time range:' <<<"$out")"
check "info lists non-zero stats" "  slice_end_unmatched          error     1" "$($T info $D/uftrace-work.json | grep slice_end_unmatched)"

out=$($T query $D/chromium-tiny.json "select name, count(*) c from slice group by name order by c desc limit 3")
check "query table" "name                                      c
----------------------------------------  ---
V8.BytecodeBudgetInterrupt                268
RunMicrotasks                             59
V8.BytecodeBudgetInterruptWithStackCheck  36" "$out"

gzip -c $D/chromium-tiny.json > "$tmp/t.json.gz"
out=$($T query --format tsv "$tmp/t.json.gz" "select ts, dur, name from slice where dur > 10000000 order by ts")
check "query tsv on .json.gz" "ts	dur	name
958487543000	16255000	heavyTask 0
958625644000	11337000	heavyTask 1
959908176000	12215000	heavyTask 11
960072998000	11933000	heavyTask 12
960376279000	10280000	heavyTask 14" "$out"

check "csv without header" "514" "$($T query --format csv --no-header $D/chromium-tiny.json 'select count(*) from slice')"
check "json format" '[
{"n":514}
]' "$($T query --format=json $D/chromium-tiny.json 'select count(*) n from slice')"
echo "select count(*) from thread where utid > 0;" > "$tmp/q.sql"
check "sql from -f" "6" "$($T query --no-header --format tsv -f "$tmp/q.sql" $D/chromium-tiny.json)"
check "sql from stdin" "3" "$(echo 'select 1; select count(*) from process where pid > 0' | $T query --no-header --format tsv $D/chromium-tiny.json)"

err=$($T query $D/chromium-tiny.json "select * from nope" 2>&1 >/dev/null); rc=$?
check "bad query exits 1" 1 $rc
check "bad query message" "termtrace: query error: no such table: nope" "$err"

printf 'not a trace' > "$tmp/bad.bin"
err=$($T info "$tmp/bad.bin" 2>&1 >/dev/null); rc=$?
check "bad input exits 1" 1 $rc
check "bad input one line naming the file" "termtrace: $tmp/bad.bin: unknown format (not Chrome JSON, Perfetto protobuf, systrace, strace or CTF); first byte 0x6e" "$err"
err=$($T info "$tmp/missing.json" 2>&1 >/dev/null); rc=$?
check "missing file exits 1" "1 termtrace: $tmp/missing.json: no such file or directory" "$rc $err"

$T --bogus >/dev/null 2>&1; check "unknown option exits 2" 2 $?
$T query >/dev/null 2>&1; check "query without trace exits 2" 2 $?
$T >/dev/null 2>&1; check "no arguments exits 2" 2 $?
check "--version" "termtrace 0.1.0" "$($T --version)"
$T --help | grep -q '^usage: termtrace'; check "--help" 0 $?

# The input is never written: same bytes and mtime after a run.
cp $D/chromium-tiny.json "$tmp/ro.json"; touch -d '2001-01-01' "$tmp/ro.json"
before=$(stat -c '%Y %s' "$tmp/ro.json"; sha1sum < "$tmp/ro.json")
$T query "$tmp/ro.json" "create table x(a); insert into x values(1); select * from x" >/dev/null
after=$(stat -c '%Y %s' "$tmp/ro.json"; sha1sum < "$tmp/ro.json")
check "trace file untouched" "$before" "$after"
check "nothing written next to the trace" "ro.json" "$(ls "$tmp" | grep ro)"

# A truncated file keeps what came before and warns on stderr.
head -c 60000 $D/chromium-tiny.json > "$tmp/cut.json"
err=$($T query --no-header --format tsv "$tmp/cut.json" "select value from stats where name = 'json_truncated'" 2>&1)
check "truncated file: warning and stat" "termtrace: warning: $tmp/cut.json: json text ends inside the event array at byte 60000
1" "$err"
# 376 = the X/I/R/b events among the 387 complete events before byte 60000
# (python's json.raw_decode over the same prefix).
check "truncated file keeps exactly the complete events" "376" "$($T query --no-header --format tsv "$tmp/cut.json" "select count(*) from slice" 2>/dev/null)"
check "info says where a cut file stopped" "problems:
  json text ends inside the event array at byte 60000" "$($T info "$tmp/cut.json" 2>/dev/null | grep -A1 '^problems:')"

# --timeout stops a runaway query (a triple cross join) with one line.
start=$(date +%s)
err=$(timeout 30 $T query --timeout 0.5 $D/chromium-tiny.json "select count(*) from slice a, slice b, slice c" 2>&1 >/dev/null); rc=$?
check "--timeout: exit 1 and the reason" "1 termtrace: query error: stopped after the 0.5 s --timeout" "$rc $err"
check "--timeout: within seconds" "1" "$(( $(date +%s) - start < 10 ))"
$T query --timeout x $D/chromium-tiny.json "select 1" >/dev/null 2>&1; check "--timeout x is a usage error" 2 $?
check "a query within the limit runs" "514" "$($T query --timeout 5 --no-header --format tsv $D/chromium-tiny.json 'select count(*) from slice')"

# Unsupported TSDL is reported by name (issue 8: "counted and reported by
# name, not silently dropped"): an unknown trace attribute and a block.
cp -r $D/ctf/dmesg-ctf "$tmp/ctf-extra"; chmod -R u+w "$tmp/ctf-extra"
sed -i '5a\	frobnicate = 3;' "$tmp/ctf-extra/metadata"
printf '\ncallsite {\n\tname = "x";\n};\n' >> "$tmp/ctf-extra/metadata"
check "skipped TSDL features by name in info" \
	"  ctf_metadata_unsupported     info      2  (attribute 'frobnicate': 1, block 'callsite': 1)" \
	"$($T info "$tmp/ctf-extra" 2>&1 | grep ctf_metadata_unsupported)"
check "the trace itself still imports" "5000" "$($T query --no-header --format tsv "$tmp/ctf-extra" 'select count(*) from raw')"

# PerfettoSQL scripts (issue 17): -f and stdin run several statements, the
# last one's rows are printed; --modules adds a folder of modules.
cat > "$tmp/p.sql" <<'SQL'
-- a script as Perfetto users write them
INCLUDE PERFETTO MODULE slices.with_context;
CREATE PERFETTO MACRO top(n Expr) RETURNS TableOrSubquery AS
  (SELECT name, count(*) AS c FROM thread_slice GROUP BY name ORDER BY c DESC, name LIMIT $n);
CREATE PERFETTO FUNCTION halve(x LONG) RETURNS LONG AS SELECT $x / 2;
SELECT name, halve(c) AS h FROM top!(2);
SQL
check "-f runs a PerfettoSQL script" "name	h
V8.BytecodeBudgetInterrupt	134
RunMicrotasks	29" "$($T query --format tsv -f "$tmp/p.sql" $D/chromium-tiny.json)"
check "the same from stdin" "$($T query --format tsv -f "$tmp/p.sql" $D/chromium-tiny.json)" \
	"$($T query --format tsv $D/chromium-tiny.json < "$tmp/p.sql")"
mkdir -p "$tmp/mods/team"
echo "CREATE PERFETTO TABLE team_busy AS SELECT count(*) AS n FROM slice WHERE dur > 10000000;" > "$tmp/mods/team/busy.sql"
check "--modules DIR: a user module by name" "5" \
	"$($T query --no-header --format tsv --modules "$tmp/mods" $D/chromium-tiny.json 'INCLUDE PERFETTO MODULE team.busy; SELECT n FROM team_busy')"
err=$($T query $D/chromium-tiny.json 'INCLUDE PERFETTO MODULE no.such' 2>&1); rc=$?
check "unknown module: exit 1, the known ones listed" "1 termtrace: query error: no module 'no.such' (known: android.aflags, android.entity_state_residency, android.power_rails, android.user_list, counters.intervals, intervals.intersect, intervals.overlap" "$rc ${err%%, slices.*}"
err=$($T query -f "$tmp/p.sql" --modules /nonexistent $D/chromium-tiny.json 2>&1); rc=$?
check "--modules on a missing folder" "1 termtrace: --modules /nonexistent: not a folder" "$rc $err"
printf 'SELECT 1;\nCREATE PERFETTO TABLE x AS SELECT * FROM nowhere;\n' > "$tmp/bad.sql"
err=$($T query -f "$tmp/bad.sql" $D/chromium-tiny.json 2>&1); rc=$?
check "a script error names the file, line and column" "1 termtrace: query error: $tmp/bad.sql: line 2 col 1: no such table: nowhere" "$rc $err"
check "a script ending in CREATE PERFETTO: an empty JSON array" "[]" \
	"$($T query --format json $D/chromium-tiny.json 'CREATE PERFETTO TABLE t AS SELECT 1 AS a')"
