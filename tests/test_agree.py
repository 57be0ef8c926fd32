"""A quantity quoted in more than one place has one value, its source's (issue 41: numbers that agree).

The suite's geometric means of d_gemm_hopper / cuBLAS with B transposed, one per type pair, are quoted in
gemm.md (step 8, "What is left") and in README.md. Each quote ("0.95 for fp16", "0.95 of cuBLAS on the suite
for fp16") must be the mean that docs/bench/suite.py computes from the canonical run's suite CSV
(docs/bench/records.py), to two places, so a new suite run that moves a mean fails here until every place says
the new value.
"""

import os
import re
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "docs", "bench"))
import records  # noqa: E402  the canonical run's CSVs
import suite  # noqa: E402

SUITE_CSV = os.path.join(ROOT, records.SUITE)
QUOTING = ("gemm.md", "README.md")
NAMES = {"fp16": "F16_IN_F32_OUT", "bf16": "BF16_IN_F32_OUT", "tf32": "TF32_IN_F32_OUT", "int8": "I8_IN_I32_OUT"}
# "0.95 for fp16", "0.95 of cuBLAS for fp16 (geometric mean)", "0.95 of cuBLAS on the suite for fp16"
QUOTE = re.compile(r"(\d+\.\d\d) (?:of cuBLAS )?(?:on the suite )?(?:\(geometric mean\) )?for (fp16|bf16|tf32|int8)\b")


def quotes(text):
    """(value, short type name, context) for every quote of a suite mean in the text, across line breaks."""
    flat = re.sub(r"\s+", " ", text)
    return [(m.group(1), m.group(2), flat[max(0, m.start() - 60):m.end()]) for m in QUOTE.finditer(flat)]


def means(path):
    """{short type name: the geometric mean, B transposed, as the page prints it (two places)}."""
    stats, _ = suite.summary(suite.read_rows(path), "1")
    return {short: "%.2f" % stats[name][0] for short, name in NAMES.items() if name in stats}


def disagreements(text, expected):
    return ["%s for %s where the suite says %s: ...%s" % (value, short, expected[short], context)
            for value, short, context in quotes(text) if value != expected.get(short)]


class SuiteMeansAgree(unittest.TestCase):
    def setUp(self):
        self.expected = means(SUITE_CSV)

    def test_every_quote_is_the_suites_mean(self):
        for name in QUOTING:
            with open(os.path.join(ROOT, name), encoding="utf-8") as handle:
                text = handle.read()
            with self.subTest(file=name):
                self.assertEqual(disagreements(text, self.expected), [])

    def test_each_type_pair_is_quoted_on_the_page_and_in_the_readme(self):
        for name in QUOTING:
            with open(os.path.join(ROOT, name), encoding="utf-8") as handle:
                quoted = {short for _, short, _ in quotes(handle.read())}
            self.assertEqual(quoted, set(NAMES), "%s quotes the suite's means of %s" % (name, sorted(quoted)))

    def test_the_check_can_fail(self):
        wrong = "On all 47, step 8 reaches 0.01 for fp16, %s for bf16" % self.expected["bf16"]
        found = disagreements(wrong, self.expected)
        self.assertEqual(len(found), 1)
        self.assertIn("0.01 for fp16", found[0])
        self.assertEqual(disagreements("it reaches %s of cuBLAS for\nfp16" % self.expected["fp16"], self.expected), [])


if __name__ == "__main__":
    unittest.main()
