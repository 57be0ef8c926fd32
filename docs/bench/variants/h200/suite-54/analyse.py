"""The suite's CSVs of this folder against issue 40's targets, and the picks that changed since suite-53."""
import csv
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
BYTES = {"F16_IN_F32_OUT": 2, "BF16_IN_F32_OUT": 2, "TF32_IN_F32_OUT": 4, "I8_IN_I32_OUT": 1}


def load(path):
    return [r for r in csv.DictReader(open(path)) if r["kernel"] == "hopper"]


before = {}
for name in ("fp16", "bf16"):
    for r in load(os.path.join(HERE, "..", "suite-53", "suite-h200-%s.csv" % name)):
        before[(r["type"], r["transpose_b"], r["m"], r["n"], r["k"])] = r
for name in ("fp16", "bf16", "tf32", "int8"):
    rows = load(os.path.join(HERE, "suite-h200-%s.csv" % name))
    for tb, layout in (("1", "B transposed"), ("0", "B as stored")):
        rs = [r for r in rows if r["transpose_b"] == tb and r["ratio"]]
        if not rs:
            print("%s %s: not run" % (name, layout))
            continue
        mean = math.exp(sum(math.log(float(r["ratio"])) for r in rs) / len(rs))
        failed = [r for r in rows if r["transpose_b"] == tb and r["result"] != "pass"]
        print("%s %s: %d shapes, geomean %.3f, %d not passed" % (name, layout, len(rs), mean, len(failed)))
        under = ["%sx%sx%s %s%s %.3f" % (r["m"], r["n"], r["k"], r["tile"], " split" if r["split_tiles"] != "0" else "",
                                         float(r["ratio"])) for r in rs if int(r["m"]) >= 16 and float(r["ratio"]) < 0.9]
        print("   under 0.90 (M >= 16): %s" % (", ".join(under) or "none"))
        big = [r for r in rs if int(r["m"]) <= 128 and int(r["n"]) * int(r["k"]) * BYTES[r["type"]] >= 64 << 20]
        print("   M <= 128, B >= 64 MiB: %d shapes, %d at 3.4 TB/s or more; ours %.2f to %.2f, cuBLAS %.2f to %.2f" % (
            len(big), sum(float(r["tbs"]) >= 3.4 for r in big), min(float(r["tbs"]) for r in big),
            max(float(r["tbs"]) for r in big), min(float(r["cublas_tbs"]) for r in big),
            max(float(r["cublas_tbs"]) for r in big)))
        for r in rs:
            if r["m"] == r["n"] == r["k"] and r["m"] in ("4096", "8192"):
                print("   %s^3: %s %s, %.3f of cuBLAS" % (r["m"], r["rate"], r["unit"], float(r["ratio"])))
        for r in rs:
            o = before.get((r["type"], r["transpose_b"], r["m"], r["n"], r["k"]))
            if o and (o["tile"], o["split_tiles"]) != (r["tile"], r["split_tiles"]):
                print("   changed since suite-53: %sx%sx%s %s (%s split) %.3f -> %s (%s split) %.3f, %s TB/s" % (
                    r["m"], r["n"], r["k"], o["tile"], o["split_tiles"], float(o["ratio"]), r["tile"],
                    r["split_tiles"], float(r["ratio"]), r["tbs"]))
