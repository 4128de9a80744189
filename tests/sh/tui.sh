#!/usr/bin/env bash
# tui.sh - terminal tests of the viewer through tmux: a private server
# (-L), no user config (-f /dev/null), fixed sizes, send-keys and exact
# text from capture-pane. Every wait is a bounded poll of the pane.
# Prints "ok - what" / "not ok - what".
set -u
cd "$(dirname "$0")/../.."
BIN=${TT_BIN:-./termtrace}
S=tt$$
TMP=$(mktemp -d)
TINY=tests/data/chromium-tiny.json
trap 'tmux -L $S kill-server 2>/dev/null; rm -rf "$TMP"' EXIT

. "$(dirname "$0")/../tuilib.sh"

# ---- the timeline of the real sample ------------------------------------
start tl 120 40 -- $TINY
check "viewer shows the ruler of the whole trace" \
	wait_line tl 0 " view 2.22s              0                    500ms                1s                    1.5s                 2s"
check "process groups are shown, biggest first" \
	wait_line tl 5 "▾ Renderer 9186  (3 tracks)"
check "thread tracks are shown by name and tid" \
	wait_for tl " CrRendererMain 9186    │"
check "a thread without slices of its own name shows its track" \
	wait_for tl " DedicatedWorker thread…│"
check "global instant track in its own group" \
	wait_for tl "▾ Global  (1 track)"
check "cursor time shown under the ruler" wait_for tl " @1.113106s "
keys w
check "zoom in changes the ruler" \
	wait_line tl 0 " view 1.48s               400ms        600ms        800ms        1s           1.2s        1.4s         1.6s"
keys 0
check "0 shows the whole trace again" \
	wait_line tl 0 " view 2.22s              0                    500ms                1s                    1.5s                 2s"

# ---- search, selection, details ------------------------------------------
keys / RunMicro Enter
check "search reports the match count" wait_for tl "match 33/59 for 'RunMicro'"
check "the match is selected and shown in the details panel" wait_for tl " name        RunMicrotasks"
check "details show category, thread and process" \
	bash -c "tmux -L $S capture-pane -p -t tl | grep -qF ' category    v8.execute' &&
		 tmux -L $S capture-pane -p -t tl | grep -qF ' thread      CrRendererMain 9186' &&
		 tmux -L $S capture-pane -p -t tl | grep -qF ' process     Renderer 9186'"
check "details show the exact duration" wait_for tl " dur         17µs"
keys n
check "n jumps to the next match" wait_for tl "match 34/59 for 'RunMicro'"
keys N N
check "N jumps to the previous match" wait_for tl "match 32/59 for 'RunMicro'"
keys f
check "f zooms to the selected slice and its name is drawn" \
	wait_line tl 6 " CrRendererMain 9186    │                                         RunMicrotasks"
check "f: the ruler shows the slice's start" \
	wait_line tl 0 " view 12µs                      1.10789s        1.107892s       1.107894s       1.107896s       1.107898s       1.1079s"
check "status line shows selection and matches" \
	wait_for tl " sel: RunMicrotasks (10µs) | /RunMicro: 59 matches"

# ---- command bar -----------------------------------------------------------
keys 0 : "select count(*) from slice" Enter
check "SQL result opens in a table with the exact count" wait_line tl 2 "514"
check "table header names the column" wait_line tl 1 "count(*)"
keys q
check "q closes the table" wait_for tl "▾ Renderer 9186  (3 tracks)"
keys : "INCLUDE PERFETTO MODULE slices.with_context; CREATE PERFETTO MACRO n_of(c ColumnName) RETURNS Expr AS count(distinct \$c); select n_of!(thread_name) as threads from thread_slice" Enter
check "the command bar runs PerfettoSQL scripts" wait_line tl 2 "2"
check "... the last statement's column" wait_line tl 1 "threads"
keys q
keys : "selec nonsense" Enter
check "a bad query shows the error in the bar" wait_for tl 'near "selec": syntax error'
keys w
check "the viewer keeps working after an error" wait_for tl " view 1.48s "
keys : "select id, name from slice where name = 'RunMicrotasks' order by ts limit 3" Enter
check "a result table with several rows" wait_for tl "3 rows"
keys Down Enter
check "Enter on a row with id selects that slice" wait_for tl " sel: RunMicrotasks"
keys : "select count(*) from slice a, slice b, slice c, slice d" Enter
check "a long query shows that it runs" wait_for tl "running query... (Ctrl-C cancels)"
keys C-c
check "Ctrl-C cancels the query" wait_for tl "interrupted"
keys : Up Up Enter
check "Up walks the history" wait_for tl "3 rows"
keys q
check "history is kept in XDG_STATE_HOME" \
	grep -qxF "select count(*) from slice" "$TMP/state/termtrace/history"
