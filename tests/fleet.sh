#!/usr/bin/env bash
# memprobe fleet over a made-up fleet: one real quick Linux run, copied into
# an uploaded tree (URL/<machine-id>/run-<stamp>/) and a stick
# (memprobe/run-NNNN/) with a machine identity of its own per copy (SMBIOS
# members of system.json's machine), one copy's latencies made 30% slower,
# one machine of another CPU model, and an older run of one machine. The
# copies are made quiet (each row's trial spread at most 1%), so that no
# figure is starred by the real run's noise: a starred figure is doubtful,
# never marked (a noisy fleet of its own checks that). Checks
# fleet.csv's rows and identities, the newest run per machine, the marked
# machine, the page, the SQLite database through the sqlite3 command, a
# re-run into it, and the refusals.
set -uo pipefail
cd "$(dirname "$0")/.."
. tests/host_lib.bash fleet-test

"$HOST_APP" profile=quick probes=latency pages=4k max_size=4M --out "$work/real" \
	> "$work/real.out" 2>&1
real=$(find "$work/real" -mindepth 1 -maxdepth 1 -name 'run-*' | head -n 1)
check "fleet: a real quick run to copy" test -n "$real" -a -f "$real/system.json"

# machine DEST ID SERIAL SCALE BRAND DATE [DIMMS]: a copy of the real run as
# machine ID (its SMBIOS UUID), its ns and cycles multiplied by SCALE, its
# CPU brand and date_time set, DIMMS (2) of 16 GiB in 3 slots, each row's
# spread_pct at most 1 (SPREAD unset) or SPREAD.
machine() {
	python3 - "$real" "$@" <<'PY'
import csv, json, os, shutil, sys
real, dest, mid, serial, scale, brand, date = sys.argv[1:8]
dimms = int(sys.argv[8]) if len(sys.argv) > 8 else 2
shutil.copytree(real, dest)
d = json.load(open(os.path.join(dest, 'system.json')))
d['machine'] = {'id': mid, 'id_from': 'smbios_uuid', 'smbios': True,
    'system': {'manufacturer': 'Acme', 'product': 'Node-' + serial[-1],
               'serial': serial, 'uuid': mid},
    'memory_devices': [
        {'locator': 'DIMM %d' % i, 'installed': True, 'size_bytes': 17179869184,
         'type': 'DDR5', 'speed_mts': 4800, 'configured_speed_mts': 4400}
        for i in range(dimms)] + [{'locator': 'DIMM %d' % i, 'installed': False}
                                  for i in range(dimms, 3)]}
if serial == 'SN-E':   # a table that gives no speeds
    for m in d['machine']['memory_devices']:
        m.pop('speed_mts', None)
        m.pop('configured_speed_mts', None)
d['cpu']['brand'] = brand
d['date_time'] = date
json.dump(d, open(os.path.join(dest, 'system.json'), 'w'))
rows = list(csv.DictReader(open(os.path.join(real, 'results.csv'))))
with open(os.path.join(dest, 'results.csv'), 'w', newline='') as f:
    w = csv.DictWriter(f, fieldnames=rows[0].keys())
    w.writeheader()
    for r in rows:
        for k in ('ns', 'cycles'):
            r[k] = '%.4f' % (float(r[k]) * float(scale))
        spread = os.environ.get('SPREAD')
        r['spread_pct'] = spread if spread else '%.2f' % min(float(r['spread_pct'] or 0), 1.0)
        w.writerow(r)
PY
}

A=11111111-0000-0000-0000-00000000000a B=22222222-0000-0000-0000-00000000000b
C=33333333-0000-0000-0000-00000000000c D=44444444-0000-0000-0000-00000000000d
E=55555555-0000-0000-0000-00000000000e
cpu="Test CPU 9000"
up=$work/fleet/uploaded stick=$work/fleet/stick/memprobe
machine "$up/$A/run-20261203T010000Z" "$A" SN-A 1.0 "$cpu" 2026-12-03T01:00:00
machine "$up/$A/run-20261201T010000Z" "$A" SN-A 2.0 "$cpu" 2026-12-01T01:00:00
machine "$up/$B/run-20261203T020000Z" "$B" SN-B 1.0 "$cpu" 2026-12-03T02:00:00
machine "$up/$C/run-20261203T030000Z" "$C" SN-C 1.3 "$cpu" 2026-12-03T03:00:00 1
machine "$stick/run-0001" "$D" SN-D 1.0 "$cpu" "firmware clock unreadable"
machine "$stick/run-0002" "$E" SN-E 1.5 "Other CPU 1" 2026-12-03T04:00:00
nrows=$(($(wc -l < "$real/results.csv") - 1))

"$HOST_APP" fleet "$up" "$work/fleet/stick" --out "$work/out" --db "$work/fleet.db" \
	> "$work/fleet.out" 2> "$work/fleet.err"
