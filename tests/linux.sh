#!/usr/bin/env bash
# The Linux build under a hostile user: signals, SIGKILL, bad paths, a
# full disk, runs started together (docs/OUTPUT.md, "Cut-short runs" and
# "When files cannot be written"; docs/BUILD.md, "Exit status").
#
# Every run here is a real build/host/memprobe. A signal is sent once the
# run has written a row of its first probe, never after a guessed delay,
# so no check depends on how fast this machine is.
set -uo pipefail
cd "$(dirname "$0")/.."
. tests/host_lib.bash linux-test

# Long enough that a signal after the first row always finds it running.
LONG_ARGS="profile=quick probes=latency,tlb,bandwidth pages=4k,2m"

# rows FILE: results.csv's data rows.
rows() { [[ -f $1 ]] && echo $(( $(wc -l < "$1") - 1 )) || echo 0; }

# start_run DIR: a run in the background, console in DIR.out and DIR.err;
# sets RUN_PID.
start_run() {
	"$HOST_APP" --out "$1" $LONG_ARGS > "$1.out" 2> "$1.err" &
	RUN_PID=$!
}

# wait_rows DIR N: until the run's results.csv holds N rows while its first
# probe is still running (its "== latency: done" line not yet shown), or
# the run ended. 0 when the rows came first.
wait_rows() {
	local csv=$1/run-0001/results.csv
	while kill -0 "$RUN_PID" 2> /dev/null; do
		if [[ $(rows "$csv") -ge $2 ]] && ! grep -q '^== latency: done' "$1.out"; then
			return 0
		fi
		sleep 0.05
	done
	return 1
}

# json_member FILE KEY: system.json parses, and prints that member.
json_member() {
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"
}

# csv_whole FILE [--but-last]: every line has as many fields as the
# header (but the last, with --but-last: the row being written when the
# process was killed), and there is a header.
csv_whole() {
	python3 - "$@" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
if "--but-last" in sys.argv:
    rows = rows[:-1]
sys.exit(0 if rows and all(len(r) == len(rows[0]) for r in rows) else 1)
PY
}

# has_latency_rows FILE N: results.csv parses whole with N latency rows.
has_latency_rows() {
	csv_whole "$1" && [[ $(grep -c '^latency,' "$1") -ge $2 ]]
}

# page_closed PAGE: report.html ends with </html> and parses as a whole
# page (tests/page_check.py without --cut).
page_closed() {
	[[ $(tail -n 1 "$1") == "</html>" ]] && python3 tests/page_check.py "$1" > "$1.check" 2>&1
}

# ---- SIGINT, SIGTERM, SIGHUP: stopped, every file closed -------------------

for sig in INT TERM HUP; do
	dir=$work/sig-$sig
	start_run "$dir"
	if ! wait_rows "$dir" 1; then
		fail "SIG$sig: the run wrote no row before its first probe ended (see $dir.out)"
		wait "$RUN_PID"
		continue
	fi
	kill -s "$sig" "$RUN_PID"
	wait "$RUN_PID"
	rc=$?
	run=$dir/run-0001
	check "SIG$sig: the run exits with status 3, stopped (got $rc)" test "$rc" -eq 3
	check "SIG$sig: system.json parses and says stopped_by SIG$sig" \
		test "$(json_member "$run/system.json" stopped_by 2> /dev/null)" = "SIG$sig"
	check "SIG$sig: results.csv keeps the running probe's rows, each whole" \
		has_latency_rows "$run/results.csv" 1
	check "SIG$sig: report.html is closed: </html>, and it parses whole" \
		page_closed "$run/report.html"
	check "SIG$sig: report.html's verdict says the run was stopped" \
		grep -q "class=\"verdict failed\">verdict: STOPPED by SIG$sig" "$run/report.html"
	check "SIG$sig: the console and report.txt say RUN STOPPED by it" \
		bash -c "grep -q '^RUN STOPPED: SIG$sig' '$dir.out' && grep -q '^RUN STOPPED: SIG$sig' '$run/report.txt'"
	check "SIG$sig: the console ends with the card, then the verdict STOPPED by it" \
		bash -c "tail -n 1 '$dir.out' | grep -q '^memprobe: verdict: STOPPED by SIG$sig\$' && grep -q '^== summary: the memory hierarchy, measured ==' '$dir.out'"
	check "SIG$sig: stderr says the stop and its exit status" \
		grep -q "^memprobe: stopped by SIG$sig: .*(exit status 3)" "$dir.err"
	check "SIG$sig: no probe after the stop ran" bash -c "! grep -q '^== bandwidth ==' '$dir.out'"
