#!/usr/bin/env bash
# metrics_tui.sh - terminal tests of metrics in the viewer (issue 7),
# through tmux with a private server and no user config: `--metrics` adds
# the "Annotations" group, alerts are drawn in the theme's warning/error
# colours and counted in the status line, `]` / `[` move the selection
# from alert to alert, `:alerts` lists them.
# The trace is written here: two threads, long tasks of 60 ms and 50 ms
# (warnings) and 300 ms (error).
# Prints "ok - what" / "not ok - what".
set -u
cd "$(dirname "$0")/../.."
BIN=${TT_BIN:-./termtrace}
S=ttm$$
TMP=$(mktemp -d)
trap 'tmux -L $S kill-server 2>/dev/null; rm -rf "$TMP"' EXIT

cat >"$TMP/tasks.json" <<'JSON'
{"traceEvents":[
{"name":"thread_name","ph":"M","pid":1,"tid":10,"args":{"name":"CrRendererMain"}},
{"name":"thread_name","ph":"M","pid":1,"tid":11,"args":{"name":"CrBrowserMain"}},
{"name":"TaskA","ph":"X","pid":1,"tid":10,"ts":1000,"dur":60000},
{"name":"TaskB","ph":"X","pid":1,"tid":10,"ts":100000,"dur":300000},
{"name":"Nested","ph":"X","pid":1,"tid":10,"ts":110000,"dur":80000},
{"name":"TaskC","ph":"X","pid":1,"tid":10,"ts":500000,"dur":10000},
{"name":"TaskD","ph":"X","pid":1,"tid":11,"ts":2000,"dur":50000},
{"name":"TaskE","ph":"X","pid":1,"tid":11,"ts":60000,"dur":49999}
]}
JSON

. "$(dirname "$0")/../shlib.sh"
screen() { tmux -L $S capture-pane -p -t "$WIN"; }
wait_for() { # wait_for TEXT: bounded poll of the pane
	local i
	for ((i = 0; i < 50; i++)); do
		screen | grep -qF -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
wait_for_first_group() { # the first group header on screen starts with TEXT
	wait_for "$1" && screen | grep -E '^[▾▸] ' | head -1 | grep -qF -- "$1"
}
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else notok "$what"; screen | sed 's/^/# /'; fi
}
keys() { tmux -L $S send-keys -t "$WIN" "$@"; }
# the first row of the pane (with SGR escapes) that holds TEXT
escaped_row() { tmux -L $S capture-pane -p -e -t "$WIN" | grep -F -- "$1" | head -1; }

WIN=main
tmux -L $S -f /dev/null new-session -d -s main -x 120 -y 30 \
	"env LANG=C.UTF-8 TERM=xterm-256color XDG_CONFIG_HOME=$TMP/cfg XDG_STATE_HOME=$TMP/state TT_METRICS_PATH=$TMP/none $BIN --metrics chrome_long_tasks $TMP/tasks.json; echo EXIT=\$?; sleep 60"

# chrome_long_tasks scopes its tracks to threads: they sit in the process
# group, beside their thread (issue 7: "shown inside its group")
check "--metrics adds thread-scoped tracks to their process group" wait_for "▾ process 1  (4 tracks)"
check "the Long tasks track of CrRendererMain holds its long tasks" wait_for " Long tasks: CrRenderer…│   TaskA"
check "the Long tasks track of CrBrowserMain follows its thread" wait_for " Long tasks: CrBrowserM…│  TaskD"
check "status line counts the alerts" wait_for "alerts: 2 warnings, 1 error"
row=$(escaped_row " Long tasks: CrRenderer")
case "$row" in
*"48;5;214m   TaskA"*"48;5;160m"*) ok "warning and error alerts drawn in the theme's alert colours" ;;
*) notok "warning and error alerts drawn in the theme's alert colours"; echo "# $row" | cat -v ;;
esac
keys ']'
check "] selects the first alert (TaskA, a warning)" wait_for "alert 1/3 (warning)"
check "] moved the selection to the alert's slice" wait_for "sel: TaskA (60ms)"
keys ']'
check "] again: the next alert in time (TaskD)" wait_for "sel: TaskD (50ms)"
keys ']'
check "] again: the error (TaskB)" wait_for "alert 3/3 (error)"
check "TaskB selected" wait_for "sel: TaskB (300ms)"
keys '['
check "[ goes back to the previous alert" wait_for "sel: TaskD (50ms)"
keys ':alerts' Enter
check ":alerts lists the alert table" wait_for " alerts  3 rows"
check ":alerts shows the error row" \
	wait_for "2   100000000  300000000  2         7         error     chrome_long_tasks  3                TaskB"
