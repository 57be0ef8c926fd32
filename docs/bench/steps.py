#!/usr/bin/env python3
"""make steps: measure the tutorial's steps of d_gemm and write docs/bench/steps-<gpu>.csv (+ .svg).

It builds, through the Makefile and with STEPS=1, out/cfg/<TYPE>_<MNK>_ta0_tb<B>_steps/gemm (the
binaries make gpu-test builds for its steps rows, so a build made there is reused) for

  F16_IN_F32_OUT   TRANSPOSE_B=0 and 1
  BF16_IN_F32_OUT, TF32_IN_F32_OUT, I8_IN_I32_OUT, F64_IN_OUT   TRANSPOSE_B=0

each with its default WMMA shape and TRANSPOSE_A=0, in parallel (--jobs), then runs, one process
on the GPU at a time:

  --peak                                             once per binary
  --kernel=naive, step1 .. step7 (step7 --cublas)    M=N=K in --sizes (default 8192, 4096)
  --kernel=hopper1 .. hopper10                       the same sizes, on a GPU of compute capability 9.0
                                                     (d_gemm_hopper's steps; --no-hopper leaves them out)

all with --format=kv --iterations=10 --warmup=3.  Every binary's 8192³ runs come before any 4096³
run, so a run cut short by --budget still has the page's table.  Verification as make bench does
it: --verify=gpu at 4096 and 8192, except the naive kernel and F64_IN_OUT at 8192, which run with
--verify=off (the GPU reference is slow there); the CSV's verify and result columns say which
rows were verified.  --budget stops starting new builds and runs, so the CSV and the table are
always written.

One CSV row per measurement (after a first comment line: what, GPU, date, command): GPU, clocks,
driver, CUDA, date, configuration, kernel (naive, step1 .. step7, cublas, peak) and step, median
and min time, rate, % of the WMMA ceiling, of cuBLAS and of the previous step (step1: of naive),
the tile the step ran.  At the end it prints the page's table and draws the SVG (matplotlib, if
it can be imported): rate per step at 8192³, one line per type pair and layout of B.

  --table CSV   prints the Markdown table of "What each step bought" from the CSV alone
                (exit 1, and no table, if a row of the CSV failed verification)
  --hopper-table CSV   the same for the steps of d_gemm_hopper (its part's "Step by step")
  --plot CSV    redraws the SVG from the CSV alone

The processes, the GPU and CUDA queries and the budget are docs/bench/bench.py's (class Bench).
Standard library only (matplotlib for the plot).

Usage: python3 docs/bench/steps.py [--types T,T] [--sizes 8192,4096] [--budget 520] [--csv PATH]
       python3 docs/bench/steps.py --table docs/bench/steps-h100.csv
"""

import argparse
import concurrent.futures
import csv
import os
import re
import shlex
import signal
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import bench  # noqa: E402  make bench's driver: processes, budget, GPU queries, and gpu_test's parse_kv
from bench import first_line, gpu_slug, parse_kv, to_float  # noqa: E402

TYPE_PAIRS = ("F16_IN_F32_OUT", "BF16_IN_F32_OUT", "TF32_IN_F32_OUT", "I8_IN_I32_OUT", "F64_IN_OUT")
TRANSPOSE_B = {"F16_IN_F32_OUT": (0, 1)}          # the other type pairs: B as stored only
LAST_STEP = bench.LAST_STEP   # d_gemm's last step, --kernel=fast
KERNELS = ("naive",) + tuple("step%d" % step for step in range(1, LAST_STEP + 1))
HOPPER_STEPS = bench.HOPPER_STEPS   # d_gemm_hopper's last step, --kernel=hopper
HOPPER_KERNELS = tuple("hopper%d" % step for step in range(1, HOPPER_STEPS + 1))   # d_gemm_hopper's steps
KERNEL_ORDER = ("peak",) + KERNELS + ("cublas",) + HOPPER_KERNELS
TABLE_SIZE = 8192
GOOD_RESULTS = ("pass", "off", "ok")
MINUS = "\u2212"
MISSING = "\u2014"

