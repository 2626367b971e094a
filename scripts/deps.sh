#!/usr/bin/env bash
# Checks every tool the build, the QEMU harness and the tests need, and
# installs what is missing with apt-get when run as root. Not root: prints
# the exact apt-get line and stops, since a half-installed toolchain fails
# later with a less helpful message.
#
#   scripts/deps.sh        what the build needs
#   scripts/deps.sh test   and what only `make test` needs (a browser for
#                          tests/browser.sh), kept off the plain build
#   scripts/deps.sh fleet  and what `make fleet-demo` needs (nginx, sqlite3)
#   ARCH=aarch64 O=build scripts/deps.sh
#                          and the AArch64 app's cross compiler, QEMU and
#                          AAVMF, with gnu-efi:arm64 unpacked into
#                          $O/gnu-efi-aarch64 (docs/BUILD.md, "AArch64");
#                          `test` asks for them too, for tests/qemu/aarch64.sh
set -euo pipefail

# tool-to-check  debian-package
checks=(
	"gcc:gcc"
	"ld:binutils"
	"objcopy:binutils"
	"/usr/include/efi/efi.h:gnu-efi"
	"/usr/lib/crt0-efi-x86_64.o:gnu-efi"
	"/usr/share/OVMF/OVMF_CODE_4M.fd:ovmf"
	"qemu-system-x86_64:qemu-system-x86"
	"mcopy:mtools"
	"mkfs.fat:dosfstools"
	"sbsign:sbsigntool"
	"openssl:openssl"
	"sgdisk:gdisk"
	"clang:clang"
	"xmllint:libxml2-utils"
	"python3:python3"
	"make:make"
	"/usr/include/sqlite3.h:libsqlite3-dev"
)
# tests/browser.sh opens the HTML pages in headless Chromium.
[[ ${1:-} == test ]] && checks+=("chromium:chromium")
# tests/install.sh renders the installed man page with man -l.
[[ ${1:-} == test ]] && checks+=("man:man-db")
# tests/files.sh and tests/qemu/probes.sh validate system.json against
# docs/system.schema.json with Python's jsonschema (tests/schema_check.py).
[[ ${1:-} == test ]] && checks+=("/usr/lib/python3/dist-packages/jsonschema/__init__.py:python3-jsonschema")
# tests/upload.sh sends a run's files to a WebDAV server it starts on
# 127.0.0.1 (nginx's dav module is in Debian's nginx) and reads them back.
[[ ${1:-} == test || ${1:-} == fleet ]] && checks+=("/usr/sbin/nginx:nginx")
# tests/fleet.sh and the fleet demo's QEMU test read the database `memprobe
# fleet --db` writes with the sqlite3 command, as a site would.
[[ ${1:-} == test || ${1:-} == fleet ]] && checks+=("sqlite3:sqlite3")
# The AArch64 app: only when asked for, so an x86-only build stays as small.
aarch64=0
[[ ${ARCH:-x86_64} == aarch64 || ${1:-} == test ]] && aarch64=1
[[ $aarch64 == 1 ]] && checks+=(
	"aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu"
	"aarch64-linux-gnu-ld:binutils-aarch64-linux-gnu"
	"qemu-system-aarch64:qemu-system-arm"
	"/usr/share/AAVMF/AAVMF_CODE.fd:qemu-efi-aarch64"
	"dpkg-deb:dpkg"
)

missing=()
for entry in "${checks[@]}"; do
	what=${entry%%:*} pkg=${entry##*:}
	if [[ $what == /* ]]; then
		[[ -e $what ]] && continue
	else
		command -v "$what" >/dev/null 2>&1 && continue
	fi
	[[ " ${missing[*]} " == *" $pkg "* ]] || missing+=("$pkg")
done

# libFuzzer ships in the clang runtime package; clang alone may lack it.
if command -v clang >/dev/null 2>&1 &&
   ! echo 'int LLVMFuzzerTestOneInput(const char*d,unsigned long n){return 0;}' |
     clang -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1; then
	ver=$(clang --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -n1)
	missing+=("libclang-rt-${ver}-dev")
fi

# gnu-efi:arm64 cannot be installed beside the x86_64 gnu-efi (Debian's
# package has no Multi-Arch field: installing one removes the other), so it
# is downloaded with a private apt state (no root, the system's dpkg
# architectures untouched) and unpacked into the build folder.
gnu_efi_aarch64() {
	local dest=${O:-build}/gnu-efi-aarch64 work
	[[ -f $dest/usr/lib/crt0-efi-aarch64.o ]] && return 0
	work=$(mktemp -d)
	mkdir -p "$work/lists/partial" "$work/cache/archives/partial"
	local apt=(apt-get -q -o Dir::State::Lists="$work/lists" -o Dir::Cache="$work/cache"
		-o Dir::State::status=/dev/null -o APT::Architecture=arm64
		-o APT::Architectures::=arm64)
	echo "deps: fetching gnu-efi:arm64 into $dest"
	if ! "${apt[@]}" update >"$work/log" 2>&1 ||
	   ! (cd "$work" && "${apt[@]}" download gnu-efi:arm64 >>"$work/log" 2>&1); then
		cat "$work/log" >&2
		echo "deps: could not download gnu-efi:arm64 (see above)" >&2
		rm -rf "$work"
		return 1
	fi
	mkdir -p "$dest"
	dpkg-deb -x "$work"/gnu-efi_*_arm64.deb "$dest"
	rm -rf "$work"
	[[ -f $dest/usr/lib/crt0-efi-aarch64.o ]]
}

if [[ ${#missing[@]} -eq 0 ]]; then
	[[ $aarch64 == 1 ]] && { gnu_efi_aarch64 || exit 1; }
	exit 0
fi

line="apt-get install -y --no-install-recommends ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
	echo "memprobe needs: ${missing[*]}" >&2
	echo "run as root:  apt-get update && $line" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# Debian's nginx starts a system server on port 80 when installed: the
# tests start their own on loopback only, so no service starts here (a
# policy-rc.d that says no, only while installing, only if none is there).
policy=
if [[ " ${missing[*]} " == *" nginx "* && ! -e /usr/sbin/policy-rc.d ]]; then
	policy=/usr/sbin/policy-rc.d
	printf '#!/bin/sh\nexit 101\n' > "$policy"
	chmod 755 "$policy"
fi
$line >/dev/null || { [[ -n $policy ]] && rm -f "$policy"; exit 1; }
[[ -n $policy ]] && rm -f "$policy"
[[ $aarch64 == 1 ]] && { gnu_efi_aarch64 || exit 1; }
echo "deps: done"
