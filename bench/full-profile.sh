#!/bin/sh
# How long the full default profile takes on this machine's Linux build:
# every default probe (latency, tlb, locality, later, cost, bandwidth) with
# the full profile's numbers, as a machine without a configuration file
# runs it. Prints the wall time and each probe's own "done in" line.
#
#   bench/full-profile.sh [key=value ...]    extra keys go to memprobe
#
# Figures, not a test: nothing here passes or fails on a number. Run it on a
# quiet machine; anything else running lengthens the trials the stop rule
# needs.
. "$(dirname "$0")/scratch.sh"

start=$(date +%s.%N)
"$repo/$build/host/memprobe" --out "$scratch/results" profile=full "$@" > "$scratch/memprobe.txt"
end=$(date +%s.%N)
grep -E '^== [a-z]+: done in' "$scratch/memprobe.txt" || true
echo "$start $end" | awk '{ printf "full default profile: %.1f s wall\n", $2 - $1 }'
