#!/usr/bin/env bash
# report.html and compare.html in a real browser, and offline.
#
# Two Linux runs (latency, 4 KiB and 2 MiB pages, up to 1 MiB) each leave a
# report.html; `memprobe compare` lays them together into compare.html and
# compare.svg. Each page is checked offline (tests/page_check.py: parses as
# HTML, inline <svg>, loads nothing), then opened in headless Chromium
# (scripts/deps.sh test installs it): the screenshot must not be blank, the
# DOM Chromium built must hold the chart, and the console must stay quiet.
# The console check is first shown to catch an error on a page that logs
# one, so a quiet console is evidence, not a check that cannot fail. A run
# killed after its first probe must leave a page that still reads.
set -uo pipefail
cd "$(dirname "$0")/.."
. tests/host_lib.bash browser-test

browser=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $browser ]]; then
	fail "no chromium: run scripts/deps.sh test (as root) to install it"
	exit 1
fi

# chromium's own flags: root needs --no-sandbox; no GPU, no first-run work,
# a fixed window so a screenshot has a known size.
chrome() {
	timeout 90 "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-extensions --hide-scrollbars --window-size=1000,1400 "$@"
}

# shot PAGE NAME: screenshot and console log, then the DOM.
shot() {
	chrome --enable-logging=stderr --v=0 --screenshot="$work/$2.png" "file://$PWD/$1" \
		> "$work/$2.console" 2>&1
	chrome --dump-dom "file://$PWD/$1" > "$work/$2.dom" 2> "$work/$2.dom-log"
}

# not_blank PNG: decoded here (no imaging library needed), it shows more
# than one colour and over 2% of its pixels are not the background's.
not_blank() {
	python3 - "$1" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n'
pos, idat, w = 8, b'', 0
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
        assert depth == 8 and ctype in (2, 6), (depth, ctype)
        bpp = 3 if ctype == 2 else 4
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
raw, stride, prev, counts = zlib.decompress(idat), w * bpp, None, {}
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    prev = prev or bytearray(stride)
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp * 4):  # every 4th pixel is plenty
        px = bytes(line[x:x + 3])
        counts[px] = counts.get(px, 0) + 1
    prev = line
total = sum(counts.values())
background = max(counts.values())
print("%s: %d colours, %.1f%% not background" % (sys.argv[1], len(counts), 100.0 * (total - background) / total))
sys.exit(0 if len(counts) > 1 and total - background > total * 0.02 else 1)
PY
}

# layout_check PAGE NAME: the page laid out by Chromium at 1280 x 900 px
# (a laptop's first screen), measured by a script added to a copy of it:
# the card's section ends on the first screen, the first chart's top lies
# within 3,000 px, and every chart is the target of a link in the contents
# (the anchor just before its figure). The figures come back in the DOM.
layout_check() {
	local copy="$work/$2-layout.html"
	python3 - "$1" "$copy" <<'PY'
import sys
page = open(sys.argv[1]).read()
probe = """<script>
var r = [], card = document.getElementById('summary');
var figs = document.querySelectorAll('figure'), links = {};
document.querySelectorAll('nav a').forEach(function (a) { links[a.getAttribute('href')] = 1; });
r.push('card_bottom=' + Math.round(card.getBoundingClientRect().bottom + scrollY));
r.push('first_chart=' + (figs.length ? Math.round(figs[0].getBoundingClientRect().top + scrollY) : -1));
var lost = 0;
figs.forEach(function (f) {
  var a = f.previousElementSibling;
  if (!a || a.tagName != 'A' || !a.id || !links['#' + a.id]) lost++;
});
r.push('charts=' + figs.length + ' unlinked=' + lost);
var out = document.createElement('pre'); out.id = 'layout'; out.textContent = r.join(' ');
document.body.appendChild(out);
</script>"""
at = page.rindex('</body>') if '</body>' in page else len(page)
open(sys.argv[2], 'w').write(page[:at] + probe + page[at:])
PY
	timeout 90 "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-extensions --hide-scrollbars --window-size=1280,900 \
		--dump-dom "file://$(realpath "$copy")" > "$work/$2-layout.dom" 2> /dev/null
	python3 - "$work/$2-layout.dom" <<'PY'
import re, sys
dom = open(sys.argv[1]).read()
m = re.search(r'<pre id="layout">card_bottom=(\d+) first_chart=(-?\d+) charts=(\d+) unlinked=(\d+)</pre>', dom)
assert m, 'the layout script left no result'
card, first, charts, unlinked = map(int, m.groups())
print('# card ends at %d px, first chart at %d px, %d charts, %d without a contents entry' % (card, first, charts, unlinked))
assert card <= 900 and 0 <= first <= 3000 and charts >= 1 and unlinked == 0
PY
}

# Console messages reach --enable-logging as "INFO:CONSOLE" lines.
quiet_console() { ! grep -q 'CONSOLE' "$1"; }

# The check that cannot pass blindly: a page that logs an error is caught.
printf '<!DOCTYPE html><html><body><p>x</p><script>console.error("planted")</script></body></html>\n' \
	> "$work/noisy.html"
