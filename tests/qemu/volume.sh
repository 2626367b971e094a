# A read-only or full boot volume: the run goes on, on the console, says
# plainly that its files were not (all) written, fails its verdict, and
# leaves earlier runs as they were.
cd "$(dirname "$0")/../.."
. tests/qemu/lib.bash

ARGS="profile=quick probes=latency,cost pages=4k max_size=16K cost.reps=2000"

img=$(image_with readonly)
boot readonly --image "$img" --readonly --cpu max --mem 256M --args "$ARGS"
check "read-only: says plainly that no file is written" \
	log_has '^memprobe: none: cannot create \\memprobe on the boot volume: EFI_WRITE_PROTECTED \(read-only volume\): no result file is written'
check "read-only: the run goes on, every probe reported on the console" log_has '^== cost: done in'
check "read-only: the report header says where files go: nowhere" log_has '^files: none: '
check "read-only: the verdict is a failure" test "$BOOT_RC" -eq 1
check "read-only: the earlier run is intact" earlier_run_intact
check "read-only: no new run folder" test "$(runs_on_disk)" -eq 1

# Fill the volume so that the run folder fits but its files do not: two
# clusters stay free, one for the harness's startup.nsh, one for the run
# folder itself.
img=$(image_with full)
fs=$(esp "$img")
free=$(mdir -i "$fs" ::/ | sed -n 's/^ *\([0-9 ]*\) bytes free.*/\1/p' | tr -d ' ')
cluster=$(( $(minfo -i "$fs" | sed -n 's/^cluster size: \([0-9]*\) sectors.*/\1/p') * 512 ))
head -c $((free - 2 * cluster)) /dev/zero > "$QEMU_TEST_DIR/images/filler.bin"
mcopy -i "$fs" "$QEMU_TEST_DIR/images/filler.bin" ::/filler.bin
rm -f "$QEMU_TEST_DIR/images/filler.bin"
boot full --image "$img" --cpu max --mem 256M --args "$ARGS"
check "full: says plainly that writing failed for want of space" log_has 'writing .* failed: EFI_VOLUME_FULL \(no space left\)'
check "full: said once" test "$(grep -c 'failed: EFI_VOLUME_FULL' "$LOG")" -eq 1
check "full: the run goes on to the last probe" log_has '^== cost: done in'
check "full: the verdict is a failure" test "$BOOT_RC" -eq 1
check "full: the earlier run is intact" earlier_run_intact
check "full: warned before the first probe that the volume is short of room" \
	log_has "^memprobe: the boot volume has [0-9]+ KiB free, and this run's files take about 512 KiB"
for f in report.txt results.csv system.json; do
	check "full: $f, cut, is named on the console" \
		log_has "^(no results file written|results file cut): $f: writing failed \(volume full or read-only\?\)"
done
# Every file left on the volume is whole: a file that got no whole write
# is removed, not left empty (the harness copies the run folder out).
run=$(run_folder)
check "full: the run folder on the volume holds no empty file" test -z "$(find "$run" -type f -empty)"
check "full: results.csv, if there, holds whole rows; system.json, if there, parses" python3 -c "
import csv, json, os, sys
run = sys.argv[1]
p = os.path.join(run, 'results.csv')
if os.path.exists(p):
    rows = list(csv.reader(open(p, newline='')))
    assert rows and all(len(r) == len(rows[0]) for r in rows)
p = os.path.join(run, 'system.json')
if os.path.exists(p):
    json.load(open(p))" "$run"
