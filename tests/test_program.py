"""Program tests: what out/gemm does without a GPU.

The command line is parsed before the GPU is looked for, so every bad command
line gets exit status 2 and one line on stderr on any machine; a good command
line gets as far as the GPU check (exit 3 on a machine without one, a real
run on a machine with one).  --help and --self-test need no GPU at all.

out/gemm is built once with `make`; an I8_IN_I32_OUT build (for the integer
alpha/beta rules) with `make BIN=... TYPE=I8_IN_I32_OUT`.  Everything skips
when nvcc is not installed.  Nothing here measures time; every run has a
timeout so that a hang fails instead of blocking the suite.
"""

import glob
import os
import re
import resource
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from test_build import find_nvcc, make_lock, tool_env  # shared with the build tests

REPO = Path(__file__).resolve().parent.parent
GEMM = REPO / "out" / "gemm"

MAKE_TIMEOUT_S = 2400
RUN_TIMEOUT_S = 120        # a command-line error or a missing GPU is immediate
SELF_TEST_TIMEOUT_S = 900

EXIT_OK, EXIT_VERIFY, EXIT_USAGE, EXIT_NO_GPU, EXIT_NO_MEMORY, EXIT_CUDA, EXIT_IO = range(7)

# (test name, arguments, allowed exit statuses).  Each must end with exactly
# one line on stderr, starting "gemm: ", and nothing on stdout.
BAD_COMMAND_LINES = [
    ("non_numeric_size", ["abc", "16", "16"], {EXIT_USAGE}),
    ("trailing_garbage_in_size", ["16", "16x", "16"], {EXIT_USAGE}),
    ("fractional_size", ["16", "16", "16.5"], {EXIT_USAGE}),
    ("zero_size", ["0", "16", "16"], {EXIT_USAGE}),
    ("zero_k", ["16", "16", "0"], {EXIT_USAGE}),
    ("negative_size_after_double_dash", ["--", "16", "-5", "16"], {EXIT_USAGE}),
    ("negative_size_as_option", ["16", "-5", "16"], {EXIT_USAGE}),
    ("absurd_size_1e30", ["1e30", "16", "16"], {EXIT_USAGE}),
    ("size_beyond_64_bits", ["99999999999999999999", "16", "16"], {EXIT_USAGE}),
    ("one_size", ["16"], {EXIT_USAGE}),
    ("only_two_sizes", ["16", "16"], {EXIT_USAGE}),
    ("four_sizes", ["16", "16", "16", "16"], {EXIT_USAGE}),
    ("unknown_long_flag", ["--nope"], {EXIT_USAGE}),
    ("unknown_short_flag", ["-x", "16", "16", "16"], {EXIT_USAGE}),
    ("missing_option_argument", ["16", "16", "16", "--iterations"], {EXIT_USAGE}),
    ("argument_to_flag_without_one", ["--cublas=yes", "16", "16", "16"], {EXIT_USAGE}),
    ("bad_verify", ["--verify=maybe", "16", "16", "16"], {EXIT_USAGE}),
    ("bad_kernel", ["--kernel=slow", "16", "16", "16"], {EXIT_USAGE}),
    ("bad_format", ["--format=xml", "16", "16", "16"], {EXIT_USAGE}),
    ("zero_iterations", ["--iterations=0", "16", "16", "16"], {EXIT_USAGE}),
    ("negative_iterations", ["--iterations=-3", "16", "16", "16"], {EXIT_USAGE}),
    ("non_numeric_iterations", ["-i", "ten", "16", "16", "16"], {EXIT_USAGE}),
    ("absurd_iterations", ["--iterations=99999999999999999999", "16", "16", "16"], {EXIT_USAGE}),
    ("negative_warmup", ["--warmup=-1", "16", "16", "16"], {EXIT_USAGE}),
    ("non_numeric_seed", ["--seed=x1", "16", "16", "16"], {EXIT_USAGE}),
    ("non_numeric_alpha", ["--alpha=abc", "16", "16", "16"], {EXIT_USAGE}),
    ("empty_beta", ["--beta=", "16", "16", "16"], {EXIT_USAGE}),
    ("non_finite_alpha", ["--alpha=nan", "16", "16", "16"], {EXIT_USAGE}),
    ("print_with_m_over_32", ["--print", "33", "8", "8"], {EXIT_USAGE}),
    ("print_with_k_over_32", ["-p", "8", "8", "33"], {EXIT_USAGE}),
    ("print_with_default_sizes", ["--print"], {EXIT_USAGE}),
    # M*N elements (and bytes) past 64 bits: refused as a bad size, or as
    # memory that cannot be had; never a wrapped-around allocation.
    ("m_times_n_beyond_64_bits", ["4294967296", "4294967296", "8"], {EXIT_USAGE, EXIT_NO_MEMORY}),
    ("all_sizes_2_to_the_31", ["2147483648", "2147483648", "2147483648"],
     {EXIT_USAGE, EXIT_NO_MEMORY}),
]