shot "$work/noisy.html" noisy
check "the console check catches an error on a page that logs one" \
	grep -q 'CONSOLE.*planted' "$work/noisy.console"

# Two runs as a user would make them, then the comparison.
for run in 1 2; do
	"$HOST_APP" --out "$work/runs" probes=latency pages=4k,2m max_size=1M \
		> "$work/run-$run.log" 2>&1
	check "run $run exits 0" test $? -eq 0
done
run_a=$work/runs/run-0001 run_b=$work/runs/run-0002
"$HOST_APP" compare "$run_a" "$run_b" --out "$work/compare" > "$work/compare.log" 2>&1
check "memprobe compare RUN_A RUN_B --out DIR exits 0" test $? -eq 0
check "compare prints its tables" grep -q 'B/A' "$work/compare.log"
check "compare's first table is the runs' cards, in the terminal and on the page" \
	python3 - "$work/compare.log" "$work/compare/compare.html" <<'PY'
import sys
log, page = open(sys.argv[1]).read(), open(sys.argv[2]).read()
assert log.index('== summary: the runs') < log.index('== runs ==') and '    L1 KiB ' in log
assert page.index('<h2>summary: the runs') == page.index('<h2>')
PY
check "a Linux run's console ends with its card, then the verdict line" \
	python3 - "$work/run-1.log" "$run_a/summary.txt" <<'PY'
import sys
log, card = open(sys.argv[1]).read(), open(sys.argv[2]).read()
assert log.endswith('\n' + card + 'memprobe: verdict: success\n'), log[-400:]
PY
check "each run's report.html opens with its card, <section id=\"summary\">" \
	python3 - "$run_a/report.html" "$run_a/summary.txt" <<'PY'
import sys, html
page, card = open(sys.argv[1]).read(), open(sys.argv[2]).read()
at = page.index('<section')
assert page[at:].startswith('<section id="summary">') and at < page.index('<h2>')
assert html.escape(card.split('\n')[0], quote=True) in page[at:page.index('</section>')]
PY

# A run killed once its first probe is done (the second, locality, runs for
# seconds): its page must still be whole up to that probe.
"$HOST_APP" --out "$work/cut" probes=latency,locality pages=4k max_size=256K \
	> "$work/cut.log" 2>&1 &
cut_pid=$!
for _ in $(seq 600); do
	grep -q '== locality ==' "$work/cut/run-0001/report.txt" 2>/dev/null && break
	sleep 0.1
done
kill -9 "$cut_pid" 2>/dev/null
wait "$cut_pid" 2>/dev/null
check "the cut run was killed during locality, after latency" bash -c \
	"grep -q '== latency: done' '$work/cut/run-0001/report.txt' && ! grep -q 'locality: done' '$work/cut/run-0001/report.txt'"
python3 tests/page_check.py "$work/cut/run-0001/report.html" --cut || echo "(page_check: a check failed)"
# 4 KiB .. 256 KiB is 13 sizes of the grid, and the sizes refined at edges.
cut_rows=$(grep -c '^latency,' "$work/cut/run-0001/results.csv")
check "the cut page holds latency's rows ($cut_rows: 13 of the grid and any refined), and locality's heading" bash -c \
	"test '$cut_rows' -ge 13 && test \$(python3 -c 'import csv,sys; print(sum(1 for r in csv.DictReader(open(sys.argv[1])) if r[\"probe\"] == \"latency\" and r[\"sweep_point\"] == \"grid\"))' '$work/cut/run-0001/results.csv') -eq 13 && grep -q '<caption>$cut_rows results.csv rows' '$work/cut/run-0001/report.html' && grep -q '<h2>locality</h2>' '$work/cut/run-0001/report.html'"
shot "$work/cut/run-0001/report.html" cut-report
check "cut-report: Chromium draws it, not blank" not_blank "$work/cut-report.png"
check "cut-report: the console logged nothing" quiet_console "$work/cut-report.console"

for page in "$run_a/report.html" "$run_b/report.html" "$work/compare/compare.html"; do
	svgs=()
	[[ $page == */compare.html ]] && svgs=(--svg-file "$work/compare/compare.svg")
	[[ $page == */run-0001/* ]] && svgs=(--svg-file "$run_a"/*.svg)
	[[ $page == */report.html ]] && svgs=(--report "${svgs[@]}")
	python3 tests/page_check.py "$page" "${svgs[@]}" || echo "(page_check: a check failed)"
	name=$(basename "$(dirname "$page")")-$(basename "$page" .html)
	shot "$page" "$name"
	check "$name: Chromium drew a screenshot that is not blank" not_blank "$work/$name.png"
	check "$name: the DOM Chromium built holds the chart" grep -q '<svg' "$work/$name.dom"
	[[ $page == */report.html ]] && check "$name: at 1280 px wide the first screen holds the card, the first chart is within 3,000 px, every chart has a contents entry that reaches it" \
		layout_check "$page" "$name"
	[[ $page == */report.html ]] && check "$name: the DOM Chromium built holds the hierarchy table" \
		grep -q '<caption>memory hierarchy: cache levels and edges</caption>' "$work/$name.dom"
	check "$name: the console logged nothing" quiet_console "$work/$name.console"
done
