#!/usr/bin/env bash
# The Linux build against the faults of its surroundings: a console pipe
# that closes, closed and crowded descriptors, configuration that is not a
# file, run numbers used up, CPUs that do not exist, upload URLs that
# cannot be meant, small volumes, a memory cgroup, a slow upload server
# (docs/OUTPUT.md, "When files cannot be written"; docs/BUILD.md, "Exit
# status").
#
# Short runs only: every file left is read back with a real parser
# (python3's json and csv, tests/page_check.py for the HTML, with its
# closing tag) and every exit status checked.
set -uo pipefail
cd "$(dirname "$0")/.."
. tests/host_lib.bash faults-test

# A run of a fraction of a second, that still writes every kind of file.
SHORT="profile=quick probes=latency max_size=256K"

# files_parse RUN [--no-chart]: system.json loads as JSON, results.csv is
# a CSV whose rows all have the header's fields, report.html ends with
# </html> and parses whole (holding a chart, unless --no-chart: a run
# that measured nothing), summary.txt is there and report.txt ends with a
# whole line.
files_parse() {
	local run=$1
	[[ -d $run ]] || { echo "no run folder $run"; return 1; }
	python3 - "$run" <<'PY' || return 1
import csv, json, sys, os
run = sys.argv[1]
json.load(open(run + "/system.json"))
rows = list(csv.reader(open(run + "/results.csv", newline="")))
assert rows and all(len(r) == len(rows[0]) for r in rows), "results.csv: ragged rows"
txt = open(run + "/report.txt", "rb").read()
assert txt.endswith(b"\n"), "report.txt: not ended by a whole line"
assert os.path.getsize(run + "/summary.txt") > 0, "summary.txt empty"
PY
	[[ $(tail -n 1 "$run/report.html") == "</html>" ]] || { echo "$run/report.html: no </html>"; return 1; }
	python3 tests/page_check.py "$run/report.html" ${2:-} > "$work/page-check.log" 2>&1 ||
		{ cat "$work/page-check.log"; return 1; }
}

# refused WHAT PATTERN ARGS...: exit status 2 within 10 s, stderr matching
# PATTERN, and no probe started.
refused() {
	local what=$1 pattern=$2; shift 2
	local out=$work/refused.out err=$work/refused.err rc
	timeout 10 "$HOST_APP" "$@" > "$out" 2> "$err"
	rc=$?
	check "$what: exit status 2 at once (got $rc)" test "$rc" -eq 2
	check "$what: says '$pattern'" grep -q -- "$pattern" "$err"
	check "$what: before any probe ran" bash -c "! grep -q '^== latency' '$out'"
}

# ---- The console: a pipe that closes ----------------------------------------

dir=$work/head
"$HOST_APP" --out "$dir" $SHORT | head -1 > "$dir.head"
rc=${PIPESTATUS[0]}
check "| head -1: the run finishes, status 0 (got $rc; 141 is death by SIGPIPE)" test "$rc" -eq 0
check "| head -1: every file of the run parses" files_parse "$dir/run-0001"

# A tee killed once the run has written its first row: the console is
# gone from then on, the files are not.
dir=$work/tee
mkdir -p "$dir"
( "$HOST_APP" --out "$dir" profile=quick probes=latency max_size=2M 2> "$dir.err"; echo $? > "$dir.rc" ) |
	tee "$dir.log" > /dev/null &
for _ in $(seq 1 200); do
	[[ $(cat "$dir/run-0001/results.csv" 2> /dev/null | wc -l) -ge 2 ]] && break
	sleep 0.05
done
kill -KILL $! 2> /dev/null
wait 2> /dev/null
check "tee killed mid-run: the run finishes, status 0 (got $(cat "$dir.rc"))" test "$(cat "$dir.rc")" = 0
check "tee killed mid-run: every file of the run parses" files_parse "$dir/run-0001"
check "tee killed mid-run: stderr says the console failed and the run went on" \
	grep -q '^memprobe: the console (standard output) failed: Broken pipe; the run goes on' "$dir.err"

# ---- Descriptors: closed standard ones, and many inherited -----------------

