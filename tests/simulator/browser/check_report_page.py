#!/usr/bin/env python3
"""The simulator's HTML report, checked in a real browser (Debian's chromium, headless).

Runs write_report_page (a racy, an uncoalesced, a bank-conflicted and a divergent kernel),
which saves the report as HTML and as JSON; checks that the HTML is well formed and
self-contained; then opens it in Chromium and checks it against the JSON: the page loads
with no script error and requests nothing, its tables have the report's rows, a click on a
column's header sorts the rows, the kernel filter hides the other kernels' rows and notes,
and a click on a race scrolls to both of its source lines and highlights them with the
race's invocations. Fails (never skips) when Chromium is missing.

  check_report_page.py --writer PATH/write_report_page --work-dir DIR
"""

import argparse
import json
import os
import pathlib
import subprocess
import sys
from html.parser import HTMLParser

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cdp_pipe import Browser, BrowserError, Page, find_chromium  # noqa: E402


class Failure(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise Failure(message)


def ok(message):
    print("ok: " + message, flush=True)


VOID_ELEMENTS = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Structure(HTMLParser):
    """Every element closed in order, ids unique, links only within the page, nothing loaded."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.open, self.ids, self.links, self.problems, self.scripts = [], set(), [], [], 0

    def handle_starttag(self, tag, attrs):
        where = "line %d" % self.getpos()[0]
        if tag not in VOID_ELEMENTS:
            self.open.append((tag, where))
        self.scripts += tag == "script"
        for name, value in attrs:
            if name == "id":
                if value in self.ids:
                    self.problems.append("%s: id %r used twice" % (where, value))
                self.ids.add(value)
            elif name == "href":
                if not value.startswith("#"):
                    self.problems.append("%s: a link out of the page: %r" % (where, value))
                self.links.append((value[1:], where))
            elif name in ("src", "srcset", "action", "formaction", "data", "poster"):
                self.problems.append("%s: <%s %s=%r> loads something" % (where, tag, name, value))
        if tag in ("link", "iframe", "object", "embed", "img", "base"):
            self.problems.append("%s: <%s> in a self-contained page" % (where, tag))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID_ELEMENTS:
            self.open.pop()

    def handle_endtag(self, tag):
        where = "line %d" % self.getpos()[0]
        if tag in VOID_ELEMENTS:
            self.problems.append("%s: </%s> closes a void element" % (where, tag))
        elif not self.open or self.open[-1][0] != tag:
            self.problems.append("%s: </%s> while <%s> is open" % (where, tag, self.open[-1][0] if self.open else "-"))
        else:
            self.open.pop()

    def check(self, text):
        self.feed(text)
        self.close()
        self.problems += ["<%s> opened at %s is never closed" % (tag, where) for tag, where in self.open]
        self.problems += ["%s: a link to #%s, which is not on the page" % (where, target)
                          for target, where in self.links if target not in self.ids]
        if self.scripts != 1:
            self.problems.append("%d <script> elements, expected 1" % self.scripts)
        return self.problems


def write_report(writer, work_dir):
    work_dir.mkdir(parents=True, exist_ok=True)
    for name in ("report.html", "report.json"):
        (work_dir / name).unlink(missing_ok=True)
    try:
        run = subprocess.run([writer, str(work_dir)], capture_output=True, text=True, timeout=180)
    except subprocess.TimeoutExpired:
        raise Failure("%s did not finish within 180 s" % writer)
    expect(run.returncode == 0, "%s failed (%d):\n%s%s" % (writer, run.returncode, run.stdout, run.stderr))
    html = (work_dir / "report.html").read_text(encoding="utf-8")
    report = json.loads((work_dir / "report.json").read_text(encoding="utf-8"))
    return html, report


# Reads a table's visible rows: for each, the cells' sort keys (data-v, else the text).
ROWS_JS = """Array.from(document.querySelectorAll(%s + ' tbody > tr'))
    .filter(row => !row.hidden && row.getClientRects().length > 0)
    .map(row => Array.from(row.cells,
                            cell => (cell.dataset.v !== undefined ? cell.dataset.v : cell.textContent).trim()))"""


def rows(page, table):
    return page.evaluate(ROWS_JS % json.dumps(table))


def headers(page, table):
    return page.evaluate("Array.from(document.querySelectorAll(%s + ' thead th'), th => th.textContent.trim())"
                         % json.dumps(table))


def sort_by(page, table, header):
    """Clicks `header` in `table`; its column's keys in the rows' new order, and the sort state."""
    names = headers(page, table)
    expect(header in names, "%s has no column '%s' (it has %s)" % (table, header, names))
    column = names.index(header)
    page.click("%s thead th:nth-child(%d)" % (table, column + 1))
    state = page.evaluate("document.querySelector(%s).getAttribute('aria-sort')"
                          % json.dumps("%s thead th:nth-child(%d)" % (table, column + 1)))
    return [row[column] for row in rows(page, table)], state


def numbers_then_blanks(keys, what):
    values = [k for k in keys if k != ""]
    expect(keys[:len(values)] == values, "%s: empty cells are not all last: %s" % (what, keys))
    return [float(v.rstrip("%")) for v in values]


def line_of(key):
    return int(key.rsplit(":", 1)[1])


def check_tables(page, report):
    sites = report["accesses"] + report["branches"]
    expected = {"table.kernels": len(report["kernels"]), "table.races": len(report["races"]), "table.sites": len(sites)}
    for table, count in expected.items():
        found = rows(page, table)
        expect(len(found) == count, "%s shows %d rows, the report has %d" % (table, len(found), count))
    names = [k["name"] for k in report["kernels"]]
    expect([r[0] for r in rows(page, "table.kernels")] == names, "the kernels table does not list %s" % names)
    shown = sorted((r[0], line_of(r[1])) for r in rows(page, "table.sites"))
    wanted = sorted((s["kernel"], s["location"]["line"]) for s in sites)
    expect(shown == wanted, "the sites table lists %s, the report %s" % (shown, wanted))
    options = page.evaluate("Array.from(document.querySelectorAll('#kernel-filter option'), o => o.value)")
    expect(options == [""] + names, "the kernel filter offers %s" % options)
    expect(page.evaluate("!document.getElementById('controls').hidden && "
                         "document.getElementById('controls').getClientRects().length > 0"),
           "the kernel filter is not shown (did the page's script run?)")
    ok("the tables show the report's %d kernels, %d races and %d sites; the filter offers every kernel"
       % (len(names), len(report["races"]), len(sites)))


def check_sorting(page, report):
    efficiencies = sorted(a["efficiency"] for a in report["accesses"])
    keys, state = sort_by(page, "table.sites", "efficiency")
    values = numbers_then_blanks(keys, "sites by efficiency")
    expect(state == "ascending", "efficiency sorted %s, expected ascending first" % state)
    expect(all(abs(a - b) < 1e-9 for a, b in zip(values, efficiencies)) and len(values) == len(efficiencies),
           "sites by efficiency: %s, expected %s" % (values, efficiencies))
    keys, state = sort_by(page, "table.sites", "efficiency")
    values = numbers_then_blanks(keys, "sites by efficiency, descending")
    expect(state == "descending" and values == sorted(values, reverse=True),
           "a second click does not reverse the order: %s (%s)" % (values, state))
    ok("sorting by efficiency: worst first (%.4f), then reversed; rows without one stay last" % values[-1])

    executions = sorted((s["executions"] for s in report["accesses"] + report["branches"]), reverse=True)
    keys, state = sort_by(page, "table.sites", "executions")
    expect(state == "descending" and numbers_then_blanks(keys, "executions") == executions,
           "sites by executions: %s (%s), expected %s descending" % (keys, state, executions))
    keys, state = sort_by(page, "table.sites", "kernel")
    expect(state == "ascending" and keys == sorted(keys) and len(set(keys)) > 1, "sites by kernel: %s" % keys)
    keys, _ = sort_by(page, "table.sites", "line")
    lines = [line_of(k) for k in keys]
    expect(lines == sorted(lines), "sites by line: %s" % lines)
    counts = sorted((r["count"] for r in report["races"]), reverse=True)
    keys, state = sort_by(page, "table.races", "count")
    expect(state == "descending" and [int(k) for k in keys] == counts, "races by count: %s (%s)" % (keys, state))
    ok("sorting by executions (largest first), kernel, line and race count")


def set_filter(page, kernel):
    page.evaluate("""(() => {
        const select = document.getElementById('kernel-filter');
        select.value = %s;
        select.dispatchEvent(new Event('change', {bubbles: true}));
    })()""" % json.dumps(kernel))
    page.settle()


def check_filter(page, report):
    for kernel in ("racy", "strided"):
        set_filter(page, kernel)
        sites = [s for s in report["accesses"] + report["branches"] if s["kernel"] == kernel]
        races = [r for r in report["races"] if r["kernel"] == kernel]
        shown = rows(page, "table.sites")
        expect(len(shown) == len(sites) and all(r[0] == kernel for r in shown),
               "filtered by %s, the sites table shows %s" % (kernel, [r[0] for r in shown]))
        expect(len(rows(page, "table.races")) == len(races), "filtered by %s, races are not filtered" % kernel)
        expect([r[0] for r in rows(page, "table.kernels")] == [kernel], "filtered by %s, kernels too" % kernel)
        notes = page.evaluate("""(() => {
            const all = Array.from(document.querySelectorAll('.note'));
            const shown = all.filter(n => n.getClientRects().length > 0);
            return {shown: shown.map(n => n.dataset.kernel), own: all.filter(n => n.dataset.kernel === %s).length};
        })()""" % json.dumps(kernel))
        expect(notes["own"] > 0 and notes["shown"] == [kernel] * notes["own"],
               "filtered by %s, the source notes shown are of %s" % (kernel, sorted(set(notes["shown"]))))
        caption = page.evaluate("document.querySelector('table.sites caption').textContent")
        expect("%d of %d" % (len(sites), len(report["accesses"]) + len(report["branches"])) in caption,
               "the sites table's caption says %r" % caption)
    set_filter(page, "")
    expect(len(rows(page, "table.sites")) == len(report["accesses"]) + len(report["branches"]) and
           page.evaluate("document.querySelectorAll('caption').length") == 0, "all kernels: not every row is back")
    ok("the kernel filter shows only racy's, then strided's rows and source notes, then everything again")


# Where the source rows of a finding's links are, and whether they are highlighted.
TARGETS_JS = """(() => {
    const row = document.querySelector(%s);
    return Array.from(row.querySelectorAll('a.src'), a => {
        const line = document.getElementById(a.hash.slice(1));
        const r = line.getBoundingClientRect();
        return {id: line.id, n: line.cells[0].textContent, highlighted: line.classList.contains('hl'),
                outlined: getComputedStyle(line).outlineStyle !== 'none',
                visible: r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0};
    });
})()"""


def check_race_click(page, report):
    races = [i for i, r in enumerate(report["races"]) if r["first"]["line"] != r["second"]["line"]]
    expect(races, "the report has no race between two different lines to follow")
    i = races[0]
    race = report["races"][i]
    row = 'table.races tr[data-finding="race-%d"]' % i
    page.evaluate("window.scrollTo(0, 0)")
    page.settle()
    before = page.evaluate(TARGETS_JS % json.dumps(row))
    expect(not any(t["visible"] for t in before), "the race's lines are in view before the click: nothing to test")
    page.click(row + " td:nth-child(4) a.src")  # its first access
    after = page.evaluate(TARGETS_JS % json.dumps(row))
    expect([int(t["n"]) for t in after] == [race["first"]["line"], race["second"]["line"]],
           "the race's links lead to lines %s" % [t["n"] for t in after])
    for t, which in zip(after, ("first", "second")):
        expect(t["highlighted"] and t["outlined"], "the race's %s line (%s) is not highlighted" % (which, t["n"]))
        expect(t["visible"], "the race's %s line (%s) is not in the window after the click" % (which, t["n"]))
    state = page.evaluate("""({hash: location.hash, row: document.querySelector(%s).classList.contains('hl'),
        lines: document.querySelectorAll('table.source tr.hl').length,
        notes: Array.from(document.querySelectorAll('.note.hl'), n => [n.dataset.finding, n.textContent,
                                                                     n.getClientRects().length > 0])})"""
                          % json.dumps(row))
    expect(state["hash"] == "#" + after[0]["id"], "the address says %r" % state["hash"])
    expect(state["row"], "the race's row is not highlighted")
    expect(state["lines"] == 2, "%d source lines are highlighted, expected the race's 2" % state["lines"])
    invocations = ["first access, by invocation (%d, %d, %d)" % tuple(race["first_invocation"]),
                   "second access, by invocation (%d, %d, %d)" % tuple(race["second_invocation"])]
    texts = [text for finding, text, shown in state["notes"] if finding == "race-%d" % i and shown]
    expect(len(state["notes"]) == 2 and all(any(inv in t for t in texts) for inv in invocations),
           "the highlighted notes are %s, expected the race's with %s" % (state["notes"], invocations))
    ok("a click on the %s race scrolls to lines %d and %d, both in view and highlighted with invocations %s and %s"
       % (race["kind"], race["first"]["line"], race["second"]["line"], race["first_invocation"],
          race["second_invocation"]))


def check_site_click(page, report):
    worst = min(range(len(report["accesses"])), key=lambda i: report["accesses"][i]["efficiency"])
    row = 'table.sites tr[data-finding="access-%d"]' % worst
    page.evaluate("window.scrollTo(0, 0)")
    page.settle()
    page.click(row + " a.src")
    target = page.evaluate(TARGETS_JS % json.dumps(row))[0]
    site = report["accesses"][worst]
    expect(int(target["n"]) == site["location"]["line"] and target["highlighted"] and target["visible"],
           "the worst site's line: %s" % target)
    notes = page.evaluate("Array.from(document.querySelectorAll('.note.hl'), n => n.dataset.finding)")
    expect(notes == ["access-%d" % worst], "highlighted notes after following the site: %s" % notes)
    expect(page.evaluate("document.querySelectorAll('table.source tr.hl').length") == 1,
           "the race's lines are still highlighted")
    ok("a click on the worst site (%.1f%%, line %d) scrolls to its line and highlights it alone"
       % (100 * site["efficiency"], site["location"]["line"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--writer", required=True, help="the write_report_page program")
    parser.add_argument("--work-dir", required=True, type=pathlib.Path, help="where the report and logs go")
    args = parser.parse_args()

    chromium = find_chromium()
    if chromium is None:
        print("FAIL: no chromium found (set SPRIG_CHROMIUM, or install Debian's chromium package: "
              "scripts/install-deps.sh does)", flush=True)
        return 1
    try:
        html, report = write_report(args.writer, args.work_dir)
        problems = Structure().check(html)
        expect(not problems, "the page is not well formed or not self-contained:\n  " + "\n  ".join(problems))
        ok("report.html is well formed and self-contained (%d bytes, one inline script)" % len(html))
        url = (args.work_dir / "report.html").resolve().as_uri()
        with Browser(chromium, str(args.work_dir / "chromium.log")) as browser:
            try:
                print("browser: %s (%s)" % (browser.version, chromium), flush=True)
                page = Page(browser)
                page.navigate(url)
                expect(page.evaluate("document.readyState") == "complete", "the page did not finish loading")
                found = page.problems(url)
                expect(not found, "loading the page: " + "; ".join(found))
                ok("the page loads with no script error")
                check_tables(page, report)
                check_sorting(page, report)
                check_filter(page, report)
                check_race_click(page, report)
                check_site_click(page, report)
                found = page.problems(url)
                expect(not found, "while using the page: " + "; ".join(found))
                ok("no script error, console error or request while using the page")
            except (Failure, BrowserError):
                tail = browser.log_tail()
                if tail:
                    print("chromium's log (%s), last lines:\n%s" % (args.work_dir / "chromium.log", tail))
                raise
    except (Failure, BrowserError) as e:
        print("FAIL: %s" % e, flush=True)
        return 1
    print("PASS: the HTML report works in %s" % chromium)
    return 0


if __name__ == "__main__":
    sys.exit(main())
