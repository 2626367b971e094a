# `make run`'s quick profile on bare metal: every probe runs, every expected
# row is present and finite, and the files read back on the host: Python's
# csv and json, xmllint for the chart, and the Linux build's own analyze.
cd "$(dirname "$0")/../.."
. tests/qemu/lib.bash

boot quick --cpu max --mem 1G --args "profile=quick"
run=$(run_folder)
csv=$run/results.csv
check "quick: success" test "$BOOT_RC" -eq 0
check "quick: one CPU, and the header says why the multi-CPU probes have no other" \
	log_has "^other CPUs: none: the firmware's MP services report 1 CPU, 1 enabled; c2c has no pair"
check "quick: every probe reported done" test "$(grep -cE '^== (latency|tlb|locality|later|bandwidth|cost): done in' "$LOG")" -eq 6
check "quick: tlb rows for 4 KiB and 2 MiB pages, chase and control" \
	test "$(csv_count "$csv" "r['probe']=='tlb' and r['page_size'] in ('4096','2097152') and r['variant'] in ('chase','control')")" -eq "$(csv_count "$csv" "r['probe']=='tlb'")"
check "quick: the 4 KiB tlb sweep has all 28 page counts of the grid, 1 to 16384 (past 4x the largest claimed TLB)" \
	test "$(csv_count "$csv" "r['probe']=='tlb' and r['variant']=='chase' and r['page_size']=='4096' and r['sweep_point']=='grid'")" -eq 28
check "quick: tlb.svg is well-formed with a curve per page size" \
	bash -c "xmllint --noout '$run/tlb.svg' && [ \$(grep -c '<polyline class=\"curve\"' '$run/tlb.svg') -eq 2 ]"
check "quick: every ns and cycles figure is finite and positive except deltas" \
	csv_all "$csv" "float(r['ns']) == float(r['ns']) and abs(float(r['ns'])) < 1e9 and float(r['cycles']) == float(r['cycles']) and int(r['trials']) >= 1"
check "quick: every figure names its timer" csv_all "$csv" "'ACPI PM timer' in r['timer'] or 'CPUID' in r['timer'] or 'Stall' in r['timer']"
check "quick: every buffer row says how its pages were verified" \
	csv_all "$csv" "r['page_size'] == '' or r['pages_verified'].startswith('pages verified: ')"
# The quick sweep: 4 KiB by powers of two with midpoints to 4x the largest
# cache CPUID claims, then sizes refined at the edges.
check "quick: latency's grid runs from 4 KiB to 4x the largest claimed cache, once per size and page size; refined sizes lie between" \
	python3 - "$csv" "$run/system.json" <<'PY'
import csv, json, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline='')) if r['probe'] == 'latency']
d = json.load(open(sys.argv[2]))
llc = max(c['size_bytes'] for c in d['cpu']['caches'] if c['type'] != 'instruction')
for ps in ('4096', '2097152'):
    grid = [int(r['working_set_bytes']) for r in rows if r['page_size'] == ps and r['sweep_point'] == 'grid']
    refined = [int(r['working_set_bytes']) for r in rows if r['page_size'] == ps and r['sweep_point'] == 'refined']
    assert len(grid) == len(set(grid)) and min(grid) == 4096 and max(grid) >= 4 * llc, (ps, max(grid), llc)
    assert len(refined) == len(set(refined)) <= 24 and not set(refined) & set(grid), (ps, refined)
    assert all(min(grid) < b < max(grid) and b % 512 == 0 for b in refined), (ps, refined)
    again = [int(r['working_set_bytes']) for r in rows if r['page_size'] == ps and r['sweep_point'] == 'revisited']
    assert set(again) <= set(grid) | set(refined), (ps, again)
assert len(rows) == sum(r['sweep_point'] in ('grid', 'refined', 'revisited') for r in rows)
PY
check "quick: the report names the sweep's top and the claim it follows" \
	log_has '^latency: the sweep.s top is [0-9.]+ MiB, the first grid size at or past 4 x the largest cache the CPU claims'
check "quick: and the memory cap" log_has '^latency: the memory cap is latency.max_buffer = 8 GiB'
check "quick: each page size's refinement is reported" \
	test "$(grep -cE '^(latency|tlb), [0-9]+ [KMG]iB pages: refinement added [0-9]+ (sizes?|page counts?)' "$LOG")" -eq 4