done

# ---- A second signal ends the run at once; an echo of the first does not ----

# Trials of 4 s: once a row is written, the next trial runs for 4 s, and
# the run stops only after it, so it is still measuring when the second
# signal comes 1.2 s after the first.
SLOW_ARGS="profile=quick probes=latency,tlb pages=4k min_size=4K max_size=64K trials=1 max_trials=1 step_ms=4000"

# start_slow DIR: as start_run, with SLOW_ARGS.
start_slow() {
	"$HOST_APP" --out "$1" $SLOW_ARGS > "$1.out" 2> "$1.err" &
	RUN_PID=$!
}

# wait_stopping DIR: until the run said it heard the first signal.
wait_stopping() {
	while kill -0 "$RUN_PID" 2> /dev/null && ! grep -q '^memprobe: SIG[A-Z]*: stopping' "$1.err"; do
		sleep 0.05
	done
}

dir=$work/second
start_slow "$dir"
if wait_rows "$dir" 1; then
	kill -s INT "$RUN_PID"
	wait_stopping "$dir"
	sleep 1.2
	kill -s TERM "$RUN_PID"
	wait "$RUN_PID"
	rc=$?
	check "a second signal ends the run at once, by that signal (status $rc)" test "$rc" -eq 143
	check "a second signal: system.json is the one written at the start (state running), as after a kill" \
		test "$(json_member "$dir/run-0001/system.json" state 2> /dev/null)" = running
else
	wait "$RUN_PID"
	fail "a second signal: the slow run wrote no row (see $dir.out)"
fi

# timeout(1) signals its child and then its process group: the child hears
# the signal twice at once, which is one request. SIGINT then SIGTERM, sent
# together: two signals that the kernel cannot merge into one, the second
# delivered as soon as the first's handler returns.
dir=$work/echo
start_slow "$dir"
if wait_rows "$dir" 1; then
	kill -s INT "$RUN_PID"
	kill -s TERM "$RUN_PID"
	wait "$RUN_PID"
	rc=$?
	check "two signals at once are one request: stopped, exit status 3 (got $rc)" \
		test "$rc" -eq 3
	check "two signals at once: system.json says stopped_by the first, SIGINT" \
		test "$(json_member "$dir/run-0001/system.json" stopped_by 2> /dev/null)" = SIGINT
	check "two signals at once: the trial under way ended its series, its row kept, stop rule 'signal'" \
		grep -Eq '^ +[0-9]+ KiB +[0-9.]+ +[0-9.]+ +1 +[0-9.]+% signal ' "$dir/run-0001/report.txt"
else
	wait "$RUN_PID"
	fail "two signals at once: the slow run wrote no row (see $dir.out)"
fi

# ---- SIGKILL: at most the row being written is lost -------------------------

dir=$work/kill
start_run "$dir"
if wait_rows "$dir" 2; then
	kill -9 "$RUN_PID"
	wait "$RUN_PID" 2> /dev/null
	csv=$dir/run-0001/results.csv
	# Each row is written as it is made: rows of a probe still running are
	# on disk. The last line may be the row in progress, cut; all before it
	# are whole.
	check "SIGKILL mid-probe: results.csv holds the running probe's rows" \
		test "$(grep -c '^latency,' "$csv")" -ge 2
	check "SIGKILL mid-probe: every row but the one being written is whole" \
		csv_whole "$csv" --but-last
