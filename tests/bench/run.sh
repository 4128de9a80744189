#!/usr/bin/env bash
# make bench: every benchmark of the build folder $1 (build-bench), in turn.
# Each prints its figures and, where there is a peer tool, the peer's
# figures measured in the same run and the ratio. TT_BENCH_QUICK=1 runs
# the small sizes only.
set -u
cd "$(dirname "$0")/../.."
B=${1:-build-bench}
export TT_BIN=$PWD/$B/termtrace
for b in "$B"/bench/bench_*; do
	[ -x "$b" ] || continue
	echo "== $b"
	if [ -n "${TT_BENCH_QUICK:-}" ]; then "$b" 100000; else "$b"; fi
done
for s in tests/bench/*.sh; do
	[ "$s" = tests/bench/run.sh ] && continue
	[ -f "$s" ] || continue
	echo "== $s"
	bash "$s"
done
