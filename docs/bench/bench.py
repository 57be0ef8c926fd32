#!/usr/bin/env python3
"""make bench: measure out/gemm on this GPU and write docs/bench/<gpu>.csv (+ .svg).

For each type pair (its default WMMA shape; --shapes=all for every shape) and
both TRANSPOSE_B settings it builds out/cfg/<TYPE>_<MNK>_ta0_tb<B>/gemm through
the Makefile (the same binaries tests/gpu_test.py builds, so a build made there
is reused), then runs, one process at a time:

  --peak                                   once per type pair and shape
  --kernel=fast --cublas   M=N=K in --sizes (default 1024 2048 4096 8192 5000)
  --kernel=naive           same sizes (--naive-max to cut the largest)
  --kernel=hopper          same sizes, on a GPU of compute capability 9.0, every type pair
                           (d_gemm_hopper; its %cuBLAS is against the cuBLAS timed in fast's
                           run, so each size has one cuBLAS rate; --no-hopper leaves it out)

all with --format=kv --iterations=10 --warmup=3.  --tiers adds, at 4096 and 8192,
the fast kernel with the tiles of smaller GPUs (--shared-limit=163K, 99K, 64K;
the CSV's variant column) and the cp.async path: a build with ARCH=compute_80,
whose PTX the driver compiles for this GPU (variant cp.async).  Verification: --verify=auto
up to 2048, gpu above; at 8192 the naive kernel and F64_IN_OUT run with
--verify=off (the GPU reference is slow there; --verify-8192=all to verify
them too); the CSV's verify and result columns say which rows were verified.

One CSV row per measurement: GPU, clocks, driver, CUDA, date, configuration,
kernel (fast|naive|cublas|peak), median and min time, rate, % of the WMMA
ceiling (peak) and % of cuBLAS.  At the end it prints a compact table and
calls docs/bench/plot.py for the SVG.  --budget stops starting new runs so the
table is always printed.  Standard library only (matplotlib for the plot).

Usage: python3 docs/bench/bench.py [--types T,T] [--sizes 4096,8192] [--csv PATH]
"""

import argparse
import concurrent.futures
import csv
import datetime
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from gpu_test import parse_kv  # noqa: E402  the program's kv line, read as make gpu-test reads it

TYPE_PAIRS = ("F16_IN_F32_OUT", "F16_IN_OUT", "U8_IN_I32_OUT", "I8_IN_I32_OUT",
              "BF16_IN_F32_OUT", "TF32_IN_F32_OUT", "F64_IN_OUT")
SIXTEEN_BIT_SHAPES = ("16x16x16", "32x8x16", "8x32x16")
SHAPES = {
    "F16_IN_F32_OUT": SIXTEEN_BIT_SHAPES, "F16_IN_OUT": SIXTEEN_BIT_SHAPES,
    "U8_IN_I32_OUT": SIXTEEN_BIT_SHAPES, "I8_IN_I32_OUT": SIXTEEN_BIT_SHAPES,
    "BF16_IN_F32_OUT": SIXTEEN_BIT_SHAPES, "TF32_IN_F32_OUT": ("16x16x8",),
    "F64_IN_OUT": ("8x8x4",),
}
FIELDS = ("gpu", "cc", "sms", "clock_sm_mhz", "clock_max_sm_mhz", "clock_mem_mhz", "driver", "cuda", "date",
          "type", "mnk", "transpose_a", "transpose_b", "m", "n", "k", "kernel", "median_ms", "min_ms",
          "rate", "unit", "result", "pct_of_peak", "pct_of_cublas", "verify", "iterations", "warmup", "variant",
          "tile", "stages", "cluster", "shared_bytes", "copy_path", "note")
BUDGETS = ("163K", "99K", "64K")        # --tiers: an A100, an RTX 30xx/40xx, a T4
NO_TILE = {("TF32_IN_F32_OUT", "64K"), ("F64_IN_OUT", "64K")}   # the program has no tiles that small for them
TIER_SIZES = (4096, 8192)
CP_ASYNC_ARCH = "compute_80"
TIMEOUT_RUN = 240
TIMEOUT_BUILD = 400
GRACE = 40


def to_float(text):
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if value == value else None


def first_line(text, limit=160):
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:limit]
    return ""


def compute_capability(text):
    """'90' (gemm's kv) or '9.0' (nvidia-smi) -> '9.0'."""
    text = str(text or "").strip()
    if text.isdigit() and len(text) >= 2:
        return "%s.%s" % (text[:-1], text[-1])
    return text


HOPPER_TABLE_SIZES = (8192, 4096)
B_LAYOUT = {"0": "as stored", "1": "transposed"}


# The last step of each kernel (steps.py's lists end there): d_gemm's is --kernel=fast, d_gemm_hopper's --kernel=hopper.
LAST_STEP = 7
HOPPER_STEPS = 10
# steps CSV -> bench: the last step of each kernel is the kernel itself (hopper10 is --kernel=hopper).
STEP_NAMES = {"naive": "naive", "step%d" % LAST_STEP: "fast", "hopper%d" % HOPPER_STEPS: "hopper", "cublas": "cublas"}