# Command lines that are fine: they must get past parsing (to the GPU check
# on a machine without one; to a verified run on a machine with one).
GOOD_COMMAND_LINES = [
    ("sizes", ["16", "16", "16"]),
    ("long_flags_odd_sizes", ["--kernel=naive", "--verify=cpu", "--iterations=1", "--warmup=0",
                              "--alpha=1.5", "--beta=-0.25", "--seed=7", "--format=csv",
                              "17", "33", "65"]),
    ("short_flags", ["-k", "fast", "-v", "gpu", "-i", "2", "-w", "1", "-a", "2", "-b", "1",
                     "-s", "3", "-f", "kv", "31", "17", "9"]),
    ("attached_short_values", ["-i3", "-fkv", "-vauto", "8", "8", "8"]),
    ("sizes_before_flags", ["24", "40", "56", "--format=text", "--verify=off"]),
    ("print_at_32", ["--print", "32", "32", "32"]),
    ("cublas", ["--cublas", "64", "64", "64"]),
    ("peak", ["--peak"]),
]

LONG_FLAGS = ["--kernel", "--verify", "--iterations", "--warmup", "--alpha", "--beta", "--seed",
              "--cublas", "--print", "--format", "--dump", "--peak", "--self-test", "--help", "--shapes",
              "--cold-l2"]
SHORT_FLAGS = ["-k", "-v", "-i", "-w", "-a", "-b", "-s", "-c", "-p", "-f", "-d", "-h"]
FLAG_VALUES = ["fast", "naive", "auto", "cpu", "gpu", "off", "text", "kv", "csv"]
SELF_TEST_TOPICS = [("padding", r"(?i)pad"), ("extraction", r"(?i)extract"),
                    ("CPU reference", r"(?i)reference"), ("error bound", r"(?i)bound"),
                    ("parsing", r"(?i)pars")]


def gpu_present():
    return bool(glob.glob("/dev/nvidia[0-9]*"))


def _no_core_files():
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run(cmd, timeout, cwd=None):
    """(exit status, stdout, stderr); exit status None on a timeout."""
    try:
        proc = subprocess.run([str(part) for part in cmd], cwd=str(cwd or REPO), env=tool_env(),
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True, errors="replace",
                              timeout=timeout, preexec_fn=_no_core_files)
        return proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired as expired:
        return None, expired.stdout or "", "TIMEOUT after %ss" % timeout


def tail(text, lines=30):
    return "\n".join(str(text).splitlines()[-lines:])


def make_binary(target=None, *variables):
    """Build with make; return the binary's path or raise AssertionError."""
    args = ["make", "--no-print-directory"] + list(variables)
    with make_lock():
        code, out, err = run(args, timeout=MAKE_TIMEOUT_S)
    if code != 0:
        raise AssertionError("%s failed (exit %s):\n%s" % (" ".join(args), code, tail(out + err)))
    binary = Path(target) if target else GEMM
    if not os.access(str(binary), os.X_OK):
        raise AssertionError("%s left no executable %s" % (" ".join(args), binary))
    return binary


