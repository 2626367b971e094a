# The tails probe on bare metal (functional only, TCG): each level's
# distribution from batches timed with interrupts off, p99 at least p50,
# the histogram chart, and memory's tail on the card; with 2 MiB pages the
# same working sets as with 4 KiB ones (a level's chase inside one large
# page, not over all of it).
cd "$(dirname "$0")/../.."
. tests/qemu/lib.bash

boot tails --cpu max --mem 1G --args "profile=quick probes=tails pages=4k,2m tails.batches=2048 tails.max_buffer=64M"
run=$(run_folder)
csv=$run/results.csv
check "tails: success" test "$BOOT_RC" -eq 0
check "tails: per level p50, p90, p99, p99.9, max and mean, in order, memory the largest working set at 64 MiB" python3 -c "
import csv, sys
rows = [r for r in csv.DictReader(open('$csv', newline='')) if r['probe'] == 'tails']
sizes = sorted({int(r['working_set_bytes']) for r in rows})
ok = len(sizes) >= 2 and sizes[-1] == 64 << 20
for ws in sizes:
    v = {r['variant']: float(r['ns']) for r in rows if int(r['working_set_bytes']) == ws}
    ok &= sorted(v) == sorted(['p50', 'p90', 'p99', 'p99.9', 'max', 'mean'])
    ok &= 0 < v['p50'] <= v['p90'] <= v['p99'] <= v['p99.9'] <= v['max']
sys.exit(0 if ok else 1)"
check "tails: 2 MiB pages chase the same working sets as 4 KiB pages, the smallest under a page" python3 -c "
import csv, sys
rows = [r for r in csv.DictReader(open('$csv', newline='')) if r['probe'] == 'tails']
by = {p: sorted({int(r['working_set_bytes']) for r in rows if r['page_size'] == p}) for p in ('4096', '2097152')}
sys.exit(0 if by['4096'] and by['4096'] == by['2097152'] and by['4096'][0] < 2 << 20 else 1)"
check "tails: tails.svg drawn" test -s "$run/tails.svg"
check "tails: the card gives memory's p99" grep -Eq '^tails +memory p99 [0-9.]+ ns, p50 [0-9.]+ ns \(64 MiB, 2 MiB pages\)' "$run/summary.txt"
