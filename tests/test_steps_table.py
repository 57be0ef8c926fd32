"""The steps table of the page, from docs/bench/steps.py (make steps), checked on the CPU.

docs/bench/steps.py measures the steps of d_gemm on a GPU into docs/bench/steps-<gpu>.csv;
``steps.py --table CSV`` prints the Markdown table "What each step bought" from that CSV alone.
The page carries a copy of that output between two marker lines:

    <!-- steps table: python3 docs/bench/steps.py --table docs/bench/steps-h100.csv -->
    | step | what it adds | ... |
    <!-- end of steps table -->

What is checked
---------------
* SyntheticTable: a made-up CSV in a temporary directory gives exactly the expected table: rates
  with one decimal, fp16 as "B as stored / B transposed", "—" where a rate is missing, errored or
  of another size or shape, the fp16 gain with a Unicode minus; a row that failed verification
  makes --table exit non-zero with a message naming it, and print no table.
* PageTable: when gemm.md has the markers, the lines between them (blank lines at either end
  aside) are the script's output for the CSV the marker names.  Skipped, with the reason, while
  gemm.md has no markers or the CSV has not been measured yet.
* HopperTable: the Hopper part's steps table (``steps.py --hopper-table CSV``; its own markers,
  "hopper steps table") is the script's output for the CSV it names; a made-up CSV gives the
  expected rows (d_gemm, hopper1 .. hopper10, cuBLAS, the ceiling from the peak row's hopper_peak,
  the gain against the step before, hopper1 against d_gemm); previous_kernel pairs each step with
  the one it is measured against.
* Tooling: ``steps.py --help`` works and ``make -n steps`` runs docs/bench/steps.py with STEPS_ARGS.
"""

import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "docs", "bench", "steps.py")
START = re.compile(r"^<!-- steps table: python3 (\S+) --table (\S+)((?: --bench \S+)?) -->$")
END = "<!-- end of steps table -->"
MINUS = "\u2212"

COLUMNS = ("gpu", "date", "type", "mnk", "transpose_a", "transpose_b", "m", "n", "k", "kernel", "step",
           "rate", "unit", "result", "verify", "pct_of_previous_step")
STEPS = ("naive",) + tuple("step%d" % s for s in range(1, 8))

# (type, mnk, transpose_b, size, kernel, rate, result, verify, pct_of_previous_step)
FP16 = ("F16_IN_F32_OUT", "16x16x16")
SYNTHETIC = [
    FP16 + ("0", "", "peak", "657.09", "ok", "off", ""),
    FP16 + ("1", "", "peak", "650.2", "ok", "off", ""),
    ("BF16_IN_F32_OUT", "16x16x16", "0", "", "peak", "655.0", "ok", "off", ""),
    ("TF32_IN_F32_OUT", "16x16x8", "0", "", "peak", "327.4", "ok", "off", ""),
    ("I8_IN_I32_OUT", "16x16x16", "0", "", "peak", "1310.8", "ok", "off", ""),
] + [FP16 + ("0", "8192", k, r, "off" if k == "naive" else "pass", "off" if k == "naive" else "gpu", p)
     for k, r, p in zip(STEPS, ("29.31", "221.96", "273.9", "301.25", "289.2", "289.78", "330.04", "463.46"),
                        ("", "757.3", "123.4", "110.0", "96.0", "100.2", "113.9", "140.4"))] + [
    FP16 + ("0", "8192", "cublas", "745.04", "ok", "off", ""),
    FP16 + ("0", "4096", "step7", "437.6", "pass", "gpu", "101.0"),         # another size: not in the table
    ("F16_IN_F32_OUT", "32x8x16", "0", "8192", "step7", "999.9", "pass", "gpu", "50.0"),   # another shape
] + [FP16 + ("1", "8192", k, r, "off" if k == "naive" else "pass", "off" if k == "naive" else "gpu", "")
     for k, r in zip(STEPS, ("28.0", "229.3", "260.0", None, "280.1", "290.0", "320.0", "460.14")) if r] + [
    FP16 + ("1", "8192", "cublas", "740.0", "ok", "off", ""),
] + [("BF16_IN_F32_OUT", "16x16x16", "0", "8192", k, r, "off" if k == "naive" else "pass", "gpu", "")
     for k, r in zip(STEPS, ("25.5", "150.0", "170.0", "200.0", "210.0", "260.0", "270.0", "297.1"))] + [
    ("BF16_IN_F32_OUT", "16x16x16", "0", "8192", "cublas", "744.6", "ok", "off", ""),
] + [("TF32_IN_F32_OUT", "16x16x8", "0", "8192", k, r, res, "gpu", "")
     for k, r, res in zip(STEPS, ("12.0", "60.0", "80.0", "90.0", "95.0", "", "110.0", "113.5"),
                          ("off", "pass", "pass", "pass", "pass", "error", "pass", "pass"))] + [
    ("TF32_IN_F32_OUT", "16x16x8", "0", "8192", "cublas", "370.2", "ok", "off", ""),
] + [("I8_IN_I32_OUT", "16x16x16", "0", "8192", k, r, "pass", "gpu", "")
     for k, r in zip(STEPS, ("40.0", "300.0", "350.0", "400.0", "420.0", "536.1", "540.0", "545.0"))] + [
    ("I8_IN_I32_OUT", "16x16x16", "0", "8192", "cublas", "", "na", "off", ""),
]

