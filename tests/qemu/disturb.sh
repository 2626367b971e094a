# NMIs injected through QEMU's monitor while a quick run measures: each is
# counted (in timed sections by the guard, outside them by the handler the
# app registers with the firmware), none stops the machine, the run succeeds
# and system.json holds the same counts as the console. An Intel CPU model,
# so that the SMI count (MSR 0x34, which TCG emulates) is read too.
cd "$(dirname "$0")/../.."
. tests/qemu/lib.bash

boot nmi --cpu Icelake-Server --mem 512M --nmi-every 0.3 \
	--args "profile=quick probes=latency,locality pages=4k max_size=1M"
run=$(run_folder)
injected=$(cat "$QEMU_TEST_DIR/nmi/nmi-injected" 2>/dev/null || echo 0)
counted=$(sed -nE 's/^disturbances over the run: ([0-9]+) NMIs, .*/\1/p' "$LOG")
check "nmi: the run succeeds with NMIs arriving" test "$BOOT_RC" -eq 0
check "nmi: the harness injected NMIs ($injected)" test "$injected" -ge 1
check "nmi: the header says how NMIs are counted" \
	log_has '^disturbances: NMIs counted: the guard.s vector in timed sections, a handler registered with the firmware outside them; SMIs '
check "nmi: an Intel CPU's SMIs are counted by MSR 0x34" \
	log_has '^disturbances: NMIs .*; SMIs counted by MSR 0x34 \(MSR_SMI_COUNT\); '
check "nmi: every probe reports its disturbances" \
	test "$(grep -cE '^(latency|locality): disturbances: NMIs [0-9]+, SMIs [0-9]+; [0-9]+ trials discarded' "$LOG")" -eq 2
check "nmi: the console counts at least one NMI and no more than were sent ($counted of $injected)" \
	test -n "$counted" -a "${counted:-0}" -ge 1 -a "${counted:-0}" -le "$injected"
check "nmi: system.json holds the same count and each probe's discards" python3 - "$run/system.json" "${counted:-x}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["disturbances"]
assert d["nmi"]["counted"] is True and str(d["nmi"]["count"]) == sys.argv[2], d
assert d["smi"]["counted"] is True and d["smi"]["count"] == 0, d
assert d["discard_max_per_series"] == 16, d
per = d["probes"]
assert set(per) == {"latency", "locality"}, per
assert sum(p["nmi"] for p in per.values()) <= d["nmi"]["count"]
assert all(p["trials_discarded"] <= p["nmi"] * 2 + p["smi"] * 2 for p in per.values()), per
PY
check "nmi: all 17 latency sizes of the grid, 4 KiB to 1 MiB, are there" \
	test "$(csv_count "$run/results.csv" "r['probe']=='latency' and r['sweep_point']=='grid'")" -eq 17
check "nmi: timed sections ran on the app's GDT and TSS, #DF and #MC on their own stacks" \
	log_has "^timed sections: .*; descriptor tables: the app's IDT, GDT and TSS \(code selector 0x[0-9a-f]+, TSS 0xf0\): #DF and #MC on stacks of their own$"
# The conditions that change figures, in the banner and system.json alike.
check "nmi: the banner names memory encryption, LFENCE and CET" \
	test "$(grep -cE '^(memory_encryption: none: the CPU has no TME \(CPUID 7 ECX\[13\] clear\)|lfence: serialising: Intel defines LFENCE as dispatch-serialising|cet: CR4.CET clear)$' "$LOG")" -eq 3
check "nmi: system.json holds the same conditions" python3 - "$run/system.json" "$LOG" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["conditions"]
log = open(sys.argv[2], errors="replace").read().splitlines()
assert set(c) == {"memory_encryption", "lfence", "cet"}, c
for k, v in c.items():
    assert f"{k}: {v}" in log, (k, v)
PY
# TCG has no APERF/MPERF: the add chain is measured around each section.
check "nmi: each probe says its cycles come from the add chain around each section" \
	test "$(grep -cE '^(latency|locality): cycles from: no APERF/MPERF \(CPUID 6 ECX\[0\] clear or refused\): the add-chain clock around each timed section \(the best of 3 chains of 65536 adds before it and after it, averaged\); at the probe.s start [1-9][0-9]* MHz$' "$LOG")" -eq 2
check "nmi: system.json says the same per probe" python3 - "$run/system.json" "$LOG" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["clock"]["cycles_from"]
log = open(sys.argv[2], errors="replace").read().splitlines()
assert set(c) == {"latency", "locality"}, c
for k, v in c.items():
    assert f"{k}: cycles from: {v}" in log, (k, v)
PY
