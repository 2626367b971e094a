# The AArch64 image (make ARCH=aarch64): a PE32+ AArch64 EFI application
# that boots under AAVMF on QEMU's virt machine, at EL1 and at EL2, maps a
# buffer of every page size of every granule with its own verified tables,
# reports its verdict through semihosting, survives a data abort and finds
# its boot CPU in a two-node SRAT through the MADT. And
# the x86-64 image refuses AArch64's page sizes by name, when the
# configuration is read, before any probe runs.
cd "$(dirname "$0")/../.."
. tests/qemu/lib.bash

X86_IMG=$IMG
IMG=$O/aarch64/memprobe.img
EFI=$O/aarch64/memprobe.efi

# The PE file: machine 0xaa64, PE32+, an EFI application, no section both
# writable and executable, and the file holds all the bytes the headers say.
pe_ok() {
	python3 - "$EFI" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
pe = struct.unpack_from('<I', d, 0x3c)[0]
machine, nsec = struct.unpack_from('<HH', d, pe + 4)
opt = pe + 24
magic, = struct.unpack_from('<H', d, opt)
subsystem, = struct.unpack_from('<H', d, opt + 68)
optsize, = struct.unpack_from('<H', d, pe + 20)
ok = d[pe:pe + 4] == b'PE\0\0' and machine == 0xaa64 and magic == 0x20b and subsystem == 10
for i in range(nsec):
    s = opt + optsize + 40 * i
    raw_size, raw_ptr = struct.unpack_from('<II', d, s + 16)
    flags, = struct.unpack_from('<I', d, s + 36)
    ok &= raw_ptr + raw_size <= len(d) and not (flags & 0x20000000 and flags & 0x80000000)
sys.exit(0 if ok else 1)
PY
}
check "aarch64: memprobe.efi is a PE32+ AArch64 EFI application, W^X, whole" pe_ok
boot_file_present() { mdir -i "$(esp "$IMG")" ::/EFI/BOOT/BOOTAA64.EFI >/dev/null 2>&1; }
check "aarch64: the image holds it as \\EFI\\BOOT\\BOOTAA64.EFI" boot_file_present

SIZES="4k,16k,64k,2m,32m,512m,1g"
boot aarch64-el1 --arch aarch64 --mem 4G \
	--args "profile=quick probes=latency pages=$SIZES min_size=4K max_size=64K"
csv=$(run_folder)/results.csv
check "aarch64 EL1: the verdict arrives through semihosting: success" test "$BOOT_RC" -eq 0
check "aarch64 EL1: timed at EL1 with the app's vectors" \
	log_has '^timed sections: .*DAIF masked, the app.s vector table \(VBAR_EL1\) and translation tables at EL1'
check "aarch64 EL1: the CPU offers all three granules" log_has 'granules: 4 KiB 16 KiB 64 KiB\)'
check "aarch64 EL1: the timer is CNTVCT_EL0 at CNTFRQ_EL0's rate, checked by Stall()" \
	log_has "^timer: .*CNTVCT_EL0 rate from CNTFRQ_EL0 .*Stall\(\) measures [0-9]+ Hz"
for size in "4 KiB" "16 KiB" "64 KiB" "2 MiB" "32 MiB" "512 MiB" "1 GiB"; do
	check "aarch64 EL1: $size buffer verified, normal write-back" \
		log_has "^latency, $size pages: pages verified: [0-9]+ x $size, MAIR attr0 0xff, effective normal WB"
done
for bytes in 4096 16384 65536 2097152 33554432 536870912 1073741824; do
	check "aarch64 EL1: results.csv has verified latency rows of $bytes-byte pages" \
		test "$(csv_count "$csv" "r['page_size']=='$bytes' and r['pages_verified'].startswith('pages verified')")" -gt 0
done
check "aarch64 EL1: system.json records EL1" grep -q '"current_el": *1' "$(run_folder)/system.json"

boot aarch64-el2 --arch aarch64 --el2 --mem 1G \
	--args "profile=quick probes=fault,latency,bandwidth pages=64k,2m min_size=4K max_size=64K bandwidth.max_size=64K fault.vector=dabort"
csv=$(run_folder)/results.csv
check "aarch64 EL2: timed at EL2" log_has '^timed sections: .*\(VBAR_EL2\) and translation tables at EL2'
check "aarch64 EL2: a data abort is caught with ESR, ELR and FAR" \
	log_has '^fault: caught data abort \(EC 0x25\) \(vector 37\), error code 0x[0-9a-f]+, ELR 0x[0-9a-f]+, FAR 0x1000000000000'
check "aarch64 EL2: the run goes on after it" log_has '^latency, 64 KiB pages: pages verified: [0-9]+ x 64 KiB'
check "aarch64 EL2: the next probe's rows are in results.csv" \
	test "$(csv_count "$csv" "r['probe']=='latency' and r['page_size']=='65536'")" -gt 0
check "aarch64 EL2: bandwidth runs the NEON kernels" log_has '^bandwidth: the CPU offers neon; running neon'
for op in read write copy ntwrite; do
	check "aarch64 EL2: bandwidth rows of ${op}_neon" \
		test "$(csv_count "$csv" "r['probe']=='bandwidth' and r['variant']=='${op}_neon'")" -gt 0
done
check "aarch64 EL2: the banner names the level and the caches' state" \
	log_has '^exception_level: EL2' && log_has '^data_cache: SCTLR_ELx.C set: on'
check "aarch64 EL2: no NMI or SMI to count, said so" \
	log_has '^disturbances: NMIs none on AArch64: .*; SMIs not counted: AArch64 has no SMI'
check "aarch64 EL2: the verdict is a failure (a fault was raised)" test "$BOOT_RC" -eq 1

# Two NUMA nodes: QEMU's virt machine gives its SRAT GICC affinity entries,
# which name a CPU by ACPI processor UID alone; the MADT ties the boot
# CPU's MPIDR to its UID (lib/madt.c), so the SRAT finds it in node 0.
boot aarch64-numa --arch aarch64 --mem 1G --numa 2 \
	--args "profile=quick probes=latency pages=4k min_size=4K max_size=16K"
check "aarch64 NUMA: the run succeeds" test "$BOOT_RC" -eq 0
check "aarch64 NUMA: the boot CPU found through its MADT UID in the SRAT's GICC entries" \
	system_has "d['numa']['srat'] and d['numa']['boot_cpu_id_kind'] == 'MPIDR affinity' and d['numa']['boot_cpu_acpi_uid'] == 0 and d['numa']['enabled_cpus'] == 2 and d['numa']['boot_cpu_domain'] == 0"
check "aarch64 NUMA: buffers from the boot CPU's domain" \
	csv_all "$(run_folder)/results.csv" "r['pages_verified'].endswith(\"proximity domain 0 (the boot CPU's)\")"

IMG=$X86_IMG
boot aarch64-sizes-on-x86 --cpu max --mem 256M \
	--args "profile=quick probes=latency pages=4k,16k,512m min_size=4K max_size=16K"
check "x86-64: 16 KiB pages refused by name when the configuration is read" \
	log_has "^memprobe: configuration error: load options: key 'pages': 16 KiB is not an x86-64 page size \\(4 KiB, 2 MiB and 1 GiB are\\)"
check "x86-64: no probe runs on a configuration that asked for them" bash -c "! grep -q '^== latency' '$LOG'"
check "x86-64: the verdict is a failure" test "$BOOT_RC" -eq 1