class GemmTestCase(unittest.TestCase):
    """Helpers shared by the program tests (and test_hostcheck)."""

    binary = GEMM

    def gemm(self, *args, timeout=RUN_TIMEOUT_S):
        with tempfile.TemporaryDirectory(prefix="gemm-cwd-") as cwd:
            code, out, err = run([self.binary] + list(args), timeout=timeout, cwd=cwd)
            self.assertEqual(os.listdir(cwd), [], "left files in its working folder")
        self.assertIsNotNone(code, "out/gemm %s hung: %s" % (" ".join(args), err))
        self.assertTrue(0 <= code < 128, "out/gemm %s crashed (status %s):\n%s"
                        % (" ".join(args), code, tail(out + err)))
        return code, out, err

    def assert_one_error_line(self, args, out, err):
        lines = err.splitlines()
        self.assertEqual(len(lines), 1, "out/gemm %s: expected one line on stderr, got:\n%s"
                         % (" ".join(args), err))
        self.assertTrue(lines[0].startswith("gemm: "), "the error line does not start 'gemm: ': "
                        + lines[0])
        self.assertGreater(len(lines[0].strip()), len("gemm:") + 3, "empty message")
        self.assertEqual(out, "", "out/gemm %s printed on stdout too:\n%s" % (" ".join(args), out))

    def assert_no_gpu_error(self, args, code, out, err):
        self.assertEqual(code, EXIT_NO_GPU, "out/gemm %s: exit %s, expected 3 (no GPU):\n%s"
                         % (" ".join(args), code, tail(out + err)))
        self.assert_one_error_line(args, out, err)
        self.assertRegex(err, r"(?i)GPU|CUDA|device", "the line does not say a GPU is missing")

    def check_bad_command_line(self, args, allowed):
        code, out, err = self.gemm(*args)
        self.assertIn(code, allowed, "out/gemm %s: exit %s, expected %s:\n%s"
                      % (" ".join(args), code, sorted(allowed), tail(out + err)))
        self.assert_one_error_line(args, out, err)

    def check_good_command_line(self, args):
        code, out, err = self.gemm(*args, timeout=SELF_TEST_TIMEOUT_S)
        if gpu_present():
            self.assertEqual(code, EXIT_OK, "out/gemm %s: exit %s:\n%s"
                             % (" ".join(args), code, tail(out + err)))
        else:
            self.assert_no_gpu_error(args, code, out, err)


def require_nvcc():
    if find_nvcc() is None:
        raise unittest.SkipTest("nvcc not found: out/gemm cannot be built")
    if shutil.which("make") is None:
        raise unittest.SkipTest("make not found")