check "fleet: exits 0 over 6 run folders" test $? -eq 0
check "fleet: says where the files went" grep -q "^$work/out/fleet.html$" "$work/fleet.out"

# The card's first latency figure ("L1 ns" where the run found L1; the
# levels a noisy run shows vary, this one stands in for them all).
ns=$(head -n 1 "$work/out/fleet.csv" | tr ',' '\n' | grep -m 1 ' ns$')

# csv_check PYTHON-EXPR...: each expression holds over fleet.csv's rows
# (rows: the list, m: by machine id, ns: the first latency figure's name).
csv_check() {
	python3 - "$work/out/fleet.csv" "$ns" "$@" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
m = {r['machine_id']: r for r in rows}
ns = sys.argv.pop(2)
for expr in sys.argv[2:]:
    assert eval(expr), expr
PY
}

check "fleet.csv: one row per machine (5), the newest run of each" \
	csv_check "len(rows) == 5" "m['$A']['run'] == 'run-20261203T010000Z'"
check "fleet.csv: identity and memory from system.json's machine" \
	csv_check "m['$B']['manufacturer'] == 'Acme'" "m['$B']['product'] == 'Node-B'" \
	"m['$B']['serial'] == 'SN-B'" "m['$B']['uuid'] == '$B'" \
	"m['$B']['memory_slots'] == '3'" "m['$B']['memory_devices'] == '2'" \
	"m['$B']['memory_bytes'] == str(2 * 17179869184)" \
	"m['$B']['memory_sizes'] == '2 x 16 GiB'" "m['$B']['memory_speeds'] == '2 x 4800/4400 MT/s'"
check "fleet.csv: memory without speeds says so" \
	csv_check "m['$E']['memory_speeds'] == '2 x speed unknown'"
check "fleet.csv: the run's verdict from its report.html" \
	csv_check "m['$A']['verdict'] == 'every probe measured what was asked'"
check "fleet.csv: the slow machine (C) is marked, first, its figures off by +30%" \
	csv_check "rows[0]['machine_id'] == '$C'" "int(m['$C']['marked']) > 0" \
	"ns + ' ' in m['$C']['differs']" "'+30.0%' in m['$C']['differs']" \
	"abs(float(m['$C'][ns]) / float(m['$A'][ns]) - 1.3) < 0.01"
check "fleet.csv: the slow machine's missing DIMM is marked too (1 of the model's 2)" \
	csv_check "m['$C']['memory_devices'] == '1'" \
	"'memory devices 1 (-50.0% from the median 2)' in m['$C']['differs']" \
	"'memory GiB 16 (-50.0% from the median 32)' in m['$C']['differs']" \
	"'memory configured MT/s' not in m['$C']['differs']" \
	"m['$A']['memory configured MT/s'] == '4400'"
check "fleet.csv: the machines like the median are not marked" \
	csv_check "all(m[x]['marked'] == '0' and m[x]['differs'] == '' for x in ('$A', '$B', '$D'))" \
	"m['$A']['cpu_model_runs'] == '4'"
check "fleet.csv: the one machine of another CPU model is compared with none" \
	csv_check "m['$E']['cpu_model_runs'] == '1'" "m['$E']['marked'] == '0'"
check "fleet.html: the marked machine in the marked table, its figures with '!'" \
	grep -q "$C.*$ns" "$work/out/fleet.html"
check "fleet.html: names the DIRs searched" \
	grep -q "<p>searched: $up, $work/fleet/stick</p>" "$work/out/fleet.html"
check "fleet.html: '!+30.0%' beside the slow machine's figures" \
	grep -q '!+30.0%' "$work/out/fleet.html"
check "fleet.html: each model's figures table opens with its medians (Test CPU 9000's $ns)" \
	python3 - "$work/out/fleet.html" "$work/out/fleet.csv" "$ns" <<'PY'
import csv, re, sys
ns = sys.argv[3]
page = open(sys.argv[1]).read()
rows = {r['machine_id'][:8]: r for r in csv.DictReader(open(sys.argv[2]))}
table = page[page.index('<caption>Test CPU 9000: figures'):]
heads = re.findall(r'<th[^>]*>([^<]*)</th>', table[:table.index('</thead>')])
first = re.findall(r'<td[^>]*>([^<]*)</td>', table[table.index('<tbody>'):].split('</tr>')[0])
assert first[0] == 'median', first
assert abs(float(first[heads.index(ns)]) - float(rows['11111111'][ns])) < 0.01, first
PY

check "fleet.html: a chart per figure of each CPU model, a bar per machine, the median dashed, the slow machine's bar marked" \
	python3 - "$work/out/fleet.html" "$work/out/fleet.csv" "$ns" <<'PY'
