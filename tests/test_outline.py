"""The outline of gemm.md (issue 14): the reading guide, the glossary, the appendix.

Reads gemm.md as text; needs neither pandoc nor a GPU.  Heading identifiers
are computed as pandoc's auto_identifiers extension makes them (an explicit
``{#id}`` wins), so a link that these tests accept lands on a heading of the
woven page; tests/test_page.py checks the same links in a browser.

* Every in-page link of gemm.md names a heading or an element with an
  explicit id.
* The glossary has one entry per term, in alphabetical order, and each
  entry links to a section whose own text (up to the next heading) names
  the term: the section that defines it.
* No glossary term is used before the section that defines it (issue 31),
  except in the reading guide, which announces them, and in a paragraph
  that links to that section (a forward reference the reader can follow);
  what the guide's "What you need" asks the reader to know (warps) is
  known from the start.
* The self-tests are an appendix: the last chapter, after Results and after
  "Trying other configurations", holding the definition of self_test.
* The reading guide names the short and the full path and how to run the
  program, and links to the glossary and the appendix.
"""

import re
import unittest
from pathlib import Path

GEMM_MD = Path(__file__).resolve().parent.parent / "gemm.md"
APPENDIX_ID = "testing-the-host-code-without-a-gpu"
GLOSSARY_ENTRY = re.compile(r"^- \*\*(?P<term>[^*]+)\*\*: (?P<text>.*)$")
LINK = re.compile(r"\]\(#(?P<id>[^)\s]+)\)")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
HEADING = re.compile(r"^(?P<level>#{1,6}) (?P<title>.*?)(?: \{(?P<attributes>[^}]*)\})?\s*$")


def pandoc_id(title):
    """The identifier pandoc gives a heading: formatting dropped, lower case,
    only letters, digits, _ - . kept, spaces made hyphens, nothing before the
    first letter."""
    text = re.sub(r"[`*]", "", title).lower()
    text = "".join(c for c in text if c.isalnum() or c in "_-." or c.isspace())
    text = re.sub(r"\s+", "-", text.strip())
    match = re.search(r"[^\W\d_]", text)
    return text[match.start():] if match else "section"


def read_sections():
    """[(level, title, id, prose lines)] for every heading of gemm.md, in order;
    the lines are the prose under the heading, up to the next one, without code blocks."""
    sections, fence = [], None
    for line in GEMM_MD.read_text(encoding="utf-8").split("\n"):
        match = FENCE.match(line)
        if fence is not None:
            if match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence) \
                    and line.strip() == match.group(1):
                fence = None
            continue
        if match:
            fence = match.group(1)
            continue
        heading = HEADING.match(line)
        if heading:
            explicit = re.search(r"#([\w.-]+)", heading.group("attributes") or "", re.UNICODE)
            title = heading.group("title")
            sections.append((len(heading.group("level")), title,
                             explicit.group(1) if explicit else pandoc_id(title), []))
        elif sections:
            sections[-1][3].append(line)
    return sections


def chapter(sections, section_id):
    """The prose of a level-1 chapter and all its subsections."""
    start = next(i for i, section in enumerate(sections) if section[2] == section_id)
    lines = list(sections[start][3])
    for level, _, _, prose in sections[start + 1:]:
        if level == 1:
            break
        lines += prose
    return lines


READING_GUIDE = "reading-and-running-this-document"


def uses_before_definition(sections, entries):
    """'term: first used in "section"' for every glossary term whose first use in the prose comes
    before the section its entry links to, outside the reading guide and outside a paragraph that
    links to that section."""
    order = {section[2]: index for index, section in enumerate(sections)}
    guide = next((s[3] for s in sections if s[2] == READING_GUIDE), [])
    needed = " ".join(guide)
    needed = needed[needed.find("**What you need.**"):].split("**")[2].lower() \
        if "**What you need.**" in needed else ""   # the prerequisites, up to the next bold phrase
    late = []
    for term, text in entries:
        target = LINK.search(text).group("id")
        names = [name.replace("`", "").lower() for name in term.split(", ")]
        word = re.compile(r"(?<![\w-])(%s)(s|es)?(?![\w-])" % "|".join(re.escape(n) for n in names))
        if word.search(needed):
            continue   # a prerequisite: the reader knows it before page one
        for index, (_, title, section_id, prose) in enumerate(sections):
            if index >= order.get(target, 0) or section_id == "glossary":
                break
            if section_id == READING_GUIDE:
                continue
            first = None   # the first paragraph that uses the term: does it link to the definition?
            paragraph = []
            for line in prose + [""]:
                if line.strip():
                    paragraph.append(line)
                    continue
                text_of = "\n".join(paragraph)
                if word.search(text_of.replace("`", "").lower()):
                    first = "(#%s)" % target in text_of
                    break
                paragraph = []
            if first is False:
                late.append('%s: first used in "%s", defined in #%s' % (term, title, target))
            if first is not None:
                break
    return late


