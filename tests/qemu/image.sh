# The image is a GPT disk with exactly one partition, an EFI System
# Partition formatted FAT32 that holds \EFI\BOOT\BOOTX64.EFI; the booted
# image leaves its run folder in that partition; make-image.sh --add puts
# extra files on it.
cd "$(dirname "$0")/../.."
. tests/qemu/lib.bash

EFI=${EFI:-$O/x86_64/memprobe.efi}
mkdir -p "$QEMU_TEST_DIR"

check "image: LBA 1 holds a GPT header ('EFI PART')" \
	test "$(dd if="$IMG" bs=1 skip=512 count=8 2>/dev/null)" = "EFI PART"
check "image: sgdisk finds no problem in the GPT" bash -c "sgdisk -v '$IMG' | grep -q 'No problems found'"
parts=$(sgdisk -p "$IMG" | sed -n '/^Number/,$p' | tail -n +2)
check "image: exactly one partition" test "$(grep -c . <<<"$parts")" -eq 1
check "image: the partition is an EFI System Partition (EF00)" grep -Eq '^ +1 +[0-9]+ +[0-9]+ .* EF00 ' <<<"$parts"
check "image: the partition starts 1 MiB in" test "$(esp_offset "$IMG")" -eq 1048576
fs=$(esp "$IMG")
check "image: the partition's boot sector says FAT32" \
	test "$(dd if="$IMG" bs=1 skip=$(($(esp_offset "$IMG") + 82)) count=8 2>/dev/null)" = "FAT32   "
check "image: minfo reads it as FAT32" bash -c "minfo -i '$fs' | grep -q 'disk type=\"FAT32   \"'"
mcopy -o -i "$fs" ::/EFI/BOOT/BOOTX64.EFI "$QEMU_TEST_DIR/image-bootx64.efi" 2>/dev/null
check "image: \\EFI\\BOOT\\BOOTX64.EFI is the built app" cmp -s "$QEMU_TEST_DIR/image-bootx64.efi" "$EFI"

# make-image.sh --add: extra files on the ESP, folders made as needed, and
# a positional-argument call as the Makefile makes it.
printf 'second stage\n' > "$QEMU_TEST_DIR/image-extra.efi"
scripts/make-image.sh --add "$QEMU_TEST_DIR/image-extra.efi:::/EFI/BOOT/grubx64.efi" \
	--add "$QEMU_TEST_DIR/image-extra.efi:/EFI/other/x.efi" \
	"$QEMU_TEST_DIR/image-add.img" "$EFI" 64 > "$QEMU_TEST_DIR/image-add.log" 2>&1
afs=$(esp "$QEMU_TEST_DIR/image-add.img")
check "make-image --add: SRC:::/DEST lands on the ESP" \
	test "$(mtype -i "$afs" ::/EFI/BOOT/grubx64.efi 2>/dev/null)" = "second stage"
check "make-image --add: SRC:/DEST makes the missing folder" \
	test "$(mtype -i "$afs" ::/EFI/other/x.efi 2>/dev/null)" = "second stage"
check "make-image --add: the app is still \\EFI\\BOOT\\BOOTX64.EFI" \
	bash -c "mdir -b -i '$afs' ::/EFI/BOOT | grep -qi 'BOOTX64.EFI'"
check "make-image: a 64 MiB image is still FAT32 (smaller clusters)" \
	bash -c "minfo -i '$afs' | grep -q 'disk type=\"FAT32   \"'"
check "make-image: a size in KiB (the old unit) is refused" \
	bash -c "! scripts/make-image.sh '$QEMU_TEST_DIR/image-kib.img' '$EFI' 32768 2>/dev/null"
rm -f "$QEMU_TEST_DIR"/image-add.img "$QEMU_TEST_DIR"/image-kib.img*

# The booted image leaves its run folder inside the partition, and the
# harness brings it back out.
boot image --cpu max --mem 256M --args "profile=quick probes=cost cost.reps=1000"
check "boot: the app reports success from the GPT image (status $BOOT_RC)" test "$BOOT_RC" -eq 0
check "boot: one run folder in the ESP's \\memprobe" test "$(runs_on_disk)" -eq 1
name=$(mdir -b -i "$(esp "$DISK")" ::/memprobe 2>/dev/null | head -n 1 | xargs -r basename)
check "boot: its results.csv is in the partition" \
	bash -c "mdir -b -i '$(esp "$DISK")' ::/memprobe/$name | grep -qi 'results.csv'"
check "boot: the harness copied it out of the partition" \
	cmp -s "$(run_folder)/results.csv" <(mtype -i "$(esp "$DISK")" "::/memprobe/$name/results.csv")