import csv, re, sys
ns = sys.argv[3]
page = open(sys.argv[1]).read()
rows = list(csv.DictReader(open(sys.argv[2])))
charts = re.findall(r'<svg.*?</svg>', page, re.S)
titles = [re.search(r'<text[^>]*>([^<]*)</text>', c).group(1) for c in charts]
chart = charts[titles.index('Test CPU 9000: ' + ns)]
model = [r for r in rows if r['cpu'] == 'Test CPU 9000']
assert chart.count('class="bar"') == len(model) == 4, (chart.count('class="bar"'), len(model))
assert 'class="reference"' in chart and '!</text>' in chart, chart[:400]
assert len(charts) >= len([k for k in rows[0] if k == ns]), len(charts)
PY
python3 tests/page_check.py "$work/out/fleet.html" ||
	echo "FAIL - fleet.html: tests/page_check.py exited with a failure"

sql() { sqlite3 "$work/fleet.db" "$1"; }
check "database: the 5 machines with their serials" \
	test "$(sql 'select serial from machines order by serial' | tr '\n' ' ')" = \
	"SN-A SN-B SN-C SN-D SN-E "
check "database: every run (6), machine A's two" \
	test "$(sql 'select count(*) from runs')" = 6 -a \
	"$(sql "select count(*) from runs where machine_id = '$A'")" = 2
check "database: every run's results rows ($nrows each)" \
	test "$(sql 'select count(*) from rows')" = $((6 * nrows))
check "database: the rows keep their figures (C's first ns 1.3 times A's newest)" \
	test "$(sql "select round(c.ns / a.ns, 2) from rows c, rows a
		where c.run_id = (select id from runs where machine_id = '$C')
		and a.run_id = (select id from runs where name = 'run-20261203T010000Z')
		and c.working_set_bytes = a.working_set_bytes and c.probe = a.probe
		order by c.working_set_bytes limit 1")" = 1.3
check "database: levels and card figures per run" \
	test "$(sql "select count(distinct run_id) from levels")" = 6 -a \
	"$(sql "select count(*) from figures f join runs r on r.id = f.run_id
		where r.machine_id = '$B' and f.name = '$ns'")" = 1

"$HOST_APP" fleet "$up" "$work/fleet/stick" --out "$work/out2" --db "$work/fleet.db" --all \
	> "$work/again.out" 2>&1
check "fleet --all: every run a row (6), into the same database: nothing added twice" \
	test "$(($(python3 -c 'import csv,sys; print(len(list(csv.DictReader(open(sys.argv[1])))))' \
		"$work/out2/fleet.csv")))" = 6 -a "$(sql 'select count(*) from runs')" = 6 -a \
	"$(sql 'select count(*) from rows')" = $((6 * nrows))
check "fleet --all: says the runs were already there" \
	grep -q "fleet.db: 0 runs added, 6 already there" "$work/again.out"
# An earlier memprobe's database (schema 1: results.csv's spread a fraction,
# none of the columns added since) with its newest run taken out: brought
# up to date in place, the run added again beside the rows kept.
cp "$work/fleet.db" "$work/old.db"
osql() { sqlite3 "$work/old.db" "$1"; }
spread_was=$(sql "select round(sum(spread_pct), 3) from rows")
osql "alter table rows drop column chases; alter table rows drop column in_flight;
	alter table rows drop column insns_per_cycle;
	alter table rows rename column spread_pct to spread; update rows set spread = spread / 100;
	delete from rows where run_id = (select max(id) from runs);
	delete from figures where run_id = (select max(id) from runs);
	delete from levels where run_id = (select max(id) from runs);
	delete from runs where id = (select max(id) from runs);
	update memprobe_schema set version = 1"
"$HOST_APP" fleet "$up" "$work/fleet/stick" --out "$work/out-old" --db "$work/old.db" --all \
	> "$work/old.out" 2>&1
check "database of schema 1: brought up to version 2, its spreads percents again, the run added" \
	test "$(osql 'select version from memprobe_schema')" = 2 -a \
	"$(osql 'select round(sum(spread_pct), 3) from rows')" = "$spread_was" -a \
	"$(osql 'select count(*) from runs')" = 6 -a "$(osql 'select count(*) from rows')" = $((6 * nrows))
check "database of schema 1: the columns added since are there" \
	test "$(osql "select count(*) from pragma_table_info('rows')
		where name in ('chases', 'in_flight', 'insns_per_cycle')")" = 3
ln -s .. "$up/$A/loop"
"$HOST_APP" fleet "$up" "$up/$B" "$up" --all --out "$work/out4" > /dev/null 2>&1
check "fleet --all: overlapping DIRs and a link loop: each run read once (4)" \
	python3 -c 'import csv,sys; assert len(list(csv.DictReader(open(sys.argv[1])))) == 4' \
	"$work/out4/fleet.csv"
