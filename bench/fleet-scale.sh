#!/bin/sh
# memprobe fleet's time against the size of a fleet: one real quick Linux
# run (latency, 4 KiB pages, up to 4 MiB) copied into N uploaded run
# folders of N machines (100 and 1000 by default), each with its own
# machine id. Prints one line per size: machines, wall seconds for
# fleet.csv and fleet.html alone, wall seconds with --db into a new
# database, the database's size, and the exit statuses.
#
#   bench/fleet-scale.sh [MACHINES ...]    other sizes, e.g. 10 5000
#
# Figures, not a test: nothing here passes or fails on a number.
. "$(dirname "$0")/scratch.sh"

app=$repo/$build/host/memprobe
"$app" profile=quick probes=latency pages=4k max_size=4M --out "$scratch/real" > /dev/null
real=$scratch/real/run-0001

# fleet DIR N: N copies of the real run, machine i's id m-i.
fleet() {
	python3 - "$real" "$1" "$2" <<'PY'
import json, os, shutil, sys
real, root, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = json.load(open(os.path.join(real, 'system.json')))
for i in range(n):
    dest = os.path.join(root, 'm-%d' % i, 'run-20261203T000000Z')
    shutil.copytree(real, dest)
    d['machine']['id'] = 'm-%d' % i
    json.dump(d, open(os.path.join(dest, 'system.json'), 'w'))
PY
}

# timed ARGS...: "SECONDS STATUS" of the fleet command.
timed() {
	start=$(date +%s.%N)
	status=0
	"$app" fleet "$@" > /dev/null 2>&1 || status=$?
	end=$(date +%s.%N)
	echo "$start $end $status" | awk '{ printf "%.2f %d", $2 - $1, $3 }'
}

[ $# -gt 0 ] || set -- 100 1000
sizes=$*
echo "== memprobe fleet: N machines, one run each of $(($(wc -l < "$real/results.csv") - 1)) rows =="
printf '%10s %12s %12s %12s %s\n' machines "csv+html s" "with --db s" "db bytes" exits
for n in $sizes; do
	fleet "$scratch/f$n" "$n"
	set -- $(timed "$scratch/f$n" --out "$scratch/o$n") \
		$(timed "$scratch/f$n" --out "$scratch/d$n" --db "$scratch/f$n.db")
	printf '%10d %12s %12s %12d %s %s\n' "$n" "$1" "$3" "$(wc -c < "$scratch/f$n.db")" \
		"$2" "$4"
	rm -rf "$scratch/f$n" "$scratch/o$n" "$scratch/d$n" "$scratch/f$n.db"
done
