#!/usr/bin/env bash
# make-image.sh [--add SRC:DEST]... IMAGE EFI SIZE_MIB [CONFIG [BOOT_NAME]]
#
# A GPT disk image of SIZE_MIB MiB with one partition, an EFI System
# Partition (type EF00) formatted FAT32, holding EFI as \EFI\BOOT\BOOT_NAME
# (the architecture's removable-media boot path every UEFI firmware tries;
# default BOOTX64.EFI, the Makefile passes its ARCH's), CONFIG (when given)
# as \EFI\BOOT\memprobe.cfg, and every --add SRC:DEST: the file SRC as DEST
# on the ESP, e.g. --add build/grubx64.efi:::/EFI/BOOT/grubx64.efi (DEST may
# be written ::/PATH or /PATH; missing folders are made; an --add to a
# path already there replaces it).
#
# Layout (docs/BUILD.md, "The image"): protective MBR and primary GPT in the
# first MiB, the ESP from 1 MiB to SIZE_MIB - 1 MiB, the backup GPT in the
# last MiB. Built as an ordinary user: no loop device, no mount: sgdisk
# writes the tables, mkfs.fat --offset formats the partition inside the
# file, mtools fills it through IMAGE@@OFFSET (scripts/esp.bash).
set -euo pipefail
. "$(dirname "$0")/esp.bash"

adds=() pos=()
while [[ $# -gt 0 ]]; do
	case $1 in
	--add) [[ $# -ge 2 ]] || { echo "make-image: --add needs SRC:DEST" >&2; exit 2; }
		adds+=("$2"); shift 2 ;;
	--add=*) adds+=("${1#--add=}"); shift ;;
	*) pos+=("$1"); shift ;;
	esac
done
[[ ${#pos[@]} -ge 3 ]] || { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0" >&2; exit 2; }
img=${pos[0]} efi=${pos[1]} size_mib=${pos[2]} config=${pos[3]:-} boot_name=${pos[4]:-BOOTX64.EFI}

# The size is in MiB. An old caller passing KiB (32768 was the default)
# would ask for 32 GiB: refuse anything that large rather than build it.
if ! [[ $size_mib =~ ^[0-9]+$ ]] || ((size_mib < 40 || size_mib > 16384)); then
	echo "make-image: SIZE_MIB=$size_mib: the size is in MiB, 40 to 16384 (FAT32 needs 65525 clusters)" >&2
	exit 2
fi
[[ -f $efi ]] || { echo "make-image: $efi: no such file" >&2; exit 1; }
[[ -z $config || -f $config ]] || { echo "make-image: CONFIG=$config: no such file" >&2; exit 1; }
for a in "${adds[@]}"; do
	[[ $a == *:/* ]] || { echo "make-image: --add $a: not SRC:DEST" >&2; exit 2; }
	src=${a%:/*}; src=${src%:}; src=${src%:}
	[[ -f $src ]] || { echo "make-image: --add $a: $src: no such file" >&2; exit 1; }
done

tmp="$img.tmp"
rm -f "$tmp"
trap 'rm -f "$tmp"' EXIT

sectors=$((size_mib * 2048))              # 512-byte logical sectors
part_first=2048                           # 1 MiB: aligned for any flash erase block
part_last=$((sectors - 2048 - 1))         # the last MiB holds the backup GPT
part_sectors=$((part_last - part_first + 1))

truncate -s "${size_mib}M" "$tmp"
# Fixed GUIDs ("MEMPROBE..." in hex) keep the image reproducible.
sgdisk --clear \
	--disk-guid=4d454d50-524f-4245-4449-534b00000001 \
	--new=1:$part_first:$part_last --typecode=1:EF00 \
	--change-name=1:"EFI System Partition" \
	--partition-guid=1:4d454d50-524f-4245-4553-500000000001 \
	"$tmp" >/dev/null

# Cluster size: the largest of 4, 2, 1 KiB and 512 B that leaves the volume
# comfortably (10%) above FAT32's floor of 65525 clusters. Near that floor
# drivers disagree about FAT16 versus FAT32; below it mkfs.fat refuses.
# Bigger clusters keep the FAT small; a run writes a handful of files, so
# the slack smaller clusters save is a few KiB a run (docs/BUILD.md).
spc=8
while ((spc > 1)); do
	fat_sectors=$(( ((part_sectors / spc + 2) * 4 + 511) / 512 ))
	clusters=$(( (part_sectors - 32 - 2 * fat_sectors) / spc ))
	((clusters >= 65525 * 11 / 10)) && break
	spc=$((spc / 2))
done

# -h: hidden sectors = the partition's start, as a partitioned FAT volume's
# boot sector must say. A fixed volume id, as with the GUIDs above.
# mkfs.fat warns that the file runs on past the volume (the backup GPT does):
# keep its words for a failure only.
if ! out=$(mkfs.fat -F 32 -S 512 -s "$spc" -h "$part_first" --offset="$part_first" \
	-n MEMPROBE -i 4d454d50 "$tmp" $((part_sectors / 2)) 2>&1); then
	echo "$out" >&2
	exit 1
fi

fs=$(esp "$tmp")
mkdir_p() {   # mkdir_p ::/A/B/C: every missing folder on the way
	local path=${1#::} sofar=
	local IFS=/
	for part in $path; do
		[[ -n $part ]] || continue
		sofar+="/$part"
		mdir -i "$fs" "::$sofar" >/dev/null 2>&1 || mmd -i "$fs" "::$sofar"
	done
}
mkdir_p ::/EFI/BOOT
mcopy -i "$fs" "$efi" "::/EFI/BOOT/$boot_name"
[[ -z $config ]] || mcopy -i "$fs" "$config" ::/EFI/BOOT/memprobe.cfg
for a in "${adds[@]}"; do
	dest=/${a##*:/}
	src=${a%:/*}; src=${src%:}; src=${src%:}
	mkdir_p "::$(dirname "$dest")"
	mcopy -o -i "$fs" "$src" "::$dest"
done
mv "$tmp" "$img"
trap - EXIT
