#!/usr/bin/env bash
# The EFI app as a PE file, read independently of the tools that built it:
# an .sbat section with the format's line and memprobe's generation line,
# the NX_COMPAT flag, and no section both writable and executable.
set -uo pipefail
cd "$(dirname "$0")/.."
O=${O:-build}

python3 - "$O/${ARCH:-x86_64}/memprobe.efi" "$(sed -n 's/^VERSION := //p' Makefile)" <<'PY'
import struct, sys

path, version = sys.argv[1], sys.argv[2]
failed = 0
def check(ok, what):
    global failed
    print(("ok - " if ok else "FAIL - ") + "pe: " + what)
    failed += not ok

data = open(path, "rb").read()
pe = struct.unpack_from("<I", data, 0x3c)[0]
check(data[pe:pe + 4] == b"PE\0\0", "the app is a PE file")
nsections, = struct.unpack_from("<H", data, pe + 6)
optional_size, = struct.unpack_from("<H", data, pe + 20)
optional = pe + 24
magic, = struct.unpack_from("<H", data, optional)
check(magic == 0x20b, "PE32+ (magic 0x%x)" % magic)
dll, = struct.unpack_from("<H", data, optional + 70)
check(dll & 0x0100, "DllCharacteristics has NX_COMPAT (0x%04x)" % dll)

sections = {}
wx = []
for i in range(nsections):
    at = optional + optional_size + 40 * i
    name = data[at:at + 8].rstrip(b"\0").decode()
    vsize, vaddr, raw_size, raw_at = struct.unpack_from("<IIII", data, at + 8)
    flags, = struct.unpack_from("<I", data, at + 36)
    sections[name] = data[raw_at:raw_at + min(vsize, raw_size)]
    if flags & 0x20000000 and flags & 0x80000000:
        wx.append(name)
check(not wx, "no section is writable and executable (%s)" % (", ".join(wx) or "none"))
check(".sbat" in sections, "an .sbat section (sections: %s)" % ", ".join(sections))
lines = sections.get(".sbat", b"").split(b"\0")[0].decode(errors="replace").splitlines()
check(len(lines) == 2 and lines[0].startswith("sbat,1,SBAT Version,sbat,1,"),
      "SBAT's own line first: %r" % (lines[:1],))
check(len(lines) == 2 and lines[1] == "memprobe,1,memprobe,memprobe,%s,docs/BUILD.md" % version,
      "memprobe's generation line, version %s: %r" % (version, lines[1:]))
check(all(len(l.split(",")) == 6 for l in lines), "every SBAT line has six fields")
sys.exit(1 if failed else 0)
PY