keys : "goto 1s" Enter
check ":goto moves the cursor" wait_for tl " @1s "
keys : "track Dedicated" Enter
check ":track filters the tracks" \
	bash -c "tmux -L $S capture-pane -p -t tl | grep -qF 'DedicatedWorker thread' &&
		 ! tmux -L $S capture-pane -p -t tl | grep -qF 'Legacy Global Instants'"
keys : track Enter
check ":track alone shows every track" wait_for tl "Legacy Global Instants"
keys : "pin select ts, dur, name from slice where name = 'RunMicrotasks'" Enter
check ":pin adds a pinned track, titled by its slices' one name" wait_for tl "pinned 59 slices as track 'RunMicrotasks'"
check "the pinned group is at the top" wait_line tl 2 "▾ Pinned  (1 track)"
keys : "theme nosuchtheme" Enter
check ":theme with an unknown name says so" wait_for tl "no theme 'nosuchtheme'"
keys : "theme light" Enter
check ":theme switches theme" wait_for tl "theme light"
keys ?
check "? shows the help with every action" wait_for tl "w W + =            zoom-in          zoom in around the cursor"
keys PgDn
check "help scrolls to the commands" wait_for tl ":pin SQL           pin a query with columns ts, dur, name [, track_name, slice_id, utid] as a slice track"
keys q

# ---- groups ------------------------------------------------------------------
keys g Enter
check "Enter on a group header closes it" wait_for tl "▸ Pinned  (1 track)"

# ---- resize ----------------------------------------------------------------
keys 0
tmux -L $S resize-window -t tl -x 80 -y 24
check "after resize to 80x24 the ruler fits" \
	wait_line tl 0 " view 2.22s      0             500ms         1s            1.5s          2s"
check "after resize the tracks are drawn" wait_for tl "▾ Renderer 9186  (3 tracks)"
keys q
check "q exits 0" wait_for tl "EXIT=0"
check "the terminal is sane after q (icanon echo)" wait_for tl "icanon echo"

# ---- result table: columns, horizontal scroll ---------------------------------
start table 120 40 -- $TINY
wait_for table "▾ Renderer 9186"
keys : "select id, ts, dur, name from slice order by id limit 3" Enter
check "table columns are fitted to their content" wait_line table 1 "id  ts            dur  name"
check "table rows" wait_line table 2 "0   958160867000  0    navigationStart"
keys Right
check "Right scrolls the table by one column" wait_line table 1 "ts            dur  name"
keys Left q q
check "q exits 0 (table)" wait_for table "EXIT=0"

# ---- the user's config: bindings, theme, bad lines ----------------------------
mkdir -p "$TMP/cfg2/termtrace"
printf 'bind x quit\nset theme light\nbind z no-such-action\n' > "$TMP/cfg2/termtrace/config"
start config 120 40 XDG_CONFIG_HOME=$TMP/cfg2 -- $TINY
check "a bad config line warns with path and line" \
	wait_for config "$TMP/cfg2/termtrace/config:3: unknown action 'no-such-action'"
keys x
check "a key bound in the config runs its action" wait_for config "EXIT=0"

