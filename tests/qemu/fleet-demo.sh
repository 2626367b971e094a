# Netbooted runs and the fleet demo (docs/BUILD.md, "The fleet demo"):
# scripts/fleet-demo.sh netboots 2 guests with the SMBIOS, memory and -cpu
# given here, each reading its memprobe.cfg from the boot server (the PXE
# base code's TFTP) and, with no volume, sending its files from memory to
# nginx's dav module; then `memprobe fleet` reads what arrived. Then the
# demo's refusals of bad input, a guest that cannot start (the server is
# stopped all the same), one netbooted guest whose upload.url has nothing
# listening, and one whose boot server has no memprobe.cfg.
cd "$(dirname "$0")/../.."
. tests/qemu/lib.bash

work=$QEMU_TEST_DIR/fleet
out=$work/out
demo=$work/demo      # the demo's work folder: server, TFTP, guests' logs
rm -rf "$work"
mkdir -p "$work"
guests=$work/guests.csv
cat > "$guests" <<'CSV'
uuid,manufacturer,product,serial,cpu,mem_mib,dimm_manufacturer,dimm_part,dimm_speed
4d500001-0000-4000-8000-00000000aa01,Acme,rack-a1,SN-A1,EPYC-Milan,512,Samsung,M393A1-TEST,3200
4d500002-0000-4000-8000-00000000bb02,Globex,rack-b2,SN-B2,Icelake-Server,768,Micron,MTA9-TEST,2933
CSV

rc=0
O=$O FLEET_WORK=$demo FLEET_GUEST_TIMEOUT=${QEMU_TEST_TIMEOUT:-240} scripts/fleet-demo.sh --guests "$guests" --out "$out" \
	> "$work/demo.log" 2>&1 || rc=$?
check "fleet demo: exits 0 (every guest uploaded, memprobe fleet succeeded)" test "$rc" -eq 0
# port_closed PORT: nothing listens on 127.0.0.1:PORT any more.
port_closed() {
	python3 - "$1" <<'PY'
import socket, sys
try:
    socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2).close()
except ConnectionRefusedError:
    sys.exit(0)
sys.exit(1)
PY
}
# Stopped: its port, from the config the demo wrote, refuses connections.
port=$(sed -n 's/^[[:space:]]*listen 127\.0\.0\.1:\([0-9]*\);/\1/p' "$demo/server/nginx.conf")
check "fleet demo: the server was stopped (port ${port:-unknown} closed)" port_closed "$port"

# Each machine: one run folder under its own SMBIOS UUID, its files parsed
# and its identity the one given.
check "fleet demo: each machine's run folder, under its UUID, holds results.csv and system.json that parse, with the identity given" \
	python3 - "$guests" "$out" <<'PY'
import csv, glob, json, os, sys
given, out = sys.argv[1], sys.argv[2]
for g in csv.DictReader(open(given)):
    runs = glob.glob(os.path.join(out, g['uuid'], 'run-*'))
    assert len(runs) == 1, (g['uuid'], runs)
    rows = list(csv.DictReader(open(os.path.join(runs[0], 'results.csv'), newline='')))
    assert rows and any(r['probe'] == 'latency' for r in rows), 'no latency rows'
    m = json.load(open(os.path.join(runs[0], 'system.json')))['machine']
    s = m['system']
    assert m['id'] == g['uuid'] and m['id_from'] == 'smbios_uuid', m['id']
    assert (s['manufacturer'], s['product'], s['serial']) == \
        (g['manufacturer'], g['product'], g['serial']), s
    assert m['memory_installed_bytes'] == int(g['mem_mib']) << 20, m['memory_installed_bytes']
    dimm = m['memory_devices'][0]
    assert (dimm['manufacturer'], dimm['part_number']) == \
        (g['dimm_manufacturer'], g['dimm_part']), dimm
PY

