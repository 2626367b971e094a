#!/usr/bin/env bash
# The command line a new user meets and the Linux build installed like any
# tool (issue 34): --version, --help, `memprobe keys`, --check, the
# did-you-mean, the size grammar and a BOM-headed file; then `make install
# PREFIX=...` into a fresh folder, the installed binary run from there, its
# man page rendered by man(1), its bash completion asked for keys and
# words, and `make uninstall`; and `make deb`'s package. Every check reads what was printed or
# installed, so a missing section or key fails by name.
set -uo pipefail
cd "$(dirname "$0")/.."
. tests/host_lib.bash install-test

prefix=$PWD/$work/prefix

# status_of COMMAND...: its exit status, its output dropped.
status_of() { "$@" > /dev/null 2>&1; echo $?; }

# ---- The command line ----

check "--version exits 0 and names the version, build and commit" \
	bash -c '"$1" --version > "$2/version" && grep -q "^memprobe " "$2/version" &&
		grep -q "^build " "$2/version" && grep -Eq "^commit [0-9a-f]{7,}|^commit unknown" "$2/version"' \
	_ "$HOST_APP" "$work"
check "-V and version are --version" \
	bash -c 'diff <("$1" -V) <("$1" --version) && diff <("$1" version) <("$1" --version)' _ "$HOST_APP"

"$HOST_APP" --help > "$work/help"
help_status=$?
check "--help exits 0" test "$help_status" -eq 0
"$HOST_APP" keys > "$work/keys"
probes=$(awk -F'  +' '$1 == "probes" { v = $2; sub(/^list of /, "", v); gsub(/\|/, " ", v); print v }' "$work/keys")
check "memprobe keys names the probes" test -n "$probes"
for p in $probes; do
	check "--help lists the probe $p" grep -Eq "^  $p +" "$work/help"
done
for p in quick full; do
	check "--help lists the profile $p with a run length" grep -Eq "^  profile=$p +[^ ].*(min|s) " "$work/help"
done
check "--help gives every exit status" bash -c 'for s in 0 1 2 3; do grep -Eq "^  $s  " "$1" || exit 1; done' _ "$work/help"
check "--help's common keys are keys" bash -c '
	for k in $(sed -n "/^Common keys:/{n;p}" "$1" | tr -d ","); do
		grep -q "^$k " "$2" || { echo "not a key: $k"; exit 1; }
	done' _ "$work/help" "$work/keys"
check "--list-keys is memprobe keys" bash -c 'diff <("$1" --list-keys) "$2"' _ "$HOST_APP" "$work/keys"
check "memprobe keys lists every key of docs/CONFIG.md" bash -c '
	for k in $(grep -oE "^\| \`[a-z0-9_.]+\` \|" docs/CONFIG.md | tr -d "|\` "); do
		grep -q "^$k " "$1" || { echo "missing: $k"; exit 1; }
	done' _ "$work/keys"
check "memprobe keys gives latency.max_buffer both profiles' defaults" \
	grep -Eq '^latency\.max_buffer +size .* +8GiB +8GiB$' "$work/keys"

check "--check on a good configuration exits 0 without running" \
	bash -c '"$1" --out "$2/never" --check profile=quick > "$2/check.out" 2>&1 &&
		grep -q "the configuration is good" "$2/check.out" && [[ ! -e $2/never ]]' _ "$HOST_APP" "$work"
check "--check on a bad configuration exits 2" test "$(status_of "$HOST_APP" --check trials=0)" -eq 2
"$HOST_APP" --check profle=quick > /dev/null 2> "$work/profle.err"
check "profle=quick suggests profile" grep -q "did you mean 'profile'" "$work/profle.err"
"$HOST_APP" --verison > /dev/null 2> "$work/verison.err"
check "--verison suggests --version" grep -q "did you mean '--version'" "$work/verison.err"
"$HOST_APP" --check probes=latncy > /dev/null 2> "$work/latncy.err"
check "probes=latncy suggests latency" grep -q "did you mean 'latency'" "$work/latncy.err"
check "pages=2MiB is accepted as 2m" bash -c '"$1" --check pages=4k,2MiB | grep -qx "pages = 4k,2m"' _ "$HOST_APP"
"$HOST_APP" --check pages=3M > /dev/null 2> "$work/pages.err"
check "pages=3M lists this platform's page sizes" grep -q "this machine.s: 4k, 2m, 1g[;)]" "$work/pages.err"
check "pages=3M lists no other architecture's" bash -c '! grep -Eq "16k|64k|32m|512m" "$1"' _ "$work/pages.err"
check "max_size=1.5M is 1536 KiB" bash -c '"$1" --check max_size=1.5M | grep -qx "max_size = 1536KiB"' _ "$HOST_APP"
check "--max_size=2MiB and --out=DIR are taken" \
	bash -c '"$1" --out="$2" --check --max_size=2MiB | grep -qx "max_size = 2MiB"' _ "$HOST_APP" "$work"
