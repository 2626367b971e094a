# NUMA placement (efi/numa.c) on QEMU's two-node machine (--numa 2: 512 MiB
# and one CPU per node, the boot CPU in node 0): by default buffers come from
# the boot CPU's domain, numa.node = 1 moves them to the other, and a domain
# the SRAT does not have is refused by name before any probe runs. The same
# boots check the TSC's reference timer (efi/clock.c): the PM timer by
# default, the HPET with clock.reference = hpet.
cd "$(dirname "$0")/../.."
. tests/qemu/lib.bash

args="probes=latency pages=4k,2m max_size=64K"

# placed NAME EXTRA-ARGS DOMAIN WORDS WHERE: a boot with EXTRA-ARGS puts every
# buffer in DOMAIN (WHERE: a Python test of a buffer's base) and says so in
# system.json and in every row's pages_verified, ending in WORDS.
placed() {
	local name=$1 extra=$2 domain=$3 words=$4 where=$5 csv
	boot "$name" --cpu max --mem 1G --numa 2 --args "$args $extra"
	csv=$(run_folder)/results.csv
	check "$name: the run succeeds" test "$BOOT_RC" -eq 0
	check "$name: system.json reads the SRAT's two domains, the boot CPU in domain 0" \
		system_has "d['numa']['srat'] and d['numa']['domains_with_memory'] == '0, 1' and d['numa']['boot_cpu_domain'] == 0 and d['numa']['buffer_domain'] == $domain"
	check "$name: the boot CPU is named by its APIC ID, no ACPI UID needed (no GICC entries)" \
		system_has "d['numa']['boot_cpu_id_kind'] == 'APIC ID' and 'boot_cpu_acpi_uid' not in d['numa']"
	check "$name: every buffer is in domain $domain ($where)" \
		system_has "d['buffers'] and all(b['proximity_domain'] == $domain and $where for b in d['buffers'])"
	check "$name: every row's pages_verified ends in '$words'" \
		csv_all "$csv" "r['pages_verified'].endswith(\"$words\")"
}

placed numa-default "" 0 "proximity domain 0 (the boot CPU's)" "b['base'] + b['bytes'] <= 512 << 20"
check "clock: TCG's CPU states no crystal, so the TSC is measured against the PM timer" \
	log_has '^timer: .*; TSC rate calibrated against the ACPI PM timer \(port 0x[0-9a-f]+, (24|32)-bit\), median of 7 windows'
check "clock: the PM timer's independence from the TSC's crystal is stated" \
	log_has '^timer: .*(not an Intel CPU, so not Intel.s PM timer emulation|MSR 0x121)'
placed numa-node1 "numa.node=1 clock.reference=hpet" 1 "proximity domain 1 (numa.node)" "b['base'] >= 512 << 20"
check "clock.reference=hpet: the TSC is measured against the HPET, its period stated" \
	log_has '^timer: .*calibrated against the ACPI HPET \(0xfed00000, [0-9]+ fs period = [0-9]+ Hz, (32|64)-bit, read uncached'
check "clock.reference=hpet: the HPET's own tolerance is named, not hidden" \
	log_has '^timer: .*the HPET specification allows 500 ppm'

boot numa-bad --cpu max --mem 1G --numa 2 --args "$args numa.node=5"
check "numa.node=5: the run fails" test "$BOOT_RC" -eq 1
check "numa.node=5: refused by name, the domains listed" \
	log_has '^memprobe: numa.node = 5: no proximity domain 5 has memory here \(the SRAT gives memory to domains 0, 1\); no probe runs'
