#!/usr/bin/env bash
# Hostile input at the command line (issue 8): cut, garbage, empty and
# not-a-trace files through `termtrace info`; every run is bounded by
# `timeout`, a cut file opens with what came before the cut and says what
# was lost and where, a refused file gets one line on stderr naming it and
# exit status 1, and the input is opened read-only: nothing is written
# next to it. (The in-process cases, hundreds per format, are in
# tests/test_corrupt.c.)
set -u
T=${TT_BIN:-./termtrace}
D=tests/data
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT

check() { # check NAME EXPECTED ACTUAL
	if [ "$2" == "$3" ]; then echo "ok - $1"; else
		echo "not ok - $1"; echo "#   expected: $(printf '%q' "$2")"; echo "#   actual:   $(printf '%q' "$3")"; fi
}

# run FILE: info with a time bound; sets out, err, rc
run() {
	out=$(timeout 30 $T info "$1" 2>"$tmp/err"); rc=$?
	err=$(cat "$tmp/err")
}

# ---- cut files keep their prefix and report the loss
head -c 70000 $D/chromium-tiny.json > "$tmp/cut.json"
run "$tmp/cut.json"
check "cut json opens" 0 $rc
check "cut json counts the loss" "  json_truncated               data_loss 1" "$(grep json_truncated <<<"$out")"
check "cut json says where" "  json text ends inside the event array at byte 70000" "$(sed -n '/^problems:/{n;p}' <<<"$out")"
# the same text closed right after its last complete event (python's own
# JSON decoder finds it): both must hold the same slices
python3 - "$tmp/cut.json" "$tmp/closed.json" <<'PY'
import json, sys
t = open(sys.argv[1], encoding="utf-8").read()
d, i, end = json.JSONDecoder(), t.index("[") + 1, t.index("[") + 1
while True:
    while i < len(t) and t[i] in " \t\r\n,":
        i += 1
    try:
        _, i = d.raw_decode(t, i)
    except ValueError:
        break
    end = i
open(sys.argv[2], "w", encoding="utf-8").write(t[:end] + "]}")
PY
q='select ts, dur, track_id, depth, name from slice order by id'
check "cut json keeps exactly the complete events" \
	"$(timeout 30 $T query --format tsv "$tmp/closed.json" "$q" 2>/dev/null | md5sum)" \
	"$(timeout 30 $T query --format tsv "$tmp/cut.json" "$q" 2>/dev/null | md5sum)"
check "cut json keeps 441 slices" 441 \
	"$(timeout 30 $T query --format csv --no-header "$tmp/cut.json" 'select count(*) from slice' 2>/dev/null)"

head -c 100000 $D/chromium-tiny.pftrace > "$tmp/cut.pftrace"
run "$tmp/cut.pftrace"
check "cut pftrace opens" 0 $rc
check "cut pftrace counts the dropped bytes" "  proto_truncated              data_loss 49384" "$(grep proto_truncated <<<"$out")"
check "cut pftrace says where" "  packet length beyond the end of the file at byte 50616: the last 49384 bytes were not read" \
	"$(sed -n '/^problems:/{n;p}' <<<"$out")"

mkdir -p "$tmp/ust"
cp $D/ctf/lttng-ust-tiny/ust/uid/0/64-bit/{metadata,chan0_0} "$tmp/ust/"
head -c 50000 $D/ctf/lttng-ust-tiny/ust/uid/0/64-bit/chan0_1 > "$tmp/ust/chan0_1"
run "$tmp/ust"
check "cut ctf stream opens" 0 $rc
check "cut ctf stream counts the cut packet" "  ctf_truncated                data_loss 1" "$(grep ctf_truncated <<<"$out")"
check "cut ctf stream says where" \
	"  $tmp/ust/chan0_1: packet at byte 49152: content_size (4096 bytes) runs past the end of the file (848 bytes left)" \
	"$(sed -n '/^problems:/{n;p}' <<<"$out")"

# a cut metadata file: refused, one line naming the file and the line
mkdir -p "$tmp/cutmeta"
cp $D/ctf/dmesg-ctf/stream "$tmp/cutmeta/"
head -c 600 $D/ctf/dmesg-ctf/metadata > "$tmp/cutmeta/metadata"
run "$tmp/cutmeta"
check "cut ctf metadata refused" "1 1" "$rc $(wc -l <<<"$err")"
check "cut ctf metadata says where" "termtrace: $tmp/cutmeta/metadata:30: expected '=', got 'end of metadata'" "$err"

# an event cut inside a packet: the events before it are kept
mkdir -p "$tmp/cutev"
cp $D/ctf/dmesg-ctf/metadata "$tmp/cutev/"
head -c 20011 $D/ctf/dmesg-ctf/stream > "$tmp/cutev/stream"
run "$tmp/cutev"
check "ctf event cut mid-packet opens" 0 $rc
check "... counted" "  ctf_truncated                data_loss 1" "$(grep ctf_truncated <<<"$out")"
check "... warned on stderr" 1 "$(grep -c "warning: $tmp/cutev: $tmp/cutev/stream: packet at byte 0: .*runs past the end of the file" <<<"$err")"

