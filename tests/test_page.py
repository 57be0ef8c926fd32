"""Tests of the woven page, out/gemm.html (`make html`, docs/html.mk).

Builds the page from gemm.md (or, while gemm.md does not exist yet, from
tests/fixtures_page/sample.md) into a temporary folder, then checks

* the build itself: make html works, fails clearly without pandoc, with a
  broken syntax definition or when tangle.py --map disagrees with pandoc;
* the HTML: self-contained (no external resource of any kind), every tangled
  block present verbatim and labelled with its lines in out/gemm.cu,
  collapsible blocks, CUDA highlighting, figures up to date, and the
  committed out/gemm.html in sync with gemm.md;
* the page in headless Chromium, driven over the DevTools protocol with a
  small standard-library websocket client: no console errors, no failed
  requests, no request for anything but the page itself and data: URIs,
  every table-of-contents link lands on an element, no horizontal overflow
  at 375 px and 1280 px. Screenshots go to out/screenshots/ (not in git).

Tests that need pandoc, tangle.py or Chromium skip, with the reason, when
the tool is missing. Every subprocess and every browser call has a timeout.
Environment: PANDOC, CHROMIUM (paths), GEMM_TANGLE (a tangle.py to use
instead of the repository's).
"""

import atexit
import base64
import hashlib
import html
import html.parser
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures_page" / "sample.md"
GEMM_MD = ROOT / "gemm.md"
SCREENSHOTS = ROOT / "out" / "screenshots"
PANDOC = os.environ.get("PANDOC", "pandoc")
TANGLE = Path(os.environ.get("GEMM_TANGLE", ROOT / "tangle.py"))
BUILD_TIMEOUT = 300
BROWSER_TIMEOUT = 30
WIDTHS = (375, 1280)


def source_md():
    """gemm.md once it exists, the fixture until then."""
    return GEMM_MD if GEMM_MD.exists() else FIXTURE


def have_pandoc():
    return shutil.which(PANDOC) is not None


def find_chromium():
    """$CHROMIUM if set (only it), else chromium or Chrome from PATH."""
    if os.environ.get("CHROMIUM"):
        return shutil.which(os.environ["CHROMIUM"])
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def make_command():
    """`make html` through the top Makefile once it includes docs/html.mk."""
    makefile = ROOT / "Makefile"
    if makefile.exists() and "docs/html.mk" in makefile.read_text(encoding="utf-8"):
        return ["make", "--no-print-directory", "-C", str(ROOT)]
    return ["make", "--no-print-directory", "-C", str(ROOT), "-f", "docs/html.mk"]


def run_make(*variables, target="html"):
    command = make_command() + [target, "PANDOC=" + PANDOC] + list(variables)
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=BUILD_TIMEOUT)


_TEMP = tempfile.mkdtemp(prefix="test_page_")
atexit.register(shutil.rmtree, _TEMP, True)
_BUILD = {}


def build_page():
    """Build the page once per run; returns (CompletedProcess, Path of the page)."""
    if not _BUILD:
        out = Path(_TEMP) / "build" / "gemm.html"
        result = run_make("HTML_SRC=" + str(source_md().relative_to(ROOT)),
                          "HTML_OUT=" + str(out), "TANGLE_PY=" + str(TANGLE))
        _BUILD["result"], _BUILD["page"] = result, out
    return _BUILD["result"], _BUILD["page"]


