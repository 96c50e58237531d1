"""`pupcheck report --format html` in a real headless browser (Debian's Chromium),
driven through the DevTools protocol as a user would: the page renders; a mouse
click on a header sorts its table (the biggest first, then reversed); a header
reached by the keyboard sorts on Enter and Space; the "fix first" section holds every
error; every location's link, relative to the page, opens the file checked; at 800 px
the page does not scroll sideways (wide tables scroll in place); the dark theme
follows the browser's preference; and a page opened as `#sort=<table>:<column>:<asc|desc>`
comes sorted.

Run: python3 -m pytest tests/browser (needs /usr/bin/chromium: scripts/setup.sh).
"""

import json
import os
import pathlib
import subprocess
import urllib.parse

import pytest

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
    "--allow-file-access-from-files",
]
ROOTS = ["examples/demo", "tests/lsp/workspace", "tests/fixtures"]


class Browser:
    """Chromium with its DevTools protocol on a pipe (file descriptors 3 and 4, each
    message JSON ended by a NUL): one page, commands answered in order."""

    def __init__(self, profile, width=1200, height=1600):
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()

        def descriptors():
            # The browser reads commands on 3 and writes answers on 4.
            read, write = os.dup(to_browser_read), os.dup(from_browser_write)
            os.dup2(read, 3)
            os.dup2(write, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        self.process = subprocess.Popen(
            [CHROMIUM, *FLAGS, "--remote-debugging-pipe", f"--user-data-dir={profile}",
             f"--window-size={width},{height}", "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=descriptors,
            pass_fds=(3, 4),
        )
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.pending, self.next_id, self.session = b"", 0, None
        targets = self.send("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.send(
            "Target.attachToTarget", targetId=page["targetId"], flatten=True
        )["sessionId"]
        self.send("Page.enable")
        self.send("Runtime.enable")

    def send(self, method, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if self.session and not method.startswith("Target."):
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        while True:
            answer = self.receive()
            if answer.get("id") == self.next_id:
                assert "error" not in answer, answer
                return answer["result"]

    def receive(self):
        while b"\0" not in self.pending:
            chunk = os.read(self.from_browser, 1 << 16)
            assert chunk, "the browser closed the pipe"
            self.pending += chunk
        message, self.pending = self.pending.split(b"\0", 1)
        return json.loads(message)

    def open(self, url):
        self.send("Page.navigate", url=url)
        # Loaded once the page's script has run (it is the last element).
        for _ in range(200):
            if self.eval("document.readyState") == "complete":
                return
            self.send("Runtime.evaluate", expression="new Promise(r => setTimeout(r, 25))",
                      awaitPromise=True)
        raise AssertionError(f"{url} did not load")

    def eval(self, expression):
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True,
                           awaitPromise=True)
        assert "exceptionDetails" not in result, result
        return result["result"].get("value")

    def click(self, selector):
        # In view first: a mouse event lands only inside the window.
        box = self.eval(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)}); "
            "e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect(); "
            "return [r.x + r.width / 2, r.y + r.height / 2]; })()"
        )
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", type=kind, x=box[0], y=box[1],
                      button="left", clickCount=1)

    def press(self, key, code, key_code):
        self.send("Input.dispatchKeyEvent", type="keyDown", key=key, code=code,
                  windowsVirtualKeyCode=key_code)
        self.send("Input.dispatchKeyEvent", type="keyUp", key=key, code=code,
                  windowsVirtualKeyCode=key_code)

    def close(self):
        self.process.kill()
        self.process.wait()
        os.close(self.to_browser)
        os.close(self.from_browser)


def report(folder, *args):
    out = folder / "report.html"
    subprocess.run([BIN, "report", "--quiet", "--format", "html", "-o", str(out), *args,
                    *ROOTS], cwd=REPO, check=True)
    return out


def report_json():
    out = subprocess.run([BIN, "report", "--quiet", "--format", "json", *ROOTS], cwd=REPO,
                         check=True, capture_output=True)
    return json.loads(out.stdout)


@pytest.fixture
def browser(tmp_path):
    opened = Browser(tmp_path / "profile")
    yield opened
    opened.close()


def column(browser, table, index):
    return browser.eval(
        f"Array.from(document.querySelectorAll('#{table} tbody tr'))"
        f".map(r => r.cells[{index}].dataset.value ?? r.cells[{index}].textContent)"
    )


def test_the_page_renders(tmp_path, browser):
    page = report(tmp_path)
    browser.open(page.as_uri())
    shot = browser.send("Page.captureScreenshot", format="png")["data"]
    # A blank page is a few hundred bytes of base64; tables and bars are more.
    assert len(shot) > 20_000
    assert browser.eval("document.body.textContent.includes('demo::motd_lines')")
    assert browser.eval("document.querySelectorAll('#modules tbody tr').length") >= 3


def test_a_click_sorts_the_biggest_first_then_reverses(tmp_path, browser):
    browser.open(report(tmp_path).as_uri())
    by_rate = [float(v) for v in column(browser, "modules", 1)]
    assert by_rate == sorted(by_rate, reverse=True)
    # The "files" column: the first click puts the most files first.
    files = "#modules thead th:nth-child(8)"
    assert browser.eval(f"document.querySelector('{files}').textContent") == "files"
    browser.click(files)
    first = [float(v) for v in column(browser, "modules", 7)]
    assert first == sorted(first, reverse=True)
    assert browser.eval(f"document.querySelector('{files}').getAttribute('aria-sort')") \
        == "descending"
    browser.click(files)
    assert [float(v) for v in column(browser, "modules", 7)] == sorted(first)


