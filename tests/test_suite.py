"""The shape suite of issue 32 (docs/bench/suite.py), checked without a GPU.

* The plan covers every type pair the targets name, both layouts of B and both kernels, at every
  shape, one run a line (`--list`), in the same out/cfg builds as make bench.
* The suite holds what the issue asks for: skinny M from 16 to 256 against the layers of both
  models, small squares, ragged sizes, large K, the prefill shapes, and every shape of the issue's
  table; each shape is one the program accepts.
* The table and the targets are computed from a CSV, and a row that failed verification stops them.
* Below M = 512 the shapes are also shown in TB/s, from the bytes of A, B and C at each type pair's
  element sizes, which must be those of the type-pair table in gemm.md.
"""

import csv
import math
import os
import re
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "docs", "bench"))
import suite  # noqa: E402

SCRIPT = os.path.join(ROOT, "docs", "bench", "suite.py")
ISSUE_SHAPES = ((64, 14336, 4096), (128, 8192, 8192), (1024, 1024, 1024), (5000, 5000, 5000),
                (4096, 14336, 4096), (16384, 4096, 4096), (8192, 4096, 14336), (2048, 2048, 2048),
                (4096, 4096, 16384))


def shapes(group=None):
    return [(m, n, k) for g, m, n, k, _ in suite.SUITE if group in (None, g)]


class Plan(unittest.TestCase):
    def test_the_list_covers_every_type_layout_kernel_and_shape(self):
        out = subprocess.run([sys.executable, SCRIPT, "--list"], capture_output=True, text=True, check=True,
                             cwd=ROOT).stdout.splitlines()
        runs = set()
        for line in out:
            words = line.split()
            runs.add((words[0], words[2], words[3], (int(words[4]), int(words[5]), int(words[6]))))
        expected = {(t, "TRANSPOSE_B=%d" % tb, "--kernel=%s" % kernel, shape) for t in suite.TARGET_TYPES
                    for tb in (0, 1) for kernel in ("hopper", "fast") for shape in shapes()}
        self.assertEqual(runs, expected)
        self.assertEqual(len(out), len(expected), "a run is listed twice")

    def test_every_type_pair_can_be_asked_for(self):
        out = subprocess.run([sys.executable, SCRIPT, "--list", "--types", "all"], capture_output=True,
                             text=True, check=True, cwd=ROOT).stdout
        for type_pair in suite.TYPE_PAIRS:
            self.assertIn(type_pair + " ", out)

    def test_a_wrong_type_is_refused(self):
        done = subprocess.run([sys.executable, SCRIPT, "--list", "--types", "F17"], capture_output=True,
                              text=True, cwd=ROOT)
        self.assertEqual(done.returncode, 2)
        self.assertIn("--types", done.stderr)

    def test_the_builds_are_make_benchs(self):
        self.assertEqual(suite.config_name("F16_IN_F32_OUT", 1), "F16_IN_F32_OUT_16x16x16_ta0_tb1")
        self.assertEqual(suite.config_name("TF32_IN_F32_OUT", 0), "TF32_IN_F32_OUT_16x16x8_ta0_tb0")

    def test_make_suite_runs_the_script(self):
        done = subprocess.run(["make", "-n", "suite"], capture_output=True, text=True, cwd=ROOT)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("docs/bench/suite.py", done.stdout)


class Shapes(unittest.TestCase):
    def test_skinny_m_from_16_to_256_against_both_models(self):
        skinny = [(m, n, k, layer) for g, m, n, k, layer in suite.SUITE if g == "skinny"]
        self.assertEqual(sorted({m for m, _, _, _ in skinny}), [16, 32, 64, 128, 256])
        for model in ("8B", "70B"):
            layers = {layer for _, _, _, layer in skinny if layer.startswith(model + " ")}
            self.assertGreaterEqual(len(layers), 2, "too few layers of Llama 3 %s" % model)
            for layer in layers:
                self.assertEqual(sorted(m for m, _, _, name in skinny if name == layer), [16, 32, 64, 128, 256])

    def test_small_squares_ragged_and_large_k(self):
        self.assertTrue({256, 512, 1024, 2048} <= {m for m, n, k in shapes("square") if m == n == k})
        for m, n, k in shapes("ragged"):
            self.assertTrue(any(size % 64 for size in (m, n, k)), "%dx%dx%d is not ragged" % (m, n, k))
        self.assertGreaterEqual(len(shapes("ragged")), 3)
        for m, n, k in shapes("large K"):
            self.assertGreaterEqual(k, 4 * max(m, n))
        self.assertGreaterEqual(len(shapes("prefill")), 3)

    def test_every_shape_of_the_issue(self):
        for shape in ISSUE_SHAPES:
            self.assertIn(shape, shapes())

    def test_each_shape_once_and_within_the_programs_limits(self):
        self.assertEqual(len(shapes()), len(set(shapes())))
        self.assertLessEqual(len(shapes()), 4096)   # MAX_SHAPES of --shapes
        for shape in shapes():
            self.assertTrue(all(1 <= size <= 1 << 30 for size in shape))