# ---- descriptions, details on the right ---------------------------------------
start desc 120 40 TT_HYPERLINKS=1 -- $TINY
wait_for desc "▾ Renderer 9186"
keys / RunMicro Enter J J J J J J
check "details show the slice's description, wrapped" \
	wait_for desc " description V8 drains the microtask queue: promise reactions, await continuations and queueMicrotask callbacks run back"
check "details show the doc link" wait_for desc " doc link    https://v8.dev/blog/fast-async"
check "the details title marks a slice with a description" wait_for desc " RunMicrotasks  ⓘ "
keys M
check "M puts the details on the right" \
	wait_line desc 1 " @1.153231s     │            │            │    ▼        │            │       process     Renderer 9186"
keys M Tab
check "Tab hides the details panel" \
	bash -c "! tmux -L $S capture-pane -p -t desc | grep -qF ' name        RunMicrotasks'"
keys : alerts Enter
check ":alerts without alerts says so" wait_for desc "no alerts (run metrics with :metrics or --metrics)"
keys q
check "q exits 0 (descriptions)" wait_for desc "EXIT=0"

# ---- metrics: annotation tracks and alerts -----------------------------------
mkdir -p "$TMP/metrics"
cat > "$TMP/metrics/tt_test_alerts.sql" <<'SQL'
-- tt_test_alerts: three RunMicrotasks slices as alerts, for the viewer tests
create view tt_test_alerts_annotations as
select 'slice' as track_type, 'Test alerts' as track_name, ts, dur,
       name as slice_name, null as value, id as source_slice_id,
       case when dur > 100000 then 'error' else 'warning' end as alert_type
from slice where name = 'RunMicrotasks' order by ts limit 3;
SQL
start alerts 120 40 TT_METRICS_PATH=$TMP/metrics -- --metrics tt_test_alerts $TINY
check "--metrics: annotation tracks in their own group at the top" \
	wait_line alerts 2 "▾ Annotations  (1 track)"
check "the annotation track is drawn" wait_line alerts 3 " Test alerts            │             ▏▏▏                               │"
check "the status line counts the alerts" wait_for alerts "alerts: 2 warnings, 1 error"
keys ']'
check "] jumps to the next alert" wait_for alerts "alert 1/3 (warning)"
check "the alert's slice is selected" wait_for alerts " sel: RunMicrotasks (23µs)"
keys '!'
check "! jumps to the next alert too" wait_for alerts "alert 2/3 (error)"
keys '['
check "[ jumps to the previous alert" wait_for alerts "alert 1/3 (warning)"
keys : alerts Enter
check ":alerts lists the alerts in a table" wait_for alerts "3 rows"
keys q : "metrics tt_test_alerts" Enter
check ":metrics runs metrics and rebuilds the timeline" \
	wait_for alerts "metrics tt_test_alerts: 3 alerts (2 warnings, 1 error)"
check "the rebuilt timeline keeps the annotation group" wait_line alerts 2 "▾ Annotations  (1 track)"
keys : "metrics no_such_metric" Enter
check ":metrics with an unknown metric shows the error" wait_for alerts "no_such_metric"
keys q
check "q exits 0 (metrics)" wait_for alerts "EXIT=0"

# ---- mouse (xterm SGR mouse reports typed into the pane) ----------------------
mouse() { tmux -L $S send-keys -t "$WIN" -l "$(printf '\033[<%s' "$1")"; }
start mouse 120 40 -- $TINY
wait_for mouse "▾ Renderer 9186"
mouse "0;30;8M"
mouse "0;50;8m"
check "a drag selects a time range and shows its length" wait_for mouse " | range 492.110021ms"
mouse "0;60;8M"
mouse "0;60;8m"
check "a click moves the cursor to the pointer" wait_for mouse " @796.749558ms "
mouse "80;60;8M"
check "ctrl-wheel zooms around the pointer" wait_for mouse " view 1.48s "
mouse "0;10;6M"
mouse "0;10;6m"
check "a click on a group header closes it (its summary shows)" wait_for mouse "▸ Renderer 9186         │   ▄▄▄▄▄ ▄  ▄▄  ▄  ▄ ▄▄ ▄▄  ▄▄       ▄"
mouse "0;10;6M"
mouse "0;10;6m"
wait_for mouse "▾ Renderer 9186  (3 tracks)"
keys Escape # the dragged range: f would zoom to it
keys : "select id from slice where name = 'RunMicrotasks' and dur = 17000" Enter
wait_for mouse "4 rows"
keys Enter f
wait_for mouse " view 20.4µs "
keys Escape
wait_for mouse "No slice selected"
mouse "0;74;7M"
mouse "0;74;7m"
check "a click on a slice selects it" wait_for mouse " sel: RunMicrotasks (17µs)"
keys q
check "q exits 0 (mouse)" wait_for mouse "EXIT=0"