EXPECTED = [
    "| step | what it adds | fp16 (B as stored / transposed) | bf16 | tf32 | int8 | f64 | fp16 gain |",
    "|---|---|---:|---:|---:|---:|---:|---:|",
    "| naive | one warp per output fragment, operands from global memory | 29.3 / 28.0 | 25.5 | 12.0 | 40.0 | — |  |",
    "| 1 | block tiles in shared memory, one fragment per warp | 222.0 / 229.3 | 150.0 | 60.0 | 300.0 | — | +657% |",
    "| 2 | warp tiles of several fragments | 273.9 / 260.0 | 170.0 | 80.0 | 350.0 | — | +23% |",
    "| 3 | cp.async into several buffers, two barriers per buffer | 301.2 / — | 200.0 | 90.0 | 400.0 | — | +10% |",
    "| 4 | slab rows padded against bank conflicts | 289.2 / 280.1 | 210.0 | 95.0 | 420.0 | — | −4% |",
    "| 5 | the TMA; A shared by clusters of two (sm_90) | 289.8 / 290.0 | 260.0 | — | 536.1 | — | 0% |",
    "| 6 | blocks in groups of 8 rows, for L2 | 330.0 / 320.0 | 270.0 | 110.0 | 540.0 | — | +14% |",
    "| 7 | the epilogue stores whole rows: d_gemm | 463.5 / 460.1 | 297.1 | 113.5 | 545.0 | — | +40% |",
    "| cuBLAS |  | 745.0 / 740.0 | 744.6 | 370.2 | — | — |  |",
    "| WMMA ceiling |  | 657.1 | 655.0 | 327.4 | 1310.8 | — |  |",   # one per type pair: the highest
]


def write_csv(path, rows):
    with open(path, "w", newline="", encoding="utf-8") as handle:
        handle.write("# a made-up steps CSV for tests/test_steps_table.py\n")
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(COLUMNS)
        for type_pair, mnk, tb, size, kernel, rate, result, verify, previous in rows:
            step = "0" if kernel == "naive" else kernel[4:] if kernel.startswith("step") else ""
            unit = "TOP/s" if type_pair.startswith("I8") else "TFLOP/s"
            writer.writerow(("NVIDIA_H100_80GB_HBM3", "2026-11-23T10:00:00Z", type_pair, mnk, "0", tb, size, size,
                             size, kernel, step, rate, unit, result, verify, previous))


def run_script(*arguments, timeout=60):
    return subprocess.run([sys.executable, SCRIPT] + list(arguments), cwd=ROOT, capture_output=True,
                          text=True, encoding="utf-8", timeout=timeout)


def marked_table(lines, start_marker=START, end_marker=END):
    """(CSV path named by the start marker, or [it, "--bench", CSV], and the lines between the markers without
    blank ends) or None."""
    starts = [i for i, line in enumerate(lines) if start_marker.match(line.strip())]
    if not starts:
        return None
    if len(starts) > 1:
        raise ValueError("gemm.md has %d steps-table start markers; one is expected" % len(starts))
    start = starts[0]
    ends = [i for i in range(start + 1, len(lines)) if lines[i].strip() == end_marker]
    if not ends:
        raise ValueError("gemm.md line %d opens the steps table but no '%s' follows" % (start + 1, end_marker))
    script, csv_path, bench = start_marker.match(lines[start].strip()).groups()
    if script != "docs/bench/steps.py":
        raise ValueError("the steps-table marker names %s, not docs/bench/steps.py" % script)
    if bench:   # make bench's CSV of the same session: its --peak rows count towards the ceilings
        csv_path = [csv_path] + bench.split()
    body = lines[start + 1:ends[0]]
    while body and not body[0].strip():
        body = body[1:]
    while body and not body[-1].strip():
        body = body[:-1]
    return csv_path, body


