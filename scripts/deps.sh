#!/usr/bin/env bash
# Checks every tool the build, the QEMU harness and the tests need, and
# installs what is missing with apt-get when run as root. Not root: prints
# the exact apt-get line and stops, since a half-installed toolchain fails
# later with a less helpful message.
#
#   scripts/deps.sh        what the build needs
#   scripts/deps.sh test   and what only `make test` needs (a browser for
#                          tests/browser.sh), kept off the plain build
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
)
# tests/browser.sh opens the HTML pages in headless Chromium.
[[ ${1:-} == test ]] && checks+=("chromium:chromium")

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

[[ ${#missing[@]} -eq 0 ]] && exit 0

line="apt-get install -y --no-install-recommends ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
	echo "memprobe needs: ${missing[*]}" >&2
	echo "run as root:  apt-get update && $line" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
$line >/dev/null
echo "deps: done"
