#!/usr/bin/env bash
# ctf_cpus.sh - the CPUs group of the viewer on an LTTng trace (its
# packets say cpu_id = 1): a "CPUs" group above the processes, one track
# per CPU named "CPU N" whose slices name the thread that ran there; and
# the same track through the command line (type cpu, the cpu table); and
# the import's warning (an unknown TSDL attribute) on the message line.
set -u
cd "$(dirname "$0")/../.."
BIN=${TT_BIN:-./termtrace}
S=ttcpu$$
TMP=$(mktemp -d)
TRACE=tests/data/ctf/lttng-ust-tiny
trap 'tmux -L $S kill-server 2>/dev/null; rm -rf "$TMP"' EXIT
. "$(dirname "$0")/../shlib.sh"

screen() { tmux -L $S capture-pane -p -t cpus; }
wait_for() {
	for ((i = 0; i < 50; i++)); do screen | grep -qF -- "$1" && return 0; sleep 0.1; done
	return 1
}

tmux -L $S -f /dev/null new-session -d -s cpus -x 120 -y 30 \
	"env LANG=C.UTF-8 TERM=xterm-256color XDG_STATE_HOME=$TMP/s XDG_CONFIG_HOME=$TMP/c $BIN $TRACE; sleep 30"
wait_for "CPUs" || true
scr=$(screen)
check "a CPUs group with the trace's one CPU" "1" "$(grep -c '^▾ CPUs  (1 track)$' <<<"$scr")"
cpus_line=$(grep -n '^▾ CPUs' <<<"$scr" | cut -d: -f1)
proc_line=$(grep -n '^▾ lttng-app 12788' <<<"$scr" | cut -d: -f1)
check "the CPUs group is above the processes" "1" "$(( ${cpus_line:-99} < ${proc_line:-0} ))"
check "CPU 1 shows the thread that ran there" "1" "$(grep -cE '^ CPU 1 .*lttng-app' <<<"$scr")"
tmux -L $S send-keys -t cpus q

check "cpu table" "0,0,1" "$($BIN query --format csv --no-header $TRACE 'select id, ucpu, cpu from cpu' 2>&1)"
check "CPU 1 track: two runs, lttng-app-ust then lttng-app" \
	"lttng-app-ust,24
lttng-app,2048" \
	"$($BIN query --format csv --no-header $TRACE "select s.name, (select int_value from args a where a.arg_set_id = s.arg_set_id and a.key = 'events') from slice s join track t on s.track_id = t.id where t.type = 'cpu' and t.cpu = 1 order by s.ts" 2>&1)"

# the import warning on the viewer's message line
mkdir "$TMP/attr"
cp tests/data/ctf/dmesg-ctf/stream "$TMP/attr/"
sed 's/^\tmajor = 1;/\tmajor = 1;\n\ttest3 = '"'"'\\n'"'"';/' tests/data/ctf/dmesg-ctf/metadata > "$TMP/attr/metadata"
tmux -L $S kill-session -t cpus 2>/dev/null
tmux -L $S -f /dev/null new-session -d -s cpus -x 140 -y 20 \
	"env LANG=C.UTF-8 TERM=xterm-256color XDG_STATE_HOME=$TMP/s XDG_CONFIG_HOME=$TMP/c $BIN $TMP/attr; sleep 30"
wait_for "warning:" || true
check "the viewer shows the import warning" \
	"warning: $TMP/attr/metadata:7: unknown attribute 'test3' skipped" "$(screen | grep '^warning:' | sed 's/ *$//')"
tmux -L $S send-keys -t cpus q
