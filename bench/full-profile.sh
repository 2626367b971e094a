#!/bin/sh
# How long the full default profile takes on this machine's Linux build:
# every default probe with the full profile's numbers, as a machine without
# a configuration file runs it. Prints the load average, each probe's own
# "done in" line and the wall time; then, when ../shared/seeds/latency.c
# sits beside the repository (and SEED is not 0), compiles the seed into the
# scratch folder and runs its two sweeps (./latency, ./latency huge) one
# after the other in this same script, and prints their wall time and
# memprobe's over it (issue 32's target: at most 0.35).
#
#   bench/full-profile.sh [key=value ...]    extra keys go to memprobe
#   SEED=0 bench/full-profile.sh             memprobe only
#   KEEP=DIR bench/full-profile.sh           also keeps the run folder in DIR
#   SEED_SRC=FILE bench/full-profile.sh      the seed's source, when elsewhere
#
# Figures, not a test: nothing here passes or fails on a number. Run it on a
# quiet machine; anything else running lengthens the trials the stop rule
# needs, and the load average printed before and after says how busy it was.
. "$(dirname "$0")/scratch.sh"

seed=$(seed_source)
load() { echo "load average ($1): $(cut -d' ' -f1-3 /proc/loadavg)"; }

load "before memprobe"
start=$(date +%s.%N)
"$repo/$build/host/memprobe" --out "$scratch/results" profile=full "$@" > "$scratch/memprobe.txt"
end=$(date +%s.%N)
grep -E '^== [a-z0-9]+: done in' "$scratch/memprobe.txt" || true
mp_wall=$(echo "$start $end" | awk '{ printf "%.1f", $2 - $1 }')
echo "full default profile: $mp_wall s wall"
load "after memprobe"
if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP"
	cp -r "$scratch/results" "$scratch/memprobe.txt" "$KEEP/"
	echo "run folder kept in $KEEP"
fi

if [ "${SEED:-1}" = 0 ] || [ ! -f "$seed" ]; then
	[ "${SEED:-1}" = 0 ] || echo "(no $seed beside the repository: no comparison with the seed)"
	exit 0
fi
cc -O2 -o "$scratch/latency" "$seed"
start=$(date +%s.%N)
"$scratch/latency" > "$scratch/seed-4k.txt"
"$scratch/latency" huge > "$scratch/seed-huge.txt"
end=$(date +%s.%N)
seed_wall=$(echo "$start $end" | awk '{ printf "%.1f", $2 - $1 }')
echo "seed latency.c, both sweeps (4 KiB, huge): $seed_wall s wall"
load "after the seed"
echo "$mp_wall $seed_wall" | awk '{ printf "memprobe full profile / seed two sweeps: %.2f (target: at most 0.35)\n", $1 / $2 }'
