#!/usr/bin/env python3
"""Rewrite the page's rate tables from their records: every table in gemm.md between a marker that names its
command and its end marker, as docs/bench/README.md describes (tests/test_tables.py checks the result).

    <!-- dgemm table: python3 docs/bench/bench.py --dgemm-table docs/bench/h200.csv --steps docs/bench/steps-h200.csv -->
    ...the command's output...
    <!-- end of dgemm table -->

    python3 docs/bench/tables.py [gemm.md]   rewrite the tables in place; print which changed
    python3 docs/bench/tables.py --check     exit 1 if any table is not its command's output

After a new canonical run: change the CSV names in records.py and in the markers, then run this. Standard
library only; writes the file only when a table changed, through a temporary file.
"""

import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MARKER = re.compile(r"^<!-- ([a-z ]+) table: python3 (docs/bench/\w+\.py) (.*) -->$")


def rewritten(lines):
    """(the lines with every marked table replaced by its command's output, [names of the tables that changed])."""
    out, changed, index = [], [], 0
    while index < len(lines):
        match = MARKER.match(lines[index])
        out.append(lines[index])
        if not match:
            index += 1
            continue
        end_marker = "<!-- end of %s table -->" % match.group(1)
        if end_marker not in lines[index:]:
            raise SystemExit("tables.py: line %d opens the %s table but no '%s' follows"
                             % (index + 1, match.group(1), end_marker))
        end = lines.index(end_marker, index)
        result = subprocess.run([sys.executable, match.group(2)] + match.group(3).split(), cwd=ROOT,
                                capture_output=True, text=True, encoding="utf-8")
        if result.returncode != 0:
            raise SystemExit("tables.py: the %s table's command failed: %s" % (match.group(1), result.stderr.strip()))
        table = result.stdout.rstrip("\n").split("\n")
        if [l for l in lines[index + 1:end] if l.strip()] != [l for l in table if l.strip()]:
            changed.append(match.group(1))
        out += table
        index = end
    return out, changed


def main(argv=None):
    parser = argparse.ArgumentParser(description="Rewrite gemm.md's rate tables from their commands.")
    parser.add_argument("page", nargs="?", default=os.path.join(ROOT, "gemm.md"))
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a table is stale")
    args = parser.parse_args(argv)
    with open(args.page, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    out, changed = rewritten(lines)
    for name in changed:
        print("tables.py: the %s table %s" % (name, "is stale" if args.check else "rewritten"))
    if args.check:
        return 1 if changed else 0
    if changed:
        temporary = args.page + ".tmp"
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write("\n".join(out))
        os.replace(temporary, args.page)
    return 0


if __name__ == "__main__":
    sys.exit(main())