"$HOST_APP" fleet "$up" --out "$work/out3" --threshold 60 > /dev/null 2>&1
check "fleet --threshold 60: nothing marked (C is 30% and 50% off)" \
	python3 -c 'import csv,sys; assert all(r["marked"] == "0" for r in csv.DictReader(open(sys.argv[1])))' \
	"$work/out3/fleet.csv"

# A noisy fleet: every row's trials 60% apart, so the card stars its
# figures. C, 30% slower, is then doubtful, not marked.
noisy=$work/noisy
for x in "$A 1.0 SN-A" "$B 1.0 SN-B" "$C 1.3 SN-C"; do
	set -- $x
	SPREAD=60 machine "$noisy/$1/run-20261203T010000Z" "$1" "$3" "$2" "$cpu" 2026-12-03T01:00:00
done
"$HOST_APP" fleet "$noisy" --out "$work/out5" > /dev/null 2>&1
check "fleet, noisy runs: the slow machine's starred figures are doubtful, not marked" \
	python3 - "$work/out5/fleet.csv" "$C" "$ns" <<'PY'
import csv, sys
m = {r['machine_id']: r for r in csv.DictReader(open(sys.argv[1]))}
c, ns = m[sys.argv[2]], sys.argv[3]
assert c['marked'] == '0' and c['differs'] == '', c
assert ns + ' ' in c['doubtful'] and '(+30.0% from the median' in c['doubtful'], c['doubtful']
assert all(r['doubtful'] == '' for k, r in m.items() if k != sys.argv[2])
PY
check "fleet.html, noisy runs: '*+30.0%' beside the slow machine's figures, no '!'" \
	python3 -c 'import sys; p = open(sys.argv[1]).read(); assert "*+30.0%" in p and "!+30.0%" not in p' \
	"$work/out5/fleet.html"

# refused RC PATTERN ARGS...: fleet exits RC and says PATTERN on stderr.
refused() {
	local rc=$1 pattern=$2; shift 2
	"$HOST_APP" fleet "$@" > "$work/refused.out" 2> "$work/refused.err"
	[[ $? -eq $rc ]] && grep -q -- "$pattern" "$work/refused.err"
}
mkdir -p "$work/empty"
check "fleet: no run folders is an error" refused 2 "no run folders found" "$work/empty" \
	--out "$work/o-empty"
check "fleet: a DIR without runs beside one with runs is named, exit 1" refused 1 \
	"left out: .*empty: no run folder in it" "$work/empty" "$up" --out "$work/o-half"
check "fleet: a missing DIR is an error" refused 2 "No such file or directory" \
	"$work/nowhere"
check "fleet: a bad --threshold is an error" refused 2 "give a percentage" "$up" \
	--threshold 5x --out "$work/o-bad"
check "fleet: never over an existing fleet.csv" refused 2 "File exists" "$up" --out "$work/out"
sqlite3 "$work/other.db" 'create table t (x)'
check "fleet: a database that is not fleet's is refused" refused 2 "not memprobe fleet's" \
	"$up" --out "$work/o-db" --db "$work/other.db"
osql "update memprobe_schema set version = 99"
check "fleet: a database of a later schema is refused" refused 2 "schema version 99" \
	"$up" --out "$work/o-later" --db "$work/old.db"
echo "not a database" > "$work/text.db"
check "fleet: a --db file that is not SQLite is refused, nothing written" refused 2 \
	"text.db: cannot be read as an SQLite database: file is not a database" "$up" \
	--out "$work/o-text" --db "$work/text.db"
check "fleet: ... and fleet.csv not written" test ! -e "$work/o-text/fleet.csv"
cp -r "$up/$B/run-20261203T020000Z" "$work/broken"
printf '{"machine": ' > "$work/broken/system.json"
check "fleet: an unreadable system.json is named, left out, exit 1" refused 1 \
	"left out: .*broken: system.json is not well-formed JSON" "$up" "$work/broken" \
	--out "$work/o-broken"
check "fleet: what could be read is still written" test -s "$work/o-broken/fleet.csv"
python3 - "$work/broken/system.json" <<'PY'
import json, sys
json.dump({'machine': {'id': 'unknown'}, 'cpu': {'brand': 'x'}}, open(sys.argv[1], 'w'))
PY
"$HOST_APP" fleet "$work/broken" --out "$work/o-unknown" > /dev/null 2>&1
check "fleet: a run of machine id 'unknown' is kept under a stand-in id for its folder, said so" \
	python3 - "$work/o-unknown/fleet.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 1, rows
assert rows[0]['machine_id'].startswith('folder-') and len(rows[0]['machine_id']) == 23, rows[0]
assert rows[0]['id_from'] == 'stand-in: the folder its runs are in', rows[0]
PY
