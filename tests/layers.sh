#!/usr/bin/env bash
# The layers run one way (docs/LAYOUT.md): each folder includes only what
# its row allows, and no module (a .c and its .h) depends on itself
# through other modules. Prints "ok - ..." or "FAIL - ..." naming the
# offending include, for tests/run to count.
set -uo pipefail
cd "$(dirname "$0")/.."

python3 - <<'PY'
import os, re, sys

# folder: what it may include (its own folder first), one row each. "dir/"
# allows everything under dir; "arch/*.h" only the arch-neutral headers
# directly in arch/ (never an architecture's own folder, arch/x86_64/...);
# any other entry is one file. The shared code climbs one way: core/,
# results/, analysis/, probes/, run/, each including only those before it.
# The platforms reach the CPU only through the neutral headers; the desk
# commands (desk/) reach the Linux platform only for host_slurp, and
# desk/analyze.c alone decodes recorded x86 CPUID registers. Nothing
# includes desk/.
SHARED = ["core/", "results/", "analysis/", "probes/", "run/"]
ALLOWED = {
    "lib":      ["lib/"],
    "core":     ["core/", "lib/"],
    "results":  ["results/", "core/", "lib/"],
    "analysis": ["analysis/", "results/", "core/", "lib/"],
    "probes":   ["probes/", "analysis/", "results/", "core/", "lib/"],
    "run":      ["run/"] + SHARED[:-1] + ["lib/"],
    "arch":     ["arch/", "lib/"],
    "efi":      ["efi/", "arch/*.h", "lib/"] + SHARED,
    "host":     ["host/", "arch/*.h", "lib/"] + SHARED,
    "desk":     ["desk/", "host/host.h", "lib/", "core/", "results/", "analysis/", "run/",
                 "arch/x86_64/cpu_caches.h"],
}
# arch/ returns plain structs: turning them into output is the describer's job.
FORBIDDEN = {"arch": ["lib/json.h", "lib/svg.h"]}

include = re.compile(r'^\s*#\s*include\s+"([^"]+)"')

def allowed(top, target):
    for entry in ALLOWED[top]:
        if entry.endswith("/"):
            if target.startswith(entry):
                return True
        elif entry.endswith("/*.h"):
            folder = entry[:-len("*.h")]
            rest = target[len(folder):]
            if target.startswith(folder) and "/" not in rest and rest.endswith(".h"):
                return True
        elif target == entry:
            return True
    return False
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
            if "/" not in target or not allowed(top, target) or target in FORBIDDEN.get(top, []):
                bad.append(f"{path}:{number} includes \"{target}\"")
            module, other = os.path.splitext(path)[0], os.path.splitext(target)[0]
            if module != other:
                deps.setdefault(module, set()).add(other)
    report(not bad, f"layers: {top}/ includes only {', '.join(ALLOWED[top])}"
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

# No call circle: a module (a .c file) that calls a function of another
# which, through others, calls it back. Calls through the seams, a function
# declared in core/platform.h or a neutral arch/*.h (each platform's or
# architecture's own), are left out; each architecture is read apart, since
# both define the same seam functions. Read from the sources, so the check
# needs no build: a function is defined where a non-static line opens it and
# its body follows; a call is a name followed by "(".
def code_of(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    text = re.sub(r'/\*.*?\*/', lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r'//[^\n]*', '', text)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    return re.sub(r"'(\\.|[^'\\\n])*'", "''", text)

seam = set()
for h in ["core/platform.h"] + [os.path.join("arch", n) for n in os.listdir("arch") if n.endswith(".h")]:
    seam |= set(re.findall(r'\b([a-z_][a-z0-9_]*)\s*\(', code_of(h)))
opens = re.compile(r'^(?!static\b)(?!typedef\b)[A-Za-z_][^;{}()=]*?\b([A-Za-z_]\w*)\s*\(')
c_files = [p for p in files if p.endswith(".c")]

def call_circle(sources):
    defined, calls = {}, {}
    for path in sources:
        text, module = code_of(path), path[:-2]
        lines = text.split("\n")
        for i, line in enumerate(lines):
            m = opens.match(line)
            if m:
                ahead = "\n".join(lines[i:i + 12])
                body = ahead.find("\n{")
                if body >= 0 and ";" not in ahead[:body]:
                    defined.setdefault(m.group(1), set()).add(module)
        calls[module] = set(re.findall(r'\b([A-Za-z_]\w*)\s*\(', text)) - seam
    edges = {m: {d for n in names for d in defined.get(n, ()) if d != m} for m, names in calls.items()}
    colour, path = {}, []
    def walk(node):
        colour[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if colour.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in colour:
                found = walk(nxt)
                if found:
                    return found
        path.pop()
        colour[node] = 2
        return None
    for node in sorted(edges):
        if node not in colour:
            found = walk(node)
            if found:
                return found
    return None

arches = sorted(n for n in os.listdir("arch") if os.path.isdir(os.path.join("arch", n)) and n != "generic")
for arch in arches:
    others = tuple(os.path.join("arch", a) + os.sep for a in arches if a != arch)
    circle = call_circle([p for p in c_files if not p.startswith(others)])
    report(circle is None, f"layers: no call circle among modules ({arch})"
           + ("" if circle is None else ": " + " -> ".join(circle)))

# docs/LAYOUT.md's tree names every folder of the checkout (two levels; a
# test's corpus and CI's own folder aside), and no folder that is not there.
def tree_in_doc():
    text = open("docs/LAYOUT.md", encoding="utf-8").read()
    block = text.split("## The tree", 1)[1].split("```", 2)[1]
    names, parent = set(), None
    for line in block.splitlines():
        if not line.strip():
            continue
        name = line.split()[0].rstrip("/")
        if line.startswith("  "):
            names.add(parent + "/" + name)
        else:
            parent = name
            names.add(name)
    return names
import subprocess
try:
    tracked = subprocess.run(["git", "ls-files"], capture_output=True, text=True, check=True).stdout.split()
except (OSError, subprocess.CalledProcessError):
    tracked = [os.path.relpath(os.path.join(r, n)) for r, _, ns in os.walk(".") for n in ns]
folders = set()
for path in tracked:
    parts = path.split("/")[:-1]
    if parts and not parts[0].startswith(".") and parts[0] != "build":
        folders.add(parts[0])
        if len(parts) > 1 and not (parts[0] == "tests" and parts[1] == "fuzz" and len(parts) > 2 and parts[2] == "corpus"):
            folders.add("/".join(parts[:2]))
doc = tree_in_doc()
report(doc == folders, "layers: docs/LAYOUT.md's tree names every folder"
       + ("" if doc == folders else ": missing " + ", ".join(sorted(folders - doc))
          + "; not in the checkout " + ", ".join(sorted(doc - folders))))
sys.exit(1 if failed else 0)
PY