STEP_TEXT = {   # the "what it adds" column of the page's table
    "naive": "one warp per output fragment, operands from global memory",
    "step1": "block tiles in shared memory, one fragment per warp",
    "step2": "warp tiles of several fragments",
    "step3": "cp.async into several buffers, two barriers per buffer",
    "step4": "slab rows padded against bank conflicts",
    "step5": "the TMA; A shared by clusters of two (sm_90)",
    "step6": "blocks in groups of 8 rows, for L2",
    "step7": "the epilogue stores whole rows: d_gemm",
}
HOPPER_TEXT = {   # the "what it adds" column of the Hopper part's table
    "step7": "d_gemm, the WMMA kernel (cuBLAS timed in its run)",
    "hopper1": "wgmma on swizzled slabs (f64: mma.sync m16n8k16); one warpgroup copies and multiplies",
    "hopper2": "a producer warpgroup copies, one consumer multiplies",
    "hopper3": "two consumer warpgroups",
    "hopper4": "one wgmma group left in flight",
    "hopper5": "clusters of two along M share B's slabs",
    "hopper6": "a persistent grid",
    "hopper7": "a short last round split along K",
    "hopper8": "too few tiles for the GPU: every one split along K",
    "hopper9": "tiles chosen by shape: 64 rows for small M",
    "hopper10": "C stored through shared memory, whole rows: d_gemm_hopper",
}
HOPPER_ROWS = (("step7", "d_gemm"),) + tuple(("hopper%d" % s, str(s)) for s in range(1, HOPPER_STEPS + 1)) + (
    ("cublas", "cuBLAS"), ("hopper-peak", "ceiling"))
TABLE_ROWS = (("naive", "naive"),) + tuple(("step%d" % s, str(s)) for s in range(1, LAST_STEP + 1)) + (
    ("cublas", "cuBLAS"), ("peak", "WMMA ceiling"))
TABLE_COLUMNS = (   # header, type pair, TRANSPOSE_B settings shown as "a / b"
    ("fp16 (B as stored / transposed)", "F16_IN_F32_OUT", (0, 1)),
    ("bf16", "BF16_IN_F32_OUT", (0,)),
    ("tf32", "TF32_IN_F32_OUT", (0,)),
    ("int8", "I8_IN_I32_OUT", (0,)),
    ("f64", "F64_IN_OUT", (0,)),
)
GAIN_CONFIG = ("F16_IN_F32_OUT", 0)   # the "fp16 gain" column: pct_of_previous_step of fp16, B as stored
SHORT_NAMES = {"F16_IN_F32_OUT": "fp16", "F16_IN_OUT": "fp16 (half accumulators)", "BF16_IN_F32_OUT": "bf16",
               "TF32_IN_F32_OUT": "tf32", "I8_IN_I32_OUT": "int8", "U8_IN_I32_OUT": "uint8", "F64_IN_OUT": "f64"}

FIELDS = ("gpu", "cc", "sms", "clock_sm_mhz", "clock_max_sm_mhz", "clock_mem_mhz", "driver", "cuda", "date",
          "type", "mnk", "transpose_a", "transpose_b", "m", "n", "k", "kernel", "step", "median_ms", "min_ms",
          "rate", "unit", "result", "verify", "pct_of_peak", "pct_of_cublas", "pct_of_previous_step",
          "iterations", "warmup", "tile", "warps", "stages", "cluster", "shared_bytes", "copy_path",
          "failures", "max_err", "note", "hopper_peak")
KV_COPIED = ("median_ms", "min_ms", "rate", "unit", "failures", "max_err")
KV_TILE = ("tile", "warps", "stages", "cluster", "shared_bytes", "copy_path")


def default_shape(type_pair):
    return bench.SHAPES[type_pair][0]


def step_of(kernel):
    """'naive' -> 0, 'step3' -> 3, 'hopper2' -> 2, 'cublas' and 'peak' -> ''."""
    if kernel == "naive":
        return 0
    for prefix in ("step", "hopper"):
        if kernel.startswith(prefix) and kernel[len(prefix):].isdigit():
            return int(kernel[len(prefix):])
    return ""


def previous_kernel(kernel):
    """The kernel a step is measured against: step1 -> naive, hopper1 -> step7 (d_gemm), hopper3 -> hopper2."""
    step = step_of(kernel)
    if kernel.startswith("hopper") and step:
        return "hopper%d" % (step - 1) if step > 1 else "step%d" % LAST_STEP
    return KERNELS[step - 1] if step else None


def read_kv(stdout):
    """parse_kv's pairs, with the quoted GPU name read whole (parse_kv splits at its spaces)."""
    kv = parse_kv(stdout) or {}
    quoted = re.search(r'\bgpu="([^"]*)"', stdout or "")
    if quoted:
        kv["gpu"] = quoted.group(1)
    return kv


# ------------------------------------------------------------------ the CSV, read back
read_csv = bench.read_rows   # the rows of a steps CSV; lines that start with '#' are comments


def config_label(type_pair, transpose_b, with_layout=True):
    name = SHORT_NAMES.get(type_pair, type_pair)
    if not with_layout:
        return name
    return "%s, B %s" % (name, "transposed" if str(transpose_b) == "1" else "as stored")


