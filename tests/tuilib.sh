# tuilib.sh - what the tmux suites of the viewer share: a private tmux
# server (-L $S, no user config), windows of a fixed size running the
# viewer, send-keys, exact text from capture-pane, bounded polls. Source
# it after setting BIN, S and TMP (tests/sh/tui.sh shows how).
. "$(dirname "${BASH_SOURCE[0]}")/shlib.sh"
screen() { tmux -L $S capture-pane -p -t "$1"; }
line() { screen "$1" | sed -n "$(($2 + 1))p"; }

# wait_for WIN TEXT [TIMEOUT_TENTHS]: polls until the pane holds TEXT.
wait_for() {
	local i
	for ((i = 0; i < ${3:-50}; i++)); do
		screen "$1" | grep -qF -- "$2" && return 0
		sleep 0.1
	done
	return 1
}
# wait_re WIN REGEX: polls until a line of the pane matches REGEX (grep -E).
wait_re() {
	local i
	for ((i = 0; i < 50; i++)); do
		screen "$1" | grep -qE -- "$2" && return 0
		sleep 0.1
	done
	return 1
}
# wait_line WIN N TEXT: polls until line N (0-based) is exactly TEXT.
wait_line() {
	local i
	for ((i = 0; i < 50; i++)); do
		[ "$(line "$1" "$2")" = "$3" ] && return 0
		sleep 0.1
	done
	return 1
}
check() { # check WHAT COMMAND...
	local what=$1
	shift
	if "$@"; then ok "$what"; else notok "$what"; screen "$WIN" | sed 's/^/# /'; fi
}
keys() { tmux -L $S send-keys -t "$WIN" "$@"; }
# start NAME W H ENV... -- ARGS: a window running the viewer; when the
# viewer exits the pane prints its exit status and the terminal modes.
start() {
	local name=$1 w=$2 h=$3
	shift 3
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	local cmd="env LANG=C.UTF-8 TERM=xterm-256color XDG_STATE_HOME=$TMP/state XDG_CONFIG_HOME=$TMP/cfg ${envs[*]} $BIN $*; echo EXIT=\$?; stty -a | tr ' ;' '\n\n' | grep -xE -- '-?(icanon|echo)' | tr '\n' ' '; echo; sleep 60"
	if tmux -L $S has-session 2>/dev/null; then
		tmux -L $S new-window -d -n "$name" "$cmd"
	else
		tmux -L $S -f /dev/null new-session -d -s main -n "$name" -x "$w" -y "$h" "$cmd"
	fi
	# the size is checked: a resize can be lost under load
	local i
	for ((i = 0; i < 20; i++)); do
		tmux -L $S resize-window -t "$name" -x "$w" -y "$h" 2>/dev/null
		[ "$(tmux -L $S display -p -t "$name" '#{window_width}x#{window_height}')" = "${w}x${h}" ] && break
		sleep 0.05
	done
	WIN=$name
}