class ProgramWithoutGpu(GemmTestCase):
    """The default build (plain `make`)."""

    @classmethod
    def setUpClass(cls):
        require_nvcc()
        cls.binary = make_binary()

    def test_no_gpu_one_line_exit_3(self):
        if gpu_present():
            self.skipTest("a GPU is present")
        code, out, err = self.gemm()
        self.assert_no_gpu_error([], code, out, err)

    def test_self_test_passes_and_reports_its_checks(self):
        code, out, err = self.gemm("--self-test", timeout=SELF_TEST_TIMEOUT_S)
        self.assertEqual(code, EXIT_OK, "self-test failed:\n" + tail(out + err))
        report = out + err
        self.assertGreater(len(report.strip().splitlines()), 1, "the self-test says nothing:\n" + report)
        for topic, pattern in SELF_TEST_TOPICS:
            self.assertRegex(report, pattern, "the self-test report does not mention %s:\n%s"
                             % (topic, report))

    def test_cuda_error_messages_point_into_gemm_md(self):
        # CHECK_CUDA and CHECK_LAUNCH print __FILE__:__LINE__; through the #line
        # directives __FILE__ is gemm.md.  Without a GPU no CUDA call can fail,
        # so check what the messages are built from: the file names compiled
        # into the binary, and the line of a real CHECK_LAUNCH in gemm.md.
        data = Path(self.binary).read_bytes()
        self.assertTrue(b"\0gemm.md\0" in data, "no __FILE__ of gemm.md in the binary: #line lost?")
        self.assertTrue(b"%s:%d: %s failed: %s" in data, "the CUDA error format string is missing")
        lines = (REPO / "gemm.md").read_text().splitlines()
        self.assertTrue(any("CHECK_LAUNCH();" in line for line in lines),
                        "gemm.md has no CHECK_LAUNCH() after a launch")

    def shapes_file(self, folder, name, text):
        path = os.path.join(folder, name)
        with open(path, "w") as handle:
            handle.write(text)
        return path

    def test_shapes_file_errors_name_the_file_and_line(self):
        """--shapes=FILE is read and checked before the GPU: a bad line gets exit 2 and one line
        naming the file and the line; a missing file exit 6; sizes or --dump beside it exit 2."""
        with tempfile.TemporaryDirectory(prefix="gemm-shapes-") as folder:
            cases = [
                ("bad.txt", "# a comment\n1 2 3\n\n4 5 x\n", EXIT_USAGE, r"bad\.txt, line 4: size 'x'"),
                ("two.txt", "7 11\n", EXIT_USAGE, r"two\.txt, line 1: .*got 2"),
                ("four.txt", "7 11 63 65\n", EXIT_USAGE, r"four\.txt, line 1: .*got 4"),
                ("zero.txt", "1 0 1\n", EXIT_USAGE, r"zero\.txt, line 1: size '0'"),
                ("empty.txt", "# nothing\n\n", EXIT_USAGE, r"holds no M N K line"),
                ("long.txt", "1 2 3" + " " * 300 + "\n", EXIT_USAGE, r"line 1: a line longer than"),
            ]
            for name, text, status, message in cases:
                args = ["--shapes=" + self.shapes_file(folder, name, text)]
                code, out, err = self.gemm(*args)
                self.assertEqual(code, status, "%s: exit %s:\n%s" % (name, code, err))
                self.assert_one_error_line(args, out, err)
                self.assertRegex(err, message)
            good = self.shapes_file(folder, "good.txt", "1 2 3\n300 7 33\n")
            for args, status in ((["--shapes=" + os.path.join(folder, "missing.txt")], EXIT_IO),
                                 (["--shapes=" + good, "16", "16", "16"], EXIT_USAGE),
                                 (["--shapes=" + good, "--dump=" + os.path.join(folder, "x")], EXIT_USAGE)):
                code, out, err = self.gemm(*args)
                self.assertEqual(code, status, "%s: exit %s:\n%s" % (args, code, err))
                self.assert_one_error_line(args, out, err)
            if not gpu_present():   # a good file gets as far as the GPU check
                code, out, err = self.gemm("--shapes=" + good)
                self.assert_no_gpu_error(["--shapes=" + good], code, out, err)

    def test_help_lists_every_flag(self):
        code, out, err = self.gemm("--help")
        self.assertEqual(code, EXIT_OK, tail(out + err))
        self.assertEqual(err, "", "--help wrote to stderr")
        for flag in LONG_FLAGS:
            self.assertRegex(out, re.escape(flag) + r"\b", "--help does not list " + flag)
        for flag in SHORT_FLAGS:
            self.assertRegex(out, r"(^|[\s,\[|(])" + re.escape(flag) + r"\b",
                             "--help does not list " + flag)
        for value in FLAG_VALUES:
            self.assertRegex(out, r"\b" + value + r"\b", "--help does not list the value " + value)
        self.assertRegex(out, r"\bM\b.*\bN\b.*\bK\b", "--help does not show the M N K sizes")

    def test_short_help_is_help(self):
        long_help = self.gemm("--help")
        short_help = self.gemm("-h")
        self.assertEqual(short_help, long_help)

    def test_help_wins_over_sizes(self):
        code, out, _ = self.gemm("--help", "16", "16", "16")
        self.assertEqual(code, EXIT_OK)
        self.assertIn("--self-test", out)

    def test_sizes_too_big_for_any_memory(self):
        """2^30 in each dimension: refused as too large (2), or as memory that
        cannot be had (4); without a GPU the GPU check may come first (3).
        One line in every case, never a crash."""
        args = ["1073741824", "1073741824", "1073741824"]
        code, out, err = self.gemm(*args)
        allowed = {EXIT_USAGE, EXIT_NO_MEMORY} | (set() if gpu_present() else {EXIT_NO_GPU})
        self.assertIn(code, allowed, tail(out + err))
        self.assert_one_error_line(args, out, err)

    def test_dump_into_missing_folder(self):
        with tempfile.TemporaryDirectory(prefix="gemm-dump-") as folder:
            prefix = os.path.join(folder, "no", "such", "folder", "run")
            args = ["--dump=" + prefix, "16", "16", "16"]
            code, out, err = self.gemm(*args)
        if code == EXIT_IO:
            self.assert_one_error_line(args, out, err)
            self.assertIn(os.path.join(folder, "no", "such"), err, "the line does not name the file")
        elif gpu_present():
            self.fail("out/gemm %s: exit %s, expected 6:\n%s" % (" ".join(args), code, tail(out + err)))
        else:
            self.assert_no_gpu_error(args, code, out, err)


