# The ifetch probe on bare metal, both architectures: code written at run
# time runs from buffers the app's own tables map executable at each page
# size (verified by the walk), and every page size gives fetch, line-chain
# and page-chain rows, each chain with its control. Timing under TCG is the
# emulator's and is not checked.
cd "$(dirname "$0")/../.."
. tests/qemu/lib.bash

KEYS="profile=quick probes=ifetch ifetch.max_footprint=64KiB ifetch.max_buffer=2GiB"

# ifetch_rows NAME PAGE_SIZES: every variant has rows at each page size.
ifetch_rows() {
	python3 - "$(run_folder)/results.csv" "$2" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline='')) if r['probe'] == 'ifetch']
for ps in sys.argv[2].split(','):
    got = {r['variant'] for r in rows if r['page_size'] == ps}
    assert got == {'fetch', 'line', 'line_control', 'page', 'page_control'}, (ps, got)
    for v in ('line', 'page'):
        t = sorted(int(r['working_set_bytes']) // int(r['stride_bytes']) for r in rows if r['page_size'] == ps and r['variant'] == v)
        c = sorted(int(r['working_set_bytes']) // int(r['stride_bytes']) for r in rows if r['page_size'] == ps and r['variant'] == v + '_control')
        assert t and t == c, (ps, v, t, c)
assert all(r['pages_verified'].startswith('pages verified') for r in rows)
assert all(float(r['insns_per_cycle']) > 0 for r in rows if r['variant'] == 'fetch')
PY
}

boot ifetch-x86 --cpu max --mem 4G --args "$KEYS pages=4k,2m,1g"
check "ifetch/x86-64: success" test "$BOOT_RC" -eq 0
for name in "4 KiB" "2 MiB" "1 GiB"; do
	check "ifetch/x86-64: $name code buffer verified by the walk" \
		log_has "^ifetch, $name pages: pages verified: [0-9]+ x $name"
done
check "ifetch/x86-64: rows of every variant for 4 KiB, 2 MiB and 1 GiB pages" \
	ifetch_rows x86 4096,2097152,1073741824
check "ifetch/x86-64: system.json's summary has the instruction side" python3 -c "
import json
d = json.load(open('$(run_folder)/system.json'))
assert 'ifetch' in d['summary'] and d['summary']['ifetch']['fetch']['page_size'] > 0
"

IMG=$O/aarch64/memprobe.img
boot ifetch-aarch64 --arch aarch64 --mem 4G --args "$KEYS pages=4k,2m,1g"
check "ifetch/AArch64: success (cache maintenance before running written code)" \
	test "$BOOT_RC" -eq 0
check "ifetch/AArch64: rows of every variant for 4 KiB, 2 MiB and 1 GiB pages" \
	ifetch_rows aarch64 4096,2097152,1073741824
