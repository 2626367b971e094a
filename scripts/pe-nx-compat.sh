#!/usr/bin/env bash
# pe-nx-compat.sh FILE: sets IMAGE_DLLCHARACTERISTICS_NX_COMPAT (0x0100) in a
# PE32+ image's optional header, which objcopy cannot set. It refuses
# anything that is not a PE32+ file, and a file with a section that is both
# writable and executable, since the flag promises that none is.
set -euo pipefail
file=$1

u16() { od -An -tu2 -j "$1" -N2 "$file" | tr -d ' '; }
u32() { od -An -tu4 -j "$1" -N4 "$file" | tr -d ' '; }

pe=$(u32 60)
if [[ $(od -An -c -j "$pe" -N4 "$file" | tr -d ' ') != 'PE\0\0' ]]; then
	echo "pe-nx-compat: $file: no PE signature" >&2
	exit 1
fi
optional=$((pe + 24))
if [[ $(u16 "$optional") != 523 ]]; then    # 0x20b: PE32+
	echo "pe-nx-compat: $file: not a PE32+ image" >&2
	exit 1
fi
sections=$(u16 $((pe + 6)))
table=$((optional + $(u16 $((pe + 20)))))
for ((i = 0; i < sections; i++)); do
	flags=$(u32 $((table + i * 40 + 36)))
	if (( (flags & 0x20000000) && (flags & 0x80000000) )); then
		echo "pe-nx-compat: $file: section $i is writable and executable" >&2
		exit 1
	fi
done
# DllCharacteristics: offset 70 of the PE32+ optional header, little endian.
at=$((optional + 70))
value=$(( $(u16 "$at") | 0x0100 ))
printf "$(printf '\\%03o\\%03o' $((value & 0xff)) $((value >> 8)))" |
	dd of="$file" bs=1 seek="$at" conv=notrunc status=none
