"""A quantity quoted in more than one place has one value, its source's (issue 41: numbers that agree).

The suite's geometric means of d_gemm_hopper / cuBLAS with B transposed, one per type pair, are quoted in
gemm.md (step 8, "What is left") and in README.md. Each quote ("0.95 for fp16", "0.95 of cuBLAS on the suite
for fp16") must be the mean that docs/bench/suite.py computes from the canonical run's suite CSV
(docs/bench/records.py), to two places, so a new suite run that moves a mean fails here until every place says
the new value. A sentence that names another suite CSV (`docs/bench/....csv`, as step 9 names its own run, which
the canonical run of step 10 replaced) quotes that run, and is checked against it.
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


RECORD = re.compile(r"`(docs/bench/[\w./-]+\.csv)`")


def sentence(flat, start, end):
    """The sentence around flat[start:end]: from the last full stop and space before it to the next after it."""
    begin = flat.rfind(". ", 0, start)
    finish = flat.find(". ", end)
    return flat[begin + 1 if begin >= 0 else 0:finish if finish >= 0 else len(flat)]


def quotes(text):
    """(value, short type name, context, record) for every quote of a suite mean in the text, across line breaks;
    record is the suite CSV its sentence names, or None (the canonical run's)."""
    flat = re.sub(r"\s+", " ", text)
    found = []
    for m in QUOTE.finditer(flat):
        named = RECORD.search(sentence(flat, m.start(), m.end()))
        record = named.group(1) if named and named.group(1) != records.SUITE else None
        found.append((m.group(1), m.group(2), flat[max(0, m.start() - 60):m.end()], record))
    return found


def means(path):
    """{short type name: the geometric mean, B transposed, as the page prints it (two places)}."""
    stats, _ = suite.summary(suite.read_rows(path), "1")
    return {short: "%.2f" % stats[name][0] for short, name in NAMES.items() if name in stats}


def disagreements(text, expected):
    """Each quote whose value is not its run's mean: expected's (the canonical suite), or the named CSV's."""
    out = []
    for value, short, context, record in quotes(text):
        means_here = means(os.path.join(ROOT, record)) if record else expected
        if value != means_here.get(short):
            out.append("%s for %s where %s says %s: ...%s" % (value, short, record or "the suite",
                                                               means_here.get(short), context))
    return out


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
                quoted = {short for _, short, _, record in quotes(handle.read()) if record is None}
            self.assertEqual(quoted, set(NAMES), "%s quotes the suite's means of %s" % (name, sorted(quoted)))

    def test_the_check_can_fail(self):
        wrong = "On all 47, step 8 reaches 0.01 for fp16, %s for bf16" % self.expected["bf16"]
        found = disagreements(wrong, self.expected)
        self.assertEqual(len(found), 1)
        self.assertIn("0.01 for fp16", found[0])
        self.assertEqual(disagreements("it reaches %s of cuBLAS for\nfp16" % self.expected["fp16"], self.expected), [])

    def test_a_named_run_is_checked_against_its_own_csv(self):
        before = "docs/bench/variants/h200/canonical-2/before/suite-h200.csv"
        theirs = means(os.path.join(ROOT, before))
        right = "Step 9's run (`%s`) reached %s for int8. Now %s for int8." % (before, theirs["int8"], self.expected["int8"])
        self.assertEqual(disagreements(right, self.expected), [])
        wrong = disagreements("Step 9's run (`%s`) reached 0.01 for int8." % before, self.expected)
        self.assertEqual(len(wrong), 1)
        self.assertIn(before + " says " + theirs["int8"], wrong[0])


if __name__ == "__main__":
    unittest.main()