def _add_bad(name, args, allowed):
    def test(self):
        self.check_bad_command_line(args, allowed)
    test.__doc__ = "out/gemm " + " ".join(args)
    setattr(ProgramWithoutGpu, "test_rejects_" + name, test)


def _add_good(name, args):
    def test(self):
        self.check_good_command_line(args)
    test.__doc__ = "out/gemm " + " ".join(args)
    setattr(ProgramWithoutGpu, "test_accepts_" + name, test)


for _name, _args, _allowed in BAD_COMMAND_LINES:
    _add_bad(_name, _args, _allowed)
for _name, _args in GOOD_COMMAND_LINES:
    _add_good(_name, _args)


class IntegerBuild(GemmTestCase):
    """An I8_IN_I32_OUT build: alpha and beta must be integers."""

    @classmethod
    def setUpClass(cls):
        require_nvcc()
        cls.tmp = tempfile.TemporaryDirectory(prefix="gemm-i8-")
        target = os.path.join(cls.tmp.name, "gemm")
        try:
            cls.binary = make_binary(target, "BIN=" + target, "TYPE=I8_IN_I32_OUT")
        except BaseException:
            cls.tmp.cleanup()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_fractional_alpha_rejected(self):
        self.check_bad_command_line(["--alpha=1.5", "16", "16", "16"], {EXIT_USAGE})

    def test_fractional_beta_rejected(self):
        self.check_bad_command_line(["-b", "0.5", "16", "16", "16"], {EXIT_USAGE})

    def test_non_numeric_alpha_rejected(self):
        self.check_bad_command_line(["--alpha=two", "16", "16", "16"], {EXIT_USAGE})

    def test_integral_alpha_and_beta_accepted(self):
        self.check_good_command_line(["--alpha=3", "--beta=-2", "16", "16", "16"])

    def test_self_test_passes(self):
        code, out, err = self.gemm("--self-test", timeout=SELF_TEST_TIMEOUT_S)
        self.assertEqual(code, EXIT_OK, "self-test of the I8 build failed:\n" + tail(out + err))


class SelfTestEveryTypePair(GemmTestCase):
    """--self-test checks host code that depends on the type pair and the
    transpositions (conversions, the error bound, the reference's indexing),
    so it runs in a build of every type pair, with the transpositions varied.
    (The default build and the I8 build are covered above.)  A self-test that
    passed only for the default configuration once hid a wrong expectation
    about the F16_IN_OUT bound."""

    CONFIGURATIONS = [
        ("f16_in_f32_out_both_transposed", ["TYPE=F16_IN_F32_OUT", "TRANSPOSE_A=1", "TRANSPOSE_B=1"]),
        ("f16_in_out_32x8x16_a_transposed", ["TYPE=F16_IN_OUT", "MNK=32x8x16", "TRANSPOSE_A=1"]),
        ("u8_8x32x16_b_transposed", ["TYPE=U8_IN_I32_OUT", "MNK=8x32x16", "TRANSPOSE_B=1"]),
        ("bf16_both_transposed", ["TYPE=BF16_IN_F32_OUT", "TRANSPOSE_A=1", "TRANSPOSE_B=1"]),
        ("tf32_b_transposed", ["TYPE=TF32_IN_F32_OUT", "TRANSPOSE_B=1"]),
        ("f64_a_transposed", ["TYPE=F64_IN_OUT", "TRANSPOSE_A=1"]),
    ]

    @classmethod
    def setUpClass(cls):
        require_nvcc()
        cls.tmp = tempfile.TemporaryDirectory(prefix="gemm-types-")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def check_self_test(self, name, variables):
        target = os.path.join(self.tmp.name, name, "gemm")
        self.binary = make_binary(target, "BIN=" + target, "ARCH=90", *variables)
        code, out, err = self.gemm("--self-test", timeout=SELF_TEST_TIMEOUT_S)
        self.assertEqual(code, EXIT_OK, "self-test of %s failed:\n%s" % (" ".join(variables), tail(out + err)))
        self.assertIn("self-test: 0 failed", out)
        self.assertNotIn("FAIL", out)


def _add_self_test(name, variables):
    def test(self):
        self.check_self_test(name, variables)
    test.__name__ = "test_" + name
    setattr(SelfTestEveryTypePair, test.__name__, test)


for _name, _variables in SelfTestEveryTypePair.CONFIGURATIONS:
    _add_self_test(_name, _variables)


if __name__ == "__main__":
    unittest.main()
