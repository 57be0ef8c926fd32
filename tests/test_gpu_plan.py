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

import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from test_build import find_nvcc
from test_program import make_binary, run

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gpu_test import kernels_from_help  # noqa: E402  (one parser: the plan's and the run's)
import gpu_test  # noqa: E402

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


# The bandwidths d_gemm_hopper's rule sees on the GPUs gpu-test runs on (out/gemm.cu: H100_BANDWIDTH, H200_BANDWIDTH).
BANDWIDTHS = {"H100": "3.35e12", "H200": "4.92e12"}
RULE_PICKS = REPO / "tests" / "rule_picks.cu"


def rule_picks(nvcc, type_pair, ta, tb, sizes, workdir):
    """{bandwidth's GPU: {size: (tile, split tiles)}}: out/gemm.cu's rule compiled on the host (tests/rule_picks.cu),
    for one build, at each size."""
    mnk = gpu_test.SHAPES[type_pair][0]   # the default shape: the rule does not depend on it
    binary = os.path.join(workdir, "picks-%s-%d%d" % (type_pair, ta, tb))
    command = [nvcc, "-O0", "-std=c++17", "-gencode", "arch=compute_80,code=compute_80", "-DCONFIG_ON_COMMAND_LINE",
               "-D" + type_pair, "-DMNK_" + mnk, "-DTRANSPOSE_A=%d" % ta, "-DTRANSPOSE_B=%d" % tb,
               "-DGEMM_CU=\"%s\"" % (REPO / "out" / "gemm.cu"), "-o", binary, str(RULE_PICKS), "-lcublas", "-lpthread",
               "-w"]
    built = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if built.returncode != 0:
        raise AssertionError("rule_picks.cu for %s %d%d: %s" % (type_pair, ta, tb, built.stderr[-2000:]))
    text = "".join("%d %d %d\n" % size for size in sizes)
    picks = {}
    for gpu, bandwidth in BANDWIDTHS.items():
        out = subprocess.run([binary, bandwidth], input=text, capture_output=True, text=True, timeout=60).stdout
        picks[gpu] = {tuple(map(int, f[:3])): (f[3], int(f[4])) for f in (line.split() for line in out.splitlines())}
    return picks


def hopper_expectations_unmet(type_pair, ta, tb, picks):
    """What gpu-test's hopper part asks of one build that the rule's picks (rule_picks) do not give: a wanted tile
    no size runs, or a size that must split and does not."""
    unmet = []
    for gpu, by_size in picks.items():
        ran = set(tile for tile, _ in by_size.values())
        for tile in gpu_test.hopper_tiles_wanted(type_pair, ta, tb):
            if tile not in ran:
                unmet.append("%s %d%d %s: no size runs %s" % (type_pair, ta, tb, gpu, tile))
        for size in gpu_test.HOPPER_CHECKED:
            if gpu_test.hopper_must_split(type_pair, tb, size) and by_size[size][1] == 0:
                unmet.append("%s %d%d %s: %s is not split (%s)" % (type_pair, ta, tb, gpu, size, by_size[size][0]))
    return unmet


class HopperRulePicks(unittest.TestCase):
    """gpu-test's hopper part wants, per build, each of step 9's tiles run at its sizes and some sizes split
    (hopper_tiles_wanted, hopper_must_split). Those are the rule's picks: compiled here from out/gemm.cu for every
    type pair and layout, on an H100's and an H200's bandwidth, they must give what gpu-test asks, or a device call
    is spent on a check that fails by design (stop 73 found int8 with A transposed never takes 128 x 64)."""

    @classmethod
    def setUpClass(cls):
        cls.nvcc = find_nvcc()
        if cls.nvcc is None:
            raise unittest.SkipTest("nvcc not found: the rule cannot be compiled")
        cls.workdir = tempfile.mkdtemp(prefix="rule-picks-")
        sizes = gpu_test.HOPPER_SIZES + gpu_test.HOPPER_CHECKED
        builds = [(t, ta, tb) for t in type_pairs_from_makefile() for ta in (0, 1) for tb in (0, 1)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            results = pool.map(lambda b: rule_picks(cls.nvcc, b[0], b[1], b[2], sizes, cls.workdir), builds)
            cls.picks = dict(zip(builds, results))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(getattr(cls, "workdir", ""), ignore_errors=True)

    def test_every_build_runs_the_tiles_and_splits_gpu_test_wants(self):
        unmet = [line for build, picks in sorted(self.picks.items())
                 for line in hopper_expectations_unmet(build[0], build[1], build[2], picks)]
        self.assertEqual(unmet, [], "gpu-test's hopper part asks what the rule does not give:\n  " + "\n  ".join(unmet))

    def test_the_check_can_fail(self):
        """Without its 128 x 64 runs, int8 with A as stored and B as stored misses a wanted tile; a must-split size
        left whole is reported too."""
        picks = {gpu: dict(by_size) for gpu, by_size in self.picks[("I8_IN_I32_OUT", 0, 0)].items()}
        self.assertEqual(hopper_expectations_unmet("I8_IN_I32_OUT", 0, 0, picks), [])
        for by_size in picks.values():
            for size, (tile, split) in list(by_size.items()):
                by_size[size] = ("128x128c1" if tile == "128x64c1" else tile, split)
            by_size[gpu_test.HOPPER_SPLIT] = (by_size[gpu_test.HOPPER_SPLIT][0], 0)
        unmet = hopper_expectations_unmet("I8_IN_I32_OUT", 0, 0, picks)
        self.assertIn("I8_IN_I32_OUT 00 H200: no size runs 128x64c1", unmet)
        self.assertIn("I8_IN_I32_OUT 00 H100: %s is not split (128x256c2)" % (gpu_test.HOPPER_SPLIT,), unmet)


if __name__ == "__main__":
    unittest.main()