dir=$work/closed
"$HOST_APP" --out "$dir" $SHORT <&- >&- 2>&-
rc=$?
check "<&- >&- 2>&-: status 0 (got $rc)" test "$rc" -eq 0
check "<&- >&- 2>&-: every file of the run parses" files_parse "$dir/run-0001"
check "<&- >&- 2>&-: report.txt holds the version line once (no console text in it twice)" \
	test "$(grep -c '^memprobe .* (build ' "$dir/run-0001/report.txt")" -eq 1
check "<&- >&- 2>&-: report.txt begins with the card, as a whole report does" \
	bash -c "head -n 1 '$dir/run-0001/report.txt' | grep -q '^== summary'"

dir=$work/crowded
python3 - "$HOST_APP" "$dir" $SHORT > "$dir.out" <<'PY'
import os, sys
fds = [os.open("/dev/null", os.O_RDONLY) for _ in range(70)]
for fd in fds:
    os.set_inheritable(fd, True)
app, out = sys.argv[1], sys.argv[2]
os.execv(app, [app, "--out", out] + sys.argv[3:])
PY

rc=$?
check "70 inherited descriptors: status 0 (got $rc)" test "$rc" -eq 0
check "70 inherited descriptors: every file of the run parses" files_parse "$dir/run-0001"
check "70 inherited descriptors: no draft left beside report.txt and report.html" \
	test -z "$(find "$dir/run-0001" -name 'report.draft.*')"
check "70 inherited descriptors: report.txt and report.html begin with the card" \
	bash -c "head -n 1 '$dir/run-0001/report.txt' | grep -q '^== summary' && grep -q 'id=\"summary\"' '$dir/run-0001/report.html'"

# ---- Refused at start --------------------------------------------------------

mkfifo "$work/fifo"
refused "--config on a FIFO" "^memprobe: --config $work/fifo: not a regular file: a FIFO" \
	--config "$work/fifo" $SHORT
refused "--config /dev/zero" "^memprobe: --config /dev/zero: not a regular file: a device" \
	--config /dev/zero $SHORT
mkdir -p "$work/used-up/run-9999"
refused "--out whose run numbers are used up (run-9999 there)" \
	"^memprobe: --out $work/used-up: already holds run-9999, the last number memprobe uses" \
	--out "$work/used-up" $SHORT
check "run numbers used up: no folder made past run-9999" \
	test "$(ls "$work/used-up")" = run-9999
refused "c2c.cpus=5-255 on a machine with fewer CPUs" "^memprobe: c2c.cpus names [0-9]* CPUs that do not exist here" \
	--out "$work/c2c" profile=quick probes=latency,c2c c2c.cpus=5-255 max_size=8K
ln -s loop-b "$work/loop-a"
ln -s loop-a "$work/loop-b"
refused "--out on a loop of symbolic links" \
	"^memprobe: --out $work/loop-a: Too many levels of symbolic links" --out "$work/loop-a" $SHORT

# ---- The desk commands on odd inputs ---------------------------------------

desk=$work/desk
mkdir -p "$desk/fleet/fifo-run"
cp -r "$work/head/run-0001" "$desk/fleet/good-run"
mkfifo "$desk/fleet/fifo-run/results.csv"
timeout 20 "$HOST_APP" fleet "$desk/fleet" --out "$desk/fleet-out" > "$desk/fleet.out" 2>&1
rc=$?
check "fleet with a run folder whose results.csv is a FIFO: finishes, status 1 as for any folder left out (got $rc)" test "$rc" -eq 1
check "fleet: the FIFO's folder is named as left out, and why" \
	grep -q "left out: $desk/fleet/fifo-run: its results.csv is not a regular file" "$desk/fleet.out"
timeout 20 "$HOST_APP" fleet "$desk/fleet" --db /dev/null --out "$desk/fleet-db" > "$desk/db.out" 2>&1
rc=$?
check "fleet --db /dev/null: refused, status 2 (got $rc), no /dev/null-journal left" \
	bash -c "[[ $rc == 2 ]] && [[ ! -e /dev/null-journal ]] && grep -q 'not a regular file' '$desk/db.out'"