def read_rows(path):
    """The rows of a bench or steps CSV (lines that start with '#' are comments)."""
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(line for line in handle if not line.startswith("#")))


def ceilings(*row_lists):
    """{(type, "peak" or "hopper-peak"): the highest rate any --peak run in the rows measured}: a ceiling
    belongs to the GPU and the type pair, not to a binary, so the session's best measure stands for all."""
    best = {}
    for rows in row_lists:
        for row in rows:
            if row["kernel"] == "peak":   # a steps CSV's --peak row holds the wgmma ceiling too
                measured = (("peak", row["rate"]), ("hopper-peak", row.get("hopper_peak")))
            elif row["kernel"] == "hopper-peak":
                measured = (("hopper-peak", row["rate"]),)
            else:
                continue
            for kernel, text in measured:
                if (to_float(text) or 0.0) > best.get((row["type"], kernel), 0.0):
                    best[(row["type"], kernel)] = to_float(text)
    return best


def canonical(bench_path, steps_path=None):
    """One row per quantity: {(type, tb, size, kernel): row} for naive, fast, cublas and hopper, and
    {(type, "", "", kernel): row} for the ceilings peak and hopper-peak (ceilings()). A quantity both CSVs
    measured is the steps CSV's (step7 is fast, hopper10 is hopper: STEP_NAMES), so every table of the page quotes one
    value for it; the rest is the bench CSV's. Variant rows (tiers) are left out."""
    bench_rows = read_rows(bench_path)
    steps_rows = read_rows(steps_path) if steps_path else []
    found = {}
    for row in bench_rows:
        if not row.get("variant") and row["kernel"] in ("naive", "fast", "cublas", "hopper"):
            found[(row["type"], row["transpose_b"], row["m"], row["kernel"])] = row
    for row in steps_rows:
        if row["kernel"] in STEP_NAMES and row["m"] == row["n"] == row["k"]:
            found[(row["type"], row["transpose_b"], row["m"], STEP_NAMES[row["kernel"]])] = row
    for (type_pair, kernel), rate in ceilings(bench_rows, steps_rows).items():
        found[(type_pair, "", "", kernel)] = {"rate": "%.3f" % rate, "result": "ok"}
    return found


def quantity(found, type_pair, tb, size, kernel):
    """The canonical row of one quantity, or None; a ceiling is the type pair's, whatever the layout."""
    if kernel in ("peak", "hopper-peak"):
        return found.get((type_pair, "", "", kernel))
    return found.get((type_pair, str(tb), str(size), kernel))


def value(row):
    return to_float((row or {}).get("rate"))


def one_decimal(number):
    return "%.1f" % number if number is not None else "—"


def checked(row, what):
    """A row that failed verification stops a table (SystemExit naming it)."""
    if row is not None and row.get("result") not in ("pass", "off", "ok", "na", ""):
        raise SystemExit("bench.py: %s: result %r, not pass" % (what, row.get("result")))
    return row


