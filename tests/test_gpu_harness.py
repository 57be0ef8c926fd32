"""make gpu-test's harness tells the truth (issue 39): a job that raises fails its checks and the run goes on, a
check the plan made and the run never reached is counted, and the summary's counts add up.

tests/gpu_test.py runs here, on no GPU, against a fake out/gemm: a script that answers --help as the real one
does and prints one kv line per shape of --shapes. The plan is the matrix part for one type pair (4 layouts x
every kernel x 18 shapes, and the --help check). Three things go wrong on purpose:

- the fake binary reports a wrong result for step3 at the first shape of one layout (exit 1): one failed check;
- compare_kv raises KeyError for step7 in another layout, after that job made its 18 records, as the missing
  KERNEL_ALIASES entry did on the H200: 18 checks not run, crashed;
- matrix_runs raises for hopper2 in a third layout before making any record (in the run, not in the plan that
  --list prints): 18 planned checks never made.

Each must show in the counts, and the exit status must be 1; with nothing broken, every check passes.
"""

import collections
import contextlib
import io
import os
import re
import stat
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gpu_test  # noqa: E402

TYPE = "F16_IN_F32_OUT"
FAKE_GEMM = textwrap.dedent('''\
    #!{python}
    """A stand-in for out/gemm: --help, and one kv line per shape of --shapes."""
    import os, re, sys
    args = sys.argv[1:]
    if "--help" in args:
        print("usage: gemm [options] [M N K]")
        print("  -k, --kernel=fast|naive|stepN|hopper|hopperN")
        print("        d_gemm (default), d_gemm_naive, step N of d_gemm (1 to 7),")
        print("        d_gemm_hopper or its step N (1 to {hopper_steps}; sm_90a builds, 9.0 GPUs)")
        sys.exit(0)
    ta, tb = re.search(r"_ta(\\d)_tb(\\d)", os.path.abspath(sys.argv[0])).groups()
    option = dict(a[2:].split("=", 1) for a in args if a.startswith("--") and "=" in a)
    worst = 0
    for number, line in enumerate(l for l in open(option["shapes"]) if l.strip() and not l.startswith("#")):
        m, n, k = line.split()
        bad = option["kernel"] == os.environ.get("FAKE_WRONG") and (ta, tb) == ("0", "0") and number == 0
        worst = max(worst, 1 if bad else 0)
        print("mode=gemm type={type} mnk=16x16x16 transpose_a=%s transpose_b=%s m=%s n=%s k=%s kernel=%s "
              "alpha=%s beta=%s median_ms=0.01 rate=1.0 max_err=%s bound=1 result=%s"
              % (ta, tb, m, n, k, option["kernel"], option["alpha"], option["beta"], 2 if bad else 0,
                 "fail" if bad else "pass"))
    sys.exit(worst)
''')


