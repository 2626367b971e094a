# The card on bare metal, under QEMU's emulator (-cpu max is TCG): the last
# block on the console before the verdict, its first line the emulated CPU's;
# summary.txt in the run folder; report.txt and report.html begin with it
# (the streamed copies renamed, read back and deleted through the firmware's
# file protocol); system.json's summary.
cd "$(dirname "$0")/../.."
. tests/qemu/lib.bash

boot card --cpu max --mem 512M \
	--args "profile=quick probes=latency,tlb pages=4k,2m max_size=1M tlb.max_pages=256"
run=$(run_folder)
check "card: success" test "$BOOT_RC" -eq 0
check "card: summary.txt is in the run folder" test -s "$run/summary.txt"
# Which levels the emulator's timings show varies with the machine's load
# (a TCG run's L1 step can drift over 20-64 KiB into no step at all): the
# checks ask for a level line, whichever, each held against its claim as
# emulated.
check "card: summary.txt is at most 27 lines of at most 80 columns, with a level line" python3 - "$run/summary.txt" <<'PY'
import sys
lines = open(sys.argv[1]).read().split('\n')
assert lines[-1] == '' and 0 < len(lines) - 1 <= 27, len(lines)
assert max(len(l) for l in lines) <= 80
assert any(l.startswith(('L1 ', 'L2 ', 'TLB ')) for l in lines), lines
PY
check "card: it is the console's last block, just before the verdict" python3 - "$LOG" "$run/summary.txt" <<'PY'
import sys
log = open(sys.argv[1]).read().replace('\r', '')
card = open(sys.argv[2]).read()
at = log.rfind(card)
assert at >= 0, 'the card is not on the console'
rest = log[at + len(card):].lstrip('\n')
assert rest.startswith('memprobe: verdict: success'), rest[:300]
PY
check "card: its first line says the CPU is emulated; verdicts say emulated" python3 - "$run/summary.txt" <<'PY'
import sys
text = open(sys.argv[1]).read()
lines = text.split('\n')
assert lines[0] == "EMULATED CPU (QEMU TCG): timings are the emulator's; `make host` gives real ones", lines[0]
assert lines[1].startswith('== summary'), lines[1]
assert ' agrees' not in text and ' differs' not in text, text
assert any(l.startswith(('L1 ', 'L2 ', 'TLB ')) and l.rstrip(' *').endswith('emulated')
           for l in lines), text
trust = text[text.index('\ntrust: '):]
joined = ' '.join(l.strip() for l in trust.split('\n'))
assert 'under a hypervisor' in joined, joined
PY
check "card: report.txt begins with it, then the console from the banner on" python3 - "$run/report.txt" "$run/summary.txt" "$LOG" <<'PY'
import sys
rep, card = open(sys.argv[1]).read(), open(sys.argv[2]).read()
log = open(sys.argv[3]).read().replace('\r', '')
assert rep.startswith(card + '\n'), rep[:200]
assert rep[len(card) + 1:].startswith('memprobe ') and rep[len(card) + 1:] in log
PY
check "card: report.html's first section is the summary" python3 - "$run/report.html" <<'PY'
import sys
page = open(sys.argv[1]).read()
at = page.index('<section')
assert page[at:].startswith('<section id="summary">') and at < page.index('<h2>')
PY
check "card: system.json has the summary, emulated" python3 - "$run/system.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))['summary']
assert s['lines'][0].startswith('EMULATED CPU') and s['lines'][1].startswith('== summary'), s
verdicts = [l['verdict'] for l in s['caches'] + s['tlbs']]
assert s['trust']['emulated'] is True and 'emulated' in verdicts, s
assert 'agrees' not in verdicts and 'differs' not in verdicts, verdicts
PY
check "card: no streamed copy is left in the run folder" bash -c "! ls '$run' | grep -q stream"
