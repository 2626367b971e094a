#!/bin/sh
# The tlb probe's speed claim (the full profile's sweep in at most 15 s on
# this project's machines) and its figures, checkable on any machine: builds
# the Linux binary, runs the full-profile tlb sweep with 4 KiB and 2 MiB
# pages, and prints its wall time, the probe's own table and the TLB levels
# the analysis read from it.
#
#   bench/tlb-sweep.sh [key=value ...]    extra keys go to memprobe
#
# Figures, not a test: nothing here passes or fails on a number. Most of the
# 2 MiB half's time is the kernel zeroing its huge pages (tlb.max_buffer,
# 8 GiB by default): the "sys" share of the time line.
. "$(dirname "$0")/scratch.sh"

echo "== memprobe: full tlb sweep, 4 KiB and 2 MiB pages =="
start=$(date +%s.%N)
"$repo/$build/host/memprobe" --out "$scratch/results" profile=full probes=tlb \
	pages=4k,2m "$@" > "$scratch/memprobe.txt"
end=$(date +%s.%N)
grep -E '^(timer|core clock):' "$scratch/memprobe.txt"
sed -n '/^== tlb ==/,/^== tlb:/p' "$scratch/memprobe.txt"
sed -n '/TLB levels, read from the tlb probe/,$p' "$scratch/memprobe.txt"
echo "$start $end" | awk '{ printf "memprobe wall time: %.1f s\n", $2 - $1 }'
