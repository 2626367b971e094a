# The geometry probe on bare metal, under TCG (no timing is asserted: QEMU
# has no caches to find): the line-size and ways rows are written, the
# geometry table names every figure with a verdict, geometry.svg is drawn,
# and L2 is not refused for contiguity, which the app's identity-mapped
# buffers have by construction.
cd "$(dirname "$0")/../.."
. tests/qemu/lib.bash

boot geometry --cpu max --mem 1G --args "profile=quick probes=geometry pages=4k geometry.max_lines=8"
run=$(run_folder)
csv=$run/results.csv
check "geometry: success" test "$BOOT_RC" -eq 0
check "geometry: the probe reported done" log_has '^== geometry: done in'
check "geometry: one line row per spacing, 8 to 512 bytes apart, on 4 KiB pages" \
	test "$(csv_count "$csv" "r['probe']=='geometry' and r['variant']=='line' and r['page_size']=='4096' and r['stride_bytes'] in ('8','16','32','64','128','256','512')")" -eq 7
check "geometry: one line_aligned row per spacing too (the control)" \
	test "$(csv_count "$csv" "r['probe']=='geometry' and r['variant']=='line_aligned' and r['page_size']=='4096'")" -eq 7
check "geometry: ways rows, k lines stride_bytes apart (working set k x stride)" \
	csv_all "$csv" "r['variant']!='ways' or (int(r['working_set_bytes']) % int(r['stride_bytes']) == 0 and 1 <= int(r['working_set_bytes']) // int(r['stride_bytes']) <= 20)"
check "geometry: at least the L1d sweep's rows" \
	test "$(csv_count "$csv" "r['probe']=='geometry' and r['variant']=='ways'")" -ge 32
check "geometry: the geometry table's header" log_has '^  what +measured +claimed +verdict +how it was read'
for what in "line size" "L1d ways" "L1d sets" "L2 ways" "L2 sets"; do
	check "geometry: the table's $what row has a verdict" \
		log_has "^  $what +(-|[0-9]+( B)?|full) +(-|[0-9]+( B)?|full) (agrees|differs|emulated|no claim|not measurable) "
done
check "geometry: L2 is not refused for contiguity on bare metal" \
	bash -c "! grep -q 'physically contiguous over' '$LOG'"
check "geometry: geometry.svg is well-formed XML" xmllint --noout "$run/geometry.svg"
check "geometry: the card's geometry line, its verdict emulated under TCG" \
	grep -qE '^geometry (line|L1d|not measurable).*; emulated' "$run/summary.txt"
check "geometry: system.json's summary.geometry, each cache figure with a verdict and how" python3 - "$run/system.json" <<'PY'
import json, sys
g = json.load(open(sys.argv[1]))['summary']['geometry']
assert g['line_bytes']['verdict'] and g['line_bytes']['how'], g['line_bytes']
assert [c['name'] for c in g['caches']] == ['L1d', 'L2'], g['caches']
for c in g['caches']:
    for f in ('ways', 'sets'):
        assert c[f]['verdict'] in ('agrees', 'differs', 'no claim', 'not measurable'), c
        assert c[f]['how'], c
PY