def hopper_table(path, steps_path=None):
    """The page's table of d_gemm_hopper against cuBLAS (gemm.md, "Past WMMA"), from the canonical rows
    (bench CSV, and the steps CSV where it measured the same quantity): rates with one decimal at 8192^3 and
    4096^3, cuBLAS as timed in d_gemm's run (one value per size). A row that failed verification stops it
    (SystemExit naming the row); one not verified (--verify=off) says so."""
    found = canonical(path, steps_path)
    lines = ["| type pair | B | size | `d_gemm` | cuBLAS | `d_gemm_hopper` | of cuBLAS | of its ceiling |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    for type_pair in TYPE_PAIRS:
        for tb in ("0", "1"):
            for size in HOPPER_TABLE_SIZES:
                what = "%s B %s %d" % (type_pair, B_LAYOUT[tb], size)
                hopper = checked(quantity(found, type_pair, tb, size, "hopper"), what + ": d_gemm_hopper")
                if hopper is None:
                    continue
                fast = checked(quantity(found, type_pair, tb, size, "fast"), what + ": d_gemm")
                cublas = value(quantity(found, type_pair, tb, size, "cublas"))
                ceiling = value(quantity(found, type_pair, tb, size, "hopper-peak"))
                lines.append("| %s | %s | %d³ | %s | %s | %s | %s | %s |" % (
                    type_pair, B_LAYOUT[tb], size, one_decimal(value(fast)), one_decimal(cublas),
                    one_decimal(value(hopper)) + (", unverified" if hopper["result"] == "off" else ""),
                    "%.1f%%" % (100.0 * value(hopper) / cublas) if cublas else "—",
                    "%.0f%% of %.0f" % (100.0 * value(hopper) / ceiling, ceiling) if ceiling else "—"))
    return lines


DGEMM_GROUPS = (("The 16-bit floating-point types:", ("F16_IN_F32_OUT", "BF16_IN_F32_OUT", "F16_IN_OUT")),
                ("tf32:", ("TF32_IN_F32_OUT",)),
                ("The 8-bit integers (cuBLAS has no unsigned 8-bit GEMM):", ("I8_IN_I32_OUT", "U8_IN_I32_OUT")),
                ("f64:", ("F64_IN_OUT",)))
DGEMM_SIZE, NAIVE_SIZE = 8192, 4096


def dgemm_table(path, steps_path=None):
    """The page's tables of d_gemm against cuBLAS and the WMMA ceiling ("Against cuBLAS and the ceiling"):
    d_gemm and cuBLAS at 8192^3, the naive kernel at 4096^3, from the canonical rows."""
    found = canonical(path, steps_path)
    lines = []
    for caption, type_pairs in DGEMM_GROUPS:
        lines += [caption, "", "| type pair | B | naive (4096³) | `d_gemm` | % of ceiling | cuBLAS | % of cuBLAS | ceiling |",
                  "|---|---|---:|---:|---:|---:|---:|---:|"]
        for type_pair in type_pairs:
            for tb in ("0", "1"):
                what = "%s B %s" % (type_pair, B_LAYOUT[tb])
                fast = value(checked(quantity(found, type_pair, tb, DGEMM_SIZE, "fast"), what + ": d_gemm"))
                naive = value(quantity(found, type_pair, tb, NAIVE_SIZE, "naive"))
                cublas = value(quantity(found, type_pair, tb, DGEMM_SIZE, "cublas"))
                peak = value(quantity(found, type_pair, tb, DGEMM_SIZE, "peak"))
                lines.append("| `%s` | %s | %s | %s | %s | %s | %s | %s |" % (
                    type_pair, "NT"[int(tb)], one_decimal(naive), one_decimal(fast),
                    "%.0f" % (100.0 * fast / peak) if fast and peak else "—", one_decimal(cublas),
                    "%.0f" % (100.0 * fast / cublas) if fast and cublas else "—", one_decimal(peak)))
        lines.append("")
    return lines[:-1]


TIER_COLUMNS = (("A100", "cp.async 163K"), ("RTX 30xx, 40xx", "cp.async 99K"), ("RTX 50xx", "99K"),
                ("64 KiB", "64K"))
TIER_ROWS = (("fp16", "F16_IN_F32_OUT"), ("bf16", "BF16_IN_F32_OUT"), ("`F16_IN_OUT`", "F16_IN_OUT"),
             ("int8", "I8_IN_I32_OUT"), ("tf32", "TF32_IN_F32_OUT"), ("f64", "F64_IN_OUT"))


def tiers_table(path, steps_path=None):
    """The page's table of tile tiers ("Tile sizes per GPU"): the full tile's canonical rate at 8192^3, B as
    stored / transposed, and each smaller budget as a share of the full tile timed in the same bench run."""
    found = canonical(path, steps_path)
    fast = [r for r in read_rows(path) if r["kernel"] == "fast" and r["m"] == str(DGEMM_SIZE)]
    variants = {(r["type"], r["transpose_b"], r["variant"]): r for r in fast if r.get("variant")}
    bench_full = {(r["type"], r["transpose_b"]): r for r in fast if not r.get("variant")}
    gpu = gpu_slug(fast[0]["gpu"]).upper() if fast else "full"   # the full tile's column: the GPU measured, H200
    lines = ["| type pair | %s | %s |" % (gpu, " | ".join(name for name, _ in TIER_COLUMNS)),
             "|---|---|" + "---|" * len(TIER_COLUMNS)]
    for label, type_pair in TIER_ROWS:
        cells = [" / ".join(one_decimal(value(quantity(found, type_pair, tb, DGEMM_SIZE, "fast"))) for tb in "01")]
        for _, variant in TIER_COLUMNS:
            shares = []
            for tb in "01":
                tier = checked(variants.get((type_pair, tb, variant)), "%s tier %s" % (type_pair, variant))
                full = value(bench_full.get((type_pair, tb)))
                shares.append("%.0f%%" % (100.0 * value(tier) / full) if value(tier) and full else None)
            cells.append(" / ".join(shares) if any(shares) else "—")
        lines.append("| %s | %s |" % (label, " | ".join(cells)))
    return lines


def gpu_slug(name):
    """'NVIDIA H100 80GB HBM3' -> 'h100'; 'NVIDIA GeForce RTX 4090' -> 'rtx4090'."""
    words = [w for w in re.split(r"[\s_-]+", name or "") if w and w.lower() not in ("nvidia", "geforce", "tesla", "quadro")]
    for word in words:
        if re.search(r"[A-Za-z]", word) and re.search(r"\d", word):
            return re.sub(r"[^a-z0-9]", "", word.lower()) or "gpu"
    joined = re.sub(r"[^a-z0-9]", "", "".join(words[:2]).lower())
    return joined or "gpu"


class Bench:
    def __init__(self, args):
        self.args = args
        self.root = args.root
        self.start = time.monotonic()
        self.deadline = self.start + args.budget
        self.hard_stop = self.deadline + GRACE
        self.lock = threading.Lock()
        self.processes = set()
        self.aborted = threading.Event()
        self.rows = []
        self.problems = []
        self.builds = {}
        self.info = {"gpu": "", "cc": "", "sms": "", "clock_sm_mhz": "", "clock_max_sm_mhz": "",
                     "clock_mem_mhz": "", "driver": "", "cuda": "",
                     "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
        self.smi = shutil.which("nvidia-smi")
        self.last_clock = ""
        self.csv_path = None
        self.log_file = None

    def say(self, text):
        with self.lock:
            print(text, flush=True)
            if self.log_file:
                self.log_file.write(text + "\n")
                self.log_file.flush()

    def log(self, text):
        with self.lock:
            if self.log_file:
                self.log_file.write(text + "\n")
                self.log_file.flush()

    def execute(self, argv, timeout):
        if self.aborted.is_set():
            return None, "", "aborted", 0.0
        now = time.monotonic()
        if now > self.deadline:
            return None, "", "budget of %ds used up" % self.args.budget, 0.0
        started = time.monotonic()
        try:
            process = subprocess.Popen(argv, cwd=self.root, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, start_new_session=True)
        except OSError as error:
            return "error", "", "cannot start %s: %s" % (argv[0], error), 0.0
        with self.lock:
            self.processes.add(process)
        try:
            stdout, stderr = process.communicate(timeout=min(timeout, self.hard_stop - now))
            rc = process.returncode
        except subprocess.TimeoutExpired:
            self.kill(process)
            stdout, stderr = process.communicate()
            rc = "timeout"
        finally:
            with self.lock:
                self.processes.discard(process)
        seconds = time.monotonic() - started
        stdout, stderr = stdout.decode("utf-8", "replace"), stderr.decode("utf-8", "replace")
        self.log("$ %s\n  rc=%s %.2fs\n  %s\n  %s" % (" ".join(argv), rc, seconds, stdout.strip()[-3000:],
                                                     stderr.strip()[-3000:]))
        return rc, stdout, stderr, seconds

    def kill(self, process):
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def abort(self):
        self.aborted.set()
        with self.lock:
            processes = list(self.processes)
        for process in processes:
            self.kill(process)

    # ------------------------------------------------------------ environment
    def query_gpu(self):
        if not self.smi:
            return
        rc, stdout, _, _ = self.execute([self.smi, "--query-gpu=name,compute_cap,clocks.sm,clocks.max.sm,clocks.mem,"
                                         "driver_version", "--format=csv,noheader,nounits"], 30)
        fields = None
        if rc == 0 and stdout.strip():
            fields = [f.strip() for f in stdout.strip().splitlines()[0].split(",")]
        else:  # older nvidia-smi without compute_cap
            rc, stdout, _, _ = self.execute([self.smi, "--query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,"
                                             "driver_version", "--format=csv,noheader,nounits"], 30)
            if rc == 0 and stdout.strip():
                fields = [f.strip() for f in stdout.strip().splitlines()[0].split(",")]
                fields.insert(1, "")
        if fields and len(fields) >= 6:
            keys = ("gpu", "cc", "clock_sm_mhz", "clock_max_sm_mhz", "clock_mem_mhz", "driver")
            for key, value in zip(keys, fields):
                if value and "N/A" not in value and "Not Supported" not in value:
                    self.info[key] = value.replace(" ", "_") if key == "gpu" else value
            self.info["cc"] = compute_capability(self.info["cc"])

    def sample_sm_clock(self):
        if not self.smi:
            return ""
        rc, stdout, _, _ = self.execute([self.smi, "--query-gpu=clocks.sm", "--format=csv,noheader,nounits"], 15)
        return stdout.strip().splitlines()[0].strip() if rc == 0 and stdout.strip() else ""

    def query_cuda(self):
        nvcc = os.environ.get("NVCC") or shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
        if not os.path.exists(nvcc) and not shutil.which(nvcc):
            return
        rc, stdout, _, _ = self.execute([nvcc, "--version"], 30)
        match = re.search(r"release\s+([\d.]+)", stdout or "")
        if match:
            self.info["cuda"] = match.group(1)

    # ------------------------------------------------------------ build
    def build(self, config):
        type_pair, mnk, tb, arch = config
        name = "%s_%s_ta0_tb%d" % (type_pair, mnk, tb) + ("_" + arch if arch else "")
        binary = os.path.join("out", "cfg", name, "gemm")
        os.makedirs(os.path.join(self.root, "out", "cfg", name), exist_ok=True)
        argv = ["make", "-s", "BIN=%s" % binary, "TYPE=%s" % type_pair, "MNK=%s" % mnk,
                "TRANSPOSE_A=0", "TRANSPOSE_B=%d" % tb] + self.args.make_arg + (["ARCH=%s" % arch] if arch else [])
        if self.args.no_build:
            rc, stderr = 0, ""
        else:
            rc, stdout, stderr, seconds = self.execute(argv, TIMEOUT_BUILD)
            with open(os.path.join(self.args.out, "build_%s.log" % name), "w") as handle:
                handle.write("$ %s\nrc=%s\n%s\n%s" % (" ".join(argv), rc, stdout, stderr))
        path = os.path.join(self.root, binary)
        if self.args.no_build and not os.access(path, os.X_OK):
            self.problem("build %s: --no-build and no binary at %s" % (name, binary))
            return None
        if rc != 0 or not os.access(path, os.X_OK):
            errors = [l for l in stderr.splitlines() if "error" in l.lower()]
            self.problem("build %s failed (rc %s): %s" % (name, rc, errors[0][:160] if errors else first_line(stderr)))
            return None
        return path

    def problem(self, text):
        with self.lock:
            self.problems.append(text)
        self.say("  ! " + text)

    # ------------------------------------------------------------ runs
    def base_row(self, config, kv):
        type_pair, mnk, tb, arch = config
        row = dict((f, "") for f in FIELDS)
        row.update(self.info)
        row.update({"type": type_pair, "mnk": mnk, "transpose_a": 0, "transpose_b": tb,
                    "iterations": self.args.iterations, "warmup": self.args.warmup})
        if kv:
            if kv.get("sms"):
                row["sms"] = self.info["sms"] = kv["sms"]
            if kv.get("cc"):
                row["cc"] = self.info["cc"] = compute_capability(kv["cc"])
            if kv.get("gpu") and not self.info["gpu"]:
                self.info["gpu"] = kv["gpu"]
                row["gpu"] = kv["gpu"]
        return row

    def add_row(self, row):
        with self.lock:
            self.rows.append(row)

    def peak(self, config, binary):
        rc, stdout, stderr, seconds = self.execute([binary, "--peak", "--format=kv"], TIMEOUT_RUN)
        if rc is None:
            return
        kv = parse_kv(stdout) or {}
        self.last_clock = self.sample_sm_clock()
        row = self.base_row(config, kv)
        row.update({"kernel": "peak", "rate": kv.get("rate", ""), "unit": kv.get("unit", ""),
                    "result": "ok" if rc == 0 and to_float(kv.get("rate")) else "error",
                    "verify": "off", "pct_of_peak": "100.0", "clock_sm_mhz": self.last_clock,
                    "transpose_b": "", "iterations": "", "warmup": ""})
        if row["result"] != "ok":
            row["note"] = "exit %s: %s" % (rc, first_line(stderr))
            self.problem("%s %s --peak: %s" % (config[0], config[1], row["note"]))
        self.add_row(row)
        if to_float(kv.get("hopper_rate")):   # a 9.0 GPU and an sm_90a build: the wgmma ceiling too
            hopper = dict(row, kernel="hopper-peak", rate=kv["hopper_rate"], pct_of_peak="",
                          note="d_peak_hopper, in the same --peak run")
            self.add_row(hopper)

    def verify_mode(self, config, kernel, size):
        if size <= 2048:
            return "auto"
        if size >= 8192 and self.args.verify_8192 != "all":
            if kernel == "naive" or config[0] == "F64_IN_OUT" or self.args.verify_8192 == "none":
                return "off"
        return "gpu"

    def gemm(self, config, binary, kernel, size, variant=""):
        verify = self.verify_mode(config, kernel, size)
        argv = [binary, "--kernel=%s" % kernel, "--format=kv", "--iterations=%d" % self.args.iterations,
                "--warmup=%d" % self.args.warmup, "--verify=%s" % verify]
        budget = variant.split()[-1] if variant and variant.split()[-1] in BUDGETS else None
        if budget:
            argv.append("--shared-limit=%s" % budget)
        if kernel == "fast" and not self.args.no_cublas and not variant:   # one cuBLAS per size: hopper's too
            argv.append("--cublas")
        argv += [str(size)] * 3
        rc, stdout, stderr, seconds = self.execute(argv, TIMEOUT_RUN)
        if rc is None:
            return
        kv = parse_kv(stdout) or {}
        if kernel == "fast" and size >= 4096 or not self.last_clock:
            self.last_clock = self.sample_sm_clock()  # nvidia-smi is slow: sample after the big runs only
        clock = self.last_clock
        row = self.base_row(config, kv)
        row.update({"m": size, "n": size, "k": size, "kernel": kernel, "median_ms": kv.get("median_ms", ""),
                    "min_ms": kv.get("min_ms", ""), "rate": kv.get("rate", ""), "unit": kv.get("unit", ""),
                    "verify": kv.get("verify", verify), "clock_sm_mhz": clock, "variant": variant})
        if kernel in ("fast", "hopper"):
            for key in ("tile", "stages", "cluster", "shared_bytes", "copy_path"):
                row[key] = kv.get(key, "")
        if rc == 0:
            row["result"] = kv.get("result", "")
        elif rc == 1:
            row["result"] = "fail"
        else:
            row["result"] = "error"
        if verify == "off":
            row["note"] = "; ".join(n for n in (row.get("note"), "not verified at this size (--verify=off for speed)") if n)
        if rc != 0 or not kv:
            row["note"] = "exit %s: %s" % (rc, first_line(stderr) or "no kv line")
            self.problem("%s %s tb%d %s %s %d: %s" % (config[0], config[1], config[2], kernel, variant, size, row["note"]))
        self.add_row(row)
        if kernel == "fast" and not self.args.no_cublas and rc in (0, 1) and not variant:
            cublas = self.base_row(config, kv)
            rate = kv.get("cublas_rate", "")
            cublas.update({"m": size, "n": size, "k": size, "kernel": "cublas", "unit": kv.get("unit", ""),
                           "median_ms": kv.get("cublas_median_ms", ""), "rate": rate, "clock_sm_mhz": clock,
                           "verify": "off", "result": "ok" if to_float(rate) else "na",
                           "note": "timed in the same run as fast; not verified by gemm"})
            if to_float(rate) is None:
                cublas["rate"] = cublas["median_ms"] = ""
                cublas["note"] = "cuBLAS has no equivalent for this type pair" if rate == "na" else \
                    "no cublas_rate in the kv line"
            self.add_row(cublas)

    # ------------------------------------------------------------ derived columns, output
    def derive(self):
        peaks = {}
        hopper_peaks = {}
        cublas = {}
        for row in self.rows:
            if row["kernel"] == "peak" and to_float(row["rate"]):
                peaks[(row["type"], row["mnk"])] = to_float(row["rate"])
            if row["kernel"] == "hopper-peak" and to_float(row["rate"]):
                hopper_peaks[(row["type"], row["mnk"])] = to_float(row["rate"])
            if row["kernel"] == "cublas" and to_float(row["rate"]):
                cublas[(row["type"], row["mnk"], str(row["transpose_b"]), str(row["m"]))] = to_float(row["rate"])
        for row in self.rows:
            for key, value in self.info.items():  # peak rows lack sms; early rows may lack cc
                if not row.get(key) and key not in ("clock_sm_mhz",):
                    row[key] = value
            rate = to_float(row["rate"])
            if rate is None or row["kernel"] in ("peak", "hopper-peak"):
                continue
            peak = (hopper_peaks if row["kernel"] == "hopper" else peaks).get((row["type"], row["mnk"]))
            row["pct_of_peak"] = "%.1f" % (100.0 * rate / peak) if peak else ""
            reference = cublas.get((row["type"], row["mnk"], str(row["transpose_b"]), str(row["m"])))
            row["pct_of_cublas"] = "%.1f" % (100.0 * rate / reference) if reference else ""

    def sorted_rows(self):
        kernel_order = {"peak": 0, "hopper-peak": 0, "fast": 1, "cublas": 2, "naive": 3, "hopper": 4}

        def key(row):
            return (TYPE_PAIRS.index(row["type"]) if row["type"] in TYPE_PAIRS else 99, row["mnk"],
                    0 if row["kernel"] in ("peak", "hopper-peak") else 1, str(row["transpose_b"]), int(row["m"] or 0),
                    kernel_order.get(row["kernel"], 9))
        return sorted(self.rows, key=key)

    def write_csv(self):
        with self.lock:
            self.derive()
            rows = self.sorted_rows()
        os.makedirs(os.path.dirname(self.csv_path), exist_ok=True)
        temporary = self.csv_path + ".tmp"
        with open(temporary, "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=FIELDS)
            writer.writeheader()
            for row in rows:
                writer.writerow(row)
        os.replace(temporary, self.csv_path)

    def table(self):
        lines = []
        lookup = {}
        for row in self.rows:
            if not row.get("variant"):
                lookup[(row["type"], row["mnk"], str(row["transpose_b"]), str(row["m"]), row["kernel"])] = row
        configs = []
        for row in self.sorted_rows():
            key = (row["type"], row["mnk"])
            if key not in configs:
                configs.append(key)
        sizes = [s for s in (8192, 4096) if s in self.args.sizes] or sorted(self.args.sizes)[-2:]
        lines.append("%-15s %-8s %2s %5s %8s %7s %8s %7s %6s %7s %8s %7s %s" % (
            "type pair", "shape", "tb", "size", "fast", "naive", "cuBLAS", "peak", "%peak", "%cuBLAS", "hopper",
            "%cuBLAS", "result"))

        def rate(row):
            value = to_float(row["rate"]) if row else None
            return "%.1f" % value if value is not None else "-"
        for type_pair, mnk in configs:
            peak_row = next((r for r in self.rows if r["type"] == type_pair and r["mnk"] == mnk
                             and r["kernel"] == "peak"), None)
            unit = ""
            for tb in self.args.transpose_b:
                for size in sizes:
                    fast = lookup.get((type_pair, mnk, str(tb), str(size), "fast"))
                    naive = lookup.get((type_pair, mnk, str(tb), str(size), "naive"))
                    cublas = lookup.get((type_pair, mnk, str(tb), str(size), "cublas"))
                    hopper = lookup.get((type_pair, mnk, str(tb), str(size), "hopper"))
                    if not (fast or naive):
                        continue
                    unit = unit or (fast or naive)["unit"]
                    results = "/".join(sorted(set(r["result"] for r in (fast, naive, hopper) if r)))
                    lines.append("%-15s %-8s %2s %5s %8s %7s %8s %7s %6s %7s %8s %7s %s" % (
                        type_pair, mnk, tb, size, rate(fast), rate(naive),
                        rate(cublas) if cublas and cublas["rate"] else "n/a", rate(peak_row),
                        (fast or {}).get("pct_of_peak") or "-", (fast or {}).get("pct_of_cublas") or "-",
                        rate(hopper) if hopper else "-", (hopper or {}).get("pct_of_cublas") or "-", results))
        lines.append("rates in TFLOP/s (TOP/s for the integer type pairs); %peak and %cuBLAS are fast's; "
                     "result: pass / off (not verified) / fail / error")
        variants = [r for r in self.rows if r.get("variant") and r["kernel"] == "fast"]
        if variants:
            lines.append("")
            lines.append("%-15s %2s %5s %-12s %-11s %6s %8s %7s %s" % (
                "type pair", "tb", "size", "variant", "tile", "KiB", "rate", "%full", "result"))
            for row in sorted(variants, key=lambda r: (TYPE_PAIRS.index(r["type"]), str(r["transpose_b"]),
                                                       int(r["m"]), r["variant"])):
                full = lookup.get((row["type"], row["mnk"], str(row["transpose_b"]), str(row["m"]), "fast"))
                full_rate, this_rate = to_float((full or {}).get("rate")), to_float(row["rate"])
                shared = to_float(row.get("shared_bytes"))
                lines.append("%-15s %2s %5s %-12s %-11s %6s %8s %7s %s" % (
                    row["type"], row["transpose_b"], row["m"], row["variant"], row.get("tile") or "-",
                    "%.1f" % (shared / 1024) if shared else "-", rate(row),
                    "%.1f" % (100 * this_rate / full_rate) if full_rate and this_rate else "-", row["result"]))
            lines.append("%full: the variant's rate over the full tiles' (same type pair, layout and size, same run)")
        return lines

    # ------------------------------------------------------------ main
    def run(self):
        args = self.args
        os.makedirs(args.out, exist_ok=True)
        self.log_file = open(os.path.join(args.out, "bench-log.txt"), "w")
        self.query_gpu()
        self.query_cuda()
        self.csv_path = args.csv or os.path.join(HERE, "%s.csv" % gpu_slug(self.info["gpu"] or "gpu"))
        configs = []   # each type pair's cp.async builds right after its own: a run cut short by --budget
        for type_pair in args.types:   # loses whole type pairs at the end, not every cp.async row
            shapes = SHAPES[type_pair] if args.shapes == "all" else SHAPES[type_pair][:1]
            for mnk in shapes:
                for tb in args.transpose_b:
                    configs.append((type_pair, mnk, tb, None))
            if args.tiers:
                configs += [(type_pair, SHAPES[type_pair][0], tb, CP_ASYNC_ARCH) for tb in args.transpose_b]
        self.say("bench: %s, driver %s, CUDA %s; %d configurations, sizes %s; budget %ds; csv %s"
                 % (self.info["gpu"] or "unknown GPU", self.info["driver"] or "?", self.info["cuda"] or "?",
                    len(configs), ",".join(map(str, args.sizes)), args.budget, os.path.relpath(self.csv_path, self.root)))
        if not args.no_build:
            rc, _, stderr, _ = self.execute(["make", "-s", "out/gemm.cu"], 120)
            if rc != 0:
                rc, _, stderr, _ = self.execute([sys.executable, "tangle.py"], 120)
            if rc != 0:
                self.say("bench: cannot tangle: %s" % first_line(stderr))
                return 1
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs))
        interrupted = False
        try:
            for config in configs:
                self.builds[config] = pool.submit(self.build, config)
            order = sorted(args.sizes, key=lambda s: (s not in (4096, 8192), -s if s in (4096, 8192) else s))
            peaks_done = set()
            pending = list(configs)
            while pending:
                ready = next((c for c in pending if self.builds[c].done()), None)
                if ready is None:
                    concurrent.futures.wait([self.builds[c] for c in pending], timeout=5,
                                            return_when=concurrent.futures.FIRST_COMPLETED)
                    continue
                pending.remove(ready)
                binary = self.builds[ready].result()
                if binary is None:
                    continue
                if ready[3]:   # the cp.async build: its own tiles and the smaller ones
                    for size in [s for s in order if s in TIER_SIZES]:
                        for budget in ("",) + BUDGETS:
                            if (ready[0], budget) not in NO_TILE:
                                self.gemm(ready, binary, "fast", size, ("cp.async " + budget).strip())
                    self.write_csv()
                    continue
                if (ready[0], ready[1]) not in peaks_done:
                    peaks_done.add((ready[0], ready[1]))
                    self.peak(ready, binary)
                for size in order:
                    self.gemm(ready, binary, "fast", size)
                    if not args.naive_max or size <= args.naive_max:
                        self.gemm(ready, binary, "naive", size)
                    if self.info.get("cc") == "9.0" and not args.no_hopper:
                        self.gemm(ready, binary, "hopper", size)
                    if args.tiers and size in TIER_SIZES and ready[1] == SHAPES[ready[0]][0]:
                        for budget in BUDGETS:
                            if (ready[0], budget) not in NO_TILE:
                                self.gemm(ready, binary, "fast", size, budget)
                self.write_csv()
                self.say("  [%4.0fs] %s %s tb%d done" % (time.monotonic() - self.start, ready[0], ready[1], ready[2]))
        except KeyboardInterrupt:
            interrupted = True
            self.say("bench: interrupted; writing what was measured")
            self.abort()
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
        self.write_csv()
        skipped = time.monotonic() > self.deadline
        lines = ["", "== bench: %s (cc %s, %s SMs), CUDA %s, driver %s, %s ==" % (
            self.info["gpu"], self.info["cc"], self.info["sms"], self.info["cuda"], self.info["driver"],
            self.info["date"])]
        lines += self.table()
        if skipped:
            lines.append("budget of %ds reached: later runs were not started" % args.budget)
        if interrupted:
            lines.append("interrupted: the CSV holds what was measured")
        if self.problems:
            lines.append("problems (%d):" % len(self.problems))
            lines += ["  " + p for p in self.problems[:20]]
        lines.append("csv: %s (%d rows); log: %s" % (os.path.relpath(self.csv_path, self.root), len(self.rows),
                                                     os.path.relpath(os.path.join(args.out, "bench-log.txt"), self.root)))
        if not args.no_plot and self.rows:
            svg = args.svg or os.path.splitext(self.csv_path)[0] + ".svg"
            try:
                sys.path.insert(0, HERE)
                import plot
                plot.plot(self.csv_path, svg)
                lines.append("svg: %s" % os.path.relpath(svg, self.root))
            except Exception as error:  # the CSV is the result; the plot is a convenience
                lines.append("plot failed: %s: %s" % (type(error).__name__, error))
        failures = sum(1 for r in self.rows if r["result"] in ("fail", "error"))
        lines.append("bench: %d measurements, %d failed or errors, %.0fs" % (
            sum(1 for r in self.rows if to_float(r["rate"])), failures + len([p for p in self.problems if p.startswith("build")]),
            time.monotonic() - self.start))
        for line in lines:
            self.say(line)
        self.log_file.close()
        return 0 if not self.problems and not interrupted and not skipped and self.rows else 1


def main(argv=None):
    parser = argparse.ArgumentParser(description="Benchmark out/gemm against cuBLAS and the WMMA ceiling.")
    parser.add_argument("--types", default=",".join(TYPE_PAIRS), help="comma-separated type pairs")
    parser.add_argument("--sizes", default="1024,2048,4096,8192,5000", help="M=N=K values, comma-separated")
    parser.add_argument("--transpose-b", default="0,1", help="TRANSPOSE_B settings (default 0,1)")
    parser.add_argument("--shapes", choices=("default", "all"), default="default", help="WMMA shapes per type pair")
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--naive-max", type=int, default=0, help="largest size for the naive kernel (0: all)")
    parser.add_argument("--verify-8192", choices=("default", "all", "none"), default="default",
                        help="at 8192: default verifies fast except F64_IN_OUT; all; none")
    parser.add_argument("--no-cublas", action="store_true")
    parser.add_argument("--no-hopper", action="store_true", help="leave d_gemm_hopper out (on 9.0 GPUs it runs)")
    parser.add_argument("--tiers", action="store_true",
                        help="also the tiles of smaller GPUs (--shared-limit) and the cp.async build, at 4096 and 8192")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 4, help="parallel builds")
    parser.add_argument("--budget", type=int, default=480, help="seconds after which no new run starts")
    parser.add_argument("--csv", default=None, help="output CSV (default docs/bench/<gpu>.csv, e.g. h100.csv)")
    parser.add_argument("--svg", default=None, help="output SVG (default: the CSV's name with .svg)")
    parser.add_argument("--no-plot", action="store_true")
    parser.add_argument("--no-build", action="store_true", help="use the binaries already in out/cfg/")
    parser.add_argument("--make-arg", action="append", default=[], help="extra make argument, e.g. ARCH=sm_90")
    parser.add_argument("--out", default=None, help="log directory (default out/bench)")
    parser.add_argument("--root", default=ROOT, help=argparse.SUPPRESS)
    parser.add_argument("--hopper-table", metavar="CSV", default=None,
                        help="print the page's d_gemm_hopper table from a bench CSV, and run nothing")
    parser.add_argument("--dgemm-table", metavar="CSV", default=None,
                        help="print the page's tables of d_gemm against cuBLAS and the ceiling, and run nothing")
    parser.add_argument("--tiers-table", metavar="CSV", default=None,
                        help="print the page's table of tile tiers (--tiers rows), and run nothing")
    parser.add_argument("--steps", metavar="CSV", default=None,
                        help="with a table: the steps CSV of the same session, whose rates win where both measured")
    args = parser.parse_args(argv)
    for path, table in ((args.hopper_table, hopper_table), (args.dgemm_table, dgemm_table),
                        (args.tiers_table, tiers_table)):
        if path:
            print("\n".join(table(path, args.steps)))
            return 0
    args.root = os.path.abspath(args.root)
    args.types = [t.strip() for t in args.types.split(",") if t.strip()]
    if not args.types or any(t not in TYPE_PAIRS for t in args.types):
        parser.error("--types: choose from %s" % ",".join(TYPE_PAIRS))
    try:
        args.sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
        args.transpose_b = [int(s) for s in args.transpose_b.split(",") if s.strip()]
    except ValueError:
        parser.error("--sizes and --transpose-b take comma-separated integers")
    if not args.sizes or min(args.sizes) <= 0 or any(t not in (0, 1) for t in args.transpose_b):
        parser.error("bad --sizes or --transpose-b")
    args.out = os.path.abspath(args.out or os.path.join(args.root, "out", "bench"))
    if args.csv:
        args.csv = os.path.abspath(args.csv)

    def on_signal(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, on_signal)
    return Bench(args).run()


if __name__ == "__main__":
    sys.exit(main())