# Every file was sent as it closed and again at the end: two PUTs a file,
# all answered 2xx (nginx's access log).
check "fleet demo: every file PUT twice (as it closed, at the end), each taken" \
	python3 - "$demo/server/logs/access.log" "$out" <<'PY'
import collections, glob, os, re, sys
log, out = sys.argv[1], sys.argv[2]
puts = collections.Counter()
for line in open(log):
    m = re.search(r'"PUT (\S+) HTTP/1\.[01]" (\d+)', line)
    assert m, line
    assert m.group(2).startswith('2'), line
    puts[m.group(1)] += 1
files = ['/' + os.path.relpath(f, out) for f in glob.glob(os.path.join(out, '*', 'run-*', '*'))]
assert len(files) >= 10 and set(puts) == set(files), (sorted(puts), sorted(files))
assert all(n == 2 for n in puts.values()), puts
PY

LOG=$demo/guest-1/debugcon.log
check "fleet demo: a guest says its configuration came from the boot server" \
	log_has '^configuration: tftp://10\.0\.2\.2/memprobe\.cfg \(from the boot server, by the PXE base code.s TFTP\), no load options$'
check "fleet demo: a guest says its files are held in memory, and the bounds" \
	log_has '^memprobe: result files: in memory \(no boot volume: .*\), for upload\.url; at most 16 MiB a file and 64 MiB in all$'
check "fleet demo: a guest says every file was sent" log_has '^upload: ([0-9]+) of \1 files sent to http://10\.0\.2\.2:[0-9]+/4d500001-0000-4000-8000-00000000aa01/run-[0-9]{8}T[0-9]{6}-[0-9]+-[0-9a-f]{8}/$'

check "fleet demo: fleet.csv has a row per machine, with the identity given" \
	python3 - "$guests" "$out/fleet.csv" <<'PY'
import csv, sys
given = {g['uuid']: g for g in csv.DictReader(open(sys.argv[1]))}
rows = list(csv.DictReader(open(sys.argv[2], newline='')))
assert len(rows) == 2, rows
for r in rows:
    g = given[r['machine_id']]
    assert (r['manufacturer'], r['product'], r['serial'], r['uuid']) == \
        (g['manufacturer'], g['product'], g['serial'], g['uuid']), r
    assert int(r['memory_bytes']) == int(g['mem_mib']) << 20, r['memory_bytes']
PY
check "fleet demo: fleet.html was written" grep -q 'rack-b2' "$out/fleet.html"
check "fleet demo: sqlite3 lists the 2 machines in fleet.db, with the identity given" \
	test "$(sqlite3 "$out/fleet.db" 'SELECT id, manufacturer, product, serial FROM machines ORDER BY id;' 2>&1)" = \
	"$(printf '%s\n' 4d500001-0000-4000-8000-00000000aa01\|Acme\|rack-a1\|SN-A1 \
		4d500002-0000-4000-8000-00000000bb02\|Globex\|rack-b2\|SN-B2)"

# Bad input is refused before anything starts (exit 2): an OUT that holds
# files (an earlier demo's runs must not be mixed in), a count that is
# not one, a table row QEMU's option syntax would split.
rc=0; O=$O FLEET_WORK=$demo scripts/fleet-demo.sh --machines 2 --out "$out" > "$work/refused.log" 2>&1 || rc=$?
check "fleet demo: an OUT that is not empty is refused (exit 2), its files untouched" \
	test "$rc" -eq 2 -a -s "$out/fleet.csv" -a "$(find "$out" -name results.csv | wc -l)" -eq 2
check "fleet demo: ... and said so" grep -q "OUT=$out exists and is not an empty folder" "$work/refused.log"
rc=0; O=$O FLEET_WORK=$demo scripts/fleet-demo.sh --machines 0 --out "$work/out-0" > "$work/refused.log" 2>&1 || rc=$?
check "fleet demo: MACHINES=0 is refused (exit 2), plainly" \
	bash -c "test $rc -eq 2 && grep -q 'MACHINES=0: a count of guests' '$work/refused.log'"
