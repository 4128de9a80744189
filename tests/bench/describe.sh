#!/usr/bin/env bash
# describe.sh (make bench): slice descriptions (issue 19, docs/descriptions.md).
#  1. coverage of the bundled Chromium samples: share of slices, distinct
#     names and tracks answered by each kind of rule, and the 50 most
#     frequent names with only a fallback (`termtrace describe --coverage`);
#  2. rule hygiene over every bundled sample (`termtrace describe --lint`);
#  3. speed: describing every slice of the 3.8 MB proto sample through
#     describe_slice, against the floor of reading every slice's name in
#     the same query shape, medians of 5 runs.
set -u
cd "$(dirname "$0")/../.."
T=${TT_BIN:-./termtrace}
SAMPLES=../shared/samples
chrome=$(ls $SAMPLES/chrome/*.json $SAMPLES/chrome/*.pftrace 2>/dev/null)
[ -n "$chrome" ] || chrome="tests/data/chromium-tiny.json tests/data/chromium-tiny.pftrace tests/data/chromium-small.pftrace.gz"
names="tests/data/chromium-window.json.gz tests/data/chromium-names-all.json.gz tests/data/chromium-names-page2.json.gz"
echo "-- coverage, bundled Chromium samples:" $chrome
"$T" describe --coverage --top 50 $chrome
echo "-- coverage, the bundled name samples of two recorded *-category traces (one slice per name):" $names
"$T" describe --coverage --top 10 $names
echo "-- coverage, all other bundled samples (uftrace, LTTng: user functions have no rule)"
"$T" describe --coverage --top 5 tests/data/uftrace-work.json $(ls -d $SAMPLES/ctf/lttng-* 2>/dev/null)
echo "-- lint over every bundled sample"
"$T" describe --lint $chrome $names tests/data/uftrace-work.json \
	$(ls -d $SAMPLES/ctf/lttng-* 2>/dev/null) | tail -1
P=tests/data/chromium-small.pftrace.gz
[ -f $SAMPLES/chrome/chromium-small.pftrace ] && P=$SAMPLES/chrome/chromium-small.pftrace
med() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
run() { # seconds of one `termtrace query` of $1
	local s e
	s=$(date +%s.%N); "$T" query --format tsv --no-header "$P" "$1" >/dev/null; e=$(date +%s.%N)
	echo "$e - $s" | bc -l
}
q_desc="select count(d.description) from slice s join describe_slice d on d.slice_id = s.id"
q_floor="select count(s.name) from slice s"
n=$("$T" query --format tsv --no-header "$P" "select count(*) from slice")
td=$(for i in 1 2 3 4 5; do run "$q_desc"; done | med)
tf=$(for i in 1 2 3 4 5; do run "$q_floor"; done | med)
printf -- "-- speed on %s (%s slices; open + query, median of 5; machine shared)\n" "$P" "$n"
printf "describe every slice: %.3f s   floor (open + read every name): %.3f s   ratio %.2f   %.2f us per slice over the floor\n" \
	"$td" "$tf" "$(echo "$td / $tf" | bc -l)" "$(echo "($td - $tf) * 1000000 / $n" | bc -l)"
