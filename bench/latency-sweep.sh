#!/bin/sh
# The latency probe's speed and fidelity claims, checkable on any machine:
# builds the Linux binary, runs the full latency sweep with 4 KiB and 2 MiB
# pages, and prints its wall time and its L1 reading in core cycles. When
# ../shared/seeds/latency.c sits beside the repository, the seed is compiled
# into a temporary folder (never into the repository), run with both page
# sizes, and its wall time and figures are printed beside memprobe's.
#
#   bench/latency-sweep.sh [key=value ...]    extra keys go to memprobe
#
# Figures, not a test: nothing here passes or fails on a number. Run it on a
# quiet machine; anything else running adds time to both sides unevenly.
set -eu

repo=$(cd "$(dirname "$0")/.." && pwd)
build=${O:-build-bench}
seed=$(seed_source)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

now() { date +%s.%N; }
elapsed() { echo "$1 $2" | awk '{ printf "%.1f", $2 - $1 }'; }

make -s -C "$repo" O="$build" host

echo "== memprobe: full latency sweep, 4 KiB and 2 MiB pages =="
start=$(now)
"$repo/$build/host/memprobe" --out "$scratch/results" profile=full probes=latency \
	pages=4k,2m "$@" > "$scratch/memprobe.txt"
mp_wall=$(elapsed "$start" "$(now)")
csv=$(ls "$scratch"/results/run-*/results.csv)
grep -E '^(timer|core clock):' "$scratch/memprobe.txt"
# The whole latency section: what ended each size's trials is in it.
sed -n '/^== latency ==/,/^== latency:/p' "$scratch/memprobe.txt"
echo "memprobe wall time: $mp_wall s"

# The first eight columns hold no quoted text, so splitting at commas is
# safe for them; the columns are found by name, not by position.
column_of() { head -n 1 "$csv" | tr ',' '\n' | grep -n -x "$1" | cut -d: -f1; }
c_page=$(column_of page_size)
c_ws=$(column_of working_set_bytes)
c_ns=$(column_of ns)
c_cyc=$(column_of cycles)
awk -F, -v p="$c_page" -v w="$c_ws" -v n="$c_ns" -v c="$c_cyc" '
	NR > 1 && $w == 4096 {
		printf "L1 reading (4 KiB working set, %s pages): %s ns = %s core cycles\n",
		       $p == 4096 ? "4 KiB" : $p == 2097152 ? "2 MiB" : $p, $n, $c
	}' "$csv"

awk -F, -v p="$c_page" -v w="$c_ws" -v n="$c_ns" '
	NR > 1 { ns[$w "/" $p] = $n; sizes[$w] = 1 }
	END {
		for (s in sizes) kib[++k] = s / 1024
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
			if (kib[j] < kib[i]) { t = kib[i]; kib[i] = kib[j]; kib[j] = t }
		for (i = 1; i <= k; i++) {
			s = kib[i] * 1024
			printf "%10d %12s %12s\n", kib[i], ns[s "/4096"], ns[s "/2097152"] > "/dev/stderr"
		}
	}' "$csv" 2> "$scratch/memprobe.table"

if [ ! -f "$seed" ]; then
	echo "(no $seed beside the repository: no comparison with the seed)"
	printf '%10s %12s %12s\n' KiB "4k ns" "2m ns"
	cat "$scratch/memprobe.table"
	exit 0
fi

echo "== seed: $seed, run as ./latency and ./latency huge =="
cc -O2 -o "$scratch/latency" "$seed"
start=$(now)
"$scratch/latency" > "$scratch/seed-4k.txt"
"$scratch/latency" huge > "$scratch/seed-huge.txt"
seed_wall=$(elapsed "$start" "$(now)")
grep AnonHugePages "$scratch/seed-huge.txt" || true
echo "seed wall time: $seed_wall s"
echo "$mp_wall $seed_wall" | awk '{ printf "memprobe / seed wall time: %.2f\n", $1 / $2 }'

# The seed prints "KiB lines ns/load trials" rows after its '#' lines.
awk '!/^#/ && $1 ~ /^[0-9]+$/ { print $1, $3 }' "$scratch/seed-4k.txt" > "$scratch/seed-4k.rows"
awk '!/^#/ && $1 ~ /^[0-9]+$/ { print $1, $3 }' "$scratch/seed-huge.txt" > "$scratch/seed-huge.rows"
echo "ns per load, side by side (seed: index chase, min of 5; memprobe: pointer chase, best trial)"
printf '%10s %12s %12s %12s %12s\n' KiB "seed 4k" "memprobe 4k" "seed huge" "memprobe 2m"
awk 'FILENAME == ARGV[1] { s4[$1] = $2; next }
     FILENAME == ARGV[2] { sh[$1] = $2; next }
     { printf "%10d %12s %12s %12s %12s\n", $1, s4[$1], $2, sh[$1], $3 }' \
	"$scratch/seed-4k.rows" "$scratch/seed-huge.rows" "$scratch/memprobe.table"
