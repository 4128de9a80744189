#!/usr/bin/env bash
# Runs every test suite of the given build folders and prints one closing
# line "N passed, N failed".
#   - cmocka binaries $B/tests/test_*: their own summary lines are printed
#     and counted (a binary that dies before its summary counts its
#     unfinished tests as failed);
#   - shell suites tests/sh/*.sh (terminal tests through tmux, command-line
#     tests): run once, against ./termtrace of the first build folder; they
#     print "ok - what" / "not ok - what" lines.
# TT_TEST_FILTER=substring runs only the suites whose file name contains it.
set -u
cd "$(dirname "$0")/.."
passed=0
failed=0
filter=${TT_TEST_FILTER:-}

run_cmocka() {
	local bin=$1 out rc total ok bad
	out=$(mktemp)
	TT_SRCDIR=$PWD timeout 600 "$bin" >"$out" 2>&1
	rc=$?
	total=$(sed -n 's/^\[==========\] Running \([0-9]*\) test(s)\./\1/p' "$out" | tail -1)
	ok=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test(s)\./\1/p' "$out" | tail -1)
	bad=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test(s), listed below:/\1/p' "$out" | tail -1)
	: "${total:=0}" "${ok:=0}" "${bad:=0}"
	if [ "$rc" -ne 0 ] && [ $((ok + bad)) -lt "$total" ]; then
		bad=$((total - ok))
	fi
	if [ "$rc" -ne 0 ] && [ "$total" = 0 ]; then
		bad=1
	fi
	if [ "$bad" -ne 0 ] || [ "$rc" -ne 0 ]; then
		cat "$out"
	else
		grep -E '^\[(==========|  PASSED  |  FAILED  )\]' "$out"
	fi
	echo "-- $bin: $ok passed, $bad failed"
	passed=$((passed + ok))
	failed=$((failed + bad))
	rm -f "$out"
}

run_shell() {
	local script=$1 bin=$2 out ok bad
	out=$(mktemp)
	TT_BIN=$bin timeout 900 bash "$script" >"$out" 2>&1
	ok=$(grep -c '^ok ' "$out")
	bad=$(grep -c '^not ok ' "$out")
	if [ "$bad" -ne 0 ] || [ "$ok" = 0 ]; then
		cat "$out"
		[ "$ok" = 0 ] && [ "$bad" = 0 ] && bad=1
	fi
	echo "-- $script: $ok passed, $bad failed"
	passed=$((passed + ok))
	failed=$((failed + bad))
	rm -f "$out"
}

first=""
for b in "$@"; do
	[ -n "$first" ] || first=$b
	for t in "$b"/tests/test_*; do
		[ -x "$t" ] || continue
		case "${t##*/}" in *"$filter"*) ;; *) continue ;; esac
		echo "== $t"
		run_cmocka "$t"
	done
done
if [ -n "$first" ]; then
	bin=$PWD/termtrace
	[ "$first" = build ] || bin=$PWD/$first/termtrace
	for s in tests/sh/*.sh; do
		[ -f "$s" ] || continue
		case "${s##*/}" in *"$filter"*) ;; *) continue ;; esac
		echo "== $s"
		run_shell "$s" "$bin"
	done
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