def rows_at(rows, size):
    """{(type, transpose_b, kernel): row} for M=N=K=size (any size for peak), default shapes only."""
    found = {}
    for row in rows:
        if row.get("type") not in bench.SHAPES or row.get("mnk") != default_shape(row["type"]):
            continue
        square = str(row.get("m")) == str(row.get("n")) == str(row.get("k")) == str(size)
        if row.get("kernel") != "peak" and not square:
            continue
        found[(row["type"], str(row.get("transpose_b", "")), row.get("kernel"))] = row
    return found


def usable_rate(row):
    if not row or row.get("result") not in GOOD_RESULTS:
        return None
    return to_float(row.get("rate"))


# ------------------------------------------------------------------ the page's table
def failed_rows(rows):
    return ["%s %s TRANSPOSE_B=%s %s at %sx%sx%s" % (r.get("type"), r.get("mnk"), r.get("transpose_b"), r.get("kernel"),
                                                    r.get("m"), r.get("n"), r.get("k"))
            for r in rows if r.get("result") == "fail"]


def rate_cell(found, type_pair, layouts, kernel, best=None):
    if kernel in ("peak", "hopper-peak"):   # one ceiling per type pair: the highest any --peak run measured
        peak = (best or {}).get((type_pair, kernel))
        return "%.1f" % peak if peak else MISSING
    texts = []
    for tb in layouts:
        rate = usable_rate(found.get((type_pair, str(tb), kernel)))
        texts.append("%.1f" % rate if rate is not None else MISSING)
    return " / ".join(texts)


def gain_text(pct_of_previous):
    """'123.4' or 123.4 (percent of the step before) -> '+23%'; '96.0' -> '−4%' (Unicode minus)."""
    value = to_float(pct_of_previous)
    if value is None:
        return MISSING
    gain = int(round(value - 100.0))
    if gain == 0:
        return "0%"
    return ("+%d%%" % gain) if gain > 0 else ("%s%d%%" % (MINUS, -gain))


def table_lines(rows, size=TABLE_SIZE, table_rows=TABLE_ROWS, texts=STEP_TEXT, steps="step", bench_rows=()):
    """The Markdown table of "What each step bought", from the CSV's rows; with HOPPER_ROWS, HOPPER_TEXT
    and steps="hopper", the Hopper part's. The gain column is for the kernels named steps + a number. The
    ceilings are the highest of the CSV's --peak rows and those of bench_rows (make bench of the same session)."""
    found = rows_at(rows, size)
    best = bench.ceilings(rows, bench_rows)
    headers = ["step", "what it adds"] + [column[0] for column in TABLE_COLUMNS] + ["fp16 gain"]
    lines = ["| " + " | ".join(headers) + " |", "|---|---|" + "---:|" * (len(TABLE_COLUMNS) + 1)]
    for kernel, label in table_rows:
        cells = [label, texts.get(kernel, "")]
        cells += [rate_cell(found, type_pair, layouts, kernel, best) for _, type_pair, layouts in TABLE_COLUMNS]
        gain = ""
        if kernel.startswith(steps) and step_of(kernel) != "":
            row = found.get((GAIN_CONFIG[0], str(GAIN_CONFIG[1]), kernel))
            before = found.get((GAIN_CONFIG[0], str(GAIN_CONFIG[1]), previous_kernel(kernel)))
            rate, before_rate = usable_rate(row), usable_rate(before)
            if rate is not None and before_rate:   # from the rates, as each step's "3.05× step 1's" is
                gain = gain_text(100.0 * rate / before_rate)
            else:
                gain = gain_text(row.get("pct_of_previous_step") if rate is not None else None)
        cells.append(gain)
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def hopper_table_lines(rows, size=TABLE_SIZE, bench_rows=()):
    """The Markdown table of the Hopper part's steps: d_gemm, hopper1 .. hopper10, cuBLAS, the ceiling."""
    return table_lines(rows, size, HOPPER_ROWS, HOPPER_TEXT, "hopper", bench_rows)


def print_table(csv_path, lines_of=table_lines, bench_path=None):
    """steps.py --table: the table on stdout, or a message on stderr and exit 1 if a row failed; bench_path:
    make bench's CSV of the same session, whose --peak rows count towards the ceilings."""
    try:
        rows = read_csv(csv_path)
        bench_rows = read_csv(bench_path) if bench_path else []
    except OSError as error:
        print("steps: cannot read %s: %s" % (csv_path, error), file=sys.stderr)
        return 2
    failed = failed_rows(rows)
    if failed:
        print("steps: %s has %d row(s) that failed verification; no table from it:" % (csv_path, len(failed)),
              file=sys.stderr)
        for text in failed:
            print("  " + text, file=sys.stderr)
        return 1
    for line in lines_of(rows, bench_rows=bench_rows):
        print(line)
    return 0


