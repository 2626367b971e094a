#!/usr/bin/env bash
# make-image.sh IMAGE EFI SIZE_KIB [CONFIG [BOOT_NAME]]
# A FAT image holding EFI as \EFI\BOOT\BOOT_NAME (the architecture's
# removable-media boot path every UEFI firmware tries; default BOOTX64.EFI,
# the Makefile passes its ARCH's), optionally CONFIG as \EFI\BOOT\memprobe.cfg.
# An unpartitioned FAT volume: firmware boots it as a "superfloppy" and dd
# puts it on a stick unchanged.
set -euo pipefail
img=$1 efi=$2 size_kib=$3 config=${4:-} boot_name=${5:-BOOTX64.EFI}

tmp="$img.tmp"
rm -f "$tmp"
# A fixed volume id keeps the image reproducible from the same inputs.
mkfs.fat -C -n MEMPROBE -i 4d454d50 "$tmp" "$size_kib" >/dev/null
mmd -i "$tmp" ::/EFI ::/EFI/BOOT
mcopy -i "$tmp" "$efi" "::/EFI/BOOT/$boot_name"
if [[ -n $config ]]; then
	[[ -f $config ]] || { echo "make-image: CONFIG=$config: no such file" >&2; rm -f "$tmp"; exit 1; }
	mcopy -i "$tmp" "$config" ::/EFI/BOOT/memprobe.cfg
fi
mv "$tmp" "$img"
