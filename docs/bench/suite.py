#!/usr/bin/env python3
"""make suite: d_gemm_hopper and d_gemm against cuBLAS on the shapes people run (issue 32).

Square sizes flatter a kernel with large tiles; the layers of a language model are skinny (a few to a
few hundred tokens against weight matrices of thousands), and small or ragged problems are common. The
suite below is those shapes. For each type pair and layout of B it runs, one process at a time:

  --kernel=hopper --cublas --shapes=FILE   d_gemm_hopper and cuBLAS, timed in the same process
  --kernel=fast --shapes=FILE              d_gemm, to show where the WMMA kernel is the better choice

with --format=kv --iterations=20 --warmup=3 --verify=gpu --cold-l2, one kv line per shape, into
docs/bench/suite-<gpu>.csv (one row per kernel and shape; cuBLAS rows from the hopper runs). B
transposed is how torch.nn.Linear stores a weight (N x K): the suite's targets are stated for it.
--cold-l2 (the default; --warm-l2 leaves it out) evicts the L2 cache before each timed run of both
d_gemm_hopper and cuBLAS, since a model reads its weights from memory at every step; the CSV records
it, the cuBLAS version and the GPU's clocks (nvidia-smi, sampled after each build's runs).

  python3 docs/bench/suite.py --list            the plan, one run a line (no GPU needed)
  python3 docs/bench/suite.py [--types all]     measure (default: fp16, bf16, tf32, int8)
  python3 docs/bench/suite.py --table CSV       the page's tables: d_gemm_hopper / cuBLAS per shape, and
                                                TB/s for M below 512
  python3 docs/bench/suite.py --plot CSV SVG    the figure (matplotlib)

Below M = 512 a product is bound by reading B once from memory, not by the tensor cores, so for those
shapes the CSV and the second table also give TB/s: the bytes of A, B and C, each once, over the median
time, to judge against the GPU's memory bandwidth (3.35 TB/s on the H100 SXM, NVIDIA's datasheet).

The shapes of the model layers are public configurations: Llama 3 8B (hidden 4096, MLP 14336, eight
key-value heads of 128: 1024) and Llama 3 70B (hidden 8192, MLP 28672). Standard library only, but
matplotlib for --plot.
"""

import argparse
import csv
import datetime
import math
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, HERE)
from gpu_test import parse_kv  # noqa: E402  the program's kv line, read as make gpu-test reads it
from bench import TYPE_PAIRS, SHAPES, gpu_slug, to_float, first_line  # noqa: E402

# (group, M, N, K, what it is). Skinny: M tokens through one layer, N x K its weight.
LAYERS = (
    ("8B attention out", 4096, 4096),
    ("8B q, k, v", 6144, 4096),
    ("8B MLP up", 14336, 4096),
    ("8B MLP down", 4096, 14336),
    ("70B attention out", 8192, 8192),
    ("70B MLP down", 8192, 28672),
)
TOKENS = (16, 32, 64, 128, 256)
SUITE = tuple(("skinny", m, n, k, layer) for layer, n, k in LAYERS for m in TOKENS) + (
    ("square", 256, 256, 256, ""),
    ("square", 512, 512, 512, ""),
    ("square", 1024, 1024, 1024, ""),
    ("square", 2048, 2048, 2048, ""),
    ("ragged", 1000, 1000, 1000, ""),
    ("ragged", 1537, 2049, 1025, ""),
    ("ragged", 777, 1000, 4096, ""),
    ("ragged", 5000, 5000, 5000, ""),
    ("large K", 1024, 1024, 32768, ""),
    ("large K", 2048, 2048, 16384, ""),
    ("large K", 4096, 4096, 16384, ""),
    ("prefill", 4096, 6144, 4096, "8B q, k, v"),
    ("prefill", 4096, 14336, 4096, "8B MLP up"),
    ("prefill", 8192, 4096, 14336, "8B MLP down"),
    ("prefill", 16384, 4096, 4096, "8B attention out"),
    ("square", 4096, 4096, 4096, ""),
    ("square", 8192, 8192, 8192, ""),
)
TARGET_TYPES = ("F16_IN_F32_OUT", "BF16_IN_F32_OUT", "TF32_IN_F32_OUT", "I8_IN_I32_OUT")
LAYOUTS = (1, 0)           # TRANSPOSE_B: as nn.Linear stores it first
KERNELS = ("hopper", "fast")
TARGET_MEAN, TARGET_FLOOR, FLOOR_FROM_M = 1.00, 0.90, 64   # issue 32: geometric mean, worst with M >= 64
MEMORY_BOUND_BELOW_M = 512   # below it, judge in TB/s: reading B once bounds the time
# Bytes of one element of A and B, and of C, per type pair (the table of type pairs in gemm.md).
ELEMENT_BYTES = {"F16_IN_F32_OUT": (2, 4), "F16_IN_OUT": (2, 2), "U8_IN_I32_OUT": (1, 4), "I8_IN_I32_OUT": (1, 4),
                 "BF16_IN_F32_OUT": (2, 4), "TF32_IN_F32_OUT": (4, 4), "F64_IN_OUT": (8, 8)}
