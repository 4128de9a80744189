#!/bin/sh
# run.sh - runs the libFuzzer targets built in build-fuzz/fuzz/.
#
#   tests/fuzz/run.sh smoke TOTAL_SECONDS target...   replay each seed corpus and
#       fuzz briefly; TOTAL_SECONDS is shared by all targets (make test)
#   tests/fuzz/run.sh long SECONDS target...          SECONDS per target
#
# Seeds are read from tests/fuzz/corpus/<target>/ and never written; new
# inputs go to build-fuzz/corpus/<target>/ (long runs, kept from run to
# run) or build-fuzz/smoke-corpus/<target>/ (smoke, emptied each time);
# crashes, leaks, time-outs and out-of-memory inputs go to
# build-fuzz/artifacts/<target>/. Each target's
# final figures (executions, edges, seconds) are appended to
# build-fuzz/stats.tsv for docs/reliability.md. Exits non-zero when any
# target failed; the failing input is named in the output.
set -u
mode=$1; secs=$2; shift 2
B=build-fuzz
ntargets=$#
if [ "$mode" = smoke ]; then
	per=$((secs / ntargets)); [ "$per" -ge 1 ] || per=1
else
	per=$secs
fi
fail=0
mkdir -p "$B"
for t in "$@"; do
	bin=$B/fuzz/fuzz_$t
	seeds=tests/fuzz/corpus/$t
	case $t in
	proto|proto_packet) dict=tests/fuzz/proto.dict ;;
	json_chunks) dict=tests/fuzz/json.dict ;;
	systrace_file) dict=tests/fuzz/systrace.dict ;;
	ctf_trace) dict=tests/fuzz/ctf_stream.dict ;;
	ctf_metadata) dict=tests/fuzz/tsdl.dict ;;
	*) dict=tests/fuzz/$t.dict ;;
	esac
	# smoke: a fresh output folder each time, so that the replay is the
	# committed seeds only and its time does not grow run after run
	out=$B/corpus/$t
	[ "$mode" = smoke ] && out=$B/smoke-corpus/$t && rm -rf "$out"
	# smoke: a fixed seed and at most FUZZ_SMOKE_RUNS inputs, so that a CI
	# run tries the inputs a run here tried (a prefix of them on a slower
	# machine), and what it finds the same command finds here; long runs
	# draw a new seed each time and have no such cap
	seed=
	[ "$mode" = smoke ] && seed="-seed=1 -runs=${FUZZ_SMOKE_RUNS:-3000}"
	mkdir -p "$out" "$B/artifacts/$t"
	log=$B/fuzz-$t.log
	# -timeout: one input may not take more than 10 s (a hang is a bug);
	# -rss_limit_mb / -malloc_limit_mb: bounded memory is part of the
	# contract, 1 GB for inputs of at most -max_len bytes is generous.
	start=$(date +%s)
	"$bin" $seed -max_total_time="$per" -timeout=10 -rss_limit_mb=1024 -malloc_limit_mb=1024 \
		-dict="$dict" -artifact_prefix="$B/artifacts/$t/" -print_final_stats=1 \
		-detect_leaks=1 "$out" "$seeds" >"$log" 2>&1
	rc=$?
	end=$(date +%s)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	edges=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | sed 's/cov: //')
	if [ $rc -eq 0 ]; then
		echo "ok - fuzz $t: ${execs:-?} runs, ${edges:-?} edges, $((end - start)) s"
	else
		fail=1
		echo "not ok - fuzz $t (exit $rc): see $log"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|artifact_prefix|Test unit written)' "$log" | head -8 | sed 's/^/#   /'
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$t" "$mode" "$((end - start))" \
		"${execs:-0}" "${edges:-0}" >>"$B/stats.tsv"
done
exit $fail