keys q
keys q
check "viewer exits cleanly" wait_for "EXIT=0"

# monochrome (NO_COLOR): warnings bold+underline, errors also reverse
tmux -L $S new-window -d -n mono \
	"env LANG=C.UTF-8 TERM=xterm-256color NO_COLOR=1 XDG_CONFIG_HOME=$TMP/cfg XDG_STATE_HOME=$TMP/state TT_METRICS_PATH=$TMP/none $BIN --metrics chrome_long_tasks $TMP/tasks.json; echo EXIT=\$?; sleep 60"
tmux -L $S resize-window -t mono -x 120 -y 30 2>/dev/null
WIN=mono
check "monochrome: the Long tasks tracks" wait_for " Long tasks: CrRenderer…│   TaskA"
row=$(escaped_row " Long tasks: CrRenderer")
case "$row" in
*"[1;4m   TaskA"*"[1;4;7m"*"TaskB"*) ok "monochrome alerts: bold/underline warning, reverse error" ;;
*) notok "monochrome alerts: bold/underline warning, reverse error"; echo "# $row" | cat -v ;;
esac
keys q

# :metrics runs a metric from inside the viewer
tmux -L $S new-window -d -n cmd \
	"env LANG=C.UTF-8 TERM=xterm-256color XDG_CONFIG_HOME=$TMP/cfg XDG_STATE_HOME=$TMP/state TT_METRICS_PATH=$TMP/none $BIN $TMP/tasks.json; echo EXIT=\$?; sleep 60"
tmux -L $S resize-window -t cmd -x 120 -y 30 2>/dev/null
WIN=cmd
check "without --metrics there is no Annotations group" wait_for "▾ process 1  (2 tracks)"
if screen | grep -qF "Annotations"; then notok "no Annotations group before :metrics"; else ok "no Annotations group before :metrics"; fi
keys ':metrics chrome_long_tasks' Enter
check ":metrics reports the alerts it added" wait_for "metrics chrome_long_tasks: 3 alerts (2 warnings, 1 error)"
check ":metrics adds the tracks to the process group" wait_for "▾ process 1  (4 tracks)"
keys ':metric chrome_long_tasks' Enter
sleep 0.5
if screen | grep -qF "▾ process 1  (4 tracks)" && ! screen | grep -qF "(6 tracks)"; then
	ok "running it again adds nothing"
else
	notok "running it again adds nothing"; screen | sed 's/^/# /'
fi
keys q
check "viewer exits cleanly after :metrics" wait_for "EXIT=0"

# An unscoped annotation track (a user's metric, no proto field needed):
# the "Annotations" group at the top, its alert marker, ] to the alert and
# e to the slice it came from (source_slice_id).
mkdir -p "$TMP/user"
cat >"$TMP/user/slow_tasks.sql" <<'SQL'
-- slow_tasks_annotations: one "Slow tasks" track (not scoped) with every
-- top-level task of 250 ms or more, as an error pointing at the task.
create view slow_tasks_annotations as
select 'slice' as track_type, 'Slow tasks' as track_name, ts, dur,
       'slow: ' || name as slice_name, null as value,
       id as source_slice_id, 'error' as alert_type
from slice where depth = 0 and dur >= 250000000;
SQL
tmux -L $S new-window -d -n user \
	"env LANG=C.UTF-8 TERM=xterm-256color XDG_CONFIG_HOME=$TMP/cfg XDG_STATE_HOME=$TMP/state TT_METRICS_PATH=$TMP/user $BIN --metrics slow_tasks $TMP/tasks.json; echo EXIT=\$?; sleep 60"
tmux -L $S resize-window -t user -x 120 -y 30 2>/dev/null
WIN=user
check "an unscoped annotation track: the Annotations group" wait_for "▾ Annotations  (1 track)"
check "the Annotations group comes first" wait_for_first_group "▾ Annotations"
check "status line counts the alert" wait_for "alerts: 0 warnings, 1 error"
row=$(escaped_row " Slow tasks ")
case "$row" in
*"48;5;160m"*"slow: TaskB"*) ok "the alert is drawn in the error colour" ;;
*) notok "the alert is drawn in the error colour"; echo "# $row" | cat -v ;;
esac
keys ']'
check "] selects the alert" wait_for "sel: slow: TaskB (300ms)"
check "the details name its source slice" wait_for " source      TaskB (id 3)  e: go there"
keys 'e'
check "e jumps to the source slice" wait_for "sel: TaskB (300ms)"
keys 'e'
check "e on a slice without a source says so" wait_for "the selection has no source slice"
keys q
check "viewer exits cleanly (user metric)" wait_for "EXIT=0"
