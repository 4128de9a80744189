#!/usr/bin/env bash
# ctf.sh - the command line on CTF traces, as the issue's user types it:
#   termtrace info TRACE_DIR
#   termtrace query SESSION_DIR "select ts, name from raw order by ts limit 20"
# Expectations come from babeltrace2's output for the same trace
# (tests/data/ctf/lttng-ust-tiny.expect.gz, made by tests/ctf_ref.py).
# $TT_BIN is the termtrace binary.
set -u
cd "$(dirname "$0")/../.."
bin=${TT_BIN:-./termtrace}
data=tests/data/ctf
n=0

check() { # check WHAT COND...
	local what=$1
	shift
	if "$@"; then echo "ok - $what"; else echo "not ok - $what"; fi
}

out=$("$bin" info "$data/lttng-ust-tiny/ust/uid/0/64-bit" 2>&1)
check "info names the format" grep -q '^format: *ctf$' <<<"$out"
check "info counts 2072 raw events" grep -Eq '^ +raw +2072$' <<<"$out"
check "info time range starts at the first event" grep -q '1795237041967278136 \.\.' <<<"$out"

# the session folder (two levels above the trace) opens the same trace
want=$(zcat "$data/lttng-ust-tiny.expect.gz" | head -20 | cut -f1,2)
got=$("$bin" query --format tsv --no-header "$data/lttng-ust-tiny" \
	"select ts, name from raw order by ts limit 20" 2>&1)
check "query on the session folder: first 20 events equal babeltrace2's" test "$got" = "$want"

got=$("$bin" query --format tsv --no-header "$data" "select count(*) from raw" 2>&1)
check "a folder with four traces merges all their events" test "$got" = "68176"

empty=$(mktemp -d)
msg=$("$bin" info "$empty" 2>&1)
rc=$?
check "a folder without metadata fails" test "$rc" -ne 0
check "... with a message naming the folder" grep -q "$empty" <<<"$msg"
rmdir "$empty"
: "$n"