# ------------------------------------------------------------------ the figure
def series(rows, size):
    """[(type, transpose_b, [(x, rate, verified)], cublas point or None, unit)] at M=N=K=size."""
    found = rows_at(rows, size)
    configs = []
    for row in rows:
        key = (row.get("type"), str(row.get("transpose_b", "")))
        if row.get("kernel") in KERNELS and key not in configs:
            configs.append(key)
    result = []
    for type_pair, tb in configs:
        points = []
        for x, kernel in enumerate(KERNELS):
            row = found.get((type_pair, tb, kernel))
            if (usable_rate(row) or 0) > 0:   # a log scale: no zeros
                points.append((x, usable_rate(row), row.get("verify") != "off"))
        cublas = usable_rate(found.get((type_pair, tb, "cublas"))) or None
        unit = next((r.get("unit") for r in rows if r.get("type") == type_pair and r.get("unit")), "")
        if points or cublas:
            result.append((type_pair, tb, points, cublas, unit))
    return result


def unit_label(lines):
    units = {}
    for type_pair, _, _, _, unit in lines:
        units.setdefault(unit or "?", [])
        if SHORT_NAMES.get(type_pair, type_pair) not in units[unit or "?"]:
            units[unit or "?"].append(SHORT_NAMES.get(type_pair, type_pair))
    if len(units) == 1:
        return next(iter(units))
    main = max(units, key=lambda u: len(units[u]))
    others = ["%s for %s" % (u, ", ".join(names)) for u, names in units.items() if u != main]
    return "%s; %s" % (main, "; ".join(others))


