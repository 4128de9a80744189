#!/usr/bin/env bash
# hostile.sh (make bench): what the importers cost on hostile big files
# (issue 8, docs/reliability.md): a 100 MB file of one JSON string, a JSON
# event whose name is 100 MB, a Perfetto packet with one 100 MB field, one
# with a 60 MB field (under the 64 MiB packet cap), and a 1 KB file whose
# packet claims 100 MB. Prints the outcome, peak RSS and time of
# `termtrace info` on each, beside the floor measured in the same run
# (reading the file once: `cat` to /dev/null) and the ratios (time to the
# floor's, peak RSS to the file's size). Files are made in a temporary folder.
set -u
T=${TT_BIN:-./termtrace}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp" <<'PY'
import sys
d = sys.argv[1]
mb = b"x" * (1 << 20)
def varint(v):
    o = bytearray()
    while True:
        b, v = v & 0x7F, v >> 7
        o.append(b | (0x80 if v else 0))
        if not v:
            return bytes(o)
with open(d + "/one-string.json", "wb") as f:
    f.write(b'["'); [f.write(mb) for _ in range(100)]; f.write(b'"]')
with open(d + "/huge-name.json", "wb") as f:
    f.write(b'{"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":1,"name":"a"},'
            b'{"ph":"X","pid":1,"tid":1,"ts":2,"dur":1,"name":"')
    [f.write(mb) for _ in range(100)]
    f.write(b'"}]}')
first = b"\x40\x01\x50\x01\x5a\x06\x48\x03\xba\x01\x01a"
for name, size in (("field-100mb.pftrace", 100), ("field-60mb.pftrace", 60)):
    n = size << 20
    fld = b"\xba\x01" + varint(n)
    pkt = b"\x40\x01\x50\x01\x5a" + varint(len(fld) + n)
    with open(d + "/" + name, "wb") as f:
        f.write(b"\x0a" + varint(len(first)) + first)
        f.write(b"\x0a" + varint(len(pkt) + len(fld) + n) + pkt + fld)
        [f.write(mb) for _ in range(size)]
with open(d + "/claim-100mb.pftrace", "wb") as f:
    f.write(b"\x0a" + varint(100 << 20) + b"\x5a" + varint((100 << 20) - 8) + b"a" * 1000)
PY
for f in one-string.json huge-name.json field-100mb.pftrace field-60mb.pftrace claim-100mb.pftrace; do
	size=$(stat -c %s "$tmp/$f")
	/usr/bin/time -f '%M %e' -o "$tmp/time" "$T" info "$tmp/$f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	# (time puts "Command exited with non-zero status" first on failure)
	read -r kb secs < <(tail -1 "$tmp/time")
	/usr/bin/time -f '%e' -o "$tmp/ftime" cat "$tmp/$f" >/dev/null
	floor=$(tail -1 "$tmp/ftime")
	if [ $rc -eq 0 ]; then
		what="imported, $(awk '$1 == "slice" { print $2 }' "$tmp/out") slices$(awk '/ (data_loss|error) / && NF == 3 { printf ", %s %s", $1, $3 }' "$tmp/out")"
	else
		what="refused: $(sed "s|$tmp/||" "$tmp/err" | head -1)"
	fi
	printf 'hostile %-20s %10d bytes  peak RSS %6.1f MB (%.2fx the file)  %6.2f s (floor: cat %.2f s, %s)  %s\n' \
		"$f" "$size" "$(awk -v k="$kb" 'BEGIN { print k / 1024 }')" \
		"$(awk -v k="$kb" -v s="$size" 'BEGIN { print k * 1024 / s }')" "$secs" "$floor" \
		"$(awk -v a="$secs" -v b="$floor" 'BEGIN { if (b > 0) printf "%.1fx", a / b; else print "floor under 10 ms" }')" "$what"
done