for ps in 4096 2097152; do
	for v in row column; do
		check "quick: locality $v with page size $ps" test "$(csv_count "$csv" "r['probe']=='locality' and r['variant']=='$v' and r['page_size']=='$ps'")" -eq 1
	done
	for v in tara brutto netto; do
		check "quick: later $v with page size $ps" test "$(csv_count "$csv" "r['probe']=='later' and r['variant']=='$v' and r['page_size']=='$ps'")" -eq 1
	done
done
for v in by_value_sysv by_pointer_sysv by_value_ms by_pointer_ms; do
	check "quick: cost $v at all ten sizes" test "$(csv_count "$csv" "r['probe']=='cost' and r['variant']=='$v'")" -eq 10
done
check "quick: bandwidth rows for every operation, all 23 grid sizes (4 KiB to 8 MiB) and memory's point (4x the largest claimed cache) per page size, refined ones between" python3 - "$csv" "$run/system.json" <<'PY'
import csv, json, sys, collections
rows = [r for r in csv.DictReader(open(sys.argv[1], newline='')) if r['probe'] == 'bandwidth']
d = json.load(open(sys.argv[2]))
llc = max(c['size_bytes'] for c in d['cpu']['caches'] if c['type'] != 'instruction')
refined = [r for r in rows if r['sweep_point'] == 'refined']
assert all(4096 < int(r['working_set_bytes']) < 8 << 20 and int(r['working_set_bytes']) % 4096 == 0 for r in refined)
assert len(refined) + sum(r['sweep_point'] == 'grid' for r in rows) == len(rows)
n = collections.Counter((r['variant'], r['page_size']) for r in rows if r['sweep_point'] == 'grid')
assert {v.split('_')[0] for v, _ in n} == {'read', 'write', 'copy', 'ntwrite'}, n
assert {ps for _, ps in n} == {"4096", "2097152"} and set(n.values()) == {24}, n
top = {int(r['working_set_bytes']) for r in rows if int(r['working_set_bytes']) > 8 << 20}
assert len(top) == 1 and 4 * llc <= top.pop() < 8 * llc, (top, llc)
s = d['summary']['memory_read']
assert s['cached'] is False and s['from_bytes'] >= 4 * llc, s
assert d['summary']['top']['cached'] is False and d['summary']['top']['from_bytes'] >= 4 * llc
assert all(float(r['gb_per_s']) > 0 and float(r['bytes_per_cycle']) > 0 for r in rows)
PY
check "quick: cost has both bare-call units" test "$(csv_count "$csv" "r['variant'].startswith('bare_call_')")" -eq 2

check "quick: system.json parses and names the CPU, clock, paging and hierarchy" python3 -c "
import json, sys
d = json.load(open('$run/system.json'))
assert d['platform']['name'] == 'uefi'
assert d['cpu']['vendor'] and d['clock']['ticks_per_s'] > 0 and d['paging']['levels'] in (4, 5)
assert d['clock']['counter'] == 'TSC'
assert d['firmware']['secure_boot'] is False and d['firmware']['secure_boot_state'].startswith(('off', 'not supported'))
assert d['memory_types']['pat_entry_used_by_buffers'] == 'WB'
assert d['cpu']['caches'] and 'levels' in d['hierarchy']
assert 'profile = quick' in d['config']
assert d['buffers'] and all(b['verified'].startswith('pages verified: ') and b['verified'].endswith('effective WB, proximity domain unknown (no SRAT)') and b['base'] % b['page_size'] == 0 for b in d['buffers'])
assert {b['page_size'] for b in d['buffers']} == {4096, 2097152}
"
check "quick: system.json is valid against docs/system.schema.json (bare metal's members)" \
	python3 tests/schema_check.py docs/system.schema.json "$run/system.json"
check "quick: results.csv's rows hold no field over 80 characters, the long texts as ids" \
	python3 - "$csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
assert rows and max(len(v) for r in rows for v in r.values()) <= 80
assert all(r['timer'].startswith('t') for r in rows)
PY
check "quick: the banner says whether Secure Boot is on" log_has '^secure boot: (off|not supported by this firmware)'
check "quick: latency.svg is well-formed XML" xmllint --noout "$run/latency.svg"
check "quick: latency.svg holds one curve per page size" test "$(grep -c '<polyline class="curve"' "$run/latency.svg")" -eq 2
check "quick: locality.svg is well-formed with a row and a column curve" \
	bash -c "xmllint --noout '$run/locality.svg' && [ \$(grep -c '<polyline class=\"curve\"' '$run/locality.svg') -eq 2 ]"
