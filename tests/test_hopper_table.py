"""The page's table of d_gemm_hopper against cuBLAS, from docs/bench/bench.py --hopper-table, checked on the CPU.

`make bench` on a GPU of compute capability 9.0 writes d_gemm_hopper's rows into the bench CSV, beside the
cuBLAS rate timed in d_gemm's run (one per size).  ``bench.py --hopper-table CSV`` prints the Markdown table of
gemm.md's "Against cuBLAS" (in "Past WMMA") from that CSV alone, and the page carries its output between
two marker lines:

    <!-- hopper table: python3 docs/bench/bench.py --hopper-table docs/bench/h100.csv --steps docs/bench/steps-h100.csv -->
    | type pair | B | size | ... |
    <!-- end of hopper table -->

What is checked
---------------
* PageTable: the lines between the markers are the script's output for the CSV the marker names.
* Synthetic: a made-up CSV gives the expected rows (one decimal, "—" where cuBLAS or the wgmma ceiling
  has no rate, the percentage of the size's cuBLAS row and of the type pair's hopper-peak row), and a row that failed verification makes --hopper-table
  exit non-zero naming it.
"""

import csv
import os
import re
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "docs", "bench", "bench.py")
START = re.compile(r"^<!-- hopper table: python3 (\S+) --hopper-table (\S+)((?: --steps \S+)?) -->$")
END = "<!-- end of hopper table -->"


def table(csv_path, *more):
    return subprocess.run([sys.executable, SCRIPT, "--hopper-table", csv_path] + list(more), capture_output=True,
                          text=True, timeout=60)


class PageTable(unittest.TestCase):
    def test_page_table_is_the_csv(self):
        with open(os.path.join(ROOT, "gemm.md"), encoding="utf-8") as handle:
            lines = handle.read().split("\n")
        starts = [i for i, line in enumerate(lines) if START.match(line)]
        self.assertEqual(len(starts), 1, "gemm.md needs one hopper table marker")
        start = starts[0]
        end = lines.index(END, start)
        script, csv_path, steps = START.match(lines[start]).groups()
        self.assertEqual(script, "docs/bench/bench.py")
        steps = steps.split()
        result = table(os.path.join(ROOT, csv_path), *(steps[:1] + [os.path.join(ROOT, p) for p in steps[1:]]))
        self.assertEqual(result.returncode, 0, result.stderr)
        page = [line for line in lines[start + 1:end] if line.strip()]
        self.assertEqual(page, result.stdout.strip().split("\n"),
                         "the page's hopper table differs from bench.py --hopper-table %s" % csv_path)


class Synthetic(unittest.TestCase):
    FIELDS = ("type", "mnk", "transpose_b", "m", "kernel", "rate", "result", "pct_of_cublas", "note", "variant")

    def write(self, rows):
        handle = tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False, newline="")
        self.addCleanup(os.unlink, handle.name)
        writer = csv.DictWriter(handle, fieldnames=self.FIELDS)
        writer.writeheader()
        for row in rows:
            writer.writerow(dict(zip(self.FIELDS, row)))
        handle.close()
        return handle.name

    def test_rows(self):
        path = self.write([
            ("F16_IN_F32_OUT", "16x16x16", "0", "8192", "fast", "456.56", "pass", "62.2", "", ""),
            ("F16_IN_F32_OUT", "16x16x16", "0", "8192", "hopper", "735.345", "pass", "", "", ""),
            ("F16_IN_F32_OUT", "16x16x16", "0", "8192", "cublas", "727.783", "ok", "", "", ""),   # fast's run
            ("F16_IN_F32_OUT", "16x16x16", "0", "8192", "fast", "300.0", "pass", "", "", "99K"),   # a tier: not it
            ("F16_IN_F32_OUT", "16x16x16", "", "", "hopper-peak", "817.0", "ok", "", "", ""),
            ("U8_IN_I32_OUT", "16x16x16", "1", "4096", "hopper", "1261.9", "pass", "", "", ""),
            ("F16_IN_F32_OUT", "16x16x16", "0", "2048", "hopper", "487.6", "pass", "100.8", "", ""),  # other size
        ])
        result = table(path)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.strip().split("\n")[2:], [
            "| F16_IN_F32_OUT | as stored | 8192³ | 456.6 | 727.8 | 735.3 | 101.0% | 90% of 817 |",
            "| U8_IN_I32_OUT | transposed | 4096³ | — | — | 1261.9 | — | — |",
        ])

    def test_failed_row_stops_the_table(self):
        path = self.write([("BF16_IN_F32_OUT", "16x16x16", "1", "8192", "hopper", "770.0", "fail", "", "", "")])
        result = table(path)
        self.assertNotEqual(result.returncode, 0, "a failed row gave a table")
        self.assertIn("BF16_IN_F32_OUT", result.stderr)
        self.assertEqual(result.stdout.strip(), "")


if __name__ == "__main__":
    unittest.main()
