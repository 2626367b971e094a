#!/bin/sh
# The bandwidth probe's fidelity claims, checkable on any x86-64 Linux
# machine with AVX2: builds the Linux binary and bench/bandwidth-reference.c
# (a plain 8-accumulator AVX2 read loop, compiled into a temporary folder),
# runs the reference loop, then `memprobe probes=bandwidth pages=2m` (the
# full sweep, 4 KiB to 512 MiB), then the reference loop again, and prints
# side by side, against the better of the two reference runs (memory
# bandwidth on a shared machine drifts from minute to minute):
#   - each read variant at 16 KiB (L1) and 256 KiB (L2), in GB/s and bytes
#     per core cycle;
#   - each read variant at 512 MiB against the reference loop's GB/s, as a
#     ratio;
#   - how many read, write and copy rows carry gb_per_s and bytes_per_cycle.
#
#   bench/bandwidth-check.sh [key=value ...]    extra keys go to memprobe
#
# Figures, not a test: nothing here passes or fails on a number. Run it on a
# quiet machine; anything else running takes bandwidth from both sides.
. "$(dirname "$0")/scratch.sh"
gcc -O2 -mavx2 -o "$scratch/reference" "$repo/bench/bandwidth-reference.c"

"$scratch/reference" 16384 262144 536870912 > "$scratch/reference-before.txt"
echo "== memprobe probes=bandwidth pages=2m =="
"$repo/$build/host/memprobe" --out "$scratch/results" probes=bandwidth pages=2m "$@" \
	> "$scratch/memprobe.txt"
csv=$(ls "$scratch"/results/run-*/results.csv)
grep -E '^(timer|core clock):|^bandwidth: (the CPU|.* not run)' "$scratch/memprobe.txt" || true
"$scratch/reference" 16384 262144 536870912 > "$scratch/reference-after.txt"

python3 - "$csv" "$scratch/reference-before.txt" "$scratch/reference-after.txt" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline='')) if r['probe'] == 'bandwidth']
runs = [dict(line.split() for line in open(f)) for f in sys.argv[2:]]
ref = {size: "%.2f" % max(float(run[size]) for run in runs) for size in runs[0]}
print("reference runs before / after memprobe, 512 MiB: %s / %s GB/s" %
      (runs[0]['536870912'], runs[1]['536870912']))
def at(variant, size):
    for r in rows:
        if r['variant'] == variant and r['working_set_bytes'] == str(size):
            return r
reads = sorted({r['variant'] for r in rows if r['variant'].startswith('read_')})
print("%-14s %10s %14s %10s %14s %12s %12s %7s" % ("variant", "16 KiB GB/s", "16 KiB B/cyc",
      "256 KiB GB/s", "256 KiB B/cyc", "512 MiB GB/s", "ref GB/s", "ratio"))
for v in reads:
    l1, l2, mem = at(v, 16384), at(v, 262144), at(v, 536870912)
    cell = lambda r, k: r[k] if r else "-"
    ratio = "%.3f" % (float(mem['gb_per_s']) / float(ref['536870912'])) if mem else "-"
    print("%-14s %10s %14s %10s %14s %12s %12s %7s" % (v, cell(l1, 'gb_per_s'),
          cell(l1, 'bytes_per_cycle'), cell(l2, 'gb_per_s'), cell(l2, 'bytes_per_cycle'),
          cell(mem, 'gb_per_s'), ref['536870912'], ratio))
print("reference AVX2 loop, the better run: 16 KiB %s GB/s, 256 KiB %s GB/s, 512 MiB %s GB/s" %
      (ref['16384'], ref['262144'], ref['536870912']))
for op in ('read', 'write', 'copy', 'ntwrite'):
    mine = [r for r in rows if r['variant'].startswith(op + '_')]
    carry = [r for r in mine if r['gb_per_s'] and r['bytes_per_cycle']]
    print("%-8s rows: %d, with gb_per_s and bytes_per_cycle: %d" % (op, len(mine), len(carry)))
PY