check "quick: cost.svg is well-formed with a curve per variant" \
	bash -c "xmllint --noout '$run/cost.svg' && [ \$(grep -c '<polyline class=\"curve\"' '$run/cost.svg') -eq 4 ]"
# Whichever level the emulator's timings show first (its L1 step can drift
# into none under load, tests/qemu/card.sh).
check "quick: the report names cache levels beside the CPU's claims" grep -Eq '^  L[1-9] +[0-9.]+ [KMG]iB .*(agrees|differs|emulated)$' "$run/report.txt"
check "quick: report.txt is the card, then what the console showed, from the banner on" python3 -c "
log = open('$LOG').read(); rep = open('$run/report.txt').read(); card = open('$run/summary.txt').read()
assert rep.startswith(card + '\\n'), 'report.txt does not begin with summary.txt'
rep = rep[len(card) + 1:]
assert rep.startswith('memprobe ') and rep in log, 'report.txt is not a slice of the console log'
"
# report.html on bare metal: a whole page with every probe's section, its
# rows as tables and every chart inline, loading nothing.
check "quick: report.html parses as HTML, charts inline, loads nothing" \
	python3 tests/page_check.py "$run/report.html" --report
check "quick: report.html has a section per probe, the hierarchy, the firmware in its summary, latency's table and the verdict" python3 -c "
page = open('$run/report.html').read()
for p in ('latency', 'tlb', 'locality', 'later', 'cost', 'memory hierarchy, read from the latency and tlb curves'):
    assert '<h2>%s</h2>' % p in page, p
assert page.count('<svg') == len([f for f in __import__('os').listdir('$run') if f.endswith('.svg')])
assert '<p class=\"verdict\">verdict: every probe measured what was asked</p>' in page
assert '<td class=\"text\">firmware</td>' in page and '<caption>latency, 4 KiB pages</caption>' in page
"
if [[ -x ${HOST_APP:-} ]]; then
	# analyze writes over nothing: a fresh folder, not an earlier test's files.
	rm -rf "$QEMU_TEST_DIR/quick/analyze"
	"$HOST_APP" analyze "$csv" --out "$QEMU_TEST_DIR/quick/analyze" > "$QEMU_TEST_DIR/quick/analyze.txt" 2>&1
	check "quick: the Linux build re-reads the bare-metal results.csv" grep -q 'memory hierarchy, read from the latency and tlb curves' "$QEMU_TEST_DIR/quick/analyze.txt"
	# The cache level's line only: "  L2 TLB ..." is the tlb probe's, and
	# under TCG whether its step clears the thresholds can differ between
	# the run's rows and the CSV's rounded ones.
	check "quick: and finds the same L2 level as the run did" \
		test "$(grep -E '^  L2 +[0-9.]+ [KMG]iB' "$QEMU_TEST_DIR/quick/analyze.txt" | awk '{print $2,$3}')" = "$(grep -E '^  L2 +[0-9.]+ [KMG]iB' "$run/report.txt" | awk '{print $2,$3}')"
	check "quick: and writes the same chart" xmllint --noout "$QEMU_TEST_DIR/quick/analyze/latency.svg"
	check "quick: and its own report.html" python3 tests/page_check.py "$QEMU_TEST_DIR/quick/analyze/report.html"
fi

# Asking for everything: every probe, every page size, in a guest with 1 GiB
# pages and room for them.
boot everything --cpu max --mem 4G --args "profile=quick probes=latency,locality,later,bandwidth,cost pages=4k,2m,1g max_size=8M bandwidth.max_size=64K"
csv=$(run_folder)/results.csv
check "everything: success" test "$BOOT_RC" -eq 0
for p in latency locality later bandwidth; do
	check "everything: $p ran with 1 GiB pages" test "$(csv_count "$csv" "r['probe']=='$p' and r['page_size']=='1073741824'")" -gt 0
done
check "everything: cost ran" test "$(csv_count "$csv" "r['probe']=='cost'")" -eq 42