else
	wait "$RUN_PID"
	fail "SIGKILL mid-probe: results.csv held no row while latency still ran (rows written only when a probe ends?)"
fi

# ---- Bad paths and sizes: exit 2 before any probe --------------------------

# refused WHAT PATTERN ARGS...: exit status 2, stderr matching PATTERN, and
# no probe started.
refused() {
	local what=$1 pattern=$2; shift 2
	local out=$work/refused.out err=$work/refused.err rc
	"$HOST_APP" "$@" probes=latency profile=quick > "$out" 2> "$err"
	rc=$?
	check "$what: exit status 2 (got $rc)" test "$rc" -eq 2
	check "$what: says '$pattern'" grep -q -- "$pattern" "$err"
	check "$what: before any probe ran" bash -c "! grep -q '^== latency' '$out'"
}

: > "$work/a-file"
refused "--out on a regular file" "^memprobe: --out $work/a-file: not a folder" --out "$work/a-file"
refused "--out under a regular file" "^memprobe: --out $work/a-file/sub: cannot create it: Not a directory" \
	--out "$work/a-file/sub"
refused '--out ""' '^memprobe: --out "": an empty path names no folder' --out ""
refused "--out under /proc" "^memprobe: --out /proc/memprobe: cannot create it" --out /proc/memprobe
refused "--out /proc itself" "^memprobe: --out /proc: cannot write a file there" --out /proc
long=$work/$(printf 'd%.0s' $(seq 1 250))
long=$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long
refused "--out longer than PATH_MAX" "^memprobe: --out: a path of ${#long} bytes is too long" --out "$long"
check "--out longer than PATH_MAX: nothing made under a shortened name" test ! -e "${long:0:4063}"
refused "--config on a folder" "^memprobe: --config $work: not a regular file: a folder" \
	--config "$work"
refused "pages=16k on x86-64" "key 'pages': 16 KiB is not an x86-64 page size" --out "$work/pages" pages=16k
check "pages=16k: no run folder made" test ! -e "$work/pages"

# ---- A full disk: each cut file named, every file on it whole ---------------

mnt=$work/tmpfs
mkdir -p "$mnt"
if mount -t tmpfs -o size=100k memprobe-test "$mnt" 2> /dev/null; then
	"$HOST_APP" --out "$mnt" profile=quick probes=latency,tlb,bandwidth \
		> "$work/full.out" 2> "$work/full.err"
	rc=$?
	run=$mnt/run-0001
	check "100 KiB tmpfs: the run exits 1, failed (got $rc)" test "$rc" -eq 1
	check "100 KiB tmpfs: warned before the first probe that the room is short" \
		grep -q "^memprobe: --out $mnt: only [0-9]* KiB free, and this run's files take about" \
		"$work/full.out"
	check "100 KiB tmpfs: the console names a file that was cut" \
		grep -Eq '^(no results file written|results file cut): [a-z.]*: writing failed' "$work/full.out"
	check "100 KiB tmpfs: the run went on to its last probe" grep -q '^== bandwidth: ' "$work/full.out"
	check "100 KiB tmpfs: results.csv, if there, holds whole rows only" \
		bash -c "[[ ! -f '$run/results.csv' ]] || { $(declare -f csv_whole); csv_whole '$run/results.csv'; }"
	check "100 KiB tmpfs: system.json, if there, parses" \
		bash -c "[[ ! -f '$run/system.json' ]] || python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '$run/system.json'"
	check "100 KiB tmpfs: report.txt, if there, ends with a whole line" \
		bash -c "[[ ! -s '$run/report.txt' ]] || [[ \$(tail -c 1 '$run/report.txt' | od -An -c | tr -d ' ') == '\\n' ]]"
	check "100 KiB tmpfs: every chart there is whole SVG" \
		python3 -c 'import sys,glob,xml.etree.ElementTree as ET; [ET.parse(f) for f in glob.glob(sys.argv[1] + "/*.svg")]' "$run"
	check "100 KiB tmpfs: no empty file is left" test -z "$(find "$run" -type f -empty)"
	umount "$mnt"
	if mount -t tmpfs -o size=16k memprobe-test "$mnt" 2> /dev/null; then
		refused "16 KiB tmpfs" "^memprobe: --out $mnt: only [0-9]* KiB free, and a run's files need at least 64 KiB" \
			--out "$mnt"
		umount "$mnt"
	fi
