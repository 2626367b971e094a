# A read-only, full or filling boot volume: the run goes on, on the
# console, says plainly that its files were not (all) written, fails its
# verdict, and leaves earlier runs as they were; one that fills part way
# keeps the final system.json and every file left whole.
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

# A volume that fills part way through the run: 40 KiB free for files that
# take about 100 KiB. The room kept back (closing.reserve) still lets the
# final system.json and summary.txt in; report.html goes first, then
# report.txt, results.csv last; every file left parses.
img=$(image_with fills)
fs=$(esp "$img")
free=$(mdir -i "$fs" ::/ | sed -n 's/^ *\([0-9 ]*\) bytes free.*/\1/p' | tr -d ' ')
head -c $((free - 2 * cluster - 40 * 1024)) /dev/zero > "$QEMU_TEST_DIR/images/filler.bin"
mcopy -i "$fs" "$QEMU_TEST_DIR/images/filler.bin" ::/filler.bin
rm -f "$QEMU_TEST_DIR/images/filler.bin"
boot fills --image "$img" --cpu max --mem 256M --args "$ARGS"
run=$(run_folder)
check "fills: the run goes on to the last probe" log_has '^== cost: done in'
check "fills: the verdict is a failure, with the reason line" \
	bash -c "[[ $BOOT_RC == 1 ]] && grep -q '^memprobe: the result files are missing or incomplete' '$LOG'"
check "fills: system.json is the final one, summary.txt is there" python3 -c "
import json, os, sys
assert json.load(open(sys.argv[1] + '/system.json'))['state'] == 'final'
assert os.path.getsize(sys.argv[1] + '/summary.txt') > 0" "$run"
check "fills: a compact system.json (no room for it indented) is said so on the console" \
	bash -c "[[ \$(wc -l < '$run/system.json') -gt 1 ]] || grep -q '^system.json: the final description is written compact' '$LOG'"
check "fills: results.csv holds whole rows, report.txt whole lines, report.html ends with </html>" \
	python3 -c "
import csv, sys
run = sys.argv[1]
rows = list(csv.reader(open(run + '/results.csv', newline='')))
assert len(rows) > 1 and all(len(r) == len(rows[0]) for r in rows)
assert open(run + '/report.txt', 'rb').read().endswith(b'\n')
assert open(run + '/report.html').read().endswith('</html>\n')" "$run"
check "fills: report.html parses whole" \
	bash -c "python3 tests/page_check.py '$run/report.html' --no-chart > '$QEMU_TEST_DIR/fills/page-check.log' 2>&1"
check "fills: no reserve, draft or empty file left" \
	test -z "$(find "$run" -type f \( -empty -o -name '*.draft.*' -o -name '*.reserve' \))"
check "fills: the least valuable file given up first, report.html before results.csv" \
	bash -c "grep -o '^results file cut: [a-z.]*' '$LOG' | head -n 1 | grep -q 'report.html'"

# Room for every file but not for report.html's card-first copy (135 KiB
# free): the copy is deleted, the report stays whole as streamed, the
# console says so, and the run succeeds (efi/main.c counts no copy).
img=$(image_with short)
fs=$(esp "$img")
free=$(mdir -i "$fs" ::/ | sed -n 's/^ *\([0-9 ]*\) bytes free.*/\1/p' | tr -d ' ')
head -c $((free - 2 * cluster - 135 * 1024)) /dev/zero > "$QEMU_TEST_DIR/images/filler.bin"
mcopy -i "$fs" "$QEMU_TEST_DIR/images/filler.bin" ::/filler.bin
rm -f "$QEMU_TEST_DIR/images/filler.bin"
boot short --image "$img" --cpu max --mem 256M --args "$ARGS"
run=$(run_folder)
check "card-first copy short of room: says the summary could not be put first" \
	log_has '^report.html: the summary could not be put first \(writing the copy failed\); the report is whole as it was written'
check "card-first copy short of room: the run succeeds (status $BOOT_RC)" test "$BOOT_RC" -eq 0
check "card-first copy short of room: report.html whole, no draft left" \
	bash -c "[[ \$(tail -n 1 '$run/report.html') == '</html>' ]] && [[ -z \$(find '$run' -name '*.draft.*' -o -name '*.reserve') ]]"
