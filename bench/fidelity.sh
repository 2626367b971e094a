#!/bin/sh
# Does the full profile's time budget give the same answer as a longer one?
# Runs the full default profile, then the same probes with a 4x longer
# budget per figure (trials of 4x step_ms, 4x the minimum and maximum trial
# counts, 4x later's runs), and prints side by side: the two wall times,
# each named level (caches, TLBs) with its size or entries and latency,
# DRAM latency (the card's top) and one core's read bandwidth, each with
# the difference, and the largest difference of all. A level named
# differently is printed with the range each run's readings allowed:
# "same" for one size, "in range" for two sizes of one level whose ranges
# share some (a smeared step that both readings place alike), "DIFFERS"
# for ranges apart or a level only one run names.
#
#   bench/fidelity.sh [key=value ...]    extra keys go to both runs
#   KEEP=DIR bench/fidelity.sh           also keeps both run folders in DIR
#   REREAD=DIR bench/fidelity.sh         no runs: prints the comparison of the
#                                        two runs KEEP kept in DIR again
#
# Figures, not a test: nothing here passes or fails on a number. The load
# average before each run is printed: on a busy machine both runs' figures
# move, and the longer one's trials see more of the disturbance too.
. "$(dirname "$0")/scratch.sh"

load() { echo "load average ($1): $(cut -d' ' -f1-3 /proc/loadavg)"; }
run() {
	name=$1
	shift
	load "before the $name run"
	start=$(date +%s.%N)
	"$repo/$build/host/memprobe" --out "$scratch/$name" profile=full "$@" > "$scratch/$name.txt"
	end=$(date +%s.%N)
	echo "$start $end" | awk '{ printf "%.1f", $2 - $1 }' > "$scratch/$name.wall"
	grep -E '^== [a-z0-9]+: done in' "$scratch/$name.txt" | sed "s/^/$name: /" || true
}

# The full profile's numbers, read back from the configuration it reports.
full_cfg() { sed -n "s/^ *$1 *= *\\([0-9.]*\\).*/\\1/p" "$scratch/full.txt" | head -n 1; }

if [ -n "${REREAD:-}" ]; then
	# A kept comparison printed again (KEEP's folder): the cards as the
	# runs wrote them; wall times where KEEP kept them, else 0.
	for name in full long; do
		[ -d "$REREAD/$name" ] || { echo "fidelity: no $REREAD/$name (a KEEP folder?)" >&2; exit 2; }
		cp -r "$REREAD/$name" "$scratch/$name"
		cat "$REREAD/$name.wall" > "$scratch/$name.wall" 2>/dev/null || echo 0 > "$scratch/$name.wall"
	done
else
run full "$@"
step=$(full_cfg step_ms); trials=$(full_cfg trials); max=$(full_cfg max_trials)
lmin=$(full_cfg later.min_repeat); lmax=$(full_cfg later.max_repeat)
long=$(echo "$step $trials $max $lmin $lmax" | awk '{ printf "step_ms=%g trials=%d max_trials=%d later.min_repeat=%d later.max_repeat=%d", 4 * $1, 4 * $2, 4 * $3, 4 * $4, 4 * $5 }')
echo "the 4x budget: $long"
# shellcheck disable=SC2086
run long $long "$@"
fi

python3 - "$scratch/full" "$scratch/long" "$(cat "$scratch/full.wall")" "$(cat "$scratch/long.wall")" <<'PY'
import glob, json, sys

def summary(folder):
    path = glob.glob(folder + "/run-*/system.json")
    return json.load(open(path[0]))["summary"] if path else {}

a, b = summary(sys.argv[1]), summary(sys.argv[2])
print("%-28s %14s %14s %9s" % ("", "full", "4x budget", "diff"))
if float(sys.argv[3]) > 0:
    print("%-28s %12s s %12s s %8.2fx" % ("wall time", sys.argv[3], sys.argv[4],
                                           float(sys.argv[4]) / float(sys.argv[3])))
else:
    print("%-28s %14s %14s" % ("wall time", "-", "-"))
worst = (0.0, "")

