"""Host-only paths of out/gemm under valgrind (memcheck).

--self-test, --help and the bad command lines of test_program.py run on the
CPU alone and never touch CUDA, so memcheck must find no invalid read or
write, no use of uninitialised memory and no definite leak in them, and the
program must still answer as it does without valgrind.  Skips when valgrind or
nvcc is absent.

tests/valgrind.supp is passed as a suppressions file; see the comment at its
top for why each entry is there (in short: ld.so's strncmp while libcublasLt's
initializers dlopen, before main).  Stacks are recorded 40 frames deep so
that those suppressions can see the libcublasLt frame.

memcheck takes about 13 s just to load cuBLAS, so not every bad command line
of test_program.py runs here: one of each kind of error, each taking its own
path through the parser to its exit.  The self-test itself feeds the parser
many more bad command lines in-process.
"""

import concurrent.futures
import importlib.util
import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
SUPPRESSIONS = HERE / "valgrind.supp"
VALGRIND_TIMEOUT_S = 1800   # memcheck runs the self-test 20-50x slower

# One list of bad command lines for both files: load test_program.py by path
# (not by import, so the test loader does not see its classes twice).
_spec = importlib.util.spec_from_file_location("_gemm_test_program", str(HERE / "test_program.py"))
program = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(program)

VALGRIND_ERROR = 99

# One bad command line of each kind (names from test_program.BAD_COMMAND_LINES).
UNDER_VALGRIND = [
    "non_numeric_size", "absurd_size_1e30", "size_beyond_64_bits",
    "negative_size_after_double_dash", "only_two_sizes", "unknown_long_flag",
    "unknown_short_flag", "missing_option_argument", "argument_to_flag_without_one",
    "bad_verify", "zero_iterations", "empty_beta", "print_with_default_sizes",
    "m_times_n_beyond_64_bits",
]
BAD = [case for case in program.BAD_COMMAND_LINES if case[0] in UNDER_VALGRIND]
assert len(BAD) == len(UNDER_VALGRIND), "UNDER_VALGRIND names a case test_program.py lacks"


def valgrind_command(log_file):
    command = ["valgrind", "-q", "--num-callers=40", "--error-exitcode=%d" % VALGRIND_ERROR,
               "--leak-check=full",
               "--errors-for-leak-kinds=definite", "--show-leak-kinds=definite",
               "--track-origins=yes", "--log-file=" + log_file]
    if SUPPRESSIONS.is_file():
        command.append("--suppressions=" + str(SUPPRESSIONS))
    return command


class HostPathsUnderValgrind(unittest.TestCase):

    results = {}

    @classmethod
    def setUpClass(cls):
        if shutil.which("valgrind") is None:
            raise unittest.SkipTest("valgrind not found")
        program.require_nvcc()
        cls.binary = program.make_binary()
        cls.tmp = tempfile.TemporaryDirectory(prefix="gemm-valgrind-")
        jobs = [("self_test", ["--self-test"], {program.EXIT_OK}),
                ("help", ["--help"], {program.EXIT_OK})]
        jobs += BAD

        def one_run(job):
            name, args, allowed = job
            log_file = os.path.join(cls.tmp.name, name + ".log")
            cwd = os.path.join(cls.tmp.name, name + ".cwd")
            os.mkdir(cwd)
            command = valgrind_command(log_file) + [str(cls.binary)] + args
            code, out, err = program.run(command, timeout=VALGRIND_TIMEOUT_S, cwd=cwd)
            try:
                with open(log_file, errors="replace") as handle:
                    log = handle.read()
            except OSError:
                log = "(no valgrind log)"
            return name, (args, allowed, code, out, err, log)

        workers = max(1, os.cpu_count() or 1)
        with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
            cls.results = dict(pool.map(one_run, jobs))

    @classmethod
    def tearDownClass(cls):
        if hasattr(cls, "tmp"):
            cls.tmp.cleanup()

    def check_clean(self, name, one_line_error):
        args, allowed, code, out, err, log = self.results[name]
        shown = "valgrind out/gemm %s" % " ".join(args)
        self.assertIsNotNone(code, shown + " hung")
        self.assertNotEqual(code, VALGRIND_ERROR, "%s: memcheck errors:\n%s" % (shown, program.tail(log, 80)))
        self.assertIn(code, allowed, "%s: exit %s, expected %s\n%s\n%s"
                      % (shown, code, sorted(allowed), program.tail(out + err), program.tail(log)))
        self.assertNotRegex(log, r"(?i)invalid (read|write)|uninitialised|definitely lost",
                            shown + ":\n" + program.tail(log, 80))
        if one_line_error:
            lines = err.splitlines()
            self.assertEqual(len(lines), 1, "%s: stderr is not one line:\n%s" % (shown, err))
            self.assertTrue(lines[0].startswith("gemm: "), lines[0])

    def test_self_test_is_clean(self):
        self.check_clean("self_test", one_line_error=False)

    def test_help_is_clean(self):
        self.check_clean("help", one_line_error=False)


def _add(name):
    def test(self):
        self.check_clean(name, one_line_error=True)
    test.__doc__ = "valgrind: out/gemm " + name
    setattr(HostPathsUnderValgrind, "test_rejects_%s_cleanly" % name, test)


for _name, _args, _allowed in BAD:
    _add(_name)


if __name__ == "__main__":
    unittest.main()
