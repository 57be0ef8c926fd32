"""Every measured number the prose quotes is in a committed record (issue 31: numbers that agree).

The page's tables of rates are generated from the CSVs and checked by their own tests
(test_steps_table, test_hopper_table); the step sections take their rates from the CSVs when the
page is built (test_step_code). This test covers the rest: each decimal number in gemm.md's prose
(outside code and HTML comments) must appear, as written or rounded from a longer value, in a
record under docs/bench (its CSVs, READMEs and raw outputs). A number that is not measured but
computed from recorded ones is listed in DERIVED with its derivation, and must still be quoted.
"""

import glob
import os
import re
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RECORDS = ("csv", "md", "txt")
NUMBER = re.compile(r"(?<![\d.\w])(\d+\.\d+)(?!\d|\.\d)")   # "114.6." ends a sentence: a number too

DERIVED = {   # number quoted -> how it follows from recorded numbers
    "1.57": "d_gemm_hopper / d_gemm at 8192³, F16_IN_OUT B as stored, h200.csv: 829.6 / 528.5",
    "1.66": "d_gemm_hopper / d_gemm at 8192³, bf16 B transposed, h200.csv: 798.1 / 481.3",
    "101.4": "d_gemm_hopper / cuBLAS at 8192³, fp16 B as stored, steps-h200.csv: 763.8 / 753.3",
    "108.4": "d_gemm_hopper / cuBLAS at 8192³, F16_IN_OUT B as stored, h200.csv: 829.6 / 765.3",
}


def recorded_numbers():
    """Every decimal number in the records, as written and rounded to one and two places."""
    numbers = set()
    for path in glob.glob(os.path.join(ROOT, "docs", "bench", "**", "*"), recursive=True):
        if not path.endswith(RECORDS):
            continue
        with open(path, encoding="utf-8", errors="replace") as handle:
            for value in re.findall(r"\d+\.\d+", handle.read()):
                numbers.update((value, "%.1f" % float(value), "%.2f" % float(value)))
    return numbers


def quoted_numbers(lines):
    """(line number, number) for every decimal number in the prose: not in code, inline code or comments."""
    out, fence, comment = [], False, False
    for number, line in enumerate(lines, 1):
        if line.startswith("```"):
            fence = not fence
            continue
        if fence:
            continue
        if comment or line.lstrip().startswith("<!--"):
            comment = "-->" not in line
            continue
        for match in NUMBER.finditer(re.sub(r"`[^`]*`", "", line)):
            out.append((number, match.group(1)))
    return out


class Numbers(unittest.TestCase):
    def test_every_number_quoted_is_recorded(self):
        with open(os.path.join(ROOT, "gemm.md"), encoding="utf-8") as handle:
            lines = handle.read().split("\n")
        records = recorded_numbers()
        missing = ["gemm.md:%d: %s" % (line, value) for line, value in quoted_numbers(lines)
                   if value not in records and value not in DERIVED]
        self.assertEqual(missing, [], "numbers in the prose that no record under docs/bench holds")

    def test_every_derived_number_is_still_quoted(self):
        with open(os.path.join(ROOT, "gemm.md"), encoding="utf-8") as handle:
            quoted = {value for _, value in quoted_numbers(handle.read().split("\n"))}
        self.assertEqual(sorted(set(DERIVED) - quoted), [], "DERIVED lists numbers the page no longer quotes")

    def test_the_check_can_fail(self):
        lines = ["The kernel ran at 123.4 TFLOP/s.", "```cuda", "x = 9.75;", "```", "<!-- 8.5 -->", "`3.25` and 2.5"]
        self.assertEqual(quoted_numbers(lines), [(1, "123.4"), (6, "2.5")])
        self.assertNotIn("123456.7", recorded_numbers())


if __name__ == "__main__":
    unittest.main()
