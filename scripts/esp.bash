# Sourced, not run: where the EFI System Partition lies in a memprobe image,
# for mtools. scripts/make-image.sh, scripts/qemu-run.sh and tests/qemu/
# all address the partition through these two functions, so the layout is
# read from the image's own GPT, never assumed.
#
#   esp_offset IMG   the ESP's byte offset (first LBA x 512); 0 for an
#                    unpartitioned FAT volume (a "superfloppy")
#   esp IMG          "IMG@@OFFSET", what mtools' -i takes; plain IMG at 0
#
# Both fail, with a message, for a GPT disk without an ESP.

esp_offset() {
	python3 - "$1" <<'PY'
import struct, sys, uuid
path = sys.argv[1]
ESP = uuid.UUID("c12a7328-f81f-11d2-ba4b-00a0c93ec93b")
with open(path, "rb") as f:
    f.seek(512)                      # LBA 1: the primary GPT header
    hdr = f.read(92)
    if len(hdr) < 92 or hdr[:8] != b"EFI PART":
        print(0)                     # no GPT: the volume starts at byte 0
        sys.exit(0)
    entries_lba, count, size = struct.unpack_from("<QII", hdr, 72)
    f.seek(entries_lba * 512)
    table = f.read(count * size)
for i in range(count):
    e = table[i * size:(i + 1) * size]
    if uuid.UUID(bytes_le=e[:16]) == ESP:
        print(struct.unpack_from("<Q", e, 32)[0] * 512)
        sys.exit(0)
sys.exit(f"esp: {path}: a GPT disk without an EFI System Partition")
PY
}

esp() {
	local off
	off=$(esp_offset "$1") || return 1
	if [[ $off -eq 0 ]]; then
		echo "$1"
	else
		echo "$1@@$off"
	fi
}