def tangle_map(md):
    result = subprocess.run([sys.executable, str(TANGLE), str(md), "--map"], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        raise AssertionError("tangle.py --map failed: " + result.stderr)
    return json.loads(result.stdout)


def pandoc_json(md):
    result = subprocess.run([PANDOC, "--from=markdown", "--to=json", "--preserve-tabs", str(md)], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        raise AssertionError("pandoc -t json failed: " + result.stderr)
    return json.loads(result.stdout)


def code_blocks(node):
    """All CodeBlock elements of a pandoc JSON AST, in document order."""
    if isinstance(node, dict):
        if node.get("t") == "CodeBlock":
            yield node
        for value in node.values():
            yield from code_blocks(value)
    elif isinstance(node, list):
        for value in node:
            yield from code_blocks(value)


class PageParser(html.parser.HTMLParser):
    """Collects what the tests look at: listings, details, links, ids, resources."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
            "source", "track", "wbr"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []           # open elements: (tag, attrs)
        self.listings = []        # dicts: cu_lines, md_lines, tag, label, code
        self.details = []         # dicts: summary text
        self.ids = set()
        self.duplicate_ids = []
        self.pre_texts = []       # text of every <pre>, entities decoded
        self.anchors = []         # (href, inside TOC?)
        self.resources = []       # (tag, attribute, value) of every src/href
        self.styles = []          # text of <style> elements and style attributes
        self.scripts = 0
        self.listing = None       # the listing being read
        self.in_pre = 0
        self.in_summary = None
        self.in_style = False
        self.in_label = False

    def handle_starttag(self, tag, attr_list):
        attrs = dict(attr_list)
        if "id" in attrs:
            if attrs["id"] in self.ids:
                self.duplicate_ids.append(attrs["id"])
            self.ids.add(attrs["id"])
        if "name" in attrs and tag == "a":
            self.ids.add(attrs["name"])
        for key in ("src", "href", "data", "poster", "srcset"):
            if key in attrs and attrs[key] is not None:
                self.resources.append((tag, key, attrs[key]))
        if "style" in attrs and attrs["style"]:
            self.styles.append(attrs["style"])
        if tag == "script":
            self.scripts += 1
        if tag == "style":
            self.in_style = True
        if tag == "a" and attrs.get("href") is not None:
            in_toc = any(a.get("id") == "TOC" for _, a in self.stack)
            self.anchors.append((attrs["href"], in_toc))
        if "data-cu-lines" in attrs and self.listing is None:
            self.listing = {"cu_lines": attrs["data-cu-lines"], "md_lines": attrs.get("data-md-lines"),
                            "tag": tag, "label": "", "code": "", "depth": len(self.stack)}
            self.listings.append(self.listing)
        if tag == "details":
            self.details.append({"summary": "", "classes": (attrs.get("class") or "").split()})
        if tag == "summary" and self.details:
            self.in_summary = self.details[-1]
        if self.listing is not None and "cu-lines" in (attrs.get("class") or "").split():
            self.in_label = True
        if tag == "pre":
            self.in_pre += 1
            if self.in_pre == 1:
                self.pre_texts.append("")
        if tag not in self.VOID:
            self.stack.append((tag, attrs))

    def handle_endtag(self, tag):
        while self.stack:
            open_tag, attrs = self.stack.pop()
            if open_tag == "pre":
                self.in_pre -= 1
            if open_tag == "summary":
                self.in_summary = None
            if "cu-lines" in (attrs.get("class") or "").split():
                self.in_label = False
            if self.listing is not None and len(self.stack) == self.listing["depth"]:
                self.listing = None
            if open_tag == tag:
                break
        if tag == "style":
            self.in_style = False

    def handle_data(self, data):
        if self.in_style:
            self.styles.append(data)
        if self.in_summary is not None:
            self.in_summary["summary"] += data
        if self.in_pre:
            self.pre_texts[-1] += data
        if self.listing is not None:
            if self.in_pre:
                self.listing["code"] += data
            elif self.in_label:
                self.listing["label"] += data


def parse_page(path):
    parser = PageParser()
    parser.feed(path.read_text(encoding="utf-8"))
    parser.close()
    return parser


class PageBuildMixin:
    """Skips unless pandoc and tangle.py exist; builds the page once."""

    @classmethod
    def setUpClass(cls):
        if not have_pandoc():
            raise unittest.SkipTest("pandoc not installed (Debian: apt-get install pandoc)")
        if not TANGLE.exists():
            raise unittest.SkipTest("tangle.py not found at %s" % TANGLE)
        cls.result, cls.page = build_page()
        cls.md = source_md()

    def require_built(self):
        self.assertEqual(self.result.returncode, 0,
                         "make html failed:\n" + self.result.stdout + self.result.stderr)
        self.assertTrue(self.page.exists(), "make html succeeded but wrote no %s" % self.page)


class TestBuild(PageBuildMixin, unittest.TestCase):

    def test_make_html_builds_a_standalone_page(self):
        self.require_built()
        text = self.page.read_text(encoding="utf-8")
        self.assertTrue(text.lstrip().lower().startswith("<!doctype html>"), text[:200])
        self.assertIn('<nav id="TOC"', text, "no table of contents")
        self.assertIn('class="header-section-number"', text, "sections are not numbered")
        self.assertFalse(Path(str(self.page) + ".tmp").exists(), "temporary file left behind")

    def test_rebuild_is_identical(self):
        """pandoc and the filters are deterministic (so out/gemm.html can live in git)."""
        self.require_built()
        # Lua tables have a per-process random order: two more runs catch most slips
        for run in range(2):
            again = Path(_TEMP) / ("again%d" % run) / "gemm.html"
            result = run_make("HTML_SRC=" + str(self.md.relative_to(ROOT)), "HTML_OUT=" + str(again),
                              "TANGLE_PY=" + str(TANGLE))
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertEqual(hashlib.sha256(again.read_bytes()).hexdigest(),
                             hashlib.sha256(self.page.read_bytes()).hexdigest())

    def test_committed_page_is_in_sync(self):
        if not GEMM_MD.exists():
            self.skipTest("gemm.md does not exist yet")
        self.require_built()
        committed = ROOT / "out" / "gemm.html"
        self.assertTrue(committed.exists(), "out/gemm.html is missing: run make html")
        self.assertTrue(committed.read_bytes() == self.page.read_bytes(),
                        "out/gemm.html is not what gemm.md weaves to: run make html")

    def test_broken_syntax_definition_fails_the_build(self):
        broken = Path(_TEMP) / "broken.xml"
        broken.write_text('<?xml version="1.0"?>\n<language name="CUDA"><highlighting>\n',
                          encoding="utf-8")
        out = Path(_TEMP) / "broken" / "gemm.html"
        result = run_make("HTML_SRC=" + str(self.md.relative_to(ROOT)), "HTML_OUT=" + str(out),
                          "TANGLE_PY=" + str(TANGLE), "HTML_SYNTAX=" + str(broken))
        self.assertNotEqual(result.returncode, 0, "a broken syntax definition was accepted")
        self.assertIn("make html: pandoc failed", result.stderr)
        self.assertFalse(out.exists(), "a failed build left a page behind")

    def test_map_that_disagrees_with_pandoc_fails_the_build(self):
        real = tangle_map(self.md)
        self.assertGreater(len(real), 0)
        fake = Path(_TEMP) / "fake_tangle.py"
        # one block fewer than the document has
        fake.write_text("import json\nprint(json.dumps(%r))\n" % real[:-1], encoding="utf-8")
        out = Path(_TEMP) / "fake" / "gemm.html"
        result = run_make("HTML_SRC=" + str(self.md.relative_to(ROOT)), "HTML_OUT=" + str(out),
                          "TANGLE_PY=" + str(fake))
        self.assertNotEqual(result.returncode, 0, "a wrong block count was accepted")
        self.assertIn("cu-lines.lua", result.stderr)
        self.assertFalse(out.exists())

    def test_figures_are_up_to_date(self):
        result = subprocess.run([sys.executable, "docs/figures/make_figures.py", "--check"], cwd=ROOT,
                                capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 0, result.stderr)


class TestWithoutPandoc(unittest.TestCase):
    """Needs only make: what `make html` says on a machine without pandoc."""

    def test_missing_pandoc_is_reported_with_the_package_name(self):
        if shutil.which("make") is None:
            self.skipTest("make not installed")
        stand_in = Path(_TEMP) / "no_tangle.py"     # make wants the prerequisite to exist
        stand_in.write_text("", encoding="utf-8")
        out = Path(_TEMP) / "nopandoc" / "gemm.html"
        result = run_make("HTML_SRC=" + str(source_md().relative_to(ROOT)), "HTML_OUT=" + str(out),
                          "TANGLE_PY=" + str(stand_in), "PANDOC=/nonexistent/pandoc")
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("pandoc not found", result.stderr)
        self.assertIn("apt-get install pandoc", result.stderr)
        self.assertFalse(out.exists())


class TestContent(PageBuildMixin, unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        if cls.result.returncode != 0:
            raise unittest.SkipTest("the page did not build (see TestBuild)")
        cls.parsed = parse_page(cls.page)
        cls.map = tangle_map(cls.md)
        cls.md_lines = cls.md.read_text(encoding="utf-8").split("\n")
        cu = Path(_TEMP) / "tangled" / "gemm.cu"
        cu.parent.mkdir(parents=True, exist_ok=True)
        result = subprocess.run([sys.executable, str(TANGLE), str(cls.md), "-o", str(cu)], cwd=ROOT,
                                capture_output=True, text=True, timeout=60)
        cls.cu_lines = cu.read_text(encoding="utf-8").split("\n") if result.returncode == 0 else None
        cls.tangle_error = result.stderr

    def block_text_in_md(self, entry):
        """The block's content as pandoc reads it: fence indentation removed."""
        fence = self.md_lines[entry["md_first"] - 2]
        indent = len(fence) - len(fence.lstrip(" "))
        lines = self.md_lines[entry["md_first"] - 1:entry["md_last"]]
        return "\n".join(re.sub("^ {0,%d}" % indent, "", line) for line in lines)

    def test_every_tangled_block_is_on_the_page(self):
        listings = {listing["cu_lines"]: listing for listing in self.parsed.listings}
        self.assertEqual(len(self.parsed.listings), len(self.map),
                         "the page has %d labelled blocks, tangle.py --map lists %d"
                         % (len(self.parsed.listings), len(self.map)))
        self.assertIsNotNone(self.cu_lines, "tangle.py -o failed: %s" % self.tangle_error)
        for entry in self.map:
            key = "%d-%d" % (entry["cu_first"], entry["cu_last"])
            self.assertIn(key, listings, "no block labelled data-cu-lines=%s" % key)
            code = listings[key]["code"].rstrip("\n")
            self.assertEqual(code, self.block_text_in_md(entry),
                             "block %d differs from gemm.md lines %d-%d"
                             % (entry["index"], entry["md_first"], entry["md_last"]))
            tangled = "\n".join(self.cu_lines[entry["cu_first"] - 1:entry["cu_last"]])
            self.assertEqual(code, tangled, "block %d differs from out/gemm.cu lines %s"
                             % (entry["index"], key))

    def test_every_tangled_block_is_labelled(self):
        for listing, entry in zip(self.parsed.listings, self.map):
            expected = "out/gemm.cu lines %d–%d" % (entry["cu_first"], entry["cu_last"])
            self.assertEqual(" ".join(listing["label"].split()), expected)
            self.assertEqual(listing["md_lines"], "%d-%d" % (entry["md_first"], entry["md_last"]))

    def test_details_blocks_fold_with_their_summary(self):
        expected = []
        for block in code_blocks(pandoc_json(self.md)):
            (_, classes, attributes), _ = block["c"]
            if "details" in classes:
                expected.append(dict(attributes).get("summary", "Show the code"))
        folded = [d for d in self.parsed.details if "listing" in d["classes"]]
        self.assertEqual(len(folded), len(expected), "collapsible blocks on the page vs. in the source")
        for details, summary in zip(folded, expected):
            # the summary is Markdown: compare its text, without backticks
            text = " ".join(details["summary"].split())
            self.assertTrue(text.startswith(" ".join(summary.replace("`", "").split())),
                            "summary %r does not start with %r" % (text, summary))

    def test_no_code_block_is_lost(self):
        """Every code block, tangled or not (sh, text, ...), is on the page verbatim."""
        shown = [text.rstrip("\n") for text in self.parsed.pre_texts]
        blocks = list(code_blocks(pandoc_json(self.md)))
        self.assertEqual(len(shown), len(blocks), "<pre> elements vs. code blocks in the source")
        for block, text in zip(blocks, shown):
            self.assertEqual(text, block["c"][1])

    def test_ids_are_unique(self):
        """Headings, figures and the template must not reuse an id (links would go astray)."""
        self.assertEqual(self.parsed.duplicate_ids, [])

    def test_cuda_is_highlighted(self):
        text = self.page.read_text(encoding="utf-8")
        self.assertIn('class="sourceCode cuda"', text, "cuda blocks are not highlighted")
        source = "\n".join(block["c"][1] for block in code_blocks(pandoc_json(self.md))
                            if block["c"][0][1][:1] == ["cuda"])
        for word, cls in (("__global__", "kw"), ("__shared__", "kw"), ("threadIdx", "bu"),
                          ("blockIdx", "bu"), ("wmma::mma_sync", "fu"), ("wmma::load_matrix_sync", "fu")):
            if re.search(r"\b%s\b" % re.escape(word), source):
                self.assertIn('<span class="%s">%s</span>' % (cls, word), text,
                              "%s is not highlighted as %s" % (word, cls))

    def test_page_is_self_contained(self):
        self.assertEqual(self.parsed.scripts, 0, "the page has scripts")
        for tag, attribute, value in self.parsed.resources:
            if tag == "a" and attribute == "href":
                continue          # hyperlinks are not fetched
            self.assertTrue(value.startswith("data:"), "%s %s=%r is not embedded" % (tag, attribute, value[:80]))
        for style in self.parsed.styles:
            for url in re.findall(r"url\(\s*['\"]?([^'\")]*)", style):
                self.assertTrue(url.startswith("data:") or url.startswith("#"), "CSS url(%s)" % url[:80])
            self.assertNotIn("@import", style)

    def test_figures_have_alt_text_and_caption(self):
        text = self.page.read_text(encoding="utf-8")
        for match in re.finditer(r"<img\b[^>]*>", text):
            alt = re.search(r'\balt="([^"]*)"', match.group(0))
            self.assertTrue(alt and alt.group(1).strip(), "an image without alt text")
        self.assertEqual(text.count("<figure"), text.count("<figcaption>"), "a figure without caption")


# ---------------------------------------------------------------------------
# Headless Chromium over the DevTools protocol (standard library only)

class WebSocket:
    """Just enough of RFC 6455 for the DevTools protocol: text frames, client side."""

    def __init__(self, url, timeout):
        parsed = urllib.parse.urlparse(url)
        self.sock = socket.create_connection((parsed.hostname, parsed.port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        request = ("GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n"
                   % (parsed.path or "/", parsed.hostname, parsed.port, key))
        self.sock.sendall(request.encode())
        self.buffer = bytearray()
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        head, _, rest = bytes(self.buffer).partition(b"\r\n\r\n")
        self.buffer = bytearray(rest)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise ConnectionError("websocket handshake refused: %r" % head[:200])
        accept = base64.b64encode(hashlib.sha1(
            (key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest())
        if accept not in head:
            raise ConnectionError("websocket handshake: bad Sec-WebSocket-Accept")

    def _fill(self):
        chunk = self.sock.recv(1 << 16)
        if not chunk:
            raise ConnectionError("the browser closed the connection")
        self.buffer += chunk

    def _take(self, count):
        while len(self.buffer) < count:
            self._fill()
        data = bytes(self.buffer[:count])
        del self.buffer[:count]
        return data

    def _send_frame(self, opcode, payload):
        header = bytearray([0x80 | opcode])
        length = len(payload)
        if length < 126:
            header.append(0x80 | length)
        elif length < 1 << 16:
            header.append(0x80 | 126)
            header += length.to_bytes(2, "big")
        else:
            header.append(0x80 | 127)
            header += length.to_bytes(8, "big")
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(bytes(header) + mask + masked)

    def send(self, text):
        self._send_frame(0x1, text.encode("utf-8"))

    def recv(self, timeout):
        """The next text message; raises socket.timeout after `timeout` seconds."""
        self.sock.settimeout(max(timeout, 0.001))
        message = bytearray()
        while True:
            first, second = self._take(2)
            opcode, length = first & 0x0F, second & 0x7F
            if length == 126:
                length = int.from_bytes(self._take(2), "big")
            elif length == 127:
                length = int.from_bytes(self._take(8), "big")
            mask = self._take(4) if second & 0x80 else None
            payload = self._take(length)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if opcode == 0x8:
                raise ConnectionError("the browser closed the websocket")
            if opcode == 0x9:
                self._send_frame(0xA, payload)
                continue
            if opcode in (0x1, 0x2, 0x0):
                message += payload
                if first & 0x80:
                    return message.decode("utf-8")

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


class Browser:
    """A headless Chromium with one page, attached through a flat DevTools session."""

    def __init__(self, executable, timeout=BROWSER_TIMEOUT):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="chromium_", dir=_TEMP)
        command = [executable, "--headless", "--no-sandbox", "--disable-gpu",
                   "--remote-debugging-port=0", "--user-data-dir=" + self.profile,
                   "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                   "--disable-background-networking", "--disable-component-update",
                   "--disable-sync", "--disable-default-apps", "--mute-audio",
                   "--hide-scrollbars", "about:blank"]
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True)
        self.ws = None
        self.events = []
        self.next_id = 0
        try:
            port_file = Path(self.profile) / "DevToolsActivePort"
            deadline = time.monotonic() + timeout
            while not (port_file.exists() and len(port_file.read_text().split("\n")) >= 2):
                if self.process.poll() is not None:
                    raise RuntimeError("chromium exited with status %d" % self.process.returncode)
                if time.monotonic() > deadline:
                    raise RuntimeError("chromium did not open its DevTools port in %d s" % timeout)
                time.sleep(0.1)
            port, path = port_file.read_text().split("\n")[:2]
            self.ws = WebSocket("ws://127.0.0.1:%s%s" % (port.strip(), path.strip()), timeout)
            target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
            self.session = self.call("Target.attachToTarget",
                                     {"targetId": target, "flatten": True})["sessionId"]
            for domain in ("Page", "Runtime", "Log", "Network"):
                self.call(domain + ".enable", session=True)
        except BaseException:
            self.close()
            raise

    def call(self, method, params=None, session=False):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self.session
        self.ws.send(json.dumps(message))
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._receive(deadline, method)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def _receive(self, deadline, what):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("no answer from chromium for %s in %d s" % (what, self.timeout))
        try:
            return json.loads(self.ws.recv(remaining))
        except socket.timeout:
            raise TimeoutError("no answer from chromium for %s in %d s" % (what, self.timeout))

    def wait_event(self, method, seconds):
        deadline = time.monotonic() + seconds
        while True:
            for event in self.events:
                if event["method"] == method:
                    return event
            self.events.append(self._receive(deadline, method))

    def drain(self, seconds):
        """Collect the events that arrive within `seconds`."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                self.events.append(json.loads(self.ws.recv(deadline - time.monotonic())))
            except socket.timeout:
                break

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True}, session=True)
        if "exceptionDetails" in result:
            raise RuntimeError("JavaScript error: %s" % json.dumps(result["exceptionDetails"])[:500])
        return result["result"].get("value")

    def viewport(self, width, height, dark=False):
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
                  session=True)
        self.call("Emulation.setEmulatedMedia",
                  {"features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]},
                  session=True)

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", {"format": "png"}, session=True)["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))

    def close(self):
        if self.ws is not None:
            self.ws.close()
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(timeout=10)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                try:
                    os.killpg(self.process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.process.wait(timeout=10)


OVERFLOW_CULPRITS = """
((width) => {
  const found = [];
  for (const element of document.querySelectorAll('body *')) {
    const box = element.getBoundingClientRect();
    if (box.width > 0 && box.right > width + 0.5) {
      let inside_scroller = false;
      for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
        const style = getComputedStyle(up);
        if (['auto', 'scroll', 'hidden'].includes(style.overflowX)) { inside_scroller = true; break; }
      }
      if (!inside_scroller)
        found.push(element.tagName.toLowerCase() + (element.id ? '#' + element.id : '') +
                   (element.className && typeof element.className === 'string'
                      ? '.' + element.className.trim().split(/\\s+/).join('.') : '') +
                   ' right=' + Math.round(box.right));
    }
    if (found.length >= 8) break;
  }
  return found;
})(%d)
"""


class TestBrowser(PageBuildMixin, unittest.TestCase):
    """The page in a real browser, opened as a file from a folder of its own."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        if cls.result.returncode != 0:
            raise unittest.SkipTest("the page did not build (see TestBuild)")
        chromium = find_chromium()
        if chromium is None:
            raise unittest.SkipTest("chromium not installed (Debian: apt-get install chromium)")
        folder = Path(tempfile.mkdtemp(prefix="page_", dir=_TEMP))   # away from docs/ and out/
        cls.copy = folder / "gemm.html"
        shutil.copyfile(cls.page, cls.copy)
        cls.url = cls.copy.as_uri()
        cls.browser = Browser(chromium)
        try:
            cls.browser.viewport(1280, 900)
            navigation = cls.browser.call("Page.navigate", {"url": cls.url}, session=True)
            if navigation.get("errorText"):
                raise RuntimeError("navigation failed: " + navigation["errorText"])
            cls.browser.wait_event("Page.loadEventFired", BROWSER_TIMEOUT)
            cls.browser.drain(0.5)
            cls.load_events = list(cls.browser.events)
        except BaseException:
            cls.browser.close()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.browser.close()

    def test_no_console_errors(self):
        errors = []
        for event in self.load_events:
            method, params = event["method"], event.get("params", {})
            if method == "Runtime.exceptionThrown":
                errors.append(json.dumps(params["exceptionDetails"])[:300])
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                errors.append(json.dumps(params.get("args"))[:300])
            elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
                errors.append(params["entry"].get("text", "")[:300])
        self.assertEqual(errors, [])

    def test_no_failed_requests(self):
        failed = [e["params"] for e in self.load_events if e["method"] == "Network.loadingFailed"]
        self.assertEqual(failed, [])

    def test_requests_only_the_page_itself_and_data_uris(self):
        urls = [e["params"]["request"]["url"] for e in self.load_events
                if e["method"] == "Network.requestWillBeSent"]
        self.assertIn(self.url, [url.split("#")[0] for url in urls], "the page itself was not requested")
        others = [url[:100] for url in urls if url.split("#")[0] != self.url and not url.startswith("data:")]
        self.assertEqual(others, [])

    def test_table_of_contents_links_resolve(self):
        self.browser.viewport(1280, 900)
        missing = self.browser.evaluate("""
          (() => {
            const links = [...document.querySelectorAll('#TOC a')];
            if (links.length === 0) return ['no links in #TOC'];
            return links.map(a => a.getAttribute('href'))
                        .filter(h => !h.startsWith('#') ||
                                     !document.getElementById(decodeURIComponent(h.slice(1))));
          })()""")
        self.assertEqual(missing, [])

    def test_internal_links_resolve(self):
        missing = self.browser.evaluate("""
          [...document.querySelectorAll('a[href^="#"]')].map(a => a.getAttribute('href'))
            .filter(h => h.length > 1 && !document.getElementById(decodeURIComponent(h.slice(1))))""")
        self.assertEqual(missing, [])

    def check_width(self, width, height):
        for dark in (False, True):
            self.browser.viewport(width, height, dark)
            metrics = self.browser.evaluate(
                "({inner: window.innerWidth, scroll: document.documentElement.scrollWidth,"
                " body: document.body.scrollWidth})")
            culprits = self.browser.evaluate(OVERFLOW_CULPRITS % width)
            # on a phone, content wider than the screen makes the viewport zoom out
            self.assertEqual(metrics["inner"], width, "the viewport is %d px wide, not %d: horizontal "
                             "overflow? %r" % (metrics["inner"], width, culprits))
            self.assertLessEqual(metrics["scroll"], metrics["inner"],
                                 "horizontal overflow at %d px: %r" % (width, culprits))
            self.assertLessEqual(metrics["body"], metrics["inner"],
                                 "horizontal overflow at %d px: %r" % (width, culprits))
            self.screenshots(width, height, "dark" if dark else "light")

    def screenshots(self, width, height, scheme):
        """Views worth a look: the top, the first listing, figure, folded block and table."""
        places = [("top", None), ("code", ".listing"), ("figure", "figure"),
                  ("details", "details.listing"), ("table", ".table-wrap")]
        for name, selector in places:
            if selector is None:
                found = self.browser.evaluate("window.scrollTo(0, 0), true")
            else:
                found = self.browser.evaluate(
                    "(() => { const e = document.querySelector('%s'); if (!e) return false;"
                    " if (e.tagName === 'DETAILS') e.open = true;"
                    " e.scrollIntoView({block: 'start'}); window.scrollBy(0, -16); return true; })()"
                    % selector)
            if found:
                self.browser.screenshot(SCREENSHOTS / ("%d-%s-%s.png" % (width, scheme, name)))
        self.browser.evaluate("document.querySelectorAll('details.listing').forEach(d => d.open = false),"
                              " window.scrollTo(0, 0), true")

    def test_no_horizontal_overflow_at_375px(self):
        self.check_width(375, 812)

    def test_no_horizontal_overflow_at_1280px(self):
        self.check_width(1280, 900)

    def test_no_horizontal_overflow_with_details_open(self):
        self.browser.viewport(375, 812)
        self.browser.evaluate("document.querySelectorAll('details').forEach(d => d.open = true), true")
        try:
            metrics = self.browser.evaluate(
                "({inner: window.innerWidth, scroll: document.documentElement.scrollWidth})")
            self.assertLessEqual(metrics["scroll"], metrics["inner"], self.browser.evaluate(OVERFLOW_CULPRITS % 375))
        finally:
            self.browser.evaluate("document.querySelectorAll('details.listing').forEach(d => d.open = false),"
                                  " true")


if __name__ == "__main__":
    unittest.main(verbosity=2)
