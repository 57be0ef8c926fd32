"""The suite's last line, as CI reads it: `N passed, N failed` (skips are listed above it by -ra).

And whether out/gemm.cu was what gemm.md tangles to when the run began: tests that run make regenerate it,
so test_tangle.py's check of the committed file reads this verdict, taken before any test runs (the
controller sets it before xdist starts its workers, which inherit it)."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def pytest_configure(config):
    if hasattr(config, "workerinput") or "GEMM_CU_CHECK_AT_START" in os.environ:
        return
    if os.path.exists(os.path.join(ROOT, "gemm.md")) and os.path.exists(os.path.join(ROOT, "tangle.py")):
        result = subprocess.run([sys.executable, "tangle.py", "--check"], cwd=ROOT, capture_output=True, text=True,
                                timeout=120)
        os.environ["GEMM_CU_CHECK_AT_START"] = "%d %s" % (result.returncode, result.stderr.strip())


def pytest_unconfigure(config):
    if hasattr(config, "workerinput"):   # an xdist worker: the controller counts
        return
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return
    stats = reporter.stats
    passed = len([r for r in stats.get("passed", []) if getattr(r, "when", "call") == "call"])
    failed = len(stats.get("failed", [])) + len(stats.get("error", []))
    reporter.write_line("%d passed, %d failed" % (passed, failed))
