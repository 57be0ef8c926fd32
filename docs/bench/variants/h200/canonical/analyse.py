#!/usr/bin/env python3
"""A suite run against issue 40's targets, and beside another suite run: by default the canonical H200 suite
against the H100's canonical suite (stop 59).

python3 docs/bench/variants/h200/canonical/analyse.py [SUITE OTHER LABEL]   (standard library; by default
SUITE is ../../../suite-h200.csv, OTHER ../../../suite-h100.csv, LABEL H100; ../canonical-2/ passes step 10's
suite, step 9's and "step 9")"""
import os
import sys

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
sys.path[:0] = [BENCH, os.path.join(BENCH, "..", "..", "tests")]
import suite  # noqa: E402

BYTES = {"F16_IN_F32_OUT": 2, "BF16_IN_F32_OUT": 2, "TF32_IN_F32_OUT": 4, "I8_IN_I32_OUT": 1}


def hopper_rows(path):
    return [r for r in suite.read_rows(path) if r["kernel"] == "hopper" and r["ratio"]]


def main(argv):
    path, other, label = argv if argv else (os.path.join(BENCH, "suite-h200.csv"),
                                            os.path.join(BENCH, "suite-h100.csv"), "H100")
    h200 = hopper_rows(path)
    h100 = {(r["type"], r["transpose_b"], r["m"], r["n"], r["k"]): float(r["ratio"]) for r in hopper_rows(other)}
    for type_pair in BYTES:
        for tb, layout in (("1", "B transposed"), ("0", "B as stored")):
            rows = [r for r in h200 if r["type"] == type_pair and r["transpose_b"] == tb]
            ratios = [float(r["ratio"]) for r in rows]
            old = [h100[k] for k in ((r["type"], tb, r["m"], r["n"], r["k"]) for r in rows) if k in h100]
            low = ["%sx%sx%s %.3f" % (r["m"], r["n"], r["k"], float(r["ratio"])) for r in rows
                   if float(r["ratio"]) < 0.90 and int(r["m"]) >= 16]
            memory = [r for r in rows if 16 <= int(r["m"]) <= 128
                      and int(r["n"]) * int(r["k"]) * BYTES[type_pair] >= 64 * 2 ** 20]
            fast = [r for r in memory if float(r["tbs"]) >= 3.4]
            print("%-16s %-13s mean %.3f (%s %.3f) over %d; under 0.90: %s" % (
                type_pair, layout, suite.geometric_mean(ratios), label, suite.geometric_mean(old), len(ratios),
                ", ".join(low) or "none"))
            print("%-30s M <= 128, B >= 64 MiB: %d of %d at 3.4 TB/s or more (ours %.2f to %.2f, cuBLAS %.2f to %.2f)"
                  % ("", len(fast), len(memory), min(float(r["tbs"]) for r in memory),
                     max(float(r["tbs"]) for r in memory), min(float(r["cublas_tbs"] or 0) for r in memory),
                     max(float(r["cublas_tbs"] or 0) for r in memory)))
            squares = ["%s^3 %.3f" % (r["m"], float(r["ratio"])) for r in rows
                       if r["m"] == r["n"] == r["k"] and r["m"] in ("4096", "8192")]
            print("%-30s %s" % ("", ", ".join(squares)))


if __name__ == "__main__":
    if len(sys.argv) not in (1, 4):
        sys.exit("usage: analyse.py [SUITE OTHER LABEL]")
    main(sys.argv[1:])
