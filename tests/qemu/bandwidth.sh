# The bandwidth probe on bare metal: with -cpu max (AVX2, no AVX-512 under
# TCG) the app turns on the AVX state OVMF leaves off (CR4.OSXSAVE, XCR0),
# runs every variant of SSE2 and AVX2 on 4 KiB and 2 MiB pages, and gives it
# back; the rows carry gb_per_s and bytes_per_cycle, bandwidth.svg is drawn,
# the probe after it (cost, compiled -msse2 and run with the firmware's
# state again) still runs, and the Linux build reads the rows back.
# Functional only: TCG's figures say nothing about hardware.
cd "$(dirname "$0")/../.."
. tests/qemu/lib.bash

boot bandwidth --cpu max --mem 1G \
	--args "profile=quick probes=bandwidth,cost cost.reps=1000 pages=4k,2m bandwidth.max_size=16k bandwidth.sets=all"
run=$(run_folder)
csv=$run/results.csv
check "bandwidth: success" test "$BOOT_RC" -eq 0
check "bandwidth: SSE2 and AVX2 offered and run, AVX's state enabled by the app" \
	log_has '^bandwidth: the CPU offers sse2, avx2; running sse2, avx2$'
check "bandwidth: nothing offered was refused" bash -c "! grep -q 'not run:' '$LOG'"
check "bandwidth: every variant at every size of 4..16 KiB on both page sizes" \
	python3 - "$csv" <<'PY'
import sys
sys.path.insert(0, 'tests')
from run_rows import run_rows
rows = [r for r in run_rows(sys.argv[1]) if r['probe'] == 'bandwidth']
want = {(f"{op}_{s}", ps, ws) for op in ('read', 'write', 'copy', 'ntwrite') for s in ('sse2', 'avx2')
        for ps in ('4096', '2097152') for ws in ('4096', '6144', '8192', '12288', '16384')}
have = [(r['variant'], r['page_size'], r['working_set_bytes']) for r in rows]
assert sorted(have) == sorted(want), set(have) ^ want
for r in rows:
    gbps, bpc, ns, cyc = (float(r[k]) for k in ('gb_per_s', 'bytes_per_cycle', 'ns', 'cycles'))
    assert gbps > 0 and bpc > 0 and abs(gbps * ns - 64) < 0.01 * 64 + 0.001 * gbps, r
    assert abs(bpc * cyc - 64) < 0.02 * 64 + 0.005 * bpc, r
    assert r['pages_verified'].startswith('pages verified: '), r
PY
check "bandwidth: other probes' rows leave gb_per_s and bytes_per_cycle empty" \
	test "$(csv_count "$csv" "r['probe']=='cost' and r['gb_per_s']=='' and r['bytes_per_cycle']==''")" -gt 0
check "bandwidth: the cost probe after it ran" log_has '^== cost: done in'
check "bandwidth: bandwidth.svg is well-formed XML with four panels" \
	bash -c "xmllint --noout '$run/bandwidth.svg' && test \$(grep -c '<g class=\"panel\"' '$run/bandwidth.svg') -eq 4"
if [[ -x ${HOST_APP:-} ]]; then
	# analyze writes over nothing: a fresh folder, not an earlier test's files.
	rm -rf "$QEMU_TEST_DIR/bandwidth/analyze"
	"$HOST_APP" analyze "$csv" --out "$QEMU_TEST_DIR/bandwidth/analyze" > "$QEMU_TEST_DIR/bandwidth/analyze.txt" 2>&1
	check "bandwidth: the Linux build re-reads the rows and draws bandwidth.svg" \
		bash -c "grep -q ' 80 bandwidth rows and 0 ifetch points used' '$QEMU_TEST_DIR/bandwidth/analyze.txt' && xmllint --noout '$QEMU_TEST_DIR/bandwidth/analyze/bandwidth.svg'"
fi
