# The page size of every probe buffer is the app's decision and verified by
# walking its own tables: 1 GiB used where CPUID has it and memory allows,
# refused plainly where not, in small and large guests.
cd "$(dirname "$0")/../.."
. tests/qemu/lib.bash

ARGS="profile=quick probes=latency pages=4k,2m,1g min_size=4K max_size=64K"
GIB=1073741824 MIB2=2097152

boot paging-max-4g --cpu max --mem 4G --args "$ARGS"
csv=$(run_folder)/results.csv
check "max/4G: run succeeds with all three page sizes" test "$BOOT_RC" -eq 0
check "max/4G: 4 KiB buffer verified write-back" log_has '^latency, 4 KiB pages: pages verified: [0-9]+ x 4 KiB, PAT WB, MTRR WB, effective WB'
check "max/4G: 2 MiB buffer verified write-back" log_has '^latency, 2 MiB pages: pages verified: [0-9]+ x 2 MiB, PAT WB, MTRR WB, effective WB'
check "max/4G: 1 GiB buffer verified write-back" log_has '^latency, 1 GiB pages: pages verified: 1 x 1 GiB, PAT WB, MTRR WB, effective WB'
check "max/4G: results.csv has 1 GiB rows that carry the verification" \
	csv_all "$csv" "r['page_size'] != '$GIB' or r['pages_verified'].startswith('pages verified: 1 x 1 GiB')"
check "max/4G: rows for each of the three page sizes" \
	test "$(csv_count "$csv" "r['page_size'] in ('4096','$MIB2','$GIB')")" -eq "$(csv_count "$csv" "True")"
check "max/4G: 1 GiB rows present" test "$(csv_count "$csv" "r['page_size']=='$GIB'")" -gt 0

boot paging-qemu64 --cpu qemu64 --mem 1G --args "$ARGS"
csv=$(run_folder)/results.csv
check "qemu64: 1 GiB refused because CPUID says no" log_has 'CPUID 8000_0001h EDX\[26\] \(pdpe1gb\) is clear'
check "qemu64: the 1 GiB variant is skipped, not replaced" log_has '^latency: 1 GiB pages are not available here \(.*\): skipped'
check "qemu64: 2 MiB still verified" log_has '^latency, 2 MiB pages: pages verified: [0-9]+ x 2 MiB'
check "qemu64: no row claims 1 GiB pages" test "$(csv_count "$csv" "r['page_size']=='$GIB'")" -eq 0
check "qemu64: an unavailable page size is skipped and the run goes on to success" test "$BOOT_RC" -eq 0

boot paging-max-256m --cpu max --mem 256M --args "$ARGS"
csv=$(run_folder)/results.csv
check "max/256M: 1 GiB refused for want of a 1 GiB-aligned run" log_has 'no free 1 GiB-aligned run of 1 GiB in the memory map \(largest: '
check "max/256M: 4 KiB verified" log_has "^latency, 4 KiB pages: pages verified"
check "max/256M: 2 MiB verified" log_has '^latency, 2 MiB pages: pages verified'
check "max/256M: 4 KiB rows written" test "$(csv_count "$csv" "r['page_size']=='4096'")" -gt 0

boot paging-default-pages --cpu max --mem 256M --args "profile=quick probes=latency min_size=4K max_size=16K"
check "default pages (4k,2m,1g where available) in a small guest: success" test "$BOOT_RC" -eq 0
check "default pages: 1 GiB said to be unavailable for want of an aligned free GiB" log_has '^latency: 1 GiB pages are not available here \(no free 1 GiB-aligned run'
check "default pages: 4 KiB and 2 MiB measured" test "$(csv_count "$(run_folder)/results.csv" "r['page_size'] in ('4096','$MIB2')")" -gt 0
check "default pages: page tables summary in the report" log_has '^timed sections: bare metal, TPL_HIGH_LEVEL, interrupts off, the app.s IDT and page tables \(4-level, [0-9]+-bit physical'