def write_csv(path, rows):
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=suite.FIELDS)
        writer.writeheader()
        for row in rows:
            writer.writerow(dict((f, row.get(f, "")) for f in suite.FIELDS))


def row(type_pair, shape, rate, cublas, result="pass", tb=1):
    return {"type": type_pair, "transpose_b": tb, "m": shape[0], "n": shape[1], "k": shape[2], "kernel": "hopper",
            "rate": rate, "cublas_rate": cublas, "result": result}


class Table(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.directory.name, "suite.csv")

    def tearDown(self):
        self.directory.cleanup()

    def test_mean_and_floor(self):
        small, big = (64, 4096, 4096), (8192, 8192, 8192)
        write_csv(self.path, [row("F16_IN_F32_OUT", (16, 4096, 4096), 50, 100), row("F16_IN_F32_OUT", small, 80, 100),
                              row("F16_IN_F32_OUT", big, 800, 500), row("F16_IN_F32_OUT", big, 1, 1, tb=0)])
        stats, met = suite.summary(suite.read_rows(self.path))
        mean, (worst, where), count = stats["F16_IN_F32_OUT"]
        self.assertEqual(count, 3)   # the B-as-stored row is another table
        self.assertAlmostEqual(mean, math.exp((math.log(0.5) + math.log(0.8) + math.log(1.6)) / 3))
        self.assertEqual((worst, where), (0.8, small))   # M = 16 is below the floor's reach
        self.assertFalse(met)
        lines = suite.table(self.path)
        self.assertIn("| 64 × 4096 × 4096 | 8B attention out | 0.80 |", lines)
        self.assertEqual(lines[-2], "| geometric mean | | %.2f |" % mean)
        self.assertEqual(lines[-1], "| worst, M ≥ 64 | | 0.80 |")

    def test_targets_met(self):
        write_csv(self.path, [row(t, (128, 8192, 8192), 101, 100) for t in suite.TARGET_TYPES])
        self.assertTrue(suite.summary(suite.read_rows(self.path))[1])

    def test_a_failed_row_stops_the_table(self):
        write_csv(self.path, [row("BF16_IN_F32_OUT", (128, 8192, 8192), 101, 100, result="fail")])
        with self.assertRaises(SystemExit) as stop:
            suite.table(self.path)
        self.assertIn("128x8192x8192", str(stop.exception))

    def test_bandwidth_of_the_memory_bound_shapes(self):
        skinny, square = (128, 8192, 8192), (1024, 1024, 1024)
        write_csv(self.path, [row("F16_IN_F32_OUT", skinny, 360, 500), row("F16_IN_F32_OUT", square, 400, 500),
                              row("I8_IN_I32_OUT", skinny, 720, 1000)])
        lines = suite.bandwidth_table(self.path)
        self.assertEqual(lines[0], "| M × N × K | layer | F16_IN_F32_OUT | I8_IN_I32_OUT |")
        shown = [line.split(" | ")[0][2:] for line in lines[2:]]
        self.assertEqual(shown, ["%d × %d × %d" % s for s in shapes() if s[0] < 512])
        # fp16: 2 bytes of A and B, 4 of C; 2 M N K flops at 360 TFLOP/s
        fp16 = (2 * (128 * 8192 + 8192 * 8192) + 4 * 128 * 8192) / (2 * 128 * 8192 * 8192 / 360e12) / 1e12
        int8 = (1 * (128 * 8192 + 8192 * 8192) + 4 * 128 * 8192) / (2 * 128 * 8192 * 8192 / 720e12) / 1e12
        line = [l for l in lines if l.startswith("| 128 × 8192 × 8192 |")][0]
        self.assertEqual(line, "| 128 × 8192 × 8192 | 70B attention out | %.2f / %.2f | %.2f / %.2f |"
                         % (fp16, fp16 * 500 / 360, int8, int8 * 1000 / 720))
        self.assertFalse(any(l.startswith("| 1024 × 1024 × 1024 |") for l in lines))

    def test_a_failed_row_stops_the_bandwidth_table(self):
        write_csv(self.path, [row("F16_IN_F32_OUT", (64, 4096, 4096), 10, 100, result="fail")])
        with self.assertRaises(SystemExit):
            suite.bandwidth_table(self.path)


class ElementBytes(unittest.TestCase):
    SIZES = {"half": 2, "float": 4, "unsigned char": 1, "signed char": 1, "__nv_bfloat16": 2, "float as tf32": 4,
             "double": 8, "int": 4}

    def test_the_sizes_are_the_type_pair_tables(self):
        with open(os.path.join(ROOT, "gemm.md"), encoding="utf-8") as handle:
            rows = re.findall(r"^\| `(\w+)`\s*\| `([^|]*?)`(?: as tf32)?\s*\| `(\w+)`", handle.read(), re.M)
        table = {name: (self.SIZES[operand], self.SIZES[result]) for name, operand, result in rows}
        self.assertEqual(set(table), set(suite.TYPE_PAIRS))
        self.assertEqual(table, suite.ELEMENT_BYTES)


if __name__ == "__main__":
    unittest.main()
