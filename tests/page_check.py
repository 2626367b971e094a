#!/usr/bin/env python3
"""Checks memprobe's HTML pages (report.html, compare.html, fleet.html) offline.

    tests/page_check.py PAGE [--cut] [--report] [--no-chart] [--svg-file SVG ...]

One "ok - ..." or "FAIL - ..." line per check: the page parses as HTML
with every element closed in order (HTML's void elements aside, and the
optional </body></html> of a page cut short), holds an inline <svg>, and
loads nothing: no <script>, no <link>, no <iframe>/<object>/<embed>, and no
src= or href= that leaves the file. Each --svg-file must be well-formed
XML whose root is an <svg> element. --cut: the page of a run killed
mid-way, which must still parse and show a table, but has no closing
</html>, need not hold a chart yet, and may end inside a <pre> or inside a
table being printed (its div, table, tbody, tr and td). --report:
a finished run's report.html with latency rows, whose tables must be HTML
tables, not text: more than one <table>, the system summary's, and the
memory hierarchy's with its header cells. --no-chart: a page that draws
none: the <svg> check is not made. Exit status 1 when a check
failed.
"""
import re
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "source", "track", "wbr"}
# Children of inline SVG that the charts write self-closed (<line/>).
LOADERS = {"script", "link", "iframe", "object", "embed"}


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.tags, self.loads = [], [], {}, []

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if tag in LOADERS:
            self.loads.append("<%s>" % tag)
        for name, value in attrs:
            if name in ("src", "href", "xlink:href", "action", "data", "poster") and value \
                    and not value.startswith("#"):
                self.loads.append('%s="%s"' % (name, value))
            if name == "style" and value and "url(" in value:
                self.loads.append("style url(): %s" % value)
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))

    def handle_startendtag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if tag in LOADERS:
            self.loads.append("<%s/>" % tag)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1][0] != tag:
            self.errors.append("</%s> at line %d closes %s" % (
                tag, self.getpos()[0], self.stack[-1] if self.stack else "nothing"))
            return
        self.stack.pop()

    def handle_data(self, data):
        if "@import" in data or "url(" in data:
            self.loads.append("style sheet import or url() in the page's text")


def report(ok, what):
    print(("ok - " if ok else "FAIL - ") + what)
    return ok


def main(argv):
    path, svgs, cut, run_report = argv[1], [], "--cut" in argv, "--report" in argv
    chart = "--no-chart" not in argv
    if "--svg-file" in argv:
        svgs = argv[argv.index("--svg-file") + 1:]
    try:
        text = open(path, encoding="utf-8").read()
    except (OSError, UnicodeDecodeError) as e:
        report(False, "%s reads as UTF-8 text: %s" % (path, e))
        return 1
    page = Page()
    page.feed(text)
    page.close()
    # A finished page may leave out only the optional end tags of body and
    # html; one cut short inside a probe also the <pre> of that probe's
    # text or the table it was printing (docs/OUTPUT.md, "Written as the
    # run goes"), which browsers close.
    optional = ("html", "body", "pre", "div", "table", "tbody", "tr", "td") if cut \
        else ("html", "body")
    left = [t for t, _ in page.stack if t not in optional]
    good = [
        report(text.startswith("<!DOCTYPE html>"), "%s opens with the HTML doctype" % path),
        report(not page.errors and not left, "%s parses as HTML, every element closed in order%s"
               % (path, "" if not (page.errors or left) else ": %s %s" % (page.errors[:3], left))),
        report(("</html>" in text) != cut, "%s %s" % (path, "was cut short before its end"
                                                      if cut else "is finished (</html>)")),
        report(page.tags.get("table", 0) > 0, "%s holds an HTML table (%d)" % (path, page.tags.get("table", 0))),
        report(not page.loads, "%s loads nothing (no script, link or address)%s"
               % (path, "" if not page.loads else ": %s" % page.loads[:3])),
        report('name="viewport"' in text and "@media print" in text,
               "%s has a viewport and print rules" % path),
    ]
    if chart:
        good.append(report(cut or page.tags.get("svg", 0) > 0,
                           "%s holds an inline <svg> (%d)%s" % (path, page.tags.get("svg", 0),
                           " or, cut short, need not yet" if cut else "")))
    if run_report:
        good += [
            report(page.tags.get("table", 0) > 1, "%s: its tables are HTML tables, more than one (%d)"
                   % (path, page.tags.get("table", 0))),
            report(re.search(r'<h2>system summary</h2>\n<div class="scroll"><table>\n<caption>'
                             r'the machine, as system.json describes it</caption>.*?'
                             r'<td class="text">CPU</td>', text, re.S) is not None,
                   "%s: the system summary is a table, the CPU in it" % path),
            report(re.search(r'<caption>memory hierarchy: cache levels and edges</caption>\n'
                             r'<thead><tr><th class="text">level</th><th>size</th>'
                             r'<th class="text">lies in</th><th class="text">read as</th>.*?<th class="text">verdict</th>'
                             r'</tr></thead>\n<tbody>\n<tr><td class="text">', text, re.S) is not None,
                   "%s: the memory hierarchy is a table, its header and a level's row" % path),
        ]
    for svg in svgs:
        try:
            root = ET.parse(svg).getroot()
            good.append(report(root.tag == "{http://www.w3.org/2000/svg}svg",
                               "%s is well-formed XML with an <svg> root" % svg))
        except (ET.ParseError, OSError) as e:
            good.append(report(False, "%s is well-formed XML: %s" % (svg, e)))
    return 0 if all(good) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
