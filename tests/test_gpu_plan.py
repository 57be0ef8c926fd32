"""make gpu-test's plan is complete (issue 30): every kernel a reader can name is verified in every
type pair and layout at small and ragged sizes.

`python3 tests/gpu_test.py --list` prints the plan without a GPU, one check a line.  The kernels come
from `out/gemm --help` of the default build (what a reader can name with --kernel in a STEPS=1
build), the type pairs from the Makefile's TYPES.  For every (kernel, type pair, layout) the plan
must hold verified runs in which M, N and K each take every awkward value (1, 2, 7, 11, 63, 65, 129,
300, and one past two 256-row tiles), with alpha and beta other than 1 and 0, and every kernel a
memcheck run.  The test of the checker itself drops one combination from a real plan and must see it
reported: a completeness test that cannot fail is no test.
"""

import os
import re
import subprocess
import sys
import unittest
from pathlib import Path

from test_build import find_nvcc
from test_program import make_binary, run

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gpu_test import kernels_from_help  # noqa: E402  (one parser: the plan's and the run's)

REPO = Path(__file__).resolve().parent.parent
AWKWARD = (1, 2, 7, 11, 63, 65, 129, 300)
PAST_TWO_TILES = 2 * 256   # a value above this is one past two block tiles of 256 rows
LIST_TIMEOUT_S = 120
# The calls a 10-minute device call splits make gpu-test into (docs/bench/gpu-test-h200.txt, canonical/run.sh's
# gpu-main gpu-hopper+matrix gpu-steps+tiers+ptx): together they must plan every check of the whole, once.
SPLIT = ("main", "hopper,matrix", "steps,tiers,ptx")
LINE = re.compile(r"^(run|sanitizer) kernel=(\S+) TYPE=(\S+) TRANSPOSE_A=(\d) TRANSPOSE_B=(\d) "
                  r"size=(\d+)x(\d+)x(\d+) --alpha=(\S+) --beta=(\S+) \|")


def type_pairs_from_makefile():
    text = (REPO / "Makefile").read_text()
    return re.search(r"^TYPES := (.+)$", text, re.M).group(1).split()


def plan_lines(*extra):
    result = subprocess.run([sys.executable, str(REPO / "tests" / "gpu_test.py"), "--list"] + list(extra), cwd=str(REPO),
                            capture_output=True, text=True, timeout=LIST_TIMEOUT_S)
    if result.returncode != 0:
        raise AssertionError("gpu_test.py --list failed (exit %d): %s" % (result.returncode, result.stderr[-2000:]))
    return result.stdout.splitlines()


def missing(lines, kernels, type_pairs):
    """What the plan leaves out: a list of '(kernel, type pair, layout): what' strings."""
    runs, sanitized = {}, set()
    for line in lines:
        match = LINE.match(line)
        if not match:
            continue
        kind, kernel, type_pair, ta, tb = match.group(1, 2, 3, 4, 5)
        size = tuple(int(v) for v in match.group(6, 7, 8))
        alpha, beta = match.group(9, 10)
        if kind == "sanitizer":
            sanitized.add(kernel)
        elif float(alpha) != 1 and float(beta) != 0:
            runs.setdefault((kernel, type_pair, int(ta), int(tb)), set()).add(size)
    gaps = []
    for kernel in kernels:
        if kernel not in sanitized:
            gaps.append("%s: no memcheck run" % kernel)
        for type_pair in type_pairs:
            for ta, tb in ((0, 0), (0, 1), (1, 0), (1, 1)):
                name = "(%s, %s, TRANSPOSE_A=%d TRANSPOSE_B=%d)" % (kernel, type_pair, ta, tb)
                sizes = runs.get((kernel, type_pair, ta, tb))
                if not sizes:
                    gaps.append(name + ": not in the plan")
                    continue
                for axis, letter in enumerate("MNK"):
                    seen = set(size[axis] for size in sizes)
                    lacking = [v for v in AWKWARD if v not in seen]
                    if lacking:
                        gaps.append("%s: %s never %s" % (name, letter, lacking))
                    if not any(v > PAST_TWO_TILES for v in seen):
                        gaps.append("%s: %s never past two 256-row tiles" % (name, letter))
    return gaps


