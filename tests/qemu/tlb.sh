# The tlb probe on bare metal: in a 4 GiB guest, every page size of
# pages=4k,2m,1g gets a buffer verified by walking the app's own tables, a
# chase and a control row per page count, and a curve in tlb.svg; a memory
# cap is said plainly, and the Linux build reads the rows back.
cd "$(dirname "$0")/../.."
. tests/qemu/lib.bash

GIB=1073741824 MIB2=2097152

boot tlb-4g --cpu max --mem 4G --args "profile=quick probes=tlb pages=4k,2m,1g"
run=$(run_folder)
csv=$run/results.csv
check "tlb/4G: success" test "$BOOT_RC" -eq 0
for name in "4 KiB" "2 MiB" "1 GiB"; do
	check "tlb/4G: $name buffer verified write-back" \
		log_has "^tlb, $name pages: pages verified: [0-9]+ x $name, PAT WB, MTRR WB, effective WB"
done
for ps in 4096 $MIB2 $GIB; do
	check "tlb/4G: chase and control rows with page size $ps, as many of each" \
		python3 - "$csv" "$ps" <<'PY'
import sys
sys.path.insert(0, 'tests')
from run_rows import run_rows
rows = [r for r in run_rows(sys.argv[1]) if r['probe'] == 'tlb' and r['page_size'] == sys.argv[2]]
chase = [r for r in rows if r['variant'] == 'chase']
control = [r for r in rows if r['variant'] == 'control']
ps = int(sys.argv[2])
assert chase and len(chase) == len(control), (len(chase), len(control))
assert all(int(r['working_set_bytes']) % ps == 0 for r in chase)
assert sorted(int(r['working_set_bytes']) // ps for r in chase) == sorted(int(r['working_set_bytes']) // 64 for r in control)
assert all(r['pages_verified'].startswith('pages verified: ') for r in rows)
PY
done
check "tlb/4G: every 4 KiB page count of the quick grid, 1 to 16384 (past 4x the largest claimed TLB)" \
	test "$(csv_count "$csv" "r['probe']=='tlb' and r['variant']=='chase' and r['page_size']=='4096' and r['sweep_point']=='grid'")" -eq 28
check "tlb/4G: refined page counts lie between the grid's, chase and control alike" python3 - "$csv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline='')) if r['probe'] == 'tlb']
assert all(r['sweep_point'] in ('grid', 'refined') for r in rows)
for ps in {r['page_size'] for r in rows}:
    n = lambda r: int(r['working_set_bytes']) // (int(ps) if r['variant'] == 'chase' else 64)
    grid = {n(r) for r in rows if r['page_size'] == ps and r['sweep_point'] == 'grid'}
    for v in ('chase', 'control'):
        refined = [n(r) for r in rows if r['page_size'] == ps and r['variant'] == v and r['sweep_point'] == 'refined']
        assert len(refined) == len(set(refined)) <= 24 and not set(refined) & grid, (ps, v, refined)
        assert all(min(grid) < k < max(grid) for k in refined), (ps, v, refined)
PY
check "tlb/4G: 1 GiB sweep stopped by memory, said plainly" \
	log_has '^tlb, 1 GiB pages: memory for [0-9]+ pages only .*reach beyond the buffer'
check "tlb/4G: tlb.svg is well-formed XML" xmllint --noout "$run/tlb.svg"
check "tlb/4G: tlb.svg holds one curve per page size" \
	test "$(grep -c '<polyline class="curve"' "$run/tlb.svg")" -eq 3
check "tlb/4G: the report has a TLB table of its own" log_has '^  TLB levels, read from the tlb probe'
check "tlb/4G: system.json's hierarchy names the tlb curves" python3 -c "
import json
d = json.load(open('$run/system.json'))
assert sorted(c['page_size'] for c in d['hierarchy']['tlb_curves']) == [4096, $MIB2, $GIB]
assert all(l['kind'] == 'tlb' and l['entries'] > 0 and l['size_bytes'] == l['entries'] * l['page_size'] for l in d['hierarchy']['levels'] if l['kind'] == 'tlb')
"
if [[ -x ${HOST_APP:-} ]]; then
	# analyze writes over nothing: a fresh folder, not an earlier test's files.
	rm -rf "$QEMU_TEST_DIR/tlb-4g/analyze"
	"$HOST_APP" analyze "$csv" --out "$QEMU_TEST_DIR/tlb-4g/analyze" > "$QEMU_TEST_DIR/tlb-4g/analyze.txt" 2>&1
	check "tlb/4G: the Linux build re-reads the rows and draws tlb.svg" \
		bash -c "grep -q 'TLB levels, read from the tlb probe' '$QEMU_TEST_DIR/tlb-4g/analyze.txt' && xmllint --noout '$QEMU_TEST_DIR/tlb-4g/analyze/tlb.svg'"
fi
