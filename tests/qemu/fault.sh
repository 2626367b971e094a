# An exception inside a probe lands in the app's own handler, which records
# it, restores the firmware's state and lets the run go on; the verdict is a
# failure. Each vector the fault probe can raise is tried. A machine check
# is fatal instead: it is named with the machine-check registers, the rows
# written before it stay on the volume, no later probe runs, and the verdict
# is a failure.
cd "$(dirname "$0")/../.."
. tests/qemu/lib.bash

declare -A NAME=([de]='#DE divide error \(vector 0\)' [ud]='#UD invalid opcode \(vector 6\)'
	[gp]='#GP general protection \(vector 13\)' [pf]='#PF page fault \(vector 14\)')

for v in pf gp ud de; do
	boot "fault-$v" --cpu max --mem 256M --args "profile=quick probes=fault,cost cost.trials=1 fault.vector=$v"
	csv=$(run_folder)/results.csv
	check "fault $v: reported with its name" log_has "^fault: caught ${NAME[$v]}, error code 0x[0-9a-f]+, RIP 0x[0-9a-f]+, CR2 0x[0-9a-f]+; machine state restored"
	check "fault $v: the run goes on with the next probe" log_has '^== cost: done in'
	check "fault $v: the next probe's rows are in results.csv" test "$(csv_count "$csv" "r['probe']=='cost'")" -gt 0
	check "fault $v: the verdict is a failure" test "$BOOT_RC" -eq 1
done
check "fault pf: CR2 is the unmapped address" grep -q 'CR2 0x7ffffffff000' "$QEMU_TEST_DIR/fault-pf/debugcon.log"

boot fault-mc --cpu max --mem 256M --args "profile=quick probes=latency,fault,cost pages=4k max_size=64K fault.vector=mc"
run=$(run_folder)
check "fault mc: named as a machine check, fatal" \
	log_has '^fault: caught #MC machine check \(vector 18\), error code 0x0, RIP 0x[0-9a-f]+, CR2 0x[0-9a-f]+; fatal: the run stops'
# TCG emulates the machine-check registers: 10 banks, all clear, MCIP clear
# because INT 18 is no machine check.
check "fault mc: the machine-check registers are read and named" \
	log_has '^RUN STOPPED: #MC machine check \(vector 18\).*; MCG_STATUS 0x0 \(MCIP clear: the CPU signalled no machine check, .*\), [0-9]+ banks, none holds a valid error$'
check "fault mc: the run says which probes it leaves unrun" \
	log_has '^RUN STOPPED: no later probe runs \(not run: cost\); every row so far is kept'
check "fault mc: cost never runs" bash -c "! grep -q '^== cost' '$LOG'"
check "fault mc: the latency rows are on the volume" \
	test "$(csv_count "$run/results.csv" "r['probe']=='latency'")" -eq 9
check "fault mc: the report on the volume ends with the stop" grep -q '^RUN STOPPED: no later probe runs' "$run/report.txt"
check "fault mc: system.json says what stopped the run" python3 - "$run/system.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["stopped_by"].startswith("#MC machine check (vector 18)"), d["stopped_by"]
PY
check "fault mc: the verdict is a failure" test "$BOOT_RC" -eq 1
