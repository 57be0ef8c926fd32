"""Tests of the woven page, out/gemm.html (`make html`, docs/html.mk).

Builds the page from gemm.md (or, while gemm.md does not exist yet, from
tests/fixtures_page/sample.md) into a temporary folder, then checks

* the build itself: make html works, fails clearly without pandoc, with a
  broken syntax definition or when tangle.py --map disagrees with pandoc;
* the HTML: self-contained (no external resource of any kind), every tangled
  block present verbatim and labelled with its lines in out/gemm.cu,
  collapsible blocks, CUDA highlighting, figures up to date, and the
  committed out/gemm.html in sync with gemm.md;
* pandoc 3: the page built again with the pandoc 3 binary of the
  pypandoc_binary wheel (tests/requirements.txt) has the same code blocks,
  math, figures and table of contents as the page of the system pandoc
  (Debian bookworm's 2.17);
* the page in headless Chromium, driven by Selenium through Debian's
  chromedriver: no console errors, no failed requests, no request for
  anything but the page itself and data: URIs, every table-of-contents link
  lands on an element, no horizontal overflow at 375 px and 1280 px in the
  light and the dark colour scheme;
* reading comfort (issue 33): at 1280 px no table, figure or code block is
  wider than the column; on a phone every table shows a number on its first
  screen; the plots' smallest text is 10 px or more as shown, at both widths,
  and follows the colour scheme; the contents mark the section being read,
  move the mark as one scrolls, unfold only the current chapter, start closed
  on a phone and are whole without the script; every text colour has 4.5:1
  contrast in both themes.
  Screenshots go to out/screenshots/ (not in git): for each width and
  scheme, the top, a listing, a figure, a folded block, a table, the Results
  plot, the widest table and the contents while one reads the Hopper part.

Tests that need pandoc, tangle.py, the pandoc 3 binary, Chromium,
chromedriver or Selenium skip, with the reason, when it is missing. Every
subprocess and every browser call has a timeout.
Environment: PANDOC, PANDOC3, CHROMIUM, CHROMEDRIVER (paths), GEMM_TANGLE
(a tangle.py to use instead of the repository's).
"""

import hashlib
import html.parser
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures_page" / "sample.md"
GEMM_MD = ROOT / "gemm.md"
SCREENSHOTS = ROOT / "out" / "screenshots"
PANDOC = os.environ.get("PANDOC", "pandoc")
TANGLE = Path(os.environ.get("GEMM_TANGLE", ROOT / "tangle.py"))
BUILD_TIMEOUT = 300
BROWSER_TIMEOUT = 30
VIEWS = [(375, 812), (1280, 900)]     # phone and desktop (width, height)


def source_md():
    """gemm.md once it exists, the fixture until then."""
    return GEMM_MD if GEMM_MD.exists() else FIXTURE


def find_chromium():
    """$CHROMIUM if set (only it), else chromium or Chrome from PATH."""
    if os.environ.get("CHROMIUM"):
        return shutil.which(os.environ["CHROMIUM"])
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def find_chromedriver():
    """$CHROMEDRIVER if set (only it), else chromedriver from PATH or where
    Debian's chromium-driver puts it. Never downloaded (no Selenium Manager)."""
    if os.environ.get("CHROMEDRIVER"):
        return shutil.which(os.environ["CHROMEDRIVER"])
    return shutil.which("chromedriver") or shutil.which("/usr/bin/chromedriver")


def find_pandoc3():
    """$PANDOC3 if set (only it), else the pandoc binary inside the installed
    pypandoc_binary wheel (pypandoc/files/pandoc), without importing pypandoc."""
    if os.environ.get("PANDOC3"):
        return shutil.which(os.environ["PANDOC3"])
    spec = importlib.util.find_spec("pypandoc")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        binary = Path(folder) / "files" / "pandoc"
        if os.access(binary, os.X_OK):
            return str(binary)
    return None


def pandoc_version(pandoc):
    """(major, minor, ...) of a pandoc binary, from `pandoc --version`."""
    first = subprocess.run([pandoc, "--version"], capture_output=True, text=True,
                           timeout=60).stdout.split("\n")[0]
    return tuple(int(part) for part in first.split()[1].split("."))


def make_command():
    """`make html` through the top Makefile once it includes docs/html.mk."""
    makefile = ROOT / "Makefile"
    if makefile.exists() and "docs/html.mk" in makefile.read_text(encoding="utf-8"):
        return ["make", "--no-print-directory", "-C", str(ROOT)]
    return ["make", "--no-print-directory", "-C", str(ROOT), "-f", "docs/html.mk"]


def run_make(*variables, target="html", pandoc=PANDOC):
    command = make_command() + [target, "PANDOC=" + pandoc] + list(variables)
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=BUILD_TIMEOUT)


def build_into(out, tangle=TANGLE, pandoc=PANDOC, *variables):
    """make html of the source document into `out`; the CompletedProcess."""
    return run_make("HTML_SRC=" + str(source_md().relative_to(ROOT)), "HTML_OUT=" + str(out),
                    "TANGLE_PY=" + str(tangle), *variables, pandoc=pandoc)


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


def words(text):
    """Text with its runs of white space made single spaces."""
    return " ".join(text.split())


class PageParser(html.parser.HTMLParser):
    """Collects what the tests look at: listings, details, links, ids, resources,
    math, figures and the table of contents."""

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
        self.toc = []             # dicts: href, text of the links in the TOC
        self.resources = []       # (tag, attribute, value) of every src/href
        self.styles = []          # text of <style> elements and style attributes
        self.maths = []           # dicts: display, tex (the TeX annotation)
        self.figures = []         # dicts: id, images [(src, alt, in .figure-body?)], caption
        self.scripts = []         # attributes of every <script>
        self.listing = None       # the listing being read
        self.in_pre = 0
        self.in_summary = None
        self.in_style = False
        self.in_label = False
        self.in_math = 0
        self.in_annotation = False
        self.figure = None        # the figure being read
        self.in_caption = False
        self.toc_link = None      # the TOC entry being read

    def inside(self, predicate):
        return any(predicate(tag, attrs) for tag, attrs in self.stack)

    def handle_starttag(self, tag, attr_list):
        attrs = dict(attr_list)
        classes = (attrs.get("class") or "").split()
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
            self.scripts.append(attrs)
        if tag == "style":
            self.in_style = True
        if tag == "a" and attrs.get("href") is not None:
            in_toc = self.inside(lambda _, a: a.get("id") == "TOC")
            self.anchors.append((attrs["href"], in_toc))
            if in_toc:
                self.toc_link = {"href": attrs["href"], "text": ""}
                self.toc.append(self.toc_link)
        if "data-cu-lines" in attrs and self.listing is None:
            self.listing = {"cu_lines": attrs["data-cu-lines"], "md_lines": attrs.get("data-md-lines"),
                            "tag": tag, "label": "", "code": "", "depth": len(self.stack)}
            self.listings.append(self.listing)
        if tag == "details":
            self.details.append({"summary": "", "classes": classes})
        if tag == "summary" and self.details:
            self.in_summary = self.details[-1]
        if self.listing is not None and "cu-lines" in classes:
            self.in_label = True
        if tag == "pre":
            self.in_pre += 1
            if self.in_pre == 1:
                self.pre_texts.append("")
        if tag == "math":
            self.in_math += 1
            if self.in_math == 1:
                self.maths.append({"display": attrs.get("display", "inline"), "tex": ""})
        if tag == "annotation" and self.in_math:
            self.in_annotation = True
        if tag == "figure":
            self.figure = {"id": attrs.get("id"), "images": [], "caption": ""}
            self.figures.append(self.figure)
        if tag == "img" and self.figure is not None:
            wrapped = self.inside(lambda _, a: "figure-body" in (a.get("class") or "").split())
            self.figure["images"].append((attrs.get("src"), attrs.get("alt"), wrapped))
        if tag == "figcaption":
            self.in_caption = True
        if tag not in self.VOID:
            self.stack.append((tag, attrs))

    def handle_startendtag(self, tag, attr_list):
        """<img ... />: a void element opens nothing, so there is nothing to close."""
        self.handle_starttag(tag, attr_list)
        if tag not in self.VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag not in [open_tag for open_tag, _ in self.stack]:
            return                # a stray end tag closes nothing
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
            if open_tag == "math":
                self.in_math -= 1
            if open_tag == "annotation":
                self.in_annotation = False
            if open_tag == "figcaption":
                self.in_caption = False
            if open_tag == "figure":
                self.figure = None
            if open_tag == "a":
                self.toc_link = None
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
        if self.in_annotation:
            self.maths[-1]["tex"] += data
        # In captions and the TOC, math counts by its TeX: pandoc 2 and 3
        # write different MathML for the same formula.
        text = data if not self.in_math else ("$%s$" % data if self.in_annotation else "")
        if self.in_caption and self.figure is not None:
            self.figure["caption"] += text
        if self.toc_link is not None:
            self.toc_link["text"] += text


def parse_page(path):
    parser = PageParser()
    parser.feed(path.read_text(encoding="utf-8"))
    parser.close()
    return parser


# ---------------------------------------------------------------------------
# Fixtures: the page is built once per module, in a folder of its own.

@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("page")


@pytest.fixture(scope="module")
def md():
    return source_md()


@pytest.fixture(scope="module")
def build(workdir):
    """`make html` into workdir/build: (CompletedProcess, page path).
    Skips without pandoc or tangle.py."""
    if shutil.which(PANDOC) is None:
        pytest.skip("pandoc not installed (Debian: apt-get install pandoc)")
    if not TANGLE.exists():
        pytest.skip("tangle.py not found at %s" % TANGLE)
    page = workdir / "build" / "gemm.html"
    return build_into(page), page


@pytest.fixture(scope="module")
def page(build):
    """The built page; the tests that read it skip when it did not build
    (test_make_html_builds_a_standalone_page then says why)."""
    result, page = build
    if result.returncode != 0:
        pytest.skip("the page did not build (see test_make_html_builds_a_standalone_page)")
    return page


def require_built(build):
    result, page = build
    assert result.returncode == 0, "make html failed:\n" + result.stdout + result.stderr
    assert page.exists(), "make html succeeded but wrote no %s" % page
    return page


# ---------------------------------------------------------------------------
# The build

