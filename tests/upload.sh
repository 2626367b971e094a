#!/usr/bin/env bash
# upload.url on Linux against a real WebDAV server (nginx's dav module on
# 127.0.0.1, started and stopped here; scripts/webdav.bash): every result
# file arrives under URL/<machine-id>/run-<stamp>/, byte for byte the run
# folder's; with nginx refusing PUTs under missing collections (500; Apache
# mod_dav answers 409) the client makes them with MKCOL; and a URL where
# nothing listens still gives a whole run, its files kept, the upload said
# FAILED by file. Nothing leaves the loopback interface.
set -uo pipefail
cd "$(dirname "$0")/.."
. tests/host_lib.bash upload-test
. scripts/webdav.bash
trap webdav_stop EXIT

ARGS="profile=quick probes=latency pages=4k max_size=256K"

# same_files RUN REMOTE: every file of the run folder is on the server,
# identical, and nothing else is.
same_files() {
	python3 - "$1" "$2" <<'PY'
import os, sys, filecmp
run, remote = sys.argv[1], sys.argv[2]
local = sorted(os.listdir(run))
got = sorted(os.listdir(remote))
assert local == got, (local, got)
for f in ('results.csv', 'system.json', 'report.txt', 'report.html', 'summary.txt'):
    assert f in got, (f, got)
for f in local:
    assert filecmp.cmp(os.path.join(run, f), os.path.join(remote, f), shallow=False), f
PY
}

for mode in full_put_path mkcol; do
	if ! webdav_start "$work/dav-$mode" "$([[ $mode == full_put_path ]] && echo full_put_path)"; then
		echo "FAIL - upload ($mode): the WebDAV server did not start"
		continue
	fi
	"$HOST_APP" $ARGS "upload.url=http://127.0.0.1:$WEBDAV_PORT/fleet/" --out "$work/out-$mode" \
		> "$work/$mode.out" 2> "$work/$mode.err"
	rc=$?
	webdav_stop
	run=$(find "$work/out-$mode" -mindepth 1 -maxdepth 1 -name 'run-*' | head -n 1)
	id=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['machine']['id'])" "$run/system.json" 2>/dev/null)
	remote=$(find "$WEBDAV_ROOT/fleet/$id" -mindepth 1 -maxdepth 1 -name 'run-*' 2>/dev/null | head -n 1)
	check "upload ($mode): the run succeeds" test "$rc" -eq 0
	check "upload ($mode): the start-up says where the files go" \
		grep -q "^upload: each result file to http://127.0.0.1:$WEBDAV_PORT/fleet/$id/run-[0-9]*T[0-9]*Z-[0-9]*-[0-9a-f]*/<file> (HTTP PUT)" "$work/$mode.out"
	check "upload ($mode): the server holds URL/<machine-id>/run-<stamp>/ ($id)" \
		test -n "$id" -a -n "$remote"
	check "upload ($mode): every file of the run folder arrived, byte for byte" same_files "$run" "$remote"
	n=$(ls "$run" | wc -l)
	check "upload ($mode): the end says $n of $n files sent" \
		grep -q "^upload: $n of $n files sent to http://127.0.0.1:$WEBDAV_PORT/fleet/$id/run-" "$work/$mode.out"
	check "upload ($mode): each file sent as it closed and again at the end (2 PUTs a file)" \
		test "$(grep -c '"PUT /fleet/' "$WEBDAV_ROOT/../logs/access.log")" -ge $((2 * n))
done
check "upload (mkcol): the refused PUTs were answered with MKCOL of each collection" \
	grep -q '"MKCOL /fleet/.*/run-[^ ]*/ HTTP/1.1" 201' "$work/dav-mkcol/logs/access.log"

# Nothing listens: a port taken and let go again.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$HOST_APP" $ARGS "upload.url=http://127.0.0.1:$port/fleet" --out "$work/out-none" \
	> "$work/none.out" 2> "$work/none.err"
rc=$?
run=$(find "$work/out-none" -mindepth 1 -maxdepth 1 -name 'run-*' | head -n 1)
check "upload (nothing listens): the run still succeeds" test "$rc" -eq 0
check "upload (nothing listens): its files are all in the run folder" \
	test -s "$run/results.csv" -a -s "$run/system.json" -a -s "$run/summary.txt"
check "upload (nothing listens): each file is said FAILED, with the reason" \
	grep -q "^upload: results.csv: FAILED after [0-9]* tr[a-z]*: connecting to 127.0.0.1:$port: Connection refused (kept in the run folder" "$work/none.out"
check "upload (nothing listens): the end says none was sent" \
	grep -q "^upload: 0 of [0-9]* files sent to .*; the upload FAILED for the rest" "$work/none.out"

"$HOST_APP" $ARGS "upload.url=tftp://127.0.0.1/x" --out "$work/out-tftp" > "$work/tftp.out" 2>&1
check "upload (tftp:// on Linux): refused plainly at start-up, the run goes on" \
	grep -q "^upload: NOT AVAILABLE: upload.url tftp://127.0.0.1/x: memprobe sends with HTTP PUT only" "$work/tftp.out"