def row(label, x, y, unit, fmt="%.2f"):
    global worst
    if x is None or y is None:
        print("%-28s %14s %14s" % (label, "-" if x is None else fmt % x + unit,
                                   "-" if y is None else fmt % y + unit))
        return
    d = (x - y) / y * 100 if y else 0.0
    print("%-28s %14s %14s %+8.1f%%" % (label, fmt % x + unit, fmt % y + unit, d))
    if abs(d) > abs(worst[0]):
        worst = (d, label)

def named(s, key, ident):
    # Two levels of one name and page size (a card may list two "TLB 4 KiB"
    # steps) stay apart: the second is "#2".
    out = {}
    for e in s.get(key, []):
        k, n = ident(e), 2
        while k in out:
            k = "%s #%d" % (ident(e), n)
            n += 1
        out[k] = e
    return out

def range_keys(key):
    # The summary's names for a level's range: bytes for caches, entries for TLBs.
    return ("range_lo_bytes", "range_hi_bytes") if key == "caches" else \
           ("range_lo_entries", "range_hi_entries")

def ranges(ex, ey, key, div):
    # What each run's readings allowed, so a reader sees whether the two
    # names are two readings of one range or ranges apart.
    lo, hi = range_keys(key)
    def one(e):
        return "-" if not e else "%g-%g" % (e.get(lo, 0) / div, e.get(hi, 0) / div)
    return "ranges %s / %s" % (one(ex), one(ey))

cache_id = lambda e: e["name"]
tlb_id = lambda e: "%s %s" % (e["name"], "4 KiB" if e["page_size"] == 4096 else
                              "2 MiB" if e["page_size"] == 2 << 20 else
                              "1 GiB" if e["page_size"] == 1 << 30 else e["page_size"])
def meet(ex, ey, key):
    # Both readings allow one size: their ranges share some of it.
    lo, hi = range_keys(key)
    if not ex or not ey or not ex.get(hi) or not ey.get(hi):
        return False
    return max(ex.get(lo, 0), ey.get(lo, 0)) <= min(ex[hi], ey[hi])

same, within = True, 0
for key, ident, size, ns in (("caches", cache_id, "size_bytes", "ns"),
                             ("tlbs", tlb_id, "entries", "miss_ns")):
    x, y = named(a, key, ident), named(b, key, ident)
    for name in sorted(set(x) | set(y)):
        sx, sy = x.get(name, {}).get(size), y.get(name, {}).get(size)
        # A level one run names and the other not differs; two sizes of
        # one level differ unless both runs' ranges allow a size in common.
        verdict = "same" if sx == sy else \
                  "in range" if sx is not None and sy is not None and \
                  meet(x.get(name), y.get(name), key) else "DIFFERS"
        same = same and verdict != "DIFFERS"
        within += verdict == "in range"
        unit = " KiB" if size == "size_bytes" else ""
        div = 1024 if size == "size_bytes" else 1
        print("%-28s %14s %14s %9s%s" % (name + (" size" if div > 1 else " entries"),
              "-" if sx is None else "%g%s" % (sx / div, unit),
              "-" if sy is None else "%g%s" % (sy / div, unit), verdict,
              "" if sx == sy else "  " + ranges(x.get(name), y.get(name), key, div)))
        row(name + (" latency" if key == "caches" else " miss"),
            x.get(name, {}).get(ns), y.get(name, {}).get(ns), " ns")
ta, tb = a.get("top", {}), b.get("top", {})
print("%-28s %14s %14s" % ("top of the sweep", ta.get("name", "-"), tb.get("name", "-")))
row("DRAM latency (top)", ta.get("ns"), tb.get("ns"), " ns", "%.1f")
ma, mb = a.get("memory_read", {}), b.get("memory_read", {})
row("DRAM read, one core", ma.get("one_core_gb_per_s"), mb.get("one_core_gb_per_s"), " GB/s")
print("named levels: %s" % (("the same in both runs" + ("" if not within else
      " (%d read at two sizes that both runs' ranges allow)" % within)) if same else
      "DIFFER between the runs"))
print("largest difference: %+.1f%% (%s)" % worst if worst[1] else "largest difference: none")
PY
load "after both runs"
if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP"
	cp -r "$scratch/full" "$KEEP/full"
	cp -r "$scratch/long" "$KEEP/long"
	cp "$scratch/full.txt" "$scratch/long.txt" "$scratch/full.wall" "$scratch/long.wall" "$KEEP/"
	echo "run folders kept in $KEEP"
fi