sed 's/,Acme,/,Ac me,/' "$guests" > "$work/bad.csv"
rc=0; O=$O FLEET_WORK=$demo scripts/fleet-demo.sh --guests "$work/bad.csv" --out "$work/out-bad" > "$work/refused.log" 2>&1 || rc=$?
check "fleet demo: a guest table row with a blank in a field is refused (exit 2), naming the row" \
	bash -c "test $rc -eq 2 && grep -q 'row 1 is not uuid,' '$work/refused.log'"

# A guest that cannot start (a CPU model QEMU does not have): the demo
# goes on, fails naming it, and its server is stopped all the same.
sed -n '1p;3p' "$guests" | sed 's/,Icelake-Server,/,No-Such-CPU,/' > "$work/nocpu.csv"
rc=0; O=$O FLEET_WORK=$demo scripts/fleet-demo.sh --guests "$work/nocpu.csv" --out "$work/out-nocpu" > "$work/nocpu.log" 2>&1 || rc=$?
check "fleet demo: a guest that cannot start fails the demo (exit 1), named" \
	bash -c "test $rc -eq 1 && grep -q '^fleet-demo: FAILED: guest 1 (4d500002-' '$work/nocpu.log'"
port=$(sed -n 's/^[[:space:]]*listen 127\.0\.0\.1:\([0-9]*\);/\1/p' "$demo/server/nginx.conf")
check "fleet demo: ... and its server was stopped (port ${port:-unknown} closed)" port_closed "$port"

# Nothing listens: QEMU's user network answers a connection to a closed
# host port with a reset. The run finishes, says the upload failed by
# file, and, its files being nowhere else, fails its verdict.
tftp=$work/tftp-none
mkdir -p "$tftp"
cp "$O/x86_64/memprobe.efi" "$tftp/BOOTX64.EFI"
printf 'profile = quick\nprobes = latency\npages = 4k\nmax_size = 64K\nupload.url = http://10.0.2.2:9/fleet\n' \
	> "$tftp/memprobe.cfg"
netboot netboot-none "$tftp" --cpu max --mem 512M \
	--smbios "type=1,manufacturer=Acme,product=N1,uuid=4d500003-0000-4000-8000-00000000cc03"
check "netboot (nothing listens): the run finishes with a verdict (failure: its results are lost)" \
	test "$BOOT_RC" -eq 1
check "netboot (nothing listens): the probes ran" log_has '^== latency: done in [0-9]+ ms ==$'
check "netboot (nothing listens): each file is said FAILED, with the reason" \
	log_has '^upload: results\.csv: FAILED after [0-9]+ tr(y|ies): HTTP Request \(PUT\): EFI_CONNECTION_RESET'
check "netboot (nothing listens): the end says none was sent" \
	log_has '^upload: 0 of [0-9]+ files sent to http://10\.0\.2\.2:9/fleet/4d500003-0000-4000-8000-00000000cc03/run-[0-9]{8}T[0-9]{6}-[0-9]+-[0-9a-f]{8}/; the upload FAILED for the rest$'
check "netboot (nothing listens): the verdict says the files are lost" \
	log_has '^memprobe: the result files are missing or incomplete'

# No memprobe.cfg on the boot server: said plainly; the run goes on with
# the defaults (the full profile, far too long for TCG: stopped once the
# line is out).
rm "$tftp/memprobe.cfg"
QEMU_TEST_TIMEOUT=45 netboot netboot-nocfg "$tftp" --cpu max --mem 512M
check "netboot (no configuration): says none was found on the boot server" \
	log_has '^configuration: no file \(none found on the boot server: tftp://10\.0\.2\.2/memprobe\.cfg: .*\), no load options$'
check "netboot (no configuration): the run goes on, with no volume and no upload" \
	log_has '^memprobe: none: .*: no result file is written, results are on the console only$'
