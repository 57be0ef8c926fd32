#!/usr/bin/env python3
"""Collect sweep0..4 (this folder) into docs/bench/stages-h100.csv.

    python3 docs/bench/variants/h100/stages/to_csv.py

One row per binary and sweep: the sweep, its start time, the type pair, the
variant's name, B as stored (0) or transposed (1), the three verification
results, and the 4096^3 and 8192^3 rates (empty where a run failed or the
binary was missing, with a note).
"""

import csv
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "..", "stages-h100.csv")
LOGS = ["sweep0.txt", "sweep1-fragments.txt", "sweep2.txt", "sweep3.txt", "sweep4-sm80-jit.txt"]
TYPES = {"f16": "F16_IN_F32_OUT", "bf16": "BF16_IN_F32_OUT", "h16": "F16_IN_OUT", "tf32": "TF32_IN_F32_OUT",
         "f64": "F64_IN_OUT", "i8": "I8_IN_I32_OUT"}


def main():
    rows = []
    for number, log in enumerate(LOGS):
        start = ""
        for line in open(os.path.join(HERE, log)):
            line = line.strip()
            if line.startswith("start "):
                start = line.split()[1]
                continue
            name = line.split()[0] if line else ""
            stem = re.match(r"(bf16|f16|h16|tf32|f64|i8)\S*-[01]$", name)
            if not stem:
                continue
            row = {"sweep": number, "start": start, "type": TYPES[stem.group(1)], "variant": name,
                   "transpose_b": name.rsplit("-", 1)[1], "verified": "", "rate_4096": "", "rate_8192": "",
                   "note": ""}
            if line.endswith("missing"):
                row["note"] = "no binary: did not compile"
            else:
                parts = [p.strip() for p in line.split("|")]
                row["verified"] = " ".join(r.split("=")[1] for r in parts[1].split())
                for size, part in (("4096", parts[2]), ("8192", parts[3])):
                    found = re.search(r"rate=([0-9.]+)", part)
                    if found:
                        row["rate_" + size] = found.group(1)
                    else:
                        row["note"] += part
            rows.append(row)
    with open(OUT, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    print("%s: %d rows" % (os.path.relpath(OUT), len(rows)))


if __name__ == "__main__":
    main()
