#!/usr/bin/env bash
# The layers run one way (docs/LAYOUT.md): each folder includes only the
# folders its row allows, and no module (a .c and its .h) depends on itself
# through other modules. Prints "ok - ..." or "FAIL - ..." naming the
# offending include, for tests/run to count.
set -uo pipefail
cd "$(dirname "$0")/.."

python3 - <<'PY'
import os, re, sys

# folder: the folders it may include from (its own first). One row each.
ALLOWED = {
    "lib":    ["lib"],
    "probes": ["probes", "lib"],
    "arch":   ["arch", "lib"],
    "efi":    ["efi", "arch", "lib", "probes"],
    "host":   ["host", "arch", "lib", "probes"],
}
# arch/ returns plain structs: turning them into output is the describer's job.
FORBIDDEN = {"arch": ["lib/json.h", "lib/svg.h"]}

include = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
files = []
for top in ALLOWED:
    for root, _, names in os.walk(top):
        files += [os.path.join(root, n) for n in sorted(names) if n.endswith((".c", ".h", ".S"))]

def includes(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            m = include.match(line)
            if m:
                yield number, m.group(1)

failed = 0
def report(ok, what):
    global failed
    print(("ok - " if ok else "FAIL - ") + what)
    failed += not ok

deps = {}
for top in ALLOWED:
    bad = []
    for path in (p for p in files if p.split(os.sep)[0] == top):
        for number, target in includes(path):
            folder = target.split("/")[0]
            if "/" not in target or folder not in ALLOWED[top] or target in FORBIDDEN.get(top, []):
                bad.append(f"{path}:{number} includes \"{target}\"")
            module, other = os.path.splitext(path)[0], os.path.splitext(target)[0]
            if module != other:
                deps.setdefault(module, set()).add(other)
    report(not bad, f"layers: {top}/ includes only from {', '.join(a + '/' for a in ALLOWED[top])}"
           + ("" if top not in FORBIDDEN else f" (never {', '.join(FORBIDDEN[top])})")
           + ("" if not bad else ": " + "; ".join(bad)))

# A module's dependencies are what its .c and .h include; a cycle among
# modules is an include circle whatever the order of the lines.
state, stack, cycle = {}, [], None
def visit(node):
    global cycle
    state[node] = 1
    stack.append(node)
    for nxt in sorted(deps.get(node, ())):
        if cycle:
            break
        if state.get(nxt) == 1:
            cycle = stack[stack.index(nxt):] + [nxt]
        elif nxt not in state:
            visit(nxt)
    stack.pop()
    state[node] = 2

sys.setrecursionlimit(10000)
for node in sorted(deps):
    if node not in state and not cycle:
        visit(node)
report(cycle is None, "layers: no include circle among modules"
       + ("" if cycle is None else ": " + " -> ".join(cycle)))
sys.exit(1 if failed else 0)
PY