class Outline(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.sections = read_sections()
        cls.ids = {section[2] for section in cls.sections}
        cls.text = GEMM_MD.read_text(encoding="utf-8")

    def test_heading_ids_as_pandoc_makes_them(self):
        self.assertEqual(pandoc_id("d_gemm: the tiled kernel"), "d_gemm-the-tiled-kernel")
        self.assertEqual(pandoc_id("Writing `.npy` files"), "writing-.npy-files")
        self.assertEqual(pandoc_id("The epilogue: coalesced, vectorized, α and β"),
                         "the-epilogue-coalesced-vectorized-α-and-β")
        self.assertEqual(pandoc_id("How fast can the tensor cores go?"), "how-fast-can-the-tensor-cores-go")

    def test_every_in_page_link_lands(self):
        explicit = set(re.findall(r"\{#([\w.-]+)", self.text))
        missing = sorted({match.group("id") for match in LINK.finditer(self.text)} - self.ids - explicit)
        self.assertEqual(missing, [], "links to no heading or id of gemm.md")

    def glossary(self):
        """[(term, entry text)] of the glossary, its wrapped lines joined."""
        entries, entry = [], None
        for line in chapter(self.sections, "glossary"):
            match = GLOSSARY_ENTRY.match(line)
            if match:
                entry = [match.group("term"), match.group("text")]
                entries.append(entry)
            elif entry is not None and line.startswith("  "):
                entry[1] += " " + line.strip()
            else:
                entry = None
        return entries

    def test_no_term_is_used_before_its_definition(self):
        late = uses_before_definition(self.sections, self.glossary())
        self.assertEqual(late, [], "glossary terms used before the section that defines them "
                         "(link to it, or define the term earlier):\n  " + "\n  ".join(late))

    def test_the_definition_order_check_can_fail(self):
        """A made-up document: a term used one section early, without a link, is reported."""
        sections = [(1, "Intro", "intro", ["We use a slab here."]),
                    (1, "Slabs", "slabs", ["A *slab* is ..."]),
                    (1, "Later", "later", ["See [slabs](#slabs): a slab again."])]
        self.assertEqual(len(uses_before_definition(sections, [("slab", "... ([Slabs](#slabs))")])), 1)
        sections[0][3][0] = "We use a slab here ([Slabs](#slabs))."
        self.assertEqual(uses_before_definition(sections, [("slab", "... ([Slabs](#slabs))")]), [])

    def test_glossary_entries_link_to_the_section_that_defines_them(self):
        entries, entry = [], None
        for line in chapter(self.sections, "glossary"):
            match = GLOSSARY_ENTRY.match(line)
            if match:
                entry = [match.group("term"), match.group("text")]
                entries.append(entry)
            elif entry is not None and line.startswith("  "):
                entry[1] += " " + line.strip()
            else:
                entry = None
        self.assertGreaterEqual(len(entries), 15, "the glossary has too few entries")
        terms = [term.replace("`", "").lower() for term, _ in entries]
        self.assertEqual(terms, sorted(terms), "glossary entries are not in alphabetical order")
        self.assertEqual(len(terms), len(set(terms)), "a term is in the glossary twice")
        by_id = {section[2]: section for section in self.sections}
        for term, text in entries:
            links = [match.group("id") for match in LINK.finditer(text)]
            self.assertEqual(len(links), 1, "glossary entry %r needs exactly one link to a section" % term)
            self.assertIn(links[0], by_id, "glossary entry %r links to no heading" % term)
            _, title, _, prose = by_id[links[0]]
            section = (title + "\n" + "\n".join(prose)).lower()
            for name in term.replace("`", "").split(", "):
                self.assertIn(name.lower(), section, "glossary entry %r links to %r, which does not name it"
                              % (term, title))

    def test_the_self_tests_are_the_last_chapter_an_appendix(self):
        chapters = [(title, section_id) for level, title, section_id, _ in self.sections if level == 1]
        ids = [section_id for _, section_id in chapters]
        self.assertIn(APPENDIX_ID, ids)
        self.assertEqual(ids[-1], APPENDIX_ID, "the self-test appendix is not the last chapter")
        self.assertTrue(chapters[-1][0].startswith("Appendix"), chapters[-1][0])
        self.assertLess(ids.index("results"), ids.index(APPENDIX_ID))
        self.assertLess(ids.index("trying-other-configurations"), ids.index(APPENDIX_ID))
        appendix_start = self.text.index("\n# " + chapters[-1][0])
        self.assertGreater(self.text.index("static int self_test(void)\n{"), appendix_start,
                           "self_test is not defined in the appendix")

    def test_the_reading_guide_gives_the_paths(self):
        guide = "\n".join(chapter(self.sections, "reading-and-running-this-document"))
        for phrase in ("short path", "full path", "make run", "make test", "(#glossary)", "(#%s)" % APPENDIX_ID,
                       "(#results)"):
            self.assertIn(phrase, guide)


if __name__ == "__main__":
    unittest.main()
