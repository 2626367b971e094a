# Sourced by the bench scripts: the repository, the build folder (O, by
# default build-bench so a bench run never mixes with a test build), a
# scratch folder removed on exit, and the Linux build made.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${O:-build-bench}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
make -s -C "$repo" O="$build" host

# The seed latency.c the comparisons run: SEED_SRC when set, else the
# project's shared folder beside the repository (../shared, as /work/main
# has it) or beside a worktree's folder (../../shared, as /work/wt/NAME has
# it). Prints the first path tried when none exists, so the caller's "no
# seed" line names where it looked.
seed_source() {
	for s in "${SEED_SRC:-}" "$repo/../shared/seeds/latency.c" "$repo/../../shared/seeds/latency.c"; do
		[ -n "$s" ] && [ -f "$s" ] && { echo "$s"; return; }
	done
	echo "${SEED_SRC:-$repo/../shared/seeds/latency.c}"
}