else
	echo "ok - # skipped: the tmpfs checks need root (mount -t tmpfs)"
fi

# ---- Two runs started together: two folders --------------------------------

dir=$work/together
"$HOST_APP" --out "$dir" profile=quick probes=cost cost.reps=1000 > /dev/null 2>&1 &
"$HOST_APP" --out "$dir" profile=quick probes=cost cost.reps=1000 > /dev/null 2>&1 &
wait
check "two runs started together into one --out make two run folders" \
	test "$(find "$dir" -mindepth 1 -maxdepth 1 -name 'run-*' -type d | wc -l)" -eq 2

# ---- The console: the opening line, progress, --quiet -----------------------

# A run in a pipe: the opening line names the probes and an estimate; one
# progress line per probe, each a whole line (no carriage return: a log
# gets no redrawing); with --quiet at most 40 lines, the card last.
dir=$work/console
CONSOLE_ARGS="profile=quick probes=locality,cost cost.reps=1000 locality.rows=300 locality.cols=301"
"$HOST_APP" --out "$dir" $CONSOLE_ARGS > "$dir.out" 2> "$dir.err"
"$HOST_APP" --out "$dir" --quiet $CONSOLE_ARGS > "$dir.quiet" 2> "$dir.qerr"
check "console: the opening line names the probes and an estimate" \
	grep -qE '^memprobe: 2 probes to run: locality, cost; estimated [0-9]+ (s|min)' "$dir.out"
check "console: one progress line per probe, in run order, with its share and time left" \
	test "$(grep -E '^memprobe: \[[12]/2\] (locality|cost): [0-9]+% of the run; about [0-9]' \
		"$dir.out" | cut -d' ' -f2,3 | tr '\n' ' ')" = "[1/2] locality: [2/2] cost: "
check "console: a pipe gets whole lines, no carriage return" bash -c "! grep -q $'\r' '$dir.out'"
check "console: the last line says how long the probes took against the estimate" \
	grep -qE '^memprobe: the probes took [0-9]+ (s|min).* \(estimated at the start: ' "$dir.out"
check "--quiet: at most 40 lines" test "$(wc -l < "$dir.quiet")" -le 40
check "--quiet: the card last" \
	test "$(tail -n 1 "$dir.quiet")" = "$(tail -n 1 "$dir/run-0002/summary.txt")"
check "--quiet: the opening line and the progress lines stay" \
	test "$(grep -cE '^memprobe: (2 probes to run|\[[12]/2\])' "$dir.quiet")" -eq 3
check "--quiet: the probes' own text is left out" bash -c "! grep -q '^== cost' '$dir.quiet'"
check "--quiet: report.txt keeps the whole text" grep -q '^== cost: done in' "$dir/run-0002/report.txt"
# No APERF for a process: each probe's cycles come from the add chain
# measured around each of its timed sections, and the report says so.
check "cycles: each probe says its cycles come from the add chain around each section" \
	test "$(grep -cE '^(locality|cost): cycles from: no APERF/MPERF readable under Linux: the add-chain clock around each timed section \(the best of 3 chains of 65536 adds before it and after it, averaged\); at the probe.s start [1-9][0-9]* MHz$' "$dir/run-0001/report.txt")" -eq 2