# an unknown attribute (a character literal, as babeltrace2 reads it) and
# a packet whose uuid differs: every event read, the warning on stderr of
# every command, query included
mkdir -p "$tmp/odd"
cp $D/ctf/lttng-ust-tiny/ust/uid/0/64-bit/{chan0_0,chan0_1} "$tmp/odd/"
printf '\xee' | dd of="$tmp/odd/chan0_1" bs=1 seek=4100 conv=notrunc 2>/dev/null
cp $D/ctf/lttng-ust-tiny/ust/uid/0/64-bit/metadata "$tmp/odd/"
qout=$(timeout 30 $T query --format csv --no-header "$tmp/odd" "select count(*) from raw" 2>"$tmp/err"); rc=$?
check "ctf uuid mismatch: query reads every event" "0 2072" "$rc $qout"
check "ctf uuid mismatch: query warns on stderr" \
	"termtrace: warning: $tmp/odd: $tmp/odd/chan0_1: packet at byte 4096: uuid differs from the metadata's (read anyway)" \
	"$(cat "$tmp/err")"
run "$tmp/odd"
check "ctf uuid mismatch: counted" "  ctf_uuid_mismatch            error     1" "$(grep ctf_uuid_mismatch <<<"$out")"
mkdir -p "$tmp/attr"
cp $D/ctf/dmesg-ctf/stream "$tmp/attr/"
sed 's/^\tmajor = 1;/\tmajor = 1;\n\ttest3 = '"'"'\\n'"'"';/' $D/ctf/dmesg-ctf/metadata > "$tmp/attr/metadata"
qout=$(timeout 30 $T query --format csv --no-header "$tmp/attr" "select count(*) from raw" 2>"$tmp/err"); rc=$?
check "ctf unknown attribute: query reads every event" "0 5000" "$rc $qout"
check "ctf unknown attribute: query warns on stderr" \
	"termtrace: warning: $tmp/attr: $tmp/attr/metadata:7: unknown attribute 'test3' skipped" "$(cat "$tmp/err")"

# ---- a 0-byte file is an empty trace (as in Perfetto), with a warning
: > "$tmp/empty.json"
run "$tmp/empty.json"
check "empty file opens" 0 $rc
check "empty file warns" "termtrace: warning: $tmp/empty.json: empty file: the trace holds no data" "$err"
check "empty file format" "format:        empty" "$(grep '^format:' <<<"$out")"
check "empty file problem listed" "  empty file: the trace holds no data" "$(sed -n '/^problems:/{n;p}' <<<"$out")"

# ---- files that are not traces: one line naming the file, exit 1
head -c 4096 /dev/urandom | tr '\012{[' 'abc' > "$tmp/garbage"
printf 'Z' | dd of="$tmp/garbage" bs=1 count=1 conv=notrunc 2>/dev/null
run "$tmp/garbage"
check "garbage refused" "1 1" "$rc $(wc -l <<<"$err")"
check "garbage message names the file" "termtrace: $tmp/garbage: unknown format" "$(cut -d'(' -f1 <<<"$err" | sed 's/ *$//')"

printf '{"traceEvents":[' > "$tmp/nothing.json"
run "$tmp/nothing.json"
check "json with no complete event: no crash, bounded" 1 $(( rc == 0 || rc == 1 ))

printf '\x0a\xff\xff\xff\xff\x0f' > "$tmp/huge.pftrace"
run "$tmp/huge.pftrace"
check "pftrace with a 4 GB length prefix refused" "1 1" "$rc $(wc -l <<<"$err")"

mkdir "$tmp/nometa"
cp $D/ctf/lttng-ust-tiny/ust/uid/0/64-bit/chan0_0 "$tmp/nometa/"
run "$tmp/nometa"
check "ctf folder without metadata refused" "1 1" "$rc $(wc -l <<<"$err")"

# ---- read-only input: nothing written next to it
mkdir "$tmp/ro"
cp $D/chromium-tiny.json $D/chromium-tiny.pftrace "$tmp/ro/"
cp -r $D/ctf/dmesg-ctf "$tmp/ro/ctf"
chmod -R a-w "$tmp/ro"
before=$(cd "$tmp/ro" && ls -laR --time-style=full-iso . && md5sum chromium-tiny.json chromium-tiny.pftrace ctf/*)
for f in chromium-tiny.json chromium-tiny.pftrace ctf; do
	timeout 60 $T info "$tmp/ro/$f" >/dev/null 2>&1; rc=$?
	check "read-only $f opens" 0 $rc
done
timeout 60 $T query "$tmp/ro/chromium-tiny.json" "select count(*) from slice" >/dev/null 2>&1
after=$(cd "$tmp/ro" && ls -laR --time-style=full-iso . && md5sum chromium-tiny.json chromium-tiny.pftrace ctf/*)
check "nothing written next to the input" "$before" "$after"

# ---- a runaway query stops at --timeout
start=$(date +%s%N)
timeout 30 $T query --timeout 0.5 $D/chromium-tiny.json \
	"select count(*) from slice a, slice b, slice c" >/dev/null 2>"$tmp/err"; rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
check "query --timeout stops a cross join: exit 1" 1 $rc
check "query --timeout says so" "termtrace: query error: stopped after the 0.5 s --timeout" "$(cat "$tmp/err")"
check "query --timeout stops in time (< 5 s)" 1 $(( ms < 5000 ))
check "query --timeout leaves quick queries alone" 514 \
	"$(timeout 30 $T query --timeout 5 --format csv --no-header $D/chromium-tiny.json 'select count(*) from slice')"
