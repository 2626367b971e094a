# The image boots under OVMF, prints its banner and reports success through
# isa-debug-exit: the harness's exit status is the app's verdict.
cd "$(dirname "$0")/../.."
. tests/qemu/lib.bash

boot banner
check "boot: harness reports the app's success verdict (status $BOOT_RC)" test "$BOOT_RC" -eq 0
check "boot: banner names memprobe and its version" log_has '^memprobe [0-9]+\.[0-9]+\.[0-9]+ \(build [0-9a-f]+'
check "boot: banner names the firmware and the UEFI revision" log_has '^firmware: EDK II, revision 0x[0-9a-f]{8}, UEFI 2\.[0-9]+'
check "boot: banner names the CPU from CPUID" log_has '^cpu: [A-Za-z]+, .+ \(family [0-9]+ model [0-9]+ stepping [0-9]+\)'
check "boot: verdict line printed" log_has '^memprobe: verdict: success'