check "--quiet and -q are quiet=yes" \
	bash -c '"$1" --check --quiet | grep -qx "quiet = yes" && "$1" --check -q | grep -qx "quiet = yes"' _ "$HOST_APP"
check "the spaced key = value is taken" \
	bash -c '"$1" --check profile = quick trials = 5 | grep -qx "trials = 5"' _ "$HOST_APP"
printf '\xef\xbb\xbfprofile = quick\r\ntrials = 4\r\n' > "$work/notepad.cfg"
check "a BOM-headed CRLF file is read, with a note" \
	bash -c '"$1" --config "$2" --check > "$3.out" 2> "$3.err" && grep -qx "trials = 4" "$3.out" &&
		grep -q "byte-order mark" "$3.err"' _ "$HOST_APP" "$work/notepad.cfg" "$work/notepad"

# ---- make install ----

make --no-print-directory O="$O" install PREFIX="$prefix" > "$work/install.log" 2>&1
check "make install PREFIX=... exits 0" test $? -eq 0
app=$prefix/bin/memprobe man_page=$prefix/share/man/man1/memprobe.1
completion=$prefix/share/bash-completion/completions/memprobe
check "the installed memprobe --version exits 0" bash -c '"$1" --version | grep -q "^memprobe "' _ "$app"
MANWIDTH=100 man -l "$man_page" > "$work/man.txt" 2> "$work/man.err"
check "man -l renders memprobe.1" test -s "$work/man.txt" -a ! -s "$work/man.err"
for section in NAME SYNOPSIS OPTIONS PROBES PROFILES "COMMON KEYS" "EXIT STATUS" KEYS; do
	check "the man page has $section" grep -q "^$section" "$work/man.txt"
done
check "the man page lists every key of memprobe keys" bash -c '
	for k in $(tail -n +2 "$1" | cut -d" " -f1); do
		grep -q "^ *$k " "$2" || { echo "missing: $k"; exit 1; }
	done' _ "$work/keys" "$work/man.txt"

# complete LINE: what the installed completion offers with the cursor at
# the end of LINE, one per line.
complete_line() {
	bash -c '. "$1"; COMP_LINE=$2; COMP_POINT=${#2}; _memprobe; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$completion" "$1"
}
check "the completion offers profile= for prof" bash -c '[[ $1 == *profile=* ]]' _ "$(complete_line "memprobe prof")"
check "the completion offers quick for profile=q" bash -c '[[ $1 == quick ]]' _ "$(complete_line "memprobe profile=q")"
check "the completion completes a list's last item" \
	bash -c '[[ $1 == latency,tlb ]]' _ "$(complete_line "memprobe probes=latency,tl")"
check "the completion offers --version" bash -c '[[ $1 == *--version* ]]' _ "$(complete_line "memprobe --ver")"
check "the completion offers --quiet" bash -c '[[ $1 == *--quiet* ]]' _ "$(complete_line "memprobe --qu")"

make --no-print-directory O="$O" uninstall PREFIX="$prefix" > "$work/uninstall.log" 2>&1
check "make uninstall removes the three files" \
	bash -c '[[ ! -e $1 && ! -e $2 && ! -e $3 ]]' _ "$app" "$man_page" "$completion"

# ---- make deb ----

rm -f "$O"/memprobe_*.deb
make --no-print-directory O="$O" deb > "$work/deb.log" 2>&1
check "make deb exits 0" test $? -eq 0
deb_file=$(ls "$O"/memprobe_*_"$(dpkg --print-architecture)".deb 2>/dev/null | head -n1)
dpkg-deb -c "$deb_file" > "$work/deb.list" 2>&1
for f in usr/bin/memprobe usr/share/man/man1/memprobe.1 usr/share/bash-completion/completions/memprobe; do
	check "the .deb holds /$f" grep -q " \./$f\$" "$work/deb.list"
done
check "the .deb stays small (under 1 MiB)" test "$(stat -c %s "$deb_file" 2>/dev/null || echo 99999999)" -lt 1048576
