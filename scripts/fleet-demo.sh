#!/usr/bin/env bash
# `make fleet-demo MACHINES=N OUT=DIR`: a fleet of N netbooted machines in
# QEMU, each sending its results to a WebDAV server, then `memprobe fleet`
# over what arrived (docs/BUILD.md, "The fleet demo").
#
#   fleet-demo.sh --machines N --out DIR [--guests FILE]
#
# 1. nginx with its dav module on 127.0.0.1, a free port, its config and
#    logs in WORK/server, serving DIR (scripts/webdav.bash);
# 2. a TFTP folder, WORK/tftp, holding the app as BOOTX64.EFI and
#    memprobe.cfg beside it: a short profile with upload.url at the server
#    as the guests see it (10.0.2.2, QEMU's user network);
# 3. N guests netbooted one after another from that folder (no disk), each
#    with its own SMBIOS (type 1: manufacturer, product, serial, UUID;
#    type 17: a DIMM), memory size and -cpu model: the table of them is
#    made here, or read from --guests FILE (its rows are the machines;
#    the header is the one written), and kept as DIR/guests.csv;
# 4. the server stopped (a trap stops it whatever happens), then
#    `memprobe fleet DIR --out DIR --db DIR/fleet.db`.
#
# Each machine's files land in DIR/<SMBIOS UUID>/run-<stamp>/. Exit 0 when
# every guest reported success (so every one of its files reached the
# server: a netbooted run has nowhere else to keep them) and `memprobe
# fleet` succeeded; else 1, naming what failed; 2 bad use. DIR must be
# new or empty: an earlier demo's runs are never mixed in or overwritten.
# FLEET_GUEST_TIMEOUT (seconds, default 300) bounds each guest;
# FLEET_WORK (default $O/fleet-demo) is the work folder, emptied first.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/webdav.bash

O=${O:-build}
APP=$O/x86_64/memprobe.efi
HOST_APP=${HOST_APP:-$O/host/memprobe}
WORK=${FLEET_WORK:-$O/fleet-demo}
GUEST_TIMEOUT=${FLEET_GUEST_TIMEOUT:-300}
MACHINES_MAX=32
HEADER=uuid,manufacturer,product,serial,cpu,mem_mib,dimm_manufacturer,dimm_part,dimm_speed

# The profile each guest runs: TCG runs a guest at a small fraction of the
# host's speed, so a few probes at small sizes (about 15 s a guest here).
# The figures are the emulator's: the demo shows the flow, not a machine.
PROFILE='profile = quick
probes = latency,tlb,bandwidth
pages = 4k
max_size = 256K
tlb.max_pages = 64
bandwidth.max_size = 256K'

die() { echo "fleet-demo: $*" >&2; exit 2; }

machines= out= guests=
while [[ $# -gt 0 ]]; do
	case $1 in
	--machines) machines=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--guests) guests=$2; shift 2 ;;
	*) die "unknown option $1 (fleet-demo.sh --machines N --out DIR [--guests FILE])" ;;
	esac
done

[[ -n $out ]] || die "OUT is not set: make fleet-demo MACHINES=N OUT=DIR"
if [[ -e $out && ( ! -d $out || -n $(ls -A "$out") ) ]]; then
	die "OUT=$out exists and is not an empty folder: the demo writes into a new one, so no earlier run is mixed in or overwritten"
fi
[[ -f $APP ]] || die "$APP is not built (make efi)"
[[ -x $HOST_APP ]] || die "$HOST_APP is not built (make host)"

