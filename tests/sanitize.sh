#!/usr/bin/env bash
# The Linux app under AddressSanitizer and UBSan (build/tests/memprobe-san,
# the unit tests' objects and flags): a short run of every probe that runs
# on Linux, a run stopped by SIGINT, `analyze` on a run, on a cut
# results.csv and on a cut system.json, `compare` of two runs, and `fleet`
# over them with a database. Any
# sanitizer report fails the check it came from, whatever the exit status.
set -uo pipefail
cd "$(dirname "$0")/.."
O=${O:-build}
SAN_APP=${SAN_APP:-$O/tests/memprobe-san}
work=$O/sanitize-test
rm -rf "$work"
mkdir -p "$work"

export ASAN_OPTIONS=halt_on_error=1:abort_on_error=0:detect_leaks=1:exitcode=99
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=99

fail() { echo "FAIL - $*"; }
check() {
	local what=$1; shift
	if "$@"; then echo "ok - $what"; else fail "$what"; fi
}

if [[ ! -x $SAN_APP ]]; then
	fail "no $SAN_APP: make unit builds it"
	exit 1
fi

# clean NAME: the sanitizers said nothing on NAME's stderr.
clean() {
	if grep -Eq 'ERROR: (Address|Leak)Sanitizer|runtime error:|SUMMARY: (Address|Leak|Undefined)' \
		"$work/$1.err"; then
		sed -n '1,30p' "$work/$1.err" | sed 's/^/    /'
		return 1
	fi
}

# rc_clean TEST VALUE NAME: the last status passes `[[ RC TEST VALUE ]]`
# (-eq 0, -le 1) and NAME's stderr holds no sanitizer report.
rc_clean() { test "$RC" "$1" "$2" && clean "$3"; }

# san NAME ARGS...: the sanitized app, its output in NAME.out and NAME.err;
# sets RC.
san() {
	local name=$1; shift
	"$SAN_APP" "$@" > "$work/$name.out" 2> "$work/$name.err"
	RC=$?
}

# Small sizes: every probe that runs on Linux, in seconds even under ASan.
SHORT="profile=quick pages=4k,2m max_size=1M tlb.max_pages=256 bandwidth.max_size=256K
	locality.rows=256 locality.cols=256 later.table=1M cost.reps=20000
	loaded.size=1M loaded.load_size=1M"
# shellcheck disable=SC2086 # the pairs are meant to split
run_short() { san "$1" --out "$work/$2" $SHORT; }

run_short run-a runs
check "sanitized run: exits 0 or 1 (status $RC), no sanitizer report" rc_clean -le 1 run-a
run_short run-b runs
check "sanitized second run: exits 0 or 1 (status $RC), no report" rc_clean -le 1 run-b

a=$work/runs/run-0001 b=$work/runs/run-0002
san analyze analyze "$a/results.csv" --out "$work/analyze"
check "sanitized analyze: exit 0 (status $RC), no report" rc_clean -eq 0 analyze
san compare compare "$a" "$b" --out "$work/compare"
check "sanitized compare: exit 0 (status $RC), no report" rc_clean -eq 0 compare

# Cut files: refused or read in part, never a sanitizer report.
mkdir -p "$work/cut/run-0001"
head -c 3000 "$a/results.csv" > "$work/cut/run-0001/results.csv"
head -c 1500 "$a/system.json" > "$work/cut/run-0001/system.json"
san analyze-cut analyze "$work/cut/run-0001/results.csv" --out "$work/analyze-cut"
check "sanitized analyze of cut files: exits 0-2 (status $RC), no report" \
	rc_clean -le 2 analyze-cut
san compare-cut compare "$a" "$work/cut/run-0001" --out "$work/compare-cut"
check "sanitized compare with a cut run: exits 0-2 (status $RC), no report" \
	rc_clean -le 2 compare-cut
san fleet fleet "$work/runs" "$work/cut" --all --out "$work/fleet" --db "$work/fleet.db"
check "sanitized fleet --db over both runs and the cut one: exit 1, the cut one left out (status $RC), no report" \
	rc_clean -eq 1 fleet

# A stop by SIGINT once the first row is written: the stop path too.
# shellcheck disable=SC2086
"$SAN_APP" --out "$work/stopped" $SHORT > "$work/stopped.out" 2> "$work/stopped.err" &
pid=$!
while kill -0 "$pid" 2> /dev/null && [[ ! -s $work/stopped/run-0001/results.csv ||
	$(wc -l < "$work/stopped/run-0001/results.csv") -lt 2 ]]; do
	sleep 0.05
done
kill -s INT "$pid" 2> /dev/null
wait "$pid"
RC=$?
check "sanitized run stopped by SIGINT: exit 3 (status $RC), no report" rc_clean -eq 3 stopped
