# shlib.sh - what the shell suites in tests/sh share. Source it:
#   . "$(dirname "$0")/../shlib.sh"
# Results are lines "ok - WHAT" / "not ok - WHAT" (tests/run.sh counts them);
# details of a failure follow as "# " lines.

ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; }

# check NAME EXPECTED ACTUAL: equal strings pass; a diff explains a failure.
check() {
	if [ "$2" == "$3" ]; then
		ok "$1"
	else
		notok "$1"
		diff <(printf '%s\n' "$2") <(printf '%s\n' "$3") | sed 's/^/#   /'
	fi
}