class SyntheticTable(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.mkdtemp(prefix="steps-table-")
        cls.csv = os.path.join(cls.directory, "steps-test.csv")
        write_csv(cls.csv, SYNTHETIC)
        cls.result = run_script("--table", cls.csv)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.directory, ignore_errors=True)

    def test_the_whole_table(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        self.assertEqual(self.result.stdout.splitlines(), EXPECTED)

    def test_nothing_above_the_table(self):
        self.assertTrue(self.result.stdout.startswith("| step | what it adds |"), self.result.stdout[:200])

    def test_unicode_minus_and_dash(self):
        self.assertIn(MINUS + "4%", self.result.stdout)
        self.assertNotRegex(self.result.stdout, r"(?<![\w-])-\d+%", "an ASCII minus in a gain")
        self.assertIn("| 301.2 / \u2014 |", self.result.stdout)

    def test_deterministic(self):
        self.assertEqual(run_script("--table", self.csv).stdout, self.result.stdout)

    def test_a_failed_row_stops_the_table(self):
        failed = list(SYNTHETIC)
        failed.append(("BF16_IN_F32_OUT", "16x16x16", "0", "4096", "step2", "180.0", "fail", "gpu", ""))
        path = os.path.join(self.directory, "failed.csv")
        write_csv(path, failed)
        result = run_script("--table", path)
        self.assertNotEqual(result.returncode, 0, "a failed row must make --table exit non-zero")
        self.assertEqual(result.stdout, "", "no table from a CSV with a failed row")
        self.assertIn("failed verification", result.stderr)
        self.assertIn("BF16_IN_F32_OUT", result.stderr)
        self.assertIn("step2", result.stderr)

    def test_a_missing_csv(self):
        result = run_script("--table", os.path.join(self.directory, "absent.csv"))
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("cannot read", result.stderr)


class PageTable(unittest.TestCase):
    def test_page_matches_the_csv(self):
        with open(os.path.join(ROOT, "gemm.md"), encoding="utf-8") as handle:
            found = marked_table(handle.read().split("\n"))
        if found is None:
            self.skipTest("gemm.md has no '<!-- steps table: ... -->' marker yet")
        csv_path, body = found
        if not os.path.exists(os.path.join(ROOT, csv_path[0] if isinstance(csv_path, list) else csv_path)):
            self.skipTest("%s does not exist yet (make steps on a GPU writes it)" % csv_path)
        result = run_script("--table", *(csv_path if isinstance(csv_path, list) else [csv_path]))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(body, result.stdout.splitlines(),
                         "the steps table in gemm.md is not steps.py's output for %s: paste "
                         "`python3 docs/bench/steps.py --table %s` between the markers" % (csv_path, csv_path))

    def test_the_markers_are_read(self):
        """The comparison can fail: a made-up page with a stale table, and one with an unclosed marker."""
        page = ["text", "<!-- steps table: python3 docs/bench/steps.py --table docs/bench/steps-h100.csv -->", "",
                EXPECTED[0], EXPECTED[1], EXPECTED[2].replace("29.3", "29.4"), "", END, "more text"]
        csv_path, body = marked_table(page)
        self.assertEqual(csv_path, "docs/bench/steps-h100.csv")
        self.assertEqual(body, EXPECTED[:2] + [EXPECTED[2].replace("29.3", "29.4")])
        self.assertNotEqual(body, EXPECTED[:3])
        self.assertIsNone(marked_table(["no markers"]))
        with self.assertRaises(ValueError):
            marked_table(page[:4])


HOPPER_START = re.compile(r"^<!-- hopper steps table: python3 (\S+) --hopper-table (\S+)((?: --bench \S+)?) -->$")
HOPPER_END = "<!-- end of hopper steps table -->"
HOPPER_COLUMNS = COLUMNS + ("hopper_peak",)


class HopperTable(unittest.TestCase):
    def test_page_table_is_the_csv(self):
        with open(os.path.join(ROOT, "gemm.md"), encoding="utf-8") as handle:
            marked = marked_table(handle.read().split("\n"), HOPPER_START, HOPPER_END)
        self.assertIsNotNone(marked, "gemm.md needs one hopper steps table marker")
        csv_path, page = marked
        result = run_script("--hopper-table", *(csv_path if isinstance(csv_path, list) else [csv_path]))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(page, result.stdout.strip().split("\n"), "the page's hopper steps table differs from "
                         "steps.py --hopper-table %s" % csv_path)

    def test_synthetic(self):
        rows = [("peak", "", "649.0", "ok", "off", "", "824.4"), ("step7", "8192", "456.4", "pass", "gpu", "", ""),
                ("cublas", "8192", "722.0", "ok", "off", "", "")]
        rows += [("hopper%d" % n, "8192", rate, "pass", "gpu", previous, "")
                 for n, rate, previous in ((1, "533.7", "116.9"), (2, "713.1", "133.6"), (3, "712.7", "99.9"),
                                           (4, "727.2", "102.0"), (5, "732.5", "100.7"), (6, "750.0", "102.4"),
                                           (7, "750.0", "100.0"), (8, "757.5", "101.0"), (9, "757.5", "100.0"),
                                           (10, "765.1", "101.0"))]
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "hopper-steps.csv")
            with open(path, "w", newline="", encoding="utf-8") as handle:
                writer = csv.writer(handle, lineterminator="\n")
                writer.writerow(HOPPER_COLUMNS)
                for kernel, size, rate, result, verify, previous, peak in rows:
                    writer.writerow(("NVIDIA_H100_80GB_HBM3", "2026-11-23T10:00:00Z", "F16_IN_F32_OUT", "16x16x16",
                                     "0", "0", size, size, size, kernel, "", rate, "TFLOP/s", result, verify,
                                     previous, peak))
            result = run_script("--hopper-table", path)
        self.assertEqual(result.returncode, 0, result.stderr)
        lines = result.stdout.splitlines()
        self.assertEqual(lines[2].split(" | ")[:3], ["| d_gemm", "d_gemm, the WMMA kernel (cuBLAS timed in its run)",
                                                     "456.4 / —"])
        self.assertTrue(lines[3].startswith("| 1 | ") and "533.7 / —" in lines[3] and lines[3].endswith("| +17% |"))
        self.assertTrue(lines[5].endswith("| 0% |"), lines[5])
        self.assertTrue(lines[8].startswith("| 6 | ") and lines[8].endswith("| +2% |"), lines[8])
        self.assertTrue(lines[9].startswith("| 7 | ") and lines[9].endswith("| 0% |"), lines[9])
        self.assertTrue(lines[10].startswith("| 8 | ") and lines[10].endswith("| +1% |"), lines[10])
        self.assertTrue(lines[11].startswith("| 9 | ") and lines[11].endswith("| 0% |"), lines[11])
        self.assertTrue(lines[12].startswith("| 10 | ") and lines[12].endswith("| +1% |"), lines[12])
        self.assertIn("| cuBLAS |  | 722.0 / — |", lines[13])
        self.assertTrue(lines[14].startswith("| ceiling |  | 824.4 |"), lines[14])

    def test_the_gain_is_the_rates_not_a_rounded_percentage(self):
        """A step's gain comes from the two rates, as its section's "3.05× step 1's" does: 63.248 / 20.705 is
        +205.5%, +205%, where the CSV's pct_of_previous_step, 305.5 to one place, would round to +206%."""
        sys.path.insert(0, os.path.dirname(SCRIPT))
        import steps
        row = lambda kernel, rate, previous: {"type": "F16_IN_F32_OUT", "mnk": "16x16x16", "transpose_b": "0",
                                             "m": "8192", "n": "8192", "k": "8192", "kernel": kernel, "rate": rate,
                                             "result": "pass", "pct_of_previous_step": previous}
        lines = steps.table_lines([row("step1", "20.705", ""), row("step2", "63.248", "305.5")])
        step2 = [line for line in lines if line.startswith("| 2 |")][0]
        self.assertTrue(step2.endswith("| +205% |"), step2)
        self.assertEqual(steps.gain_text("305.5"), "+206%")   # what the column said before

    def test_previous_kernel(self):
        sys.path.insert(0, os.path.dirname(SCRIPT))
        import steps
        self.assertEqual([steps.previous_kernel(k) for k in ("naive", "step1", "step7", "hopper1", "hopper6")],
                         [None, "naive", "step6", "step7", "hopper5"])