def plot(csv_path, svg_path, size=TABLE_SIZE):
    """Rate per step at size³, one line per configuration, cuBLAS as a star; log-scale y."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    matplotlib.rcParams["svg.hashsalt"] = "gemm-steps"   # stable ids: diffs only when the data change
    matplotlib.rcParams["svg.fonttype"] = "none"
    rows = read_csv(csv_path)
    lines = series(rows, size)
    if not lines:
        raise ValueError("no rows at %d x %d x %d" % (size, size, size))
    from plot import TEXT_PT, WIDTH_IN, save_themed   # the page's column width, its smallest text, dark variant
    figure, axis = plt.subplots(figsize=(WIDTH_IN, 7.4))
    multi_layout = len(set(t for t, _, _, _, _ in lines)) < len(lines)
    for index, (type_pair, tb, points, cublas, _) in enumerate(lines):
        colour = "C%d" % (index % 10)
        label = config_label(type_pair, tb, multi_layout and type_pair in TRANSPOSE_B)
        style = "--" if tb == "1" else "-"
        rates = dict((p[0], p[1]) for p in points)   # a missing step leaves a gap in the line
        axis.plot(range(len(KERNELS)), [rates.get(x, float("nan")) for x in range(len(KERNELS))], style,
                  color=colour, marker="o", markersize=5, linewidth=1.6, label=label)
        hollow = [p for p in points if not p[2]]
        if hollow:
            axis.plot([p[0] for p in hollow], [p[1] for p in hollow], linestyle="none", marker="o", markersize=5,
                      color=colour, markerfacecolor="white")
        if cublas:   # side by side, so that equal rates do not hide each other
            axis.plot([len(KERNELS) + 0.1 * (index - (len(lines) - 1) / 2)], [cublas], linestyle="none", marker="*",
                      markersize=11, color=colour)
    axis.set_yscale("log")
    axis.yaxis.set_major_locator(matplotlib.ticker.LogLocator(subs=(1.0, 2.0, 5.0)))
    axis.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda value, _: "%g" % value))
    axis.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    axis.set_xticks(range(len(KERNELS) + 1))
    axis.set_xticklabels(["naive"] + ["step %d" % s for s in range(1, LAST_STEP + 1)] + ["cuBLAS"])
    axis.tick_params(labelsize=TEXT_PT)
    axis.set_xlim(-0.4, len(KERNELS) + 0.4)
    axis.set_xlabel("kernel (each step adds one change to the one before; step 7 is d_gemm)", fontsize=TEXT_PT)
    axis.set_ylabel("rate at M = N = K = %d, log scale (%s)" % (size, unit_label(lines)), fontsize=TEXT_PT)
    axis.grid(True, which="both", linewidth=0.3, alpha=0.6)
    first = rows[0]
    details = [d for d in ("CUDA %s" % first.get("cuda") if first.get("cuda") else "",
                           "driver %s" % first.get("driver") if first.get("driver") else "",
                           (first.get("date") or "")[:10]) if d]
    gpu = (first.get("gpu") or "an unknown GPU").replace("_", " ")
    axis.set_title("What each step of d_gemm bought\non %s%s" % (gpu, " (%s)" % ", ".join(details) if details else ""),
                   fontsize=11)   # two lines: one was wider than the axes, off-centre and at the figure's edge
    axis.plot([], [], linestyle="none", marker="*", markersize=11, color="black", label="cuBLAS (same run as step 7)")
    axis.plot([], [], linestyle="none", marker="o", markersize=5, color="black", markerfacecolor="white",
              label="not verified (--verify=off)")
    # under the axes at the left, where a phone shows it before the figure is scrolled sideways, and off the lines
    axis.legend(fontsize=TEXT_PT, loc="upper left", bbox_to_anchor=(-0.08, -0.13), borderaxespad=0, frameon=False)
    figure.tight_layout()
    save_themed(figure, svg_path)
    plt.close(figure)
    return svg_path


def draw(csv_path, svg_path):
    """plot(), with the reason in words when it cannot: (exit status, message)."""
    try:
        plot(csv_path, svg_path)
    except ImportError as error:
        return 3, "no plot: matplotlib cannot be imported (%s); the CSV is the result" % error
    except (OSError, ValueError, KeyError) as error:
        return 1, "no plot from %s: %s" % (csv_path, error)
    return 0, "svg: %s" % shown_path(svg_path)


def shown_path(path):
    """path relative to the repository when it is inside it."""
    relative = os.path.relpath(os.path.abspath(path), ROOT)
    return path if relative.startswith("..") else relative


# ------------------------------------------------------------------ the measurement
class Steps(bench.Bench):
    """make bench's Bench (processes, budget, GPU queries), running the steps instead of fast."""

    def build(self, config):
        type_pair, mnk, tb = config
        name = "%s_%s_ta0_tb%d_steps" % config
        binary = os.path.join("out", "cfg", name, "gemm")
        path = os.path.join(self.root, binary)
        if self.args.no_build:
            if not os.access(path, os.X_OK):
                self.problem("build %s: --no-build and no binary at %s" % (name, binary))
                return None
            return path
        os.makedirs(os.path.dirname(path), exist_ok=True)
        argv = ["make", "-s", "BIN=%s" % binary, "TYPE=%s" % type_pair, "MNK=%s" % mnk, "TRANSPOSE_A=0",
                "TRANSPOSE_B=%d" % tb, "STEPS=1"] + self.args.make_arg
        rc, stdout, stderr, _ = self.execute(argv, bench.TIMEOUT_BUILD * 2)   # STEPS=1: seven kernels per tile
        with open(os.path.join(self.args.out, "build_%s.log" % name), "w") as handle:
            handle.write("$ %s\nrc=%s\n%s\n%s" % (" ".join(argv), rc, stdout, stderr))
        if rc != 0 or not os.access(path, os.X_OK):
            errors = [line for line in stderr.splitlines() if "error" in line.lower()]
            self.problem("build %s failed (rc %s): %s" % (name, rc, errors[0][:160] if errors else first_line(stderr)))
            return None
        return path

    def base_row(self, config, kv):
        row = dict((field, "") for field in FIELDS)
        row.update(self.info)
        row.update({"type": config[0], "mnk": config[1], "transpose_a": 0, "transpose_b": config[2],
                    "iterations": self.args.iterations, "warmup": self.args.warmup})
        for key in ("sms", "cc"):
            if kv.get(key):
                self.info[key] = row[key] = bench.compute_capability(kv[key]) if key == "cc" else kv[key]
        if kv.get("gpu") and not self.info["gpu"]:
            self.info["gpu"] = row["gpu"] = kv["gpu"]
        return row

    def peak(self, config, binary):
        rc, stdout, stderr, _ = self.execute([binary, "--peak", "--format=kv"], bench.TIMEOUT_RUN)
        if rc is None:
            return
        kv = read_kv(stdout)
        self.last_clock = self.sample_sm_clock()
        row = self.base_row(config, kv)
        hopper_peak = kv.get("hopper_rate", "")
        row.update({"kernel": "peak", "rate": kv.get("rate", ""), "unit": kv.get("unit", ""), "verify": "off",
                    "hopper_peak": hopper_peak if to_float(hopper_peak) else "",
                    "result": "ok" if rc == 0 and to_float(kv.get("rate")) else "error",
                    "clock_sm_mhz": self.last_clock, "iterations": "", "warmup": ""})
        if row["result"] != "ok":
            row["note"] = "exit %s: %s" % (rc, first_line(stderr))
            self.problem("%s tb%d --peak: %s" % (config[0], config[2], row["note"]))
        self.add_row(row)

    def measure(self, config, binary, kernel, size):
        """One run of one kernel; step7 adds --cublas, and with it the cublas row."""
        verify = self.verify_mode(config, kernel, size)
        cublas = kernel == "step%d" % LAST_STEP and not self.args.no_cublas
        argv = [binary, "--kernel=%s" % kernel, "--format=kv", "--iterations=%d" % self.args.iterations,
                "--warmup=%d" % self.args.warmup, "--verify=%s" % verify] + (["--cublas"] if cublas else [])
        rc, stdout, stderr, _ = self.execute(argv + [str(size)] * 3, bench.TIMEOUT_RUN)
        if rc is None:
            return
        kv = read_kv(stdout)
        if cublas or not self.last_clock:
            self.last_clock = self.sample_sm_clock()   # nvidia-smi is slow: once per configuration and size
        row = self.base_row(config, kv)
        row.update(dict((key, kv.get(key, "")) for key in KV_COPIED + (KV_TILE if kernel != "naive" else ())))
        row.update({"m": size, "n": size, "k": size, "kernel": kernel, "step": step_of(kernel),
                    "verify": kv.get("verify", verify), "clock_sm_mhz": self.last_clock,
                    "result": kv.get("result", "") if rc == 0 else "fail" if rc == 1 else "error"})
        if verify == "off":
            row["note"] = "not verified at this size (--verify=off for speed)"
        if rc == 1 and kv:
            row["note"] = "failed verification: %s failures, max_err %s, bound %s" % (
                kv.get("failures"), kv.get("max_err"), kv.get("bound"))
        elif rc != 0 or not kv:
            row["note"] = "exit %s: %s" % (rc, first_line(stderr) or "no kv line")
        if rc != 0 or not kv:
            self.problem("%s tb%d %s %d: %s" % (config[0], config[2], kernel, size, row["note"]))
        self.add_row(row)
        if cublas and rc in (0, 1):
            self.add_row(self.cublas_row(config, kv, size))

    def cublas_row(self, config, kv, size):
        row = self.base_row(config, kv)
        rate = kv.get("cublas_rate", "")
        row.update({"m": size, "n": size, "k": size, "kernel": "cublas", "unit": kv.get("unit", ""),
                    "median_ms": kv.get("cublas_median_ms", ""), "rate": rate, "clock_sm_mhz": self.last_clock,
                    "verify": "off", "result": "ok" if to_float(rate) else "na",
                    "note": "timed in the same run as step%d; not verified by gemm" % LAST_STEP})
        if to_float(rate) is None:
            row["rate"] = row["median_ms"] = ""
            row["note"] = "cuBLAS has no equivalent for this type pair" if rate == "na" else "no cublas_rate"
        return row

    # -------------------------------------------------------------- derived columns, output
    def derive(self):
        peaks, rates = {}, {}
        for row in self.rows:
            for key, value in self.info.items():   # rows written before the first kv line lack cc, sms
                if not row.get(key) and key != "clock_sm_mhz":
                    row[key] = value
            rate = to_float(row["rate"])
            if rate is None:
                continue
            if row["kernel"] == "peak":
                peaks[(row["type"], row["mnk"], str(row["transpose_b"]))] = rate
            else:
                rates[(row["type"], row["mnk"], str(row["transpose_b"]), str(row["m"]), row["kernel"])] = rate
        for row in self.rows:
            rate = to_float(row["rate"])
            if rate is None or row["kernel"] == "peak":
                row["pct_of_peak"] = "100.0" if row["kernel"] == "peak" and rate else ""
                continue
            config = (row["type"], row["mnk"], str(row["transpose_b"]))
            peak = peaks.get(config)
            row["pct_of_peak"] = "%.1f" % (100.0 * rate / peak) if peak else ""
            if row["kernel"] == "cublas":
                continue
            reference = rates.get(config + (str(row["m"]), "cublas"))
            row["pct_of_cublas"] = "%.1f" % (100.0 * rate / reference) if reference else ""
            before = previous_kernel(row["kernel"])
            previous = rates.get(config + (str(row["m"]), before)) if before else None
            row["pct_of_previous_step"] = "%.1f" % (100.0 * rate / previous) if previous else ""

    def sorted_rows(self):
        def key(row):
            return (TYPE_PAIRS.index(row["type"]) if row["type"] in TYPE_PAIRS else 99, str(row["transpose_b"]),
                    row["kernel"] != "peak", -int(row["m"] or 0), KERNEL_ORDER.index(row["kernel"]))
        return sorted(self.rows, key=key)

    def comment(self):
        info = self.info
        return ("# steps.py: the steps of d_gemm (naive, step1 .. step7; hopper1 .. hopper10 on 9.0 GPUs), cuBLAS "
                "and the ceilings on %s "
                "(cc %s, %s SMs), driver %s, CUDA %s, %s; command: %s" % (
                    info["gpu"] or "an unknown GPU", info["cc"] or "?", info["sms"] or "?", info["driver"] or "?",
                    info["cuda"] or "?", info["date"], self.args.command))

    def write_csv(self):
        with self.lock:
            self.derive()
            rows = self.sorted_rows()
        os.makedirs(os.path.dirname(self.csv_path), exist_ok=True)
        temporary = self.csv_path + ".tmp"
        with open(temporary, "w", newline="", encoding="utf-8") as handle:
            handle.write(self.comment() + "\n")
            writer = csv.DictWriter(handle, fieldnames=FIELDS, lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
        os.replace(temporary, self.csv_path)

    # -------------------------------------------------------------- main
    def configs(self):
        return [(t, default_shape(t), tb) for t in self.args.types for tb in TRANSPOSE_B.get(t, (0,))]

    def prepare(self):
        """Logs, GPU and CUDA versions, the CSV's path, a fresh out/gemm.cu: False if it cannot tangle."""
        os.makedirs(self.args.out, exist_ok=True)
        self.log_file = open(os.path.join(self.args.out, "steps-log.txt"), "w")
        self.query_gpu()
        self.query_cuda()
        self.csv_path = self.args.csv or os.path.join(HERE, "steps-%s.csv" % gpu_slug(self.info["gpu"] or "gpu"))
        self.say("steps: %s, driver %s, CUDA %s; %d binaries, sizes %s; budget %ds; csv %s" % (
            self.info["gpu"] or "unknown GPU", self.info["driver"] or "?", self.info["cuda"] or "?",
            len(self.configs()), ",".join(map(str, self.args.sizes)), self.args.budget,
            shown_path(self.csv_path)))
        if self.args.no_build:
            return True
        rc, _, stderr, _ = self.execute(["make", "-s", "out/gemm.cu"], 120)
        if rc != 0:
            self.say("steps: cannot tangle gemm.md: %s" % first_line(stderr))
        return rc == 0

    def measure_all(self, pool):
        """Builds in parallel; runs one at a time: every binary at the first size, then the next size."""
        futures = dict((pool.submit(self.build, config), config) for config in self.configs())
        binaries = {}
        for future in concurrent.futures.as_completed(futures):   # the first size as the builds finish
            config = futures[future]
            binaries[config] = future.result()
            if binaries[config]:
                self.peak(config, binaries[config])
                self.measure_size(config, binaries[config], self.args.sizes[0])
        for size in self.args.sizes[1:]:
            for config in self.configs():
                if binaries.get(config):
                    self.measure_size(config, binaries[config], size)

    def kernels(self):
        """The kernels to run: --kernels, with d_gemm_hopper's steps only on a 9.0 GPU (and not --no-hopper)."""
        hopper = bench.compute_capability(self.info.get("cc")) == "9.0" and not self.args.no_hopper
        return [k for k in KERNELS + (HOPPER_KERNELS if hopper else ()) if k in self.args.kernels]

    def measure_size(self, config, binary, size):
        if time.monotonic() > self.deadline:
            return
        for kernel in self.kernels():
            self.measure(config, binary, kernel, size)
        self.write_csv()
        self.say("  [%4.0fs] %s tb%d %d done" % (time.monotonic() - self.start, config[0], config[2], size))

    def report(self, interrupted):
        skipped = time.monotonic() > self.deadline
        lines = ["", "== steps: %s (cc %s, %s SMs), CUDA %s, driver %s, %s; rates at %d³ ==" % (
            self.info["gpu"], self.info["cc"], self.info["sms"], self.info["cuda"], self.info["driver"],
            self.info["date"], TABLE_SIZE)]
        rows = self.sorted_rows()
        lines += table_lines(rows)
        lines += ["failed verification: " + text for text in failed_rows(rows)]
        if skipped:
            lines.append("budget of %ds reached: later builds and runs were not started" % self.args.budget)
        if interrupted:
            lines.append("interrupted: the CSV holds what was measured")
        if self.problems:
            lines += ["problems (%d):" % len(self.problems)] + ["  " + p for p in self.problems[:20]]
        lines.append("csv: %s (%d rows); log: %s" % (shown_path(self.csv_path), len(self.rows),
                                                     shown_path(self.log_file.name)))
        if not self.args.no_plot and self.rows:
            lines.append(draw(self.csv_path, self.args.svg or os.path.splitext(self.csv_path)[0] + ".svg")[1])
        for line in lines:
            self.say(line)
        return 0 if self.rows and not (self.problems or interrupted or skipped or failed_rows(rows)) else 1

    def run(self):
        if not self.prepare():
            return 1
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, self.args.jobs))
        interrupted = False
        try:
            self.measure_all(pool)
        except KeyboardInterrupt:
            interrupted = True
            self.say("steps: interrupted; writing what was measured")
            self.abort()
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
        self.write_csv()
        status = self.report(interrupted)
        self.log_file.close()
        return status


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        description="Measure the steps of d_gemm (naive, step1 .. step7, cuBLAS, the WMMA ceiling) and write "
                    "docs/bench/steps-<gpu>.csv and .svg; or, with --table or --plot, read such a CSV.")
    parser.add_argument("--table", metavar="CSV", help="print the page's Markdown table from CSV and exit")
    parser.add_argument("--hopper-table", metavar="CSV", help="print the Hopper part's steps table from CSV and exit")
    parser.add_argument("--bench", metavar="CSV", help="with a table: make bench's CSV of the same session, whose "
                        "--peak rows count towards the ceilings (the highest stands)")
    parser.add_argument("--plot", metavar="CSV", help="draw the SVG from CSV (-o, or the CSV's name with .svg), exit")
    parser.add_argument("-o", "--svg", default=None, help="output SVG (default: the CSV's name with .svg)")
    parser.add_argument("--types", default=",".join(TYPE_PAIRS),
                        help="comma-separated type pairs (F16_IN_F32_OUT: B as stored and transposed; others: stored)")
    parser.add_argument("--sizes", default="8192,4096", help="M=N=K values, comma-separated, run in this order")
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--verify-8192", choices=("default", "all", "none"), default="default",
                        help="at 8192: default: --verify=off for naive and F64_IN_OUT, gpu for the rest; all; none")
    parser.add_argument("--no-cublas", action="store_true", help="run step7 without --cublas")
    parser.add_argument("--kernels", default=",".join(KERNELS + HOPPER_KERNELS),
                        help="comma-separated kernels to run (default: all; hopper1 .. hopper10 run on 9.0 GPUs only)")
    parser.add_argument("--no-hopper", action="store_true", help="leave out d_gemm_hopper's steps on a 9.0 GPU")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 4, help="parallel builds")
    parser.add_argument("--budget", type=int, default=520, help="seconds after which no new build or run starts")
    parser.add_argument("--csv", default=None, help="output CSV (default docs/bench/steps-<gpu>.csv, e.g. h100)")
    parser.add_argument("--no-plot", action="store_true")
    parser.add_argument("--no-build", action="store_true", help="use the binaries already in out/cfg/")
    parser.add_argument("--make-arg", action="append", default=[], help="extra make argument, e.g. ARCH=90 (repeat it)")
    parser.add_argument("--out", default=None, help="log directory (default out/bench)")
    parser.add_argument("--root", default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.types = [t.strip() for t in args.types.split(",") if t.strip()]
    args.kernels = [k.strip() for k in args.kernels.split(",") if k.strip()]
    if not args.kernels or any(k not in KERNELS + HOPPER_KERNELS for k in args.kernels):
        parser.error("--kernels: choose from %s" % ",".join(KERNELS + HOPPER_KERNELS))
    if not args.types or any(t not in bench.SHAPES for t in args.types):
        parser.error("--types: choose from %s" % ",".join(bench.SHAPES))
    try:
        args.sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    except ValueError:
        parser.error("--sizes takes comma-separated integers")
    if not args.sizes or min(args.sizes) <= 0 or args.iterations <= 0 or args.warmup < 0:
        parser.error("bad --sizes, --iterations or --warmup")
    args.root = os.path.abspath(args.root)
    args.out = os.path.abspath(args.out or os.path.join(args.root, "out", "bench"))
    args.csv = os.path.abspath(args.csv) if args.csv else None
    args.command = " ".join(["python3", "docs/bench/steps.py"] + [shlex.quote(a) for a in (argv or [])])
    return args


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args = parse_arguments(argv)
    if args.table:
        return print_table(args.table, bench_path=args.bench)
    if args.hopper_table:
        return print_table(args.hopper_table, hopper_table_lines, args.bench)
    if args.plot:
        status, message = draw(args.plot, args.svg or os.path.splitext(args.plot)[0] + ".svg")
        print("steps: " + message, file=sys.stderr if status else sys.stdout)
        return status

    def on_signal(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, on_signal)
    return Steps(args).run()


if __name__ == "__main__":
    sys.exit(main())