class GpuTestPlan(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if find_nvcc() is None:
            raise unittest.SkipTest("nvcc not found: out/gemm --help cannot be asked")
        binary = make_binary()
        code, out, err = run([binary, "--help"], timeout=60)
        if code != 0:
            raise AssertionError("out/gemm --help failed: %s" % err)
        cls.kernels = kernels_from_help(out)
        cls.type_pairs = type_pairs_from_makefile()
        cls.lines = plan_lines()

    def test_help_names_every_kernel(self):
        """The derivation from --help finds the kernels the page teaches (a sanity check of the parser)."""
        for name in ("fast", "naive", "step1", "step7", "hopper", "hopper1", "hopper7"):
            self.assertIn(name, self.kernels)
        self.assertEqual(len(self.type_pairs), 7, self.type_pairs)

    def test_every_kernel_type_pair_and_layout_at_awkward_sizes(self):
        gaps = missing(self.lines, self.kernels, self.type_pairs)
        self.assertEqual(gaps, [], "gpu-test's plan leaves out (%d):\n  %s" % (len(gaps), "\n  ".join(gaps[:40])))

    def test_the_check_fails_when_a_combination_is_dropped(self):
        dropped = [line for line in self.lines
                   if not ("kernel=hopper1 " in line and "TYPE=I8_IN_I32_OUT TRANSPOSE_A=1 TRANSPOSE_B=0" in line)]
        self.assertLess(len(dropped), len(self.lines), "the plan has no hopper1 int8 A-transposed runs to drop")
        gaps = missing(dropped, self.kernels, self.type_pairs)
        self.assertIn("(hopper1, I8_IN_I32_OUT, TRANSPOSE_A=1 TRANSPOSE_B=0): not in the plan", gaps)
        one_size = [line for line in self.lines if not (" size=129x" in line and "kernel=step3 " in line)]
        self.assertTrue(any("step3" in gap and "M never [129]" in gap for gap in missing(one_size, self.kernels,
                                                                                          self.type_pairs)))

    def test_list_needs_no_gpu_and_builds_nothing(self):
        """--list ran here, on a machine that may have no GPU, and wrote no binary."""
        self.assertTrue(self.lines and self.lines[-1].startswith("gpu-test --list: "), self.lines[-1:])
        self.assertFalse(any(line.startswith("build ") for line in self.lines))

    def test_the_split_runs_the_whole_plan(self):
        """Run in SPLIT's calls, gpu-test plans each check of the whole plan once (stop 68's three calls ran 12,737
        of 12,738: a check planned only when hopper and ptx ran in one call was in none of them)."""
        whole = sorted(line.split(" | ")[0] + " | " + line.split(" | ")[1] for line in self.lines[:-1])
        split = sorted(line.split(" | ")[0] + " | " + line.split(" | ")[1]
                       for parts in SPLIT for line in plan_lines("--parts", parts)[:-1])
        left_out = sorted(set(whole) - set(split))
        self.assertEqual(left_out, [], "no call of %s plans %d check(s):\n  %s" % (SPLIT, len(left_out),
                                                                                   "\n  ".join(left_out[:20])))
        self.assertEqual(len(split), len(whole), "the split plans %d checks, the whole %d" % (len(split), len(whole)))

    def test_the_readme_quotes_the_plans_size(self):
        """README.md's "On a GPU" says how many checks make gpu-test makes on a 9.0 GPU: the count --list prints
        (it said 11,513 after the plan had grown to 11,548)."""
        counted = int(re.match(r"gpu-test --list: (\d+) checks", self.lines[-1]).group(1))
        readme = (REPO / "README.md").read_text(encoding="utf-8")
        quoted = [int(q.replace(",", "")) for q in re.findall(r"on a 9\.0 GPU: ([\d,]+) checks", readme)]
        self.assertEqual(quoted, [counted], "README.md quotes %r checks; --list plans %d" % (quoted, counted))


if __name__ == "__main__":
    unittest.main()
