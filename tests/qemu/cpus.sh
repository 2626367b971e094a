# Many cores on bare metal, functional only (TCG, 2 host cores): with four
# CPUs every pair is measured, every AP returns, the loaded rows are there
# and the topology is in system.json, and the bandwidth probe with
# bandwidth.cores=all streams on all four at once (after one core alone,
# bandwidth.one_core's default), AVX2's state turned on
# in every AP's own CR4 and XCR0; with a test-only late role an AP
# misses its deadline, the run reports it by number, goes on without it
# and ends with a failing verdict. Small sizes keep both boots short.
cd "$(dirname "$0")/../.."
. tests/qemu/lib.bash

boot smp4 --cpu max --mem 1G --smp 4 --args "profile=quick probes=c2c,loaded,bandwidth pages=4k loaded.size=2M loaded.load_size=1M loaded.mix=read loaded.batches=2048 bandwidth.cores=all bandwidth.max_size=8k"
run=$(run_folder)
csv=$run/results.csv
check "smp4: success" test "$BOOT_RC" -eq 0
check "smp4: the firmware's MP services give 4 CPUs" log_has '^c2c: other CPUs: 4 \(of 4 the firmware reports\), started by EFI MP services'
check "smp4: all 6 pairs in results.csv, each once, with finite positive one-way ns" python3 -c "
import csv, sys
rows = [r for r in csv.DictReader(open('$csv', newline='')) if r['probe'] == 'c2c']
pairs = sorted((int(r['cpu']), int(r['peer_cpu'])) for r in rows)
ok = pairs == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
ok &= all(0 < float(r['ns']) < 1e9 and r['variant'] == 'pingpong' for r in rows)
sys.exit(0 if ok else 1)"
check "smp4: c2c says 6 of 6 pairs measured" log_has '^c2c: 6 of 6 pairs measured'
check "smp4: loaded has its idle row, 13 rows with one loader (12 paced, 1 at no delay), then 2 and 3 loaders, with bandwidth once loaded" python3 -c "
import csv, sys
rows = [r for r in csv.DictReader(open('$csv', newline='')) if r['probe'] == 'loaded']
ok = sorted(int(r['loaders']) for r in rows) == [0] + [1] * 13 + [2, 3]
ok &= all(r['cpu'] == '0' and r['peer_cpu'] == '' and float(r['ns']) > 0 for r in rows)
ok &= all((float(r['load_gb_per_s']) > 0) == (r['loaders'] != '0') for r in rows)
sys.exit(0 if ok else 1)"
check "smp4: bandwidth streams on the 4 CPUs together" log_has '^bandwidth: 4 CPUs \(0-3\) stream together'
check "smp4: every AP turned AVX2's state on: no set dropped for a CPU" \
	bash -c "! grep -q 'not run with 4 CPUs' '$LOG'"
check "smp4: bandwidth_x4 rows for every operation at 4 and 8 KiB (the grid's powers of two, no midpoint), positive GB/s" python3 -c "
import csv, sys
rows = [r for r in csv.DictReader(open('$csv', newline='')) if r['probe'] == 'bandwidth' and r['variant'].endswith('_x4')]
have = sorted((r['variant'], int(r['working_set_bytes'])) for r in rows)
want = sorted((op + '_avx2_x4', ws) for op in ('read', 'write', 'copy', 'ntwrite') for ws in (4096, 8192))
ok = have == want and all(float(r['gb_per_s']) > 0 and float(r['bytes_per_cycle']) > 0 for r in rows)
sys.exit(0 if ok else 1)"
check "smp4: bandwidth.one_core (the default): one core's rows for every operation too, first" python3 -c "
import csv, sys
rows = [r['variant'] for r in csv.DictReader(open('$csv', newline='')) if r['probe'] == 'bandwidth']
one = [v for v in rows if not v.endswith('_x4')]
ok = sorted(set(one)) == sorted(op + '_avx2' for op in ('read', 'write', 'copy', 'ntwrite'))
sys.exit(0 if ok and rows.index(one[0]) == 0 else 1)"
check "smp4: no CPU missed a deadline" bash -c "! grep -q 'MISSED' '$LOG'"
check "smp4: c2c.svg is a well-formed heatmap of 16 cells" \
	bash -c "xmllint --noout '$run/c2c.svg' && [ \$(grep -c 'class=\"cell\"' '$run/c2c.svg') -eq 16 ]"
check "smp4: loaded.svg is well-formed with its curve" \
	bash -c "xmllint --noout '$run/loaded.svg' && grep -q '<polyline class=\"curve\"' '$run/loaded.svg'"
check "smp4: system.json lists 4 CPUs with their CPU ids (APIC IDs) and topology from CPUID" python3 -c "
import json, sys
d = json.load(open('$run/system.json'))
c = d['cpus']
ok = [x['cpu'] for x in c] == [0, 1, 2, 3] and len({x['cpu_id'] for x in c}) == 4
ok &= all(x['topology_source'].startswith('CPUID') and x['cpu_id'] == x['firmware_cpu_id'] for x in c)
ok &= 'EFI MP services' in d['platform']['other_cpus']
sys.exit(0 if ok else 1)"

boot late --cpu max --mem 512M --smp 2 --args "profile=quick probes=c2c,loaded pages=4k loaded.size=1M loaded.load_size=1M c2c.test_late=1 cpus.deadline=1000"
check "late: CPU 1 is reported by number as missing its deadline" log_has '^ +0 +1 +CPU 1 MISSED ITS DEADLINE of 1000 ms: the run goes on without it'
check "late: the firmware has CPU 1 back, idle" log_has '^  CPU 1 \(APIC ID 1\): back with the firmware'
check "late: the next probe runs without it: the unloaded row is measured" \
	test "$(csv_count "$(run_folder)/results.csv" "r['probe']=='loaded' and r['loaders']=='0'")" -eq 1
check "late: and refuses to give CPU 1 a role again" log_has 'CPU 1 missed an earlier deadline'
check "late: the run ends and its verdict is a failure" test "$BOOT_RC" -eq 1
check "late: both probes are reported failed" test "$(grep -cE '^== (c2c|loaded): FAILED in' "$LOG")" -eq 2
