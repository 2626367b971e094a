# An exception inside a probe lands in the app's own handler, which records
# it, restores the firmware's state and lets the run go on; the verdict is a
# failure. Each vector the fault probe can raise is tried. A machine check
# or a double fault is fatal instead: it is named (a #MC with the
# machine-check registers), the rows written before it stay on the volume,
# no later probe runs, and the verdict is a failure. With fault.cpu the
# exception is raised in an AP's role: that AP's own guard catches it, the
# AP goes back to the firmware, the others run on and the machine comes
# back with a failing verdict.
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

# check_fatal V MAX_SIZE LATENCY_GRID_ROWS CAUGHT STOPPED: boots latency, fault
# (raising V) and cost, and checks the fault is named by CAUGHT (a regex
# after "fault: caught ") and the stop by STOPPED (after "RUN STOPPED: "),
# that latency's rows stay on the volume and cost never runs.
check_fatal() {
	local v=$1 max=$2 rows=$3 caught=$4 stopped=$5 run
	boot "fault-$v" --cpu max --mem 256M \
		--args "profile=quick probes=latency,fault,cost pages=4k max_size=$max fault.vector=$v"
	run=$(run_folder)
	check "fault $v: named, fatal" log_has "^fault: caught $caught; fatal: the run stops"
	check "fault $v: the run stops and says what the CPU recorded" log_has "^RUN STOPPED: $stopped"
	check "fault $v: the run says which probes it leaves unrun" \
		log_has '^RUN STOPPED: no later probe runs \(not run: cost\); every row so far is kept'
	check "fault $v: cost never runs" bash -c "! grep -q '^== cost' '$LOG'"
	check "fault $v: the latency rows are on the volume" \
		test "$(csv_count "$run/results.csv" "r['probe']=='latency' and r['sweep_point']=='grid'")" -eq "$rows"
	check "fault $v: the report on the volume ends with the stop" \
		grep -q '^RUN STOPPED: no later probe runs' "$run/report.txt"
	check "fault $v: system.json says what stopped the run" \
		python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert sys.argv[2] and d['stopped_by'].startswith(sys.argv[2]), d['stopped_by']" \
		"$run/system.json" "$(sed -nE 's/^RUN STOPPED: (#[A-Z]+ [a-z ]+ \(vector [0-9]+\)).*/\1/p' "$LOG" | head -n 1)"
	check "fault $v: the verdict is a failure, not a reset" test "$BOOT_RC" -eq 1
}

# TCG emulates the machine-check registers: 10 banks, all clear, MCIP clear
# because INT 18 is no machine check.
check_fatal mc 64K 9 '#MC machine check \(vector 18\), error code 0x0, RIP 0x[0-9a-f]+, CR2 0x[0-9a-f]+' \
	'#MC machine check \(vector 18\).*; MCG_STATUS 0x0 \(MCIP clear: the CPU signalled no machine check, .*\), [0-9]+ banks, none holds a valid error$'

# A real double fault: a push onto an unmapped stack raises #PF, whose
# delivery faults again. Only the TSS's IST stack lets it reach the handler
# (without one the machine would reset, and this boot would have no verdict).
check_fatal df 16K 5 '#DF double fault \(vector 8\), error code 0x0, RIP 0x[0-9a-f]+, CR2 0x7ffffffff7f8' \
	'#DF double fault \(vector 8\).*; a second exception arrived while the CPU delivered one; the RIP a #DF saves is undefined'

# Faults on another CPU: raised in CPU 1's role of three. Before each AP had
# a guard of its own the fault unwound onto the boot CPU's saved stack,
# and the machine hung until the harness's timeout.
boot fault-ap-pf --cpu max --mem 512M --smp 3 \
	--args "profile=quick probes=fault,cost cost.trials=1 fault.cpu=1 fault.vector=pf"
check "fault on an AP: the platform names the CPU, vector, RIP and CR2" \
	log_has '^  CPU 1: FAULT in its role: #PF page fault \(vector 14\) on CPU 1 \(APIC ID [0-9]+\), error code 0x[0-9a-f]+, RIP 0x[0-9a-f]+, CR2 0x7ffffffff000; caught by that CPU.s own guard'
check "fault on an AP: the probe sees it caught there, and the AP back" \
	log_has '^fault: caught #PF page fault \(vector 14\) on CPU 1 .*; CPU 1 is back with the firmware, the run goes on without it'
check "fault on an AP: the other CPUs run a role again" log_has '^fault: CPUs 0 and 2 ran a role again after the fault'
check "fault on an AP: the run goes on with the next probe" log_has '^== cost: done in'
check "fault on an AP: the cost rows are in results.csv" \
	test "$(csv_count "$(run_folder)/results.csv" "r['probe']=='cost'")" -gt 0
check "fault on an AP: the machine came back with a failing verdict" test "$BOOT_RC" -eq 1

# A double fault on an AP is fatal, as on the boot CPU: the run stops.
boot fault-ap-df --cpu max --mem 512M --smp 2 \
	--args "profile=quick probes=fault,cost fault.cpu=1 fault.vector=df"
check "fatal fault on an AP: named with its CPU, fatal" \
	log_has '^fault: caught #DF double fault \(vector 8\) on CPU 1 .*; fatal: the run stops after this probe'
check "fatal fault on an AP: the run stops, cost never runs" \
	bash -c "grep -q '^RUN STOPPED: #DF double fault (vector 8) on CPU 1' '$LOG' && ! grep -q '^== cost' '$LOG'"
check "fatal fault on an AP: system.json says what stopped the run" \
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['stopped_by'].startswith('#DF double fault (vector 8) on CPU 1'), d['stopped_by']" \
	"$(run_folder)/system.json"
check "fatal fault on an AP: the machine came back with a failing verdict" test "$BOOT_RC" -eq 1