# ---- 8 colours ------------------------------------------------------------------
start eight 120 40 TERM=xterm -- $TINY
# keys typed while the trace loads are not lost
keys w
check "an 8-colour terminal draws the timeline (after a key typed ahead)" \
	wait_line eight 0 " view 1.48s               400ms        600ms        800ms        1s           1.2s        1.4s         1.6s"
keys q
check "q exits 0 (8 colours)" wait_for eight "EXIT=0"

# ---- q during the first frames, ASCII fallback, NO_COLOR --------------------
start ascii 100 30 LANG=C NO_COLOR=1 -- $TINY
check "ASCII fallback when the locale is not UTF-8" wait_for ascii "v Renderer 9186  (3 tracks)"
check "ASCII ruler ticks" wait_for ascii " |                "
keys q
check "q exits 0 (ASCII, NO_COLOR)" wait_for ascii "EXIT=0"

start uf 120 40 -- tests/data/uftrace-work.json
# main lasts to its own E at the end (uftrace's stray "linux:schedule" E
# closes nothing, as in trace processor): the calls nest under it
# (pthread_create covers most of the busy cell before it: its box, and
# its name, start there)
check "uftrace sample: nested slice names are drawn" wait_for uf "░░pthread_create  pthread_join                              usleep"
check "uftrace sample: thread track" wait_for uf " thread 9900            │                  thread_main"
keys q
check "q exits 0 (uftrace)" wait_for uf "EXIT=0"

start pf 120 40 -- tests/data/chromium-tiny.pftrace
# (CrRendererMain 9427 has four rows: two same-ts instants stack, as in
# trace processor, so its counter starts on the screen's line 7)
check "Perfetto sample: a thread's counter under it, named with it, drawn as bars" \
	wait_line pf 7 " thread_time · CrRender…│                              ▂▃▄▄▄▅▅▆▆▆▇██████████████████████████████████████████████████████"
check "counter track shows its value range" \
	wait_line pf 8 "           0..325.5M ns │                              █████████████████████████████████████████████████████████████████"
keys q
check "q exits 0 (Perfetto)" wait_for pf "EXIT=0"

# ---- loading: progress bar, q cancels the import --------------------------------
python3 - "$TMP/big.json" <<'PY'
import sys
with open(sys.argv[1], 'w') as f:
    f.write('{"traceEvents":[\n')
    for i in range(2000000):
        f.write('{"ph":"X","pid":1,"tid":%d,"ts":%d,"dur":1,"name":"n%d"},\n' % (i % 8, i * 2, i % 50))
    f.write('{"ph":"M","pid":1,"tid":1,"name":"thread_name","args":{"name":"t"}}]}\n')
PY
start load 100 30 -- "$TMP/big.json"
check "a progress bar shows while the trace loads" wait_for load "termtrace: loading $TMP/big.json"
check "the progress line counts bytes and events" \
	wait_re load '^  [0-9.]+ [KMG]?B of 117.3 MB, [0-9]+ events$'
keys q
check "q during the import quits with 0" wait_for load "EXIT=0"
rm -f "$TMP/big.json"

start bad 80 24 -- tests/data/no-such-file.json
check "a missing file: exit 1 with a message" wait_for bad "EXIT=1"
