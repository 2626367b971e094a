# An exception inside a probe lands in the app's own handler, which records
# it, restores the firmware's state and lets the run go on; the verdict is a
# failure. Each vector the fault probe can raise is tried.
cd "$(dirname "$0")/../.."
. tests/qemu/lib.bash

declare -A NAME=([de]='#DE divide error \(vector 0\)' [ud]='#UD invalid opcode \(vector 6\)'
	[gp]='#GP general protection \(vector 13\)' [pf]='#PF page fault \(vector 14\)')

for v in pf gp ud de; do
	boot "fault-$v" --cpu max --mem 256M --args "profile=quick probes=fault,latency pages=4k min_size=4K max_size=16K fault.vector=$v"
	csv=$(run_folder)/results.csv
	check "fault $v: reported with its name" log_has "^fault: caught ${NAME[$v]}, error code 0x[0-9a-f]+, RIP 0x[0-9a-f]+, CR2 0x[0-9a-f]+"
	check "fault $v: the run goes on with the next probe" log_has '^== latency: done in'
	check "fault $v: the next probe's rows are in results.csv" test "$(csv_count "$csv" "r['probe']=='latency'")" -gt 0
	check "fault $v: the verdict is a failure" test "$BOOT_RC" -eq 1
done
check "fault pf: CR2 is the unmapped address" grep -q 'CR2 0x7ffffffff000' "$QEMU_TEST_DIR/fault-pf/debugcon.log"
