#!/bin/sh
# memprobe compare's time against the size of its runs: two run folders of
# N rows each (5k, 40k and 1e6 by default, the last about 40 MiB, inside
# the readers' 64 MiB cap), compared with the tables printed to /dev/null
# and no --out. Prints one line per size: rows, wall seconds, and the
# compare's exit status.
#
#   bench/compare-scale.sh [ROWS ...]    other sizes, e.g. 1000 200000
#
# Figures, not a test: nothing here passes or fails on a number. Each run
# holds latency rows of distinct working sets on two page sizes (so every
# row is a key of its own, the case that made the matching quadratic),
# a c2c row per CPU pair of a 16-CPU machine and loaded rows with 0 to 4
# loaders; run B's figures are run A's times 1.1.
. "$(dirname "$0")/scratch.sh"

# run FOLDER ROWS SCALE: a results.csv of ROWS rows and a small system.json.
run() {
	mkdir -p "$1"
	awk -v rows="$2" -v scale="$3" 'BEGIN {
		print "probe,variant,page_size,working_set_bytes,ns,cycles,cpu,peer_cpu,loaders,load_gb_per_s"
		n = 0
		for (a = 0; a < 16 && n < rows; a++)
			for (b = 0; b < 16 && n < rows; b++)
				if (a != b) {
					printf "c2c,pingpong,4096,64,%.3f,%.2f,%d,%d,,\n",
						(40 + a + b) * scale, (160 + 4 * (a + b)) * scale, a, b
					n++
				}
		for (l = 0; l <= 4 && n < rows; l++) {
			printf "loaded,read,4096,268435456,%.3f,%.2f,0,,%d,%.3f\n",
				(90 + 10 * l) * scale, (360 + 40 * l) * scale, l, 12.5 * l
			n++
		}
		for (i = 0; n < rows; i++) {
			page = i % 2 ? 2097152 : 4096
			printf "latency,chase,%d,%d,%.3f,%.2f,,,,\n", page, 4096 + 64 * int(i / 2),
				(1 + i % 97) * scale, (4 + 4 * (i % 97)) * scale
			n++
		}
	}' > "$1/results.csv"
	printf '{"platform":{"name":"linux"},"cpu":{"brand":"bench"},"app":{"version":"bench","build":"bench"}}\n' \
		> "$1/system.json"
}

[ $# -gt 0 ] || set -- 5000 40000 1000000
echo "== memprobe compare: two runs of N rows each =="
printf '%10s %10s %s\n' rows seconds exit
for rows in "$@"; do
	run "$scratch/a$rows" "$rows" 1
	run "$scratch/b$rows" "$rows" 1.1
	start=$(date +%s.%N)
	status=0
	"$repo/$build/host/memprobe" compare "$scratch/a$rows" "$scratch/b$rows" > /dev/null || status=$?
	end=$(date +%s.%N)
	echo "$rows $start $end $status" | awk '{ printf "%10d %10.2f %d\n", $1, $3 - $2, $4 }'
	rm -rf "$scratch/a$rows" "$scratch/b$rows"
done
