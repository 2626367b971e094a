# upload.url on bare metal: the EFI app sends every result file with
# EFI_HTTP_PROTOCOL (OVMF's HttpDxe, plain http, PUT) through QEMU's user
# network to a WebDAV server (nginx's dav module) on the host's loopback,
# started and stopped here (scripts/webdav.bash). The guest is isolated
# (restrict=on); its one way out is a guestfwd from 10.0.2.100:8080 to the
# server's 127.0.0.1 port. The files arrive under URL/<SMBIOS UUID>/run-
# <stamp>/, byte for byte the copies on the stick. Then with nothing to
# answer: the run still succeeds, its files are on the stick, and the
# upload is said FAILED by file.
cd "$(dirname "$0")/../.."
. tests/qemu/lib.bash
. scripts/webdav.bash
trap webdav_stop EXIT

uuid=0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d
args="profile=quick probes=latency pages=4k max_size=64K upload.url=http://10.0.2.100:8080/fleet"
# The EFI HTTP protocol has no MKCOL (its methods are GET, POST, PATCH,
# OPTIONS, CONNECT, HEAD, PUT, DELETE, TRACE): the server makes the
# collections (nginx: create_full_put_path on).
if webdav_start "$QEMU_TEST_DIR/upload-dav" full_put_path; then
	boot upload --cpu max --mem 512M \
		--net "restrict=on,guestfwd=tcp:10.0.2.100:8080-tcp:127.0.0.1:$WEBDAV_PORT" \
		--smbios "type=1,manufacturer=Acme,product=U1,uuid=$uuid" --args "$args"
	webdav_stop
	run=$(run_folder)
	remote=$(find "$WEBDAV_ROOT/fleet/$uuid" -mindepth 1 -maxdepth 1 -name 'run-*' 2>/dev/null | head -n 1)
	check "upload (EFI): success" test "$BOOT_RC" -eq 0
	check "upload (EFI): the server holds fleet/<SMBIOS UUID>/run-<stamp>/" test -n "$remote"
	check "upload (EFI): every file of the run folder arrived, byte for byte" python3 - "$run" "$remote" <<'PY'
import filecmp, os, sys
run, remote = sys.argv[1], sys.argv[2]
local, got = sorted(os.listdir(run)), sorted(os.listdir(remote))
assert local == got, (local, got)
for f in ('results.csv', 'system.json', 'report.txt', 'report.html', 'summary.txt'):
    assert f in got, f
for f in local:
    assert filecmp.cmp(os.path.join(run, f), os.path.join(remote, f), shallow=False), f
PY
	n=$(ls "$run" | wc -l)
	check "upload (EFI): the console says $n of $n files sent" \
		log_has "^upload: $n of $n files sent to http://10.0.2.100:8080/fleet/$uuid/run-[0-9]{8}T[0-9]{6}-[0-9]{4}-[0-9a-f]{8}/\$"
	check "upload (EFI): the server folder carries the run folder's number ($(basename "$run"))" \
		test "$(basename "$remote" | cut -d- -f3)" = "$(basename "$run" | cut -d- -f2)"
else
	echo "FAIL - upload (EFI): the WebDAV server did not start"
fi

# Nothing listens: the isolated guest's connection to the host's 10.0.2.2
# is reset by QEMU (restrict=on, no forward for it).
boot upload-none --cpu max --mem 512M --net restrict=on \
	--smbios "type=1,manufacturer=Acme,product=U2,uuid=$uuid" \
	--args "${args/10.0.2.100:8080/10.0.2.2:9}"
run=$(run_folder)
check "upload (EFI, nothing listens): the run still succeeds" test "$BOOT_RC" -eq 0
check "upload (EFI, nothing listens): its files are on the stick" \
	test -s "$run/results.csv" -a -s "$run/system.json" -a -s "$run/summary.txt"
check "upload (EFI, nothing listens): each file is said FAILED" \
	log_has "^upload: results.csv: FAILED after [0-9]+ tr(y|ies): "
check "upload (EFI, nothing listens): the end says none was sent" \
	log_has "^upload: 0 of [0-9]+ files sent to .*; the upload FAILED for the rest"
