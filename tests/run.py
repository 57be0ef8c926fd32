#!/usr/bin/env python3
"""Run the test suite (what `make test` runs).

    python3 tests/run.py [--list] [PATTERN ...]

Finds the unittest tests in tests/test_*.py and runs them, from the
repository root whatever the current directory, with the root and tests/
on sys.path (so tests can `import tangle` and their own helpers).  PATTERN
keeps only the tests whose id (module.Class.test_name) contains it, or
matches it when it has shell wildcards (* ? [).  --list prints the ids of
the selected tests and runs nothing.

Output: one line per test as it finishes,

    ok     test_tangle.CheckTest.test_repo_is_up_to_date
    FAIL   test_tangle.MapTest.test_lines  (AssertionError: 3 != 4)
    ERROR  test_tangle.WriteTest.test_mode  (OSError: ...)
    skip   test_tangle.PandocTest.test_gemm_md  (pandoc is not installed)

then the full report of every failure and error, then a line `N skipped`,
and last a line that is exactly `N passed, N failed` (errors count as
failed).  The exit status is 1 when anything failed or when the patterns
select no test, 130 when interrupted, else 0.  What a test prints is held
back and shown only in the report of a test that fails.
"""

import fnmatch
import os
import sys
import traceback
import unittest

TESTS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(TESTS)


def iterate(suite):
    """The test cases of a (nested) suite, in order."""
    for item in suite:
        if isinstance(item, unittest.TestSuite):
            yield from iterate(item)
        else:
            yield item


def test_name(test):
    """module.Class.test for a test; the module for one that failed to import."""
    if type(test).__name__ == "_FailedTest":           # unittest's stand-in
        return test._testMethodName
    return test.id()


def selected(name, patterns):
    if not patterns:
        return True
    for pattern in patterns:
        if any(char in pattern for char in "*?["):
            if fnmatch.fnmatchcase(name, pattern):
                return True
        elif pattern in name:
            return True
    return False


def summary(err, limit=100):
    """An exception's type and the first line of its message, shortened."""
    lines = traceback.format_exception_only(err[0], err[1])
    line = lines[-1].strip().splitlines()[0].strip() if lines else ""
    return line if len(line) <= limit else line[:limit - 3] + "..."


class LineResult(unittest.TestResult):
    """Prints one line per outcome and counts them."""

    def __init__(self, stream):
        super().__init__()
        self.stream = stream            # kept: sys.stdout is swapped while buffering
        self.buffer = True
        # (TestResult already has lists called failures, errors, skipped.)
        self.count_passed = 0
        self.count_failed = 0
        self.count_skipped = 0
        self.reports = []               # (heading, text) for failures and errors

    def line(self, status, test, note=None):
        name = test_name(test) if isinstance(test, unittest.TestCase) else str(test)
        text = f"{status:<5}  {name}"
        if note:
            text += f"  ({note})"
        print(text, file=self.stream, flush=True)

    def addSuccess(self, test):
        super().addSuccess(test)
        self.count_passed += 1
        self.line("ok", test)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.record("FAIL", test, err, self.failures[-1][1])

    def addError(self, test, err):
        super().addError(test, err)
        self.record("ERROR", test, err, self.errors[-1][1])

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            failed = issubclass(err[0], test.failureException)
            self.record("FAIL" if failed else "ERROR", subtest, err,
                        (self.failures if failed else self.errors)[-1][1])

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.count_skipped += 1
        self.line("skip", test, reason)

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.count_passed += 1
        self.line("ok", test, "expected failure")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.count_failed += 1
        self.line("FAIL", test, "unexpected success")
        self.reports.append((f"FAIL: {test_name(test)}", "passed, but is marked expectedFailure"))

    def record(self, status, test, err, text):
        self.count_failed += 1
        self.line(status, test, summary(err))
        name = test_name(test) if isinstance(test, unittest.TestCase) else str(test)
        self.reports.append((f"{status}: {name}", text))   # text holds the captured output
        self._mirrorOutput = False      # so unittest does not print it here as well


def main(argv):
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    listing = bool(argv) and argv[0] == "--list"
    patterns = argv[1:] if listing else argv

    os.chdir(ROOT)
    for path in (TESTS, ROOT):
        if path not in sys.path:
            sys.path.insert(0, path)

    discovered = unittest.TestLoader().discover(TESTS, pattern="test_*.py", top_level_dir=TESTS)
    tests = [test for test in iterate(discovered) if selected(test_name(test), patterns)]
    if listing:
        for test in tests:
            print(test_name(test))
        return 0

    result = LineResult(sys.stdout)
    interrupted = False
    try:
        unittest.TestSuite(tests).run(result)
    except KeyboardInterrupt:
        interrupted = True
        print("run.py: interrupted; the counts below are of the tests that finished",
              file=sys.stderr)

    for heading, text in result.reports:
        print("\n" + "=" * 70)
        print(heading)
        print("-" * 70)
        print(text.rstrip())
    if result.reports:
        print()
    if patterns and not tests:
        print(f"run.py: no test matches {' '.join(patterns)}", file=sys.stderr)
    print(f"{result.count_skipped} skipped")
    print(f"{result.count_passed} passed, {result.count_failed} failed")
    if interrupted:
        return 130
    return 1 if result.count_failed or (patterns and not tests) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