FIELDS = ("gpu", "cc", "sms", "clock_sm_mhz", "clock_max_sm_mhz", "clock_mem_mhz", "driver", "cuda",
          "cublas_version", "cold_l2", "date", "type", "transpose_a", "transpose_b", "group", "layer",
          "m", "n", "k", "kernel", "median_ms", "min_ms", "rate", "unit", "result", "verify", "tile", "split_tiles",
          "cublas_rate", "ratio", "tbs", "cublas_tbs", "note")
TIMEOUT_RUN = 900
TIMEOUT_BUILD = 400


def plan(types, layouts=LAYOUTS, kernels=KERNELS):
    """Every run of the suite: (type pair, TRANSPOSE_B, kernel, (group, M, N, K, layer))."""
    return [(type_pair, tb, kernel, shape) for type_pair in types for tb in layouts for kernel in kernels
            for shape in SUITE]


def config_name(type_pair, tb):
    """The out/cfg directory bench.py and gpu_test.py use for this build, so a build is shared."""
    return "%s_%s_ta0_tb%d" % (type_pair, SHAPES[type_pair][0], tb)


def geometric_mean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def memory_bytes(type_pair, m, n, k):
    """The bytes a product must move at least: A, B and C, each once."""
    operand, result = ELEMENT_BYTES[type_pair]
    return operand * (m * k + n * k) + result * m * n


def terabytes_per_second(type_pair, m, n, k, rate):
    """TB/s of a run at `rate` TFLOP/s (TOP/s): its memory_bytes over its time, 2 m n k / rate."""
    return memory_bytes(type_pair, m, n, k) * rate / (2.0 * m * n * k)


def read_rows(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(line for line in handle if not line.startswith("#")))


def ratios(rows, tb="1"):
    """{type pair: [(shape key, d_gemm_hopper / cuBLAS)]} for B layout `tb`; a row that failed
    verification or did not run stops it (SystemExit naming the row)."""
    out = {}
    for row in rows:
        if row["kernel"] != "hopper" or str(row["transpose_b"]) != tb:
            continue
        if row["result"] != "pass":
            raise SystemExit("suite.py: %s B%s %sx%sx%s: d_gemm_hopper result %r, not pass"
                             % (row["type"], tb, row["m"], row["n"], row["k"], row["result"]))
        rate, cublas = to_float(row["rate"]), to_float(row["cublas_rate"])
        if rate and cublas:
            out.setdefault(row["type"], []).append(((int(row["m"]), int(row["n"]), int(row["k"])), rate / cublas))
    return out


def summary(rows, tb="1"):
    """{type pair: (geometric mean, (worst ratio with M >= 64, its shape), shapes)} and whether the targets hold."""
    result, met = {}, True
    for type_pair, pairs in ratios(rows, tb).items():
        mean = geometric_mean([r for _, r in pairs])
        floor = min(((r, s) for s, r in pairs if s[0] >= FLOOR_FROM_M), default=(None, None))
        result[type_pair] = (mean, floor, len(pairs))
        if type_pair in TARGET_TYPES:
            met &= mean >= TARGET_MEAN and (floor[0] is None or floor[0] >= TARGET_FLOOR)
    return result, met


