"""Tests of tangle.py: the code-block rule, #line directives, --check, --map,
writing (only when changed, atomically), errors, and agreement with pandoc.

Tests that need nvcc or pandoc skip when the tool is missing.
"""

import contextlib
import errno
import io
import json
import os
import random
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest
from unittest import mock

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TANGLE = os.path.join(ROOT, "tangle.py")
FIXTURES = os.path.join(ROOT, "tests", "fixtures_tangle")
TRICKY = os.path.join(FIXTURES, "tricky.md")
GEMM_MD = os.path.join(ROOT, "gemm.md")
GEMM_CU = os.path.join(ROOT, "out", "gemm.cu")

sys.path.insert(0, ROOT)
import tangle  # noqa: E402  (after the path is set)

PANDOC = shutil.which("pandoc")
NVCC = shutil.which("nvcc") or (os.path.exists("/usr/local/cuda/bin/nvcc")
                                and "/usr/local/cuda/bin/nvcc")


def doc(text):
    """A test document: dedented, starting at its first line."""
    return textwrap.dedent(text).lstrip("\n")


def run_cli(*args, cwd):
    """Run tangle.py as a program; returns the CompletedProcess."""
    return subprocess.run([sys.executable, TANGLE, *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


def run_in_process(*args):
    """Run tangle.main in this process; returns (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = tangle.main(list(args))
    return status, out.getvalue(), err.getvalue()


def check_mapping(test, md_lines, out_text, md_name, entries):
    """The output is the header, then for each entry its #line directive and
    exactly the md lines it claims (less indentation), nothing else."""
    out_lines = out_text.split("\n")
    test.assertEqual(out_lines[-1], "", "the output ends with a newline")
    out_lines = out_lines[:-1]
    test.assertTrue(out_lines[0].startswith("// "), "the first line is the header comment")
    expected_next = 2
    for position, entry in enumerate(entries):
        test.assertEqual(entry["index"], position)
        if entry["cu_first"] == expected_next + 2:   # a chapter banner before the #line
            test.assertRegex(out_lines[expected_next - 1], r"^/\* ==== .+ ==== \*/$")
            expected_next += 1
        test.assertEqual(entry["cu_first"], expected_next + 1)
        test.assertEqual(out_lines[entry["cu_first"] - 2],
                         f'#line {entry["md_first"]} "{md_name}"')
        test.assertEqual(entry["cu_last"] - entry["cu_first"], entry["md_last"] - entry["md_first"])
        for offset in range(entry["cu_last"] - entry["cu_first"] + 1):
            code = out_lines[entry["cu_first"] - 1 + offset]
            source = md_lines[entry["md_first"] - 1 + offset]
            if source.strip(" \t") == "":
                test.assertEqual(code.strip(" "), "", f"md line {entry['md_first'] + offset}")
            else:
                test.assertTrue(source.endswith(code) and source[:len(source) - len(code)]
                                .strip(" ") == "",
                                f"md line {entry['md_first'] + offset} {source!r} "
                                f"vs cu line {entry['cu_first'] + offset} {code!r}")
        expected_next = entry["cu_last"] + 1
    test.assertEqual(len(out_lines), expected_next - 1, "no lines beyond the last block")


class TempDirTest(unittest.TestCase):
    """A test with its own temporary directory, self.dir."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="tangle-test-")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    def write(self, name, text, mode="w"):
        with open(self.path(name), mode, **({} if "b" in mode else {"newline": ""})) as f:
            f.write(text)
        return self.path(name)

    def read(self, name):
        with open(self.path(name), encoding="utf-8", newline="") as f:
            return f.read()

    def tangle_ok(self, text, name="doc.md"):
        """Tangle text in-process; return the output's text."""
        self.write(name, text)
        status, _, err = run_in_process(self.path(name), "-o", self.path("out.cu"))
        self.assertEqual((status, err), (0, ""))
        return self.read("out.cu")

    def blocks(self, text):
        """The code of each tangled block of text, as strings."""
        self.write("blocks.md", text)
        lines = tangle.read_lines(self.path("blocks.md"))
        return ["\n".join(block.lines) for block in tangle.find_blocks(lines, "blocks.md")]


# --------------------------------------------------------------------------
# Which blocks are code
# --------------------------------------------------------------------------

class BlockRuleTest(TempDirTest):

    def test_first_class_cuda_is_tangled(self):
        text = doc('''
            ```cuda
            a
            ```

            ```{.cuda}
            b
            ```

            ```{.cuda .details summary="Printing matrices"}
            c
            ```

            ```{#id .cuda key=value}
            d
            ```

            ```CUDA
            e
            ```

            ```{class="cuda other"}
            f
            ```

            ``` cuda  
            g
            ```
            ''')
        self.assertEqual(self.blocks(text), list("abcdefg"))

    def test_other_blocks_are_not_tangled(self):
        text = doc('''
            ```cuda
            kept
            ```

            ```sh
            make
            ```

            ```text
            out
            ```

            ```c
            int c;
            ```

            ```
            plain
            ```

            ```{.details .cuda}
            cuda is not the first class
            ```

            ```{=html}
            <b>raw</b>
            ```

            ```{.cudax}
            not cuda
            ```

            ```{.CUDA}
            attribute classes keep their case
            ```

                indented code block
            ''')
        self.assertEqual(self.blocks(text), ["kept"])

    def test_blocks_keep_document_order_and_content(self):
        text = doc('''
            Intro.

            ```cuda
            first();

            second();
            ```

            Between.

            ~~~cuda
            third();
            ~~~
            ''')
        self.assertEqual(self.blocks(text), ["first();\n\nsecond();", "third();"])

    def test_longer_fence_holds_shorter_and_other_fences(self):
        text = doc('''
            ````cuda
            ```
            ~~~
            ```cuda
            ````

            ~~~~cuda
            ```
            ~~~
            ~~~~~
            ''')
        self.assertEqual(self.blocks(text), ["```\n~~~\n```cuda", "```\n~~~"])

    def test_closing_fence_rules(self):
        text = doc('''
            ```cuda
            a
            ``` not closing: text after it
            ````   
            ''')
        self.assertEqual(self.blocks(text), ["a\n``` not closing: text after it"])

    def test_indented_fence_strips_its_indentation(self):
        text = "   ```cuda\n   a\n      b\n\n   ```\n\n  ~~~cuda\n  c\n   ~~~\n"
        self.assertEqual(self.blocks(text), ["a\n   b\n", "c"])

    def test_fence_in_a_two_space_list_item(self):
        text = doc('''
            - item

              ```cuda
              in_list();
              ```
            ''')
        self.assertEqual(self.blocks(text), ["in_list();"])

    def test_tabs_in_content_are_kept(self):
        text = "```cuda\n\tint\tx;\n  \ty;\n```\n"
        self.assertEqual(self.blocks(text), ["\tint\tx;\n  \ty;"])

    def test_html_comment_hides_blocks(self):
        text = doc('''
            <!--
            ```cuda
            hidden();
            ```
            -->

            <!-- one line --> <!-- two
            ```cuda
            also_hidden();
            ```
            -->

            ```cuda
            shown();
            ```
            ''')
        self.assertEqual(self.blocks(text), ["shown();"])

    def test_yaml_metadata_block_is_skipped(self):
        text = doc('''
            ---
            title: x
            abstract: |
              ```sh
              not a fence here
            ---

            ```cuda
            code();
            ```
            ''')
        self.assertEqual(self.blocks(text), ["code();"])

    def test_inline_code_showing_a_fence_is_not_a_fence(self):
        text = doc('''
            ```` ```cuda ```` opens a block, and so does
            ``` ~~~cuda ```.

            ```cuda
            real();
            ```
            ''')
        self.assertEqual(self.blocks(text), ["real();"])

    def test_heading_may_come_right_before_a_fence(self):
        text = "# Heading\n```cuda\nx();\n```\n"
        self.assertEqual(self.blocks(text), ["x();"])

    def test_info_string_parsing(self):
        cases = {
            "": [], "cuda": ["cuda"], "  CUDA  ": ["cuda"], "c++": ["cpp"],
            "{.cuda}": ["cuda"], "{ #x .a .b }": ["a", "b"], "{-}": ["unnumbered"],
            '{.a k="v w" .b}': ["a", "b"], "{class='x y'}": ["x", "y"],
            "{=html}": [], "{cuda}": ["{cuda}"], "{.1x}": ["{.1x}"], "cu`da": ["cu`da"],
            "cuda foo": None, "{.cuda} x": None, "{.cuda}}": None, '{.cuda k=" v"}': None,
            "{=html} x": None,
        }
        for info, classes in cases.items():
            with self.subTest(info=info):
                self.assertEqual(tangle.parse_info(info), classes)


# --------------------------------------------------------------------------
# The output and its #line directives
# --------------------------------------------------------------------------

class OutputTest(TempDirTest):

    def test_exact_output(self):
        text = doc('''
            # Title

            ```cuda
            #include <cstdio>
            ```

            Prose.

            ```{.cuda .details summary="x"}
            int main() {
                return 0;
            }
            ```
            ''')
        self.write("doc.md", text)
        result = run_cli("doc.md", "-o", "out/gemm.cu", cwd=self.dir)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(self.read("out/gemm.cu"),
                         "// out/gemm.cu: generated from doc.md by tangle.py. "
                         "Edit doc.md, not this file.\n"
                         "/* ==== Title ==== */\n"
                         '#line 4 "doc.md"\n'
                         "#include <cstdio>\n"
                         '#line 10 "doc.md"\n'
                         "int main() {\n"
                         "    return 0;\n"
                         "}\n")

    def test_a_banner_opens_each_chapter_with_code(self):
        """One banner per level-1 heading, before its first block; none for a chapter
        without code, a level-2 heading, a heading in a code block or in a paragraph."""
        out = self.tangle_ok(doc('''
            # Intro, no code

            # The `d_gemm` kernel {#kernel}

            ```cuda
            a();
            ```

            ## A section

            ```cuda
            b();
            ```

            ```text
            # not a heading
            ```

            Text
            # not a heading either

            # Last #

            ```cuda
            c();
            ```
            '''))
        self.assertEqual(re.findall(r"^/\*.*\*/$", out, re.MULTILINE),
                         ["/* ==== The d_gemm kernel ==== */", "/* ==== Last ==== */"])
        self.assertIn("/* ==== The d_gemm kernel ==== */\n#line 6 ", out)
        self.assertIn("/* ==== Last ==== */\n#line 25 ", out)

    def test_defaults_are_gemm_md_and_out_gemm_cu(self):
        self.write("gemm.md", "```cuda\nx();\n```\n")
        result = run_cli(cwd=self.dir)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn('#line 2 "gemm.md"\nx();\n', self.read("out/gemm.cu"))

    def test_line_directive_uses_the_path_as_given_escaped(self):
        os.mkdir(self.path('we"ird'))
        self.write('we"ird/doc.md', "```cuda\nx();\n```\n")
        result = run_cli('we"ird/doc.md', "-o", "o.cu", cwd=self.dir)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn('#line 2 "we\\"ird/doc.md"\n', self.read("o.cu"))

    def test_every_code_line_maps_to_its_markdown_line(self):
        with open(TRICKY, encoding="utf-8") as f:
            md_lines = f.read().split("\n")
        result = run_cli(TRICKY, "-o", self.path("t.cu"), cwd=self.dir)
        self.assertEqual(result.returncode, 0, result.stderr)
        mapping = run_cli(TRICKY, "-o", self.path("t.cu"), "--map", cwd=self.dir)
        entries = json.loads(mapping.stdout)
        self.assertEqual(len(entries), 20)
        check_mapping(self, md_lines, self.read("t.cu"), TRICKY, entries)

    def test_deterministic(self):
        outputs = []
        for name in ("a", "b"):
            os.mkdir(self.path(name))
            shutil.copy(TRICKY, self.path(name, "doc.md"))
            run_cli("doc.md", "-o", "x.cu", cwd=self.path(name))
            with open(self.path(name, "x.cu"), "rb") as f:
                outputs.append(f.read())
        self.assertEqual(outputs[0], outputs[1])
        self.assertGreater(len(outputs[0]), 500)


class MapTest(TempDirTest):

    def test_map_is_json_and_writes_nothing(self):
        self.write("doc.md", doc('''
            ```cuda
            a();
            b();
            ```

            Text.

            ```cuda
            c();
            ```
            '''))
        result = run_cli("doc.md", "-o", "out/x.cu", "--map", cwd=self.dir)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(json.loads(result.stdout), [
            {"index": 0, "md_first": 2, "md_last": 3, "cu_first": 3, "cu_last": 4},
            {"index": 1, "md_first": 9, "md_last": 9, "cu_first": 6, "cu_last": 6},
        ])
        self.assertFalse(os.path.exists(self.path("out")))

    def test_map_agrees_with_the_written_file(self):
        self.write("doc.md", "text\n\n```cuda\n  x();\n\n```\n\n   ```cuda\n   y();\n   ```\n")
        run_cli("doc.md", "-o", "x.cu", cwd=self.dir)
        entries = json.loads(run_cli("doc.md", "-o", "x.cu", "--map", cwd=self.dir).stdout)
        check_mapping(self, self.read("doc.md").split("\n"), self.read("x.cu"), "doc.md", entries)


@unittest.skipUnless(NVCC, "nvcc is not installed")
class CompilerTest(TempDirTest):
    """The compiler's messages and __LINE__ point into the markdown file."""

    TEXT = doc('''
        # Tiny

        ```cuda
        #include <cstdio>
        int main() {
        ```

        Prose between the blocks.

        ```cuda
            printf("%d\\n", __LINE__);
            MISTAKE
            return 0;
        }
        ```
        ''')

    def tangle_with(self, mistake):
        self.write("doc.md", self.TEXT.replace("MISTAKE", mistake))
        result = run_cli("doc.md", "-o", "doc.cu", cwd=self.dir)
        self.assertEqual(result.returncode, 0, result.stderr)

    def nvcc(self, *args):
        return subprocess.run([NVCC, *args], cwd=self.dir, capture_output=True, text=True,
                              timeout=300)

    def test_preprocessor_error_and_line_macro(self):
        self.tangle_with("#error deliberate")
        result = self.nvcc("-E", "doc.cu", "-o", "doc.i")
        self.assertNotEqual(result.returncode, 0)
        self.assertRegex(result.stderr, r"doc\.md:12:\d+: error: #error deliberate")
        self.tangle_with("int unused = 0; (void)unused;")
        result = self.nvcc("-E", "doc.cu", "-o", "doc.i")
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(self.path("doc.i"), encoding="utf-8", errors="replace") as f:
            self.assertIn('printf("%d\\n", 11);', f.read())

    def test_compile_error_names_the_markdown_line(self):
        self.tangle_with("int x = undeclared_name;")
        result = self.nvcc("-c", "doc.cu", "-o", "doc.o")
        self.assertNotEqual(result.returncode, 0)
        self.assertRegex(result.stderr, r'doc\.md\(12\): error: identifier "undeclared_name"')


# --------------------------------------------------------------------------
# Input forms
# --------------------------------------------------------------------------

class InputFormTest(TempDirTest):

    def test_crlf_reads_as_lf(self):
        text = doc('''
            Title

            ```cuda
            a();

            b();
            ```
            ''')
        self.write("lf.md", text)
        self.write("crlf.md", text.replace("\n", "\r\n"))
        run_cli("lf.md", "-o", "lf.cu", cwd=self.dir)
        result = run_cli("crlf.md", "-o", "crlf.cu", cwd=self.dir)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(self.read("crlf.cu").replace("crlf.", "lf."), self.read("lf.cu"))
        self.assertNotIn("\r", self.read("crlf.cu"))

    def test_byte_order_mark_is_dropped(self):
        self.write("bom.md", "\ufeff```cuda\nx();\n```\n")
        result = run_cli("bom.md", "-o", "out.cu", cwd=self.dir)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn('#line 2 "bom.md"\nx();\n', self.read("out.cu"))
        self.assertNotIn("\ufeff", self.read("out.cu"))

    def test_no_final_newline(self):
        self.assertTrue(self.tangle_ok("```cuda\nx();\n```").endswith("\nx();\n"))

    def test_other_control_characters_are_content(self):
        out = self.tangle_ok("```cuda\nx();\f\x0b\x1c\ny();\n```\n")
        self.assertIn("x();\f\x0b\x1c\ny();\n", out)


# --------------------------------------------------------------------------
# Errors: one line, a line number, status 1, no traceback, no output
# --------------------------------------------------------------------------

class ErrorTest(TempDirTest):

    def assert_error(self, content, line, fragment, status=1, name="doc.md", args=()):
        """Tangling content fails with one line naming name:line and fragment."""
        if content is not None:
            self.write(name, content, "wb" if isinstance(content, bytes) else "w")
        with open(self.path("keep.cu"), "w") as f:
            f.write("previous content\n")
        files = sorted(os.listdir(self.dir))
        for extra in ((), ("--check",), ("--map",)):
            with self.subTest(mode=extra):
                result = run_cli(name, "-o", "keep.cu", *args, *extra, cwd=self.dir)
                self.assertEqual(result.returncode, status, result.stderr)
                self.assertNotIn("Traceback", result.stderr)
                self.assertEqual(result.stdout, "")
                self.assertEqual(result.stderr.count("\n"), 1, result.stderr)
                where = name if line is None else f"{name}:{line}"
                self.assertTrue(result.stderr.startswith(f"tangle.py: {where}: "),
                                result.stderr)
                self.assertIn(fragment, result.stderr)
                self.assertEqual(self.read("keep.cu"), "previous content\n")
                self.assertEqual(sorted(os.listdir(self.dir)), files)

    def test_unclosed_fence_names_its_opening_line(self):
        self.assert_error("text\n\n```cuda\nx();\n", 3, "never closed")
        self.assert_error("```cuda\nx();\n```\n\n~~~~sh\nls\n~~~\n", 5, "never closed")

    def test_no_cuda_block(self):
        self.assert_error("# Title\n\n```sh\nls\n```\n", None, "no code to tangle")

    def test_empty_file(self):
        self.assert_error("", None, "empty")

    def test_blank_file(self):
        self.assert_error("\n\n  \n", None, "no code to tangle")

    def test_missing_input(self):
        self.assert_error(None, None, "cannot read: No such file or directory", name="nope.md")

    def test_input_is_a_directory(self):
        os.mkdir(self.path("dir.md"))
        self.assert_error(None, None, "cannot read", name="dir.md")

    def test_invalid_utf8(self):
        self.assert_error(b"```cuda\nx();\n\xff\xfe\n```\n", 3, "not valid UTF-8")

    def test_carriage_return_without_line_feed(self):
        self.assert_error("```cuda\r\nx();\ry();\r\n```\r\n", 2, "carriage return")

    def test_empty_cuda_block(self):
        self.assert_error("```cuda\n```\n", 1, "empty cuda block")

    def test_block_ending_in_a_backslash(self):
        self.assert_error("```cuda\nx();\n#define X \\\n```\n", 3, "backslash")

    def test_fence_pandoc_does_not_read_as_a_fence(self):
        self.assert_error("```cuda kernel\nx();\n```\n", 1, "pandoc does not read")
        self.assert_error('```{.cuda summary=Two words}\nx();\n```\n', 1,
                          "pandoc does not read")

    def test_cuda_fence_in_containers(self):
        cases = [
            ("> ```cuda\n> x();\n> ```\n", 1, "block quote"),
            ("- ```cuda\n  x();\n  ```\n", 1, "list item"),
            ("-   item\n\n    ```cuda\n    x();\n    ```\n", 3, "indented 4 columns"),
            ("Term\n\n:   ```cuda\n    x();\n    ```\n", 3, "list item or definition"),
            ("- item\n\n\t```cuda\n\tx();\n\t```\n", 3, "indented 4 columns"),
            ("    ```cuda\n    x();\n    ```\n", 1, "indented 4 columns"),
        ]
        for content, line, fragment in cases:
            with self.subTest(content=content):
                self.assert_error(content, line, fragment)

    def test_fence_right_after_text(self):
        cases = [
            "Some text\n```cuda\nx();\n```\n",
            "Some text\n~~~cuda\nx();\n~~~\n",
            "| a | b |\n|---|---|\n```cuda\nx();\n```\n",
            "Term\n:   definition\n```cuda\nx();\n```\n",
            "```sh\nls\n```\n```cuda\nx();\n```\n",
        ]
        for content in cases:
            with self.subTest(content=content):
                line = content.count("\n", 0, content.index("```cuda" if "```cuda" in content
                                                            else "~~~cuda")) + 1
                self.assert_error(content, line, "put a blank line before this fence")

    def test_indented_cuda_block_lines(self):
        self.assert_error("  ```cuda\n  x();\n y();\n  ```\n", 3, "at least 2 spaces")
        self.assert_error("  ```cuda\n\tx();\n  ```\n", 2, "at least 2 spaces")
        self.assert_error("  ```cuda\n  x();\n\n```\n", 4, "at least 2 spaces")
        self.assert_error("```cuda\nx();\n    ```\n```\n", 3, "would close")

    def test_comments(self):
        self.assert_error("text\n\n<!--\n```cuda\nx();\n```\n", 3, "never closed")
        self.assert_error("```cuda\nx();\n```\n\nSee <!-- this\n-->\n", 5, "middle of a line")
        self.assert_error("```cuda\nx();\n```\n\ntext\n<!--\nhidden\n-->\n", 6,
                          "blank line before this comment")

    def test_cuda_fence_in_yaml_block(self):
        self.assert_error("---\ntitle: x\nfoo: |\n  ```cuda\n  x();\n  ```\n---\n", 4,
                          "YAML metadata block")

    def test_output_would_overwrite_input(self):
        self.write("doc.md", "```cuda\nx();\n```\n")
        result = run_cli("doc.md", "-o", "./doc.md", cwd=self.dir)
        self.assertEqual(result.returncode, 1)
        self.assertIn("overwrite the input", result.stderr)
        self.assertEqual(self.read("doc.md"), "```cuda\nx();\n```\n")

    def test_usage_errors_exit_2(self):
        self.write("doc.md", "```cuda\nx();\n```\n")
        for args in (("--check", "--map"), ("--bogus",), ("a.md", "b.md"), ("-o",),
                     ("doc.md", "-o", "")):
            with self.subTest(args=args):
                result = run_cli(*args, cwd=self.dir)
                self.assertEqual(result.returncode, 2)
                self.assertEqual(result.stderr.count("\n"), 1, result.stderr)
                self.assertTrue(result.stderr.startswith("tangle.py: "))
                self.assertNotIn("Traceback", result.stderr)
        self.assertEqual(sorted(os.listdir(self.dir)), ["doc.md"])

    def test_help(self):
        result = run_cli("--help", cwd=self.dir)
        self.assertEqual(result.returncode, 0)
        self.assertIn("--check", result.stdout)
        self.assertIn("--map", result.stdout)


# --------------------------------------------------------------------------
# Writing: only when changed, atomically
# --------------------------------------------------------------------------

class WriteTest(TempDirTest):

    def setUp(self):
        super().setUp()
        self.md = self.write("doc.md", "```cuda\nx();\n```\n")
        self.out = self.path("out", "gemm.cu")

    def tangle(self):
        return run_in_process(self.md, "-o", self.out)

    def test_creates_the_output_directory(self):
        self.out = self.path("a", "b", "c.cu")
        self.assertEqual(self.tangle()[0], 0)
        self.assertTrue(os.path.isfile(self.out))

    def test_unchanged_output_is_not_rewritten(self):
        self.assertEqual(self.tangle()[0], 0)
        past = time.time() - 1000
        os.utime(self.out, (past, past))
        before = os.stat(self.out)
        self.assertEqual(self.tangle()[0], 0)
        after = os.stat(self.out)
        self.assertEqual((after.st_mtime, after.st_ino), (before.st_mtime, before.st_ino))

    def test_changed_output_is_replaced_by_rename(self):
        self.assertEqual(self.tangle()[0], 0)
        past = time.time() - 1000
        os.utime(self.out, (past, past))
        before = os.stat(self.out)
        self.write("doc.md", "```cuda\ny();\n```\n")
        self.assertEqual(self.tangle()[0], 0)
        after = os.stat(self.out)
        self.assertGreater(after.st_mtime, before.st_mtime)
        self.assertNotEqual(after.st_ino, before.st_ino)   # a new file renamed into place
        with open(self.out) as f:
            self.assertIn("y();", f.read())
        self.assertEqual(os.listdir(self.path("out")), ["gemm.cu"])

    def test_permissions(self):
        self.assertEqual(self.tangle()[0], 0)
        umask = os.umask(0)
        os.umask(umask)
        self.assertEqual(stat.S_IMODE(os.stat(self.out).st_mode), 0o666 & ~umask)
        os.chmod(self.out, 0o640)
        self.write("doc.md", "```cuda\ny();\n```\n")
        self.assertEqual(self.tangle()[0], 0)
        self.assertEqual(stat.S_IMODE(os.stat(self.out).st_mode), 0o640)

    def assert_failed_write_left_no_trace(self, status, err, fragment):
        self.assertEqual(status, 1)
        self.assertEqual(err.count("\n"), 1, err)
        self.assertIn(fragment, err)
        with open(self.out) as f:
            self.assertEqual(f.read(), "previous\n")
        self.assertEqual(os.listdir(self.path("out")), ["gemm.cu"])

    def prepare_previous_output(self):
        os.mkdir(self.path("out"))
        with open(self.out, "w") as f:
            f.write("previous\n")

    def test_failing_rename_keeps_the_old_file(self):
        self.prepare_previous_output()
        failure = OSError(errno.EIO, "Input/output error")
        with mock.patch.object(tangle.os, "replace", side_effect=failure):
            status, _, err = self.tangle()
        self.assert_failed_write_left_no_trace(status, err, "cannot write: Input/output error")

    def test_failing_write_keeps_the_old_file(self):
        self.prepare_previous_output()
        failure = OSError(errno.ENOSPC, "No space left on device")
        with mock.patch.object(tangle.os, "fsync", side_effect=failure):
            status, _, err = self.tangle()
        self.assert_failed_write_left_no_trace(status, err, "No space left on device")

    def test_interrupt_while_writing_keeps_the_old_file(self):
        self.prepare_previous_output()
        with mock.patch.object(tangle.os, "fsync", side_effect=KeyboardInterrupt):
            status, _, err = self.tangle()
        self.assertEqual(status, 130)
        with open(self.out) as f:
            self.assertEqual(f.read(), "previous\n")
        self.assertEqual(os.listdir(self.path("out")), ["gemm.cu"])

    def test_output_is_a_directory(self):
        os.makedirs(self.out)
        status, _, err = self.tangle()
        self.assertEqual(status, 1)
        self.assertIn("gemm.cu: cannot write: Is a directory", err)
        self.assertEqual(os.listdir(self.out), [])
        self.assertEqual(os.listdir(self.path("out")), ["gemm.cu"])

    def test_output_directory_is_a_file(self):
        self.write("out", "a file\n")
        result = run_cli(self.md, "-o", self.out, cwd=self.dir)
        self.assertEqual(result.returncode, 1)
        self.assertIn("cannot write", result.stderr)
        self.assertNotIn("Traceback", result.stderr)
        self.assertEqual(self.read("out"), "a file\n")

    @unittest.skipIf(os.name != "posix" or os.geteuid() == 0,
                     "needs a user that file permissions apply to (not root)")
    def test_unwritable_directory(self):
        self.prepare_previous_output()
        os.chmod(self.path("out"), 0o555)
        self.addCleanup(os.chmod, self.path("out"), 0o755)
        result = run_cli(self.md, "-o", self.out, cwd=self.dir)
        self.assertEqual(result.returncode, 1)
        self.assertIn("cannot write: Permission denied", result.stderr)
        self.assertEqual(os.listdir(self.path("out")), ["gemm.cu"])

    def test_bad_input_leaves_no_output(self):
        self.write("doc.md", "```cuda\nx();\n")
        status, _, _ = self.tangle()
        self.assertEqual(status, 1)
        self.assertFalse(os.path.exists(self.path("out")))


class CheckTest(TempDirTest):

    @unittest.skipUnless(os.path.exists(GEMM_MD), "gemm.md does not exist yet")
    def test_repository_out_gemm_cu_is_up_to_date(self):
        """out/gemm.cu, as it was when the test run began (conftest.py), is what gemm.md tangles to."""
        result = run_cli("--check", cwd=ROOT)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stderr, "")
        at_start = os.environ.get("GEMM_CU_CHECK_AT_START")
        if at_start is not None:   # a test that ran make may have regenerated the file since
            self.assertTrue(at_start.startswith("0 "), "when the tests began: " + at_start)

    def test_check_passes_then_fails_after_a_change(self):
        source = GEMM_MD if os.path.exists(GEMM_MD) else TRICKY
        shutil.copy(source, self.path("gemm.md"))
        self.assertEqual(run_cli(cwd=self.dir).returncode, 0)
        before = os.stat(self.path("out", "gemm.cu"))
        self.assertEqual(run_cli("--check", cwd=self.dir).returncode, 0)

        # A change in a code block: --check fails, names make, and writes nothing.
        text = self.read("gemm.md")
        position = text.index("\n", text.index("```cuda")) + 1
        self.write("gemm.md", text[:position] + "// changed\n" + text[position:])
        result = run_cli("--check", cwd=self.dir)
        self.assertEqual(result.returncode, 1)
        self.assertEqual(result.stderr.count("\n"), 1)
        self.assertIn("out/gemm.cu is out of date", result.stderr)
        self.assertIn("run make", result.stderr)
        after = os.stat(self.path("out", "gemm.cu"))
        self.assertEqual((after.st_mtime_ns, after.st_ino), (before.st_mtime_ns, before.st_ino))

        # A change in prose only moves #line numbers: that is a change too.
        self.write("gemm.md", "Prose added at the top.\n\n" + text)
        self.assertEqual(run_cli("--check", cwd=self.dir).returncode, 1)

        # Back to the original: passes again.
        self.write("gemm.md", text)
        self.assertEqual(run_cli("--check", cwd=self.dir).returncode, 0)

    def test_check_fails_when_the_output_was_edited(self):
        shutil.copy(TRICKY, self.path("gemm.md"))
        run_cli(cwd=self.dir)
        with open(self.path("out", "gemm.cu"), "a") as f:
            f.write("// hand edit\n")
        self.assertEqual(run_cli("--check", cwd=self.dir).returncode, 1)

    def test_check_fails_when_the_output_is_missing_and_creates_nothing(self):
        shutil.copy(TRICKY, self.path("gemm.md"))
        result = run_cli("--check", cwd=self.dir)
        self.assertEqual(result.returncode, 1)
        self.assertIn("does not exist", result.stderr)
        self.assertFalse(os.path.exists(self.path("out")))


# --------------------------------------------------------------------------
# Fuzzing: tangle.py never crashes
# --------------------------------------------------------------------------

FUZZ_LINES = [
    "```cuda", "```", "````", "~~~", "~~~~cuda", "```{.cuda", '```{.cuda summary="x',
    "```cuda foo", "    ```cuda", "\t```", "> ```cuda", "- ```cuda", ":   ```cuda",
    "<!--", "-->", "<!-- a --> <!--", "---", "...", "title: x", "", "  ", "\\", "x \\",
    "``", "`` ` ``", "```` ```cuda ````", "# h", "| a |", "|---|", "   ```cuda", "\u00e9\u2713",
    "\x00", "\x0c", "```{=html}", "```{.cuda .details summary='a b'}", "```{#x .cuda -}",
]


class FuzzTest(TempDirTest):
    """Mutated documents: the status is 0 or 1, never a crash; errors are one
    line; a success maps every code line to its markdown line."""

    SEED = 20240521
    ITERATIONS = 600
    TIME_LIMIT = 15             # seconds: a bound on the loop, not a measurement
    MIN_ITERATIONS = 150        # run even past the time limit: on a loaded machine 15 s held 39, 9 of them failing
    SUBPROCESS_EVERY = 40

    def mutate(self, rng, lines):
        lines = list(lines)
        for _ in range(rng.randint(1, 4)):
            choice = rng.random()
            where = rng.randrange(len(lines) + 1)
            if choice < 0.3 and lines:
                del lines[min(where, len(lines) - 1)]
            elif choice < 0.5 and lines:
                lines.insert(where, lines[min(where, len(lines) - 1)])
            elif choice < 0.85:
                lines.insert(where, rng.choice(FUZZ_LINES))
            elif choice < 0.93 and lines:
                index = min(where, len(lines) - 1)
                lines[index] = lines[index][:rng.randrange(len(lines[index]) + 1)]
            else:
                lines.insert(where, rng.choice(["\r", "a\rb", "x\r"]))
        return lines

    def test_mutated_documents(self):
        source = GEMM_MD if os.path.exists(GEMM_MD) else TRICKY
        with open(source, encoding="utf-8") as f:
            original = f.read().split("\n")
        rng = random.Random(self.SEED)
        md, out = self.path("doc.md"), self.path("out.cu")
        deadline = time.monotonic() + self.TIME_LIMIT
        outcomes = {0: 0, 1: 0}
        for iteration in range(self.ITERATIONS):
            if iteration >= self.MIN_ITERATIONS and time.monotonic() > deadline:
                break
            lines = self.mutate(rng, original)
            raw = "\n".join(lines).encode("utf-8")
            if rng.random() < 0.03:
                raw = raw.replace(b"\xc3\xa9", b"\xc3", 1) + b"\xff"
            if rng.random() < 0.1:
                raw = raw.replace(b"\n", b"\r\n")
            with open(md, "wb") as f:
                f.write(raw)
            if os.path.exists(out):
                os.unlink(out)
            context = f"iteration {iteration}"
            try:
                status, _, err = run_in_process(md, "-o", out)
            except BaseException as error:      # the failure this test looks for
                self.fail(f"{context}: tangle.main raised {error!r}")
            self.assertIn(status, (0, 1), context)
            outcomes[status] += 1
            if status == 1:
                self.assertEqual(err.count("\n"), 1, f"{context}: {err}")
                self.assertTrue(err.startswith("tangle.py: "), f"{context}: {err}")
                self.assertFalse(os.path.exists(out), context)
            else:
                _, entries = tangle.tangle(md, out)
                md_lines = tangle.read_lines(md)
                with open(out, encoding="utf-8") as f:
                    check_mapping(self, md_lines, f.read(), md, entries)
            if iteration % self.SUBPROCESS_EVERY == 0:
                result = run_cli(md, "-o", out, cwd=self.dir)
                self.assertIn(result.returncode, (0, 1), context)
                self.assertNotIn("Traceback", result.stderr, context)
                self.assertEqual(result.returncode, status, context)
        # Both outcomes must occur, or the mutations test nothing.
        self.assertGreater(outcomes[0], 10, outcomes)
        self.assertGreater(outcomes[1], 10, outcomes)


# --------------------------------------------------------------------------
# Agreement with pandoc
# --------------------------------------------------------------------------

def pandoc_cuda_blocks(path, preserve_tabs=True):
    """The CodeBlocks whose first class is cuda in pandoc's reading of path,
    as (text, nested) pairs: nested when inside a list, quote, table..."""
    command = [PANDOC, "-f", "markdown", "-t", "json", path]
    if preserve_tabs:
        command.insert(1, "--preserve-tabs")
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise AssertionError(f"pandoc failed on {path}: {result.stderr}")
    found = []

    def walk(node, nested):
        if isinstance(node, dict):
            if node.get("t") == "CodeBlock":
                (_, classes, _), text = node["c"]
                if classes and classes[0] == "cuda":
                    found.append((text, nested))
            inner = nested or node.get("t") not in (None, "Div")
            for value in node.values():
                walk(value, inner)
        elif isinstance(node, list):
            for value in node:
                walk(value, nested)

    for block in json.loads(result.stdout)["blocks"]:
        walk(block, False)
    return found


@unittest.skipUnless(PANDOC, "pandoc is not installed")
class PandocAgreementTest(TempDirTest):
    """tangle.py's blocks are pandoc's cuda CodeBlocks: same number, same text."""

    def tangled(self, path):
        lines = tangle.read_lines(path)
        blocks = tangle.find_blocks(lines, path)
        return lines, blocks

    def assert_agree(self, path):
        lines, blocks = self.tangled(path)
        ours = ["\n".join(block.lines) for block in blocks]
        theirs = [text for text, _ in pandoc_cuda_blocks(path)]
        self.assertEqual(len(ours), len(theirs), f"number of cuda blocks in {path}")
        for number, (mine, pandocs) in enumerate(zip(ours, theirs)):
            self.assertEqual(mine, pandocs, f"block {number} of {path}")
        # pandoc's default reading expands tabs (tab stop 4) before parsing.
        expanded = []
        for block in blocks:
            fence = lines[block.md_first - 2]
            indent = len(fence) - len(fence.lstrip(" "))
            expanded.append("\n".join((" " * indent + line).expandtabs(4)[indent:]
                                      for line in block.lines))
        self.assertEqual(expanded, [text for text, _ in pandoc_cuda_blocks(path, False)])
        return len(ours)

    @unittest.skipUnless(os.path.exists(GEMM_MD), "gemm.md does not exist yet")
    def test_gemm_md(self):
        self.assertGreater(self.assert_agree(GEMM_MD), 0)

    def test_tricky_fixture(self):
        self.assertEqual(self.assert_agree(TRICKY), 20)

    def test_tricky_fixture_with_crlf(self):
        with open(TRICKY, encoding="utf-8") as f:
            self.write("crlf.md", f.read().replace("\n", "\r\n"))
        self.assertEqual(self.assert_agree(self.path("crlf.md")), 20)

    def test_snippets(self):
        snippets = [
            "```cuda\na\n```\n",
            "```cuda\na\n```",                                   # no final newline
            "```CUDA\na\n```\n",
            "````cuda\na\n```\nb\n````\n",
            "~~~cuda\na\n```\n~~~\n",
            "```cuda\na\n``` x\n```\n",
            "   ```cuda\n   a\n     b\n   ```\n",
            "  ```cuda\n  \ta\n   \tb\n  x\ty\n\t\n  ```\n",
            "```cuda\n\n\na\n\n\n```\n",
            "- item\n\n  ```cuda\n  a\n  ```\n",
            "1. item\n\n   ```cuda\n   a\n     b\n   ```\n",
            "<!--\n```cuda\na\n```\n-->\n\n```cuda\nb\n```\n",
            "```` ```cuda ```` opens\n\n```cuda\nb\n```\n",
            "::: {.note}\n\n```cuda\na\n```\n\n:::\n",
            "<div>\n```cuda\na\n```\n</div>\n",
            "# Head\n~~~cuda\na\n~~~\n",
            '```{.cuda summary=\'a b\' #x - key="q\\"x"}\na\n```\n',
            "```{.cuda key=a\\}b}\na\n```\n",
            "```cu`da\na\n```\n\n```cuda\nb\n```\n",
            "```{.cuda\na\n```\n\n```cuda\nb\n```\n",
            "```{=html}\n<b>\n```\n\n```cuda\nb\n```\n",
        ]
        for number, snippet in enumerate(snippets):
            with self.subTest(snippet=snippet):
                self.write(f"s{number}.md", snippet)
                self.assertGreater(self.assert_agree(self.path(f"s{number}.md")), 0)

    def test_refused_cuda_fences_are_code_to_pandoc(self):
        """Why tangle.py refuses cuda fences in lists, quotes and definitions:
        pandoc shows them as cuda code, nested, so leaving them out of
        out/gemm.cu silently would be wrong."""
        snippets = [
            "-   item\n\n    ```cuda\n    a\n    ```\n",
            "- ```cuda\n  a\n  ```\n",
            "1. ```cuda\n   a\n   ```\n",
            "> ```cuda\n> a\n> ```\n",
            "Term\n\n:   ```cuda\n    a\n    ```\n",
            "- item\n\n\t```cuda\n\ta\n\t```\n",
            "  - item\n\n    ```cuda\n    a\n    ```\n",
        ]
        for number, snippet in enumerate(snippets):
            with self.subTest(snippet=snippet):
                path = self.write(f"n{number}.md", snippet)
                found = pandoc_cuda_blocks(path)
                self.assertEqual([(text.strip(), nested) for text, nested in found],
                                 [("a", True)])
                with self.assertRaises(tangle.TangleError):
                    self.tangled(path)

    def test_fence_right_after_text_is_uncertain_to_pandoc(self):
        """Why tangle.py wants a blank line before a fence: right after text,
        pandoc's reading depends on the text.  Each snippet is refused as it
        is, and read alike by both once a blank line is put before the fence."""
        snippets = [
            ("para\n", "~~~cuda\na\n~~~\n"),              # only ``` interrupts a paragraph
            ("para\n", "  ```cuda\n  a\n  ```\n"),        # ... at the left margin
            ("> quote\n", "~~~cuda\na\n~~~\n"),           # lazy continuation of the quote
            ("    ```\n---\n", "```cuda\na\n```\n"),      # a simple table swallows it
            ("Term\n:   def\n", "```cuda\na\n```\n"),     # it goes into the definition
            ("Write ``` then\n", "```cuda\na\n```\n"),    # closes an inline code span
        ]
        naive = []
        for number, (above, fence) in enumerate(snippets):
            with self.subTest(above=above, fence=fence):
                path = self.write(f"t{number}.md", above + fence)
                naive.append(pandoc_cuda_blocks(path) == [("a", False)])
                with self.assertRaises(tangle.TangleError) as caught:
                    self.tangled(path)
                self.assertIn("blank line", caught.exception.message)
                path = self.write(f"b{number}.md", above + "\n" + fence)
                self.assertEqual(self.assert_agree(path), 1)
        # pandoc reads none of them as a top-level cuda block "a".
        self.assertEqual(naive, [False] * len(snippets))

    def test_random_documents(self):
        """Random documents built from tricky pieces: whenever tangle.py
        accepts one, pandoc agrees with it."""
        rng = random.Random(7)
        accepted = 0
        for number in range(150):
            text = random_document(rng)
            path = self.write(f"r{number}.md", text)
            try:
                self.tangled(path)
            except tangle.TangleError:
                continue
            with self.subTest(document=text):
                self.assert_agree(path)
                accepted += 1
        self.assertGreater(accepted, 30, "too few documents accepted to test anything")


def random_document(rng):
    """A random markdown document with fences of all kinds in many places."""
    def code():
        pool = ["int x = 1;", "\tint t = 2;", "  y();", "", "// ```", "/* ~~~ */", "```",
                "``` x", "~~~~", "    ```", "#define A 1", 's = "`";', "x\ty;", "  \t z;"]
        return [rng.choice(pool) for _ in range(rng.randint(1, 5))]

    def fence():
        char, length = rng.choice("`~"), rng.randint(3, 5)
        indent = " " * rng.choice([0, 0, 0, 1, 2, 3])
        info = rng.choice(["cuda", "cuda", "{.cuda}", '{.cuda .details summary="P m"}',
                           "{#i .cuda}", "CUDA", "sh", "", "{.details .cuda}", "c++",
                           "{=html}", '{class="cuda x"}', " cuda "])
        body = [indent + line if line else line for line in code()]
        if rng.random() < 0.3:
            body.append(indent + char * (length - 1) if length > 3 else indent + "```~~~")
        close = indent + char * (length + rng.choice([0, 0, 1])) + rng.choice(["", " ", "\t"])
        return [indent + char * length + info] + body + [close]

    def paragraph():
        words = ["text", "`code`", "``a ` b``", "*em*", "x ``` y ```", "<!-- c -->", "\\`", "#5"]
        return [" ".join(rng.choice(words) for _ in range(rng.randint(1, 4)))
                for _ in range(rng.randint(1, 3))]

    def a_list():
        lines = []
        for _ in range(rng.randint(1, 3)):
            lines.append(rng.choice(["- item", "1. item", "* item"]))
            if rng.random() < 0.5:
                width = 3 if lines[-1].startswith("1.") else 2
                lines += [""] + [" " * width + line if line else line for line in fence()]
        return lines

    def comment():
        return ["<!--"] + (fence() if rng.random() < 0.6 else paragraph()) + ["-->"]

    pieces = [fence] * 6 + [paragraph] * 3 + [
        a_list, comment,
        lambda: ["> " + line for line in paragraph()],
        lambda: [rng.choice(["# H", "## H `x`", "Title\n=====", "* * *"])],
        lambda: ["| a | b |", "|---|---|", "| `x` | y |"],
        lambda: ["::: {.note}", ""] + fence() + ["", ":::"],
    ]
    lines = ["---", "title: T", "---", ""] if rng.random() < 0.2 else []
    for _ in range(rng.randint(1, 8)):
        lines += rng.choice(pieces)()
        lines += [""] * rng.choice([1, 1, 1, 2, 0])
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    unittest.main()
