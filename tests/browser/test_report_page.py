"""`pupcheck report --format html` in a real headless browser (Debian's Chromium):
the page renders, and its tables sort (the same function a click on a header calls,
run here from the page's address, `#sort=<table>:<column>:<asc|desc>`).

Run: python3 -m pytest tests/browser (needs /usr/bin/chromium: scripts/setup.sh).
"""

import html.parser
import os
import pathlib
import subprocess

REPO = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("PUPCHECK_BIN", str(REPO / "target" / "debug" / "pupcheck"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium(tmp_path, *args):
    profile = tmp_path / "profile"
    out = subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args],
        capture_output=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr.decode()
    return out.stdout.decode()


class Rows(html.parser.HTMLParser):
    """The text of each cell of the table with the given id, row by row."""

    def __init__(self, table_id):
        super().__init__()
        self.table_id, self.inside, self.rows, self.cell = table_id, False, [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table" and attrs.get("id") == self.table_id:
            self.inside = True
        elif self.inside and tag == "tr":
            self.rows.append([])
        elif self.inside and tag in ("td", "th"):
            self.cell = ""

    def handle_endtag(self, tag):
        if tag == "table":
            self.inside = False
        elif self.inside and tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(self.cell.strip())
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def table(dom, table_id):
    parser = Rows(table_id)
    parser.feed(dom)
    return parser.rows[1:]


def page(tmp_path):
    report = tmp_path / "report.html"
    subprocess.run(
        [BIN, "report", "--quiet", "--format", "html", "-o", str(report),
         "examples/demo", "tests/lsp/workspace", "tests/fixtures"],
        cwd=REPO,
        check=True,
    )
    return report


def test_the_page_renders(tmp_path):
    report = page(tmp_path)
    shot = tmp_path / "shot.png"
    chromium(tmp_path, f"--screenshot={shot}", "--window-size=1200,1600", report.as_uri())
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    # A blank page compresses to a few hundred bytes; tables and bars do not.
    assert len(data) > 20_000
    dom = chromium(tmp_path, "--dump-dom", report.as_uri())
    assert "demo::motd_lines" in dom
    assert len(table(dom, "modules")) >= 3


def test_the_tables_sort(tmp_path):
    report = page(tmp_path)
    as_written = table(chromium(tmp_path, "--dump-dom", report.as_uri()), "modules")
    by_rate = [float(row[1]) for row in as_written]
    assert by_rate == sorted(by_rate, reverse=True)
    ascending = table(
        chromium(tmp_path, "--dump-dom", report.as_uri() + "#sort=modules:1:asc"), "modules"
    )
    assert [float(row[1]) for row in ascending] == sorted(by_rate)
    by_name = table(
        chromium(tmp_path, "--dump-dom", report.as_uri() + "#sort=modules:0:desc"), "modules"
    )
    names = [row[0] for row in by_name]
    assert names == sorted(names, key=str.lower, reverse=True)
    assert sorted(map(tuple, by_name)) == sorted(map(tuple, as_written))