def shape_rows(types, cells, below_m=None):
    """A Markdown table with one row per shape of the suite (M below `below_m` only, if given) and one
    column per type pair; cells[(type pair, (m, n, k))] is a cell's text, "—" where there is none."""
    lines = ["| M × N × K | layer | " + " | ".join(types) + " |", "|---|---|" + "---:|" * len(types)]
    for group, m, n, k, layer in SUITE:
        if below_m is None or m < below_m:
            row = [cells.get((t, (m, n, k)), "—") for t in types]
            lines.append("| %d × %d × %d | %s | %s |" % (m, n, k, layer or group, " | ".join(row)))
    return lines


def table(path, tb="1"):
    """The page's table: one row per shape, d_gemm_hopper / cuBLAS per type pair, then the geometric mean
    and the worst with M >= 64."""
    rows = read_rows(path)
    by_type = ratios(rows, tb)
    types = [t for t in TYPE_PAIRS if t in by_type]
    lines = shape_rows(types, {(t, s): "%.2f" % r for t in types for s, r in by_type[t]})
    stats, _ = summary(rows, tb)
    lines.append("| geometric mean | | " + " | ".join("%.2f" % stats[t][0] for t in types) + " |")
    lines.append("| worst, M ≥ %d | | " % FLOOR_FROM_M +
                 " | ".join("%.2f" % stats[t][1][0] if stats[t][1][0] else "—" for t in types) + " |")
    return lines


def bandwidth_table(path, tb="1"):
    """The shapes with M below MEMORY_BOUND_BELOW_M, in TB/s: d_gemm_hopper / cuBLAS per type pair."""
    rows = [r for r in read_rows(path) if r["kernel"] == "hopper" and str(r["transpose_b"]) == tb]
    by_type = ratios(rows, tb)   # a row that failed verification stops this table too
    cells = {}
    for r in rows:
        m, n, k = int(r["m"]), int(r["n"]), int(r["k"])
        rate, cublas = to_float(r["rate"]), to_float(r["cublas_rate"])
        if rate and cublas:
            cells[(r["type"], (m, n, k))] = "%.2f / %.2f" % (terabytes_per_second(r["type"], m, n, k, rate),
                                                             terabytes_per_second(r["type"], m, n, k, cublas))
    return shape_rows([t for t in TYPE_PAIRS if t in by_type], cells, MEMORY_BOUND_BELOW_M)


def plot(path, svg, tb="1"):
    try:
        import matplotlib
    except ImportError:
        raise SystemExit("suite.py: the figure needs matplotlib (pip install matplotlib)")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    by_type = ratios(read_rows(path), tb)
    labels = ["%d×%d×%d" % (m, n, k) for _, m, n, k, _ in SUITE]
    figure, axes = plt.subplots(figsize=(12, 4.5))
    for type_pair, pairs in by_type.items():
        lookup = dict(pairs)
        xs = [i for i, (_, m, n, k, _) in enumerate(SUITE) if (m, n, k) in lookup]
        axes.plot(xs, [lookup[SUITE[i][1:4]] for i in xs], "o", label=type_pair, markersize=4)
    axes.axhline(1.0, color="gray", linewidth=0.8)
    axes.axhline(TARGET_FLOOR, color="gray", linewidth=0.8, linestyle=":")
    axes.set_yscale("log", base=2)
    axes.set_ylabel("d_gemm_hopper / cuBLAS")
    axes.set_xticks(range(len(labels)))
    axes.set_xticklabels(labels, rotation=90, fontsize=7)
    axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(svg)