def test_make_html_builds_a_standalone_page(build):
    """make html writes a complete HTML document with a TOC and numbered
    sections, and leaves no temporary file."""
    page = require_built(build)
    text = page.read_text(encoding="utf-8")
    assert text.lstrip().lower().startswith("<!doctype html>"), text[:200]
    assert '<nav id="TOC"' in text, "no table of contents"
    assert 'class="header-section-number"' in text, "sections are not numbered"
    assert not Path(str(page) + ".tmp").exists(), "temporary file left behind"


def test_rebuild_is_identical(build, workdir):
    """pandoc and the filters are deterministic (so out/gemm.html can live in git)."""
    page = require_built(build)
    # Lua tables have a per-process random order: two more runs catch most slips
    for run in range(2):
        again = workdir / ("again%d" % run) / "gemm.html"
        result = build_into(again)
        assert result.returncode == 0, result.stderr
        assert hashlib.sha256(again.read_bytes()).hexdigest() == hashlib.sha256(page.read_bytes()).hexdigest()


def test_committed_page_is_in_sync(build):
    """out/gemm.html in git is byte for byte what gemm.md weaves to."""
    if not GEMM_MD.exists():
        pytest.skip("gemm.md does not exist yet")
    page = require_built(build)
    committed = ROOT / "out" / "gemm.html"
    assert committed.exists(), "out/gemm.html is missing: run make html"
    assert committed.read_bytes() == page.read_bytes(), \
        "out/gemm.html is not what gemm.md weaves to: run make html"


def test_broken_syntax_definition_fails_the_build(build, workdir):
    """A syntax definition pandoc cannot read fails make html, says so, and leaves no page."""
    broken = workdir / "broken.xml"
    broken.write_text('<?xml version="1.0"?>\n<language name="CUDA"><highlighting>\n', encoding="utf-8")
    out = workdir / "broken" / "gemm.html"
    result = build_into(out, TANGLE, PANDOC, "HTML_SYNTAX=" + str(broken))
    assert result.returncode != 0, "a broken syntax definition was accepted"
    assert "make html: pandoc failed" in result.stderr
    assert not out.exists(), "a failed build left a page behind"


def test_map_that_disagrees_with_pandoc_fails_the_build(build, md, workdir):
    """cu-lines.lua refuses a tangle.py --map with one block fewer than pandoc sees."""
    real = tangle_map(md)
    assert len(real) > 0
    fake = workdir / "fake_tangle.py"
    fake.write_text("import json\nprint(json.dumps(%r))\n" % real[:-1], encoding="utf-8")
    out = workdir / "fake" / "gemm.html"
    result = build_into(out, fake)
    assert result.returncode != 0, "a wrong block count was accepted"
    assert "cu-lines.lua" in result.stderr
    assert not out.exists()