# The generated table: row i of N, every column different from one machine
# to the next (the lists cycle past their length).
make_table() {
	local n=$1 i
	local cpus=(EPYC-Milan Icelake-Server EPYC-Rome Skylake-Server Cascadelake-Server Haswell Broadwell Cooperlake)
	local vendors=(Acme Globex Initech Umbrella)
	local dimms=(Samsung:M393A2K43DB3-CWE:3200 SK-Hynix:HMA82GR7DJR8N-XN:2933 Micron:MTA18ASF2G72PDZ-3G2:3200 Kingston:KSM32RD8-16HDR:2666)
	echo "$HEADER"
	for ((i = 1; i <= n; i++)); do
		local d=${dimms[(i - 1) % ${#dimms[@]}]}
		printf '6d656d70-726f-4265-8000-%012x,%s,demo-node-%d,MPD-%04d,%s,%d,%s,%s,%s\n' \
			"$i" "${vendors[(i - 1) % ${#vendors[@]}]}" "$i" "$i" "${cpus[(i - 1) % ${#cpus[@]}]}" \
			$((512 + 256 * ((i - 1) % 8))) "${d%%:*}" "$(cut -d: -f2 <<< "$d")" "${d##*:}"
	done
}

# A table row is safe to pass to QEMU: QEMU's option syntax splits at
# commas, so a field holding one (or a blank) would give the guest
# something other than the table says.
check_table() {
	local file=$1 line n=0
	[[ $(head -n 1 "$file") == "$HEADER" ]] || die "--guests $file: its first line must be $HEADER"
	while IFS= read -r line; do
		n=$((n + 1))
		[[ $line =~ ^[0-9a-f-]{36},[A-Za-z0-9._-]+,[A-Za-z0-9._-]+,[A-Za-z0-9._-]+,[A-Za-z0-9._-]+,[1-9][0-9]*,[A-Za-z0-9._-]+,[A-Za-z0-9._-]+,[1-9][0-9]*$ ]] ||
			die "--guests $file: row $n is not uuid,word,word,word,cpu-model,MiB,word,word,MT/s (no blanks, no commas in a field): $line"
	done < <(tail -n +2 "$file")
	[[ $n -ge 1 ]] || die "--guests $file: no machine in it"
}

# Everything checked before the work folder (the last demo's logs) goes.
if [[ -n $guests ]]; then
	[[ -f $guests ]] || die "--guests $guests: no such file"
	check_table "$guests"
	rows=$(($(wc -l < "$guests") - 1))
	[[ -z $machines || $machines == "$rows" ]] || die "MACHINES=$machines but --guests $guests lists $rows"
	machines=$rows
else
	[[ $machines =~ ^[1-9][0-9]*$ && $machines -le $MACHINES_MAX ]] ||
		die "MACHINES=$machines: a count of guests, 1 to $MACHINES_MAX"
fi
rm -rf "$WORK"
mkdir -p "$WORK/tftp"
if [[ -n $guests ]]; then
	cp "$guests" "$WORK/guests.csv"
else
	make_table "$machines" > "$WORK/guests.csv"
fi

trap webdav_stop EXIT
mkdir -p "$out"
webdav_start "$WORK/server" full_put_path "$out" || { echo "fleet-demo: the WebDAV server did not start" >&2; exit 1; }
cp "$WORK/guests.csv" "$out/guests.csv"
cp "$APP" "$WORK/tftp/BOOTX64.EFI"
# The guests reach the host's loopback as 10.0.2.2; nginx's dav module
# makes the collections (the firmware's HTTP has no MKCOL).
printf '%s\nupload.url = http://10.0.2.2:%s/\n' "$PROFILE" "$WEBDAV_PORT" > "$WORK/tftp/memprobe.cfg"
echo "fleet-demo: WebDAV server (nginx) on 127.0.0.1:$WEBDAV_PORT serving $out; $machines guests netbooted from $WORK/tftp"

failed=()
i=0
while IFS=, read -r uuid vendor product serial cpu mem dimm_vendor dimm_part dimm_speed; do
	i=$((i + 1))
	start=$SECONDS rc=0
	scripts/qemu-run.sh --pxe "$WORK/tftp" --workdir "$WORK/guest-$i" --quiet \
		--timeout "$GUEST_TIMEOUT" --cpu "$cpu" --mem "${mem}M" \
		--smbios "type=1,manufacturer=$vendor,product=$product,serial=$serial,uuid=$uuid" \
		--smbios "type=17,loc_pfx=DIMM,bank=BANK0,manufacturer=$dimm_vendor,serial=$serial-D0,part=$dimm_part,speed=$dimm_speed" \
		< /dev/null > "$WORK/guest-$i.log" 2>&1 || rc=$?
	# No folder for the UUID (nothing arrived) is a count of 0, not an exit.
	runs=$( (find "$out/$uuid" -mindepth 1 -maxdepth 1 -type d -name 'run-*' 2>/dev/null || true) | wc -l)
	verdict=$(grep -E '^qemu-run: (verdict|TIMEOUT|NO VERDICT)' "$WORK/guest-$i.log" | tail -n 1 || true)
	echo "fleet-demo: guest $i/$machines: $vendor $product $serial, -cpu $cpu, -m ${mem}M, uuid $uuid: ${verdict#qemu-run: } in $((SECONDS - start)) s; $runs run folder(s) arrived"
	if [[ $rc -ne 0 || $runs -ne 1 ]]; then
		failed+=("guest $i ($uuid; log $WORK/guest-$i.log, console $WORK/guest-$i/debugcon.log)")
	fi
done < <(tail -n +2 "$WORK/guests.csv")
webdav_stop

echo "fleet-demo: $HOST_APP fleet $out --out $out --db $out/fleet.db"
if ! "$HOST_APP" fleet "$out" --out "$out" --db "$out/fleet.db"; then
	failed+=("memprobe fleet")
fi
if [[ ${#failed[@]} -gt 0 ]]; then
	printf 'fleet-demo: FAILED: %s\n' "${failed[@]}" >&2
	exit 1
fi
echo "fleet-demo: done in $SECONDS s: $out/fleet.csv, $out/fleet.html, $out/fleet.db"
