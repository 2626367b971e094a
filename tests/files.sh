#!/usr/bin/env bash
# The files a run leaves for programs (docs/OUTPUT.md, "results.csv" and
# "system.json"), checked on real runs of the Linux build: system.json
# indented, with its schema_version, valid against docs/system.schema.json
# (Python's jsonschema), the one written at a run's start and the final
# one; results.csv's header the column list docs/OUTPUT.md documents; no
# field of a row longer than 80 characters, the long texts as ids that
# system.json resolves; spread in one unit, the console's and the file's;
# and memprobe's own readers taking this version's files and older ones.
set -uo pipefail
cd "$(dirname "$0")/.."
. tests/host_lib.bash files-test

SCHEMA=docs/system.schema.json
validate() { python3 tests/schema_check.py "$SCHEMA" "$@"; }

# ---- A finished run -------------------------------------------------------

out=$work/quick
"$HOST_APP" --out "$out" profile=quick probes=latency,locality,cost max_size=1MiB \
	> "$work/quick.txt" 2>&1
status=$?
dir=$out/run-0001
check "a quick run of latency, locality and cost succeeds (status $status)" test "$status" -eq 0

check "system.json is valid against $SCHEMA" validate "$dir/system.json"
check "system.json is indented, schema_version its first member, and final" python3 - "$dir/system.json" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
lines = text.splitlines()
assert len(lines) > 100 and lines[0] == '{' and lines[1] == '  "schema_version": 2,', lines[:2]
assert json.loads(text)['state'] == 'final'
PY

# The schema can fail: a copy without schema_version, with a cache's size
# as text, and a row text's id of another column, is refused on each.
python3 - "$dir/system.json" "$work/broken.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
del d['schema_version']
d['cpu']['caches'] = [{'level': 1, 'type': 'data', 'size_bytes': '32K', 'line_bytes': 64,
                       'source': 'x'}]
d['row_texts']['timer']['p1'] = 'misfiled'
json.dump(d, open(sys.argv[2], 'w'))
PY
validate "$work/broken.json" > "$work/broken.txt"
check "a broken system.json is refused, naming each fault" bash -c "
	grep -q \"(top): 'schema_version' is a required property\" '$work/broken.txt' &&
	grep -q 'cpu.caches.0.size_bytes: ' '$work/broken.txt' &&
	grep -q 'row_texts.timer: ' '$work/broken.txt'"

check "results.csv's header is docs/OUTPUT.md's column list, in order" python3 - "$dir/results.csv" <<'PY'
import csv, re, sys
documented, state = [], 0
for line in open('docs/OUTPUT.md'):
    if state == 0 and line.startswith('## results.csv'):
        state = 1
    elif state == 1 and line.startswith('| column |'):
        state = 2
    elif state == 2 and not line.startswith('|'):
        break
    elif state == 2 and line.startswith('| `'):
        documented.append(re.match(r'\| `([a-z_0-9]+)` \|', line).group(1))
header = next(csv.reader(open(sys.argv[1], newline='')))
assert header == documented, (header, documented)
PY

check "no field of a row is longer than 80 characters; every row-text id is in system.json" \
	python3 - "$dir/results.csv" "$dir/system.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
texts = json.load(open(sys.argv[2]))['row_texts']
assert len(rows) > 20, len(rows)
longest = max(len(v) for r in rows for v in r.values())
assert longest <= 80, longest
for column in ('pages_verified', 'timer'):
    ids = {r[column] for r in rows if r[column]}
    assert ids and ids <= set(texts[column]), (column, ids, texts[column].keys())
    assert all(len(t) > 20 for t in texts[column].values()), texts[column]
assert any(r['pages_verified'] == '' for r in rows if r['probe'] == 'cost')
PY

check "spread: the console's percentages are the file's spread_pct (locality's walks)" \
	python3 - "$dir/results.csv" "$work/quick.txt" <<'PY'
import csv, re, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline='')) if r['probe'] == 'locality']
console = re.findall(r'^    (?:row|column) +[0-9.]+ +[0-9.]+ +([0-9.]+)%$', open(sys.argv[2]).read(), re.M)
assert rows and len(console) == len(rows), (len(console), len(rows))
for r, shown in zip(rows, console):
    assert abs(float(r['spread_pct']) - float(shown)) <= 0.051, (r['spread_pct'], shown)
PY

# ---- memprobe's readers: this version's files and older ones --------------

"$HOST_APP" analyze "$dir" > "$work/analyze-new.txt" 2>&1
check "analyze reads this run, the row texts put back from system.json" \
	bash -c "grep -q 'kernel gave' '$work/analyze-new.txt' && ! grep -Eq '(^|[ (])p[0-9]+([ )]|$)' '$work/analyze-new.txt'"
"$HOST_APP" analyze tests/data/emr-vm-ifetch-9.csv --claims tests/data/emr-vm-cpuid.json \
	> "$work/analyze-ifetch.txt" 2>&1
status=$?
check "analyze reads a run's ifetch rows: the L1i, each ITLB step against its claim, the fetch rates (status $status)" \
	bash -c "[ $status -eq 0 ] && grep -q ' 264 ifetch points used' '$work/analyze-ifetch.txt' &&
		grep -q '^== the instruction side, read from the ifetch rows ==' '$work/analyze-ifetch.txt' &&
		grep -q '^ifetch: L1i 32768 bytes (next point 49152), miss +1.78 cycles a jump over the control; claim 32768 (CPUID 4): agrees' '$work/analyze-ifetch.txt' &&
		grep -q '^ifetch: ITLB step 1 with 4 KiB pages: 128 entries (next point 192), .*: differs; half the claim' '$work/analyze-ifetch.txt' &&
		grep -q '^ifetch: fetch [0-9.]* bytes' '$work/analyze-ifetch.txt'"
old=$work/old/run-0001
mkdir -p "$old"
cp tests/data/zen5-vm-quick-1.csv "$old/results.csv"
"$HOST_APP" analyze "$old" > "$work/analyze-old.txt" 2>&1
check "analyze reads an older run (a spread column, the texts in the rows)" \
	bash -c "grep -q 'rows read' '$work/analyze-old.txt' && grep -q 'kernel gave' '$work/analyze-old.txt'"
"$HOST_APP" compare "$old" "$dir" --out "$work/compare" > "$work/compare.txt" 2>&1
status=$?
check "compare takes an older run beside this one (status $status)" test "$status" -le 1

# ---- A run cut short: the system.json of its start ------------------------

cut=$work/cut
"$HOST_APP" --out "$cut" profile=quick probes=latency,tlb pages=4k > "$work/cut.txt" 2>&1 &
pid=$!
for _ in $(seq 1 600); do
	[[ -s $cut/run-0001/results.csv && $(wc -l < "$cut/run-0001/results.csv") -ge 2 ]] && break
	kill -0 "$pid" 2> /dev/null || break
	sleep 0.05
done
kill -KILL "$pid" 2> /dev/null
wait "$pid" 2> /dev/null
check "a killed run's system.json, from its start (state running), is valid against the schema" \
	bash -c "validate() { python3 tests/schema_check.py '$SCHEMA' \"\$@\"; }
		 python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))[\"state\"] == \"running\"' \
			'$cut/run-0001/system.json' && validate '$cut/run-0001/system.json'"
