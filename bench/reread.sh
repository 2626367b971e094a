#!/bin/sh
# Reads kept runs again with this tree's analysis, and prints the levels
# each names side by side: the caches (L1, L2, ...) by size and the TLBs
# by entries, per page size, with the verdict against the CPUID claims each
# run recorded, and whether every run names a level the same. For working
# on the reading offline against runs already made (bench/fidelity.sh and
# bench/full-profile.sh keep theirs with KEEP=DIR), without measuring again.
#
#   bench/reread.sh RUN [RUN ...]    each RUN a run folder (holding
#                                    results.csv and system.json) or a
#                                    folder with one run-* folder in it
#
# Figures, not a test: nothing here passes or fails.
. "$(dirname "$0")/scratch.sh"

[ $# -ge 1 ] || { echo "usage: bench/reread.sh RUN [RUN ...]" >&2; exit 2; }
n=0
for run in "$@"; do
	csv=$(ls "$run"/results.csv "$run"/run-*/results.csv 2>/dev/null | head -n 1)
	[ -n "$csv" ] || { echo "$run: no results.csv there" >&2; exit 2; }
	n=$((n + 1))
	"$repo/$build/host/memprobe" analyze "$csv" > "$scratch/$n.txt" 2>&1 ||
		{ echo "$run: analyze failed:"; cat "$scratch/$n.txt"; exit 1; }
done

python3 - "$scratch" "$@" <<'PY'
import re, sys

def levels(path):
    """name -> 'size verdict' for the cache rows, 'name page' -> 'entries
    verdict' for the TLB rows of analyze's two tables; a table ends at the
    first line that is not one of its rows."""
    verdicts = ("agrees", "differs", "-")
    cache_row = re.compile(r"  (L\d+|edge) +(\S+ [KMGT]?i?B) .* (\S+)$")
    tlb_row = re.compile(r"  (L\d+ DTLB|L\d+ TLB|TLB|walks) +(\d+ [KMG]iB) +(\d+) .* (\S+)$")
    out, table = {}, None
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("  level "):
            table = "cache"
            continue
        if line.startswith("  TLB ") and " entries " in line:   # the header
            table = "tlb"
            continue
        if not table:
            continue
        m = (cache_row if table == "cache" else tlb_row).match(line)
        if not m or m.groups()[-1] not in verdicts:
            # The top row ("memory", "beyond L2") closes the cache table.
            table = None
            continue
        if table == "cache":
            out[m.group(1)] = "%s %s" % (m.group(2).replace(" ", ""), m.group(3))
        else:
            key, i = "%s %s" % (m.group(1), m.group(2)), 2
            k = key
            while k in out:
                k, i = "%s #%d" % (key, i), i + 1
            out[k] = "%s %s" % (m.group(3), m.group(4))
    return out

runs = [levels("%s/%d.txt" % (sys.argv[1], i + 1)) for i in range(len(sys.argv) - 2)]
names = sorted(set().union(*runs), key=lambda k: (k.split()[0] == "walks", k))
print("%-20s" % "level" + "".join("%18s" % ("run %d" % (i + 1)) for i in range(len(runs))))
for i, r in enumerate(sys.argv[2:]):
    print("  run %d: %s" % (i + 1, r))
same = 0
for k in names:
    cells = [r.get(k, "-") for r in runs]
    sizes = [c.rsplit(" ", 1)[0] for c in cells]
    ok = len(set(sizes)) == 1
    same += ok
    print("%-20s" % k + "".join("%18s" % c for c in cells) + ("" if ok else "  DIFFERS"))
print("named the same in every run: %d of %d levels" % (same, len(names)))
PY
