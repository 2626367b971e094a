# The image boots under OVMF from its removable-media path, prints its
# banner and reports its verdict through isa-debug-exit; the harness turns a
# hung guest into a clear timeout.
cd "$(dirname "$0")/../.."
. tests/qemu/lib.bash

# The config file beside BOOTX64.EFI, since a plain boot has no load options.
img=$(image_with banner "$(printf 'profile = quick\nprobes = cost\ncost.reps = 2000\n')")
boot banner --image "$img"
check "boot: harness reports the app's success verdict (status $BOOT_RC)" test "$BOOT_RC" -eq 0
check "boot: banner names memprobe and its version" log_has '^memprobe [0-9]+\.[0-9]+\.[0-9]+ \(build [0-9a-f]+'
check "boot: banner names the firmware and the UEFI revision" log_has '^firmware: EDK II, revision 0x[0-9a-f]{8}, UEFI 2\.[0-9]+'
check "boot: banner names the CPU from CPUID" log_has '^cpu: [A-Za-z]+, .+ \(family [0-9]+ model [0-9]+ stepping [0-9]+\)'
check "boot: the config file beside the app was read" log_has '^configuration: \\EFI\\BOOT\\memprobe\.cfg, no load options'
check "boot: verdict line printed" log_has '^memprobe: verdict: success'
check "boot: the harness says which accelerator it used" grep -Eq '^qemu-run: (KVM works here|KVM unusable here|-cpu )' "$QEMU_TEST_DIR/banner/harness.log"
check "boot: the run folder came back into OUT" test -f "$(run_folder)/results.csv"

boot hang --cpu max --mem 256M --args "profile=quick probes=cost cost.reps=1000 end=wait" --timeout 45
check "timeout: a guest waiting forever is killed with status 124" test "$BOOT_RC" -eq 124
check "timeout: the harness says so plainly" grep -q '^qemu-run: TIMEOUT: the guest was still running after 45s and was killed' "$QEMU_TEST_DIR/hang/harness.log"
check "timeout: the app was waiting for a key" log_has '^memprobe: press any key to return to the firmware'

# end=reboot must not loop: the boot after memprobe's own reboot returns to
# the firmware. -no-reboot ends QEMU at the reset, so the harness's VARS file
# keeps the mark; a second boot with that VARS file shows the loop broken.
boot reboot --cpu max --mem 256M --args "profile=quick probes=cost cost.reps=1000 end=reboot"
check "reboot: the app announces the reboot" log_has '^memprobe: rebooting \(the next boot of memprobe will not run again\)'
check "reboot: QEMU ends at the reset without a verdict (status 3)" test "$BOOT_RC" -eq 3
cp "$QEMU_TEST_DIR/reboot/vars.fd" "$QEMU_TEST_DIR/reboot-vars.fd"
boot after-reboot --cpu max --mem 256M --vars "$QEMU_TEST_DIR/reboot-vars.fd" --timeout 40
check "reboot: the next boot finds the mark and does not run again" log_has "^memprobe: this boot follows memprobe's own reboot \(end=reboot\): not running again"
check "reboot: no probe ran on that boot" test "$(grep -c '^== ' "$LOG")" -eq 0

# make image CONFIG=file bakes the file in beside the app; a plain make
# takes it out again. Both act on the Makefile's own image, not on IMG
# (tests/run hands the suites a copy of it).
built=$O/x86_64/memprobe.img
printf 'profile = quick\nprobes = cost\ncost.reps = 700\n' > "$QEMU_TEST_DIR/baked.cfg"
make -s O="$O" image CONFIG="$QEMU_TEST_DIR/baked.cfg" > /dev/null
cp "$built" "$QEMU_TEST_DIR/baked.img"
make -s O="$O" image > /dev/null
check "CONFIG=file: the image holds it as \\EFI\\BOOT\\memprobe.cfg" \
	test "$(mtype -i "$(esp "$QEMU_TEST_DIR/baked.img")" ::/EFI/BOOT/memprobe.cfg)" = "$(cat "$QEMU_TEST_DIR/baked.cfg")"
check "CONFIG=file: a plain make takes it out again" bash -c "! mtype -i '$(esp "$built")' ::/EFI/BOOT/memprobe.cfg >/dev/null 2>&1"
boot baked --image "$QEMU_TEST_DIR/baked.img"
check "CONFIG=file: the booted app runs it" log_has '^cost.reps = 700'
