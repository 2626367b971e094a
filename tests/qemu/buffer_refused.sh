# A probe whose buffer cannot be had fails the run, and says why in the
# report and on the card, never "success". Two ways: a page-table pool too
# small to map the buffer (paging.test_pool: the buffer is refused, not
# handed over half-mapped), and a sweep whose smallest size is more memory
# than QEMU has. The run goes on to the next probe either way.
cd "$(dirname "$0")/../.."
. tests/qemu/lib.bash

boot buffer_refused --mem 1G \
	--args "profile=quick probes=bandwidth,cost cost.reps=1000 pages=4k bandwidth.min_size=64M bandwidth.max_size=64M paging.test_pool=24"
check "buffer_refused: the run's verdict is failed" test "$BOOT_RC" -ne 0
check "buffer_refused: the verdict line says failed, never success" \
	bash -c "grep -q '^memprobe: verdict: FAILURE' '$LOG' && ! grep -q 'verdict: success' '$LOG'"
check "buffer_refused: the report says the 64 MiB buffer's pages were not mapped" \
	log_has '^bandwidth: no 64 MiB buffer with 4 KiB pages: pages NOT mapped: out of page-table memory'
check "buffer_refused: the probe is FAILED, the next one still runs" \
	bash -c "grep -q '^== bandwidth: FAILED in' '$LOG' && grep -q '^== cost: done in' '$LOG'"
check "buffer_refused: the card names the probe and the reason" \
	log_has '^FAILED   bandwidth: no 64 MiB buffer with 4 KiB pages: pages NOT mapped'
run=$(run_folder)
check "buffer_refused: summary.txt carries the same line" \
	grep -q '^FAILED   bandwidth: no 64 MiB buffer with 4 KiB pages: pages NOT mapped' "$run/summary.txt"
check "buffer_refused: no bandwidth row was written" \
	test "$(csv_count "$run/results.csv" "r['probe']=='bandwidth'")" -eq 0

boot buffer_short --mem 1G \
	--args "profile=quick probes=bandwidth pages=4k bandwidth.min_size=2G bandwidth.max_size=2G"
check "buffer_short: a sweep larger than memory fails the run" test "$BOOT_RC" -ne 0
check "buffer_short: the card says bandwidth failed, and why" \
	log_has '^FAILED   bandwidth: 4 KiB pages: [0-9]+ KiB fits, less than the smallest size$'
check "buffer_short: never success" bash -c "! grep -q 'verdict: success' '$LOG'"
