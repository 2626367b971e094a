# Secure Boot: the app signed with `make sign` boots under OVMF with
# Debian's snakeoil keys enrolled and Secure Boot enforced, and reports
# success; the unsigned app is refused by that firmware and the harness says
# so (status 4) long before its timeout; with SHIM=1 the Microsoft-signed
# shim is accepted by OVMF with Microsoft's keys and hands over to the app
# as grubx64.efi, which it refuses until the key is enrolled in MOK
# (status 5). docs/BUILD.md, "Secure Boot".
cd "$(dirname "$0")/../.."
. tests/qemu/lib.bash

cfg=$(printf 'profile = quick\nprobes = cost\ncost.reps = 2000\n')
snakeoil_key=/usr/share/ovmf/PkKek-1-snakeoil.key
snakeoil_cert=/usr/share/ovmf/PkKek-1-snakeoil.pem
mkdir -p "$QEMU_TEST_DIR"

# make sign names what is missing instead of failing inside sbsign.
out=$(make -s O="$O" sign KEY= CERT= 2>&1)
check "sign: without KEY, make sign stops and says KEY is not set" \
	grep -q 'sign: KEY is not set' <<< "$out"
out=$(make -s O="$O" sign KEY="$QEMU_TEST_DIR/no-such.key" CERT="$snakeoil_cert" 2>&1)
check "sign: an unreadable KEY is named" \
	grep -q "sign: KEY=$QEMU_TEST_DIR/no-such.key: no such file, or not readable" <<< "$out"

make -s O="$O" sign KEY=snakeoil CERT=snakeoil > /dev/null
signed_img=$O/x86_64/memprobe.signed.img
check "sign: sbverify accepts the signed app with the snakeoil certificate" \
	bash -c "sbverify --cert '$snakeoil_cert' '$O/x86_64/memprobe.signed.efi' >/dev/null 2>&1"

# Signed, Secure Boot on: the app runs and gives its verdict.
img=$(IMG=$signed_img image_with sb-signed "$cfg")
boot sb-signed --image "$img" --firmware snakeoil
check "signed: the snakeoil-signed image runs under enforced Secure Boot (status $BOOT_RC)" test "$BOOT_RC" -eq 0
check "signed: verdict line printed" log_has '^memprobe: verdict: success'
check "signed: the firmware refused nothing" bash -c "! grep -aq 'Access Denied' '$QEMU_TEST_DIR/sb-signed/serial.log'"
check "signed: system.json says \"secure_boot\": true" grep -Eq '"secure_boot": *true' "$(run_folder)/system.json"
check "signed: the banner says Secure Boot is on" log_has '^secure[_ ]boot: (true|on)'

# Unsigned, Secure Boot on: refused, and said so well before the timeout.
img=$(image_with sb-unsigned "$cfg")
start=$SECONDS
boot sb-unsigned --image "$img" --firmware snakeoil --timeout 200
took=$((SECONDS - start))
harness=$QEMU_TEST_DIR/sb-unsigned/harness.log
check "unsigned: the harness exits 4, the firmware refused the image (status $BOOT_RC)" test "$BOOT_RC" -eq 4
check "unsigned: the harness says so plainly" \
	grep -q '^qemu-run: REFUSED: the firmware refused the image (Secure Boot): failed to load Boot0001 .*Access Denied' "$harness"
check "unsigned: the app never started (empty debugcon)" test ! -s "$LOG"
check "unsigned: refused in ${took}s, well before the 200s timeout" test "$took" -lt 100

# SHIM=1: shim (signed by Microsoft) as the boot file, under OVMF with
# Microsoft's keys. The firmware accepts shim; shim refuses the
# snakeoil-signed app until its key is enrolled with MokManager.
if [[ ! -f /usr/lib/shim/shimx64.efi.signed || ! -f /usr/lib/shim/mmx64.efi.signed ]]; then
	echo "ok - shim: SKIPPED: Debian's shim-signed is not installed (apt-get install shim-signed)"
	exit 0
fi
make -s O="$O" image SHIM=1 > /dev/null
shim_img=$O/x86_64/memprobe.shim.img
fs=$(esp "$shim_img")
check "shim: BOOTX64.EFI is Debian's Microsoft-signed shim" \
	cmp -s <(mtype -i "$fs" ::/EFI/BOOT/BOOTX64.EFI) /usr/lib/shim/shimx64.efi.signed
check "shim: MokManager is beside it as mmx64.efi" \
	cmp -s <(mtype -i "$fs" ::/EFI/BOOT/mmx64.efi) /usr/lib/shim/mmx64.efi.signed
check "shim: grubx64.efi is the signed app" \
	cmp -s <(mtype -i "$fs" ::/EFI/BOOT/grubx64.efi) "$O/x86_64/memprobe.signed.efi"
check "shim: the certificate is on the stick in DER for MokManager" \
	cmp -s <(mtype -i "$fs" ::/memprobe-key.der) <(openssl x509 -in "$snakeoil_cert" -outform DER)

img=$(IMG=$shim_img image_with sb-shim "$cfg")
boot sb-shim --image "$img" --firmware ms --timeout 200
serial=$QEMU_TEST_DIR/sb-shim/serial.log
check "shim: the firmware started shim under Secure Boot" \
	grep -aq 'BdsDxe: starting Boot0001 ' "$serial"
check "shim: shim checked grubx64.efi and refused the unenrolled key" \
	grep -aq 'Verification failed: (0x1A) Security Violation' "$serial"
check "shim: the harness exits 5 and says shim refused the app (status $BOOT_RC)" test "$BOOT_RC" -eq 5
check "shim: the harness names shim's refusal" \
	grep -q '^qemu-run: REFUSED: shim started but refused the app (Secure Boot): Verification failed: (0x1A) Security Violation' \
	"$QEMU_TEST_DIR/sb-shim/harness.log"