class HarnessCounts(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        root = self.directory.name
        for ta, tb in gpu_test.TRANSPOSITIONS:
            folder = os.path.join(root, "out", "cfg", "%s_16x16x16_ta%d_tb%d_steps" % (TYPE, ta, tb))
            os.makedirs(folder)
            path = os.path.join(folder, "gemm")
            with open(path, "w") as handle:
                handle.write(FAKE_GEMM.format(python=sys.executable, type=TYPE, hopper_steps=sum(
                    1 for k in gpu_test.MATRIX_KERNELS if re.match(r"hopper\d+$", k))))
            os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
        self.root = root
        self.patches = []

    def tearDown(self):
        for owner, name, original in reversed(self.patches):
            setattr(owner, name, original)
        self.directory.cleanup()

    def patch(self, owner, name, value):
        self.patches.append((owner, name, getattr(owner, name)))
        setattr(owner, name, value)

    def run_harness(self):
        def gpu_info(tester):
            tester.gpu, tester.cc = "a fake 9.0 GPU", "9.0"
        self.patch(gpu_test.Tester, "gpu_info", gpu_info)
        output = io.StringIO()
        with contextlib.redirect_stdout(output):
            status = gpu_test.main(["--parts", "matrix", "--types", TYPE, "--no-build", "--skip-sanitizers",
                                    "--root", self.root, "--out", os.path.join(self.root, "out", "gpu-test"),
                                    "--jobs", "2", "--gpu-jobs", "3"])
        text = output.getvalue()
        counts = re.search(r"^gpu-test: planned (\d+), run (\d+), passed (\d+), failed (\d+), not run (\d+)(.*)$",
                           text, re.M)
        final = re.findall(r"^gpu-test: (\d+) passed, (\d+) failed$", text, re.M)
        self.assertIsNotNone(counts, text[-3000:])
        self.assertEqual(len(final), 1, text[-3000:])
        return status, tuple(int(v) for v in counts.groups()[:5]), counts.group(6), tuple(map(int, final[0])), text

    def planned(self):
        return len(gpu_test.MATRIX_KERNELS) * len(gpu_test.MATRIX_SHAPES) * 4 + 1   # and the --help check

    def test_nothing_broken_passes_whole(self):
        status, counts, reasons, final, text = self.run_harness()
        planned = self.planned()
        self.assertEqual(counts, (planned, planned, planned, 0, 0), text[-3000:])
        self.assertEqual(final, (planned, 0))
        self.assertEqual(status, 0)

    def test_a_failure_and_two_crashes_are_all_counted(self):
        compare_kv = gpu_test.Tester.compare_kv
        matrix_runs = gpu_test.Tester.matrix_runs

        def broken_compare(tester, config, kernel, *args):
            if kernel == "step7" and (config.ta, config.tb) == (0, 1):
                raise KeyError(kernel)
            return compare_kv(tester, config, kernel, *args)

        def broken_matrix(tester, config, kernel):
            if kernel == "hopper2" and (config.ta, config.tb) == (1, 0) and not tester.dry:   # the run's, not the plan's
                raise RuntimeError("before any record")
            return matrix_runs(tester, config, kernel)
        os.environ["FAKE_WRONG"] = "step3"
        self.addCleanup(os.environ.pop, "FAKE_WRONG")
        self.patch(gpu_test.Tester, "compare_kv", broken_compare)
        self.patch(gpu_test.Tester, "matrix_runs", broken_matrix)
        status, counts, reasons, final, text = self.run_harness()
        planned, shapes = self.planned(), len(gpu_test.MATRIX_SHAPES)
        self.assertEqual(counts, (planned, planned - 2 * shapes, planned - 2 * shapes - 1, 1, 2 * shapes), text[-3000:])
        self.assertIn("crash %d" % (2 * shapes), reasons)
        self.assertIn("2 builds or jobs failed or raised", reasons)
        # failed: the wrong result, the 36 checks that never ran, and the two jobs that raised
        self.assertEqual(final, (planned - 2 * shapes - 1, 1 + 2 * shapes + 2))
        self.assertEqual(status, 1)
        self.assertIn("raised KeyError: 'step7' at gpu_test.py:", text)   # the exception and its line
        self.assertIn("raised RuntimeError: before any record", text)


class PathMarks(unittest.TestCase):
    """The summary's list of failure paths marks each check ok, skip (the --budget stopped it: not a failure, as
    the counts say) or FAIL. On the H200 on 2026-12-03 three budget-stopped paths printed FAIL above the line
    "failed 0"."""

    def test_budget_stopped_path_is_skip(self):
        with tempfile.TemporaryDirectory() as out:
            args = type("Args", (), {"root": out, "out": out, "budget": 10, "show_failures": 20})()
            tester = gpu_test.Tester(args)
            tester.records = [
                gpu_test.Record("path", None, "passes", status="pass", rc=3, expect=3, detail="gemm: says so"),
                gpu_test.Record("path", None, "stopped", status="skip", detail="not run: budget of 10s used up"),
                gpu_test.Record("path", None, "breaks", status="fail", rc=0, expect=3, detail="exit 0"),
            ]
            tester.planned = lambda: collections.Counter(r.key() for r in tester.records)
            tester.plan_counts = tester.planned()
            output = io.StringIO()
            with contextlib.redirect_stdout(output):
                tester.summary([])
        marks = dict((line.split()[1], line.split()[0]) for line in output.getvalue().splitlines()
                     if re.match(r"  (ok|skip|FAIL) ", line))
        self.assertEqual(marks, {"passes": "ok", "stopped": "skip", "breaks": "FAIL"}, output.getvalue())


if __name__ == "__main__":
    unittest.main()
