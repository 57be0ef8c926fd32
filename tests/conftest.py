"""The suite's last line, as CI reads it: `N passed, N failed` (skips are listed above it by -ra)."""


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
