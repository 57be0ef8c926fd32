"""Budgets that keep out/gemm.cu readable on its own (issue 18).

The test tangles gemm.md afresh (tangle.py, into a temporary file) and measures
the result, so it checks the document, not a stale out/gemm.cu.  Both budgets
are named constants below; they change only by a deliberate commit.

How it counts
-------------
* Comments (/* ... */ and // ...) and the insides of string and character
  literals are blanked first, keeping the line breaks.
* A code line is a line of gemm.cu that is not blank after that, other than
  the ``#line`` directives tangle.py writes.
* A conditional-compilation line is a code line that starts a directive
  ``#if``, ``#ifdef``, ``#ifndef``, ``#elif``, ``#else`` or ``#endif``, or
  continues one with a backslash.  ``#define``, ``#error``, ``#include`` and
  ``#pragma`` are not conditional compilation.
* A host function is a function definition at file scope that is not a
  kernel (``__global__``) and not device-only (``__device__`` without
  ``__host__``); a ``__host__ __device__`` function counts as host code.  Its
  length is the number of lines of gemm.cu from the first line of its
  declaration (template line and attributes included) to its closing brace,
  blank lines and any ``#line`` directives inside included.
"""

import os
import re
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

MAX_HOST_FUNCTION_LINES = 80
MAX_CONDITIONAL_SHARE = 0.05   # of the code lines

CONDITIONAL = re.compile(r"\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b")
LINE_DIRECTIVE = re.compile(r"\s*#\s*line\b")


def blank_comments_and_literals(text):
    """text with comments and the insides of literals replaced by spaces, line breaks kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
        elif text[i] in "\"'":
            quote, end = text[i], i + 1
            while end < n and text[end] != quote and text[end] != "\n":
                end += 2 if text[end] == "\\" else 1
            out.append(quote + " " * (end - i - 1) + quote)
            i = end + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def code_lines(code):
    """The code lines of blanked text, and how many of them are conditional compilation."""
    counted, conditional, continued = 0, 0, False
    for line in code.split("\n"):
        if not line.strip() or LINE_DIRECTIVE.match(line):
            continued = False
            continue
        counted += 1
        if continued or CONDITIONAL.match(line):
            conditional += 1
            continued = line.rstrip().endswith("\\")
        else:
            continued = False
    return counted, conditional


def function_name(header):
    """The name in front of the parameter list that ends a function's header."""
    end = header.rstrip()
    end = end[:-len("const")].rstrip() if end.endswith("const") else end
    depth = 0
    for i in range(len(end) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(end[i], 0)
        if depth == 0:
            match = re.search(r"(\w+)\s*$", end[:i])
            return match.group(1) if match else end.strip()[:40]
    return end.strip()[:40]


def functions(code):
    """(name, kind, first line, last line) of each function defined at file scope;
    kind is 'kernel', 'device' or 'host'."""
    lines = code.split("\n")
    continued = False
    for k, line in enumerate(lines):   # preprocessor lines take no part in the braces
        if continued or line.lstrip().startswith("#"):
            continued = line.rstrip().endswith("\\")
            lines[k] = ""
    code = "\n".join(lines)
    found, depth, header_start, opening = [], 0, 0, None
    for i, char in enumerate(code):
        if char == "{":
            if depth == 0:
                header = code[header_start:i]
                opening = i if re.search(r"\)\s*(const\s*)?$", header) and "=" not in header.split("(")[0] else None
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                if opening is not None:
                    header = code[header_start:opening]
                    leading = len(header) - len(header.lstrip())
                    first = code.count("\n", 0, header_start + leading) + 1
                    name = function_name(header)
                    kind = ("kernel" if "__global__" in header else
                            "device" if "__device__" in header and "__host__" not in header else "host")
                    found.append((name, kind, first,
                                  code.count("\n", 0, i) + 1))
                opening = None
                header_start = i + 1
        elif char == ";" and depth == 0:
            header_start = i + 1
    return found


class Budgets(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="gemm-readable-")
        out = os.path.join(cls.tmp.name, "gemm.cu")
        result = subprocess.run([sys.executable, os.path.join(ROOT, "tangle.py"), os.path.join(ROOT, "gemm.md"),
                                 "-o", out], capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            raise AssertionError("tangle.py failed: " + result.stderr)
        with open(out, encoding="utf-8") as f:
            cls.code = blank_comments_and_literals(f.read())

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_the_counter_sees_the_program(self):
        names = {name: kind for name, kind, _, _ in functions(self.code)}
        self.assertEqual((names.get("main"), names.get("run_gemm"), names.get("d_gemm"), names.get("store_tile")),
                         ("host", "host", "kernel", "device"))
        counted, conditional = code_lines(self.code)
        self.assertGreater(counted, 1000)
        self.assertGreater(conditional, 10)

    def test_the_counting_rules(self):
        sample = blank_comments_and_literals(
            '#line 1 "gemm.md"\n'
            "#if A /* { */\n"
            "#define B \"}\"\n"
            "static int f(void)   // {\n"
            "{\n"
            "\n"
            "    return '{';\n"
            "}\n"
            "#elif C + \\\n"
            "      D\n"
            "__global__ void k(int *x) { *x = 0; }\n"
            "#endif\n")
        self.assertEqual(code_lines(sample), (10, 4))
        self.assertEqual(functions(sample), [("f", "host", 4, 8), ("k", "kernel", 11, 11)])

    def test_no_host_function_is_longer_than_the_budget(self):
        long = ["%s: %d lines (gemm.cu lines %d-%d)" % (name, last - first + 1, first, last)
                for name, kind, first, last in functions(self.code)
                if kind == "host" and last - first + 1 > MAX_HOST_FUNCTION_LINES]
        self.assertEqual(long, [], "host functions over %d lines; split them into steps" % MAX_HOST_FUNCTION_LINES)

    def test_conditional_compilation_is_within_the_budget(self):
        counted, conditional = code_lines(self.code)
        self.assertLessEqual(conditional, MAX_CONDITIONAL_SHARE * counted,
                             "%d of %d code lines (%.1f%%) are #if/#ifdef/#ifndef/#elif/#else/#endif; the budget is "
                             "%.0f%%" % (conditional, counted, 100.0 * conditional / counted,
                                         100 * MAX_CONDITIONAL_SHARE))


class NoMarkdownInCode(unittest.TestCase):
    """A comment in the code names a section in words: out/gemm.cu and the page's listings show a Markdown
    link as raw text (issue 41's cold read: "([The last round](#the-last-round))" inside a comment)."""

    def links(self, text):
        out, fence = [], False
        for number, line in enumerate(text.split("\n"), 1):
            if line.startswith("```"):
                fence = not fence
            elif fence and re.search(r"\]\(#[\w-]+\)", line):
                out.append("gemm.md:%d: %s" % (number, line.strip()))
        return out

    def test_no_link_in_a_code_block(self):
        with open(os.path.join(ROOT, "gemm.md"), encoding="utf-8") as handle:
            self.assertEqual(self.links(handle.read()), [])

    def test_the_check_can_fail(self):
        self.assertEqual(len(self.links("```cuda\nint x;   /* see [Step 7](#filling-the-gpu) */\n```\n[a](#b)")), 1)


if __name__ == "__main__":
    unittest.main()
