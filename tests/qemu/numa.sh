# NUMA placement (efi/numa.c) on QEMU's two-node machine (--numa 2: 512 MiB
# and one CPU per node, the boot CPU in node 0): by default buffers come from
# the boot CPU's domain, numa.node = 1 moves them to the other, and a domain
# the SRAT does not have is refused by name before any probe runs.
cd "$(dirname "$0")/../.."
. tests/qemu/lib.bash

# system_has PYTHON-EXPR: the run's system.json (as d) satisfies it.
system_has() {
	python3 - "$(run_folder)/system.json" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2], {}, {'d': d}) else 1)
PY
}

args="probes=latency pages=4k,2m max_size=64K"
boot numa-default --cpu max --mem 1G --numa 2 --args "$args"
csv=$(run_folder)/results.csv
check "numa: two nodes, default placement succeeds" test "$BOOT_RC" -eq 0
check "numa: system.json reads the SRAT's two domains and the boot CPU's" \
	system_has "d['numa']['srat'] and d['numa']['domains_with_memory'] == '0, 1' and d['numa']['boot_cpu_domain'] == 0 and d['numa']['placement'] == \"the boot CPU's domain\""
check "numa: every buffer is in domain 0, below node 1's first byte" \
	system_has "d['buffers'] and all(b['proximity_domain'] == 0 and b['base'] + b['bytes'] <= 512 << 20 for b in d['buffers'])"
check "numa: every row's pages_verified names domain 0, the boot CPU's" \
	csv_all "$csv" "r['pages_verified'].endswith(\"proximity domain 0 (the boot CPU's)\")"

boot numa-node1 --cpu max --mem 1G --numa 2 --args "$args numa.node=1"
csv=$(run_folder)/results.csv
check "numa.node=1: the run succeeds" test "$BOOT_RC" -eq 0
check "numa.node=1: every buffer is in domain 1, above 512 MiB" \
	system_has "d['buffers'] and all(b['proximity_domain'] == 1 and b['base'] >= 512 << 20 for b in d['buffers']) and d['numa']['buffer_domain'] == 1"
check "numa.node=1: every row's pages_verified names domain 1 (numa.node)" \
	csv_all "$csv" "r['pages_verified'].endswith('proximity domain 1 (numa.node)')"

boot numa-bad --cpu max --mem 1G --numa 2 --args "$args numa.node=5"
check "numa.node=5: the run fails" test "$BOOT_RC" -eq 1
check "numa.node=5: refused by name, the domains listed" \
	log_has '^memprobe: numa.node = 5: no proximity domain 5 has memory here \(the SRAT gives memory to domains 0, 1\); no probe runs'