def test_figures_are_up_to_date():
    """docs/figures/*.svg are what make_figures.py draws."""
    result = subprocess.run([sys.executable, "docs/figures/make_figures.py", "--check"], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


def test_missing_pandoc_is_reported_with_the_package_name(workdir):
    """Needs only make: make html without pandoc names the package to install."""
    if shutil.which("make") is None:
        pytest.skip("make not installed")
    stand_in = workdir / "no_tangle.py"     # make wants the prerequisite to exist
    stand_in.write_text("", encoding="utf-8")
    out = workdir / "nopandoc" / "gemm.html"
    result = build_into(out, stand_in, "/nonexistent/pandoc")
    assert result.returncode != 0
    assert "pandoc not found" in result.stderr
    assert "apt-get install pandoc" in result.stderr
    assert not out.exists()


# ---------------------------------------------------------------------------
# The HTML

@pytest.fixture(scope="module")
def parsed(page):
    return parse_page(page)


@pytest.fixture(scope="module")
def block_map(page, md):
    return tangle_map(md)


@pytest.fixture(scope="module")
def cu_lines(page, md, workdir):
    """The lines of the document tangled afresh (fails the test if tangle.py fails)."""
    cu = workdir / "tangled" / "gemm.cu"
    cu.parent.mkdir(parents=True, exist_ok=True)
    result = subprocess.run([sys.executable, str(TANGLE), str(md), "-o", str(cu)], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, "tangle.py -o failed: %s" % result.stderr
    return cu.read_text(encoding="utf-8").split("\n")


def block_text_in_md(md_lines, entry):
    """The block's content as pandoc reads it: fence indentation removed."""
    fence = md_lines[entry["md_first"] - 2]
    indent = len(fence) - len(fence.lstrip(" "))
    lines = md_lines[entry["md_first"] - 1:entry["md_last"]]
    return "\n".join(re.sub("^ {0,%d}" % indent, "", line) for line in lines)


def test_every_tangled_block_is_on_the_page(parsed, block_map, md, cu_lines):
    """Each block of tangle.py --map is on the page, labelled with its lines,
    and its text is both the gemm.md block and those lines of out/gemm.cu."""
    listings = {listing["cu_lines"]: listing for listing in parsed.listings}
    assert len(parsed.listings) == len(block_map), \
        "the page has %d labelled blocks, tangle.py --map lists %d" % (len(parsed.listings), len(block_map))
    md_lines = md.read_text(encoding="utf-8").split("\n")
    for entry in block_map:
        key = "%d-%d" % (entry["cu_first"], entry["cu_last"])
        assert key in listings, "no block labelled data-cu-lines=%s" % key
        code = listings[key]["code"].rstrip("\n")
        assert code == block_text_in_md(md_lines, entry), "block %d differs from gemm.md lines %d-%d" \
            % (entry["index"], entry["md_first"], entry["md_last"])
        tangled = "\n".join(cu_lines[entry["cu_first"] - 1:entry["cu_last"]])
        assert code == tangled, "block %d differs from out/gemm.cu lines %s" % (entry["index"], key)


def test_every_tangled_block_is_labelled(parsed, block_map):
    """Each tangled block says "gemm.md n–m → out/gemm.cu a–b" (the lines a compiler
    message names, and where they land) and carries its gemm.md lines."""
    for listing, entry in zip(parsed.listings, block_map):
        expected = "gemm.md %d–%d → out/gemm.cu %d–%d" % (entry["md_first"], entry["md_last"],
                                                        entry["cu_first"], entry["cu_last"])
        assert words(listing["label"]) == expected
        assert listing["md_lines"] == "%d-%d" % (entry["md_first"], entry["md_last"])


def test_details_blocks_fold_with_their_summary(parsed, md):
    """Every {.details} block folds into <details> under its summary text."""
    expected = []
    for block in code_blocks(pandoc_json(md)):
        (_, classes, attributes), _ = block["c"]
        if "details" in classes:
            expected.append(dict(attributes).get("summary", "Show the code"))
    folded = [d for d in parsed.details if "listing" in d["classes"]]
    assert len(folded) == len(expected), "collapsible blocks on the page vs. in the source"
    for details, summary in zip(folded, expected):
        # the summary is Markdown: compare its text, without backticks
        text = words(details["summary"])
        assert text.startswith(words(summary.replace("`", ""))), \
            "summary %r does not start with %r" % (text, summary)


def test_no_code_block_is_lost(parsed, md):
    """Every code block, tangled or not (sh, text, ...), is on the page verbatim; a {.step} block is
    replaced by its step's folded code (docs/filters/steps.lua), never left as its placeholder."""
    shown = [text.rstrip("\n") for text in parsed.pre_texts]
    blocks = list(code_blocks(pandoc_json(md)))
    assert len(shown) == len(blocks), "<pre> elements vs. code blocks in the source"
    steps = 0
    for block, text in zip(blocks, shown):
        if block["c"][0][1][:1] == ["step"]:
            steps += 1
            assert text != block["c"][1] and text.startswith(("template", "/*", "__")), text[:80]
        else:
            assert text == block["c"][1]
    assert steps >= 13, "the 13 steps of d_gemm and d_gemm_hopper show their code"


def test_ids_are_unique(parsed):
    """Headings, figures and the template must not reuse an id (links would go astray)."""
    assert parsed.duplicate_ids == []


def test_cuda_is_highlighted(page, md):
    """CUDA keywords, built-ins and WMMA calls carry their highlighting classes."""
    text = page.read_text(encoding="utf-8")
    assert 'class="sourceCode cuda"' in text, "cuda blocks are not highlighted"
    source = "\n".join(block["c"][1] for block in code_blocks(pandoc_json(md))
                       if block["c"][0][1][:1] == ["cuda"])
    for word, cls in (("__global__", "kw"), ("__shared__", "kw"), ("threadIdx", "bu"),
                      ("blockIdx", "bu"), ("wmma::mma_sync", "fu"), ("wmma::load_matrix_sync", "fu")):
        if re.search(r"\b%s\b" % re.escape(word), source):
            assert '<span class="%s">%s</span>' % (cls, word) in text, \
                "%s is not highlighted as %s" % (word, cls)


def test_page_is_self_contained(parsed):
    """One inline script (docs/toc.html), nothing loaded; every src, href (but
    hyperlinks) and CSS url() is a data: URI."""
    assert len(parsed.scripts) == 1, "the page has %d scripts, not docs/toc.html's one" % len(parsed.scripts)
    assert "src" not in parsed.scripts[0], "the script is loaded, not inline"
    for tag, attribute, value in parsed.resources:
        if tag == "a" and attribute == "href":
            continue          # hyperlinks are not fetched
        assert value.startswith("data:"), "%s %s=%r is not embedded" % (tag, attribute, value[:80])
    for style in parsed.styles:
        for url in re.findall(r"url\(\s*['\"]?([^'\")]*)", style):
            assert url.startswith("data:") or url.startswith("#"), "CSS url(%s)" % url[:80]
        assert "@import" not in style


def test_figures_have_alt_text_and_caption(page):
    """Every image has alt text, every figure a caption."""
    text = page.read_text(encoding="utf-8")
    for match in re.finditer(r"<img\b[^>]*>", text):
        alt = re.search(r'\balt="([^"]*)"', match.group(0))
        assert alt and alt.group(1).strip(), "an image without alt text"
    assert text.count("<figure") == text.count("<figcaption>"), "a figure without caption"


# ---------------------------------------------------------------------------
# The same page from pandoc 3

@pytest.fixture(scope="module")
def parsed3(page, workdir):
    """The page built by the pandoc 3 of the pypandoc_binary wheel, parsed."""
    pandoc3 = find_pandoc3()
    if pandoc3 is None:
        pytest.skip("no pandoc 3 binary (pip install -r tests/requirements.txt: pypandoc_binary)")
    version = pandoc_version(pandoc3)
    assert version[0] == 3, "%s is pandoc %s, not 3" % (pandoc3, ".".join(map(str, version)))
    out = workdir / "pandoc3" / "gemm.html"
    result = build_into(out, TANGLE, pandoc3)
    assert result.returncode == 0, "make html PANDOC=%s failed:\n%s%s" % (pandoc3, result.stdout, result.stderr)
    return parse_page(out)


def test_pandoc3_same_code_blocks(parsed, parsed3):
    """Every <pre>, every tangled block's label and lines, every folded
    block's summary are the same with pandoc 3."""
    assert len(parsed.pre_texts) > 0, "no code blocks on the page"
    assert parsed3.pre_texts == parsed.pre_texts

    def listings(parsed):
        return [(entry["cu_lines"], entry["md_lines"], words(entry["label"]), entry["code"])
                for entry in parsed.listings]

    assert listings(parsed3) == listings(parsed)
    assert [(words(d["summary"]), d["classes"]) for d in parsed3.details] == \
        [(words(d["summary"]), d["classes"]) for d in parsed.details]


def test_pandoc3_same_math(parsed, parsed3):
    """The same formulas, inline or display, in the same order (the MathML
    inside differs with the texmath version; the TeX annotation does not)."""
    assert len(parsed.maths) > 0, "no MathML on the page"
    assert [(m["display"], m["tex"]) for m in parsed3.maths] == \
           [(m["display"], m["tex"]) for m in parsed.maths]


def test_pandoc3_same_figures(parsed, parsed3):
    """The same figures: id, embedded image, alt text, the .figure-body
    wrapper that lets a figure scroll on a phone, and the caption."""
    def figures(parsed):
        return [(f["id"], f["images"], words(f["caption"])) for f in parsed.figures]

    assert len(parsed.figures) > 0, "no figures on the page"
    assert figures(parsed3) == figures(parsed)


def test_pandoc3_same_table_of_contents(parsed, parsed3):
    """The same TOC entries: target and text."""
    assert len(parsed.toc) > 0, "no links in #TOC"
    assert [(t["href"], words(t["text"])) for t in parsed3.toc] == \
           [(t["href"], words(t["text"])) for t in parsed.toc]


# ---------------------------------------------------------------------------
# The page in a real browser: Chromium through Selenium and chromedriver

OVERFLOW_CULPRITS = """
const width = arguments[0];
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
"""


class Browser:
    """A headless Chromium on one page, with the console and network logs of its loading."""

    def __init__(self, chromium, chromedriver):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        options = webdriver.ChromeOptions()
        options.binary_location = chromium
        for argument in ("--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                         "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                         "--disable-background-networking", "--disable-component-update",
                         "--disable-sync", "--disable-default-apps", "--mute-audio"):
            options.add_argument(argument)
        # console messages and uncaught exceptions ("browser"), DevTools Network events ("performance")
        options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
        # the driver's path is given, so Selenium Manager never looks for (or downloads) one
        self.driver = webdriver.Chrome(service=Service(executable_path=chromedriver), options=options)
        self.driver.set_page_load_timeout(BROWSER_TIMEOUT)
        self.driver.set_script_timeout(BROWSER_TIMEOUT)

    def open(self, url):
        """Load the page; returns (console entries, DevTools Network events) of the load."""
        self.driver.get(url)                 # returns after the load event
        time.sleep(0.5)                      # anything the page would start late
        console = self.driver.get_log("browser")
        network = [json.loads(entry["message"])["message"] for entry in self.driver.get_log("performance")]
        return console, [event for event in network if event["method"].startswith("Network.")]

    def view(self, width, height, dark=False):
        """Emulate a screen: its size (a phone below 600 px) and colour scheme."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": width, "height": height, "deviceScaleFactor": 1,
                                     "mobile": width < 600})
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                    {"features": [{"name": "prefers-color-scheme",
                                                   "value": "dark" if dark else "light"}]})

    def run(self, script, *args):
        return self.driver.execute_script(script, *args)

    def close(self):
        self.driver.quit()


@pytest.fixture(scope="module")
def browser(page, workdir):
    """The page opened as a file, from a folder of its own (away from docs/ and
    out/), in headless Chromium at 1280 x 900; yields (Browser, url, load logs)."""
    chromium = find_chromium()
    if chromium is None:
        pytest.skip("chromium not installed (Debian: apt-get install chromium)")
    chromedriver = find_chromedriver()
    if chromedriver is None:
        pytest.skip("chromedriver not installed (Debian: apt-get install chromium-driver)")
    if importlib.util.find_spec("selenium") is None:
        pytest.skip("selenium not installed (pip install -r tests/requirements.txt)")
    copy = workdir / "browse" / "gemm.html"
    copy.parent.mkdir()
    shutil.copyfile(page, copy)
    browser = Browser(chromium, chromedriver)
    try:
        browser.view(1280, 900)
        console, network = browser.open(copy.as_uri())
        yield browser, copy.as_uri(), {"console": console, "network": network}
    finally:
        browser.close()


def test_no_console_errors(browser):
    """Loading the page logs no error and throws no exception."""
    _, _, logs = browser
    errors = [entry["message"][:300] for entry in logs["console"] if entry["level"] == "SEVERE"]
    assert errors == []


def test_no_failed_requests(browser):
    """Nothing the page loads fails (Network.loadingFailed)."""
    _, _, logs = browser
    failed = [event["params"] for event in logs["network"] if event["method"] == "Network.loadingFailed"]
    assert failed == []


def test_requests_only_the_page_itself_and_data_uris(browser):
    """The page asks for itself and data: URIs, nothing else (no fonts, no CDN)."""
    _, url, logs = browser
    urls = [event["params"]["request"]["url"] for event in logs["network"]
            if event["method"] == "Network.requestWillBeSent"]
    assert url in [u.split("#")[0] for u in urls], "the page itself was not requested"
    others = [u[:100] for u in urls if u.split("#")[0] != url and not u.startswith("data:")]
    assert others == []


def missing_targets(browser, hrefs):
    """The hrefs that are not #id of an element of the page."""
    return browser.run("""
        return arguments[0].filter(h => !h.startsWith('#') ||
                                        !document.getElementById(decodeURIComponent(h.slice(1))));""",
                       hrefs)


def test_table_of_contents_links_resolve(browser):
    """Every link of the table of contents lands on an element."""
    from selenium.webdriver.common.by import By
    browser, _, _ = browser
    browser.view(1280, 900)
    hrefs = [a.get_dom_attribute("href") for a in browser.driver.find_elements(By.CSS_SELECTOR, "#TOC a")]
    assert hrefs, "no links in #TOC"
    assert missing_targets(browser, hrefs) == []


def test_internal_links_resolve(browser):
    """Every in-page link (#...) lands on an element."""
    from selenium.webdriver.common.by import By
    browser, _, _ = browser
    hrefs = [a.get_dom_attribute("href") for a in browser.driver.find_elements(By.CSS_SELECTOR, 'a[href^="#"]')]
    assert missing_targets(browser, [h for h in hrefs if len(h) > 1]) == []


# What each screenshot shows: a name and a script that scrolls there (false: not on this page).
SCREENSHOT_PLACES = [
    ("top", "window.scrollTo(0, 0); return true;"),
    ("code", "return show(document.querySelector('.listing'));"),
    ("figure", "return show(document.querySelector('figure'));"),
    ("details", "const d = document.querySelector('details.listing'); if (d) d.open = true; return show(d);"),
    ("table", "return show(document.querySelector('.table-wrap'));"),
    # the Results plot, the widest table, and the contents while one reads the Hopper part
    ("results-plot", "return show(Array.from(document.querySelectorAll('figure'))"
                     ".find(f => /Rate against size/.test(f.textContent)));"),
    ("wide-table", "return show(Array.from(document.querySelectorAll('.table-wrap'))"
                   ".sort((a, b) => b.querySelector('table').scrollWidth - a.querySelector('table').scrollWidth)[0]);"),
    ("contents-hopper", """
        const part = document.getElementById('past-wmma-hoppers-warpgroup-mma');
        if (!part) return false;
        const toc = document.querySelector('#TOC details');
        if (innerWidth >= 72 * 16) { show(part); window.scrollBy(0, 400); return true; }
        toc.open = true; show(toc); return true;"""),
]
SHOW = "function show(e) { if (!e) return false; e.scrollIntoView({block: 'start'}); window.scrollBy(0, -16); return true; }"


def screenshots(browser, width, scheme):
    """Views worth a look (SCREENSHOT_PLACES), saved as out/screenshots/WIDTH-SCHEME-NAME.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for name, script in SCREENSHOT_PLACES:
        if browser.run(SHOW + script):
            time.sleep(0.2)              # the contents' mark follows the scroll on the next frame
            browser.driver.save_screenshot(str(SCREENSHOTS / ("%d-%s-%s.png" % (width, scheme, name))))
    browser.run("document.querySelectorAll('details.listing').forEach(d => d.open = false);"
                " if (innerWidth < 72 * 16) document.querySelector('#TOC details').open = false;"
                " window.scrollTo(0, 0);")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width,height", VIEWS, ids=["375px", "1280px"])
def test_no_horizontal_overflow(browser, width, height, scheme):
    """At this width and colour scheme the page is exactly as wide as the
    screen (on a phone, wider content makes the viewport zoom out); then
    screenshots."""
    browser, _, _ = browser
    browser.view(width, height, dark=scheme == "dark")
    assert browser.run("return matchMedia('(prefers-color-scheme: %s)').matches" % scheme), \
        "the %s colour scheme is not in effect" % scheme
    metrics = browser.run("return {inner: window.innerWidth, scroll: document.documentElement.scrollWidth,"
                          " body: document.body.scrollWidth}")
    culprits = browser.run(OVERFLOW_CULPRITS, width)
    assert metrics["inner"] == width, \
        "the viewport is %d px wide, not %d: horizontal overflow? %r" % (metrics["inner"], width, culprits)
    assert metrics["scroll"] <= metrics["inner"], "horizontal overflow at %d px: %r" % (width, culprits)
    assert metrics["body"] <= metrics["inner"], "horizontal overflow at %d px: %r" % (width, culprits)
    screenshots(browser, width, scheme)


LABELS_OUTSIDE = """
const found = [];
document.querySelectorAll('details.listing > summary .cu-lines').forEach(label => {
  const box = label.closest('summary').getBoundingClientRect(), r = label.getBoundingClientRect();
  if (r.right > box.right + 0.5)
    found.push(label.textContent.trim() + ' [' + (r.right - box.right).toFixed(1) + ' px out]');
});
return found;
"""


@pytest.mark.parametrize("width,height", VIEWS, ids=["375px", "1280px"])
def test_folded_listing_labels_stay_in_their_box(browser, width, height):
    """The line label of every folded listing ("gemm.md N-N2 -> out/gemm.cu L1-L2") ends inside its
    summary's box, on a phone too (issue 41: 3 px out at 375 px)."""
    browser, _, _ = browser
    browser.view(width, height)
    outside = browser.run(LABELS_OUTSIDE)
    assert outside == [], "line labels past their box at %d px: %r" % (width, outside[:5])


RANGES_BROKEN = """
const found = [];
document.querySelectorAll('details.listing > summary .cu-lines').forEach(label => {
  const halves = label.querySelectorAll('.nw');
  if (halves.length !== 2)
    found.push(label.textContent.trim() + ' [' + halves.length + ' unbreakable halves]');
  halves.forEach(half => {
    const lines = new Set(Array.from(half.getClientRects()).map(r => Math.round(r.top)));
    if (lines.size > 1)
      found.push(half.textContent + ' [on ' + lines.size + ' lines]');
  });
});
return found;
"""


@pytest.mark.parametrize("width,height", VIEWS, ids=["375px", "1280px"])
def test_folded_listing_labels_never_break_inside_a_range(browser, width, height):
    """A folded listing's label wraps, on a phone, only at its arrow: "gemm.md 1730–1821" and "out/gemm.cu L1–L2"
    stay whole (issue 41: at 375 px a label broke inside "1730–1821")."""
    browser, _, _ = browser
    browser.view(width, height)
    broken = browser.run(RANGES_BROKEN)
    assert broken == [], "line labels broken inside a range at %d px: %r" % (width, broken[:5])


def test_an_option_with_a_short_value_is_one_word(build):
    """In a table, a short option with a one-letter value ("--beta=X", at most 10 characters) is one unbreakable
    word: "=X" alone on a line says nothing (issue 41: at 1280 px the command-line table broke "--beta" from "=X").
    Longer ones may still break before "=", so that a phone's first column stays narrow."""
    page = require_built(build).read_text(encoding="utf-8")
    whole = re.findall(r'<span class="word">(--[\w-]+=\w+)</span>', page)
    assert {"--alpha=X", "--beta=X"} <= set(whole), whole
    split = re.findall(r'<span class="word">(--[\w-]{1,6})</span>(?:<wbr>)?(=\w)\b', page)   # 10 characters or fewer
    assert split == [], "options broken from a one-letter value: %r" % split


def test_a_long_path_in_prose_breaks_only_after_a_slash(build):
    """Prose code that is a path longer than 20 characters (slashes, no spaces) may break after each slash and
    nowhere else: each part is one word (page.lua). A Chromium check at 375 px (2026-12-03) found
    `docs/bench/variants/h200/canonical-2/before/suite-h200.csv` broken as "befo" over "re/"; the browser test
    test_prose_code_never_breaks_after_a_hyphen checks that no word breaks."""
    page = require_built(build).read_text(encoding="utf-8")
    paths = []
    for paragraph in re.findall(r"<p>(.*?)</p>", page, re.S):
        for code in re.findall(r"<code>(.*?)</code>", paragraph, re.S):
            text = re.sub(r"<[^>]+>", "", code)
            if "/" in text and not re.search(r"\s", text) and len(text) > 20:
                paths.append((text, code))
    assert len(paths) >= 10, "too few long paths in the prose: %d" % len(paths)
    loose = [text for text, code in paths if code.count("/<wbr>") != text.count("/") or
             re.search(r"(?:^|/<wbr>)(?!<span)[^<]", code)]
    assert loose == [], "paths that may break inside a part, or not after a slash: %r" % loose[:5]


def test_an_option_name_never_breaks_at_its_own_hyphen(build):
    """In a table an option's name is one word, inner hyphens included: at 375 px the command-line table broke
    "--shared-" from "limit=BYTES" (issue 41, Chromium check)."""
    page = require_built(build).read_text(encoding="utf-8")
    assert '<span class="word">--shared-limit</span>' in page, "--shared-limit is not one word"
    split = re.findall(r'<span class="word">(--\w+)</span>(-\w+)', page)
    assert split == [], "option names broken at a hyphen: %r" % split


def test_no_backslash_before_a_pipe_on_the_page(build):
    """The woven page shows no escaped pipe ("\\|"): in a pipe table a code span keeps the backslash
    (issue 41: the command-line table printed --kernel=fast\\|naive\\|...)."""
    page = require_built(build).read_text(encoding="utf-8")
    text = re.sub(r"<[^>]+>", "", page)
    assert "\\|" not in text, "the page shows \\| at: %r" % text[text.index("\\|") - 40:text.index("\\|") + 20]


@pytest.mark.parametrize("width,height", VIEWS, ids=["375px", "1280px"])
def test_prose_code_never_breaks_after_a_hyphen(browser, width, height):
    """In a paragraph, code of up to 20 characters stays on one line, and in longer code each part that holds a
    hyphen does, and a long dotted name breaks only after a dot (page.lua, style.css). Issue 41, Chromium checks:
    "--" over "peak" and "u =" over "k_tile / stages" at 375 px, "steps-" over "h100.csv" at 1280 px, and
    "...m64n256k16.f" over "32.f16.f16" at 375 px. A part is whole when its text has one line box."""
    browser, _, _ = browser
    browser.view(width, height)
    found = browser.run("""
        const lines = element => {
          const range = document.createRange();
          range.selectNodeContents(element);
          return new Set(Array.from(range.getClientRects()).filter(r => r.width > 0).map(r => Math.round(r.top))).size;
        };
        const whole = Array.from(document.querySelectorAll('p code.whole, p code .word'));
        const hyphened = Array.from(document.querySelectorAll('p code')).filter(c =>
          c.textContent.includes('-') && !c.classList.contains('whole') && !c.querySelector('.word'));
        const dotted = Array.from(document.querySelectorAll('p code')).filter(c =>
          c.textContent.split(/[\\s\\/]+/).some(part => part.length > 20 && part.includes('.')) &&
          !c.querySelector('.word'));
        return [whole.length, whole.filter(e => lines(e) > 1).map(e => e.textContent).slice(0, 8),
                hyphened.map(c => c.textContent).slice(0, 8), dotted.map(c => c.textContent).slice(0, 8)];""")
    assert found[0] >= 300, "too few prose code elements marked whole: %d" % found[0]
    assert found[1] == [], "prose code broken across lines at %d px: %r" % (width, found[1])
    assert found[2] == [], "prose code with a hyphen that page.lua left breakable: %r" % found[2]
    assert found[3] == [], "a long dotted name that page.lua left breakable anywhere: %r" % found[3]


@pytest.mark.parametrize("width,height", VIEWS, ids=["375px", "1280px"])
def test_a_link_underlines_code_below_its_underscores(browser, width, height):
    """A link's underline runs below the code it holds, so `d_gemm_hopper` does not read "d gemm hopper" (issue 41,
    a Chromium check: the underline at 0.15 em hid the underscores); and the colophon's code is 12 px or more."""
    browser, _, _ = browser
    browser.view(width, height)
    found = browser.run("""
        const links = Array.from(document.querySelectorAll('a')).filter(a => a.querySelector('code'));
        const low = links.filter(a => {
          const style = getComputedStyle(a);
          return parseFloat(style.textUnderlineOffset) < 0.3 * parseFloat(style.fontSize);
        });
        const small = Array.from(document.querySelectorAll('.colophon code'))
          .filter(c => parseFloat(getComputedStyle(c).fontSize) < 12);
        return [links.length, low.map(a => a.textContent).slice(0, 5), small.length];""")
    assert found[0] >= 5, "too few links with code: %d" % found[0]
    assert found[1] == [], "links whose underline crosses their code's underscores: %r" % found[1]
    assert found[2] == 0, "colophon code under 12 px at %d px" % width


PHONE_SHOWS = 343 / 864   # of a figure: a phone's column over the width the page draws figures at there (style.css)


def legend_ends(svg_text):
    """Where each line of a matplotlib legend ends, as a share of the figure's width (text as 0.6 em a letter)."""
    width = float(re.search(r'<svg[^>]*\bwidth="([\d.]+)pt"', svg_text).group(1))
    start = svg_text.index('<g id="legend_1">')
    indent = svg_text[svg_text.rindex("\n", 0, start) + 1:start]
    legend = svg_text[start:svg_text.index("\n" + indent + "</g>", start)]   # the group, to its own closing tag
    ends = []
    for size, x, text in re.findall(r'<text style="font-size: ([\d.]+)px[^"]*" x="([\d.]+)"[^>]*>([^<]*)', legend):
        ends.append((text.strip(), (float(x) + 0.6 * float(size) * len(text.strip())) / width))
    return ends


def test_a_plots_legend_is_in_view_on_a_phone():
    """A phone draws a figure 864 px wide in a 343 px box that scrolls sideways (style.css): the plots' legends sit
    at the left, so that they show before the figure is scrolled (issue 41, a Chromium check: the Results plot's
    legend at 522-821 px and the steps plot's at 614-843 px were both out of view)."""
    plots = sorted(set(re.findall(r"\]\((docs/bench/[\w.-]+\.svg)\)", (ROOT / "gemm.md").read_text(encoding="utf-8"))))
    assert len(plots) >= 2, "no plots on the page: %r" % plots
    for plot in plots:
        ends = legend_ends((ROOT / plot).read_text(encoding="utf-8"))
        assert len(ends) >= 5, "%s: no legend found" % plot
        out = [(text, round(end * 864)) for text, end in ends if end > PHONE_SHOWS]
        assert out == [], "%s: legend lines ending past a phone's 343 px (px): %r" % (plot, out)


# Diagrams whose key is a list of swatches and lines of text; a phone draws a diagram at its own size (style.css).
KEYED_DIAGRAMS = {"naive.svg": "one warp's fragment of C:", "padding.svg": "original data, copied row by row",
                  "pipeline.svg": "a copy to shared memory, in flight", "cluster.svg": "each half of A leaves L2",
                  "warpgroups.svg": "full[s]: all the stage's bytes", "accumulator.svg": "lane l: rows l / 4"}


def key_ends(svg_text, first_line):
    """The right end, in px, of each line of text from the key's first line to the end of the drawing (text as
    0.55 em a letter, more than DejaVu Sans's 0.50 on these lines; .small is 13.5 px): the keys come last."""
    start = svg_text.rindex("<text", 0, svg_text.index(first_line))
    ends = []
    for attributes, body in re.findall(r"<text([^>]*)>(.*?)</text>", svg_text[start:], re.S):
        spans = re.findall(r'<tspan x="([\d.]+)"[^>]*>([^<]*)</tspan>', body)
        if not spans:
            spans = [(re.search(r'\bx="([\d.]+)"', attributes).group(1), body)]
        ends.extend((line, float(x) + 0.55 * 13.5 * len(html.unescape(line))) for x, line in spans)
    return ends


def test_a_diagrams_key_is_in_view_on_a_phone():
    """The naive kernel's and the padding diagram's keys sit under the drawing at the left, within a phone's
    343 px (issue 41, a Chromium check: 10 of the naive diagram's 12 labels, its key among them, began past it)."""
    for name, first_line in KEYED_DIAGRAMS.items():
        ends = key_ends((ROOT / "docs" / "figures" / name).read_text(encoding="utf-8"), first_line)
        assert len(ends) >= 2, "%s: no key found" % name
        out = [(line, round(end)) for line, end in ends if end > 343]
        assert out == [], "%s: key lines ending past a phone's 343 px: %r" % (name, out)


def test_legend_ends_sees_a_legend_out_of_view():
    """The check above can fail: the Results plot as it was before its legend moved."""
    old = subprocess.run(["git", "show", "867bbfa:docs/bench/h100.svg"], cwd=str(ROOT), stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, universal_newlines=True)
    if old.returncode != 0:
        pytest.skip("no git history here")
    assert max(end for _, end in legend_ends(old.stdout)) > PHONE_SHOWS


def test_a_product_of_numbers_never_breaks_around_its_times_sign(build):
    """"128 × 16" and "459.6 / 458.3" are units: page.lua makes the spaces around a × or / between numbers no-break
    spaces (issue 41: at 1280 px the page broke "128 ×" from "16", at 375 px a table "459.6 /" from "458.3"), and so
    are those around a × between two names in code, `block_m` × `block_n`."""
    page = require_built(build).read_text(encoding="utf-8")
    prose = re.sub(r"<pre[\s\S]*?</pre>", "", page)   # code divides: 4 / 8
    text = html.unescape(re.sub(r"<[^>]+>", "", prose))
    assert "128\u00a0×\u00a016" in text and re.search(r"\d+\.\d\u00a0/\u00a0\d+\.\d", text), \
        "no no-break spaces on the page"   # "474.7 / 466.3": a table's two layouts of B
    breakable = re.findall(r"\S*\d[)%³]*[ \t\n]+[×/][ \t\n]+\(?\d\S*", text)   # spaces that are not no-break
    assert breakable == [], "a product of numbers that may break: %r" % breakable[:5]
    names = re.findall(r"<code[^>]*>[^<]*</code>[ \t\n]+×[ \t\n]+<code[^>]*>[^<]*</code>", prose)
    assert names == [], "a product of names that may break: %r" % names[:5]   # `block_m` × `block_n`
    assert re.search(r"block_m</code>\u00a0×\u00a0<code[^>]*>block_n", html.unescape(prose)), \
        "no product of names with no-break spaces"


def test_no_horizontal_overflow_with_details_open(browser):
    """At 375 px, with every folded block open, the page still fits the screen."""
    browser, _, _ = browser
    browser.view(375, 812)
    browser.run("document.querySelectorAll('details').forEach(d => d.open = true);")
    try:
        metrics = browser.run("return {inner: window.innerWidth, scroll: document.documentElement.scrollWidth}")
        assert metrics["scroll"] <= metrics["inner"], browser.run(OVERFLOW_CULPRITS, 375)
    finally:
        browser.run("document.querySelectorAll('details.listing').forEach(d => d.open = false);")


# ---------------------------------------------------------------------------
# Reading comfort: tables and figures fit, plot text is legible, the contents
# follow the reader, every text colour has AA contrast (issue 33)

COLUMN_FIT = """
const found = [];
document.querySelectorAll('main .table-wrap, main .figure-body').forEach(box => {
  const inner = box.classList.contains('table-wrap') ? box.querySelector('table') : box.querySelector('img');
  if (!inner) return;
  const overflow = Math.max(box.scrollWidth - box.clientWidth, inner.getBoundingClientRect().width - box.clientWidth);
  if (overflow > 1)
    found.push((box.previousElementSibling ? box.previousElementSibling.textContent : '').trim().slice(-60) +
               ' [' + box.className + ' ' + Math.round(overflow) + ' px too wide]');
});
return found;
"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_tables_and_figures_fit_the_column_on_a_desktop(browser, scheme):
    """At 1280 px no table and no figure is wider than the column: nothing to
    scroll sideways, nothing cut (columns size to their content, page.lua)."""
    browser, _, _ = browser
    browser.view(1280, 900, dark=scheme == "dark")
    assert browser.run(COLUMN_FIT) == []


def test_tables_show_numbers_on_a_phones_first_screen(browser):
    """At 375 px a table may scroll sideways, but its first body row shows a
    number (a right-aligned cell) before any scrolling."""
    browser, _, _ = browser
    browser.view(375, 812)
    hidden = browser.run("""
        const found = [];
        document.querySelectorAll('main .table-wrap').forEach(wrap => {
          wrap.scrollLeft = 0;
          const body = wrap.querySelector('tbody');
          if (!body || !body.rows.length) return;
          const numbers = Array.from(body.rows[0].cells).filter(c => c.style.textAlign === 'right');
          if (!numbers.length) return;
          const box = wrap.getBoundingClientRect();
          if (!numbers.some(c => c.getBoundingClientRect().right <= box.right + 0.5))
            found.push(wrap.querySelector('tr').textContent.trim().replace(/\\s+/g, ' ').slice(0, 80));
        });
        return found;""")
    assert hidden == [], "tables whose first screen on a phone shows no number"


# The top of the row that character i of text node `node` is drawn on (null where it is not drawn).
CHAR_ROW = r"""
    const charRow = (node, i) => {
      const range = document.createRange();
      range.setStart(node, i); range.setEnd(node, i + 1);
      const rects = range.getClientRects();
      return rects.length ? rects[0].top : null;
    };"""

# The tables wider than their box, which scroll inside it (at the width the browser has now).
WIDE_TABLES = """
    const wideTables = () => Array.from(document.querySelectorAll('main .table-wrap'))
                                  .filter(wrap => wrap.scrollWidth > wrap.clientWidth + 1);"""


def test_tables_keep_their_first_column_when_scrolled_on_a_phone(browser):
    """At 375 px a wide table scrolls inside its box; scrolled to its right end, each row still shows its
    first cell (the type pair, the shape) at the box's left edge (issue 41: the Hopper table lost its labels)."""
    browser, _, _ = browser
    browser.view(375, 812)
    lost = browser.run(WIDE_TABLES + """
        const found = [];
        wideTables().forEach(wrap => {
          wrap.scrollLeft = wrap.scrollWidth;
          const box = wrap.getBoundingClientRect();
          const rows = Array.from(wrap.querySelectorAll('tr'));
          const away = rows.filter(r => r.cells.length && r.cells[0].getBoundingClientRect().left < box.left - 0.5);
          if (away.length)
            found.push(rows[0].textContent.trim().replace(/\\s+/g, ' ').slice(0, 60) + ' (' + away.length + ' rows)');
          wrap.scrollLeft = 0;
        });
        return found;""")
    assert lost == [], "tables whose first column scrolls away on a phone: %r" % lost


def test_a_tables_first_column_leaves_room_on_a_phone(browser):
    """At 375 px the first column of a table wider than its box stays in view while the rest scrolls; a type pair
    breaks after an underscore there (page.lua), so the column takes at most 36% of the box (BF16_IN_F32_OUT whole
    took 153 of 343 pixels, issue 41)."""
    browser, _, _ = browser
    browser.view(375, 812)
    wide = browser.run(WIDE_TABLES + """
        const found = [];
        wideTables().forEach(wrap => {
          const cells = Array.from(wrap.querySelectorAll('tr')).map(r => r.cells[0]).filter(Boolean);
          const width = Math.max(...cells.map(c => c.getBoundingClientRect().width));
          if (width > 0.36 * wrap.clientWidth)
            found.push(wrap.querySelector('tr').textContent.trim().replace(/\\s+/g, ' ').slice(0, 50) + ': ' +
                       Math.round(width) + ' of ' + wrap.clientWidth + ' px');
        });
        return found;""")
    assert wide == [], "first columns too wide on a phone: %r" % wide


def test_a_wide_tables_scroll_shadow_shows_on_its_shaded_rows(browser):
    """At 375 px a wide table's box draws a soft shadow on the side that has more to scroll (style.css); a shaded
    row's background must let it through, as an opaque one hid it on every other row (issue 41, a Chromium check),
    while the row's sticky first cell stays opaque, so the cells scrolling under it do not show."""
    browser, _, _ = browser
    browser.view(375, 812)
    found = browser.run(WIDE_TABLES + """
        const alpha = colour => {
          const m = colour.match(/rgba?\\(([^)]+)\\)/), parts = m ? m[1].split(',').map(Number) : [0, 0, 0, 0];
          return parts.length > 3 ? parts[3] : 1;
        };
        const found = [];
        wideTables().forEach(wrap => {
          const row = wrap.querySelector('tbody tr:nth-child(2)');
          if (row && (alpha(getComputedStyle(row).backgroundColor) >= 1 ||
                      alpha(getComputedStyle(row.cells[0]).backgroundColor) < 1))
            found.push(wrap.querySelector('tr').textContent.trim().replace(/\\s+/g, ' ').slice(0, 50));
        });
        return [wideTables().length, found];""")
    assert found[0] >= 3, "too few wide tables at 375 px to check: %d" % found[0]
    assert found[1] == [], "wide tables whose shaded rows hide the scroll shadow: %r" % found[1]


def png_pixels(data):
    """(width, channels, rows) of an 8-bit RGB or RGBA PNG, as Chromium writes its screenshots: each row a bytearray
    of width x channels values, the five row filters undone."""
    import struct
    import zlib
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, packed = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
            assert depth == 8 and colour in (2, 6) and interlace == 0, "an 8-bit RGB(A) PNG, not interlaced"
        elif kind == b"IDAT":
            packed += chunk
    channels, raw = 3 if colour == 2 else 4, zlib.decompress(packed)
    stride, rows, above, at = width * (3 if colour == 2 else 4), [], bytearray(width * channels), 0
    for _ in range(height):
        kind, row = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for x in range(stride):
            left = row[x - channels] if x >= channels else 0
            corner = above[x - channels] if x >= channels else 0
            if kind == 1:
                row[x] = (row[x] + left) & 255
            elif kind == 2:
                row[x] = (row[x] + above[x]) & 255
            elif kind == 3:
                row[x] = (row[x] + (left + above[x]) // 2) & 255
            elif kind == 4:
                guess = left + above[x] - corner
                near = min((abs(guess - left), 0, left), (abs(guess - above[x]), 1, above[x]),
                           (abs(guess - corner), 2, corner))[2]
                row[x] = (row[x] + near) & 255
        rows.append(row)
        above = row
    return width, channels, rows


def test_a_headings_permalink_is_hidden_or_whole(browser):
    """A heading's "#" link shows when the heading is hovered or the link has focus, and always where nothing
    hovers (a phone). At rest it was drawn at 35% opacity, text at 1.6 to 1.8:1 (issue 41, a Chromium check); now it
    is hidden. Headless Chromium cannot hover (its (hover: none) matches), so the page shows every link whole, and
    the style sheet's rules say what a mouse would see: hidden at rest, whole on hover."""
    browser, _, _ = browser
    browser.view(1280, 900)
    found = browser.run("""
        const links = Array.from(document.querySelectorAll('main .permalink'));
        const rules = [];
        for (const sheet of document.styleSheets)
          for (const rule of sheet.cssRules)
            if (rule.selectorText && rule.selectorText.includes('.permalink') && rule.style.opacity)
              rules.push([rule.selectorText.replace(/\\s+/g, ' '), rule.style.opacity]);
        return [matchMedia('(hover: none)').matches, links.length,
                Array.from(new Set(links.map(a => getComputedStyle(a).opacity))), rules];""")
    hover_none, count, shown, rules = found
    assert hover_none and count > 20, "expected a headless page that cannot hover, with permalinks: %r" % found[:2]
    assert shown == ["1"], "where nothing hovers, permalinks drawn at opacities %r" % shown
    resting = [opacity for selector, opacity in rules if selector == ".permalink"]
    hovered = [opacity for selector, opacity in rules if ":hover .permalink" in selector]
    assert resting == ["0"], "a permalink at rest under a mouse: opacity %r (hidden or whole, never half)" % resting
    assert hovered == ["1"], "a hovered heading's permalink: opacity %r" % hovered


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_code_boxs_scroll_shadow_shows_on_a_phone(browser, scheme):
    """Below 48rem a code line does not wrap, and a box of code scrolls sideways. Like a wide table, it draws a
    shadow on the side that has more (issue 41, a Chromium check: it had none). A listing wider than its box at
    375 px is photographed scrolled to each end; in its top padding, a pixel 3 px inside the side with more must
    differ from the box's middle, and one inside the other side must not."""
    browser, _, _ = browser
    browser.view(375, 812, dark=scheme == "dark")
    from selenium.webdriver.common.by import By
    boxes = [box for box in browser.driver.find_elements(By.CSS_SELECTOR, "main div.sourceCode > pre")
             if browser.run("const b = arguments[0]; return b.offsetParent !== null && "
                            "b.scrollWidth > b.clientWidth + 100 && b.clientHeight > 60;", box)]
    assert boxes, "no code box scrolls sideways at 375 px"
    box = boxes[0]
    found = []
    try:
        for end in ("start", "end"):
            browser.run("const b = arguments[0]; b.scrollIntoView({block: 'center'}); "
                        "b.scrollLeft = arguments[1] ? b.scrollWidth : 0;", box, end == "end")
            time.sleep(0.2)
            width, channels, rows = png_pixels(box.screenshot_as_png)
            row = rows[5]
            pixel = lambda x: tuple(row[x * channels:x * channels + 3])
            distance = lambda p, q: max(abs(a - b) for a, b in zip(p, q))
            middle = pixel(width // 2)
            left, right = distance(pixel(3), middle), distance(pixel(width - 4), middle)
            shaded, clear = (right, left) if end == "start" else (left, right)
            if shaded < 12 or clear > 4:
                found.append("scrolled to its %s: the side with more differs by %d, the other by %d" %
                             (end, shaded, clear))
    finally:
        browser.run("arguments[0].scrollLeft = 0;", box)
    assert found == [], "a code box's scroll shadow (%s): %r" % (scheme, found)


def test_a_new_lines_band_spans_its_scrolling_listing_on_a_phone(browser):
    """A step's code marks the lines new since the step before with a tinted band. On a phone the listing scrolls
    sideways, and the band stopped at the box's visible width (319 of 1076 px; issue 41, a Chromium check): a
    scrolled line lost its mark. Each band must be as wide as the code it marks."""
    browser, _, _ = browser
    browser.view(375, 812)
    found = browser.run("""
        const out = [];
        let checked = 0;
        document.querySelectorAll('.step-code pre').forEach(box => {
          if (box.scrollWidth <= box.clientWidth + 40 || box.offsetParent === null) return;
          const style = getComputedStyle(box);
          const code = box.scrollWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          box.querySelectorAll('span.new').forEach(line => {
            checked++;
            const width = line.getBoundingClientRect().width;
            if (width < code - 1) out.push([box.closest('[id]').id, Math.round(width), Math.round(code)]);
          });
        });
        return [checked, out.slice(0, 5), out.length];""")
    assert found[0] > 20, "too few new lines in listings that scroll at 375 px: %d" % found[0]
    assert found[2] == 0, "new lines whose band stops short of the code (id, band, code): %r, %d in all" % (
        found[1], found[2])


def test_every_box_that_scrolls_sideways_has_its_shadows(browser):
    """At 375 px code, tables, figures and display equations wider than the column scroll inside their own boxes.
    Each must carry the backgrounds that shade the side with more to see: covers that scroll with the content
    and shadows that stay at the edges (style.css). The error bound's equation scrolled 105 px with no hint
    (issue 41, a Chromium check)."""
    browser, _, _ = browser
    browser.view(375, 812)
    found = browser.run("""
        const out = [], kinds = new Set();
        document.querySelectorAll('main *').forEach(e => {
          if (e.offsetParent === null || e.scrollWidth <= e.clientWidth + 2) return;
          const style = getComputedStyle(e);
          if (style.overflowX !== 'auto' && style.overflowX !== 'scroll') return;
          kinds.add(e.tagName.toLowerCase() + '.' + e.className.split(' ')[0]);
          const layers = (style.backgroundImage.match(/gradient\\(/g) || []).length;
          if (layers < 4 || !style.backgroundAttachment.includes('local') ||
              !style.backgroundAttachment.includes('scroll'))
            out.push(e.tagName.toLowerCase() + '.' + e.className + ' #' + (e.id || e.parentNode.id || ''));
        });
        return [Array.from(kinds).sort(), out];""")
    assert len(found[0]) >= 3, "too few kinds of scrolling box at 375 px: %r" % found[0]
    assert found[1] == [], "boxes that scroll sideways without the shadows: %r" % found[1]


def test_contents_numbers_line_up(browser):
    """In the contents each title starts where the others of its level do, after its number: a sub-entry's
    number of five characters ("10.10") was wider than the room kept for it, and pushed its title right (issue 41,
    a Chromium check)."""
    browser, _, _ = browser
    browser.view(1280, 900)
    found = browser.run("""
        const starts = {}, opened = [];
        document.querySelectorAll('#TOC li:not(.open)').forEach(li => { li.classList.add('open'); opened.push(li); });
        document.querySelectorAll('#TOC li > a').forEach(a => {
          const number = a.querySelector('.toc-section-number');
          if (!number || !a.getClientRects().length) return;
          const text = Array.from(a.childNodes).find(n => n.nodeType === 3 && n.textContent.trim());
          if (!text) return;
          const range = document.createRange();
          range.selectNodeContents(text);
          const level = number.textContent.trim().split('.').length;
          const x = Math.round(range.getClientRects()[0].left * 2) / 2;
          (starts[level] = starts[level] || {})[x] = number.textContent.trim();
        });
        opened.forEach(li => li.classList.remove('open'));
        return starts;""")
    assert len(found) >= 2, "too few levels in the contents: %r" % found
    uneven = {level: xs for level, xs in found.items() if len(xs) > 1}
    assert uneven == {}, "titles of one level starting at different x (x: an entry's number): %r" % uneven


def test_table_code_wraps_only_at_its_spaces_on_a_phone(browser):
    """At 375 px a table's code may wrap, but never right after an option's leading dashes: the command-line
    table's --shapes=FILE came out as "--" over "shapes=FILE" (issue 41, a Chromium check); page.lua makes the
    dashes and the name after them one no-wrap span."""
    browser, _, _ = browser
    browser.view(375, 812)
    broken = browser.run(CHAR_ROW + r"""
        const found = [];
        let checked = 0;
        document.querySelectorAll('main td code').forEach(code => {
          if (!code.textContent.includes('-')) return;
          checked++;
          const chars = [], walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
          let space = true;
          for (let n = walker.nextNode(); n; n = walker.nextNode())
            for (let i = 0; i < n.data.length; i++) {   // [char, its row, whether it starts a word]
              if (n.data[i].trim()) chars.push([n.data[i], charRow(n, i), space]);
              space = !n.data[i].trim();
            }
          // a break after a word's leading dashes: after "-" that starts a word or follows another "-"
          for (let i = 1; i < chars.length; i++)
            if (chars[i - 1][0] === '-' && (chars[i - 1][2] || (i >= 2 && chars[i - 2][0] === '-')) &&
                chars[i][1] !== null && chars[i - 1][1] !== null &&
                chars[i][1] - chars[i - 1][1] > 2) { found.push(code.textContent.slice(0, 40)); break; }
        });
        return [checked, found];""")
    assert broken[0] >= 10, "too few table code spans with a hyphen: %d" % broken[0]
    assert broken[1] == [], "table code broken after an option's dashes at 375 px: %r" % broken[1]


def test_a_type_pair_breaks_only_on_a_phone(browser):
    """The break points after a type pair's underscores (<wbr>) are hidden from 36rem up: at 1280 px every name
    in a table's first column is on one line; at 375 px the longest, BF16_IN_F32_OUT, on two at most."""
    browser, _, _ = browser
    for width, most in ((1280, 1), (375, 2)):
        browser.view(width, 900)
        lines = browser.run("""
            return Array.from(document.querySelectorAll('main .table-wrap td:first-child .name')).map(name => {
              const tops = new Set(Array.from(name.getClientRects()).map(r => Math.round(r.top)));
              return [name.textContent, tops.size];
            });""")
        assert lines, "no type pair is marked as a name in a table's first column"
        broken = [(name, count) for name, count in lines if count > most]
        assert broken == [], "at %d px, names on more than %d line(s): %r" % (width, most, broken[:5])


def svg_figures(browser, plots_only=True):
    """[(index among figure images, alt, smallest font size in the SVG's user units,
    viewBox width)] of the figures drawn by matplotlib (docs/bench/plot.py, steps.py); with
    plots_only false, of every SVG figure (the diagrams of docs/figures/ too)."""
    import base64
    import urllib.parse
    sources = browser.run("return Array.from(document.querySelectorAll('figure img')).map(i => [i.src, i.alt]);")
    found = []
    for index, (src, alt) in enumerate(sources):
        header, _, data = src.partition(",")
        if "svg" not in header:
            continue
        text = base64.b64decode(data).decode("utf-8") if ";base64" in header else urllib.parse.unquote(data)
        if plots_only and "Matplotlib" not in text:
            continue
        sizes = [float(size) for size in re.findall(r"font-size:\s*([0-9.]+)px", text)]
        sizes += [float(size) for size in re.findall(r"font:\s*(?:[a-z]+\s+)*([0-9.]+)px", text)]
        view_box = re.search(r'viewBox="[-0-9.]+ [-0-9.]+ ([0-9.]+) ', text)
        found.append((index, alt, min(sizes), float(view_box.group(1)), text))
    return found


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width,height", VIEWS, ids=["375px", "1280px"])
def test_figure_text_is_at_least_10px(browser, width, height, scheme):
    """Every figure, plot or diagram, is drawn for the column (on a phone, at the column's width in a box that
    scrolls): its smallest text, at the size the page shows it, is 10 CSS px or more (at 1x)."""
    browser, _, _ = browser
    browser.view(width, height, dark=scheme == "dark")
    plots = svg_figures(browser, plots_only=False)
    assert len(plots) >= 10, "the figures are not on the page"
    widths = browser.run("return Array.from(document.querySelectorAll('figure img'))"
                         ".map(i => i.getBoundingClientRect().width);")
    small = ["%s: %.1f px" % (alt[:50], size * widths[index] / view_width)
             for index, alt, size, view_width, _ in plots if size * widths[index] / view_width < 10]
    assert small == []


def test_no_plot_line_crosses_a_ceiling_label(browser):
    """A plot's "WMMA ceiling" label sits on a box of the background, drawn after every data line that passes
    under it: in the Results plot's tf32 panel a cuBLAS line crossed the label (2.2:1 where they met; issue 41,
    a Chromium check). Lines are sampled every 2 units; a point inside the label's box must belong to a line
    drawn before it."""
    browser, _, _ = browser
    plots = [plot for plot in svg_figures(browser) if "WMMA ceiling" in plot[4]]
    assert plots, "no plot with a ceiling label on the page"
    driver = browser.driver
    page_window = driver.current_window_handle
    driver.switch_to.new_window("tab")
    crossed, labels = [], 0
    try:
        for _, alt, _, _, text in plots:
            browser.view(1280, 900)
            driver.get("data:image/svg+xml;charset=utf-8," + urllib_quote(text))
            found = browser.run("""
                const out = [];
                const labels = Array.from(document.querySelectorAll('text'))
                                    .filter(t => t.textContent.startsWith('WMMA ceiling'));
                const lines = Array.from(document.querySelectorAll('g[id^="line2d_"] > path'));
                labels.forEach(label => {
                  const box = label.getBoundingClientRect();
                  const backing = Array.from(label.parentNode.querySelectorAll('path')).some(p => {
                    const r = p.getBoundingClientRect();
                    return getComputedStyle(p).fill === 'rgb(255, 255, 255)' && r.left <= box.left + 0.5 &&
                           r.right >= box.right - 0.5 && r.top <= box.top + 0.5 && r.bottom >= box.bottom - 0.5;
                  });
                  lines.forEach(line => {
                    const length = line.getTotalLength(), m = line.getScreenCTM();
                    for (let d = 0; d <= length; d += 2) {
                      const q = line.getPointAtLength(d), x = m.a * q.x + m.c * q.y + m.e, y = m.b * q.x + m.d * q.y + m.f;
                      if (x > box.left + 1 && x < box.right - 1 && y > box.top + 1 && y < box.bottom - 1) {
                        const under = backing && (line.compareDocumentPosition(label) & Node.DOCUMENT_POSITION_FOLLOWING);
                        if (!under) out.push(label.textContent + ' crossed by ' + line.parentNode.id);
                        break;
                      }
                    }
                  });
                });
                return [labels.length, out];""")
            labels += found[0]
            crossed += ["%s: %s" % (alt[:30], c) for c in found[1]]
    finally:
        driver.close()
        driver.switch_to.window(page_window)
    assert labels >= 6, "too few ceiling labels found: %d" % labels
    assert crossed == [], "ceiling labels a plot line is drawn over: %r" % crossed


def test_plots_have_no_background_of_their_own(browser):
    """A plot is wider than a phone's column and scrolls in a box that shades the side with more to see. The plot's
    own white background (its figure and each axes) covered those shadows (issue 41, a Chromium check): the figure's
    and every axes' background patch must be unfilled, so the page and the shadows show through."""
    browser, _, _ = browser
    plots = svg_figures(browser)
    assert len(plots) >= 2, "the plots are not on the page"
    filled = []
    for _, alt, _, _, text in plots:
        backgrounds = re.findall(r'<g id="(?:figure_1|axes_\d+)">\s*<g id="(patch_\d+)">\s*<path [^>]*?style="([^"]*)"',
                                 text)
        backgrounds += re.findall(r'<g id="(patch_1)">\s*<path [^>]*?style="([^"]*)"', text)
        if len(backgrounds) < 2:
            filled.append("%s: background patches not found" % alt[:30])
        filled += ["%s: %s %s" % (alt[:30], patch, style) for patch, style in backgrounds if "fill: none" not in style]
    assert filled == [], "plot backgrounds that hide the page: %r" % filled


def test_plots_follow_the_colour_scheme(browser):
    """A plot's text is dark on a light page and light on a dark one: the SVG
    carries its own prefers-color-scheme rule (plot.py's themed())."""
    browser, url, _ = browser
    plots = svg_figures(browser)
    assert plots, "no plots on the page"
    driver = browser.driver
    page_window = driver.current_window_handle
    driver.switch_to.new_window("tab")
    try:
        for _, alt, _, _, text in plots:
            assert "prefers-color-scheme: dark" in text, "%s has no dark variant" % alt[:50]
            ink = {}
            for scheme in ("light", "dark"):
                browser.view(600, 400, dark=scheme == "dark")
                driver.get("data:image/svg+xml;charset=utf-8," + urllib_quote(text))
                ink[scheme] = browser.run("return getComputedStyle(document.querySelector('text')).fill;")
            assert ink["light"] == "rgb(0, 0, 0)", "%s: light text is %s" % (alt[:50], ink["light"])
            assert ink["dark"] not in ("rgb(0, 0, 0)", ""), "%s: dark text is %s" % (alt[:50], ink["dark"])
    finally:
        driver.close()
        driver.switch_to.window(page_window)


def urllib_quote(text):
    import urllib.parse
    return urllib.parse.quote(text, safe="")


def current_entry(browser, heading_id):
    """Scroll so the heading is at the top; (href of the marked contents entry, whether
    that entry lies inside the sidebar's visible box), once the mark has settled."""
    browser.run("document.getElementById(arguments[0]).scrollIntoView(); window.scrollBy(0, 2);", heading_id)
    marked = None
    for _ in range(20):
        time.sleep(0.1)
        marked = browser.run("""
            const link = document.querySelector('#TOC a[aria-current]');
            if (!link) return null;
            const box = document.getElementById('TOC').getBoundingClientRect(), entry = link.getBoundingClientRect();
            return [link.getAttribute('href'), entry.top >= box.top && entry.bottom <= box.bottom];""")
        if marked and marked[0] == "#" + heading_id:
            break
    return marked


def test_contents_mark_the_section_being_read(browser):
    """On a desktop the sidebar marks the section at the top of the window, the
    mark moves as one scrolls, it stays in view, and only the current
    chapter's subsections are unfolded."""
    browser, _, _ = browser
    browser.view(1280, 900)
    chapters = browser.run("""
        return Array.from(document.querySelectorAll('#TOC > details > ul > li'))
          .filter(li => li.querySelector('ul'))
          .map(li => [li.querySelector('a').getAttribute('href').slice(1),
                      li.querySelector('ul a').getAttribute('href').slice(1)]);""")
    assert len(chapters) >= 2, "fewer than two chapters with sections"
    for chapter, (_, section) in ((chapters[-1][0], chapters[-1]), (chapters[0][0], chapters[0])):
        marked = current_entry(browser, section)
        assert marked is not None and marked[0] == "#" + section, \
            "after scrolling to #%s the contents mark %r" % (section, marked)
        assert marked[1], "the marked entry #%s is outside the sidebar's view" % section
        unfolded = browser.run("""
            return Array.from(document.querySelectorAll('#TOC li > ul'))
              .filter(ul => getComputedStyle(ul).display !== 'none')
              .map(ul => ul.parentElement.querySelector('a').getAttribute('href').slice(1));""")
        assert unfolded == [chapter], "unfolded chapters %r while reading #%s" % (unfolded, section)
    height = browser.run("return document.getElementById('TOC').scrollHeight;")
    assert height < 2 * 900, "the folded sidebar is %d px tall" % height


def test_contents_start_closed_on_a_phone(browser):
    """Loaded on a phone, the contents are one closed line above the text."""
    browser, url, _ = browser
    browser.view(375, 812)
    try:
        browser.driver.get(url)
        assert browser.run("return document.querySelector('#TOC details').open;") is False
        height = browser.run("return document.getElementById('TOC').getBoundingClientRect().height;")
        assert height < 100, "the closed contents are %d px tall" % height
    finally:
        browser.view(1280, 900)
        browser.driver.get(url)


def test_contents_work_without_the_script(parsed, page):
    """Without scripts the contents are all there and open: the folding rules
    apply only to #TOC.folding, a class the script adds."""
    text = page.read_text(encoding="utf-8")
    nav = text[text.index('<nav id="TOC"'):text.index("</nav>")]
    assert "<details open>" in nav
    assert "folding" not in nav
    styles = "\n".join(parsed.styles)
    for rule in re.findall(r"([^{}]*)\{\s*display:\s*none", styles):
        hides_entries = "#TOC" in rule and re.search(r"\b(ul|li|a)\b", rule)
        assert not hides_entries or ".folding" in rule, "a rule hides entries of the contents: %s" % rule.strip()


CONTRAST = """
function rgba(text) {
  const m = text.match(/rgba?\\(([^)]+)\\)/);
  if (!m) return null;
  const parts = m[1].split(',').map(Number);
  return [parts[0], parts[1], parts[2], parts.length > 3 ? parts[3] : 1];
}
function background(element) {   // the colour behind the element: translucent backgrounds over what is below
  const layers = [];
  for (let e = element; e; e = e.parentElement) {
    const colour = rgba(getComputedStyle(e).backgroundColor);
    if (colour && colour[3] > 0) layers.push(colour);
    if (colour && colour[3] >= 1) break;
  }
  let under = layers.length && layers[layers.length - 1][3] >= 1 ? layers.pop() : [255, 255, 255, 1];
  while (layers.length) {
    const c = layers.pop();
    under = [0, 1, 2].map(i => c[i] * c[3] + under[i] * (1 - c[3])).concat([1]);
  }
  return under;
}
function luminance(c) {
  const channel = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2]);
}
const seen = new Map();
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  if (!node.textContent.trim()) continue;
  const element = node.parentElement;
  if (!element || element.closest('script, style, svg, [aria-hidden="true"]')) continue;
  if (!element.getClientRects().length) continue;         // not rendered (a closed <details>)
  const style = getComputedStyle(element);
  if (style.visibility === 'hidden') continue;
  const colour = rgba(style.color), back = background(element);
  const over = [0, 1, 2].map(i => colour[i] * colour[3] + back[i] * (1 - colour[3]));
  const l1 = luminance(over), l2 = luminance(back);
  const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
  const key = style.color + ' on ' + back.join(',');
  if (!seen.has(key) || seen.get(key).ratio > ratio)
    seen.set(key, {ratio: ratio, example: element.tagName.toLowerCase() + '.' + element.className + ': ' +
                   node.textContent.trim().slice(0, 30)});
}
return Array.from(seen.entries()).map(([key, v]) => [key, v.ratio, v.example]);
"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_contrast_is_at_least_4_5(browser, scheme):
    """Every piece of text on the page (prose, code and its highlighting, the
    line labels, the contents and the entry it marks, captions, tables) has a contrast of 4.5:1 or
    more against what it is drawn on (WCAG 2 AA), with every folded block open."""
    browser, _, _ = browser
    browser.view(1280, 900, dark=scheme == "dark")
    # the contents mark the entry being read (docs/toc.html): scroll to a section so that one is marked
    browser.run("document.getElementById('command-line').scrollIntoView();")
    time.sleep(0.3)
    assert browser.run("return document.querySelectorAll('#TOC a[aria-current]').length;") == 1
    browser.run("document.querySelectorAll('details').forEach(d => d.open = true);")
    try:
        pairs = browser.run(CONTRAST)
    finally:
        browser.run("document.querySelectorAll('details.listing').forEach(d => d.open = false);")
    assert len(pairs) > 10, "too few colour pairs found: %r" % pairs
    low = ["%s: %.2f:1 (%s)" % (key, ratio, example) for key, ratio, example in pairs if ratio < 4.5]
    assert low == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_code_fits_the_column_on_a_desktop(browser, scheme):
    """At 1280 px no code block scrolls sideways, folded ones opened: a long
    line wraps under itself (docs/code_lines.py gives each line its indentation)."""
    browser, _, _ = browser
    browser.view(1280, 900, dark=scheme == "dark")
    browser.run("document.querySelectorAll('details').forEach(d => d.open = true);")
    try:
        wide = browser.run("""
            return Array.from(document.querySelectorAll('main pre'))
              .filter(pre => pre.getClientRects().length && pre.scrollWidth > pre.clientWidth + 1)
              .map(pre => pre.textContent.split('\\n').sort((a, b) => b.length - a.length)[0].slice(0, 80));""")
    finally:
        browser.run("document.querySelectorAll('details.listing').forEach(d => d.open = false);")
    assert wide == [], "code blocks that scroll sideways at 1280 px"


def test_a_macros_backslash_never_wraps_alone(browser):
    """At 1280 px long code lines wrap inside the column. A macro line padded to put its backslash in a column
    wrapped before the backslash, which then stood alone on a row (23 lines, a Chromium check of issue 41);
    code_lines.py puts the padding in a span that style.css shrinks there. Each backslash that ends a line
    shares its row with the character before it."""
    browser, _, _ = browser
    browser.view(1280, 900)
    browser.run("document.querySelectorAll('details').forEach(d => d.open = true);")
    try:
        alone = browser.run(CHAR_ROW + r"""
            const found = [];
            let lines = 0;
            document.querySelectorAll('main pre > code.sourceCode > span[id]').forEach(line => {
              const text = line.textContent;
              if (!/\\\s*$/.test(text) || !text.trim().replace(/\\$/, '').trim()) return;
              const nodes = [], walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
              for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n);
              let slash = null, before = null;
              for (let i = nodes.length - 1; i >= 0 && !before; i--)
                for (let j = nodes[i].data.length - 1; j >= 0; j--) {
                  const c = nodes[i].data[j];
                  if (!slash) { if (c === '\\') slash = [nodes[i], j]; continue; }
                  if (c.trim()) { before = [nodes[i], j]; break; }
                }
              if (!slash || !before) return;
              lines++;
              const a = charRow(...slash), b = charRow(...before);
              if (a !== null && b !== null && Math.abs(a - b) > 2) found.push(text.trim().slice(0, 50));
            });
            return [lines, found];""")
    finally:
        browser.run("document.querySelectorAll('details.listing').forEach(d => d.open = false);")
    assert alone[0] >= 40, "too few lines ending in a backslash found: %d" % alone[0]
    assert alone[1] == [], "backslashes alone on a row at 1280 px: %r" % alone[1]


def test_wrapped_code_never_splits_an_operator(browser):
    """At 1280 px, where long code lines wrap, no operator (->, --, <<) is broken across two lines:
    every highlighted operator lies on one line box (the stylesheet keeps span.op whole)."""
    browser, _, _ = browser
    browser.view(1280, 900)
    browser.run("document.querySelectorAll('details').forEach(d => d.open = true);")
    try:
        split = browser.run("""
            return Array.from(document.querySelectorAll('main pre code.sourceCode span.op'))
              .filter(op => op.textContent.length > 1 && op.getClientRects().length > 1)
              .map(op => op.closest('span[id]').textContent.trim().slice(0, 80));""")
    finally:
        browser.run("document.querySelectorAll('details.listing').forEach(d => d.open = false);")
    assert split == [], "operators split by a wrap at 1280 px, in these lines"


@pytest.mark.parametrize("width", [800, 1280])
def test_wrapped_code_keeps_a_wide_column(browser, width):
    """Where long code lines wrap (800 px and up), a continuation starts four characters deeper than its line, but
    never so deep that what is left is narrow: a continuation aligned 75 characters in wrapped `INT_INPUT_LOW +
    255)` two letters a row at 1280 px, and 13 lines at 800 px had under 40 characters (a Chromium check, stop 54).
    Every code line that wraps keeps at least 40 characters beside its continuation's indent."""
    browser, _, _ = browser
    browser.view(width, 900)
    browser.run("document.querySelectorAll('details').forEach(d => d.open = true);")
    try:
        narrow = browser.run("""
            const found = [];
            let wrapped = 0;
            document.querySelectorAll('main pre > code.sourceCode > span[id]').forEach(line => {
              const style = getComputedStyle(line), box = line.getBoundingClientRect();
              const height = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.5;
              if (box.height < 1.5 * height) return;
              wrapped++;
              const ch = parseFloat(style.fontSize) * 0.6;
              const left = (box.width - parseFloat(style.paddingLeft)) / ch;
              if (left < 40) found.push(Math.round(left) + ' characters: ' + line.textContent.trim().slice(0, 60));
            });
            return [wrapped, found];""")
    finally:
        browser.run("document.querySelectorAll('details.listing').forEach(d => d.open = false);")
    assert narrow[0] >= 20, "too few wrapped code lines found at %d px: %d" % (width, narrow[0])
    assert narrow[1] == [], "wrapped code lines with a narrow column at %d px: %r" % (width, narrow[1][:5])


def test_wrapped_code_lines_keep_their_indentation(page):
    """Every indented code line carries its indentation (--i) and no hidden
    per-line link is left (docs/code_lines.py ran)."""
    text = page.read_text(encoding="utf-8")
    assert 'aria-hidden="true" tabindex="-1"></a>' not in text, "pandoc's per-line links are still there"
    lines = re.findall(r'<span id="cb\d+-\d+"( style="--i:(\d+)")?>((?:<span class="[a-z]+">)*)( *)', text)
    assert len(lines) > 100, "too few code lines found"
    for _, indent, _, spaces in lines:
        assert int(indent or 0) == len(spaces), "a line indented %d spaces says --i:%s" % (len(spaces), indent)
