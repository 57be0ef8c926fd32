#!/usr/bin/env python3
"""Collect sweep1..5.txt (this folder) into docs/bench/tma-h100.csv.

    python3 docs/bench/variants/h100/tma/to_csv.py

One row per binary: which sweep, the type pair, the variant's name, what it
was (from the name and the sweep; README.txt says more), B as stored (0) or
transposed (1), verification of the three small runs, and the 4096^3 and
8192^3 rates (empty where the run failed, with the program's message in
note). peak_f16 is the fp16 ceiling measured in the same sweep, when there
was one.
"""

import csv
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "..", "tma-h100.csv")
TYPES = {"f16": "F16_IN_F32_OUT", "bf16": "BF16_IN_F32_OUT", "h16": "F16_IN_OUT", "tf32": "TF32_IN_F32_OUT",
         "f64": "F64_IN_OUT", "i8": "I8_IN_I32_OUT"}
# How each sweep's source filled the buffers, by cluster size (see README.txt).
COPIES = {
    1: {"base": "cp.async", 1: "cp.async", 2: "one cp.async.bulk per row, A multicast to the cluster"},
    2: {"base": "cp.async", 1: "copy engine, cluster-scope arrivals and waits",
        2: "copy engine, cluster-scope arrivals and waits, A multicast"},
    3: {"base": "cp.async", 1: "copy engine, cluster-scope arrivals and waits",
        2: "copy engine, cluster-scope arrivals and waits, A multicast"},
    4: {"base": "cp.async", 1: "copy engine", 2: "copy engine, A multicast"},
    5: {"base": "cp.async", 1: "copy engine", 2: "copy engine, A multicast", 4: "copy engine, A multicast"},
}


def describe(sweep, name):
    match = re.match(r"(bf16|f16|h16|tf32|f64|i8)(n32|n8)?(base|[ctf]\d|m)?(.*)$", name)
    prefix, shape, kind, rest = match.groups()
    if kind == "m":
        cluster, parts = 2, ["256 x 128 tile (4 x 2 warps)"]
    elif kind == "base":
        cluster, parts = "base", []
    else:
        cluster, parts = int(kind[1]), []
        if kind[0] == "f":
            parts.append("padding read from memory, 2-D boxes")
    if prefix == "f16" and shape == "n32":
        parts.append("MNK 32x8x16")
    if prefix == "f16" and shape == "n8":
        parts.append("MNK 8x32x16")
    if cluster == 2 and shape and sweep == 1:
        copies = "cp.async (narrow panels: no cluster in this source)"
    else:
        copies = COPIES[sweep][cluster]
    if copies.startswith("cp.async"):
        pass
    elif kind == "m":
        parts.insert(0, "2 blocks per cluster")
    elif cluster != 1:
        parts.insert(0, "%d blocks per cluster" % cluster)
    for flag, text in (("k32", "BLOCK_K 32, 4 stages"), ("s4", "4 stages"), ("s5", "5 stages"),
                       ("ta", "TRANSPOSE_A"), ("f2", "padding read from memory, 2-D boxes")):
        if flag in rest:
            parts.append(text)
    return TYPES[prefix], "; ".join([copies] + parts)


def main():
    rows = []
    for sweep in range(1, 6):
        path = os.path.join(HERE, "sweep%d.txt" % sweep)
        lines = open(path, encoding="utf-8").read().splitlines()
        start = next(line.split()[1] for line in lines if line.startswith("start "))
        peaks = [float(m.group(1)) for m in (re.search(r"^peak f16\S* +rate=([\d.]+)", l) for l in lines) if m]
        peak = "%.1f" % peaks[0] if peaks else ""
        for line in lines:
            fields = [field.strip() for field in line.split("|")]
            if len(fields) != 4:
                continue
            name, tb = fields[0].rsplit("-", 1)
            type_pair, description = describe(sweep, name)
            results = re.findall(r"result=(\w+)", fields[1])
            rates = [re.search(r"rate=([\d.]+)", field) for field in fields[2:]]
            note = re.search(r"gemm: ([^|]*?)(?= gemm: |$)", fields[1])
            rows.append([sweep, start[11:16], type_pair, name + "-" + tb, description, tb,
                         "/".join(results) or "error", rates[0].group(1) if rates[0] else "",
                         rates[1].group(1) if rates[1] else "", peak, note.group(1).strip() if note else ""])
    with open(OUT, "w", newline="", encoding="utf-8") as handle:
        handle.write("# d_gemm copy-engine and cluster variants on an NVIDIA H100 80GB HBM3 (132 SMs, driver "
                     "580.159.04, CUDA 13.0), 2026-11-21, median of 10 runs after 3 warm-ups, each verified at "
                     "1000x777x333, 127x253x61 and 300x520x200 first. From docs/bench/variants/h100/tma/"
                     "sweep*.txt by to_csv.py there; README.txt there says what each sweep's source was. "
                     "Rates in TFLOP/s (TOP/s for int8).\n")
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["sweep", "time_utc", "type", "variant", "description", "transpose_b", "verified",
                         "rate_4096", "rate_8192", "peak_f16", "note"])
        writer.writerows(rows)
    print("wrote", os.path.normpath(OUT), len(rows), "rows")


if __name__ == "__main__":
    main()