def test_headers_sort_from_the_keyboard(tmp_path, browser):
    browser.open(report(tmp_path).as_uri())
    header = "#modules thead th:nth-child(1)"
    assert browser.eval(f"document.querySelector('{header}').tabIndex") == 0
    browser.eval(f"document.querySelector('{header}').focus()")
    browser.press("Enter", "Enter", 13)
    names = column(browser, "modules", 0)
    assert names == sorted(names, key=str.lower, reverse=True)
    browser.press(" ", "Space", 32)
    assert column(browser, "modules", 0) == sorted(names, key=str.lower)
    # Space sorted instead of scrolling the page.
    assert browser.eval("window.scrollY") == 0


def test_the_fix_first_section_holds_every_error(tmp_path, browser):
    browser.open(report(tmp_path).as_uri())
    estate = report_json()
    code = [g for g in estate["fix_first"] if g["part"] == "code"]
    assert code, "the fixtures have errors"
    rows = browser.eval(
        "Array.from(document.querySelectorAll('#fix-first tbody tr')).map(r => "
        "[parseInt(r.cells[0].textContent), r.cells[1].textContent, r.cells[2].textContent, "
        "r.cells[3].querySelectorAll('a').length])"
    )
    assert rows == [[g["count"], g["rule"], g["subject"] or "", g["count"]] for g in code]
    # The section comes before the type mismatches'.
    assert browser.eval(
        "document.getElementById('fix-first').compareDocumentPosition("
        "document.getElementById('mismatches')) & Node.DOCUMENT_POSITION_FOLLOWING"
    )


def test_links_are_relative_and_open_the_files(tmp_path, browser):
    folder = tmp_path / "artifacts"
    folder.mkdir()
    page = report(folder)
    text = page.read_text()
    assert "file://" not in text
    browser.open(page.as_uri())
    hrefs = browser.eval("Array.from(document.querySelectorAll('td.where a')).map(a => a.href)")
    assert hrefs
    for href in hrefs:
        url = urllib.parse.urlparse(href)
        assert url.scheme == "file" and url.fragment.startswith("L"), href
        assert pathlib.Path(urllib.parse.unquote(url.path)).is_file(), href
    # Moved with the code it reports on, the page's links still work.
    moved = tmp_path / "moved"
    subprocess.run(["cp", "-r", str(REPO / "examples"), str(moved)], check=True)
    (moved / "report").mkdir()
    out = moved / "report" / "r.html"
    subprocess.run([BIN, "report", "--quiet", "--format", "html", "-o", str(out), "demo"],
                   cwd=moved, check=True)
    assert 'href="../demo/manifests/' in out.read_text()


def test_it_fits_800_pixels_and_follows_the_dark_preference(tmp_path):
    page = report(tmp_path)
    narrow = Browser(tmp_path / "narrow", width=800, height=900)
    try:
        narrow.open(page.as_uri())
        assert narrow.eval("document.documentElement.scrollWidth <= window.innerWidth")
        light = narrow.eval("getComputedStyle(document.body).backgroundColor")
        narrow.send("Emulation.setEmulatedMedia",
                    features=[{"name": "prefers-color-scheme", "value": "dark"}])
        dark = narrow.eval("getComputedStyle(document.body).backgroundColor")
        assert light == "rgb(255, 255, 255)"
        red, green, blue = map(int, dark[4:-1].split(","))
        assert max(red, green, blue) < 64, dark
    finally:
        narrow.close()


def test_long_types_show_their_alias_name_and_the_whole_on_demand(tmp_path, browser):
    module = tmp_path / "m"
    (module / "manifests").mkdir(parents=True)
    (module / "types").mkdir()
    for name, text in [("path", "Variant[M::Unix, M::Win]"), ("unix", "Pattern[/\\A\\//]"),
                       ("win", "Pattern[/\\A[a-z]:/]")]:
        (module / "types" / f"{name}.pp").write_text(f"type M::{name.capitalize()} = {text}\n")
    (module / "manifests" / "init.pp").write_text(
        "# @param p\nclass m(M::Path $p = '/x') {\n}\n"
    )
    (module / "manifests" / "use.pp").write_text("# use\nclass m::use {\n  class { 'm': p => 1 }\n}\n")
    out = tmp_path / "r.html"
    subprocess.run([BIN, "report", "--quiet", "--format", "html", "-o", str(out), str(module)],
                   check=True)
    browser.open(out.as_uri())
    summary = browser.eval("document.querySelector('#mismatches td details summary').textContent")
    assert summary == "M::Path"
    whole = "document.querySelector('#mismatches td details > code')"
    assert not browser.eval(f"{whole}.checkVisibility()")
    browser.click("#mismatches td details summary")
    assert browser.eval(f"{whole}.checkVisibility()")
    assert "Pattern[" in browser.eval(f"{whole}.textContent")


def test_a_page_opens_sorted_from_its_address(tmp_path, browser):
    page = report(tmp_path)
    browser.open(page.as_uri() + "#sort=modules:1:asc")
    rates = [float(v) for v in column(browser, "modules", 1)]
    assert rates == sorted(rates)
