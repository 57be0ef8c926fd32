"""Every name in the code the page shows is known where the reader meets it (issue 41).

A name the program defines (a macro, type, function, enum constant or table) that a code block shows,
including the step views docs/step_code.py folds, must be defined in that block or an earlier one, or be
named in the prose between the previous code block and this one. Reads gemm.md; needs no GPU or pandoc.

KNOWN_LATE lists the uses not yet mended, per section: the test fails on a late use that is not listed, and on
a listed one that is no longer late, so the list only shrinks.
"""

import os
import re
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "docs"))
import step_code  # noqa: E402

GEMM_MD = os.path.join(ROOT, "gemm.md")
APPENDIX = "# Appendix: testing the host code without a GPU"

# Section title -> names its code shows before they are defined, not yet mended (none now; the list is kept so
# that a use that cannot be mended at once is written down, not hidden).
KNOWN_LATE = {}

NOT_DEFINITIONS = {"static_assert"}   # at column 0 it looks like a function's name line
FENCE = re.compile(r"^(`{3,})(.*)$")
DEFINITIONS = (
    re.compile(r"^\s*#\s*define\s+(\w+)"),
    re.compile(r"^typedef\b[^;]*?\b(\w+)\s*(?:\[[^\]]*\])?\s*;"),
    re.compile(r"^\}\s*(\w+)\s*;"),
    re.compile(r"^(?:typedef\s+)?(?:struct|enum)\s+(\w+)"),
    # a function or variable at file scope: a declarator at column 0 followed by ( [ = or ;
    re.compile(r"^(?!(?:return|if|for|while|switch|case|else|do)\b)(?:template\s*<[^>]*>\s*)?"
               r"(?:[A-Za-z_][\w:<>,]*[\s*&]+)+\**(\w+)\s*(?:\(|\[|=|;)"),
    re.compile(r"^(\w+)\s*\("),   # the name line of a function whose return type sits on the line above
)
ENUM_CONSTANT = re.compile(r"^\s+([A-Z][A-Z0-9_]*)\s*(?:=[^,]*)?,?\s*(?:/\*.*)?$")
IDENTIFIER = re.compile(r"(?<![\w.>])([A-Za-z_]\w*)")


def blocks(text):
    """[(line, section, info, code lines, prose since the previous code block)] for every fenced block."""
    out, fence, info, code, prose, start, section = [], None, "", [], [], 0, ""
    for number, line in enumerate(text.split("\n"), 1):
        match = FENCE.match(line)
        if fence is None and match:
            fence, info, code, start = match.group(1), match.group(2).strip(), [], number
            continue
        if fence is not None:
            if line.strip() == fence:
                out.append((start, section, info, code, prose))
                fence, prose = None, []
            else:
                code.append(line)
            continue
        if line.startswith("#"):
            section = line.lstrip("#").strip()
        prose.append(line)
    return out


def is_code(info):
    return info.startswith(("cuda", "{.cuda", "{.step"))


def definitions(all_blocks):
    """name -> line of the block that first defines it (the appendix's code left out)."""
    found = {}
    for start, _, info, code, _ in all_blocks:
        if not is_code(info) or info.startswith("{.step"):
            continue
        in_enum = False
        for line in code:
            for pattern in DEFINITIONS:
                match = pattern.match(line)
                if match and not match.group(1).startswith("__") and match.group(1) not in NOT_DEFINITIONS:
                    found.setdefault(match.group(1), start)
            if re.match(r"^(?:typedef\s+)?enum\b", line):
                in_enum = True
            elif in_enum:
                if line.startswith("}"):
                    in_enum = False
                match = ENUM_CONSTANT.match(line)
                if match:
                    found.setdefault(match.group(1), start)
    return found


def shown_code(info, code):
    """The code the page shows for a block: a step view as docs/step_code.py folds it."""
    if not info.startswith("{.step"):
        return "\n".join(code)
    attributes = step_code.block_attributes(info)
    kernel, step, show = attributes["kernel"], int(attributes["step"]), attributes["show"].split()
    numbers, spell = attributes.get("numbers") == "1", attributes.get("spell") == "1"
    after = step_code.view(GEMM_MD, kernel, step, show, numbers=numbers, spell=spell)
    if "context" in attributes and step > 1:
        before = step_code.view(GEMM_MD, kernel, step - 1, show, called_only=True, numbers=numbers)
        after, _ = step_code.elide(after, step_code.changed_lines(before, after), int(attributes["context"]), step)
    return "\n".join(after)


def field_names(code):
    """The names a struct in `code` declares as its fields: they name nothing outside it."""
    fields, depth = set(), 0
    for line in code.split("\n"):
        if re.match(r"^\s*(?:typedef\s+)?struct\b[^;]*\{\s*$", line):
            depth = 1
            continue
        if depth:
            if line.startswith("}"):
                depth = 0
                continue
            declared = re.sub(r"\[[^\]]*\]", "", line.split(";")[0])
            fields.update(IDENTIFIER.findall(declared)[1:])
    return fields


def late_uses(text):
    """{section: set of names} shown before their definition and not named in the prose just before."""
    all_blocks = blocks(text.split(APPENDIX)[0])
    defined = definitions(all_blocks)
    late = {}
    for start, section, info, code, prose in all_blocks:
        if not is_code(info):
            continue
        shown = re.sub(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\])*\"", " ", shown_code(info, code), flags=re.S)
        before = "\n".join(prose)
        own = set(step_code.block_attributes(info).get("show", "").split())   # a step view shows their definitions
        for name in set(IDENTIFIER.findall(shown)) - own - field_names(shown):
            if defined.get(name, 0) > start and not re.search(r"\b%s\b" % re.escape(name), before):
                late.setdefault(section, set()).add(name)
    return late


class Names(unittest.TestCase):
    def test_every_shown_name_is_known_where_it_is_shown(self):
        with open(GEMM_MD, encoding="utf-8") as handle:
            late = late_uses(handle.read())
        new = ["%s: %s" % (section, ", ".join(sorted(names - KNOWN_LATE.get(section, set()))))
               for section, names in sorted(late.items()) if names - KNOWN_LATE.get(section, set())]
        self.assertEqual(new, [], "names a code block shows before their definition, and the prose before it "
                                  "does not name (define them earlier, or name them in the sentences before)")
        mended = ["%s: %s" % (section, ", ".join(sorted(names - late.get(section, set()))))
                  for section, names in sorted(KNOWN_LATE.items()) if names - late.get(section, set())]
        self.assertEqual(mended, [], "KNOWN_LATE lists uses that are no longer late: remove them")

    def test_the_check_can_fail(self):
        text = ("# A\n\nWe call it.\n\n```cuda\nint x = helper(1);\n```\n\n# B\n\n"
                "```cuda\nstatic int helper(int v)\n{\n    return v;\n}\n```\n")
        self.assertEqual(late_uses(text), {"A": {"helper"}})
        self.assertEqual(late_uses(text.replace("We call it.", "We call `helper`.")), {})


if __name__ == "__main__":
    unittest.main()
