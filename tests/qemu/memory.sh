# Too little RAM for the full profile's defaults (-m 128M): every probe that
# needs a buffer says what fits and what it measures instead; nothing
# crashes or hangs. (cost needs no buffer, and under TCG its full profile
# alone takes minutes, so it is left out here.)
cd "$(dirname "$0")/../.."
. tests/qemu/lib.bash

img=$(image_with small-ram)
boot small-ram --image "$img" --cpu max --mem 128M --args "probes=latency,locality,later"
csv=$(run_folder)/results.csv
check "128M: the full profile was asked for" log_has '^profile = full'
check "128M: the run completes with a verdict of success" test "$BOOT_RC" -eq 0
check "128M: latency caps its sweep and says so" log_has '^latency, 4 KiB pages: the largest buffer that fits now is [0-9.]+ [KMG]iB: the sweep is capped at [0-9]+ MiB'
check "128M: locality says which smaller shape it measures" log_has '^  4 KiB pages: 13000 x 13000 ints do not fit in the .* available; measuring [0-9]+ x [0-9]+ .* instead'
check "128M: later shrinks its table and says so" log_has '^later: 4 KiB pages: the two tables need 512 MiB, only .* is available: measuring a .* table instead'
check "128M: latency rows stop at the cap" csv_all "$csv" "r['probe'] != 'latency' or int(r['working_set_bytes']) <= 64*1024*1024"
check "128M: later's rows carry the table it really measured" csv_all "$csv" "r['probe'] != 'later' or int(r['working_set_bytes']) < 256*1024*1024"
check "128M: the earlier run is intact" earlier_run_intact
