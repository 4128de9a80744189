#!/bin/sh
# report.sh - sums build-fuzz/stats.tsv (written by tests/fuzz/run.sh) per target
# as the markdown table of docs/reliability.md: seconds fuzzed, executions,
# and the largest edge count reached (libFuzzer's "cov").
#   tests/fuzz/report.sh [stats.tsv]
f=${1:-build-fuzz/stats.tsv}
printf '| target | runs | seconds fuzzed | executions | edges (max) |\n'
printf '| --- | ---: | ---: | ---: | ---: |\n'
awk -F'\t' '
	!($2 in runs) { order[n++] = $2 }
	{ runs[$2]++; secs[$2] += $4; execs[$2] += $5; if ($6 > edges[$2]) edges[$2] = $6 }
	END { for (i = 0; i < n; i++) { t = order[i];
		printf "| %s | %d | %d | %d | %d |\n", t, runs[t], secs[t], execs[t], edges[t] } }' "$f"