class Suite:
    def __init__(self, args):
        self.args = args
        self.rows, self.problems = [], []
        self.info = {"gpu": "", "cc": "", "sms": "", "clock_sm_mhz": "", "clock_max_sm_mhz": "", "clock_mem_mhz": "",
                     "driver": "", "cuda": "", "cublas_version": "",
                     "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
        self.start = time.monotonic()

    def execute(self, argv, timeout):
        try:
            done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
            return done.returncode, done.stdout, done.stderr
        except subprocess.TimeoutExpired:
            return "timeout", "", "timed out after %ds" % timeout
        except OSError as error:
            return "error", "", str(error)

    def sample_gpu(self):
        """The driver and the clocks now, from nvidia-smi (left empty without it)."""
        smi = shutil.which("nvidia-smi")
        if not smi:
            return
        rc, stdout, _ = self.execute([smi, "--query-gpu=clocks.sm,clocks.max.sm,clocks.mem,driver_version",
                                      "--format=csv,noheader,nounits"], 30)
        values = [v.strip() for v in stdout.splitlines()[0].split(",")] if rc == 0 and stdout.strip() else []
        if len(values) == 4:
            for key, value in zip(("clock_sm_mhz", "clock_max_sm_mhz", "clock_mem_mhz", "driver"), values):
                self.info[key] = value

    def build(self, type_pair, tb):
        binary = os.path.join("out", "cfg", config_name(type_pair, tb), "gemm")
        if not self.args.no_build:
            rc, _, stderr = self.execute(["make", "-s", "BIN=%s" % binary, "TYPE=%s" % type_pair,
                                          "TRANSPOSE_A=0", "TRANSPOSE_B=%d" % tb] + self.args.make_arg, TIMEOUT_BUILD)
            if rc != 0:
                self.problems.append("build %s: %s" % (config_name(type_pair, tb), first_line(stderr)))
                return None
        return binary if os.access(os.path.join(ROOT, binary), os.X_OK) else None

    def measure(self, type_pair, tb, kernel, binary, shapes_file):
        argv = [binary, "--kernel=%s" % kernel, "--format=kv", "--iterations=%d" % self.args.iterations,
                "--warmup=3", "--verify=gpu", "--shapes=%s" % shapes_file] + (["--cublas"] if kernel == "hopper" else []) + (
                [] if self.args.warm_l2 else ["--cold-l2"])
        rc, stdout, stderr = self.execute(argv, TIMEOUT_RUN)
        lines = [kv for kv in (parse_kv(line) for line in stdout.splitlines() if line.strip()) if kv]
        for index, (group, m, n, k, layer) in enumerate(SUITE):
            kv = lines[index] if index < len(lines) else {}
            for key in ("gpu", "cc", "sms", "cublas_version"):
                self.info[key] = self.info[key] or kv.get(key, "")
            row = dict((f, "") for f in FIELDS)
            row.update(self.info)
            row.update({"type": type_pair, "transpose_a": 0, "transpose_b": tb, "group": group, "layer": layer,
                        "m": m, "n": n, "k": k, "kernel": kernel})
            for key in ("median_ms", "min_ms", "rate", "unit", "result", "verify", "tile", "split_tiles", "cold_l2"):
                row[key] = kv.get(key, "")
            if to_float(kv.get("rate")):
                row["tbs"] = "%.3f" % terabytes_per_second(type_pair, m, n, k, to_float(kv["rate"]))
            if not kv:
                row["result"], row["note"] = "error", "no kv line (exit %s: %s)" % (rc, first_line(stderr))
            self.rows.append(row)
            if kernel == "hopper" and to_float(kv.get("cublas_rate")):
                row["cublas_rate"] = kv["cublas_rate"]
                row["ratio"] = "%.3f" % (to_float(kv["rate"]) / to_float(kv["cublas_rate"]))
                row["cublas_tbs"] = "%.3f" % terabytes_per_second(type_pair, m, n, k, to_float(kv["cublas_rate"]))
        if rc not in (0,):
            self.problems.append("%s B%d --kernel=%s: exit %s: %s" % (type_pair, tb, kernel, rc, first_line(stderr)))

    def run(self):
        args = self.args
        out = os.path.join(ROOT, "out", "suite")
        os.makedirs(out, exist_ok=True)
        shapes_file = os.path.join(out, "shapes.txt")
        with open(shapes_file, "w") as handle:
            handle.write("# docs/bench/suite.py: M N K\n" + "".join("%d %d %d\n" % s[1:4] for s in SUITE))
        self.sample_gpu()
        for type_pair in args.types:
            for tb in LAYOUTS:
                if time.monotonic() - self.start > args.budget:
                    self.problems.append("budget of %ds used up before %s B%d" % (args.budget, type_pair, tb))
                    continue
                binary = self.build(type_pair, tb)
                if binary is None:
                    continue
                for kernel in KERNELS:
                    self.measure(type_pair, tb, kernel, binary, shapes_file)
                self.sample_gpu()
                self.write(args.csv)
                print("  [%4.0fs] %s B%d done" % (time.monotonic() - self.start, type_pair, tb), flush=True)
        self.write(args.csv)
        for tb in ("1", "0"):
            try:
                stats, met = summary(self.rows, tb)
            except SystemExit as stop:
                print(stop)
                continue
            print("B %s:" % ("transposed" if tb == "1" else "as stored"))
            for type_pair, (mean, (worst, shape), count) in stats.items():
                print("  %-16s geometric mean %.3f over %d shapes; worst with M >= %d: %s" % (
                    type_pair, mean, count, FLOOR_FROM_M, "%.3f at %dx%dx%d" % ((worst,) + shape) if worst else "-"))
            if tb == "1":   # the targets are stated for B as nn.Linear stores it
                print("  targets (mean >= %.2f, worst >= %.2f) %s" % (TARGET_MEAN, TARGET_FLOOR,
                                                                     "met" if met else "NOT met"))
        if self.rows:
            svg = os.path.splitext(args.csv)[0] + ".svg"
            try:
                plot(args.csv, svg)
                print("svg: %s" % os.path.relpath(svg, ROOT))
            except SystemExit as stop:   # the CSV is the result; the figure can be drawn later
                print("  ! no figure: %s" % stop)
        for problem in self.problems:
            print("  ! " + problem)
        print("csv: %s (%d rows), %.0fs" % (os.path.relpath(args.csv, ROOT), len(self.rows), time.monotonic() - self.start))
        return 0 if not self.problems and all(r["result"] == "pass" for r in self.rows) else 1

    def write(self, path):
        temporary = path + ".tmp"
        with open(temporary, "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=FIELDS)
            writer.writeheader()
            for row in self.rows:
                writer.writerow(row)
        os.replace(temporary, path)


def main(argv=None):
    parser = argparse.ArgumentParser(description="d_gemm_hopper and d_gemm against cuBLAS on a suite of shapes.")
    parser.add_argument("--types", default=",".join(TARGET_TYPES), help="comma-separated type pairs, or all")
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--budget", type=int, default=1500, help="seconds after which no new build starts")
    parser.add_argument("--csv", default=None, help="output (default docs/bench/suite-<gpu>.csv)")
    parser.add_argument("--make-arg", action="append", default=[], help="extra make argument, e.g. ARCH=90a")
    parser.add_argument("--no-build", action="store_true", help="use the binaries already in out/cfg/")
    parser.add_argument("--warm-l2", action="store_true", help="leave the L2 cache as the last run left it")
    parser.add_argument("--list", action="store_true", help="print the plan, one run a line, and run nothing")
    parser.add_argument("--table", metavar="CSV", help="print the page's table from a suite CSV")
    parser.add_argument("--plot", nargs=2, metavar=("CSV", "SVG"), help="draw the figure from a suite CSV")
    args = parser.parse_args(argv)
    args.types = list(TYPE_PAIRS) if args.types == "all" else [t.strip() for t in args.types.split(",") if t.strip()]
    if not args.types or any(t not in TYPE_PAIRS for t in args.types):
        parser.error("--types: all, or from %s" % ",".join(TYPE_PAIRS))
    if args.table:
        print("\n".join(table(args.table)))
        print("\nTB/s (A, B and C each once), d_gemm_hopper / cuBLAS, M below %d:\n" % MEMORY_BOUND_BELOW_M)
        print("\n".join(bandwidth_table(args.table)))
        return 0
    if args.plot:
        plot(*args.plot)
        return 0
    if args.list:
        for type_pair, tb, kernel, (group, m, n, k, layer) in plan(args.types):
            print("%s TRANSPOSE_A=0 TRANSPOSE_B=%d --kernel=%s %d %d %d %s" % (type_pair, tb, kernel, m, n, k,
                                                                           group + (": " + layer if layer else "")))
        return 0
    if args.csv is None:
        smi = shutil.which("nvidia-smi")
        rc = subprocess.run([smi, "--query-gpu=name", "--format=csv,noheader"], capture_output=True,
                            text=True) if smi else None
        name = rc.stdout.strip().splitlines()[0] if rc is not None and rc.returncode == 0 and rc.stdout.strip() else "gpu"
        args.csv = os.path.join(HERE, "suite-%s.csv" % gpu_slug(name))
    args.csv = os.path.abspath(args.csv)
    return Suite(args).run()


if __name__ == "__main__":
    sys.exit(main())
