#!/usr/bin/env bash
# The checked rules of docs/STYLE.md: every C, header and assembly file
# opens with its banner (a block comment before anything else), section
# markers take the one form "/* ---- Name ---- */", and `#if` on the
# architecture stands only where STYLE.md allows it. Prints "ok - ..." or
# "FAIL - ..." naming the file and line, for tests/run to count.
set -uo pipefail
cd "$(dirname "$0")/.."

files=$(git ls-files '*.c' '*.h' '*.S' 2>/dev/null || find . -name '*.[chS]' -not -path './build/*')
bad=0
fail() { echo "FAIL - $*"; bad=$((bad + 1)); }

# A banner: the first line opens a block comment. A file that starts with
# code or an #include leaves a reader to guess what it is for.
no_banner=0
for f in $files; do
	IFS= read -r first < "$f" || first=
	[[ $first == "/*"* ]] && continue
	fail "$f: no opening banner comment (docs/STYLE.md, \"A file\")"
	no_banner=$((no_banner + 1))
done
[[ $no_banner -eq 0 ]] && echo "ok - every source file opens with its banner comment"

# One section marker form, "/* ---- Name ---- */" on a line of its own: a
# "// Word Word" line, or any comment that opens with a run of dashes in
# another shape ("// ---- Name", "/* ---- Name" continued on the next
# line, a marker indented or unclosed), is another style STYLE.md replaced.
other=$( (grep -nE '^// [A-Z][a-z]+( [A-Za-z]+)*$' $files
	  grep -nE '^\s*(//+|/\*+|#|;|@)\s*-{3,}' $files |
		grep -vE '^[^:]+:[0-9]+:/\* ---- [^ ].*[^ -] -{4,} \*/$') || true)
if [[ -n $other ]]; then
	while IFS= read -r line; do fail "$line: section marker in another form; use /* ---- Name ---- */ on a line of its own"; done <<< "$other"
else
	echo "ok - section markers take the one form /* ---- Name ---- */"
fi

# #if on the architecture: arch/counter.h and probes/cost.c only (tests may
# pick their fixtures by it).
arch_if=$(grep -nE '^\s*#\s*(if|elif).*(__x86_64__|__aarch64__|__i386__|__arm__)' $files |
	grep -vE '^(arch/counter\.h|probes/cost\.c|tests/)' || true)
if [[ -n $arch_if ]]; then
	while IFS= read -r line; do fail "$line: #if on the architecture outside the places docs/STYLE.md allows"; done <<< "$arch_if"
else
	echo "ok - #if on the architecture only in arch/counter.h and probes/cost.c"
fi
exit $((bad > 0))
