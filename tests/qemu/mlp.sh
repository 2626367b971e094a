# The mlp probe on bare metal with four CPUs (functional only, TCG): every
# level's curve and the page-walk chase, at 4 KiB and 2 MiB pages, each
# from one chase to at least 32 in one loop, through the app's own page
# tables; the page walks' line, mlp.svg, the card's mlp lines within 80
# columns and system.json's summary.mlp. memory_size is set so the test
# does not depend on the emulated CPU's cache claims.
cd "$(dirname "$0")/../.."
. tests/qemu/lib.bash

boot mlp4 --cpu max --mem 2G --smp 4 \
	--args "profile=quick probes=mlp pages=4k,2m mlp.memory_size=32M"
run=$(run_folder)
csv=$run/results.csv
check "mlp4: success" test "$BOOT_RC" -eq 0
check "mlp4: rows per level and page size from 1 to at least 32 chases, in_flight 1 at one chase" python3 -c "
import csv, sys
rows = [r for r in csv.DictReader(open('$csv', newline='')) if r['probe'] == 'mlp']
curves = {}
for r in rows:
    curves.setdefault((r['variant'], r['page_size']), []).append(r)
ok = len(rows) > 0
for (v, p), rs in curves.items():
    ks = sorted(int(r['chases']) for r in rs)
    one = [r for r in rs if r['chases'] == '1']
    ok &= ks[0] == 1 and ks[-1] >= 32 and len(one) == 1 and abs(float(one[0]['in_flight']) - 1) < 1e-6
    ok &= all(float(r['ns']) > 0 and float(r['in_flight']) > 0 for r in rs)
ok &= ('memory', '4096') in curves and ('memory', '2097152') in curves
ok &= all(v in ('L1', 'L2', 'L3', 'memory', 'page_walks') for v, p in curves)
sys.exit(0 if ok else 1)"
check "mlp4: the page-walk chase at 4 KiB and at 2 MiB pages, 64 MiB or more" python3 -c "
import csv, sys
rows = [r for r in csv.DictReader(open('$csv', newline='')) if r['variant'] == 'page_walks']
ok = {r['page_size'] for r in rows} == {'4096', '2097152'}
ok &= all(int(r['working_set_bytes']) >= 64 << 20 for r in rows)
sys.exit(0 if ok else 1)"
check "mlp4: a plateau line per curve, and the page walks' line" \
	bash -c "grep -q '^mlp, 4 KiB pages, memory 32 MiB: plateau ' '$LOG' && grep -q '^mlp: page walks in flight: ' '$LOG'"
check "mlp4: mlp.svg drawn" test -s "$run/mlp.svg"
# Memory's level is named memory, or by its size where 32 MiB lies under
# four times the emulated CPU's largest cache claim (then marked cached).
check "mlp4: the card's mlp line, every line within 80 columns" \
	bash -c "grep -Eq '^mlp      in flight .*(memory|32M) [0-9]' '$run/summary.txt' && ! awk 'length > 80 { bad = 1 } END { exit !bad }' '$run/summary.txt'"
check "mlp4: system.json's summary.mlp has the levels, memory's last" python3 -c "
import json, sys
m = json.load(open('$run/system.json'))['summary']['mlp']
last = m['levels'][-1] if m['levels'] else {}
named = last.get('name') == 'memory' and not last.get('cached') or last.get('name') == '32M' and last.get('cached')
sys.exit(0 if named and last['working_set_bytes'] == 32 << 20 and last['in_flight'] > 0 else 1)"
