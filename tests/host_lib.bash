# Shared by the tests of the Linux build that run it whole (tests/linux.sh,
# browser.sh, upload.sh, fleet.sh): the build folder, the app, a fresh work
# folder, and the "ok - ..." / "FAIL - ..." lines tests/run counts.
#
#   . tests/host_lib.bash NAME    work=$O/NAME, emptied; from the repository root

O=${O:-build}
HOST_APP=${HOST_APP:-$O/host/memprobe}
work=$O/$1
rm -rf "$work"
mkdir -p "$work"

fail() { echo "FAIL - $*"; }

# check WHAT COMMAND...: "ok - WHAT" when COMMAND succeeds, else "FAIL - WHAT".
check() {
	local what=$1; shift
	if "$@"; then echo "ok - $what"; else fail "$what"; fi
}