timeout 20 "$HOST_APP" analyze "$work/head/run-0001/results.csv" --out "$desk/a/b/c" > /dev/null 2>&1
rc=$?
check "analyze --out a/b/c: the folders are made (status $rc)" \
	bash -c "[[ $rc == 0 ]] && [[ -f '$desk/a/b/c/report.html' ]]"

# ---- Upload: strict URLs, unique folders, a server that stalls -------------

refused "upload.url with user:pass@" "key 'upload.url'.*user information (user:password@) is not taken" \
	--out "$work/url" upload.url=http://user:pass@127.0.0.1:1/x $SHORT
refused "upload.url with a ?query" "key 'upload.url'.*a query (?...) is not taken" \
	--out "$work/url" "upload.url=http://127.0.0.1:1/x?a=b" $SHORT
refused "upload.url with port 0" "key 'upload.url'.*the port is not a number from 1 to 65535" \
	--out "$work/url" upload.url=http://127.0.0.1:0/x $SHORT
refused "upload.url with port 99999" "key 'upload.url'.*the port is not a number from 1 to 65535" \
	--out "$work/url" upload.url=http://127.0.0.1:99999/x $SHORT

# A PUT server on the loopback (MODE put: stores each file under ROOT and
# answers 201; MODE stall: takes the connection and never answers). It
# writes its port into ROOT/port once it listens.
cat > "$work/server.py" <<'PY'
import http.server, os, sys, time
mode, root = sys.argv[1], sys.argv[2]
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass
    def do_PUT(self):
        if mode == "stall":
            time.sleep(3600)
        body = self.rfile.read(int(self.headers["Content-Length"]))
        path = os.path.join(root, "files", self.path.lstrip("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(body)
        self.send_response(201)
        self.end_headers()
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
open(os.path.join(root, "port.tmp"), "w").write(str(s.server_address[1]))
os.rename(os.path.join(root, "port.tmp"), os.path.join(root, "port"))
s.serve_forever()
PY

# start_server MODE DIR: sets SERVER_PID and SERVER_PORT.
start_server() {
	mkdir -p "$2"
	python3 "$work/server.py" "$1" "$2" &
	SERVER_PID=$!
	for _ in $(seq 1 100); do [[ -f $2/port ]] && break; sleep 0.05; done
	SERVER_PORT=$(cat "$2/port" 2> /dev/null || echo 1)
}

srv=$work/server-put
start_server put "$srv"
dir=$work/together
"$HOST_APP" --out "$dir" $SHORT upload.url=http://127.0.0.1:$SERVER_PORT/fleet > "$dir.1.out" 2>&1 &
"$HOST_APP" --out "$dir" $SHORT upload.url=http://127.0.0.1:$SERVER_PORT/fleet > "$dir.2.out" 2>&1 &
wait %2 %3
kill "$SERVER_PID"
check "two runs in one second with one upload.url: two folders on the server" \
	test "$(find "$srv/files/fleet" -mindepth 2 -maxdepth 2 -type d -name 'run-*' | wc -l)" -eq 2
check "two runs with one upload.url: each says every file sent" \
	bash -c "grep -q '^upload: \([0-9]*\) of \1 files sent to' '$dir.1.out' && grep -q '^upload: \([0-9]*\) of \1 files sent to' '$dir.2.out'"
check "two runs with one upload.url: each server folder holds a system.json that parses" \
	python3 -c 'import glob,json,sys; f=glob.glob(sys.argv[1]+"/files/fleet/*/run-*/system.json"); assert len(f)==2; [json.load(open(x)) for x in f]' "$srv"

srv=$work/server-stall
start_server stall "$srv"
dir=$work/stall
start=$(date +%s.%N)
"$HOST_APP" --out "$dir" $SHORT upload.url=http://127.0.0.1:$SERVER_PORT/x > "$dir.out" 2>&1
rc=$?
took=$(echo "$(date +%s.%N) - $start" | bc)
check "a server that never answers: the run still ends with status 0 (got $rc)" test "$rc" -eq 0
check "a server that never answers: the run ends within the upload's 20 s and 5 s more ($took s)" \
	test "$(echo "$took < 25" | bc)" -eq 1
check "a server that never answers: every file of the run parses" files_parse "$dir/run-0001"
check "a server that never answers: the console says the upload failed, by file" \
	bash -c "grep -q '^upload: 0 of [0-9]* files sent to .*the upload FAILED for the rest' '$dir.out' && grep -q 'upload: system.json: .*the upload.s 20 s for the whole run are spent' '$dir.out'"

# SIGINT during the upload ends it at once, and says what was not sent.
dir=$work/stall-int
"$HOST_APP" --out "$dir" $SHORT upload.url=http://127.0.0.1:$SERVER_PORT/x > "$dir.out" 2> "$dir.err" &
RUN_PID=$!
for _ in $(seq 1 400); do grep -q '^== latency: done' "$dir.out" 2> /dev/null && break; sleep 0.05; done
sleep 1
start=$(date +%s.%N)
kill -INT "$RUN_PID"
wait "$RUN_PID"
rc=$?
took=$(echo "$(date +%s.%N) - $start" | bc)
kill "$SERVER_PID"
check "SIGINT during the upload: the run ends within 1 s ($took s)" test "$(echo "$took < 1" | bc)" -eq 1
check "SIGINT after the last probe: exit status as measured, 0 (got $rc)" test "$rc" -eq 0
check "SIGINT during the upload: every file of the run parses" files_parse "$dir/run-0001"
check "SIGINT after the last probe: system.json's stopped_by is empty, as every probe ran" \
	python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["stopped_by"] == ""' "$dir/run-0001/system.json"
check "SIGINT during the upload: the console names the files not sent" \
	grep -q '^upload: .*: NOT SENT: not sent: SIGINT asked the run to stop during the upload' "$dir.out"
check "SIGINT after the last probe: stderr says it stopped nothing" \
	grep -q '^memprobe: SIGINT came after the last probe had run' "$dir.err"

# ---- Stopping while a large buffer is faulted in ---------------------------

# A 1 GiB buffer takes seconds to fault in here; SIGINT as soon as the
# probe starts must stop the run within a second, not after the buffer.
dir=$work/faulting
"$HOST_APP" --out "$dir" profile=quick probes=latency pages=4k min_size=1G max_size=1G \
	latency.max_buffer=1G > "$dir.out" 2> "$dir.err" &
RUN_PID=$!
for _ in $(seq 1 400); do grep -q '^== latency ==' "$dir.out" 2> /dev/null && break; sleep 0.02; done
start=$(date +%s.%N)
kill -INT "$RUN_PID"
wait "$RUN_PID"
rc=$?
took=$(echo "$(date +%s.%N) - $start" | bc)
check "SIGINT while a 1 GiB buffer is faulted in: the run ends within 1 s ($took s)" \
	test "$(echo "$took < 1" | bc)" -eq 1
check "SIGINT while faulting in: exit status 3, stopped (got $rc)" test "$rc" -eq 3
check "SIGINT while faulting in: the report says the buffer was not made, and why" \
	grep -q 'not made: SIGINT asked the run to stop while its 1024 MiB were faulted in' "$dir.out"
check "SIGINT while faulting in: every file parses, system.json says stopped_by SIGINT" \
	bash -c "$(declare -f files_parse); work='$work'; files_parse '$dir/run-0001' --no-chart && python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))[\"stopped_by\"] == \"SIGINT\"' '$dir/run-0001/system.json'"

# ---- A memory cgroup: buffers sized from its limit, never killed -----------

# make_cgroup LIMIT: a child of this shell's memory cgroup (v2 memory.max,
# else v1 memory.limit_in_bytes) limited to LIMIT bytes; its folder in
# CGROUP, or 1 when none can be made here.
make_cgroup() {
	local own
	own=$(sed -n 's/^0:://p' /proc/self/cgroup)
	CGROUP=/sys/fs/cgroup$own/memprobe-faults-$$
	if [[ -n $own && -f /sys/fs/cgroup$own/memory.max ]] && mkdir "$CGROUP" 2> /dev/null &&
		echo "$1" > "$CGROUP/memory.max" 2> /dev/null; then
		return 0
	fi
	rmdir "$CGROUP" 2> /dev/null
	own=$(sed -n 's/^[0-9]*:[^:]*memory[^:]*://p' /proc/self/cgroup)
	CGROUP=/sys/fs/cgroup/memory$own/memprobe-faults-$$
	[[ -n $own ]] && mkdir "$CGROUP" 2> /dev/null &&
		echo "$1" > "$CGROUP/memory.limit_in_bytes" 2> /dev/null && return 0
	rmdir "$CGROUP" 2> /dev/null
	return 1
}

if make_cgroup $((160 << 20)); then
	dir=$work/cgroup
	# A 256 MiB buffer in a 160 MiB group: sized from MemAvailable alone,
	# it was faulted in and the kernel killed the run (137).
	bash -c "echo \$\$ > '$CGROUP/cgroup.procs' && exec '$HOST_APP' --out '$dir' profile=quick \
		probes=bandwidth pages=4k bandwidth.min_size=256M bandwidth.max_size=256M" > "$dir.out" 2>&1
	rc=$?
	rmdir "$CGROUP"
	check "a 256 MiB buffer in a 160 MiB memory cgroup: not killed, exit status 1 (got $rc)" \
		test "$rc" -eq 1
	check "memory cgroup: the report says the largest buffer that fits is below the sweep" \
		grep -q 'the largest buffer that fits now, [0-9]* KiB, is below the smallest size of the sweep' "$dir.out"
	check "memory cgroup: every file parses, system.json says the cgroup's limit applied" \
		bash -c "$(declare -f files_parse); work='$work'; files_parse '$dir/run-0001' --no-chart && python3 -c 'import json,sys; assert \"cgroup\" in json.load(open(sys.argv[1]))[\"platform\"][\"buffer_room_from\"]' '$dir/run-0001/system.json'"
	# The issue's case: tlb's 8 GiB buffer of 2 MiB pages in a 2 GiB group
	# was killed (137) after 8 s; sized from the limit, the sweep stops
	# short and says so. From 512 pages, so it takes seconds.
	if make_cgroup $((2 << 30)); then
		dir=$work/cgroup-2g
		bash -c "echo \$\$ > '$CGROUP/cgroup.procs' && exec '$HOST_APP' --out '$dir' profile=quick \
			probes=tlb pages=2m tlb.max_buffer=8G tlb.min_pages=512" > "$dir.out" 2>&1
		rc=$?
		rmdir "$CGROUP"
		check "tlb's 8 GiB of 2 MiB pages in a 2 GiB memory cgroup: not killed, exit status 0 or 1 (got $rc)" \
			bash -c "[[ $rc == 0 || $rc == 1 ]]"
		check "2 GiB memory cgroup: tlb says its sweep stops at the largest buffer that fits" \
			grep -q '^tlb, 2 MiB pages: memory for [0-9]* pages only ([0-9]* MiB, the largest buffer that fits now)' "$dir.out"
		check "2 GiB memory cgroup: every file of the run parses" files_parse "$dir/run-0001"
	fi
else
	echo "ok - # skipped: no memory cgroup can be made here (the memory-limit checks need one)"
fi

# ---- Small volumes: every file left parses, system.json always there --------

# A run whose files take about 250 KiB: 100 KiB cuts them, 300 KiB holds
# them but not report.html's card-first copy, 800 KiB holds everything.
# The room kept back for the closing files (closing.reserve) lets the
# final system.json and summary.txt in even at 100 KiB.
VOLUME_ARGS="profile=quick probes=latency,tlb max_size=1M pages=4k,2m"
# The three runs go together, each on its own volume.
mounted=()
for kb in 100 300 800; do
	mkdir -p "$work/volume-$kb"
	mount -t tmpfs -o size=${kb}k memprobe-faults "$work/volume-$kb" 2> /dev/null || break
	mounted+=("$kb")
	( "$HOST_APP" --out "$work/volume-$kb" $VOLUME_ARGS > "$work/volume-$kb.out" 2>&1
	  echo $? > "$work/volume-$kb.rc" ) &
done
wait
[[ ${#mounted[@]} -eq 3 ]] || echo "ok - # skipped: the small-volume checks need root (mount -t tmpfs)"
for kb in "${mounted[@]}"; do
	out=$work/volume-$kb.out
	rc=$(cat "$work/volume-$kb.rc")
	run=$work/volume-$kb/run-0001
	check "$kb KiB volume: system.json is there and parses as JSON" \
		python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$run/system.json"
	check "$kb KiB volume: results.csv, if there, holds whole rows only" \
		python3 -c 'import csv,os,sys; p=sys.argv[1]; r=list(csv.reader(open(p,newline=""))) if os.path.exists(p) else [[]]; assert all(len(x)==len(r[0]) for x in r)' "$run/results.csv"
	check "$kb KiB volume: report.txt, if there, ends with a whole line" \
		bash -c "[[ ! -s '$run/report.txt' ]] || [[ \$(tail -c 1 '$run/report.txt' | od -An -c | tr -d ' ') == '\\n' ]]"
	check "$kb KiB volume: no empty file, no draft and no reserve left" \
		test -z "$(find "$run" -type f \( -empty -o -name '*.draft.*' -o -name '*.reserve' \))"
	if [[ $kb == 100 ]]; then
		check "100 KiB volume: exit status 1 (got $rc), with the reason line" \
			bash -c "[[ $rc == 1 ]] && grep -q '^memprobe: the result files are missing or incomplete' '$out'"
		check "100 KiB volume: the console names the files cut" \
			grep -Eq '^(no results file written|results file cut): [a-z.]*: writing failed' "$out"
		check "100 KiB volume: system.json is the final one, and summary.txt is there (the reserve's room)" \
			python3 -c 'import json,os,sys; assert json.load(open(sys.argv[1]+"/system.json"))["state"] == "final"; assert os.path.getsize(sys.argv[1]+"/summary.txt") > 0' "$run"
		# How far the giving up goes depends on when the volume fills
		# (results.csv may fit once the reports gave way): the order is
		# what is checked.
		given_up=$(grep -o '^[a-z ]*: [a-z.]*: \(writing failed\|given up\)' "$out" | sed 's/.*: \([a-z.]*\): .*/\1/' | tr '\n' ' ')
		check "100 KiB volume: the least valuable file given up first (report.html, then report.txt, results.csv last; saw: ${given_up:-none})" \
			bash -c "echo '$given_up' | grep -Eq '^report.html (report.txt (results.csv )?)?\$'"
		check "100 KiB volume: report.html ends with </html> and parses whole, cut at its last whole section" \
			bash -c "[[ \$(tail -n 1 '$run/report.html') == '</html>' ]] && python3 tests/page_check.py '$run/report.html' --no-chart > '$work/page-check.log' 2>&1"
	else
		check "$kb KiB volume: exit status 0, every probe measured (got $rc)" test "$rc" -eq 0
		check "$kb KiB volume: every file of the run parses, system.json the final one" \
			bash -c "work='$work'; $(declare -f files_parse); files_parse '$run' && python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))[\"state\"] == \"final\"' '$run/system.json'"
	fi
	if [[ $kb == 300 ]]; then
		check "300 KiB volume: the card-first copy that did not fit is said, the run still succeeds" \
			bash -c "grep -q '^report.html: the summary could not be put first (writing the copy failed); the report is whole as it was written' '$out' && tail -n 1 '$out' | grep -q '^memprobe: verdict: success'"
	fi
	umount "$work/volume-$kb"
done

# ---- LeakSanitizer on every refusal exit --------------------------------------

SAN_APP=${SAN_APP:-$O/tests/memprobe-san}
if [[ -x $SAN_APP ]]; then
	for args in "probes=nope" "--config $work/fifo" "--config /dev/zero" \
		"upload.url=http://u:p@127.0.0.1/x" "--out" "bogus" "numa.node=1" \
		"profile=quick probes=c2c c2c.cpus=5-255" "--out $work/used-up probes=latency"; do
		ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:exitcode=99 $SAN_APP $args \
			> /dev/null 2> "$work/lsan.err"
		rc=$?
		check "refused under the sanitizers, '$args': exit status 2, no leak reported (got $rc)" \
			bash -c "[[ $rc == 2 ]] && ! grep -q LeakSanitizer '$work/lsan.err'"
	done
else
	echo "ok - # skipped: no $SAN_APP (make unit builds it) for the LeakSanitizer checks"
fi
