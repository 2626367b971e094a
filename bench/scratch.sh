# Sourced by the bench scripts: the repository, the build folder (O, by
# default build-bench so a bench run never mixes with a test build), a
# scratch folder removed on exit, and the Linux build made.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${O:-build-bench}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
make -s -C "$repo" O="$build" host
