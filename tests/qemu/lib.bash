# Shared by the QEMU tests: boot the built image with options, then assert on
# the clean debugcon log and on the files the run left on the disk copy.
# Each assertion prints "ok - ..." or "FAIL - ..." for tests/run to count.

O=${O:-build}
IMG=${IMG:-$O/x86_64/memprobe.img}
QEMU_TEST_DIR=$O/qemu-tests
# esp IMG: "IMG@@OFFSET", what mtools' -i takes to reach the image's EFI
# System Partition; every mtools call on an image or a boot's DISK uses it.
. scripts/esp.bash

# boot NAME [qemu-run.sh options...]: sets BOOT_RC, LOG (debugcon), DISK, OUTDIR.
boot() {
	OUTDIR=$QEMU_TEST_DIR/$1/out
	DISK=$QEMU_TEST_DIR/$1/disk.img
	harness "$1" --image "$IMG" --out "$OUTDIR" "${@:2}"
}

# netboot NAME TFTP-DIR [qemu-run.sh options...]: the app netbooted from
# TFTP-DIR (BOOTX64.EFI, memprobe.cfg), no stick: sets BOOT_RC and LOG.
netboot() {
	harness "$1" --pxe "$2" "${@:3}"
}

# harness NAME [qemu-run.sh options...]: one boot in its own work folder.
# A boot killed at the timeout whose firmware never reached its boot
# manager (no BdsDxe line on the serial console, so the app never loaded)
# is booted once more, and harness.log says so: a fresh-clone CI's AArch64
# EL2 boot under TCG once stalled in the firmware for 240 s, where the same
# boot takes 13 s. A stall once the app has started is never retried.
harness() {
	local work=$QEMU_TEST_DIR/$1 try stalled=
	for try in 1 2; do
		rm -rf "$work"
		mkdir -p "$work"
		BOOT_RC=0
		scripts/qemu-run.sh --workdir "$work" --quiet --timeout "${QEMU_TEST_TIMEOUT:-240}" \
			"${@:2}" > "$work/harness.log" 2>&1 || BOOT_RC=$?
		[[ $BOOT_RC -eq 124 && $try -eq 1 ]] && ! grep -qa BdsDxe "$work/serial.log" || break
		stalled=$(cat "$work/harness.log")
	done
	if [[ -n $stalled ]]; then
		printf '%s\n' "$stalled" \
			"harness: that boot's firmware stalled before its boot manager; booted again:" \
			"$(cat "$work/harness.log")" > "$work/harness.log"
	fi
	LOG=$work/debugcon.log
}

check() {
	local what=$1; shift
	if "$@"; then
		echo "ok - $what"
	else
		echo "FAIL - $what"
		return 1
	fi
}

# log_has REGEX: the app printed a line matching REGEX.
log_has() { grep -Eq -- "$1" "$LOG"; }

# system_has PYTHON-EXPR: the run's system.json (as d) satisfies it.
system_has() {
	python3 - "$(run_folder)/system.json" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2], {}, {'d': d}) else 1)
PY
}

# The one run folder the boot brought back, or empty.
run_folder() { find "$OUTDIR" -mindepth 1 -maxdepth 1 -type d -name 'run-*' 2>/dev/null | sort | tail -n 1; }

# csv_count FILE PYTHON-EXPR: how many rows of results.csv satisfy the
# expression (a dict `r` per row, its row texts put back from system.json:
# tests/run_rows.py), e.g. "r['probe']=='latency'".
csv_count() {
	python3 - "$1" "$2" <<'PY'
import sys
sys.path.insert(0, 'tests')
from run_rows import run_rows
rows = run_rows(sys.argv[1])
print(sum(1 for r in rows if eval(sys.argv[2], {}, {'r': r, 'float': float})))
PY
}

# csv_all FILE PYTHON-EXPR: every row satisfies it (and there is at least one).
csv_all() {
	python3 - "$1" "$2" <<'PY'
import sys
sys.path.insert(0, 'tests')
from run_rows import run_rows
rows = run_rows(sys.argv[1])
sys.exit(0 if rows and all(eval(sys.argv[2], {}, {'r': r, 'float': float}) for r in rows) else 1)
PY
}

# image_with NAME [CONFIG-TEXT]: a copy of the built image holding an
# earlier run (\memprobe\run-0001\marker.txt) and, when given, CONFIG-TEXT as
# \EFI\BOOT\memprobe.cfg. Prints its path.
image_with() {
	local dir=$QEMU_TEST_DIR/images img fs
	mkdir -p "$dir"
	img=$dir/$1.img
	cp "$IMG" "$img"
	fs=$(esp "$img")
	# One marker file per NAME: suites running together never share one.
	printf 'an earlier run\n' > "$dir/$1.marker.txt"
	mmd -i "$fs" ::/memprobe ::/memprobe/run-0001
	mcopy -i "$fs" "$dir/$1.marker.txt" ::/memprobe/run-0001/marker.txt
	if [[ $# -ge 2 ]]; then
		printf '%s' "$2" > "$dir/$1.cfg"
		mcopy -i "$fs" "$dir/$1.cfg" ::/EFI/BOOT/memprobe.cfg
	fi
	echo "$img"
}

# The earlier run of image_with is still there, byte for byte, on the disk
# the boot used.
earlier_run_intact() {
	[[ "$(mtype -i "$(esp "$DISK")" ::/memprobe/run-0001/marker.txt 2>/dev/null)" == "an earlier run" ]] &&
	[[ "$(mdir -b -i "$(esp "$DISK")" ::/memprobe/run-0001 2>/dev/null | wc -l)" -eq 1 ]]
}

# The number of run folders on the disk the boot used.
runs_on_disk() { mdir -b -i "$(esp "$DISK")" ::/memprobe 2>/dev/null | grep -c 'run-'; }