class Tooling(unittest.TestCase):
    def test_help(self):
        result = run_script("--help")
        self.assertEqual(result.returncode, 0, result.stderr)
        for option in ("--table", "--plot", "--types", "--sizes", "--budget", "--csv", "--make-arg", "--jobs",
                       "--no-build"):
            self.assertIn(option, result.stdout)

    def test_make_steps(self):
        if shutil.which("make") is None:
            self.skipTest("no make")
        with tempfile.TemporaryDirectory() as directory:   # BIN there: make writes its .flags file beside it
            result = subprocess.run(["make", "-n", "--no-print-directory", "-C", ROOT, "steps",
                                     "BIN=%s" % os.path.join(directory, "gemm"), "STEPS_ARGS=--no-build --budget 7"],
                                    capture_output=True, text=True, timeout=120)
        self.assertEqual(result.returncode, 0, result.stderr)
        lines = [line for line in result.stdout.splitlines() if "docs/bench/steps.py" in line]
        self.assertTrue(lines, "make -n steps does not run docs/bench/steps.py:\n" + result.stdout)
        self.assertIn("--no-build --budget 7", lines[-1])
        with open(os.path.join(ROOT, "Makefile"), encoding="utf-8") as handle:
            makefile = handle.read()
        self.assertRegex(makefile, r"(?m)^\.PHONY:.*\bsteps\b", "steps is not .PHONY")
        self.assertRegex(makefile, r"(?m)^#\s+make steps\b", "the Makefile's header does not list make steps")


if __name__ == "__main__":
    unittest.main()
